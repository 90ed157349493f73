/*
 * ruleset.h - the game-agnostic interface between the core and a ruleset.
 *
 * A ruleset is a table of functions over an opaque state. The core owns the
 * state's lifetime, the dice, the log and the network; the ruleset owns the
 * rules. Rules code is a pure function of (state, seat, order bytes, dice):
 * it never reads a clock, the environment, a file or a random source, and it
 * uses integers only. The core rolls, the rules ask (brt_dice_roll).
 *
 * The state machine: pending() says which seat(s) must decide what now;
 * apply() takes one seat's order and either changes the state (emitting events,
 * possibly rolling dice) or rejects it with a rule reference and leaves the
 * state untouched. When pending() names several seats with sealed set, the
 * core collects one order from each (validating each with a dry run on a copy)
 * and then applies them in seat order; no seat learns another's choice first.
 */
#ifndef BERTHIER_RULESET_H
#define BERTHIER_RULESET_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "dice.h"

#define BRT_MAX_SEATS 8
#define BRT_SEATS_ALL 0xffffffffu
/* In an event's seat mask: the spectators' copy. An event that names what some seat may not
 * see goes to each seat in its own copy; the copy for the spectators (what every seat may see,
 * BRT_VIEW_PUBLIC) carries this bit, alone or with the seat whose copy says exactly that. Bit 31
 * is no seat's (BRT_MAX_SEATS), and BRT_SEATS_ALL has it too: a public event reaches everyone. */
#define BRT_SEATS_SPECTATORS 0x80000000u

/* Viewpoints of view(), view_text() and render(): a seat (>= 0), or one of these.
 * BRT_VIEW_ALL is the whole truth (the log, admins, anyone after the end);
 * BRT_VIEW_PUBLIC is what every seat may see at once, the spectators' share
 * (a unit hidden from any seat is hidden from it). */
#define BRT_VIEW_ALL (-1)
#define BRT_VIEW_PUBLIC (-2)

/* Rejection codes a ruleset may return (same numbers as berthier.v1.Code). */
enum {
    BRT_REJECT_ILLEGAL = 8,      /* the rules forbid it; rule says which */
    BRT_REJECT_MALFORMED = 1,    /* the order bytes do not decode */
    BRT_REJECT_NOT_YOUR_DECISION = 6,
    BRT_REJECT_BAD_SCENARIO = 11,
    BRT_REJECT_BAD_OPTION = 12,
    BRT_REJECT_BAD_SEATS = 13,
    BRT_REJECT_BAD_TEXT = 20,
};

typedef struct brt_reject {
    int code;           /* one of BRT_REJECT_* */
    char rule[32];      /* rule reference, e.g. "6.3" or "9.7.4" */
    char message[512];  /* "[6.3] GARDE cannot enter 0805: an enemy unit is there" */
} brt_reject;

/* Fill a rejection; returns -1 so callers can `return brt_reject_set(...)`. */
int brt_reject_set(brt_reject *r, int code, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

typedef struct brt_pending {
    uint32_t seats;     /* bit mask of seats that must decide now; 0 when game over */
    int sealed;         /* several seats choose in secret, revealed together */
    char kind[32];      /* decision kind, e.g. "move", "declare-battles", "retreat" */
    char rule[32];      /* rule reference of the decision */
    char prompt[160];   /* a sentence for people */
    uint32_t turn;      /* the ruleset's game turn, for checkpoints and clocks */
} brt_pending;

typedef struct brt_result {
    int ended;
    uint32_t winners;   /* bit mask; 0 with ended = draw */
    char level[32];     /* "decisive", "marginal", "draw", "forfeit", ... */
    char reason[160];   /* a sentence citing the rule */
    int32_t scores[BRT_MAX_SEATS];
} brt_result;

/* Where apply() puts its events: each is the ruleset's serialized Event message
 * with the bit mask of seats entitled to see it (BRT_SEATS_ALL = public). A
 * ruleset with hidden information emits a full event for the owner and a
 * redacted one for the others. */
typedef struct brt_events brt_events;
int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len);

/* What a picture may show beside the state itself: the order that led to it
 * (to draw the last move's path), and a caption. Both optional. */
typedef struct brt_render_ctx {
    const uint8_t *last_order;  /* the ruleset's Order bytes of the last accepted order, or NULL */
    size_t last_len;
    int last_seat;              /* the seat that gave it (-1 none) */
    const char *caption;        /* a line of printable text to print on the picture, or NULL */
} brt_render_ctx;

typedef struct brt_ruleset_options {
    const char *const *names;  /* e.g. "fog-of-war" (core options such as dice=... are filtered out) */
    size_t count;
    unsigned seats;            /* seats in this game (setup rejects a count it cannot play: BAD_SEATS) */
} brt_ruleset_options;

typedef struct brt_ruleset {
    const char *id;            /* "n20" */
    const char *version;       /* pinned in every log header; bump on any rules change */

    /* The most seats this scenario can have (2 or 3) and their names; -1 if the scenario
     * is unknown. The game's actual count (opts->seats) is checked by setup. */
    int (*scenario_seats)(const char *scenario, const char **names, size_t max);
    /* BLAKE2b-256 of the scenario data the ruleset will use (logged in the header). */
    int (*scenario_hash)(const char *scenario, uint8_t out[32]);

    /* Build the initial state. May roll (shuffles). Returns NULL with err filled. */
    void *(*setup)(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice,
                   brt_reject *err);
    void (*destroy)(void *state);
    void *(*clone)(const void *state);

    void (*pending)(const void *state, brt_pending *out);

    /* Apply one seat's order. 0 = accepted (events emitted, state changed);
     * -1 = rejected (err filled, state unchanged, no dice rolled). */
    int (*apply)(void *state, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice,
                 brt_events *ev, brt_reject *err);

    /* Every order the seat may give now (serialized Order messages, each
     * prefixed in `out` by a u32 little-endian length). Returns the count, or
     * -1. For large spaces a ruleset may list one representative path per
     * reachable destination; apply() must accept every listed order. */
    int (*legal)(const void *state, unsigned seat, brt_buf *out);

    /* The state as `seat` may see it (ruleset's View message); seat is a viewpoint
     * (a seat, BRT_VIEW_ALL or BRT_VIEW_PUBLIC). */
    int (*view)(const void *state, int seat, brt_buf *out);
    /* Human-readable rendering of that view. */
    int (*view_text)(const void *state, int seat, brt_buf *out);

    /* A picture of the state as `viewpoint` may see it (a seat, BRT_VIEW_ALL or
     * BRT_VIEW_PUBLIC), as one standalone SVG document appended to out. Pure and
     * deterministic like the rules: the same (state, viewpoint, ctx) gives the same
     * bytes on every build (integers only, no clock, no locale). It draws nothing the
     * viewpoint's view() would not give. Conventions the viewers rely on
     * (docs/render.md): the root <svg> has class "brt-board" and data-ruleset; every
     * piece the viewpoint may see by name is a <g> with class "counter", id "u-<ID>"
     * and data-unit="<ID>"; nothing hidden from the viewpoint appears in any attribute,
     * text or comment. NULL: the ruleset draws no pictures (game_render says so). */
    int (*render)(const void *state, int viewpoint, const brt_render_ctx *ctx, brt_buf *out);

    /* Canonical bytes of the full state; the state hash is BLAKE2b-256 of them. */
    int (*encode)(const void *state, brt_buf *out);

    void (*result)(const void *state, brt_result *out);

    /* A seat resigned or forfeited: end the game in the other side's favour. */
    void (*resign)(void *state, unsigned seat, brt_events *ev);
    /* A seat's clock ran out on a decision and the game goes on: apply the
     * rules' default for it (e.g. "end phase", "no reaction"). Returns -1 if
     * the decision has no default (the core then forfeits the seat). */
    int (*timeout_default)(void *state, unsigned seat, brt_dice *dice, brt_events *ev);

    /* Text syntax for orders and events (docs/orders.md). */
    int (*order_parse)(const void *state, const char *text, brt_buf *out, brt_reject *err);
    int (*order_format)(const uint8_t *order, size_t len, brt_buf *out);
    int (*event_format)(const uint8_t *event, size_t len, brt_buf *out);

    /* Discovery (hello lists them; BAD_SCENARIO and BAD_OPTION refusals name them).
     * The i-th scenario's name, NULL past the last; when min_seats is not NULL it gets the
     * fewest seats the scenario is played by (scenario_seats gives the most). */
    const char *(*scenario_name)(size_t i, unsigned *min_seats);
    /* The i-th option name `scenario` accepts (NULL past the last, or for a scenario the
     * ruleset does not know). Options with a value are listed as "name=VALUE". */
    const char *(*scenario_option)(const char *scenario, size_t i);

    /* A question about the state in the ruleset's own words ("can this Formation reach / touch
     * / fire on that one"), answered as text for people appended to out, as `viewpoint` may
     * see the state (the same rule as view()). Pure and deterministic like the rules; a
     * question it does not understand is answered with a sentence saying so, not an error.
     * -1 only when it cannot answer at all. NULL: the ruleset answers no questions (the
     * daemon's `query` request says so). */
    int (*query)(const void *state, int viewpoint, const char *text, brt_buf *out);
} brt_ruleset;

/* Write the names a ruleset lists into out (always NUL-terminated), ", "-separated:
 * its scenarios when scenario is NULL, else the options that scenario accepts ("none"
 * if it takes none). A list that does not fit ends in ", ...". Returns the length. */
size_t brt_ruleset_names(const brt_ruleset *rs, const char *scenario, char *out, size_t cap);

/* The registry (rules/registry.c): NULL-terminated list of every ruleset built in. */
const brt_ruleset *brt_ruleset_find(const char *id);
const brt_ruleset *const *brt_ruleset_all(void);

#endif
