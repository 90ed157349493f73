/*
 * test_n20_render_danube.c - the Danube 20 pictures (rules/n20/render.c, docs/render.md
 * "Danube 20"): each scenario's set-up draws as well-formed SVG, the map turned so that it reads
 * like the ground, each marker with its state (the crossing sites [3.0], the Pontoon Bridges
 * [6.10], the Bridgehead [9.10], the Lobau bridges and Crossings Secured [6.10.1], the
 * Floridsdorf pontoon [16.10], inactive units [6.11], Garrisons and Batteries [9.4.4] [9.11]),
 * hidden units anonymous to the other seat [16.1], and the goldens tests/golden/n20-dn-*.svg and
 * the pictures docs/img/aspern-essling20-*.svg, wagram20-*.svg, marchfeld-setup.svg.
 *
 * BERTHIER_UPDATE_GOLDEN=1 rewrites the goldens and pictures instead of comparing them.
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

/* the picture as a NUL-terminated string (free it) */
static char *r_render(const n20_state *s, int vp, const char *caption) {
    brt_buf b;
    buf_init(&b);
    brt_render_ctx ctx = {NULL, 0, -1, caption};
    assert_int_equal(n20_render(s, vp, caption ? &ctx : NULL, &b), 0);
    buf_append(&b, "", 1);
    char *str = malloc(b.len);
    assert_non_null(str);
    memcpy(str, b.data, b.len);
    buf_free(&b);
    return str;
}

static char *r_map(const n20_scenario *sc) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_render_map(sc, &b), 0);
    buf_append(&b, "", 1);
    char *str = malloc(b.len);
    assert_non_null(str);
    memcpy(str, b.data, b.len);
    buf_free(&b);
    return str;
}


/* with BERTHIER_DN_RENDER_OUT=DIR, a case's picture is also written to DIR/NAME.svg to look at */
static void r_out(const char *name, const char *svg) {
    const char *dir = getenv("BERTHIER_DN_RENDER_OUT");
    if (!dir) return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(svg, f);
    fclose(f);
}

static int r_count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* the centre "cx,cy" the picture gives hex xxyy (its polygon's first corner, rather) */
static void r_corner(const char *svg, unsigned xxyy, int *x, int *y) {
    char key[48];
    snprintf(key, sizeof key, "<g class=\"hex\" data-hex=\"%04u\"", xxyy);
    const char *p = strstr(svg, key);
    assert_non_null(p);
    p = strstr(p, "<polygon points=\"");
    assert_non_null(p);
    assert_int_equal(sscanf(p + 17, "%d,%d", x, y), 2);
}

/* split the picture in place at the panel: svg keeps the map, the result is the panel (whose legend
 * draws a sample of each mark) */
static char *r_panel(char *svg) {
    char *p = strstr(svg, "<g class=\"panel\">");
    assert_non_null(p);
    size_t n = strlen(p) + 1;
    char *pn = malloc(n);
    assert_non_null(pn);
    memcpy(pn, p, n);
    *p = 0;
    return pn;
}

/* an A-E game with the crossing site chosen (NULL: before the choice) */
static n20_state *r_ae(t_dice *d, uint32_t opts, const char *site) {
    n20_state *s = t_setup("aspern-essling20", opts, d, NULL);
    n20_run(s, &d->d, NULL);
    if (site) {
        char o[40];
        snprintf(o, sizeof o, "site %s", site);
        assert_int_equal(t_order(s, N20_FRENCH, o, d, NULL, NULL), 0);
    }
    return s;
}

/* wagram20 set up, its I, II and IV deployed on the first free Heights hexes */
static n20_state *r_wagram(t_dice *d, uint32_t opts) {
    n20_state *s = t_setup("wagram20", opts, d, NULL);
    n20_run(s, &d->d, NULL);
    const char *ids[3] = {"I", "II", "IV"};
    for (int i = 0; i < 3; i++) {
        unsigned h = 0;
        for (int k = 0; k < N20_HEXES && !h; k++)
            if (s->sc->onmap[k] && (s->sc->dn.zone[k] & N20_Z_HEIGHTS) && n20_unit_at(s, (uint16_t)k) < 0)
                h = n20_xxyy((uint16_t)k);
        char o[40];
        snprintf(o, sizeof o, "deploy %s %04u", ids[i], h);
        assert_int_equal(t_order(s, N20_ALLIED, o, d, NULL, NULL), 0);
    }
    return s;
}

/* ---- the map ------------------------------------------------------------------------------ */

/* `map-turn 90`: YY 01 (the north-eastern edge, the Russbach Heights) at the top, YY 14 (the Danube)
 * at the bottom, XX 01 (the north-western edge) at the left and XX 21 at the right; every hex once */
static void test_n20_dn_render_map_reads_like_the_ground(void **st) {
    (void)st;
    const char *ids[] = {"aspern-essling20", "wagram20", "marchfeld"};
    for (int i = 0; i < 3; i++) {
        const n20_scenario *sc = n20_scenario_get(ids[i]);
        assert_non_null(sc);
        assert_int_equal(sc->dn.map_turn, 1);
        char *svg = r_map(sc);
        r_wellformed(svg);
        assert_int_equal(r_count(svg, "<g class=\"hex\" data-hex=\""), sc->rows * sc->cols);
        int x1, y1, x2, y2, x3, y3;
        r_corner(svg, 101, &x1, &y1);
        r_corner(svg, 114, &x2, &y2);  /* the Danube side */
        r_corner(svg, 2101, &x3, &y3); /* the south-eastern edge */
        assert_true(y2 > y1 + 500);
        assert_true(x3 > x1 + 800);
        /* the Heights and Lobau outlined */
        assert_non_null(strstr(svg, "<g class=\"zone lobau\">"));
        assert_non_null(strstr(svg, "<g class=\"zone heights\">"));
        free(svg);
    }
    /* Waterloo 20 keeps its picture: no turn, no Danube marks */
    const n20_scenario *w = n20_scenario_get("waterloo20-standard");
    assert_int_equal(w->dn.map_turn, 0);
    char *svg = r_map(w);
    assert_null(strstr(svg, "class=\"danube\""));
    free(svg);
}

static n20_scenario r_tmp;

/* the `map-turn` record: quarter turns only; taken with the map by `base ... map` */
static void test_n20_dn_render_map_turn_record(void **st) {
    (void)st;
    static const struct { const char *rec; int rc, turn; } cases[] = {
        {"", 0, 1}, {"map-turn 0 | RECONSTRUCTED test\n", 0, 0}, {"map-turn 270 | RECONSTRUCTED test\n", 0, 3},
        {"map-turn 45 | RECONSTRUCTED test\n", -1, 0}, {"map-turn 360 | RECONSTRUCTED test\n", -1, 0},
        {"map-turn | RECONSTRUCTED test\n", -1, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "base aspern-essling20 map | RULEBOOK test\nscenario t | RULEBOOK test\nstart-turn 1 | RULEBOOK test\n"
                 "last-turn 5 | RULEBOOK test\nunit X french french inf 1 2 - hex 1714 | RULEBOOK test\n%s",
                 cases[i].rec);
        assert_int_equal(n20_data_parse(text, strlen(text), &r_tmp, NULL, 0), cases[i].rc);
        if (cases[i].rc == 0) assert_int_equal(r_tmp.dn.map_turn, cases[i].turn);
    }
    /* a half turn of the unturned picture (XX 01 at the bottom, YY 01 at the left): YY 14 at the left, XX 21 at the bottom */
    const char *half = "base aspern-essling20 map | RULEBOOK test\nscenario t | RULEBOOK test\nstart-turn 1 | RULEBOOK "
                       "test\nlast-turn 5 | RULEBOOK test\nunit X french french inf 1 2 - hex 1714 | RULEBOOK test\n"
                       "map-turn 180 | RECONSTRUCTED test\n";
    assert_int_equal(n20_data_parse(half, strlen(half), &r_tmp, NULL, 0), 0);
    char *svg = r_map(&r_tmp);
    r_wellformed(svg);
    int x1, y1, x2, y2, x3, y3;
    r_corner(svg, 101, &x1, &y1);
    r_corner(svg, 114, &x2, &y2);
    r_corner(svg, 2101, &x3, &y3);
    assert_true(x2 < x1 && y3 > y1);
    free(svg);
}

/* ---- Aspern-Essling 20 -------------------------------------------------------------------- */

/* A-E [3.0]: before the French choice every crossing site is a candidate, no pontoon is placed */
static void test_n20_ae_3_0_render_every_site_before_the_choice(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, NULL);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_3_0_render_every_site_before_the_choice-0", svg);
    char *pn = r_panel(svg);
    assert_int_equal(r_count(svg, "<g class=\"site candidate\""), 5);
    assert_int_equal(r_count(svg, "class=\"site-star\""), 5);
    assert_null(strstr(svg, "class=\"pontoon-marker\""));
    assert_null(strstr(svg, "class=\"bridgehead\""));
    assert_null(strstr(svg, "site-objective"));
    assert_non_null(strstr(pn, "Crossing site: not chosen yet [3.0]"));
    /* A-E [14.1] the four yellow stars */
    assert_int_equal(r_count(svg, "<g class=\"home-ground\""), 4);
    free(svg);
    free(pn);
    free(s);
}

/* A-E [3.0]: the chosen site: its Pontoon Bridges intact, the Bridgehead standing with its Garrison,
 * the French Objective Hex marker at its Objective, the French LOC of its Entry Area [9.8.6] */
static void test_n20_ae_3_0_render_chosen_site_markers(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, "lobau-west");
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_3_0_render_chosen_site_markers-0", svg);
    char *pn = r_panel(svg);
    assert_int_equal(r_count(svg, "<g class=\"site chosen\" data-site=\"lobau-west\""), 1);
    assert_int_equal(r_count(svg, "<g class=\"site not-chosen\""), 4);
    assert_non_null(strstr(svg, "<g class=\"pontoon\" data-state=\"intact\" data-side=\"1511-1611\""));
    assert_non_null(strstr(svg, "<g class=\"pontoon-marker\" data-state=\"intact\" data-hex=\"1611\""));
    assert_non_null(strstr(svg, "<g class=\"bridgehead\" data-state=\"standing\" data-hex=\"1511\""));
    assert_non_null(strstr(svg, "class=\"objective site-objective\" data-side=\"french\" data-hex=\"1510\""));
    assert_non_null(strstr(svg, "<g class=\"loc\" data-army=\"french\" data-hex=\"1714\""));
    assert_non_null(strstr(svg, "<g class=\"garrison\" data-unit=\"BRIDGEHEAD\" data-hex=\"1511\""));
    assert_non_null(strstr(pn, "Pontoon Bridges: intact; Bridgehead 1511: standing"));
    /* [3.0] *** the reinforcements arrive via the Entry Area of the chosen site (A for Lobau) */
    assert_non_null(strstr(pn, "2eA (T1 A)"));
    assert_null(strstr(pn, " *)"));
    free(svg);
    free(pn);
    free(s);
}

/* A-E [6.10.1]: a Damaged Pontoon Bridges marker (flipped to its "Damaged" side) */
static void test_n20_ae_6_10_1_render_pontoon_damaged(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, "lackenau");
    s->dn.pontoon[0] = N20_PON_DAMAGED;
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_6_10_1_render_pontoon_damaged-0", svg);
    char *pn = r_panel(svg);
    assert_non_null(strstr(svg, "<g class=\"pontoon\" data-state=\"damaged\" data-side=\"0512-0513\""));
    assert_non_null(strstr(svg, "<g class=\"pontoon-marker\" data-state=\"damaged\" data-hex=\"0513\""));
    assert_non_null(strstr(pn, "Pontoon Bridges: Damaged"));
    assert_null(strstr(svg, "data-state=\"intact\""));
    free(svg);
    free(pn);
    free(s);
}

/* A-E [9.10.1] the Catastrophe: the Bridgehead fallen and the Pontoon Bridges destroyed */
static void test_n20_ae_9_10_1_render_bridgehead_fallen_pontoon_destroyed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, "lobau-east");
    s->dn.pontoon[0] = N20_PON_DESTROYED;
    s->dn.bridgehead[0] = 0;
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_9_10_1_render_bridgehead_fallen_pontoon_destroyed-0", svg);
    char *pn = r_panel(svg);
    assert_non_null(strstr(svg, "<g class=\"pontoon\" data-state=\"destroyed\" data-side=\"1811-1812\""));
    assert_non_null(strstr(svg, "<g class=\"bridgehead\" data-state=\"fallen\" data-hex=\"1811\""));
    assert_null(strstr(svg, "data-state=\"standing\""));
    assert_non_null(strstr(pn, "Bridgehead 1811: fallen"));
    free(svg);
    free(pn);
    free(s);
}

/* A-E [3.0] [6.11] Fischamend: the Pontoon Bridges marker in the Fischamend Holding Box, no Bridgehead */
static void test_n20_ae_6_11_render_pontoon_in_the_fischamend_box(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, "fischamend");
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_6_11_render_pontoon_in_the_fischamend_box-0", svg);
    char *pn = r_panel(svg);
    assert_non_null(strstr(svg, "<g class=\"pontoon in-box\" data-state=\"intact\" data-hex=\"2110\""));
    assert_null(strstr(svg, "class=\"bridgehead\""));
    assert_non_null(strstr(pn, "in the Fischamend Holding Box"));
    assert_non_null(strstr(svg, "class=\"objective site-objective\" data-side=\"french\" data-hex=\"1909\""));
    free(svg);
    free(pn);
    free(s);
}

/* A-E [17.3] Bertrand: the second site's own Pontoon Bridges, Bridgehead and Objective markers */
static void test_n20_ae_17_3_render_second_site(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, N20_OPT_BERTRAND, "lobau-west");
    s->dn.site2 = 4; /* lobau-east */
    s->dn.pontoon[1] = N20_PON_INTACT;
    s->dn.bridgehead[1] = 1;
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_ae_17_3_render_second_site-0", svg);
    char *pn = r_panel(svg);
    assert_int_equal(r_count(svg, "<g class=\"site chosen\""), 2);
    assert_int_equal(r_count(svg, "<g class=\"bridgehead\" data-state=\"standing\""), 2);
    assert_non_null(strstr(svg, "class=\"objective site-objective\" data-side=\"french\" data-hex=\"1710\""));
    assert_non_null(strstr(pn, "Second [17.3] site: lobau-east"));
    free(svg);
    free(pn);
    free(s);
}

/* ---- Wagram 20 and the Marchfeld ------------------------------------------------------------- */

/* Wagram [6.10.1]: the three incomplete Lobau bridges outlined white, 1510 and 1710 marked, until
 * the Crossings are Secured; then normal bridges */
static void test_n20_wg_6_10_1_render_incomplete_bridges_then_secured(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_wagram(&d, 0);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_wg_6_10_1_render_incomplete_bridges_then_secured-0", svg);
    char *pn = r_panel(svg);
    assert_int_equal(r_count(svg, "<g class=\"incomplete-bridge\" data-state=\"incomplete\""), 3);
    assert_non_null(strstr(svg, "data-state=\"incomplete\" data-side=\"1511-1611\""));
    assert_int_equal(r_count(svg, "<g class=\"secure\""), 2);
    assert_non_null(strstr(pn, "Crossings Secured [6.10.1]: no"));
    free(svg);
    free(pn);
    s->dn.secured = 1;
    svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_wg_6_10_1_render_incomplete_bridges_then_secured-1", svg);
    pn = r_panel(svg);
    assert_int_equal(r_count(svg, "<g class=\"incomplete-bridge\" data-state=\"complete\""), 3);
    assert_null(strstr(svg, "data-state=\"incomplete\""));
    assert_null(strstr(svg, "<g class=\"secure\""));
    assert_non_null(strstr(pn, "Crossings Secured [6.10.1]: yes"));
    free(svg);
    free(pn);
    free(s);
}

/* Wagram [3.0]: a reinforcement sent to its other Entry Area is listed with that area and turn */
static void test_n20_wg_3_0_render_reinforcement_sent_to_its_other_area(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_wagram(&d, 0);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    char *pn = r_panel(svg);
    assert_non_null(strstr(pn, "GRAND-BATTERY (T5 A)"));
    free(svg);
    free(pn);
    s->turn = 5;
    n20_wg_alt_apply(s, t_unit(s, "GRAND-BATTERY"), NULL);
    svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    pn = r_panel(svg);
    assert_non_null(strstr(pn, "GRAND-BATTERY (T8 B)"));
    free(svg);
    free(pn);
    free(s);
}

/* Marchfeld [18.0] #3: Crossings Secured from the start */
static void test_n20_wg_18_0_render_marchfeld_secured_from_the_start(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_setup("marchfeld", 0, &d, NULL);
    n20_run(s, &d.d, NULL);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_wg_18_0_render_marchfeld_secured_from_the_start-0", svg);
    char *pn = r_panel(svg);
    assert_null(strstr(svg, "data-state=\"incomplete\""));
    assert_non_null(strstr(pn, "Crossings Secured [6.10.1]: yes"));
    free(svg);
    free(pn);
    free(s);
}

/* Wagram [16.10]: the Floridsdorf pontoon: the Damaged marker (not built), built, destroyed; not
 * drawn without the option */
static void test_n20_wg_16_10_render_floridsdorf_pontoon_states(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_wagram(&d, 0);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    assert_null(strstr(svg, "class=\"floridsdorf"));
    free(svg);
    free(s);
    t_dice_init(&d, 1);
    s = r_wagram(&d, N20_OPT_FLORIDSDORF);
    static const struct { int flor; const char *state; } cases[] = {
        {N20_PON_NONE, "unbuilt"}, {N20_PON_INTACT, "built"}, {N20_PON_DESTROYED, "destroyed"}};
    for (int i = 0; i < 3; i++) {
        s->dn.flor = (uint8_t)cases[i].flor;
        svg = r_render(s, BRT_VIEW_ALL, NULL);
        r_wellformed(svg);
        r_out("n20_wg_16_10_render_floridsdorf_pontoon_states-0", svg);
        char *pn = r_panel(svg);
        char want[96];
        snprintf(want, sizeof want, "<g class=\"floridsdorf\" data-state=\"%s\" data-side=\"0713-0714\"", cases[i].state);
        assert_non_null(strstr(svg, want));
        snprintf(want, sizeof want, "Floridsdorf pontoon [16.10]: %s", cases[i].state);
        assert_non_null(strstr(pn, want));
        free(svg);
        free(pn);
    }
    /* [9.8.6] the LOC at 0714 once French units crossed there */
    svg = r_render(s, BRT_VIEW_ALL, NULL);
    assert_null(strstr(svg, "<g class=\"loc\" data-army=\"french\" data-hex=\"0714\""));
    free(svg);
    s->dn.flor = N20_PON_INTACT;
    s->dn.flor_used = 1;
    svg = r_render(s, BRT_VIEW_ALL, NULL);
    assert_non_null(strstr(svg, "<g class=\"loc\" data-army=\"french\" data-hex=\"0714\""));
    free(svg);
    free(s);
}

/* Wagram [6.11]: an inactive unit is flipped face-down without Fog of War, face-up and rotated 180
 * degrees with it; released (Turn 8) it is drawn as any unit */
static void test_n20_wg_6_11_render_inactive_flipped_or_rotated(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_wagram(&d, 0);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    r_wellformed(svg);
    r_out("n20_wg_6_11_render_inactive_flipped_or_rotated-0", svg);
    char *pn = r_panel(svg);
    assert_non_null(strstr(svg, "<g class=\"counter inactive flipped\" id=\"u-III\""));
    assert_null(strstr(svg, "rotate(180"));
    int inactive = r_count(svg, "class=\"counter inactive");
    assert_true(inactive >= 5);
    free(svg);
    free(pn);
    s->turn = s->sc->dn.caution_turn;
    svg = r_render(s, BRT_VIEW_ALL, NULL);
    assert_null(strstr(svg, "class=\"counter inactive"));
    assert_non_null(strstr(svg, "<g class=\"counter\" id=\"u-III\""));
    free(svg);
    free(s);
    t_dice_init(&d, 1);
    s = r_wagram(&d, N20_OPT_FOG);
    s->u[t_unit(s, "III")].hidden = 0; /* face-up [6.11] */
    svg = r_render(s, N20_ALLIED, NULL);
    r_wellformed(svg);
    r_out("n20_wg_6_11_render_inactive_flipped_or_rotated-1", svg);
    const char *p = strstr(svg, "<g class=\"counter inactive rotated\" id=\"u-III\"");
    assert_non_null(p);
    assert_non_null(strstr(p, "<g transform=\"rotate(180 17 17)\">"));
    free(svg);
    free(s);
}

/* Wagram [9.10] [9.11] the 1511 Garrison and the Lobau Island Batteries: flags of their hexes */
static void test_n20_wg_9_11_render_garrison_and_batteries(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_wagram(&d, 0);
    char *svg = r_render(s, BRT_VIEW_ALL, NULL);
    assert_non_null(strstr(svg, "<g class=\"garrison\" data-unit=\"BRIDGEHEAD\" data-hex=\"1511\""));
    assert_non_null(strstr(svg, "<g class=\"garrison\" data-unit=\"BATTERY-1512\" data-hex=\"1512\""));
    assert_non_null(strstr(svg, "<g class=\"garrison\" data-unit=\"BATTERY-1610\" data-hex=\"1610\""));
    assert_int_equal(r_count(svg, "Garrison Force, Battery"), 2);
    const char *g = strstr(svg, "data-unit=\"BATTERY-1512\"");
    assert_non_null(g);
    const char *end = strstr(g, "</g>"), *dot = strstr(g, "<circle");
    assert_true(dot && dot < end); /* the gun's dot on a Battery's flag, none on the Garrison's */
    g = strstr(svg, "data-unit=\"BRIDGEHEAD\"");
    end = strstr(g, "</g>");
    dot = strstr(g, "<circle");
    assert_true(!dot || dot > end);
    free(svg);
    free(s);
}

/* [16.1] Wagram [3.0]: under Fog of War the Austrian deployment shows the French seat only
 * anonymous blocks, never a unit's id; the Austrian seat sees its own units */
static void test_n20_wg_16_1_render_hidden_deployment_anonymous(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_setup("wagram20", N20_OPT_FOG, &d, NULL);
    n20_run(s, &d.d, NULL);
    unsigned h = 0;
    for (int k = 0; k < N20_HEXES && !h; k++)
        if (s->sc->onmap[k] && (s->sc->dn.zone[k] & N20_Z_HEIGHTS) && n20_unit_at(s, (uint16_t)k) < 0)
            h = n20_xxyy((uint16_t)k);
    char o[40];
    snprintf(o, sizeof o, "deploy I %04u", h);
    assert_int_equal(t_order(s, N20_ALLIED, o, &d, NULL, NULL), 0);
    char *fr = r_render(s, N20_FRENCH, NULL), *au = r_render(s, N20_ALLIED, NULL);
    r_wellformed(fr);
    r_wellformed(au);
    int hidden = 0;
    for (int u = 0; u < s->sc->nunits; u++) {
        if (s->u[u].where != N20_U_MAP || n20_side_of(s, u) != N20_ALLIED) continue;
        char key[64];
        snprintf(key, sizeof key, "data-unit=\"%s\"", s->sc->units[u].id);
        if (n20_fog_hidden_from(s, u, N20_FRENCH)) {
            hidden++;
            assert_null(strstr(fr, key));
        }
        assert_non_null(strstr(au, key));
    }
    assert_true(hidden > 0);
    assert_int_equal(r_count(fr, "<g class=\"block\" data-side=\"allied\""), hidden);
    /* the deployed I Corps at its hex, a block for the French seat */
    char key[64];
    snprintf(key, sizeof key, "<g class=\"block\" data-side=\"allied\" data-hex=\"%04u\"", h);
    if (n20_fog_hidden_from(s, t_unit(s, "I"), N20_FRENCH)) assert_non_null(strstr(fr, key));
    /* the units still to deploy are nowhere on the French picture */
    assert_null(strstr(fr, "data-unit=\"II\""));
    assert_null(strstr(fr, "data-unit=\"IV\""));
    free(fr);
    free(au);
    free(s);
}

/* ---- goldens and the documentation pictures -------------------------------------------------- */

/* one set-up per scenario: tests/golden/n20-dn-*.svg (all) and docs/img (the set-ups and the bare maps) */
static void test_n20_dn_render_goldens_and_docs_pictures(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = r_ae(&d, 0, "lobau-west");
    char *svg = r_render(s, BRT_VIEW_ALL, "Aspern-Essling 20 set-up [3.0], crossing site Lobau (west)");
    r_wellformed(svg);
    r_golden("tests/golden/n20-dn-aspern-essling20-setup-all.svg", svg);
    r_golden("docs/img/aspern-essling20-setup.svg", svg);
    free(svg);
    svg = r_map(s->sc);
    r_wellformed(svg);
    r_golden("docs/img/aspern-essling20-map.svg", svg);
    free(svg);
    free(s);
    t_dice_init(&d, 1);
    s = r_wagram(&d, N20_OPT_FLORIDSDORF);
    svg = r_render(s, BRT_VIEW_ALL, "Wagram 20 set-up [3.0], the Austrian deployment done");
    r_wellformed(svg);
    r_golden("tests/golden/n20-dn-wagram20-setup-all.svg", svg);
    r_golden("docs/img/wagram20-setup.svg", svg);
    free(svg);
    free(s);
    /* [16.1] the French seat's picture under Fog of War: the Austrians anonymous blocks */
    t_dice_init(&d, 1);
    s = r_wagram(&d, N20_OPT_FOG);
    svg = r_render(s, N20_FRENCH, "Wagram 20 set-up under Fog of War [16.1], the French seat");
    r_wellformed(svg);
    r_golden("tests/golden/n20-dn-wagram20-fog-french.svg", svg);
    free(svg);
    svg = r_map(s->sc);
    r_wellformed(svg);
    r_golden("docs/img/wagram20-map.svg", svg);
    r_golden("docs/img/danube20-map.svg", svg); /* docs/n20-data.md */
    free(svg);
    free(s);
    t_dice_init(&d, 1);
    s = t_setup("marchfeld", 0, &d, NULL);
    n20_run(s, &d.d, NULL);
    svg = r_render(s, BRT_VIEW_ALL, "The Marchfeld set-up [18.0]");
    r_wellformed(svg);
    r_golden("tests/golden/n20-dn-marchfeld-setup-all.svg", svg);
    r_golden("docs/img/marchfeld-setup.svg", svg);
    free(svg);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_dn_render_map_reads_like_the_ground),
        cmocka_unit_test(test_n20_dn_render_map_turn_record),
        cmocka_unit_test(test_n20_ae_3_0_render_every_site_before_the_choice),
        cmocka_unit_test(test_n20_ae_3_0_render_chosen_site_markers),
        cmocka_unit_test(test_n20_ae_6_10_1_render_pontoon_damaged),
        cmocka_unit_test(test_n20_ae_9_10_1_render_bridgehead_fallen_pontoon_destroyed),
        cmocka_unit_test(test_n20_ae_6_11_render_pontoon_in_the_fischamend_box),
        cmocka_unit_test(test_n20_ae_17_3_render_second_site),
        cmocka_unit_test(test_n20_wg_6_10_1_render_incomplete_bridges_then_secured),
        cmocka_unit_test(test_n20_wg_3_0_render_reinforcement_sent_to_its_other_area),
        cmocka_unit_test(test_n20_wg_18_0_render_marchfeld_secured_from_the_start),
        cmocka_unit_test(test_n20_wg_16_10_render_floridsdorf_pontoon_states),
        cmocka_unit_test(test_n20_wg_6_11_render_inactive_flipped_or_rotated),
        cmocka_unit_test(test_n20_wg_9_11_render_garrison_and_batteries),
        cmocka_unit_test(test_n20_wg_16_1_render_hidden_deployment_anonymous),
        cmocka_unit_test(test_n20_dn_render_goldens_and_docs_pictures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
