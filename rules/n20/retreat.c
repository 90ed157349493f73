/*
 * retreat.c - Retreating after Combat [9.7]-[9.7.8]: the owner chooses the
 * path, the referee enforces the priorities hex by hex and names the one a
 * path breaks, and rolls for every hazard (EZOC [9.7.4], river [9.7.5]).
 */
#include <string.h>

#include "n20.h"

int n20_retreat_current(const n20_state *s) {
    if (!s->f.active || s->f.ret_done >= s->f.nret) return -1;
    return s->f.ret_unit[s->f.ret_done];
}

/* category of hex `to` for unit u retreating from `from`: 0 prohibited, 1 vacant
 * not in EZOC, 2 vacant in EZOC, 3 friendly occupied [9.7.7]. ix: the state's index, or NULL. */
static int s_category(const n20_state *s, int u, uint16_t from, uint16_t to, const uint16_t *visited,
                      int nvisited, const n20_index *ix) {
    const n20_scenario *sc = s->sc;
    int d = n20_dir(sc, from, to);
    if (d < 0 || !sc->onmap[to]) return 0;
    int pontoon = n20_ae_step(s, u, from, to, NULL); /* A-E [6.10] the Pontoon Bridges */
    int wg = n20_wg_retreat_side(s, u, from, to);     /* Wagram [6.10.1] [16.10.1] */
    if (pontoon < 0 || wg < 0 || (!pontoon && !wg && n20_side_blocked(sc, n20_weather(s), from, d))) return 0; /* [9.7.2.1] */
    for (int i = 0; i < nvisited; i++)
        if (visited[i] == to) return 0; /* rulings R-9.7.8-revisit */
    int side = n20_side_of(s, u);
    if ((s->opts & N20_OPT_LEADERS) && n20_enemy_at(s, to, side)) return 0; /* an enemy Leader too [16.9] */
    if (n20_garrison_blocks(s, to, side)) return 0; /* [9.4.4.1] an enemy Garrison's hex */
    int o = ix ? n20_ix_unit_at(ix, to) : n20_unit_at(s, to);
    if (o >= 0 && o != u) return n20_side_of(s, o) == side ? 3 : 0;
    if (ix) return n20_ix_in_ezoc(ix, to, 1 - side, side == s->phasing) ? 2 : 1;
    return n20_in_ezoc(s, to, 1 - side, side == s->phasing) ? 2 : 1;
}

static int s_other_at(const n20_state *s, int u, uint16_t h) {
    for (int j = 0; j < s->sc->nunits; j++)
        if (j != u && s->u[j].where == N20_U_MAP && s->u[j].hex == h &&
            s->sc->units[j].type != N20_LEADER) /* [16.9.2] */
            return 1;
    return 0;
}

static int s_closer(const n20_state *s, int u, uint16_t from, uint16_t to) {
    int army = s->sc->units[u].army, nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] the Active LOC hexes */
    for (int i = 0; i < nl; i++) {
        uint16_t L = ls[i];
        if (n20_distance(to, L) < n20_distance(from, L)) return 1;
    }
    uint16_t x = n20_wg_extra_loc(s, army); /* Wagram [9.8.6] the Floridsdorf LOC */
    return x && n20_distance(to, x) < n20_distance(from, x);
}

static int s_is_loc(const n20_state *s, int u, uint16_t h) {
    int army = s->sc->units[u].army, nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] */
    for (int i = 0; i < nl; i++)
        if (ls[i] == h) return 1;
    return h && h == n20_wg_extra_loc(s, army); /* Wagram [9.8.6] the Floridsdorf LOC */
}

/* best category available from `from`, and whether a closer hex exists in it */
static void s_best(const n20_state *s, int u, uint16_t from, const uint16_t *vis, int nvis, int *best,
                   int *closer, const n20_index *ix) {
    *best = 0;
    *closer = 0;
    int rank[4] = {0, 3, 2, 1}; /* higher is better: 1 > 2 > 3 */
    for (int d = 0; d < 6; d++) {
        uint16_t n;
        if (n20_neighbor(s->sc, from, d, &n) < 0) continue;
        int c = s_category(s, u, from, n, vis, nvis, ix);
        if (!c) continue;
        if (!*best || rank[c] > rank[*best]) {
            *best = c;
            *closer = s_closer(s, u, from, n);
        } else if (c == *best && s_closer(s, u, from, n)) {
            *closer = 1;
        }
    }
}

int n20_retreat_has_first_step(const n20_state *s, int u) {
    int best, closer;
    uint16_t vis[1] = {s->u[u].hex};
    s_best(s, u, s->u[u].hex, vis, 1, &best, &closer, NULL);
    return best != 0;
}

static int s_dist_index(const n20_state *s, int u) {
    for (int i = 0; i < s->f.nret; i++)
        if (s->f.ret_unit[i] == u) return i;
    return -1;
}

static int s_retreat_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err,
                           const n20_index *ix) {
    if (s->phase != N20_PH_RETREAT || n20_retreat_current(s) != u)
        return n20_reject(err, "9.7", "%s does not have to retreat now",
                          u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    int k = s_dist_index(s, u);
    int dist = s->f.ret_dist[k];
    uint16_t start = s->u[u].hex;
    int fort = n20_is_fortified(s->sc, s, start); /* [9.7.2.2] Fortified or Redoubt */
    if (n > N20_MAX_PATH) return n20_reject(err, "9.7", "retreat path too long");
    uint16_t vis[N20_MAX_PATH + 1];
    int nvis = 0;
    vis[nvis++] = start;
    uint16_t cur = start;
    for (int i = 0; i < n; i++) {
        int best, closer;
        s_best(s, u, cur, vis, nvis, &best, &closer, ix);
        int c = s_category(s, u, cur, path[i], vis, nvis, ix);
        if (!c)
            return n20_reject(err, "9.7.2.1", "%s cannot retreat into %04u (enemy, off the map, across a "
                              "Major River, or already on its path)", id, n20_xxyy(path[i]));
        if (c != best) {
            if (best == 1)
                return n20_reject(err, "9.7.3", "%s must retreat into a vacant hex not in an enemy ZOC "
                                  "from %04u, and %04u is not one", id, n20_xxyy(cur), n20_xxyy(path[i]));
            return n20_reject(err, "9.7.6", "%s may retreat through friendly units only if no vacant hex "
                              "is available from %04u", id, n20_xxyy(cur));
        }
        if (closer && !s_closer(s, u, cur, path[i]))
            return n20_reject(err, "9.7.7", "%s must retreat closer to a friendly LOC hex: %04u is not "
                              "closer than %04u", id, n20_xxyy(path[i]), n20_xxyy(cur));
        /* [9.7.6] [9.7.8] beyond the distance only to leave a friendly-occupied hex */
        if (i + 1 > dist &&
            (i == 0 || (ix ? n20_ix_unit_at(ix, path[i - 1]) : n20_unit_at(s, path[i - 1])) < 0))
            return n20_reject(err, "9.7.8", "%s's retreat is longer than %d hex(es)", id, dist);
        cur = path[i];
        vis[nvis++] = cur;
        if (s_is_loc(s, u, cur) && i + 1 < n)
            return n20_reject(err, "9.7.8", "%s reaches the LOC hex %04u: its retreat ends there", id,
                              n20_xxyy(cur));
        if (s_is_loc(s, u, cur)) return 0; /* breaks at the LOC hex if short [9.7.8] */
    }
    int occ = n > 0 ? (ix ? n20_ix_unit_at(ix, cur) : n20_unit_at(s, cur)) : -1;
    int need = dist;
    if (n < need) {
        if (fort && n == need - 1 && occ < 0) return 0; /* [9.7.2.2] one fewer hex */
        int best, closer;
        s_best(s, u, cur, vis, nvis, &best, &closer, ix);
        if (best)
            return n20_reject(err, "9.7.8", "%s must retreat the full %d hex(es); the path has %d", id,
                              need, n);
        return 0; /* no way on: it breaks where the path ends */
    }
    if (occ >= 0 && occ != u) {
        int best, closer;
        s_best(s, u, cur, vis, nvis, &best, &closer, ix);
        if (best)
            return n20_reject(err, "9.7.6", "%s may not end its retreat stacked with %s: it retreats "
                              "one more hex", id, N20_RUID(s, occ));
    }
    /* [9.7.6] beyond the distance only to leave friendly-occupied hexes */
    for (int i = need - 1; i >= 0 && i < n - 1; i++)
        if ((ix ? n20_ix_unit_at(ix, path[i]) : n20_unit_at(s, path[i])) < 0)
            return n20_reject(err, "9.7.8", "%s's retreat is longer than %d hex(es)", id, need);
    return 0;
}

int n20_retreat_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err) {
    return s_retreat_check(s, u, path, n, err, NULL);
}

static int s_roll_hazard(n20_state *s, int u, brt_dice *dice, n20_out *out, const char *purpose,
                         const char *rule) {
    int us[1] = {u};
    uint32_t die = n20_roll(s, dice, us, 1, purpose); /* [16.1] as the unit is seen */
    int v[1] = {(int)die};
    int broke = (int)die <= s->sc->hazard_break;
    n20_event(out, s, "hazard", us, 1, &s->u[u].hex, 1, v, 1, "[%s] " N20_U(0) " hazardous retreat roll %u: %s",
              rule, die, broke ? "Broken" : "passes");
    return broke;
}

void n20_retreat_apply(n20_state *s, int u, const uint16_t *path, int n, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    int k = s_dist_index(s, u);
    int side = n20_side_of(s, u);
    int w = n20_weather(s);
    uint16_t cur = s->u[u].hex, start = cur;
    int np = 0, stop_path = 0, broken = 0, lobau = 0;
    if (s->gg_unit == u && n > 0) s->gg_unit = 0xff;
    for (int i = 0; i < n; i++) {
        int d = n20_dir(s->sc, cur, path[i]);
        int r = n20_side_river(s->sc, w, cur, d);
        int pc = n20_ae_retreat_cross(s, u, cur, path[i], f->ret_rout[k] || s->u[u].routed, dice, out); /* A-E [6.10] */
        if (pc == 1 || (pc == 2 && s_roll_hazard(s, u, dice, out, "6.10 hazardous retreat (pontoon)", "6.10"))) {
            broken = 1 + pc; /* 2: the crossing failed, it Breaks [9.6.1] */
            break;
        }
        int wb = n20_wg_retreat_bridge(s, cur, path[i]); /* Wagram [6.10] [16.10.1] */
        if (wb == 1) lobau = 1; /* [6.10] a Lobau bridge: always Safe, Routed */
        /* [9.7.5] river first, in the hex before crossing; then [9.7.4] the EZOC entered */
        if (wb != 1 && (wb == 2 || r == N20_RIV_MINOR || (r == N20_RIV_MAJOR && s->sc->cross[cur][d]))) {
            if (s_roll_hazard(s, u, dice, out, "9.7.5 hazardous retreat (river)", "9.7.5")) {
                broken = 1;
                break;
            }
        }
        int ez = n20_in_ezoc(s, path[i], 1 - side, side == s->phasing);
        cur = path[i];
        s->u[u].hex = cur;
        int occ = -1;
        for (int j = 0; j < s->sc->nunits; j++)
            if (j != u && s->u[j].where == N20_U_MAP && s->u[j].hex == cur &&
                s->sc->units[j].type != N20_LEADER)
                occ = j;
        if (occ >= 0) stop_path = 1; /* [9.8.5] the Retreat Path ends before a friendly unit */
        if (!stop_path && np < N20_MAX_PATH) f->path[k][np++] = cur;
        if (ez && s_roll_hazard(s, u, dice, out, "9.7.4 hazardous retreat (EZOC)", "9.7.4")) {
            broken = 1;
            break;
        }
    }
    f->npath[k] = (uint8_t)np;
    f->ret_done++;
    uint16_t hx[N20_MAX_PATH + 1];
    int nh = 0;
    hx[nh++] = start;
    for (int i = 0; i < n && nh < N20_MAX_PATH + 1; i++) hx[nh++] = path[i];
    int us[1] = {u};
    n20_event(out, s, "retreated", us, 1, hx, nh, NULL, 0, "[9.7] " N20_U(0) " retreats to %04u",
              n20_xxyy(s->u[u].hex));
    int minlen = f->ret_dist[k] - (n20_is_fortified(s->sc, s, start) ? 1 : 0);
    if (broken) {
        n20_break_unit(s, u, out, broken == 2 ? "6.10 the pontoon crossing failed (9.6.1)" : "9.7.4 hazardous retreat");
    } else if (n < minlen || (n > 0 && n < f->ret_dist[k] && s_is_loc(s, u, cur)) ||
               (n > 0 && s_other_at(s, u, cur))) {
        /* short of the distance, off the map at a LOC hex, or no way out of a friendly hex */
        n20_break_unit(s, u, out, "9.7.8 retreat cut short (LOC reached or no way on)");
    } else if (f->ret_rout[k] || (lobau && !s->u[u].routed)) { /* Wagram [6.10] a Rout! marker */
        s->u[u].routed = (uint8_t)(1 + (1 - s->phasing)); /* [9.6.2] the non-phasing colour */
        /* [12.1] the hexes actually routed (one fewer from a Fortified hex [9.7.2.2], more
         * through friendly units [9.7.6]) against the printed allowance (rulings R-12.1-rout-hexes) */
        if (n > s->sc->units[u].allowance)
            n20_morale_one(s, side, -s->sc->mc_rout_ma, out, "12.1 routed beyond its Movement Allowance");
    }
    if (s->u[u].where == N20_U_MAP) n20_wg_entered(s, u, path, n, out); /* Wagram [12.8] [16.10.2] */
    if (!s->over) n20_leaders_follow(s, u, start, dice, out); /* [16.9.5] */
    n20_battle_continue(s, dice, out);
}

/* depth-first listing of the valid paths (bounded) */
typedef struct s_walk {
    const n20_state *s;
    int u, max, count;
    int dist; /* retreat distance of u */
    int fort; /* [9.7.2.2] u retreats from a Fortified or Redoubt hex */
    const n20_index *ix;
    void (*fn)(void *, int, const uint16_t *, int);
    void *ctx;
    const uint16_t *pre; /* only the paths that begin with these npre hexes (the step form) */
    int npre;
    uint16_t path[N20_MAX_PATH];
} s_walk;

/* s_retreat_check(w->path, n) == 0 for a path the walk has built: the walk takes only steps the
 * check's loop passes (the category and LOC-closer priorities from s_best at each hex, the
 * distance [9.7.6] [9.7.8], no step on from a LOC hex), so what is left to judge is the end of
 * the path. best/closer: s_best from cur (the walk's vis), computed here if asked and not yet
 * (*best < 0), for the walk to use next. */
static int s_walk_ends(s_walk *w, int n, uint16_t cur, const uint16_t *vis, int nvis, int *best, int *closer) {
    const n20_state *s = w->s;
    if (n > 0 && s_is_loc(s, w->u, cur)) return 1; /* breaks at the LOC hex if short [9.7.8] */
    int occ = n > 0 ? n20_ix_unit_at(w->ix, cur) : -1;
    int need = w->dist;
    if (n < need) {
        if (w->fort && n == need - 1 && occ < 0) return 1; /* [9.7.2.2] one fewer hex */
        if (*best < 0) s_best(s, w->u, cur, vis, nvis, best, closer, w->ix);
        return !*best; /* the full distance while a way on exists [9.7.8] */
    }
    if (occ >= 0 && occ != w->u) {
        if (*best < 0) s_best(s, w->u, cur, vis, nvis, best, closer, w->ix);
        if (*best) return 0; /* [9.7.6] not ending stacked while it may go on */
    }
    for (int i = need - 1; i >= 0 && i < n - 1; i++) /* [9.7.6] beyond the distance only to leave */
        if (n20_ix_unit_at(w->ix, w->path[i]) < 0) return 0;
    return 1;
}

static void s_dfs(s_walk *w, int n) {
    if (w->count >= w->max) return;
    uint16_t cur = n ? w->path[n - 1] : w->s->u[w->u].hex;
    uint16_t vis[N20_MAX_PATH + 1];
    int nvis = 0;
    vis[nvis++] = w->s->u[w->u].hex;
    for (int i = 0; i < n; i++) vis[nvis++] = w->path[i];
    int best = -1, closer = 0;
    if (n >= w->npre && s_walk_ends(w, n, cur, vis, nvis, &best, &closer)) {
        w->fn(w->ctx, w->u, w->path, n);
        w->count++;
    }
    if (n >= N20_MAX_PATH - 1 || n >= 10) return;
    /* No longer path can pass n20_retreat_check once the prefix reaches a LOC hex [9.7.8], or
     * when its next hex would go beyond the distance without leaving a friendly-occupied hex
     * [9.7.6] [9.7.8]: the check rejects every such path at that index, so the subtree is cut. */
    if (n > 0 && s_is_loc(w->s, w->u, cur)) return;
    if (n + 1 > w->dist && (n == 0 || n20_ix_unit_at(w->ix, w->path[n - 1]) < 0)) return;
    /* prune: the prefix must be a valid prefix (checked by the full check when complete) */
    if (best < 0) s_best(w->s, w->u, cur, vis, nvis, &best, &closer, w->ix);
    for (int d = 0; d < 6 && w->count < w->max; d++) {
        uint16_t nx;
        if (n20_neighbor(w->s->sc, cur, d, &nx) < 0) continue;
        if (n < w->npre && nx != w->pre[n]) continue;
        w->path[n] = nx;
        int c = s_category(w->s, w->u, cur, nx, vis, nvis, w->ix);
        if (!c || c != best || (closer && !s_closer(w->s, w->u, cur, nx))) continue;
        s_dfs(w, n + 1);
    }
}

/* ix: the state's index, or NULL (built here) */
static int s_paths_from(const n20_state *s, int u, const uint16_t *pre, int npre,
                        void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx, int max,
                        const n20_index *ix) {
    s_walk w = {.s = s, .u = u, .max = max, .count = 0, .fn = fn, .ctx = ctx, .pre = pre, .npre = npre};
    /* not the unit that must retreat now: every path rejected */
    if (s->phase != N20_PH_RETREAT || n20_retreat_current(s) != u || npre < 0 || npre >= N20_MAX_PATH) return 0;
    w.dist = s->f.ret_dist[s_dist_index(s, u)];
    w.fort = n20_is_fortified(s->sc, s, s->u[u].hex);
    n20_index own;
    if (!ix) {
        n20_index_build(s, &own);
        ix = &own;
    }
    w.ix = ix;
    s_dfs(&w, 0);
    return w.count;
}

int n20_retreat_paths_from(const n20_state *s, int u, const uint16_t *pre, int npre,
                           void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx, int max) {
    return s_paths_from(s, u, pre, npre, fn, ctx, max, NULL);
}

int n20_retreat_paths_ix(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                         void *ctx, int max, const n20_index *ix) {
    return s_paths_from(s, u, NULL, 0, fn, ctx, max, ix); /* no steps taken yet */
}

int n20_retreat_paths(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                      void *ctx, int max) {
    return s_paths_from(s, u, NULL, 0, fn, ctx, max, NULL); /* no steps taken yet */
}

/* ---- the step form [9.7]: the path hex by hex, carried out whole when complete ---------- */
typedef struct s_ext {
    int npre, whole, longer;
} s_ext;

static void s_ext_cb(void *ctx, int u, const uint16_t *path, int n) {
    (void)u;
    (void)path;
    s_ext *e = ctx;
    if (n == e->npre) e->whole = 1;
    else e->longer = 1;
}

/* whether the steps pre (npre hexes) are a whole valid retreat, and whether a longer one begins so */
static void s_extends(const n20_state *s, int u, const uint16_t *pre, int npre, s_ext *e, const n20_index *ix) {
    e->npre = npre;
    e->whole = e->longer = 0;
    s_paths_from(s, u, pre, npre, s_ext_cb, e, 2, ix);
}

int n20_retreat_stepped(const n20_state *s) {
    int u = n20_retreat_current(s);
    return s->phase == N20_PH_RETREAT && u >= 0 && s->f.npath[s_dist_index(s, u)] > 0;
}

int n20_retreat_step_check_ix(const n20_state *s, int u, uint16_t hex, brt_reject *err, const n20_index *ix) {
    if (s->phase != N20_PH_RETREAT || n20_retreat_current(s) != u)
        return n20_reject(err, "9.7", "%s does not have to retreat now",
                          u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    int k = s_dist_index(s, u), np = s->f.npath[k];
    if (np + 1 >= N20_MAX_PATH) return n20_reject(err, "9.7", "retreat path too long");
    uint16_t pre[N20_MAX_PATH];
    memcpy(pre, s->f.path[k], sizeof(uint16_t) * (size_t)np);
    pre[np] = hex;
    s_ext e;
    s_extends(s, u, pre, np + 1, &e, ix);
    if (e.whole || e.longer) return 0;
    /* the reason the whole-path check gives for these hexes as a path */
    if (s_retreat_check(s, u, pre, np + 1, err, NULL) < 0) return -1;
    return n20_reject(err, "9.7", "no retreat of %s begins with these hexes", N20_RUID(s, u));
}

int n20_retreat_step_check(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    return n20_retreat_step_check_ix(s, u, hex, err, NULL);
}

static void s_step_finish(n20_state *s, int u, brt_dice *dice, n20_out *out) {
    int k = s_dist_index(s, u), np = s->f.npath[k];
    uint16_t path[N20_MAX_PATH];
    memcpy(path, s->f.path[k], sizeof(uint16_t) * (size_t)np);
    memset(s->f.path[k], 0, sizeof s->f.path[k]);
    s->f.npath[k] = 0;
    n20_retreat_apply(s, u, path, np, dice, out);
}

int n20_retreat_step_apply(n20_state *s, int u, uint16_t hex, brt_dice *dice, n20_out *out) {
    int k = s_dist_index(s, u);
    s->f.path[k][s->f.npath[k]++] = hex;
    s_ext e;
    s_extends(s, u, s->f.path[k], s->f.npath[k], &e, NULL);
    if (!e.whole || e.longer) return 0; /* the owner goes on (or may stop: retreat-stop) */
    s_step_finish(s, u, dice, out);      /* no choice left: the path is complete */
    return 1;
}

int n20_retreat_stop_check(const n20_state *s, int u, brt_reject *err) { return n20_retreat_stop_check_ix(s, u, err, NULL); }

int n20_retreat_stop_check_ix(const n20_state *s, int u, brt_reject *err, const n20_index *ix) {
    if (s->phase != N20_PH_RETREAT || n20_retreat_current(s) != u)
        return n20_reject(err, "9.7", "%s does not have to retreat now",
                          u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    int k = s_dist_index(s, u);
    s_ext e;
    s_extends(s, u, s->f.path[k], s->f.npath[k], &e, ix);
    if (e.whole) return 0;
    if (s_retreat_check(s, u, s->f.path[k], s->f.npath[k], err, NULL) < 0) return -1;
    return n20_reject(err, "9.7.8", "the retreat of %s cannot end here", N20_RUID(s, u));
}

void n20_retreat_stop_apply(n20_state *s, int u, brt_dice *dice, n20_out *out) { s_step_finish(s, u, dice, out); }
