/*
 * test_wnlb_movement.c - [8.5] Example of Movement on a board built for it: 1/I Corps faces
 * West, 3 MPs into the village across the stream, 1 MP to face South, 1 MP across the bridged
 * stream: 5 MPs in all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wnlb/wnlb.h"

static const char s_board[] =
    "scenario ex85 | test\n"
    "turns 1 1 | test\n"
    "seats 2 | test\n"
    "grid 2 2 | test\n"
    "row A V. | test: the village west of the unit\n"
    "row B .. | test\n"
    "side A-1 E stream | [8.5] the stream crossed into the village\n"
    "side A-1 S stream bridge | [8.5] the bridge south of the village\n";

static void test_example_of_movement_8_5(void **st) {
    (void)st;
    static wnlb_scenario sc;
    char msg[128];
    assert_int_equal(wnlb_data_parse(s_board, sizeof s_board - 1, &sc, msg, sizeof msg), 0);
    wnlb_state *s = wnlb_state_new(&sc, 2);
    assert_non_null(s);
    int into_village = wnlb_enter_cost(s, 0, 1, WNLB_W); /* from A-2 west into A-1 */
    assert_int_equal(into_village, 3);                   /* 1 stream + 2 village */
    int facing = 1;                                      /* [8.1] one MP to change facing */
    int across_bridge = wnlb_enter_cost(s, 0, 0, WNLB_S);
    assert_int_equal(across_bridge, 1);                  /* the bridge: no stream cost */
    assert_int_equal(into_village + facing + across_bridge, 5);
    assert_int_equal(wnlb_enter_cost(s, 0, 0, WNLB_N), -1); /* off the board */
    wnlb_state_destroy(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_example_of_movement_8_5)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
