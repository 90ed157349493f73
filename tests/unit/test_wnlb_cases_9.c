/*
 * test_wnlb_cases_9.c - rule cases of Battle [9.0]-[9.7] (Napoleon's Last Battle), with the
 * worked example of [9.7] and its Artillery Fire variant ([9.6] is the movement cases'). Each case is built on the
 * fixture's own board (wnlb_t.h: t_blank) with the unit and card values the text gives;
 * docs/wnlb-cases/09.md maps every case to its test.
 */
#include "wnlb_t.h"

/* ---- the [9.7] position ----------------------------------------------------------------
 * The British 3/I Corps Infantry (full 4) in E-6, facing south, Wellington with it; the French
 * 4/I Corps Infantry (3) in E-7 facing west (into the British flank), the 9/II Corps Infantry
 * (4) in F-6 facing north (into its front); both attack across a ridge side. */
typedef struct s97 {
    t_board b;
    t_fx *f;
    int br, f4, f9;            /* the units */
    int move, bp2, bp4;        /* French cards */
    int cmd, bp3, art;         /* British cards */
} s97;

static void s97_setup(s97 *x) {
    t_fx *f = x->f = t_new_blank(&x->b, "short", 2, 97);
    x->br = t_place_v(f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, 4, 2, 0);
    x->f4 = t_place_v(f, WNLB_FR, WNLB_INF, 0, "E-7", WNLB_W, 3, 1, 0);
    x->f9 = t_place_v(f, WNLB_FR, WNLB_INF, 1, "F-6", WNLB_N, 4, 2, 0);
    t_side(f, "E-6", WNLB_E, WNLB_SIDE_RIDGE);
    t_side(f, "E-6", WNLB_S, WNLB_SIDE_RIDGE);
    t_cmd_at(f, 1, "E-6");
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    x->move = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    x->bp2 = t_give(f, WNLB_FR, 1, 2, WNLB_ACT_NONE, 0);
    x->bp4 = t_give(f, WNLB_FR, 1, 4, WNLB_ACT_NONE, 0);
    x->cmd = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_COMMAND, 4);
    ((wnlb_scenario *)f->s->sc)->cards[wnlb_card_index(f->s, x->cmd)].cmd_attack = 0; /* Wellington defends [11.2] */
    x->bp3 = t_give(f, WNLB_BR, 1, 3, WNLB_ACT_NONE, 0);
    x->art = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_ARTILLERY, 0);
}

static const char *s_phase(int ph) {
    static const char *names[] = {"bidder", "bid", "deck", "round", "move", "declare", "fire", "battle-cards",
                                  "loss", "advance", "att-reduce", "cav-retreat", "displace", "charge", "over"};
    return ph >= 0 && ph <= WNLB_PH_OVER ? names[ph] : "?";
}

#define PHASE(f, ph)                                                                                     \
    do {                                                                                                 \
        if ((f)->s->phase != (ph)) fail_msg("phase %s, expected %s", s_phase((f)->s->phase), s_phase(ph)); \
    } while (0)
#define ORDER(f, seat, o)                                                                                \
    do {                                                                                                 \
        if (t_order((f), (seat), &(o)) != 0) fail_msg("refused: [%s] %s", (f)->err.rule, (f)->err.message); \
    } while (0)

/* the French play the Movement card, move nothing, and declare the battle of 4/I and 9/II on
 * 3/I [9.0] [9.2]; the British Artillery Fire "even during a battle" is among the sealed battle
 * cards (R-wnlb-11.1-battle-fire) */
static void s97_declare(s97 *x) {
    t_fx *f = x->f;
    wnlb_order o = t_play(x->move, WNLB_PURPOSE_MOVE);
    ORDER(f, 0, o);
    o = t_o(WNLB_O_DONE);
    ORDER(f, 0, o);
    t_no_fire(f);
    PHASE(f, WNLB_PH_DECLARE);
    o = t_o(WNLB_O_ATTACK);
    o.target = x->br;
    o.n_units = 2;
    o.units[0] = x->f4;
    o.units[1] = x->f9;
    ORDER(f, 0, o);
    PHASE(f, WNLB_PH_BATTLE_CARDS);
}

/* the French cards of [9.7]: BP 2 and BP 4 */
static void s97_french_cards(s97 *x) {
    wnlb_order o = t_o(WNLB_O_BATTLE_CARDS);
    o.n_cards = 2;
    o.cards[0] = x->bp2, o.purposes[0] = WNLB_USE_BP;
    o.cards[1] = x->bp4, o.purposes[1] = WNLB_USE_BP;
    ORDER(x->f, 0, o);
}

/* the British cards of [9.7] (an order, not given): Wellington's Command Benefit and BP 3; with
 * fire also the Artillery Fire card fired by 3/I at 9/II, its frontal neighbour [11.1] */
static wnlb_order s97_british_cards(const s97 *x, int fire) {
    wnlb_order o = t_o(WNLB_O_BATTLE_CARDS);
    o.n_cards = 2;
    o.cards[0] = x->cmd, o.purposes[0] = WNLB_ACT_COMMAND;
    o.cards[1] = x->bp3, o.purposes[1] = WNLB_USE_BP;
    if (fire) {
        o.cards[2] = x->art, o.purposes[2] = WNLB_ACT_ARTILLERY;
        o.n_cards = 3;
        o.unit = x->br;
    }
    return o;
}

/* both sides' cards of [9.7], chosen in secret */
static void s97_cards(s97 *x, int fire) {
    t_fx *f = x->f;
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed); /* [9.3] chosen in secret, revealed together */
    assert_int_equal(p.seats, 3u);
    s97_french_cards(x);
    wnlb_order o = s97_british_cards(x, fire);
    ORDER(f, 1, o);
}

/* the [9.7] example fought: set up, declared and both sides' cards given (fire: the British
 * Artillery Fire card among them) */
static t_fx *s97_fought(s97 *x, int fire) {
    s97_setup(x);
    s97_declare(x);
    s97_cards(x, fire);
    return x->f;
}

/* [9.7] the base Battle Points: 4/I into the flank 3 x 2 = 6, -1 for the ridge = 5; 9/II 4 - 1
 * = 3; 8 against the British 4 [9.3] */
static void test_wnlb_9_7_example_base_battle_points(void **st) {
    (void)st;
    s97 x;
    s97_setup(&x);
    int er, ec;
    t_sq("E-7", &er, &ec);
    assert_int_equal(wnlb_rel_side(x.f->s, x.br, er, ec), 1); /* E-7 is 3/I's flank */
    assert_true(wnlb_can_attack(x.f->s, x.f4, x.br));
    assert_true(wnlb_can_attack(x.f->s, x.f9, x.br));
    wnlb_battle b;
    memset(&b, 0, sizeof b);
    b.target = (int8_t)x.br;
    b.n_att = 2;
    b.att[0] = (int8_t)x.f4;
    b.att[1] = (int8_t)x.f9;
    b.att_army = WNLB_FR;
    int elite[2] = {0, 0};
    int32_t att = 0, def = 0, per[WNLB_MAX_ATTACKERS] = {0};
    wnlb_battle_base(x.f->s, &b, elite, &att, &def, per);
    assert_int_equal(per[0], 5);
    assert_int_equal(per[1], 3);
    assert_int_equal(att, 8);
    assert_int_equal(def, 4);
    t_free(x.f);
}

/* [9.7] the French add 2 + 4 = 14; the British 4 + 4 (Wellington's Command Benefit) + 3 = 11;
 * 14 is higher but not more than double: the French win; the British retreat 3/I north keeping
 * its southerly facing; 4/I advances into the vacated square [9.4] [9.5] */
static void test_wnlb_9_7_example_battle_totals(void **st) {
    (void)st;
    s97 x;
    t_fx *f = s97_fought(&x, 0);
    assert_int_equal(f->s->battle.total[0], 14);
    assert_int_equal(f->s->battle.total[1], 11);
    assert_int_equal(f->s->battle.more_than_double, 0);
    PHASE(f, WNLB_PH_LOSS);
    wnlb_order o = t_o(WNLB_O_LOSS);
    o.flag = 1; /* retreat */
    t_sq("D-6", &o.row, &o.col);
    o.facing = WNLB_S;
    ORDER(f, 1, o);
    int r, c;
    t_sq("D-6", &r, &c);
    assert_int_equal(f->s->units[x.br].row, r);
    assert_int_equal(f->s->units[x.br].facing, WNLB_S);
    assert_int_equal(f->s->units[x.br].reduced, 0); /* retreated instead of reduced */
    PHASE(f, WNLB_PH_ADVANCE);
    o = t_o(WNLB_O_ADVANCE);
    o.unit = x.f4;
    o.facing = WNLB_W;
    ORDER(f, 0, o);
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[x.f4].row, r);
    assert_int_equal(f->s->units[x.f4].col, c);
    assert_int_equal(f->s->units[x.f4].moved, 0); /* advancing is not movement [9.4] */
    /* Wellington retreats with the unit [12.0] */
    t_sq("D-6", &r, &c);
    assert_int_equal(f->s->cmd_row[1], r);
    /* the battle cards went to the unused portion [9.3] */
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, x.bp4)], WNLB_LOC_UNUSED);
    assert_int_equal(f->s->card_loc[wnlb_card_index(f->s, x.cmd)], WNLB_LOC_UNUSED);
    t_free(f);
}

/* [9.7] "Had the British played an Artillery Fire card against the 9/II Corps Infantry, it would
 * have Disordered the unit, rendering it unable to attack ... 11 - a tie and a British win, and
 * nothing else would have happened" [9.4] [11.1] */
static void test_wnlb_9_7_example_artillery_fire_variant(void **st) {
    (void)st;
    s97 x;
    t_fx *f = s97_fought(&x, 1);
    assert_int_equal(f->s->units[x.f9].disordered, 1);
    assert_int_equal(f->s->battle.total[0], 11);
    assert_int_equal(f->s->battle.total[1], 11);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[x.br].row, r); /* nothing else happened */
    assert_int_equal(f->s->units[x.br].reduced, 0);
    assert_int_equal(f->s->units[x.f4].reduced, 0);
    assert_int_equal(f->s->units[x.f9].reduced, 0);
    assert_true(f->s->phase != WNLB_PH_LOSS && f->s->phase != WNLB_PH_ADVANCE);
    t_free(f);
}

/* [9.2] an attacker must face the defender's square: the [9.2] example's 4/II, east of the
 * French unit and facing south, cannot attack it; the units north facing south and west
 * facing east can */
static void test_wnlb_9_2_attacker_must_face_target(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_new_blank(&b, "short", 2, 92);
    int fr = t_unit(f, WNLB_FR, WNLB_INF, 0);
    int n = t_unit(f, WNLB_BR, WNLB_INF, 0), w = t_unit(f, WNLB_BR, WNLB_INF, 1), e = t_unit(f, WNLB_BR, WNLB_INF, 2);
    t_put(f, fr, "E-6", WNLB_N);
    t_put(f, n, "D-6", WNLB_S);
    t_put(f, w, "E-5", WNLB_E);
    t_put(f, e, "E-7", WNLB_S);
    assert_true(wnlb_can_attack(f->s, n, fr));
    assert_true(wnlb_can_attack(f->s, w, fr));
    assert_false(wnlb_can_attack(f->s, e, fr));
    t_free(f);
}

/* [9.4] a tie goes to the defender: 4 against 4, nothing happens */
static void test_wnlb_9_4_tie_defender_wins(void **st) {
    (void)st;
    s97 x;
    s97_setup(&x);
    t_fx *f = x.f;
    /* 9/II alone, no ridge: 4 against 4 */
    memset(((wnlb_scenario *)f->s->sc)->side, 0, sizeof f->s->sc->side);
    t_put(f, x.f4, "A-1", WNLB_N);
    f->s->cmd_row[1] = f->s->cmd_col[1] = -1;
    wnlb_order o = t_play(x.move, WNLB_PURPOSE_MOVE);
    ORDER(f, 0, o);
    o = t_o(WNLB_O_DONE);
    ORDER(f, 0, o);
    t_no_fire(f);
    o = t_o(WNLB_O_ATTACK);
    o.target = x.br;
    o.n_units = 1;
    o.units[0] = x.f9;
    ORDER(f, 0, o);
    if (f->s->phase == WNLB_PH_FIRE) {
        o = t_o(WNLB_O_FIRE);
        o.flag = 1;
        ORDER(f, 1, o);
    }
    PHASE(f, WNLB_PH_BATTLE_CARDS);
    o = t_o(WNLB_O_BATTLE_CARDS);
    ORDER(f, 0, o);
    o = t_o(WNLB_O_BATTLE_CARDS);
    ORDER(f, 1, o);
    assert_int_equal(f->s->battle.total[0], 4);
    assert_int_equal(f->s->battle.total[1], 4);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[x.br].row, r);
    assert_int_equal(f->s->units[x.br].reduced, 0);
    assert_int_equal(f->s->units[x.f9].reduced, 0);
    assert_true(f->s->phase != WNLB_PH_LOSS);
    t_free(f);
}

/* ---- the battle arithmetic of [9.3], per unit (wnlb_battle_base) ------------------------ */

/* base BPs of attackers `att` (n of them) on `target`; elite: [0] the attacker played an Elite
 * Bonus [11.3], [1] the defender did; per-attacker values in per */
static void s_base(const t_fx *f, int target, const int *att, int n, int ea, int ed, int32_t *a, int32_t *d,
                   int32_t *per) {
    wnlb_battle b;
    memset(&b, 0, sizeof b);
    b.target = (int8_t)target;
    b.n_att = (uint8_t)n;
    for (int i = 0; i < n; i++) b.att[i] = (int8_t)att[i];
    b.att_army = f->s->sc->units[att[0]].army;
    int elite[2] = {ea, ed};
    wnlb_battle_base(f->s, &b, elite, a, d, per);
}

/* a British defender (printed 3) in E-6 facing south on a blank board */
static t_fx *s_def(t_board *b, int *br) {
    t_fx *f = t_new_blank(b, "short", 2, 93);
    *br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    t_values(f, *br, 3, 1, 0);
    t_put(f, *br, "E-6", WNLB_S);
    return f;
}

/* [8.1] relative to a unit facing south: the square south is its front, east and west its
 * flanks, north its rear */
static void test_wnlb_8_1_front_flank_rear(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    static const struct {
        const char *sq;
        int side;
    } rel[] = {{"F-6", 0}, {"E-7", 1}, {"E-5", 1}, {"D-6", 2}};
    for (int i = 0; i < 4; i++) {
        int r, c;
        t_sq(rel[i].sq, &r, &c);
        assert_int_equal(wnlb_rel_side(f->s, br, r, c), rel[i].side);
    }
    t_free(f);
}

/* [9.2] up to four units, one on each side, may attack one enemy unit, each facing it */
static void test_wnlb_9_2_four_attackers_one_defender(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a[4];
    static const char *sq[4] = {"F-6", "E-7", "E-5", "D-6"};
    static const int face[4] = {WNLB_N, WNLB_W, WNLB_E, WNLB_S};
    for (int i = 0; i < 4; i++) {
        a[i] = t_unit(f, WNLB_FR, WNLB_INF, i);
        t_values(f, a[i], 1, 0, 0);
        t_put(f, a[i], sq[i], face[i]);
        assert_true(wnlb_can_attack(f->s, a[i], br));
    }
    int32_t att, def, per[4];
    s_base(f, br, a, 4, 0, 0, &att, &def, per);
    /* [9.3] front 1, flanks 2 and 2, rear 3 */
    assert_int_equal(per[0], 1);
    assert_int_equal(per[1], 2);
    assert_int_equal(per[2], 2);
    assert_int_equal(per[3], 3);
    assert_int_equal(att, 8);
    t_free(f);
}

/* [9.3] attacking into the flank doubles the unit's BPs, into the rear triples them, per unit */
static void test_wnlb_9_3_flank_doubles_rear_triples(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a[2] = {t_unit(f, WNLB_FR, WNLB_INF, 0), t_unit(f, WNLB_FR, WNLB_INF, 1)};
    t_values(f, a[0], 3, 1, 0);
    t_values(f, a[1], 2, 1, 0);
    t_put(f, a[0], "E-7", WNLB_W); /* flank */
    t_put(f, a[1], "D-6", WNLB_S); /* rear */
    int32_t att, def, per[2];
    s_base(f, br, a, 2, 0, 0, &att, &def, per);
    assert_int_equal(per[0], 6);
    assert_int_equal(per[1], 6);
    assert_int_equal(att, 12);
    assert_int_equal(def, 3);
    t_free(f);
}

/* [9.3] a defender in a village or woods doubles its printed BPs */
static void test_wnlb_9_3_woods_village_defender_doubles(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a = t_place(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N);
    int32_t att, def, per[1];
    s_base(f, br, &a, 1, 0, 0, &att, &def, per);
    assert_int_equal(def, 3);
    t_terrain(f, "E-6", WNLB_VILLAGE);
    s_base(f, br, &a, 1, 0, 0, &att, &def, per);
    assert_int_equal(def, 6);
    t_terrain(f, "E-6", WNLB_WOODS);
    s_base(f, br, &a, 1, 0, 0, &att, &def, per);
    assert_int_equal(def, 6);
    t_free(f);
}

/* [9.3] a defender on a hill doubles only when every attacker is on a non-hill square */
static void test_wnlb_9_3_hill_bonus_only_against_non_hill_attackers(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a[2] = {t_unit(f, WNLB_FR, WNLB_INF, 0), t_unit(f, WNLB_FR, WNLB_INF, 1)};
    t_put(f, a[0], "F-6", WNLB_N);
    t_put(f, a[1], "E-7", WNLB_W);
    t_terrain(f, "E-6", WNLB_HILL);
    int32_t att, def, per[2];
    s_base(f, br, a, 2, 0, 0, &att, &def, per);
    assert_int_equal(def, 6);
    t_terrain(f, "E-7", WNLB_HILL); /* one attacker also on a hill */
    s_base(f, br, a, 2, 0, 0, &att, &def, per);
    assert_int_equal(def, 3);
    t_free(f);
}

/* [9.3] -1 per attacker across a ridge or stream side, after the bonuses: 3 x 2 - 1 = 5,
 * not (3 - 1) x 2 */
static void test_wnlb_9_3_ridge_stream_minus_one_after_bonuses(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a[2] = {t_unit(f, WNLB_FR, WNLB_INF, 0), t_unit(f, WNLB_FR, WNLB_INF, 1)};
    t_values(f, a[0], 3, 1, 0);
    t_values(f, a[1], 2, 1, 0);
    t_put(f, a[0], "E-7", WNLB_W);
    t_put(f, a[1], "F-6", WNLB_N);
    t_side(f, "E-6", WNLB_E, WNLB_SIDE_RIDGE);
    t_side(f, "E-6", WNLB_S, WNLB_SIDE_STREAM);
    int32_t att, def, per[2];
    s_base(f, br, a, 2, 0, 0, &att, &def, per);
    assert_int_equal(per[0], 5);
    assert_int_equal(per[1], 1);
    t_free(f);
}

/* [9.4] "Multiplying of Battle Points": flank and Elite Bonus give 2 x 2 */
static void test_wnlb_9_4_flank_and_elite_quadruple(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a = t_place_v(f, WNLB_FR, WNLB_INF, 0, "E-7", WNLB_W, 2, 1, 1);
    int32_t att, def, per[1];
    s_base(f, br, &a, 1, 1, 0, &att, &def, per);
    assert_int_equal(per[0], 8);
    s_base(f, br, &a, 1, 0, 0, &att, &def, per); /* no card played: no Elite Bonus [11.3] */
    assert_int_equal(per[0], 4);
    t_free(f);
}

/* [11.3] an Elite Bonus card doubles the BPs of one's Elite units only; the defender's card
 * doubles the Elite defender */
static void test_wnlb_11_3_elite_bonus_doubles_elite_units(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    int a[2] = {t_unit(f, WNLB_FR, WNLB_INF, 0), t_unit(f, WNLB_FR, WNLB_INF, 1)};
    t_values(f, a[0], 3, 1, 1);
    t_values(f, a[1], 3, 1, 0);
    t_put(f, a[0], "F-6", WNLB_N);
    t_put(f, a[1], "E-5", WNLB_E);
    int32_t att, def, per[2];
    s_base(f, br, a, 2, 1, 0, &att, &def, per);
    assert_int_equal(per[0], 6);
    assert_int_equal(per[1], 6); /* flank 3 x 2, no Elite */
    t_values(f, a[1], 3, 1, 0);
    t_values(f, br, 3, 1, 1);
    s_base(f, br, a, 2, 1, 1, &att, &def, per);
    assert_int_equal(def, 6);
    t_free(f);
}

/* [9.5] a unit with no reduced side [9.1] is eliminated by a reduction; a reduced unit
 * reduced again is eliminated */
static void test_wnlb_9_5_no_reduced_side_eliminated(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    t_values(f, br, 1, 0, 0);
    wnlb_reduce(f->s, br, &f->ev);
    assert_int_equal(f->s->units[br].eliminated, 1);
    t_free(f);
}

static void test_wnlb_9_5_reduced_again_eliminated(void **st) {
    (void)st;
    t_board b;
    int br;
    t_fx *f = s_def(&b, &br);
    wnlb_reduce(f->s, br, &f->ev);
    assert_int_equal(f->s->units[br].reduced, 1);
    assert_int_equal(f->s->units[br].eliminated, 0);
    wnlb_reduce(f->s, br, &f->ev);
    assert_int_equal(f->s->units[br].eliminated, 1);
    t_free(f);
}

/* [11.2] Command Benefit: only to units in the Commander's square or the four squares around
 * it, never diagonally: with Wellington diagonal to 3/I the Command card gives nothing and is
 * refused; the British BP 3 alone: 4 + 3 = 7 */
static void test_wnlb_11_2_command_benefit_orthogonal_only(void **st) {
    (void)st;
    s97 x;
    s97_setup(&x);
    t_fx *f = x.f;
    t_cmd_at(f, 1, "D-7");
    s97_declare(&x);
    s97_french_cards(&x);
    wnlb_order o = s97_british_cards(&x, 0);
    assert_int_not_equal(t_order(f, 1, &o), 0);
    assert_string_equal(f->err.rule, "11.2");
    o.n_cards = 1;
    o.cards[0] = x.bp3, o.purposes[0] = WNLB_USE_BP;
    ORDER(f, 1, o);
    assert_int_equal(f->s->battle.total[0], 14);
    assert_int_equal(f->s->battle.total[1], 7);
    /* Wellington in 3/I's own square: the card gives his 4 [11.2] */
    t_free(f);
    f = s97_fought(&x, 0);
    assert_int_equal(f->s->battle.total[1], 11);
    t_free(f);
}

/* ---- battles played through the orders' text ---------------------------------------- */

/* a French round of turn 1 on a blank board; each hand emptied but for one spare card (so that
 * a battle does not end the round or the turn by emptying a hand); the French Movement card */
typedef struct sb {
    t_board b;
    t_fx *f;
    int move;
} sb;

static void sb_new(sb *x, uint64_t seed) {
    t_fx *f = x->f = t_new_blank(&x->b, "short", 2, seed);
    t_spare_hands(f);
    x->move = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    PHASE(f, WNLB_PH_ROUND);
}

/* the French play the Movement card and end its movement: the battle may be declared [9.0] */
static void sb_card(sb *x) {
    t_card_no_move(x->f, x->move);
}

/* "attack TARGET with A [B]" */
static int sb_attack(sb *x, int target, int a, int b) {
    char t[96];
    snprintf(t, sizeof t, "attack %s with %s%s%s", t_id(x->f, target), t_id(x->f, a), b >= 0 ? " " : "",
             b >= 0 ? t_id(x->f, b) : "");
    return t_do(x->f, 0, t);
}

/* both sides' battle cards as text ("cards none", "cards 3:bp") */
static void sb_cards(sb *x, const char *french, const char *allied) {
    T_OK(x->f, 0, french);
    T_OK(x->f, 1, allied);
}

/* [9.0] the French Movement card played and the battle on target by a (and b) declared */
static void sb_declare(sb *x, int target, int a, int b) {
    sb_card(x);
    assert_int_equal(sb_attack(x, target, a, b), 0);
}

/* [9.3] the French play one battle card for a use ("bp", "elite", "command"), the Allies none */
static void sb_french_card(sb *x, int card, const char *use) {
    char t[64];
    snprintf(t, sizeof t, "cards %d:%s", card, use);
    sb_cards(x, t, "cards none");
}

/* a British defender (printed def/def_red) in E-6 facing south, French attacker(s) */
static int sb_def(sb *x, int full, int red) {
    return t_place_v(x->f, WNLB_BR, WNLB_INF, 0, "E-6", WNLB_S, full, red, 0);
}

static int sb_att(sb *x, int n, int full, int red, const char *sq, int facing) {
    return t_place_v(x->f, WNLB_FR, WNLB_INF, n, sq, facing, full, red, 0);
}

/* [9.0] no attack unless a card was played for Movement or an Action first */
static void test_wnlb_9_0_no_attack_without_card(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 900);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    assert_int_not_equal(sb_attack(&x, br, a, -1), 0);
    PHASE(x.f, WNLB_PH_ROUND);
    assert_int_equal(x.f->s->units[a].attacked, 0);
    t_free(x.f);
}

/* [9.0] one attack per card: once the battle is over the next battle needs another card */
static void test_wnlb_9_0_one_attack_per_card(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 901);
    int br = sb_def(&x, 4, 2), a = sb_att(&x, 0, 1, 0, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 1 against 4: nothing happens */
    PHASE(x.f, WNLB_PH_ROUND);
    assert_int_not_equal(sb_attack(&x, br, a, -1), 0);
    t_free(x.f);
}

/* [9.0] "he may launch one attack with any unit, not just the one moved": an unmoved unit
 * attacks; [8.0] "A unit may attack more than once" and a Moved marker does not stop it */
static void test_wnlb_9_0_attack_by_unmoved_unit(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 902);
    int br = sb_def(&x, 4, 2), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N), m = sb_att(&x, 1, 2, 1, "E-7", WNLB_W);
    x.f->s->units[m].moved = 1;
    sb_declare(&x, br, a, m);
    PHASE(x.f, WNLB_PH_BATTLE_CARDS);
    assert_int_equal(x.f->s->units[a].attacked, 1); /* [11.6] it attacked this round */
    assert_int_equal(x.f->s->units[m].attacked, 1);
    t_free(x.f);
}

/* [9.0] British/Allied and Prussian units never attack together: only the round's army attacks */
static void test_wnlb_9_0_british_and_prussian_never_together(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_bare(&b, "full", 2, 903);
    (void)t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    (void)t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    int mv = t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    int fr = t_place(f, WNLB_FR, WNLB_INF, 0, "E-6", WNLB_N);
    int bi = t_place(f, WNLB_BR, WNLB_INF, 0, "D-6", WNLB_S);
    int pi = t_place(f, WNLB_PR, WNLB_INF, 0, "E-7", WNLB_W);
    T_OK(f, 0, "pass");
    assert_int_equal(f->s->round_army, WNLB_BR);
    char t[96];
    snprintf(t, sizeof t, "play %d move", mv);
    T_OK(f, 1, t);
    T_OK(f, 1, "done");
    t_no_fire(f);
    snprintf(t, sizeof t, "attack %s with %s %s", t_id(f, fr), t_id(f, bi), t_id(f, pi));
    T_NO(f, 1, t);
    assert_string_equal(f->err.rule, "9.0");
    snprintf(t, sizeof t, "attack %s with %s", t_id(f, fr), t_id(f, pi));
    T_NO(f, 1, t);
    snprintf(t, sizeof t, "attack %s with %s", t_id(f, fr), t_id(f, bi));
    T_OK(f, 1, t);
    assert_int_equal(f->s->battle.att_army, WNLB_BR);
    t_free(f);
}

/* [9.0] one attack = one defending unit; every attacker adjacent to it and facing it [9.2] */
static void test_wnlb_9_0_one_defender_per_attack(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 904);
    int br = sb_def(&x, 2, 1), other = t_unit(x.f, WNLB_BR, WNLB_INF, 1);
    t_put(x.f, other, "G-8", WNLB_S);
    int a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N), c = sb_att(&x, 1, 2, 1, "H-8", WNLB_N); /* c faces the other */
    sb_card(&x);
    assert_int_not_equal(sb_attack(&x, br, a, c), 0);
    assert_string_equal(x.f->err.rule, "9.2");
    assert_true(t_legal_has(x.f, 0, "no-battle"));
    char t[96];
    snprintf(t, sizeof t, "attack %s with %s", t_id(x.f, other), t_id(x.f, c));
    assert_true(t_legal_has(x.f, 0, t));
    assert_int_equal(sb_attack(&x, br, a, -1), 0);
    assert_int_equal(x.f->s->battle.target, br);
    assert_int_equal(x.f->s->battle.n_att, 1);
    t_free(x.f);
}

/* [9.5] a Disordered unit may not attack */
static void test_wnlb_9_5_disordered_may_not_attack(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 905);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N);
    x.f->s->units[a].disordered = 1;
    sb_card(&x);
    assert_int_not_equal(sb_attack(&x, br, a, -1), 0);
    assert_string_equal(x.f->err.rule, "9.5");
    PHASE(x.f, WNLB_PH_DECLARE);
    t_free(x.f);
}

/* [9.3] the BP cards are added at the end: a flank attacker of 3 with a BP 2 card is 3 x 2 + 2
 * = 8, not (3 + 2) x 2 */
static void test_wnlb_9_3_battle_cards_added_last(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 930);
    int br = sb_def(&x, 1, 0), a = sb_att(&x, 0, 3, 1, "E-7", WNLB_W);
    int c2 = t_give(x.f, WNLB_FR, 1, 2, WNLB_ACT_NONE, 0);
    sb_declare(&x, br, a, -1);
    sb_french_card(&x, c2, "bp");
    assert_int_equal(x.f->s->battle.total[0], 8);
    t_free(x.f);
}

/* [9.3] "The attacker must stay within his 5 card per player round maximum": one card played,
 * five more refused, four accepted; his round is then over [4.0] */
static void test_wnlb_9_3_attacker_cards_within_round_limit(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 931);
    int br = sb_def(&x, 6, 2), a = sb_att(&x, 0, 1, 0, "F-6", WNLB_N);
    int c[5];
    for (int i = 0; i < 5; i++) c[i] = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    sb_declare(&x, br, a, -1);
    char t[96];
    snprintf(t, sizeof t, "cards %d:bp %d:bp %d:bp %d:bp %d:bp", c[0], c[1], c[2], c[3], c[4]);
    T_NO(x.f, 0, t);
    assert_string_equal(x.f->err.rule, "9.3");
    assert_false(t_legal_has(x.f, 0, t));
    snprintf(t, sizeof t, "cards %d:bp %d:bp %d:bp %d:bp", c[0], c[1], c[2], c[3]);
    sb_cards(&x, t, "cards none");
    assert_int_equal(x.f->s->battle.total[0], 5);
    assert_int_equal(x.f->s->active_side, WNLB_SIDE_ALLIED); /* five cards played: the round ended */
    assert_int_equal(x.f->s->card_loc[wnlb_card_index(x.f->s, c[4])], WNLB_LOC_HAND);
    t_free(x.f);
}

/* [9.3] the defender has no limit; his cards do not count toward the attacker's round */
static void test_wnlb_9_3_defender_cards_unlimited(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 932);
    int br = sb_def(&x, 1, 0), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    int c[6];
    for (int i = 0; i < 6; i++) c[i] = t_give(x.f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    sb_declare(&x, br, a, -1);
    char t[128];
    snprintf(t, sizeof t, "cards %d:bp %d:bp %d:bp %d:bp %d:bp %d:bp", c[0], c[1], c[2], c[3], c[4], c[5]);
    sb_cards(&x, "cards none", t);
    assert_int_equal(x.f->s->round_cards, 1); /* the French Movement card only */
    assert_int_equal(wnlb_hand_count(x.f->s, WNLB_BR), 1);
    t_at(x.f, br, "E-6"); /* 7 against 3: the defender won */
    t_free(x.f);
}

/* [9.3] chosen in secret, revealed together: the first side's cards stay in its hand and no event
 * tells them until the second side's are in; then both are public and go to the unused portion */
static void test_wnlb_9_3_battle_cards_sealed_then_used(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 933);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N);
    int fc = t_give(x.f, WNLB_FR, 1, 3, WNLB_ACT_NONE, 0), bc = t_give(x.f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
    sb_declare(&x, br, a, -1);
    brt_pending p;
    t_pending(x.f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 3u);
    char t[32];
    snprintf(t, sizeof t, "cards %d:bp", fc);
    brt_buf v1[2], v2[2];
    static const int vps[2] = {1, BRT_VIEW_PUBLIC};
    for (int i = 0; i < 2; i++) {
        buf_init(&v1[i]);
        buf_init(&v2[i]);
        assert_int_equal(x.f->rs->view(x.f->s, vps[i], &v1[i]), 0);
    }
    T_OK(x.f, 0, t);
    assert_int_equal(x.f->ev.total, 0); /* nothing told */
    for (int i = 0; i < 2; i++) { /* the British and the public views are unchanged */
        assert_int_equal(x.f->rs->view(x.f->s, vps[i], &v2[i]), 0);
        assert_int_equal(v1[i].len, v2[i].len);
        assert_memory_equal(v1[i].data, v2[i].data, v1[i].len);
        buf_free(&v1[i]);
        buf_free(&v2[i]);
    }
    assert_int_equal(x.f->s->card_loc[wnlb_card_index(x.f->s, fc)], WNLB_LOC_HAND);
    t_pending(x.f, &p);
    assert_int_equal(p.seats, 2u); /* the British only */
    T_NO(x.f, 0, "cards none");    /* given already */
    snprintf(t, sizeof t, "cards %d:bp", bc);
    T_OK(x.f, 1, t);
    const t_ev *e0 = t_ev_kind(&x.f->ev, "battle-cards", 0), *e1 = t_ev_kind(&x.f->ev, "battle-cards", 1);
    assert_non_null(e0);
    assert_non_null(e1);
    assert_int_equal(e0->mask, BRT_SEATS_ALL);
    assert_int_equal(e0->e->n_cards, 1);
    assert_int_equal(e0->e->cards[0], (uint32_t)fc);
    assert_int_equal(e1->e->cards[0], (uint32_t)bc);
    assert_int_equal(x.f->s->card_loc[wnlb_card_index(x.f->s, fc)], WNLB_LOC_UNUSED);
    assert_int_equal(x.f->s->card_loc[wnlb_card_index(x.f->s, bc)], WNLB_LOC_UNUSED);
    t_free(x.f);
}

/* [9.4] the winning attacker must advance one of the attacking units into the vacated square, his
 * choice; a unit that did not attack may not */
static void test_wnlb_9_4_attacker_advances_into_vacated_square(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 940);
    int br = sb_def(&x, 4, 1), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N), c = sb_att(&x, 1, 2, 1, "E-5", WNLB_E);
    int idle = sb_att(&x, 2, 2, 1, "E-7", WNLB_N);
    sb_declare(&x, br, a, c);
    sb_cards(&x, "cards none", "cards none"); /* 2 + 4 against 4 */
    PHASE(x.f, WNLB_PH_LOSS);
    T_OK(x.f, 1, "loss retreat D-6 S");
    PHASE(x.f, WNLB_PH_ADVANCE);
    char t[64];
    snprintf(t, sizeof t, "advance %s N", t_id(x.f, idle));
    T_NO(x.f, 0, t);
    assert_false(t_legal_has(x.f, 0, "advance none"));
    snprintf(t, sizeof t, "advance %s E", t_id(x.f, c));
    assert_true(t_legal_has(x.f, 0, t));
    snprintf(t, sizeof t, "advance %s W", t_id(x.f, a));
    T_OK(x.f, 0, t);
    t_at(x.f, a, "E-6");
    PHASE(x.f, WNLB_PH_ROUND);
    t_free(x.f);
}

/* [9.4] "if he used an Elite unit that received an Elite Bonus, that unit must be the one" */
static void test_wnlb_9_4_elite_bonused_unit_advances(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 941);
    int br = sb_def(&x, 6, 1), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N), e = sb_att(&x, 1, 2, 1, "E-5", WNLB_E);
    t_values(x.f, e, 2, 1, 1);
    int el = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_ELITE, 0);
    sb_declare(&x, br, a, e);
    sb_french_card(&x, el, "elite");
    assert_int_equal(x.f->s->battle.total[0], 2 + 2 * 2 * 2); /* front 2, Elite flank 2 x 2 x 2 */
    T_OK(x.f, 1, "loss retreat D-6 S");
    char t[64];
    snprintf(t, sizeof t, "advance %s N", t_id(x.f, a));
    T_NO(x.f, 0, t);
    assert_string_equal(x.f->err.rule, "9.4");
    snprintf(t, sizeof t, "advance %s E", t_id(x.f, e));
    T_OK(x.f, 0, t);
    t_at(x.f, e, "E-6");
    t_free(x.f);
}

/* [9.4] advancing: free facing, no Moved marker; a unit under a Moved marker may advance */
static void test_wnlb_9_4_advance_free_facing_no_marker(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 942);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N), m = sb_att(&x, 1, 3, 1, "E-5", WNLB_E);
    x.f->s->units[m].moved = 1;
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none");
    T_OK(x.f, 1, "loss retreat E-7 E");
    char t[64];
    snprintf(t, sizeof t, "advance %s S", t_id(x.f, a));
    T_OK(x.f, 0, t);
    assert_int_equal(x.f->s->units[a].facing, WNLB_S);
    assert_int_equal(x.f->s->units[a].moved, 0);
    /* a second card: the Moved unit attacks the retreated unit and advances */
    x.move = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    t_put(x.f, m, "E-6", WNLB_E);
    x.f->s->units[m].moved = 1;
    x.f->s->units[br].facing = WNLB_W; /* attacked from its front: 3 against 2 */
    t_put(x.f, a, "A-1", WNLB_N);
    sb_declare(&x, br, m, -1);
    sb_cards(&x, "cards none", "cards none");
    T_OK(x.f, 1, "loss retreat D-7 S");
    snprintf(t, sizeof t, "advance %s N", t_id(x.f, m));
    T_OK(x.f, 0, t);
    t_at(x.f, m, "E-7");
    assert_int_equal(x.f->s->units[m].moved, 1);
    t_free(x.f);
}

/* [9.4] the losing defender chooses: reduced in place (no advance: nothing vacated), or retreat */
static void test_wnlb_9_4_defender_chooses_reduce_or_retreat(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 943);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 3 against 2 */
    PHASE(x.f, WNLB_PH_LOSS);
    assert_int_equal(t_actor(x.f), 1);
    assert_true(t_legal_has(x.f, 1, "loss reduce"));
    assert_true(t_legal_has(x.f, 1, "loss retreat D-6 S"));
    T_OK(x.f, 1, "loss reduce");
    t_at(x.f, br, "E-6");
    assert_int_equal(x.f->s->units[br].reduced, 1);
    PHASE(x.f, WNLB_PH_ROUND); /* nothing vacated, nothing to advance into */
    t_at(x.f, a, "F-6");
    t_free(x.f);
}

/* [9.4] more than double: Reduced and Retreat both; one alone does not end the loss */
static void test_wnlb_9_4_more_than_double_reduce_and_retreat(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 944);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 5, 2, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 5 against 2 */
    assert_int_equal(x.f->s->battle.more_than_double, 1);
    T_OK(x.f, 1, "loss reduce");
    PHASE(x.f, WNLB_PH_LOSS);
    T_NO(x.f, 1, "loss reduce"); /* a square is there: it must retreat */
    T_OK(x.f, 1, "loss retreat D-6 W");
    assert_int_equal(x.f->s->units[br].reduced, 1);
    t_at(x.f, br, "D-6");
    PHASE(x.f, WNLB_PH_ADVANCE);
    t_free(x.f);
}

/* [9.4] the losing attacker: nothing happens unless the defender had more than double */
static void test_wnlb_9_4_attacker_loses_nothing_happens(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 945);
    int br = sb_def(&x, 3, 1), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 2 against 3 */
    PHASE(x.f, WNLB_PH_ROUND);
    assert_int_equal(x.f->s->units[a].reduced, 0);
    assert_int_equal(x.f->s->units[br].reduced, 0);
    t_at(x.f, a, "F-6");
    t_free(x.f);
}

/* [9.4] the winning defender does not advance: it stays where it is */
static void test_wnlb_9_4_defender_never_advances(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 946);
    int br = sb_def(&x, 4, 2), a = sb_att(&x, 0, 1, 0, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 1 against 4: more than double */
    assert_int_equal(x.f->s->units[a].eliminated, 1); /* full strength 1: no reduced side [9.1] */
    t_at(x.f, br, "E-6");
    assert_int_equal(x.f->s->units[br].facing, WNLB_S);
    PHASE(x.f, WNLB_PH_ROUND);
    assert_int_equal(x.f->s->elim_vp[WNLB_SIDE_ALLIED], 1); /* [13.3] */
    t_free(x.f);
}

/* [9.4] the defender more than double: the attacking unit with the most BPs on its counter is
 * Reduced; on a tie the attacker chooses (PH_ATT_REDUCE) */
static void test_wnlb_9_4_defender_double_reduces_strongest_attacker(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 947);
    int br = sb_def(&x, 6, 3), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N), c = sb_att(&x, 1, 1, 0, "E-5", WNLB_E);
    t_terrain(x.f, "E-6", WNLB_VILLAGE);
    sb_declare(&x, br, a, c);
    sb_cards(&x, "cards none", "cards none"); /* 2 + 2 against 12 */
    assert_int_equal(x.f->s->units[a].reduced, 1);
    assert_int_equal(x.f->s->units[c].eliminated, 0);
    PHASE(x.f, WNLB_PH_ROUND);
    /* a tie: two of 2 */
    x.move = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    int d = sb_att(&x, 2, 2, 1, "E-7", WNLB_W), e = sb_att(&x, 3, 2, 1, "D-6", WNLB_S);
    t_values(x.f, br, 9, 3, 0);
    sb_declare(&x, br, d, -1);
    sb_cards(&x, "cards none", "cards none");
    PHASE(x.f, WNLB_PH_ROUND);
    assert_int_equal(x.f->s->units[d].reduced, 1); /* alone: no choice */
    x.move = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    t_put(x.f, d, "E-7", WNLB_W);
    t_put(x.f, a, "F-6", WNLB_N);
    t_values(x.f, br, 20, 3, 0);
    sb_card(&x);
    char t[64];
    snprintf(t, sizeof t, "attack %s with %s %s", t_id(x.f, br), t_id(x.f, a), t_id(x.f, e));
    T_OK(x.f, 0, t);
    sb_cards(&x, "cards none", "cards none");
    PHASE(x.f, WNLB_PH_ATT_REDUCE);
    assert_int_equal(t_actor(x.f), 0);
    snprintf(t, sizeof t, "reduce %s", t_id(x.f, d));
    T_NO(x.f, 0, t); /* did not attack */
    snprintf(t, sizeof t, "reduce %s", t_id(x.f, a));
    assert_true(t_legal_has(x.f, 0, t));
    snprintf(t, sizeof t, "reduce %s", t_id(x.f, e));
    T_OK(x.f, 0, t);
    assert_int_equal(x.f->s->units[e].reduced, 1);
    t_free(x.f);
}

/* [9.5] a retreat goes one square to the rear or a flank, never forward */
static void test_wnlb_9_5_retreat_rear_or_flank_only(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 950);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    t_put(x.f, a, "E-5", WNLB_E); /* from the flank: the front F-6 is empty */
    t_put(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 1), "F-6", WNLB_N); /* and from the front */
    t_values(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 1), 1, 0, 0);
    sb_declare(&x, br, a, t_unit(x.f, WNLB_FR, WNLB_INF, 1));
    sb_cards(&x, "cards none", "cards none"); /* 6 + 1 against 2: more than double */
    T_OK(x.f, 1, "loss reduce");
    T_NO(x.f, 1, "loss retreat C-6 S"); /* two squares */
    T_NO(x.f, 1, "loss retreat D-5 S"); /* diagonal */
    assert_false(t_legal_has(x.f, 1, "loss retreat F-6 S"));
    assert_true(t_legal_has(x.f, 1, "loss retreat E-7 S"));
    T_OK(x.f, 1, "loss retreat D-6 S");
    t_at(x.f, br, "D-6");
    t_free(x.f);
}

/* [9.5] attacked solely from the rear and/or flank: the retreat may go forward */
static void test_wnlb_9_5_retreat_forward_when_attacked_from_behind(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 951);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "D-6", WNLB_S);
    t_put(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 1), "E-5", WNLB_N); /* the flank squares blocked */
    t_put(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 2), "E-7", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 9 against 2 */
    T_OK(x.f, 1, "loss reduce");
    T_OK(x.f, 1, "loss retreat F-6 N");
    t_at(x.f, br, "F-6");
    assert_int_equal(x.f->s->units[br].facing, WNLB_N);
    t_free(x.f);
}

/* [9.5] once retreated the unit faces freely */
static void test_wnlb_9_5_retreat_free_facing(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 952);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none");
    T_OK(x.f, 1, "loss retreat E-5 E");
    t_at(x.f, br, "E-5");
    assert_int_equal(x.f->s->units[br].facing, WNLB_E);
    assert_int_equal(x.f->s->units[br].moved, 0); /* not movement [9.4] */
    assert_int_equal(x.f->s->units[br].reduced, 0);
    t_free(x.f);
}

/* [9.5] no square to retreat into: Reduced instead, eliminated if already Reduced (A3: more than
 * double and no square: Reduced twice) */
static void test_wnlb_9_5_no_retreat_square_reduced(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 953);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 5, 2, "F-6", WNLB_N);
    t_put(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 1), "E-5", WNLB_N);
    t_put(x.f, t_unit(x.f, WNLB_FR, WNLB_INF, 2), "E-7", WNLB_N);
    t_put(x.f, t_unit(x.f, WNLB_BR, WNLB_INF, 1), "D-6", WNLB_S); /* a friend behind */
    sb_declare(&x, br, a, -1);
    sb_cards(&x, "cards none", "cards none"); /* 5 against 2 */
    T_NO(x.f, 1, "loss retreat D-6 S");
    T_OK(x.f, 1, "loss reduce");
    assert_int_equal(x.f->s->units[br].reduced, 1);
    PHASE(x.f, WNLB_PH_LOSS);
    T_OK(x.f, 1, "loss reduce"); /* instead of the Retreat: eliminated */
    assert_int_equal(x.f->s->units[br].eliminated, 1);
    assert_int_equal(x.f->s->elim_vp[WNLB_SIDE_FRENCH], 2);
    PHASE(x.f, WNLB_PH_ADVANCE); /* the square is vacated by elimination [9.4] */
    char t[64];
    snprintf(t, sizeof t, "advance %s N", t_id(x.f, a));
    T_OK(x.f, 0, t);
    t_at(x.f, a, "E-6");
    t_free(x.f);
}

/* [9.5] a Disordered unit Disordered again is Reduced and no longer Disordered; never eliminated */
static void test_wnlb_9_5_second_disorder_reduces(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 954);
    int br = sb_def(&x, 2, 1);
    wnlb_disorder(x.f->s, br, &x.f->ev);
    assert_int_equal(x.f->s->units[br].disordered, 1);
    wnlb_disorder(x.f->s, br, &x.f->ev);
    assert_int_equal(x.f->s->units[br].disordered, 0);
    assert_int_equal(x.f->s->units[br].reduced, 1);
    wnlb_disorder(x.f->s, br, &x.f->ev);
    wnlb_disorder(x.f->s, br, &x.f->ev); /* reduced and Disordered: nothing happens */
    assert_int_equal(x.f->s->units[br].reduced, 1);
    assert_int_equal(x.f->s->units[br].eliminated, 0);
    assert_int_equal(x.f->s->units[br].disordered, 1);
    t_free(x.f);
}

/* [9.3] [11.2] the Command Benefit and the -1 across a ridge both apply to the unit ("after all
 * bonuses, including Command Benefit"): a front attacker of 2 with Napoleon (+2) across a ridge
 * is 2 + 2 - 1 = 3 (both additive, so only their presence can be checked, not their order) */
static void test_wnlb_9_3_ridge_after_command_benefit(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 934);
    int br = sb_def(&x, 9, 3), a = sb_att(&x, 0, 2, 1, "F-6", WNLB_N);
    t_side(x.f, "E-6", WNLB_S, WNLB_SIDE_RIDGE);
    t_cmd_at(x.f, 0, "F-6");
    int cmd = t_give(x.f, WNLB_FR, 1, 1, WNLB_ACT_COMMAND, 2);
    ((wnlb_scenario *)x.f->s->sc)->cards[wnlb_card_index(x.f->s, cmd)].cmd_attack = 1;
    sb_declare(&x, br, a, -1);
    sb_french_card(&x, cmd, "command");
    assert_int_equal(x.f->s->battle.total[0], 3);
    t_free(x.f);
}

/* [9.3] [6.0] the defender plays the cards of the defending unit's army: three seats, a Prussian
 * unit attacked: the Prussian seat decides, with Prussian cards; a British card is refused
 * (R-wnlb-9.3-defender-deck) */
static void test_wnlb_9_3_defender_plays_own_army_cards(void **st) {
    (void)st;
    t_board b;
    t_fx *f = t_bare(&b, "full", 3, 935);
    (void)t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    int mv = t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    int bc = t_give(f, WNLB_BR, 1, 3, WNLB_ACT_NONE, 0), pc = t_give(f, WNLB_PR, 1, 3, WNLB_ACT_NONE, 0);
    int fr = t_place_v(f, WNLB_FR, WNLB_INF, 0, "F-6", WNLB_N, 2, 1, 0);
    int pi = t_place_v(f, WNLB_PR, WNLB_INF, 0, "E-6", WNLB_S, 1, 0, 0);
    char t[64];
    snprintf(t, sizeof t, "play %d move", mv);
    T_OK(f, 0, t);
    T_OK(f, 0, "done");
    t_no_fire(f);
    snprintf(t, sizeof t, "attack %s with %s", t_id(f, pi), t_id(f, fr));
    T_OK(f, 0, t);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, (1u << 0) | (1u << 2)); /* the French and the Prussian seats */
    T_NO(f, 1, "cards none");                         /* not the British seat's decision */
    snprintf(t, sizeof t, "cards %d:bp", bc);
    T_NO(f, 2, t);
    assert_string_equal(f->err.rule, "9.3");
    T_OK(f, 0, "cards none");
    snprintf(t, sizeof t, "cards %d:bp", pc);
    T_OK(f, 2, t);
    assert_int_equal(f->s->battle.total[1], 4); /* 1 + 3: the Prussian wins */
    t_free(f);
}

/* [8.3] "No unit ... may cross (or attack across) a Pond side" */
static void test_wnlb_9_2_no_attack_across_pond(void **st) {
    (void)st;
    sb x;
    sb_new(&x, 920);
    int br = sb_def(&x, 2, 1), a = sb_att(&x, 0, 3, 1, "F-6", WNLB_N);
    assert_true(wnlb_can_attack(x.f->s, a, br));
    t_side(x.f, "E-6", WNLB_S, WNLB_SIDE_POND);
    assert_false(wnlb_can_attack(x.f->s, a, br));
    sb_card(&x);
    assert_int_not_equal(sb_attack(&x, br, a, -1), 0);
    assert_string_equal(x.f->err.rule, "9.2");
    t_free(x.f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_9_7_example_base_battle_points),
        cmocka_unit_test(test_wnlb_9_7_example_battle_totals),
        cmocka_unit_test(test_wnlb_9_7_example_artillery_fire_variant),
        cmocka_unit_test(test_wnlb_9_2_attacker_must_face_target),
        cmocka_unit_test(test_wnlb_11_2_command_benefit_orthogonal_only),
        cmocka_unit_test(test_wnlb_9_4_tie_defender_wins),
        cmocka_unit_test(test_wnlb_8_1_front_flank_rear),
        cmocka_unit_test(test_wnlb_9_2_four_attackers_one_defender),
        cmocka_unit_test(test_wnlb_9_3_flank_doubles_rear_triples),
        cmocka_unit_test(test_wnlb_9_3_woods_village_defender_doubles),
        cmocka_unit_test(test_wnlb_9_3_hill_bonus_only_against_non_hill_attackers),
        cmocka_unit_test(test_wnlb_9_3_ridge_stream_minus_one_after_bonuses),
        cmocka_unit_test(test_wnlb_9_4_flank_and_elite_quadruple),
        cmocka_unit_test(test_wnlb_11_3_elite_bonus_doubles_elite_units),
        cmocka_unit_test(test_wnlb_9_5_no_reduced_side_eliminated),
        cmocka_unit_test(test_wnlb_9_5_reduced_again_eliminated),
        cmocka_unit_test(test_wnlb_9_0_no_attack_without_card),
        cmocka_unit_test(test_wnlb_9_0_one_attack_per_card),
        cmocka_unit_test(test_wnlb_9_0_attack_by_unmoved_unit),
        cmocka_unit_test(test_wnlb_9_0_british_and_prussian_never_together),
        cmocka_unit_test(test_wnlb_9_0_one_defender_per_attack),
        cmocka_unit_test(test_wnlb_9_5_disordered_may_not_attack),
        cmocka_unit_test(test_wnlb_9_3_battle_cards_added_last),
        cmocka_unit_test(test_wnlb_9_3_attacker_cards_within_round_limit),
        cmocka_unit_test(test_wnlb_9_3_defender_cards_unlimited),
        cmocka_unit_test(test_wnlb_9_3_battle_cards_sealed_then_used),
        cmocka_unit_test(test_wnlb_9_4_attacker_advances_into_vacated_square),
        cmocka_unit_test(test_wnlb_9_4_elite_bonused_unit_advances),
        cmocka_unit_test(test_wnlb_9_4_advance_free_facing_no_marker),
        cmocka_unit_test(test_wnlb_9_4_defender_chooses_reduce_or_retreat),
        cmocka_unit_test(test_wnlb_9_4_more_than_double_reduce_and_retreat),
        cmocka_unit_test(test_wnlb_9_4_attacker_loses_nothing_happens),
        cmocka_unit_test(test_wnlb_9_4_defender_never_advances),
        cmocka_unit_test(test_wnlb_9_4_defender_double_reduces_strongest_attacker),
        cmocka_unit_test(test_wnlb_9_5_retreat_rear_or_flank_only),
        cmocka_unit_test(test_wnlb_9_5_retreat_forward_when_attacked_from_behind),
        cmocka_unit_test(test_wnlb_9_5_retreat_free_facing),
        cmocka_unit_test(test_wnlb_9_5_no_retreat_square_reduced),
        cmocka_unit_test(test_wnlb_9_5_second_disorder_reduces),
        cmocka_unit_test(test_wnlb_9_3_ridge_after_command_benefit),
        cmocka_unit_test(test_wnlb_9_3_defender_plays_own_army_cards),
        cmocka_unit_test(test_wnlb_9_2_no_attack_across_pond),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
