/*
 * sambre.c - [17.1.1] Crossing the Sambre River (option `sambre-crossing`, Extended Campaign and
 * Opening Battles scenarios): the French player's secret schedule of his reinforcements at set-up
 * (constraints A-D) and the arrival procedure on the French Arrival Table (a RECONSTRUCTED table in
 * the scenario data: `arrival` records).
 *
 * A scheduled unit is a reinforcement with the flag N20_UF_SCHEDULED and its turn in `arrive`
 * (0 while the set-up decision has not placed it). Until it arrives it is hidden from the Allied
 * seat exactly as a face-down unit is with fog-of-war: n20_fog_hidden_from() says so, and the
 * per-seat redaction of views, legal orders, events and rejections (fog.c, view.c, state.c) leaves
 * it out or calls it "a unit". The log holds everything.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "n20.h"

#define S_MAX_UNITS_PER_TURN 3 /* [17.1.1] A. no more than three units on a single Game Turn */
#define S_MAX_INF_PER_TURN 2   /* [17.1.1] A. no more than two of those units can be Infantry */

int n20_sambre(const n20_state *s) { return (s->opts & N20_OPT_SAMBRE) != 0; }
int n20_redacts(const n20_state *s) { return (s->opts & (N20_OPT_FOG | N20_OPT_SAMBRE)) != 0; }

static int s_sched(const n20_state *s, int u) {
    return (s->u[u].flags & N20_UF_SCHEDULED) && n20_side_of(s, u) == N20_FRENCH;
}
static int s_leader(const n20_state *s, int u) { return s->sc->units[u].type == N20_LEADER; }

/* [17.1.1] "the French player secretly arranges all his units face down on the Game Turn track":
 * every French reinforcement of the game (Leaders with [16.9]) waits for its turn */
void n20_sambre_setup(n20_state *s) {
    if (!n20_sambre(s)) return;
    for (int u = 0; u < s->sc->nunits; u++)
        if (n20_side_of(s, u) == N20_FRENCH && s->u[u].where == N20_U_REINF) {
            s->u[u].flags |= N20_UF_SCHEDULED;
            s->u[u].arrive = 0;
        }
    s->phase = N20_PH_SCHEDULE;
}

/* placing u on turn t against the turns `at` of the others (0: not placed): constraints A-D */
static int s_place_ok(const n20_state *s, const uint8_t *at, int u, int t, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    const n20_unit_def *d = &sc->units[u];
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    int first = sc->start_turn;
    if (t < first || t > sc->last_turn)
        return n20_reject(err, "17.1.1", "%s can be scheduled only on the Game Turn track, Turns %u-%u", id,
                          sc->start_turn, sc->last_turn);
    int garde = -1, nap = -1;
    for (int v = 0; v < sc->nunits; v++) {
        if (!s_sched(s, v) || v == u) continue;
        if (sc->units[v].flags & N20_FLAG_GUARD) garde = v;
        if (sc->units[v].flags & N20_FLAG_NAPOLEON) nap = v;
    }
    if (s_leader(s, u)) { /* D. (only with [16.9]: Leaders are on the schedule only then) */
        if (t == first)
            return n20_reject(err, "17.1.1", "D. no Leaders may enter play on Turn %u (%s)", first, id);
        if (u == sc->nb_unit && t < sc->nb_turn)
            return n20_reject(err, "17.1.1", "D. the %s Leader cannot arrive before Turn %u", id, sc->nb_turn);
        if ((d->flags & N20_FLAG_NAPOLEON) && garde >= 0 && at[garde] && at[garde] != t)
            return n20_reject(err, "17.1.1", "D. the NAPOLEON Leader must be scheduled to arrive on the same turn "
                              "as the Imperial Guard unit (Turn %u)", at[garde]);
        return 0;
    }
    int n = 0, ninf = 0;
    for (int v = 0; v < sc->nunits; v++)
        if (v != u && s_sched(s, v) && !s_leader(s, v) && at[v] == t) {
            n++;
            ninf += sc->units[v].type == N20_INF;
        }
    if (n >= S_MAX_UNITS_PER_TURN)
        return n20_reject(err, "17.1.1", "A. no more than three units can be scheduled to arrive on Turn %u", t);
    if (d->type == N20_INF && ninf >= S_MAX_INF_PER_TURN)
        return n20_reject(err, "17.1.1", "A. no more than two Infantry units can be scheduled to arrive on Turn %u", t);
    if ((d->flags & N20_FLAG_GUARD) && t == first)
        return n20_reject(err, "17.1.1", "C. the Imperial Guard unit cannot be scheduled to arrive on Game Turn %u", t);
    if ((d->flags & N20_FLAG_GUARD) && nap >= 0 && at[nap] && at[nap] != t)
        return n20_reject(err, "17.1.1", "D. the Imperial Guard unit must arrive on the NAPOLEON Leader's turn (Turn %u)",
                          at[nap]);
    for (int v = 0; v < sc->nunits; v++) {
        if (v == u || !s_sched(s, v) || !at[v]) continue;
        if (d->type == N20_CAV && sc->units[v].type == N20_ART && t > at[v])
            return n20_reject(err, "17.1.1", "B. the Cavalry units must be scheduled to arrive before the Artillery "
                              "unit (Turn %u)", at[v]);
        if (d->type == N20_ART && sc->units[v].type == N20_CAV && at[v] > t)
            return n20_reject(err, "17.1.1", "B. the Artillery unit cannot arrive before the Cavalry unit %s (Turn %u)",
                              N20_RUID(s, v), at[v]);
    }
    return 0;
}

/* one way to schedule every unit not yet placed in `at`; -1 if this greedy search finds none. Each
 * placement is checked against the ones before, so a completion it finds keeps A-D. */
static int s_complete(const n20_state *s, uint8_t *at) {
    const n20_scenario *sc = s->sc;
    int first = sc->start_turn, last = sc->last_turn;
    /* passes: the Imperial Guard (latest), Cavalry (earliest), Artillery (earliest), other
     * non-Leaders (latest), Leaders (earliest) */
    for (int pass = 0; pass < 5; pass++)
        for (int u = 0; u < sc->nunits; u++) {
            if (!s_sched(s, u) || at[u]) continue;
            const n20_unit_def *d = &sc->units[u];
            int mine = pass == 0 ? (d->flags & N20_FLAG_GUARD) != 0
                       : pass == 1 ? d->type == N20_CAV
                       : pass == 2 ? d->type == N20_ART
                       : pass == 3 ? d->type != N20_LEADER
                                   : 1;
            if (!mine) continue;
            int late = pass == 0 || pass == 3;
            for (int k = 0; k <= last - first && !at[u]; k++) {
                int t = late ? last - k : first + k;
                if (s_place_ok(s, at, u, t, NULL) == 0) at[u] = (uint8_t)t;
            }
            if (!at[u]) return -1;
        }
    return 0;
}

static void s_turns(const n20_state *s, uint8_t *at) {
    for (int u = 0; u < s->sc->nunits; u++) at[u] = s_sched(s, u) ? s->u[u].arrive : 0;
}

int n20_schedule_check(const n20_state *s, int u, int t, brt_reject *err) {
    if (s->phase != N20_PH_SCHEDULE)
        return n20_reject(err, "17.1.1", "the French reinforcements are scheduled only at set-up");
    if (u < 0 || u >= s->sc->nunits || !s_sched(s, u))
        return n20_reject(err, "17.1.1", "%s is not a French reinforcement to schedule",
                          u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    if (s->u[u].arrive) return n20_reject(err, "17.1.1", "%s is already scheduled", N20_RUID(s, u));
    uint8_t at[N20_MAX_UNITS];
    s_turns(s, at);
    if (s_place_ok(s, at, u, t, err) < 0) return -1;
    at[u] = (uint8_t)t;
    if (s_complete(s, at) < 0)
        return n20_reject(err, "17.1.1", "with %s on Turn %u the other units could not all be scheduled "
                          "(constraints A-D)", N20_RUID(s, u), t);
    return 0;
}

void n20_schedule_apply(n20_state *s, int u, int t, n20_out *out) {
    s->u[u].arrive = (uint8_t)t;
    int us[1] = {u}, v[1] = {t};
    n20_event_private(out, s, N20_FRENCH, "[17.1.1] the French player schedules a unit", "scheduled", us, 1, v, 1,
                      "[17.1.1] " N20_U(0) " is scheduled to arrive on Turn %u at Area %c", t,
                      s->sc->units[u].area);
}

void n20_schedule_finish(n20_state *s, n20_out *out) {
    const n20_scenario *sc = s->sc;
    for (int u = 0; u < sc->nunits; u++) {
        if (!s_sched(s, u) || s->u[u].arrive) continue;
        int t = sc->units[u].turn; /* the [17.1] table's turn where the constraints allow it */
        if (n20_schedule_check(s, u, t, NULL) < 0)
            for (t = sc->start_turn; t <= sc->last_turn && n20_schedule_check(s, u, t, NULL) < 0; t++) {
            }
        if (t > sc->last_turn) { /* cannot happen while the schedule so far can be completed */
            uint8_t at[N20_MAX_UNITS];
            s_turns(s, at);
            if (s_complete(s, at) < 0) break;
            t = at[u];
        }
        n20_schedule_apply(s, u, t, out);
    }
    N20_EV(out, s, "scheduled", "[17.1.1] the French player has scheduled his reinforcements on the Game Turn track");
    s->phase = N20_PH_EVENTS;
}

/* ---- the arrival procedure ---------------------------------------------------------- */
static int s_due(const n20_state *s, int u) {
    return s_sched(s, u) && s->u[u].arrive && s->u[u].arrive <= s->turn;
}

int n20_arrival_due(const n20_state *s) {
    if (!n20_sambre(s) || s->phasing != N20_FRENCH) return 0;
    for (int u = 0; u < s->sc->nunits; u++)
        if (s_due(s, u)) return 1;
    return 0;
}

static int s_napoleon_arrived(const n20_state *s) {
    for (int u = 0; u < s->sc->nunits; u++) {
        if (!(s->sc->units[u].flags & N20_FLAG_NAPOLEON) || !n20_unit_in_game(s, u)) continue;
        int w = s->u[u].where;
        if (w == N20_U_MAP || w == N20_U_BROKEN || w == N20_U_ELIM || (w == N20_U_REINF && !s_sched(s, u)))
            return 1;
    }
    return 0;
}

static int s_due_units(const n20_state *s) {
    int n = 0;
    for (int u = 0; u < s->sc->nunits; u++) n += s_due(s, u) && !s_leader(s, u);
    return n;
}

int n20_arrival_modifier(const n20_state *s) {
    int m = -s_due_units(s);                                            /* -1 per non-Leader unit */
    if (s->fm[N20_ARMY_FRENCH]) m += 1;                                 /* +1 Forced March */
    if ((s->opts & N20_OPT_LEADERS) && !s_napoleon_arrived(s)) m += 1; /* +1 NAPOLEON not arrived */
    if (s->opts & N20_OPT_BERTHIER_BACK) m += 1;                        /* +1 [17.1.2] */
    return m;
}

static void s_arrive(n20_state *s, int u, n20_out *out, const char *why) {
    s->u[u].flags &= (uint16_t)~N20_UF_SCHEDULED;
    s->u[u].arrive = s->turn;
    int us[1] = {u};
    n20_event(out, s, "reinforcement", us, 1, NULL, 0, NULL, 0, "[17.1.1] " N20_U(0) " arrives this turn at Area %c%s",
              s->sc->units[u].area, why);
}

static void s_to_movement(n20_state *s, n20_out *out) {
    s->sambre_delay = 0;
    s->phase = N20_PH_MOVE;
    n20_leader_rally(s, out); /* [16.9.7] */
}

int n20_delay_check(const n20_state *s, int u, brt_reject *err) {
    if (s->phase != N20_PH_ARRIVAL && s->phase != N20_PH_ARRIVAL_DELAY)
        return n20_reject(err, "17.1.1", "units are Delayed only during the French arrival procedure");
    if (u < 0 || u >= s->sc->nunits || !s_due(s, u))
        return n20_reject(err, "17.1.1", "%s is not scheduled to arrive this turn",
                          u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    if (s->phase == N20_PH_ARRIVAL && !(s->sc->units[u].flags & N20_FLAG_NAPOLEON))
        return n20_reject(err, "17.1.1", "only the NAPOLEON Leader may be Delayed voluntarily; the French Arrival "
                          "Table decides for %s", N20_RUID(s, u));
    if (s->phase == N20_PH_ARRIVAL_DELAY && s_leader(s, u))
        return n20_reject(err, "17.1.1", "D. Leaders do not affect the arrival die roll: %s arrives automatically",
                          N20_RUID(s, u));
    return 0;
}

static void s_delay(n20_state *s, int u, n20_out *out, const char *why) {
    s->u[u].arrive = (uint8_t)(s->turn + 1);
    int us[1] = {u};
    n20_event(out, s, "delayed", us, 1, NULL, 0, NULL, 0, "[17.1.1] " N20_U(0) " is Delayed to Turn %u%s",
              s->u[u].arrive, why);
}

void n20_delay_apply(n20_state *s, int u, n20_out *out) {
    if (s->phase == N20_PH_ARRIVAL) {
        s_delay(s, u, out, " (voluntarily)");
        return;
    }
    s_delay(s, u, out, " (the French player's choice)");
    if (s->sambre_delay) s->sambre_delay--;
    if (s->sambre_delay) return;
    for (int v = 0; v < s->sc->nunits; v++)
        if (s_due(s, v)) s_arrive(s, v, out, "");
    s_to_movement(s, out);
}

static int s_table(const n20_scenario *sc, int v) {
    if (!sc->narr) return N20_ARR_ALL;
    int r = sc->arr_res[0];
    for (int i = 0; i < sc->narr; i++)
        if (v >= sc->arr_mod[i]) r = sc->arr_res[i];
    return r;
}

void n20_arrival_roll(n20_state *s, brt_dice *dice, n20_out *out) {
    /* D. Leaders "arrive automatically", before the roll (rulings R-17.1.1-arrival) */
    for (int u = 0; u < s->sc->nunits; u++)
        if (s_due(s, u) && s_leader(s, u)) s_arrive(s, u, out, " (a Leader arrives automatically)");
    int n = s_due_units(s);
    if (!n) {
        s_to_movement(s, out);
        return;
    }
    int m = n20_arrival_modifier(s);
    /* public: the arrival-table event announces the die and its result to both seats; which units
     * are Delayed stays the French player's secret [17.1.1] */
    uint32_t die = brt_dice_roll(dice, 6, "17.1.1 French Arrival Table");
    int r = s_table(s->sc, (int)die + m);
    int k = r == N20_ARR_ALL ? 0 : r == N20_ARR_DELAY_ALL || r >= n ? n : r;
    int v[4] = {(int)die, m, (int)die + m, k};
    char res[80];
    if (!k) snprintf(res, sizeof res, "all arrive");
    else if (k == n) snprintf(res, sizeof res, "all %d Delayed", n);
    else snprintf(res, sizeof res, "%d of %d Delayed, the French player chooses", k, n);
    /* the modifier "+1 NAPOLEON not arrived" names the NAPOLEON unit: it is in the units list, so
     * that a seat from which it is hidden reads "a unit not arrived" */
    int nap = (s->opts & N20_OPT_LEADERS) && !s_napoleon_arrived(s) ? n20_unit_find(s, "NAPOLEON") : -1;
    int us[1] = {nap};
    n20_event(out, s, "arrival-table", us, nap >= 0, NULL, 0, v, 4,
              "[17.1.1] French Arrival Table: die %u, modifier %+d (%d units scheduled%s%s%s) = %d: %s", die, m, n,
              s->fm[N20_ARMY_FRENCH] ? ", Forced March" : "",
              nap >= 0                                               ? ", " N20_U(0) " not arrived"
              : (s->opts & N20_OPT_LEADERS) && !s_napoleon_arrived(s) ? ", NAPOLEON not arrived"
                                                                      : "",
              s->opts & N20_OPT_BERTHIER_BACK ? ", Berthier is Back!" : "", (int)die + m, res);
    if (k == 0 || k == n) {
        for (int u = 0; u < s->sc->nunits; u++) {
            if (!s_due(s, u)) continue;
            if (k) s_delay(s, u, out, "");
            else s_arrive(s, u, out, "");
        }
        s_to_movement(s, out);
        return;
    }
    s->sambre_delay = (uint8_t)k; /* the French player chooses which (rulings R-17.1.1-which) */
    s->phase = N20_PH_ARRIVAL_DELAY;
}

