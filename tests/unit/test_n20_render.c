/*
 * test_n20_render.c - the n20 pictures (rules/n20/render.c, docs/render.md): golden SVG
 * files fixed byte for byte (tests/golden/n20-*.svg), well-formed XML, the same bytes
 * twice and from a clone, what each viewpoint may see under fog of war [16.1], and the
 * documentation pictures (docs/img/waterloo20-*.svg) still being what the renderer draws.
 *
 * BERTHIER_UPDATE_GOLDEN=1 rewrites the golden files and the documentation pictures
 * instead of comparing them (then review the diff and commit it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20_svg_t.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- helpers --------------------------------------------------------------- */

/* the picture as a NUL-terminated string (free it) */
static char *r_render(const n20_state *s, int vp, const brt_render_ctx *ctx) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_render(s, vp, ctx, &b), 0);
    buf_append(&b, "", 1);
    char *str = malloc(b.len);
    assert_non_null(str);
    memcpy(str, b.data, b.len);
    buf_free(&b);
    return str;
}


static int r_count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* every unit the view lists by name (n20_view's filter) */
static int r_listed(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    if ((d->type == N20_LEADER && !(s->opts & N20_OPT_LEADERS)) || d->place == N20_P_VARIANT || !n20_unit_in_game(s, u))
        return 0;
    return d->type != N20_DUMMY || n20_fog(s);
}

/* a random game (seeded legal orders) until stop() says so or the game ends; the last order
 * given is copied to last/last_len/last_seat */
typedef int (*r_stop_fn)(const n20_state *s, const uint8_t *order, size_t len);
static n20_state *r_play_sc(const char *scenario, uint32_t opts, uint64_t seed, r_stop_fn stop, uint8_t *last,
                            size_t *last_len, int *last_seat) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    *last_len = 0;
    *last_seat = -1;
    for (int steps = 0; !s->over && steps < 30000; steps++) {
        const uint8_t *o;
        size_t len;
        int seat;
        t_random_step(s, &rng, &legal, 0, &d, &out, scenario, &o, &len, &seat);
        assert_true(len <= 512);
        memcpy(last, o, len);
        *last_len = len;
        *last_seat = seat;
        if (stop && stop(s, o, len)) break;
    }
    buf_free(&legal);
    return s;
}

static n20_state *r_play(uint32_t opts, uint64_t seed, r_stop_fn stop, uint8_t *last, size_t *last_len,
                         int *last_seat) {
    return r_play_sc("waterloo20-standard", opts, seed, stop, last, last_len, last_seat);
}

/* ---- golden pictures ------------------------------------------------------------ */

/* [3.0] the Standard set-up as the log sees it (everything) */
static void test_n20_3_0_render_standard_setup(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_standard(&d);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"n20\""));
    /* every unit on the map is a counter at its set-up hex [3.0] */
    int onmap = 0;
    for (int u = 0; u < s->sc->nunits; u++) {
        if (s->u[u].where != N20_U_MAP || !r_listed(s, u)) continue;
        char want[96];
        snprintf(want, sizeof want, "<g class=\"counter\" id=\"u-%s\" data-unit=\"%s\" data-hex=\"%04u\"", n20_uid(s, u),
                 n20_uid(s, u), n20_xxyy(s->u[u].hex));
        if (!strstr(svg, want)) fail_msg("no %s", want);
        onmap++;
    }
    assert_int_equal(r_count(svg, "<g class=\"counter\""), onmap);
    assert_non_null(strstr(svg, ">3-2</text>")); /* GARDE (3-2) */
    /* the map: every hex once, with its provenance on hover */
    assert_int_equal(r_count(svg, "<g class=\"hex\""), s->sc->rows * s->sc->cols);
    assert_non_null(strstr(svg, "<g class=\"hex\" data-hex=\"0105\" data-terrain=\"town\" data-provenance="
                                "\"RECONSTRUCTED\"><title>0105 town: RECONSTRUCTED Charleroi;"));
    assert_non_null(strstr(svg, "<title>0101 clear: RECONSTRUCTED default terrain</title>"));
    assert_non_null(strstr(svg, ">Quatre Bras</text>"));
    assert_non_null(strstr(svg, "class=\"river major\""));
    assert_non_null(strstr(svg, "<line class=\"bridge\""));
    assert_non_null(strstr(svg, "<line class=\"ford\""));
    assert_non_null(strstr(svg, "class=\"loc\" data-army=\"prussian\" data-hex=\"0812\""));
    assert_non_null(strstr(svg, "class=\"objective\" data-side=\"french\" data-hex=\"1104\""));
    /* the tracks: Turn 9, French 8, Allied 7 [3.0] */
    assert_non_null(strstr(svg, "<g class=\"turns\" data-turn=\"9\">"));
    assert_non_null(strstr(svg, "<g class=\"morale\" data-side=\"french\" data-value=\"8\">"));
    assert_non_null(strstr(svg, "<g class=\"morale\" data-side=\"allied\" data-value=\"7\">"));
    r_golden("tests/golden/n20-standard-all.svg", svg);
    free(svg);
    free(s);
}

/* the same bytes twice, from a clone, and for every viewpoint well-formed */
static void test_n20_render_deterministic(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_standard(&d);
    n20_state *c = malloc(sizeof *c);
    memcpy(c, s, sizeof *c);
    brt_render_ctx ctx = {NULL, 0, -1, "Standard set-up & <caption>"};
    int vps[4] = {BRT_VIEW_ALL, BRT_VIEW_PUBLIC, 0, 1};
    for (int k = 0; k < 4; k++) {
        char *a = r_render(s, vps[k], &ctx), *b = r_render(s, vps[k], &ctx), *e = r_render(c, vps[k], &ctx);
        assert_string_equal(a, b);
        assert_string_equal(a, e);
        r_wellformed(a);
        assert_non_null(strstr(a, "Standard set-up &amp; &lt;caption&gt;"));
        free(a);
        free(b);
        free(e);
    }
    /* the ruleset table draws the same picture, and so does the ruleset's own clone */
    const brt_ruleset *rs = brt_ruleset_find("n20");
    assert_non_null(rs);
    assert_non_null(rs->render);
    void *rc = rs->clone(s);
    assert_non_null(rc);
    brt_buf t1, t2;
    buf_init(&t1);
    buf_init(&t2);
    assert_int_equal(rs->render(rc, BRT_VIEW_PUBLIC, &ctx, &t1), 0);
    assert_int_equal(n20_render(s, BRT_VIEW_PUBLIC, &ctx, &t2), 0);
    assert_int_equal(t1.len, t2.len);
    assert_memory_equal(t1.data, t2.data, t1.len);
    buf_free(&t1);
    buf_free(&t2);
    rs->destroy(rc);
    /* a viewpoint that is no seat is refused */
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_render(s, 2, NULL, &b), -1);
    assert_int_equal(n20_render(s, -3, NULL, &b), -1);
    buf_free(&b);
    free(c);
    free(s);
}

static int r_stop_battles(const n20_state *s, const uint8_t *o, size_t len) {
    N20__V1__Order *ord = n20__v1__order__unpack(NULL, len, o);
    int path = ord && ((ord->kind_case == N20__V1__ORDER__KIND_RETREAT && ord->retreat->n_path > 0) ||
                       (ord->kind_case == N20__V1__ORDER__KIND_ADVANCE && ord->advance->n_path > 0));
    n20__v1__order__free_unpacked(ord, NULL);
    int open = 0;
    for (int b = 0; b < s->nbattles; b++) open += !s->b[b].done;
    return path && s->nbattles >= 2 && open >= 1;
}

/* [9.2] the declared battles as arrows with their numbers, and [9.7] the last retreat's path */
static void test_n20_9_2_render_battle_arrows(void **st) {
    (void)st;
    uint8_t last[512];
    size_t ll;
    int seat;
    n20_state *s = r_play(0, 3, r_stop_battles, last, &ll, &seat);
    assert_false(s->over);
    assert_true(s->nbattles >= 2);
    brt_render_ctx ctx = {last, ll, seat, "a battle's retreat"};
    char *svg = r_render(s, BRT_VIEW_ALL, &ctx);
    r_wellformed(svg);
    /* one arrow group per battle with units on the map on both sides */
    int want = 0;
    for (int b = 0; b < s->nbattles; b++) {
        int att = 0, def = 0;
        for (int i = 0; i < s->b[b].natt; i++) att += s->u[s->b[b].att[i]].where == N20_U_MAP;
        for (int i = 0; i < s->b[b].ndef; i++) def += s->u[s->b[b].def[i]].where == N20_U_MAP;
        char g[64];
        snprintf(g, sizeof g, "data-battle=\"%d\">", b + 1);
        if (att && def) {
            want++;
            assert_non_null(strstr(svg, g));
        }
    }
    assert_true(want >= 1);
    assert_true(r_count(svg, "marker-end=\"url(#n20-arrow)\"") - 1 /* the legend's */ >= want);
    assert_non_null(strstr(svg, "<g class=\"last-move\" data-order="));
    assert_non_null(strstr(svg, "Declared battles"));
    r_golden("tests/golden/n20-battles-all.svg", svg);
    free(svg);
    free(s);
}

/* [15.0] a finished game: the result on the picture */
static void test_n20_15_0_render_finished_game(void **st) {
    (void)st;
    uint8_t last[512];
    size_t ll;
    int seat;
    n20_state *s = r_play(0, 5, NULL, last, &ll, &seat);
    assert_true(s->over);
    brt_result res;
    n20_result(s, &res);
    brt_render_ctx ctx = {last, ll, seat, NULL};
    char *svg = r_render(s, BRT_VIEW_ALL, &ctx);
    r_wellformed(svg);
    assert_non_null(strstr(svg, "<g class=\"result\">"));
    brt_buf esc;
    buf_init(&esc);
    buf_append_xml(&esc, res.reason);
    buf_append(&esc, "", 1);
    assert_non_null(strstr(svg, (char *)esc.data));
    buf_free(&esc);
    r_golden("tests/golden/n20-finished-all.svg", svg);
    free(svg);
    free(s);
}

/* the hexes are drawn where map.c's adjacency puts them: two hexes touch on the picture (their
 * centres one hex apart) exactly when n20_neighbor says they are neighbours */
static void test_n20_render_geometry_follows_map_adjacency(void **st) {
    (void)st;
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    assert_non_null(sc);
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_render_map(sc, &b), 0);
    buf_append(&b, "", 1);
    static int cx[N20_HEXES], cy[N20_HEXES], have[N20_HEXES];
    memset(have, 0, sizeof have);
    int n = 0;
    for (const char *p = strstr((char *)b.data, "<g class=\"hex\" data-hex=\""); p;
         p = strstr(p + 1, "<g class=\"hex\" data-hex=\"")) {
        unsigned xxyy;
        int x, y;
        assert_int_equal(sscanf(p, "<g class=\"hex\" data-hex=\"%u\"", &xxyy), 1);
        const char *pts = strstr(p, "points=\"");
        assert_non_null(pts);
        assert_int_equal(sscanf(pts, "points=\"%d,%d", &x, &y), 2);
        uint16_t h = n20_hex(xxyy);
        cx[h] = x;
        cy[h] = y + 30; /* the first corner is the top one */
        have[h] = 1;
        n++;
    }
    assert_int_equal(n, sc->rows * sc->cols);
    int pairs = 0;
    for (int a = 0; a < N20_HEXES; a++) {
        if (!have[a]) continue;
        for (int c = 0; c < N20_HEXES; c++) {
            if (!have[c] || c == a) continue;
            int dx = cx[a] - cx[c], dy = cy[a] - cy[c], d2 = dx * dx + dy * dy;
            int touch = d2 <= 52 * 52 + 4; /* 52 across a side, 26 and 45 across a slanted one */
            int adj = n20_dir(sc, (uint16_t)a, (uint16_t)c) >= 0;
            if (touch != adj) fail_msg("%04u and %04u: drawn %s, map.c %s", n20_xxyy((uint16_t)a), n20_xxyy((uint16_t)c),
                                       touch ? "touching" : "apart", adj ? "adjacent" : "not adjacent");
            pairs += adj;
        }
    }
    assert_true(pairs > 2 * sc->rows * sc->cols);
    /* north at the top: row 25 above row 01; west at the left */
    assert_true(cy[n20_hex(2501)] < cy[n20_hex(101)]);
    assert_true(cx[n20_hex(101)] < cx[n20_hex(112)]);
    buf_free(&b);
}

/* [9.6.2] Routed and [8.2.4] In Contact markers on their counters, [5.1] the Good Ground marker,
 * and several units in one hex each offset so that each stays visible */
static void test_n20_9_6_2_render_markers_and_stacks(void **st) {
    (void)st;
    T_SETUP(9, N20_FRENCH, N20_PH_MOVE);
    int g = t_place(s, "GARDE", 707), v = t_place(s, "VANDAMME", 707), z = t_place(s, "ZIETEN", 808);
    assert_true(g >= 0 && v >= 0 && z >= 0);
    s->u[g].routed = 1 + N20_FRENCH;
    s->u[z].flags |= N20_UF_CONTACT;
    s->gg_unit = (uint8_t)z;
    s->gg_immune = 0;
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    assert_int_equal(r_count(svg, "<g class=\"counter\""), 3);
    const char *pg = strstr(svg, "id=\"u-GARDE\""), *pv = strstr(svg, "id=\"u-VANDAMME\""), *pz = strstr(svg, "id=\"u-ZIETEN\"");
    assert_non_null(pg);
    assert_non_null(pv);
    assert_non_null(pz);
    /* each counter's markers are inside its own group */
    const char *eg = strstr(pg, "</g>\n"), *ez = strstr(pz, "</g>\n");
    const char *rg = strstr(pg, "<g class=\"routed\">"), *cz = strstr(pz, "<g class=\"in-contact\">");
    const char *gz = strstr(pz, "<g class=\"good-ground\">");
    assert_true(rg && rg < eg);
    assert_true(cz && cz < ez);
    assert_true(gz && gz < ez);
    const char *ev2 = strstr(pv, "</g>\n"), *rv = strstr(pv, "<g class=\"routed\">");
    assert_true(rv == NULL || rv > ev2); /* VANDAMME is not Routed */
    /* the two counters of 0707 at different places, both at 0707 */
    char tg[64], tv[64];
    assert_int_equal(sscanf(strstr(pg, "transform="), "transform=\"%63[^\"]", tg), 1);
    assert_int_equal(sscanf(strstr(pv, "transform="), "transform=\"%63[^\"]", tv), 1);
    assert_string_not_equal(tg, tv);
    assert_non_null(strstr(pg, "data-hex=\"0707\""));
    assert_non_null(strstr(pv, "data-hex=\"0707\""));
    free(svg);
    free(s);
}

/* ---- fog of war -------------------------------------------------------------------- */

/* a hidden unit's strength-allowance, when no unit visible to vp has the same one, as a
 * counter's text ">S-A<" */
static int r_sa_unique(const n20_state *s, int u, int vp, char out[16]) {
    const n20_unit_def *d = &s->sc->units[u];
    for (int v = 0; v < s->sc->nunits; v++)
        if (v != u && r_listed(s, v) && !n20_fog_hidden_from(s, v, vp) && s->sc->units[v].strength == d->strength &&
            s->sc->units[v].allowance == d->allowance)
            return 0;
    snprintf(out, 16, ">%u-%u<", d->strength, d->allowance);
    return 1;
}

static void r_fog_check(const n20_state *s, const brt_render_ctx *ctx, int *hidden_seen) {
    int vps[3] = {N20_FRENCH, N20_ALLIED, BRT_VIEW_PUBLIC};
    for (int k = 0; k < 3; k++) {
        char *svg = r_render(s, vps[k], ctx);
        r_wellformed(svg);
        int blocks = 0;
        for (int u = 0; u < s->sc->nunits; u++) {
            if (!r_listed(s, u) || !n20_fog_hidden_from(s, u, vps[k])) continue;
            const char *id = n20_uid(s, u);
            if (strstr(svg, id)) fail_msg("viewpoint %d: the picture names hidden %s", vps[k], id);
            char sa[16];
            if (r_sa_unique(s, u, vps[k], sa) && strstr(svg, sa))
                fail_msg("viewpoint %d: hidden %s's %s is drawn", vps[k], id, sa);
            if (s->u[u].where == N20_U_MAP) blocks++;
        }
        /* [16.1] each hidden unit on the map is an anonymous block at its hex */
        assert_int_equal(r_count(svg, "<g class=\"block\""), blocks);
        *hidden_seen += blocks;
        free(svg);
    }
    char *all = r_render(s, BRT_VIEW_ALL, ctx);
    for (int u = 0; u < s->sc->nunits; u++) {
        if (!r_listed(s, u) || s->u[u].where != N20_U_MAP) continue;
        char want[64];
        snprintf(want, sizeof want, "id=\"u-%s\"", n20_uid(s, u));
        if (!strstr(all, want)) fail_msg("BRT_VIEW_ALL lacks %s", want);
    }
    assert_int_equal(r_count(all, "<g class=\"block\""), 0);
    free(all);
}

static int r_stop_fog_move(const n20_state *s, const uint8_t *o, size_t len) {
    N20__V1__Order *ord = n20__v1__order__unpack(NULL, len, o);
    int mv = ord && ord->kind_case == N20__V1__ORDER__KIND_MOVE;
    int u = mv ? n20_unit_find(s, ord->move->unit) : -1;
    n20__v1__order__free_unpacked(ord, NULL);
    return u >= 0 && s->u[u].hidden && s->u[u].where == N20_U_MAP;
}

/* [16.1] fog of war: a seat's picture and the spectators' hold no id of a unit hidden from them
 * (nor its strength-allowance where that would tell), only anonymous blocks; the log's has all */
static void test_n20_16_1_render_hides_face_down_units(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start("waterloo20-standard", N20_OPT_FOG, &d, &out);
    int seen = 0;
    r_fog_check(s, NULL, &seen);
    assert_true(seen > 0);
    char *svg = r_render(s, N20_ALLIED, NULL);
    r_golden("tests/golden/n20-fog-allied.svg", svg);
    free(svg);
    free(s);
    /* a hidden unit's move: its owner sees the path, the other seat and the spectators do not */
    uint8_t last[512];
    size_t ll;
    int seat;
    s = r_play(N20_OPT_FOG, 7, r_stop_fog_move, last, &ll, &seat);
    assert_false(s->over);
    brt_render_ctx ctx = {last, ll, seat, NULL};
    seen = 0;
    r_fog_check(s, &ctx, &seen);
    char *own = r_render(s, seat, &ctx), *other = r_render(s, 1 - seat, &ctx), *pub = r_render(s, BRT_VIEW_PUBLIC, &ctx);
    assert_non_null(strstr(own, "<g class=\"last-move\" data-order=\"move\""));
    assert_null(strstr(other, "data-order="));
    assert_null(strstr(pub, "data-order="));
    free(own);
    free(other);
    free(pub);
    /* and at the end of fog games */
    free(s);
    for (uint64_t seed = 11; seed < 14; seed++) {
        s = r_play(N20_OPT_FOG, seed, NULL, last, &ll, &seat);
        ctx = (brt_render_ctx){last, ll, seat, NULL};
        r_fog_check(s, &ctx, &seen);
        free(s);
    }
}

static int r_stop_scheduled(const n20_state *s, const uint8_t *o, size_t len) {
    (void)o;
    (void)len;
    int sched = 0;
    for (int u = 0; u < s->sc->nunits; u++) sched += (s->u[u].flags & N20_UF_SCHEDULED) != 0;
    return sched > 0 && s->phasing == N20_ALLIED;
}

/* [17.1.1] the French player's secret schedule: while a scheduled unit has not arrived, neither the
 * Allied seat's picture nor the spectators' names it; the French seat's lists it */
static void test_n20_17_1_1_render_hides_scheduled_units(void **st) {
    (void)st;
    uint8_t last[512];
    size_t ll;
    int seat, seen = 0;
    n20_state *s = r_play_sc("waterloo20-extended", N20_OPT_SAMBRE | N20_OPT_BREAKDOWN | N20_OPT_FOG, 17,
                             r_stop_scheduled, last, &ll, &seat);
    assert_false(s->over);
    brt_render_ctx ctx = {last, ll, seat, NULL};
    r_fog_check(s, &ctx, &seen);
    char *fr = r_render(s, N20_FRENCH, &ctx), *al = r_render(s, N20_ALLIED, &ctx);
    int checked = 0;
    for (int u = 0; u < s->sc->nunits; u++) {
        if (!(s->u[u].flags & N20_UF_SCHEDULED) || !r_listed(s, u)) continue;
        assert_true(n20_fog_hidden_from(s, u, N20_ALLIED));
        assert_null(strstr(al, n20_uid(s, u)));
        assert_non_null(strstr(fr, n20_uid(s, u)));
        checked++;
    }
    assert_true(checked > 0);
    free(fr);
    free(al);
    free(s);
}

/* ---- documentation pictures ---------------------------------------------------------- */

/* docs/img: the Standard set-up (README.md, rules/n20/README.md) and the bare map with its
 * provenance (docs/n20-data.md) are what the renderer draws now */
static void test_n20_render_docs_pictures(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_standard(&d);
    char *svg = r_render(s, BRT_VIEW_ALL, &(brt_render_ctx){NULL, 0, -1, "Waterloo 20, Standard set-up [3.0] (the map is RECONSTRUCTED)"});
    r_wellformed(svg);
    r_golden("docs/img/waterloo20-standard.svg", svg);
    free(svg);
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_render_map(s->sc, &b), 0);
    buf_append(&b, "", 1);
    const char *map = (const char *)b.data;
    r_wellformed(map);
    assert_null(strstr(map, "class=\"counter\""));
    /* every hex hatched (RECONSTRUCTED) or outlined (RULEBOOK) */
    assert_int_equal(r_count(map, "class=\"prov-reconstructed\"") + r_count(map, "class=\"prov-rulebook\""),
                     s->sc->rows * s->sc->cols);
    r_golden("docs/img/waterloo20-map.svg", map);
    buf_free(&b);
    free(s);
}

/* the scenario data keeps each hex's provenance and the named places */
static void test_n20_render_data_provenance(void **st) {
    (void)st;
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    assert_non_null(sc);
    int rb = -1;
    assert_string_equal(n20_hex_provenance(sc, n20_hex(1104), &rb), "RECONSTRUCTED Quatre Bras; the text names no terrain per hex");
    assert_int_equal(rb, 0);
    assert_string_equal(n20_hex_provenance(sc, n20_hex(101), &rb), "RECONSTRUCTED default terrain");
    assert_true(sc->nlabels >= 4);
    int qb = 0;
    for (int i = 0; i < sc->nlabels; i++)
        if (sc->labels[i].hex == n20_hex(1104)) {
            qb = 1;
            assert_string_equal(sc->labels[i].name, "Quatre Bras");
            assert_int_equal(strncmp(sc->prov[sc->labels[i].prov], "RULEBOOK 14.0", 13), 0);
        }
    assert_true(qb);
    /* the scenarios on the same map take its places ([17.0] base ... map) */
    const n20_scenario *ext = n20_scenario_get("waterloo20-extended");
    assert_non_null(ext);
    assert_int_equal(ext->nlabels, sc->nlabels);
    /* a label record without a quoted name does not parse */
    const char *bad = "grid 2 2 | RECONSTRUCTED\nlabel 0101 Nowhere | RECONSTRUCTED\n";
    n20_scenario *t = malloc(sizeof *t);
    char msg[128];
    assert_int_equal(n20_data_parse(bad, strlen(bad), t, msg, sizeof msg), -1);
    free(t);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_3_0_render_standard_setup),
        cmocka_unit_test(test_n20_render_deterministic),
        cmocka_unit_test(test_n20_9_2_render_battle_arrows),
        cmocka_unit_test(test_n20_15_0_render_finished_game),
        cmocka_unit_test(test_n20_9_6_2_render_markers_and_stacks),
        cmocka_unit_test(test_n20_render_geometry_follows_map_adjacency),
        cmocka_unit_test(test_n20_16_1_render_hides_face_down_units),
        cmocka_unit_test(test_n20_17_1_1_render_hides_scheduled_units),
        cmocka_unit_test(test_n20_render_docs_pictures),
        cmocka_unit_test(test_n20_render_data_provenance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
