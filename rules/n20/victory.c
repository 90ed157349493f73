/*
 * victory.c - How to Win [15.0] and Morale Destroyed [12.1.2].
 */
#include <stdio.h>
#include <string.h>

#include "n20.h"

enum { R_NONE = 0, R_MORALE_FRENCH, R_MORALE_ALLIED, R_MORALE_BOTH, R_END_MARGINAL, R_END_DRAW,
       R_RESIGN, R_OPEN_BOTH_HELD, R_OPEN_FRENCH_MARGINAL, R_OPEN_ALLIED_MARGINAL, R_OPEN_DRAW, R_NAPOLEON_KILLED,
       R_AE_FRENCH_MARGINAL /* A-E [15.1] */ };

/* [17.2] How to Win the Opening Battles Scenario, at the end of the game */
static void s_opening_end(n20_state *s) {
    int held = 0;
    for (int i = 0; i < s->sc->nobj[N20_FRENCH]; i++) {
        int o = n20_unit_at(s, s->sc->obj[N20_FRENCH][i]);
        if (o >= 0 && n20_side_of(s, o) == N20_ALLIED) held++;
    }
    int f = s->morale[N20_FRENCH], a = s->morale[N20_ALLIED];
    s->winner = 2;
    s->level = 3;
    s->reason = R_OPEN_DRAW;
    if (held >= 2 && held == s->sc->nobj[N20_FRENCH]) {
        s->winner = N20_ALLIED;
        s->level = 1;
        s->reason = R_OPEN_BOTH_HELD;
    } else if (held == 0 && f > a) {
        s->winner = N20_FRENCH;
        s->level = 2;
        s->reason = R_OPEN_FRENCH_MARGINAL;
    } else if (held == 1 && a > f) {
        s->winner = N20_ALLIED;
        s->level = 2;
        s->reason = R_OPEN_ALLIED_MARGINAL;
    }
}

void n20_check_morale_zero(n20_state *s, n20_out *out) {
    if (s->over) return;
    int f0 = s->morale[N20_FRENCH] <= 0, a0 = s->morale[N20_ALLIED] <= 0;
    if (!f0 && !a0) return;
    s->over = 1;
    s->phase = N20_PH_OVER;
    if (f0 && a0) {
        s->winner = 2;
        s->level = 3;
        s->reason = R_MORALE_BOTH;
    } else {
        s->winner = f0 ? N20_ALLIED : N20_FRENCH;
        s->level = 1;
        s->reason = f0 ? R_MORALE_FRENCH : R_MORALE_ALLIED;
    }
    brt_result r;
    n20_result(s, &r);
    N20_EV(out, s, "game-over", "%s", r.reason);
}

void n20_game_end(n20_state *s, n20_out *out, const char *why) {
    if (s->over) return;
    s->over = 1;
    s->phase = N20_PH_OVER;
    if (s->sc->victory == N20_VICTORY_OPENING) {
        s_opening_end(s);
    } else if (s->morale[N20_ALLIED] >= s->morale[N20_FRENCH] + 1) {
        s->winner = N20_ALLIED;
        s->level = 2;
        s->reason = R_END_MARGINAL;
    } else if (n20_ae_french_marginal(s)) { /* A-E [15.1] */
        s->winner = N20_FRENCH;
        s->level = 2;
        s->reason = R_AE_FRENCH_MARGINAL;
    } else {
        s->winner = 2;
        s->level = 3;
        s->reason = R_END_DRAW;
    }
    brt_result r;
    n20_result(s, &r);
    N20_EV(out, s, "game-over", "%s (%s)", r.reason, why);
}

/* [16.9.6] Breaking Napoleon Table: Napoleon killed */
void n20_game_end_napoleon_killed(n20_state *s, n20_out *out) {
    if (s->over) return;
    s->over = 1;
    s->phase = N20_PH_OVER;
    s->winner = N20_ALLIED;
    s->level = 1;
    s->reason = R_NAPOLEON_KILLED;
    brt_result r;
    n20_result(s, &r);
    N20_EV(out, s, "game-over", "%s", r.reason);
}

void n20_result(const n20_state *s, brt_result *r) {
    memset(r, 0, sizeof *r);
    r->scores[0] = s->morale[0];
    r->scores[1] = s->morale[1];
    if (!s->over) return;
    r->ended = 1;
    r->winners = s->winner < 2 ? 1u << s->winner : 0;
    static const char *levels[] = {"", "decisive", "marginal", "draw", "forfeit"};
    snprintf(r->level, sizeof r->level, "%s", levels[s->level < 5 ? s->level : 0]);
    const char *why = "";
    switch (s->reason) {
    case R_MORALE_FRENCH: why = "[15.0] Anti-French Decisive Victory: French Morale reduced to zero"; break;
    case R_MORALE_ALLIED: why = "[15.0] French Decisive Victory: Anti-French Morale reduced to zero"; break;
    case R_MORALE_BOTH: why = "[12.1.2] both sides' Morale reached zero together: a draw"; break;
    case R_END_MARGINAL: why = "[15.0] Anti-French Marginal Victory: Anti-French Morale at least 1 higher at the end"; break;
    case R_END_DRAW: why = "[15.0] Draw: the Anti-French side's Morale is not higher than the French at the end"; break;
    case R_RESIGN: why = "the other side resigned or forfeited"; break;
    case R_OPEN_BOTH_HELD: why = "[17.2] Anti-French Decisive Victory: Anti-French units hold Quatre Bras and Sombreffe"; break;
    case R_OPEN_FRENCH_MARGINAL: why = "[17.2] French Marginal Victory: no French Objective hex held by the Anti-French, French Morale higher"; break;
    case R_OPEN_ALLIED_MARGINAL: why = "[17.2] Anti-French Marginal Victory: one French Objective hex held, Anti-French Morale higher"; break;
    case R_OPEN_DRAW: why = "[17.2] Draw (the historical outcome)"; break;
    case R_NAPOLEON_KILLED: why = "[16.9.6] Napoleon is killed: Anti-French Decisive Victory"; break;
    case R_AE_FRENCH_MARGINAL: why = "[15.1] French Marginal Victory: French Morale at least 1 higher, no Austrian unit in the French Objective, the Pontoon Bridges not destroyed"; break;
    default: break;
    }
    snprintf(r->reason, sizeof r->reason, "%s", why);
}

void n20_resign(n20_state *s, unsigned seat, n20_out *out) {
    if (s->over) return;
    s->over = 1;
    s->phase = N20_PH_OVER;
    s->winner = (uint8_t)(1 - (seat & 1));
    s->level = 4;
    s->reason = R_RESIGN;
    N20_EV(out, s, "game-over", "%s resigned or forfeited", n20_side_name((int)(seat & 1)));
}
