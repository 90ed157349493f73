/*
 * wagram.c - the Wagram 20 exclusive rules and the Marchfeld scenario [18.0]: the Austrian free
 * deployment and the French reinforcements' other Entry Area [3.0], the Turn 1 French Movement
 * Phase only [4.1], the Lobau Island bridges [6.10] (Hasty Construction [6.10.1], Confusion &
 * Congestion [6.10.2]), Austrian Caution [6.11], Help is On The Way [12.7], Catastrophe [12.8],
 * no Lull before Turn 8 [13.0], Home Ground [14.0], the Floridsdorf pontoon [16.10] and the
 * Marchfeld's end after the Austrian Combat Phase of Turn 12.
 *
 * Every rule here reads the scenario's Danube data (sc->dn, danube.h); a scenario without it
 * (Waterloo 20) is never changed by a hook of this file. Rulings: docs/danube-rulings/wagram.md.
 */
#include <stdio.h>
#include <string.h>

#include "n20.h"

static int s_zone(const n20_scenario *sc, uint16_t h, int z) { return h < N20_HEXES && (sc->dn.zone[h] & z); }

static int s_pair(uint16_t a, uint16_t b, uint16_t x, uint16_t y) { return (a == x && b == y) || (a == y && b == x); }

/* [6.10.1] the hexside a-b is one of the incomplete Lobau bridges */
static int s_incomplete(const n20_scenario *sc, uint16_t a, uint16_t b) {
    for (int i = 0; i < sc->dn.nincomplete; i++)
        if (s_pair(a, b, sc->dn.incomplete[i].a, sc->dn.incomplete[i].b)) return 1;
    return 0;
}

/* [16.10] the hexside a-b is the Floridsdorf crossing */
static int s_flor(const n20_scenario *sc, uint16_t a, uint16_t b) {
    return sc->dn.flor_a && sc->dn.flor_b && s_pair(a, b, sc->dn.flor_a, sc->dn.flor_b);
}

static int s_flor_on(const n20_state *s) { return (s->opts & N20_OPT_FLORIDSDORF) && s->sc->dn.flor_a; }

/* ---- set-up ----------------------------------------------------------------------------------- */
int n20_wg_deploy_unit(const n20_state *s, int u) {
    return s->sc->units[u].place == N20_P_DEPLOY && n20_unit_in_game(s, u);
}

static int s_deploy_left(const n20_state *s) {
    int n = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_wg_deploy_unit(s, i) && s->u[i].where == N20_U_OUT) n++;
    return n;
}

void n20_wg_setup(n20_state *s) {
    const n20_dn_scenario *dn = &s->sc->dn;
    s->dn.secured = dn->secured0;      /* [18.0] #3 Crossings Secured from the start */
    s->dn.cc_left = 0xff;              /* [6.10.2] no cap until the roll */
    s->dn.flor = N20_PON_NONE;         /* [3.0] the Pontoon Bridges Damaged marker: not built */
    s->dn.alt = 0;
    s->dn.deployed = 1;
    if (s_deploy_left(s)) { /* [3.0] the Austrian player deploys I, II and IV first */
        s->dn.deployed = 0;
        s->phase = N20_PH_WG_DEPLOY;
    }
}

int n20_wg_deploy_check(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    if (s->phase != N20_PH_WG_DEPLOY) return n20_reject(err, "3.0", "no free deployment now");
    if (u < 0 || u >= s->sc->nunits || !n20_wg_deploy_unit(s, u))
        return n20_reject(err, "3.0", "only I, II and IV Corps are deployed by the Austrian player");
    if (s->u[u].where != N20_U_OUT) return n20_reject(err, "3.0", "%s is already deployed", N20_RUID(s, u));
    if (hex >= N20_HEXES || !s->sc->onmap[hex] || !s_zone(s->sc, hex, (uint8_t)s->sc->units[u].area))
        return n20_reject(err, "3.0", "%04u is not on the Russbach Heights (columns 08XX-15XX north-east of the "
                          "Russbach)", n20_xxyy(hex));
    if (n20_unit_at(s, hex) >= 0) return n20_reject(err, "3.0", "%04u is occupied: the Corps are deployed unstacked", n20_xxyy(hex));
    return 0;
}

void n20_wg_deploy_apply(n20_state *s, int u, uint16_t hex, n20_out *out) {
    s->u[u].where = N20_U_MAP;
    s->u[u].hex = hex;
    int us[1] = {u};
    n20_event(out, s, "deployed", us, 1, &hex, 1, NULL, 0, "[3.0] " N20_U(0) " is deployed at %04u", n20_xxyy(hex));
    if (!s_deploy_left(s)) {
        s->dn.deployed = 1;
        s->phase = N20_PH_EVENTS;
    }
}

/* ---- [3.0] Area A or Area B three turns later -------------------------------------------------- */
char n20_wg_entry_area(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    return d->alt_area && u < 64 && (s->dn.alt >> u) & 1 ? d->alt_area : d->area;
}

int n20_wg_alt_check(const n20_state *s, int u, brt_reject *err) {
    if (u < 0 || u >= s->sc->nunits || u >= 64 || !s->sc->units[u].alt_area) /* s->dn.alt: one bit a unit */
        return n20_reject(err, "3.0", "this unit has no other Entry Area");
    const n20_unit_def *d = &s->sc->units[u];
    if (s->phase != N20_PH_MOVE || d->side != s->phasing)
        return n20_reject(err, "3.0", "a reinforcement's entry is chosen in its player's Movement Phase");
    if ((s->dn.alt >> u) & 1)
        return n20_reject(err, "3.0", "%s is already on its way to Area %c", N20_RUID(s, u), d->alt_area);
    /* rulings R-dn-wg-3.0-alt: the choice is made on its scheduled turn of arrival only */
    if (!n20_can_enter_now(s, u) || s->u[u].arrive != s->turn)
        return n20_reject(err, "3.0", "%s may be delayed to Area %c only on its turn of arrival", N20_RUID(s, u),
                          d->alt_area);
    return 0;
}

void n20_wg_alt_apply(n20_state *s, int u, n20_out *out) {
    const n20_unit_def *d = &s->sc->units[u];
    s->dn.alt |= 1ull << u;
    s->u[u].arrive = (uint8_t)(s->turn + (d->alt_delay ? d->alt_delay : 3));
    int us[1] = {u};
    int v[1] = {s->u[u].arrive};
    n20_event(out, s, "reinforcement", us, 1, NULL, 0, v, 1,
              "[3.0] " N20_U(0) " is delayed three Turns: it arrives at Area %c on Turn %u", d->alt_area,
              s->u[u].arrive);
}

/* ---- [4.1] Turn 1 --------------------------------------------------------------------------- */
int n20_wg_move_only(const n20_state *s) {
    return s->sc->dn.turn1_move_only && s->turn == 1 && s->phasing == s->sc->first_player;
}

int n20_wg_turn_events(n20_state *s, n20_out *out) {
    if (!n20_wg_move_only(s)) return 0;
    N20_EV(out, s, "event-skipped", "[4.1] Turn 1: only the %s Movement Phase is played",
           n20_side_name(s->phasing));
    s->first_turn_done = 1;
    s->phase = N20_PH_MOVE_START;
    return 1;
}

void n20_wg_turn_end(n20_state *s, n20_out *out) {
    if (!n20_wg_move_only(s)) return;
    N20_EV(out, s, "turn-skipped", "[4.1] the %s Player Turn of Turn 1 is skipped", n20_side_name(1 - s->phasing));
    s->phasing = (uint8_t)(1 - s->sc->first_player); /* the end of the Game Turn follows */
}

/* ---- [6.10.1] Hasty Construction ------------------------------------------------------------- */
void n20_wg_player_turn(n20_state *s, n20_out *out) {
    const n20_dn_scenario *dn = &s->sc->dn;
    if (s->dn.secured || !dn->nincomplete || s->phasing != N20_FRENCH) return;
    for (int i = 0; i < dn->nsecure; i++) {
        int o = n20_unit_at(s, dn->secure[i]);
        if (o >= 0 && n20_side_of(s, o) != N20_FRENCH) return;
    }
    s->dn.secured = 1;
    N20_EV(out, s, "crossings-secured",
           "[6.10.1] no Austrian unit in Essling and Gross-Enzersdorf: the Lobau bridges are completed "
           "(Crossings Secured)");
}

/* ---- [6.10.2] Confusion & Congestion; [3.0] units that roll together -------------------------- */
void n20_wg_move_start(n20_state *s, brt_dice *dice, n20_out *out) {
    const n20_scenario *sc = s->sc;
    if (n20_wg_move_only(s) && sc->dn.cc[5]) {
        uint32_t die = brt_dice_roll(dice, 6, "6.10.2 confusion and congestion"); /* public */
        s->dn.cc_left = sc->dn.cc[die - 1];
        int v[2] = {(int)die, s->dn.cc_left};
        n20_event(out, s, "confusion", NULL, 0, NULL, 0, v, 2,
                  "[6.10.2] Confusion & Congestion roll %u: up to %u unit(s) may move off Lobau Island this Turn",
                  die, s->dn.cc_left);
    } else if (s->dn.cc_left != 0xff) {
        s->dn.cc_left = 0xff; /* "On Game Turn 1 only" */
    }
    /* [3.0] "requiring a die roll of 6 for their arrival together": one die for a roll group */
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if (!d->roll_group || s->u[i].where != N20_U_VARIABLE || d->side != s->phasing || s->u[i].arrive > s->turn)
            continue;
        int first = 1;
        for (int j = 0; j < i; j++)
            if (sc->units[j].roll_group == d->roll_group && s->u[j].where == N20_U_VARIABLE &&
                sc->units[j].side == d->side)
                first = 0;
        if (!first) continue;
        int us[8], n = 0;
        for (int j = i; j < sc->nunits && n < 8; j++)
            if (sc->units[j].roll_group == d->roll_group && s->u[j].where == N20_U_VARIABLE &&
                sc->units[j].side == d->side && s->u[j].arrive <= s->turn)
                us[n++] = j;
        int blocked = 0; /* [11.6] an enemy unit on its entry area: no roll, the next Turn */
        for (int e = 0; e < sc->nentry; e++)
            if (sc->entry_area[e] == n20_wg_entry_area(s, i)) {
                int o = n20_unit_at(s, sc->entry_hex[e]);
                if (o >= 0 && n20_side_of(s, o) != s->phasing) blocked = 1;
            }
        if (blocked) {
            for (int k = 0; k < n; k++) s->u[us[k]].arrive = (uint8_t)(s->turn + 1);
            char bl[4 * N20_U_MAX];
            n20_event(out, s, "reinforcement", us, n, NULL, 0, NULL, 0,
                      "[11.6] %s cannot arrive: their entry hex is enemy occupied", n20_u_list(bl, sizeof bl, 0, n));
            continue;
        }
        uint32_t die = n20_roll(s, dice, us, n, "11.0 variable reinforcement (together)");
        int need = d->need ? d->need : sc->variable_arrival;
        int ok = (int)die >= need;
        for (int k = 0; k < n; k++) {
            s->u[us[k]].where = ok ? N20_U_REINF : N20_U_VARIABLE;
            s->u[us[k]].arrive = (uint8_t)(ok ? s->turn : s->turn + 1);
        }
        char l[4 * N20_U_MAX];
        int v[1] = {(int)die};
        n20_event(out, s, "reinforcement", us, n, NULL, 0, v, 1, "[11.0] %s roll %u together: %s",
                  n20_u_list(l, sizeof l, 0, n), die, ok ? "they arrive this turn" : "delayed to the next Turn");
    }
}

/* ---- [6.11] Austrian Caution ---------------------------------------------------------------- */
int n20_wg_inactive(const n20_state *s, int u) {
    return (s->sc->units[u].flags & N20_FLAG_INACTIVE) && s->sc->dn.caution_turn && s->turn < s->sc->dn.caution_turn;
}

int n20_wg_caution_check(const n20_state *s, int u, const char *what, brt_reject *err) {
    if (!n20_wg_inactive(s, u)) return 0;
    return n20_reject(err, "6.11", "%s is inactive until Turn %u (Austrian Caution): it cannot %s", N20_RUID(s, u),
                      s->sc->dn.caution_turn, what);
}

/* ---- [6.10.2] the cap on units leaving Lobau ------------------------------------------------- */
/* 1 if the move of u from `start` (0: entering the map at path[0]) along path leaves Lobau Island:
 * it begins on a Lobau hex (an entry hex of the island for a reinforcement) and enters a hex off
 * it (rulings R-dn-wg-6.10.2-off; a Leader is no unit of the cap) */
static int s_leaves_lobau(const n20_state *s, int u, uint16_t start, const uint16_t *path, int n) {
    if (s->sc->units[u].type == N20_LEADER || n < 1) return 0;
    int first = start ? 0 : 1;
    if (!s_zone(s->sc, start ? start : path[0], N20_Z_LOBAU)) return 0;
    for (int i = first; i < n; i++)
        if (!s_zone(s->sc, path[i], N20_Z_LOBAU)) return 1;
    return 0;
}

int n20_wg_move_path_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err) {
    if (s->dn.cc_left == 0xff) return 0;
    uint16_t start = s->u[u].where == N20_U_MAP ? s->u[u].hex : 0;
    if (s_leaves_lobau(s, u, start, path, n) && s->dn.cc_left == 0)
        return n20_reject(err, "6.10.2", "Confusion & Congestion: no more units may move off Lobau Island this Turn");
    return 0;
}

/* ---- the Wagram hexsides: [6.10.1] incomplete bridges, [16.10] Floridsdorf -------------------- */
int n20_wg_step(const n20_state *s, int u, uint16_t from, uint16_t to, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    if (!from) return 0;
    if (!s->dn.secured && s_incomplete(sc, from, to))
        return n20_reject(err, "6.10.1", "the Lobau bridge %04u-%04u is incomplete until the Crossings are Secured",
                          n20_xxyy(from), n20_xxyy(to));
    if (!s_flor(sc, from, to)) return 0;
    if (!s_flor_on(s))
        return n20_reject(err, "16.10", "there is no pontoon at Floridsdorf (%04u-%04u)", n20_xxyy(from), n20_xxyy(to));
    if (s->dn.flor == N20_PON_INTACT) {
        if (sc->units[u].side != N20_FRENCH)
            return n20_reject(err, "16.10.1", "the Floridsdorf pontoon can only be used by the French");
        return 1;
    }
    if (s->dn.flor == N20_PON_DESTROYED)
        return n20_reject(err, "16.10.2", "the Floridsdorf pontoon was destroyed and cannot be rebuilt");
    /* [16.10] building: a French Infantry unit moving between the two hexes with its entire MA */
    if (sc->units[u].side != N20_FRENCH || sc->units[u].type != N20_INF)
        return n20_reject(err, "16.10", "only a French Infantry unit can build the Floridsdorf pontoon");
    if (s->u[u].where != N20_U_MAP || s->u[u].hex != from)
        return n20_reject(err, "16.10", "building the Floridsdorf pontoon takes the unit's entire Movement Allowance");
    int o = n20_unit_at(s, sc->dn.flor_a);
    if (o >= 0 && n20_side_of(s, o) != N20_FRENCH)
        return n20_reject(err, "16.10", "%04u is occupied by an Austrian unit: the pontoon cannot be built this Turn",
                          n20_xxyy(sc->dn.flor_a));
    return 2;
}

int n20_wg_retreat_side(const n20_state *s, int u, uint16_t from, uint16_t to) {
    const n20_scenario *sc = s->sc;
    if (!s->dn.secured && s_incomplete(sc, from, to)) return -1; /* [6.10.1] unusable by either player */
    if (!s_flor(sc, from, to)) return 0;
    return s_flor_on(s) && s->dn.flor == N20_PON_INTACT && sc->units[u].side == N20_FRENCH ? 1 : -1;
}

int n20_wg_retreat_bridge(const n20_state *s, uint16_t from, uint16_t to) {
    const n20_scenario *sc = s->sc;
    int d = n20_dir(sc, from, to);
    if (d < 0) return 0;
    if (s_flor(sc, from, to)) return s_flor_on(s) && s->dn.flor == N20_PON_INTACT ? 2 : 0;
    if (sc->cross[from][d] == N20_X_BRIDGE && s_zone(sc, from, N20_Z_LOBAU) != s_zone(sc, to, N20_Z_LOBAU)) return 1;
    return 0;
}

/* ---- after a move: [6.10.2] [12.7] [16.10]; entering hexes: [12.8] [16.10.2] ------------------ */
void n20_wg_moved(n20_state *s, int u, uint16_t start, const uint16_t *path, int n, n20_out *out) {
    const n20_scenario *sc = s->sc;
    int us[1] = {u};
    if (s->dn.cc_left != 0xff && s_leaves_lobau(s, u, start, path, n)) {
        if (s->dn.cc_left > 0) {
            s->dn.cc_left--;
            n20_event(out, s, "confusion", us, 1, NULL, 0, NULL, 0,
                      "[6.10.2] " N20_U(0) " moves off Lobau Island: %u more may this Turn", s->dn.cc_left);
        }
    }
    if (!start && sc->units[u].arrive_morale) { /* [12.7] Help is On The Way */
        n20_event(out, s, "help", us, 1, NULL, 0, NULL, 0, "[12.7] Help is On The Way: " N20_U(0) " enters play");
        n20_morale_one(s, n20_side_of(s, u), sc->units[u].arrive_morale, out, "12.7 help is on the way");
    }
    if (start && n == 1 && s_flor(sc, start, path[0]) && s_flor_on(s) && sc->units[u].side == N20_FRENCH) {
        if (s->dn.flor == N20_PON_NONE) {
            s->dn.flor = N20_PON_INTACT;
            n20_event(out, s, "pontoon", us, 1, path, 1, NULL, 0,
                      "[16.10] " N20_U(0) " completes the Floridsdorf pontoon bridge with its entire Movement Allowance");
        }
    }
    if (start && s_flor_on(s) && s->dn.flor == N20_PON_INTACT && sc->units[u].side == N20_FRENCH && !s->dn.flor_used) {
        uint16_t prev = start;
        for (int i = 0; i < n; i++) {
            if (s_flor(sc, prev, path[i])) s->dn.flor_used = 1; /* [9.8.6] the LOC at 0714 is Active */
            prev = path[i];
        }
    }
    n20_wg_entered(s, u, path, n, out);
}

void n20_wg_entered(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    const n20_scenario *sc = s->sc;
    if (sc->units[u].side == N20_FRENCH || s->over) return;
    int us[1] = {u};
    for (int i = 0; i < n; i++) {
        if (!s->dn.lobau_hit && sc->dn.lobau_morale && s_zone(sc, path[i], N20_Z_LOBAU)) {
            s->dn.lobau_hit = 1; /* [12.8] "The first time" */
            n20_event(out, s, "catastrophe", us, 1, &path[i], 1, NULL, 0,
                      "[12.8] Catastrophe: " N20_U(0) " enters Lobau Island at %04u", n20_xxyy(path[i]));
            n20_morale_one(s, N20_FRENCH, sc->dn.lobau_morale, out, "12.8 catastrophe");
            if (s->over) return;
        }
        if (s_flor_on(s) && s->dn.flor == N20_PON_INTACT && path[i] == sc->dn.flor_a) {
            s->dn.flor = N20_PON_DESTROYED; /* [16.10.2] permanently */
            n20_event(out, s, "pontoon", us, 1, &path[i], 1, NULL, 0,
                      "[16.10.2] " N20_U(0) " enters %04u: the Floridsdorf pontoon is destroyed", n20_xxyy(path[i]));
        }
    }
}

/* ---- [13.0] [18.0] [14.0] [9.8.6] ------------------------------------------------------------ */
int n20_wg_lull_allowed(const n20_state *s) { return !s->sc->dn.lull_turn || s->turn >= s->sc->dn.lull_turn; }

int n20_wg_end_now(const n20_state *s) {
    const n20_dn_scenario *dn = &s->sc->dn;
    return dn->end_turn && s->turn == dn->end_turn && s->phasing == dn->end_side && s->phase == dn->end_phase;
}

/* the Movement Phase prompt with the [3.0] choice in it (kept as short as the series prompt: it is
 * drawn in the picture's panel) */
const char *n20_wg_move_prompt(const n20_state *s, const char *prompt, char *buf, size_t n) {
    for (int u = 0; u < s->sc->nunits; u++)
        if (s->sc->units[u].alt_area && n20_wg_alt_check(s, u, NULL) == 0) {
            snprintf(buf, n, "move, enter or alt-area reinforcements [3.0], force march%s; end",
                     s->opts & N20_OPT_BREAKDOWN ? ", break down [16.6]" : "");
            return buf;
        }
    return prompt;
}

int n20_wg_rest(const n20_state *s, int side, int rest) {
    const n20_dn_scenario *dn = &s->sc->dn;
    if (dn->home_mode != 1 || side != N20_ALLIED) return rest;
    for (int i = 0; i < dn->nhome; i++) {
        int o = n20_unit_at(s, dn->home[i]);
        if (o >= 0 && n20_side_of(s, o) == N20_ALLIED) return dn->home_bonus; /* [14.0] Home Ground */
    }
    return rest;
}

uint16_t n20_wg_extra_loc(const n20_state *s, int army) {
    if (army != N20_ARMY_FRENCH || !s->sc->dn.flor_loc || !s_flor_on(s) || !s->dn.flor_used) return 0;
    return s->sc->dn.flor_loc; /* [9.8.6] once French units crossed at Floridsdorf */
}

const char *n20_wg_pontoon_name(const n20_state *s) {
    if (!s_flor_on(s)) return "";
    return s->dn.flor == N20_PON_INTACT ? "built" : s->dn.flor == N20_PON_DESTROYED ? "destroyed" : "unbuilt";
}
