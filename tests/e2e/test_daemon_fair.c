/*
 * test_daemon_fair.c - berthierd's admission table (daemon/fair.c), in
 * process with explicit times (no daemon, no clock):
 *   - the token bucket: burst, refill per millisecond, BUSY now or in order;
 *   - keys never reset or share each other's bucket, however many there are
 *     (the old direct-mapped table let colliding keys reset each other);
 *   - a full table: idle entries are reclaimed (at most one sweep a second),
 *     otherwise new keys share the overflow bucket and no entry is taken over;
 *   - a reply sent at once no longer holds its key's refusals back;
 *   - the round share: a round shared by two keys ends once one has `share`
 *     frames; a key alone may fill it;
 *   - the request id read from a frame without decoding it.
 * It lives with the e2e tests only because they are the daemon's test folder
 * here; it starts nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../daemon/decode.c"
#include "../../daemon/fair.c"
#include "../../daemon/log.c"

static void s_key(uint8_t k[32], unsigned v) {
    memset(k, 0x5a, 32);
    for (int i = 0; i < 4; i++) k[i] = (uint8_t)(v >> (8 * i));
}

static void test_bucket(void **state) {
    (void)state;
    bd_fair *f = fair_new(10, 3, 1000, 0);   /* 10/s, burst 3 */
    assert_non_null(f);
    uint8_t a[32];
    s_key(a, 1);
    fair_round_begin(f);
    for (int i = 0; i < 3; i++) assert_int_equal(fair_admit(f, a, 1000), FAIR_ADMIT);
    /* A reply of the key is queued in this round: the refusal goes behind it. */
    assert_int_equal(fair_admit(f, a, 1000), FAIR_OVER_QUEUED);
    /* Next round, nothing queued: the refusal can leave at once. */
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, a, 1050), FAIR_OVER_NOW);
    assert_int_equal(fair_admit(f, a, 1099), FAIR_OVER_NOW);
    /* 100 ms at 10/s is one token. */
    assert_int_equal(fair_admit(f, a, 1100), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, a, 1100), FAIR_OVER_QUEUED);
    /* A long pause refills to the burst, not beyond. */
    fair_round_begin(f);
    for (int i = 0; i < 3; i++) assert_int_equal(fair_admit(f, a, 1000000), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, a, 1000000), FAIR_OVER_QUEUED);
    fair_destroy(&f);
    assert_null(f);
}

/* A reply sent at once (a query whose answer is durable) no longer holds the
 * key's refusals back; one that still waits does. */
static void test_answered_at_once(void **state) {
    (void)state;
    bd_fair *f = fair_new(10, 2, 1000, 0);   /* 10/s, burst 2 */
    uint8_t a[32];
    s_key(a, 3);
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, a, 1000), FAIR_ADMIT);
    fair_answered(f, 0);
    assert_int_equal(fair_admit(f, a, 1000), FAIR_ADMIT);
    fair_answered(f, 0);
    /* Both replies left: the refusal may leave too. */
    assert_int_equal(fair_admit(f, a, 1000), FAIR_OVER_NOW);
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, a, 1200), FAIR_ADMIT);   /* waits for the round */
    assert_int_equal(fair_admit(f, a, 1200), FAIR_ADMIT);
    fair_answered(f, 0);                                       /* the second left at once */
    assert_int_equal(fair_admit(f, a, 1200), FAIR_OVER_QUEUED);
    /* fair_answered without an admitted frame before it changes nothing */
    fair_round_begin(f);
    fair_answered(f, 0);
    assert_int_equal(fair_admit(f, a, 1200), FAIR_OVER_NOW);
    fair_destroy(&f);
}

/* Frames answered during a flush (uncount) do not use up the key's share;
 * frames answered at once otherwise do. */
static void test_answered_uncounted(void **state) {
    (void)state;
    bd_fair *f = fair_new(0, 1, 3, 0);   /* no rate, share 3 */
    uint8_t a[32], b[32];
    s_key(a, 11);
    s_key(b, 12);
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, b, 0), FAIR_ADMIT);   /* two keys: the share applies */
    for (int i = 0; i < 100; i++) {
        assert_int_equal(fair_admit(f, a, 0), FAIR_ADMIT);
        fair_answered(f, 1);
        assert_false(fair_round_full(f));
    }
    assert_int_equal(fair_admit(f, a, 0), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, a, 0), FAIR_ADMIT);
    assert_false(fair_round_full(f));
    assert_int_equal(fair_admit(f, a, 0), FAIR_ADMIT);
    assert_true(fair_round_full(f));
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, b, 0), FAIR_ADMIT);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(fair_admit(f, a, 0), FAIR_ADMIT);
        fair_answered(f, 0);
    }
    assert_true(fair_round_full(f));
    fair_destroy(&f);
}

/* rate 0: no limit; the table still counts the round share. */
static void test_no_rate(void **state) {
    (void)state;
    bd_fair *f = fair_new(0, 1, 1000, 0);
    uint8_t a[32];
    s_key(a, 7);
    fair_round_begin(f);
    for (int i = 0; i < 5000; i++) assert_int_equal(fair_admit(f, a, 5), FAIR_ADMIT);
    fair_destroy(&f);
}

/* Thousands of keys: none of them touches another's bucket. */
static void test_keys_independent(void **state) {
    (void)state;
    bd_fair *f = fair_new(1, 2, 1000000, 0);
    uint8_t a[32], k[32];
    s_key(a, 0xabcdef);
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, a, 10), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, a, 10), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, a, 10), FAIR_OVER_QUEUED);
    for (unsigned i = 0; i < 5000; i++) {
        s_key(k, i + 100);
        assert_int_equal(fair_admit(f, k, 10), FAIR_ADMIT);
        assert_int_equal(fair_admit(f, k, 10), FAIR_ADMIT);
        assert_int_equal(fair_admit(f, k, 10), FAIR_OVER_QUEUED);
    }
    assert_int_equal(fair_count(f), 5001);
    /* The first key is still drained, and every other one too. */
    fair_round_begin(f);
    assert_int_equal(fair_admit(f, a, 10), FAIR_OVER_NOW);
    for (unsigned i = 0; i < 5000; i++) {
        s_key(k, i + 100);
        assert_true(fair_has_entry(f, k));
        assert_int_equal(fair_admit(f, k, 10), FAIR_OVER_NOW);
    }
    fair_destroy(&f);
}

static void test_full_table(void **state) {
    (void)state;
    bd_fair *f = fair_new(1, 2, 1000000, 8);   /* 8 keys at most; 1/s, burst 2 */
    uint8_t k[32], n1[32], n2[32];
    fair_round_begin(f);
    for (unsigned i = 0; i < 8; i++) {
        s_key(k, i);
        assert_int_equal(fair_admit(f, k, 0), FAIR_ADMIT);
        assert_int_equal(fair_admit(f, k, 0), FAIR_ADMIT);
    }
    assert_int_equal(fair_count(f), 8);
    /* Full of keys in use: a new key gets no entry of its own (the sweep
     * finds nothing to drop) and is served from the overflow bucket. */
    s_key(n1, 100);
    s_key(n2, 101);
    assert_int_equal(fair_admit(f, n1, 10), FAIR_ADMIT);
    assert_false(fair_has_entry(f, n1));
    assert_int_equal(fair_count(f), 8);
    /* ... which it shares with the next new key (burst 2 in all). */
    assert_int_equal(fair_admit(f, n2, 10), FAIR_ADMIT);
    assert_int_equal(fair_admit(f, n1, 10), FAIR_OVER_QUEUED);
    assert_int_equal(fair_admit(f, n2, 10), FAIR_OVER_QUEUED);
    /* The keys that have entries kept their own state. */
    for (unsigned i = 0; i < 8; i++) {
        s_key(k, i);
        assert_true(fair_has_entry(f, k));
        assert_int_equal(fair_admit(f, k, 10), FAIR_OVER_QUEUED);
    }
    /* Later, keys 0..3 have refilled and were not seen in this round: they
     * equal fresh entries and are dropped by the next sweep (one a second),
     * which makes room for new keys. Keys 4..7 are used again first. */
    fair_round_begin(f);
    for (unsigned i = 4; i < 8; i++) {
        s_key(k, i);
        assert_int_equal(fair_admit(f, k, 5000), FAIR_ADMIT);
    }
    assert_int_equal(fair_admit(f, n1, 5000), FAIR_ADMIT);
    assert_true(fair_has_entry(f, n1));
    assert_int_equal(fair_count(f), 5);
    for (unsigned i = 4; i < 8; i++) {
        s_key(k, i);
        assert_true(fair_has_entry(f, k));
        /* one token left of the refilled burst: the state was kept */
        assert_int_equal(fair_admit(f, k, 5000), FAIR_ADMIT);
        assert_int_equal(fair_admit(f, k, 5000), FAIR_OVER_QUEUED);
    }
    fair_destroy(&f);
}

/* At most one sweep a second when sweeping frees nothing. */
static void test_sweep_paced(void **state) {
    (void)state;
    bd_fair *f = fair_new(1, 1, 1000000, 4);
    uint8_t k[32], n[32];
    fair_round_begin(f);
    for (unsigned i = 0; i < 4; i++) {
        s_key(k, i);
        assert_int_equal(fair_admit(f, k, 0), FAIR_ADMIT);
    }
    s_key(n, 50);
    assert_int_equal(fair_admit(f, n, 100), FAIR_ADMIT);   /* sweep at 100: nothing idle */
    assert_false(fair_has_entry(f, n));
    /* By 1000 every bucket is full again, but no sweep before 1100: key 51
     * shares the overflow bucket, which key 50 emptied. */
    fair_round_begin(f);
    s_key(n, 51);
    assert_int_equal(fair_admit(f, n, 1099), FAIR_OVER_NOW);
    assert_false(fair_has_entry(f, n));
    assert_int_equal(fair_count(f), 4);
    s_key(n, 52);
    assert_int_equal(fair_admit(f, n, 1100), FAIR_ADMIT);
    assert_true(fair_has_entry(f, n));
    assert_int_equal(fair_count(f), 1);
    fair_destroy(&f);
}

static void test_round_share(void **state) {
    (void)state;
    bd_fair *f = fair_new(0, 1, 4, 0);   /* share 4 */
    uint8_t a[32], b[32], c[32];
    s_key(a, 1);
    s_key(b, 2);
    s_key(c, 3);
    /* One key alone may fill the round. */
    fair_round_begin(f);
    for (int i = 0; i < 100; i++) {
        fair_admit(f, a, 0);
        assert_false(fair_round_full(f));
    }
    /* A second key arrives: the first already has its share, the round ends. */
    fair_admit(f, b, 0);
    assert_true(fair_round_full(f));
    /* A new round starts every count afresh. */
    fair_round_begin(f);
    assert_false(fair_round_full(f));
    fair_admit(f, b, 0);
    for (int i = 0; i < 3; i++) fair_admit(f, a, 0);
    fair_admit(f, c, 0);
    assert_false(fair_round_full(f));
    fair_admit(f, a, 0);   /* its 4th */
    assert_true(fair_round_full(f));
    /* Refused frames count too: an over-rate flood fills its share. */
    bd_fair *g = fair_new(1, 1, 2, 0);
    fair_round_begin(g);
    assert_int_equal(fair_admit(g, b, 0), FAIR_ADMIT);
    assert_int_equal(fair_admit(g, a, 0), FAIR_ADMIT);
    assert_int_equal(fair_admit(g, a, 0), FAIR_OVER_QUEUED);
    assert_true(fair_round_full(g));
    fair_destroy(&g);
    fair_destroy(&f);
}

static void test_peek_request_id(void **state) {
    (void)state;
    uint8_t buf[64];
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    req.hello = &g;
    const uint64_t ids[] = {1, 127, 128, 300, 1u << 31, UINT64_MAX};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        req.request_id = ids[i];
        size_t n = berthier__v1__request__pack(&req, buf);
        assert_int_equal(decode_peek_request_id(buf, n), ids[i]);
    }
    req.request_id = 0;   /* not written at all */
    size_t n = berthier__v1__request__pack(&req, buf);
    assert_int_equal(decode_peek_request_id(buf, n), 0);
    static const uint8_t garbage[] = {0xff, 0xfe, 0x01};
    assert_int_equal(decode_peek_request_id(garbage, sizeof garbage), 0);
    static const uint8_t cut[] = {0x08, 0x80, 0x80};   /* a varint that never ends */
    assert_int_equal(decode_peek_request_id(cut, sizeof cut), 0);
    assert_int_equal(decode_peek_request_id(cut, 0), 0);
}

/* Abuse counts: more than `abuse-malformed` in a window bans the key for
 * ban-seconds; the count starts again in a new window; BUSY refusals count
 * only while a rate is set; the shared overflow bucket is never banned. */
static void test_abuse_counts_and_ban(void **state) {
    (void)state;
    bd_fair *f = fair_new(0, 10, 16, 0);
    assert_non_null(f);
    fair_set_abuse(f, 3, 2, 10, 30);
    uint8_t a[32], b[32];
    s_key(a, 1);
    s_key(b, 2);
    for (int i = 0; i < 3; i++) assert_int_equal(fair_note_malformed(f, a, 1000), 0);
    assert_int_equal(fair_note_malformed(f, a, 1000), 1);   /* the 4th within 10 s */
    /* A new window starts the count again. */
    for (int i = 0; i < 3; i++) assert_int_equal(fair_note_malformed(f, b, 1000 + i), 0);
    assert_int_equal(fair_note_malformed(f, b, 11000), 0);
    /* Valid traffic at any rate with rate 0: BUSY never counts. */
    for (int i = 0; i < 1000; i++) assert_int_equal(fair_note_busy(f, b, 2000), 0);
    assert_false(fair_banned(f, a, 1000));
    fair_punish(f, a, -1, (const uint8_t *)"r", 1, NULL, 1000, 1, "test");
    assert_true(fair_banned(f, a, 1000));
    assert_true(fair_banned(f, a, 30999));
    assert_false(fair_banned(f, a, 31000));
    assert_false(fair_banned(f, b, 1000));
    fair_destroy(&f);

    f = fair_new(5, 1, 16, 0);
    fair_set_abuse(f, 0, 2, 10, 30);
    assert_int_equal(fair_note_malformed(f, a, 0), 0);   /* 0 = off */
    assert_int_equal(fair_note_busy(f, a, 0), 0);
    assert_int_equal(fair_note_busy(f, a, 0), 0);
    assert_int_equal(fair_note_busy(f, a, 0), 1);
    fair_destroy(&f);
}

static void test_abuse_ban_survives_sweep(void **state) {
    (void)state;
    bd_fair *f = fair_new(0, 10, 16, 2);   /* two keys at most */
    fair_set_abuse(f, 1, 0, 10, 30);
    uint8_t a[32], b[32], c[32];
    s_key(a, 1);
    s_key(b, 2);
    s_key(c, 3);
    fair_round_begin(f);
    fair_admit(f, a, 0);
    fair_admit(f, b, 0);
    fair_punish(f, a, -1, (const uint8_t *)"r", 1, NULL, 0, 1, "test");
    fair_round_begin(f);
    fair_admit(f, c, 5000);   /* the sweep drops b (idle), never the banned a */
    assert_true(fair_has_entry(f, a));
    assert_true(fair_banned(f, a, 5000));
    assert_false(fair_has_entry(f, b));
    fair_destroy(&f);
}

static void test_peek_reply_code(void **state) {
    (void)state;
    static const uint8_t r1[] = {0x08, 0x96, 0x01, 0x10, 0x05, 0x1a, 0x02, 'P', '2'};
    assert_int_equal(decode_peek_reply_code(r1, sizeof r1), 5);
    static const uint8_t r2[] = {0x10, 0x03};
    assert_int_equal(decode_peek_reply_code(r2, sizeof r2), 3);
    static const uint8_t r3[] = {0x08, 0x01, 0x62, 0x00};
    assert_int_equal(decode_peek_reply_code(r3, sizeof r3), 0);
    static const uint8_t r4[] = {0x10, 0x80};
    assert_int_equal(decode_peek_reply_code(r4, sizeof r4), -1);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket),          cmocka_unit_test(test_no_rate),
        cmocka_unit_test(test_answered_at_once), cmocka_unit_test(test_answered_uncounted),
        cmocka_unit_test(test_keys_independent), cmocka_unit_test(test_full_table),
        cmocka_unit_test(test_sweep_paced),     cmocka_unit_test(test_round_share),
        cmocka_unit_test(test_peek_request_id),
        cmocka_unit_test(test_abuse_counts_and_ban), cmocka_unit_test(test_abuse_ban_survives_sweep),
        cmocka_unit_test(test_peek_reply_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
