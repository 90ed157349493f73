/*
 * victory.c - removal of pieces [Effects of Unit removal], the immediate ends [Victory
 * Conditions] and the tally of Victory points [End of the Game].
 */
#include <stdio.h>
#include <string.h>

#include "wem.h"

/* the army credited with a removal: the one that caused it, else the enemy of the piece's army
 * (blue for red and black pieces, red for blue's) (R-wem-vp-credit) */
static int s_credit(int army, int by) {
    if (by >= 0 && by < WEM_ARMIES && by != army) return by;
    return army == WEM_BLUE ? WEM_RED : WEM_BLUE;
}

/* [Effects of Unit removal] eliminated: its VP; captured: doubled; out of field: halved, rounded down */
static int s_vp(int vp, int how) {
    if (how == WEM_CAPTURED) return vp * 2;
    if (how == WEM_OUTFIELD) return vp / 2;
    return vp;
}

static const char *s_how(int how) {
    return how == WEM_CAPTURED ? "captured" : how == WEM_OUTFIELD ? "out of field" : "eliminated";
}

void wem_unit_remove(wem_state *s, int u, int how, int by, brt_events *ev) {
    wem_unit *x = &s->units[u];
    const wem_unit_def *d = &s->sc->units[u];
    if (x->status != WEM_ON) return;
    x->status = (uint8_t)how;
    int credit = s_credit(d->army, by);
    s->vp[credit] += s_vp(d->vp, how);
    wem_event(s, ev, BRT_SEATS_ALL, "removed", d->army, u, -1, how, NULL, 0, &x->at, x->h,
              "[Effects of Unit removal] %s is %s", d->id, s_how(how));
    /* an attached General goes with the unit he stands on (R-wem-general-with-unit) */
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->generals[g].status == WEM_ON && s->generals[g].attached == u) s->generals[g].attached = -1;
}

void wem_general_remove(wem_state *s, int g, int how, int by, brt_events *ev) {
    wem_general *x = &s->generals[g];
    const wem_general_def *d = &s->sc->generals[g];
    if (x->status != WEM_ON) return;
    x->status = (uint8_t)how;
    x->attached = -1;
    int credit = s_credit(d->army, by);
    s->vp[credit] += s_vp(x->substitute ? d->sub_vp : d->vp, how);
    /* [Substitute Generals] a corps General's removal calls for a Substitute next turn; none for
     * Ney [General Ney] nor for a Commander in Chief */
    if (!d->cinc && !d->ney && !x->substitute) x->sub_due = 1;
    wem_event(s, ev, BRT_SEATS_ALL, "general-removed", d->army, WEM_GEN_BASE + g, -1, how, NULL, 0, &x->at, 0,
              "[Effects of Unit removal] %s is %s", d->id, s_how(how));
    wem_victory_check(s, ev);
}

static int s_cinc_off(const wem_state *s, int army) {
    for (size_t g = 0; g < s->sc->n_generals; g++)
        if (s->sc->generals[g].cinc && s->sc->generals[g].army == army) return s->generals[g].status != WEM_ON;
    return 0;
}

static void s_end(wem_state *s, uint32_t winners, const char *level, const char *reason, brt_events *ev) {
    s->over = 1;
    s->phase = WEM_PH_OVER;
    s->winners = winners;
    snprintf(s->level, sizeof s->level, "%s", level);
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    wem_event(s, ev, BRT_SEATS_ALL, "ended", -1, -1, -1, (int)winners, NULL, 0, NULL, 0, "%s", reason);
}

static uint32_t s_allies(const wem_state *s) { return wem_army_mask(s, WEM_RED) | wem_army_mask(s, WEM_BLACK); }

/* [Victory Conditions] Napoleon removed: red wins; Wellington removed: blue wins */
int wem_victory_check(wem_state *s, brt_events *ev) {
    if (s->over) return 1;
    if (s_cinc_off(s, WEM_BLUE)) {
        s_end(s, s_allies(s), "decisive", "[Victory Conditions] Napoleon is removed from the battlefield", ev);
        return 1;
    }
    if (s_cinc_off(s, WEM_RED)) {
        s_end(s, wem_army_mask(s, WEM_BLUE), "decisive",
              "[Victory Conditions] Wellington is removed from the battlefield", ev);
        return 1;
    }
    return 0;
}

void wem_scores(const wem_state *s, int32_t vp[WEM_ARMIES]) {
    for (int a = 0; a < WEM_ARMIES; a++) vp[a] = s->vp[a];
}

/* [End of the Game] the tally after the last turn; the allies red and black pool their points
 * (R-wem-allied-score) */
void wem_victory_final(wem_state *s, brt_events *ev) {
    int32_t vp[WEM_ARMIES];
    wem_scores(s, vp);
    int32_t blue = vp[WEM_BLUE], allies = vp[WEM_RED] + vp[WEM_BLACK];
    char why[96];
    snprintf(why, sizeof why, "[End of the Game] Victory points: blue %d, red and black %d", blue, allies);
    if (blue > allies) s_end(s, wem_army_mask(s, WEM_BLUE), "points", why, ev);
    else if (allies > blue) s_end(s, s_allies(s), "points", why, ev);
    else s_end(s, 0, "draw", why, ev);
}

void wem_victory_text(const wem_state *s, char *out, size_t cap) { snprintf(out, cap, "%s", s->reason); }

/* [Suffering Damages] "If a unit reaches its capacity to sustain Losses, that unit is eliminated" */
void wem_unit_loss(wem_state *s, int u, int n, int by, brt_events *ev) {
    wem_unit *x = &s->units[u];
    if (x->status != WEM_ON || n <= 0) return;
    int cap = s->sc->units[u].losses;
    int v = x->losses + n;
    x->losses = (uint8_t)(v > cap ? cap : v);
    wem_event(s, ev, BRT_SEATS_ALL, "loss", s->sc->units[u].army, u, -1, n, NULL, 0, NULL, 0,
              "[Suffering Damages] %s suffers %d Loss%s (%u of %d)", s->sc->units[u].id, n, n == 1 ? "" : "es",
              x->losses, cap);
    if (cap > 0 && x->losses >= cap) wem_unit_remove(s, u, WEM_ELIMINATED, by, ev);
}
