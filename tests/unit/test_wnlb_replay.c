/*
 * test_wnlb_replay.c - every random game of the wnlb ruleset, played through the core's game
 * driver into an in-memory log (tests/support/selfplay.c), replays record for record from the
 * log's own DICE records (every EVENT, DICE and STATE record, each state hash, up to the END
 * record: what follows it reveals the server seed, which the dice alone cannot give), then
 * from the server seed the log reveals at the end (every record, the final state hash too).
 * The Short Game [13.2],
 * the Full Battle Game [13.3] with two seats and with three [6.0]; every game ends in a
 * result. BERTHIER_LONG=1 plays many more games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "memlog.h"
#include "selfplay.h"

static void s_games(const char *scenario, unsigned seats, int games) {
    if (getenv("BERTHIER_LONG")) games *= 20;
    for (int g = 0; g < games; g++) {
        memlog log;
        selfplay_result r;
        memset(&r, 0, sizeof r);
        uint64_t seed = 0x5eed0000u + (uint64_t)g * 104729u + seats;
        if (selfplay_game("wnlb", scenario, NULL, 0, seats, seed, 20000, &log, &r) != 0)
            fail_msg("%s/%u game %d: %s", scenario, seats, g, r.error);
        assert_int_equal(r.rejected, 0);
        if (!r.ended) fail_msg("%s/%u game %d: no result after %llu orders", scenario, seats, g,
                               (unsigned long long)r.orders);
        /* every accepted order is in the log, and every input is followed by a state hash: at once,
         * or (the first orders of a sealed decision, held until the last is in) after the batch */
        size_t orders = 0, held = 0, states = 0;
        for (size_t i = 0; i < log.n; i++) {
            int k = log.recs[i].kind;
            if (k == EVLOG_ORDER) orders++;
            if (k == EVLOG_ORDER || k == EVLOG_TIMEOUT || k == EVLOG_RESIGN) held++;
            if (k == EVLOG_STATE) {
                states++;
                held = 0;
            }
        }
        assert_int_equal(orders, r.orders);
        assert_int_equal(held, 0);
        assert_true(states > 0);
        uint8_t h[32], seed_bytes[32];
        char why[256] = "";
        /* the seed the log reveals after its END record */
        size_t reveal = log.n;
        for (size_t i = 0; i < log.n; i++)
            if (log.recs[i].kind == EVLOG_REVEAL) reveal = i;
        if (reveal == log.n) fail_msg("%s/%u game %d: an ended game's log reveals no seed", scenario, seats, g);
        Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, log.recs[reveal].len, log.recs[reveal].payload);
        assert_non_null(rv);
        assert_int_equal(rv->seed.len, 32);
        memcpy(seed_bytes, rv->seed.data, 32);
        berthier__v1__log_reveal__free_unpacked(rv, NULL);
        /* from the logged dice alone (no seed): every record up to the reveal */
        size_t at = memlog_replay(&log, NULL, h, why, sizeof why);
        if (at != reveal) fail_msg("%s/%u game %d: from the logged dice, record %zu of %zu: %s", scenario, seats, g, at, reveal, why);
        /* from the revealed seed: every record, and the final state hash */
        why[0] = '\0';
        at = memlog_replay(&log, seed_bytes, h, why, sizeof why);
        if (at != log.n) fail_msg("%s/%u game %d: from the seed, record %zu of %zu: %s", scenario, seats, g, at, log.n, why);
        assert_memory_equal(h, r.state_hash, 32);
        memlog_free(&log);
    }
}

static void test_wnlb_replay_short(void **st) {
    (void)st;
    s_games("short", 2, 3);
}

static void test_wnlb_replay_full_two_seats(void **st) {
    (void)st;
    s_games("full", 2, 2);
}

static void test_wnlb_replay_full_three_seats(void **st) {
    (void)st;
    s_games("full", 3, 2);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_replay_short),
        cmocka_unit_test(test_wnlb_replay_full_two_seats),
        cmocka_unit_test(test_wnlb_replay_full_three_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
