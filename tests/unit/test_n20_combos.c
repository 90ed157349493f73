/*
 * test_n20_combos.c - random-play conformance of n20 over every scenario with
 * every option it takes at once, through the ruleset table as the daemon uses it:
 * each game ends in a result, a seat with the decision always has a legal order,
 * apply() accepts every order legal() lists (checked on a copy of the state, for
 * the first steps of each game), and the same seed replays to the same state hash.
 * BERTHIER_LONG=1 plays 25 times more games.
 *
 * The pairwise tests cover combinations: for each scenario a set of option subsets
 * in which every pair of accepted options is seen in all four on/off states, built
 * greedily from a fixed generator (so the same subsets every run), each subset
 * played as a random game to its result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

extern const brt_ruleset brt_ruleset_n20;

typedef struct t_sink {
    int n;
} t_sink;

/* every option `scenario` accepts on its own (as the daemon would: setup succeeds) */
static size_t s_options(const char *scenario, const char **names, size_t max) {
    size_t n = 0;
    for (size_t k = 0; k < n20_noptions && n < max; k++) {
        if (!n20_options[k].implemented) continue;
        t_dice d;
        t_dice_init(&d, 1);
        brt_reject err;
        const char *one[] = {n20_options[k].name};
        brt_ruleset_options o = {one, 1, 2};
        void *s = brt_ruleset_n20.setup(scenario, &o, &d.d, &err);
        if (s) {
            names[n++] = n20_options[k].name;
            brt_ruleset_n20.destroy(s);
        }
    }
    return n;
}

/* one game of random legal orders; returns the orders played, fills the final state hash */
static int s_play(const char *scenario, const char **names, size_t nnames, uint64_t seed, int check_steps,
                  uint8_t hash[32]) {
    const brt_ruleset *r = &brt_ruleset_n20;
    t_dice d;
    t_dice_init(&d, seed);
    brt_reject err;
    brt_ruleset_options o = {names, nnames, 2};
    void *s = r->setup(scenario, &o, &d.d, &err);
    if (!s) fail_msg("%s: setup refused its own options: %s", scenario, err.message);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    int steps = 0;
    brt_result res;
    for (;;) {
        r->result(s, &res);
        if (res.ended || steps >= 20000) break;
        brt_pending p;
        r->pending(s, &p);
        int seat = n20_pending_seat(s);
        if (seat != 0 && seat != 1) fail_msg("%s seed %llu: no seat decides at step %d", scenario,
                                             (unsigned long long)seed, steps);
        buf_reset(&legal);
        int n = r->legal(s, (unsigned)seat, &legal);
        if (n <= 0) {
            brt_buf vt;
            buf_init(&vt);
            r->view_text(s, -1, &vt);
            buf_append(&vt, "", 1);
            fprintf(stderr, "%s\n", (char *)vt.data);
            buf_free(&vt);
            fail_msg("%s seed %llu: no legal order for seat %d at %s [%s] (step %d)", scenario,
                     (unsigned long long)seed, seat, p.kind, p.rule, steps);
        }
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        size_t pos = 0, len = 0, clen = 0;
        const uint8_t *item = NULL, *chosen = NULL;
        int i = 0;
        while (buf_next_item(&legal, &pos, &item, &len) == 1) {
            if (steps < check_steps) {
                void *c = r->clone(s);
                t_dice d2 = d;
                d2.d.source_ctx = &d2;
                if (r->apply(c, (unsigned)seat, item, len, &d2.d, NULL, &err) != 0) {
                    brt_buf t;
                    buf_init(&t);
                    r->order_format(item, len, &t);
                    buf_append(&t, "", 1);
                    fail_msg("%s seed %llu: legal order '%s' rejected: [%s] %s", scenario,
                             (unsigned long long)seed, (char *)t.data, err.rule, err.message);
                }
                r->destroy(c);
            }
            if (i == pick) {
                chosen = item;
                clen = len;
            }
            i++;
        }
        assert_non_null(chosen);
        if (r->apply(s, (unsigned)seat, chosen, clen, &d.d, NULL, &err) != 0)
            fail_msg("%s seed %llu: chosen order rejected: %s", scenario, (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    r->result(s, &res);
    if (!res.ended) fail_msg("%s seed %llu: no result after %d orders", scenario, (unsigned long long)seed, steps);
    brt_buf enc;
    buf_init(&enc);
    assert_int_equal(r->encode(s, &enc), 0);
    crypto_generichash(hash, 32, enc.data, enc.len, NULL, 0);
    buf_free(&enc);
    r->destroy(s);
    return steps;
}

static void s_scenario_n(const char *scenario, int short_games) {
    const char *names[32];
    size_t n = s_options(scenario, names, 32);
    assert_true(n >= 8); /* the [16.x] options at least */
    const char *lg = getenv("BERTHIER_LONG");
    int games = lg && *lg && *lg != '0' ? 25 * short_games : short_games;
    for (int g = 0; g < games; g++) {
        uint64_t seed = 1000 + (uint64_t)g;
        uint8_t h1[32], h2[32];
        int k = s_play(scenario, names, n, seed, g == 0 ? 200 : 40, h1);
        int k2 = s_play(scenario, names, n, seed, 0, h2);
        assert_int_equal(k, k2);
        assert_memory_equal(h1, h2, 32);
    }
}

static void s_scenario(const char *scenario) { s_scenario_n(scenario, 2); }

/* ---- pairwise combinations ------------------------------------------------------------ */

#define T_MAXOPT 32
#define T_MAXROWS 64

/* the four on/off states of pair (a, b) that row `m` covers: bit (2*va + vb) */
static unsigned s_pair_state(uint32_t m, size_t a, size_t b) {
    unsigned va = (m >> a) & 1u, vb = (m >> b) & 1u;
    return 1u << (2 * va + vb);
}

/* greedy covering array: rows (bitmasks over n options) until every pair has been
 * seen on/on, on/off, off/on and off/off; returns the number of rows */
static size_t s_pairwise_rows(size_t n, uint32_t rows[T_MAXROWS]) {
    uint8_t seen[T_MAXOPT][T_MAXOPT] = {{0}};
    size_t npairs = n * (n - 1) / 2, done = 0, nrows = 0;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    while (done < npairs && nrows < T_MAXROWS) {
        uint32_t best = 0;
        size_t best_gain = 0;
        for (int c = 0; c < 200; c++) {
            uint32_t cand = (uint32_t)t_rng(&rng) & (n >= 32 ? 0xffffffffu : ((1u << n) - 1u));
            size_t gain = 0;
            for (size_t a = 0; a < n; a++)
                for (size_t b = a + 1; b < n; b++)
                    if (!(seen[a][b] & s_pair_state(cand, a, b))) gain++;
            if (gain > best_gain) {
                best_gain = gain;
                best = cand;
            }
        }
        if (best_gain == 0) break;
        rows[nrows++] = best;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                uint8_t before = seen[a][b];
                seen[a][b] |= (uint8_t)s_pair_state(best, a, b);
                if (before != 0xf && seen[a][b] == 0xf) done++;
            }
    }
    return done == npairs ? nrows : 0;
}

static void s_pairwise(const char *scenario) {
    const char *names[T_MAXOPT];
    size_t n = s_options(scenario, names, T_MAXOPT);
    assert_true(n >= 8);
    uint32_t rows[T_MAXROWS];
    size_t nrows = s_pairwise_rows(n, rows);
    if (nrows == 0) fail_msg("%s: no pairwise cover of %zu options in %d rows", scenario, n, T_MAXROWS);
    const char *lg = getenv("BERTHIER_LONG");
    int reps = lg && *lg && *lg != '0' ? 5 : 1;
    for (int rep = 0; rep < reps; rep++)
        for (size_t r = 0; r < nrows; r++) {
            const char *on[T_MAXOPT];
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (rows[r] >> i & 1u) on[k++] = names[i];
            uint8_t h1[32], h2[32];
            uint64_t seed = 5000 + 97 * (uint64_t)rep + (uint64_t)r;
            int s1 = s_play(scenario, on, k, seed, rep == 0 ? 30 : 0, h1);
            int s2 = s_play(scenario, on, k, seed, 0, h2);
            assert_int_equal(s1, s2);
            assert_memory_equal(h1, h2, 32);
        }
}

/* the cover itself: every pair in all four states, checked independently of the builder */
static void test_n20_combos_pairwise_cover_is_complete(void **st) {
    (void)st;
    for (size_t n = 2; n <= 20; n++) {
        uint32_t rows[T_MAXROWS];
        size_t nrows = s_pairwise_rows(n, rows);
        assert_true(nrows >= 4); /* four states of one pair need four rows */
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                unsigned states = 0;
                for (size_t r = 0; r < nrows; r++) states |= s_pair_state(rows[r], a, b);
                assert_int_equal(states, 0xf);
            }
    }
}

/* [16.0] [17.0] option combinations: every pair of options on/off in some game */
static void test_n20_combos_standard_pairwise(void **st) {
    (void)st;
    s_pairwise("waterloo20-standard");
}
static void test_n20_combos_closing_pairwise(void **st) {
    (void)st;
    s_pairwise("waterloo20-closing");
}
static void test_n20_combos_extended_pairwise(void **st) {
    (void)st;
    s_pairwise("waterloo20-extended");
}
static void test_n20_combos_opening_pairwise(void **st) {
    (void)st;
    s_pairwise("waterloo20-opening");
}

/* [16.0] [17.0] every option a scenario takes, all at once */
static void test_n20_combos_standard_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-standard");
}
static void test_n20_combos_closing_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-closing");
}
static void test_n20_combos_extended_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-extended");
}
static void test_n20_combos_opening_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-opening");
}

/* ---- Danube 20: aspern-essling20, wagram20, marchfeld ----------------------------------- */

/* the options each Danube 20 scenario takes: the series optional rules [16.1]-[16.9] the v3.0
 * book has and its data can play ([16.5] [16.6] need the generic Cadres the Danube 20 mix does
 * not have: rulings R-dn-pools), and the scenario's own variants */
#define T_DN_SERIES "fog-of-war", "cavalry-penetration", "artillery-support", "rally-locations", \
                    "unit-reduction", "breakdown", "special-units", "fatigue", "leaders"
static const char *const s_dn_ae[] = {T_DN_SERIES, "thirteenth-card", "summoned-from-linz", "bertrand-miracle",
                                      NULL};
static const char *const s_dn_wagram[] = {T_DN_SERIES, "floridsdorf-pontoon", "thirteenth-card", NULL};
static const char *const s_dn_mf[] = {T_DN_SERIES, "thirteenth-card", NULL};

static void s_dn_listed(const char *scenario, const char *const *want) {
    const char *names[32];
    size_t n = s_options(scenario, names, 32), k = 0;
    for (; want[k]; k++) {
        size_t i = 0;
        while (i < n && strcmp(names[i], want[k]) != 0) i++;
        if (i == n) fail_msg("%s does not take option %s", scenario, want[k]);
    }
    if (n != k) {
        for (size_t i = 0; i < n; i++) fprintf(stderr, "%s takes %s\n", scenario, names[i]);
        fail_msg("%s takes %zu options, not the %zu of its book", scenario, n, k);
    }
    /* the daemon's list (the ruleset's scenario_option) is the same */
    size_t m = 0;
    while (brt_ruleset_n20.scenario_option && brt_ruleset_n20.scenario_option(scenario, m)) m++;
    if (brt_ruleset_n20.scenario_option) assert_int_equal(m, k);
}

/* [16.0] A-E [17.0]: the options of Aspern-Essling 20 */
static void test_n20_dn_16_0_aspern_essling_takes_its_options(void **st) {
    (void)st;
    s_dn_listed("aspern-essling20", s_dn_ae);
}
/* [16.0] Wagram [16.10] [17.1]: the options of Wagram 20 */
static void test_n20_dn_16_0_wagram_takes_its_options(void **st) {
    (void)st;
    s_dn_listed("wagram20", s_dn_wagram);
}
/* [16.0] Wagram [18.0] #2: the options of the Marchfeld */
static void test_n20_dn_16_0_marchfeld_takes_its_options(void **st) {
    (void)st;
    s_dn_listed("marchfeld", s_dn_mf);
}

/* setup of `scenario` with the one option `name` must be refused with BAD_OPTION citing `rule` */
static void s_refused(const char *scenario, const char *name, const char *rule) {
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    memset(&err, 0, sizeof err);
    const char *one[] = {name};
    brt_ruleset_options o = {one, 1, 2};
    void *s = brt_ruleset_n20.setup(scenario, &o, &d.d, &err);
    if (s) {
        brt_ruleset_n20.destroy(s);
        fail_msg("%s accepted option %s", scenario, name);
    }
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    if (strcmp(err.rule, rule) != 0)
        fail_msg("%s option %s refused with rule %s (%s), not %s", scenario, name, err.rule, err.message, rule);
    assert_int_equal(d.d.failed, 0);
}

static const char *const s_dn_scenarios[] = {"aspern-essling20", "wagram20", "marchfeld"};
static const char *const s_wl_scenarios[] = {"waterloo20-standard", "waterloo20-closing", "waterloo20-extended",
                                             "waterloo20-opening"};

/* Danube [16.10] is the Floridsdorf pontoon: the v3.0 rules have no Variable Weather (digest
 * defect 14), refused in every Danube scenario with the rule that is not there */
static void test_n20_dn_16_10_variable_weather_refused_in_danube(void **st) {
    (void)st;
    for (size_t i = 0; i < 3; i++) s_refused(s_dn_scenarios[i], "variable-weather", "16.10");
}

/* the Waterloo 20 variants [17.1.1]-[17.4.2] are no rules of the Danube 20 book: refused with
 * their Waterloo 20 rule */
static void test_n20_dn_17_waterloo_variants_refused_in_danube(void **st) {
    (void)st;
    static const struct {
        const char *name, *rule;
    } v[] = {{"sambre-crossing", "17.1.1"}, {"berthier-is-back", "17.1.2"}, {"look-out-bulow", "17.1.3"},
             {"historical-events", "17.3.1"}, {"lobau-reinforced", "17.4.1"}, {"rapp", "17.4.2"}};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) s_refused(s_dn_scenarios[i], v[k].name, v[k].rule);
}

/* the Danube 20 variants are refused in Waterloo 20 with the Danube rule; and each Danube
 * scenario refuses the variants of the other Danube scenarios */
static void test_n20_dn_17_danube_variants_refused_elsewhere(void **st) {
    (void)st;
    static const struct {
        const char *name, *rule;
    } v[] = {{"floridsdorf-pontoon", "16.10"}, {"thirteenth-card", "17.1"}, {"summoned-from-linz", "17.2"},
             {"bertrand-miracle", "17.3"}};
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) s_refused(s_wl_scenarios[i], v[k].name, v[k].rule);
    s_refused("aspern-essling20", "floridsdorf-pontoon", "16.10");
    s_refused("wagram20", "summoned-from-linz", "17.2");
    s_refused("wagram20", "bertrand-miracle", "17.3");
    s_refused("marchfeld", "floridsdorf-pontoon", "16.10");
    s_refused("marchfeld", "summoned-from-linz", "17.2");
    s_refused("marchfeld", "bertrand-miracle", "17.3");
}

/* [16.0] A-E [17.0]: Aspern-Essling 20 with every option it takes */
static void test_n20_combos_aspern_essling_all_options(void **st) {
    (void)st;
    s_scenario("aspern-essling20");
}
/* [16.0] Wagram [16.10] [17.0]: Wagram 20 with every option it takes */
static void test_n20_combos_wagram_all_options(void **st) {
    (void)st;
    s_scenario("wagram20");
}
/* [16.0] Wagram [18.0]: the Marchfeld with every option it takes */
static void test_n20_combos_marchfeld_all_options(void **st) {
    (void)st;
    s_scenario("marchfeld");
}
static void test_n20_combos_aspern_essling_pairwise(void **st) {
    (void)st;
    s_pairwise("aspern-essling20");
}
static void test_n20_combos_wagram_pairwise(void **st) {
    (void)st;
    s_pairwise("wagram20");
}
static void test_n20_combos_marchfeld_pairwise(void **st) {
    (void)st;
    s_pairwise("marchfeld");
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_combos_standard_all_options),
        cmocka_unit_test(test_n20_combos_closing_all_options),
        cmocka_unit_test(test_n20_combos_extended_all_options),
        cmocka_unit_test(test_n20_combos_opening_all_options),
        cmocka_unit_test(test_n20_combos_pairwise_cover_is_complete),
        cmocka_unit_test(test_n20_combos_standard_pairwise),
        cmocka_unit_test(test_n20_combos_closing_pairwise),
        cmocka_unit_test(test_n20_combos_extended_pairwise),
        cmocka_unit_test(test_n20_combos_opening_pairwise),
        cmocka_unit_test(test_n20_dn_16_0_aspern_essling_takes_its_options),
        cmocka_unit_test(test_n20_dn_16_0_wagram_takes_its_options),
        cmocka_unit_test(test_n20_dn_16_0_marchfeld_takes_its_options),
        cmocka_unit_test(test_n20_dn_16_10_variable_weather_refused_in_danube),
        cmocka_unit_test(test_n20_dn_17_waterloo_variants_refused_in_danube),
        cmocka_unit_test(test_n20_dn_17_danube_variants_refused_elsewhere),
        cmocka_unit_test(test_n20_combos_aspern_essling_all_options),
        cmocka_unit_test(test_n20_combos_wagram_all_options),
        cmocka_unit_test(test_n20_combos_marchfeld_all_options),
        cmocka_unit_test(test_n20_combos_aspern_essling_pairwise),
        cmocka_unit_test(test_n20_combos_wagram_pairwise),
        cmocka_unit_test(test_n20_combos_marchfeld_pairwise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
