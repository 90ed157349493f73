/*
 * test_match_schedule.c - berthier-match's tournament schedules (clients/match/schedule.c).
 *
 * The old runner seated bot (g + s) mod n at seat s of game g: with 4 bots only
 * neighbours in the list ever met (0 never played 2) and each pair always played
 * the same sides. These tests count every meeting and every seat order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedule.h"

/* games per ordered seating of distinct entrants, key = e0*64*64 + e1*64 + e2 */
static unsigned s_count[64 * 64 * 64];

static void s_round_robin_every_order(unsigned n, unsigned seats, unsigned rounds) {
    size_t per = sched_round_size(SCHED_ROUND_ROBIN, n, seats);
    size_t expect = 1;
    for (unsigned i = 0; i < seats; i++) expect *= n - i;
    assert_int_equal(per, expect);
    memset(s_count, 0, sizeof s_count);
    for (size_t g = 0; g < per * rounds; g++) {
        sched_game sg;
        assert_int_equal(sched_game_at(SCHED_ROUND_ROBIN, n, seats, g, &sg), 0);
        assert_int_equal(sg.round, g / per);
        unsigned key = 0;
        for (unsigned s = 0; s < seats; s++) {
            assert_true(sg.entrant[s] < n);
            for (unsigned t = 0; t < s; t++) assert_int_not_equal(sg.entrant[s], sg.entrant[t]);
            key = key * 64 + sg.entrant[s];
        }
        s_count[key]++;
    }
    /* every ordered choice of distinct entrants played exactly `rounds` times */
    unsigned seen = 0;
    for (unsigned k = 0; k < 64 * 64 * 64; k++)
        if (s_count[k]) {
            assert_int_equal(s_count[k], rounds);
            seen++;
        }
    assert_int_equal(seen, expect);
}

static void test_rr_pairs_both_sides(void **state) {
    (void)state;
    s_round_robin_every_order(4, 2, 3);
    s_round_robin_every_order(2, 2, 1);
    s_round_robin_every_order(7, 2, 2);
    s_round_robin_every_order(16, 2, 1);
}

static void test_rr_three_seats_rotate(void **state) {
    (void)state;
    s_round_robin_every_order(3, 3, 2); /* one group, all 6 seat orders */
    s_round_robin_every_order(5, 3, 1);
}

/* The known order for two entrants keeps the old alternation: 0-1, 1-0, 0-1, ... */
static void test_rr_two_alternates(void **state) {
    (void)state;
    sched_game sg;
    for (size_t g = 0; g < 6; g++) {
        assert_int_equal(sched_game_at(SCHED_ROUND_ROBIN, 2, 2, g, &sg), 0);
        assert_int_equal(sg.entrant[0], g % 2);
        assert_int_equal(sg.entrant[1], 1 - g % 2);
    }
    /* 4 entrants: the first round is (0,1) (1,0) (0,2) (2,0) ... (2,3) (3,2) */
    const unsigned want[12][2] = {{0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 3}, {3, 0},
                                  {1, 2}, {2, 1}, {1, 3}, {3, 1}, {2, 3}, {3, 2}};
    for (size_t g = 0; g < 12; g++) {
        assert_int_equal(sched_game_at(SCHED_ROUND_ROBIN, 4, 2, g, &sg), 0);
        assert_int_equal(sg.entrant[0], want[g][0]);
        assert_int_equal(sg.entrant[1], want[g][1]);
    }
}

/* Fewer entrants than seats: the cyclic seating, every entrant on every seat. */
static void test_rr_fewer_entrants(void **state) {
    (void)state;
    assert_int_equal(sched_round_size(SCHED_ROUND_ROBIN, 1, 2), 1);
    sched_game sg;
    assert_int_equal(sched_game_at(SCHED_ROUND_ROBIN, 1, 2, 0, &sg), 0);
    assert_int_equal(sg.entrant[0], 0);
    assert_int_equal(sg.entrant[1], 0);
    assert_int_equal(sched_round_size(SCHED_ROUND_ROBIN, 2, 3), 2);
}

static void test_gauntlet(void **state) {
    (void)state;
    unsigned n = 5;
    size_t per = sched_round_size(SCHED_GAUNTLET, n, 2);
    assert_int_equal(per, 8);
    unsigned first_at[2] = {0, 0}, vs[5] = {0};
    for (size_t g = 0; g < per * 2; g++) {
        sched_game sg;
        assert_int_equal(sched_game_at(SCHED_GAUNTLET, n, 2, g, &sg), 0);
        assert_true(sg.entrant[0] == 0 || sg.entrant[1] == 0);
        unsigned at = sg.entrant[0] == 0 ? 0 : 1;
        first_at[at]++;
        vs[sg.entrant[1 - at]]++;
    }
    assert_int_equal(first_at[0], 8);
    assert_int_equal(first_at[1], 8);
    assert_int_equal(vs[0], 0);
    for (unsigned j = 1; j < n; j++) assert_int_equal(vs[j], 4);
    assert_int_equal(sched_round_size(SCHED_GAUNTLET, 1, 2), 0);
}

/* Swiss, round 1 of 4 equal entrants: 0-1 and 2-3 in index order, the higher-ranked
 * on seat 0 in round 0. */
static void test_swiss_first_round(void **state) {
    (void)state;
    double pts[4] = {0}, met[16] = {0};
    int bal[4] = {0};
    unsigned byes[4] = {0};
    sched_game out[8];
    int bye;
    assert_int_equal(sched_swiss_round(4, 0, pts, met, bal, byes, out, &bye), 2);
    assert_int_equal(bye, -1);
    assert_int_equal(out[0].entrant[0], 0);
    assert_int_equal(out[0].entrant[1], 1);
    assert_int_equal(out[1].entrant[0], 2);
    assert_int_equal(out[1].entrant[1], 3);
    assert_int_equal(out[0].round, 0);
}

/* Round 2: the winners meet and the losers meet, nobody twice, seats balanced
 * (each winner played one seat in round 1: the one with seat 0 behind gets it). */
static void test_swiss_pairs_by_score_no_rematch(void **state) {
    (void)state;
    /* round 1: 0 beat 1 (0 on seat 0), 3 beat 2 (2 on seat 0) */
    double pts[4] = {1, 0, 0, 1}, met[16] = {0};
    met[0 * 4 + 1] = met[1 * 4 + 0] = 1;
    met[2 * 4 + 3] = met[3 * 4 + 2] = 1;
    int bal[4] = {1, -1, 1, -1};
    unsigned byes[4] = {0};
    sched_game out[8];
    int bye;
    assert_int_equal(sched_swiss_round(4, 1, pts, met, bal, byes, out, &bye), 2);
    /* winners 0 and 3: 3 was on seat 1 (balance -1), so 3 takes seat 0 */
    assert_int_equal(out[0].entrant[0], 3);
    assert_int_equal(out[0].entrant[1], 0);
    assert_int_equal(out[1].entrant[0], 1);
    assert_int_equal(out[1].entrant[1], 2);
    /* all tied but 0-1 and 2-3 already met: the pairs change */
    double even[4] = {0.5, 0.5, 0.5, 0.5};
    int flat[4] = {0};
    assert_int_equal(sched_swiss_round(4, 2, even, met, flat, byes, out, &bye), 2);
    for (int k = 0; k < 2; k++) {
        unsigned a = out[k].entrant[0], b = out[k].entrant[1];
        assert_true(met[a * 4 + b] == 0);
    }
}

/* An odd field: the lowest-ranked entrant without a bye sits out, and only once. */
static void test_swiss_bye(void **state) {
    (void)state;
    double pts[5] = {3, 2, 1, 0, 0}, met[25] = {0};
    int bal[5] = {0};
    unsigned byes[5] = {0, 0, 0, 0, 1}; /* 4 had one already */
    sched_game out[8];
    int bye;
    assert_int_equal(sched_swiss_round(5, 3, pts, met, bal, byes, out, &bye), 2);
    assert_int_equal(bye, 3);
    int seen[5] = {0};
    for (int k = 0; k < 2; k++) {
        seen[out[k].entrant[0]]++;
        seen[out[k].entrant[1]]++;
    }
    assert_int_equal(seen[3], 0);
    for (int i = 0; i < 5; i++)
        if (i != 3) assert_int_equal(seen[i], 1);
    assert_int_equal(sched_swiss_round(1, 0, pts, met, bal, byes, out, &bye), 0);
    assert_int_equal(sched_round_size(SCHED_SWISS, 5, 2), 2);
    assert_int_equal(sched_round_size(SCHED_SWISS, 5, 3), 0);
}

static void test_kind_parse(void **state) {
    (void)state;
    sched_kind k;
    assert_int_equal(sched_kind_parse("round-robin", &k), 0);
    assert_int_equal(k, SCHED_ROUND_ROBIN);
    assert_int_equal(sched_kind_parse("gauntlet", &k), 0);
    assert_int_equal(k, SCHED_GAUNTLET);
    assert_int_equal(sched_kind_parse("swiss", &k), 0);
    assert_int_equal(k, SCHED_SWISS);
    assert_int_equal(sched_kind_parse("knockout", &k), -1);
    assert_int_equal(sched_round_size(SCHED_ROUND_ROBIN, 4, 0), 0);
    assert_int_equal(sched_round_size(SCHED_ROUND_ROBIN, 4, SCHED_MAX_SEATS + 1), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_pairs_both_sides), cmocka_unit_test(test_rr_three_seats_rotate),
        cmocka_unit_test(test_rr_two_alternates),   cmocka_unit_test(test_rr_fewer_entrants),
        cmocka_unit_test(test_gauntlet),            cmocka_unit_test(test_kind_parse),
        cmocka_unit_test(test_swiss_first_round),   cmocka_unit_test(test_swiss_pairs_by_score_no_rematch),
        cmocka_unit_test(test_swiss_bye),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
