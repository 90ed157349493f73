/*
 * combat.c - [3.4 Combat]: "Combat starts if enemy Units are in contact. The current player
 * decides the sequence of combat resolutions."
 *
 * WEM_PH_COMBAT: the current army picks the next combat (WEM_O_COMBAT attacker defender; a
 * defender may be an unattached General [Unattached Generals]). Every contact must be fought, so
 * the army's part ends by itself when none is left.
 * A combat runs the five steps A Attack, B Counterattack, C Attack Reinforcements, D Defense
 * Reinforcements, E Result of Combat; each choice the book gives a player is asked of his seat:
 * WEM_PH_MELEE_CHOICE with s->combat.ask (combat.h: starter, corner-sides, reroll,
 * counterattack, reinforce, pursuit, pursuit-modifier, pursuit-charge, result-die,
 * result-modifier, fall-back-loss), WEM_PH_LOSSES (the owner spreads the Losses of a melee:
 * units[] and values[] the Losses of each) and WEM_PH_GENERAL_ESCAPE (places[0] the General's new
 * place, or done).
 *
 * Sides: 0 the combat's attacker (the Unit of the Formation IN MOVEMENT), 1 its defender;
 * s->combat.part[u] bits 1/2 the side of a participant, 4 supported, 8 withdrew, 16 got one
 * yellow, 32 got two, 64 temporarily Shaken [Melee modifiers], 128 its Formation's Fall Back Loss
 * taken. Rulings R-wem-combat-*, R-wem-melee-*, R-wem-result-* in docs/wem-rulings/combat.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "combat.h"


#define P_SIDE(x) (1u << (x))
#define P_SUPPORT 4u
#define P_WITHDREW 8u
#define P_YELLOW1 16u
#define P_YELLOW2 32u
#define P_TEMPSHAKEN 64u
#define P_FBDONE 128u

static int s_enemy(int a, int b) { return (a == WEM_BLUE) != (b == WEM_BLUE); }
static int s_on(const wem_state *s, int u) { return u >= 0 && (size_t)u < s->sc->n_units && s->units[u].status == WEM_ON; }
static int s_kind(const wem_state *s, int u) { return s->sc->units[u].kind; }
static int s_is_art(const wem_state *s, int u) { return s_kind(s, u) == WEM_ART_FOOT || s_kind(s, u) == WEM_ART_HORSE; }
static int s_is_inf(const wem_state *s, int u) { return s_kind(s, u) == WEM_INF || s_kind(s, u) == WEM_GARRISON; }
static int s_army_side(const wem_state *s, int army) { return s_enemy(army, s->combat.att_army) ? 1 : 0; }
static int s_side(const wem_state *s, int u) { return s_army_side(s, s->sc->units[u].army); }
static int s_side_army(const wem_state *s, int side) { return side ? s->combat.def_army : s->combat.att_army; }
static const char *s_id(const wem_state *s, int u) { return wem_piece_id(s, u); }
static wem_rect s_rect(const wem_state *s, int u) { return wem_unit_rect(s, u); }

static int s_touch(const wem_state *s, int a, int b) {
    wem_rect ra = s_rect(s, a), rb = s_rect(s, b);
    return wem_g_contact(&ra, &rb, wem_tol(s)) == WEM_TOUCH;
}

/* the sides of a that b touches; a garrison fights through ALL its sides [The Garrisons] */
static int s_sides(const wem_state *s, int a, int b, int *corner) {
    wem_rect ra = s_rect(s, a), rb = s_rect(s, b);
    int c = 0;
    int sides = wem_g_touch_sides(&ra, &rb, wem_tol(s), &c);
    if (corner) *corner = c;
    return sides;
}

/* "Resolve the melee through the front of the attacking Unit in contact (even just a corner)" */
static int s_front_touches(const wem_state *s, int a, int b) {
    if (!s_touch(s, a, b)) return 0;
    if (s_kind(s, a) == WEM_GARRISON) return 1;
    return (s_sides(s, a, b, NULL) & WEM_SIDE_FRONT) != 0;
}

static int32_t s_front_len(const wem_state *s, int a, int b) {
    wem_rect ra = s_rect(s, a), rb = s_rect(s, b);
    return wem_g_contact_len(&ra, WEM_SIDE_FRONT, &rb, wem_tol(s));
}

/* the melee is through the attacker's Charge, not a Charge 0, as the maneuver recorded it
 * [Melee die modifiers] "+1 if the attacker executes a Charge maneuver (except Charge 0)" */
static int s_charged(const wem_state *s, int u) { return s->units[u].charged && s->units[u].charge_dist > 0; }

/* ---- pairs to fight ---- */

static int s_gen_touch(const wem_state *s, int u, int g) {
    wem_rect ru = s_rect(s, u), rg = wem_general_rect(s, g);
    return wem_g_contact(&ru, &rg, wem_tol(s)) != WEM_APART;
}

/* is (a, d) a combat the current army may pick (a the attacker)? 0 yes, -1 (err) no */
static int s_pair_check(const wem_state *s, int a, int d, brt_reject *err) {
    const wem_scenario *sc = s->sc;
    int cur = wem_cur_army(s);
    if (!s_on(s, a))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat", "[3.4 Combat] %s is not on the battlefield",
                              s_id(s, a));
    if (s->units[a].fought)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                              "[3.4 Combat] %s has fought: a Unit can participate only in 1 combat per turn", s_id(s, a));
    if (d >= WEM_GEN_BASE) {
        int g = d - WEM_GEN_BASE;
        const wem_general *x = &s->generals[g];
        if ((size_t)g >= sc->n_generals || x->status != WEM_ON || x->attached >= 0 ||
            !s_enemy(sc->generals[g].army, sc->units[a].army))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unattached Generals",
                                  "[Unattached Generals] %s is not an unattached enemy General", s_id(s, d));
        if (sc->units[a].army != cur && sc->generals[g].army != cur)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                                  "[3.4 Combat] the current army decides only its own combats");
        if (!s_gen_touch(s, a, g))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Unattached Generals",
                                  "[Unattached Generals] %s is not in contact with %s", s_id(s, a), s_id(s, d));
        return 0;
    }
    if (!s_on(s, d) || !s_enemy(sc->units[a].army, sc->units[d].army))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat", "[3.4 Combat] %s is not an enemy Unit of %s",
                              s_id(s, d), s_id(s, a));
    if (s->units[d].fought)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                              "[3.4 Combat] %s has fought: a Unit can participate only in 1 combat per turn", s_id(s, d));
    if (sc->units[a].army != cur && sc->units[d].army != cur)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                              "[3.4 Combat] the current army decides only its own combats");
    if (!s_touch(s, a, d))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat", "[3.4 Combat] %s and %s are not in contact",
                              s_id(s, a), s_id(s, d));
    /* "the Unit belonging to the Formation IN MOVEMENT (marked in green) is the attacker";
     * with both or neither in movement the current army's Unit attacks (R-wem-combat-attacker) */
    int ga = s->units[a].green != 0, gd = s->units[d].green != 0;
    if (gd && !ga)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                              "[3.4 Combat] %s is IN MOVEMENT: it is the attacker, not %s", s_id(s, d), s_id(s, a));
    if (ga == gd && sc->units[a].army != cur)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                              "[3.4 Combat] neither or both IN MOVEMENT: the current army's Unit %s attacks", s_id(s, d));
    if (!s_front_touches(s, a, d))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Melee",
                              "[Melee] %s cannot attack %s: the melee is through the front of the attacking Unit",
                              s_id(s, a), s_id(s, d));
    return 0;
}

/* the attacking Units whose fronts touch d and have the most contact length [Melee]: *n tied */
static int32_t s_best_len(const wem_state *s, int army, int d, int16_t *tied, int *n) {
    int32_t best = -1;
    *n = 0;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (!s_on(s, (int)u) || s->sc->units[u].army != army || s->units[u].fought) continue;
        if (s_pair_check(s, (int)u, d, NULL)) continue; /* it could not attack d at all */
        int32_t len = s_kind(s, (int)u) == WEM_GARRISON ? 0 : s_front_len(s, (int)u, d);
        if (len > best) best = len, *n = 0;
        if (len == best) tied[(*n)++] = (int16_t)u;
    }
    return best;
}

static int s_any_pair(const wem_state *s) {
    const wem_scenario *sc = s->sc;
    for (size_t a = 0; a < sc->n_units; a++) {
        if (!s_on(s, (int)a) || s->units[a].fought) continue;
        for (size_t d = 0; d < sc->n_units; d++)
            if (s_on(s, (int)d) && s_enemy(sc->units[a].army, sc->units[d].army) && !s->units[d].fought &&
                s_pair_check(s, (int)a, (int)d, NULL) == 0)
                return 1;
        for (size_t g = 0; g < sc->n_generals; g++)
            if (s_pair_check(s, (int)a, WEM_GEN_BASE + (int)g, NULL) == 0) return 1;
    }
    return 0;
}

int wem_combat_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice, (void)ev;
    s->combat.active = 0;
    if (!s_any_pair(s)) return 0;
    s->phase = WEM_PH_COMBAT;
    return 1;
}

/* ---- asking ---- */

static void s_ask(wem_state *s, int ask, int side) {
    s->combat.ask = (uint8_t)ask;
    s->combat.ask_army = (uint8_t)s_side_army(s, side);
    s->phase = WEM_PH_MELEE_CHOICE;
}

static void s_drive(wem_state *s, brt_dice *dice, brt_events *ev);

/* ---- the melee [Melee] ---- */

/* [Support to melee] "a Unit must be in Formation and in contact (even just a corner) with the
 * Unit that is participating in the melee ... CANNOT give support if it has an enemy Unit within 1
 * unit of measurement from its front or if it is in contact with enemy Units. Artillery Units can
 * give support if their area of engagement is occupied by the enemy Unit." (R-wem-support-auto,
 * R-wem-support-artillery) */
static int s_supporters(const wem_state *s, const wem_formations *f, int u, int enemy, int16_t *out) {
    const wem_scenario *sc = s->sc;
    int n = 0;
    for (size_t v = 0; v < sc->n_units; v++) {
        if ((int)v == u || !s_on(s, (int)v) || sc->units[v].army != sc->units[u].army) continue;
        if (f->of[v] < 0 || f->of[v] != f->of[u] || !s_touch(s, (int)v, u)) continue;
        const wem_unit *x = &s->units[v];
        if (x->fought || x->withdrew || (s->combat.part[v] & P_WITHDREW)) continue;
        if (x->charge_bridge) continue; /* [Bridge] "CANNOT give support to the ensuing combat" */
        if (s->combat.part[v] & (P_SIDE(0) | P_SIDE(1)) && !(s->combat.part[v] & P_SUPPORT)) continue; /* in melee */
        int art = s_is_art(s, (int)v);
        if (art && (x->fastened || (x->fastened_turn && x->unfastened_turn))) continue;
        wem_rect rv = s_rect(s, (int)v);
        int ok = 1;
        if (art) {
            wem_rect re = s_rect(s, enemy);
            if (wem_g_aoe(&rv, &re, WEM_UOM, wem_tol(s)) < 1) ok = 0;
        }
        for (size_t e = 0; ok && e < sc->n_units; e++) {
            if (!s_on(s, (int)e) || !s_enemy(sc->units[e].army, sc->units[v].army)) continue;
            wem_rect re = s_rect(s, (int)e);
            if (wem_g_contact(&rv, &re, wem_tol(s)) != WEM_APART) ok = 0;
            /* R-wem-support-front-limit: an enemy at the limit of 1 unit (a Unit in column
             * behind the one in melee) does not bar it */
            else if (!(art && (int)e == enemy) &&
                     wem_g_front_within(&rv, &re, wem_param_get(sc, "support-front", WEM_UOM) - wem_tol(s) - 1))
                ok = 0;
        }
        if (ok) out[n++] = (int16_t)v;
    }
    return n;
}

/* [Melee die modifiers] for unit u in melee against e (attacking: u is the melee's attacker) */
static int s_mmod(wem_state *s, const wem_formations *f, int u, int e, int attacking, int side, char *why, size_t cap) {
    const wem_scenario *sc = s->sc;
    int m = 0, tk = 0;
    size_t w = 0;
    why[0] = 0;
#define S_MOD(v, txt)                                                                                      \
    do {                                                                                                   \
        m += (v);                                                                                          \
        if (w < cap) w += (size_t)snprintf(why + w, cap - w, " %+d %s", (v), txt);                         \
    } while (0)
    /* terrain [Area Terrain]: the defence of a Unit in defence NOT IN MOVEMENT; cavalry -1 */
    if (!attacking && !s->units[u].green) {
        int t = wem_terrain_defence(s, u, &tk);
        if (t) {
            S_MOD(t, "terrain");
            s->combat.terrain[side] = (int8_t)t;
        }
    }
    if (s_kind(s, u) == WEM_CAV &&
        (wem_inside_kind(s, u, WEM_T_WOOD) || wem_inside_kind(s, u, WEM_T_FARM) || wem_inside_kind(s, u, WEM_T_TOWN))) {
        S_MOD(-1, "cavalry in the terrain");
        if (!s->combat.terrain[side]) s->combat.terrain[side] = -1;
    }
    if (s_is_inf(s, u) && s_is_inf(s, e) && sc->units[u].fire) S_MOD(sc->units[u].fire, "Fire Discipline");
    if (attacking && s_charged(s, u)) S_MOD(1, "Charge");
    /* [Torrent] "-1 to Units that cross the Torrent whilst executing a Charge" */
    if (attacking && s->units[u].charged && s->units[u].charge_torrent) S_MOD(-1, "Charge across the Torrent");
    if (wem_gen_of_formation(s, f, u) >= 0 || wem_gen_attached_to(s, u) >= 0) S_MOD(1, "attached General");
    if (sc->units[u].cls <= wem_param_get(sc, "melee-class", WEM_ELITE)) S_MOD(1, "class");
    if ((s->units[e].withdrew || (s->combat.part[e] & P_WITHDREW)) && !(s_is_inf(s, u) && s_kind(s, e) == WEM_CAV))
        S_MOD(1, "against a Unit that withdrew");
    int16_t sup[WEM_MAX_PIECES];
    int ns = s_supporters(s, f, u, e, sup), art = 0, same = 0;
    for (int i = 0; i < ns; i++) {
        s->combat.part[sup[i]] |= (uint8_t)(P_SIDE(side) | P_SUPPORT);
        s->units[sup[i]].meleed = 1;
        if (s_is_art(s, sup[i])) art = 1;
        else if (s_kind(s, sup[i]) == s_kind(s, u)) same++;
    }
    if (art) S_MOD(1, "Artillery in support");
    if (same) S_MOD(same > 2 ? 2 : same, "in support");
    if (s_kind(s, u) == WEM_CAV && s_kind(s, e) == WEM_CAV && sc->units[u].cav == WEM_CAV_HEAVY &&
        sc->units[e].cav == WEM_CAV_LIGHT)
        S_MOD(2, "Heavy against Light Cavalry");
#undef S_MOD
    return m;
}

/* a yellow marker from the melee: a Unit temporarily Shaken counts as Shaken (R-wem-melee-flank) */
static void s_yellow(wem_state *s, int u, int cause, brt_events *ev) {
    if ((s->combat.part[u] & P_TEMPSHAKEN) && !s->units[u].yellow) wem_shake(s, u, cause, ev);
    if (s_on(s, u)) wem_shake(s, u, cause, ev);
}

static void s_mark(wem_state *s, int u, unsigned bit) {
    s->combat.part[u] |= (uint8_t)bit;
    if (bit == P_YELLOW2) s->combat.part[u] &= (uint8_t)~P_YELLOW1;
}

/* [Melee effects table] on the loser's unit L (beaten by W, difference d) */
static void s_effect(wem_state *s, int L, int W, int d, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    int by = sc->units[W].army, gar = wem_garrison(s, L);
    wem_combat *c = &s->combat;
    if (d <= 1) {
        wem_event(s, ev, BRT_SEATS_ALL, "melee-effect", sc->units[L].army, L, W, d, NULL, 0, NULL, 0,
                  "[Melee effects table 0/1] both Units stay in contact");
        return;
    }
    if (d <= 4 && s_is_art(s, L)) {
        wem_event(s, ev, BRT_SEATS_ALL, "melee-effect", sc->units[L].army, L, W, d, NULL, 0, NULL, 0,
                  "[Melee effects table %s] %s is an Artillery Unit: it is captured", d <= 3 ? "2/3" : "4", s_id(s, L));
        wem_unit_remove(s, L, WEM_CAPTURED, by, ev);
        return;
    }
    if (d <= 3) {
        wem_event(s, ev, BRT_SEATS_ALL, "melee-effect", sc->units[L].army, L, W, d, NULL, 0, NULL, 0,
                  "[Melee effects table 2/3] %s must Withdraw 1%s", s_id(s, L), gar ? " (a Garrison: ignored)" : "");
        if (gar) return; /* "Garrisons can NEVER be moved (ignore Withdraw or Retreat effects)" */
        s_mark(s, L, P_WITHDREW);
        s->units[L].withdrew = 1;
        c->withdrawn = (int16_t)L;
        wem_withdraw(s, L, WEM_UOM, W, ev);
        return;
    }
    if (d == 4) {
        wem_event(s, ev, BRT_SEATS_ALL, "melee-effect", sc->units[L].army, L, W, d, NULL, 0, NULL, 0,
                  "[Melee effects table 4] %s must Retreat", s_id(s, L));
        if (gar == 2) { /* La Haye Sainte "eliminated if it is Routed or in Retreat as a result of melee" */
            wem_unit_remove(s, L, WEM_ELIMINATED, by, ev);
            return;
        }
        if (gar) return;
        s_mark(s, L, P_WITHDREW);
        s->units[L].withdrew = 1;
        c->withdrawn = (int16_t)L;
        wem_withdraw(s, L, WEM_UOM, W, ev);
        if (s_on(s, L)) {
            s_yellow(s, L, W, ev);
            s_mark(s, L, s->units[L].yellow >= 2 ? P_YELLOW2 : P_YELLOW1);
        }
        return;
    }
    wem_event(s, ev, BRT_SEATS_ALL, "melee-effect", sc->units[L].army, L, W, d, NULL, 0, NULL, 0,
              "[Melee effects table 5+] %s is Routed", s_id(s, L));
    if (gar) { /* "The Hougoumont Garrison is eliminated if it is Routed" (and La Haye Sainte) */
        wem_unit_remove(s, L, WEM_ELIMINATED, by, ev);
        return;
    }
    s_mark(s, L, P_YELLOW2);
    c->withdrawn = (int16_t)L;
    while (s_on(s, L) && s->units[L].yellow < 2) wem_shake(s, L, W, ev);
}

/* the participants of a side (part bits), on the field */
static int s_part(const wem_state *s, int side, int16_t *out) {
    int n = 0;
    for (size_t u = 0; u < s->sc->n_units; u++)
        if ((s->combat.part[u] & P_SIDE(side)) && s_on(s, (int)u)) out[n++] = (int16_t)u;
    return n;
}

static int s_part_all(const wem_state *s, int side) {
    int n = 0;
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s->combat.part[u] & P_SIDE(side)) n++;
    return n;
}

static int s_cap_left(const wem_state *s, int u) {
    int c = s->sc->units[u].losses - s->units[u].losses;
    return c > 0 ? c : 0;
}

/* the melee unit of a side now */
static int s_melee_unit(const wem_state *s, int side) {
    return side == s->combat.side_att ? s->combat.att : s->combat.def;
}

/* the Losses of side to spread now: the total to take (capped by what the units can take) */
static int s_loss_total(const wem_state *s, int side) {
    int16_t p[WEM_MAX_PIECES];
    int n = s_part(s, side, p), cap = 0;
    for (int i = 0; i < n; i++) cap += s_cap_left(s, p[i]);
    return s->combat.loss_n[side] < cap ? s->combat.loss_n[side] : cap;
}

/* is the spread values[i] on units[i] lawful? [Suffer Damages (melee)] */
static int s_loss_check(const wem_state *s, int side, const int16_t *units, const int32_t *vals, int n, brt_reject *err) {
    int total = 0, start = s_melee_unit(s, side), start_n = 0, max_other = 0;
    for (int i = 0; i < n; i++) {
        int u = units[i];
        for (int j = 0; j < i; j++)
            if (units[j] == u)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Suffer Damages", "[Suffer Damages] %s is listed twice",
                                      s_id(s, u));
        if (u < 0 || u >= WEM_GEN_BASE || !s_on(s, u) || !(s->combat.part[u] & P_SIDE(side)))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Suffer Damages",
                                  "[Suffer Damages] %s is not a Unit of the army participating in the combat", s_id(s, u));
        if (vals[i] < 0 || vals[i] > s_cap_left(s, u))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Suffer Damages",
                                  "[Suffer Damages] %s cannot suffer %d: Units CANNOT suffer more Losses than their "
                                  "capacity",
                                  s_id(s, u), vals[i]);
        total += vals[i];
        if (u == start) start_n = vals[i];
        else if (vals[i] > max_other) max_other = vals[i];
    }
    int want = s_loss_total(s, side);
    if (total != want)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Suffer Damages",
                              "[Suffer Damages] %d Losses to distribute, not %d", want, total);
    if (s_on(s, start) && (s->combat.part[start] & P_SIDE(side)) && start_n < max_other &&
        start_n < s_cap_left(s, start))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Suffer Damages",
                              "[Suffer Damages] the Unit that started the combat (%s) CANNOT suffer fewer Losses than "
                              "the other friendly Units",
                              s_id(s, start));
    return 0;
}

static void s_loss_apply(wem_state *s, int side, const int16_t *units, const int32_t *vals, int n, brt_events *ev) {
    int by = s_side_army(s, !side);
    for (int i = 0; i < n; i++)
        if (vals[i] > 0) wem_unit_loss(s, units[i], vals[i], by, ev);
    s->combat.loss_n[side] = 0;
}

/* Pursuit: the types the winner may still pursue with (1 << kind) */
static unsigned s_pursuit_types(const wem_state *s, int side) {
    int16_t p[WEM_MAX_PIECES];
    int n = s_part(s, side, p);
    unsigned t = 0;
    for (int i = 0; i < n; i++) {
        int k = s_kind(s, p[i]);
        /* "Units of Formations in Recovery (marked in orange) cannot resolve a Pursuit" */
        if ((k == WEM_INF || k == WEM_CAV) && !s->units[p[i]].orange) t |= 1u << k;
    }
    return t & ~(unsigned)s->combat.pursuit_types;
}

/* [Pursuit die modifiers] the fixed part, and the "+/- as the player wants" sizes */
static int s_pursuit_mods(const wem_state *s, int side, int type, int8_t *opt, uint8_t *nopt) {
    const wem_scenario *sc = s->sc;
    int16_t p[WEM_MAX_PIECES];
    int n = s_part(s, side, p), m = 0, shaken = 0, poor = 0;
    int pc = wem_param_get(sc, "pursuit-class", WEM_RECRUIT);
    int rank2 = 0, rank3 = 0;
    for (int i = 0; i < n; i++) {
        if (s_kind(s, p[i]) != type) continue;
        if (s->units[p[i]].yellow) shaken = 1;
        if (sc->units[p[i]].cls >= pc) poor = 1;
        /* "its ★★ / ★★★ General is within 2 units of measurement" (R-wem-pursuit-general) */
        for (size_t g = 0; g < sc->n_generals; g++) {
            if (s->generals[g].status != WEM_ON || sc->generals[g].army != sc->units[p[i]].army) continue;
            if (!sc->generals[g].cinc && sc->generals[g].corps != sc->units[p[i]].corps) continue;
            wem_rect rg = wem_general_rect(s, (int)g), ru = s_rect(s, p[i]);
            wem_quad qg, qu;
            wem_g_quad(&rg, 0, &qg);
            wem_g_quad(&ru, 0, &qu);
            if (!wem_g_within(&qg, &qu, 2 * WEM_UOM)) continue;
            int r = wem_gen_rank(s, (int)g);
            if (r == 2) rank2 = 1;
            if (r >= 3) rank3 = 1;
        }
    }
    if (shaken) m -= 2;
    if (poor) m -= 1;
    if (type == WEM_CAV) m += 1;
    m -= s->combat.terrain[side];
    *nopt = 0;
    int tgt = s->combat.withdrawn;
    if (tgt >= 0 && sc->units[tgt].cls <= wem_param_get(sc, "pursuit-target-class", WEM_ELITE)) opt[(*nopt)++] = 1;
    if (rank3) opt[(*nopt)++] = 2;
    else if (rank2) opt[(*nopt)++] = 1;
    return m;
}

/* the melee is over: the next step */
static void s_next_step(wem_state *s) {
    wem_combat *c = &s->combat;
    c->stage = c->melee_step == 'A' ? WEM_CS_B : c->melee_step == 'B' ? WEM_CS_C : c->melee_step == 'C' ? WEM_CS_D : WEM_CS_E_ROLL;
}

/* a melee between a (attacking, of side_att) and d */
static void s_melee_start(wem_state *s, int a, int d, int side_att, int step) {
    wem_combat *c = &s->combat;
    c->att = (int16_t)a;
    c->def = (int16_t)d;
    c->side_att = (uint8_t)side_att;
    c->melee_step = (uint8_t)step;
    c->step = (uint8_t)step;
    c->loser = 2;
    c->withdrawn = -1;
    c->pursuit_types = 0;
    memset(c->pursued, 0, sizeof c->pursued);
    c->rerolled[0] = c->rerolled[1] = 0;
    c->part[a] |= (uint8_t)P_SIDE(side_att);
    c->part[d] |= (uint8_t)P_SIDE(!side_att);
    c->part[a] &= (uint8_t)~P_SUPPORT;
    c->part[d] &= (uint8_t)~P_SUPPORT;
    s->units[a].meleed = s->units[d].meleed = 1;
    c->stage = WEM_CS_M_BEGIN;
}

/* [3.4 C/D] "one of the Units of the defending (attacking) Formation involved in the combat": e is
 * in the combat on that side, or in the Formation of a Unit that is (R-wem-reinforce-area) */
static int s_in_side_fmn(const wem_state *s, const wem_formations *f, int side, int e) {
    if (s->combat.part[e] & P_SIDE(side)) return 1;
    if (f->of[e] < 0) return 0;
    for (size_t u = 0; u < s->sc->n_units; u++)
        if ((s->combat.part[u] & P_SIDE(side)) && s_on(s, (int)u) && f->of[u] == f->of[e]) return 1;
    return 0;
}

/* a candidate for a reinforcing Charge [3.4 C/D]: side's unit, a Formation without orange, not
 * yet in the combat, occupying the area of engagement of an enemy unit in the combat */
static int s_reinforcer(const wem_state *s, const wem_formations *f, int side, int u, int *target) {
    const wem_scenario *sc = s->sc;
    if (!s_on(s, u) || s_side(s, u) != side || s->combat.part[u] || s->units[u].fought || s->units[u].orange)
        return 0;
    if (s_kind(s, u) == WEM_GARRISON) return 0;
    /* "except the Formation of the Unit that started the combat" (R-wem-reinforce-starter) */
    int st = s->combat.starter[side];
    if (st >= 0 && f->of[u] >= 0 && f->of[u] == f->of[st]) return 0;
    wem_rect ru = s_rect(s, u);
    for (size_t e = 0; e < sc->n_units; e++) {
        if (!s_on(s, (int)e) || !s_in_side_fmn(s, f, !side, (int)e)) continue;
        wem_rect re = s_rect(s, (int)e);
        if (wem_g_aoe(&re, &ru, WEM_UOM, wem_tol(s)) >= 1) {
            if (target) *target = (int)e;
            return 1;
        }
    }
    return 0;
}

static int s_any_reinforcer(const wem_state *s, int side) {
    wem_formations f;
    wem_formations_find(s, &f);
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s_reinforcer(s, &f, side, (int)u, NULL)) return 1;
    return 0;
}

static int s_has_garrison(const wem_state *s) {
    for (size_t u = 0; u < s->sc->n_units; u++)
        if ((s->combat.part[u] & (P_SIDE(0) | P_SIDE(1))) && wem_garrison(s, (int)u)) return 1;
    return 0;
}

/* the Formations of the side's participants (one representative unit each) */
static int s_side_fmns(const wem_state *s, const wem_formations *f, int side, int16_t *rep) {
    int n = 0;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (!(s->combat.part[u] & P_SIDE(side)) || !s_on(s, (int)u) || f->of[u] < 0) continue;
        int seen = 0;
        for (int i = 0; i < n; i++)
            if (f->of[rep[i]] == f->of[u]) seen = 1;
        if (!seen) rep[n++] = (int16_t)u;
    }
    return n;
}

/* the highest rank of a General attached to the side's participating Formations, 0 none */
static int s_side_rank(const wem_state *s, const wem_formations *f, int side) {
    int16_t rep[WEM_MAX_PIECES];
    int n = s_side_fmns(s, f, side, rep), best = 0;
    for (int i = 0; i < n; i++) {
        int g = wem_gen_of_formation(s, f, rep[i]);
        if (g >= 0 && wem_gen_rank(s, g) > best) best = wem_gen_rank(s, g);
    }
    return best;
}

/* [Result of Combat] the modifiers but the General's */
static int s_result_mods(const wem_state *s, int side) {
    int m = s->combat.terrain[side];
    int rc = wem_param_get(s->sc, "result-class", WEM_RECRUIT), poor = 0;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if ((s->combat.part[u] & P_SIDE(side)) && s->sc->units[u].cls >= rc) poor = 1;
    }
    /* R-wem-result-yellows: the enemy's Units routed, shaken or withdrawn in this combat (those
     * that withdrew with a friend or could not withdraw count too), the highest per Unit */
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (s_side(s, (int)u) == side || s->units[u].status == WEM_NOT_ENTERED) continue;
        int y = s->units[u].yellow, y0 = s->combat.yellow0[u];
        if (y >= 2 && y0 < 2) m += 3;
        else if (y > y0) m += 2;
        else if (s->units[u].withdrew && !s->combat.withdrew0[u]) m += 1;
    }
    return m - poor;
}

/* E ends: 2 orange markers, artillery fastens, the attached Generals' rolls; everyone fought */
static void s_finish(wem_state *s, int result, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    wem_formations f;
    wem_formations_find(s, &f);
    uint8_t fm[WEM_MAX_PIECES];
    memset(fm, 0, sizeof fm);
    for (size_t u = 0; u < sc->n_units; u++)
        if ((s->combat.part[u] & (P_SIDE(0) | P_SIDE(1))) && s_on(s, (int)u) && f.of[u] >= 0) fm[f.of[u]] = 1;
    for (size_t u = 0; result && u < sc->n_units; u++) {
        if (!s_on(s, (int)u) || f.of[u] < 0 || !fm[f.of[u]]) continue;
        s->units[u].orange = 2; /* "All Formations participating ... receive 2 orange markers" */
        s->units[u].green = 0;  /* [Colored Markers] orange removes green */
        if ((s->combat.part[u] & (P_SIDE(0) | P_SIDE(1))) && s_is_art(s, (int)u) && !s->units[u].fastened) {
            s->units[u].fastened = 1; /* "Artillery Units that participated in the combat must fasten" */
            s->units[u].fastened_turn = 1;
        }
    }
    if (result)
        wem_event(s, ev, BRT_SEATS_ALL, "combat-orange", -1, -1, -1, 2, NULL, 0, NULL, 0,
                  "[Result of Combat] all the Formations that participated receive 2 orange markers");
    /* [Attaching] "If the Unit, to which a General is attached, ... participates in combat" */
    for (size_t g = 0; g < sc->n_generals && !s->over; g++) {
        int a = s->generals[g].attached;
        if (s->generals[g].status != WEM_ON || a < 0 || (size_t)a >= sc->n_units) continue;
        if (f.of[a] < 0 || !fm[f.of[a]]) continue;
        s->generals[g].markers = 0; /* his markers go back to the reserve */
        wem_gen_attached_check(s, (int)g, a, s_enemy(sc->generals[g].army, s->combat.att_army) ? s->combat.att_army
                                                                                             : s->combat.def_army,
                               dice, ev);
    }
    s->combat.stage = WEM_CS_E_GEN;
}

/* [Capture of a General] "If an unattached General participates in the melee": an unattached
 * General whose counter touches an enemy Unit in the combat rolls (R-wem-general-in-melee); the
 * next one, or -1, and the enemy unit he touches */
static int s_gen_in_melee(const wem_state *s, int *enemy) {
    const wem_scenario *sc = s->sc;
    for (size_t g = 0; g < sc->n_generals && g < 32; g++) {
        if (s->generals[g].status != WEM_ON || s->generals[g].attached >= 0 || (s->combat.gen_done & (1u << g)))
            continue;
        for (size_t u = 0; u < sc->n_units; u++)
            if ((s->combat.part[u] & (P_SIDE(0) | P_SIDE(1))) && s_on(s, (int)u) &&
                s_enemy(sc->units[u].army, sc->generals[g].army) && s_gen_touch(s, (int)u, (int)g)) {
                *enemy = (int)u;
                return (int)g;
            }
    }
    return -1;
}

/* the combat is over: everyone in it has fought */
static void s_close(wem_state *s, brt_dice *dice, brt_events *ev) {
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (s->combat.part[u] & (P_SIDE(0) | P_SIDE(1))) s->units[u].fought = 1;
    s->combat.active = 0;
    s->combat.stage = WEM_CS_IDLE;
    s->combat.ask = WEM_ASK_NONE;
    if (s->over) return;
    s->phase = WEM_PH_COMBAT;
    if (!s_any_pair(s)) wem_step_done(s, dice, ev);
}

/* [The Garrisons] "All of the enemy Formations still in contact with a Garrison at the end of the
 * melee must Withdraw 1": every Unit of each such Formation, not only the Units touching it
 * (R-wem-garrison-formation-withdraw); the Units furthest from the Garrison go first, so that a
 * Formation in column slides back whole, each Unit 1 unit of measurement */
static void s_garrison_withdraw(wem_state *s, int gsn, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    wem_formations f;
    wem_formations_find(s, &f);
    int16_t set[WEM_MAX_PIECES];
    int64_t far[WEM_MAX_PIECES];
    int n = 0;
    for (size_t e = 0; e < sc->n_units; e++) {
        if (!s_on(s, (int)e) || !s_enemy(sc->units[e].army, sc->units[gsn].army) || !s_touch(s, (int)e, gsn)) continue;
        wem_event(s, ev, BRT_SEATS_ALL, "garrison-withdraw", sc->units[e].army, (int)e, gsn, 1, NULL, 0, NULL, 0,
                  "[The Garrisons] %s is still in contact with %s: its Formation must Withdraw 1", s_id(s, (int)e),
                  s_id(s, gsn));
        int16_t mem[WEM_MAX_PIECES];
        int m = f.of[e] >= 0 ? wem_formation_units(&f, f.of[e], mem) : 0;
        if (m == 0) mem[m++] = (int16_t)e;
        for (int j = 0; j < m; j++) {
            int seen = 0;
            for (int i = 0; i < n; i++)
                if (set[i] == mem[j]) seen = 1;
            if (seen || !s_on(s, mem[j]) || n >= WEM_MAX_PIECES) continue;
            int64_t dx = (int64_t)s->units[mem[j]].at.x - s->units[gsn].at.x;
            int64_t dy = (int64_t)s->units[mem[j]].at.y - s->units[gsn].at.y;
            far[n] = dx * dx + dy * dy;
            set[n++] = mem[j];
        }
    }
    for (int i = 1; i < n; i++) /* furthest first (stable) */
        for (int j = i; j > 0 && far[j] > far[j - 1]; j--) {
            int16_t tu = set[j];
            set[j] = set[j - 1];
            set[j - 1] = tu;
            int64_t tf = far[j];
            far[j] = far[j - 1];
            far[j - 1] = tf;
        }
    for (int i = 0; i < n; i++)
        if (s_on(s, set[i])) wem_withdraw(s, set[i], WEM_UOM, gsn, ev);
}

static void s_drive(wem_state *s, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    wem_combat *c = &s->combat;
    for (;;) {
        if (s->over) return;
        switch (c->stage) {
        case WEM_CS_M_BEGIN: {
            if (!s_on(s, c->att) || !s_on(s, c->def)) {
                s_next_step(s);
                break;
            }
            int corner = 0;
            int sides = s_sides(s, c->def, c->att, &corner);
            c->side_hit = (uint8_t)((sides & WEM_SIDE_FRONT) ? WEM_SIDE_FRONT : sides & -sides);
            c->stage = WEM_CS_M_ROLL;
            /* "if the melee Units are in contact exactly on the corner ... the defensive player
             * decides the sides" */
            if (corner && s_kind(s, c->def) != WEM_GARRISON && (sides & (sides - 1))) {
                s_ask(s, WEM_ASK_CORNER, !c->side_att);
                return;
            }
            break;
        }
        case WEM_CS_M_ROLL: {
            wem_formations f;
            wem_formations_find(s, &f);
            int A = c->att, D = c->def, sa = c->side_att;
            /* "if a Unit is Charged on its flanks it is then considered temporarily Shaken" */
            if (((s->units[A].charged && (c->side_hit & (WEM_SIDE_LEFT | WEM_SIDE_RIGHT))) ||
                 s->units[D].charge_flank || s->units[D].charge_bridge) &&
                !s->units[D].yellow && s_kind(s, D) != WEM_GARRISON)
                c->part[D] |= P_TEMPSHAKEN;
            /* [Bridge] "Units in a Formation that executes a Charge maneuver across the Bridge are
             * temporarily Shaken" */
            if (s->units[A].charge_bridge && !s->units[A].yellow) c->part[A] |= P_TEMPSHAKEN;
            char wa[160], wd[160];
            c->mod[sa] = (int8_t)s_mmod(s, &f, A, D, 1, sa, wa, sizeof wa);
            c->mod[!sa] = (int8_t)s_mmod(s, &f, D, A, 0, !sa, wd, sizeof wd);
            c->die[sa] = (int8_t)wem_d6(dice, "[Melee] the attacker's die");
            c->die[!sa] = (int8_t)wem_d6(dice, "[Melee] the defender's die");
            int dd[2] = {c->die[sa], c->die[!sa]};
            wem_event(s, ev, BRT_SEATS_ALL, "melee", sc->units[A].army, A, D, c->melee_step, dd, 2, NULL, 0,
                      "[Melee] step %c: %s rolls %d%s, %s rolls %d%s", c->melee_step, s_id(s, A), dd[0], wa, s_id(s, D),
                      dd[1], wd);
            /* "If there is a [class] among the Units involved in the melee, its controlling
             * player can choose to reroll the die" (R-wem-melee-reroll) */
            c->reroll_ask = 0;
            int rc = wem_param_get(sc, "reroll-class", WEM_GUARD);
            for (size_t u = 0; u < sc->n_units; u++)
                if ((c->part[u] & (P_SIDE(0) | P_SIDE(1))) && s_on(s, (int)u) && sc->units[u].cls <= rc &&
                    ((int)u == A || (int)u == D || (c->part[u] & P_SUPPORT)))
                    c->reroll_ask |= (uint8_t)P_SIDE(s_side(s, (int)u));
            c->stage = WEM_CS_M_REROLL;
            break;
        }
        case WEM_CS_M_REROLL: {
            int sa = c->side_att;
            if (c->reroll_ask & P_SIDE(sa)) {
                s_ask(s, WEM_ASK_REROLL, sa);
                return;
            }
            if (c->reroll_ask & P_SIDE(!sa)) {
                s_ask(s, WEM_ASK_REROLL, !sa);
                return;
            }
            c->stage = WEM_CS_M_EFFECT;
            break;
        }
        case WEM_CS_M_EFFECT: {
            int f0 = c->die[0] + c->mod[0], f1 = c->die[1] + c->mod[1];
            int dd[2] = {f0, f1};
            wem_event(s, ev, BRT_SEATS_ALL, "melee-result", -1, c->att, c->def, f0 - f1, dd, 2, NULL, 0,
                      "[Melee] the attacker's side %d, the defender's side %d", f0, f1);
            if (f0 != f1) {
                int ls = f0 < f1 ? 0 : 1;
                c->loser = (uint8_t)ls;
                c->diff = (uint8_t)(f0 < f1 ? f1 - f0 : f0 - f1);
                s_effect(s, s_melee_unit(s, ls), s_melee_unit(s, !ls), c->diff, ev);
            }
            c->stage = WEM_CS_M_DAMAGE;
            break;
        }
        case WEM_CS_M_DAMAGE: {
            /* "Each player that participated in the melee must roll 1 die for each enemy Unit
             * participating in the combat" */
            int lo = wem_param_get(sc, "melee-loss-lo", 5), hi = wem_param_get(sc, "melee-loss-hi", 6);
            for (int side = 0; side < 2; side++) {
                int n = s_part_all(s, !side), k = 0, dd[16], nd = 0;
                for (int i = 0; i < n; i++) {
                    int d = wem_d6(dice, "[Suffer Damages (melee)] 1 die per enemy Unit");
                    if (nd < 16) dd[nd++] = d;
                    if (d >= lo && d <= hi) k++;
                }
                c->loss_n[side] = (uint8_t)k;
                wem_event(s, ev, BRT_SEATS_ALL, "melee-damage", s_side_army(s, side), -1, -1, k, dd, nd, NULL, 0,
                          "[Suffer Damages (melee)] %d dice: %d Loss%s", n, k, k == 1 ? "" : "es");
            }
            c->stage = WEM_CS_M_LOSS;
            break;
        }
        case WEM_CS_M_LOSS: {
            int sa = c->side_att, asked = 0;
            for (int k = 0; k < 2 && !asked; k++) {
                int side = k ? !sa : sa;
                if (!c->loss_n[side]) continue;
                int16_t p[WEM_MAX_PIECES];
                int n = s_part(s, side, p), total = s_loss_total(s, side);
                int cap = 0;
                for (int i = 0; i < n; i++) cap += s_cap_left(s, p[i]);
                if (total == 0) {
                    c->loss_n[side] = 0;
                } else if (n == 1 || total == cap) {
                    /* no choice: one Unit, or every Unit reaches its capacity */
                    int32_t v[WEM_MAX_PIECES];
                    for (int i = 0; i < n; i++) v[i] = n == 1 ? total : s_cap_left(s, p[i]);
                    s_loss_apply(s, side, p, v, n, ev);
                } else {
                    s->phase = WEM_PH_LOSSES;
                    c->ask = WEM_ASK_NONE;
                    c->ask_army = (uint8_t)s_side_army(s, side);
                    asked = 1;
                }
            }
            if (asked || s->over) return;
            c->stage = WEM_CS_M_PURSUIT;
            break;
        }
        case WEM_CS_M_PURSUIT: {
            /* "Pursuit Opportunity (except in Step D. Defense Reinforcements)" */
            if (c->loser == 2 || c->diff < 2 || c->melee_step == 'D' || !s_pursuit_types(s, !c->loser)) {
                s_next_step(s);
                break;
            }
            s_ask(s, WEM_ASK_PURSUIT, !c->loser);
            return;
        }
        case WEM_CS_M_PMOD:
            s_ask(s, WEM_ASK_PURSUIT_MOD, !c->loser);
            return;
        case WEM_CS_M_PROLL:
            s_ask(s, WEM_ASK_PURSUIT_CHARGE, !c->loser);
            return;
        case WEM_CS_NEXT: s_next_step(s); break;
        case WEM_CS_B: {
            int a = c->starter[0], d = c->starter[1];
            c->stage = WEM_CS_C;
            /* [3.4 B] "if allowed, the defensive player can choose to melee a second time": his
             * Unit still in contact through its front, and not withdrawn [Withdraw] */
            if (s_on(s, a) && s_on(s, d) && !s->units[d].withdrew && !(c->part[d] & P_WITHDREW) &&
                s_front_touches(s, d, a)) {
                s_ask(s, WEM_ASK_COUNTER, 1);
                return;
            }
            break;
        }
        case WEM_CS_C:
            c->stage = WEM_CS_D;
            c->step = 'C';
            if (s_any_reinforcer(s, 0)) {
                s_ask(s, WEM_ASK_REINFORCE, 0);
                return;
            }
            break;
        case WEM_CS_D:
            c->stage = WEM_CS_E_ROLL;
            c->step = 'D';
            if (s_any_reinforcer(s, 1)) {
                s_ask(s, WEM_ASK_REINFORCE, 1);
                return;
            }
            break;
        case WEM_CS_E_ROLL: {
            c->step = 'E';
            if (s_has_garrison(s)) {
                /* [The Garrisons] "Combats involving Garrisons ignore the Result phase. All of the
                 * enemy Formations still in contact with a Garrison at the end of the melee must
                 * Withdraw 1." */
                for (size_t gsn = 0; gsn < sc->n_units; gsn++) {
                    if (!(c->part[gsn] & (P_SIDE(0) | P_SIDE(1))) || !wem_garrison(s, (int)gsn) || !s_on(s, (int)gsn))
                        continue;
                    s_garrison_withdraw(s, (int)gsn, ev);
                }
                s_finish(s, 0, dice, ev);
                break;
            }
            wem_formations f;
            wem_formations_find(s, &f);
            for (int side = 0; side < 2; side++) {
                int16_t rep[WEM_MAX_PIECES];
                int n = s_side_fmns(s, &f, side, rep);
                if (n > 8) n = 8;
                int dd[8];
                for (int i = 0; i < n; i++) dd[i] = c->rdice[side][i] = (int8_t)wem_d6(dice, "[Result of Combat] 1 die per Formation");
                c->rn[side] = (uint8_t)n;
                c->rkeep[side] = n ? c->rdice[side][0] : 0;
                c->rsign[side] = 1;
                wem_event(s, ev, BRT_SEATS_ALL, "result-dice", s_side_army(s, side), -1, -1, n, dd, n, NULL, 0,
                          "[Result of Combat] %d dice, one per Formation that participated", n);
            }
            c->value[0] = 0; /* bits: sides that chose their die */
            c->value[1] = 0; /* bits: sides that chose the sign of their General's rank */
            c->stage = WEM_CS_E_DIE;
            break;
        }
        case WEM_CS_E_DIE: {
            int asked = 0;
            for (int side = 0; side < 2 && !asked; side++) {
                if (c->value[0] & (1 << side)) continue;
                int diff = 0;
                for (int i = 1; i < c->rn[side]; i++)
                    if (c->rdice[side][i] != c->rdice[side][0]) diff = 1;
                if (!diff) {
                    c->value[0] |= 1 << side;
                    continue;
                }
                s_ask(s, WEM_ASK_RESULT_DIE, side);
                asked = 1;
            }
            if (asked) return;
            c->stage = WEM_CS_E_MOD;
            break;
        }
        case WEM_CS_E_MOD: {
            wem_formations f;
            wem_formations_find(s, &f);
            int asked = 0;
            for (int side = 0; side < 2 && !asked; side++) {
                if ((c->value[1] & (1 << side)) || !s_side_rank(s, &f, side)) {
                    c->value[1] |= 1 << side;
                    continue;
                }
                s_ask(s, WEM_ASK_RESULT_MOD, side);
                asked = 1;
            }
            if (asked) return;
            c->stage = WEM_CS_E_APPLY;
            break;
        }
        case WEM_CS_E_APPLY: {
            wem_formations f;
            wem_formations_find(s, &f);
            int tot[2];
            for (int side = 0; side < 2; side++)
                tot[side] = c->rkeep[side] + c->rsign[side] * s_side_rank(s, &f, side) + s_result_mods(s, side);
            /* "the player with the highest final result (or the current player if it is a draw)
             * subtracts the final result of the other player" */
            int cur = wem_cur_army(s);
            int win = tot[0] > tot[1] ? 0 : tot[1] > tot[0] ? 1 : s_army_side(s, cur);
            int diff = tot[win] - tot[!win];
            int fb = (diff + 1) / 2; /* "halved (rounded up)" */
            c->value[2] = !win;
            c->value[3] = fb;
            int dd[2] = {tot[0], tot[1]};
            wem_event(s, ev, BRT_SEATS_ALL, "combat-result", s_side_army(s, !win), -1, -1, fb, dd, 2, NULL, 0,
                      "[Result of Combat] %d against %d: the %s side must Fall Back %d", tot[0], tot[1],
                      win ? "attacking" : "defending", fb);
            if (fb > 0) {
                int16_t rep[WEM_MAX_PIECES];
                int n = s_side_fmns(s, &f, !win, rep);
                for (int i = 0; i < n && !s->over; i++) {
                    int16_t mem[WEM_MAX_PIECES];
                    int m = wem_formation_units(&f, f.of[rep[i]], mem);
                    wem_fall_back(s, rep[i], fb * WEM_UOM, ev);
                    if (fb >= 4) /* "the Units of the Formation are also Shaken ... (unless they already
                                  * have one, in which case they suffer a Loss)" */
                        for (int j = 0; j < m; j++) {
                            if (!s_on(s, mem[j])) continue;
                            if (s->units[mem[j]].yellow) wem_unit_loss(s, mem[j], 1, s_side_army(s, win), ev);
                            else wem_shake(s, mem[j], -1, ev);
                        }
                }
                c->stage = WEM_CS_E_FBLOSS;
            } else {
                c->stage = WEM_CS_E_END;
            }
            break;
        }
        case WEM_CS_E_FBLOSS: {
            /* "1 Unit (chosen by the player) per each Formation executing the Fall Back maneuver
             * suffers 1 Loss" */
            int ls = c->value[2];
            wem_formations f;
            wem_formations_find(s, &f);
            int asked = 0;
            for (size_t u = 0; u < sc->n_units && !asked && !s->over; u++) {
                if (!(c->part[u] & P_SIDE(ls)) || (c->part[u] & P_FBDONE) || !s_on(s, (int)u) || f.of[u] < 0) continue;
                int16_t mem[WEM_MAX_PIECES];
                int m = wem_formation_units(&f, f.of[u], mem), live = 0, only = -1;
                for (int j = 0; j < m; j++)
                    if (s_on(s, mem[j])) live++, only = mem[j];
                if (live <= 1) {
                    for (int j = 0; j < m; j++) c->part[mem[j]] |= P_FBDONE;
                    if (only >= 0) wem_unit_loss(s, only, 1, s_side_army(s, !ls), ev);
                    continue;
                }
                c->value[4] = (int32_t)u;
                s_ask(s, WEM_ASK_FB_LOSS, ls);
                asked = 1;
            }
            if (asked || s->over) return;
            c->stage = WEM_CS_E_END;
            break;
        }
        case WEM_CS_E_END: s_finish(s, 1, dice, ev); break;
        case WEM_CS_E_GEN: {
            int e = -1, g = s_gen_in_melee(s, &e);
            if (g < 0) {
                s_close(s, dice, ev);
                return;
            }
            c->gen_done |= 1u << g;
            if (wem_gen_capture_roll(s, g, e, dice, ev)) break;
            c->general = (int16_t)g;
            s->phase = WEM_PH_GENERAL_ESCAPE;
            return;
        }
        default: return;
        }
    }
}

/* ---- WEM_PH_COMBAT ---- */

static int s_start_general(wem_state *s, int a, int g, brt_dice *dice, brt_events *ev) {
    s->units[a].fought = 1;
    wem_event(s, ev, BRT_SEATS_ALL, "combat", s->sc->units[a].army, a, WEM_GEN_BASE + g, 0, NULL, 0, NULL, 0,
              "[Unattached Generals] %s attacks the unattached General %s", s_id(s, a), s_id(s, WEM_GEN_BASE + g));
    if (wem_gen_capture_roll(s, g, a, dice, ev)) {
        if (s->over) return 0;
        s->phase = WEM_PH_COMBAT;
        if (!s_any_pair(s)) wem_step_done(s, dice, ev);
        return 0;
    }
    s->combat.general = (int16_t)g;
    s->phase = WEM_PH_GENERAL_ESCAPE;
    return 0;
}

int wem_combat_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    (void)seat;
    if (o->kind == WEM_O_DONE) {
        if (s_any_pair(s))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat",
                                  "[3.4 Combat] \"Combat starts if enemy Units are in contact\": every contact must be "
                                  "fought");
        wem_step_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WEM_O_COMBAT)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.4 Combat", "[3.4 Combat] the order now is a combat");
    int a = o->unit, d = o->target;
    if (s_pair_check(s, a, d, err)) return -1;
    if (d >= WEM_GEN_BASE) return s_start_general(s, a, d - WEM_GEN_BASE, dice, ev);
    wem_combat *c = &s->combat;
    int army = s->sc->units[a].army;
    int16_t tied[WEM_MAX_PIECES];
    int nt = 0;
    s_best_len(s, army, d, tied, &nt);
    int in = 0;
    for (int i = 0; i < nt; i++)
        if (tied[i] == a) in = 1;
    if (!in)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Melee",
                              "[Melee] %s cannot start: the Unit with most contact length along the front is %s",
                              s_id(s, a), nt ? s_id(s, tied[0]) : "none");
    memset(c, 0, sizeof *c);
    c->active = 1;
    c->att_army = (uint8_t)army;
    c->def_army = s->sc->units[d].army;
    c->starter[0] = (int16_t)a;
    c->starter[1] = (int16_t)d;
    c->general = -1;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        c->yellow0[u] = s->units[u].yellow;
        c->withdrew0[u] = s->units[u].withdrew;
    }
    wem_event(s, ev, BRT_SEATS_ALL, "combat", army, a, d, 0, NULL, 0, NULL, 0, "[3.4 Combat] %s attacks %s",
              s_id(s, a), s_id(s, d));
    s_melee_start(s, a, d, 0, 'A');
    /* a tie in contact length: the attacking player chooses [Melee]; the current army chose by
     * naming it, an enemy attacker is asked */
    if (nt > 1 && army != wem_cur_army(s)) {
        c->value[5] = d;
        s_ask(s, WEM_ASK_STARTER, 0);
        return 0;
    }
    s_drive(s, dice, ev);
    return 0;
}

void wem_combat_pending(const wem_state *s, brt_pending *out) {
    out->seats = wem_army_mask(s, wem_cur_army(s));
    snprintf(out->kind, sizeof out->kind, "combat");
    snprintf(out->rule, sizeof out->rule, "3.4 Combat");
    snprintf(out->prompt, sizeof out->prompt, "pick the next combat: attacker and defender in contact");
}

/* the combats the current army may pick, in a fixed order: each attacker that has not fought,
 * each enemy it may fight (a Unit, or an unattached General), the attacker one of the Units with
 * the most front contact on that Unit [Melee]. From the pair after (*a, *d) on; 1 with o filled
 * and (*a, *d) at the pair found, 0 when there is none left. */
static int s_combat_next(const wem_state *s, size_t *a, size_t *d, wem_order *o) {
    const wem_scenario *sc = s->sc;
    for (; *a < sc->n_units; (*a)++, *d = 0) {
        if (!s_on(s, (int)*a) || s->units[*a].fought) continue;
        for (; *d < sc->n_units + sc->n_generals; (*d)++) {
            int t = *d < sc->n_units ? (int)*d : WEM_GEN_BASE + (int)(*d - sc->n_units);
            if (s_pair_check(s, (int)*a, t, NULL)) continue;
            if (t < WEM_GEN_BASE) {
                int16_t tied[WEM_MAX_PIECES];
                int nt = 0, in = 0;
                s_best_len(s, sc->units[*a].army, t, tied, &nt);
                for (int i = 0; i < nt; i++)
                    if (tied[i] == (int)*a) in = 1;
                if (!in) continue;
            }
            wem_order_init(o, WEM_O_COMBAT);
            o->unit = (int)*a;
            o->target = t;
            return 1;
        }
    }
    return 0;
}

int wem_combat_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int n = 0;
    wem_order o;
    for (size_t a = 0, d = 0; s_combat_next(s, &a, &d, &o); d++, n++)
        if (wem_legal_put(s, &o, out)) return -1;
    return n;
}

/* R-wem-timeout-combat: the clock of the current army ran out while it picks its combats: the
 * first combat legal() lists is fought (every contact must be fought anyway, in an order the
 * army did not give); with none left the subphase ends for it */
int wem_combat_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    size_t a = 0, d = 0;
    if (!s_combat_next(s, &a, &d, &o)) wem_order_init(&o, WEM_O_DONE);
    return wem_combat_apply(s, seat, &o, dice, ev, NULL);
}

/* ---- WEM_PH_MELEE_CHOICE ---- */

/* the maneuver of a Charge answer: units[0] the target, units[1] the guide, units[1..] the units
 * moving, values[0] the turn, values[1] the distance */
static int s_charge_order(const wem_order *o, wem_order *mo) {
    if (o->n_units < 2 || o->n_values < 2) return -1;
    wem_order_init(mo, WEM_O_MANEUVER);
    mo->value = WEM_MV_CHARGE;
    mo->target = o->units[0];
    mo->unit = o->units[1];
    mo->n_units = o->n_units - 1;
    memcpy(mo->units, o->units + 1, sizeof o->units[0] * (size_t)mo->n_units);
    mo->turn = o->values[0];
    mo->dist = o->values[1];
    return 0;
}

/* after a reinforcing Charge: the moving unit in contact with the most front length starts */
static int s_reinforce_starter(const wem_state *s, const wem_order *mo, int target) {
    int best = -1;
    int32_t len = -1;
    for (int i = 0; i < mo->n_units; i++) {
        int u = mo->units[i];
        if (!s_on(s, u) || !s_front_touches(s, u, target)) continue;
        int32_t l = s_front_len(s, u, target);
        if (l > len) len = l, best = u;
    }
    return best;
}

static int s_legal_charges(const wem_state *s, int side, int pursuit, int unit, int only, brt_buf *out);

/* [Pursuit] "all the Units of that type must resolve the Pursuit by executing the Charge maneuver
 * ... against the enemy Unit in Withdraw or, if this is not possible, against an enemy Unit in
 * Formation": the Pursuit Charges that may be made now by unit (-1: each pursuing Unit that has
 * not made its own yet), each Unit against the Unit in Withdraw when it can charge it, else
 * against any enemy Unit (R-wem-pursuit-mandatory, R-wem-pursuit-each-unit); *only the target
 * unit is limited to (unit >= 0), -1 any. The count, -1 on no memory; out may be NULL. */
static int s_pursuit_charges(const wem_state *s, int side, int unit, int *only, brt_buf *out) {
    const wem_combat *c = &s->combat;
    int w = c->withdrawn, total = 0;
    *only = -1;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if (unit >= 0 && (int)u != unit) continue;
        /* "Units of Formations in Recovery (marked in orange) cannot resolve a Pursuit" */
        if (!(c->part[u] & P_SIDE(side)) || !s_on(s, (int)u) || s_kind(s, (int)u) != c->pursuit_type ||
            c->pursued[u] || s->units[u].orange)
            continue;
        brt_buf b;
        buf_init(&b);
        int n = 0;
        if (w >= 0 && s_on(s, w)) {
            n = s_legal_charges(s, side, 1, (int)u, w, &b);
            if (n > 0 && unit >= 0) *only = w;
        }
        if (n == 0) {
            buf_free(&b);
            buf_init(&b);
            n = s_legal_charges(s, side, 1, (int)u, -1, &b);
        }
        if (n > 0 && out && buf_append(out, b.data, b.len)) n = -1;
        buf_free(&b);
        if (n < 0) return -1;
        total += n;
    }
    return total;
}

static int s_bad(brt_reject *err, const char *rule, const char *what) {
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, rule, "[%s] %s", rule, what);
}

int wem_melee_choice_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                           brt_reject *err) {
    (void)seat;
    wem_combat *c = &s->combat;
    const wem_scenario *sc = s->sc;
    if (o->kind != WEM_O_ANSWER) return s_bad(err, "3.4 Combat", "the order now is an answer");
    int side = s_army_side(s, c->ask_army), v = o->value;
    switch (c->ask) {
    case WEM_ASK_STARTER: {
        int16_t tied[WEM_MAX_PIECES];
        int nt = 0, in = 0;
        s_best_len(s, c->att_army, c->starter[1], tied, &nt);
        for (int i = 0; o->n_units == 1 && i < nt; i++)
            if (tied[i] == o->units[0]) in = 1;
        if (!in) return s_bad(err, "Melee", "name one of the Units with most contact length along the front");
        c->part[c->starter[0]] = 0;
        c->starter[0] = o->units[0];
        s_melee_start(s, o->units[0], c->starter[1], 0, 'A');
        break;
    }
    case WEM_ASK_CORNER: {
        int sides = s_sides(s, c->def, c->att, NULL);
        if (v <= 0 || (v & (v - 1)) || !(v & sides))
            return s_bad(err, "Melee", "the defensive player decides the side touched: one of the sides in contact");
        c->side_hit = (uint8_t)v;
        c->stage = WEM_CS_M_ROLL;
        break;
    }
    case WEM_ASK_REROLL:
        if (v != 0 && v != 1) return s_bad(err, "Melee", "answer 1 to reroll the die, 0 to keep it");
        c->reroll_ask &= (uint8_t)~P_SIDE(side);
        if (v) {
            int old = c->die[side];
            c->die[side] = (int8_t)wem_d6(dice, "[Melee] the reroll");
            c->rerolled[side] = 1;
            int dd[2] = {old, c->die[side]};
            wem_event(s, ev, BRT_SEATS_ALL, "melee-reroll", c->ask_army, s_melee_unit(s, side), -1, c->die[side], dd, 2,
                      NULL, 0, "[Melee] %s rerolls %d: %d (the second result cannot be changed)",
                      s_id(s, s_melee_unit(s, side)), old, c->die[side]);
        }
        break;
    case WEM_ASK_COUNTER:
        if (v != 0 && v != 1) return s_bad(err, "3.4 Combat", "answer 1 to counterattack, 0 not");
        if (v) {
            wem_event(s, ev, BRT_SEATS_ALL, "counterattack", c->def_army, c->starter[1], c->starter[0], 1, NULL, 0,
                      NULL, 0, "[3.4 Combat B. Counterattack] %s counterattacks %s", s_id(s, c->starter[1]),
                      s_id(s, c->starter[0]));
            s_melee_start(s, c->starter[1], c->starter[0], 1, 'B');
        } else {
            c->stage = WEM_CS_C;
        }
        break;
    case WEM_ASK_REINFORCE: {
        if (v == 0) break; /* the stage already moved on */
        wem_order mo;
        if (v != 1 || s_charge_order(o, &mo))
            return s_bad(err, "3.4 Combat", "answer 0, or 1 with units target, guide, ... and values turn, distance");
        int tgt = mo.target, t2 = -1;
        if (tgt < 0 || tgt >= WEM_GEN_BASE || !s_on(s, tgt) || !(c->part[tgt] & P_SIDE(!side)))
            return s_bad(err, "3.4 Combat", "the Charge of a reinforcement is against a Unit in the combat");
        wem_formations rf;
        wem_formations_find(s, &rf);
        for (int i = 0; i < mo.n_units; i++)
            if (mo.units[i] >= WEM_GEN_BASE || !s_reinforcer(s, &rf, side, mo.units[i], &t2))
                return s_bad(err, "3.4 Combat",
                             "only Formations without an orange marker occupying the area of engagement of a Unit in "
                             "the combat may Charge");
        wem_state *twin = wem_state_clone(s);
        if (!twin) return s_bad(err, "3.4 Combat", "out of memory");
        int rc = wem_maneuver_exec(twin, &mo, -1, WEM_MVF_NO_GREEN | WEM_MVF_DRY, NULL, NULL, err);
        wem_state_destroy(&twin);
        if (rc) return -1;
        if (wem_maneuver_exec(s, &mo, -1, WEM_MVF_NO_GREEN, dice, ev, err)) return -1;
        int st = s_reinforce_starter(s, &mo, tgt);
        if (st >= 0) {
            if (side) s_melee_start(s, st, tgt, 1, 'D');
            else s_melee_start(s, st, tgt, 0, 'C');
        }
        break;
    }
    case WEM_ASK_PURSUIT: {
        /* R-wem-pursuit-due: "The player must decide from among the type of Units that
         * participated in the melee ... and roll 1 die" */
        unsigned types = s_pursuit_types(s, side);
        if (v == 0 && !types) {
            c->stage = WEM_CS_NEXT;
            break;
        }
        int k = v - 1;
        if ((k != WEM_INF && k != WEM_CAV) || !(types & (1u << k)))
            return s_bad(err, "Pursuit",
                         "the player must decide from among the type of Units that participated (1 infantry, 2 "
                         "cavalry; not artillery, not in Recovery) and roll the die");
        c->pursuit_types |= (uint8_t)(1u << k);
        c->pursuit_type = (uint8_t)k;
        memset(c->pursued, 0, sizeof c->pursued); /* each Unit of this type makes its own Charge */
        /* "if the Unit is still in contact with the enemy Unit that executed a Withdraw after the
         * melee, then the Pursuit opportunity against this Unit resolves in an automatic success" */
        int autos = 0, w = c->withdrawn;
        int16_t p[WEM_MAX_PIECES];
        int n = s_part(s, side, p);
        for (int i = 0; i < n && w >= 0 && s_on(s, w); i++)
            if (s_kind(s, p[i]) == k && s_touch(s, p[i], w)) autos = 1;
        if (autos) {
            wem_event(s, ev, BRT_SEATS_ALL, "pursuit", c->ask_army, -1, w, 1, NULL, 0, NULL, 0,
                      "[Pursuit] still in contact with %s: an automatic success", s_id(s, w));
            c->stage = WEM_CS_M_PROLL;
            break;
        }
        int d = wem_d6(dice, "[Pursuit] the Pursuit die");
        int m = s_pursuit_mods(s, side, k, c->pursuit_opt, &c->pursuit_nopt);
        c->pursuit_die = (int8_t)(d + m);
        wem_event(s, ev, BRT_SEATS_ALL, "pursuit-roll", c->ask_army, -1, w, d + m, &d, 1, NULL, 0,
                  "[Pursuit] %s: %d%+d", k == WEM_CAV ? "cavalry" : "infantry", d, m);
        c->stage = c->pursuit_nopt ? WEM_CS_M_PMOD : WEM_CS_M_PROLL;
        if (!c->pursuit_nopt) {
            int lo = wem_param_get(sc, "pursuit-lo", 5), hi = wem_param_get(sc, "pursuit-hi", 6);
            if (c->pursuit_die < lo || c->pursuit_die > hi) c->stage = WEM_CS_M_PURSUIT; /* failed: the other type */
        }
        break;
    }
    case WEM_ASK_PURSUIT_MOD: {
        if (o->n_values != c->pursuit_nopt) return s_bad(err, "Pursuit die modifiers", "one +1 or -1 per modifier");
        int t = c->pursuit_die;
        for (int i = 0; i < o->n_values; i++) {
            if (o->values[i] != 1 && o->values[i] != -1)
                return s_bad(err, "Pursuit die modifiers", "each modifier is +1 (added) or -1 (subtracted)");
            t += o->values[i] * c->pursuit_opt[i];
        }
        c->pursuit_die = (int8_t)t;
        int lo = wem_param_get(sc, "pursuit-lo", 5), hi = wem_param_get(sc, "pursuit-hi", 6);
        int ok = t >= lo && t <= hi;
        wem_event(s, ev, BRT_SEATS_ALL, "pursuit", c->ask_army, -1, c->withdrawn, ok, NULL, 0, NULL, 0,
                  "[Pursuit] final %d: %s", t, ok ? "success" : "no Pursuit");
        c->stage = ok ? WEM_CS_M_PROLL : WEM_CS_M_PURSUIT;
        break;
    }
    case WEM_ASK_PURSUIT_CHARGE: {
        int only = -1, np = s_pursuit_charges(s, side, -1, &only, NULL);
        if (np < 0) return s_bad(err, "Pursuit", "out of memory");
        if (v == 0) { /* R-wem-pursuit-no-charge */
            if (np > 0)
                return s_bad(err, "Pursuit",
                             "the Units of that type must resolve the Pursuit by executing the Charge maneuver: one "
                             "can be made");
            c->stage = WEM_CS_M_PURSUIT; /* then the other type, if any */
            break;
        }
        wem_order mo;
        if (v != 1 || s_charge_order(o, &mo)) return s_bad(err, "Pursuit", "answer 0, or 1 with a Charge");
        int k = c->pursuit_type;
        /* R-wem-pursuit-each-unit: "all the Units of that type": each its own Charge, one after the other */
        if (mo.n_units != 1)
            return s_bad(err, "Pursuit", "all the Units of that type execute the Charge: one Unit at a time");
        for (int i = 0; i < mo.n_units; i++)
            if (mo.units[i] < 0 || (size_t)mo.units[i] >= sc->n_units || !(c->part[mo.units[i]] & P_SIDE(side)) || s_kind(s, mo.units[i]) != k)
                return s_bad(err, "Pursuit", "the Units of the type pursuing execute the Charge");
        if (c->pursued[mo.unit]) return s_bad(err, "Pursuit", "this Unit has already made its Pursuit Charge");
        if (s->units[mo.unit].orange)
            return s_bad(err, "Pursuit", "Units of Formations in Recovery (marked in orange) cannot resolve a Pursuit");
        if (s_pursuit_charges(s, side, mo.unit, &only, NULL) < 0) return s_bad(err, "Pursuit", "out of memory");
        if (only >= 0 && mo.target != only)
            return s_bad(err, "Pursuit", "the Charge is against the enemy Unit in Withdraw: it can be made");
        if (mo.target < 0 || mo.target >= WEM_GEN_BASE || !s_on(s, mo.target) ||
            !s_enemy(sc->units[mo.target].army, c->ask_army))
            return s_bad(err, "Pursuit", "the Charge is against an enemy Unit");
        if (k == WEM_INF && s_kind(s, mo.target) == WEM_CAV)
            return s_bad(err, "Pursuit", "Infantry Units execute a Charge 1, except against Cavalry Units");
        int32_t allow = k == WEM_CAV ? 2 * WEM_UOM : WEM_UOM;
        unsigned fl = WEM_MVF_NO_GREEN | (k == WEM_CAV ? WEM_MVF_PURSUIT : 0);
        wem_state *twin = wem_state_clone(s);
        if (!twin) return s_bad(err, "Pursuit", "out of memory");
        int rc = wem_maneuver_exec(twin, &mo, allow, fl | WEM_MVF_DRY, NULL, NULL, err);
        wem_state_destroy(&twin);
        if (rc || wem_maneuver_exec(s, &mo, allow, fl, dice, ev, err)) return -1;
        c->pursued[mo.unit] = 1;
        /* the next Unit of the type, if any can still charge (a Unit that cannot is passed) */
        np = s_pursuit_charges(s, side, -1, &only, NULL);
        c->stage = np > 0 ? WEM_CS_M_PROLL : WEM_CS_M_PURSUIT;
        break;
    }
    case WEM_ASK_RESULT_DIE:
        if (v < 0 || v >= c->rn[side]) return s_bad(err, "Result of Combat", "choose one of the dice rolled (its index)");
        c->rkeep[side] = c->rdice[side][v];
        c->value[0] |= 1 << side;
        break;
    case WEM_ASK_RESULT_MOD:
        if (v != 1 && v != -1)
            return s_bad(err, "Result of Combat", "+1 adds the attached General's rank, -1 subtracts it");
        c->rsign[side] = (int8_t)v;
        c->value[1] |= 1 << side;
        break;
    case WEM_ASK_FB_LOSS: {
        wem_formations f;
        wem_formations_find(s, &f);
        int u0 = c->value[4];
        if (o->n_units != 1 || o->units[0] >= WEM_GEN_BASE || !s_on(s, o->units[0]) || f.of[o->units[0]] != f.of[u0])
            return s_bad(err, "Result of Combat", "name 1 Unit of the Formation to suffer its Loss");
        int16_t mem[WEM_MAX_PIECES];
        int m = wem_formation_units(&f, f.of[u0], mem);
        for (int j = 0; j < m; j++) c->part[mem[j]] |= P_FBDONE;
        wem_unit_loss(s, o->units[0], 1, s_side_army(s, !side), ev);
        break;
    }
    default: return s_bad(err, "3.4 Combat", "nothing is asked");
    }
    c->ask = WEM_ASK_NONE;
    s_drive(s, dice, ev);
    return 0;
}

void wem_melee_choice_pending(const wem_state *s, brt_pending *out) {
    const wem_combat *c = &s->combat;
    out->seats = wem_army_mask(s, c->ask_army);
    snprintf(out->kind, sizeof out->kind, "%s", wem_ask_kind(c->ask));
    const char *rule = "Melee", *p = "";
    switch (c->ask) {
    case WEM_ASK_STARTER: p = "name the Unit to start the combat (a tie in contact length)"; break;
    case WEM_ASK_CORNER: p = "contact exactly on a corner: the side of your Unit touched (1 front 2 right 4 rear 8 left)"; break;
    case WEM_ASK_REROLL: p = "1 reroll your melee die, 0 keep it"; break;
    case WEM_ASK_COUNTER: rule = "3.4 Combat"; p = "1 counterattack (melee again, roles swapped), 0 not"; break;
    case WEM_ASK_REINFORCE: rule = "3.4 Combat"; p = "0, or 1 with a reinforcing Charge (units: target, guide, ...; values: turn, distance)"; break;
    case WEM_ASK_PURSUIT: rule = "Pursuit"; p = "the type of Units to pursue with first (1 infantry, 2 cavalry)"; break;
    case WEM_ASK_PURSUIT_MOD: rule = "Pursuit die modifiers"; p = "+1 or -1 for each modifier as you want"; break;
    case WEM_ASK_PURSUIT_CHARGE: rule = "Pursuit"; p = "1 with the Pursuit Charge (units: target, guide, ...; values: turn, distance), or 0 if none is possible"; break;
    case WEM_ASK_RESULT_DIE: rule = "Result of Combat"; p = "the die you keep (its index)"; break;
    case WEM_ASK_RESULT_MOD: rule = "Result of Combat"; p = "+1 add your attached General's rank, -1 subtract it"; break;
    case WEM_ASK_FB_LOSS: rule = "Result of Combat"; p = "the Unit of the Formation falling back that suffers 1 Loss"; break;
    default: break;
    }
    snprintf(out->rule, sizeof out->rule, "%s", rule);
    /* the melee in progress, for people: "B12 against R4: ..." */
    snprintf(out->prompt, sizeof out->prompt, "%s against %s: %s", s_id(s, c->att), s_id(s, c->def), p);
}

static int s_put_value(const wem_state *s, int v, brt_buf *out) {
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    o.value = v;
    return wem_legal_put(s, &o, out);
}

/* the turn (steps, a quarter turn at most, in 5 degree steps) that best faces unit u toward t */
static int32_t s_aim(const wem_state *s, int u, int t) {
    int64_t dx = (int64_t)s->units[t].at.x - s->units[u].at.x, dy = (int64_t)s->units[t].at.y - s->units[u].at.y;
    int32_t best = 0;
    int64_t bd = INT64_MIN;
    for (int32_t dh = -900; dh <= 900; dh += 50) {
        int32_t h = wem_g_norm((int64_t)s->units[u].h + dh);
        int64_t dot = dx * wem_g_sin(h) - dy * wem_g_cos(h); /* heading h points along (sin, -cos) */
        if (dot > bd) bd = dot, best = dh;
    }
    return best;
}

/* the reinforcing / pursuing Charges listed: each candidate alone, straight ahead to contact
 * with a target, when maneuver.c accepts it (a representative list; apply takes any) */
static int s_legal_charges(const wem_state *s, int side, int pursuit, int unit, int only, brt_buf *out) {
    const wem_scenario *sc = s->sc;
    const wem_combat *c = &s->combat;
    int n = 0;
    wem_formations f;
    wem_formations_find(s, &f);
    for (size_t u = 0; u < sc->n_units; u++) {
        if (pursuit) {
            if (!(c->part[u] & P_SIDE(side)) || !s_on(s, (int)u) || s_kind(s, (int)u) != c->pursuit_type) continue;
            if (c->pursued[u] || (unit >= 0 && (int)u != unit)) continue;
        } else if (!s_reinforcer(s, &f, side, (int)u, NULL)) {
            continue;
        }
        for (size_t t = 0; t < sc->n_units; t++) {
            if (!s_on(s, (int)t) || !s_enemy(sc->units[t].army, sc->units[u].army)) continue;
            if (only >= 0 && (int)t != only) continue;
            if (!pursuit && !(c->part[t] & P_SIDE(!side))) continue;
            if (pursuit && c->pursuit_type == WEM_INF && s_kind(s, (int)t) == WEM_CAV) continue;
            int32_t allow = pursuit ? (c->pursuit_type == WEM_CAV ? 2 * WEM_UOM : WEM_UOM) : 4 * WEM_UOM;
            int32_t turns[2] = {0, s_aim(s, (int)u, (int)t)};
            for (int k = 0; k < (turns[1] ? 2 : 1); k++) {
                /* the distance is the maneuver's: a Charge goes until contact along its ruler */
                wem_order o, mo;
                wem_order_init(&o, WEM_O_ANSWER);
                o.value = 1;
                o.n_units = 2;
                o.units[0] = (int16_t)t;
                o.units[1] = (int16_t)u;
                o.n_values = 2;
                o.values[0] = turns[k];
                o.values[1] = allow;
                s_charge_order(&o, &mo);
                wem_state *twin = wem_state_clone(s);
                if (!twin) return -1;
                brt_reject err;
                unsigned fl =
                    WEM_MVF_NO_GREEN | WEM_MVF_DRY | (pursuit && c->pursuit_type == WEM_CAV ? WEM_MVF_PURSUIT : 0);
                int rc = wem_maneuver_exec(twin, &mo, pursuit ? allow : -1, fl, NULL, NULL, &err);
                wem_state_destroy(&twin);
                if (rc) continue;
                if (wem_legal_put(s, &o, out)) return -1;
                n++;
            }
        }
    }
    return n;
}

int wem_melee_choice_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    const wem_combat *c = &s->combat;
    int side = s_army_side(s, c->ask_army), n = 0, k;
    switch (c->ask) {
    case WEM_ASK_STARTER: {
        int16_t tied[WEM_MAX_PIECES];
        int nt = 0;
        s_best_len(s, c->att_army, c->starter[1], tied, &nt);
        for (int i = 0; i < nt; i++) {
            wem_order o;
            wem_order_init(&o, WEM_O_ANSWER);
            o.n_units = 1;
            o.units[0] = tied[i];
            if (wem_legal_put(s, &o, out)) return -1;
        }
        return nt;
    }
    case WEM_ASK_CORNER: {
        int sides = s_sides(s, c->def, c->att, NULL);
        for (int b = 1; b <= 8; b <<= 1)
            if (sides & b) {
                if (s_put_value(s, b, out)) return -1;
                n++;
            }
        return n;
    }
    case WEM_ASK_REROLL:
    case WEM_ASK_COUNTER:
        if (s_put_value(s, 1, out) || s_put_value(s, 0, out)) return -1;
        return 2;
    case WEM_ASK_REINFORCE:
        if (s_put_value(s, 0, out)) return -1;
        k = s_legal_charges(s, side, 0, -1, -1, out);
        return k < 0 ? -1 : k + 1;
    case WEM_ASK_PURSUIT_CHARGE: {
        int only = -1;
        k = s_pursuit_charges(s, side, -1, &only, out);
        if (k < 0) return -1;
        if (k > 0) return k;
        if (s_put_value(s, 0, out)) return -1; /* none can be made */
        return 1;
    }
    case WEM_ASK_PURSUIT: {
        unsigned types = s_pursuit_types(s, side);
        if (!types) return s_put_value(s, 0, out) ? -1 : 1;
        n = 0;
        for (int t = WEM_INF; t <= WEM_CAV; t++)
            if (types & (1u << t)) {
                if (s_put_value(s, t + 1, out)) return -1;
                n++;
            }
        return n;
    }
    case WEM_ASK_PURSUIT_MOD:
        for (int m = 0; m < (1 << c->pursuit_nopt); m++) {
            wem_order o;
            wem_order_init(&o, WEM_O_ANSWER);
            o.n_values = c->pursuit_nopt;
            for (int i = 0; i < c->pursuit_nopt; i++) o.values[i] = (m >> i) & 1 ? -1 : 1;
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
        return n;
    case WEM_ASK_RESULT_DIE:
        for (int i = 0; i < c->rn[side]; i++)
            if (s_put_value(s, i, out)) return -1;
        return c->rn[side];
    case WEM_ASK_RESULT_MOD:
        if (s_put_value(s, 1, out) || s_put_value(s, -1, out)) return -1;
        return 2;
    case WEM_ASK_FB_LOSS: {
        wem_formations f;
        wem_formations_find(s, &f);
        int u0 = c->value[4];
        int16_t mem[WEM_MAX_PIECES];
        int m = wem_formation_units(&f, f.of[u0], mem);
        for (int j = 0; j < m; j++) {
            if (!s_on(s, mem[j])) continue;
            wem_order o;
            wem_order_init(&o, WEM_O_ANSWER);
            o.n_units = 1;
            o.units[0] = mem[j];
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
        return n;
    }
    default: return 0;
    }
}

/* R-wem-timeout-melee: the answer a seat whose clock ran out gives to each question of a combat:
 * the option the book makes the rule and the other the player's wish (no reroll, no
 * counterattack, no reinforcement; the Pursuit die and Charge that are due), or the one no player would
 * refuse (the highest Result die, the General's rank added, the front for the side touched, the
 * first Unit tied for the start, the Loss on the Unit with most capacity left) */
int wem_melee_choice_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_combat *c = &s->combat;
    int side = s_army_side(s, c->ask_army);
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    switch (c->ask) {
    case WEM_ASK_STARTER: {
        int16_t tied[WEM_MAX_PIECES];
        int nt = 0;
        s_best_len(s, c->att_army, c->starter[1], tied, &nt);
        if (nt < 1) return -1;
        o.n_units = 1;
        o.units[0] = tied[0];
        break;
    }
    case WEM_ASK_CORNER: {
        int sides = s_sides(s, c->def, c->att, NULL);
        static const int pref[4] = {WEM_SIDE_FRONT, WEM_SIDE_RIGHT, WEM_SIDE_LEFT, WEM_SIDE_REAR};
        o.value = 0;
        for (int i = 0; i < 4 && !o.value; i++)
            if (sides & pref[i]) o.value = pref[i];
        if (!o.value) return -1;
        break;
    }
    case WEM_ASK_REROLL:
    case WEM_ASK_COUNTER:
    case WEM_ASK_REINFORCE: o.value = 0; break;
    case WEM_ASK_PURSUIT: { /* the roll is due: the first type legal() lists */
        unsigned types = s_pursuit_types(s, side);
        o.value = types & (1u << WEM_INF) ? WEM_INF + 1 : types & (1u << WEM_CAV) ? WEM_CAV + 1 : 0;
        break;
    }
    case WEM_ASK_PURSUIT_CHARGE: {
        /* the Charge is due: the first legal() lists, or 0 when none can be made */
        brt_buf b;
        buf_init(&b);
        int only = -1, np = s_pursuit_charges(s, side, -1, &only, &b), rc = 0;
        if (np > 0) {
            size_t pos = 0, len = 0;
            const uint8_t *item = NULL;
            rc = buf_next_item(&b, &pos, &item, &len) == 1 ? wem_order_decode(s, item, len, &o, NULL) : -1;
        }
        buf_free(&b);
        if (np < 0 || rc) return -1;
        if (np == 0) o.value = 0;
        break;
    }
    case WEM_ASK_PURSUIT_MOD: {
        /* he chose to pursue: the first signs (in legal() order) that reach the success window */
        int lo = wem_param_get(s->sc, "pursuit-lo", 5), hi = wem_param_get(s->sc, "pursuit-hi", 6), pick = 0;
        for (int m = 0; m < (1 << c->pursuit_nopt); m++) {
            int t = c->pursuit_die;
            for (int i = 0; i < c->pursuit_nopt; i++) t += ((m >> i) & 1 ? -1 : 1) * c->pursuit_opt[i];
            if (t >= lo && t <= hi) {
                pick = m;
                break;
            }
        }
        o.n_values = c->pursuit_nopt;
        for (int i = 0; i < c->pursuit_nopt; i++) o.values[i] = (pick >> i) & 1 ? -1 : 1;
        break;
    }
    case WEM_ASK_RESULT_DIE: {
        if (c->rn[side] < 1) return -1;
        int best = 0;
        for (int i = 1; i < c->rn[side]; i++)
            if (c->rdice[side][i] > c->rdice[side][best]) best = i;
        o.value = best;
        break;
    }
    case WEM_ASK_RESULT_MOD: o.value = 1; break;
    case WEM_ASK_FB_LOSS: {
        wem_formations f;
        wem_formations_find(s, &f);
        int16_t mem[WEM_MAX_PIECES];
        int m = wem_formation_units(&f, f.of[c->value[4]], mem), best = -1;
        for (int j = 0; j < m; j++)
            if (s_on(s, mem[j]) && (best < 0 || s_cap_left(s, mem[j]) > s_cap_left(s, best))) best = mem[j];
        if (best < 0) return -1;
        o.n_units = 1;
        o.units[0] = (int16_t)best;
        break;
    }
    default: return -1;
    }
    return wem_melee_choice_apply(s, seat, &o, dice, ev, NULL);
}

/* ---- WEM_PH_LOSSES [Suffer Damages (melee)] ---- */

int wem_losses_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    (void)seat;
    int side = s_army_side(s, s->combat.ask_army);
    if (o->kind != WEM_O_ANSWER || o->n_units != o->n_values)
        return s_bad(err, "Suffer Damages", "answer with the Units and the Losses of each");
    if (s_loss_check(s, side, o->units, o->values, o->n_units, err)) return -1;
    s_loss_apply(s, side, o->units, o->values, o->n_units, ev);
    s->phase = WEM_PH_MELEE_CHOICE;
    s_drive(s, dice, ev);
    return 0;
}

void wem_losses_pending(const wem_state *s, brt_pending *out) {
    int side = s_army_side(s, s->combat.ask_army);
    out->seats = wem_army_mask(s, s->combat.ask_army);
    snprintf(out->kind, sizeof out->kind, "losses");
    snprintf(out->rule, sizeof out->rule, "Suffer Damages");
    snprintf(out->prompt, sizeof out->prompt,
             "distribute %d Loss%s between your Units in the combat (%s not fewer than any other)",
             s_loss_total(s, side), s_loss_total(s, side) == 1 ? "" : "es", s_id(s, s_melee_unit(s, side)));
}

/* every lawful spread (up to 256 listed) */
static int s_loss_enum(const wem_state *s, int side, const int16_t *p, int n, int i, int left, int32_t *v,
                       brt_buf *out, int *count) {
    if (*count >= 256) return 0;
    if (i == n) {
        if (left) return 0;
        if (s_loss_check(s, side, p, v, n, NULL)) return 0;
        wem_order o;
        wem_order_init(&o, WEM_O_ANSWER);
        o.n_units = o.n_values = n;
        memcpy(o.units, p, sizeof p[0] * (size_t)n);
        memcpy(o.values, v, sizeof v[0] * (size_t)n);
        if (wem_legal_put(s, &o, out)) return -1;
        (*count)++;
        return 0;
    }
    int cap = s_cap_left(s, p[i]);
    for (int k = 0; k <= left && k <= cap; k++) {
        v[i] = k;
        if (s_loss_enum(s, side, p, n, i + 1, left - k, v, out, count)) return -1;
    }
    return 0;
}

int wem_losses_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int side = s_army_side(s, s->combat.ask_army);
    int16_t p[WEM_MAX_PIECES];
    int n = s_part(s, side, p), count = 0;
    if (n > WEM_MAX_LIST) n = WEM_MAX_LIST;
    int32_t v[WEM_MAX_PIECES] = {0};
    if (s_loss_enum(s, side, p, n, 0, s_loss_total(s, side), v, out, &count)) return -1;
    return count;
}

/* R-wem-timeout-losses: one Loss at a time round the Units in the combat, the Unit in the melee
 * first each round, none past its capacity: the starter never takes fewer than another */
int wem_losses_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    int side = s_army_side(s, s->combat.ask_army);
    int16_t p[WEM_MAX_PIECES];
    int n = s_part(s, side, p), left = s_loss_total(s, side), start = s_melee_unit(s, side);
    if (n > WEM_MAX_LIST) n = WEM_MAX_LIST;
    for (int i = 1; i < n; i++)
        if (p[i] == start) { /* the starter first */
            p[i] = p[0];
            p[0] = (int16_t)start;
        }
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    o.n_units = o.n_values = n;
    memcpy(o.units, p, sizeof p[0] * (size_t)n);
    for (int i = 0; i < n; i++) o.values[i] = 0;
    for (int moved = 1; left > 0 && moved;) {
        moved = 0;
        for (int i = 0; i < n && left > 0; i++)
            if (o.values[i] < s_cap_left(s, p[i])) {
                o.values[i]++;
                left--;
                moved = 1;
            }
    }
    return wem_losses_apply(s, seat, &o, dice, ev, NULL);
}

/* ---- WEM_PH_GENERAL_ESCAPE [Unattached Generals] "the counter can be moved up to 2 units" ---- */

int wem_general_escape_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                             brt_reject *err) {
    (void)seat;
    int g = s->combat.general;
    if (o->kind == WEM_O_ANSWER && o->n_places == 1 && o->places[0].piece == WEM_GEN_BASE + g) {
        if (wem_gen_escape_check(s, g, o->places[0].at, err)) return -1;
        s->generals[g].at = o->places[0].at;
        wem_event(s, ev, BRT_SEATS_ALL, "general-escape", s->sc->generals[g].army, WEM_GEN_BASE + g, -1, 1, NULL, 0,
                  &s->generals[g].at, 0, "[Unattached Generals] %s moves away", s_id(s, WEM_GEN_BASE + g));
    } else if (o->kind != WEM_O_DONE) {
        return s_bad(err, "Unattached Generals", "answer with the General's new place (up to 2 units away), or done");
    }
    s->combat.general = -1;
    if (s->combat.active) { /* an unattached General in the melee: the combat goes on */
        s->phase = WEM_PH_MELEE_CHOICE;
        s_drive(s, dice, ev);
        return 0;
    }
    s->phase = WEM_PH_COMBAT;
    if (!s_any_pair(s)) wem_step_done(s, dice, ev);
    return 0;
}

void wem_general_escape_pending(const wem_state *s, brt_pending *out) {
    int g = s->combat.general;
    out->seats = g >= 0 ? wem_army_mask(s, s->sc->generals[g].army) : 0;
    snprintf(out->kind, sizeof out->kind, "general-escape");
    snprintf(out->rule, sizeof out->rule, "Unattached Generals");
    snprintf(out->prompt, sizeof out->prompt, "%s escaped capture: move him up to 2 units of measurement, or done",
             g >= 0 ? s_id(s, WEM_GEN_BASE + g) : "");
}

/* done, and the moves of 2 and of 1 units of measurement in the eight directions that are lawful */
int wem_general_escape_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int g = s->combat.general, n = 0;
    wem_order d;
    wem_order_init(&d, WEM_O_DONE);
    if (wem_legal_put(s, &d, out)) return -1;
    n++;
    for (int r = 2; r >= 1; r--)
        for (int h = 0; h < WEM_TURN; h += WEM_TURN / 8) {
            wem_pt to = wem_g_offset(s->generals[g].at, h, r * WEM_UOM, 0);
            if (r == 2) { /* the diagonal rounds: stay within reach */
                int64_t dx = to.x - s->generals[g].at.x, dy = to.y - s->generals[g].at.y;
                if (dx * dx + dy * dy > (int64_t)4 * WEM_UOM * WEM_UOM) continue;
            }
            if (wem_gen_escape_check(s, g, to, NULL)) continue;
            wem_order o;
            wem_order_init(&o, WEM_O_ANSWER);
            o.n_places = 1;
            o.places[0].piece = (int16_t)(WEM_GEN_BASE + g);
            o.places[0].at = to;
            if (wem_legal_put(s, &o, out)) return -1;
            n++;
        }
    return n;
}

/* R-wem-timeout-escape: the General stays where he is ("can be moved": he is not) */
int wem_general_escape_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    wem_order_init(&o, WEM_O_DONE);
    return wem_general_escape_apply(s, seat, &o, dice, ev, NULL);
}

/* the combat in progress goes on from its stage to the next decision (combat.h) */
void wem_combat_drive(wem_state *s, brt_dice *dice, brt_events *ev) { s_drive(s, dice, ev); }
