/*
 * test_n20_cases_10_15.c - rule cases of Waterloo 20 [10.0] Rallying, [11.0]-[11.6]
 * Reinforcements, [12.0]-[12.3.2] Army Morale, [13.0] Lulls, [14.0] Night Turns,
 * [15.0] How to Win (and the [4.0] sudden death), with the Standard Scenario set-up
 * of [3.0] they rely on. The inventory of cases is docs/n20-cases/10-15.md.
 *
 * Each test names its case and asserts the exact outcome: accepted or rejected
 * (err.rule), the events, the dice consumed (purposes), morale and the game result.
 * CRT lines used (scenario data): die 1 at +4 = EX, die 1 at -2 = AB, die 2 at +1 = N,
 * die 2 at 0 = AW, die 3 at +1 = DW, die 5 at +1 = DR, die 5 at +4 = DB. Rally Table (data):
 * 1-3 Broken, 4 Cadre?, 5-6 Rallied; variable arrival on 4-6.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* ---- helpers -------------------------------------------------------------- */

/* apply the first order legal() lists (a retreat path, typically) */
static int s_first_legal(n20_state *s, unsigned seat, t_dice *d, t_events *ev, brt_reject *err) {
    brt_buf b;
    buf_init(&b);
    n20_legal(s, seat, &b);
    size_t pos = 0, len;
    const uint8_t *item;
    int rc = -3;
    if (buf_next_item(&b, &pos, &item, &len) == 1) {
        n20_out out = {t_events_emit, ev};
        rc = n20_apply(s, seat, item, len, &d->d, &out, err);
    }
    buf_free(&b);
    return rc;
}

static void s_run(n20_state *s, t_dice *d, t_events *ev) {
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, &out);
}

static void s_broken(n20_state *s, const char *id) {
    int u = n20_unit_find(s, id);
    assert_true(u >= 0);
    s->u[u].where = N20_U_BROKEN;
    s->u[u].hex = 0;
}

static int s_where(const n20_state *s, const char *id) { return s->u[n20_unit_find(s, id)].where; }

/* the end of `side`'s Combat Phase on Night Turn `turn` (12 or 15): the caller breaks units,
 * then s_run() reaches the Night Operations Rally decision */
static n20_state *s_night_rally(t_dice *d, int turn, int side) {
    n20_state *s = t_empty(d, turn, side);
    s->phase = N20_PH_COMBAT_END;
    return s;
}

/* ---- [3.0] the Standard Scenario set-up these rules use ------------------- */

/* [3.0] reinforcement schedule: UXBRIDGE Turn 9 X, HILL Turn 10 X, BULOW Turn 10 Y;
 * FREDERICK set aside; Roeder begins Broken */
static void test_n20_3_0_reinforcement_schedule(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 2);
    n20_state *s = t_standard(&d);
    int ux = n20_unit_find(s, "UXBRIDGE"), hi = n20_unit_find(s, "HILL"), bu = n20_unit_find(s, "BULOW");
    assert_int_equal(s->u[ux].where, N20_U_REINF);
    assert_int_equal(s->u[ux].arrive, 9);
    assert_int_equal(s->sc->units[ux].area, 'X');
    assert_int_equal(s->u[hi].where, N20_U_REINF);
    assert_int_equal(s->u[hi].arrive, 10);
    assert_int_equal(s->sc->units[hi].area, 'X');
    assert_int_equal(s->u[bu].where, N20_U_REINF);
    assert_int_equal(s->u[bu].arrive, 10);
    assert_int_equal(s->sc->units[bu].area, 'Y');
    assert_int_equal(s_where(s, "FREDERICK"), N20_U_OUT);
    assert_int_equal(s_where(s, "ROEDER"), N20_U_BROKEN);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    free(s);
}

/* [3.0] optionally card #13 Just Like the Old Days begins in the Discard Pile with #12 */
static void test_n20_3_0_old_days_card_in_discard(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 2);
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    n20_state *s = n20_state_new(sc);
    assert_int_equal(n20_setup(s, &d.d, NULL, N20_OPT_OLD_DAYS, NULL), 0);
    assert_int_equal(s->ndiscard, 2);
    assert_int_equal(s->sc->cards[s->discard[0]].number, 12);
    assert_int_equal(s->sc->cards[s->discard[1]].number, 13);
    assert_int_equal(s->ndraw, 11);
    free(s);
}

/* ---- [10.0] Rallying ------------------------------------------------------ */

/* [10.0] one die per Broken unit; Rally Table (data): 1-3 stays Broken, 4 "Cadre?" (stays
 * Broken without [16.5]), 5-6 Rallied; only a rallied unit may be placed */
static void test_n20_10_0_rally_table_lines(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_FRENCH);
    s_broken(s, "DERLON");
    s_broken(s, "REILLE");
    s_broken(s, "VANDAMME");
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_RALLY);
    uint32_t r[] = {3, 4, 5};
    t_dice_script(&d, 3, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally", &d, &ev, &err), 0);
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 3);
    assert_true(t_events_has(&ev, "DERLON rally roll 3 (modified 3): stays Broken"));
    assert_true(t_events_has(&ev, "REILLE rally roll 4 (modified 4): Cadre? (16.5 not in use: stays Broken)"));
    assert_true(t_events_has(&ev, "VANDAMME rally roll 5 (modified 5): Rallied"));
    assert_int_equal(s->morale[N20_FRENCH], 8); /* nothing spent */
    assert_int_equal(s->phase, N20_PH_PLACE);
    assert_int_equal(t_order(s, N20_FRENCH, "place REILLE 0106", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "10.0");
    assert_int_equal(t_order(s, N20_FRENCH, "place VANDAMME 0105", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "VANDAMME"), N20_U_MAP);
    assert_int_equal(s_where(s, "DERLON"), N20_U_BROKEN);
    assert_int_equal(s_where(s, "REILLE"), N20_U_BROKEN);
    free(s);
}

/* [10.0] Rally Table modifiers: an Elite unit adds +1 ([16.7], data) */
static void test_n20_10_0_elite_rally_modifier(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_FRENCH);
    s_broken(s, "GARDE");
    s_run(s, &d, &ev);
    uint32_t r[] = {4};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "GARDE rally roll 4 (modified 5): Rallied"));
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 1);
    free(s);
}

/* [10.0] [12.2.2] one Morale Point, spent before rolling, gives +1 to every Rally roll of
 * that occasion */
static void test_n20_12_2_2_one_point_for_every_roll_of_the_occasion(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_FRENCH);
    s_broken(s, "DERLON");
    s_broken(s, "REILLE");
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    uint32_t r[] = {4, 4};
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally french", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_true(t_events_has(&ev, "DERLON rally roll 4 (modified 5): Rallied"));
    assert_true(t_events_has(&ev, "REILLE rally roll 4 (modified 5): Rallied"));
    assert_int_equal(t_order(s, N20_FRENCH, "place DERLON 0105", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "place REILLE 0106", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 8); /* then +1 rest [14.0] */
    free(s);
}

/* [12.2.2] the Allies pay per army: a point spent for the Anglo-Dutch does not help the
 * Prussians */
static void test_n20_12_2_2_allied_spend_helps_only_that_army(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_ALLIED);
    s_broken(s, "UXBRIDGE");
    s_broken(s, "ROEDER");
    s_run(s, &d, &ev);
    uint32_t r[] = {4, 4};
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally anglo", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "UXBRIDGE rally roll 4 (modified 5): Rallied"));
    assert_true(t_events_has(&ev, "ROEDER rally roll 4 (modified 4): Cadre?"));
    free(s);
}

/* [12.2] [12.2.2] rally spending refused: the enemy's army, the same army twice, more points
 * than the side has; a refused order rolls no die; legal() lists what is allowed */
static void test_n20_12_2_2_rally_spend_refused(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_ALLIED);
    s_broken(s, "UXBRIDGE");
    s_broken(s, "ROEDER");
    s->morale[N20_ALLIED] = 1;
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_RALLY);
    int before = d.npurposes;
    assert_int_equal(t_order(s, N20_ALLIED, "rally french", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "12.2.2");
    assert_int_equal(t_order(s, N20_ALLIED, "rally anglo anglo", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "12.2");
    assert_int_equal(t_order(s, N20_ALLIED, "rally anglo prussian", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "12.2.2");
    assert_int_equal(d.npurposes, before);
    assert_int_equal(s->morale[N20_ALLIED], 1);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, ""), 4); /* end, rally, rally anglo, rally prussian */
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "rally anglo prussian"), 0);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "rally prussian"), 1);
    free(s);
}

/* [10.0] a rallied unit goes on an EMPTY friendly LOC hex (of its own army, R-10.0-loc); with
 * none free legal() offers only "end" and the unit simply remains Broken */
static void test_n20_10_0_place_on_empty_friendly_loc_only(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_ALLIED);
    s_broken(s, "ROEDER");
    t_place(s, "ZIETEN", 812);  /* friendly */
    t_place(s, "GERARD", 2512); /* enemy */
    s_run(s, &d, &ev);
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_PLACE);
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 0812", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "10.0");
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 2512", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "10.0");
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 2502", &d, &ev, &err), -1); /* Anglo-Dutch LOC */
    assert_string_equal(err.rule, "10.0");
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, ""), 1);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "end"), 1);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "ROEDER"), N20_U_BROKEN);
    assert_false(n20_has_rallied(s, N20_ALLIED));
    assert_int_equal(s->morale[N20_ALLIED], 9); /* night continues: +2 rest */
    free(s);
}

/* [10.0] a rallied unit left unplaced remains Broken and may try to Rally again later */
static void test_n20_10_0_unplaced_unit_rallies_again_later(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_night_rally(&d, 12, N20_ALLIED);
    s_broken(s, "ROEDER");
    s_run(s, &d, &ev);
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0); /* do not place it */
    assert_int_equal(s_where(s, "ROEDER"), N20_U_BROKEN);
    /* the next Allied Night Operations (Turn 15) */
    s->turn = 15;
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_RALLY);
    uint32_t r2[] = {5};
    t_dice_script(&d, 1, r2);
    assert_int_equal(t_order(s, N20_ALLIED, "rally", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 0812", &d, &ev, &err), 0);
    assert_int_equal(s_where(s, "ROEDER"), N20_U_MAP);
    free(s);
}

/* [10.0] Rally also when an Event card says so: before the Movement Phase; the placed unit
 * does not also move (R-10.0-place). With nothing Broken the event is void. */
static void test_n20_10_0_rally_by_event_card(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    s_broken(s, "ROEDER");
    t_top_card(s, 2); /* Rally on Old Forwards!: Allied effect rally */
    s->phase = N20_PH_EVENTS;
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "allied draws #2"));
    assert_int_equal(s->phase, N20_PH_RALLY);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    uint32_t r[] = {5};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "rally", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "place ROEDER 0812", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s->morale[N20_ALLIED], 7); /* no rest by day */
    assert_int_equal(t_order(s, N20_ALLIED, "move ROEDER 0811", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "6.4");
    free(s);
    /* nothing Broken: straight to the Movement Phase */
    t_dice_init(&d, 1);
    t_events ev2 = {0};
    s = t_empty(&d, 10, N20_ALLIED);
    t_top_card(s, 2);
    s->phase = N20_PH_EVENTS;
    s_run(s, &d, &ev2);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 0);
    free(s);
}

/* [10.0] Important: Rallying has nothing to do with Rout markers: a Routed unit is not
 * rallied (no Rally decision); its marker goes by itself [9.6.2.2] */
static void test_n20_10_0_routed_unit_is_not_rallied(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_night_rally(&d, 12, N20_FRENCH);
    int re = t_place(s, "REILLE", 505);
    s->u[re].routed = 1 + N20_FRENCH;
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "REILLE recovers from Rout"));
    assert_int_equal(s->u[re].routed, 0);
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 0);
    assert_int_equal(s->phasing, N20_ALLIED); /* the French turn went on without a Rally decision */
    free(s);
}

/* ---- [11.0] Reinforcements --------------------------------------------------- */

/* [11.0] reinforcements appear on their Game Turn, not before; legal() agrees */
static void test_n20_11_0_not_before_its_turn(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int ux = n20_unit_find(s, "UXBRIDGE"), hi = n20_unit_find(s, "HILL");
    s->u[ux].where = N20_U_REINF;
    s->u[ux].arrive = 9;
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move HILL "), 0);
    assert_true(t_legal_count_prefix(s, N20_ALLIED, "move UXBRIDGE ") > 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.0");
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1701", &d, NULL, &err), 0);
    assert_int_equal(s->u[ux].where, N20_U_MAP);
    free(s);
}

/* [11.0] a Variable Reinforcement rolls only in its own side's Movement Phase */
static void test_n20_11_0_variable_rolls_in_own_movement_phase(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 13, N20_FRENCH);
    int fr = n20_unit_find(s, "FREDERICK");
    s->u[fr].where = N20_U_VARIABLE;
    s->u[fr].arrive = 13;
    s->phase = N20_PH_MOVE_START;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 0);
    assert_int_equal(s->u[fr].where, N20_U_VARIABLE);
    assert_int_equal(s->u[fr].arrive, 13);
    free(s);
}

/* [11.1] entering the first hex costs its terrain cost; a road entry hex gives the road bonus */
static void test_n20_11_1_initial_movement_costs(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int hi = n20_unit_find(s, "HILL"), bu = n20_unit_find(s, "BULOW");
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    s->u[bu].where = N20_U_REINF;
    s->u[bu].arrive = 10;
    /* HILL (MA 2) on the road from 1701: 3 hexes with the road bonus, not 4 */
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701 1801 1901 1902", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701 1801 1901", &d, NULL, &err), 0);
    /* BULOW (MA 2) off road from 2312: the entry hex costs 1, so only one more hex */
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2312 2311 2310", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2312 2311", &d, NULL, &err), 0);
    free(s);
}

/* [11.2] March Order: the third unit at the same entry hex pays two more than the first */
static void test_n20_11_2_third_unit_pays_two_more(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    const char *ids[] = {"HILL", "UXBRIDGE", "FREDERICK"};
    for (int i = 0; i < 3; i++) {
        int u = n20_unit_find(s, ids[i]);
        s->u[u].where = N20_U_REINF;
        s->u[u].arrive = 10;
    }
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 2001 2002", &d, NULL, &err), 0);            /* 1 + 1 */
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 2001 2002 2102", &d, NULL, &err), 0);   /* 2 + 1 + 1 */
    assert_int_equal(t_order(s, N20_ALLIED, "move FREDERICK 2001 2002", &d, NULL, &err), -1);      /* 3 + 1 > 2 + 1 */
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_ALLIED, "move FREDERICK 2001", &d, NULL, &err), 0); /* one hex [6.2] */
    free(s);
}

/* [11.3] once on the map a reinforcement is a normal unit: it has moved [6.4] and has a ZOC */
static void test_n20_11_3_entered_unit_is_a_normal_unit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int ux = n20_unit_find(s, "UXBRIDGE");
    s->u[ux].where = N20_U_REINF;
    s->u[ux].arrive = 9;
    assert_false(n20_exerts_zoc(s, ux, n20_hex(1702)));
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1701", &d, NULL, &err), 0);
    assert_true(n20_exerts_zoc(s, ux, n20_hex(1702)));
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1702", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.4");
    free(s);
}

/* [11.4] a reinforcement may enter a hex in an EZOC but must stop there */
static void test_n20_11_4_entry_into_ezoc_stops(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    t_place(s, "GERARD", 1602); /* ZOC on 1701 */
    int hi = n20_unit_find(s, "HILL");
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701 1801", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "6.7");
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 1701", &d, &ev, &err), 0);
    assert_int_equal(s->u[hi].hex, n20_hex(1701));
    assert_true(t_events_has(&ev, "HILL enters the map at 1701"));
    free(s);
}

/* [11.5] Important: off-map reinforcements have no ZOC and cannot be attacked */
static void test_n20_11_5_off_map_units_have_no_effect(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    t_place(s, "GERARD", 1602);
    int hi = n20_unit_find(s, "HILL");
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_false(n20_in_ezoc(s, n20_hex(1602), N20_ALLIED, 0));
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> HILL", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.0");
    s->phase = N20_PH_MOVE;
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1603", &d, NULL, &err), 0); /* not Stuck */
    free(s);
}

/* [11.5] a reinforcement not brought in stays waiting and enters on a later turn */
static void test_n20_11_5_voluntary_delay(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int ux = n20_unit_find(s, "UXBRIDGE");
    s->u[ux].where = N20_U_REINF;
    s->u[ux].arrive = 9;
    t_top_card(s, 2); /* the French draw of Turn 10: no effect for the French */
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_equal(s->turn, 10);
    assert_int_equal(s->phasing, N20_FRENCH);
    assert_int_equal(s->u[ux].where, N20_U_REINF);
    assert_false(n20_can_enter_now(s, ux)); /* only in its own Movement Phase */
    s->phasing = N20_ALLIED;
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 1801", &d, NULL, &err), 0);
    free(s);
}

/* [11.6] Anglo-Dutch reinforcements enter via Area X only */
static void test_n20_11_6_anglo_dutch_area_x(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int hi = n20_unit_find(s, "HILL");
    s->u[hi].where = N20_U_REINF;
    s->u[hi].arrive = 10;
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 2312", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 0105", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_int_equal(t_order(s, N20_ALLIED, "move HILL 2001", &d, NULL, &err), 0);
    free(s);
}

/* [11.6] Frederick: if 2001 is enemy occupied, no roll and no entry that turn; it keeps
 * rolling later; a roll of 4 (reconstructed 4-6) arrives */
static void test_n20_11_6_frederick_blocked_at_2001(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 13, N20_ALLIED);
    int fr = n20_unit_find(s, "FREDERICK");
    int g = t_place(s, "GERARD", 2001);
    s->u[fr].where = N20_U_VARIABLE;
    s->u[fr].arrive = 13;
    s->phase = N20_PH_MOVE_START;
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 0);
    assert_true(t_events_has(&ev, "FREDERICK cannot arrive: its entry hex is enemy occupied"));
    assert_int_equal(s->u[fr].where, N20_U_VARIABLE);
    assert_int_equal(s->u[fr].arrive, 14);
    /* Turn 14: 2001 is free again */
    s->u[g].where = N20_U_OUT;
    s->turn = 14;
    s->phase = N20_PH_MOVE_START;
    uint32_t r[] = {4};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 1);
    assert_true(t_events_has(&ev, "FREDERICK rolls 4: it arrives this turn"));
    assert_int_equal(t_order(s, N20_ALLIED, "move FREDERICK 2001", &d, &ev, &err), 0);
    free(s);
}

/* [11.6] [3.0] FREDERICK is released by the Allied side of card #11 and rolls that same
 * Movement Phase; the French side of the card does not release him */
static void test_n20_11_6_frederick_released_by_card_11(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_ALLIED);
    int fr = n20_unit_find(s, "FREDERICK");
    t_top_card(s, 11);
    s->phase = N20_PH_EVENTS;
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "FREDERICK is released"));
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 1);
    assert_int_equal(s->u[fr].where, N20_U_REINF);
    assert_true(n20_can_enter_now(s, fr));
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 13, N20_FRENCH);
    t_top_card(s, 11);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->u[fr].where, N20_U_OUT);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 0);
    free(s);
}

/* ---- [12.0] Army Morale -------------------------------------------------------- */

/* [12.1] Morale Chart, a unit Broken: its side -1, the enemy +1 (a DB) */
static void test_n20_12_1_chart_unit_broken(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 507);
    int z = t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5}; /* 7 vs 3 = +4, die 5 = DB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "allied morale 7 -> 6"));
    assert_true(t_events_has(&ev, "french morale 8 -> 9"));
    free(s);
}

/* [12.1] routing exactly its Movement Allowance costs nothing (only MORE hexes do) */
static void test_n20_12_1_rout_equal_to_allowance_costs_nothing(void **st) {
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
    uint32_t r[] = {5, 2}; /* +1, die 5 = DR; rout 2 = MA 2 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "ZIETEN routs 2 hex(es) (roll 2)"));
    uint32_t pass[] = {6, 6, 6, 6};
    t_dice_script(&d, 4, pass);
    assert_int_equal(s_first_legal(s, N20_ALLIED, &d, &ev, &err), 0);
    assert_int_equal(s->u[z].where, N20_U_MAP);
    assert_true(s->u[z].routed);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_false(t_events_has(&ev, "routed beyond its Movement Allowance"));
    free(s);
}

/* [12.1] "Rout more hexes than their Movement Allowance" counts the hexes actually routed: a
 * unit in a Fortified hex rolling 4 routs 3 ([9.6.2.1] -1) but may retreat one fewer [9.7.2.2];
 * retreating 2 with MA 2 costs nothing, 3 costs one point (rulings R-12.1-rout-hexes) */
static void test_n20_12_1_rout_counts_hexes_actually_routed(void **st) {
    (void)st;
    for (int full = 0; full < 2; full++) {
        t_dice d;
        t_dice_init(&d, 1);
        t_events ev = {0};
        brt_reject err;
        n20_state *s = t_empty(&d, 9, N20_FRENCH);
        t_place(s, "REILLE", 1701);
        t_place(s, "DERLON", 1702);
        int o = t_place(s, "ORANGE", 1802); /* Hougoumont: Fortified */
        s->phase = N20_PH_DECLARE;
        assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ORANGE", &d, &ev, &err), 0);
        uint32_t r[] = {5, 4}; /* 7 vs 4 + 2 = +1, die 5 = DR; rout roll 4 - 1 = 3 */
        t_dice_script(&d, 2, r);
        assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
        assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
        assert_true(t_events_has(&ev, "ORANGE routs 3 hex(es) (roll 4)"));
        const char *path = full ? "retreat ORANGE 1902 2002 2102" : "retreat ORANGE 1902 2002";
        assert_int_equal(t_order(s, N20_ALLIED, path, &d, &ev, &err), 0);
        assert_int_equal(s->u[o].where, N20_U_MAP);
        assert_true(s->u[o].routed);
        assert_int_equal(s->morale[N20_ALLIED], full ? 6 : 7);
        assert_int_equal(t_events_has(&ev, "routed beyond its Movement Allowance"), full);
        free(s);
    }
}

/* [12.1] a rout of 2 (MA 2) that must go on through a friendly-occupied hex [9.7.6] routs 3
 * hexes: more than its Movement Allowance (rulings R-12.1-rout-hexes) */
static void test_n20_12_1_rout_through_friends_beyond_allowance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 1005);
    int z = t_place(s, "ZIETEN", 1006);
    /* every way on from 1007 but back is held by friends */
    t_place(s, "PIRCH", 906);
    t_place(s, "THIELMANN", 907);
    t_place(s, "ORANGE", 1106);
    t_place(s, "RESERVE", 1107);
    t_place(s, "HILL", 1008);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5, 2}; /* +1, die 5 = DR; rout 2 = MA 2 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1007 1008", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.7.6");
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 1007 1008 1009", &d, &ev, &err), 0);
    assert_int_equal(s->u[z].hex, n20_hex(1009));
    assert_true(s->u[z].routed);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "routed beyond its Movement Allowance"));
    free(s);
}

/* [12.1] the comparison is with the printed allowance: in Downpour (allowance 2 - 1 [5.2.1]) a
 * rout of 2 still costs nothing (rulings R-12.1-rout-hexes) */
static void test_n20_12_1_rout_compared_with_printed_allowance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 14, N20_FRENCH); /* 17 June afternoon: Downpour */
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    assert_int_equal(n20_weather(s), N20_W_DOWNPOUR);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5, 2}; /* 3 vs 2 = +1 (Downpour -1 each), die 5 = DR; rout 2 */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 3 vs 2"));
    uint32_t pass[] = {6, 6, 6, 6};
    t_dice_script(&d, 4, pass);
    assert_int_equal(s_first_legal(s, N20_ALLIED, &d, &ev, &err), 0);
    assert_true(s->u[z].routed);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_false(t_events_has(&ev, "routed beyond its Movement Allowance"));
    free(s);
}

/* [12.1.1] Allied night rest of +2 at 9: the excess is lost */
static void test_n20_12_1_1_rest_excess_lost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 12, N20_ALLIED);
    s->morale[N20_ALLIED] = 9;
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 2);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "[14.0 rest] allied morale 9 -> 10"));
    assert_int_equal(s->morale[N20_ALLIED], 10);
    free(s);
}

/* [12.1.1] a Lull at 10 (10 vs 10, rule B) gains nothing: the excess is lost */
static void test_n20_12_1_1_lull_excess_lost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_FRENCH);
    t_place(s, "GERARD", 107);
    s->night_seen = 1;
    s->morale[N20_FRENCH] = 10;
    s->morale[N20_ALLIED] = 10;
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 10);
    free(s);
}

/* [12.1.2] [15.0] spending the last Morale Point reaches zero: that side loses at once
 * (Anti-French Decisive Victory); nothing more is accepted */
static void test_n20_12_1_2_spending_last_point_loses_at_once(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 107);
    s->morale[N20_FRENCH] = 1;
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 0);
    assert_true(s->over);
    assert_int_equal(s->phase, N20_PH_OVER);
    assert_int_equal(s->winner, N20_ALLIED);
    assert_int_equal(s->level, 1);
    brt_result res;
    n20_result(s, &res);
    assert_int_equal(res.winners, 1u << N20_ALLIED);
    assert_string_equal(res.level, "decisive");
    assert_true(t_events_has(&ev, "Anti-French Decisive Victory"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0207", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "15.0");
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, ""), 0);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, ""), 0);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "over");
    free(s);
}

/* [12.1.2] immediately: a defender spending its last point on reserves loses before any
 * combat die is rolled */
static void test_n20_12_1_2_zero_ends_before_the_combat_roll(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 1;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "reserve", &d, &ev, &err), 0);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_FRENCH);
    assert_int_equal(s->level, 1);
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 0);
    assert_false(t_events_has(&ev, "combat:"));
    free(s);
}

/* [12.1.2] [9.6] EX: the defenders break first; if that takes their side to zero the attacker
 * has just won, before choosing his own losses */
static void test_n20_12_1_2_ex_defender_zero_before_attacker_losses(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int re = t_place(s, "REILLE", 505);
    int de = t_place(s, "DERLON", 507);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_ALLIED] = 1;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* +4, die 1 = EX */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_FRENCH);
    assert_int_equal(s->level, 1);
    assert_int_equal(s->morale[N20_ALLIED], 0);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_int_equal(s->u[re].where, N20_U_MAP);
    assert_int_equal(s->u[de].where, N20_U_MAP);
    free(s);
}

/* [12.2.1] an Allied Forced March covers one army only: the Anglo-Dutch +1, not the Prussians */
static void test_n20_12_2_1_allied_forced_march_one_army(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    t_place(s, "ORANGE", 401);
    t_place(s, "ZIETEN", 307);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 0308 0309 0310", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_ALLIED, "move ORANGE 0402 0403 0404", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 0308 0309", &d, NULL, &err), 0);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "forcemarch anglo"), 0);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "forcemarch prussian"), 1);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "forcemarch french"), 0);
    free(s);
}

/* [12.2.1] [14.0] Forced March raises the Night allowance of 1 to 2 */
static void test_n20_12_2_1_forced_march_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GERARD", 107);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0108 0109", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0108 0109 0110", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0108 0109", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    free(s);
}

/* [12.2.3] Reserves: the attacker at step B and the defender at step C each spend one point
 * for +1 to their side's strength */
static void test_n20_12_2_3_reserves_both_sides(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    /* uncapped, and at each [9.5] cap that changes the column */
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "resolve 1 reserve"), s->sc->crt_hi - s->sc->crt_lo + 1);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1 reserve", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->phase, N20_PH_DEF_RESERVE);
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 0); /* the defender decides before the roll */
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "reserve", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "battle 1: 5 vs 4 (terrain +0, attacker reserve, defender reserve), "
                                  "differential +1, column +1, die 3: DW"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    free(s);
}

/* [12.2.3] [9.6.2] no reserves for a side whose units in the battle are all Routed: the
 * attacker's "reserve" is refused; a Routed defender is not even asked */
static void test_n20_12_2_3_no_reserves_for_routed_side(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int re = t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->u[re].routed = 1 + N20_ALLIED;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1 reserve", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "12.2.3");
    assert_int_equal(s->morale[N20_FRENCH], 8);
    /* "resolve 1", uncapped and at each [9.5] cap, "fight 1" (the [9.5] decision at Step F), and
     * nothing with a reserve */
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, ""), s->sc->crt_hi - s->sc->crt_lo + 2);
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "resolve 1"), s->sc->crt_hi - s->sc->crt_lo + 1);
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "resolve 1 reserve"), 0);
    free(s);
    /* a Routed defender: no commit-reserve decision, the die is rolled at once */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    s->u[z].routed = 1 + N20_FRENCH;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, NULL, &err), 0);
    uint32_t r[] = {2};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, NULL, &err), 0);
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    free(s);
}

/* [12.3.1] no cost to commit the Guard when the Guard's own side is at 1 */
static void test_n20_12_3_1_guard_free_when_own_side_at_1(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 508);
    s->morale[N20_FRENCH] = 1;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 1);
    assert_false(s->over);
    assert_false(t_events_has(&ev, "Guard committed"));
    free(s);
}

/* [12.3.1] no cost when the Guard began the Movement Phase in an EZOC (already committed);
 * shown at Night, when it may leave the EZOC, moving next to a Routed (ZOC-less) enemy */
static void test_n20_12_3_1_guard_already_in_ezoc_is_committed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 503);
    s->u[p].routed = 1 + N20_FRENCH;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0504", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_false(t_events_has(&ev, "Guard committed"));
    free(s);
    /* the same move from outside any EZOC commits the Guard */
    t_dice_init(&d, 1);
    t_events ev2 = {0};
    s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GARDE", 505);
    p = t_place(s, "PIRCH", 503);
    s->u[p].routed = 1 + N20_FRENCH;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0504", &d, &ev2, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_true(t_events_has(&ev2, "Guard committed"));
    free(s);
}

/* [12.3.1] only the hex where the Guard's move ends commits it: passing by an enemy it could
 * attack from a hex on the way costs nothing (rulings R-12.3.1-path) */
static void test_n20_12_3_1_guard_passing_by_costs_nothing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    int p = t_place(s, "PIRCH", 503);
    s->u[p].routed = 1 + N20_FRENCH; /* no ZOC: the Guard may pass 0504 next to it */
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0504 0405", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(405));
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_false(t_events_has(&ev, "Guard committed"));
    free(s);
}

/* [12.3.1] the cost is paid each and every time the Guard moves into such a hex */
static void test_n20_12_3_1_guard_pays_each_time(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    int z = t_place(s, "ZIETEN", 508);
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    /* a later Movement Phase: the enemy has gone, the Guard is out of any EZOC */
    s->u[z].hex = n20_hex(510);
    s->u[g].flags = 0;
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0508 0509", &d, NULL, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

/* [12.3.1] no cost for the Guard to Advance after Combat; [12.3.2] a victorious Guard that
 * advances costs nothing either */
static void test_n20_12_3_1_guard_advance_after_combat_free(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 406);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 607); /* next to 0506 only */
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE,REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5}; /* 7 vs 3 = +4, die 5 = DB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(t_order(s, N20_FRENCH, "advance GARDE 0506", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(506));
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_false(t_events_has(&ev, "Guard committed"));
    assert_false(t_events_has(&ev, "La Garde recule"));
    free(s);
}

/* [12.3.2] the Guard need not actually advance: victorious and able is enough */
static void test_n20_12_3_2_victorious_guard_need_not_advance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 507);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE,REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {5}; /* DB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(505));
    assert_int_equal(s->morale[N20_FRENCH], 9);
    assert_false(t_events_has(&ev, "La Garde recule"));
    free(s);
}

/* [12.3.2] a Guard that does not survive an EX outcome: -1 on top of the breaks */
static void test_n20_12_3_2_guard_broken_in_exchange(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 507);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE,REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* +4, die 1 = EX */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_EX_LOSSES);
    assert_int_equal(t_order(s, N20_FRENCH, "losses GARDE", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].where, N20_U_BROKEN);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0); /* REILLE does not advance */
    assert_true(t_events_has(&ev, "La Garde recule! (GARDE)"));
    assert_int_equal(s->morale[N20_FRENCH], 8 + 1 - 1 - 1);
    assert_int_equal(s->morale[N20_ALLIED], 7 - 1 + 1);
    free(s);
}

/* [12.3.2] a Guard that survives the EX (another unit breaks) is victorious: no penalty */
static void test_n20_12_3_2_guard_survives_exchange(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "REILLE", 507);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE,REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {1};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "losses REILLE", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].where, N20_U_MAP);
    assert_false(t_events_has(&ev, "La Garde recule"));
    assert_int_equal(s->morale[N20_FRENCH], 8 + 1 - 1);
    free(s);
}

/* [12.3.2] an AB against the Guard: the break (-1) and Le Garde Recule (-1) */
static void test_n20_12_3_2_guard_eliminated_by_ab(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 606);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE -> ZIETEN,PIRCH", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* 3 vs 6 = -3 (column -2), die 1 = AB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].where, N20_U_BROKEN);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    /* the victorious defenders may advance first; the battle ends with their decision */
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "La Garde recule! (GARDE)"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 8);
    free(s);
}

/* ---- [13.0] Lulls ------------------------------------------------------------- */

static n20_state *s_lull_position(t_dice *d, int french, int allied) {
    n20_state *s = t_empty(d, 13, N20_FRENCH);
    t_place(s, "GERARD", 107);
    s->night_seen = 1;
    s->morale[N20_FRENCH] = (int8_t)french;
    s->morale[N20_ALLIED] = (int8_t)allied;
    t_top_card(s, 5); /* the Allied draw that follows: no Allied effect */
    return s;
}

/* [13.0] B: not more Morale Points than the opponent (7 vs 7) */
static void test_n20_13_0_b_not_more_than_opponent(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_lull_position(&d, 7, 7);
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "[13.0 lull] french morale 7 -> 8"));
    assert_int_equal(s->morale[N20_FRENCH], 8);
    free(s);
}

/* [13.0] A: fewer than 6 Morale Points, even when ahead of the opponent (5 vs 4) */
static void test_n20_13_0_a_fewer_than_6_even_when_ahead(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_lull_position(&d, 5, 4);
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "[13.0 lull] french morale 5 -> 6"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

/* [13.0] neither A (6 is not fewer than 6) nor B (6 > 5): no Lull */
static void test_n20_13_0_neither_condition_no_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_lull_position(&d, 6, 5);
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 6);
    free(s);
}

/* [13.0] only IF you have units on the map */
static void test_n20_13_0_no_units_on_map_no_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_lull_position(&d, 5, 7);
    s->u[n20_unit_find(s, "GERARD")].where = N20_U_BROKEN;
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 5);
    free(s);
}

/* [13.0] no Lull for a side that Force Marched */
static void test_n20_13_0_forced_march_no_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_lull_position(&d, 5, 7);
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 4);
    assert_int_equal(s->phasing, N20_ALLIED);
    free(s);
}

/* [13.0] no Lull after battle dice in your own Combat Phase */
static void test_n20_13_0_own_battle_no_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_lull_position(&d, 5, 7);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {2}; /* +1, die 2 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "die 2: N"));
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 5);
    free(s);
}

/* [13.0] no Lull after battle dice in the opponent's Reaction Phase (a Countercharge) */
static void test_n20_13_0_enemy_countercharge_no_lull(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_lull_position(&d, 5, 7);
    t_place(s, "VONHOBE", 506);
    s->u[n20_unit_find(s, "GERARD")].hex = n20_hex(505);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge VONHOBE -> GERARD", &d, &ev, &err), 0);
    uint32_t r[] = {2}; /* 1x2 vs 2 = 0, die 2 = AW */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "die 2: AW"));
    assert_int_equal(t_order(s, N20_ALLIED, "retreat VONHOBE 0607", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_int_equal(s->phasing, N20_ALLIED); /* no French battle: straight to the turn's end */
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 5);
    free(s);
}

/* [13.0] Lulls are for Day Turns only */
static void test_n20_13_0_no_lull_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_lull_position(&d, 5, 7);
    s->turn = 15;
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "Lull"));
    assert_int_equal(s->morale[N20_FRENCH], 6); /* the night's rest only */
    free(s);
}

/* ---- [14.0] Night Turns --------------------------------------------------------- */

/* [14.0] No Battles: adjacent units neither react nor fight at Night */
static void test_n20_14_0_no_battles_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "VONHOBE", 504); /* Cavalry next to REILLE */
    t_top_card(s, 5);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_false(t_events_has(&ev, "Reaction Phase"));
    assert_false(t_events_has(&ev, "Combat Phase"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 0);
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_int_equal(s->morale[N20_FRENCH], 9); /* +1 French rest */
    free(s);
}

/* [14.0] 2. captured terrain: each enemy LOC or enemy Objective hex held costs the enemy
 * (R-14.0-captured), before 3. the French rest of +1 */
static void test_n20_14_0_captured_loc_and_objective_hexes(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GERARD", 2502);  /* Anglo-Dutch LOC */
    t_place(s, "DERLON", 812);   /* Prussian LOC */
    t_place(s, "REILLE", 2109);  /* Wavre: Allied Objective */
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "french units hold 3 enemy LOC/Objective hex(es)"));
    assert_int_equal(s->morale[N20_ALLIED], 4);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    free(s);
}

/* [14.0] own-coloured LOC/Objective hexes, and enemy units, cost nothing at your Night
 * Operations */
static void test_n20_14_0_own_hexes_cost_nothing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GERARD", 105);  /* French LOC */
    t_place(s, "DERLON", 1104); /* Quatre Bras: French Objective */
    t_place(s, "ORANGE", 2102); /* Waterloo held by its own side */
    t_place(s, "PIRCH", 2512);  /* a Prussian LOC held by its own side */
    t_place(s, "ZIETEN", 106);  /* an Allied unit on a French LOC: counted at the ALLIED ops */
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 5);
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "LOC/Objective"));
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_int_equal(s->morale[N20_FRENCH], 9);
    free(s);
}

/* [14.0] [12.1.2] Night Operations run in order: a captured hex taking the enemy to zero
 * ends the game before the rest */
static void test_n20_14_0_captured_hex_to_zero_ends_before_rest(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    t_place(s, "GERARD", 2109);
    s->morale[N20_ALLIED] = 1;
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_FRENCH);
    assert_int_equal(s->level, 1);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_false(t_events_has(&ev, "14.0 rest"));
    free(s);
}

/* [14.0] 5. Reshuffle only at the end of the Second Player's Night Turn; the red-titled #12
 * joins the Draw Pile then */
static void test_n20_14_0_reshuffle_after_second_player_only(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 5);
    int ndraw = s->ndraw;
    s_run(s, &d, &ev); /* French Night Operations, then the Allied draw */
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_false(t_events_has(&ev, "14.0 reshuffle"));
    assert_int_equal(s->ndraw, ndraw - 1);
    int shuffles = t_dice_count(&d, "5.0 event deck shuffle");
    s->phase = N20_PH_COMBAT_END;
    s_run(s, &d, &ev); /* Allied Night Operations, end of the Game Turn */
    assert_true(t_events_has(&ev, "14.0 reshuffle"));
    assert_true(t_dice_count(&d, "5.0 event deck shuffle") > shuffles);
    assert_int_equal(s->turn, 13);
    assert_int_equal(s->ndraw + s->ndiscard, 12);
    int seen12 = 0;
    for (int i = 0; i < s->ndraw; i++) seen12 |= s->sc->cards[s->draw[i]].number == 12;
    for (int i = 0; i < s->ndiscard; i++) seen12 |= s->sc->cards[s->discard[i]].number == 12;
    assert_true(seen12);
    assert_true(s->ndiscard <= 1); /* only the French draw of Turn 13 (or #12 reshuffled again) */
    free(s);
}

/* [14.0] Night Operations are skipped on Day Turns: no Rally, no rest */
static void test_n20_14_0_no_night_operations_by_day(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 13, N20_ALLIED);
    s_broken(s, "ROEDER");
    s->phase = N20_PH_COMBAT_END;
    t_top_card(s, 2); /* the French draw of Turn 14: no French effect */
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "Night Operations"));
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 0);
    assert_int_equal(s_where(s, "ROEDER"), N20_U_BROKEN);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_int_equal(s->turn, 14);
    free(s);
}

/* [14.0] Reminder [6.2]: a unit can always move one hex, even when Night and Downpour
 * ([5.2.1], no road bonus) reduce its allowance to zero */
static void test_n20_14_0_always_one_hex(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 15, N20_FRENCH); /* Night, Storm = Downpour */
    int g = t_place(s, "GERARD", 107);
    t_place(s, "DERLON", 105);
    assert_int_equal(n20_move_allowance(s, g), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0108 0109", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0108", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205", &d, NULL, &err), 0);
    free(s);
}

/* ---- [15.0] How to Win, [4.0] sudden death -------------------------------------- */

/* [15.0] Marginal Victory: the Anti-French side at least 1 higher at the end (5 vs 4) */
static void test_n20_15_0_marginal_by_one_at_the_end(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 21, N20_ALLIED);
    s->morale[N20_FRENCH] = 4;
    s->morale[N20_ALLIED] = 5;
    s->phase = N20_PH_TURN_END;
    s_run(s, &d, &ev);
    assert_true(s->over);
    assert_int_equal(s->winner, N20_ALLIED);
    assert_int_equal(s->level, 2);
    brt_result res;
    n20_result(s, &res);
    assert_string_equal(res.level, "marginal");
    assert_true(t_events_has(&ev, "last turn"));
    free(s);
}

/* [15.0] the French have no Marginal Victory: ahead at the end is a Draw */
static void test_n20_15_0_french_ahead_at_end_is_draw(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 21, N20_ALLIED);
    s->morale[N20_FRENCH] = 9;
    s->morale[N20_ALLIED] = 3;
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_true(s->over);
    assert_int_equal(s->winner, 2);
    assert_int_equal(s->level, 3);
    brt_result res;
    n20_result(s, &res);
    assert_int_equal(res.winners, 0);
    assert_string_equal(res.level, "draw");
    free(s);
}

/* [15.0] the game does not end before the last turn: Turn 18 ends without a sudden-death
 * roll (no symbol) and Turn 19 begins */
static void test_n20_15_0_no_end_before_last_turn(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 18, N20_ALLIED);
    s->phase = N20_PH_TURN_END;
    t_top_card(s, 2);
    n20_run(s, &d.d, NULL);
    assert_false(s->over);
    assert_int_equal(s->turn, 19);
    assert_int_equal(t_dice_count(&d, "4.0 sudden death"), 0);
    free(s);
}

/* [4.0] 8. Sudden Death: a roll above the number lets play continue */
static void test_n20_4_0_sudden_death_roll_above_continues(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 19, N20_ALLIED);
    s->phase = N20_PH_TURN_END;
    t_top_card(s, 2);
    uint32_t r[] = {2};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "Sudden Death roll 2 against 1: play continues"));
    assert_false(s->over);
    assert_int_equal(s->turn, 20);
    assert_int_equal(t_dice_count(&d, "4.0 sudden death"), 1);
    free(s);
}

/* [4.0] 8. Sudden Death: a roll equal to the number ends the game; [15.0] result at the end */
static void test_n20_4_0_sudden_death_roll_equal_ends(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 20, N20_ALLIED);
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 6;
    s->phase = N20_PH_TURN_END;
    uint32_t r[] = {2};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_true(t_events_has(&ev, "Sudden Death roll 2 against 2: the game ends"));
    assert_true(s->over);
    assert_int_equal(s->turn, 20);
    assert_int_equal(s->level, 3); /* equal morale: a draw */
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_3_0_reinforcement_schedule),
        cmocka_unit_test(test_n20_3_0_old_days_card_in_discard),
        cmocka_unit_test(test_n20_10_0_rally_table_lines),
        cmocka_unit_test(test_n20_10_0_elite_rally_modifier),
        cmocka_unit_test(test_n20_12_2_2_one_point_for_every_roll_of_the_occasion),
        cmocka_unit_test(test_n20_12_2_2_allied_spend_helps_only_that_army),
        cmocka_unit_test(test_n20_12_2_2_rally_spend_refused),
        cmocka_unit_test(test_n20_10_0_place_on_empty_friendly_loc_only),
        cmocka_unit_test(test_n20_10_0_unplaced_unit_rallies_again_later),
        cmocka_unit_test(test_n20_10_0_rally_by_event_card),
        cmocka_unit_test(test_n20_10_0_routed_unit_is_not_rallied),
        cmocka_unit_test(test_n20_11_0_not_before_its_turn),
        cmocka_unit_test(test_n20_11_0_variable_rolls_in_own_movement_phase),
        cmocka_unit_test(test_n20_11_1_initial_movement_costs),
        cmocka_unit_test(test_n20_11_2_third_unit_pays_two_more),
        cmocka_unit_test(test_n20_11_3_entered_unit_is_a_normal_unit),
        cmocka_unit_test(test_n20_11_4_entry_into_ezoc_stops),
        cmocka_unit_test(test_n20_11_5_off_map_units_have_no_effect),
        cmocka_unit_test(test_n20_11_5_voluntary_delay),
        cmocka_unit_test(test_n20_11_6_anglo_dutch_area_x),
        cmocka_unit_test(test_n20_11_6_frederick_blocked_at_2001),
        cmocka_unit_test(test_n20_11_6_frederick_released_by_card_11),
        cmocka_unit_test(test_n20_12_1_chart_unit_broken),
        cmocka_unit_test(test_n20_12_1_rout_equal_to_allowance_costs_nothing),
        cmocka_unit_test(test_n20_12_1_rout_counts_hexes_actually_routed),
        cmocka_unit_test(test_n20_12_1_rout_through_friends_beyond_allowance),
        cmocka_unit_test(test_n20_12_1_rout_compared_with_printed_allowance),
        cmocka_unit_test(test_n20_12_1_1_rest_excess_lost),
        cmocka_unit_test(test_n20_12_1_1_lull_excess_lost),
        cmocka_unit_test(test_n20_12_1_2_spending_last_point_loses_at_once),
        cmocka_unit_test(test_n20_12_1_2_zero_ends_before_the_combat_roll),
        cmocka_unit_test(test_n20_12_1_2_ex_defender_zero_before_attacker_losses),
        cmocka_unit_test(test_n20_12_2_1_allied_forced_march_one_army),
        cmocka_unit_test(test_n20_12_2_1_forced_march_at_night),
        cmocka_unit_test(test_n20_12_2_3_reserves_both_sides),
        cmocka_unit_test(test_n20_12_2_3_no_reserves_for_routed_side),
        cmocka_unit_test(test_n20_12_3_1_guard_free_when_own_side_at_1),
        cmocka_unit_test(test_n20_12_3_1_guard_already_in_ezoc_is_committed),
        cmocka_unit_test(test_n20_12_3_1_guard_passing_by_costs_nothing),
        cmocka_unit_test(test_n20_12_3_1_guard_pays_each_time),
        cmocka_unit_test(test_n20_12_3_1_guard_advance_after_combat_free),
        cmocka_unit_test(test_n20_12_3_2_victorious_guard_need_not_advance),
        cmocka_unit_test(test_n20_12_3_2_guard_broken_in_exchange),
        cmocka_unit_test(test_n20_12_3_2_guard_survives_exchange),
        cmocka_unit_test(test_n20_12_3_2_guard_eliminated_by_ab),
        cmocka_unit_test(test_n20_13_0_b_not_more_than_opponent),
        cmocka_unit_test(test_n20_13_0_a_fewer_than_6_even_when_ahead),
        cmocka_unit_test(test_n20_13_0_neither_condition_no_lull),
        cmocka_unit_test(test_n20_13_0_no_units_on_map_no_lull),
        cmocka_unit_test(test_n20_13_0_forced_march_no_lull),
        cmocka_unit_test(test_n20_13_0_own_battle_no_lull),
        cmocka_unit_test(test_n20_13_0_enemy_countercharge_no_lull),
        cmocka_unit_test(test_n20_13_0_no_lull_at_night),
        cmocka_unit_test(test_n20_14_0_no_battles_at_night),
        cmocka_unit_test(test_n20_14_0_captured_loc_and_objective_hexes),
        cmocka_unit_test(test_n20_14_0_own_hexes_cost_nothing),
        cmocka_unit_test(test_n20_14_0_captured_hex_to_zero_ends_before_rest),
        cmocka_unit_test(test_n20_14_0_reshuffle_after_second_player_only),
        cmocka_unit_test(test_n20_14_0_no_night_operations_by_day),
        cmocka_unit_test(test_n20_14_0_always_one_hex),
        cmocka_unit_test(test_n20_15_0_marginal_by_one_at_the_end),
        cmocka_unit_test(test_n20_15_0_french_ahead_at_end_is_draw),
        cmocka_unit_test(test_n20_15_0_no_end_before_last_turn),
        cmocka_unit_test(test_n20_4_0_sudden_death_roll_above_continues),
        cmocka_unit_test(test_n20_4_0_sudden_death_roll_equal_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
