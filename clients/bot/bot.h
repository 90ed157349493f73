/*
 * bot.h - the reference bots' play loop and policies, shared by berthier-bot
 * (one seat) and berthier-match (every seat of many games, one thread each).
 *
 * A policy is a table entry: it is asked to choose among the legal orders the
 * daemon listed for the decision in front of the seat. The play loop does the
 * rest: join, wait for the seat's turn, fetch the decision and the legal orders,
 * submit the choice citing the decision's seq, refetch after every accepted or
 * STALE order, and stop when the game ends. By default the reply to an order
 * brings the next decision and its legal orders (docs/protocol.md P4.3), so that
 * "refetch" costs no request while the seat acts again (bot_params.old_protocol:
 * the old requests).
 */
#ifndef BERTHIER_BOT_H
#define BERTHIER_BOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "berthier/client.h"

/* What the policy sees. */
typedef struct bot_view {
    const char *game_id;
    const char *ruleset;
    const char *scenario;
    unsigned seat;
    unsigned n_seats;
    const Berthier__V1__Decision *decision;
    const Berthier__V1__LegalOrders *legal;
    /* The seat's view (the ruleset's View message), for policies with needs_view. */
    const uint8_t *view;
    size_t view_len;
    /* Ask whether the decision is still the one in front of the seat (it is not
     * when the daemon's clock ran out and the game moved on). 1 yes, 0 no. */
    int (*still_current)(void *ctx);
    void *ctx;
    /* For policies whose wants_events says so (else NULL / 0): the seat's view in
     * text (StateView.text), and the events the seat may see that came after the
     * previous time it was asked (the first time: since the start of the game). */
    const char *view_text;
    Berthier__V1__Event *const *events;
    size_t n_events;
} bot_view;

/* A choice: an index into legal (orders/texts), or an order text of its own. */
typedef struct bot_choice {
    int index;        /* -1 when text is set */
    char text[1024];
} bot_choice;

enum {
    BOT_CHOSE = 0,
    BOT_ABANDON = 1, /* the decision went away while the policy thought */
    BOT_FAILED = -1, /* the policy cannot play (crashed external program) */
};

typedef struct bot_policy {
    const char *name;
    const char *summary;
    /* NULL if the policy plays this ruleset, else a sentence saying why not. */
    const char *(*unsupported)(const char *ruleset);
    /* arg: the text after "exec:" for external programs, NULL otherwise. */
    void *(*create)(uint64_t seed, const char *arg, const bot_view *start);
    int (*choose)(void *self, const bot_view *v, bot_choice *out);
    /* A choice was rejected (code, one-line error); the policy may learn. */
    void (*rejected)(void *self, int code, const char *error);
    /* The game ended; result is one line. */
    void (*finished)(void *self, const char *result);
    void (*destroy)(void *self);
    /* 1: the seat's view before each choice (needs_view(ruleset)): asked with the
     * decision (Want.view, Reply.next_view), or by a `state` request with --protocol old
     * or when the reply lacks it. */
    int (*needs_view)(const char *ruleset);
    /* 1: fetch the view (with its text) and the events since the previous choice
     * before this choice (asked of the policy's instance before each choice). */
    int (*wants_events)(void *self);
    /* 1: the policy reads the legal orders' texts (NULL: never; the daemon then
     * formats none for it, P4.3). */
    int (*needs_texts)(const char *ruleset);
} bot_policy;

/* The built-in policies and "exec:PROGRAM". NULL if unknown. */
const bot_policy *bot_policy_find(const char *spec, const char **arg);
/* "random, greedy, exec:PROGRAM" for help texts. */
void bot_policy_list(char *out, size_t len);

/* splitmix64: the bots' own seeded generator (bots are not rules code). */
uint64_t bot_rng_next(uint64_t *state);
/* Uniform in [0, n), unbiased (rejection). n > 0. */
uint64_t bot_rng_below(uint64_t *state, uint64_t n);

/* The best-scored of a list, ties broken uniformly at random as they come (reservoir of one):
 * start with bot_best_init, offer each candidate's score and index in turn. */
typedef struct bot_best {
    int found;       /* a candidate was offered */
    int score;       /* the best score so far */
    uint64_t ties;   /* candidates with that score so far */
    int index;       /* the one kept */
} bot_best;
void bot_best_init(bot_best *self);
void bot_best_offer(bot_best *self, uint64_t *rng, int score, int index);

typedef struct bot_params {
    brt_client *client;          /* connected with the seat's key */
    const char *game_id;
    const char *ruleset;         /* for the policy; may be NULL (asked of nobody) */
    const char *scenario;
    unsigned seat;
    unsigned n_seats;
    const char *policy;          /* "random", "greedy", "exec:/path/to/program" */
    uint64_t seed;
    int contributory;            /* the game has dice=contributory (also found out at join) */
    int max_illegal;             /* consecutive rejected choices before resigning (default 3) */
    int patience_ms;             /* give up after this long without any reply (default 300000) */
    int verbose;                 /* print each order to stderr */
    const char *label;           /* prefix for verbose lines */
    atomic_int *stop;            /* set to 1 to stop early (may be NULL) */
    atomic_ullong *progress_seq; /* updated with the game's seq (may be NULL) */
    atomic_uint *progress_turn;  /* updated with the game's turn (may be NULL) */
    /* Receipts file: every receipt the daemon gives this seat is appended to it
     * (docs/log-format.md "Receipts file"). NULL: the game's default
     * (brt_receipts_default_path); "-": keep none. */
    const char *receipts;
    /* 1: the old requests, pending + legal + submit, one reply each (berthier-bot and
     * berthier-match --protocol old), so that an old-style client is still exercised;
     * 0: one round trip per order (docs/protocol.md P4.3): the reply to an order or a
     * reveal carries the next decision and its legal orders, and a turn that passed
     * back is one `pending` asking for them. */
    int old_protocol;
} bot_params;

typedef struct bot_outcome {
    int finished;                /* the game ended */
    int resigned;                /* this seat resigned (illegal choices, dead program) */
    uint32_t winners;            /* bit mask of winning seats (0 = draw) */
    char level[64];
    char reason[256];
    uint32_t turn;
    uint64_t seq;
    unsigned orders;             /* orders this seat got accepted */
    unsigned rejected;           /* choices rejected */
    unsigned retries;            /* calls that got no reply in time */
    unsigned requests;           /* requests sent (each call once, whatever its retries) */
    char error[512];             /* why the loop stopped, when not finished */
} bot_outcome;

/* Play the seat until the game ends. 0 = the game ended, -1 = stopped early. */
int bot_play(const bot_params *p, bot_outcome *out);

/* Result of a Decision as one line: "seat 0 wins (decisive): reason" / "draw: ...". */
void bot_result_line(const Berthier__V1__Result *r, char *out, size_t len);
/* The same with seat names: "seat 0 (french) wins (decisive): reason". names may be NULL. */
void bot_result_line_named(const Berthier__V1__Result *r, const char *const *names, size_t n_names,
                           char *out, size_t len);

#endif
