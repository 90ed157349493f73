/*
 * combat.h - what bombard.c, combat.c and generals.c share: [2. Bombardment], [3.4 Combat],
 * [Attaching] and [Unattached Generals] / [Capture of a General].
 *
 * The die faces the text lost are scenario parameters (docs/wem-data.md), read through
 * wem_param_get with the defaults below (RECONSTRUCTED, R-wem-die-faces in
 * docs/wem-rulings/combat.md):
 *   damage-lo / damage-hi          [Suffering Damages] a Loss on these faces (5, 6)
 *   melee-loss-lo / melee-loss-hi  [Suffer Damages (melee)] (5, 6)
 *   pursuit-lo / pursuit-hi        [Pursuit] success window (5, 6)
 *   die-general-attached           [Attaching] eliminated at or below (2d6, 2)
 *   die-general-unattached         [Unattached Generals] captured at or below (1d6, 1; else
 *                                  die-general-melee [Capture of a General], the same roll)
 *   lof-width / lof-length         [Line of fire and visibility] (300, 3600)
 *   melee-class                    [Melee die modifiers] +1 at this class or better (WEM_ELITE)
 *   reroll-class                   [Melee] one reroll when a unit of this class or better is in it (WEM_GUARD)
 *   pursuit-class                  [Pursuit die modifiers] -1 when pursuing with this class or worse (WEM_RECRUIT)
 *   pursuit-target-class           [Pursuit die modifiers] +/-1 vs a target of this class or better (WEM_ELITE)
 *   result-class                   [Result of Combat] -1 when this class or worse took part (WEM_RECRUIT)
 *   substitute-rank                [Substitute Generals] (1)
 */
#ifndef BERTHIER_WEM_COMBAT_H
#define BERTHIER_WEM_COMBAT_H

#include "wem.h"

/* which choice WEM_PH_MELEE_CHOICE asks (wem_combat.ask); pending.kind names it. The answers
 * (WEM_O_ANSWER, text `answer VALUE [VALUES...] [units ...] [place ...]`):
 *   starter            answer 0 units B12              the Unit to start
 *   corner-sides       answer 2                        the side of the defender touched (WEM_SIDE_*)
 *   reroll, counterattack                answer 1 | answer 0
 *   reinforce, pursuit-charge            answer 0 | answer 1 TURN DIST units TARGET GUIDE [UNIT...]
 *                                        (pursuit-charge: one Unit, TARGET UNIT; each in turn)
 *   pursuit            answer 1 (infantry) | answer 2 (cavalry): the type that rolls first
 *   pursuit-modifier   answer 0 1 -1                   values: +1 / -1 per optional modifier
 *   result-die         answer 1                        the index of the die kept
 *   result-modifier    answer 1 | answer -1
 *   fall-back-loss     answer 0 units B12
 * WEM_PH_LOSSES ("losses"): answer 0 2 1 units B12 B13 (the Losses of each Unit);
 * WEM_PH_GENERAL_ESCAPE ("general-escape"): answer 0 place R-II x,y, or done;
 * WEM_PH_BOMB_WITHDRAW ("bombard-withdraw"): answer 1 (Withdraw 1) | answer 0 (Shaken). */
enum {
    WEM_ASK_NONE = 0,
    WEM_ASK_STARTER,        /* "starter": a tie in front contact length, the attacker picks [Melee] */
    WEM_ASK_CORNER,         /* "corner-sides": exact corner contact, the defender picks the side hit */
    WEM_ASK_REROLL,         /* "reroll": 1 reroll the die, 0 keep it */
    WEM_ASK_COUNTER,        /* "counterattack": 1 melee again with roles swapped, 0 not [3.4 B] */
    WEM_ASK_REINFORCE,      /* "reinforce": a Charge of a reinforcing Formation, or 0 [3.4 C/D] */
    WEM_ASK_PURSUIT,        /* "pursuit": the unit type (WEM_INF / WEM_CAV) + 1 that rolls [Pursuit] */
    WEM_ASK_PURSUIT_MOD,    /* "pursuit-modifier": values[] +1/-1 per optional modifier */
    WEM_ASK_PURSUIT_CHARGE, /* "pursuit-charge": the Charge of one pursuing unit (each in turn), 0 none possible */
    WEM_ASK_RESULT_DIE,     /* "result-die": the index of the die kept [Result of Combat] */
    WEM_ASK_RESULT_MOD,     /* "result-modifier": +1 add the General's rank, -1 subtract it */
    WEM_ASK_FB_LOSS,        /* "fall-back-loss": units[0] the unit of the Formation taking the Loss */
};

/* where a combat stands (wem_combat.stage) */
enum {
    WEM_CS_IDLE = 0,
    WEM_CS_M_BEGIN,   /* a melee: the sides touched (corner-sides) */
    WEM_CS_M_ROLL,    /* both dice, the modifiers */
    WEM_CS_M_REROLL,  /* the rerolls */
    WEM_CS_M_EFFECT,  /* the melee effects table */
    WEM_CS_M_DAMAGE,  /* [Suffer Damages (melee)] */
    WEM_CS_M_LOSS,    /* the Losses spread by their owners */
    WEM_CS_M_PURSUIT, /* [Pursuit] */
    WEM_CS_M_PMOD,
    WEM_CS_M_PROLL,
    WEM_CS_NEXT,      /* the melee is over: the next step */
    WEM_CS_B,
    WEM_CS_C,
    WEM_CS_D,
    WEM_CS_E_ROLL,
    WEM_CS_E_DIE,
    WEM_CS_E_MOD,
    WEM_CS_E_APPLY,
    WEM_CS_E_FBLOSS,
    WEM_CS_E_END,
    WEM_CS_E_GEN,     /* [Capture of a General] the unattached Generals in the combat, then the end */
};

/* combat.c: the combat in progress goes on from s->combat.stage to its next decision */
void wem_combat_drive(wem_state *s, brt_dice *dice, brt_events *ev);

/* the answer kinds as pending() names them */
const char *wem_ask_kind(int ask);

/* ---- generals.c ---- */

/* [Attaching] the General attached to unit u (a general index), -1 none */
int wem_gen_attached_to(const wem_state *s, int u);
/* [Attaching] a General attached to any unit of u's Formation, -1 none */
int wem_gen_of_formation(const wem_state *s, const wem_formations *f, int u);
/* the rank a General counts with: 4 for a Commander in Chief, the Substitute's rank */
int wem_gen_rank(const wem_state *s, int g);
/* [Attaching] the 2d6 roll for General g attached to unit u, after Damage by bombardment or a
 * combat: eliminated at or below die-general-attached. Returns 1 if eliminated. `by` the enemy army. */
int wem_gen_attached_check(wem_state *s, int g, int u, int by, brt_dice *dice, brt_events *ev);
/* [Unattached Generals] [Capture of a General] the 1d6 roll of unattached General g in a combat
 * with enemy unit e: 1 captured (and removed), 0 he may escape */
int wem_gen_capture_roll(wem_state *s, int g, int e, brt_dice *dice, brt_events *ev);
/* [Unattached Generals] the escape move of up to 2 UoM: 0 accepted, -1 refused (err) */
int wem_gen_escape_check(const wem_state *s, int g, wem_pt to, brt_reject *err);

/* ---- bombard.c, for others ---- */

/* [Line of fire and visibility] may gun g fire on unit t now (in its line of fire, visible)? */
int wem_bomb_can_target(const wem_state *s, int g, int t);
/* [2. Bombardment] is g a gun that may fire or support now (its army's, unfastened, no Smoke,
 * not in an enemy area of engagement, not fired this phase)? */
int wem_bomb_gun_ready(const wem_state *s, int g);
/* [Suffering Damages] n Damage on unit u by army `by`: 1 die each, a Loss on damage-lo..hi */
void wem_damage(wem_state *s, int u, int n, int by, brt_dice *dice, brt_events *ev);

/* ---- shared small helpers ---- */

/* the area terrain (WEM_T_*) unit u stands ENTIRELY inside, best defence first: its defence
 * modifier for a unit in defence not in movement [Area Terrain]; *kind the terrain, 0 none */
int wem_terrain_defence(const wem_state *s, int u, int *kind);
/* the unit is entirely inside an area of that kind */
int wem_inside_kind(const wem_state *s, int u, int kind);
/* a garrison [The Garrisons]: 1 Hougoumont, 2 La Haye Sainte, 0 not a garrison */
int wem_garrison(const wem_state *s, int u);

#endif
