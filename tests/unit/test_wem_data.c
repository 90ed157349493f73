/*
 * test_wem_data.c - the scenario data of Waterloo: Enemy Mistakes (rules/wem/scenarios/, parsed by
 * rules/wem/data.c; format docs/wem-data.md, rulings docs/wem-rulings/data.md).
 *
 * What the rulebook says about the pieces ([Components] counts, [Generals] table, [End of the Game]
 * VP, [The Grand Battery of General d'Erlon], [General Ney], [Game Preparation 3]) and what a
 * printed set-up guarantees (Formations in exact contact, nothing overlapping, nothing touching an
 * out-of-field element, Generals near their corps, the armies apart) are checked on the data with
 * plain integer arithmetic of its own: every set-up heading is a quarter turn, so every piece is an
 * axis-aligned box.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wem/wem.h"

static const char *const s_names[] = {"full", "short", "medium"};

/* an axis-aligned box, closed: [x0, x1] x [y0, y1] in units */
typedef struct {
    int64_t x0, y0, x1, y1;
} t_box;

static const wem_scenario *s_sc(const char *name) {
    const wem_scenario *sc = wem_scenario_get(name);
    if (!sc) {
        size_t len = 0;
        const char *t = wem_data_text(name, &len);
        static wem_scenario tmp;
        char msg[200] = "";
        if (t) wem_data_parse(t, len, &tmp, msg, sizeof msg);
        fail_msg("scenario %s does not parse: %s", name, msg);
    }
    return sc;
}

static int s_is_art(const wem_unit_def *u) {
    return u->kind == WEM_ART_FOOT || u->kind == WEM_ART_HORSE;
}

/* the piece's box: a tile 30 x 30 mm, a counter 15 x 15 mm, a fastened gun with its Horse Team
 * behind it 15 x 30 mm [Units] */
static t_box s_unit_box(const wem_unit_def *u) {
    int64_t hw = (s_is_art(u) || u->kind == WEM_GARRISON) ? WEM_UOM / 4 : WEM_UOM / 2;
    int64_t hd = hw, back = 0;
    if (s_is_art(u) && u->fastened) {
        hd = WEM_UOM / 2;
        back = WEM_UOM / 4; /* the box's centre is behind the gun counter's */
    }
    int q = (int)(u->h / 900);
    assert_int_equal(u->h % 900, 0);
    int64_t fx = q == 1 ? 1 : q == 3 ? -1 : 0, fy = q == 0 ? -1 : q == 2 ? 1 : 0;
    int64_t cx = u->at.x - fx * back, cy = u->at.y - fy * back;
    int64_t ex = fx ? hd : hw, ey = fx ? hw : hd;
    return (t_box){cx - ex, cy - ey, cx + ex, cy + ey};
}

static t_box s_general_box(const wem_general_def *g) {
    int64_t e = WEM_UOM / 4;
    return (t_box){g->at.x - e, g->at.y - e, g->at.x + e, g->at.y + e};
}

/* interiors meet */
static int s_overlap(t_box a, t_box b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* the squared least distance between two boxes (0 when they meet) */
static int64_t s_dist2(t_box a, t_box b) {
    int64_t dx = b.x0 > a.x1 ? b.x0 - a.x1 : a.x0 > b.x1 ? a.x0 - b.x1 : 0;
    int64_t dy = b.y0 > a.y1 ? b.y0 - a.y1 : a.y0 > b.y1 ? a.y0 - b.y1 : 0;
    return dx * dx + dy * dy;
}

/* touching without overlapping: the closed boxes meet along an edge or at a corner */
static int s_touch(t_box a, t_box b) {
    return s_dist2(a, b) == 0 && !s_overlap(a, b);
}

static t_box s_poly_box(const wem_poly *p) {
    t_box b = {INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN};
    for (int i = 0; i < p->n; i++) {
        if (p->v[i].x < b.x0) b.x0 = p->v[i].x;
        if (p->v[i].x > b.x1) b.x1 = p->v[i].x;
        if (p->v[i].y < b.y0) b.y0 = p->v[i].y;
        if (p->v[i].y > b.y1) b.y1 = p->v[i].y;
    }
    return b;
}

/* point inside a simple polygon (boundary counts): crossing number on int64 products */
static int s_pt_in(int64_t x, int64_t y, const wem_poly *p) {
    int in = 0;
    for (int i = 0, j = p->n - 1; i < p->n; j = i++) {
        int64_t xi = p->v[i].x, yi = p->v[i].y, xj = p->v[j].x, yj = p->v[j].y;
        int64_t cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
        if (cross == 0 && x >= (xi < xj ? xi : xj) && x <= (xi > xj ? xi : xj) && y >= (yi < yj ? yi : yj) &&
            y <= (yi > yj ? yi : yj))
            return 1;
        if ((yi > y) != (yj > y)) {
            /* x < xi + (y - yi) (xj - xi) / (yj - yi), cross-multiplied by the sign of (yj - yi) */
            int64_t lhs = (x - xi) * (yj - yi), rhs = (y - yi) * (xj - xi);
            if (yj > yi ? lhs < rhs : lhs > rhs) in = !in;
        }
    }
    return in;
}

static int s_box_in_poly(t_box b, const wem_poly *p) {
    return s_pt_in(b.x0, b.y0, p) && s_pt_in(b.x1, b.y0, p) && s_pt_in(b.x1, b.y1, p) && s_pt_in(b.x0, b.y1, p);
}

static int s_unit(const wem_scenario *sc, const char *id) {
    for (size_t i = 0; i < sc->n_units; i++)
        if (!strcmp(sc->units[i].id, id)) return (int)i;
    fail_msg("no unit %s", id);
    return -1;
}

static const wem_general_def *s_general(const wem_scenario *sc, const char *id) {
    for (size_t i = 0; i < sc->n_generals; i++)
        if (!strcmp(sc->generals[i].id, id)) return &sc->generals[i];
    fail_msg("no general %s", id);
    return NULL;
}

static const wem_area_def *s_area(const wem_scenario *sc, const char *name) {
    for (size_t i = 0; i < sc->n_areas; i++)
        if (!strcmp(sc->areas[i].name, name)) return &sc->areas[i];
    fail_msg("no area %s", name);
    return NULL;
}

/* [End of the Last Turn of the Game] [Short Alternative Scenario]: every scenario parses, with its
 * own length; the short one has no Prussians */
static void test_wem_data_every_scenario_parses(void **st) {
    (void)st;
    static const int last[] = {19, 7, 14}, pr[] = {1, 0, 1};
    for (int i = 0; i < 3; i++) {
        const wem_scenario *sc = s_sc(s_names[i]);
        assert_string_equal(sc->name, s_names[i]);
        assert_int_equal(sc->last_turn, last[i]);
        assert_int_equal(sc->prussians, pr[i]);
        assert_true(sc->max_seats == 2 || sc->max_seats == 3);
        assert_true(sc->width > 0 && sc->height > 0);
        assert_true(sc->fold_x > 0 && sc->fold_x < sc->width);
        assert_true(wem_scenario_get(s_names[i]) == sc); /* parsed once, cached */
    }
    assert_int_equal(s_sc("full")->max_seats, 3);
    assert_int_equal(s_sc("short")->max_seats, 2);
    assert_null(wem_scenario_get("no-such-scenario"));
    assert_null(wem_scenario_get(NULL));
}

/* [Components]: blue 24 infantry, 13 cavalry, 11 artillery; red 33, 11, 7 and 2 garrisons; black
 * 18, 9, 5 */
static void test_wem_data_components_counts(void **st) {
    (void)st;
    static const int want[3][4] = {{24, 13, 11, 0}, {33, 11, 7, 2}, {18, 9, 5, 0}};
    for (int s = 0; s < 3; s++) {
        const wem_scenario *sc = s_sc(s_names[s]);
        int n[3][4] = {{0}};
        for (size_t i = 0; i < sc->n_units; i++) {
            const wem_unit_def *u = &sc->units[i];
            int k = u->kind == WEM_INF ? 0 : u->kind == WEM_CAV ? 1 : s_is_art(u) ? 2 : 3;
            n[u->army][k]++;
        }
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 4; k++) assert_int_equal(n[a][k], want[a][k]);
        /* [Generals]: blue 7 (I-VI and Ney), red 4, black 3, and a Commander in Chief each */
        int g[3] = {0}, c[3] = {0};
        for (size_t i = 0; i < sc->n_generals; i++) {
            if (sc->generals[i].cinc) c[sc->generals[i].army]++;
            else g[sc->generals[i].army]++;
        }
        assert_int_equal(g[0], 7);
        assert_int_equal(g[1], 4);
        assert_int_equal(g[2], 3);
        assert_int_equal(c[0] + c[1] + c[2], 3);
        assert_int_equal(c[0] * c[1] * c[2], 1);
    }
}

/* [Units]: the number identifies the Unit in its army: every id once */
static void test_wem_data_unit_ids_unique(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    for (size_t i = 0; i < sc->n_units; i++) {
        assert_true(sc->units[i].id[0] != 0);
        for (size_t j = i + 1; j < sc->n_units; j++) assert_string_not_equal(sc->units[i].id, sc->units[j].id);
    }
    for (size_t i = 0; i < sc->n_generals; i++)
        for (size_t j = i + 1; j < sc->n_generals; j++)
            assert_string_not_equal(sc->generals[i].id, sc->generals[j].id);
    /* blue numbers 1..48, red 1..51, black 1..32, each once */
    static const int top[3] = {48, 51, 32};
    static const char letter[3] = {'B', 'R', 'K'};
    for (int a = 0; a < 3; a++)
        for (int n = 1; n <= top[a]; n++) {
            char id[WEM_ID];
            snprintf(id, sizeof id, "%c%d", letter[a], n);
            assert_int_equal(sc->units[s_unit(sc, id)].army, a);
        }
    assert_int_equal(sc->units[s_unit(sc, "R-H")].kind, WEM_GARRISON);
    assert_int_equal(sc->units[s_unit(sc, "R-LHS")].kind, WEM_GARRISON);
}

/* every record of every scenario's text has its provenance, RULEBOOK or RECONSTRUCTED */
static void test_wem_data_every_record_has_provenance(void **st) {
    (void)st;
    for (int s = 0; s < 3; s++) {
        size_t len = 0;
        const char *t = wem_data_text(s_names[s], &len);
        assert_non_null(t);
        int records = 0;
        for (size_t p = 0; p < len;) {
            size_t q = p;
            while (q < len && t[q] != '\n') q++;
            char line[4096];
            size_t n = q - p < sizeof line - 1 ? q - p : sizeof line - 1;
            memcpy(line, t + p, n);
            line[n] = 0;
            p = q + 1;
            if (!line[0] || line[0] == '#') continue;
            records++;
            const char *bar = strchr(line, '|');
            if (!bar) fail_msg("no provenance: %s", line);
            bar++;
            while (*bar == ' ') bar++;
            if (strncmp(bar, "RULEBOOK ", 9) && strncmp(bar, "RECONSTRUCTED ", 14)) fail_msg("bad provenance: %s", line);
        }
        assert_true(records > 150);
    }
}

/* [Formations] [Game Preparation 3]: each set-up Formation's pieces touch edge to edge exactly
 * (connected, none overlapping), of one Army Corps, facing the same way */
static void test_wem_data_formations_in_exact_contact(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    int max = 0;
    for (size_t i = 0; i < sc->n_units; i++)
        if (sc->units[i].setup_fmn > max) max = sc->units[i].setup_fmn;
    assert_true(max >= 40);
    for (int f = 1; f <= max; f++) {
        int idx[16], n = 0;
        for (size_t i = 0; i < sc->n_units; i++)
            if (sc->units[i].setup_fmn == f) {
                assert_true(n < 16);
                idx[n++] = (int)i;
            }
        assert_true(n >= 1);
        /* connected by contact (corners count), same corps and heading */
        int reached[16] = {1}, grew = 1;
        while (grew) {
            grew = 0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++)
                    if (reached[a] && !reached[b] && s_touch(s_unit_box(&sc->units[idx[a]]), s_unit_box(&sc->units[idx[b]])))
                        reached[b] = grew = 1;
        }
        for (int a = 0; a < n; a++) {
            const wem_unit_def *u = &sc->units[idx[a]], *u0 = &sc->units[idx[0]];
            if (!reached[a]) fail_msg("formation %d: %s does not touch the others", f, u->id);
            assert_int_equal(u->army, u0->army);
            assert_int_equal(u->corps, u0->corps);
            assert_int_equal(u->h, u0->h);
        }
        /* the side-by-side pieces of a line-up touch along the whole shorter side, fronts aligned:
         * the centres of two tiles side by side are exactly 600 apart */
        for (int a = 0; a + 1 < n; a++) {
            const wem_unit_def *u = &sc->units[idx[a]], *v = &sc->units[idx[a + 1]];
            if (u->kind <= WEM_CAV && v->kind <= WEM_CAV && u->at.y == v->at.y && u->h % 1800 == 0)
                assert_true(v->at.x - u->at.x == WEM_UOM || u->at.x - v->at.x == WEM_UOM || u->at.x == v->at.x);
        }
    }
    /* d'Erlon's first column block: B1 in front of B2, B3 beside B1 */
    const wem_unit_def *b1 = &sc->units[s_unit(sc, "B1")], *b2 = &sc->units[s_unit(sc, "B2")],
                       *b3 = &sc->units[s_unit(sc, "B3")];
    assert_int_equal(b2->at.x, b1->at.x);
    assert_int_equal(b2->at.y - b1->at.y, WEM_UOM);
    assert_int_equal(b3->at.x - b1->at.x, WEM_UOM);
    assert_int_equal(b3->at.y, b1->at.y);
}

/* the same set-up seen through the engine: the state's shapes (wem_unit_rect) and the geometry
 * kernel's contact (geom.h, with contact-tol): every set-up Formation is connected by WEM_TOUCH
 * and no two pieces of different Formations are anything but WEM_APART; nothing meets an
 * out-of-field element; the garrisons are inside their posts; the black army is not entered */
static void test_wem_data_setup_through_the_geometry(void **st) {
    (void)st;
    for (int sidx = 0; sidx < 3; sidx++) {
        const wem_scenario *sc = s_sc(s_names[sidx]);
        wem_state *s = wem_state_new(sc, sc->max_seats, 0);
        assert_non_null(s);
        int32_t tol = wem_tol(s);
        int n = (int)sc->n_units;
        for (int a = 0; a < n; a++) {
            const wem_unit_def *da = &sc->units[a];
            if (!da->placed) {
                assert_int_equal(s->units[a].status, WEM_NOT_ENTERED);
                continue;
            }
            assert_int_equal(s->units[a].status, WEM_ON);
            wem_rect ra = wem_unit_rect(s, a);
            int touches_own = 0, own = 0;
            for (int b = 0; b < n; b++) {
                if (b == a || !sc->units[b].placed) continue;
                wem_rect rb = wem_unit_rect(s, b);
                int c = wem_g_contact(&ra, &rb, tol);
                if (da->setup_fmn && sc->units[b].setup_fmn == da->setup_fmn) {
                    own++;
                    if (c == WEM_TOUCH) touches_own = 1;
                    if (c == WEM_OVERLAP) fail_msg("%s overlaps %s", da->id, sc->units[b].id);
                } else if (c != WEM_APART) {
                    fail_msg("%s and %s of another Formation are not apart", da->id, sc->units[b].id);
                }
            }
            if (own && !touches_own) fail_msg("%s touches nothing of its Formation", da->id);
            wem_quad q;
            wem_g_quad(&ra, tol / 2, &q);
            for (size_t k = 0; k < sc->n_offfield; k++) {
                wem_poly p = wem_area_poly(sc, &sc->offfield[k]);
                if (wem_g_convex_meets_poly(q.v, 4, &p)) fail_msg("%s is out of field (%s)", da->id, sc->offfield[k].name);
            }
            if (da->kind == WEM_GARRISON) {
                wem_g_quad(&ra, 0, &q);
                wem_poly p = wem_area_poly(sc, s_area(sc, da->keep_vp == 30 ? "hougoumont" : "la-haye-sainte"));
                assert_true(wem_g_quad_inside_poly(&q, &p));
            }
        }
        /* [General Ney] attached to 38 only with the optional rule */
        int ney = -1;
        for (size_t g = 0; g < sc->n_generals; g++)
            if (sc->generals[g].ney) ney = (int)g;
        assert_true(ney >= 0);
        assert_int_equal(s->generals[ney].status, WEM_NOT_ENTERED);
        wem_state_destroy(&s);
        s = wem_state_new(sc, 2, 1 /* the optional rule */);
        assert_int_equal(s->generals[ney].status, WEM_ON);
        assert_int_equal(s->generals[ney].attached, s_unit(sc, "B38"));
        wem_state_destroy(&s);
    }
}

/* the placed pieces of the board: units and unattached generals */
typedef struct {
    t_box box;
    int army, fmn, general;
    const char *id;
} t_piece;

static int s_pieces(const wem_scenario *sc, t_piece *out, int cap) {
    int n = 0;
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *u = &sc->units[i];
        if (!u->placed) continue;
        assert_true(n < cap);
        out[n++] = (t_piece){s_unit_box(u), u->army, u->setup_fmn ? u->setup_fmn : 1000 + (int)i, 0, u->id};
    }
    for (size_t i = 0; i < sc->n_generals; i++) {
        const wem_general_def *g = &sc->generals[i];
        if (!g->placed || g->attach >= 0) continue;
        assert_true(n < cap);
        out[n++] = (t_piece){s_general_box(g), g->army, 2000 + (int)i, 1, g->id};
    }
    return n;
}

/* [Game Preparation 3]: no two pieces overlap; pieces of different Formations do not touch (they
 * would form one Formation, or united ones), and no General touches a unit he is not attached to */
static void test_wem_data_no_pieces_overlap(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    static t_piece p[WEM_MAX_PIECES + WEM_MAX_GENERALS];
    int n = s_pieces(sc, p, (int)(sizeof p / sizeof p[0]));
    assert_true(n > 100);
    int64_t tol = wem_param_get(sc, "contact-tol", 10);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            if (s_overlap(p[a].box, p[b].box)) fail_msg("%s overlaps %s", p[a].id, p[b].id);
            if (p[a].fmn != p[b].fmn && s_dist2(p[a].box, p[b].box) <= tol * tol)
                fail_msg("%s touches %s of another Formation", p[a].id, p[b].id);
        }
}

/* [Understanding the Game Board] Elements out of field: no piece touches the turn track, a command
 * table or a coloured side, and every piece is on the board */
static void test_wem_data_nothing_touches_offfield(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    static t_piece p[WEM_MAX_PIECES + WEM_MAX_GENERALS];
    int n = s_pieces(sc, p, (int)(sizeof p / sizeof p[0]));
    assert_true(sc->n_offfield >= 8);
    int64_t tol = wem_param_get(sc, "contact-tol", 10);
    for (size_t k = 0; k < sc->n_offfield; k++) {
        wem_poly poly = wem_area_poly(sc, &sc->offfield[k]);
        assert_int_equal(poly.n, 4);
        t_box ob = s_poly_box(&poly);
        /* the elements are boxes, so the box test is exact */
        for (int i = 0; i < 4; i++) {
            assert_true(poly.v[i].x == ob.x0 || poly.v[i].x == ob.x1);
            assert_true(poly.v[i].y == ob.y0 || poly.v[i].y == ob.y1);
        }
        for (int a = 0; a < n; a++)
            if (s_dist2(p[a].box, ob) <= tol * tol) fail_msg("%s touches %s", p[a].id, sc->offfield[k].name);
    }
    for (int a = 0; a < n; a++) {
        assert_true(p[a].box.x0 > 0 && p[a].box.y0 > 0);
        assert_true(p[a].box.x1 < sc->width && p[a].box.y1 < sc->height);
    }
}

/* [Substitute Generals] [Attaching] a General stands by his corps: every placed General is within
 * 2 units of measurement of a unit of his Army Corps (centre to centre, so also edge to edge); Ney
 * is on top of unit 38 */
static void test_wem_data_generals_within_2_uom_of_their_corps(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    int64_t r = 2 * WEM_UOM;
    int checked = 0;
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general_def *d = &sc->generals[g];
        if (!d->placed || d->cinc || d->ney) continue;
        int near = 0;
        for (size_t i = 0; i < sc->n_units; i++) {
            const wem_unit_def *u = &sc->units[i];
            if (!u->placed || u->army != d->army || u->corps != d->corps) continue;
            int64_t dx = u->at.x - d->at.x, dy = u->at.y - d->at.y;
            if (dx * dx + dy * dy <= r * r) near = 1;
        }
        if (!near) fail_msg("%s is not within 2 UoM of his corps", d->id);
        checked++;
    }
    assert_int_equal(checked, 6 + 4);
    const wem_general_def *ney = s_general(sc, "B-NEY");
    int u38 = s_unit(sc, "B38");
    assert_int_equal(ney->attach, u38);
    assert_int_equal(ney->at.x, sc->units[u38].at.x);
    assert_int_equal(ney->at.y, sc->units[u38].at.y);
}

/* set-up: no enemy piece within 2 units of measurement of another (the armies start apart) */
static void test_wem_data_no_enemy_within_2_uom(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    static t_piece p[WEM_MAX_PIECES + WEM_MAX_GENERALS];
    int n = s_pieces(sc, p, (int)(sizeof p / sizeof p[0]));
    int64_t gap = wem_param_get(sc, "setup-enemy-gap", 2 * WEM_UOM);
    assert_int_equal(gap, 2 * WEM_UOM);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (p[a].army != p[b].army && s_dist2(p[a].box, p[b].box) <= gap * gap)
                fail_msg("%s is within 2 UoM of the enemy %s", p[a].id, p[b].id);
}

/* [The Garrisons of Hougoumont and La Haye Sainte] [Game Preparation 3]: the garrisons inside their
 * posts, Veteran with Good fire discipline; red scores 30 and 20 for keeping them */
static void test_wem_data_garrisons_inside_hougoumont_and_la_haye_sainte(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    const wem_unit_def *h = &sc->units[s_unit(sc, "R-H")], *l = &sc->units[s_unit(sc, "R-LHS")];
    wem_poly ph = wem_area_poly(sc, s_area(sc, "hougoumont")), pl = wem_area_poly(sc, s_area(sc, "la-haye-sainte"));
    assert_true(h->placed && l->placed);
    assert_true(s_box_in_poly(s_unit_box(h), &ph));
    assert_true(s_box_in_poly(s_unit_box(l), &pl));
    assert_false(s_box_in_poly(s_unit_box(h), &pl));
    for (int i = 0; i < 2; i++) {
        const wem_unit_def *g = i ? l : h;
        assert_int_equal(g->army, WEM_RED);
        assert_int_equal(g->cls, WEM_VETERAN);
        assert_int_equal(g->fire, 1);
        assert_false(g->bombards);
    }
    assert_int_equal(h->keep_vp, 30);
    assert_int_equal(l->keep_vp, 20);
    assert_int_equal(h->corps, 2); /* "Hougoumont Garrison (II)" */
    assert_int_equal(l->corps, 3); /* "La Haye Sainte Garrison (III)" */
}

/* [The Grand Battery of General d'Erlon]: units 23, 24 and 9, artillery on foot of II Corps, one
 * Formation in contact, unfastened and able to bombard */
static void test_wem_data_grand_battery_23_24_9_in_contact(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    const char *ids[3] = {"B23", "B24", "B9"};
    int n = 0;
    for (size_t i = 0; i < sc->n_units; i++) n += sc->units[i].grand_battery;
    assert_int_equal(n, 3);
    const wem_unit_def *g[3];
    for (int i = 0; i < 3; i++) {
        g[i] = &sc->units[s_unit(sc, ids[i])];
        assert_int_equal(g[i]->kind, WEM_ART_FOOT);
        assert_int_equal(g[i]->corps, 2);
        assert_true(g[i]->grand_battery && g[i]->bombards && !g[i]->fastened);
        assert_int_equal(g[i]->setup_fmn, g[0]->setup_fmn);
    }
    assert_true(s_touch(s_unit_box(g[0]), s_unit_box(g[1])));
    assert_true(s_touch(s_unit_box(g[1]), s_unit_box(g[2])));
}

/* [General Ney] [Game Preparation 3]: unit 38 in the Formation with 36, 37 and 39, not Corps I */
static void test_wem_data_ney_formation_36_37_38_39(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    const wem_unit_def *u38 = &sc->units[s_unit(sc, "B38")];
    assert_true(u38->corps != 1);
    int n = 0;
    for (size_t i = 0; i < sc->n_units; i++)
        if (sc->units[i].setup_fmn == u38->setup_fmn) n++;
    assert_int_equal(n, 4);
    const char *ids[3] = {"B36", "B37", "B39"};
    for (int i = 0; i < 3; i++) assert_int_equal(sc->units[s_unit(sc, ids[i])].setup_fmn, u38->setup_fmn);
    const wem_general_def *ney = s_general(sc, "B-NEY");
    assert_true(ney->ney && !ney->cinc);
    assert_int_equal(ney->corps, 0);
    assert_int_equal(ney->cp, 0);
    assert_string_equal(ney->sub_name, "");
}

/* [Units]: red horse artillery 39 and 40 may bombard; other horse artillery may not; every unfastened
 * foot gun may */
static void test_wem_data_red_horse_artillery_39_40_bombard(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *u = &sc->units[i];
        if (u->kind == WEM_ART_HORSE) {
            int may = !strcmp(u->id, "R39") || !strcmp(u->id, "R40");
            assert_int_equal(u->bombards, may);
        } else if (u->kind == WEM_ART_FOOT) {
            assert_true(u->bombards);
        } else {
            assert_false(u->bombards);
            assert_false(u->fastened);
        }
    }
}

/* [Game Preparation 3]: 10 Horse Teams (5 blue, 5 red) are not on the board: of blue's 11 guns 6
 * start fastened, of red's 7 guns 2 */
static void test_wem_data_horse_teams_not_on_board(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    int fast[3] = {0}, guns[3] = {0};
    for (size_t i = 0; i < sc->n_units; i++)
        if (s_is_art(&sc->units[i])) {
            guns[sc->units[i].army]++;
            fast[sc->units[i].army] += sc->units[i].fastened;
        }
    assert_int_equal(guns[WEM_BLUE] - fast[WEM_BLUE], 5);
    assert_int_equal(guns[WEM_RED] - fast[WEM_RED], 5);
    assert_int_equal(fast[WEM_BLUE], 6);
    assert_int_equal(fast[WEM_RED], 2);
}

/* [Executing the entrance]: the black army is off the board; each corps enters at the section of
 * its number (III first), Blucher with Bulow */
static void test_wem_data_black_enters_by_corps_sections(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    int per[4] = {0};
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *u = &sc->units[i];
        if (u->army == WEM_BLACK) {
            assert_false(u->placed);
            assert_int_equal(u->entry, u->corps);
            per[u->entry]++;
        } else {
            assert_true(u->placed);
            assert_int_equal(u->entry, 0);
        }
    }
    assert_true(per[1] && per[2] && per[3]);
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general_def *d = &sc->generals[g];
        if (d->army != WEM_BLACK) continue;
        assert_false(d->placed);
        assert_int_equal(d->entry, d->cinc ? 3 : d->corps);
    }
    for (int e = 0; e < 3; e++) {
        wem_line l = wem_line_shape(sc, &sc->entrance[e]);
        assert_int_equal(l.n, 2);
        wem_poly dep = wem_area_poly(sc, &sc->deploy);
        assert_true(s_pt_in(l.v[0].x, l.v[0].y, &dep) && s_pt_in(l.v[1].x, l.v[1].y, &dep));
    }
}

/* [Executing the entrance]: each black corps fits the deployment area as one Formation in contact
 * with its entrance section: its pieces in a block 4 columns wide facing west, tiles in the front
 * rows, the guns (two to a tile's space, fastened) behind, the rear row on the section */
static void test_wem_data_black_corps_can_enter_at_their_sections(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    wem_poly dep = wem_area_poly(sc, &sc->deploy);
    const int64_t cell = WEM_UOM;
    for (int corps = 1; corps <= 3; corps++) {
        wem_line sec = wem_line_shape(sc, &sc->entrance[corps - 1]);
        assert_int_equal(sec.v[0].x, sec.v[1].x); /* the sections run along the black side */
        int64_t sx = sec.v[0].x;
        int64_t ylo = sec.v[0].y < sec.v[1].y ? sec.v[0].y : sec.v[1].y;
        int64_t yhi = sec.v[0].y < sec.v[1].y ? sec.v[1].y : sec.v[0].y;
        int tiles = 0, guns = 0;
        for (size_t i = 0; i < sc->n_units; i++) {
            const wem_unit_def *u = &sc->units[i];
            if (u->army != WEM_BLACK || u->corps != corps) continue;
            if (s_is_art(u)) guns++;
            else tiles++;
        }
        int cells = tiles + (guns + 1) / 2, rows = (cells + 3) / 4;
        assert_true(tiles > 0);
        t_box box[32];
        int n = 0;
        for (int k = 0; k < cells; k++) {
            int row = k / 4, col = k % 4;
            t_box c = {sx - (rows - row) * cell, yhi - 10 * WEM_MM - (col + 1) * cell, sx - (rows - row - 1) * cell,
                       yhi - 10 * WEM_MM - col * cell};
            if (k < tiles) {
                box[n++] = c;
                continue;
            }
            int g = 2 * (k - tiles);
            for (int half = 0; half < 2 && g + half < guns; half++) {
                t_box b = c;
                if (half) b.y0 = c.y0 + cell / 2;
                else b.y1 = c.y0 + cell / 2;
                box[n++] = b;
            }
        }
        assert_int_equal(n, tiles + guns);
        int on_section = 0, reached[32] = {1}, grew = 1;
        for (int a = 0; a < n; a++) {
            assert_true(s_box_in_poly(box[a], &dep));
            if (box[a].x1 == sx && box[a].y1 > ylo && box[a].y0 < yhi) on_section++;
            for (int b = a + 1; b < n; b++) assert_false(s_overlap(box[a], box[b]));
            for (size_t k = 0; k < sc->n_offfield; k++) {
                wem_poly p = wem_area_poly(sc, &sc->offfield[k]);
                assert_true(s_dist2(box[a], s_poly_box(&p)) > 0);
            }
        }
        assert_true(on_section > 0);
        while (grew) {
            grew = 0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++)
                    if (reached[a] && !reached[b] && s_touch(box[a], box[b])) reached[b] = grew = 1;
        }
        for (int a = 0; a < n; a++) assert_true(reached[a]);
    }
}

/* [Generals] the table (blue I-V) and [End of the Game] every General's VP, Substitutes 6; the
 * commanders in chief: Blucher 36, Napoleon's and Wellington's removal ends the game */
static void test_wem_data_generals_table_and_vp(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    static const struct {
        const char *id;
        int rank, cp, vp;
    } t[] = {
        {"B-I", 2, 1, 12},  {"B-II", 2, 1, 12},  {"B-III", 3, 2, 18}, {"B-IV", 2, 1, 12}, {"B-V", 3, 2, 18},
        {"B-VI", -1, -1, 12}, {"B-NEY", -1, 0, 12}, {"R-I", -1, -1, 6}, {"R-II", -1, -1, 18}, {"R-III", -1, -1, 18},
        {"R-IV", -1, -1, 18}, {"K-I", -1, -1, 12}, {"K-II", -1, -1, 12}, {"K-III", -1, -1, 12}, {"K-B", 4, -1, 36},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const wem_general_def *g = s_general(sc, t[i].id);
        if (t[i].rank >= 0) assert_int_equal(g->rank, t[i].rank);
        if (t[i].cp >= 0) assert_int_equal(g->cp, t[i].cp);
        assert_int_equal(g->vp, t[i].vp);
        if (!g->cinc && !g->ney) {
            assert_int_equal(g->sub_vp, 6);
            assert_true(g->sub_name[0] != 0);
            /* the reconstruction's rule: 6 VP a star, one Command point fewer than the stars */
            assert_int_equal(g->rank * 6, g->vp);
            assert_int_equal(g->cp + 1, g->rank);
        }
    }
    assert_true(s_general(sc, "B-N")->cinc && s_general(sc, "R-W")->cinc && s_general(sc, "K-B")->cinc);
    assert_int_equal(s_general(sc, "B-N")->rank, 4);
    assert_int_equal(wem_param_get(sc, "substitute-rank", 0), 1);
    assert_int_equal(wem_param_get(sc, "substitute-cp", -1), 0);
}

/* [End of the Game] the historical objectives: Mont-Saint-Jean blue 50, La Belle-Alliance black 20,
 * Placenoit black 30 */
static void test_wem_data_town_objectives(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    const wem_area_def *m = s_area(sc, "mont-saint-jean"), *b = s_area(sc, "la-belle-alliance"),
                       *p = s_area(sc, "placenoit");
    assert_int_equal(m->kind, WEM_T_TOWN);
    assert_int_equal(m->obj_army, WEM_BLUE);
    assert_int_equal(m->obj_vp, 50);
    assert_int_equal(b->obj_army, WEM_BLACK);
    assert_int_equal(b->obj_vp, 20);
    assert_int_equal(p->obj_army, WEM_BLACK);
    assert_int_equal(p->obj_vp, 30);
    int n = 0;
    for (size_t i = 0; i < sc->n_areas; i++) n += sc->areas[i].obj_vp != 0;
    assert_int_equal(n, 3);
}

/* [Line of fire and visibility]: Hills, Woods and Placenoit Town block; no other Town, no Farm */
static void test_wem_data_lof_blocking_terrain(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    int hills = 0, woods = 0;
    for (size_t i = 0; i < sc->n_areas; i++) {
        const wem_area_def *a = &sc->areas[i];
        int want = a->kind == WEM_T_HILL || a->kind == WEM_T_WOOD || !strcmp(a->name, "placenoit");
        assert_int_equal(a->blocks_lof, want);
        hills += a->kind == WEM_T_HILL;
        woods += a->kind == WEM_T_WOOD;
        assert_true(wem_area_poly(sc, a).n >= 3);
    }
    assert_true(hills >= 2 && woods >= 2);
    /* [Linear Terrain]: a Sunken Road, a Torrent and a Bridge */
    int kinds[4] = {0};
    for (size_t i = 0; i < sc->n_lines; i++) {
        kinds[sc->lines[i].kind]++;
        wem_line l = wem_line_shape(sc, &sc->lines[i]);
        assert_true(l.n >= 2 && l.hw > 0);
    }
    assert_true(kinds[WEM_L_ROAD] >= 2 && kinds[WEM_L_SUNKEN] >= 1 && kinds[WEM_L_TORRENT] >= 1 && kinds[WEM_L_BRIDGE] >= 1);
}

/* the die faces the text lost are named parameters with sane values; the measures the text gives */
static void test_wem_data_parameters(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    static const char *const pairs[] = {"entrance", "substitute", "damage", "melee-loss", "pursuit"};
    for (int i = 0; i < 5; i++) {
        char lo[32], hi[32];
        snprintf(lo, sizeof lo, "%s-lo", pairs[i]);
        snprintf(hi, sizeof hi, "%s-hi", pairs[i]);
        int32_t a = wem_param_get(sc, lo, -1), b = wem_param_get(sc, hi, -1);
        assert_true(a >= 1 && a <= b && b <= 6);
        assert_int_equal(b - a, 1); /* "[face] or [face]": two faces */
    }
    static const char *const cls[] = {"reroll-class", "pursuit-class", "pursuit-target-class", "result-class", "melee-class"};
    for (int i = 0; i < 5; i++) {
        int32_t c = wem_param_get(sc, cls[i], -1);
        assert_true(c >= WEM_GUARD && c <= WEM_RECRUIT);
    }
    assert_in_range(wem_param_get(sc, "die-general-attached", -1), 2, 12);
    assert_in_range(wem_param_get(sc, "die-general-unattached", -1), 1, 6);
    assert_in_range(wem_param_get(sc, "die-general-melee", -1), 1, 6);
    assert_int_equal(wem_param_get(sc, "lof-width", 0), 15 * WEM_MM);
    assert_int_equal(wem_param_get(sc, "lof-length", 0), 180 * WEM_MM);
    assert_int_equal(wem_param_get(sc, "aoe", 0), WEM_UOM);
    assert_int_equal(wem_param_get(sc, "general-move", 0), 2 * WEM_UOM);
    assert_int_equal(wem_param_get(sc, "substitute-range", 0), 2 * WEM_UOM);
    assert_int_equal(wem_param_get(sc, "contact-tol", 0), 10);
    assert_int_equal(wem_param_get(sc, "heading-tol", 0), 10);
    assert_true(wem_param_get(sc, "split-gap", 0) > 0);
    assert_int_equal(wem_param_get(sc, "no-such-parameter", 77), 77);
    assert_int_equal(wem_param_get(NULL, "aoe", 5), 5);
}

/* [Maneuver limit]: the blue army starts west of the fold; red and blue on their own long sides */
static void test_wem_data_sides_and_fold(void **st) {
    (void)st;
    const wem_scenario *sc = s_sc("full");
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *u = &sc->units[i];
        if (!u->placed) continue;
        t_box b = s_unit_box(u);
        if (u->army == WEM_BLUE) {
            assert_true(b.x1 < sc->fold_x);
            assert_true(b.y0 > sc->height / 2); /* the south half */
            assert_int_equal(u->h, 0);
        } else if (u->kind != WEM_GARRISON) {
            assert_true(b.y1 < sc->height / 2); /* the north half */
            assert_int_equal(u->h, 1800);
        }
    }
}

/* the parser rejects a malformed record, naming its line */
static void test_wem_data_parser_rejects_malformed_line(void **st) {
    (void)st;
    static wem_scenario sc;
    char msg[200];
    const char *bad = "scenario t | RECONSTRUCTED a test\n# a comment\nlast-turn 7 | RECONSTRUCTED a test\n"
                      "board 100 | RECONSTRUCTED one field short\n";
    assert_int_equal(wem_data_parse(bad, strlen(bad), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 4"));
    const char *noprov = "scenario t | RECONSTRUCTED a test\nlast-turn 7\n";
    assert_int_equal(wem_data_parse(noprov, strlen(noprov), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    assert_non_null(strstr(msg, "provenance"));
    const char *badprov = "scenario t | because\n";
    assert_int_equal(wem_data_parse(badprov, strlen(badprov), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 1"));
    const char *dup = "unit blue 1 inf I guard 4 8 good - A | RECONSTRUCTED a test\n"
                      "unit blue 1 inf I guard 4 8 good - B | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(dup, strlen(dup), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    assert_non_null(strstr(msg, "B1"));
    const char *mixed = "unit blue 1 inf I guard 4 8 good - A | RECONSTRUCTED a test\n"
                        "unit blue 2 inf II guard 4 8 good - B | RECONSTRUCTED a test\n"
                        "line-up 100,100 0 B1 B2 | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(mixed, strlen(mixed), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 3"));
    assert_non_null(strstr(msg, "[Formations]"));
    const char *angle = "unit blue 1 inf I guard 4 8 good - A | RECONSTRUCTED a test\n"
                        "line-up 100,100 45 B1 | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(angle, strlen(angle), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    const char *cav = "unit red 1 cav I guard 4 8 good - A | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(cav, strlen(cav), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 1"));
    const char *longname = "scenario t | RECONSTRUCTED a test\n"
                           "unit red 1 inf I guard 4 8 good - A_name_far_too_long_for_the_name_field_of_a_tile_record | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(longname, strlen(longname), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    assert_non_null(strstr(msg, "too long"));
    const char *unknown = "scenario t | RECONSTRUCTED a test\nhexes 5 | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(unknown, strlen(unknown), &sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
}

/* the parser never reads past its input nor crashes on a cut or garbled text: it accepts or names
 * a line */
static void test_wem_data_parser_survives_cut_and_garbled_text(void **st) {
    (void)st;
    size_t len = 0;
    const char *t = wem_data_text("full", &len);
    assert_non_null(t);
    static wem_scenario sc;
    static char copy[1 << 17];
    assert_true(len < sizeof copy);
    char msg[200];
    for (size_t cut = 0; cut < len; cut += 97) {
        int r = wem_data_parse(t, cut, &sc, msg, sizeof msg);
        if (r) assert_memory_equal(msg, "line ", 5);
        else assert_true(cut > 0);
    }
    uint32_t x = 12345;
    for (int k = 0; k < 300; k++) {
        memcpy(copy, t, len);
        for (int j = 0; j < 4; j++) {
            x = x * 1103515245u + 12345u;
            copy[(x >> 8) % len] = (char)(" ,|#-9x\n"[(x >> 4) % 8]);
        }
        int r = wem_data_parse(copy, len, &sc, msg, sizeof msg);
        if (r) assert_memory_equal(msg, "line ", 5);
    }
}

/* the parser converts millimetres and degrees to the geometry's units, and a line-up places its
 * pieces from the front-left corner: fronts aligned, edge to edge, a column behind */
static void test_wem_data_line_up_geometry(void **st) {
    (void)st;
    static wem_scenario sc;
    char msg[200];
    const char *t = "scenario t | RECONSTRUCTED a test\nlast-turn 7 | RECONSTRUCTED a test\n"
                    "seats 2 | RECONSTRUCTED a test\nboard 500 400 | RECONSTRUCTED a test\n"
                    "unit red 1 inf I veteran 3 5 good - A | RECONSTRUCTED a test\n"
                    "unit red 2 inf I veteran 3 5 good - B | RECONSTRUCTED a test\n"
                    "unit red 3 art-foot I veteran 2 4 normal - C bombards | RECONSTRUCTED a test\n"
                    "unit red 4 art-horse I veteran 2 3 normal - D fastened | RECONSTRUCTED a test\n"
                    "line-up 200,100 180 R1+R2 R3 R4 | RECONSTRUCTED a test\n"
                    "area town x objective red 7 10,10 20,10 20,20 | RECONSTRUCTED a test\n";
    assert_int_equal(wem_data_parse(t, strlen(t), &sc, msg, sizeof msg), 0);
    assert_int_equal(sc.width, 500 * WEM_MM);
    assert_int_equal(sc.height, 400 * WEM_MM);
    /* facing south: the front-left corner is the south-east one; left to right runs west */
    assert_int_equal(sc.units[0].at.x, (200 - 15) * WEM_MM);
    assert_int_equal(sc.units[0].at.y, (100 - 15) * WEM_MM);
    assert_int_equal(sc.units[1].at.x, (200 - 15) * WEM_MM);
    assert_int_equal(sc.units[1].at.y, (100 - 45) * WEM_MM);
    assert_int_equal(sc.units[2].at.x, (200 - 30) * WEM_MM - 150);
    assert_int_equal(sc.units[2].at.y, 100 * WEM_MM - 150);
    /* the fastened gun's counter in front, its Horse Team behind it */
    assert_int_equal(sc.units[3].at.x, (200 - 45) * WEM_MM - 150);
    assert_int_equal(sc.units[3].at.y, 100 * WEM_MM - 150);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(sc.units[i].h, 1800);
        assert_int_equal(sc.units[i].setup_fmn, 1);
    }
    assert_true(s_touch(s_unit_box(&sc.units[0]), s_unit_box(&sc.units[2])));
    assert_true(s_touch(s_unit_box(&sc.units[2]), s_unit_box(&sc.units[3])));
    assert_true(s_touch(s_unit_box(&sc.units[0]), s_unit_box(&sc.units[1])));
    assert_int_equal(sc.areas[0].obj_vp, 7);
    assert_int_equal(sc.areas[0].blocks_lof, 0);
    wem_poly p = wem_area_poly(&sc, &sc.areas[0]);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.v[1].x, 20 * WEM_MM);
}

/* the scenario hash input differs between scenarios, and each is its own file then the shared one */
static void test_wem_data_text_differs_between_scenarios(void **st) {
    (void)st;
    size_t len[3];
    const char *t[3];
    for (int i = 0; i < 3; i++) {
        t[i] = wem_data_text(s_names[i], &len[i]);
        assert_non_null(t[i]);
        assert_true(len[i] > 1000);
    }
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) assert_false(len[i] == len[j] && !memcmp(t[i], t[j], len[i]));
    assert_null(wem_data_text("no-such-scenario", &len[0]));
    int n = 0;
    while (wem_data_name((size_t)n)) n++;
    assert_int_equal(n, 3);
    /* the shared battlefield is the same tail of each */
    const char *mark = "# Waterloo: Enemy Mistakes: the battlefield";
    const char *a = strstr(t[0], mark), *b = strstr(t[1], mark);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(len[0] - (size_t)(a - t[0]), len[1] - (size_t)(b - t[1]));
    assert_memory_equal(a, b, len[0] - (size_t)(a - t[0]));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_data_every_scenario_parses),
        cmocka_unit_test(test_wem_data_components_counts),
        cmocka_unit_test(test_wem_data_unit_ids_unique),
        cmocka_unit_test(test_wem_data_every_record_has_provenance),
        cmocka_unit_test(test_wem_data_formations_in_exact_contact),
        cmocka_unit_test(test_wem_data_setup_through_the_geometry),
        cmocka_unit_test(test_wem_data_no_pieces_overlap),
        cmocka_unit_test(test_wem_data_nothing_touches_offfield),
        cmocka_unit_test(test_wem_data_generals_within_2_uom_of_their_corps),
        cmocka_unit_test(test_wem_data_no_enemy_within_2_uom),
        cmocka_unit_test(test_wem_data_garrisons_inside_hougoumont_and_la_haye_sainte),
        cmocka_unit_test(test_wem_data_grand_battery_23_24_9_in_contact),
        cmocka_unit_test(test_wem_data_ney_formation_36_37_38_39),
        cmocka_unit_test(test_wem_data_red_horse_artillery_39_40_bombard),
        cmocka_unit_test(test_wem_data_horse_teams_not_on_board),
        cmocka_unit_test(test_wem_data_black_enters_by_corps_sections),
        cmocka_unit_test(test_wem_data_black_corps_can_enter_at_their_sections),
        cmocka_unit_test(test_wem_data_generals_table_and_vp),
        cmocka_unit_test(test_wem_data_town_objectives),
        cmocka_unit_test(test_wem_data_lof_blocking_terrain),
        cmocka_unit_test(test_wem_data_parameters),
        cmocka_unit_test(test_wem_data_sides_and_fold),
        cmocka_unit_test(test_wem_data_parser_rejects_malformed_line),
        cmocka_unit_test(test_wem_data_parser_survives_cut_and_garbled_text),
        cmocka_unit_test(test_wem_data_line_up_geometry),
        cmocka_unit_test(test_wem_data_text_differs_between_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
