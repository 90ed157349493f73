/*
 * orders.c - apply(): decode an n20.v1.Order, check it is this seat's
 * decision, validate it completely, then change the state and run the
 * automatic steps until the next decision. A rejected order changes nothing
 * and rolls no die.
 */
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "n20.h"
#include "n20/v1/n20.pb-c.h"

/* A unit named by `seat`: its id, or with fog-of-war the handle @XXYY of the unit in that hex.
 * [16.1] the id of an enemy unit still hidden from the seat names nothing. */
static int s_find(const n20_state *s, unsigned seat, const char *name) {
    if (!n20_redacts(s)) return n20_unit_find(s, name);
    return n20_fog_resolve(s, (int)seat, name);
}

/* A name that names no unit the seat may know. [16.1] [17.1.1] with hidden units the message does
 * not repeat the name: whether it is the id of a hidden unit or of none, the seat reads the same. */
static int s_no_unit(const n20_state *s, const char *name, brt_reject *err) {
    if (n20_redacts(s))
        return n20_reject(err, "3.0",
                          "no unit of that name that you may know (a hidden unit is named by its hex, @XXYY)");
    return n20_reject(err, "3.0", "no unit named %.40s", name);
}

static int s_units(const n20_state *s, unsigned seat, char **ids, size_t n, int *out, int max, brt_reject *err) {
    if (n > (size_t)max) return n20_reject(err, "9.0", "too many units named");
    for (size_t i = 0; i < n; i++) {
        out[i] = s_find(s, seat, ids[i]);
        if (out[i] < 0) return s_no_unit(s, ids[i], err);
        for (size_t k = 0; k < i && n20_fog(s); k++) /* a handle and an id may name the same unit */
            if (out[k] == out[i]) return n20_reject(err, "9.1.2", "%s is named twice", N20_RUID(s, out[i]));
    }
    return (int)n;
}

static int s_path(const uint32_t *p, size_t n, uint16_t *out, brt_reject *err) {
    if (n > N20_MAX_PATH) return n20_reject(err, "6.0", "path too long");
    for (size_t i = 0; i < n; i++) {
        if (p[i] > 3131 || p[i] % 100 > 31 || p[i] / 100 < 1 || p[i] % 100 < 1)
            return n20_reject(err, "6.0", "%u is not a hex number", p[i]);
        out[i] = n20_hex(p[i]);
    }
    return (int)n;
}

/* A path may name the unit's own hex first ("move GARDE 0507 0607 0608" from 0507): drop it. */
static int s_strip_start(const n20_state *s, int u, uint16_t *path, int n) {
    if (n > 0 && s->u[u].where == N20_U_MAP && path[0] == s->u[u].hex) {
        for (int i = 1; i < n; i++) path[i - 1] = path[i];
        return n - 1;
    }
    return n;
}

/* [9.2] the declaration is complete (a whole Declare, or "declare done" after the steps) */
static void s_declared(n20_state *s, n20_out *out) {
    size_t nb = s->nbattles;
    n20_battle b[N20_MAX_BATTLES];
    memcpy(b, s->b, sizeof b);
    /* [16.1.1] after all battles are declared, every unit involved is revealed (hex order) */
    for (int h = 0; h < N20_HEXES && n20_fog(s); h++)
        for (size_t i = 0; i < nb; i++) {
            for (int k = 0; k < b[i].natt; k++)
                if (s->u[b[i].att[k]].hex == h) n20_fog_reveal(s, b[i].att[k], out, "16.1.1 battle declared");
            for (int k = 0; k < b[i].ndef; k++)
                if (s->u[b[i].def[k]].hex == h) n20_fog_reveal(s, b[i].def[k], out, "16.1.1 battle declared");
        }
    n20_fog_prune_battles(s, out); /* [16.1.3] revealed Dummies leave their battles */
    memcpy(b, s->b, sizeof b);
    for (size_t i = 0; i < nb; i++) {
        int us[2 * N20_MAX_SIDE], nu = 0;
        for (int k = 0; k < b[i].natt; k++) us[nu++] = b[i].att[k];
        for (int k = 0; k < b[i].ndef; k++) us[nu++] = b[i].def[k];
        int v[2] = {(int)i, b[i].natt};
        char la[4 * N20_U_MAX], ld[4 * N20_U_MAX];
        /* [9.2] who attacks whom: the attackers are units[0..natt), the defenders follow */
        n20_event(out, s, "declared", us, nu, NULL, 0, v, 2, "[9.2] battle %u declared: %s %s %s",
                  (unsigned)i + 1, n20_u_list(la, sizeof la, 0, b[i].natt),
                  b[i].natt == 1 ? "attacks" : "attack", n20_u_list(ld, sizeof ld, b[i].natt, b[i].ndef));
    }
    s->phase = N20_PH_BATTLES;
}

static int s_apply(n20_state *s, unsigned seat, const N20__V1__Order *o, brt_dice *dice, n20_out *out,
                   brt_reject *err) {
    int ph = s->phase;
    uint16_t path[N20_MAX_PATH];
    int units[N20_MAX_SIDE * 2], units2[N20_MAX_SIDE];
    int n, u;
    switch (o->kind_case) {
    case N20__V1__ORDER__KIND_END:
        switch (ph) {
        case N20_PH_MOVE:
            if (n20_end_move_check(s, err) < 0) return -1;
            n20_combine_all(s, out); /* [16.6.2] */
            if (s->over) break;
            N20_EV(out, s, "phase-end", "[6.0] the %s Movement Phase ends", n20_side_name(s->phasing));
            n20_fog_scout(s, out); /* [16.1.1] */
            s->phase = N20_PH_AFTER_MOVE;
            break;
        case N20_PH_GOOD_GROUND: s->gg_event = 0; s->phase = N20_PH_REACTION_START; break;
        case N20_PH_REACTION:
            N20_EV(out, s, "phase-end", "[8.0] the Reaction Phase ends");
            s->phase = N20_PH_COMBAT_START;
            break;
        case N20_PH_CONTACT: s->dis_unit = 0xff; s->phase = N20_PH_REACTION; break;
        case N20_PH_ADVANCE:
            if (n20_advance_end_check(s, err) < 0) return -1;
            n20_battle_finish(s, dice, out);
            break;
        case N20_PH_RALLY:
            s->phase = N20_PH_PLACE;
            break;
        case N20_PH_PLACE:
            for (int i = 0; i < s->sc->nunits; i++) {
                s->u[i].flags &= (uint16_t)~(N20_UF_RALLIED | N20_UF_CADRE_Q);
                if (s->u[i].where == N20_U_BROKEN && (s->sc->units[i].flags & N20_FLAG_CADRE))
                    s->u[i].where = N20_U_OUT; /* [16.5.2] a Broken Cadre returns to the pool */
            }
            break;
        case N20_PH_WING:
            s->wing_done = 1;
            s->phase = N20_PH_TURN_END;
            break;
        case N20_PH_DUMMIES: s->phase = N20_PH_TURN_END; break; /* [16.1.3] placing is optional */
        case N20_PH_REBUILD: s->phase = N20_PH_TURN_EVENTS; break; /* [17.1] "may choose" */
        case N20_PH_SCHEDULE: n20_schedule_finish(s, out); break; /* [17.1.1] the rest as in [17.1] */
        case N20_PH_ARRIVAL: n20_arrival_roll(s, dice, out); break; /* [17.1.1] */
        default: return n20_reject(err, "4.0", "this decision cannot simply be ended");
        }
        break;
    case N20__V1__ORDER__KIND_MOVE:
        if (!o->move || !o->move->unit) return n20_reject(err, "6.0", "move names a unit");
        if ((u = s_find(s, seat, o->move->unit)) < 0) return s_no_unit(s, o->move->unit, err);
        if ((n = s_path(o->move->path, o->move->n_path, path, err)) < 0) return -1;
        n = s_strip_start(s, u, path, n);
        if (o->move->n_leaders)
            return n20_reject(err, "16.9.2", "Leaders move on their own in the Movement Phase");
        if (!n20_ae(s)) { /* no crossing rolls: the path checked is the path applied, checked once */
            int gc = 0;
            if (n20_move_check(s, u, path, n, err, &gc) < 0) return -1;
            n20_move_apply_gc(s, u, path, n, gc, out);
            break;
        }
        if (n20_move_check(s, u, path, n, err, NULL) < 0) return -1;
        n = n20_ae_cross(s, u, path, n, dice, out, N20_UF_MOVED); /* A-E [6.10] crossing rolls: the hexes entered */
        if (n > 0) n20_move_apply(s, u, path, n, out);
        break;
    case N20__V1__ORDER__KIND_FORCE_MARCH: {
        int a = o->force_march && o->force_march->army ? n20_army_of(o->force_march->army) : -1;
        if (a < 0) return n20_reject(err, "12.2.1", "force march names an army: french, anglo or prussian");
        if (n20_forced_march_check(s, a, o->force_march->card, err) < 0) return -1;
        n20_forced_march_apply(s, a, o->force_march->card, out);
        break;
    }
    case N20__V1__ORDER__KIND_DECLARE: {
        if (ph != N20_PH_DECLARE) return n20_reject(err, "9.2", "battles are declared at the start of the Combat Phase");
        N20__V1__Declare *d = o->declare;
        size_t nb = d ? d->n_battles : 0;
        if (nb > N20_MAX_BATTLES) return n20_reject(err, "9.2", "too many battles");
        n20_battle b[N20_MAX_BATTLES];
        memset(b, 0, sizeof b);
        for (size_t i = 0; i < nb; i++) {
            N20__V1__Battle *bt = d->battles[i];
            int na = s_units(s, seat, bt->attackers, bt->n_attackers, units, N20_MAX_SIDE, err);
            if (na < 0) return -1;
            int nd = s_units(s, seat, bt->defenders, bt->n_defenders, units2, N20_MAX_SIDE, err);
            if (nd < 0) return -1;
            b[i].natt = (uint8_t)na;
            b[i].ndef = (uint8_t)nd;
            for (int k = 0; k < na; k++) b[i].att[k] = (uint8_t)units[k];
            for (int k = 0; k < nd; k++) b[i].def[k] = (uint8_t)units2[k];
        }
        if (s->nbattles)
            return n20_reject(err, "9.2", "the declaration is being made one battle at a time: declare one "
                              "battle more, or declare done");
        if (n20_declare_check(s, b, (int)nb, err) < 0) return -1;
        memcpy(s->b, b, sizeof b);
        s->nbattles = (uint8_t)nb;
        s_declared(s, out);
        break;
    }
    case N20__V1__ORDER__KIND_RESOLVE: {
        N20__V1__Resolve *r = o->resolve;
        if (!r) return n20_reject(err, "9.0", "resolve names a battle");
        if (r->has_cap && (r->cap < -20 || r->cap > 20)) return n20_reject(err, "9.5", "cap out of range");
        if (n20_resolve_check(s, (int)r->battle, r->reserve, err) < 0) return -1;
        n20_battle_begin(s, (int)r->battle, r->reserve, r->has_cap, r->cap, dice, out);
        break;
    }
    case N20__V1__ORDER__KIND_RESERVE:
        if (ph != N20_PH_DEF_RESERVE) return n20_reject(err, "12.2.3", "no reserve decision now");
        if (o->reserve && o->reserve->commit && !n20_defender_may_reserve(s))
            return n20_reject(err, "12.2.3", "the defender cannot commit reserves");
        n20_battle_defender_reserve(s, o->reserve && o->reserve->commit, dice, out);
        break;
    case N20__V1__ORDER__KIND_LOSSES:
        if (!o->losses) return n20_reject(err, "9.6", "losses name units");
        if ((n = s_units(s, seat, o->losses->units, o->losses->n_units, units, N20_MAX_SIDE, err)) < 0) return -1;
        if (n20_losses_check(s, units, n, err) < 0) return -1;
        n20_losses_apply(s, units, n, dice, out);
        break;
    case N20__V1__ORDER__KIND_RETREAT:
        if (!o->retreat || !o->retreat->unit) return n20_reject(err, "9.7", "retreat names a unit");
        if ((u = s_find(s, seat, o->retreat->unit)) < 0) return s_no_unit(s, o->retreat->unit, err);
        if ((n = s_path(o->retreat->path, o->retreat->n_path, path, err)) < 0) return -1;
        n = s_strip_start(s, u, path, n);
        if (ph == N20_PH_LEADER_RETREAT) { /* [16.9.3] */
            if (n20_leader_retreat_check(s, u, path, n, err) < 0) return -1;
            n20_leader_retreat_apply(s, u, path, n, dice, out);
            break;
        }
        if (n20_retreat_stepped(s)) return n20_reject(err, "9.7", "the retreat is being made one hex at a time: retreat-step or retreat-stop");
        if (n20_retreat_check(s, u, path, n, err) < 0) return -1;
        n20_retreat_apply(s, u, path, n, dice, out);
        break;
    case N20__V1__ORDER__KIND_ADVANCE:
        if (!o->advance || !o->advance->unit) return n20_reject(err, "9.8", "advance names a unit");
        if ((u = s_find(s, seat, o->advance->unit)) < 0) return s_no_unit(s, o->advance->unit, err);
        if ((n = s_path(o->advance->path, o->advance->n_path, path, err)) < 0) return -1;
        n = s_strip_start(s, u, path, n);
        if (n20_advance_check(s, u, path, n, err) < 0) return -1;
        int nla = s_units(s, seat, o->advance->leaders, o->advance->n_leaders, units2, N20_MAX_SIDE, err);
        if (nla < 0 || n20_leaders_accompany_check(s, u, units2, nla, "16.9.5", err) < 0) return -1;
        uint16_t afrom = s->u[u].hex;
        if (n20_reluctant_lost(s, u, dice, out)) { /* [16.7.5] it cannot advance */
            if (!n20_advance_any(s)) n20_battle_finish(s, dice, out);
            break;
        }
        n20_advance_apply(s, u, path, n, out);
        n20_leaders_accompany_apply(s, u, afrom, units2, nla, out, "16.9.5");
        if (!n20_advance_any(s)) n20_battle_finish(s, dice, out);
        break;
    case N20__V1__ORDER__KIND_RALLY: {
        int armies[N20_ARMIES];
        size_t na = o->rally ? o->rally->n_spend : 0;
        if (na > N20_ARMIES) return n20_reject(err, "12.2.2", "too many armies");
        for (size_t i = 0; i < na; i++)
            if ((armies[i] = n20_army_of(o->rally->spend[i])) < 0)
                return n20_reject(err, "12.2.2", "no army named %.20s", o->rally->spend[i]);
        if (n20_rally_check(s, armies, (int)na, err) < 0) return -1;
        n20_rally_apply(s, armies, (int)na, dice, out);
        break;
    }
    case N20__V1__ORDER__KIND_PLACE:
        if (!o->place || !o->place->unit) return n20_reject(err, "10.0", "place names a unit");
        if ((u = s_find(s, seat, o->place->unit)) < 0) return s_no_unit(s, o->place->unit, err);
        if (s_path(&o->place->hex, 1, path, err) < 0) return -1;
        if (ph == N20_PH_DUMMIES) { /* [16.1.3] */
            if (n20_dummy_place_check(s, u, path[0], err) < 0) return -1;
            n20_dummy_place_apply(s, u, path[0], out);
            break;
        }
        if (n20_place_check(s, u, path[0], err) < 0) return -1;
        n20_place_apply(s, u, path[0], out);
        break;
    case N20__V1__ORDER__KIND_GOOD_GROUND:
        if (ph == N20_PH_GG_SETUP) { /* [17.3] the marker set up "showing either side" */
            if (!o->good_ground || !o->good_ground->unit || s_find(s, seat, o->good_ground->unit) != s->gg_unit)
                return n20_reject(err, "17.3", "the Good Ground marker is set up with %s; choose its side",
                                  N20_RUID(s, s->gg_unit));
            s->gg_immune = o->good_ground->artillery_immune ? 1 : 0;
            int gs[1] = {s->gg_unit};
            n20_event(out, s, "good-ground", gs, 1, NULL, 0, NULL, 0,
                      "[17.3] Good Ground set up on " N20_U(0) " at %04u showing %s", n20_xxyy(s->gg_hex),
                      s->gg_immune ? "Artillery Immune" : "+1 Terrain Defense");
            s->phase = N20_PH_EVENTS;
            break;
        }
        if (ph != N20_PH_GOOD_GROUND) return n20_reject(err, "5.1", "the Good Ground marker is placed only after drawing its event");
        if (!o->good_ground || !o->good_ground->unit) return n20_reject(err, "5.1", "name the unit");
        if ((u = s_find(s, seat, o->good_ground->unit)) < 0) return s_no_unit(s, o->good_ground->unit, err);
        if (s->u[u].where != N20_U_MAP || n20_side_of(s, u) != N20_ALLIED || s->sc->units[u].type == N20_LEADER)
            return n20_reject(err, "5.1", "the marker goes on an Allied unit on the map (not a Leader)");
        s->gg_unit = (uint8_t)u;
        s->gg_hex = s->u[u].hex;
        s->gg_immune = o->good_ground->artillery_immune ? 1 : 0;
        s->gg_event = 0;
        int gs[1] = {u};
        n20_event(out, s, "good-ground", gs, 1, NULL, 0, NULL, 0,
                  "[5.1] Good Ground (%s) placed on " N20_U(0) " at %04u",
                  s->gg_immune ? "Artillery Immune" : "+1 Terrain Defense", n20_xxyy(s->gg_hex));
        s->phase = N20_PH_REACTION_START;
        break;
    case N20__V1__ORDER__KIND_COUNTERCHARGE: {
        if (!o->countercharge) return n20_reject(err, "8.1", "name the units");
        int na = s_units(s, seat, o->countercharge->attackers, o->countercharge->n_attackers, units, N20_MAX_SIDE, err);
        if (na < 0) return -1;
        int nd = s_units(s, seat, o->countercharge->defenders, o->countercharge->n_defenders, units2, N20_MAX_SIDE, err);
        if (nd < 0) return -1;
        if (n20_countercharge_check(s, units, na, units2, nd, err) < 0) return -1;
        if (o->countercharge->reserve && s->morale[1 - s->phasing] < 1)
            return n20_reject(err, "12.2.3", "no Morale Point to commit reserves");
        n20_battle *b = &s->b[s->nbattles];
        memset(b, 0, sizeof *b);
        b->countercharge = 1;
        b->natt = (uint8_t)na;
        b->ndef = (uint8_t)nd;
        for (int k = 0; k < na; k++) { b->att[k] = (uint8_t)units[k]; s->u[units[k]].flags |= N20_UF_REACTED; }
        for (int k = 0; k < nd; k++) b->def[k] = (uint8_t)units2[k];
        int bi = s->nbattles++;
        for (int h = 0; h < N20_HEXES && n20_fog(s); h++) /* [16.1.1] the units of the battle are revealed */
            for (int k = 0; k < na + nd; k++) {
                int x = k < na ? units[k] : units2[k - na];
                if (s->u[x].hex == h) n20_fog_reveal(s, x, out, "16.1.1 countercharge");
            }
        int cs[1] = {units[0]};
        n20_event(out, s, "countercharge", cs, 1, NULL, 0, NULL, 0, "[8.1] " N20_U(0) " Countercharges");
        n20_fog_prune_battles(s, out); /* [16.1.3] against a Dummy: no combat */
        if (!s->b[bi].done) /* [8.1] [9.5] the reacting player may decide the reduction at Step F */
            n20_battle_begin(s, bi, o->countercharge->reserve, o->countercharge->fight ? N20_CAP_STEP_F : 0, 0, dice, out);
        break;
    }
    case N20__V1__ORDER__KIND_DISENGAGE:
        if (!o->disengage || !o->disengage->unit) return n20_reject(err, "8.2", "name the unit");
        if ((u = s_find(s, seat, o->disengage->unit)) < 0) return s_no_unit(s, o->disengage->unit, err);
        if ((n = s_path(o->disengage->path, o->disengage->n_path, path, err)) < 0) return -1;
        n = s_strip_start(s, u, path, n);
        if (n20_disengage_check(s, u, path, n, err) < 0) return -1;
        int nld = s_units(s, seat, o->disengage->leaders, o->disengage->n_leaders, units2, N20_MAX_SIDE, err);
        if (nld < 0 || n20_leaders_accompany_check(s, u, units2, nld, "16.9.4", err) < 0) return -1;
        uint16_t dfrom = s->u[u].hex;
        n = n20_ae_cross(s, u, path, n, dice, out, N20_UF_REACTED); /* A-E [6.10] a Reaction move */
        if (n == 0) break; /* it remains where it is, its Reaction spent (R-dn-6.10-roll) */
        n20_disengage_apply(s, u, path, n, out);
        n20_leaders_accompany_apply(s, u, dfrom, units2, nld, out, "16.9.4");
        break;
    case N20__V1__ORDER__KIND_PENETRATE:
        if (!o->penetrate || !o->penetrate->unit) return n20_reject(err, "16.2", "name the unit");
        if ((u = s_find(s, seat, o->penetrate->unit)) < 0) return s_no_unit(s, o->penetrate->unit, err);
        if ((n = s_path(o->penetrate->path, o->penetrate->n_path, path, err)) < 0) return -1;
        n = s_strip_start(s, u, path, n);
        if (n20_penetrate_check(s, u, path, n, err) < 0) return -1;
        if (n20_ae_cross(s, u, path, n, dice, out, N20_UF_REACTED) == 0) break; /* A-E [6.10] R-dn-6.10-roll */
        n20_penetrate_apply(s, u, path[0], out);
        break;
    case N20__V1__ORDER__KIND_REDUCE:
        if (!o->reduce || !o->reduce->unit) return n20_reject(err, "16.5.1", "name the unit");
        if ((u = s_find(s, seat, o->reduce->unit)) < 0) return s_no_unit(s, o->reduce->unit, err);
        if (n20_reduce_check(s, u, err) < 0) return -1;
        n20_reduce_apply(s, u, out);
        break;
    case N20__V1__ORDER__KIND_BREAKDOWN:
        if (!o->breakdown || !o->breakdown->unit) return n20_reject(err, "16.6.1", "name the unit");
        if ((u = s_find(s, seat, o->breakdown->unit)) < 0) return s_no_unit(s, o->breakdown->unit, err);
        if (n20_breakdown_check(s, u, o->breakdown->dummy, err) < 0) return -1;
        n20_breakdown_apply(s, u, o->breakdown->dummy, out);
        break;
    case N20__V1__ORDER__KIND_REBUILD:
        if (!o->rebuild || !o->rebuild->unit) return n20_reject(err, "17.1", "name the Cadre unit");
        if ((u = s_find(s, seat, o->rebuild->unit)) < 0) return s_no_unit(s, o->rebuild->unit, err);
        if (n20_rebuild_check(s, u, err) < 0) return -1;
        n20_rebuild_apply(s, u, out);
        if (!n20_rebuild_any(s)) s->phase = N20_PH_TURN_EVENTS; /* else another parent may follow */
        break;
    case N20__V1__ORDER__KIND_CONTACT:
        if (ph != N20_PH_CONTACT) return n20_reject(err, "8.2.4", "no unit has just disengaged");
        if (!o->contact || !o->contact->unit) return n20_reject(err, "8.2.4", "name the unit");
        if ((u = s_find(s, seat, o->contact->unit)) < 0) return s_no_unit(s, o->contact->unit, err);
        if (n20_contact_check(s, u, err) < 0) return -1;
        n20_contact_apply(s, u, out);
        break;
    case N20__V1__ORDER__KIND_WING:
        if (!o->wing || !o->wing->leader) return n20_reject(err, "16.9", "name the Wing Commander");
        if ((u = s_find(s, seat, o->wing->leader)) < 0) return s_no_unit(s, o->wing->leader, err);
        if (n20_wing_check(s, u, err) < 0) return -1;
        n20_wing_apply(s, u, out);
        if (ph == N20_PH_MOVE) break; /* [17.1] Leaders entering combined: the phase goes on */
        s->wing_done = 1;
        s->phase = N20_PH_TURN_END;
        break;
    case N20__V1__ORDER__KIND_SCHEDULE:
        if (!o->schedule || !o->schedule->unit) return n20_reject(err, "17.1.1", "name the unit and the turn");
        if ((u = s_find(s, seat, o->schedule->unit)) < 0) return s_no_unit(s, o->schedule->unit, err);
        if (o->schedule->turn > 99) return n20_reject(err, "17.1.1", "no Turn %u on the Game Turn track", o->schedule->turn);
        if (n20_schedule_check(s, u, (int)o->schedule->turn, err) < 0) return -1;
        n20_schedule_apply(s, u, (int)o->schedule->turn, out);
        break;
    case N20__V1__ORDER__KIND_DELAY:
        if (!o->delay || !o->delay->unit) return n20_reject(err, "17.1.1", "name the unit");
        if ((u = s_find(s, seat, o->delay->unit)) < 0) return s_no_unit(s, o->delay->unit, err);
        if (n20_delay_check(s, u, err) < 0) return -1;
        n20_delay_apply(s, u, out);
        break;
    case N20__V1__ORDER__KIND_REVEAL:
        /* [16.1.1] "Whenever you desire to reveal your own unit": the decision stays pending */
        if (!o->reveal || !o->reveal->unit) return n20_reject(err, "16.1.1", "name the unit");
        if ((u = s_find(s, seat, o->reveal->unit)) < 0) return s_no_unit(s, o->reveal->unit, err);
        if (n20_reveal_check(s, seat, u, err) < 0) return -1;
        if (n20_stepping(s)) /* a revealed Dummy leaves the map: the steps so far might lead nowhere */
            return n20_reject(err, "16.1.1", "a declaration or a retreat is being given step by step: reveal %s "
                              "before its first step or after its last", N20_RUID(s, u));
        n20_fog_reveal(s, u, out, "16.1.1 revealed by its owner");
        return 0;

    /* ---- steps of the combinatorial decisions (legal.c) */
    case N20__V1__ORDER__KIND_DECLARE_ONE: { /* [9.2] one battle of the declaration */
        N20__V1__Battle *bt = o->declare_one;
        if (!bt) return n20_reject(err, "9.0", "declare one names attackers and defenders");
        int na = s_units(s, seat, bt->attackers, bt->n_attackers, units, N20_MAX_SIDE, err);
        if (na < 0) return -1;
        int nd = s_units(s, seat, bt->defenders, bt->n_defenders, units2, N20_MAX_SIDE, err);
        if (nd < 0) return -1;
        n20_battle one;
        memset(&one, 0, sizeof one);
        one.natt = (uint8_t)na;
        one.ndef = (uint8_t)nd;
        for (int k = 0; k < na; k++) one.att[k] = (uint8_t)units[k];
        for (int k = 0; k < nd; k++) one.def[k] = (uint8_t)units2[k];
        if (n20_declare_one_check(s, &one, err) < 0) return -1;
        if (!s->nbattles) memset(s->b, 0, sizeof s->b); /* as a whole Declare leaves them */
        s->b[s->nbattles++] = one;
        return 0; /* the declaration stays pending */
    }
    case N20__V1__ORDER__KIND_DECLARE_DONE:
        if (n20_declare_check(s, s->b, s->nbattles, err) < 0) return -1;
        s_declared(s, out);
        break;
    case N20__V1__ORDER__KIND_RETREAT_STEP:
        if (!o->retreat_step || !o->retreat_step->unit || o->retreat_step->n_path != 1)
            return n20_reject(err, "9.7", "retreat-step names a unit and the one hex it enters");
        if ((u = s_find(s, seat, o->retreat_step->unit)) < 0) return s_no_unit(s, o->retreat_step->unit, err);
        if (s_path(o->retreat_step->path, 1, path, err) < 0) return -1;
        if (n20_retreat_step_check(s, u, path[0], err) < 0) return -1;
        if (n20_retreat_step_apply(s, u, path[0], dice, out) == 0) return 0; /* the path goes on */
        break;
    case N20__V1__ORDER__KIND_RETREAT_STOP:
        if (!o->retreat_stop || !o->retreat_stop->unit) return n20_reject(err, "9.7", "retreat-stop names a unit");
        if ((u = s_find(s, seat, o->retreat_stop->unit)) < 0) return s_no_unit(s, o->retreat_stop->unit, err);
        if (n20_retreat_stop_check(s, u, err) < 0) return -1;
        n20_retreat_stop_apply(s, u, dice, out);
        break;
    case N20__V1__ORDER__KIND_FIGHT: { /* [9.0] resolve, the attacker deciding [9.5] at Step F */
        N20__V1__Resolve *r = o->fight;
        if (!r) return n20_reject(err, "9.0", "fight names a battle");
        if (r->has_cap || r->cap) return n20_reject(err, "9.5", "fight decides the reduction at Step F: no cap");
        if (n20_resolve_check(s, (int)r->battle, r->reserve, err) < 0) return -1;
        n20_battle_begin(s, (int)r->battle, r->reserve, N20_CAP_STEP_F, 0, dice, out);
        break;
    }
    case N20__V1__ORDER__KIND_STEP_F: /* [9.0] Step F [9.5] */
        if (!o->step_f) return n20_reject(err, "9.5", "no reduction, or resolve at differential N");
        if (o->step_f->differential < -99 || o->step_f->differential > 99)
            return n20_reject(err, "9.5", "differential out of range");
        if (n20_step_f_check(s, o->step_f->reduce, o->step_f->differential, err) < 0) return -1;
        n20_step_f_apply(s, o->step_f->reduce, o->step_f->differential, dice, out);
        break;


    /* ---- Aspern-Essling 20 (ae.c) */
    case N20__V1__ORDER__KIND_SITE: { /* [3.0] the French choice of crossing site */
        int k = n20_ae_site_check(s, o->site ? o->site->name : NULL, err);
        if (k < 0) return -1;
        n20_ae_site_apply(s, k, out);
        break;
    }

    /* ---- Wagram 20 and the Marchfeld (wagram.c) */
    case N20__V1__ORDER__KIND_DEPLOY: /* [3.0] */
        if (!o->deploy || !o->deploy->unit) return n20_reject(err, "3.0", "deploy names a unit and a hex");
        if ((u = s_find(s, seat, o->deploy->unit)) < 0) return s_no_unit(s, o->deploy->unit, err);
        if ((n = s_path(&o->deploy->hex, 1, path, err)) < 0) return -1;
        if (n20_wg_deploy_check(s, u, path[0], err) < 0) return -1;
        n20_wg_deploy_apply(s, u, path[0], out);
        break;
    case N20__V1__ORDER__KIND_ALT_AREA: /* [3.0] */
        if (!o->alt_area || !o->alt_area->unit) return n20_reject(err, "3.0", "name the unit");
        if ((u = s_find(s, seat, o->alt_area->unit)) < 0) return s_no_unit(s, o->alt_area->unit, err);
        if (n20_wg_alt_check(s, u, err) < 0) return -1;
        n20_wg_alt_apply(s, u, out);
        break;

    default: return n20_reject(err, "4.0", "empty order");
    }
    n20_run(s, dice, out);
    return 0;
}

/* which order kinds each decision takes (checked before anything else) */
static int s_kind_ok(int phase, int kind) {
    switch (phase) {
    case N20_PH_MOVE: return kind == N20__V1__ORDER__KIND_MOVE || kind == N20__V1__ORDER__KIND_END || kind == N20__V1__ORDER__KIND_FORCE_MARCH || kind == N20__V1__ORDER__KIND_BREAKDOWN ||
                             kind == N20__V1__ORDER__KIND_WING || /* [17.1] Leaders entering combined */
                             kind == N20__V1__ORDER__KIND_SITE || /* A-E [17.3.2] the second crossing site */
                             kind == N20__V1__ORDER__KIND_ALT_AREA; /* Wagram [3.0] */
    case N20_PH_GOOD_GROUND: return kind == N20__V1__ORDER__KIND_GOOD_GROUND || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_GG_SETUP: return kind == N20__V1__ORDER__KIND_GOOD_GROUND;
    case N20_PH_REACTION: return kind == N20__V1__ORDER__KIND_COUNTERCHARGE || kind == N20__V1__ORDER__KIND_DISENGAGE || kind == N20__V1__ORDER__KIND_PENETRATE || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_CONTACT: return kind == N20__V1__ORDER__KIND_CONTACT || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_DECLARE: return kind == N20__V1__ORDER__KIND_DECLARE || kind == N20__V1__ORDER__KIND_DECLARE_ONE ||
                                kind == N20__V1__ORDER__KIND_DECLARE_DONE;
    case N20_PH_BATTLES: return kind == N20__V1__ORDER__KIND_RESOLVE || kind == N20__V1__ORDER__KIND_FIGHT;
    case N20_PH_DEF_RESERVE: return kind == N20__V1__ORDER__KIND_RESERVE;
    case N20_PH_EX_LOSSES: return kind == N20__V1__ORDER__KIND_LOSSES;
    case N20_PH_RETREAT: return kind == N20__V1__ORDER__KIND_RETREAT || kind == N20__V1__ORDER__KIND_RETREAT_STEP ||
                                kind == N20__V1__ORDER__KIND_RETREAT_STOP;
    case N20_PH_ADVANCE: return kind == N20__V1__ORDER__KIND_ADVANCE || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_RALLY: return kind == N20__V1__ORDER__KIND_RALLY || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_PLACE: return kind == N20__V1__ORDER__KIND_PLACE || kind == N20__V1__ORDER__KIND_REDUCE || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_LEADER_RETREAT: return kind == N20__V1__ORDER__KIND_RETREAT;
    case N20_PH_WING: return kind == N20__V1__ORDER__KIND_WING || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_DUMMIES: return kind == N20__V1__ORDER__KIND_PLACE || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_REBUILD: return kind == N20__V1__ORDER__KIND_REBUILD || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_SCHEDULE: return kind == N20__V1__ORDER__KIND_SCHEDULE || kind == N20__V1__ORDER__KIND_END;
    case N20_PH_ARRIVAL: return kind == N20__V1__ORDER__KIND_FORCE_MARCH || kind == N20__V1__ORDER__KIND_DELAY ||
                                kind == N20__V1__ORDER__KIND_END;
    case N20_PH_ARRIVAL_DELAY: return kind == N20__V1__ORDER__KIND_DELAY;

    /* ---- steps of the combinatorial decisions (legal.c) */
    case N20_PH_STEP_F: return kind == N20__V1__ORDER__KIND_STEP_F;


    /* ---- Aspern-Essling 20 (ae.c) */
    case N20_PH_AE_SITE: return kind == N20__V1__ORDER__KIND_SITE;

    /* ---- Wagram 20 and the Marchfeld (wagram.c) */
    case N20_PH_WG_DEPLOY: return kind == N20__V1__ORDER__KIND_DEPLOY;

    default: return 0;
    }
}

static int s_apply_order(n20_state *s, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice,
                         n20_out *out, brt_reject *err) {
    if (s->over) return n20_reject(err, "15.0", "the game is over");
    if ((int)seat != n20_pending_seat(s)) {
        n20_reject(err, "4.0", "it is not the %s player's decision", n20_side_name((int)(seat & 1)));
        if (err) err->code = BRT_REJECT_NOT_YOUR_DECISION;
        return -1;
    }
    /* decoded on the stack: an order of the size legal() lists allocates nothing */
    ProtobufCMessage *m = NULL;
    canon_arena arena;
    int rc = canon_unpack_arena(&arena, &n20__v1__order__descriptor, order, len, 1u << 16, &m);
    if (rc != CANON_OK) {
        n20_reject(err, "4.0", "the order does not decode: %s", canon_strerror(rc));
        if (err) err->code = BRT_REJECT_MALFORMED;
        return -1;
    }
    N20__V1__Order *o = (N20__V1__Order *)m;
    /* [17.1] a rebuild order at any other moment is rejected by its own rule (n20_rebuild_check) */
    if (!s_kind_ok(s->phase, o->kind_case) && !(o->kind_case == N20__V1__ORDER__KIND_REVEAL && n20_fog(s)) &&
        o->kind_case != N20__V1__ORDER__KIND_REBUILD) {
        brt_pending p;
        n20_pending(s, &p);
        n20_reject(err, p.rule, "that kind of order does not answer the pending decision (%s)", p.kind);
        canon_arena_release(&arena, m);
        return -1;
    }
    rc = s_apply(s, seat, o, dice, out, err);
    canon_arena_release(&arena, m);
    /* [16.1] a rejection never names a unit hidden from the seat: every check names a unit with
     * N20_RUID, as the deciding seat may know it (nothing is searched for in the message) */
    return rc;
}

int n20_apply(n20_state *s, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice, n20_out *out,
              brt_reject *err) {
    int rc = s_apply_order(s, seat, order, len, dice, out, err);
    if (rc < 0) n20_ed_reject(s, err); /* a v3 game cites its own rule numbers */
    return rc;
}
