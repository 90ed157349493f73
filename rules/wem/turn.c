/*
 * turn.c - the turn sequence [How to Play] [Turn Sequence] and the engine's switchboard.
 *
 * A turn is a list of steps (WEM_STEP_*): the Prussian entrance, Initiative, Substitute
 * Generals, Bombardment, then the five subphases of Execution (3.1 Assign, 3.2 Issue Orders,
 * 3.3 Maneuver with the unfastening at its end, 3.4 Combat, 3.5 End of Turn). "During each
 * subphase, every player acts in order of Initiative" [3. Execution]: each step is begun for
 * each army of s->order in turn; a step's begin (in the file of its rule) sets the phase and
 * returns 1 when the army has a decision, or 0 to pass. The sealed bid is the one step all
 * armies give at once.
 *
 * Each phase (WEM_PH_*) belongs to one file; apply, pending, legal and the timeout default go
 * to it through s_phases[]. Interrupts (a forced Withdraw, the distribution of Losses, a
 * General's escape) push the phase to return to (wem_interrupt / wem_resume).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

typedef struct s_phase {
    const char *name;
    int (*apply)(wem_state *, unsigned, const wem_order *, brt_dice *, brt_events *, brt_reject *);
    void (*pending)(const wem_state *, brt_pending *);
    int (*legal)(const wem_state *, unsigned, brt_buf *);
    int (*dflt)(wem_state *, unsigned, brt_dice *, brt_events *);
} s_phase;

#define S_PH(x) {#x, wem_##x##_apply, wem_##x##_pending, wem_##x##_legal, wem_##x##_default}
static const s_phase s_phases[WEM_PH_COUNT] = {
    [WEM_PH_ENTRANCE] = S_PH(entrance),
    [WEM_PH_BID] = S_PH(bid),
    [WEM_PH_SUBSTITUTE] = S_PH(substitute),
    [WEM_PH_BOMBARD] = S_PH(bombard),
    [WEM_PH_BOMB_WITHDRAW] = S_PH(bomb_withdraw),
    [WEM_PH_ASSIGN] = S_PH(assign),
    [WEM_PH_ORDERS] = S_PH(orders),
    [WEM_PH_MANEUVER] = S_PH(maneuver),
    [WEM_PH_CHARGE_REPLY] = S_PH(charge_reply),
    [WEM_PH_UNFASTEN] = S_PH(unfasten),
    [WEM_PH_COMBAT] = S_PH(combat),
    [WEM_PH_MELEE_CHOICE] = S_PH(melee_choice),
    [WEM_PH_LOSSES] = S_PH(losses),
    [WEM_PH_WITHDRAW] = S_PH(withdraw),
    [WEM_PH_GENERAL_ESCAPE] = S_PH(general_escape),
    [WEM_PH_OVER] = {"over", NULL, NULL, NULL, NULL},
};

const char *wem_phase_name(int phase) {
    return phase >= 0 && phase < WEM_PH_COUNT && s_phases[phase].name ? s_phases[phase].name : "?";
}

/* ---- dice ---- */

int wem_d6(brt_dice *dice, const char *purpose) { return (int)brt_dice_roll(dice, 6, purpose); }

int wem_2d6(brt_dice *dice, const char *purpose, int *a, int *b) {
    int x = wem_d6(dice, purpose), y = wem_d6(dice, purpose);
    if (a) *a = x;
    if (b) *b = y;
    return x + y;
}

/* ---- interrupts ---- */

void wem_interrupt(wem_state *s, int phase) {
    if (s->depth < sizeof s->stack) s->stack[s->depth++] = s->phase;
    s->phase = (uint8_t)phase;
}

void wem_resume(wem_state *s) {
    if (s->depth) s->phase = s->stack[--s->depth];
}

/* ---- the turn sequence ---- */

static int s_begin(wem_state *s, brt_dice *dice, brt_events *ev) {
    switch (s->step) {
    case WEM_STEP_ENTRANCE: return wem_entrance_begin(s, dice, ev);
    case WEM_STEP_INITIATIVE: return wem_initiative_begin(s, dice, ev);
    case WEM_STEP_SUBSTITUTE: return wem_substitute_begin(s, dice, ev);
    case WEM_STEP_BOMBARD: return wem_bombard_begin(s, dice, ev);
    case WEM_STEP_ASSIGN: return wem_assign_begin(s, dice, ev);
    case WEM_STEP_ORDERS: return wem_orders_begin(s, dice, ev);
    case WEM_STEP_MANEUVER: return wem_maneuver_begin(s, dice, ev);
    case WEM_STEP_UNFASTEN: return wem_unfasten_begin(s, dice, ev);
    case WEM_STEP_COMBAT: return wem_combat_begin(s, dice, ev);
    default: return 0;
    }
}

/* steps begun once for all armies (s->cur stays 0) */
static int s_once(int step) { return step == WEM_STEP_ENTRANCE || step == WEM_STEP_INITIATIVE; }

/* from the current (step, cur) on, find the next decision; the end of the turn when none */
static void s_run(wem_state *s, brt_dice *dice, brt_events *ev) {
    while (!s->over) {
        if (s->step >= WEM_STEP_END) {
            wem_end_of_turn(s, dice, ev);
            return;
        }
        if (s_begin(s, dice, ev)) return;
        if (s->over) return;
        if (!s_once(s->step) && s->cur + 1 < s->n_order) {
            s->cur++;
            continue;
        }
        /* the step is over for every army: after 3.2 the greens without an Order come off */
        if (s->step == WEM_STEP_ORDERS) wem_orders_end(s, ev);
        s->step++;
        s->cur = 0;
        s->passed = 0;
    }
}

void wem_turn_start(wem_state *s, brt_dice *dice, brt_events *ev) {
    s->step = WEM_STEP_ENTRANCE;
    s->cur = 0;
    s->passed = 0;
    s_run(s, dice, ev);
}

void wem_step_done(wem_state *s, brt_dice *dice, brt_events *ev) {
    if (s->over) return;
    s->depth = 0;
    if (!s_once(s->step) && s->cur + 1 < s->n_order) {
        s->cur++;
    } else {
        if (s->step == WEM_STEP_ORDERS) wem_orders_end(s, ev);
        s->step++;
        s->cur = 0;
        s->passed = 0;
    }
    s_run(s, dice, ev);
}

/* ---- the switchboard ---- */

int wem_apply_order(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    if (s->over || s->phase >= WEM_PH_OVER)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "End of the Game", "the game is over");
    brt_pending p;
    wem_pending(s, &p);
    if (!(p.seats & (1u << seat)))
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, p.rule, "it is not seat %u's decision: %s", seat,
                              p.prompt);
    return s_phases[s->phase].apply(s, seat, o, dice, ev, err);
}

void wem_pending(const wem_state *s, brt_pending *out) {
    memset(out, 0, sizeof *out);
    out->turn = s->turn;
    if (s->over || s->phase >= WEM_PH_OVER) {
        snprintf(out->kind, sizeof out->kind, "over");
        snprintf(out->rule, sizeof out->rule, "End of the Game");
        snprintf(out->prompt, sizeof out->prompt, "the game is over");
        return;
    }
    s_phases[s->phase].pending(s, out);
    out->turn = s->turn;
}

int wem_legal(const wem_state *s, unsigned seat, brt_buf *out) {
    if (s->over || s->phase >= WEM_PH_OVER) return 0;
    brt_pending p;
    wem_pending(s, &p);
    if (!(p.seats & (1u << seat))) return 0;
    return s_phases[s->phase].legal(s, seat, out);
}

int wem_timeout_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {
    if (s->over || s->phase >= WEM_PH_OVER) return -1;
    return s_phases[s->phase].dflt(s, seat, dice, ev);
}

int wem_legal_put(const wem_state *s, const wem_order *o, brt_buf *out) {
    brt_buf b;
    buf_init(&b);
    int rc = wem_order_encode(s, o, &b);
    if (rc == 0) rc = buf_append_item(out, b.data, b.len);
    buf_free(&b);
    return rc;
}

/* ---- [3.5 End of Turn] ---- */

void wem_end_of_turn(wem_state *s, brt_dice *dice, brt_events *ev) {
    const wem_scenario *sc = s->sc;
    /* Routed (2 yellow markers) Units are eliminated */
    for (size_t i = 0; i < sc->n_units; i++)
        if (s->units[i].status == WEM_ON && s->units[i].yellow >= 2)
            wem_unit_remove(s, (int)i, WEM_ELIMINATED, -1, ev);
    if (wem_victory_check(s, ev)) return;
    for (size_t i = 0; i < sc->n_units; i++) {
        wem_unit *u = &s->units[i];
        if (u->orange) u->orange--;  /* 1 orange marker off each Formation that has them */
        u->smoke = 0;                /* Smoke tokens off */
        u->fastened_turn = u->unfastened_turn = u->maneuvered = u->fought = u->meleed = 0;
        u->withdrew = u->ordered = u->out_of_seq = 0;
    }
    memset(s->kept, 0, sizeof s->kept);
    /* markers left in the Commander in Chief box are removed [Commanders in Chief] */
    for (int a = 0; a < WEM_ARMIES; a++) s->markers[a] = 0;
    /* Generals keep at most 4 markers; Ney keeps none [General Ney] */
    for (size_t g = 0; g < sc->n_generals; g++) {
        wem_general *x = &s->generals[g];
        if (x->markers > 4) x->markers = 4;
        if (sc->generals[g].ney) x->markers = 0;
        x->assigned = x->cp_gen = x->moved = 0;
        x->cp_gen_fmn = -1;
    }
    /* "All enemy Units still in contact must be split" (maneuver.c knows how) */
    wem_split_contacts(s, ev);
    wem_event(s, ev, BRT_SEATS_ALL, "turn-end", -1, -1, -1, s->turn, NULL, 0, NULL, 0,
              "[3.5 End of Turn] turn %u is over", s->turn);
    if (s->turn >= sc->last_turn) {
        wem_victory_final(s, ev);
        return;
    }
    s->turn++;
    wem_turn_start(s, dice, ev);
}
