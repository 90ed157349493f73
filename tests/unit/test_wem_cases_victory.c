/* test_wem_cases_victory.c - [Victory Conditions], [Effects of Unit removal], [End of the
 * Game], [End of the Last Turn of the Game], [Short Alternative Scenario]. */
#include "wem_t.h"

typedef struct s_b {
    int nap, wel, bl;
    int b, r, k;
} s_b;

static t_fx *s_board(unsigned seats, s_b *x) {
    t_fx *f = t_new(seats, 5);
    x->b = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 500, 0);
    x->r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    x->k = t_unit(f, WEM_BLACK, WEM_INF, 1, 900, 300, 270);
    x->nap = t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    x->wel = t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    x->bl = t_general(f, WEM_BLACK, 0, 4, 0, 950, 300, 1);
    return f;
}

/* "If the Napoleon counter (N) is removed from the battlefield, the game ends and the red
 * player is the winner" */
static void test_wem_victory_napoleon_removed_red_wins(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(3, &x);
    wem_general_remove(f->s, x.nap, WEM_CAPTURED, WEM_RED, &f->ev);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, (1u << 1) | (1u << 2));
    brt_result r;
    f->rs->result(f->s, &r);
    assert_int_equal(r.ended, 1);
    assert_non_null(strstr(r.reason, "Napoleon"));
    t_free(f);
}

static void test_wem_victory_wellington_removed_blue_wins(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    wem_general_remove(f->s, x.wel, WEM_ELIMINATED, WEM_BLUE, &f->ev);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 1u);
    t_free(f);
}

/* [Commander in Chief Blucher] his removal does not end the game */
static void test_wem_victory_blucher_removed_game_goes_on(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(3, &x);
    wem_general_remove(f->s, x.bl, WEM_CAPTURED, WEM_BLUE, &f->ev);
    assert_int_equal(f->s->over, 0);
    assert_int_equal(f->s->vp[WEM_BLUE], 12 * 2);
    t_free(f);
}

/* [Effects of Unit removal] eliminated: its VP; captured: twice; out of field: halved, rounded down */
static void test_wem_removal_captured_twice_out_of_field_halved(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    f->sc.units[x.r].vp = 3;
    f->sc.units[x.b].vp = 3;
    wem_unit_remove(f->s, x.r, WEM_CAPTURED, WEM_BLUE, &f->ev);
    wem_unit_remove(f->s, x.b, WEM_OUTFIELD, -1, &f->ev);
    assert_int_equal(f->s->vp[WEM_BLUE], 6);
    assert_int_equal(f->s->vp[WEM_RED], 1);
    t_free(f);
}

/* [End of the Game] the allies pool their points (R-wem-allied-score); equal points: a draw */
static void test_wem_end_allies_pool_points_and_equal_is_a_draw(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(3, &x);
    f->s->vp[WEM_BLUE] = 10, f->s->vp[WEM_RED] = 6, f->s->vp[WEM_BLACK] = 4;
    wem_victory_final(f->s, &f->ev);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 0u);
    assert_string_equal(f->s->level, "draw");
    t_free(f);
    f = s_board(3, &x);
    f->s->vp[WEM_BLUE] = 10, f->s->vp[WEM_RED] = 6, f->s->vp[WEM_BLACK] = 5;
    wem_victory_final(f->s, &f->ev);
    assert_int_equal(f->s->winners, 6u);
    brt_result r;
    f->rs->result(f->s, &r);
    assert_int_equal(r.scores[0], 10);
    assert_int_equal(r.scores[1], 6);
    assert_int_equal(r.scores[2], 5);
    t_free(f);
}

/* "Blue (French) army: 50 if a blue Unit exclusively touch the Town of Mont-Saint-Jean"; "If the
 * historical objective is contested with the enemy ... it CANNOT be scored" */
static void test_wem_end_mont_saint_jean_exclusive_scores_50(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    t_objective(f, t_area(f, WEM_T_TOWN, "mont-saint-jean", 0, 250, 400, 350, 485), WEM_BLUE, 50);
    wem_victory_final(f->s, &f->ev); /* the blue unit's front edge touches it (y 485) */
    assert_int_equal(f->s->vp[WEM_BLUE], 50);
    assert_int_equal(f->s->winners, 1u);
    t_free(f);
    f = s_board(2, &x);
    t_objective(f, t_area(f, WEM_T_TOWN, "mont-saint-jean", 0, 250, 215, 350, 485), WEM_BLUE, 50);
    wem_victory_final(f->s, &f->ev); /* the red unit touches it too */
    assert_int_equal(f->s->vp[WEM_BLUE], 0);
    t_free(f);
}

/* "Red (English) army: 20 if it keeps La Haye Sainte Garrison (III) and 30 if it keeps
 * Hougoumont Garrison (II)" */
static void test_wem_end_garrisons_kept_score_20_and_30(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    int h = t_unit(f, WEM_RED, WEM_GARRISON, 2, 100, 300, 180);
    int l = t_unit(f, WEM_RED, WEM_GARRISON, 3, 500, 300, 180);
    f->sc.units[h].keep_vp = 30;
    f->sc.units[l].keep_vp = 20;
    wem_unit_remove(f->s, h, WEM_ELIMINATED, WEM_BLUE, &f->ev);
    int before = f->s->vp[WEM_RED];
    wem_victory_final(f->s, &f->ev);
    assert_int_equal(f->s->vp[WEM_RED] - before, 20);
    t_free(f);
}

/* black: 20 La Belle-Alliance, 30 Placenoit, touched exclusively */
static void test_wem_end_black_towns_score(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(3, &x);
    t_objective(f, t_area(f, WEM_T_TOWN, "placenoit", 1, 800, 250, 885, 350), WEM_BLACK, 30);
    wem_victory_final(f->s, &f->ev);
    assert_int_equal(f->s->vp[WEM_BLACK], 30);
    t_free(f);
}

/* [Short Alternative Scenario] (R-wem-short-objective): blue wins by removing both Garrisons and
 * holding both Towns exclusively; else red, who defended them */
static void test_wem_short_objective_decides_the_winner(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    snprintf(f->sc.name, sizeof f->sc.name, "short");
    f->sc.prussians = 0;
    int h = t_unit(f, WEM_RED, WEM_GARRISON, 2, 100, 300, 180);
    t_area(f, WEM_T_TOWN, "mont-saint-jean", 0, 250, 400, 350, 485);
    t_area(f, WEM_T_TOWN, "la-belle-alliance", 0, 250, 515, 350, 580);
    f->s->vp[WEM_BLUE] = 100;
    wem_victory_final(f->s, &f->ev); /* the garrison is kept: red wins whatever the points */
    assert_int_equal(f->s->winners, 2u);
    assert_string_equal(f->s->level, "objective");
    t_free(f);
    f = s_board(2, &x);
    snprintf(f->sc.name, sizeof f->sc.name, "short");
    f->sc.prussians = 0;
    h = t_unit(f, WEM_RED, WEM_GARRISON, 2, 100, 300, 180);
    t_area(f, WEM_T_TOWN, "mont-saint-jean", 0, 250, 400, 350, 485);
    t_area(f, WEM_T_TOWN, "la-belle-alliance", 0, 250, 515, 350, 580);
    wem_unit_remove(f->s, h, WEM_ELIMINATED, WEM_BLUE, &f->ev);
    wem_victory_final(f->s, &f->ev);
    assert_int_equal(f->s->winners, 1u);
    t_free(f);
}

/* [End of the Last Turn of the Game] the battle ends after the scenario's last turn */
static void test_wem_end_after_last_turn(void **st) {
    (void)st;
    s_b x;
    t_fx *f = s_board(2, &x);
    f->sc.last_turn = 14; /* medium (R-wem-medium-scenario) */
    f->s->turn = 14;
    f->s->step = WEM_STEP_END;
    wem_end_of_turn(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->over, 1);
    assert_non_null(t_ev_kind(&f->ev, "ended", 0));
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_victory_napoleon_removed_red_wins),
        cmocka_unit_test(test_wem_victory_wellington_removed_blue_wins),
        cmocka_unit_test(test_wem_victory_blucher_removed_game_goes_on),
        cmocka_unit_test(test_wem_removal_captured_twice_out_of_field_halved),
        cmocka_unit_test(test_wem_end_allies_pool_points_and_equal_is_a_draw),
        cmocka_unit_test(test_wem_end_mont_saint_jean_exclusive_scores_50),
        cmocka_unit_test(test_wem_end_garrisons_kept_score_20_and_30),
        cmocka_unit_test(test_wem_end_black_towns_score),
        cmocka_unit_test(test_wem_short_objective_decides_the_winner),
        cmocka_unit_test(test_wem_end_after_last_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
