/*
 * test_wnlb_cases_3_5.c - rule cases of Starting Play [3.0]-[3.2], Course of Play [4.0] and
 * Reinforcements [5.0] (Napoleon's Last Battle). The set-up cases check what the rule text
 * says of the set-up (facings, full strength, VP markers), not the reconstructed squares;
 * docs/wnlb-cases/03.md, 04.md and 05.md map every case to its test.
 */
#include "wnlb_t.h"

static int s_on_board(const t_fx *f, int u) { return f->s->units[u].row >= 0 && !f->s->units[u].eliminated; }

/* [3.1] every French and British unit on its own square; Prussians set aside [5.0] */
static void test_wnlb_3_1_setup_squares_one_unit_each(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 31);
    int fr = 0, br = 0;
    for (size_t u = 0; u < f->s->sc->n_units; u++) {
        int army = f->s->sc->units[u].army;
        if (army == WNLB_PR) continue;
        assert_true(s_on_board(f, (int)u));
        fr += army == WNLB_FR;
        br += army == WNLB_BR;
        for (size_t v = u + 1; v < f->s->sc->n_units; v++)
            if (s_on_board(f, (int)v))
                assert_false(f->s->units[u].row == f->s->units[v].row && f->s->units[u].col == f->s->units[v].col);
    }
    assert_int_equal(fr, 19); /* the 19 French pieces [3.1] lists */
    assert_int_equal(br, 17); /* the 17 British/Allied pieces */
    t_free(f);
}

/* [3.1] British units face south, French north ("unless indicated differently") */
static void test_wnlb_3_1_setup_default_facings(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 31);
    int br_south = 0, br_other = 0;
    for (size_t u = 0; u < f->s->sc->n_units; u++) {
        int army = f->s->sc->units[u].army;
        if (army == WNLB_FR) assert_int_equal(f->s->units[u].facing, WNLB_N);
        if (army == WNLB_BR && f->s->units[u].facing == WNLB_S) br_south++;
        else if (army == WNLB_BR) br_other++;
    }
    assert_int_equal(br_south, 15);
    assert_int_equal(br_other, 2);
    t_free(f);
}

/* [3.1] the two exceptions, 1/I Corps and (1) 5/Reserve, face east */
static void test_wnlb_3_1_setup_east_facing_exceptions(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 31);
    int east = 0;
    for (size_t u = 0; u < f->s->sc->n_units; u++)
        if (f->s->sc->units[u].army == WNLB_BR && f->s->units[u].facing == WNLB_E) {
            east++;
            const char *name = f->s->sc->units[u].name;
            assert_true(strstr(name, "1/I") == name || strstr(name, "5/Reserve") != NULL);
        }
    assert_int_equal(east, 2);
    t_free(f);
}

/* [3.1] "Napoleon; Chasseurs/Garde", "Wellington; Life Guards": each commander starts in
 * the square of a unit of his army */
static void test_wnlb_3_1_commanders_start_with_their_units(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 31);
    for (int c = 0; c < 2; c++) {
        int u = wnlb_unit_at(f->s, f->s->cmd_row[c], f->s->cmd_col[c]);
        assert_true(u >= 0);
        assert_int_equal(f->s->sc->units[u].army, c == 0 ? WNLB_FR : WNLB_BR);
    }
    t_free(f);
}

/* [3.1] every unit starts on its full side, without Disorder, Moved or Rally markers */
static void test_wnlb_3_1_setup_full_strength_no_markers(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 31);
    for (size_t u = 0; u < f->s->sc->n_units; u++) {
        const wnlb_unit *x = &f->s->units[u];
        assert_false(x->reduced || x->disordered || x->moved || x->rallied || x->eliminated);
    }
    t_free(f);
}

static int s_vp_count(const t_fx *f, int full, int owner) {
    int n = 0;
    for (size_t i = 0; i < f->s->sc->n_vp; i++)
        if (full ? f->s->sc->vp[i].full_game : f->s->sc->vp[i].short_game) n += f->s->vp_owner[i] == owner;
    return n;
}

/* [3.1] [13.2] the short game's four VP markers, all British side up */
static void test_wnlb_3_1_short_vp_markers_british(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 31);
    assert_int_equal(s_vp_count(f, 0, WNLB_SIDE_ALLIED), 4);
    assert_int_equal(s_vp_count(f, 0, WNLB_SIDE_FRENCH), 0);
    t_free(f);
}

/* [3.1] [13.3] the full game's six: Hougoumont, La Haye Sainte, Mt St Jean, three Plancenoit */
static void test_wnlb_3_1_full_vp_markers_british(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 31);
    assert_int_equal(s_vp_count(f, 1, WNLB_SIDE_ALLIED), 6);
    assert_int_equal(s_vp_count(f, 1, WNLB_SIDE_FRENCH), 0);
    t_free(f);
}

/* [3.1] [5.0] the Prussian units are set aside: none on the board at the start */
static void test_wnlb_3_1_prussians_set_aside(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 31);
    int n = 0;
    for (size_t u = 0; u < f->s->sc->n_units; u++)
        if (f->s->sc->units[u].army == WNLB_PR) {
            n++;
            assert_false(s_on_board(f, (int)u));
            assert_true(f->s->sc->units[u].entry_turn >= 2);
        }
    assert_true(n > 0);
    t_free(f);
}

/* [3.2] the French deal 15 of their 26 cards, the British 12 of 19; the rest is the unused
 * portion [2.4] */
static void test_wnlb_3_2_first_deal_sizes(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 32);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_FR), 11);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_BR), 7);
    t_free(f);
}

/* [3.2] no Prussian cards for game turn 1 */
static void test_wnlb_3_2_no_prussian_cards_turn_1(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 32);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_PR), 0);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_PR), 10);
    t_free(f);
}

/* [3.2] each deck is shuffled: the deal is decided by the dice (its rolls seen by nobody);
 * the same dice deal the same hands */
static void test_wnlb_3_2_deal_is_seeded_shuffle(void **st) {
    (void)st;
    int a[WNLB_MAX_CARDS], b[WNLB_MAX_CARDS], c[WNLB_MAX_CARDS];
    t_fx *f = t_new("short", 2, 1);
    assert_true(f->d.n > 0);
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++) assert_int_equal(f->d.seats[r], DICE_SEEN_BY_NONE);
    int na = t_hand(f, WNLB_FR, a, WNLB_MAX_CARDS);
    t_free(f);
    f = t_new("short", 2, 1);
    int nb = t_hand(f, WNLB_FR, b, WNLB_MAX_CARDS);
    t_free(f);
    f = t_new("short", 2, 2);
    int nc = t_hand(f, WNLB_FR, c, WNLB_MAX_CARDS);
    t_free(f);
    assert_int_equal(na, 15);
    assert_int_equal(nb, 15);
    assert_int_equal(nc, 15);
    assert_memory_equal(a, b, sizeof(int) * 15);
    /* seeds 1 and 2 deal different French hands (a fixed pair: no chance involved) */
    assert_memory_not_equal(a, c, sizeof(int) * 15);
}

/* [3.2] [7.0] play begins with the French player's round; no bid on turn 1 */
static void test_wnlb_3_2_french_plays_first_turn_1(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 32);
    assert_int_equal(f->s->turn, 1);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u);
    assert_false(p.sealed);
    t_free(f);
}

/* a Movement card played and finished, no battle: back to the round [4.0] */
static void s_play_move_card(t_fx *f, unsigned seat, int card) {
    wnlb_order o = t_play(card, WNLB_PURPOSE_MOVE);
    if (t_order(f, seat, &o) != 0) fail_msg("card %d refused: [%s] %s", card, f->err.rule, f->err.message);
    o = t_o(WNLB_O_DONE);
    if (t_order(f, seat, &o) != 0) fail_msg("done refused: [%s] %s", f->err.rule, f->err.message);
    while (f->s->phase == WNLB_PH_FIRE) { /* [11.1] the other side's window: declined */
        wnlb_order n = t_o(WNLB_O_FIRE);
        n.flag = 1;
        if (t_order(f, (unsigned)t_actor(f), &n) != 0) fail_msg("fire none refused: [%s] %s", f->err.rule, f->err.message);
    }
    if (f->s->phase == WNLB_PH_DECLARE) {
        o = t_o(WNLB_O_NO_BATTLE);
        if (t_order(f, seat, &o) != 0) fail_msg("no battle refused: [%s] %s", f->err.rule, f->err.message);
    }
}

/* [4.0] a round plays at most five cards: the sixth is refused */
static void test_wnlb_4_0_five_card_round_maximum(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("short", 2, 40);
    t_own_board(f, &b);
    t_empty_hand(f, WNLB_FR);
    int cards[6];
    for (int i = 0; i < 6; i++) cards[i] = t_give(f, WNLB_FR, 2, 1, WNLB_ACT_NONE, 0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
        s_play_move_card(f, 0, cards[i]);
    }
    if (f->s->active_side == WNLB_SIDE_FRENCH && f->s->phase == WNLB_PH_ROUND) {
        wnlb_order o = t_play(cards[5], WNLB_PURPOSE_MOVE);
        assert_int_not_equal(t_order(f, 0, &o), 0);
    } else {
        assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED); /* the fifth card ended the round */
    }
    assert_int_equal(wnlb_card_in_hand(f->s, WNLB_FR, cards[5]) >= 0, 1);
    t_free(f);
}

/* [4.0] the sides alternate: after the French round, the Allied side plays */
static void test_wnlb_4_0_sides_alternate_rounds(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 41);
    int ids[WNLB_MAX_CARDS];
    assert_true(t_hand(f, WNLB_FR, ids, WNLB_MAX_CARDS) > 0);
    s_play_move_card(f, 0, ids[0]);
    if (f->s->active_side == WNLB_SIDE_FRENCH) {
        wnlb_order o = t_o(WNLB_O_END_ROUND);
        assert_int_equal(t_order(f, 0, &o), 0);
    }
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(t_actor(f), 1);
    t_free(f);
}

/* [4.0] a player may pass: the other side's round follows */
static void test_wnlb_4_0_pass_ends_round_without_cards(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 42);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    t_free(f);
}

/* [4.0] both sides pass consecutively: the turn is over even with cards in hand; the new
 * turn deals French 15 and British 12 again */
static void test_wnlb_4_0_both_pass_ends_turn_with_cards_left(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 43);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->turn, 1);
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->turn, 2);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
    t_free(f);
}

/* [4.0] the Prussian deal: turn 2 1 card, 3 3, 4 4, 5 6, 6 7, 7 8 (none on turn 1 [3.2]) */
static void test_wnlb_4_0_prussian_deal_schedule(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 44);
    static const int deal[8] = {0, 0, 1, 3, 4, 6, 7, 8};
    for (int t = 1; t <= 7; t++) assert_int_equal(f->s->sc->deal[WNLB_PR][t], deal[t]);
    wnlb_order o = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(t_order(f, (unsigned)t_actor(f), &o), 0);
    assert_int_equal(f->s->turn, 2);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_PR), 1);
    t_free(f);
}

static void s_end_round(t_fx *f, unsigned seat) {
    wnlb_order o = t_o(WNLB_O_END_ROUND);
    if (t_order(f, seat, &o) != 0) fail_msg("end refused: [%s] %s", f->err.rule, f->err.message);
}

static void s_pass(t_fx *f, unsigned seat) {
    wnlb_order o = t_o(WNLB_O_PASS);
    if (t_order(f, seat, &o) != 0) fail_msg("pass refused: [%s] %s", f->err.rule, f->err.message);
}

/* the first card of army's hand */
static int s_first_card(t_fx *f, int army) {
    int ids[WNLB_MAX_CARDS];
    assert_true(t_hand(f, army, ids, WNLB_MAX_CARDS) > 0);
    return ids[0];
}

/* [4.0] "When a player has finished his round, remove all Moved and Rally Markers" */
static void test_wnlb_4_0_end_of_round_clears_markers(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 45);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0), b = t_unit(f, WNLB_FR, WNLB_INF, 1);
    s_play_move_card(f, 0, s_first_card(f, WNLB_FR));
    f->s->units[a].moved = 1;
    f->s->units[b].rallied = 1;
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    s_end_round(f, 0);
    assert_int_equal(f->s->units[a].moved, 0);
    assert_int_equal(f->s->units[b].rallied, 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    t_free(f);
}

/* [4.0] "In a three-player-game the sides exchange player rounds, not the individual players":
 * French, British, French, Prussian (the British decides the deck [6.0]) */
static void test_wnlb_4_0_three_seats_sides_exchange_rounds(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("full", 3, 46);
    t_own_board(f, &b);
    t_give(f, WNLB_PR, 2, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_PR, 2, 1, WNLB_ACT_NONE, 0);
    s_play_move_card(f, 0, s_first_card(f, WNLB_FR));
    s_end_round(f, 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECK);
    assert_int_equal(t_actor(f), 1);
    wnlb_order d = t_o(WNLB_O_DECK);
    d.army = WNLB_BR;
    assert_int_equal(t_order(f, 1, &d), 0);
    assert_int_equal(t_actor(f), 1);
    s_play_move_card(f, 1, s_first_card(f, WNLB_BR));
    s_end_round(f, 1);
    assert_int_equal(f->s->active_side, WNLB_SIDE_FRENCH);
    assert_int_equal(t_actor(f), 0);
    s_play_move_card(f, 0, s_first_card(f, WNLB_FR));
    s_end_round(f, 0);
    assert_int_equal(t_actor(f), 1); /* the British decides the Allied deck */
    d.army = WNLB_PR;
    assert_int_equal(t_order(f, 1, &d), 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(t_actor(f), 2); /* the Prussian round */
    s_play_move_card(f, 2, s_first_card(f, WNLB_PR));
    s_end_round(f, 2);
    assert_int_equal(t_actor(f), 0);
    t_free(f);
}

/* [4.0] "A player may always choose not to play any of his cards; if he does so (or has no cards
 * left), he passes": with no card, pass is the only order */
static void test_wnlb_4_0_empty_hand_passes(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 47);
    t_empty_hand(f, WNLB_FR);
    assert_int_equal(t_legal_n(f, 0), 1);
    assert_true(t_legal_has(f, 0, "pass"));
    T_NO(f, 0, "end");
    s_pass(f, 0);
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->turn, 1);
    t_free(f);
}

/* [4.0] Exception: "If one player has no cards left to play, the other player plays all of his
 * remaining cards (or as many as he wishes) in as many (last) player rounds as he wants"; his pass
 * then ends the turn [A14] */
static void test_wnlb_4_0_other_side_plays_out_its_hand(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 48);
    t_empty_hand(f, WNLB_FR);
    s_pass(f, 0);
    for (int r = 0; r < 3; r++) {
        assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
        assert_int_equal(t_actor(f), 1);
        s_play_move_card(f, 1, s_first_card(f, WNLB_BR));
        s_end_round(f, 1);
    }
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED); /* a fourth round of his */
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 9);
    assert_int_equal(f->s->turn, 1);
    s_pass(f, 1);
    assert_int_equal(f->s->turn, 2);
    t_free(f);
}

/* [4.0] "until both or all players have played all the cards they had for that game turn. When
 * that happens, the game turn is over" */
static void test_wnlb_4_0_all_cards_played_ends_turn(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("short", 2, 49);
    t_own_board(f, &b);
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    int fc = t_give(f, WNLB_FR, 2, 1, WNLB_ACT_NONE, 0);
    int ac = t_give(f, WNLB_BR, 2, 1, WNLB_ACT_NONE, 0);
    s_play_move_card(f, 0, fc); /* his last card: the round is over */
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->turn, 1);
    s_play_move_card(f, 1, ac);
    assert_int_equal(f->s->turn, 2);
    t_free(f);
}

/* [4.0] [6.0] the next turn: "each player shuffles all of his cards, and then deals": the whole
 * deck, the cards played included, dealt anew by a shuffle nobody sees */
static void test_wnlb_4_0_new_turn_reshuffles_and_deals(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 50);
    s_play_move_card(f, 0, s_first_card(f, WNLB_FR));
    s_end_round(f, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 14);
    s_pass(f, 1);
    assert_int_equal(f->s->turn, 1);
    s_pass(f, 0); /* both sides passed consecutively */
    assert_int_equal(f->s->turn, 2);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_FR), 11);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
    int shuffles = 0;
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++)
        if (strstr(f->d.purpose[r], "4.0 shuffle")) {
            shuffles++;
            assert_int_equal(f->d.seats[r], DICE_SEEN_BY_NONE);
        }
    assert_true(shuffles > 0);
    const t_ev *e = t_ev_kind(&f->ev, "dealt", 0);
    assert_non_null(e);
    t_free(f);
}

/* [4.0] "France 15 cards, British/Allies 12 cards" every game turn; Prussians as the table says */
static void test_wnlb_4_0_deal_sizes_french_british(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 51);
    for (int turn = 1; turn <= 7; turn++) {
        assert_int_equal(f->s->turn, turn);
        assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
        assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 12);
        assert_int_equal(wnlb_hand_count(f->s, WNLB_PR), f->s->sc->deal[WNLB_PR][turn]);
        if (f->s->phase == WNLB_PH_BID) { /* [7.0] no bids: blind draws */
            wnlb_order o = t_o(WNLB_O_BID);
            assert_int_equal(t_order(f, 0, &o), 0);
            assert_int_equal(t_order(f, 1, &o), 0);
        }
        for (int k = 0; k < 2; k++) { /* both sides pass [4.0] */
            if (f->s->phase == WNLB_PH_DECK) {
                wnlb_order d = t_o(WNLB_O_DECK);
                d.army = WNLB_BR;
                assert_int_equal(t_order(f, 1, &d), 0);
            }
            assert_int_equal(f->s->phase, WNLB_PH_ROUND);
            s_pass(f, (unsigned)t_actor(f));
        }
    }
    assert_true(f->s->over);
    t_free(f);
}

/* [4.0] [13.1] "the short game, 4 game turns": two passes a turn, the game is over after turn 4 */
static void test_wnlb_4_0_short_game_four_turns(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 52);
    int turns = 0;
    while (!f->s->over && turns < 10) {
        turns = f->s->turn;
        if (f->s->phase == WNLB_PH_BID) {
            wnlb_order o = t_o(WNLB_O_BID);
            assert_int_equal(t_order(f, 0, &o), 0);
            assert_int_equal(t_order(f, 1, &o), 0);
        }
        s_pass(f, (unsigned)t_actor(f));
        if (!f->s->over) s_pass(f, (unsigned)t_actor(f));
    }
    assert_true(f->s->over);
    assert_int_equal(turns, 4);
    t_free(f);
}

/* [4.0] [13.1] "Prussian units and cards are only used in the full battle game": no Prussian card
 * is ever dealt in the short game, on any turn */
static void test_wnlb_4_0_short_game_no_prussian_cards(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 53);
    for (int turn = 1; turn <= 4; turn++) {
        assert_int_equal(f->s->turn, turn);
        assert_int_equal(wnlb_hand_count(f->s, WNLB_PR), 0);
        if (f->s->phase == WNLB_PH_BID) {
            wnlb_order o = t_o(WNLB_O_BID);
            assert_int_equal(t_order(f, 0, &o), 0);
            assert_int_equal(t_order(f, 1, &o), 0);
        }
        assert_int_not_equal(f->s->phase, WNLB_PH_DECK); /* never a choice of Allied deck */
        s_pass(f, (unsigned)t_actor(f));
        assert_int_not_equal(f->s->phase, WNLB_PH_DECK);
        s_pass(f, (unsigned)t_actor(f));
    }
    t_free(f);
}

/* [4.0] "After the playing of each card for movement or action the player may conduct one battle":
 * one declaration after the card, then the round goes on */
static void test_wnlb_4_0_one_battle_decision_per_card(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 54);
    wnlb_order o = t_play(s_first_card(f, WNLB_FR), WNLB_PURPOSE_MOVE);
    assert_int_equal(t_order(f, 0, &o), 0);
    o = t_o(WNLB_O_DONE);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u);
    assert_string_equal(p.kind, "declare-battle");
    o = t_o(WNLB_O_NO_BATTLE);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_not_equal(t_order(f, 0, &o), 0); /* no second declaration for that card */
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_3_1_setup_squares_one_unit_each),
        cmocka_unit_test(test_wnlb_3_1_setup_default_facings),
        cmocka_unit_test(test_wnlb_3_1_setup_east_facing_exceptions),
        cmocka_unit_test(test_wnlb_3_1_commanders_start_with_their_units),
        cmocka_unit_test(test_wnlb_3_1_setup_full_strength_no_markers),
        cmocka_unit_test(test_wnlb_3_1_short_vp_markers_british),
        cmocka_unit_test(test_wnlb_3_1_full_vp_markers_british),
        cmocka_unit_test(test_wnlb_3_1_prussians_set_aside),
        cmocka_unit_test(test_wnlb_3_2_first_deal_sizes),
        cmocka_unit_test(test_wnlb_3_2_no_prussian_cards_turn_1),
        cmocka_unit_test(test_wnlb_3_2_deal_is_seeded_shuffle),
        cmocka_unit_test(test_wnlb_3_2_french_plays_first_turn_1),
        cmocka_unit_test(test_wnlb_4_0_five_card_round_maximum),
        cmocka_unit_test(test_wnlb_4_0_sides_alternate_rounds),
        cmocka_unit_test(test_wnlb_4_0_pass_ends_round_without_cards),
        cmocka_unit_test(test_wnlb_4_0_both_pass_ends_turn_with_cards_left),
        cmocka_unit_test(test_wnlb_4_0_prussian_deal_schedule),
        cmocka_unit_test(test_wnlb_4_0_end_of_round_clears_markers),
        cmocka_unit_test(test_wnlb_4_0_three_seats_sides_exchange_rounds),
        cmocka_unit_test(test_wnlb_4_0_empty_hand_passes),
        cmocka_unit_test(test_wnlb_4_0_other_side_plays_out_its_hand),
        cmocka_unit_test(test_wnlb_4_0_all_cards_played_ends_turn),
        cmocka_unit_test(test_wnlb_4_0_new_turn_reshuffles_and_deals),
        cmocka_unit_test(test_wnlb_4_0_deal_sizes_french_british),
        cmocka_unit_test(test_wnlb_4_0_short_game_four_turns),
        cmocka_unit_test(test_wnlb_4_0_short_game_no_prussian_cards),
        cmocka_unit_test(test_wnlb_4_0_one_battle_decision_per_card),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
