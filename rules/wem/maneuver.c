/*
 * maneuver.c - [3.3 Maneuver]: Advance, Fall Back 1 and Charge [Execute maneuvers], [Charge
 * against Artillery], [Unfastening Artillery Units from Horse Teams], [Move out of sequence], and
 * the split of enemy units still in contact at [3.5 End of Turn].
 *
 * The motion (R-wem-pivot, digest ambiguity 11): the ruler lies on a flank of the guide unit;
 * for a turn it pivots on the guide's front corner opposite the direction of the turn (the
 * front-left corner for a turn to the right, clockwise, the front-right one for a turn to the
 * left); the Formation (or the part that moves) turns rigidly about that corner by `turn`, then
 * slides `dist` along the new heading (its guide's flank along the ruler). Fall Back 1 is the
 * slide straight back, without a turn. The area swept is checked: for the slide the hull of the
 * start and end shapes (exact, wem_g_sweep); for the pivot the kernel's wheel parts of one degree
 * each (wem_g_wheel_part, R-wem-wheel-sampling).
 *
 * The area of engagement of an enemy unit is tested on each hull of the path and at the end,
 * exactly (wem_g_aoe_convex, wem_g_aoe; R-wem-aoe-path).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maneuver.h"

#define S_MAX_HULLS (900 / 10 + 2)   /* a quarter turn's wheel parts of 1 degree, and the slide */
#define S_REPLIED 0x100     /* the Charge comes back from WEM_PH_CHARGE_REPLY */
#define S_ON_FIELD 0x200    /* legal(): refuse what would take a unit out of field */
#define S_MAXD (8 * WEM_UOM)
_Static_assert(sizeof(((wem_state *)0)->mv_units) / sizeof(int16_t) == WEM_MAX_LIST, "mv_units holds a list");

/* ---- shapes ---- */

static void s_bbox(const wem_pt *p, int n, int32_t bb[4]) {
    bb[0] = bb[2] = p[0].x;
    bb[1] = bb[3] = p[0].y;
    for (int i = 1; i < n; i++) {
        if (p[i].x < bb[0]) bb[0] = p[i].x;
        if (p[i].x > bb[2]) bb[2] = p[i].x;
        if (p[i].y < bb[1]) bb[1] = p[i].y;
        if (p[i].y > bb[3]) bb[3] = p[i].y;
    }
}

static int s_bb_meet(const int32_t a[4], const int32_t b[4], int32_t grow) {
    return a[0] - grow <= b[2] && b[0] - grow <= a[2] && a[1] - grow <= b[3] && b[1] - grow <= a[3];
}

static int s_is_art(const wem_state *s, int u) {
    int k = s->sc->units[u].kind;
    return k == WEM_ART_FOOT || k == WEM_ART_HORSE;
}

/* the shape a unit moves with: a gun moves with its Horse Team fastened [Units] */
static wem_rect s_move_rect(const wem_state *s, int u) {
    wem_rect r = wem_unit_rect(s, u);
    if (s_is_art(s, u) && !s->units[u].fastened) {
        r.c = wem_g_offset(s->units[u].at, s->units[u].h, -WEM_UOM / 4, 0);
        r.hd = WEM_UOM / 2;
    }
    return r;
}

int wem_aoe_of(const wem_state *s, int e, const wem_rect *r) {
    wem_rect a = wem_unit_rect(s, e);
    if (wem_mv_far(&a, r, WEM_UOM + WEM_UOM / 2)) return 0;
    int32_t tol = wem_tol(s);
    int v = wem_g_aoe(&a, r, WEM_UOM, tol);
    if (s->sc->units[e].kind == WEM_GARRISON)
        for (int k = 1; k < 4 && v < 2; k++) {
            wem_rect b = a;
            b.h = wem_g_norm(a.h + k * 900);
            int w = wem_g_aoe(&b, r, WEM_UOM, tol);
            if (w > v) v = w;
        }
    return v;
}

int wem_in_enemy_contact(const wem_state *s, int u) {
    wem_rect a = wem_unit_rect(s, u);
    int army = s->sc->units[u].army;
    int32_t tol = wem_tol(s);
    for (size_t i = 0; i < s->sc->n_units; i++) {
        if (s->units[i].status != WEM_ON || !wem_mv_enemies(army, s->sc->units[i].army)) continue;
        wem_rect b = wem_unit_rect(s, (int)i);
        if (wem_mv_far(&a, &b, tol)) continue;
        if (wem_g_contact(&a, &b, tol) != WEM_APART) return 1;
    }
    return 0;
}

int wem_rect_offfield(const wem_state *s, const wem_rect *r) {
    wem_quad q;
    wem_g_quad(r, 0, &q);
    for (int k = 0; k < 4; k++)
        if (q.v[k].x <= 0 || q.v[k].y <= 0 || q.v[k].x >= s->sc->width || q.v[k].y >= s->sc->height) return 1;
    for (size_t i = 0; i < s->sc->n_offfield; i++) {
        wem_poly p = wem_area_poly(s->sc, &s->sc->offfield[i]);
        if (p.n >= 3 && wem_g_convex_meets_poly(q.v, 4, &p)) return 1;
    }
    return 0;
}

/* ---- the acting army ---- */

static int s_army(const wem_state *s) { return s->mv_army ? s->mv_army - 1 : wem_cur_army(s); }

static int s_in(const int16_t *set, int n, int u) {
    for (int i = 0; i < n; i++)
        if (set[i] == u) return 1;
    return 0;
}

/* IN MOVEMENT, or paid to move out of sequence and moving in that round: "By paying this cost,
 * the Units that "move out of sequence" can ... execute any maneuver" (R-wem-out-of-sequence) */
static int s_green(const wem_state *s, const wem_unit *x) { return x->green || (s->mv_army && x->out_of_seq); }

/* a unit of a Formation that may maneuver now [3.3] */
static int s_can_move(const wem_state *s, int u, int army) {
    const wem_unit *x = &s->units[u];
    if (x->status != WEM_ON || s->sc->units[u].army != army || s->sc->units[u].kind == WEM_GARRISON) return 0;
    if (!s_green(s, x) || x->maneuvered || x->orange) return 0;
    if (s->mv_army && !x->out_of_seq) return 0;   /* the out-of-sequence round */
    return 1;
}

/* [3.3 Maneuver] "If two Formations belonging to the same Army Corps end a maneuver in contact,
 * from the next turn on, these Formations can be considered united": in 3.3, a unit that has
 * made its maneuver this turn and one that has not are not of one Formation, though they touch
 * (R-wem-united-next-turn). The Charges of the combat steps, of Pursuit and the query take the
 * Formations as they stand. */
static int s_joined(const wem_state *s, int a, int b, unsigned flags) {
    if (flags & (WEM_MVF_NO_GREEN | WEM_MVF_PURSUIT | WEM_MVF_ANY_MARKERS)) return 1;
    return s->units[a].maneuvered == s->units[b].maneuvered;
}

/* a and b of one Formation for this maneuver */
static int s_same_now(const wem_state *s, const wem_formations *f, int a, int b, unsigned flags);

/* ---- the plan: the motion of [Execute maneuvers] ---- */

static int s_plan(const wem_state *s, const wem_order *o, int32_t allowance, unsigned flags, const wem_formations *f,
                  wem_plan *p, brt_reject *err) {
    const wem_scenario *sc = s->sc;
    memset(p, 0, sizeof *p);
    p->kind = o->value;
    p->guide = o->unit;
    p->target = o->target;
    if (p->kind < WEM_MV_ADVANCE || p->kind > WEM_MV_CHARGE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver",
                              "[3.3 Maneuver] a maneuver is Advance, Fall Back 1 or Charge");
    if (o->unit < 0 || (size_t)o->unit >= sc->n_units || s->units[o->unit].status != WEM_ON)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Execute maneuvers",
                              "[Execute maneuvers] the ruler goes on the flank of a unit of the Formation on the field");
    p->army = sc->units[o->unit].army;
    const char *gid = sc->units[o->unit].id;
    if (sc->units[o->unit].kind == WEM_GARRISON)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "The Garrisons", "[The Garrisons] %s can never be moved", gid);
    int16_t grp[WEM_MAX_PIECES];
    int ng = wem_united_of(s, f, o->unit, grp), kept = 0;
    for (int i = 0; i < ng; i++)
        if (s_joined(s, grp[i], o->unit, flags)) grp[kept++] = grp[i];
    ng = kept;
    if (o->n_units == 0) {
        /* the whole Formation: united with other corps' Formations when every one of them may
         * maneuver with it [Formations] (R-wem-united-maneuver), else the guide's own corps' */
        int all = 1;
        for (int i = 0; i < ng && all; i++) {
            const wem_unit *x = &s->units[grp[i]];
            if (!(flags & (WEM_MVF_NO_GREEN | WEM_MVF_ANY_MARKERS)) &&
                (!s_green(s, x) || x->maneuvered || x->orange || (s->mv_army && !x->out_of_seq)))
                all = 0;
        }
        int16_t own[WEM_MAX_PIECES];
        const int16_t *src = grp;
        int m = ng;
        if (!all) {
            int m1 = wem_formation_of(s, f, o->unit, own);
            m = 0;
            for (int i = 0; i < m1; i++)
                if (s_joined(s, own[i], o->unit, flags)) own[m++] = own[i];
            src = own;
        }
        p->n = m > WEM_MAX_LIST ? WEM_MAX_LIST : m;
        memcpy(p->units, src, (size_t)p->n * sizeof src[0]);
    } else {
        for (int i = 0; i < o->n_units; i++) {
            int u = o->units[i];
            if (u < 0 || (size_t)u >= sc->n_units || !s_in(grp, ng, u))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver",
                                      "[3.3 Maneuver] %s is not in the Formation of %s", wem_piece_id(s, u), gid);
            if (s_in(p->units, p->n, u)) continue;
            p->units[p->n++] = (int16_t)u;
        }
        if (!s_in(p->units, p->n, o->unit))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Execute maneuvers",
                                  "[Execute maneuvers] the guide %s must be one of the units that move", gid);
    }
    int art = 0;
    for (int i = 0; i < p->n; i++) {
        int u = p->units[i];
        const wem_unit *x = &s->units[u];
        if (!(flags & (WEM_MVF_NO_GREEN | WEM_MVF_ANY_MARKERS))) {
            if (x->orange)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Colored Markers",
                                      "[Colored Markers] %s is in Recovery (orange) and cannot maneuver", sc->units[u].id);
            if (!s_green(s, x))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver",
                                      "[3.3 Maneuver] %s is not IN MOVEMENT (no green marker)", sc->units[u].id);
            if (x->maneuvered)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver",
                                      "[3.3 Maneuver] %s has made its 1 maneuver this turn", sc->units[u].id);
            if (s->mv_army && !x->out_of_seq)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Move out of sequence",
                                      "[Move out of sequence] %s did not pay to move out of sequence", sc->units[u].id);
        }
        art += s_is_art(s, u);
    }
    if (p->kind == WEM_MV_CHARGE && art == p->n)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                              "[Charge] Artillery Units NOT in Formation with Infantry and/or Cavalry CANNOT Charge");
    p->turn = p->kind == WEM_MV_FALLBACK ? 0 : o->turn;
    if (p->kind == WEM_MV_FALLBACK && o->turn != 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Fall Back",
                              "[Fall Back] straight back, without changing orientation: no turn");
    if (p->turn < -900 || p->turn > 900)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Execute maneuvers",
                              "[Execute maneuvers] the ruler pivots at most a quarter turn (R-wem-pivot)");
    wem_rect g = s_move_rect(s, o->unit);
    if (p->turn > 0) p->pivot = wem_g_corner(&g, WEM_FL);
    else if (p->turn < 0) p->pivot = wem_g_corner(&g, WEM_FR);
    p->dir = wem_g_norm(p->kind == WEM_MV_FALLBACK ? (int64_t)g.h + 1800 : (int64_t)g.h + p->turn);
    for (int i = 0; i < p->n; i++) {
        p->r0[i] = s_move_rect(s, p->units[i]);
        p->r1[i] = p->turn ? wem_g_rotate(&p->r0[i], p->pivot, p->turn) : p->r0[i];
    }
    int d = 1;
    wem_set_shape(s, p->units, p->n, &p->width, &d);
    if (p->kind == WEM_MV_FALLBACK) p->base = WEM_UOM;
    else if (allowance >= 0) p->base = allowance;
    else p->base = wem_set_allowance(s, p->units, p->n) * WEM_UOM;
    return 0;
}

/* the hulls swept by moving unit i of the plan to distance dist: the pivot's samples, then the
 * slide; returns the count */
static int s_hulls(const wem_plan *p, int i, int32_t dist, wem_pt h[][8], int *nh) {
    int n = 0;
    if (p->turn) {
        int parts = wem_g_wheel_parts(p->turn);
        for (int k = 0; k < parts && n < S_MAX_HULLS - 1; k++) {
            nh[n] = wem_g_wheel_part(&p->r0[i], p->pivot, p->turn, k, h[n]);
            if (nh[n] > 0) n++;
        }
    }
    wem_rect r2 = wem_g_translate(&p->r1[i], p->dir, dist);
    wem_quad a, b;
    wem_g_quad(&p->r1[i], 0, &a);
    wem_g_quad(&r2, 0, &b);
    nh[n] = wem_g_sweep(&a, &b, h[n]);
    n++;
    return n;
}

static int s_hulls_meet(wem_pt h[][8], const int *nh, int n, const wem_pt *q, int nq) {
    for (int k = 0; k < n; k++)
        if (wem_g_convex_meet(h[k], nh[k], q, nq)) return 1;
    return 0;
}

static int s_hulls_meet_poly(wem_pt h[][8], const int *nh, int n, const wem_poly *poly) {
    for (int k = 0; k < n; k++)
        if (wem_g_convex_meets_poly(h[k], nh[k], poly)) return 1;
    return 0;
}

static int s_hulls_meet_line(wem_pt h[][8], const int *nh, int n, const wem_line *l) {
    for (int k = 0; k < n; k++)
        if (wem_g_convex_meets_line(h[k], nh[k], l)) return 1;
    return 0;
}

/* does any hull of a path come into enemy e's area of engagement (closer than 1 UoM - tol to its
 * front or flanks, all round for a Garrison): exact on each hull (wem_g_aoe_convex) */
static int s_hulls_in_aoe(const wem_state *s, int e, wem_pt h[][8], const int *nh, int n) {
    wem_rect a = wem_unit_rect(s, e);
    int32_t tol = wem_tol(s);
    int sides = s->sc->units[e].kind == WEM_GARRISON ? 4 : 1;
    for (int k = 0; k < n; k++)
        for (int r = 0; r < sides; r++) {
            wem_rect b = a;
            b.h = wem_g_norm((int64_t)a.h + r * 900);
            if (wem_g_aoe_convex(&b, h[k], nh[k], WEM_UOM, tol) == 2) return 1;
        }
    return 0;
}

/* enemy e's area of engagement does not stop a maneuver: "unless the enemy Unit is already in
 * contact with enemy Units or unless the area of engagement of the enemy Unit is already
 * occupied by enemy Units NOT in contact with friendly Units" (R-wem-aoe-exceptions: units of
 * the moving side, not in contact with units of e's side, and not among the units that move) */
static int s_aoe_exempt(const wem_state *s, int e, const wem_plan *p) {
    int side = s->sc->units[e].army;
    /* "already in contact with enemy Units": units other than the ones that move */
    {
        wem_rect a = wem_unit_rect(s, e);
        int32_t tol = wem_tol(s);
        for (size_t i = 0; i < s->sc->n_units; i++) {
            if (s->units[i].status != WEM_ON || !wem_mv_enemies(side, s->sc->units[i].army)) continue;
            if (s_in(p->units, p->n, (int)i)) continue;
            wem_rect b = wem_unit_rect(s, (int)i);
            if (!wem_mv_far(&a, &b, tol) && wem_g_contact(&a, &b, tol) != WEM_APART) return 1;
        }
    }
    for (size_t i = 0; i < s->sc->n_units; i++) {
        if (s->units[i].status != WEM_ON || !wem_mv_enemies(side, s->sc->units[i].army)) continue;
        if (s_in(p->units, p->n, (int)i)) continue;   /* not the units that move */
        wem_rect r = wem_unit_rect(s, (int)i);
        if (wem_aoe_of(s, e, &r) >= 1 && !wem_in_enemy_contact(s, (int)i)) return 1;
    }
    return 0;
}

/* what the check found that the execution needs */
typedef struct s_fx {
    int n_pass;
    int16_t pass_mover[WEM_MAX_PIECES], pass_other[WEM_MAX_PIECES];
    uint8_t out[WEM_MAX_LIST];
    int off;
} s_fx;

/* the unit the target belongs with: its Formation (for the units whose area a Charge may enter) */
static int s_same_fmn(const wem_formations *f, int a, int b) { return f->of[a] >= 0 && f->of[a] == f->of[b]; }

static int s_same_now(const wem_state *s, const wem_formations *f, int a, int b, unsigned flags) {
    return s_same_fmn(f, a, b) && s_joined(s, a, b, flags);
}

/* check the plan at distance dist: every rule of the path; 0 or -1 (err) */
static int s_check(const wem_state *s, wem_plan *p, const wem_formations *f, unsigned flags, int32_t dist, s_fx *fx,
                   brt_reject *err) {
    const wem_scenario *sc = s->sc;
    int32_t tol = wem_tol(s);
    int n = (int)sc->n_units;
    p->dist = dist;
    p->wood = p->farm = p->town = p->sunken = p->torrent = p->bridge = p->road = 0;
    memset(fx, 0, sizeof *fx);
    uint8_t lines_met[WEM_MAX_LINES] = {0};
    int exempt[WEM_MAX_PIECES];
    for (int e = 0; e < n; e++) exempt[e] = -1;
    wem_pt h[S_MAX_HULLS][8];
    int nh[S_MAX_HULLS];
    int road_start = 1, road_end = 1;
    wem_rect rect[WEM_MAX_PIECES];
    for (int e = 0; e < n; e++)
        if (s->units[e].status == WEM_ON) rect[e] = wem_unit_rect(s, e);
    for (int i = 0; i < p->n; i++) {
        int u = p->units[i];
        const char *uid = sc->units[u].id;
        p->r2[i] = wem_g_translate(&p->r1[i], p->dir, dist);
        int k = s_hulls(p, i, dist, h, nh);
        int32_t bb[4], eb[4];
        {
            wem_pt all[S_MAX_HULLS * 8];
            int m = 0;
            for (int j = 0; j < k; j++)
                for (int v = 0; v < nh[j]; v++) all[m++] = h[j][v];
            s_bbox(all, m, bb);
        }
        for (int e = 0; e < n; e++) {
            if (s->units[e].status != WEM_ON || s_in(p->units, p->n, e)) continue;
            const wem_rect er = rect[e];
            wem_quad eq, es;
            wem_g_quad(&er, 0, &eq);
            s_bbox(eq.v, 4, eb);
            int enemy = wem_mv_enemies(p->army, sc->units[e].army);
            if (enemy && s_bb_meet(bb, eb, tol)) {
                wem_g_quad(&er, -tol / 2, &es);
                if (s_hulls_meet(h, nh, k, es.v, 4))
                    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Moving through friendly Units",
                                          "[Moving through friendly Units] %s cannot move through the enemy Unit %s",
                                          uid, sc->units[e].id);
            }
            if (enemy && s_bb_meet(bb, eb, 2 * WEM_UOM)) {
                /* [Area of Engagement] */
                int start = wem_aoe_of(s, e, &p->r0[i]);
                int own = p->kind == WEM_MV_CHARGE && p->target >= 0 && (e == p->target || s_same_fmn(f, e, p->target));
                /* the Charges of the combat steps and of Pursuit are made among units already
                 * engaged: no area of engagement stops them (R-wem-combat-charges) */
                if (flags & (WEM_MVF_NO_GREEN | WEM_MVF_PURSUIT)) own = 1;
                if (!own) {
                    if (exempt[e] < 0) exempt[e] = s_aoe_exempt(s, e, p);
                    if (!exempt[e]) {
                        /* at the limit the area "is considered occupied": the Formation has met it
                         * and "CANNOT Advance further" (R-wem-aoe-path) */
                        if (start == 1 && p->kind == WEM_MV_ADVANCE && (dist > 0 || p->turn))
                            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Advance",
                                                  "[Advance] %s is at the limit of the area of engagement of %s, "
                                                  "which is considered occupied: once the Formation meets an enemy "
                                                  "area of engagement it CANNOT Advance further",
                                                  uid, sc->units[e].id);
                        if (start == 2) {
                            if (p->kind == WEM_MV_CHARGE)
                                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                                                      "[Charge] %s occupies the area of engagement of %s: the Unit "
                                                      "must get in contact with the enemy Unit whose area of "
                                                      "engagement was occupied",
                                                      uid, sc->units[e].id);
                            if (p->kind == WEM_MV_ADVANCE && (dist > 0 || p->turn))
                                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Advance",
                                                      "[Advance] %s is in the area of engagement of %s: once the "
                                                      "Formation meets an enemy area of engagement it CANNOT Advance "
                                                      "further",
                                                      uid, sc->units[e].id);
                        } else {
                            wem_rect r2 = p->r2[i];
                            if (s_hulls_in_aoe(s, e, h, nh, k) || wem_aoe_of(s, e, &r2) == 2) {
                                if (p->kind == WEM_MV_CHARGE)
                                    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                                                          "[Charge] %s would occupy the area of engagement of %s: "
                                                          "the Unit must get in contact with the enemy Unit whose "
                                                          "area of engagement was occupied",
                                                          uid, sc->units[e].id);
                                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Area of Engagement",
                                                      "[Area of Engagement] %s would occupy the area of engagement "
                                                      "of %s: no maneuver besides Charge can",
                                                      uid, sc->units[e].id);
                            }
                        }
                    }
                }
            }
            if (!s_bb_meet(bb, eb, tol)) continue;
            /* [Charge] "Charge is the only maneuver that allows the movement of Formations, on the
             * battlefield, to bring them in contact with the enemy" (R-wem-contact-only-charge) */
            if (enemy && p->kind != WEM_MV_CHARGE) {
                wem_rect r2 = p->r2[i];
                if (wem_g_contact(&r2, &er, tol) != WEM_APART && wem_g_contact(&p->r0[i], &er, tol) == WEM_APART)
                    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                                          "[Charge] %s would end in contact with the enemy Unit %s: Charge is the only "
                                          "maneuver that brings Formations in contact with the enemy",
                                          uid, sc->units[e].id);
            }
            wem_g_quad(&er, -tol / 2, &es);
            if (enemy || !s_hulls_meet(h, nh, k, es.v, 4)) continue;
            if (s->units[e].green && !s_same_now(s, f, e, p->guide, flags) && !(flags & WEM_MVF_PURSUIT))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Moving through friendly Units",
                                      "[Moving through friendly Units] %s cannot move through %s, part of a Formation "
                                      "IN MOVEMENT",
                                      uid, sc->units[e].id);
            wem_rect r2 = p->r2[i];
            if (wem_g_contact(&r2, &er, tol) == WEM_OVERLAP)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Moving through friendly Units",
                                      "[Moving through friendly Units] %s cannot end its maneuver on %s", uid,
                                      sc->units[e].id);
            if (fx->n_pass < WEM_MAX_PIECES) {
                fx->pass_mover[fx->n_pass] = (int16_t)u;
                fx->pass_other[fx->n_pass] = (int16_t)e;
                fx->n_pass++;
            }
        }
        /* terrain [Area Terrain] [Linear Terrain]: met by the path, even partially */
        for (size_t a = 0; a < sc->n_areas; a++) {
            const wem_area_def *ad = &sc->areas[a];
            if (ad->kind != WEM_T_WOOD && ad->kind != WEM_T_FARM && ad->kind != WEM_T_TOWN) continue;
            wem_poly poly = wem_area_poly(sc, ad);
            if (poly.n < 3 || !s_hulls_meet_poly(h, nh, k, &poly)) continue;
            if (ad->kind == WEM_T_WOOD) p->wood = 1;
            if (ad->kind == WEM_T_FARM) p->farm = 1;
            if (ad->kind == WEM_T_TOWN) p->town = 1;
        }
        int on_road0 = 0, on_road1 = 0;
        for (size_t l = 0; l < sc->n_lines; l++) {
            wem_line ln = wem_line_shape(sc, &sc->lines[l]);
            if (ln.n < 2) continue;
            if (sc->lines[l].kind == WEM_L_ROAD) {
                wem_quad q0, q2;
                wem_g_quad(&p->r0[i], 0, &q0);
                wem_rect r2 = p->r2[i];
                wem_g_quad(&r2, 0, &q2);
                on_road0 |= wem_g_convex_meets_line(q0.v, 4, &ln);
                on_road1 |= wem_g_convex_meets_line(q2.v, 4, &ln);
                continue;
            }
            if (!s_hulls_meet_line(h, nh, k, &ln)) continue;
            lines_met[l] = 1;
            if (sc->lines[l].kind == WEM_L_TORRENT && s_is_art(s, u)) p->art_torrent[i] = 1;
        }
        road_start &= on_road0;
        road_end &= on_road1;
        /* [Elements out of field] */
        wem_rect r2 = p->r2[i];
        int out = wem_rect_offfield(s, &r2);
        /* "a tile or counter that comes out of the battlefield, even partially" on its way (a
         * pivot may swing a corner over the edge and back) */
        for (int j = 0; !out && j < k; j++)
            for (int v = 0; v < nh[j]; v++)
                if (h[j][v].x <= 0 || h[j][v].y <= 0 || h[j][v].x >= sc->width || h[j][v].y >= sc->height) out = 1;
        for (size_t a = 0; !out && a < sc->n_offfield; a++) {
            wem_poly poly = wem_area_poly(sc, &sc->offfield[a]);
            if (poly.n >= 3 && s_hulls_meet_poly(h, nh, k, &poly)) out = 1;
        }
        fx->out[i] = (uint8_t)out;
        fx->off += out;
        /* [Maneuver limit] */
        if (p->army == WEM_BLUE && !s->black_seen && sc->fold_x > 0) {
            wem_quad q0, q2;
            wem_g_quad(&p->r0[i], 0, &q0);
            wem_g_quad(&r2, 0, &q2);
            int32_t b0[4], b2[4];
            s_bbox(q0.v, 4, b0);
            s_bbox(q2.v, 4, b2);
            int32_t lim = b0[2] > sc->fold_x ? b0[2] : sc->fold_x;
            for (int j = 0; j < k; j++)   /* on the way too (a pivot's swing) */
                for (int v = 0; v < nh[j]; v++)
                    if (h[j][v].x > b2[2]) b2[2] = h[j][v].x;
            if (b2[2] > lim)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Maneuver limit",
                                      "[Maneuver limit] %s cannot maneuver to the right of the fold line until the "
                                      "first black Units are deployed",
                                      uid);
        }
    }
    for (size_t l = 0; l < sc->n_lines; l++) {
        if (!lines_met[l]) continue;
        if (sc->lines[l].kind == WEM_L_SUNKEN) p->sunken++;
        if (sc->lines[l].kind == WEM_L_TORRENT) p->torrent++;
        if (sc->lines[l].kind == WEM_L_BRIDGE) p->bridge++;
    }
    /* [Road] a front width of 1 starting in contact with a Road ignores the other terrain
     * (but the Bridge) while on it (R-wem-road) */
    p->road = p->width == 1 && sc->n_lines && road_start && road_end;
    if (p->bridge && p->width != 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Bridge",
                              "[Bridge] only Formations with a front width of 1 can maneuver across a Bridge (front "
                              "width %d)",
                              p->width);
    int32_t allow = p->base;
    const char *why = "its Advance/Charge number";
    /* R-wem-terrain-order: the caps first (the maneuver "cannot surpass" 1 or 2), then what is
     * taken off them: the Town's unit "already moved", each Sunken Road's and Torrent's 1 */
    if (!p->road) {
        if (p->farm && allow > 2 * WEM_UOM) allow = 2 * WEM_UOM, why = "[Farm Field] at most 2 units of measurement";
        if (p->wood && allow > WEM_UOM) allow = WEM_UOM, why = "[Wood] at most 1 unit of measurement";
        if (p->town) allow -= WEM_UOM, why = "[Town] counts as 1 unit of measurement already moved";
        if (p->sunken) allow -= p->sunken * WEM_UOM, why = "[Sunken Road] reduces a maneuver by 1";
        if (p->torrent) allow -= p->torrent * WEM_UOM, why = "[Torrent] reduces a maneuver by 1";
    }
    if (allow < 0) allow = 0;
    p->allow = allow;
    /* [Split Formations] "the Formations are divided at their contact point by the distance equal
     * to the width of the ruler": the part that moves ends at least split-gap from the part that
     * stays (R-wem-split-gap) */
    for (size_t u = 0; u < sc->n_units; u++) {
        if (s->units[u].status != WEM_ON || s_in(p->units, p->n, (int)u) || !s_same_now(s, f, (int)u, p->guide, flags))
            continue;
        wem_rect ur = wem_unit_rect(s, (int)u);
        wem_quad uq;
        wem_g_quad(&ur, 0, &uq);
        for (int i = 0; i < p->n; i++) {
            wem_quad q;
            wem_rect r2 = p->r2[i];
            wem_g_quad(&r2, 0, &q);
            if (wem_g_within(&q, &uq, wem_split_gap(s) - tol - 1))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Split Formations",
                                      "[Split Formations] %s would end closer to %s than the width of the ruler: "
                                      "the parts of a split Formation are divided by it",
                                      sc->units[p->units[i]].id, sc->units[u].id);
        }
    }
    if (dist > allow)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL,
                              p->kind == WEM_MV_CHARGE ? "Charge" : p->kind == WEM_MV_FALLBACK ? "Fall Back" : "Advance",
                              "[%s] %s moves %d.%02d mm, more than it may: %d.%02d mm (%s)",
                              p->kind == WEM_MV_CHARGE ? "Charge" : p->kind == WEM_MV_FALLBACK ? "Fall Back" : "Advance",
                              sc->units[p->guide].id, dist / WEM_MM, dist % WEM_MM * 5, allow / WEM_MM,
                              allow % WEM_MM * 5, why);
    return 0;
}

/* the distance along the ruler at which the plan's first unit touches unit t (-1 never within
 * S_MAXD); *who = that moving unit's index in the plan */
/* the distance along the ruler to the first contact with t, and the unit that makes it (*who).
 * [Sidebar: Area of Engagement] "If a player has more than one Unit in a Formation engaging the
 * enemy, he must then choose which Unit will Charge": when several units come in contact at that
 * same distance, the charger is the one the order names as its guide (`pref`, an index into
 * p->units, -1 none), else the first (R-wem-charger-chosen). */
static int32_t s_contact_dist(const wem_state *s, const wem_plan *p, int t, int pref, int *who) {
    wem_rect tr = wem_unit_rect(s, t);
    wem_quad tq;
    wem_g_quad(&tr, 0, &tq);
    int32_t best = -1, dist[WEM_MAX_LIST];
    for (int i = 0; i < p->n; i++) {
        wem_quad q;
        dist[i] = -1;
        wem_g_quad(&p->r1[i], 0, &q);
        int32_t d = wem_g_approach(q.v, 4, p->dir, S_MAXD, tq.v, 4);
        if (d >= S_MAXD) continue;
        wem_rect r2 = wem_g_translate(&p->r1[i], p->dir, d);
        if (wem_g_contact(&r2, &tr, wem_tol(s)) == WEM_APART) continue;
        dist[i] = d;
        if (best < 0 || d < best) best = d, *who = i;
    }
    if (best >= 0 && pref >= 0 && pref < p->n && dist[pref] == best) *who = pref;
    return best;
}

/* the unit's centre from the shape it moved with */
static void s_place(wem_state *s, int u, const wem_rect *r) {
    wem_unit *x = &s->units[u];
    x->h = r->h;
    if (s_is_art(s, u)) {
        if (!x->fastened) x->fastened = 1, x->fastened_turn = 1;  /* [Fall Back] [Withdraw] fastened */
        x->at = wem_g_offset(r->c, r->h, WEM_UOM / 4, 0);
    } else {
        x->at = r->c;
    }
}

/* the least distance along heading h that General g's counter (at gr) must move to stand clear
 * of every unit and every other unattached General (touching is clear), -1 if none within 3 UoM
 * or only off the field */
static int32_t s_clear_along(const wem_state *s, int g, const wem_rect *gr, int32_t h) {
    const wem_scenario *sc = s->sc;
    const int32_t maxd = 3 * WEM_UOM;
    int32_t tol = wem_tol(s), back = wem_g_norm((int64_t)h + 1800);
    wem_rect far = wem_g_translate(gr, h, maxd);
    wem_quad gq, fq;
    wem_g_quad(gr, 0, &gq);
    wem_g_quad(&far, 0, &fq);
    int32_t lo[WEM_MAX_PIECES + WEM_MAX_GENERALS], hi[WEM_MAX_PIECES + WEM_MAX_GENERALS];
    int n = 0;
    for (size_t i = 0; i < sc->n_units + sc->n_generals; i++) {
        wem_rect pr;
        if (i < sc->n_units) {
            if (s->units[i].status != WEM_ON) continue;
            pr = wem_unit_rect(s, (int)i);
        } else {
            int k = (int)(i - sc->n_units);
            if (k == g || s->generals[k].status != WEM_ON || s->generals[k].attached >= 0) continue;
            pr = wem_general_rect(s, k);
        }
        if (wem_mv_far(gr, &pr, maxd + tol)) continue;
        wem_quad pq;
        wem_g_quad(&pr, -tol / 2, &pq);   /* touching is no overlap */
        int meets = wem_g_convex_meet(gq.v, 4, pq.v, 4);
        int32_t in = meets ? -1 : wem_g_approach(gq.v, 4, h, maxd, pq.v, 4);
        if (!meets && in >= maxd) continue;
        int32_t rev = wem_g_approach(fq.v, 4, back, maxd, pq.v, 4);
        lo[n] = in;
        hi[n] = maxd - rev;
        n++;
    }
    int32_t t = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++)
            if (lo[i] < t && t < hi[i]) t = hi[i], changed = 1;
            else if (lo[i] < 0 && t == 0 && hi[i] > 0) t = hi[i], changed = 1;
    }
    if (t >= maxd) return -1;
    wem_rect at = wem_g_translate(gr, h, t);
    if (wem_rect_offfield(s, &at)) return -1;
    return t;
}

/* [Attaching] "If a Unit is moved in a space occupied by a General (or Commander in Chief)
 * counter of its army, the General is then attached if the Unit belongs to his Army Corps (the
 * Commander in Chief will ALWAYS attach). Otherwise, the counter must be moved the least distance
 * necessary to occupy a free space." "A Formation can have only 1 General (or the Commander in
 * Chief) attached to it": one who would be a second is moved away (R-wem-general-in-the-way). */
void wem_meet_generals(wem_state *s, int u, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    if (u < 0 || (size_t)u >= sc->n_units || s->units[u].status != WEM_ON) return;
    int32_t tol = wem_tol(s);
    wem_rect r = wem_unit_rect(s, u);
    int has = -1;   /* unknown */
    for (size_t g = 0; g < sc->n_generals; g++) {
        wem_general *x = &s->generals[g];
        const wem_general_def *d = &sc->generals[g];
        if (x->status != WEM_ON || x->attached >= 0 || d->army != sc->units[u].army) continue;
        wem_rect gr = wem_general_rect(s, (int)g);
        if (wem_mv_far(&r, &gr, tol) || wem_g_contact(&r, &gr, tol) != WEM_OVERLAP) continue;
        if (has < 0) {
            wem_formations f;
            wem_formations_find(s, &f);
            int16_t fm[WEM_MAX_PIECES];
            int nf = wem_formation_of(s, &f, u, fm);
            if (nf == 0) fm[0] = (int16_t)u, nf = 1;
            has = 0;
            for (size_t k = 0; k < sc->n_generals; k++)
                if (s->generals[k].status == WEM_ON && s->generals[k].attached >= 0 &&
                    s_in(fm, nf, s->generals[k].attached))
                    has = 1;
        }
        if (!has && (d->cinc || (!d->ney && d->corps == sc->units[u].corps))) {
            x->attached = (int16_t)u;
            x->at = s->units[u].at;
            has = 1;
            wem_event(s, ev, BRT_SEATS_ALL, "attach", d->army, WEM_GEN_BASE + (int)g, u, 0, NULL, 0, &x->at, 0,
                      "[Attaching] %s is attached to %s, which moved onto him", d->id, sc->units[u].id);
            continue;
        }
        /* the least distance: every whole degree and the unit's four side normals are tried, the
         * shortest clear move wins (the first tried on a tie) */
        int32_t best = -1, bh = 0;
        for (int k = 0; k < WEM_TURN / 10 + 4; k++) {
            int32_t h = k < 4 ? wem_g_norm((int64_t)r.h + k * 900) : (k - 4) * 10;
            int32_t t = s_clear_along(s, (int)g, &gr, h);
            if (t >= 0 && (best < 0 || t < best)) best = t, bh = h;
        }
        if (best < 0) {
            /* no free space within 3 UoM on the field: just behind the unit (R-wem-general-in-the-way) */
            x->at = wem_g_offset(r.c, r.h, -(r.hd + WEM_UOM / 4 + 2 * tol), 0);
        } else {
            x->at = wem_g_translate(&gr, bh, best).c;
        }
        wem_event(s, ev, BRT_SEATS_ALL, "general-moved", d->army, WEM_GEN_BASE + (int)g, u, best, NULL, 0, &x->at, 0,
                  "[Attaching] %s makes way for %s: moved the least distance to a free space", d->id,
                  sc->units[u].id);
    }
}

static void s_execute(wem_state *s, const wem_plan *p, const wem_formations *f, const s_fx *fx, unsigned flags,
                      brt_events *ev) {
    const wem_scenario *sc = s->sc;
    /* the attached Generals ride with their units [Attaching] */
    for (size_t g = 0; g < sc->n_generals; g++) {
        wem_general *x = &s->generals[g];
        if (x->status != WEM_ON || x->attached < 0 || !s_in(p->units, p->n, x->attached)) continue;
        wem_rect r = wem_general_rect(s, (int)g);
        if (p->turn) r = wem_g_rotate(&r, p->pivot, p->turn);
        r = wem_g_translate(&r, p->dir, p->dist);
        x->at = r.c;
    }
    for (int i = 0; i < p->n; i++) {
        int u = p->units[i];
        s_place(s, u, &p->r2[i]);
        s->units[u].maneuvered = 1;
        wem_event(s, ev, BRT_SEATS_ALL, "maneuver", p->army, u, p->target, p->kind, NULL, 0, &s->units[u].at,
                  s->units[u].h, "[%s] %s moves %d.%02d mm (turn %d.%d degrees)",
                  p->kind == WEM_MV_CHARGE ? "Charge" : p->kind == WEM_MV_FALLBACK ? "Fall Back" : "Advance",
                  sc->units[u].id, p->dist / WEM_MM, p->dist % WEM_MM * 5, p->turn / 10, abs(p->turn % 10));
    }
    for (int i = 0; i < p->n; i++) wem_meet_generals(s, p->units[i], ev);
    /* [Split Formations] split by a maneuver: the part that moved keeps the green marker, the
     * other part remains stationary without it */
    for (size_t u = 0; u < sc->n_units; u++) {
        if (s->units[u].status != WEM_ON || s_in(p->units, p->n, (int)u) || !s_same_fmn(f, (int)u, p->guide)) continue;
        /* a Formation that made its maneuver before is another one this turn (R-wem-united-next-turn) */
        if (!(flags & (WEM_MVF_NO_GREEN | WEM_MVF_PURSUIT | WEM_MVF_ANY_MARKERS)) && s->units[u].maneuvered) continue;
        if (!s->units[u].green) continue;
        s->units[u].green = 0;
        wem_event(s, ev, BRT_SEATS_ALL, "split", p->army, (int)u, p->guide, 0, NULL, 0, NULL, 0,
                  "[Split Formations] %s stays behind without the green marker", sc->units[u].id);
    }
    /* [Moving through friendly Units] Shaken both ways */
    for (int k = 0; k < fx->n_pass; k++) {
        int a = fx->pass_mover[k], b = fx->pass_other[k];
        int ya = s->units[a].yellow, yb = s->units[b].yellow;
        if (ya && !yb) wem_shake(s, b, a, ev);
        if (yb && !ya) wem_shake(s, a, b, ev);
    }
    /* [Torrent] Artillery crossing it become Shaken */
    for (int i = 0; i < p->n; i++)
        if (p->art_torrent[i] && !p->road && s->units[p->units[i]].status == WEM_ON) wem_shake(s, p->units[i], -1, ev);
    /* [Elements out of field] */
    for (int i = 0; i < p->n; i++)
        if (fx->out[i]) wem_unit_remove(s, p->units[i], WEM_OUTFIELD, -1, ev);
}

/* [Charge] the effects on both sides once the charger is in contact */
static void s_charge_effects(wem_state *s, const wem_plan *p, int who, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    int t = p->target;
    for (int i = 0; i < p->n; i++) {
        wem_unit *x = &s->units[p->units[i]];
        x->charged = 1;
        x->charge_dist = p->dist;
        /* [Torrent] "-1 to Units that cross the Torrent whilst executing a Charge" is a modifier to
         * combat, not a limitation of the maneuver: a Road does not lift it (R-wem-road) */
        if (p->torrent) x->charge_torrent = 1;
        if (p->bridge) x->charge_bridge = 1;
    }
    if (s->units[t].status != WEM_ON) return;
    /* a Charge on the flank (or the rear): the defender temporarily Shaken (R-wem-charge-flank) */
    wem_rect tr = wem_unit_rect(s, t), cr = p->r2[who];
    int corner = 0;
    int sides = wem_g_touch_sides(&tr, &cr, wem_tol(s), &corner);
    /* not a Garrison: "The Garrison's combat ability and engagement area is expressed through ALL
     * sides of the counter" [The Garrisons] */
    if (sides && !(sides & WEM_SIDE_FRONT) && !s->units[t].yellow && sc->units[t].kind != WEM_GARRISON)
        s->units[t].charge_flank = 1;
    /* "When a Unit is Charged, remove the green marker from its Formation. All Command points
     * stored on the command table of its General are lost as well." */
    wem_formations f;
    wem_formations_find(s, &f);
    int16_t fm[WEM_MAX_PIECES];
    int nf = wem_formation_of(s, &f, t, fm);
    for (int i = 0; i < nf; i++) s->units[fm[i]].green = 0;
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general_def *d = &sc->generals[g];
        if (d->army == sc->units[t].army && d->corps == sc->units[t].corps && !d->cinc && !d->ney &&
            s->generals[g].status == WEM_ON)
            s->generals[g].markers = 0;
    }
    wem_event(s, ev, BRT_SEATS_ALL, "charge", p->army, p->units[who], t, p->dist, NULL, 0, NULL, 0,
              "[Charge] %s charges %s%s: its Formation loses the green marker and its General's stored Command "
              "points",
              sc->units[p->units[who]].id, sc->units[t].id, s->units[t].charge_flank ? " on the flank" : "");
}

/* the maneuver, with the Formations already found (fpre) or not (NULL) */
static int s_exec(wem_state *s, const wem_order *o, int32_t allowance, unsigned flags, const wem_formations *fpre,
                  brt_events *ev, brt_reject *err) {
    const wem_scenario *sc = s->sc;
    wem_formations f;
    if (fpre) f = *fpre;
    else wem_formations_find(s, &f);
    wem_plan p;
    s_fx fx;
    if (s_plan(s, o, allowance, flags, &f, &p, err)) return -1;
    int who = 0;
    int32_t dist = o->dist;
    if (p.kind == WEM_MV_FALLBACK) {
        if (dist != 0 && dist != WEM_UOM)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Fall Back",
                                  "[Fall Back] Fall Back 1 moves the Formation back by 1 unit of measurement");
        dist = WEM_UOM;
    } else if (p.kind == WEM_MV_ADVANCE) {
        if (dist < 0 || (dist == 0 && p.turn == 0))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Advance", "[Advance] a distance of 0 and no turn is no maneuver");
    } else {
        int t = o->target;
        if (t < 0 || (size_t)t >= sc->n_units || s->units[t].status != WEM_ON ||
            !wem_mv_enemies(p.army, sc->units[t].army))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge", "[Charge] a Charge is made against an enemy Unit");
        /* "Units CANNOT Charge enemy Units of a Formation which already has Units in contact with
         * enemy Units" */
        int16_t tf[WEM_MAX_PIECES];
        int nt = wem_formation_of(s, &f, t, tf);
        if (nt == 0) tf[0] = (int16_t)t, nt = 1;
        for (int i = 0; i < nt && !(flags & (WEM_MVF_NO_GREEN | WEM_MVF_PURSUIT)); i++)
            if (wem_in_enemy_contact(s, tf[i]))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                                      "[Charge] %s cannot be charged: %s of its Formation is already in contact with "
                                      "enemy Units",
                                      sc->units[t].id, sc->units[tf[i]].id);
        int pref = -1;
        for (int i = 0; i < p.n; i++)
            if (p.units[i] == o->unit) pref = i;
        dist = s_contact_dist(s, &p, t, pref, &who);
        if (dist < 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge",
                                  "[Charge] %s does not come in contact with %s along that ruler (turn %d.%d degrees)",
                                  sc->units[o->unit].id, sc->units[t].id, p.turn / 10, abs(p.turn % 10));
    }
    if (dist > p.base)   /* terrain only lowers the allowance: refuse before measuring the path */
        return brt_reject_set(err, BRT_REJECT_ILLEGAL,
                              p.kind == WEM_MV_CHARGE ? "Charge" : p.kind == WEM_MV_FALLBACK ? "Fall Back" : "Advance",
                              "[%s] %s moves %d.%02d mm, more than it may: %d.%02d mm (its Advance/Charge number)",
                              p.kind == WEM_MV_CHARGE ? "Charge" : p.kind == WEM_MV_FALLBACK ? "Fall Back" : "Advance",
                              sc->units[o->unit].id, dist / WEM_MM, dist % WEM_MM * 5, p.base / WEM_MM,
                              p.base % WEM_MM * 5);
    if (s_check(s, &p, &f, flags, dist, &fx, err)) return -1;
    if ((flags & S_ON_FIELD) && fx.off)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Elements out of field",
                              "[Elements out of field] the maneuver would take a unit out of field");
    if (flags & WEM_MVF_DRY) return 0;
    /* [Charge against Artillery]: the gun's owner answers first */
    if (p.kind == WEM_MV_CHARGE && s_is_art(s, p.target) && !(flags & (S_REPLIED | WEM_MVF_NO_GREEN | WEM_MVF_PURSUIT))) {
        s->mv_wait = 1;
        s->mv_wait_flags = (uint8_t)flags;
        s->mv_guide = (int16_t)o->unit;
        s->mv_target = (int16_t)p.target;
        s->mv_n = (int16_t)p.n;
        memcpy(s->mv_units, p.units, sizeof s->mv_units);
        s->mv_turn = p.turn;
        s->mv_allow = allowance;
        wem_event(s, ev, BRT_SEATS_ALL, "charge-declared", p.army, o->unit, p.target, dist, NULL, 0, NULL, 0,
                  "[Charge against Artillery] %s charges the gun %s: its owner answers", sc->units[o->unit].id,
                  sc->units[p.target].id);
        wem_interrupt(s, WEM_PH_CHARGE_REPLY);
        return 0;
    }
    s_execute(s, &p, &f, &fx, flags, ev);
    if (p.kind == WEM_MV_CHARGE) s_charge_effects(s, &p, who, ev);
    return 0;
}

int32_t wem_charge_reach(const wem_state *s, const wem_order *o) {
    wem_formations f;
    wem_formations_find(s, &f);
    wem_plan p;
    if (o->target < 0 || (size_t)o->target >= s->sc->n_units) return -1;
    if (s_plan(s, o, -1, WEM_MVF_ANY_MARKERS, &f, &p, NULL)) return -1;
    int who = 0;
    return s_contact_dist(s, &p, o->target, -1, &who);
}

int wem_maneuver_exec(wem_state *s, const wem_order *o, int32_t allowance, unsigned flags, brt_dice *dice,
                      brt_events *ev, brt_reject *err) {
    (void)dice;
    return s_exec(s, o, allowance, flags, NULL, ev, err);
}

/* ---- [3.3 Maneuver] the phase ---- */

static int s_army_has_moves(const wem_state *s, int army) {
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s_can_move(s, (int)u, army)) return 1;
    return 0;
}

/* [Move out of sequence] (R-wem-out-of-sequence, digest ambiguity 13): before the first army
 * in initiative order maneuvers, each later army with Formations that paid to move out of
 * sequence maneuvers them, in initiative order; then the subphase runs as usual */
static int s_next_oos(wem_state *s) {
    if (s->cur != 0) return 0;
    for (int k = 1; k < s->n_order; k++) {
        int a = s->order[k];
        if (s->mv_oos_done & (1u << a)) continue;
        s->mv_army = (uint8_t)(a + 1);
        if (s_army_has_moves(s, a)) return 1;
        s->mv_oos_done |= (uint8_t)(1u << a);
    }
    s->mv_army = 0;
    return 0;
}

int wem_maneuver_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice, (void)ev;
    if (s_next_oos(s)) {
        s->phase = WEM_PH_MANEUVER;
        return 1;
    }
    if (!s_army_has_moves(s, wem_cur_army(s))) return 0;
    s->phase = WEM_PH_MANEUVER;
    return 1;
}

/* the acting army is done: the next out-of-sequence army, or the usual one, or the next step */
static void s_done(wem_state *s, brt_dice *dice, brt_events *ev) {
    if (s->mv_army) {
        s->mv_oos_done |= (uint8_t)(1u << (s->mv_army - 1));
        if (s_next_oos(s)) return;
        if (s_army_has_moves(s, wem_cur_army(s))) {
            s->phase = WEM_PH_MANEUVER;
            return;
        }
    }
    wem_step_done(s, dice, ev);
}

int wem_maneuver_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                       brt_reject *err) {
    (void)seat;
    int army = s_army(s);
    if (o->kind == WEM_O_DONE) {
        s_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WEM_O_MANEUVER)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver", "[3.3 Maneuver] a maneuver or done");
    if (o->unit < 0 || (size_t)o->unit >= s->sc->n_units || s->sc->units[o->unit].army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver",
                              "[3.3 Maneuver] the guide must be a unit of the army maneuvering now");
    if (wem_maneuver_exec(s, o, -1, 0, dice, ev, err)) return -1;
    if (s->phase == WEM_PH_MANEUVER && !s_army_has_moves(s, army)) s_done(s, dice, ev);
    return 0;
}

void wem_maneuver_pending(const wem_state *s, brt_pending *out) {
    int army = s_army(s);
    out->seats = wem_army_mask(s, army);
    snprintf(out->kind, sizeof out->kind, "maneuver");
    snprintf(out->rule, sizeof out->rule, "3.3 Maneuver");
    static const char *const names[] = {"blue", "red", "black"};
    snprintf(out->prompt, sizeof out->prompt,
             "%s: one maneuver per Formation IN MOVEMENT (advance, fall back 1, charge)%s, or done", names[army],
             s->mv_army ? " out of sequence" : "");
}

static int s_try(const wem_state *s, const wem_order *o, const wem_formations *f, brt_buf *out) {
    brt_reject err;
    /* a dry run changes nothing */
    if (s_exec((wem_state *)s, o, -1, WEM_MVF_DRY | S_ON_FIELD, f, NULL, &err)) return 0;
    return wem_legal_put(s, o, out) == 0 ? 1 : -1;
}

/* the turns legal() tries for a Charge of the guide at t: none, the turn that points the guide
 * at t's centre (to 0.1 degree), and that turn to the nearest 5 degrees and 5, 10, 15 degrees either
 * side of it; each within a quarter turn */
static int s_charge_turns(const wem_state *s, int guide, int t, int32_t out[9]) {
    int64_t vx = (int64_t)s->units[t].at.x - s->units[guide].at.x, vy = (int64_t)s->units[t].at.y - s->units[guide].at.y;
    int32_t best = 0;
    int64_t bestv = INT64_MIN;
    for (int32_t h = 0; h < WEM_TURN; h += 10) {
        int64_t v = vx * wem_g_sin(h) - vy * wem_g_cos(h);
        if (v > bestv) bestv = v, best = h;
    }
    for (int32_t h = best - 10; h <= best + 10; h++) {
        int64_t v = vx * wem_g_sin(h) - vy * wem_g_cos(h);
        if (v > bestv) bestv = v, best = wem_g_norm(h);
    }
    int32_t tp = wem_g_norm((int64_t)best - s->units[guide].h);
    if (tp > WEM_TURN / 2) tp -= WEM_TURN;
    int32_t r5 = (int32_t)wem_g_div_round(tp, 50) * 50;
    int32_t c[9] = {0, tp, r5, r5 - 50, r5 + 50, r5 - 100, r5 + 100, r5 - 150, r5 + 150};
    int n = 0;
    for (int i = 0; i < 9; i++) {
        if (c[i] < -900 || c[i] > 900) continue;
        int dup = 0;
        for (int j = 0; j < n; j++) dup |= out[j] == c[i];
        if (!dup) out[n++] = c[i];
    }
    return n;
}

/* legal(): per Formation that may maneuver (its lowest infantry or cavalry unit the guide):
 * Fall Back 1; Advance straight ahead by its full allowance and by half; Advance with turns of
 * -45, -15, +15, +45 degrees at full allowance; for each enemy unit within reach the Charge to
 * contact with the first of the turns s_charge_turns() gives that apply accepts; and done. Only what apply
 * accepts is listed; a maneuver that would take a unit out of field is not listed. */
int wem_maneuver_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int army = s_army(s), n = 0;
    wem_formations f;
    wem_formations_find(s, &f);
    uint8_t seen[WEM_MAX_PIECES] = {0};
    for (size_t u0 = 0; u0 < s->sc->n_units; u0++) {
        if (!s_can_move(s, (int)u0, army) || f.of[u0] < 0 || seen[f.of[u0]]) continue;
        /* the united group when all of it may move, else each corps' Formation */
        int16_t fm[WEM_MAX_PIECES];
        int nf = wem_united_of(s, &f, (int)u0, fm), ok = 1, kept = 0;
        for (int i = 0; i < nf; i++)
            if (s_joined(s, fm[i], (int)u0, 0)) fm[kept++] = fm[i];
        nf = kept;
        for (int i = 0; i < nf; i++)
            if (!s_can_move(s, fm[i], army)) ok = 0;
        if (!ok) {
            int m1 = wem_formation_of(s, &f, (int)u0, fm);
            nf = 0;
            for (int i = 0; i < m1; i++)
                if (s_joined(s, fm[i], (int)u0, 0)) fm[nf++] = fm[i];
        }
        for (int i = 0; i < nf; i++) seen[f.of[fm[i]]] = 1;
        /* the units that may move; when that is not the whole Formation (only some paid to move
         * out of sequence), they are named: the Formation is split [Split Formations] */
        int16_t part[WEM_MAX_LIST];
        int np = 0;
        ok = 1;
        for (int i = 0; i < nf; i++) {
            if (!s_can_move(s, fm[i], army)) ok = 0;
            else if (np < WEM_MAX_LIST) part[np++] = fm[i];
        }
        if (np == 0) continue;
        int guide = part[0];
        for (int i = np - 1; i >= 0; i--)
            if (!s_is_art(s, part[i])) guide = part[i];
        int32_t full = wem_set_allowance(s, part, np) * WEM_UOM;
        wem_order o;
        wem_order_init(&o, WEM_O_MANEUVER);
        if (!ok) {
            o.n_units = np;
            memcpy(o.units, part, (size_t)np * sizeof part[0]);
        }
        o.unit = guide;
        o.value = WEM_MV_FALLBACK;
        o.dist = WEM_UOM;
        int r = s_try(s, &o, &f, out);
        if (r < 0) return -1;
        n += r;
        static const int32_t turns[] = {0, 0, -450, -150, 150, 450};
        for (int k = 0; k < 6; k++) {
            o.value = WEM_MV_ADVANCE;
            o.turn = turns[k];
            o.dist = k == 1 ? full / 2 : full;
            r = s_try(s, &o, &f, out);
            if (r < 0) return -1;
            n += r;
        }
        /* Charges */
        for (size_t t = 0; t < s->sc->n_units; t++) {
            if (s->units[t].status != WEM_ON || !wem_mv_enemies(army, s->sc->units[t].army)) continue;
            wem_rect tr = wem_unit_rect(s, (int)t);
            wem_quad tq;
            wem_g_quad(&tr, 0, &tq);
            int near = 0;
            for (int i = 0; i < np && !near; i++) {
                wem_rect ur = wem_unit_rect(s, part[i]);
                wem_quad uq;
                wem_g_quad(&ur, 0, &uq);
                near = wem_g_within(&uq, &tq, full + WEM_UOM);
            }
            if (!near) continue;
            o.value = WEM_MV_CHARGE;
            o.target = (int)t;
            o.dist = 0;
            int32_t cand[9];
            int nc = s_charge_turns(s, guide, (int)t, cand);
            for (int k = 0; k < nc; k++) {
                o.turn = cand[k];
                r = s_try(s, &o, &f, out);
                if (r < 0) return -1;
                if (r) {
                    n++;
                    break;
                }
            }
            o.target = -1;
        }
    }
    wem_order d;
    wem_order_init(&d, WEM_O_DONE);
    if (wem_legal_put(s, &d, out)) return -1;
    return n + 1;
}

int wem_maneuver_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    (void)seat;
    s_done(s, dice, ev);
    return 0;
}

/* ---- [Charge against Artillery] ---- */

enum { S_STAND = 0, S_WITHDRAW = 1, S_DEFEND = 2 };

void wem_charge_reply_pending(const wem_state *s, brt_pending *out) {
    int t = s->mv_target;
    int army = t >= 0 ? s->sc->units[t].army : s_army(s);
    out->seats = wem_army_mask(s, army);
    snprintf(out->kind, sizeof out->kind, "charge-reply");
    snprintf(out->rule, sizeof out->rule, "Charge against Artillery");
    snprintf(out->prompt, sizeof out->prompt,
             "%s is charged by %s: answer 0 stand, 1 withdraw (a fastened gun), 2 defend by a unit of its Formation "
             "(an unfastened gun)",
             t >= 0 ? s->sc->units[t].id : "?", s->mv_guide >= 0 ? s->sc->units[s->mv_guide].id : "?");
}

/* the charge taken up again after the answer, against `target` */
static int s_charge_again(wem_state *s, int target, brt_dice *dice, brt_events *ev, int capture) {
    wem_order o;
    wem_order_init(&o, WEM_O_MANEUVER);
    o.value = WEM_MV_CHARGE;
    o.unit = s->mv_guide;
    o.target = target;
    o.turn = s->mv_turn;
    o.n_units = s->mv_n;
    memcpy(o.units, s->mv_units, sizeof o.units);
    unsigned flags = (unsigned)s->mv_wait_flags | S_REPLIED;
    brt_reject err;
    int army = s->sc->units[s->mv_guide].army;
    if (wem_maneuver_exec(s, &o, s->mv_allow, flags, dice, ev, &err)) {
        /* R-wem-charge-artillery-escape: the charge cannot be completed; the Formation stays,
         * its maneuver spent */
        for (int i = 0; i < s->mv_n; i++) s->units[s->mv_units[i]].maneuvered = 1;
        wem_event(s, ev, BRT_SEATS_ALL, "charge-failed", army, s->mv_guide, target, 0, NULL, 0, NULL, 0,
                  "[Charge against Artillery] %s cannot complete the Charge: %s", s->sc->units[s->mv_guide].id,
                  err.message);
        return 0;
    }
    if (capture && s->units[target].status == WEM_ON) {
        wem_unit_remove(s, target, WEM_CAPTURED, army, ev);
    }
    return 1;
}

int wem_charge_reply_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                           brt_reject *err) {
    (void)seat;
    const wem_scenario *sc = s->sc;
    int t = s->mv_target;
    if (o->kind != WEM_O_ANSWER || o->value < S_STAND || o->value > S_DEFEND)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge against Artillery",
                              "[Charge against Artillery] answer 0 stand, 1 withdraw or 2 defend");
    int fastened = s->units[t].fastened;
    int def = -1;
    if (o->value == S_WITHDRAW && !fastened)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge against Artillery",
                              "[Charge against Artillery] only a fastened Artillery Unit may Withdraw");
    if (o->value == S_DEFEND) {
        if (fastened)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge against Artillery",
                                  "[Charge against Artillery] only an unfastened Artillery Unit is defended by "
                                  "switching places");
        wem_formations f;
        wem_formations_find(s, &f);
        def = o->n_units > 0 ? o->units[0] : o->unit;
        if (def < 0 || (size_t)def >= sc->n_units || s->units[def].status != WEM_ON ||
            (sc->units[def].kind != WEM_INF && sc->units[def].kind != WEM_CAV) || !s_same_fmn(&f, def, t))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Charge against Artillery",
                                  "[Charge against Artillery] %s is defended by an Infantry or Cavalry Unit in the "
                                  "same Formation",
                                  sc->units[t].id);
    }
    s->mv_wait = 0;
    wem_resume(s);
    int army = sc->units[s->mv_guide].army;
    if (o->value == S_WITHDRAW) {
        /* a gun on foot may Withdraw 1, horse artillery 2; still reached: captured */
        int32_t d = sc->units[t].kind == WEM_ART_HORSE ? 2 * WEM_UOM : WEM_UOM;
        wem_withdraw(s, t, d, s->mv_guide, ev);
        if (s->units[t].status == WEM_ON) s_charge_again(s, t, dice, ev, 1);
        else s_charge_again(s, t, dice, ev, 0);
    } else if (o->value == S_DEFEND) {
        /* the pieces switch places, fronts and orientations unaltered (R-wem-defend-gun: each
         * front edge's centre goes where the other's was) */
        wem_unit *g = &s->units[t], *d = &s->units[def];
        wem_pt gf = wem_g_offset(g->at, g->h, WEM_UOM / 4, 0);
        wem_pt df = wem_g_offset(d->at, d->h, WEM_UOM / 2, 0);
        wem_pt g0 = g->at, d0 = d->at;
        d->at = wem_g_offset(gf, d->h, -WEM_UOM / 2, 0);
        g->at = wem_g_offset(df, g->h, -WEM_UOM / 4, 0);
        /* an attached General goes with his unit [Attaching] */
        for (size_t k = 0; k < sc->n_generals; k++) {
            wem_general *x = &s->generals[k];
            if (x->status != WEM_ON || (x->attached != t && x->attached != def)) continue;
            wem_pt from = x->attached == t ? g0 : d0, to = x->attached == t ? g->at : d->at;
            x->at.x += to.x - from.x;
            x->at.y += to.y - from.y;
        }
        wem_event(s, ev, BRT_SEATS_ALL, "defend-gun", sc->units[t].army, def, t, 0, NULL, 0, &d->at, d->h,
                  "[Charge against Artillery] %s switches places with %s to defend it", sc->units[def].id,
                  sc->units[t].id);
        s_charge_again(s, def, dice, ev, 0);
    } else {
        /* fastened and standing, or unfastened and not defended: captured once reached */
        s_charge_again(s, t, dice, ev, 1);
    }
    if (s->phase == WEM_PH_MANEUVER && !s_army_has_moves(s, army)) s_done(s, dice, ev);
    return 0;
}

int wem_charge_reply_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int t = s->mv_target, n = 0;
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    o.value = S_STAND;
    if (wem_legal_put(s, &o, out)) return -1;
    n++;
    if (s->units[t].fastened) {
        o.value = S_WITHDRAW;
        if (wem_legal_put(s, &o, out)) return -1;
        return n + 1;
    }
    wem_formations f;
    wem_formations_find(s, &f);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        int k = s->sc->units[u].kind;
        if (s->units[u].status != WEM_ON || (k != WEM_INF && k != WEM_CAV) || !s_same_fmn(&f, (int)u, t)) continue;
        o.value = S_DEFEND;
        o.n_units = 1;
        o.units[0] = (int16_t)u;
        if (wem_legal_put(s, &o, out)) return -1;
        n++;
    }
    return n;
}

int wem_charge_reply_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    o.value = S_STAND;
    brt_reject err;
    return wem_charge_reply_apply(s, seat, &o, dice, ev, &err);
}

/* ---- [Unfastening Artillery Units from Horse Teams] end of 3.3 ---- */

static int s_can_unfasten(const wem_state *s, int u, int army, const char **why) {
    const wem_unit_def *d = &s->sc->units[u];
    const wem_unit *x = &s->units[u];
    *why = "";
    if (x->status != WEM_ON || d->army != army || !s_is_art(s, u)) return *why = "not an Artillery Unit of the army", 0;
    if (!x->fastened) return *why = "not fastened to its Horse Team", 0;
    /* "Artillery Units on Foot can unfasten the Horse Team only if they did NOT fasten the
     * Horse Team or if they did NOT execute any maneuver during the turn" */
    if (d->kind == WEM_ART_FOOT && x->fastened_turn && x->maneuvered)
        return *why = "Artillery on Foot that fastened and maneuvered this turn", 0;
    /* "Artillery Horse Units of the black (Prussian) army CANNOT unfasten the Horse Team during
     * a turn in which they fastened the Horse Team" */
    if (d->kind == WEM_ART_HORSE && d->army == WEM_BLACK && x->fastened_turn)
        return *why = "black Horse Artillery that fastened this turn", 0;
    return 1;
}

static int s_any_unfasten(const wem_state *s, int army) {
    const char *why;
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s_can_unfasten(s, (int)u, army, &why)) return 1;
    return 0;
}

int wem_unfasten_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice, (void)ev;
    s->mv_army = 0;
    if (!s_any_unfasten(s, wem_cur_army(s))) return 0;
    s->phase = WEM_PH_UNFASTEN;
    return 1;
}

int wem_unfasten_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                       brt_reject *err) {
    (void)seat;
    int army = wem_cur_army(s);
    if (o->kind == WEM_O_DONE) {
        wem_step_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WEM_O_UNFASTEN || o->n_units < 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unfastening Artillery Units",
                              "[Unfastening Artillery Units] name the guns that unfasten, or done");
    for (int i = 0; i < o->n_units; i++) {
        const char *why;
        if (!s_can_unfasten(s, o->units[i], army, &why))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unfastening Artillery Units",
                                  "[Unfastening Artillery Units] %s cannot unfasten: %s", wem_piece_id(s, o->units[i]),
                                  why);
    }
    for (int i = 0; i < o->n_units; i++) {
        wem_unit *x = &s->units[o->units[i]];
        x->fastened = 0;
        x->unfastened_turn = 1;
        wem_event(s, ev, BRT_SEATS_ALL, "unfasten", army, o->units[i], -1, 0, NULL, 0, &x->at, x->h,
                  "[Unfastening Artillery Units] %s unfastens its Horse Team", s->sc->units[o->units[i]].id);
    }
    wem_step_done(s, dice, ev);
    return 0;
}

void wem_unfasten_pending(const wem_state *s, brt_pending *out) {
    out->seats = wem_army_mask(s, wem_cur_army(s));
    snprintf(out->kind, sizeof out->kind, "unfasten");
    snprintf(out->rule, sizeof out->rule, "Unfastening Artillery Units");
    snprintf(out->prompt, sizeof out->prompt, "the Artillery Units that unfasten their Horse Team, or done");
}

/* legal(): each gun that may unfasten alone, all of them together, and done */
int wem_unfasten_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int army = wem_cur_army(s), n = 0;
    wem_order all;
    wem_order_init(&all, WEM_O_UNFASTEN);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        const char *why;
        if (!s_can_unfasten(s, (int)u, army, &why)) continue;
        wem_order o;
        wem_order_init(&o, WEM_O_UNFASTEN);
        o.n_units = 1;
        o.units[0] = (int16_t)u;
        if (wem_legal_put(s, &o, out)) return -1;
        n++;
        if (all.n_units < WEM_MAX_LIST) all.units[all.n_units++] = (int16_t)u;
    }
    if (all.n_units > 1) {
        if (wem_legal_put(s, &all, out)) return -1;
        n++;
    }
    wem_order d;
    wem_order_init(&d, WEM_O_DONE);
    if (wem_legal_put(s, &d, out)) return -1;
    return n + 1;
}

int wem_unfasten_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    (void)seat;
    wem_step_done(s, dice, ev);
    return 0;
}

/* ---- [3.5 End of Turn] "All enemy Units still in contact must be split" ---- */

void wem_maneuver_turn_reset(wem_state *s) {
    for (size_t u = 0; u < s->sc->n_units; u++) {
        wem_unit *x = &s->units[u];
        x->charged = x->charge_flank = x->charge_bridge = x->charge_torrent = 0;
        x->charge_dist = 0;
    }
    s->mv_army = 0;
    s->mv_oos_done = 0;
}

/* step unit u away from enemy e, sideways from the side e touches, by the split gap; 0 done */
static int s_step_away(wem_state *s, int u, int e) {
    const wem_scenario *sc = s->sc;
    if (sc->units[u].kind == WEM_GARRISON) return -1;
    wem_rect r = wem_unit_rect(s, u), er = wem_unit_rect(s, e);
    int32_t tol = wem_tol(s);
    int corner = 0;
    int side = wem_g_touch_sides(&r, &er, tol, &corner);
    int32_t dir = side & WEM_SIDE_FRONT ? r.h + 1800 : side & WEM_SIDE_LEFT ? r.h + 900
                : side & WEM_SIDE_RIGHT ? r.h + 2700 : r.h;
    wem_rect n = wem_g_translate(&r, wem_g_norm(dir), wem_split_gap(s) + tol);
    if (wem_rect_offfield(s, &n)) return -1;
    for (size_t i = 0; i < sc->n_units; i++) {
        if ((int)i == u || s->units[i].status != WEM_ON) continue;
        wem_rect o = wem_unit_rect(s, (int)i);
        if (wem_g_contact(&n, &o, tol) == WEM_OVERLAP) return -1;
        if (wem_mv_enemies(sc->units[u].army, sc->units[i].army) && wem_g_contact(&n, &o, tol) != WEM_APART)
            return -1;
    }
    wem_pt d = {n.c.x - r.c.x, n.c.y - r.c.y};
    s->units[u].at.x += d.x;
    s->units[u].at.y += d.y;
    /* the attached General goes with his unit [Attaching] */
    for (size_t g = 0; g < sc->n_generals; g++)
        if (s->generals[g].status == WEM_ON && s->generals[g].attached == u) {
            s->generals[g].at.x += d.x;
            s->generals[g].at.y += d.y;
        }
    return 0;
}

/* R-wem-split-contacts: for each pair of enemy units in contact, the unit of the army later in
 * this turn's initiative order steps away by the split gap (back from a front contact, sideways
 * from a flank contact, forward from a rear contact); if it cannot, the other does; if neither
 * can, they stay in contact */
void wem_split_contacts(wem_state *s, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    int32_t tol = wem_tol(s);
    int rank[WEM_ARMIES] = {0, 1, 2};
    for (int k = 0; k < s->n_order && k < WEM_ARMIES; k++) rank[s->order[k]] = k;
    for (size_t a = 0; a < sc->n_units; a++) {
        for (size_t b = 0; b < sc->n_units; b++) {
            if (s->units[a].status != WEM_ON || s->units[b].status != WEM_ON) continue;
            if (!wem_mv_enemies(sc->units[a].army, sc->units[b].army) || a > b) continue;
            wem_rect ra = wem_unit_rect(s, (int)a), rb = wem_unit_rect(s, (int)b);
            if (wem_g_contact(&ra, &rb, tol) == WEM_APART) continue;
            int later = rank[sc->units[a].army] > rank[sc->units[b].army] ? (int)a : (int)b;
            int other = later == (int)a ? (int)b : (int)a;
            int moved = later;
            if (s_step_away(s, later, other)) {
                moved = other;
                if (s_step_away(s, other, later)) moved = -1;
            }
            if (moved >= 0) wem_meet_generals(s, moved, ev);
            if (moved >= 0)
                wem_event(s, ev, BRT_SEATS_ALL, "split", sc->units[moved].army, moved, moved == later ? other : later, 0,
                          NULL, 0, &s->units[moved].at, s->units[moved].h,
                          "[3.5 End of Turn] %s steps away from %s: enemy Units still in contact are split",
                          sc->units[moved].id, sc->units[moved == later ? other : later].id);
        }
    }
    wem_maneuver_turn_reset(s);
}
