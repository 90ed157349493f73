/*
 * render.c - the picture of a wem state (docs/render.md "wem"): one standalone SVG document of
 * the battlefield at its own scale. The user units of the viewBox are the rules' own units,
 * 1/20 mm (geom.h), so every piece stands exactly where the state says; the picture is
 * width / WEM_MM pixels wide, a millimetre a pixel.
 *
 * What it draws, from the scenario data and the state (never from C literals about the board):
 * the board outline; the elements out of field (turn track, command tables, the coloured sides)
 * [Understanding the Game Board]; the terrain areas filled by kind [Area Terrain]; the linear
 * terrain as strokes of their own width [Linear Terrain]; the fold line [Maneuver limit]; the
 * black deployment area and its entrance sections I, II, III [Entrance of the black (Prussian)
 * army]; the line of fire of the last bombardment (the 15 x 180 mm strip) [Line of fire and
 * visibility]; the melee in progress [3.4 Combat]; every unit on the field at its position and
 * heading, its front edge marked, in its army's colour with the symbol of its kind, and its Horse
 * Team behind it when fastened [Units]; its markers (green, orange count, yellow count) [Colored
 * Markers], Smoke [2. Bombardment] and Losses; the Generals and Commanders in Chief as 15 mm
 * counters [Generals]; and a caption under the board: turn, phase, initiative, the decision in
 * front (its kind and rule), markers, Victory points, the result.
 *
 * Hidden information: Enemy Mistakes hides only the sealed initiative bids [1. Initiative],
 * which the picture never shows (not even whether a bid is in): every viewpoint gets the same
 * picture. Integers only: the bytes are the same on every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

#define S_CAPTION 1700 /* the caption band under the board, 85 mm */
#define S_FONT 170     /* caption text, 8.5 mm */

typedef struct s_rend {
    const wem_scenario *sc;
    const wem_state *s;
    brt_buf *out;
    int rc;
} s_rend;

static const char *const s_army_name[WEM_ARMIES] = {"blue", "red", "black"};
static const char *const s_army_people[WEM_ARMIES] = {"French", "English", "Prussian"};
static const char *const s_army_fill[WEM_ARMIES] = {"#2f5fb3", "#c0392b", "#2b2b2b"};
static const char *const s_kind_name[5] = {"infantry", "cavalry", "foot-artillery", "horse-artillery", "garrison"};
static const char *const s_area_name[5] = {"grass", "hill", "wood", "farm", "town"};
static const char *const s_area_fill[5] = {"#cfe0a4", "#d8bf86", "#6f9a55", "#e6d68a", "#b59c86"};
static const char *const s_line_name[4] = {"road", "sunken-road", "torrent", "bridge"};
static const char *const s_line_stroke[4] = {"#9a7444", "#5c3f1f", "#3f7fbf", "#6b4f2a"};
static const char *const s_cls_name[5] = {"guard", "elite", "veteran", "regular", "recruit"};
static const char *const s_roman[20] = {"",   "I",   "II",   "III", "IV", "V",   "VI",   "VII",  "VIII", "IX",
                                        "X",  "XI",  "XII",  "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX"};

static void s_put(s_rend *r, const char *str) { r->rc |= buf_append_str(r->out, str); }
static void s_xml(s_rend *r, const char *str) { r->rc |= buf_append_xml(r->out, str); }
#define S_PF(r, ...) ((r)->rc |= buf_printf((r)->out, __VA_ARGS__))

static const char *s_name5(const char *const *names, unsigned v) { return v < 5 ? names[v] : "?"; }
static const char *s_turn_roman(unsigned t) { return t < 20 ? s_roman[t] : "?"; }

/* a heading (tenths of a degree, clockwise from north) as an SVG rotation in degrees */
static void s_rotate(s_rend *r, int32_t h) {
    h = wem_g_norm(h);
    if (h % 10)
        S_PF(r, "rotate(%d.%d)", (int)(h / 10), (int)(h % 10));
    else
        S_PF(r, "rotate(%d)", (int)(h / 10));
}

/* the vertices of a polygon or polyline as an SVG points list */
static void s_points(s_rend *r, const wem_pt *v, unsigned n) {
    for (unsigned i = 0; i < n; i++) S_PF(r, "%s%d,%d", i ? " " : "", (int)v[i].x, (int)v[i].y);
}

static int s_verts_ok(const wem_scenario *sc, unsigned first, unsigned n) {
    return n > 0 && first + n <= sc->n_verts && first + n <= WEM_MAX_VERTS;
}

static void s_area(s_rend *r, const wem_area_def *a, const char *cls, const char *fill, const char *stroke,
                   int sw, const char *extra) {
    if (!s_verts_ok(r->sc, a->first, a->n)) return;
    S_PF(r, "<polygon class=\"%s\" data-name=\"", cls);
    s_xml(r, a->name);
    S_PF(r, "\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"%s points=\"", fill, stroke, sw, extra);
    s_points(r, &r->sc->verts[a->first], a->n);
    s_put(r, "\"/>\n");
}

static void s_line(s_rend *r, const wem_line_def *l, const char *cls, const char *stroke, int width,
                   const char *extra) {
    if (!s_verts_ok(r->sc, l->first, l->n)) return;
    S_PF(r, "<polyline class=\"%s\" data-name=\"", cls);
    s_xml(r, l->name);
    S_PF(r, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" stroke-linejoin=\"round\"%s points=\"", stroke,
         width, extra);
    s_points(r, &r->sc->verts[l->first], l->n);
    s_put(r, "\"/>\n");
}

/* ---- the battlefield ---- */

static void s_board(s_rend *r) {
    const wem_scenario *sc = r->sc;
    S_PF(r, "<rect class=\"board\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#333\" "
            "stroke-width=\"40\"/>\n",
         (int)sc->width, (int)sc->height, s_area_fill[WEM_T_GRASS]);
    /* [Understanding the Game Board] the elements out of field */
    s_put(r, "<g class=\"offfield\">\n");
    for (size_t i = 0; i < sc->n_offfield && i < WEM_MAX_OFFFIELD; i++)
        s_area(r, &sc->offfield[i], "offfield", "#e9e4d8", "#8a8170", 20, "");
    s_put(r, "</g>\n<g class=\"areas\">\n");
    /* [Area Terrain] */
    for (size_t i = 0; i < sc->n_areas && i < WEM_MAX_AREAS; i++) {
        const wem_area_def *a = &sc->areas[i];
        char cls[48];
        snprintf(cls, sizeof cls, "area %s", s_name5(s_area_name, a->kind));
        s_area(r, a, cls, a->kind < 5 ? s_area_fill[a->kind] : "#ccc", "#5a5a4a", 12,
               a->blocks_lof ? " data-blocks-lof=\"1\"" : "");
    }
    s_put(r, "</g>\n<g class=\"lines\">\n");
    /* [Linear Terrain] a band of its own width */
    for (size_t i = 0; i < sc->n_lines && i < WEM_MAX_LINES; i++) {
        const wem_line_def *l = &sc->lines[i];
        char cls[48];
        unsigned k = l->kind < 4 ? l->kind : WEM_L_ROAD;
        int w = l->hw > 0 ? (int)(2 * l->hw) : 40;
        snprintf(cls, sizeof cls, "line %s", s_line_name[k]);
        s_line(r, l, cls, s_line_stroke[k], w, k == WEM_L_SUNKEN ? " stroke-dasharray=\"120 40\"" : "");
    }
    s_put(r, "</g>\n");
    /* [Maneuver limit] the fold of the board */
    if (sc->fold_x > 0 && sc->fold_x < sc->width)
        S_PF(r, "<line class=\"fold\" x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\" stroke=\"#555\" stroke-width=\"16\" "
                "stroke-dasharray=\"200 120\"/>\n",
             (int)sc->fold_x, (int)sc->fold_x, (int)sc->height);
    /* the black deployment area and the entrance sections */
    s_area(r, &sc->deploy, "deploy", "#000", "#000", 40, " fill-opacity=\"0.13\"");
    for (int k = 0; k < 3; k++) {
        const wem_line_def *e = &sc->entrance[k];
        if (!s_verts_ok(sc, e->first, e->n)) continue;
        s_line(r, e, "entrance", "#000", 80, "");
        const wem_pt *p = &sc->verts[e->first + e->n / 2];
        S_PF(r, "<text class=\"entrance-label\" x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" "
                "fill=\"#000\" font-weight=\"bold\">%s</text>\n",
             (int)p->x, (int)p->y - 120, S_FONT, k == 0 ? "I" : k == 1 ? "II" : "III");
    }
}

/* [Line of fire and visibility] the last bombardment's strip, 15 mm by 6 UoM */
static void s_lof(s_rend *r) {
    const wem_state *s = r->s;
    int g = s->last_lof_gun, t = s->last_lof_target;
    if (g < 0 || (size_t)g >= r->sc->n_units) return;
    wem_rect gun = wem_unit_rect(s, g);
    /* the strip starts at the gun counter's own front edge, the Horse Team behind it or not */
    gun.c = s->units[g].at;
    gun.hd = WEM_UOM / 4;
    wem_rect strip = wem_g_lof(&gun, WEM_UOM / 2, 6 * WEM_UOM);
    wem_quad q;
    wem_g_quad(&strip, 0, &q);
    s_put(r, "<polygon class=\"lof\" data-gun=\"");
    s_xml(r, r->sc->units[g].id);
    s_put(r, "\"");
    if (t >= 0 && (size_t)t < r->sc->n_units) {
        s_put(r, " data-target=\"");
        s_xml(r, r->sc->units[t].id);
        s_put(r, "\"");
    }
    s_put(r, " fill=\"#80808055\" stroke=\"#444\" stroke-width=\"10\" stroke-dasharray=\"60 30\" points=\"");
    s_points(r, q.v, 4);
    s_put(r, "\"/>\n");
}

/* [3.4 Combat] the melee in progress: a line from the attacking unit to the defending one */
static void s_combat(s_rend *r) {
    const wem_combat *c = &r->s->combat;
    size_t n = r->sc->n_units;
    if (!c->active || c->att < 0 || c->def < 0 || (size_t)c->att >= n || (size_t)c->def >= n) return;
    const wem_unit *a = &r->s->units[c->att], *d = &r->s->units[c->def];
    if (a->status != WEM_ON || d->status != WEM_ON) return;
    s_put(r, "<line class=\"melee\" data-attacker=\"");
    s_xml(r, r->sc->units[c->att].id);
    s_put(r, "\" data-defender=\"");
    s_xml(r, r->sc->units[c->def].id);
    S_PF(r, "\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c0189c\" stroke-width=\"50\" "
            "stroke-linecap=\"round\" stroke-dasharray=\"120 60\"/>\n",
         (int)a->at.x, (int)a->at.y, (int)d->at.x, (int)d->at.y);
}

/* a marker disc with a count, in the piece's own frame */
static void s_badge(s_rend *r, const char *cls, int x, int y, const char *fill, const char *ink, unsigned n,
                    int show_n) {
    S_PF(r, "<g class=\"%s\" data-count=\"%u\"><circle cx=\"%d\" cy=\"%d\" r=\"70\" fill=\"%s\" stroke=\"#222\" "
            "stroke-width=\"8\"/>",
         cls, n, x, y, fill);
    if (show_n)
        S_PF(r, "<text x=\"%d\" y=\"%d\" font-size=\"100\" text-anchor=\"middle\" fill=\"%s\">%u</text>", x, y + 35,
             ink, n);
    s_put(r, "</g>");
}

/* the symbol of the kind [Units], centred at (0, cy) in a w x h box */
static void s_symbol(s_rend *r, int kind, int w, int h, int cy) {
    int x0 = -w / 2, y0 = cy - h / 2, x1 = w / 2, y1 = cy + h / 2;
    S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#fff\" stroke-width=\"12\"/>",
         x0, y0, w, h);
    switch (kind) {
    case WEM_INF:
        S_PF(r, "<path d=\"M%d %dL%d %dM%d %dL%d %d\" stroke=\"#fff\" stroke-width=\"12\"/>", x0, y0, x1, y1, x0, y1,
             x1, y0);
        break;
    case WEM_CAV: S_PF(r, "<path d=\"M%d %dL%d %d\" stroke=\"#fff\" stroke-width=\"12\"/>", x0, y1, x1, y0); break;
    case WEM_ART_FOOT:
    case WEM_ART_HORSE:
        S_PF(r, "<circle cx=\"0\" cy=\"%d\" r=\"%d\" fill=\"#fff\"/>", cy, h / 5);
        if (kind == WEM_ART_HORSE)
            S_PF(r, "<path d=\"M%d %dL%d %d\" stroke=\"#fff\" stroke-width=\"10\"/>", x0, y1, x1, y0);
        break;
    default: /* a garrison: a house */
        S_PF(r, "<path d=\"M%d %dL%d %dL0 %dL%d %dL%d %dZ\" fill=\"#fff\"/>", x0 + w / 5, y1, x0 + w / 5, cy,
             y0 + h / 8, x1 - w / 5, cy, x1 - w / 5, y1);
        break;
    }
}

/* where a marker goes, in the piece's frame: a fixed corner of a tile for each kind of marker,
 * the next place in a column beside a 15 mm counter */
static void s_slot(int big, int idx, int *k, int hw, int hd, int *px, int *py) {
    static const int sx[5] = {-1, 1, 1, -1, 1}, sy[5] = {-210, -210, -40, 230, 230};
    if (big) {
        *px = sx[idx] * (hw - 60), *py = sy[idx];
    } else {
        *px = hw + 80, *py = -hd + 70 + *k * 150;
    }
    (*k)++;
}

static void s_unit(s_rend *r, int u) {
    const wem_unit_def *d = &r->sc->units[u];
    const wem_unit *x = &r->s->units[u];
    unsigned army = d->army < WEM_ARMIES ? d->army : 0;
    int big = d->kind == WEM_INF || d->kind == WEM_CAV;
    int hw = big ? WEM_UOM / 2 : WEM_UOM / 4, hd = hw;
    const char *fill = s_army_fill[army];
    s_put(r, "<g class=\"counter\" id=\"u-");
    s_xml(r, d->id);
    s_put(r, "\" data-unit=\"");
    s_xml(r, d->id);
    S_PF(r, "\" data-army=\"%s\" data-kind=\"%s\" data-corps=\"%u\" data-class=\"%s\" data-x=\"%d\" data-y=\"%d\" "
            "data-h=\"%d\"",
         s_army_name[army], s_name5(s_kind_name, d->kind), d->corps, s_name5(s_cls_name, d->cls), (int)x->at.x,
         (int)x->at.y, (int)x->h);
    if (x->fastened) s_put(r, " data-fastened=\"1\"");
    S_PF(r, " transform=\"translate(%d %d) ", (int)x->at.x, (int)x->at.y);
    s_rotate(r, x->h);
    s_put(r, "\"><title>");
    s_xml(r, d->id);
    s_put(r, " ");
    s_xml(r, d->name);
    S_PF(r, " (%s %s, corps %u, losses %u of %u)</title>", s_army_people[army], s_name5(s_kind_name, d->kind),
         d->corps, x->losses, d->losses);
    /* [Units] the Horse Team counter behind a fastened gun (R-wem-horse-team-behind) */
    if (x->fastened && !big && d->kind != WEM_GARRISON)
        S_PF(r, "<g class=\"horse-team\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#8d6e4a\" "
                "stroke=\"#222\" stroke-width=\"10\"/><path d=\"M%d %dL%d %dL%d %d\" fill=\"none\" stroke=\"#fff\" "
                "stroke-width=\"10\"/></g>",
             -hw, hd, 2 * hw, 2 * hd, -hw / 2, hd + hd / 2, 0, hd + hd, hw / 2, hd + hd / 2);
    /* the tile or counter; cavalry tiles are white over the army's colour, cut on the diagonal */
    S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#111\" stroke-width=\"10\"/>",
         -hw, -hd, 2 * hw, 2 * hd, fill);
    if (d->kind == WEM_CAV)
        S_PF(r, "<path d=\"M%d %dL%d %dL%d %dZ\" fill=\"#f4f4f4\"/>", -hw, -hd, hw, -hd, -hw, hd);
    /* the front edge [Units] "Front: indicates the orientation" */
    S_PF(r, "<line class=\"front\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ffd400\" stroke-width=\"40\"/>",
         -hw, -hd + 20, hw, -hd + 20);
    if (big) {
        s_symbol(r, d->kind, hw, hd * 2 / 3, -hd / 6);
        /* a cavalry tile is half white: its id in dark ink on a white halo */
        if (d->kind == WEM_CAV)
            S_PF(r, "<text x=\"0\" y=\"%d\" font-size=\"130\" text-anchor=\"middle\" fill=\"#111\" stroke=\"#fff\" "
                    "stroke-width=\"24\" paint-order=\"stroke\">",
                 hd - 50);
        else
            S_PF(r, "<text x=\"0\" y=\"%d\" font-size=\"130\" text-anchor=\"middle\" fill=\"#fff\">", hd - 50);
    } else {
        s_symbol(r, d->kind, hw, hd * 2 / 3, -hd / 5);
        S_PF(r, "<text x=\"0\" y=\"%d\" font-size=\"80\" text-anchor=\"middle\" fill=\"#fff\">", hd - 25);
    }
    s_xml(r, d->id);
    s_put(r, "</text>");
    /* [Colored Markers] green, orange (a count), yellow (a count); Smoke; Losses: inside the
     * corners of a tile, in a column beside a 15 mm counter */
    int k = 0, px, py;
    if (x->green) s_slot(big, 0, &k, hw, hd, &px, &py), s_badge(r, "green", px, py, "#2e9d3a", "#fff", 1, 0);
    if (x->orange) s_slot(big, 1, &k, hw, hd, &px, &py), s_badge(r, "orange", px, py, "#f08a1c", "#111", x->orange, 1);
    if (x->yellow) s_slot(big, 2, &k, hw, hd, &px, &py), s_badge(r, "yellow", px, py, "#f7dd1e", "#111", x->yellow, 1);
    if (x->smoke) s_slot(big, 3, &k, hw, hd, &px, &py), s_badge(r, "smoke", px, py, "#9a9a9a", "#111", 1, 0);
    if (x->losses) s_slot(big, 4, &k, hw, hd, &px, &py), s_badge(r, "losses", px, py, "#b01818", "#fff", x->losses, 1);
    s_put(r, "</g>\n");
}

/* [Generals] [Commanders in Chief] 15 mm counters, no front */
static void s_general(s_rend *r, int g) {
    const wem_general_def *d = &r->sc->generals[g];
    const wem_general *x = &r->s->generals[g];
    unsigned army = d->army < WEM_ARMIES ? d->army : 0;
    int hw = WEM_UOM / 4;
    s_put(r, "<g class=\"general\" id=\"g-");
    s_xml(r, d->id);
    s_put(r, "\" data-general=\"");
    s_xml(r, d->id);
    S_PF(r, "\" data-army=\"%s\"", s_army_name[army]);
    if (x->attached >= 0 && (size_t)x->attached < r->sc->n_units) {
        s_put(r, " data-attached=\"");
        s_xml(r, r->sc->units[x->attached].id);
        s_put(r, "\"");
    }
    if (x->substitute) s_put(r, " data-substitute=\"1\"");
    S_PF(r, " transform=\"translate(%d %d)\"><title>", (int)x->at.x, (int)x->at.y);
    s_xml(r, x->substitute ? d->sub_name : d->name);
    S_PF(r, "%s (%s, %u markers)</title>", d->cinc ? " Commander in Chief" : "", s_army_people[army], x->markers);
    S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"30\" fill=\"#f7f1dc\" stroke=\"%s\" "
            "stroke-width=\"%d\"/>",
         -hw, -hw, 2 * hw, 2 * hw, s_army_fill[army], d->cinc ? 50 : 30);
    /* the stars of his rank, or the corps' numeral; a Substitute has none */
    const char *label = d->cinc ? "" : (d->corps < 20 ? s_roman[d->corps] : "");
    S_PF(r, "<text x=\"0\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"%s\" font-weight=\"bold\">", 40,
         d->cinc ? 130 : 110, s_army_fill[army]);
    if (d->cinc || d->ney) {
        /* the counter's letter: N, W, B, or NEY */
        const char *id = d->id, *dash = strrchr(id, '-');
        s_xml(r, dash ? dash + 1 : id);
    } else {
        s_xml(r, x->substitute ? "S" : label);
    }
    s_put(r, "</text>");
    if (x->markers) s_badge(r, "markers", hw - 20, -hw + 20, s_army_fill[army], "#fff", x->markers, 1);
    s_put(r, "</g>\n");
}

/* ---- the caption ---- */

static void s_caption_line(s_rend *r, int line, const char *text) {
    S_PF(r, "<text class=\"caption-line\" x=\"120\" y=\"%d\" font-size=\"%d\" fill=\"#111\">",
         (int)r->sc->height + 260 + line * (S_FONT + 70), S_FONT);
    s_xml(r, text);
    s_put(r, "</text>\n");
}

static void s_caption(s_rend *r, int viewpoint, const brt_render_ctx *ctx) {
    const wem_state *s = r->s;
    const wem_scenario *sc = r->sc;
    char t[256];
    int n = 0;
    S_PF(r, "<g class=\"caption\" data-turn=\"%u\" data-phase=\"%s\">\n", s->turn, wem_phase_name(s->phase));
    snprintf(t, sizeof t, "Waterloo: Enemy Mistakes - %s scenario, turn %s of %s - %s", sc->name,
             s_turn_roman(s->turn), s_turn_roman(sc->last_turn), s->over ? "the game is over" : wem_phase_name(s->phase));
    s_caption_line(r, n++, t);
    /* the initiative order, and who acts now [1. Initiative] [3. Execution] */
    int len = snprintf(t, sizeof t, "initiative:");
    for (int i = 0; i < s->n_order && i < WEM_ARMIES && len < (int)sizeof t; i++) {
        unsigned a = s->order[i] < WEM_ARMIES ? s->order[i] : 0;
        len += snprintf(t + len, sizeof t - (size_t)len, " %s%s (%s)", i ? "then " : "", s_army_name[a],
                        i == 0 ? "gold" : i == 1 ? "silver" : "third");
    }
    if (!s->over && len < (int)sizeof t)
        snprintf(t + len, sizeof t - (size_t)len, "; acting: %s", s_army_name[wem_cur_army(s) % WEM_ARMIES]);
    s_caption_line(r, n++, t);
    /* the decision in front: its kind and rule only (a sealed decision's seats and prompt could
     * tell who has bid, which no picture shows) */
    if (!s->over) {
        brt_pending p;
        wem_pending(s, &p);
        snprintf(t, sizeof t, "decision: %s [%s]%s", p.kind, p.rule, p.sealed ? ", sealed" : "");
        s_caption_line(r, n++, t);
    }
    /* markers in the Commander in Chief box, Victory points so far, pieces removed */
    len = snprintf(t, sizeof t, "markers in the Commander in Chief box:");
    for (int a = 0; a < WEM_ARMIES && len < (int)sizeof t; a++)
        len += snprintf(t + len, sizeof t - (size_t)len, " %s %u", s_army_name[a], s->markers[a]);
    if (len < (int)sizeof t) len += snprintf(t + len, sizeof t - (size_t)len, "; Victory points:");
    for (int a = 0; a < WEM_ARMIES && len < (int)sizeof t; a++)
        len += snprintf(t + len, sizeof t - (size_t)len, " %s %d", s_army_name[a], (int)s->vp[a]);
    s_caption_line(r, n++, t);
    int gone[WEM_ARMIES] = {0}, waiting[WEM_ARMIES] = {0};
    for (size_t i = 0; i < sc->n_units; i++) {
        unsigned a = sc->units[i].army % WEM_ARMIES;
        if (s->units[i].status == WEM_NOT_ENTERED)
            waiting[a]++;
        else if (s->units[i].status != WEM_ON)
            gone[a]++;
    }
    len = snprintf(t, sizeof t, "units removed [Effects of Unit removal]: blue %d, red %d, black %d; black units not "
                                "entered: %d",
                   gone[0], gone[1], gone[2], waiting[2]);
    s_caption_line(r, n++, t);
    if (s->over) {
        snprintf(t, sizeof t, "result: %s%s%s", s->level, s->level[0] ? ": " : "", s->reason);
        s_caption_line(r, n++, t);
    }
    len = snprintf(t, sizeof t, "viewpoint: %s",
                   viewpoint == BRT_VIEW_ALL ? "all" : viewpoint == BRT_VIEW_PUBLIC ? "spectators" : "seat");
    if (viewpoint >= 0) snprintf(t + len, sizeof t - (size_t)len, " %d", viewpoint);
    if (ctx && ctx->caption && ctx->caption[0]) {
        len = (int)strlen(t);
        snprintf(t + len, sizeof t - (size_t)len, " - %.150s", ctx->caption);
    }
    s_caption_line(r, n++, t);
    s_put(r, "</g>\n");
}

int wem_render(const wem_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    s_rend r = {s->sc, s, out, 0};
    const wem_scenario *sc = s->sc;
    int w = sc->width > 0 ? (int)sc->width : 20000, h = sc->height > 0 ? (int)sc->height : 13600;
    int hh = h + S_CAPTION;
    S_PF(&r, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"wem\" data-scenario=\"");
    s_xml(&r, sc->name);
    S_PF(&r, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", w / WEM_MM,
         hh / WEM_MM, w, hh);
    s_put(&r, "<title>Waterloo: Enemy Mistakes</title>\n");
    s_board(&r);
    s_lof(&r);
    s_put(&r, "<g class=\"units\">\n");
    for (size_t i = 0; i < sc->n_units; i++)
        if (s->units[i].status == WEM_ON) s_unit(&r, (int)i);
    s_put(&r, "</g>\n<g class=\"generals\">\n");
    for (size_t g = 0; g < sc->n_generals; g++)
        if (s->generals[g].status == WEM_ON) s_general(&r, (int)g);
    s_put(&r, "</g>\n");
    s_combat(&r);
    s_caption(&r, viewpoint, ctx);
    s_put(&r, "</svg>\n");
    return r.rc ? -1 : 0;
}
