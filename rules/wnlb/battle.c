/*
 * battle.c - [9.0]-[9.7] battles: one after each Movement or Action card, the sealed battle cards,
 * the arithmetic, losses, retreat and advance. This version: no battle is declared yet.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

int wnlb_battle_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                      brt_reject *err) {
    (void)seat;
    if (s->phase != WNLB_PH_DECLARE || o->kind != WNLB_O_NO_BATTLE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0", "battles are not played by this version: no-battle");
    wnlb_after_card(s, dice, ev);
    return 0;
}

void wnlb_battle_pending(const wnlb_state *s, brt_pending *out) {
    out->seats = 1u << wnlb_round_seat(s);
    snprintf(out->kind, sizeof out->kind, "declare-battle");
    snprintf(out->rule, sizeof out->rule, "9.0");
    snprintf(out->prompt, sizeof out->prompt, "declare one battle, or no battle");
}

int wnlb_battle_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_NO_BATTLE;
    return wnlb_order_encode(s, &o, out) ? -1 : 1;
}

int wnlb_battle_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat;
    o->kind = WNLB_O_NO_BATTLE;
    return 0;
}

/* [9.5] "A Disordered unit that suffers an additional Disorder result is Reduced (and no longer
 * Disordered)"; a reduced one (or one with a blank backside) "is not reduced again and eliminated:
 * nothing happens in this case" */
void wnlb_disorder(wnlb_state *s, int u, brt_events *ev) {
    wnlb_unit *x = &s->units[u];
    const wnlb_unit_def *d = &s->sc->units[u];
    if (!x->disordered) {
        x->disordered = 1;
        wnlb_event(ev, BRT_SEATS_ALL, "disorder", d->army, d->id, x->row, x->col, 1, NULL, 0, "[9.5] Disordered");
        return;
    }
    if (x->reduced || !d->reduced) {
        wnlb_event(ev, BRT_SEATS_ALL, "disorder", d->army, d->id, x->row, x->col, 0, NULL, 0,
                   "[9.5] Disordered again but already reduced: nothing happens");
        return;
    }
    x->reduced = 1;
    x->disordered = 0;
    wnlb_event(ev, BRT_SEATS_ALL, "disorder", d->army, d->id, x->row, x->col, 2, NULL, 0,
               "[9.5] a second Disorder: Reduced, no longer Disordered");
}

int wnlb_charge_start(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_events *ev, brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)ci, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "charges are not played by this version");
}

int wnlb_charge_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out) {
    (void)s, (void)seat, (void)ci, (void)out;
    return 0;
}
