/*
 * movement.c - [8.0]-[8.3] the MP cost of entering a square, side by side.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

int wnlb_on_board(const wnlb_state *s, int row, int col) {
    return row >= 0 && col >= 0 && row < s->sc->rows && col < s->sc->cols;
}

/* [8.3] the MPs a combat unit in (fr, fc) pays to enter the square in direction dir; -1 when it
 * cannot (the board's edge, a pond side). Terrain of the square entered plus the side crossed:
 * ridge +1, stream +1 unless bridged; entering Mt St Jean or La Haye Sainte across a road side
 * costs 1; hill 1 from another hill. */
int wnlb_enter_cost(const wnlb_state *s, int fr, int fc, int dir) {
    int r = fr, c = fc;
    wnlb_step(dir, &r, &c);
    if (!wnlb_on_board(s, r, c)) return -1;
    uint8_t side = s->sc->side[fr][fc][dir];
    if (side & WNLB_SIDE_POND) return -1;
    int t = s->sc->terrain[r][c], cost = 1;
    if (t == WNLB_WOODS || t == WNLB_VILLAGE || t == WNLB_CHATEAU) cost = 2;
    else if (t == WNLB_HILL) cost = s->sc->terrain[fr][fc] == WNLB_HILL ? 1 : 2;
    if (side & WNLB_SIDE_ROAD)
        for (size_t i = 0; i < s->sc->n_vp; i++)
            if (s->sc->vp[i].row == r && s->sc->vp[i].col == c &&
                (!strcmp(s->sc->vp[i].name, "mt-st-jean") || !strcmp(s->sc->vp[i].name, "la-haye-sainte")))
                return 1;
    if (side & WNLB_SIDE_RIDGE) cost++;
    if ((side & WNLB_SIDE_STREAM) && !(side & WNLB_SIDE_BRIDGE)) cost++;
    return cost;
}

/* ---- [8.0] the moves under a Movement card. This version: the MPs are not spent yet ---- */

int wnlb_move_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    (void)seat;
    if (o->kind != WNLB_O_DONE) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "finish the movement (done)");
    wnlb_card_done(s, dice, ev);
    return 0;
}

void wnlb_move_pending(const wnlb_state *s, brt_pending *out) {
    out->seats = 1u << wnlb_round_seat(s);
    snprintf(out->kind, sizeof out->kind, "move");
    snprintf(out->rule, sizeof out->rule, "8.0");
    snprintf(out->prompt, sizeof out->prompt, "move under the Movement card (%u MP left), then done", s->mp_left);
}

int wnlb_move_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_DONE;
    return wnlb_order_encode(s, &o, out) ? -1 : 1;
}

int wnlb_move_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat;
    o->kind = WNLB_O_DONE;
    return 0;
}
