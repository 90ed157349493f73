/*
 * test_n20_combat.c - rule cases of combat [9.0]-[9.8], weather [5.2],
 * Good Ground [5.1], ZOC [7.0]-[7.1] and Reaction [8.0] on small positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

static n20_state *s_battle(t_dice *d, int turn, const char *att, unsigned ah, const char *def, unsigned dh) {
    n20_state *s = t_empty(d, turn, N20_FRENCH);
    t_place(s, att, ah);
    t_place(s, def, dh);
    s->phase = N20_PH_DECLARE;
    return s;
}

/* [7.0] ZOCs do not extend between adjacent built-up hexes, nor into Fortified hexes */
static void test_n20_7_0_builtup_zoc(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int lhs = t_place(s, "DERLON", 1803); /* La Haye Sainte (town) */
    assert_int_equal(n20_exerts_zoc(s, lhs, n20_hex(1903)), 0); /* Mont St Jean: town */
    assert_int_equal(n20_exerts_zoc(s, lhs, n20_hex(1802)), 0); /* Hougoumont: fortified */
    assert_int_equal(n20_exerts_zoc(s, lhs, n20_hex(1804)), 1); /* clear */
    free(s);
}

/* [7.1] Major River hexsides: no ZOC, not adjacent; at a bridge the phasing player chooses */
static void test_n20_7_1_major_river(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int a = t_place(s, "THIELMANN", 2109);
    int b = t_place(s, "GERARD", 2010); /* across the Dyle, no bridge */
    assert_int_equal(n20_adjacent_units(s, a, b), 0);
    assert_int_equal(n20_exerts_zoc(s, a, n20_hex(2010)), 0);
    t_place(s, "GERARD", 2110); /* across the Wavre bridge */
    assert_int_equal(n20_adjacent_units(s, a, b), 1);
    assert_int_equal(n20_in_ezoc(s, n20_hex(2110), N20_ALLIED, 1), 0); /* phasing ignores it */
    assert_int_equal(n20_in_ezoc(s, n20_hex(2110), N20_ALLIED, 0), 1);
    assert_int_equal(n20_must_attack(s, b), 0); /* [9.4.3] not obliged across a Major River */
    free(s);
}

/* [9.3] attacking Artillery doubles; [5.2.1] not in Mud; [5.1] not against Artillery Immune */
static void test_n20_9_3_artillery_doubling(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_battle(&d, 9, "ARTILLERY", 505, "ZIETEN", 506);
    s->morale[N20_ALLIED] = 0 + 3;
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r1[] = {3};
    t_dice_script(&d, 1, r1);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "4 vs 3"));
    free(s);

    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = s_battle(&d, 16, "ARTILLERY", 505, "ZIETEN", 506); /* Turn 16: Mud */
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> ZIETEN", &d, &ev2, &err), 0);
    t_dice_script(&d, 1, r1);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev2, &err), 0);
    assert_true(t_events_has(&ev2, "2 vs 3"));
    free(s);

    t_events ev3 = {0};
    t_dice_init(&d, 1);
    s = s_battle(&d, 9, "ARTILLERY", 505, "ZIETEN", 506);
    s->gg_unit = (uint8_t)n20_unit_find(s, "ZIETEN");
    s->gg_immune = 1;
    s->gg_hex = n20_hex(506);
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> ZIETEN", &d, &ev3, &err), 0);
    t_dice_script(&d, 1, r1);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev3, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev3, &err), 0);
    assert_true(t_events_has(&ev3, "2 vs 3"));
    free(s);
}

/* [5.1] Good Ground +1 Terrain Defense is cumulative with terrain */
static void test_n20_5_1_good_ground_defense(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_battle(&d, 9, "REILLE", 505, "ZIETEN", 506);
    s->gg_unit = (uint8_t)n20_unit_find(s, "ZIETEN");
    s->gg_immune = 0;
    s->gg_hex = n20_hex(506);
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "reserve", &d, &ev, &err), 0);
    /* 4 vs 3 + 1 Good Ground + 1 reserve */
    assert_true(t_events_has(&ev, "4 vs 5"));
    assert_int_equal(s->morale[N20_ALLIED], 6);
    free(s);
}

/* [5.2.1] Downpour: infantry -1, movement -1 */
static void test_n20_5_2_1_downpour(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 14, N20_FRENCH); /* Turn 14: Downpour */
    int u = t_place(s, "REILLE", 505);
    assert_int_equal(n20_combat_strength(s, u, 1, 0, 0), 3);
    assert_int_equal(n20_move_allowance(s, u), 1);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0506 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    free(s);
}

/* [9.5] voluntary differential reduction */
static void test_n20_9_5_cap(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_battle(&d, 9, "REILLE", 505, "VONHOBE", 506);
    s->morale[N20_ALLIED] = 0 + 4;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> VONHOBE", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1 cap 0", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "differential +0"));
    assert_true(t_events_has(&ev, ": N")); /* 0 column, die 3 */
    free(s);
}

/* [9.6] EX: defenders break, the attacker breaks at least their printed strength, no change */
static void test_n20_9_6_exchange(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);   /* 4 */
    t_place(s, "GERARD", 406);   /* 2 */
    t_place(s, "MILHAUD", 407);  /* 1 */
    t_place(s, "THIELMANN", 506); /* 2, adjacent to all three */
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,GERARD,MILHAUD -> THIELMANN", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* +4 column (7 vs 2 = +5 -> +4), die 1 = EX */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "EX"));
    assert_int_equal(s->phase, N20_PH_EX_LOSSES);
    assert_int_equal(t_order(s, N20_FRENCH, "losses MILHAUD", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.6");
    assert_int_equal(t_order(s, N20_FRENCH, "losses GERARD MILHAUD", &d, &ev, &err), -1); /* MILHAUD not needed */
    assert_int_equal(t_order(s, N20_FRENCH, "losses GERARD", &d, &ev, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "GERARD")].where, N20_U_BROKEN);
    assert_int_equal(s->u[n20_unit_find(s, "THIELMANN")].where, N20_U_BROKEN);
    free(s);
}

/* [9.7.4] hazardous retreat into an EZOC: a roll of 1-3 breaks the unit */
static void test_n20_9_7_4_hazardous_retreat_breaks(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    /* French units around ZIETEN so that every retreat hex is in an EZOC */
    t_place(s, "GERARD", 607);
    t_place(s, "DERLON", 407);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    int zi = n20_unit_find(s, "ZIETEN");
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {4, 2}; /* 10 vs 3: +4, die 4 = DR; rout 2 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    brt_buf b;
    buf_init(&b);
    int n = n20_legal(s, N20_ALLIED, &b);
    assert_true(n > 0);
    size_t pos = 0;
    const uint8_t *item;
    size_t len;
    assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
    uint32_t r2[] = {2, 2, 2, 2};
    t_dice_script(&d, 4, r2);
    n20_out out = {t_events_emit, &ev};
    assert_int_equal(n20_apply(s, N20_ALLIED, item, len, &d.d, &out, &err), 0);
    buf_free(&b);
    assert_true(t_events_has(&ev, "hazardous retreat roll 2: Broken"));
    assert_int_equal(s->u[zi].where, N20_U_BROKEN);
    free(s);
}

/* [9.6.2.1] Elite units subtract 2 from the rout roll; below 1 becomes Withdraws */
static void test_n20_9_6_2_1_elite_rout(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    t_place(s, "GARDE", 505);
    t_place(s, "ORANGE", 506);
    t_place(s, "RESERVE", 605);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_ALLIED, "declare ORANGE,RESERVE -> GARDE", &d, &ev, &err), 0);
    uint32_t r[] = {4, 2}; /* 7 vs 3 = +4, die 4 = DR; rout roll 2 - 2 = 0 -> Withdraws */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "changed to Withdraws"));
    free(s);
}

/* [9.8.3] Controlled Advance: Lost means a Cavalry unit must advance */
static void test_n20_9_8_3_controlled_advance_lost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "MILHAUD", 406);
    t_place(s, "THIELMANN", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,MILHAUD -> THIELMANN", &d, &ev, &err), 0);
    uint32_t r[] = {6, 2}; /* 5 vs 2 = +3, die 6 = DB; controlled advance 2 = Lost */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_true(t_events_has(&ev, "control Lost"));
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.3");
    assert_int_equal(t_order(s, N20_FRENCH, "advance REILLE 0506", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.3");
    assert_int_equal(t_order(s, N20_FRENCH, "advance MILHAUD 0506", &d, &ev, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "MILHAUD")].hex, n20_hex(506));
    free(s);
}

/* [8.1.4] a Countercharge doubles the cavalry's strength (not against cavalry) */
static void test_n20_8_1_4_countercharge_doubled(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "4 vs 2"));
    free(s);
}

/* [8.2.2] a Cavalry unit in an enemy Cavalry unit's ZOC cannot disengage */
static void test_n20_8_2_2_pinned(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "MILHAUD", 505);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.2");
    free(s);
}


/* The worked example of Danube 20 after [9.9.4] (Waterloo 20 [9.0] B-H, [9.6], [9.7.4], [9.8.3],
 * [9.8.5]), step by step. Waterloo 20's GARDE is a 3, so REILLE (4) stands for the 4-strength
 * Imperial Guard; GERARD (2) is III Corps, MILHAUD (1, light cavalry) IV Cavalry Corps, ZIETEN (3)
 * the Prussian I Corps in a Forest hex; VANDAMME, outside the battle, puts the first hex of the
 * retreat in an enemy ZOC. Each step asserts the example's numbers and the dice it rolls. */
static void test_n20_9_9_4_worked_example(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int re = t_place(s, "REILLE", 1507);   /* 4 */
    int ge = t_place(s, "GERARD", 1508);   /* 2 */
    int mi = t_place(s, "MILHAUD", 1607);  /* 1, cavalry */
    t_place(s, "VANDAMME", 1709);          /* its ZOC covers 1708 */
    int zi = t_place(s, "ZIETEN", 1608);   /* 3, in the woods of the Dyle valley */
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 6;
    d.npurposes = 0;
    assert_int_equal(s->sc->terrain[n20_hex(1608)], N20_T_FOREST);
    assert_int_equal(s->sc->t_def[N20_T_FOREST], 1);
    assert_true(n20_adjacent_units(s, re, zi) && n20_adjacent_units(s, ge, zi) && n20_adjacent_units(s, mi, zi));
    /* three French units attack one Prussian unit */
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,GERARD,MILHAUD -> ZIETEN", &d, &ev, &err), 0);
    /* step B: 7 strength points; the French player declines to spend a Morale Point */
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->f.att_reserve, 0);
    /* step C: 3 + 1 for the Forest; the defender spends a Morale Point for 5 */
    assert_int_equal(s->phase, N20_PH_DEF_RESERVE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(d.npurposes, 0);
    uint32_t r1[] = {6, 2};
    t_dice_script(&d, 2, r1);
    assert_int_equal(t_order(s, N20_ALLIED, "reserve", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    /* steps E-G: 7 - 5 = +2; the French player's die roll of 6 on the +2 column: DR */
    assert_true(t_events_has(&ev, "7 vs 5 (terrain +1, defender reserve), differential +2, column +2, die 6: DR"));
    assert_string_equal(d.purposes[0], "9.6 combat");
    /* the rout distance roll: 2 */
    assert_string_equal(d.purposes[1], "9.6 rout distance");
    assert_int_equal(d.npurposes, 2);
    assert_true(t_events_has(&ev, "ZIETEN routs 2 hex(es)"));
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    /* two hexes back toward its LOC (2512, "off to the right"); the first hex is in an EZOC:
     * every hex next to ZIETEN is in an EZOC, and [9.7.7] 1708 is the one closer to a LOC */
    assert_true(n20_in_ezoc(s, n20_hex(1708), N20_FRENCH, 0));
    assert_false(n20_in_ezoc(s, n20_hex(1808), N20_FRENCH, 0));
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1609 1709", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.7");
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1708", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.8");
    assert_int_equal(d.npurposes, 2); /* rejected orders roll nothing */
    /* the hazardous retreat roll: 5, the unit survives; then the Controlled Advance roll: 3 */
    uint32_t r2[] = {5, 3};
    t_dice_script(&d, 2, r2);
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1708 1808", &d, &ev, &err), 0);
    assert_int_equal(d.npurposes, 4);
    assert_string_equal(d.purposes[2], "9.7.4 hazardous retreat (EZOC)");
    assert_string_equal(d.purposes[3], "9.8.3 controlled advance");
    assert_true(t_events_has(&ev, "ZIETEN hazardous retreat roll 5: passes"));
    assert_int_equal(s->u[zi].hex, n20_hex(1808));
    assert_true(s->u[zi].routed);
    /* no loss of Morale for routing more hexes than its Movement Allowance: only the reserve */
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    /* a 3 on the Controlled Advance Table (light cavalry, no modifier): control Lost, the
     * Cavalry must advance into the Forest hex before anybody else */
    assert_true(t_events_has(&ev, "Controlled Advance roll 3: control Lost"));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.3");
    assert_int_equal(t_order(s, N20_FRENCH, "advance GERARD 1608", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.3");
    /* the Cavalry continues along the Retreat Path and takes a second hex, where the path ends
     * (ZIETEN stands in the next one) */
    assert_int_equal(t_order(s, N20_FRENCH, "advance MILHAUD 1608 1708 1808", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.5");
    assert_int_equal(t_order(s, N20_FRENCH, "advance MILHAUD 1608 1708", &d, &ev, &err), 0);
    assert_int_equal(s->u[mi].hex, n20_hex(1708));
    /* finally the 2-strength III Corps advances into the vacated Forest hex, a single hex */
    assert_int_equal(t_order(s, N20_FRENCH, "advance GERARD 1608 1708", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.8.2"); /* infantry advances a single hex */
    assert_int_equal(t_order(s, N20_FRENCH, "advance GERARD 1608", &d, &ev, &err), 0);
    assert_int_equal(s->u[ge].hex, n20_hex(1608));
    assert_int_equal(s->u[re].hex, n20_hex(1507));
    assert_int_equal(s->b[0].done, 1); /* the battle is over; no other combat die was rolled */
    int combat_dice = 0;
    for (int i = 0; i < d.npurposes; i++)
        if (strncmp(d.purposes[i], "9.", 2) == 0) combat_dice++;
    assert_int_equal(combat_dice, 4);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_7_0_builtup_zoc),
        cmocka_unit_test(test_n20_7_1_major_river),
        cmocka_unit_test(test_n20_9_3_artillery_doubling),
        cmocka_unit_test(test_n20_5_1_good_ground_defense),
        cmocka_unit_test(test_n20_5_2_1_downpour),
        cmocka_unit_test(test_n20_9_5_cap),
        cmocka_unit_test(test_n20_9_6_exchange),
        cmocka_unit_test(test_n20_9_7_4_hazardous_retreat_breaks),
        cmocka_unit_test(test_n20_9_6_2_1_elite_rout),
        cmocka_unit_test(test_n20_9_8_3_controlled_advance_lost),
        cmocka_unit_test(test_n20_8_1_4_countercharge_doubled),
        cmocka_unit_test(test_n20_8_2_2_pinned),
        cmocka_unit_test(test_n20_9_9_4_worked_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
