/*
 * movement.c - [8.0]-[8.3] movement under a Movement card: the MP cost of entering a square, side
 * by side, facing [8.1], stacking [8.2], commanders [8.0] [12.0], Prussian entry [5.0] (the
 * schedule is prussians.c's), and [9.6] cavalry retreat before battle (PH_CAV_RETREAT).
 * Rulings: docs/rulings.md, "movement, cavalry retreat, commanders and reinforcements".
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

static const char s_dir[] = "NESW";

static int s_side_of(const wnlb_state *s, int u) { return wnlb_side_of_army(s->sc->units[u].army); }

/* the commander (0, 1) in (row, col), or -1 */
static int s_cmd_at(const wnlb_state *s, int row, int col) {
    for (int c = 0; c < 2; c++)
        if (s->cmd_row[c] >= 0 && s->cmd_row[c] == row && s->cmd_col[c] == col) return c;
    return -1;
}

/* the direction from (r1, c1) to the orthogonally adjacent (r2, c2), or -1 */
static int s_dir_to(int r1, int c1, int r2, int c2) {
    for (int d = 0; d < 4; d++) {
        int r = r1, c = c1;
        wnlb_step(d, &r, &c);
        if (r == r2 && c == c2) return d;
    }
    return -1;
}

/* [9.6] the first enemy cavalry unit (index order) with an index above `after` in a square
 * adjacent by a side to infantry unit u's square (R-wnlb-9.6-one-window-each), or -1 */
static int s_next_cavalry(const wnlb_state *s, int u, int after) {
    const wnlb_unit *m = &s->units[u];
    for (size_t i = (size_t)(after + 1); i < s->sc->n_units; i++) {
        const wnlb_unit *x = &s->units[i];
        if (x->eliminated || x->row < 0 || s->sc->units[i].type != WNLB_CAV) continue;
        if (s_side_of(s, (int)i) == s_side_of(s, u)) continue;
        if (s_dir_to(m->row, m->col, x->row, x->col) >= 0) return (int)i;
    }
    return -1;
}

/* ---- the check: a move simulated step by step on the state, nothing changed ---- */

typedef struct s_sim {
    int row, col, facing;
    int cost;
    uint8_t gone;   /* enemy commanders displaced on the way (bits) [12.0] */
    uint8_t free_turn; /* [10.0] the step before left a chateau: this facing change is free */
} s_sim;

/* a lone enemy commander adjacent to (row, col) of side `side` would be displaced [12.0] */
static void s_sim_displace(const wnlb_state *s, int side, s_sim *m) {
    for (int c = 0; c < 2; c++) {
        if (c == side || s->cmd_row[c] < 0) continue; /* commander c belongs to side c */
        if (wnlb_unit_at(s, s->cmd_row[c], s->cmd_col[c]) >= 0) continue;
        if (s_dir_to(m->row, m->col, s->cmd_row[c], s->cmd_col[c]) >= 0) m->gone |= (uint8_t)(1u << c);
    }
}

/* one step of combat unit u from m; 0 or -1 with the rule */
static int s_unit_step(const wnlb_state *s, int u, int step, int mp, s_sim *m, brt_reject *err) {
    const char *id = wnlb_unit_name(s, u);
    char sq[8];
    if (step < WNLB_STEP_FWD) {
        if (step == m->facing)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.1", "[8.1] %s already faces %c", id, s_dir[step]);
        int cost = m->free_turn ? 0 : 1; /* R-wnlb-10.0-leaving-chateau */
        if (m->cost + cost > mp)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.1", "[8.1] %s needs 1 MP to face %c, %d left", id,
                                  s_dir[step], mp - m->cost);
        m->facing = step;
        m->cost += cost;
        m->free_turn = 0;
        return 0;
    }
    int r = m->row, c = m->col;
    wnlb_step(m->facing, &r, &c);
    wnlb_square_name(r, c, sq, sizeof sq);
    if (!wnlb_on_board(s, r, c))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] %s would leave the board", id);
    int cost = wnlb_enter_cost(s, m->row, m->col, m->facing);
    if (cost < 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] %s may not cross the pond side into %s", id, sq);
    int x = wnlb_unit_at(s, r, c);
    if (x >= 0 && x != u)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may not enter %s: %s is there", id, sq,
                              wnlb_unit_name(s, x));
    int k = s_cmd_at(s, r, c);
    if (k >= 0 && k != s_side_of(s, u) && !(m->gone & (1u << k)))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may not enter %s: the enemy commander is there",
                              id, sq);
    if (m->cost + cost > mp)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] %s needs %d MP to enter %s, %d left", id, cost, sq,
                              mp - m->cost);
    m->free_turn = s->sc->terrain[m->row][m->col] == WNLB_CHATEAU;
    m->row = r;
    m->col = c;
    m->cost += cost;
    s_sim_displace(s, s_side_of(s, u), m);
    return 0;
}

/* one step of commander cmd (a direction: "go that way") [8.0] [12.0] */
static int s_cmd_step(const wnlb_state *s, int cmd, int step, int mp, s_sim *m, brt_reject *err) {
    const char *id = cmd ? "WELLINGTON" : "NAPOLEON";
    char sq[8];
    if (step >= WNLB_STEP_FWD)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "[12.0] %s has no facing: steps are N E S W", id);
    int r = m->row, c = m->col;
    wnlb_step(step, &r, &c);
    wnlb_square_name(r, c, sq, sizeof sq);
    if (!wnlb_on_board(s, r, c))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] %s would leave the board", id);
    if (s->sc->side[m->row][m->col][step] & WNLB_SIDE_POND)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] not even a commander crosses a pond side (%s)", sq);
    int x = wnlb_unit_at(s, r, c);
    if (x >= 0 && s_side_of(s, x) != cmd)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may share a square only with a friendly unit: %s is in %s",
                              id, wnlb_unit_name(s, x), sq);
    int k = s_cmd_at(s, r, c);
    if (k >= 0 && k != cmd)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] %s may not enter %s: the enemy commander is there", id, sq);
    if (m->cost + 1 > mp)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] %s needs 1 MP to enter %s, 0 left", id, sq);
    m->row = r;
    m->col = c;
    m->cost++;
    return 0;
}

int wnlb_move_check(const wnlb_state *s, const wnlb_order *o, int *cost, brt_reject *err) {
    if (o->kind != WNLB_O_MOVE) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "move a unit, or done");
    if (o->n_steps < 0 || o->n_steps > WNLB_MAX_STEPS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "too many steps");
    int mp = s->mp_left;
    s_sim m;
    memset(&m, 0, sizeof m);
    if (o->unit == WNLB_CMD0 || o->unit == WNLB_CMD1) {
        int cmd = o->unit - WNLB_CMD0;
        const char *id = cmd ? "WELLINGTON" : "NAPOLEON";
        /* [8.0] "his units and his Commander": Napoleon under French cards, Wellington under British */
        if (s->round_army != (cmd ? WNLB_BR : WNLB_FR))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] %s does not move under a %s card", id,
                                  s->round_army == WNLB_FR ? "French" : s->round_army == WNLB_BR ? "British" : "Prussian");
        if (o->row >= 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] only Prussian reinforcements enter");
        if (s->cmd_row[cmd] < 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "[12.0] %s is not on the board", id);
        if (o->n_steps < 1) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] a move has at least one step");
        m.row = s->cmd_row[cmd];
        m.col = s->cmd_col[cmd];
        for (int i = 0; i < o->n_steps; i++)
            if (s_cmd_step(s, cmd, o->steps[i], mp, &m, err)) return -1;
        *cost = m.cost;
        return 0;
    }
    int u = o->unit;
    if (u < 0 || (size_t)u >= s->sc->n_units) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "no such unit");
    const wnlb_unit *x = &s->units[u];
    const char *id = wnlb_unit_name(s, u);
    if (s->sc->units[u].army != s->round_army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "[6.0] %s is not moved by this round's cards", id);
    if (x->eliminated) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s was eliminated", id);
    if (o->row >= 0) {
        /* [5.0] a reinforcement enters through a square of its schedule, facing chosen */
        if (wnlb_entry_ok(s, u, o->row, o->col, err)) return -1;
        if (o->facing < 0 || o->facing > 3) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.1", "a facing is N E S W");
        int c0 = wnlb_entry_cost(s, o->row, o->col);
        char sq[8];
        wnlb_square_name(o->row, o->col, sq, sizeof sq);
        if (c0 > mp)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s needs %d MP to enter %s, %d left", id, c0, sq, mp);
        m.row = o->row;
        m.col = o->col;
        m.facing = o->facing;
        m.cost = c0;
        s_sim_displace(s, s_side_of(s, u), &m);
    } else {
        if (!x->entered || x->row < 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "5.0", "[5.0] %s has not entered the board: enter it", id);
        if (x->rallied) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "[11.6] %s was rallied: it may not move", id);
        if (o->n_steps < 1) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] a move has at least one step");
        int special = s->evade_dirs && u == s->mover && s->moving < 0;
        if (x->moved && !special && s->moving != u)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0",
                                  "[8.0] %s has moved this round and another unit has moved since", id);
        m.row = x->row;
        m.col = x->col;
        m.facing = x->facing;
        if (special) {
            /* [9.6] R-wnlb-9.6-mover-enters-vacated: facing changes, then one step into a vacated square */
            for (int i = 0; i < o->n_steps; i++)
                if (o->steps[i] == WNLB_STEP_FWD && i != o->n_steps - 1)
                    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.6",
                                          "[9.6] %s may only enter the square the cavalry vacated: its movement is over", id);
            if (o->steps[o->n_steps - 1] != WNLB_STEP_FWD)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.6",
                                      "[9.6] %s may only enter the square the cavalry vacated: its movement is over", id);
        }
    }
    for (int i = 0; i < o->n_steps; i++)
        if (s_unit_step(s, u, o->steps[i], mp, &m, err)) return -1;
    if (s->evade_dirs && u == s->mover && s->moving < 0 && o->row < 0) {
        int d = s_dir_to(x->row, x->col, m.row, m.col);
        if (d < 0 || !(s->evade_dirs & (1u << d)))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.6",
                                  "[9.6] %s may only enter the square the cavalry vacated: its movement is over", id);
    }
    *cost = m.cost;
    return 0;
}

/* ---- applying a move ---- */

static void s_moved_event(wnlb_state *s, brt_events *ev, const char *id, int army, int row, int col, int mp,
                          const char *what) {
    char txt[96], sq[8];
    wnlb_square_name(row, col, sq, sizeof sq);
    snprintf(txt, sizeof txt, "[8.0] %s %s %s (%d MP, %u left)", id, what, sq, mp, s->mp_left);
    wnlb_event(ev, BRT_SEATS_ALL, "moved", army, id, row, col, mp, NULL, 0, txt);
}

/* [9.6] a window for cavalry unit cav against the mover (the phase to return to is PH_MOVE) */
static void s_open_window(wnlb_state *s, int mover, int cav, brt_events *ev) {
    s->phase = WNLB_PH_CAV_RETREAT;
    s->return_phase = WNLB_PH_MOVE;
    s->interrupt_unit = (int8_t)cav;
    s->mover = (int8_t)mover;
    char txt[96];
    snprintf(txt, sizeof txt, "[9.6] %s may retreat before %s", wnlb_unit_name(s, cav), wnlb_unit_name(s, mover));
    wnlb_event(ev, BRT_SEATS_ALL, "cav-window", s->sc->units[cav].army, wnlb_unit_name(s, cav), s->units[cav].row,
               s->units[cav].col, 0, NULL, 0, txt);
}

/* unit u entered the square it is in by movement: [12.0] then [9.6]; 1 if a window opened */
static int s_after_enter(wnlb_state *s, int u, brt_events *ev) {
    wnlb_commanders_queue(s, u); /* resolved once the order is over and no window is open */
    if (s->sc->units[u].type != WNLB_INF) return 0;
    int cav = s_next_cavalry(s, u, -1);
    if (cav < 0) return 0;
    s_open_window(s, u, cav, ev);
    return 1;
}

static void s_move_unit(wnlb_state *s, const wnlb_order *o, brt_events *ev) {
    int u = o->unit;
    wnlb_unit *x = &s->units[u];
    const char *id = wnlb_unit_name(s, u);
    int army = s->sc->units[u].army;
    int special = s->evade_dirs && u == s->mover && s->moving < 0;
    s->evade_dirs = 0;
    s->moving = special ? -1 : (int8_t)u; /* [9.6] after entering the vacated square the movement is over */
    x->moved = 1;
    int spent = 0, start = s->mp_left;
    if (o->row >= 0) {
        int c0 = wnlb_entry_cost(s, o->row, o->col);
        x->entered = 1;
        x->facing = (uint8_t)o->facing;
        wnlb_entry_record(s, u, o->row, o->col);
        wnlb_place(s, u, o->row, o->col);
        s->mp_left = (uint8_t)(s->mp_left - c0);
        spent += c0;
        char txt[96], sq[8];
        wnlb_square_name(o->row, o->col, sq, sizeof sq);
        snprintf(txt, sizeof txt, "[5.0] %s enters through %s facing %c (%d MP)", id, sq, s_dir[o->facing & 3], c0);
        wnlb_event(ev, BRT_SEATS_ALL, "entered", army, id, o->row, o->col, c0, NULL, 0, txt);
        s->move_steps = 0;
        if (s_after_enter(s, u, ev)) return;
    }
    int free_turn = 0;
    for (int i = 0; i < o->n_steps; i++) {
        int st = o->steps[i];
        if (st < WNLB_STEP_FWD) {
            x->facing = (uint8_t)st;
            if (!free_turn) { /* [10.0] the facing right after leaving a chateau is free */
                s->mp_left--;
                spent++;
            }
            free_turn = 0;
            continue;
        }
        int r = x->row, c = x->col;
        wnlb_step(x->facing, &r, &c);
        int k = wnlb_enter_cost(s, x->row, x->col, x->facing);
        free_turn = s->sc->terrain[x->row][x->col] == WNLB_CHATEAU;
        wnlb_place(s, u, r, c);
        s->mp_left = (uint8_t)(s->mp_left - k);
        spent += k;
        s->move_steps = (uint8_t)(i + 1);
        if (s_after_enter(s, u, ev)) {
            /* R-wnlb-9.6-move-stops: the order stops here; the rest of its steps are not made */
            s_moved_event(s, ev, id, army, x->row, x->col, start - s->mp_left, "moves to");
            return;
        }
    }
    s->move_steps = (uint8_t)o->n_steps;
    s_moved_event(s, ev, id, army, x->row, x->col, spent, o->n_steps ? "moves to" : "stands in");
    wnlb_commander_displace(s, -1, ev); /* the displacements the move owes, now that no window is open */
}

static int s_move_apply(wnlb_state *s, const wnlb_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    if (o->kind == WNLB_O_DONE) {
        s->evade_dirs = 0;
        wnlb_event(ev, BRT_SEATS_ALL, "move-done", s->round_army, NULL, -1, -1, s->mp_left, NULL, 0,
                   "[8.0] the movement is over; unused MP are lost");
        wnlb_card_done(s, dice, ev);
        return 0;
    }
    if (o->kind != WNLB_O_MOVE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "[8.0] move a unit or a commander, enter, or done");
    int cost = 0;
    if (wnlb_move_check(s, o, &cost, err)) return -1;
    if (o->unit == WNLB_CMD0 || o->unit == WNLB_CMD1) {
        int cmd = o->unit - WNLB_CMD0;
        s->evade_dirs = 0;
        for (int i = 0; i < o->n_steps; i++) {
            int r = s->cmd_row[cmd], c = s->cmd_col[cmd];
            wnlb_step(o->steps[i], &r, &c);
            s->cmd_row[cmd] = (int8_t)r;
            s->cmd_col[cmd] = (int8_t)c;
        }
        s->mp_left = (uint8_t)(s->mp_left - cost);
        s->move_steps = (uint8_t)o->n_steps;
        s_moved_event(s, ev, wnlb_unit_name(s, o->unit), cmd ? WNLB_BR : WNLB_FR, s->cmd_row[cmd], s->cmd_col[cmd], cost,
                      "moves to");
        return 0;
    }
    s_move_unit(s, o, ev);
    return 0;
}

/* ---- [9.6] the cavalry retreat window ---- */

/* 0 if cavalry cav may retreat into (row, col) [9.5] (R-wnlb-9.6-retreat-squares) */
static int s_evade_ok(const wnlb_state *s, int cav, int row, int col, brt_reject *err) {
    const wnlb_unit *x = &s->units[cav];
    const char *id = wnlb_unit_name(s, cav);
    char sq[8];
    wnlb_square_name(row, col, sq, sizeof sq);
    int d = s_dir_to(x->row, x->col, row, col);
    if (d < 0 || !wnlb_on_board(s, row, col))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s retreats one square to its rear or flank, not %s", id, sq);
    if (d == x->facing)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s may not retreat forward into %s", id, sq);
    if (s->sc->side[x->row][x->col][d] & WNLB_SIDE_POND)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] %s may not retreat across a pond side", id);
    int o = wnlb_unit_at(s, row, col);
    if (o >= 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s is not vacant: %s is there", sq, wnlb_unit_name(s, o));
    int k = s_cmd_at(s, row, col);
    if (k >= 0 && k != s_side_of(s, cav))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s is not vacant: the enemy commander is there", sq);
    return 0;
}

/* the windows of the mover's step are over: back to the movement, then the displacements owed */
static void s_close_windows(wnlb_state *s, brt_events *ev) {
    s->phase = s->return_phase;
    s->interrupt_unit = -1;
    if (s->moving != s->mover) s->evade_dirs = 0;      /* the mover's movement was already over */
    else if (s->evade_dirs) s->moving = -1;            /* over, but it may enter a vacated square */
    wnlb_commander_displace(s, -1, ev);
}

static int s_evade_apply(wnlb_state *s, const wnlb_order *o, brt_events *ev, brt_reject *err) {
    if (o->kind != WNLB_O_CAV_RETREAT)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.6", "[9.6] retreat the cavalry (evade SQUARE FACING) or evade none");
    int cav = s->interrupt_unit, mover = s->mover;
    if (cav < 0 || mover < 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.6", "no window open");
    const char *id = wnlb_unit_name(s, cav);
    int army = s->sc->units[cav].army;
    if (o->flag) {
        char txt[64];
        snprintf(txt, sizeof txt, "[9.6] %s stays", id);
        wnlb_event(ev, BRT_SEATS_ALL, "evaded", army, id, -1, -1, 0, NULL, 0, txt);
    } else {
        if (o->facing < 0 || o->facing > 3) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "a facing is N E S W");
        if (s_evade_ok(s, cav, o->row, o->col, err)) return -1;
        wnlb_unit *x = &s->units[cav];
        int d = s_dir_to(s->units[mover].row, s->units[mover].col, x->row, x->col);
        if (d >= 0) s->evade_dirs |= (uint8_t)(1u << d);
        wnlb_commander_follow(s, cav, o->row, o->col); /* [12.0] a commander retreats with his unit */
        wnlb_place(s, cav, o->row, o->col);
        x->facing = (uint8_t)o->facing;                /* free facing, no MP, no Moved marker */
        char txt[96], sq[8];
        wnlb_square_name(o->row, o->col, sq, sizeof sq);
        snprintf(txt, sizeof txt, "[9.6] %s retreats to %s facing %c", id, sq, s_dir[o->facing & 3]);
        wnlb_event(ev, BRT_SEATS_ALL, "evaded", army, id, o->row, o->col, 1, NULL, 0, txt);
        wnlb_commanders_queue(s, cav);
    }
    int next = s_next_cavalry(s, mover, cav);
    if (next >= 0) {
        s_open_window(s, mover, next, ev);
        return 0;
    }
    s_close_windows(s, ev);
    return 0;
}

/* ---- the phase functions (PH_MOVE and PH_CAV_RETREAT share the switchboard's entry) ---- */

int wnlb_move_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    (void)seat;
    if (s->phase == WNLB_PH_CAV_RETREAT) return s_evade_apply(s, o, ev, err);
    return s_move_apply(s, o, dice, ev, err);
}

void wnlb_move_pending(const wnlb_state *s, brt_pending *out) {
    if (s->phase == WNLB_PH_CAV_RETREAT && s->interrupt_unit >= 0 && s->mover >= 0) {
        out->seats = 1u << wnlb_seat_of_army(s, s->sc->units[s->interrupt_unit].army);
        snprintf(out->kind, sizeof out->kind, "cav-retreat");
        snprintf(out->rule, sizeof out->rule, "9.6");
        snprintf(out->prompt, sizeof out->prompt, "%s may retreat before %s: evade SQUARE FACING, or evade none",
                 wnlb_unit_name(s, s->interrupt_unit), wnlb_unit_name(s, s->mover));
        return;
    }
    out->seats = 1u << wnlb_round_seat(s);
    snprintf(out->kind, sizeof out->kind, "move");
    snprintf(out->rule, sizeof out->rule, "8.0");
    snprintf(out->prompt, sizeof out->prompt, "move under the Movement card (%u MP left), then done", s->mp_left);
}

static int s_emit(const wnlb_state *s, const wnlb_order *o, brt_buf *out, int *n) {
    if (wnlb_order_encode(s, o, out)) return -1;
    (*n)++;
    return 0;
}

static int s_evade_legal(const wnlb_state *s, brt_buf *out) {
    int n = 0, cav = s->interrupt_unit;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = WNLB_O_CAV_RETREAT;
    o.unit = o.target = o.row = o.col = -1;
    o.flag = 1;
    if (s_emit(s, &o, out, &n)) return -1;
    if (cav < 0) return n;
    o.flag = 0;
    for (int d = 0; d < 4; d++) {
        int r = s->units[cav].row, c = s->units[cav].col;
        wnlb_step(d, &r, &c);
        if (s_evade_ok(s, cav, r, c, NULL)) continue;
        o.row = r;
        o.col = c;
        for (int f = 0; f < 4; f++) {
            o.facing = f;
            if (s_emit(s, &o, out, &n)) return -1;
        }
    }
    return n;
}

/* every end state (square, facing) a combat unit may reach with the MP left, one order each:
 * relaxation over (row, col, facing) by cost, the path kept (infantry stops where a [9.6]
 * window would open, as apply does) */
#define S_NST (WNLB_MAX_ROWS * WNLB_MAX_COLS * 4 * 2)
static int s_unit_legal(const wnlb_state *s, int u, brt_buf *out, int *n) {
    static const int none = 1 << 30;
    int best[S_NST], par[S_NST], pstep[S_NST];
    for (int i = 0; i < S_NST; i++) best[i] = none, par[i] = -1, pstep[i] = -1;
    const wnlb_unit *x = &s->units[u];
    int cols = s->sc->cols;
#define S_ID(r, c, f, k) (((((r) * cols) + (c)) * 4 + (f)) * 2 + (k))
    int start = S_ID(x->row, x->col, x->facing, 0);
    best[start] = 0;
    int inf = s->sc->units[u].type == WNLB_INF;
    /* an infantry move order stops where a [9.6] window would open: beside enemy cavalry
     * (R-wnlb-9.6-move-stops); the squares are marked once, before the search */
    uint8_t stop[WNLB_MAX_ROWS * WNLB_MAX_COLS];
    memset(stop, 0, sizeof stop);
    for (size_t i = 0; inf && i < s->sc->n_units; i++) {
        const wnlb_unit *y = &s->units[i];
        if (y->eliminated || y->row < 0 || s->sc->units[i].type != WNLB_CAV) continue;
        if (s_side_of(s, (int)i) == s_side_of(s, u)) continue;
        for (int d = 0; d < 4; d++) {
            int r = y->row, c = y->col;
            wnlb_step(d, &r, &c);
            if (wnlb_on_board(s, r, c)) stop[r * cols + c] = 1;
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int id = 0; id < s->sc->rows * cols * 8; id++) {
            if (best[id] == none) continue;
            int k = id % 2, f = (id / 2) % 4, sqi = id / 8, r = sqi / cols, c = sqi % cols;
            if (stop[sqi] && (r != x->row || c != x->col)) continue;
            for (int st = 0; st <= WNLB_STEP_FWD; st++) {
                s_sim m;
                memset(&m, 0, sizeof m);
                m.row = r, m.col = c, m.facing = f, m.cost = best[id], m.free_turn = (uint8_t)k;
                if (s_unit_step(s, u, st, s->mp_left, &m, NULL)) continue;
                int to = S_ID(m.row, m.col, m.facing, m.free_turn);
                if (m.cost < best[to]) {
                    best[to] = m.cost;
                    par[to] = id;
                    pstep[to] = st;
                    changed = 1;
                }
            }
        }
    }
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = WNLB_O_MOVE;
    o.unit = u;
    o.target = o.row = o.col = -1;
    for (int id = 0; id < s->sc->rows * cols * 8; id++) {
        if (id == start || best[id] == none) continue;
        /* one order per end square and facing: the cheaper of the two flag states */
        if ((id & 1) && best[id - 1] <= best[id]) continue;
        if (!(id & 1) && best[id + 1] < best[id]) continue;
        uint8_t rev[WNLB_MAX_STEPS];
        int k = 0;
        for (int at = id; at != start && k < WNLB_MAX_STEPS; at = par[at]) rev[k++] = (uint8_t)pstep[at];
        o.n_steps = k;
        for (int i = 0; i < k; i++) o.steps[i] = rev[k - 1 - i];
        int cost;
        if (wnlb_move_check(s, &o, &cost, NULL)) continue; /* the check has the last word */
        if (s_emit(s, &o, out, n)) return -1;
    }
#undef S_ID
    return 0;
}

int wnlb_move_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    if (s->phase == WNLB_PH_CAV_RETREAT) return s_evade_legal(s, out);
    int n = 0;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_DONE;
    if (s_emit(s, &o, out, &n)) return -1;
    if (!s->mp_left) return n;
    /* the commander: one square each way (he may move again) */
    int cmd = s->round_army == WNLB_FR ? 0 : s->round_army == WNLB_BR ? 1 : -1;
    if (cmd >= 0 && s->cmd_row[cmd] >= 0) {
        o.kind = WNLB_O_MOVE;
        o.unit = WNLB_CMD0 + cmd;
        o.n_steps = 1;
        for (int d = 0; d < 4; d++) {
            o.steps[0] = (uint8_t)d;
            int cost;
            if (wnlb_move_check(s, &o, &cost, NULL) == 0 && s_emit(s, &o, out, &n)) return -1;
        }
    }
    for (size_t u = 0; u < s->sc->n_units; u++) {
        const wnlb_unit *x = &s->units[u];
        if (s->sc->units[u].army != s->round_army || x->eliminated || x->row < 0 || x->rallied) continue;
        int special = s->evade_dirs && (int)u == s->mover && s->moving < 0;
        if (special) {
            o.kind = WNLB_O_MOVE;
            o.unit = (int)u;
            for (int d = 0; d < 4; d++) {
                if (!(s->evade_dirs & (1u << d))) continue;
                o.n_steps = 0;
                if (x->facing != d) o.steps[o.n_steps++] = (uint8_t)d;
                o.steps[o.n_steps++] = WNLB_STEP_FWD;
                int cost;
                if (wnlb_move_check(s, &o, &cost, NULL) == 0 && s_emit(s, &o, out, &n)) return -1;
            }
            continue;
        }
        if (x->moved && s->moving != (int)u) continue;
        if (s_unit_legal(s, (int)u, out, &n)) return -1;
    }
    if (s->round_army == WNLB_PR) {
        int k = wnlb_entry_legal(s, out);
        if (k < 0) return -1;
        n += k;
    }
    return n;
}

int wnlb_move_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    if (s->phase == WNLB_PH_CAV_RETREAT) {
        o->kind = WNLB_O_CAV_RETREAT; /* [9.6] "may": not acting is staying */
        o->flag = 1;
        return 0;
    }
    o->kind = WNLB_O_DONE;
    return 0;
}
