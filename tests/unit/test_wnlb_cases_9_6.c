/*
 * test_wnlb_cases_9_6.c - rule cases of Cavalry Retreat before Battle [9.6] (and [8.4], which
 * points to it) in Napoleon's Last Battle: the response window of the cavalry's owner when enemy
 * infantry moves adjacent, built on the fixture's own board (wnlb_t.h: t_blank). Rulings:
 * R-wnlb-9.6-move-stops, R-wnlb-9.6-one-window-each, R-wnlb-9.6-mover-enters-vacated,
 * R-wnlb-9.6-retreat-squares (docs/rulings.md). docs/wnlb-cases/09.md maps the cases to tests.
 */
#include "wnlb_t.h"

#define ORDER(f, seat, o)                                                                                \
    do {                                                                                                 \
        if (t_order((f), (seat), &(o)) != 0) fail_msg("refused: [%s] %s", (f)->err.rule, (f)->err.message); \
    } while (0)

static wnlb_order s_evade(const char *sq, int facing) {
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    t_sq(sq, &o.row, &o.col);
    o.facing = facing;
    return o;
}

static wnlb_order s_stay(void) {
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    o.flag = 1;
    return o;
}

/* a French Movement card of 6 MP, French infantry in G-6 facing north, British cavalry in
 * E-6 facing south; the infantry steps into F-6, adjacent to the cavalry */
static t_fx *s96(t_board *b, int *inf, int *cav) {
    t_fx *f = t_new_blank(b, "short", 2, 96);
    *inf = t_unit(f, WNLB_FR, WNLB_INF, 0);
    *cav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    t_put(f, *inf, "G-6", WNLB_N);
    t_put(f, *cav, "E-6", WNLB_S);
    t_empty_hand(f, WNLB_FR);
    t_move_card(f, 0, WNLB_FR, 6);
    const int one[] = {WNLB_STEP_FWD};
    wnlb_order o = t_move(*inf, 1, one);
    ORDER(f, 0, o);
    return f;
}

/* [9.6] enemy infantry moves adjacent to a cavalry unit: before anything else, the cavalry's
 * owner may retreat it (as per the retreat rules), at no MP and without a Moved marker */
static void test_wnlb_9_6_cavalry_retreats_before_infantry(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(t_actor(f), 1); /* the British seat, not the mover's */
    T_NO(f, 0, "done");
    wnlb_order o = s_evade("D-6", WNLB_S);
    ORDER(f, 1, o);
    t_at(f, cav, "D-6");
    assert_int_equal(f->s->units[cav].facing, WNLB_S);
    assert_int_equal(f->s->units[cav].moved, 0);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    assert_int_equal(t_actor(f), 0);
    t_free(f);
}

/* [9.6] the cavalry may stay: the window is declined and nothing moves; the mover goes on */
static void test_wnlb_9_6_cavalry_may_stay(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    wnlb_order o = s_stay();
    ORDER(f, 1, o);
    t_at(f, cav, "E-6");
    assert_true(f->s->phase != WNLB_PH_CAV_RETREAT);
    /* the infantry's movement is not over: it may turn and go on */
    const int on[] = {WNLB_E, WNLB_STEP_FWD};
    o = t_move(inf, 2, on);
    ORDER(f, 0, o);
    t_at(f, inf, "F-7");
    t_free(f);
}

/* [9.6] "The moving infantry may move into the vacated Square (if it has MPs remaining to do
 * so), but, at that point, the unit's movement for that player round is over" */
static void test_wnlb_9_6_mover_enters_vacated_square_and_stops(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    wnlb_order o = s_evade("E-5", WNLB_E); /* its flank square */
    ORDER(f, 1, o);
    assert_int_equal(f->s->mp_left, 5);
    assert_true(t_legal_has(f, 0, "move F-GREN F"));
    T_NO(f, 0, "move F-GREN EF"); /* anywhere but the vacated square: its movement is over */
    assert_string_equal(f->err.rule, "9.6");
    T_OK(f, 0, "move F-GREN F");
    t_at(f, inf, "E-6");
    assert_int_equal(f->s->mp_left, 4);
    /* E-6 is adjacent to the cavalry in E-5: a new window, declined */
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    o = s_stay();
    ORDER(f, 1, o);
    T_NO(f, 0, "move F-GREN F"); /* over for the round */
    t_at(f, inf, "E-6");
    t_free(f);
}

/* R-wnlb-9.6-move-stops: a move order stops at the square where the window opens; its other
 * steps are not made nor paid for, and the mover may give another order after a refusal */
static void test_wnlb_9_6_move_order_stops_at_window(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 961);
    int inf = t_place(f, WNLB_FR, WNLB_INF, 0, "H-6", WNLB_N);
    int cav = t_place(f, WNLB_BR, WNLB_CAV, 0, "E-6", WNLB_S);
    t_move_card(f, 0, WNLB_FR, 6);
    const int path[] = {WNLB_STEP_FWD, WNLB_STEP_FWD, WNLB_W};
    wnlb_order o = t_move(inf, 3, path);
    ORDER(f, 0, o);
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    t_at(f, inf, "F-6");
    assert_int_equal(f->s->units[inf].facing, WNLB_N); /* the turn west is not made */
    assert_int_equal(f->s->mp_left, 4);
    o = s_stay();
    ORDER(f, 1, o);
    T_OK(f, 0, "move F-GREN W");
    assert_int_equal(f->s->mp_left, 3);
    (void)cav;
    t_free(f);
}

/* [9.6] the retreat costs no MP, gives no Moved marker, and "the cavalry may continue to
 * Retreat in reaction to any further enemy movement" */
static void test_wnlb_9_6_retreat_free_and_repeatable(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    (void)t_place(f, WNLB_FR, WNLB_INF, 1, "C-8", WNLB_W);
    wnlb_order o = s_evade("D-6", WNLB_S);
    ORDER(f, 1, o);
    assert_int_equal(f->s->mp_left, 5);
    assert_int_equal(f->s->units[cav].moved, 0);
    /* another French infantry moves next to it again: a second window */
    T_OK(f, 0, "move F-CHAS SF"); /* face south, into D-8: not adjacent */
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    T_OK(f, 0, "move F-CHAS WF"); /* face west, into D-7: adjacent to D-6 */
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(f->s->interrupt_unit, cav);
    o = s_evade("C-6", WNLB_E);
    ORDER(f, 1, o);
    t_at(f, cav, "C-6");
    assert_int_equal(f->s->units[cav].moved, 0);
    t_free(f);
}

/* R-wnlb-9.6-retreat-squares: the retreat is one square to the rear or a flank ([9.5]), vacant,
 * never forward; legal() lists exactly those with each facing, and `evade none` */
static void test_wnlb_9_6_retreat_rear_or_flank_only(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "E-7", WNLB_S); /* its east flank is taken */
    T_NO(f, 1, "evade F-6 S");                               /* forward (and the mover's square) */
    T_NO(f, 1, "evade E-7 N");                               /* occupied */
    T_NO(f, 1, "evade C-6 N");                               /* two squares */
    assert_true(t_legal_has(f, 1, "evade D-6 N"));
    assert_true(t_legal_has(f, 1, "evade E-5 W"));
    assert_true(t_legal_has(f, 1, "evade none"));
    assert_false(t_legal_has(f, 1, "evade E-7 N"));
    assert_int_equal(t_legal_n(f, 1), 1 + 2 * 4);
    t_at(f, cav, "E-6");
    /* the timeout default is to stay [9.6] "may" */
    wnlb_order d;
    assert_int_equal(wnlb_default_order(f->s, 1, &d), 0);
    assert_int_equal(d.kind, WNLB_O_CAV_RETREAT);
    assert_int_equal(d.flag, 1);
    t_free(f);
}

/* R-wnlb-9.6-one-window-each: two cavalry units adjacent to the square entered get one window
 * each, in the order of the units in the scenario data */
static void test_wnlb_9_6_one_window_per_cavalry(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = t_new_blank(&b, "short", 2, 962);
    inf = t_unit(f, WNLB_FR, WNLB_INF, 0);
    cav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    int cav2 = t_unit(f, WNLB_BR, WNLB_CAV, 1);
    t_put(f, inf, "G-6", WNLB_N);
    t_put(f, cav, "F-5", WNLB_S);
    t_put(f, cav2, "F-7", WNLB_S);
    t_move_card(f, 0, WNLB_FR, 6);
    T_OK(f, 0, "move F-GREN F");
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(f->s->interrupt_unit, cav < cav2 ? cav : cav2);
    wnlb_order o = s_stay();
    ORDER(f, 1, o);
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(f->s->interrupt_unit, cav < cav2 ? cav2 : cav);
    o = s_stay();
    ORDER(f, 1, o);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    t_free(f);
}

/* [9.6] A12: the window is for enemy INFANTRY moving: French cavalry moving next to British
 * cavalry opens none, nor does infantry that only turns in place */
static void test_wnlb_9_6_no_retreat_for_cavalry_moving(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 963);
    int fcav = t_unit(f, WNLB_FR, WNLB_CAV, 0), bcav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    int inf = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_put(f, fcav, "G-6", WNLB_N);
    t_put(f, bcav, "E-6", WNLB_S);
    t_put(f, inf, "E-7", WNLB_N); /* already adjacent */
    t_move_card(f, 0, WNLB_FR, 6);
    wnlb_order o = t_move(fcav, 1, (const int[]){WNLB_STEP_FWD});
    ORDER(f, 0, o);
    t_at(f, fcav, "F-6");
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    o = t_move(inf, 1, (const int[]){WNLB_W});
    ORDER(f, 0, o);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    t_free(f);
}

/* [9.6] [6.0] three players: a Prussian cavalry unit's window is the Prussian seat's */
static void test_wnlb_9_6_window_goes_to_cavalry_owner(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "full", 3, 964);
    (void)t_place(f, WNLB_FR, WNLB_INF, 0, "G-6", WNLB_N);
    (void)t_place(f, WNLB_PR, WNLB_CAV, 0, "E-6", WNLB_S);
    t_move_card(f, 0, WNLB_FR, 6);
    T_OK(f, 0, "move F-GREN F");
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(t_actor(f), 2);
    wnlb_order o = s_stay();
    assert_int_not_equal(t_order(f, 1, &o), 0); /* not the British seat's */
    ORDER(f, 2, o);
    t_free(f);
}

/* [9.6] "Cavalry retreat is not allowed when an enemy infantry unit advances or retreats into an
 * adjacent Square after a battle": the British infantry in E-6 (facing south) loses to the French
 * infantry in F-6 and retreats into D-6, next to the French cavalry in C-6; the French infantry
 * advances into E-6, next to the British cavalry in E-5; no cavalry window opens (PH_CAV_RETREAT)
 * and neither cavalry unit moves */
static void test_wnlb_9_6_no_retreat_on_advance(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 961);
    t_spare_hands(f);
    int move = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0), fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    int bcav = t_unit(f, WNLB_BR, WNLB_CAV, 0), fcav = t_unit(f, WNLB_FR, WNLB_CAV, 0);
    t_values(f, br, 2, 1, 0);
    t_values(f, fr, 3, 1, 0);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, bcav, "E-5", WNLB_E);
    t_put(f, fcav, "C-6", WNLB_E);
    t_card_no_move(f, move);
    char t[96];
    snprintf(t, sizeof t, "attack %s with %s", f->s->sc->units[br].id, f->s->sc->units[fr].id);
    T_OK(f, 0, t);
    T_OK(f, 0, "cards none");
    T_OK(f, 1, "cards none"); /* 3 against 2 */
    assert_int_equal(f->s->phase, WNLB_PH_LOSS);
    T_OK(f, 1, "loss retreat D-6 S"); /* next to the French cavalry in C-6 */
    assert_int_equal(f->s->phase, WNLB_PH_ADVANCE);
    t_at(f, fcav, "C-6");
    snprintf(t, sizeof t, "advance %s N", f->s->sc->units[fr].id);
    T_OK(f, 0, t); /* next to the British cavalry in E-5 */
    assert_int_not_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    t_at(f, fr, "E-6");
    t_at(f, bcav, "E-5");
    t_at(f, fcav, "C-6");
    assert_null(t_ev_kind(&f->ev, "cav-window", 0));
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_9_6_cavalry_retreats_before_infantry),
        cmocka_unit_test(test_wnlb_9_6_cavalry_may_stay),
        cmocka_unit_test(test_wnlb_9_6_mover_enters_vacated_square_and_stops),
        cmocka_unit_test(test_wnlb_9_6_move_order_stops_at_window),
        cmocka_unit_test(test_wnlb_9_6_retreat_free_and_repeatable),
        cmocka_unit_test(test_wnlb_9_6_retreat_rear_or_flank_only),
        cmocka_unit_test(test_wnlb_9_6_one_window_per_cavalry),
        cmocka_unit_test(test_wnlb_9_6_no_retreat_for_cavalry_moving),
        cmocka_unit_test(test_wnlb_9_6_window_goes_to_cavalry_owner),
        cmocka_unit_test(test_wnlb_9_6_no_retreat_on_advance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
