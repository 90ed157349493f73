/*
 * first.c - [7.0] the first player of each game turn.
 * This version: the French play the first round of every game turn (the bid is not played yet).
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

void wnlb_first_start(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice;
    wnlb_round_start(s, WNLB_SIDE_FRENCH, ev);
}

int wnlb_first_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0", "the bid is not played by this version");
}

void wnlb_first_pending(const wnlb_state *s, brt_pending *out) {
    (void)s;
    snprintf(out->kind, sizeof out->kind, "bid");
    snprintf(out->rule, sizeof out->rule, "7.0");
}

int wnlb_first_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)s, (void)seat, (void)out;
    return 0;
}

int wnlb_first_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat;
    o->kind = WNLB_O_BID;
    o->card = 0;
    return 0;
}
