/*
 * commanders.c - [12.0] Napoleon and Wellington: displaced when an enemy unit moves adjacent to a
 * lone commander, retreating with their unit, placed with the nearest friendly unit when it is
 * eliminated (PH_DISPLACE when the owner has a choice). Commanders are never eliminated and never
 * advance. Rulings: R-wnlb-12.0-nearest, R-wnlb-12.0-displace-when, R-wnlb-12.0-default.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

/* commander c belongs to side c (Napoleon French, Wellington British/Allied) and army FR / BR */
static int s_army_of(int c) { return c ? WNLB_BR : WNLB_FR; }
static const char *s_name(int c) { return c ? "WELLINGTON" : "NAPOLEON"; }

/* [12.0] a commander in the square (row, col) a unit leaves goes with it */
void wnlb_commander_follow(wnlb_state *s, int u, int row, int col) {
    for (int c = 0; c < 2; c++)
        if (s->cmd_row[c] >= 0 && s->cmd_row[c] == s->units[u].row && s->cmd_col[c] == s->units[u].col) {
            s->cmd_row[c] = (int8_t)row;
            s->cmd_col[c] = (int8_t)col;
        }
}

/* 1 if no friendly combat unit shares commander c's square */
static int s_alone(const wnlb_state *s, int c) {
    int u = wnlb_unit_at(s, s->cmd_row[c], s->cmd_col[c]);
    return u < 0 || wnlb_side_of_army(s->sc->units[u].army) != c;
}

static int s_adjacent(int r1, int c1, int r2, int c2) {
    int dr = r1 - r2, dc = c1 - c2;
    return (dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1));
}

/* R-wnlb-12.0-nearest: distance in orthogonal steps over the board, any square passed through,
 * pond sides blocking; the nearest squares holding a friendly combat unit, row-major order */
int wnlb_commander_nearest(const wnlb_state *s, int cmd, int *rows, int *cols, int cap) {
    int R = s->sc->rows, C = s->sc->cols;
    int dist[WNLB_MAX_ROWS][WNLB_MAX_COLS];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) dist[r][c] = -1;
    int has[WNLB_MAX_ROWS][WNLB_MAX_COLS];
    memset(has, 0, sizeof has);
    for (size_t i = 0; i < s->sc->n_units; i++) {
        const wnlb_unit *x = &s->units[i];
        if (x->eliminated || x->row < 0 || wnlb_side_of_army(s->sc->units[i].army) != cmd) continue;
        has[x->row][x->col] = 1;
    }
    if (s->cmd_row[cmd] < 0) return 0;
    int qr[WNLB_MAX_ROWS * WNLB_MAX_COLS], qc[WNLB_MAX_ROWS * WNLB_MAX_COLS], h = 0, t = 0;
    qr[t] = s->cmd_row[cmd], qc[t++] = s->cmd_col[cmd];
    dist[s->cmd_row[cmd]][s->cmd_col[cmd]] = 0;
    int found = -1;
    while (h < t) {
        int r = qr[h], c = qc[h++];
        if (found >= 0 && dist[r][c] >= found) break;
        for (int d = 0; d < 4; d++) {
            int r2 = r, c2 = c;
            wnlb_step(d, &r2, &c2);
            if (!wnlb_on_board(s, r2, c2) || dist[r2][c2] >= 0 || (s->sc->side[r][c][d] & WNLB_SIDE_POND)) continue;
            dist[r2][c2] = dist[r][c] + 1;
            if (has[r2][c2] && found < 0) found = dist[r2][c2];
            qr[t] = r2, qc[t++] = c2;
        }
    }
    int n = 0;
    if (found < 0) return 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            if (dist[r][c] == found && has[r][c] && n < cap) {
                rows[n] = r;
                cols[n++] = c;
            }
    return n;
}

static void s_place(wnlb_state *s, int c, int row, int col, brt_events *ev) {
    s->cmd_row[c] = (int8_t)row;
    s->cmd_col[c] = (int8_t)col;
    s->displace_due &= (uint8_t)~(1u << c);
    char txt[96], sq[8];
    wnlb_square_name(row, col, sq, sizeof sq);
    snprintf(txt, sizeof txt, "[12.0] %s is placed with the nearest friendly unit, in %s", s_name(c), sq);
    wnlb_event(ev, BRT_SEATS_ALL, "displaced", s_army_of(c), s_name(c), row, col, 0, NULL, 0, txt);
}

/* the displacements owed, in commander order; stops at the first that needs its owner's choice */
static void s_run(wnlb_state *s, brt_events *ev) {
    while (s->displace_due && s->phase != WNLB_PH_DISPLACE && s->phase != WNLB_PH_CAV_RETREAT) {
        int c = (s->displace_due & 1u) ? 0 : 1;
        int rows[WNLB_MAX_UNITS], cols[WNLB_MAX_UNITS];
        int n = s->cmd_row[c] >= 0 && s_alone(s, c) ? wnlb_commander_nearest(s, c, rows, cols, WNLB_MAX_UNITS) : 0;
        if (n == 1) {
            s_place(s, c, rows[0], cols[0], ev);
            continue;
        }
        if (n == 0) { /* not alone any more, or no friendly unit left: he stays */
            s->displace_due &= (uint8_t)~(1u << c);
            continue;
        }
        s->return_phase = s->phase;
        s->phase = WNLB_PH_DISPLACE;
        s->interrupt_unit = (int8_t)c;
        return;
    }
}

void wnlb_commanders_queue(wnlb_state *s, int u) {
    const wnlb_unit *x = &s->units[u];
    if (x->row < 0 || x->eliminated) return;
    int side = wnlb_side_of_army(s->sc->units[u].army);
    for (int c = 0; c < 2; c++) {
        if (c == side || s->cmd_row[c] < 0 || !s_alone(s, c)) continue;
        if (s_adjacent(x->row, x->col, s->cmd_row[c], s->cmd_col[c])) s->displace_due |= (uint8_t)(1u << c);
    }
}

void wnlb_commanders_entered(wnlb_state *s, int u, brt_events *ev) {
    wnlb_commanders_queue(s, u);
    s_run(s, ev);
}

/* every lone commander adjacent to an enemy combat unit now (a position built outside play; in
 * play only the unit that moved is queued, R-wnlb-12.0-displace-when) */
void wnlb_commanders_check(wnlb_state *s, brt_events *ev) {
    for (size_t i = 0; i < s->sc->n_units; i++) wnlb_commanders_queue(s, (int)i);
    s_run(s, ev);
}

void wnlb_commander_displace(wnlb_state *s, int cmd, brt_events *ev) {
    if (cmd == 0 || cmd == 1) s->displace_due |= (uint8_t)(1u << cmd);
    s_run(s, ev);
}

/* ---- PH_DISPLACE: the owner chooses among the equally near squares ---- */

static int s_choice_ok(const wnlb_state *s, int c, int row, int col) {
    int rows[WNLB_MAX_UNITS], cols[WNLB_MAX_UNITS];
    int n = wnlb_commander_nearest(s, c, rows, cols, WNLB_MAX_UNITS);
    for (int i = 0; i < n; i++)
        if (rows[i] == row && cols[i] == col) return 1;
    return 0;
}

int wnlb_displace_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                        brt_reject *err) {
    (void)seat, (void)dice;
    int c = s->interrupt_unit;
    if (c != 0 && c != 1) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "no commander to place");
    if (o->kind != WNLB_O_DISPLACE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "[12.0] place %s: displace SQUARE", s_name(c));
    if (!s_choice_ok(s, c, o->row, o->col)) {
        char sq[8];
        wnlb_square_name(o->row, o->col, sq, sizeof sq);
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0",
                              "[12.0] %s is not one of the nearest squares with a friendly unit of %s", sq, s_name(c));
    }
    s_place(s, c, o->row, o->col, ev);
    s->phase = s->return_phase;
    s->interrupt_unit = -1;
    s_run(s, ev);
    return 0;
}

void wnlb_displace_pending(const wnlb_state *s, brt_pending *out) {
    int c = s->interrupt_unit == 1 ? 1 : 0;
    out->seats = 1u << wnlb_seat_of_army(s, s_army_of(c));
    snprintf(out->kind, sizeof out->kind, "displace");
    snprintf(out->rule, sizeof out->rule, "12.0");
    snprintf(out->prompt, sizeof out->prompt, "place %s with one of the nearest friendly units: displace SQUARE",
             s_name(c));
}

int wnlb_displace_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int c = s->interrupt_unit;
    if (c != 0 && c != 1) return 0;
    int rows[WNLB_MAX_UNITS], cols[WNLB_MAX_UNITS];
    int n = wnlb_commander_nearest(s, c, rows, cols, WNLB_MAX_UNITS);
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = WNLB_O_DISPLACE;
    o.unit = o.target = -1;
    for (int i = 0; i < n; i++) {
        o.row = rows[i];
        o.col = cols[i];
        if (wnlb_order_encode(s, &o, out)) return -1;
    }
    return n;
}

/* R-wnlb-12.0-default: displacement must happen; on timeout the lowest square (row-major) */
int wnlb_displace_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    int c = s->interrupt_unit;
    if (c != 0 && c != 1) return -1;
    int rows[WNLB_MAX_UNITS], cols[WNLB_MAX_UNITS];
    if (wnlb_commander_nearest(s, c, rows, cols, WNLB_MAX_UNITS) < 1) return -1;
    o->kind = WNLB_O_DISPLACE;
    o->row = rows[0];
    o->col = cols[0];
    return 0;
}
