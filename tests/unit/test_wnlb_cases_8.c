/*
 * test_wnlb_cases_8.c - rule cases of Movement [8.0]-[8.5] (Napoleon's Last Battle), with the
 * worked example of [8.5]. Each case is built on the fixture's own board (wnlb_t.h: t_blank),
 * so that it follows the rule text and not the reconstructed battlefield; docs/wnlb-cases/08.md
 * maps every case to its test.
 */
#include "wnlb_t.h"

/* A French player round of game turn 1 [3.2] on a blank board, with a Movement card of
 * `mp` MP played [8.0]: returns the fixture; *u is a French infantry unit put on `sq`. */
static t_fx *s_moving(t_board *b, int mp, int *u, const char *sq, int facing) {
    t_fx *f = t_new_blank(b, "short", 2, 8);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    *u = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_put(f, *u, sq, facing);
    t_move_card(f, 0, WNLB_FR, mp);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    assert_int_equal(f->s->mp_left, mp);
    return f;
}

/* the MP a move would cost, or -1 if refused */
static int s_cost(t_fx *f, const wnlb_order *o) {
    int cost = -1;
    brt_reject err;
    if (wnlb_move_check(f->s, o, &cost, &err) != 0) return -1;
    return cost;
}

/* [8.3] the MP cost of entering the square ahead of sq in direction dir */
static int s_enter(const t_fx *f, const char *sq, int dir) {
    int r, c;
    t_sq(sq, &r, &c);
    return wnlb_enter_cost(f->s, r, c, dir);
}

/* [8.5] The French 1/I Corps Infantry faces West; 1 MP to cross the stream and 2 to enter the
 * village; 1 MP to face South; across the bridged stream with no extra cost, 1 more: 5 MP,
 * and what is left of the card stays to be used [8.0] */
static void test_wnlb_8_5_example_of_movement(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_W);
    t_terrain(f, "E-5", WNLB_VILLAGE);
    t_side(f, "E-6", WNLB_W, WNLB_SIDE_STREAM);
    t_side(f, "E-5", WNLB_S, WNLB_SIDE_STREAM | WNLB_SIDE_BRIDGE);
    const int first[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, first);
    assert_int_equal(s_cost(f, &o), 3); /* 1 stream + 2 village */
    const int all[] = {WNLB_STEP_FWD, WNLB_S, WNLB_STEP_FWD};
    o = t_move(u, 3, all);
    assert_int_equal(s_cost(f, &o), 5);
    if (t_order(f, 0, &o) != 0) fail_msg("the [8.5] move refused: [%s] %s", f->err.rule, f->err.message);
    t_at(f, u, "F-5");
    assert_int_equal(f->s->units[u].facing, WNLB_S);
    assert_int_equal(f->s->mp_left, 1); /* "if there are any MP left ... continue" */
    assert_int_equal(f->s->units[u].moved, 1);
    t_free(f);
}

/* [8.1] a facing change costs 1 MP however many sides it turns */
static void test_wnlb_8_0_facing_change_costs_one_mp(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    const int half[] = {WNLB_S}, quarter[] = {WNLB_E};
    wnlb_order o = t_move(u, 1, half);
    assert_int_equal(s_cost(f, &o), 1);
    o = t_move(u, 1, quarter);
    assert_int_equal(s_cost(f, &o), 1);
    t_free(f);
}

/* [8.1] a unit moves only in the direction it faces: a step ahead enters its front square */
static void test_wnlb_8_1_moves_only_forward(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_E);
    const int s1[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-7");
    assert_int_equal(f->s->units[u].facing, WNLB_E);
    t_free(f);
}

/* [8.1] "A unit that only changes facing without moving, still receives a Moved Marker" */
static void test_wnlb_8_1_facing_only_gets_moved_marker(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    const int s1[] = {WNLB_W};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-6");
    assert_int_equal(f->s->units[u].facing, WNLB_W);
    assert_int_equal(f->s->units[u].moved, 1);
    assert_int_equal(f->s->mp_left, 3);
    t_free(f);
}

/* [8.1] a unit may change facing in a square adjacent to an enemy */
static void test_wnlb_8_1_facing_change_adjacent_to_enemy(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "E-7", WNLB_W);
    const int s1[] = {WNLB_E};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[u].facing, WNLB_E);
    t_free(f);
}

/* [8.3] clear 1, woods 2, village 2, chateau 2 MP to enter */
static void test_wnlb_8_3_square_terrain_costs(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    static const int terr[] = {WNLB_CLEAR, WNLB_WOODS, WNLB_VILLAGE, WNLB_CHATEAU};
    static const int cost[] = {1, 2, 2, 2};
    for (int i = 0; i < 4; i++) {
        t_terrain(f, "D-6", terr[i]);
        assert_int_equal(s_enter(f, "E-6", WNLB_N), cost[i]);
    }
    t_free(f);
}

/* [8.3] a hill costs 2 from a non-hill square, 1 from another hill square */
static void test_wnlb_8_3_hill_cost_depends_on_origin(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    t_terrain(f, "D-6", WNLB_HILL);
    assert_int_equal(s_enter(f, "E-6", WNLB_N), 2);
    t_terrain(f, "E-6", WNLB_HILL);
    assert_int_equal(s_enter(f, "E-6", WNLB_N), 1);
    t_free(f);
}

/* [8.3] ridge and stream sides: 1 MP to cross, in addition to the square */
static void test_wnlb_8_3_ridge_and_stream_sides_cost_one(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_RIDGE);
    assert_int_equal(s_enter(f, "E-6", WNLB_N), 2);
    t_terrain(f, "D-6", WNLB_WOODS);
    assert_int_equal(s_enter(f, "E-6", WNLB_N), 3);
    t_side(f, "E-6", WNLB_E, WNLB_SIDE_STREAM);
    assert_int_equal(s_enter(f, "E-6", WNLB_E), 2);
    t_free(f);
}

/* [8.3] "If there is a Bridge, there is no extra cost to cross" the stream */
static void test_wnlb_8_3_bridge_removes_stream_cost(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_STREAM | WNLB_SIDE_BRIDGE);
    assert_int_equal(s_enter(f, "E-6", WNLB_N), 1);
    t_free(f);
}

/* [8.3] no unit, not even a Commander, may cross a pond side */
static void test_wnlb_8_3_pond_side_impassable(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    int r, c;
    t_sq("E-6", &r, &c);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_POND);
    assert_int_equal(wnlb_enter_cost(f->s, r, c, WNLB_N), -1);
    const int s1[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_equal(s_cost(f, &o), -1);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-6");
    /* Napoleon in the same square, northward: refused as well */
    f->s->cmd_row[0] = (int8_t)r;
    f->s->cmd_col[0] = (int8_t)c;
    const int n1[] = {WNLB_N};
    o = t_move(WNLB_CMD0, 1, n1);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->cmd_row[0], r);
    t_free(f);
}

/* [8.0] [12.0] a commander pays 1 MP a square whatever the terrain and sides, and may move
 * more than once in the round */
static void test_wnlb_8_0_commander_one_mp_per_square(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "H-6", WNLB_N);
    int r, c;
    t_sq("E-6", &r, &c);
    f->s->cmd_row[0] = (int8_t)r;
    f->s->cmd_col[0] = (int8_t)c;
    t_terrain(f, "D-6", WNLB_WOODS);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_RIDGE);
    const int n1[] = {WNLB_N};
    wnlb_order o = t_move(WNLB_CMD0, 1, n1);
    assert_int_equal(s_cost(f, &o), 1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->mp_left, 3);
    assert_int_equal(t_order(f, 0, &o), 0); /* again, in the same round */
    assert_int_equal(f->s->mp_left, 2);
    assert_int_equal(f->s->cmd_row[0], r - 2);
    t_free(f);
}

/* [8.0] a unit may not enter a square unless it has the MP for the side and the square */
static void test_wnlb_8_0_no_entry_without_mp(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 2, &u, "E-6", WNLB_N);
    t_terrain(f, "D-6", WNLB_WOODS);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_RIDGE);
    const int s1[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* 3 MP needed, 2 left */
    t_at(f, u, "E-6");
    assert_int_equal(f->s->mp_left, 2);
    t_free(f);
}

/* [8.2] a unit may not move into a square occupied by another unit, friendly or enemy */
static void test_wnlb_8_2_no_entry_into_occupied_square(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    int friend = t_place(f, WNLB_FR, WNLB_INF, 1, "D-6", WNLB_N);
    const int s1[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_put(f, friend, "A-1", WNLB_N);
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "D-6", WNLB_S);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-6");
    t_free(f);
}

/* [8.0] once another unit starts moving, the first may not move again that round */
static void test_wnlb_8_0_unit_moves_once_per_round(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    int v = t_place(f, WNLB_FR, WNLB_INF, 1, "E-8", WNLB_N);
    const int s1[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, s1);
    assert_int_equal(t_order(f, 0, &o), 0);
    o = t_move(v, 1, s1);
    assert_int_equal(t_order(f, 0, &o), 0);
    o = t_move(u, 1, s1);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "D-6");
    t_free(f);
}

/* [8.0] the card's MP are shared among units and the commander ([8.0] example: 2 + 1 + 1 of an
 * MP 4 card), and no order may spend more than is left */
static void test_wnlb_8_0_card_mp_shared_not_exceeded(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    int v = t_place(f, WNLB_FR, WNLB_INF, 1, "E-9", WNLB_N);
    int r, c;
    t_sq("H-3", &r, &c);
    f->s->cmd_row[0] = (int8_t)r;
    f->s->cmd_col[0] = (int8_t)c;
    const int two[] = {WNLB_STEP_FWD, WNLB_STEP_FWD}, one[] = {WNLB_STEP_FWD}, west[] = {WNLB_W};
    wnlb_order o = t_move(u, 2, two);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->mp_left, 2);
    o = t_move(v, 1, one);
    assert_int_equal(t_order(f, 0, &o), 0);
    o = t_move(WNLB_CMD0, 1, west);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->mp_left, 0);
    t_at(f, u, "C-6");
    t_at(f, v, "D-9");
    assert_int_equal(f->s->cmd_col[0], c - 1);
    /* nothing left: even a commander's square or a facing change is refused, and says why */
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_string_equal(f->err.rule, "8.0");
    assert_int_equal(f->s->cmd_col[0], c - 1);
    t_free(f);
}

/* [8.0] "unused MPs may not be saved for a later player round": done drops what is left */
static void test_wnlb_8_0_unused_mp_lost(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 5, &u, "E-6", WNLB_N);
    const int one[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, one);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->mp_left, 4);
    o = t_o(WNLB_O_DONE);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->mp_left, 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    o = t_move(u, 1, one); /* no Movement card in play any more */
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "D-6");
    t_free(f);
}

/* [8.0] units move across the sides only: every square an MP 2 card reaches from E-6 is
 * orthogonal to it (no corner is ever crossed), and a diagonal square costs a turn more */
static void test_wnlb_8_0_no_diagonal_move(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 2, &u, "E-6", WNLB_N);
    /* to D-7 (the north-east corner): ahead, face east, ahead is 3 MP; the card has 2 */
    const int path[] = {WNLB_STEP_FWD, WNLB_E, WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 3, path);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_string_equal(f->err.rule, "8.3");
    t_at(f, u, "E-6");
    /* legal() offers no end square diagonal to E-6 */
    brt_buf l;
    buf_init(&l);
    int k = f->rs->legal(f->s, 0, &l);
    assert_true(k > 1);
    size_t pos = 0, len;
    const uint8_t *item;
    int moves = 0;
    while (buf_next_item(&l, &pos, &item, &len) == 1) {
        Wnlb__V1__Order *m = wnlb__v1__order__unpack(NULL, len, item);
        assert_non_null(m);
        if (m->kind_case == WNLB__V1__ORDER__KIND_MOVE && !strcmp(m->move->unit, wnlb_unit_name(f->s, u))) {
            int r = f->s->units[u].row, c = f->s->units[u].col, fc = f->s->units[u].facing;
            for (size_t i = 0; i < m->move->n_steps; i++) {
                if (m->move->steps[i] < WNLB_STEP_FWD) fc = (int)m->move->steps[i];
                else wnlb_step(fc, &r, &c);
            }
            assert_true(r == f->s->units[u].row || c == f->s->units[u].col);
            moves++;
        }
        wnlb__v1__order__free_unpacked(m, NULL);
    }
    assert_true(moves > 0);
    buf_free(&l);
    t_free(f);
}

/* [8.0] a unit that moved gets a Moved marker; the units that did not, none */
static void test_wnlb_8_0_moved_marker_placed(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    int v = t_place(f, WNLB_FR, WNLB_INF, 1, "E-9", WNLB_N);
    assert_int_equal(f->s->units[u].moved, 0);
    const int one[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(u, 1, one);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[u].moved, 1);
    assert_int_equal(f->s->units[v].moved, 0);
    t_free(f);
}

/* [8.2] a Commander may be in a square with one friendly unit: Napoleon joins a French unit,
 * but never a square of an enemy unit */
static void test_wnlb_8_2_commander_stacks_with_unit(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "E-8", WNLB_W);
    int r, c;
    t_sq("E-7", &r, &c);
    f->s->cmd_row[0] = (int8_t)r;
    f->s->cmd_col[0] = (int8_t)c;
    const int west[] = {WNLB_W}, east[] = {WNLB_E};
    wnlb_order o = t_move(WNLB_CMD0, 1, east);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* the British unit's square */
    assert_string_equal(f->err.rule, "8.2");
    o = t_move(WNLB_CMD0, 1, west);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->cmd_col[0], c - 1);
    assert_int_equal(wnlb_unit_at(f->s, r, c - 1), u);
    /* the unit moves off and Napoleon stays where he is: commanders move on their own MP */
    const int one[] = {WNLB_STEP_FWD};
    o = t_move(u, 1, one);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->cmd_row[0], r);
    t_free(f);
}

/* [8.3] entering Mt St Jean or La Haye Sainte across a road side costs only 1 MP */
static void test_wnlb_8_3_road_into_mt_st_jean_and_lhs(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 6, &u, "E-6", WNLB_N);
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    static const char *const names[] = {"mt-st-jean", "la-haye-sainte"};
    for (int k = 0; k < 2; k++) {
        int v = -1;
        for (size_t i = 0; i < sc->n_vp; i++)
            if (!strcmp(sc->vp[i].name, names[k])) v = (int)i;
        assert_true(v >= 0);
        int r = sc->vp[v].row, c = sc->vp[v].col;
        assert_true(r + 1 < sc->rows);
        sc->terrain[r][c] = WNLB_VILLAGE;
        memset(sc->side[r][c], 0, 4);
        memset(sc->side[r + 1][c], 0, 4);
        assert_int_equal(wnlb_enter_cost(f->s, r + 1, c, WNLB_N), 2); /* no road: the village's 2 */
        sc->side[r + 1][c][WNLB_N] = WNLB_SIDE_ROAD | WNLB_SIDE_RIDGE;
        sc->side[r][c][WNLB_S] = WNLB_SIDE_ROAD | WNLB_SIDE_RIDGE;
        assert_int_equal(wnlb_enter_cost(f->s, r + 1, c, WNLB_N), 1); /* across the road: 1 */
    }
    /* any other village across a road side: the road has no effect */
    t_terrain(f, "D-6", WNLB_VILLAGE);
    t_side(f, "E-6", WNLB_N, WNLB_SIDE_ROAD);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(wnlb_enter_cost(f->s, r, c, WNLB_N), 2);
    t_free(f);
}

/* [10.0] "If a unit moves out of a chateau, the owning player freely determines its facing (at
 * no MP cost)": the facing change right after the step out is free (R-wnlb-10.0-leaving-chateau);
 * the same path from a clear square pays it */
static void test_wnlb_10_0_leaving_chateau_free_facing(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "D-6", WNLB_S);
    t_terrain(f, "D-6", WNLB_CHATEAU);
    const int out[] = {WNLB_STEP_FWD, WNLB_E};
    wnlb_order o = t_move(u, 2, out);
    assert_int_equal(s_cost(f, &o), 1);
    t_terrain(f, "D-6", WNLB_CLEAR);
    assert_int_equal(s_cost(f, &o), 2);
    t_terrain(f, "D-6", WNLB_CHATEAU);
    const int late[] = {WNLB_STEP_FWD, WNLB_STEP_FWD, WNLB_E}; /* not right after leaving: paid */
    wnlb_order o2 = t_move(u, 3, late);
    assert_int_equal(s_cost(f, &o2), 3);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-6");
    assert_int_equal(f->s->units[u].facing, WNLB_E);
    assert_int_equal(f->s->mp_left, 3);
    t_free(f);
}

/* [11.6] "A unit that has been Rallied may not move ... that player round": refused, and not
 * offered by legal() */
static void test_wnlb_8_0_rallied_unit_may_not_move(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    f->s->units[u].rallied = 1;
    const int one[] = {WNLB_STEP_FWD}, turn[] = {WNLB_E};
    wnlb_order o = t_move(u, 1, one);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_string_equal(f->err.rule, "11.6");
    o = t_move(u, 1, turn);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    t_at(f, u, "E-6");
    assert_int_equal(f->s->units[u].facing, WNLB_N);
    char txt[48];
    snprintf(txt, sizeof txt, "move %s F", wnlb_unit_name(f->s, u));
    assert_false(t_legal_has(f, 0, txt));
    f->s->units[u].rallied = 0;
    assert_true(t_legal_has(f, 0, txt));
    t_free(f);
}

/* [8.0] "his units and his Commander" (R-wnlb-8.0-commander-army): under a French card only
 * French units and Napoleon move; under a Prussian card no commander moves ([2.2] there is no
 * Prussian commander) */
static void test_wnlb_8_0_commander_moves_with_own_army(void **st) {
    (void)st;
    t_board b;
    int u;
    t_fx *f = s_moving(&b, 4, &u, "E-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "H-3", WNLB_S);
    int r, c;
    t_sq("H-8", &r, &c);
    f->s->cmd_row[1] = (int8_t)r;
    f->s->cmd_col[1] = (int8_t)c;
    const int west[] = {WNLB_W}, one[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(WNLB_CMD1, 1, west);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* Wellington under a French card */
    assert_string_equal(f->err.rule, "8.0");
    o = t_move(br, 1, one);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* a British unit under a French card */
    assert_int_equal(f->s->cmd_col[1], c);
    /* a Prussian round: Wellington stays */
    f->s->round_army = WNLB_PR;
    f->s->active_side = WNLB_SIDE_ALLIED;
    o = t_move(WNLB_CMD1, 1, west);
    assert_int_not_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->cmd_col[1], c);
    f->s->round_army = WNLB_BR;
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->cmd_col[1], c - 1);
    t_free(f);
}

/* 1 if two states encode to the same bytes (the state hash's input) */
static int s_same(const wnlb_state *a, const wnlb_state *b) {
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    assert_int_equal(wnlb_state_encode(a, &x), 0);
    assert_int_equal(wnlb_state_encode(b, &y), 0);
    int same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
    buf_free(&x);
    buf_free(&y);
    return same;
}

/* [8.0] [9.6] [12.0] [5.0] random play of both scenarios: in every movement, cavalry-retreat
 * and displacement decision, each order legal() lists (a sample of up to 24) is accepted on a
 * copy of the state, and an order made illegal (a step too many: more MP than the card has) is
 * refused and leaves the state's bytes as they were */
static void test_wnlb_8_0_every_listed_move_accepted(void **st) {
    (void)st;
    static const struct {
        const char *sc;
        unsigned seats;
    } games[] = {{"short", 2}, {"full", 2}, {"full", 3}};
    static brt_events scratch;
    int checked = 0, windows = 0, entries = 0;
    for (size_t g = 0; g < 3; g++) {
        t_fx *f = t_new(games[g].sc, games[g].seats, 800 + g);
        uint64_t rng = 800 + g;
        brt_buf l;
        buf_init(&l);
        for (int n = 0; n < 6000 && t_actor(f) >= 0; n++) {
            int seat = t_actor(f);
            buf_reset(&l);
            int k = f->rs->legal(f->s, (unsigned)seat, &l);
            assert_true(k > 0);
            int ph = f->s->phase;
            if (ph == WNLB_PH_MOVE || ph == WNLB_PH_CAV_RETREAT || ph == WNLB_PH_DISPLACE) {
                windows += ph != WNLB_PH_MOVE;
                int step = k > 24 ? k / 24 : 1;
                for (int i = 0; i < k; i += step) {
                    const uint8_t *item;
                    size_t len;
                    assert_int_equal(t_item(&l, i, &item, &len), 0);
                    wnlb_state *c = wnlb_state_clone(f->s);
                    assert_non_null(c);
                    brt_reject err;
                    memset(&scratch, 0, sizeof scratch);
                    if (f->rs->apply(c, (unsigned)seat, item, len, &f->d.d, &scratch, &err) != 0)
                        fail_msg("%s turn %u: listed order %d of %d refused: [%s] %s", games[g].sc, f->s->turn, i, k,
                                 err.rule, err.message);
                    t_ev_clear(&scratch);
                    Wnlb__V1__Order *m = wnlb__v1__order__unpack(NULL, len, item);
                    assert_non_null(m);
                    if (m->kind_case == WNLB__V1__ORDER__KIND_MOVE && m->move->entry && m->move->entry[0]) entries++;
                    if (m->kind_case == WNLB__V1__ORDER__KIND_MOVE && m->move->n_steps + 8 <= WNLB_MAX_STEPS &&
                        f->s->mp_left < 8) {
                        /* eight more turns: more MP than are left */
                        wnlb_order o;
                        memset(&err, 0, sizeof err);
                        assert_int_equal(wnlb_order_decode(f->s, item, len, &o, &err), 0);
                        for (int j = 0; j < 8; j++) o.steps[o.n_steps++] = (uint8_t)(j % 2 ? WNLB_N : WNLB_S);
                        wnlb_state *d = wnlb_state_clone(f->s);
                        assert_non_null(d);
                        memset(&scratch, 0, sizeof scratch);
                        assert_int_not_equal(wnlb_apply_order(d, (unsigned)seat, &o, &f->d.d, &scratch, &err), 0);
                        assert_true(err.rule[0] != 0);
                        assert_true(s_same(d, f->s));
                        t_ev_clear(&scratch);
                        wnlb_state_destroy(&d);
                    }
                    wnlb__v1__order__free_unpacked(m, NULL);
                    wnlb_state_destroy(&c);
                    checked++;
                }
            }
            const uint8_t *item;
            size_t len;
            assert_int_equal(t_item(&l, (int)(t_next(&rng) % (uint64_t)k), &item, &len), 0);
            assert_int_equal(t_apply(f, (unsigned)seat, item, len), 0);
        }
        buf_free(&l);
        t_free(f);
    }
    assert_true(checked > 100);
    assert_true(entries > 0);  /* the full games offered Prussian entries [5.0] */
    assert_true(windows > 0);  /* and some [9.6] windows opened */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_8_5_example_of_movement),
        cmocka_unit_test(test_wnlb_8_0_facing_change_costs_one_mp),
        cmocka_unit_test(test_wnlb_8_1_moves_only_forward),
        cmocka_unit_test(test_wnlb_8_1_facing_only_gets_moved_marker),
        cmocka_unit_test(test_wnlb_8_1_facing_change_adjacent_to_enemy),
        cmocka_unit_test(test_wnlb_8_3_square_terrain_costs),
        cmocka_unit_test(test_wnlb_8_3_hill_cost_depends_on_origin),
        cmocka_unit_test(test_wnlb_8_3_ridge_and_stream_sides_cost_one),
        cmocka_unit_test(test_wnlb_8_3_bridge_removes_stream_cost),
        cmocka_unit_test(test_wnlb_8_3_pond_side_impassable),
        cmocka_unit_test(test_wnlb_8_0_commander_one_mp_per_square),
        cmocka_unit_test(test_wnlb_8_0_no_entry_without_mp),
        cmocka_unit_test(test_wnlb_8_2_no_entry_into_occupied_square),
        cmocka_unit_test(test_wnlb_8_0_unit_moves_once_per_round),
        cmocka_unit_test(test_wnlb_8_0_card_mp_shared_not_exceeded),
        cmocka_unit_test(test_wnlb_8_0_unused_mp_lost),
        cmocka_unit_test(test_wnlb_8_0_no_diagonal_move),
        cmocka_unit_test(test_wnlb_8_0_moved_marker_placed),
        cmocka_unit_test(test_wnlb_8_2_commander_stacks_with_unit),
        cmocka_unit_test(test_wnlb_8_3_road_into_mt_st_jean_and_lhs),
        cmocka_unit_test(test_wnlb_8_0_every_listed_move_accepted),
        cmocka_unit_test(test_wnlb_10_0_leaving_chateau_free_facing),
        cmocka_unit_test(test_wnlb_8_0_rallied_unit_may_not_move),
        cmocka_unit_test(test_wnlb_8_0_commander_moves_with_own_army),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
