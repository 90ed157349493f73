/*
 * test_wem_cases_units.c - rule cases of [Units], [Colored Markers], [General Ney], [Introduction]
 * and [Effects of Unit removal] left open in docs/wem-cases/: each on a board of its own, with
 * fixed dice.
 */
#include "wem_t.h"

/* [Units] "the Infantry and Cavalry Units are represented by 30 mm square tiles"; "two types of
 * 15 mm square counters" for the Artillery; the Garrisons are "square (15x15 mm) counters" */
static void test_wem_units_shapes(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int i = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    int c = t_unit(f, WEM_BLUE, WEM_CAV, 1, 400, 400, 0);
    int a = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 500, 400, 0);
    int h = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 1, 600, 400, 0);
    int g = t_unit(f, WEM_RED, WEM_GARRISON, 0, 700, 200, 180);
    int tile[] = {i, c}, counter[] = {a, h, g};
    for (int k = 0; k < 2; k++) {
        wem_rect r = wem_unit_rect(f->s, tile[k]);
        assert_int_equal(2 * r.hw, 30 * WEM_MM);
        assert_int_equal(2 * r.hd, 30 * WEM_MM);
    }
    for (int k = 0; k < 3; k++) {
        wem_rect r = wem_unit_rect(f->s, counter[k]);
        assert_int_equal(2 * r.hw, 15 * WEM_MM);
        assert_int_equal(2 * r.hd, 15 * WEM_MM);
    }
    t_free(f);
}

/* [Colored Markers] "if the Unit receives a second yellow marker it's Routed and, at the end of
 * the turn, is eliminated": Shaken by the first, Routed by the second, still on the field until
 * [3.5 End of Turn] removes it */
static void test_wem_markers_second_yellow_routed_eliminated_at_end(void **st) {
    (void)st;
    t_fx *f = t_new(2, 7);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 600, 0);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    int k = t_unit(f, WEM_RED, WEM_INF, 1, 500, 200, 180);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 700, 1);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    wem_shake(f->s, r, -1, &f->ev);
    assert_int_equal(f->s->units[r].yellow, 1);
    assert_int_equal(f->s->units[r].status, WEM_ON);
    wem_shake(f->s, r, -1, &f->ev);
    assert_int_equal(f->s->units[r].yellow, 2);
    assert_int_equal(f->s->units[r].status, WEM_ON);   /* Routed, not yet removed */
    f->s->step = WEM_STEP_END;
    wem_end_of_turn(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->units[r].status, WEM_ELIMINATED);
    assert_int_equal(f->s->units[k].status, WEM_ON);
    t_free(f);
}

/* [General Ney] "If General Ney is not introduced into the game, do not use his counter": without
 * the option his counter is not on the battlefield; with it he stands attached to Unit 38 */
static void test_wem_ney_not_used_without_option(void **st) {
    (void)st;
    for (int ney = 0; ney <= 1; ney++) {
        t_fx *f = t_new_scenario("full", 2, 1, ney);
        int found = 0;
        for (size_t g = 0; g < f->s->sc->n_generals; g++) {
            if (!f->s->sc->generals[g].ney) continue;
            found = 1;
            if (ney)
                assert_int_equal(f->s->generals[g].status, WEM_ON);
            else {
                assert_int_not_equal(f->s->generals[g].status, WEM_ON);
                assert_int_equal(f->s->generals[g].attached, -1);
            }
        }
        assert_true(found);
        t_free(f);
    }
}

/* [Introduction] "The red (English) and black (Prussian) players are allied against the blue
 * (French) player": blue resigning gives the game to red and black together; red resigning gives
 * it to blue */
static void test_wem_resign_blue_red_and_black_win(void **st) {
    (void)st;
    t_fx *f = t_new(3, 1);
    f->rs->resign(f->s, 0, &f->ev);
    assert_true(f->s->over);
    uint32_t allies = wem_army_mask(f->s, WEM_RED) | wem_army_mask(f->s, WEM_BLACK);
    assert_int_equal(f->s->winners, allies);
    assert_int_equal(f->s->winners & wem_army_mask(f->s, WEM_BLUE), 0);
    t_free(f);
    f = t_new(3, 1);
    f->rs->resign(f->s, 1, &f->ev);
    assert_true(f->s->over);
    assert_int_equal(f->s->winners, wem_army_mask(f->s, WEM_BLUE));
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_units_shapes),
        cmocka_unit_test(test_wem_markers_second_yellow_routed_eliminated_at_end),
        cmocka_unit_test(test_wem_ney_not_used_without_option),
        cmocka_unit_test(test_wem_resign_blue_red_and_black_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
