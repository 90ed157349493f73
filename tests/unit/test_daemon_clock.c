/* test_daemon_clock.c - berthierd's game clocks: a budget per decision and a
 * time bank per seat, on synthetic times (no real clock is read). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../daemon/clock.c"

static void test_disabled(void **state) {
    (void)state;
    bd_clock c;
    clock_init(&c, 0, 0);
    assert_false(clock_enabled(&c));
    int must[2] = {1, 1};
    clock_update(&c, 2, must, 0, 1000);
    assert_true(clock_next_deadline(&c, 2, NULL) == INT64_MAX);
}

static void test_budget_and_bank(void **state) {
    (void)state;
    bd_clock c;
    clock_init(&c, 1000, 5000);   /* 1 s a decision, 5 s bank */
    int must[2] = {1, 0};
    clock_update(&c, 2, must, 3, 10000);
    unsigned seat = 9;
    assert_int_equal(clock_next_deadline(&c, 2, &seat), 10000 + 1000 + 5000);
    assert_int_equal(seat, 0);
    /* Seat 0 answers after 3 s: 2 s come out of its bank. */
    int none[2] = {0, 1};
    clock_update(&c, 2, none, 4, 13000);
    assert_int_equal(c.bank_left[0], 3000);
    assert_int_equal(clock_next_deadline(&c, 2, &seat), 13000 + 1000 + 5000);
    assert_int_equal(seat, 1);
    /* Seat 1 answers within its budget: its bank is untouched. */
    int again[2] = {1, 0};
    clock_update(&c, 2, again, 5, 13500);
    assert_int_equal(c.bank_left[1], 5000);
    assert_int_equal(clock_next_deadline(&c, 2, &seat), 13500 + 1000 + 3000);
    assert_int_equal(seat, 0);
    /* A new decision for the same seat (seq moved) restarts its clock. */
    clock_update(&c, 2, again, 6, 14000);
    assert_int_equal(c.bank_left[0], 3000);
    assert_int_equal(clock_next_deadline(&c, 2, &seat), 14000 + 1000 + 3000);
    /* Expiry spends the bank. */
    clock_expired(&c, 0);
    assert_int_equal(c.bank_left[0], 0);
    assert_true(clock_next_deadline(&c, 2, NULL) == INT64_MAX);
}

static void test_bank_only(void **state) {
    (void)state;
    bd_clock c;
    clock_init(&c, 0, 60000);   /* a chess clock */
    int must[3] = {0, 0, 1};
    clock_update(&c, 3, must, 1, 0);
    unsigned seat;
    assert_int_equal(clock_next_deadline(&c, 3, &seat), 60000);
    assert_int_equal(seat, 2);
    int none[3] = {0, 0, 0};
    clock_update(&c, 3, none, 2, 15000);
    assert_int_equal(c.bank_left[2], 45000);
    /* Sealed: two seats at once, each on its own clock. */
    int both[3] = {1, 0, 1};
    clock_update(&c, 3, both, 2, 20000);
    assert_int_equal(clock_next_deadline(&c, 3, &seat), 20000 + 45000);
    assert_int_equal(seat, 2);
    int first_done[3] = {0, 0, 1};
    clock_update(&c, 3, first_done, 2, 21000);
    assert_int_equal(c.bank_left[0], 59000);
    assert_int_equal(clock_next_deadline(&c, 3, &seat), 65000);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_disabled), cmocka_unit_test(test_budget_and_bank),
                                       cmocka_unit_test(test_bank_only)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
