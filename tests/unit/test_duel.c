/*
 * test_duel.c - the duel ruleset's rule cases [D1]..[D6] (rules/duel/README.md),
 * driven directly through the ruleset interface with a scripted dice source,
 * and its text syntax round-tripping to protobuf.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "duel/v1/duel.pb-c.h"
#include "ruleset.h"

/* Scripted dice: returns the values given, in order, and counts the rolls. */
typedef struct {
    const uint32_t *values;
    size_t n, next;
} script;

static uint32_t s_script(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)index;
    (void)purpose;
    script *s = ctx;
    if (s->next >= s->n) return 0;
    uint32_t v = s->values[s->next++];
    return v <= sides ? v : 0;
}

static void s_norecord(void *ctx, uint64_t i, uint32_t sides, uint32_t v, uint32_t seen, const char *p) {
    (void)ctx, (void)i, (void)sides, (void)v, (void)seen, (void)p;
}

/* brt_events is the core's; this test collects events through a tiny stand-in. */
struct brt_events {
    int count;
    Duel__V1__Event *last[16];
};

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    assert_int_equal(visible, BRT_SEATS_ALL);
    if (ev->count < 16) ev->last[ev->count] = duel__v1__event__unpack(NULL, len, data);
    ev->count++;
    return 0;
}

static void s_events_free(brt_events *ev) {
    for (int i = 0; i < ev->count && i < 16; i++) duel__v1__event__free_unpacked(ev->last[i], NULL);
    memset(ev, 0, sizeof *ev);
}

typedef struct {
    const brt_ruleset *rs;
    void *st;
    script sc;
    brt_dice dice;
    brt_events ev;
} fx;

static fx *s_new(unsigned seats, const uint32_t *dice, size_t ndice) {
    fx *f = calloc(1, sizeof *f);
    f->rs = brt_ruleset_find("duel");
    assert_non_null(f->rs);
    f->sc.values = dice;
    f->sc.n = ndice;
    f->dice.source = s_script;
    f->dice.source_ctx = &f->sc;
    f->dice.record = s_norecord;
    brt_ruleset_options o = {NULL, 0, seats};
    brt_reject err;
    f->st = f->rs->setup("standard", &o, &f->dice, &err);
    assert_non_null(f->st);
    return f;
}

static void s_free(fx *f) {
    s_events_free(&f->ev);
    f->rs->destroy(f->st);
    free(f);
}

static int s_do(fx *f, unsigned seat, const char *text, brt_reject *err) {
    brt_buf b;
    buf_init(&b);
    if (f->rs->order_parse(f->st, text, &b, err) != 0) {
        buf_free(&b);
        return -1;
    }
    s_events_free(&f->ev);
    int rc = f->rs->apply(f->st, seat, b.data, b.len, &f->dice, &f->ev, err);
    buf_free(&b);
    return rc;
}

static void test_duel_D1_seat_count_and_options(void **state) {
    (void)state;
    const brt_ruleset *rs = brt_ruleset_find("duel");
    brt_reject err;
    brt_ruleset_options four = {NULL, 0, 4};
    assert_null(rs->setup("standard", &four, NULL, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SEATS);
    assert_string_equal(err.rule, "D1");
    const char *opt[] = {"fog-of-war"};
    brt_ruleset_options bad = {opt, 1, 2};
    assert_null(rs->setup("standard", &bad, NULL, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    const char *names[8];
    assert_int_equal(rs->scenario_seats("standard", names, 8), 3);
    assert_int_equal(rs->scenario_seats("other", names, 8), -1);
}

static void test_duel_D2_bids_are_0_to_3_within_reserve(void **state) {
    (void)state;
    static const uint32_t dice[] = {2};
    fx *f = s_new(2, dice, 1);
    brt_reject err;
    brt_pending p;
    f->rs->pending(f->st, &p);
    assert_int_equal(p.seats, 3u);
    assert_true(p.sealed);
    assert_int_equal(s_do(f, 0, "bid 4", &err), -1);
    assert_string_equal(err.rule, "D2");
    assert_int_equal(s_do(f, 0, "bank", &err), -1);
    assert_int_equal(err.code, BRT_REJECT_ILLEGAL);
    assert_int_equal(s_do(f, 0, "bid 3", &err), 0);
    assert_int_equal(f->ev.count, 0); /* nothing revealed until every seat has bid */
    assert_int_equal(s_do(f, 0, "bid 3", &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    s_free(f);
}

static void test_duel_D3_highest_bidder_rolls_tie_nobody(void **state) {
    (void)state;
    static const uint32_t dice[] = {5};
    fx *f = s_new(2, dice, 1);
    brt_reject err;
    /* Tie: nobody rolls, stakes are spent, next round. */
    assert_int_equal(s_do(f, 0, "bid 2", &err), 0);
    assert_int_equal(s_do(f, 1, "bid 2", &err), 0);
    assert_int_equal(f->ev.count, 1);
    assert_int_equal(f->ev.last[0]->bids->winner, -1);
    assert_int_equal(f->sc.next, 0);
    /* Highest bid rolls a d6 for the pot. */
    assert_int_equal(s_do(f, 0, "bid 1", &err), 0);
    assert_int_equal(s_do(f, 1, "bid 0", &err), 0);
    assert_int_equal(f->ev.last[0]->bids->winner, 0);
    assert_int_equal(f->ev.last[1]->rolled->value, 5);
    assert_int_equal(f->sc.next, 1);
    brt_pending p;
    f->rs->pending(f->st, &p);
    assert_int_equal(p.seats, 1u);
    assert_string_equal(p.kind, "bank-or-press");
    /* Reserve 10 - 2 - 1 = 7 for seat 0: a bid of 3 is still fine later; 8 never. */
    s_free(f);
}

static void test_duel_D4_press_adds_or_busts_on_1(void **state) {
    (void)state;
    static const uint32_t dice[] = {4, 6, 1};
    fx *f = s_new(2, dice, 3);
    brt_reject err;
    assert_int_equal(s_do(f, 0, "bid 0", &err), 0);
    assert_int_equal(s_do(f, 1, "bid 1", &err), 0);
    assert_int_equal(s_do(f, 0, "press", &err), -1); /* only the roller decides */
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    assert_int_equal(s_do(f, 1, "press", &err), 0);
    assert_int_equal(f->ev.last[0]->rolled->pot, 10);
    assert_int_equal(s_do(f, 1, "press", &err), 0);
    assert_int_equal(f->ev.last[1]->kind_case, DUEL__V1__EVENT__KIND_BUSTED);
    assert_int_equal(f->ev.last[1]->busted->lost, 10);
    brt_result r;
    f->rs->result(f->st, &r);
    assert_int_equal(r.scores[1], 0);
    s_free(f);
}

static void test_duel_D5_twenty_points_wins(void **state) {
    (void)state;
    static const uint32_t dice[] = {6, 6, 6, 6};
    fx *f = s_new(2, dice, 4);
    brt_reject err;
    assert_int_equal(s_do(f, 0, "bid 1", &err), 0);
    assert_int_equal(s_do(f, 1, "bid 0", &err), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(s_do(f, 0, "press", &err), 0);
    assert_int_equal(s_do(f, 0, "bank", &err), 0);
    brt_result r;
    f->rs->result(f->st, &r);
    assert_true(r.ended);
    assert_int_equal(r.winners, 1u);
    assert_string_equal(r.level, "points");
    brt_pending p;
    f->rs->pending(f->st, &p);
    assert_int_equal(p.seats, 0u);
    assert_int_equal(s_do(f, 1, "bid 0", &err), -1);
    s_free(f);
}

static void test_duel_D5_draw_after_round_12(void **state) {
    (void)state;
    fx *f = s_new(2, NULL, 0);
    brt_reject err;
    for (int round = 1; round <= 12; round++) {
        assert_int_equal(s_do(f, 0, "bid 0", &err), 0);
        assert_int_equal(s_do(f, 1, "bid 0", &err), 0);
    }
    brt_result r;
    f->rs->result(f->st, &r);
    assert_true(r.ended);
    assert_int_equal(r.winners, 0u);
    assert_string_equal(r.level, "draw");
    s_free(f);
}

static void test_duel_D6_resign_gives_the_others_the_win(void **state) {
    (void)state;
    fx *f = s_new(3, NULL, 0);
    f->rs->resign(f->st, 1, &f->ev);
    brt_result r;
    f->rs->result(f->st, &r);
    assert_true(r.ended);
    assert_int_equal(r.winners, 5u);
    s_free(f);
}

static void test_duel_text_syntax_round_trips(void **state) {
    (void)state;
    const brt_ruleset *rs = brt_ruleset_find("duel");
    const char *texts[] = {"bid 0", "bid 3", "bank", "press"};
    for (size_t i = 0; i < 4; i++) {
        brt_buf b, t;
        buf_init(&b);
        buf_init(&t);
        brt_reject err;
        assert_int_equal(rs->order_parse(NULL, texts[i], &b, &err), 0);
        assert_int_equal(rs->order_format(b.data, b.len, &t), 0);
        assert_int_equal(t.len, strlen(texts[i]));
        assert_memory_equal(t.data, texts[i], t.len);
        buf_free(&b);
        buf_free(&t);
    }
    brt_buf b;
    buf_init(&b);
    brt_reject err;
    assert_int_equal(rs->order_parse(NULL, "bid 2 now", &b, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_BAD_TEXT);
    assert_int_equal(rs->order_parse(NULL, "banking", &b, &err), -1);
    buf_free(&b);
}

static void test_duel_legal_orders_are_all_accepted(void **state) {
    (void)state;
    static const uint32_t dice[] = {3, 3, 3, 3, 3, 3};
    fx *f = s_new(2, dice, 6);
    brt_buf legal;
    buf_init(&legal);
    assert_int_equal(f->rs->legal(f->st, 0, &legal), 4);
    size_t pos = 0;
    const uint8_t *item;
    size_t len;
    while (buf_next_item(&legal, &pos, &item, &len) == 1) {
        void *copy = f->rs->clone(f->st);
        brt_reject err;
        brt_events ev = {0};
        assert_int_equal(f->rs->apply(copy, 0, item, len, &f->dice, &ev, &err), 0);
        s_events_free(&ev);
        f->rs->destroy(copy);
    }
    buf_free(&legal);
    s_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duel_D1_seat_count_and_options),
        cmocka_unit_test(test_duel_D2_bids_are_0_to_3_within_reserve),
        cmocka_unit_test(test_duel_D3_highest_bidder_rolls_tie_nobody),
        cmocka_unit_test(test_duel_D4_press_adds_or_busts_on_1),
        cmocka_unit_test(test_duel_D5_twenty_points_wins),
        cmocka_unit_test(test_duel_D5_draw_after_round_12),
        cmocka_unit_test(test_duel_D6_resign_gives_the_others_the_win),
        cmocka_unit_test(test_duel_text_syntax_round_trips),
        cmocka_unit_test(test_duel_legal_orders_are_all_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
