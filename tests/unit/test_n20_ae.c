/*
 * test_n20_ae.c - the Aspern-Essling 20 exclusive rules (rules/n20/ae.c): the French crossing
 * site [3.0], the Pontoon Bridges [6.10] [6.10.1] [6.10.2], the Pontoon Repair Step [4.1], the
 * Fischamend option [6.11] (reconstructed), the Bridgehead [9.10] [9.10.1], [9.8.6], [11.6],
 * [14.0]-[14.2] and [15.1]. One rule case per test, fixed dice.
 *
 * The positions are built on a test scenario of their own: the Waterloo 20 Standard data with
 * the v3.0 edition and A-E crossing sites, tables and units set by the test (s_scenario), so that
 * every case names its hexes and its tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* the test's crossing sites: Lackenau 1506 (north) / 1507 (south) across a Major River hexside,
 * Lobau (west) 1806 / 1807 (no river drawn: only [6.10] keeps the French off it), Fischamend */
enum { S_LACK = 0, S_LOBW, S_FISCH };

static n20_scenario *s_scenario(void) {
    n20_scenario *sc = malloc(sizeof *sc);
    assert_non_null(sc);
    memcpy(sc, n20_scenario_get("waterloo20-standard"), sizeof *sc);
    snprintf(sc->id, sizeof sc->id, "ae-test");
    sc->edition = N20_ED_V3;
    sc->first_player = N20_ALLIED;   /* A-E [4.0] */
    sc->skip_first_event = 1 + N20_ALLIED; /* A-E [5.0] */
    for (int i = 0; i < sc->nunits; i++) {
        n20_unit_def *u = &sc->units[i];
        if (strcmp(u->id, "DERLON") == 0) snprintf(u->id, N20_NAME, "4eB");
        if (strcmp(u->id, "REILLE") == 0) snprintf(u->id, N20_NAME, "4eC");
        if (strcmp(u->id, "MILHAUD") == 0) u->flags |= N20_FLAG_GARRISON;
        if (!strcmp(u->id, "4eB") || !strcmp(u->id, "4eC") || !strcmp(u->id, "MILHAUD")) { /* `site north|south` */
            u->place = N20_P_SITE;
            u->area = strcmp(u->id, "4eC") == 0 ? 'S' : 'N';
        }
        if (strcmp(u->id, "PAJOL") == 0) { /* [17.3.1] [9.10] the second Bridgehead's Garrison, `site second` */
            u->flags |= N20_FLAG_GARRISON;
            u->place = N20_P_SITE;
            u->area = '2';
            u->if_opts = N20_OPT_BERTRAND;
        }
        if (strcmp(sc->units[i].id, "UXBRIDGE") == 0 || strcmp(sc->units[i].id, "HILL") == 0)
            sc->units[i].linz = 1; /* [17.2] with the option */
    }
    uint8_t lz[6] = {N20_LZ_REMOVED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_NEXT_TURN, N20_LZ_ARRIVES};
    memcpy(sc->dn.linz, lz, 6);
    uint16_t n = n20_hex(1506), s = n20_hex(1507);
    int d = n20_dir(sc, n, s), e = n20_dir(sc, s, n);
    assert_true(d >= 0 && e >= 0);
    sc->river[n][d] = sc->river[s][e] = N20_RIV_MAJOR;
    sc->cross[n][d] = sc->cross[s][e] = N20_X_NONE;
    n20_dn_site st[3] = {
        {"lackenau", n20_hex(1506), n20_hex(1507), 'A', n20_hex(810), n20_hex(105), 0},
        {"lobau-west", n20_hex(1806), n20_hex(1807), 'A', n20_hex(1510), n20_hex(106), 0},
        {"fischamend", 0, 0, 'A', n20_hex(1909), n20_hex(106), 1},
    };
    memcpy(sc->dn.site, st, sizeof st);
    sc->dn.nsites = 3;
    uint8_t cross[6] = {N20_PC_FAIL_DAMAGED, N20_PC_PASS_DAMAGED, N20_PC_PASS_DAMAGED, N20_PC_PASS, N20_PC_PASS,
                        N20_PC_PASS};
    memcpy(sc->dn.pontoon_cross, cross, 6);
    uint8_t repair[6] = {0, 0, 0, 1, 1, 1}, destroy[6] = {1, 1, 0, 0, 0, 0};
    memcpy(sc->dn.pontoon_repair, repair, 6);
    memcpy(sc->dn.pontoon_destroy, destroy, 6);
    sc->dn.fisch_hex = n20_hex(2110);
    sc->dn.catastrophe = -2;
    uint16_t home[4] = {n20_hex(209), n20_hex(708), n20_hex(1109), n20_hex(1407)};
    memcpy(sc->dn.home, home, sizeof home);
    sc->dn.nhome = 4;
    sc->dn.home_mode = 0;
    sc->dn.home_bonus = 2;
    return sc;
}

/* the test scenario set up (the French choice pending) */
static n20_state *s_setup(n20_scenario **scp, t_dice *d, uint32_t opts) {
    *scp = s_scenario();
    n20_state *s = n20_state_new(*scp);
    assert_int_equal(n20_setup(s, &d->d, NULL, opts, NULL), 0);
    n20_run(s, &d->d, NULL);
    return s;
}

/* the site chosen, then an empty map in the French Movement Phase of Turn 9 */
static n20_state *s_site_empty(n20_scenario **scp, t_dice *d, const char *site) {
    n20_state *s = s_setup(scp, d, 0);
    char o[32];
    snprintf(o, sizeof o, "site %s", site);
    assert_int_equal(t_order(s, N20_FRENCH, o, d, NULL, NULL), 0);
    t_clear_map(s);
    s->turn = 9;
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_MOVE;
    memset(s->fm, 0, sizeof s->fm);
    s->move_mod = 0;
    s->nbattles = 0;
    memset(&s->f, 0, sizeof s->f);
    return s;
}

static void s_free(n20_state *s, n20_scenario *sc) {
    free(s);
    free(sc);
}

/* the encoding, to show a refused order changed nothing */
static size_t s_enc(const n20_state *s, uint8_t *out, size_t cap) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_encode(s, &b), 0);
    size_t n = b.len < cap ? b.len : cap;
    memcpy(out, b.data, n);
    buf_free(&b);
    return n;
}

/* ---- [3.0] the French choice of crossing site ------------------------------------------------ */

static void test_n20_ae_3_0_site_is_a_french_decision_at_set_up(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_setup(&sc, &d, 0);
    assert_int_equal(s->phase, N20_PH_AE_SITE);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "crossing-site");
    assert_string_equal(p.rule, "3.0");
    assert_int_equal(t_legal_n(s, N20_FRENCH), 3);
    assert_true(t_legal_has(s, N20_FRENCH, "site lackenau"));
    assert_true(t_legal_has(s, N20_FRENCH, "site lobau-west"));
    assert_true(t_legal_has(s, N20_FRENCH, "site fischamend"));
    assert_int_equal(t_legal_n(s, N20_ALLIED), 0);
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "site lackenau", &d, NULL, &err), -1);
    /* before the choice the units it places are off the map */
    assert_int_equal(s->u[t_unit(s, "4eB")].where, N20_U_OUT);
    assert_int_equal(s->u[t_unit(s, "4eC")].where, N20_U_OUT);
    s_free(s, sc);
}

static void test_n20_ae_3_0_site_places_bridgehead_pontoon_and_units(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_setup(&sc, &d, 0);
    t_events ev = {0};
    assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, &ev, NULL), 0);
    assert_int_equal(s->dn.site, 1 + S_LACK);
    int b = t_unit(s, "4eB"), c = t_unit(s, "4eC"), g = t_unit(s, "MILHAUD");
    assert_int_equal(s->u[b].where, N20_U_MAP);
    assert_int_equal(n20_xxyy(s->u[b].hex), 1506); /* the northern bank, with the Bridgehead */
    assert_int_equal(n20_xxyy(s->u[c].hex), 1507); /* the southern bank, with the Pontoon Bridges */
    assert_int_equal(n20_xxyy(s->u[g].hex), 1506); /* [9.10] the Garrison in the Bridgehead */
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    assert_int_equal(s->dn.bridgehead[0], 1);
    assert_true(n20_ae_bridgehead_at(s, n20_hex(1506)));
    assert_true(t_events_has(&ev, "French Objective 0810"));
    /* [4.0] the Austrian (Anti-French) player is the First Player and [5.0] skips his first events */
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_true(t_events_has(&ev, "Random Events Phase of the first Game Turn is skipped"));
    s_free(s, sc);
}

static void test_n20_ae_3_0_fischamend_4eb_at_2110_4ec_turn_1_reinforcement(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_setup(&sc, &d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "site fischamend", &d, NULL, NULL), 0);
    int b = t_unit(s, "4eB"), c = t_unit(s, "4eC"), g = t_unit(s, "MILHAUD");
    assert_int_equal(n20_xxyy(s->u[b].hex), 2110);
    assert_int_equal(s->u[c].where, N20_U_REINF);
    assert_int_equal(s->u[c].arrive, sc->start_turn);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT); /* in the Fischamend Holding Box */
    assert_int_equal(s->dn.bridgehead[0], 0);           /* R-dn-6.11-fischamend: no Bridgehead */
    assert_int_equal(s->u[g].where, N20_U_OUT);
    s_free(s, sc);
}

static void test_n20_ae_3_0_unknown_site_refused(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_setup(&sc, &d, 0);
    uint8_t a[4096], b[4096];
    size_t na = s_enc(s, a, sizeof a);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "site vienna", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "3.0");
    assert_int_equal(s_enc(s, b, sizeof b), na);
    assert_memory_equal(a, b, na);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), -1); /* the choice is not optional */
    s_free(s, sc);
}

/* ---- [6.10] the Pontoon Crossing Table -------------------------------------------------------- */

static void s_cross(int die, unsigned expect_hex, int expect_pontoon) {
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    int u = t_place(s, "VANDAMME", 1507);
    uint32_t r[1] = {(uint32_t)die};
    t_dice_script(&d, 1, r);
    int before = t_dice_count(&d, "6.10 pontoon crossing");
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1506 1505", &d, NULL, NULL), 0);
    assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), before + 1);
    assert_int_equal(n20_xxyy(s->u[u].hex), expect_hex);
    assert_true(s->u[u].flags & N20_UF_MOVED);
    assert_int_equal(s->dn.pontoon[0], expect_pontoon);
    s_free(s, sc);
}

static void test_n20_ae_6_10_crossing_roll_4_crosses_and_stays_intact(void **st) {
    (void)st;
    s_cross(4, 1505, N20_PON_INTACT);
}

static void test_n20_ae_6_10_crossing_roll_2_crosses_and_damages(void **st) {
    (void)st;
    s_cross(2, 1505, N20_PON_DAMAGED);
}

static void test_n20_ae_6_10_crossing_roll_1_fails_and_damages(void **st) {
    (void)st;
    s_cross(1, 1507, N20_PON_DAMAGED); /* remains where it is; R-dn-6.10-roll: its move ends */
}

static void test_n20_ae_6_10_move_without_crossing_rolls_nothing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    t_place(s, "VANDAMME", 1507);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1508", &d, NULL, NULL), 0);
    assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), 0);
    s_free(s, sc);
}

static void test_n20_ae_6_10_1_damaged_pontoon_refuses_crossing_either_way(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->dn.pontoon[0] = N20_PON_DAMAGED;
    t_place(s, "VANDAMME", 1507);
    t_place(s, "GERARD", 1506);
    uint8_t a[4096], b[4096];
    size_t na = s_enc(s, a, sizeof a);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1506", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.10.1");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.10.1");
    assert_int_equal(s_enc(s, b, sizeof b), na);
    assert_memory_equal(a, b, na);
    assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), 0);
    assert_false(t_legal_has(s, N20_FRENCH, "move VANDAMME 1506"));
    s_free(s, sc);
}

static void test_n20_ae_6_10_intact_pontoon_is_listed_by_legal(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    t_place(s, "VANDAMME", 1507);
    assert_true(t_legal_has(s, N20_FRENCH, "move VANDAMME 1506"));
    s_free(s, sc);
}

static void test_n20_ae_6_10_anti_french_units_do_not_use_the_pontoon(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->phasing = N20_ALLIED;
    t_place(s, "PIRCH", 1506);
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 1507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2"); /* the Danube: a Major River hexside */
    s_free(s, sc);
}

static void test_n20_ae_6_10_french_use_only_the_chosen_site(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    t_place(s, "VANDAMME", 1807);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1806", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.10");
    s_free(s, sc);
}

static void test_n20_ae_6_10_a_path_crossing_back_after_damage_ends_before_it(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    int u = t_place(s, "KELLERMANN", 1507); /* cavalry, 3 MP */
    uint32_t r[1] = {3};                     /* crosses, Damaged */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 1506 1507", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[u].hex), 1506); /* [6.10.1] the way back is closed */
    assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), 1);
    s_free(s, sc);
}

/* a French unit in the Bridgehead hex must retreat after the Austrian attack of PIRCH (3 against 3);
 * the French LOC (the site's) lies beyond the river so the retreat toward it crosses */

/* R-dn-6.10-cut-short [6.9] [6.10]: a crossing roll of 1 cuts the move short before the river; it
 * does not end stacked with the friendly unit it was moving through: it stops at the last hex of
 * its path where it may, or where it began */
static void test_n20_ae_6_10_cut_short_move_does_not_end_stacked(void **st) {
    (void)st;
    for (int start = 0; start < 2; start++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_site_empty(&sc, &d, "lackenau");
        int g = t_place(s, "GERARD", 1507); /* on the southern bank, before the pontoon */
        int u = t_place(s, "KELLERMANN", start ? 1508 : 1509); /* cavalry, 3 MP */
        uint32_t r[1] = {1};
        t_dice_script(&d, 1, r);
        t_events ev = {0};
        assert_int_equal(t_order(s, N20_FRENCH, start ? "move KELLERMANN 1507 1506" : "move KELLERMANN 1508 1507 1506",
                                 &d, &ev, NULL),
                         0);
        assert_int_equal(n20_xxyy(s->u[u].hex), 1508); /* not 1507, GERARD's hex */
        assert_int_equal(n20_xxyy(s->u[g].hex), 1507);
        assert_true(s->u[u].flags & N20_UF_MOVED);
        assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
        assert_true(t_events_has(&ev, "[6.9] KELLERMANN cannot end its move stacked at 1507"));
        s_free(s, sc);
    }
}

/* R-dn-6.10-combat-bridge [6.10] v3 [7.0] [9.4.3]: an intact pontoon is a Bridge hexside for combat:
 * the French unit on one bank may attack the Austrian unit on the other, it is not obliged to (no
 * ZOC crosses a Major River even at a bridge); Damaged, the Danube is a Major River: not adjacent */
/* [6.10] [16.2] a Cavalry Penetration (a Reaction move, v3 [8.0]) across the intact pontoon rolls
 * on the Pontoon Crossing Table: 5 crosses; 1 stays, the pontoon Damaged, its Reaction spent */
static void test_n20_ae_6_10_penetration_across_the_pontoon_rolls(void **st) {
    (void)st;
    for (int fail = 0; fail < 2; fail++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_site_empty(&sc, &d, "lackenau");
        s->opts |= N20_OPT_CAV_PENETRATION;
        s->phasing = N20_ALLIED;
        s->phase = N20_PH_REACTION;
        int k = t_place(s, "KELLERMANN", 1507);
        t_place(s, "PIRCH", 1505); /* 1506 is next to it */
        s->u[k].flags |= N20_UF_REACT_OK;
        assert_true(t_legal_has(s, N20_FRENCH, "penetrate KELLERMANN 1506"));
        uint32_t r[1] = {fail ? 1u : 5u};
        t_dice_script(&d, 1, r);
        int before = t_dice_count(&d, "6.10 pontoon crossing");
        assert_int_equal(t_order(s, N20_FRENCH, "penetrate KELLERMANN 1506", &d, NULL, NULL), 0);
        assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), before + 1);
        assert_int_equal(n20_xxyy(s->u[k].hex), fail ? 1507 : 1506);
        assert_true(s->u[k].flags & N20_UF_REACTED);
        assert_int_equal(s->dn.pontoon[0], fail ? N20_PON_DAMAGED : N20_PON_INTACT);
        s_free(s, sc);
    }
}

/* [6.10] [16.9.3] a lone French Leader retreating across the intact pontoon rolls like a
 * retreating unit: 5 crosses; 1 Breaks it where it is [9.6.1], the pontoon Damaged */
static void test_n20_ae_6_10_lone_leader_retreat_across_the_pontoon_rolls(void **st) {
    (void)st;
    for (int fail = 0; fail < 2; fail++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_site_empty(&sc, &d, "lackenau");
        s->opts |= N20_OPT_LEADERS;
        s->phasing = N20_ALLIED;
        int l = t_place(s, "NEY", 1507);
        t_place(s, "PIRCH", 1509);
        assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 1508", &d, NULL, NULL), 0);
        assert_int_equal(s->phase, N20_PH_LEADER_RETREAT);
        assert_true(t_legal_has(s, N20_FRENCH, "retreat NEY 1506"));
        uint32_t r[1] = {fail ? 1u : 5u};
        t_dice_script(&d, 1, r);
        int before = t_dice_count(&d, "6.10 pontoon crossing");
        assert_int_equal(t_order(s, N20_FRENCH, "retreat NEY 1506", &d, NULL, NULL), 0);
        assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), before + 1);
        if (fail) {
            assert_int_equal(s->u[l].where, N20_U_BROKEN);
            assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
        } else {
            assert_int_equal(n20_xxyy(s->u[l].hex), 1506);
            assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
        }
        assert_int_equal(s->phase, N20_PH_MOVE);
        s_free(s, sc);
    }
}

static void test_n20_ae_6_10_intact_pontoon_is_a_bridge_for_combat(void **st) {
    (void)st;
    for (int damaged = 0; damaged < 2; damaged++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_site_empty(&sc, &d, "lackenau");
        int v = t_place(s, "VANDAMME", 1507);
        int p = t_place(s, "PIRCH", 1506);
        if (damaged) s->dn.pontoon[0] = N20_PON_DAMAGED;
        s->phase = N20_PH_DECLARE;
        assert_int_equal(n20_adjacent_units(s, v, p), !damaged);
        assert_false(n20_adjacent_react(s, v, p));  /* v3 [7.0] not adjacent for ZOC */
        assert_false(n20_must_attack(s, v));         /* [9.4.3] never obliged */
        assert_false(n20_in_ezoc(s, n20_hex(1507), N20_ALLIED, 0));
        uint8_t before[4096], after[4096];
        size_t nb = s_enc(s, before, sizeof before);
        brt_reject err;
        int rc = t_order(s, N20_FRENCH, "declare VANDAMME -> PIRCH", &d, NULL, &err);
        if (!damaged) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -1);
            assert_string_equal(err.rule, "9.2.2");
            assert_int_equal(s_enc(s, after, sizeof after), nb);
            assert_memory_equal(before, after, nb);
        }
        s_free(s, sc);
    }
}

/* R-dn-6.10-combat-bridge: the defender across the intact pontoon has the Bridge benefit of the
 * Terrain Effects Chart, as at any bridged Major River hexside [9.4.2] */
static void test_n20_ae_6_10_defender_across_the_pontoon_has_the_bridge_benefit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_DECLARE;
    t_place(s, "PIRCH", 1506);
    t_place(s, "VANDAMME", 1507); /* clear terrain */
    assert_int_equal(t_order(s, N20_ALLIED, "declare PIRCH -> VANDAMME", &d, NULL, NULL), 0);
    t_events ev = {0};
    uint32_t r[1] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    char want[32];
    snprintf(want, sizeof want, "(terrain +%d)", sc->bridge_def);
    assert_true(sc->bridge_def > 0);
    assert_true(t_events_has(&ev, want));
    s_free(s, sc);
}

static n20_state *s_retreat_state(n20_scenario **scp, t_dice *d, uint32_t combat_die, int *v) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    (*scp)->loc[N20_ARMY_FRENCH][0] = n20_hex(1512);
    (*scp)->nloc[N20_ARMY_FRENCH] = 1;
    (*scp)->dn.site[S_LACK].loc = n20_hex(1512);
    s->phasing = N20_ALLIED;
    *v = t_place(s, "VANDAMME", 1506);
    t_place(s, "PIRCH", 1505);
    s->phase = N20_PH_DECLARE;
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "declare PIRCH -> VANDAMME", d, NULL, &err), 0);
    uint32_t r[1] = {combat_die};
    assert_int_equal(t_fight(s, d, NULL, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    return s;
}

static void test_n20_ae_6_10_retreat_crossing_roll_1_breaks_the_unit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int v;
    n20_state *s = s_retreat_state(&sc, &d, 4, &v); /* 0, die 4: DW */
    uint32_t r[1] = {1};
    t_dice_script(&d, 1, r);
    t_events ev = {0};
    assert_int_equal(t_order(s, N20_FRENCH, "retreat VANDAMME 1507", &d, &ev, NULL), 0);
    assert_int_equal(s->u[v].where, N20_U_BROKEN); /* [9.6.1] */
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_true(t_events_has(&ev, "pontoon crossing failed"));
    s_free(s, sc);
}

static void test_n20_ae_6_10_retreat_crossing_roll_5_crosses(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int v;
    n20_state *s = s_retreat_state(&sc, &d, 4, &v);
    uint32_t r[1] = {5};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "retreat VANDAMME 1507", &d, NULL, NULL), 0);
    assert_int_equal(s->u[v].where, N20_U_MAP);
    assert_int_equal(n20_xxyy(s->u[v].hex), 1507);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    assert_int_equal(t_dice_count(&d, "6.10 hazardous retreat (pontoon)"), 0);
    s_free(s, sc);
}

static void test_n20_ae_6_10_routing_unit_crossing_makes_hazardous_retreat_check(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int v;
    n20_state *s = s_retreat_state(&sc, &d, 6, &v); /* 0, die 6: DR */
    assert_int_equal(s->f.ret_rout[0], 1);
    uint32_t r[4] = {5, 6, 6, 6}; /* crosses; the hazard check passes */
    t_dice_script(&d, 4, r);
    brt_reject err;
    int rc = t_order(s, N20_FRENCH, "retreat VANDAMME 1507 1508 1509", &d, NULL, &err);
    if (rc) fail_msg("%s", err.message);
    assert_int_equal(t_dice_count(&d, "6.10 hazardous retreat (pontoon)"), 1);
    assert_int_equal(s->u[v].where, N20_U_MAP);
    s_free(s, sc);
}

/* a Disengagement (a Reaction move [8.2]) across the pontoon rolls too */
static n20_state *s_disengage_state(n20_scenario **scp, t_dice *d, uint32_t die, int *k) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    s->phasing = N20_ALLIED;
    *k = t_place(s, "KELLERMANN", 1506);
    t_place(s, "PIRCH", 1505);
    s->phase = N20_PH_REACTION_START;
    n20_run(s, &d->d, NULL);
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_true(t_legal_has(s, N20_FRENCH, "disengage KELLERMANN 1507"));
    uint32_t r[1] = {die};
    t_dice_script(d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "disengage KELLERMANN 1507", d, NULL, NULL), 0);
    assert_int_equal(t_dice_count(d, "6.10 pontoon crossing"), 1);
    return s;
}

static void test_n20_ae_6_10_disengagement_across_the_pontoon_rolls(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int k;
    n20_state *s = s_disengage_state(&sc, &d, 6, &k);
    assert_int_equal(n20_xxyy(s->u[k].hex), 1507);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    s_free(s, sc);
}

static void test_n20_ae_6_10_disengagement_roll_1_stays_reaction_spent(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int k;
    n20_state *s = s_disengage_state(&sc, &d, 1, &k);
    assert_int_equal(n20_xxyy(s->u[k].hex), 1506);
    assert_true(s->u[k].flags & N20_UF_REACTED);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_false(t_legal_match(s, N20_FRENCH, "disengage KELLERMANN", T_MATCH_PREFIX, NULL, 0) > 0);
    s_free(s, sc);
}

/* R-dn-6.11-fischamend: a unit entering from the Holding Box (Area D, here the test's A) rolls */
static void test_n20_ae_6_11_fischamend_entry_rolls_the_crossing_table(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "fischamend");
    sc->dn.site[S_FISCH].loc = n20_hex(105); /* to tell the Area D LOC (fisch_loc) apart */
    sc->dn.fisch_loc = n20_hex(106);
    assert_false(n20_ae_loc_active(s, N20_ARMY_FRENCH, n20_hex(106)));
    int u = t_unit(s, "4eC");
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 9;
    uint32_t r[1] = {3}; /* enters, the pontoon Damaged */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "move 4eC 0104", &d, NULL, NULL), 0);
    assert_int_equal(s->u[u].where, N20_U_MAP);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_int_equal(s->dn.area_d, 1); /* [9.8.6] a unit entered via the Flanking March area */
    assert_true(n20_ae_loc_active(s, N20_ARMY_FRENCH, n20_hex(106)));
    /* [6.10.1] no more entries through the Holding Box while it is Damaged */
    int v = t_unit(s, "GERARD");
    s->u[v].where = N20_U_REINF;
    s->u[v].arrive = 9;
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0105", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.10.1");
    s_free(s, sc);
}

static void test_n20_ae_6_11_fischamend_entry_roll_1_stays_in_the_box(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "fischamend");
    int u = t_unit(s, "4eC");
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 9;
    uint32_t r[1] = {1};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "move 4eC 0104", &d, NULL, NULL), 0);
    assert_int_equal(s->u[u].where, N20_U_REINF);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_int_equal(s->dn.area_d, 0);
    s_free(s, sc);
}

/* ---- [6.10.2] [9.10.1] destruction ------------------------------------------------------------ */

static n20_state *s_event_state(n20_scenario **scp, t_dice *d, int pontoon) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    (*scp)->cards[0].effect[N20_FRENCH] = N20_E_PONTOON_DAMAGE;
    (*scp)->cards[0].keep[N20_FRENCH] = 0;
    s->draw[0] = 0;
    s->dn.pontoon[0] = (uint8_t)pontoon;
    s->first_turn_done = 1;
    s->phase = N20_PH_TURN_EVENTS;
    return s;
}

static void test_n20_ae_6_10_1_event_damages_the_pontoon(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_INTACT);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_int_equal(t_dice_count(&d, "6.10.2 pontoon destruction"), 0);
    s_free(s, sc);
}

static void test_n20_ae_6_10_2_event_on_damaged_pontoon_austrian_roll_destroys(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_DAMAGED);
    uint32_t r[2] = {1, 2}; /* [4.1] repair roll 1: still Damaged; [6.10.2] 2: destroyed (the test's table) */
    t_dice_script(&d, 2, r);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DESTROYED);
    assert_int_equal(t_dice_count(&d, "6.10.2 pontoon destruction"), 1);
    s_free(s, sc);
}

static void test_n20_ae_6_10_2_event_on_damaged_pontoon_roll_may_spare_it(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_DAMAGED);
    uint32_t r[2] = {1, 5}; /* repair fails; 5: not destroyed */
    t_dice_script(&d, 2, r);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    s_free(s, sc);
}

/* ---- [4.1] the Pontoon Repair Step --------------------------------------------------------------- */

static void test_n20_ae_4_1_repair_step_before_the_draw_repairs(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_DAMAGED);
    sc->cards[0].effect[N20_FRENCH] = N20_E_NONE;
    uint32_t r[1] = {4}; /* the test's table: 4-6 repaired */
    t_dice_script(&d, 1, r);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    int rep = -1, card = -1;
    for (int i = 0; i < ev.n; i++) {
        if (rep < 0 && strstr(ev.text[i], "Pontoon Repair Step")) rep = i;
        if (card < 0 && strstr(ev.text[i], "event-card")) card = i;
    }
    assert_true(rep >= 0 && card > rep); /* before drawing that Turn's Event card */
    s_free(s, sc);
}

static void test_n20_ae_4_1_repair_step_fails_on_a_low_roll(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_DAMAGED);
    sc->cards[0].effect[N20_FRENCH] = N20_E_NONE;
    uint32_t r[1] = {3};
    t_dice_script(&d, 1, r);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    assert_int_equal(t_dice_count(&d, "4.1 pontoon repair"), 1);
    s_free(s, sc);
}

static void test_n20_ae_4_1_no_repair_roll_when_intact(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_event_state(&sc, &d, N20_PON_INTACT);
    sc->cards[0].effect[N20_FRENCH] = N20_E_NONE;
    n20_run(s, &d.d, NULL);
    assert_int_equal(t_dice_count(&d, "4.1 pontoon repair"), 0);
    s_free(s, sc);
}

/* ---- [9.10.1] Catastrophe ------------------------------------------------------------------------ */

static void test_n20_ae_9_10_1_austrian_advance_into_bridgehead_is_a_catastrophe(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    /* the Bridgehead hex was vacated by the combat (t_clear_map left its Garrison off the map) */
    int a = t_place(s, "PIRCH", 1505);
    int m0 = s->morale[N20_FRENCH];
    uint16_t p[1] = {n20_hex(1506)};
    n20_advance_apply(s, a, p, 1, NULL);
    assert_int_equal(s->dn.bridgehead[0], 0);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DESTROYED);
    assert_int_equal(s->morale[N20_FRENCH], m0 - 2);
    assert_false(n20_ae_bridgehead_at(s, n20_hex(1506)));
    /* permanently: no French unit crosses any more */
    s->phasing = N20_FRENCH;
    t_place(s, "VANDAMME", 1507);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1506", &d, NULL, &err), -1);
    s_free(s, sc);
}

static void test_n20_ae_9_10_1_french_advance_into_bridgehead_changes_nothing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    int a = t_place(s, "VANDAMME", 1505);
    uint16_t p[1] = {n20_hex(1506)};
    n20_advance_apply(s, a, p, 1, NULL);
    assert_int_equal(s->dn.bridgehead[0], 1);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    s_free(s, sc);
}

/* ---- [11.6] [9.8.6] -------------------------------------------------------------------------------- */

static void test_n20_ae_11_6_french_reinforcements_enter_only_at_the_site_area(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    int u = t_unit(s, "GERARD");
    sc->units[u].area = 'X'; /* the scenario's own area is not the site's */
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 9;
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1701", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_true(t_legal_match(s, N20_FRENCH, "move GERARD 0104", T_MATCH_PREFIX, NULL, 0) > 0);
    assert_int_equal(t_legal_match(s, N20_FRENCH, "move GERARD 1701", T_MATCH_PREFIX, NULL, 0), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0104", &d, NULL, &err), 0);
    s_free(s, sc);
}

static void test_n20_ae_9_8_6_only_the_site_loc_is_active(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    assert_true(n20_ae_loc_active(s, N20_ARMY_FRENCH, n20_hex(105)));
    assert_false(n20_ae_loc_active(s, N20_ARMY_FRENCH, n20_hex(106)));
    assert_true(n20_ae_loc_active(s, N20_ARMY_PRUSSIAN, n20_hex(812))); /* Austrian LOCs unchanged */
    s_free(s, sc);
}

/* ---- [14.0] [14.1] [14.2] ------------------------------------------------------------------------ */

static void test_n20_ae_14_0_austrian_in_french_objective_costs_french_morale(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->phasing = N20_ALLIED;
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 5;
    t_place(s, "PIRCH", 810); /* the French Objective of Lackenau */
    t_place(s, "VANDAMME", 209); /* no Home Ground bonus */
    n20_night_ops_auto(s, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 6 - sc->mc_captured);
    s_free(s, sc);
}

static void test_n20_ae_14_1_home_ground_austrian_rest_plus_two(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    sc->rest[N20_ALLIED] = 1;
    s->phasing = N20_ALLIED;
    s->morale[N20_ALLIED] = 5;
    n20_night_ops_auto(s, NULL);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    s_free(s, sc);
}

static void test_n20_ae_14_1_french_on_a_yellow_star_no_home_ground(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    sc->rest[N20_ALLIED] = 1;
    s->phasing = N20_ALLIED;
    s->morale[N20_ALLIED] = 5;
    t_place(s, "VANDAMME", 1407); /* Raasdorf */
    n20_night_ops_auto(s, NULL);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    s_free(s, sc);
}

static void test_n20_ae_14_2_damaged_pontoon_no_french_rest(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->morale[N20_FRENCH] = 5;
    s->dn.pontoon[0] = N20_PON_DAMAGED;
    n20_night_ops_auto(s, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 5);
    s->dn.pontoon[0] = N20_PON_INTACT;
    n20_night_ops_auto(s, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 5 + sc->rest[N20_FRENCH]);
    s_free(s, sc);
}

/* ---- [15.1] the French Marginal Victory ---------------------------------------------------------- */

static n20_state *s_end_state(n20_scenario **scp, t_dice *d, int fm, int am) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    s->morale[N20_FRENCH] = (int8_t)fm;
    s->morale[N20_ALLIED] = (int8_t)am;
    return s;
}

static void test_n20_ae_15_1_french_marginal_victory(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_end_state(&sc, &d, 6, 5);
    s->dn.pontoon[0] = N20_PON_DAMAGED; /* damaged is okay */
    n20_game_end(s, NULL, "last turn");
    assert_int_equal(s->winner, N20_FRENCH);
    assert_int_equal(s->level, 2);
    s_free(s, sc);
}

static void test_n20_ae_15_1_no_french_victory_with_pontoon_destroyed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_end_state(&sc, &d, 6, 5);
    s->dn.pontoon[0] = N20_PON_DESTROYED;
    n20_game_end(s, NULL, "last turn");
    assert_int_equal(s->winner, 2);
    assert_int_equal(s->level, 3);
    s_free(s, sc);
}

static void test_n20_ae_15_1_no_french_victory_with_austrian_in_objective(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_end_state(&sc, &d, 6, 5);
    t_place(s, "PIRCH", 810);
    n20_game_end(s, NULL, "last turn");
    assert_int_equal(s->winner, 2);
    s_free(s, sc);
}

static void test_n20_ae_15_1_french_morale_only_equal_is_a_draw(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_end_state(&sc, &d, 5, 5);
    n20_game_end(s, NULL, "last turn");
    assert_int_equal(s->winner, 2);
    s_free(s, sc);
}

/* ---- [17.1] [17.2] variants ------------------------------------------------------------------------ */

static int s_in_discard(const n20_state *s, int card) {
    for (int i = 0; i < s->ndiscard; i++)
        if (s->discard[i] == card) return 1;
    return 0;
}

static void test_n20_ae_17_1_thirteenth_card_goes_to_the_discard_pile(void **st) {
    (void)st;
    for (int with = 0; with < 2; with++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc = s_scenario();
        sc->cards[3].pile = 2; /* the red-titled card, set aside */
        n20_state *s = n20_state_new(sc);
        assert_int_equal(n20_setup(s, &d.d, NULL, with ? N20_OPT_13TH_CARD : 0, NULL), 0);
        assert_int_equal(s_in_discard(s, 3), with);
        for (int i = 0; i < s->ndraw; i++) assert_int_not_equal(s->draw[i], 3);
        s_free(s, sc);
    }
}

/* GERARD stands for a unit of [17.2] due on this Turn */
static int8_t s_linz_morale; /* the French Morale before the roll */

static n20_state *s_linz_state(n20_scenario **scp, t_dice *d, uint32_t die, int *u) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    uint8_t lz[6] = {N20_LZ_REMOVED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_NEXT_TURN, N20_LZ_ARRIVES};
    memcpy((*scp)->dn.linz, lz, 6);
    *u = t_unit(s, "GERARD");
    (*scp)->units[*u].linz = 1;
    s->opts |= N20_OPT_LINZ;
    s->u[*u].where = N20_U_REINF;
    s->u[*u].arrive = 9;
    s->phase = N20_PH_MOVE_START;
    uint32_t r[1] = {die};
    t_dice_script(d, 1, r);
    s_linz_morale = s->morale[N20_FRENCH];
    n20_run(s, &d->d, NULL);
    assert_int_equal(t_dice_count(d, "17.2 summoned from linz"), 1);
    return s;
}

static void test_n20_ae_17_2_linz_roll_1_removed_without_morale_penalty(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int u;
    n20_state *s = s_linz_state(&sc, &d, 1, &u);
    assert_int_equal(s->u[u].where, N20_U_OUT);
    assert_int_equal(s->morale[N20_FRENCH], s_linz_morale);
    s_free(s, sc);
}

static void test_n20_ae_17_2_linz_roll_3_delayed_and_rolls_again(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int u;
    n20_state *s = s_linz_state(&sc, &d, 3, &u);
    assert_int_equal(s->u[u].where, N20_U_REINF);
    assert_int_equal(s->u[u].arrive, 10);
    assert_false((s->dn.linz_in >> u) & 1);
    s_free(s, sc);
}

static void test_n20_ae_17_2_linz_roll_5_arrives_but_enters_next_turn(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int u;
    n20_state *s = s_linz_state(&sc, &d, 5, &u);
    assert_int_equal(s->u[u].arrive, 10);
    assert_true((s->dn.linz_in >> u) & 1);
    assert_int_equal(t_legal_match(s, N20_FRENCH, "move GERARD", T_MATCH_PREFIX, NULL, 0), 0);
    /* next Turn: no roll, it enters */
    s->turn = 10;
    s->phase = N20_PH_MOVE_START;
    n20_run(s, &d.d, NULL);
    assert_int_equal(t_dice_count(&d, "17.2 summoned from linz"), 1);
    assert_true(t_legal_match(s, N20_FRENCH, "move GERARD", T_MATCH_PREFIX, NULL, 0) > 0);
    s_free(s, sc);
}

static void test_n20_ae_17_2_linz_roll_6_arrives_and_moves(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    int u;
    n20_state *s = s_linz_state(&sc, &d, 6, &u);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_true(t_legal_match(s, N20_FRENCH, "move GERARD 0104", T_MATCH_PREFIX, NULL, 0) > 0);
    s_free(s, sc);
}

/* ---- [17.3] Bertrand Works a Miracle ------------------------------------------------------------- */

static n20_state *s_bertrand(n20_scenario **scp, t_dice *d, int turn) {
    n20_state *s = s_site_empty(scp, d, "lackenau");
    s->opts |= N20_OPT_BERTRAND;
    s->turn = (uint8_t)turn;
    return s;
}

static void test_n20_ae_17_3_1_no_second_site_before_turn_3(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_bertrand(&sc, &d, 2);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.3.1");
    assert_int_equal(t_legal_match(s, N20_FRENCH, "site ", T_MATCH_PREFIX, NULL, 0), 0);
    s_free(s, sc);
}

static void test_n20_ae_17_3_2_second_site_in_a_french_movement_phase(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_bertrand(&sc, &d, 3);
    assert_true(t_legal_has(s, N20_FRENCH, "site lobau-west"));
    assert_false(t_legal_has(s, N20_FRENCH, "site lackenau")); /* already used */
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
    assert_int_equal(s->dn.site2, 1 + S_LOBW);
    assert_int_equal(s->dn.pontoon[1], N20_PON_INTACT);
    assert_int_equal(s->dn.bridgehead[1], 1);
    assert_int_equal(s->phase, N20_PH_MOVE); /* the Movement Phase goes on */
    assert_int_equal(t_legal_match(s, N20_FRENCH, "site ", T_MATCH_PREFIX, NULL, 0), 0); /* once */
    /* its pontoon is crossed, and damaged, on its own */
    int u = t_place(s, "VANDAMME", 1807);
    uint32_t r[1] = {2};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 1806", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[u].hex), 1806);
    assert_int_equal(s->dn.pontoon[1], N20_PON_DAMAGED);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    s_free(s, sc);
}

/* [17.3.1] [9.10] R-dn-17.3-second-garrison: the second Bridgehead contains a French Garrison
 * force, placed with it at the second site's northern-bank hex (never at the first site) */
static void test_n20_ae_17_3_1_second_bridgehead_has_its_garrison(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_bertrand(&sc, &d, 3);
    int g = t_unit(s, "PAJOL");
    assert_int_equal(s->u[g].where, N20_U_OUT); /* not placed with the first site */
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
    assert_int_equal(s->u[g].where, N20_U_GARRISON);
    assert_int_equal(n20_xxyy(s->u[g].hex), 1806);
    assert_int_equal(s->u[g].hidden, 0);
    assert_true(n20_ae_bridgehead_at(s, n20_hex(1806))); /* a Redoubt [9.10] */
    s_free(s, sc);
}

/* [9.10.1] Catastrophe at the second Bridgehead: its marker, its Garrison and its Pontoon Bridges
 * are destroyed, French Morale -2; the first set stands */
static void test_n20_ae_9_10_1_catastrophe_at_the_second_bridgehead(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_bertrand(&sc, &d, 3);
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
    int g = t_unit(s, "PAJOL");
    int a = t_place(s, "PIRCH", 1805);
    int m0 = s->morale[N20_FRENCH];
    uint16_t p[1] = {n20_hex(1806)};
    n20_advance_apply(s, a, p, 1, NULL);
    assert_int_equal(s->dn.bridgehead[1], 0);
    assert_int_equal(s->dn.pontoon[1], N20_PON_DESTROYED);
    assert_int_equal(s->u[g].where, N20_U_ELIM);
    assert_int_equal(s->morale[N20_FRENCH], m0 - 2);
    assert_int_equal(s->dn.bridgehead[0], 1);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    s_free(s, sc);
}

/* [9.10.1] R-dn-9.10.1-pursuit: an Austrian unit that enters the Bridgehead hex pursuing through it
 * along a Retreat Path (an Advance after Combat of more than one hex) is a Catastrophe too */
static void test_n20_ae_9_10_1_austrian_pursuit_through_bridgehead_is_a_catastrophe(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    int a = t_place(s, "PIRCH", 1505);
    int m0 = s->morale[N20_FRENCH];
    uint16_t p[2] = {n20_hex(1506), n20_hex(1606)};
    n20_advance_apply(s, a, p, 2, NULL);
    assert_int_equal(n20_xxyy(s->u[a].hex), 1606);
    assert_int_equal(s->dn.bridgehead[0], 0);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DESTROYED);
    assert_int_equal(s->morale[N20_FRENCH], m0 - 2);
    s_free(s, sc);
}

/* [17.3.2] [14.0] the second French Objective marker is not placed on a hex that has one already
 * ("e.g., Leopoldau"): an Austrian unit there counts once */
static void test_n20_ae_17_3_2_one_objective_marker_a_hex(void **st) {
    (void)st;
    for (int same = 0; same < 2; same++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_bertrand(&sc, &d, 3);
        if (same) sc->dn.site[S_LOBW].obj = sc->dn.site[S_LACK].obj; /* both Leopoldau (0810) */
        assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
        t_place(s, "PIRCH", 810);
        t_place(s, "ZIETEN", 1510);
        assert_int_equal(n20_ae_captured(s, N20_ALLIED), same ? 1 : 2);
        s_free(s, sc);
    }
}

static void test_n20_ae_17_3_2_site_held_by_the_enemy_is_not_available(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_bertrand(&sc, &d, 3);
    t_place(s, "PIRCH", 1806);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.3.2");
    assert_false(t_legal_has(s, N20_FRENCH, "site lobau-west"));
    s_free(s, sc);
}

static void test_n20_ae_17_3_reinforcements_at_any_french_entry_area(void **st) {
    (void)st;
    for (int with = 0; with < 2; with++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_scenario *sc;
        n20_state *s = s_site_empty(&sc, &d, "lackenau");
        sc->dn.site[S_LOBW].area = 'X'; /* another site's Entry Area */
        if (with) s->opts |= N20_OPT_BERTRAND;
        int u = t_unit(s, "GERARD");
        s->u[u].where = N20_U_REINF;
        s->u[u].arrive = 9;
        brt_reject err;
        assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1701", &d, NULL, &err), with ? 0 : -1);
        s_free(s, sc);
    }
}

/* [17.3] R-dn-17.3-holding-box: without a Fischamend pontoon in play, the Fischamend site's Entry
 * Area is one French Entry Area among the others: entered with no crossing roll, and its LOC does
 * not become Active [9.8.6] */
static void test_n20_ae_17_3_fischamend_area_without_its_pontoon_is_an_entry_area(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    sc->dn.site[S_FISCH].area = 'X';
    s->opts |= N20_OPT_BERTRAND;
    int u = t_unit(s, "GERARD");
    s->u[u].where = N20_U_REINF;
    s->u[u].arrive = 9;
    int before = t_dice_count(&d, "6.10 pontoon crossing");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1701", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[u].hex), 1701);
    assert_int_equal(t_dice_count(&d, "6.10 pontoon crossing"), before);
    assert_int_equal(s->dn.area_d, 0);
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    s_free(s, sc);
}

/* ---- the view ---------------------------------------------------------------------------------------- */

static void test_n20_ae_view_shows_site_pontoon_and_bridgehead(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_scenario *sc;
    n20_state *s = s_site_empty(&sc, &d, "lackenau");
    s->dn.pontoon[0] = N20_PON_DAMAGED;
    brt_buf b;
    buf_init(&b);
    n20_view_text(s, 0, &b);
    buf_append(&b, "", 1);
    assert_non_null(strstr((char *)b.data, "Crossing site lackenau: Bridgehead 1506 standing; Pontoon Bridges 1507 Damaged"));
    buf_free(&b);
    s_free(s, sc);
}

/* ---- a whole game ----------------------------------------------------------------------------------- */

/* random legal orders from the set-up to a result; every listed order of the first steps is
 * accepted on a copy; options: the A-E variants */
static void s_random_game(uint32_t opts, uint64_t seed, int site) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_scenario *sc;
    n20_state *s = s_setup(&sc, &d, opts);
    n20_out out = {t_null_emit, NULL};
    char o[32];
    snprintf(o, sizeof o, "site %s", sc->dn.site[site].name);
    assert_int_equal(t_order(s, N20_FRENCH, o, &d, NULL, NULL), 0);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    char tag[64];
    snprintf(tag, sizeof tag, "A-E seed %llu site %d", (unsigned long long)seed, site);
    int steps = 0;
    while (!s->over && steps < 20000) {
        t_random_step(s, &rng, &legal, steps < 400, &d, &out, tag, NULL, NULL, NULL);
        steps++;
        /* [6.9] R-dn-6.10-cut-short: a unit that has moved never stands stacked with a friend */
        for (int i = 0; i < sc->nunits; i++) {
            if (s->u[i].where != N20_U_MAP || sc->units[i].type == N20_LEADER || !(s->u[i].flags & N20_UF_MOVED))
                continue;
            for (int j = 0; j < sc->nunits; j++)
                if (j != i && s->u[j].where == N20_U_MAP && s->u[j].hex == s->u[i].hex &&
                    sc->units[j].type != N20_LEADER && sc->units[j].side == sc->units[i].side)
                    fail_msg("%s: %s stacked with %s at %04u", tag, sc->units[i].id, sc->units[j].id,
                             n20_xxyy(s->u[i].hex));
        }
    }
    assert_true(s->over);
    brt_result r;
    n20_result(s, &r);
    assert_true(r.ended);
    buf_free(&legal);
    s_free(s, sc);
}

static void test_n20_ae_game_random_legal_orders_reach_a_result_at_each_site(void **st) {
    (void)st;
    for (int site = 0; site < 3; site++)
        for (uint64_t seed = 1; seed <= 3; seed++) s_random_game(0, seed, site);
}

/* the A-E variants together and each alone */
static void test_n20_ae_game_random_legal_orders_with_each_variant(void **st) {
    (void)st;
    const uint32_t opts[4] = {N20_OPT_13TH_CARD, N20_OPT_LINZ, N20_OPT_BERTRAND,
                              N20_OPT_13TH_CARD | N20_OPT_LINZ | N20_OPT_BERTRAND};
    for (int k = 0; k < 4; k++)
        for (uint64_t seed = 11; seed <= 13; seed++) s_random_game(opts[k], seed, (int)(seed % 3));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_ae_3_0_site_is_a_french_decision_at_set_up),
        cmocka_unit_test(test_n20_ae_3_0_site_places_bridgehead_pontoon_and_units),
        cmocka_unit_test(test_n20_ae_3_0_fischamend_4eb_at_2110_4ec_turn_1_reinforcement),
        cmocka_unit_test(test_n20_ae_3_0_unknown_site_refused),
        cmocka_unit_test(test_n20_ae_6_10_crossing_roll_4_crosses_and_stays_intact),
        cmocka_unit_test(test_n20_ae_6_10_crossing_roll_2_crosses_and_damages),
        cmocka_unit_test(test_n20_ae_6_10_crossing_roll_1_fails_and_damages),
        cmocka_unit_test(test_n20_ae_6_10_move_without_crossing_rolls_nothing),
        cmocka_unit_test(test_n20_ae_6_10_1_damaged_pontoon_refuses_crossing_either_way),
        cmocka_unit_test(test_n20_ae_6_10_intact_pontoon_is_listed_by_legal),
        cmocka_unit_test(test_n20_ae_6_10_anti_french_units_do_not_use_the_pontoon),
        cmocka_unit_test(test_n20_ae_6_10_french_use_only_the_chosen_site),
        cmocka_unit_test(test_n20_ae_6_10_a_path_crossing_back_after_damage_ends_before_it),
        cmocka_unit_test(test_n20_ae_6_10_retreat_crossing_roll_1_breaks_the_unit),
        cmocka_unit_test(test_n20_ae_6_10_retreat_crossing_roll_5_crosses),
        cmocka_unit_test(test_n20_ae_6_10_routing_unit_crossing_makes_hazardous_retreat_check),
        cmocka_unit_test(test_n20_ae_6_10_disengagement_across_the_pontoon_rolls),
        cmocka_unit_test(test_n20_ae_6_10_disengagement_roll_1_stays_reaction_spent),
        cmocka_unit_test(test_n20_ae_6_11_fischamend_entry_rolls_the_crossing_table),
        cmocka_unit_test(test_n20_ae_6_11_fischamend_entry_roll_1_stays_in_the_box),
        cmocka_unit_test(test_n20_ae_6_10_1_event_damages_the_pontoon),
        cmocka_unit_test(test_n20_ae_6_10_2_event_on_damaged_pontoon_austrian_roll_destroys),
        cmocka_unit_test(test_n20_ae_6_10_2_event_on_damaged_pontoon_roll_may_spare_it),
        cmocka_unit_test(test_n20_ae_4_1_repair_step_before_the_draw_repairs),
        cmocka_unit_test(test_n20_ae_4_1_repair_step_fails_on_a_low_roll),
        cmocka_unit_test(test_n20_ae_4_1_no_repair_roll_when_intact),
        cmocka_unit_test(test_n20_ae_9_10_1_austrian_advance_into_bridgehead_is_a_catastrophe),
        cmocka_unit_test(test_n20_ae_9_10_1_french_advance_into_bridgehead_changes_nothing),
        cmocka_unit_test(test_n20_ae_11_6_french_reinforcements_enter_only_at_the_site_area),
        cmocka_unit_test(test_n20_ae_9_8_6_only_the_site_loc_is_active),
        cmocka_unit_test(test_n20_ae_14_0_austrian_in_french_objective_costs_french_morale),
        cmocka_unit_test(test_n20_ae_14_1_home_ground_austrian_rest_plus_two),
        cmocka_unit_test(test_n20_ae_14_1_french_on_a_yellow_star_no_home_ground),
        cmocka_unit_test(test_n20_ae_14_2_damaged_pontoon_no_french_rest),
        cmocka_unit_test(test_n20_ae_15_1_french_marginal_victory),
        cmocka_unit_test(test_n20_ae_15_1_no_french_victory_with_pontoon_destroyed),
        cmocka_unit_test(test_n20_ae_15_1_no_french_victory_with_austrian_in_objective),
        cmocka_unit_test(test_n20_ae_15_1_french_morale_only_equal_is_a_draw),
        cmocka_unit_test(test_n20_ae_17_1_thirteenth_card_goes_to_the_discard_pile),
        cmocka_unit_test(test_n20_ae_17_2_linz_roll_1_removed_without_morale_penalty),
        cmocka_unit_test(test_n20_ae_17_2_linz_roll_3_delayed_and_rolls_again),
        cmocka_unit_test(test_n20_ae_17_2_linz_roll_5_arrives_but_enters_next_turn),
        cmocka_unit_test(test_n20_ae_17_2_linz_roll_6_arrives_and_moves),
        cmocka_unit_test(test_n20_ae_17_3_1_no_second_site_before_turn_3),
        cmocka_unit_test(test_n20_ae_17_3_2_second_site_in_a_french_movement_phase),
        cmocka_unit_test(test_n20_ae_17_3_2_site_held_by_the_enemy_is_not_available),
        cmocka_unit_test(test_n20_ae_17_3_1_second_bridgehead_has_its_garrison),
        cmocka_unit_test(test_n20_ae_9_10_1_catastrophe_at_the_second_bridgehead),
        cmocka_unit_test(test_n20_ae_6_10_cut_short_move_does_not_end_stacked),
        cmocka_unit_test(test_n20_ae_6_10_lone_leader_retreat_across_the_pontoon_rolls),
        cmocka_unit_test(test_n20_ae_6_10_penetration_across_the_pontoon_rolls),
        cmocka_unit_test(test_n20_ae_9_10_1_austrian_pursuit_through_bridgehead_is_a_catastrophe),
        cmocka_unit_test(test_n20_ae_17_3_2_one_objective_marker_a_hex),
        cmocka_unit_test(test_n20_ae_6_10_intact_pontoon_is_a_bridge_for_combat),
        cmocka_unit_test(test_n20_ae_6_10_defender_across_the_pontoon_has_the_bridge_benefit),
        cmocka_unit_test(test_n20_ae_17_3_reinforcements_at_any_french_entry_area),
        cmocka_unit_test(test_n20_ae_17_3_fischamend_area_without_its_pontoon_is_an_entry_area),
        cmocka_unit_test(test_n20_ae_view_shows_site_pontoon_and_bridgehead),
        cmocka_unit_test(test_n20_ae_game_random_legal_orders_reach_a_result_at_each_site),
        cmocka_unit_test(test_n20_ae_game_random_legal_orders_with_each_variant),
    };
    if (sodium_init() < 0) return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
