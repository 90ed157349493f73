/*
 * test_wnlb_cases_6_7.c - rule cases of The Cards [6.0] and First Player [7.0] (Napoleon's
 * Last Battle). Card values are set on the fixture's own copy of the data (wnlb_t.h) where a
 * case needs them; docs/wnlb-cases/06.md and 07.md map every case to its test.
 */
#include "wnlb_t.h"

/* [2.4] [11.2] [11.3] [11.7] three decks of 26, 19 and 10 cards with ids unique over them;
 * no Prussian Command Benefit, Elite Bonus or Napoleon's Health; Napoleon's Health is the
 * British/Allied deck's */
static void test_wnlb_6_0_deck_sizes_and_card_fields(void **st) {
    (void)st;
    const wnlb_scenario *sc = wnlb_scenario_get("full");
    assert_non_null(sc);
    int n[WNLB_ARMIES] = {0, 0, 0};
    uint8_t seen[256] = {0};
    for (size_t ci = 0; ci < sc->n_cards; ci++) {
        const wnlb_card_def *c = &sc->cards[ci];
        assert_true(c->army < WNLB_ARMIES);
        n[c->army]++;
        assert_false(seen[c->id]);
        seen[c->id] = 1;
        assert_true(c->action < WNLB_ACT_COUNT);
        if (c->army == WNLB_PR)
            assert_true(c->action != WNLB_ACT_COMMAND && c->action != WNLB_ACT_ELITE && c->action != WNLB_ACT_HEALTH);
        if (c->action == WNLB_ACT_HEALTH) assert_int_equal(c->army, WNLB_BR);
    }
    assert_int_equal(n[WNLB_FR], 26);
    assert_int_equal(n[WNLB_BR], 19);
    assert_int_equal(n[WNLB_PR], 10);
}

/* a French round of turn 1 with a hand of the test's own cards */
static t_fx *s_round(t_board *b, uint64_t seed) {
    t_fx *f = t_new("short", 2, seed);
    t_own_board(f, b);
    t_empty_hand(f, WNLB_FR);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    return f;
}

/* [6.0] a card played goes onto the unused portion: it may not be played again that turn */
static void test_wnlb_6_0_played_card_to_unused_portion(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_round(&b, 60);
    int c = t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = c;
    o.purpose = WNLB_PURPOSE_MOVE;
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, c)], WNLB_LOC_UNUSED);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) < 0);
    wnlb_order d = t_o(WNLB_O_DONE);
    assert_int_equal(t_order(f, 0, &d), 0);
    if (f->s->phase == WNLB_PH_DECLARE) {
        d = t_o(WNLB_O_NO_BATTLE);
        assert_int_equal(t_order(f, 0, &d), 0);
    }
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* the same card again */
    t_free(f);
}

/* [6.0] "That player may not play any other card until that purpose is completed" */
static void test_wnlb_6_0_no_card_before_purpose_completed(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_round(&b, 61);
    int c1 = t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    int c2 = t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = c1;
    o.purpose = WNLB_PURPOSE_MOVE;
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    o.card = c2;
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c2) >= 0);
    t_free(f);
}

/* [6.0] [11.0] a card is played for an action only if the action is on it */
static void test_wnlb_6_0_action_needs_symbol_on_card(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_round(&b, 62);
    int c = t_give(f, WNLB_FR, 3, 1, WNLB_ACT_NONE, 0);
    /* the wire form (wnlb.v1.Order): play the card for the Rally action [11.6] */
    Wnlb__V1__Order o = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play play = WNLB__V1__PLAY__INIT;
    play.card = (uint32_t)c;
    play.purpose = WNLB_PURPOSE_ACTION;
    play.action = WNLB_ACT_RALLY;
    o.kind_case = WNLB__V1__ORDER__KIND_PLAY;
    o.play = &play;
    size_t len;
    uint8_t *bytes = canon_pack(&o.base, &len);
    assert_non_null(bytes);
    assert_int_not_equal(t_apply(f, 0, bytes, len), 0);
    free(bytes);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    t_free(f);
}

/* turn 1 ended by two passes [4.0]: the bid of turn 2 [7.0] */
static t_fx *s_bid_turn(t_board *b, const char *sc, unsigned seats, uint64_t seed) {
    t_fx *f = t_new(sc, seats, seed);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(t_order(f, (unsigned)t_actor(f), &o), 0);
    assert_int_equal(f->s->turn, 2);
    if (f->s->phase == WNLB_PH_BIDDER) {
        wnlb_order w = t_o(WNLB_O_BIDDER);
        w.army = WNLB_BR;
        assert_int_equal(t_order(f, 1, &w), 0);
    }
    assert_int_equal(f->s->phase, WNLB_PH_BID);
    t_own_board(f, b);
    return f;
}

/* a card of army's hand given the MP value mp on the fixture's data; its id */
static int s_hand_card(t_fx *f, int army, int nth, int mp) {
    int ids[WNLB_MAX_CARDS];
    int n = t_hand(f, army, ids, WNLB_MAX_CARDS);
    assert_true(n > nth);
    ((wnlb_scenario *)f->s->sc)->cards[wnlb_card_index(f->s, ids[nth])].mp = (uint8_t)mp;
    return ids[nth];
}

static void s_bid(t_fx *f, unsigned seat, int card) {
    wnlb_order o = t_o(WNLB_O_BID);
    o.card = card;
    if (t_order(f, seat, &o) != 0) fail_msg("bid %d refused: [%s] %s", card, f->err.rule, f->err.message);
}

/* [7.0] the bid: both sides choose in secret, a sealed decision of both seats */
static void test_wnlb_7_0_bid_is_sealed_and_simultaneous(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 70);
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 3u);
    t_free(f);
}

/* [7.0] the higher MP wins: its owner plays the first round; the bid card is used (unused
 * portion) but not part of the 5-card maximum */
static void test_wnlb_7_0_higher_mp_bid_wins(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 71);
    int fc = s_hand_card(f, WNLB_FR, 0, 3), ac = s_hand_card(f, WNLB_BR, 0, 5);
    s_bid(f, 0, fc);
    s_bid(f, 1, ac);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, fc)], WNLB_LOC_UNUSED);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, ac)], WNLB_LOC_UNUSED);
    t_free(f);
}

static void test_wnlb_7_0_bid_card_used_outside_round_limit(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 72);
    int fc = s_hand_card(f, WNLB_FR, 0, 6), ac = s_hand_card(f, WNLB_BR, 0, 1);
    s_bid(f, 0, fc);
    s_bid(f, 1, ac);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    assert_int_equal(f->s->round_cards, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 14);
    t_free(f);
}

/* [7.0] "If one player did not bid ..., the other player automatically is the first player" */
static void test_wnlb_7_0_lone_bidder_first(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 73);
    int ac = s_hand_card(f, WNLB_BR, 0, 1);
    s_bid(f, 0, 0);
    s_bid(f, 1, ac);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(t_ev_kind(&f->ev, "draw", 0), NULL); /* no blind draws */
    t_free(f);
}

/* [7.0] a tie: each side draws blindly from its unused portion, the higher MP first; the
 * draws are rolls of the dice and a public event each */
static void test_wnlb_7_0_tie_blind_draws_decide(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 74);
    int fc = s_hand_card(f, WNLB_FR, 0, 4), ac = s_hand_card(f, WNLB_BR, 0, 4);
    s_bid(f, 0, fc);
    s_bid(f, 1, ac);
    const t_ev *d = t_ev_kind(&f->ev, "draw", 0);
    assert_non_null(d);
    assert_int_equal(d->mask, BRT_SEATS_ALL);
    assert_true(f->d.n >= 2);
    assert_int_equal(f->s->phase == WNLB_PH_ROUND || f->s->phase == WNLB_PH_DECK, 1);
    t_free(f);
}

/* [7.0] no bids at all: blind draws as well */
static void test_wnlb_7_0_no_bids_blind_draws(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 75);
    s_bid(f, 0, 0);
    s_bid(f, 1, 0);
    assert_non_null(t_ev_kind(&f->ev, "draw", 0));
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_6_0_deck_sizes_and_card_fields),
        cmocka_unit_test(test_wnlb_6_0_played_card_to_unused_portion),
        cmocka_unit_test(test_wnlb_6_0_no_card_before_purpose_completed),
        cmocka_unit_test(test_wnlb_6_0_action_needs_symbol_on_card),
        cmocka_unit_test(test_wnlb_7_0_bid_is_sealed_and_simultaneous),
        cmocka_unit_test(test_wnlb_7_0_higher_mp_bid_wins),
        cmocka_unit_test(test_wnlb_7_0_bid_card_used_outside_round_limit),
        cmocka_unit_test(test_wnlb_7_0_lone_bidder_first),
        cmocka_unit_test(test_wnlb_7_0_tie_blind_draws_decide),
        cmocka_unit_test(test_wnlb_7_0_no_bids_blind_draws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
