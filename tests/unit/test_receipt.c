/*
 * test_receipt.c - the signed message of a receipt, byte for byte as
 * docs/protocol.md P9 states it, and its signature: every field is covered,
 * a malformed receipt is refused, another key does not verify it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "receipt.h"

typedef struct {
    Berthier__V1__Receipt r;
    char game_id[32];
    uint8_t head[32], hash[32], sig[64];
} s_fx;

static void s_fill(s_fx *f) {
    memset(f, 0, sizeof *f);
    berthier__v1__receipt__init(&f->r);
    snprintf(f->game_id, sizeof f->game_id, "0a1b2c3d4e5f6071");
    for (int i = 0; i < 32; i++) {
        f->head[i] = (uint8_t)(0xa0 + i);
        f->hash[i] = (uint8_t)(0x10 + i);
    }
    f->r.game_id = f->game_id;
    f->r.seat = 1;
    f->r.kind = 3;
    f->r.record = 0x0102;
    f->r.head_record = 0x0105;
    f->r.head.data = f->head;
    f->r.head.len = 32;
    f->r.input_hash.data = f->hash;
    f->r.input_hash.len = 32;
    f->r.seq = 7;
}

static void test_message_bytes(void **state) {
    (void)state;
    s_fx f;
    s_fill(&f);
    uint8_t want[RECEIPT_MESSAGE_MAX], got[RECEIPT_MESSAGE_MAX];
    size_t n = 0;
    memcpy(want + n, "berthier-rcpt-v1", 16), n += 16;
    const uint8_t idlen[4] = {16, 0, 0, 0};
    memcpy(want + n, idlen, 4), n += 4;
    memcpy(want + n, "0a1b2c3d4e5f6071", 16), n += 16;
    const uint8_t seat[4] = {1, 0, 0, 0};
    memcpy(want + n, seat, 4), n += 4;
    want[n++] = 3;
    const uint8_t rec[8] = {0x02, 0x01, 0, 0, 0, 0, 0, 0}, head_rec[8] = {0x05, 0x01, 0, 0, 0, 0, 0, 0};
    memcpy(want + n, rec, 8), n += 8;
    memcpy(want + n, head_rec, 8), n += 8;
    memcpy(want + n, f.head, 32), n += 32;
    memcpy(want + n, f.hash, 32), n += 32;
    const uint8_t seq[8] = {7, 0, 0, 0, 0, 0, 0, 0};
    memcpy(want + n, seq, 8), n += 8;
    assert_int_equal(receipt_message(&f.r, got), n);
    assert_memory_equal(got, want, n);
}

static void test_sign_verify(void **state) {
    (void)state;
    uint8_t pk[32], sk[64], pk2[32], sk2[64];
    crypto_sign_keypair(pk, sk);
    crypto_sign_keypair(pk2, sk2);
    s_fx f;
    s_fill(&f);
    assert_int_equal(receipt_sign(&f.r, sk, f.sig), 0);
    f.r.signature.data = f.sig;
    f.r.signature.len = 64;
    assert_int_equal(receipt_verify(&f.r, pk), 0);
    assert_int_equal(receipt_verify(&f.r, pk2), -1);
    /* deterministic: signing again gives the same bytes (recovery rebuilds them) */
    uint8_t again[64];
    assert_int_equal(receipt_sign(&f.r, sk, again), 0);
    assert_memory_equal(again, f.sig, 64);
    /* every field is covered */
    for (int field = 0; field < 8; field++) {
        s_fx g;
        s_fill(&g);
        g.r.signature.data = f.sig;
        g.r.signature.len = 64;
        switch (field) {
        case 0: g.game_id[0] = 'f'; break;
        case 1: g.r.seat = 0; break;
        case 2: g.r.kind = 2; break;
        case 3: g.r.record++; break;
        case 4: g.r.head_record++; break;
        case 5: g.head[31] ^= 1; break;
        case 6: g.hash[0] ^= 0x80; break;
        default: g.r.seq++; break;
        }
        if (receipt_verify(&g.r, pk) == 0) fail_msg("a receipt with field %d changed still verifies", field);
    }
}

static void test_malformed(void **state) {
    (void)state;
    uint8_t m[RECEIPT_MESSAGE_MAX], pk[32], sk[64], sig[64];
    crypto_sign_keypair(pk, sk);
    s_fx f;
    s_fill(&f);
    f.r.head.len = 31;
    assert_int_equal(receipt_message(&f.r, m), 0);
    assert_int_equal(receipt_sign(&f.r, sk, sig), -1);
    s_fill(&f);
    f.r.kind = 256;
    assert_int_equal(receipt_message(&f.r, m), 0);
    s_fill(&f);
    f.r.signature.len = 0;
    assert_int_equal(receipt_verify(&f.r, pk), -1);
    char longid[80];
    memset(longid, 'a', 65);
    longid[65] = 0;
    s_fill(&f);
    f.r.game_id = longid;
    assert_int_equal(receipt_message(&f.r, m), 0);
    /* the input hash is BLAKE2b-256 of the request bytes */
    uint8_t h[32], want[32];
    receipt_input_hash((const uint8_t *)"abc", 3, h);
    crypto_generichash(want, 32, (const uint8_t *)"abc", 3, NULL, 0);
    assert_memory_equal(h, want, 32);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_bytes),
        cmocka_unit_test(test_sign_verify),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
