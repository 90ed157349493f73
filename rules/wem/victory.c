/*
 * victory.c - removal of pieces [Effects of Unit removal], the immediate ends [Victory
 * Conditions] and the tally of Victory points [End of the Game].
 */
#include <stdio.h>
#include <string.h>

#include "wem.h"

/* the army credited with a removal: the one that caused it, else the enemy of the piece's army
 * (blue for red and black pieces, red for blue's) (R-wem-vp-credit) */
static int s_credit(int army, int by) {
    if (by >= 0 && by < WEM_ARMIES && by != army) return by;
    return army == WEM_BLUE ? WEM_RED : WEM_BLUE;
}

/* [Effects of Unit removal] eliminated: its VP; captured: twice; out of field: halved, rounded down */
static int s_vp(int vp, int how) {
    if (how == WEM_CAPTURED) return vp * 2;
    if (how == WEM_OUTFIELD) return vp / 2;
    return vp;
}

static const char *s_how(int how) {
    return how == WEM_CAPTURED ? "captured" : how == WEM_OUTFIELD ? "out of field" : "eliminated";
}

/* [Effects of Unit removal] "Once a Unit in a Formation is eliminated, the other friendly Units in
 * the same column become Shaken (they will receive 1 yellow marker if they don't already have
 * one)" (R-wem-elimination-column): the column is the Units of its Formation (united Formations
 * together, as they count their depth together) linked to it front to rear along an edge (not at a
 * corner only), one behind the other, found before it leaves */
static int s_column(const wem_state *s, int u, int16_t *q) {
    const wem_scenario *sc = s->sc;
    if (sc->units[u].kind == WEM_GARRISON) return 0;
    wem_formations f;
    wem_formations_find(s, &f);
    if (f.of[u] < 0) return 0;
    uint8_t in[WEM_MAX_PIECES];
    memset(in, 0, sizeof in);
    int n = 0, head = 0;
    in[u] = 1, q[n++] = (int16_t)u;
    int32_t tol = wem_tol(s);
    while (head < n) {
        int a = q[head++];
        wem_rect ra = wem_unit_rect(s, a);
        for (size_t b = 0; b < sc->n_units; b++) {
            if (in[b] || f.of[b] < 0 || f.united[f.of[b]] != f.united[f.of[u]] || s->units[b].status != WEM_ON) continue;
            wem_rect rb = wem_unit_rect(s, (int)b);
            int corner = 0;
            int sides = wem_g_touch_sides(&ra, &rb, tol, &corner);
            if (!(sides & (WEM_SIDE_FRONT | WEM_SIDE_REAR)) || corner) continue;
            in[b] = 1, q[n++] = (int16_t)b;
        }
    }
    return n;
}

static void s_column_shaken(wem_state *s, int u, const int16_t *q, int n, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    for (int i = 1; i < n; i++) {
        wem_unit *y = &s->units[q[i]];
        if (y->yellow) continue;
        y->yellow = 1;
        wem_event(s, ev, BRT_SEATS_ALL, "shaken", sc->units[q[i]].army, q[i], u, 1, NULL, 0, NULL, 0,
                  "[Effects of Unit removal] %s is eliminated: %s, in the same column, is Shaken (1 yellow marker)",
                  sc->units[u].id, sc->units[q[i]].id);
    }
}

void wem_unit_remove(wem_state *s, int u, int how, int by, brt_events *ev) {
    wem_unit *x = &s->units[u];
    const wem_unit_def *d = &s->sc->units[u];
    if (x->status != WEM_ON) return;
    int16_t col[WEM_MAX_PIECES];
    int n_col = how == WEM_ELIMINATED ? s_column(s, u, col) : 0;
    x->status = (uint8_t)how;
    int credit = s_credit(d->army, by);
    s->vp[credit] += s_vp(d->vp, how);
    wem_event(s, ev, BRT_SEATS_ALL, "removed", d->army, u, -1, how, NULL, 0, &x->at, x->h,
              "[Effects of Unit removal] %s is %s", d->id, s_how(how));
    s_column_shaken(s, u, col, n_col, ev);
    /* an attached General stays where he stands, unattached (R-wem-general-with-unit) */
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->generals[g].status == WEM_ON && s->generals[g].attached == u) s->generals[g].attached = -1;
    /* [Army Corps] "If all of the Units of an Army Corps are removed from the battlefield, their
     * General is eliminated and CANNOT be substituted" */
    if (!d->corps) return;
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (s->sc->units[i].army == d->army && s->sc->units[i].corps == d->corps &&
            (s->units[i].status == WEM_ON || s->units[i].status == WEM_NOT_ENTERED))
            return;
    for (size_t g = 0; g < s->sc->n_generals; g++) {
        const wem_general_def *gd = &s->sc->generals[g];
        if (gd->army != d->army || gd->corps != d->corps || gd->cinc || gd->ney) continue;
        if (s->generals[g].status == WEM_ON) {
            wem_general_remove(s, (int)g, WEM_ELIMINATED, by, ev);
            wem_event(s, ev, BRT_SEATS_ALL, "corps-lost", d->army, WEM_GEN_BASE + (int)g, -1, d->corps, NULL, 0, NULL, 0,
                      "[Army Corps] every Unit of corps %u is removed: %s is eliminated and CANNOT be substituted",
                      d->corps, gd->id);
        }
        s->generals[g].sub_due = 0;
    }
}

void wem_general_remove(wem_state *s, int g, int how, int by, brt_events *ev) {
    wem_general *x = &s->generals[g];
    const wem_general_def *d = &s->sc->generals[g];
    if (x->status != WEM_ON) return;
    x->status = (uint8_t)how;
    x->attached = -1;
    x->markers = 0; /* his box empties with him (R-wem-removed-general-markers) */
    int credit = s_credit(d->army, by);
    s->vp[credit] += s_vp(x->substitute ? d->sub_vp : d->vp, how);
    /* [Substitute Generals] a corps General's removal calls for a Substitute next turn; none for
     * Ney [General Ney] nor for a Commander in Chief */
    if (!d->cinc && !d->ney && !x->substitute) x->sub_due = 1;
    wem_event(s, ev, BRT_SEATS_ALL, "general-removed", d->army, WEM_GEN_BASE + g, -1, how, NULL, 0, &x->at, 0,
              "[Effects of Unit removal] %s is %s", d->id, s_how(how));
    wem_victory_check(s, ev);
}

static int s_cinc_off(const wem_state *s, int army) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->sc->generals[g].cinc && s->sc->generals[g].army == army) return s->generals[g].status != WEM_ON;
    return 0;
}

static void s_end(wem_state *s, uint32_t winners, const char *level, const char *reason, brt_events *ev) {
    s->over = 1;
    s->phase = WEM_PH_OVER;
    s->winners = winners;
    snprintf(s->level, sizeof s->level, "%s", level);
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    wem_event(s, ev, BRT_SEATS_ALL, "ended", -1, -1, -1, (int)winners, NULL, 0, NULL, 0, "%s", reason);
}

static uint32_t s_allies(const wem_state *s) { return wem_army_mask(s, WEM_RED) | wem_army_mask(s, WEM_BLACK); }

/* [Victory Conditions] Napoleon removed: red wins; Wellington removed: blue wins */
int wem_victory_check(wem_state *s, brt_events *ev) {
    if (s->over) return 1;
    if (s_cinc_off(s, WEM_BLUE)) {
        s_end(s, s_allies(s), "decisive", "[Victory Conditions] Napoleon is removed from the battlefield", ev);
        return 1;
    }
    if (s_cinc_off(s, WEM_RED)) {
        s_end(s, wem_army_mask(s, WEM_BLUE), "decisive",
              "[Victory Conditions] Wellington is removed from the battlefield", ev);
        return 1;
    }
    return 0;
}

void wem_scores(const wem_state *s, int32_t vp[WEM_ARMIES]) {
    for (int a = 0; a < WEM_ARMIES; a++) vp[a] = s->vp[a];
}

/* ---- historical objectives [End of the Game] ---- */

/* does any unit of the armies in `mask` (bits of armies) touch the area? */
static int s_touches(const wem_state *s, const wem_area_def *a, unsigned mask) {
    wem_poly p = wem_area_poly(s->sc, a);
    if (p.n < 3) return 0;
    int32_t tol = wem_tol(s);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (s->units[u].status != WEM_ON || !(mask & (1u << s->sc->units[u].army))) continue;
        wem_rect r = wem_unit_rect(s, (int)u);
        wem_quad q;
        wem_g_quad(&r, tol / 2, &q);
        if (wem_g_convex_meets_poly(q.v, 4, &p)) return 1;
    }
    return 0;
}

static unsigned s_enemies(int army) { return army == WEM_BLUE ? (1u << WEM_RED) | (1u << WEM_BLACK) : 1u << WEM_BLUE; }

/* "a blue Unit exclusively touch the Town": one of his touches it and no enemy Unit does */
static int s_exclusive(const wem_state *s, const wem_area_def *a, int army) {
    return s_touches(s, a, 1u << army) && !s_touches(s, a, s_enemies(army));
}

/* the historical objectives the data marks: an area's objective army and VP (blue 50
 * Mont-Saint-Jean, black 20 La Belle-Alliance and 30 Placenoit) and a garrison's VP to red when
 * kept (20 La Haye Sainte, 30 Hougoumont) */
static void s_objectives(wem_state *s, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    static const char *const army[] = {"blue", "red", "black"};
    for (size_t i = 0; i < sc->n_areas; i++) {
        const wem_area_def *a = &sc->areas[i];
        if (!a->obj_vp || a->obj_army >= WEM_ARMIES) continue;
        if (a->obj_army == WEM_BLACK && !sc->prussians) continue;
        if (!s_exclusive(s, a, a->obj_army)) continue;
        s->vp[a->obj_army] += a->obj_vp;
        wem_event(s, ev, BRT_SEATS_ALL, "objective", a->obj_army, -1, -1, a->obj_vp, NULL, 0, NULL, 0,
                  "[End of the Game] %s holds %s exclusively: %u Victory points", army[a->obj_army], a->name, a->obj_vp);
    }
    for (size_t u = 0; u < sc->n_units; u++) {
        const wem_unit_def *d = &sc->units[u];
        if (!d->keep_vp || s->units[u].status != WEM_ON) continue;
        s->vp[d->army] += d->keep_vp;
        wem_event(s, ev, BRT_SEATS_ALL, "objective", d->army, (int)u, -1, d->keep_vp, NULL, 0, NULL, 0,
                  "[End of the Game] %s keeps the %s Garrison: %u Victory points", army[d->army], d->id, d->keep_vp);
    }
}

/* [Short Alternative Scenario] (R-wem-short-objective): blue wins if both Garrisons are removed
 * and blue Units exclusively touch both Towns (the Towns of the board but Placenoit, the
 * Prussians' objective, who never come); otherwise red, who defended them, wins */
static int s_short_objective(const wem_state *s) {
    const wem_scenario *sc = s->sc;
    for (size_t u = 0; u < sc->n_units; u++)
        if (sc->units[u].kind == WEM_GARRISON && s->units[u].status == WEM_ON) return 0;
    for (size_t i = 0; i < sc->n_areas; i++) {
        const wem_area_def *a = &sc->areas[i];
        if (a->kind != WEM_T_TOWN || strstr(a->name, "placenoit")) continue;
        if (!s_exclusive(s, a, WEM_BLUE)) return 0;
    }
    return 1;
}

static int s_scenario_short(const wem_scenario *sc) { return !sc->prussians && strcmp(sc->name, "short") == 0; }

/* [End of the Game] the tally after the last turn; the allies red and black pool their points
 * (R-wem-allied-score); equal points are a draw */
void wem_victory_final(wem_state *s, brt_events *ev) {
    if (s->over) return;
    s_objectives(s, ev);
    int32_t vp[WEM_ARMIES];
    wem_scores(s, vp);
    int32_t blue = vp[WEM_BLUE], allies = vp[WEM_RED] + vp[WEM_BLACK];
    char why[96];
    if (s_scenario_short(s->sc)) {
        int won = s_short_objective(s);
        snprintf(why, sizeof why, "[Short Alternative Scenario] blue %s the objective (points: blue %d, red %d)",
                 won ? "achieves" : "misses", blue, allies);
        s_end(s, won ? wem_army_mask(s, WEM_BLUE) : s_allies(s), "objective", why, ev);
        return;
    }
    snprintf(why, sizeof why, "[End of the Game] Victory points: blue %d, red and black %d", blue, allies);
    if (blue > allies) s_end(s, wem_army_mask(s, WEM_BLUE), "points", why, ev);
    else if (allies > blue) s_end(s, s_allies(s), "points", why, ev);
    else s_end(s, 0, "draw", why, ev);
}

void wem_victory_text(const wem_state *s, char *out, size_t cap) { snprintf(out, cap, "%s", s->reason); }

/* [Suffering Damages] "If a unit reaches its capacity to sustain Losses, that unit is eliminated" */
void wem_unit_loss(wem_state *s, int u, int n, int by, brt_events *ev) {
    wem_unit *x = &s->units[u];
    if (x->status != WEM_ON || n <= 0) return;
    int cap = s->sc->units[u].losses;
    int v = x->losses + n;
    x->losses = (uint8_t)(v > cap ? cap : v);
    wem_event(s, ev, BRT_SEATS_ALL, "loss", s->sc->units[u].army, u, -1, n, NULL, 0, NULL, 0,
              "[Suffering Damages] %s suffers %d Loss%s (%u of %d)", s->sc->units[u].id, n, n == 1 ? "" : "es",
              x->losses, cap);
    if (cap > 0 && x->losses >= cap) wem_unit_remove(s, u, WEM_ELIMINATED, by, ev);
}
