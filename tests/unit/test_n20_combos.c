/*
 * test_n20_combos.c - random-play conformance of n20 over every scenario with
 * every option it takes at once, through the ruleset table as the daemon uses it:
 * each game ends in a result, a seat with the decision always has a legal order,
 * apply() accepts every order legal() lists (checked on a copy of the state, for
 * the first steps of each game), and the same seed replays to the same state hash.
 * BERTHIER_LONG=1 plays 25 times more games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

extern const brt_ruleset brt_ruleset_n20;

typedef struct t_sink {
    int n;
} t_sink;

static uint64_t s_rng(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* every option `scenario` accepts on its own (as the daemon would: setup succeeds) */
static size_t s_options(const char *scenario, const char **names, size_t max) {
    size_t n = 0;
    for (size_t k = 0; k < n20_noptions && n < max; k++) {
        if (!n20_options[k].implemented) continue;
        t_dice d;
        t_dice_init(&d, 1);
        brt_reject err;
        const char *one[] = {n20_options[k].name};
        brt_ruleset_options o = {one, 1, 2};
        void *s = brt_ruleset_n20.setup(scenario, &o, &d.d, &err);
        if (s) {
            names[n++] = n20_options[k].name;
            brt_ruleset_n20.destroy(s);
        }
    }
    return n;
}

/* one game of random legal orders; returns the orders played, fills the final state hash */
static int s_play(const char *scenario, const char **names, size_t nnames, uint64_t seed, int check_steps,
                  uint8_t hash[32]) {
    const brt_ruleset *r = &brt_ruleset_n20;
    t_dice d;
    t_dice_init(&d, seed);
    brt_reject err;
    brt_ruleset_options o = {names, nnames, 2};
    void *s = r->setup(scenario, &o, &d.d, &err);
    if (!s) fail_msg("%s: setup refused its own options: %s", scenario, err.message);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    int steps = 0;
    brt_result res;
    for (;;) {
        r->result(s, &res);
        if (res.ended || steps >= 20000) break;
        brt_pending p;
        r->pending(s, &p);
        int seat = n20_pending_seat(s);
        if (seat != 0 && seat != 1) fail_msg("%s seed %llu: no seat decides at step %d", scenario,
                                             (unsigned long long)seed, steps);
        buf_reset(&legal);
        int n = r->legal(s, (unsigned)seat, &legal);
        if (n <= 0) {
            brt_buf vt;
            buf_init(&vt);
            r->view_text(s, -1, &vt);
            buf_append(&vt, "", 1);
            fprintf(stderr, "%s\n", (char *)vt.data);
            buf_free(&vt);
            fail_msg("%s seed %llu: no legal order for seat %d at %s [%s] (step %d)", scenario,
                     (unsigned long long)seed, seat, p.kind, p.rule, steps);
        }
        int pick = (int)(s_rng(&rng) % (uint64_t)n);
        size_t pos = 0, len = 0, clen = 0;
        const uint8_t *item = NULL, *chosen = NULL;
        int i = 0;
        while (buf_next_item(&legal, &pos, &item, &len) == 1) {
            if (steps < check_steps) {
                void *c = r->clone(s);
                t_dice d2 = d;
                d2.d.source_ctx = &d2;
                if (r->apply(c, (unsigned)seat, item, len, &d2.d, NULL, &err) != 0) {
                    brt_buf t;
                    buf_init(&t);
                    r->order_format(item, len, &t);
                    buf_append(&t, "", 1);
                    fail_msg("%s seed %llu: legal order '%s' rejected: [%s] %s", scenario,
                             (unsigned long long)seed, (char *)t.data, err.rule, err.message);
                }
                r->destroy(c);
            }
            if (i == pick) {
                chosen = item;
                clen = len;
            }
            i++;
        }
        assert_non_null(chosen);
        if (r->apply(s, (unsigned)seat, chosen, clen, &d.d, NULL, &err) != 0)
            fail_msg("%s seed %llu: chosen order rejected: %s", scenario, (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    r->result(s, &res);
    if (!res.ended) fail_msg("%s seed %llu: no result after %d orders", scenario, (unsigned long long)seed, steps);
    brt_buf enc;
    buf_init(&enc);
    assert_int_equal(r->encode(s, &enc), 0);
    crypto_generichash(hash, 32, enc.data, enc.len, NULL, 0);
    buf_free(&enc);
    r->destroy(s);
    return steps;
}

static void s_scenario(const char *scenario) {
    const char *names[32];
    size_t n = s_options(scenario, names, 32);
    assert_true(n >= 8); /* the [16.x] options at least */
    const char *lg = getenv("BERTHIER_LONG");
    int games = lg && *lg && *lg != '0' ? 50 : 2;
    for (int g = 0; g < games; g++) {
        uint64_t seed = 1000 + (uint64_t)g;
        uint8_t h1[32], h2[32];
        int k = s_play(scenario, names, n, seed, g == 0 ? 200 : 40, h1);
        int k2 = s_play(scenario, names, n, seed, 0, h2);
        assert_int_equal(k, k2);
        assert_memory_equal(h1, h2, 32);
    }
}

/* [16.0] [17.0] every option a scenario takes, all at once */
static void test_n20_combos_standard_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-standard");
}
static void test_n20_combos_closing_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-closing");
}
static void test_n20_combos_extended_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-extended");
}
static void test_n20_combos_opening_all_options(void **st) {
    (void)st;
    s_scenario("waterloo20-opening");
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_combos_standard_all_options),
        cmocka_unit_test(test_n20_combos_closing_all_options),
        cmocka_unit_test(test_n20_combos_extended_all_options),
        cmocka_unit_test(test_n20_combos_opening_all_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
