/*
 * render.c - the picture of an n20 state (docs/render.md): one standalone SVG
 * document with the map of the scenario data (terrain, roads, rivers, bridges
 * and fords, places, LOC, objective and entry hexes, each hex's provenance on
 * hover), the counters on it, the declared battles and the last move's path,
 * and a panel with the tracks, the Event cards, the off-map units, the
 * decision and the result.
 *
 * What a viewpoint sees is decided by fog.c (n20_fog_hidden_from), exactly as
 * n20_view lists it: a unit hidden from the viewpoint [16.1] [17.1.1] is an
 * anonymous block of its side's colour at its hex, and nothing of it (id, army,
 * type, strength) is written anywhere. Integers only: the hex centres come from
 * n20_neighbor and integer steps, so drawing and rules agree and the bytes are
 * the same on every build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"
#include "n20/v1/n20.pb-c.h"

/* geometry: pointy-top hexes 52 wide, 60 high; rows 45 apart (3/4 of the height) */
#define HW 52
#define HH 60
#define RS 45
#define MARGIN 24
#define PANEL_W 440
#define CW 34 /* counter size */

static const int s_corner[6][2] = {{0, -30}, {26, -15}, {26, 15}, {0, 30}, {-26, 15}, {-26, -15}};
/* centre offsets per direction of map.c: 0 = YY-1 (west), 1 = YY+1 (east), 2/3 = the row below
 * (south), 4/5 = the row above (north); the north edge is at the top */
static const int s_step[6][2] = {{-HW, 0}, {HW, 0}, {-HW / 2, RS}, {HW / 2, RS}, {-HW / 2, -RS}, {HW / 2, -RS}};

typedef struct s_rend {
    const n20_scenario *sc;
    const n20_state *s; /* NULL: the bare map with its provenance (n20_render_map) */
    int vp;
    int x[N20_HEXES], y[N20_HEXES];
    int corner[6][2], step[6][2]; /* s_corner and s_step turned by the scenario's map_turn */
    uint8_t placed[N20_HEXES];
    int map_w, map_h;
    brt_buf *out;
    int rc;
} s_rend;

static const char *s_terrain_name[N20_T_COUNT] = {"clear", "town", "fortified", "forest", "rough", "marsh", "redoubt"};
static const char *s_terrain_fill[N20_T_COUNT] = {"#ece6c8", "#c8ad8a", "#9c8262", "#8fbc77", "#c2a77c", "#a9cfc4",
                                                  "#8a7356"};
static const char *s_type_name[5] = {"infantry", "cavalry", "artillery", "leader", "dummy"};
static const char *s_army_fill[N20_ARMIES] = {"#2f5fb3", "#c0392b", "#3a3a3a", "#e8e4d8"};
static const char *s_side_fill[2] = {"#2f5fb3", "#8b4a3c"}; /* an anonymous block: the side only */

static void s_put(s_rend *r, const char *str) { r->rc |= buf_append_str(r->out, str); }
static void s_xml(s_rend *r, const char *str) { r->rc |= buf_append_xml(r->out, str); }
#define S_PF(r, ...) ((r)->rc |= buf_printf((r)->out, __VA_ARGS__))

/* the centre of every hex, by a walk over n20_neighbor from 0101; -1 if two walks disagree */
static int s_geometry(s_rend *r) {
    const n20_scenario *sc = r->sc;
    uint16_t queue[N20_HEXES];
    int head = 0, tail = 0, minx = 0, miny = 0, maxx = 0, maxy = 0;
    memset(r->placed, 0, sizeof r->placed);
    /* Danube 20 (`map-turn`): the picture turned clockwise by quarter turns, (x, y) -> (-y, x) each,
     * so that the map reads like the real ground; Waterloo 20 has none (0) */
    memcpy(r->corner, s_corner, sizeof r->corner);
    memcpy(r->step, s_step, sizeof r->step);
    for (int q = 0; q < (sc->dn.map_turn & 3); q++)
        for (int i = 0; i < 6; i++) {
            int cx = r->corner[i][0], sx = r->step[i][0];
            r->corner[i][0] = -r->corner[i][1];
            r->corner[i][1] = cx;
            r->step[i][0] = -r->step[i][1];
            r->step[i][1] = sx;
        }
    uint16_t start = n20_hex(101);
    r->x[start] = 0;
    r->y[start] = 0;
    r->placed[start] = 1;
    queue[tail++] = start;
    while (head < tail) {
        uint16_t h = queue[head++], nb;
        for (int d = 0; d < 6; d++) {
            if (n20_neighbor(sc, h, d, &nb) < 0) continue;
            int nx = r->x[h] + r->step[d][0], ny = r->y[h] + r->step[d][1];
            if (r->placed[nb]) {
                if (r->x[nb] != nx || r->y[nb] != ny) return -1;
                continue;
            }
            r->x[nb] = nx;
            r->y[nb] = ny;
            r->placed[nb] = 1;
            queue[tail++] = nb;
        }
    }
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h]) continue;
        if (r->x[h] < minx) minx = r->x[h];
        if (r->y[h] < miny) miny = r->y[h];
        if (r->x[h] > maxx) maxx = r->x[h];
        if (r->y[h] > maxy) maxy = r->y[h];
    }
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h]) continue;
        r->x[h] += MARGIN + HW / 2 - minx;
        r->y[h] += MARGIN + 20 + HH / 2 - miny;
    }
    r->map_w = maxx - minx + HW + 2 * MARGIN;
    r->map_h = maxy - miny + HH + 2 * MARGIN + 20;
    if (sc->dn.map_turn & 1) { /* a hex turned a quarter is HH wide and HW high */
        for (int h = 0; h < N20_HEXES; h++) {
            if (!r->placed[h]) continue;
            r->x[h] += (HH - HW) / 2;
            r->y[h] += (HW - HH) / 2;
        }
        r->map_w += HH - HW;
        r->map_h += HW - HH;
    }
    return 0;
}

/* the two corners hexes a and b share (adjacent), 0 or -1 */
static int s_edge(const s_rend *r, uint16_t a, uint16_t b, int e[4]) {
    int n = 0;
    for (int i = 0; i < 6 && n < 2; i++)
        for (int j = 0; j < 6; j++)
            if (r->x[a] + r->corner[i][0] == r->x[b] + r->corner[j][0] &&
                r->y[a] + r->corner[i][1] == r->y[b] + r->corner[j][1]) {
                e[2 * n] = r->x[a] + r->corner[i][0];
                e[2 * n + 1] = r->y[a] + r->corner[i][1];
                n++;
                break;
            }
    return n == 2 ? 0 : -1;
}

static const char *s_viewpoint_name(int vp) {
    return vp == BRT_VIEW_ALL ? "all" : vp == BRT_VIEW_PUBLIC ? "public" : n20_side_name(vp);
}

/* a unit the viewpoint's view lists (n20_view's filter), by name or anonymously */
static int s_listed(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    if ((d->type == N20_LEADER && !(s->opts & N20_OPT_LEADERS)) || d->place == N20_P_VARIANT || !n20_unit_in_game(s, u))
        return 0;
    if (d->type == N20_DUMMY && !n20_fog(s)) return 0;
    return 1;
}
/* listed by name */
static int s_named(const s_rend *r, int u) { return s_listed(r->s, u) && !n20_fog_hidden_from(r->s, u, r->vp); }

/* ---- the map ----------------------------------------------------------------------- */
static const char *s_label_at(const n20_scenario *sc, uint16_t h, int *k) {
    for (int i = 0; i < sc->nlabels; i++)
        if (sc->labels[i].hex == h) {
            if (k) *k = i;
            return sc->labels[i].name;
        }
    return NULL;
}

static void s_hexes(s_rend *r) {
    const n20_scenario *sc = r->sc;
    s_put(r, "<g class=\"hexes\">\n");
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h] || !sc->onmap[h]) continue;
        int rb = 0, k = -1, t = sc->terrain[h] < N20_T_COUNT ? sc->terrain[h] : 0;
        const char *prov = n20_hex_provenance(sc, (uint16_t)h, &rb);
        const char *label = s_label_at(sc, (uint16_t)h, &k);
        S_PF(r, "<g class=\"hex\" data-hex=\"%04u\" data-terrain=\"%s\" data-provenance=\"%s\"><title>%04u %s: ",
             n20_xxyy((uint16_t)h), s_terrain_name[t], rb ? "RULEBOOK" : "RECONSTRUCTED", n20_xxyy((uint16_t)h),
             s_terrain_name[t]);
        s_xml(r, prov);
        if (label) {
            s_put(r, "&#10;");
            s_xml(r, label);
            s_put(r, ": ");
            s_xml(r, sc->prov[sc->labels[k].prov]);
        }
        s_put(r, "</title><polygon points=\"");
        for (int i = 0; i < 6; i++)
            S_PF(r, "%s%d,%d", i ? " " : "", r->x[h] + r->corner[i][0], r->y[h] + r->corner[i][1]);
        S_PF(r, "\" fill=\"%s\" stroke=\"#8c8670\" stroke-width=\"1\"/>", s_terrain_fill[t]);
        if (t == N20_T_TOWN || t == N20_T_FORTIFIED)
            S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"8\" fill=\"%s\"/>", r->x[h] - 20, r->y[h] - 14,
                 t == N20_T_TOWN ? "#6e5537" : "#3d2e1c");
        if (!r->s) { /* the provenance map: RECONSTRUCTED hatched, RULEBOOK outlined */
            if (rb) {
                s_put(r, "<polygon class=\"prov-rulebook\" points=\"");
                for (int i = 0; i < 6; i++)
                    S_PF(r, "%s%d,%d", i ? " " : "", r->x[h] + r->corner[i][0], r->y[h] + r->corner[i][1]);
                s_put(r, "\" fill=\"none\" stroke=\"#000\" stroke-width=\"3\"/>");
            } else {
                s_put(r, "<polygon class=\"prov-reconstructed\" points=\"");
                for (int i = 0; i < 6; i++)
                    S_PF(r, "%s%d,%d", i ? " " : "", r->x[h] + r->corner[i][0], r->y[h] + r->corner[i][1]);
                S_PF(r, "\" fill=\"url(#%s)\" stroke=\"none\"/>", sc->hex_prov[h] ? "n20-hatch" : "n20-hatch-light");
            }
        }
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"hexnum\">%04u</text></g>\n", r->x[h], r->y[h] - 19,
             n20_xxyy((uint16_t)h));
    }
    s_put(r, "</g>\n");
}

static void s_sides(s_rend *r) {
    const n20_scenario *sc = r->sc;
    int e[4];
    s_put(r, "<g class=\"roads\">\n");
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h]) continue;
        for (int d = 0; d < 6; d++) {
            uint16_t b;
            if (!sc->road[h][d] || n20_neighbor(sc, (uint16_t)h, d, &b) < 0 || b < h) continue;
            S_PF(r, "<line class=\"road\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", r->x[h], r->y[h], r->x[b],
                 r->y[b]);
        }
    }
    s_put(r, "</g>\n<g class=\"rivers\">\n");
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h]) continue;
        for (int d = 0; d < 6; d++) {
            uint16_t b;
            if (!sc->river[h][d] || n20_neighbor(sc, (uint16_t)h, d, &b) < 0 || b < h || s_edge(r, (uint16_t)h, b, e))
                continue;
            int major = sc->river[h][d] == N20_RIV_MAJOR;
            S_PF(r, "<line class=\"river %s\" data-side=\"%04u-%04u\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
                 major ? "major" : "minor", n20_xxyy((uint16_t)h), n20_xxyy(b), e[0], e[1], e[2], e[3]);
            if (sc->cross[h][d] == N20_X_BRIDGE || sc->cross[h][d] == N20_X_FORD) {
                /* across the hexside, along the line between the two centres */
                int mx = (e[0] + e[2]) / 2, my = (e[1] + e[3]) / 2;
                int dx = (r->x[b] - r->x[h]) / 4, dy = (r->y[b] - r->y[h]) / 4;
                S_PF(r, "<line class=\"%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
                     sc->cross[h][d] == N20_X_BRIDGE ? "bridge" : "ford", mx - dx, my - dy, mx + dx, my + dy);
            }
        }
    }
    s_put(r, "</g>\n");
}

/* LOC hexes per army [9.7.7], objectives [14.0], entry areas [11.6], named places */
static void s_places(s_rend *r) {
    const n20_scenario *sc = r->sc;
    s_put(r, "<g class=\"places\">\n");
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < sc->nobj[side]; i++) {
            uint16_t h = sc->obj[side][i];
            S_PF(r, "<circle class=\"objective\" data-side=\"%s\" data-hex=\"%04u\" cx=\"%d\" cy=\"%d\" r=\"23\" "
                    "stroke=\"%s\"/>\n",
                 n20_side_name(side), n20_xxyy(h), r->x[h], r->y[h], s_side_fill[side]);
        }
    for (int a = 0; a < N20_ARMIES; a++) {
        /* [9.8.6] in a game, the army's friendly LOC hexes (A-E: those of the chosen crossing site;
         * Wagram: the Floridsdorf LOC once Active); the bare map, the scenario's `loc` records */
        uint16_t buf[5];
        int nl = sc->nloc[a];
        const uint16_t *locs = r->s ? n20_ae_locs(r->s, a, &nl, buf) : sc->loc[a];
        uint16_t extra = r->s ? n20_wg_extra_loc(r->s, a) : 0;
        for (int i = 0; i < nl + (extra != 0); i++) {
            uint16_t h = i < nl ? locs[i] : extra;
            int dup = 0;
            for (int j = 0; j < nl && i == nl; j++) dup |= locs[j] == extra;
            if (dup || h >= N20_HEXES || !r->placed[h]) continue;
            S_PF(r, "<g class=\"loc\" data-army=\"%s\" data-hex=\"%04u\"><rect x=\"%d\" y=\"%d\" width=\"20\" "
                    "height=\"9\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"mark\">LOC</text></g>\n",
                 n20_army_name(a), n20_xxyy(h), r->x[h] + 2, r->y[h] + 12, s_army_fill[a], r->x[h] + 12, r->y[h] + 19);
        }
    }
    for (int h = 0; h < N20_HEXES; h++) {
        char letters[N20_MAX_ENTRY + 1];
        int n = 0;
        for (int i = 0; i < sc->nentry; i++)
            if (sc->entry_hex[i] == h && !memchr(letters, sc->entry_area[i], (size_t)n))
                letters[n++] = sc->entry_area[i];
        if (!n) continue;
        letters[n] = 0;
        S_PF(r, "<g class=\"entry\" data-hex=\"%04u\"><circle cx=\"%d\" cy=\"%d\" r=\"7\"/><text x=\"%d\" y=\"%d\" "
                "class=\"mark\">",
             n20_xxyy((uint16_t)h), r->x[h] - 16, r->y[h] + 14, r->x[h] - 16, r->y[h] + 17);
        s_xml(r, letters);
        s_put(r, "</text></g>\n");
    }
    s_put(r, "</g>\n");
}

static void s_labels(s_rend *r) {
    const n20_scenario *sc = r->sc;
    s_put(r, "<g class=\"labels\">\n");
    for (int i = 0; i < sc->nlabels; i++) {
        uint16_t h = sc->labels[i].hex;
        int rb = strncmp(sc->prov[sc->labels[i].prov], "RULEBOOK", 8) == 0;
        S_PF(r, "<text class=\"place%s\" data-hex=\"%04u\" x=\"%d\" y=\"%d\">", rb ? " rulebook" : "", n20_xxyy(h),
             r->x[h], r->y[h] + 27);
        s_xml(r, sc->labels[i].name);
        s_put(r, "</text>\n");
    }
    s_put(r, "</g>\n");
}

/* ---- Danube 20 (docs/render.md "Danube 20"): zones, stars, crossings, pontoons, bridges ------ */
/* the scenario has Danube 20 map data; nothing of this section is drawn otherwise (Waterloo 20) */
static int s_dn_any(const n20_scenario *sc) {
    if (sc->edition != N20_ED_V3) return 0;
    return 1;
}

/* the two corners of the side of hex h towards direction d (its neighbour may be off the map) */
static void s_dn_side(const s_rend *r, uint16_t h, int d, int e[4]) {
    int bx = r->x[h] + r->step[d][0], by = r->y[h] + r->step[d][1], n = 0;
    for (int i = 0; i < 6 && n < 2; i++)
        for (int j = 0; j < 6; j++)
            if (r->corner[i][0] == bx - r->x[h] + r->corner[j][0] && r->corner[i][1] == by - r->y[h] + r->corner[j][1]) {
                e[2 * n] = r->x[h] + r->corner[i][0];
                e[2 * n + 1] = r->y[h] + r->corner[i][1];
                n++;
                break;
            }
}

/* Wagram [6.10.2] Lobau Island and [3.0] the Russbach Heights: the outline of each zone */
static void s_dn_zones(s_rend *r) {
    const n20_scenario *sc = r->sc;
    static const struct { int bit; const char *name; } zn[] = {{N20_Z_LOBAU, "lobau"}, {N20_Z_HEIGHTS, "heights"}};
    for (int z = 0; z < 2; z++) {
        int any = 0;
        for (int h = 0; h < N20_HEXES; h++) {
            if (!r->placed[h] || !(sc->dn.zone[h] & zn[z].bit)) continue;
            for (int d = 0; d < 6; d++) {
                uint16_t nb;
                if (n20_neighbor(sc, (uint16_t)h, d, &nb) == 0 && (sc->dn.zone[nb] & zn[z].bit)) continue;
                int e[4];
                s_dn_side(r, (uint16_t)h, d, e);
                if (!any) S_PF(r, "<g class=\"zone %s\">", zn[z].name);
                any = 1;
                S_PF(r, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", e[0], e[1], e[2], e[3]);
            }
        }
        if (any) s_put(r, "</g>\n");
    }
}

/* a five-pointed star of radius 7 centred at x, y */
static void s_dn_star(s_rend *r, const char *cls, uint16_t h, int x, int y, const char *fill, const char *title) {
    static const int pt[10][2] = {{0, -7}, {2, -2}, {7, -2}, {3, 1}, {4, 6}, {0, 3}, {-4, 6}, {-3, 1}, {-7, -2}, {-2, -2}};
    S_PF(r, "<g class=\"%s\" data-hex=\"%04u\"><title>", cls, n20_xxyy(h));
    s_xml(r, title);
    s_put(r, "</title><polygon points=\"");
    for (int i = 0; i < 10; i++) S_PF(r, "%s%d,%d", i ? " " : "", x + pt[i][0], y + pt[i][1]);
    S_PF(r, "\" fill=\"%s\" stroke=\"#222\" stroke-width=\"1\"/></g>\n", fill);
}

/* a line across the hexside a-b (a bridge's place), classed */
static void s_dn_across(s_rend *r, const char *cls, const char *state, uint16_t a, uint16_t b, const char *title) {
    int e[4];
    if (a >= N20_HEXES || b >= N20_HEXES || !r->placed[a] || !r->placed[b] || s_edge(r, a, b, e)) return;
    int mx = (e[0] + e[2]) / 2, my = (e[1] + e[3]) / 2;
    int dx = (r->x[b] - r->x[a]) / 3, dy = (r->y[b] - r->y[a]) / 3;
    S_PF(r, "<g class=\"%s\" data-state=\"%s\" data-side=\"%04u-%04u\"><title>", cls, state, n20_xxyy(a), n20_xxyy(b));
    s_xml(r, title);
    S_PF(r, "</title><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n", mx - dx, my - dy, mx + dx, my + dy);
}

/* a Pontoon Bridges marker of hex h: a small square "PB" centred at cx, cy (on the bridged hexside,
 * between the counters), its state on it */
static void s_dn_pontoon_marker(s_rend *r, const char *cls, const char *state, uint16_t h, int cx, int cy,
                                const char *title) {
    int x = cx - 8, y = cy - 7;
    S_PF(r, "<g class=\"%s\" data-state=\"%s\" data-hex=\"%04u\"><title>", cls, state, n20_xxyy(h));
    s_xml(r, title);
    S_PF(r, "</title><rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" rx=\"2\"/><text x=\"%d\" y=\"%d\" "
            "class=\"mark\">%s</text></g>\n",
         x, y, x + 8, y + 10,
         strcmp(state, "damaged") == 0 || strcmp(state, "unbuilt") == 0 ? "D" : strcmp(state, "destroyed") == 0 ? "X" : "PB");
}

static const char *s_dn_pon_state(int p) {
    return p == N20_PON_INTACT ? "intact" : p == N20_PON_DAMAGED ? "damaged" : p == N20_PON_DESTROYED ? "destroyed" : "none";
}

/* A-E [3.0] the crossing sites: every one before the French choice, then the chosen one(s) with
 * the Pontoon Bridges [6.10], the Bridgehead [9.10] and the French Objective Hex marker */
static void s_dn_sites(s_rend *r) {
    const n20_scenario *sc = r->sc;
    const n20_state *s = r->s;
    char t[160];
    int chosen = s && s->dn.site;
    for (int k = 0; k < sc->dn.nsites; k++) {
        const n20_dn_site *st = &sc->dn.site[k];
        int p = !s ? -1 : s->dn.site == k + 1 ? 0 : s->dn.site2 == k + 1 ? 1 : -1;
        const char *role = p >= 0 ? "chosen" : chosen ? "not-chosen" : "candidate";
        S_PF(r, "<g class=\"site %s\" data-site=\"%s\">\n", role, st->name);
        snprintf(t, sizeof t, "crossing site %s%s: %s %04u [3.0]", st->name,
                 p == 1 ? " (the second, [17.3])" : p == 0 ? " (chosen)" : chosen ? " (not chosen)" : "",
                 st->fischamend ? "4eB sets up in" : "blue star, the Bridgehead hex", n20_xxyy(st->north));
        s_dn_star(r, "site-star", st->north, r->x[st->north] + 22, r->y[st->north], "#2f5fb3", t);
        if (p < 0) {
            if (!st->fischamend) s_dn_across(r, "pontoon-site", "open", st->north, st->south, t);
            s_put(r, "</g>\n");
            continue;
        }
        const char *ps = s_dn_pon_state(s->dn.pontoon[p]);
        if (st->fischamend) {
            snprintf(t, sizeof t, "Pontoon Bridges in the Fischamend Holding Box [6.11]: %s", ps);
            s_dn_pontoon_marker(r, "pontoon in-box", ps, st->north, r->x[st->north] - 21, r->y[st->north], t);
        } else {
            snprintf(t, sizeof t, "Pontoon Bridges %04u-%04u: %s [6.10]", n20_xxyy(st->north), n20_xxyy(st->south), ps);
            s_dn_across(r, "pontoon", ps, st->north, st->south, t);
            s_dn_pontoon_marker(r, "pontoon-marker", ps, st->south, (r->x[st->north] + r->x[st->south]) / 2,
                                (r->y[st->north] + r->y[st->south]) / 2, t);
            int up = s->dn.bridgehead[p] != 0;
            snprintf(t, sizeof t, "Bridgehead %04u [9.10]: %s", n20_xxyy(st->north), up ? "standing (a Redoubt with its Garrison)" : "fallen [9.10.1]");
            S_PF(r, "<g class=\"bridgehead\" data-state=\"%s\" data-hex=\"%04u\"><title>", up ? "standing" : "fallen",
                 n20_xxyy(st->north));
            s_xml(r, t);
            s_put(r, "</title><polygon points=\"");
            for (int i = 0; i < 6; i++)
                S_PF(r, "%s%d,%d", i ? " " : "", r->x[st->north] + r->corner[i][0] * 4 / 5,
                     r->y[st->north] + r->corner[i][1] * 4 / 5);
            s_put(r, "\"/>");
            if (!up)
                S_PF(r, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
                     r->x[st->north] - 14, r->y[st->north] - 14, r->x[st->north] + 14, r->y[st->north] + 14,
                     r->x[st->north] - 14, r->y[st->north] + 14, r->x[st->north] + 14, r->y[st->north] - 14);
            s_put(r, "</g>\n");
        }
        uint16_t o = st->obj;
        S_PF(r, "<circle class=\"objective site-objective\" data-side=\"french\" data-hex=\"%04u\" cx=\"%d\" cy=\"%d\" "
                "r=\"23\" stroke=\"%s\"><title>French Objective Hex marker %04u [3.0] [14.0]</title></circle>\n",
             n20_xxyy(o), r->x[o], r->y[o], s_side_fill[0], n20_xxyy(o));
        s_put(r, "</g>\n");
    }
}

/* the map marks of Danube 20, drawn over the places and under the counters */
static void s_dn_map(s_rend *r) {
    const n20_scenario *sc = r->sc;
    const n20_state *s = r->s;
    char t[160];
    if (!s_dn_any(sc)) return;
    s_put(r, "<g class=\"danube\">\n");
    s_dn_zones(r);
    for (int i = 0; i < sc->dn.nhome; i++) { /* A-E [14.1], Wagram [14.0] */
        uint16_t h = sc->dn.home[i];
        if (h >= N20_HEXES || !r->placed[h]) continue;
        snprintf(t, sizeof t, "Home Ground %04u (a yellow star) [14.%d]", n20_xxyy(h), sc->dn.home_mode ? 0 : 1);
        s_dn_star(r, "home-ground", h, r->x[h] - 22, r->y[h] + 2, "#f5d000", t);
    }
    s_dn_sites(r);
    /* Wagram [6.10.1] the incomplete Lobau bridges, white outlined until the Crossings are Secured */
    int secured = s ? s->dn.secured : sc->dn.secured0;
    for (int i = 0; i < sc->dn.nincomplete; i++) {
        snprintf(t, sizeof t, "Lobau bridge %04u-%04u: %s [6.10.1]", n20_xxyy(sc->dn.incomplete[i].a),
                 n20_xxyy(sc->dn.incomplete[i].b), secured ? "complete (Crossings Secured)" : "incomplete, unusable");
        s_dn_across(r, "incomplete-bridge", secured ? "complete" : "incomplete", sc->dn.incomplete[i].a,
                    sc->dn.incomplete[i].b, t);
    }
    for (int i = 0; i < sc->dn.nsecure && !secured; i++) {
        uint16_t h = sc->dn.secure[i];
        if (h >= N20_HEXES || !r->placed[h]) continue;
        S_PF(r, "<g class=\"secure\" data-hex=\"%04u\"><title>%04u: free of Austrian units at the start of a French "
                "Player Turn, with the other, the bridges complete [6.10.1]</title><circle cx=\"%d\" cy=\"%d\" r=\"6\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"mark\">S</text></g>\n",
             n20_xxyy(h), n20_xxyy(h), r->x[h] + 23, r->y[h], r->x[h] + 23, r->y[h] + 3);
    }
    /* Wagram [16.10] the Floridsdorf pontoon: the Damaged marker until built, then built or destroyed */
    const char *fl = s ? n20_wg_pontoon_name(s) : (sc->opts_ok & N20_OPT_FLORIDSDORF) ? "unbuilt" : "";
    if (sc->dn.flor_a && fl[0]) {
        snprintf(t, sizeof t, "the Floridsdorf pontoon %04u-%04u [16.10]: %s", n20_xxyy(sc->dn.flor_a),
                 n20_xxyy(sc->dn.flor_b), fl);
        s_dn_across(r, "floridsdorf", fl, sc->dn.flor_a, sc->dn.flor_b, t);
        s_dn_pontoon_marker(r, "floridsdorf-marker", fl, sc->dn.flor_b, (r->x[sc->dn.flor_a] + r->x[sc->dn.flor_b]) / 2,
                            (r->y[sc->dn.flor_a] + r->y[sc->dn.flor_b]) / 2, t);
    }
    s_put(r, "</g>\n");
}


/* ---- battles and the last move --------------------------------------------------- */
/* [9.2] each declared battle: an arrow from each attacker's hex to each defender's hex, with the
 * battle's number; the one being resolved highlighted, the fought ones faded. An arrow with an
 * end the viewpoint may not see by name is not drawn. */
static void s_battles(s_rend *r) {
    const n20_state *s = r->s;
    s_put(r, "<g class=\"battles\">\n");
    for (int b = 0; b < s->nbattles && b < N20_MAX_BATTLES; b++) {
        const n20_battle *bt = &s->b[b];
        int cur = !s->over && s->f.active && s->f.battle == b;
        uint16_t drawn[N20_MAX_SIDE * N20_MAX_SIDE][2];
        int nd = 0;
        for (int i = 0; i < bt->natt && i < N20_MAX_SIDE; i++)
            for (int j = 0; j < bt->ndef && j < N20_MAX_SIDE; j++) {
                int a = bt->att[i], d = bt->def[j];
                if (a >= s->sc->nunits || d >= s->sc->nunits) continue;
                if (s->u[a].where != N20_U_MAP || s->u[d].where != N20_U_MAP) continue;
                if (!s_named(r, a) || !s_named(r, d)) continue;
                uint16_t ha = s->u[a].hex, hd = s->u[d].hex;
                int dup = ha == hd || !r->placed[ha] || !r->placed[hd];
                for (int k = 0; k < nd && !dup; k++) dup = drawn[k][0] == ha && drawn[k][1] == hd;
                if (dup) continue;
                drawn[nd][0] = ha;
                drawn[nd][1] = hd;
                if (!nd)
                    S_PF(r, "<g class=\"battle%s%s\" data-battle=\"%d\">", cur ? " resolving" : "",
                         bt->done ? " done" : "", b + 1);
                nd++;
                /* from 1/4 to 3/4 of the way, so that the counters stay readable */
                int x1 = r->x[ha] + (r->x[hd] - r->x[ha]) / 4, y1 = r->y[ha] + (r->y[hd] - r->y[ha]) / 4;
                int x2 = r->x[ha] + 3 * (r->x[hd] - r->x[ha]) / 4, y2 = r->y[ha] + 3 * (r->y[hd] - r->y[ha]) / 4;
                S_PF(r, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#n20-arrow)\"/>", x1, y1, x2, y2);
                if (nd == 1)
                    S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"7\"/><text x=\"%d\" y=\"%d\" class=\"mark\">%d</text>",
                         (x1 + x2) / 2, (y1 + y2) / 2, (x1 + x2) / 2, (y1 + y2) / 2 + 3, b + 1);
            }
        if (nd) s_put(r, "</g>\n");
    }
    s_put(r, "</g>\n");
}

/* the last order's path (move, disengage, penetrate, retreat, advance): a line through the hexes
 * it entered, when the viewpoint may see the unit that moved */
static void s_path(s_rend *r, const brt_render_ctx *ctx) {
    const n20_state *s = r->s;
    if (!ctx || !ctx->last_order || !ctx->last_len) return;
    N20__V1__Order *o = n20__v1__order__unpack(NULL, ctx->last_len, ctx->last_order);
    if (!o) return;
    const char *unit = NULL, *kind = NULL;
    size_t n = 0;
    const uint32_t *path = NULL;
    switch (o->kind_case) {
    case N20__V1__ORDER__KIND_MOVE: kind = "move"; unit = o->move->unit; n = o->move->n_path; path = o->move->path; break;
    case N20__V1__ORDER__KIND_DISENGAGE:
        kind = "disengage"; unit = o->disengage->unit; n = o->disengage->n_path; path = o->disengage->path; break;
    case N20__V1__ORDER__KIND_PENETRATE:
        kind = "penetrate"; unit = o->penetrate->unit; n = o->penetrate->n_path; path = o->penetrate->path; break;
    case N20__V1__ORDER__KIND_RETREAT:
        kind = "retreat"; unit = o->retreat->unit; n = o->retreat->n_path; path = o->retreat->path; break;
    case N20__V1__ORDER__KIND_ADVANCE:
        kind = "advance"; unit = o->advance->unit; n = o->advance->n_path; path = o->advance->path; break;
    default: break;
    }
    int u = unit ? n20_unit_find(s, unit) : -1;
    int may = u >= 0 && (r->vp == BRT_VIEW_ALL || (r->vp >= 0 && r->vp == ctx->last_seat) || s_named(r, u));
    if (may && n > 0 && n <= N20_MAX_PATH) {
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++) {
            unsigned v = path[i];
            ok = v % 100 >= 1 && v % 100 <= r->sc->cols && v / 100 >= 1 && v / 100 <= r->sc->rows &&
                 r->placed[n20_hex(v)];
        }
        if (ok) {
            S_PF(r, "<g class=\"last-move\" data-order=\"%s\" data-unit=\"", kind);
            s_xml(r, unit);
            s_put(r, "\"><title>last order: ");
            s_put(r, kind);
            s_put(r, " ");
            s_xml(r, unit);
            for (size_t i = 0; i < n; i++) S_PF(r, " %04u", path[i]);
            s_put(r, "</title><polyline points=\"");
            /* [9.7] a retreat starts from its battle hex, which the state keeps until the battle ends */
            int from = -1;
            if (o->kind_case == N20__V1__ORDER__KIND_RETREAT)
                for (int k = 0; k < s->f.nret && k < N20_MAX_SIDE; k++)
                    if (s->f.ret_unit[k] == u && s->f.ret_from[k] < N20_HEXES && r->placed[s->f.ret_from[k]])
                        from = s->f.ret_from[k];
            if (from >= 0) S_PF(r, "%d,%d ", r->x[from], r->y[from]);
            for (size_t i = 0; i < n; i++) {
                uint16_t h = n20_hex(path[i]);
                S_PF(r, "%s%d,%d", i ? " " : "", r->x[h], r->y[h]);
            }
            s_put(r, "\"/>");
            for (size_t i = 0; i < n; i++) {
                uint16_t h = n20_hex(path[i]);
                S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"4\"/>", r->x[h], r->y[h]);
            }
            s_put(r, "</g>\n");
        }
    }
    n20__v1__order__free_unpacked(o, NULL);
}

/* ---- counters ----------------------------------------------------------------------- */
static void s_badge(s_rend *r, const char *cls, int x, int y, const char *fill, const char *txt) {
    S_PF(r, "<g class=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" rx=\"2\" fill=\"%s\"/>"
            "<text x=\"%d\" y=\"%d\" class=\"badge\">%s</text></g>",
         cls, x, y, fill, x + 6, y + 8, txt);
}

static void s_markers(s_rend *r, int u) {
    const n20_state *s = r->s;
    if (s->u[u].routed) s_badge(r, "routed", CW - 8, -4, "#f39c12", "R");      /* [9.6.2] */
    if (s->u[u].flags & N20_UF_CONTACT) s_badge(r, "in-contact", -4, -4, "#f1c40f", "C"); /* [8.2.4] */
    if (s->gg_unit == u) s_badge(r, s->gg_immune ? "good-ground immune" : "good-ground", -4, CW - 6, "#27ae60", "G");
}

static void s_counter(s_rend *r, int u, int x, int y) {
    const n20_state *s = r->s;
    const n20_unit_def *d = &s->sc->units[u];
    int type = d->type < 5 ? d->type : 0, facedown = n20_fog(s) && s->u[u].hidden;
    /* Wagram [6.11] an inactive (unreleased) unit: flipped face-down, or with Fog of War face-up and
     * rotated 180 degrees */
    int inactive = n20_wg_inactive(s, u);
    /* A-E [2.0] the Anti-French Austrian units are white: dark print */
    const char *fg = d->army == N20_ARMY_PRUSSIAN ? "#e0e0e0" : d->army == N20_ARMY_AUSTRIAN ? "#222222" : "#ffffff";
    S_PF(r, "<g class=\"counter%s\" id=\"u-", inactive ? n20_fog(s) ? " inactive rotated" : " inactive flipped" : "");
    s_xml(r, d->id);
    s_put(r, "\" data-unit=\"");
    s_xml(r, d->id);
    S_PF(r, "\" data-hex=\"%04u\" data-side=\"%s\" data-army=\"%s\" data-type=\"%s\" transform=\"translate(%d,%d)\">",
         n20_xxyy(s->u[u].hex), n20_side_name(d->side), n20_army_name(d->army), s_type_name[type], x, y);
    if (inactive && n20_fog(s)) s_put(r, "<g transform=\"rotate(180 17 17)\">");
    s_put(r, "<title>");
    s_xml(r, d->id);
    S_PF(r, ": %s %s %u-%u at %04u", n20_army_name(d->army), s_type_name[type], d->strength, d->allowance,
         n20_xxyy(s->u[u].hex));
    if (s->u[u].routed) s_put(r, ", Routed");
    if (s->u[u].flags & N20_UF_CONTACT) s_put(r, ", In Contact");
    if (n20_fatigue(s, u)) S_PF(r, ", %s", n20_fatigue_name(n20_fatigue(s, u)));
    if (facedown) s_put(r, ", face-down");
    if (inactive)
        S_PF(r, ", inactive until Turn %u [6.11] (%s)", s->sc->dn.caution_turn,
             n20_fog(s) ? "rotated 180 degrees" : "flipped face-down");
    s_put(r, "</title>");
    S_PF(r, "<rect width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\"%s%s/>", CW, CW,
         s_army_fill[d->army < N20_ARMIES ? d->army : 0], d->army == N20_ARMY_AUSTRIAN ? " stroke=\"#222\"" : "",
         facedown || (inactive && !n20_fog(s)) ? " class=\"face-down\"" : "");
    if (inactive && !n20_fog(s)) /* the back of the counter: hatched across */
        S_PF(r, "<rect width=\"%d\" height=\"%d\" rx=\"3\" fill=\"url(#n20-dn-back)\"/>", CW, CW);
    size_t idl = strlen(d->id);
    S_PF(r, "<text x=\"17\" y=\"8\" class=\"cid\" fill=\"%s\"", fg);
    if (idl > 7) s_put(r, " textLength=\"31\" lengthAdjust=\"spacingAndGlyphs\"");
    s_put(r, ">");
    s_xml(r, d->id);
    s_put(r, "</text>");
    /* the type symbol in a NATO-like box */
    S_PF(r, "<g class=\"sym\" stroke=\"%s\">", fg);
    if (type == N20_LEADER) {
        s_put(r, "<polygon points=\"17,10 19,15 24,15 20,18 22,23 17,20 12,23 14,18 10,15 15,15\" fill=\"#f1c40f\"/>");
    } else {
        s_put(r, "<rect x=\"9\" y=\"11\" width=\"16\" height=\"10\" fill=\"none\"/>");
        if (type == N20_INF) s_put(r, "<line x1=\"9\" y1=\"11\" x2=\"25\" y2=\"21\"/><line x1=\"9\" y1=\"21\" x2=\"25\" y2=\"11\"/>");
        if (type == N20_CAV) s_put(r, "<line x1=\"9\" y1=\"21\" x2=\"25\" y2=\"11\"/>");
        if (type == N20_ART) S_PF(r, "<circle cx=\"17\" cy=\"16\" r=\"3\" fill=\"%s\"/>", fg);
        if (type == N20_DUMMY) S_PF(r, "<text x=\"17\" y=\"19\" class=\"cid\" fill=\"%s\">D</text>", fg);
    }
    s_put(r, "</g>");
    S_PF(r, "<text x=\"17\" y=\"31\" class=\"csm\" fill=\"%s\">%u-%u</text>", fg, d->strength, d->allowance);
    if (inactive && n20_fog(s)) s_put(r, "</g>");
    s_markers(r, u);
    s_put(r, "</g>\n");
}

/* [16.1] a face-down enemy unit: its side's colour at its hex, nothing else */
static void s_block(s_rend *r, int u, int x, int y) {
    const n20_state *s = r->s;
    int side = n20_side_of(s, u) ? 1 : 0;
    S_PF(r, "<g class=\"block\" data-side=\"%s\" data-hex=\"%04u\" transform=\"translate(%d,%d)\"><title>a unit "
            "(%s) at %04u</title><rect width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\"/><text x=\"17\" y=\"22\" "
            "class=\"csm\" fill=\"#fff\">?</text>",
         n20_side_name(side), n20_xxyy(s->u[u].hex), x, y, n20_side_name(side), n20_xxyy(s->u[u].hex), CW, CW,
         s_side_fill[side]);
    s_markers(r, u);
    s_put(r, "</g>\n");
}

/* [9.4.4] an intact Garrison Force: a small flag of its side in the hex's corner (not a counter) */
static void s_garrison_flag(s_rend *r, int u) {
    const n20_state *s = r->s;
    const n20_unit_def *d = &s->sc->units[u];
    uint16_t h = s->u[u].hex;
    int x = r->x[h] + 8, y = r->y[h] - 22;
    S_PF(r, "<g class=\"garrison\" data-unit=\"");
    s_xml(r, d->id);
    S_PF(r, "\" data-hex=\"%04u\" data-side=\"%s\"><title>", n20_xxyy(h), n20_side_name(d->side));
    s_xml(r, d->id);
    S_PF(r, ": %s Garrison Force%s (%u) at %04u</title>", n20_side_name(d->side),
         (d->flags & N20_FLAG_BATTERY) ? ", Battery" : "", d->strength, n20_xxyy(h));
    S_PF(r, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\"/><rect x=\"%d\" y=\"%d\" "
            "width=\"10\" height=\"7\" fill=\"%s\"/>",
         x, y, x, y + 14, x, y, s_side_fill[d->side ? 1 : 0]);
    if (d->flags & N20_FLAG_BATTERY) /* Wagram [9.11] a Lobau Island Battery: a gun's dot on the flag */
        S_PF(r, "<circle cx=\"%d\" cy=\"%d\" r=\"2\" fill=\"#fff\"/>", x + 5, y + 3);
    s_put(r, "</g>\n");
}

static void s_counters(s_rend *r) {
    const n20_state *s = r->s;
    int nu = s->sc->nunits;
    s_put(r, "<g class=\"counters\">\n");
    for (int u = 0; u < nu; u++)
        if (s->u[u].where == N20_U_GARRISON && s->u[u].hex < N20_HEXES && r->placed[s->u[u].hex])
            s_garrison_flag(r, u);
    for (int h = 0; h < N20_HEXES; h++) {
        if (!r->placed[h]) continue;
        int list[N20_MAX_UNITS], n = 0;
        /* the units named first, in unit order; then the anonymous ones (all alike) */
        for (int pass = 0; pass < 2; pass++)
            for (int u = 0; u < nu; u++)
                if (s->u[u].where == N20_U_MAP && s->u[u].hex == h && s_listed(s, u) &&
                    (pass == 0) == !n20_fog_hidden_from(s, u, r->vp))
                    list[n++] = u;
        for (int k = 0; k < n; k++) {
            int off = (2 * k - (n - 1)) * 3;
            int x = r->x[h] - CW / 2 + off, y = r->y[h] - CW / 2 + off;
            if (n20_fog_hidden_from(s, list[k], r->vp)) s_block(r, list[k], x, y);
            else s_counter(r, list[k], x, y);
        }
    }
    s_put(r, "</g>\n");
}

/* ---- the panel --------------------------------------------------------------------- */
typedef struct s_panel {
    int x, y;
} s_panel;

static void s_line(s_rend *r, s_panel *p, const char *cls, const char *text) {
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"%s\">", p->x, p->y, cls);
    s_xml(r, text);
    s_put(r, "</text>\n");
    p->y += strcmp(cls, "h") == 0 ? 20 : 15;
}

/* a list of the units at `where` (by name, as the view lists them), one army a line */
static void s_unit_list(s_rend *r, s_panel *p, int where, const char *title, const char *cls) {
    const n20_state *s = r->s;
    char line[256];
    int any = 0;
    S_PF(r, "<g class=\"%s\">\n", cls);
    s_line(r, p, "h", title);
    for (int a = 0; a < N20_ARMIES; a++) {
        size_t len = 0;
        int cnt = 0;
        line[0] = 0;
        for (int u = 0; u < s->sc->nunits; u++) {
            const n20_unit_def *d = &s->sc->units[u];
            if (s->u[u].where != where || d->army != a || !s_named(r, u)) continue;
            char item[64];
            /* Danube 20: the Entry Area it will use (Wagram [3.0] its other one if sent there; A-E [3.0]
             * "*", that of the chosen crossing site) */
            char area = n20_wg_entry_area(s, u);
            if (area == '*' && s->dn.site && s->dn.site <= s->sc->dn.nsites) area = s->sc->dn.site[s->dn.site - 1].area;
            if (where == N20_U_REINF)
                snprintf(item, sizeof item, "%s (T%u %c)", d->id, s->u[u].arrive, area ? area : '-');
            else
                snprintf(item, sizeof item, "%s", d->id);
            if (!cnt) len = (size_t)snprintf(line, sizeof line, "%s: %s", n20_army_name(a), item);
            else if (len + strlen(item) + 2 < 60) len += (size_t)snprintf(line + len, sizeof line - len, ", %s", item);
            else {
                s_line(r, p, "t", line);
                len = (size_t)snprintf(line, sizeof line, "   %s", item);
            }
            cnt++;
            any = 1;
        }
        if (cnt) s_line(r, p, "t", line);
    }
    if (!any) s_line(r, p, "t", "none");
    s_put(r, "</g>\n");
    p->y += 6;
}

static void s_track(s_rend *r, s_panel *p, int side) {
    const n20_state *s = r->s;
    int max = r->sc->morale_max > 0 ? r->sc->morale_max : 10;
    char t[64];
    snprintf(t, sizeof t, "%s Morale: %d", n20_side_name(side), s->morale[side]);
    S_PF(r, "<g class=\"morale\" data-side=\"%s\" data-value=\"%d\">\n", n20_side_name(side), s->morale[side]);
    s_line(r, p, "t", t);
    for (int k = 0; k <= max; k++) {
        int cur = k == s->morale[side];
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"16\" fill=\"%s\" stroke=\"#555\"/><text x=\"%d\" "
                "y=\"%d\" class=\"box%s\">%d</text>\n",
             p->x + k * 26, p->y - 10, cur ? s_side_fill[side] : "#fff", p->x + k * 26 + 12, p->y + 2,
             cur ? " on" : "", k);
    }
    s_put(r, "</g>\n");
    p->y += 24;
}

static void s_turns(s_rend *r, s_panel *p) {
    const n20_state *s = r->s;
    const n20_scenario *sc = r->sc;
    int first = 0, col = 0;
    for (int t = 1; t < N20_MAX_TURNS && !first; t++)
        if (sc->turns[t].defined) first = t;
    if (!first) return;
    S_PF(r, "<g class=\"turns\" data-turn=\"%u\">\n", s->turn);
    s_line(r, p, "h", "Game Turn track");
    p->y -= 4;
    for (int t = first; t <= sc->last_turn && t < N20_MAX_TURNS; t++) {
        int cur = t == s->turn, x = p->x + col * 30;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"28\" height=\"18\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"box%s\">%d</text>\n",
             x, p->y, cur ? "#f2c94c" : sc->turns[t].night ? "#4a4a6a" : "#fff", cur ? "#000" : "#777", cur ? 2 : 1,
             x + 14, p->y + 13, sc->turns[t].night && !cur ? " night" : "", t);
        if (++col == 12) {
            col = 0;
            p->y += 21;
        }
    }
    if (col) p->y += 21;
    s_put(r, "</g>\n");
    p->y += 14;
}

/* the panel lines of Danube 20's markers (n20_view says the same) */
static void s_dn_panel(s_rend *r, s_panel *p) {
    const n20_state *s = r->s;
    const n20_scenario *sc = r->sc;
    char t[160];
    if (!s_dn_any(sc)) return;
    static const char *pn[] = {"none", "intact", "Damaged", "Destroyed"};
    S_PF(r, "<g class=\"danube-status\" data-site=\"%s\" data-secured=\"%u\">\n",
         s->dn.site ? sc->dn.site[s->dn.site - 1].name : "", s->dn.secured);
    if (sc->dn.nsites) {
        if (!s->dn.site) s_line(r, p, "t", "Crossing site: not chosen yet [3.0]");
        for (int k = 0; k < 2; k++) {
            int i = k ? s->dn.site2 : s->dn.site;
            if (!i) continue;
            const n20_dn_site *st = &sc->dn.site[i - 1];
            snprintf(t, sizeof t, "%s site: %s, Entry Area %c, Objective %04u", k ? "Second [17.3]" : "Crossing",
                     st->name, st->area, n20_xxyy(st->obj));
            s_line(r, p, "t", t);
            if (st->fischamend)
                snprintf(t, sizeof t, "   Pontoon Bridges: %s, in the Fischamend Holding Box", pn[s->dn.pontoon[k] & 3]);
            else
                snprintf(t, sizeof t, "   Pontoon Bridges: %s; Bridgehead %04u: %s", pn[s->dn.pontoon[k] & 3],
                         n20_xxyy(st->north), s->dn.bridgehead[k] ? "standing" : "fallen");
            s_line(r, p, "t", t);
        }
    }
    if (sc->dn.nincomplete) {
        snprintf(t, sizeof t, "Crossings Secured [6.10.1]: %s", s->dn.secured ? "yes" : "no, three Lobau bridges incomplete");
        s_line(r, p, "t", t);
    }
    if (sc->dn.nincomplete && s->dn.cc_left != 0xff) {
        snprintf(t, sizeof t, "Confusion & Congestion [6.10.2]: %u more units may leave Lobau", s->dn.cc_left);
        s_line(r, p, "t", t);
    }
    const char *fl = n20_wg_pontoon_name(s);
    if (fl[0]) {
        snprintf(t, sizeof t, "Floridsdorf pontoon [16.10]: %s", fl);
        s_line(r, p, "t", t);
    }
    int inactive = 0;
    for (int u = 0; u < sc->nunits; u++) inactive += n20_unit_in_game(s, u) && n20_wg_inactive(s, u);
    if (inactive) {
        /* no count: a hidden unit's state is not the viewpoint's to know (the rule and its turn are public) */
        snprintf(t, sizeof t, "Austrian Caution [6.11]: units inactive until Turn %u", sc->dn.caution_turn);
        s_line(r, p, "t", t);
    }
    s_put(r, "</g>\n");
    p->y += 6;
}

static void s_panel_state(s_rend *r, s_panel *p, const brt_render_ctx *ctx) {
    const n20_state *s = r->s;
    const n20_scenario *sc = r->sc;
    char t[512];
    brt_pending pd;
    n20_pending(s, &pd);
    int turn = s->turn < N20_MAX_TURNS ? s->turn : 0;
    s_line(r, p, "title", sc->id);
    snprintf(t, sizeof t, "viewpoint: %s", s_viewpoint_name(r->vp));
    s_line(r, p, "t", t);
    if (ctx && ctx->caption) s_line(r, p, "t", ctx->caption);
    p->y += 6;
    s_put(r, "<g class=\"status\">\n");
    snprintf(t, sizeof t, "Turn %u: %s, %s", s->turn, sc->turns[turn].label, n20_is_night(s) ? "night" : "day");
    s_line(r, p, "h", t);
    snprintf(t, sizeof t, "Weather: %s",
             n20_weather_name(s->opts & N20_OPT_VAR_WEATHER ? n20_weather(s) : sc->turns[turn].weather));
    s_line(r, p, "t", t);
    if (s->over) {
        brt_result res;
        n20_result(s, &res);
        s_put(r, "<g class=\"result\">\n");
        snprintf(t, sizeof t, "Game over: %s %s", res.winners & 1u ? "French" : res.winners & 2u ? "Allied" : "no",
                 res.level[0] ? res.level : "result");
        s_line(r, p, "h", t);
        s_line(r, p, "t", res.reason);
        s_put(r, "</g>\n");
    } else {
        snprintf(t, sizeof t, "%s player turn", n20_side_name(s->phasing));
        s_line(r, p, "t", t);
        int who = n20_pending_seat(s);
        snprintf(t, sizeof t, "decision: %s [%s] (%s)", pd.kind, pd.rule, who >= 0 ? n20_side_name(who) : "-");
        s_line(r, p, "t", t);
        if (pd.prompt[0]) s_line(r, p, "t", pd.prompt);
    }
    s_put(r, "</g>\n");
    p->y += 6;
    s_dn_panel(r, p);
    s_turns(r, p);
    s_track(r, p, N20_FRENCH);
    s_track(r, p, N20_ALLIED);
    /* [5.0] the Event cards: the last one drawn (top of the discards), the kept ones */
    s_put(r, "<g class=\"cards\">\n");
    s_line(r, p, "h", "Event cards");
    if (s->ndiscard) {
        const n20_card_def *c = &sc->cards[s->discard[s->ndiscard - 1]];
        snprintf(t, sizeof t, "last drawn: #%u %s", c->number, c->title);
        s_line(r, p, "t", t);
    } else {
        s_line(r, p, "t", "last drawn: none");
    }
    snprintf(t, sizeof t, "draw pile: %u cards, discards: %u", s->ndraw, s->ndiscard);
    s_line(r, p, "t", t);
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < sc->ncards; i++)
            if (s->kept[side] & (1u << i)) {
                snprintf(t, sizeof t, "%s keeps #%u %s", n20_side_name(side), sc->cards[i].number, sc->cards[i].title);
                s_line(r, p, "t", t);
            }
    s_put(r, "</g>\n");
    p->y += 6;
    /* [9.2] the declared battles, by the names the viewpoint may know */
    if (s->nbattles) {
        s_put(r, "<g class=\"battle-list\">\n");
        s_line(r, p, "h", "Declared battles");
        for (int b = 0; b < s->nbattles && b < N20_MAX_BATTLES; b++) {
            const n20_battle *bt = &s->b[b];
            size_t len = (size_t)snprintf(t, sizeof t, "%d%s: ", b + 1,
                                          !s->over && s->f.active && s->f.battle == b ? " (resolving)" : bt->done ? " (fought)" : "");
            for (int k = 0; k < bt->natt + bt->ndef && k < 2 * N20_MAX_SIDE; k++) {
                int u = k < bt->natt ? bt->att[k] : bt->def[k - bt->natt];
                char nb[N20_NAME];
                /* a unit hidden from the viewpoint by its handle @XXYY, as the view and the events name it */
                const char *nm = u < sc->nunits ? n20_uid_seat(s, u, r->vp, nb) : "?";
                len += (size_t)snprintf(t + len, sizeof t - len < 1 ? 1 : sizeof t - len, "%s%s",
                                        k == bt->natt ? " -> " : k ? ", " : "", nm);
                if (len >= sizeof t) len = sizeof t - 1;
            }
            s_line(r, p, "t", t);
        }
        s_put(r, "</g>\n");
        p->y += 6;
    }
    s_unit_list(r, p, N20_U_BROKEN, "Broken Units pile", "broken-pile");
    s_unit_list(r, p, N20_U_REINF, "Reinforcements (turn, area)", "reinforcements");
    s_unit_list(r, p, N20_U_VARIABLE, "Variable reinforcements", "variable");
    s_unit_list(r, p, N20_U_ELIM, "Eliminated", "eliminated");
}

/* the legend lines of Danube 20's marks (docs/render.md); the next y */
static int s_dn_legend(s_rend *r, int x, int y) {
    static const int pt[10][2] = {{0, -7}, {2, -2}, {7, -2}, {3, 1}, {4, 6}, {0, 3}, {-4, 6}, {-3, 1}, {-7, -2}, {-2, -2}};
    const n20_scenario *sc = r->sc;
    for (int k = 0; k < 2; k++) {
        int cx = x + 8 + k * 220, cy = y - 4;
        if (k ? !sc->dn.nhome : !sc->dn.nsites) continue;
        s_put(r, "<polygon points=\"");
        for (int i = 0; i < 10; i++) S_PF(r, "%s%d,%d", i ? " " : "", cx + pt[i][0], cy + pt[i][1]);
        S_PF(r, "\" fill=\"%s\" stroke=\"#222\" stroke-width=\"1\"/><text x=\"%d\" y=\"%d\" class=\"t\">%s</text>\n",
             k ? "#f5d000" : "#2f5fb3", cx + 12, y, k ? "Home Ground [14.0]" : "crossing site [3.0]");
    }
    y += 20;
    S_PF(r, "<g class=\"zone lobau\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g><text x=\"%d\" y=\"%d\" "
            "class=\"t\">Lobau Island [6.10.2]</text><g class=\"zone heights\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
            "y2=\"%d\"/></g><text x=\"%d\" y=\"%d\" class=\"t\">Russbach Heights [3.0]</text>\n",
         x, y - 4, x + 24, y - 4, x + 30, y, x + 220, y - 4, x + 244, y - 4, x + 250, y);
    y += 20;
    if (sc->dn.nsites && r->s) {
        static const char *st[3] = {"intact", "damaged", "destroyed"};
        for (int k = 0; k < 3; k++) {
            int cx = x + k * 140;
            S_PF(r, "<g class=\"pontoon-marker\" data-state=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" "
                    "rx=\"2\"/><text x=\"%d\" y=\"%d\" class=\"mark\">%s</text></g><text x=\"%d\" y=\"%d\" "
                    "class=\"t\">Pontoons %s</text>\n",
                 st[k], cx, y - 11, cx + 8, y - 1, k == 0 ? "PB" : k == 1 ? "D" : "X", cx + 20, y, st[k]);
        }
        y += 20;
        S_PF(r, "<g class=\"bridgehead\" data-state=\"standing\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
                "fill=\"none\" stroke=\"#2f5fb3\" stroke-width=\"3\"/></g><text x=\"%d\" y=\"%d\" class=\"t\">Bridgehead "
                "(a Redoubt) [9.10]; crossed: fallen</text>\n",
             x, y - 11, x + 20, y);
        y += 20;
    }
    if (sc->dn.nincomplete && !(r->s ? r->s->dn.secured : sc->dn.secured0)) {
        S_PF(r, "<g class=\"incomplete-bridge\" data-state=\"incomplete\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
                "y2=\"%d\"/></g><text x=\"%d\" y=\"%d\" class=\"t\">incomplete Lobau bridge [6.10.1]</text>"
                "<g class=\"secure\"><circle cx=\"%d\" cy=\"%d\" r=\"6\"/><text x=\"%d\" y=\"%d\" class=\"mark\">S"
                "</text></g><text x=\"%d\" y=\"%d\" class=\"t\">to secure [6.10.1]</text>\n",
             x, y - 4, x + 24, y - 4, x + 30, y, x + 226, y - 4, x + 226, y - 1, x + 236, y);
        y += 20;
    }
    if (sc->dn.flor_a && (r->s ? n20_wg_pontoon_name(r->s)[0] : (sc->opts_ok & N20_OPT_FLORIDSDORF) != 0)) {
        S_PF(r, "<g class=\"floridsdorf-marker\" data-state=\"unbuilt\"><rect x=\"%d\" y=\"%d\" width=\"16\" "
                "height=\"14\" rx=\"2\"/><text x=\"%d\" y=\"%d\" class=\"mark\">D</text></g><text x=\"%d\" y=\"%d\" "
                "class=\"t\">Floridsdorf pontoon [16.10]: unbuilt (D), built (PB)</text>\n",
             x, y - 11, x + 8, y - 1, x + 20, y);
        y += 20;
    }
    int inactive = 0;
    for (int u = 0; r->s && u < sc->nunits; u++) inactive |= n20_unit_in_game(r->s, u) && n20_wg_inactive(r->s, u);
    if (inactive) {
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" rx=\"2\" fill=\"%s\" stroke=\"#222\"/>"
                "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" rx=\"2\" fill=\"url(#n20-dn-back)\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"t\">inactive [6.11]: face-down (Fog of War: rotated)</text>\n",
             x, y - 11, s_army_fill[N20_ARMY_AUSTRIAN], x, y - 11, x + 20, y);
        y += 20;
    }
    return y;
}

static void s_legend(s_rend *r, s_panel *p) {
    s_put(r, "<g class=\"legend\">\n");
    s_line(r, p, "h", "Legend");
    int redoubt = 0; /* Danube 20: Redoubt only on a map that has one (Waterloo 20's legend unchanged) */
    for (int h = 0; h < N20_HEXES; h++)
        if (r->sc->terrain[h] == N20_T_REDOUBT) redoubt = 1;
    for (int t = 0; t < N20_T_COUNT; t++) {
        if (t == N20_T_REDOUBT && !redoubt) continue;
        int x = p->x + (t % 3) * 120, y = p->y + (t / 3) * 20;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"%s\" stroke=\"#8c8670\"/><text x=\"%d\" "
                "y=\"%d\" class=\"t\">%s</text>\n",
             x, y - 10, s_terrain_fill[t], x + 22, y, s_terrain_name[t]);
    }
    p->y += 42 + (redoubt ? 20 : 0);
    int x = p->x, y = p->y;
    S_PF(r, "<line class=\"road\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">road</text>\n",
         x, y - 4, x + 24, y - 4, x + 30, y);
    S_PF(r, "<line class=\"river minor\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">minor river</text>\n",
         x + 120, y - 4, x + 144, y - 4, x + 150, y);
    S_PF(r, "<line class=\"river major\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">major river</text>\n",
         x + 240, y - 4, x + 264, y - 4, x + 270, y);
    y += 20;
    S_PF(r, "<line class=\"river major\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"bridge\" x1=\"%d\" "
            "y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">bridge</text>\n",
         x, y - 4, x + 24, y - 4, x + 12, y - 11, x + 12, y + 3, x + 30, y);
    S_PF(r, "<line class=\"river major\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"ford\" x1=\"%d\" "
            "y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" class=\"t\">ford</text>\n",
         x + 120, y - 4, x + 144, y - 4, x + 132, y - 11, x + 132, y + 3, x + 150, y);
    S_PF(r, "<g class=\"entry\"><circle cx=\"%d\" cy=\"%d\" r=\"7\"/><text x=\"%d\" y=\"%d\" class=\"mark\">A</text></g>"
            "<text x=\"%d\" y=\"%d\" class=\"t\">entry area [11.6]</text>\n",
         x + 247, y - 4, x + 247, y - 1, x + 258, y);
    y += 20;
    S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"9\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"mark\">LOC</text>"
            "<text x=\"%d\" y=\"%d\" class=\"t\">LOC hex, army colour [9.7.7]</text>\n",
         x, y - 9, s_army_fill[0], x + 10, y - 2, x + 26, y);
    S_PF(r, "<circle class=\"objective\" cx=\"%d\" cy=\"%d\" r=\"7\" stroke=\"%s\"/><text x=\"%d\" y=\"%d\" "
            "class=\"t\">objective, side colour [14.0]</text>\n",
         x + 218, y - 4, s_side_fill[0], x + 230, y);
    y += 20;
    if (s_dn_any(r->sc)) y = s_dn_legend(r, x, y);
    if (r->s) {
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">counter: id, type (X infantry, / cavalry, dot artillery, star "
                "leader),</text>\n", x, y);
        y += 15;
        if (s_dn_any(r->sc))
            S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">strength-allowance; blue French, white Austrian</text>\n", x, y);
        else
            S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">strength-allowance; blue French, red Anglo-Dutch, black "
                    "Prussian</text>\n", x, y);
        y += 18;
        s_badge(r, "routed", x, y - 9, "#f39c12", "R");
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Routed [9.6.2]</text>", x + 16, y);
        s_badge(r, "in-contact", x + 110, y - 9, "#f1c40f", "C");
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">In Contact [8.2.4]</text>", x + 126, y);
        s_badge(r, "good-ground", x + 240, y - 9, "#27ae60", "G");
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Good Ground [5.1]</text>\n", x + 256, y);
        y += 20;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" rx=\"2\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
                "class=\"t\">a hidden unit: side only [16.1]</text>\n",
             x, y - 11, s_side_fill[1], x + 20, y);
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" rx=\"2\" fill=\"%s\" class=\"face-down\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"t\">face-down (own)</text>\n",
             x + 220, y - 11, s_army_fill[0], x + 240, y);
        y += 20;
        S_PF(r, "<g class=\"battle\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#n20-arrow)\"/></g>"
                "<text x=\"%d\" y=\"%d\" class=\"t\">declared battle [9.2]</text>\n",
             x, y - 4, x + 28, y - 4, x + 36, y);
        S_PF(r, "<g class=\"last-move\"><polyline points=\"%d,%d %d,%d\"/></g><text x=\"%d\" y=\"%d\" "
                "class=\"t\">last move's path</text>\n",
             x + 200, y - 4, x + 228, y - 4, x + 236, y);
        y += 20;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Hover a hex: its terrain record's provenance, RULEBOOK or "
                "RECONSTRUCTED</text>\n", x, y);
        y += 15;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">(docs/n20-data.md); the map is RECONSTRUCTED.</text>\n", x, y);
        y += 15;
    } else {
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"url(#n20-hatch)\" stroke=\"#8c8670\"/><text "
                "x=\"%d\" y=\"%d\" class=\"t\">terrain RECONSTRUCTED (a `hex` record)</text>\n",
             x, y - 10, x + 22, y);
        y += 20;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"url(#n20-hatch-light)\" stroke=\"#8c8670\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"t\">no record: clear, RECONSTRUCTED default terrain</text>\n",
             x, y - 10, x + 22, y);
        y += 20;
        S_PF(r, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"3\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"t\">terrain given by the RULEBOOK</text>\n",
             x, y - 10, x + 22, y);
        y += 20;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"place rulebook\" style=\"text-anchor:start\">Name</text><text x=\"%d\" "
                "y=\"%d\" class=\"t\">place the RULEBOOK names at this hex</text>\n",
             x, y, x + 60, y);
        y += 18;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"place\" style=\"text-anchor:start\">Name</text><text x=\"%d\" y=\"%d\" "
                "class=\"t\">place RECONSTRUCTED at this hex</text>\n",
             x, y, x + 60, y);
        y += 18;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">Every road and river hexside is RECONSTRUCTED; LOC and objective "
                "hexes</text>\n", x, y);
        y += 15;
        S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"t\">are RULEBOOK [9.7.7] [14.0]. Hover a hex for its record's "
                "provenance.</text>\n", x, y);
        y += 15;
    }
    p->y = y;
    s_put(r, "</g>\n");
}

static const char s_style[] =
    "<style>\n"
    ".brt-board .hexnum{font-size:7px;text-anchor:middle;fill:#6b6552}\n"
    ".brt-board .road{stroke:#7b5b3a;stroke-width:3;stroke-linecap:round}\n"
    ".brt-board .river{stroke:#3d7cc9;stroke-linecap:round}.brt-board .river.minor{stroke-width:3}.brt-board .river.major{stroke-width:6}\n"
    ".brt-board .bridge{stroke:#5a3d1e;stroke-width:4}.brt-board .ford{stroke:#9fd0ff;stroke-width:4;stroke-dasharray:2 2}\n"
    ".brt-board .objective{fill:none;stroke-width:3;stroke-dasharray:6 3}\n"
    ".brt-board .entry circle{fill:#fff;stroke:#222;stroke-width:1}\n"
    ".brt-board .mark{font-size:7px;text-anchor:middle;font-weight:bold}.brt-board .loc .mark{fill:#fff}\n"
    ".brt-board .place{font-size:9px;text-anchor:middle;font-style:italic;fill:#222;paint-order:stroke;stroke:#fff;"
    "stroke-width:3}\n.brt-board .place.rulebook{font-style:normal;font-weight:bold}\n"
    ".brt-board .cid{font-size:6px;text-anchor:middle;font-weight:bold}.brt-board .csm{font-size:9px;text-anchor:middle;font-weight:bold}\n"
    ".brt-board .sym{stroke-width:2}.brt-board .face-down{stroke:#fff;stroke-width:2;stroke-dasharray:3 2}\n"
    ".brt-board .badge{font-size:8px;text-anchor:middle;font-weight:bold;fill:#000}\n"
    ".brt-board .battle line{stroke:#c0392b;stroke-width:3}.brt-board .battle circle{fill:#fff;stroke:#c0392b}\n"
    ".brt-board .battle.resolving line{stroke:#e000e0;stroke-width:5}.brt-board .battle.done line{stroke:#999;stroke-dasharray:4 3}\n"
    ".brt-board .last-move polyline{fill:none;stroke:#e67e22;stroke-width:3;stroke-dasharray:6 3}"
    ".brt-board .last-move circle{fill:#e67e22}\n"
    ".brt-board .title{font-size:16px;font-weight:bold}.brt-board .h{font-size:13px;font-weight:bold}.brt-board .t{font-size:11px}\n"
    ".brt-board .box{font-size:9px;text-anchor:middle}.brt-board .box.on{fill:#fff;font-weight:bold}.brt-board .box.night{fill:#fff}\n"
    "</style>\n";

/* Danube 20's marks (only in a Danube 20 picture: Waterloo 20's bytes do not change) */
static const char s_dn_style[] =
    "<style>\n"
    ".brt-board .zone line{fill:none;stroke-linecap:round}"
    ".brt-board .zone.lobau line{stroke:#1e7a4a;stroke-width:3;stroke-dasharray:7 4}"
    ".brt-board .zone.heights line{stroke:#7a3e12;stroke-width:3;stroke-dasharray:2 4}\n"
    ".brt-board .site.not-chosen{opacity:0.3}.brt-board .pontoon-site line{stroke:#2f5fb3;stroke-width:3;stroke-dasharray:3 3}\n"
    ".brt-board .pontoon line,.brt-board .floridsdorf line{stroke-width:6}"
    ".brt-board .pontoon[data-state=intact] line,.brt-board .floridsdorf[data-state=built] line{stroke:#5a3d1e}"
    ".brt-board .pontoon[data-state=damaged] line,.brt-board .floridsdorf[data-state=unbuilt] line{stroke:#e67e22;stroke-dasharray:4 3}"
    ".brt-board .pontoon[data-state=destroyed] line,.brt-board .floridsdorf[data-state=destroyed] line{stroke:#999;stroke-width:2;stroke-dasharray:2 3}\n"
    ".brt-board .pontoon-marker rect,.brt-board .in-box rect,.brt-board .floridsdorf-marker rect{fill:#fff;stroke:#2f5fb3;stroke-width:2}"
    ".brt-board [data-state=damaged] rect,.brt-board [data-state=unbuilt] rect{fill:#f5c08a;stroke:#e67e22}"
    ".brt-board [data-state=destroyed] rect{fill:#ddd;stroke:#999}\n"
    ".brt-board .bridgehead polygon{fill:none;stroke:#2f5fb3;stroke-width:4}.brt-board .bridgehead line{stroke:#c0392b;stroke-width:4}"
    ".brt-board .bridgehead[data-state=fallen] polygon{stroke:#999;stroke-dasharray:5 3}\n"
    ".brt-board .incomplete-bridge[data-state=incomplete] line{stroke:#fff;stroke-width:3;stroke-dasharray:3 2}"
    ".brt-board .incomplete-bridge[data-state=complete] line{stroke:none}"
    ".brt-board .secure circle{fill:#fff;stroke:#2f5fb3;stroke-width:1}\n"
    ".brt-board .loc[data-army=austrian] .mark{fill:#222}.brt-board .loc[data-army=austrian] rect{stroke:#222}\n"
    "</style>\n";

static const char s_dn_defs[] =
    "<defs><pattern id=\"n20-dn-back\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#555\" "
    "stroke-width=\"2\" opacity=\"0.6\"/></pattern></defs>\n";

static const char s_defs[] =
    "<defs>\n"
    "<marker id=\"n20-arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
    "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/></marker>\n"
    "<pattern id=\"n20-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#3a2a1a\" "
    "stroke-width=\"2\"/></pattern>\n"
    "<pattern id=\"n20-hatch-light\" width=\"12\" height=\"12\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"12\" stroke=\"#b8ab90\" "
    "stroke-width=\"1\" stroke-dasharray=\"2 4\"/></pattern>\n"
    "</defs>\n";

/* the whole document: head (sizes known once the body is drawn), body */
static int s_render_doc(const n20_scenario *sc, const n20_state *s, int vp, const brt_render_ctx *ctx, brt_buf *out) {
    s_rend *r = calloc(1, sizeof *r);
    brt_buf body;
    if (!r) return -1;
    buf_init(&body);
    r->sc = sc;
    r->s = s;
    r->vp = vp;
    r->out = &body;
    if (s_geometry(r) < 0) {
        free(r);
        return -1;
    }
    S_PF(r, "<text x=\"%d\" y=\"%d\" class=\"h\">", MARGIN, MARGIN);
    s_xml(r, sc->id);
    s_put(r, s ? "</text>\n" : ": the reconstructed map and its provenance</text>\n");
    s_hexes(r);
    s_sides(r);
    s_places(r);
    s_dn_map(r);
    if (s) {
        s_battles(r);
        s_path(r, ctx);
        s_counters(r);
    }
    s_labels(r);
    s_panel p = {r->map_w + 8, MARGIN};
    s_put(r, "<g class=\"panel\">\n");
    if (s) {
        s_panel_state(r, &p, ctx);
    } else {
        s_line(r, &p, "title", sc->id);
        char t[128];
        snprintf(t, sizeof t, "%u rows by %u hexes; data records: %u RULEBOOK, %u RECONSTRUCTED", sc->rows, sc->cols,
                 sc->n_rulebook, sc->n_reconstructed);
        s_line(r, &p, "t", t);
        p.y += 8;
    }
    s_legend(r, &p);
    s_put(r, "</g>\n");
    int w = r->map_w + PANEL_W, h = r->map_h > p.y + MARGIN ? r->map_h : p.y + MARGIN;
    int rc = r->rc;
    rc |= buf_printf(out,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"n20\" "
                     "data-scenario=\"");
    rc |= buf_append_xml(out, sc->id);
    rc |= buf_printf(out,
                     "\" data-viewpoint=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                     "font-family=\"sans-serif\">\n",
                     s ? s_viewpoint_name(vp) : "map", w, h, w, h);
    rc |= buf_append_str(out, s_style);
    if (s_dn_any(sc)) rc |= buf_append_str(out, s_dn_style);
    rc |= buf_append_str(out, s_defs);
    if (s_dn_any(sc)) rc |= buf_append_str(out, s_dn_defs);
    rc |= buf_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#f7f3e8\"/>\n", w, h);
    rc |= buf_append(out, body.data, body.len);
    rc |= buf_append_str(out, "</svg>\n");
    buf_free(&body);
    free(r);
    return rc ? -1 : 0;
}

int n20_render(const n20_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    if (!s || !s->sc || viewpoint < BRT_VIEW_PUBLIC || viewpoint > N20_ALLIED) return -1;
    return s_render_doc(s->sc, s, viewpoint, ctx, out);
}

int n20_render_map(const n20_scenario *sc, brt_buf *out) {
    if (!sc) return -1;
    return s_render_doc(sc, NULL, BRT_VIEW_ALL, NULL, out);
}
