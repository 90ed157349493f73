/*
 * forced.c - the forced moves: [Withdraw], [Retreat], [Routed], [Fall Back].
 *
 * "Withdraw is an effect that forces the movement of Units on the battlefield in the opposite
 * direction to the front, without change to orientation": straight back, so it needs no
 * decision (WEM_PH_WITHDRAW is never asked). What stops it (R-wem-withdraw-block): an enemy
 * unit in the way, or getting closer to the unit that caused it, or being fired on the rear:
 * the unit cannot withdraw, it is Shaken (a Loss if it already was). A friendly unit in the way
 * ends the move in contact with it, which resolves the Withdraw. Touching the board's edge or an
 * off-field element removes the unit as out of field (digest ambiguity 19).
 *
 * The exceptions with friends in contact (R-wem-withdraw-column): the column is the unit and the
 * friendly units in contact with its rear, one behind the other, whatever their Formation or
 * facing ("cumulative depth ... even if the front of all of the Units is not oriented in the same
 * direction"). Depth 2: both withdraw together. Depth 3 or more: nobody moves; the first two
 * from the melee front (the unit and the one behind it) are Shaken.
 */
#include <stdio.h>
#include <string.h>

#include "maneuver.h"

static int s_is_art(const wem_state *s, int u) {
    int k = s->sc->units[u].kind;
    return k == WEM_ART_FOOT || k == WEM_ART_HORSE;
}

/* [Withdraw] "An Artillery Unit that must Withdraw, must fasten the Horse Team" [Fall Back] too */
static void s_fasten(wem_state *s, int u) {
    if (s_is_art(s, u) && !s->units[u].fastened) {
        s->units[u].fastened = 1;
        s->units[u].fastened_turn = 1;
    }
}

static int s_in(const int16_t *set, int n, int u) {
    for (int i = 0; i < n; i++)
        if (set[i] == u) return 1;
    return 0;
}

/* how far the set can slide back along heading `back` (up to dist) before it meets a unit
 * outside it (shrunk by tol/2, so that units merely touching slide past each other); *enemy
 * is set when the first thing met is an enemy */
static int32_t s_room(const wem_state *s, const int16_t *set, int n, int32_t back, int32_t dist, int *enemy,
                      int *blocker) {
    int32_t tol = wem_tol(s), best = dist;
    *enemy = 0;
    *blocker = -1;
    for (int i = 0; i < n; i++) {
        wem_rect r = wem_unit_rect(s, set[i]);
        wem_quad q;
        wem_g_quad(&r, 0, &q);
        for (size_t e = 0; e < s->sc->n_units; e++) {
            if (s->units[e].status != WEM_ON || s_in(set, n, (int)e)) continue;
            wem_rect er = wem_unit_rect(s, (int)e);
            wem_quad eq;
            wem_g_quad(&er, -tol / 2, &eq);
            int32_t d = wem_g_approach(q.v, 4, back, dist, eq.v, 4);
            if (d < best) {
                best = d;
                *blocker = (int)e;
                *enemy = wem_mv_enemies(s->sc->units[set[i]].army, s->sc->units[e].army);
            }
        }
    }
    return best;
}

static void s_move_set(wem_state *s, const int16_t *set, int n, int32_t back, int32_t d, brt_events *ev) {
    for (int i = 0; i < n; i++) {
        wem_unit *x = &s->units[set[i]];
        wem_pt o = wem_g_offset(x->at, back, d, 0);
        /* the attached General goes with his unit [Attaching] */
        for (size_t g = 0; g < s->sc->n_generals; g++)
            if (s->generals[g].status == WEM_ON && s->generals[g].attached == set[i]) {
                s->generals[g].at.x += o.x - x->at.x;
                s->generals[g].at.y += o.y - x->at.y;
            }
        x->at = o;
    }
    /* [Attaching] a unit moved onto a General of its army (R-wem-general-in-the-way) */
    for (int i = 0; i < n; i++) wem_meet_generals(s, set[i], ev);
}

/* "If a Unit CANNOT Withdraw because of any reason, it will receive a yellow marker. If the Unit
 * has already a yellow marker it will instead suffer 1 Loss." A Routed unit that cannot is
 * captured [Routed]. */
static void s_cannot(wem_state *s, int u, int cause, int routed, const char *why, brt_events *ev) {
    const wem_unit_def *d = &s->sc->units[u];
    int by = cause >= 0 && cause < WEM_MAX_PIECES ? s->sc->units[cause].army : -1;
    wem_event(s, ev, BRT_SEATS_ALL, "withdraw-blocked", d->army, u, cause, 0, NULL, 0, NULL, 0,
              "[%s] %s cannot withdraw: %s", routed ? "Routed" : "Withdraw", d->id, why);
    if (routed) {
        wem_unit_remove(s, u, WEM_CAPTURED, by, ev);
        return;
    }
    if (!s->units[u].yellow) wem_shake(s, u, cause, ev);
    else wem_unit_loss(s, u, 1, by, ev);
}

static int32_t s_withdraw(wem_state *s, int u, int32_t dist, int cause, int routed, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (u < 0 || (size_t)u >= sc->n_units || s->units[u].status != WEM_ON || dist <= 0) return 0;
    /* [The Garrisons] "Garrisons can NEVER be moved (ignore Withdraw or Retreat effects)" */
    if (sc->units[u].kind == WEM_GARRISON) return 0;
    if (s->combat.active) s->units[u].withdrew = 1;   /* [Withdraw] by a melee effect */
    s_fasten(s, u);
    int32_t tol = wem_tol(s);
    wem_rect r = wem_unit_rect(s, u);
    /* [Withdraw] exception 1: the target of a bombardment fired on the rear cannot withdraw */
    if (cause >= 0 && s->bomb.gun == cause && s->bomb.target == u) {
        wem_rect g = wem_unit_rect(s, cause);
        wem_rect strip = wem_g_lof(&g, WEM_UOM / 2, 6 * WEM_UOM);
        if (wem_g_fired_on_rear(&strip, &r)) {
            s_cannot(s, u, cause, routed, "it is fired on the rear", ev);
            return 0;
        }
    }
    /* the column: friends in contact with the rear, one behind the other */
    int16_t col[WEM_MAX_LIST];
    int n = 1;
    col[0] = (int16_t)u;
    for (;;) {
        wem_rect c = wem_unit_rect(s, col[n - 1]);
        int next = -1;
        for (size_t i = 0; i < sc->n_units && next < 0; i++) {
            if (s->units[i].status != WEM_ON || s_in(col, n, (int)i)) continue;
            if (wem_mv_enemies(sc->units[u].army, sc->units[i].army)) continue;
            wem_rect o = wem_unit_rect(s, (int)i);
            int corner = 0;
            /* columned: in contact along the rear, not at a corner only (R-wem-width-corner) */
            if ((wem_g_touch_sides(&c, &o, tol, &corner) & WEM_SIDE_REAR) && !corner) next = (int)i;
        }
        if (next < 0 || n >= WEM_MAX_LIST) break;
        col[n++] = (int16_t)next;
    }
    if (n >= 3) {
        /* depth 3+: the first 2 Units from the melee front are Shaken */
        wem_event(s, ev, BRT_SEATS_ALL, "withdraw-column", sc->units[u].army, u, col[1], n, NULL, 0, NULL, 0,
                  "[Withdraw] %s is in a column of depth %d: the first 2 Units from the front are Shaken",
                  sc->units[u].id, n);
        for (int i = 0; i < 2; i++)
            if (!s->units[col[i]].yellow) wem_shake(s, col[i], cause, ev);
        return 0;
    }
    /* depth 2: "both Units must Withdraw 1", a Routed unit's Withdraw 2 included
     * (R-wem-withdraw-column) */
    if (n == 2) {
        s_fasten(s, col[1]);
        if (dist > WEM_UOM) dist = WEM_UOM;
    }
    int32_t back = wem_g_norm((int64_t)s->units[u].h + 1800);
    int enemy = 0, blocker = -1;
    int32_t d = s_room(s, col, n, back, dist, &enemy, &blocker);
    if (d < dist && enemy) {
        s_cannot(s, u, cause, routed, "an enemy Unit is in the way", ev);
        return 0;
    }
    /* never closer to the unit that caused it */
    if (cause >= 0 && (size_t)cause < sc->n_units && s->units[cause].status == WEM_ON) {
        wem_rect cr = wem_unit_rect(s, cause);
        wem_rect nr = wem_g_translate(&r, back, d);
        wem_quad cq, q0, q1;
        wem_g_quad(&cr, 0, &cq);
        wem_g_quad(&r, 0, &q0);
        wem_g_quad(&nr, 0, &q1);
        if (wem_g_dist(&cq, &q1) < wem_g_dist(&cq, &q0)) {
            s_cannot(s, u, cause, routed, "straight back would bring it closer to the unit that caused it", ev);
            return 0;
        }
    }
    s_move_set(s, col, n, back, d, ev);
    for (int i = 0; i < n; i++) {
        int x = col[i];
        wem_event(s, ev, BRT_SEATS_ALL, "withdraw", sc->units[x].army, x, cause, d, NULL, 0, &s->units[x].at,
                  s->units[x].h, "[%s] %s withdraws %d.%02d mm%s", routed ? "Routed" : "Withdraw", sc->units[x].id,
                  d / WEM_MM, d % WEM_MM * 5,
                  d < dist ? ", ending in contact with a friendly Unit: the Withdraw is resolved" : "");
    }
    /* [Elements out of field] */
    for (int i = 0; i < n; i++) {
        wem_rect nr = wem_unit_rect(s, col[i]);
        if (wem_rect_offfield(s, &nr)) wem_unit_remove(s, col[i], WEM_OUTFIELD, -1, ev);
    }
    return d;
}

int32_t wem_withdraw(wem_state *s, int u, int32_t dist, int cause, brt_events *ev) {
    return s_withdraw(s, u, dist, cause, 0, ev);
}

void wem_shake(wem_state *s, int u, int cause, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (u < 0 || (size_t)u >= sc->n_units || s->units[u].status != WEM_ON) return;
    wem_unit *x = &s->units[u];
    if (x->yellow >= 2) return;
    x->yellow++;
    wem_event(s, ev, BRT_SEATS_ALL, "shaken", sc->units[u].army, u, cause, x->yellow, NULL, 0, NULL, 0,
              x->yellow == 1 ? "[Colored Markers] %s is Shaken (1 yellow marker)"
                             : "[Routed] %s has 2 yellow markers: it is Routed",
              sc->units[u].id);
    if (x->yellow < 2) return;
    /* [The Garrisons] a Routed Garrison is eliminated (R-wem-garrison-routed) */
    if (sc->units[u].kind == WEM_GARRISON) {
        wem_unit_remove(s, u, WEM_ELIMINATED, cause >= 0 ? sc->units[cause].army : -1, ev);
        return;
    }
    /* [Routed] "A Routed Unit must Withdraw 2; if it CANNOT, the Unit is captured." */
    s_withdraw(s, u, 2 * WEM_UOM, cause, 1, ev);
}

/* [Area Terrain] [Linear Terrain] "The maneuver modifiers ... are applied to all of the
 * Formations that are moving across it, even partially": what the Formation's straight path back
 * allows of dist, in the order of R-wem-terrain-order (R-wem-fall-back-terrain); *why names the
 * terrain; -1 when a Bridge is met by a front width other than 1 */
static int32_t s_terrain_allow(const wem_state *s, const int16_t *set, int n, int32_t back, int32_t dist,
                               const char **why) {
    const wem_scenario *sc = s->sc;
    int wood = 0, farm = 0, town = 0, sunken = 0, torrent = 0, bridge = 0, road0 = 1, road1 = 1, roads = 0;
    uint8_t met[WEM_MAX_LINES] = {0};
    *why = "";
    for (int i = 0; i < n; i++) {
        wem_rect r = wem_unit_rect(s, set[i]), nr = wem_g_translate(&r, back, dist);
        wem_quad q, nq;
        wem_g_quad(&r, 0, &q);
        wem_g_quad(&nr, 0, &nq);
        wem_pt sw[8];
        int nsw = wem_g_sweep(&q, &nq, sw);
        for (size_t a = 0; a < sc->n_areas; a++) {
            int k = sc->areas[a].kind;
            if (k != WEM_T_WOOD && k != WEM_T_FARM && k != WEM_T_TOWN) continue;
            wem_poly poly = wem_area_poly(sc, &sc->areas[a]);
            if (poly.n < 3 || !wem_g_convex_meets_poly(sw, nsw, &poly)) continue;
            wood |= k == WEM_T_WOOD, farm |= k == WEM_T_FARM, town |= k == WEM_T_TOWN;
        }
        int on0 = 0, on1 = 0;
        for (size_t l = 0; l < sc->n_lines; l++) {
            wem_line ln = wem_line_shape(sc, &sc->lines[l]);
            if (ln.n < 2) continue;
            if (sc->lines[l].kind == WEM_L_ROAD) {
                roads = 1;
                on0 |= wem_g_convex_meets_line(q.v, 4, &ln);
                on1 |= wem_g_convex_meets_line(nq.v, 4, &ln);
            } else if (wem_g_convex_meets_line(sw, nsw, &ln)) {
                met[l] = 1;
            }
        }
        road0 &= on0, road1 &= on1;
    }
    for (size_t l = 0; l < sc->n_lines; l++) {
        if (!met[l]) continue;
        sunken += sc->lines[l].kind == WEM_L_SUNKEN;
        torrent += sc->lines[l].kind == WEM_L_TORRENT;
        bridge += sc->lines[l].kind == WEM_L_BRIDGE;
    }
    int w = 1, d = 1;
    wem_set_shape(s, set, n, &w, &d);
    if (bridge && w != 1) return *why = "[Bridge] only a front width of 1 maneuvers across a Bridge", -1;
    if (w == 1 && roads && road0 && road1) return dist;   /* [Road] (R-wem-road) */
    int32_t allow = dist;
    if (farm && allow > 2 * WEM_UOM) allow = 2 * WEM_UOM, *why = "[Farm Field] at most 2 units of measurement";
    if (wood && allow > WEM_UOM) allow = WEM_UOM, *why = "[Wood] at most 1 unit of measurement";
    if (town) allow -= WEM_UOM, *why = "[Town] counts as 1 unit of measurement already moved";
    if (sunken) allow -= sunken * WEM_UOM, *why = "[Sunken Road] reduces a maneuver by 1";
    if (torrent) allow -= torrent * WEM_UOM, *why = "[Torrent] reduces a maneuver by 1";
    return allow < 0 ? 0 : allow;
}

/* [Fall Back] the whole Formation straight back; "If a Unit must Fall Back, but it CANNOT,
 * because of any circumstance, it will instead suffer 1 Loss" (R-wem-fall-back-partial: the
 * units that can move, move; each one that cannot stays and takes 1 Loss). Shaken spreads both
 * ways between a unit falling back and the friends it passes through [Moving through friendly
 * Units]. */
void wem_fall_back(wem_state *s, int u, int32_t dist, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (u < 0 || (size_t)u >= sc->n_units || s->units[u].status != WEM_ON || dist <= 0) return;
    wem_formations f;
    wem_formations_find(s, &f);
    int16_t set[WEM_MAX_PIECES];
    int n = wem_formation_of(s, &f, u, set);
    if (n == 0) set[0] = (int16_t)u, n = 1;
    if (n > WEM_MAX_LIST) n = WEM_MAX_LIST;
    for (int i = 0; i < n; i++) s_fasten(s, set[i]);
    int32_t back = wem_g_norm((int64_t)s->units[u].h + 1800);
    uint8_t stuck[WEM_MAX_LIST] = {0}, shaken[WEM_MAX_LIST] = {0};
    /* the terrain crossed limits the whole Formation: short of dist, none of it can Fall Back */
    const char *why = "";
    if (s_terrain_allow(s, set, n, back, dist, &why) < dist) {
        wem_event(s, ev, BRT_SEATS_ALL, "fall-back-terrain", sc->units[u].army, u, -1, dist, NULL, 0, NULL, 0,
                  "[Fall Back] the Formation of %s cannot Fall Back %d.%02d mm across the terrain: %s", sc->units[u].id,
                  dist / WEM_MM, dist % WEM_MM * 5, why);
        for (int i = 0; i < n; i++) stuck[i] = 1;
    }
    uint8_t passed[WEM_MAX_LIST][WEM_MAX_PIECES];   /* mover i passed through unit e */
    memset(passed, 0, sizeof passed);
    for (int changed = 1; changed;) {
        changed = 0;
        int16_t mov[WEM_MAX_LIST] = {0};
        int m = 0;
        for (int i = 0; i < n; i++)
            if (!stuck[i]) mov[m++] = set[i];
        for (int i = 0; i < n; i++) {
            if (stuck[i]) continue;
            int16_t one = set[i];
            memset(passed[i], 0, sizeof passed[i]);
            shaken[i] = 0;
            /* against everything but the units still moving: never through an enemy nor a friend
             * IN MOVEMENT, through other friends, never ending on a unit [Moving through friendly
             * Units] (Fall Back is a maneuver) */
            int32_t tol = wem_tol(s), best = dist;
            wem_rect r = wem_unit_rect(s, one), nr = wem_g_translate(&r, back, dist);
            wem_quad q, nq;
            wem_g_quad(&r, 0, &q);
            wem_g_quad(&nr, 0, &nq);
            wem_pt sw[8];
            int nsw = wem_g_sweep(&q, &nq, sw);
            for (size_t e = 0; e < sc->n_units; e++) {
                if (s->units[e].status != WEM_ON || s_in(mov, m, (int)e)) continue;
                wem_rect er = wem_unit_rect(s, (int)e);
                if (wem_mv_far(&r, &er, dist + tol)) continue;
                wem_quad eq;
                wem_g_quad(&er, -tol / 2, &eq);
                int through = !wem_mv_enemies(sc->units[one].army, sc->units[e].army) && !s->units[e].green &&
                              !s_in(set, n, (int)e);
                if (through) {
                    if (wem_g_contact(&nr, &er, tol) == WEM_OVERLAP) best = 0;
                    else if (wem_g_convex_meet(sw, nsw, eq.v, 4)) {
                        passed[i][e] = 1;
                        if (s->units[e].yellow && !s->units[one].yellow) shaken[i] = 1;
                    }
                    continue;
                }
                int32_t d = wem_g_approach(q.v, 4, back, dist, eq.v, 4);
                if (d < best) best = d;
            }
            if (best < dist || (sc->units[one].kind == WEM_GARRISON)) {
                stuck[i] = 1;
                changed = 1;
            }
        }
    }
    int16_t mov[WEM_MAX_LIST] = {0};
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!stuck[i]) mov[m++] = set[i];
    s_move_set(s, mov, m, back, dist, ev);
    for (int i = 0; i < m; i++)
        wem_event(s, ev, BRT_SEATS_ALL, "fall-back", sc->units[mov[i]].army, mov[i], -1, dist, NULL, 0,
                  &s->units[mov[i]].at, s->units[mov[i]].h, "[Fall Back] %s falls back %d.%02d mm", sc->units[mov[i]].id,
                  dist / WEM_MM, dist % WEM_MM * 5);
    /* [Moving through friendly Units] "A Unit becomes Shaken if it moves through a Shaken Unit.
     * Likewise, if a Shaken Unit moves through a Unit, they will become Shaken as well" */
    uint8_t was[WEM_MAX_LIST];
    for (int i = 0; i < n; i++) was[i] = s->units[set[i]].yellow;
    for (int i = 0; i < n; i++)
        if (!stuck[i] && shaken[i]) wem_shake(s, set[i], -1, ev);   /* through a Shaken Unit */
    for (int i = 0; i < n; i++) {
        if (stuck[i] || !was[i]) continue;
        for (size_t e = 0; e < sc->n_units; e++)
            if (passed[i][e] && s->units[e].status == WEM_ON && !s->units[e].yellow) wem_shake(s, (int)e, set[i], ev);
    }
    for (int i = 0; i < n; i++) {
        if (!stuck[i]) continue;
        wem_event(s, ev, BRT_SEATS_ALL, "fall-back-blocked", sc->units[set[i]].army, set[i], -1, 0, NULL, 0, NULL, 0,
                  "[Fall Back] %s cannot Fall Back: it suffers 1 Loss", sc->units[set[i]].id);
        wem_unit_loss(s, set[i], 1, -1, ev);
    }
    for (int i = 0; i < m; i++) {
        if (s->units[mov[i]].status != WEM_ON) continue;
        wem_rect nr = wem_unit_rect(s, mov[i]);
        if (wem_rect_offfield(s, &nr)) wem_unit_remove(s, mov[i], WEM_OUTFIELD, -1, ev);
    }
}

/* WEM_PH_WITHDRAW: forced moves are straight back and need no decision; the phase is never
 * asked, and refuses if it is */
int wem_withdraw_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                       brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Withdraw",
                          "[Withdraw] a Withdraw is straight back, without change to orientation: nothing to decide");
}

void wem_withdraw_pending(const wem_state *s, brt_pending *out) {
    out->seats = wem_army_mask(s, wem_cur_army(s));
    snprintf(out->kind, sizeof out->kind, "withdraw");
    snprintf(out->rule, sizeof out->rule, "Withdraw");
    snprintf(out->prompt, sizeof out->prompt, "withdraw: nothing to decide");
}

int wem_withdraw_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)s, (void)seat, (void)out;
    return 0;
}

int wem_withdraw_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    (void)s, (void)seat, (void)dice, (void)ev;
    return -1;
}
