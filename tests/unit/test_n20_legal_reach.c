/*
 * test_n20_legal_reach.c - legal() is complete: over random games from the set-up of every n20
 * scenario, with and without options, every order apply() accepts is reached from legal().
 * Candidate orders beyond legal() (random declarations over adjacent pairs, random retreat paths
 * through neighbours, countercharges of any cavalry against any adjacent enemies, Disengagements
 * and Advances along random paths with any set of the Leaders stacked with the unit) are applied to
 * a copy; for each one accepted, the same state is reached on another copy by a sequence of the
 * step orders, each listed by legal() when it is given ([9.2] `declare one` ... `declare done`,
 * [9.7] `retreat-step` ... `retreat-stop`, [8.1] the countercharge itself). And every listed order
 * is accepted by apply() (the random play tries each on a copy). Orders that name the same units
 * in another sequence are the same order (rulings docs/danube-rulings/legal.md R-legal-unit-order):
 * the candidates name their units in the order legal() does (n20_fog_order).
 * BERTHIER_LONG=1 plays many more games. docs/n20-cases/danube-legal.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

static int r_checked_declare, r_checked_retreat, r_checked_cc, r_checked_path, r_games, r_steps, r_dead_move;

typedef struct r_copy {
    n20_state s;
    t_dice d;
} r_copy;

static r_copy *r_dup(const n20_state *s, const t_dice *d) {
    r_copy *c = malloc(sizeof *c);
    assert_non_null(c);
    memcpy(&c->s, s, sizeof *s);
    c->d = *d;
    c->d.d.source_ctx = &c->d;
    return c;
}

static void r_same(const n20_state *a, const n20_state *b, const char *what) {
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    assert_int_equal(n20_encode(a, &x), 0);
    assert_int_equal(n20_encode(b, &y), 0);
    if (x.len != y.len || memcmp(x.data, y.data, x.len) != 0) fail_msg("the steps of '%s' reach another state", what);
    buf_free(&x);
    buf_free(&y);
}

/* the order text is listed for the seat, then applied */
static void r_step(r_copy *c, unsigned seat, const char *text, const char *what) {
    if (!t_legal_has(&c->s, seat, text)) fail_msg("'%s' (a step of '%s') is not listed", text, what);
    brt_reject err;
    if (t_order(&c->s, seat, text, &c->d, NULL, &err) != 0)
        fail_msg("listed step '%s' rejected: %s", text, err.message);
}

static const char *r_name(const n20_state *s, int u, unsigned seat, char *buf) { return n20_uid_seat(s, u, (int)seat, buf); }

/* [9.2] a random declaration over adjacent pairs, in the order legal() names units */
static void r_declare(const n20_state *s, const t_dice *d, uint64_t *rng) {
    unsigned seat = (unsigned)n20_pending_seat(s);
    int ord[N20_MAX_UNITS], n = s->sc->nunits;
    n20_fog_order(s, ord);
    uint8_t used[N20_MAX_UNITS] = {0};
    n20_battle b[N20_MAX_BATTLES];
    int nb = 0;
    int tries = (int)(t_rng(rng) % 12);
    for (int t = 0; t < tries && nb < N20_MAX_BATTLES; t++) {
        int i0 = (int)(t_rng(rng) % (uint64_t)n), a0 = ord[i0];
        if (used[a0] || s->u[a0].where != N20_U_MAP || n20_side_of(s, a0) != s->phasing ||
            s->sc->units[a0].type == N20_LEADER)
            continue;
        n20_battle x;
        memset(&x, 0, sizeof x);
        x.att[x.natt++] = (uint8_t)a0;
        for (int j = 0; j < n && x.ndef < N20_MAX_SIDE; j++) {
            int e = ord[j];
            if (used[e] || n20_side_of(s, e) == s->phasing || s->u[e].where != N20_U_MAP ||
                s->sc->units[e].type == N20_LEADER)
                continue;
            if (!n20_adjacent_units(s, a0, e) && !n20_bombard_pair(s, a0, e)) continue;
            if (x.ndef == 0 || t_rng(rng) % 3 == 0) x.def[x.ndef++] = (uint8_t)e;
        }
        if (!x.ndef) continue;
        for (int j = i0 + 1; j < n && x.natt < N20_MAX_SIDE; j++) {
            int a = ord[j], ok = !used[a] && s->u[a].where == N20_U_MAP && n20_side_of(s, a) == s->phasing &&
                                 s->sc->units[a].type != N20_LEADER && t_rng(rng) % 2 == 0;
            for (int k = 0; ok && k < x.ndef; k++)
                ok = n20_adjacent_units(s, a, x.def[k]) || n20_bombard_pair(s, a, x.def[k]);
            if (ok) x.att[x.natt++] = (uint8_t)a;
        }
        for (int k = 0; k < x.natt; k++) used[x.att[k]] = 1;
        for (int k = 0; k < x.ndef; k++) used[x.def[k]] = 1;
        b[nb++] = x;
    }
    char text[8192], one[N20_MAX_BATTLES][256], nm[N20_NAME];
    snprintf(text, sizeof text, "declare");
    for (int i = 0; i < nb; i++) {
        size_t l = 0;
        one[i][0] = 0;
        for (int k = 0; k < b[i].natt; k++)
            l += (size_t)snprintf(one[i] + l, sizeof one[i] - l, "%s%s", k ? "," : "", r_name(s, b[i].att[k], seat, nm));
        l += (size_t)snprintf(one[i] + l, sizeof one[i] - l, " -> ");
        for (int k = 0; k < b[i].ndef; k++)
            l += (size_t)snprintf(one[i] + l, sizeof one[i] - l, "%s%s", k ? "," : "", r_name(s, b[i].def[k], seat, nm));
        size_t tl = strlen(text);
        snprintf(text + tl, sizeof text - tl, "%s%s", i ? " ; " : " ", one[i]);
    }
    r_copy *whole = r_dup(s, d);
    brt_reject err;
    if (t_order(&whole->s, seat, text, &whole->d, NULL, &err) == 0) {
        r_copy *st = r_dup(s, d);
        static char step[8192 + 16];
        for (int i = 0; i < nb; i++) {
            snprintf(step, sizeof step, "declare one %s", one[i]);
            r_step(st, seat, step, text);
        }
        r_step(st, seat, "declare done", text);
        r_same(&whole->s, &st->s, text);
        r_checked_declare++;
        free(st);
    }
    free(whole);
}

/* [9.7] a random path through neighbours */
static void r_retreat(const n20_state *s, const t_dice *d, uint64_t *rng) {
    unsigned seat = (unsigned)n20_pending_seat(s);
    int u = n20_retreat_current(s);
    if (u < 0) return;
    int k = s->f.ret_done;
    int len = (int)(t_rng(rng) % (uint64_t)(s->f.ret_dist[k] + 3));
    uint16_t cur = s->u[u].hex, path[N20_MAX_PATH];
    for (int i = 0; i < len && i < N20_MAX_PATH - 2; i++) {
        uint16_t to;
        if (n20_neighbor(s->sc, cur, (int)(t_rng(rng) % 6), &to) < 0) { len = i; break; }
        path[i] = cur = to;
    }
    char text[256], nm[N20_NAME];
    const char *id = r_name(s, u, seat, nm);
    size_t l = (size_t)snprintf(text, sizeof text, "retreat %s", id);
    for (int i = 0; i < len; i++) l += (size_t)snprintf(text + l, sizeof text - l, " %04u", n20_xxyy(path[i]));
    r_copy *whole = r_dup(s, d);
    brt_reject err;
    if (t_order(&whole->s, seat, text, &whole->d, NULL, &err) == 0) {
        r_copy *st = r_dup(s, d);
        char step[64];
        int i = 0;
        for (; i < len; i++) {
            snprintf(step, sizeof step, "retreat-step %s %04u", id, n20_xxyy(path[i]));
            r_step(st, seat, step, text);
            if (st->s.phase != N20_PH_RETREAT || n20_retreat_current(&st->s) != u) break; /* complete */
        }
        if (i < len - 1) fail_msg("the steps of '%s' ended the retreat after %d hexes", text, i + 1);
        if (i == len) {
            snprintf(step, sizeof step, "retreat-stop %s", id);
            r_step(st, seat, step, text);
        }
        r_same(&whole->s, &st->s, text);
        r_checked_retreat++;
        free(st);
    }
    free(whole);
}

/* [8.1] [8.1.3] a countercharge of random cavalry against random adjacent enemies */
static void r_countercharge(const n20_state *s, const t_dice *d, uint64_t *rng) {
    unsigned seat = (unsigned)n20_pending_seat(s);
    int ord[N20_MAX_UNITS], n = s->sc->nunits;
    n20_fog_order(s, ord);
    int at[N20_MAX_SIDE], na = 0, df[N20_MAX_SIDE], nd = 0, u0 = -1;
    for (int j = 0; j < n; j++) /* a cavalry unit that may react, picked at random */
        if ((s->u[ord[j]].flags & N20_UF_REACT_OK) && (u0 < 0 || t_rng(rng) % 2)) u0 = j;
    if (u0 < 0) return;
    for (int j = 0; j < n && nd < N20_MAX_SIDE; j++)
        if (n20_side_of(s, ord[j]) == s->phasing && n20_adjacent_units(s, ord[u0], ord[j]) && t_rng(rng) % 2 == 0)
            df[nd++] = ord[j];
    for (int j = 0; j < n && na < N20_MAX_SIDE; j++) {
        int ok = j == u0 || ((s->u[ord[j]].flags & N20_UF_REACT_OK) && t_rng(rng) % 2 == 0);
        for (int k = 0; ok && j != u0 && k < nd; k++) ok = n20_adjacent_units(s, ord[j], df[k]);
        if (ok) at[na++] = ord[j];
    }
    if (!na || !nd) return;
    char text[512], nm[N20_NAME];
    size_t l = (size_t)snprintf(text, sizeof text, "countercharge ");
    for (int i = 0; i < na; i++) l += (size_t)snprintf(text + l, sizeof text - l, "%s%s", i ? "," : "", r_name(s, at[i], seat, nm));
    l += (size_t)snprintf(text + l, sizeof text - l, " -> ");
    for (int i = 0; i < nd; i++) l += (size_t)snprintf(text + l, sizeof text - l, "%s%s", i ? "," : "", r_name(s, df[i], seat, nm));
    if (t_rng(rng) % 2) l += (size_t)snprintf(text + l, sizeof text - l, " reserve");
    if (t_rng(rng) % 2) snprintf(text + l, sizeof text - l, " fight");
    r_copy *whole = r_dup(s, d);
    brt_reject err;
    if (t_order(&whole->s, seat, text, &whole->d, NULL, &err) == 0) {
        if (!t_legal_has(s, seat, text)) fail_msg("accepted '%s' is not listed", text);
        r_checked_cc++;
    }
    free(whole);
}

/* [8.2] [9.8] a random whole path (a Disengagement, an Advance) through neighbours, with a random
 * set of the Leaders stacked with the unit [16.9.4] [16.9.5]: listed as it is when accepted */
static void r_path(const n20_state *s, const t_dice *d, uint64_t *rng, const char *verb) {
    unsigned seat = (unsigned)n20_pending_seat(s);
    int ord[N20_MAX_UNITS], n = s->sc->nunits, u = -1;
    n20_fog_order(s, ord);
    for (int j = 0; j < n; j++)
        if (n20_side_of(s, ord[j]) == (int)seat && s->u[ord[j]].where == N20_U_MAP &&
            s->sc->units[ord[j]].type != N20_LEADER && (u < 0 || t_rng(rng) % 3 == 0))
            u = ord[j];
    if (u < 0) return;
    uint16_t cur = s->u[u].hex, path[N20_MAX_PATH];
    int len = 1 + (int)(t_rng(rng) % 4);
    if (verb[0] == 'a' && s->f.nvacated) { /* an advance enters a vacated hex first */
        path[0] = cur = s->f.vacated[t_rng(rng) % s->f.nvacated];
    } else {
        uint16_t to;
        if (n20_neighbor(s->sc, cur, (int)(t_rng(rng) % 6), &to) < 0) return;
        path[0] = cur = to;
    }
    for (int i = 1; i < len; i++) {
        uint16_t to;
        if (n20_neighbor(s->sc, cur, (int)(t_rng(rng) % 6), &to) < 0) { len = i; break; }
        path[i] = cur = to;
    }
    char text[512], nm[N20_NAME];
    size_t l = (size_t)snprintf(text, sizeof text, "%s %s", verb, r_name(s, u, seat, nm));
    for (int i = 0; i < len; i++) l += (size_t)snprintf(text + l, sizeof text - l, " %04u", n20_xxyy(path[i]));
    int ls[N20_MAX_SIDE], nl = n20_leaders_with(s, u, ls, N20_MAX_SIDE), w = 0;
    for (int i = 0; i < nl; i++)
        if (t_rng(rng) % 2) {
            l += (size_t)snprintf(text + l, sizeof text - l, "%s%s", w ? "," : " with ", n20_uid(s, ls[i]));
            w++;
        }
    r_copy *whole = r_dup(s, d);
    brt_reject err;
    if (t_order(&whole->s, seat, text, &whole->d, NULL, &err) == 0) {
        if (!t_legal_has(s, seat, text)) fail_msg("accepted '%s' is not listed", text);
        r_checked_path++;
    }
    free(whole);
}

static void r_game(const char *scenario, uint32_t opts, uint64_t seed, int max_steps) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    if (!sc) return;
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = n20_state_new(sc);
    brt_reject err;
    if (n20_setup(s, &d.d, &out, opts, &err) != 0) { /* an option the scenario does not take */
        free(s);
        return;
    }
    n20_run(s, &d.d, &out);
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 11;
    brt_buf legal;
    buf_init(&legal);
    char tag[96];
    snprintf(tag, sizeof tag, "%s opts %#x seed %llu", scenario, opts, (unsigned long long)seed);
    r_games++;
    for (int steps = 0; !s->over && steps < max_steps; steps++, r_steps++) {
        for (int k = 0; k < 4; k++) {
            if (s->phase == N20_PH_DECLARE && s->nbattles == 0) r_declare(s, &d, &rng);
            if (s->phase == N20_PH_RETREAT && !n20_retreat_stepped(s)) r_retreat(s, &d, &rng);
            if (s->phase == N20_PH_REACTION) r_countercharge(s, &d, &rng);
            if (s->phase == N20_PH_REACTION) r_path(s, &d, &rng, "disengage");
            if (s->phase == N20_PH_ADVANCE) r_path(s, &d, &rng, "advance");
        }
        /* a decision with nothing listed outside the decisions of this test's orders (a Movement
         * Phase whose stack cannot be undone) ends the game here: named, not judged */
        if (s->phase == N20_PH_MOVE && t_legal_n(s, (unsigned)n20_pending_seat(s)) == 0) {
            if (getenv("N20_REACH_PRINT")) fprintf(stderr, "%s: nothing listed in the Movement Phase of Turn %d\n", tag, s->turn);
            r_dead_move++;
            break;
        }
        /* every listed order is tried on a copy but in the Movement Phases (thousands of paths) */
        t_random_step(s, &rng, &legal, s->phase != N20_PH_MOVE, &d, &out, tag, NULL, NULL, NULL);
    }
    buf_free(&legal);
    free(s);
}

static void test_n20_legal_reaches_every_accepted_order(void **st) {
    (void)st;
    static const char *scen[] = {"waterloo20-standard", "waterloo20-closing", "waterloo20-extended",
                                 "waterloo20-opening", "aspern-essling20", "wagram20", "marchfeld"};
    static const uint32_t opts[] = {
        0,
        N20_OPT_FOG,
        N20_OPT_LEADERS | N20_OPT_SPECIAL_UNITS | N20_OPT_ART_SUPPORT | N20_OPT_CAV_PENETRATION | N20_OPT_FATIGUE,
        N20_OPT_BREAKDOWN | N20_OPT_UNIT_REDUCTION | N20_OPT_RALLY_LOCATIONS | N20_OPT_VAR_WEATHER | N20_OPT_FOG,
    };
    const char *lg = getenv("BERTHIER_LONG");
    int seeds = lg && *lg ? 300 : 6, steps = 30000;
    for (size_t i = 0; i < sizeof scen / sizeof *scen; i++)
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++)
            for (int g = 0; g < seeds; g++) r_game(scen[i], opts[k], 1000u * (uint64_t)i + 31u * (uint64_t)k + (uint64_t)g + 1, steps);
    if (getenv("N20_REACH_PRINT"))
        fprintf(stderr, "%d games, %d orders; accepted candidates reached by steps: %d declarations, %d retreats, "
                "%d countercharges, %d paths\n", r_games, r_steps, r_checked_declare, r_checked_retreat, r_checked_cc,
                r_checked_path);
    /* the candidates reached the three kinds of decisions */
    assert_true(r_checked_declare > 10);
    assert_true(r_checked_retreat > 10);
    assert_true(r_checked_cc > 0);
    assert_true(r_checked_path > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_legal_reaches_every_accepted_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
