/*
 * garrison.c - Garrison Forces [9.4.4]-[9.4.4.5] (both editions: Danube 20 plays the Waterloo 20
 * text, rulings R-dn-9.4.4), Redoubt hexes (the predicate n20_is_fortified), and the Wagram 20
 * Lobau Island Batteries [9.11].
 *
 * A Garrison Force is a `unit` record with flag garrison: an intrinsic force, not an actual unit.
 * In the state it is N20_U_GARRISON at its hex while it is intact (never N20_U_MAP, so that no
 * rule for units on the map counts it: stacking, movement, rally, victory, Morale), and
 * N20_U_ELIM once destroyed [9.4.4.4]. The rules that a Garrison takes part in ask here:
 * n20_map_force() (ZOC, adjacency, battles) and the hooks below.
 */
#include <string.h>

#include "n20.h"

/* n20_is_garrison: inline in n20.h */

int n20_is_battery(const n20_state *s, int u) {
    return n20_is_garrison(s, u) && (s->sc->units[u].flags & N20_FLAG_BATTERY) != 0;
}

/* a friendly actual unit (not a Leader, not a Garrison) on the map in h: n20_unit_at() counts
 * only those, and the units stacked in a hex are all of one side */
static int s_friend_in(const n20_state *s, int side, uint16_t h) {
    int o = n20_unit_at(s, h);
    return o >= 0 && s->sc->units[o].side == side;
}

int n20_garrison_active(const n20_state *s, int u) {
    /* [9.4.4] "while a friendly unit occupies their hex, ignore them completely" */
    return s->u[u].where == N20_U_GARRISON && n20_is_garrison(s, u) &&
           !s_friend_in(s, s->sc->units[u].side, s->u[u].hex);
}

int n20_map_force(const n20_state *s, int u) {
    return s->u[u].where == N20_U_MAP || (s->u[u].where == N20_U_GARRISON && n20_garrison_active(s, u));
}

int n20_garrison_at(const n20_state *s, uint16_t h) {
    if (!s->sc->dn.has_garrison) return -1;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_GARRISON && s->u[i].hex == h) return i;
    return -1;
}

int n20_garrison_blocks(const n20_state *s, uint16_t h, int side) {
    if (!s->sc->dn.has_garrison) return 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_GARRISON && s->u[i].hex == h && s->sc->units[i].side != side) return 1;
    return 0;
}

int n20_garrison_only(const n20_state *s, const uint8_t *units, int n) {
    if (!s->sc->dn.has_garrison || n < 1) return 0;
    for (int i = 0; i < n; i++)
        if (!n20_is_garrison(s, units[i])) return 0;
    return 1;
}

int n20_garrison_attacker_check(const n20_state *s, int a, brt_reject *err) {
    if (!n20_is_battery(s, a))
        return n20_reject(err, "9.4.4.1", "%s is a Garrison Force: Garrisons cannot attack", N20_RUID(s, a));
    if (s->u[a].where != N20_U_GARRISON)
        return n20_reject(err, "9.0", "%s cannot attack: not a phasing unit on the map", N20_RUID(s, a));
    if (!n20_garrison_active(s, a))
        return n20_reject(err, "9.4.4", "the Battery %s is ignored while a friendly unit occupies its hex",
                          N20_RUID(s, a));
    return 0;
}

int n20_garrison_defender_check(const n20_state *s, int d, brt_reject *err) {
    if (s->u[d].where != N20_U_GARRISON)
        return n20_reject(err, "9.0", "%s cannot be attacked: not an enemy unit on the map", N20_RUID(s, d));
    if (!n20_garrison_active(s, d))
        return n20_reject(err, "9.4.4", "%s is ignored while a friendly unit occupies its hex: attack that unit",
                          N20_RUID(s, d));
    return 0;
}

void n20_garrison_result(n20_state *s, const n20_battle *b, int res, n20_out *out) {
    if (!s->sc->dn.has_garrison) return;
    int retreat = res == N20_R_DW || res == N20_R_DR || res == N20_R_DB || res == N20_R_EX;
    int att_hit = res == N20_R_AB || res == N20_R_AR || res == N20_R_AW;
    for (int j = 0; j < b->ndef && retreat; j++) {
        int g = b->def[j];
        if (!n20_is_garrison(s, g) || s->u[g].where != N20_U_GARRISON) continue;
        int us[1] = {g};
        uint16_t h = s->u[g].hex;
        /* rulings R-dn-garrison-crt */
        n20_event(out, s, "garrison-holds", us, 1, &h, 1, NULL, 0,
                  "[9.4.4.1] the Garrison " N20_U(0) " does not retreat and is not Broken: the victors may "
                  "Advance after Combat into %04u, which destroys it [9.4.4.4]", n20_xxyy(h));
    }
    for (int j = 0; j < b->natt && att_hit; j++) {
        int g = b->att[j];
        if (!n20_is_battery(s, g) || s->u[g].where != N20_U_GARRISON) continue;
        int us[1] = {g};
        uint16_t h = s->u[g].hex;
        /* Wagram [9.11] immune to AB, AR and AW (rulings R-dn-wg-9.11-battery) */
        n20_event(out, s, "battery-immune", us, 1, &h, 1, NULL, 0,
                  "[9.11] the Battery " N20_U(0) " ignores the attacker's result: it stays in %04u", n20_xxyy(h));
    }
}

int n20_garrison_rearguard(const n20_state *s) {
    /* [9.4.4.2] an attacker displaced from a hex with its own intact Garrison: the victorious
     * defenders cannot Advance after Combat */
    const n20_fight *f = &s->f;
    if (!s->sc->dn.has_garrison || f->winner > 1 || f->winner == f->att_side) return 0;
    for (int i = 0; i < f->nvacated; i++) {
        int g = n20_garrison_at(s, f->vacated[i]);
        if (g >= 0 && s->sc->units[g].side == f->att_side) return 1;
    }
    return 0;
}

void n20_garrison_place(n20_state *s, int g, uint16_t h) {
    s->u[g].where = N20_U_GARRISON;
    s->u[g].hex = h;
    s->u[g].flags = 0;
    s->u[g].routed = 0;
    s->u[g].hidden = 0; /* a flag on the map, never face-down [16.1] */
}

void n20_garrison_destroy(n20_state *s, int g, int by, n20_out *out) {
    /* [9.4.4.4] permanently destroyed; [9.4.4.5] no Morale effect */
    uint16_t h = s->u[g].hex;
    s->u[g].where = N20_U_ELIM;
    s->u[g].hex = 0;
    s->u[g].flags = 0;
    int us[2] = {g, by};
    if (by >= 0)
        n20_event(out, s, "garrison-destroyed", us, 2, &h, 1, NULL, 0,
                  "[9.4.4.4] the Garrison " N20_U(0) " is destroyed: " N20_U(1) " occupies %04u (no Morale "
                  "effect [9.4.4.5])", n20_xxyy(h));
    else
        n20_event(out, s, "garrison-destroyed", us, 1, &h, 1, NULL, 0,
                  "[9.4.4.4] the Garrison " N20_U(0) " at %04u is destroyed (no Morale effect [9.4.4.5])",
                  n20_xxyy(h));
}

void n20_garrison_entered(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    if (!s->sc->dn.has_garrison) return;
    int side = s->sc->units[u].side;
    for (int i = 0; i < n; i++)
        for (int g = 0; g < s->sc->nunits; g++) {
            if (s->u[g].where != N20_U_GARRISON || s->u[g].hex != path[i] || s->sc->units[g].side == side)
                continue;
            /* [9.4.4.4] destroyed the instant an enemy unit occupies its hex; [9.4.4.3] one stacked
             * with a defeated unit was subsumed into it. The exclusive rules' effects of the loss
             * (A-E [9.10.1] the Bridgehead, Wagram [12.8] Lobau) hook here. */
            n20_garrison_destroy(s, g, u, out);
        }
}

int n20_garrison_def_bonus(const n20_state *s, const n20_battle *b) {
    /* Wagram [9.11] each French unit defending in a Battery hex adds two to its strength */
    if (!s->sc->dn.has_garrison) return 0;
    int bonus = 0;
    for (int j = 0; j < b->ndef; j++) {
        int d = b->def[j];
        if (s->u[d].where != N20_U_MAP || s->sc->units[d].side != N20_FRENCH) continue;
        int g = n20_garrison_at(s, s->u[d].hex);
        if (g >= 0 && n20_is_battery(s, g) && s->sc->units[g].side == N20_FRENCH) bonus += 2;
    }
    return bonus;
}

int n20_battery_supports(const n20_state *s, int a, int d) {
    /* Wagram [9.11] defensive support [16.3.1] across bridged and unbridged Major Rivers: an
     * active Battery supports an adjacent friendly defender whatever the hexside */
    if (!n20_is_battery(s, a) || !n20_garrison_active(s, a)) return 0;
    return n20_dir(s->sc, s->u[a].hex, s->u[d].hex) >= 0;
}

int n20_is_fortified(const n20_scenario *sc, const n20_state *s, uint16_t h) {
    if (h >= N20_HEXES) return 0;
    int t = sc->terrain[h];
    if (t == N20_T_FORTIFIED || t == N20_T_REDOUBT) return 1;
    return s ? n20_ae_bridgehead_at(s, h) : 0; /* A-E [9.10]: the Bridgehead hex while its marker stands */
}

int n20_terrain_at(const n20_state *s, uint16_t h) {
    /* the terrain kind for the Terrain Effects Chart, with what the state adds (A-E [9.10]) */
    if (h >= N20_HEXES) return N20_T_CLEAR;
    int t = s->sc->terrain[h];
    if (t != N20_T_FORTIFIED && n20_is_fortified(s->sc, s, h)) return N20_T_REDOUBT;
    return t;
}

int n20_is_builtup_at(const n20_state *s, uint16_t h) {
    return h < N20_HEXES && (s->sc->terrain[h] == N20_T_TOWN || n20_is_fortified(s->sc, s, h));
}
