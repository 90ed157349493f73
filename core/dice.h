/*
 * dice.h - verifiable dice.
 *
 * Rules code sees only brt_dice_roll(), brt_dice_roll_seen() and brt_dice_shuffle().
 * The core decides where the values come from (a keyed stream while live, the
 * log during replay) and records every roll with its purpose and the seats that
 * may see it before the end of the game (core/vis.h, LogDice.visible).
 *
 * The stream (docs/dice.md has the full scheme and who can predict or bias what):
 *   dice key  = BLAKE2b-256(key = server seed,
 *                           "berthier-dice-v1" || game id || entropy[0] || ... || entropy[n-1])
 *   roll i    : ChaCha20 (IETF, 96-bit nonce = i as u64 le || 4 zero bytes) keystream under
 *               the key, read as u32 le words; a word w is accepted when w < 2^32 - (2^32 mod sides),
 *               value = 1 + w mod sides; rejected words are skipped (next word, next block).
 *   contributory batch b (dice=contributory): the rolls of batch b use
 *               BLAKE2b-256(key = dice key, "berthier-batch-v1" || b (u64 le) || head ||
 *                           nonce[0] || ... || nonce[n-1]) in place of the dice key, where
 *               head is the chain hash of the input record that opened the batch (the
 *               last JOIN for batch 0, else the ORDER whose application rolls), fixed
 *               before any seat reveals its nonce.
 */
#ifndef BERTHIER_DICE_H
#define BERTHIER_DICE_H

#include <stddef.h>
#include <stdint.h>

#define DICE_SEED_BYTES 32
#define DICE_KEY_BYTES 32
#define DICE_PURPOSE_MAX 64

typedef struct brt_dice brt_dice;

/* Where a roll's value comes from. Returns 1..sides, or 0 on failure (replay
 * found no matching roll in the log; the game is then halted as corrupt). */
typedef uint32_t (*dice_source_fn)(void *ctx, uint64_t index, uint32_t sides, const char *purpose);
/* Called after every roll (the core logs it). seats: the bit mask of seats that
 * may see the roll before the end of the game (DICE_SEEN_BY_ALL = public). */
typedef void (*dice_record_fn)(void *ctx, uint64_t index, uint32_t sides, uint32_t value,
                               uint32_t seats, const char *purpose);

/* Who may see a roll before the end (the seat mask of brt_dice_roll_seen). */
#define DICE_SEEN_BY_ALL 0xffffffffu   /* every seat and the spectators (same as BRT_SEATS_ALL) */
#define DICE_SEEN_BY_NONE 0u           /* nobody until the game has ended */

struct brt_dice {
    dice_source_fn source;
    void *source_ctx;
    dice_record_fn record;
    void *record_ctx;
    uint64_t next_index;     /* index of the next roll in the game's stream */
    uint64_t rolls_made;     /* rolls since the counter was last cleared */
    int failed;              /* a source returned 0 */
};

/* --- for rules code ------------------------------------------------------ */

/* An unbiased roll of 1..sides (sides >= 1). purpose names the rule, e.g.
 * "9.7.4 hazardous retreat". Never fails from the rules' point of view: on a
 * source failure it returns 1 and sets dice->failed; the core discards the state. */
uint32_t brt_dice_roll(brt_dice *dice, uint32_t sides, const char *purpose);

/* The same roll, seen before the end of the game only by the seats in `seats`
 * (a bit mask; DICE_SEEN_BY_NONE: nobody, DICE_SEEN_BY_ALL: everyone, which is
 * what brt_dice_roll gives). A roll that decides something hidden from a seat
 * (a hidden draw, a secret schedule, anything fog-of-war hides) must leave that
 * seat out; the rules reveal what it decided through their own events. */
uint32_t brt_dice_roll_seen(brt_dice *dice, uint32_t sides, uint32_t seats, const char *purpose);

/* Fisher-Yates shuffle of items[0..n): for i = n-1 down to 1, j = roll(i+1) - 1,
 * swap items[i] and items[j]. A shuffle decides a hidden order (a deck), so its
 * rolls are seen by nobody before the end (DICE_SEEN_BY_NONE). */
void brt_dice_shuffle(brt_dice *dice, uint32_t *items, size_t n, const char *purpose);

/* --- for the core -------------------------------------------------------- */

/* key = BLAKE2b-256(key = seed, "berthier-dice-v1" || game_id || entropies). */
int dice_key_derive(const uint8_t seed[DICE_SEED_BYTES], const char *game_id,
                    const uint8_t (*entropy)[32], size_t n_seats, uint8_t key[DICE_KEY_BYTES]);

/* Fixed dice (option dice-seed=HEX, docs/dice.md "Fixed dice"): the key depends on the
 * seed alone, so every game with the same seed rolls the same stream.
 * key = BLAKE2b-256(key = seed, "berthier-dice-fixed-v1"). */
int dice_key_fixed(const uint8_t seed[DICE_SEED_BYTES], uint8_t key[DICE_KEY_BYTES]);

/* Contributory batch key (see above). */
int dice_batch_key(const uint8_t key[DICE_KEY_BYTES], uint64_t batch, const uint8_t head[32],
                   const uint8_t (*nonces)[32], size_t n_seats, uint8_t out[DICE_KEY_BYTES]);

/* The value of roll `index` with `sides` under `key` (1..sides). */
uint32_t dice_stream_value(const uint8_t key[DICE_KEY_BYTES], uint64_t index, uint32_t sides);

/* commitment = BLAKE2b-256(seed) */
void dice_commit(const uint8_t seed[DICE_SEED_BYTES], uint8_t out[32]);

/* Nonce hash chains for dice=contributory: link[k] = BLAKE2b-256("berthier-chain-v1" || link[k+1]);
 * the commitment is link[0]; the seat reveals link[1], link[2], ... in order.
 * dice_chain_check(prev, next) is 0 when next is the link after prev. */
void dice_chain_step(const uint8_t next[32], uint8_t prev_out[32]);
int dice_chain_check(const uint8_t prev[32], const uint8_t next[32]) __attribute__((warn_unused_result));

#endif
