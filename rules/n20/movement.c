/*
 * movement.c - Movement [6.0]-[6.9], reinforcements [11.0]-[11.6], forced
 * march [12.2.1] and committing the Guard [12.3.1].
 *
 * A move order is the list of hexes the unit enters; an off-map
 * reinforcement's first hex is its entry hex. The same step rule serves the
 * validator and the search that lists legal destinations, so every listed
 * path is accepted.
 */
#include <string.h>

#include "n20.h"

int n20_move_allowance(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    int a = n20_is_night(s) ? 1 : d->allowance;       /* [14.0] Speed Limit */
    int fat = n20_fatigue(s, u);
    a += s->fm[d->army] && fat < N20_FAT_TIRED ? 1 : 0; /* [12.2.1]; [16.8.2] Tired: no benefit */
    if (fat >= N20_FAT_WEARY) a -= 1;                  /* [16.8.2] Weary */
    if (d->side == s->phasing) a += s->move_mod;       /* [5.0] event */
    int w = n20_weather(s);
    if (n20_w_heavy(w)) a -= 1;                        /* [5.2.1] [16.10.2] */
    return a;
}

static int s_road_bonus(const n20_state *s) {
    return n20_weather(s) == N20_W_DOWNPOUR ? 0 : s->sc->road_bonus; /* [5.2.1] [6.6] */
}

int n20_can_enter_now(const n20_state *s, int u) {
    return s->u[u].where == N20_U_REINF && s->u[u].arrive <= s->turn && !(s->u[u].flags & N20_UF_SCHEDULED) &&
           s->sc->units[u].side == s->phasing;
}

static int s_is_entry(const n20_state *s, int u, uint16_t h) {
    if (s->sc->units[u].type == N20_DUMMY) return n20_dummy_entry_hex(s, h); /* [16.1.3] */
    int ae = n20_ae_is_entry(s, u, h); /* A-E [11.6] the crossing site's Entry Area */
    if (ae >= 0) return ae;
    char area = n20_wg_entry_area(s, u); /* Wagram [3.0] Area A or B */
    for (int i = 0; i < s->sc->nentry; i++)
        if (s->sc->entry_area[i] == area && s->sc->entry_hex[i] == h) return 1;
    return 0;
}

static int s_has_road(const n20_state *s, uint16_t h) {
    for (int d = 0; d < 6; d++)
        if (s->sc->road[h][d]) return 1;
    return 0;
}

static int s_entered_before(const n20_state *s, uint16_t h) {
    for (int i = 0; i < s->entered_hex_n; i++)
        if (s->entered_hex[i] == h) return s->entered_cnt[i];
    return 0;
}

/* One step from `from` (0 = off map) into `to`. Fills cost, whether it was a
 * road step and whether the unit must stop there. ix: the state's index, or NULL. */
static int s_step(const n20_state *s, int u, uint16_t from, uint16_t to, int *cost, int *road,
                  int *stop, brt_reject *err, const n20_index *ix) {
    const n20_scenario *sc = s->sc;
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    int side = sc->units[u].side, enemy = 1 - side;
    int w = n20_weather(s);
    if (to >= N20_HEXES || !sc->onmap[to])
        return n20_reject(err, "6.0", "%s cannot enter %04u: not a map hex", id, n20_xxyy(to));
    *cost = 1;
    *road = 0;
    /* the calls below only where their rules can apply (each returns 0 at once elsewhere) */
    int pontoon = n20_ae(s) && side == N20_FRENCH ? n20_ae_step(s, u, from, to, err) : 0; /* A-E [6.10] the Pontoon Bridges */
    if (pontoon < 0) return -1;
    if (from == 0) {
        if (!s_is_entry(s, u, to))
            return n20_reject(err, "11.6", "%s must enter the map at its entry area %c, not %04u", id,
                              n20_wg_entry_area(s, u), n20_xxyy(to));
        *road = s_has_road(s, to);
        *cost += s_entered_before(s, to); /* [11.2] march order */
    } else {
        int d = n20_dir(sc, from, to);
        if (d < 0)
            return n20_reject(err, "6.0", "%s cannot move from %04u to %04u: not adjacent", id,
                              n20_xxyy(from), n20_xxyy(to));
        int wg = sc->dn.nincomplete || (sc->dn.flor_a && sc->dn.flor_b) ? n20_wg_step(s, u, from, to, err)
                                                                          : 0; /* Wagram [6.10.1] [16.10] */
        if (wg < 0) return -1;
        if (!pontoon && !wg && n20_side_blocked(sc, w, from, d))
            return n20_reject(err, "6.2", "%s cannot cross the Major River hexside %04u-%04u", id,
                              n20_xxyy(from), n20_xxyy(to));
        *road = sc->road[from][d];
        if (wg == 2) { /* [16.10] building the pontoon takes its entire Movement Allowance */
            *cost = n20_move_allowance(s, u);
            *road = 0;
        }
        if (n20_side_river(sc, w, from, d) == N20_RIV_MINOR && !sc->cross[from][d])
            *cost += sc->minor_move; /* the search relies on: no cost below 1 + min(0, minor_move) */
        if (s->u[u].routed && n20_loc_distance(s, sc->units[u].army, to) >=
                                  n20_loc_distance(s, sc->units[u].army, from))
            return n20_reject(err, "9.6.2", "%s is Routed: it may only move to continue its Retreat "
                              "toward a friendly LOC hex, and %04u is not closer", id, n20_xxyy(to));
    }
    int occ = ix ? n20_ix_unit_at(ix, to) : n20_unit_at(s, to);
    if ((occ >= 0 && n20_side_of(s, occ) != side) ||
        ((s->opts & N20_OPT_LEADERS) && n20_enemy_at(s, to, side))) /* a Leader too [16.9.2] */
        return n20_reject(err, "6.3", "%s cannot enter %04u: an enemy unit is there", id, n20_xxyy(to));
    if (sc->dn.has_garrison && n20_garrison_blocks(s, to, side))
        return n20_reject(err, "9.4.4.1", "%s cannot enter %04u: an enemy Garrison holds it (only an Advance "
                          "after Combat may)", id, n20_xxyy(to));
    int ez = ix ? n20_ix_in_ezoc(ix, to, enemy, 1) : n20_in_ezoc(s, to, enemy, 1);
    if (ez && n20_is_night(s))
        return n20_reject(err, "7.7", "%s cannot enter %04u: at night hexes in an enemy ZOC are "
                          "prohibited", id, n20_xxyy(to));
    if (ez && n20_fatigue(s, u) >= N20_FAT_SPENT)
        return n20_reject(err, "16.8.2", "%s is Spent: it cannot voluntarily enter the enemy ZOC at %04u", id,
                          n20_xxyy(to));
    int leader = sc->units[u].type == N20_LEADER;
    if (leader && ez && from && n20_in_ezoc(s, from, enemy, 1))
        return n20_reject(err, "16.9.2", "Leader %s may leave an enemy ZOC but not move from one hex in an "
                          "enemy ZOC directly into another (%04u)", id, n20_xxyy(to));
    *stop = 0;
    if (sc->t_stop[sc->terrain[to]] && !*road && !leader && !n20_light_rugged(s, u, cost))
        *stop = 6; /* [6.5]; [16.9.2] as Clear; [16.7.2] [16.7.3] Light Infantry, Cossacks */
    if (ez) *stop = 7;                                     /* [6.7] */
    return 0;
}

/* the result of s_step() from one hex in each direction, computed once per search */
typedef struct s_stepres {
    int8_t ok; /* 0: no step (off the map, the start hex, or s_step rejects it) */
    int8_t road, stop;
    int cost;
    uint16_t to;
} s_stepres;

/* the steps a search has computed: r[h] is filled for every hex h set in `done` */
typedef struct s_memo {
    s_stepres (*r)[6];
    const uint64_t *done;
    int allowance; /* n20_move_allowance of the unit searched */
    int cands;     /* check the path's steps only (n20_move_candidates) */
} s_memo;

static int s_move_end(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err, int *guard_cost,
                      const n20_index *ix, uint16_t start);

/* the step from `from` to `to` if the search computed it: in the one direction to lies in */
static const s_stepres *s_memo_find(const n20_scenario *sc, const s_memo *m, uint16_t from, uint16_t to) {
    if (!m || !from || from >= N20_HEXES || !((m->done[from / 64] >> (from % 64)) & 1)) return NULL;
    int d = n20_dir(sc, from, to);
    if (d >= 0 && m->r[from][d].ok && m->r[from][d].to == to) return &m->r[from][d];
    return NULL;
}

/* ix: the state's index, or NULL; memo: the steps of the search, or NULL */
static int s_move_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err,
                        int *guard_cost, const n20_index *ix, const s_memo *memo) {
    const n20_scenario *sc = s->sc;
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages (never NULL: gcc -O3 checks the %s) */
    int leader = sc->units[u].type == N20_LEADER;
    uint16_t from = 0;
    if (memo) { /* a path of the search: its pre-check (the checks down to `!path`) has passed */
        if (s->u[u].where == N20_U_MAP) from = s->u[u].hex;
        goto path;
    }
    if (s->phase != N20_PH_MOVE)
        return n20_reject(err, "6.1", "units move only in their own Movement Phase");
    if (sc->units[u].side != s->phasing)
        return n20_reject(err, "6.1", "%s is not a unit of the phasing player", id);
    if (n20_is_garrison(s, u))
        return n20_reject(err, "9.4.4.1", "%s is a Garrison Force: it does not move", id);
    if (leader && !(s->opts & N20_OPT_LEADERS))
        return n20_reject(err, "16.9", "%s is a Leader; Leaders are used only with optional rule 16.9", id);
    if (n < 1 || n > N20_MAX_PATH)
        return n20_reject(err, "6.0", "a move must enter between 1 and %d hexes", N20_MAX_PATH);
    if (s->u[u].where == N20_U_MAP) {
        if (s->u[u].flags & N20_UF_MOVED)
            return n20_reject(err, "6.4", "%s has already moved this phase: movement is final", id);
        from = s->u[u].hex;
        if (!leader && !n20_is_night(s) && (ix ? n20_ix_in_ezoc(ix, from, 1 - sc->units[u].side, 1)
                                               : n20_in_ezoc(s, from, 1 - sc->units[u].side, 1))) /* [16.9.2] */
            return n20_reject(err, "6.8", "%s is in an enemy ZOC and may leave it only by "
                              "Disengagement or at Night", id);
        if (n20_wg_caution_check(s, u, "move", err) < 0) return -1; /* Wagram [6.11] */
    } else if (s->u[u].where == N20_U_REINF) {
        if (!n20_can_enter_now(s, u))
            return n20_reject(err, "11.0", "%s is not due to arrive before Turn %u", id, s->u[u].arrive);
    } else if (n20_dummy_may_enter(s, u, err) < 0) { /* [16.1.3] a Dummy with the arrivals */
        return -1;
    }
    if (!path) return 0; /* only the checks that do not depend on the path (the search's) */
path:;
    int A = memo ? memo->allowance : n20_move_allowance(s, u), spent = 0, allroad = 1;
    uint16_t start = from;
    for (int i = 0; i < n; i++) {
        int cost, road, stop;
        const s_stepres *m = s_memo_find(sc, memo, from, path[i]);
        if (m) {
            cost = m->cost;
            road = m->road;
            stop = m->stop;
        } else if (s_step(s, u, from, path[i], &cost, &road, &stop, err, ix) < 0) {
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (path[j] == path[i])
                return n20_reject(err, "6.0", "%s's path enters %04u twice", id, n20_xxyy(path[i]));
        spent += cost;
        allroad &= road;
        if (i > 0 && spent > A + (allroad ? s_road_bonus(s) : 0) &&
            !(spent == A + 1 && n20_light_one_mp(s, u, path[i], road))) /* [16.7.3] */
            return n20_reject(err, "6.2", "%s has %d Movement Points%s and the path to %04u costs %d",
                              id, A, allroad && s_road_bonus(s) ? " (+1 on road)" : "",
                              n20_xxyy(path[i]), spent);
        if (stop && i + 1 < n) {
            if (stop == 6)
                return n20_reject(err, "6.5", "%s must stop on entering the rugged hex %04u", id,
                                  n20_xxyy(path[i]));
            return n20_reject(err, "6.7", "%s must stop on entering the enemy ZOC at %04u", id,
                              n20_xxyy(path[i]));
        }
        from = path[i];
    }
    if (memo && memo->cands) return 0; /* the path's steps only: s_move_end is asked later */
    return s_move_end(s, u, path, n, err, guard_cost, ix, start);
}

/* The checks of a move at its end: the stacking [6.9], Wagram [6.10.2] and the Guard [12.3.1].
 * The only checks of a move that read where the other units of the unit's side stand (with the
 * Wagram path cap, which reads the state's own count). */
static int s_move_end(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err, int *guard_cost,
                      const n20_index *ix, uint16_t start) {
    const n20_scenario *sc = s->sc;
    char idb[N20_NAME];
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : "";
    int leader = sc->units[u].type == N20_LEADER;
    int occ = ix ? n20_ix_unit_at(ix, path[n - 1]) : n20_unit_at(s, path[n - 1]);
    if (occ >= 0 && occ != u && !leader && !n20_combine_ok(s, u, occ)) /* [16.9.2] Leaders are stack free */
        return n20_reject(err, "6.9", "%s cannot end its move stacked with %s in %04u", id,
                          N20_RUID(s, occ), n20_xxyy(path[n - 1]));
    if (n20_wg_move_path_check(s, u, path, n, err) < 0) return -1; /* Wagram [6.10.2] */
    int gc = n20_guard_commit_cost_ix(s, u, start, path[n - 1], ix);
    if (gc && s->morale[sc->units[u].side] < 1)
        return n20_reject(err, "12.3.1", "committing %s needs one Morale Point", id);
    if (guard_cost) *guard_cost = gc;
    return 0;
}

int n20_move_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err,
                   int *guard_cost) {
    return s_move_check(s, u, path, n, err, guard_cost, NULL, NULL);
}

void n20_move_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    int gc = 0;
    n20_move_check(s, u, path, n, NULL, &gc);
    n20_move_apply_gc(s, u, path, n, gc, out);
}

void n20_move_apply_gc(n20_state *s, int u, const uint16_t *path, int n, int gc, n20_out *out) {
    uint16_t start = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    if (gc) n20_fog_reveal(s, u, out, "16.1.1 committing the Guard"); /* revealed when committed */
    if (gc) n20_morale_one(s, n20_side_of(s, u), -1, out, "12.3.1 committing the Guard");
    if (!start) {
        int k = -1;
        for (int i = 0; i < s->entered_hex_n; i++)
            if (s->entered_hex[i] == path[0]) k = i;
        if (k < 0 && s->entered_hex_n < 8) {
            k = s->entered_hex_n++;
            s->entered_hex[k] = path[0];
            s->entered_cnt[k] = 0;
        }
        if (k >= 0) s->entered_cnt[k]++;
        s->u[u].where = N20_U_MAP;
        if (s->sc->units[u].type == N20_DUMMY) s->u[u].flags |= N20_UF_DUMMY_IN; /* [16.1.3] */
    }
    s->u[u].hex = path[n - 1];
    s->u[u].flags |= N20_UF_MOVED;
    if (gc && (s->opts & N20_OPT_SPECIAL_UNITS)) s->u[u].flags |= N20_UF_COMMITTED; /* [16.7.1] */
    if (s->gg_unit == u) {
        s->gg_unit = 0xff; /* [5.1] removed when the unit leaves its hex, even if it comes back */
        int gs[1] = {u};
        n20_event(out, s, "good-ground", gs, 1, NULL, 0, NULL, 0,
                  "[5.1] the Good Ground marker is removed: " N20_U(0) " left its hex");
    }
    int us[1] = {u};
    uint16_t hx[N20_MAX_PATH + 1];
    int nh = 0;
    if (start) hx[nh++] = start;
    for (int i = 0; i < n && nh < N20_MAX_PATH + 1; i++) hx[nh++] = path[i];
    n20_event(out, s, start ? "moved" : "entered", us, 1, hx, nh, NULL, 0, "[%s] " N20_U(0) " %s %04u%s",
              start ? "6.0" : "11.1", start ? "moves to" : "enters the map at",
              n20_xxyy(path[n - 1]), gc ? " (Guard committed: -1 Morale)" : "");
    n20_wg_moved(s, u, start, path, n, out); /* Wagram [6.10.2] [12.7] [12.8] [16.10] */
}

/* ---- search of every destination ---------------------------------------- */
typedef struct s_node {
    int16_t spent;   /* -1 unreached */
    uint16_t prev;   /* previous hex (0 = start / off map) */
    uint8_t prev_k;  /* previous key */
    uint8_t len;
} s_node;

int n20_move_destinations(const n20_state *s, int u,
                          void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx) {
    n20_index ix;
    n20_index_build(s, &ix);
    return n20_move_destinations_ix(s, u, &ix, fn, ctx);
}

static void s_mark(uint64_t *set, uint16_t h) { set[h / 64] |= 1ull << (h % 64); }
static int s_marked(const uint64_t *set, uint16_t h) { return (int)((set[h / 64] >> (h % 64)) & 1); }

static int s_destinations(const n20_state *s, int u, const n20_index *ix,
                          void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx, int cands);

int n20_move_destinations_ix(const n20_state *s, int u, const n20_index *ix,
                             void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx) {
    return s_destinations(s, u, ix, fn, ctx, 0);
}

int n20_move_candidates(const n20_state *s, int u, const n20_index *ix,
                        void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx) {
    return s_destinations(s, u, ix, fn, ctx, 1);
}

int n20_move_end_check(const n20_state *s, int u, const uint16_t *path, int n, const n20_index *ix) {
    if (n < 1 || n > N20_MAX_PATH) return -1;
    return s_move_end(s, u, path, n, NULL, NULL, ix, s->u[u].where == N20_U_MAP ? s->u[u].hex : 0);
}

static int s_destinations(const n20_state *s, int u, const n20_index *ix,
                          void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx, int cands) {
    const n20_scenario *sc = s->sc;
    static const int K = 4; /* key = allroad * 2 + stopped */
    s_node *nodes = NULL;
    /* a fixed-size table on the stack: N20_HEXES * 4 nodes; a hex's nodes are set to
     * unreached (spent -1) when the search first touches the hex (`seen`) */
    s_node table[N20_HEXES * 4];
    nodes = table;
    /* the steps out of each hex the search relaxes (`stepped`) */
    s_stepres steps[N20_HEXES][6];
    uint64_t seen[N20_HEXES / 64], stepped[N20_HEXES / 64];
    memset(seen, 0, sizeof seen);
    memset(stepped, 0, sizeof stepped);
    /* cheap pre-check: rejections that do not depend on the path (every path is rejected) */
    if (s_move_check(s, u, NULL, 1, NULL, NULL, ix, NULL) < 0) return 0;
    int A = n20_move_allowance(s, u), bonus = s_road_bonus(s);
    /* the least a step between map hexes costs in s_step() */
    int least = 1 + (sc->minor_move < 0 ? sc->minor_move : 0);
    uint16_t start = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    /* hexes whose nodes changed since the sweep last relaxed them (`todo`: this sweep, `later`:
     * the next one), and every hex reached */
    uint64_t todo[N20_HEXES / 64], later[N20_HEXES / 64];
    memset(todo, 0, sizeof todo);
    memset(later, 0, sizeof later);
    /* frontier relaxation: first steps, into the neighbours of the start hex or, from off the
     * map, into the entry hexes of the unit's area [11.6] (s_step accepts no other) */
    int changed = 1;
    if (start) { /* the steps out of the start hex are kept for the checks of the listed paths */
        for (int d = 0; d < 6; d++) steps[start][d].ok = 0;
        s_mark(stepped, start);
    }
    /* a [16.1.3] Dummy enters where this turn's arrivals entered (n20_dummy_entry_hex) */
    int dummy = !start && sc->units[u].type == N20_DUMMY;
    for (int i = 0; i < (start ? 6 : dummy ? N20_HEXES : sc->nentry); i++) {
        uint16_t to = start ? 0 : dummy ? (uint16_t)i : sc->entry_hex[i];
        if (start && n20_neighbor(sc, start, i, &to) < 0) continue;
        if (dummy && (!sc->onmap[i] || !n20_dummy_entry_hex(s, to))) continue;
        if (!start && !dummy && n20_ae_is_entry(s, u, to) < 0 && sc->entry_area[i] != n20_wg_entry_area(s, u)) continue; /* Wagram [3.0] */
        if (!start && !dummy && n20_ae_is_entry(s, u, to) == 0) continue; /* A-E [11.6] */
        if (to >= N20_HEXES || !sc->onmap[to]) continue;
        int cost, road, stop;
        int ok = s_step(s, u, start, to, &cost, &road, &stop, NULL, ix) == 0;
        if (start) {
            s_stepres *r = &steps[start][i];
            *r = (s_stepres){.ok = (int8_t)ok, .to = to};
            if (ok) {
                r->cost = cost;
                r->road = (int8_t)road;
                r->stop = (int8_t)stop;
            }
        }
        if (!ok) continue;
        int k = road * 2 + (stop ? 1 : 0);
        if (!s_marked(seen, to)) {
            s_mark(seen, to);
            for (int j = 0; j < K; j++) nodes[to * K + j].spent = -1;
        }
        s_node *nd = &nodes[to * K + k];
        if (nd->spent < 0 || cost < nd->spent) {
            nd->spent = (int16_t)cost;
            nd->prev = 0;
            nd->prev_k = 0;
            nd->len = 1;
            s_mark(todo, to);
        }
    }
    /* Sweeps over the hexes in index order until nothing changes (at most 16), each node relaxed
     * with its values at that moment. Only the hexes in `todo` are visited: relaxing a node again
     * with the values it had when last relaxed changes nothing. A node changed ahead of the sweep
     * is relaxed in this sweep, one behind it in the next, as a sweep over every hex would. */
    for (int iter = 0; changed && iter < 16; iter++) {
        changed = 0;
        for (int w = 0; w < N20_HEXES / 64; w++) {
            while (todo[w]) {
                uint16_t h = (uint16_t)(w * 64 + __builtin_ctzll(todo[w]));
                todo[w] &= todo[w] - 1;
                if (!sc->onmap[h]) continue;
                for (int k = 0; k < K; k++) {
                    s_node *cur = &nodes[h * K + k];
                    if (cur->spent < 0 || (k & 1) || cur->len >= N20_MAX_PATH) continue;
                    int allroad = k >> 1;
                    if (cur->spent + least > A + (allroad && bonus > 0 ? bonus : 0))
                        continue; /* no step from here fits the allowance */
                    if (!s_marked(stepped, h)) {
                        s_mark(stepped, h);
                        for (int d = 0; d < 6; d++) {
                            s_stepres *r = &steps[h][d];
                            int cost, road, stop;
                            r->ok = n20_neighbor(sc, h, d, &r->to) == 0 && r->to != start &&
                                    s_step(s, u, h, r->to, &cost, &road, &stop, NULL, ix) == 0;
                            if (!r->ok) continue;
                            r->cost = cost;
                            r->road = (int8_t)road;
                            r->stop = (int8_t)stop;
                        }
                    }
                    for (int d = 0; d < 6; d++) {
                        const s_stepres *r = &steps[h][d];
                        if (!r->ok) continue;
                        uint16_t to = r->to;
                        int ar = allroad & r->road;
                        int sp = cur->spent + r->cost;
                        int over = sp > A + (ar ? bonus : 0);
                        if (over && !(sp == A + 1 && n20_light_one_mp(s, u, to, r->road))) continue;
                        int nk = ar * 2 + (r->stop || over ? 1 : 0); /* [16.7.3] enters and stops */
                        if (!s_marked(seen, to)) {
                            s_mark(seen, to);
                            for (int j = 0; j < K; j++) nodes[to * K + j].spent = -1;
                        }
                        s_node *nd = &nodes[to * K + nk];
                        if (nd->spent < 0 || sp < nd->spent) {
                            nd->spent = (int16_t)sp;
                            nd->prev = h;
                            nd->prev_k = (uint8_t)k;
                            nd->len = (uint8_t)(cur->len + 1);
                            changed = 1;
                            s_mark(to > h ? todo : later, to);
                        }
                    }
                }
            }
        }
        memcpy(todo, later, sizeof todo);
        memset(later, 0, sizeof later);
    }
    int count = 0;
    s_memo memo = {steps, stepped, A, cands};
    for (int w = 0; w < N20_HEXES / 64; w++) {
        for (uint64_t bits = seen[w]; bits; bits &= bits - 1) {
            uint16_t h = (uint16_t)(w * 64 + __builtin_ctzll(bits));
            if (!sc->onmap[h] || h == start) continue;
            /* prefer the shortest reached key */
            int best = -1;
            for (int k = 0; k < K; k++)
                if (nodes[h * K + k].spent >= 0 &&
                    (best < 0 || nodes[h * K + k].len < nodes[h * K + best].len))
                    best = k;
            if (best < 0) continue;
            uint16_t path[N20_MAX_PATH];
            int n = nodes[h * K + best].len;
            if (n < 1 || n > N20_MAX_PATH) continue;
            uint16_t ch = h;
            int ck = best, ok = 1;
            for (int i = n - 1; i >= 0; i--) {
                path[i] = ch;
                s_node *nd = &nodes[ch * K + ck];
                if (i > 0 && nd->prev == 0) { ok = 0; break; }
                uint16_t ph = nd->prev;
                ck = nd->prev_k;
                ch = ph;
            }
            if (!ok) continue;
            if (s_move_check(s, u, path, n, NULL, NULL, ix, &memo) < 0) continue;
            if (fn) fn(ctx, u, path, n);
            count++;
        }
    }
    return count;
}

int n20_forced_march_check(const n20_state *s, int army, unsigned card, brt_reject *err) {
    if (s->phase != N20_PH_MOVE && !(s->phase == N20_PH_ARRIVAL && army == N20_ARMY_FRENCH)) /* [17.1.1] */
        return n20_reject(err, "12.2.1", "Forced March is bought during your Movement Phase");
    int side = army == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
    if (army < 0 || army >= N20_ARMIES || !(s->sc->armies_in & (1u << army)))
        return n20_reject(err, "12.2.1", "no %s army in this game", army >= 0 && army < N20_ARMIES ? n20_army_name(army) : "such");
    if (side != s->phasing)
        return n20_reject(err, "12.2.1", "the %s army is not the phasing player's", n20_army_name(army));
    if (s->fm[army])
        return n20_reject(err, "12.2", "the %s army already Force Marches this turn (one Morale Point "
                          "at a time, once per army)", n20_army_name(army));
    if (card) {
        int c = n20_card_kept(s, side, card);
        if (c < 0)
            return n20_reject(err, "5.0", "the %s player does not keep Event card #%u", n20_side_name(side), card);
        if (s->sc->cards[c].effect[side] != N20_E_FM_FREE)
            return n20_reject(err, "5.0", "Event card #%u does not give a Forced March", card);
        return 0;
    }
    if (!s->fm_free && s->morale[side] < 1)
        return n20_reject(err, "12.2.1", "no Morale Point left to spend");
    return 0;
}

void n20_forced_march_apply(n20_state *s, int army, unsigned card, n20_out *out) {
    int side = army == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
    s->fm[army] = 1;
    for (int i = 0; i < s->sc->nunits; i++) /* [17.1.3] the +1 makes its arrival roll */
        if ((s->u[i].flags & N20_UF_FM_ARRIVE) && s->sc->units[i].army == army &&
            s->u[i].where == N20_U_VARIABLE) {
            s->u[i].flags &= (uint16_t)~N20_UF_FM_ARRIVE;
            s->u[i].where = N20_U_REINF;
            s->u[i].arrive = s->turn;
            int us[1] = {i};
            n20_event(out, s, "reinforcement", us, 1, NULL, 0, NULL, 0,
                      "[17.1.3] the %s army Force Marches: " N20_U(0) " arrives this turn",
                      n20_army_name(army));
        }
    int kc = card ? n20_card_kept(s, side, card) : -1;
    if (kc >= 0) {
        N20_EV(out, s, "forced-march", "[12.2.1] the %s army Force Marches (kept card #%u: no Morale cost)",
               n20_army_name(army), card);
        n20_card_discard_kept(s, side, kc, out, "used");
    } else if (s->fm_free) {
        s->fm_free = 0;
        N20_EV(out, s, "forced-march", "[12.2.1] the %s army Force Marches (event: no Morale cost)",
               n20_army_name(army));
    } else {
        N20_EV(out, s, "forced-march", "[12.2.1] the %s army Force Marches: +1 Movement Allowance",
               n20_army_name(army));
        n20_morale_one(s, side, -1, out, "12.2.1 forced march");
    }
}

int n20_end_move_check(const n20_state *s, brt_reject *err) {
    for (int i = 0; i < s->sc->nunits; i++) {
        if (s->u[i].where != N20_U_MAP || n20_side_of(s, i) != s->phasing) continue;
        if (s->sc->units[i].type == N20_LEADER) continue; /* [16.9.2] stack free */
        int j = n20_unit_at(s, s->u[i].hex);
        if (j >= 0 && j != i && !n20_combine_ok(s, i, j))
            return n20_reject(err, "6.9", "%s and %s may not end the Movement Phase stacked in %04u",
                              N20_RUID(s, i), N20_RUID(s, j), n20_xxyy(s->u[i].hex));
    }
    return 0;
}
