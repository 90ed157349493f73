/*
 * test_wnlb_cases_10_11.c - rule cases of Chateaux [10.0], Command Benefit [11.2], Elite Bonus
 * [11.3], Cavalry Charge [11.4] and Enemy Cavalry must Charge [11.5] (Napoleon's Last Battle), on
 * the fixture's own board (wnlb_t.h: t_blank); docs/wnlb-cases/10.md and 11.md map every case to
 * its test. (The cases of [11.1], [11.6] and [11.7] are the actions part's.)
 */
#include "wnlb_t.h"

/* a French round of turn 1 on a blank board; the French hand emptied */
static t_fx *s_blank_round(t_board *b, uint64_t seed) {
    t_fx *f = t_new_blank(b, "short", 2, seed);
    t_spare_hands(f); /* spare cards: the hands never run out */
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    return f;
}

/* [9.3] the base battle points of one attacker against target, before any card */
static void s_base(t_fx *f, int target, int attacker, int32_t *att, int32_t *def) {
    wnlb_battle b;
    memset(&b, 0, sizeof b);
    b.target = (int8_t)target;
    b.n_att = 1;
    b.att[0] = (int8_t)attacker;
    b.att_army = (uint8_t)f->s->sc->units[attacker].army;
    int elite[2] = {0, 0};
    int32_t per[WNLB_MAX_ATTACKERS] = {0};
    *att = *def = 0;
    wnlb_battle_base(f->s, &b, elite, att, def, per);
}

static int32_t s_def_base(t_fx *f, int target, int attacker) {
    int32_t att, def;
    s_base(f, target, attacker, &att, &def);
    return def;
}

static int32_t s_att_base(t_fx *f, int target, int attacker) {
    int32_t att, def;
    s_base(f, target, attacker, &att, &def);
    return att;
}

/* [10.0] an infantry unit inside a chateau doubles its printed BPs */
static void test_wnlb_10_0_infantry_in_chateau_doubles(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 100);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 3, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 3, 1, 0);
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
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 3, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "D-6", WNLB_S, 2, 1, 0); /* into the rear */
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
    int cav = t_place_v(f, WNLB_BR, WNLB_CAV, 0, "E-6", WNLB_S, 2, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "D-6", WNLB_S, 2, 1, 0);
    t_terrain(f, "E-6", WNLB_CHATEAU);
    assert_int_equal(s_def_base(f, cav, fr), 4);
    assert_int_equal(s_att_base(f, cav, fr), 6);
    t_free(f);
}

/* ---- [11.4] Cavalry Charge ---------------------------------------------------------- */

/* A card played for its Action in the round [11.0]: what rounds.c does (on a clone: the card used
 * and counted) and then the charge itself, wnlb_charge_start, as the actions part calls it for a
 * Cavalry Charge [11.4] or Enemy Cavalry must Charge [11.5] card. The order comes in its wire form
 * (wnlb.v1.Play) and is decoded as apply() decodes it. */
static int s_play_charge(t_fx *f, unsigned seat, const uint8_t *bytes, size_t len) {
    t_ev_clear(&f->ev);
    memset(&f->err, 0, sizeof f->err);
    wnlb_order o;
    if (wnlb_order_decode(f->s, bytes, len, &o, &f->err)) return -1;
    int ci = wnlb_card_in_hand(f->s, f->s->round_army, o.card);
    if (ci < 0 || f->s->phase != WNLB_PH_ROUND || o.purpose != WNLB_PURPOSE_ACTION) return -1;
    wnlb_state *t = wnlb_state_clone(f->s);
    assert_non_null(t);
    wnlb_card_use(t, ci);
    t->round_cards++;
    t->cur_card = (uint8_t)(ci + 1);
    int rc = wnlb_charge_start(t, seat, &o, ci, &f->ev, &f->err);
    if (rc == 0) memcpy(f->s, t, sizeof *t);
    wnlb_state_destroy(&t);
    return rc;
}

/* plays a charge card (action WNLB_ACT_CHARGE: `n` squares ahead; WNLB_ACT_ENEMY_CHARGE: the
 * enemy `cav` must charge) for seat: charger `cav` onto `target` */
static int s_charge_as(t_fx *f, unsigned seat, int card, int action, int cav, int target, int n) {
    Wnlb__V1__Order o = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play play = WNLB__V1__PLAY__INIT;
    char *units[1] = {(char *)t_id(f, cav)};
    uint32_t path[2] = {1, 2};
    play.card = (uint32_t)card;
    play.purpose = WNLB_PURPOSE_ACTION;
    play.action = (uint32_t)action;
    play.n_units = 1;
    play.units = units;
    play.target = (char *)t_id(f, target);
    play.n_path = (size_t)n;
    play.path = path;
    o.kind_case = WNLB__V1__ORDER__KIND_PLAY;
    o.play = &play;
    size_t len;
    uint8_t *bytes = canon_pack(&o.base, &len);
    assert_non_null(bytes);
    int rc = s_play_charge(f, seat, bytes, len);
    free(bytes);
    return rc;
}

static int s_charge(t_fx *f, int card, int cav, int target, int n) {
    return s_charge_as(f, 0, card, WNLB_ACT_CHARGE, cav, target, n);
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

/* [11.4] one cavalry unit moves one or two squares without changing facing and attacks the
 * enemy it moves adjacent to; a Moved marker after */
static void test_wnlb_11_4_charge_moves_straight_and_attacks(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    t_at(f, cav, "F-6");
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
    t_at(f, cav, "F-6");
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
        t_at(f, cav, "H-6");
        t_free(f);
    }
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_side(f, "H-6", WNLB_N, WNLB_SIDE_STREAM);
    assert_int_not_equal(s_charge(f, card, cav, tgt, 2), 0);
    t_at(f, cav, "H-6");
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
    t_at(f, cav, "F-6");
    t_free(f);
}

/* ---- battles: the French round's Movement card, then the battle in text ----------------- */

#define PHASE(f, ph)                                                                               \
    do {                                                                                           \
        if ((f)->s->phase != (ph)) fail_msg("phase %d, expected %d", (f)->s->phase, (ph));         \
    } while (0)

/* the French play a fresh Movement card and end its movement: PH_DECLARE [9.0] */
static void s_card(t_fx *f) {
    t_card_no_move(f, t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0));
}

static void s_attack(t_fx *f, unsigned seat, int target, int a, int b) {
    char t[96];
    snprintf(t, sizeof t, "attack %s with %s%s%s", t_id(f, target), t_id(f, a), b >= 0 ? " " : "",
             b >= 0 ? t_id(f, b) : "");
    T_OK(f, seat, t);
    PHASE(f, WNLB_PH_BATTLE_CARDS);
}

/* [9.3] neither side plays a battle card: the battle is resolved */
static void s_no_cards(t_fx *f) {
    T_OK(f, 0, "cards none");
    T_OK(f, 1, "cards none");
}

/* [9.0] a fresh French Movement card played, the battle on target by one attacker declared and
 * fought without battle cards */
static void s_battle(t_fx *f, int target, int a) {
    s_card(f);
    s_attack(f, 0, target, a, -1);
    s_no_cards(f);
}

/* the square sq becomes the chateau 0 of the fixture's board with cdp CDP [10.0] */
static void s_chateau(t_fx *f, const char *sq, int cdp) {
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    int r, c;
    t_sq(sq, &r, &c);
    if (sc->n_chateaux < 1) sc->n_chateaux = 1;
    sc->chateaux[0].row = (int8_t)r;
    sc->chateaux[0].col = (int8_t)c;
    sc->chateaux[0].cdp = (uint8_t)cdp;
    f->s->cdp[0] = (uint8_t)cdp;
    t_terrain(f, sq, WNLB_CHATEAU);
    assert_int_equal(wnlb_chateau_at(f->s, r, c), 0);
}

/* [10.0] the CDP absorb the losses of "any attack on that chateau": an infantry unit attacking
 * out of a chateau that loses to a defender with more than double is Reduced, the CDP untouched
 * (R-wnlb-10.0-cdp) */
static void test_wnlb_10_0_cdp_only_for_the_defender(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 108);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 5, 2, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 2, 1, 0);
    s_chateau(f, "F-6", 2);
    s_battle(f, br, fr); /* 2 (the chateau doubles defenders only) against 5: more than double */
    assert_int_equal(f->s->battle.total[0], 2);
    assert_int_equal(f->s->battle.total[1], 5);
    assert_int_equal(f->s->units[fr].reduced, 1);
    assert_int_equal(f->s->cdp[0], 2);
    assert_int_not_equal(f->s->phase, WNLB_PH_LOSS);
    t_free(f);
}

/* [10.0] "These CDP are not added to the BP total for any attack on that chateau" */
static void test_wnlb_10_0_cdp_not_added_to_bp(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 103);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 3, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 7, 3, 0);
    s_chateau(f, "E-6", 3);
    assert_int_equal(s_def_base(f, br, fr), 6);
    s_battle(f, br, fr);
    assert_int_equal(f->s->battle.total[1], 6);
    assert_int_equal(f->s->battle.total[0], 7);
    t_free(f);
}

/* [10.0] a losing infantry unit inside spends one CDP for each Reduction and/or Retreat (A3: the
 * attacker more than double: two CDP); it stays, unreduced, and nothing is vacated */
static void test_wnlb_10_0_cdp_absorbs_reduction_and_retreat(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 104);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 2, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 9, 3, 0);
    s_chateau(f, "E-6", 2);
    s_battle(f, br, fr); /* 9 against 4 */
    assert_int_equal(f->s->battle.more_than_double, 1);
    assert_true(t_legal_has(f, 1, "loss cdp"));
    T_OK(f, 1, "loss cdp");
    PHASE(f, WNLB_PH_LOSS); /* the Retreat is still owed */
    T_OK(f, 1, "loss cdp");
    assert_int_equal(f->s->cdp[0], 0);
    assert_int_equal(f->s->units[br].reduced, 0);
    t_at(f, br, "E-6");
    PHASE(f, WNLB_PH_ROUND);
    t_free(f);
}

/* [10.0] "Only when a chateau has no CDP remaining must the defending unit take a Reduction (or
 * Retreat)"; a defending cavalry unit gets no CDP benefit */
static void test_wnlb_10_0_no_cdp_left_takes_loss(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 105);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 2, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 5, 3, 0);
    s_chateau(f, "E-6", 0);
    s_battle(f, br, fr); /* 5 against 4 */
    T_NO(f, 1, "loss cdp");
    assert_string_equal(f->err.rule, "10.0");
    T_OK(f, 1, "loss reduce");
    assert_int_equal(f->s->units[br].reduced, 1);
    /* cavalry inside: no CDP even with CDP left */
    int cav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    t_put(f, br, "A-1", WNLB_S);
    t_values(f, cav, 2, 1, 0);
    t_put(f, cav, "E-6", WNLB_S);
    f->s->cdp[0] = 2;
    s_battle(f, cav, fr); /* 5 against 4 (as in a village) */
    PHASE(f, WNLB_PH_LOSS);
    assert_false(t_legal_has(f, 1, "loss cdp"));
    T_NO(f, 1, "loss cdp");
    T_OK(f, 1, "loss reduce");
    assert_int_equal(f->s->cdp[0], 2);
    t_free(f);
}

/* [10.0] "The playing of a Artillery Fire card has no effect on units inside a chateau - even if
 * the chateau has no CDP remaining": no Disorder; in a battle, the defender's Artillery Fire
 * at an attacker inside a chateau is refused (it would do nothing) */
static void test_wnlb_10_0_artillery_fire_no_effect_in_chateau(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 115);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    s_chateau(f, "F-6", 0);
    wnlb_disorder(f->s, fr, &f->ev);
    assert_int_equal(f->s->units[fr].disordered, 0);
    int art = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    s_card(f);
    s_attack(f, 0, br, fr, -1);
    T_OK(f, 0, "cards none");
    char t[64];
    snprintf(t, sizeof t, "cards %d:artillery fire %s", art, t_id(f, br));
    T_NO(f, 1, t);
    assert_string_equal(f->err.rule, "10.0");
    assert_int_equal(f->s->units[fr].disordered, 0);
    t_free(f);
}

/* [11.2] "depending on whether it is attacking or defending (and who the Commander is, as per
 * the card)": Napoleon's attacking card gives +2 to each attacker in his square or the four around
 * it; a defending card gives the attacker nothing and is refused */
static void test_wnlb_11_2_command_benefit_attack_or_defence(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 120);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 10, 5, 0);
    int a = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 2, 1, 0);
    int c = t_place_v(f, WNLB_FR, WNLB_INF, 1, "E-5", WNLB_E, 2, 1, 0);
    t_cmd_at(f, 0, "F-5"); /* next to both attackers, diagonal to the defender */
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    int def_card = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_COMMAND, 2);
    sc->cards[wnlb_card_index(f->s, def_card)].cmd_attack = 0;
    int att_card = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_COMMAND, 2);
    sc->cards[wnlb_card_index(f->s, att_card)].cmd_attack = 1;
    s_card(f);
    s_attack(f, 0, br, a, c);
    char t[64];
    snprintf(t, sizeof t, "cards %d:command", def_card);
    T_NO(f, 0, t);
    assert_string_equal(f->err.rule, "11.2");
    snprintf(t, sizeof t, "cards %d:command", att_card);
    T_OK(f, 0, t);
    T_OK(f, 1, "cards none");
    /* front 2 + 2, flank 2 x 2 + 2 */
    assert_int_equal(f->s->battle.total[0], 10);
    assert_int_equal(f->s->battle.total[1], 10);
    t_free(f);
}

/* [11.3] both sides may play an Elite Bonus in one battle, "applied before any other effect":
 * the attacker 2 x 2 (Elite) x 2 (flank) = 8; the defender 3 x 2 (village) x 2 (Elite) = 12 */
static void test_wnlb_11_3_both_sides_elite_bonus(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 130);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 3, 1, 1);
    int a = t_place_v(f, WNLB_FR, WNLB_INF, 0, "E-7", WNLB_W, 2, 1, 1);
    t_terrain(f, "E-6", WNLB_VILLAGE);
    int fe = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ELITE, 0), be = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ELITE, 0);
    s_card(f);
    s_attack(f, 0, br, a, -1);
    char t[64];
    snprintf(t, sizeof t, "cards %d:elite", fe);
    T_OK(f, 0, t);
    snprintf(t, sizeof t, "cards %d:elite", be);
    T_OK(f, 1, t);
    assert_int_equal(f->s->battle.total[0], 8);
    assert_int_equal(f->s->battle.total[1], 12);
    t_free(f);
}

/* [11.4] a heavy charger triples, a light one doubles, before the position bonus; no bonus into
 * infantry's front; the bonus applies against cavalry */
static void test_wnlb_11_4_charge_multipliers(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 141);
    int br = t_unit(f, WNLB_BR, WNLB_INF, 0), cav = t_unit(f, WNLB_FR, WNLB_CAV, 0);
    int bcav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    t_values(f, br, 3, 1, 0);
    t_values(f, bcav, 3, 1, 0);
    t_values(f, cav, 2, 1, 0);
    t_put(f, br, "E-6", WNLB_S);
    t_put(f, cav, "E-7", WNLB_W); /* into the flank */
    wnlb_battle bt;
    memset(&bt, 0, sizeof bt);
    bt.target = (int8_t)br;
    bt.n_att = 1;
    bt.att[0] = (int8_t)cav;
    bt.att_army = WNLB_FR;
    bt.charge = 1;
    int elite[2] = {0, 0};
    int32_t att, def, per[1];
    sc->units[cav].heavy = 1;
    wnlb_battle_base(f->s, &bt, elite, &att, &def, per);
    assert_int_equal(att, 2 * 3 * 2);
    sc->units[cav].heavy = 0;
    wnlb_battle_base(f->s, &bt, elite, &att, &def, per);
    assert_int_equal(att, 2 * 2 * 2);
    t_put(f, cav, "F-6", WNLB_N); /* into the infantry's front: no bonus */
    sc->units[cav].heavy = 1;
    wnlb_battle_base(f->s, &bt, elite, &att, &def, per);
    assert_int_equal(att, 2);
    t_put(f, bcav, "E-6", WNLB_S); /* against cavalry's front: the bonus */
    t_put(f, br, "A-1", WNLB_S);
    bt.target = (int8_t)bcav;
    wnlb_battle_base(f->s, &bt, elite, &att, &def, per);
    assert_int_equal(att, 6);
    bt.charge = 0; /* no charge, no bonus */
    wnlb_battle_base(f->s, &bt, elite, &att, &def, per);
    assert_int_equal(att, 2);
    t_free(f);
}

/* [11.4] "The only cards both players may play in the resulting battle are Elite Bonus cards" */
static void test_wnlb_11_4_only_elite_cards_in_charge_battle(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_values(f, cav, 2, 1, 1);
    int fbp = t_give(f, WNLB_FR, 1, 3, WNLB_ACT_NONE, 0), fel = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_ELITE, 0);
    int bbp = t_give(f, WNLB_BR, 1, 3, WNLB_ACT_NONE, 0), bart = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    PHASE(f, WNLB_PH_BATTLE_CARDS);
    char t[64];
    snprintf(t, sizeof t, "cards %d:bp", fbp);
    T_NO(f, 0, t);
    assert_string_equal(f->err.rule, "11.4");
    assert_false(t_legal_has(f, 0, t));
    snprintf(t, sizeof t, "cards %d:elite", fel);
    assert_true(t_legal_has(f, 0, t));
    T_OK(f, 0, t);
    snprintf(t, sizeof t, "cards %d:bp", bbp);
    T_NO(f, 1, t);
    snprintf(t, sizeof t, "cards %d:artillery fire %s", bart, t_id(f, tgt));
    T_NO(f, 1, t);
    T_OK(f, 1, "cards none");
    t_free(f);
}

/* [11.4] "Regardless of the results of the Charge, the charging cavalry unit is always
 * Disordered after the Charge" (a loss here: 2 against 4) */
static void test_wnlb_11_4_charger_disordered_after(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_values(f, cav, 2, 1, 0);
    t_values(f, tgt, 4, 2, 0);
    ((wnlb_scenario *)f->s->sc)->units[cav].heavy = 0;
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[cav].disordered, 0);
    s_no_cards(f);
    assert_int_equal(f->s->units[cav].disordered, 1);
    assert_int_equal(f->s->units[cav].moved, 1);
    assert_int_equal(f->s->units[cav].reduced, 0);
    t_free(f);
}

/* [9.0] Play Note, [11.4]: the charge's battle leaves the card's own attack (PH_DECLARE) */
static void test_wnlb_11_4_charge_leaves_another_attack(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_values(f, tgt, 4, 2, 0);
    int inf = t_place(f, WNLB_FR, WNLB_INF, 0, "K-2", WNLB_N);
    int other = t_place(f, WNLB_BR, WNLB_INF, 1, "J-2", WNLB_S);
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    s_no_cards(f);
    t_no_fire(f); /* R-wnlb-11.1-windows: the other side's window after the card */
    PHASE(f, WNLB_PH_DECLARE);
    assert_int_equal(t_actor(f), 0);
    s_attack(f, 0, other, inf, -1);
    assert_int_equal(f->s->round_cards, 1); /* one card: the charge */
    t_free(f);
}

/* a British round on a blank board: the French pass [4.0] */
static t_fx *s_british_round(t_board *b, const char *scenario, unsigned seats, uint64_t seed) {
    t_fx *f = t_bare(b, scenario, seats, seed);
    (void)t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    (void)t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    T_OK(f, 0, "pass");
    if (f->s->phase == WNLB_PH_DECK) T_OK(f, 1, "deck british");
    assert_int_equal(f->s->active_side, WNLB_SIDE_ALLIED);
    assert_int_equal(f->s->round_army, WNLB_BR);
    return f;
}

/* [11.5] the active side names an enemy cavalry unit in position to charge one of its units and
 * the target; the charger's owner then charges (PH_CHARGE: the distance that reaches the target);
 * the card's own attack follows for the active side */
static void test_wnlb_11_5_enemy_must_charge(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_british_round(&b, "short", 2, 150);
    int cav = t_place_v(f, WNLB_FR, WNLB_CAV, 0, "H-6", WNLB_N, 2, 1, 0);
    int tgt = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 5, 2, 0);
    int card = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ENEMY_CHARGE, 0);
    if (s_charge_as(f, 1, card, WNLB_ACT_ENEMY_CHARGE, cav, tgt, 0) != 0)
        fail_msg("enemy charge refused: [%s] %s", f->err.rule, f->err.message);
    PHASE(f, WNLB_PH_CHARGE);
    assert_int_equal(t_actor(f), 0);
    assert_false(t_legal_has(f, 0, "charge 1"));
    T_NO(f, 0, "charge 1");
    assert_true(t_legal_has(f, 0, "charge 2"));
    T_OK(f, 0, "charge 2");
    t_at(f, cav, "F-6");
    PHASE(f, WNLB_PH_BATTLE_CARDS);
    s_no_cards(f); /* 2 against 5 */
    assert_int_equal(f->s->units[cav].disordered, 1);
    PHASE(f, WNLB_PH_DECLARE);
    assert_int_equal(t_actor(f), 1);
    t_free(f);
}

/* [11.5] "Disordered enemy cavalry units may not be chosen" */
static void test_wnlb_11_5_disordered_enemy_not_designated(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_british_round(&b, "short", 2, 151);
    int cav = t_place(f, WNLB_FR, WNLB_CAV, 0, "H-6", WNLB_N);
    int tgt = t_place(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S);
    f->s->units[cav].disordered = 1;
    int card = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ENEMY_CHARGE, 0);
    assert_int_not_equal(s_charge_as(f, 1, card, WNLB_ACT_ENEMY_CHARGE, cav, tgt, 0), 0);
    assert_string_equal(f->err.rule, "11.5");
    assert_int_equal(f->s->phase, WNLB_PH_ROUND);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, card)], WNLB_LOC_HAND);
    t_free(f);
}

/* [11.5] three seats: the British may make a French unit charge a Prussian one; the French
 * charger's owner (seat 0) executes it; a French target is refused */
static void test_wnlb_11_5_three_seats_cross_ally_target(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_british_round(&b, "full", 3, 152);
    int cav = t_unit(f, WNLB_FR, WNLB_CAV, 0), pr = t_unit(f, WNLB_PR, WNLB_INF, 0);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_put(f, cav, "H-6", WNLB_N);
    t_put(f, pr, "E-6", WNLB_S);
    int card = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ENEMY_CHARGE, 0);
    t_put(f, fr, "E-6", WNLB_S);
    assert_int_not_equal(s_charge_as(f, 1, card, WNLB_ACT_ENEMY_CHARGE, cav, fr, 0), 0);
    t_put(f, fr, "A-1", WNLB_S);
    t_put(f, pr, "E-6", WNLB_S);
    if (s_charge_as(f, 1, card, WNLB_ACT_ENEMY_CHARGE, cav, pr, 0) != 0)
        fail_msg("enemy charge refused: [%s] %s", f->err.rule, f->err.message);
    PHASE(f, WNLB_PH_CHARGE);
    assert_int_equal(t_actor(f), 0);
    T_OK(f, 0, "charge 2");
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, (1u << 0) | (1u << 2)); /* the charger's and the Prussian target's seats */
    T_OK(f, 0, "cards none");
    T_OK(f, 2, "cards none");
    PHASE(f, WNLB_PH_LOSS); /* 2 x 2 (light) or x 3 (heavy) against the Prussian */
    assert_int_equal(t_actor(f), 2);
    t_free(f);
}

/* [10.0] "considered to be facing frontally to all sides": an infantry unit inside a chateau may
 * attack an adjacent enemy on any side (R-wnlb-10.0-chateau-facing); a cavalry unit inside may not */
static void test_wnlb_10_0_chateau_infantry_attacks_any_side(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 106);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int br = t_place(f, WNLB_BR, WNLB_INF, 0, "F-7", WNLB_W); /* east of the French unit, which faces north */
    assert_false(wnlb_can_attack(f->s, fr, br));
    s_chateau(f, "F-6", 2);
    assert_true(wnlb_can_attack(f->s, fr, br));
    s_card(f);
    s_attack(f, 0, br, fr, -1);
    int cav = t_unit(f, WNLB_FR, WNLB_CAV, 0);
    t_put(f, fr, "A-1", WNLB_N);
    t_put(f, cav, "F-6", WNLB_N);
    assert_false(wnlb_can_attack(f->s, cav, br));
    t_free(f);
}

/* [10.0] [9.5] a unit retreating out of a chateau: rear and flanks by its counter's facing (it has
 * none against attackers), then a free facing (R-wnlb-10.0-chateau-facing) */
static void test_wnlb_10_0_retreat_from_chateau(void **st) {
    (void)st;
    t_board b;
    t_fx *f = s_blank_round(&b, 107);
    int br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 2, 1, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 5, 2, 0);
    s_chateau(f, "E-6", 0);
    s_battle(f, br, fr); /* 5 against 4 */
    assert_false(t_legal_has(f, 1, "loss retreat F-6 N"));
    assert_true(t_legal_has(f, 1, "loss retreat E-5 W"));
    T_OK(f, 1, "loss retreat D-6 E");
    t_at(f, br, "D-6");
    assert_int_equal(f->s->units[br].facing, WNLB_E);
    t_free(f);
}

/* [9.4] [11.4] (A17) a charger that wins advances like any attacker (the Disorder comes after the
 * battle and does not stop an advance): light 2 x 2 (charge) x 2 (flank) = 8 against 5 */
static void test_wnlb_11_4_winning_charger_advances(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    t_values(f, cav, 2, 1, 0);
    t_values(f, tgt, 5, 2, 0);
    ((wnlb_scenario *)f->s->sc)->units[cav].heavy = 0;
    f->s->units[tgt].facing = WNLB_W; /* F-6 is its flank */
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    s_no_cards(f);
    assert_int_equal(f->s->battle.total[0], 8);
    T_OK(f, 1, "loss retreat D-6 N");
    PHASE(f, WNLB_PH_ADVANCE);
    char t[64];
    snprintf(t, sizeof t, "advance %s E", t_id(f, cav));
    T_OK(f, 0, t);
    t_at(f, cav, "E-6");
    assert_int_equal(f->s->units[cav].disordered, 1);
    PHASE(f, WNLB_PH_DECLARE); /* the card's own battle [9.0] */
    t_free(f);
}

/* [12.0] [11.4] a charge is a move: the lone enemy Commander next to the square the charger
 * ends in is displaced to the nearest friendly unit; a lone Commander next to an enemy unit that
 * did not move stays (R-wnlb-12.0-displace-when) */
static void test_wnlb_12_0_charge_displaces_lone_commander(void **st) {
    (void)st;
    t_board b;
    int cav, tgt, card;
    t_fx *f = s_charge_setup(&b, &cav, &tgt, &card);
    int br2 = t_unit(f, WNLB_BR, WNLB_INF, 1), r, c;
    t_put(f, br2, "J-11", WNLB_N);
    t_cmd_at(f, 1, "F-5"); /* Wellington alone, next to F-6 where the charge ends */
    t_cmd_at(f, 0, "J-10"); /* Napoleon alone, next to the British unit in J-11 */
    if (s_charge(f, card, cav, tgt, 2) != 0) fail_msg("charge refused: [%s] %s", f->err.rule, f->err.message);
    t_at(f, cav, "F-6");
    t_sq("E-6", &r, &c); /* the nearest British unit, 2 steps */
    assert_int_equal(f->s->cmd_row[1], r);
    assert_int_equal(f->s->cmd_col[1], c);
    t_sq("J-10", &r, &c);
    assert_int_equal(f->s->cmd_row[0], r);
    assert_int_equal(f->s->cmd_col[0], c);
    PHASE(f, WNLB_PH_BATTLE_CARDS);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_10_0_infantry_in_chateau_doubles),
        cmocka_unit_test(test_wnlb_10_0_chateau_no_flank_or_rear),
        cmocka_unit_test(test_wnlb_10_0_cavalry_in_chateau_as_village),
        cmocka_unit_test(test_wnlb_10_0_cdp_not_added_to_bp),
        cmocka_unit_test(test_wnlb_10_0_cdp_absorbs_reduction_and_retreat),
        cmocka_unit_test(test_wnlb_10_0_no_cdp_left_takes_loss),
        cmocka_unit_test(test_wnlb_10_0_cdp_only_for_the_defender),
        cmocka_unit_test(test_wnlb_10_0_artillery_fire_no_effect_in_chateau),
        cmocka_unit_test(test_wnlb_10_0_chateau_infantry_attacks_any_side),
        cmocka_unit_test(test_wnlb_10_0_retreat_from_chateau),
        cmocka_unit_test(test_wnlb_11_2_command_benefit_attack_or_defence),
        cmocka_unit_test(test_wnlb_11_3_both_sides_elite_bonus),
        cmocka_unit_test(test_wnlb_11_4_charge_moves_straight_and_attacks),
        cmocka_unit_test(test_wnlb_11_4_charge_not_from_adjacent),
        cmocka_unit_test(test_wnlb_11_4_charge_terrain_limits),
        cmocka_unit_test(test_wnlb_11_4_moved_may_charge_disordered_not),
        cmocka_unit_test(test_wnlb_11_4_charge_multipliers),
        cmocka_unit_test(test_wnlb_11_4_only_elite_cards_in_charge_battle),
        cmocka_unit_test(test_wnlb_11_4_charger_disordered_after),
        cmocka_unit_test(test_wnlb_11_4_charge_leaves_another_attack),
        cmocka_unit_test(test_wnlb_11_4_winning_charger_advances),
        cmocka_unit_test(test_wnlb_11_5_enemy_must_charge),
        cmocka_unit_test(test_wnlb_11_5_disordered_enemy_not_designated),
        cmocka_unit_test(test_wnlb_11_5_three_seats_cross_ally_target),
        cmocka_unit_test(test_wnlb_12_0_charge_displaces_lone_commander),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
