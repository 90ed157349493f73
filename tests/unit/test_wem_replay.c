/*
 * test_wem_replay.c - wem games played through the core's game driver into an in-memory log
 * (tests/support/selfplay.c, random legal orders from a fixed generator) replay record for
 * record, from the log's own DICE records up to its END and from the server seed the log
 * reveals to the last record, to the same state hashes; and the final state hashes of a few
 * seeded games are those of tests/golden/wem-hashes.txt, so that every build (gcc -O0, gcc -O2,
 * clang -O2: tests/tools/wem_builds.sh) is proven to play the same games to the same bytes.
 * BERTHIER_UPDATE_GOLDEN=1 rewrites the file (after a deliberate rules change: the hashes of the
 * new rules, to be looked at in the diff). BERTHIER_LONG=1 replays many more games.
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
#include "selfplay.h"

#define S_MAX_ORDERS 40000

/* one seeded game: played, replayed both ways; its final state hash in hex */
static void s_game(const char *scenario, unsigned seats, uint64_t seed, char hex[65]) {
    memlog log;
    selfplay_result r;
    memset(&r, 0, sizeof r);
    if (selfplay_game("wem", scenario, NULL, 0, seats, seed, S_MAX_ORDERS, &log, &r) != 0)
        fail_msg("%s/%u seed %llu: %s", scenario, seats, (unsigned long long)seed, r.error);
    assert_int_equal(r.rejected, 0);
    if (!r.ended)
        fail_msg("%s/%u seed %llu: no result after %llu orders [End of the Game]", scenario, seats,
                 (unsigned long long)seed, (unsigned long long)r.orders);
    size_t orders = 0, reveal = log.n;
    for (size_t i = 0; i < log.n; i++) {
        if (log.recs[i].kind == EVLOG_ORDER) orders++;
        if (log.recs[i].kind == EVLOG_REVEAL) reveal = i;
    }
    assert_int_equal(orders, r.orders);
    if (reveal == log.n) fail_msg("%s/%u seed %llu: an ended game's log reveals no seed", scenario, seats,
                                  (unsigned long long)seed);
    Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, log.recs[reveal].len, log.recs[reveal].payload);
    assert_non_null(rv);
    assert_int_equal(rv->seed.len, 32);
    uint8_t seed_bytes[32], h[32];
    memcpy(seed_bytes, rv->seed.data, 32);
    berthier__v1__log_reveal__free_unpacked(rv, NULL);
    char why[256] = "";
    size_t at = memlog_replay(&log, NULL, h, why, sizeof why);
    if (at != reveal) fail_msg("%s/%u seed %llu: from the logged dice, record %zu of %zu: %s", scenario, seats,
                               (unsigned long long)seed, at, reveal, why);
    why[0] = '\0';
    at = memlog_replay(&log, seed_bytes, h, why, sizeof why);
    if (at != log.n) fail_msg("%s/%u seed %llu: from the seed, record %zu of %zu: %s", scenario, seats,
                              (unsigned long long)seed, at, log.n, why);
    assert_memory_equal(h, r.state_hash, 32);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r.state_hash[i]);
    memlog_free(&log);
}

/* [Short Alternative Scenario] [Introduction] [End of the Last Turn of the Game] the golden games:
 * the short scenario with two seats, the complete one with two and three, the medium one */
static void test_wem_replay_golden_hashes(void **st) {
    (void)st;
    static const struct {
        const char *scenario;
        unsigned seats;
        uint64_t seed;
    } games[] = {
        {"short", 2, 1}, {"short", 2, 2}, {"short", 2, 3}, {"full", 2, 1},
        {"full", 3, 1},  {"full", 3, 2},  {"medium", 2, 1}, {"medium", 3, 1},
    };
    brt_buf text;
    buf_init(&text);
    buf_printf(&text, "# wem: the final state hash (BLAKE2b-256 of the canonical state) of seeded self-play games,\n"
                      "# scenario seats seed hash (tests/unit/test_wem_replay.c; every build must give these)\n");
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char hex[65];
        s_game(games[i].scenario, games[i].seats, games[i].seed, hex);
        buf_printf(&text, "%s %u %llu %s\n", games[i].scenario, games[i].seats, (unsigned long long)games[i].seed, hex);
    }
    const char *src = getenv("BERTHIER_SRC");
    if (!src) fail_msg("BERTHIER_SRC is not set (ctest sets it)");
    char why[512];
    if (golden_check(src, "tests/golden/wem-hashes.txt", (const char *)text.data, text.len, why, sizeof why) != 0)
        fail_msg("%s\nthis build plays the golden games to other states:\n%.*s", why, (int)text.len,
                 (const char *)text.data);
    buf_free(&text);
}

/* more seeded games, replayed both ways (not in the golden file) */
static void test_wem_replay_random_games(void **st) {
    (void)st;
    int games = getenv("BERTHIER_LONG") ? 40 : 2;
    for (int g = 0; g < games; g++) {
        char hex[65];
        uint64_t seed = 0x5eed0000u + (uint64_t)g * 104729u;
        s_game("short", 2, seed, hex);
        s_game("full", 2 + (unsigned)(g % 2), seed, hex);
    }
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_replay_golden_hashes),
        cmocka_unit_test(test_wem_replay_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
