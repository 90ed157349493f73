/*
 * test_wnlb_cases_10_11.c (pending part) - rule cases of Artillery Fire [11.1], Rally [11.6] and
 * Napoleon's Health [11.7], waiting for the actions engine; the cases of [10.0] and [11.2]-[11.5]
 * passed and are in tests/unit/test_wnlb_cases_10_11.c. docs/wnlb-cases/10.md and 11.md map
 * every case to its test.
 */
#include "wnlb_t.h"

/* a French round of turn 1 on a blank board; the French hand emptied */
static t_fx *s_blank_round(t_board *b, uint64_t seed) {
    t_fx *f = t_new("short", 2, seed);
    t_blank(f, b);
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    return f;
}

/* the wire form of a card played for an action (wnlb.v1.Play) */
static int s_action(t_fx *f, unsigned seat, int card, int action, const char *unit, const char *unit2,
                    const char *target) {
    Wnlb__V1__Order o = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play play = WNLB__V1__PLAY__INIT;
    char *units[2] = {(char *)unit, (char *)unit2};
    play.card = (uint32_t)card;
    play.purpose = WNLB_PURPOSE_ACTION;
    play.action = (uint32_t)action;
    play.n_units = unit2 ? 2 : unit ? 1 : 0;
    play.units = units;
    if (target) play.target = (char *)target;
    o.kind_case = WNLB__V1__ORDER__KIND_PLAY;
    o.play = &play;
    size_t len;
    uint8_t *bytes = canon_pack(&o.base, &len);
    assert_non_null(bytes);
    int rc = t_apply(f, seat, bytes, len);
    free(bytes);
    return rc;
}

static const char *s_id(const t_fx *f, int u) { return f->s->sc->units[u].id; }

/* [11.1] Artillery Fire: a non-Disordered infantry unit Disorders the enemy frontally
 * adjacent to it */
static void test_wnlb_11_1_artillery_fire_disorders_front_enemy(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 111);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    assert_int_equal(wnlb_fire_target(f->s, fr), br);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    if (s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL) != 0)
        fail_msg("fire refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[br].disordered, 1);
    t_free(f);
}

/* [11.1] [9.5] a Disordered unit may not fire */
static void test_wnlb_11_1_disordered_unit_may_not_fire(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 112);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    f->s->units[fr].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL), 0);
    assert_int_equal(f->s->units[br].disordered, 0);
    t_free(f);
}

/* [11.1] only the enemy in the firing unit's front square */
static void test_wnlb_11_1_fire_only_to_front(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 113);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, fr, "F-6", WNLB_E);
    t_put(f, br, "E-6", WNLB_S); /* north of the firing unit, which faces east */
    assert_int_equal(wnlb_fire_target(f->s, fr), -1);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL), 0);
    t_free(f);
}

/* [11.1] [9.5] Artillery Fire never eliminates: a reduced Disordered unit fired on again is
 * unchanged; a full Disordered one is reduced and no longer Disordered */
static void test_wnlb_11_1_fire_never_eliminates(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 114);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_values(f, br, 4, 2, 0);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    f->s->units[br].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    if (s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL) != 0)
        fail_msg("fire refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[br].reduced, 1);
    assert_int_equal(f->s->units[br].disordered, 0);
    assert_int_equal(f->s->units[br].eliminated, 0);
    /* reduced and Disordered: "nothing happens in this case" */
    f->s->units[br].disordered = 1;
    c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    (void)s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL);
    assert_int_equal(f->s->units[br].eliminated, 0);
    assert_int_equal(f->s->units[br].reduced, 1);
    assert_true(f->s->units[br].row >= 0);
    t_free(f);
}

/* [11.6] Rally: remove the Disorder markers of two units, wherever they are */
static void test_wnlb_11_6_rally_removes_two_disorders(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 116);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0), c2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    t_put(f, a, "F-6", WNLB_N);
    t_put(f, c2, "H-9", WNLB_N);
    f->s->units[a].disordered = f->s->units[c2].disordered = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    if (s_action(f, 0, c, WNLB_ACT_RALLY, s_id(f, a), s_id(f, c2), NULL) != 0)
        fail_msg("rally refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[a].disordered, 0);
    assert_int_equal(f->s->units[c2].disordered, 0);
    assert_int_equal(f->s->units[a].rallied, 1); /* the Rally marker */
    t_free(f);
}

/* [11.6] or flip one Reduced unit not orthogonally adjacent to an enemy (diagonal is ok) */
static void test_wnlb_11_6_rally_flips_reduced_not_adjacent(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 117);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, a, "F-6", WNLB_N);
    f->s->units[a].reduced = 1;
    t_put(f, br, "E-6", WNLB_S);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, s_id(f, a), NULL, NULL), 0);
    assert_int_equal(f->s->units[a].reduced, 1);
    t_put(f, br, "E-7", WNLB_S); /* diagonal now */
    if (s_action(f, 0, c, WNLB_ACT_RALLY, s_id(f, a), NULL, NULL) != 0)
        fail_msg("rally refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[a].reduced, 0);
    t_free(f);
}

/* [11.6] a unit that has moved this round may not be rallied */
static void test_wnlb_11_6_moved_unit_not_rallied(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 118);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_put(f, a, "F-6", WNLB_N);
    f->s->units[a].disordered = 1;
    f->s->units[a].moved = 1;
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_RALLY, 0);
    assert_int_not_equal(s_action(f, 0, c, WNLB_ACT_RALLY, s_id(f, a), NULL, NULL), 0);
    assert_int_equal(f->s->units[a].disordered, 1);
    t_free(f);
}

/* [11.7] Napoleon's Health, played by the British/Allied player as an action in his round:
 * two cards drawn at random from the French hand go onto the unused portion */
static void test_wnlb_11_7_napoleons_health_removes_two(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 170);
    t_board b;
    t_own_board(f, &b);
    wnlb_order pass = t_o(WNLB_O_PASS);
    assert_int_equal(t_order(f, 0, &pass), 0); /* the French pass: the Allied round [4.0] */
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    if (f->s->phase == WNLB_PH_DECK) {
        wnlb_order d = t_o(WNLB_O_DECK);
        d.army = WNLB_BR;
        assert_int_equal(t_order(f, 1, &d), 0);
    }
    t_empty_hand(f, WNLB_BR);
    int c = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_HEALTH, 0);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 15);
    if (s_action(f, 1, c, WNLB_ACT_HEALTH, NULL, NULL, NULL) != 0)
        fail_msg("health refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(wnlb_hand_count(f->s, WNLB_FR), 13);
    assert_int_equal(wnlb_unused_count(f->s, WNLB_FR), 13);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, c)], WNLB_LOC_UNUSED);
    assert_true(f->d.n >= 2); /* drawn at random: the dice */
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_11_1_artillery_fire_disorders_front_enemy),
        cmocka_unit_test(test_wnlb_11_1_disordered_unit_may_not_fire),
        cmocka_unit_test(test_wnlb_11_1_fire_only_to_front),
        cmocka_unit_test(test_wnlb_11_1_fire_never_eliminates),
        cmocka_unit_test(test_wnlb_11_6_rally_removes_two_disorders),
        cmocka_unit_test(test_wnlb_11_6_rally_flips_reduced_not_adjacent),
        cmocka_unit_test(test_wnlb_11_6_moved_unit_not_rallied),
        cmocka_unit_test(test_wnlb_11_7_napoleons_health_removes_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
