/*
 * test_wnlb_random.c - random-play conformance of the wnlb ruleset: in the Short Game
 * [13.2] and the Full Battle Game [13.3] with two and three seats [6.0], whoever must decide
 * plays one of the orders legal() lists, chosen by a fixed generator; before that every order
 * the list holds is applied to a copy of the state and must be accepted; a state applied
 * the same order twice (from two copies) encodes to the same bytes; every game ends in a
 * result; after the first seat's order of a sealed decision, pending still names the seats
 * that have not given theirs (the core applies them in seat order). BERTHIER_LONG=1 plays many
 * more games. The replay of every game's log to the same
 * state hashes is test_wnlb_replay.c (it needs the core's game driver).
 */
#include "wnlb_t.h"

#define S_MAX_ORDERS 20000

/* plays one game; returns the number of orders applied */
static int s_play(const char *scenario, unsigned seats, uint64_t seed, int check_all, int *ended) {
    t_fx *f = t_new(scenario, seats, seed);
    uint64_t rng = seed * 0x2545f4914f6cdd1dull + 7;
    brt_buf l, a, b;
    buf_init(&l);
    buf_init(&a);
    buf_init(&b);
    int orders = 0;
    while (orders < S_MAX_ORDERS) {
        int seat = t_actor(f);
        if (seat < 0) break;
        buf_reset(&l);
        int n = f->rs->legal(f->s, (unsigned)seat, &l);
        if (n <= 0) fail_msg("%s/%u seed %llu: seat %d must decide but legal() lists %d orders", scenario,
                             seats, (unsigned long long)seed, seat, n);
        const uint8_t *item;
        size_t len;
        if (check_all) {
            for (int k = 0; k < n; k++) {
                assert_int_equal(t_item(&l, k, &item, &len), 0);
                wnlb_state *keep = f->s;
                f->s = f->rs->clone(keep);
                if (t_apply(f, (unsigned)seat, item, len) != 0) {
                    brt_buf txt;
                    buf_init(&txt);
                    f->rs->order_format(item, len, &txt);
                    buf_append(&txt, "", 1);
                    fail_msg("%s/%u seed %llu order %d: legal order \"%s\" refused: [%s] %s", scenario, seats,
                             (unsigned long long)seed, orders, (const char *)txt.data, f->err.rule,
                             f->err.message);
                }
                f->rs->destroy(f->s);
                f->s = keep;
            }
        }
        int k = (int)(t_next(&rng) % (uint64_t)n);
        assert_int_equal(t_item(&l, k, &item, &len), 0);
        /* the same order on a copy and on the state: the same bytes after */
        wnlb_state *twin = f->rs->clone(f->s);
        brt_events tev;
        memset(&tev, 0, sizeof tev);
        t_dice td = f->d;
        td.d.source_ctx = &td;
        td.d.record_ctx = &td;
        td.n = 0;
        brt_reject terr;
        assert_int_equal(f->rs->apply(twin, (unsigned)seat, item, len, &td.d, &tev, &terr), 0);
        brt_pending before;
        t_pending(f, &before);
        assert_int_equal(t_apply(f, (unsigned)seat, item, len), 0);
        /* a sealed decision [7.0] [9.3]: the core collects every named seat's order, then applies
         * them in seat order, so after the first one pending still names the others, sealed */
        uint32_t rest = before.seats & ~(1u << seat);
        if (before.sealed && rest) {
            brt_pending after;
            t_pending(f, &after);
            if (after.seats != rest || !after.sealed)
                fail_msg("%s/%u seed %llu order %d: sealed \"%s\" named %08x; after seat %d's order pending names "
                         "%08x (sealed %d), not the seats still to give theirs",
                         scenario, seats, (unsigned long long)seed, orders, before.kind, before.seats, seat, after.seats,
                         after.sealed);
        }
        assert_int_equal(f->ev.bad, 0); /* every event decodes as a wnlb.v1.Event */
        t_same_state(f, twin, &a, &b);
        assert_int_equal(tev.total, f->ev.total);
        assert_int_equal(td.n, f->d.n); /* the same rolls */
        assert_true(td.d.next_index == f->d.d.next_index);
        t_ev_clear(&tev);
        f->rs->destroy(twin);
        orders++;
    }
    brt_result r;
    memset(&r, 0, sizeof r);
    f->rs->result(f->s, &r);
    *ended = r.ended;
    buf_free(&l);
    buf_free(&a);
    buf_free(&b);
    t_free(f);
    return orders;
}

static void s_games(const char *scenario, unsigned seats, int games, int check_all) {
    if (getenv("BERTHIER_LONG")) games *= 20;
    for (int g = 0; g < games; g++) {
        int ended = 0;
        int n = s_play(scenario, seats, 1000u + (uint64_t)g * 7919u, check_all && g < 2, &ended);
        if (!ended) fail_msg("%s/%u game %d: no result after %d orders [13.2] [13.3]", scenario, seats, g, n);
    }
}

/* [13.2] the Short Game, 2 seats */
static void test_wnlb_random_play_short(void **st) {
    (void)st;
    s_games("short", 2, 4, 1);
}

/* [13.3] the Full Battle Game, 2 seats (the Allied seat plays both Allied decks [6.0]) */
static void test_wnlb_random_play_full_two_seats(void **st) {
    (void)st;
    s_games("full", 2, 3, 1);
}

/* [13.3] [6.0] the Full Battle Game, 3 seats: French, British, Prussian */
static void test_wnlb_random_play_full_three_seats(void **st) {
    (void)st;
    s_games("full", 3, 3, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_random_play_short),
        cmocka_unit_test(test_wnlb_random_play_full_two_seats),
        cmocka_unit_test(test_wnlb_random_play_full_three_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
