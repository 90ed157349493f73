/*
 * generals.c - Generals in bombardment and combat: [Attaching] the attached General's 2d6 roll,
 * [Unattached Generals] / [Capture of a General] the 1d6 capture roll and the escape move of up
 * to 2 units of measurement, and the terrain and garrison helpers bombard.c and combat.c share.
 */
#include <stdio.h>
#include <string.h>

#include "combat.h"

const char *wem_ask_kind(int ask) {
    switch (ask) {
    case WEM_ASK_STARTER: return "starter";
    case WEM_ASK_CORNER: return "corner-sides";
    case WEM_ASK_REROLL: return "reroll";
    case WEM_ASK_COUNTER: return "counterattack";
    case WEM_ASK_REINFORCE: return "reinforce";
    case WEM_ASK_PURSUIT: return "pursuit";
    case WEM_ASK_PURSUIT_MOD: return "pursuit-modifier";
    case WEM_ASK_PURSUIT_CHARGE: return "pursuit-charge";
    case WEM_ASK_RESULT_DIE: return "result-die";
    case WEM_ASK_RESULT_MOD: return "result-modifier";
    case WEM_ASK_FB_LOSS: return "fall-back-loss";
    default: return "melee-choice";
    }
}

int wem_gen_attached_to(const wem_state *s, int u) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->generals[g].status == WEM_ON && s->generals[g].attached == u) return (int)g;
    return -1;
}

int wem_gen_of_formation(const wem_state *s, const wem_formations *f, int u) {
    if (u < 0 || f->of[u] < 0) return -1;
    for (size_t g = 0; g < s->sc->n_generals; g++) {
        int a = s->generals[g].attached;
        if (s->generals[g].status == WEM_ON && a >= 0 && (size_t)a < s->sc->n_units && f->of[a] == f->of[u])
            return (int)g;
    }
    return -1;
}

int wem_gen_rank(const wem_state *s, int g) {
    const wem_general_def *d = &s->sc->generals[g];
    if (d->cinc) return 4; /* [Commanders in Chief] "the same rules as the General ★★★★" */
    if (s->generals[g].substitute) return wem_param_get(s->sc, "substitute-rank", 1);
    return d->rank;
}

/* [Attaching] "roll 2 dice ... If the modified result is [die-face] or less, the attached General
 * is then eliminated" */
int wem_gen_attached_check(wem_state *s, int g, int u, int by, brt_dice *dice, brt_events *ev) {
    if (g < 0 || s->generals[g].status != WEM_ON) return 0;
    const wem_general_def *d = &s->sc->generals[g];
    int rank = wem_gen_rank(s, g), a, b;
    int roll = wem_2d6(dice, "[Attaching] the attached General's roll", &a, &b);
    int mod = 0;
    if (d->cinc || rank >= 3) mod -= 2;      /* -2 ★★★ or higher, or the Commander in Chief */
    else if (rank == 2) mod -= 1;            /* -1 ★★ */
    if (u >= 0 && (size_t)u < s->sc->n_units) {
        const wem_unit *x = &s->units[u];
        if (x->yellow >= 2) mod -= 2;        /* -2 the Unit is Routed */
        else if (x->yellow == 1) mod -= 1;   /* -1 the Unit is Shaken */
        if (x->meleed) mod -= 1;             /* -1 already in melee this turn */
    }
    int lim = wem_param_get(s->sc, "die-general-attached", 2);
    int dd[2] = {a, b};
    int dead = roll + mod <= lim;
    wem_event(s, ev, BRT_SEATS_ALL, "general-check", d->army, WEM_GEN_BASE + g, u, roll + mod, dd, 2, NULL, 0,
              "[Attaching] %s rolls %d%+d = %d: %s (eliminated at %d or less)", d->id, roll, mod, roll + mod,
              dead ? "eliminated" : "unharmed", lim);
    if (dead) wem_general_remove(s, g, WEM_ELIMINATED, by, ev);
    return dead;
}

/* [Unattached Generals] [Capture of a General] 1 die; -1 vs Medium or Heavy Cavalry, -2 vs Light */
int wem_gen_capture_roll(wem_state *s, int g, int e, brt_dice *dice, brt_events *ev) {
    const wem_general_def *d = &s->sc->generals[g];
    int roll = wem_d6(dice, "[Capture of a General] the unattached General's roll");
    int mod = 0;
    if (e >= 0 && s->sc->units[e].kind == WEM_CAV) {
        int cav = s->sc->units[e].cav;
        mod = cav == WEM_CAV_LIGHT ? -2 : cav == WEM_CAV_MEDIUM || cav == WEM_CAV_HEAVY ? -1 : 0;
    }
    int lim = wem_param_get(s->sc, "die-general-unattached", wem_param_get(s->sc, "die-general-melee", 1));
    int taken = roll + mod <= lim;
    wem_event(s, ev, BRT_SEATS_ALL, "general-capture-roll", d->army, WEM_GEN_BASE + g, e, roll + mod, &roll, 1,
              NULL, 0, "[Capture of a General] %s rolls %d%+d = %d: %s (captured at %d or less)", d->id, roll, mod,
              roll + mod, taken ? "captured" : "he may move up to 2 units of measurement", lim);
    if (taken) wem_general_remove(s, g, WEM_CAPTURED, e >= 0 ? s->sc->units[e].army : -1, ev);
    return taken;
}

/* [Unattached Generals] "the counter can be moved up to 2 units of measurement": measured
 * centre to centre (R-wem-general-escape), on the board, not onto a unit */
int wem_gen_escape_check(const wem_state *s, int g, wem_pt to, brt_reject *err) {
    const wem_general *x = &s->generals[g];
    int64_t dx = (int64_t)to.x - x->at.x, dy = (int64_t)to.y - x->at.y;
    int64_t lim = 2 * WEM_UOM;
    if (dx * dx + dy * dy > lim * lim)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unattached Generals",
                              "[Unattached Generals] %s can be moved up to 2 units of measurement", s->sc->generals[g].id);
    int32_t r = WEM_UOM / 4;
    wem_rect gr = {to, r, r, 0};
    /* on the battlefield: inside the board, touching no element out of field */
    if (!wem_rect_on_field(s, &gr))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unattached Generals",
                              "[Unattached Generals] %s would leave the battlefield", s->sc->generals[g].id);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (s->units[u].status != WEM_ON) continue;
        wem_rect ur = wem_unit_rect(s, (int)u);
        if (wem_g_contact(&gr, &ur, wem_tol(s)) == WEM_OVERLAP)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unattached Generals",
                                  "[Unattached Generals] %s cannot stand on %s", s->sc->generals[g].id,
                                  s->sc->units[u].id);
    }
    return 0;
}

/* ---- terrain [Area Terrain] ---- */

int wem_inside_kind(const wem_state *s, int u, int kind) {
    wem_rect r = wem_unit_rect(s, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    for (size_t i = 0; i < s->sc->n_areas; i++) {
        if (s->sc->areas[i].kind != kind) continue;
        wem_poly p = wem_area_poly(s->sc, &s->sc->areas[i]);
        if (wem_g_quad_inside_poly(&q, &p)) return 1;
    }
    return 0;
}

/* "The combat modifiers of the area terrain are applied to Units that are entirely placed
 * inside": Hills +1 any unit; Wood +1, Farm Field +2, Town +2 to Infantry (the best one when a
 * unit is inside several) */
int wem_terrain_defence(const wem_state *s, int u, int *kind) {
    int k = s->sc->units[u].kind;
    int inf = k == WEM_INF || k == WEM_GARRISON;
    int best = 0, bk = 0;
    if (wem_inside_kind(s, u, WEM_T_HILL) && best < 1) best = 1, bk = WEM_T_HILL;
    if (inf && wem_inside_kind(s, u, WEM_T_WOOD) && best < 1) best = 1, bk = WEM_T_WOOD;
    if (inf && wem_inside_kind(s, u, WEM_T_FARM) && best < 2) best = 2, bk = WEM_T_FARM;
    if (inf && wem_inside_kind(s, u, WEM_T_TOWN) && best < 2) best = 2, bk = WEM_T_TOWN;
    if (kind) *kind = bk;
    return best;
}

int wem_garrison(const wem_state *s, int u) {
    const wem_unit_def *d = &s->sc->units[u];
    if (d->kind != WEM_GARRISON) return 0;
    return strstr(d->id, "LHS") || strstr(d->name, "Haye") ? 2 : 1;
}
