/*
 * danube.h - Danube 20 (Aspern-Essling 20, Wagram 20, the Marchfeld): the scenario data and
 * the state of its exclusive rules, and the series-rules edition. Included by n20.h; every
 * field is integers only. The state part (n20_dn_state) is in the canonical encoding only in a
 * game whose scenario plays the v3.0 edition (state.c s_dn_encode), so no Waterloo 20 hash
 * changes.
 *
 * Sections: the edition; garrisons [9.4.4]; Aspern-Essling 20 (A-E); Wagram 20 and the
 * Marchfeld. Each section is owned by the file that plays it (README.md).
 */
#ifndef BERTHIER_N20_DANUBE_H
#define BERTHIER_N20_DANUBE_H

#include <stdint.h>

/* ---- the edition of the series rules (`edition v3|v4`) ------------------------------------ */
enum { N20_ED_V3 = 3, /* Danube 20: Napoleonic 20 v3.0 series rules */
       N20_ED_V4 = 4  /* Waterloo 20: v4.0 (the default) */ };

/* ---- hex zones of the Danube maps (`zone NAME HEX...` records), a bit each -------------------- */
enum { N20_Z_LOBAU = 1,   /* Wagram [6.10.2] [12.8] a hex of Lobau Island */
       N20_Z_HEIGHTS = 2  /* Wagram [3.0] the Russbach Heights (Austrian free deployment) */ };

/* [6.10] Pontoon Crossing Table results */
enum { N20_PC_PASS = 0, N20_PC_PASS_DAMAGED = 1, N20_PC_FAIL_DAMAGED = 2 };
/* a Pontoon Bridges marker */
enum { N20_PON_NONE = 0, N20_PON_INTACT, N20_PON_DAMAGED, N20_PON_DESTROYED };
/* [17.2] Summoned from Linz arrival outcomes (a die-1 table `linz-table`) */
enum { N20_LZ_REMOVED = 0, N20_LZ_DELAYED, N20_LZ_NEXT_TURN, N20_LZ_ARRIVES };

#define N20_DN_SITES 6

/* A-E [3.0]: a Danube River crossing site (`site` records) */
typedef struct n20_dn_site {
    char name[16];      /* lackenau, floridsdorf, lobau-west, lobau-east, fischamend */
    uint16_t north;     /* the blue-star hex on the northern bank (Bridgehead) */
    uint16_t south;     /* the southern-bank hex (Pontoon Bridges marker, 4eC, Napoleon) */
    char area;          /* [11.6] the Entry Area of the French reinforcements */
    uint16_t obj;       /* [3.0] the French Objective hex */
    uint16_t loc;       /* [9.8.6] the French LOC hex of its Entry Area (the only Active one) */
    uint8_t fischamend; /* [6.11] the Fischamend option */
} n20_dn_site;

typedef struct n20_dn_scenario {
    /* ---- garrisons [9.4.4]: garrison and battery units are `unit` records with flag garrison */
    uint8_t has_garrison;       /* a `unit` record has flag garrison (garrison.c looks only then) */
    /* ---- Aspern-Essling 20 (A-E) */
    n20_dn_site site[N20_DN_SITES];
    uint8_t nsites;             /* 0: the scenario has no crossing-site choice */
    uint8_t pontoon_cross[6];   /* [6.10] die-1 -> N20_PC_* */
    uint8_t pontoon_repair[6];  /* [4.1] Pontoon Repair Table: die-1 -> 1 repaired */
    uint8_t pontoon_destroy[6]; /* [6.10.2] die-1 -> 1 destroyed */
    uint16_t fisch_hex;         /* [3.0] 4eB's set-up hex with the Fischamend option (2110) */
    char fisch_area;            /* [9.8.6] the Flanking March entry area (D) */
    uint16_t fisch_loc;         /* its LOC hex */
    int8_t catastrophe;         /* [9.10.1] French Morale change when the Bridgehead falls (-2) */
    uint16_t home[8];           /* A-E [14.1] / Wagram [14.0] Home Ground hexes (yellow stars) */
    uint8_t nhome;
    uint8_t home_mode;          /* 0: +home_bonus if the French control none (A-E [14.1]);
                                 * 1: +home_bonus if an Austrian unit occupies one (Wagram [14.0]) */
    int8_t home_bonus;          /* replaces the Austrian night rest when it applies (+2) */
    /* ---- Wagram 20 and the Marchfeld */
    struct { uint16_t a, b; } incomplete[4]; /* [6.10.1] Hasty Construction: unusable bridges */
    uint8_t nincomplete;
    uint16_t secure[2];         /* [6.10.1] both free of Austrian units: the bridges complete */
    uint8_t nsecure;
    uint8_t secured0;           /* Marchfeld [18.0] #3: Crossings Secured from the start */
    uint8_t cc[6];              /* [6.10.2] Confusion & Congestion: units that may move off Lobau, die-1 */
    uint8_t turn1_move_only;    /* Wagram [4.1] Turn 1 is the French Movement Phase only */
    uint8_t caution_turn;       /* [6.11] inactive units are released from this turn on (8) */
    uint8_t lull_turn;          /* [13.0] no Lull before this turn (Wagram 8; 0 none) */
    int8_t lobau_morale;        /* [12.8] French Morale change the first time an Austrian enters Lobau */
    uint16_t flor_a, flor_b;    /* [16.10] the Floridsdorf pontoon hexes (0713 north, 0714 south) */
    uint16_t flor_loc;          /* [9.8.6] the French LOC there (0714) */
    uint8_t end_turn, end_side, end_phase; /* [18.0] #5 the game ends after this phase (0: none) */
    uint8_t linz[6];            /* [17.2] die-1 -> N20_LZ_* */
    uint8_t zone[N20_HEXES];    /* N20_Z_* per hex */
    /* ---- the data parser (data.c) */
    uint8_t cards_depth;        /* 1 + the base depth of the file whose `card` records made the deck */
} n20_dn_scenario;

/* The Danube 20 part of the state (encoded only in v3 games: state.c s_dn_encode). Fields added
 * here must be added to s_dn_encode in the same change. */
typedef struct n20_dn_state {
    /* ---- A-E */
    uint8_t site;        /* 1 + the chosen crossing site; 0 before the French choice */
    uint8_t site2;       /* [17.3] 1 + the second site; 0 none */
    uint8_t pontoon[2];  /* N20_PON_* of the first and the [17.3] second Pontoon Bridges */
    uint8_t bridgehead[2]; /* 1 while that Bridgehead (and its Garrison) stands [9.10.1] */
    uint8_t area_d;      /* [9.8.6] a French unit has entered play via the Fischamend area */
    /* ---- Wagram 20 */
    uint8_t secured;     /* [6.10.1] Crossings Secured */
    uint8_t cc_left;     /* [6.10.2] units that may still move off Lobau on Turn 1 (0xff: no cap) */
    uint8_t lobau_hit;   /* [12.8] applied once */
    uint8_t flor;        /* [16.10] N20_PON_NONE unbuilt (Damaged marker), INTACT built, DESTROYED */
    uint8_t flor_used;   /* [9.8.6] French units have crossed at Floridsdorf */
    uint8_t deployed;    /* Wagram [3.0] the Austrian free deployment is done */
} n20_dn_state;

#endif
