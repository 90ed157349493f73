/*
 * test_wnlb_cases_12_13.c (pending part) - the [13.3] elimination case, which needs the battle
 * part's wnlb_reduce [9.5]; the other cases of this file are in tests/unit/test_wnlb_cases_12_13.c.
 */
#include "wnlb_t.h"

/* [13.3] a player gets the full-strength BPs of each enemy unit he eliminates (the
 * [13.3] example: the British 3/I, 4 BP, gives the French 4 VP) [9.5] */
static void test_wnlb_13_3_elimination_vp_full_strength(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("full", 2, 134);
    t_own_board(f, &b);
    int u = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_values(f, u, 4, 2, 0);
    int32_t before = f->s->elim_vp[WNLB_SIDE_FRENCH];
    wnlb_reduce(f->s, u, &f->ev);
    assert_int_equal(f->s->units[u].reduced, 1);
    assert_int_equal(f->s->elim_vp[WNLB_SIDE_FRENCH], before); /* reduced units do not count */
    wnlb_reduce(f->s, u, &f->ev);
    assert_int_equal(f->s->units[u].eliminated, 1);
    assert_int_equal(f->s->elim_vp[WNLB_SIDE_FRENCH], before + 4);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_13_3_elimination_vp_full_strength),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
