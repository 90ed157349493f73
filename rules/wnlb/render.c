/*
 * render.c - the picture of a wnlb state (docs/render.md): one standalone SVG
 * document with the board of the scenario data (the squares with their terrain
 * [8.3], their side features: ridge, stream, bridge, road, pond; the chateaux with
 * their CDP [10.0]; the VP squares and their owners [13.2] [13.3]), the counters
 * with their facing [8.1], full or reduced side [9.1], Disorder [9.5], Moved [8.0]
 * and Rally [11.6] markers, the commanders [12.0], the battle in progress [9.0] and
 * the last move's path, and a panel with the turn, the round and whose it is, the
 * cards of each hand as counts and the viewpoint's own hand.
 *
 * Hidden information: the units, the commanders and the board are public in this
 * game; the cards are not. A hand's cards are drawn only for a viewpoint that
 * wnlb_may_see_hand (view.c) lets see it, the one call wnlb_view makes: a seat sees
 * its own hand, BRT_VIEW_ALL every hand, BRT_VIEW_PUBLIC none; every other hand is
 * a count [2.4] [6.0]. The cards of a battle are drawn once both sides have given
 * theirs (revealed together [9.3]); the unused portion is a count too.
 * Integers only, so that the bytes are the same on every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"
#include "wnlb_render.h"
#include "wnlb/v1/wnlb.pb-c.h"

/* geometry: squares SQ wide and high; row 0 (A) at the top, north [3.1] */
#define SQ 60
#define MARGIN 24
#define TOP 24
#define PANEL_W 470
#define CW 40 /* counter size */

typedef struct s_rend {
    const wnlb_scenario *sc;
    const wnlb_state *s;
    int vp;
    int map_w, map_h;
    brt_buf *out;
    int rc;
} s_rend;

typedef struct s_panel {
    int x, y;
} s_panel;

static const char *s_terrain_name[5] = {"clear", "woods", "village", "chateau", "hill"};
static const char *s_terrain_fill[5] = {"#ece6c8", "#8fbc77", "#c8ad8a", "#b9a58c", "#d6c08c"};
static const char *s_army_name[WNLB_ARMIES] = {"French", "British", "Prussian"};
static const char *s_army_fill[WNLB_ARMIES] = {"#2f5fb3", "#c0392b", "#3a3a3a"};
static const char *s_side_fill[2] = {"#2f5fb3", "#c0392b"};
static const char *s_side_name[2] = {"French", "Allied"};
static const char *s_dir_name[4] = {"north", "east", "south", "west"};
static const char *s_action_name[WNLB_ACT_COUNT] = {"-", "Artillery Fire", "Command Benefit", "Elite Bonus",
                                                    "Cavalry Charge", "Enemy Cavalry must Charge", "Rally",
                                                    "Napoleon's Health"};
static const char *s_cmd_name[2] = {"Napoleon", "Wellington"};

static void s_put(s_rend *r, const char *str) { r->rc |= buf_append_str(r->out, str); }
static void s_xml(s_rend *r, const char *str) { r->rc |= buf_append_xml(r->out, str); }
#define S_PF(r, ...) ((r)->rc |= buf_printf((r)->out, __VA_ARGS__))

static int s_cx(int col) { return MARGIN + col * SQ + SQ / 2; }
static int s_cy(int row) { return MARGIN + TOP + row * SQ + SQ / 2; }
/* the two ends of side d of a square: N, E, S, W */
static void s_edge(int row, int col, int d, int e[4]) {
    int x0 = MARGIN + col * SQ, y0 = MARGIN + TOP + row * SQ, x1 = x0 + SQ, y1 = y0 + SQ;
    switch (d) {
    case WNLB_N: e[0] = x0; e[1] = y0; e[2] = x1; e[3] = y0; break;
    case WNLB_E: e[0] = x1; e[1] = y0; e[2] = x1; e[3] = y1; break;
    case WNLB_S: e[0] = x0; e[1] = y1; e[2] = x1; e[3] = y1; break;
    default: e[0] = x0; e[1] = y0; e[2] = x0; e[3] = y1; break;
    }
}

/* a square of the board */
static int s_on_board(const wnlb_state *s, int row, int col) {
    return row >= 0 && col >= 0 && row < s->sc->rows && col < s->sc->cols && row < WNLB_MAX_ROWS && col < WNLB_MAX_COLS;
}

/* a mover by the name an order gives it: a unit index, WNLB_CMD0 / WNLB_CMD1 for the commanders, or -1 */
static int s_unit_find(const wnlb_state *s, const char *id) {
    if (strcmp(id, "NAPOLEON") == 0) return WNLB_CMD0;
    if (strcmp(id, "WELLINGTON") == 0) return WNLB_CMD1;
    for (size_t u = 0; u < s->sc->n_units && u < WNLB_MAX_UNITS; u++)
        if (strcmp(s->sc->units[u].id, id) == 0) return (int)u;
    return -1;
}

static const char *s_viewpoint_name(const wnlb_state *s, int vp) {
    if (vp == BRT_VIEW_ALL) return "all";
    if (vp == BRT_VIEW_PUBLIC) return "public";
    if (s->nseats == 3) return vp == 0 ? "french" : vp == 1 ? "british" : "prussian";
    return vp == 0 ? "french" : "allied";
}

static const char *s_place_at(const wnlb_scenario *sc, int row, int col) {
    for (size_t i = 0; i < sc->n_chateaux && i < WNLB_MAX_CHATEAUX; i++)
        if (sc->chateaux[i].row == row && sc->chateaux[i].col == col) return sc->chateaux[i].name;
    for (size_t i = 0; i < sc->n_vp && i < WNLB_MAX_VP; i++)
        if (sc->vp[i].row == row && sc->vp[i].col == col) return sc->vp[i].name;
    return NULL;
}

/* a VP square of this scenario [13.2] [13.3] */
static int s_vp_counts(const wnlb_scenario *sc, size_t i) {
    return sc->prussians ? sc->vp[i].full_game : sc->vp[i].short_game;
}

/* ---- the board ------------------------------------------------------------------- */
static void s_squares(s_rend *r) {
    const wnlb_scenario *sc = r->sc;
    char name[16];
    s_put(r, "<g class=\"squares\">\n");
    for (int row = 0; row < sc->rows && row < WNLB_MAX_ROWS; row++)
        for (int col = 0; col < sc->cols && col < WNLB_MAX_COLS; col++) {
            int t = sc->terrain[row][col] < 5 ? sc->terrain[row][col] : 0;
            int x = MARGIN + col * SQ, y = MARGIN + TOP + row * SQ;
            const char *place = s_place_at(sc, row, col);
            wnlb_square_name(row, col, name, sizeof name);
            S_PF(r, "<g class=\"square\" data-square=\"%s\" data-terrain=\"%s\"><title>%s %s", name, s_terrain_name[t],
                 name, s_terrain_name[t]);
            if (place) {
                s_put(r, ": ");
                s_xml(r, place);
            }
            S_PF(r, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#8c8670\"/>", x, y,
                 SQ, SQ, s_terrain_fill[t]);
            if (t == WNLB_WOODS)
                S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#5e8f4a\"/><circle cx=\"%d\" cy=\"%d\" r=\"5\" "
                        "fill=\"#5e8f4a\"/>",
                     x + 10, y + 50, x + 50, y + 50);
            if (t == WNLB_VILLAGE)
                S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"7\" fill=\"#6e5537\"/><rect x=\"%d\" y=\"%d\" "
                        "width=\"8\" height=\"7\" fill=\"#6e5537\"/>",
                     x + 4, y + 48, x + 48, y + 48);
            if (t == WNLB_CHATEAU)
                S_PF(r, "<rect class=\"chateau-border\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                        "stroke=\"#3d2e1c\" stroke-width=\"3\"/>",
                     x + 3, y + 3, SQ - 6, SQ - 6);
            if (t == WNLB_HILL)
                S_PF(r, "<path d=\"M%d,%d q10,-10 20,0\" fill=\"none\" stroke=\"#8a6d3b\" stroke-width=\"2\"/>", x + 4,
                     y + 54);
            S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"sqid\">%s</text></g>\n", x + 2, y + 8, name);
        }
    s_put(r, "</g>\n");
}

/* [8.3] the square-side features: each edge once (the north and west sides of every square, the south
 * and east sides of the last row and column); a road from the centre to the side it crosses */
static void s_sides(s_rend *r) {
    const wnlb_scenario *sc = r->sc;
    int e[4];
    s_put(r, "<g class=\"roads\">\n");
    for (int row = 0; row < sc->rows && row < WNLB_MAX_ROWS; row++)
        for (int col = 0; col < sc->cols && col < WNLB_MAX_COLS; col++)
            for (int d = 0; d < 4; d++)
                if (sc->side[row][col][d] & WNLB_SIDE_ROAD) {
                    s_edge(row, col, d, e);
                    S_PF(r, "<line class=\"road\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", s_cx(col), s_cy(row),
                         (e[0] + e[2]) / 2, (e[1] + e[3]) / 2);
                }
    s_put(r, "</g>\n<g class=\"sides\">\n");
    for (int row = 0; row < sc->rows && row < WNLB_MAX_ROWS; row++)
        for (int col = 0; col < sc->cols && col < WNLB_MAX_COLS; col++)
            for (int d = 0; d < 4; d++) {
                if ((d == WNLB_S && row != sc->rows - 1) || (d == WNLB_E && col != sc->cols - 1)) continue;
                unsigned f = sc->side[row][col][d];
                if (!(f & (WNLB_SIDE_RIDGE | WNLB_SIDE_STREAM | WNLB_SIDE_POND))) continue;
                char name[16];
                wnlb_square_name(row, col, name, sizeof name);
                s_edge(row, col, d, e);
                if (f & WNLB_SIDE_RIDGE)
                    S_PF(r, "<line class=\"ridge\" data-side=\"%s-%c\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", name,
                         "NESW"[d], e[0], e[1], e[2], e[3]);
                if (f & WNLB_SIDE_STREAM) {
                    S_PF(r, "<line class=\"stream\" data-side=\"%s-%c\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", name,
                         "NESW"[d], e[0], e[1], e[2], e[3]);
                    if (f & WNLB_SIDE_BRIDGE) { /* across the side, at its middle */
                        int mx = (e[0] + e[2]) / 2, my = (e[1] + e[3]) / 2, v = e[0] == e[2];
                        S_PF(r, "<line class=\"bridge\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", mx - (v ? 9 : 0),
                             my - (v ? 0 : 9), mx + (v ? 9 : 0), my + (v ? 0 : 9));
                    }
                }
                if (f & WNLB_SIDE_POND)
                    S_PF(r, "<line class=\"pond\" data-side=\"%s-%c\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", name,
                         "NESW"[d], e[0] + (e[0] == e[2] ? 0 : 8), e[1] + (e[0] == e[2] ? 8 : 0),
                         e[2] - (e[0] == e[2] ? 0 : 8), e[3] - (e[0] == e[2] ? 8 : 0));
            }
    s_put(r, "</g>\n");
}

/* [10.0] the chateaux and their CDP; [13.2] [13.3] the VP squares of the scenario with their owner */
static void s_places(s_rend *r) {
    const wnlb_scenario *sc = r->sc;
    const wnlb_state *s = r->s;
    s_put(r, "<g class=\"places\">\n");
    for (size_t i = 0; i < sc->n_vp && i < WNLB_MAX_VP; i++) {
        if (!s_vp_counts(sc, i)) continue;
        int owner = s->vp_owner[i] ? 1 : 0, x = MARGIN + sc->vp[i].col * SQ, y = MARGIN + TOP + sc->vp[i].row * SQ;
        S_PF(r, "<g class=\"vp\" data-owner=\"%s\" data-vp=\"%u-%u\"><title>", s_side_name[owner], sc->vp[i].vp[0],
             sc->vp[i].vp[1]);
        s_xml(r, sc->vp[i].name);
        S_PF(r, ": VP square, %s [13.2] [13.3]; %u VP French, %u VP Allied</title>", s_side_name[owner],
             sc->vp[i].vp[0], sc->vp[i].vp[1]);
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"%s\" stroke=\"#fff\"/><text x=\"%d\" "
                "y=\"%d\" class=\"mark\">VP</text></g>\n",
             x + SQ - 18, y + 2, s_side_fill[owner], x + SQ - 10, y + 11);
    }
    for (size_t i = 0; i < sc->n_chateaux && i < WNLB_MAX_CHATEAUX; i++) {
        int x = MARGIN + sc->chateaux[i].col * SQ, y = MARGIN + TOP + sc->chateaux[i].row * SQ;
        S_PF(r, "<g class=\"cdp\" data-cdp=\"%u\" data-printed=\"%u\"><title>", s->cdp[i], sc->chateaux[i].cdp);
        s_xml(r, sc->chateaux[i].name);
        S_PF(r, ": %u of %u CDP [10.0]</title><circle cx=\"%d\" cy=\"%d\" r=\"8\" fill=\"#3d2e1c\"/><text x=\"%d\" "
                "y=\"%d\" class=\"cdpn\">%u</text></g>\n",
             s->cdp[i], sc->chateaux[i].cdp, x + 10, y + SQ - 10, x + 10, y + SQ - 6, s->cdp[i]);
    }
    for (int row = 0; row < sc->rows && row < WNLB_MAX_ROWS; row++)
        for (int col = 0; col < sc->cols && col < WNLB_MAX_COLS; col++) {
            const char *place = s_place_at(sc, row, col);
            if (!place) continue;
            S_PF(r, "<text class=\"place\" x=\"%d\" y=\"%d\">", s_cx(col), MARGIN + TOP + row * SQ + SQ - 2);
            s_xml(r, place);
            s_put(r, "</text>\n");
        }
    s_put(r, "</g>\n");
}

/* ---- counters -------------------------------------------------------------------- */
static void s_badge(s_rend *r, const char *cls, int x, int y, const char *fill, const char *txt) {
    S_PF(r, "<g class=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" rx=\"2\" fill=\"%s\"/>"
            "<text x=\"%d\" y=\"%d\" class=\"badge\">%s</text></g>",
         cls, x, y, fill, x + 6, y + 8, txt);
}

/* [8.1] the arrow of the facing: a triangle on the front edge of the counter */
static void s_facing(s_rend *r, int f) {
    static const char *tri[4] = {"14,3 26,3 20,-4", "37,14 37,26 44,20", "14,37 26,37 20,44", "3,14 3,26 -4,20"};
    S_PF(r, "<polygon class=\"front\" data-facing=\"%s\" points=\"%s\"/>", s_dir_name[f & 3], tri[f & 3]);
}

static void s_counter(s_rend *r, int u) {
    const wnlb_state *s = r->s;
    const wnlb_unit_def *d = &r->sc->units[u];
    const wnlb_unit *w = &s->units[u];
    int army = d->army < WNLB_ARMIES ? d->army : 0, x = s_cx(w->col) - CW / 2, y = s_cy(w->row) - CW / 2;
    char sq[16];
    wnlb_square_name(w->row, w->col, sq, sizeof sq);
    s_put(r, "<g class=\"counter");
    if (w->reduced) s_put(r, " reduced");
    s_put(r, "\" id=\"u-");
    s_xml(r, d->id);
    s_put(r, "\" data-unit=\"");
    s_xml(r, d->id);
    S_PF(r, "\" data-square=\"%s\" data-army=\"%s\" data-type=\"%s\" data-facing=\"%s\" transform=\"translate(%d,%d)\">",
         sq, s_army_name[army], d->type == WNLB_CAV ? "cavalry" : "infantry", s_dir_name[w->facing & 3], x, y);
    s_put(r, "<title>");
    s_xml(r, d->id);
    s_put(r, " ");
    s_xml(r, d->name);
    S_PF(r, ": %s %s%s, %s side %u BP, facing %s, at %s", s_army_name[army],
         d->type == WNLB_CAV ? (d->heavy ? "heavy cavalry" : "light cavalry") : "infantry", d->elite ? ", elite" : "",
         w->reduced ? "reduced" : "full", w->reduced ? d->reduced : d->full, s_dir_name[w->facing & 3], sq);
    if (w->disordered) s_put(r, ", Disordered [9.5]");
    if (w->moved) s_put(r, ", Moved [8.0]");
    if (w->rallied) s_put(r, ", Rallied [11.6]");
    s_put(r, "</title>");
    S_PF(r, "<rect class=\"body\" width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\"%s/>", CW, CW, s_army_fill[army],
         w->reduced ? " fill-opacity=\"0.55\"" : "");
    s_facing(r, w->facing);
    S_PF(r, "<text x=\"20\" y=\"10\" class=\"cid\">");
    s_xml(r, d->id);
    s_put(r, "</text>");
    /* the type in a NATO-like box: X infantry, / cavalry */
    s_put(r, "<g class=\"sym\"><rect x=\"11\" y=\"13\" width=\"18\" height=\"11\" fill=\"none\"/>");
    if (d->type == WNLB_CAV) s_put(r, "<line x1=\"11\" y1=\"24\" x2=\"29\" y2=\"13\"/>");
    else s_put(r, "<line x1=\"11\" y1=\"13\" x2=\"29\" y2=\"24\"/><line x1=\"11\" y1=\"24\" x2=\"29\" y2=\"13\"/>");
    s_put(r, "</g>");
    S_PF(r, "<text x=\"20\" y=\"36\" class=\"csm\">%u%s</text>", w->reduced ? d->reduced : d->full, d->elite ? "*" : "");
    if (w->reduced) s_badge(r, "reduced-mark", 28, 27, "#fff", "r");
    if (w->disordered) s_badge(r, "disordered", -5, -5, "#f39c12", "D"); /* [9.5] */
    if (w->moved) s_badge(r, "moved", 33, -5, "#bdc3c7", "M");           /* [8.0] */
    if (w->rallied) s_badge(r, "rallied", -5, 33, "#27ae60", "R");        /* [11.6] */
    s_put(r, "</g>\n");
}

/* [12.0] the commanders: a star in a corner of their square (alone or with a unit) */
static void s_commanders(s_rend *r) {
    const wnlb_state *s = r->s;
    char sq[16];
    for (int c = 0; c < 2; c++) {
        if (s->cmd_row[c] < 0 || s->cmd_col[c] < 0) continue;
        int x = MARGIN + s->cmd_col[c] * SQ + SQ - 14, y = MARGIN + TOP + s->cmd_row[c] * SQ + SQ - 14;
        wnlb_square_name(s->cmd_row[c], s->cmd_col[c], sq, sizeof sq);
        S_PF(r, "<g class=\"commander\" data-commander=\"%s\" data-square=\"%s\"><title>%s at %s [12.0]</title>"
                "<circle cx=\"%d\" cy=\"%d\" r=\"11\" fill=\"%s\" stroke=\"#f1c40f\" stroke-width=\"2\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"cmd\">%c</text></g>\n",
             s_cmd_name[c], sq, s_cmd_name[c], sq, x, y, s_army_fill[c], x, y + 4, s_cmd_name[c][0]);
    }
}

static void s_counters(s_rend *r) {
    const wnlb_state *s = r->s;
    s_put(r, "<g class=\"counters\">\n");
    for (size_t u = 0; u < r->sc->n_units && u < WNLB_MAX_UNITS; u++) {
        const wnlb_unit *w = &s->units[u];
        if (w->eliminated || !s_on_board(s, w->row, w->col)) continue;
        s_counter(r, (int)u);
    }
    s_commanders(r);
    s_put(r, "</g>\n");
}

/* ---- the battle and the last move -------------------------------------------------- */
/* [9.0] the battle in progress: an arrow from each attacker to the defender */
static void s_battle(s_rend *r) {
    const wnlb_state *s = r->s;
    const wnlb_battle *b = &s->battle;
    if (s->over || b->target < 0 || (size_t)b->target >= r->sc->n_units) return;
    const wnlb_unit *t = &s->units[b->target];
    if (!s_on_board(s, t->row, t->col)) return;
    s_put(r, "<g class=\"battle\" data-target=\"");
    s_xml(r, r->sc->units[b->target].id);
    s_put(r, "\">");
    for (int i = 0; i < b->n_att && i < WNLB_MAX_ATTACKERS; i++) {
        int a = b->att[i];
        if (a < 0 || (size_t)a >= r->sc->n_units || !s_on_board(s, s->units[a].row, s->units[a].col)) continue;
        int ax = s_cx(s->units[a].col), ay = s_cy(s->units[a].row), tx = s_cx(t->col), ty = s_cy(t->row);
        S_PF(r, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#wnlb-arrow)\"/>", ax + (tx - ax) / 4,
             ay + (ty - ay) / 4, ax + 3 * (tx - ax) / 4, ay + 3 * (ty - ay) / 4);
    }
    s_put(r, "</g>\n");
}

/* the last order's path: a Move [8.0] walked back from where the mover stands now, over the steps
 * it made (the state counts them: a [9.6] window stops a move part of the way). A unit's steps
 * turn it (0..3) or take it one square ahead [8.1]; a commander's steps are the directions it goes.
 * A forward step taken before the move's first turn needs the facing the unit had before the move,
 * which the state no longer holds: such a path is drawn from its first turn on. */
static void s_path(s_rend *r, const brt_render_ctx *ctx) {
    const wnlb_state *s = r->s;
    if (!ctx || !ctx->last_order || !ctx->last_len) return;
    Wnlb__V1__Order *o = wnlb__v1__order__unpack(NULL, ctx->last_len, ctx->last_order);
    if (!o) return;
    if (o->kind_case != WNLB__V1__ORDER__KIND_MOVE || !o->move->unit || o->move->n_steps == 0 ||
        o->move->n_steps > WNLB_MAX_STEPS) {
        wnlb__v1__order__free_unpacked(o, NULL);
        return;
    }
    int u = s_unit_find(s, o->move->unit), row = -1, col = -1, cmd = u == WNLB_CMD0 || u == WNLB_CMD1;
    if (cmd) {
        row = s->cmd_row[u - WNLB_CMD0];
        col = s->cmd_col[u - WNLB_CMD0];
    } else if (u >= 0 && (size_t)u < r->sc->n_units) {
        row = s->units[u].row;
        col = s->units[u].col;
    }
    /* [9.6] a window stops the move where the infantry came next to the cavalry: only the steps made
     * (R-wnlb-9.6-move-stops) */
    size_t n = o->move->n_steps < s->move_steps ? o->move->n_steps : s->move_steps;
    int dir[WNLB_MAX_STEPS], ok = s_on_board(s, row, col), turned = 0;
    /* the direction of each step that changes square: -1 a turn, -2 a step ahead whose facing is unknown */
    for (size_t i = 0; i < n; i++) turned |= o->move->steps[i] < 4;
    int face = cmd || turned ? -2 : s->units[u].facing & 3; /* never turned: it went the way it faces */
    for (size_t i = 0; i < n && ok; i++) {
        unsigned st = o->move->steps[i];
        if (st > WNLB_STEP_FWD) ok = 0;
        else if (cmd) dir[i] = st < 4 ? (int)st : -1;
        else if (st < 4) {
            dir[i] = -1;
            face = (int)st;
        } else dir[i] = face;
    }
    /* walk back from the square it stands on */
    int pr[WNLB_MAX_STEPS + 1], pc[WNLB_MAX_STEPS + 1], np = 0;
    if (ok) {
        pr[0] = row;
        pc[0] = col;
        np = 1;
        for (size_t k = n; k-- > 0 && ok;) {
            if (dir[k] == -1) continue;
            if (dir[k] == -2) break;
            int rr = pr[np - 1], cc = pc[np - 1];
            wnlb_step((dir[k] + 2) & 3, &rr, &cc);
            if (!s_on_board(s, rr, cc)) {
                ok = 0;
                break;
            }
            pr[np] = rr;
            pc[np] = cc;
            np++;
        }
    }
    if (ok && np > 1) {
        S_PF(r, "<g class=\"last-move\" data-unit=\"");
        s_xml(r, o->move->unit);
        s_put(r, "\"><title>last order: move ");
        s_xml(r, o->move->unit);
        s_put(r, "</title><polyline points=\"");
        for (int i = np - 1; i >= 0; i--) S_PF(r, "%s%d,%d", i == np - 1 ? "" : " ", s_cx(pc[i]), s_cy(pr[i]));
        s_put(r, "\"/>");
        for (int i = np - 1; i >= 0; i--) S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"4\"/>", s_cx(pc[i]), s_cy(pr[i]));
        s_put(r, "</g>\n");
    }
    wnlb__v1__order__free_unpacked(o, NULL);
}

/* ---- the panel --------------------------------------------------------------------- */
static void s_line(s_rend *r, s_panel *p, const char *cls, const char *text) {
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"%s\">", p->x, p->y, cls);
    s_xml(r, text);
    s_put(r, "</text>\n");
    p->y += strcmp(cls, "h") == 0 ? 20 : 15;
}

/* append str to the line t (cap bytes, *len used), cut at the end */
static void s_cat(char *t, size_t cap, size_t *len, const char *str) {
    size_t n = strlen(str);
    if (*len >= cap) return;
    if (n > cap - 1 - *len) n = cap - 1 - *len;
    memcpy(t + *len, str, n);
    *len += n;
    t[*len] = 0;
}

static void s_card_text(const wnlb_card_def *c, char *t, size_t cap) {
    if (c->action == WNLB_ACT_COMMAND)
        snprintf(t, cap, "#%u MP %u BP %u, %s +%u %s", c->id, c->mp, c->bp, s_action_name[c->action], c->value,
                 c->cmd_attack ? "attacking" : "defending");
    else if (c->action && c->action < WNLB_ACT_COUNT)
        snprintf(t, cap, "#%u MP %u BP %u, %s", c->id, c->mp, c->bp, s_action_name[c->action]);
    else
        snprintf(t, cap, "#%u MP %u BP %u", c->id, c->mp, c->bp);
}

/* [2.4] [6.0] each army's hand: a count for everyone; its cards only where wnlb_may_see_hand says so */
static void s_hands(s_rend *r, s_panel *p) {
    const wnlb_state *s = r->s;
    const wnlb_scenario *sc = r->sc;
    char t[160];
    s_put(r, "<g class=\"hands\">\n");
    s_line(r, p, "h", "Cards");
    for (int a = 0; a < WNLB_ARMIES; a++) {
        if (a == WNLB_PR && !sc->prussians) continue;
        int own = wnlb_may_see_hand(s, r->vp, a);
        S_PF(r, "<g class=\"hand\" data-army=\"%s\" data-count=\"%d\"%s>\n", s_army_name[a], wnlb_hand_count(s, a),
             own ? " data-shown=\"1\"" : "");
        snprintf(t, sizeof t, "%s: %d in hand, %d unused", s_army_name[a], wnlb_hand_count(s, a),
                 wnlb_unused_count(s, a));
        s_line(r, p, "t", t);
        if (own)
            for (size_t ci = 0; ci < sc->n_cards && ci < WNLB_MAX_CARDS; ci++) {
                if (sc->cards[ci].army != a || s->card_loc[ci] != WNLB_LOC_HAND) continue;
                char c[120];
                s_card_text(&sc->cards[ci], c, sizeof c);
                S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t card\" data-card=\"%u\">", p->x + 14, p->y, sc->cards[ci].id);
                s_xml(r, c);
                s_put(r, "</text>\n");
                p->y += 15;
            }
        s_put(r, "</g>\n");
    }
    s_put(r, "</g>\n");
    p->y += 6;
}

/* [9.3] one side's battle cards, by number after HEAD ("none" when it plays none) */
static void s_battle_cards(s_rend *r, s_panel *p, int side, const char *head, const char *cls) {
    const wnlb_battle *b = &r->s->battle;
    const wnlb_scenario *sc = r->sc;
    char t[320], item[WNLB_ID + 8];
    size_t len = 0;
    t[0] = 0;
    s_cat(t, sizeof t, &len, head);
    for (int k = 0; k < b->n_cards[side] && k < WNLB_MAX_CARDS; k++) {
        int ci = b->cards[side][k];
        if ((size_t)ci >= sc->n_cards) continue;
        snprintf(item, sizeof item, " #%u", sc->cards[ci].id);
        s_cat(t, sizeof t, &len, item);
    }
    if (!b->n_cards[side]) s_cat(t, sizeof t, &len, " none");
    s_line(r, p, cls, t);
}

/* [9.0] [9.3] the battle in progress: who attacks whom; the cards once revealed */
static void s_battle_panel(s_rend *r, s_panel *p) {
    const wnlb_state *s = r->s;
    const wnlb_battle *b = &s->battle;
    const wnlb_scenario *sc = r->sc;
    char t[320];
    if (s->over || b->target < 0 || (size_t)b->target >= sc->n_units) return;
    s_put(r, "<g class=\"battle-panel\">\n");
    s_line(r, p, "h", "Battle");
    size_t len = 0;
    char item[WNLB_ID + 8];
    t[0] = 0;
    if (b->charge) s_cat(t, sizeof t, &len, "Cavalry Charge [11.4]: ");
    s_cat(t, sizeof t, &len, s_army_name[b->att_army < WNLB_ARMIES ? b->att_army : 0]);
    s_cat(t, sizeof t, &len, " attacks ");
    s_cat(t, sizeof t, &len, sc->units[b->target].id);
    s_cat(t, sizeof t, &len, " with");
    for (int i = 0; i < b->n_att && i < WNLB_MAX_ATTACKERS; i++)
        if (b->att[i] >= 0 && (size_t)b->att[i] < sc->n_units) {
            snprintf(item, sizeof item, "%s %s", i ? "," : "", sc->units[b->att[i]].id);
            s_cat(t, sizeof t, &len, item);
        }
    s_line(r, p, "t", t);
    if (b->submitted[0] && b->submitted[1]) { /* revealed together [9.3] */
        for (int side = 0; side < 2; side++) {
            s_battle_cards(r, p, side, side ? "defender cards:" : "attacker cards:", "t");
        }
        if (b->total[0] || b->total[1]) {
            snprintf(t, sizeof t, "totals: attacker %d, defender %d [9.4]", b->total[0], b->total[1]);
            s_line(r, p, "t", t);
        }
    } else {
        s_line(r, p, "t", "battle cards: sealed until both sides have chosen [9.3]");
        /* who has chosen is public (the pending decision names who still must) */
        snprintf(t, sizeof t, "attacker: %s, defender: %s", b->submitted[0] ? "chosen" : "choosing",
                 b->submitted[1] ? "chosen" : "choosing");
        s_line(r, p, "t", t);
        /* a side's own choice, to the viewpoints that may see its hand (R-wnlb-7.0-9.3-sealed-whole) */
        for (int side = 0; side < 2; side++) {
            int army = side ? sc->units[b->target].army : b->att_army;
            if (!b->submitted[side] || army >= WNLB_ARMIES || !wnlb_may_see_hand(s, r->vp, army)) continue;
            s_battle_cards(r, p, side, side ? "defender's chosen cards (sealed):" : "attacker's chosen cards (sealed):",
                           "t own-battle-cards");
        }
    }
    s_put(r, "</g>\n");
    p->y += 6;
}

static void s_panel_state(s_rend *r, s_panel *p, const brt_render_ctx *ctx) {
    const wnlb_state *s = r->s;
    const wnlb_scenario *sc = r->sc;
    char t[256];
    brt_pending pd;
    wnlb_pending(s, &pd);
    snprintf(t, sizeof t, "Napoleon's Last Battle: %s game", sc->name);
    s_line(r, p, "title", t);
    snprintf(t, sizeof t, "viewpoint: %s", s_viewpoint_name(s, r->vp));
    s_line(r, p, "t", t);
    if (ctx && ctx->caption) s_line(r, p, "t", ctx->caption);
    p->y += 6;
    /* [2.3] the Game Turn track */
    S_PF(r, "<g class=\"turns\" data-turn=\"%u\">\n", s->turn);
    s_line(r, p, "h", "Game Turn");
    p->y -= 4;
    for (int k = sc->first_turn; k <= sc->last_turn && k <= 7; k++) {
        int cur = k == s->turn, x = p->x + (k - sc->first_turn) * 30;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"28\" height=\"18\" fill=\"%s\" stroke=\"%s\"/><text x=\"%d\" y=\"%d\" "
                "class=\"box%s\">%d</text>\n",
             x, p->y, cur ? "#f2c94c" : "#fff", cur ? "#000" : "#777", x + 14, p->y + 13, cur ? " on" : "", k);
    }
    p->y += 36;
    s_put(r, "</g>\n<g class=\"status\">\n");
    if (s->over) {
        brt_result res;
        memset(&res, 0, sizeof res);
        brt_ruleset_wnlb.result(s, &res);
        snprintf(t, sizeof t, "Game over: %s %s", res.winners & 1u ? "French" : res.winners ? "Allied" : "no winner,",
                 res.level[0] ? res.level : "result");
        s_line(r, p, "h", t);
        s_line(r, p, "t", res.reason);
    } else {
        int army = s->round_army < WNLB_ARMIES ? s->round_army : 0;
        snprintf(t, sizeof t, "%s player round (%s cards), %u of %d cards played [4.0]",
                 s_side_name[s->active_side ? 1 : 0], s_army_name[army], s->round_cards, WNLB_ROUND_CARDS);
        s_line(r, p, "t", t);
        if (s->phase == WNLB_PH_MOVE) {
            snprintf(t, sizeof t, "Movement card: %u MP left [8.0]", s->mp_left);
            s_line(r, p, "t", t);
        }
        if (s->cur_card && (size_t)s->cur_card <= sc->n_cards) {
            char c[120];
            s_card_text(&sc->cards[s->cur_card - 1], c, sizeof c);
            snprintf(t, sizeof t, "card in play: %s", c);
            s_line(r, p, "t", t);
        }
        snprintf(t, sizeof t, "decision: %s [%s]", pd.kind, pd.rule);
        s_line(r, p, "t", t);
        if (pd.prompt[0]) s_line(r, p, "t", pd.prompt);
    }
    if (sc->prussians) {
        int32_t vp[2] = {0, 0};
        wnlb_scores(s, vp);
        snprintf(t, sizeof t, "Victory Points [13.3]: French %d, Allied %d", vp[0], vp[1]);
        s_line(r, p, "t", t);
    } else if (!s->over) {
        wnlb_victory_text(s, t, sizeof t); /* [13.2] where the French stand */
        s_line(r, p, "t", t);
    }
    s_put(r, "</g>\n");
    p->y += 6;
    s_hands(r, p);
    s_battle_panel(r, p);
    /* [13.3] the units removed from play */
    s_put(r, "<g class=\"eliminated\">\n");
    s_line(r, p, "h", "Eliminated");
    int any = 0;
    for (int a = 0; a < WNLB_ARMIES; a++) {
        size_t len = 0;
        int cnt = 0;
        t[0] = 0;
        s_cat(t, sizeof t, &len, s_army_name[a]);
        s_cat(t, sizeof t, &len, ":");
        for (size_t u = 0; u < sc->n_units && u < WNLB_MAX_UNITS; u++)
            if (sc->units[u].army == a && s->units[u].eliminated) {
                s_cat(t, sizeof t, &len, " ");
                s_cat(t, sizeof t, &len, sc->units[u].id);
                cnt++;
            }
        if (cnt) {
            s_line(r, p, "t", t);
            any = 1;
        }
    }
    if (!any) s_line(r, p, "t", "none");
    s_put(r, "</g>\n");
    p->y += 6;
}

static void s_legend(s_rend *r, s_panel *p) {
    int x = p->x, y;
    s_put(r, "<g class=\"legend\">\n");
    s_line(r, p, "h", "Legend");
    for (int t = 0; t < 5; t++)
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"%s\" stroke=\"#8c8670\"/><text x=\"%d\" "
                "y=\"%d\" class=\"t\">%s</text>\n",
             x + t * 88, p->y - 10, s_terrain_fill[t], x + t * 88 + 20, p->y, s_terrain_name[t]);
    p->y += 20;
    y = p->y;
    S_PF(r, "<line class=\"ridge\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">ridge</text>\n"
            "<line class=\"stream\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">stream</text>\n"
            "<line class=\"stream\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"bridge\" x1=\"%d\" y1=\"%d\" "
            "x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">bridge</text>\n"
            "<line class=\"road\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">road</text>\n"
            "<line class=\"pond\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">pond</text>\n",
         x, y - 4, x + 24, y - 4, x + 30, y, x + 88, y - 4, x + 112, y - 4, x + 118, y, x + 176, y - 4, x + 200, y - 4,
         x + 188, y - 13, x + 188, y + 5, x + 206, y, x + 264, y - 4, x + 288, y - 4, x + 294, y, x + 352, y - 4,
         x + 376, y - 4, x + 382, y);
    y += 22;
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">counter: id, type (X infantry, / cavalry), BP (* elite); the "
            "triangle is its front [8.1]</text>\n",
         x, y);
    y += 18;
    s_badge(r, "disordered", x, y - 9, "#f39c12", "D");
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Disordered [9.5]</text>", x + 16, y);
    s_badge(r, "moved", x + 120, y - 9, "#bdc3c7", "M");
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Moved [8.0]</text>", x + 136, y);
    s_badge(r, "rallied", x + 230, y - 9, "#27ae60", "R");
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Rallied [11.6]</text>\n", x + 246, y);
    y += 20;
    s_badge(r, "reduced-mark", x, y - 9, "#fff", "r");
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">reduced side [9.1] (faded)</text>", x + 16, y);
    S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"%s\" stroke=\"#f1c40f\" stroke-width=\"2\"/><text x=\"%d\" "
            "y=\"%d\" class=\"t\">commander [12.0]</text>\n",
         x + 236, y - 4, s_army_fill[0], x + 248, y);
    y += 20;
    S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"t\">VP "
            "square, owner's colour [13.2] [13.3]</text>",
         x, y - 10, s_side_fill[1], x + 22, y);
    S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#3d2e1c\"/><text x=\"%d\" y=\"%d\" class=\"t\">CDP left "
            "[10.0]</text>\n",
         x + 278, y - 4, x + 290, y);
    y += 20;
    S_PF(r, "<g class=\"battle\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#wnlb-arrow)\"/></g>"
            "<text x=\"%d\" y=\"%d\" class=\"t\">battle in progress [9.0]</text>\n",
         x, y - 4, x + 28, y - 4, x + 36, y);
    S_PF(r, "<g class=\"last-move\"><polyline points=\"%d,%d %d,%d\"/></g><text x=\"%d\" y=\"%d\" "
            "class=\"t\">last move's path</text>\n",
         x + 220, y - 4, x + 248, y - 4, x + 256, y);
    y += 18;
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">The board, the set-up and the cards are RECONSTRUCTED</text>\n"
            "<text x=\"%d\" y=\"%d\" class=\"t\">(each value with its provenance in the ruleset data notes).</text>\n",
         x, y, x, y + 15);
    p->y = y + 30;
    s_put(r, "</g>\n");
}

static const char s_style[] =
    "<style>\n"
    ".brt-board .sqid{font-size:7px;fill:#6b6552}\n"
    ".brt-board .road{stroke:#7b5b3a;stroke-width:4;stroke-linecap:round}\n"
    ".brt-board .ridge{stroke:#8a5a2b;stroke-width:5;stroke-linecap:round;stroke-dasharray:8 3}\n"
    ".brt-board .stream{stroke:#3d7cc9;stroke-width:4;stroke-linecap:round}\n"
    ".brt-board .bridge{stroke:#5a3d1e;stroke-width:5}\n"
    ".brt-board .pond{stroke:#1f5fa8;stroke-width:9;stroke-linecap:round}\n"
    ".brt-board .mark{font-size:7px;text-anchor:middle;font-weight:bold;fill:#fff}\n"
    ".brt-board .cdpn{font-size:10px;text-anchor:middle;font-weight:bold;fill:#fff}\n"
    ".brt-board .place{font-size:8px;text-anchor:middle;font-style:italic;fill:#222;paint-order:stroke;stroke:#fff;"
    "stroke-width:3}\n"
    ".brt-board .cid{font-size:7px;text-anchor:middle;font-weight:bold;fill:#fff}\n"
    ".brt-board .csm{font-size:10px;text-anchor:middle;font-weight:bold;fill:#fff}\n"
    ".brt-board .sym{stroke:#fff;stroke-width:2}.brt-board .front{fill:#f1c40f;stroke:#000;stroke-width:1}\n"
    ".brt-board .cmd{font-size:11px;text-anchor:middle;font-weight:bold;fill:#fff}\n"
    ".brt-board .badge{font-size:8px;text-anchor:middle;font-weight:bold;fill:#000}\n"
    ".brt-board .battle line{stroke:#e000e0;stroke-width:5}\n"
    ".brt-board .last-move polyline{fill:none;stroke:#e67e22;stroke-width:3;stroke-dasharray:6 3}"
    ".brt-board .last-move circle{fill:#e67e22}\n"
    ".brt-board .title{font-size:16px;font-weight:bold}.brt-board .h{font-size:13px;font-weight:bold}"
    ".brt-board .t{font-size:11px}\n"
    ".brt-board .box{font-size:9px;text-anchor:middle}.brt-board .box.on{font-weight:bold}\n"
    "</style>\n";

static const char s_defs[] =
    "<defs>\n"
    "<marker id=\"wnlb-arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
    "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e000e0\"/></marker>\n"
    "</defs>\n";

int wnlb_render(const wnlb_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    if (!s || !s->sc || !out || viewpoint < BRT_VIEW_PUBLIC || viewpoint >= (int)s->nseats) return -1;
    s_rend *r = calloc(1, sizeof *r);
    if (!r) return -1;
    brt_buf body;
    buf_init(&body);
    r->sc = s->sc;
    r->s = s;
    r->vp = viewpoint;
    r->out = &body;
    r->map_w = 2 * MARGIN + r->sc->cols * SQ;
    r->map_h = 2 * MARGIN + TOP + r->sc->rows * SQ;
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"h\">Waterloo: Napoleon's Last Battle, ", MARGIN, MARGIN + 4);
    s_xml(r, r->sc->name);
    s_put(r, " (north at the top)</text>\n");
    s_squares(r);
    s_sides(r);
    s_places(r);
    s_battle(r);
    s_path(r, ctx);
    s_counters(r);
    s_panel p = {r->map_w + 8, MARGIN};
    s_put(r, "<g class=\"panel\">\n");
    s_panel_state(r, &p, ctx);
    s_legend(r, &p);
    s_put(r, "</g>\n");
    int w = r->map_w + PANEL_W, h = r->map_h > p.y + MARGIN ? r->map_h : p.y + MARGIN;
    int rc = r->rc;
    rc |= buf_printf(out,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"wnlb\" "
                     "data-scenario=\"");
    rc |= buf_append_xml(out, r->sc->name);
    rc |= buf_printf(out,
                     "\" data-viewpoint=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                     "font-family=\"sans-serif\">\n",
                     s_viewpoint_name(s, viewpoint), w, h, w, h);
    rc |= buf_append_str(out, s_style);
    rc |= buf_append_str(out, s_defs);
    rc |= buf_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#f7f3e8\"/>\n", w, h);
    rc |= buf_append(out, body.data, body.len);
    rc |= buf_append_str(out, "</svg>\n");
    buf_free(&body);
    free(r);
    return rc ? -1 : 0;
}
