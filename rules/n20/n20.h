/*
 * n20.h - internal interface of the Napoleonic 20 ruleset (rules/n20/).
 *
 * The files follow the rulebook's table of contents; README.md says which
 * file does what. Everything here is integers only and a pure function of
 * (state, order, dice).
 */
#ifndef BERTHIER_N20_H
#define BERTHIER_N20_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "dice.h"
#include "ruleset.h"

/* ---- limits --------------------------------------------------------------- */
#define N20_MAX_UNITS 64
#define N20_MAX_TURNS 40
#define N20_MAX_CARDS 16
#define N20_MAX_LOC 8
#define N20_MAX_OBJ 8
#define N20_MAX_ENTRY 24
#define N20_HEXES 1024 /* hex index = row * 32 + col, row and col 1..31 */
#define N20_MAX_BATTLES 24
#define N20_MAX_SIDE 8 /* units on one side of a battle */
#define N20_MAX_PATH 16
#define N20_NAME 24
#define N20_MAX_LABELS 48 /* named places of a map (`label` records) */
#define N20_MAX_PROV 64   /* distinct provenance texts of `hex` and `label` records */
#define N20_PROV_TEXT 160

#include "danube.h" /* Danube 20: the edition, garrisons, the exclusive rules' data and state */

enum { N20_FRENCH = 0, N20_ALLIED = 1 };                      /* sides = seats */
enum { N20_ARMY_FRENCH = 0, N20_ARMY_ANGLO = 1, N20_ARMY_PRUSSIAN = 2,
       N20_ARMY_AUSTRIAN = 3, /* Danube 20: the Anti-French (Allied) side's one army */
       N20_ARMIES = 4 };
enum { N20_INF = 0, N20_CAV, N20_ART, N20_LEADER, N20_DUMMY }; /* N20_DUMMY: [16.1.3] */
enum { N20_T_CLEAR = 0, N20_T_TOWN, N20_T_FORTIFIED, N20_T_FOREST, N20_T_ROUGH, N20_T_MARSH,
       N20_T_REDOUBT, /* Danube 20: a Redoubt hex (A-E [9.10]); a Fortified hex for the rules (n20_is_fortified) */
       N20_T_COUNT };
enum { N20_RIV_NONE = 0, N20_RIV_MINOR, N20_RIV_MAJOR };
enum { N20_X_NONE = 0, N20_X_BRIDGE, N20_X_FORD };
enum { N20_W_CLEAR = 0, N20_W_CLOUDY, N20_W_SHOWERS, N20_W_DOWNPOUR, N20_W_STORM, N20_W_MUD,
       N20_W_SHOWERS_MUD /* [16.10.2] Showers with the Mud marker on the track */ };
/* [5.2.1] [16.10.2] rain: Infantry -1; heavy going: Movement Allowance -1, Artillery not doubled */
static inline int n20_w_rain(int w) { return w == N20_W_SHOWERS || w == N20_W_DOWNPOUR || w == N20_W_SHOWERS_MUD; }
static inline int n20_w_heavy(int w) { return w == N20_W_DOWNPOUR || w == N20_W_MUD || w == N20_W_SHOWERS_MUD; }
enum { N20_R_AB = 0, N20_R_AR, N20_R_AW, N20_R_N, N20_R_DW, N20_R_DR, N20_R_DB, N20_R_EX };
enum { N20_FLAG_ELITE = 1, N20_FLAG_GUARD = 2,
       N20_FLAG_NAPOLEON = 4,  /* [16.9.6] the Breaking Napoleon Table applies */
       N20_FLAG_WING = 8,      /* [16.9] French Wing Commander (NEY, GROUCHY) */
       N20_FLAG_SPAN0_FOOT = 16, /* [16.9] span 0 for Infantry and Artillery (GROUCHY 1/0) */
       N20_FLAG_UNRELIABLE = 32, /* [16.7.4] yellow Combat Strength */
       N20_FLAG_RELUCTANT = 64,  /* [16.7.5] yellow Movement Allowance */
       N20_FLAG_CADRE = 128,     /* generic Cadre unit [16.5] */
       N20_FLAG_LIGHT = 256,     /* green Movement Allowance: Light Infantry (inf) or Cossacks (cav)
                                  * (v4 [16.7.2] [16.7.3], v3 [16.7.1] [16.7.2]) */
       N20_FLAG_GARRISON = 512,  /* [9.4.4] a Garrison Force (type garrison; not a unit for Morale) */
       N20_FLAG_BATTERY = 1024,  /* Wagram [9.11] a Lobau Island Battery (a Garrison that attacks) */
       N20_FLAG_INACTIVE = 2048  /* Wagram [6.11] / [18.0] begins inactive (Austrian Caution) */ };
/* where a unit starts */
enum { N20_P_HEX = 0, N20_P_TURN, N20_P_POOL, N20_P_BROKEN, N20_P_VARIABLE, N20_P_LEADER,
       N20_P_VARIANT, N20_P_ROLL,
       N20_P_LEADER_TURN, /* a Leader arriving as a reinforcement, with [16.9] only [17.1] */
       N20_P_LEADER_ALT,  /* NAPOLEON (3-5) entering instead of a Wing Commander and NAPOLEON (2-5) [17.1] */
       /* Danube 20 (data.c `site north|south`, `deploy ZONE`) */
       N20_P_SITE,        /* A-E [3.0] on the chosen crossing site: area 'N' its north-bank hex, 'S' its south bank */
       N20_P_DEPLOY       /* Wagram [3.0] deployed by its owner, unstacked, in the hex zone `zone` (N20_Z_*) */ };
/* victory conditions at the end of the game */
enum { N20_VICTORY_STANDARD = 0, N20_VICTORY_OPENING = 1 };
/* event card effects [5.0] */
enum { N20_E_NONE = 0, N20_E_MORALE_SELF, N20_E_MORALE_ENEMY, N20_E_RALLY, N20_E_MOVE_MOD,
       N20_E_GOOD_GROUND, N20_E_FREDERICK, N20_E_RESHUFFLE, N20_E_FM_FREE,
       N20_E_PONTOON_DAMAGE /* Danube 20 A-E [6.10.1] [6.10.2]: the Pontoon Bridges are damaged */ };

/* ---- scenario data (data.c) ------------------------------------------------ */
typedef struct n20_unit_def {
    char id[N20_NAME];
    uint8_t side, army, type, strength, allowance;
    uint16_t flags;       /* N20_FLAG_* */
    uint8_t place;        /* N20_P_* */
    uint16_t hex;         /* set-up hex (index) */
    uint8_t turn;         /* arrival turn */
    char area;            /* entry area letter */
    uint8_t need;         /* N20_P_ROLL: die needed to arrive (0: the scenario's variable-arrival) */
    uint8_t roll_fm;      /* N20_P_ROLL: +1 when its army Force Marches that turn [17.1.3] */
    uint32_t if_opts;     /* in the game only when all these options are chosen [17.4] */
    uint32_t unless_opts; /* not in the game when any of these options is chosen */
    uint8_t parent;       /* [17.1] a detached Cadre: 1 + the index of the unit it is an element of; 0 none */
    /* Danube 20 */
    char alt_area;        /* Wagram [3.0] the other entry area, reached by delaying alt_delay turns; 0 none */
    uint8_t alt_delay;    /* Wagram [3.0] 3 */
    int8_t arrive_morale; /* Wagram [12.7] own Morale change when it enters play (+1) */
    uint8_t roll_group;   /* Wagram [3.0] units that roll one die together ("together"): same nonzero group */
    uint8_t linz;         /* A-E [17.2] rolls on the Summoned from Linz table (sc->dn.linz) */
} n20_unit_def;

typedef struct n20_turn_def {
    uint8_t defined, night, weather, sudden;
    char label[24];
} n20_turn_def;

typedef struct n20_card_def {
    uint8_t number, pile; /* pile: 0 draw, 1 discard, 2 out of the game */
    char title[64];
    uint8_t effect[2];
    int8_t amount[2];
    uint8_t keep[2];      /* [5.0] "Keep this card": the drawer holds it until used or his next Night turn */
    uint8_t rally_on;     /* [16.9.8] 1 + the Leader a "Rallying on" card names; 0 none */
} n20_card_def;

typedef struct n20_scenario {
    char id[48];
    uint8_t edition;      /* N20_ED_V3 (Danube 20) or N20_ED_V4 (Waterloo 20, the default) */
    uint8_t rows, cols;
    uint8_t terrain[N20_HEXES];
    uint8_t onmap[N20_HEXES];
    /* per hex per direction (0..5, see map.c) */
    uint8_t road[N20_HEXES][6];
    uint8_t river[N20_HEXES][6];
    uint8_t cross[N20_HEXES][6];
    uint8_t first_player, start_turn, last_turn, skip_first_event;
    int8_t morale0[2], morale_max, rest[2];
    n20_turn_def turns[N20_MAX_TURNS];
    /* terrain effects: move (0 = one MP, 1 = rugged stop) and defence benefit */
    uint8_t t_stop[N20_T_COUNT];
    int8_t t_def[N20_T_COUNT];
    int8_t minor_move, minor_def, bridge_def, ford_def, minor_bridge_def, road_bonus;
    int8_t crt_lo, crt_hi;
    uint8_t crt[6][8];
    uint8_t rally[6];     /* 0 broken, 1 cadre, 2 rallied; index = die-1 after modifiers clamp */
    int8_t rally_elite, rally_morale;
    uint8_t adv_lost[6];  /* 1 = lost */
    int8_t adv_heavy;
    int8_t mc_break_owner, mc_break_enemy, mc_rout_ma, mc_captured, mc_garde, mc_lull;
    int8_t rout_elite, rout_fort;
    uint8_t hazard_break, variable_arrival;
    uint16_t loc[N20_ARMIES][N20_MAX_LOC];
    uint8_t nloc[N20_ARMIES];
    uint16_t obj[2][N20_MAX_OBJ]; /* objective hexes in each side's colour */
    uint8_t nobj[2];
    char entry_area[N20_MAX_ENTRY];
    uint16_t entry_hex[N20_MAX_ENTRY];
    uint8_t nentry;
    n20_unit_def units[N20_MAX_UNITS];
    uint8_t nunits;
    uint8_t armies_in;    /* bit a: army a has units in this scenario */
    uint64_t parents;     /* bit p: detached Cadres name unit p as their parent [17.1] (n20_is_parent) */
    n20_card_def cards[N20_MAX_CARDS];
    uint8_t ncards;
    uint8_t gg_unit, gg_immune; /* initial Good Ground marker; 0xff none */
    /* [16.10] Variable Weather: starting box and side (1 Worsening), the trend tables (boxes
     * moved toward Storm for die 1..6; [0] Improving side, [1] Worsening), the card that flips */
    uint8_t wx_start, wx_worse0, wx_card;
    int8_t wx_trend[2][6];
    uint8_t gg_choice;          /* the Allied player chooses its side at set-up [17.3] */
    /* scenarios built on another one ([17.0]): the base's id; scenario-bound options it accepts */
    char base[48];
    uint32_t opts_ok;
    uint32_t opts_required;
    uint32_t opts_unsupported;  /* options this scenario's data does not support yet (refused) */     /* options the scenario always plays with ([17.1]: [16.6]) */
    /* option-morale: starting morale changes under an option ([17.4.2]) */
    uint32_t optm_bit[4];
    int8_t optm_side[4], optm_delta[4];
    uint8_t noptm;
    /* [17.3.1] historical-events: fixed draw order, and the reshuffle after one draw */
    uint8_t hist_order[N20_MAX_CARDS], nhist;
    uint8_t hist_reshuffle_turn, hist_reshuffle_side;
    uint8_t victory; /* N20_VICTORY_* */
    uint8_t napoleon[6];        /* [16.9.6] Breaking Napoleon Table: N20_NAP_* by die - 1 */
    /* [17.1.1] French Arrival Table: rows by ascending modified die (clamped to the first and last
     * row); result N20_ARR_ALL, N20_ARR_DELAY_ALL or the number of units Delayed */
    int8_t arr_mod[12];
    uint8_t arr_res[12], narr;
    uint8_t nb_unit, nb_turn;   /* [17.1.1] D: this Leader cannot arrive before that turn; 0xff none */
    /* provenance counts (docs) */
    uint16_t n_rulebook, n_reconstructed;
    /* presentation data (the renderer; no rule reads it): the provenance of each hex's terrain
     * record, 1 + an index into prov[] (0: no record, "clear, RECONSTRUCTED default terrain"),
     * and the named places of the map (`label HEX "NAME"` records) */
    uint8_t hex_prov[N20_HEXES];
    char prov[N20_MAX_PROV][N20_PROV_TEXT]; /* "RULEBOOK <rule>" or "RECONSTRUCTED <reason>" */
    uint8_t nprov;
    struct {
        uint16_t hex;
        uint8_t prov; /* index into prov[] */
        char name[32];
    } labels[N20_MAX_LABELS];
    uint8_t nlabels;
    n20_dn_scenario dn;   /* Danube 20 exclusive rules (danube.h) */
} n20_scenario;

/* The embedded data of a scenario, NULL if unknown. */
const char *n20_data_text(const char *scenario, size_t *len);
/* Parse data text into sc. 0 or -1 with a message (line number). */
int n20_data_parse(const char *text, size_t len, n20_scenario *sc, char *msg, size_t msgmax);
/* The parsed built-in scenario (parsed once), NULL if unknown. */
const n20_scenario *n20_scenario_get(const char *scenario);
/* The name of the i-th embedded scenario, NULL past the end. */
const char *n20_data_name(size_t i);
/* The option bit of an option name, 0 if unknown. */
uint32_t n20_option_bit(const char *name);
/* The provenance text of hex h's terrain ("RULEBOOK ..." / "RECONSTRUCTED ..."); for a hex with
 * no `hex` record "RECONSTRUCTED default terrain" (clear). rulebook gets 1 for RULEBOOK. */
const char *n20_hex_provenance(const n20_scenario *sc, uint16_t h, int *rulebook);

enum { N20_NAP_ESCAPES = 0, N20_NAP_WOUNDED, N20_NAP_KILLED };
enum { N20_ARR_ALL = 0, N20_ARR_DELAY_ALL = 0xff }; /* [17.1.1] French Arrival Table results */

/* ---- the map (map.c) ------------------------------------------------------- */
static inline uint16_t n20_hex(unsigned xxyy) { return (uint16_t)((xxyy / 100) * 32 + xxyy % 100); }
static inline unsigned n20_xxyy(uint16_t h) { return (unsigned)(h / 32) * 100 + h % 32; }
/* Hexes are XXYY: XX counts rows from the south edge, YY hexes from the west edge. An odd row XX
 * touches (XX+-1, YY) and (XX+-1, YY+1); an even row (XX+-1, YY-1) and (XX+-1, YY). Directions:
 * 0 = YY-1, 1 = YY+1, 2/3 = row below, 4/5 = row above. Inline: the searches ask them millions
 * of times. The neighbour of h in direction d, -1 off the map's rows and columns. */
static inline int n20_neighbor(const n20_scenario *sc, uint16_t h, int dir, uint16_t *out) {
    int x = h / 32, y = h % 32;
    int a = (x & 1) ? 0 : -1;
    int nx = x, ny = y;
    switch (dir) {
    case 0: ny = y - 1; break;
    case 1: ny = y + 1; break;
    case 2: nx = x - 1; ny = y + a; break;
    case 3: nx = x - 1; ny = y + a + 1; break;
    case 4: nx = x + 1; ny = y + a; break;
    case 5: nx = x + 1; ny = y + a + 1; break;
    default: return -1;
    }
    if (nx < 1 || ny < 1 || nx > sc->rows || ny > sc->cols) return -1;
    *out = (uint16_t)(nx * 32 + ny);
    return 0;
}
/* direction from a to b, -1 if not adjacent */
static inline int n20_dir(const n20_scenario *sc, uint16_t a, uint16_t b) {
    int ax = a / 32, ay = a % 32, bx = b / 32, by = b % 32;
    if (bx < 1 || by < 1 || bx > sc->rows || by > sc->cols) return -1;
    int dx = bx - ax, dy = by - ay, k = (ax & 1) ? 0 : -1;
    if (dx == 0) return dy == -1 ? 0 : dy == 1 ? 1 : -1;
    if (dx != 1 && dx != -1) return -1;
    int base = dx < 0 ? 2 : 4;
    if (dy == k) return base;
    if (dy == k + 1) return base + 1;
    return -1;
}
int n20_distance(uint16_t a, uint16_t b);
int n20_is_builtup(const n20_scenario *sc, uint16_t h);
/* hexside a->b (must be adjacent): effective river kind with the weather (downpour: minor = major [5.2.1]) */
static inline int n20_side_river(const n20_scenario *sc, int weather, uint16_t a, int dir) {
    int r = sc->river[a][dir];
    if (r == N20_RIV_MINOR && (weather == N20_W_DOWNPOUR || weather == N20_W_STORM))
        return N20_RIV_MAJOR; /* [5.2.1] Downpour: treat Minor Rivers as Major */
    return r;
}
/* 1 if a major river without bridge or ford separates them (impassable) */
static inline int n20_side_blocked(const n20_scenario *sc, int weather, uint16_t a, int dir) {
    return n20_side_river(sc, weather, a, dir) == N20_RIV_MAJOR && sc->cross[a][dir] == N20_X_NONE;
}

/* ---- state (state.c) ------------------------------------------------------- */
enum { N20_U_OUT = 0, N20_U_MAP, N20_U_REINF, N20_U_BROKEN, N20_U_ELIM, N20_U_VARIABLE,
       N20_U_GARRISON /* [9.4.4] an intact Garrison Force at its hex: not a unit on the map (garrison.c) */ };
enum { N20_UF_MOVED = 1, N20_UF_CONTACT = 2, N20_UF_REACTED = 4, N20_UF_EXHAUSTED = 8,
       N20_UF_REACT_OK = 16, N20_UF_RALLIED = 32,
       N20_UF_CADRE_Q = 64, /* rolled "Cadre?" this Rally [16.5.1] */
       N20_UF_FM_ARRIVE = 128, /* [17.1.3] arrives if its army Force Marches this turn */
       N20_UF_COMMITTED = 256, /* [16.7.1] a Morale Point committed this Guard unit this turn (option only) */
       N20_UF_DUMMY_IN = 512, /* [16.1.3] a Dummy added with this player turn's arrivals */
       N20_UF_PLACED = 1024, /* [16.1.3] placed by Rally this player turn (fog-of-war) */
       N20_UF_SCHEDULED = 2048 /* [17.1.1] on the French player's secret schedule, not yet arrived */ };

typedef struct n20_unit {
    uint16_t hex;
    uint8_t where;   /* N20_U_* */
    uint8_t routed;  /* 0, or 1 + the side whose colour the marker shows [9.6.2] */
    uint16_t flags;  /* N20_UF_* */
    uint8_t arrive;  /* arrival turn for reinforcements / variable units */
    uint8_t hidden;  /* [16.1] face-down (fog-of-war only; encoded only with that option) */
} n20_unit;

/* phases and decisions */
enum {
    N20_PH_EVENTS = 0, N20_PH_MOVE, N20_PH_GOOD_GROUND, N20_PH_REACTION, N20_PH_CONTACT,
    N20_PH_DECLARE, N20_PH_BATTLES, N20_PH_DEF_RESERVE, N20_PH_EX_LOSSES, N20_PH_RETREAT,
    N20_PH_ADVANCE, N20_PH_RALLY, N20_PH_PLACE, N20_PH_OVER,
    /* transient steps run by n20_run() without a decision */
    N20_PH_AFTER_MOVE, N20_PH_REACTION_START, N20_PH_COMBAT_START, N20_PH_COMBAT_END,
    N20_PH_NIGHT_OPS, N20_PH_NIGHT_AFTER_RALLY, N20_PH_TURN_END, N20_PH_MOVE_START,
    /* a decision at set-up: the side of the Good Ground marker ([17.3] "showing either side") */
    N20_PH_GG_SETUP,
    /* optional rule [16.9] Leaders (decisions) */
    N20_PH_LEADER_RETREAT, N20_PH_WING,
    N20_PH_DUMMIES, /* [16.1.3] a decision: place the available Dummy units at Night (fog-of-war) */
    N20_PH_REBUILD, /* [17.1] SPECIAL RULE: a decision at the start of the Allied Player Turn */
    N20_PH_TURN_EVENTS, /* transient: the Random Events Phase after the start of the Player Turn */
    /* [17.1.1] Crossing the Sambre River (decisions of the French player) */
    N20_PH_SCHEDULE,      /* set-up: schedule every French reinforcement in secret */
    N20_PH_ARRIVAL,       /* units scheduled this turn: Forced March?, delay NAPOLEON?, then the roll */
    N20_PH_ARRIVAL_DELAY, /* the French Arrival Table Delays some units: choose which */

    /* ---- steps of the combinatorial decisions (legal.c): phases 40.. */
    N20_PH_STEPS_FIRST = 40,
    N20_PH_STEP_F = 40, /* [9.0] Step F: the attacker may reduce the differential [9.5] (combat.c; after a
                         * `fight` order, R-9.5-cap) */


    /* ---- Aspern-Essling 20 (ae.c): phases 50.. */
    N20_PH_AE_FIRST = 50,
    N20_PH_AE_SITE = N20_PH_AE_FIRST, /* A-E [3.0] set-up: the French choice of crossing site */


    /* ---- Wagram 20 and the Marchfeld (wagram.c): phases 60.. */
    N20_PH_WG_FIRST = 60,
    N20_PH_WG_DEPLOY,     /* [3.0] set-up: the Austrian player deploys I, II and IV on the Russbach Heights */


    N20_PH_LAST_ = 80
};

typedef struct n20_battle {
    uint8_t natt, ndef, done, countercharge;
    uint8_t att[N20_MAX_SIDE], def[N20_MAX_SIDE];
} n20_battle;

/* the battle being resolved */
typedef struct n20_fight {
    uint8_t active, battle, att_side, att_reserve, def_reserve, has_cap;
    int8_t cap;
    uint8_t result, die;
    int8_t diff;
    uint8_t ctx;               /* phase to return to: N20_PH_BATTLES or N20_PH_REACTION */
    /* retreats: queue of units with their distance */
    uint8_t nret, ret_unit[N20_MAX_SIDE], ret_dist[N20_MAX_SIDE], ret_rout[N20_MAX_SIDE];
    uint16_t ret_from[N20_MAX_SIDE]; /* battle hex of each retreating unit */
    uint8_t ret_done;
    /* retreat paths for pursuit [9.8.5] */
    uint8_t npath[N20_MAX_SIDE];
    uint16_t path[N20_MAX_SIDE][N20_MAX_PATH];
    /* advance */
    uint16_t vacated[N20_MAX_SIDE];
    uint8_t nvacated;
    uint8_t winner;            /* side that may advance; 2 = nobody */
    uint8_t adv_lost, adv_cav_done, adv_other_done, adv_rolled;
    uint8_t adv_entered;       /* bit i: a unit has entered vacated[i] [9.8.5] */
    uint8_t garde_att;         /* a Guard unit attacked */
    int8_t gain[2], loss[2];   /* morale changes collected during the battle [12.1] */
    uint8_t bomb_known, bombard; /* [16.3.2] bit i: attacker i bombards (fixed at the die roll) */
    /* [9.0] Steps B-E totalled, kept while Step F [9.5] waits for the attacker (N20_PH_STEP_F;
     * encoded only in that phase) */
    int16_t sf_att, sf_def, sf_terr, sf_support, sf_diff;
} n20_fight;

/* Game options chosen at creation ([16.0] optional rules, [17.x] variants); a bit each.
 * The table of names and of which ones are implemented is in ruleset.c (n20_options). */
enum {
    N20_OPT_OLD_DAYS = 1u << 0,        /* just-like-old-days: card #13 [3.0] */
    N20_OPT_FOG = 1u << 1,             /* fog-of-war [16.1] */
    N20_OPT_CAV_PENETRATION = 1u << 2, /* cavalry-penetration [16.2] */
    N20_OPT_ART_SUPPORT = 1u << 3,     /* artillery-support [16.3] */
    N20_OPT_RALLY_LOCATIONS = 1u << 4, /* rally-locations [16.4] */
    N20_OPT_UNIT_REDUCTION = 1u << 5,  /* unit-reduction [16.5] */
    N20_OPT_BREAKDOWN = 1u << 6,       /* breakdown [16.6] */
    N20_OPT_SPECIAL_UNITS = 1u << 7,   /* special-units [16.7] */
    N20_OPT_FATIGUE = 1u << 8,         /* fatigue [16.8] */
    N20_OPT_LEADERS = 1u << 9,         /* leaders [16.9] */
    N20_OPT_VAR_WEATHER = 1u << 10,    /* variable-weather [16.10] */
    N20_OPT_SAMBRE = 1u << 11,         /* sambre-crossing [17.1.1] */
    N20_OPT_BERTHIER_BACK = 1u << 12,  /* berthier-is-back [17.1.2] */
    N20_OPT_LOOKOUT_BULOW = 1u << 13,  /* look-out-bulow [17.1.3] */
    N20_OPT_HIST_EVENTS = 1u << 14,    /* historical-events [17.3.1] */
    N20_OPT_LOBAU = 1u << 15,          /* lobau-reinforced [17.4.1] */
    N20_OPT_RAPP = 1u << 16,           /* rapp [17.4.2] */
    /* Danube 20 */
    N20_OPT_FLORIDSDORF = 1u << 17,    /* floridsdorf-pontoon: Wagram [16.10] */
    N20_OPT_13TH_CARD = 1u << 18,      /* thirteenth-card: A-E and Wagram [17.1] */
    N20_OPT_LINZ = 1u << 19,           /* summoned-from-linz: A-E [17.2] */
    N20_OPT_BERTRAND = 1u << 20,       /* bertrand-miracle: A-E [17.3] */
};
/* options a scenario must list (`option` records) to accept them */
#define N20_OPT_SCENARIO_BOUND \
    (N20_OPT_SAMBRE | N20_OPT_LOOKOUT_BULOW | N20_OPT_HIST_EVENTS | N20_OPT_LOBAU | N20_OPT_RAPP | \
     N20_OPT_FLORIDSDORF | N20_OPT_13TH_CARD | N20_OPT_LINZ | N20_OPT_BERTRAND)

typedef struct n20_option_def {
    const char *name;
    uint32_t bit;
    int implemented; /* 0: refused with BAD_OPTION until its rules exist */
} n20_option_def;
extern const n20_option_def n20_options[];
extern const size_t n20_noptions;

typedef struct n20_state {
    const n20_scenario *sc;    /* not part of the encoding (its hash is in the log header) */
    uint32_t opts;             /* N20_OPT_* chosen at creation */
    uint8_t turn, phasing, phase, over;
    int8_t morale[2];
    uint8_t winner, level;     /* level: 0 none, 1 decisive, 2 marginal, 3 draw, 4 forfeit */
    uint8_t reason;            /* victory reason code */
    uint8_t first_turn_done;   /* for [5.0] skip of the first French events phase */
    uint8_t night_seen;        /* a Night turn has been played [13.0] */
    n20_unit u[N20_MAX_UNITS];
    /* event deck */
    uint8_t draw[N20_MAX_CARDS], ndraw, discard[N20_MAX_CARDS], ndiscard;
    uint16_t kept[2];          /* [5.0] cards each side keeps: bit = card index */
    /* this player turn */
    uint8_t fm[N20_ARMIES];    /* forced march bought [12.2.1] */
    uint8_t fm_free;           /* event: one free forced march */
    int8_t move_mod;           /* event movement modifier for the phasing side */
    uint8_t rally_event;       /* event: rally now */
    uint8_t gg_event;          /* allied drew Good Ground: decision at end of movement [5.1] */
    uint8_t battle_dice;       /* phasing side rolled battle dice this turn (for [13.0]) */
    uint8_t entered_hex_n;
    uint16_t entered_hex[8];
    uint8_t entered_cnt[8];    /* march order [11.2] */
    /* good ground marker */
    uint8_t gg_unit, gg_immune;
    uint16_t gg_hex;
    /* disengagement awaiting contact [8.2.4] */
    uint8_t dis_unit;
    uint16_t dis_from;
    /* rally [10.0] */
    uint8_t rally_done;
    /* [16.9] leaders (encoded only with the option) */
    uint8_t ldr_ctx;           /* phase to return to after a lone Leader's retreat [16.9.3] */
    uint8_t ldr_place;         /* placing auto-rallied Leaders at the start of the Movement Phase [16.9.7] */
    uint8_t wing_done;         /* the French Wing Commanders decision of this player turn is taken */
    uint8_t rally_on;          /* [16.9.8] 1 + the Leader named by this turn's "Rallying on" event; 0 none */
    uint8_t sambre_delay;      /* [17.1.1] units still to be chosen as Delayed (encoded only with the option) */
    /* battles of this combat phase */
    uint8_t nbattles;
    n20_battle b[N20_MAX_BATTLES];
    n20_fight f;
    /* optional rules [16.0]; encoded only when their option is chosen */
    uint8_t fatigue[N20_MAX_UNITS]; /* [16.8] 0 Fresh, 1 Ready, 2 Tired, 3 Weary, 4 Spent */
    uint8_t wx, wx_worse, mud;      /* [16.10] Weather box, Worsening side up, Mud marker's turn (0 none) */
    /* [17.1] SPECIAL RULE, per parent unit (a unit detached Cadres name): the Turn on which one of
     * its detached Cadres was first Broken while it was still broken down; 0 never. Encoded for
     * parent units only (none in the Standard Scenario). */
    uint8_t cadre_lost[N20_MAX_UNITS];
    n20_dn_state dn;      /* Danube 20 (danube.h); encoded only in v3 games */
} n20_state;

/* the scenario has the A-E crossing-site rules (danube.h) */
static inline int n20_ae(const n20_state *s) { return s->sc->dn.nsites > 0; }

enum { N20_FAT_FRESH = 0, N20_FAT_READY, N20_FAT_TIRED, N20_FAT_WEARY, N20_FAT_SPENT };
/* [16.8] the Fatigue Level of unit u (0 when the option is not chosen) */
static inline int n20_fatigue(const n20_state *s, int u) {
    return (s->opts & N20_OPT_FATIGUE) ? s->fatigue[u] : 0;
}

/* ---- events output -------------------------------------------------------- */
typedef struct n20_out {
    void (*emit)(void *ctx, const uint8_t *data, size_t len);
    void *ctx;
} n20_out;

/* Per-seat delivery: an n20_out {n20_sink_emit, &sink} gets every event with the bit mask of the
 * seats entitled to it (BRT_SEATS_ALL = public, 0 = the log only). With fog-of-war [16.1] an
 * event naming a hidden unit goes in full to its owner and redacted to the other seat. Any other
 * n20_out gets the full events only. */
typedef struct n20_sink {
    void (*emit_to)(void *ctx, uint32_t seats, const uint8_t *data, size_t len);
    void *ctx;
} n20_sink;
void n20_sink_emit(void *sink, const uint8_t *data, size_t len); /* = emit_to(ctx, BRT_SEATS_ALL, ...) */

/* Emit one event: kind, units (unit indices, may be NULL), hexes, values, and its text.
 *
 * The text names units only through placeholders into the event's own `units` list, never by
 * their ids: N20_U(i) (the byte 0x1F, ASCII Unit Separator, then one index character) stands
 * for units[i]. The index character is '0'..'9' for units 0..9 and 'A'..'F' for units 10..15
 * (a battle names up to 2 * N20_MAX_SIDE = 16 units); N20_U(0) .. N20_U(15) write them, and
 * n20_u_list() a run of them joined with ", " for a list of variable length. 0x1F occurs in no
 * other text of the ruleset (scenario data, card titles and the format strings are printable),
 * so a placeholder is never confused with other bytes. Write
 * "[8.2.4] " N20_U(0) "'s In Contact marker is removed" with units = {u}, not "%s" and
 * n20_uid(s, u). The text is rendered once per party: for the full copy (the log, the unit's
 * owner, any seat that may see every named unit) with the real ids; for a seat from which a
 * named unit is hidden [16.1] [17.1.1] with n20_uid_seat()'s anonymous name: "a unit" in the
 * text and the handle @XXYY in `units` (and no values); for the spectators (BRT_VIEW_PUBLIC)
 * the same with every unit hidden from either seat. Redaction never searches the text. */
#define N20_U(i) N20_U_##i
#define N20_U_0 "\x1f" "0"
#define N20_U_1 "\x1f" "1"
#define N20_U_2 "\x1f" "2"
#define N20_U_3 "\x1f" "3"
#define N20_U_4 "\x1f" "4"
#define N20_U_5 "\x1f" "5"
#define N20_U_6 "\x1f" "6"
#define N20_U_7 "\x1f" "7"
#define N20_U_8 "\x1f" "8"
#define N20_U_9 "\x1f" "9"
#define N20_U_10 "\x1f" "A"
#define N20_U_11 "\x1f" "B"
#define N20_U_12 "\x1f" "C"
#define N20_U_13 "\x1f" "D"
#define N20_U_14 "\x1f" "E"
#define N20_U_15 "\x1f" "F"
#define N20_U_MARK '\x1f'
#define N20_U_MAX 16 /* placeholders N20_U(0) .. N20_U(15) */
/* The placeholders of units[from] .. units[from + n - 1] joined with ", " in buf (a "%s"
 * argument of an event's template); at most N20_U_MAX indices, 4 bytes each with ", ":
 * cap >= 4 * N20_U_MAX holds any list. Returns buf. */
const char *n20_u_list(char *buf, size_t cap, int from, int n);
void n20_event(n20_out *out, const n20_state *s, const char *kind, const int *units, int nunits,
               const uint16_t *hexes, int nhexes, const int *values, int nvalues,
               const char *fmt, ...) __attribute__((format(printf, 10, 11)));
#define N20_EV(out, s, kind, ...) n20_event(out, s, kind, NULL, 0, NULL, 0, NULL, 0, __VA_ARGS__)

int n20_reject(brt_reject *r, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A unit named in a rejection message. A rejection goes only to the seat that sent the order, the
 * deciding seat (n20_apply refuses any other before a check runs): the unit is named as that seat
 * may know it, n20_uid_seat() (its handle @XXYY if it is hidden from the seat [16.1] [17.1.1]).
 * The name lives until the end of the enclosing block. */
#define N20_RUID(s, u) n20_uid_seat((s), (u), n20_pending_seat(s), (char[N20_NAME]){0})

/* ---- state functions (state.c) --------------------------------------------- */
n20_state *n20_state_new(const n20_scenario *sc);
void n20_card_discard_kept(n20_state *s, int side, int card, n20_out *out, const char *why);
int n20_card_kept(const n20_state *s, int side, unsigned number);
int n20_setup(n20_state *s, brt_dice *dice, n20_out *out, uint32_t opts, brt_reject *err);
int n20_encode(const n20_state *s, brt_buf *out);
int n20_unit_find(const n20_state *s, const char *id);
/* 1 if unit u is part of this game (its `if`/`unless` option conditions hold) */
int n20_unit_in_game(const n20_state *s, int u);
int n20_unit_at(const n20_state *s, uint16_t hex); /* -1 if none (units on the map; never a Leader [16.9]) */
/* inline: asked in every step of the searches */
static inline int n20_side_of(const n20_state *s, int u) { return s->sc->units[u].side; }
static inline const char *n20_uid(const n20_state *s, int u) { return s->sc->units[u].id; }
static inline int n20_is_night(const n20_state *s) { return s->turn < N20_MAX_TURNS && s->sc->turns[s->turn].night; }
int n20_weather_variable(const n20_state *s); /* [16.10.2] */
static inline int n20_weather(const n20_state *s) {
    if (s->opts & N20_OPT_VAR_WEATHER) return n20_weather_variable(s); /* [16.10] */
    int w = s->turn < N20_MAX_TURNS ? s->sc->turns[s->turn].weather : N20_W_CLEAR;
    return w == N20_W_STORM ? N20_W_DOWNPOUR : w; /* rulings.md R-5.2-storm */
}
const char *n20_weather_name(int w);
const char *n20_army_name(int a);
const char *n20_side_name(int side);
int n20_army_of(const char *name);

/* ---- leaders [16.9] (leader.c) ------------------------------------------ */
int n20_is_leader(const n20_state *s, int u);
/* 1 if a unit of the side other than `side` (a Leader too) is on the map at h */
int n20_enemy_at(const n20_state *s, uint16_t h, int side);
/* 1 if a friendly non-Leader unit shares the Leader's hex */
int n20_leader_stacked(const n20_state *s, int l);
/* the first Leader that must retreat now [16.9.3], -1 */
int n20_leader_must_retreat(const n20_state *s);
/* [16.9.5] are the attackers of battle b In Command */
int n20_in_command(const n20_state *s, const n20_battle *b);
/* [16.9.6] break a Leader: no Morale penalty; Napoleon rolls on the Breaking Napoleon Table */
void n20_leader_break(n20_state *s, int l, brt_dice *dice, n20_out *out, const char *why);
int n20_leader_retreat_check(const n20_state *s, int l, const uint16_t *path, int n, brt_reject *err);
void n20_leader_retreat_apply(n20_state *s, int l, const uint16_t *path, int n, brt_dice *dice,
                              n20_out *out);
/* [16.9.5] Leaders stacked at `from` accompany unit u's retreat, or break with it */
void n20_leaders_follow(n20_state *s, int u, uint16_t from, brt_dice *dice, n20_out *out);
/* [16.9.4] [16.9.5] Leaders stacked with u that accompany its Disengagement or Advance */
int n20_leaders_accompany_check(const n20_state *s, int u, const int *ls, int nl, const char *rule,
                                brt_reject *err);
void n20_leaders_accompany_apply(n20_state *s, int u, uint16_t from, const int *ls, int nl, n20_out *out,
                                 const char *rule);
int n20_leaders_with(const n20_state *s, int u, int *ls, int max);
/* [16.9.8] h is an additional Rally location for u (the "Rallying on" event, with 16.4) */
int n20_rally_on_hex(const n20_state *s, int u, uint16_t h);
/* run hook: leaders that must retreat now; 1 if a decision is pending */
int n20_leader_step(n20_state *s, brt_dice *dice, n20_out *out);
/* [16.9.7] automatic rally at the beginning of the Movement Phase; 1 if placement is pending */
int n20_leader_rally(n20_state *s, n20_out *out);
/* French Wing Commanders: the leader to split off or merge; -1 none */
int n20_wing_check(const n20_state *s, int l, brt_reject *err);
void n20_wing_apply(n20_state *s, int l, n20_out *out);
int n20_wing_any(const n20_state *s);
/* [17.1.2] Berthier is Back! with [16.9]: the French Wing Commanders provisions are ignored */
int n20_berthier_leaders(const n20_state *s);
/* [17.1.2] set-up: the 3-rated NAPOLEON takes the place the scenario gives the 2-rated one */
void n20_berthier_setup(n20_state *s);

/* ---- Crossing the Sambre River [17.1.1] (sambre.c) ------------------------- */
int n20_sambre(const n20_state *s);
/* fog-of-war or sambre-crossing: events, rejections and names are redacted per seat */
int n20_redacts(const n20_state *s);
void n20_sambre_setup(n20_state *s);
/* u may be scheduled on turn t now (constraints A-D, and the others can still be scheduled) */
int n20_schedule_check(const n20_state *s, int u, int t, brt_reject *err);
void n20_schedule_apply(n20_state *s, int u, int t, n20_out *out);
/* `end` of the set-up decision: every unscheduled unit on its [17.1] turn where it may be, else the
 * earliest turn it may be */
void n20_schedule_finish(n20_state *s, n20_out *out);
/* 1 if French units are scheduled to arrive this turn (the arrival decision is due) */
int n20_arrival_due(const n20_state *s);
/* the arrival roll's modifier [17.1.1] */
int n20_arrival_modifier(const n20_state *s);
int n20_delay_check(const n20_state *s, int u, brt_reject *err);
void n20_delay_apply(n20_state *s, int u, n20_out *out);
/* `end` of the arrival decision: Leaders arrive, the die is rolled on the French Arrival Table */
void n20_arrival_roll(n20_state *s, brt_dice *dice, n20_out *out);
/* an event in full for one seat (and the log); the other seat gets `other` as its text and nothing
 * else (so that both seats get one event each) */
void n20_event_private(n20_out *out, const n20_state *s, int seat, const char *other, const char *kind,
                       const int *units, int nunits, const int *values, int nvalues, const char *fmt, ...)
    __attribute__((format(printf, 10, 11)));

/* ---- special troop units [16.7] (special.c) -------------------------------- */
/* [16.7.1] Elan and [16.7.4] Unreliable rolls at Step D: the change to the side's strength */
int n20_special_step_d(n20_state *s, const uint8_t *units, int n, int attacking, int reserve, brt_dice *dice,
                       n20_out *out);
/* [16.7.5] a Reluctant unit that wants to advance rolls first; 1 if control is Lost */
int n20_reluctant_lost(n20_state *s, int u, brt_dice *dice, n20_out *out);

/* ---- garrisons [9.4.4] (garrison.c) ---------------------------------------- */
/* a Garrison Force (flag garrison), and a Wagram [9.11] Lobau Island Battery (garrison,battery) */
static inline int n20_is_garrison(const n20_state *s, int u) {
    return u >= 0 && u < s->sc->nunits && (s->sc->units[u].flags & N20_FLAG_GARRISON) != 0;
}
int n20_is_battery(const n20_state *s, int u);
/* an intact Garrison with no friendly unit in its hex (else it is ignored completely [9.4.4]) */
int n20_garrison_active(const n20_state *s, int u);
/* u takes part in ZOC, adjacency and battles: a unit on the map or an active Garrison */
int n20_map_force(const n20_state *s, int u);
/* the intact Garrison at h, -1 */
int n20_garrison_at(const n20_state *s, uint16_t h);
/* [9.4.4.1] an intact Garrison of the enemy of `side` is at h: side's units may not enter it
 * (but by Advancing after Combat) */
int n20_garrison_blocks(const n20_state *s, uint16_t h, int side);
/* [9.4.4.1] every unit of the list is a Garrison (no reserves for such a battle) */
int n20_garrison_only(const n20_state *s, const uint8_t *units, int n);
/* declaring Garrison a as an attacker [9.4.4.1] [9.11], Garrison d as a defender [9.4.4] */
int n20_garrison_attacker_check(const n20_state *s, int a, brt_reject *err);
int n20_garrison_defender_check(const n20_state *s, int d, brt_reject *err);
/* the events of a combat result for the Garrisons of the battle (rulings R-dn-garrison-crt) */
void n20_garrison_result(n20_state *s, const n20_battle *b, int res, n20_out *out);
/* [9.4.4.2] Rearguards: the victorious defenders of the battle being resolved cannot advance */
int n20_garrison_rearguard(const n20_state *s);
/* Garrison g intact at h (an exclusive rule's set-up, e.g. the A-E [9.10] Bridgehead at the chosen site) */
void n20_garrison_place(n20_state *s, int g, uint16_t h);
/* [9.4.4.4] Garrison g is destroyed (by: the enemy unit occupying its hex, or -1); no Morale [9.4.4.5] */
void n20_garrison_destroy(n20_state *s, int g, int by, n20_out *out);
/* [9.4.4.3] [9.4.4.4] unit u entered these hexes: the enemy Garrisons there are destroyed */
void n20_garrison_entered(n20_state *s, int u, const uint16_t *path, int n, n20_out *out);
/* Wagram [9.11] +2 for each French unit of battle b defending in a Battery hex */
int n20_garrison_def_bonus(const n20_state *s, const n20_battle *b);
/* Wagram [9.11] Battery a gives defensive support [16.3.1] to d across any hexside */
int n20_battery_supports(const n20_state *s, int a, int d);
/* h is a Fortified or Redoubt hex (s may be NULL: the map only; with s, the A-E [9.10]
 * Bridgehead is a Redoubt while it stands) */
int n20_is_fortified(const n20_scenario *sc, const n20_state *s, uint16_t h);
/* the Terrain Effects Chart kind of h in this state */
int n20_terrain_at(const n20_state *s, uint16_t h);
/* [7.0] a Town, Fortified or Redoubt hex (a "built-up" area) in this state */
int n20_is_builtup_at(const n20_state *s, uint16_t h);

/* ---- zones of control (zoc.c) --------------------------------------------- */
/* 1 if unit u exerts a ZOC into hex h [7.0] */
int n20_exerts_zoc(const n20_state *s, int u, uint16_t h);
/* 1 if hex h is in the ZOC of a unit of side `enemy` [7.0]; ignore_bridged: the
 * phasing player ignores ZOC across bridged/forded major rivers [7.1] */
int n20_in_ezoc(const n20_state *s, uint16_t h, int enemy, int ignore_bridged);
/* units u and v are adjacent for the rules (not across an impassable major river) [7.1] */
int n20_adjacent_units(const n20_state *s, int u, int v);
int n20_loc_distance(const n20_state *s, int army, uint16_t h);

/* Lookups derived from a state, built once for a query that asks many (legal() and its path
 * searches). Never stored in n20_state, encoded, hashed or logged: valid only while the state it
 * was built from does not change. */
typedef struct n20_index {
    int8_t at[N20_HEXES];   /* = n20_unit_at(): the first unit on the map in the hex, -1 */
    uint8_t zoc[N20_HEXES]; /* bit 2*side: a unit of `side` exerts a ZOC into the hex; bit
                             * 2*side+1: one across a bridged or forded Major River [7.1] */
} n20_index;
void n20_index_build(const n20_state *s, n20_index *ix);
/* = n20_unit_at(s, h) */
static inline int n20_ix_unit_at(const n20_index *ix, uint16_t h) {
    return h < N20_HEXES ? ix->at[h] : -1;
}
/* = n20_in_ezoc(s, h, enemy, ignore_bridged) */
static inline int n20_ix_in_ezoc(const n20_index *ix, uint16_t h, int enemy, int ignore_bridged) {
    return h < N20_HEXES && ((ix->zoc[h] >> (2 * enemy)) & (ignore_bridged ? 1 : 3)) != 0;
}

/* ---- the sequence of play (sequence.c) ------------------------------------ */
/* Run the automatic steps until a decision is pending or the game ends. */
void n20_run(n20_state *s, brt_dice *dice, n20_out *out);
void n20_pending(const n20_state *s, brt_pending *p);
int n20_pending_seat(const n20_state *s); /* -1 when over */

/* ---- events [5.0] (events.c) ---------------------------------------------- */
void n20_events_phase(n20_state *s, brt_dice *dice, n20_out *out);
void n20_deck_reshuffle(n20_state *s, brt_dice *dice, n20_out *out, const char *why);

/* ---- movement [6.0] [11.0] (movement.c) ------------------------------------ */
int n20_move_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err,
                   int *guard_cost);
void n20_move_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out);
/* the same with the [12.3.1] Guard commitment n20_move_check gave for this path (found valid) */
void n20_move_apply_gc(n20_state *s, int u, const uint16_t *path, int n, int gc, n20_out *out);
int n20_move_allowance(const n20_state *s, int u);
int n20_can_enter_now(const n20_state *s, int u);
/* every destination with one path: calls fn for each; returns count */
int n20_move_destinations(const n20_state *s, int u,
                          void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx);
/* the same with the state's index (n20_index_build), to share one index between units */
int n20_move_destinations_ix(const n20_state *s, int u, const n20_index *ix,
                             void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx);
/* The same search, in two parts: n20_move_candidates calls fn for every destination whose path's
 * steps are valid (the same paths in the same order), n20_move_end_check (0 or -1) makes the
 * checks at its end; the destinations are the candidates it accepts. Outside the A-E, Wagram
 * crossing and Garrison rules, the candidates do not depend on where the other units of the
 * unit's side stand: only the end check reads that (legal.c keeps the candidates of a Movement
 * Phase so). */
int n20_move_candidates(const n20_state *s, int u, const n20_index *ix,
                        void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx);
int n20_move_end_check(const n20_state *s, int u, const uint16_t *path, int n, const n20_index *ix);
/* card: 0 to pay a Morale Point, or the number of a kept Event card giving a free Forced March */
int n20_forced_march_check(const n20_state *s, int army, unsigned card, brt_reject *err);
void n20_forced_march_apply(n20_state *s, int army, unsigned card, n20_out *out);
int n20_end_move_check(const n20_state *s, brt_reject *err);

/* ---- reaction [8.0] (reaction.c) ------------------------------------------ */
int n20_reaction_eligible(const n20_state *s, int u);
int n20_disengage_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err);
void n20_disengage_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out);
int n20_disengage_paths(const n20_state *s, int u,
                        void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx);
int n20_contact_check(const n20_state *s, int u, brt_reject *err);
void n20_contact_apply(n20_state *s, int u, n20_out *out);
int n20_countercharge_check(const n20_state *s, const int *att, int na, const int *def, int nd,
                            brt_reject *err);

/* ---- combat [9.0] (combat.c) ---------------------------------------------- */
int n20_declare_check(const n20_state *s, const n20_battle *b, int nb, brt_reject *err);
/* one valid declaration (star partition of the obligations) */
int n20_declare_canonical(const n20_state *s, n20_battle *b, int max);
int n20_must_attack(const n20_state *s, int u);
int n20_resolve_check(const n20_state *s, int battle, int reserve, brt_reject *err);
void n20_battle_begin(n20_state *s, int battle, int reserve, int has_cap, int cap, brt_dice *dice,
                      n20_out *out);
void n20_battle_defender_reserve(n20_state *s, int commit, brt_dice *dice, n20_out *out);
/* has_cap of n20_battle_begin: 0 no reduction, 1 at most `cap` (standing instructions given with the
 * resolve order), N20_CAP_STEP_F the attacker decides at Step F (the `fight` order) */
#define N20_CAP_STEP_F 2
/* [9.0] Step F [9.5]: the attacker resolves at differential `diff` (reduce) or at the actual one */
int n20_step_f_check(const n20_state *s, int reduce, int diff, brt_reject *err);
void n20_step_f_apply(n20_state *s, int reduce, int diff, brt_dice *dice, n20_out *out);
/* the CRT columns the Step F decision may name: [lo, *hi]; 0 when no decision is pending */
int n20_step_f_range(const n20_state *s, int *lo, int *hi);
int n20_defender_may_reserve(const n20_state *s);
int n20_attacker_may_reserve(const n20_state *s, const n20_battle *b);
int n20_losses_check(const n20_state *s, const int *units, int n, brt_reject *err);
void n20_losses_apply(n20_state *s, const int *units, int n, brt_dice *dice, n20_out *out);
void n20_battle_continue(n20_state *s, brt_dice *dice, n20_out *out);
void n20_break_unit(n20_state *s, int u, n20_out *out, const char *why);
void n20_battle_finish(n20_state *s, brt_dice *dice, n20_out *out);
int n20_combat_strength(const n20_state *s, int u, int attacking, int countercharge, int vs_cav);

/* ---- retreat [9.7] (retreat.c) -------------------------------------------- */
int n20_retreat_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err);
void n20_retreat_apply(n20_state *s, int u, const uint16_t *path, int n, brt_dice *dice,
                       n20_out *out);
int n20_retreat_paths(const n20_state *s, int u,
                      void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx,
                      int max);
/* the same with the state's index (n20_index_build) */
int n20_retreat_paths_ix(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                         void *ctx, int max, const n20_index *ix);
int n20_retreat_current(const n20_state *s); /* unit that must retreat now, -1 */
int n20_retreat_has_first_step(const n20_state *s, int u);

/* ---- advance [9.8] (advance.c) -------------------------------------------- */
void n20_advance_begin(n20_state *s, brt_dice *dice, n20_out *out);
int n20_advance_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err);
void n20_advance_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out);
int n20_advance_end_check(const n20_state *s, brt_reject *err);
int n20_advance_paths(const n20_state *s, int u,
                      void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx);
int n20_advance_any(const n20_state *s);

/* ---- rally [10.0] (rally.c) ------------------------------------------------ */
int n20_rally_check(const n20_state *s, const int *armies, int n, brt_reject *err);
void n20_rally_apply(n20_state *s, const int *armies, int n, brt_dice *dice, n20_out *out);
int n20_place_check(const n20_state *s, int u, uint16_t hex, brt_reject *err);
void n20_place_apply(n20_state *s, int u, uint16_t hex, n20_out *out);
int n20_has_broken(const n20_state *s, int side, int army);
int n20_has_rallied(const n20_state *s, int side);

/* ---- morale [12.0] (morale.c) --------------------------------------------- */
/* apply gains then losses at once [12.1]; checks [12.1.2] */
void n20_morale_change(n20_state *s, const int8_t gain[2], const int8_t loss[2], n20_out *out,
                       const char *why);
void n20_morale_one(n20_state *s, int side, int delta, n20_out *out, const char *why);
int n20_guard_commit_cost(const n20_state *s, int u, uint16_t from, uint16_t to);
int n20_guard_commit_cost_ix(const n20_state *s, int u, uint16_t from, uint16_t to, const n20_index *ix);

/* ---- night [14.0] (night.c) ----------------------------------------------- */
void n20_night_ops_auto(n20_state *s, n20_out *out);

/* ---- fog of war [16.1] (fog.c) ------------------------------------------- */
int n20_fog(const n20_state *s);
/* 1 if unit u is a face-down enemy unit for `seat` (never for seat < 0) */
int n20_fog_hidden_from(const n20_state *s, int u, int seat);
/* the unit's id, or its anonymous handle "@XXYY" when hidden from seat */
const char *n20_uid_seat(const n20_state *s, int u, int seat, char buf[N20_NAME]);
/* a unit named in an order by `seat`: an id it may know, or a handle @XXYY; -1 if none */
int n20_fog_resolve(const n20_state *s, int seat, const char *name);
void n20_fog_reveal(n20_state *s, int u, n20_out *out, const char *why);
/* (roll.c) the seats that may see a roll deciding about these units before the end: those from
 * which none of them is hidden [16.1] [17.1.1] (DICE_SEEN_BY_ALL without hidden units) */
uint32_t n20_roll_seats(const n20_state *s, const int *units, int nunits);
/* a d6 for these units, seen only by n20_roll_seats */
uint32_t n20_roll(const n20_state *s, brt_dice *dice, const int *units, int nunits, const char *purpose);
/* [16.1.1] seat may reveal its own hidden unit u now (at any of its decisions) */
int n20_reveal_check(const n20_state *s, unsigned seat, int u, brt_reject *err);
/* unit indices: with fog-of-war, the units on the map in hex order then the others; else 0..n-1 */
void n20_fog_order(const n20_state *s, int *ord);
/* sort the length-prefixed items of out from byte `start` (bytewise) */
void n20_fog_sort_items(brt_buf *out, size_t start);
void n20_fog_scout(n20_state *s, n20_out *out);
void n20_fog_reconceal(n20_state *s, int side, n20_out *out);
/* [16.1.3] Dummy units */
int n20_dummy_may_enter(const n20_state *s, int u, brt_reject *err);
int n20_dummy_entry_hex(const n20_state *s, uint16_t h);
int n20_dummy_place_check(const n20_state *s, int u, uint16_t hex, brt_reject *err);
void n20_dummy_place_apply(n20_state *s, int u, uint16_t hex, n20_out *out);
int n20_dummy_any_placement(const n20_state *s, int side);
/* after the reveals of a declaration: revealed Dummies leave their battles; a battle left
 * without attackers or defenders is done, with no combat and no advance */
void n20_fog_prune_battles(n20_state *s, n20_out *out);
int n20_nunits_encoded(const n20_state *s);

/* ---- victory [15.0] (victory.c) ------------------------------------------- */
void n20_check_morale_zero(n20_state *s, n20_out *out);
void n20_game_end(n20_state *s, n20_out *out, const char *why);
void n20_game_end_napoleon_killed(n20_state *s, n20_out *out);
void n20_result(const n20_state *s, brt_result *r);
void n20_resign(n20_state *s, unsigned seat, n20_out *out);

/* ---- orders (orders.c, orders_text.c, legal.c) ---------------------------- */
int n20_apply(n20_state *s, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice,
              n20_out *out, brt_reject *err);
int n20_legal(const n20_state *s, unsigned seat, brt_buf *out);
/* [9.2] the step form of the declaration (legal.c): 0 when battle b may be added to the battles
 * declared so far (s->b[0..nbattles)) and leaves a declaration that can still be completed */
int n20_declare_one_check(const n20_state *s, const n20_battle *b, brt_reject *err);
/* 1 while a declaration or a retreat is being given step by step (no [16.1.1] reveal then) */
int n20_stepping(const n20_state *s);
/* 1 when the declared battles can be completed into one n20_declare_check accepts */
int n20_declare_completable(const n20_state *s, const n20_battle *b, int nb);
/* [9.1] [9.1.1] [9.2.1] the attack of `att` obliges enemy unit e to be attacked (combat.c) */
int n20_declare_obliges(const n20_state *s, int att, int e);
/* [9.7] the step form of the retreat (retreat.c): the current unit's path so far is kept in
 * s->f.path[k] / npath[k] until it is complete (then carried out as the whole-path retreat) */
int n20_retreat_stepped(const n20_state *s);
int n20_retreat_step_check(const n20_state *s, int u, uint16_t hex, brt_reject *err);
/* the same with the state's index (n20_index_build), to share one between the checks of a legal() */
int n20_retreat_step_check_ix(const n20_state *s, int u, uint16_t hex, brt_reject *err, const n20_index *ix);
int n20_retreat_step_apply(n20_state *s, int u, uint16_t hex, brt_dice *dice, n20_out *out); /* 1: done */
int n20_retreat_stop_check(const n20_state *s, int u, brt_reject *err);
int n20_retreat_stop_check_ix(const n20_state *s, int u, brt_reject *err, const n20_index *ix);
void n20_retreat_stop_apply(n20_state *s, int u, brt_dice *dice, n20_out *out);
/* every path beginning with the current unit's steps: fn for each (unbounded but for depth) */
int n20_retreat_paths_from(const n20_state *s, int u, const uint16_t *pre, int npre,
                           void (*fn)(void *ctx, int u, const uint16_t *path, int n), void *ctx, int max);
int n20_order_parse(const n20_state *s, const char *text, brt_buf *out, brt_reject *err);
int n20_order_format(const uint8_t *order, size_t len, brt_buf *out);
int n20_event_format(const uint8_t *event, size_t len, brt_buf *out);
int n20_view(const n20_state *s, int seat, brt_buf *out);
int n20_view_text(const n20_state *s, int seat, brt_buf *out);
/* (render.c) the picture of the state for a viewpoint (a seat, BRT_VIEW_ALL, BRT_VIEW_PUBLIC): one
 * SVG document appended to out (docs/render.md); the bare map of a scenario with its provenance */
int n20_render(const n20_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out);
int n20_render_map(const n20_scenario *sc, brt_buf *out);

/* ---- optional rules [16.0] (optional.c) ------------------------------------ */
int n20_art_support(const n20_state *s, int d);                    /* [16.3.1] */
int n20_bombard_pair(const n20_state *s, int a, int e);            /* [16.3.2] */
int n20_bombards(const n20_state *s, const n20_battle *b, int a);  /* [16.3.2] */
int n20_penetrate_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err); /* [16.2] */
void n20_penetrate_apply(n20_state *s, int u, uint16_t to, n20_out *out);
void n20_fatigue_exhaust(n20_state *s, const n20_battle *b, n20_out *out); /* [16.8.1] */
void n20_fatigue_recover(n20_state *s, n20_out *out);                        /* [16.8.3] */
const char *n20_fatigue_name(int level);
int n20_rally_hex_check(const n20_state *s, int u, uint16_t hex, brt_reject *err); /* [16.4] */
int n20_rally_path(const n20_state *s, int side, uint16_t from, uint16_t loc);        /* [16.4] */
int n20_reduce_check(const n20_state *s, int u, brt_reject *err);          /* [16.5.1] */
void n20_reduce_apply(n20_state *s, int u, n20_out *out);
int n20_cadre_pool(const n20_state *s, int army, int skip);                  /* [16.5] -1 none */
/* [16.6.1] dummy: also add a Dummy unit to the stack ([16.1] fog-of-war, an unrevealed unit) */
int n20_breakdown_check(const n20_state *s, int u, int dummy, brt_reject *err);
void n20_breakdown_apply(n20_state *s, int u, int dummy, n20_out *out);
int n20_breakdown_dummy(const n20_state *s, int u);                          /* the Dummy it would add, -1 */
int n20_combine_ok(const n20_state *s, int u, int v);                        /* [16.6.2] */
void n20_combine_all(n20_state *s, n20_out *out);                            /* [16.6.2] */
/* [17.1] SPECIAL RULE: rebuilding a parent unit from the Broken pile */
int n20_is_parent(const n20_scenario *sc, int p);            /* detached Cadres name p */
void n20_detached_broken(n20_state *s, int c);               /* hook: Cadre c is being Broken */
int n20_rebuild_parent(const n20_state *s, int c);           /* the parent c's elimination restores, -1 */
int n20_rebuild_check(const n20_state *s, int c, brt_reject *err);
void n20_rebuild_apply(n20_state *s, int c, n20_out *out);
int n20_rebuild_any(const n20_state *s);                     /* 1 if a rebuild order is legal now */
void n20_weather_setup(n20_state *s);                                       /* [16.10] */
int n20_weather_variable(const n20_state *s);                               /* [16.10.2] */
void n20_weather_roll(n20_state *s, brt_dice *dice, n20_out *out);          /* [16.10.1] */
void n20_weather_card(n20_state *s, int card_number, n20_out *out);         /* [16.10.1] */
void n20_weather_turn_end(n20_state *s, n20_out *out);                      /* [16.10.2] */
int n20_penetrate_paths(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                        void *ctx);

/* ---- editions (edition.c) ---------------------------------------------------------------- */
/* the series rules an edition plays: docs/n20-editions.md sections 1 and 5, a bit each */
enum { N20_EDF_BRIDGE_ZOC = 1,        /* v4 [7.1] ZOCs across bridged/forded Major Rivers (v3 [7.0]: never) */
       N20_EDF_CONTACT = 2,           /* v4 [8.2.4] Maintaining Contact (v3 [8.3.4]: none) */
       N20_EDF_ROUTED_NO_CC = 4,      /* v4 [8.1.1] Routed Cavalry cannot Countercharge (v3 [8.1]: may) */
       N20_EDF_FORT_ROUT_MOD = 8,     /* v4 [9.6.2.1] -1 to the Rout roll in Fortified (v3 [9.8.1]: none) */
       N20_EDF_ADVANCE_V4 = 16,       /* v4 [9.8.2] [9.8.5] one hex, Cavalry pursue (v3 [9.9.2] [9.9.3]) */
       N20_EDF_GUARD_EZOC = 32,       /* v4 [12.3.1] no cost for a Guard already in an EZOC (v3: none) */
       N20_EDF_LULL_ONE_SIDE = 64,    /* v4 [13.0] the resting side's units on the map (v3: both sides') */
       N20_EDF_ELAN = 128,            /* v4 [16.7.1] Elite Elan (v3: none) */
       N20_EDF_RELUCTANT = 256,       /* v4 [16.7.5] Reluctant Troops (v3: none) */
       N20_EDF_VAR_WEATHER = 512      /* v4 [16.10] Variable Weather (v3 [16.10] is an exclusive rule) */ };
int n20_ed_has(const n20_state *s, uint32_t rule);               /* 1 if the game's edition plays it */
int n20_v3(const n20_state *s);                                  /* the game plays v3.0 (Danube 20) */
const char *n20_ed_rule(const n20_state *s, const char *rule);   /* a v4 rule number as the edition cites it */
void n20_ed_cite(const n20_state *s, char *text, size_t cap);    /* every "[x.y" of a text, as cited */
void n20_ed_reject(const n20_state *s, brt_reject *err);         /* a rejection, as the edition cites it */
int n20_ed_option_check(const n20_scenario *sc, uint32_t bit, brt_reject *err); /* -1: not in this edition */
int n20_adjacent_react(const n20_state *s, int u, int v);        /* adjacent for [8.0]; v3 [7.0] */
int n20_light_rugged(const n20_state *s, int u, int *cost);      /* [16.7.2] [16.7.3] Rugged: 1 no stop */
int n20_light_one_mp(const n20_state *s, int u, uint16_t to, int road); /* [16.7.3] last MP */
int n20_light_disengages(const n20_state *s, int u);             /* [16.7.2] [16.7.3] may Disengage */
int n20_light_unpinned(const n20_state *s, int u);               /* [16.7.3] Cossacks ignore [8.2.2] */
int n20_light_no_charge(const n20_state *s, int u);       /* [16.7.2] [16.7.3]: no Countercharge, no Penetration */

#endif
