/*
 * ae.c - the Aspern-Essling 20 exclusive rules (Danube 20): the French choice of crossing site
 * [3.0], the Pontoon Bridges [6.10] (crossing rolls, damage, destruction, the Pontoon Repair Step
 * [4.1]), the Fischamend option [6.11] (reconstructed, docs/danube-rulings/ae.md), the Bridgehead
 * [9.10] and its Catastrophe [9.10.1], Retreat Direction Priority [9.8.6], Unit Arrival Locations
 * [11.6], the French Objective [14.0], Home Ground [14.1], Main Crossing [14.2] and the French
 * Marginal Victory [15.1].
 *
 * The data (the sites, the tables) is the scenario's (sc->dn, danube.h); the state is s->dn.
 * Every hook is a no-op in a scenario without crossing sites, so Waterloo 20 plays as before.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "n20.h"

/* n20_ae: inline in n20.h */

/* the A-E Garrison of Bridgehead p [9.10]: the French garrison unit placed `site north` (p 0) or
 * `site second` (p 1, [17.3.1] R-dn-17.3-second-garrison), -1 none */
static int s_garrison(const n20_state *s, int p) {
    for (int i = 0; i < s->sc->nunits; i++)
        if ((s->sc->units[i].flags & N20_FLAG_GARRISON) && s->sc->units[i].side == N20_FRENCH &&
            s->sc->units[i].place == N20_P_SITE && s->sc->units[i].area == (p ? '2' : 'N') &&
            n20_unit_in_game(s, i))
            return i;
    return -1;
}

/* the chosen site of pontoon p (0 the first, 1 the [17.3] second), NULL if none */
static const n20_dn_site *s_site(const n20_state *s, int p) {
    int k = p ? s->dn.site2 : s->dn.site;
    return k ? &s->sc->dn.site[k - 1] : NULL;
}

const char *n20_ae_site_name(const n20_state *s, int k) {
    return k >= 0 && k < s->sc->dn.nsites ? s->sc->dn.site[k].name : "";
}

static const char *s_pon_name(int p) {
    static const char *n[] = {"none", "intact", "Damaged", "destroyed"};
    return p >= 0 && p < 4 ? n[p] : "?";
}

void n20_ae_setup(n20_state *s) {
    if (!n20_ae(s)) return;
    /* [3.0] the units the crossing site places (placement `site north|south`) wait off the map
     * for the French choice (n20_setup leaves them out) */
    s->dn.site = 0;
    s->dn.pontoon[0] = s->dn.pontoon[1] = N20_PON_NONE;
    s->dn.bridgehead[0] = s->dn.bridgehead[1] = 0;
    /* [3.0] "After the Austrian set-up" (printed, fixed): the French choose their site first */
    s->phase = N20_PH_AE_SITE;
}

/* [17.3.2] the second set may be placed now (the French Movement Phase of Turn 3 or later) */
static int s_second_due(const n20_state *s) {
    return (s->opts & N20_OPT_BERTRAND) && s->phase == N20_PH_MOVE && s->phasing == N20_FRENCH &&
           s->turn >= N20_AE_BERTRAND_TURN && s->dn.site && !s->dn.site2;
}

/* [17.3.2] "any available crossing site*" (the footnote is missing: R-dn-17.3-two-pontoons) */
static int s_available(const n20_state *s, int k, brt_reject *err) {
    const n20_dn_site *st = &s->sc->dn.site[k];
    if (k + 1 == s->dn.site)
        return n20_reject(err, "17.3.2", "the French already cross at %s", st->name);
    int occ[2] = {st->north ? n20_unit_at(s, st->north) : -1, st->south ? n20_unit_at(s, st->south) : -1};
    for (int i = 0; i < 2; i++)
        if (occ[i] >= 0 && n20_side_of(s, occ[i]) != N20_FRENCH)
            return n20_reject(err, "17.3.2", "the %s crossing site is held by an Anti-French unit", st->name);
    return 0;
}

int n20_ae_site_check(const n20_state *s, const char *name, brt_reject *err) {
    if (!n20_ae(s)) return n20_reject(err, "3.0", "this scenario has no Danube River crossing site to choose");
    int second = s_second_due(s);
    if (s->phase != N20_PH_AE_SITE && !second) {
        if (s->opts & N20_OPT_BERTRAND)
            return n20_reject(err, "17.3.1", "the second crossing site is built from the French Movement Phase "
                              "of Turn %d on, once", N20_AE_BERTRAND_TURN);
        return n20_reject(err, "3.0", "the crossing site is chosen during set up, once");
    }
    for (int k = 0; name && k < s->sc->dn.nsites; k++)
        if (strcasecmp(s->sc->dn.site[k].name, name) == 0) return second && s_available(s, k, err) < 0 ? -1 : k;
    return n20_reject(err, "3.0", "no Danube River crossing site named %.20s", name ? name : "");
}

/* [17.3.2] the second Pontoon Bridges face-up, its Bridgehead with its Garrison [9.10] and Objective */
static void s_second_apply(n20_state *s, int k, n20_out *out) {
    const n20_dn_site *st = &s->sc->dn.site[k];
    s->dn.site2 = (uint8_t)(k + 1);
    s->dn.pontoon[1] = N20_PON_INTACT;
    s->dn.bridgehead[1] = st->fischamend ? 0 : 1;
    int g = s_garrison(s, 1);
    if (g >= 0 && !st->fischamend) n20_garrison_place(s, g, st->north); /* [9.10] [9.4.4] R-dn-17.3-second-garrison */
    int v[1] = {k};
    uint16_t hx[3] = {st->north, st->south, st->obj};
    n20_event(out, s, "crossing-site", NULL, 0, hx, 3, v, 1,
              "[17.3.2] Bertrand Works a Miracle: a second Pontoon Bridges at %s, French Objective %04u", st->name,
              n20_xxyy(st->obj));
}

static void s_place(n20_state *s, int u, uint16_t h) {
    if (u < 0) return;
    s->u[u].where = N20_U_MAP;
    s->u[u].hex = h;
}

void n20_ae_site_apply(n20_state *s, int k, n20_out *out) {
    if (s->phase != N20_PH_AE_SITE) {
        s_second_apply(s, k, out);
        return;
    }
    const n20_dn_site *st = &s->sc->dn.site[k];
    s->dn.site = (uint8_t)(k + 1);
    s->dn.pontoon[0] = N20_PON_INTACT;
    s->dn.bridgehead[0] = st->fischamend ? 0 : 1;
    for (int i = 0; i < s->sc->nunits; i++) {
        const n20_unit_def *d = &s->sc->units[i];
        if (d->place != N20_P_SITE || d->area == '2' || !n20_unit_in_game(s, i)) continue; /* '2': [17.3] */
        if (d->type == N20_LEADER && !(s->opts & N20_OPT_LEADERS)) continue; /* [16.9] only */
        int garrison = (d->flags & N20_FLAG_GARRISON) != 0;
        if (!st->fischamend) { /* 4eB, the Bridgehead and its Garrison [9.10] north; 4eC, Napoleon south */
            s_place(s, i, d->area == 'N' ? st->north : st->south);
            if (garrison) n20_garrison_place(s, i, st->north); /* [9.4.4] an intrinsic force at its hex, face-up */
        } else if (d->area == 'N' && !garrison) {
            /* [3.0] [6.11] 4eB at 2110, the Pontoon Bridges in the Fischamend Holding Box, no
             * Bridgehead (R-dn-6.11-fischamend) */
            s_place(s, i, s->sc->dn.fisch_hex);
        } else if (d->area == 'S') { /* 4eC (and Napoleon with it) a Turn 1 reinforcement */
            s->u[i].where = N20_U_REINF;
            s->u[i].arrive = s->sc->start_turn;
            s->u[i].hex = 0;
        }
    }
    int v[1] = {k};
    uint16_t hx[3] = {st->north, st->south, st->obj};
    n20_event(out, s, "crossing-site", NULL, 0, hx, 3, v, 1,
              "[3.0] the French cross the Danube at %s: %s, French Objective %04u, Entry Area %c", st->name,
              st->fischamend ? "the Pontoon Bridges in the Fischamend Holding Box"
                             : "the Bridgehead on the northern bank, the Pontoon Bridges on the southern",
              n20_xxyy(st->obj), st->area);
    s->phase = N20_PH_EVENTS; /* the game begins */
}

int n20_ae_pending_seat(const n20_state *s) {
    return s->phase == N20_PH_AE_SITE ? N20_FRENCH : -1;
}

int n20_ae_pending(const n20_state *s, const char **kind, const char **rule, const char **prompt) {
    if (s->phase != N20_PH_AE_SITE) return 0;
    *kind = "crossing-site";
    *rule = "3.0";
    *prompt = "choose the French Danube River crossing site (site NAME)";
    return 1;
}

/* the pontoon (0, 1) whose site joins a and b, -1 none; fisch: also the Fischamend entry (a == 0) */
static int s_pontoon_of(const n20_state *s, uint16_t a, uint16_t b) {
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (!st) continue;
        if (st->fischamend) {
            if (a == 0) {
                for (int i = 0; i < s->sc->nentry; i++)
                    if (s->sc->entry_area[i] == st->area && s->sc->entry_hex[i] == b) return p;
            }
            continue;
        }
        if ((a == st->north && b == st->south) || (a == st->south && b == st->north)) return p;
    }
    return -1;
}

int n20_ae_combat_bridge(const n20_state *s, uint16_t a, uint16_t b) {
    if (!n20_ae(s) || !a || !b) return 0;
    /* R-dn-6.10-combat-bridge: a standing, intact Pontoon Bridges is a Bridge hexside for combat
     * (attacks across it may be made, never obliged: no ZOC crosses a Major River in v3 [7.0]
     * [9.4.3]); Damaged or destroyed, the Danube is a Major River again */
    int p = s_pontoon_of(s, a, b);
    return p >= 0 && s->dn.pontoon[p] == N20_PON_INTACT;
}

/* 1 if a -> b is the hexside of a crossing site not chosen [6.10] "cannot use any of the other" */
static int s_other_site(const n20_state *s, uint16_t a, uint16_t b) {
    for (int k = 0; k < s->sc->dn.nsites; k++) {
        const n20_dn_site *st = &s->sc->dn.site[k];
        if (st->fischamend || k + 1 == s->dn.site || k + 1 == s->dn.site2) continue;
        if ((a == st->north && b == st->south) || (a == st->south && b == st->north)) return 1;
    }
    return 0;
}

int n20_ae_step(const n20_state *s, int u, uint16_t from, uint16_t to, brt_reject *err) {
    if (!n20_ae(s) || s->sc->units[u].side != N20_FRENCH) return 0;
    int p = s_pontoon_of(s, from, to);
    if (p < 0) {
        if (from && s_other_site(s, from, to))
            return n20_reject(err, "6.10", "the French use only their chosen crossing site, not %04u-%04u",
                              n20_xxyy(from), n20_xxyy(to));
        return 0;
    }
    if (from == 0 && s->u[u].where != N20_U_REINF) return 0;
    switch (s->dn.pontoon[p]) {
    case N20_PON_INTACT: return from ? 1 : 0; /* a Fischamend entry is an ordinary entry otherwise */
    case N20_PON_DAMAGED:
        return n20_reject(err, "6.10.1", "the Pontoon Bridges are Damaged: no French unit crosses the river "
                          "in either direction");
    case N20_PON_DESTROYED:
        return n20_reject(err, "6.10.2", "the Pontoon Bridges are destroyed");
    default: return 0;
    }
}

/* [6.10] the Pontoon Crossing Table for unit u crossing pontoon p: 1 if it crosses */
static int s_cross_roll(n20_state *s, int u, int p, brt_dice *dice, n20_out *out, const char *how) {
    int us[1] = {u};
    uint32_t die = n20_roll(s, dice, us, 1, "6.10 pontoon crossing");
    int res = s->sc->dn.pontoon_cross[die - 1];
    int v[2] = {(int)die, res};
    if (res != N20_PC_PASS) s->dn.pontoon[p] = N20_PON_DAMAGED;
    n20_event(out, s, "pontoon-crossing", us, 1, NULL, 0, v, 2, "[6.10] " N20_U(0) " %s the Pontoon Bridges, rolls %u: %s",
              how, die,
              res == N20_PC_FAIL_DAMAGED ? "it fails to cross and the Pontoon Bridges are Damaged"
              : res == N20_PC_PASS_DAMAGED ? "it crosses and the Pontoon Bridges are Damaged"
                                           : "it crosses, the Pontoon Bridges remain intact");
    return res != N20_PC_FAIL_DAMAGED;
}

/* R-dn-6.10-cut-short: a move cut short before a crossing must not end stacked [6.9]: it ends at
 * the last hex of the path entered where it may stop (no other friendly unit), else where it
 * began; returns the hexes of the path entered */
static int s_cut_short(const n20_state *s, int u, const uint16_t *path, int i, n20_out *out) {
    if (s->sc->units[u].type == N20_LEADER) return i; /* [16.9.2] Leaders are stack free */
    int j = i;
    while (j > 0) {
        int o = n20_unit_at(s, path[j - 1]);
        if (o < 0 || o == u || n20_side_of(s, o) != n20_side_of(s, u)) break;
        j--;
    }
    if (j < i) {
        int us[1] = {u};
        uint16_t h = path[i - 1];
        n20_event(out, s, "cut-short", us, 1, &h, 1, NULL, 0,
                  "[6.9] " N20_U(0) " cannot end its move stacked at %04u: it stops %s", n20_xxyy(h),
                  j ? "at the last hex of its path where it may" : "where it began");
    }
    return j;
}

int n20_ae_cross(n20_state *s, int u, const uint16_t *path, int n, brt_dice *dice, n20_out *out, int flag) {
    if (!n20_ae(s) || s->sc->units[u].side != N20_FRENCH) return n;
    uint16_t from = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    for (int i = 0; i < n; i++) {
        int p = s_pontoon_of(s, from, path[i]);
        if (p >= 0 && !(from == 0 && s->u[u].where != N20_U_REINF)) {
            /* R-dn-6.10-roll: a path that would cross again after the pontoon became Damaged
             * ends before that crossing [6.10.1] */
            if (s->dn.pontoon[p] != N20_PON_INTACT || !s_cross_roll(s, u, p, dice, out, "crosses")) {
                i = s_cut_short(s, u, path, i, out);
                if (i == 0 && from) s->u[u].flags |= (uint16_t)flag; /* it remains where it is */
                if (i == 0 && from && s->u[u].where == N20_U_MAP) {
                    from = s->u[u].hex;
                    int us[1] = {u};
                    n20_event(out, s, "moved", us, 1, &from, 1, NULL, 0,
                              "[6.10] " N20_U(0) " remains at %04u: its move ends", n20_xxyy(from));
                }
                return i;
            }
            if (from == 0 && s_site(s, p)->fischamend) s->dn.area_d = 1; /* [9.8.6] */
        }
        from = path[i];
    }
    return n;
}

int n20_ae_retreat_cross(n20_state *s, int u, uint16_t from, uint16_t to, int routing, brt_dice *dice,
                         n20_out *out) {
    if (!n20_ae(s) || s->sc->units[u].side != N20_FRENCH) return 0;
    int p = s_pontoon_of(s, from, to);
    if (p < 0 || !from || s->dn.pontoon[p] != N20_PON_INTACT) return 0;
    if (!s_cross_roll(s, u, p, dice, out, "retreats across")) return 1; /* [6.10] it Breaks [9.6.1] */
    return routing ? 2 : 0; /* [6.10] a Routing unit still makes a Hazardous Retreat check */
}

int n20_ae_is_entry(const n20_state *s, int u, uint16_t h) {
    if (!n20_ae(s) || s->sc->units[u].side != N20_FRENCH || !s->dn.site) return -1;
    int any = (s->opts & N20_OPT_BERTRAND) != 0; /* [17.3] any French Entry Area */
    for (int i = 0; i < s->sc->nentry; i++) {
        if (s->sc->entry_hex[i] != h) continue;
        char a = s->sc->entry_area[i];
        for (int p = 0; p < 2; p++) {
            const n20_dn_site *st = s_site(s, p);
            if (st && st->area == a) return 1; /* [11.6] the area of the chosen site */
        }
        for (int k = 0; any && k < s->sc->dn.nsites; k++)
            if (s->sc->dn.site[k].area == a) return 1;
    }
    return 0;
}

int n20_ae_loc_active(const n20_state *s, int army, uint16_t L) {
    if (!n20_ae(s) || army != N20_ARMY_FRENCH || !s->dn.site) return 1;
    /* [9.8.6] only the LOC of the site's Entry Area; with Fischamend also Area D's once a unit
     * entered through it */
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (st && st->loc == L) return 1;
    }
    return s->dn.area_d && s->sc->dn.fisch_loc == L;
}

void n20_ae_repair(n20_state *s, brt_dice *dice, n20_out *out) {
    if (!n20_ae(s) || s->phasing != N20_FRENCH) return;
    for (int p = 0; p < 2; p++) {
        if (s->dn.pontoon[p] != N20_PON_DAMAGED) continue;
        /* [4.1] the Pontoon Repair Step, before the draw (table: R-dn-6.10.3-repair) */
        uint32_t die = brt_dice_roll(dice, 6, "4.1 pontoon repair"); /* public */
        int ok = s->sc->dn.pontoon_repair[die - 1] != 0;
        if (ok) s->dn.pontoon[p] = N20_PON_INTACT;
        int v[1] = {(int)die};
        n20_event(out, s, "pontoon-repair", NULL, 0, NULL, 0, v, 1,
                  "[4.1] Pontoon Repair Step: the French roll %u: the Pontoon Bridges are %s", die,
                  ok ? "repaired" : "still Damaged");
    }
}

static void s_destroy(n20_state *s, int p, n20_out *out, const char *why) {
    s->dn.pontoon[p] = N20_PON_DESTROYED;
    N20_EV(out, s, "pontoon-destroyed", "[%s] the Pontoon Bridges are permanently destroyed", why);
}

void n20_ae_card(n20_state *s, int effect, brt_dice *dice, n20_out *out) {
    if (effect != N20_E_PONTOON_DAMAGE || !n20_ae(s)) return;
    /* R-dn-17.3-two-pontoons: an Event damages the first Pontoon Bridges still standing */
    int p = s->dn.pontoon[0] == N20_PON_INTACT || s->dn.pontoon[0] == N20_PON_DAMAGED ? 0 : 1;
    if (s->dn.pontoon[p] == N20_PON_INTACT) {
        s->dn.pontoon[p] = N20_PON_DAMAGED;
        N20_EV(out, s, "pontoon-damaged", "[6.10.1] the Event damages the Pontoon Bridges");
    } else if (s->dn.pontoon[p] == N20_PON_DAMAGED) {
        /* [6.10.2] already Damaged: the Austrian player rolls to see if it is destroyed instead */
        uint32_t die = brt_dice_roll(dice, 6, "6.10.2 pontoon destruction"); /* public */
        int v[1] = {(int)die};
        int gone = s->sc->dn.pontoon_destroy[die - 1] != 0;
        n20_event(out, s, "pontoon-roll", NULL, 0, NULL, 0, v, 1,
                  "[6.10.2] the Pontoon Bridges are already Damaged: the Austrian player rolls %u: %s", die,
                  gone ? "destroyed" : "they stay Damaged");
        if (gone) s_destroy(s, p, out, "6.10.2");
    }
}

int n20_ae_bridgehead_at(const n20_state *s, uint16_t h) {
    if (!n20_ae(s)) return 0;
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (st && s->dn.bridgehead[p] && !st->fischamend && st->north == h) return 1;
    }
    return 0;
}

void n20_ae_advanced(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    if (!n20_ae(s) || s->sc->units[u].side == N20_FRENCH) return;
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (!st || !s->dn.bridgehead[p] || st->fischamend) continue;
        /* R-dn-9.10.1-pursuit: "enters" the hex, to stop there or pursuing through it [9.8.5] */
        int in = 0;
        for (int i = 0; i < n; i++) in |= path[i] == st->north;
        if (!in) continue;
        /* [9.10.1] Catastrophe: the Bridgehead, its Garrison and the Pontoon Bridges are gone */
        s->dn.bridgehead[p] = 0;
        int g = s_garrison(s, p);
        if (g >= 0 && s->u[g].where != N20_U_OUT && s->u[g].where != N20_U_ELIM && s->u[g].hex == st->north)
            s->u[g].where = N20_U_ELIM;
        int us[1] = {u};
        n20_event(out, s, "catastrophe", us, 1, &st->north, 1, NULL, 0,
                  "[9.10.1] Catastrophe: " N20_U(0) " enters the Bridgehead at %04u", n20_xxyy(st->north));
        s_destroy(s, p, out, "9.10.1");
        n20_morale_one(s, N20_FRENCH, s->sc->dn.catastrophe, out, "9.10.1 catastrophe");
    }
}

int n20_ae_captured(const n20_state *s, int side) {
    if (!n20_ae(s) || side == N20_FRENCH) return 0;
    int n = 0;
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (!st || (p == 1 && s_site(s, 0) && s_site(s, 0)->obj == st->obj)) continue; /* one marker a hex */
        int o = n20_unit_at(s, st->obj);
        if (o >= 0 && n20_side_of(s, o) == side) n++;
    }
    return n;
}

int n20_ae_rest(const n20_state *s, int side, int rest, n20_out *out) {
    if (!n20_ae(s)) return rest;
    (void)out;
    if (side == N20_FRENCH) {
        /* [14.2] Main Crossing: no Rest point while the Pontoon Bridges are Damaged */
        if (s->dn.pontoon[0] == N20_PON_DAMAGED) return 0;
        return rest;
    }
    /* [14.1] Home Ground: +2 if the French occupy none of the yellow-star hexes (R-dn-14.1-control) */
    for (int i = 0; i < s->sc->dn.nhome; i++) {
        int o = n20_unit_at(s, s->sc->dn.home[i]);
        if (o >= 0 && n20_side_of(s, o) == N20_FRENCH) return rest;
    }
    return s->sc->dn.home_mode == 0 && s->sc->dn.nhome ? s->sc->dn.home_bonus : rest;
}

int n20_ae_french_marginal(const n20_state *s) {
    if (!n20_ae(s)) return 0;
    if (s->morale[N20_FRENCH] < s->morale[N20_ALLIED] + 1) return 0;
    if (n20_ae_captured(s, N20_ALLIED)) return 0; /* an Austrian unit in the French Objective */
    return s->dn.pontoon[0] != N20_PON_DESTROYED; /* "if used": R-dn-17.3-two-pontoons */
}

void n20_ae_view(const n20_state *s, char names[4][24], int *bh, uint32_t *bh_hex, uint32_t *pon_hex,
                 uint32_t *obj, int *bh2, uint32_t *obj2) {
    const n20_dn_site *a = s_site(s, 0), *b = s_site(s, 1);
    snprintf(names[0], 24, "%s", a ? a->name : "");
    snprintf(names[1], 24, "%s", s_pon_name(s->dn.pontoon[0]));
    snprintf(names[2], 24, "%s", b ? b->name : "");
    snprintf(names[3], 24, "%s", s_pon_name(s->dn.pontoon[1]));
    *bh = s->dn.bridgehead[0] != 0;
    *bh_hex = a && !a->fischamend ? n20_xxyy(a->north) : 0;
    *pon_hex = a && !a->fischamend ? n20_xxyy(a->south) : 0;
    *obj = a ? n20_xxyy(a->obj) : 0;
    *bh2 = s->dn.bridgehead[1] != 0;
    *obj2 = b ? n20_xxyy(b->obj) : 0;
}

void n20_ae_view_text(const n20_state *s, brt_buf *out) {
    if (!n20_ae(s)) return;
    for (int p = 0; p < 2; p++) {
        const n20_dn_site *st = s_site(s, p);
        if (!st) {
            if (p == 0) buf_printf(out, "Crossing site: not chosen yet [3.0]\n");
            continue;
        }
        if (st->fischamend)
            buf_printf(out, "Crossing site %s [6.11]: Pontoon Bridges %s in the Fischamend Holding Box; "
                       "French Objective %04u; Entry Area %c\n",
                       st->name, s_pon_name(s->dn.pontoon[p]), n20_xxyy(st->obj), st->area);
        else
            buf_printf(out, "Crossing site %s: Bridgehead %04u %s; Pontoon Bridges %04u %s; French Objective "
                       "%04u; Entry Area %c\n",
                       st->name, n20_xxyy(st->north), s->dn.bridgehead[p] ? "standing" : "destroyed",
                       n20_xxyy(st->south), s_pon_name(s->dn.pontoon[p]), n20_xxyy(st->obj), st->area);
    }
}

void n20_ae_linz(n20_state *s, brt_dice *dice, n20_out *out) {
    if (!(s->opts & N20_OPT_LINZ)) return;
    for (int i = 0; i < s->sc->nunits; i++) {
        n20_unit *u = &s->u[i];
        if (!s->sc->units[i].linz || n20_side_of(s, i) != s->phasing || u->where != N20_U_REINF ||
            u->arrive > s->turn || ((s->dn.linz_in >> i) & 1))
            continue;
        int us[1] = {i};
        uint32_t die = n20_roll(s, dice, us, 1, "17.2 summoned from linz");
        int res = s->sc->dn.linz[die - 1], v[1] = {(int)die};
        const char *what = "";
        switch (res) {
        case N20_LZ_REMOVED: /* 1: removed from play at no Morale penalty */
            u->where = N20_U_OUT;
            what = "it fails to arrive and is removed from play (no Morale penalty)";
            break;
        case N20_LZ_DELAYED: /* 2-4: one Turn ahead, roll again */
            u->arrive = (uint8_t)(s->turn + 1);
            what = "it is delayed a Turn";
            break;
        case N20_LZ_NEXT_TURN: /* 5: arrives, but enters the map next Turn */
            u->arrive = (uint8_t)(s->turn + 1);
            s->dn.linz_in |= 1ull << i;
            what = "it arrives but cannot move this Turn: it enters the map next Turn";
            break;
        default: /* 6: arrives and moves normally */
            s->dn.linz_in |= 1ull << i;
            what = "it arrives and can move normally this Turn";
            break;
        }
        n20_event(out, s, "reinforcement", us, 1, NULL, 0, v, 1, "[17.2] " N20_U(0) " Summoned from Linz rolls %u: %s",
                  die, what);
    }
}

const uint16_t *n20_ae_locs(const n20_state *s, int army, int *n, uint16_t buf[4]) {
    if (!n20_ae(s) || army != N20_ARMY_FRENCH || !s->dn.site) {
        *n = s->sc->nloc[army];
        return s->sc->loc[army];
    }
    /* [9.8.6] the LOC of the site's Entry Area; [17.3] the second site's; the Area D LOC once a
     * unit entered there with Fischamend */
    uint16_t c[3] = {s_site(s, 0)->loc, s->dn.site2 ? s_site(s, 1)->loc : 0,
                     s->dn.area_d ? s->sc->dn.fisch_loc : 0};
    int k = 0;
    for (int i = 0; i < 3; i++) {
        int dup = !c[i];
        for (int j = 0; j < k; j++) dup |= buf[j] == c[i];
        if (!dup) buf[k++] = c[i];
    }
    *n = k;
    return buf;
}
