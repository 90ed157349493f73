/*
 * test_n20_sequence.c - rule cases of the sequence of play [4.0], events
 * [5.0], reinforcements [11.0], morale [12.0], lulls [13.0], night [14.0],
 * rally [10.0] and victory [15.0].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* [12.3.1] committing the Guard costs a Morale Point, unless either side is at 1 */
static void test_n20_12_3_1_commit_guard(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 508);
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_true(t_events_has(&ev, "Guard committed"));
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 508);
    s->morale[N20_ALLIED] = 1;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    free(s);
}

/* [12.2.1] Forced March: one Morale Point, +1 Movement Allowance; the Allies pay per army */
static void test_n20_12_2_1_forced_march(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 107);
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0207 0307 0407", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "12.2");
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch anglo", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "12.2.1");
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_ALLIED);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch prussian", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    free(s);
}

/* [11.2] March Order: each unit entering at the same hex pays one more MP than the one before */
static void test_n20_11_2_march_order(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int ux = n20_unit_find(s, "UXBRIDGE"), hi = n20_unit_find(s, "HILL");
    s->u[ux].where = N20_U_REINF;
    s->u[ux].arrive = 9;
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701 1702", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1701 1702 1703", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1801 1802", &d, NULL, &err), 0);
    free(s);
}

/* [11.4] [11.6] reinforcements enter only at their area; never into an enemy unit */
static void test_n20_11_6_entry_area(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int bu = n20_unit_find(s, "BULOW");
    s->u[bu].where = N20_U_REINF;
    s->u[bu].arrive = 10;
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 1701", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.6");
    t_place(s, "GERARD", 2412);
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2412", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.3");
    free(s);
}

/* [11.6] Frederick's III Corps: variable arrival at 2001 */
static void test_n20_11_6_frederick(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 13, N20_ALLIED);
    int fr = n20_unit_find(s, "FREDERICK");
    s->u[fr].where = N20_U_VARIABLE;
    s->u[fr].arrive = 13;
    s->phase = N20_PH_MOVE_START;
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->u[fr].arrive, 14);
    assert_true(t_events_has(&ev, "delayed to Turn 14"));
    s->turn = 14;
    s->phase = N20_PH_MOVE_START;
    uint32_t r2[] = {5};
    t_dice_script(&d, 1, r2);
    n20_run(s, &d.d, &out);
    assert_int_equal(s->u[fr].where, N20_U_REINF);
    assert_int_equal(t_order(s, N20_ALLIED, "move FREDERICK 1901", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_int_equal(t_order(s, N20_ALLIED, "move FREDERICK 2001", &d, &ev, &err), 0);
    free(s);
}

/* [13.0] Lull: +1 Morale after a quiet Day turn once a Night has passed */
static void test_n20_13_0_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_FRENCH);
    t_place(s, "GERARD", 107);
    t_place(s, "ZIETEN", 2512);
    s->night_seen = 1;
    s->morale[N20_FRENCH] = 5;
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
    /* not before the first Night turn */
    t_dice_init(&d, 1);
    t_events ev2 = {0};
    s = t_empty(&d, 10, N20_FRENCH);
    t_place(s, "GERARD", 107);
    s->morale[N20_FRENCH] = 5;
    s->phase = N20_PH_COMBAT_END;
    n20_out out2 = {t_events_emit, &ev2};
    n20_run(s, &d.d, &out2);
    assert_false(t_events_has(&ev2, "Lull"));
    free(s);
}

/* [14.0] Night Operations: rally [10.0], captured objective, Allied rest +2, reshuffle */
static void test_n20_14_0_night_operations(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_ALLIED);
    t_place(s, "ORANGE", 1104); /* Quatre Bras: a French Objective hex */
    int ro = n20_unit_find(s, "ROEDER");
    s->u[ro].where = N20_U_BROKEN;
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 5;
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_RALLY);
    assert_int_equal(t_order(s, N20_ALLIED, "rally anglo", &d, &ev, &err), -1); /* no broken Anglo-Dutch unit */
    assert_string_equal(err.rule, "12.2.2");
    uint32_t r[] = {4}; /* 4 + 1 (Morale spent) = 5: Rallied */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally prussian", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_PLACE);
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 2502", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "10.0");
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 0812", &d, &ev, &err), 0);
    assert_int_equal(s->u[ro].where, N20_U_MAP);
    assert_int_equal(s->morale[N20_FRENCH], 5);      /* captured objective */
    assert_int_equal(s->morale[N20_ALLIED], 5 - 1 + 2); /* rally spend, rest +2 */
    assert_true(t_events_has(&ev, "reshuffled"));
    assert_int_equal(s->turn, 13);
    free(s);
}

/* [4.0] Sudden Death: the game ends on a roll at or under the printed number */
static void test_n20_4_0_sudden_death(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 19, N20_ALLIED);
    s->morale[N20_FRENCH] = 3;
    s->morale[N20_ALLIED] = 5;
    s->phase = N20_PH_TURN_END;
    uint32_t r[] = {1};
    t_dice_script(&d, 1, r);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(s->over);
    brt_result res;
    n20_result(s, &res);
    assert_int_equal(res.winners, 1u << N20_ALLIED);
    assert_string_equal(res.level, "marginal");
    assert_string_equal(d.purposes[d.npurposes - 1], "4.0 sudden death");
    free(s);
}

/* [15.0] at the end of the last turn equal morale is a draw */
static void test_n20_15_0_last_turn_draw(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 21, N20_ALLIED);
    s->morale[N20_FRENCH] = 4;
    s->morale[N20_ALLIED] = 4;
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_true(s->over);
    brt_result res;
    n20_result(s, &res);
    assert_int_equal(res.winners, 0);
    assert_string_equal(res.level, "draw");
    free(s);
}

/* [4.0] the decision belongs to one seat: the other is refused */
static void test_n20_4_0_not_your_decision(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_standard(&d);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "move");
    assert_int_equal(p.seats, 1u << N20_FRENCH);
    free(s);
}


/* [3.0] [4.0] [9.2] the opening of the Standard Scenario: the French corps at Ligny begin in
 * the Prussians' ZOC, cannot move [6.8], and must attack [9.1] */
static void test_n20_4_0_standard_opening(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_standard(&d);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0607", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "6.8");
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "declare-battles");
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.1");
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN ; GERARD -> PIRCH", &d, &ev, &err), 0);
    uint32_t r[] = {4};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    n20_pending(s, &p);
    assert_string_equal(p.kind, "commit-reserve");
    assert_int_equal(p.seats, 1u << N20_ALLIED);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    /* 3 against 3 + 1 (Ligny is a Town; the brook gives +1 too, not cumulative [9.4.1]) */
    assert_true(t_events_has(&ev, "battle 1: 3 vs 4 (terrain +1), differential -1, column -1, die 4: N"));
    free(s);
}


/* [12.1.2] both sides at zero together: a draw; [12.1] gains are added before losses */
static void test_n20_12_1_2_simultaneous_zero(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->morale[0] = 1;
    s->morale[1] = 1;
    int8_t g[2] = {0, 0}, l[2] = {1, 1};
    n20_morale_change(s, g, l, NULL, "test");
    assert_true(s->over);
    brt_result r;
    n20_result(s, &r);
    assert_int_equal(r.winners, 0);
    assert_string_equal(r.level, "draw");
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    s->morale[0] = 10;
    int8_t g2[2] = {1, 0}, l2[2] = {1, 0};
    n20_morale_change(s, g2, l2, NULL, "test");
    assert_int_equal(s->morale[0], 9); /* 10 + 1 capped at 10, then - 1 */
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_12_3_1_commit_guard),
        cmocka_unit_test(test_n20_12_2_1_forced_march),
        cmocka_unit_test(test_n20_11_2_march_order),
        cmocka_unit_test(test_n20_11_6_entry_area),
        cmocka_unit_test(test_n20_11_6_frederick),
        cmocka_unit_test(test_n20_13_0_lull),
        cmocka_unit_test(test_n20_14_0_night_operations),
        cmocka_unit_test(test_n20_4_0_sudden_death),
        cmocka_unit_test(test_n20_15_0_last_turn_draw),
        cmocka_unit_test(test_n20_4_0_not_your_decision),
        cmocka_unit_test(test_n20_4_0_standard_opening),
        cmocka_unit_test(test_n20_12_1_2_simultaneous_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
