/*
 * test_wem_greedy.c - the greedy wem player (clients/bot/greedy_wem.c) against the ruleset in
 * process: it chooses only among the orders legal() lists (every choice of whole games of
 * every scenario, greedy against random, is accepted and the games end), and its scores prefer
 * what docs/bots.md says, on lists of orders built by hand over the test board's view: a gun
 * fires rather than passes, at the more valuable target [2. Bombardment]; Recovery before Keep
 * in Movement before Put in Movement [3.2 Issue Orders]; a Charge before an Advance, an Advance
 * toward the enemy for blue, Fall Back last [3.3 Maneuver]; a bid of about a third of the
 * markers [1. Initiative]; 2 markers to a General rather than 1 [3.1 Assign].
 */
#include "wem_whole_t.h"

#include "bot.h"
#include "greedy.h"

/* the greedy choice of seat among n orders (bytes), from the state's view for that seat */
static int s_choose_among(const void *s, unsigned seat, unsigned seats, ProtobufCBinaryData *items, size_t n,
                          uint64_t *rng) {
    const brt_ruleset *rs = brt_ruleset_find("wem");
    Berthier__V1__LegalOrders lo = BERTHIER__V1__LEGAL_ORDERS__INIT;
    lo.n_orders = n;
    lo.orders = items;
    brt_buf view;
    buf_init(&view);
    assert_int_equal(rs->view(s, (int)seat, &view), 0);
    bot_view v;
    memset(&v, 0, sizeof v);
    v.ruleset = "wem";
    v.seat = seat;
    v.n_seats = seats;
    v.legal = &lo;
    v.view = view.data;
    v.view_len = view.len;
    bot_choice out;
    memset(&out, 0, sizeof out);
    int rc = greedy_wem_choose(rng, &v, &out);
    buf_free(&view);
    return rc == 0 ? out.index : -1;
}

/* ---- whole games ---- */

static void s_game(const char *scenario, unsigned seats, unsigned greedy, uint64_t seed) {
    const brt_ruleset *rs = brt_ruleset_find("wem");
    w_dice d;
    w_dice_init(&d, seed);
    brt_ruleset_options opt = {NULL, 0, seats};
    brt_reject err;
    void *s = rs->setup(scenario, &opt, &d.d, &err);
    assert_non_null(s);
    uint64_t rng = seed, brng = seed ^ 0xb07;
    brt_buf l;
    buf_init(&l);
    int orders = 0;
    for (; orders < 40000; orders++) {
        int seat = w_actor(rs, s, seats);
        if (seat < 0) break;
        buf_reset(&l);
        int n = rs->legal(s, (unsigned)seat, &l);
        if (n <= 0) {
            brt_pending p;
            rs->pending(s, &p);
            fail_msg("%s/%u seed %llu order %d: seat %d must decide \"%s\" [%s] but legal() lists %d orders", scenario,
                     seats, (unsigned long long)seed, orders, seat, p.kind, p.rule, n);
        }
        int k = (int)(w_next(&rng) % (uint64_t)n);
        if ((unsigned)seat == greedy) {
            ProtobufCBinaryData *items = calloc((size_t)n, sizeof *items);
            assert_non_null(items);
            size_t pos = 0;
            for (int i = 0; i < n; i++) {
                const uint8_t *it;
                size_t len;
                assert_int_equal(buf_next_item(&l, &pos, &it, &len), 1);
                items[i].data = (uint8_t *)it;
                items[i].len = len;
            }
            k = s_choose_among(s, (unsigned)seat, seats, items, (size_t)n, &brng);
            free(items);
            assert_true(k >= 0 && k < n);
        }
        const uint8_t *item;
        size_t len;
        assert_int_equal(w_item(&l, k, &item, &len), 0);
        brt_events ev;
        memset(&ev, 0, sizeof ev);
        if (rs->apply(s, (unsigned)seat, item, len, &d.d, &ev, &err) != 0)
            fail_msg("%s/%u: the greedy seat %u's choice was refused: [%s] %s", scenario, seats, greedy, err.rule,
                     err.message);
    }
    brt_result r;
    rs->result(s, &r);
    assert_true(r.ended);
    buf_free(&l);
    rs->destroy(s);
}

/* every choice of whole games is one of the listed orders and is accepted; every seat greedy once */
static void test_wem_greedy_whole_games_legal(void **st) {
    (void)st;
    for (unsigned g = 0; g < 2; g++) s_game("short", 2, g, 100 + g);
    for (unsigned g = 0; g < 3; g++) s_game("full", 3, g, 220 + g);
    s_game("full", 2, 1, 300);
}

/* ---- preferences, on lists built by hand ---- */

typedef struct s_list {
    ProtobufCBinaryData items[8];
    size_t n;
} s_list;

static void s_add(s_list *l, const Wem__V1__Order *o) {
    size_t n = wem__v1__order__get_packed_size(o);
    uint8_t *b = malloc(n ? n : 1);
    assert_non_null(b);
    wem__v1__order__pack(o, b);
    l->items[l->n].data = b;
    l->items[l->n].len = n;
    l->n++;
}

static void s_list_free(s_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->items[i].data);
    l->n = 0;
}

static void s_done(s_list *l) {
    Wem__V1__Order o = WEM__V1__ORDER__INIT;
    o.kind_case = WEM__V1__ORDER__KIND_DONE;
    o.done = 1;
    s_add(l, &o);
}

static wem_state *s_board_state(w_board *b) {
    w_board_init(b);
    return wem_state_new(&b->sc, 3, 0);
}

/* the index greedy picks, over several generator seeds: it must always be `want` */
static void s_always(const wem_state *s, unsigned seat, s_list *l, int want) {
    for (uint64_t r = 1; r <= 8; r++) {
        uint64_t rng = r;
        assert_int_equal(s_choose_among(s, seat, 3, l->items, l->n, &rng), want);
    }
}

/* [2. Bombardment] fire rather than pass; the target worth more, nearer elimination, first */
static void test_wem_greedy_bombard_valuable_target(void **st) {
    (void)st;
    static w_board b;
    wem_state *s = s_board_state(&b);
    s->units[wem_unit_find(s, "R3")].losses = 2; /* R3: 1 Loss from elimination */
    s_list l = {0};
    s_done(&l);
    const char *targets[2] = {"R1", "R3"};
    for (int i = 0; i < 2; i++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Bombard bo = WEM__V1__BOMBARD__INIT;
        bo.gun = (char *)"B3";
        bo.target = (char *)targets[i];
        o.kind_case = WEM__V1__ORDER__KIND_BOMBARD;
        o.bombard = &bo;
        s_add(&l, &o);
    }
    s_always(s, 0, &l, 2);
    s_list_free(&l);
    wem_state_destroy(&s);
}

/* [3.2 Issue Orders] Recover, then Keep in Movement, then Put in Movement */
static void test_wem_greedy_orders_recover_first(void **st) {
    (void)st;
    static w_board b;
    wem_state *s = s_board_state(&b);
    s_list l = {0};
    s_done(&l);
    const uint32_t kinds[3] = {1, 2, 3};
    char *units[1] = {(char *)"B1"};
    for (int i = 0; i < 3; i++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Command c = WEM__V1__COMMAND__INIT;
        c.kind = kinds[i];
        c.general = (char *)"B-II";
        c.n_units = 1;
        c.units = units;
        o.kind_case = WEM__V1__ORDER__KIND_COMMAND;
        o.command = &c;
        s_add(&l, &o);
    }
    s_always(s, 0, &l, 3); /* recover */
    s_list_free(&l);
    s_done(&l);
    for (int i = 0; i < 2; i++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Command c = WEM__V1__COMMAND__INIT;
        c.kind = kinds[i];
        c.general = (char *)"B-II";
        c.n_units = 1;
        c.units = units;
        o.kind_case = WEM__V1__ORDER__KIND_COMMAND;
        o.command = &c;
        s_add(&l, &o);
    }
    s_always(s, 0, &l, 2); /* keep in movement */
    s_list_free(&l);
    wem_state_destroy(&s);
}

/* [3.3 Maneuver] a Charge first; blue Advances toward the enemy rather than away; Fall Back last */
static void test_wem_greedy_maneuver_charge_then_advance(void **st) {
    (void)st;
    static w_board b;
    wem_state *s = s_board_state(&b);
    char *units[1] = {(char *)"B1"};
    /* B1 faces north, R1 is north of it: an Advance ahead closes, one turned half round opens */
    const uint32_t kind[4] = {2, 1, 1, 3};
    const int32_t turn[4] = {0, 1800, 0, 0};
    s_list l = {0};
    for (int i = 0; i < 4; i++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Maneuver m = WEM__V1__MANEUVER__INIT;
        m.kind = kind[i];
        m.n_units = 1;
        m.units = units;
        m.guide = (char *)"B1";
        m.turn = turn[i];
        m.distance = 4 * 600;
        m.target = (char *)(kind[i] == 3 ? "R1" : "");
        o.kind_case = WEM__V1__ORDER__KIND_MANEUVER;
        o.maneuver = &m;
        s_add(&l, &o);
    }
    s_always(s, 0, &l, 3); /* the charge */
    free(l.items[3].data);
    l.n = 3;
    s_always(s, 0, &l, 2); /* the advance ahead */
    s_list_free(&l);
    wem_state_destroy(&s);
}

/* [1. Initiative] about a third of the markers, at least 1; [3.1 Assign] 2 markers rather than 1 */
static void test_wem_greedy_bid_and_assign(void **st) {
    (void)st;
    static w_board b;
    wem_state *s = s_board_state(&b);
    s->markers[WEM_BLUE] = 7;
    s_list l = {0};
    for (uint32_t k = 1; k <= 5; k++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Bid bid = WEM__V1__BID__INIT;
        uint32_t m = k;
        bid.n_markers = 1;
        bid.markers = &m;
        o.kind_case = WEM__V1__ORDER__KIND_BID;
        o.bid = &bid;
        s_add(&l, &o);
    }
    s_always(s, 0, &l, 1); /* 2 of 7 */
    s_list_free(&l);
    for (uint32_t k = 1; k <= 2; k++) {
        Wem__V1__Order o = WEM__V1__ORDER__INIT;
        Wem__V1__Assign a = WEM__V1__ASSIGN__INIT;
        a.general = (char *)"B-II";
        a.markers = k;
        o.kind_case = WEM__V1__ORDER__KIND_ASSIGN;
        o.assign = &a;
        s_add(&l, &o);
    }
    s_done(&l);
    s_always(s, 0, &l, 1);
    s_list_free(&l);
    wem_state_destroy(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_greedy_bombard_valuable_target),
        cmocka_unit_test(test_wem_greedy_orders_recover_first),
        cmocka_unit_test(test_wem_greedy_maneuver_charge_then_advance),
        cmocka_unit_test(test_wem_greedy_bid_and_assign),
        cmocka_unit_test(test_wem_greedy_whole_games_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
