/*
 * test_wnlb_cases_10_11.c - rule cases of Chateaux [10.0] and Actions [11.0]-[11.7]
 * (Napoleon's Last Battle), on the fixture's own board (wnlb_t.h: t_blank);
 * docs/wnlb-cases/10.md and 11.md map every case to its test.
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

static int32_t s_def_base(t_fx *f, int target, int attacker) {
    wnlb_battle b;
    memset(&b, 0, sizeof b);
    b.target = (int8_t)target;
    b.n_att = 1;
    b.att[0] = (int8_t)attacker;
    b.att_army = (uint8_t)f->s->sc->units[attacker].army;
    int elite[2] = {0, 0};
    int32_t att = 0, def = 0, per[WNLB_MAX_ATTACKERS] = {0};
    wnlb_battle_base(f->s, &b, elite, &att, &def, per);
    return def;
}

static int32_t s_att_base(t_fx *f, int target, int attacker) {
    wnlb_battle b;
    memset(&b, 0, sizeof b);
    b.target = (int8_t)target;
    b.n_att = 1;
    b.att[0] = (int8_t)attacker;
    b.att_army = (uint8_t)f->s->sc->units[attacker].army;
    int elite[2] = {0, 0};
    int32_t att = 0, def = 0, per[WNLB_MAX_ATTACKERS] = {0};
    wnlb_battle_base(f->s, &b, elite, &att, &def, per);
    return att;
}

/* [10.0] an infantry unit inside a chateau doubles its printed BPs */
static void test_wnlb_10_0_infantry_in_chateau_doubles(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 100);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0), fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_values(f, br, 3, 1, 0);
    t_values(f, fr, 3, 1, 0);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, fr, "F-6", WNLB_N);
    assert_int_equal(s_def_base(f, br, fr), 3);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    assert_int_equal(s_def_base(f, br, fr), 6);
    t_free(f);
}

/* [10.0] infantry in a chateau faces frontally to all sides: no flank or rear bonus */
static void test_wnlb_10_0_chateau_no_flank_or_rear(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 101);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0), fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_values(f, br, 3, 1, 0);
    t_values(f, fr, 2, 1, 0);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, fr, "D-6", WNLB_S); /* into the rear */
    assert_int_equal(s_att_base(f, br, fr), 6); /* [9.3] rear triples */
    t_terrain(f, "E-6", WNLB_CHATEAU);
    assert_int_equal(s_att_base(f, br, fr), 2);
    t_free(f);
}

/* [10.0] "Defending cavalry units treat a chateau as if it were a village": doubled as in a
 * village [9.3], but the flank and rear bonuses apply to attackers */
static void test_wnlb_10_0_cavalry_in_chateau_as_village(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 102);
    int cav = t_unit(f, WNLB_BR, WNLB_CAV, 0), fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_values(f, cav, 2, 1, 0);
    t_values(f, fr, 2, 1, 0);
    t_put(f, cav, "E-6", WNLB_S);
    t_put(f, fr, "D-6", WNLB_S);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    assert_int_equal(s_def_base(f, cav, fr), 4);
    assert_int_equal(s_att_base(f, cav, fr), 6);
    t_free(f);
}

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

/* [10.0] Artillery Fire has no effect on a unit inside a chateau */
static void test_wnlb_10_0_artillery_fire_no_effect_in_chateau(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 115);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0), br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, fr, "F-6", WNLB_N);
    t_put(f, br, "E-6", WNLB_S);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    int c = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    (void)s_action(f, 0, c, WNLB_ACT_ARTILLERY, s_id(f, fr), NULL, NULL);
    assert_int_equal(f->s->units[br].disordered, 0);
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

/* ---- [11.4] Cavalry Charge ---------------------------------------------------------- */

/* plays a Cavalry Charge card: charger `cav`, `n` squares straight ahead, onto `target` */
static int s_charge(t_fx *f, int card, int cav, int target, int n) {
    Wnlb__V1__Order o = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play play = WNLB__V1__PLAY__INIT;
    char *units[1] = {(char *)s_id(f, cav)};
    uint32_t path[2] = {1, 2};
    play.card = (uint32_t)card;
    play.purpose = WNLB_PURPOSE_ACTION;
    play.action = WNLB_ACT_CHARGE;
    play.n_units = 1;
    play.units = units;
    play.target = (char *)s_id(f, target);
    play.n_path = (size_t)n;
    play.path = path;
    o.kind_case = WNLB__V1__ORDER__KIND_PLAY;
    o.play = &play;
    size_t len;
    uint8_t *bytes = canon_pack(&o.base, &len);
    assert_non_null(bytes);
    int rc = t_apply(f, 0, bytes, len);
    free(bytes);
    return rc;
}

/* French cavalry in H-6 facing north, a British infantry target in E-6 facing south */
static t_fx *s_charge_setup(t_board *b, int *cav, int *tgt, int *card) {
    t_fx *f = s_blank_round(b, 140);
    *cav = t_unit(f, WNLB_FR, WNLB_CAV, 0);
    *tgt = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_put(f, *cav, "H-6", WNLB_N);
    t_put(f, *tgt, "E-6", WNLB_S);
    *card = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_CHARGE, 0);
    return f;
}

static void s_at(const t_fx *f, int u, const char *sq) {
    int r, c;
    t_sq(sq, &r, &c);
    assert_int_equal(f->s->units[u].row, r);
    assert_int_equal(f->s->units[u].col, c);
}

/* [11.4] one cavalry unit moves one or two squares without changing facing and attacks the
 * enemy it moves adjacent to; a Moved marker after */
static void test_wnlb_11_4_charge_moves_straight_and_attacks(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    s_at(f, cav, "F-6");
    assert_int_equal(f->s->units[cav].facing, WNLB_N);
    assert_int_equal(f->s->units[cav].moved, 1);
    assert_int_equal(f->s->battle.target, tgt);
    assert_int_equal(f->s->battle.charge, 1);
    assert_int_equal(f->s->battle.n_att, 1); /* the charger alone */
    t_free(f);
}

/* [11.4] "The charging unit may not start adjacent to its target" */
static void test_wnlb_11_4_charge_not_from_adjacent(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_put(f, cav, "F-6", WNLB_N);
    assert_int_not_equal(s_charge(f, card, cav, tgt, 1), 0);
    s_at(f, cav, "F-6");
    t_free(f);
}

/* [11.4] not against a target in woods, villages or chateaux; the charger may not move across
 * a ridge or stream side */
static void test_wnlb_11_4_charge_terrain_limits(void **st) {
    (void)st;
    static const int terr[] = {WNLB_WOODS, WNLB_VILLAGE, WNLB_CHATEAU};
    for (int i = 0; i < 3; i++) {
        t_board b;
        int cav, tgt, card;
        t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
        t_terrain(f, "E-6", terr[i]);
        assert_int_not_equal(s_charge(f, card, cav, tgt, 2), 0);
        s_at(f, cav, "H-6");
        t_free(f);
    }
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_side(f, "H-6", WNLB_N, WNLB_SIDE_STREAM);
    assert_int_not_equal(s_charge(f, card, cav, tgt, 2), 0);
    s_at(f, cav, "H-6");
    t_free(f);
}

/* [11.4] a cavalry unit with a Moved marker may charge; a Disordered one may not */
static void test_wnlb_11_4_moved_may_charge_disordered_not(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    f->s->units[cav].disordered = 1;
    assert_int_not_equal(s_charge(f, card, cav, tgt, 2), 0);
    f->s->units[cav].disordered = 0;
    f->s->units[cav].moved = 1;
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    s_at(f, cav, "F-6");
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
        cmocka_unit_test(test_wnlb_10_0_infantry_in_chateau_doubles),
        cmocka_unit_test(test_wnlb_10_0_chateau_no_flank_or_rear),
        cmocka_unit_test(test_wnlb_10_0_cavalry_in_chateau_as_village),
        cmocka_unit_test(test_wnlb_10_0_artillery_fire_no_effect_in_chateau),
        cmocka_unit_test(test_wnlb_11_1_artillery_fire_disorders_front_enemy),
        cmocka_unit_test(test_wnlb_11_1_disordered_unit_may_not_fire),
        cmocka_unit_test(test_wnlb_11_1_fire_only_to_front),
        cmocka_unit_test(test_wnlb_11_1_fire_never_eliminates),
        cmocka_unit_test(test_wnlb_11_6_rally_removes_two_disorders),
        cmocka_unit_test(test_wnlb_11_6_rally_flips_reduced_not_adjacent),
        cmocka_unit_test(test_wnlb_11_6_moved_unit_not_rallied),
        cmocka_unit_test(test_wnlb_11_7_napoleons_health_removes_two),
        cmocka_unit_test(test_wnlb_11_4_charge_moves_straight_and_attacks),
        cmocka_unit_test(test_wnlb_11_4_charge_not_from_adjacent),
        cmocka_unit_test(test_wnlb_11_4_charge_terrain_limits),
        cmocka_unit_test(test_wnlb_11_4_moved_may_charge_disordered_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
