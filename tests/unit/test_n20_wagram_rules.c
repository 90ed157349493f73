/*
 * test_n20_wagram_rules.c - the Wagram 20 exclusive rules and the Marchfeld [18.0] (rules/n20/
 * wagram.c), each rule case on a position of its own: a copy of the Waterloo 20 Standard scenario
 * set to the v3.0 edition whose Danube fields (sc->dn) each test sets, so that the case depends
 * on nothing but the fields its rule reads (the Lobau zone, the incomplete bridges, the pontoon
 * hexes, ...). The cases on the real scenarios `wagram20` and `marchfeld` are in
 * test_n20_wagram.c. Rulings: docs/danube-rulings/wagram.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- the position: Waterloo 20's units on its map, the Wagram fields set by the test ------ */
static n20_scenario g_sc;

static void s_base(void) {
    memcpy(&g_sc, n20_scenario_get("waterloo20-standard"), sizeof g_sc);
    g_sc.edition = N20_ED_V3;
    memset(&g_sc.dn, 0, sizeof g_sc.dn);
}

static uint16_t s_nb(unsigned xxyy, int dir) {
    uint16_t to = 0;
    assert_int_equal(n20_neighbor(&g_sc, n20_hex(xxyy), dir, &to), 0);
    return (uint16_t)n20_xxyy(to);
}

/* clear terrain and no river around the hex */
static void s_open(unsigned xxyy) {
    uint16_t h = n20_hex(xxyy);
    g_sc.terrain[h] = N20_T_CLEAR;
    for (int d = 0; d < 6; d++) {
        uint16_t to;
        g_sc.river[h][d] = 0;
        g_sc.cross[h][d] = 0;
        if (n20_neighbor(&g_sc, h, d, &to) < 0) continue;
        g_sc.terrain[to] = N20_T_CLEAR;
        int back = n20_dir(&g_sc, to, h);
        g_sc.river[to][back] = 0;
        g_sc.cross[to][back] = 0;
    }
}

/* a Major River hexside between two adjacent hexes, with a bridge or without */
static void s_major(unsigned a, unsigned b, int bridge) {
    uint16_t ha = n20_hex(a), hb = n20_hex(b);
    int d = n20_dir(&g_sc, ha, hb), e = n20_dir(&g_sc, hb, ha);
    assert_true(d >= 0 && e >= 0);
    g_sc.river[ha][d] = g_sc.river[hb][e] = N20_RIV_MAJOR;
    g_sc.cross[ha][d] = g_sc.cross[hb][e] = (uint8_t)(bridge ? N20_X_BRIDGE : N20_X_NONE);
}

static void s_zone(unsigned xxyy, int z) { g_sc.dn.zone[n20_hex(xxyy)] |= (uint8_t)z; }

/* the game on g_sc with `opts`, every unit off the map, `phasing`'s `phase` of `turn`, 6 Morale
 * each, the dice purposes forgotten */
static n20_state *s_new(t_dice *d, uint32_t opts, int turn, int phasing, int phase) {
    n20_state *s = n20_state_new(&g_sc);
    assert_non_null(s);
    assert_int_equal(n20_setup(s, &d->d, NULL, opts, NULL), 0);
    t_clear_map(s);
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)phasing;
    s->phase = (uint8_t)phase;
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 6;
    s->first_turn_done = 1;
    s->nbattles = 0;
    memset(&s->f, 0, sizeof s->f);
    d->npurposes = 0;
    return s;
}

static void s_run(n20_state *s, t_dice *d, t_events *ev) {
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, &out);
}

/* an order text */
static const char *s_o(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *s_o(const char *fmt, ...) {
    static char b[4][96];
    static int k;
    va_list ap;
    va_start(ap, fmt);
    char *p = b[k++ & 3];
    vsnprintf(p, 96, fmt, ap);
    va_end(ap);
    return p;
}

#define LOCALS              \
    t_dice d;               \
    t_dice_init(&d, 1);     \
    t_events ev = {0};      \
    brt_reject err;         \
    (void)err;              \
    (void)ev

/* ---- [3.0] the Austrian free deployment ------------------------------------------------------ */

/* [3.0] "deployed, unstacked, by the Austrian Player" in the Russbach Heights: the set-up begins with
 * the Austrian seat's decision; legal() lists every free hex of the zone for each unit; a hex off
 * the zone or taken is refused; the last unit placed ends the set-up. */
static void test_n20_wg_3_0_austrian_deploys_one_unit_at_a_time_in_the_heights(void **st) {
    (void)st;
    LOCALS;
    s_base();
    unsigned hx[3] = {2006, 2007, 2008};
    for (int i = 0; i < 3; i++) s_zone(hx[i], N20_Z_HEIGHTS);
    const char *ids[2] = {"ORANGE", "ZIETEN"};
    for (int i = 0; i < 2; i++) {
        for (int u = 0; u < g_sc.nunits; u++)
            if (strcmp(g_sc.units[u].id, ids[i]) == 0) {
                g_sc.units[u].place = N20_P_DEPLOY;
                g_sc.units[u].area = N20_Z_HEIGHTS;
            }
    }
    n20_state *s = n20_state_new(&g_sc);
    assert_int_equal(n20_setup(s, &d.d, NULL, 0, NULL), 0);
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_WG_DEPLOY);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(WHERE("ORANGE"), N20_U_OUT);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "deploy");
    assert_int_equal(t_legal_n(s, N20_ALLIED), 6); /* 2 units x 3 free hexes */
    brt_buf vt;
    buf_init(&vt);
    n20_view_text(s, N20_FRENCH, &vt);
    buf_append(&vt, "", 1);
    assert_non_null(strstr((char *)vt.data, "To deploy on the Russbach Heights: ORANGE ZIETEN"));
    buf_free(&vt);
    assert_true(t_legal_has(s, N20_ALLIED, "deploy ORANGE 2007"));
    NO(N20_ALLIED, "deploy ORANGE 2009", "3.0"); /* not on the Heights */
    NO(N20_ALLIED, "deploy REILLE 2006", "3.0"); /* not a deployed unit */
    NO(N20_FRENCH, "deploy ORANGE 2006", "4.0"); /* the Austrian seat's decision */
    OK(N20_ALLIED, "deploy ORANGE 2006");
    AT("ORANGE", 2006);
    assert_true(t_events_has(&ev, "[3.0] ORANGE is deployed at 2006"));
    NO(N20_ALLIED, "deploy ZIETEN 2006", "3.0"); /* unstacked */
    NO(N20_ALLIED, "deploy ORANGE 2007", "3.0"); /* one placement each */
    assert_int_equal(t_legal_n(s, N20_ALLIED), 2);
    OK(N20_ALLIED, "deploy ZIETEN 2008");
    assert_int_equal(s->dn.deployed, 1);
    assert_int_not_equal(s->phase, N20_PH_WG_DEPLOY);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH); /* the game begins */
    free(s);
}

/* ---- [3.0] Area A now, or Area B three Turns later ------------------------------------------- */

static void s_alt(const char *id, char alt) {
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, id) == 0) {
            g_sc.units[u].alt_area = alt;
            g_sc.units[u].alt_delay = 3;
        }
}

/* [3.0] "the French Player can delay its entry by three (3) Turns, after which it arrives at Area
 * B": on its turn of arrival the unit is sent on (alt-area) and enters only at the other area,
 * three turns later, with no roll. */
static void test_n20_wg_3_0_reinforcement_delayed_three_turns_arrives_at_the_other_area(void **st) {
    (void)st;
    LOCALS;
    s_base();
    s_alt("HILL", 'Y');
    n20_state *s = s_new(&d, 0, 10, N20_ALLIED, N20_PH_MOVE);
    int u = U("HILL");
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 10;
    assert_true(t_legal_has(s, N20_ALLIED, "alt-area HILL"));
    assert_true(t_legal_count_prefix(s, N20_ALLIED, "move HILL 1701") > 0);
    OK(N20_ALLIED, "alt-area HILL");
    assert_int_equal(s->u[u].arrive, 13);
    assert_true(t_events_has(&ev, "[3.0] HILL is delayed three Turns: it arrives at Area Y on Turn 13"));
    NO(N20_ALLIED, "move HILL 1701", "11.0"); /* not due before Turn 13 */
    NO(N20_ALLIED, "alt-area HILL", "3.0");
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move HILL"), 0);
    s->turn = 13;
    NO(N20_ALLIED, "move HILL 1701", "11.6"); /* Area X is no longer its entry area */
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move HILL 1701"), 0);
    assert_true(t_legal_count_prefix(s, N20_ALLIED, "move HILL 2312") > 0);
    OK(N20_ALLIED, "move HILL 2312");
    AT("HILL", 2312);
    free(s);
}

/* [3.0] [11.5] rulings R-dn-wg-3.0-alt: the choice is made on the scheduled turn; a unit left
 * waiting may still enter later at its first area, never at the other. */
static void test_n20_wg_3_0_other_area_only_on_the_turn_of_arrival(void **st) {
    (void)st;
    LOCALS;
    s_base();
    s_alt("HILL", 'Y');
    n20_state *s = s_new(&d, 0, 11, N20_ALLIED, N20_PH_MOVE);
    int u = U("HILL");
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 10;
    assert_false(t_legal_has(s, N20_ALLIED, "alt-area HILL"));
    NO(N20_ALLIED, "alt-area HILL", "3.0");
    NO(N20_ALLIED, "alt-area ORANGE", "3.0"); /* no other area */
    OK(N20_ALLIED, "move HILL 1701");
    AT("HILL", 1701);
    free(s);
}

/* [3.0] "requiring a die roll of 6 for their arrival together": one die for the group, both
 * arrive on a 6 */
static void test_n20_wg_3_0_units_of_a_group_roll_one_die_together(void **st) {
    (void)st;
    LOCALS;
    s_base();
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "HILL") == 0 || strcmp(g_sc.units[u].id, "BULOW") == 0) {
            g_sc.units[u].roll_group = 1;
            g_sc.units[u].need = 6;
        }
    n20_state *s = s_new(&d, 0, 10, N20_ALLIED, N20_PH_MOVE_START);
    s->u[U("HILL")].where = s->u[U("BULOW")].where = N20_U_VARIABLE;
    s->u[U("HILL")].arrive = s->u[U("BULOW")].arrive = 10;
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement (together)"), 1);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement"), 0);
    assert_int_equal(WHERE("HILL"), N20_U_REINF);
    assert_int_equal(WHERE("BULOW"), N20_U_REINF);
    assert_int_equal(s->u[U("BULOW")].arrive, 10);
    free(s);
}

/* the same group on a 5: both wait for the next turn's roll */
static void test_n20_wg_3_0_group_roll_short_of_six_delays_both(void **st) {
    (void)st;
    LOCALS;
    s_base();
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "HILL") == 0 || strcmp(g_sc.units[u].id, "BULOW") == 0) {
            g_sc.units[u].roll_group = 1;
            g_sc.units[u].need = 6;
        }
    n20_state *s = s_new(&d, 0, 10, N20_ALLIED, N20_PH_MOVE_START);
    s->u[U("HILL")].where = s->u[U("BULOW")].where = N20_U_VARIABLE;
    s->u[U("HILL")].arrive = s->u[U("BULOW")].arrive = 10;
    uint32_t r[] = {5};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement (together)"), 1);
    assert_int_equal(WHERE("HILL"), N20_U_VARIABLE);
    assert_int_equal(WHERE("BULOW"), N20_U_VARIABLE);
    assert_int_equal(s->u[U("HILL")].arrive, 11);
    assert_int_equal(s->u[U("BULOW")].arrive, 11);
    free(s);
}

/* ---- [4.1] Turn 1 ------------------------------------------------------------------------------ */

/* [4.1] "The only activity conducted on Game Turn 1 is the French Player's Movement Phase ... the
 * Austrian Player Turn is skipped entirely": no card is drawn, no Reaction or Combat Phase even
 * with enemies adjacent, and the end of the Movement Phase ends the Game Turn. */
static void test_n20_wg_4_1_turn_1_is_the_french_movement_phase_only(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.turn1_move_only = 1;
    s_open(1006);
    n20_state *s = s_new(&d, 0, 1, N20_FRENCH, N20_PH_EVENTS);
    s->first_turn_done = 0;
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", s_nb(1006, 0)); /* adjacent: a battle would be due */
    t_place(s, "COLLAERT", s_nb(1006, 1)); /* cavalry that could react */
    int ndraw = s->ndraw;
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s->ndraw, ndraw); /* no Random Events */
    assert_true(t_events_has(&ev, "[4.1] Turn 1: only the french Movement Phase is played"));
    OK(N20_FRENCH, "end");
    assert_true(t_events_has(&ev, "[4.1] the allied Player Turn of Turn 1 is skipped"));
    assert_false(t_events_has(&ev, "Reaction Phase"));
    assert_false(t_events_has(&ev, "Combat Phase"));
    assert_int_equal(s->turn, 2);
    assert_int_equal(s->phasing, N20_FRENCH); /* Turn 2: the French begin again */
    free(s);
}

/* ---- [6.10.2] Confusion & Congestion ------------------------------------------------------------ */

static void s_cc_map(void) {
    s_base();
    g_sc.dn.turn1_move_only = 1;
    static const uint8_t cc[6] = {1, 1, 2, 2, 2, 3};
    memcpy(g_sc.dn.cc, cc, 6);
    s_open(1006);
    s_open(s_nb(1006, 3));
    s_zone(1006, N20_Z_LOBAU);
    s_zone(s_nb(1006, 3), N20_Z_LOBAU);
    s_zone(s_nb(s_nb(1006, 3), 3), N20_Z_LOBAU);
}

/* [6.10.2] "1 and 2 = only one unit can move off Lobau Island": after the roll of 1 the first unit
 * leaves the island, the second is refused; moving on the island stays free. */
static void test_n20_wg_6_10_2_roll_of_1_lets_one_unit_move_off_lobau(void **st) {
    (void)st;
    LOCALS;
    s_cc_map();
    n20_state *s = s_new(&d, 0, 1, N20_FRENCH, N20_PH_EVENTS);
    unsigned l1 = 1006, l2 = s_nb(1006, 3), l3 = s_nb(l2, 3), m1 = s_nb(1006, 0);
    t_place(s, "REILLE", l1);
    t_place(s, "DERLON", l2);
    uint32_t r[] = {1};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(t_dice_count(&d, "6.10.2 confusion and congestion"), 1);
    assert_true(t_events_has(&ev, "[6.10.2] Confusion & Congestion roll 1: up to 1 unit(s) may move off Lobau"));
    OK(N20_FRENCH, s_o("move REILLE %04u", m1));
    assert_int_equal(s->dn.cc_left, 0);
    NO(N20_FRENCH, s_o("move DERLON %04u %04u", l1, s_nb(l1, 5)), "6.10.2");
    assert_false(t_legal_has(s, N20_FRENCH, s_o("move DERLON %04u %04u", l1, s_nb(l1, 5))));
    assert_true(t_legal_has(s, N20_FRENCH, s_o("move DERLON %04u", l3)));
    OK(N20_FRENCH, s_o("move DERLON %04u", l3)); /* on the island */
    free(s);
}

/* [6.10.2] "6 = up to three units": the cap is the table's value for the die */
static void test_n20_wg_6_10_2_roll_of_6_lets_three_units_move_off_lobau(void **st) {
    (void)st;
    LOCALS;
    s_cc_map();
    n20_state *s = s_new(&d, 0, 1, N20_FRENCH, N20_PH_EVENTS);
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.cc_left, 3);
    free(s);
}

/* [6.10.2] "On Game Turn 1 only": no roll and no cap on Turn 2 */
static void test_n20_wg_6_10_2_no_cap_after_turn_1(void **st) {
    (void)st;
    LOCALS;
    s_cc_map();
    n20_state *s = s_new(&d, 0, 2, N20_FRENCH, N20_PH_MOVE_START);
    unsigned l1 = 1006, l2 = s_nb(1006, 3);
    t_place(s, "REILLE", l1);
    t_place(s, "DERLON", l2);
    s_run(s, &d, &ev);
    assert_int_equal(t_dice_count(&d, "6.10.2 confusion and congestion"), 0);
    assert_int_equal(s->dn.cc_left, 0xff);
    OK(N20_FRENCH, s_o("move REILLE %04u", s_nb(l1, 0)));
    OK(N20_FRENCH, s_o("move DERLON %04u %04u", l1, s_nb(l1, 5)));
    free(s);
}

/* [6.10.2] rulings R-dn-wg-6.10.2-off: a Leader [16.9] leaving Lobau does not use the cap */
static void test_n20_wg_6_10_2_a_leader_moving_off_lobau_is_not_counted(void **st) {
    (void)st;
    LOCALS;
    s_cc_map();
    n20_state *s = s_new(&d, N20_OPT_LEADERS, 1, N20_FRENCH, N20_PH_EVENTS);
    unsigned l1 = 1006, l2 = s_nb(1006, 3), m1 = s_nb(1006, 0);
    t_place(s, "NAPOLEON", l1);
    t_place(s, "REILLE", l2);
    uint32_t r[] = {1};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.cc_left, 1);
    OK(N20_FRENCH, s_o("move NAPOLEON %04u", m1));
    assert_int_equal(s->dn.cc_left, 1);
    OK(N20_FRENCH, s_o("move REILLE %04u %04u", l1, s_nb(l1, 5)));
    assert_int_equal(s->dn.cc_left, 0);
    free(s);
}

/* [6.10.2] rulings R-dn-wg-6.10.2-off: a reinforcement entering at an entry hex on the island and
 * going on off it is moved off Lobau Island */
static void test_n20_wg_6_10_2_reinforcement_entering_on_lobau_and_leaving_counts(void **st) {
    (void)st;
    LOCALS;
    s_cc_map();
    s_open(1701);
    s_zone(1701, N20_Z_LOBAU);
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "GERARD") == 0) g_sc.units[u].area = 'X';
    n20_state *s = s_new(&d, 0, 1, N20_FRENCH, N20_PH_EVENTS);
    s->u[U("GERARD")].where = N20_U_REINF;
    s->u[U("GERARD")].arrive = 1;
    t_place(s, "REILLE", 1006);
    uint32_t r[] = {1};
    t_dice_script(&d, 1, r);
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.cc_left, 1);
    unsigned off = 0;
    for (int dir = 0; dir < 6 && !off; dir++) {
        uint16_t to;
        if (n20_neighbor(&g_sc, n20_hex(1701), dir, &to) == 0 && !(g_sc.dn.zone[to] & N20_Z_LOBAU)) off = n20_xxyy(to);
    }
    assert_true(off != 0);
    OK(N20_FRENCH, s_o("move GERARD 1701 %04u", off));
    assert_int_equal(s->dn.cc_left, 0);
    NO(N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0)), "6.10.2");
    free(s);
}

/* ---- [6.10.1] Hasty Construction ---------------------------------------------------------------- */

static void s_hasty_map(void) {
    s_base();
    s_open(1006);
    s_major(1006, s_nb(1006, 0), 1); /* a bridged hexside */
    g_sc.dn.incomplete[0].a = n20_hex(1006);
    g_sc.dn.incomplete[0].b = n20_hex(s_nb(1006, 0));
    g_sc.dn.nincomplete = 1;
    g_sc.dn.secure[0] = n20_hex(2010);
    g_sc.dn.secure[1] = n20_hex(2012);
    g_sc.dn.nsecure = 2;
}

/* [6.10.1] the incomplete bridges "are unusable by either player" while an Austrian unit holds one
 * of the two hexes at the start of the French Player Turn */
static void test_n20_wg_6_10_1_incomplete_bridge_unusable_while_austrians_hold_a_secure_hex(void **st) {
    (void)st;
    LOCALS;
    s_hasty_map();
    n20_state *s = s_new(&d, 0, 9, N20_FRENCH, N20_PH_EVENTS);
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", 2012);
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s->dn.secured, 0);
    NO(N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0)), "6.10.1");
    assert_false(t_legal_has(s, N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0))));
    free(s);
}

/* [6.10.1] "At the beginning of any French Player Turn that hexes 1510 and 1710 are both
 * unoccupied by Austrian units, these bridges are completed": Crossings Secured */
static void test_n20_wg_6_10_1_bridges_complete_at_a_french_turn_with_the_hexes_free(void **st) {
    (void)st;
    LOCALS;
    s_hasty_map();
    n20_state *s = s_new(&d, 0, 9, N20_FRENCH, N20_PH_EVENTS);
    t_place(s, "REILLE", 1006);
    t_place(s, "DERLON", 2010); /* a French unit does not keep it incomplete */
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.secured, 1);
    assert_true(t_events_has(&ev, "(Crossings Secured)"));
    OK(N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0)));
    free(s);
}

/* [6.10.1] only at a French Player Turn: an Austrian Player Turn with the hexes free completes
 * nothing; and once complete they stay so "for the remainder of the game" */
static void test_n20_wg_6_10_1_checked_at_french_turns_only_and_stays_complete(void **st) {
    (void)st;
    LOCALS;
    s_hasty_map();
    n20_state *s = s_new(&d, 0, 9, N20_ALLIED, N20_PH_EVENTS);
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.secured, 0);
    s->dn.secured = 1;
    t_place(s, "ORANGE", 2010);
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_EVENTS;
    t_place(s, "REILLE", 1006);
    s_run(s, &d, &ev);
    assert_int_equal(s->dn.secured, 1);
    OK(N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0)));
    free(s);
}

/* [18.0] #3 the Marchfeld starts "with its Crossings Secured side up" */
static void test_n20_mf_18_0_crossings_secured_from_the_set_up(void **st) {
    (void)st;
    LOCALS;
    s_hasty_map();
    g_sc.dn.secured0 = 1;
    n20_state *s = s_new(&d, 0, 9, N20_FRENCH, N20_PH_MOVE);
    assert_int_equal(s->dn.secured, 1);
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", 2012);
    OK(N20_FRENCH, s_o("move REILLE %04u", s_nb(1006, 0)));
    free(s);
}

/* ---- [6.11] Austrian Caution ------------------------------------------------------------------- */

static void s_caution_map(void) {
    s_base();
    g_sc.dn.caution_turn = 8;
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "ZIETEN") == 0) g_sc.units[u].flags |= N20_FLAG_INACTIVE;
    s_open(1006);
    s_open(s_nb(1006, 0));
}

/* [6.11] "All other Austrian units ... are 'inactive' and cannot move until released" (Turn 8) */
static void test_n20_wg_6_11_inactive_unit_cannot_move_before_turn_8(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    n20_state *s = s_new(&d, 0, 7, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "ZIETEN", 1006);
    t_place(s, "PIRCH", s_nb(1006, 3));
    NO(N20_ALLIED, s_o("move ZIETEN %04u", s_nb(1006, 0)), "6.11");
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move ZIETEN"), 0);
    assert_true(t_legal_count_prefix(s, N20_ALLIED, "move PIRCH") > 0); /* released units move */
    free(s);
}

/* [6.11] "Until the 6 July, Morning turn (i.e., Game Turn 8)": from Turn 8 it moves */
static void test_n20_wg_6_11_inactive_unit_released_on_turn_8(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    n20_state *s = s_new(&d, 0, 8, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "ZIETEN", 1006);
    OK(N20_ALLIED, s_o("move ZIETEN %04u", s_nb(1006, 0)));
    free(s);
}

/* [6.11] "(they can still attack normally)" */
static void test_n20_wg_6_11_inactive_unit_still_attacks(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    n20_state *s = s_new(&d, 0, 7, N20_ALLIED, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1006);
    t_place(s, "GERARD", s_nb(1006, 0));
    OK(N20_ALLIED, "declare ZIETEN -> GERARD");
    assert_int_equal(s->phase, N20_PH_BATTLES);
    free(s);
}

/* [6.11] rulings R-dn-wg-6.11-caution: an inactive victor does not Advance after Combat; an
 * active one does. ZIETEN + PIRCH 6 against GERARD 2: +4, die 6: DB. */
static void test_n20_wg_6_11_inactive_unit_does_not_advance_after_combat(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    unsigned g = s_nb(1006, 0), p = 0;
    for (int dir = 0; dir < 6 && !p; dir++) /* a hex next to both */
        if (s_nb(1006, dir) != g && n20_dir(&g_sc, n20_hex(s_nb(1006, dir)), n20_hex(g)) >= 0) p = s_nb(1006, dir);
    assert_true(p != 0);
    s_open(p);
    n20_state *s = s_new(&d, 0, 7, N20_ALLIED, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1006);
    t_place(s, "PIRCH", p);
    t_place(s, "GERARD", g);
    OK(N20_ALLIED, "declare ZIETEN,PIRCH -> GERARD");
    uint32_t r[] = {6};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(WHERE("GERARD"), N20_U_BROKEN);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    NO(N20_ALLIED, s_o("advance ZIETEN %04u", g), "6.11");
    assert_false(t_legal_has(s, N20_ALLIED, s_o("advance ZIETEN %04u", g)));
    assert_true(t_legal_has(s, N20_ALLIED, s_o("advance PIRCH %04u", g)));
    OK(N20_ALLIED, s_o("advance PIRCH %04u", g));
    free(s);
}

/* [6.11] rulings R-dn-wg-6.11-caution: an inactive unit does not Disengage (a Reaction move); an
 * active cavalry unit in its place may */
static void test_n20_wg_6_11_inactive_cavalry_does_not_disengage(void **st) {
    (void)st;
    for (int inactive = 0; inactive < 2; inactive++) {
        LOCALS;
        s_caution_map();
        s_open(s_nb(1006, 3));
        for (int u = 0; u < g_sc.nunits; u++)
            if (strcmp(g_sc.units[u].id, "COLLAERT") == 0) {
                if (inactive) g_sc.units[u].flags |= N20_FLAG_INACTIVE;
                else g_sc.units[u].flags &= (uint16_t)~N20_FLAG_INACTIVE;
            }
        n20_state *s = s_new(&d, 0, 7, N20_FRENCH, N20_PH_REACTION_START);
        t_place(s, "COLLAERT", 1006);
        t_place(s, "REILLE", s_nb(1006, 0));
        s->u[U("REILLE")].flags |= N20_UF_MOVED;
        s_run(s, &d, &ev);
        assert_int_equal(s->phase, N20_PH_REACTION);
        const char *o = s_o("disengage COLLAERT %04u", s_nb(1006, 3));
        if (inactive) {
            NO(N20_ALLIED, o, "6.11");
            assert_false(t_legal_has(s, N20_ALLIED, o));
        } else {
            assert_true(t_legal_has(s, N20_ALLIED, o));
            OK(N20_ALLIED, o);
        }
        free(s);
    }
}

/* [6.11] "cannot move": an inactive cavalry unit does not Penetrate [16.2] (a move through the
 * EZOCs); the same unit released does */
static void test_n20_wg_6_11_inactive_cavalry_does_not_penetrate(void **st) {
    (void)st;
    for (int inactive = 0; inactive < 2; inactive++) {
        LOCALS;
        s_caution_map();
        for (int k = 1; k < 6; k++) s_open(s_nb(1006, k));
        for (int u = 0; u < g_sc.nunits; u++)
            if (strcmp(g_sc.units[u].id, "COLLAERT") == 0) {
                if (inactive) g_sc.units[u].flags |= N20_FLAG_INACTIVE;
                else g_sc.units[u].flags &= (uint16_t)~N20_FLAG_INACTIVE;
            }
        n20_state *s = s_new(&d, N20_OPT_CAV_PENETRATION, 7, N20_FRENCH, N20_PH_REACTION_START);
        t_place(s, "COLLAERT", 1006);
        t_place(s, "REILLE", s_nb(1006, 0));
        s->u[U("REILLE")].flags |= N20_UF_MOVED;
        s_run(s, &d, &ev);
        assert_int_equal(s->phase, N20_PH_REACTION);
        int n = t_legal_count_prefix(s, N20_ALLIED, "penetrate COLLAERT ");
        if (inactive) {
            assert_int_equal(n, 0);
            NO(N20_ALLIED, s_o("penetrate COLLAERT %04u", s_nb(1006, 1)), "6.11");
        } else {
            assert_true(n > 0);
        }
        free(s);
    }
}

/* [6.11] "they can still attack normally": an inactive cavalry unit Countercharges [8.1] from its hex */
static void test_n20_wg_6_11_inactive_cavalry_still_countercharges(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "COLLAERT") == 0) g_sc.units[u].flags |= N20_FLAG_INACTIVE;
    n20_state *s = s_new(&d, 0, 7, N20_FRENCH, N20_PH_REACTION_START);
    t_place(s, "COLLAERT", 1006);
    t_place(s, "REILLE", s_nb(1006, 0));
    s->u[U("REILLE")].flags |= N20_UF_MOVED;
    s_run(s, &d, &ev);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_true(n20_wg_inactive(s, U("COLLAERT")));
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge COLLAERT -> REILLE"));
    OK(N20_ALLIED, "countercharge COLLAERT -> REILLE");
    free(s);
}

/* [6.11] a Forced March of the army does not move an inactive unit */
static void test_n20_wg_6_11_forced_march_does_not_release_an_inactive_unit(void **st) {
    (void)st;
    LOCALS;
    s_caution_map();
    n20_state *s = s_new(&d, 0, 7, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "ZIETEN", 1006);
    OK(N20_ALLIED, "forcemarch prussian");
    NO(N20_ALLIED, s_o("move ZIETEN %04u", s_nb(1006, 0)), "6.11");
    free(s);
}

/* ---- [12.7] [12.8] -------------------------------------------------------------------------- */

/* [12.7] "When the Austrian Archduke John unit enters play as a reinforcement ... +1 the Austrian
 * Morale level" (rulings R-dn-wg-12.7-entry: on entering the map) */
static void test_n20_wg_12_7_help_is_on_the_way_when_the_unit_enters_play(void **st) {
    (void)st;
    LOCALS;
    s_base();
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "HILL") == 0) g_sc.units[u].arrive_morale = 1;
    n20_state *s = s_new(&d, 0, 10, N20_ALLIED, N20_PH_MOVE);
    s->u[U("HILL")].where = N20_U_REINF;
    s->u[U("HILL")].arrive = 10;
    s->u[U("UXBRIDGE")].where = N20_U_REINF;
    s->u[U("UXBRIDGE")].arrive = 10;
    OK(N20_ALLIED, "move UXBRIDGE 1801");
    assert_int_equal(s->morale[N20_ALLIED], 6); /* another unit: nothing */
    OK(N20_ALLIED, "move HILL 1701");
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_true(t_events_has(&ev, "[12.7] Help is On The Way: HILL enters play"));
    free(s);
}

/* [12.8] "The first time an Austrian unit enters any hex of Lobau Island, immediately lower by two
 * (-2) the French Morale level": once */
static void test_n20_wg_12_8_first_austrian_entry_into_lobau_costs_the_french_2_once(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.lobau_morale = -2;
    s_open(1006);
    unsigned l1 = s_nb(1006, 0), l2 = s_nb(1006, 2);
    s_zone(l1, N20_Z_LOBAU);
    s_zone(l2, N20_Z_LOBAU);
    n20_state *s = s_new(&d, 0, 9, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "ZIETEN", 1006);
    t_place(s, "PIRCH", s_nb(1006, 3));
    t_place(s, "REILLE", 1505); /* a French unit entering Lobau is no catastrophe */
    OK(N20_ALLIED, s_o("move ZIETEN %04u", l1));
    assert_int_equal(s->morale[N20_FRENCH], 4);
    assert_int_equal(s->dn.lobau_hit, 1);
    assert_true(t_events_has(&ev, s_o("[12.8] Catastrophe: ZIETEN enters Lobau Island at %04u", l1)));
    OK(N20_ALLIED, s_o("move PIRCH 1006 %04u", l2));
    assert_int_equal(s->morale[N20_FRENCH], 4); /* once */
    free(s);
}

/* ---- [13.0] [14.0] ---------------------------------------------------------------------------- */

/* [13.0] "Lulls cannot be declared until the 6 July, Morning turn (i.e., Game Turn 8)" */
static void test_n20_wg_13_0_no_lull_before_turn_8(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.lull_turn = 8;
    for (int turn = 7; turn <= 8; turn++) {
        n20_state *s = s_new(&d, 0, turn, N20_FRENCH, N20_PH_COMBAT_END);
        t_place(s, "REILLE", 1006);
        t_place(s, "ORANGE", 2012);
        s->night_seen = 1;
        s->morale[N20_FRENCH] = 5;
        t_events e2 = {0};
        s_run(s, &d, &e2);
        assert_int_equal(t_events_has(&e2, "[13.0] Lull: the french side rests"), turn == 8);
        assert_int_equal(s->morale[N20_FRENCH], turn == 8 ? 6 : 5);
        free(s);
    }
}

/* [14.0] Home Ground: "If an Austrian unit physically occupies 1006 and/or 1605, Austrian Morale
 * increases by two (+2) when Recovering Morale from Resting at Night" (instead of the rest) */
static void test_n20_wg_14_0_home_ground_rest_is_2_with_a_yellow_star_occupied(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.home[0] = n20_hex(1006);
    g_sc.dn.home[1] = n20_hex(1605);
    g_sc.dn.nhome = 2;
    g_sc.dn.home_mode = 1;
    g_sc.dn.home_bonus = 2;
    for (int occupied = 0; occupied < 2; occupied++) {
        n20_state *s = s_new(&d, 0, 13, N20_ALLIED, N20_PH_NIGHT_OPS);
        t_place(s, "ORANGE", occupied ? 1605 : 1505);
        t_place(s, "REILLE", 1006); /* a French unit on the other star does not matter */
        n20_out out = {t_events_emit, &ev};
        n20_night_ops_auto(s, &out);
        assert_int_equal(s->morale[N20_ALLIED], 6 + (occupied ? 2 : g_sc.rest[N20_ALLIED]));
        free(s);
    }
}

/* ---- [16.10] The Floridsdorf Pontoon ---------------------------------------------------------- */

static unsigned g_fa, g_fb; /* 0713 (north) and 0714 (south) of the test */

static void s_flor_map(void) {
    s_base();
    g_fa = 1006;
    g_fb = s_nb(1006, 0);
    s_open(g_fa);
    s_open(g_fb);
    s_major(g_fa, g_fb, 0);
    g_sc.dn.flor_a = n20_hex(g_fa);
    g_sc.dn.flor_b = n20_hex(g_fb);
    g_sc.dn.flor_loc = n20_hex(g_fb);
}

/* [16.10] "moving a French Infantry unit (only) between these two hexes; the unit must spend its
 * entire Movement Allowance": the move is that one step, and it builds the bridge */
static void test_n20_wg_16_10_french_infantry_builds_the_pontoon_with_its_whole_allowance(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", g_fb);
    assert_int_equal(s->dn.flor, N20_PON_NONE);
    NO(N20_FRENCH, s_o("move REILLE %04u %04u", g_fa, s_nb(g_fa, 3)), "6.2"); /* nothing left after it */
    assert_true(t_legal_has(s, N20_FRENCH, s_o("move REILLE %04u", g_fa)));
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, s_o("move REILLE %04u ", g_fa)), 0);
    OK(N20_FRENCH, s_o("move REILLE %04u", g_fa));
    assert_int_equal(s->dn.flor, N20_PON_INTACT);
    assert_int_equal(s->dn.flor_used, 1); /* [9.8.6] the LOC there is Active */
    assert_true(t_events_has(&ev, "[16.10] REILLE completes the Floridsdorf pontoon bridge"));
    free(s);
}

/* [16.10] "If that French Infantry unit also enters an EZOC, then a Battle will result normally":
 * the builder may end next to the enemy, and must then attack it [9.1] */
static void test_n20_wg_16_10_builder_may_enter_an_enemy_zoc(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    unsigned e = s_nb(g_fa, 3);
    s_open(e);
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", g_fb);
    t_place(s, "ORANGE", e);
    OK(N20_FRENCH, s_o("move REILLE %04u", g_fa));
    assert_int_equal(s->dn.flor, N20_PON_INTACT);
    assert_true(n20_in_ezoc(s, n20_hex(g_fa), N20_ALLIED, 0));
    assert_true(n20_must_attack(s, U("REILLE")));
    free(s);
}

/* [16.10] "(only)" Infantry; and never without the optional rule */
static void test_n20_wg_16_10_only_french_infantry_and_only_with_the_option(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "KELLERMANN", g_fb);
    NO(N20_FRENCH, s_o("move KELLERMANN %04u", g_fa), "16.10");
    free(s);
    s = s_new(&d, 0, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", g_fb);
    NO(N20_FRENCH, s_o("move REILLE %04u", g_fa), "16.10");
    free(s);
}

/* [16.10] "If hex 0713 is occupied by an Austrian unit, then the French Player cannot build" */
static void test_n20_wg_16_10_no_building_while_0713_is_austrian(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", g_fb);
    t_place(s, "ORANGE", g_fa);
    NO(N20_FRENCH, s_o("move REILLE %04u", g_fa), "16.10");
    assert_int_equal(s->dn.flor, N20_PON_NONE);
    free(s);
}

/* [16.10.1] "Once built, this bridge can only be used by the French. It functions as a normal
 * bridge" */
static void test_n20_wg_16_10_1_built_pontoon_is_a_french_only_bridge(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    s->dn.flor = N20_PON_INTACT;
    t_place(s, "REILLE", g_fb);
    OK(N20_FRENCH, s_o("move REILLE %04u %04u", g_fa, s_nb(g_fa, 3))); /* a normal bridge */
    free(s);
    s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_ALLIED, N20_PH_MOVE);
    s->dn.flor = N20_PON_INTACT;
    t_place(s, "ORANGE", g_fa);
    NO(N20_ALLIED, s_o("move ORANGE %04u", g_fb), "16.10.1");
    free(s);
}

/* [16.10.2] "If an Austrian unit ever enters hex 0713 after the bridge has been built, the
 * Pontoon Bridges marker is permanently destroyed and cannot be rebuilt" */
static void test_n20_wg_16_10_2_austrian_entering_0713_destroys_the_pontoon_for_good(void **st) {
    (void)st;
    LOCALS;
    s_flor_map();
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_ALLIED, N20_PH_MOVE);
    s->dn.flor = N20_PON_INTACT;
    t_place(s, "ORANGE", s_nb(g_fa, 3));
    OK(N20_ALLIED, s_o("move ORANGE %04u", g_fa));
    assert_int_equal(s->dn.flor, N20_PON_DESTROYED);
    assert_true(t_events_has(&ev, "the Floridsdorf pontoon is destroyed"));
    t_place(s, "REILLE", g_fb);
    s->phasing = N20_FRENCH;
    s->u[U("ORANGE")].where = N20_U_OUT;
    NO(N20_FRENCH, s_o("move REILLE %04u", g_fa), "16.10.2");
    free(s);
}

/* ---- [6.10] retreats across the Lobau bridges; [16.10.1] across the pontoon ------------------ */

/* REILLE at 1006 attacked by ORANGE from the other side; behind it, across a bridged Major River,
 * the hex L; the French LOC beyond L (so that L is the one hex closer). lobau: L is on Lobau. */
static unsigned s_retreat_map(int lobau) {
    s_base();
    unsigned l = s_nb(1006, 3), loc = s_nb(l, 3);
    s_open(1006);
    s_open(l);
    s_open(s_nb(1006, 0));
    s_major(1006, l, 1);
    if (lobau) s_zone(l, N20_Z_LOBAU);
    g_sc.loc[N20_ARMY_FRENCH][0] = n20_hex(loc);
    g_sc.nloc[N20_ARMY_FRENCH] = 1;
    return l;
}

/* 4 against 4, die 4: DW; REILLE withdraws one hex, across the bridge */
static n20_state *s_retreat_fight(t_dice *d, t_events *ev, uint32_t opts) {
    n20_state *s = s_new(d, opts, 9, N20_ALLIED, N20_PH_DECLARE);
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", s_nb(1006, 0));
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "declare ORANGE -> REILLE", d, ev, &err), 0);
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, d, ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(s->u[n20_unit_find(s, "REILLE")].routed, 0);
    d->npurposes = 0;
    return s;
}

/* [6.10] "When Retreating across any of the bridges to or from Lobau Island, units ... do not require
 * a Hazardous Retreat die roll ... However, such Retreating units automatically receive an
 * appropriate Rout! marker" */
static void test_n20_wg_6_10_retreat_across_a_lobau_bridge_is_safe_and_routed(void **st) {
    (void)st;
    LOCALS;
    unsigned l = s_retreat_map(1);
    n20_state *s = s_retreat_fight(&d, &ev, 0);
    OK(N20_FRENCH, s_o("retreat REILLE %04u", l));
    AT("REILLE", l);
    assert_int_equal(WHERE("REILLE"), N20_U_MAP);
    assert_int_equal(d.npurposes, 0); /* no hazard roll */
    assert_int_not_equal(s->u[U("REILLE")].routed, 0);
    free(s);
}

/* the same retreat across a bridge that does not lead to or from Lobau: the river hazard roll
 * [9.8.4] and no Rout! marker */
static void test_n20_wg_6_10_retreat_across_another_bridge_rolls_the_hazard(void **st) {
    (void)st;
    LOCALS;
    unsigned l = s_retreat_map(0);
    n20_state *s = s_retreat_fight(&d, &ev, 0);
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    OK(N20_FRENCH, s_o("retreat REILLE %04u", l));
    AT("REILLE", l);
    assert_int_equal(d.npurposes, 1); /* the hazard roll */
    assert_int_equal(s->u[U("REILLE")].routed, 0);
    free(s);
}

/* [6.10.1] "unusable by either player": no retreat across an incomplete bridge */
static void test_n20_wg_6_10_1_no_retreat_across_an_incomplete_bridge(void **st) {
    (void)st;
    LOCALS;
    unsigned l = s_retreat_map(1);
    g_sc.dn.incomplete[0].a = n20_hex(1006);
    g_sc.dn.incomplete[0].b = n20_hex(l);
    g_sc.dn.nincomplete = 1;
    n20_state *s = s_retreat_fight(&d, &ev, 0);
    NO(N20_FRENCH, s_o("retreat REILLE %04u", l), "9.8.1"); /* v3 [9.8.1] = v4 [9.7.2.1] */
    assert_false(t_legal_has(s, N20_FRENCH, s_o("retreat REILLE %04u", l)));
    free(s);
}

/* [16.10.1] "Retreats across it are considered Hazardous Retreats (see 9.8.4)"; [9.8.6] the LOC
 * at 0714 is Active once French units crossed there */
static void test_n20_wg_16_10_1_retreat_across_the_pontoon_is_hazardous(void **st) {
    (void)st;
    LOCALS;
    s_base();
    unsigned l = s_nb(1006, 3);
    s_open(1006);
    s_open(l);
    s_open(s_nb(1006, 0));
    s_major(1006, l, 0); /* the Danube: no bridge in the map */
    g_sc.dn.flor_a = n20_hex(1006);
    g_sc.dn.flor_b = n20_hex(l);
    g_sc.dn.flor_loc = n20_hex(s_nb(l, 3));
    g_sc.loc[N20_ARMY_FRENCH][0] = n20_hex(s_nb(l, 3));
    g_sc.nloc[N20_ARMY_FRENCH] = 1;
    n20_state *s = s_retreat_fight(&d, &ev, N20_OPT_FLORIDSDORF);
    s->dn.flor = N20_PON_INTACT;
    s->dn.flor_used = 1;
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_true(t_legal_has(s, N20_FRENCH, s_o("retreat REILLE %04u", l)));
    OK(N20_FRENCH, s_o("retreat REILLE %04u", l));
    assert_int_equal(d.npurposes, 1); /* the hazard roll: 3 Breaks the unit */
    assert_int_equal(WHERE("REILLE"), N20_U_BROKEN);
    free(s);
}

/* [9.8.6] "If French units have crossed ... at Floridsdorf, French units can also Retreat towards
 * the LOC there in hex 0714": Active only after the crossing */
static void test_n20_wg_9_8_6_floridsdorf_loc_active_after_a_crossing(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.flor_a = n20_hex(1006);
    g_sc.dn.flor_b = n20_hex(s_nb(1006, 0));
    g_sc.dn.flor_loc = n20_hex(s_nb(1006, 0));
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 9, N20_FRENCH, N20_PH_MOVE);
    uint16_t h = n20_hex(1006);
    int before = n20_loc_distance(s, N20_ARMY_FRENCH, h);
    assert_true(before > 1);
    s->dn.flor = N20_PON_INTACT;
    assert_int_equal(n20_loc_distance(s, N20_ARMY_FRENCH, h), before); /* built, nobody crossed */
    s->dn.flor_used = 1;
    assert_int_equal(n20_loc_distance(s, N20_ARMY_FRENCH, h), 1);
    free(s);
}

/* ---- [18.0] #5 the Marchfeld's end ---------------------------------------------------------- */

/* [18.0] #5 "This scenario ends at the conclusion of the Austrian player's Combat Phase on ... Game
 * Turn 12" (rulings R-dn-wg-18.0-end: its Lull, part of that Combat Phase [4.0] #4, counts) */
static void test_n20_mf_18_0_game_ends_after_the_austrian_combat_phase_of_turn_12(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.end_turn = 12;
    g_sc.dn.end_side = N20_ALLIED;
    g_sc.dn.end_phase = N20_PH_COMBAT_END;
    g_sc.dn.lull_turn = 8;
    g_sc.turns[12].night = 0; /* 6 July, Evening */
    n20_state *s = s_new(&d, 0, 12, N20_FRENCH, N20_PH_COMBAT_END);
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", 2012);
    s->night_seen = 1;
    s_run(s, &d, &ev);
    assert_false(s->over); /* the French Combat Phase: play goes on */
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_COMBAT_END;
    s->morale[N20_ALLIED] = 5;
    s_run(s, &d, &ev);
    assert_true(s->over);
    assert_true(t_events_has(&ev, "[13.0] Lull: the allied side rests"));
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "18.0 end of the scenario"));
    assert_int_equal(s->turn, 12);
    free(s);
}

/* [18.0] #5 the end is the data's phase (end-after TURN SIDE combat): at Turn 12 the Austrian
 * Movement Phase is no end, and a scenario whose end phase is not the Combat Phase goes on past it */
static void test_n20_mf_18_0_end_is_read_at_the_data_phase_only(void **st) {
    (void)st;
    LOCALS;
    s_base();
    g_sc.dn.end_turn = 12;
    g_sc.dn.end_side = N20_ALLIED;
    g_sc.dn.end_phase = N20_PH_COMBAT_END;
    g_sc.turns[12].night = 0;
    n20_state *s = s_new(&d, 0, 12, N20_ALLIED, N20_PH_MOVE);
    assert_false(n20_wg_end_now(s));
    s->phase = N20_PH_COMBAT_END;
    assert_true(n20_wg_end_now(s));
    g_sc.dn.end_phase = N20_PH_TURN_END; /* another phase: the Combat Phase's end is no end */
    t_place(s, "REILLE", 1006);
    t_place(s, "ORANGE", 2012);
    s_run(s, &d, &ev);
    assert_false(t_events_has(&ev, "18.0 end of the scenario"));
    free(s);
}

/* ---- the view ------------------------------------------------------------------------------ */

/* the view shows what the players see on the board: the Crossings Secured side of the French
 * Morale marker [6.10.1], the inactive (flipped) units [6.11], the Floridsdorf marker [16.10] and
 * the Entry Area of a reinforcement delayed to Area B [3.0] */
static void test_n20_wg_view_shows_the_crossings_the_inactive_units_and_the_pontoon(void **st) {
    (void)st;
    LOCALS;
    s_hasty_map();
    s_alt("HILL", 'Y');
    g_sc.dn.caution_turn = 8;
    g_sc.dn.flor_a = n20_hex(2006);
    g_sc.dn.flor_b = n20_hex(s_nb(2006, 0));
    for (int u = 0; u < g_sc.nunits; u++)
        if (strcmp(g_sc.units[u].id, "ZIETEN") == 0) g_sc.units[u].flags |= N20_FLAG_INACTIVE;
    n20_state *s = s_new(&d, N20_OPT_FLORIDSDORF, 7, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "ZIETEN", 1006);
    s->u[U("HILL")].where = N20_U_REINF;
    s->u[U("HILL")].arrive = 7;
    OK(N20_ALLIED, "alt-area HILL");
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_view_text(s, N20_FRENCH, &b), 0);
    buf_append(&b, "", 1);
    assert_non_null(strstr((char *)b.data, "Lobau bridges: incomplete"));
    assert_non_null(strstr((char *)b.data, "Floridsdorf pontoon: unbuilt"));
    assert_non_null(strstr((char *)b.data, "INACTIVE"));
    assert_non_null(strstr((char *)b.data, "turn 10 area Y"));
    buf_reset(&b);
    s->dn.secured = 1;
    s->dn.flor = N20_PON_INTACT;
    assert_int_equal(n20_view(s, N20_FRENCH, &b), 0);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    assert_true(v->crossings_secured);
    assert_string_equal(v->floridsdorf, "built");
    int seen = 0;
    for (size_t i = 0; i < v->n_units; i++) {
        if (strcmp(v->units[i]->id, "ZIETEN") == 0) { assert_true(v->units[i]->inactive); seen |= 1; }
        if (strcmp(v->units[i]->id, "PIRCH") == 0) assert_false(v->units[i]->inactive);
        if (strcmp(v->units[i]->id, "HILL") == 0) { assert_string_equal(v->units[i]->entry_area, "Y"); seen |= 2; }
    }
    assert_int_equal(seen, 3);
    n20__v1__view__free_unpacked(v, NULL);
    buf_free(&b);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_wg_3_0_austrian_deploys_one_unit_at_a_time_in_the_heights),
        cmocka_unit_test(test_n20_wg_3_0_reinforcement_delayed_three_turns_arrives_at_the_other_area),
        cmocka_unit_test(test_n20_wg_3_0_other_area_only_on_the_turn_of_arrival),
        cmocka_unit_test(test_n20_wg_3_0_units_of_a_group_roll_one_die_together),
        cmocka_unit_test(test_n20_wg_3_0_group_roll_short_of_six_delays_both),
        cmocka_unit_test(test_n20_wg_4_1_turn_1_is_the_french_movement_phase_only),
        cmocka_unit_test(test_n20_wg_6_10_2_roll_of_1_lets_one_unit_move_off_lobau),
        cmocka_unit_test(test_n20_wg_6_10_2_roll_of_6_lets_three_units_move_off_lobau),
        cmocka_unit_test(test_n20_wg_6_10_2_no_cap_after_turn_1),
        cmocka_unit_test(test_n20_wg_6_10_2_a_leader_moving_off_lobau_is_not_counted),
        cmocka_unit_test(test_n20_wg_6_10_2_reinforcement_entering_on_lobau_and_leaving_counts),
        cmocka_unit_test(test_n20_wg_6_10_1_incomplete_bridge_unusable_while_austrians_hold_a_secure_hex),
        cmocka_unit_test(test_n20_wg_6_10_1_bridges_complete_at_a_french_turn_with_the_hexes_free),
        cmocka_unit_test(test_n20_wg_6_10_1_checked_at_french_turns_only_and_stays_complete),
        cmocka_unit_test(test_n20_mf_18_0_crossings_secured_from_the_set_up),
        cmocka_unit_test(test_n20_wg_6_11_inactive_unit_cannot_move_before_turn_8),
        cmocka_unit_test(test_n20_wg_6_11_inactive_unit_released_on_turn_8),
        cmocka_unit_test(test_n20_wg_6_11_inactive_unit_still_attacks),
        cmocka_unit_test(test_n20_wg_6_11_inactive_unit_does_not_advance_after_combat),
        cmocka_unit_test(test_n20_wg_6_11_inactive_cavalry_does_not_disengage),
        cmocka_unit_test(test_n20_wg_6_11_inactive_cavalry_does_not_penetrate),
        cmocka_unit_test(test_n20_wg_6_11_inactive_cavalry_still_countercharges),
        cmocka_unit_test(test_n20_wg_6_11_forced_march_does_not_release_an_inactive_unit),
        cmocka_unit_test(test_n20_wg_12_7_help_is_on_the_way_when_the_unit_enters_play),
        cmocka_unit_test(test_n20_wg_12_8_first_austrian_entry_into_lobau_costs_the_french_2_once),
        cmocka_unit_test(test_n20_wg_13_0_no_lull_before_turn_8),
        cmocka_unit_test(test_n20_wg_14_0_home_ground_rest_is_2_with_a_yellow_star_occupied),
        cmocka_unit_test(test_n20_wg_16_10_french_infantry_builds_the_pontoon_with_its_whole_allowance),
        cmocka_unit_test(test_n20_wg_16_10_builder_may_enter_an_enemy_zoc),
        cmocka_unit_test(test_n20_wg_16_10_only_french_infantry_and_only_with_the_option),
        cmocka_unit_test(test_n20_wg_16_10_no_building_while_0713_is_austrian),
        cmocka_unit_test(test_n20_wg_16_10_1_built_pontoon_is_a_french_only_bridge),
        cmocka_unit_test(test_n20_wg_16_10_2_austrian_entering_0713_destroys_the_pontoon_for_good),
        cmocka_unit_test(test_n20_wg_6_10_retreat_across_a_lobau_bridge_is_safe_and_routed),
        cmocka_unit_test(test_n20_wg_6_10_retreat_across_another_bridge_rolls_the_hazard),
        cmocka_unit_test(test_n20_wg_6_10_1_no_retreat_across_an_incomplete_bridge),
        cmocka_unit_test(test_n20_wg_16_10_1_retreat_across_the_pontoon_is_hazardous),
        cmocka_unit_test(test_n20_wg_9_8_6_floridsdorf_loc_active_after_a_crossing),
        cmocka_unit_test(test_n20_mf_18_0_game_ends_after_the_austrian_combat_phase_of_turn_12),
        cmocka_unit_test(test_n20_mf_18_0_end_is_read_at_the_data_phase_only),
        cmocka_unit_test(test_n20_wg_view_shows_the_crossings_the_inactive_units_and_the_pontoon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
