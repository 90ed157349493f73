/* test_daemon_dedupe.c - the retry table of berthierd: same key and id give
 * the remembered reply, the least recently used entry leaves first, and a
 * request id belongs to one key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../daemon/dedupe.c"

static void s_key(uint8_t k[32], int v) {
    memset(k, 0, 32);
    k[0] = (uint8_t)v;
    k[31] = (uint8_t)(v >> 8);
}

static void test_put_get(void **state) {
    (void)state;
    bd_dedupe *d = dedupe_new(8);
    uint8_t k1[32], k2[32], dg[DEDUPE_DIGEST], dg2[DEDUPE_DIGEST];
    s_key(k1, 1);
    s_key(k2, 2);
    dedupe_digest((const uint8_t *)"request", 7, dg);
    dedupe_digest((const uint8_t *)"other", 5, dg2);
    assert_memory_not_equal(dg, dg2, DEDUPE_DIGEST);
    assert_int_equal(dedupe_put(d, k1, 7, dg, (const uint8_t *)"reply", 5), 0);
    const uint8_t *gd, *rep;
    size_t n;
    assert_int_equal(dedupe_get(d, k1, 7, &gd, &rep, &n), 1);
    assert_memory_equal(gd, dg, DEDUPE_DIGEST);
    assert_int_equal(n, 5);
    assert_memory_equal(rep, "reply", 5);
    /* The same id under another key is another entry. */
    assert_int_equal(dedupe_get(d, k2, 7, &gd, &rep, &n), 0);
    assert_int_equal(dedupe_get(d, k1, 8, &gd, &rep, &n), 0);
    /* Replacing keeps one entry. */
    assert_int_equal(dedupe_put(d, k1, 7, dg2, (const uint8_t *)"again", 5), 0);
    assert_int_equal(dedupe_count(d), 1);
    assert_int_equal(dedupe_get(d, k1, 7, &gd, &rep, &n), 1);
    assert_memory_equal(rep, "again", 5);
    /* An empty reply is fine. */
    assert_int_equal(dedupe_put(d, k2, 1, dg, NULL, 0), 0);
    assert_int_equal(dedupe_get(d, k2, 1, &gd, &rep, &n), 1);
    assert_int_equal(n, 0);
    dedupe_destroy(&d);
    assert_null(d);
}

static void test_lru(void **state) {
    (void)state;
    bd_dedupe *d = dedupe_new(16);
    uint8_t k[32], dg[DEDUPE_DIGEST];
    s_key(k, 5);
    memset(dg, 0xab, sizeof dg);
    for (uint64_t id = 1; id <= 16; id++) assert_int_equal(dedupe_put(d, k, id, dg, (const uint8_t *)&id, 8), 0);
    const uint8_t *gd, *rep;
    size_t n;
    /* Touch id 1 so that id 2 is now the oldest. */
    assert_int_equal(dedupe_get(d, k, 1, &gd, &rep, &n), 1);
    assert_int_equal(dedupe_put(d, k, 17, dg, (const uint8_t *)"x", 1), 0);
    assert_int_equal(dedupe_count(d), 16);
    assert_int_equal(dedupe_get(d, k, 2, &gd, &rep, &n), 0);
    assert_int_equal(dedupe_get(d, k, 1, &gd, &rep, &n), 1);
    assert_int_equal(dedupe_get(d, k, 17, &gd, &rep, &n), 1);
    for (uint64_t id = 3; id <= 16; id++) {
        assert_int_equal(dedupe_get(d, k, id, &gd, &rep, &n), 1);
        uint64_t v;
        memcpy(&v, rep, 8);
        assert_int_equal(v, id);
    }
    /* Many more: the table stays at its bound. */
    for (uint64_t id = 100; id < 5000; id++) assert_int_equal(dedupe_put(d, k, id, dg, (const uint8_t *)"y", 1), 0);
    assert_int_equal(dedupe_count(d), 16);
    assert_int_equal(dedupe_get(d, k, 4999, &gd, &rep, &n), 1);
    assert_int_equal(dedupe_get(d, k, 4984, &gd, &rep, &n), 1);
    assert_int_equal(dedupe_get(d, k, 4983, &gd, &rep, &n), 0);
    dedupe_destroy(&d);
}

/* A padded reply is kept without its trailing zeros, and a retry gets every byte back. */
static void test_padding_not_kept(void **state) {
    (void)state;
    bd_dedupe *d = dedupe_new(8);
    uint8_t k[32], dg[DEDUPE_DIGEST];
    s_key(k, 3);
    dedupe_digest((const uint8_t *)"r", 1, dg);
    uint8_t reply[2048];
    memset(reply, 0, sizeof reply);
    for (int i = 0; i < 100; i++) reply[i] = (uint8_t)(i + 1);
    reply[50] = 0;   /* a zero inside stays */
    assert_int_equal(dedupe_put(d, k, 1, dg, reply, sizeof reply), 0);
    assert_int_equal(d->newest->reply_len, 100);
    assert_int_equal(d->newest->zeros, sizeof reply - 100);
    const uint8_t *gd, *rep;
    size_t n;
    for (int twice = 0; twice < 2; twice++) {
        assert_int_equal(dedupe_get(d, k, 1, &gd, &rep, &n), 1);
        assert_int_equal(n, sizeof reply);
        assert_memory_equal(rep, reply, sizeof reply);
    }
    /* nothing but zeros, and no zeros at all */
    uint8_t none[4] = {1, 2, 3, 4}, all[16] = {0};
    assert_int_equal(dedupe_put(d, k, 2, dg, all, sizeof all), 0);
    assert_int_equal(d->newest->reply_len, 0);
    assert_int_equal(dedupe_put(d, k, 3, dg, none, sizeof none), 0);
    assert_int_equal(d->newest->zeros, 0);
    assert_int_equal(dedupe_get(d, k, 2, &gd, &rep, &n), 1);
    assert_int_equal(n, sizeof all);
    assert_memory_equal(rep, all, sizeof all);
    assert_int_equal(dedupe_get(d, k, 3, &gd, &rep, &n), 1);
    assert_int_equal(n, sizeof none);
    assert_memory_equal(rep, none, sizeof none);
    dedupe_destroy(&d);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_put_get), cmocka_unit_test(test_lru),
                                       cmocka_unit_test(test_padding_not_kept)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
