/*
 * test_n20_wagram.c - Wagram 20 [3.0]-[17.1] and the Marchfeld [18.0] on the real scenarios
 * `wagram20` and `marchfeld` (rules/n20/scenarios/): their set-up as the exclusive rules play it,
 * rule cases on the Danube map, and whole games of random legal orders with each option. The
 * rule cases on positions of their own: test_n20_wagram_rules.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

extern const brt_ruleset brt_ruleset_n20;

/* ---- the set-ups and rule cases on the Danube map ----------------------------------------------- */

#define LOCALS              \
    t_dice d;               \
    t_dice_init(&d, 1);     \
    t_events ev = {0};      \
    brt_reject err;         \
    (void)err;              \
    (void)ev

static int s_heights(const n20_state *s) {
    int n = 0;
    for (int h = 0; h < N20_HEXES; h++) n += s->sc->onmap[h] && (s->sc->dn.zone[h] & N20_Z_HEIGHTS) && n20_unit_at(s, (uint16_t)h) < 0;
    return n;
}

/* the first hex of the Heights zone with no unit, after `after` */
static unsigned s_free_height(const n20_state *s, unsigned after) {
    for (int h = 0; h < N20_HEXES; h++)
        if (s->sc->onmap[h] && (s->sc->dn.zone[h] & N20_Z_HEIGHTS) && n20_unit_at(s, (uint16_t)h) < 0 &&
            n20_xxyy((uint16_t)h) > after)
            return n20_xxyy((uint16_t)h);
    fail_msg("no free Heights hex");
    return 0;
}

/* wagram20 set up and its I, II and IV deployed; the C&C die `cc` scripted */
static n20_state *s_wagram_t1(t_dice *d, t_events *ev, uint32_t opts, uint32_t cc) {
    n20_state *s = t_setup("wagram20", opts, d, ev);
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, &out);
    const char *ids[3] = {"I", "II", "IV"};
    unsigned h = 0;
    for (int i = 0; i < 3; i++) {
        h = s_free_height(s, h);
        brt_reject err;
        if (i == 2) t_dice_script(d, 1, &cc);
        char o[64];
        snprintf(o, sizeof o, "deploy %s %04u", ids[i], h);
        assert_int_equal(t_order(s, N20_ALLIED, o, d, ev, &err), 0);
    }
    return s;
}

/* [3.0] Wagram: I, II and IV (4-2) "Anywhere between hex columns 08XX and 15XX ... northeast of
 * the Russbach Stream ... deployed, unstacked, by the Austrian Player" before Turn 1; legal() lists
 * each of them in each free hex of the Heights */
static void test_n20_wg_3_0_wagram20_set_up_begins_with_the_austrian_deployment(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = t_setup("wagram20", 0, &d, &ev);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->morale[N20_FRENCH], 8); /* [3.0] #3 */
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->dn.secured, 0);         /* [6.10.1] the three bridges incomplete */
    assert_int_equal(s->dn.flor, N20_PON_NONE); /* [3.0] the Pontoon Bridges Damaged marker */
    const char *inactive[5] = {"III", "V", "I", "II", "IV"}; /* [6.11] all but the released ones */
    const char *released[6] = {"ADVGUARD", "GRENADIER", "VIa", "VIb", "RESERVE1", "RESERVE2"};
    for (int i = 0; i < 5; i++) assert_true(n20_wg_inactive(s, U(inactive[i])));
    for (int i = 0; i < 6; i++) assert_false(n20_wg_inactive(s, U(released[i])));
    assert_int_equal(s->sc->dn.nsites, 0); /* no A-E crossing-site choice in Wagram 20 */
    assert_int_equal(s->phase, N20_PH_WG_DEPLOY);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(WHERE("I"), N20_U_OUT);
    assert_int_equal(WHERE("ADVGUARD"), N20_U_MAP); /* the fixed set-up is on the map */
    int free_hexes = s_heights(s);
    assert_true(free_hexes >= 3);
    assert_int_equal(t_legal_n(s, N20_ALLIED), 3 * free_hexes);
    NO(N20_ALLIED, "deploy I 1510", "3.0"); /* Essling is not on the Heights */
    NO(N20_ALLIED, "deploy ADVGUARD 1003", "3.0");
    free(s);
}

/* [4.1] [6.10.2] after the deployment: the French Movement Phase of Turn 1, its Confusion &
 * Congestion roll first (die 1: one unit off Lobau), no events; `end` skips the Austrian Turn */
static void test_n20_wg_4_1_wagram20_turn_1_after_the_deployment(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_wagram_t1(&d, &ev, 0, 1);
    assert_int_equal(s->dn.deployed, 1);
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_dice_count(&d, "6.10.2 confusion and congestion"), 1);
    assert_int_equal(s->dn.cc_left, 1);
    assert_int_equal(s->dn.secured, 0); /* VIb in Essling, the Advanced Guard in Gross-Enzersdorf */
    assert_true(t_legal_has(s, N20_FRENCH, "alt-area GUARD")); /* [3.0] Area A now or Area B on Turn 4 */
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "move");
    assert_non_null(strstr(p.prompt, "alt-area")); /* the Movement Phase prompt names the choice */
    NO(N20_FRENCH, "move 2eA 1609", "6.10.1"); /* an incomplete bridge */
    OK(N20_FRENCH, "end");
    assert_true(t_events_has(&ev, "[4.1] the allied Player Turn of Turn 1 is skipped"));
    assert_int_equal(s->turn, 2);
    assert_int_equal(s->phasing, N20_FRENCH);
    free(s);
}

/* the last hex of a listed move's text */
static unsigned s_last_hex(const char *o) {
    size_t n = strlen(o);
    return n >= 4 ? (unsigned)atoi(o + n - 4) : 0;
}

/* a listed move of `id` that ends off Lobau Island, not in hex `not`, into buf ("" if none) */
static void s_off_lobau_move(const n20_state *s, const char *id, unsigned not, char *buf, size_t max) {
    brt_buf b;
    buf_init(&b);
    n20_legal(s, N20_FRENCH, &b);
    size_t pos = 0, len;
    const uint8_t *it;
    char pre[32];
    snprintf(pre, sizeof pre, "move %s ", id);
    buf[0] = 0;
    while (!buf[0] && buf_next_item(&b, &pos, &it, &len) == 1) {
        brt_buf t;
        buf_init(&t);
        n20_order_format(it, len, &t);
        buf_append(&t, "", 1);
        const char *o = (const char *)t.data;
        if (strncmp(o, pre, strlen(pre)) == 0 && !(s->sc->dn.zone[n20_hex(s_last_hex(o))] & N20_Z_LOBAU) &&
            s_last_hex(o) != not)
            snprintf(buf, max, "%s", o);
        buf_free(&t);
    }
    buf_free(&b);
}

/* [6.10.2] on the Danube map: with a roll of 1 the first French unit off Lobau Island (over a
 * completed bridge) uses the cap; the second's move off the island is refused */
static void test_n20_wg_6_10_2_wagram20_second_unit_off_lobau_refused_after_a_1(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_wagram_t1(&d, &ev, 0, 1);
    char first[96], second[96];
    s_off_lobau_move(s, "4eA", 0, first, sizeof first);
    assert_true(first[0] != 0);
    s_off_lobau_move(s, "3eA", s_last_hex(first), second, sizeof second);
    assert_true(first[0] && second[0]);
    OK(N20_FRENCH, first);
    assert_int_equal(s->dn.cc_left, 0);
    NO(N20_FRENCH, second, "6.10.2");
    s_off_lobau_move(s, "3eA", 0, second, sizeof second);
    assert_string_equal(second, ""); /* legal() lists none */
    free(s);
}

/* [18.0] the Marchfeld: Turn 4, Morale 6/6, Crossings Secured, the French skip their first events,
 * V, I, II and IV inactive until Turn 8 [6.11] (rulings R-dn-wg-6.12-marchfeld), no Area B */
static void test_n20_mf_18_0_marchfeld_set_up(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = t_setup("marchfeld", 0, &d, &ev);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->turn, 4);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->dn.secured, 1);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_true(t_events_has(&ev, "Random Events Phase of the first Game Turn is skipped"));
    assert_int_equal(t_dice_count(&d, "6.10.2 confusion and congestion"), 0);
    assert_int_equal(s->dn.cc_left, 0xff);
    const char *inactive[4] = {"V", "I", "II", "IV"};
    for (int i = 0; i < 4; i++) assert_true(n20_wg_inactive(s, U(inactive[i])));
    assert_false(n20_wg_inactive(s, U("ADVGUARD")));
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "alt-area"), 0);
    assert_int_equal(n20_unit_find(s, "8e"), -1); /* "The 8e Corps ... not used in this scenario" */
    assert_int_equal(s->dn.flor, N20_PON_NONE);
    assert_int_equal(s->sc->dn.flor_a != 0 && (s->opts & N20_OPT_FLORIDSDORF), 0);
    brt_pending p;
    n20_pending(s, &p);
    assert_null(strstr(p.prompt, "alt-area")); /* no other Entry Area in the Marchfeld */
    OK(N20_FRENCH, "move GRENIER 1610"); /* the Lobau bridges are complete */
    free(s);
}

/* [6.11] [18.0] in the Marchfeld an inactive unit cannot move on Turn 4 */
static void test_n20_mf_6_11_marchfeld_inactive_corps_cannot_move(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = t_setup("marchfeld", 0, &d, &ev);
    n20_run(s, &d.d, NULL);
    OK(N20_FRENCH, "end");
    while (!s->over && n20_pending_seat(s) == N20_FRENCH) OK(N20_FRENCH, "end");
    if (s->phase != N20_PH_MOVE) fail_msg("not at the Austrian Movement Phase (phase %d)", s->phase);
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move I "), 0);
    assert_int_equal(t_legal_count_prefix(s, N20_ALLIED, "move IV "), 0);
    assert_true(t_legal_count_prefix(s, N20_ALLIED, "move ADVGUARD ") > 0);
    NO(N20_ALLIED, "move I 1002", "6.11");
    free(s);
}

/* the real scenario with `opts`, every unit off the map, `phasing`'s `phase` of `turn`, 6 Morale each */
static n20_state *s_pos(const char *scenario, uint32_t opts, t_dice *d, int turn, int phasing, int phase) {
    n20_state *s = t_setup(scenario, opts, d, NULL);
    t_clear_map(s);
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)phasing;
    s->phase = (uint8_t)phase;
    s->morale[N20_FRENCH] = s->morale[N20_ALLIED] = 6;
    s->first_turn_done = 1;
    s->dn.deployed = 1;
    d->npurposes = 0;
    return s;
}

/* [3.0] [12.7] wagram20 with leaders: Archduke John and John (0-5) roll one die on Turn 5; on a 6
 * both arrive at Area Z, and Archduke John entering play raises the Austrian Morale by one */
static void test_n20_wg_12_7_wagram20_archduke_john_and_john_arrive_together(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", N20_OPT_LEADERS, &d, 5, N20_ALLIED, N20_PH_MOVE_START);
    int aj = U("ARCHDUKE-JOHN"), j = U("JOHN");
    s->u[aj].where = s->u[j].where = N20_U_VARIABLE;
    s->u[aj].arrive = s->u[j].arrive = 5;
    t_place(s, "CHARLES", 403);
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement (together)"), 1);
    assert_int_equal(s->u[aj].where, N20_U_REINF);
    assert_int_equal(s->u[j].where, N20_U_REINF);
    OK(N20_ALLIED, "move JOHN 1901");
    assert_int_equal(s->morale[N20_ALLIED], 6);
    OK(N20_ALLIED, "move ARCHDUKE-JOHN 1801");
    assert_int_equal(s->morale[N20_ALLIED], 7);
    free(s);
}

/* [6.10.1] wagram20: "1510 (Essling) and 1710 (Gross-Enzersdorf) both unoccupied by Austrian units"
 * at the start of the French Player Turn completes 1609/1610; VIb still in Essling does not */
static void test_n20_wg_6_10_1_wagram20_essling_and_enzersdorf_free_secure_the_crossings(void **st) {
    (void)st;
    for (int held = 0; held < 2; held++) {
        LOCALS;
        n20_state *s = s_pos("wagram20", 0, &d, 2, N20_FRENCH, N20_PH_EVENTS);
        t_place(s, "2eA", 1610);
        t_place(s, held ? "VIb" : "VIa", held ? 1510 : 1311);
        n20_out out = {t_events_emit, &ev};
        n20_run(s, &d.d, &out);
        assert_int_equal(s->phase, N20_PH_MOVE);
        assert_int_equal(s->dn.secured, !held);
        if (held) NO(N20_FRENCH, "move 2eA 1609", "6.10.1");
        else OK(N20_FRENCH, "move 2eA 1609");
        free(s);
    }
}

/* [16.10] [16.10.2] wagram20 with floridsdorf-pontoon: the 9e builds the pontoon from 0714 into
 * 0713; an Austrian unit entering 0713 afterwards destroys it */
static void test_n20_wg_16_10_wagram20_floridsdorf_built_then_destroyed(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", N20_OPT_FLORIDSDORF, &d, 9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "9e", 714);
    assert_true(t_legal_has(s, N20_FRENCH, "move 9e 0713"));
    OK(N20_FRENCH, "move 9e 0713");
    assert_int_equal(s->dn.flor, N20_PON_INTACT);
    s->u[U("9e")].where = N20_U_OUT;
    s->phasing = N20_ALLIED;
    s->u[U("9e")].flags = 0;
    t_place(s, "GRENADIER", 712);
    assert_true(n20_dir(s->sc, n20_hex(712), n20_hex(713)) >= 0);
    OK(N20_ALLIED, "move GRENADIER 0713");
    assert_int_equal(s->dn.flor, N20_PON_DESTROYED);
    free(s);
}

/* [12.8] wagram20: VIb crossing the 1609/1610 bridge into the Lobau battery hex 1610 once the
 * crossings are complete: French Morale -2 */
static void test_n20_wg_12_8_wagram20_austrian_crossing_into_lobau(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 9, N20_ALLIED, N20_PH_MOVE);
    s->dn.secured = 1;
    t_place(s, "VIb", 1510);
    NO(N20_ALLIED, "move VIb 1610", "6.2"); /* 1510/1610 is the unbridged Danube arm */
    assert_int_equal(s->morale[N20_FRENCH], 6);
    t_place(s, "VIb", 1609);
    OK(N20_ALLIED, "move VIb 1610");
    assert_int_equal(s->morale[N20_FRENCH], 4);
    free(s);
}

/* [14.0] wagram20 Home Ground at the Austrian Night Operations of Turn 6 (5 July, Night): +2 with a
 * unit in Aderklaa (1006) */
static void test_n20_wg_14_0_wagram20_home_ground_at_night(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 6, N20_ALLIED, N20_PH_NIGHT_OPS);
    assert_true(n20_is_night(s));
    t_place(s, "GRENADIER", 1006);
    n20_out out = {t_events_emit, &ev};
    n20_night_ops_auto(s, &out);
    assert_int_equal(s->morale[N20_ALLIED], 8);
    free(s);
}

/* a hex next to `xxyy`, off Lobau, joined to it by no river hexside, other than `not`; 0 none */
static unsigned s_land_nb(const n20_state *s, unsigned xxyy, unsigned not) {
    uint16_t h = n20_hex(xxyy), o;
    for (int dir = 0; dir < 6; dir++)
        if (n20_neighbor(s->sc, h, dir, &o) == 0 && s->sc->onmap[o] && !(s->sc->dn.zone[o] & N20_Z_LOBAU) &&
            s->sc->cross[h][dir] == 0 && n20_xxyy(o) != not)
            return n20_xxyy(o);
    return 0;
}

/* [6.10] wagram20: the 4eA at 1811, off Lobau, withdraws (DW) toward the French LOC in 1714 across
 * the 1711/1811 bridge onto Lobau Island: no Hazardous Retreat roll [9.8.4], a Rout! marker */
static void test_n20_wg_6_10_wagram20_retreat_onto_lobau_is_safe_and_routed(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 9, N20_ALLIED, N20_PH_DECLARE);
    assert_true(s->sc->dn.zone[n20_hex(1711)] & N20_Z_LOBAU);
    assert_false(s->sc->dn.zone[n20_hex(1811)] & N20_Z_LOBAU);
    unsigned a = s_land_nb(s, 1811, 0);
    assert_true(a != 0);
    t_place(s, "4eA", 1811);
    t_place(s, "II", a);
    OK(N20_ALLIED, "declare II -> 4eA");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(s->u[U("4eA")].routed, 0);
    d.npurposes = 0;
    assert_true(t_legal_has(s, N20_FRENCH, "retreat 4eA 1711"));
    OK(N20_FRENCH, "retreat 4eA 1711");
    assert_int_equal(WHERE("4eA"), N20_U_MAP);
    AT("4eA", 1711);
    assert_int_equal(d.npurposes, 0); /* no hazard roll */
    assert_int_not_equal(s->u[U("4eA")].routed, 0);
    free(s);
}

/* [6.10] "units from both sides": an Austrian unit on Lobau (1711), attacked from 1712, withdraws
 * off the island across the 1711/1811 bridge: no hazard roll, a Rout! marker */
static void test_n20_wg_6_10_wagram20_austrian_retreat_off_lobau_is_safe_and_routed(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "II", 1711);
    t_place(s, "3eA", 1712);
    OK(N20_FRENCH, "declare 3eA -> II");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    d.npurposes = 0;
    assert_true(t_legal_has(s, N20_ALLIED, "retreat II 1811"));
    OK(N20_ALLIED, "retreat II 1811");
    AT("II", 1811);
    assert_int_equal(d.npurposes, 0);
    assert_int_not_equal(s->u[U("II")].routed, 0);
    free(s);
}

/* [9.10] wagram20: the Bridgehead Garrison in 1511 is set up intact in its Redoubt (the fortified
 * camp); VIb attacking it from Essling meets strength 0 with the Redoubt's +2; on DW the Garrison
 * holds, and VIb advancing into 1511 destroys it with no Morale effect [9.4.4.1] [9.4.4.4] [9.4.4.5] */
static void test_n20_wg_9_10_wagram20_bridgehead_garrison_holds_then_is_destroyed(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = t_setup("wagram20", 0, &d, NULL);
    int g = U("BRIDGEHEAD");
    assert_int_equal(s->u[g].where, N20_U_GARRISON);
    AT("BRIDGEHEAD", 1511);
    assert_true(n20_is_fortified(s->sc, s, n20_hex(1511)));
    free(s);
    s = s_pos("wagram20", 0, &d, 9, N20_ALLIED, N20_PH_DECLARE);
    n20_garrison_place(s, g, n20_hex(1511));
    t_place(s, "VIb", 1510);
    OK(N20_ALLIED, "declare VIb -> BRIDGEHEAD");
    uint32_t r[] = {4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "VIb attacks BRIDGEHEAD in battle 1: 2 vs 2 (terrain +2), differential +0, column +0, die 4: DW"));
    assert_true(t_events_has(&ev, "[9.4.4.1] the Garrison BRIDGEHEAD does not retreat"));
    assert_int_equal(s->u[g].where, N20_U_GARRISON);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    OK(N20_ALLIED, "advance VIb 1511");
    assert_int_equal(s->u[g].where, N20_U_ELIM);
    AT("VIb", 1511);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->dn.lobau_hit, 0); /* 1511 is on the north shore, not Lobau [12.8] */
    free(s);
}

/* [9.11] wagram20 with artillery-support: the Battery in 1512 on Lobau bombards III across the
 * unbridged Danube into 1412 [16.3.2] at its strength 2; an AB, AR or AW result leaves it in place */
static void test_n20_wg_9_11_wagram20_battery_1512_bombards_across_the_danube(void **st) {
    (void)st;
    for (int die = 1; die <= 5; die += 2) {
        LOCALS;
        n20_state *s = s_pos("wagram20", N20_OPT_ART_SUPPORT, &d, 9, N20_FRENCH, N20_PH_DECLARE);
        int b = U("BATTERY-1512");
        n20_garrison_place(s, b, n20_hex(1512));
        t_place(s, "III", 1412);
        uint16_t o;
        int dir = n20_dir(s->sc, n20_hex(1512), n20_hex(1412));
        assert_true(dir >= 0 && n20_neighbor(s->sc, n20_hex(1512), dir, &o) == 0);
        assert_int_not_equal(s->sc->river[n20_hex(1512)][dir], 0); /* the Danube */
        assert_int_equal(s->sc->cross[n20_hex(1512)][dir], 0);      /* unbridged */
        assert_true(t_legal_has(s, N20_FRENCH, "declare BATTERY-1512 -> III"));
        OK(N20_FRENCH, "declare BATTERY-1512 -> III");
        uint32_t r[] = {(uint32_t)die}; /* 2 vs 3 + 1 forest = -2: 1 AB, 3 AR, 5 AW */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "BATTERY-1512 attacks III in battle 1: 2 vs 4"));
        assert_true(t_events_has(&ev, "[16.3.2] BATTERY-1512 bombards in battle 1"));
        assert_true(t_events_has(&ev, "[9.11] the Battery BATTERY-1512 ignores the attacker's result"));
        assert_int_equal(s->u[b].where, N20_U_GARRISON);
        AT("BATTERY-1512", 1512);
        free(s);
    }
}

/* [9.11] [16.3.1] wagram20 with artillery-support: the Battery in 1512 on Lobau supports the 9e
 * defending the Bridgehead hex 1511 across the unbridged Danube; without the Battery, no support */
static void test_n20_wg_9_11_wagram20_battery_1512_supports_the_bridgehead_across_the_danube(void **st) {
    (void)st;
    for (int battery = 0; battery < 2; battery++) {
        LOCALS;
        n20_state *s = s_pos("wagram20", N20_OPT_ART_SUPPORT, &d, 9, N20_ALLIED, N20_PH_DECLARE);
        if (battery) n20_garrison_place(s, U("BATTERY-1512"), n20_hex(1512));
        int dir = n20_dir(s->sc, n20_hex(1512), n20_hex(1511));
        assert_true(dir >= 0 && s->sc->river[n20_hex(1512)][dir] != 0 && s->sc->cross[n20_hex(1512)][dir] == 0);
        t_place(s, "9e", 1511);
        t_place(s, "VIb", 1510);
        OK(N20_ALLIED, "declare VIb -> 9e");
        uint32_t r[] = {6, 6};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
        assert_true(t_events_has(&ev, battery ? "VIb attacks 9e in battle 1: 2 vs 5 (terrain +2, artillery support)"
                                              : "VIb attacks 9e in battle 1: 2 vs 4 (terrain +2)"));
        free(s);
    }
}

/* [9.11] wagram20: "If a French unit defends in a Battery hex, add two (+2)": the 2eA (4) in 1610
 * defends at 6; the Battery itself is ignored while the 2eA is there [9.4.4] */
static void test_n20_wg_9_11_wagram20_french_unit_in_battery_1610_defends_at_plus_2(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 9, N20_ALLIED, N20_PH_DECLARE);
    n20_garrison_place(s, U("BATTERY-1610"), n20_hex(1610));
    t_place(s, "2eA", 1610);
    t_place(s, "I", 1611);
    NO(N20_ALLIED, "declare I -> BATTERY-1610", "9.4.4");
    OK(N20_ALLIED, "declare I -> 2eA");
    uint32_t r[] = {4, 4};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "I attacks 2eA in battle 1: 4 vs 6 (terrain +0)"));
    free(s);
}

/* [9.11] [9.4.4.4] [12.8] wagram20: the Battery in 1610 defends alone at 2; on DR it holds, and the
 * Austrian I advancing into it destroys it and is the first Austrian on Lobau: French Morale -2 */
static void test_n20_wg_9_11_wagram20_battery_taken_by_advance_is_the_catastrophe(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 9, N20_ALLIED, N20_PH_DECLARE);
    int b = U("BATTERY-1610");
    n20_garrison_place(s, b, n20_hex(1610));
    t_place(s, "I", 1611);
    OK(N20_ALLIED, "declare I -> BATTERY-1610");
    uint32_t r[] = {6};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "I attacks BATTERY-1610 in battle 1: 4 vs 2 (terrain +0), differential +2, column +2, die 6: DR"));
    assert_int_equal(s->u[b].where, N20_U_GARRISON);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    OK(N20_ALLIED, "advance I 1610");
    assert_int_equal(s->u[b].where, N20_U_ELIM);
    assert_true(t_events_has(&ev, "[12.8] Catastrophe: I enters Lobau Island at 1610"));
    assert_true(s->morale[N20_FRENCH] <= 4); /* -2, then the French Turn's events */
    assert_true(t_events_has(&ev, "french morale 6 -> 4"));
    free(s);
}

/* [3.0] wagram20, the 8e "a Variable Reinforcement requiring a die roll of 6 ... can enter play on
 * its scheduled Turn of arrival at Area B -OR- ... delay its entry by three Turns, after which it
 * arrives at Area A": a 5 on Turn 6 delays it with no choice; the 6 on Turn 7 opens the choice
 * (the prompt names it); sent on, it is due on Turn 10 at Area A with no further roll */
static void test_n20_wg_3_0_wagram20_8e_rolls_for_area_b_or_waits_for_area_a(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = s_pos("wagram20", 0, &d, 6, N20_FRENCH, N20_PH_MOVE_START);
    int u = U("8e");
    s->u[u].where = N20_U_VARIABLE;
    s->u[u].arrive = 6;
    t_place(s, "2eA", 1610);
    assert_int_equal(n20_wg_entry_area(s, u), 'B');
    uint32_t r[] = {5};
    t_dice_script(&d, 1, r);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s->u[u].where, N20_U_VARIABLE);
    assert_int_equal(s->u[u].arrive, 7);
    assert_false(t_legal_has(s, N20_FRENCH, "alt-area 8e"));
    NO(N20_FRENCH, "alt-area 8e", "3.0");
    s->turn = 7;
    s->phase = N20_PH_MOVE_START;
    uint32_t r6[] = {6};
    t_dice_script(&d, 1, r6);
    n20_run(s, &d.d, &out);
    assert_int_equal(s->u[u].where, N20_U_REINF);
    assert_true(t_legal_has(s, N20_FRENCH, "alt-area 8e"));
    assert_true(t_legal_count_prefix(s, N20_FRENCH, "move 8e ") > 0);
    brt_pending p;
    n20_pending(s, &p);
    assert_non_null(strstr(p.prompt, "alt-area"));
    OK(N20_FRENCH, "alt-area 8e");
    assert_int_equal(s->u[u].arrive, 10);
    assert_int_equal(n20_wg_entry_area(s, u), 'A');
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "move 8e "), 0);
    n20_pending(s, &p);
    assert_null(strstr(p.prompt, "alt-area")); /* the choice is made */
    int rolls = d.npurposes;
    s->turn = 10;
    s->phase = N20_PH_MOVE_START;
    n20_run(s, &d.d, &out);
    assert_int_equal(d.npurposes, rolls); /* no roll at Area A */
    assert_true(t_legal_count_prefix(s, N20_FRENCH, "move 8e ") > 0);
    free(s);
}

/* [6.10.2] wagram20's Confusion & Congestion Table: 1-2 one unit, 3-5 two, 6 three */
static void test_n20_wg_6_10_2_wagram20_table_3_4_5_two_units(void **st) {
    (void)st;
    const int want[6] = {1, 1, 2, 2, 2, 3};
    for (uint32_t die = 1; die <= 6; die++) {
        LOCALS;
        n20_state *s = s_wagram_t1(&d, &ev, 0, die);
        assert_int_equal(s->dn.cc_left, want[die - 1]);
        free(s);
    }
}

/* [16.10.1] [9.8.6] wagram20 with floridsdorf-pontoon: the 9e at 0713, once French units crossed,
 * withdraws toward the LOC in 0714 across the pontoon: a Hazardous Retreat [9.8.4], 3 Breaks it in
 * 0713, 6 takes it across */
static void test_n20_wg_16_10_1_wagram20_retreat_over_the_pontoon_is_hazardous(void **st) {
    (void)st;
    for (uint32_t hz = 3; hz <= 6; hz += 3) {
        LOCALS;
        n20_state *s = s_pos("wagram20", N20_OPT_FLORIDSDORF, &d, 9, N20_ALLIED, N20_PH_DECLARE);
        s->dn.flor = N20_PON_INTACT;
        s->dn.flor_used = 1;
        unsigned a = s_land_nb(s, 713, 0);
        assert_true(a != 0);
        t_place(s, "9e", 713);
        t_place(s, "II", a);
        OK(N20_ALLIED, "declare II -> 9e");
        uint32_t r[] = {4};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "die 4: DW"));
        assert_true(t_legal_has(s, N20_FRENCH, "retreat 9e 0714"));
        d.npurposes = 0;
        uint32_t h[] = {hz};
        t_dice_script(&d, 1, h);
        OK(N20_FRENCH, "retreat 9e 0714");
        assert_int_equal(d.npurposes, 1); /* the hazard roll */
        if (hz == 3) assert_int_equal(WHERE("9e"), N20_U_BROKEN);
        else {
            assert_int_equal(WHERE("9e"), N20_U_MAP);
            AT("9e", 714);
            assert_int_equal(s->u[U("9e")].routed, 0); /* no Lobau bridge: no Rout! marker [6.10] */
        }
        free(s);
    }
}

/* [18.0] "the French cannot use Entry Area B (and cannot build the pontoon bridge there)": the
 * Marchfeld refuses the option floridsdorf-pontoon, wagram20 takes it */
static void test_n20_mf_18_0_marchfeld_refuses_the_floridsdorf_pontoon(void **st) {
    (void)st;
    const brt_ruleset *r = &brt_ruleset_n20;
    t_dice d;
    t_dice_init(&d, 42);
    brt_reject err;
    const char *opt[] = {"floridsdorf-pontoon"};
    brt_ruleset_options o = {opt, 1, 2};
    assert_null(r->setup("marchfeld", &o, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    void *s = r->setup("wagram20", &o, &d.d, &err);
    assert_non_null(s);
    r->destroy(s);
}

/* ---- whole games ------------------------------------------------------------------------------- */

/* 1 if the order spends a Morale Point (forced march, reserves, rally) */
static int s_spends(const uint8_t *item, size_t len) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__order__descriptor, item, len, 0, &m) != CANON_OK) return 0;
    N20__V1__Order *o = (N20__V1__Order *)m;
    int r = o->kind_case == N20__V1__ORDER__KIND_FORCE_MARCH ||
            (o->kind_case == N20__V1__ORDER__KIND_RESOLVE && o->resolve->reserve) ||
            (o->kind_case == N20__V1__ORDER__KIND_RESERVE && o->reserve->commit) ||
            (o->kind_case == N20__V1__ORDER__KIND_RALLY && o->rally->n_spend) ||
            (o->kind_case == N20__V1__ORDER__KIND_COUNTERCHARGE && o->countercharge->reserve);
    protobuf_c_message_free_unpacked(m, NULL);
    return r;
}

/* one game of random legal orders to its result; thrifty: an order that spends Morale is drawn
 * again (up to 8 times), so that games reach the later turns; every listed order of the first
 * `check` steps is applied to a copy and must be accepted. The final state hash in `hash`, the
 * last turn in *turn. */
static int s_play(const char *scenario, uint32_t opts, uint64_t seed, int thrifty, int check, uint8_t hash[32],
                  int *turn) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 3;
    brt_buf legal;
    buf_init(&legal);
    char tag[96];
    snprintf(tag, sizeof tag, "%s opts %x seed %llu", scenario, opts, (unsigned long long)seed);
    int steps = 0;
    while (!s->over && steps < 30000) {
        int seat = n20_pending_seat(s);
        if (seat != 0 && seat != 1) fail_msg("%s: no seat to decide", tag);
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) fail_msg("%s: no legal order (phase %d)", tag, s->phase);
        assert_int_equal(t_legal_n(s, (unsigned)(1 - seat)), 0); /* the other seat has nothing to do */
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        size_t len = 0;
        for (int tries = 0; thrifty && tries < 8; tries++) {
            const uint8_t *it = t_nth(&legal, pick, &len);
            if (!s_spends(it, len)) break;
            pick = (int)(t_rng(&rng) % (uint64_t)n);
        }
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, steps < check, &d, &out, tag, &len);
        assert_non_null(chosen);
        brt_reject err;
        if (n20_apply(s, (unsigned)seat, chosen, len, &d.d, &out, &err) != 0)
            fail_msg("%s: listed order rejected: %s", tag, err.message);
        steps++;
    }
    assert_true(s->over); /* [15.0] the game ends with a result */
    *turn = s->turn;
    t_hash(s, hash);
    buf_free(&legal);
    free(s);
    return steps;
}

/* games of each kind (thrifty and not), each replayed to the same end; returns the highest last
 * turn */
static int s_games(const char *scenario, uint32_t opts, int games) {
    int last = 0;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        int t1, t2;
        int n1 = s_play(scenario, opts, (uint64_t)g + 11, g % 2 == 0, g == 0 ? 300 : 0, h1, &t1);
        int n2 = s_play(scenario, opts, (uint64_t)g + 11, g % 2 == 0, 0, h2, &t2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
        if (t1 > last) last = t1;
    }
    return last;
}

static void test_n20_wg_game_wagram20_plays_to_a_result(void **st) {
    (void)st;
    s_games("wagram20", 0, 4);
}

static void test_n20_wg_game_wagram20_floridsdorf_pontoon_plays_to_a_result(void **st) {
    (void)st;
    s_games("wagram20", N20_OPT_FLORIDSDORF, 4);
}

static void test_n20_wg_game_wagram20_leaders_and_fog_of_war_play_to_a_result(void **st) {
    (void)st;
    s_games("wagram20", N20_OPT_LEADERS | N20_OPT_FOG | N20_OPT_FLORIDSDORF, 2);
}

/* [17.1] the 13th card in the Discard Pile at set-up */
static void test_n20_wg_game_thirteenth_card_plays_to_a_result(void **st) {
    (void)st;
    LOCALS;
    n20_state *s = t_setup("wagram20", N20_OPT_13TH_CARD, &d, NULL);
    int in_discard = 0;
    for (int i = 0; i < s->ndiscard; i++) in_discard |= s->sc->cards[s->discard[i]].number == 13;
    assert_true(in_discard);
    free(s);
    s_games("wagram20", N20_OPT_13TH_CARD, 2);
    s_games("marchfeld", N20_OPT_13TH_CARD, 2);
}

/* every option the Danube data takes, together: fog-of-war, cavalry-penetration, artillery-support,
 * rally-locations, special-units, fatigue, leaders, thirteenth-card and (wagram20 only)
 * floridsdorf-pontoon */
#define S_ALL_OPTS                                                                                             \
    (N20_OPT_FOG | N20_OPT_CAV_PENETRATION | N20_OPT_ART_SUPPORT | N20_OPT_RALLY_LOCATIONS |                  \
     N20_OPT_SPECIAL_UNITS | N20_OPT_FATIGUE | N20_OPT_LEADERS | N20_OPT_13TH_CARD)

static void test_n20_wg_game_wagram20_every_option_plays_to_a_result(void **st) {
    (void)st;
    s_games("wagram20", S_ALL_OPTS | N20_OPT_FLORIDSDORF, 4);
}

static void test_n20_mf_game_marchfeld_every_option_plays_to_a_result(void **st) {
    (void)st;
    assert_true(s_games("marchfeld", S_ALL_OPTS, 4) <= 12);
}

/* the options the Danube data refuses (rulings R-dn-pools, digest defect 14): variable-weather (no
 * such v3.0 rule), just-like-old-days (a Waterloo card); both scenarios. unit-reduction and breakdown
 * are played with the reconstructed Cadre pools */
static void test_n20_wg_data_refuses_the_options_it_has_no_pieces_for(void **st) {
    (void)st;
    const brt_ruleset *r = &brt_ruleset_n20;
    const char *bad[] = {"variable-weather", "just-like-old-days"};
    const char *scen[] = {"wagram20", "marchfeld"};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++) {
            t_dice d;
            t_dice_init(&d, 42);
            brt_reject err;
            brt_ruleset_options o = {&bad[i], 1, 2};
            assert_null(r->setup(scen[k], &o, &d.d, &err));
            assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
        }
}

/* [18.0] #5 no Marchfeld game goes past Turn 12; the thrifty ones reach it */
static void test_n20_mf_game_marchfeld_plays_to_a_result_by_turn_12(void **st) {
    (void)st;
    assert_int_equal(s_games("marchfeld", 0, 4), 12);
    assert_true(s_games("marchfeld", N20_OPT_LEADERS, 2) <= 12);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_wg_3_0_wagram20_set_up_begins_with_the_austrian_deployment),
        cmocka_unit_test(test_n20_wg_4_1_wagram20_turn_1_after_the_deployment),
        cmocka_unit_test(test_n20_wg_6_10_2_wagram20_second_unit_off_lobau_refused_after_a_1),
        cmocka_unit_test(test_n20_mf_18_0_marchfeld_set_up),
        cmocka_unit_test(test_n20_wg_12_7_wagram20_archduke_john_and_john_arrive_together),
        cmocka_unit_test(test_n20_wg_6_10_1_wagram20_essling_and_enzersdorf_free_secure_the_crossings),
        cmocka_unit_test(test_n20_wg_16_10_wagram20_floridsdorf_built_then_destroyed),
        cmocka_unit_test(test_n20_wg_12_8_wagram20_austrian_crossing_into_lobau),
        cmocka_unit_test(test_n20_wg_14_0_wagram20_home_ground_at_night),
        cmocka_unit_test(test_n20_mf_6_11_marchfeld_inactive_corps_cannot_move),
        cmocka_unit_test(test_n20_wg_3_0_wagram20_8e_rolls_for_area_b_or_waits_for_area_a),
        cmocka_unit_test(test_n20_wg_6_10_2_wagram20_table_3_4_5_two_units),
        cmocka_unit_test(test_n20_wg_9_10_wagram20_bridgehead_garrison_holds_then_is_destroyed),
        cmocka_unit_test(test_n20_wg_9_11_wagram20_battery_1512_bombards_across_the_danube),
        cmocka_unit_test(test_n20_wg_9_11_wagram20_french_unit_in_battery_1610_defends_at_plus_2),
        cmocka_unit_test(test_n20_wg_9_11_wagram20_battery_1512_supports_the_bridgehead_across_the_danube),
        cmocka_unit_test(test_n20_wg_9_11_wagram20_battery_taken_by_advance_is_the_catastrophe),
        cmocka_unit_test(test_n20_mf_18_0_marchfeld_refuses_the_floridsdorf_pontoon),
        cmocka_unit_test(test_n20_wg_16_10_1_wagram20_retreat_over_the_pontoon_is_hazardous),
        cmocka_unit_test(test_n20_wg_6_10_wagram20_retreat_onto_lobau_is_safe_and_routed),
        cmocka_unit_test(test_n20_wg_6_10_wagram20_austrian_retreat_off_lobau_is_safe_and_routed),
        cmocka_unit_test(test_n20_wg_game_wagram20_plays_to_a_result),
        cmocka_unit_test(test_n20_wg_game_wagram20_floridsdorf_pontoon_plays_to_a_result),
        cmocka_unit_test(test_n20_wg_game_wagram20_leaders_and_fog_of_war_play_to_a_result),
        cmocka_unit_test(test_n20_wg_game_thirteenth_card_plays_to_a_result),
        cmocka_unit_test(test_n20_mf_game_marchfeld_plays_to_a_result_by_turn_12),
        cmocka_unit_test(test_n20_wg_game_wagram20_every_option_plays_to_a_result),
        cmocka_unit_test(test_n20_mf_game_marchfeld_every_option_plays_to_a_result),
        cmocka_unit_test(test_n20_wg_data_refuses_the_options_it_has_no_pieces_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
