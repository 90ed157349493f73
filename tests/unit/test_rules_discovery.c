/*
 * test_rules_discovery.c - what a ruleset tells about itself (core/ruleset.h
 * scenario_name, scenario_option, brt_ruleset_names): every scenario and
 * option it lists is one setup accepts, and a refused scenario or option
 * names the valid ones. On the old code a BAD_OPTION refusal said only
 * "unknown option fog" and the table had no way to list the options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

extern const brt_ruleset brt_ruleset_n20;
extern const brt_ruleset brt_ruleset_duel;

/* Every option a scenario lists is accepted by setup, alone. */
static void test_listed_options_are_accepted(void **st) {
    (void)st;
    const brt_ruleset *const *all = brt_ruleset_all();
    size_t total = 0;
    for (size_t r = 0; all[r]; r++) {
        const brt_ruleset *rs = all[r];
        assert_non_null(rs->scenario_name);
        assert_non_null(rs->scenario_option);
        assert_non_null(rs->scenario_name(0, NULL)); /* at least one scenario */
        for (size_t i = 0; rs->scenario_name(i, NULL); i++) {
            unsigned min = 0;
            const char *sc = rs->scenario_name(i, &min);
            const char *names[BRT_MAX_SEATS];
            int max = rs->scenario_seats(sc, names, BRT_MAX_SEATS);
            assert_true(min >= 2);
            assert_true(max >= (int)min);
            for (size_t k = 0;; k++) {
                const char *o = rs->scenario_option(sc, k);
                if (!o) break;
                t_dice d;
                t_dice_init(&d, 7);
                brt_reject err;
                memset(&err, 0, sizeof err);
                brt_ruleset_options opts = {&o, 1, min};
                void *s = rs->setup(sc, &opts, &d.d, &err);
                if (!s) fail_msg("%s %s option %s is listed but refused: %s", rs->id, sc, o, err.message);
                rs->destroy(s);
                total++;
            }
        }
    }
    assert_true(total >= 10); /* n20 lists its optional rules */
    assert_null(brt_ruleset_duel.scenario_option("standard", 0));
}

/* An option the ruleset knows but the scenario does not take is not listed (and refused). */
static void test_bound_option_not_listed(void **st) {
    (void)st;
    const brt_ruleset *rs = &brt_ruleset_n20;
    int listed = 0;
    for (size_t k = 0; rs->scenario_option("waterloo20-standard", k); k++)
        if (strcmp(rs->scenario_option("waterloo20-standard", k), "sambre-crossing") == 0) listed = 1;
    assert_false(listed);
    t_dice d;
    t_dice_init(&d, 7);
    brt_reject err;
    const char *o = "sambre-crossing";
    brt_ruleset_options opts = {&o, 1, 2};
    assert_null(rs->setup("waterloo20-standard", &opts, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_non_null(strstr(err.message, "valid: "));
    assert_non_null(strstr(err.message, "fog-of-war"));
}

/* `--option fog`: the refusal lists every option the scenario takes. */
static void test_bad_option_lists_valid(void **st) {
    (void)st;
    const brt_ruleset *rs = &brt_ruleset_n20;
    for (size_t i = 0; rs->scenario_name(i, NULL); i++) {
        const char *sc = rs->scenario_name(i, NULL);
        t_dice d;
        t_dice_init(&d, 7);
        brt_reject err;
        const char *o = "fog";
        brt_ruleset_options opts = {&o, 1, 2};
        assert_null(rs->setup(sc, &opts, &d.d, &err));
        assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
        assert_non_null(strstr(err.message, "\"fog\""));
        assert_null(strstr(err.message, ", ...")); /* the whole list fits */
        for (size_t k = 0; rs->scenario_option(sc, k); k++)
            if (!strstr(err.message, rs->scenario_option(sc, k)))
                fail_msg("%s: %s missing from \"%s\"", sc, rs->scenario_option(sc, k), err.message);
    }
    t_dice d;
    t_dice_init(&d, 7);
    brt_reject err;
    const char *o = "fog";
    brt_ruleset_options opts = {&o, 1, 2};
    assert_null(brt_ruleset_duel.setup("standard", &opts, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_non_null(strstr(err.message, "valid: none"));
}

/* `--scenario waterloo`: the refusal lists every scenario. */
static void test_bad_scenario_lists_valid(void **st) {
    (void)st;
    const brt_ruleset *const *all = brt_ruleset_all();
    for (size_t r = 0; all[r]; r++) {
        t_dice d;
        t_dice_init(&d, 7);
        brt_reject err;
        brt_ruleset_options opts = {NULL, 0, 2};
        assert_null(all[r]->setup("waterloo", &opts, &d.d, &err));
        assert_int_equal(err.code, BRT_REJECT_BAD_SCENARIO);
        assert_non_null(strstr(err.message, "unknown scenario \"waterloo\""));
        for (size_t i = 0; all[r]->scenario_name(i, NULL); i++)
            assert_non_null(strstr(err.message, all[r]->scenario_name(i, NULL)));
    }
    char buf[400];
    size_t len = brt_ruleset_names(&brt_ruleset_n20, NULL, buf, sizeof buf);
    assert_int_equal(len, strlen(buf));
    assert_non_null(strstr(buf, "waterloo20-standard, "));
}

/* A list that does not fit is cut at a name and says so; the buffer stays terminated. */
static void test_names_truncate(void **st) {
    (void)st;
    char full[400], small[40];
    size_t n = brt_ruleset_names(&brt_ruleset_n20, "waterloo20-standard", full, sizeof full);
    assert_true(n > sizeof small);
    memset(small, 'x', sizeof small);
    size_t m = brt_ruleset_names(&brt_ruleset_n20, "waterloo20-standard", small, sizeof small);
    assert_true(m < sizeof small);
    assert_int_equal(m, strlen(small));
    assert_int_equal(strcmp(small + m - 5, ", ..."), 0);
    assert_int_equal(strncmp(full, small, m - 5), 0); /* a prefix of the whole list */
    assert_int_equal(brt_ruleset_names(&brt_ruleset_duel, "standard", small, sizeof small), 4);
    assert_string_equal(small, "none");
    assert_int_equal(brt_ruleset_names(&brt_ruleset_duel, NULL, small, sizeof small), 8);
    assert_string_equal(small, "standard");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listed_options_are_accepted),
        cmocka_unit_test(test_bound_option_not_listed),
        cmocka_unit_test(test_bad_option_lists_valid),
        cmocka_unit_test(test_bad_scenario_lists_valid),
        cmocka_unit_test(test_names_truncate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
