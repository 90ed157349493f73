/*
 * formation.c - [Formations] [Front width and depth of Formations] [Split Formations].
 *
 * "A Formation is composed of 1 or more Unit tiles and counters of the same Army Corps placed in
 * contact (even by corners) with the fronts facing the same direction." Formations are not
 * stored: they are found from which pieces touch (contact-tol) and which way they face
 * (heading-tol, R-wem-formation-heading). "The Formations of different Army Corps in contact are
 * considered united": their width and depth are computed together (wem_formations.united), each
 * keeping its own markers (markers are carried by every unit).
 *
 * Front width: the most units linked side by side by flank contact (a corner-only contact joins
 * the Formation but adds no width, R-wem-width-corner); depth: the most linked front to rear.
 * Garrisons are no part of any Formation [The Garrisons].
 */
#include <stdint.h>
#include <string.h>

#include "maneuver.h"

int32_t wem_heading_tol(const wem_state *s) { return wem_param_get(s->sc, "heading-tol", 10); }
int32_t wem_split_gap(const wem_state *s) { return wem_param_get(s->sc, "split-gap", 600); }

static int s_find(int16_t *p, int i) {
    while (p[i] != i) i = p[i] = p[p[i]];
    return i;
}

static void s_union(int16_t *p, int a, int b) {
    a = s_find(p, a), b = s_find(p, b);
    if (a == b) return;
    if (a < b) p[b] = (int16_t)a;
    else p[a] = (int16_t)b;
}

static int s_member(const wem_state *s, int u) {
    return s->units[u].status == WEM_ON && s->sc->units[u].kind != WEM_GARRISON;
}

/* in contact (even by corners) with the fronts facing the same direction */
static int s_linked(const wem_rect *ra, const wem_rect *rb, int32_t htol, int32_t tol) {
    if (wem_g_hdiff(ra->h, rb->h) > htol) return 0;
    if (wem_mv_far(ra, rb, tol)) return 0;
    return wem_g_contact(ra, rb, tol) != WEM_APART;
}

void wem_formations_find(const wem_state *s, wem_formations *f) {
    const wem_scenario *sc = s->sc;
    int n = (int)sc->n_units;
    int16_t own[WEM_MAX_PIECES], uni[WEM_MAX_PIECES];
    wem_rect rect[WEM_MAX_PIECES];
    int32_t htol = wem_heading_tol(s), tol = wem_tol(s);
    memset(f, 0, sizeof *f);
    for (int i = 0; i < WEM_MAX_PIECES; i++) f->of[i] = -1, own[i] = uni[i] = (int16_t)i;
    for (int i = 0; i < n; i++)
        if (s_member(s, i)) rect[i] = wem_unit_rect(s, i);
    for (int a = 0; a < n; a++) {
        if (s->units[a].status != WEM_ON) continue;
        if (!s_member(s, a)) continue;
        for (int b = a + 1; b < n; b++) {
            if (!s_member(s, b) || sc->units[a].army != sc->units[b].army) continue;
            if (!s_linked(&rect[a], &rect[b], htol, tol)) continue;
            s_union(uni, a, b);
            if (sc->units[a].corps == sc->units[b].corps) s_union(own, a, b);
        }
    }
    /* formation numbers in the order of their lowest unit */
    int16_t num[WEM_MAX_PIECES];
    for (int i = 0; i < WEM_MAX_PIECES; i++) num[i] = -1;
    for (int i = 0; i < n; i++) {
        if (s->units[i].status != WEM_ON) continue;
        int r = s_find(own, i);
        if (num[r] < 0) num[r] = f->n++;
        f->of[i] = num[r];
    }
    /* united groups: the lowest formation number of the group (each Formation of a corps lies
     * in one group: units linked within a corps are linked across corps too) */
    int16_t low[WEM_MAX_PIECES];
    for (int i = 0; i < WEM_MAX_PIECES; i++) low[i] = INT16_MAX;
    for (int i = 0; i < n; i++) {
        if (f->of[i] < 0) continue;
        int r = s_find(uni, i);
        if (f->of[i] < low[r]) low[r] = f->of[i];
    }
    for (int i = 0; i < n; i++)
        if (f->of[i] >= 0) f->united[f->of[i]] = low[s_find(uni, i)];
    /* width and depth per united group, given to each of its formations */
    for (int k = 0; k < f->n; k++) {
        if (f->united[k] != k) continue;
        int16_t set[WEM_MAX_PIECES];
        int m = 0;
        for (int i = 0; i < n; i++)
            if (f->of[i] >= 0 && f->united[f->of[i]] == k) set[m++] = (int16_t)i;
        int w = 1, d = 1;
        wem_set_shape(s, set, m, &w, &d);
        for (int j = 0; j < f->n; j++)
            if (f->united[j] == k) f->width[j] = (int16_t)w, f->depth[j] = (int16_t)d;
    }
}

int wem_formation_units(const wem_formations *f, int fmn, int16_t *out) {
    int n = 0;
    for (int i = 0; i < WEM_MAX_PIECES; i++)
        if (f->of[i] == fmn && fmn >= 0) out[n++] = (int16_t)i;
    return n;
}

int wem_formation_of(const wem_state *s, const wem_formations *f, int u, int16_t *out) {
    (void)s;
    if (u < 0 || u >= WEM_MAX_PIECES || f->of[u] < 0) return 0;
    return wem_formation_units(f, f->of[u], out);
}

int wem_united_of(const wem_state *s, const wem_formations *f, int u, int16_t *out) {
    int n = 0;
    if (u < 0 || u >= WEM_MAX_PIECES || f->of[u] < 0) return 0;
    int g = f->united[f->of[u]];
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (f->of[i] >= 0 && f->united[f->of[i]] == g) out[n++] = (int16_t)i;
    return n;
}

/* the longest chain of a set linked by contact on the given sides (not by a corner only) */
static int s_chain(const wem_state *s, const int16_t *units, int n, int sides) {
    int16_t p[WEM_MAX_PIECES];
    wem_rect r[WEM_MAX_PIECES];
    int32_t tol = wem_tol(s);
    for (int i = 0; i < n; i++) p[i] = (int16_t)i, r[i] = wem_unit_rect(s, units[i]);
    for (int i = 0; i < n; i++) {
        const wem_rect a = r[i];
        for (int j = i + 1; j < n; j++) {
            const wem_rect b = r[j];
            if (wem_mv_far(&a, &b, tol)) continue;
            int corner = 0;
            int t = wem_g_touch_sides(&a, &b, tol, &corner);
            if ((t & sides) && !corner) s_union(p, i, j);
        }
    }
    int best = n ? 1 : 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int j = 0; j < n; j++) c += s_find(p, j) == s_find(p, i);
        if (c > best) best = c;
    }
    return best;
}

void wem_set_shape(const wem_state *s, const int16_t *units, int n, int *width, int *depth) {
    *width = s_chain(s, units, n, WEM_SIDE_LEFT | WEM_SIDE_RIGHT);
    *depth = s_chain(s, units, n, WEM_SIDE_FRONT | WEM_SIDE_REAR);
}

/* [Front width and depth of Formations] 1: 4, 2: 3, 3: 2, 4 or more: 1; "Formations composed of
 * only Light Cavalry Units can Advance +1" [Advance]; "Horse Artillery Units do not reduce the
 * Advance/Charge ability of the Light Cavalry Units in the same Formation" [Units] */
int wem_set_allowance(const wem_state *s, const int16_t *units, int n) {
    int w = 1, d = 1;
    if (n <= 0) return 0;
    int light = 0, other = 0;
    int16_t cav[WEM_MAX_PIECES];
    for (int i = 0; i < n; i++) {
        const wem_unit_def *x = &s->sc->units[units[i]];
        if (x->kind == WEM_CAV && x->cav == WEM_CAV_LIGHT) cav[light++] = units[i];
        else if (x->kind != WEM_ART_HORSE) other++;
    }
    /* R-wem-light-horse-artillery: in a Formation of Light Cavalry (and horse artillery only),
     * the horse artillery counts neither against the +1 nor in the front width: "Horse Artillery
     * Units do not reduce the Advance/Charge ability of the Light Cavalry Units" [Units] */
    if (light && !other) wem_set_shape(s, cav, light, &w, &d);
    else wem_set_shape(s, units, n, &w, &d);
    int a = w <= 1 ? 4 : w == 2 ? 3 : w == 3 ? 2 : 1;
    if (light && !other) a++;
    return a;
}
