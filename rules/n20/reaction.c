/*
 * reaction.c - the Reaction Phase [8.0]-[8.2.4]: Countercharge with Selective
 * Attacks and doubled strength, Disengagement, Maintaining Contact.
 */
#include <string.h>

#include "n20.h"

static int s_adjacent_enemy(const n20_state *s, int u) {
    for (int j = 0; j < s->sc->nunits; j++)
        if (n20_side_of(s, j) != n20_side_of(s, u) && s->sc->units[j].type != N20_LEADER &&
            n20_adjacent_react(s, u, j)) /* v3 [7.0] not across a Major River */
            return 1;
    return 0;
}

/* [8.0] the non-phasing player's Cavalry that begins the phase adjacent to an enemy */
int n20_reaction_eligible(const n20_state *s, int u) {
    return s->u[u].where == N20_U_MAP && n20_side_of(s, u) != s->phasing &&
           (s->sc->units[u].type == N20_CAV || n20_light_disengages(s, u)) && s_adjacent_enemy(s, u);
}

static int s_can_react(const n20_state *s, int u, brt_reject *err) {
    if (s->phase != N20_PH_REACTION) return n20_reject(err, "8.0", "it is not a Reaction Phase");
    if (u < 0 || u >= s->sc->nunits) return n20_reject(err, "8.0", "unknown unit");
    if (!(s->u[u].flags & N20_UF_REACT_OK))
        return n20_reject(err, "8.0", "%s is not a Cavalry unit of the reacting player that began the "
                          "Reaction Phase adjacent to an enemy unit", N20_RUID(s, u));
    if (s->u[u].flags & N20_UF_REACTED)
        return n20_reject(err, "8.0", "%s has already reacted this phase", N20_RUID(s, u));
    if (s->u[u].where != N20_U_MAP) return n20_reject(err, "8.0", "%s is not on the map", N20_RUID(s, u));
    return 0;
}

int n20_countercharge_check(const n20_state *s, const int *att, int na, const int *def, int nd,
                            brt_reject *err) {
    if (na < 1 || nd < 1 || na > N20_MAX_SIDE || nd > N20_MAX_SIDE)
        return n20_reject(err, "8.1", "a Countercharge names attackers and defenders");
    if (s->nbattles >= N20_MAX_BATTLES) return n20_reject(err, "8.1", "too many battles");
    for (int i = 0; i < na; i++) {
        if (s_can_react(s, att[i], err) < 0) return -1;
        if (n20_light_no_charge(s, att[i]))
            return n20_reject(err, s->sc->units[att[i]].type == N20_INF ? "16.7.2" : "16.7.3",
                              "%s cannot Countercharge (Light Infantry only Disengage; Cossacks never "
                              "Countercharge)", N20_RUID(s, att[i]));
        if (s->u[att[i]].routed && n20_ed_has(s, N20_EDF_ROUTED_NO_CC)) /* v3 [8.1]: no such rule */
            return n20_reject(err, "8.1.1", "%s is Routed and cannot Countercharge", N20_RUID(s, att[i]));
        for (int k = 0; k < i; k++)
            if (att[k] == att[i]) return n20_reject(err, "9.1.2", "%s named twice", N20_RUID(s, att[i]));
    }
    if (na > 1 && nd > 1)
        return n20_reject(err, "8.1.3", "several Cavalry units combine only against a single enemy unit");
    for (int j = 0; j < nd; j++) {
        if (def[j] < 0 || def[j] >= s->sc->nunits || !n20_map_force(s, def[j]) || /* a Garrison too [9.4.4.1] */
            n20_side_of(s, def[j]) != s->phasing || s->sc->units[def[j]].type == N20_LEADER)
            return n20_reject(err, "8.1", "the defender must be an enemy unit on the map");
        for (int k = 0; k < j; k++)
            if (def[k] == def[j]) return n20_reject(err, "9.1.2", "%s named twice", N20_RUID(s, def[j]));
        for (int i = 0; i < na; i++)
            if (!n20_adjacent_react(s, att[i], def[j])) /* v3 [7.0] not across a Major River */
                return n20_reject(err, "8.1", "%s is not adjacent to %s (Countercharging Cavalry does "
                                  "not move first)", N20_RUID(s, att[i]), N20_RUID(s, def[j]));
    }
    return 0;
}

/* hidden: 0 = the enemy Cavalry the reacting player can see (with fog-of-war, the face-up
 * ones [16.1.1]), 1 = the hidden ones only */
static int s_pinned_by(const n20_state *s, int u, int hidden) {
    for (int j = 0; j < s->sc->nunits; j++)
        if (n20_side_of(s, j) != n20_side_of(s, u) && s->sc->units[j].type == N20_CAV &&
            (n20_fog(s) && s->u[j].hidden) == hidden && n20_exerts_zoc(s, j, s->u[u].hex))
            return 1;
    return 0;
}
static int s_pinned(const n20_state *s, int u) { return s_pinned_by(s, u, 0); }

static int s_free_hex(const n20_state *s, int u, uint16_t h) {
    return n20_unit_at(s, h) < 0 && !n20_enemy_at(s, h, n20_side_of(s, u)) && /* [16.9] */
           !n20_garrison_blocks(s, h, n20_side_of(s, u)) && /* [9.4.4.1] */
           !n20_in_ezoc(s, h, 1 - n20_side_of(s, u), 0);
}

int n20_disengage_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err) {
    if (s_can_react(s, u, err) < 0) return -1;
    if (n20_wg_caution_check(s, u, "Disengage", err) < 0) return -1; /* Wagram [6.11] */
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    if (s_pinned(s, u) && !n20_light_unpinned(s, u))
        return n20_reject(err, "8.2.2", "%s is Pinned: it is in the ZOC of an enemy Cavalry unit", id);
    if (n < 1 || n > 6) return n20_reject(err, "8.2.3", "Disengagement moves one hex (more only through friends)");
    int w = n20_weather(s);
    uint16_t cur = s->u[u].hex;
    int any_direct = 0;
    for (int d = 0; d < 6; d++) {
        uint16_t nb;
        if (n20_neighbor(s->sc, cur, d, &nb) == 0 && n20_ae_step(s, u, cur, nb, NULL) >= 0 && /* A-E [6.10] */
            (n20_ae_step(s, u, cur, nb, NULL) == 1 || !n20_side_blocked(s->sc, w, cur, d)) && s_free_hex(s, u, nb) &&
            n20_wg_retreat_side(s, u, cur, nb) >= 0) /* Wagram [6.10.1] [16.10.1] */
            any_direct = 1;
    }
    for (int i = 0; i < n; i++) {
        int d = n20_dir(s->sc, cur, path[i]);
        int pontoon = d < 0 ? 0 : n20_ae_step(s, u, cur, path[i], err); /* A-E [6.10] the Pontoon Bridges */
        if (pontoon < 0) return -1;
        int wg = d < 0 ? 0 : n20_wg_retreat_side(s, u, cur, path[i]); /* Wagram [6.10.1] [16.10.1] */
        if (d < 0 || wg < 0 || (!pontoon && !wg && n20_side_blocked(s->sc, w, cur, d)))
            return n20_reject(err, "8.2.3", "%s cannot disengage into %04u", id, n20_xxyy(path[i]));
        if (n20_in_ezoc(s, path[i], 1 - n20_side_of(s, u), 0))
            return n20_reject(err, "8.2.3", "%s must disengage into a hex not in an enemy ZOC; %04u is", id,
                              n20_xxyy(path[i]));
        int o = n20_unit_at(s, path[i]);
        int last = i + 1 == n;
        if (n20_enemy_at(s, path[i], n20_side_of(s, u))) /* an enemy Leader too [16.9] */
            return n20_reject(err, "6.3", "%s cannot enter %04u: an enemy unit is there", id, n20_xxyy(path[i]));
        if (n20_garrison_blocks(s, path[i], n20_side_of(s, u)))
            return n20_reject(err, "9.4.4.1", "%s cannot enter %04u: an enemy Garrison holds it", id, n20_xxyy(path[i]));
        if (last && o >= 0)
            return n20_reject(err, "8.2.3", "%s must end its Disengagement in a vacant hex", id);
        if (!last && o < 0)
            return n20_reject(err, "8.2.3", "%s's Disengagement ends in the first vacant hex", id);
        if (!last && any_direct)
            return n20_reject(err, "8.2.3", "%s may pass through friendly units only if no vacant hex is "
                              "adjacent", id);
        for (int k = 0; k < i; k++)
            if (path[k] == path[i]) return n20_reject(err, "8.2.3", "path enters a hex twice");
        cur = path[i];
    }
    return 0;
}

void n20_disengage_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    uint16_t from = s->u[u].hex;
    if (n20_fog(s) && s_pinned_by(s, u, 1) && !n20_light_unpinned(s, u)) {
        /* [16.1.1] a hidden enemy Cavalry unit prevents the Disengagement [8.2.2] and is revealed
         * (rulings.md R-16.1.1-disengage); the attempt is this unit's reaction */
        for (int h = 0; h < N20_HEXES; h++)
            for (int j = 0; j < s->sc->nunits; j++)
                if (s->u[j].where == N20_U_MAP && s->u[j].hex == h && s->u[j].hidden &&
                    n20_side_of(s, j) != n20_side_of(s, u) && s->sc->units[j].type == N20_CAV &&
                    n20_exerts_zoc(s, j, from))
                    n20_fog_reveal(s, j, out, "16.1.1 hidden Cavalry prevents Disengagement");
        s->u[u].flags |= N20_UF_REACTED;
        int us[1] = {u};
        n20_event(out, s, "disengage-prevented", us, 1, &from, 1, NULL, 0,
                  "[8.2.2] " N20_U(0) " cannot disengage: it is in the ZOC of an enemy Cavalry unit");
        return;
    }
    if (s->gg_unit == u) s->gg_unit = 0xff;
    s->u[u].hex = path[n - 1];
    s->u[u].flags |= N20_UF_REACTED;
    s->dis_unit = (uint8_t)u;
    s->dis_from = from;
    uint16_t hx[2] = {from, path[n - 1]};
    int us[1] = {u};
    n20_event(out, s, "disengaged", us, 1, hx, 2, NULL, 0, "[8.2] " N20_U(0) " disengages to %04u",
              n20_xxyy(path[n - 1]));
    /* [8.2.4] one enemy unit that was adjacent may maintain contact */
    int any = 0;
    for (int j = 0; j < s->sc->nunits; j++)
        if (n20_ed_has(s, N20_EDF_CONTACT) && n20_contact_check(s, j, NULL) == 0) any = 1; /* v3 [8.3.4] none */
    s->phase = any ? N20_PH_CONTACT : N20_PH_REACTION;
    if (!any) s->dis_unit = 0xff;
}

int n20_contact_check(const n20_state *s, int u, brt_reject *err) {
    if (s->dis_unit == 0xff) return n20_reject(err, "8.2.4", "no unit has just disengaged");
    if (u < 0 || u >= s->sc->nunits || s->u[u].where != N20_U_MAP || n20_side_of(s, u) != s->phasing)
        return n20_reject(err, "8.2.4", "only a unit of the moving player may maintain contact");
    const n20_unit_def *d = &s->sc->units[u];
    if (d->type == N20_ART || d->type == N20_LEADER || s->u[u].routed || (s->u[u].flags & N20_UF_CONTACT))
        return n20_reject(err, "8.2.4", "%s cannot maintain contact (Artillery, Routed or In Contact)",
                          N20_RUID(s, u));
    int dir = n20_dir(s->sc, s->u[u].hex, s->dis_from);
    if (dir < 0 || n20_side_blocked(s->sc, n20_weather(s), s->u[u].hex, dir))
        return n20_reject(err, "8.2.4", "%s was not adjacent to the disengaging unit", N20_RUID(s, u));
    if (n20_unit_at(s, s->dis_from) >= 0) return n20_reject(err, "8.2.4", "the vacated hex is occupied");
    if (n20_garrison_blocks(s, s->dis_from, n20_side_of(s, u))) /* the unit disengaged from an enemy Garrison's hex */
        return n20_reject(err, "9.4.4.1", "an enemy Garrison holds the vacated hex");
    if (n20_fatigue(s, u) >= N20_FAT_SPENT && n20_in_ezoc(s, s->dis_from, 1 - n20_side_of(s, u), 0))
        return n20_reject(err, "16.8.2", "%s is Spent: it cannot voluntarily enter an enemy ZOC", N20_RUID(s, u));
    return 0;
}

void n20_contact_apply(n20_state *s, int u, n20_out *out) {
    uint16_t from = s->u[u].hex;
    if (s->gg_unit == u) s->gg_unit = 0xff;
    s->u[u].hex = s->dis_from;
    s->u[u].flags |= N20_UF_CONTACT;
    uint16_t hx[2] = {from, s->dis_from};
    int us[1] = {u};
    n20_event(out, s, "contact", us, 1, hx, 2, NULL, 0, "[8.2.4] " N20_U(0) " maintains contact in %04u",
              n20_xxyy(s->dis_from));
    s->dis_unit = 0xff;
    s->phase = N20_PH_REACTION;
}

int n20_disengage_paths(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                        void *ctx) {
    int count = 0;
    uint16_t cur = s->u[u].hex;
    for (int d = 0; d < 6; d++) {
        uint16_t p[2];
        if (n20_neighbor(s->sc, cur, d, &p[0]) < 0) continue;
        if (n20_disengage_check(s, u, p, 1, NULL) == 0) { fn(ctx, u, p, 1); count++; continue; }
        for (int e = 0; e < 6; e++) {
            if (n20_neighbor(s->sc, p[0], e, &p[1]) < 0) continue;
            if (n20_disengage_check(s, u, p, 2, NULL) == 0) { fn(ctx, u, p, 2); count++; }
        }
    }
    return count;
}
