/*
 * test_n20_game.c - Waterloo 20 played through the game driver (core/game.c)
 * with random legal orders: every order legal() offers is accepted, the game
 * ends with a result [15.0], and replay reproduces every record byte for byte,
 * with the seed and from the logged dice alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canon.h"
#include "evlog.h"
#include "game.h"
#include "memlog.h"
#include "n20/testing/n20_test.h"

#define GID "0a1b2c3d4e5f6071"

/* max_steps: stop early (the game is still live: replay from the logged dice alone) */
/* option: a game option (e.g. "fog-of-war") or NULL */
static void s_play(uint64_t seed, int text_orders, int max_steps, const char *option) {
    memlog log;
    memlog_init(&log, GID, 5);
    uint8_t srv[32], keys[2][32];
    for (int i = 0; i < 32; i++) {
        srv[i] = (uint8_t)(i * 3 + seed);
        keys[0][i] = (uint8_t)(i + 1);
        keys[1][i] = (uint8_t)(i + 101);
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)"n20";
    c.scenario = (char *)"waterloo20-standard";
    c.seats = sp;
    c.n_seats = 2;
    char *opts[1] = {(char *)option};
    if (option) {
        c.options = opts;
        c.n_options = 1;
    }
    game_params p = {GID, &c, srv, log.pk, "test", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, memlog_sink(&log), &err);
    if (!g) fail_msg("game_create: %s", err.message);
    for (unsigned s = 0; s < 2; s++) {
        uint8_t ent[32];
        memset(ent, (int)(0x50 + s), 32);
        assert_int_equal(game_join(g, s, ent, 32, NULL, 0, &err), 0);
    }
    uint64_t rng = seed + 17;
    uint64_t rid = 0;
    int steps = 0;
    while (!game_over(g) && steps < max_steps) {
        int acted = 0;
        for (unsigned s = 0; s < 2 && !game_over(g); s++) {
            brt_pending pd;
            int must;
            game_pending(g, (int)s, &pd, &must);
            if (!must) continue;
            brt_buf legal;
            buf_init(&legal);
            int n = game_legal(g, s, &legal);
            assert_true(n > 0);
            int pick = (int)(t_rng(&rng) % (uint64_t)n);
            size_t pos = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&legal, &pos, &item, &ilen), 1);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = (char *)GID;
            sub.seat = s;
            sub.based_on_seq = game_seq(g);
            brt_buf text;
            buf_init(&text);
            if (text_orders) {
                /* the same order in the text syntax */
                const brt_ruleset *rs = game_ruleset(g);
                assert_int_equal(rs->order_format(item, ilen, &text), 0);
                buf_append(&text, "", 1);
                sub.order_text = (char *)text.data;
            } else {
                sub.order.data = (uint8_t *)item;
                sub.order.len = ilen;
            }
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            int rc = game_submit(g, s, bytes, blen, &err);
            if (rc != 0) fail_msg("legal order rejected: %s (%s)", err.message, text_orders ? (char *)text.data : "");
            free(bytes);
            buf_free(&text);
            buf_free(&legal);
            acted = 1;
            steps++;
        }
        assert_true(acted);
    }
    uint8_t live[32], h1[32];
    game_state_hash(g, live);
    char why[256];
    if (game_over(g)) {
        brt_result res;
        game_result(g, &res);
        assert_int_equal(res.ended, 1);
        size_t got = memlog_replay(&log, srv, h1, why, sizeof why);
        if (got != log.n) fail_msg("replay stopped at record %zu of %zu: %s", got, log.n, why);
    } else {
        assert_true(steps >= max_steps);
        size_t got = memlog_replay(&log, NULL, h1, why, sizeof why);
        if (got != log.n) fail_msg("replay from logged dice stopped at record %zu of %zu: %s", got, log.n, why);
    }
    assert_memory_equal(live, h1, 32);
    game_destroy(&g);
    memlog_free(&log);
}

static void test_n20_game_random_play_and_replay(void **st) {
    (void)st;
    s_play(1, 0, 20000, NULL); /* to the end [15.0], replayed with the revealed seed */
    s_play(2, 1, 20000, NULL); /* the same with text orders */
    s_play(3, 0, 40, NULL);    /* a live game, replayed from its logged dice */
    s_play(4, 0, 20000, "fog-of-war"); /* [16.1]: per-seat events in the log, replayed */
    s_play(5, 1, 20000, "fog-of-war"); /* hidden enemy units named @XXYY in text orders */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_game_random_play_and_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
