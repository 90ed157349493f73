/*
 * commanders.c - [12.0] Napoleon and Wellington: displaced when an enemy unit moves adjacent to a
 * lone commander, retreating with their unit, placed with the nearest friendly unit when it is
 * eliminated. This version: commanders follow a unit that retreats; displacement is not played yet.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

/* [12.0] a commander in the square (row, col) a unit leaves goes with it */
void wnlb_commander_follow(wnlb_state *s, int u, int row, int col) {
    (void)u;
    for (int c = 0; c < 2; c++)
        if (s->cmd_row[c] >= 0 && s->cmd_row[c] == s->units[u].row && s->cmd_col[c] == s->units[u].col) {
            s->cmd_row[c] = (int8_t)row;
            s->cmd_col[c] = (int8_t)col;
        }
}

void wnlb_commanders_check(wnlb_state *s, brt_events *ev) {
    (void)s, (void)ev;
}

int wnlb_displace_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                        brt_reject *err) {
    (void)s, (void)seat, (void)o, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "commander displacement is not played by this version");
}

void wnlb_displace_pending(const wnlb_state *s, brt_pending *out) {
    (void)s;
    snprintf(out->kind, sizeof out->kind, "displace");
    snprintf(out->rule, sizeof out->rule, "12.0");
}

int wnlb_displace_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)s, (void)seat, (void)out;
    return 0;
}

int wnlb_displace_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat, (void)o;
    return -1;
}

void wnlb_commander_displace(wnlb_state *s, int cmd, brt_events *ev) {
    (void)s, (void)cmd, (void)ev;
}
