/*
 * wem.h - Waterloo: Enemy Mistakes (the `wem` ruleset).
 *
 * Rules: the rulebook (seeds/004), cited by its headings and page numbers as printed, e.g.
 * [3.2 Issue Orders], [Withdraw], [Attaching p7]; the publisher's FAQ where its text is known.
 * Rulings: docs/rulings.md section "wem" (R-wem-...). Data: docs/wem-data.md. Geometry: geom.h.
 * File map: rules/wem/README.md.
 *
 * Armies: WEM_BLUE (French), WEM_RED (English), WEM_BLACK (Prussian, from turn VIII).
 * Seats: 3 players: 0 blue, 1 red, 2 black; 2 players: 0 blue, 1 red (who also plays black
 * from turn VIII) [Game Preparation 1] [Introduction].
 *
 * Chance: d6 and 2d6 through the core (brt_dice). Hidden information: only the sealed
 * initiative bids [1. Initiative], which the core's sealed decisions keep.
 */
#ifndef BERTHIER_WEM_H
#define BERTHIER_WEM_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "dice.h"
#include "geom.h"
#include "ruleset.h"

#define WEM_VERSION "wem-1.0.0"

#define WEM_MAX_PIECES 160     /* units of the three armies: 48 + 53 + 32 = 133, and room */
#define WEM_MAX_GENERALS 20    /* 7 + 4 + 3 generals and 3 commanders in chief */
#define WEM_MAX_CORPS 8        /* corps numbers 1..6 per army; 0 = none */
#define WEM_MAX_AREAS 48       /* terrain areas */
#define WEM_MAX_LINES 32       /* linear terrain */
#define WEM_MAX_VERTS 2048     /* all polygon and polyline vertices of a scenario */
#define WEM_MAX_OFFFIELD 12    /* out-of-field elements printed on the board */
#define WEM_MAX_PARAMS 64
#define WEM_ID 12

enum { WEM_BLUE = 0, WEM_RED = 1, WEM_BLACK = 2, WEM_ARMIES = 3 };

/* piece kinds [Units] [The Garrisons] [Generals] [Commanders in Chief] */
enum {
    WEM_INF = 0,        /* infantry tile 30 x 30 mm */
    WEM_CAV = 1,        /* cavalry tile 30 x 30 mm */
    WEM_ART_FOOT = 2,   /* artillery on foot, counter 15 x 15 mm (+ its horse team behind when fastened) */
    WEM_ART_HORSE = 3,  /* horse artillery, likewise */
    WEM_GARRISON = 4,   /* Hougoumont / La Haye Sainte, counter 15 x 15 mm, never moves */
};
/* classes, best first [Units] */
enum { WEM_GUARD = 0, WEM_ELITE = 1, WEM_VETERAN = 2, WEM_REGULAR = 3, WEM_RECRUIT = 4 };
/* cavalry types [Units] */
enum { WEM_CAV_NONE = 0, WEM_CAV_LIGHT = 1, WEM_CAV_MEDIUM = 2, WEM_CAV_HEAVY = 3 };

/* area terrain [Area Terrain]; WEM_T_TOWN areas carry a name (mont-saint-jean, placenoit, ...) */
enum { WEM_T_GRASS = 0, WEM_T_HILL = 1, WEM_T_WOOD = 2, WEM_T_FARM = 3, WEM_T_TOWN = 4 };
/* linear terrain [Linear Terrain] */
enum { WEM_L_ROAD = 0, WEM_L_SUNKEN = 1, WEM_L_TORRENT = 2, WEM_L_BRIDGE = 3 };

/* how a piece left the battlefield [Effects of Unit removal] */
enum { WEM_ON = 0, WEM_ELIMINATED = 1, WEM_CAPTURED = 2, WEM_OUTFIELD = 3, WEM_NOT_ENTERED = 4 };

/* ---- scenario data (rules/wem/scenarios/, format in docs/wem-data.md) ---- */

typedef struct wem_unit_def {
    char id[WEM_ID];        /* "B23" (blue unit 23), "R39", "K12"; garrisons "R-H", "R-LHS" */
    char name[40];          /* historical name, for people */
    uint8_t army, kind, corps;   /* corps 1..6 (the Roman numeral) */
    uint8_t cls;            /* WEM_GUARD..WEM_RECRUIT */
    uint8_t losses;         /* capacity to sustain Losses */
    uint8_t vp;             /* Victory points (back of the tile) */
    uint8_t fire;           /* infantry Fire Discipline 0 normal, 1 good, 2 optimal */
    uint8_t cav;            /* WEM_CAV_* */
    uint8_t bombards;       /* may bombard: artillery on foot, and red horse artillery 39 and 40 */
    uint8_t grand_battery;  /* d'Erlon's Grand Battery (blue 23, 24, 9) */
    uint8_t special;        /* yellow number: "specific characteristics" (docs/wem-data.md) */
    uint8_t fastened;       /* set-up: a horse team stands fastened to this gun */
    uint8_t entry;          /* black: entrance section 1..3 (the corps' turn); 0 set up on the board */
    wem_pt at;              /* set-up centre (of the gun counter itself when artillery) */
    int32_t h;              /* set-up heading */
    uint8_t setup_fmn;      /* the set-up Formation (its line-up record, 1..), 0 placed alone or off board */
    uint8_t keep_vp;        /* a garrison: VP to red if it is kept to the end [End of the Game] */
    uint8_t placed;         /* the data gives a set-up position (at, h) */
} wem_unit_def;

/* a General or a Commander in Chief [Generals] [Commanders in Chief] */
typedef struct wem_general_def {
    char id[WEM_ID];        /* "B-II" (d'Erlon), "B-N" (Napoleon), "B-NEY", "R-W", "K-B" */
    char name[24];
    char sub_name[24];      /* his Substitute (back of the counter); "" none (Ney, commanders) */
    uint8_t army, corps;    /* corps 0: a Commander in Chief or Ney */
    uint8_t cinc, ney;
    uint8_t rank;           /* stars 1..4; a commander in chief counts as 4 */
    uint8_t cp;             /* Command points he generates */
    uint8_t vp;             /* VP to the enemy when removed [End of the Game] */
    uint8_t sub_vp;         /* VP of his Substitute when removed (6) */
    int8_t attach;          /* set-up: index of the unit he is attached to, -1 none */
    uint8_t entry;          /* black: entrance section, as his corps */
    wem_pt at;
    uint8_t placed;         /* the data gives a set-up position */
} wem_general_def;

typedef struct wem_area_def {
    char name[24];          /* "hougoumont-wood", "placenoit" */
    uint8_t kind;           /* WEM_T_* */
    uint8_t blocks_lof;     /* [Line of fire and visibility] hills, woods, Placenoit Town */
    uint16_t first, n;      /* vertices in wem_scenario.verts */
    uint8_t obj_army;       /* a historical objective: the army that scores it [End of the Game] */
    uint8_t obj_vp;         /* its VP, 0 not an objective */
} wem_area_def;

typedef struct wem_line_def {
    char name[24];
    uint8_t kind;           /* WEM_L_* */
    int32_t hw;             /* half width */
    uint16_t first, n;
} wem_line_def;

typedef struct wem_param {
    char name[32];          /* e.g. "contact-tol", "die-general-attached" */
    int32_t value;
} wem_param;

typedef struct wem_scenario {
    char name[16];          /* "full", "short", "medium" */
    uint8_t last_turn;      /* 19, 7, 14 [End of the Last Turn of the Game] */
    uint8_t prussians;      /* 0: the Prussians never arrive (short) */
    uint8_t max_seats;
    int32_t width, height;  /* the board, units */
    int32_t fold_x;         /* [Maneuver limit] the fold line */
    size_t n_units;
    wem_unit_def units[WEM_MAX_PIECES];
    size_t n_generals;
    wem_general_def generals[WEM_MAX_GENERALS];
    size_t n_areas;
    wem_area_def areas[WEM_MAX_AREAS];
    size_t n_lines;
    wem_line_def lines[WEM_MAX_LINES];
    size_t n_offfield;
    wem_area_def offfield[WEM_MAX_OFFFIELD];   /* turn track, command tables, side strips */
    wem_area_def deploy;                       /* the black deployment area */
    wem_line_def entrance[3];                  /* entrance sections I, II, III */
    size_t n_verts;
    wem_pt verts[WEM_MAX_VERTS];
    size_t n_params;
    wem_param params[WEM_MAX_PARAMS];
} wem_scenario;

const wem_scenario *wem_scenario_get(const char *name);
const char *wem_data_text(const char *scenario, size_t *len);  /* generated (embed.cmake) */
const char *wem_data_name(size_t i);                           /* generated */
int wem_data_parse(const char *text, size_t len, wem_scenario *sc, char *msg, size_t cap);
/* a named parameter (die faces the text lost, tolerances); the default if the data lacks it */
int32_t wem_param_get(const wem_scenario *sc, const char *name, int32_t dflt);
wem_poly wem_area_poly(const wem_scenario *sc, const wem_area_def *a);
wem_line wem_line_shape(const wem_scenario *sc, const wem_line_def *l);

/* ---- the state ---- */

typedef struct wem_unit {
    wem_pt at;              /* centre of the tile or gun counter */
    int32_t h;              /* heading */
    uint8_t status;         /* WEM_ON or how it left */
    uint8_t losses;         /* Loss tokens */
    uint8_t yellow;         /* Shaken markers: 1 Shaken, 2 Routed [Colored Markers] */
    uint8_t green;          /* the Formation's IN MOVEMENT marker, carried by each of its units */
    uint8_t orange;         /* the Formation's Recovery markers (0..2), likewise */
    uint8_t fastened;       /* a gun with its Horse Team */
    uint8_t smoke;          /* a Smoke token [2. Bombardment] */
    uint8_t fastened_turn;  /* fastened during this turn */
    uint8_t unfastened_turn;/* unfastened during this turn */
    uint8_t maneuvered;     /* executed a maneuver this turn */
    uint8_t fought;         /* took part in a combat this turn (one combat per turn) [3.4] */
    uint8_t meleed;         /* took part in a melee this turn [Attaching p7 modifier] */
    uint8_t withdrew;       /* withdrew by a melee effect: may not start or support the next melee */
    uint8_t ordered;        /* its Formation received an Order this subphase [3.2] */
    uint8_t out_of_seq;     /* paid to move out of sequence [Move out of sequence] */
    /* maneuver.c: what a Charge leaves for the ensuing melee (combat.c reads them; reset at the
     * end of the turn by wem_maneuver_turn_reset) */
    uint8_t charged;        /* made a Charge this turn [Charge]: +1 in melee unless charge_dist is 0 */
    uint8_t charge_flank;   /* was Charged on a flank or the rear: temporarily Shaken for the melee */
    uint8_t charge_bridge;  /* Charged across a Bridge: temporarily Shaken, gives no support [Bridge] */
    uint8_t charge_torrent; /* Charged across a Torrent: -1 in melee [Torrent] */
    uint8_t mv_spare;       /* 0 */
    int32_t charge_dist;    /* the distance of that Charge, units (0: a Charge 0) */
} wem_unit;

typedef struct wem_general {
    wem_pt at;
    uint8_t status;         /* WEM_ON or how he left */
    uint8_t substitute;     /* the Substitute General is in play (rank 1, 0 CP) */
    uint8_t sub_due;        /* removed: a Substitute must be rolled for [Substitute Generals] */
    uint8_t sub_tries;      /* failed substitution rolls so far (the valid result lowers by 1 each) */
    int16_t attached;       /* unit index, -1 unattached */
    uint8_t markers;        /* markers in his box on the command table */
    uint8_t assigned;       /* markers assigned to him this turn (<= 2) [3.1] */
    uint8_t cp_gen;         /* generated Command points left this turn */
    int16_t cp_gen_fmn;     /* the one Formation (a unit index) his generated points went to, -1 */
    uint8_t moved;          /* moved in 3.1 this turn */
} wem_general;

/* phases: what pending() asks for (each belongs to one file: wem_phase_fns) */
enum {
    WEM_PH_ENTRANCE = 0,    /* black deploys an entering corps [Executing the entrance] */
    WEM_PH_BID,             /* [1. Initiative] sealed bids, turn >= 2 */
    WEM_PH_SUBSTITUTE,      /* [Substitute Generals] place a Substitute General */
    WEM_PH_BOMBARD,         /* [2. Bombardment] the current army fires or passes */
    WEM_PH_BOMB_WITHDRAW,   /* [Bombardment effects 8/10] the target's owner: Withdraw 1 or Shaken */
    WEM_PH_ASSIGN,          /* [3.1 Assign] markers and General moves */
    WEM_PH_ORDERS,          /* [3.2 Issue Orders] */
    WEM_PH_MANEUVER,        /* [3.3 Maneuver] */
    WEM_PH_CHARGE_REPLY,    /* [Charge against Artillery] the charged gun's owner: withdraw / defend */
    WEM_PH_UNFASTEN,        /* [Unfastening Artillery Units] end of 3.3 */
    WEM_PH_COMBAT,          /* [3.4 Combat] the current army picks the next combat, or done */
    WEM_PH_MELEE_CHOICE,    /* [Melee] [3.4 B-D] a choice inside a combat (see wem_combat.ask) */
    WEM_PH_LOSSES,          /* [Suffer Damages] the owner distributes Losses */
    WEM_PH_WITHDRAW,        /* [Withdraw] a forced move's owner gives its direction / stays */
    WEM_PH_GENERAL_ESCAPE,  /* [Unattached Generals] [Capture of a General] move up to 2 UoM */
    WEM_PH_OVER,
    WEM_PH_COUNT
};

/* the combat in progress [3.4] (combat.c) */
typedef struct wem_combat {
    uint8_t active;
    uint8_t step;           /* 'A'..'E' */
    uint8_t ask;            /* which choice WEM_PH_MELEE_CHOICE asks (combat.c's enum) */
    uint8_t ask_army;
    int16_t att, def;       /* the units in melee now */
    int16_t starter[2];     /* the unit that started the combat, per side (0 attacker, 1 defender) */
    uint8_t att_army, def_army;
    uint8_t part[WEM_MAX_PIECES]; /* bit 1 attacker side, 2 defender side, 4 supported, 8 withdrew
                                   * this combat, 16 got 1 yellow, 32 got 2 yellows */
    int8_t die[2];          /* the melee dice, per side */
    uint8_t rerolled[2];
    int32_t value[8];       /* scratch for the step in progress, documented in combat.c */
    /* combat.c's own (combat.h): where the combat stands and what each step remembers */
    uint8_t stage;          /* combat.c's S_* stage */
    uint8_t side_att;       /* the side attacking in the melee now: 0 the combat's attacker, 1 its defender */
    uint8_t melee_step;     /* the step ('A'..'D') of the melee in progress */
    uint8_t loser;          /* the side that lost the melee now, 2 none */
    uint8_t diff;           /* by how much */
    uint8_t side_hit;       /* the side of the melee defender its attacker touches (WEM_SIDE_*) */
    int8_t mod[2];          /* the melee modifiers per side */
    int8_t terrain[2];      /* the terrain modifier a unit of each side used [Result of Combat] [Pursuit] */
    int16_t withdrawn;      /* the unit of the loser that withdrew in the melee now (Pursuit target), -1 */
    uint8_t loss_n[2];      /* Losses each side distributes [Suffer Damages (melee)] */
    uint8_t reroll_ask;     /* bits per side: may still reroll */
    uint8_t pursuit_types;  /* bits: unit types that rolled for Pursuit (1 << WEM_INF, 1 << WEM_CAV) */
    uint8_t pursuit_type;   /* the type pursuing now */
    int8_t pursuit_die;     /* its die plus the fixed modifiers */
    uint8_t pursuit_nopt;   /* the "+/- as the player wants" modifiers of the Pursuit now */
    int8_t pursuit_opt[3];  /* their sizes */
    int8_t rdice[2][8];     /* the Result dice per side [Result of Combat] */
    uint8_t rn[2];
    int8_t rkeep[2];        /* the die each side kept */
    int8_t rsign[2];        /* +1 / -1 the attached General's rank */
    int16_t general;        /* the unattached General in a combat, -1 */
    uint8_t yellow0[WEM_MAX_PIECES];   /* each unit's yellow markers when the combat began */
    uint8_t withdrew0[WEM_MAX_PIECES]; /* and whether it had withdrawn [Result of Combat] */
    uint32_t gen_done;      /* bits per general: his [Capture of a General] roll in this combat is done */
    uint8_t pursued[WEM_MAX_PIECES]; /* [Pursuit] 1: the unit made its Pursuit Charge (or could make none) for
                                      * the type pursuing now (combat.c) */
} wem_combat;

/* the bombardment in progress [2. Bombardment] (bombard.c) */
typedef struct wem_bomb {
    int16_t gun, target;
    uint8_t n_support;
    int16_t support[8];
    uint8_t fired[WEM_MAX_PIECES]; /* guns that fired or supported this phase */
} wem_bomb;

/* a forced move waiting for its owner (maneuver.c): Withdraw, Fall Back, Routed */
typedef struct wem_forced {
    uint8_t active;
    uint8_t kind;           /* maneuver.c's enum */
    int16_t unit;
    int16_t cause;          /* the unit that caused the withdrawal, -1 */
    int32_t dist;           /* units to move */
    uint8_t return_phase;
} wem_forced;

typedef struct wem_state {
    const wem_scenario *sc;
    uint8_t nseats;         /* 2 or 3 */
    uint8_t turn;           /* 1..19 */
    uint8_t phase;          /* WEM_PH_* */
    uint8_t cur;            /* index into order[] of the army acting now */
    uint8_t order[WEM_ARMIES];   /* the armies in initiative order this turn (gold, silver, third) */
    uint8_t n_order;        /* armies on the field this turn (2, or 3 once black has entered) */
    uint8_t prev_order[WEM_ARMIES];
    uint8_t option_ney;     /* [General Ney] optional rule */
    /* armies */
    uint8_t markers[WEM_ARMIES];       /* markers in the Commander in Chief box */
    int8_t bid[WEM_ARMIES];            /* sealed bid given this turn, -1 none yet */
    uint8_t entered;        /* black corps entered so far (0..3) */
    uint8_t entrance_tries; /* failed entrance rolls (the valid result lowers by 1 each) */
    uint8_t deploying;      /* the black corps being deployed now (3, 2, 1), 0 none */
    uint8_t black_seen;     /* [Maneuver limit] the first Prussian units are deployed */
    uint8_t passed;         /* bits per army: done with the current (sub)phase */
    /* pieces */
    wem_unit units[WEM_MAX_PIECES];
    wem_general generals[WEM_MAX_GENERALS];
    /* in progress */
    wem_bomb bomb;
    wem_combat combat;
    wem_forced forced;
    /* the last bombardment's line of fire, for the picture (gun, target; -1 none) */
    int16_t last_lof_gun, last_lof_target;
    /* the turn sequence (turn.c): the step of the turn and the interrupts waiting to return */
    uint8_t step;           /* WEM_STEP_* */
    uint8_t depth;          /* interrupt stack depth */
    uint8_t stack[8];       /* phases to return to */
    /* end */
    int32_t vp[WEM_ARMIES];  /* Victory points scored so far (removed enemy pieces) */
    uint8_t resigned;        /* seat + 1 */
    uint8_t over;
    uint32_t winners;        /* seat mask */
    char level[16];
    char reason[96];
    /* maneuver.c: the army maneuvering now + 1 (0: the current army), the out-of-sequence round
     * done (bits per army) [Move out of sequence], and a Charge against Artillery waiting for the
     * gun's owner [Charge against Artillery] */
    uint8_t mv_army;
    uint8_t mv_oos_done;
    uint8_t mv_wait;        /* a Charge waits for WEM_PH_CHARGE_REPLY */
    uint8_t mv_wait_flags;
    int16_t mv_guide, mv_target;
    int16_t mv_n;
    int16_t mv_units[48];   /* WEM_MAX_LIST */
    int16_t mv_pad;
    int32_t mv_turn, mv_allow;
    /* added by the turn sequence (command.c): the unit's green marker stays at the end of 3.2
     * (Put or Keep in Movement this turn, or deployed green by the entrance) */
    uint8_t kept[WEM_MAX_PIECES];
} wem_state;

/* ---- orders (the ruleset's own form of proto wem.v1.Order) ---- */

enum {
    WEM_O_NONE = 0,
    WEM_O_BID,          /* bids[]: markers bid per army the seat plays, in army order */
    WEM_O_PLACE,        /* places[]: pieces and their poses (entrance, substitute, redeploy) */
    WEM_O_DONE,         /* the seat ends its part of the (sub)phase */
    WEM_O_BOMBARD,      /* unit (gun), target, units[] supporting */
    WEM_O_ASSIGN,       /* general, value = markers */
    WEM_O_GENERAL,      /* general, pose: move a General / Commander in Chief (<= 2 UoM); target = attach */
    WEM_O_COMMAND,      /* value = WEM_CMD_*, general, units[] (the Formation or the part ordered),
                         * places[] for Redeploy, flag = out of sequence */
    WEM_O_MANEUVER,     /* value = WEM_MV_*, units[] (the Formation or part), unit = guide, turn, dist,
                         * target (a Charge) */
    WEM_O_UNFASTEN,     /* units[] */
    WEM_O_COMBAT,       /* unit = attacker, target = defender */
    WEM_O_ANSWER,       /* value, values[], units[], places[]: the answer to the pending choice */
};

enum { WEM_CMD_PUT = 1, WEM_CMD_KEEP = 2, WEM_CMD_RECOVER = 3, WEM_CMD_REDEPLOY = 4 };
enum { WEM_MV_ADVANCE = 1, WEM_MV_FALLBACK = 2, WEM_MV_CHARGE = 3 };

#define WEM_MAX_LIST 48

typedef struct wem_place {
    int16_t piece;          /* unit index, or WEM_GEN_BASE + general index */
    wem_pt at;
    int32_t h;
    uint8_t fastened;
} wem_place;

#define WEM_GEN_BASE 1000

typedef struct wem_order {
    int kind;
    int value;
    int flag;
    int unit;               /* unit index, -1 none */
    int target;             /* unit index (or WEM_GEN_BASE + general), -1 none */
    int general;            /* general index, -1 none */
    int32_t turn;           /* heading change, steps, + clockwise */
    int32_t dist;           /* units */
    wem_pt at;              /* a pose (WEM_O_GENERAL) */
    int32_t h;
    int n_units;
    int16_t units[WEM_MAX_LIST];
    int n_values;
    int32_t values[WEM_MAX_LIST];
    int n_places;
    wem_place places[WEM_MAX_LIST];
    int pay_markers;        /* WEM_O_COMMAND: pay with transformed points (markers) only, keeping the
                             * generated ones for another Formation (proto Command.markers_only) */
} wem_order;

/* the steps of a turn, in order (turn.c): each army acts in initiative order in each step but
 * the sealed bid, which all armies give at once */
enum {
    WEM_STEP_ENTRANCE = 0,  /* [Entrance of the black (Prussian) army], turn >= VIII */
    WEM_STEP_INITIATIVE,    /* [1. Initiative]: markers rolled, bids (turn >= 2) */
    WEM_STEP_SUBSTITUTE,    /* [Substitute Generals] */
    WEM_STEP_BOMBARD,       /* [2. Bombardment] */
    WEM_STEP_ASSIGN,        /* [3.1 Assign] */
    WEM_STEP_ORDERS,        /* [3.2 Issue Orders] */
    WEM_STEP_MANEUVER,      /* [3.3 Maneuver] */
    WEM_STEP_UNFASTEN,      /* [Unfastening Artillery Units] end of 3.3 */
    WEM_STEP_COMBAT,        /* [3.4 Combat] */
    WEM_STEP_END,           /* [3.5 End of Turn] */
    WEM_STEP_COUNT
};

/* ---- functions ---- */

/* codec.c: the order's wire form (proto wem.v1.Order) and events */
int wem_order_encode(const wem_state *s, const wem_order *o, brt_buf *out);
int wem_order_decode(const wem_state *s, const uint8_t *data, size_t len, wem_order *o, brt_reject *err);
void wem_order_init(wem_order *o, int kind);
/* an event: kind, army (-1 none), the piece and another (unit or general index codes as in
 * wem_place.piece, -1 none), a value, dice, a pose (NULL none), and a sentence citing the rule */
void wem_event(const wem_state *s, brt_events *ev, uint32_t seats, const char *kind, int army, int piece, int other,
               int value, const int *dice, int n_dice, const wem_pt *at, int32_t h, const char *fmt, ...)
    __attribute__((format(printf, 13, 14)));
/* a piece code's id: unit index, or WEM_GEN_BASE + general index; "" for -1 */
const char *wem_piece_id(const wem_state *s, int piece);
int wem_piece_find(const wem_state *s, const char *id);  /* piece code, -1 unknown */

/* turn.c: the switchboard and the turn sequence */
int wem_apply_order(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err);
void wem_pending(const wem_state *s, brt_pending *out);
int wem_legal(const wem_state *s, unsigned seat, brt_buf *out);
int wem_timeout_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev);
void wem_turn_start(wem_state *s, brt_dice *dice, brt_events *ev);   /* a new turn: its first step */
/* the current army has finished its part of the current step: the next army in initiative
 * order, or the next step (calling each step's begin), or the end of the turn */
void wem_step_done(wem_state *s, brt_dice *dice, brt_events *ev);
/* an interrupt: remember the phase to return to and ask phase now; wem_resume goes back */
void wem_interrupt(wem_state *s, int phase);
void wem_resume(wem_state *s);
/* append one legal order to a legal() list (u32 length + Order bytes); returns 0/-1 */
int wem_legal_put(const wem_state *s, const wem_order *o, brt_buf *out);
/* the seat that decides for an army now (2 seats: red plays black) */
uint32_t wem_army_mask(const wem_state *s, int army);
/* a d6 / 2d6 roll through the core, purpose citing the rule; the value is public */
int wem_d6(brt_dice *dice, const char *purpose);
int wem_2d6(brt_dice *dice, const char *purpose, int *a, int *b);

/* Each step's begin for the current army (wem_cur_army): set s->phase and return 1 if the army
 * has something to decide, or return 0 to pass the step (turn.c then moves on). Steps that
 * concern all armies at once (the bid) are begun once. */
int wem_entrance_begin(wem_state *s, brt_dice *dice, brt_events *ev);     /* initiative.c */
int wem_initiative_begin(wem_state *s, brt_dice *dice, brt_events *ev);   /* initiative.c */
int wem_substitute_begin(wem_state *s, brt_dice *dice, brt_events *ev);   /* initiative.c */
int wem_bombard_begin(wem_state *s, brt_dice *dice, brt_events *ev);      /* bombard.c */
int wem_assign_begin(wem_state *s, brt_dice *dice, brt_events *ev);       /* command.c */
int wem_orders_begin(wem_state *s, brt_dice *dice, brt_events *ev);       /* command.c */
void wem_orders_end(wem_state *s, brt_events *ev);                        /* command.c: greens off */
int wem_maneuver_begin(wem_state *s, brt_dice *dice, brt_events *ev);     /* maneuver.c */
int wem_unfasten_begin(wem_state *s, brt_dice *dice, brt_events *ev);     /* maneuver.c */
int wem_combat_begin(wem_state *s, brt_dice *dice, brt_events *ev);       /* combat.c */
void wem_end_of_turn(wem_state *s, brt_dice *dice, brt_events *ev);       /* turn.c [3.5] */
void wem_split_contacts(wem_state *s, brt_events *ev);                    /* maneuver.c [3.5] */
const char *wem_phase_name(int phase);                                    /* turn.c */
/* forced.c [Withdraw] [Retreat] [Routed] [Fall Back]: forced moves are straight back, without a
 * turn, so they need no decision. wem_withdraw moves unit u back `dist` (friends in contact
 * withdraw with it, or are Shaken, per the exceptions); a unit that cannot is Shaken, or takes a
 * Loss if it already is; `cause` is the unit that caused it (-1 none): it never gets closer to
 * it. Returns the distance moved. wem_shake gives one yellow marker (a second one routs: the
 * Routed unit withdraws 2 or is captured); wem_fall_back moves u's whole Formation back. */
int32_t wem_withdraw(wem_state *s, int u, int32_t dist, int cause, brt_events *ev);
void wem_shake(wem_state *s, int u, int cause, brt_events *ev);
void wem_fall_back(wem_state *s, int u, int32_t dist, brt_events *ev);
/* maneuver.c: a maneuver (WEM_O_MANEUVER's fields) checked and executed with a given allowance
 * (units; the Formation's own Advance/Charge number when < 0); flags for the Charges of the
 * combat steps (C, D) and of Pursuit. 0 done, -1 refused (err says which rule). */
#define WEM_MVF_NO_GREEN 1   /* [3.4 C/D] [Pursuit] a Charge without the green marker */
#define WEM_MVF_PURSUIT 2    /* [Pursuit] cavalry: along a flank first, freely through friends in Formation */
#define WEM_MVF_DRY 4        /* check only: nothing changes */
int wem_maneuver_exec(wem_state *s, const wem_order *o, int32_t allowance, unsigned flags, brt_dice *dice,
                      brt_events *ev, brt_reject *err);
/* maneuver.c: the per-turn charge records cleared (turn.c or wem_end_of_turn's caller may call
 * it; wem_split_contacts calls it at the end of each turn) */
void wem_maneuver_turn_reset(wem_state *s);
/* query.c: "can this Formation reach / touch / fire on that one": the measured figures as text */
int wem_query(const wem_state *s, int viewpoint, const char *text, brt_buf *out);
/* victory.c: Losses (a unit reaching its capacity is eliminated [Units]); by = the army causing them */
void wem_unit_loss(wem_state *s, int u, int n, int by, brt_events *ev);
/* victory.c: the immediate ends [Victory Conditions] and the tally [End of the Game] */
int wem_victory_check(wem_state *s, brt_events *ev);   /* 1 if the game ended now */
void wem_victory_final(wem_state *s, brt_events *ev);
void wem_victory_text(const wem_state *s, char *out, size_t cap);
void wem_scores(const wem_state *s, int32_t vp[WEM_ARMIES]);
/* removal of a piece [Effects of Unit removal]: how = WEM_ELIMINATED / _CAPTURED / _OUTFIELD;
 * the VP go to the army that removed it (by = army, -1 none); column-mates become Shaken on an
 * elimination; a general's removal calls for a substitute (victory.c) */
void wem_unit_remove(wem_state *s, int u, int how, int by, brt_events *ev);
void wem_general_remove(wem_state *s, int g, int how, int by, brt_events *ev);

/* state.c */
wem_state *wem_state_new(const wem_scenario *sc, unsigned seats, int ney);
void wem_state_destroy(wem_state **p);
wem_state *wem_state_clone(const wem_state *s);
int wem_state_encode(const wem_state *s, brt_buf *out);
int wem_unit_find(const wem_state *s, const char *id);       /* unit index, -1 */
int wem_general_find(const wem_state *s, const char *id);    /* general index, -1 */
int wem_seat_of_army(const wem_state *s, int army);
int wem_seat_armies(const wem_state *s, unsigned seat, int *armies); /* count */
int wem_cur_army(const wem_state *s);                        /* the army acting now */
/* a unit's shape: its tile or counter, with its horse team behind it when fastened */
wem_rect wem_unit_rect(const wem_state *s, int u);
wem_rect wem_general_rect(const wem_state *s, int g);
int32_t wem_tol(const wem_state *s);                         /* contact-tol */

/* formation.c [Formations] [Split Formations]: formations are found from which pieces touch */
typedef struct wem_formations {
    int16_t of[WEM_MAX_PIECES];     /* formation number per unit (-1 not on the field) */
    int16_t n;
    int16_t width[WEM_MAX_PIECES];  /* front width per formation (united formations together) */
    int16_t depth[WEM_MAX_PIECES];
    int16_t united[WEM_MAX_PIECES]; /* per formation: its group of united Formations (the lowest
                                     * formation number of the group) [Formations] */
} wem_formations;
void wem_formations_find(const wem_state *s, wem_formations *f);
int wem_formation_units(const wem_formations *f, int fmn, int16_t *out);  /* count */

/* Each phase belongs to one file, which gives its functions (turn.c dispatches): apply, pending,
 * legal (a representative, documented set: apply accepts each) and the timeout default (-1 none). */
#define WEM_PHASE_FNS(x)                                                                                   \
    int wem_##x##_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,    \
                        brt_reject *err);                                                                  \
    void wem_##x##_pending(const wem_state *s, brt_pending *out);                                          \
    int wem_##x##_legal(const wem_state *s, unsigned seat, brt_buf *out);                                  \
    int wem_##x##_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev)

WEM_PHASE_FNS(entrance);        /* initiative.c  WEM_PH_ENTRANCE */
WEM_PHASE_FNS(bid);             /* initiative.c  WEM_PH_BID */
WEM_PHASE_FNS(substitute);      /* initiative.c  WEM_PH_SUBSTITUTE */
WEM_PHASE_FNS(bombard);         /* bombard.c     WEM_PH_BOMBARD */
WEM_PHASE_FNS(bomb_withdraw);   /* bombard.c     WEM_PH_BOMB_WITHDRAW */
WEM_PHASE_FNS(assign);          /* command.c     WEM_PH_ASSIGN */
WEM_PHASE_FNS(orders);          /* command.c     WEM_PH_ORDERS */
WEM_PHASE_FNS(maneuver);        /* maneuver.c    WEM_PH_MANEUVER */
WEM_PHASE_FNS(charge_reply);    /* maneuver.c    WEM_PH_CHARGE_REPLY */
WEM_PHASE_FNS(unfasten);        /* maneuver.c    WEM_PH_UNFASTEN */
WEM_PHASE_FNS(combat);          /* combat.c      WEM_PH_COMBAT */
WEM_PHASE_FNS(melee_choice);    /* combat.c      WEM_PH_MELEE_CHOICE */
WEM_PHASE_FNS(losses);          /* combat.c      WEM_PH_LOSSES */
WEM_PHASE_FNS(withdraw);        /* forced.c      WEM_PH_WITHDRAW */
WEM_PHASE_FNS(general_escape);  /* combat.c      WEM_PH_GENERAL_ESCAPE */

/* initiative.c / command.c helpers (the turn sequence) */
/* R-wem-entrance-lowering: a roll succeeds on lo - tries .. hi (the lower face lowered by 1 per
 * failed turn) */
int wem_lowered_success(int roll, int lo, int hi, int tries);
/* the rectangle lies on the battlefield: inside the board, touching no out-of-field element */
int wem_rect_on_field(const wem_state *s, const wem_rect *r);
/* the unit keeps its green marker at the end of this turn's 3.2 */
void wem_turn_kept(wem_state *s, int u);
/* [Attaching] may general g attach to unit u (his corps; the CinC any unit of his army; Ney any
 * blue unit but corps I; one General per Formation)? 0 yes, -1 (err says why) */
int wem_may_attach(const wem_state *s, int g, int u, brt_reject *err);
/* [Attaching] "If a Unit is moved in a space occupied by a General (or Commander in Chief)
 * counter of its army, the General is then attached if the Unit belongs to his Army Corps (the
 * Commander in Chief will ALWAYS attach). Otherwise, the counter must be moved the least distance
 * necessary to occupy a free space": call after moving unit u (maneuver.c, forced.c) */
void wem_general_bumped(wem_state *s, int u, brt_events *ev);
/* [3.2 Issue Orders] the cost of a command order (o->kind WEM_O_COMMAND), -1 refused (err) */
int wem_command_cost(const wem_state *s, const wem_order *o, brt_reject *err);

/* text.c: the text syntax (docs/orders-wem.md) */
int wem_order_parse(const wem_state *s, const char *text, wem_order *o, brt_reject *err);
int wem_order_format(const uint8_t *order, size_t len, brt_buf *out);
int wem_event_format(const uint8_t *event, size_t len, brt_buf *out);
/* view.c */
int wem_view(const wem_state *s, int viewpoint, brt_buf *out);
int wem_view_text(const wem_state *s, int viewpoint, brt_buf *out);
/* render.c */
int wem_render(const wem_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out);

#endif
