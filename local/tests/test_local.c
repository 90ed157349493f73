/*
 * test_local.c - libberthier_local's C API: a whole game in process whose log
 * verifies (replay_verify_memory, the checks of `berthier-replay verify`), the
 * daemon's codes for refused inputs, and hostile calls (bad seats, garbage and
 * truncated order bytes, a NULL text, too many or malformed options, an order
 * out of turn) that are refused with nothing recorded and leave the game
 * playable. Before libberthier_local there was no in-process game: none of this
 * links.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "berthier_local.h"
#include "buf.h"
#include "replay.h"

static brt_local *s_new(const char *opts, const uint8_t seed_byte) {
    uint8_t seed[32];
    memset(seed, seed_byte, sizeof seed);
    char err[640];
    brt_local *g = brt_local_new("duel", "standard", opts, 2, NULL, seed, NULL, NULL, err, sizeof err);
    if (!g) fprintf(stderr, "brt_local_new: %s\n", err);
    return g;
}

/* The first legal order of `seat`, copied into out; its length, or 0. */
static size_t s_first_legal(brt_local *g, unsigned seat, uint8_t *out, size_t cap) {
    size_t len = 0;
    int n = 0;
    const uint8_t *l = brt_local_legal(g, seat, 0, &len, &n);
    if (!l || n <= 0 || len < 4) return 0;
    size_t k = (size_t)l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 | (size_t)l[3] << 24;
    if (k > cap || k + 4 > len) return 0;
    memcpy(out, l + 4, k);
    return k;
}

static void s_join_all(brt_local *g) {
    assert_int_equal(brt_local_join(g, 0, NULL), 0);
    assert_int_equal(brt_local_join(g, 1, NULL), 0);
}

/* Play with each seat's first legal order; the number of orders. */
static unsigned s_play(brt_local *g) {
    unsigned orders = 0;
    int ended = 0;
    uint32_t winners;
    char level[160], reason[160];
    while (brt_local_result(g, &ended, &winners, level, reason) == 0 && !ended && orders < 10000) {
        int acted = 0;
        for (unsigned s = 0; s < 2; s++) {
            if (!brt_local_must_act(g, s)) continue;
            uint8_t o[256];
            size_t n = s_first_legal(g, s, o, sizeof o);
            assert_true(n > 0);
            assert_int_equal(brt_local_apply(g, s, o, n, 0), 0);
            orders++;
            acted = 1;
        }
        assert_true(acted);
    }
    assert_true(ended);
    return orders;
}

static void test_game_log_verifies(void **state) {
    (void)state;
    brt_local *g = s_new(NULL, 7);
    assert_non_null(g);
    s_join_all(g);
    unsigned orders = s_play(g);
    assert_true(orders > 0);
    char path[] = "/tmp/brt-local-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* evlog_create makes the file itself (O_EXCL) */
    assert_int_equal(brt_local_write_log(g, path), 0);
    assert_int_equal(brt_local_write_log(g, path), -1); /* never over an existing file */
    assert_non_null(strstr(brt_local_error(g), path));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *data = malloc(1 << 20);
    size_t len = fread(data, 1, 1 << 20, f);
    fclose(f);
    unlink(path);
    brt_buf report;
    buf_init(&report);
    int vr = replay_verify_memory(data, len, brt_local_sign_pk(g), &report);
    if (vr != REPLAY_OK) fprintf(stderr, "%.*s\n", (int)report.len, (const char *)report.data);
    assert_int_equal(vr, REPLAY_OK);
    /* One byte flipped in the middle: refused (the check can fail). */
    data[len / 2] ^= 0x40;
    buf_reset(&report);
    assert_int_not_equal(replay_verify_memory(data, len, brt_local_sign_pk(g), &report), REPLAY_OK);
    buf_free(&report);
    free(data);
    brt_local_destroy(&g);
    assert_null(g);
}

/* Same seed, same orders: the same state hash and the same last records, byte for
 * byte (the END and the REVEAL of the seed); another seed reveals another seed. */
static void test_deterministic(void **state) {
    (void)state;
    uint8_t h[3][32];
    uint8_t *last[3];
    size_t last_len[3];
    for (int i = 0; i < 3; i++) {
        brt_local *g = s_new(NULL, i == 2 ? 8 : 7);
        assert_non_null(g);
        s_join_all(g);
        s_play(g);
        assert_int_equal(brt_local_state_hash(g, h[i]), 0);
        int count = 0;
        const uint8_t *r = brt_local_last_records(g, &last_len[i], &count);
        assert_non_null(r);
        assert_true(count >= 3); /* the order, its outcome, END, REVEAL, ... */
        last[i] = malloc(last_len[i]);
        memcpy(last[i], r, last_len[i]);
        brt_local_destroy(&g);
    }
    assert_memory_equal(h[0], h[1], 32);
    assert_int_equal(last_len[0], last_len[1]);
    assert_memory_equal(last[0], last[1], last_len[0]);
    assert_true(last_len[0] != last_len[2] || memcmp(last[0], last[2], last_len[0]) != 0);
    for (int i = 0; i < 3; i++) free(last[i]);
}

static void test_hostile_inputs(void **state) {
    (void)state;
    brt_local *g = s_new(NULL, 9);
    assert_non_null(g);
    /* an order before anybody joined */
    assert_int_equal(brt_local_apply(g, 0, (const uint8_t *)"", 0, 0), -1);
    assert_true(strlen(brt_local_error(g)) > 0);
    s_join_all(g);
    assert_int_equal(brt_local_join(g, 0, NULL), -1);
    assert_non_null(strstr(brt_local_error(g), "CODE_ALREADY_JOINED"));
    uint64_t seq = brt_local_seq(g);
    size_t n0 = 0;
    int c0 = 0;
    assert_null(brt_local_legal(g, 2, 0, &n0, &c0));
    assert_non_null(strstr(brt_local_error(g), "CODE_BAD_SEAT"));
    assert_int_equal(brt_local_apply(g, 5, (const uint8_t *)"x", 1, 0), -1);
    assert_non_null(strstr(brt_local_error(g), "CODE_BAD_SEAT"));
    assert_null(brt_local_view(g, 7, 0, &n0));
    assert_null(brt_local_view(g, -2, 1, &n0));
    /* garbage Order bytes, a truncated varint, a NULL text, an unparsable text */
    const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    assert_int_equal(brt_local_apply(g, 0, garbage, sizeof garbage, 0), -1);
    const uint8_t trunc[] = {0x08};
    assert_int_equal(brt_local_apply(g, 0, trunc, sizeof trunc, 0), -1);
    assert_int_equal(brt_local_apply(g, 0, NULL, 0, 1), -1);
    assert_int_equal(brt_local_apply(g, 0, (const uint8_t *)"charge the guard", 0, 1), -1);
    assert_int_equal(brt_local_resign(g, 9), -1);
    /* nothing was recorded: the game is where it was, and still plays to the end */
    assert_int_equal(brt_local_seq(g), seq);
    assert_int_equal(brt_local_apply(g, 0, (const uint8_t *)"bid 1", 0, 1), 0);
    /* a sealed choice already made: the seat may not choose again */
    assert_false(brt_local_must_act(g, 0));
    assert_int_equal(brt_local_apply(g, 0, (const uint8_t *)"bid 1", 0, 1), -1);
    s_play(g);
    uint8_t o[256];
    assert_int_equal(brt_local_apply(g, 0, o, 0, 0), -1);
    assert_non_null(strstr(brt_local_error(g), "CODE_GAME_OVER"));
    brt_local_destroy(&g);
    brt_local_destroy(&g); /* twice: a no-op */
    brt_local_destroy(NULL);
}

static void test_refused_creation(void **state) {
    (void)state;
    uint8_t seed[32] = {0};
    char err[640];
    assert_null(brt_local_new("nope", "", NULL, 2, NULL, seed, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "CODE_BAD_RULESET"));
    assert_null(brt_local_new("duel", "waterloo", NULL, 2, NULL, seed, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "standard")); /* names the valid scenarios */
    assert_null(brt_local_new("duel", "standard", "no-such-option", 2, NULL, seed, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "CODE_BAD_OPTION"));
    assert_null(brt_local_new("duel", "standard", "dice-seed=12", 2, NULL, seed, NULL, NULL, err, sizeof err));
    assert_null(brt_local_new("duel", "standard", "dice=contributory", 2, NULL, seed, NULL, NULL, err, sizeof err));
    assert_null(brt_local_new("duel", "standard", NULL, 2, NULL, NULL, NULL, NULL, err, sizeof err));
    assert_null(brt_local_new("duel", "standard", NULL, 0, NULL, seed, NULL, NULL, err, sizeof err));
    assert_null(brt_local_new("duel", "standard", NULL, 1000, NULL, seed, NULL, NULL, err, sizeof err));
    char longid[64];
    memset(longid, 'a', sizeof longid - 1);
    longid[63] = '\0';
    assert_null(brt_local_new("duel", "standard", NULL, 2, longid, seed, NULL, NULL, err, sizeof err));
    /* 40 options, more than a header may hold */
    brt_buf many;
    buf_init(&many);
    for (int i = 0; i < 40; i++) buf_printf(&many, "opt%d\n", i);
    buf_append(&many, "", 1);
    assert_null(brt_local_new("duel", "standard", (const char *)many.data, 2, NULL, seed, NULL, NULL, err,
                              sizeof err));
    assert_non_null(strstr(err, "CODE_BAD_OPTION"));
    buf_free(&many);
    /* the fixed dice option: the game's dice do not depend on the seed given */
    uint8_t h1[32], h2[32], seed2[32];
    memset(seed2, 3, sizeof seed2);
    const char *fixed = "dice-seed=0101010101010101010101010101010101010101010101010101010101010101";
    brt_local *a = brt_local_new("duel", "standard", fixed, 2, "0123456789abcdef", seed, NULL, NULL, err, sizeof err);
    brt_local *b = brt_local_new("duel", "standard", fixed, 2, "0123456789abcdef", seed2, NULL, NULL, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    uint8_t ent[32];
    memset(ent, 5, sizeof ent);
    for (unsigned s = 0; s < 2; s++) {
        assert_int_equal(brt_local_join(a, s, ent), 0);
        assert_int_equal(brt_local_join(b, s, ent), 0);
    }
    s_play(a);
    s_play(b);
    assert_int_equal(brt_local_state_hash(a, h1), 0);
    assert_int_equal(brt_local_state_hash(b, h2), 0);
    assert_memory_equal(h1, h2, 32);
    assert_string_equal(brt_local_game_id(a), "0123456789abcdef");
    brt_local_destroy(&a);
    brt_local_destroy(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_log_verifies),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_hostile_inputs),
        cmocka_unit_test(test_refused_creation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
