/*
 * test_wnlb_cases_12_13.c - rule cases of Commanders [12.0], the Scenarios and Winning the Game [13.1]-[13.3]
 * (Napoleon's Last Battle). The VP squares are found by name in the scenario data; the
 * ownership and the eliminations are set on the state as the cases need them.
 * docs/wnlb-cases/12.md and 13.md map every case to its test.
 */
#include "wnlb_t.h"

/* the index of the VP square whose name holds `part` ("jean"), or fails; nth of them */
static int s_vp(const t_fx *f, const char *part, int nth) {
    for (size_t i = 0; i < f->s->sc->n_vp; i++)
        if (strstr(f->s->sc->vp[i].name, part) && nth-- == 0) return (int)i;
    fail_msg("no VP square named *%s*", part);
    return -1;
}

/* [13.1] [4.0] the Short Game is turns 1-4 for two players; the Full Battle Game turns 1-7,
 * two or three; a three-seat Short Game is refused */
static void test_wnlb_13_1_scenario_turn_counts(void **st) {
    (void)st;
    const wnlb_scenario *s = wnlb_scenario_get("short"), *full = wnlb_scenario_get("full");
    assert_non_null(s);
    assert_non_null(full);
    assert_int_equal(s->first_turn, 1);
    assert_int_equal(s->last_turn, 4);
    assert_int_equal(s->max_seats, 2);
    assert_int_equal(full->first_turn, 1);
    assert_int_equal(full->last_turn, 7);
    assert_int_equal(full->max_seats, 3);
    const brt_ruleset *rs = brt_ruleset_find("wnlb");
    assert_non_null(rs);
    brt_ruleset_options three = {NULL, 0, 3};
    brt_reject err;
    t_dice d;
    t_dice_init(&d, 1);
    assert_null(rs->setup("short", &three, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SEATS);
}

/* [13.1] [5.0] the Short Game excludes any/all Prussian units and cards */
static void test_wnlb_13_1_short_excludes_prussians(void **st) {
    (void)st;
    const wnlb_scenario *s = wnlb_scenario_get("short");
    assert_non_null(s);
    assert_int_equal(s->prussians, 0);
    for (int t = 0; t < 8; t++) assert_int_equal(s->deal[WNLB_PR][t], 0);
    t_fx *f = t_new("short", 2, 131);
    /* through the end of the game: no Prussian card dealt, no Prussian unit entered */
    uint64_t rng = 131;
    brt_buf l;
    buf_init(&l);
    for (int n = 0; n < 20000 && t_actor(f) >= 0; n++) {
        int seat = t_actor(f);
        buf_reset(&l);
        int k = f->rs->legal(f->s, (unsigned)seat, &l);
        assert_true(k > 0);
        const uint8_t *item;
        size_t len;
        assert_int_equal(t_item(&l, (int)(t_next(&rng) % (uint64_t)k), &item, &len), 0);
        assert_int_equal(t_apply(f, (unsigned)seat, item, len), 0);
        assert_int_equal(wnlb_hand_count(f->s, WNLB_PR), 0);
        for (size_t u = 0; u < f->s->sc->n_units; u++)
            if (f->s->sc->units[u].army == WNLB_PR) assert_true(f->s->units[u].row < 0);
    }
    assert_true(f->s->turn <= 4);
    buf_free(&l);
    t_free(f);
}

/* [13.3] the squares' VPs: Mt St Jean F15/A0, Hougoumont F5/A10, La Haye Sainte F5/A5,
 * each of the three Plancenoit squares F0/A2 */
static void test_wnlb_13_3_square_vp_table(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 133);
    static const struct {
        const char *part;
        int fr, al;
    } table[] = {{"jean", 15, 0}, {"hougoumont", 5, 10}, {"haye", 5, 5}};
    for (size_t i = 0; i < 3; i++) {
        int v = s_vp(f, table[i].part, 0);
        assert_true(f->s->sc->vp[v].full_game);
        assert_int_equal(f->s->sc->vp[v].vp[0], table[i].fr);
        assert_int_equal(f->s->sc->vp[v].vp[1], table[i].al);
    }
    for (int k = 0; k < 3; k++) {
        int v = s_vp(f, "plancenoit", k);
        assert_true(f->s->sc->vp[v].full_game);
        assert_int_equal(f->s->sc->vp[v].vp[0], 0);
        assert_int_equal(f->s->sc->vp[v].vp[1], 2);
    }
    /* at the start the Allies own all six [3.1]: 10 + 5 + 0 + 3 x 2 = 21 */
    int32_t vp[2];
    wnlb_scores(f->s, vp);
    assert_int_equal(vp[0], 0);
    assert_int_equal(vp[1], 21);
    t_free(f);
}

/* [13.2] a Short Game at the end of turn 4 with the named VP squares (NULL-terminated) French,
 * the victory checked */
static t_fx *s_short_end(uint64_t seed, const char *const *french) {
    t_fx *f = t_new("short", 2, seed);
    for (; *french; french++) f->s->vp_owner[s_vp(f, *french, 0)] = WNLB_SIDE_FRENCH;
    f->s->turn = 4;
    wnlb_victory(f->s, &f->ev);
    return f;
}

/* [13.2] the French win with all three chateaux at the end of turn 4 */
static void test_wnlb_13_2_french_win_three_chateaux(void **st) {
    (void)st;
    static const char *const french[] = {"hougoumont", "haye", "frischermont", NULL};
    t_fx *f = s_short_end(132, french);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 1u);
    t_free(f);
}

/* [13.2] or with any two of them plus Mt St Jean */
static void test_wnlb_13_2_french_win_two_chateaux_and_msj(void **st) {
    (void)st;
    static const char *const french[] = {"haye", "frischermont", "jean", NULL};
    t_fx *f = s_short_end(132, french);
    assert_int_equal(f->s->winners, 1u);
    t_free(f);
}

/* [13.2] otherwise the British/Allied player wins: two chateaux without Mt St Jean */
static void test_wnlb_13_2_allies_win_otherwise(void **st) {
    (void)st;
    static const char *const french[] = {"hougoumont", "haye", NULL};
    t_fx *f = s_short_end(132, french);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 2u);
    t_free(f);
}

/* [13.2] [13.3] "to occupy a Square it is sufficient to be last player who has entered it":
 * a French unit entering Hougoumont makes it French, and it stays French once the unit left */
static void test_wnlb_13_2_last_to_occupy_counts(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 135);
    int v = s_vp(f, "hougoumont", 0);
    int r = f->s->sc->vp[v].row, c = f->s->sc->vp[v].col;
    int occupant = wnlb_unit_at(f->s, r, c);
    if (occupant >= 0) f->s->units[occupant].row = f->s->units[occupant].col = -1;
    int u = t_unit(f, WNLB_FR, WNLB_INF, 0);
    wnlb_place(f->s, u, r, c);
    assert_int_equal(f->s->vp_owner[v], WNLB_SIDE_FRENCH);
    wnlb_place(f->s, u, r + (r > 0 ? -1 : 1), c);
    assert_int_equal(f->s->vp_owner[v], WNLB_SIDE_FRENCH);
    t_free(f);
}

/* [13.3] equal VP totals: a draw */
static void test_wnlb_13_3_equal_vp_draw(void **st) {
    (void)st;
    t_fx *f = t_new("full", 2, 136);
    int32_t vp[2];
    wnlb_scores(f->s, vp);
    f->s->elim_vp[WNLB_SIDE_FRENCH] += vp[1] - vp[0];
    wnlb_scores(f->s, vp);
    assert_int_equal(vp[0], vp[1]);
    f->s->turn = 7;
    wnlb_victory(f->s, &f->ev);
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 0u);
    t_free(f);
}

/* [13.3] three players: the British and the Prussian win or lose together */
static void test_wnlb_13_3_allies_win_together(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 137);
    f->s->turn = 7;
    wnlb_victory(f->s, &f->ev); /* 0 against 21 [3.1] */
    assert_int_equal(f->s->over, 1);
    assert_int_equal(f->s->winners, 6u);
    t_free(f);
}

/* ---- [12.0] commanders ---------------------------------------------------------------- */

/* [12.0] an enemy unit adjacent to a Commander alone in his square: he is placed at once
 * with the nearest friendly combat unit (here one nearest: no choice to make) */
static void test_wnlb_12_0_lone_commander_displaced(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 120);
    t_cmd_at(f, 0, "E-6");
    t_put(f, t_unit(f, WNLB_FR, WNLB_INF, 0), "E-8", WNLB_N); /* 2 squares away */
    t_put(f, t_unit(f, WNLB_FR, WNLB_INF, 1), "H-6", WNLB_N); /* 3 squares away */
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "D-6", WNLB_S);  /* the enemy now adjacent */
    wnlb_commanders_check(f->s, &f->ev);
    t_cmd_is(f, 0, "E-8");
    t_free(f);
}

/* [12.0] "If the combat unit is eliminated, simply pick up the Commander and place him with
 * the nearest friendly unit": commanders are never eliminated. The battle part eliminates the
 * unit and calls wnlb_commander_displace (wnlb.h) */
static void test_wnlb_12_0_commander_never_eliminated(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 121);
    int u = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    (void)t_place(f, WNLB_BR, WNLB_INF, 1, "E-9", WNLB_S);
    t_cmd_at(f, 1, "E-6");
    f->s->units[u].eliminated = 1; /* [9.5] removed from the game */
    f->s->units[u].row = f->s->units[u].col = -1;
    f->s->phase = WNLB_PH_ROUND;
    wnlb_commander_displace(f->s, 1, &f->ev);
    t_cmd_is(f, 1, "E-9");
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_non_null(t_ev_kind(&f->ev, "displaced", 0));
    t_free(f);
}

/* [12.0] "player's choice, if there are 2 or more Squares equidistant": PH_DISPLACE for the
 * commander's owner, legal() lists the nearest squares, the timeout default is the lowest
 * square (R-wnlb-12.0-default); play returns to the phase it left */
static void test_wnlb_12_0_displace_choice_when_equidistant(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 123);
    t_cmd_at(f, 1, "E-6");
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "E-8", WNLB_S); /* two squares east */
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 1), "C-6", WNLB_S); /* two squares north */
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 2), "H-6", WNLB_S); /* three squares */
    f->s->phase = WNLB_PH_ROUND;
    wnlb_commander_displace(f->s, 1, &f->ev);
    assert_int_equal(f->s->phase, WNLB_PH_DISPLACE);
    assert_int_equal(t_actor(f), 1);
    t_cmd_is(f, 1, "E-6");
    assert_true(t_legal_has(f, 1, "displace E-8"));
    assert_true(t_legal_has(f, 1, "displace C-6"));
    assert_false(t_legal_has(f, 1, "displace H-6"));
    wnlb_order d;
    assert_int_equal(wnlb_default_order(f->s, 1, &d), 0);
    assert_int_equal(d.kind, WNLB_O_DISPLACE);
    int r, c;
    t_sq("C-6", &r, &c);
    assert_int_equal(d.row, r);
    assert_int_equal(d.col, c);
    T_NO(f, 1, "displace H-6");
    assert_string_equal(f->err.rule, "12.0");
    T_NO(f, 0, "displace E-8"); /* not the French seat's decision */
    T_OK(f, 1, "displace E-8");
    t_cmd_is(f, 1, "E-8");
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    t_free(f);
}

/* [12.0] in play: a French unit's move ends next to Wellington alone; he goes to the British
 * unit at once, and the French movement goes on */
static void test_wnlb_12_0_displaced_by_enemy_move(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 124);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "H-6", WNLB_N);
    t_cmd_at(f, 1, "E-6");
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "B-6", WNLB_S);
    t_move_card(f, 0, WNLB_FR, 4);
    char txt[48];
    snprintf(txt, sizeof txt, "move %s F", wnlb_unit_name(f->s, fr));
    T_OK(f, 0, txt); /* into G-6: not yet adjacent */
    t_cmd_is(f, 1, "E-6");
    T_OK(f, 0, txt); /* into F-6, next to E-6 */
    t_cmd_is(f, 1, "B-6");
    assert_non_null(t_ev_kind(&f->ev, "displaced", 0));
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    t_free(f);
}

/* [9.6] [12.0] R-wnlb-12.0-displace-when: the cavalry's window comes first ("before anything
 * else happens"); the displacements the move and the retreat owe follow, Napoleon's then
 * Wellington's, the owner choosing among equally near squares; then the movement goes on */
static void test_wnlb_12_0_displacement_after_cavalry_window(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 126);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "G-6", WNLB_N);
    (void)t_place(f, WNLB_BR, WNLB_CAV, 0, "E-6", WNLB_S);
    t_put(f, t_unit(f, WNLB_BR, WNLB_INF, 0), "H-8", WNLB_N);
    t_cmd_at(f, 0, "D-5");  /* alone, two squares from the cavalry */
    t_cmd_at(f, 1, "F-7");  /* alone, next to F-6 */
    t_move_card(f, 0, WNLB_FR, 4);
    char txt[48];
    snprintf(txt, sizeof txt, "move %s F", wnlb_unit_name(f->s, fr));
    T_OK(f, 0, txt); /* into F-6: next to the cavalry and to Wellington */
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    t_cmd_is(f, 1, "F-7"); /* not yet */
    T_OK(f, 1, "evade D-6 S"); /* next to Napoleon in D-5 */
    t_cmd_is(f, 0, "F-6");     /* the one French unit */
    /* Wellington: the cavalry in D-6 and the infantry in H-8 are both three squares away */
    assert_int_equal(f->s->phase, WNLB_PH_DISPLACE);
    assert_int_equal(t_actor(f), 1);
    T_OK(f, 1, "displace H-8");
    t_cmd_is(f, 1, "H-8");
    assert_int_equal(f->s->phase, WNLB_PH_MOVE);
    assert_int_equal(t_actor(f), 0);
    t_free(f);
}

/* R-wnlb-12.0-nearest: the distance is counted in steps across square sides, pond sides
 * blocking: a friendly unit behind a pond is farther than it looks */
static void test_wnlb_12_0_nearest_around_ponds(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 125);
    t_cmd_at(f, 0, "E-6");
    t_put(f, t_unit(f, WNLB_FR, WNLB_INF, 0), "E-7", WNLB_N); /* next door, behind a pond side */
    t_put(f, t_unit(f, WNLB_FR, WNLB_INF, 1), "E-4", WNLB_N); /* two squares west */
    t_side(f, "E-6", WNLB_E, WNLB_SIDE_POND);
    t_side(f, "D-6", WNLB_E, WNLB_SIDE_POND);
    t_side(f, "F-6", WNLB_E, WNLB_SIDE_POND);
    int rows[8], cols[8];
    assert_int_equal(wnlb_commander_nearest(f->s, 0, rows, cols, 8), 1);
    int r, c;
    t_sq("E-4", &r, &c);
    assert_int_equal(rows[0], r);
    assert_int_equal(cols[0], c);
    t_free(f);
}

/* [12.0] a Commander in the square of a retreating unit retreats with it */
static void test_wnlb_12_0_commander_retreats_with_unit(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 122);
    int u = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    t_cmd_at(f, 1, "E-6");
    int r, c;
    t_sq("D-6", &r, &c);
    wnlb_commander_follow(f->s, u, r, c);
    t_cmd_is(f, 1, "D-6");
    t_free(f);
}

/* a French round on a blank board: British infantry (2/1) in E-6 facing south, French infantry
 * (3/1) in F-6 facing north; the French play a Movement card, move nothing and attack it: 3
 * against 2 (not more than double), the British choose their loss [9.4] */
static t_fx *s_battle(t_board *b, uint64_t seed, int *br, int *fr) {
    t_fx *f = t_new_blank(b, "short", 2, seed);
    t_spare_hands(f);
    int move = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    *br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    *fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_values(f, *br, 2, 1, 0);
    t_values(f, *fr, 3, 1, 0);
    t_put(f, *br, "E-6", WNLB_S);
    t_put(f, *fr, "F-6", WNLB_N);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    t_card_no_move(f, move);
    return f;
}

static void s_attack_cards(t_fx *f, int br, int fr) {
    char t[96];
    snprintf(t, sizeof t, "attack %s with %s", f->s->sc->units[br].id, f->s->sc->units[fr].id);
    T_OK(f, 0, t);
    T_OK(f, 0, "cards none");
    T_OK(f, 1, "cards none");
    assert_int_equal(f->s->phase, WNLB_PH_LOSS);
}

/* [12.0] [9.4] "Commanders may never advance after a battle": Napoleon with the winning attacker
 * may not be the one to advance, and when his unit advances he stays in the square it left */
static void test_wnlb_12_0_commander_never_advances(void **st) {
    (void)st;
    t_board b;
    int br, fr;
    t_fx *f = s_battle(&b, 1201, &br, &fr);
    t_cmd_at(f, 0, "F-6");
    s_attack_cards(f, br, fr);
    T_OK(f, 1, "loss retreat D-6 S");
    assert_int_equal(f->s->phase, WNLB_PH_ADVANCE);
    assert_false(t_legal_has(f, 0, "advance NAPOLEON N"));
    T_NO(f, 0, "advance NAPOLEON N");
    assert_string_equal(f->err.rule, "12.0");
    t_cmd_is(f, 0, "F-6");
    assert_int_equal(f->s->phase, WNLB_PH_ADVANCE);
    char t[96];
    snprintf(t, sizeof t, "advance %s N", f->s->sc->units[fr].id);
    T_OK(f, 0, t);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[fr].row, r);
    assert_int_equal(f->s->units[fr].col, c);
    t_cmd_is(f, 0, "F-6"); /* he stays behind */
    t_free(f);
}

/* [12.0] R-wnlb-12.0-displace-when: a unit that advances [9.4] or retreats [9.5] next to an
 * enemy Commander alone in his square displaces him to the nearest friendly unit, at once; a
 * lone Commander next to an enemy unit that did not move stays */
static void test_wnlb_12_0_advance_or_retreat_displaces_lone_commander(void **st) {
    (void)st;
    t_board b;
    int br, fr;
    /* the advance: Wellington alone in E-5, beside the British unit's square E-6; the British
     * retreat to E-7, the French advance into E-6, next to him: he goes to E-7 (2 steps) */
    t_fx *f = s_battle(&b, 1202, &br, &fr);
    t_cmd_at(f, 1, "E-5");
    int fr2 = t_place(f, WNLB_FR, WNLB_INF, 1, "A-16", WNLB_N), br2 = t_unit(f, WNLB_BR, WNLB_INF, 1);
    t_cmd_at(f, 0, "I-3"); /* Napoleon alone, beside the British unit in J-3 that does not move */
    t_put(f, br2, "J-3", WNLB_N);
    s_attack_cards(f, br, fr);
    T_OK(f, 1, "loss retreat E-7 S");
    t_cmd_is(f, 1, "E-5"); /* E-7 is not next to E-5: nothing yet */
    char t[96];
    snprintf(t, sizeof t, "advance %s N", f->s->sc->units[fr].id);
    T_OK(f, 0, t);
    t_cmd_is(f, 1, "E-7");
    assert_non_null(t_ev_kind(&f->ev, "displaced", 0));
    t_cmd_is(f, 0, "I-3");
    t_free(f);
    /* the retreat: Napoleon alone in D-5; the British unit retreats into D-6, next to him; he
     * goes to the nearest French unit, F-6 (3 steps; J-2 is 6) */
    f = s_battle(&b, 1203, &br, &fr);
    fr2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    t_put(f, fr2, "J-2", WNLB_N);
    t_cmd_at(f, 0, "D-5");
    s_attack_cards(f, br, fr);
    T_OK(f, 1, "loss retreat D-6 S");
    t_cmd_is(f, 0, "F-6");
    t_free(f);
}

/* [13.3] a player gets the full-strength BPs of each enemy unit he eliminates (the
 * [13.3] example: the British 3/I, 4 BP, gives the French 4 VP) [9.5] */
static void test_wnlb_13_3_elimination_vp_full_strength(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new("full", 2, 134);
    t_own_board(f, &b);
    int u = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_values(f, u, 4, 2, 0);
    int32_t before = f->s->elim_vp[WNLB_SIDE_FRENCH];
    wnlb_reduce(f->s, u, &f->ev);
    assert_int_equal(f->s->units[u].reduced, 1);
    assert_int_equal(f->s->elim_vp[WNLB_SIDE_FRENCH], before); /* reduced units do not count */
    wnlb_reduce(f->s, u, &f->ev);
    assert_int_equal(f->s->units[u].eliminated, 1);
    assert_int_equal(f->s->elim_vp[WNLB_SIDE_FRENCH], before + 4);
    t_free(f);
}

/* [13.3] "To occupy a Square it is sufficient to be last player who has entered it" [13.2]: a
 * combat unit's entry (R-wnlb-13.3-occupy-combat-units); Napoleon entering Mt St Jean alone takes
 * nothing, the French infantry following him does */
static void test_wnlb_13_3_commander_alone_does_not_occupy(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 1301);
    t_empty_hand(f, WNLB_FR);
    int v = s_vp(f, "jean", 0);
    int r = f->s->sc->vp[v].row, c = f->s->sc->vp[v].col;
    assert_true(r + 2 < f->s->sc->rows);
    char below[8], two[8];
    wnlb_square_name(r + 1, c, below, sizeof below);
    wnlb_square_name(r + 2, c, two, sizeof two);
    assert_int_equal(f->s->vp_owner[v], WNLB_SIDE_ALLIED); /* [3.1] */
    t_cmd_at(f, 0, below);
    int u = t_place(f, WNLB_FR, WNLB_INF, 0, two, WNLB_N);
    int card = t_give(f, WNLB_FR, 6, 1, WNLB_ACT_NONE, 0);
    char txt[48];
    snprintf(txt, sizeof txt, "play %d move", card);
    T_OK(f, 0, txt);
    T_OK(f, 0, "move NAPOLEON N");
    assert_int_equal(f->s->cmd_row[0], r);
    assert_int_equal(f->s->cmd_col[0], c);
    assert_int_equal(f->s->vp_owner[v], WNLB_SIDE_ALLIED);
    snprintf(txt, sizeof txt, "move %s FF", f->s->sc->units[u].id);
    T_OK(f, 0, txt);
    assert_int_equal(f->s->units[u].row, r);
    assert_int_equal(f->s->vp_owner[v], WNLB_SIDE_FRENCH);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_13_1_scenario_turn_counts),
        cmocka_unit_test(test_wnlb_13_1_short_excludes_prussians),
        cmocka_unit_test(test_wnlb_13_3_square_vp_table),
        cmocka_unit_test(test_wnlb_13_2_french_win_three_chateaux),
        cmocka_unit_test(test_wnlb_13_2_french_win_two_chateaux_and_msj),
        cmocka_unit_test(test_wnlb_13_2_allies_win_otherwise),
        cmocka_unit_test(test_wnlb_13_2_last_to_occupy_counts),
        cmocka_unit_test(test_wnlb_13_3_equal_vp_draw),
        cmocka_unit_test(test_wnlb_13_3_allies_win_together),
        cmocka_unit_test(test_wnlb_12_0_lone_commander_displaced),
        cmocka_unit_test(test_wnlb_12_0_commander_never_eliminated),
        cmocka_unit_test(test_wnlb_12_0_commander_retreats_with_unit),
        cmocka_unit_test(test_wnlb_12_0_displace_choice_when_equidistant),
        cmocka_unit_test(test_wnlb_12_0_displaced_by_enemy_move),
        cmocka_unit_test(test_wnlb_12_0_nearest_around_ponds),
        cmocka_unit_test(test_wnlb_12_0_displacement_after_cavalry_window),
        cmocka_unit_test(test_wnlb_13_3_elimination_vp_full_strength),
        cmocka_unit_test(test_wnlb_12_0_commander_never_advances),
        cmocka_unit_test(test_wnlb_12_0_advance_or_retreat_displaces_lone_commander),
        cmocka_unit_test(test_wnlb_13_3_commander_alone_does_not_occupy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
