/*
 * prussians.c - [5.0] Prussian reinforcements (the Full Battle Game): a Prussian unit enters under a
 * Prussian Movement card through an entry square of the schedule (the Player Aid Card's, reconstructed
 * in rules/wnlb/scenarios/full.wnlb) from its game turn on; the first square costs its MP; the owner
 * chooses the facing; "B or C": the units of one group entering in a game turn share one square.
 * Rulings: R-wnlb-5.0-entry-cost, R-wnlb-5.0-group-one-square, R-wnlb-5.0-late-entry.
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

/* the entry square index of unit u's schedule for (row, col), or -1 */
static int s_entry_index(const wnlb_unit_def *d, int row, int col) {
    for (int i = 0; i < d->n_entry && i < WNLB_MAX_ENTRY; i++)
        if (d->entry_row[i] == row && d->entry_col[i] == col) return i;
    return -1;
}

/* R-wnlb-5.0-entry-cost: the square's own terrain cost [8.3] (no side is crossed coming from off
 * the map; a hill costs 2, entered from a non-hill square) */
int wnlb_entry_cost(const wnlb_state *s, int row, int col) {
    int t = s->sc->terrain[row][col];
    return t == WNLB_CLEAR ? 1 : 2;
}

int wnlb_entry_ok(const wnlb_state *s, int u, int row, int col, brt_reject *err) {
    const wnlb_unit_def *d = &s->sc->units[u];
    const wnlb_unit *x = &s->units[u];
    char sq[8];
    wnlb_square_name(row, col, sq, sizeof sq);
    if (!s->sc->prussians || d->army != WNLB_PR || !d->entry_turn)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s is not a Prussian reinforcement", d->id);
    if (s->round_army != WNLB_PR)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] reinforcements enter under Prussian Movement cards");
    if (x->entered || x->eliminated)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s has already entered", d->id);
    if (s->turn < d->entry_turn)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s enters from game turn %u, this is turn %u", d->id,
                              d->entry_turn, s->turn);
    int k = s_entry_index(d, row, col);
    if (k < 0 || !wnlb_on_board(s, row, col))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s does not enter through %s", d->id, sq);
    int g = d->entry_group;
    if (d->n_entry > 1 && g < WNLB_MAX_GROUPS && s->entry_turn[g] == s->turn && s->entry_sq[g] && s->entry_sq[g] != k + 1) {
        char used[8];
        wnlb_square_name(d->entry_row[s->entry_sq[g] - 1], d->entry_col[s->entry_sq[g] - 1], used, sizeof used);
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0",
                              "[5.0] %s's group entered through %s this turn: all of it enters there", d->id, used);
    }
    int o = wnlb_unit_at(s, row, col);
    if (o >= 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may not enter %s: %s is there", d->id, sq,
                              wnlb_unit_name(s, o));
    if (s->cmd_row[0] == row && s->cmd_col[0] == col) /* Napoleon, the Prussians' enemy commander */
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may not enter %s: the enemy commander is there",
                              d->id, sq);
    return 0;
}

void wnlb_entry_record(wnlb_state *s, int u, int row, int col) {
    const wnlb_unit_def *d = &s->sc->units[u];
    int g = d->entry_group, k = s_entry_index(d, row, col);
    if (g >= WNLB_MAX_GROUPS || k < 0) return;
    s->entry_turn[g] = s->turn;
    s->entry_sq[g] = (uint8_t)(k + 1);
}

int wnlb_entry_legal(const wnlb_state *s, brt_buf *out) {
    int n = 0;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = WNLB_O_MOVE;
    o.target = -1;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        const wnlb_unit_def *d = &s->sc->units[u];
        if (d->army != WNLB_PR || !d->entry_turn || s->units[u].entered) continue;
        for (int i = 0; i < d->n_entry && i < WNLB_MAX_ENTRY; i++) {
            o.unit = (int)u;
            o.row = d->entry_row[i];
            o.col = d->entry_col[i];
            for (int f = 0; f < 4; f++) {
                o.facing = f;
                int cost;
                if (wnlb_move_check(s, &o, &cost, NULL)) continue;
                if (wnlb_order_encode(s, &o, out)) return -1;
                n++;
            }
        }
    }
    return n;
}
