/*
 * wnlb.h - Waterloo: Napoleon's Last Battle (the `wnlb` ruleset).
 *
 * Rules: the rulebook (seeds/003), cited [4.0] .. [13.3]; rulings: docs/rulings.md
 * section "wnlb" (R-wnlb-...); data: docs/wnlb-data.md; file map: rules/wnlb/README.md.
 *
 * No dice in the game: the only chance is in shuffles [3.2] [4.0], blind draws [7.0] and
 * Napoleon's Health [11.7], all dice-driven through the core. Hidden information: each
 * hand (its owner's seat only), the unused portion (nobody), sealed bids [7.0] and battle
 * cards [9.3] (the core's sealed decisions).
 *
 * Seats: 2 players: 0 french, 1 allied (British/Allied and Prussian decks and units);
 * 3 players: 0 french, 1 british, 2 prussian [1.0] [6.0]. Armies are fixed:
 * WNLB_FR, WNLB_BR, WNLB_PR; sides: WNLB_SIDE_FRENCH, WNLB_SIDE_ALLIED.
 */
#ifndef BERTHIER_WNLB_H
#define BERTHIER_WNLB_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "dice.h"
#include "ruleset.h"

#define WNLB_VERSION "wnlb-1.0.0"

#define WNLB_MAX_ROWS 16
#define WNLB_MAX_COLS 24
#define WNLB_MAX_UNITS 64
#define WNLB_MAX_CARDS 64      /* 26 + 19 + 10 = 55 [2.4] */
#define WNLB_MAX_VP 8
#define WNLB_MAX_CHATEAUX 4
#define WNLB_MAX_ATTACKERS 4   /* [9.2] at most four adjacent squares */
#define WNLB_MAX_ENTRY 4
#define WNLB_MAX_GROUPS 8      /* [5.0] entry groups (a group is the schedule's game turn, 1..7) */
#define WNLB_ROUND_CARDS 5     /* [4.0] 1 to 5 cards per player round */
#define WNLB_ID 16

/* armies (and decks) */
enum { WNLB_FR = 0, WNLB_BR = 1, WNLB_PR = 2, WNLB_ARMIES = 3 };
/* sides [4.0] "the sides exchange player rounds" */
enum { WNLB_SIDE_FRENCH = 0, WNLB_SIDE_ALLIED = 1 };
/* facing / directions: north is row - 1 [3.1] "see the compass on the map" */
enum { WNLB_N = 0, WNLB_E = 1, WNLB_S = 2, WNLB_W = 3 };

/* square terrain [8.3] */
enum { WNLB_CLEAR = 0, WNLB_WOODS = 1, WNLB_VILLAGE = 2, WNLB_CHATEAU = 3, WNLB_HILL = 4 };
/* square-side features [8.3], bits */
enum { WNLB_SIDE_RIDGE = 1, WNLB_SIDE_STREAM = 2, WNLB_SIDE_BRIDGE = 4, WNLB_SIDE_ROAD = 8, WNLB_SIDE_POND = 16 };

/* unit types [2.2] */
enum { WNLB_INF = 0, WNLB_CAV = 1 };

/* card actions [2.4] [11.1]-[11.7] */
enum {
    WNLB_ACT_NONE = 0,
    WNLB_ACT_ARTILLERY = 1,  /* [11.1] */
    WNLB_ACT_COMMAND = 2,    /* [11.2] value = BP per eligible unit */
    WNLB_ACT_ELITE = 3,      /* [11.3] */
    WNLB_ACT_CHARGE = 4,     /* [11.4] */
    WNLB_ACT_ENEMY_CHARGE = 5, /* [11.5] */
    WNLB_ACT_RALLY = 6,      /* [11.6] */
    WNLB_ACT_HEALTH = 7,     /* [11.7] */
    WNLB_ACT_COUNT = 8
};

/* purposes a card is declared for [6.0] */
enum { WNLB_PURPOSE_MOVE = 1, WNLB_PURPOSE_ACTION = 2, WNLB_PURPOSE_BATTLE = 3, WNLB_PURPOSE_BID = 4 };

/* what a battle card is used for [9.3]: its BPs, or its action (WNLB_ACT_ARTILLERY, _COMMAND, _ELITE) */
#define WNLB_USE_BP 0

/* where a card is [3.2] [6.0] */
enum { WNLB_LOC_UNUSED = 0, WNLB_LOC_HAND = 1 };

/* ---- scenario data (rules/wnlb/scenarios/NAME.wnlb, docs/wnlb-data.md) ---- */

typedef struct wnlb_card_def {
    uint8_t id;       /* 1..55, unique over the three decks */
    uint8_t army;
    uint8_t mp, bp;
    uint8_t action;   /* WNLB_ACT_* */
    uint8_t value;    /* Command Benefit BPs; 0 otherwise */
    uint8_t cmd_attack; /* Command Benefit: 1 = for attacking units, 0 = defending [11.2] */
} wnlb_card_def;

typedef struct wnlb_unit_def {
    char id[WNLB_ID];       /* "F-GREN", "B-3I" */
    char name[40];          /* "Grenadiers/Garde Imperiale" */
    uint8_t army, type;
    uint8_t full, reduced;  /* BP ratings; reduced 0 = no reduced side [9.1] */
    uint8_t elite, heavy;   /* [9.1] elite asterisk; cavalry heavy (1) or light (0) [11.4] */
    int8_t row, col;        /* set-up square, -1 = off the board (Prussian reinforcement) */
    uint8_t facing;
    uint8_t entry_turn;     /* [5.0] Prussian schedule: first turn it may enter (0 = on board) */
    uint8_t n_entry;        /* [5.0] squares it may enter through ("B or C") */
    int8_t entry_row[WNLB_MAX_ENTRY], entry_col[WNLB_MAX_ENTRY];
    uint8_t entry_group;    /* [5.0] units of one group entering one turn share a square */
} wnlb_unit_def;

typedef struct wnlb_vp_def {
    char name[24];          /* "mt-st-jean" */
    int8_t row, col;
    uint8_t vp[2];          /* per side [13.3] (French, Allied) */
    uint8_t short_game;     /* a VP square of [13.2] */
    uint8_t full_game;      /* a VP square of [13.3] */
} wnlb_vp_def;

typedef struct wnlb_chateau_def {
    char name[24];          /* "hougoumont" */
    int8_t row, col;
    uint8_t cdp;            /* [10.0] printed CDP */
} wnlb_chateau_def;

typedef struct wnlb_scenario {
    char name[16];          /* "short", "full" */
    uint8_t rows, cols;
    uint8_t first_turn, last_turn;   /* [13.1] */
    uint8_t prussians;      /* [13.1] the short game excludes Prussian units and cards */
    uint8_t max_seats;
    uint8_t terrain[WNLB_MAX_ROWS][WNLB_MAX_COLS];
    /* features of each square's sides, both sides of a shared edge carry the same bits */
    uint8_t side[WNLB_MAX_ROWS][WNLB_MAX_COLS][4];
    uint8_t deal[WNLB_ARMIES][8];    /* [3.2] [4.0] cards dealt per army and turn (index 1..7) */
    size_t n_cards;
    wnlb_card_def cards[WNLB_MAX_CARDS];
    size_t n_units;
    wnlb_unit_def units[WNLB_MAX_UNITS];
    int8_t cmd_row[2], cmd_col[2];   /* [3.1] Napoleon (army 0), Wellington (army 1) */
    size_t n_vp;
    wnlb_vp_def vp[WNLB_MAX_VP];
    size_t n_chateaux;
    wnlb_chateau_def chateaux[WNLB_MAX_CHATEAUX];
} wnlb_scenario;

/* The scenario's parsed data (NULL if unknown); the data text itself for the hash. */
const wnlb_scenario *wnlb_scenario_get(const char *name);
const char *wnlb_data_text(const char *scenario, size_t *len);  /* generated (embed.cmake) */
const char *wnlb_data_name(size_t i);                           /* generated */
/* Parse a data text into sc; -1 with a message naming the line. */
int wnlb_data_parse(const char *text, size_t len, wnlb_scenario *sc, char *msg, size_t cap);

/* ---- the state ---- */

typedef struct wnlb_unit {
    int8_t row, col;        /* -1: off the board (not entered, or eliminated) */
    uint8_t facing;
    uint8_t reduced;        /* [9.1] on its Reduced side */
    uint8_t disordered;     /* [9.5] */
    uint8_t moved;          /* [8.0] Moved marker (this round) */
    uint8_t rallied;        /* [11.6] Rally marker (this round) */
    uint8_t attacked;       /* attacked this round: may not be rallied [11.6] */
    uint8_t eliminated;     /* [9.5] removed from play */
    uint8_t entered;        /* [5.0] a reinforcement on the board (or set up on it) */
} wnlb_unit;

/* phases: what pending() asks for */
enum {
    WNLB_PH_BIDDER = 0,     /* [7.0] 3p: the British names the Allied bidder */
    WNLB_PH_BID,            /* [7.0] sealed bid, French + the Allied bidder */
    WNLB_PH_DECK,           /* [6.0] which Allied deck plays this round (British decides) */
    WNLB_PH_ROUND,          /* [4.0] [6.0] the active side plays a card, passes or ends its round */
    WNLB_PH_MOVE,           /* [8.0] moves under a Movement card, then done */
    WNLB_PH_DECLARE,        /* [9.0] optionally one battle after a Movement/Action card */
    WNLB_PH_FIRE,           /* [11.1] the defender's Artillery Fire window (R-wnlb-11.1-windows) */
    WNLB_PH_BATTLE_CARDS,   /* [9.3] sealed battle cards, attacker and defender */
    WNLB_PH_LOSS,           /* [9.4] losing defender: reduce, retreat, CDP [10.0] */
    WNLB_PH_ADVANCE,        /* [9.4] winning attacker advances into the vacated square */
    WNLB_PH_ATT_REDUCE,     /* [9.4] attacker chooses among its equal strongest units */
    WNLB_PH_CAV_RETREAT,    /* [9.6] cavalry retreat before battle (interrupt) */
    WNLB_PH_DISPLACE,       /* [12.0] commander displacement (interrupt) */
    WNLB_PH_CHARGE,         /* [11.5] the forced side executes the charge */
    WNLB_PH_OVER
};

typedef struct wnlb_battle {
    int8_t target;                        /* defending unit index, -1 none */
    uint8_t n_att;
    int8_t att[WNLB_MAX_ATTACKERS];       /* attacking unit indexes */
    uint8_t att_army;                     /* [9.0] British and Prussian never together */
    uint8_t charge;                       /* [11.4] a Cavalry Charge battle: Elite cards only */
    uint8_t submitted[2];                 /* per side: battle cards given */
    uint8_t cards[2][WNLB_MAX_CARDS];     /* per side: cards chosen (card index), sealed until both */
    uint8_t purpose[2][WNLB_MAX_CARDS];   /* per chosen card: its use, WNLB_USE_BP or WNLB_ACT_* */
    uint8_t n_cards[2];
    int32_t total[2];                     /* [9.4] attacker, defender totals */
    uint8_t elite_unit;                   /* index + 1 of the Elite-bonused attacker that must advance */
    uint8_t more_than_double;             /* [9.4] */
    uint8_t loss_reduce, loss_retreat;    /* [9.4] what the defender still owes */
    int8_t vac_row, vac_col;              /* the vacated square */
    uint8_t retreat_dir_any;              /* [9.5] attacked solely from rear/flank: forward allowed */
    int8_t fire_unit;                     /* [11.1] the defender's infantry firing in the battle, -1 none */
    int8_t fire_target;                   /* [11.1] the attacker it fires at, -1 none */
    uint8_t elite[2];                     /* [11.3] per side: an Elite Bonus card was played */
    uint8_t displace;                     /* [12.0] bit per commander whose unit was eliminated */
} wnlb_battle;

typedef struct wnlb_state {
    const wnlb_scenario *sc;
    uint8_t nseats;                       /* 2 or 3 */
    uint8_t turn;                         /* [2.3] game turn */
    uint8_t phase;                        /* WNLB_PH_* */
    uint8_t active_side;                  /* the side whose player round it is */
    uint8_t round_army;                   /* the army (deck) of the current round: FR, BR or PR */
    uint8_t round_cards;                  /* cards played this round toward the 5 [4.0] */
    uint8_t passes;                       /* consecutive passes [4.0] */
    uint8_t bound_army;                   /* [7.0] a bid card binds the first Allied round: army + 1, 0 none */
    uint8_t bidder;                       /* [7.0] the Allied bidding army (BR or PR) */
    int8_t bid[2];                        /* [7.0] per side: the card bid (index), -1 none, -2 not yet */
    uint8_t mp_left;                      /* [8.0] MPs left of the current Movement card */
    int8_t moving;                        /* [8.0] the unit moving now (-1 none); another starting ends it */
    uint8_t cur_card;                     /* the card being executed (index + 1), 0 none */
    uint8_t return_phase;                 /* where an interrupt returns */
    int8_t interrupt_unit;                /* [9.6] the cavalry offered a retreat / [12.0] the commander */
    int8_t mover;                         /* [9.6] the infantry whose move triggered the window */
    uint8_t fire_army;                    /* [11.1] the army (+ 1) answering the Fire window, 0 none */
    uint8_t evade_dirs;                   /* [9.6] bit d: the mover's side-d square was vacated by a retreat
                                           * before it (R-wnlb-9.6-mover-enters-vacated) */
    uint8_t move_steps;                   /* [8.0] the steps of the last `move` order actually made: all of
                                           * them, or those up to a [9.6] window (R-wnlb-9.6-move-stops) */
    uint8_t displace_due;                 /* [12.0] bit c: commander c owes a displacement */
    uint8_t entry_sq[WNLB_MAX_GROUPS];    /* [5.0] per entry group: entry-square index + 1 used ... */
    uint8_t entry_turn[WNLB_MAX_GROUPS];  /* ... in this game turn (R-wnlb-5.0-group-one-square) */
    uint8_t card_loc[WNLB_MAX_CARDS];     /* WNLB_LOC_* per card index */
    wnlb_unit units[WNLB_MAX_UNITS];
    int8_t cmd_row[2], cmd_col[2];        /* Napoleon, Wellington [12.0] */
    uint8_t cdp[WNLB_MAX_CHATEAUX];       /* [10.0] CDP remaining */
    uint8_t vp_owner[WNLB_MAX_VP];        /* [13.2] [13.3] last side to enter */
    int32_t elim_vp[2];                   /* [13.3] VPs for eliminated enemy units, per side */
    wnlb_battle battle;
    uint8_t resigned;                     /* side + 1 that resigned */
    uint8_t over;
    uint32_t winners;                     /* seat mask once over */
    char level[16];
} wnlb_state;

/* ---- orders (the ruleset's own form of proto wnlb.v1.Order) ---- */

enum {
    WNLB_O_NONE = 0,
    WNLB_O_BIDDER,        /* army */
    WNLB_O_BID,           /* card (0 = no bid) */
    WNLB_O_DECK,          /* army */
    WNLB_O_PLAY,          /* card, purpose, action (for WNLB_PURPOSE_ACTION), units/target */
    WNLB_O_MOVE,          /* unit (or commander), steps; entry square for reinforcements */
    WNLB_O_DONE,          /* end the current card's movement */
    WNLB_O_ATTACK,        /* target + attackers */
    WNLB_O_NO_BATTLE,
    WNLB_O_BATTLE_CARDS,  /* cards with their purposes (sealed) */
    WNLB_O_LOSS,          /* retreat?/square/facing, cdp */
    WNLB_O_ADVANCE,       /* unit (or -1 none if allowed), facing */
    WNLB_O_REDUCE,        /* unit */
    WNLB_O_CAV_RETREAT,   /* square + facing, or decline */
    WNLB_O_FIRE,          /* card + firing unit, or decline (card 0) */
    WNLB_O_DISPLACE,      /* square */
    WNLB_O_PASS,
    WNLB_O_END_ROUND,
    WNLB_O_CHARGE,        /* [11.4] charger, path (1-2 squares), target: inside PLAY or [11.5] */
};

/* step codes of a move: 0..3 turn to face that direction (a commander: move that way);
 * WNLB_STEP_FWD one square straight ahead [8.1] */
#define WNLB_STEP_FWD 4
#define WNLB_MAX_STEPS 32

typedef struct wnlb_order {
    int kind;
    int card;                 /* card id (1..55), 0 none */
    int purpose;              /* WNLB_PURPOSE_* */
    int action;               /* PLAY for an action: WNLB_ACT_*, the card's own [6.0] */
    int army;
    int unit;                 /* unit index, or WNLB_CMD0/WNLB_CMD1 for commanders, -1 none */
    int target;               /* unit index, -1 none */
    int n_units;
    int units[WNLB_MAX_ATTACKERS];
    int n_steps;
    uint8_t steps[WNLB_MAX_STEPS];
    int row, col;             /* a square (entry, retreat, displacement), -1 none */
    int facing;
    int flag;                 /* LOSS: 0 reduce, 1 retreat, 2 spend a CDP; CAV_RETREAT/FIRE: 1 decline;
                               * PLAY of a Rally [11.6]: 0 remove Disorder, 1 flip the Reduced unit */
    int n_cards;
    int cards[WNLB_MAX_CARDS];        /* BATTLE_CARDS: card ids */
    int purposes[WNLB_MAX_CARDS];     /* BATTLE_CARDS: WNLB_USE_BP or WNLB_ACT_ARTILLERY/COMMAND/ELITE */
} wnlb_order;

#define WNLB_CMD0 1000   /* Napoleon as a mover */
#define WNLB_CMD1 1001   /* Wellington */

/* ---- functions ---- */

/* state.c */
wnlb_state *wnlb_state_new(const wnlb_scenario *sc, unsigned seats);
void wnlb_state_destroy(wnlb_state **p);
wnlb_state *wnlb_state_clone(const wnlb_state *s);
int wnlb_state_encode(const wnlb_state *s, brt_buf *out);
int wnlb_unit_at(const wnlb_state *s, int row, int col);   /* unit index or -1 */
int wnlb_unit_find(const wnlb_state *s, const char *id);   /* unit index, commander code or -1 */
const char *wnlb_unit_name(const wnlb_state *s, int u);    /* unit id, NAPOLEON, WELLINGTON or "" */
int wnlb_card_index(const wnlb_state *s, int card_id);      /* index into sc->cards, -1 */
int wnlb_square_parse(const char *txt, int *row, int *col); /* "G-16" */
void wnlb_square_name(int row, int col, char *out, size_t cap);
int wnlb_on_board(const wnlb_state *s, int row, int col);
void wnlb_step(int dir, int *row, int *col);

/* seats: which seat plays an army, which side a seat is, the seat mask of a side */
int wnlb_seat_of_army(const wnlb_state *s, int army);
int wnlb_side_of_army(int army);
int wnlb_side_of_seat(const wnlb_state *s, unsigned seat);
uint32_t wnlb_side_seats(const wnlb_state *s, int side);
int wnlb_seat_armies(const wnlb_state *s, unsigned seat, int *armies);  /* count */

/* cards.c [3.2] [4.0] [6.0] */
void wnlb_deal(wnlb_state *s, brt_dice *dice, brt_events *ev);
int wnlb_hand_count(const wnlb_state *s, int army);
int wnlb_unused_count(const wnlb_state *s, int army);
int wnlb_card_in_hand(const wnlb_state *s, int army, int card_id);  /* index or -1 */
void wnlb_card_use(wnlb_state *s, int ci);   /* back onto the unused portion [6.0] */
int wnlb_side_has_cards(const wnlb_state *s, int side);

/* Each phase (WNLB_PH_*) belongs to one file, which gives its four functions (rounds.c calls
 * them): X_apply (the order of a seat that pending() names), X_pending (fills seats, kind, rule,
 * prompt), X_legal (every order the seat may give now, counted; apply accepts each) and X_default
 * (the rules' default when the seat's clock runs out; -1 none). */
#define WNLB_PHASE_FNS(x)                                                                                \
    int wnlb_##x##_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev, \
                         brt_reject *err);                                                               \
    void wnlb_##x##_pending(const wnlb_state *s, brt_pending *out);                                      \
    int wnlb_##x##_legal(const wnlb_state *s, unsigned seat, brt_buf *out);                              \
    int wnlb_##x##_default(const wnlb_state *s, unsigned seat, wnlb_order *o)

/* first.c [7.0]: PH_BIDDER, PH_BID */
void wnlb_first_start(wnlb_state *s, brt_dice *dice, brt_events *ev);  /* a new game turn's first round */
WNLB_PHASE_FNS(first);

/* rounds.c [4.0] [6.0]: PH_ROUND, PH_DECK, and the switchboard */
WNLB_PHASE_FNS(round);
WNLB_PHASE_FNS(deck);
int wnlb_round_seat(const wnlb_state *s);     /* the seat playing the round's army */
void wnlb_round_start(wnlb_state *s, int side, brt_events *ev);
void wnlb_round_end(wnlb_state *s, brt_dice *dice, brt_events *ev);
void wnlb_card_done(wnlb_state *s, brt_dice *dice, brt_events *ev);   /* Movement/Action complete: PH_DECLARE */
void wnlb_after_card(wnlb_state *s, brt_dice *dice, brt_events *ev);  /* the card's battle is over */
void wnlb_turn_end(wnlb_state *s, brt_dice *dice, brt_events *ev);
int wnlb_default_order(const wnlb_state *s, unsigned seat, wnlb_order *o);

/* movement.c [8.0]-[8.5] [9.6]: PH_MOVE, PH_CAV_RETREAT */
WNLB_PHASE_FNS(move);
int wnlb_enter_cost(const wnlb_state *s, int fr, int fc, int dir);  /* -1 impassable */
/* [8.0]-[8.3] [5.0] check a `move` / `enter` order against the state without applying it: 0 and the
 * MP it costs in *cost, or -1 with the rule it breaks (the whole order, as if no window opened) */
int wnlb_move_check(const wnlb_state *s, const wnlb_order *o, int *cost, brt_reject *err);
void wnlb_place(wnlb_state *s, int u, int row, int col);  /* state.c: a unit enters a square; VP ownership [13.3] */

/* battle.c [9.0]-[9.7] [10.0] [11.4] [11.5]: PH_DECLARE, PH_BATTLE_CARDS, PH_LOSS, PH_ADVANCE,
 * PH_ATT_REDUCE, PH_CHARGE */
WNLB_PHASE_FNS(battle);
int wnlb_can_attack(const wnlb_state *s, int a, int t);   /* [9.2] a adjacent to t and facing it */
/* [9.3] the base BPs of each side before cards; per-unit values in att_bp/def_bp when not NULL */
void wnlb_battle_base(const wnlb_state *s, const wnlb_battle *b, const int elite[2], int32_t *att,
                      int32_t *def, int32_t *att_bp);
int wnlb_rel_side(const wnlb_state *s, int t, int ar, int ac);  /* 0 front 1 flank 2 rear */
void wnlb_reduce(wnlb_state *s, int u, brt_events *ev);         /* [9.5] reduce or eliminate */
/* [9.5] Disorder by Artillery Fire: a second Disorder reduces, never eliminates; no effect on a unit
 * inside a chateau [10.0]. (A charge's after-effect [11.4] is applied by battle.c itself.) */
void wnlb_disorder(wnlb_state *s, int u, brt_events *ev);
/* [11.4] [11.5] a charge played from a round's card ci (already used and counted): 0 or -1 refused */
int wnlb_charge_start(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_events *ev, brt_reject *err);
int wnlb_charge_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out);  /* the card's charge orders */

/* chateau.c [10.0] */
int wnlb_chateau_at(const wnlb_state *s, int row, int col);     /* chateau index or -1 */

/* actions.c [11.1]-[11.3] [11.6] [11.7]: PH_FIRE, and the actions played in a round */
WNLB_PHASE_FNS(fire);
/* a card ci of the round's hand played for its action (the card is already used and counted) */
int wnlb_action_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_dice *dice, brt_events *ev,
                      brt_reject *err);
int wnlb_action_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out);  /* the card's action orders */
int wnlb_fire_target(const wnlb_state *s, int u);               /* [11.1] the enemy its counter faces or -1 */
/* [11.1] [10.0] the enemy units frontally adjacent to u: the one its counter faces, or, for infantry
 * inside a chateau ("facing frontally to all sides"), each one adjacent by a side, N E S W order;
 * count (at most 4) (R-wnlb-11.1-firer) */
int wnlb_fire_targets(const wnlb_state *s, int u, int *targets);
/* [11.1] the enemy u fires at: `named` (-1 none) among those of wnlb_fire_targets that fire may hit
 * (not inside a chateau [10.0]) and, with only_att, attackers of the battle; named only when
 * there are several (one order per outcome). The target, or -1 refused. */
int wnlb_fire_aim(const wnlb_state *s, int u, int named, int only_att, brt_reject *err);
/* [11.1] R-wnlb-11.1-windows: after a card, the other side's Fire window for its first army after
 * `after` (-1: from the first) that holds a card and an eligible firing unit; none: phase unchanged.
 * The window returns to PH_DECLARE. */
void wnlb_fire_open(wnlb_state *s, int after);
int wnlb_fire_unit_ok(const wnlb_state *s, int army, int u); /* [11.1] u of army may fire now */

/* commanders.c [12.0]: PH_DISPLACE */
WNLB_PHASE_FNS(displace);
/* [12.0] every lone commander adjacent to an enemy combat unit now is displaced (a position built
 * outside play; play itself queues only the unit that moved, wnlb_commanders_queue: movement, and
 * the battle part for an advance, a retreat or a charge, R-wnlb-12.0-displace-when) */
void wnlb_commanders_check(wnlb_state *s, brt_events *ev);
/* [12.0] commander cmd (0 Napoleon, 1 Wellington) goes to the nearest friendly combat unit. Call it
 * after setting s->phase to where play goes next: when two or more squares are equally near it
 * interposes PH_DISPLACE (the owner chooses) and play returns to that phase afterwards. cmd -1:
 * only the displacements already owed (s->displace_due). */
void wnlb_commander_displace(wnlb_state *s, int cmd, brt_events *ev);
void wnlb_commander_follow(wnlb_state *s, int u, int row, int col);
/* [12.0] combat unit u has just entered its square: every lone enemy commander adjacent to it is
 * displaced (may interpose PH_DISPLACE as wnlb_commander_displace does) */
void wnlb_commanders_entered(wnlb_state *s, int u, brt_events *ev);
void wnlb_commanders_queue(wnlb_state *s, int u);  /* the same, queued only: wnlb_commander_displace(s, -1, ev) runs it */
/* [12.0] the nearest squares with a friendly combat unit of commander cmd, row-major order; count */
int wnlb_commander_nearest(const wnlb_state *s, int cmd, int *rows, int *cols, int cap);

/* prussians.c [5.0] */
int wnlb_entry_ok(const wnlb_state *s, int u, int row, int col, brt_reject *err);
int wnlb_entry_cost(const wnlb_state *s, int row, int col);   /* [5.0] the MP of the first square */
int wnlb_entry_legal(const wnlb_state *s, brt_buf *out);       /* every `enter` order now, counted */
void wnlb_entry_record(wnlb_state *s, int u, int row, int col); /* the group's square this turn */

/* victory.c [13.2] [13.3] */
void wnlb_victory(wnlb_state *s, brt_events *ev);
void wnlb_scores(const wnlb_state *s, int32_t vp[2]);
/* [13.2] the chateaux (and Mt St Jean) the French hold, or [13.3] the VP of each side, and who wins */
void wnlb_victory_text(const wnlb_state *s, char *out, size_t cap);

/* events.c */
void wnlb_event(brt_events *ev, uint32_t seats, const char *kind, int army, const char *unit, int row, int col,
                int value, const int *cards, int n_cards, const char *text);

/* orders.c: wnlb_order <-> wnlb.v1.Order bytes */
int wnlb_order_encode(const wnlb_state *s, const wnlb_order *o, brt_buf *out);
int wnlb_order_decode(const wnlb_state *s, const uint8_t *data, size_t len, wnlb_order *o, brt_reject *err);
int wnlb_apply_order(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err);   /* rounds.c: to the phase's file */

/* legal.c, view.c, orders_text.c */
int wnlb_legal(const wnlb_state *s, unsigned seat, brt_buf *out);
void wnlb_pending(const wnlb_state *s, brt_pending *out);
int wnlb_view(const wnlb_state *s, int viewpoint, brt_buf *out);
int wnlb_view_text(const wnlb_state *s, int viewpoint, brt_buf *out);
int wnlb_may_see_hand(const wnlb_state *s, int viewpoint, int army);
int wnlb_order_parse(const wnlb_state *s, const char *text, brt_buf *out, brt_reject *err);
int wnlb_order_format(const uint8_t *order, size_t len, brt_buf *out);
int wnlb_event_format(const uint8_t *event, size_t len, brt_buf *out);

extern const brt_ruleset brt_ruleset_wnlb;

#endif
