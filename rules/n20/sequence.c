/*
 * sequence.c - the Sequence of Play [4.0] as a state machine: who must
 * decide what now, and the automatic steps between decisions (events phase,
 * recovery, lulls, night operations, reshuffle, sudden death, last turn).
 */
#include <stdio.h>
#include <string.h>

#include "n20.h"

static int s_any_adjacent_enemy(const n20_state *s, int side) {
    for (int i = 0; i < s->sc->nunits; i++) {
        if (s->u[i].where != N20_U_MAP || n20_side_of(s, i) != side) continue;
        if (s->sc->units[i].type == N20_LEADER) continue;
        for (int j = 0; j < s->sc->nunits; j++)
            if (n20_side_of(s, j) != side && s->sc->units[j].type != N20_LEADER &&
                n20_adjacent_units(s, i, j))
                return 1;
    }
    return 0;
}

static void s_start_player_turn(n20_state *s, n20_out *out) {
    memset(s->fm, 0, sizeof s->fm);
    s->fm_free = 0;
    s->move_mod = 0;
    s->rally_event = 0;
    s->gg_event = 0;
    s->battle_dice = 0;
    s->entered_hex_n = 0;
    s->nbattles = 0;
    s->rally_done = 0;
    s->wing_done = 0;
    s->rally_on = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        s->u[i].flags &= (uint16_t) ~(N20_UF_MOVED | N20_UF_REACTED | N20_UF_REACT_OK |
                                      N20_UF_EXHAUSTED | N20_UF_RALLIED | N20_UF_COMMITTED |
                                      N20_UF_DUMMY_IN | N20_UF_PLACED);
    N20_EV(out, s, "player-turn", "[4.0] Turn %u (%s%s), %s Player Turn", s->turn,
           s->sc->turns[s->turn].label, n20_is_night(s) ? ", Night" : "", n20_side_name(s->phasing));
    /* [5.0] a kept card lasts until the beginning of its holder's next Night turn */
    if (n20_is_night(s))
        for (int c = 0; c < s->sc->ncards; c++)
            n20_card_discard_kept(s, s->phasing, c, out, "its holder's Night turn begins");
    /* [17.1] SPECIAL RULE: "at the start of the Allied Player Turn (before the Allied Player's Random
     * Events Phase)" a Cadre may be eliminated to rebuild a parent unit: a decision when possible */
    s->phase = n20_rebuild_any(s) ? N20_PH_REBUILD : N20_PH_TURN_EVENTS;
    n20_wg_player_turn(s, out); /* Wagram [6.10.1] Crossings Secured */
}

/* [4.0] 1. the Random Events Phase, then the Movement Phase (or a Rally first) */
static void s_turn_events(n20_state *s, brt_dice *dice, n20_out *out) {
    if (n20_wg_turn_events(s, out)) return; /* Wagram [4.1] Turn 1: the Movement Phase only */
    n20_ae_repair(s, dice, out); /* A-E [4.1] the Pontoon Repair Step, before the draw */
    /* [5.0] In the Standard Scenario, skip the French player's first Random Events Phase. */
    if (!s->first_turn_done && s->sc->skip_first_event == 1 + s->phasing &&
        s->turn == s->sc->start_turn) {
        N20_EV(out, s, "event-skipped", "[5.0] the %s Random Events Phase of the first Game Turn is skipped",
               n20_side_name(s->phasing));
    } else {
        n20_events_phase(s, dice, out);
        if (!s->over) n20_weather_roll(s, dice, out); /* [16.10] after the event, French only */
        /* [17.3.1] Historical Events: "Reshuffle the cards" after this player's draw */
        if (!s->over && (s->opts & N20_OPT_HIST_EVENTS) && s->sc->hist_reshuffle_turn == s->turn &&
            s->sc->hist_reshuffle_side == s->phasing)
            n20_deck_reshuffle(s, dice, out, "17.3.1 historical events: reshuffle after this draw");
    }
    s->first_turn_done = 1;
    if (s->over) return;
    if (s->rally_event && n20_has_broken(s, s->phasing, -1)) {
        s->rally_event = 2;
        s->phase = N20_PH_RALLY;
    } else {
        s->rally_event = 0;
        s->phase = N20_PH_MOVE_START;
    }
}

static void s_move_start(n20_state *s, brt_dice *dice, n20_out *out) {
    n20_wg_move_start(s, dice, out); /* Wagram [6.10.2] Confusion & Congestion; [3.0] rolls together */
    n20_ae_linz(s, dice, out); /* A-E [17.2] Summoned from Linz */
    /* [11.0] Variable Reinforcements: roll for each on its turn */
    for (int i = 0; i < s->sc->nunits; i++) {
        n20_unit *u = &s->u[i];
        u->flags &= (uint16_t)~N20_UF_FM_ARRIVE;
        if (u->where != N20_U_VARIABLE || n20_side_of(s, i) != s->phasing || u->arrive > s->turn)
            continue;
        int blocked = 0;
        for (int e = 0; e < s->sc->nentry; e++)
            if (n20_ae_is_entry(s, i, s->sc->entry_hex[e]) < 0 ? s->sc->entry_area[e] == s->sc->units[i].area
                                                                : n20_ae_is_entry(s, i, s->sc->entry_hex[e]) == 1) { /* A-E [11.6] */
                int o = n20_unit_at(s, s->sc->entry_hex[e]);
                if (o >= 0 && n20_side_of(s, o) != s->phasing) blocked = 1;
            }
        if (blocked) {
            u->arrive = (uint8_t)(s->turn + 1);
            int bs[1] = {i};
            n20_event(out, s, "reinforcement", bs, 1, NULL, 0, NULL, 0,
                      "[11.6] " N20_U(0) " cannot arrive: its entry hex is enemy occupied");
            continue;
        }
        const n20_unit_def *d = &s->sc->units[i];
        int us[1] = {i};
        /* [16.1] [17.1.1] seen only by the seats that may see the unit */
        /* [17.1.3] is Waterloo 20's own arrival roll; a Danube 20 unit with its own number rolls under [11.0] */
        uint32_t die = n20_roll(s, dice, us, 1, d->need && s->sc->edition == N20_ED_V4 ? "17.1.3 arrival roll" : "11.0 variable reinforcement");
        int v[1] = {(int)die};
        int need = d->need ? d->need : s->sc->variable_arrival;
        if ((int)die >= need) {
            u->where = N20_U_REINF;
            u->arrive = s->turn;
            n20_event(out, s, "reinforcement", us, 1, NULL, 0, v, 1,
                      "[11.0] " N20_U(0) " rolls %u: it arrives this turn", die);
        } else if (d->roll_fm && (int)die + 1 >= need) {
            /* [17.1.3] +1 if its army Force Marches this turn (rulings R-17.1.3-fm) */
            u->arrive = (uint8_t)(s->turn + 1);
            u->flags |= N20_UF_FM_ARRIVE;
            n20_event(out, s, "reinforcement", us, 1, NULL, 0, v, 1,
                      "[17.1.3] " N20_U(0)
                      " rolls %u: it arrives this turn if the %s army Force Marches, else on Turn %u",
                      die, n20_army_name(d->army), u->arrive);
        } else {
            u->arrive = (uint8_t)(s->turn + 1);
            n20_event(out, s, "reinforcement", us, 1, NULL, 0, v, 1,
                      "[11.0] " N20_U(0) " rolls %u: delayed to Turn %u", die, u->arrive);
        }
    }
    if (n20_arrival_due(s)) { /* [17.1.1] the arrival procedure comes first */
        s->phase = N20_PH_ARRIVAL;
        return;
    }
    s->phase = N20_PH_MOVE;
    n20_leader_rally(s, out); /* [16.9.7] */
}

static void s_reaction_start(n20_state *s, n20_out *out) {
    s->nbattles = 0;
    if (n20_is_night(s)) { /* [14.0] No Battles: skip the Reaction Phase */
        s->phase = N20_PH_COMBAT_START;
        return;
    }
    int any = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_reaction_eligible(s, i)) {
            s->u[i].flags |= N20_UF_REACT_OK;
            any = 1;
        }
    if (!any) {
        s->phase = N20_PH_COMBAT_START;
        return;
    }
    N20_EV(out, s, "phase", "[8.0] %s Reaction Phase", n20_side_name(1 - s->phasing));
    s->phase = N20_PH_REACTION;
}

static void s_combat_start(n20_state *s, n20_out *out) {
    s->nbattles = 0;
    for (int i = 0; i < s->sc->nunits; i++) s->u[i].flags &= (uint16_t)~N20_UF_EXHAUSTED;
    if (n20_is_night(s) || !s_any_adjacent_enemy(s, s->phasing)) {
        s->phase = N20_PH_COMBAT_END;
        return;
    }
    N20_EV(out, s, "phase", "[9.0] %s Combat Phase", n20_side_name(s->phasing));
    s->phase = N20_PH_DECLARE;
}

static void s_combat_end(n20_state *s, n20_out *out) {
    int side = s->phasing;
    /* [9.6.2.2] recovery from Rout; [8.2.4] In Contact markers removed (rulings) */
    for (int i = 0; i < s->sc->nunits; i++) {
        n20_unit *u = &s->u[i];
        if (u->where != N20_U_MAP) continue;
        if (u->flags & N20_UF_CONTACT) {
            u->flags &= (uint16_t)~N20_UF_CONTACT;
            int us[1] = {i};
            n20_event(out, s, "recovered", us, 1, NULL, 0, NULL, 0,
                      "[8.2.4] " N20_U(0) "'s In Contact marker is removed");
        }
    }
    for (int i = 0; i < s->sc->nunits; i++) {
        n20_unit *u = &s->u[i];
        if (u->where != N20_U_MAP || !u->routed || u->routed != 1 + side) continue;
        if (n20_in_ezoc(s, u->hex, 1 - n20_side_of(s, i), 0)) continue;
        u->routed = 0;
        int us[1] = {i};
        n20_event(out, s, "recovered", us, 1, NULL, 0, NULL, 0,
                  "[9.6.2.2] " N20_U(0) " recovers from Rout");
    }
    s->nbattles = 0;
    n20_fatigue_recover(s, out); /* [16.8.3] */
    /* [13.0] Lull */
    int fm = 0;
    for (int a = 0; a < N20_ARMIES; a++) fm |= s->fm[a];
    int onmap = 0, onmap_enemy = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP && n20_side_of(s, i) == side) onmap = 1;
        else if (s->u[i].where == N20_U_MAP) onmap_enemy = 1;
    if (!onmap_enemy && !n20_ed_has(s, N20_EDF_LULL_ONE_SIDE)) onmap = 0; /* v3 [13.0] both players */
    if (!n20_wg_lull_allowed(s)) onmap = 0; /* Wagram [13.0] no Lull before Turn 8 */
    if (s->night_seen && !n20_is_night(s) && onmap && !fm && !s->battle_dice &&
        (s->morale[side] < 6 || s->morale[side] <= s->morale[1 - side])) {
        N20_EV(out, s, "lull", "[13.0] Lull: the %s side rests", n20_side_name(side));
        n20_morale_one(s, side, s->sc->mc_lull, out, "13.0 lull");
        if (s->over) return;
    }
    if (n20_wg_end_now(s)) { /* Marchfeld [18.0] #5 the game ends after this Combat Phase */
        n20_game_end(s, out, "18.0 end of the scenario");
        return;
    }
    s->phase = n20_is_night(s) ? N20_PH_NIGHT_OPS : N20_PH_TURN_END;
}

static void s_night_ops(n20_state *s, n20_out *out) {
    N20_EV(out, s, "phase", "[14.0] %s Night Operations", n20_side_name(s->phasing));
    s->night_seen = 1;
    if (n20_has_broken(s, s->phasing, -1)) {
        s->rally_event = 0;
        s->phase = N20_PH_RALLY;
        return;
    }
    s->phase = N20_PH_NIGHT_AFTER_RALLY;
}

static void s_turn_end(n20_state *s, brt_dice *dice, n20_out *out) {
    /* [16.9] French Wing Commanders: at the conclusion of the French Player Turn */
    if (s->phasing == N20_FRENCH && !s->wing_done && n20_wing_any(s)) {
        s->phase = N20_PH_WING;
        return;
    }
    n20_wg_turn_end(s, out); /* Wagram [4.1] the Austrian Player Turn of Turn 1 is skipped */
    if (s->phasing == s->sc->first_player) {
        s->phasing = (uint8_t)(1 - s->phasing);
        s->phase = N20_PH_EVENTS;
        return;
    }
    /* end of the Game Turn */
    if (n20_is_night(s)) n20_deck_reshuffle(s, dice, out, "14.0 reshuffle at the end of the Night turn");
    const n20_turn_def *t = &s->sc->turns[s->turn];
    if (t->sudden) {
        /* [4.0] 8. Sudden Death: the Second Player rolls */
        uint32_t die = brt_dice_roll(dice, 6, "4.0 sudden death"); /* public */
        int v[2] = {(int)die, t->sudden};
        n20_event(out, s, "sudden-death", NULL, 0, NULL, 0, v, 2,
                  "[4.0] Sudden Death roll %u against %u: %s", die, t->sudden,
                  (int)die <= t->sudden ? "the game ends" : "play continues");
        if ((int)die <= t->sudden) {
            n20_game_end(s, out, "sudden death");
            return;
        }
    }
    if (s->turn >= s->sc->last_turn) {
        n20_game_end(s, out, "last turn");
        return;
    }
    n20_weather_turn_end(s, out); /* [16.10.2] Mud Duration */
    s->turn++;
    s->phasing = s->sc->first_player;
    s->phase = N20_PH_EVENTS;
}

void n20_run(n20_state *s, brt_dice *dice, n20_out *out) {
    for (int guard = 0; guard < 64 && !s->over; guard++) {
        if (n20_leader_step(s, dice, out)) return; /* [16.9.3] a lone Leader in an EZOC retreats */
        switch (s->phase) {
        case N20_PH_EVENTS: s_start_player_turn(s, out); break;
        case N20_PH_TURN_EVENTS: s_turn_events(s, dice, out); break;
        case N20_PH_REBUILD:
            if (!n20_rebuild_any(s)) {
                s->phase = N20_PH_TURN_EVENTS;
                break;
            }
            return;
        case N20_PH_MOVE_START: s_move_start(s, dice, out); break;
        case N20_PH_AFTER_MOVE:
            if (n20_wg_move_only(s)) { /* Wagram [4.1] no other Phase on Turn 1 */
                s->phase = N20_PH_TURN_END;
                break;
            }
            if (s->gg_event && s->phasing == N20_ALLIED) {
                s->phase = N20_PH_GOOD_GROUND;
                return;
            }
            s->phase = N20_PH_REACTION_START;
            break;
        case N20_PH_REACTION_START: s_reaction_start(s, out); break;
        case N20_PH_COMBAT_START: s_combat_start(s, out); break;
        case N20_PH_BATTLES: {
            int left = 0;
            for (int i = 0; i < s->nbattles; i++)
                if (!s->b[i].done) left = 1;
            if (!left) {
                s->phase = N20_PH_COMBAT_END;
                break;
            }
            return;
        }
        case N20_PH_COMBAT_END: s_combat_end(s, out); break;
        case N20_PH_NIGHT_OPS: s_night_ops(s, out); break;
        case N20_PH_NIGHT_AFTER_RALLY:
            n20_night_ops_auto(s, out);
            if (!s->over) n20_fog_reconceal(s, s->phasing, out); /* [14.0] 4. [16.1.2] */
            if (!s->over) /* [16.1.3] then the available Dummy units are placed */
                s->phase = n20_dummy_any_placement(s, s->phasing) ? N20_PH_DUMMIES : N20_PH_TURN_END;
            break;
        case N20_PH_TURN_END: s_turn_end(s, dice, out); break;
        case N20_PH_DUMMIES:
            if (!n20_dummy_any_placement(s, s->phasing)) {
                s->phase = N20_PH_TURN_END;
                break;
            }
            return;
        case N20_PH_PLACE:
            if (!n20_has_rallied(s, s->phasing) && s->ldr_place) { /* [16.9.7] */
                s->ldr_place = 0;
                s->phase = N20_PH_MOVE;
                break;
            }
            if (!n20_has_rallied(s, s->phasing)) {
                s->phase = s->rally_event == 2 ? N20_PH_MOVE_START : N20_PH_NIGHT_AFTER_RALLY;
                s->rally_event = 0;
                break;
            }
            return;
        default: return; /* a decision */
        }
    }
}

int n20_pending_seat(const n20_state *s) {
    if (s->over) return -1;
    if (n20_ae_pending_seat(s) >= 0) return n20_ae_pending_seat(s); /* A-E [3.0] */
    switch (s->phase) {
    case N20_PH_REACTION: return 1 - s->phasing;
    case N20_PH_DEF_RESERVE: return 1 - s->f.att_side;
    case N20_PH_STEP_F: return s->f.att_side; /* [9.5] the attacker */
    case N20_PH_EX_LOSSES: return s->f.att_side;
    case N20_PH_RETREAT: {
        int u = n20_retreat_current(s);
        return u >= 0 ? n20_side_of(s, u) : s->phasing;
    }
    case N20_PH_ADVANCE: return s->f.winner;
    case N20_PH_GG_SETUP: return N20_ALLIED;
    case N20_PH_LEADER_RETREAT: {
        int l = n20_leader_must_retreat(s);
        return l >= 0 ? n20_side_of(s, l) : s->phasing;
    }
    case N20_PH_WING: return N20_FRENCH;
    case N20_PH_WG_DEPLOY: return N20_ALLIED; /* Wagram [3.0] */
    case N20_PH_SCHEDULE: case N20_PH_ARRIVAL: case N20_PH_ARRIVAL_DELAY: return N20_FRENCH; /* [17.1.1] */
    default: return s->phasing;
    }
}

/* snprintf(dst, n, "%s", src) without the formatting (the core asks for pending after every order) */
static void s_copy(char *dst, size_t n, const char *src) {
    size_t l = strlen(src);
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = 0;
}

void n20_pending(const n20_state *s, brt_pending *p) {
    memset(p, 0, sizeof *p);
    p->turn = s->turn;
    if (s->over) {
        snprintf(p->kind, sizeof p->kind, "over");
        snprintf(p->rule, sizeof p->rule, "15.0");
        snprintf(p->prompt, sizeof p->prompt, "the game is over");
        return;
    }
    int seat = n20_pending_seat(s);
    p->seats = 1u << seat;
    const char *kind = "?", *rule = "4.0", *prompt = "";
    char buf[160];
    buf[0] = 0;
    switch (s->phase) {
    case N20_PH_MOVE:
        kind = "move";
        rule = "6.0";
        prompt = s->opts & N20_OPT_BREAKDOWN ? "move units, enter reinforcements, force march, break down [16.6]; end"
                                             : "move units, enter reinforcements, force march; end";
        prompt = n20_wg_move_prompt(s, prompt, buf, sizeof buf); /* Wagram [3.0] alt-area */
        break;
    case N20_PH_GOOD_GROUND: kind = "good-ground"; rule = "5.1"; prompt = "place the Good Ground marker or end"; break;
    case N20_PH_REACTION:
        kind = "reaction";
        rule = "8.0";
        prompt = s->opts & N20_OPT_CAV_PENETRATION ? "countercharge, disengage or penetrate [16.2] with eligible Cavalry; end"
                                                   : "countercharge or disengage with eligible Cavalry; end";
        break;
    case N20_PH_CONTACT: kind = "contact"; rule = "8.2.4"; prompt = "maintain contact with one adjacent unit, or end"; break;
    case N20_PH_DECLARE:
        kind = "declare-battles";
        rule = "9.2";
        prompt = "declare every battle of this Combat Phase";
        if (s->nbattles) { /* the step form (legal.c) */
            snprintf(buf, sizeof buf, "%u battle(s) declared so far: declare one more, or declare done", s->nbattles);
            prompt = buf;
        }
        break;
    case N20_PH_BATTLES: kind = "resolve"; rule = "9.0"; prompt = "choose the next battle, commit reserves, cap the differential"; break;
    case N20_PH_DEF_RESERVE: kind = "commit-reserve"; rule = "12.2.3"; prompt = "the defender may spend one Morale Point for +1"; break;
    case N20_PH_STEP_F: { /* [9.0] Step F: the attacker knows the differential of Steps B-E */
        int lo = 0, hi = 0;
        (void)n20_step_f_range(s, &lo, &hi);
        kind = "step-f";
        rule = "9.5";
        snprintf(buf, sizeof buf, "battle %u: differential %+d; resolve at differential %+d..%+d, or no reduction",
                 s->f.battle + 1, s->f.sf_diff, lo, hi);
        prompt = buf;
        break;
    }
    case N20_PH_EX_LOSSES: kind = "choose-ex-losses"; rule = "9.6"; prompt = "break attacking units worth at least the defender's strength"; break;
    case N20_PH_RETREAT: {
        int u = n20_retreat_current(s);
        kind = "retreat";
        rule = "9.7";
        if (u >= 0) {
            int k = -1;
            for (int i = 0; i < s->f.nret; i++)
                if (s->f.ret_unit[i] == u) k = i;
            /* the pending decision goes to every party: the unit as the other seat may know it */
            char hb[N20_NAME];
            snprintf(buf, sizeof buf, "retreat %s %u hex(es) from %04u", n20_uid_seat(s, u, 1 - n20_side_of(s, u), hb),
                     k >= 0 ? s->f.ret_dist[k] : 0, n20_xxyy(s->u[u].hex));
            prompt = buf;
        }
        break;
    }
    case N20_PH_ADVANCE: kind = "advance"; rule = "9.8"; prompt = s->f.adv_lost && !s->f.adv_cav_done ? "control lost: a victorious Cavalry unit must advance" : "advance after combat, or end"; break;
    case N20_PH_RALLY: kind = "rally"; rule = "10.0"; prompt = "rally broken units (optionally spending Morale per army), or end"; break;
    case N20_PH_PLACE:
        kind = "place-rallied";
        rule = "10.0";
        prompt = s->opts & N20_OPT_RALLY_LOCATIONS ? "place rallied units on empty friendly LOC hexes or Rally hexes [16.4], or end"
               : s->opts & N20_OPT_UNIT_REDUCTION ? "place rallied units on empty friendly LOC hexes, reduce [16.5.1], or end"
                                                   : "place rallied units on empty friendly LOC hexes, or end";
        break;
    case N20_PH_GG_SETUP: kind = "good-ground-side"; rule = "17.3"; prompt = "choose the side of the Good Ground marker set up with its unit"; break;
    case N20_PH_LEADER_RETREAT: {
        int l = n20_leader_must_retreat(s);
        kind = "leader-retreat";
        rule = "16.9.3";
        if (l >= 0) {
            char hb[N20_NAME]; /* the decision goes to every party: as the other seat may know it */
            snprintf(buf, sizeof buf, "Leader %s is alone in an enemy ZOC at %04u: retreat it one hex",
                     n20_uid_seat(s, l, 1 - n20_side_of(s, l), hb), n20_xxyy(s->u[l].hex));
            prompt = buf;
        }
        break;
    }
    case N20_PH_WING: kind = "wing-commanders"; rule = "16.9"; prompt = "create or absorb a French Wing Commander, or end"; break;
    case N20_PH_REBUILD:
        kind = "rebuild";
        rule = "17.1";
        prompt = "eliminate a Cadre to put the unit of its nationality that began broken down into the Broken "
                 "Units pile, or end";
        break;
    case N20_PH_SCHEDULE: kind = "schedule-reinforcements"; rule = "17.1.1"; prompt = "schedule every French reinforcement on the Game Turn track in secret (end: the rest on their [17.1] turns)"; break;
    case N20_PH_ARRIVAL: kind = "french-arrival"; rule = "17.1.1"; prompt = "French units are scheduled to arrive: Forced March?, delay Napoleon (Leaders)?, end to roll on the French Arrival Table"; break;
    case N20_PH_ARRIVAL_DELAY:
        kind = "choose-delayed";
        rule = "17.1.1";
        snprintf(buf, sizeof buf, "choose %u more of the units scheduled this turn to be Delayed", s->sambre_delay);
        prompt = buf;
        break;
    case N20_PH_WG_DEPLOY: kind = "deploy"; rule = "3.0"; prompt = "deploy I, II and IV Corps, unstacked, on the Russbach Heights"; break;
    case N20_PH_DUMMIES: kind = "place-dummies"; rule = "16.1.3"; prompt = "place available Dummy units next to friendly units away from the enemy, or end"; break;
    default: n20_ae_pending(s, &kind, &rule, &prompt); break; /* A-E (ae.c) */
    }
    s_copy(p->kind, sizeof p->kind, kind);
    s_copy(p->rule, sizeof p->rule, n20_ed_rule(s, rule)); /* as the edition cites it */
    s_copy(p->prompt, sizeof p->prompt, prompt);
}
