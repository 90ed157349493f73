/*
 * rally.c - Rallying [10.0]: the Rally Table, spending Morale per army
 * [12.2.2], placing rallied units on empty friendly LOC hexes.
 */
#include <string.h>

#include "n20.h"

int n20_has_broken(const n20_state *s, int side, int army) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_BROKEN && n20_side_of(s, i) == side &&
            (army < 0 || s->sc->units[i].army == army) && s->sc->units[i].type != N20_LEADER)
            return 1;
    return 0;
}

int n20_has_rallied(const n20_state *s, int side) {
    for (int i = 0; i < s->sc->nunits; i++)
        if ((s->u[i].flags & (N20_UF_RALLIED | N20_UF_CADRE_Q)) && n20_side_of(s, i) == side) return 1;
    return 0;
}

int n20_rally_check(const n20_state *s, const int *armies, int n, brt_reject *err) {
    if (s->phase != N20_PH_RALLY) return n20_reject(err, "10.0", "no Rally now");
    for (int i = 0; i < n; i++) {
        int a = armies[i];
        int side = a == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
        if (a < 0 || a >= N20_ARMIES || side != s->phasing)
            return n20_reject(err, "12.2.2", "Morale is spent only for your own armies");
        for (int k = 0; k < i; k++)
            if (armies[k] == a) return n20_reject(err, "12.2", "one Morale Point at a time per army");
        if (!n20_has_broken(s, side, a))
            return n20_reject(err, "12.2.2", "the %s army has no Broken unit to rally", n20_army_name(a));
    }
    if (n > s->morale[s->phasing])
        return n20_reject(err, "12.2.2", "not enough Morale Points");
    return 0;
}

void n20_rally_apply(n20_state *s, const int *armies, int n, brt_dice *dice, n20_out *out) {
    int spent[N20_ARMIES] = {0};
    for (int i = 0; i < n; i++) {
        spent[armies[i]] = 1;
        N20_EV(out, s, "rally-spend", "[12.2.2] the %s army spends a Morale Point to rally",
               n20_army_name(armies[i]));
    }
    if (n) {
        n20_morale_one(s, s->phasing, -n, out, "12.2.2 rally");
        if (s->over) return;
    }
    for (int u = 0; u < s->sc->nunits; u++) {
        if (s->u[u].where != N20_U_BROKEN || n20_side_of(s, u) != s->phasing) continue;
        const n20_unit_def *d = &s->sc->units[u];
        if (d->type == N20_LEADER) continue;
        int us[1] = {u};
        uint32_t die = n20_roll(s, dice, us, 1, "10.0 rally"); /* [16.1] as the unit is seen */
        int m = (int)die + (d->flags & N20_FLAG_ELITE ? s->sc->rally_elite : 0) +
                (spent[d->army] ? s->sc->rally_morale : 0);
        if (m < 1) m = 1;
        if (m > 6) m = 6;
        int r = s->sc->rally[m - 1];
        int v[3] = {(int)die, m, r};
        int ur = (s->opts & N20_OPT_UNIT_REDUCTION) && r == 1 && d->type == N20_INF;
        n20_event(out, s, "rally", us, 1, NULL, 0, v, 3, "[10.0] " N20_U(0) " rally roll %u (modified %d): %s",
                  die, m, r == 2 ? "Rallied" : !ur && r == 1 ? "Cadre? (16.5 not in use: stays Broken)"
                  : ur ? "Cadre? (16.5.1: it may be exchanged for a Cadre unit)" : "stays Broken");
        if (r == 2) s->u[u].flags |= N20_UF_RALLIED;
        if (ur) s->u[u].flags |= N20_UF_CADRE_Q; /* [16.5.1] the choice is made before placing */
    }
    s->phase = N20_PH_PLACE;
}

int n20_place_check(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    if (s->phase != N20_PH_PLACE) return n20_reject(err, "10.0", "nothing to place now");
    if (u < 0 || u >= s->sc->nunits || !(s->u[u].flags & N20_UF_RALLIED))
        return n20_reject(err, "10.0", "that unit has not just rallied");
    int army = s->sc->units[u].army, ok = 0, nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] the site's LOC */
    for (int i = 0; i < nl; i++)
        if (ls[i] == hex) ok = 1;
    if (!ok && n20_rally_on_hex(s, u, hex)) return 0; /* [16.9.8] */
    if (!ok && (s->opts & N20_OPT_RALLY_LOCATIONS)) return n20_rally_hex_check(s, u, hex, err); /* [16.4] */
    if (!ok)
        return n20_reject(err, "10.0", "%s must be placed on a friendly LOC hex of its army", N20_RUID(s, u));
    if (n20_enemy_at(s, hex, n20_side_of(s, u)) || n20_garrison_blocks(s, hex, n20_side_of(s, u)) || /* [9.4.4.1] */
        (n20_unit_at(s, hex) >= 0 && s->sc->units[u].type != N20_LEADER)) /* [16.9.7] R-16.9.7-place */
        return n20_reject(err, "10.0", "the LOC hex %04u is not empty", n20_xxyy(hex));
    return 0;
}

void n20_place_apply(n20_state *s, int u, uint16_t hex, n20_out *out) {
    s->u[u].where = N20_U_MAP;
    s->u[u].hex = hex;
    s->u[u].routed = 0;
    s->u[u].flags = N20_UF_MOVED; /* placed units do not also move this turn (rulings R-10.0-place) */
    if (n20_fog(s)) s->u[u].hidden = 1; /* [16.1.3] newly Rallied units arrive hidden */
    if (n20_fog(s)) s->u[u].flags |= N20_UF_PLACED; /* a Dummy may arrive with it */
    int us[1] = {u};
    n20_event(out, s, "placed", us, 1, &hex, 1, NULL, 0, "[10.0] " N20_U(0) " is placed at %04u",
              n20_xxyy(hex));
}
