/*
 * combat.c - Combat [9.0]-[9.6]: declaring all battles as a whole, battle
 * strengths (artillery, terrain, reserves, weather, Good Ground), the CRT,
 * every result, EX losses, breaking units, Le Garde Recule [12.3.2].
 * Retreats are in retreat.c, advances in advance.c.
 */
#include <string.h>

#include "n20.h"

int n20_must_attack(const n20_state *s, int u) {
    if (s->u[u].where != N20_U_MAP || s->sc->units[u].type == N20_LEADER) return 0;
    /* [9.1] units in an EZOC must attack; [9.4.3] not across a major river even at a bridge */
    return n20_in_ezoc(s, s->u[u].hex, 1 - n20_side_of(s, u), 1);
}

/* enemies that the attack of u obliges to be attacked [9.1] [9.1.1] [9.2.1] */
static int s_obliges(const n20_state *s, int att, int e) {
    if (!n20_map_force(s, e) || s->sc->units[e].type == N20_LEADER) return 0; /* an active Garrison too [9.4.4.1] */
    if (n20_side_of(s, e) == n20_side_of(s, att)) return 0;
    int d = n20_dir(s->sc, s->u[att].hex, s->u[e].hex);
    if (d < 0) return 0;
    if (n20_side_river(s->sc, n20_weather(s), s->u[att].hex, d) == N20_RIV_MAJOR) return 0;
    return n20_exerts_zoc(s, att, s->u[e].hex) || n20_exerts_zoc(s, e, s->u[att].hex);
}

int n20_declare_obliges(const n20_state *s, int att, int e) { return s_obliges(s, att, e); }

int n20_declare_check(const n20_state *s, const n20_battle *b, int nb, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    int side = s->phasing;
    uint8_t role[N20_MAX_UNITS];
    memset(role, 0, sizeof role);
    if (nb > N20_MAX_BATTLES) return n20_reject(err, "9.2", "too many battles");
    for (int i = 0; i < nb; i++) {
        if (b[i].natt < 1 || b[i].ndef < 1 || b[i].natt > N20_MAX_SIDE || b[i].ndef > N20_MAX_SIDE)
            return n20_reject(err, "9.0", "battle %d needs attackers and defenders", i + 1);
        for (int j = 0; j < b[i].natt; j++) {
            int a = b[i].att[j];
            if (a < sc->nunits && n20_is_garrison(s, a) && n20_side_of(s, a) == side) {
                if (n20_garrison_attacker_check(s, a, err) < 0) return -1; /* [9.4.4.1] Wagram [9.11] */
            } else if (a >= sc->nunits || s->u[a].where != N20_U_MAP || n20_side_of(s, a) != side ||
                sc->units[a].type == N20_LEADER)
                return n20_reject(err, "9.0", "%s cannot attack: not a phasing unit on the map",
                                  a < sc->nunits ? N20_RUID(s, a) : "?");
            if (role[a]) return n20_reject(err, "9.1.2", "%s attacks more than once", N20_RUID(s, a));
            role[a] = 1;
        }
        for (int j = 0; j < b[i].ndef; j++) {
            int d = b[i].def[j];
            if (d < sc->nunits && n20_is_garrison(s, d) && n20_side_of(s, d) != side) {
                if (n20_garrison_defender_check(s, d, err) < 0) return -1; /* [9.4.4] */
            } else if (d >= sc->nunits || s->u[d].where != N20_U_MAP || n20_side_of(s, d) == side ||
                sc->units[d].type == N20_LEADER)
                return n20_reject(err, "9.0", "%s cannot be attacked: not an enemy unit on the map",
                                  d < sc->nunits ? N20_RUID(s, d) : "?");
            if (role[d]) return n20_reject(err, "9.1.2", "%s is attacked more than once", N20_RUID(s, d));
            role[d] = 2;
        }
        for (int j = 0; j < b[i].natt; j++)
            for (int k = 0; k < b[i].ndef; k++)
                if (!n20_adjacent_units(s, b[i].att[j], b[i].def[k]) &&
                    !n20_bombard_pair(s, b[i].att[j], b[i].def[k])) /* [16.3.2] */
                    return n20_reject(err, "9.2.2", "%s is not adjacent to %s: every attacker must be "
                                      "adjacent to every defender", N20_RUID(s, b[i].att[j]),
                                      N20_RUID(s, b[i].def[k]));
    }
    for (int u = 0; u < sc->nunits; u++)
        if (n20_side_of(s, u) == side && n20_must_attack(s, u) && role[u] != 1)
            return n20_reject(err, "9.1", "%s is in an enemy ZOC at %04u and must attack", N20_RUID(s, u),
                              n20_xxyy(s->u[u].hex));
    for (int a = 0; a < sc->nunits; a++) {
        if (role[a] != 1) continue;
        for (int e = 0; e < sc->nunits; e++)
            if (s_obliges(s, a, e) && role[e] != 2)
                return n20_reject(err, "9.1.1", "%s is in the ZOC of attacking unit %s and must be "
                                  "attacked", N20_RUID(s, e), N20_RUID(s, a));
    }
    return 0;
}

/* A valid declaration always exists: a star partition of the obligations graph. */
/* iterate the units in the order n20_fog_order gives (ord), while cond holds */
#define FOR_ORD(X, cond) \
    for (int i_##X = 0, X = 0; i_##X < sc->nunits && ((X = ord[i_##X]), 1) && (cond); i_##X++)

int n20_declare_canonical(const n20_state *s, n20_battle *b, int max) {
    const n20_scenario *sc = s->sc;
    int side = s->phasing;
    int ord[N20_MAX_UNITS]; /* [16.1] hex order with fog-of-war: nothing follows hidden identities */
    n20_fog_order(s, ord);
    uint8_t need_att[N20_MAX_UNITS], need_def[N20_MAX_UNITS], mate[N20_MAX_UNITS];
    memset(need_att, 0, sizeof need_att);
    memset(need_def, 0, sizeof need_def);
    FOR_ORD(u, 1)
        if (n20_side_of(s, u) == side && n20_must_attack(s, u)) need_att[u] = 1;
    FOR_ORD(a, 1)
        if (need_att[a])
            FOR_ORD(e, 1)
                if (s_obliges(s, a, e)) need_def[e] = 1;
    memset(mate, 0xff, sizeof mate);
    /* greedy maximal matching */
    FOR_ORD(a, 1) {
        if (!need_att[a]) continue;
        FOR_ORD(e, 1)
            if (need_def[e] && mate[e] == 0xff && n20_adjacent_units(s, a, e)) {
                mate[a] = (uint8_t)e;
                mate[e] = (uint8_t)a;
                break;
            }
    }
    /* every unmatched vertex joins a star at a matched neighbour */
    uint8_t center_of[N20_MAX_UNITS];
    memset(center_of, 0xff, sizeof center_of);
    FOR_ORD(v, 1) {
        if (!(need_att[v] || need_def[v]) || mate[v] != 0xff) continue;
        FOR_ORD(w, 1) {
            int ok = need_att[v] ? need_def[w] : need_att[w];
            if (ok && mate[w] != 0xff && n20_adjacent_units(s, v, w)) {
                center_of[v] = (uint8_t)w;
                break;
            }
        }
    }
    int nb = 0;
    uint8_t used[N20_MAX_UNITS];
    memset(used, 0, sizeof used);
    FOR_ORD(c, nb < max) {
        if (mate[c] == 0xff || used[c]) continue;
        int m = mate[c];
        /* leaves attached to c and to m */
        int lc = 0, lm = 0;
        FOR_ORD(v, 1) {
            if (center_of[v] == c) lc++;
            if (center_of[v] == m) lm++;
        }
        n20_battle *bt;
        if (lc && lm) {
            /* split: c with its leaves + m? no: c's star keeps m only if m has no leaves */
            bt = &b[nb++];
            memset(bt, 0, sizeof *bt);
            if (need_att[c]) bt->att[bt->natt++] = (uint8_t)c; else bt->def[bt->ndef++] = (uint8_t)c;
            FOR_ORD(v, 1)
                if (center_of[v] == c) {
                    if (need_att[v]) { if (bt->natt < N20_MAX_SIDE) bt->att[bt->natt++] = (uint8_t)v; }
                    else if (bt->ndef < N20_MAX_SIDE) bt->def[bt->ndef++] = (uint8_t)v;
                }
            if (nb >= max) break;
            bt = &b[nb++];
            memset(bt, 0, sizeof *bt);
            if (need_att[m]) bt->att[bt->natt++] = (uint8_t)m; else bt->def[bt->ndef++] = (uint8_t)m;
            FOR_ORD(v, 1)
                if (center_of[v] == m) {
                    if (need_att[v]) { if (bt->natt < N20_MAX_SIDE) bt->att[bt->natt++] = (uint8_t)v; }
                    else if (bt->ndef < N20_MAX_SIDE) bt->def[bt->ndef++] = (uint8_t)v;
                }
        } else {
            bt = &b[nb++];
            memset(bt, 0, sizeof *bt);
            int pair[2] = {c, m};
            for (int k = 0; k < 2; k++) {
                int x = pair[k];
                if (need_att[x]) bt->att[bt->natt++] = (uint8_t)x; else bt->def[bt->ndef++] = (uint8_t)x;
            }
            FOR_ORD(v, 1)
                if (center_of[v] == c || center_of[v] == m) {
                    if (need_att[v]) { if (bt->natt < N20_MAX_SIDE) bt->att[bt->natt++] = (uint8_t)v; }
                    else if (bt->ndef < N20_MAX_SIDE) bt->def[bt->ndef++] = (uint8_t)v;
                }
        }
        used[c] = used[m] = 1;
    }
    return nb;
}

#undef FOR_ORD

/* ---- strengths ------------------------------------------------------------ */
int n20_combat_strength(const n20_state *s, int u, int attacking, int countercharge, int vs_cav) {
    const n20_unit_def *d = &s->sc->units[u];
    int v = d->strength;
    int w = n20_weather(s);
    if (d->type == N20_INF && n20_w_rain(w) && v > 0) v--;       /* [5.2.1] [16.10.2] */
    if (attacking && d->type == N20_ART && !n20_w_heavy(w)) v *= 2; /* [9.3] [5.2.1] [16.10.2] */
    if (attacking && countercharge && !vs_cav) v *= 2;                                    /* [8.1.4] */
    if (s->u[u].routed || (s->u[u].flags & N20_UF_CONTACT)) v = (v + 1) / 2; /* [9.6.2] [8.2.4] */
    return v;
}

static int s_terrain_benefit(const n20_state *s, const n20_battle *b) {
    const n20_scenario *sc = s->sc;
    int best = 0, w = n20_weather(s);
    for (int j = 0; j < b->ndef; j++) {
        uint16_t h = s->u[b->def[j]].hex;
        int t = n20_terrain_at(s, h); /* A-E [9.10] a Bridgehead is a Redoubt */
        if (sc->t_def[t] > best) best = sc->t_def[t];
        for (int k = 0; k < b->natt; k++) {
            int d = n20_dir(sc, h, s->u[b->att[k]].hex);
            if (d < 0) continue;
            int r = n20_side_river(sc, w, h, d), x = sc->cross[h][d], v = 0;
            if (r == N20_RIV_MINOR) v = x ? sc->minor_bridge_def : sc->minor_def;
            else if (r == N20_RIV_MAJOR) v = x == N20_X_FORD ? sc->ford_def : sc->bridge_def;
            if (sc->river[h][d] == N20_RIV_MINOR && r == N20_RIV_MAJOR)
                v = x ? sc->minor_bridge_def : sc->minor_def;
            if (v > best) best = v;
        }
    }
    return best; /* [9.4.1] [9.4.2] the single best benefit */
}

static int s_all_routed(const n20_state *s, const uint8_t *units, int n) {
    for (int i = 0; i < n; i++)
        if (!s->u[units[i]].routed) return 0;
    return 1;
}

int n20_attacker_may_reserve(const n20_state *s, const n20_battle *b) {
    int side = n20_side_of(s, b->att[0]);
    if (n20_garrison_only(s, b->att, b->natt)) return 0; /* [9.4.4.1] */
    return s->morale[side] >= 1 && !s_all_routed(s, b->att, b->natt); /* [12.2.3] [9.6.2] */
}

int n20_defender_may_reserve(const n20_state *s) {
    const n20_battle *b = &s->b[s->f.battle];
    int side = 1 - s->f.att_side;
    if (n20_garrison_only(s, b->def, b->ndef)) return 0; /* [9.4.4.1] */
    return s->morale[side] >= 1 && !s_all_routed(s, b->def, b->ndef);
}

int n20_resolve_check(const n20_state *s, int battle, int reserve, brt_reject *err) {
    if (s->phase != N20_PH_BATTLES)
        return n20_reject(err, "9.2", "battles are resolved after all are declared");
    if (battle < 0 || battle >= s->nbattles || s->b[battle].done)
        return n20_reject(err, "9.0", "no such unresolved battle %d", battle + 1);
    if (reserve && !n20_attacker_may_reserve(s, &s->b[battle]))
        return n20_reject(err, "12.2.3", "reserves cannot be committed to battle %d (no Morale Point, "
                          "or every attacking unit is Routed)", battle + 1);
    return 0;
}

void n20_break_unit(n20_state *s, int u, n20_out *out, const char *why) {
    int side = n20_side_of(s, u);
    uint16_t h = s->u[u].hex;
    n20_detached_broken(s, u); /* [17.1] */
    s->u[u].where = s->sc->units[u].flags & N20_FLAG_CADRE ? N20_U_OUT : N20_U_BROKEN; /* [16.5.2] */
    s->u[u].routed = 0;
    s->u[u].flags = 0;
    s->u[u].hex = 0;
    s->fatigue[u] = 0; /* [16.8] rulings R-16.8-broken */
    if (s->gg_unit == u) s->gg_unit = 0xff;
    int us[1] = {u};
    n20_event(out, s, "broken", us, 1, &h, 1, NULL, 0, "[%s] " N20_U(0) " is Broken at %04u", why,
              n20_xxyy(h));
    int8_t g[2] = {0, 0}, l[2] = {0, 0};
    g[1 - side] = s->sc->mc_break_enemy;
    l[side] = s->sc->mc_break_owner;
    n20_morale_change(s, g, l, out, "12.1 unit broken");
}

static void s_finish(n20_state *s, brt_dice *dice, n20_out *out);

/* [9.6] AR/DR: the opponent rolls for each Routed unit, one at a time, just before
 * its retreat; [9.6.2.1] Elite and Defensible Position modifiers */
static void s_roll_rout(n20_state *s, int k, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    int u = f->ret_unit[k];
    int us[1] = {u};
    uint32_t die = n20_roll(s, dice, us, 1, "9.6 rout distance"); /* [16.1] as the unit is seen */
    int m = (int)die;
    if (s->sc->units[u].flags & N20_FLAG_ELITE) m += s->sc->rout_elite;
    if (n20_is_fortified(s->sc, s, s->u[u].hex) && n20_ed_has(s, N20_EDF_FORT_ROUT_MOD))
        m += s->sc->rout_fort; /* Fortified or Redoubt; v3 [9.8.1]: no modifier, only one hex fewer */
    int v[2] = {(int)die, m};
    if (m < 1) {
        n20_event(out, s, "rout-roll", us, 1, NULL, 0, v, 2,
                  "[9.6.2.1] " N20_U(0) " rout roll %u, modified %d: changed to Withdraws", die, m);
        f->ret_dist[k] = 1;
        f->ret_rout[k] = 0;
    } else {
        n20_event(out, s, "rout-roll", us, 1, NULL, 0, v, 2, "[9.6] " N20_U(0) " routs %d hex(es) (roll %u)", m,
                  die);
        f->ret_dist[k] = (uint8_t)m;
        f->ret_rout[k] = 1;
    }
}

static void s_queue_retreats(n20_state *s, const uint8_t *units, int n, int rout, brt_dice *dice,
                             n20_out *out) {
    n20_fight *f = &s->f;
    f->nret = 0;
    f->ret_done = 0;
    for (int i = 0; i < n; i++) {
        int u = units[i];
        if (s->u[u].where != N20_U_MAP) continue;
        f->ret_unit[f->nret] = (uint8_t)u;
        f->ret_from[f->nret] = s->u[u].hex;
        f->ret_dist[f->nret] = rout ? 0 : 1; /* 0: the rout die is still to be rolled */
        f->ret_rout[f->nret] = (uint8_t)(rout ? 1 : 0);
        if (rout && n20_bombards(s, &s->b[f->battle], u)) { /* [16.3.2] AR is AW for it */
            f->ret_dist[f->nret] = 1;
            f->ret_rout[f->nret] = 0;
        }
        f->npath[f->nret] = 0;
        f->nret++;
    }
    s->phase = N20_PH_RETREAT;
    n20_battle_continue(s, dice, out);
}

static void s_vacate_all(n20_state *s, const uint8_t *units, int n) {
    n20_fight *f = &s->f;
    for (int i = 0; i < n && f->nvacated < N20_MAX_SIDE; i++) f->vacated[f->nvacated++] = s->u[units[i]].hex;
}

static int s_sum_printed(const n20_state *s, const uint8_t *units, int n) {
    int t = 0;
    for (int i = 0; i < n; i++) t += s->sc->units[units[i]].strength;
    return t;
}

static int s_ex_required(const n20_state *s) { return s->f.diff; /* reused: see s_roll */ }

static void s_crt(n20_state *s, brt_dice *dice, n20_out *out);

/* [9.0] Steps B-E: the strengths and the Combat Differential; Step F waits for the attacker */
static void s_roll(n20_state *s, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    n20_battle *b = &s->b[f->battle];
    const n20_scenario *sc = s->sc;
    int vs_cav = 0, gg_immune = 0, gg_def = 0;
    for (int j = 0; j < b->ndef; j++) {
        if (sc->units[b->def[j]].type == N20_CAV) vs_cav = 1;
        if (s->gg_unit == b->def[j]) {
            if (s->gg_immune) gg_immune = 1; else gg_def = 1;
        }
    }
    int att = 0, def = 0;
    for (int j = 0; j < b->natt; j++) {
        int u = b->att[j];
        int v = n20_combat_strength(s, u, 1, b->countercharge, vs_cav);
        if (gg_immune && sc->units[u].type == N20_ART && v > sc->units[u].strength)
            v = sc->units[u].strength; /* [5.1] Artillery Immune */
        if (n20_bombards(s, b, u) && v > sc->units[u].strength)
            v = sc->units[u].strength; /* [16.3.2] printed strength, not doubled */
        att += v;
    }
    att += f->att_reserve;
    int support = 0;
    for (int j = 0; j < b->ndef; j++) def += n20_combat_strength(s, b->def[j], 0, 0, 0);
    for (int j = 0; j < b->ndef; j++) support += n20_art_support(s, b->def[j]); /* [16.3.1] */
    for (int j = 0; j < b->natt; j++)
        if (n20_bombards(s, b, b->att[j])) f->bombard |= (uint8_t)(1u << j);
    f->bomb_known = (uint8_t)((s->opts & N20_OPT_ART_SUPPORT) != 0);
    def += support;
    int terr = s_terrain_benefit(s, b);
    def += terr + gg_def + f->def_reserve; /* [5.1] +1 Terrain Defense is cumulative */
    def += n20_garrison_def_bonus(s, b);   /* Wagram [9.11] a French unit in a Battery hex */
    if (s->opts & N20_OPT_SPECIAL_UNITS) { /* [9.0] Step D: [16.7.1] Elan, [16.7.4] Unreliable */
        att += n20_special_step_d(s, b->att, b->natt, 1, f->att_reserve, dice, out);
        def += n20_special_step_d(s, b->def, b->ndef, 0, f->def_reserve, dice, out);
    }
    int diff = att - def;
    if ((s->opts & N20_OPT_LEADERS) && !b->countercharge) {
        /* [16.9.5] Step B: Out of Command attackers reduce the differential by one; not for
         * countercharges [16.9.4]; before the attacker's own cap (rulings R-16.9.5-cap) */
        int cmd = n20_in_command(s, b);
        int cv[1] = {cmd}, ca[N20_MAX_SIDE];
        for (int j = 0; j < b->natt; j++) ca[j] = b->att[j];
        char la[4 * N20_U_MAX];
        n20_event(out, s, "command", ca, b->natt, NULL, 0, cv, 1, "[16.9.5] battle %u: the attackers are %s: %s",
                  f->battle + 1, cmd ? "In Command" : "Out of Command (-1 differential)",
                  n20_u_list(la, sizeof la, 0, b->natt));
        if (!cmd) diff -= 1;
    }
    f->sf_att = (int16_t)att;
    f->sf_def = (int16_t)def;
    f->sf_terr = (int16_t)terr;
    f->sf_support = (int16_t)support;
    f->sf_diff = (int16_t)diff;
    if (f->has_cap == 1) { /* [9.5] a cap given with the resolve order: a standing instruction (R-9.5-cap) */
        if (f->cap < diff) f->sf_diff = (int16_t)f->cap;
    } else if (f->has_cap == N20_CAP_STEP_F && diff > sc->crt_lo) { /* [9.0] Step F: the attacker decides [9.5] */
        s->phase = N20_PH_STEP_F;
        return;
    }
    s_crt(s, dice, out);
}

int n20_step_f_range(const n20_state *s, int *lo, int *hi) {
    if (s->phase != N20_PH_STEP_F || !s->f.active) return 0;
    int d = s->f.sf_diff;
    *lo = s->sc->crt_lo;
    *hi = d > s->sc->crt_hi ? s->sc->crt_hi : d;
    return 1;
}

int n20_step_f_check(const n20_state *s, int reduce, int diff, brt_reject *err) {
    int lo, hi;
    if (!n20_step_f_range(s, &lo, &hi))
        return n20_reject(err, "9.5", "no Voluntary Differential Reduction to decide now (Step F)");
    if (reduce && (diff < lo || diff > hi))
        return n20_reject(err, "9.5", "the differential of battle %u is %+d: resolve it at a column from %+d to %+d",
                          s->f.battle + 1, s->f.sf_diff, lo, hi);
    return 0;
}

void n20_step_f_apply(n20_state *s, int reduce, int diff, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    int v[2] = {f->sf_diff, reduce ? diff : f->sf_diff};
    if (reduce && diff < f->sf_diff) {
        n20_event(out, s, "reduction", NULL, 0, NULL, 0, v, 2,
                  "[9.5] battle %u: the attacker reduces the differential from %+d to %+d", f->battle + 1,
                  f->sf_diff, diff);
        f->sf_diff = (int16_t)diff;
    }
    s_crt(s, dice, out);
}

/* [9.0] Steps F-H: the CRT column of the differential, the die, the result */
static void s_crt(n20_state *s, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    n20_battle *b = &s->b[f->battle];
    const n20_scenario *sc = s->sc;
    int att = f->sf_att, def = f->sf_def, terr = f->sf_terr, support = f->sf_support, diff = f->sf_diff;
    int nbomb = 0;
    for (int j = 0; j < b->natt; j++)
        if (f->bombard & (1u << j)) nbomb++;
    f->sf_att = f->sf_def = f->sf_terr = f->sf_support = f->sf_diff = 0;
    int col = diff < sc->crt_lo ? sc->crt_lo : diff > sc->crt_hi ? sc->crt_hi : diff;
    int us[2 * N20_MAX_SIDE];
    int nu = 0;
    for (int j = 0; j < b->natt; j++) us[nu++] = b->att[j];
    for (int j = 0; j < b->ndef; j++) us[nu++] = b->def[j];
    /* [16.1] seen by the seats that see every unit of the battle, as its combat event is */
    uint32_t die = n20_roll(s, dice, us, nu, "9.6 combat");
    int res = sc->crt[die - 1][col - sc->crt_lo];
    static const char *rn[] = {"AB", "AR", "AW", "N", "DW", "DR", "DB", "EX"};
    int printed = res;
    if (nbomb == b->natt && (res == N20_R_AB || res == N20_R_AR)) res = N20_R_AW; /* [16.3.2] */
    if (nbomb == b->natt && res == N20_R_EX) res = N20_R_N; /* [16.3.2] alone: EX is eNgaged */
    f->result = (uint8_t)res;
    f->die = (uint8_t)die;
    s->battle_dice = 1;
    n20_fatigue_exhaust(s, b, out); /* [16.8.1] */
    int v[6] = {att, def, diff, col, (int)die, res};
    char la[4 * N20_U_MAX], ld[4 * N20_U_MAX];
    /* [9.6] who attacks whom (units[0..natt) are the attackers), then the attackers' total
     * strength against the defenders' */
    n20_event(out, s, "combat", us, nu, NULL, 0, v, 6,
              "[9.6] %s %s %s in battle %u: %d vs %d (terrain +%d%s%s%s), differential %+d, column %+d, die %u: %s%s%s",
              n20_u_list(la, sizeof la, 0, b->natt), b->natt == 1 ? "attacks" : "attack",
              n20_u_list(ld, sizeof ld, b->natt, b->ndef), f->battle + 1, att, def, terr,
              f->att_reserve ? ", attacker reserve" : "", f->def_reserve ? ", defender reserve" : "",
              support ? ", artillery support" : "", diff, col, die, rn[printed], printed != res ? " read as " : "",
              printed != res ? rn[res] : "");
    if (support) {
        int sv[1] = {support};
        n20_event(out, s, "artillery-support", NULL, 0, NULL, 0, sv, 1,
                  "[16.3.1] defensive artillery support: +%d to the defence of battle %u", support,
                  f->battle + 1);
    }
    if (nbomb) {
        int bv[1] = {nbomb}, bu[N20_MAX_SIDE], nb = 0;
        for (int j = 0; j < b->natt; j++)
            if (f->bombard & (1u << j)) bu[nb++] = b->att[j];
        char lb[4 * N20_U_MAX];
        n20_event(out, s, "bombardment", bu, nb, NULL, 0, bv, 1, "[16.3.2] %s %s in battle %u%s",
                  n20_u_list(lb, sizeof lb, 0, nb), nb == 1 ? "bombards" : "bombard", f->battle + 1,
                  printed != res ? ": the result is converted" : "");
    }
    int aside = f->att_side, dside = 1 - aside;
    f->winner = 2;
    n20_garrison_result(s, b, res, out); /* [9.4.4.1] Garrisons neither retreat nor break */
    switch (res) {
    case N20_R_AB:
        s_vacate_all(s, b->att, b->natt);
        for (int j = 0; j < b->natt; j++)
            if (s->u[b->att[j]].where == N20_U_MAP && !n20_bombards(s, b, b->att[j]))
                n20_break_unit(s, b->att[j], out, "9.6 AB");
        f->winner = b->countercharge ? 2 : (uint8_t)dside;
        if (nbomb && !s->over) { /* [16.3.2] AB is AW for the bombarding Artillery */
            uint8_t wd[N20_MAX_SIDE];
            int nw = 0;
            for (int j = 0; j < b->natt; j++)
                if (n20_bombards(s, b, b->att[j])) wd[nw++] = b->att[j];
            s_queue_retreats(s, wd, nw, 0, dice, out);
            return;
        }
        break;
    case N20_R_DB:
        s_vacate_all(s, b->def, b->ndef);
        for (int j = 0; j < b->ndef; j++)
            if (s->u[b->def[j]].where == N20_U_MAP) n20_break_unit(s, b->def[j], out, "9.6 DB");
        f->winner = (uint8_t)aside;
        break;
    case N20_R_AR:
    case N20_R_AW:
        s_vacate_all(s, b->att, b->natt);
        f->winner = b->countercharge ? 2 : (uint8_t)dside; /* [8.1.5] Holding Fast */
        if (s->over) return;
        s_queue_retreats(s, b->att, b->natt, res == N20_R_AR, dice, out);
        return;
    case N20_R_DR:
    case N20_R_DW:
        s_vacate_all(s, b->def, b->ndef);
        f->winner = (uint8_t)aside;
        s_queue_retreats(s, b->def, b->ndef, res == N20_R_DR, dice, out);
        return;
    case N20_R_EX: {
        int need = s_sum_printed(s, b->def, b->ndef); /* printed values only */
        uint8_t el[N20_MAX_SIDE]; /* [16.3.2] bombarding Artillery cannot be Broken for an EX */
        int nel = 0;
        for (int j = 0; j < b->natt; j++) /* a Garrison (a Battery) is never Broken [9.11] */
            if (!n20_bombards(s, b, b->att[j]) && s->u[b->att[j]].where == N20_U_MAP) el[nel++] = b->att[j];
        s_vacate_all(s, b->def, b->ndef);
        for (int j = 0; j < b->ndef; j++)
            if (s->u[b->def[j]].where == N20_U_MAP) n20_break_unit(s, b->def[j], out, "9.6 EX");
        f->winner = (uint8_t)aside;
        if (s->over) return;
        f->diff = (int8_t)need;
        if (need == 0 && n20_garrison_only(s, b->def, b->ndef)) break; /* a strength-0 Garrison [9.4.4] */
        /* if every choice must break them all, do it now */
        int total = s_sum_printed(s, el, nel);
        int forced = 1;
        for (int j = 0; j < nel; j++)
            if (total - sc->units[el[j]].strength >= need) forced = 0;
        if (forced) {
            for (int j = 0; j < nel; j++)
                if (s->u[el[j]].where == N20_U_MAP) n20_break_unit(s, el[j], out, "9.6 EX");
            break;
        }
        s->phase = N20_PH_EX_LOSSES;
        return;
    }
    default: break;
    }
    if (s->over) return;
    n20_advance_begin(s, dice, out);
}

void n20_battle_begin(n20_state *s, int battle, int reserve, int has_cap, int cap, brt_dice *dice,
                      n20_out *out) {
    n20_fight *f = &s->f;
    uint8_t ctx = s->phase == N20_PH_REACTION ? N20_PH_REACTION : N20_PH_BATTLES;
    memset(f, 0, sizeof *f);
    f->active = 1;
    f->ctx = ctx;
    f->battle = (uint8_t)battle;
    n20_battle *b = &s->b[battle];
    f->att_side = (uint8_t)n20_side_of(s, b->att[0]);
    f->has_cap = (uint8_t)(has_cap == N20_CAP_STEP_F ? N20_CAP_STEP_F : has_cap ? 1 : 0);
    f->cap = (int8_t)cap;
    f->winner = 2;
    for (int j = 0; j < b->natt; j++)
        if (s->sc->units[b->att[j]].flags & N20_FLAG_GUARD) f->garde_att = 1;
    if (reserve) {
        f->att_reserve = 1;
        n20_morale_one(s, f->att_side, -1, out, "12.2.3 attacker commits reserves");
        if (s->over) return;
    }
    if (n20_defender_may_reserve(s)) {
        s->phase = N20_PH_DEF_RESERVE;
        return;
    }
    s_roll(s, dice, out);
}

void n20_battle_defender_reserve(n20_state *s, int commit, brt_dice *dice, n20_out *out) {
    if (commit) {
        s->f.def_reserve = 1;
        n20_morale_one(s, 1 - s->f.att_side, -1, out, "12.2.3 defender commits reserves");
        if (s->over) return;
    }
    s_roll(s, dice, out);
}

int n20_losses_check(const n20_state *s, const int *units, int n, brt_reject *err) {
    if (s->phase != N20_PH_EX_LOSSES) return n20_reject(err, "9.6", "no Exchange to satisfy now");
    const n20_battle *b = &s->b[s->f.battle];
    int need = s_ex_required(s), sum = 0;
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int j = 0; j < b->natt; j++)
            if (b->att[j] == units[i] && s->u[units[i]].where == N20_U_MAP) ok = 1;
        for (int k = 0; k < i; k++)
            if (units[k] == units[i]) ok = 0;
        if (ok && n20_bombards(s, b, units[i]))
            return n20_reject(err, "16.3.2", "%s bombards: it cannot be Broken to satisfy an Exchange",
                              N20_RUID(s, units[i]));
        if (!ok)
            return n20_reject(err, "9.6", "%s is not a surviving attacker of this battle",
                              units[i] >= 0 && units[i] < s->sc->nunits ? N20_RUID(s, units[i]) : "?");
        sum += s->sc->units[units[i]].strength;
    }
    if (sum < need)
        return n20_reject(err, "9.6", "EX: the units broken total %d printed strength; at least %d is "
                          "needed", sum, need);
    for (int i = 0; i < n; i++)
        if (sum - s->sc->units[units[i]].strength >= need)
            return n20_reject(err, "9.6", "EX: %s is not needed to reach %d; break only what the "
                              "exchange requires", N20_RUID(s, units[i]), need);
    return 0;
}

void n20_losses_apply(n20_state *s, const int *units, int n, brt_dice *dice, n20_out *out) {
    for (int i = 0; i < n && !s->over; i++) n20_break_unit(s, units[i], out, "9.6 EX");
    if (s->over) return;
    n20_advance_begin(s, dice, out);
}

/* called after each retreat, and when the advance ends */
void n20_battle_continue(n20_state *s, brt_dice *dice, n20_out *out) {
    if (s->over) return;
    if (s->phase == N20_PH_RETREAT) {
        for (;;) {
            int u = n20_retreat_current(s);
            if (u < 0) break;
            if (s->f.ret_dist[s->f.ret_done] == 0) s_roll_rout(s, s->f.ret_done, dice, out);
            if (!n20_retreat_has_first_step(s, u)) {
                int k = s->f.ret_done;
                s->f.npath[k] = 0;
                s->f.ret_done++;
                uint16_t from = s->u[u].hex;
                n20_break_unit(s, u, out, "9.7.7 no retreat possible");
                if (s->over) return;
                n20_leaders_follow(s, u, from, dice, out); /* [16.9.5] they break with it */
                if (s->over) return;
                continue;
            }
            return; /* the owner chooses the path */
        }
        n20_advance_begin(s, dice, out);
        return;
    }
    if (s->phase == N20_PH_ADVANCE) return;
    s_finish(s, dice, out);
}

static void s_finish(n20_state *s, brt_dice *dice, n20_out *out) {
    (void)dice;
    n20_fight *f = &s->f;
    n20_battle *b = &s->b[f->battle];
    b->done = 1;
    /* [12.3.2] Le Garde Recule */
    if (f->garde_att && !b->countercharge) {
        for (int j = 0; j < b->natt; j++) {
            int u = b->att[j];
            if (!(s->sc->units[u].flags & N20_FLAG_GUARD)) continue;
            int capable = f->winner == f->att_side && s->u[u].where == N20_U_MAP && !s->u[u].routed &&
                          !(s->u[u].flags & N20_UF_CONTACT);
            if (!capable) {
                int gs[1] = {u};
                n20_event(out, s, "garde-recule", gs, 1, NULL, 0, NULL, 0, "[12.3.2] La Garde recule! (" N20_U(0) ")");
                n20_morale_one(s, f->att_side, -s->sc->mc_garde, out, "12.3.2 Le Garde Recule");
                if (s->over) return;
            }
        }
    }
    f->active = 0;
    s->phase = f->ctx;
}

void n20_battle_finish(n20_state *s, brt_dice *dice, n20_out *out) { s_finish(s, dice, out); }
