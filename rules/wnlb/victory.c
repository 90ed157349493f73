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

void wnlb_victory(wnlb_state *s, brt_events *ev) {
    s->over = 1;
    s->phase = WNLB_PH_OVER;
    char why[160];
    if (!s->sc->prussians) {
        /* [13.2] all three chateaux, or two of them plus Mt St Jean */
        int ch = 0, msj = 0;
        for (size_t i = 0; i < s->sc->n_vp; i++) {
            const wnlb_vp_def *d = &s->sc->vp[i];
            if (!d->short_game || s->vp_owner[i] != WNLB_SIDE_FRENCH) continue;
            if (!strcmp(d->name, "mt-st-jean")) msj = 1;
            else ch++;
        }
        int fr = ch >= 3 || (ch >= 2 && msj);
        s->winners = wnlb_side_seats(s, fr ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED);
        snprintf(s->level, sizeof s->level, "decisive");
        snprintf(why, sizeof why, "[13.2] the French hold %d chateaux%s: %s win", ch, msj ? " and Mt St Jean" : "",
                 fr ? "the French" : "the Allies");
    } else {
        int32_t vp[2];
        wnlb_scores(s, vp);
        s->winners = vp[0] > vp[1] ? wnlb_side_seats(s, 0) : vp[1] > vp[0] ? wnlb_side_seats(s, 1) : 0;
        snprintf(s->level, sizeof s->level, "%s", s->winners ? "points" : "draw");
        snprintf(why, sizeof why, "[13.3] French %d VP, Allied %d VP", (int)vp[0], (int)vp[1]);
    }
    wnlb_event(ev, BRT_SEATS_ALL, "ended", -1, NULL, -1, -1, (int)s->winners, NULL, 0, why);
}

