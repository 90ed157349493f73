/*
 * berthier_local.h - one game in process, with the daemon's core and rules
 * (libberthier_local.so). A flat C API for ctypes and other foreign function
 * interfaces: the Python package's berthier.local is built on it.
 *
 * The game is the daemon's game: the same game driver (core/game.c), the same
 * dice (docs/dice.md), seat-signed inputs (docs/protocol.md P3.1) and the same
 * records. Given the daemon game's id, seed (<data-dir>/games/<id>.seed), seat
 * keys and each seat's join entropy, and the same orders, it produces the same
 * DICE, EVENT, STATE and END records and the same state hashes (dice=standard
 * and dice-seed=HEX; dice=contributory is not supported here).
 *
 * Signing: the game holds each seat's CURVE secret key and derives the seat's
 * signing key from it as the clients do (seatsig_derive), so that every join
 * and order it makes is signed like a client's. Checkpoints are signed with an
 * Ed25519 key from the caller's 32-byte seed (the role of the daemon's key):
 * brt_local_write_log writes a log that `berthier-replay verify` accepts.
 *
 * Returns: 0 / -1 (brt_local_error says why); data is returned through the
 * game's own buffer (valid until the next call on the same game). A game is
 * used by one thread at a time; different games are independent.
 */
#ifndef BERTHIER_LOCAL_H
#define BERTHIER_LOCAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct brt_local brt_local;

/* A new game (the HEADER record is made; nobody has joined yet).
 *   options: NULL or names separated by '\n' (e.g. "fog-of-war\ndice-seed=...")
 *   game_id: NULL: 16 hex digits from the seed
 *   seed: 32 bytes, the server seed (ignored for dice-seed=HEX, which fixes it)
 *   seat_sk: n_seats * 32 bytes of CURVE secret keys, or NULL: derived from seed
 *   sign_seed: 32 bytes, the seed of the checkpoint key, or NULL: derived from seed
 * NULL on refusal with the reason in err (code BAD_RULESET, BAD_SCENARIO, ...). */
brt_local *brt_local_new(const char *ruleset, const char *scenario, const char *options, unsigned n_seats,
                         const char *game_id, const uint8_t *seed, const uint8_t *seat_sk,
                         const uint8_t *sign_seed, char *err, size_t errlen);
void brt_local_destroy(brt_local **pself);

/* Join `seat` with its 32 bytes of entropy (NULL: derived from the seed and seat). */
int brt_local_join(brt_local *self, unsigned seat, const uint8_t *entropy);
/* Submit an order as `seat`: Order bytes, or text (NUL-terminated) when is_text. */
int brt_local_apply(brt_local *self, unsigned seat, const uint8_t *order, size_t len, int is_text);
int brt_local_resign(brt_local *self, unsigned seat);

/* The legal orders: a list of u32-le length-prefixed Order bytes; *count set.
 * text: the same list with each item the order's text. NULL on error. */
const uint8_t *brt_local_legal(brt_local *self, unsigned seat, int text, size_t *len, int *count);
/* The view of `seat` (-1: the whole state, as a spectator): the ruleset's View
 * bytes, or its text when text is 1. */
const uint8_t *brt_local_view(brt_local *self, int seat, int text, size_t *len);
/* The pending decision: seats bit mask (0 when the game is over), sealed, kind (at
 * least 32 bytes), rule (32), prompt (160), turn. 0. */
int brt_local_pending(brt_local *self, uint32_t *seats, int *sealed, char *kind, char *rule, char *prompt,
                      uint32_t *turn);
/* 1 when `seat` must decide now (and, in a sealed decision, has not chosen yet). */
int brt_local_must_act(brt_local *self, unsigned seat);
/* The result: ended, winners mask, level and reason (each at most 160 bytes with NUL). */
int brt_local_result(brt_local *self, int *ended, uint32_t *winners, char *level, char *reason);
int brt_local_state_hash(brt_local *self, uint8_t out[32]);
uint64_t brt_local_seq(const brt_local *self);
unsigned brt_local_seats(const brt_local *self);
const char *brt_local_game_id(const brt_local *self);
/* The records the last accepted input made: a list of items, each one kind
 * byte followed by the record's payload (the input record first). */
const uint8_t *brt_local_last_records(brt_local *self, size_t *len, int *count);
/* The seat's CURVE public key (32 bytes) and the checkpoint key (32 bytes). */
const uint8_t *brt_local_seat_key(const brt_local *self, unsigned seat);
const uint8_t *brt_local_sign_pk(const brt_local *self);
/* Write the game's log as a log file (docs/log-format.md). 0 / -1. */
int brt_local_write_log(brt_local *self, const char *path);
/* Why the last call failed: "CODE [rule] message" (empty after a success). */
const char *brt_local_error(const brt_local *self);

#endif
