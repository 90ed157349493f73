/*
 * query.c - measured answers, so that a player need not guess what the ruler would say
 * (docs/wem-query.md):
 *
 *   reach B12 R4    can B12's Formation Charge R4 this turn: its allowance, the turn that points
 *                   at R4, the distance to contact, or what stops it
 *   touch B12 R4    contact or not, the sides touched, corner only, the contact lengths, the gap
 *   fire B23 R4     gun B23's line of fire: is R4 in it, how deep, fired on the rear, what blocks
 *   aoe R4          who occupies R4's area of engagement (occupied, or at its limit)
 *
 * Every figure is in millimetres to 0.05 mm (the geometry's unit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maneuver.h"

#define S_MM(v) (int)((v) / WEM_MM), (int)(((v) % WEM_MM < 0 ? -((v) % WEM_MM) : (v) % WEM_MM) * 5)

static const char *s_sides(int bits, char *buf, size_t cap) {
    buf[0] = 0;
    static const char *const n[4] = {"front", "right", "rear", "left"};
    for (int k = 0; k < 4; k++)
        if (bits & (1 << k)) {
            size_t l = strlen(buf);
            snprintf(buf + l, cap - l, "%s%s", l ? "," : "", n[k]);
        }
    if (!buf[0]) snprintf(buf, cap, "none");
    return buf;
}

static int s_touch(const wem_state *s, int a, int b, brt_buf *out) {
    wem_rect ra = wem_unit_rect(s, a), rb = wem_unit_rect(s, b);
    int32_t tol = wem_tol(s);
    int c = wem_g_contact(&ra, &rb, tol);
    wem_quad qa, qb;
    wem_g_quad(&ra, 0, &qa);
    wem_g_quad(&rb, 0, &qb);
    int32_t gap = wem_g_dist(&qa, &qb);
    char sa[40], sb[40];
    int ca = 0, cb = 0;
    int ta = wem_g_touch_sides(&ra, &rb, tol, &ca), tb = wem_g_touch_sides(&rb, &ra, tol, &cb);
    buf_printf(out, "touch %s %s: %s, gap %d.%02d mm\n", s->sc->units[a].id, s->sc->units[b].id,
               c == WEM_OVERLAP ? "overlap" : c == WEM_TOUCH ? "in contact" : "apart", S_MM(gap));
    if (c == WEM_APART) return 0;
    buf_printf(out, "  %s touched on: %s%s\n", s->sc->units[a].id, s_sides(ta, sa, sizeof sa), ca ? " (corner only)" : "");
    buf_printf(out, "  %s touched on: %s%s\n", s->sc->units[b].id, s_sides(tb, sb, sizeof sb), cb ? " (corner only)" : "");
    for (int k = 0; k < 4; k++) {
        if (ta & (1 << k)) {
            int32_t l = wem_g_contact_len(&ra, 1 << k, &rb, tol);
            buf_printf(out, "  contact length along %s's %s: %d.%02d mm\n", s->sc->units[a].id, s_sides(1 << k, sa, sizeof sa),
                       S_MM(l));
        }
        if (tb & (1 << k)) {
            int32_t l = wem_g_contact_len(&rb, 1 << k, &ra, tol);
            buf_printf(out, "  contact length along %s's %s: %d.%02d mm\n", s->sc->units[b].id, s_sides(1 << k, sb, sizeof sb),
                       S_MM(l));
        }
    }
    return 0;
}

static int s_aoe(const wem_state *s, int e, brt_buf *out) {
    buf_printf(out, "aoe %s (1 unit of measurement along its front and flanks%s):\n", s->sc->units[e].id,
               s->sc->units[e].kind == WEM_GARRISON ? ", all round for a Garrison" : "");
    wem_rect er = wem_unit_rect(s, e);
    wem_quad eq;
    wem_g_quad(&er, 0, &eq);
    int any = 0;
    for (size_t i = 0; i < s->sc->n_units; i++) {
        if ((int)i == e || s->units[i].status != WEM_ON || !wem_mv_enemies(s->sc->units[e].army, s->sc->units[i].army))
            continue;
        wem_rect r = wem_unit_rect(s, (int)i);
        int v = wem_aoe_of(s, e, &r);
        if (!v) continue;
        wem_quad q;
        wem_g_quad(&r, 0, &q);
        int32_t d = wem_g_dist(&eq, &q);
        buf_printf(out, "  %s %s, %d.%02d mm away\n", s->sc->units[i].id,
                   v == 2 ? "occupies it" : "is at its limit (occupied, no Charge forced)", S_MM(d));
        any = 1;
    }
    if (!any) buf_printf(out, "  nobody\n");
    return 0;
}

static int s_fire(const wem_state *s, int g, int t, brt_buf *out) {
    const wem_scenario *sc = s->sc;
    int k = sc->units[g].kind;
    if (k != WEM_ART_FOOT && k != WEM_ART_HORSE) return buf_printf(out, "fire: %s is not an Artillery Unit\n", sc->units[g].id);
    wem_rect gr = wem_unit_rect(s, g), tr = wem_unit_rect(s, t);
    wem_rect strip = wem_g_lof(&gr, WEM_UOM / 2, 6 * WEM_UOM);
    int32_t depth = wem_g_lof_depth(&strip, &tr);
    if (depth < 0) return buf_printf(out, "fire %s %s: %s is not in the line of fire (15 x 180 mm ahead of the front)\n",
                                     sc->units[g].id, sc->units[t].id, sc->units[t].id);
    buf_printf(out, "fire %s %s: in the line of fire at %d.%02d mm%s\n", sc->units[g].id, sc->units[t].id, S_MM(depth),
               wem_g_fired_on_rear(&strip, &tr) ? ", fired on the rear" : "");
    int blocked = 0;
    for (size_t i = 0; i < sc->n_units; i++) {
        if ((int)i == g || (int)i == t || s->units[i].status != WEM_ON) continue;
        wem_rect r = wem_unit_rect(s, (int)i);
        wem_quad q;
        wem_g_quad(&r, 0, &q);
        if (wem_g_lof_blocked_quad(&strip, &q, 0, depth)) {
            buf_printf(out, "  blocked by %s, which crosses the entire width\n", sc->units[i].id);
            blocked = 1;
        }
    }
    for (size_t a = 0; a < sc->n_areas; a++) {
        if (!sc->areas[a].blocks_lof) continue;
        wem_poly p = wem_area_poly(sc, &sc->areas[a]);
        if (p.n >= 3 && wem_g_lof_blocked_poly(&strip, &p, 0, depth)) {
            buf_printf(out, "  crosses %s across its entire width (visibility: see [Line of fire and visibility])\n",
                       sc->areas[a].name);
            blocked = 1;
        }
    }
    for (size_t l = 0; l < sc->n_lines; l++) {
        if (sc->lines[l].kind != WEM_L_SUNKEN) continue;
        wem_line ln = wem_line_shape(sc, &sc->lines[l]);
        if (ln.n >= 2 && wem_g_lof_blocked_line(&strip, &ln, 0, depth)) {
            buf_printf(out, "  blocked by the Sunken Road %s\n", sc->lines[l].name);
            blocked = 1;
        }
    }
    if (!blocked) buf_printf(out, "  nothing crosses the entire width before it\n");
    return 0;
}

static int s_reach(const wem_state *s, int u, int t, brt_buf *out) {
    const wem_scenario *sc = s->sc;
    wem_formations f;
    wem_formations_find(s, &f);
    /* the units the Charge moves: with markers set aside, the Formations of other corps united
     * with U's move with it and count in its front width [Formations] (R-wem-united-maneuver) */
    int16_t fm[WEM_MAX_PIECES];
    int nf = wem_united_of(s, &f, u, fm);
    if (nf > WEM_MAX_LIST) nf = WEM_MAX_LIST;
    int allow = wem_set_allowance(s, fm, nf);
    int w = 1, d = 1;
    wem_set_shape(s, fm, nf, &w, &d);
    buf_printf(out, "reach %s %s: Formation of %d unit(s), front width %d, depth %d: Charge %d (%d.%02d mm)%s\n",
               sc->units[u].id, sc->units[t].id, nf, w, d, allow, S_MM(allow * WEM_UOM),
               s->units[u].green ? "" : "; not IN MOVEMENT (no green marker) this turn");
    wem_state *c = wem_state_clone(s);
    if (!c) return -1;
    wem_order o;
    wem_order_init(&o, WEM_O_MANEUVER);
    o.value = WEM_MV_CHARGE;
    o.unit = u;
    o.target = t;
    brt_reject first, err;
    memset(&first, 0, sizeof first);
    int found = 0;
    for (int k = 0; k <= 180 && !found; k++) {
        o.turn = (k + 1) / 2 * 10 * (k % 2 ? 1 : -1);
        memset(&err, 0, sizeof err);
        /* the question is asked of the geometry: markers set aside */
        if (wem_maneuver_exec(c, &o, -1, WEM_MVF_DRY | WEM_MVF_ANY_MARKERS, NULL, NULL, &err) == 0) {
            found = 1;
        } else if (k == 0) {
            first = err;
        } else if (strstr(err.message, "does not come in contact") == NULL && strstr(first.message, "does not come in contact")) {
            first = err;
        }
    }
    if (found) {
        int32_t dist = wem_charge_reach(s, &o), allow_mm = allow * WEM_UOM;
        buf_printf(out, "  yes: turn %d.%d degrees, then %d.%02d mm along the ruler into contact (allowance %d.%02d mm)\n",
                   o.turn / 10, abs(o.turn % 10), S_MM(dist), S_MM(allow_mm));
    } else {
        buf_printf(out, "  no: %s\n", first.message[0] ? first.message : "no turn of the ruler brings it into contact");
    }
    free(c);
    return 0;
}

int wem_query(const wem_state *s, int viewpoint, const char *text, brt_buf *out) {
    (void)viewpoint;
    char w[4][32] = {{0}};
    int n = sscanf(text ? text : "", "%31s %31s %31s %31s", w[0], w[1], w[2], w[3]);
    int a = n >= 2 ? wem_unit_find(s, w[1]) : -1, b = n >= 3 ? wem_unit_find(s, w[2]) : -1;
    if (n >= 2 && strcmp(w[0], "aoe") == 0) {
        if (a < 0) return buf_printf(out, "query: unknown unit %s\n", w[1]);
        return s_aoe(s, a, out);
    }
    int two = n >= 3 && (strcmp(w[0], "reach") == 0 || strcmp(w[0], "touch") == 0 || strcmp(w[0], "fire") == 0);
    if (!two) return buf_printf(out, "query: reach U T | touch U T | fire GUN T | aoe U (docs/wem-query.md)\n");
    if (a < 0 || b < 0) return buf_printf(out, "query: unknown unit %s\n", a < 0 ? w[1] : w[2]);
    if (s->units[a].status != WEM_ON || s->units[b].status != WEM_ON)
        return buf_printf(out, "query: %s is not on the field\n", s->units[a].status != WEM_ON ? w[1] : w[2]);
    if (strcmp(w[0], "touch") == 0) return s_touch(s, a, b, out);
    if (strcmp(w[0], "fire") == 0) return s_fire(s, a, b, out);
    return s_reach(s, a, b, out);
}
