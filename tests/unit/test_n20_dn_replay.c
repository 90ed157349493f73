/*
 * test_n20_dn_replay.c - Danube 20 games (aspern-essling20, wagram20, marchfeld) played through
 * the core's game driver into an in-memory log (tests/support/selfplay.c, random legal orders
 * from a fixed generator) to their result [15.0], replayed record for record from the log's own
 * DICE records up to its END and from the server seed the log reveals to the last record, to the
 * same state hashes; and the final state hashes of a fixed-seed game per scenario, with no option
 * and with every option it takes, are those of tests/golden/n20-dn-hashes.txt, so that any change
 * of play is seen. BERTHIER_UPDATE_GOLDEN=1 rewrites the file (after a deliberate rules change:
 * the hashes of the new rules, to be looked at in the diff). BERTHIER_LONG=1 replays more games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "golden.h"
#include "memlog.h"
#include "ruleset.h"
#include "selfplay.h"

extern const brt_ruleset brt_ruleset_n20;

#define S_MAX_ORDERS 40000
#define S_MAXOPT 24

static const char *const s_scenarios[] = {"aspern-essling20", "wagram20", "marchfeld"};

/* every option the ruleset lists for `scenario` (what the daemon offers) */
static size_t s_all_options(const char *scenario, const char **names) {
    size_t n = 0;
    while (n < S_MAXOPT && brt_ruleset_n20.scenario_option(scenario, n)) {
        names[n] = brt_ruleset_n20.scenario_option(scenario, n);
        n++;
    }
    return n;
}

/* one seeded game: played to its result, replayed both ways; its final state hash in hex */
static uint64_t s_game(const char *scenario, const char *const *opts, size_t nopts, uint64_t seed, char hex[65]) {
    memlog log;
    selfplay_result r;
    memset(&r, 0, sizeof r);
    if (selfplay_game("n20", scenario, opts, nopts, 2, seed, S_MAX_ORDERS, &log, &r) != 0)
        fail_msg("%s (%zu options) seed %llu: %s", scenario, nopts, (unsigned long long)seed, r.error);
    assert_int_equal(r.rejected, 0);
    if (!r.ended)
        fail_msg("%s (%zu options) seed %llu: no result after %llu orders [15.0]", scenario, nopts,
                 (unsigned long long)seed, (unsigned long long)r.orders);
    size_t orders = 0, reveal = log.n;
    for (size_t i = 0; i < log.n; i++) {
        if (log.recs[i].kind == EVLOG_ORDER) orders++;
        if (log.recs[i].kind == EVLOG_REVEAL) reveal = i;
    }
    assert_int_equal(orders, r.orders);
    if (reveal == log.n)
        fail_msg("%s seed %llu: an ended game's log reveals no seed", scenario, (unsigned long long)seed);
    Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, log.recs[reveal].len, log.recs[reveal].payload);
    assert_non_null(rv);
    assert_int_equal(rv->seed.len, 32);
    uint8_t seed_bytes[32], h[32];
    memcpy(seed_bytes, rv->seed.data, 32);
    berthier__v1__log_reveal__free_unpacked(rv, NULL);
    char why[256] = "";
    size_t at = memlog_replay(&log, NULL, h, why, sizeof why);
    if (at != reveal)
        fail_msg("%s seed %llu: from the logged dice, record %zu of %zu: %s", scenario, (unsigned long long)seed, at,
                 reveal, why);
    why[0] = '\0';
    at = memlog_replay(&log, seed_bytes, h, why, sizeof why);
    if (at != log.n)
        fail_msg("%s seed %llu: from the seed, record %zu of %zu: %s", scenario, (unsigned long long)seed, at, log.n,
                 why);
    assert_memory_equal(h, r.state_hash, 32);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r.state_hash[i]);
    memlog_free(&log);
    return r.orders;
}

/* [15.0] the golden games: each Danube scenario with no option and with every option it takes */
static void test_n20_dn_replay_golden_hashes(void **st) {
    (void)st;
    brt_buf text;
    buf_init(&text);
    buf_printf(&text, "# n20 Danube 20: the final state hash (BLAKE2b-256 of the canonical state) of seeded self-play\n"
                      "# games to their result, scenario seed options (- for none) hash\n"
                      "# (tests/unit/test_n20_dn_replay.c; BERTHIER_UPDATE_GOLDEN=1 rewrites it)\n");
    for (size_t i = 0; i < sizeof s_scenarios / sizeof s_scenarios[0]; i++)
        for (int all = 0; all < 2; all++) {
            const char *names[S_MAXOPT];
            size_t n = all ? s_all_options(s_scenarios[i], names) : 0;
            if (all) assert_true(n >= 8);
            char hex[65];
            uint64_t seed = 1;
            s_game(s_scenarios[i], names, n, seed, hex);
            buf_printf(&text, "%s %llu ", s_scenarios[i], (unsigned long long)seed);
            if (n == 0) buf_printf(&text, "-");
            for (size_t k = 0; k < n; k++) buf_printf(&text, "%s%s", k ? "," : "", names[k]);
            buf_printf(&text, " %s\n", hex);
        }
    const char *src = getenv("BERTHIER_SRC");
    if (!src) fail_msg("BERTHIER_SRC is not set (ctest sets it)");
    char why[512];
    if (golden_check(src, "tests/golden/n20-dn-hashes.txt", (const char *)text.data, text.len, why, sizeof why) != 0)
        fail_msg("%s\nthis build plays the golden Danube 20 games to other states:\n%.*s", why, (int)text.len,
                 (const char *)text.data);
    buf_free(&text);
}

/* more seeded games, every option on and off, replayed both ways (not in the golden file) */
static void test_n20_dn_replay_random_games(void **st) {
    (void)st;
    int games = getenv("BERTHIER_LONG") ? 20 : 1;
    for (int g = 0; g < games; g++) {
        uint64_t seed = 0xd4b0000u + (uint64_t)g * 7919u;
        for (size_t i = 0; i < sizeof s_scenarios / sizeof s_scenarios[0]; i++) {
            const char *names[S_MAXOPT];
            size_t n = g % 2 ? s_all_options(s_scenarios[i], names) : 0;
            char hex[65];
            s_game(s_scenarios[i], names, n, seed, hex);
        }
    }
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_dn_replay_golden_hashes),
        cmocka_unit_test(test_n20_dn_replay_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
