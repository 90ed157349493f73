/*
 * command.c - [3.1 Assign] (markers to Generals, Generals and Commanders in Chief moving up to 2
 * UoM and [Attaching]) and [3.2 Issue Orders] (Command points and the four Orders, with
 * [Move out of sequence] and [Redeploy the Grand Battery of General d'Erlon]).
 *
 * Who may order what (R-wem-order-scope): a corps General orders the Units of his Army Corps
 * (not the Formation Ney is attached to); the Commander in Chief and Ney order only the
 * Formation they are attached to. Transformed points are the markers of the General's box; the
 * Commander in Chief's are the markers of his own box (R-wem-cinc-box-points). Generated points
 * are spent first unless the order says `markers` (pay with markers only, keeping the generated
 * points for another Formation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

static const char *const s_army[] = {"blue", "red", "black"};

void wem_turn_kept(wem_state *s, int u) {
    if (u >= 0 && u < WEM_MAX_PIECES) s->kept[u] = 1;
}

static int s_rank(const wem_state *s, int g) {
    const wem_general_def *d = &s->sc->generals[g];
    if (d->cinc) return 4;
    if (s->generals[g].substitute) return wem_param_get(s->sc, "substitute-rank", 1);
    return d->rank;
}

static int s_pt_on_unit(const wem_state *s, wem_pt p, int u) {
    wem_rect r = wem_unit_rect(s, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    wem_poly poly = {4, q.v};
    return wem_g_pt_in_poly(p, &poly);
}

static int s_may_attach(const wem_state *s, int g, int u, const wem_formations *fp, brt_reject *err) {
    const char *R = "Attaching";
    const wem_general_def *d = &s->sc->generals[g];
    if (u < 0 || (size_t)u >= s->sc->n_units || s->units[u].status != WEM_ON || s->sc->units[u].army != d->army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s attaches only to a Unit of his army on the field", R,
                              d->id);
    const wem_unit_def *ud = &s->sc->units[u];
    if (d->ney) {
        if (ud->army != WEM_BLUE || ud->corps == 1)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "General Ney",
                                  "[General Ney] Ney attaches to any blue Formation except those of Army Corps I, not %s",
                                  ud->id);
    } else if (!d->cinc && ud->corps != d->corps) {
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s attaches only to a Unit of his Army Corps %u, not %s", R,
                              d->id, d->corps, ud->id);
    }
    wem_formations own;
    if (!fp) {
        wem_formations_find(s, &own);
        fp = &own;
    }
    for (size_t h = 0; h < s->sc->n_generals; h++) {
        if ((int)h == g || s->generals[h].status != WEM_ON || s->generals[h].attached < 0) continue;
        if (fp->of[s->generals[h].attached] == fp->of[u])
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] a Formation can have only 1 General: %s is attached to it",
                                  R, s->sc->generals[h].id);
    }
    return 0;
}

int wem_may_attach(const wem_state *s, int g, int u, brt_reject *err) { return s_may_attach(s, g, u, NULL, err); }

static int s_on_a_unit(const wem_state *s, const wem_rect *r) {
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (s->units[u].status != WEM_ON) continue;
        wem_rect ur = wem_unit_rect(s, (int)u);
        if (wem_g_contact(r, &ur, wem_tol(s)) == WEM_OVERLAP) return 1;
    }
    return 0;
}

/* R-wem-general-bumped: the least distance is searched in 1 mm steps over 72 directions (5
 * degrees), the first free spot found at the least distance, the lowest heading first */
void wem_general_bumped(wem_state *s, int u, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (u < 0 || (size_t)u >= sc->n_units || s->units[u].status != WEM_ON) return;
    int army = sc->units[u].army;
    wem_rect ur = wem_unit_rect(s, u);
    for (size_t g = 0; g < sc->n_generals; g++) {
        wem_general *x = &s->generals[g];
        const wem_general_def *d = &sc->generals[g];
        if (x->status != WEM_ON || d->army != army || x->attached >= 0) continue;
        wem_rect gr = wem_general_rect(s, (int)g);
        if (wem_g_contact(&gr, &ur, wem_tol(s)) != WEM_OVERLAP) continue;
        brt_reject err;
        if ((d->cinc || (!d->ney && sc->units[u].corps == d->corps)) && s_may_attach(s, (int)g, u, NULL, &err) == 0) {
            x->attached = (int16_t)u;
            wem_event(s, ev, BRT_SEATS_ALL, "attach", army, WEM_GEN_BASE + (int)g, u, 0, NULL, 0, NULL, 0,
                      "[Attaching] %s moves onto %s: he is attached", sc->units[u].id, d->id);
            continue;
        }
        for (int32_t dist = WEM_MM; dist <= 8 * WEM_UOM; dist += WEM_MM) {
            int done = 0;
            for (int32_t h = 0; h < WEM_TURN && !done; h += 50) {
                wem_rect t = gr;
                t.c = wem_g_offset(x->at, h, dist, 0);
                if (s_on_a_unit(s, &t) || !wem_rect_on_field(s, &t)) continue;
                x->at = t.c;
                done = 1;
            }
            if (done) {
                wem_event(s, ev, BRT_SEATS_ALL, "general-pushed", army, WEM_GEN_BASE + (int)g, u, dist, NULL, 0, &x->at,
                          0, "[Attaching] %s moves onto %s: the counter moves to a free space", sc->units[u].id, d->id);
                break;
            }
        }
    }
}

/* ---- [3.1 Assign] ---- */

static int s_ney(const wem_state *s) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->sc->generals[g].ney) return (int)g;
    return -1;
}

int wem_assign_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice;
    int army = wem_cur_army(s);
    int ney = s_ney(s);
    /* [General Ney] Napoleon must give him 2 blue markers every turn; lost when he is removed */
    if (army == WEM_BLUE && s->option_ney && ney >= 0) {
        int n = s->markers[WEM_BLUE] < 2 ? s->markers[WEM_BLUE] : 2;
        s->markers[WEM_BLUE] = (uint8_t)(s->markers[WEM_BLUE] - n);
        if (s->generals[ney].status == WEM_ON) {
            s->generals[ney].markers = (uint8_t)(s->generals[ney].markers + n);
            s->generals[ney].assigned = 2;
            wem_event(s, ev, BRT_SEATS_ALL, "assign", WEM_BLUE, WEM_GEN_BASE + ney, -1, n, NULL, 0, NULL, 0,
                      "[General Ney] Napoleon gives Ney %d blue markers", n);
        } else if (n) {
            wem_event(s, ev, BRT_SEATS_ALL, "markers-lost", WEM_BLUE, WEM_GEN_BASE + ney, -1, n, NULL, 0, NULL, 0,
                      "[General Ney] Ney is removed: Napoleon loses the %d markers he would give him", n);
        }
    }
    s->phase = WEM_PH_ASSIGN;
    return 1;
}

static int s_check_assign(const wem_state *s, const wem_order *o, const wem_formations *fp, brt_reject *err) {
    const char *R = "3.1 Assign";
    int army = wem_cur_army(s);
    int g = o->general;
    if (g < 0 || (size_t)g >= s->sc->n_generals || s->sc->generals[g].army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] assign markers to a General of the %s army", R, s_army[army]);
    const wem_general_def *d = &s->sc->generals[g];
    const wem_general *x = &s->generals[g];
    if (o->kind == WEM_O_ASSIGN) {
        if (s->passed & (1u << army))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[%s] the markers are assigned before the Generals move, and a General has moved", R);
        if (d->cinc)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] the markers go from the Commander in Chief to the Generals",
                                  R);
        if (x->status != WEM_ON)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not on the battlefield", R, d->id);
        if (d->ney)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "General Ney", "[General Ney] Ney receives his 2 markers, no more");
        if (o->value < 1) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] assign at least 1 marker", R);
        if (x->assigned + o->value > 2)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[%s] it is not possible to assign more than 2 markers per General (%s has %u this turn)", R,
                                  d->id, x->assigned);
        if (o->value > s->markers[army])
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] the Commander in Chief box holds %u markers, not %d", R,
                                  s->markers[army], o->value);
        return 0;
    }
    /* WEM_O_GENERAL: move up to 2 UoM, may attach */
    if (x->status != WEM_ON) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not on the battlefield", R, d->id);
    if (x->moved) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s has moved this turn", R, d->id);
    int64_t dx = (int64_t)o->at.x - x->at.x, dy = (int64_t)o->at.y - x->at.y;
    int64_t reach = wem_param_get(s->sc, "general-move", 2 * WEM_UOM);
    if (dx * dx + dy * dy > reach * reach)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s moves up to 2 units of measurement", R, d->id);
    wem_state *t = wem_state_clone(s);
    if (!t) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "out of memory");
    t->generals[g].at = o->at;
    t->generals[g].attached = -1;
    wem_rect r = wem_general_rect(t, g);
    int rc = 0;
    if (!wem_rect_on_field(s, &r)) rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s would be out of field", R, d->id);
    if (rc == 0 && o->target >= 0) {
        if (s_may_attach(t, g, o->target, fp, err)) rc = -1;
        else if (!s_pt_on_unit(s, o->at, o->target))
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching",
                                "[Attaching] to attach %s, place his counter on top of %s", d->id,
                                s->sc->units[o->target].id);
    } else if (rc == 0) {
        /* unattached: on a free space */
        for (size_t u = 0; rc == 0 && u < s->sc->n_units; u++) {
            if (s->units[u].status != WEM_ON) continue;
            wem_rect ur = wem_unit_rect(s, (int)u);
            if (wem_g_contact(&r, &ur, wem_tol(s)) == WEM_OVERLAP)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching",
                                    "[Attaching] %s stands on %s: attach him to it or move him to a free space", d->id,
                                    s->sc->units[u].id);
        }
    }
    wem_state_destroy(&t);
    return rc;
}

int wem_assign_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    (void)seat;
    const char *R = "3.1 Assign";
    int army = wem_cur_army(s);
    if (o->kind == WEM_O_DONE) {
        wem_event(s, ev, BRT_SEATS_ALL, "done", army, -1, -1, 0, NULL, 0, NULL, 0, "[%s] %s is done", R, s_army[army]);
        wem_step_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WEM_O_ASSIGN && o->kind != WEM_O_GENERAL)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] assign GENERAL N, general GENERAL x,y [attach UNIT], or done",
                              R);
    if (s_check_assign(s, o, NULL, err)) return -1;
    wem_general *x = &s->generals[o->general];
    const wem_general_def *d = &s->sc->generals[o->general];
    if (o->kind == WEM_O_ASSIGN) {
        s->markers[army] = (uint8_t)(s->markers[army] - o->value);
        x->markers = (uint8_t)(x->markers + o->value);
        x->assigned = (uint8_t)(x->assigned + o->value);
        wem_event(s, ev, BRT_SEATS_ALL, "assign", army, WEM_GEN_BASE + o->general, -1, o->value, NULL, 0, NULL, 0,
                  "[%s] %d marker%s to %s", R, o->value, o->value == 1 ? "" : "s", d->id);
        return 0;
    }
    s->passed |= (uint8_t)(1u << army);
    x->at = o->at;
    x->moved = 1;
    x->attached = (int16_t)(o->target >= 0 ? o->target : -1);
    wem_event(s, ev, BRT_SEATS_ALL, "general-move", army, WEM_GEN_BASE + o->general, o->target, 0, NULL, 0, &x->at, 0,
              "[%s] %s moves%s%s", R, d->id, o->target >= 0 ? " and attaches to " : "",
              o->target >= 0 ? s->sc->units[o->target].id : "");
    return 0;
}

void wem_assign_pending(const wem_state *s, brt_pending *out) {
    int army = wem_cur_army(s);
    out->seats = wem_army_mask(s, army);
    snprintf(out->kind, sizeof out->kind, "assign");
    snprintf(out->rule, sizeof out->rule, "3.1 Assign");
    snprintf(out->prompt, sizeof out->prompt,
             "%s: assign markers from the Commander in Chief box (%u) to Generals (<= 2 each), move Generals <= 2 UoM, "
             "attach; then done",
             s_army[army], s->markers[army]);
}

/* representative: done; each General and each marker count; each General attaching to each Unit
 * he may attach to within reach (his counter on its centre) */
int wem_assign_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int army = wem_cur_army(s), n = 0;
    wem_order o;
    brt_reject err;
    wem_formations f;
    wem_formations_find(s, &f);
    wem_order_init(&o, WEM_O_DONE);
    if (wem_legal_put(s, &o, out)) return -1;
    n++;
    for (size_t g = 0; g < s->sc->n_generals; g++) {
        if (s->sc->generals[g].army != army || s->generals[g].status != WEM_ON) continue;
        wem_order_init(&o, WEM_O_ASSIGN);
        o.general = (int)g;
        for (int m = 1; m <= 2; m++) {
            o.value = m;
            if (s_check_assign(s, &o, &f, &err)) continue;
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
        wem_order_init(&o, WEM_O_GENERAL);
        o.general = (int)g;
        for (size_t u = 0; u < s->sc->n_units && n < 200; u++) {
            if (s->units[u].status != WEM_ON || s->sc->units[u].army != army) continue;
            o.at = s->units[u].at;
            o.target = (int)u;
            int64_t dx = (int64_t)o.at.x - s->generals[g].at.x, dy = (int64_t)o.at.y - s->generals[g].at.y;
            if (dx * dx + dy * dy > (int64_t)4 * WEM_UOM * WEM_UOM) continue;
            if (s_check_assign(s, &o, &f, &err)) continue;
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
    }
    return n;
}

int wem_assign_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    brt_reject err;
    wem_order_init(&o, WEM_O_DONE);
    return wem_assign_apply(s, seat, &o, dice, ev, &err);
}

/* ---- [3.2 Issue Orders] ---- */

int wem_orders_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice, (void)ev;
    int army = wem_cur_army(s);
    for (size_t g = 0; g < s->sc->n_generals; g++) {
        if (s->sc->generals[g].army != army) continue;
        wem_general *x = &s->generals[g];
        /* a Substitute generates substitute-cp (0); the Commander in Chief none */
        int cp = x->substitute ? wem_param_get(s->sc, "substitute-cp", 0) : s->sc->generals[g].cp;
        x->cp_gen = (uint8_t)(s->sc->generals[g].cinc || cp < 0 ? 0 : cp);
        x->cp_gen_fmn = -1;
    }
    s->phase = WEM_PH_ORDERS;
    return 1;
}

/* at the end of 3.2: green markers off the Formations without Put or Keep in Movement */
void wem_orders_end(wem_state *s, brt_events *ev) {
    for (size_t u = 0; u < s->sc->n_units; u++) {
        wem_unit *x = &s->units[u];
        if (x->status != WEM_ON || !x->green || s->kept[u]) continue;
        x->green = 0;
        wem_event(s, ev, BRT_SEATS_ALL, "green-off", s->sc->units[u].army, (int)u, -1, 0, NULL, 0, NULL, 0,
                  "[KEEP IN MOVEMENT] %s received no Order to stay in movement: the green marker comes off",
                  s->sc->units[u].id);
    }
}

/* [3.2] "A Unit is NOT visible if the General's line of sight crosses a Hill, Wood, or Placenoit
 * Town, unless the Unit is on that terrain" */
static int s_visible(const wem_state *s, int g, int u) {
    const wem_scenario *sc = s->sc;
    wem_rect r = wem_unit_rect(s, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    wem_rect gr = wem_general_rect(s, g);
    wem_quad gq;
    wem_g_quad(&gr, 0, &gq);
    for (size_t i = 0; i < sc->n_areas; i++) {
        if (!sc->areas[i].blocks_lof) continue;
        wem_poly p = wem_area_poly(sc, &sc->areas[i]);
        if (p.n < 3) continue;
        /* the area the General himself stands on is not crossed by his line of sight
         * (R-wem-not-visible, as R-wem-lof-own-terrain for a gun) */
        if (wem_g_convex_meets_poly(gq.v, 4, &p)) continue;
        if (wem_g_seg_meets_poly(s->generals[g].at, s->units[u].at, &p) && !wem_g_convex_meets_poly(q.v, 4, &p)) return 0;
    }
    return 1;
}

/* does the order name a Unit of Formation fm? */
static int s_named_fmn(const wem_order *o, const wem_formations *f, int fm) {
    for (int i = 0; i < o->n_units; i++)
        if (o->units[i] >= 0 && o->units[i] < WEM_MAX_PIECES && f->of[o->units[i]] == fm) return 1;
    return 0;
}

/* the Formations the order names, each once, in the order of their first named Unit */
static int s_named_fmns(const wem_order *o, const wem_formations *f, int *out) {
    int n = 0;
    for (int i = 0; i < o->n_units; i++) {
        int fm = f->of[o->units[i]], seen = 0;
        for (int k = 0; k < n; k++) seen |= out[k] == fm;
        if (!seen) out[n++] = fm;
    }
    return n;
}

static const char *const s_cmd[] = {"?", "PUT IN MOVEMENT", "KEEP IN MOVEMENT", "RECOVER", "REDEPLOY"};

/* the order's Formation: every named unit of it, 0; err otherwise. *fmn its number (the first
 * named unit's). REDEPLOY "any number of Formations of his Army Corps" may name Units of several
 * (R-wem-redeploy-formations); every other Order goes to 1 Formation */
static int s_check_units(const wem_state *s, const wem_order *o, const wem_formations *f, int *fmn, brt_reject *err) {
    const char *R = "3.2 Issue Orders";
    int army = wem_cur_army(s), g = o->general;
    const wem_general_def *d = &s->sc->generals[g];
    if (o->n_units < 1) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] name the Units of the Formation", R);
    int ney = s_ney(s), ney_fmn = -1, own_fmn = -1;
    if (ney >= 0 && s->generals[ney].status == WEM_ON && s->generals[ney].attached >= 0)
        ney_fmn = f->of[s->generals[ney].attached];
    if (s->generals[g].attached >= 0) own_fmn = f->of[s->generals[g].attached];
    *fmn = -1;
    for (int i = 0; i < o->n_units; i++) {
        int u = o->units[i];
        if (u < 0 || (size_t)u >= s->sc->n_units || s->units[u].status != WEM_ON || s->sc->units[u].army != army)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not a Unit of the %s army on the field", R,
                                  wem_piece_id(s, u), s_army[army]);
        for (int k = 0; k < i; k++)
            if (o->units[k] == u) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is named twice", R, s->sc->units[u].id);
        if (*fmn < 0) *fmn = f->of[u];
        else if (f->of[u] != *fmn && o->value != WEM_CMD_REDEPLOY)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s and %s are not of one Formation", R,
                                  s->sc->units[o->units[0]].id, s->sc->units[u].id);
        const wem_unit_def *ud = &s->sc->units[u];
        if (d->cinc || d->ney) {
            if (f->of[u] != own_fmn)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[%s] %s has no Army Corps: he orders only the Formation he is attached to, not %s", R,
                                      d->id, ud->id);
        } else {
            if (ud->corps != d->corps)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[%s] each General can ONLY issue Orders to Formations of his own Army Corps: %s is "
                                      "not of corps %u",
                                      R, ud->id, d->corps);
            if (f->of[u] == ney_fmn)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "General Ney",
                                      "[General Ney] the Formation Ney is attached to cannot receive Orders from %s", d->id);
        }
        /* [Colored Markers] orange: "CANNOT follow Orders (beside Recovery)" (R-wem-orange-recover) */
        if (s->units[u].orange && o->value != WEM_CMD_RECOVER)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[%s] %s is in Recovery (orange): it CANNOT receive Orders beside RECOVER", R, ud->id);
    }
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (f->of[u] >= 0 && s_named_fmn(o, f, f->of[u]) && s->units[u].ordered)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[%s] it is NOT possible to issue more than 1 Order to each Formation: %s has one", R,
                                  s->sc->units[u].id);
    return 0;
}

/* the named Units of Formation fm (all named when fm < 0) mix Infantry and Cavalry */
static int s_mixed_in(const wem_state *s, const wem_order *o, const wem_formations *f, int fm) {
    int inf = 0, cav = 0;
    for (int i = 0; i < o->n_units; i++) {
        if (fm >= 0 && f->of[o->units[i]] != fm) continue;
        inf |= s->sc->units[o->units[i]].kind == WEM_INF;
        cav |= s->sc->units[o->units[i]].kind == WEM_CAV;
    }
    return inf && cav;
}

static int s_mixed(const wem_state *s, const wem_order *o) { return s_mixed_in(s, o, NULL, -1); }

static int s_enemies(const wem_state *s, int army, int e) {
    if (s->units[e].status != WEM_ON) return 0;
    int ea = s->sc->units[e].army;
    return ea != army && (army == WEM_BLUE || ea == WEM_BLUE);
}

static wem_quad s_quad(const wem_state *s, int u) {
    wem_rect r = wem_unit_rect(s, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    return q;
}

/* the closest pair (a Unit of Formation fm, an enemy Unit) before the Order, compared exactly
 * (R-wem-distance-edges); 0 when there is no enemy */
static int s_closest(const wem_state *s, const wem_formations *f, int fm, int army, wem_quad *bu, wem_quad *be) {
    const wem_scenario *sc = s->sc;
    int have = 0;
    for (size_t u = 0; u < sc->n_units; u++) {
        if (f->of[u] != fm || s->units[u].status != WEM_ON) continue;
        wem_quad qu = s_quad(s, (int)u);
        for (size_t e = 0; e < sc->n_units; e++) {
            if (!s_enemies(s, army, (int)e)) continue;
            wem_quad qe = s_quad(s, (int)e);
            if (!have || wem_g_dist_cmp(qu.v, 4, qe.v, 4, bu->v, 4, be->v, 4) < 0) {
                *bu = qu, *be = qe;
                have = 1;
            }
        }
    }
    return have;
}

/* Redeploy: new poses for exactly the named units, on the field, overlapping nothing, never
 * closer to the enemy than the closest Unit of its Formation was; foot artillery without Smoke;
 * the Grand Battery by its own Order */
static int s_check_redeploy(const wem_state *s, const wem_order *o, const wem_formations *f, brt_reject *err) {
    const char *R = "3.2 Issue Orders";
    const wem_scenario *sc = s->sc;
    int army = wem_cur_army(s);
    if (o->n_places != o->n_units)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[REDEPLOY] give a new position to each of the %d Units",
                              o->n_units);
    int gb = 0, other = 0;
    for (int i = 0; i < o->n_units; i++) {
        int u = o->units[i];
        if (sc->units[u].grand_battery) gb = 1;
        else other = 1;
        if (sc->units[u].kind == WEM_ART_FOOT && s->units[u].smoke)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[REDEPLOY] Artillery Units on Foot can Redeploy ONLY without the Smoke token: %s has one",
                                  sc->units[u].id);
        int found = 0;
        for (int k = 0; k < o->n_places; k++) found += o->places[k].piece == u;
        if (found != 1)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[REDEPLOY] give %s exactly one new position", sc->units[u].id);
    }
    if (gb && other)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Redeploy the Grand Battery",
                              "[Redeploy the Grand Battery of General d'Erlon] the Grand Battery Redeploys by its own Order");
    /* per Formation named: the closest pair before */
    int fms[WEM_MAX_LIST], have[WEM_MAX_LIST];
    wem_quad bu[WEM_MAX_LIST], be[WEM_MAX_LIST];
    int n_fm = s_named_fmns(o, f, fms);
    for (int k = 0; k < n_fm; k++) have[k] = s_closest(s, f, fms[k], army, &bu[k], &be[k]);
    wem_state *t = wem_state_clone(s);
    if (!t) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "out of memory");
    int rc = 0;
    for (int k = 0; k < o->n_places; k++) {
        int u = o->places[k].piece;
        t->units[u].at = o->places[k].at;
        t->units[u].h = wem_g_norm(o->places[k].h);
    }
    int32_t tol = wem_tol(s);
    for (int k = 0; rc == 0 && k < o->n_places; k++) {
        int u = o->places[k].piece;
        wem_rect r = wem_unit_rect(t, u);
        if (!wem_rect_on_field(s, &r)) {
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[REDEPLOY] %s would be out of field", sc->units[u].id);
            break;
        }
        wem_quad q;
        wem_g_quad(&r, 0, &q);
        int k = 0;
        while (k < n_fm && fms[k] != f->of[u]) k++;
        for (size_t e = 0; k < n_fm && have[k] && rc == 0 && e < sc->n_units; e++) {
            if (!s_enemies(t, army, (int)e)) continue;
            wem_quad qe = s_quad(t, (int)e);
            if (wem_g_dist_cmp(q.v, 4, qe.v, 4, bu[k].v, 4, be[k].v, 4) < 0)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                    "[REDEPLOY] the Formations CANNOT Redeploy towards the enemy: %s would stand %d from %s, "
                                    "the closest Unit of its Formation was %d from the enemy",
                                    sc->units[u].id, wem_g_dist(&q, &qe), sc->units[e].id, wem_g_dist(&bu[k], &be[k]));
        }
        if (rc) break;
        for (size_t b = 0; rc == 0 && b < sc->n_units; b++) {
            if ((int)b == u || t->units[b].status != WEM_ON) continue;
            wem_rect rb = wem_unit_rect(t, (int)b);
            if (wem_g_contact(&r, &rb, tol) == WEM_OVERLAP)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[REDEPLOY] %s would overlap %s", sc->units[u].id,
                                    sc->units[b].id);
        }
    }
    wem_state_destroy(&t);
    return rc;
}

/* the cost of the order, checked against the rules and the General's points */
static int s_cost(const wem_state *s, const wem_order *o, const wem_formations *fp, int *use_gen, brt_reject *err) {
    const char *R = "3.2 Issue Orders";
    int army = wem_cur_army(s), g = o->general;
    if (o->kind != WEM_O_COMMAND)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] put / keep / recover / redeploy GENERAL UNITS..., or done", R);
    if (g < 0 || (size_t)g >= s->sc->n_generals || s->sc->generals[g].army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] the Order comes from a General of the %s army", R,
                              s_army[army]);
    const wem_general_def *d = &s->sc->generals[g];
    const wem_general *x = &s->generals[g];
    if (x->status != WEM_ON)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not on the battlefield: his corps is without command", R,
                              d->id);
    if ((d->cinc || d->ney) && x->attached < 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s issues Orders only when attached", R, d->id);
    if (o->value < WEM_CMD_PUT || o->value > WEM_CMD_REDEPLOY)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] there are 4 types of Orders", R);
    wem_formations own;
    if (!fp) {
        wem_formations_find(s, &own);
        fp = &own;
    }
    int fmn = -1;
    if (s_check_units(s, o, fp, &fmn, err)) return -1;
    int n = o->n_units, cost = 0;
    switch (o->value) {
    case WEM_CMD_PUT:
        for (int i = 0; i < n; i++)
            if (s->units[o->units[i]].green)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[PUT IN MOVEMENT] %s is already IN MOVEMENT: KEEP IN MOVEMENT costs 1",
                                      s->sc->units[o->units[i]].id);
        cost = 1 + n > 5 ? 5 : 1 + n;
        cost += s_mixed(s, o);
        break;
    case WEM_CMD_KEEP:
        for (int i = 0; i < n; i++)
            if (!s->units[o->units[i]].green)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[KEEP IN MOVEMENT] only a Formation already marked in green: %s is not",
                                      s->sc->units[o->units[i]].id);
        /* the Formation is kept whole: only Put in Movement splits one (R-wem-keep-whole) */
        for (size_t u = 0; u < s->sc->n_units; u++) {
            if (fp->of[u] != fmn || !s->units[u].green) continue;
            int named = 0;
            for (int i = 0; i < n && !named; i++) named = o->units[i] == (int)u;
            if (!named)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[KEEP IN MOVEMENT] the Order goes to the whole Formation: name %s too",
                                      s->sc->units[u].id);
        }
        cost = 1;
        break;
    case WEM_CMD_RECOVER:
        for (int i = 0; i < n; i++) {
            int y = s->units[o->units[i]].yellow;
            if (y >= 2)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                      "[Routed] the Order Recovery cannot be issued to Routed Units: %s",
                                      s->sc->units[o->units[i]].id);
            if (y == 0)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[RECOVER] %s is not Shaken",
                                      s->sc->units[o->units[i]].id);
        }
        cost = 2 * n;
        break;
    case WEM_CMD_REDEPLOY: {
        /* "2 Command points ... another 1 Command point if the Formation is mixed": 2 for the
         * Order, 1 for each mixed Formation it moves (R-wem-redeploy-formations) */
        if (s_check_redeploy(s, o, fp, err)) return -1;
        int fms[WEM_MAX_LIST], k = s_named_fmns(o, fp, fms);
        cost = 2;
        for (int i = 0; i < k; i++) cost += s_mixed_in(s, o, fp, fms[i]);
        break;
    }
    }
    if (o->flag) {
        if (o->value == WEM_CMD_RECOVER)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Move out of sequence",
                                  "[Move out of sequence] Units move out of sequence by a Redeploy or a maneuver");
        cost += 4 * n; /* R-wem-out-of-sequence-cost */
    }
    /* +1 for a Formation none of whose Units is visible to the General */
    int fms[WEM_MAX_LIST], n_fm = s_named_fmns(o, fp, fms);
    for (int k = 0; k < n_fm; k++) {
        int vis = 0;
        for (int i = 0; i < n && !vis; i++) vis = fp->of[o->units[i]] == fms[k] && s_visible(s, g, o->units[i]);
        if (!vis) cost += 1;
    }
    /* generated points: one Formation only, unless 4 stars */
    int gen = 0;
    if (!o->pay_markers && x->cp_gen > 0) {
        int ok = s_rank(s, g) >= 4 || (n_fm == 1 && (x->cp_gen_fmn < 0 ||
                 (s->units[x->cp_gen_fmn].status == WEM_ON && fp->of[x->cp_gen_fmn] == fmn)));
        if (ok) gen = x->cp_gen < cost ? x->cp_gen : cost;
    }
    int box = d->cinc ? s->markers[army] : x->markers;
    if (gen + box < cost)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                              "[%s] %s costs %d Command points; %s has %d generated (for this Formation) and %d markers", R,
                              s_cmd[o->value], cost, d->id, gen, box);
    if (use_gen) *use_gen = gen;
    return cost;
}

int wem_command_cost(const wem_state *s, const wem_order *o, brt_reject *err) { return s_cost(s, o, NULL, NULL, err); }

int wem_orders_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    (void)seat;
    int army = wem_cur_army(s);
    if (o->kind == WEM_O_DONE) {
        wem_event(s, ev, BRT_SEATS_ALL, "done", army, -1, -1, 0, NULL, 0, NULL, 0, "[3.2 Issue Orders] %s is done",
                  s_army[army]);
        wem_step_done(s, dice, ev);
        return 0;
    }
    int gen = 0;
    int cost = s_cost(s, o, NULL, &gen, err);
    if (cost < 0) return -1;
    const wem_scenario *sc = s->sc;
    int g = o->general;
    wem_general *x = &s->generals[g];
    wem_formations f;
    wem_formations_find(s, &f);
    /* pay: generated first (unless told), then markers to the reserve */
    x->cp_gen = (uint8_t)(x->cp_gen - gen);
    if (gen > 0 && x->cp_gen_fmn < 0) x->cp_gen_fmn = o->units[0];
    int rest = cost - gen;
    if (sc->generals[g].cinc) s->markers[army] = (uint8_t)(s->markers[army] - rest);
    else x->markers = (uint8_t)(x->markers - rest);
    /* one Order per Formation: the whole Formation is ordered (a part split off stays without) */
    for (size_t u = 0; u < sc->n_units; u++)
        if (f.of[u] >= 0 && s_named_fmn(o, &f, f.of[u])) s->units[u].ordered = 1;
    for (int i = 0; i < o->n_units; i++) {
        int u = o->units[i];
        wem_unit *y = &s->units[u];
        int art = sc->units[u].kind == WEM_ART_FOOT || sc->units[u].kind == WEM_ART_HORSE;
        switch (o->value) {
        case WEM_CMD_PUT:
            y->green = 1;
            s->kept[u] = 1;
            if (art && !y->fastened) y->fastened = 1, y->fastened_turn = 1; /* the Horse Team fastens */
            break;
        case WEM_CMD_KEEP: s->kept[u] = 1; break;
        case WEM_CMD_RECOVER: y->yellow = 0; break;
        case WEM_CMD_REDEPLOY: break;
        }
        if (o->flag) y->out_of_seq = 1;
    }
    if (o->value == WEM_CMD_REDEPLOY) {
        for (int k = 0; k < o->n_places; k++) {
            int u = o->places[k].piece;
            s->units[u].at = o->places[k].at;
            s->units[u].h = wem_g_norm(o->places[k].h);
        }
        /* the green marker comes off the Formation (even only a part of it redeployed) */
        for (size_t u = 0; u < sc->n_units; u++)
            if (f.of[u] >= 0 && s_named_fmn(o, &f, f.of[u])) s->units[u].green = 0, s->kept[u] = 0;
    }
    wem_event(s, ev, BRT_SEATS_ALL, "order", army, WEM_GEN_BASE + g, o->units[0], cost, NULL, 0, NULL, 0,
              "[3.2 Issue Orders] %s: %s to %d Unit%s from %s (%s...) for %d Command point%s (%d generated)%s",
              s_army[army], s_cmd[o->value], o->n_units, o->n_units == 1 ? "" : "s", sc->generals[g].id,
              sc->units[o->units[0]].id, cost, cost == 1 ? "" : "s", gen, o->flag ? ", out of sequence" : "");
    return 0;
}

void wem_orders_pending(const wem_state *s, brt_pending *out) {
    int army = wem_cur_army(s);
    out->seats = wem_army_mask(s, army);
    snprintf(out->kind, sizeof out->kind, "orders");
    snprintf(out->rule, sizeof out->rule, "3.2 Issue Orders");
    snprintf(out->prompt, sizeof out->prompt,
             "%s: issue Orders (put, keep, recover, redeploy GENERAL UNITS...), at most 1 per Formation; then done",
             s_army[army]);
}

static int s_try(const wem_state *s, const wem_order *o, const wem_formations *f, brt_buf *out, int *n) {
    brt_reject err;
    if (s_cost(s, o, f, NULL, &err) < 0) return 0;
    if (wem_legal_put(s, o, out)) return -1;
    (*n)++;
    return 0;
}

/* representative: done; for each General and each Formation he may order, the whole (his part
 * of it) Put in Movement, Kept in Movement, its Shaken Units Recovered, and Redeployed straight
 * back 1 UoM */
int wem_orders_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    const wem_scenario *sc = s->sc;
    int army = wem_cur_army(s), n = 0;
    wem_order o;
    wem_order_init(&o, WEM_O_DONE);
    if (wem_legal_put(s, &o, out)) return -1;
    n++;
    wem_formations f;
    wem_formations_find(s, &f);
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general_def *d = &sc->generals[g];
        if (d->army != army || s->generals[g].status != WEM_ON) continue;
        for (int fm = 0; fm < f.n; fm++) {
            int16_t all[WEM_MAX_PIECES];
            int na = wem_formation_units(&f, fm, all);
            wem_order c;
            wem_order_init(&c, WEM_O_COMMAND);
            c.general = (int)g;
            int shaken = 0;
            wem_order r;
            wem_order_init(&r, WEM_O_COMMAND);
            r.general = (int)g;
            r.value = WEM_CMD_RECOVER;
            for (int i = 0; i < na && c.n_units < WEM_MAX_LIST; i++) {
                int u = all[i];
                if (sc->units[u].army != army) continue;
                if (!d->cinc && !d->ney && sc->units[u].corps != d->corps) continue;
                c.units[c.n_units++] = (int16_t)u;
                if (s->units[u].yellow == 1) r.units[r.n_units++] = (int16_t)u, shaken++;
            }
            if (!c.n_units) continue;
            c.value = WEM_CMD_PUT;
            if (s_try(s, &c, &f, out, &n)) return -1;
            c.value = WEM_CMD_KEEP;
            if (s_try(s, &c, &f, out, &n)) return -1;
            if (shaken && s_try(s, &r, &f, out, &n)) return -1;
            c.value = WEM_CMD_REDEPLOY;
            c.n_places = c.n_units;
            for (int i = 0; i < c.n_units; i++) {
                int u = c.units[i];
                c.places[i].piece = (int16_t)u;
                c.places[i].at = wem_g_offset(s->units[u].at, s->units[u].h, -WEM_UOM, 0);
                c.places[i].h = s->units[u].h;
            }
            if (s_try(s, &c, &f, out, &n)) return -1;
        }
    }
    return n;
}

int wem_orders_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    brt_reject err;
    wem_order_init(&o, WEM_O_DONE);
    return wem_orders_apply(s, seat, &o, dice, ev, &err);
}
