/*
 * test_n20_random.c - random-play conformance of the n20 ruleset on
 * Waterloo 20 Standard: every game of random legal orders ends in a result
 * [15.0], apply() accepts every order legal() lists, and replaying a seed
 * gives the same final state hash. BERTHIER_LONG=1 plays thousands of games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* 1 if the order spends a Morale Point (forced march, reserves, rally) */
static int s_spends(const uint8_t *item, size_t len) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__order__descriptor, item, len, 0, &m) != CANON_OK) return 0;
    N20__V1__Order *o = (N20__V1__Order *)m;
    int r = o->kind_case == N20__V1__ORDER__KIND_FORCE_MARCH ||
            (o->kind_case == N20__V1__ORDER__KIND_RESOLVE && o->resolve->reserve) ||
            (o->kind_case == N20__V1__ORDER__KIND_RESERVE && o->reserve->commit) ||
            (o->kind_case == N20__V1__ORDER__KIND_RALLY && o->rally->n_spend) ||
            (o->kind_case == N20__V1__ORDER__KIND_COUNTERCHARGE && o->countercharge->reserve);
    protobuf_c_message_free_unpacked(m, NULL);
    return r;
}

/* plays one game; returns the number of orders; fills the final hash */
/* thrifty: the players rarely spend Morale, so that games last to the later turns */
static int s_play(uint64_t seed, int check_all, int thrifty, uint8_t hash[32], int *ended) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start("waterloo20-standard", 0, &d, &out);
    uint64_t rng = seed * 2654435761u + 1;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    while (!s->over && steps < 20000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) {
            brt_buf vt;
            buf_init(&vt);
            n20_view_text(s, -1, &vt);
            buf_append(&vt, "", 1);
            fprintf(stderr, "%s\n", (char *)vt.data);
            buf_free(&vt);
            brt_pending p;
            n20_pending(s, &p);
            fail_msg("seed %llu: no legal order for seat %d at %s (phase %d)", (unsigned long long)seed, seat,
                     p.kind, s->phase);
        }
        assert_int_equal(t_legal_n(s, (unsigned)(1 - seat)), 0); /* the other seat has nothing to do */
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        if (thrifty) {
            /* re-draw (up to 3 times) an order that spends Morale, 7 times in 8 */
            for (int tries = 0; tries < 3; tries++) {
                size_t p2 = 0;
                const uint8_t *it;
                size_t l2;
                int k = 0;
                while (buf_next_item(&legal, &p2, &it, &l2) == 1 && k < pick) k++;
                if (!s_spends(it, l2) || t_rng(&rng) % 8 == 0) break;
                pick = (int)(t_rng(&rng) % (uint64_t)n);
            }
        }
        char tag[96];
        snprintf(tag, sizeof tag, "seed %llu", (unsigned long long)seed);
        size_t clen;
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, check_all, &d, &out, tag, &clen);
        assert_non_null(chosen);
        brt_reject err;
        int rc = n20_apply(s, (unsigned)seat, chosen, clen, &d.d, &out, &err);
        if (rc != 0) fail_msg("seed %llu: chosen order rejected: %s", (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    *ended = s->over;
    t_hash(s, hash);
    free(s);
    return steps;
}

static void test_n20_random_games_end_and_replay(void **state) {
    (void)state;
    const char *lg = getenv("BERTHIER_LONG");
    int games = lg && *lg == '1' ? 2000 : 24;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        int thrifty = g % 2;
        int n1 = s_play((uint64_t)g + 1, g < 4 || g % 8 == 0, thrifty, h1, &e1);
        assert_true(e1); /* [15.0] every game ends with a result */
        int n2 = s_play((uint64_t)g + 1, 0, thrifty, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_random_games_end_and_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
