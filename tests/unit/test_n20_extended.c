/*
 * test_n20_extended.c - the Extended Campaign [17.1] and Opening Battles [17.2] scenarios with
 * Leaders [16.9]: the Leaders' arrivals, the French player's choice of entering GROUCHY and
 * NAPOLEON (2-5) combined as NAPOLEON (3-5), and Berthier is Back! [17.1.2] in every scenario.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

extern const brt_ruleset brt_ruleset_n20;

/* setup through the ruleset table with option names; NULL + err on refusal */
static void *s_setup_names(const char *scenario, const char **names, size_t n, t_dice *d, brt_reject *err) {
    brt_ruleset_options o = {names, n, 2};
    memset(err, 0, sizeof *err);
    return brt_ruleset_n20.setup(scenario, &o, &d->d, err);
}

static int s_where(const n20_state *s, const char *id) { return s->u[t_unit(s, id)].where; }

/* the French Movement Phase of `turn` straight after the set-up */
static void s_french_move(n20_state *s, int turn) {
    s->turn = (uint8_t)turn;
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_MOVE;
}

/* ---- [17.1] the Leaders' arrivals ------------------------------------------------ */

/* [17.1] with Leaders: Turn 2 GROUCHY (1/0-5) + NAPOLEON (2-5) at Area A, Turn 6 NEY (0-5), Turn 5
 * WELLINGTON (3-5) at Area X, Turn 4 BLUCHER (2-5) at Area Z; NAPOLEON (3-5) stays out (it enters
 * only by the combined choice) */
static void test_n20_17_1_leaders_arrive_as_reinforcements(void **st) {
    (void)st;
    const char *scen[] = {"waterloo20-extended", "waterloo20-opening"};
    for (int k = 0; k < 2; k++) {
        t_dice d;
        t_dice_init(&d, 3);
        n20_state *s = t_setup(scen[k], N20_OPT_LEADERS | N20_OPT_BREAKDOWN, &d, NULL);
        t_reinf(s, "NAPOLEON2", 2, 'A');
        t_reinf(s, "GROUCHY", 2, 'A');
        t_reinf(s, "NEY", 6, 'A');
        t_reinf(s, "WELLINGTON", 5, 'X');
        t_reinf(s, "BLUCHER", 4, 'Z');
        assert_int_equal(s_where(s, "NAPOLEON"), N20_U_OUT);
        for (int i = 0; i < s->sc->nunits; i++) /* no Leader on the map at the start */
            if (n20_is_leader(s, i)) assert_int_not_equal(s->u[i].where, N20_U_MAP);
        free(s);
    }
}

/* [16.9] without the option no Leader ever arrives: every Leader stays out of play */
static void test_n20_17_1_leaders_never_without_the_option(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_BREAKDOWN, &d, NULL);
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_is_leader(s, i)) assert_int_equal(s->u[i].where, N20_U_OUT);
    s_french_move(s, 2);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move NAPOLEON2 0105", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.9");
    assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    free(s);
}

/* [17.1] the ruleset takes `leaders` in the Extended and Opening scenarios (no longer refused) */
static void test_n20_17_1_leaders_option_accepted(void **st) {
    (void)st;
    const char *scen[] = {"waterloo20-extended", "waterloo20-opening"};
    const char *o[] = {"leaders"};
    for (int k = 0; k < 2; k++) {
        t_dice d;
        t_dice_init(&d, 5);
        brt_reject err;
        n20_state *s = s_setup_names(scen[k], o, 1, &d, &err);
        assert_non_null(s);
        assert_true(s->opts & N20_OPT_LEADERS);
        assert_int_equal(s->u[t_unit(s, "GROUCHY")].where, N20_U_REINF);
        brt_ruleset_n20.destroy(s);
    }
}

/* [17.1] each Leader enters at its area on its turn like a reinforcement, and not before */
static void test_n20_17_1_leader_enters_at_its_area(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    t_events ev = {0};
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_BREAKDOWN, &d, NULL);
    s_french_move(s, 1);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move GROUCHY 0107", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "11.0");
    s_french_move(s, 2);
    assert_true(t_legal_has(s, N20_FRENCH, "move GROUCHY 0107"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GROUCHY 0107", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "GROUCHY"), N20_U_MAP);
    assert_int_equal(s->u[t_unit(s, "GROUCHY")].hex, n20_hex(107));
    /* NEY only from Turn 6 */
    assert_int_equal(t_order(s, N20_FRENCH, "move NEY 0106", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "11.0");
    /* the Allied Leaders at their own areas: BLUCHER at Z on Turn 4 */
    s->turn = 4;
    s->phasing = N20_ALLIED;
    assert_int_equal(t_order(s, N20_ALLIED, "move BLUCHER 0105", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_int_equal(t_order(s, N20_ALLIED, "move BLUCHER 0812", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "BLUCHER"), N20_U_MAP);
    free(s);
}

/* [17.1] "French player's discretion to alternately have these Leaders enter play combined as the
 * 3-5 version of NAPOLEON": `wing GROUCHY` in the French Movement Phase of Turn 2 replaces GROUCHY
 * and NAPOLEON (2-5) with NAPOLEON (3-5) arriving this turn at Area A (rulings R-17.1-combined) */
static void test_n20_17_1_enter_combined_as_napoleon_3_5(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    t_events ev = {0};
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_BREAKDOWN, &d, NULL);
    s_french_move(s, 1);
    assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY")); /* not before they arrive */
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "wing GROUCHY", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "17.1");
    s_french_move(s, 2);
    assert_true(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    assert_false(t_legal_has(s, N20_FRENCH, "wing NEY")); /* NEY arrives on Turn 6 */
    assert_int_equal(t_order(s, N20_FRENCH, "wing NEY", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_int_equal(t_order(s, N20_FRENCH, "wing GROUCHY", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "[17.1] GROUCHY and NAPOLEON2 enter play combined as NAPOLEON (3-5) at Area A"));
    assert_int_equal(s->phase, N20_PH_MOVE); /* the Movement Phase goes on */
    t_reinf(s, "NAPOLEON", 2, 'A');
    assert_int_equal(s_where(s, "GROUCHY"), N20_U_OUT);
    assert_int_equal(s_where(s, "NAPOLEON2"), N20_U_OUT);
    assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY")); /* once */
    assert_true(t_legal_has(s, N20_FRENCH, "move NAPOLEON 0107"));
    assert_int_equal(t_order(s, N20_FRENCH, "move NAPOLEON 0107", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "NAPOLEON"), N20_U_MAP);
    free(s);
}

/* [17.1] the choice is gone once one of the two has entered separately */
static void test_n20_17_1_combined_only_before_either_enters(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_BREAKDOWN, &d, NULL);
    s_french_move(s, 2);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move NAPOLEON2 0107", &d, NULL, &err), 0);
    assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    assert_int_equal(t_order(s, N20_FRENCH, "wing GROUCHY", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    free(s);
}

/* ---- [17.1.2] Berthier is Back! with Leaders ------------------------------------- */

/* [17.1.2] "The 3-rated version of the NAPOLEON Leader unit is always used": in the Extended game
 * NAPOLEON (3-5) arrives on Turn 2 in place of the (2-5), GROUCHY on his own; no combined choice */
static void test_n20_17_1_2_berthier_extended_napoleon_3_5(void **st) {
    (void)st;
    const char *scen[] = {"waterloo20-extended", "waterloo20-opening"};
    for (int k = 0; k < 2; k++) {
        t_dice d;
        t_dice_init(&d, 3);
        n20_state *s = t_setup(scen[k], N20_OPT_LEADERS | N20_OPT_BREAKDOWN | N20_OPT_BERTHIER_BACK, &d, NULL);
        t_reinf(s, "NAPOLEON", 2, 'A');
        t_reinf(s, "GROUCHY", 2, 'A');
        t_reinf(s, "NEY", 6, 'A');
        assert_int_equal(s_where(s, "NAPOLEON2"), N20_U_OUT);
        s_french_move(s, 2);
        assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
        brt_reject err;
        assert_int_equal(t_order(s, N20_FRENCH, "wing GROUCHY", &d, NULL, &err), -1);
        assert_string_equal(err.rule, "17.1.2");
        assert_int_equal(t_order(s, N20_FRENCH, "move NAPOLEON 0107", &d, NULL, &err), 0);
        assert_int_equal(t_order(s, N20_FRENCH, "move GROUCHY 0107", &d, NULL, &err), 0);
        free(s);
    }
}

/* [17.1.2] "ignore the provisions of French Wing Commanders": in the Standard and Closing games the
 * set-up's NAPOLEON (3-5) stays, and no Wing Commanders decision ever comes at the end of the French
 * Player Turn, even with NEY (or GROUCHY) stacked with NAPOLEON */
static void test_n20_17_1_2_berthier_no_wing_commanders(void **st) {
    (void)st;
    const char *scen[] = {"waterloo20-standard", "waterloo20-closing"};
    for (int k = 0; k < 2; k++) {
        t_dice d;
        t_dice_init(&d, 3);
        n20_state *with = t_setup(scen[k], N20_OPT_LEADERS | N20_OPT_BERTHIER_BACK, &d, NULL);
        n20_state *without = t_setup(scen[k], N20_OPT_LEADERS, &d, NULL);
        int nap = t_unit(with, "NAPOLEON");
        assert_int_equal(with->u[nap].where, N20_U_MAP);
        assert_int_equal(with->sc->units[nap].strength, 3);
        assert_int_equal(s_where(with, "NAPOLEON2"), N20_U_OUT);
        /* the Wing decision the rules give without the variant, refused with it */
        for (n20_state *s = without; s; s = s == without ? with : NULL) {
            int wing = -1;
            for (int i = 0; i < s->sc->nunits; i++)
                if ((s->sc->units[i].flags & N20_FLAG_WING) && s->u[i].where != N20_U_REINF) {
                    wing = i;
                    if (s->u[i].where == N20_U_MAP) break;
                }
            assert_true(wing >= 0);
            if (s->u[wing].where == N20_U_MAP) s->u[wing].hex = s->u[nap].hex; /* stacked: may merge */
            s->phasing = N20_FRENCH;
            s->phase = N20_PH_WING;
            char order[48];
            snprintf(order, sizeof order, "wing %s", n20_uid(s, wing));
            brt_reject err;
            if (s == without) {
                assert_int_equal(n20_wing_any(s), 1);
                assert_true(t_legal_has(s, N20_FRENCH, order));
            } else {
                assert_int_equal(n20_wing_any(s), 0);
                assert_false(t_legal_has(s, N20_FRENCH, order));
                assert_int_equal(t_order(s, N20_FRENCH, order, &d, NULL, &err), -1);
                assert_string_equal(err.rule, "17.1.2");
            }
        }
        free(with);
        free(without);
    }
}

/* [17.1.2] without Leaders the variant changes nothing of the set-up */
static void test_n20_17_1_2_berthier_without_leaders(void **st) {
    (void)st;
    t_dice d1, d2;
    t_dice_init(&d1, 4);
    t_dice_init(&d2, 4);
    n20_state *a = t_setup("waterloo20-extended", N20_OPT_BREAKDOWN | N20_OPT_BERTHIER_BACK, &d1, NULL);
    n20_state *b = t_setup("waterloo20-extended", N20_OPT_BREAKDOWN, &d2, NULL);
    assert_memory_equal(a->u, b->u, sizeof a->u);
    free(a);
    free(b);
}

/* ---- random play ------------------------------------------------------------------- */

static void s_random(const char *scenario, uint32_t opts, int games) {
    const char *lg = getenv("BERTHIER_LONG");
    if (lg && *lg == '1') games *= 20;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        t_play_random(scenario, opts, (uint64_t)g + 31, g == 0 ? 150 : 0, h1, NULL);
        t_play_random(scenario, opts, (uint64_t)g + 31, 0, h2, NULL);
        assert_memory_equal(h1, h2, 32);
    }
}

/* [17.1] [16.9] random games with Leaders arriving, to a result, replayed to the same state */
static void test_n20_17_1_random_extended_leaders(void **st) {
    (void)st;
    s_random("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_BREAKDOWN, 4);
}
static void test_n20_17_2_random_opening_leaders(void **st) {
    (void)st;
    s_random("waterloo20-opening", N20_OPT_LEADERS | N20_OPT_BREAKDOWN, 4);
}
static void test_n20_17_1_2_random_berthier_leaders(void **st) {
    (void)st;
    s_random("waterloo20-extended", N20_OPT_LEADERS | N20_OPT_BREAKDOWN | N20_OPT_BERTHIER_BACK, 2);
    s_random("waterloo20-standard", N20_OPT_LEADERS | N20_OPT_BERTHIER_BACK, 2);
    s_random("waterloo20-closing", N20_OPT_LEADERS | N20_OPT_BERTHIER_BACK, 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_17_1_leaders_arrive_as_reinforcements),
        cmocka_unit_test(test_n20_17_1_leaders_never_without_the_option),
        cmocka_unit_test(test_n20_17_1_leaders_option_accepted),
        cmocka_unit_test(test_n20_17_1_leader_enters_at_its_area),
        cmocka_unit_test(test_n20_17_1_enter_combined_as_napoleon_3_5),
        cmocka_unit_test(test_n20_17_1_combined_only_before_either_enters),
        cmocka_unit_test(test_n20_17_1_2_berthier_extended_napoleon_3_5),
        cmocka_unit_test(test_n20_17_1_2_berthier_no_wing_commanders),
        cmocka_unit_test(test_n20_17_1_2_berthier_without_leaders),
        cmocka_unit_test(test_n20_17_1_random_extended_leaders),
        cmocka_unit_test(test_n20_17_2_random_opening_leaders),
        cmocka_unit_test(test_n20_17_1_2_random_berthier_leaders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
