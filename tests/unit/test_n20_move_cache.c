/*
 * test_n20_move_cache.c - the Movement Phase candidates legal() keeps from one move decision to
 * the next (legal.c s_legal_moves) give the same list as a search from nothing: random games
 * played through n20_legal()/n20_apply(); at every decision the list is made once as the game
 * goes (the cache kept from the decision before), then again after a legal() of another state has
 * emptied the cache, and the two must be the same bytes. A count checks that Movement decisions
 * with units moved before them were compared (those that use the kept entries).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

static void s_sink(void *ctx, const uint8_t *data, size_t len) {
    (void)ctx;
    (void)data;
    (void)len;
}

/* one random game; returns the Movement decisions compared after a unit of the side had moved */
static long s_play(const char *scenario, uint32_t opts, uint64_t seed) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {s_sink, NULL};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf a, b;
    buf_init(&a);
    buf_init(&b);
    long kept = 0;
    for (int step = 0; !s->over && step < 30000; step++) {
        int who = n20_pending_seat(s);
        assert_true(who == 0 || who == 1);
        buf_reset(&a);
        int n = n20_legal(s, (unsigned)who, &a);
        assert_true(n > 0);
        /* another state's list (the same with a field moves do not read changed) empties the
         * cache: the list of s is then made from nothing */
        n20_state other = *s;
        other.battle_dice ^= 1;
        buf_reset(&b);
        (void)n20_legal(&other, (unsigned)who, &b);
        buf_reset(&b);
        int m = n20_legal(s, (unsigned)who, &b);
        assert_int_equal(n, m);
        assert_int_equal(a.len, b.len);
        if (memcmp(a.data, b.data, a.len) != 0)
            fail_msg("%s seed %llu step %d phase %d: the kept Movement list differs", scenario,
                     (unsigned long long)seed, step, s->phase);
        if (s->phase == N20_PH_MOVE)
            for (int u = 0; u < s->sc->nunits; u++)
                if (n20_side_of(s, u) == s->phasing && (s->u[u].flags & N20_UF_MOVED)) {
                    kept++;
                    break;
                }
        /* the list made second is the one played, so that the next one uses the kept entries
         * of this state (made from nothing above) */
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        size_t len = 0;
        const uint8_t *item = t_nth(&b, pick, &len);
        assert_non_null(item);
        brt_reject err;
        if (n20_apply(s, (unsigned)who, item, len, &d.d, &out, &err) != 0)
            fail_msg("%s seed %llu: listed order rejected: %s", scenario, (unsigned long long)seed, err.message);
    }
    assert_true(s->over);
    buf_free(&a);
    buf_free(&b);
    free(s);
    return kept;
}

static void s_games(const char *scenario, uint32_t opts, int games) {
    long kept = 0;
    for (int g = 1; g <= games; g++) kept += s_play(scenario, opts, (uint64_t)g);
    assert_true(kept > 20 * games); /* Movement decisions after moves were compared */
}

static void test_n20_move_cache_standard(void **st) {
    (void)st;
    s_games("waterloo20-standard", 0, 6);
}

/* fog-of-war, Leaders, Fatigue, breakdown and the special units change what a move reads */
static void test_n20_move_cache_options(void **st) {
    (void)st;
    s_games("waterloo20-standard",
            N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_FATIGUE | N20_OPT_BREAKDOWN | N20_OPT_SPECIAL_UNITS, 4);
    s_games("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_CAV_PENETRATION | N20_OPT_UNIT_REDUCTION, 3);
}

/* Danube 20 Marchfeld: its Garrisons turn the cache off (every list searched from nothing), and
 * the lists are the same all the same */
static void test_n20_move_cache_marchfeld(void **st) {
    (void)st;
    s_games("marchfeld", N20_OPT_FOG, 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_move_cache_standard),
        cmocka_unit_test(test_n20_move_cache_options),
        cmocka_unit_test(test_n20_move_cache_marchfeld),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
