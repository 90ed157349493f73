/*
 * test_n20_cases.c - more rule cases: movement [6.4] [6.9] [7.7] [14.0],
 * declarations [9.2.1], recovery [9.6.2.2], retreat hazards and limits
 * [9.7.5] [9.7.8], morale [12.1] [12.3.2], contact [8.2.4], events [5.0].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* [6.9] no ending a move stacked; [6.4] a unit moves once */
static void test_n20_6_9_no_stacking_6_4_no_take_backs(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.9");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506 0507", &d, NULL, &err), 0); /* through */
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0508", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.4");
    free(s);
}

/* [7.7] at night hexes in an EZOC are prohibited; [14.0] allowance 1 (+1 road) */
static void test_n20_7_7_night_ezoc_and_14_0_speed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 508);
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0506 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "7.7");
    t_place(s, "GERARD", 107);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0207 0307", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    t_place(s, "DERLON", 105);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304", &d, NULL, &err), 0); /* road */
    free(s);
}

/* [9.2.1] a lone unit adjacent to two enemy units must fight them both */
static void test_n20_9_2_1_lone_unit_fights_both(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 807);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.1.1");
    assert_non_null(strstr(err.message, "PIRCH"));
    assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN,PIRCH", &d, NULL, &err), 0);
    free(s);
}

/* [9.6.2.2] Routed! markers of the phasing side's colour go at the end of its Combat Phase */
static void test_n20_9_6_2_2_recovery(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int z = t_place(s, "ZIETEN", 2512);
    int p = t_place(s, "PIRCH", 2505);
    t_place(s, "GERARD", 107);
    s->u[z].routed = 1 + N20_FRENCH;  /* placed during the Allied turn: French colour */
    s->u[p].routed = 1 + N20_ALLIED;
    s->phase = N20_PH_COMBAT_END;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->u[z].routed, 0);
    assert_int_equal(s->u[p].routed, 1 + N20_ALLIED);
    free(s);
}

/* [9.7.5] retreating across a Minor River: a roll of 1-3 breaks the unit before it crosses */
static void test_n20_9_7_5_river_hazard(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int g = t_place(s, "GERARD", 808);  /* in Ligny, across the brook from 0708 */
    t_place(s, "ZIETEN", 908);
    t_place(s, "PIRCH", 807);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN,PIRCH -> GERARD", &d, &ev, &err), 0);
    uint32_t r[] = {2}; /* 6 vs 2+1 = +3, die 2 = DW */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, ": DW"));
    assert_int_equal(t_order(s, N20_FRENCH, "retreat GERARD 0707", &d, &ev, &err), -1); /* EZOC of PIRCH */
    assert_string_equal(err.rule, "9.7.3");
    uint32_t r2[] = {2};
    t_dice_script(&d, 1, r2);
    assert_int_equal(t_order(s, N20_FRENCH, "retreat GERARD 0708", &d, &ev, &err), 0);
    assert_string_equal(d.purposes[d.npurposes - 1], "9.7.5 hazardous retreat (river)");
    assert_int_equal(s->u[g].where, N20_U_BROKEN);
    assert_true(t_events_has(&ev, "Broken at 0808"));
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_int_equal(s->morale[N20_ALLIED], 8);
    free(s);
}

/* [9.7.8] a retreat that reaches a LOC hex before its full distance Breaks there */
static void test_n20_9_7_8_loc_reached(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int g = t_place(s, "GERARD", 205);
    t_place(s, "ZIETEN", 305);
    t_place(s, "PIRCH", 304);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN,PIRCH -> GERARD", &d, &ev, &err), 0);
    uint32_t r[] = {3, 3}; /* 6 vs 2 = +4, die 3 = DR; rout 3 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "retreat GERARD 0105 0104", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.8");
    assert_int_equal(t_order(s, N20_FRENCH, "retreat GERARD 0105", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].where, N20_U_BROKEN);
    assert_true(t_events_has(&ev, "9.7.8"));
    assert_int_equal(s->morale[N20_FRENCH], 5); /* one point in all for a rout that breaks [12.1] */
    free(s);
}

/* [12.3.2] Le Garde Recule: an attacking Guard that cannot advance costs a Morale Point */
static void test_n20_12_3_2_garde_recule(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {3}; /* 3 vs 3: column 0, die 3 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "La Garde recule"));
    assert_int_equal(s->morale[N20_FRENCH], 7);
    free(s);
}

/* [12.1] a unit that routs more hexes than its Movement Allowance costs its side morale */
static void test_n20_12_1_rout_beyond_allowance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5, 3}; /* 4 vs 3 = +1, die 5 = DR; rout 3 > MA 2 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    brt_buf b;
    buf_init(&b);
    assert_true(n20_legal(s, N20_ALLIED, &b) > 0);
    size_t pos = 0;
    const uint8_t *item;
    size_t len;
    assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
    uint32_t pass[] = {6, 6, 6, 6};
    t_dice_script(&d, 4, pass);
    n20_out out = {t_events_emit, &ev};
    assert_int_equal(n20_apply(s, N20_ALLIED, item, len, &d.d, &out, &err), 0);
    buf_free(&b);
    assert_int_equal(s->u[z].where, N20_U_MAP);
    assert_int_equal(n20_distance(s->u[z].hex, n20_hex(506)) <= 3, 1);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_true(t_events_has(&ev, "routed beyond its Movement Allowance"));
    free(s);
}

/* [8.2.3] Disengagement and [8.2.4] Maintaining Contact */
static void test_n20_8_2_4_maintaining_contact(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    int ux = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0606", &d, &ev, &err), -1); /* EZOC */
    assert_string_equal(err.rule, "8.2.3");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, &ev, &err), 0);
    assert_int_equal(s->u[ux].hex, n20_hex(507));
    assert_int_equal(s->phase, N20_PH_CONTACT);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(506));
    assert_true(s->u[g].flags & N20_UF_CONTACT);
    assert_int_equal(n20_combat_strength(s, g, 1, 0, 0), 1);      /* half, rounded up */
    assert_int_equal(n20_exerts_zoc(s, g, n20_hex(507)), 0);       /* loses its ZOC */
    free(s);
}

/* [5.0] the drawing player applies his side of the card */
static void test_n20_5_0_event_card(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int card3 = -1;
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == 3) card3 = i;
    s->draw[0] = (uint8_t)card3;
    s->morale[N20_ALLIED] = 5;
    s->phase = N20_PH_EVENTS;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "allied draws #3 Intelligence Gathering"));
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->discard[s->ndiscard - 1], card3);
    free(s);
}


/* [9.6] DR: one rout die per routed unit, rolled one at a time before that unit retreats */
static void test_n20_9_6_rout_one_at_a_time(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 407);
    t_place(s, "DERLON", 607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 507);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ZIETEN,PIRCH", &d, &ev, &err), 0);
    uint32_t r[] = {5, 1}; /* 7 vs 6 = +1, die 5 = DR; ZIETEN routs 1 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 1);
    assert_int_equal(n20_retreat_current(s), n20_unit_find(s, "ZIETEN"));
    brt_buf b;
    buf_init(&b);
    assert_true(n20_legal(s, N20_ALLIED, &b) > 0);
    size_t pos = 0;
    const uint8_t *item;
    size_t len;
    assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
    uint32_t pass[] = {6, 6, 3};
    t_dice_script(&d, 3, pass);
    n20_out out = {t_events_emit, &ev};
    assert_int_equal(n20_apply(s, N20_ALLIED, item, len, &d.d, &out, &err), 0);
    buf_free(&b);
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 2);
    assert_int_equal(n20_retreat_current(s), n20_unit_find(s, "PIRCH"));
    free(s);
}


/* [7.1] the phasing player ignores ZOCs across a bridged Major River when moving */
static void test_n20_7_1_bridge_zoc_ignored_when_moving(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "THIELMANN", 2109); /* Wavre, west bank */
    t_place(s, "EXELMANS", 2110);  /* across the Wavre bridge */
    assert_int_equal(t_order(s, N20_FRENCH, "move EXELMANS 2111 2011", &d, NULL, &err), 0);
    free(s);
}

/* [8.1.5] Holding Fast: defenders who beat a Countercharge do not advance */
static void test_n20_8_1_5_holding_fast(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "COLLAERT", 506);
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* 2 vs 4 = -2, die 1 = AB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge COLLAERT -> REILLE", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "2 vs 4"));
    assert_true(t_events_has(&ev, ": AB"));
    assert_int_equal(s->u[n20_unit_find(s, "COLLAERT")].where, N20_U_BROKEN);
    assert_int_equal(s->phase, N20_PH_REACTION); /* no advance: back to the Reaction Phase */
    assert_int_equal(s->u[n20_unit_find(s, "REILLE")].hex, n20_hex(505));
    free(s);
}


/* [6.6] road movement does not stop in rugged terrain; off the road it does [6.5] */
static void test_n20_6_6_road_through_forest(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    t_place(s, "HILL", 2102);
    t_place(s, "COLLAERT", 2103);
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 2202 2301 2402", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move COLLAERT 2203 2204", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.5");
    free(s);
}

/* [5.2.1] Mud: movement -1, infantry not weakened (no rain falling) */
static void test_n20_5_2_1_mud(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 16, N20_FRENCH);
    int u = t_place(s, "REILLE", 505);
    int a = t_place(s, "ARTILLERY", 506);
    assert_int_equal(n20_move_allowance(s, u), 1);
    assert_int_equal(n20_combat_strength(s, u, 1, 0, 0), 4);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 2);
    free(s);
}

/* [9.4.2] several defenders: the single most favourable benefit applies to the whole battle */
static void test_n20_9_4_2_best_benefit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1803);   /* La Haye Sainte */
    t_place(s, "ORANGE", 1802);   /* Hougoumont, Fortified */
    t_place(s, "COLLAERT", 1702); /* clear */
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ORANGE,COLLAERT", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "7 vs 7 (terrain +2)"));
    free(s);
}

/* [9.7.2.2] a unit in a Fortified hex may retreat one hex fewer: it holds on a Withdraws */
static void test_n20_9_7_2_2_fortified_holds(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    int o = t_place(s, "ORANGE", 1802);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ORANGE", &d, &ev, &err), 0);
    uint32_t r[] = {3}; /* 7 vs 4+2 = +1, die 3 = DW */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ORANGE", &d, &ev, &err), 0);
    assert_int_equal(s->u[o].hex, n20_hex(1802));
    assert_int_equal(s->u[o].where, N20_U_MAP);
    assert_int_equal(s->b[0].done, 1); /* nobody can advance into an occupied hex */
    free(s);
}

/* [12.2.2] the Allies spend a Morale Point per army to rally it; [10.0] placement per army */
static void test_n20_12_2_2_allied_rally(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_ALLIED);
    t_place(s, "ZIETEN", 1510);
    int ux = n20_unit_find(s, "UXBRIDGE"), ro = n20_unit_find(s, "ROEDER");
    s->u[ux].where = N20_U_BROKEN;
    s->u[ro].where = N20_U_BROKEN;
    s->morale[N20_ALLIED] = 5;
    s->morale[N20_FRENCH] = 5;
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_RALLY);
    uint32_t r[] = {4, 4};
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally anglo prussian", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 3);
    assert_int_equal(t_order(s, N20_ALLIED, "place UXBRIDGE 0812", &d, &ev, &err), -1);
    assert_int_equal(t_order(s, N20_ALLIED, "place UXBRIDGE 2502", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 2512", &d, &ev, &err), 0);
    assert_int_equal(s->u[ux].where, N20_U_MAP);
    assert_int_equal(s->u[ro].where, N20_U_MAP);
    assert_int_equal(s->morale[N20_ALLIED], 5); /* +2 Allied rest [14.0] */
    free(s);
}

/* [5.1] Damned Good Ground: placed at the end of the Allied Movement Phase, gone when the unit moves */
static void test_n20_5_1_good_ground_placement(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int p = t_place(s, "PIRCH", 1510);
    t_place(s, "GERARD", 107);
    s->gg_event = 1;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    brt_pending pd;
    n20_pending(s, &pd);
    assert_string_equal(pd.kind, "good-ground");
    assert_int_equal(t_order(s, N20_ALLIED, "goodground GERARD defense", &d, &ev, &err), -1);
    assert_int_equal(t_order(s, N20_ALLIED, "goodground PIRCH defense", &d, &ev, &err), 0);
    assert_int_equal(s->gg_unit, p);
    assert_int_equal(s->gg_immune, 0);
    /* next Allied Movement Phase: PIRCH leaves its hex */
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_MOVE;
    s->u[p].flags = 0;
    assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 1511", &d, &ev, &err), 0);
    assert_int_equal(s->gg_unit, 0xff);
    free(s);
}

/* [11.5] reinforcements may be delayed and enter on a later turn at their area */
static void test_n20_11_5_delay(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 13, N20_ALLIED);
    int hi = n20_unit_find(s, "HILL");
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_true(n20_can_enter_now(s, hi));
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1901", &d, NULL, &err), 0);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_6_9_no_stacking_6_4_no_take_backs),
        cmocka_unit_test(test_n20_7_7_night_ezoc_and_14_0_speed),
        cmocka_unit_test(test_n20_9_2_1_lone_unit_fights_both),
        cmocka_unit_test(test_n20_9_6_2_2_recovery),
        cmocka_unit_test(test_n20_9_7_5_river_hazard),
        cmocka_unit_test(test_n20_9_7_8_loc_reached),
        cmocka_unit_test(test_n20_12_3_2_garde_recule),
        cmocka_unit_test(test_n20_12_1_rout_beyond_allowance),
        cmocka_unit_test(test_n20_8_2_4_maintaining_contact),
        cmocka_unit_test(test_n20_5_0_event_card),
        cmocka_unit_test(test_n20_9_6_rout_one_at_a_time),
        cmocka_unit_test(test_n20_7_1_bridge_zoc_ignored_when_moving),
        cmocka_unit_test(test_n20_8_1_5_holding_fast),
        cmocka_unit_test(test_n20_6_6_road_through_forest),
        cmocka_unit_test(test_n20_5_2_1_mud),
        cmocka_unit_test(test_n20_9_4_2_best_benefit),
        cmocka_unit_test(test_n20_9_7_2_2_fortified_holds),
        cmocka_unit_test(test_n20_12_2_2_allied_rally),
        cmocka_unit_test(test_n20_5_1_good_ground_placement),
        cmocka_unit_test(test_n20_11_5_delay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
