/*
 * test_n20_editions.c - where Waterloo 20 (Napoleonic 20 v4.0, the edition Berthier plays) and
 * Danube 20 (the earlier edition of the series rules) differ in substance in [1.0]-[15.0], a test
 * that passes with the Waterloo 20 rule and would fail with the Danube 20 one. Differences already
 * caught by a case test elsewhere are listed in docs/n20-editions.md with that test; this file holds
 * the ones that had none.
 *
 * CRT (scenario data), differential columns -2 .. +4:
 *   die 1: AB AR AR AW N  EX EX      die 4: AR N  DW DW DR DR DR
 *   die 2: AR AR AW N  DW DW DW      die 5: AW DW DW DR DR DR DB
 *   die 3: AR AW N  DW DW DW DR      die 6: N  DW DR DR DR DB DB
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* ---- helpers ---------------------------------------------------------------- */

/* a combat test at the Combat Phase's declarations (t_pos, n20_test.h) */
#define SETUP(turn, phasing) T_SETUP(turn, phasing, N20_PH_DECLARE)

/* ---- the tests ---------------------------------------------------------------- */

/* [9.6.2.1] Waterloo 20: a unit in a Fortified hex subtracts one from the Rout die roll, and a
 * modified result below one is a Withdraws. On a Rout roll of 1 the unit is therefore not Routed:
 * it gets no Routed! marker, and [9.7.2.2] lets it hold its ground. Danube 20 [9.8.1] has no
 * modifier: there the unit routs one hex, is "still technically Routed" and only may hold. */
static void test_n20_9_6_2_1_waterloo_edition_fortified_rout_1_withdraws(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    int o = t_place(s, "ORANGE", 1802); /* Hougoumont, Fortified */
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {5, 1}; /* 7 vs 4+2 = +1, die 5: DR; rout 1 - 1 = 0 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 1);
    assert_true(t_events_has(&ev, "7 vs 6 (terrain +2), differential +1, column +1, die 5: DR"));
    assert_true(t_events_has(&ev, "[9.6.2.1] ORANGE rout roll 1, modified 0: changed to Withdraws"));
    assert_false(t_events_has(&ev, "ORANGE routs"));
    /* a Withdraws: one hex, or none from the Fortified hex [9.7.2.2] */
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE"));
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE 1902"));
    NO(N20_ALLIED, "retreat ORANGE 1902 2002", "9.7.8");
    OK(N20_ALLIED, "retreat ORANGE");
    AT("ORANGE", 1802);
    assert_int_equal(s->u[o].where, N20_U_MAP);
    assert_int_equal(s->u[o].routed, 0); /* Danube 20 would leave a Routed! marker */
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

/* [9.8.2] Waterloo 20: Infantry advances a single hex, into the defeated unit's hex, even when the
 * Retreat Path goes on and no Cavalry took part. Danube 20 [9.9.2] lets "any or all" victorious
 * non-Artillery, non-Routed units advance along the Retreat Path, whatever their type. */
static void test_n20_9_8_2_waterloo_edition_infantry_advances_one_hex_only(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r1 = t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 406);
    int z = t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN");
    uint32_t r[] = {4, 3}; /* 7 vs 3 = +4, die 4: DR; rout 3 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "ZIETEN routs 3 hex(es) (roll 3)"));
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508 0509");
    assert_int_equal(s->u[z].hex, n20_hex(509));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(t_dice_count(&d, "9.8.3 controlled advance"), 0); /* no Cavalry */
    /* the Retreat Path 0506 0507 0508 is vacant, but Infantry stops in the battle hex */
    NO(N20_FRENCH, "advance REILLE 0506 0507", "9.8.2");
    NO(N20_FRENCH, "advance REILLE 0506 0507 0508", "9.8.2");
    assert_false(t_legal_has(s, N20_FRENCH, "advance REILLE 0506 0507"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 0506"));
    OK(N20_FRENCH, "advance REILLE 0506");
    assert_int_equal(s->u[r1].hex, n20_hex(506));
    AT("DERLON", 406);
    free(s);
}

/* [13.0] Waterloo 20: the Lull needs "IF you have units on the map" - the resting side's own units.
 * Danube 20 [13.0] asks that "both players have units on the map". Here the Allied side has a unit,
 * but Broken (off the map), and none on the map: the French side still rests. */
static void test_n20_13_0_waterloo_edition_lull_without_enemy_units_on_map(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_FRENCH);
    t_place(s, "GERARD", 107);
    s->u[U("ZIETEN")].where = N20_U_BROKEN;
    s->night_seen = 1;
    s->morale[N20_FRENCH] = 7;
    s->morale[N20_ALLIED] = 7;
    t_top_card(s, 5); /* the Allied draw that follows: no Allied effect */
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_side_of(s, i) == N20_ALLIED) assert_int_not_equal(s->u[i].where, N20_U_MAP);
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "[13.0] Lull: the french side rests"));
    assert_true(t_events_has(&ev, "[13.0 lull] french morale 7 -> 8"));
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_9_6_2_1_waterloo_edition_fortified_rout_1_withdraws),
        cmocka_unit_test(test_n20_9_8_2_waterloo_edition_infantry_advances_one_hex_only),
        cmocka_unit_test(test_n20_13_0_waterloo_edition_lull_without_enemy_units_on_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
