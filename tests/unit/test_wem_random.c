/*
 * test_wem_random.c - random-play conformance of the wem ruleset in process: every scenario with
 * two seats and, where it has a black player, three [Introduction] (the short scenario, where
 * the Prussians never arrive, with two [Short Alternative Scenario]); whoever must decide plays
 * one of the orders legal() lists, chosen by a fixed generator. Before that, in the first games,
 * every order the list holds is applied to a copy of the state and must be accepted; the chosen
 * order applied to a twin gives the same bytes and the same rolls; every event decodes; after
 * the first seat's order of a sealed decision [1. Initiative] pending still names the seats that
 * have not given theirs; every game ends in a result [End of the Game]; and the same inputs
 * played again from the set-up with the same dice give the same state hash. BERTHIER_LONG=1
 * plays many more games. The replay through the core's log is test_wem_replay.c.
 */
#include <sodium.h>

#include "wem_whole_t.h"

#define S_MAX_ORDERS 40000

typedef struct s_input {
    unsigned seat;
    uint8_t *order;
    size_t len;
} s_input;

typedef struct s_game {
    s_input *in;
    size_t n, cap;
    uint8_t hash[32];
    int ended;
} s_game;

static void s_hash(const brt_ruleset *rs, const void *s, uint8_t out[32]) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(rs->encode(s, &b), 0);
    crypto_generichash(out, 32, b.data, b.len, NULL, 0);
    buf_free(&b);
}

static void s_keep(s_game *g, unsigned seat, const uint8_t *o, size_t len) {
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->in = realloc(g->in, g->cap * sizeof *g->in);
        assert_non_null(g->in);
    }
    g->in[g->n].seat = seat;
    g->in[g->n].order = malloc(len ? len : 1);
    assert_non_null(g->in[g->n].order);
    memcpy(g->in[g->n].order, o, len);
    g->in[g->n].len = len;
    g->n++;
}

static void s_game_free(s_game *g) {
    for (size_t i = 0; i < g->n; i++) free(g->in[i].order);
    free(g->in);
}

static void *s_setup(const brt_ruleset *rs, const char *scenario, unsigned seats, w_dice *d, uint64_t seed) {
    w_dice_init(d, seed);
    brt_ruleset_options o = {NULL, 0, seats};
    brt_reject err;
    void *s = rs->setup(scenario, &o, &d->d, &err);
    if (!s) fail_msg("setup %s/%u: [%s] %s", scenario, seats, err.rule, err.message);
    return s;
}

static void s_fail_order(const brt_ruleset *rs, const char *what, const char *scenario, unsigned seats, uint64_t seed,
                         size_t k, const uint8_t *o, size_t len, const brt_reject *err) {
    brt_buf t;
    buf_init(&t);
    if (rs->order_format(o, len, &t) != 0) buf_reset(&t);
    buf_append(&t, "", 1);
    fail_msg("%s/%u seed %llu order %zu: %s \"%s\": [%s] %s", scenario, seats, (unsigned long long)seed, k, what,
             (const char *)t.data, err->rule, err->message);
}

/* plays one game, keeping its inputs */
static void s_play(const char *scenario, unsigned seats, uint64_t seed, int check_all, s_game *g) {
    const brt_ruleset *rs = brt_ruleset_find("wem");
    assert_non_null(rs);
    w_dice d;
    void *s = s_setup(rs, scenario, seats, &d, seed);
    uint64_t rng = seed * 0x2545f4914f6cdd1dull + 11;
    brt_buf l, a, b;
    buf_init(&l);
    buf_init(&a);
    buf_init(&b);
    brt_events ev;
    while (g->n < S_MAX_ORDERS) {
        int seat = w_actor(rs, s, seats);
        if (seat < 0) break;
        buf_reset(&l);
        int n = rs->legal(s, (unsigned)seat, &l);
        if (n <= 0) {
            brt_pending p;
            rs->pending(s, &p);
            fail_msg("%s/%u seed %llu order %zu: seat %d must decide \"%s\" [%s] but legal() lists %d orders", scenario,
                     seats, (unsigned long long)seed, g->n, seat, p.kind, p.rule, n);
        }
        const uint8_t *item;
        size_t len;
        brt_reject err;
        if (check_all) {
            for (int k = 0; k < n; k++) {
                assert_int_equal(w_item(&l, k, &item, &len), 0);
                void *copy = rs->clone(s);
                w_dice dc = d;
                dc.d.source_ctx = &dc;
                dc.d.record_ctx = &dc;
                memset(&ev, 0, sizeof ev);
                memset(&err, 0, sizeof err);
                if (rs->apply(copy, (unsigned)seat, item, len, &dc.d, &ev, &err) != 0)
                    s_fail_order(rs, "legal order refused", scenario, seats, seed, g->n, item, len, &err);
                assert_int_equal(ev.bad, 0);
                rs->destroy(copy);
            }
        }
        int k = (int)(w_next(&rng) % (uint64_t)n);
        assert_int_equal(w_item(&l, k, &item, &len), 0);
        /* the same order on a twin: the same bytes and the same rolls */
        void *twin = rs->clone(s);
        w_dice td = d;
        td.d.source_ctx = &td;
        td.d.record_ctx = &td;
        td.n = 0;
        d.n = 0;
        brt_events tev;
        memset(&tev, 0, sizeof tev);
        memset(&ev, 0, sizeof ev);
        assert_int_equal(rs->apply(twin, (unsigned)seat, item, len, &td.d, &tev, &err), 0);
        brt_pending before;
        rs->pending(s, &before);
        memset(&err, 0, sizeof err);
        if (rs->apply(s, (unsigned)seat, item, len, &d.d, &ev, &err) != 0)
            s_fail_order(rs, "chosen legal order refused", scenario, seats, seed, g->n, item, len, &err);
        s_keep(g, (unsigned)seat, item, len);
        /* [1. Initiative] a sealed decision: the core collects every named seat's order, then
         * applies them in seat order, so after the first pending still names the others */
        uint32_t rest = before.seats & ~(1u << seat);
        if (before.sealed && rest) {
            brt_pending after;
            rs->pending(s, &after);
            if (after.seats != rest || !after.sealed)
                fail_msg("%s/%u seed %llu order %zu: sealed \"%s\" named %08x; after seat %d's order pending names "
                         "%08x (sealed %d)",
                         scenario, seats, (unsigned long long)seed, g->n, before.kind, before.seats, seat, after.seats,
                         after.sealed);
        }
        assert_int_equal(ev.bad, 0);
        assert_int_equal(ev.total, tev.total);
        assert_int_equal(td.n, d.n);
        assert_true(td.d.next_index == d.d.next_index);
        buf_reset(&a);
        buf_reset(&b);
        assert_int_equal(rs->encode(s, &a), 0);
        assert_int_equal(rs->encode(twin, &b), 0);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
        rs->destroy(twin);
    }
    brt_result r;
    memset(&r, 0, sizeof r);
    rs->result(s, &r);
    g->ended = r.ended;
    s_hash(rs, s, g->hash);
    buf_free(&l);
    buf_free(&a);
    buf_free(&b);
    rs->destroy(s);
}

/* the same inputs again, from the set-up with the same dice: the same final state */
static void s_replay(const char *scenario, unsigned seats, uint64_t seed, const s_game *g) {
    const brt_ruleset *rs = brt_ruleset_find("wem");
    w_dice d;
    void *s = s_setup(rs, scenario, seats, &d, seed);
    brt_events ev;
    for (size_t i = 0; i < g->n; i++) {
        brt_reject err;
        memset(&ev, 0, sizeof ev);
        if (rs->apply(s, g->in[i].seat, g->in[i].order, g->in[i].len, &d.d, &ev, &err) != 0)
            s_fail_order(rs, "replayed order refused", scenario, seats, seed, i, g->in[i].order, g->in[i].len, &err);
    }
    uint8_t h[32];
    s_hash(rs, s, h);
    assert_memory_equal(h, g->hash, 32);
    rs->destroy(s);
}

static void s_games(const char *scenario, unsigned seats, int games) {
    if (getenv("BERTHIER_LONG")) games *= 20;
    for (int i = 0; i < games; i++) {
        uint64_t seed = 4000u + (uint64_t)i * 7919u + seats;
        s_game g;
        memset(&g, 0, sizeof g);
        s_play(scenario, seats, seed, i < 2, &g);
        if (!g.ended)
            fail_msg("%s/%u game %d: no result after %zu orders [End of the Game]", scenario, seats, i, g.n);
        s_replay(scenario, seats, seed, &g);
        s_game_free(&g);
    }
}

/* [Short Alternative Scenario] turns I to VII, the Prussians never arrive: two seats */
static void test_wem_random_play_short(void **st) {
    (void)st;
    const brt_ruleset *rs = brt_ruleset_find("wem");
    assert_int_equal(rs->scenario_seats("short", NULL, 0), 2);
    s_games("short", 2, 4);
}

/* [End of the Last Turn of the Game] the complete historical scenario, two seats (red also plays
 * black from turn VIII [Introduction]) */
static void test_wem_random_play_full_two_seats(void **st) {
    (void)st;
    s_games("full", 2, 2);
}

/* [Introduction] three seats, one army each */
static void test_wem_random_play_full_three_seats(void **st) {
    (void)st;
    s_games("full", 3, 2);
}

/* [Medium Alternative Scenario] turns I to XIV, two seats and three */
static void test_wem_random_play_medium(void **st) {
    (void)st;
    s_games("medium", 2, 1);
    s_games("medium", 3, 1);
}

/* every scenario the ruleset lists is one of the above */
static void test_wem_random_every_scenario_covered(void **st) {
    (void)st;
    const brt_ruleset *rs = brt_ruleset_find("wem");
    int n = 0;
    for (size_t i = 0; rs->scenario_name(i, NULL); i++) {
        const char *name = rs->scenario_name(i, NULL);
        assert_true(strcmp(name, "short") == 0 || strcmp(name, "full") == 0 || strcmp(name, "medium") == 0);
        n++;
    }
    assert_int_equal(n, 3);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_random_every_scenario_covered),
        cmocka_unit_test(test_wem_random_play_short),
        cmocka_unit_test(test_wem_random_play_full_two_seats),
        cmocka_unit_test(test_wem_random_play_full_three_seats),
        cmocka_unit_test(test_wem_random_play_medium),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
