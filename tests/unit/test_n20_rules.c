/*
 * test_n20_rules.c - rule cases of the n20 ruleset on small positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* [3.0] the Standard Scenario set-up */
static void test_n20_3_0_standard_setup(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 7);
    n20_state *s = t_standard(&d);
    assert_non_null(s);
    assert_int_equal(s->turn, 9);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_int_equal(s->u[n20_unit_find(s, "GARDE")].hex, n20_hex(507));
    assert_int_equal(s->u[n20_unit_find(s, "ROEDER")].where, N20_U_BROKEN);
    assert_int_equal(s->u[n20_unit_find(s, "UXBRIDGE")].where, N20_U_REINF);
    assert_int_equal(s->gg_unit, n20_unit_find(s, "ZIETEN"));
    /* [5.0] the first French events phase is skipped: 11 cards in the draw pile, #12 discarded */
    assert_int_equal(s->ndraw, 11);
    assert_int_equal(s->ndiscard, 1);
    assert_int_equal(s->phase, N20_PH_MOVE);
    free(s);
}

/* [6.3] a unit cannot enter an enemy-occupied hex */
static void test_n20_6_3_enemy_hex(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 606);
    t_place(s, "ZIETEN", 805);
    brt_reject err;
    t_place(s, "ZIETEN", 706);
    s->turn = 12; /* at night GARDE may leave the EZOC, so only [6.3] stops it */
    uint64_t before = d.d.rolls_made;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0706", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.3");
    assert_non_null(strstr(err.message, "[6.3] GARDE cannot enter 0706: an enemy unit is there"));
    assert_int_equal(d.d.rolls_made, before); /* a rejection rolls nothing */
    free(s);
}

/* [6.2] speed limit, [6.6] road bonus only for an all-road move, always one hex */
static void test_n20_6_2_speed_limit_and_road(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "DERLON", 105); /* on the Charleroi road */
    brt_reject err;
    /* 0105 0205 0304 0404: three road hexes with MA 2 + 1 road bonus */
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0105 0205 0304 0404", &d, NULL, &err), 0);
    t_place(s, "GERARD", 107);
    s->u[n20_unit_find(s, "GERARD")].flags = 0;
    /* three clear hexes off road: too far */
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0207 0307 0407", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    free(s);
}

/* [6.5] rugged terrain stops the unit */
static void test_n20_6_5_rugged_stop(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "KELLERMANN", 903);
    brt_reject err;
    /* 1003 is the Bois de Bossu (forest), not entered by road */
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 1003 1103", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.5");
    free(s);
}

/* [6.8] a unit that starts in an EZOC cannot move by day; [7.7] at night it can leave */
static void test_n20_6_8_stuck_and_7_7_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0607", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    s->turn = 12; /* a Night turn */
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0607", &d, NULL, &err), 0);
    free(s);
}

/* [9.1] a unit in an EZOC must attack; [9.1.1] the enemy must be attacked */
static void test_n20_9_1_mandatory_attack(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "GERARD", 709);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 809);
    s->phase = N20_PH_DECLARE;
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.1");
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME,GERARD -> ZIETEN", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2.2"); /* GERARD 0709 is not adjacent to ZIETEN 0808 */
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN ; GERARD -> PIRCH", &d, NULL, &err), 0);
    assert_int_equal(s->phase, N20_PH_BATTLES);
    free(s);
}

/* [9.6] the Danube 20 worked example: +2 differential, die 6 = DR; rout 2; [9.7.4] hazard 5 passes */
static void test_n20_9_6_worked_example_dr(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 1304);   /* 4 */
    t_place(s, "KELLERMANN", 1403); /* 2 cav */
    t_place(s, "ZIETEN", 1404);   /* 3 in Genappe (town +1) */
    s->gg_unit = 0xff;
    s->morale[N20_ALLIED] = 5;
    s->phase = N20_PH_DECLARE;
    t_events ev = {0};
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,KELLERMANN -> ZIETEN", &d, &ev, &err), 0);
    /* 6 vs 3+1 town (+1 minor river? 1304-1404 crosses the upper Dyle at the Genappe bridge: +1, not cumulative) */
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_DEF_RESERVE);
    uint32_t rolls[] = {6, 2};
    t_dice_script(&d, 2, rolls);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "differential +2"));
    assert_true(t_events_has(&ev, "DR"));
    assert_true(t_events_has(&ev, "ZIETEN routs 2 hex(es)"));
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_string_equal(d.purposes[d.npurposes - 2], "9.6 combat");
    assert_string_equal(d.purposes[d.npurposes - 1], "9.6 rout distance");
    free(s);
}

/* [9.7.3] the referee rejects a retreat path that breaks the priorities */
static void test_n20_9_7_3_retreat_priority(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 1304);
    t_place(s, "ZIETEN", 1404);
    t_place(s, "DERLON", 1504); /* its ZOC covers some retreat hexes */
    s->gg_unit = 0xff;
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 0 + 5;
    brt_reject err;
    t_events ev = {0};
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN ; DERLON -> ZIETEN", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.1.2");
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ZIETEN", &d, &ev, &err), 0);
    /* 7 vs 3 + 1 (Genappe town; the minor river hexside is not cumulative) = +3, die 4: DR; rout 1 */
    uint32_t rolls[] = {4, 1};
    t_dice_script(&d, 2, rolls);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "7 vs 4 (terrain +1), differential +3, column +3, die 4: DR"));
    assert_int_equal(s->phase, N20_PH_RETREAT);
    /* REILLE (1304) and DERLON (1504) put 1405, 1303 and 1503 in an EZOC; 1403 is vacant and
       free of them, so it must be used [9.7.3] even though it is no nearer a LOC hex */
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1405", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.3");
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1504", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.2.1");
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1403", &d, &ev, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "ZIETEN")].hex, n20_hex(1403));
    assert_string_equal(d.purposes[d.npurposes - 1], "9.6 rout distance"); /* no hazard roll */
    free(s);
}

/* [12.1.2] zero morale ends the game at once; [15.0] decisive victory */
static void test_n20_15_0_morale_zero(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    n20_morale_one(s, N20_ALLIED, -s->morale[N20_ALLIED], NULL, "test");
    assert_true(s->over);
    brt_result r;
    n20_result(s, &r);
    assert_int_equal(r.winners, 1u << N20_FRENCH);
    assert_string_equal(r.level, "decisive");
    free(s);
}

/* [12.1.1] morale never exceeds ten */
static void test_n20_12_1_1_cap(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    n20_morale_one(s, N20_FRENCH, 5, NULL, "test");
    assert_int_equal(s->morale[N20_FRENCH], 10);
    free(s);
}

/* text orders round-trip */
static void test_n20_orders_text_roundtrip(void **st) {
    (void)st;
    const char *lines[] = {"move GARDE 0607 0608", "end", "declare VANDAMME -> ZIETEN ; GERARD,MILHAUD -> PIRCH",
                           "resolve 2 reserve cap 1", "retreat ZIETEN 0909 1009", "rally anglo prussian",
                           "goodground ZIETEN immune", "countercharge VONHOBE -> GERARD",
                           "countercharge VONHOBE,ROEDER -> GERARD reserve", "place ROEDER 0812"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        brt_buf b, t;
        buf_init(&b);
        buf_init(&t);
        brt_reject err;
        assert_int_equal(n20_order_parse(NULL, lines[i], &b, &err), 0);
        assert_int_equal(n20_order_format(b.data, b.len, &t), 0);
        buf_append(&t, "", 1);
        assert_string_equal((char *)t.data, lines[i]);
        buf_free(&b);
        buf_free(&t);
    }
}


/* scenario data: every record carries its provenance; a record without one is refused */
static void test_n20_data_provenance(void **st) {
    (void)st;
    size_t len;
    const char *t = n20_data_text("waterloo20-standard", &len);
    assert_non_null(t);
    n20_scenario *sc = malloc(sizeof *sc);
    char msg[128];
    assert_int_equal(n20_data_parse(t, len, sc, msg, sizeof msg), 0);
    int records = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && t[e] != '\n') e++;
        size_t k = i;
        while (k < e && (t[k] == ' ' || t[k] == '\t')) k++;
        if (k < e && t[k] != '#') records++;
        i = e + 1;
    }
    assert_int_equal(sc->n_rulebook + sc->n_reconstructed, records);
    assert_true(sc->n_rulebook > 50);
    assert_int_equal(sc->rows, 25);
    assert_int_equal(sc->cols, 12);
    assert_int_equal(sc->crt[5][2 - sc->crt_lo], N20_R_DR); /* Danube 20 example: +2, die 6 = DR */
    const char *bad = "grid 25 12 | RECONSTRUCTED x\nhex 0101 town\n";
    assert_int_equal(n20_data_parse(bad, strlen(bad), sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_data_provenance),
        cmocka_unit_test(test_n20_3_0_standard_setup),
        cmocka_unit_test(test_n20_6_3_enemy_hex),
        cmocka_unit_test(test_n20_6_2_speed_limit_and_road),
        cmocka_unit_test(test_n20_6_5_rugged_stop),
        cmocka_unit_test(test_n20_6_8_stuck_and_7_7_night),
        cmocka_unit_test(test_n20_9_1_mandatory_attack),
        cmocka_unit_test(test_n20_9_6_worked_example_dr),
        cmocka_unit_test(test_n20_9_7_3_retreat_priority),
        cmocka_unit_test(test_n20_15_0_morale_zero),
        cmocka_unit_test(test_n20_12_1_1_cap),
        cmocka_unit_test(test_n20_orders_text_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
