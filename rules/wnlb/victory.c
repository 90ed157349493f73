/*
 * victory.c - [13.2] the Short Game's chateaux and [13.3] the Full Battle Game's Victory Points.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"

/* ---- victory [13.2] [13.3] ---- */

void wnlb_scores(const wnlb_state *s, int32_t vp[2]) {
    vp[0] = s->elim_vp[0];
    vp[1] = s->elim_vp[1];
    for (size_t i = 0; i < s->sc->n_vp; i++) {
        const wnlb_vp_def *d = &s->sc->vp[i];
        if (!d->full_game) continue;
        vp[s->vp_owner[i]] += d->vp[s->vp_owner[i]];
    }
}

/* [13.2] the French hold all three chateaux, or two of them plus Mt St Jean; the counts in *ch, *msj */
static int s_short_french(const wnlb_state *s, int *ch, int *msj) {
    *ch = *msj = 0;
    for (size_t i = 0; i < s->sc->n_vp; i++) {
        const wnlb_vp_def *d = &s->sc->vp[i];
        if (!d->short_game || s->vp_owner[i] != WNLB_SIDE_FRENCH) continue;
        if (!strcmp(d->name, "mt-st-jean")) *msj = 1;
        else ++*ch;
    }
    return *ch >= 3 || (*ch >= 2 && *msj);
}

void wnlb_victory_text(const wnlb_state *s, char *out, size_t cap) {
    if (!s->sc->prussians) {
        int ch, msj, fr = s_short_french(s, &ch, &msj);
        snprintf(out, cap, "[13.2] the French hold %d chateau%s%s: %s", ch, ch == 1 ? "" : "x",
                 msj ? " and Mt St Jean" : "", s->over ? (fr ? "the French win" : "the Allies win")
                                                       : (fr ? "enough to win" : "not enough to win"));
    } else {
        int32_t vp[2];
        wnlb_scores(s, vp);
        snprintf(out, cap, "[13.3] French %d VP, Allied %d VP", (int)vp[0], (int)vp[1]);
    }
}

void wnlb_victory(wnlb_state *s, brt_events *ev) {
    s->over = 1;
    s->phase = WNLB_PH_OVER;
    char why[160];
    if (!s->sc->prussians) {
        int ch, msj, fr = s_short_french(s, &ch, &msj);
        s->winners = wnlb_side_seats(s, fr ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED);
        snprintf(s->level, sizeof s->level, "decisive");
    } else {
        int32_t vp[2];
        wnlb_scores(s, vp);
        s->winners = vp[0] > vp[1] ? wnlb_side_seats(s, 0) : vp[1] > vp[0] ? wnlb_side_seats(s, 1) : 0;
        snprintf(s->level, sizeof s->level, "%s", s->winners ? "points" : "draw");
    }
    wnlb_victory_text(s, why, sizeof why);
    wnlb_event(ev, BRT_SEATS_ALL, "ended", -1, NULL, -1, -1, (int)s->winners, NULL, 0, why);
}
