/*
 * test_n20_ae_game.c - the Aspern-Essling 20 exclusive rules on the scenario's own data
 * (rules/n20/scenarios/aspern-essling20.n20): the French choice of crossing site [3.0] and what
 * it places, a crossing of the Danube at the chosen site [6.10], and whole games of random legal
 * orders from each site and with each variant [17.1] [17.2] [17.3] to a result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

static n20_state *s_ae(t_dice *d, uint32_t opts) {
    n20_state *s = t_setup("aspern-essling20", opts, d, NULL);
    n20_run(s, &d->d, NULL);
    return s;
}

static void test_n20_ae_3_0_aspern_essling_offers_its_five_sites(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_int_equal(s->phase, N20_PH_AE_SITE);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_legal_n(s, N20_FRENCH), 5);
    const char *names[5] = {"lackenau", "floridsdorf", "lobau-west", "lobau-east", "fischamend"};
    for (int i = 0; i < 5; i++) {
        char o[32];
        snprintf(o, sizeof o, "site %s", names[i]);
        assert_true(t_legal_has(s, N20_FRENCH, o));
    }
    free(s);
}

static void test_n20_ae_3_0_aspern_essling_lackenau_set_up(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "4eB")].hex), 512);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "4eC")].hex), 513);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "BRIDGEHEAD")].hex), 512); /* [9.10] */
    assert_int_equal(s->u[t_unit(s, "BRIDGEHEAD")].where, N20_U_GARRISON); /* [9.4.4] */
    assert_int_equal(s->u[t_unit(s, "NAPOLEON")].where, N20_U_OUT);     /* [16.9] only */
    assert_int_equal(s->dn.pontoon[0], N20_PON_INTACT);
    assert_true(n20_ae_bridgehead_at(s, n20_hex(512)));
    int nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, N20_ARMY_FRENCH, &nl, lb);
    assert_int_equal(nl, 1);
    assert_int_equal(n20_xxyy(ls[0]), 414); /* [9.8.6] the LOC of Area C */
    assert_int_equal(s->phasing, N20_ALLIED); /* [4.0] */
    free(s);
}

static void test_n20_ae_3_0_aspern_essling_napoleon_with_4ec_under_leaders(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, N20_OPT_LEADERS);
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "NAPOLEON")].hex), 1611);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "4eC")].hex), 1611);
    free(s);
}

static void test_n20_ae_3_0_aspern_essling_fischamend_set_up(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "site fischamend", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[t_unit(s, "4eB")].hex), 2110);
    int c = t_unit(s, "4eC");
    assert_int_equal(s->u[c].where, N20_U_REINF);
    assert_int_equal(s->u[c].arrive, 1);
    assert_int_equal(s->u[t_unit(s, "BRIDGEHEAD")].where, N20_U_OUT);
    assert_int_equal(s->dn.bridgehead[0], 0);
    free(s);
}

static void test_n20_ae_6_10_aspern_essling_crossing_at_lackenau(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, NULL, NULL), 0);
    t_clear_map(s);
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_MOVE;
    int u = t_place(s, "2eA", 513);
    uint32_t r[1] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "move 2eA 0512", &d, NULL, NULL), 0);
    assert_int_equal(n20_xxyy(s->u[u].hex), 512);
    assert_int_equal(s->dn.pontoon[0], N20_PON_DAMAGED);
    /* the Danube elsewhere, and for the Austrians, is a Major River */
    s->phasing = N20_ALLIED;
    t_place(s, "V", 1511);
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "move V 1611", &d, NULL, &err), -1);
    free(s);
}

/* [9.10] the Bridgehead hex is a Redoubt while its marker stands; [9.10.1] not once it is gone */
static void test_n20_ae_9_10_aspern_essling_bridgehead_is_a_redoubt(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_false(n20_is_fortified(s->sc, s, n20_hex(512)));
    assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, NULL, NULL), 0);
    assert_true(n20_is_fortified(s->sc, s, n20_hex(512)));
    assert_int_equal(n20_terrain_at(s, n20_hex(512)), N20_T_REDOUBT);
    t_clear_map(s);
    int a = t_place(s, "V", 511);
    uint16_t p[1] = {n20_hex(512)};
    int m0 = s->morale[N20_FRENCH];
    n20_advance_apply(s, a, p, 1, NULL); /* an Austrian Advance after Combat into it */
    assert_false(n20_is_fortified(s->sc, s, n20_hex(512)));
    assert_int_equal(s->dn.pontoon[0], N20_PON_DESTROYED);
    assert_int_equal(s->morale[N20_FRENCH], m0 - 2); /* the data's catastrophe -2 */
    free(s);
}

/* [17.1] (A-E and Wagram alike) the red-titled card 13 into the Discard Pile with the option */
static void test_n20_ae_17_1_thirteenth_card_in_the_danube_scenarios(void **st) {
    (void)st;
    const char *scs[2] = {"aspern-essling20", "wagram20"};
    for (int k = 0; k < 2; k++)
        for (int with = 0; with < 2; with++) {
            t_dice d;
            t_dice_init(&d, 1);
            n20_state *s = t_setup(scs[k], with ? N20_OPT_13TH_CARD : 0, &d, NULL);
            int c = t_card_index(s, 13), in = 0;
            assert_true(c >= 0);
            for (int i = 0; i < s->ndiscard; i++) in |= s->discard[i] == c;
            for (int i = 0; i < s->ndraw; i++) assert_int_not_equal(s->draw[i], c);
            assert_int_equal(in, with);
            free(s);
        }
}

/* the View carries the site, the pontoon and the Bridgehead (public) */
static void test_n20_ae_view_message_aspern_essling_fields(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_ae(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "site lobau-east", &d, NULL, NULL), 0);
    s->dn.pontoon[0] = N20_PON_DAMAGED;
    for (int seat = 0; seat < 2; seat++) {
        brt_buf b;
        buf_init(&b);
        assert_int_equal(n20_view(s, seat, &b), 0);
        ProtobufCMessage *m = NULL;
        assert_int_equal(canon_unpack(&n20__v1__view__descriptor, b.data, b.len, 1u << 20, &m), CANON_OK);
        N20__V1__View *v = (N20__V1__View *)m;
        assert_non_null(v->aspern_essling);
        assert_string_equal(v->aspern_essling->site, "lobau-east");
        assert_string_equal(v->aspern_essling->pontoon, "Damaged");
        assert_true(v->aspern_essling->bridgehead);
        assert_int_equal(v->aspern_essling->bridgehead_hex, 1811);
        assert_int_equal(v->aspern_essling->pontoon_hex, 1812);
        assert_int_equal(v->aspern_essling->objective, 1710);
        protobuf_c_message_free_unpacked(m, NULL);
        buf_free(&b);
    }
    free(s);
}

/* random legal orders from the set-up to a result; the final state hash in hash (if not NULL) */
static void s_game_hash(uint32_t opts, uint64_t seed, const char *site, uint8_t *hash) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_setup("aspern-essling20", opts, &d, NULL);
    n20_run(s, &d.d, &out);
    char o[32];
    snprintf(o, sizeof o, "site %s", site);
    assert_int_equal(t_order(s, N20_FRENCH, o, &d, NULL, NULL), 0);
    uint64_t rng = seed * 2654435761u + 3;
    brt_buf legal;
    buf_init(&legal);
    char tag[80];
    snprintf(tag, sizeof tag, "aspern-essling20 opts %x seed %llu %s", opts, (unsigned long long)seed, site);
    int steps = 0;
    while (!s->over && steps < 20000) {
        t_random_step(s, &rng, &legal, steps < 300, &d, &out, tag, NULL, NULL, NULL);
        steps++;
    }
    assert_true(s->over);
    brt_result r;
    n20_result(s, &r);
    assert_true(r.ended);
    if (hash) t_hash(s, hash);
    buf_free(&legal);
    free(s);
}

static void s_game(uint32_t opts, uint64_t seed, const char *site) { s_game_hash(opts, seed, site, NULL); }

static void test_n20_ae_game_aspern_essling_from_each_site(void **st) {
    (void)st;
    const char *names[5] = {"lackenau", "floridsdorf", "lobau-west", "lobau-east", "fischamend"};
    for (int i = 0; i < 5; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) s_game(0, seed, names[i]);
}

static void test_n20_ae_game_aspern_essling_with_each_variant(void **st) {
    (void)st;
    const uint32_t opts[5] = {N20_OPT_13TH_CARD, N20_OPT_LINZ, N20_OPT_BERTRAND,
                              N20_OPT_13TH_CARD | N20_OPT_LINZ | N20_OPT_BERTRAND,
                              N20_OPT_LINZ | N20_OPT_BERTRAND | N20_OPT_LEADERS};
    const char *names[5] = {"lackenau", "floridsdorf", "lobau-west", "lobau-east", "fischamend"};
    for (int k = 0; k < 5; k++)
        for (uint64_t seed = 1; seed <= 3; seed++) s_game(opts[k], seed + 10u * (uint64_t)k, names[(k + seed) % 5]);
}

/* the A-E rules with the optional rules a Danube 20 game may take (fog-of-war hides units, Leaders
 * cross and roll too) */
static void test_n20_ae_game_aspern_essling_with_optional_rules(void **st) {
    (void)st;
    const uint32_t opts[3] = {N20_OPT_FOG, N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_BERTRAND,
                              N20_OPT_SPECIAL_UNITS | N20_OPT_FATIGUE | N20_OPT_ART_SUPPORT | N20_OPT_CAV_PENETRATION};
    const char *names[3] = {"lobau-west", "fischamend", "floridsdorf"};
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 2; seed++) s_game(opts[k], seed + 100u * (uint64_t)k, names[k]);
}

/* the same seed plays the same game: the A-E state is all in the encoding */
static void test_n20_ae_game_aspern_essling_replays_to_the_same_hash(void **st) {
    (void)st;
    uint8_t a[32], b[32];
    uint32_t opts = N20_OPT_LINZ | N20_OPT_BERTRAND;
    s_game_hash(opts, 77, "lobau-east", a);
    s_game_hash(opts, 77, "lobau-east", b);
    assert_memory_equal(a, b, 32);
}


/* [17.3.1] [9.10] aspern-essling20: with bertrand-miracle the second Bridgehead's Garrison
 * (BRIDGEHEAD2) is placed at the second site's northern bank when it is built; without the
 * option it is not in the game */
static void test_n20_ae_17_3_1_aspern_essling_second_bridgehead_garrison(void **st) {
    (void)st;
    for (int with = 0; with < 2; with++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_state *s = s_ae(&d, with ? N20_OPT_BERTRAND : 0);
        int g = -1;
        for (int i = 0; i < s->sc->nunits; i++)
            if (strcmp(s->sc->units[i].id, "BRIDGEHEAD2") == 0) g = i;
        assert_true(g >= 0);
        assert_int_equal(n20_unit_find(s, "BRIDGEHEAD2"), with ? g : -1);
        assert_int_equal(n20_unit_in_game(s, g), with);
        assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, NULL, NULL), 0);
        assert_int_equal(s->u[g].where, N20_U_OUT); /* not with the first site */
        assert_int_equal(s->u[t_unit(s, "BRIDGEHEAD")].where, N20_U_GARRISON);
        if (with) {
            s->turn = 3;
            s->phasing = N20_FRENCH;
            s->phase = N20_PH_MOVE;
            assert_int_equal(t_order(s, N20_FRENCH, "site lobau-west", &d, NULL, NULL), 0);
            assert_int_equal(s->u[g].where, N20_U_GARRISON);
            assert_int_equal(n20_xxyy(s->u[g].hex), 1511);
            assert_int_equal(n20_garrison_at(s, n20_hex(1511)), g);
            assert_true(n20_ae_bridgehead_at(s, n20_hex(1511)));
        }
        free(s);
    }
}


/* A-E [3.0] **** [11.0]: 3eA is a Variable Reinforcement of Turn 4 arriving on a 4, 5 or 6 via the
 * Entry Area of the crossing site: a 3 delays it to Turn 5, a 4 brings it in */
static void test_n20_ae_3_0_aspern_essling_3ea_variable_reinforcement(void **st) {
    (void)st;
    for (int arrives = 0; arrives < 2; arrives++) {
        t_dice d;
        t_dice_init(&d, 1);
        n20_state *s = s_ae(&d, 0);
        assert_int_equal(t_order(s, N20_FRENCH, "site lackenau", &d, NULL, NULL), 0);
        int u = t_unit(s, "3eA");
        assert_int_equal(s->u[u].where, N20_U_VARIABLE);
        s->turn = 4;
        s->phasing = N20_FRENCH;
        s->phase = N20_PH_MOVE_START;
        uint32_t r[1] = {arrives ? 4u : 3u};
        t_dice_script(&d, 1, r);
        /* the roll's purpose names the Waterloo 20 record kind (17.1.3) for a unit with its own need */
        int before = t_dice_count(&d, "11.0 variable reinforcement") + t_dice_count(&d, "17.1.3 arrival roll");
        n20_run(s, &d.d, NULL);
        assert_int_equal(t_dice_count(&d, "11.0 variable reinforcement") + t_dice_count(&d, "17.1.3 arrival roll"),
                         before + 1);
        assert_int_equal(s->phase, N20_PH_MOVE);
        if (arrives) {
            assert_int_equal(s->u[u].where, N20_U_REINF);
            assert_true(t_legal_count_prefix(s, N20_FRENCH, "move 3eA ") > 0);
            char o[64];
            assert_true(t_legal_match(s, N20_FRENCH, "move 3eA ", T_MATCH_PREFIX, o, sizeof o) > 0);
            unsigned h = (unsigned)atoi(o + 9); /* its first hex: an entry hex of Area C [11.6] */
            int area_c = 0;
            for (int i = 0; i < s->sc->nentry; i++)
                if (n20_xxyy(s->sc->entry_hex[i]) == h && s->sc->entry_area[i] == 'C') area_c = 1;
            assert_true(area_c);
        } else {
            assert_int_equal(s->u[u].where, N20_U_VARIABLE);
            assert_int_equal(s->u[u].arrive, 5);
        }
        free(s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_ae_3_0_aspern_essling_offers_its_five_sites),
        cmocka_unit_test(test_n20_ae_3_0_aspern_essling_lackenau_set_up),
        cmocka_unit_test(test_n20_ae_3_0_aspern_essling_napoleon_with_4ec_under_leaders),
        cmocka_unit_test(test_n20_ae_3_0_aspern_essling_fischamend_set_up),
        cmocka_unit_test(test_n20_ae_6_10_aspern_essling_crossing_at_lackenau),
        cmocka_unit_test(test_n20_ae_9_10_aspern_essling_bridgehead_is_a_redoubt),
        cmocka_unit_test(test_n20_ae_17_3_1_aspern_essling_second_bridgehead_garrison),
        cmocka_unit_test(test_n20_ae_3_0_aspern_essling_3ea_variable_reinforcement),
        cmocka_unit_test(test_n20_ae_17_1_thirteenth_card_in_the_danube_scenarios),
        cmocka_unit_test(test_n20_ae_view_message_aspern_essling_fields),
        cmocka_unit_test(test_n20_ae_game_aspern_essling_from_each_site),
        cmocka_unit_test(test_n20_ae_game_aspern_essling_with_each_variant),
        cmocka_unit_test(test_n20_ae_game_aspern_essling_with_optional_rules),
        cmocka_unit_test(test_n20_ae_game_aspern_essling_replays_to_the_same_hash),
    };
    if (sodium_init() < 0) return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
