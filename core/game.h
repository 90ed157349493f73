/*
 * game.h - the game driver: one game's rules state, seats, dice and the
 * records it produces. The same code runs live (berthierd: records go to the
 * log) and in replay (berthier-replay, daemon restart: every record produced
 * is compared byte for byte with the record found in the log).
 *
 * Every input (join, order, timeout, resign, nonce) that is accepted produces,
 * in this order: its input record, then the outcome records (DICE, EVENT, ...,
 * STATE), then END + REVEAL when the game ended, then a CHECKPOINT when the
 * game turn changed or the game ended. A rejected input produces nothing.
 *
 * seq: the number of applied inputs. Orders cite the seq they were decided
 * against (Submit.based_on_seq); a sealed choice that is only recorded (other
 * seats still to choose) does not advance it, so nobody learns it was made.
 */
#ifndef BERTHIER_GAME_H
#define BERTHIER_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"
#include "ruleset.h"
#include "seatsig.h"

#define GAME_ID_MAX 40

/* Where the game's records go. */
typedef struct brt_sink {
    /* Append (live) or compare with the next log record (replay). 0 or -1. */
    int (*record)(void *ctx, uint8_t kind, const uint8_t *payload, size_t len);
    /* Append (live: sign) or check (replay: verify) a CHECKPOINT of the current head. */
    int (*checkpoint)(void *ctx);
    /* The chain hash of the last record (for contributory dice batches). */
    void (*head)(void *ctx, uint8_t out[32]);
    void *ctx;
} brt_sink;

typedef struct brt_game brt_game;

typedef struct game_params {
    const char *game_id;
    const Berthier__V1__CreateGame *create;
    const uint8_t *seed;              /* 32 bytes: the server seed (kept secret until the end) */
    const uint8_t *sign_pk;           /* 32 bytes: the daemon's Ed25519 public key */
    const char *engine_version;
    /* The create request, recorded in the header so that the daemon can answer
     * its retry after a restart (LogHeader.create_*). request_id 0: none. */
    const uint8_t *create_key;        /* 32 bytes: the requesting key */
    uint64_t create_request_id;
    const uint8_t *create_digest;     /* GAME_CREATE_DIGEST bytes of the Request */
} game_params;

#define GAME_CREATE_DIGEST 16

/* What a header may hold (docs/protocol.md P4.1); game_create and
 * game_from_header refuse more: BAD_OPTION for options (more than
 * GAME_MAX_OPTIONS, one empty or longer than GAME_MAX_OPTION_LEN bytes, two
 * with the same name, the part before '='), BAD_SEATS for a seat name longer
 * than GAME_MAX_SEAT_NAME bytes and for spectator keys (more than
 * GAME_MAX_SPECTATORS, not 32 bytes, repeated, or a seat's key). */
#define GAME_MAX_OPTIONS 32
#define GAME_MAX_OPTION_LEN 64
#define GAME_MAX_SEAT_NAME 64
#define GAME_MAX_SPECTATORS 64

/* New game: validates ruleset, scenario, options and seats, emits the HEADER record.
 * -1 with err (code BAD_RULESET, BAD_SCENARIO, BAD_OPTION, BAD_SEATS) on refusal. */
brt_game *game_create(const game_params *p, brt_sink sink, brt_reject *err);

/* Re-open from a HEADER payload (restart, replay). The header record itself is not
 * emitted again. seed may be NULL (replay of a live game: dice values are then taken
 * from the log's DICE records by dice_from_log). */
brt_game *game_from_header(const uint8_t *header, size_t len, const uint8_t *seed, brt_sink sink,
                           brt_reject *err);

void game_destroy(brt_game **pself);

/* Replay without the seed: the game asks this for roll `index` (the replay tool
 * answers from the log's DICE records). */
void game_set_dice_source(brt_game *self, dice_source_fn fn, void *ctx);

/* Re-execution of a log whose sink compares every record (berthier-replay
 * verify): an order that is applied at once (not sealed, no contributory batch)
 * is applied once, not first on a copy to check it. A rejected order then has
 * its ORDER record emitted before the rejection (the comparing sink matched it
 * already); the daemon never sets this. */
void game_set_replaying(brt_game *self, int on);

/* Where the verdict on a seat signature comes from: fn has seatsig_verify's
 * arguments and result (0 valid, -1 not) and must give exactly its verdict.
 * berthier-replay verify sets one that looks up the verdict its worker threads
 * computed ahead of the re-execution (replay/sigcheck.c); NULL (the default, the
 * daemon's) calls seatsig_verify. */
typedef int (*seat_verify_fn)(void *ctx, const uint8_t pk[32], const char *game_id, const uint8_t header_hash[32],
                              uint64_t seq, uint64_t request_id, unsigned body_field, const uint8_t *body,
                              size_t body_len, const uint8_t *sig, size_t sig_len);
void game_set_seat_verify(brt_game *self, seat_verify_fn fn, void *ctx);

/* Bare re-execution, the floor of replay verify in berthier-bench: the ruleset's
 * setup, then its apply on each (seats[i], orders[i]) in turn, with roll k
 * answered by dice[k] (a logged value): no copy, no state hash, no signature,
 * nothing compared or logged (events are encoded into a scratch buffer, as
 * apply gives them). *refused counts the orders apply rejected (sealed orders
 * applied out of turn, for one). 0, or -1 when setup fails. */
int game_bare_run(const brt_ruleset *rs, const char *scenario, const brt_ruleset_options *opts,
                  const unsigned *seats, const uint8_t *const *orders, const size_t *lens, size_t n,
                  const uint32_t *dice, size_t ndice, size_t *refused);

/* ---- inputs: 0 accepted (records emitted), -1 rejected (err filled, nothing emitted) ---- */
int game_join(brt_game *self, unsigned seat, const uint8_t *entropy, size_t entropy_len,
              const uint8_t *chain_commit, size_t commit_len, brt_reject *err);
/* request: the exact Request bytes received (already checked canonical by the caller,
 * or by game_input_record in replay). The Submit inside carries seat, seq and order. */
int game_submit(brt_game *self, unsigned seat, const uint8_t *request, size_t len, brt_reject *err);
int game_timeout(brt_game *self, unsigned seat, brt_reject *err);
int game_resign(brt_game *self, unsigned seat, brt_reject *err);

/* An admin ends the game (ABORT record, then END, REVEAL, CHECKPOINT). reason:
 * 1..GAME_ABORT_REASON_MAX bytes of printable ASCII, quoted in the result.
 * forfeit_seat < 0: no winner, level "aborted"; otherwise that seat forfeits
 * (in a started game the ruleset's resign() is applied, then STATE) and every
 * other seat wins, level "forfeit". GAME_OVER on an ended game. */
#define GAME_ABORT_REASON_MAX 120
int game_abort(brt_game *self, const char *reason, int forfeit_seat, brt_reject *err);
/* 1 if an ABORT ended the game. */
int game_aborted(const brt_game *self);
int game_nonce(brt_game *self, unsigned seat, uint64_t batch, const uint8_t *nonce, size_t len,
               brt_reject *err);

/* Seat-signed inputs (seatsig.h). The first join decides for the whole game: a
 * signed join binds the seat's signing key and must sign this game's header
 * hash; then every seat's join, submit, resign and reveal must carry a valid
 * signature (a submit's is the Request.signature inside its bytes), and a bad
 * or missing one is refused (UNAUTHORIZED, rule P3) with nothing emitted. An
 * unsigned first join (logs from before seat signatures) makes an unsigned
 * game, in which no input may carry a signature. The functions above are
 * these with sig NULL. A seat that has not joined may resign unsigned. */
int game_join_signed(brt_game *self, unsigned seat, const uint8_t *entropy, size_t entropy_len,
                     const uint8_t *chain_commit, size_t commit_len, const brt_seatsig *sig, brt_reject *err);
int game_resign_signed(brt_game *self, unsigned seat, const brt_seatsig *sig, brt_reject *err);
int game_nonce_signed(brt_game *self, unsigned seat, uint64_t batch, const uint8_t *nonce, size_t len,
                      const brt_seatsig *sig, brt_reject *err);

/* Replay: feed an input record read from a log (dispatches to the functions above). */
int game_input_record(brt_game *self, uint8_t kind, const uint8_t *payload, size_t len,
                      brt_reject *err);

/* ---- queries ---- */
const char *game_id(const brt_game *self);
const brt_ruleset *game_ruleset(const brt_game *self);
const Berthier__V1__LogHeader *game_header(const brt_game *self);
unsigned game_seat_count(const brt_game *self);
const uint8_t *game_seat_key(const brt_game *self, unsigned seat); /* 32 bytes */
int game_started(const brt_game *self);
int game_joined(const brt_game *self, unsigned seat);
uint64_t game_seq(const brt_game *self);
int game_over(const brt_game *self);
void game_result(const brt_game *self, brt_result *out);
/* The pending decision as `seat` may know it (seat < 0: spectator / admin). */
void game_pending(const brt_game *self, int seat, brt_pending *out, int *you_must_act);
int game_legal(const brt_game *self, unsigned seat, brt_buf *out);
int game_view(const brt_game *self, int seat, brt_buf *out, brt_buf *text);
/* The ruleset's SVG picture of the state as `viewpoint` (a seat, BRT_VIEW_ALL,
 * BRT_VIEW_PUBLIC) may see it; ctx may be NULL. -1 if the game has not started,
 * the ruleset draws no pictures, or it fails. */
int game_render(const brt_game *self, int viewpoint, const brt_render_ctx *ctx, brt_buf *out);
/* The ruleset's answer (text) to a question about the state as `viewpoint` may see it
 * (brt_ruleset.query). -1 if the game has not started, the ruleset answers no questions, or
 * it fails. */
int game_query(const brt_game *self, int viewpoint, const char *text, brt_buf *out);
/* BLAKE2b-256 of the ruleset's canonical encoding of the current state. */
int game_state_hash(const brt_game *self, uint8_t out[32]);
/* Parse a text order for `seat` into the ruleset's Order bytes. */
int game_parse_order(const brt_game *self, const char *text, brt_buf *out, brt_reject *err);
/* The server seed, for the daemon to persist (NULL in replay before the reveal). */
const uint8_t *game_seed(const brt_game *self);
/* dice=contributory: the batch whose nonces are awaited (or the next one). */
uint64_t game_batch(const brt_game *self);

/* The exact HEADER payload and its hash (what seats sign, seatsig.h). */
const uint8_t *game_header_bytes(const brt_game *self, size_t *len);
const uint8_t *game_header_hash(const brt_game *self);
/* 1 seat-signed, 0 not (an old log), -1 not decided yet (nobody joined). */
int game_seat_signed(const brt_game *self);
/* The signing key seat's join bound (NULL: unsigned game or not joined). */
const uint8_t *game_seat_sign_pk(const brt_game *self, unsigned seat);

/* Options the core itself understands (filtered out before the ruleset sees them):
 * dice=standard, dice=contributory, dice-seed=HEX (and its header form dice-seed=fixed),
 * spectators=live. */
int game_option_is_core(const char *opt);
/* Every core option a game accepts, NULL-terminated (hello lists them). */
const char *const *game_core_options(void);

/* The operator's fixed dice seed (docs/dice.md "Fixed dice"): a create request's option
 * dice-seed=HEX, 64 hex digits. 1 with seed set when one is there, 0 when none,
 * -1 with err (BAD_OPTION) when it is malformed, given twice or mixed with another dice mode.
 * game_create uses this seed instead of params.seed; the caller keeps it as the game's seed. */
int game_fixed_seed(char *const *opts, size_t n, uint8_t seed[32], brt_reject *err);

/* 1 when the game's dice were fixed by the operator (dice-seed), else 0. */
int game_dice_fixed(const brt_game *self);

#endif
