/*
 * data.c - the wem scenario data parser (format: docs/wem-data.md).
 *
 * A scenario's text is its own small file (rules/wem/scenarios/<name>.wem) followed by the shared
 * battlefield file (battlefield.wem), joined at build time (embed.cmake). Each record is one line
 * "keyword fields... | provenance", the provenance beginning RULEBOOK or RECONSTRUCTED; '#' starts
 * a comment line. Lengths in the file are whole millimetres and headings whole degrees; the parser
 * converts them to the geometry's units (geom.h: x WEM_MM per millimetre, x10 per degree).
 * Parameters (`param`) are given in the geometry's units already.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

#define MAXW 200        /* words in a record */
#define LINE_CAP 4096   /* characters in a record */

static int s_fail(char *msg, size_t cap, int line, const char *why, const char *what) {
    if (msg && cap) {
        if (what) snprintf(msg, cap, "line %d: %s: %s", line, why, what);
        else snprintf(msg, cap, "line %d: %s", line, why);
    }
    return -1;
}

static int s_army(const char *w) {
    if (!strcmp(w, "blue")) return WEM_BLUE;
    if (!strcmp(w, "red")) return WEM_RED;
    if (!strcmp(w, "black")) return WEM_BLACK;
    return -1;
}

static char s_army_letter(int a) {
    return a == WEM_BLUE ? 'B' : a == WEM_RED ? 'R' : 'K';
}

/* a whole number, all of the word; 0 ok, -1 not a number or out of [lo, hi] */
static int s_int(const char *w, long lo, long hi, long *out) {
    char *end = NULL;
    if (!w || !*w) return -1;
    long v = strtol(w, &end, 10);
    if (*end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* a Roman corps numeral I..VI, or "-" for none (0) */
static int s_corps(const char *w) {
    static const char *const n[] = {"-", "I", "II", "III", "IV", "V", "VI"};
    for (int i = 0; i < 7; i++)
        if (!strcmp(w, n[i])) return i;
    return -1;
}

static int s_word(const char *w, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(w, names[i])) return i;
    return -1;
}

/* "x,y" in whole millimetres -> units */
static int s_pt(const char *w, wem_pt *p) {
    char tmp[48];
    const char *comma = strchr(w, ',');
    if (!comma || (size_t)(comma - w) >= sizeof tmp) return -1;
    memcpy(tmp, w, (size_t)(comma - w));
    tmp[comma - w] = 0;
    long x = 0, y = 0;
    if (s_int(tmp, -100000, 100000, &x) || s_int(comma + 1, -100000, 100000, &y)) return -1;
    p->x = (int32_t)(x * WEM_MM);
    p->y = (int32_t)(y * WEM_MM);
    return 0;
}

/* vertices w[0..n-1] into the scenario's vertex store */
static int s_verts(wem_scenario *sc, char **w, int n, uint16_t *first, uint16_t *count) {
    if (n < 2 || sc->n_verts + (size_t)n > WEM_MAX_VERTS) return -1;
    *first = (uint16_t)sc->n_verts;
    for (int i = 0; i < n; i++)
        if (s_pt(w[i], &sc->verts[sc->n_verts++])) return -1;
    *count = (uint16_t)n;
    return 0;
}

static int s_unit_index(const wem_scenario *sc, const char *id) {
    for (size_t i = 0; i < sc->n_units; i++)
        if (!strcmp(sc->units[i].id, id)) return (int)i;
    return -1;
}

static int s_general_index(const wem_scenario *sc, const char *id) {
    for (size_t i = 0; i < sc->n_generals; i++)
        if (!strcmp(sc->generals[i].id, id)) return (int)i;
    return -1;
}

/* a name for people, '_' for a space; -1 if it does not fit */
static int s_name(char *dst, size_t cap, const char *src) {
    if (strlen(src) >= cap) return -1;
    snprintf(dst, cap, "%s", src);
    for (char *k = dst; *k; k++)
        if (*k == '_') *k = ' ';
    return 0;
}

/* the extent of a unit as placed: width along its front, depth front to rear (units) */
static void s_extent(const wem_unit_def *u, int32_t *wd, int32_t *dp) {
    int counter = u->kind == WEM_ART_FOOT || u->kind == WEM_ART_HORSE || u->kind == WEM_GARRISON;
    *wd = counter ? WEM_UOM / 2 : WEM_UOM;
    *dp = counter ? (u->fastened ? WEM_UOM : WEM_UOM / 2) : WEM_UOM;
}

/* the forward and right unit vectors of a heading that is a multiple of 900 */
static void s_axes(int32_t h, int32_t *fx, int32_t *fy, int32_t *rx, int32_t *ry) {
    static const int32_t sn[4] = {0, 1, 0, -1}, cs[4] = {1, 0, -1, 0};
    int q = (int)((h / 900) & 3);
    *fx = sn[q];
    *fy = -cs[q];
    *rx = cs[q];
    *ry = sn[q];
}

/* [Game Preparation 3] a Formation of tiles and counters in contact, from its front-left corner:
 * items left to right, each a column of pieces front to rear (docs/wem-data.md `line-up`) */
static int s_line_up(wem_scenario *sc, char **w, int nw, int fmn, int line, char *msg, size_t cap) {
    wem_pt fl;
    long deg = 0;
    if (nw < 4 || s_pt(w[1], &fl)) return s_fail(msg, cap, line, "line-up needs a corner x,y", NULL);
    if (s_int(w[2], 0, 359, &deg) || deg % 90)
        return s_fail(msg, cap, line, "a line-up heading is 0, 90, 180 or 270 degrees", w[2]);
    int32_t h = (int32_t)deg * 10, fx, fy, rx, ry;
    s_axes(h, &fx, &fy, &rx, &ry);
    int32_t across = 0;
    int army = -1, corps = -1;
    for (int i = 3; i < nw; i++) {
        char col[160];
        snprintf(col, sizeof col, "%s", w[i]);
        int idx[8], n = 0;
        int32_t colw = 0;
        char *save = NULL;
        for (char *t = strtok_r(col, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
            int u = s_unit_index(sc, t);
            if (u < 0) return s_fail(msg, cap, line, "line-up names an undefined unit", t);
            if (n == 8) return s_fail(msg, cap, line, "a line-up column holds at most 8 pieces", NULL);
            wem_unit_def *d = &sc->units[u];
            if (d->placed) return s_fail(msg, cap, line, "a unit placed twice", t);
            if (army < 0) army = d->army, corps = d->corps;
            if (d->army != army || d->corps != corps)
                return s_fail(msg, cap, line, "[Formations] a Formation is of one Army Corps", t);
            int32_t wd, dp;
            s_extent(d, &wd, &dp);
            if (wd > colw) colw = wd;
            idx[n++] = u;
        }
        if (!n) return s_fail(msg, cap, line, "an empty line-up column", NULL);
        int32_t depth = 0;
        for (int k = 0; k < n; k++) {
            wem_unit_def *d = &sc->units[idx[k]];
            int32_t wd, dp;
            s_extent(d, &wd, &dp);
            /* the gun counter itself stands in front of its horse team */
            int32_t own = (d->kind == WEM_ART_FOOT || d->kind == WEM_ART_HORSE) ? WEM_UOM / 2 : dp;
            int32_t side = across + colw / 2, back = depth + own / 2;
            d->at.x = fl.x + rx * side - fx * back;
            d->at.y = fl.y + ry * side - fy * back;
            d->h = h;
            d->placed = 1;
            d->setup_fmn = (uint8_t)fmn;
            depth += dp;
        }
        across += colw;
    }
    return 0;
}

/* `unit` flags after the name */
static int s_unit_flags(wem_unit_def *d, char **w, int nw, int line, char *msg, size_t cap) {
    for (int i = 0; i < nw; i++) {
        long v = 0;
        if (!strcmp(w[i], "fastened")) d->fastened = 1;
        else if (!strcmp(w[i], "bombards")) d->bombards = 1;
        else if (!strcmp(w[i], "grand-battery")) d->grand_battery = 1;
        else if (!strcmp(w[i], "special")) d->special = 1;
        else if (!strncmp(w[i], "entry=", 6) && !s_int(w[i] + 6, 1, 3, &v)) d->entry = (uint8_t)v;
        else if (!strncmp(w[i], "keep=", 5) && !s_int(w[i] + 5, 0, 255, &v)) d->keep_vp = (uint8_t)v;
        else return s_fail(msg, cap, line, "unknown unit flag", w[i]);
    }
    return 0;
}

static int s_record(wem_scenario *sc, char **w, int nw, int *n_fmn, int line, char *msg, size_t cap) {
    static const char *const kinds[] = {"inf", "cav", "art-foot", "art-horse", "garrison"};
    static const char *const classes[] = {"guard", "elite", "veteran", "regular", "recruit"};
    static const char *const fires[] = {"normal", "good", "optimal"};
    static const char *const cavs[] = {"-", "light", "medium", "heavy"};
    static const char *const areas[] = {"grass", "hill", "wood", "farm", "town"};
    static const char *const lines[] = {"road", "sunken", "torrent", "bridge"};
    long v = 0, v2 = 0;
    const char *k = w[0];
    if (!strcmp(k, "scenario") && nw == 2) {
        if (strlen(w[1]) >= sizeof sc->name) return s_fail(msg, cap, line, "scenario name too long", w[1]);
        snprintf(sc->name, sizeof sc->name, "%s", w[1]);
    } else if (!strcmp(k, "last-turn") && nw == 2) {
        if (s_int(w[1], 1, 19, &v)) return s_fail(msg, cap, line, "the last turn is 1 to 19", w[1]);
        sc->last_turn = (uint8_t)v;
    } else if (!strcmp(k, "prussians") && nw == 2) {
        if (s_int(w[1], 0, 1, &v)) return s_fail(msg, cap, line, "prussians is 0 or 1", w[1]);
        sc->prussians = (uint8_t)v;
    } else if (!strcmp(k, "seats") && nw == 2) {
        if (s_int(w[1], 2, 3, &v)) return s_fail(msg, cap, line, "seats is 2 or 3", w[1]);
        sc->max_seats = (uint8_t)v;
    } else if (!strcmp(k, "param") && nw == 3) {
        if (strlen(w[1]) >= sizeof sc->params[0].name) return s_fail(msg, cap, line, "parameter name too long", w[1]);
        if (s_int(w[2], -1000000, 1000000, &v)) return s_fail(msg, cap, line, "a parameter value is a whole number", w[2]);
        for (size_t i = 0; i < sc->n_params; i++)
            if (!strcmp(sc->params[i].name, w[1])) return s_fail(msg, cap, line, "parameter given twice", w[1]);
        if (sc->n_params >= WEM_MAX_PARAMS) return s_fail(msg, cap, line, "too many parameters", NULL);
        wem_param *p = &sc->params[sc->n_params++];
        snprintf(p->name, sizeof p->name, "%s", w[1]);
        p->value = (int32_t)v;
    } else if (!strcmp(k, "board") && nw == 3) {
        if (s_int(w[1], 100, 5000, &v) || s_int(w[2], 100, 5000, &v2))
            return s_fail(msg, cap, line, "board W H in millimetres", NULL);
        sc->width = (int32_t)v * WEM_MM;
        sc->height = (int32_t)v2 * WEM_MM;
    } else if (!strcmp(k, "fold") && nw == 2) {
        if (s_int(w[1], 0, 5000, &v)) return s_fail(msg, cap, line, "fold X in millimetres", w[1]);
        sc->fold_x = (int32_t)v * WEM_MM;
    } else if (!strcmp(k, "offfield") && nw >= 5) {
        if (sc->n_offfield >= WEM_MAX_OFFFIELD) return s_fail(msg, cap, line, "too many out-of-field elements", NULL);
        wem_area_def *a = &sc->offfield[sc->n_offfield];
        memset(a, 0, sizeof *a);
        if (strlen(w[1]) >= sizeof a->name) return s_fail(msg, cap, line, "name too long", w[1]);
        snprintf(a->name, sizeof a->name, "%s", w[1]);
        if (s_verts(sc, w + 2, nw - 2, &a->first, &a->n)) return s_fail(msg, cap, line, "bad vertices", NULL);
        sc->n_offfield++;
    } else if (!strcmp(k, "area") && nw >= 6) {
        int kind = s_word(w[1], areas, 5);
        if (kind < 0) return s_fail(msg, cap, line, "unknown area kind", w[1]);
        if (sc->n_areas >= WEM_MAX_AREAS) return s_fail(msg, cap, line, "too many areas", NULL);
        wem_area_def *a = &sc->areas[sc->n_areas];
        memset(a, 0, sizeof *a);
        if (strlen(w[2]) >= sizeof a->name) return s_fail(msg, cap, line, "area name too long", w[2]);
        snprintf(a->name, sizeof a->name, "%s", w[2]);
        a->kind = (uint8_t)kind;
        /* [Line of fire and visibility] Hills and Woods block; of the Towns only Placenoit */
        a->blocks_lof = kind == WEM_T_HILL || kind == WEM_T_WOOD;
        int i = 3;
        for (; i < nw && !strchr(w[i], ','); i++) {
            if (!strcmp(w[i], "blocks-lof")) {
                a->blocks_lof = 1;
            } else if (!strcmp(w[i], "objective") && i + 2 < nw) {
                int army = s_army(w[i + 1]);
                if (army < 0 || s_int(w[i + 2], 1, 255, &v)) return s_fail(msg, cap, line, "objective ARMY VP", NULL);
                a->obj_army = (uint8_t)army;
                a->obj_vp = (uint8_t)v;
                i += 2;
            } else {
                return s_fail(msg, cap, line, "unknown area option", w[i]);
            }
        }
        if (nw - i < 3 || s_verts(sc, w + i, nw - i, &a->first, &a->n))
            return s_fail(msg, cap, line, "an area needs 3 or more vertices x,y", NULL);
        sc->n_areas++;
    } else if (!strcmp(k, "line") && nw >= 6) {
        int kind = s_word(w[1], lines, 4);
        if (kind < 0) return s_fail(msg, cap, line, "unknown line kind", w[1]);
        if (sc->n_lines >= WEM_MAX_LINES) return s_fail(msg, cap, line, "too many lines", NULL);
        wem_line_def *l = &sc->lines[sc->n_lines];
        memset(l, 0, sizeof *l);
        if (strlen(w[2]) >= sizeof l->name) return s_fail(msg, cap, line, "line name too long", w[2]);
        snprintf(l->name, sizeof l->name, "%s", w[2]);
        l->kind = (uint8_t)kind;
        if (s_int(w[3], 0, 100, &v)) return s_fail(msg, cap, line, "a half width in millimetres", w[3]);
        l->hw = (int32_t)v * WEM_MM;
        if (s_verts(sc, w + 4, nw - 4, &l->first, &l->n)) return s_fail(msg, cap, line, "bad vertices", NULL);
        sc->n_lines++;
    } else if (!strcmp(k, "deploy") && nw >= 4) {
        if (sc->deploy.n) return s_fail(msg, cap, line, "one deployment area", NULL);
        snprintf(sc->deploy.name, sizeof sc->deploy.name, "deploy");
        if (s_verts(sc, w + 1, nw - 1, &sc->deploy.first, &sc->deploy.n))
            return s_fail(msg, cap, line, "bad vertices", NULL);
    } else if (!strcmp(k, "entrance") && nw >= 4) {
        int sec = s_corps(w[1]);
        if (sec < 1 || sec > 3) return s_fail(msg, cap, line, "entrance I, II or III", w[1]);
        wem_line_def *l = &sc->entrance[sec - 1];
        if (l->n) return s_fail(msg, cap, line, "entrance section given twice", w[1]);
        snprintf(l->name, sizeof l->name, "entrance-%s", w[1]);
        if (s_verts(sc, w + 2, nw - 2, &l->first, &l->n)) return s_fail(msg, cap, line, "bad vertices", NULL);
    } else if (!strcmp(k, "unit") && nw >= 11) {
        /* unit ARMY NUM KIND CORPS CLASS LOSSES VP FIRE CAV NAME [flags] */
        if (sc->n_units >= WEM_MAX_PIECES) return s_fail(msg, cap, line, "too many units", NULL);
        wem_unit_def *d = &sc->units[sc->n_units];
        memset(d, 0, sizeof *d);
        int army = s_army(w[1]);
        if (army < 0) return s_fail(msg, cap, line, "unknown army", w[1]);
        d->army = (uint8_t)army;
        if (strlen(w[2]) > 6) return s_fail(msg, cap, line, "unit number too long", w[2]);
        if (!s_int(w[2], 1, 999, &v)) snprintf(d->id, sizeof d->id, "%c%ld", s_army_letter(army), v);
        else snprintf(d->id, sizeof d->id, "%c-%s", s_army_letter(army), w[2]);
        if (s_unit_index(sc, d->id) >= 0) return s_fail(msg, cap, line, "unit defined twice", d->id);
        int kind = s_word(w[3], kinds, 5), corps = s_corps(w[4]), cls = s_word(w[5], classes, 5);
        int fire = s_word(w[8], fires, 3), cav = s_word(w[9], cavs, 4);
        if (kind < 0) return s_fail(msg, cap, line, "unknown unit kind", w[3]);
        if (corps < 1) return s_fail(msg, cap, line, "a unit's Army Corps is I..VI", w[4]);
        if (cls < 0) return s_fail(msg, cap, line, "unknown class", w[5]);
        if (fire < 0) return s_fail(msg, cap, line, "fire discipline is normal, good or optimal", w[8]);
        if (cav < 0) return s_fail(msg, cap, line, "cavalry type is -, light, medium or heavy", w[9]);
        if ((kind == WEM_CAV) != (cav != WEM_CAV_NONE))
            return s_fail(msg, cap, line, "[Units] cavalry and only cavalry has a cavalry type", d->id);
        d->kind = (uint8_t)kind;
        d->corps = (uint8_t)corps;
        d->cls = (uint8_t)cls;
        d->fire = (uint8_t)fire;
        d->cav = (uint8_t)cav;
        if (s_int(w[6], 1, 9, &v)) return s_fail(msg, cap, line, "capacity to sustain Losses is 1..9", w[6]);
        d->losses = (uint8_t)v;
        if (s_int(w[7], 0, 99, &v)) return s_fail(msg, cap, line, "Victory points are 0..99", w[7]);
        d->vp = (uint8_t)v;
        if (s_name(d->name, sizeof d->name, w[10])) return s_fail(msg, cap, line, "unit name too long", w[10]);
        if (s_unit_flags(d, w + 11, nw - 11, line, msg, cap)) return -1;
        if ((d->fastened || d->bombards) && d->kind != WEM_ART_FOOT && d->kind != WEM_ART_HORSE)
            return s_fail(msg, cap, line, "only Artillery Units are fastened or bombard", d->id);
        /* [2. Bombardment] every Artillery Unit on Foot bombards; horse artillery only when its
         * record says so [Units] (red 39 and 40) */
        if (d->kind == WEM_ART_FOOT) d->bombards = 1;
        sc->n_units++;
    } else if (!strcmp(k, "line-up")) {
        if (*n_fmn >= 250) return s_fail(msg, cap, line, "too many line-ups", NULL);
        if (s_line_up(sc, w, nw, *n_fmn + 1, line, msg, cap)) return -1;
        (*n_fmn)++;
    } else if (!strcmp(k, "place") && nw == 4) {
        /* place ID x,y HEADING: one piece by its centre */
        int u = s_unit_index(sc, w[1]);
        if (u < 0) return s_fail(msg, cap, line, "place names an undefined unit", w[1]);
        wem_unit_def *d = &sc->units[u];
        if (d->placed) return s_fail(msg, cap, line, "a unit placed twice", w[1]);
        if (s_pt(w[2], &d->at) || s_int(w[3], 0, 359, &v)) return s_fail(msg, cap, line, "place ID x,y HEADING", NULL);
        d->h = (int32_t)v * 10;
        d->placed = 1;
    } else if ((!strcmp(k, "general") && nw >= 11) || (!strcmp(k, "cinc") && nw >= 6)) {
        /* general ARMY ID CORPS NAME RANK CP VP SUBNAME SUBVP x,y|- [attach UNIT] [entry=N]
         * cinc ARMY ID NAME VP x,y|- [attach UNIT] [entry=N] */
        int cinc = k[0] == 'c';
        if (sc->n_generals >= WEM_MAX_GENERALS) return s_fail(msg, cap, line, "too many generals", NULL);
        wem_general_def *g = &sc->generals[sc->n_generals];
        memset(g, 0, sizeof *g);
        g->attach = -1;
        int army = s_army(w[1]);
        if (army < 0) return s_fail(msg, cap, line, "unknown army", w[1]);
        g->army = (uint8_t)army;
        if (strlen(w[2]) >= sizeof g->id) return s_fail(msg, cap, line, "id too long", w[2]);
        snprintf(g->id, sizeof g->id, "%s", w[2]);
        if (s_general_index(sc, g->id) >= 0) return s_fail(msg, cap, line, "general defined twice", g->id);
        int i;
        if (cinc) {
            g->cinc = 1;
            g->rank = 4; /* [Commanders in Chief] the same rules as the General 4 stars */
            if (s_name(g->name, sizeof g->name, w[3])) return s_fail(msg, cap, line, "name too long", w[3]);
            if (s_int(w[4], 0, 99, &v)) return s_fail(msg, cap, line, "VP 0..99", w[4]);
            g->vp = (uint8_t)v;
            i = 5;
        } else {
            int corps = s_corps(w[3]);
            if (corps < 0) return s_fail(msg, cap, line, "a General's Army Corps is I..VI or -", w[3]);
            g->corps = (uint8_t)corps;
            g->ney = corps == 0;
            if (s_name(g->name, sizeof g->name, w[4])) return s_fail(msg, cap, line, "name too long", w[4]);
            if (s_int(w[5], 1, 4, &v)) return s_fail(msg, cap, line, "rank 1..4 stars", w[5]);
            g->rank = (uint8_t)v;
            if (s_int(w[6], 0, 9, &v)) return s_fail(msg, cap, line, "Command points 0..9", w[6]);
            g->cp = (uint8_t)v;
            if (s_int(w[7], 0, 99, &v)) return s_fail(msg, cap, line, "VP 0..99", w[7]);
            g->vp = (uint8_t)v;
            if (strcmp(w[8], "-") && s_name(g->sub_name, sizeof g->sub_name, w[8]))
                return s_fail(msg, cap, line, "Substitute's name too long", w[8]);
            if (s_int(w[9], 0, 99, &v)) return s_fail(msg, cap, line, "Substitute VP 0..99", w[9]);
            g->sub_vp = (uint8_t)v;
            i = 10;
        }
        if (strcmp(w[i], "-")) {
            if (s_pt(w[i], &g->at)) return s_fail(msg, cap, line, "a position x,y or -", w[i]);
            g->placed = 1;
        }
        for (i++; i < nw; i++) {
            if (!strcmp(w[i], "attach") && i + 1 < nw) {
                int u = s_unit_index(sc, w[++i]);
                if (u < 0) return s_fail(msg, cap, line, "attach names an undefined unit", w[i]);
                if (!sc->units[u].placed) return s_fail(msg, cap, line, "attach to a unit not yet placed", w[i]);
                if (u > INT8_MAX) return s_fail(msg, cap, line, "attach: the unit's index is past 127 (wem_general_def.attach)", w[i]);
                g->attach = (int8_t)u;
                g->at = sc->units[u].at; /* [Attaching] his counter on top of that Unit */
                g->placed = 1;
            } else if (!strncmp(w[i], "entry=", 6) && !s_int(w[i] + 6, 1, 3, &v)) {
                g->entry = (uint8_t)v;
            } else {
                return s_fail(msg, cap, line, "unknown general option", w[i]);
            }
        }
        sc->n_generals++;
    } else {
        return s_fail(msg, cap, line, "unknown record or wrong number of fields", k);
    }
    return 0;
}

int wem_data_parse(const char *text, size_t len, wem_scenario *sc, char *msg, size_t cap) {
    memset(sc, 0, sizeof *sc);
    if (msg && cap) msg[0] = 0;
    size_t p = 0;
    int line = 0, n_fmn = 0;
    char buf[LINE_CAP];
    while (p < len) {
        size_t q = p;
        while (q < len && text[q] != '\n') q++;
        size_t n = q - p;
        line++;
        if (n >= sizeof buf) return s_fail(msg, cap, line, "line too long", NULL);
        memcpy(buf, text + p, n);
        buf[n] = 0;
        p = q + 1;
        if (n && buf[n - 1] == '\r') buf[--n] = 0;
        size_t lead = strspn(buf, " \t");
        if (buf[lead] == '#' || buf[lead] == 0) continue;
        char *bar = strchr(buf, '|');
        if (!bar) return s_fail(msg, cap, line, "a record without its provenance ('| RULEBOOK ...' or '| RECONSTRUCTED ...')", NULL);
        const char *prov = bar + 1 + strspn(bar + 1, " \t");
        if ((strncmp(prov, "RULEBOOK ", 9) && strncmp(prov, "RECONSTRUCTED ", 14)) || strlen(prov) < 16)
            return s_fail(msg, cap, line, "a provenance is 'RULEBOOK <heading>' or 'RECONSTRUCTED <reason>'", NULL);
        *bar = 0;
        char *w[MAXW];
        int nw = 0;
        char *save = NULL;
        for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
            if (nw == MAXW) return s_fail(msg, cap, line, "too many fields", NULL);
            w[nw++] = t;
        }
        if (nw == 0) return s_fail(msg, cap, line, "a provenance without a record", NULL);
        if (s_record(sc, w, nw, &n_fmn, line, msg, cap)) return -1;
    }
    if (!sc->name[0]) return s_fail(msg, cap, line, "no scenario record", NULL);
    if (!sc->last_turn || !sc->max_seats) return s_fail(msg, cap, line, "no last-turn or seats record", NULL);
    if (!sc->width || !sc->height) return s_fail(msg, cap, line, "no board record", NULL);
    if (sc->fold_x < 0 || sc->fold_x > sc->width) return s_fail(msg, cap, line, "[Maneuver limit] the fold is on the board", NULL);
    return 0;
}

int32_t wem_param_get(const wem_scenario *sc, const char *name, int32_t dflt) {
    if (!sc || !name) return dflt;
    for (size_t i = 0; i < sc->n_params; i++)
        if (!strcmp(sc->params[i].name, name)) return sc->params[i].value;
    return dflt;
}

wem_poly wem_area_poly(const wem_scenario *sc, const wem_area_def *a) {
    wem_poly p = {0, NULL};
    if (sc && a && a->n && (size_t)a->first + a->n <= sc->n_verts) {
        p.n = a->n;
        p.v = &sc->verts[a->first];
    }
    return p;
}

wem_line wem_line_shape(const wem_scenario *sc, const wem_line_def *l) {
    wem_line s = {0, 0, NULL};
    if (sc && l && l->n && (size_t)l->first + l->n <= sc->n_verts) {
        s.n = l->n;
        s.hw = l->hw;
        s.v = &sc->verts[l->first];
    }
    return s;
}

#define WEM_MAX_SCENARIOS 8

const wem_scenario *wem_scenario_get(const char *name) {
    static wem_scenario s_sc[WEM_MAX_SCENARIOS];
    static int s_done[WEM_MAX_SCENARIOS];
    for (size_t i = 0; i < WEM_MAX_SCENARIOS; i++) {
        const char *n = wem_data_name(i);
        if (!n) break;
        if (!name || strcmp(n, name)) continue;
        if (!s_done[i]) {
            size_t len = 0;
            const char *t = wem_data_text(n, &len);
            char msg[160];
            if (!t || wem_data_parse(t, len, &s_sc[i], msg, sizeof msg)) return NULL;
            s_done[i] = 1;
        }
        return &s_sc[i];
    }
    return NULL;
}
