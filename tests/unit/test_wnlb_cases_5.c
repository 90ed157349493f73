/*
 * test_wnlb_cases_5.c - rule cases of Reinforcements [5.0] (Napoleon's Last Battle, the Full
 * Battle Game): Prussian units enter through the squares of their schedule (the Player Aid
 * Card's, reconstructed in rules/wnlb/scenarios/full.wnlb) under Prussian Movement cards.
 * Rulings: R-wnlb-5.0-entry-cost, R-wnlb-5.0-group-one-square, R-wnlb-5.0-late-entry.
 * docs/wnlb-cases/05.md maps every case to its test.
 */
#include "wnlb_t.h"

/* a unit by its id, or fails */
static int s_unit(const t_fx *f, const char *id) {
    int u = wnlb_unit_find(f->s, id);
    if (u < 0 || u >= WNLB_CMD0) fail_msg("no unit %s", id);
    return u;
}

/* the Allied side's round of game turn `turn`, played with `army`'s deck, and a Movement
 * card of `mp` MP of that army played by its seat; returns the seat */
static int s_round(t_fx *f, int turn, int army, int mp) {
    f->s->turn = (uint8_t)turn;
    f->s->active_side = WNLB_SIDE_ALLIED;
    f->s->round_army = (uint8_t)army;
    f->s->round_cards = 0;
    f->s->phase = WNLB_PH_ROUND;
    t_empty_hand(f, army);
    int seat = wnlb_seat_of_army(f->s, army);
    t_move_card(f, (unsigned)seat, army, mp);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    return seat;
}

/* [5.0] "eligible to enter ... according to the schedule": not before its game turn */
static void test_wnlb_5_0_prussian_entry_not_before_schedule(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 50);
    int p3 = s_unit(f, "P-3"), p1 = s_unit(f, "P-1");
    assert_int_equal(f->s->sc->units[p3].entry_turn, 3);
    assert_int_equal(f->s->units[p3].row, -1);
    int seat = s_round(f, 2, WNLB_PR, 4);
    T_NO(f, (unsigned)seat, "enter P-3 G-16 W");
    assert_string_equal(f->err.rule, "5.0");
    assert_false(t_legal_has(f, (unsigned)seat, "enter P-3 G-16 W"));
    assert_int_equal(f->s->units[p3].row, -1);
    assert_int_equal(f->s->mp_left, 4);
    assert_true(t_legal_has(f, (unsigned)seat, "enter P-1 G-16 W"));
    T_OK(f, (unsigned)seat, "enter P-1 G-16 W");
    t_at(f, p1, "G-16");
    assert_int_equal(f->s->units[p1].entered, 1);
    t_free(f);
}

/* [5.0] "using the Prussian Card(s) as Movement cards": not under a British card, not without
 * a Movement card */
static void test_wnlb_5_0_entry_needs_prussian_movement_card(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 51);
    int p1 = s_unit(f, "P-1");
    int seat = s_round(f, 2, WNLB_BR, 4);
    T_NO(f, (unsigned)seat, "enter P-1 G-16 W");
    assert_int_equal(f->s->units[p1].row, -1);
    assert_false(t_legal_has(f, (unsigned)seat, "enter P-1 G-16 W"));
    /* the round's own decision, no card played for Movement yet */
    f->s->phase = WNLB_PH_ROUND;
    f->s->round_army = WNLB_PR;
    T_NO(f, (unsigned)seat, "enter P-1 G-16 W");
    assert_int_equal(f->s->units[p1].row, -1);
    t_free(f);
}

/* [5.0] "The first Square entered already costs a Movement Point": its terrain's cost
 * (R-wnlb-5.0-entry-cost), and the unit may go on with the MP left */
static void test_wnlb_5_0_entry_square_costs_mp(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("full", 2, 52);
    t_own_board(f, &b);
    int p1 = s_unit(f, "P-1"), p2 = s_unit(f, "P-2");
    int seat = s_round(f, 2, WNLB_PR, 4);
    t_terrain(f, "G-16", WNLB_CLEAR);
    T_OK(f, (unsigned)seat, "enter P-1 G-16 W");
    assert_int_equal(f->s->mp_left, 3);
    T_OK(f, (unsigned)seat, "move P-1 F"); /* on from the entry square, the same unit */
    t_at(f, p1, "G-15");
    int left = f->s->mp_left;
    t_terrain(f, "G-16", WNLB_VILLAGE);
    T_OK(f, (unsigned)seat, "enter P-2 G-16 N");
    assert_int_equal(f->s->mp_left, left - 2);
    t_at(f, p2, "G-16");
    /* not enough MP for the square: refused, nothing changes */
    f->s->units[p2].row = f->s->units[p2].col = -1;
    f->s->units[p2].entered = 0;
    f->s->mp_left = 1;
    T_NO(f, (unsigned)seat, "enter P-2 G-16 N");
    assert_int_equal(f->s->units[p2].row, -1);
    assert_int_equal(f->s->mp_left, 1);
    t_free(f);
}

/* [5.0] "The Allied/Prussian player decides on the facing of the arriving Prussian units" */
static void test_wnlb_5_0_entry_facing_chosen(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 53);
    int p1 = s_unit(f, "P-1");
    int seat = s_round(f, 2, WNLB_PR, 4);
    for (int d = 0; d < 4; d++) {
        char txt[32];
        snprintf(txt, sizeof txt, "enter P-1 G-16 %c", "NESW"[d]);
        assert_true(t_legal_has(f, (unsigned)seat, txt));
    }
    T_OK(f, (unsigned)seat, "enter P-1 G-16 S");
    assert_int_equal(f->s->units[p1].facing, WNLB_S);
    assert_int_equal(f->s->units[p1].moved, 1);
    t_free(f);
}

/* [5.0] "when there is a choice ('B or C'), all units of a group appearing in a game turn must
 * enter through the same Square" (R-wnlb-5.0-group-one-square) */
static void test_wnlb_5_0_group_enters_through_one_square(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 54);
    int p3 = s_unit(f, "P-3"), p4 = s_unit(f, "P-4");
    assert_int_equal(f->s->sc->units[p3].n_entry, 2);
    assert_int_equal(f->s->sc->units[p3].entry_group, f->s->sc->units[p4].entry_group);
    int seat = s_round(f, 3, WNLB_PR, 6);
    assert_true(t_legal_has(f, (unsigned)seat, "enter P-3 G-16 W"));
    assert_true(t_legal_has(f, (unsigned)seat, "enter P-3 H-16 W"));
    T_OK(f, (unsigned)seat, "enter P-3 H-16 W");
    T_OK(f, (unsigned)seat, "move P-3 F"); /* off the entry square */
    T_NO(f, (unsigned)seat, "enter P-4 G-16 W");
    assert_string_equal(f->err.rule, "5.0");
    assert_false(t_legal_has(f, (unsigned)seat, "enter P-4 G-16 W"));
    assert_int_equal(f->s->units[p4].row, -1);
    T_OK(f, (unsigned)seat, "enter P-4 H-16 W");
    t_at(f, p4, "H-16");
    t_free(f);
}

/* [5.0] A18: "If some units are unable to enter the gameboard during the stated game turn,
 * they may enter it during later game turns" through their squares, and the group's square of
 * an earlier turn binds no more (R-wnlb-5.0-late-entry) */
static void test_wnlb_5_0_late_entry_later_turn(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 55);
    int p1 = s_unit(f, "P-1"), p3 = s_unit(f, "P-3"), p4 = s_unit(f, "P-4");
    int seat = s_round(f, 3, WNLB_PR, 6);
    T_OK(f, (unsigned)seat, "enter P-3 G-16 W");
    T_OK(f, (unsigned)seat, "move P-3 F");
    T_OK(f, (unsigned)seat, "done");
    /* turn 4: P-1 (turn 2) and P-4 (turn 3) are late; P-4 may take the other square now */
    seat = s_round(f, 4, WNLB_PR, 6);
    T_OK(f, (unsigned)seat, "enter P-1 G-16 W");
    t_at(f, p1, "G-16");
    T_OK(f, (unsigned)seat, "enter P-4 H-16 W");
    t_at(f, p4, "H-16");
    (void)p3;
    t_free(f);
}

/* [5.0] [6.0] with three players the entry is the Prussian seat's; with two, the Allied seat's */
static void test_wnlb_5_0_entry_by_prussian_seat(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 56);
    int seat = s_round(f, 2, WNLB_PR, 4);
    assert_int_equal(seat, 2);
    T_NO(f, 1, "enter P-1 G-16 W");
    assert_int_equal(f->err.code, BRT_REJECT_NOT_YOUR_DECISION);
    T_OK(f, 2, "enter P-1 G-16 W");
    t_free(f);
    f = t_new("full", 2, 57);
    seat = s_round(f, 2, WNLB_PR, 4);
    assert_int_equal(seat, 1);
    T_OK(f, 1, "enter P-1 G-16 W");
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_5_0_prussian_entry_not_before_schedule),
        cmocka_unit_test(test_wnlb_5_0_entry_needs_prussian_movement_card),
        cmocka_unit_test(test_wnlb_5_0_entry_square_costs_mp),
        cmocka_unit_test(test_wnlb_5_0_entry_facing_chosen),
        cmocka_unit_test(test_wnlb_5_0_group_enters_through_one_square),
        cmocka_unit_test(test_wnlb_5_0_late_entry_later_turn),
        cmocka_unit_test(test_wnlb_5_0_entry_by_prussian_seat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
