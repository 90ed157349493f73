/*
 * test_match_bt.c - the Bradley-Terry fit of berthier-match (clients/match/bt.c).
 *
 * The old runner's "Elo vs field" collapsed to ">+417 [+417, +417]" at 100%: an
 * interval of width 0 for a score of 3/3. Here ratings must be finite with a
 * wide, honest interval at 100%, and match answers computed independently.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bt.h"

static double s_expect(double d_elo) { return 1.0 / (1.0 + pow(10.0, -d_elo / 400.0)); }

/* Even results: every rating 0, by symmetry. */
static void test_even(void **state) {
    (void)state;
    double games[9] = {0, 4, 4, 4, 0, 4, 4, 4, 0}, points[9] = {0, 2, 2, 2, 0, 2, 2, 2, 0};
    bt_rating r[3];
    assert_int_equal(bt_fit(3, games, points, 1.0, r), 0);
    for (int i = 0; i < 3; i++) {
        assert_true(fabs(r[i].elo) < 1e-6);
        assert_true(r[i].se > 0 && isfinite(r[i].se));
    }
}

/* A won all 10 against B: by symmetry r_A = -r_B = x, where x solves
 * 10 (1 - E(2x)) + 1 (0.5 - E(x)) = 0 (E = expected score); found here by bisection. */
static void test_clean_sweep_known_answer(void **state) {
    (void)state;
    double lo = 0, hi = 3000;
    for (int i = 0; i < 200; i++) {
        double x = (lo + hi) / 2;
        double g = 10 * (1 - s_expect(2 * x)) + (0.5 - s_expect(x));
        if (g > 0) lo = x;
        else hi = x;
    }
    double games[4] = {0, 10, 10, 0}, points[4] = {0, 10, 0, 0};
    bt_rating r[2];
    assert_int_equal(bt_fit(2, games, points, 1.0, r), 0);
    assert_true(fabs(r[0].elo - lo) < 1e-6);
    assert_true(fabs(r[1].elo + lo) < 1e-6);
    /* finite and honest: the interval is wide and contains the estimate */
    assert_true(isfinite(r[0].hi) && isfinite(r[1].lo));
    assert_true(r[0].lo < r[0].elo && r[0].elo < r[0].hi);
    assert_true(r[0].hi - r[0].lo > 100);
    assert_true(r[0].elo > 200 && r[0].elo < 1000);
}

/* Two players, 750 of 1000: with a negligible prior the rating gap is
 * 400 log10(750 / 250) = 190.85 Elo. With one virtual draw each, the standard
 * error is the inverse of the 2x2 information [[w + q, -w], [-w, w + q]]
 * (w = n p (1 - p) for the pair, q = E(r)(1 - E(r)) for the prior draw, the
 * same for A and B by symmetry): se^2 = (w + q) / (q (2w + q)) natural units^2. */
static void test_known_gap_and_se(void **state) {
    (void)state;
    double games[4] = {0, 1000, 1000, 0}, points[4] = {0, 750, 250, 0};
    bt_rating r[2];
    assert_int_equal(bt_fit(2, games, points, 1e-9, r), 0);
    assert_true(fabs(r[0].elo - r[1].elo - 400.0 * log10(3.0)) < 1e-3);
    assert_int_equal(bt_fit(2, games, points, 1.0, r), 0);
    assert_true(fabs(r[0].elo + r[1].elo) < 1e-6);
    double p = s_expect(r[0].elo - r[1].elo), e = s_expect(r[0].elo);
    double w = 1000 * p * (1 - p), q = e * (1 - e);
    double se = sqrt((w + q) / (q * (2 * w + q))) * 400.0 / log(10.0);
    assert_true(fabs(r[0].se - se) < 1e-6 * se);
    assert_true(fabs(r[1].se - se) < 1e-6 * se);
    assert_true(fabs(r[0].hi - r[0].elo - 1.96 * se) < 1e-6 * se);
}

/* Three players: the fit is the maximum, so the gradient there is zero. Checked
 * with the expectation formula directly, independently of the fit's code. */
static void test_gradient_zero(void **state) {
    (void)state;
    double games[9] = {0, 6, 4, 6, 0, 8, 4, 8, 0};
    double points[9] = {0, 5, 4, 1, 0, 3, 0, 5, 0};
    bt_rating r[3];
    assert_int_equal(bt_fit(3, games, points, 1.0, r), 0);
    for (int i = 0; i < 3; i++) {
        double g = 1.0 * (0.5 - s_expect(r[i].elo));
        for (int j = 0; j < 3; j++)
            if (j != i) g += points[i * 3 + j] - games[i * 3 + j] * s_expect(r[i].elo - r[j].elo);
        assert_true(fabs(g) < 1e-6);
    }
    assert_true(r[0].elo > r[2].elo && r[2].elo > r[1].elo);
}

/* An entrant that lost everything, and one that played nobody (only the prior). */
static void test_extremes(void **state) {
    (void)state;
    double games[9] = {0, 5, 0, 5, 0, 0, 0, 0, 0}, points[9] = {0, 0, 0, 5, 0, 0, 0, 0, 0};
    bt_rating r[3];
    assert_int_equal(bt_fit(3, games, points, 1.0, r), 0);
    assert_true(isfinite(r[0].elo) && isfinite(r[0].lo) && r[0].elo < 0);
    assert_true(fabs(r[2].elo) < 1e-9);
    assert_true(isfinite(r[2].se));
}

static void test_bad_input(void **state) {
    (void)state;
    double games[4] = {0, 2, 3, 0}, points[4] = {0, 1, 1, 0};
    bt_rating r[2];
    assert_int_equal(bt_fit(2, games, points, 1.0, r), -1); /* not symmetric */
    double g2[4] = {0, 2, 2, 0}, p2[4] = {0, 3, 0, 0};
    assert_int_equal(bt_fit(2, g2, p2, 1.0, r), -1);        /* more points than games */
    assert_int_equal(bt_fit(0, g2, p2, 1.0, r), -1);
    assert_int_equal(bt_fit(2, g2, p2, 0.0, r), -1);        /* no prior: no finite fit at 100% */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_even),          cmocka_unit_test(test_clean_sweep_known_answer),
        cmocka_unit_test(test_known_gap_and_se), cmocka_unit_test(test_gradient_zero),
        cmocka_unit_test(test_extremes),      cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
