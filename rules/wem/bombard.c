/*
 * bombard.c - [2. Bombardment]: "Following the order of Initiative, the players can execute
 * bombardment, with all Artillery Units on Foot, unfastened, and without a Smoke token."
 *
 * WEM_PH_BOMBARD: the current army fires one gun (WEM_O_BOMBARD gun target supporters...) or
 * ends its bombardment (WEM_O_DONE); its part ends by itself once no gun can fire.
 * WEM_PH_BOMB_WITHDRAW: [Bombardment effects table 8/10] the target's owner answers 1 (Withdraw 1)
 * or 0 (the Unit is Shaken).
 *
 * [Executing the bombardment] [Line of fire and visibility] [Support] [The Grand Battery of
 * General d'Erlon] [Dice modifiers (bombardment)] [Suffering Damages]; rulings R-wem-bomb-* in
 * docs/wem-rulings/combat.md.
 */
#include <stdio.h>
#include <string.h>

#include "combat.h"

static int s_enemy(int a, int b) { return (a == WEM_BLUE) != (b == WEM_BLUE); }

static wem_rect s_rect(const wem_state *s, int u) { return wem_unit_rect(s, u); }

static wem_quad s_quad(const wem_state *s, int u) {
    wem_rect r = s_rect(s, u);
    wem_quad q;
    wem_g_quad(&r, 0, &q);
    return q;
}

static wem_rect s_strip(const wem_state *s, int g) {
    wem_rect gr = s_rect(s, g);
    /* [Line of fire and visibility] "as wide as the front of a counter (15 mm) and is 6 units of
     * measurement ... long" */
    return wem_g_lof(&gr, wem_param_get(s->sc, "lof-width", WEM_UOM / 2), wem_param_get(s->sc, "lof-length", 6 * WEM_UOM));
}

/* does unit u touch (even partially) the area polygon / the line? [Understanding the Game Board] */
static int s_meets_poly(const wem_state *s, int u, const wem_poly *p) {
    wem_quad q = s_quad(s, u);
    return wem_g_convex_meets_poly(q.v, 4, p);
}

static int s_meets_line(const wem_state *s, int u, const wem_line *l) {
    wem_quad q = s_quad(s, u);
    return wem_g_convex_meets_line(q.v, 4, l);
}

/* Hills, Woods and Placenoit Town block the line of fire [Line of fire and visibility] */
static int s_area_blocks(const wem_area_def *a) {
    if (a->blocks_lof || a->kind == WEM_T_HILL || a->kind == WEM_T_WOOD) return 1;
    return a->kind == WEM_T_TOWN && strstr(a->name, "placenoit") != NULL;
}

int wem_bomb_can_target(const wem_state *s, int g, int t) {
    const wem_scenario *sc = s->sc;
    if (t < 0 || (size_t)t >= sc->n_units || t == g) return 0;
    if (s->units[t].status != WEM_ON || !s_enemy(sc->units[g].army, sc->units[t].army)) return 0;
    wem_rect strip = s_strip(s, g), tr = s_rect(s, t);
    if (!wem_g_lof_hits(&strip, &tr)) return 0;
    int32_t dt = wem_g_lof_depth(&strip, &tr);
    if (dt < 0) return 0;
    /* [Exception] "Artillery Units that are entirely inside a Hill may ignore Units (friendly or
     * enemy) that cross their line of fire" */
    int on_hill = wem_inside_kind(s, g, WEM_T_HILL);
    if (!on_hill)
        for (size_t u = 0; u < sc->n_units; u++) {
            if ((int)u == g || (int)u == t || s->units[u].status != WEM_ON) continue;
            wem_quad q = s_quad(s, (int)u);
            /* R-wem-lof-entire-width: one Unit must cross the whole width by itself */
            if (wem_g_lof_blocked_quad(&strip, &q, 0, dt)) return 0;
        }
    for (size_t i = 0; i < sc->n_areas; i++) {
        if (!s_area_blocks(&sc->areas[i])) continue;
        wem_poly p = wem_area_poly(sc, &sc->areas[i]);
        /* "unless the target Unit is on that terrain"; the terrain the gun stands on does not
         * hide what it fires at (R-wem-lof-own-terrain) */
        if (s_meets_poly(s, t, &p) || s_meets_poly(s, g, &p)) continue;
        if (wem_g_lof_blocked_poly(&strip, &p, 0, dt)) return 0;
    }
    for (size_t i = 0; i < sc->n_lines; i++) {
        if (sc->lines[i].kind != WEM_L_SUNKEN) continue;
        wem_line l = wem_line_shape(sc, &sc->lines[i]);
        /* [Linear Terrain] "a Sunken Road blocks the bombardment line of fire". A target on it
         * is exempt [Line of fire and visibility] "unless the target Unit is on that terrain",
         * but not a defender NOT IN MOVEMENT in contact with it whose front towards the gun
         * touches it: "The bombardment and combat modifiers of linear terrain are applied to
         * Units in defense that are NOT IN MOVEMENT ... the bombardment or combat front must
         * touch, even partially, the terrain element" (R-wem-sunken-road-defender): the road
         * then shields it when it lies across the line of fire before the target. */
        if (s_meets_line(s, g, &l)) continue;
        if (s_meets_line(s, t, &l) && s->units[t].green) continue;
        if (wem_g_lof_blocked_line(&strip, &l, 0, dt)) return 0;
    }
    return 1;
}

/* "Units ... that occupy an enemy area of engagement CANNOT execute a bombardment" (at its limit
 * counts as occupied [Area of Engagement]); a garrison's area is on all its sides */
static int s_in_enemy_aoe(const wem_state *s, int g) {
    const wem_scenario *sc = s->sc;
    wem_rect gr = s_rect(s, g);
    wem_quad gq = s_quad(s, g);
    for (size_t e = 0; e < sc->n_units; e++) {
        if (s->units[e].status != WEM_ON || !s_enemy(sc->units[g].army, sc->units[e].army)) continue;
        wem_rect er = s_rect(s, (int)e);
        if (sc->units[e].kind == WEM_GARRISON) {
            wem_quad eq = s_quad(s, (int)e);
            if (wem_g_within(&eq, &gq, WEM_UOM)) return 1;
        } else if (wem_g_aoe(&er, &gr, WEM_UOM, wem_tol(s)) >= 1) {
            return 1;
        }
    }
    return 0;
}

int wem_bomb_gun_ready(const wem_state *s, int g) {
    if (g < 0 || (size_t)g >= s->sc->n_units) return 0;
    const wem_unit_def *d = &s->sc->units[g];
    const wem_unit *x = &s->units[g];
    if (d->kind != WEM_ART_FOOT && d->kind != WEM_ART_HORSE) return 0;
    /* "Horse Artillery Units ... cannot bombard (except Units 39 and 40 of the red English army)" */
    if (!d->bombards || x->status != WEM_ON || x->fastened || x->smoke || s->bomb.fired[g]) return 0;
    return !s_in_enemy_aoe(s, g);
}

/* a gun of the current army with at least one target */
static int s_gun_has_target(const wem_state *s, int g) {
    if (!wem_bomb_gun_ready(s, g)) return 0;
    for (size_t t = 0; t < s->sc->n_units; t++)
        if (wem_bomb_can_target(s, g, (int)t)) return 1;
    return 0;
}

static int s_any_gun(const wem_state *s, int army) {
    for (size_t g = 0; g < s->sc->n_units; g++)
        if (s->sc->units[g].army == army && s_gun_has_target(s, (int)g)) return 1;
    return 0;
}

int wem_bombard_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice, (void)ev;
    int army = wem_cur_army(s);
    for (size_t g = 0; g < s->sc->n_units; g++)
        if (s->sc->units[g].army == army) s->bomb.fired[g] = 0;
    s->bomb.gun = s->bomb.target = -1;
    s->bomb.n_support = 0;
    if (!s_any_gun(s, army)) return 0;
    s->phase = WEM_PH_BOMBARD;
    return 1;
}

/* [Suffering Damages] "Every time that a Unit suffers Damage as per the effect of bombardment,
 * its controlling player must roll 1 die. ONLY if he rolls a [x] or [y] will he suffer 1 Loss." */
void wem_damage(wem_state *s, int u, int n, int by, brt_dice *dice, brt_events *ev) {
    int lo = wem_param_get(s->sc, "damage-lo", 5), hi = wem_param_get(s->sc, "damage-hi", 6);
    for (int i = 0; i < n && s->units[u].status == WEM_ON; i++) {
        int d = wem_d6(dice, "[Suffering Damages] 1 die per Damage");
        int loss = d >= lo && d <= hi;
        wem_event(s, ev, BRT_SEATS_ALL, "damage", s->sc->units[u].army, u, -1, loss, &d, 1, NULL, 0,
                  "[Suffering Damages] %s rolls %d for a Damage: %s", s->sc->units[u].id, d,
                  loss ? "1 Loss" : "no Loss");
        if (loss) wem_unit_loss(s, u, 1, by, ev);
    }
}

/* [Withdraw] "If a Unit CANNOT Withdraw because of any reason, it will receive a yellow marker.
 * If the Unit has already a yellow marker it will instead suffer 1 Loss." */
static void s_cannot_withdraw(wem_state *s, int u, int by, brt_events *ev) {
    if (s->units[u].yellow) wem_unit_loss(s, u, 1, by, ev);
    else wem_shake(s, u, -1, ev);
}

/* the target in column with 1 or more Units: a friendly unit touching its front or its rear
 * along an edge (R-wem-bomb-column) */
static int s_in_column(const wem_state *s, int t) {
    wem_rect tr = s_rect(s, t);
    for (size_t u = 0; u < s->sc->n_units; u++) {
        if ((int)u == t || s->units[u].status != WEM_ON || s->sc->units[u].army != s->sc->units[t].army) continue;
        wem_rect ur = s_rect(s, (int)u);
        int corner = 0;
        int sides = wem_g_touch_sides(&tr, &ur, wem_tol(s), &corner);
        if ((sides & (WEM_SIDE_FRONT | WEM_SIDE_REAR)) && !corner) return 1;
    }
    return 0;
}

/* [Dice modifiers (bombardment)], the area terrain [Area Terrain] and the Grand Battery */
static int s_modifiers(const wem_state *s, int g, int t, int n_support, char *why, size_t cap) {
    const wem_scenario *sc = s->sc;
    int m = 0;
    size_t w = 0;
    why[0] = 0;
#define S_MOD(v, txt)                                                                                      \
    do {                                                                                                   \
        m += (v);                                                                                          \
        if (w < cap) w += (size_t)snprintf(why + w, cap - w, "%s%+d %s", w ? ", " : "", (v), txt);        \
    } while (0)
    if (s->units[g].yellow) S_MOD(-1, "the gun is Shaken");
    if (wem_inside_kind(s, t, WEM_T_WOOD)) S_MOD(-1, "target completely inside a Wood");
    if (wem_inside_kind(s, t, WEM_T_TOWN)) S_MOD(-2, "target completely inside the Town");
    /* R-wem-bomb-defence: "+1 to Units in defense" is the target's: it lowers the gun's roll.
     * Wood and Town are the two modifiers just above, not counted twice. */
    if (!s->units[t].green) {
        int inf = sc->units[t].kind == WEM_INF || sc->units[t].kind == WEM_GARRISON;
        if (inf && wem_inside_kind(s, t, WEM_T_FARM)) S_MOD(-2, "Farm Field defence");
        else if (wem_inside_kind(s, t, WEM_T_HILL)) S_MOD(-1, "Hill defence");
    }
    if (s_in_column(s, t)) S_MOD(1, "target in column");
    wem_rect strip = s_strip(s, g), tr = s_rect(s, t);
    if (wem_g_fired_on_rear(&strip, &tr)) S_MOD(1, "fired on the rear");
    if (n_support) S_MOD(n_support, "artillery in support");
    if (sc->units[g].grand_battery) {
        int n = 0;
        wem_rect gr = s_rect(s, g);
        for (size_t u = 0; u < sc->n_units; u++) {
            int k = sc->units[u].kind;
            if ((int)u == g || s->units[u].status != WEM_ON || sc->units[u].army != sc->units[g].army) continue;
            if (k != WEM_ART_FOOT && k != WEM_ART_HORSE) continue;
            wem_rect ur = s_rect(s, (int)u);
            if (wem_g_contact(&gr, &ur, wem_tol(s)) == WEM_TOUCH) n++;
        }
        if (n) S_MOD(n, "Grand Battery");
    }
#undef S_MOD
    return m;
}

static int s_done_if_idle(wem_state *s, brt_dice *dice, brt_events *ev) {
    if (s->over) return 0;
    s->phase = WEM_PH_BOMBARD;
    if (!s_any_gun(s, wem_cur_army(s))) wem_step_done(s, dice, ev);
    return 0;
}

static int s_check(const wem_state *s, const wem_order *o, brt_reject *err) {
    const wem_scenario *sc = s->sc;
    int army = wem_cur_army(s), g = o->unit, t = o->target;
    if (g < 0 || (size_t)g >= sc->n_units || sc->units[g].army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Executing the bombardment",
                              "[Executing the bombardment] %s is not an Artillery Unit of the army bombarding",
                              wem_piece_id(s, g));
    const char *gid = sc->units[g].id;
    if (t >= WEM_GEN_BASE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Executing the bombardment",
                              "[Executing the bombardment] %s cannot fire on %s: Generals cannot be targets of "
                              "bombardment",
                              gid, wem_piece_id(s, t));
    if (sc->units[g].kind != WEM_ART_FOOT && sc->units[g].kind != WEM_ART_HORSE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "2. Bombardment", "[2. Bombardment] %s is not artillery", gid);
    if (!sc->units[g].bombards)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Units",
                              "[Units] %s is Horse Artillery: it cannot bombard", gid);
    if (s->units[g].fastened)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "2. Bombardment",
                              "[2. Bombardment] %s is fastened to its Horse Team", gid);
    if (s->units[g].smoke || s->bomb.fired[g])
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Executing the bombardment",
                              "[Executing the bombardment] %s has a Smoke token", gid);
    if (!wem_bomb_gun_ready(s, g))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Executing the bombardment",
                              "[Executing the bombardment] %s occupies an enemy area of engagement", gid);
    if (!wem_bomb_can_target(s, g, t))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Line of fire and visibility",
                              "[Line of fire and visibility] %s cannot fire on %s: not an enemy Unit visible in its "
                              "line of fire",
                              gid, wem_piece_id(s, t));
    if (o->n_units > 8)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Support", "[Support] at most 8 supporting guns");
    for (int i = 0; i < o->n_units; i++) {
        int p = o->units[i];
        for (int j = 0; j < i; j++)
            if (o->units[j] == p)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Support", "[Support] %s is listed twice",
                                      wem_piece_id(s, p));
        if (p == g || p >= WEM_GEN_BASE || sc->units[p].army != army || !wem_bomb_gun_ready(s, p))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Support",
                                  "[Support] %s cannot support %s: not an unfastened Artillery Unit on Foot of the "
                                  "army without Smoke",
                                  wem_piece_id(s, p), gid);
        if (!wem_bomb_can_target(s, p, t))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Support",
                                  "[Support] %s cannot support %s: it does not share the target %s", wem_piece_id(s, p),
                                  gid, sc->units[t].id);
    }
    return 0;
}

/* [Bombardment effects table] */
static int s_fire(wem_state *s, const wem_order *o, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    int g = o->unit, t = o->target, army = sc->units[g].army;
    char why[200];
    int a, b;
    int nat = wem_2d6(dice, "[2. Bombardment] the bombardment roll", &a, &b);
    int mod = s_modifiers(s, g, t, o->n_units, why, sizeof why);
    /* "modifiers ... will be applied ONLY if the unmodified result of the roll is higher than 5" */
    int res = nat;
    if (nat > 5) {
        res = nat + mod;
        if (res < 3) res = 3; /* R-wem-bomb-floor: the 2 row is the natural roll only */
    }
    wem_rect strip = s_strip(s, g), tr = s_rect(s, t);
    int rear = wem_g_fired_on_rear(&strip, &tr);
    s->bomb.gun = (int16_t)g;
    s->bomb.target = (int16_t)t;
    s->bomb.n_support = (uint8_t)o->n_units;
    for (int i = 0; i < o->n_units; i++) s->bomb.support[i] = o->units[i];
    s->last_lof_gun = (int16_t)g;
    s->last_lof_target = (int16_t)t;
    int dd[2] = {a, b};
    wem_event(s, ev, BRT_SEATS_ALL, "bombard", army, g, t, res, dd, 2, NULL, 0,
              "[2. Bombardment] %s fires on %s%s: %d%s%s%s = %d", sc->units[g].id, sc->units[t].id,
              o->n_units ? " with support" : "", nat, nat > 5 && why[0] ? " (" : "", nat > 5 ? why : "",
              nat > 5 && why[0] ? ")" : "", res);
    /* every row: "All Units supporting and executing the bombardment receive a Smoke token" */
    s->units[g].smoke = 1;
    s->bomb.fired[g] = 1;
    for (int i = 0; i < o->n_units; i++) s->units[o->units[i]].smoke = 1, s->bomb.fired[o->units[i]] = 1;
    if (res <= 2) {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-effect", army, g, t, 2, NULL, 0, NULL, 0,
                  "[Bombardment effects table 2] %s is Shaken", sc->units[g].id);
        wem_shake(s, g, -1, ev);
        return s_done_if_idle(s, dice, ev);
    }
    if (res <= 5) return s_done_if_idle(s, dice, ev);
    int gen = wem_gen_attached_to(s, t);
    int garrison = wem_garrison(s, t);
    if (res <= 7) {
        wem_damage(s, t, 1, army, dice, ev);
        if (gen >= 0) wem_gen_attached_check(s, gen, t, army, dice, ev);
        return s_done_if_idle(s, dice, ev);
    }
    wem_damage(s, t, 2, army, dice, ev);
    if (gen >= 0) wem_gen_attached_check(s, gen, t, army, dice, ev);
    if (s->over) return 0;
    if (res >= 11) {
        if (s->units[t].status == WEM_ON) wem_unit_loss(s, t, 1, army, ev);
        if (s->units[t].status != WEM_ON) return s_done_if_idle(s, dice, ev);
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-effect", army, t, g, 11, NULL, 0, NULL, 0,
                  "[Bombardment effects table 11+] %s must Retreat", sc->units[t].id);
        if (garrison == 2) {
            /* [The Garrisons] "if it is in Retreat as a result of bombardment it receives only one
             * yellow marker, unless it already has one" */
            if (!s->units[t].yellow) wem_shake(s, t, g, ev);
        } else if (garrison == 1) {
            /* "Garrisons can NEVER be moved (ignore Withdraw or Retreat effects)" */
        } else {
            /* [Retreat] "must Withdraw 1 and receive a yellow marker"; [Withdraw] a target fired
             * on the rear CANNOT Withdraw */
            if (rear) s_cannot_withdraw(s, t, army, ev);
            else wem_withdraw(s, t, WEM_UOM, g, ev);
            if (s->units[t].status == WEM_ON) wem_shake(s, t, g, ev);
        }
        return s_done_if_idle(s, dice, ev);
    }
    /* 8/10: "must Withdraw 1. If the controlling player cannot or does not want to Withdraw 1,
     * the Unit is Shaken" */
    if (s->units[t].status != WEM_ON || garrison) return s_done_if_idle(s, dice, ev); /* R-wem-garrison-withdraw */
    if (rear) {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-effect", army, t, g, 8, NULL, 0, NULL, 0,
                  "[Bombardment effects table 8/10] %s is fired on the rear: it cannot Withdraw and is Shaken",
                  sc->units[t].id);
        wem_shake(s, t, g, ev);
        return s_done_if_idle(s, dice, ev);
    }
    /* "If the controlling player cannot ... Withdraw 1, the Unit is Shaken": tried on a copy
     * (R-wem-bomb-cannot-withdraw) */
    wem_state *twin = wem_state_clone(s);
    int32_t can = twin ? wem_withdraw(twin, t, WEM_UOM, g, NULL) : 1;
    wem_state_destroy(&twin);
    if (can <= 0) {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-effect", army, t, g, 8, NULL, 0, NULL, 0,
                  "[Bombardment effects table 8/10] %s cannot Withdraw 1: it is Shaken", sc->units[t].id);
        wem_shake(s, t, g, ev);
        return s_done_if_idle(s, dice, ev);
    }
    s->phase = WEM_PH_BOMB_WITHDRAW;
    return 0;
}

int wem_bombard_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                      brt_reject *err) {
    (void)seat;
    if (o->kind == WEM_O_DONE) {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-done", wem_cur_army(s), -1, -1, 0, NULL, 0, NULL, 0,
                  "[2. Bombardment] the army ends its bombardment");
        wem_step_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WEM_O_BOMBARD)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "2. Bombardment",
                              "[2. Bombardment] the order now is a bombardment or done");
    if (s_check(s, o, err)) return -1;
    return s_fire(s, o, dice, ev);
}

void wem_bombard_pending(const wem_state *s, brt_pending *out) {
    out->seats = wem_army_mask(s, wem_cur_army(s));
    snprintf(out->kind, sizeof out->kind, "bombard");
    snprintf(out->rule, sizeof out->rule, "2. Bombardment");
    snprintf(out->prompt, sizeof out->prompt, "bombard with an unfastened gun on foot, or done");
}

static int s_put(const wem_state *s, const wem_order *o, brt_buf *out, int *n) {
    if (wem_legal_put(s, o, out)) return -1;
    (*n)++;
    return 0;
}

/* each ready gun: each visible target, alone, with each single supporter sharing it, and with
 * all of them; then done */
int wem_bombard_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    const wem_scenario *sc = s->sc;
    int army = wem_cur_army(s), n = 0;
    for (size_t g = 0; g < sc->n_units; g++) {
        if (sc->units[g].army != army || !wem_bomb_gun_ready(s, (int)g)) continue;
        for (size_t t = 0; t < sc->n_units; t++) {
            if (!wem_bomb_can_target(s, (int)g, (int)t)) continue;
            wem_order o;
            wem_order_init(&o, WEM_O_BOMBARD);
            o.unit = (int)g;
            o.target = (int)t;
            if (s_put(s, &o, out, &n)) return -1;
            int16_t sup[8];
            int ns = 0;
            for (size_t p = 0; p < sc->n_units && ns < 8; p++) {
                if (p == g || sc->units[p].army != army || !wem_bomb_gun_ready(s, (int)p)) continue;
                if (!wem_bomb_can_target(s, (int)p, (int)t)) continue;
                sup[ns++] = (int16_t)p;
                o.n_units = 1;
                o.units[0] = (int16_t)p;
                if (s_put(s, &o, out, &n)) return -1;
            }
            if (ns > 1) {
                o.n_units = ns;
                memcpy(o.units, sup, sizeof sup[0] * (size_t)ns);
                if (s_put(s, &o, out, &n)) return -1;
            }
        }
    }
    wem_order d;
    wem_order_init(&d, WEM_O_DONE);
    if (s_put(s, &d, out, &n)) return -1;
    return n;
}

/* on a timeout the army's bombardment ends (it fires nothing it did not choose) */
int wem_bombard_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    (void)seat;
    wem_step_done(s, dice, ev);
    return 0;
}

/* ---- [Bombardment effects table 8/10] the target's owner: Withdraw 1, or Shaken ---- */

int wem_bomb_withdraw_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                            brt_reject *err) {
    (void)seat;
    int t = s->bomb.target, g = s->bomb.gun;
    if (o->kind != WEM_O_ANSWER || (o->value != 0 && o->value != 1))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "Bombardment effects table",
                              "[Bombardment effects table 8/10] answer 1 (Withdraw 1) or 0 (the Unit is Shaken)");
    if (o->value == 1) {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-withdraw", s->sc->units[t].army, t, g, 1, NULL, 0, NULL, 0,
                  "[Bombardment effects table 8/10] %s withdraws 1", s->sc->units[t].id);
        wem_withdraw(s, t, WEM_UOM, g, ev);
    } else {
        wem_event(s, ev, BRT_SEATS_ALL, "bombard-withdraw", s->sc->units[t].army, t, g, 0, NULL, 0, NULL, 0,
                  "[Bombardment effects table 8/10] %s does not withdraw: it is Shaken", s->sc->units[t].id);
        wem_shake(s, t, g, ev);
    }
    return s_done_if_idle(s, dice, ev);
}

void wem_bomb_withdraw_pending(const wem_state *s, brt_pending *out) {
    int t = s->bomb.target;
    out->seats = t >= 0 ? wem_army_mask(s, s->sc->units[t].army) : 0;
    snprintf(out->kind, sizeof out->kind, "bombard-withdraw");
    snprintf(out->rule, sizeof out->rule, "Bombardment effects table");
    snprintf(out->prompt, sizeof out->prompt, "%s: 1 Withdraw 1, or 0 it is Shaken",
             t >= 0 ? s->sc->units[t].id : "");
}

int wem_bomb_withdraw_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    for (int v = 1; v >= 0; v--) {
        wem_order o;
        wem_order_init(&o, WEM_O_ANSWER);
        o.value = v;
        if (wem_legal_put(s, &o, out)) return -1;
    }
    return 2;
}

/* R-wem-timeout-bomb-withdraw: the table's "must Withdraw 1" (asked only when it can) */
int wem_bomb_withdraw_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    wem_order o;
    wem_order_init(&o, WEM_O_ANSWER);
    o.value = 1;
    return wem_bomb_withdraw_apply(s, seat, &o, dice, ev, NULL);
}
