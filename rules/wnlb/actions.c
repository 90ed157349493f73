/*
 * actions.c - [11.0]-[11.7] the cards played for their Action. This version plays none yet.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

int wnlb_action_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_dice *dice, brt_events *ev,
                      brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)ci, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.0", "actions are not played by this version");
}

int wnlb_action_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out) {
    (void)s, (void)seat, (void)ci, (void)out;
    return 0;
}

int wnlb_fire_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "Artillery Fire is not played by this version");
}

void wnlb_fire_pending(const wnlb_state *s, brt_pending *out) {
    (void)s;
    snprintf(out->kind, sizeof out->kind, "fire");
    snprintf(out->rule, sizeof out->rule, "11.1");
}

int wnlb_fire_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)s, (void)seat, (void)out;
    return 0;
}

int wnlb_fire_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat;
    o->kind = WNLB_O_FIRE;
    o->flag = 1;
    return 0;
}
