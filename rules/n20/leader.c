/*
 * leader.c - optional rule [16.9] Leaders: command span [16.9.1] [16.9.5],
 * lone Leaders in an enemy ZOC [16.9.3], broken Leaders and the Breaking
 * Napoleon Table [16.9.6], the automatic rally [16.9.7], the French Wing
 * Commanders. Leader movement is in movement.c, Leaders accompanying a
 * retreat in retreat.c. With the option off no Leader is ever on the map.
 */
#include <string.h>

#include "n20.h"

int n20_is_leader(const n20_state *s, int u) { return s->sc->units[u].type == N20_LEADER; }

int n20_enemy_at(const n20_state *s, uint16_t h, int side) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP && s->u[i].hex == h && n20_side_of(s, i) != side) return 1;
    return 0;
}

int n20_leader_stacked(const n20_state *s, int l) {
    int o = n20_unit_at(s, s->u[l].hex); /* n20_unit_at never returns a Leader */
    return o >= 0 && n20_side_of(s, o) == n20_side_of(s, l);
}

/* [16.9.3] a Leader not stacked with a friendly unit which is in an EZOC */
static int s_lone_in_ezoc(const n20_state *s, int l) {
    if (!n20_is_leader(s, l) || s->u[l].where != N20_U_MAP) return 0;
    if (n20_leader_stacked(s, l)) return 0;
    return n20_in_ezoc(s, s->u[l].hex, 1 - n20_side_of(s, l), 0);
}

int n20_leader_must_retreat(const n20_state *s) {
    if (!(s->opts & N20_OPT_LEADERS)) return -1;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s_lone_in_ezoc(s, i)) return i;
    return -1;
}

/* [16.9.1] [16.9.5] distance from the Leader within its span for that attacker */
static int s_commands(const n20_state *s, int l, int u) {
    const n20_unit_def *d = &s->sc->units[l];
    int span = d->strength;
    if ((d->flags & N20_FLAG_SPAN0_FOOT) && s->sc->units[u].type != N20_CAV) span = 0;
    return n20_distance(s->u[l].hex, s->u[u].hex) <= span;
}

int n20_in_command(const n20_state *s, const n20_battle *b) {
    int side = n20_side_of(s, b->att[0]);
    for (int l = 0; l < s->sc->nunits; l++) {
        if (!n20_is_leader(s, l) || s->u[l].where != N20_U_MAP || n20_side_of(s, l) != side) continue;
        for (int j = 0; j < b->natt; j++)
            if (s->u[b->att[j]].where == N20_U_MAP && s_commands(s, l, b->att[j])) return 1;
    }
    return 0;
}

void n20_leader_break(n20_state *s, int l, brt_dice *dice, n20_out *out, const char *why) {
    uint16_t h = s->u[l].hex;
    s->u[l].where = N20_U_BROKEN;
    s->u[l].routed = 0;
    s->u[l].flags = 0;
    s->u[l].hex = 0;
    if (s->gg_unit == l) s->gg_unit = 0xff;
    int us[1] = {l};
    n20_event(out, s, "broken", us, 1, &h, 1, NULL, 0,
              "[%s] Leader " N20_U(0) " is Broken at %04u (no Morale penalty, 16.9.6)", why,
              n20_xxyy(h));
    if (!(s->sc->units[l].flags & N20_FLAG_NAPOLEON)) return;
    /* [16.9.6] the French Player must immediately roll on the Breaking Napoleon Table */
    uint32_t die = n20_roll(s, dice, us, 1, "16.9.6 breaking Napoleon"); /* [16.1] as the Leader is seen */
    int r = s->sc->napoleon[die - 1];
    int v[2] = {(int)die, r};
    static const char *rn[] = {"Napoleon escapes: no effect", "Napoleon is wounded: -1 French Morale",
                               "Napoleon is killed"};
    n20_event(out, s, "breaking-napoleon", us, 1, NULL, 0, v, 2, "[16.9.6] Breaking Napoleon roll %u: %s",
              die, rn[r]);
    if (r == N20_NAP_WOUNDED) n20_morale_one(s, N20_FRENCH, -1, out, "16.9.6 Napoleon wounded");
    else if (r == N20_NAP_KILLED) n20_game_end_napoleon_killed(s, out);
}

static int s_retreat_hex_ok(const n20_state *s, int l, uint16_t to) {
    uint16_t from = s->u[l].hex;
    int d = n20_dir(s->sc, from, to);
    if (d < 0 || to >= N20_HEXES || !s->sc->onmap[to]) return 0;
    int pontoon = n20_ae_step(s, l, from, to, NULL); /* A-E [6.10] the Pontoon Bridges */
    if (pontoon < 0 || (pontoon != 1 && n20_side_blocked(s->sc, n20_weather(s), from, d))) return 0;
    return !n20_enemy_at(s, to, n20_side_of(s, l)) && !n20_garrison_blocks(s, to, n20_side_of(s, l)); /* [9.4.4.1] */
}

int n20_leader_retreat_check(const n20_state *s, int l, const uint16_t *path, int n, brt_reject *err) {
    if (s->phase != N20_PH_LEADER_RETREAT || l < 0 || l != n20_leader_must_retreat(s))
        return n20_reject(err, "16.9.3", "%s does not have to retreat now",
                          l >= 0 && l < s->sc->nunits ? N20_RUID(s, l) : "?");
    if (n != 1)
        return n20_reject(err, "16.9.3", "a Leader alone in an enemy ZOC retreats exactly one hex");
    if (!s_retreat_hex_ok(s, l, path[0]))
        return n20_reject(err, "16.9.3", "%s cannot retreat into %04u (not adjacent, off the map, across "
                          "a Major River, or enemy occupied)", N20_RUID(s, l), n20_xxyy(path[0]));
    return 0;
}

void n20_leader_retreat_apply(n20_state *s, int l, const uint16_t *path, int n, brt_dice *dice,
                              n20_out *out) {
    (void)n;
    if (n20_ae_retreat_cross(s, l, s->u[l].hex, path[0], 0, dice, out) == 1) { /* A-E [6.10] a 1: it Breaks */
        s->phase = s->ldr_ctx;
        n20_leader_break(s, l, dice, out, "6.10 pontoon crossing");
        return;
    }
    uint16_t hx[2] = {s->u[l].hex, path[0]};
    s->u[l].hex = path[0];
    int us[1] = {l};
    n20_event(out, s, "retreated", us, 1, hx, 2, NULL, 0, "[16.9.3] Leader " N20_U(0) " retreats to %04u",
              n20_xxyy(path[0]));
    s->phase = s->ldr_ctx;
    if (s_lone_in_ezoc(s, l)) n20_leader_break(s, l, dice, out, "16.9.3 still alone in an enemy ZOC");
}

int n20_leader_step(n20_state *s, brt_dice *dice, n20_out *out) {
    if (!(s->opts & N20_OPT_LEADERS) || s->over) return 0;
    if (s->phase == N20_PH_LEADER_RETREAT) return 1;
    for (;;) {
        int l = n20_leader_must_retreat(s);
        if (l < 0) return 0;
        int any = 0;
        for (int d = 0; d < 6; d++) {
            uint16_t to;
            if (n20_neighbor(s->sc, s->u[l].hex, d, &to) == 0 && s_retreat_hex_ok(s, l, to)) any = 1;
        }
        if (any) {
            s->ldr_ctx = s->phase;
            s->phase = N20_PH_LEADER_RETREAT;
            return 1;
        }
        n20_leader_break(s, l, dice, out, "16.9.3 no hex to retreat into");
        if (s->over) return 1;
    }
}

/* [16.9.5] a Leader stacked with a retreating unit accompanies its entire retreat and breaks
 * with it; called once the unit that started at `from` has retreated (or broken). */
void n20_leaders_follow(n20_state *s, int u, uint16_t from, brt_dice *dice, n20_out *out) {
    if (!(s->opts & N20_OPT_LEADERS)) return;
    int side = n20_side_of(s, u);
    for (int l = 0; l < s->sc->nunits && !s->over; l++) {
        if (!n20_is_leader(s, l) || s->u[l].where != N20_U_MAP || s->u[l].hex != from ||
            n20_side_of(s, l) != side)
            continue;
        if (s->u[u].where != N20_U_MAP) {
            n20_leader_break(s, l, dice, out, "16.9.5 the unit it accompanied in retreat Broke");
            continue;
        }
        if (s->u[u].hex == from) continue;
        uint16_t hx[2] = {from, s->u[u].hex};
        s->u[l].hex = s->u[u].hex;
        int us[2] = {l, u};
        n20_event(out, s, "retreated", us, 2, hx, 2, NULL, 0,
                  "[16.9.5] Leader " N20_U(0) " accompanies " N20_U(1) " to %04u", n20_xxyy(s->u[u].hex));
    }
}

int n20_leader_rally(n20_state *s, n20_out *out) {
    if (!(s->opts & N20_OPT_LEADERS)) return 0;
    int any = 0;
    for (int l = 0; l < s->sc->nunits; l++) {
        if (!n20_is_leader(s, l) || s->u[l].where != N20_U_BROKEN || n20_side_of(s, l) != s->phasing)
            continue;
        s->u[l].flags |= N20_UF_RALLIED;
        any = 1;
        int us[1] = {l};
        n20_event(out, s, "rally", us, 1, NULL, 0, NULL, 0,
                  "[16.9.7] Leader " N20_U(0) " Rallies automatically");
    }
    if (!any) return 0;
    s->ldr_place = 1;
    s->phase = N20_PH_PLACE;
    return 1;
}

/* ---- French Wing Commanders (Standard Scenario) --------------------------- */
static void s_napoleons(const n20_state *s, int *big, int *small) {
    *big = *small = -1;
    for (int i = 0; i < s->sc->nunits; i++) {
        if (!(s->sc->units[i].flags & N20_FLAG_NAPOLEON)) continue;
        if (*big < 0 || s->sc->units[i].strength > s->sc->units[*big].strength) {
            *small = *big;
            *big = i;
        } else {
            *small = i;
        }
    }
}

/* [17.1.2] Berthier is Back! with Leaders: "ignore the provisions of French Wing Commanders. The
 * 3-rated version of the NAPOLEON Leader unit is always used" */
int n20_berthier_leaders(const n20_state *s) {
    return (s->opts & (N20_OPT_BERTHIER_BACK | N20_OPT_LEADERS)) == (N20_OPT_BERTHIER_BACK | N20_OPT_LEADERS);
}

/* [17.1.2] the 3-rated NAPOLEON takes the place (hex or arrival) the scenario gives the 2-rated one;
 * the 2-rated one and any Leader set aside only for the Wing Commanders stay out of play
 * (rulings R-17.1.2-berthier) */
void n20_berthier_setup(n20_state *s) {
    if (!n20_berthier_leaders(s)) return;
    int big, small;
    s_napoleons(s, &big, &small);
    if (big < 0 || small < 0 || s->u[small].where == N20_U_OUT || s->u[big].where != N20_U_OUT) return;
    s->u[big] = s->u[small];
    s->u[small].where = N20_U_OUT;
    s->u[small].hex = 0;
    s->u[small].arrive = 0;
}

/* [17.1] "French player's discretion to alternately have these Leaders enter play combined as the
 * 3-5 version of NAPOLEON": in the French Movement Phase, while the Wing Commander l and NAPOLEON
 * (2-5) may both enter and neither has, they are replaced by NAPOLEON (3-5) arriving this turn at its
 * area (data placement leader-alt) (rulings R-17.1-combined) */
static int s_arrival_check(const n20_state *s, int l, int big, int small, brt_reject *err) {
    if (s->phasing != N20_FRENCH || n20_side_of(s, l) != N20_FRENCH)
        return n20_reject(err, "17.1", "only the French Leaders may enter play combined");
    if (s->u[l].where != N20_U_REINF || !n20_can_enter_now(s, l))
        return n20_reject(err, "17.1", "%s is not a Leader arriving this turn", N20_RUID(s, l));
    if (s->sc->units[big].place != N20_P_LEADER_ALT || s->u[big].where != N20_U_OUT)
        return n20_reject(err, "17.1", "%s cannot enter play combined in this scenario", N20_RUID(s, l));
    if (s->u[small].where != N20_U_REINF || !n20_can_enter_now(s, small))
        return n20_reject(err, "17.1", "%s enters play combined only together with %s arriving this turn",
                          N20_RUID(s, l), N20_RUID(s, small));
    return 0;
}

int n20_wing_check(const n20_state *s, int l, brt_reject *err) {
    /* the messages below name the NAPOLEON units, which may be hidden from the Allied seat [16.1]
     * [17.1.1]: a wing order is answered for what it is before any of them is named */
    if (n20_pending_seat(s) != N20_FRENCH)
        return n20_reject(err, "16.9", "the Wing Commanders are French Leaders: only the French player orders them");
    if (n20_berthier_leaders(s))
        return n20_reject(err, "17.1.2", "Berthier is Back!: the French Wing Commanders provisions are "
                          "ignored; the 3-rated NAPOLEON is always used");
    if (s->phase == N20_PH_MOVE && l >= 0 && l < s->sc->nunits && (s->sc->units[l].flags & N20_FLAG_WING) &&
        (s->opts & N20_OPT_LEADERS)) {
        int big, small;
        s_napoleons(s, &big, &small);
        if (big < 0 || small < 0) return n20_reject(err, "16.9", "this scenario has no two NAPOLEON units");
        return s_arrival_check(s, l, big, small, err);
    }
    if (s->phase != N20_PH_WING)
        return n20_reject(err, "16.9", "Wing Commanders change only at the conclusion of the French Player Turn");
    if (l < 0 || l >= s->sc->nunits || !(s->sc->units[l].flags & N20_FLAG_WING))
        return n20_reject(err, "16.9", "%s is not a French Wing Commander",
                          l >= 0 && l < s->sc->nunits ? N20_RUID(s, l) : "?");
    int big, small;
    s_napoleons(s, &big, &small);
    if (big < 0 || small < 0) return n20_reject(err, "16.9", "this scenario has no two NAPOLEON units");
    if (s->u[l].where == N20_U_OUT) { /* split: NAPOLEON (3-5) becomes (2-5) + the third Leader */
        if (s->u[big].where != N20_U_MAP || s->u[small].where != N20_U_OUT)
            return n20_reject(err, "16.9", "%s enters play only by replacing the NAPOLEON (%u-%u) unit on "
                              "the map", N20_RUID(s, l), s->sc->units[big].strength, s->sc->units[big].allowance);
        return 0;
    }
    if (s->u[l].where == N20_U_MAP) { /* merge: NAPOLEON stacked with l becomes NAPOLEON (3-5) */
        for (int k = 0; k < 2; k++) {
            int nap = k ? small : big;
            if (s->u[nap].where == N20_U_MAP && s->u[nap].hex == s->u[l].hex) return 0;
        }
        return n20_reject(err, "16.9", "%s is not stacked with NAPOLEON", N20_RUID(s, l));
    }
    return n20_reject(err, "16.9", "%s is Broken", N20_RUID(s, l));
}

void n20_wing_apply(n20_state *s, int l, n20_out *out) {
    int big, small;
    s_napoleons(s, &big, &small);
    int us[3] = {l, big, small};
    if (s->u[l].where == N20_U_REINF) { /* [17.1] enter combined (s_arrival_check) */
        s->u[big] = s->u[small];
        s->u[big].arrive = s->turn;
        uint8_t hid = s->u[small].hidden;
        memset(&s->u[small], 0, sizeof s->u[small]);
        memset(&s->u[l], 0, sizeof s->u[l]);
        s->u[small].hidden = s->u[l].hidden = hid;
        n20_event(out, s, "wing-commanders", us, 3, NULL, 0, NULL, 0,
                  "[17.1] " N20_U(0) " and " N20_U(2) " enter play combined as " N20_U(1) " (%u-%u) at Area %c",
                  s->sc->units[big].strength, s->sc->units[big].allowance, s->sc->units[big].area);
        return;
    }
    if (s->u[l].where == N20_U_OUT) {
        uint16_t h = s->u[big].hex;
        s->u[small] = s->u[big];
        memset(&s->u[big], 0, sizeof s->u[big]);
        s->u[l] = s->u[small];
        s->u[l].flags &= (uint16_t)N20_UF_MOVED;
        n20_event(out, s, "wing-commanders", us, 3, &h, 1, NULL, 0,
                  "[16.9] " N20_U(2) " replaces " N20_U(1) "; " N20_U(0) " enters play at %04u", n20_xxyy(h));
        return;
    }
    uint16_t h = s->u[l].hex;
    int nap = s->u[small].where == N20_U_MAP && s->u[small].hex == h ? small : big;
    n20_unit keep = s->u[nap];
    memset(&s->u[l], 0, sizeof s->u[l]);
    memset(&s->u[small], 0, sizeof s->u[small]);
    s->u[big] = keep;
    n20_event(out, s, "wing-commanders", us, 3, &h, 1, NULL, 0,
              "[16.9] %s and " N20_U(0) " are replaced by " N20_U(1) " at %04u", nap == small ? N20_U(2) : N20_U(1),
              n20_xxyy(h));
}

int n20_wing_any(const n20_state *s) {
    if (!(s->opts & N20_OPT_LEADERS) || n20_berthier_leaders(s)) return 0; /* [17.1.2] */
    for (int l = 0; l < s->sc->nunits; l++) {
        if (!(s->sc->units[l].flags & N20_FLAG_WING)) continue;
        int big, small;
        s_napoleons(s, &big, &small);
        if (big < 0 || small < 0) return 0;
        if (s->u[l].where == N20_U_OUT && s->u[big].where == N20_U_MAP && s->u[small].where == N20_U_OUT)
            return 1;
        if (s->u[l].where == N20_U_MAP)
            for (int k = 0; k < 2; k++) {
                int nap = k ? small : big;
                if (s->u[nap].where == N20_U_MAP && s->u[nap].hex == s->u[l].hex) return 1;
            }
    }
    return 0;
}

/* ---- Leaders accompanying a Reaction Movement [16.9.4] or an Advance [16.9.5] ---------- */
int n20_leaders_accompany_check(const n20_state *s, int u, const int *ls, int nl, const char *rule,
                                brt_reject *err) {
    for (int i = 0; i < nl; i++) {
        int l = ls[i];
        if (!(s->opts & N20_OPT_LEADERS) || l < 0 || l >= s->sc->nunits || !n20_is_leader(s, l))
            return n20_reject(err, rule, "%s is not a Leader in play (optional rule 16.9)",
                              l >= 0 && l < s->sc->nunits ? N20_RUID(s, l) : "?");
        if (s->u[l].where != N20_U_MAP || n20_side_of(s, l) != n20_side_of(s, u) ||
            s->u[l].hex != s->u[u].hex || s->u[u].where != N20_U_MAP)
            return n20_reject(err, rule, "Leader %s is not stacked with %s", N20_RUID(s, l), N20_RUID(s, u));
        for (int k = 0; k < i; k++)
            if (ls[k] == l) return n20_reject(err, rule, "Leader %s is named twice", N20_RUID(s, l));
    }
    return 0;
}

void n20_leaders_accompany_apply(n20_state *s, int u, uint16_t from, const int *ls, int nl, n20_out *out,
                                 const char *rule) {
    for (int i = 0; i < nl; i++) {
        int l = ls[i];
        s->u[l].hex = s->u[u].hex;
        uint16_t hx[2] = {from, s->u[u].hex};
        int us[2] = {l, u};
        n20_event(out, s, "moved", us, 2, hx, 2, NULL, 0, "[%s] Leader " N20_U(0) " accompanies " N20_U(1) " to %04u",
                  rule, n20_xxyy(s->u[u].hex));
    }
}

/* the friendly Leaders stacked with u (for legal()) */
int n20_leaders_with(const n20_state *s, int u, int *ls, int max) {
    int n = 0;
    if (!(s->opts & N20_OPT_LEADERS) || s->u[u].where != N20_U_MAP) return 0;
    for (int l = 0; l < s->sc->nunits && n < max; l++)
        if (n20_is_leader(s, l) && l != u && s->u[l].where == N20_U_MAP && s->u[l].hex == s->u[u].hex &&
            n20_side_of(s, l) == n20_side_of(s, u))
            ls[n++] = l;
    return n;
}

/* [16.9.8] with Optional Rule 16.4, while the "Rallying on" event drawn this turn lasts (its Rally),
 * vacant hexes with or adjacent to the named Leader on the map and not in an EZOC are additional
 * Rally locations, without any other restriction */
int n20_rally_on_hex(const n20_state *s, int u, uint16_t h) {
    if ((s->opts & (N20_OPT_LEADERS | N20_OPT_RALLY_LOCATIONS)) != (N20_OPT_LEADERS | N20_OPT_RALLY_LOCATIONS))
        return 0;
    if (s->rally_event != 2 || !s->rally_on) return 0;
    int l = s->rally_on - 1;
    if (s->u[l].where != N20_U_MAP || n20_side_of(s, l) != n20_side_of(s, u)) return 0;
    if (h >= N20_HEXES || !s->sc->onmap[h]) return 0;
    if (h != s->u[l].hex && n20_dir(s->sc, s->u[l].hex, h) < 0) return 0;
    if (n20_unit_at(s, h) >= 0 || n20_enemy_at(s, h, n20_side_of(s, u))) return 0;
    return !n20_in_ezoc(s, h, 1 - n20_side_of(s, u), 0);
}
