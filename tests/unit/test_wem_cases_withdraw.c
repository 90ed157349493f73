/* test_wem_cases_withdraw.c - the forced moves: [Withdraw] and its exceptions, [Retreat] and
 * [Routed] (through wem_shake), [Fall Back]. Boards of the tests' own: blue faces north from
 * y = 400 mm, so that straight back is south (+y); 30 mm tiles; 1 UoM = 30 mm. */
/* wem_t.h's t_unit() names units "%c%d" into 12 bytes, which gcc's inliner flags (it cannot
 * overflow: at most 160 units) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/maneuver.h"

#define MM(v) ((v) * WEM_MM)

static int s_touching(t_fx *f, int a, int b) {
    wem_rect ra = wem_unit_rect(f->s, a), rb = wem_unit_rect(f->s, b);
    return wem_g_contact(&ra, &rb, wem_tol(f->s)) == WEM_TOUCH;
}

/* "in the opposite direction to the front, without change to orientation" */
static void test_wem_withdraw_straight_back_no_turn(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[u].at.x, MM(200));
    assert_int_equal(f->s->units[u].at.y, MM(430));
    assert_int_equal(f->s->units[u].h, 0);
    t_free(f);
}

static void test_wem_withdraw_turned_unit_goes_its_own_back(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 90);   /* faces east: back is west */
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[u].at.x, MM(170));
    assert_int_equal(f->s->units[u].at.y, MM(400));
    assert_int_equal(f->s->units[u].h, 900);
    t_free(f);
}

/* "If a Unit CANNOT Withdraw because of any reason, it will receive a yellow marker. If the Unit
 * has already a yellow marker it will instead suffer 1 Loss." */
static void test_wem_withdraw_blocked_gives_yellow_then_loss(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 430, 0);   /* an enemy against its rear */
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), 0);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[u].losses, 0);
    assert_int_equal(f->s->units[u].at.y, MM(400));
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), 0);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[u].losses, 1);
    t_free(f);
}

/* "a Unit that must Withdraw can never get closer to the Unit that caused the withdrawal" */
static void test_wem_withdraw_never_closer_to_cause(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int c = t_unit(f, WEM_RED, WEM_INF, 1, 200, 500, 0);   /* behind it */
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, c, &f->ev), 0);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[u].at.y, MM(400));
    assert_non_null(t_ev_kind(&f->ev, "withdraw-blocked", 0));
    t_free(f);
}

/* exception: "If the Unit is a bombardment target and it is fired on the rear, it CANNOT
 * Withdraw" */
static void test_wem_withdraw_fired_on_rear_cannot(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 180);   /* faces south: its rear north */
    int g = t_unit(f, WEM_RED, WEM_ART_FOOT, 1, 200, 300, 180);
    f->s->bomb.gun = (int16_t)g;
    f->s->bomb.target = (int16_t)u;
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, g, &f->ev), 0);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[u].at.y, MM(400));
    t_free(f);
}

/* exception: "If the Unit must Withdraw and it moves partially, ending in contact with a friendly
 * Unit, the Withdraw effect is considered resolved." */
static void test_wem_withdraw_partial_to_friend_resolved(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 3, 200, 440, 0);   /* 10 mm behind */
    int32_t d = wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev);
    assert_true(d > 0 && d < WEM_UOM);
    assert_int_equal(f->s->units[u].yellow, 0);
    assert_true(s_touching(f, u, x));
    assert_int_equal(f->s->units[x].at.y, MM(440));
    t_free(f);
}

/* exception: "in contact with a friendly Unit (up to depth 2 *), both Units must Withdraw 1" */
static void test_wem_withdraw_friend_in_contact_both_withdraw(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 430, 0);
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[u].at.y, MM(430));
    assert_int_equal(f->s->units[x].at.y, MM(460));
    assert_int_equal(f->s->units[u].yellow + f->s->units[x].yellow, 0);
    t_free(f);
}

/* (*) "calculate the cumulative depth of the Formation even if the front of all of the Units is
 * not oriented in the same direction and even if the Formations are not considered united" */
static void test_wem_withdraw_depth_counts_other_formations(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_CAV, 4, 200, 430, 90);   /* another corps, facing east */
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[x].at.y, MM(460));
    t_free(f);
}

/* exception: "in contact with friendly Units (depth 3+ *), the first 2 Units from the melee front
 * are Shaken" */
static void test_wem_withdraw_depth_3_first_two_shaken(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 430, 0);
    int y = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 460, 0);
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), 0);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[x].yellow, 1);
    assert_int_equal(f->s->units[y].yellow, 0);
    assert_int_equal(f->s->units[u].at.y, MM(400));
    t_free(f);
}

/* "An Artillery Unit that must Withdraw, must fasten the Horse Team" */
static void test_wem_withdraw_artillery_fastens(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 400, 0);
    assert_int_equal(f->s->units[g].fastened, 0);
    assert_int_equal(wem_withdraw(f->s, g, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[g].fastened, 1);
    assert_true(f->s->units[g].fastened_turn);
    t_free(f);
}

/* "A Unit that must Withdraw because of a melee effect, CANNOT start combat nor give support in
 * the subsequent melee" (wem_unit.withdrew) */
static void test_wem_withdraw_by_melee_marks_unit(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    f->s->combat.active = 1;
    wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev);
    assert_true(f->s->units[u].withdrew);
    t_free(f);
}

/* [Elements out of field] a forced move off the board removes the unit (digest ambiguity 19) */
static void test_wem_withdraw_off_the_board_out_of_field(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 660, 0);
    wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev);
    assert_int_equal(f->s->units[u].status, WEM_OUTFIELD);
    t_free(f);
}

/* [The Garrisons] "Garrisons can NEVER be moved (ignore Withdraw or Retreat effects)" */
static void test_wem_withdraw_garrison_ignores(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int g = t_unit(f, WEM_RED, WEM_GARRISON, 2, 200, 400, 180);
    assert_int_equal(wem_withdraw(f->s, g, WEM_UOM, -1, &f->ev), 0);
    assert_int_equal(f->s->units[g].at.y, MM(400));
    assert_int_equal(f->s->units[g].yellow, 0);
    t_free(f);
}

/* [Routed] "When a Unit has 2 yellow markers it is Routed. A Routed Unit must Withdraw 2" */
static void test_wem_routed_withdraws_2(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    wem_shake(f->s, u, -1, &f->ev);
    assert_int_equal(f->s->units[u].yellow, 1);
    assert_int_equal(f->s->units[u].at.y, MM(400));
    wem_shake(f->s, u, -1, &f->ev);
    assert_int_equal(f->s->units[u].yellow, 2);
    assert_int_equal(f->s->units[u].at.y, MM(460));
    t_free(f);
}

/* [Routed] "if it CANNOT, the Unit is captured" */
static void test_wem_routed_cannot_withdraw_captured(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 430, 0);
    f->s->units[u].yellow = 1;
    wem_shake(f->s, u, -1, &f->ev);
    assert_int_equal(f->s->units[u].status, WEM_CAPTURED);
    t_free(f);
}

/* [Retreat] "An Infantry or Cavalry Unit in Retreat must Withdraw 1 and receive a yellow marker" */
static void test_wem_retreat_is_withdraw_1_and_yellow(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_CAV, 2, 200, 400, 0);
    wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev);
    wem_shake(f->s, u, -1, &f->ev);
    assert_int_equal(f->s->units[u].at.y, MM(430));
    assert_int_equal(f->s->units[u].yellow, 1);
    t_free(f);
}

/* [Fall Back] the Formation moves back, "without changing their orientation" */
static void test_wem_fall_back_moves_whole_formation(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 230, 400, 0);
    wem_fall_back(f->s, a, 2 * WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(460));
    assert_int_equal(f->s->units[b].at.y, MM(460));
    assert_int_equal(f->s->units[a].losses + f->s->units[b].losses, 0);
    t_free(f);
}

/* [Fall Back] "If a Unit must Fall Back, but it CANNOT, because of any circumstance, it will
 * instead suffer 1 Loss" (R-wem-fall-back-partial) */
static void test_wem_fall_back_blocked_unit_takes_loss(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 230, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 230, 440, 0);   /* 10 mm behind b */
    wem_fall_back(f->s, a, WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(430));
    assert_int_equal(f->s->units[a].losses, 0);
    assert_int_equal(f->s->units[b].at.y, MM(400));
    assert_int_equal(f->s->units[b].losses, 1);
    t_free(f);
}

/* [Fall Back] "An Artillery Unit that must Fall Back must fasten the Horse Team" */
static void test_wem_fall_back_artillery_fastens(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 400, 0);
    wem_fall_back(f->s, g, WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[g].fastened, 1);
    t_free(f);
}

/* Fall Back is a maneuver: "A Formation, during a maneuver, can move through friendly Units, as
 * long as these Units are not part of a Formation IN MOVEMENT" */
static void test_wem_fall_back_through_friends_not_in_movement(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 3, 200, 430, 0);   /* right behind, another corps, Shaken */
    f->s->units[x].yellow = 1;
    wem_fall_back(f->s, a, 2 * WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(460));
    assert_int_equal(f->s->units[a].losses, 0);
    assert_int_equal(f->s->units[a].yellow, 1);   /* it moved through a Shaken Unit */
    t_free(f);
}

static void test_wem_fall_back_not_through_friends_in_movement(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 3, 200, 440, 0);
    f->s->units[x].green = 1;
    wem_fall_back(f->s, a, 2 * WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(400));
    assert_int_equal(f->s->units[a].losses, 1);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_withdraw_straight_back_no_turn),
        cmocka_unit_test(test_wem_withdraw_turned_unit_goes_its_own_back),
        cmocka_unit_test(test_wem_withdraw_blocked_gives_yellow_then_loss),
        cmocka_unit_test(test_wem_withdraw_never_closer_to_cause),
        cmocka_unit_test(test_wem_withdraw_fired_on_rear_cannot),
        cmocka_unit_test(test_wem_withdraw_partial_to_friend_resolved),
        cmocka_unit_test(test_wem_withdraw_friend_in_contact_both_withdraw),
        cmocka_unit_test(test_wem_withdraw_depth_counts_other_formations),
        cmocka_unit_test(test_wem_withdraw_depth_3_first_two_shaken),
        cmocka_unit_test(test_wem_withdraw_artillery_fastens),
        cmocka_unit_test(test_wem_withdraw_by_melee_marks_unit),
        cmocka_unit_test(test_wem_withdraw_off_the_board_out_of_field),
        cmocka_unit_test(test_wem_withdraw_garrison_ignores),
        cmocka_unit_test(test_wem_routed_withdraws_2),
        cmocka_unit_test(test_wem_routed_cannot_withdraw_captured),
        cmocka_unit_test(test_wem_retreat_is_withdraw_1_and_yellow),
        cmocka_unit_test(test_wem_fall_back_moves_whole_formation),
        cmocka_unit_test(test_wem_fall_back_blocked_unit_takes_loss),
        cmocka_unit_test(test_wem_fall_back_artillery_fastens),
        cmocka_unit_test(test_wem_fall_back_through_friends_not_in_movement),
        cmocka_unit_test(test_wem_fall_back_not_through_friends_in_movement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
