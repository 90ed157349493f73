/*
 * optional.c - Optional Rules [16.0] of Napoleonic 20 (Waterloo 20 edition),
 * each used only when its game option is chosen (s->opts, N20_OPT_*):
 * artillery support [16.3], cavalry penetration [16.2], fatigue [16.8],
 * variable weather [16.10], additional rally locations [16.4].
 * The hooks in the standard-rules files call the functions here.
 */
#include <string.h>

#include "n20.h"

/* ---- [16.3] Artillery Support ------------------------------------------------ */

static int s_declared_against(const n20_state *s, int u) {
    for (int i = 0; i < s->nbattles; i++)
        for (int j = 0; j < s->b[i].ndef; j++)
            if (s->b[i].def[j] == u) return 1;
    return 0;
}

/* [16.3.1] +1 for each friendly Artillery unit, not itself the target of a declared attack,
 * whose ZOC covers defending unit d's hex (rulings R-16.3.1-count) */
int n20_art_support(const n20_state *s, int d) {
    if (!(s->opts & N20_OPT_ART_SUPPORT) || !n20_map_force(s, d)) return 0; /* a Garrison too [9.4.4] */
    int side = n20_side_of(s, d), n = 0;
    for (int a = 0; a < s->sc->nunits; a++) {
        if (a == d || s->sc->units[a].type != N20_ART || n20_side_of(s, a) != side) continue;
        if (s_declared_against(s, a)) continue;
        if (n20_exerts_zoc(s, a, s->u[d].hex) || n20_battery_supports(s, a, d)) n++; /* Wagram [9.11] */
    }
    return n;
}

/* [16.3.2] Artillery unit a may attack enemy unit e by Bombardment: the two hexes touch
 * across a Major River (or other prohibited) hexside without bridge or ford */
int n20_bombard_pair(const n20_state *s, int a, int e) {
    if (!(s->opts & N20_OPT_ART_SUPPORT)) return 0;
    if (s->sc->units[a].type != N20_ART || !n20_map_force(s, a) || !n20_map_force(s, e))
        return 0; /* Wagram [9.11] a Battery bombards; a Garrison may be bombarded */
    int d = n20_dir(s->sc, s->u[a].hex, s->u[e].hex);
    return d >= 0 && n20_side_blocked(s->sc, n20_weather(s), s->u[a].hex, d);
}

/* attacker a of battle b bombards: it is across a prohibited hexside from a defender */
int n20_bombards(const n20_state *s, const n20_battle *b, int a) {
    if (!(s->opts & N20_OPT_ART_SUPPORT) || b->countercharge) return 0;
    int is_att = -1;
    for (int j = 0; j < b->natt; j++)
        if (b->att[j] == a) is_att = j;
    if (is_att < 0) return 0;
    /* once the die is rolled the defenders may be gone: use what was true at the roll */
    if (s->f.active && s->f.bomb_known && b == &s->b[s->f.battle]) return (s->f.bombard >> is_att) & 1;
    for (int j = 0; j < b->ndef; j++)
        if (n20_bombard_pair(s, a, b->def[j])) return 1;
    return 0;
}

/* ---- [16.2] Cavalry Penetration ------------------------------------------------ */

/* hex h is in the ZOC of an enemy (of `side`) Cavalry unit */
static int s_in_enemy_cav_zoc(const n20_state *s, int side, uint16_t h) {
    for (int j = 0; j < s->sc->nunits; j++)
        if (n20_side_of(s, j) != side && s->sc->units[j].type == N20_CAV && n20_exerts_zoc(s, j, h)) return 1;
    return 0;
}

/* hex h is adjacent to an enemy (of `side`) unit, not across a prohibited hexside */
static int s_adjacent_enemy_hex(const n20_state *s, int side, uint16_t h) {
    for (int j = 0; j < s->sc->nunits; j++) {
        if (s->u[j].where != N20_U_MAP || n20_side_of(s, j) == side || s->sc->units[j].type == N20_LEADER)
            continue;
        int d = n20_dir(s->sc, h, s->u[j].hex);
        if (d >= 0 && !n20_side_blocked(s->sc, n20_weather(s), h, d)) return 1;
    }
    return 0;
}

int n20_penetrate_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err) {
    if (!(s->opts & N20_OPT_CAV_PENETRATION))
        return n20_reject(err, "16.2", "Cavalry Penetration is an optional rule not in use in this game");
    if (s->phase != N20_PH_REACTION) return n20_reject(err, "16.2", "Penetration is made in your Reaction Phase only");
    if (u < 0 || u >= s->sc->nunits) return n20_reject(err, "16.2", "unknown unit");
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    if (!(s->u[u].flags & N20_UF_REACT_OK) || s->u[u].where != N20_U_MAP)
        return n20_reject(err, "16.2", "%s is not a Cavalry unit of the reacting player that began the Reaction "
                          "Phase adjacent to an enemy unit", id);
    if (s->u[u].flags & N20_UF_REACTED)
        return n20_reject(err, "16.2", "%s has already reacted this phase: Penetration is its single action", id);
    if (n20_wg_caution_check(s, u, "Penetrate", err) < 0) return -1; /* Wagram [6.11] */
    if (n20_light_no_charge(s, u)) /* [16.7.2] [16.7.3] */
        return n20_reject(err, s->sc->units[u].type == N20_INF ? "16.7.2" : "16.7.3",
                          "%s cannot Penetrate (Light Infantry and Cossacks do not)", id);
    if (s->u[u].routed) return n20_reject(err, "16.2", "%s is Routed and cannot Penetrate", id);
    int side = n20_side_of(s, u);
    if (s_in_enemy_cav_zoc(s, side, s->u[u].hex))
        return n20_reject(err, "16.2", "%s begins in an enemy Cavalry unit's ZOC and cannot Penetrate", id);
    if (n != 1) return n20_reject(err, "16.2", "a Penetration enters exactly one hex");
    uint16_t to = path[0];
    int d = n20_dir(s->sc, s->u[u].hex, to);
    int pontoon = d < 0 ? 0 : n20_ae_step(s, u, s->u[u].hex, to, err); /* A-E [6.10] a Reaction move */
    if (pontoon < 0) return -1;
    if (d < 0 || !s->sc->onmap[to] || (pontoon != 1 && n20_side_blocked(s->sc, n20_weather(s), s->u[u].hex, d)))
        return n20_reject(err, "16.2", "%s cannot move into %04u (not an adjacent map hex, or across a Major "
                          "River)", id, n20_xxyy(to));
    if (n20_unit_at(s, to) >= 0)
        return n20_reject(err, "16.2", "%s must penetrate into a vacant hex; %04u is occupied", id, n20_xxyy(to));
    if (n20_garrison_blocks(s, to, side))
        return n20_reject(err, "9.4.4.1", "%s cannot enter %04u: an enemy Garrison holds it", id, n20_xxyy(to));
    if (!s_adjacent_enemy_hex(s, side, to))
        return n20_reject(err, "16.2", "%s must move into a hex that is also adjacent to an enemy unit; %04u is "
                          "not", id, n20_xxyy(to));
    if (s_in_enemy_cav_zoc(s, side, to))
        return n20_reject(err, "16.2", "%s cannot enter an enemy Cavalry unit's ZOC (%04u)", id, n20_xxyy(to));
    if (n20_fatigue(s, u) >= N20_FAT_SPENT && n20_in_ezoc(s, to, 1 - side, 0))
        return n20_reject(err, "16.8.2", "%s is Spent: it cannot voluntarily enter the enemy ZOC at %04u", id,
                          n20_xxyy(to));
    return 0;
}

void n20_penetrate_apply(n20_state *s, int u, uint16_t to, n20_out *out) {
    uint16_t from = s->u[u].hex;
    if (s->gg_unit == u) s->gg_unit = 0xff; /* [5.1] */
    s->u[u].hex = to;
    s->u[u].flags |= N20_UF_REACTED;
    uint16_t hx[2] = {from, to};
    int us[1] = {u};
    n20_event(out, s, "penetrated", us, 1, hx, 2, NULL, 0, "[16.2] " N20_U(0) " penetrates to %04u",
              n20_xxyy(to));
}

int n20_penetrate_paths(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                        void *ctx) {
    int count = 0;
    if (!(s->opts & N20_OPT_CAV_PENETRATION) || s->u[u].where != N20_U_MAP) return 0;
    for (int d = 0; d < 6; d++) {
        uint16_t p[1];
        if (n20_neighbor(s->sc, s->u[u].hex, d, &p[0]) < 0) continue;
        if (n20_penetrate_check(s, u, p, 1, NULL) == 0) {
            fn(ctx, u, p, 1);
            count++;
        }
    }
    return count;
}

/* ---- [16.8] Fatigue -------------------------------------------------------------- */

const char *n20_fatigue_name(int level) {
    static const char *n[] = {"Fresh", "Ready", "Tired", "Weary", "Spent"};
    return level >= 0 && level <= N20_FAT_SPENT ? n[level] : "?";
}

static void s_exhaust(n20_state *s, int u, n20_out *out) {
    if (s->u[u].where != N20_U_MAP || s->sc->units[u].type == N20_LEADER) return; /* [16.9.5] */
    if (s->fatigue[u] >= N20_FAT_SPENT) return; /* already Spent: it simply remains Spent */
    s->fatigue[u]++;
    int us[1] = {u};
    int v[1] = {s->fatigue[u]};
    n20_event(out, s, "fatigue", us, 1, NULL, 0, v, 1, "[16.8.1] " N20_U(0) " is now %s",
              n20_fatigue_name(s->fatigue[u]));
}

/* [16.8.1] every unit in the battle, attacking and defending, gains one Fatigue Level */
void n20_fatigue_exhaust(n20_state *s, const n20_battle *b, n20_out *out) {
    if (!(s->opts & N20_OPT_FATIGUE)) return;
    for (int j = 0; j < b->natt; j++) s_exhaust(s, b->att[j], out);
    for (int j = 0; j < b->ndef; j++) s_exhaust(s, b->def[j], out);
}

/* [16.8.3] at the end of your Combat Phase (even at Night), each of your fatigued units not
 * adjacent to an enemy unit loses one Fatigue Level */
void n20_fatigue_recover(n20_state *s, n20_out *out) {
    if (!(s->opts & N20_OPT_FATIGUE)) return;
    for (int i = 0; i < s->sc->nunits; i++) {
        if (s->u[i].where != N20_U_MAP || n20_side_of(s, i) != s->phasing || !s->fatigue[i]) continue;
        int adj = 0;
        for (int j = 0; j < s->sc->nunits && !adj; j++)
            if (n20_side_of(s, j) != s->phasing && s->sc->units[j].type != N20_LEADER && n20_adjacent_units(s, i, j))
                adj = 1;
        if (adj) continue;
        s->fatigue[i]--;
        int us[1] = {i};
        int v[1] = {s->fatigue[i]};
        n20_event(out, s, "fatigue", us, 1, NULL, 0, v, 1, "[16.8.3] " N20_U(0) " recovers: now %s",
                  n20_fatigue_name(s->fatigue[i]));
    }
}

/* ---- [16.10] Variable Weather ----------------------------------------------------- */

void n20_weather_setup(n20_state *s) {
    if (!(s->opts & N20_OPT_VAR_WEATHER)) return;
    s->wx = s->sc->wx_start;      /* [3.0] the Weather marker's box and side */
    s->wx_worse = s->sc->wx_worse0;
    s->mud = 0;                   /* [3.0] the Mud marker is set aside */
}

static int s_mud_on(const n20_state *s) { return s->mud && s->turn <= s->mud; }

/* [16.10.2] the weather in force: the marker's box, combined with Mud while the Mud marker is
 * on the Game Turn track (Downpour alone when it rains hard; no Infantry penalty when dry) */
int n20_weather_variable(const n20_state *s) {
    int w = s->wx;
    if (!s_mud_on(s) || w == N20_W_DOWNPOUR) return w;
    return w == N20_W_SHOWERS ? N20_W_SHOWERS_MUD : N20_W_MUD;
}

/* [16.10.1] the French player's weather roll after the French event */
void n20_weather_roll(n20_state *s, brt_dice *dice, n20_out *out) {
    if (!(s->opts & N20_OPT_VAR_WEATHER) || s->phasing != N20_FRENCH) return; /* the Allies never roll */
    uint32_t die = brt_dice_roll(dice, 6, "16.10.1 weather"); /* public: the weather track is open */
    int from = s->wx, step = s->sc->wx_trend[s->wx_worse ? 1 : 0][die - 1];
    int pos = from + step;
    if (pos < N20_W_CLEAR) pos = N20_W_CLEAR; /* never better than Clear */
    int storm = pos >= N20_W_STORM;           /* [16.10.2] the marker never stays in Storm */
    if (storm) pos = N20_W_DOWNPOUR;
    s->wx = (uint8_t)pos;
    int v[4] = {(int)die, from, pos, storm};
    n20_event(out, s, "weather", NULL, 0, NULL, 0, v, 4, "[16.10.1] weather roll %u (%s side): %s%s", die,
              s->wx_worse ? "Worsening" : "Improving", storm ? "Storm, the marker returns to " : "",
              n20_weather_name(pos));
    if (storm || pos == N20_W_DOWNPOUR) {
        if (s->mud && s->mud < 250) {
            s->mud++; /* [16.10.2] already on the track: advance it one turn (rulings R-16.10.2-advance) */
        } else if (storm) {
            s->mud = (uint8_t)(s->turn + 1); /* one turn ahead */
        } else {
            return;
        }
        int mv[1] = {s->mud};
        n20_event(out, s, "mud", NULL, 0, NULL, 0, mv, 1, "[16.10.2] the Mud marker is on Turn %u", s->mud);
    }
}

/* [16.10.1] the Weather marker is flipped whenever its Event card is drawn */
void n20_weather_card(n20_state *s, int card_number, n20_out *out) {
    if (!(s->opts & N20_OPT_VAR_WEATHER) || !s->sc->wx_card || card_number != s->sc->wx_card) return;
    s->wx_worse = (uint8_t)!s->wx_worse;
    N20_EV(out, s, "weather", "[16.10.1] the Weather marker is flipped to its %s side",
           s->wx_worse ? "Worsening" : "Improving");
}

/* [16.10.2] Mud Duration: the marker is removed at the end of the Game Turn it is on */
void n20_weather_turn_end(n20_state *s, n20_out *out) {
    if (!(s->opts & N20_OPT_VAR_WEATHER) || !s->mud || s->turn < s->mud) return;
    s->mud = 0;
    N20_EV(out, s, "mud", "[16.10.2] the Mud marker is removed: its effects end");
}

/* ---- [16.4] Additional Rally Locations -------------------------------------------- */

static int s_near_enemy(const n20_state *s, int side, uint16_t h, int within) {
    for (int j = 0; j < s->sc->nunits; j++)
        if (s->u[j].where == N20_U_MAP && n20_side_of(s, j) != side && s->sc->units[j].type != N20_LEADER &&
            n20_distance(h, s->u[j].hex) <= within)
            return 1;
    return 0;
}

static int s_enemy_distance(const n20_state *s, int side, uint16_t h) {
    int best = 999;
    for (int j = 0; j < s->sc->nunits; j++)
        if (s->u[j].where == N20_U_MAP && n20_side_of(s, j) != side && s->sc->units[j].type != N20_LEADER) {
            int d = n20_distance(h, s->u[j].hex);
            if (d < best) best = d;
        }
    return best;
}

/* [16.4] a path of hexes from `from` to `loc`, of any length, none of them containing or adjacent
 * to an enemy unit (rulings R-16.4-adjacent), never across a Major River hexside without bridge
 * or ford. Breadth-first over the map. */
int n20_rally_path(const n20_state *s, int side, uint16_t from, uint16_t loc) {
    const n20_scenario *sc = s->sc;
    if (s_near_enemy(s, side, from, 1) || s_near_enemy(s, side, loc, 1)) return 0;
    static const uint8_t zero[N20_HEXES];
    uint8_t seen[N20_HEXES];
    memcpy(seen, zero, sizeof seen);
    uint16_t queue[N20_HEXES];
    int head = 0, tail = 0, w = n20_weather(s);
    queue[tail++] = from;
    seen[from] = 1;
    while (head < tail) {
        uint16_t h = queue[head++];
        if (h == loc) return 1;
        for (int d = 0; d < 6; d++) {
            uint16_t n;
            if (n20_neighbor(sc, h, d, &n) < 0 || seen[n] || !sc->onmap[n]) continue;
            if (n20_side_blocked(sc, w, h, d)) continue;
            seen[n] = 1;
            if (s_near_enemy(s, side, n, 1)) continue;
            queue[tail++] = n;
        }
    }
    return 0;
}

int n20_rally_hex_check(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    if (!(s->opts & N20_OPT_RALLY_LOCATIONS))
        return n20_reject(err, "10.0", "%s must be placed on a friendly LOC hex of its army", N20_RUID(s, u));
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    int side = n20_side_of(s, u), army = sc->units[u].army;
    if (hex >= N20_HEXES || !sc->onmap[hex]) return n20_reject(err, "16.4", "%04u is not a map hex", n20_xxyy(hex));
    int natural = sc->terrain[hex] == N20_T_TOWN || n20_is_fortified(sc, s, hex); /* or Redoubt */
    for (int i = 0; i < sc->nobj[side]; i++)
        if (sc->obj[side][i] == hex) natural = 1;
    if (!natural)
        return n20_reject(err, "16.4", "%s must be placed on a friendly LOC hex, or a Town, Fortified or "
                          "friendly Objective hex; %04u is none", id, n20_xxyy(hex));
    if (n20_unit_at(s, hex) >= 0 || n20_garrison_blocks(s, hex, side)) /* [9.4.4.1] an enemy Garrison */
        return n20_reject(err, "16.4", "the Rally hex %04u is not empty", n20_xxyy(hex));
    if (s_enemy_distance(s, side, hex) < 4)
        return n20_reject(err, "16.4", "%04u is not a safe distance (at least 4 hexes) from the nearest enemy "
                          "unit", n20_xxyy(hex));
    /* the nearest LOC hex of its army (rulings R-10.0-loc); with a tie, any of them */
    int near = n20_loc_distance(s, army, hex), closer = 0, traced = 0;
    int nl;
    uint16_t lb[4];
    const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] the site's LOC */
    for (int i = 0; i < nl; i++) {
        uint16_t L = ls[i];
        if (n20_distance(hex, L) != near) continue;
        if (near >= s_enemy_distance(s, side, L)) continue; /* an enemy is as close to that LOC */
        closer = 1;
        if (n20_unit_at(s, L) >= 0 && n20_side_of(s, n20_unit_at(s, L)) != side) continue;
        if (n20_rally_path(s, side, hex, L)) traced = 1;
    }
    if (!closer)
        return n20_reject(err, "16.4", "%04u is not closer to its nearest LOC hex than the nearest enemy unit is",
                          n20_xxyy(hex));
    if (!traced)
        return n20_reject(err, "16.4", "from %04u no path to the nearest LOC hex avoids enemy units, the hexes "
                          "adjacent to them and Major Rivers", n20_xxyy(hex));
    return 0;
}

/* ---- [16.5] Unit Reduction and [16.6] Unit Breakdown and Buildup -------------------- */

/* an available Cadre unit of `army` in the force pool (not `skip`), -1 if none */
int n20_cadre_pool(const n20_state *s, int army, int skip) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (i != skip && (s->sc->units[i].flags & N20_FLAG_CADRE) && s->sc->units[i].army == army &&
            s->u[i].where == N20_U_OUT)
            return i;
    return -1;
}

static int s_large_inf(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    return d->type == N20_INF && d->strength >= 2 && !(d->flags & N20_FLAG_CADRE);
}

int n20_reduce_check(const n20_state *s, int u, brt_reject *err) {
    if (!(s->opts & N20_OPT_UNIT_REDUCTION))
        return n20_reject(err, "16.5", "Unit Reduction is an optional rule not in use in this game");
    if (s->phase != N20_PH_PLACE) return n20_reject(err, "16.5.1", "a partial Rally follows the Rally roll");
    if (u < 0 || u >= s->sc->nunits || !(s->u[u].flags & N20_UF_CADRE_Q) || s->u[u].where != N20_U_BROKEN ||
        n20_side_of(s, u) != s->phasing)
        return n20_reject(err, "16.5.1", "%s did not just roll a Cadre? result", u >= 0 && u < s->sc->nunits ? N20_RUID(s, u) : "?");
    if (n20_cadre_pool(s, s->sc->units[u].army, -1) < 0)
        return n20_reject(err, "16.5.1", "no %s Cadre unit is available", n20_army_name(s->sc->units[u].army));
    return 0;
}

/* [16.5.1] the Infantry unit is eliminated for good; a Cadre unit is Rallied instead */
void n20_reduce_apply(n20_state *s, int u, n20_out *out) {
    int c = n20_cadre_pool(s, s->sc->units[u].army, -1);
    s->u[u].where = N20_U_ELIM;
    s->u[u].flags = 0;
    s->u[c].where = N20_U_BROKEN;
    s->u[c].flags = N20_UF_RALLIED;
    s->u[c].routed = 0;
    s->fatigue[c] = 0;
    int us[2] = {u, c};
    n20_event(out, s, "reduced", us, 2, NULL, 0, NULL, 0,
              "[16.5.1] " N20_U(0) " is eliminated; the Cadre unit " N20_U(1) " is Rallied instead");
}

/* [16.6.1] [16.1.3] the Dummy unit a breakdown of u may add: the first available Dummy of u's army
 * (its Force Pool), when fog-of-war is in use and u is unrevealed (rulings R-16.6.1-dummy); -1 none */
int n20_breakdown_dummy(const n20_state *s, int u) {
    if (!n20_fog(s) || !s->u[u].hidden) return -1;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->sc->units[i].type == N20_DUMMY && s->sc->units[i].army == s->sc->units[u].army &&
            s->u[i].where == N20_U_OUT)
            return i;
    return -1;
}

int n20_breakdown_check(const n20_state *s, int u, int dummy, brt_reject *err) {
    if (!(s->opts & N20_OPT_BREAKDOWN))
        return n20_reject(err, "16.6", "Unit Breakdown is an optional rule not in use in this game");
    if (s->phase != N20_PH_MOVE) return n20_reject(err, "16.6", "units break down in your Movement Phase");
    if (u < 0 || u >= s->sc->nunits) return n20_reject(err, "16.6", "unknown unit");
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    if (s->u[u].where != N20_U_MAP || n20_side_of(s, u) != s->phasing)
        return n20_reject(err, "16.6", "%s is not a phasing unit on the map", id);
    if (!s_large_inf(s, u))
        return n20_reject(err, "16.6", "only a large (Combat Strength 2 or more) Infantry unit breaks down; %s is "
                          "not one", id);
    if (s->u[u].flags & N20_UF_MOVED) return n20_reject(err, "16.6", "%s has moved: it breaks down before it moves", id);
    int army = s->sc->units[u].army, c1 = n20_cadre_pool(s, army, -1);
    if (c1 < 0 || n20_cadre_pool(s, army, c1) < 0)
        return n20_reject(err, "16.6.1", "two available %s Cadre units are needed", n20_army_name(army));
    if (s->morale[s->phasing] < 1) return n20_reject(err, "16.6.1", "breaking down costs one Morale Point");
    if (dummy && !n20_fog(s))
        return n20_reject(err, "16.6.1", "a Dummy unit is added only with the Fog of War rule [16.1]");
    if (dummy && !s->u[u].hidden)
        return n20_reject(err, "16.6.1", "%s is revealed: a Dummy unit is added only when an unrevealed unit "
                          "breaks down", id);
    if (dummy && n20_breakdown_dummy(s, u) < 0)
        return n20_reject(err, "16.6.1", "no %s Dummy unit is available", n20_army_name(army));
    return 0;
}

void n20_breakdown_apply(n20_state *s, int u, int dummy, n20_out *out) {
    int army = s->sc->units[u].army, c1 = n20_cadre_pool(s, army, -1), c2 = n20_cadre_pool(s, army, c1);
    int dm = dummy ? n20_breakdown_dummy(s, u) : -1;
    uint16_t h = s->u[u].hex;
    /* [16.6.1] "(also unrevealed) Cadre units": the Cadres are face-down when the unit was */
    uint8_t hidden = n20_fog(s) ? s->u[u].hidden : 0;
    if (s->gg_unit == u) s->gg_unit = 0xff; /* [5.1] */
    s->u[u].where = N20_U_ELIM; /* among the eliminated units: it cannot be Rallied */
    s->u[u].hex = 0;
    s->u[u].flags = 0;
    s->u[u].routed = 0;
    s->fatigue[u] = 0;
    int cs[3] = {c1, c2, dm};
    for (int k = 0; k < 3; k++) {
        if (cs[k] < 0) continue;
        n20_unit *c = &s->u[cs[k]];
        c->where = N20_U_MAP;
        c->hex = h;
        c->flags = 0; /* free to move and fight this turn */
        c->routed = 0;
        c->hidden = k == 2 ? 1 : hidden; /* [16.1.3] a Dummy on the map is always face-down */
        s->fatigue[cs[k]] = 0;
    }
    int us[4] = {u, c1, c2, dm};
    if (dm >= 0)
        /* [16.1] the other seat learns that the stack has three pieces, never which is the Dummy:
         * every one of them is "a unit" @XXYY to it */
        n20_event(out, s, "breakdown", us, 4, &h, 1, NULL, 0,
                  "[16.6.1] " N20_U(0) " breaks down at %04u into " N20_U(1) ", " N20_U(2) " and " N20_U(3)
                  " (two Cadre units and a Dummy unit [16.1.3])",
                  n20_xxyy(h));
    else
        n20_event(out, s, "breakdown", us, 3, &h, 1, NULL, 0,
                  "[16.6.1] " N20_U(0) " breaks down into " N20_U(1) " and " N20_U(2) " at %04u", n20_xxyy(h));
    n20_morale_one(s, s->phasing, -1, out, "16.6.1 breaking down");
}

/* the weakest eliminated large Infantry unit of the army, -1 if none (ties: the first listed) */
static int s_weakest_eliminated(const n20_state *s, int army) {
    int best = -1;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_ELIM && s->sc->units[i].army == army && s_large_inf(s, i) &&
            (best < 0 || s->sc->units[i].strength < s->sc->units[best].strength))
            best = i;
    return best;
}

/* [17.1] the parent two detached Cadres u and v combine into: both elements of one unit that still
 * begins broken down (in the pool) and whose Cadres were never Broken; -1 otherwise */
static int s_parent_of_pair(const n20_state *s, int u, int v) {
    int p = s->sc->units[u].parent;
    if (!p || p != s->sc->units[v].parent) return -1;
    p--;
    return s->u[p].where == N20_U_OUT && !s->cadre_lost[p] && n20_unit_in_game(s, p) ? p : -1;
}

/* [16.6.2] [17.1] the unit Cadres u and v combine into, -1 none */
static int s_buildup_target(const n20_state *s, int u, int v) {
    int p = s_parent_of_pair(s, u, v);
    return p >= 0 ? p : s_weakest_eliminated(s, s->sc->units[u].army);
}

/* [16.6.2] u may end the Movement Phase stacked with v: two Cadre units of the same nationality
 * (no third unit), with an eliminated large Infantry unit of that nationality to build up, or
 * [17.1] their parent when both are its detached Cadres */
int n20_combine_ok(const n20_state *s, int u, int v) {
    if (!(s->opts & N20_OPT_BREAKDOWN) || u == v) return 0;
    if (!(s->sc->units[u].flags & N20_FLAG_CADRE) || !(s->sc->units[v].flags & N20_FLAG_CADRE)) return 0;
    if (s->sc->units[u].army != s->sc->units[v].army) return 0;
    int others = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (i != u && s->u[i].where == N20_U_MAP && s->u[i].hex == s->u[v].hex &&
            s->sc->units[i].type != N20_LEADER) /* [16.9.2] a Leader is stack free */
            others++;
    return others == 1 && s_buildup_target(s, u, v) >= 0;
}

/* [16.6.2] at the end of the Movement Phase every stacked pair of Cadre units is combined */
void n20_combine_all(n20_state *s, n20_out *out) {
    if (!(s->opts & N20_OPT_BREAKDOWN)) return;
    for (int i = 0; i < s->sc->nunits && !s->over; i++) {
        if (s->u[i].where != N20_U_MAP || n20_side_of(s, i) != s->phasing) continue;
        for (int j = i + 1; j < s->sc->nunits; j++) {
            if (s->u[j].where != N20_U_MAP || s->u[j].hex != s->u[i].hex || !n20_combine_ok(s, i, j)) continue;
            int big = s_buildup_target(s, i, j);
            uint16_t h = s->u[i].hex;
            /* [16.1] the unit built up is face-down when both Cadres were */
            uint8_t hidden = n20_fog(s) && s->u[i].hidden && s->u[j].hidden;
            int detached = s->u[big].where == N20_U_OUT; /* [17.1] the parent, from the pool */
            s->u[i].where = s->u[j].where = N20_U_OUT; /* back to the pool */
            s->u[i].hex = s->u[j].hex = 0;
            s->u[i].flags = s->u[j].flags = 0;
            s->fatigue[i] = s->fatigue[j] = 0;
            s->u[big].where = N20_U_MAP;
            s->u[big].hex = h;
            s->u[big].flags = N20_UF_MOVED; /* it may fight this turn */
            s->u[big].routed = 0;
            s->u[big].hidden = hidden;
            s->fatigue[big] = 0;
            int us[3] = {i, j, big};
            n20_event(out, s, "buildup", us, 3, &h, 1, NULL, 0,
                      "[16.6.2] " N20_U(0) " and " N20_U(1) " combine into " N20_U(2) " at %04u%s", n20_xxyy(h),
                      detached ? " (its detached Cadres [17.1])" : "");
            n20_morale_one(s, s->phasing, +1, out, "16.6.2 building up");
            break;
        }
    }
}

/* ---- [17.1] SPECIAL RULE: ZIETEN and ORANGE begin broken down ------------------------------- */
/* The scenario data marks the detached Cadres and their parent (record `detached CADRE PARENT`).
 * Two detached Cadres of one parent combine into it by [16.6.2] (s_buildup_target); once one of
 * them is Broken (it returns to the pool as any Cadre [16.5.2]) that is no longer possible, and the
 * PROCEDURE lets the Allied player eliminate a Cadre of that nationality to put the parent into the
 * Broken Units pile (rulings R-17.1-special). */

int n20_is_parent(const n20_scenario *sc, int p) {
    /* one bit per unit, set once when the data is read: the state encoding asks it of every unit */
    return p >= 0 && p < 64 && ((sc->parents >> p) & 1u);
}

/* hook of n20_break_unit: a detached Cadre of a parent still broken down is lost this Turn */
void n20_detached_broken(n20_state *s, int c) {
    int p = s->sc->units[c].parent;
    if (!p) return;
    p--;
    if (s->u[p].where == N20_U_OUT && !s->cadre_lost[p]) s->cadre_lost[p] = s->turn;
}

/* the parent unit of c's army still in its "broken down" condition (in the pool), -1 */
static int s_waiting_parent(const n20_state *s, int army) {
    for (int p = 0; p < s->sc->nunits; p++)
        if (s->sc->units[p].army == army && s->u[p].where == N20_U_OUT && n20_unit_in_game(s, p) &&
            n20_is_parent(s->sc, p))
            return p;
    return -1;
}

int n20_rebuild_parent(const n20_state *s, int c) {
    if (c < 0 || c >= s->sc->nunits || !(s->sc->units[c].flags & N20_FLAG_CADRE)) return -1;
    return s_waiting_parent(s, s->sc->units[c].army);
}

/* everything but the timing within the Player Turn */
static int s_rebuild_ok(const n20_state *s, int c, brt_reject *err) {
    if (n20_is_night(s))
        return n20_reject(err, "17.1", "a Cadre is eliminated this way only on a Daylight (non-Night) Turn");
    if (c < 0 || c >= s->sc->nunits) return n20_reject(err, "17.1", "unknown unit");
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, c, n20_pending_seat(s), idb) : ""; /* only for messages */
    if (!(s->sc->units[c].flags & N20_FLAG_CADRE) || s->u[c].where != N20_U_MAP || n20_side_of(s, c) != s->phasing)
        return n20_reject(err, "17.1", "%s is not a Cadre unit of yours on the map", id);
    int army = s->sc->units[c].army, p = s_waiting_parent(s, army);
    if (p < 0)
        return n20_reject(err, "17.1", "no %s unit began the game broken down and is still waiting to be rebuilt "
                          "(the Cadre and the unit must be of the same nationality)", n20_army_name(army));
    if (!s->cadre_lost[p])
        return n20_reject(err, "17.1", "none of the Cadres of %s has been Broken: combine them instead [16.6.2]",
                          N20_RUID(s, p));
    if (s->cadre_lost[p] >= s->turn)
        return n20_reject(err, "17.1", "a Cadre of %s was Broken this Turn: the procedure is open on a later Turn",
                          N20_RUID(s, p));
    for (int e = 0; e < s->sc->nunits; e++) /* every enemy unit, Leaders and face-down units included */
        if (s->u[e].where == N20_U_MAP && n20_side_of(s, e) != s->phasing &&
            n20_distance(s->u[e].hex, s->u[c].hex) <= 2)
            return n20_reject(err, "17.1", "%s is adjacent to or within two hexes of an enemy unit", id);
    return 0;
}

int n20_rebuild_check(const n20_state *s, int c, brt_reject *err) {
    if (s->phase != N20_PH_REBUILD)
        return n20_reject(err, "17.1", "a Cadre is eliminated this way only at the start of the Allied Player "
                          "Turn, before its Random Events Phase");
    return s_rebuild_ok(s, c, err);
}

int n20_rebuild_any(const n20_state *s) {
    if (n20_is_night(s)) return 0;
    for (int c = 0; c < s->sc->nunits; c++)
        if ((s->sc->units[c].flags & N20_FLAG_CADRE) && s->u[c].where == N20_U_MAP && s_rebuild_ok(s, c, NULL) == 0)
            return 1;
    return 0;
}

void n20_rebuild_apply(n20_state *s, int c, n20_out *out) {
    int p = n20_rebuild_parent(s, c);
    uint16_t h = s->u[c].hex;
    n20_fog_reveal(s, c, out, "17.1 eliminated to rebuild"); /* the piece taken off is shown */
    if (s->gg_unit == c) s->gg_unit = 0xff; /* [5.1] */
    s->u[c].where = N20_U_ELIM; /* removed from play */
    s->u[c].hex = 0;
    s->u[c].flags = 0;
    s->u[c].routed = 0;
    s->fatigue[c] = 0;
    s->u[p].where = N20_U_BROKEN; /* to be Rallied normally [10.0] */
    s->u[p].hex = 0;
    s->u[p].flags = 0;
    s->u[p].routed = 0;
    s->u[p].hidden = 0; /* in the Broken Units pile, like every Broken unit */
    s->fatigue[p] = 0;
    int us[2] = {c, p};
    n20_event(out, s, "rebuild", us, 2, &h, 1, NULL, 0,
              "[17.1] " N20_U(0) " is eliminated at %04u: " N20_U(1)
              " goes into the Broken Units pile, to be Rallied [10.0]",
              n20_xxyy(h));
}
