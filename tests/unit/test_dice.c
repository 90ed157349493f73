/*
 * test_dice.c - the verifiable dice of core/dice.c (scheme: docs/dice.md).
 *
 * The known answers below were computed by an independent implementation that
 * shares no code with core/dice.c: plain-Python ChaCha20 (RFC 8439, checked
 * there against the RFC's test vectors) and hashlib.blake2b, in
 * clients/python/berthier/dice.py. Regenerate them with
 *
 *     cd clients/python && /usr/bin/python3 -m berthier.dice_kat
 *
 * Inputs (rebuilt by s_inputs below):
 *   seed[i] = i, game id "0123456789abcdef",
 *   entropy[s][i] = 0x40 + 16*s + i (3 seats), head[i] = 0x77,
 *   nonce[s][i] = 0xa0 + 7*s + i (3 seats), batch 5, chain secret[i] = 0xc0 ^ i.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "dice.h"

#define N_SEATS 3
#define GAME_ID "0123456789abcdef"
#define HEAVY 0x80000001u /* 2^32 mod HEAVY = 2^31 - 1: about half the words are rejected */

static const uint8_t KAT_COMMIT[32] = {
    0xcb, 0x2f, 0x51, 0x60, 0xfc, 0x1f, 0x7e, 0x05, 0xa5, 0x5e, 0xf4, 0x9d, 0x34, 0x0b, 0x48, 0xda,
    0x2e, 0x5a, 0x78, 0x09, 0x9d, 0x53, 0x39, 0x33, 0x51, 0xcd, 0x57, 0x9d, 0xd4, 0x25, 0x03, 0xd6};
static const uint8_t KAT_KEY[32] = {
    0x76, 0xad, 0xb3, 0x52, 0x7d, 0x98, 0xdf, 0xd3, 0x4f, 0xf1, 0xb1, 0xa0, 0xb1, 0x48, 0x22, 0x00,
    0xa4, 0xa6, 0xec, 0xd1, 0xf8, 0xc7, 0xc3, 0xe1, 0x9b, 0xcc, 0xdc, 0x73, 0x20, 0x96, 0x2b, 0xb5};
static const uint8_t KAT_BATCH_KEY[32] = {
    0xde, 0xff, 0x46, 0x46, 0x53, 0xba, 0xf2, 0xc8, 0xab, 0x79, 0xf1, 0x8a, 0x3a, 0xea, 0x75, 0x9e,
    0x5f, 0x31, 0xe4, 0xbb, 0x89, 0x92, 0xf2, 0x91, 0x77, 0x80, 0xb3, 0x91, 0x45, 0x5a, 0x26, 0x13};

/* (index, sides, value) under KAT_KEY */
static const struct {
    uint64_t index;
    uint32_t sides;
    uint32_t value;
} KAT_STREAM[] = {
    {0, 0x00000006u, 6},           {1, 0x00000006u, 2},
    {2, 0x00000006u, 5},           {3, 0x00000006u, 4},
    {4, 0x00000006u, 2},           {5, 0x00000006u, 5},
    {6, 0x00000002u, 2},           {7, 0x00000003u, 1},
    {8, 0x0000000au, 3},           {9, 0x00000014u, 11},
    {10, 0x00000064u, 31},         {11, 0x000003e8u, 12},
    {12, 0x00000007u, 6},          {13, 0x80000001u, 1185816549},
    {14, 0xffffffffu, 1999184027}, {15, 0x00000001u, 1},
};

/* Large indices: every byte of the u64 le nonce matters. */
static const struct {
    uint64_t index;
    uint32_t sides;
    uint32_t value;
} KAT_BIG[] = {
    {0x123456789abcdefull, 0x00000006u, 4},
    {0xffffffffffffffffull, 0x00000014u, 13},
    {0x100000000ull, 0x00000064u, 23},
    {0x8000000000000000ull, 0x80000001u, 1397238614},
};

/* Fisher-Yates of 0..19 with rolls 0..18 of KAT_KEY. */
static const uint32_t KAT_SHUFFLE[20] = {6,  18, 12, 1, 2,  16, 9, 7,  15, 14,
                                         19, 0,  17, 11, 13, 5, 4, 10, 8,  3};
#define KAT_SHUFFLE_ROLLS 19

/* First index whose first word is rejected for HEAVY: 1 (words 0xb86e6d99, then 0x64931867). */
#define KAT_REJECT_INDEX 1
#define KAT_REJECT_W0 0xb86e6d99u
#define KAT_REJECT_W1 0x64931867u
#define KAT_REJECT_VALUE 1687361640u
/* First index whose whole first 64-byte block is rejected for HEAVY. */
#define KAT_BLOCK_INDEX 69141
#define KAT_BLOCK_VALUE 968000230u

/* Chain from the secret, link 3 = secret; link 0 is the commitment. */
static const uint8_t KAT_CHAIN[4][32] = {
    {0xb5, 0x7f, 0xdc, 0x66, 0x7a, 0xf8, 0xa7, 0x60, 0xe5, 0x12, 0x2b, 0xeb, 0x3b, 0x9e, 0x4c, 0x2f,
     0xce, 0x6a, 0xa1, 0x97, 0x53, 0xa3, 0x99, 0x56, 0x15, 0xf2, 0x64, 0x30, 0xa3, 0x8b, 0xab, 0xa9},
    {0x32, 0xe4, 0x34, 0x26, 0x57, 0x8f, 0xe9, 0x2c, 0x3e, 0x96, 0xc9, 0xed, 0xc8, 0x69, 0x4c, 0x33,
     0xdd, 0x49, 0xa4, 0x29, 0xdc, 0xd4, 0xab, 0xf1, 0x99, 0x0c, 0x14, 0xba, 0xed, 0x17, 0xbe, 0xdf},
    {0x26, 0x1b, 0x53, 0x74, 0x43, 0x44, 0xca, 0xc3, 0x8c, 0xef, 0x61, 0xa6, 0xcb, 0x51, 0x82, 0xe3,
     0xc1, 0x54, 0x3f, 0xb4, 0x41, 0x0c, 0x5c, 0xa1, 0x97, 0xad, 0x3c, 0x50, 0x3b, 0x77, 0xfe, 0xb4},
    {0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
     0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf},
};

typedef struct {
    uint8_t seed[32];
    uint8_t entropy[N_SEATS][32];
    uint8_t head[32];
    uint8_t nonce[N_SEATS][32];
    uint8_t secret[32];
} s_kat_inputs;

static void s_inputs(s_kat_inputs *in) {
    for (int i = 0; i < 32; i++) {
        in->seed[i] = (uint8_t)i;
        in->head[i] = 0x77;
        in->secret[i] = (uint8_t)(0xc0 ^ i);
        for (int s = 0; s < N_SEATS; s++) {
            in->entropy[s][i] = (uint8_t)(0x40 + 16 * s + i);
            in->nonce[s][i] = (uint8_t)(0xa0 + 7 * s + i);
        }
    }
}

/* The first u32 le words of roll `index`'s raw keystream (block 0). */
static void s_raw_words(const uint8_t key[32], uint64_t index, uint32_t w[16]) {
    uint8_t nonce[12] = {0};
    for (int i = 0; i < 8; i++) nonce[i] = (uint8_t)(index >> (8 * i));
    uint8_t block[64];
    crypto_stream_chacha20_ietf(block, sizeof block, nonce, key);
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] | ((uint32_t)block[4 * i + 1] << 8) |
               ((uint32_t)block[4 * i + 2] << 16) | ((uint32_t)block[4 * i + 3] << 24);
}

/* ---- a dice source over the keyed stream, and a recorder ---- */
typedef struct {
    const uint8_t *key;
    int fail_at;          /* index at which to return 0, -1 = never */
    uint32_t bogus;       /* if nonzero, return this instead (out of range test) */
} s_source_ctx;

static uint32_t s_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    s_source_ctx *c = ctx;
    (void)purpose;
    if (c->fail_at >= 0 && (uint64_t)c->fail_at == index) return 0;
    if (c->bogus) return c->bogus;
    return dice_stream_value(c->key, index, sides);
}

typedef struct {
    int calls;
    uint64_t last_index;
    uint32_t last_sides;
    uint32_t last_value;
    uint32_t last_seen;
    uint32_t seen_or, seen_and;   /* every recorded roll's seat mask, or-ed and and-ed */
    char last_purpose[DICE_PURPOSE_MAX];
} s_record_ctx;

static void s_record(void *ctx, uint64_t index, uint32_t sides, uint32_t value, uint32_t seen,
                     const char *purpose) {
    s_record_ctx *r = ctx;
    r->last_seen = seen;
    r->seen_or |= seen;
    r->seen_and = r->calls ? (r->seen_and & seen) : seen;
    r->calls++;
    r->last_index = index;
    r->last_sides = sides;
    r->last_value = value;
    snprintf(r->last_purpose, sizeof r->last_purpose, "%s", purpose);
}

static brt_dice s_dice(s_source_ctx *sc, s_record_ctx *rc) {
    brt_dice d;
    memset(&d, 0, sizeof d);
    d.source = s_source;
    d.source_ctx = sc;
    d.record = s_record;
    d.record_ctx = rc;
    return d;
}

/* ---- tests ---- */

static void test_commit_kat(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t c[32];
    dice_commit(in.seed, c);
    assert_memory_equal(c, KAT_COMMIT, 32);
}

static void test_key_derive_kat(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t key[32];
    assert_int_equal(dice_key_derive(in.seed, GAME_ID, (const uint8_t(*)[32])in.entropy, N_SEATS, key), 0);
    assert_memory_equal(key, KAT_KEY, 32);
}

/* dice-seed=HEX (docs/dice.md "Fixed dice"): the key is the seed's alone, so two games
 * with different ids and different seat entropy roll the same stream. */
static const uint8_t KAT_FIXED_KEY[32] = {
    0x36, 0x98, 0xde, 0xee, 0x47, 0xae, 0x31, 0x03, 0x53, 0x94, 0x43, 0x28, 0x06, 0x49, 0xa7, 0xf0,
    0x38, 0xef, 0x0b, 0xac, 0x31, 0x3d, 0x2a, 0x5c, 0xed, 0xa8, 0xb7, 0xe0, 0x2c, 0x02, 0x0e, 0x69};
static const uint32_t KAT_FIXED_D6[8] = {2, 3, 5, 4, 2, 6, 5, 5};

static void test_key_fixed_kat(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t key[32], derived[32];
    assert_int_equal(dice_key_fixed(in.seed, key), 0);
    assert_memory_equal(key, KAT_FIXED_KEY, 32);
    for (uint64_t i = 0; i < 8; i++) assert_int_equal(dice_stream_value(key, i, 6), KAT_FIXED_D6[i]);
    /* not the standard key of any game: that one mixes the id and the entropy in */
    assert_int_equal(dice_key_derive(in.seed, GAME_ID, (const uint8_t(*)[32])in.entropy, N_SEATS, derived), 0);
    assert_memory_not_equal(key, derived, 32);
    assert_int_equal(dice_key_derive(in.seed, "", NULL, 0, derived), 0);
    assert_memory_not_equal(key, derived, 32);
}

static void test_key_derive_inputs_matter(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t key[32];
    /* Any seat's entropy, the game id and the seed each change the key. */
    for (int s = 0; s < N_SEATS; s++) {
        s_inputs(&in);
        in.entropy[s][31] ^= 1;
        assert_int_equal(dice_key_derive(in.seed, GAME_ID, (const uint8_t(*)[32])in.entropy, N_SEATS, key), 0);
        assert_memory_not_equal(key, KAT_KEY, 32);
    }
    s_inputs(&in);
    assert_int_equal(dice_key_derive(in.seed, "0123456789abcdee", (const uint8_t(*)[32])in.entropy, N_SEATS, key), 0);
    assert_memory_not_equal(key, KAT_KEY, 32);
    in.seed[0] ^= 0x80;
    assert_int_equal(dice_key_derive(in.seed, GAME_ID, (const uint8_t(*)[32])in.entropy, N_SEATS, key), 0);
    assert_memory_not_equal(key, KAT_KEY, 32);
    /* Fewer seats is a different key too. */
    s_inputs(&in);
    assert_int_equal(dice_key_derive(in.seed, GAME_ID, (const uint8_t(*)[32])in.entropy, 2, key), 0);
    assert_memory_not_equal(key, KAT_KEY, 32);
    assert_int_equal(dice_key_derive(in.seed, NULL, (const uint8_t(*)[32])in.entropy, 2, key), -1);
}

static void test_batch_key_kat_and_inputs(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t out[32];
    assert_int_equal(dice_batch_key(KAT_KEY, 5, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
    assert_memory_equal(out, KAT_BATCH_KEY, 32);
    /* any nonce, the batch number, the head and the key each change it */
    for (int s = 0; s < N_SEATS; s++) {
        for (int byte = 0; byte < 32; byte += 31) {
            s_inputs(&in);
            in.nonce[s][byte] ^= 0x01;
            assert_int_equal(dice_batch_key(KAT_KEY, 5, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
            assert_memory_not_equal(out, KAT_BATCH_KEY, 32);
        }
    }
    s_inputs(&in);
    assert_int_equal(dice_batch_key(KAT_KEY, 6, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
    assert_memory_not_equal(out, KAT_BATCH_KEY, 32);
    in.head[7] ^= 0x10;
    assert_int_equal(dice_batch_key(KAT_KEY, 5, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
    assert_memory_not_equal(out, KAT_BATCH_KEY, 32);
    s_inputs(&in);
    uint8_t k2[32];
    memcpy(k2, KAT_KEY, 32);
    k2[0] ^= 1;
    assert_int_equal(dice_batch_key(k2, 5, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
    assert_memory_not_equal(out, KAT_BATCH_KEY, 32);
    /* swapping two seats' nonces changes it (seat order is part of the input) */
    uint8_t t[32];
    memcpy(t, in.nonce[0], 32);
    memcpy(in.nonce[0], in.nonce[1], 32);
    memcpy(in.nonce[1], t, 32);
    assert_int_equal(dice_batch_key(KAT_KEY, 5, in.head, (const uint8_t(*)[32])in.nonce, N_SEATS, out), 0);
    assert_memory_not_equal(out, KAT_BATCH_KEY, 32);
}

static void test_stream_kat(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof KAT_STREAM / sizeof KAT_STREAM[0]; i++)
        assert_int_equal(dice_stream_value(KAT_KEY, KAT_STREAM[i].index, KAT_STREAM[i].sides),
                         KAT_STREAM[i].value);
    for (size_t i = 0; i < sizeof KAT_BIG / sizeof KAT_BIG[0]; i++)
        assert_int_equal(dice_stream_value(KAT_KEY, KAT_BIG[i].index, KAT_BIG[i].sides), KAT_BIG[i].value);
    assert_int_equal(dice_stream_value(KAT_KEY, 0, 0), 0);  /* no zero-sided die */
}

/* A word rejected: search (in the test, from the raw keystream) for the first index
 * whose first word is >= the limit, and check the value comes from the second word. */
static void test_rejection_first_word(void **state) {
    (void)state;
    const uint64_t limit = ((uint64_t)1 << 32) - (((uint64_t)1 << 32) % HEAVY);
    uint32_t w[16];
    uint64_t idx = 0;
    for (;; idx++) {
        s_raw_words(KAT_KEY, idx, w);
        if ((uint64_t)w[0] >= limit) break;
    }
    assert_int_equal(idx, KAT_REJECT_INDEX);
    assert_int_equal(w[0], KAT_REJECT_W0);
    assert_int_equal(w[1], KAT_REJECT_W1);
    assert_true((uint64_t)w[1] < limit);
    uint32_t v = dice_stream_value(KAT_KEY, idx, HEAVY);
    assert_int_equal(v, 1 + w[1] % HEAVY);
    assert_int_equal(v, KAT_REJECT_VALUE);
    /* and for every index where the first word is accepted, it is the first word's value */
    for (uint64_t i = 0; i < 64; i++) {
        s_raw_words(KAT_KEY, i, w);
        uint32_t expect = 0;
        for (int k = 0; k < 16 && !expect; k++)
            if ((uint64_t)w[k] < limit) expect = 1 + w[k] % HEAVY;
        assert_int_equal(dice_stream_value(KAT_KEY, i, HEAVY), expect);
    }
}

/* A whole 64-byte block rejected: the value comes from block 1 (counter 1). */
static void test_rejection_whole_block(void **state) {
    (void)state;
    const uint64_t limit = ((uint64_t)1 << 32) - (((uint64_t)1 << 32) % HEAVY);
    uint32_t w[16];
    uint64_t idx = 0;
    for (;; idx++) {
        s_raw_words(KAT_KEY, idx, w);
        int all = 1;
        for (int k = 0; k < 16 && all; k++) all = (uint64_t)w[k] >= limit;
        if (all) break;
    }
    assert_int_equal(idx, KAT_BLOCK_INDEX);
    uint8_t nonce[12] = {0};
    for (int i = 0; i < 8; i++) nonce[i] = (uint8_t)(idx >> (8 * i));
    uint8_t ks[128];
    crypto_stream_chacha20_ietf(ks, sizeof ks, nonce, KAT_KEY);  /* blocks 0 and 1 */
    uint32_t expect = 0;
    for (int k = 16; k < 32 && !expect; k++) {
        uint32_t x = (uint32_t)ks[4 * k] | ((uint32_t)ks[4 * k + 1] << 8) |
                     ((uint32_t)ks[4 * k + 2] << 16) | ((uint32_t)ks[4 * k + 3] << 24);
        if ((uint64_t)x < limit) expect = 1 + x % HEAVY;
    }
    assert_int_equal(dice_stream_value(KAT_KEY, idx, HEAVY), expect);
    assert_int_equal(expect, KAT_BLOCK_VALUE);
}

/* 60000 d6 and 60000 d20 from the fixed key: every face in a sane band and a
 * chi-square far below any plausible bias. Deterministic: the key is fixed. */
static void test_unbiased(void **state) {
    (void)state;
    const int n = 60000;
    uint32_t c6[7] = {0}, c20[21] = {0};
    for (int i = 0; i < n; i++) {
        uint32_t v = dice_stream_value(KAT_KEY, (uint64_t)i, 6);
        assert_in_range(v, 1, 6);
        c6[v]++;
        v = dice_stream_value(KAT_KEY, (uint64_t)i + 1000000, 20);
        assert_in_range(v, 1, 20);
        c20[v]++;
    }
    /* d6: expected 10000 each, sd ~91: band +-600 is over 6 sd. chi2 (5 dof) < 30 is p < 2e-5. */
    long chi_num = 0;
    for (int f = 1; f <= 6; f++) {
        assert_in_range(c6[f], 9400, 10600);
        long d = (long)c6[f] - 10000;
        chi_num += d * d;
    }
    assert_true(chi_num < 30L * 10000);
    /* d20: expected 3000 each, sd ~53: band +-400; chi2 (19 dof) < 60 is p < 5e-6. */
    chi_num = 0;
    for (int f = 1; f <= 20; f++) {
        assert_in_range(c20[f], 2600, 3400);
        long d = (long)c20[f] - 3000;
        chi_num += d * d;
    }
    assert_true(chi_num < 60L * 3000);
}

static void test_roll_calls_source_and_record(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, -1, 0};
    s_record_ctx rc;
    memset(&rc, 0, sizeof rc);
    brt_dice d = s_dice(&sc, &rc);
    for (size_t i = 0; i < 13; i++) {
        uint32_t v = brt_dice_roll(&d, KAT_STREAM[i].sides, "9.7.4 hazardous retreat");
        assert_int_equal(v, KAT_STREAM[i].value);
        assert_int_equal(rc.last_index, i);
        assert_int_equal(rc.last_sides, KAT_STREAM[i].sides);
        assert_int_equal(rc.last_value, v);
    }
    assert_string_equal(rc.last_purpose, "9.7.4 hazardous retreat");
    assert_int_equal(rc.last_seen, DICE_SEEN_BY_ALL); /* a plain roll is public */
    assert_int_equal(rc.calls, 13);
    assert_int_equal(d.next_index, 13);
    assert_int_equal(d.rolls_made, 13);
    assert_int_equal(d.failed, 0);
}

/* A roll made with a seat mask reaches the core with that mask, and draws the same value
 * from the stream as a public roll of that index (visibility never changes a value). */
static void test_roll_seen_passes_its_seats(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, -1, 0};
    s_record_ctx rc;
    memset(&rc, 0, sizeof rc);
    brt_dice d = s_dice(&sc, &rc);
    uint32_t v = brt_dice_roll_seen(&d, KAT_STREAM[0].sides, 1u << 1, "16.1 hidden unit");
    assert_int_equal(v, KAT_STREAM[0].value);
    assert_int_equal(rc.last_seen, 1u << 1);
    v = brt_dice_roll_seen(&d, KAT_STREAM[1].sides, DICE_SEEN_BY_NONE, "x");
    assert_int_equal(v, KAT_STREAM[1].value);
    assert_int_equal(rc.last_seen, DICE_SEEN_BY_NONE);
}

/* Attack 1 of issue 11: the rolls of a shuffle decide a hidden deck order, so every one of
 * them is recorded as seen by nobody. Before LogDice.visible existed they were recorded
 * (and sent to the seat whose input caused them) like any public roll, so this fails there. */
static void test_shuffle_rolls_are_seen_by_nobody(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, -1, 0};
    s_record_ctx rc;
    memset(&rc, 0, sizeof rc);
    brt_dice d = s_dice(&sc, &rc);
    uint32_t items[12];
    for (uint32_t i = 0; i < 12; i++) items[i] = i;
    brt_dice_shuffle(&d, items, 12, "5.0 event deck shuffle");
    assert_int_equal(rc.calls, 11);
    assert_int_equal(rc.seen_or, DICE_SEEN_BY_NONE);
}

static void test_roll_failure(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, 2, 0};
    s_record_ctx rc;
    memset(&rc, 0, sizeof rc);
    brt_dice d = s_dice(&sc, &rc);
    assert_int_equal(brt_dice_roll(&d, 6, "a"), 6);
    assert_int_equal(brt_dice_roll(&d, 6, "b"), 2);
    assert_int_equal(d.failed, 0);
    /* the source finds no roll for index 2: 1 is returned, failed is set, nothing recorded */
    assert_int_equal(brt_dice_roll(&d, 6, "c"), 1);
    assert_int_equal(d.failed, 1);
    assert_int_equal(rc.calls, 2);
    /* a value out of range is a failure too */
    s_source_ctx bad = {KAT_KEY, -1, 7};
    memset(&rc, 0, sizeof rc);
    brt_dice d2 = s_dice(&bad, &rc);
    assert_int_equal(brt_dice_roll(&d2, 6, "x"), 1);
    assert_int_equal(d2.failed, 1);
    assert_int_equal(rc.calls, 0);
    /* a zero-sided die is refused without consuming an index */
    brt_dice d3 = s_dice(&sc, &rc);
    assert_int_equal(brt_dice_roll(&d3, 0, "zero"), 1);
    assert_int_equal(d3.failed, 1);
    assert_int_equal(d3.next_index, 0);
}

static void test_shuffle_kat(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, -1, 0};
    s_record_ctx rc;
    memset(&rc, 0, sizeof rc);
    brt_dice d = s_dice(&sc, &rc);
    uint32_t items[20];
    for (uint32_t i = 0; i < 20; i++) items[i] = i;
    brt_dice_shuffle(&d, items, 20, "5.0 event deck");
    assert_memory_equal(items, KAT_SHUFFLE, sizeof items);
    assert_int_equal(d.next_index, KAT_SHUFFLE_ROLLS);
    assert_int_equal(rc.calls, KAT_SHUFFLE_ROLLS);
    assert_int_equal(rc.last_sides, 2); /* the last draw is j in 0..1 */
    /* a permutation: every item exactly once */
    int seen[20] = {0};
    for (int i = 0; i < 20; i++) {
        assert_in_range(items[i], 0, 19);
        seen[items[i]]++;
    }
    for (int i = 0; i < 20; i++) assert_int_equal(seen[i], 1);
    /* n = 0 and n = 1 roll nothing */
    uint32_t one = 42;
    brt_dice_shuffle(&d, &one, 1, "x");
    brt_dice_shuffle(&d, NULL, 0, "x");
    assert_int_equal(one, 42);
    assert_int_equal(d.next_index, KAT_SHUFFLE_ROLLS);
}

static void test_shuffle_permutation_many(void **state) {
    (void)state;
    s_source_ctx sc = {KAT_KEY, -1, 0};
    brt_dice d = s_dice(&sc, NULL);
    d.record = NULL;
    for (size_t n = 2; n < 60; n++) {
        uint32_t items[60];
        int seen[60] = {0};
        for (uint32_t i = 0; i < n; i++) items[i] = i;
        uint64_t before = d.next_index;
        brt_dice_shuffle(&d, items, n, "x");
        assert_int_equal(d.next_index - before, n - 1);
        for (size_t i = 0; i < n; i++) seen[items[i]]++;
        for (size_t i = 0; i < n; i++) assert_int_equal(seen[i], 1);
    }
    assert_int_equal(d.failed, 0);
}

static void test_chain(void **state) {
    (void)state;
    s_kat_inputs in;
    s_inputs(&in);
    uint8_t link[4][32];
    memcpy(link[3], in.secret, 32);
    for (int k = 2; k >= 0; k--) dice_chain_step(link[k + 1], link[k]);
    for (int k = 0; k < 4; k++) assert_memory_equal(link[k], KAT_CHAIN[k], 32);
    /* the right link is accepted */
    for (int k = 0; k < 3; k++) assert_int_equal(dice_chain_check(link[k], link[k + 1]), 0);
    /* others are not: skipping a link, going backwards, repeating, a flipped bit */
    assert_int_equal(dice_chain_check(link[0], link[2]), -1);
    assert_int_equal(dice_chain_check(link[1], link[0]), -1);
    assert_int_equal(dice_chain_check(link[1], link[1]), -1);
    for (int bit = 0; bit < 256; bit += 37) {
        uint8_t bad[32];
        memcpy(bad, link[1], 32);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        assert_int_equal(dice_chain_check(link[0], bad), -1);
    }
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit_kat),
        cmocka_unit_test(test_key_derive_kat),
        cmocka_unit_test(test_key_fixed_kat),
        cmocka_unit_test(test_key_derive_inputs_matter),
        cmocka_unit_test(test_batch_key_kat_and_inputs),
        cmocka_unit_test(test_stream_kat),
        cmocka_unit_test(test_rejection_first_word),
        cmocka_unit_test(test_rejection_whole_block),
        cmocka_unit_test(test_unbiased),
        cmocka_unit_test(test_roll_calls_source_and_record),
        cmocka_unit_test(test_roll_seen_passes_its_seats),
        cmocka_unit_test(test_shuffle_rolls_are_seen_by_nobody),
        cmocka_unit_test(test_roll_failure),
        cmocka_unit_test(test_shuffle_kat),
        cmocka_unit_test(test_shuffle_permutation_many),
        cmocka_unit_test(test_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
