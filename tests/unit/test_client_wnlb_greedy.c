/*
 * test_client_wnlb_greedy.c - the greedy wnlb player (clients/bot/greedy_wnlb.c) against the
 * ruleset in process: it chooses only among the orders legal() lists, whatever they are (every
 * choice of whole games, Short and Full, 2 and 3 seats, is accepted; a list of orders it cannot
 * read still gives a choice in it), it reads its own seat's view (its hand, the VP squares), and
 * its scores prefer what docs/bots.md says: a Movement card to a pass [4.0] [6.0], a move toward
 * the VP square the French do not hold [8.0] [13.2], the strongest bid from a full hand and none
 * from a short one, the Allied bidder with the larger hand [7.0], battle cards enough to win and no more [9.3]; and over eight seeded
 * Short Games it beats random (a count of games won, no timing).
 */
#include "wnlb_t.h"

#include "bot.h"
#include "greedy.h"

/* the greedy choice of seat among the orders of list l, or -1 */
static int s_choose(const t_fx *f, unsigned seat, const brt_buf *l, int n, uint64_t *rng) {
    ProtobufCBinaryData *items = calloc((size_t)(n ? n : 1), sizeof *items);
    assert_non_null(items);
    size_t pos = 0;
    for (int k = 0; k < n; k++) {
        const uint8_t *item;
        size_t len;
        assert_int_equal(buf_next_item(l, &pos, &item, &len), 1);
        items[k].data = (uint8_t *)item;
        items[k].len = len;
    }
    Berthier__V1__LegalOrders lo = BERTHIER__V1__LEGAL_ORDERS__INIT;
    lo.n_orders = (size_t)n;
    lo.orders = items;
    brt_buf view;
    buf_init(&view);
    assert_int_equal(f->rs->view(f->s, (int)seat, &view), 0);
    bot_view v;
    memset(&v, 0, sizeof v);
    v.ruleset = "wnlb";
    v.scenario = f->s->sc->name;
    v.seat = seat;
    v.n_seats = f->seats;
    v.legal = &lo;
    v.view = view.data;
    v.view_len = view.len;
    bot_choice out;
    memset(&out, 0, sizeof out);
    int rc = greedy_wnlb_choose(rng, &v, &out);
    buf_free(&view);
    free(items);
    return rc == 0 ? out.index : -1;
}

/* one order of a game: seat's legal list l, a random pick or, for the greedy seat, the greedy
 * choice (always a legal one), applied; 1 when the greedy seat chose it */
static int s_step(t_fx *f, int seat, unsigned greedy, brt_buf *l, uint64_t *rng, uint64_t *brng) {
    buf_reset(l);
    int n = f->rs->legal(f->s, (unsigned)seat, l);
    assert_true(n > 0);
    int k = (int)(t_next(rng) % (uint64_t)n);
    int by_greedy = (unsigned)seat == greedy;
    if (by_greedy) {
        k = s_choose(f, (unsigned)seat, l, n, brng);
        assert_true(k >= 0 && k < n);
    }
    const uint8_t *item;
    size_t len;
    assert_int_equal(t_item(l, k, &item, &len), 0);
    if (t_apply(f, (unsigned)seat, item, len) != 0)
        fail_msg("seat %d (greedy: %d): the order refused: [%s] %s", seat, by_greedy, f->err.rule, f->err.message);
    return by_greedy;
}

/* whole games: one seat greedy (each in turn), the others random; every choice is legal */
static void s_games(const char *scenario, unsigned seats) {
    for (unsigned greedy = 0; greedy < seats; greedy++) {
        t_fx *f = t_new(scenario, seats, 900 + greedy);
        uint64_t rng = 900 + greedy, brng = 77 + greedy;
        brt_buf l;
        buf_init(&l);
        int orders = 0, chosen = 0;
        for (; orders < 20000; orders++) {
            int seat = t_actor(f);
            if (seat < 0) break;
            chosen += s_step(f, seat, greedy, &l, &rng, &brng);
        }
        assert_int_equal(t_actor(f), -1); /* the game ended */
        assert_true(chosen > 0);
        buf_free(&l);
        t_free(f);
    }
}

/* one whole game, the greedy seat against random others; the winners' seat mask. Battles are
 * fought: the number of battle-card decisions met is counted in *battles (may be NULL) */
static uint32_t s_match(const char *scenario, unsigned seats, unsigned greedy, uint64_t seed, int *battles) {
    t_fx *f = t_new(scenario, seats, seed);
    uint64_t rng = seed * 31 + 7, brng = seed + 101;
    brt_buf l;
    buf_init(&l);
    for (int orders = 0; orders < 20000; orders++) {
        int seat = t_actor(f);
        if (seat < 0) break;
        if (battles && f->s->phase == WNLB_PH_BATTLE_CARDS && (unsigned)seat == greedy) ++*battles;
        (void)s_step(f, seat, greedy, &l, &rng, &brng);
    }
    assert_int_equal(t_actor(f), -1);
    uint32_t w = f->s->winners;
    buf_free(&l);
    t_free(f);
    return w;
}

/* [13.2] the Short Game over eight seeded games, the greedy player on each side four times
 * against random: it wins more than half of them; as the French (who must take chateaux from the
 * Allies) it wins more often than random does in the French seat of the same games; and it fights
 * battles on the way, answering the sealed battle cards [9.3] (every order it gives is legal:
 * s_match applies it) */
static void test_wnlb_greedy_beats_random_short(void **st) {
    (void)st;
    int wins = 0, french_wins = 0, random_french_wins = 0, battles = 0;
    for (uint64_t g = 0; g < 8; g++) {
        unsigned greedy = (unsigned)(g % 2);
        uint32_t w = s_match("short", 2, greedy, 4100 + g, &battles);
        if (w & (1u << greedy)) {
            wins++;
            if (greedy == 0) french_wins++;
        }
        if (greedy == 0 && (s_match("short", 2, 99, 4100 + g, NULL) & 1u)) random_french_wins++;
    }
    print_message("greedy against random, Short Game: %d of 8 won, %d of 4 as the French (random as the French: %d), "
                  "%d battle-card decisions\n",
                  wins, french_wins, random_french_wins, battles);
    assert_true(wins > 4);
    assert_true(french_wins > random_french_wins);
    assert_true(battles > 0);
}

/* [9.3] defending a unit the attacker's outweighs by nothing (4 BP against 4, clear ground), with
 * cards of 1 to 5 BP in hand: the greedy defender answers with one card strong enough (3 BP or
 * more), not with no card and not with its whole hand */
static void test_wnlb_greedy_battle_cards_enough(void **st) {
    (void)st;
    t_board bd;
    t_fx *f = t_new_blank(&bd, "short", 2, 906);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "E-5", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "D-5", WNLB_S);
    t_values(f, fr, 4, 2, 0);
    t_values(f, br, 4, 2, 0);
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    int mv = t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_FR, 2, 2, WNLB_ACT_NONE, 0);
    for (int bp = 1; bp <= 5; bp++) t_give(f, WNLB_BR, 1, bp, WNLB_ACT_NONE, 0);
    assert_int_equal(t_declare(f, wnlb_card_index(f->s, mv), br, fr), 0);
    t_no_fire(f);
    assert_int_equal(f->s->phase, WNLB_PH_BATTLE_CARDS);
    brt_buf l;
    buf_init(&l);
    int n = f->rs->legal(f->s, 1, &l);
    assert_true(n > 2);
    for (uint64_t r = 1; r < 6; r++) {
        uint64_t rng = r;
        int k = s_choose(f, 1, &l, n, &rng);
        const uint8_t *item;
        size_t len;
        assert_int_equal(t_item(&l, k, &item, &len), 0);
        Wnlb__V1__Order *c = wnlb__v1__order__unpack(NULL, len, item);
        assert_non_null(c);
        assert_int_equal(c->kind_case, WNLB__V1__ORDER__KIND_BATTLE_CARDS);
        assert_int_equal(c->battle_cards->n_cards, 1);
        int cj = wnlb_card_index(f->s, (int)c->battle_cards->cards[0]);
        assert_true(cj >= 0 && f->s->sc->cards[cj].bp >= 3);
        wnlb__v1__order__free_unpacked(c, NULL);
    }
    buf_free(&l);
    t_free(f);
}

/* the greedy seat's choice at the state's decision: the chosen order, unpacked (free it) */
static Wnlb__V1__Order *s_greedy_order(t_fx *f, unsigned seat, uint64_t r) {
    brt_buf l;
    buf_init(&l);
    int n = f->rs->legal(f->s, seat, &l);
    assert_true(n > 0);
    uint64_t rng = r;
    int k = s_choose(f, seat, &l, n, &rng);
    const uint8_t *item;
    size_t len;
    assert_int_equal(t_item(&l, k, &item, &len), 0);
    Wnlb__V1__Order *o = wnlb__v1__order__unpack(NULL, len, item);
    assert_non_null(o);
    buf_free(&l);
    return o;
}

/* [7.0] the bid for the first player of game turn 2: from a full hand the greedy French bid
 * the card with the most MP (the higher MP wins); from a hand of three cards, which it needs to
 * move and fight, no bid */
static void test_wnlb_greedy_bids_sensibly(void **st) {
    (void)st;
    for (int full = 1; full >= 0; full--) {
        t_fx *f = t_new("short", 2, 907);
        t_empty_hand(f, WNLB_FR);
        static const int mp[] = {2, 6, 3, 1, 4, 2, 3, 1, 2, 3};
        int n = full ? 10 : 3, best = 0;
        for (int i = 0; i < n; i++) {
            int id = t_give(f, WNLB_FR, mp[i], 2, WNLB_ACT_NONE, 0);
            if (mp[i] == 6) best = id;
        }
        f->s->turn = 2;
        wnlb_first_start(f->s, &f->d.d, NULL);
        assert_int_equal(f->s->phase, WNLB_PH_BID);
        Wnlb__V1__Order *o = s_greedy_order(f, 0, 3);
        assert_int_equal(o->kind_case, WNLB__V1__ORDER__KIND_BID);
        if (full) assert_int_equal(o->bid, best);
        else assert_int_equal(o->bid, 0);
        wnlb__v1__order__free_unpacked(o, NULL);
        t_free(f);
    }
}

/* [7.0] 3 seats: the British seat names the Allied bidder; the greedy British name the army with
 * the larger hand (the counts are public [4.0]), the Prussians when theirs is larger */
static void test_wnlb_greedy_names_the_bidder(void **st) {
    (void)st;
    for (int prussian_more = 0; prussian_more < 2; prussian_more++) {
        t_fx *f = t_new("full", 3, 908);
        t_empty_hand(f, WNLB_BR);
        t_empty_hand(f, WNLB_PR);
        for (int i = 0; i < (prussian_more ? 2 : 6); i++) t_give(f, WNLB_BR, 3, 2, WNLB_ACT_NONE, 0);
        for (int i = 0; i < (prussian_more ? 6 : 2); i++) t_give(f, WNLB_PR, 3, 2, WNLB_ACT_NONE, 0);
        f->s->turn = 2;
        wnlb_first_start(f->s, &f->d.d, NULL);
        assert_int_equal(f->s->phase, WNLB_PH_BIDDER);
        int seat = t_actor(f);
        assert_true(t_seat_plays(f, seat, WNLB_BR));
        Wnlb__V1__Order *o = s_greedy_order(f, (unsigned)seat, 5);
        assert_int_equal(o->kind_case, WNLB__V1__ORDER__KIND_BIDDER);
        assert_int_equal(o->bidder, prussian_more ? WNLB_PR : WNLB_BR);
        wnlb__v1__order__free_unpacked(o, NULL);
        t_free(f);
    }
}

static void test_wnlb_greedy_plays_legal_short(void **st) {
    (void)st;
    s_games("short", 2);
}

static void test_wnlb_greedy_plays_legal_full(void **st) {
    (void)st;
    s_games("full", 2);
    s_games("full", 3);
}

/* orders it cannot read (not wnlb.v1.Order bytes) among readable ones: still an index of the list */
static void test_wnlb_greedy_unreadable_orders(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 903);
    brt_buf l;
    buf_init(&l);
    static const uint8_t junk[] = {0xff, 0xff, 0xff};
    buf_append_item(&l, junk, sizeof junk);
    wnlb_order o = t_o(WNLB_O_PASS);
    brt_buf b;
    buf_init(&b);
    assert_int_equal(wnlb_order_encode(f->s, &o, &b), 0);
    const uint8_t *item;
    size_t len, pos = 0;
    assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
    buf_append_item(&l, item, len);
    uint64_t rng = 5;
    assert_int_equal(s_choose(f, 0, &l, 2, &rng), 1);
    buf_free(&b);
    buf_free(&l);
    t_free(f);
}

/* [4.0] [6.0] at the start of the game the French round: a card for Movement, not a pass */
static void test_wnlb_greedy_plays_a_card_before_passing(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 904);
    assert_true(t_legal_n(f, 0) > 1);
    Wnlb__V1__Order *o = s_greedy_order(f, 0, 6);
    assert_int_equal(o->kind_case, WNLB__V1__ORDER__KIND_PLAY);
    int ci = wnlb_card_in_hand(f->s, WNLB_FR, (int)o->play->card);
    assert_true(ci >= 0); /* a card of its own hand, read from its view */
    wnlb__v1__order__free_unpacked(o, NULL);
    t_free(f);
}

/* [8.0] [13.2] of three moves of a French unit, the one that closes on the VP square it does
 * not hold (the Allies hold them all at set-up [3.1]) */
static void test_wnlb_greedy_moves_toward_a_vp_square(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 905);
    int u = t_unit(f, WNLB_FR, WNLB_INF, 0);
    /* a square two squares from a VP square of the Short Game and no nearer to any, the unit
     * facing it (reconstructed board: found, not assumed) */
    const wnlb_scenario *sc = f->s->sc;
    int start_r = -1, start_c = -1, face = -1;
    for (size_t k = 0; k < sc->n_vp && face < 0; k++) {
        if (!sc->vp[k].short_game) continue;
        for (int d = 0; d < 4 && face < 0; d++) {
            int r = sc->vp[k].row, c = sc->vp[k].col;
            wnlb_step(d, &r, &c);
            wnlb_step(d, &r, &c);
            if (!wnlb_on_board(f->s, r, c)) continue;
            int near = 99;
            for (size_t j = 0; j < sc->n_vp; j++)
                if (sc->vp[j].short_game) {
                    int dist = abs(sc->vp[j].row - r) + abs(sc->vp[j].col - c);
                    if (dist < near) near = dist;
                }
            if (near == 2) start_r = r, start_c = c, face = (d + 2) % 4;
        }
    }
    assert_true(face >= 0);
    char sq[8];
    wnlb_square_name(start_r, start_c, sq, sizeof sq);
    t_put(f, u, sq, face);
    brt_buf l;
    buf_init(&l);
    wnlb_order away = t_o(WNLB_O_MOVE), ahead = t_o(WNLB_O_MOVE), turn = t_o(WNLB_O_MOVE);
    away.unit = ahead.unit = turn.unit = u;
    away.n_steps = 2; /* face about, one square away */
    away.steps[0] = (uint8_t)((face + 2) % 4);
    away.steps[1] = WNLB_STEP_FWD;
    ahead.n_steps = 1; /* one square toward it */
    ahead.steps[0] = WNLB_STEP_FWD;
    turn.n_steps = 1; /* face to a side */
    turn.steps[0] = (uint8_t)((face + 1) % 4);
    assert_int_equal(wnlb_order_encode(f->s, &away, &l), 0);
    assert_int_equal(wnlb_order_encode(f->s, &ahead, &l), 0);
    assert_int_equal(wnlb_order_encode(f->s, &turn, &l), 0);
    for (uint64_t r = 1; r < 8; r++) {
        uint64_t rng = r;
        assert_int_equal(s_choose(f, 0, &l, 3, &rng), 1);
    }
    buf_free(&l);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_greedy_plays_legal_short),
        cmocka_unit_test(test_wnlb_greedy_plays_legal_full),
        cmocka_unit_test(test_wnlb_greedy_unreadable_orders),
        cmocka_unit_test(test_wnlb_greedy_beats_random_short),
        cmocka_unit_test(test_wnlb_greedy_battle_cards_enough),
        cmocka_unit_test(test_wnlb_greedy_bids_sensibly),
        cmocka_unit_test(test_wnlb_greedy_names_the_bidder),
        cmocka_unit_test(test_wnlb_greedy_plays_a_card_before_passing),
        cmocka_unit_test(test_wnlb_greedy_moves_toward_a_vp_square),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
