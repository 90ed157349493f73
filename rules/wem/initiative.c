/*
 * initiative.c - the start of a turn: [Entrance of the black (Prussian) army] with [Executing the
 * entrance], [1. Initiative] (the markers and the sealed bids) and [Substitute Generals].
 *
 * Die faces the text lost are parameters: entrance-lo / entrance-hi, substitute-lo /
 * substitute-hi (the two faces that succeed); each failed turn lowers the valid result by 1
 * (R-wem-entrance-lowering: the lower face drops by 1, and every result from it up to the upper
 * face succeeds). entrance-turn is the first entrance turn (VIII).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

static const char *const s_army[] = {"blue", "red", "black"};

/* R-wem-entrance-lowering: success on lo - tries .. hi */
int wem_lowered_success(int roll, int lo, int hi, int tries) {
    int low = lo - tries;
    if (low < 1) low = 1;
    return roll >= low && roll <= hi;
}

/* ---- shared placement checks ---- */

/* the board's rectangle, the out-of-field elements printed on it [Understanding the Game Board] */
int wem_rect_on_field(const wem_state *s, const wem_rect *r) {
    const wem_scenario *sc = s->sc;
    wem_quad q;
    wem_g_quad(r, 0, &q);
    for (int k = 0; k < 4; k++)
        if (q.v[k].x <= 0 || q.v[k].y <= 0 || q.v[k].x >= sc->width || q.v[k].y >= sc->height) return 0;
    for (size_t i = 0; i < sc->n_offfield; i++) {
        wem_poly p = wem_area_poly(sc, &sc->offfield[i]);
        if (p.n >= 3 && wem_g_convex_meets_poly(q.v, 4, &p)) return 0;
    }
    return 1;
}

/* the unit of the list whose tile the point lies on, -1 none (a General placed on a unit is
 * attached to it: R-wem-place-attaches) */
static int s_unit_under(const wem_state *s, wem_pt p, int army) {
    for (size_t i = 0; i < s->sc->n_units; i++) {
        if (s->units[i].status != WEM_ON || s->sc->units[i].army != army) continue;
        wem_rect r = wem_unit_rect(s, (int)i);
        wem_quad q;
        wem_g_quad(&r, 0, &q);
        wem_poly poly = {4, q.v};
        if (wem_g_pt_in_poly(p, &poly)) return (int)i;
    }
    return -1;
}

/* ---- [Entrance of the black (Prussian) army] ---- */

static int s_black_on_field(const wem_state *s) {
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (s->sc->units[i].army == WEM_BLACK && s->units[i].status == WEM_ON) return 1;
    return 0;
}

/* the pieces of the corps now entering: units of that corps not entered; its General; Blucher
 * with Bulow (III) */
static int s_entering_unit(const wem_state *s, int u) {
    const wem_unit_def *d = &s->sc->units[u];
    if (d->army != WEM_BLACK || s->units[u].status != WEM_NOT_ENTERED) return 0;
    int sec = d->entry ? d->entry : d->corps;
    return sec == s->deploying;
}

static int s_entering_general(const wem_state *s, int g) {
    const wem_general_def *d = &s->sc->generals[g];
    if (d->army != WEM_BLACK || s->generals[g].status != WEM_NOT_ENTERED) return 0;
    if (d->cinc) return s->deploying == 3;
    int sec = d->entry ? d->entry : d->corps;
    return sec == s->deploying;
}

int wem_entrance_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (s->deploying && sc->prussians && s->entered < 3) {
        /* postponed for want of room (R-wem-entrance-no-room): no new roll */
        s->phase = WEM_PH_ENTRANCE;
        return 1;
    }
    s->deploying = 0;
    if (!sc->prussians || s->entered >= 3) return 0;
    if (s->turn < wem_param_get(sc, "entrance-turn", 8)) return 0;
    if (s->entered == 0) {
        int lo = wem_param_get(sc, "entrance-lo", 5), hi = wem_param_get(sc, "entrance-hi", 6);
        int r = wem_d6(dice, "Entrance of the black (Prussian) army");
        int ok = wem_lowered_success(r, lo, hi, s->entrance_tries);
        int low = lo - s->entrance_tries < 1 ? 1 : lo - s->entrance_tries;
        wem_event(s, ev, BRT_SEATS_ALL, "entrance-roll", WEM_BLACK, -1, -1, ok, &r, 1, NULL, 0,
                  "[Entrance of the black (Prussian) army] black rolls %d (%d to %d enter): %s", r, low, hi,
                  ok ? "the Prussians enter" : "not yet");
        if (!ok) {
            s->entrance_tries++;
            return 0;
        }
    }
    s->deploying = (uint8_t)(3 - s->entered);
    int any = 0;
    for (size_t i = 0; i < sc->n_units; i++) any |= s_entering_unit(s, (int)i);
    for (size_t g = 0; g < sc->n_generals; g++) any |= s_entering_general(s, (int)g);
    if (!any) { /* nothing left of that corps to deploy */
        s->entered++;
        s->deploying = 0;
        return 0;
    }
    s->phase = WEM_PH_ENTRANCE;
    return 1;
}

/* check the deployment of the entering corps; 0 valid */
static int s_check_entrance(const wem_state *s, const wem_order *o, brt_reject *err) {
    const wem_scenario *sc = s->sc;
    const char *R = "Executing the entrance";
    if (o->kind != WEM_O_PLACE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] black deploys the entering corps: place ...", R);
    uint8_t seen[WEM_MAX_PIECES + WEM_MAX_GENERALS];
    memset(seen, 0, sizeof seen);
    wem_state *t = wem_state_clone(s);
    if (!t) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "out of memory");
    int rc = 0;
    int32_t tol = wem_tol(s);
    wem_poly dep = wem_area_poly(sc, &sc->deploy);
    wem_line sec = wem_line_shape(sc, &sc->entrance[s->deploying - 1]);
    for (int i = 0; i < o->n_places && rc == 0; i++) {
        int p = o->places[i].piece;
        if (p < WEM_GEN_BASE) {
            if (p < 0 || (size_t)p >= sc->n_units || !s_entering_unit(s, p)) {
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not of the corps entering now", R,
                                    wem_piece_id(s, p));
                break;
            }
            if (seen[p]++) {
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is placed twice", R, wem_piece_id(s, p));
                break;
            }
            int art = sc->units[p].kind == WEM_ART_FOOT || sc->units[p].kind == WEM_ART_HORSE;
            t->units[p].at = o->places[i].at;
            t->units[p].h = wem_g_norm(o->places[i].h);
            t->units[p].fastened = (uint8_t)(art && o->places[i].fastened);
            t->units[p].status = WEM_ON;
            t->units[p].green = 1;
            wem_rect r = wem_unit_rect(t, p);
            wem_quad q;
            wem_g_quad(&r, 0, &q);
            if (dep.n >= 3 && !wem_g_quad_inside_poly(&q, &dep))
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not inside the deployment area", R,
                                    wem_piece_id(s, p));
            else if (!wem_rect_on_field(s, &r))
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s would be out of field", R, wem_piece_id(s, p));
        } else {
            int g = p - WEM_GEN_BASE;
            if ((size_t)g >= sc->n_generals || !s_entering_general(s, g)) {
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s does not enter now", R, wem_piece_id(s, p));
                break;
            }
            if (seen[WEM_MAX_PIECES + g]++) {
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is placed twice", R, wem_piece_id(s, p));
                break;
            }
        }
    }
    for (size_t u = 0; rc == 0 && u < sc->n_units; u++)
        if (s_entering_unit(s, (int)u) && !seen[u])
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] all the Units of the corps enter: %s is missing", R,
                                sc->units[u].id);
    for (size_t g = 0; rc == 0 && g < sc->n_generals; g++)
        if (s_entering_general(s, (int)g) && !seen[WEM_MAX_PIECES + g])
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s enters with his corps: place him", R,
                                sc->generals[g].id);
    /* no piece overlaps another */
    for (size_t a = 0; rc == 0 && a < sc->n_units; a++) {
        if (!seen[a]) continue;
        wem_rect ra = wem_unit_rect(t, (int)a);
        for (size_t b = 0; rc == 0 && b < sc->n_units; b++) {
            if (b == a || t->units[b].status != WEM_ON || (seen[b] && b < a)) continue;
            wem_rect rb = wem_unit_rect(t, (int)b);
            if (wem_g_contact(&ra, &rb, tol) == WEM_OVERLAP)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s would overlap %s", R, sc->units[a].id,
                                    sc->units[b].id);
        }
    }
    /* each Formation with at least one Unit in contact with the entrance section */
    if (rc == 0 && sec.n >= 2) {
        wem_formations f;
        wem_formations_find(t, &f);
        for (size_t a = 0; rc == 0 && a < sc->n_units; a++) {
            if (!seen[a]) continue;
            int touch = 0;
            for (size_t b = 0; !touch && b < sc->n_units; b++) {
                if (!seen[b] || f.of[b] != f.of[a]) continue;
                wem_rect r = wem_unit_rect(t, (int)b);
                wem_quad q;
                wem_g_quad(&r, tol / 2, &q);
                touch = wem_g_convex_meets_line(q.v, 4, &sec);
            }
            if (!touch)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                    "[%s] the Formation of %s has no Unit in contact with entrance section %d", R,
                                    sc->units[a].id, s->deploying);
        }
    }
    /* Generals: on a Unit of their corps (attached; the Commander in Chief on any) or on a free spot */
    for (int i = 0; rc == 0 && i < o->n_places; i++) {
        int p = o->places[i].piece;
        if (p < WEM_GEN_BASE) continue;
        int g = p - WEM_GEN_BASE;
        t->generals[g].at = o->places[i].at;
        t->generals[g].status = WEM_ON;
        wem_rect r = wem_general_rect(t, g);
        wem_quad gq;
        wem_g_quad(&r, 0, &gq);
        if (!wem_rect_on_field(s, &r)) {
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s would be out of field", R, sc->generals[g].id);
            break;
        }
        if (dep.n >= 3 && !wem_g_quad_inside_poly(&gq, &dep)) {
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s is not inside the deployment area", R,
                                sc->generals[g].id);
            break;
        }
        int u = s_unit_under(t, o->places[i].at, WEM_BLACK);
        /* not on a Unit (attached): on a free space (R-wem-place-attaches) */
        for (size_t v = 0; u < 0 && rc == 0 && v < sc->n_units; v++) {
            if (t->units[v].status != WEM_ON) continue;
            wem_rect vr = wem_unit_rect(t, (int)v);
            if (wem_g_contact(&r, &vr, tol) == WEM_OVERLAP)
                rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                    "[%s] %s stands on %s: on a Unit (attached) or on a free space", R,
                                    sc->generals[g].id, sc->units[v].id);
        }
        if (rc) break;
        if (u >= 0 && !sc->generals[g].cinc && sc->units[u].corps != sc->generals[g].corps)
            rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching", "[Attaching] %s attaches only to his corps, not %s",
                                sc->generals[g].id, sc->units[u].id);
        t->generals[g].attached = (int16_t)u;
    }
    /* one General per Formation [Attaching] */
    if (rc == 0) {
        wem_formations f;
        wem_formations_find(t, &f);
        for (size_t g = 0; rc == 0 && g < sc->n_generals; g++) {
            if (t->generals[g].status != WEM_ON || t->generals[g].attached < 0) continue;
            for (size_t h = g + 1; rc == 0 && h < sc->n_generals; h++)
                if (t->generals[h].status == WEM_ON && t->generals[h].attached >= 0 &&
                    f.of[t->generals[h].attached] == f.of[t->generals[g].attached])
                    rc = brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching",
                                        "[Attaching] a Formation can have only 1 General: %s and %s", sc->generals[g].id,
                                        sc->generals[h].id);
        }
    }
    wem_state_destroy(&t);
    return rc;
}

static int s_no_room(const wem_state *s);

int wem_entrance_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                       brt_reject *err) {
    (void)seat;
    if (o->kind == WEM_O_DONE) {
        /* R-wem-entrance-no-room: only when the referee's own deployment finds no room */
        if (!s_no_room(s))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Executing the entrance",
                                  "[Executing the entrance] the corps must be deployed: place ...");
        wem_event(s, ev, BRT_SEATS_ALL, "entrance-postponed", WEM_BLACK, -1, -1, s->deploying, NULL, 0, NULL, 0,
                  "[Executing the entrance] no room for the black corps %d at its section: it enters next turn",
                  s->deploying);
        wem_step_done(s, dice, ev);
        return 0;
    }
    if (s_check_entrance(s, o, err)) return -1;
    const wem_scenario *sc = s->sc;
    for (int i = 0; i < o->n_places; i++) {
        int p = o->places[i].piece;
        if (p < WEM_GEN_BASE) {
            wem_unit *u = &s->units[p];
            int art = sc->units[p].kind == WEM_ART_FOOT || sc->units[p].kind == WEM_ART_HORSE;
            u->at = o->places[i].at;
            u->h = wem_g_norm(o->places[i].h);
            u->fastened = (uint8_t)(art && o->places[i].fastened);
            u->status = WEM_ON;
            u->green = 1; /* "All the Formations deployed will receive a green marker" */
            wem_turn_kept(s, p);
        }
    }
    for (int i = 0; i < o->n_places; i++) {
        int p = o->places[i].piece;
        if (p < WEM_GEN_BASE) continue;
        int g = p - WEM_GEN_BASE;
        s->generals[g].at = o->places[i].at;
        s->generals[g].status = WEM_ON;
        s->generals[g].attached = (int16_t)s_unit_under(s, o->places[i].at, WEM_BLACK);
    }
    int corps = s->deploying;
    s->entered++;
    s->deploying = 0;
    s->black_seen = 1; /* [Maneuver limit] the first Prussian Units are deployed */
    if (s->n_order < 3) s->n_order = 3;
    wem_event(s, ev, BRT_SEATS_ALL, "entrance", WEM_BLACK, -1, -1, corps, NULL, 0, NULL, 0,
              "[Executing the entrance] the black corps %d is deployed at entrance section %d", corps, corps);
    wem_step_done(s, dice, ev);
    return 0;
}

void wem_entrance_pending(const wem_state *s, brt_pending *out) {
    out->seats = wem_army_mask(s, WEM_BLACK);
    snprintf(out->kind, sizeof out->kind, "deploy");
    snprintf(out->rule, sizeof out->rule, "Executing the entrance");
    snprintf(out->prompt, sizeof out->prompt,
             "deploy the black corps %d in the deployment area, each Formation touching entrance section %d",
             s->deploying, s->deploying);
}

/* the heading whose direction is closest to (dx, dy) (1-degree steps) */
static int32_t s_heading_to(int64_t dx, int64_t dy) {
    int32_t best = 0;
    int64_t bestv = 0;
    for (int32_t h = 0; h < WEM_TURN; h += 10) {
        int64_t v = dx * wem_g_sin(h) - dy * wem_g_cos(h);
        if (h == 0 || v > bestv) best = h, bestv = v;
    }
    return best;
}

/* unit u at the pose overlaps nothing on the board of w and stands inside the area */
static int s_free_spot(const wem_state *w, int u, wem_pt at, int32_t h, const wem_poly *dep) {
    wem_state *t = wem_state_clone(w);
    if (!t) return 0;
    t->units[u].at = at, t->units[u].h = h, t->units[u].fastened = 0, t->units[u].status = WEM_ON;
    wem_rect r = wem_unit_rect(t, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    int ok = wem_rect_on_field(w, &r) && (dep->n < 3 || wem_g_quad_inside_poly(&q, dep));
    int32_t tol = wem_tol(w);
    for (size_t b = 0; ok && b < w->sc->n_units; b++) {
        if ((int)b == u || w->units[b].status != WEM_ON) continue;
        wem_rect rb = wem_unit_rect(w, (int)b);
        if (wem_g_contact(&r, &rb, tol) == WEM_OVERLAP) ok = 0;
    }
    wem_state_destroy(&t);
    return ok;
}

/* The default deployment (R-wem-default-deployment): the entering pieces at the poses the data
 * gives them if it gives them all; otherwise columns facing into the field from the entrance
 * section, one column a slot of the section (a tile wide, 1 mm apart), guns at the head of the
 * columns first, each column a Formation whose head touches the section; the Generals on the
 * heads of different columns (attached). */
static void s_default_entrance(const wem_state *s, wem_order *o) {
    const wem_scenario *sc = s->sc;
    wem_order_init(o, WEM_O_PLACE);
    int all_placed = 1, n = 0;
    int16_t list[WEM_MAX_PIECES];
    for (int pass = 0; pass < 2; pass++)
        for (size_t u = 0; u < sc->n_units; u++) {
            if (!s_entering_unit(s, (int)u)) continue;
            int art = sc->units[u].kind == WEM_ART_FOOT || sc->units[u].kind == WEM_ART_HORSE;
            if (art != (pass == 0)) continue;
            list[n++] = (int16_t)u;
            if (!sc->units[u].at.x && !sc->units[u].at.y) all_placed = 0;
        }
    int heads[8], n_heads = 0;
    if (all_placed) {
        for (int i = 0; i < n && o->n_places < WEM_MAX_LIST; i++) {
            wem_place *p = &o->places[o->n_places++];
            p->piece = list[i];
            p->at = sc->units[list[i]].at;
            p->h = sc->units[list[i]].h;
            p->fastened = sc->units[list[i]].fastened;
        }
    } else if (s->deploying >= 1 && s->deploying <= 3 && sc->entrance[s->deploying - 1].n >= 2) {
        wem_line sec = wem_line_shape(sc, &sc->entrance[s->deploying - 1]);
        wem_pt p0 = sec.v[0], p1 = sec.v[sec.n - 1];
        int64_t dx = (int64_t)p1.x - p0.x, dy = (int64_t)p1.y - p0.y;
        int64_t len = (int64_t)wem_g_isqrt((uint64_t)(dx * dx + dy * dy));
        /* inward: the side of the section where the deployment area lies */
        wem_poly dep = wem_area_poly(sc, &sc->deploy);
        wem_pt mid = {(int32_t)((p0.x + p1.x) / 2), (int32_t)((p0.y + p1.y) / 2)};
        int32_t h = s_heading_to(-dy, dx);
        if (dep.n >= 3 && !wem_g_pt_in_poly(wem_g_offset(mid, h, WEM_UOM, 0), &dep)) h = wem_g_norm(h + WEM_TURN / 2);
        /* along the section: the right of h or its left */
        int side = 1;
        wem_pt t = wem_g_offset(p0, h, 0, (int32_t)len);
        int64_t ex = (int64_t)t.x - p1.x, ey = (int64_t)t.y - p1.y;
        if (ex * ex + ey * ey > (int64_t)WEM_UOM * WEM_UOM) side = -1;
        /* columns: a head touching the section wherever a tile's width is free (5 mm steps), the
         * rest of the corps behind the shallowest column that has room */
        wem_state *w = wem_state_clone(s);
        int32_t col_at[16], col_depth[16];
        int n_col = 0;
        int32_t next_along = 10;
        for (int i = 0; w && i < n && o->n_places < WEM_MAX_LIST; i++) {
            int u = list[i];
            int art = sc->units[u].kind == WEM_ART_FOOT || sc->units[u].kind == WEM_ART_HORSE;
            int32_t d = art ? WEM_UOM / 2 : WEM_UOM;
            int placed = 0, opened = 0;
            wem_pt at = {0, 0};
            /* a new column first, while the section has room */
            for (int32_t along = next_along; !placed && n_col < 16 && along + WEM_UOM <= len; along += 100) {
                at = wem_g_offset(p0, h, d / 2 + 2, side * (along + WEM_UOM / 2));
                if (s_free_spot(w, u, at, h, &dep)) {
                    col_at[n_col] = along, col_depth[n_col] = d + 2;
                    n_col++;
                    next_along = along + WEM_UOM + 20;
                    placed = opened = 1;
                }
            }
            /* else behind the shallowest column that takes it */
            for (int tries = 0; !placed && tries < n_col; tries++) {
                int best = -1;
                for (int c = 0; c < n_col; c++)
                    if (col_depth[c] >= 0 && (best < 0 || col_depth[c] < col_depth[best])) best = c;
                if (best < 0) break;
                at = wem_g_offset(p0, h, col_depth[best] + d / 2 + 2, side * (col_at[best] + WEM_UOM / 2));
                if (s_free_spot(w, u, at, h, &dep)) {
                    col_depth[best] += d + 2;
                    placed = 1;
                } else {
                    col_depth[best] = -col_depth[best] - 1; /* closed for this unit */
                }
            }
            for (int c = 0; c < n_col; c++)
                if (col_depth[c] < 0) col_depth[c] = -col_depth[c] - 1;
            if (!placed) continue; /* no room: the order lacks it, and is refused */
            wem_place *p = &o->places[o->n_places++];
            p->piece = (int16_t)u;
            p->at = at;
            p->h = h;
            p->fastened = 0;
            w->units[u].at = at, w->units[u].h = h, w->units[u].status = WEM_ON, w->units[u].fastened = 0;
            if (opened && n_heads < 8) heads[n_heads++] = u;
        }
        wem_state_destroy(&w);
    }
    int k = 0;
    for (size_t g = 0; g < sc->n_generals && o->n_places < WEM_MAX_LIST; g++) {
        if (!s_entering_general(s, (int)g)) continue;
        wem_place *p = &o->places[o->n_places++];
        p->piece = (int16_t)(WEM_GEN_BASE + g);
        p->at = sc->generals[g].at;
        /* his corps' column head (the Commander in Chief any other) */
        for (; !all_placed && k < n_heads; k++) {
            int u = heads[k];
            if (!sc->generals[g].cinc && sc->units[u].corps != sc->generals[g].corps) continue;
            for (int i = 0; i < o->n_places; i++)
                if (o->places[i].piece == u) p->at = o->places[i].at;
            k++;
            break;
        }
    }
}

static int s_no_room(const wem_state *s) {
    wem_order o;
    brt_reject err;
    s_default_entrance(s, &o);
    return s_check_entrance(s, &o, &err) != 0;
}

/* the default deployment; `done` instead when it finds no room */
int wem_entrance_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    wem_order o;
    brt_reject err;
    s_default_entrance(s, &o);
    if (s_check_entrance(s, &o, &err)) wem_order_init(&o, WEM_O_DONE);
    return wem_legal_put(s, &o, out) ? -1 : 1;
}

int wem_entrance_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    brt_reject err;
    s_default_entrance(s, &o);
    if (s_check_entrance(s, &o, &err)) wem_order_init(&o, WEM_O_DONE);
    return wem_entrance_apply(s, seat, &o, dice, ev, &err);
}

/* ---- [1. Initiative] ---- */

static int s_on_field(const wem_state *s, int army) {
    if (army == WEM_BLACK) return s_black_on_field(s);
    return 1;
}

static int s_cinc(const wem_state *s, int army) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->sc->generals[g].cinc && s->sc->generals[g].army == army) return (int)g;
    return -1;
}

/* 1d6 (none for black once Blucher is removed) + his Generals with an Army Corps on the field */
static int s_markers(wem_state *s, int army, brt_dice *dice, brt_events *ev) {
    int n = 0, die = 0, generals = 0;
    int c = s_cinc(s, army);
    int roll = !(army == WEM_BLACK && c >= 0 && s->generals[c].status != WEM_ON);
    char purpose[48];
    snprintf(purpose, sizeof purpose, "1. Initiative: %s markers", s_army[army]);
    if (roll) die = wem_d6(dice, purpose);
    for (size_t g = 0; g < s->sc->n_generals; g++) {
        const wem_general_def *d = &s->sc->generals[g];
        if (d->army == army && d->corps && !d->cinc && !d->ney && s->generals[g].status == WEM_ON) generals++;
    }
    n = die + generals;
    wem_event(s, ev, BRT_SEATS_ALL, "markers", army, -1, -1, n, roll ? &die : NULL, roll ? 1 : 0, NULL, 0,
              roll ? "[1. Initiative] %s rolls %d + %d Generals: %d markers"
                   : "[Commander in Chief Blucher] %s rolls no die (%d) + %d Generals: %d markers",
              s_army[army], die, generals, n);
    return n;
}

int wem_initiative_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    int n = 0;
    uint8_t armies[WEM_ARMIES];
    for (int a = 0; a < WEM_ARMIES; a++)
        if (s_on_field(s, a)) armies[n++] = (uint8_t)a;
    for (int a = 0; a < WEM_ARMIES; a++) s->bid[a] = -1;
    for (int i = 0; i < n; i++) {
        int a = armies[i];
        int m = s_markers(s, a, dice, ev);
        s->markers[a] = (uint8_t)(m > 255 ? 255 : m);
    }
    memcpy(s->prev_order, s->order, sizeof s->order);
    if (s->turn <= 1) {
        /* turn 1: no bidding, the gold marker to blue; all markers to the CinC box */
        s->order[0] = WEM_BLUE, s->order[1] = WEM_RED, s->order[2] = WEM_BLACK;
        s->n_order = (uint8_t)n;
        return 0;
    }
    s->n_order = (uint8_t)n;
    /* an army without a marker has nothing to bid: it bids none (R-wem-no-marker-no-bid) */
    for (int i = 0; i < n; i++)
        if (s->markers[armies[i]] == 0) s->bid[armies[i]] = 0;
    s->phase = WEM_PH_BID;
    return 1;
}

/* the armies a seat bids for now, in army order (those with markers) */
static int s_bidders(const wem_state *s, unsigned seat, int *armies) {
    int all[WEM_ARMIES], k = wem_seat_armies(s, seat, all), n = 0;
    for (int i = 0; i < k; i++)
        if (s_on_field(s, all[i]) && s->markers[all[i]] > 0) armies[n++] = all[i];
    return n;
}

static int s_prev_rank(const wem_state *s, int army) {
    for (int i = 0; i < WEM_ARMIES; i++)
        if (s->prev_order[i] == army) return i;
    return WEM_ARMIES;
}

static void s_reveal(wem_state *s, brt_dice *dice, brt_events *ev) {
    int n = 0;
    int armies[WEM_ARMIES];
    for (int a = 0; a < WEM_ARMIES; a++)
        if (s_on_field(s, a)) armies[n++] = a;
    /* the bid markers are lost */
    for (int i = 0; i < n; i++) {
        int a = armies[i];
        int b = s->bid[a] < 0 ? 0 : s->bid[a];
        s->markers[a] = (uint8_t)(s->markers[a] > b ? s->markers[a] - b : 0);
        wem_event(s, ev, BRT_SEATS_ALL, "bid", a, -1, -1, b, NULL, 0, NULL, 0, "[1. Initiative] %s bids %d", s_army[a],
                  b);
    }
    /* highest first; a tie to the army higher in the previous turn's order */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int x = armies[j - 1], y = armies[j];
            int swap = s->bid[y] > s->bid[x] || (s->bid[y] == s->bid[x] && s_prev_rank(s, y) < s_prev_rank(s, x));
            if (!swap) break;
            armies[j - 1] = y, armies[j] = x;
        }
    memcpy(s->prev_order, s->order, sizeof s->order);
    for (int i = 0; i < n; i++) s->order[i] = (uint8_t)armies[i];
    for (int a = 0, i = n; a < WEM_ARMIES; a++) {
        int in = 0;
        for (int k = 0; k < n; k++) in |= armies[k] == a;
        if (!in && i < WEM_ARMIES) s->order[i++] = (uint8_t)a;
    }
    s->n_order = (uint8_t)n;
    s->markers[armies[0]] += 2; /* gold: two extra markers */
    wem_event(s, ev, BRT_SEATS_ALL, "initiative", armies[0], -1, -1, 1, NULL, 0, NULL, 0,
              "[1. Initiative] %s wins the gold Initiative marker and 2 extra markers", s_army[armies[0]]);
    if (n == 3) {
        s->markers[armies[1]] += 1;
        wem_event(s, ev, BRT_SEATS_ALL, "initiative", armies[1], -1, -1, 2, NULL, 0, NULL, 0,
                  "[1. Initiative] %s takes the silver Initiative marker and 1 extra marker", s_army[armies[1]]);
    }
    for (int a = 0; a < WEM_ARMIES; a++) s->bid[a] = -1;
    wem_step_done(s, dice, ev);
}

int wem_bid_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    const char *R = "1. Initiative";
    int armies[WEM_ARMIES];
    int n = s_bidders(s, seat, armies);
    if (o->kind != WEM_O_BID)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] bid your markers: bid N%s", R, n > 1 ? " M" : "");
    if (n == 0) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, R, "[%s] seat %u has no army to bid for", R, seat);
    if (o->n_values != n)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] seat %u bids for %d arm%s: give %d number%s", R, seat, n,
                              n == 1 ? "y" : "ies", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        int a = armies[i];
        if (s->bid[a] >= 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] the %s bid is in already", R, s_army[a]);
        if (o->values[i] < 1)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s must bid at least 1 marker", R, s_army[a]);
        if (o->values[i] > s->markers[a])
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s has %u markers, not %d", R, s_army[a],
                                  s->markers[a], o->values[i]);
    }
    for (int i = 0; i < n; i++) s->bid[armies[i]] = (int8_t)o->values[i];
    /* sealed: only the bidder learns that it is recorded */
    wem_event(s, ev, 1u << seat, "bid-sealed", armies[0], -1, -1, o->values[0], NULL, 0, NULL, 0,
              "[1. Initiative] your bid is sealed until all are in");
    for (int a = 0; a < WEM_ARMIES; a++)
        if (s_on_field(s, a) && s->bid[a] < 0) return 0;
    s_reveal(s, dice, ev);
    return 0;
}

void wem_bid_pending(const wem_state *s, brt_pending *out) {
    out->sealed = 1;
    for (int a = 0; a < WEM_ARMIES; a++)
        if (s_on_field(s, a) && s->bid[a] < 0) out->seats |= wem_army_mask(s, a);
    snprintf(out->kind, sizeof out->kind, "bid");
    snprintf(out->rule, sizeof out->rule, "1. Initiative");
    snprintf(out->prompt, sizeof out->prompt,
             "bid in secret at least 1 of your markers for the Initiative (2 seats, red: bid RED BLACK)");
}

int wem_bid_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    int armies[WEM_ARMIES];
    int na = s_bidders(s, seat, armies), n = 0;
    wem_order o;
    wem_order_init(&o, WEM_O_BID);
    o.n_values = na;
    if (na == 1) {
        for (int b = 1; b <= s->markers[armies[0]]; b++, n++) {
            o.values[0] = b;
            if (wem_legal_put(s, &o, out)) return -1;
        }
    } else if (na == 2) {
        for (int b = 1; b <= s->markers[armies[0]]; b++)
            for (int c = 1; c <= s->markers[armies[1]]; c++, n++) {
                o.values[0] = b, o.values[1] = c;
                if (wem_legal_put(s, &o, out)) return -1;
            }
    }
    return n;
}

int wem_bid_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    int armies[WEM_ARMIES];
    int na = s_bidders(s, seat, armies);
    wem_order o;
    brt_reject err;
    wem_order_init(&o, WEM_O_BID);
    o.n_values = na;
    for (int i = 0; i < na; i++) o.values[i] = 1;
    return wem_bid_apply(s, seat, &o, dice, ev, &err);
}

/* ---- [Substitute Generals] ---- */

static int s_corps_units_left(const wem_state *s, int army, int corps) {
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s->sc->units[u].army == army && s->sc->units[u].corps == corps &&
            (s->units[u].status == WEM_ON || s->units[u].status == WEM_NOT_ENTERED))
            return 1;
    return 0;
}

/* roll for the army's removed Generals from general index `from` on; 1 if one is to be placed */
static int s_sub_next(wem_state *s, int from, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    int army = wem_cur_army(s);
    int lo = wem_param_get(sc, "substitute-lo", 5), hi = wem_param_get(sc, "substitute-hi", 6);
    for (size_t g = (size_t)from; g < sc->n_generals; g++) {
        wem_general *x = &s->generals[g];
        const wem_general_def *d = &sc->generals[g];
        if (d->army != army || x->sub_due != 1) continue;
        if (!s_corps_units_left(s, army, d->corps)) {
            /* [Army Corps] all its Units removed: the General is lost for good */
            x->sub_due = 0;
            wem_event(s, ev, BRT_SEATS_ALL, "no-substitute", army, WEM_GEN_BASE + (int)g, -1, 0, NULL, 0, NULL, 0,
                      "[Army Corps] %s has no Unit left: no Substitute", d->id);
            continue;
        }
        int r = wem_d6(dice, "Substitute Generals");
        int ok = wem_lowered_success(r, lo, hi, x->sub_tries);
        wem_event(s, ev, BRT_SEATS_ALL, "substitute-roll", army, WEM_GEN_BASE + (int)g, -1, ok, &r, 1, NULL, 0,
                  "[Substitute Generals] %s rolls %d for %s's Substitute: %s", s_army[army], r, d->id,
                  ok ? "he enters" : "the corps stays without command this turn");
        if (!ok) {
            x->sub_tries++;
            continue;
        }
        x->sub_due = 2; /* to be placed now */
        s->phase = WEM_PH_SUBSTITUTE;
        return 1;
    }
    return 0;
}

int wem_substitute_begin(wem_state *s, brt_dice *dice, brt_events *ev) { return s_sub_next(s, 0, dice, ev); }

static int s_sub_placing(const wem_state *s) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->generals[g].sub_due == 2) return (int)g;
    return -1;
}

static int s_check_sub(const wem_state *s, const wem_order *o, brt_reject *err) {
    const char *R = "Substitute Generals";
    int g = s_sub_placing(s);
    if (g < 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] no Substitute to place", R);
    const wem_general_def *d = &s->sc->generals[g];
    if (o->kind != WEM_O_PLACE || o->n_places != 1 || o->places[0].piece != WEM_GEN_BASE + g)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] place %s's Substitute: place %s x,y", R, d->id, d->id);
    wem_state *t = wem_state_clone(s);
    if (!t) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "out of memory");
    t->generals[g].at = o->places[0].at;
    wem_rect r = wem_general_rect(t, g);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    int near = 0;
    int32_t reach = wem_param_get(s->sc, "substitute-range", 2 * WEM_UOM);
    for (size_t u = 0; !near && u < s->sc->n_units; u++) {
        if (s->units[u].status != WEM_ON || s->sc->units[u].army != d->army || s->sc->units[u].corps != d->corps) continue;
        wem_rect ur = wem_unit_rect(s, (int)u);
        wem_quad uq;
        wem_g_quad(&ur, 0, &uq);
        near = wem_g_within(&q, &uq, reach);
    }
    int on = wem_rect_on_field(s, &r);
    wem_state_destroy(&t);
    if (!on) return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] %s would be out of field", R, d->id);
    if (!near)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, R, "[%s] the Substitute stands within 2 UoM of a Unit of corps %u",
                              R, d->corps);
    int u = s_unit_under(s, o->places[0].at, d->army);
    /* not on a Unit of his corps: on a free space, as a General moved in 3.1 (R-wem-place-attaches) */
    for (size_t v = 0; u < 0 && v < s->sc->n_units; v++) {
        if (s->units[v].status != WEM_ON) continue;
        wem_rect vr = wem_unit_rect(s, (int)v);
        if (wem_g_contact(&r, &vr, wem_tol(s)) == WEM_OVERLAP)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, R,
                                  "[%s] %s's Substitute stands on %s: on a Unit of his corps (attached) or on a free space",
                                  R, d->id, s->sc->units[v].id);
    }
    if (u >= 0 && s->sc->units[u].corps != d->corps)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching", "[Attaching] %s attaches only to his corps, not %s",
                              d->id, s->sc->units[u].id);
    if (u >= 0) {
        wem_formations f;
        wem_formations_find(s, &f);
        for (size_t h = 0; h < s->sc->n_generals; h++)
            if (s->generals[h].status == WEM_ON && s->generals[h].attached >= 0 && f.of[s->generals[h].attached] == f.of[u])
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Attaching",
                                      "[Attaching] a Formation can have only 1 General: %s is there", s->sc->generals[h].id);
    }
    return 0;
}

int wem_substitute_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                         brt_reject *err) {
    (void)seat;
    if (s_check_sub(s, o, err)) return -1;
    int g = s_sub_placing(s);
    wem_general *x = &s->generals[g];
    const wem_general_def *d = &s->sc->generals[g];
    x->at = o->places[0].at;
    x->status = WEM_ON;
    x->substitute = 1;
    x->sub_due = 0;
    x->markers = 0;
    x->attached = (int16_t)s_unit_under(s, x->at, d->army);
    wem_event(s, ev, BRT_SEATS_ALL, "substitute", d->army, WEM_GEN_BASE + g, x->attached, 0, NULL, 0, &x->at, 0,
              "[Substitute Generals] %s (rank 1, 0 Command points) takes the command of corps %u", d->sub_name,
              d->corps);
    if (s_sub_next(s, g + 1, dice, ev)) return 0;
    wem_step_done(s, dice, ev);
    return 0;
}

void wem_substitute_pending(const wem_state *s, brt_pending *out) {
    int g = s_sub_placing(s);
    out->seats = wem_army_mask(s, wem_cur_army(s));
    snprintf(out->kind, sizeof out->kind, "substitute");
    snprintf(out->rule, sizeof out->rule, "Substitute Generals");
    snprintf(out->prompt, sizeof out->prompt, "place %s's Substitute within 2 UoM of a Unit of his corps",
             g >= 0 ? s->sc->generals[g].id : "?");
}

/* representative: on each Unit of his corps (attached), and 1 UoM behind each */
int wem_substitute_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int g = s_sub_placing(s), n = 0;
    if (g < 0) return 0;
    const wem_general_def *d = &s->sc->generals[g];
    wem_order o;
    brt_reject err;
    wem_order_init(&o, WEM_O_PLACE);
    o.n_places = 1;
    o.places[0].piece = (int16_t)(WEM_GEN_BASE + g);
    for (size_t u = 0; u < s->sc->n_units && n < 64; u++) {
        if (s->units[u].status != WEM_ON || s->sc->units[u].army != d->army || s->sc->units[u].corps != d->corps) continue;
        for (int k = 0; k < 2; k++) {
            o.places[0].at = k ? wem_g_offset(s->units[u].at, s->units[u].h, -WEM_UOM * 3 / 2, 0) : s->units[u].at;
            if (s_check_sub(s, &o, &err)) continue;
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
    }
    return n;
}

int wem_substitute_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    int g = s_sub_placing(s);
    if (g < 0) return -1;
    const wem_general_def *d = &s->sc->generals[g];
    wem_order o;
    brt_reject err;
    wem_order_init(&o, WEM_O_PLACE);
    o.n_places = 1;
    o.places[0].piece = (int16_t)(WEM_GEN_BASE + g);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (s->units[u].status != WEM_ON || s->sc->units[u].army != d->army || s->sc->units[u].corps != d->corps) continue;
        for (int k = 0; k < 2; k++) {
            o.places[0].at = k ? wem_g_offset(s->units[u].at, s->units[u].h, -WEM_UOM * 3 / 2, 0) : s->units[u].at;
            if (s_check_sub(s, &o, &err) == 0) return wem_substitute_apply(s, seat, &o, dice, ev, &err);
        }
    }
    return -1;
}
