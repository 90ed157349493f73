/* test_wem_cases_formation.c - [Formations] [Front width and depth of Formations]: which tiles
 * make a Formation, its front width and depth, and the Advance/Charge number they give. Boards
 * of the tests' own: 30 mm tiles, positions in mm, headings in degrees. */
/* wem_t.h's t_unit() names units "%c%d" into 12 bytes, which gcc's inliner flags (it cannot
 * overflow: at most 160 units) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/maneuver.h"

static int s_fmn(t_fx *f, int u) {
    wem_formations x;
    wem_formations_find(f->s, &x);
    return x.of[u];
}

static int s_width(t_fx *f, int u) {
    wem_formations x;
    wem_formations_find(f->s, &x);
    return x.width[x.of[u]];
}

static int s_depth(t_fx *f, int u) {
    wem_formations x;
    wem_formations_find(f->s, &x);
    return x.depth[x.of[u]];
}

/* a 15 mm counter beside the tile at (100, 400): its left flank on the tile's right flank, the
 * front edges in line (centre 122.5, 392.5 mm) */
static void s_beside(t_fx *f, int u) {
    f->s->units[u].at.x = 2450;
    f->s->units[u].at.y = 7850;
}

static int s_allow(t_fx *f, int n, const int *u) {
    int16_t set[16];
    for (int i = 0; i < n; i++) set[i] = (int16_t)u[i];
    return wem_set_allowance(f->s, set, n);
}

/* "in contact (even by corners)" */
static void test_wem_formation_corner_contact_joins(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 430, 0);
    assert_int_equal(s_fmn(f, a), s_fmn(f, b));
    /* a corner contact joins the Formation but puts no unit side by side (R-wem-width-corner) */
    assert_int_equal(s_width(f, a), 1);
    assert_int_equal(s_depth(f, a), 1);
    t_free(f);
}

static void test_wem_formation_gap_is_two_formations(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 132, 400, 0);   /* 2 mm apart */
    assert_int_not_equal(s_fmn(f, a), s_fmn(f, b));
    t_free(f);
}

/* "with the fronts facing the same direction" */
static void test_wem_formation_other_facing_is_not_formation(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 400, 90);
    assert_int_not_equal(s_fmn(f, a), s_fmn(f, b));
    t_free(f);
}

/* the same direction within heading-tol (R-wem-formation-heading) */
static void test_wem_formation_heading_within_tol_joins(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 400, 0);
    f->s->units[b].h = 5;   /* half a degree */
    assert_int_equal(s_fmn(f, a), s_fmn(f, b));
    f->s->units[b].h = 30;  /* three degrees */
    assert_int_not_equal(s_fmn(f, a), s_fmn(f, b));
    t_free(f);
}

/* "of the same Army Corps"; "Formations of different Army Corps in contact are considered
 * united ... United Formations must calculate together their own front width and depth" */
static void test_wem_formation_other_corps_united_width_together(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 3, 130, 400, 0);
    wem_formations x;
    wem_formations_find(f->s, &x);
    assert_int_not_equal(x.of[a], x.of[b]);
    assert_int_equal(x.united[x.of[a]], x.united[x.of[b]]);
    assert_int_equal(x.width[x.of[a]], 2);
    assert_int_equal(x.width[x.of[b]], 2);
    t_free(f);
}

/* enemies never make one Formation */
static void test_wem_formation_enemies_apart(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    int b = t_unit(f, WEM_RED, WEM_INF, 2, 130, 400, 0);
    wem_formations x;
    wem_formations_find(f->s, &x);
    assert_int_not_equal(x.of[a], x.of[b]);
    assert_int_not_equal(x.united[x.of[a]], x.united[x.of[b]]);
    t_free(f);
}

/* front width: units side by side in contact; depth: units in column */
static void test_wem_formation_width_3_depth_2(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 160, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 430, 0);
    assert_int_equal(s_width(f, a), 3);
    assert_int_equal(s_depth(f, a), 2);
    t_free(f);
}

static void test_wem_formation_column_of_3_is_width_1(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_CAV, 2, 100, 400, 0);
    t_unit(f, WEM_BLUE, WEM_CAV, 2, 100, 430, 0);
    t_unit(f, WEM_BLUE, WEM_CAV, 2, 100, 460, 0);
    assert_int_equal(s_width(f, a), 1);
    assert_int_equal(s_depth(f, a), 3);
    t_free(f);
}

/* [Front width and depth of Formations] 1: Advance/Charge 4, 2: 3, 3: 2, 4 or more: 1 */
static void test_wem_advance_width_1_is_4(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[1] = {t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0)};
    assert_int_equal(s_allow(f, 1, u), 4);
    t_free(f);
}

static void test_wem_advance_width_2_is_3(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[2] = {t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0), t_unit(f, WEM_BLUE, WEM_INF, 2, 130, 400, 0)};
    assert_int_equal(s_allow(f, 2, u), 3);
    t_free(f);
}

static void test_wem_advance_width_3_is_2(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[3];
    for (int i = 0; i < 3; i++) u[i] = t_unit(f, WEM_BLUE, WEM_INF, 2, 100 + 30 * i, 400, 0);
    assert_int_equal(s_allow(f, 3, u), 2);
    t_free(f);
}

static void test_wem_advance_width_5_is_1(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[5];
    for (int i = 0; i < 5; i++) u[i] = t_unit(f, WEM_BLUE, WEM_INF, 2, 100 + 30 * i, 400, 0);
    assert_int_equal(s_allow(f, 5, u), 1);
    t_free(f);
}

/* "Artillery Unit counters still count as 1 for the calculation of their Formation's front width" */
static void test_wem_advance_artillery_counts_1_in_width(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[2];
    u[0] = t_unit(f, WEM_BLUE, WEM_INF, 2, 100, 400, 0);
    u[1] = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 122, 392, 0);
    s_beside(f, u[1]);
    assert_int_equal(s_fmn(f, u[0]), s_fmn(f, u[1]));
    assert_int_equal(s_width(f, u[0]), 2);
    assert_int_equal(s_allow(f, 2, u), 3);
    t_free(f);
}

/* [Advance] "Formations composed of only Light Cavalry Units can Advance +1" */
static void test_wem_advance_light_cavalry_only_plus_1(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[2] = {t_unit(f, WEM_BLUE, WEM_CAV, 2, 100, 400, 0), t_unit(f, WEM_BLUE, WEM_CAV, 2, 130, 400, 0)};
    f->sc.units[u[0]].cav = f->sc.units[u[1]].cav = WEM_CAV_LIGHT;
    assert_int_equal(s_allow(f, 2, u), 4);
    f->sc.units[u[1]].cav = WEM_CAV_MEDIUM;   /* not only light cavalry */
    assert_int_equal(s_allow(f, 2, u), 3);
    t_free(f);
}

/* [Units] "Horse Artillery Units do not reduce the Advance/Charge ability of the Light Cavalry" */
static void test_wem_advance_horse_artillery_keeps_light_bonus(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[2] = {t_unit(f, WEM_BLUE, WEM_CAV, 2, 100, 400, 0), t_unit(f, WEM_BLUE, WEM_ART_HORSE, 2, 122, 392, 0)};
    s_beside(f, u[1]);
    f->sc.units[u[0]].cav = WEM_CAV_LIGHT;
    /* neither the +1 nor the front width: as the light cavalry alone, 4 + 1
     * (R-wem-light-horse-artillery) */
    assert_int_equal(s_allow(f, 2, u), 5);
    f->sc.units[u[1]].kind = WEM_ART_FOOT;   /* artillery on foot does: width 2, 3, no +1 */
    assert_int_equal(s_allow(f, 2, u), 3);
    t_free(f);
}

/* [The Garrisons] "Garrisons do NOT follow the rules of other Units": no Formation with tiles */
static void test_wem_formation_garrison_stands_alone(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_RED, WEM_INF, 2, 100, 400, 0);
    int g = t_unit(f, WEM_RED, WEM_GARRISON, 2, 122, 392, 0);
    s_beside(f, g);
    wem_formations x;
    wem_formations_find(f->s, &x);
    assert_int_not_equal(x.of[a], x.of[g]);
    assert_int_equal(x.width[x.of[a]], 1);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_formation_corner_contact_joins),
        cmocka_unit_test(test_wem_formation_gap_is_two_formations),
        cmocka_unit_test(test_wem_formation_other_facing_is_not_formation),
        cmocka_unit_test(test_wem_formation_heading_within_tol_joins),
        cmocka_unit_test(test_wem_formation_other_corps_united_width_together),
        cmocka_unit_test(test_wem_formation_enemies_apart),
        cmocka_unit_test(test_wem_formation_width_3_depth_2),
        cmocka_unit_test(test_wem_formation_column_of_3_is_width_1),
        cmocka_unit_test(test_wem_advance_width_1_is_4),
        cmocka_unit_test(test_wem_advance_width_2_is_3),
        cmocka_unit_test(test_wem_advance_width_3_is_2),
        cmocka_unit_test(test_wem_advance_width_5_is_1),
        cmocka_unit_test(test_wem_advance_artillery_counts_1_in_width),
        cmocka_unit_test(test_wem_advance_light_cavalry_only_plus_1),
        cmocka_unit_test(test_wem_advance_horse_artillery_keeps_light_bonus),
        cmocka_unit_test(test_wem_formation_garrison_stands_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
