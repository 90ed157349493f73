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
    wnlb_order o = t_play(c, WNLB_PURPOSE_MOVE);
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
    wnlb_order o = t_play(c1, WNLB_PURPOSE_MOVE);
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

/* [7.0] both seats' bids: the French seat's card, then the Allied seat's (0: no bid) */
static void s_bids(t_fx *f, int french, int allied) {
    s_bid(f, 0, french);
    s_bid(f, 1, allied);
}

/* the first card of army's hand */
static int s_first_card_of(t_fx *f, int army) {
    int ids[WNLB_MAX_CARDS];
    assert_true(t_hand(f, army, ids, WNLB_MAX_CARDS) > 0);
    return ids[0];
}

static void s_fire_none(t_fx *f) {
    while (f->s->phase == WNLB_PH_FIRE) { /* [11.1] the other side's window: declined */
        wnlb_order n = t_o(WNLB_O_FIRE);
        n.flag = 1;
        if (t_order(f, (unsigned)t_actor(f), &n) != 0) fail_msg("fire none refused: [%s] %s", f->err.rule, f->err.message);
    }
}

/* a Movement card played, done, no battle */
static void s_move_card(t_fx *f, unsigned seat, int card) {
    wnlb_order o = t_play(card, WNLB_PURPOSE_MOVE);
    if (t_order(f, seat, &o) != 0) fail_msg("card %d refused: [%s] %s", card, f->err.rule, f->err.message);
    o = t_o(WNLB_O_DONE);
    if (t_order(f, seat, &o) != 0) fail_msg("done refused: [%s] %s", f->err.rule, f->err.message);
    s_fire_none(f);
    o = t_o(WNLB_O_NO_BATTLE);
    if (t_order(f, seat, &o) != 0) fail_msg("no-battle refused: [%s] %s", f->err.rule, f->err.message);
}

static void s_end(t_fx *f, unsigned seat) {
    wnlb_order o = t_o(WNLB_O_END_ROUND);
    if (t_order(f, seat, &o) != 0) fail_msg("end refused: [%s] %s", f->err.rule, f->err.message);
}

static int s_play(t_fx *f, unsigned seat, int card) {
    wnlb_order o = t_play(card, WNLB_PURPOSE_MOVE);
    return t_order(f, seat, &o);
}

/* [6.0] "That card may then be used only for that purpose": a Rally card played for Movement gives
 * its MPs and rallies nobody; a card may not be played for Battle outside a battle */
static void test_wnlb_6_0_card_used_for_declared_purpose_only(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_round(&b, 63);
    int u = t_unit(f, WNLB_FR, WNLB_INF, 0);
    f->s->units[u].disordered = 1;
    int c = t_give(f, WNLB_FR, 4, 2, WNLB_ACT_RALLY, 0);
    wnlb_order o = t_play(c, WNLB_PURPOSE_BATTLE);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    assert_string_equal(f->err.rule, "6.0");
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    o.purpose = WNLB_PURPOSE_MOVE;
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    assert_int_equal(f->s->mp_left, 4);
    assert_int_equal(f->s->units[u].disordered, 1);
    assert_false(f->s->units[u].rallied);
    t_free(f);
}

/* both Allied hands hold cards: a 3-seat (or 2-seat) full game's Allied round, turn 1 */
static t_fx *s_allied_round(t_board *b, unsigned seats, uint64_t seed) {
    t_fx *f = t_new("full", seats, seed);
    t_own_board(f, b);
    t_give(f, WNLB_PR, 3, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_PR, 3, 1, WNLB_ACT_NONE, 0);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->phase, WNLB_PH_DECK);
    return f;
}

/* [6.0] "In any one round, the British/Prussian players may play either British/Allied cards, or
 * Prussian cards. They may not play both in the same player round." */
static void test_wnlb_6_0_allied_round_one_deck_only(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_allied_round(&b, 3, 64);
    wnlb_order d = t_o(WNLB_O_DECK);
    d.army = WNLB_BR;
    assert_int_equal(t_order(f, 1, &d), 0);
    int pr = s_first_card_of(f, WNLB_PR), br = s_first_card_of(f, WNLB_BR);
    assert_int_not_equal(s_play(f, 2, pr), 0); /* the Prussian seat: not his round */
    s_move_card(f, 1, br);
    assert_int_not_equal(s_play(f, 1, pr), 0); /* not a card of this round's deck */
    assert_string_equal(f->err.rule, "6.0");
    assert_true(wnlb_card_in_hand(f->s, WNLB_PR, pr) >= 0);
    char txt[32];
    snprintf(txt, sizeof txt, "play %d move", pr);
    assert_false(t_legal_has(f, 1, txt)); /* legal() lists no Prussian card */
    snprintf(txt, sizeof txt, "play %d move", s_first_card_of(f, WNLB_BR));
    assert_true(t_legal_has(f, 1, txt));
    t_free(f);
}

/* [6.0] "If they cannot agree on which cards to play, the British player decides which cards will
 * be played in the next player round" (R-wnlb-6.0-allied-deck): the British seat's decision */
static void test_wnlb_6_0_british_decides_allied_deck(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_allied_round(&b, 3, 65);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 2u);
    assert_false(p.sealed);
    assert_true(t_legal_has(f, 1, "deck british"));
    assert_true(t_legal_has(f, 1, "deck prussian"));
    wnlb_order d = t_o(WNLB_O_DECK);
    d.army = WNLB_PR;
    assert_int_not_equal(t_order(f, 2, &d), 0); /* the Prussian does not decide */
    assert_int_equal(t_order(f, 1, &d), 0);
    assert_int_equal(f->s->round_army, WNLB_PR);
    assert_int_equal(t_actor(f), 2); /* the Prussian plays that round */
    assert_non_null(t_ev_kind(&f->ev, "deck", 0));
    assert_int_equal(t_ev_kind(&f->ev, "deck", 0)->mask, BRT_SEATS_ALL);
    t_free(f);
}

/* [6.0] "If there is only one Allied player he may use either British/Allied cards or Prussian
 * cards in a given round. He may not mix the two." */
static void test_wnlb_6_0_single_allied_player_no_mixing(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_allied_round(&b, 2, 66);
    assert_int_equal(t_actor(f), 1);
    wnlb_order d = t_o(WNLB_O_DECK);
    d.army = WNLB_PR;
    assert_int_equal(t_order(f, 1, &d), 0);
    int pr = s_first_card_of(f, WNLB_PR), br = s_first_card_of(f, WNLB_BR);
    assert_int_not_equal(s_play(f, 1, br), 0);
    assert_string_equal(f->err.rule, "6.0");
    s_move_card(f, 1, pr);
    assert_int_not_equal(s_play(f, 1, br), 0);
    assert_true(wnlb_card_in_hand(f->s, WNLB_BR, br) >= 0);
    s_end(f, 1);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    t_free(f);
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
    s_bids(f, fc, ac);
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
    s_bids(f, fc, ac);
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
    s_bids(f, 0, ac);
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
    s_bids(f, fc, ac);
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
    s_bids(f, 0, 0);
    assert_non_null(t_ev_kind(&f->ev, "draw", 0));
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
    t_free(f);
}

/* [7.0] "If tied, repeat this process until one higher MP # card is drawn": every unused card MP 3
 * but one French card MP 5: the pairs tie until the French draws it */
static void test_wnlb_7_0_blind_draws_repeat_until_different(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 76);
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    int five = -1;
    for (size_t ci = 0; ci < sc->n_cards; ci++) {
        if (f->s->card_loc[ci] != WNLB_LOC_UNUSED) continue;
        sc->cards[ci].mp = 3;
        if (sc->cards[ci].army == WNLB_FR && five < 0) five = (int)ci;
    }
    sc->cards[five].mp = 5;
    s_bids(f, 0, 0);
    int n = 0;
    const t_ev *e;
    while ((e = t_ev_kind(&f->ev, "draw", n)) != NULL) n++;
    assert_true(n >= 4); /* these dice tie at least once */
    assert_int_equal(n % 2, 0);
    for (int k = 0; k + 2 < n; k += 2) /* every pair before the last ties */
        assert_int_equal(t_ev_kind(&f->ev, "draw", k)->e->value, t_ev_kind(&f->ev, "draw", k + 1)->e->value);
    assert_int_equal(t_ev_kind(&f->ev, "draw", n - 2)->e->value, 5);
    assert_int_equal(t_ev_kind(&f->ev, "draw", n - 1)->e->value, 3);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    int rolls = 0;
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++)
        if (strstr(f->d.purpose[r], "7.0")) {
            rolls++;
            assert_int_equal(f->d.seats[r], DICE_SEEN_BY_ALL);
        }
    assert_int_equal(rolls, n);
    /* R-wnlb-7.0-draws-put-back: the drawn cards stay in the unused portion */
    assert_int_equal(wnlb_unused_count(f->s, WNLB_FR), 11);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_BR), 7);
    t_free(f);
}

/* R-wnlb-7.0-draws-put-back: when no draw can ever differ (every unused card of both decks of one
 * MP), the French play first, as on turn 1, and no card is drawn */
static void test_wnlb_7_0_draws_never_differ_french_first(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 77);
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    for (size_t ci = 0; ci < sc->n_cards; ci++)
        if (f->s->card_loc[ci] == WNLB_LOC_UNUSED) sc->cards[ci].mp = 2;
    s_bids(f, 0, 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_equal(f->d.n, 0);
    t_free(f);
}

/* [7.0] "If a British card is played for a bid, only British cards may be used for that first player
 * round. If a Prussian card is played, only Prussian cards": no deck choice for that round; the
 * next Allied round chooses again (R-wnlb-7.0-bid-binds) */
static void test_wnlb_7_0_bid_deck_binds_first_round(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "full", 2, 78);
    t_give(f, WNLB_PR, 2, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_PR, 2, 1, WNLB_ACT_NONE, 0);
    assert_true(wnlb_hand_count(f->s, WNLB_PR) >= 3);
    int fc = s_hand_card(f, WNLB_FR, 0, 1), pc = s_hand_card(f, WNLB_PR, 0, 6);
    s_bids(f, fc, pc);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND); /* no deck choice: the bid's deck */
    assert_int_equal(f->s->round_army, WNLB_PR);
    int br = s_first_card_of(f, WNLB_BR), pr = s_first_card_of(f, WNLB_PR);
    assert_int_not_equal(s_play(f, 1, br), 0);
    assert_string_equal(f->err.rule, "6.0");
    s_move_card(f, 1, pr);
    s_end(f, 1);
    s_move_card(f, 0, s_first_card_of(f, WNLB_FR));
    s_end(f, 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECK); /* the binding was for the first round only */
    t_free(f);
}

/* R-wnlb-7.0-bid-binds: an Allied bid card that loses binds nothing */
static void test_wnlb_7_0_losing_bid_binds_nothing(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "full", 2, 79);
    int fc = s_hand_card(f, WNLB_FR, 0, 6), bc = s_hand_card(f, WNLB_BR, 0, 1);
    s_bids(f, fc, bc);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    assert_int_equal(f->s->bound_army, 0);
    s_move_card(f, 0, s_first_card_of(f, WNLB_FR));
    s_end(f, 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECK); /* both Allied hands hold cards on turn 2 */
    t_free(f);
}

/* [7.0] "In a three-player game, only one player bids for the Anglo-Prussian side ... If they cannot
 * decide who shall bid, the British player decides who bids" */
static void test_wnlb_7_0_british_names_allied_bidder(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 80);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->turn, 2);
    assert_int_equal(f->s->phase, WNLB_PH_BIDDER);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 2u);
    wnlb_order w = t_o(WNLB_O_BIDDER);
    w.army = WNLB_PR;
    assert_int_not_equal(t_order(f, 2, &w), 0); /* the Prussian does not decide */
    assert_int_equal(t_order(f, 1, &w), 0);
    t_pending(f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 5u); /* the French and the Prussian bid */
    assert_true(t_legal_has(f, 2, "bid none"));
    int pc = s_first_card_of(f, WNLB_PR), bc = s_first_card_of(f, WNLB_BR);
    wnlb_order bid = t_o(WNLB_O_BID);
    bid.card = bc;
    assert_int_not_equal(t_order(f, 1, &bid), 0); /* the British does not bid */
    assert_int_not_equal(t_order(f, 2, &bid), 0); /* nor may the Prussian bid a British card */
    s_bid(f, 2, pc);
    s_bid(f, 0, 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED); /* the lone bidder [7.0] */
    assert_int_equal(f->s->round_army, WNLB_PR);
    assert_int_equal(t_actor(f), 2);
    t_free(f);
}

/* [7.0] sealed: the first bid applied tells no other seat anything (an event to the bidder only),
 * moves no card, and the decision still waits for the other seat */
static void test_wnlb_7_0_first_bid_tells_nobody(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_bid_turn(&b, "short", 2, 81);
    int fc = s_hand_card(f, WNLB_FR, 0, 4);
    s_bid(f, 0, fc);
    for (int i = 0; i < f->ev.n; i++) assert_int_equal(f->ev.ev[i].mask, 1u);
    assert_int_equal(f->d.n, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 2u);
    assert_int_not_equal(t_do(f, 0, "bid none"), 0); /* one bid only */
    s_bid(f, 1, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 14);
    const t_ev *e = t_ev_kind(&f->ev, "bid", 0);
    assert_non_null(e);
    assert_int_equal(e->mask, BRT_SEATS_ALL);
    assert_int_equal(e->e->n_cards, 1);
    assert_int_equal((int)e->e->cards[0], fc);
    t_free(f);
}

static int s_timeout(t_fx *f, unsigned seat) {
    t_ev_clear(&f->ev);
    f->d.n = 0;
    return f->rs->timeout_default(f->s, seat, &f->d.d, &f->ev);
}

/* [7.0] [6.0] a clock running out: the British names himself the bidder (R-wnlb-7.0-bidder), a bid
 * is the empty hand (R-wnlb-7.0-bid), the Allied deck is the British/Allied (R-wnlb-6.0-allied-deck) */
static void test_wnlb_7_0_clock_defaults(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("full", 3, 82);
    t_own_board(f, &b);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->phase, WNLB_PH_BIDDER);
    assert_int_equal(s_timeout(f, 1), 0);
    assert_int_equal(f->s->phase, WNLB_PH_BID);
    assert_int_equal(f->s->bidder, WNLB_BR);
    assert_int_equal(s_timeout(f, 0), 0);
    assert_int_equal(s_timeout(f, 1), 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15); /* no card bid */
    assert_non_null(t_ev_kind(&f->ev, "draw", 0));
    if (f->s->active_side == WNLB_SIDE_FRENCH) {
        assert_int_equal(t_order(f, 0, &o), 0); /* the French pass: the Allied round */
    }
    assert_int_equal(f->s->phase, WNLB_PH_DECK); /* both Allied hands hold cards on turn 2 */
    assert_int_equal(s_timeout(f, 1), 0);
    assert_int_equal(f->s->round_army, WNLB_BR);
    assert_int_equal(t_actor(f), 1);
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
        cmocka_unit_test(test_wnlb_6_0_card_used_for_declared_purpose_only),
        cmocka_unit_test(test_wnlb_6_0_allied_round_one_deck_only),
        cmocka_unit_test(test_wnlb_6_0_british_decides_allied_deck),
        cmocka_unit_test(test_wnlb_6_0_single_allied_player_no_mixing),
        cmocka_unit_test(test_wnlb_7_0_blind_draws_repeat_until_different),
        cmocka_unit_test(test_wnlb_7_0_draws_never_differ_french_first),
        cmocka_unit_test(test_wnlb_7_0_bid_deck_binds_first_round),
        cmocka_unit_test(test_wnlb_7_0_losing_bid_binds_nothing),
        cmocka_unit_test(test_wnlb_7_0_british_names_allied_bidder),
        cmocka_unit_test(test_wnlb_7_0_first_bid_tells_nobody),
        cmocka_unit_test(test_wnlb_7_0_clock_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
