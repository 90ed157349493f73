/*
 * test_wnlb_cases_9.c - rule cases of Battle [9.0]-[9.7] (Napoleon's Last Battle), with the
 * worked example of [9.7] and its Artillery Fire variant. Each case is built on the
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
    t_fx *f = x->f = t_new("short", 2, 97);
    t_blank(f, &x->b);
    x->br = t_unit(f, WNLB_BR, WNLB_INF, 0);
    x->f4 = t_unit(f, WNLB_FR, WNLB_INF, 0);
    x->f9 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    t_values(f, x->br, 4, 2, 0);
    t_values(f, x->f4, 3, 1, 0);
    t_values(f, x->f9, 4, 2, 0);
    t_put(f, x->br, "E-6", WNLB_S);
    t_put(f, x->f4, "E-7", WNLB_W);
    t_put(f, x->f9, "F-6", WNLB_N);
    t_side(f, "E-6", WNLB_E, WNLB_SIDE_RIDGE);
    t_side(f, "E-6", WNLB_S, WNLB_SIDE_RIDGE);
    int r, c;
    t_sq("E-6", &r, &c);
    f->s->cmd_row[1] = (int8_t)r;
    f->s->cmd_col[1] = (int8_t)c;
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
 * 3/I [9.0] [9.2]; the British decline or take the Artillery Fire window [11.1] */
static void s97_declare(s97 *x, int fire) {
    t_fx *f = x->f;
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = x->move;
    o.purpose = WNLB_PURPOSE_MOVE;
    ORDER(f, 0, o);
    o = t_o(WNLB_O_DONE);
    ORDER(f, 0, o);
    PHASE(f, WNLB_PH_DECLARE);
    o = t_o(WNLB_O_ATTACK);
    o.target = x->br;
    o.n_units = 2;
    o.units[0] = x->f4;
    o.units[1] = x->f9;
    ORDER(f, 0, o);
    if (f->s->phase == WNLB_PH_FIRE) {
        o = t_o(WNLB_O_FIRE);
        if (fire) {
            o.card = x->art;
            o.unit = x->br;
        } else {
            o.flag = 1;
        }
        ORDER(f, 1, o);
    } else if (fire) {
        fail_msg("no Artillery Fire window for the defender after the declaration [11.1]");
    }
    PHASE(f, WNLB_PH_BATTLE_CARDS);
}

static void s97_cards(s97 *x) {
    t_fx *f = x->f;
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed); /* [9.3] chosen in secret, revealed together */
    assert_int_equal(p.seats, 3u);
    wnlb_order o = t_o(WNLB_O_BATTLE_CARDS);
    o.n_cards = 2;
    o.cards[0] = x->bp2, o.purposes[0] = WNLB_USE_BP;
    o.cards[1] = x->bp4, o.purposes[1] = WNLB_USE_BP;
    ORDER(f, 0, o);
    o = t_o(WNLB_O_BATTLE_CARDS);
    o.n_cards = 2;
    o.cards[0] = x->cmd, o.purposes[0] = WNLB_ACT_COMMAND;
    o.cards[1] = x->bp3, o.purposes[1] = WNLB_USE_BP;
    ORDER(f, 1, o);
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
    s97_setup(&x);
    t_fx *f = x.f;
    s97_declare(&x, 0);
    s97_cards(&x);
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
    s97_setup(&x);
    t_fx *f = x.f;
    s97_declare(&x, 1);
    assert_int_equal(f->s->units[x.f9].disordered, 1);
    s97_cards(&x);
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
    t_fx *f = t_new("short", 2, 92);
    t_blank(f, &b);
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
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = x.move;
    o.purpose = WNLB_PURPOSE_MOVE;
    ORDER(f, 0, o);
    o = t_o(WNLB_O_DONE);
    ORDER(f, 0, o);
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
    t_fx *f = t_new("short", 2, 93);
    t_blank(f, b);
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
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_put(f, a, "F-6", WNLB_N);
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
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0);
    t_values(f, a, 2, 1, 1);
    t_put(f, a, "E-7", WNLB_W);
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

/* ---- [9.6] cavalry retreat before battle -------------------------------------------- */

/* a French Movement card of 6 MP, French infantry in G-6 facing north, British cavalry in
 * E-6 facing south; the infantry steps into F-6, adjacent to the cavalry */
static t_fx *s96(t_board *b, int *inf, int *cav) {
    t_fx *f = t_new("short", 2, 96);
    t_blank(f, b);
    *inf = t_unit(f, WNLB_FR, WNLB_INF, 0);
    *cav = t_unit(f, WNLB_BR, WNLB_CAV, 0);
    t_put(f, *inf, "G-6", WNLB_N);
    t_put(f, *cav, "E-6", WNLB_S);
    t_empty_hand(f, WNLB_FR);
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = t_give(f, WNLB_FR, 6, 1, WNLB_ACT_NONE, 0);
    o.purpose = WNLB_PURPOSE_MOVE;
    ORDER(f, 0, o);
    o = t_o(WNLB_O_MOVE);
    o.unit = *inf;
    o.n_steps = 1;
    o.steps[0] = WNLB_STEP_FWD;
    ORDER(f, 0, o);
    return f;
}

/* [9.6] enemy infantry moves adjacent to a cavalry unit: before anything else, the cavalry's
 * owner may retreat it (as per the retreat rules), at no MP and without a Moved marker */
static void test_wnlb_9_6_cavalry_retreats_before_infantry(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    PHASE(f, WNLB_PH_CAV_RETREAT);
    assert_int_equal(t_actor(f), 1);
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    t_sq("D-6", &o.row, &o.col);
    o.facing = WNLB_S;
    ORDER(f, 1, o);
    int r, c;
    t_sq("D-6", &r, &c);
    assert_int_equal(f->s->units[cav].row, r);
    assert_int_equal(f->s->units[cav].moved, 0);
    t_free(f);
}

/* [9.6] the cavalry may stay: the window is declined and nothing moves */
static void test_wnlb_9_6_cavalry_may_stay(void **st) {
    (void)st;
    t_board b;
    int inf, cav;
    t_fx *f = s96(&b, &inf, &cav);
    PHASE(f, WNLB_PH_CAV_RETREAT);
    wnlb_order o = t_o(WNLB_O_CAV_RETREAT);
    o.flag = 1;
    ORDER(f, 1, o);
    int r, c;
    t_sq("E-6", &r, &c);
    assert_int_equal(f->s->units[cav].row, r);
    assert_true(f->s->phase != WNLB_PH_CAV_RETREAT);
    t_free(f);
}

/* [11.2] Command Benefit: only to units in the Commander's square or the four squares around
 * it, never diagonally: Wellington diagonal to 3/I gives nothing, 4 + 3 = 7 */
static void test_wnlb_11_2_command_benefit_orthogonal_only(void **st) {
    (void)st;
    s97 x;
    s97_setup(&x);
    t_fx *f = x.f;
    int r, c;
    t_sq("D-7", &r, &c);
    f->s->cmd_row[1] = (int8_t)r;
    f->s->cmd_col[1] = (int8_t)c;
    s97_declare(&x, 0);
    s97_cards(&x);
    assert_int_equal(f->s->battle.total[0], 14);
    assert_int_equal(f->s->battle.total[1], 7);
    t_free(f);
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
        cmocka_unit_test(test_wnlb_9_6_cavalry_retreats_before_infantry),
        cmocka_unit_test(test_wnlb_9_6_cavalry_may_stay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
