/*
 * zoc.c - Zones of Control [7.0]-[7.7] and adjacency.
 */
#include <string.h>

#include "n20.h"

/* n20_is_fortified(sc, s, h) and n20_is_builtup_at(s, h) with ae = n20_ae(s) asked once (the
 * A-E Bridgehead [9.10] is a Redoubt only in a game with crossing sites) */
static int s_fort(const n20_state *s, int ae, uint16_t h) {
    if (h >= N20_HEXES) return 0;
    int t = s->sc->terrain[h];
    if (t == N20_T_FORTIFIED || t == N20_T_REDOUBT) return 1;
    return ae && n20_ae_bridgehead_at(s, h);
}

static int s_builtup(const n20_state *s, int ae, uint16_t h) {
    return h < N20_HEXES && (s->sc->terrain[h] == N20_T_TOWN || s_fort(s, ae, h));
}

/* 0 none, 1 a ZOC, 2 a ZOC across a bridged/forded Major River hexside [7.1] */
static int s_zoc_kind(const n20_state *s, int u, uint16_t h) {
    const n20_scenario *sc = s->sc;
    const n20_unit *x = &s->u[u];
    /* every test is a pure predicate: the cheapest first, adjacency before the call */
    if (sc->units[u].type == N20_LEADER) return 0;           /* [16.9.3] */
    if (x->routed) return 0;                                  /* [9.6.2] loses its ZOCs */
    if (x->flags & N20_UF_CONTACT) return 0;                  /* [8.2.4] loses its ZOC */
    int d = n20_dir(sc, x->hex, h);
    if (d < 0) return 0;
    if (!n20_map_force(s, u)) return 0;                      /* [9.4.4.1] a Garrison exerts a ZOC */
    int ae = n20_ae(s);
    if (s_fort(s, ae, h)) return 0;                           /* [7.0] not into Fortified or Redoubt */
    if (s_builtup(s, ae, x->hex) && s_builtup(s, ae, h)) return 0; /* [7.0] built-up area */
    int w = n20_weather(s);
    if (n20_side_river(sc, w, x->hex, d) == N20_RIV_MAJOR)
        return sc->cross[x->hex][d] && n20_ed_has(s, N20_EDF_BRIDGE_ZOC) ? 2 : 0; /* [7.1]; v3 [7.0] never */
    return 1;
}

int n20_exerts_zoc(const n20_state *s, int u, uint16_t h) { return s_zoc_kind(s, u, h) != 0; }

/* n20_index_build() answers the same from a table (n20_ix_in_ezoc): change both together
 * (tests/unit/test_n20_index.c compares them) */
int n20_in_ezoc(const n20_state *s, uint16_t h, int enemy, int ignore_bridged) {
    int row = h / 32;
    for (int i = 0; i < s->sc->nunits; i++) {
        if (s->sc->units[i].side != enemy) continue;
        /* a ZOC reaches only the adjacent hexes: none from a unit two rows away or more */
        if ((unsigned)(s->u[i].hex / 32 - row + 1) > 2u) continue;
        int k = s_zoc_kind(s, i, h);
        if (k == 1 || (k == 2 && !ignore_bridged)) return 1;
    }
    return 0;
}

void n20_index_build(const n20_state *s, n20_index *ix) {
    const n20_scenario *sc = s->sc;
    memset(ix->at, 0xff, sizeof ix->at);
    memset(ix->zoc, 0, sizeof ix->zoc);
    int w = n20_weather(s), bridge_zoc = -1, ae = n20_ae(s);
    for (int i = sc->nunits - 1; i >= 0; i--) { /* the first unit wins, as in n20_unit_at */
        const n20_unit *x = &s->u[i];
        if (!n20_map_force(s, i) || x->hex >= N20_HEXES) continue; /* [9.4.4.1] a Garrison exerts a ZOC */
        if (x->where == N20_U_MAP && sc->units[i].type != N20_LEADER)
            ix->at[x->hex] = (int8_t)i; /* as n20_unit_at [16.9.2] */
        /* s_zoc_kind() toward each neighbour (the hexes n20_dir() finds, in direction d), its
         * tests on the unit and its hex made once */
        if (sc->units[i].type == N20_LEADER || x->routed || (x->flags & N20_UF_CONTACT)) continue;
        int bu = s_builtup(s, ae, x->hex);
        for (int d = 0; d < 6; d++) {
            uint16_t h;
            if (n20_neighbor(sc, x->hex, d, &h) < 0) continue;
            if (s_fort(s, ae, h)) continue;                    /* [7.0] */
            if (bu && s_builtup(s, ae, h)) continue;           /* [7.0] */
            int k = 1;
            if (n20_side_river(sc, w, x->hex, d) == N20_RIV_MAJOR) { /* [7.1]; v3 [7.0] never */
                if (bridge_zoc < 0) bridge_zoc = n20_ed_has(s, N20_EDF_BRIDGE_ZOC) != 0;
                k = sc->cross[x->hex][d] && bridge_zoc ? 2 : 0;
            }
            if (k) ix->zoc[h] |= (uint8_t)(1u << (2 * sc->units[i].side + (k - 1)));
        }
    }
}

int n20_adjacent_units(const n20_state *s, int u, int v) {
    if (!n20_map_force(s, u) || !n20_map_force(s, v)) return 0; /* [9.4.4.1] a Garrison fights in its hex */
    int d = n20_dir(s->sc, s->u[u].hex, s->u[v].hex);
    if (d < 0) return 0;
    return !n20_side_blocked(s->sc, n20_weather(s), s->u[u].hex, d) || /* [7.1] */
           n20_ae_combat_bridge(s, s->u[u].hex, s->u[v].hex); /* A-E [6.10] an intact pontoon */
}

int n20_adjacent_react(const n20_state *s, int u, int v) {
    if (!n20_adjacent_units(s, u, v)) return 0;
    if (n20_ed_has(s, N20_EDF_BRIDGE_ZOC)) return 1;
    /* v3 [7.0] "units separated by Major River hexes (even at bridges and fords) are not
     * considered 'adjacent'" (docs/danube-rulings/edition.md R-dn-7.0-adjacent) */
    int d = n20_dir(s->sc, s->u[u].hex, s->u[v].hex);
    return n20_side_river(s->sc, n20_weather(s), s->u[u].hex, d) != N20_RIV_MAJOR;
}

int n20_loc_distance(const n20_state *s, int army, uint16_t h) {
    int best = 999, nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] the site's LOC */
    for (int i = 0; i < nl; i++) {
        int d = n20_distance(h, ls[i]);
        if (d < best) best = d;
    }
    uint16_t x = n20_wg_extra_loc(s, army); /* Wagram [9.8.6] the Floridsdorf LOC */
    if (x && n20_distance(h, x) < best) best = n20_distance(h, x);
    return best;
}
