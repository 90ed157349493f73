/*
 * test_n20_cases_9.c - rule cases of Combat [9.0]-[9.8.6] (Waterloo 20), with
 * reserves [12.2.3] and the Guard [12.3.1] [12.3.2] as they touch a battle.
 * One test per case not already covered by test_n20_combat.c, test_n20_cases.c
 * or test_n20_rules.c; docs/n20-cases/09.md maps every case to its test.
 *
 * CRT (scenario data), differential columns -2 .. +4:
 *   die 1: AB AR AR AW N  EX EX      die 4: AR N  DW DW DR DR DR
 *   die 2: AR AR AW N  DW DW DW      die 5: AW DW DW DR DR DR DB
 *   die 3: AR AW N  DW DW DW DR      die 6: N  DW DR DR DR DB DB
 * Controlled Advance Table: 1-3 Lost, 4-6 Kept (heavy cavalry -1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- helpers ---------------------------------------------------------------- */

/* a combat test at the Combat Phase's declarations (t_pos, n20_test.h) */
#define SETUP(turn, phasing) T_SETUP(turn, phasing, N20_PH_DECLARE)

/* ---- [9.0] [9.2] declarations and the battle sequence ------------------------ */

/* [9.2] every battle is declared before any is resolved */
static void test_n20_9_2_declare_all_battles_first(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    NO(N20_FRENCH, "resolve 1", "9.2");
    assert_int_equal(d.npurposes, 0);
    assert_true(t_legal_has(s, N20_FRENCH, "declare REILLE -> ZIETEN"));
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    assert_true(t_events_has(&ev, "[9.2] battle 1 declared: REILLE attacks ZIETEN"));
    assert_int_equal(s->phase, N20_PH_BATTLES);
    NO(N20_FRENCH, "declare REILLE -> ZIETEN", "9.0"); /* no second declaration this phase */
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* the units lists of the "declared" and "combat" events, in order */
typedef struct c9_units {
    char units[4][16][N20_NAME];
    int n[4], kinds;
    t_events ev;
} c9_units;
static void c9_emit(void *ctx, const uint8_t *data, size_t len) {
    c9_units *c = ctx;
    t_events_emit(&c->ev, data, len);
    N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
    assert_non_null(e);
    if ((strcmp(e->kind, "declared") == 0 || strcmp(e->kind, "combat") == 0) && c->kinds < 4) {
        for (size_t i = 0; i < e->n_units && i < 16; i++)
            snprintf(c->units[c->kinds][i], N20_NAME, "%s", e->units[i]);
        c->n[c->kinds++] = (int)e->n_units;
    }
    n20__v1__event__free_unpacked(e, NULL);
}

/* [9.2] the declared battle names who attacks whom: the attackers, then the defenders, in the
 * text through the units list (the attackers first in it), and [9.6] so does its combat event,
 * with the attackers' total strength against the defenders' */
static void test_n20_9_2_declared_event_names_attackers_and_defenders(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 507);
    t_place(s, "ZIETEN", 506);
    c9_units c;
    memset(&c, 0, sizeof c);
    n20_out out = {c9_emit, &c};
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare REILLE,GERARD -> ZIETEN", &d, &out, &err), 0);
    assert_true(t_events_has(&c.ev, "[9.2] battle 1 declared: REILLE, GERARD attack ZIETEN"));
    assert_int_equal(c.kinds, 1);
    assert_int_equal(c.n[0], 3);
    assert_string_equal(c.units[0][0], "REILLE");
    assert_string_equal(c.units[0][1], "GERARD");
    assert_string_equal(c.units[0][2], "ZIETEN");
    uint32_t r[] = {6}; /* the combat die */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order_out(s, N20_FRENCH, "resolve 1", &d, &out, &err), 0);
    if (s->phase == N20_PH_DEF_RESERVE)
        assert_int_equal(t_order_out(s, N20_ALLIED, "no-reserve", &d, &out, &err), 0);
    assert_int_equal(c.kinds, 2);
    assert_int_equal(c.n[1], 3);
    assert_string_equal(c.units[1][0], "REILLE");
    assert_string_equal(c.units[1][2], "ZIETEN");
    /* REILLE 4 + GERARD 2 against ZIETEN 3 (clear terrain) */
    assert_true(t_events_has(&c.ev, "[9.6] REILLE, GERARD attack ZIETEN in battle 1: "));
    assert_true(t_events_has(&c.ev, "attack ZIETEN in battle 1: 6 vs 3 (terrain +0)"));
    free(s);
}

/* [9.0] battles are resolved one at a time in any order the attacker chooses */
static void test_n20_9_0_battles_resolved_in_any_order(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; GERARD -> PIRCH");
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 1"));
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 2"));
    uint32_t r2[] = {4}; /* 2 vs 3 = -1, die 4: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 2", 1, r2), 0);
    assert_true(t_events_has(&ev, "battle 2: 2 vs 3 (terrain +0), differential -1, column -1, die 4: N"));
    assert_int_equal(s->b[1].done, 1);
    assert_int_equal(s->b[0].done, 0);
    assert_int_equal(s->phase, N20_PH_BATTLES);
    assert_false(t_legal_has(s, N20_FRENCH, "resolve 2"));
    NO(N20_FRENCH, "resolve 2", "9.0"); /* a battle is fought once */
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    uint32_t r1[] = {2}; /* 4 vs 3 = +1, die 2: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r1), 0);
    assert_true(t_events_has(&ev, "battle 1: 4 vs 3 (terrain +0), differential +1, column +1, die 2: N"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 2);
    assert_int_equal(s->phasing, N20_ALLIED); /* every battle fought: the Combat Phase is over */
    free(s);
}

/* [9.0] step H: a result, its retreats and advances, is applied before the next battle */
static void test_n20_9_0_step_h_result_applied_before_next_battle(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; GERARD -> PIRCH");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 2", &d, &ev, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    NO(N20_ALLIED, "resolve 2", "9.7");
    OK(N20_ALLIED, "retreat ZIETEN 0507");
    assert_int_equal(s->u[z].hex, n20_hex(507));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    NO(N20_FRENCH, "resolve 2", "9.8");
    OK(N20_FRENCH, "end");
    assert_int_equal(s->phase, N20_PH_BATTLES);
    assert_int_equal(s->b[0].done, 1);
    uint32_t r2[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 2", 1, r2), 0);
    free(s);
}

/* [9.0] steps E-F: the differential is read on the table's last column beyond its ends */
static void test_n20_9_0_step_f_column_clamped(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "DERLON", 407);
    t_place(s, "ZIETEN", 506);
    t_place(s, "MILHAUD", 1607);
    t_place(s, "ORANGE", 1608);
    OK(N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN ; MILHAUD -> ORANGE");
    uint32_t r1[] = {6}; /* 1 vs 4+1 forest = -4: column -2, die 6: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 2", 1, r1), 0);
    assert_true(t_events_has(&ev, "1 vs 5 (terrain +1), differential -4, column -2, die 6: N"));
    uint32_t r2[] = {4}; /* 9 vs 3 = +6: column +4, die 4: DR */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r2), 0);
    assert_true(t_events_has(&ev, "9 vs 3 (terrain +0), differential +6, column +4, die 4: DR"));
    free(s);
}

/* [9.1] [9.2.1] a unit in the ZOC of two enemy units need not attack the one another
 * friendly unit is designated to attack */
static void test_n20_9_2_1_other_enemy_left_to_another_unit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 807);
    t_place(s, "DERLON", 806); /* adjacent to PIRCH only */
    NO(N20_FRENCH, "declare DERLON -> PIRCH", "9.1"); /* VANDAMME is in an EZOC */
    assert_non_null(strstr(err.message, "VANDAMME"));
    NO(N20_FRENCH, "declare VANDAMME -> ZIETEN", "9.1"); /* DERLON is in PIRCH's ZOC */
    OK(N20_FRENCH, "declare VANDAMME -> ZIETEN ; DERLON -> PIRCH");
    assert_int_equal(s->nbattles, 2);
    free(s);
}

/* [9.1.2] [9.3] no unit attacks more than once: its strength is not divided */
static void test_n20_9_1_2_unit_attacks_only_once(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 807);
    NO(N20_FRENCH, "declare VANDAMME -> ZIETEN ; VANDAMME -> PIRCH", "9.1.2");
    assert_non_null(strstr(err.message, "VANDAMME attacks more than once"));
    assert_int_equal(s->phase, N20_PH_DECLARE);
    free(s);
}

/* [9.1] a unit not in an EZOC (here in a Fortified hex, [9.4.3]) need not attack; if it
 * does, every enemy unit in its ZOC must be attacked */
static void test_n20_9_1_voluntary_attack_obliges_all_in_its_zoc(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    int g = t_place(s, "GERARD", 1802); /* Hougoumont */
    t_place(s, "ORANGE", 1701);
    t_place(s, "COLLAERT", 1702);
    assert_int_equal(n20_must_attack(s, g), 0);
    assert_true(t_legal_has(s, N20_FRENCH, "declare"));
    assert_false(t_legal_has(s, N20_FRENCH, "declare GERARD -> ORANGE"));
    NO(N20_FRENCH, "declare GERARD -> ORANGE", "9.1.1");
    assert_non_null(strstr(err.message, "COLLAERT"));
    OK(N20_FRENCH, "declare GERARD -> ORANGE,COLLAERT");
    assert_int_equal(s->nbattles, 1);
    free(s);
}

/* [9.1] declaring no battle at all is accepted when nobody is obliged to fight */
static void test_n20_9_4_3_fortified_attacker_may_decline(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "GERARD", 1802);
    t_place(s, "ORANGE", 1701);
    OK(N20_FRENCH, "declare");
    assert_int_equal(s->nbattles, 0);
    assert_int_equal(d.npurposes, 0);
    assert_int_equal(s->phasing, N20_ALLIED); /* the Combat Phase ended with no battle */
    free(s);
}

/* [9.2.2] units in several hexes combine only if every attacker is adjacent to every defender */
static void test_n20_9_2_2_multi_hex_battle_needs_all_adjacent(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "DERLON", 406); /* adjacent to ZIETEN, not to PIRCH */
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 606);
    NO(N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN,PIRCH", "9.2.2");
    assert_non_null(strstr(err.message, "DERLON is not adjacent to PIRCH"));
    assert_false(t_legal_has(s, N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN,PIRCH"));
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN ; GERARD -> PIRCH");
    free(s);
}

static void test_n20_9_2_2_multi_hex_battle_all_adjacent_accepted(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 606); /* marsh +1 */
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN,PIRCH");
    assert_int_equal(s->b[0].natt, 2);
    assert_int_equal(s->b[0].ndef, 2);
    uint32_t r[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "6 vs 7 (terrain +1), differential -1"));
    free(s);
}

/* [9.2] [7.1] units across a Major River without bridge or ford are not adjacent */
static void test_n20_9_2_no_attack_across_major_river(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "THIELMANN", 2109);
    t_place(s, "GERARD", 2010);
    NO(N20_FRENCH, "declare GERARD -> THIELMANN", "9.2.2");
    OK(N20_FRENCH, "declare");
    free(s);
}

/* [9.1] (rulings R-9.1-routed) a Routed unit in an EZOC attacks, at half strength [9.6.2],
 * and [9.6.2] [12.2.3] cannot commit reserves when every attacker is Routed */
static void test_n20_9_6_2_routed_unit_attacks_at_half_without_reserves(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->u[r].routed = 1 + N20_FRENCH;
    NO(N20_FRENCH, "declare", "9.1");
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 1"));
    assert_false(t_legal_has(s, N20_FRENCH, "resolve 1 reserve"));
    NO(N20_FRENCH, "resolve 1 reserve", "12.2.3");
    assert_int_equal(s->morale[N20_FRENCH], 6);
    uint32_t rr[] = {4}; /* 2 vs 3 = -1, die 4: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, rr), 0);
    assert_true(t_events_has(&ev, "2 vs 3 (terrain +0), differential -1, column -1, die 4: N"));
    free(s);
}

/* [9.6.2] reserves: one Routed attacker among others does not stop them */
static void test_n20_9_6_2_reserve_allowed_unless_all_routed(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "ZIETEN", 506);
    s->u[r].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN");
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 1 reserve"));
    OK(N20_FRENCH, "resolve 1 reserve");
    assert_int_equal(s->morale[N20_FRENCH], 5);
    free(s);
}

/* [9.6.2] a Routed enemy exerts no ZOC: nobody must attack it; defending, it is halved but
 * its terrain is not; the defender cannot commit reserves when every defender is Routed */
static void test_n20_9_6_2_routed_defender(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1607);
    int z = t_place(s, "ZIETEN", 1608); /* forest */
    s->u[z].routed = 1 + N20_FRENCH;
    assert_int_equal(n20_exerts_zoc(s, z, n20_hex(1607)), 0);
    assert_int_equal(n20_must_attack(s, U("REILLE")), 0);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {2}; /* 4 vs 2+1 = +1, die 2: N */
    t_dice_script(&d, 1, r);
    OK(N20_FRENCH, "resolve 1");
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1); /* rolled at once: no reserve decision */
    assert_true(t_events_has(&ev, "4 vs 3 (terrain +1), differential +1, column +1, die 2: N"));
    assert_int_equal(s->morale[N20_ALLIED], 6);
    free(s);
}

/* ---- [9.3] artillery --------------------------------------------------------- */

/* [9.3] Artillery uses its printed strength when defending */
static void test_n20_9_3_artillery_defends_at_printed_strength(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED);
    t_place(s, "ZIETEN", 505);
    t_place(s, "ARTILLERY", 506);
    OK(N20_ALLIED, "declare ZIETEN -> ARTILLERY");
    uint32_t r[] = {2}; /* 3 vs 2 = +1, die 2: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "3 vs 2 (terrain +0), differential +1"));
    free(s);
}

/* [9.3] [5.2.1] in Downpour the Artillery does not double */
static void test_n20_9_3_artillery_not_doubled_in_downpour(void **st) {
    (void)st;
    SETUP(14, N20_FRENCH);
    t_place(s, "ARTILLERY", 505);
    t_place(s, "VONHOBE", 506);
    OK(N20_FRENCH, "declare ARTILLERY -> VONHOBE");
    uint32_t r[] = {4}; /* 2 vs 1 = +1, die 4: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "2 vs 1 (terrain +0), differential +1"));
    free(s);
}

/* [9.3] [9.8.2] Artillery never advances after combat */
static void test_n20_9_3_artillery_never_advances(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "ARTILLERY", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare ARTILLERY,GERARD -> ZIETEN");
    uint32_t r[] = {6}; /* 4 + 2 vs 3 = +3, die 6: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "6 vs 3"));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_false(t_legal_has(s, N20_FRENCH, "advance ARTILLERY 0506"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance GERARD 0506"));
    NO(N20_FRENCH, "advance ARTILLERY 0506", "9.8.2");
    AT("ARTILLERY", 505);
    free(s);
}

/* ---- [9.4] terrain ------------------------------------------------------------ */

/* [9.4] a hexside benefit: attacked across a Minor River */
static void test_n20_9_4_minor_river_hexside_benefit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "PIRCH", 807); /* clear, across the Ligny brook */
    OK(N20_FRENCH, "declare VANDAMME -> PIRCH");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "3 vs 4 (terrain +1), differential -1"));
    free(s);
}

/* [9.4.1] a Town attacked across a Minor River: the single best benefit (+1), not both */
static void test_n20_9_4_1_single_benefit_not_cumulative(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808); /* Ligny: town, across the brook */
    OK(N20_FRENCH, "declare VANDAMME -> ZIETEN");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "3 vs 4 (terrain +1), differential -1"));
    free(s);
}

/* [9.4.3] the attacker's own terrain has no effect */
static void test_n20_9_4_3_attacker_terrain_no_effect(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 608); /* Fleurus: town */
    t_place(s, "ZIETEN", 607);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {2};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "4 vs 3 (terrain +0), differential +1"));
    free(s);
}

/* [9.4.3] a Town unit adjacent to an enemy in a Town need not attack; if it does, [9.1]
 * applies fully (the Routed COLLAERT exerts no ZOC but is in the attacker's ZOC) */
static void test_n20_9_4_3_town_next_to_town_not_obliged(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    int dl = t_place(s, "DERLON", 1803); /* La Haye Sainte */
    t_place(s, "ORANGE", 1903);          /* Mont St Jean */
    int c = t_place(s, "COLLAERT", 1804);
    s->u[c].routed = 1 + N20_FRENCH;
    assert_int_equal(n20_must_attack(s, dl), 0);
    NO(N20_FRENCH, "declare DERLON -> ORANGE", "9.1.1");
    assert_non_null(strstr(err.message, "COLLAERT"));
    OK(N20_FRENCH, "declare DERLON -> ORANGE,COLLAERT");
    free(s);
}

/* [9.4.3] across a Major River at a bridge: not obliged; attacking across it, the defender
 * gets the single best of Town and Bridge */
static void test_n20_9_4_3_bridge_not_obliged_and_single_benefit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int g = t_place(s, "GERARD", 2110);
    t_place(s, "THIELMANN", 2109); /* Wavre, across the bridge */
    assert_int_equal(n20_must_attack(s, g), 0);
    assert_true(t_legal_has(s, N20_FRENCH, "declare"));
    OK(N20_FRENCH, "declare GERARD -> THIELMANN");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "2 vs 3 (terrain +1), differential -1"));
    free(s);
}

/* ---- [12.2.3] reserves, [9.5] differential reduction ------------------------------ */

/* [9.0] B-C [12.2.3] the attacker commits reserves with the resolve order, then the defender */
static void test_n20_12_2_3_reserves_attacker_then_defender(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 1 reserve"));
    OK(N20_FRENCH, "resolve 1 reserve");
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_int_equal(s->phase, N20_PH_DEF_RESERVE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(d.npurposes, 0); /* no die before the defender decides */
    assert_true(t_legal_has(s, N20_ALLIED, "reserve"));
    assert_true(t_legal_has(s, N20_ALLIED, "no-reserve"));
    uint32_t r[] = {3}; /* 5 vs 4 = +1, die 3: DW */
    t_dice_script(&d, 1, r);
    OK(N20_ALLIED, "reserve");
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_true(t_events_has(&ev, "5 vs 4 (terrain +0, attacker reserve, defender reserve), differential +1"));
    free(s);
}

/* [12.2.3] [12.1.2] spending the last Morale Point on reserves loses the game at once */
static void test_n20_12_2_3_last_morale_point_loses(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->morale[N20_FRENCH] = 1;
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    OK(N20_FRENCH, "resolve 1 reserve");
    assert_int_equal(s->morale[N20_FRENCH], 0);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_ALLIED);
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [9.5] the cap applies after both reserves; a cap above the differential changes nothing;
 * a cap out of the table's reach is refused */
static void test_n20_9_5_cap_after_reserves(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "DERLON", 1607);
    t_place(s, "VONHOBE", 1707);
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN ; DERLON -> VONHOBE");
    NO(N20_FRENCH, "resolve 1 cap 30", "9.5");
    OK(N20_FRENCH, "resolve 1 cap 1");
    uint32_t r[] = {2}; /* 6 vs 3+1 = +2, capped to +1, die 2: N */
    t_dice_script(&d, 1, r);
    OK(N20_ALLIED, "reserve");
    assert_true(t_events_has(&ev, "6 vs 4 (terrain +0, defender reserve), differential +1, column +1, die 2: N"));
    uint32_t r2[] = {2}; /* 3 vs 1 = +2 below the cap 4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 2 cap 4", 1, r2), 0);
    assert_true(t_events_has(&ev, "3 vs 1 (terrain +0), differential +2, column +2, die 2: DW"));
    free(s);
}

/* ---- [9.6] every result -------------------------------------------------------------- */

/* [9.6] AB: every attacker Breaks [9.6.1]; the defender may advance */
static void test_n20_9_6_ab_attacker_breaks(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int m = t_place(s, "MILHAUD", 505);
    t_place(s, "ORANGE", 506);
    OK(N20_FRENCH, "declare MILHAUD -> ORANGE");
    uint32_t r[] = {1}; /* 1 vs 4 = -3: column -2, die 1: AB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 1: AB"));
    assert_int_equal(s->u[m].where, N20_U_BROKEN);
    assert_true(t_events_has(&ev, "MILHAUD is Broken at 0505"));
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_true(t_legal_has(s, N20_ALLIED, "advance ORANGE 0505"));
    OK(N20_ALLIED, "advance ORANGE 0505");
    AT("ORANGE", 505);
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

/* [9.6] AR: the defender rolls the rout distance, the attacker retreats it and is Routed
 * [9.6.2] with the colour of the side whose Player Turn it is not; the defender may advance */
static void test_n20_9_6_ar_attacker_routed(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "ORANGE", 506);
    OK(N20_FRENCH, "declare GERARD -> ORANGE");
    uint32_t r[] = {2, 2}; /* 2 vs 4 = -2, die 2: AR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "die 2: AR"));
    assert_true(t_events_has(&ev, "GERARD routs 2 hex(es) (roll 2)"));
    assert_string_equal(d.purposes[1], "9.6 rout distance");
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    NO(N20_FRENCH, "retreat GERARD 0405", "9.7.8"); /* the full distance */
    OK(N20_FRENCH, "retreat GERARD 0405 0305");
    AT("GERARD", 305);
    assert_int_equal(s->u[g].routed, 1 + N20_ALLIED);
    assert_int_equal(s->morale[N20_FRENCH], 6); /* 2 hexes is not beyond its allowance */
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    OK(N20_ALLIED, "advance ORANGE 0505");
    AT("ORANGE", 505);
    free(s);
}

/* [9.6] AW: every attacker retreats one hex (no rout roll, no marker); the defender may advance */
static void test_n20_9_6_aw_attacker_withdraws(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "ORANGE", 506);
    OK(N20_FRENCH, "declare GERARD -> ORANGE");
    uint32_t r[] = {5}; /* -2, die 5: AW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 5: AW"));
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 0);
    NO(N20_FRENCH, "retreat GERARD 0405 0305", "9.7.8");
    OK(N20_FRENCH, "retreat GERARD 0405");
    assert_int_equal(s->u[g].routed, 0);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    OK(N20_ALLIED, "end");
    AT("ORANGE", 506);
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

/* [9.6] N: Engaged, nothing happens */
static void test_n20_9_6_n_engaged(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; GERARD -> PIRCH");
    uint32_t r[] = {2}; /* +1, die 2: N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 2: N"));
    assert_int_equal(d.npurposes, 1);
    AT("REILLE", 505);
    AT("ZIETEN", 506);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->phase, N20_PH_BATTLES);
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

/* [9.6] DW: every defender retreats one hex by its owner; the attacker may advance into the
 * defeated unit's hex only [9.8.2] */
static void test_n20_9_6_dw_defender_withdraws(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; GERARD -> PIRCH");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 0);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    OK(N20_ALLIED, "retreat ZIETEN 0607");
    assert_int_equal(s->u[z].routed, 0);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    NO(N20_FRENCH, "advance REILLE 0506 0607", "9.8.2"); /* infantry: one hex */
    NO(N20_FRENCH, "advance REILLE 0605", "9.8.2");
    OK(N20_FRENCH, "advance REILLE 0506");
    AT("REILLE", 506);
    assert_true(s->u[U("REILLE")].flags & N20_UF_EXHAUSTED);
    free(s);
}

/* [9.6] DB: every defender Breaks [9.6.1] (off the map, morale [12.1]); the attacker advances */
static void test_n20_9_6_db_defender_breaks(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    int z = t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN");
    uint32_t r[] = {6}; /* 6 vs 3 = +3, die 6: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 6: DB"));
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    assert_int_equal(n20_unit_at(s, n20_hex(506)), -1);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(t_dice_count(&d, "9.8.3 controlled advance"), 0); /* no cavalry, no roll */
    OK(N20_FRENCH, "advance GERARD 0506");
    AT("GERARD", 506);
    assert_int_equal(s->b[0].done, 1); /* the hex is full: the advance is over */
    free(s);
}

/* [9.6] EX: "you cannot make change": with 3 and 3 against 2, one 3 must Break */
static void test_n20_9_6_ex_cannot_make_change(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "DERLON", 505);
    t_place(s, "VANDAMME", 607);
    int th = t_place(s, "THIELMANN", 506);
    OK(N20_FRENCH, "declare DERLON,VANDAMME -> THIELMANN");
    uint32_t r[] = {1}; /* 6 vs 2 = +4, die 1: EX */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 1: EX"));
    assert_int_equal(s->u[th].where, N20_U_BROKEN); /* defenders first */
    assert_int_equal(s->phase, N20_PH_EX_LOSSES);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_legal_n(s, N20_FRENCH), 2);
    assert_true(t_legal_has(s, N20_FRENCH, "losses DERLON"));
    assert_true(t_legal_has(s, N20_FRENCH, "losses VANDAMME"));
    NO(N20_FRENCH, "losses DERLON VANDAMME", "9.6");
    NO(N20_FRENCH, "losses THIELMANN", "9.6");
    OK(N20_FRENCH, "losses VANDAMME");
    assert_int_equal(s->u[U("VANDAMME")].where, N20_U_BROKEN);
    assert_int_equal(s->u[U("DERLON")].where, N20_U_MAP);
    assert_int_equal(s->morale[N20_FRENCH], 6); /* +1 -1 */
    assert_int_equal(s->morale[N20_ALLIED], 6); /* -1 +1 */
    assert_int_equal(s->phase, N20_PH_ADVANCE); /* the survivor may advance */
    OK(N20_FRENCH, "advance DERLON 0506");
    free(s);
}

/* [9.6] EX: the attacker may Break a stronger unit than necessary */
static void test_n20_9_6_ex_may_break_stronger_unit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "THIELMANN", 506);
    OK(N20_FRENCH, "declare REILLE,GERARD -> THIELMANN");
    uint32_t r[] = {1}; /* 6 vs 2, die 1: EX */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_legal_has(s, N20_FRENCH, "losses GERARD"));
    assert_true(t_legal_has(s, N20_FRENCH, "losses REILLE"));
    assert_false(t_legal_has(s, N20_FRENCH, "losses REILLE GERARD"));
    OK(N20_FRENCH, "losses REILLE");
    assert_int_equal(s->u[U("REILLE")].where, N20_U_BROKEN);
    assert_int_equal(s->u[U("GERARD")].where, N20_U_MAP);
    free(s);
}

/* [9.6] EX: only printed strengths count (not halving for Rout, terrain or reserves) */
static void test_n20_9_6_ex_printed_strengths_only(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1607);
    t_place(s, "GERARD", 1708);
    t_place(s, "MILHAUD", 1507);
    int z = t_place(s, "ZIETEN", 1608); /* forest */
    s->u[z].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "declare REILLE,GERARD,MILHAUD -> ZIETEN");
    uint32_t r[] = {1}; /* 7 vs 2+1 = +4, die 1: EX; the loss is ZIETEN's printed 3 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "7 vs 3 (terrain +1), differential +4, column +4, die 1: EX"));
    NO(N20_FRENCH, "losses GERARD", "9.6");
    assert_non_null(strstr(err.message, "at least 3"));
    OK(N20_FRENCH, "losses GERARD MILHAUD");
    assert_int_equal(s->u[U("REILLE")].where, N20_U_MAP);
    free(s);
}

/* [9.6] [R-9.6-EX] EX: when every choice breaks them all, no decision is asked */
static void test_n20_9_6_ex_lone_attacker_breaks_without_decision(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r0 = t_place(s, "REILLE", 505);
    int v = t_place(s, "VONHOBE", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> VONHOBE ; GERARD -> PIRCH");
    uint32_t r[] = {1}; /* 4 vs 1 = +3, die 1: EX */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->u[v].where, N20_U_BROKEN);
    assert_int_equal(s->u[r0].where, N20_U_BROKEN);
    assert_int_equal(s->phase, N20_PH_BATTLES); /* no losses decision, nobody left to advance */
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    free(s);
}

/* [9.6] [15.0] EX: if breaking the defenders takes their side to 0 Morale, the attacker has
 * won and breaks nothing */
static void test_n20_9_6_ex_defender_morale_zero(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r0 = t_place(s, "REILLE", 505);
    t_place(s, "VONHOBE", 506);
    s->morale[N20_ALLIED] = 1;
    OK(N20_FRENCH, "declare REILLE -> VONHOBE");
    uint32_t r[] = {1};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_FRENCH);
    assert_int_equal(s->u[r0].where, N20_U_MAP);
    free(s);
}


/* [9.6.2] [9.8.2] a victorious Routed unit cannot advance after combat */
static void test_n20_9_6_2_routed_unit_cannot_advance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int r0 = t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "VONHOBE", 506);
    s->u[r0].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "declare REILLE,GERARD -> VONHOBE");
    uint32_t r[] = {6}; /* 2 + 2 vs 1 = +3, die 6: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "4 vs 1 (terrain +0), differential +3, column +3, die 6: DB"));
    assert_false(t_legal_has(s, N20_FRENCH, "advance REILLE 0506"));
    NO(N20_FRENCH, "advance REILLE 0506", "9.8.2");
    assert_non_null(strstr(err.message, "Routed"));
    OK(N20_FRENCH, "advance GERARD 0506");
    AT("GERARD", 506);
    AT("REILLE", 505);
    free(s);
}

/* [9.6.2] (R-9.6.2-halving) a Routed unit's strength is halved (rounded up) after its other
 * modifiers: Downpour -1 [5.2.1], the Artillery doubling [9.3] */
static void test_n20_9_6_2_routed_halving_after_other_modifiers(void **st) {
    (void)st;
    SETUP(14, N20_FRENCH); /* Downpour */
    int r0 = t_place(s, "REILLE", 505);
    int a = t_place(s, "ARTILLERY", 507);
    t_place(s, "ZIETEN", 506);
    assert_int_equal(n20_combat_strength(s, r0, 1, 0, 0), 3);
    s->u[r0].routed = 1 + N20_FRENCH;
    assert_int_equal(n20_combat_strength(s, r0, 1, 0, 0), 2); /* (4 - 1) / 2 rounded up */
    assert_int_equal(n20_combat_strength(s, r0, 0, 0, 0), 2);
    s->turn = 9; /* clear weather: the Artillery doubles */
    s->u[a].routed = 1 + N20_FRENCH;
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 2); /* 2 x 2 / 2 */
    assert_int_equal(n20_combat_strength(s, a, 0, 0, 0), 1); /* defending: 2 / 2 */
    OK(N20_FRENCH, "declare REILLE,ARTILLERY -> ZIETEN");
    uint32_t r[] = {4}; /* clear weather: REILLE 4 / 2 + ARTILLERY 2 vs 3 = +1, die 4: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "4 vs 3 (terrain +0), differential +1, column +1, die 4: DW"));
    free(s);
}

/* ---- [9.6.2] Routed units ---------------------------------------------------------- */

/* [9.6.2] a Routed unit moves only to continue its Retreat, toward a friendly LOC hex */
static void test_n20_9_6_2_routed_unit_moves_only_toward_loc(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED);
    s->phase = N20_PH_MOVE;
    int z = t_place(s, "ZIETEN", 506);
    s->u[z].routed = 1 + N20_FRENCH;
    NO(N20_ALLIED, "move ZIETEN 0406", "9.6.2");
    AT("ZIETEN", 506);
    OK(N20_ALLIED, "move ZIETEN 0507");
    AT("ZIETEN", 507);
    free(s);
}

/* [9.6.2] a Routed Cavalry unit cannot Countercharge (it may still Disengage) */
static void test_n20_9_6_2_routed_cavalry_cannot_countercharge(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    s->phase = N20_PH_MOVE;
    t_place(s, "GERARD", 505);
    int ux = t_place(s, "UXBRIDGE", 506);
    s->u[ux].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "end");
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"));
    NO(N20_ALLIED, "countercharge UXBRIDGE -> GERARD", "8.1.1");
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [9.6.2] a Routed unit Retreats and Routs again when compelled; its marker stays */
static void test_n20_9_6_2_routed_unit_routs_again(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1407);
    int z = t_place(s, "ZIETEN", 1507);
    s->u[z].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {6, 1}; /* 4 vs 2 = +2, die 6: DR; rout 1 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "4 vs 2 (terrain +0), differential +2, column +2, die 6: DR"));
    assert_true(t_events_has(&ev, "ZIETEN routs 1 hex(es) (roll 1)"));
    OK(N20_ALLIED, "retreat ZIETEN 1508");
    assert_int_equal(s->u[z].routed, 1 + N20_ALLIED);
    free(s);
}

/* [9.6.2.1] an Elite unit subtracts two from the rout roll; [9.6.2] in the Allied Player Turn the
 * marker shows the French colour; [12.1] routing beyond its Movement Allowance costs a Morale
 * Point; [12.3.2] a defending Guard costs nothing */
static void test_n20_9_6_2_1_elite_routs_two_hexes_fewer(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "ORANGE", 506);
    t_place(s, "RESERVE", 605);
    OK(N20_ALLIED, "declare ORANGE,RESERVE -> GARDE");
    uint32_t r[] = {4, 5}; /* 7 vs 3 = +4, die 4: DR; rout 5 - 2 = 3 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "GARDE routs 3 hex(es) (roll 5)"));
    NO(N20_FRENCH, "retreat GARDE 0405 0305 0206 0106", "9.7.8");
    OK(N20_FRENCH, "retreat GARDE 0405 0305 0206");
    AT("GARDE", 206);
    assert_int_equal(s->u[g].routed, 1 + N20_FRENCH);
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_false(t_events_has(&ev, "La Garde recule"));
    free(s);
}

/* [9.6.2.1] Defensible Positions: a unit in a Fortified hex subtracts one from the rout roll, and
 * [9.7.2.2] may retreat one hex fewer */
static void test_n20_9_6_2_1_fortified_routs_one_fewer(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    int o = t_place(s, "ORANGE", 1802); /* Hougoumont */
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {5, 3}; /* 7 vs 4+2 = +1, die 5: DR; rout 3 - 1 = 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "7 vs 6 (terrain +2), differential +1, column +1, die 5: DR"));
    assert_true(t_events_has(&ev, "ORANGE routs 2 hex(es) (roll 3)"));
    NO(N20_ALLIED, "retreat ORANGE", "9.7.8"); /* one fewer, not two fewer */
    OK(N20_ALLIED, "retreat ORANGE 1902");
    AT("ORANGE", 1902);
    assert_int_equal(s->u[o].where, N20_U_MAP);
    assert_int_equal(s->u[o].routed, 1 + N20_ALLIED);
    free(s);
}

/* [9.6.2.1] the Elite and Fortified modifiers are cumulative; below 1 the result is Withdraws, and
 * [9.7.2.2] the unit may then hold its ground */
static void test_n20_9_6_2_1_elite_and_fortified_cumulative(void **st) {
    (void)st;
    SETUP(18, N20_ALLIED);
    int g = t_place(s, "GARDE", 1802);
    t_place(s, "ORANGE", 1701);
    t_place(s, "RESERVE", 1801);
    t_place(s, "HILL", 1702);
    OK(N20_ALLIED, "declare ORANGE,RESERVE,HILL -> GARDE");
    uint32_t r[] = {4, 3}; /* 10 vs 3+2 = +5: column +4, die 4: DR; rout 3 - 2 - 1 = 0 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "GARDE rout roll 3, modified 0: changed to Withdraws"));
    OK(N20_FRENCH, "retreat GARDE");
    AT("GARDE", 1802);
    assert_int_equal(s->u[g].routed, 0);
    free(s);
}

/* [9.6.2.2] a Routed! marker of the phasing side's colour stays while its unit is in an EZOC */
static void test_n20_9_6_2_2_no_recovery_in_ezoc(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 1510);
    s->u[z].routed = 1 + N20_FRENCH;
    s->u[p].routed = 1 + N20_FRENCH;
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->u[z].routed, 1 + N20_FRENCH);
    assert_int_equal(s->u[p].routed, 0);
    assert_true(t_events_has(&ev, "[9.6.2.2] PIRCH recovers from Rout"));
    assert_false(t_events_has(&ev, "ZIETEN recovers"));
    free(s);
}

/* ---- [9.7] retreats ------------------------------------------------------------------- */

/* [9.7.1] retreating units do not stop in rugged terrain */
static void test_n20_9_7_1_retreat_through_forest(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1407);
    int z = t_place(s, "ZIETEN", 1507);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {5, 2}; /* +1, die 5: DR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    OK(N20_ALLIED, "retreat ZIETEN 1608 1708"); /* through the forest at 1608 */
    AT("ZIETEN", 1708);
    assert_int_equal(s->u[z].routed, 1 + N20_ALLIED);
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 0);
    free(s);
}

/* [9.7.2] [9.7.7] a unit with no hex to retreat into Breaks in its hex, without a decision */
static void test_n20_9_7_2_surrounded_unit_breaks(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 102);
    t_place(s, "DERLON", 201);
    t_place(s, "GERARD", 202);
    int v = t_place(s, "VONHOBE", 101); /* map corner */
    OK(N20_FRENCH, "declare REILLE,DERLON,GERARD -> VONHOBE");
    uint32_t r[] = {2}; /* 9 vs 1: column +4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "die 2: DW"));
    assert_int_equal(s->u[v].where, N20_U_BROKEN);
    assert_true(t_events_has(&ev, "VONHOBE is Broken at 0101"));
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->phase, N20_PH_ADVANCE); /* straight to the attacker's advance */
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    OK(N20_FRENCH, "advance REILLE 0101");
    free(s);
}

/* [9.7.2.1] no retreat into an enemy hex or across a Major River; across a ford it is allowed
 * and [9.7.5] hazardous */
static void test_n20_9_7_2_1_retreat_restrictions_and_ford(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1508);
    int z = t_place(s, "ZIETEN", 1509);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    NO(N20_ALLIED, "retreat ZIETEN 1410", "9.7.2.1"); /* Major River, no crossing */
    NO(N20_ALLIED, "retreat ZIETEN 1508", "9.7.2.1"); /* the enemy */
    NO(N20_ALLIED, "retreat ZIETEN 1609", "9.7.3");   /* in REILLE's ZOC while 1510 is free */
    assert_int_equal(d.npurposes, 1);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ZIETEN 1510"));
    uint32_t h[] = {4};
    t_dice_script(&d, 1, h);
    OK(N20_ALLIED, "retreat ZIETEN 1510"); /* across the Ottignies ford */
    assert_string_equal(d.purposes[1], "9.7.5 hazardous retreat (river)");
    assert_int_equal(d.npurposes, 2);
    assert_true(t_events_has(&ev, "ZIETEN hazardous retreat roll 4: passes"));
    assert_int_equal(s->u[z].hex, n20_hex(1510));
    free(s);
}

/* [9.7.2.2] the unit in a Fortified hex may also retreat the full distance */
static void test_n20_9_7_2_2_fortified_may_retreat_in_full(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    t_place(s, "ORANGE", 1802);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE"));
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE 1902"));
    OK(N20_ALLIED, "retreat ORANGE 1902");
    AT("ORANGE", 1902);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    free(s);
}

/* [9.7.4] one roll for each EZOC hex entered; on 1-3 the unit Breaks in that hex */
static void test_n20_9_7_4_hazardous_retreat_breaks_on_1_to_3(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 407);
    t_place(s, "KELLERMANN", 607);
    t_place(s, "MILHAUD", 509); /* not in the battle: its ZOC covers 0508 */
    int z = t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,DERLON,KELLERMANN -> ZIETEN");
    uint32_t r[] = {4, 2}; /* 9 vs 3: column +4, die 4: DR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    uint32_t h[] = {5, 3};
    t_dice_script(&d, 2, h);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508");
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 2);
    assert_true(t_events_has(&ev, "ZIETEN hazardous retreat roll 5: passes"));
    assert_true(t_events_has(&ev, "ZIETEN hazardous retreat roll 3: Broken"));
    assert_true(t_events_has(&ev, "ZIETEN is Broken at 0508"));
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    assert_int_equal(s->morale[N20_ALLIED], 5); /* one point for the unit that routs and breaks */
    free(s);
}

/* [9.7.4] [9.7.6] friendly units do not negate EZOCs: passing through a friendly-occupied hex in
 * an EZOC is hazardous; a retreat may not end stacked */
static void test_n20_9_7_4_friendly_units_do_not_negate_ezoc(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 406);
    t_place(s, "GERARD", 606);
    t_place(s, "VANDAMME", 407);
    t_place(s, "EXELMANS", 607);
    int z = t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 507); /* the only way out */
    OK(N20_FRENCH, "declare REILLE,DERLON,GERARD -> ZIETEN ; VANDAMME,EXELMANS -> PIRCH");
    uint32_t r[] = {2}; /* 9 vs 3: column +4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    NO(N20_ALLIED, "retreat ZIETEN 0507", "9.7.6");
    assert_int_equal(d.npurposes, 1);
    uint32_t h[] = {4};
    t_dice_script(&d, 1, h);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508");
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 1);
    assert_int_equal(s->u[z].hex, n20_hex(508));
    assert_int_equal(s->u[z].routed, 0);
    free(s);
}

/* [9.7.6] through a friendly-occupied hex only if no vacant hex (even in an EZOC) is available */
static void test_n20_9_7_6_through_friendly_only_if_no_other_route(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 407);
    t_place(s, "GERARD", 607);
    int z = t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 507);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; DERLON,GERARD -> PIRCH");
    uint32_t r[] = {3}; /* 4 vs 3 = +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    NO(N20_ALLIED, "retreat ZIETEN 0507 0508", "9.7.6");
    NO(N20_ALLIED, "retreat ZIETEN 0406", "9.7.7"); /* in an EZOC too, but not closer to a LOC */
    uint32_t h[] = {6};
    t_dice_script(&d, 1, h);
    OK(N20_ALLIED, "retreat ZIETEN 0606");
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 1);
    assert_int_equal(s->u[z].hex, n20_hex(606));
    free(s);
}

/* [9.7.5] crossing a bridge into an EZOC hex: one roll per hazard, the river first */
static void test_n20_9_7_5_bridge_and_ezoc_two_rolls(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 2108);
    t_place(s, "DERLON", 2009);
    t_place(s, "PAJOL", 2111); /* its ZOC covers 2110 across the bridge */
    int th = t_place(s, "THIELMANN", 2109);
    OK(N20_FRENCH, "declare REILLE,DERLON -> THIELMANN");
    uint32_t r[] = {2}; /* 7 vs 2+1 = +4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    NO(N20_ALLIED, "retreat THIELMANN 2209", "9.7.7"); /* both in an EZOC; 2110 is the closer */
    uint32_t h[] = {5, 6};
    t_dice_script(&d, 2, h);
    OK(N20_ALLIED, "retreat THIELMANN 2110");
    assert_int_equal(d.npurposes, 3);
    assert_string_equal(d.purposes[1], "9.7.5 hazardous retreat (river)");
    assert_string_equal(d.purposes[2], "9.7.4 hazardous retreat (EZOC)");
    assert_int_equal(s->u[th].hex, n20_hex(2110));
    assert_int_equal(s->u[th].where, N20_U_MAP);
    free(s);
}

/* [9.7.7] each hex must bring the unit closer to a LOC hex of its own army, any of them; the
 * owner chooses among equally good hexes */
static void test_n20_9_7_7_each_army_retreats_to_its_own_loc(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506); /* Prussian: LOC 0812, 2512 */
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ZIETEN 0507")); /* closer to 0812 */
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ZIETEN 0607")); /* closer to both */
    assert_false(t_legal_has(s, N20_ALLIED, "retreat ZIETEN 0407"));
    NO(N20_ALLIED, "retreat ZIETEN 0407", "9.7.7");
    OK(N20_ALLIED, "retreat ZIETEN 0507");
    AT("ZIETEN", 507);
    free(s);

    /* the same ground for an Anglo-Dutch unit: 0507 is no nearer 2502 or 2505 */
    t_dice_init(&d, 1);
    s = t_pos(&d, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 505);
    t_place(s, "ORANGE", 506);
    OK(N20_FRENCH, "declare REILLE -> ORANGE");
    uint32_t r2[] = {4}; /* 4 vs 4 = 0, die 4: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r2), 0);
    assert_false(t_legal_has(s, N20_ALLIED, "retreat ORANGE 0507"));
    NO(N20_ALLIED, "retreat ORANGE 0507", "9.7.7");
    OK(N20_ALLIED, "retreat ORANGE 0607");
    AT("ORANGE", 607);
    free(s);
}

/* [9.6] EX: Artillery counts its printed strength (2), not its doubled attack (4): with the
 * 1-strength cavalry it cannot cover the Routed defender's printed 3, so both Break */
static void test_n20_9_6_ex_artillery_counts_printed_strength(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    int a = t_place(s, "ARTILLERY", 505);
    int p = t_place(s, "PAJOL", 607);
    int z = t_place(s, "ZIETEN", 506);
    s->u[z].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "declare ARTILLERY,PAJOL -> ZIETEN");
    uint32_t r[] = {1}; /* 4 + 1 vs 2 = +3, die 1: EX */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "5 vs 2 (terrain +0), differential +3, column +3, die 1: EX"));
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    assert_int_equal(s->u[a].where, N20_U_BROKEN);
    assert_int_equal(s->u[p].where, N20_U_BROKEN);
    assert_int_equal(d.npurposes, 1);
    free(s);
}

/* [9.7.2.2] [9.6.2.1] from a Fortified hex a rout of 1 may be held in place: the unit is still
 * Routed */
static void test_n20_9_7_2_2_fortified_rout_held_still_routed(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    int o = t_place(s, "ORANGE", 1802);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {5, 2}; /* +1, die 5: DR; rout 2 - 1 = 1 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "ORANGE routs 1 hex(es) (roll 2)"));
    OK(N20_ALLIED, "retreat ORANGE");
    AT("ORANGE", 1802);
    assert_int_equal(s->u[o].routed, 1 + N20_ALLIED);
    assert_int_equal(n20_unit_at(s, n20_hex(1802)), o); /* nothing to advance into */
    free(s);
}

/* [9.7.8] a retreat that ends exactly on a LOC hex at its full distance does not Break */
static void test_n20_9_7_8_loc_reached_at_full_distance(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED);
    int g = t_place(s, "GERARD", 205);
    t_place(s, "ZIETEN", 305);
    t_place(s, "PIRCH", 304);
    OK(N20_ALLIED, "declare ZIETEN,PIRCH -> GERARD");
    uint32_t r[] = {2}; /* 6 vs 2 = +4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    OK(N20_FRENCH, "retreat GERARD 0105");
    assert_int_equal(s->u[g].where, N20_U_MAP);
    AT("GERARD", 105);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

/* ---- [9.8] advance after combat ------------------------------------------------------- */

/* [9.8.1] the advance is decided at once: after "end" the chance is lost */
static void test_n20_9_8_1_advance_decision_is_immediate(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "GERARD", 510);
    t_place(s, "PIRCH", 511);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN ; GERARD -> PIRCH");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    OK(N20_ALLIED, "retreat ZIETEN 0607");
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 0506"));
    OK(N20_FRENCH, "end");
    assert_int_equal(s->phase, N20_PH_BATTLES);
    assert_false(t_legal_has(s, N20_FRENCH, "advance REILLE 0506"));
    NO(N20_FRENCH, "advance REILLE 0506", "9.0");
    AT("REILLE", 505);
    free(s);
}

/* [9.8.2] only units that took part in the battle may advance */
static void test_n20_9_8_2_only_units_of_the_battle_advance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 2108);
    t_place(s, "GERARD", 2110); /* across the Wavre bridge: not obliged [9.4.3], not attacking */
    int th = t_place(s, "THIELMANN", 2109);
    OK(N20_FRENCH, "declare REILLE -> THIELMANN");
    uint32_t r[] = {3}; /* 4 vs 2+1 = +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    uint32_t h[] = {6};
    t_dice_script(&d, 1, h);
    OK(N20_ALLIED, "retreat THIELMANN 2009");
    assert_int_equal(s->u[th].hex, n20_hex(2009));
    assert_false(t_legal_has(s, N20_FRENCH, "advance GERARD 2109"));
    NO(N20_FRENCH, "advance GERARD 2109", "9.8.2");
    assert_non_null(strstr(err.message, "not a victorious unit of this battle"));
    OK(N20_FRENCH, "advance REILLE 2109");
    AT("REILLE", 2109);
    free(s);
}

/* [9.8.2] (R-9.8-multi) several defeated hexes: each takes one advancing unit; [9.7] several
 * units retreat one after the other, in the order of the declaration */
static void test_n20_9_8_2_each_vacated_hex_takes_one_unit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    int z = t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 606); /* marsh */
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN,PIRCH");
    uint32_t r[] = {5}; /* 6 vs 6+1 = -1, die 5: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(n20_retreat_current(s), z);
    OK(N20_ALLIED, "retreat ZIETEN 0407");
    assert_int_equal(n20_retreat_current(s), p);
    OK(N20_ALLIED, "retreat PIRCH 0705");
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 0606"));
    OK(N20_FRENCH, "advance REILLE 0506");
    NO(N20_FRENCH, "advance GERARD 0506", "9.8.2"); /* taken */
    OK(N20_FRENCH, "advance GERARD 0606");
    AT("REILLE", 506);
    AT("GERARD", 606);
    assert_int_equal(s->phasing, N20_ALLIED); /* both hexes filled: the battle and the phase end */
    free(s);
}

/* [9.8.5] a victorious defending Cavalry unit pursues along the attacker's Retreat Path */
static void test_n20_9_8_5_defending_cavalry_pursues_the_attacker(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    int ux = t_place(s, "UXBRIDGE", 506);
    OK(N20_FRENCH, "declare GERARD -> UXBRIDGE");
    uint32_t r[] = {1, 2}; /* 2 vs 2 = 0, die 1: AR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    uint32_t c[] = {6}; /* controlled advance 6 - 1: Kept */
    t_dice_script(&d, 1, c);
    OK(N20_FRENCH, "retreat GERARD 0405 0305");
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    NO(N20_ALLIED, "advance UXBRIDGE 0505 0405 0305", "9.8.5"); /* GERARD stands at the end */
    OK(N20_ALLIED, "advance UXBRIDGE 0505 0405");
    assert_int_equal(s->u[ux].hex, n20_hex(405));
    free(s);
}

/* [9.8.3] victorious Cavalry: a roll on the Controlled Advance Table; Kept leaves the choice */
static void test_n20_9_8_3_controlled_advance_kept(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "MILHAUD", 406);
    t_place(s, "THIELMANN", 506);
    OK(N20_FRENCH, "declare REILLE,MILHAUD -> THIELMANN");
    uint32_t r[] = {6, 4}; /* 5 vs 2 = +3, die 6: DB; controlled advance 4: Kept */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_int_equal(d.npurposes, 2);
    assert_string_equal(d.purposes[1], "9.8.3 controlled advance");
    assert_true(t_events_has(&ev, "[9.8.3] Controlled Advance roll 4: control Kept"));
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    OK(N20_FRENCH, "end");
    AT("MILHAUD", 406);
    AT("REILLE", 505);
    free(s);
}

/* [9.8.3] heavy Cavalry (strength 2 or more): -1 on the Controlled Advance roll */
static void test_n20_9_8_3_heavy_cavalry_minus_one(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "KELLERMANN", 406);
    t_place(s, "THIELMANN", 506);
    OK(N20_FRENCH, "declare REILLE,KELLERMANN -> THIELMANN");
    uint32_t r[] = {6, 4}; /* 6 vs 2 = +4, die 6: DB; controlled advance 4 - 1 = 3: Lost */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "Controlled Advance roll 4 (-1 heavy): control Lost"));
    assert_false(t_legal_has(s, N20_FRENCH, "end"));
    assert_false(t_legal_has(s, N20_FRENCH, "advance REILLE 0506"));
    NO(N20_FRENCH, "end", "9.8.3");
    NO(N20_FRENCH, "advance REILLE 0506", "9.8.3");
    OK(N20_FRENCH, "advance KELLERMANN 0506");
    AT("KELLERMANN", 506);
    free(s);
}

/* [9.8.3] a victorious defending Cavalry unit rolls too (the defender advances after AW) */
static void test_n20_9_8_3_defending_cavalry_rolls(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    OK(N20_FRENCH, "declare GERARD -> UXBRIDGE");
    uint32_t r[] = {2}; /* 2 vs 2 = 0, die 2: AW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    uint32_t c[] = {6};
    t_dice_script(&d, 1, c);
    OK(N20_FRENCH, "retreat GERARD 0405");
    assert_string_equal(d.purposes[d.npurposes - 1], "9.8.3 controlled advance");
    assert_true(t_events_has(&ev, "Controlled Advance roll 6 (-1 heavy): control Kept"));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    OK(N20_ALLIED, "advance UXBRIDGE 0505");
    AT("UXBRIDGE", 505);
    free(s);
}

/* [9.8.3] (R-9.8.3-roll) no Controlled Advance roll when no victorious unit can advance (the
 * defender held its Fortified hex [9.7.2.2]); [12.3.2] (R-12.3.2-held) the victorious Guard
 * costs nothing */
static void test_n20_9_8_3_no_roll_when_nobody_can_advance(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "GARDE", 1701);
    t_place(s, "KELLERMANN", 1801);
    int o = t_place(s, "ORANGE", 1802);
    OK(N20_FRENCH, "declare GARDE,KELLERMANN -> ORANGE");
    uint32_t r[] = {5}; /* 5 vs 4+2 = -1, die 5: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "5 vs 6 (terrain +2), differential -1, column -1, die 5: DW"));
    OK(N20_ALLIED, "retreat ORANGE");
    assert_int_equal(s->u[o].hex, n20_hex(1802));
    assert_int_equal(t_dice_count(&d, "9.8.3 controlled advance"), 0);
    assert_int_equal(d.npurposes, 1);
    assert_false(t_events_has(&ev, "La Garde recule"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->phasing, N20_ALLIED); /* the battle and the Combat Phase are over */
    free(s);
}

/* [9.8.4] advancing across a bridged Major River is allowed */
static void test_n20_9_8_4_advance_across_a_bridge(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "GERARD", 2110);
    int th = t_place(s, "THIELMANN", 2109);
    OK(N20_FRENCH, "declare GERARD -> THIELMANN");
    uint32_t r[] = {5}; /* 2 vs 2+1 = -1, die 5: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    NO(N20_ALLIED, "retreat THIELMANN 2108", "9.7.7");
    OK(N20_ALLIED, "retreat THIELMANN 2009");
    assert_int_equal(s->u[th].hex, n20_hex(2009));
    assert_int_equal(d.npurposes, 1); /* no hazard */
    OK(N20_FRENCH, "advance GERARD 2109");
    AT("GERARD", 2109);
    free(s);
}

/* [9.8.5] Cavalry pursues along the Retreat Path only, up to its printed Movement Allowance;
 * [9.8.4] it ignores enemy ZOCs; then one other unit may advance into the vacated hex */
static void test_n20_9_8_5_pursuit_along_path_up_to_allowance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int m = t_place(s, "MILHAUD", 406);
    int z = t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 608); /* its ZOC covers 0507 and 0508 */
    OK(N20_FRENCH, "declare REILLE,MILHAUD -> ZIETEN");
    uint32_t r[] = {4, 4}; /* 5 vs 3 = +2, die 4: DR; rout 4 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    uint32_t c[] = {5};
    t_dice_script(&d, 1, c);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508 0509 0510");
    assert_int_equal(s->u[z].hex, n20_hex(510));
    assert_int_equal(s->morale[N20_ALLIED], 5); /* [12.1] 4 hexes, beyond its allowance of 2 */
    assert_true(t_events_has(&ev, "control Kept"));
    NO(N20_FRENCH, "advance MILHAUD 0506 0507 0508 0509", "9.8.5");
    NO(N20_FRENCH, "advance MILHAUD 0506 0507 0408", "9.8.5");
    assert_true(t_legal_has(s, N20_FRENCH, "advance MILHAUD 0506 0507 0508"));
    assert_false(t_legal_has(s, N20_FRENCH, "advance MILHAUD 0506 0507 0508 0509"));
    OK(N20_FRENCH, "advance MILHAUD 0506 0507 0508");
    assert_int_equal(s->u[m].hex, n20_hex(508));
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    OK(N20_FRENCH, "advance REILLE 0506");
    AT("REILLE", 506);
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

/* [9.8.5] the Retreat Path of a unit that Breaks ends in the hex where it Broke */
static void test_n20_9_8_5_path_ends_where_the_unit_broke(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 407);
    int k = t_place(s, "KELLERMANN", 607);
    t_place(s, "MILHAUD", 509);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,DERLON,KELLERMANN -> ZIETEN");
    uint32_t r[] = {4, 2}; /* column +4, die 4: DR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    uint32_t h[] = {5, 3, 6}; /* passes at 0507, Breaks at 0508; controlled advance 6 - 1: Kept */
    t_dice_script(&d, 3, h);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508");
    assert_true(t_events_has(&ev, "ZIETEN is Broken at 0508"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance KELLERMANN 0506 0507 0508"));
    OK(N20_FRENCH, "advance KELLERMANN 0506 0507 0508");
    assert_int_equal(s->u[k].hex, n20_hex(508));
    OK(N20_FRENCH, "advance DERLON 0506");
    free(s);
}

/* [9.8.5] a Retreat Path that went through a friendly unit ends before it */
static void test_n20_9_8_5_path_ends_before_a_friendly_unit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 406);
    t_place(s, "KELLERMANN", 606);
    t_place(s, "VANDAMME", 407);
    t_place(s, "EXELMANS", 607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 507);
    OK(N20_FRENCH, "declare REILLE,DERLON,KELLERMANN -> ZIETEN ; VANDAMME,EXELMANS -> PIRCH");
    uint32_t r[] = {2}; /* 9 vs 3: column +4, die 2: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    uint32_t h[] = {4, 6}; /* the EZOC at 0507; controlled advance 6 - 1: Kept */
    t_dice_script(&d, 2, h);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508");
    AT("ZIETEN", 508);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    NO(N20_FRENCH, "advance KELLERMANN 0506 0507", "9.8.5");
    OK(N20_FRENCH, "advance KELLERMANN 0506");
    AT("KELLERMANN", 506);
    free(s);
}

/* [9.8.5] only the first unit into the vacated hex may pursue; [9.8.6] a unit that has advanced
 * cannot advance again */
static void test_n20_9_8_5_only_first_unit_pursues(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "MILHAUD", 406);
    t_place(s, "EXELMANS", 407);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,MILHAUD,EXELMANS -> ZIETEN");
    uint32_t r[] = {4, 2}; /* 6 vs 3 = +3, die 4: DR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    uint32_t c[] = {6};
    t_dice_script(&d, 1, c);
    OK(N20_ALLIED, "retreat ZIETEN 0607 0608");
    OK(N20_FRENCH, "advance MILHAUD 0506 0607");
    AT("MILHAUD", 607);
    assert_true(s->u[U("MILHAUD")].flags & N20_UF_EXHAUSTED);
    NO(N20_FRENCH, "advance MILHAUD 0506", "9.8.6");
    NO(N20_FRENCH, "advance EXELMANS 0506 0607", "9.8.5");
    assert_false(t_legal_has(s, N20_FRENCH, "advance EXELMANS 0506 0607"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance EXELMANS 0506"));
    OK(N20_FRENCH, "advance EXELMANS 0506");
    AT("EXELMANS", 506);
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

/* [9.8.6] an advance next to an enemy unit outside every battle brings no new battle */
static void test_n20_9_8_6_no_new_battle_after_advancing(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 407); /* adjacent to 0506 only */
    OK(N20_FRENCH, "declare REILLE,GERARD -> ZIETEN");
    uint32_t r[] = {6}; /* +3, die 6: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    OK(N20_FRENCH, "advance GERARD 0506");
    assert_true(n20_adjacent_units(s, U("GERARD"), p));
    assert_int_equal(s->phasing, N20_ALLIED); /* the French Combat Phase is over */
    assert_false(t_events_has(&ev, "battle 2 declared"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    free(s);
}

/* ---- [12.3] the Guard in battle ---------------------------------------------------------- */

/* [12.3.1] no Morale Point for a Guard advancing after combat; [12.3.2] victorious: no loss */
static void test_n20_12_3_1_guard_advances_free(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 407); /* the advance ends next to it: still no cost */
    OK(N20_FRENCH, "declare GARDE,REILLE -> ZIETEN");
    uint32_t r[] = {5}; /* 7 vs 3 = +4, die 5: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    OK(N20_FRENCH, "advance GARDE 0506");
    AT("GARDE", 506);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_false(t_events_has(&ev, "La Garde recule"));
    free(s);
}

/* [12.3.2] a victorious Guard need not actually advance */
static void test_n20_12_3_2_victorious_guard_need_not_advance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 607);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare GARDE,REILLE -> ZIETEN");
    uint32_t r[] = {5}; /* +4, die 5: DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    OK(N20_FRENCH, "end");
    AT("GARDE", 505);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_false(t_events_has(&ev, "La Garde recule"));
    free(s);
}

/* [12.3.2] [9.6] EX: a Guard broken in an Exchange costs the extra Morale Point; one that
 * survives it does not */
static n20_state *s_guard_ex(t_dice *d, t_events *ev) {
    n20_state *s = t_pos(d, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "GARDE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "THIELMANN", 506);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE,GERARD -> THIELMANN", d, ev, &err), 0);
    uint32_t r[] = {1}; /* 5 vs 2 = +3, die 1: EX */
    assert_int_equal(t_fight(s, d, ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_EX_LOSSES);
    return s;
}

static void test_n20_12_3_2_guard_broken_in_exchange(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_guard_ex(&d, &ev);
    OK(N20_FRENCH, "losses GARDE");
    assert_int_equal(s->phase, N20_PH_ADVANCE); /* GERARD may advance; the battle ends after */
    OK(N20_FRENCH, "end");
    assert_true(t_events_has(&ev, "La Garde recule! (GARDE)"));
    assert_int_equal(s->morale[N20_FRENCH], 5); /* +1 THIELMANN, -1 GARDE, -1 recule */
    assert_int_equal(s->morale[N20_ALLIED], 6);
    free(s);

    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = s_guard_ex(&d, &ev2);
    assert_int_equal(t_order(s, N20_FRENCH, "losses GERARD", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev2, &err), 0);
    assert_false(t_events_has(&ev2, "La Garde recule"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_9_2_declare_all_battles_first),
        cmocka_unit_test(test_n20_9_2_declared_event_names_attackers_and_defenders),
        cmocka_unit_test(test_n20_9_0_battles_resolved_in_any_order),
        cmocka_unit_test(test_n20_9_0_step_h_result_applied_before_next_battle),
        cmocka_unit_test(test_n20_9_0_step_f_column_clamped),
        cmocka_unit_test(test_n20_9_2_1_other_enemy_left_to_another_unit),
        cmocka_unit_test(test_n20_9_1_2_unit_attacks_only_once),
        cmocka_unit_test(test_n20_9_1_voluntary_attack_obliges_all_in_its_zoc),
        cmocka_unit_test(test_n20_9_4_3_fortified_attacker_may_decline),
        cmocka_unit_test(test_n20_9_2_2_multi_hex_battle_needs_all_adjacent),
        cmocka_unit_test(test_n20_9_2_2_multi_hex_battle_all_adjacent_accepted),
        cmocka_unit_test(test_n20_9_2_no_attack_across_major_river),
        cmocka_unit_test(test_n20_9_6_2_routed_unit_attacks_at_half_without_reserves),
        cmocka_unit_test(test_n20_9_6_2_reserve_allowed_unless_all_routed),
        cmocka_unit_test(test_n20_9_6_2_routed_defender),
        cmocka_unit_test(test_n20_9_3_artillery_defends_at_printed_strength),
        cmocka_unit_test(test_n20_9_3_artillery_not_doubled_in_downpour),
        cmocka_unit_test(test_n20_9_3_artillery_never_advances),
        cmocka_unit_test(test_n20_9_4_minor_river_hexside_benefit),
        cmocka_unit_test(test_n20_9_4_1_single_benefit_not_cumulative),
        cmocka_unit_test(test_n20_9_4_3_attacker_terrain_no_effect),
        cmocka_unit_test(test_n20_9_4_3_town_next_to_town_not_obliged),
        cmocka_unit_test(test_n20_9_4_3_bridge_not_obliged_and_single_benefit),
        cmocka_unit_test(test_n20_12_2_3_reserves_attacker_then_defender),
        cmocka_unit_test(test_n20_12_2_3_last_morale_point_loses),
        cmocka_unit_test(test_n20_9_5_cap_after_reserves),
        cmocka_unit_test(test_n20_9_6_ab_attacker_breaks),
        cmocka_unit_test(test_n20_9_6_ar_attacker_routed),
        cmocka_unit_test(test_n20_9_6_aw_attacker_withdraws),
        cmocka_unit_test(test_n20_9_6_n_engaged),
        cmocka_unit_test(test_n20_9_6_dw_defender_withdraws),
        cmocka_unit_test(test_n20_9_6_db_defender_breaks),
        cmocka_unit_test(test_n20_9_6_ex_cannot_make_change),
        cmocka_unit_test(test_n20_9_6_ex_may_break_stronger_unit),
        cmocka_unit_test(test_n20_9_6_ex_printed_strengths_only),
        cmocka_unit_test(test_n20_9_6_ex_lone_attacker_breaks_without_decision),
        cmocka_unit_test(test_n20_9_6_ex_defender_morale_zero),
        cmocka_unit_test(test_n20_9_6_2_routed_unit_moves_only_toward_loc),
        cmocka_unit_test(test_n20_9_6_2_routed_cavalry_cannot_countercharge),
        cmocka_unit_test(test_n20_9_6_2_routed_unit_routs_again),
        cmocka_unit_test(test_n20_9_6_2_1_elite_routs_two_hexes_fewer),
        cmocka_unit_test(test_n20_9_6_2_1_fortified_routs_one_fewer),
        cmocka_unit_test(test_n20_9_6_2_1_elite_and_fortified_cumulative),
        cmocka_unit_test(test_n20_9_6_2_2_no_recovery_in_ezoc),
        cmocka_unit_test(test_n20_9_7_1_retreat_through_forest),
        cmocka_unit_test(test_n20_9_7_2_surrounded_unit_breaks),
        cmocka_unit_test(test_n20_9_7_2_1_retreat_restrictions_and_ford),
        cmocka_unit_test(test_n20_9_7_2_2_fortified_may_retreat_in_full),
        cmocka_unit_test(test_n20_9_7_4_hazardous_retreat_breaks_on_1_to_3),
        cmocka_unit_test(test_n20_9_7_4_friendly_units_do_not_negate_ezoc),
        cmocka_unit_test(test_n20_9_7_6_through_friendly_only_if_no_other_route),
        cmocka_unit_test(test_n20_9_7_5_bridge_and_ezoc_two_rolls),
        cmocka_unit_test(test_n20_9_7_7_each_army_retreats_to_its_own_loc),
        cmocka_unit_test(test_n20_9_8_1_advance_decision_is_immediate),
        cmocka_unit_test(test_n20_9_8_2_only_units_of_the_battle_advance),
        cmocka_unit_test(test_n20_9_8_3_controlled_advance_kept),
        cmocka_unit_test(test_n20_9_8_3_heavy_cavalry_minus_one),
        cmocka_unit_test(test_n20_9_8_3_defending_cavalry_rolls),
        cmocka_unit_test(test_n20_9_8_4_advance_across_a_bridge),
        cmocka_unit_test(test_n20_9_8_5_pursuit_along_path_up_to_allowance),
        cmocka_unit_test(test_n20_9_8_5_path_ends_where_the_unit_broke),
        cmocka_unit_test(test_n20_9_8_5_path_ends_before_a_friendly_unit),
        cmocka_unit_test(test_n20_9_8_5_only_first_unit_pursues),
        cmocka_unit_test(test_n20_9_8_6_no_new_battle_after_advancing),
        cmocka_unit_test(test_n20_12_3_1_guard_advances_free),
        cmocka_unit_test(test_n20_12_3_2_victorious_guard_need_not_advance),
        cmocka_unit_test(test_n20_12_3_2_guard_broken_in_exchange),
        cmocka_unit_test(test_n20_9_6_ex_artillery_counts_printed_strength),
        cmocka_unit_test(test_n20_9_7_2_2_fortified_rout_held_still_routed),
        cmocka_unit_test(test_n20_9_7_8_loc_reached_at_full_distance),
        cmocka_unit_test(test_n20_9_6_2_routed_unit_cannot_advance),
        cmocka_unit_test(test_n20_9_8_3_no_roll_when_nobody_can_advance),
        cmocka_unit_test(test_n20_9_6_2_routed_halving_after_other_modifiers),
        cmocka_unit_test(test_n20_9_8_2_each_vacated_hex_takes_one_unit),
        cmocka_unit_test(test_n20_9_8_5_defending_cavalry_pursues_the_attacker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
