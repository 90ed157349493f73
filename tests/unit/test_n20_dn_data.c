/*
 * test_n20_dn_data.c - the Danube 20 scenario data (rules/n20/scenarios/aspern-essling20.n20,
 * wagram20.n20, marchfeld.n20) and the records data.c reads for them: the files parse, every
 * record carries its provenance, the set-ups are the rulebook's lists unit by unit, the map has
 * every hex the text names and makes adjacent the pairs the text calls adjacent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

static const n20_scenario *s_sc(const char *id) {
    const n20_scenario *sc = n20_scenario_get(id);
    assert_non_null(sc);
    assert_string_equal(sc->id, id);
    return sc;
}

static int s_unit(const n20_scenario *sc, const char *id) {
    for (int i = 0; i < sc->nunits; i++)
        if (strcmp(sc->units[i].id, id) == 0) return i;
    return -1;
}

/* the unit record as the rulebook lists it: side, army, type, strength-allowance, placement */
static void s_want(const n20_scenario *sc, const char *id, int side, int type, int str, int ma, int place,
                   unsigned xxyy, int turn, char area) {
    int u = s_unit(sc, id);
    if (u < 0) fail_msg("unit %s missing from %s", id, sc->id);
    const n20_unit_def *d = &sc->units[u];
    assert_int_equal(d->side, side);
    assert_int_equal(d->army, side == N20_FRENCH ? N20_ARMY_FRENCH : N20_ARMY_AUSTRIAN);
    assert_int_equal(d->type, type);
    assert_int_equal(d->strength, str);
    assert_int_equal(d->allowance, ma);
    assert_int_equal(d->place, place);
    if (xxyy) assert_int_equal(n20_xxyy(d->hex), xxyy);
    if (turn) assert_int_equal(d->turn, turn);
    if (area) assert_int_equal(d->area, area);
}

static int s_adj(const n20_scenario *sc, unsigned a, unsigned b) {
    return n20_dir(sc, n20_hex(a), n20_hex(b)) >= 0;
}

/* every record of the file has a provenance, RULEBOOK or RECONSTRUCTED (the parser refuses a line
 * without one); counted here from the text, so that a new record kind cannot slip by */
static void s_every_record_has_provenance(const char *id) {
    size_t len = 0;
    const char *t = n20_data_text(id, &len);
    assert_non_null(t);
    size_t i = 0;
    int n = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && t[e] != '\n') e++;
        size_t b = i;
        while (b < e && (t[b] == ' ' || t[b] == '\t')) b++;
        if (b < e && t[b] != '#') {
            char line[600];
            size_t l = e - b < sizeof line - 1 ? e - b : sizeof line - 1;
            memcpy(line, t + b, l);
            line[l] = 0;
            const char *bar = strchr(line, '|');
            if (!bar || (!strstr(bar, "RULEBOOK") && !strstr(bar, "RECONSTRUCTED")))
                fail_msg("%s: no provenance: %s", id, line);
            n++;
        }
        i = e + 1;
    }
    assert_true(n > 0);
}

/* ---- Aspern-Essling 20 -------------------------------------------------------------- */

/* A-E [3.0]: the scenario loads, plays the v3.0 edition, and every record has its provenance */
static void test_n20_ae_3_0_loads_v3_with_provenance(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_int_equal(sc->edition, N20_ED_V3);
    assert_int_equal(sc->rows, 21);
    assert_int_equal(sc->cols, 14);
    assert_true(sc->n_rulebook > 0 && sc->n_reconstructed > 0);
    s_every_record_has_provenance("aspern-essling20");
}

/* A-E [3.0] #1-#3, [4.0], [4.2], [5.0]: Turn 1 21 May Morning, Morale 8/6, the Austrian is First
 * Player and skips his first Random Events Phase, Sudden Death on 14, 15, 16 */
static void test_n20_ae_3_0_turn_track_morale_first_player(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_int_equal(sc->start_turn, 1);
    assert_string_equal(sc->turns[1].label, "21-May morning");
    assert_string_equal(sc->turns[8].label, "22-May midday"); /* [17.2] */
    assert_int_equal(sc->morale0[N20_FRENCH], 8);
    assert_int_equal(sc->morale0[N20_ALLIED], 6);
    assert_int_equal(sc->first_player, N20_ALLIED);
    for (int t = 1; t <= sc->last_turn; t++) {
        assert_true(sc->turns[t].defined);
        assert_int_equal(sc->turns[t].sudden != 0, t >= 14 && t <= 16);
    }
    assert_true(sc->last_turn > 16);
}

/* A-E [3.0] #4 Austrian Placement, unit by unit */
static void test_n20_ae_3_0_austrian_placement(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    s_want(sc, "VIa", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 206, 0, 0);
    s_want(sc, "V", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 209, 0, 0);
    s_want(sc, "CHARLES", N20_ALLIED, N20_LEADER, 2, 5, N20_P_LEADER, 403, 0, 0);
    s_want(sc, "GRENADIER", N20_ALLIED, N20_INF, 3, 2, N20_P_HEX, 603, 0, 0);
    s_want(sc, "II", N20_ALLIED, N20_INF, 4, 2, N20_P_HEX, 604, 0, 0);
    s_want(sc, "I", N20_ALLIED, N20_INF, 4, 2, N20_P_HEX, 607, 0, 0);
    s_want(sc, "IVa", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 902, 0, 0);
    s_want(sc, "RESERVE1", N20_ALLIED, N20_CAV, 1, 3, N20_P_HEX, 909, 0, 0);
    s_want(sc, "RESERVE2", N20_ALLIED, N20_CAV, 1, 3, N20_P_HEX, 1005, 0, 0);
    s_want(sc, "IVb", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 1103, 0, 0);
}

/* A-E [3.0] French Placement on the chosen site, and the French Reinforcements at its area */
static void test_n20_ae_3_0_french_placement_and_reinforcements(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    s_want(sc, "4eB", N20_FRENCH, N20_INF, 3, 2, N20_P_SITE, 0, 0, 'N');
    s_want(sc, "4eC", N20_FRENCH, N20_INF, 2, 2, N20_P_SITE, 0, 0, 'S');
    s_want(sc, "NAPOLEON", N20_FRENCH, N20_LEADER, 3, 5, N20_P_SITE, 0, 0, 'S');
    assert_true(sc->units[s_unit(sc, "NAPOLEON")].flags & N20_FLAG_NAPOLEON);
    int g = s_unit(sc, "BRIDGEHEAD");
    assert_true(g >= 0 && (sc->units[g].flags & N20_FLAG_GARRISON) && sc->units[g].place == N20_P_SITE &&
                sc->units[g].area == 'N'); /* [9.10] */
    s_want(sc, "2eA", N20_FRENCH, N20_INF, 4, 2, N20_P_TURN, 0, 1, '*');
    s_want(sc, "2eB", N20_FRENCH, N20_INF, 3, 2, N20_P_TURN, 0, 2, '*');
    s_want(sc, "GUARD", N20_FRENCH, N20_INF, 2, 2, N20_P_TURN, 0, 3, '*');
    assert_true(sc->units[s_unit(sc, "GUARD")].flags & N20_FLAG_GUARD);
    s_want(sc, "RESERVE", N20_FRENCH, N20_CAV, 2, 3, N20_P_TURN, 0, 3, '*');
    s_want(sc, "3eA", N20_FRENCH, N20_INF, 4, 2, N20_P_ROLL, 0, 4, '*');
    s_want(sc, "3eC", N20_FRENCH, N20_INF, 2, 2, N20_P_ROLL, 0, 9, '*');
    assert_int_equal(sc->units[s_unit(sc, "3eA")].need, 4);
    assert_int_equal(sc->units[s_unit(sc, "3eC")].need, 4);
}

/* A-E [17.2] Summoned from Linz: 8e, 9e and III on Turn 8, only with the option; the table */
static void test_n20_ae_17_2_linz_units_and_table(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    const char *ids[] = {"8e", "9e", "III"};
    for (int i = 0; i < 3; i++) {
        int u = s_unit(sc, ids[i]);
        assert_true(u >= 0);
        assert_int_equal(sc->units[u].linz, 1);
        assert_int_equal(sc->units[u].turn, 8);
        assert_int_equal(sc->units[u].if_opts, N20_OPT_LINZ);
    }
    assert_int_equal(sc->units[s_unit(sc, "III")].area, 'Z');
    assert_int_equal(sc->units[s_unit(sc, "III")].strength, 3);
    const uint8_t want[6] = {N20_LZ_REMOVED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_DELAYED, N20_LZ_NEXT_TURN,
                             N20_LZ_ARRIVES};
    assert_memory_equal(sc->dn.linz, want, 6);
}

/* A-E [3.0] the five crossing sites: each north hex adjacent to its south hex, across the Danube
 * (a Major River hexside), its Objective from the table, an Entry Area with hexes on the map */
static void test_n20_ae_3_0_crossing_sites(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_int_equal(sc->dn.nsites, 5);
    const char *names[] = {"lackenau", "floridsdorf", "lobau-west", "lobau-east", "fischamend"};
    const unsigned obj[] = {810, 810, 1510, 1710, 1909};
    for (int i = 0; i < 5; i++) {
        const n20_dn_site *t = &sc->dn.site[i];
        assert_string_equal(t->name, names[i]);
        assert_int_equal(n20_xxyy(t->obj), obj[i]);
        int entry = 0;
        for (int k = 0; k < sc->nentry; k++) entry |= sc->entry_area[k] == t->area;
        assert_true(entry);
        int lochex = 0;
        for (int k = 0; k < sc->nentry; k++) lochex |= sc->entry_area[k] == t->area && sc->entry_hex[k] == t->loc;
        assert_true(lochex); /* [9.8.6] the French LOC hex in the site's Entry Area */
        if (t->fischamend) continue;
        int d = n20_dir(sc, t->north, t->south);
        assert_true(d >= 0);
        assert_int_equal(sc->river[t->north][d], N20_RIV_MAJOR);
    }
    assert_int_equal(sc->dn.site[4].fischamend, 1);
    assert_int_equal(n20_xxyy(sc->dn.fisch_hex), 2110); /* [3.0] 4eB sets up in 2110 */
    assert_int_equal(sc->dn.fisch_area, 'D');           /* [9.8.6] Area D */
}

/* A-E [6.10] the Pontoon Crossing Table as printed; [4.1] [6.10.2] the reconstructed tables exist */
static void test_n20_ae_6_10_pontoon_tables(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    const uint8_t cross[6] = {N20_PC_FAIL_DAMAGED, N20_PC_PASS_DAMAGED, N20_PC_PASS_DAMAGED,
                              N20_PC_PASS, N20_PC_PASS, N20_PC_PASS};
    assert_memory_equal(sc->dn.pontoon_cross, cross, 6);
    int rep = 0, des = 0;
    for (int i = 0; i < 6; i++) rep += sc->dn.pontoon_repair[i], des += sc->dn.pontoon_destroy[i];
    assert_true(rep > 0 && rep < 6);
    assert_true(des > 0 && des < 6);
    assert_int_equal(sc->dn.catastrophe, -2); /* [9.10.1] */
}

/* A-E [14.0] [14.1] the Austrian Objectives and the Home Ground yellow stars */
static void test_n20_ae_14_1_objectives_and_home_ground(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_int_equal(sc->nobj[N20_FRENCH], 0); /* the French one is the site's */
    assert_int_equal(sc->nobj[N20_ALLIED], 2);
    assert_int_equal(n20_xxyy(sc->obj[N20_ALLIED][0]), 1006);
    assert_int_equal(n20_xxyy(sc->obj[N20_ALLIED][1]), 1605);
    const unsigned home[] = {209, 708, 1109, 1407};
    assert_int_equal(sc->dn.nhome, 4);
    for (int i = 0; i < 4; i++) assert_int_equal(n20_xxyy(sc->dn.home[i]), home[i]);
    assert_int_equal(sc->dn.home_mode, 0);
    assert_int_equal(sc->dn.home_bonus, 2);
}

/* A-E [9.8.6] the Austrian LOCs: 0111 0501 1001 2102 */
static void test_n20_ae_9_8_6_austrian_locs(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    const unsigned loc[] = {111, 501, 1001, 2102};
    assert_int_equal(sc->nloc[N20_ARMY_AUSTRIAN], 4);
    for (int i = 0; i < 4; i++) assert_int_equal(n20_xxyy(sc->loc[N20_ARMY_AUSTRIAN][i]), loc[i]);
    assert_int_equal(sc->nloc[N20_ARMY_FRENCH], 0); /* the French LOC is the site's (9.8.6) */
}

/* [3.0] the deck: the two red-titled cards form the Discard Pile (erratum 8-8-2012); the 13th
 * card is out of the game unless [17.1]; one card damages the pontoon */
static void test_n20_ae_3_0_deck_red_cards_discarded(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_int_equal(sc->ncards, 13);
    int draw = 0, discard = 0, out = 0, pontoon = 0;
    for (int i = 0; i < sc->ncards; i++) {
        const n20_card_def *c = &sc->cards[i];
        draw += c->pile == 0, discard += c->pile == 1, out += c->pile == 2;
        pontoon += c->effect[0] == N20_E_PONTOON_DAMAGE || c->effect[1] == N20_E_PONTOON_DAMAGE;
    }
    assert_int_equal(draw, 10);
    assert_int_equal(discard, 2);
    assert_int_equal(out, 1);
    assert_true(pontoon > 0);
    assert_string_equal(sc->cards[12].title, "Grenzers / Voltigeurs");
}

/* ---- the map (both battles) ------------------------------------------------------------ */

/* the pairs the text calls adjacent: the Lobau bridges (Wagram [6.10.1]) and Floridsdorf ([16.10]) */
static void test_n20_dn_map_adjacent_pairs(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    assert_true(s_adj(sc, 1511, 1611));
    assert_true(s_adj(sc, 1609, 1610));
    assert_true(s_adj(sc, 1610, 1710));
    assert_true(s_adj(sc, 713, 714));
}

/* every hex the text names is on the map, and each named place has its label */
static void test_n20_dn_map_named_hexes(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    const unsigned named[] = {209, 403, 708, 713, 714, 810, 1003, 1006, 1109, 1407, 1510, 1605, 1710, 1909,
                              111, 501, 1001, 2102, 1714, 1511, 1512, 1610, 1611, 2110};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        assert_true(sc->onmap[n20_hex(named[i])]);
    const unsigned towns[] = {403, 708, 713, 810, 1003, 1006, 1109, 1407, 1510, 1605, 1710, 1909};
    for (size_t i = 0; i < sizeof towns / sizeof towns[0]; i++) {
        assert_int_equal(sc->terrain[n20_hex(towns[i])], N20_T_TOWN);
        int lab = 0;
        for (int k = 0; k < sc->nlabels; k++) lab |= sc->labels[k].hex == n20_hex(towns[i]);
        assert_true(lab);
    }
}

/* the set-up of a scenario is sane: every unit set up on a hex is on the map, no two non-Leader
 * units share a hex except a Garrison or Battery with a unit (Wagram [9.11] 2eA on the 1610 Battery),
 * and no Austrian unit is set up next to a French one across a hexside other than a Major River (the
 * book's own contact: the Wagram 1511 Garrison beside Essling, [9.10]) */
static void s_setup_sane(const char *id, int contacts_allowed) {
    const n20_scenario *sc = s_sc(id);
    int contacts = 0;
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *a = &sc->units[i];
        if (a->place != N20_P_HEX && a->place != N20_P_LEADER) continue;
        assert_true(sc->onmap[a->hex]);
        if (a->place != N20_P_HEX) continue;
        for (int j = i + 1; j < sc->nunits; j++) {
            const n20_unit_def *b = &sc->units[j];
            if (b->place != N20_P_HEX || b->hex != a->hex) continue;
            assert_true((a->flags | b->flags) & N20_FLAG_GARRISON);
            assert_false((a->flags & b->flags) & N20_FLAG_GARRISON);
            assert_int_equal(a->side, b->side);
        }
        if (a->side != N20_ALLIED) continue;
        for (int j = 0; j < sc->nunits; j++) {
            const n20_unit_def *b = &sc->units[j];
            if (b->side != N20_FRENCH || b->place != N20_P_HEX) continue;
            int d = n20_dir(sc, a->hex, b->hex);
            if (d >= 0 && sc->river[a->hex][d] != N20_RIV_MAJOR) {
                assert_true(b->flags & N20_FLAG_GARRISON);
                contacts++;
            }
        }
        for (int k = 0; k < sc->dn.nsites; k++) { /* A-E: no Austrian next to any crossing site */
            assert_true(n20_dir(sc, a->hex, sc->dn.site[k].north) < 0 && a->hex != sc->dn.site[k].north);
            if (sc->dn.site[k].south) assert_true(n20_dir(sc, a->hex, sc->dn.site[k].south) < 0);
        }
    }
    assert_int_equal(contacts, contacts_allowed);
}

static void test_n20_ae_3_0_setup_unstacked_on_map(void **st) {
    (void)st;
    s_setup_sane("aspern-essling20", 0);
}

/* Wagram [3.0] [9.10]: the only contact at the start is VIb in Essling beside the 1511 Garrison */
static void test_n20_wg_3_0_setup_unstacked_on_map(void **st) {
    (void)st;
    s_setup_sane("wagram20", 1);
}

static void test_n20_wg_18_0_marchfeld_setup_unstacked_on_map(void **st) {
    (void)st;
    s_setup_sane("marchfeld", 0);
}

/* ---- Wagram 20 ------------------------------------------------------------------------ */

/* Wagram [3.0]: loads on the A-E map (base ... map) without the A-E battle: no crossing sites,
 * no A-E Objectives or Home Ground, its own deck and turn track */
static void test_n20_wg_3_0_loads_on_the_ae_map_without_its_battle(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    const n20_scenario *ae = s_sc("aspern-essling20");
    assert_int_equal(sc->edition, N20_ED_V3);
    assert_string_equal(sc->base, "aspern-essling20");
    assert_int_equal(sc->rows, ae->rows);
    for (int h = 0; h < N20_HEXES; h++) /* the A-E terrain, but the 1511 camp (rulings R-dn-wagram-camp) */
        if (h != n20_hex(1511)) assert_int_equal(sc->terrain[h], ae->terrain[h]);
    assert_int_equal(sc->dn.nsites, 0);
    assert_int_equal(sc->dn.catastrophe, 0);
    assert_int_equal(sc->ncards, 13);
    assert_string_equal(sc->cards[0].title, "Thunderstorm");
    assert_int_equal(sc->nobj[N20_FRENCH], 1);
    assert_int_equal(n20_xxyy(sc->obj[N20_FRENCH][0]), 1510);
    assert_int_equal(sc->nobj[N20_ALLIED], 2);
    assert_int_equal(n20_xxyy(sc->obj[N20_ALLIED][0]), 403);
    assert_int_equal(n20_xxyy(sc->obj[N20_ALLIED][1]), 1003);
    assert_int_equal(sc->dn.nhome, 2);
    assert_int_equal(sc->dn.home_mode, 1);
    assert_int_equal(sc->dn.home_bonus, 2);
    assert_int_equal(sc->nloc[N20_ARMY_FRENCH], 1);
    assert_int_equal(n20_xxyy(sc->loc[N20_ARMY_FRENCH][0]), 1714); /* [9.8.6] */
    assert_int_equal(sc->nloc[N20_ARMY_AUSTRIAN], 4);
    s_every_record_has_provenance("wagram20");
}

/* Wagram [3.0] [4.0] [4.2]: Turn 1 Pre-dawn, 18 turns, Sudden Death 15-17, Morale 8/6, French first */
static void test_n20_wg_3_0_turn_track_morale_first_player(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    assert_int_equal(sc->start_turn, 1);
    assert_int_equal(sc->last_turn, 18);
    assert_string_equal(sc->turns[1].label, "5-July pre-dawn");
    assert_string_equal(sc->turns[4].label, "5-July afternoon");
    assert_string_equal(sc->turns[8].label, "6-July morning");
    assert_string_equal(sc->turns[12].label, "6-July evening");
    for (int t = 1; t <= 18; t++) assert_int_equal(sc->turns[t].sudden != 0, t >= 15 && t <= 17);
    assert_int_equal(sc->morale0[N20_FRENCH], 8);
    assert_int_equal(sc->morale0[N20_ALLIED], 6);
    assert_int_equal(sc->first_player, N20_FRENCH);
    assert_int_equal(sc->dn.turn1_move_only, 1); /* [4.1] */
    assert_int_equal(sc->dn.caution_turn, 8);    /* [6.11] */
    assert_int_equal(sc->dn.lull_turn, 8);       /* [13.0] */
    assert_int_equal(sc->dn.lobau_morale, -2);   /* [12.8] */
}

/* Wagram [3.0] Austrian Placement unit by unit, [6.11] the inactive ones */
static void test_n20_wg_3_0_austrian_placement_and_caution(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    s_want(sc, "III", N20_ALLIED, N20_INF, 3, 2, N20_P_HEX, 306, 0, 0);
    s_want(sc, "CHARLES", N20_ALLIED, N20_LEADER, 2, 5, N20_P_LEADER, 403, 0, 0);
    s_want(sc, "V", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 410, 0, 0);
    s_want(sc, "RESERVE1", N20_ALLIED, N20_CAV, 1, 3, N20_P_HEX, 607, 0, 0);
    s_want(sc, "GRENADIER", N20_ALLIED, N20_INF, 3, 2, N20_P_HEX, 708, 0, 0);
    s_want(sc, "RESERVE2", N20_ALLIED, N20_CAV, 1, 3, N20_P_HEX, 1004, 0, 0);
    s_want(sc, "VIa", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 1311, 0, 0);
    s_want(sc, "VIb", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 1510, 0, 0);
    s_want(sc, "ADVGUARD", N20_ALLIED, N20_INF, 2, 2, N20_P_HEX, 1710, 0, 0);
    const char *deploy[] = {"I", "II", "IV"};
    for (int i = 0; i < 3; i++) {
        s_want(sc, deploy[i], N20_ALLIED, N20_INF, 4, 2, N20_P_DEPLOY, 0, 0, (char)N20_Z_HEIGHTS);
    }
    const char *released[] = {"ADVGUARD", "GRENADIER", "VIa", "VIb", "RESERVE1", "RESERVE2"};
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if (d->side != N20_ALLIED || (d->place != N20_P_HEX && d->place != N20_P_DEPLOY)) continue;
        int rel = 0;
        for (size_t k = 0; k < sizeof released / sizeof released[0]; k++) rel |= strcmp(d->id, released[k]) == 0;
        assert_int_equal((d->flags & N20_FLAG_INACTIVE) != 0, !rel);
    }
}

/* Wagram [3.0] the Russbach Heights: every deployable hex in columns 08-15, enough free hexes for
 * I, II and IV unstacked */
static void test_n20_wg_3_0_heights_deployable(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    int n = 0, free = 0;
    for (int h = 0; h < N20_HEXES; h++) {
        if (!(sc->dn.zone[h] & N20_Z_HEIGHTS)) continue;
        assert_true(sc->onmap[h]);
        unsigned x = n20_xxyy((uint16_t)h) / 100;
        assert_true(x >= 8 && x <= 15);
        n++;
        int taken = 0;
        for (int i = 0; i < sc->nunits; i++) taken |= sc->units[i].place == N20_P_HEX && sc->units[i].hex == h;
        free += !taken;
    }
    assert_int_equal(n, 24); /* columns 08-15, YY 01-03 (rulings R-dn-heights) */
    assert_true(free >= 3);
}

/* Wagram [3.0] reinforcements: A now or B three turns later; the 8e the other way round, on a 6;
 * Archduke John and John roll together, John's arrival +1 Austrian Morale [12.7] */
static void test_n20_wg_3_0_reinforcements_alternatives(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    struct { const char *id; int turn; } r[] = {{"GUARD", 1}, {"MACDONALD", 2}, {"RESERVE", 2}, {"GRENIER", 3},
                                                {"11e", 4}, {"GRAND-BATTERY", 5}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        int u = s_unit(sc, r[i].id);
        assert_true(u >= 0);
        assert_int_equal(sc->units[u].place, N20_P_TURN);
        assert_int_equal(sc->units[u].turn, r[i].turn);
        assert_int_equal(sc->units[u].area, 'A');
        assert_int_equal(sc->units[u].alt_area, 'B');
        assert_int_equal(sc->units[u].alt_delay, 3);
    }
    s_want(sc, "8e", N20_FRENCH, N20_INF, 2, 2, N20_P_ROLL, 0, 6, 'B');
    int e = s_unit(sc, "8e");
    assert_int_equal(sc->units[e].need, 6);
    assert_int_equal(sc->units[e].alt_area, 'A');
    assert_int_equal(sc->units[e].alt_delay, 3);
    int j = s_unit(sc, "ARCHDUKE-JOHN"), l = s_unit(sc, "JOHN");
    assert_true(j >= 0 && l >= 0);
    assert_int_equal(sc->units[j].place, N20_P_ROLL);
    assert_int_equal(sc->units[j].turn, 5);
    assert_int_equal(sc->units[j].area, 'Z');
    assert_int_equal(sc->units[j].need, 6);
    assert_int_equal(sc->units[j].arrive_morale, 1);
    assert_int_equal(sc->units[l].arrive_morale, 0);
    assert_true(sc->units[j].roll_group != 0);
    assert_int_equal(sc->units[j].roll_group, sc->units[l].roll_group);
    assert_int_equal(sc->units[l].type, N20_LEADER);
    assert_int_equal(sc->units[l].strength, 0);
    assert_int_equal(sc->units[l].if_opts, N20_OPT_LEADERS);
}

/* Wagram [3.0] French Placement on Lobau Island; [9.10] the Garrison at 1511; [9.11] the Batteries */
static void test_n20_wg_3_0_french_placement_garrison_batteries(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    s_want(sc, "2eA", N20_FRENCH, N20_INF, 4, 2, N20_P_HEX, 1610, 0, 0);
    s_want(sc, "3eB", N20_FRENCH, N20_INF, 3, 2, N20_P_HEX, 1611, 0, 0);
    s_want(sc, "NAPOLEON", N20_FRENCH, N20_LEADER, 3, 5, N20_P_LEADER, 1611, 0, 0);
    s_want(sc, "DRAGOONS", N20_FRENCH, N20_CAV, 1, 3, N20_P_HEX, 1612, 0, 0);
    s_want(sc, "4eA", N20_FRENCH, N20_INF, 4, 2, N20_P_HEX, 1711, 0, 0);
    s_want(sc, "3eA", N20_FRENCH, N20_INF, 4, 2, N20_P_HEX, 1712, 0, 0);
    s_want(sc, "9e", N20_FRENCH, N20_INF, 2, 2, N20_P_HEX, 1713, 0, 0);
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if (d->side == N20_FRENCH && d->place == N20_P_HEX && !(d->flags & N20_FLAG_GARRISON))
            assert_true(sc->dn.zone[d->hex] & N20_Z_LOBAU);
    }
    int g = s_unit(sc, "BRIDGEHEAD");
    assert_true(g >= 0 && (sc->units[g].flags & N20_FLAG_GARRISON));
    assert_int_equal(n20_xxyy(sc->units[g].hex), 1511);
    const unsigned bat[] = {1512, 1610};
    int nb = 0;
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if (!(d->flags & N20_FLAG_BATTERY)) continue;
        assert_true(d->flags & N20_FLAG_GARRISON);
        assert_int_equal(d->type, N20_ART);
        assert_int_equal(d->strength, 2);
        assert_int_equal(d->allowance, 0);
        assert_int_equal(n20_xxyy(d->hex), bat[nb]);
        nb++;
    }
    assert_int_equal(nb, 2);
}

/* Wagram [6.10.1] the incomplete bridges are bridged Major River hexsides, Lobau on one side;
 * the secure hexes; [6.10.2] the Confusion & Congestion table; [16.10] Floridsdorf */
static void test_n20_wg_6_10_bridges_tables_floridsdorf(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    const unsigned inc[3][2] = {{1511, 1611}, {1609, 1610}, {1610, 1710}};
    assert_int_equal(sc->dn.nincomplete, 3);
    for (int i = 0; i < 3; i++) {
        uint16_t a = sc->dn.incomplete[i].a, b = sc->dn.incomplete[i].b;
        assert_int_equal(n20_xxyy(a), inc[i][0]);
        assert_int_equal(n20_xxyy(b), inc[i][1]);
        int d = n20_dir(sc, a, b);
        assert_true(d >= 0);
        assert_int_equal(sc->river[a][d], N20_RIV_MAJOR);
        assert_int_equal(sc->cross[a][d], N20_X_BRIDGE);
        assert_true((sc->dn.zone[a] & N20_Z_LOBAU) != (sc->dn.zone[b] & N20_Z_LOBAU));
    }
    assert_int_equal(sc->dn.nsecure, 2);
    assert_int_equal(n20_xxyy(sc->dn.secure[0]), 1510);
    assert_int_equal(n20_xxyy(sc->dn.secure[1]), 1710);
    const uint8_t cc[6] = {1, 1, 2, 2, 2, 3};
    assert_memory_equal(sc->dn.cc, cc, 6);
    assert_int_equal(n20_xxyy(sc->dn.flor_a), 713);
    assert_int_equal(n20_xxyy(sc->dn.flor_b), 714);
    assert_int_equal(n20_xxyy(sc->dn.flor_loc), 714);
    int d = n20_dir(sc, sc->dn.flor_a, sc->dn.flor_b);
    assert_int_equal(sc->river[sc->dn.flor_a][d], N20_RIV_MAJOR);
    assert_int_equal(sc->cross[sc->dn.flor_a][d], N20_X_NONE); /* unbuilt [16.10] */
    assert_int_equal(sc->dn.secured0, 0);
    assert_int_equal(sc->terrain[n20_hex(1511)], N20_T_REDOUBT); /* [9.10] the fortified camp */
    assert_int_equal(s_sc("aspern-essling20")->terrain[n20_hex(1511)], N20_T_CLEAR);
    assert_int_equal(sc->t_def[N20_T_REDOUBT], 2);
}

/* the A-E map has no bridge off Lobau Island: the Lobau bridges are Wagram's */
static void test_n20_ae_3_0_no_lobau_bridges(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    for (int h = 0; h < N20_HEXES; h++)
        for (int d = 0; d < 6; d++)
            if (sc->river[h][d] == N20_RIV_MAJOR) assert_int_equal(sc->cross[h][d], N20_X_NONE);
}

/* Lobau Island is an island: every hexside from a Lobau hex to a hex off it is a Major River */
static void test_n20_dn_map_lobau_is_an_island(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("aspern-essling20");
    int n = 0;
    for (int h = 0; h < N20_HEXES; h++) {
        if (!(sc->dn.zone[h] & N20_Z_LOBAU)) continue;
        n++;
        for (int h2 = 0; h2 < N20_HEXES; h2++) {
            int d = sc->onmap[h2] ? n20_dir(sc, (uint16_t)h, (uint16_t)h2) : -1;
            if (d >= 0 && !(sc->dn.zone[h2] & N20_Z_LOBAU)) assert_int_equal(sc->river[h][d], N20_RIV_MAJOR);
        }
    }
    assert_int_equal(n, 15);
}

/* ---- the Marchfeld [18.0] -------------------------------------------------------------- */

/* [18.0] #1-#5: Turn 4, Morale 6/6, Crossings Secured, the end after the Austrian Combat Phase of
 * Turn 12, no Floridsdorf pontoon, Wagram's rules and cards */
static void test_n20_wg_18_0_marchfeld_start_and_end(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("marchfeld");
    assert_int_equal(sc->edition, N20_ED_V3);
    assert_int_equal(sc->start_turn, 4);
    assert_int_equal(sc->last_turn, 12);
    assert_int_equal(sc->morale0[N20_FRENCH], 6);
    assert_int_equal(sc->morale0[N20_ALLIED], 6);
    assert_int_equal(sc->dn.secured0, 1);
    assert_int_equal(sc->dn.end_turn, 12);
    assert_int_equal(sc->dn.end_side, N20_ALLIED);
    assert_int_equal(sc->dn.end_phase, N20_PH_COMBAT_END);
    assert_int_equal(sc->first_player, N20_FRENCH);
    assert_int_equal(sc->skip_first_event, 1 + N20_FRENCH);
    assert_true(sc->opts_ok & N20_OPT_13TH_CARD);
    assert_false(sc->opts_ok & N20_OPT_FLORIDSDORF);
    assert_int_equal(sc->ncards, 13);
    assert_int_equal(sc->dn.caution_turn, 8);
    assert_int_equal(sc->nobj[N20_FRENCH], 1);
    assert_int_equal(sc->nobj[N20_ALLIED], 2);
    assert_int_equal(sc->dn.nhome, 2);
    s_every_record_has_provenance("marchfeld");
}

/* [18.0] #4 the Marchfeld placement, unit by unit; V, I, II, IV begin inactive */
static void test_n20_wg_18_0_marchfeld_placement(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("marchfeld");
    struct { const char *id; int side, type, str, ma; unsigned hex; int inactive; } u[] = {
        {"V", N20_ALLIED, N20_INF, 2, 2, 410, 1},       {"III", N20_ALLIED, N20_INF, 3, 2, 507, 0},
        {"RESERVE2", N20_ALLIED, N20_CAV, 1, 3, 602, 0}, {"VIb", N20_ALLIED, N20_INF, 2, 2, 608, 0},
        {"VIa", N20_ALLIED, N20_INF, 2, 2, 609, 0},      {"RESERVE1", N20_ALLIED, N20_CAV, 1, 3, 705, 0},
        {"GRENADIER", N20_ALLIED, N20_INF, 3, 2, 708, 0}, {"I", N20_ALLIED, N20_INF, 4, 2, 1003, 1},
        {"II", N20_ALLIED, N20_INF, 4, 2, 1204, 1},      {"IV", N20_ALLIED, N20_INF, 4, 2, 1403, 1},
        {"ADVGUARD", N20_ALLIED, N20_INF, 2, 2, 1504, 0}, {"4eA", N20_FRENCH, N20_INF, 4, 2, 1109, 0},
        {"9e", N20_FRENCH, N20_INF, 2, 2, 1207, 0},      {"2eA", N20_FRENCH, N20_INF, 4, 2, 1306, 0},
        {"MACDONALD", N20_FRENCH, N20_INF, 3, 2, 1308, 0}, {"GUARD", N20_FRENCH, N20_INF, 2, 2, 1407, 0},
        {"3eB", N20_FRENCH, N20_INF, 3, 2, 1506, 0},     {"RESERVE", N20_FRENCH, N20_CAV, 2, 3, 1508, 0},
        {"GRENIER", N20_FRENCH, N20_INF, 2, 2, 1609, 0}, {"11e", N20_FRENCH, N20_INF, 2, 2, 1612, 0},
        {"3eA", N20_FRENCH, N20_INF, 4, 2, 1705, 0},     {"DRAGOONS", N20_FRENCH, N20_CAV, 1, 3, 1904, 0},
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        s_want(sc, u[i].id, u[i].side, u[i].type, u[i].str, u[i].ma, N20_P_HEX, u[i].hex, 0, 0);
        assert_int_equal((sc->units[s_unit(sc, u[i].id)].flags & N20_FLAG_INACTIVE) != 0, u[i].inactive);
    }
    s_want(sc, "CHARLES", N20_ALLIED, N20_LEADER, 2, 5, N20_P_LEADER, 1204, 0, 0);
    s_want(sc, "NAPOLEON", N20_FRENCH, N20_LEADER, 3, 5, N20_P_LEADER, 1407, 0, 0);
    s_want(sc, "GRAND-BATTERY", N20_FRENCH, N20_ART, 2, 2, N20_P_TURN, 0, 5, 'A');
    assert_int_equal(sc->units[s_unit(sc, "GRAND-BATTERY")].alt_area, 0); /* no Area B */
    assert_true(s_unit(sc, "8e") < 0);                                     /* no 8e */
    int j = s_unit(sc, "ARCHDUKE-JOHN");
    assert_int_equal(sc->units[j].turn, 5);
    assert_int_equal(sc->units[j].need, 6);
    assert_int_equal(sc->units[j].arrive_morale, 1);
    assert_int_equal(sc->units[j].roll_group, sc->units[s_unit(sc, "JOHN")].roll_group);
}

/* the options each scenario takes (A-E [17.1]-[17.3], Wagram [16.10] [17.1], [18.0]), the ones it
 * refuses because the v3.0 rules lack them, and the pools: two Dummies and three Cadres a side, so
 * that [16.1.3], [16.5] and [16.6] play (rulings R-dn-pools) */
static void test_n20_dn_options_and_pools(void **st) {
    (void)st;
    const struct { const char *id; uint32_t ok; } w[] = {
        {"aspern-essling20", N20_OPT_13TH_CARD | N20_OPT_LINZ | N20_OPT_BERTRAND},
        {"wagram20", N20_OPT_FLORIDSDORF | N20_OPT_13TH_CARD},
        {"marchfeld", N20_OPT_13TH_CARD},
    };
    const uint32_t refused = N20_OPT_VAR_WEATHER | N20_OPT_OLD_DAYS;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        const n20_scenario *sc = s_sc(w[i].id);
        assert_int_equal(sc->opts_ok & N20_OPT_SCENARIO_BOUND, w[i].ok);
        assert_int_equal(sc->opts_unsupported & refused, refused);
        assert_int_equal(sc->opts_unsupported & (N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_UNIT_REDUCTION | N20_OPT_BREAKDOWN), 0);
        int dummies[2] = {0, 0}, cadres[2] = {0, 0};
        for (int u = 0; u < sc->nunits; u++) {
            if (sc->units[u].type == N20_DUMMY) dummies[sc->units[u].side]++;
            if (sc->units[u].flags & N20_FLAG_CADRE) cadres[sc->units[u].side]++;
        }
        assert_int_equal(dummies[N20_FRENCH], 2); /* [16.1.3] */
        assert_int_equal(dummies[N20_ALLIED], 2);
        assert_int_equal(cadres[N20_FRENCH], 3); /* [16.5] [16.6] */
        assert_int_equal(cadres[N20_ALLIED], 3);
    }
    const n20_scenario *ae = s_sc("aspern-essling20");
    int au = -1;
    for (int u = 0; u < ae->nunits; u++)
        if (ae->units[u].type == N20_DUMMY && ae->units[u].army == N20_ARMY_AUSTRIAN) au = u;
    assert_true(au >= 0);
    assert_string_equal(ae->units[au].id, "AU-DUMMY-2");
}

/* the map draws (n20_render_map), every hex once; with BERTHIER_DN_MAP_OUT set, the pictures of the
 * three scenarios are written there (docs/img/danube20-map.svg is the A-E one) */
static void test_n20_dn_map_renders(void **st) {
    (void)st;
    const char *ids[] = {"aspern-essling20", "wagram20", "marchfeld"};
    for (int i = 0; i < 3; i++) {
        const n20_scenario *sc = s_sc(ids[i]);
        brt_buf b;
        buf_init(&b);
        assert_int_equal(n20_render_map(sc, &b), 0);
        buf_append(&b, "", 1);
        int n = 0;
        for (const char *p = strstr((char *)b.data, "<g class=\"hex\" data-hex=\""); p;
             p = strstr(p + 1, "<g class=\"hex\" data-hex=\""))
            n++;
        assert_int_equal(n, sc->rows * sc->cols);
        const char *dir = getenv("BERTHIER_DN_MAP_OUT");
        if (dir) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s-map.svg", dir, ids[i]);
            FILE *f = fopen(path, "wb");
            assert_non_null(f);
            fwrite(b.data, 1, b.len - 1, f);
            fclose(f);
        }
        buf_free(&b);
    }
}

/* Wagram [3.0] "north-east of the Russbach Stream (i.e., up upon the Russbach Heights)": every
 * hexside from a Heights hex to a hex of columns 08-15 off the Heights is the Russbach, a Minor River */
static void test_n20_wg_3_0_heights_bounded_by_the_russbach(void **st) {
    (void)st;
    const n20_scenario *sc = s_sc("wagram20");
    int sides = 0;
    for (int h = 0; h < N20_HEXES; h++) {
        if (!(sc->dn.zone[h] & N20_Z_HEIGHTS)) continue;
        for (int h2 = 0; h2 < N20_HEXES; h2++) {
            unsigned x2 = n20_xxyy((uint16_t)h2) / 100;
            int d = sc->onmap[h2] ? n20_dir(sc, (uint16_t)h, (uint16_t)h2) : -1;
            if (d < 0 || (sc->dn.zone[h2] & N20_Z_HEIGHTS) || x2 < 8 || x2 > 15) continue;
            if (sc->river[h][d] != N20_RIV_MINOR)
                fail_msg("%04u-%04u is not the Russbach", n20_xxyy((uint16_t)h), n20_xxyy((uint16_t)h2));
            sides++;
        }
    }
    assert_true(sides > 0);
}

/* ---- the parser's Danube 20 records --------------------------------------------------- */

static n20_scenario s_tmp;

/* a scenario on the A-E map with the given records; 0 if it parses */
static int s_parse_on_ae(const char *records) {
    char text[4096];
    snprintf(text, sizeof text,
             "base aspern-essling20 map | RULEBOOK test\nscenario t | RULEBOOK test\nstart-turn 1 | RULEBOOK test\n"
             "last-turn 5 | RULEBOOK test\nunit X french french inf 1 2 - hex 1714 | RULEBOOK test\n%s",
             records);
    return n20_data_parse(text, strlen(text), &s_tmp, NULL, 0);
}

/* a `base ... map` of a v3.0 scenario leaves its battle records behind; the base's Austrian LOCs,
 * entry areas and zones are kept; the file's own cards replace the base's deck */
static void test_n20_dn_data_base_map_keeps_its_battle(void **st) {
    (void)st;
    assert_int_equal(s_parse_on_ae(""), 0);
    assert_int_equal(s_tmp.edition, N20_ED_V3);
    assert_int_equal(s_tmp.nobj[N20_ALLIED], 0);
    assert_int_equal(s_tmp.dn.nsites, 0);
    assert_int_equal(s_tmp.dn.nhome, 0);
    assert_int_equal(s_tmp.dn.catastrophe, 0);
    assert_int_equal(s_tmp.dn.pontoon_cross[3] + s_tmp.dn.pontoon_repair[5] + s_tmp.dn.linz[5], 0);
    assert_int_equal(s_tmp.nloc[N20_ARMY_AUSTRIAN], 4);
    assert_true(s_tmp.nentry > 0);
    assert_true(s_tmp.dn.zone[n20_hex(1714)] & N20_Z_LOBAU);
    assert_int_equal(s_tmp.ncards, 13); /* no card of its own: the base's deck */
    assert_int_equal(s_parse_on_ae("card 1 draw \"Only\" none ; none | RULEBOOK test\n"), 0);
    assert_int_equal(s_tmp.ncards, 1);
    assert_string_equal(s_tmp.cards[0].title, "Only");
}

/* [17.3.1] the historical draw order lists each card once: a card listed twice would be set on the
 * Draw Pile twice (n20_setup), past the N20_MAX_CARDS cards of the pile */
static void test_n20_dn_data_historical_deck_lists_a_card_once(void **st) {
    (void)st;
    assert_int_equal(s_parse_on_ae("historical-deck 1 2 3 | RULEBOOK test\n"), 0);
    assert_int_equal(s_tmp.nhist, 3);
    assert_int_equal(s_parse_on_ae("historical-deck 1 2 1 | RULEBOOK test\n"), -1);
}

/* the Danube records refuse what they cannot mean: banks that do not touch, a die face off the
 * die, an unknown zone or result, an end that is not after a Combat Phase, and a line of more
 * than 24 words (never cut short) */
static void test_n20_dn_data_malformed_records_refused(void **st) {
    (void)st;
    assert_int_equal(s_parse_on_ae("site x 0512 0514 C 0810 0414 | RULEBOOK test\n"), -1); /* not adjacent */
    assert_int_equal(s_parse_on_ae("site x 0512 0513 C 0810 0414 | RULEBOOK test\n"), 0);
    assert_int_equal(s_parse_on_ae("pontoon-cross 7 pass | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("pontoon-cross 1 sink | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("linz-table 0 arrives | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("zone hills 0101 | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("end-after 12 allied movement | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("incomplete-bridge 1511 1613 | RULEBOOK test\n"), -1); /* not adjacent */
    assert_int_equal(s_parse_on_ae("unit Y french french inf 1 2 - turn 1 A alt B | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("unit Y french french inf 1 2 - deploy hills | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("unit Y french french inf 1 2 - site east | RULEBOOK test\n"), -1);
    assert_int_equal(s_parse_on_ae("zone lobau 0101 0102 0103 0104 0105 0106 0107 0108 0109 0110 0111 0112 0113 "
                                   "0114 0201 0202 0203 0204 0205 0206 0207 0208 0209 | RULEBOOK test\n"),
                     -1); /* 25 words */
    assert_int_equal(s_parse_on_ae("zone lobau 0101 0102 0103 0104 0105 0106 0107 0108 0109 0110 0111 0112 0113 "
                                   "0114 0201 0202 0203 0204 0205 0206 0207 0208 | RULEBOOK test\n"),
                     0); /* 24 words */
    assert_true(s_tmp.dn.zone[n20_hex(208)] & N20_Z_LOBAU);
}

/* the unit words of Danube 20 combine, in any order, before the option conditions */
static void test_n20_dn_data_unit_suffixes(void **st) {
    (void)st;
    assert_int_equal(s_parse_on_ae("unit Y allied austrian inf 2 2 - roll 5 Z 6 group 3 arrive-morale 1 linz if leaders "
                                   "| RULEBOOK test\n"),
                     0);
    const n20_unit_def *d = &s_tmp.units[s_tmp.nunits - 1];
    assert_string_equal(d->id, "Y");
    assert_int_equal(d->place, N20_P_ROLL);
    assert_int_equal(d->turn, 5);
    assert_int_equal(d->need, 6);
    assert_int_equal(d->roll_group, 3);
    assert_int_equal(d->arrive_morale, 1);
    assert_int_equal(d->linz, 1);
    assert_int_equal(d->if_opts, N20_OPT_LEADERS);
    assert_int_equal(d->army, N20_ARMY_AUSTRIAN);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_ae_3_0_loads_v3_with_provenance),
        cmocka_unit_test(test_n20_ae_3_0_turn_track_morale_first_player),
        cmocka_unit_test(test_n20_ae_3_0_austrian_placement),
        cmocka_unit_test(test_n20_ae_3_0_french_placement_and_reinforcements),
        cmocka_unit_test(test_n20_ae_17_2_linz_units_and_table),
        cmocka_unit_test(test_n20_ae_3_0_crossing_sites),
        cmocka_unit_test(test_n20_ae_6_10_pontoon_tables),
        cmocka_unit_test(test_n20_ae_14_1_objectives_and_home_ground),
        cmocka_unit_test(test_n20_ae_9_8_6_austrian_locs),
        cmocka_unit_test(test_n20_ae_3_0_deck_red_cards_discarded),
        cmocka_unit_test(test_n20_dn_map_adjacent_pairs),
        cmocka_unit_test(test_n20_dn_map_named_hexes),
        cmocka_unit_test(test_n20_ae_3_0_setup_unstacked_on_map),
        cmocka_unit_test(test_n20_ae_3_0_no_lobau_bridges),
        cmocka_unit_test(test_n20_dn_map_lobau_is_an_island),
        cmocka_unit_test(test_n20_wg_3_0_loads_on_the_ae_map_without_its_battle),
        cmocka_unit_test(test_n20_wg_3_0_turn_track_morale_first_player),
        cmocka_unit_test(test_n20_wg_3_0_austrian_placement_and_caution),
        cmocka_unit_test(test_n20_wg_3_0_heights_deployable),
        cmocka_unit_test(test_n20_wg_3_0_heights_bounded_by_the_russbach),
        cmocka_unit_test(test_n20_wg_3_0_reinforcements_alternatives),
        cmocka_unit_test(test_n20_wg_3_0_french_placement_garrison_batteries),
        cmocka_unit_test(test_n20_wg_6_10_bridges_tables_floridsdorf),
        cmocka_unit_test(test_n20_wg_18_0_marchfeld_start_and_end),
        cmocka_unit_test(test_n20_wg_18_0_marchfeld_placement),
        cmocka_unit_test(test_n20_dn_options_and_pools),
        cmocka_unit_test(test_n20_dn_map_renders),
        cmocka_unit_test(test_n20_dn_data_base_map_keeps_its_battle),
        cmocka_unit_test(test_n20_dn_data_malformed_records_refused),
        cmocka_unit_test(test_n20_dn_data_historical_deck_lists_a_card_once),
        cmocka_unit_test(test_n20_dn_data_unit_suffixes),
        cmocka_unit_test(test_n20_wg_3_0_setup_unstacked_on_map),
        cmocka_unit_test(test_n20_wg_18_0_marchfeld_setup_unstacked_on_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
