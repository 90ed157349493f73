/*
 * night.c - Night Turns [14.0]: the automatic Night Operations after the
 * Rally step (captured LOC and Objective hexes, rest). The movement and ZOC
 * effects of night live in movement.c and zoc.c; the reshuffle in sequence.c.
 */
#include "n20.h"

void n20_night_ops_auto(n20_state *s, n20_out *out) {
    int side = s->phasing, enemy = 1 - side;
    const n20_scenario *sc = s->sc;
    int8_t g[2] = {0, 0}, l[2] = {0, 0};
    /* 2. Enemy Morale Loss due to Captured Terrain */
    int captured = 0;
    for (int a = 0; a < N20_ARMIES; a++) {
        int army_side = a == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
        if (army_side != enemy) continue;
        int nl;
        uint16_t lb[4];
        const uint16_t *ls = n20_ae_locs(s, a, &nl, lb); /* A-E [9.8.6] the site's LOC */
        for (int i = 0; i < nl; i++) {
            int o = n20_unit_at(s, ls[i]);
            if (o >= 0 && n20_side_of(s, o) == side) captured++;
        }
    }
    for (int i = 0; i < sc->nobj[enemy]; i++) {
        int o = n20_unit_at(s, sc->obj[enemy][i]);
        if (o >= 0 && n20_side_of(s, o) == side) captured++;
    }
    captured += n20_ae_captured(s, side); /* A-E [14.0] the French Objective of the crossing site */
    if (captured) {
        l[enemy] = (int8_t)(captured * sc->mc_captured);
        N20_EV(out, s, "captured", "[14.0] %s units hold %d enemy LOC/Objective hex(es)",
               n20_side_name(side), captured);
        n20_morale_change(s, g, l, out, "14.0 captured terrain");
        if (s->over) return;
    }
    /* 3. Morale Recovery from Rest */
    n20_morale_one(s, side, n20_wg_rest(s, side, n20_ae_rest(s, side, sc->rest[side], out)), out,
                   "14.0 rest"); /* A-E [14.1] [14.2]; Wagram [14.0] Home Ground */
}
