/*
 * test_n20_v3_edition.c - the series rules that differ between the v3.0 edition (Danube 20) and
 * the v4.0 edition (Waterloo 20), docs/n20-editions.md sections 1 and 5. Each test plays the same
 * position under both editions (t_edition: the Waterloo 20 map and units, the `edition` record
 * flipped) and asserts each edition's rule, so that it fails if either edition's rule is swapped.
 * Rule numbers in the names are the v3 ones; the rejections each edition cites are asserted.
 *
 * CRT (scenario data, the same table in both books), differential columns -2 .. +4:
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

static const int EDS[2] = {N20_ED_V4, N20_ED_V3};

static const char *s_kind(const n20_state *s) {
    static brt_pending p;
    n20_pending(s, &p);
    return p.kind;
}

/* a position (t_pos) played under edition ed; the locals of T_SETUP */
#define ED_SETUP(ed, turn, phasing, phase) \
    t_dice d;                              \
    t_dice_init(&d, 1);                    \
    t_events ev = {0};                     \
    brt_reject err;                        \
    (void)err;                             \
    (void)ev;                              \
    n20_state *s = t_pos(&d, turn, phasing, phase); \
    n20_scenario *sc = t_edition(s, ed);   \
    (void)sc

/* the rule number an edition cites: v4 first, then v3 */
#define ED_RULE(ed, v4, v3) ((ed) == N20_ED_V3 ? (v3) : (v4))

/* ---- [7.0] v3: no ZOC across a Major River, even at bridges and fords ------------------------ */

/* v3 [7.0] 4th bullet: ZOCs never extend across a Major River "(even at bridges and fords)" and
 * the units on either side "are not considered adjacent": VON HOBE, across the Wavre bridge from
 * EXELMANS, is in no enemy ZOC, has no adjacent enemy to react to, and the French are not obliged
 * to attack (but may: [9.4.3]). v4 [7.1]: the bridged hexside carries the ZOC for the Reaction
 * Phase: VON HOBE is Pinned by the enemy Cavalry across the bridge [8.2.2] and may Countercharge. */
static void s_7_0_bridge(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    int vh = t_place(s, "VONHOBE", 2109);
    int ex = t_place(s, "EXELMANS", 2110); /* across the Wavre bridge (major river, bridge) */
    assert_int_equal(n20_exerts_zoc(s, ex, n20_hex(2109)), ed == N20_ED_V4);
    assert_int_equal(n20_in_ezoc(s, n20_hex(2109), N20_FRENCH, 0), ed == N20_ED_V4);
    assert_int_equal(n20_reaction_eligible(s, vh), ed == N20_ED_V4);
    OK(N20_FRENCH, "end");
    if (ed == N20_ED_V4) {
        assert_string_equal(s_kind(s), "reaction");
        NO(N20_ALLIED, "disengage VONHOBE 2108", "8.2.2");
        assert_true(t_legal_has(s, N20_ALLIED, "countercharge VONHOBE -> EXELMANS"));
        OK(N20_ALLIED, "end");
    }
    assert_string_equal(s_kind(s), "declare-battles"); /* v3: no Reaction Phase decision at all */
    t_order(s, N20_FRENCH, "declare EXELMANS -> VONHOBE", &d, NULL, &err); /* may attack across */
    assert_int_equal(s->nbattles, 1);
    free(s);
    /* not obliged to attack across, in either edition */
    t_dice d2;
    t_dice_init(&d2, 1);
    s = t_pos(&d2, 9, N20_FRENCH, N20_PH_DECLARE);
    t_edition(s, ed);
    t_place(s, "VONHOBE", 2109);
    t_place(s, "EXELMANS", 2110);
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d2, NULL, &err), 0);
    free(s);
}

/* the same bridge with GERARD next to VON HOBE on its own bank: VON HOBE reacts in both editions,
 * but v3 refuses a Countercharge across the bridge ([8.0] adjacent; R-dn-7.0-adjacent) */
static void s_7_0_bridge_countercharge(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    int vh = t_place(s, "VONHOBE", 2109);
    t_place(s, "EXELMANS", 2110);
    t_place(s, "GERARD", 2108);
    assert_true(n20_reaction_eligible(s, vh));
    OK(N20_FRENCH, "end");
    assert_string_equal(s_kind(s), "reaction");
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge VONHOBE -> GERARD"));
    assert_int_equal(t_legal_has(s, N20_ALLIED, "countercharge VONHOBE -> EXELMANS"), ed == N20_ED_V4);
    if (ed == N20_ED_V3) NO(N20_ALLIED, "countercharge VONHOBE -> EXELMANS", "8.1");
    else OK(N20_ALLIED, "countercharge VONHOBE -> EXELMANS");
    free(s);
}

static void test_n20_v3_7_0_no_zoc_across_bridged_major_river(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) {
        s_7_0_bridge(EDS[i]);
        s_7_0_bridge_countercharge(EDS[i]);
    }
}

/* The example of v3 [9.4.2] (Jena): the single French Infantry unit must attack the Prussian
 * Cavalry and may attack the Prussian Infantry across the bridged Major River (not obliged: no ZOC
 * across [9.4.3]); attacking both, the best single benefit (Town or Bridge, +1) applies: 4 vs 4,
 * the 0 column. REILLE (4) in 2110 stands for the French unit, THIELMANN (2) in Wavre (Town,
 * across the bridge) and VON HOBE (1, Clear) for the Prussians. */
static void s_jena(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 2110);
    int th = t_place(s, "THIELMANN", 2109);
    t_place(s, "VONHOBE", 2111);
    assert_int_equal(s->sc->terrain[n20_hex(2109)], N20_T_TOWN);
    assert_int_equal(n20_exerts_zoc(s, th, n20_hex(2110)), ed == N20_ED_V4); /* v4: case by case */
    NO(N20_FRENCH, "declare", "9.1"); /* the Cavalry must be attacked */
    OK(N20_FRENCH, "declare REILLE -> VONHOBE,THIELMANN");
    uint32_t r[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "4 vs 4 (terrain +1), differential +0, column +0, die 3: N"));
    free(s);
}

static void test_n20_v3_9_4_2_jena_example(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_jena(EDS[i]);
}

/* ---- [8.3.4] v3: Disengagement is not a Retreat; no Maintaining Contact ----------------------- */

/* v3 [8.3.4]: "the enemy cannot Advance After Combat to pursue a unit that uses Disengagement" and
 * there is no In Contact marker: after UXBRIDGE disengages, the Reaction Phase goes on. v4 [8.2.4]:
 * GERARD may Maintain Contact into the vacated hex. The rejection of a Disengagement into an EZOC
 * cites [8.2.3] in v4 and [8.3.3] (the same Procedure) in v3. */
static void s_8_3_4(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    int g = t_place(s, "GERARD", 505);
    int ux = t_place(s, "UXBRIDGE", 506);
    OK(N20_FRENCH, "end");
    assert_int_equal(s->phase, N20_PH_REACTION);
    NO(N20_ALLIED, "disengage UXBRIDGE 0606", ED_RULE(ed, "8.2.3", "8.3.3")); /* into an EZOC */
    assert_non_null(strstr(err.message, ED_RULE(ed, "[8.2.3]", "[8.3.3]")));
    OK(N20_ALLIED, "disengage UXBRIDGE 0507");
    assert_int_equal(s->u[ux].hex, n20_hex(507));
    assert_true(t_events_has(&ev, ED_RULE(ed, "[8.2] UXBRIDGE disengages to 0507", "[8.3] UXBRIDGE disengages to 0507")));
    if (ed == N20_ED_V4) {
        assert_int_equal(s->phase, N20_PH_CONTACT);
        OK(N20_FRENCH, "contact GERARD");
        assert_int_equal(s->u[g].hex, n20_hex(506));
    } else {
        assert_int_equal(s->phase, N20_PH_REACTION);
        assert_int_equal(n20_pending_seat(s), N20_ALLIED);
        assert_false(t_legal_has(s, N20_FRENCH, "contact GERARD"));
        assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, &ev, &err), -1);
        assert_int_equal(s->u[g].hex, n20_hex(505));
        assert_false(s->u[g].flags & N20_UF_CONTACT);
    }
    free(s);
}

static void test_n20_v3_8_3_4_disengagement_no_maintaining_contact(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_8_3_4(EDS[i]);
}

/* ---- [8.1] v3: Routed Cavalry may Countercharge ------------------------------------------- */

/* v3 [8.1] "Cavalry units may make a special Countercharge Attack", with no Routed exception (nor
 * in its Routed effects, [9.6.3]); v4 [8.1.1] Good Order Requirement refuses it. */
static void s_8_1(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "GERARD", 505);
    int u = t_place(s, "UXBRIDGE", 506);
    s->u[u].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "end");
    assert_string_equal(s_kind(s), "reaction");
    assert_int_equal(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"), ed == N20_ED_V3);
    if (ed == N20_ED_V4) {
        NO(N20_ALLIED, "countercharge UXBRIDGE -> GERARD", "8.1.1");
    } else {
        OK(N20_ALLIED, "countercharge UXBRIDGE -> GERARD");
        assert_int_equal(s->nbattles, 1);
        assert_true(s->b[0].countercharge);
    }
    free(s);
}

static void test_n20_v3_8_1_routed_cavalry_may_countercharge(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_8_1(EDS[i]);
}

/* ---- [9.8.1] v3: Fortified and Redoubt hexes: one hex fewer, no die modifier ------------------ */

/* v3 [9.8.1]: no modifier to the Rout roll in a Fortified hex; "on a Rout die roll of 1, such a
 * unit is still technically Routed ... but it may opt to 'hold its ground'". v4 [9.6.2.1]: -1,
 * so a roll of 1 is a Withdraws, no Routed! marker (test_n20_editions.c). */
static void s_9_8_1_fort(int ed) {
    ED_SETUP(ed, 18, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    int o = t_place(s, "ORANGE", 1802); /* Hougoumont, Fortified */
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {5, 1}; /* 7 vs 4+2 = +1, die 5: DR; rout roll 1 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    if (ed == N20_ED_V4)
        assert_true(t_events_has(&ev, "[9.6.2.1] ORANGE rout roll 1, modified 0: changed to Withdraws"));
    else
        assert_true(t_events_has(&ev, "[9.6] ORANGE routs 1 hex(es) (roll 1)"));
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE")); /* one fewer: none */
    assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE 1902"));
    NO(N20_ALLIED, "retreat ORANGE 1902 2002", "9.7.8");
    OK(N20_ALLIED, "retreat ORANGE");
    AT("ORANGE", 1802);
    assert_int_equal(s->u[o].routed != 0, ed == N20_ED_V3); /* v3: still technically Routed */
    free(s);
}

static void test_n20_v3_9_8_1_fortified_rout_1_routed_may_hold(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_9_8_1_fort(EDS[i]);
}

/* v3 [9.8.1]: an Elite unit in a Fortified hex subtracts two, then the Fortified effect: on 1-2
 * "the equivalent of an ENgaged result", on 3 "Routed but could choose to hold its ground". v4
 * [9.6.2.1] -2 and -1 cumulative: a 3 is modified to 0, a Withdraws (held: no marker). GARDE
 * (Elite) defends Hougoumont against an Allied attack: 4+3 = 7 vs 3+2 = 5, +2, die 6: DR. */
static void s_9_8_1_elite(int ed, uint32_t roll) {
    ED_SETUP(ed, 18, N20_ALLIED, N20_PH_DECLARE);
    int g = t_place(s, "GARDE", 1802);
    t_place(s, "ORANGE", 1701);
    t_place(s, "RESERVE", 1801);
    OK(N20_ALLIED, "declare ORANGE,RESERVE -> GARDE");
    uint32_t r[] = {6, roll};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    int held_routed = ed == N20_ED_V3 && roll == 3;
    char want[120];
    if (held_routed)
        snprintf(want, sizeof want, "[9.6] GARDE routs 1 hex(es) (roll 3)");
    else
        snprintf(want, sizeof want, "[%s] GARDE rout roll %u, modified %d: changed to Withdraws",
                 ED_RULE(ed, "9.6.2.1", "9.6.2"), roll, (int)roll - 2 - (ed == N20_ED_V4));
    assert_true(t_events_has(&ev, want));
    OK(N20_FRENCH, "retreat GARDE"); /* holds its ground */
    AT("GARDE", 1802);
    assert_int_equal(s->u[g].routed != 0, held_routed);
    free(s);
}

static void test_n20_v3_9_8_1_elite_fortified_engaged_on_2_routed_on_3(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) {
        s_9_8_1_elite(EDS[i], 2);
        s_9_8_1_elite(EDS[i], 3);
    }
}

/* ---- [9.9.2] [9.9.3] v3: Advance after Combat along the Retreat Path ---------------------- */

/* v3 [9.9.2]: "Any or all surviving victorious non-Artillery, non-Routed units" advance along the
 * Retreat Path, whatever their type, with no allowance limit. v4 [9.8.2]: Infantry a single hex. */
static void s_9_9_2(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_DECLARE);
    int r1 = t_place(s, "REILLE", 505);
    int de = t_place(s, "DERLON", 406);
    t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN");
    uint32_t r[] = {4, 3}; /* 7 vs 3 = +4, die 4: DR; rout 3 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508 0509");
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.rule, ED_RULE(ed, "9.8", "9.9")); /* the decision cites the edition's rule */
    assert_int_equal(t_legal_has(s, N20_FRENCH, "advance REILLE 0506 0507 0508"), ed == N20_ED_V3);
    if (ed == N20_ED_V4) {
        NO(N20_FRENCH, "advance REILLE 0506 0507 0508", "9.8.2");
        OK(N20_FRENCH, "advance REILLE 0506");
        assert_int_equal(s->u[r1].hex, n20_hex(506));
    } else {
        OK(N20_FRENCH, "advance REILLE 0506 0507 0508");
        assert_int_equal(s->u[r1].hex, n20_hex(508));
        NO(N20_FRENCH, "advance DERLON 0506 0507 0508", "9.9.1"); /* 0508 is occupied */
        OK(N20_FRENCH, "advance DERLON 0506 0507"); /* "any or all" */
        assert_int_equal(s->u[de].hex, n20_hex(507));
    }
    free(s);
}

static void test_n20_v3_9_9_2_infantry_advances_along_path(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_9_9_2(EDS[i]);
}

/* The worked example after v3 [9.9.4] (test_n20_combat.c test_n20_9_9_4_worked_example plays it
 * under v4), the advance under each edition: control Lost (die 3), MILHAUD must advance and goes
 * on to the second hex, where the Retreat Path ends; then "one other attacking unit ... may
 * Advance After Combat into that hex (only)" (v3 [9.9.3]): GERARD into the Forest hex. v3 refuses
 * GERARD's longer advance by [9.9.3], v4 by [9.8.2] (Infantry a single hex). */
static void s_worked_example(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_DECLARE);
    int re = t_place(s, "REILLE", 1507);
    int ge = t_place(s, "GERARD", 1508);
    int mi = t_place(s, "MILHAUD", 1607);
    t_place(s, "VANDAMME", 1709);
    int zi = t_place(s, "ZIETEN", 1608); /* Forest */
    OK(N20_FRENCH, "declare REILLE,GERARD,MILHAUD -> ZIETEN");
    OK(N20_FRENCH, "resolve 1");
    uint32_t r1[] = {6, 2};
    t_dice_script(&d, 2, r1);
    OK(N20_ALLIED, "reserve");
    assert_true(t_events_has(&ev, "7 vs 5 (terrain +1, defender reserve), differential +2, column +2, die 6: DR"));
    assert_true(t_events_has(&ev, "ZIETEN routs 2 hex(es)"));
    uint32_t r2[] = {5, 3};
    t_dice_script(&d, 2, r2);
    OK(N20_ALLIED, "retreat ZIETEN 1708 1808");
    assert_true(t_events_has(&ev, ED_RULE(ed, "[9.7.4] ZIETEN hazardous retreat roll 5: passes",
                                         "[9.8.3] ZIETEN hazardous retreat roll 5: passes")));
    assert_int_equal(s->u[zi].hex, n20_hex(1808));
    assert_true(t_events_has(&ev, ED_RULE(ed, "[9.8.3] Controlled Advance roll 3: control Lost",
                                         "[9.9.3] Controlled Advance roll 3: control Lost")));
    NO(N20_FRENCH, "advance GERARD 1608", ED_RULE(ed, "9.8.3", "9.9.3")); /* the Cavalry first */
    OK(N20_FRENCH, "advance MILHAUD 1608 1708");
    assert_int_equal(s->u[mi].hex, n20_hex(1708));
    NO(N20_FRENCH, "advance GERARD 1608 1708", ED_RULE(ed, "9.8.2", "9.9.3"));
    OK(N20_FRENCH, "advance GERARD 1608");
    assert_int_equal(s->u[ge].hex, n20_hex(1608));
    assert_int_equal(s->u[re].hex, n20_hex(1507));
    assert_int_equal(s->b[0].done, 1);
    free(s);
}

static void test_n20_v3_9_9_3_worked_example_advance(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_worked_example(EDS[i]);
}

/* ---- [12.2.1] v3: committing the Guard ----------------------------------------------------- */

/* v3 [12.2.1] Exceptions: either side at 1 Morale Point, and Advance after Combat; none for a
 * Guard already in an EZOC (v4 [12.3.1] 1st exception: "already committed"). At night GARDE
 * leaves ZIETEN's ZOC for a hex next to another enemy unit. */
static void s_12_2_1(int ed) {
    ED_SETUP(ed, 12, N20_FRENCH, N20_PH_MOVE);
    s->morale[N20_FRENCH] = 8;
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 503);
    s->u[p].routed = 1 + N20_FRENCH;
    OK(N20_FRENCH, "move GARDE 0504");
    assert_int_equal(s->morale[N20_FRENCH], ed == N20_ED_V3 ? 7 : 8);
    assert_int_equal(t_events_has(&ev, "Guard committed"), ed == N20_ED_V3);
    if (ed == N20_ED_V3)
        assert_true(t_events_has(&ev, "[12.2.1 committing the Guard] french morale 8 -> 7"));
    free(s);
}

static void test_n20_v3_12_2_1_guard_in_ezoc_pays_to_commit(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_12_2_1(EDS[i]);
}

/* ---- [13.0] v3: Lull only where both players have units on the map ---------------------- */

static void s_13_0(int ed) {
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_FRENCH);
    t_edition(s, ed);
    t_place(s, "GERARD", 107);
    s->u[n20_unit_find(s, "ZIETEN")].where = N20_U_BROKEN;
    s->night_seen = 1;
    s->morale[N20_FRENCH] = 7;
    s->morale[N20_ALLIED] = 7;
    t_top_card(s, 5);
    s->phase = N20_PH_COMBAT_END;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(t_events_has(&ev, "[13.0] Lull: the french side rests"), ed == N20_ED_V4);
    assert_int_equal(s->morale[N20_FRENCH], ed == N20_ED_V4 ? 8 : 7);
    free(s);
}

static void test_n20_v3_13_0_lull_needs_both_sides_on_map(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_13_0(EDS[i]);
}

/* ---- [16.10] v3: no Variable Weather ------------------------------------------------------ */

static void test_n20_v3_16_10_variable_weather_refused(void **st) {
    (void)st;
    n20_scenario *sc3 = malloc(sizeof *sc3);
    *sc3 = *n20_scenario_get("waterloo20-standard");
    brt_reject err;
    memset(&err, 0, sizeof err);
    assert_int_equal(n20_ed_option_check(sc3, N20_OPT_VAR_WEATHER, &err), 0); /* v4 */
    sc3->edition = N20_ED_V3;
    assert_int_equal(n20_ed_option_check(sc3, N20_OPT_VAR_WEATHER, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_string_equal(err.rule, "16.10");
    assert_int_equal(n20_ed_option_check(sc3, N20_OPT_SPECIAL_UNITS, &err), 0);
    free(sc3);
}

/* ---- citations -------------------------------------------------------------------------- */

/* a rule of table 4 of docs/n20-editions.md is cited by its v3 number in a v3 game, the same
 * text unchanged in a v4 game; a number only v4 has is left alone; a replaced number is never
 * replaced again ([9.7.2] -> [9.8], not [9.9]) */
static void test_n20_v3_citations_per_edition(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    char t[200];
    t_edition(s, N20_ED_V4);
    snprintf(t, sizeof t, "[9.7.4] a [9.7.2] b [12.3.1 committing the Guard] c [16.7.4]");
    n20_ed_cite(s, t, sizeof t);
    assert_string_equal(t, "[9.7.4] a [9.7.2] b [12.3.1 committing the Guard] c [16.7.4]");
    assert_string_equal(n20_ed_rule(s, "9.8.5"), "9.8.5");
    t_edition(s, N20_ED_V3);
    n20_ed_cite(s, t, sizeof t);
    assert_string_equal(t, "[9.8.3] a [9.8] b [12.2.1 committing the Guard] c [16.7.3]");
    assert_string_equal(n20_ed_rule(s, "9.8.5"), "9.9.1");
    assert_string_equal(n20_ed_rule(s, "8.2.2"), "8.3.2");
    assert_string_equal(n20_ed_rule(s, "6.3"), "6.3");
    assert_string_equal(n20_ed_rule(s, "9.7.8"), "9.7.8"); /* v4 only */
    assert_string_equal(n20_ed_rule(s, "9.8.1"), "9.9");   /* v3 [9.8.1] is a Retreat rule */
    assert_string_equal(n20_ed_rule(s, "9.8.6"), "9.8.6"); /* the A-E exclusive [9.8.6] */
    assert_string_equal(n20_ed_rule(s, "12.2"), "12.0");
    assert_string_equal(n20_ed_rule(s, "16.9.5"), "16.9.4");
    assert_string_equal(n20_ed_rule(s, "16.9.3"), "16.9");
    snprintf(t, sizeof t, "[0805] x [9.7.8] [7.7]");
    n20_ed_cite(s, t, sizeof t);
    assert_string_equal(t, "[0805] x [9.7.8] [7.6]");
    /* a refused order: the rule and its message */
    brt_reject err;
    s->phase = N20_PH_MOVE;
    t_place(s, "GERARD", 505);
    t_place(s, "ZIETEN", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0405", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    s->turn = 12; /* night: [7.7] v4 = [7.6] v3 */
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0606", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "7.6");
    assert_true(strncmp(err.message, "[7.6] ", 6) == 0);
    t_edition(s, N20_ED_V4);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0606", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "7.7");
    assert_true(strncmp(err.message, "[7.7] ", 6) == 0);
    free(s);
}

/* ---- [16.7] v3: Special Unit Types -------------------------------------------------------- */

/* v3 [16.7] has no Elan (v4 [16.7.1]): the attacking Elite GARDE rolls nothing in v3, and its
 * Unreliable opponent's roll cites [16.7.3] (v4 [16.7.4]). v4: Elan 5 + 1 Guard = 6, +1. */
static void s_elan(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_DECLARE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    t_place(s, "GARDE", 1605);
    int z = t_place(s, "ZIETEN", 1606);
    sc->units[z].flags |= N20_FLAG_UNRELIABLE;
    OK(N20_FRENCH, "declare GARDE -> ZIETEN");
    uint32_t v4[] = {5, 6, 3}, v3[] = {6, 3}; /* (Elan,) Unreliable 6 Steady, die 3 */
    if (ed == N20_ED_V4)
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 3, v4), 0);
    else
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, v3), 0);
    assert_int_equal(t_dice_count(&d, "16.7.1 elan"), ed == N20_ED_V4);
    assert_int_equal(t_dice_count(&d, "16.7.4 unreliable"), 1);
    assert_true(t_events_has(&ev, ED_RULE(ed, "[16.7.4] ZIETEN roll 6 (modified 6): Steady",
                                         "[16.7.3] ZIETEN roll 6 (modified 6): Steady")));
    assert_true(t_events_has(&ev, ED_RULE(ed, "4 vs 3 (terrain +0), differential +1, column +1, die 3: DW",
                                         "3 vs 3 (terrain +0), differential +0, column +0, die 3: N")));
    free(s);
}

static void test_n20_v3_16_7_no_elan(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_elan(EDS[i]);
}

/* v3 [16.7] has no Reluctant Troops (v4 [16.7.5]): a unit marked `reluctant` advances as any other
 * ([9.9.2]); in v4 it first rolls on the Controlled Advance Table, a 2 Lost. */
static void s_reluctant(int ed) {
    ED_SETUP(ed, 9, N20_ALLIED, N20_PH_DECLARE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    int o = t_place(s, "ORANGE", 1605);
    t_place(s, "GERARD", 1606);
    sc->units[o].flags |= N20_FLAG_RELUCTANT;
    OK(N20_ALLIED, "declare ORANGE -> GERARD");
    uint32_t r[] = {6, 1}; /* 4 vs 2 = +2, die 6 = DR; rout 1 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    char first[64];
    t_legal_find_sub(s, N20_FRENCH, "retreat GERARD ", first, sizeof first);
    OK(N20_FRENCH, first);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    uint32_t r2[] = {2};
    t_dice_script(&d, 1, r2);
    OK(N20_ALLIED, "advance ORANGE 1606");
    assert_int_equal(t_dice_count(&d, "16.7.5 reluctant advance"), ed == N20_ED_V4);
    if (ed == N20_ED_V4) AT("ORANGE", 1605); /* Lost: it cannot advance */
    else AT("ORANGE", 1606);
    free(s);
}

static void test_n20_v3_16_7_no_reluctant(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_reluctant(EDS[i]);
}

/* Light Infantry (v3 [16.7.1], v4 [16.7.2], the same rule): an Infantry unit marked `light` need
 * not stop in a Rugged hex: one Movement Point and on; only with option special-units. */
static void s_light_move(int ed, int opt) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    s->opts = opt ? N20_OPT_SPECIAL_UNITS : 0;
    int g = t_place(s, "GERARD", 1508); /* 2-2 */
    sc->units[g].flags |= N20_FLAG_LIGHT;
    assert_true(sc->t_stop[sc->terrain[n20_hex(1608)]]); /* Forest */
    assert_false(sc->t_stop[sc->terrain[n20_hex(1708)]]);
    if (!opt) {
        NO(N20_FRENCH, "move GERARD 1608 1708", "6.5");
    } else {
        assert_true(t_legal_has(s, N20_FRENCH, "move GERARD 1608 1708"));
        OK(N20_FRENCH, "move GERARD 1608 1708");
        AT("GERARD", 1708);
    }
    free(s);
}

static void test_n20_v3_16_7_1_light_infantry_rugged_one_mp(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) {
        s_light_move(EDS[i], 0);
        s_light_move(EDS[i], 1);
    }
}

/* Cossacks (v3 [16.7.2], v4 [16.7.3]): two Movement Points for a Rugged hex and on; with a
 * single Movement Point left the Cossack may still enter, and stops. MILHAUD (1-3) marked `light`. */
static void s_cossack_move(int ed) {
    ED_SETUP(ed, 9, N20_FRENCH, N20_PH_MOVE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    int m = t_place(s, "MILHAUD", 1607);
    sc->units[m].flags |= N20_FLAG_LIGHT;
    NO(N20_FRENCH, "move MILHAUD 1608 1708 1709", "6.2"); /* 2 + 1 + 1 */
    assert_true(t_legal_has(s, N20_FRENCH, "move MILHAUD 1608")); /* and not a stop: */
    OK(N20_FRENCH, "move MILHAUD 1608 1708"); /* 2 + 1 */
    AT("MILHAUD", 1708);
    free(s);
    /* from 1808: 1707 (1) and the Forest (2); or 1708, 1707 (2) and into the Forest with a single
     * Movement Point left, where it stops */
    t_dice d2;
    t_dice_init(&d2, 1);
    s = t_pos(&d2, 9, N20_FRENCH, N20_PH_MOVE);
    sc = t_edition(s, ed);
    s->opts = N20_OPT_SPECIAL_UNITS;
    m = t_place(s, "MILHAUD", 1808);
    sc->units[m].flags |= N20_FLAG_LIGHT;
    assert_true(t_legal_has(s, N20_FRENCH, "move MILHAUD 1707 1608")); /* 1 + 2 */
    assert_int_equal(t_legal_count_sub(s, N20_FRENCH, "1608 "), 0); /* nothing beyond the Forest */
    assert_int_equal(t_order(s, N20_FRENCH, "move MILHAUD 1708 1707 1608 1507", &d2, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move MILHAUD 1708 1707 1608", &d2, NULL, &err), 0); /* 1 + 1 + 2 */
    AT("MILHAUD", 1608);
    free(s);
}

static void test_n20_v3_16_7_2_cossacks_rugged_two_mp(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_cossack_move(EDS[i]);
}

/* Light Infantry Disengage "exactly as per Case 8.3" (v3), not from an enemy Cavalry ZOC, and
 * never Countercharge; Cossacks never Countercharge but may Disengage from enemy Cavalry ZOCs
 * (v3 [16.7.2], an exception to [8.3.2]). The rejections cite each edition's numbers. */
static void s_light_react(int ed) {
    ED_SETUP(ed, 9, N20_ALLIED, N20_PH_MOVE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    int g = t_place(s, "GERARD", 505);
    int m = t_place(s, "MILHAUD", 1607);
    t_place(s, "ZIETEN", 506);
    t_place(s, "UXBRIDGE", 1608);
    sc->units[g].flags |= N20_FLAG_LIGHT;
    sc->units[m].flags |= N20_FLAG_LIGHT;
    assert_true(n20_reaction_eligible(s, g));
    OK(N20_ALLIED, "end");
    assert_string_equal(s_kind(s), "reaction");
    NO(N20_FRENCH, "countercharge GERARD -> ZIETEN", ED_RULE(ed, "16.7.2", "16.7.1"));
    NO(N20_FRENCH, "countercharge MILHAUD -> UXBRIDGE", ED_RULE(ed, "16.7.3", "16.7.2"));
    assert_false(t_legal_has(s, N20_FRENCH, "countercharge MILHAUD -> UXBRIDGE"));
    char first[64];
    t_legal_find_sub(s, N20_FRENCH, "disengage GERARD ", first, sizeof first);
    assert_true(first[0]);
    OK(N20_FRENCH, first);
    assert_int_not_equal(s->u[g].hex, n20_hex(505));
    assert_int_equal(s->phase, ed == N20_ED_V4 ? N20_PH_CONTACT : N20_PH_REACTION);
    if (ed == N20_ED_V4) OK(N20_ALLIED, "end"); /* no Maintaining Contact */
    t_legal_find_sub(s, N20_FRENCH, "disengage MILHAUD ", first, sizeof first); /* in a Cavalry ZOC */
    assert_true(first[0]);
    OK(N20_FRENCH, first);
    assert_int_not_equal(s->u[m].hex, n20_hex(1607));
    free(s);
    /* Light Infantry in an enemy Cavalry unit's ZOC is Pinned */
    t_dice d2;
    t_dice_init(&d2, 1);
    s = t_pos(&d2, 9, N20_ALLIED, N20_PH_MOVE);
    sc = t_edition(s, ed);
    s->opts = N20_OPT_SPECIAL_UNITS;
    g = t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    sc->units[g].flags |= N20_FLAG_LIGHT;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d2, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "disengage GERARD 0504", &d2, NULL, &err), -1);
    assert_string_equal(err.rule, ED_RULE(ed, "8.2.2", "8.3.2"));
    free(s);
}

static void test_n20_v3_16_7_light_infantry_and_cossacks_react(void **st) {
    (void)st;
    for (int i = 0; i < 2; i++) s_light_react(EDS[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_v3_7_0_no_zoc_across_bridged_major_river),
        cmocka_unit_test(test_n20_v3_9_4_2_jena_example),
        cmocka_unit_test(test_n20_v3_8_3_4_disengagement_no_maintaining_contact),
        cmocka_unit_test(test_n20_v3_8_1_routed_cavalry_may_countercharge),
        cmocka_unit_test(test_n20_v3_9_8_1_fortified_rout_1_routed_may_hold),
        cmocka_unit_test(test_n20_v3_9_8_1_elite_fortified_engaged_on_2_routed_on_3),
        cmocka_unit_test(test_n20_v3_9_9_2_infantry_advances_along_path),
        cmocka_unit_test(test_n20_v3_9_9_3_worked_example_advance),
        cmocka_unit_test(test_n20_v3_12_2_1_guard_in_ezoc_pays_to_commit),
        cmocka_unit_test(test_n20_v3_13_0_lull_needs_both_sides_on_map),
        cmocka_unit_test(test_n20_v3_16_10_variable_weather_refused),
        cmocka_unit_test(test_n20_v3_citations_per_edition),
        cmocka_unit_test(test_n20_v3_16_7_no_elan),
        cmocka_unit_test(test_n20_v3_16_7_no_reluctant),
        cmocka_unit_test(test_n20_v3_16_7_1_light_infantry_rugged_one_mp),
        cmocka_unit_test(test_n20_v3_16_7_2_cossacks_rugged_two_mp),
        cmocka_unit_test(test_n20_v3_16_7_light_infantry_and_cossacks_react),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
