/*
 * dice.c - verifiable dice: key derivation, the keyed roll stream, contributory
 * batch keys, nonce hash chains, and the two calls rules code makes.
 *
 * Byte layout (docs/dice.md has the whole scheme and its threat table):
 *
 *   commitment = BLAKE2b-256(seed)                                   (unkeyed)
 *   dice key   = BLAKE2b-256(key = seed (32 bytes),
 *                            "berthier-dice-v1" (16 bytes, no terminator)
 *                            || game id (its strlen bytes, no terminator)
 *                            || entropy[0] (32) || ... || entropy[n-1] (32))
 *   fixed key  = BLAKE2b-256(key = seed (32 bytes), "berthier-dice-fixed-v1" (22 bytes))
 *                (option dice-seed=HEX: no game id, no entropy)
 *   batch key  = BLAKE2b-256(key = dice key (32 bytes),
 *                            "berthier-batch-v1" (17 bytes) || batch (u64 le)
 *                            || log head (32) || nonce[0] (32) || ... || nonce[n-1] (32))
 *   chain link : link[k] = BLAKE2b-256("berthier-chain-v1" (17 bytes) || link[k+1])
 *
 *   roll `index` with `sides` under `key`:
 *     nonce  = index (u64 le) || 00 00 00 00                          (12 bytes)
 *     stream = ChaCha20-IETF(key, nonce), block counter 0, 1, 2, ...  (64 bytes a block)
 *     words  = the stream read as consecutive u32 le
 *     limit  = 2^32 - (2^32 mod sides)
 *     value  = 1 + (w mod sides) for the first word w < limit
 *   sides == 1 gives 1 without reading the stream.
 */
#include "dice.h"

#include <sodium.h>
#include <string.h>

#define S_DICE_TAG "berthier-dice-v1"
#define S_FIXED_TAG "berthier-dice-fixed-v1"
#define S_BATCH_TAG "berthier-batch-v1"
#define S_CHAIN_TAG "berthier-chain-v1"
#define S_BLOCK 64

static void s_u64le(uint8_t out[8], uint64_t v) {
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t s_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

int dice_key_derive(const uint8_t seed[DICE_SEED_BYTES], const char *game_id,
                    const uint8_t (*entropy)[32], size_t n_seats, uint8_t key[DICE_KEY_BYTES]) {
    if (!seed || !game_id || !key || (n_seats && !entropy)) return -1;
    if (sodium_init() < 0) return -1;
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, seed, DICE_SEED_BYTES, DICE_KEY_BYTES) != 0) return -1;
    crypto_generichash_update(&st, (const uint8_t *)S_DICE_TAG, strlen(S_DICE_TAG));
    crypto_generichash_update(&st, (const uint8_t *)game_id, strlen(game_id));
    for (size_t i = 0; i < n_seats; i++) crypto_generichash_update(&st, entropy[i], 32);
    int rc = crypto_generichash_final(&st, key, DICE_KEY_BYTES);
    sodium_memzero(&st, sizeof st);
    return rc == 0 ? 0 : -1;
}

int dice_key_fixed(const uint8_t seed[DICE_SEED_BYTES], uint8_t key[DICE_KEY_BYTES]) {
    if (!seed || !key) return -1;
    if (sodium_init() < 0) return -1;
    return crypto_generichash(key, DICE_KEY_BYTES, (const uint8_t *)S_FIXED_TAG, strlen(S_FIXED_TAG), seed,
                              DICE_SEED_BYTES) == 0 ? 0 : -1;
}

int dice_batch_key(const uint8_t key[DICE_KEY_BYTES], uint64_t batch, const uint8_t head[32],
                   const uint8_t (*nonces)[32], size_t n_seats, uint8_t out[DICE_KEY_BYTES]) {
    if (!key || !head || !out || (n_seats && !nonces)) return -1;
    if (sodium_init() < 0) return -1;
    uint8_t b[8];
    s_u64le(b, batch);
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, key, DICE_KEY_BYTES, DICE_KEY_BYTES) != 0) return -1;
    crypto_generichash_update(&st, (const uint8_t *)S_BATCH_TAG, strlen(S_BATCH_TAG));
    crypto_generichash_update(&st, b, sizeof b);
    crypto_generichash_update(&st, head, 32);
    for (size_t i = 0; i < n_seats; i++) crypto_generichash_update(&st, nonces[i], 32);
    int rc = crypto_generichash_final(&st, out, DICE_KEY_BYTES);
    sodium_memzero(&st, sizeof st);
    return rc == 0 ? 0 : -1;
}

uint32_t dice_stream_value(const uint8_t key[DICE_KEY_BYTES], uint64_t index, uint32_t sides) {
    if (sides == 0 || !key) return 0;
    if (sides == 1) return 1;
    /* limit = 2^32 - (2^32 mod sides); computed in 64 bits (it is 2^32 for powers of two). */
    const uint64_t span = (uint64_t)1 << 32;
    const uint64_t limit = span - (span % sides);
    uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
    memset(nonce, 0, sizeof nonce);
    s_u64le(nonce, index);
    static const uint8_t zero[S_BLOCK];
    uint8_t block[S_BLOCK];
    uint32_t value = 0;
    /* Each word is rejected with probability < 1/2, so the loop ends after the
     * first block all but never; the counter bound only keeps it finite. */
    for (uint32_t ic = 0; value == 0; ic++) {
        if (ic == 0) {
            crypto_stream_chacha20_ietf(block, sizeof block, nonce, key);
        } else {
            crypto_stream_chacha20_ietf_xor_ic(block, zero, sizeof block, nonce, ic, key);
        }
        for (size_t off = 0; off < sizeof block; off += 4) {
            uint32_t w = s_u32le(block + off);
            if ((uint64_t)w < limit) {
                value = 1 + w % sides;
                break;
            }
        }
        if (ic == UINT32_MAX) break;
    }
    sodium_memzero(block, sizeof block);
    return value;
}

void dice_commit(const uint8_t seed[DICE_SEED_BYTES], uint8_t out[32]) {
    crypto_generichash(out, 32, seed, DICE_SEED_BYTES, NULL, 0);
}

void dice_chain_step(const uint8_t next[32], uint8_t prev_out[32]) {
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const uint8_t *)S_CHAIN_TAG, strlen(S_CHAIN_TAG));
    crypto_generichash_update(&st, next, 32);
    crypto_generichash_final(&st, prev_out, 32);
}

int dice_chain_check(const uint8_t prev[32], const uint8_t next[32]) {
    if (!prev || !next) return -1;
    uint8_t want[32];
    dice_chain_step(next, want);
    return sodium_memcmp(want, prev, 32) == 0 ? 0 : -1;
}

uint32_t brt_dice_roll(brt_dice *dice, uint32_t sides, const char *purpose) {
    return brt_dice_roll_seen(dice, sides, DICE_SEEN_BY_ALL, purpose);
}

uint32_t brt_dice_roll_seen(brt_dice *dice, uint32_t sides, uint32_t seats, const char *purpose) {
    if (!purpose) purpose = "";
    if (sides == 0 || !dice->source) {
        /* A ruleset asking for a zero-sided die is a broken invariant: the core
         * sees `failed` and discards the state. */
        dice->failed = 1;
        return 1;
    }
    uint64_t index = dice->next_index;
    uint32_t v = dice->source(dice->source_ctx, index, sides, purpose);
    dice->next_index++;
    dice->rolls_made++;
    if (v == 0 || v > sides) {
        dice->failed = 1;
        return 1;
    }
    if (dice->record) dice->record(dice->record_ctx, index, sides, v, seats, purpose);
    return v;
}

void brt_dice_shuffle(brt_dice *dice, uint32_t *items, size_t n, const char *purpose) {
    if (n < 2) return;
    if ((uint64_t)n - 1 > UINT32_MAX - 1) {
        /* i + 1 must fit the die's u32 sides. */
        dice->failed = 1;
        return;
    }
    for (size_t i = n - 1; i >= 1; i--) {
        uint32_t j = brt_dice_roll_seen(dice, (uint32_t)(i + 1), DICE_SEEN_BY_NONE, purpose) - 1;
        uint32_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}
