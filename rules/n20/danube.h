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

#include <stddef.h>
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

/* ---- Aspern-Essling 20 (ae.c) ----------------------------------------------------------------- */
/* the event card effect N20_E_PONTOON_DAMAGE (n20.h, `pontoon-damage`) is played by n20_ae_card */
#define N20_AE_BERTRAND_TURN 3  /* [17.3.1] the second crossing site from the start of Game Turn 3 */

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
    /* ---- the picture (render.c) */
    uint8_t map_turn;           /* `map-turn 0|90|180|270`: the map drawn turned clockwise by this
                                 * many quarter turns, so that it reads like the real ground */
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
    uint64_t linz_in;    /* [17.2] bit u: unit u's Summoned from Linz roll let it arrive (5 or 6) */
    /* ---- Wagram 20 */
    uint8_t secured;     /* [6.10.1] Crossings Secured */
    uint8_t cc_left;     /* [6.10.2] units that may still move off Lobau on Turn 1 (0xff: no cap) */
    uint8_t lobau_hit;   /* [12.8] applied once */
    uint8_t flor;        /* [16.10] N20_PON_NONE unbuilt (Damaged marker), INTACT built, DESTROYED */
    uint8_t flor_used;   /* [9.8.6] French units have crossed at Floridsdorf */
    uint8_t deployed;    /* Wagram [3.0] the Austrian free deployment is done */
    uint64_t alt;        /* Wagram [3.0] bit u: reinforcement u was sent to its other entry area
                          * (alt_area, alt_delay turns later) */
} n20_dn_state;

/* ---- Aspern-Essling 20 (ae.c): the hooks the shared files call. Each is a no-op (or answers
 * "not mine", -1) in a scenario without crossing sites (sc->dn.nsites == 0). */
struct n20_state;
struct n20_out;
/* n20_ae(s): the scenario has the A-E crossing-site rules (inline in n20.h) */
void n20_ae_setup(struct n20_state *s); /* end of n20_setup: [3.0] the French choice is pending */
/* [3.0] the site named `name` may be chosen now (or [17.3.2] the second one, in the French
 * Movement Phase): its index, or -1 */
int n20_ae_site_check(const struct n20_state *s, const char *name, brt_reject *err);
void n20_ae_site_apply(struct n20_state *s, int k, struct n20_out *out);
const char *n20_ae_site_name(const struct n20_state *s, int k);
int n20_ae_pending_seat(const struct n20_state *s); /* -1: not an A-E decision */
/* the pending kind, rule and prompt of an A-E decision; 0 if the phase is not one */
int n20_ae_pending(const struct n20_state *s, const char **kind, const char **rule, const char **prompt);
/* [6.10] a step from -> to of unit u: 1 a crossing of the Pontoon Bridges (allowed; the Major
 * River does not block it), 0 not a pontoon step, -1 refused ([6.10.1] Damaged, destroyed) */
int n20_ae_step(const struct n20_state *s, int u, uint16_t from, uint16_t to, brt_reject *err);
/* R-dn-6.10-combat-bridge: 1 if a-b is the hexside of an intact Pontoon Bridges, a Bridge for
 * combat adjacency (zoc.c n20_adjacent_units) */
int n20_ae_combat_bridge(const struct n20_state *s, uint16_t a, uint16_t b);
/* [6.10] the crossing rolls of a move (or Reaction move) along a validated path: the number of
 * hexes of the path the unit enters (0: it stays where it is, with `flag`: N20_UF_MOVED or
 * N20_UF_REACTED) */
int n20_ae_cross(struct n20_state *s, int u, const uint16_t *path, int n, brt_dice *dice,
                 struct n20_out *out, int flag);
/* [6.10] a retreat step from -> to: 1 if the crossing fails (the unit Breaks [9.6.1]) */
int n20_ae_retreat_cross(struct n20_state *s, int u, uint16_t from, uint16_t to, int routing,
                         brt_dice *dice, struct n20_out *out);
/* [11.6] h is an entry hex of unit u: 1 yes, 0 no, -1 the scenario's area rules apply */
int n20_ae_is_entry(const struct n20_state *s, int u, uint16_t h);
/* [9.8.6] the LOC hex L of army is Active (1) for retreats; 1 outside A-E */
int n20_ae_loc_active(const struct n20_state *s, int army, uint16_t L);
/* [9.8.6] the friendly LOC hexes of army: the scenario's `loc` records, or in A-E for the French
 * army the Active LOC hexes of its crossing site(s) (put in buf); *n gets the count */
const uint16_t *n20_ae_locs(const struct n20_state *s, int army, int *n, uint16_t buf[4]);
void n20_ae_repair(struct n20_state *s, brt_dice *dice, struct n20_out *out); /* [4.1] */
/* [17.2] Summoned from Linz: the rolls of the phasing side's units due, in its Movement Phase */
void n20_ae_linz(struct n20_state *s, brt_dice *dice, struct n20_out *out);
void n20_ae_card(struct n20_state *s, int effect, brt_dice *dice, struct n20_out *out); /* [6.10.2] */
/* [9.10.1] unit u Advanced after Combat along path (a pursuit passes through hexes too) */
void n20_ae_advanced(struct n20_state *s, int u, const uint16_t *path, int n, struct n20_out *out);
/* [14.0] the A-E French Objective hexes (of the chosen sites) held by units of `side` */
int n20_ae_captured(const struct n20_state *s, int side);
/* [14.1] [14.2] the Morale recovered from Rest at Night by `side` (rest: the scenario's) */
int n20_ae_rest(const struct n20_state *s, int side, int rest, struct n20_out *out);
/* [15.1] the French Marginal Victory at the game's end: 1 if it applies */
int n20_ae_french_marginal(const struct n20_state *s);
/* the redoubt of [9.10]: 1 if h is a standing Bridgehead hex */
int n20_ae_bridgehead_at(const struct n20_state *s, uint16_t h);
/* the view (view.c): site names and pontoon states (names[0..3]: site, pontoon, site2, pontoon2) */
void n20_ae_view(const struct n20_state *s, char names[4][24], int *bh, uint32_t *bh_hex, uint32_t *pon_hex,
                 uint32_t *obj, int *bh2, uint32_t *obj2);
void n20_ae_view_text(const struct n20_state *s, brt_buf *out);

/* ---- Wagram 20 and the Marchfeld (wagram.c): the hooks the shared files call ----------------- */
struct n20_state;
struct n20_out;
/* set-up: Crossings Secured, the deployment decision, no C&C cap yet */
void n20_wg_setup(struct n20_state *s);
/* [3.0] the units the Austrian player deploys freely (placement `deploy`) */
int n20_wg_deploy_unit(const struct n20_state *s, int u);
int n20_wg_deploy_check(const struct n20_state *s, int u, uint16_t hex, brt_reject *err);
void n20_wg_deploy_apply(struct n20_state *s, int u, uint16_t hex, struct n20_out *out);
/* [3.0] a reinforcement sent to its other Entry Area alt_delay turns later */
int n20_wg_alt_check(const struct n20_state *s, int u, brt_reject *err);
void n20_wg_alt_apply(struct n20_state *s, int u, struct n20_out *out);
char n20_wg_entry_area(const struct n20_state *s, int u);
/* [4.1] this player turn is the Turn 1 French Movement Phase only */
int n20_wg_move_only(const struct n20_state *s);
/* [4.1] the events phase of a move-only turn is skipped: 1 if it was (the phase is set) */
int n20_wg_turn_events(struct n20_state *s, struct n20_out *out);
/* [4.1] the end of a move-only player turn: the Austrian Player Turn is skipped */
void n20_wg_turn_end(struct n20_state *s, struct n20_out *out);
/* [6.10.1] at the start of each player turn: Crossings Secured */
void n20_wg_player_turn(struct n20_state *s, struct n20_out *out);
/* [6.10.2] the Confusion & Congestion roll; [3.0] units rolling together (roll_group) */
void n20_wg_move_start(struct n20_state *s, brt_dice *dice, struct n20_out *out);
/* [6.11] unit u is inactive (Austrian Caution) */
int n20_wg_inactive(const struct n20_state *s, int u);
/* [6.11] what an inactive unit may not do: `what` names it ("move", "advance", "disengage") */
int n20_wg_caution_check(const struct n20_state *s, int u, const char *what, brt_reject *err);
/* [6.10.2] the C&C cap on a move's path */
int n20_wg_move_path_check(const struct n20_state *s, int u, const uint16_t *path, int n, brt_reject *err);
/* a step from `from` to `to` across a Wagram hexside: -1 refused ([6.10.1] incomplete bridge,
 * [16.10] pontoon), 0 the map decides, 1 a usable bridge, 2 builds the Floridsdorf pontoon */
int n20_wg_step(const struct n20_state *s, int u, uint16_t from, uint16_t to, brt_reject *err);
/* the same for a retreat: -1 prohibited, 0 the map decides, 1 a usable bridge */
int n20_wg_retreat_side(const struct n20_state *s, int u, uint16_t from, uint16_t to);
/* a retreat step across a Wagram bridge: 1 a Lobau bridge ([6.10]: safe, Routed), 2 the
 * Floridsdorf pontoon ([16.10.1] hazardous), 0 neither */
int n20_wg_retreat_bridge(const struct n20_state *s, uint16_t from, uint16_t to);
/* after unit u moved (start 0: it entered the map) along path */
void n20_wg_moved(struct n20_state *s, int u, uint16_t start, const uint16_t *path, int n, struct n20_out *out);
/* after unit u entered the hexes of path (a move, retreat or advance): [12.8] [16.10.2] */
void n20_wg_entered(struct n20_state *s, int u, const uint16_t *path, int n, struct n20_out *out);
/* [13.0] no Lull before lull_turn */
int n20_wg_lull_allowed(const struct n20_state *s);
/* [18.0] #5 the game ends after this phase (the data's end-after TURN SIDE PHASE) */
int n20_wg_end_now(const struct n20_state *s);
/* the Movement Phase prompt: `prompt`, or one naming the [3.0] alt-area choice written in buf when
 * a reinforcement of the phasing player may be sent to its other Entry Area now */
const char *n20_wg_move_prompt(const struct n20_state *s, const char *prompt, char *buf, size_t n);
/* [14.0] Home Ground: the rest of `side` at Night */
int n20_wg_rest(const struct n20_state *s, int side, int rest);
/* [9.8.6] a LOC hex of army beside the scenario's `loc` records: the Floridsdorf LOC, Active once
 * French units crossed the pontoon; 0 none */
uint16_t n20_wg_extra_loc(const struct n20_state *s, int army);
/* [16.10] the Floridsdorf pontoon for the view: "unbuilt", "built", "destroyed"; "" not in play */
const char *n20_wg_pontoon_name(const struct n20_state *s);

#endif
