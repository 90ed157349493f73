/*
 * test_wnlb_game.c - the wnlb engine plays: random games to the end with fixed dice, in
 * process, every order legal() lists accepted; a replay reproduces every state hash; a
 * seat's view carries its own hand only [2.4] [4.0].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "ruleset.h"
#include "wnlb/v1/wnlb.pb-c.h"

/* fixed dice: a counter-based stream, the same for every run */
static uint32_t s_fixed(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    uint64_t x = (index + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)ctx;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint32_t)(x % sides) + 1;
}

static void s_norecord(void *ctx, uint64_t i, uint32_t sides, uint32_t v, uint32_t seen, const char *p) {
    (void)ctx, (void)i, (void)sides, (void)v, (void)seen, (void)p;
}

/* the fixed dice of key seed, nothing recorded */
static void s_dice(brt_dice *d, uintptr_t seed) {
    memset(d, 0, sizeof *d);
    d->source = s_fixed;
    d->source_ctx = (void *)seed;
    d->record = s_norecord;
}

/* a wnlb game of scenario for seats on the fixed dice of key seed (NULL: refused, err says why) */
static void *s_setup(const char *scenario, unsigned seats, uintptr_t seed, brt_dice *dice, brt_reject *err) {
    const brt_ruleset *rs = brt_ruleset_find("wnlb");
    assert_non_null(rs);
    s_dice(dice, seed);
    brt_ruleset_options o = {NULL, 0, seats};
    return rs->setup(scenario, &o, dice, err);
}

struct brt_events {
    int count;
    uint32_t union_mask;
};

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    Wnlb__V1__Event *e = wnlb__v1__event__unpack(NULL, len, data);
    assert_non_null(e);
    /* an event naming hand cards goes to one seat only [4.0], bar the cards shown to the table: a
     * card played [6.0], a revealed bid or a blind draw [7.0], an Artillery Fire card [11.1], the
     * battle cards revealed [9.3] */
    if (e->n_cards && strcmp(e->kind, "played") != 0 && strcmp(e->kind, "bid") != 0 && strcmp(e->kind, "draw") != 0 &&
        strcmp(e->kind, "fire") != 0 && strcmp(e->kind, "battle-cards") != 0)
        assert_true(visible == 1u || visible == 2u || visible == 4u);
    wnlb__v1__event__free_unpacked(e, NULL);
    ev->count++;
    ev->union_mask |= visible;
    return 0;
}

static void s_hash(const brt_ruleset *rs, const void *st, uint8_t out[32]) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(rs->encode(st, &b), 0);
    crypto_generichash(out, 32, b.data, b.len, NULL, 0);
    buf_free(&b);
}

/* one random game; returns the number of orders; hashes[] gets each state's hash */
static int s_game(const char *scenario, unsigned seats, uintptr_t seed, uint8_t (*hashes)[32], int max) {
    const brt_ruleset *rs = brt_ruleset_find("wnlb");
    brt_dice dice;
    brt_reject err;
    void *st = s_setup(scenario, seats, seed, &dice, &err);
    assert_non_null(st);
    int n = 0;
    uint64_t pick = seed;
    for (;;) {
        brt_pending p;
        rs->pending(st, &p);
        if (!p.seats) break;
        assert_true(n < max);
        unsigned seat = 0;
        while (!(p.seats & (1u << seat))) seat++;
        brt_buf l;
        buf_init(&l);
        int cnt = rs->legal(st, seat, &l);
        assert_true(cnt > 0);
        /* every listed order is accepted (on a copy) */
        size_t pos = 0, len = 0;
        const uint8_t *item = NULL;
        const uint8_t *chosen = NULL;
        size_t chosen_len = 0;
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        int want = (int)((pick >> 33) % (uint64_t)cnt), i = 0;
        while (buf_next_item(&l, &pos, &item, &len) == 1) {
            void *c = rs->clone(st);
            brt_events ev = {0, 0};
            assert_int_equal(rs->apply(c, seat, item, len, &dice, &ev, &err), 0);
            rs->destroy(c);
            if (i++ == want) {
                chosen = item;
                chosen_len = len;
            }
        }
        assert_int_equal(i, cnt);
        brt_events ev = {0, 0};
        assert_int_equal(rs->apply(st, seat, chosen, chosen_len, &dice, &ev, &err), 0);
        buf_free(&l);
        s_hash(rs, st, hashes[n]);
        n++;
    }
    brt_result r;
    rs->result(st, &r);
    assert_true(r.ended);
    rs->destroy(st);
    return n;
}

static void s_play_twice(const char *scenario, unsigned seats) {
    enum { MAX = 4000 };
    uint8_t (*a)[32] = calloc(MAX, 32), (*b)[32] = calloc(MAX, 32);
    for (uintptr_t seed = 1; seed <= 3; seed++) {
        int n = s_game(scenario, seats, seed, a, MAX);
        int m = s_game(scenario, seats, seed, b, MAX);
        assert_int_equal(n, m);
        assert_memory_equal(a, b, (size_t)n * 32); /* replay reproduces every state hash */
    }
    free(a);
    free(b);
}

static void test_random_short_2_seats(void **st) {
    (void)st;
    s_play_twice("short", 2);
}
static void test_random_full_2_seats(void **st) {
    (void)st;
    s_play_twice("full", 2);
}
static void test_random_full_3_seats(void **st) {
    (void)st;
    s_play_twice("full", 3);
}

/* [1.0] [13.1] the short game is for 2 players only */
static void test_short_refuses_3_seats(void **st) {
    (void)st;
    brt_dice dice;
    brt_reject err;
    assert_null(s_setup("short", 3, 0, &dice, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SEATS);
}

/* [3.2] 15 French and 12 British cards; each hand in its owner's view only */
static void test_views_show_own_hand_only(void **st) {
    (void)st;
    const brt_ruleset *rs = brt_ruleset_find("wnlb");
    brt_dice dice;
    brt_reject err;
    void *g = s_setup("full", 3, 0, &dice, &err);
    assert_non_null(g);
    int views[] = {0, 1, 2, BRT_VIEW_PUBLIC, BRT_VIEW_ALL};
    for (size_t k = 0; k < 5; k++) {
        brt_buf b;
        buf_init(&b);
        assert_int_equal(rs->view(g, views[k], &b), 0);
        Wnlb__V1__View *v = wnlb__v1__view__unpack(NULL, b.len, b.data);
        assert_non_null(v);
        assert_int_equal(v->n_hands, 3);
        assert_int_equal(v->hands[0]->count, 15);
        assert_int_equal(v->hands[1]->count, 12);
        assert_int_equal(v->hands[2]->count, 0); /* [3.2] no Prussian cards on turn 1 */
        for (size_t a = 0; a < 3; a++) {
            int mine = views[k] == BRT_VIEW_ALL || views[k] == (int)a;
            assert_int_equal(v->hands[a]->n_cards, mine ? v->hands[a]->count : 0);
        }
        wnlb__v1__view__free_unpacked(v, NULL);
        buf_free(&b);
    }
    rs->destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_short_2_seats),     cmocka_unit_test(test_random_full_2_seats),
        cmocka_unit_test(test_random_full_3_seats),      cmocka_unit_test(test_short_refuses_3_seats),
        cmocka_unit_test(test_views_show_own_hand_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
