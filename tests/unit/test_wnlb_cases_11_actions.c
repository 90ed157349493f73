/*
 * test_wnlb_cases_11_actions.c - rule cases of the Actions played in a player round [11.0],
 * Artillery Fire [11.1] (in the round and in the other side's window, R-wnlb-11.1-windows),
 * Rally [11.6] and Napoleon's Health [11.7] (Napoleon's Last Battle), on the fixture's own
 * board (wnlb_t.h: t_blank); docs/wnlb-cases/11.md maps every case to its test.
 */
#include "wnlb_t.h"

/* a French round of turn 1 on a blank board; both hands emptied */
static t_fx *s_blank_round(t_board *b, const char *sc, unsigned seats, uint64_t seed) {
    t_fx *f = t_bare(b, sc, seats, seed);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    return f;
}

/* the wire form of a card played for an action (wnlb.v1.Play); flip: Rally's second choice [11.6] */
static int s_action_flip(t_fx *f, unsigned seat, int card, int action, const char *unit, const char *unit2, int flip) {
    Wnlb__V1__Order o = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play play = WNLB__V1__PLAY__INIT;
    char *units[2] = {(char *)unit, (char *)unit2};
    play.card = (uint32_t)card;
    play.purpose = WNLB_PURPOSE_ACTION;
    play.action = (uint32_t)action;
    play.n_units = unit2 ? 2 : unit ? 1 : 0;
    play.units = units;
    play.rally_flip = flip != 0;
    o.kind_case = WNLB__V1__ORDER__KIND_PLAY;
    o.play = &play;
    size_t len;
    uint8_t *bytes = canon_pack(&o.base, &len);
    assert_non_null(bytes);
    int rc = t_apply(f, seat, bytes, len);
    free(bytes);
    return rc;
}

static int s_action(t_fx *f, unsigned seat, int card, int action, const char *unit, const char *unit2) {
    return s_action_flip(f, seat, card, action, unit, unit2, 0);
}

static void s_ok(t_fx *f, int rc, const char *what) {
    if (rc != 0) fail_msg("%s refused: [%s] %s", what, f->err.rule, f->err.message);
}

/* [11.0] "Use as an Action counts against a player's 5-card maximum"; the card is used for nothing
 * else, and one battle may follow [4.0] */
static void test_wnlb_11_0_action_counts_against_five(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 110);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    f->s->units[a].disordered = 1;
    int c = t_give(f, WNLB_FR, 5, 1, WNLB_ACT_RALLY, 0);
    t_give(f, WNLB_FR, 5, 1, WNLB_ACT_NONE, 0);
    s_ok(f, s_action(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), NULL), "rally");
    assert_int_equal(f->s->round_cards, 1);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, c)], WNLB_LOC_UNUSED);
    assert_int_equal(f->s->mp_left, 0); /* not a Movement card too */
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    t_free(f);
}

/* [11.0] [11.2] [11.3] Command Benefit and Elite Bonus are played in a battle, not as a round's
 * action: refused with their rule, the card stays in hand */
static void test_wnlb_11_0_command_and_elite_battle_only(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 111);
    int c = t_give(f, WNLB_FR, 2, 1, WNLB_ACT_COMMAND, 2);
    int e = t_give(f, WNLB_FR, 2, 1, WNLB_ACT_ELITE, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_COMMAND, NULL, NULL), 0);
    assert_string_equal(f->err.rule, "11.2");
    assert_int_not_equal(s_action(f, 0, e, WNLB_ACT_ELITE, NULL, NULL), 0);
    assert_string_equal(f->err.rule, "11.3");
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, e) >= 0);
    assert_int_equal(f->s->round_cards, 0);
    /* [6.0] and the action must be the card's own */
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, NULL, NULL), 0);
    assert_string_equal(f->err.rule, "6.0");
    t_free(f);
}

/* [11.1] Artillery Fire: a non-Disordered infantry unit Disorders the enemy frontally adjacent */
static void test_wnlb_11_1_artillery_fire_disorders_front_enemy(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 112);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    assert_int_equal(wnlb_fire_target(f->s, fr), br);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    char txt[48];
    snprintf(txt, sizeof txt, "play %d artillery %s", c, t_id(f, fr));
    assert_true(t_legal_has(f, 0, txt));
    T_OK(f, 0, txt);
    assert_int_equal(f->s->units[br].disordered, 1);
    assert_int_equal(f->s->round_cards, 1);
    const t_ev *e = t_ev_kind(&f->ev, "fire", 0);
    assert_non_null(e);
    assert_int_equal(e->mask, BRT_SEATS_ALL);
    t_free(f);
}

/* [11.1] [9.5] a Disordered unit may not fire; nor may cavalry ("one of his infantry units") */
static void test_wnlb_11_1_disordered_unit_may_not_fire(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 113);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    int cav = t_unit(f, WNLB_FR, WNLB_CAV, 0), br2 = t_unit(f, WNLB_BR, WNLB_INF, 1);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, cav, "F-9", WNLB_N);
    t_put(f, br2, "E-9", WNLB_S);
    f->s->units[fr].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, fr), NULL), 0);
    assert_string_equal(f->err.rule, "9.5");
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, cav), NULL), 0);
    assert_string_equal(f->err.rule, "11.1");
    assert_int_equal(f->s->units[br].disordered, 0);
    assert_int_equal(f->s->units[br2].disordered, 0);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    assert_int_equal(t_legal_n(f, 0), 2); /* pass, and the card for Movement */
    t_free(f);
}

/* [11.1] only the enemy in the firing unit's front square */
static void test_wnlb_11_1_fire_only_to_front(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 114);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    int fr2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    t_put(f, fr, "F-6", WNLB_E);
    t_put(f, br, "E-6", WNLB_S); /* north of the firing unit, which faces east */
    t_put(f, fr2, "F-7", WNLB_W); /* a friend in front */
    assert_int_equal(wnlb_fire_target(f->s, fr), -1);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, fr), NULL), 0);
    assert_string_equal(f->err.rule, "11.1");
    assert_int_equal(f->s->units[br].disordered, 0);
    assert_int_equal(f->s->units[fr2].disordered, 0);
    t_free(f);
}

/* [11.1] [9.5] Artillery Fire never eliminates: a full Disordered unit fired on is Reduced and no
 * longer Disordered; a reduced Disordered one is unchanged */
static void test_wnlb_11_1_fire_never_eliminates(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 115);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 4, 2, 0);
    f->s->units[br].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0); /* the round goes on after the first fire */
    s_ok(f, s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, fr), NULL), "fire");
    assert_int_equal(f->s->units[br].reduced, 1);
    assert_int_equal(f->s->units[br].disordered, 0);
    assert_int_equal(f->s->units[br].eliminated, 0);
    wnlb_order o = t_o(WNLB_O_NO_BATTLE);
    assert_int_equal(t_order(f, 0, &o), 0);
    f->s->units[br].disordered = 1; /* reduced and Disordered: "nothing happens in this case" */
    c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    s_ok(f, s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, fr), NULL), "fire");
    assert_int_equal(f->s->units[br].eliminated, 0);
    assert_int_equal(f->s->units[br].reduced, 1);
    assert_int_equal(f->s->units[br].disordered, 1);
    assert_true(f->s->units[br].row >= 0);
    t_free(f);
}

/* [10.0] "The playing of a Artillery Fire card has no effect on units inside a chateau"
 * (R-wnlb-11.1-chateau): such a fire is refused, the card kept */
static void test_wnlb_11_1_fire_at_chateau_refused(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 116);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, t_id(f, fr), NULL), 0);
    assert_string_equal(f->err.rule, "10.0");
    assert_int_equal(f->s->units[br].disordered, 0);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    t_free(f);
}

/* the French play a Movement card and finish it: the Allied Fire window may open */
static void s_french_card_done(t_fx *f) {
    int c = t_give(f, WNLB_FR, 2, 1, WNLB_ACT_NONE, 0);
    wnlb_order o = t_play(c, WNLB_PURPOSE_MOVE);
    assert_int_equal(t_order(f, 0, &o), 0);
    o = t_o(WNLB_O_DONE);
    assert_int_equal(t_order(f, 0, &o), 0);
}

/* [11.1] "The Defender plays it at any time he wants during an opponent's player round"
 * (R-wnlb-11.1-windows): after each card of the active side, before its battle, the other side's
 * window; it may fire again, then declines; the battle declaration follows */
static void test_wnlb_11_1_defender_fires_in_opponents_round(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 117);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 4, 2, 0);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    int a1 = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    int a2 = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    s_french_card_done(f);
    assert_int_equal(f->s->phase, WNLB_PH_FIRE);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 2u);
    assert_string_equal(p.kind, "fire");
    char txt[48];
    snprintf(txt, sizeof txt, "fire %d %s", a1, t_id(f, br));
    assert_true(t_legal_has(f, 1, txt));
    assert_true(t_legal_has(f, 1, "fire none"));
    T_NO(f, 0, txt); /* not the French seat's window */
    T_OK(f, 1, txt);
    assert_int_equal(f->s->units[fr].disordered, 1);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, a1)], WNLB_LOC_UNUSED);
    assert_int_equal(f->s->phase, WNLB_PH_FIRE); /* it may fire again */
    snprintf(txt, sizeof txt, "fire %d %s", a2, t_id(f, br));
    T_OK(f, 1, txt);
    assert_int_equal(f->s->units[fr].reduced, 1); /* a second Disorder [9.5] */
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE); /* no card left: the window closes */
    assert_int_equal(t_actor(f), 0);
    t_free(f);
}

/* [6.0] [11.1] (A1) the card fired in the opponent's round is used but does not count against the
 * firing side's next round, nor against the active side's */
static void test_wnlb_11_1_defender_fire_outside_five_card_limit(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 118);
    (void)t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    int a1 = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    for (int i = 0; i < 5; i++) t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0); /* the French round goes on after its card */
    s_french_card_done(f);
    char txt[48];
    snprintf(txt, sizeof txt, "fire %d %s", a1, t_id(f, br));
    T_OK(f, 1, txt);
    assert_int_equal(f->s->round_cards, 1); /* the French round: its own card only */
    T_OK(f, 1, "fire none");
    T_OK(f, 0, "no-battle");
    T_OK(f, 0, "end");
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->round_cards, 0);
    int ids[WNLB_MAX_CARDS];
    int n = t_hand(f, WNLB_BR, ids, WNLB_MAX_CARDS);
    assert_int_equal(n, 5);
    for (int i = 0; i < 5; i++) { /* five more cards in his own round */
        assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
        snprintf(txt, sizeof txt, "play %d move", ids[i]);
        T_OK(f, 1, txt);
        T_OK(f, 1, "done");
        if (f->s->phase == WNLB_PH_FIRE) T_OK(f, 0, "fire none");
        T_OK(f, 1, "no-battle");
    }
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 0);
    t_free(f);
}

/* R-wnlb-11.1-windows: the window opens when the side holds any card and has a unit that may fire,
 * an Artillery Fire card or not (pending() is public); never with an empty hand or no such unit */
static void test_wnlb_11_1_window_does_not_tell_the_hand(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 119);
    (void)t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0); /* no Artillery Fire card */
    for (int i = 0; i < 3; i++) t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0); /* the French round goes on */
    s_french_card_done(f);
    assert_int_equal(f->s->phase, WNLB_PH_FIRE);
    assert_int_equal(t_legal_n(f, 1), 1); /* fire none only */
    T_OK(f, 1, "fire none");
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    T_OK(f, 0, "no-battle");
    t_empty_hand(f, WNLB_BR); /* an empty hand: no window */
    s_french_card_done(f);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    T_OK(f, 0, "no-battle");
    t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    f->s->units[br].disordered = 1; /* no unit that may fire: no window */
    s_french_card_done(f);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    t_free(f);
}

/* R-wnlb-11.1-windows: three seats: each Allied army's window goes to the seat of its army, the
 * British first, then the Prussian */
static void test_wnlb_11_1_three_seats_owner_answers(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "full", 3, 120);
    int f1 = t_unit(f, WNLB_FR, WNLB_INF, 0), f2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0), pr = t_unit(f, WNLB_PR, WNLB_INF, 0);
    t_put(f, f1, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, f2, "F-9", WNLB_N);
    t_put(f, pr, "E-9", WNLB_S);
    t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    int pa = t_give(f, WNLB_PR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    s_french_card_done(f);
    assert_int_equal(t_actor(f), 1);
    char txt[48];
    snprintf(txt, sizeof txt, "fire %d %s", pa, t_id(f, pr));
    T_NO(f, 1, txt); /* the British fires no Prussian card */
    T_OK(f, 1, "fire none");
    assert_int_equal(f->s->phase, WNLB_PH_FIRE);
    assert_int_equal(t_actor(f), 2);
    snprintf(txt, sizeof txt, "fire %d %s", pa, t_id(f, br));
    T_NO(f, 2, txt); /* nor a British unit */
    snprintf(txt, sizeof txt, "fire %d %s", pa, t_id(f, pr));
    T_OK(f, 2, txt);
    assert_int_equal(f->s->units[f2].disordered, 1);
    assert_int_equal(f->s->units[f1].disordered, 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    t_free(f);
}

/* [11.6] Rally: remove the Disorder markers of two units, wherever they are; a Rally marker each */
static void test_wnlb_11_6_rally_removes_two_disorders(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 121);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0), c2 = t_unit(f, WNLB_FR, WNLB_CAV, 0);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, a, "F-6", WNLB_N);
    t_put(f, c2, "H-9", WNLB_N);
    t_put(f, br, "G-9", WNLB_S); /* adjacent to an enemy: Disorder goes anyway */
    f->s->units[a].disordered = f->s->units[c2].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    char txt[64];
    snprintf(txt, sizeof txt, "play %d rally %s %s", c, t_id(f, a), t_id(f, c2));
    assert_true(t_legal_has(f, 0, txt));
    T_OK(f, 0, txt);
    assert_int_equal(f->s->units[a].disordered, 0);
    assert_int_equal(f->s->units[c2].disordered, 0);
    assert_int_equal(f->s->units[a].rallied, 1);
    assert_int_equal(f->s->units[c2].rallied, 1);
    t_free(f);
}

/* [11.6] or flip one Reduced unit not adjacent to an enemy unit by a square side (diagonal is ok) */
static void test_wnlb_11_6_rally_flips_reduced_not_adjacent(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 122);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    f->s->units[a].reduced = 1;
    t_put(f, br, "E-6", WNLB_S);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    assert_int_not_equal(s_action_flip(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), NULL, 1), 0);
    assert_string_equal(f->err.rule, "11.6");
    assert_int_equal(f->s->units[a].reduced, 1);
    t_put(f, br, "E-7", WNLB_S); /* diagonal now */
    /* the first bullet (remove Disorder) has nothing to act on: refused */
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), NULL), 0);
    assert_string_equal(f->err.rule, "11.6");
    char txt[48];
    snprintf(txt, sizeof txt, "play %d rally-flip %s", c, t_id(f, a));
    assert_true(t_legal_has(f, 0, txt));
    T_OK(f, 0, txt);
    assert_int_equal(f->s->units[a].reduced, 0);
    assert_int_equal(f->s->units[a].rallied, 1);
    t_free(f);
}

/* [11.6] "Play of the card allows the player to either" remove Disorder or flip one Reduced unit: for a
 * unit both Reduced and Disordered the player chooses (R-wnlb-11.6-rally-mode), and each choice does
 * only what its bullet says */
static void test_wnlb_11_6_reduced_and_disordered_player_chooses(void **st) {
    (void)st;
    for (int flip = 0; flip < 2; flip++) {
        t_board b;
        t_fx *f = s_blank_round(&b, "short", 2, 126);
        int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
        f->s->units[a].reduced = f->s->units[a].disordered = 1;
        int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
        char rally[48], flipped[48];
        snprintf(rally, sizeof rally, "play %d rally %s", c, t_id(f, a));
        snprintf(flipped, sizeof flipped, "play %d rally-flip %s", c, t_id(f, a));
        assert_true(t_legal_has(f, 0, rally)); /* both choices are the player's */
        assert_true(t_legal_has(f, 0, flipped));
        T_OK(f, 0, flip ? flipped : rally);
        assert_int_equal(f->s->units[a].reduced, flip ? 0 : 1);
        assert_int_equal(f->s->units[a].disordered, flip ? 1 : 0);
        assert_int_equal(f->s->units[a].rallied, 1);
        const t_ev *e = t_ev_kind(&f->ev, "rally", 0);
        assert_non_null(e);
        assert_int_equal(e->e->value, flip);
        t_free(f);
    }
}

/* [11.6] the flip is of "one (1) Reduced unit": a flip naming two units is refused */
static void test_wnlb_11_6_flip_one_unit_only(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 127);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int a2 = t_place(f, WNLB_FR, WNLB_INF, 1, "F-8", WNLB_N);
    f->s->units[a].reduced = f->s->units[a2].reduced = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    assert_int_not_equal(s_action_flip(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), t_id(f, a2), 1), 0);
    assert_string_equal(f->err.rule, "11.6");
    assert_int_equal(f->s->units[a].reduced, 1);
    assert_int_equal(f->s->units[a2].reduced, 1);
    assert_true(wnlb_card_in_hand(f->s, WNLB_FR, c) >= 0);
    t_free(f);
}

/* [11.6] "A unit that has moved or attacked that player round may not be Rallied" */
static void test_wnlb_11_6_moved_unit_not_rallied(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 123);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int a2 = t_place(f, WNLB_FR, WNLB_INF, 1, "F-8", WNLB_N);
    f->s->units[a].disordered = f->s->units[a2].disordered = 1;
    f->s->units[a].moved = 1;
    f->s->units[a2].attacked = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), NULL), 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, t_id(f, a2), NULL), 0);
    assert_string_equal(f->err.rule, "11.6");
    assert_int_equal(f->s->units[a].disordered, 1);
    assert_int_equal(f->s->units[a2].disordered, 1);
    assert_int_equal(t_legal_n(f, 0), 2); /* pass, and the card for Movement */
    t_free(f);
}

/* [11.6] "Place a Rally Marker on a unit that has rallied": it stays until the end of the round
 * [4.0] (the move and attack it forbids are refused by movement and battle) */
static void test_wnlb_11_6_rally_marker_until_round_end(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 124);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    f->s->units[a].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    s_ok(f, s_action(f, 0, c, WNLB_ACT_RALLY, t_id(f, a), NULL), "rally");
    T_OK(f, 0, "no-battle");
    assert_int_equal(f->s->units[a].rallied, 1);
    T_OK(f, 0, "end");
    assert_int_equal(f->s->units[a].rallied, 0);
    t_free(f);
}

/* the Allied round after a French pass; the British hand holds only a Napoleon's Health card */
static t_fx *s_health_round(t_board *b, uint64_t seed, int *card) {
    t_fx *f = t_new("short", 2, seed);
    t_own_board(f, b);
    T_OK(f, 0, "pass");
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    t_empty_hand(f, WNLB_BR);
    *card = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_HEALTH, 0);
    return f;
}

/* [11.7] Napoleon's Health, the British/Allied player's action in his round: two cards drawn at
 * random from the French hand go onto the unused portion */
static void test_wnlb_11_7_napoleons_health_removes_two(void **st) {
    (void)st;
    t_board b;
    int c;
    t_fx *f = s_health_round(&b, 125, &c);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    char txt[32];
    snprintf(txt, sizeof txt, "play %d health", c);
    assert_true(t_legal_has(f, 1, txt));
    T_OK(f, 1, txt);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 13);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_FR), 13);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, c)], WNLB_LOC_UNUSED);
    assert_int_equal(f->s->round_cards, 1);
    int rolls = 0;
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++) rolls += strstr(f->d.purpose[r], "11.7") != NULL;
    assert_int_equal(rolls, 2); /* drawn at random: the dice */
    t_free(f);
}

/* [11.7] "without seeing what they are": the rolls are the French seat's only; the French seat's
 * event names the two cards, everyone else's gives the count only */
static void test_wnlb_11_7_health_cards_known_to_french_only(void **st) {
    (void)st;
    t_board b;
    int c;
    t_fx *f = s_health_round(&b, 126, &c);
    int before[WNLB_MAX_CARDS];
    int n = t_hand(f, WNLB_FR, before, WNLB_MAX_CARDS);
    char txt[32];
    snprintf(txt, sizeof txt, "play %d health", c);
    T_OK(f, 1, txt);
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++)
        if (strstr(f->d.purpose[r], "11.7")) assert_int_equal(f->d.seats[r], 1u);
    const t_ev *mine = NULL, *theirs = NULL;
    for (int i = 0; i < f->ev.n; i++) {
        if (strcmp(f->ev.ev[i].e->kind, "health") != 0) continue;
        if (f->ev.ev[i].mask == 1u) mine = &f->ev.ev[i];
        else theirs = &f->ev.ev[i];
    }
    assert_non_null(mine);
    assert_non_null(theirs);
    assert_int_equal(theirs->mask, BRT_SEATS_ALL & ~1u);
    assert_int_equal(theirs->e->n_cards, 0);
    assert_int_equal(theirs->e->value, 2);
    assert_int_equal(mine->e->n_cards, 2);
    for (int k = 0; k < 2; k++) { /* the cards named were in the hand and are unused now */
        int id = (int)mine->e->cards[k], was = 0;
        for (int i = 0; i < n; i++) was |= before[i] == id;
        assert_true(was);
        assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, id)], WNLB_LOC_UNUSED);
    }
    t_free(f);
}

/* R-wnlb-11.1-windows: a clock running out in the Fire window declines: no card used */
static void test_wnlb_11_1_window_clock_declines(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 127);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    (void)t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    s_french_card_done(f);
    assert_int_equal(f->s->phase, WNLB_PH_FIRE);
    t_ev_clear(&f->ev);
    assert_int_equal(f->rs->timeout_default(f->s, 1, &f->d.d, &f->ev), 0);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
    assert_int_equal(f->s->units[fr].disordered, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_BR), 1);
    t_free(f);
}

/* [11.1] [10.0] an infantry unit inside a chateau "is considered to be facing frontally to all
 * sides": every enemy adjacent to it by a side is frontally adjacent, and the player names the one
 * it fires at (R-wnlb-11.1-firer); outside a chateau only the square its counter faces, no target
 * named */
static void test_wnlb_11_1_chateau_infantry_fires_to_any_side(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 128);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), fr2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    int b1 = t_unit(f, WNLB_BR, WNLB_INF, 0), b2 = t_unit(f, WNLB_BR, WNLB_INF, 1);
    int b3 = t_unit(f, WNLB_BR, WNLB_INF, 2);
    t_terrain(f, "F-6", WNLB_CHATEAU);
    t_put(f, fr, "F-6", WNLB_N); /* nothing in its counter's front square E-6 */
    t_put(f, b1, "F-7", WNLB_W);
    t_put(f, b2, "F-5", WNLB_E);
    t_put(f, fr2, "J-6", WNLB_N);
    t_put(f, b3, "I-6", WNLB_S);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    char txt[64];
    snprintf(txt, sizeof txt, "play %d artillery %s", c, t_id(f, fr));
    T_NO(f, 0, txt); /* two enemies frontally adjacent: the target must be named */
    assert_string_equal(f->err.rule, "11.1");
    snprintf(txt, sizeof txt, "play %d artillery %s %s", c, t_id(f, fr2), t_id(f, b3));
    T_NO(f, 0, txt); /* outside a chateau the target is the one it faces, not named */
    assert_int_equal(f->s->units[b3].disordered, 0);
    snprintf(txt, sizeof txt, "play %d artillery %s %s", c, t_id(f, fr), t_id(f, b2));
    assert_true(t_legal_has(f, 0, txt));
    snprintf(txt, sizeof txt, "play %d artillery %s", c, t_id(f, fr2));
    assert_true(t_legal_has(f, 0, txt));
    snprintf(txt, sizeof txt, "play %d artillery %s %s", c, t_id(f, fr), t_id(f, b1));
    assert_true(t_legal_has(f, 0, txt));
    T_OK(f, 0, txt);
    assert_int_equal(f->s->units[b1].disordered, 1);
    assert_int_equal(f->s->units[b2].disordered, 0);
    t_free(f);
}

/* [11.1] [10.0] [9.3] the defender inside a chateau fires, with its battle cards, at an attacker on
 * any side of it, named; that attacker is Disordered and drops out of the battle (R-wnlb-11.1-battle-fire) */
static void test_wnlb_11_1_chateau_defender_fires_at_any_attacker(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, "short", 2, 129);
    int d = t_unit(f, WNLB_BR, WNLB_INF, 0);
    int a1 = t_unit(f, WNLB_FR, WNLB_INF, 0), a2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    t_values(f, d, 2, 1, 0);
    t_values(f, a1, 3, 2, 0);
    t_values(f, a2, 3, 2, 0);
    t_put(f, d, "E-6", WNLB_S);  /* its counter faces a1 */
    t_put(f, a1, "F-6", WNLB_N);
    t_put(f, a2, "E-5", WNLB_E); /* on its west side */
    int art = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    s_french_card_done(f);
    t_no_fire(f);
    char txt[80];
    snprintf(txt, sizeof txt, "attack %s with %s %s", t_id(f, d), t_id(f, a1), t_id(f, a2));
    T_OK(f, 0, txt);
    T_OK(f, 0, "cards none");
    snprintf(txt, sizeof txt, "cards %d:artillery fire %s", art, t_id(f, d));
    T_NO(f, 1, txt); /* two attackers frontally adjacent: name the one */
    snprintf(txt, sizeof txt, "cards %d:artillery fire %s %s", art, t_id(f, d), t_id(f, a2));
    assert_true(t_legal_has(f, 1, txt));
    T_OK(f, 1, txt);
    assert_int_equal(f->s->units[a2].disordered, 1);
    assert_int_equal(f->s->units[a1].disordered, 0);
    /* 3 against 2 x 2 [10.0]: a1 alone attacks, the defender holds */
    assert_int_equal(f->s->battle.total[0], 3);
    assert_int_equal(f->s->battle.total[1], 4);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_11_0_action_counts_against_five),
        cmocka_unit_test(test_wnlb_11_0_command_and_elite_battle_only),
        cmocka_unit_test(test_wnlb_11_1_artillery_fire_disorders_front_enemy),
        cmocka_unit_test(test_wnlb_11_1_disordered_unit_may_not_fire),
        cmocka_unit_test(test_wnlb_11_1_fire_only_to_front),
        cmocka_unit_test(test_wnlb_11_1_fire_never_eliminates),
        cmocka_unit_test(test_wnlb_11_1_fire_at_chateau_refused),
        cmocka_unit_test(test_wnlb_11_1_defender_fires_in_opponents_round),
        cmocka_unit_test(test_wnlb_11_1_chateau_infantry_fires_to_any_side),
        cmocka_unit_test(test_wnlb_11_1_chateau_defender_fires_at_any_attacker),
        cmocka_unit_test(test_wnlb_11_1_defender_fire_outside_five_card_limit),
        cmocka_unit_test(test_wnlb_11_1_window_does_not_tell_the_hand),
        cmocka_unit_test(test_wnlb_11_1_three_seats_owner_answers),
        cmocka_unit_test(test_wnlb_11_1_window_clock_declines),
        cmocka_unit_test(test_wnlb_11_6_rally_removes_two_disorders),
        cmocka_unit_test(test_wnlb_11_6_reduced_and_disordered_player_chooses),
        cmocka_unit_test(test_wnlb_11_6_flip_one_unit_only),
        cmocka_unit_test(test_wnlb_11_6_rally_flips_reduced_not_adjacent),
        cmocka_unit_test(test_wnlb_11_6_moved_unit_not_rallied),
        cmocka_unit_test(test_wnlb_11_6_rally_marker_until_round_end),
        cmocka_unit_test(test_wnlb_11_7_napoleons_health_removes_two),
        cmocka_unit_test(test_wnlb_11_7_health_cards_known_to_french_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
