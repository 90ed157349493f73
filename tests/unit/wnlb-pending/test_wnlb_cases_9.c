/*
 * test_wnlb_cases_9.c (pending part) - the rule cases of Cavalry Retreat before Battle [9.6],
 * waiting for the movement engine ([8.0]-[8.5] [9.6]); the other cases of [9.0]-[9.7] passed and are
 * in tests/unit/test_wnlb_cases_9.c. docs/wnlb-cases/09.md maps every case to its test.
 */
#include "wnlb_t.h"

static const char *s_phase(int ph) {
    static const char *names[] = {"bidder", "bid", "deck", "round", "move", "declare", "fire", "battle-cards",
                                  "loss", "advance", "att-reduce", "cav-retreat", "displace", "charge", "over"};
    return ph >= 0 && ph <= WNLB_PH_OVER ? names[ph] : "?";
}

#define PHASE(f, ph)                                                                                     \
    do {                                                                                                 \
        if ((f)->s->phase != (ph)) fail_msg("phase %s, expected %s", s_phase((f)->s->phase), s_phase(ph)); \
    } while (0)
#define ORDER(f, seat, o)                                                                                \
    do {                                                                                                 \
        if (t_order((f), (seat), &(o)) != 0) fail_msg("refused: [%s] %s", (f)->err.rule, (f)->err.message); \
    } while (0)

/* ---- [9.6] cavalry retreat before battle -------------------------------------------- */

/* a French Movement card of 6 MP, French infantry in G-6 facing north, British cavalry in
 * E-6 facing south; the infantry steps into F-6, adjacent to the cavalry */
static t_fx *s96(t_board *b, int *inf, int *cav) {
    t_fx *f = t_new("short", 2, 96);
    t_blank(f, b);
    *inf = t_unit(f, WNLB_FR, WNLB_INF, 0);
    *cav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    t_put(f, *inf, "G-6", WNLB_N);
    t_put(f, *cav, "E-6", WNLB_S);
    t_empty_hand(f, WNLB_FR);
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = t_give(f, WNLB_FR, 6, 1, WNLB_ACT_NONE, 0);
    o.purpose = WNLB_PURPOSE_MOVE;
    ORDER(f, 0, o);
    o = t_o(WNLB_O_MOVE);
    o.unit = *inf;
    o.n_steps = 1;
    o.steps[0] = WNLB_STEP_FWD;
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
    PHASE(f, WNLB_PH_CAV_RETREAT);
    assert_int_equal(t_actor(f), 1);
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    t_sq("D-6", &o.row, &o.col);
    o.facing = WNLB_S;
    ORDER(f, 1, o);
    int r, c;
    t_sq("D-6", &r, &c);
    assert_int_equal(f->s->units[cav].row, r);
    assert_int_equal(f->s->units[cav].moved, 0);
    t_free(f);
}

/* [9.6] the cavalry may stay: the window is declined and nothing moves */
static void test_wnlb_9_6_cavalry_may_stay(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    PHASE(f, WNLB_PH_CAV_RETREAT);
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    o.flag = 1;
    ORDER(f, 1, o);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[cav].row, r);
    assert_true(f->s->phase != WNLB_PH_CAV_RETREAT);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_9_6_cavalry_retreats_before_infantry),
        cmocka_unit_test(test_wnlb_9_6_cavalry_may_stay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
