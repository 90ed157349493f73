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
    a += s->fm[d->army] ? 1 : 0;                       /* [12.2.1] */
    if (d->side == s->phasing) a += s->move_mod;       /* [5.0] event */
    int w = n20_weather(s);
    if (w == N20_W_DOWNPOUR || w == N20_W_MUD) a -= 1; /* [5.2.1] */
    return a;
}

static int s_road_bonus(const n20_state *s) {
    return n20_weather(s) == N20_W_DOWNPOUR ? 0 : s->sc->road_bonus; /* [5.2.1] [6.6] */
}

int n20_can_enter_now(const n20_state *s, int u) {
    return s->u[u].where == N20_U_REINF && s->u[u].arrive <= s->turn &&
           s->sc->units[u].side == s->phasing;
}

static int s_is_entry(const n20_state *s, int u, uint16_t h) {
    if (s->sc->units[u].type == N20_DUMMY) return n20_dummy_entry_hex(s, h); /* [16.1.3] */
    char area = s->sc->units[u].area;
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
 * road step and whether the unit must stop there. */
static int s_step(const n20_state *s, int u, uint16_t from, uint16_t to, int *cost, int *road,
                  int *stop, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    const char *id = n20_uid(s, u);
    int side = sc->units[u].side, enemy = 1 - side;
    int w = n20_weather(s);
    if (to >= N20_HEXES || !sc->onmap[to])
        return n20_reject(err, "6.0", "%s cannot enter %04u: not a map hex", id, n20_xxyy(to));
    *cost = 1;
    *road = 0;
    if (from == 0) {
        if (!s_is_entry(s, u, to))
            return n20_reject(err, "11.6", "%s must enter the map at its entry area %c, not %04u", id,
                              sc->units[u].area, n20_xxyy(to));
        *road = s_has_road(s, to);
        *cost += s_entered_before(s, to); /* [11.2] march order */
    } else {
        int d = n20_dir(sc, from, to);
        if (d < 0)
            return n20_reject(err, "6.0", "%s cannot move from %04u to %04u: not adjacent", id,
                              n20_xxyy(from), n20_xxyy(to));
        if (n20_side_blocked(sc, w, from, d))
            return n20_reject(err, "6.2", "%s cannot cross the Major River hexside %04u-%04u", id,
                              n20_xxyy(from), n20_xxyy(to));
        *road = sc->road[from][d];
        if (n20_side_river(sc, w, from, d) == N20_RIV_MINOR && !sc->cross[from][d])
            *cost += sc->minor_move;
        if (s->u[u].routed && n20_loc_distance(s, sc->units[u].army, to) >=
                                  n20_loc_distance(s, sc->units[u].army, from))
            return n20_reject(err, "9.6.2", "%s is Routed: it may only move to continue its Retreat "
                              "toward a friendly LOC hex, and %04u is not closer", id, n20_xxyy(to));
    }
    int occ = n20_unit_at(s, to);
    if (occ >= 0 && n20_side_of(s, occ) != side)
        return n20_reject(err, "6.3", "%s cannot enter %04u: an enemy unit is there", id, n20_xxyy(to));
    int ez = n20_in_ezoc(s, to, enemy, 1);
    if (ez && n20_is_night(s))
        return n20_reject(err, "7.7", "%s cannot enter %04u: at night hexes in an enemy ZOC are "
                          "prohibited", id, n20_xxyy(to));
    *stop = 0;
    if (sc->t_stop[sc->terrain[to]] && !*road) *stop = 6; /* [6.5] */
    if (ez) *stop = 7;                                     /* [6.7] */
    return 0;
}

int n20_move_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err,
                   int *guard_cost) {
    const n20_scenario *sc = s->sc;
    const char *id = n20_uid(s, u);
    if (s->phase != N20_PH_MOVE)
        return n20_reject(err, "6.1", "units move only in their own Movement Phase");
    if (sc->units[u].side != s->phasing)
        return n20_reject(err, "6.1", "%s is not a unit of the phasing player", id);
    if (sc->units[u].type == N20_LEADER)
        return n20_reject(err, "16.9", "%s is a Leader; Leaders are used only with optional rule 16.9", id);
    if (n < 1 || n > N20_MAX_PATH)
        return n20_reject(err, "6.0", "a move must enter between 1 and %d hexes", N20_MAX_PATH);
    uint16_t from = 0;
    if (s->u[u].where == N20_U_MAP) {
        if (s->u[u].flags & N20_UF_MOVED)
            return n20_reject(err, "6.4", "%s has already moved this phase: movement is final", id);
        from = s->u[u].hex;
        if (!n20_is_night(s) && n20_in_ezoc(s, from, 1 - sc->units[u].side, 1))
            return n20_reject(err, "6.8", "%s is in an enemy ZOC and may leave it only by "
                              "Disengagement or at Night", id);
    } else if (s->u[u].where == N20_U_REINF) {
        if (!n20_can_enter_now(s, u))
            return n20_reject(err, "11.0", "%s is not due to arrive before Turn %u", id, s->u[u].arrive);
    } else if (n20_dummy_may_enter(s, u, err) < 0) { /* [16.1.3] a Dummy with the arrivals */
        return -1;
    }
    int A = n20_move_allowance(s, u), spent = 0, allroad = 1;
    uint16_t start = from;
    for (int i = 0; i < n; i++) {
        int cost, road, stop;
        if (s_step(s, u, from, path[i], &cost, &road, &stop, err) < 0) return -1;
        for (int j = 0; j < i; j++)
            if (path[j] == path[i])
                return n20_reject(err, "6.0", "%s's path enters %04u twice", id, n20_xxyy(path[i]));
        spent += cost;
        allroad &= road;
        if (i > 0 && spent > A + (allroad ? s_road_bonus(s) : 0))
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
    int occ = n20_unit_at(s, path[n - 1]);
    if (occ >= 0 && occ != u)
        return n20_reject(err, "6.9", "%s cannot end its move stacked with %s in %04u", id,
                          n20_uid(s, occ), n20_xxyy(path[n - 1]));
    int gc = n20_guard_commit_cost(s, u, start, path[n - 1]);
    if (gc && s->morale[sc->units[u].side] < 1)
        return n20_reject(err, "12.3.1", "committing %s needs one Morale Point", id);
    if (guard_cost) *guard_cost = gc;
    return 0;
}

void n20_move_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    int gc = 0;
    uint16_t start = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    n20_move_check(s, u, path, n, NULL, &gc);
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
    if (s->gg_unit == u) {
        s->gg_unit = 0xff; /* [5.1] removed when the unit leaves its hex, even if it comes back */
        N20_EV(out, s, "good-ground", "[5.1] the Good Ground marker is removed: %s left its hex",
               n20_uid(s, u));
    }
    int us[1] = {u};
    uint16_t hx[N20_MAX_PATH + 1];
    int nh = 0;
    if (start) hx[nh++] = start;
    for (int i = 0; i < n && nh < N20_MAX_PATH + 1; i++) hx[nh++] = path[i];
    n20_event(out, s, start ? "moved" : "entered", us, 1, hx, nh, NULL, 0, "[%s] %s %s %04u%s",
              start ? "6.0" : "11.1", n20_uid(s, u), start ? "moves to" : "enters the map at",
              n20_xxyy(path[n - 1]), gc ? " (Guard committed: -1 Morale)" : "");
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
    const n20_scenario *sc = s->sc;
    static const int K = 4; /* key = allroad * 2 + stopped */
    s_node *nodes = NULL;
    /* a fixed-size table on the stack: N20_HEXES * 4 nodes */
    s_node table[N20_HEXES * 4];
    nodes = table;
    for (int i = 0; i < N20_HEXES * K; i++) nodes[i].spent = -1;
    if (n20_move_check(s, u, (uint16_t[]){0}, 1, NULL, NULL) < 0) {
        /* cheap pre-check: rejections that do not depend on the path */
        brt_reject e;
        n20_move_check(s, u, (uint16_t[]){0}, 1, &e, NULL);
        if (strcmp(e.rule, "6.0") != 0 && strcmp(e.rule, "11.6") != 0) return 0;
    }
    int A = n20_move_allowance(s, u), bonus = s_road_bonus(s);
    uint16_t start = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    /* frontier relaxation: first steps */
    int changed = 1;
    for (uint16_t to = 0; to < N20_HEXES; to++) {
        if (!sc->onmap[to]) continue;
        if (start && n20_dir(sc, start, to) < 0) continue;
        int cost, road, stop;
        if (s_step(s, u, start, to, &cost, &road, &stop, NULL) < 0) continue;
        int k = road * 2 + (stop ? 1 : 0);
        s_node *nd = &nodes[to * K + k];
        if (nd->spent < 0 || cost < nd->spent) {
            nd->spent = (int16_t)cost;
            nd->prev = 0;
            nd->prev_k = 0;
            nd->len = 1;
        }
    }
    for (int iter = 0; changed && iter < 16; iter++) {
        changed = 0;
        for (uint16_t h = 0; h < N20_HEXES; h++) {
            if (!sc->onmap[h]) continue;
            for (int k = 0; k < K; k++) {
                s_node *cur = &nodes[h * K + k];
                if (cur->spent < 0 || (k & 1) || cur->len >= N20_MAX_PATH) continue;
                int allroad = k >> 1;
                for (int d = 0; d < 6; d++) {
                    uint16_t to;
                    if (n20_neighbor(sc, h, d, &to) < 0 || to == start) continue;
                    int cost, road, stop;
                    if (s_step(s, u, h, to, &cost, &road, &stop, NULL) < 0) continue;
                    int ar = allroad & road;
                    int sp = cur->spent + cost;
                    if (sp > A + (ar ? bonus : 0)) continue;
                    int nk = ar * 2 + (stop ? 1 : 0);
                    s_node *nd = &nodes[to * K + nk];
                    if (nd->spent < 0 || sp < nd->spent) {
                        nd->spent = (int16_t)sp;
                        nd->prev = h;
                        nd->prev_k = (uint8_t)k;
                        nd->len = (uint8_t)(cur->len + 1);
                        changed = 1;
                    }
                }
            }
        }
    }
    int count = 0;
    for (uint16_t h = 0; h < N20_HEXES; h++) {
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
        if (n20_move_check(s, u, path, n, NULL, NULL) < 0) continue;
        if (fn) fn(ctx, u, path, n);
        count++;
    }
    return count;
}

int n20_forced_march_check(const n20_state *s, int army, unsigned card, brt_reject *err) {
    if (s->phase != N20_PH_MOVE)
        return n20_reject(err, "12.2.1", "Forced March is bought during your Movement Phase");
    int side = army == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
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
        int j = n20_unit_at(s, s->u[i].hex);
        if (j >= 0 && j != i)
            return n20_reject(err, "6.9", "%s and %s may not end the Movement Phase stacked in %04u",
                              n20_uid(s, i), n20_uid(s, j), n20_xxyy(s->u[i].hex));
    }
    return 0;
}
