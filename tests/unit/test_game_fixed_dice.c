/*
 * test_game_fixed_dice.c - the core option dice-seed=HEX (docs/dice.md "Fixed
 * dice"): two games with the same operator seed roll the same value at every
 * roll index they share with the same number of sides (a roll index is the same
 * draw from the stream; what it is for may differ once play diverges), whatever their ids, seat entropy, server seeds and
 * play; the header keeps only "dice-seed=fixed". On the old code the option is
 * refused ("unknown core option"), so the games are never created.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "dice.h"
#include "evlog.h"
#include "game.h"
#include "selfplay.h"

#define HEX "00112233445566778899aabbccddeeff0123456789abcdeffedcba9876543210"

/* The DICE records of log, by index (sides << 16 | value); returns how many. */
static size_t s_rolls(const memlog *log, uint32_t *values, size_t cap) {
    size_t n = 0;
    for (size_t i = 0; i < log->n; i++) {
        if (log->recs[i].kind != EVLOG_DICE) continue;
        Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, log->recs[i].len, log->recs[i].payload);
        assert_non_null(d);
        assert_int_equal(d->index, n); /* indexes are consecutive from 0 */
        assert_true(d->sides < 0x10000 && d->value < 0x10000);
        if (n < cap) values[n] = d->sides << 16 | d->value;
        n++;
        berthier__v1__log_dice__free_unpacked(d, NULL);
    }
    return n < cap ? n : cap;
}

static size_t s_play(const char *const *opts, size_t n_opts, uint64_t seed, memlog *log, uint32_t *values,
                     size_t cap) {
    selfplay_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(selfplay_game("n20", "waterloo20-standard", opts, n_opts, 2, seed, 400, log, &r), 0);
    assert_string_equal(r.error, "");
    return s_rolls(log, values, cap);
}

static void test_same_seed_same_stream(void **state) {
    (void)state;
    const char *fixed[] = {"dice-seed=" HEX};
    static uint32_t a[4096], b[4096], c[4096], d[4096];
    memlog la, lb, lc, ld;
    /* two games: other ids, other entropy, other server seeds, other random play */
    size_t na = s_play(fixed, 1, 11, &la, a, 4096);
    size_t nb = s_play(fixed, 1, 12, &lb, b, 4096);
    size_t k = na < nb ? na : nb, same_sides = 0;
    for (size_t i = 0; i < k; i++) {
        if (a[i] >> 16 != b[i] >> 16) continue;
        same_sides++;
        assert_int_equal(a[i], b[i]);
    }
    assert_true(same_sides >= 8);
    /* the same games without the option do not share their stream */
    size_t nc = s_play(NULL, 0, 11, &lc, c, 4096);
    size_t nd = s_play(NULL, 0, 12, &ld, d, 4096);
    size_t m = nc < nd ? nc : nd;
    int differ = 0;
    for (size_t i = 0; i < m; i++) differ |= (c[i] >> 16 == d[i] >> 16) && c[i] != d[i];
    assert_true(differ);
    /* the header: the mark, the fixed mode, the commitment to the operator's seed, not the seed */
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, la.recs[0].len, la.recs[0].payload);
    assert_non_null(h);
    assert_int_equal(h->n_options, 1);
    assert_string_equal(h->options[0], "dice-seed=fixed");
    assert_string_equal(h->dice_mode, "fixed");
    uint8_t seed[32], commit[32];
    size_t bin_len = 0;
    assert_int_equal(sodium_hex2bin(seed, 32, HEX, 64, NULL, &bin_len, NULL), 0);
    dice_commit(seed, commit);
    assert_int_equal(h->dice_commit.len, 32);
    assert_memory_equal(h->dice_commit.data, commit, 32);
    berthier__v1__log_header__free_unpacked(h, NULL);
    assert_null(memmem(la.recs[0].payload, la.recs[0].len, HEX, 64));
    assert_null(memmem(la.recs[0].payload, la.recs[0].len, seed, 32));
    memlog_free(&la);
    memlog_free(&lb);
    memlog_free(&lc);
    memlog_free(&ld);
}

static void test_option_checked(void **state) {
    (void)state;
    uint8_t seed[32];
    brt_reject err;
    char *none[] = {"dice=standard"};
    assert_int_equal(game_fixed_seed(none, 0, seed, &err), 0);
    char *good[] = {"dice-seed=" HEX};
    assert_int_equal(game_fixed_seed(good, 1, seed, &err), 1);
    assert_int_equal(seed[0], 0x00);
    assert_int_equal(seed[1], 0x11);
    assert_int_equal(seed[31], 0x10);
    char *bad[][2] = {
        {"dice-seed=zz", NULL},
        {"dice-seed=" HEX "00", NULL},
        {"dice-seed=fixed", NULL},
        {"dice-seed=" HEX, "dice-seed=" HEX},
        {"dice-seed=" HEX, "dice=contributory"},
        {"dice=standard", "dice-seed=" HEX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = bad[i][1] ? 2 : 1;
        memset(&err, 0, sizeof err);
        assert_int_equal(game_fixed_seed(bad[i], n, seed, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_OPTION);
    }
    assert_true(game_option_is_core("dice-seed=" HEX));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_stream),
        cmocka_unit_test(test_option_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
