/*
 * test_wem_cases_combat2.c - rule cases of [2. Bombardment] and [3.4 Combat] (Waterloo: Enemy
 * Mistakes): what a seat whose clock runs out on a choice of the combat answers (the timeout
 * defaults, R-wem-timeout-* in docs/wem-rulings/combat.md), and the cases found in the review.
 *
 * The board: a blue infantry tile A at (300, 400) mm facing north, IN MOVEMENT, front to front
 * with a red tile D at (300, 370) facing south; a second pair far to the east keeps the subphase
 * open after the case under test. Dice in order: the attacker's melee die, the defender's, the
 * Damage dice of each side, then the Result dice of each side.
 */
/* the fixture's id and name formats are bounded by its own counts (gcc cannot see it) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/combat.h"

typedef struct s_board {
    t_fx *f;
    int a, d;
} s_board;

static s_board s_new(void) {
    s_board b;
    b.f = t_new(2, 23);
    t_param(b.f, "melee-loss-lo", 5);
    t_param(b.f, "melee-loss-hi", 6);
    t_param(b.f, "pursuit-lo", 5);
    t_param(b.f, "pursuit-hi", 6);
    t_param(b.f, "die-general-attached", 3);
    t_param(b.f, "die-general-melee", 1);
    t_param(b.f, "damage-lo", 5);
    t_param(b.f, "damage-hi", 6);
    b.a = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    b.d = t_unit(b.f, WEM_RED, WEM_INF, 1, 300, 370, 180);
    b.f->s->units[b.a].green = 1;
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
    t_unit(b.f, WEM_RED, WEM_INF, 1, 900, 370, 180);
    return b;
}

static int s_timeout(t_fx *f, unsigned seat) { return f->rs->timeout_default(f->s, seat, &f->d.d, &f->ev); }

static int s_attack(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b->a;
    o.target = b->d;
    return t_order(b->f, 0, &o);
}

/* a combat set at step E with the dice given: blue A and A2 (two Formations), red D */
static void s_at_result(s_board *b, int a2) {
    t_fx *f = b->f;
    t_step(f, WEM_STEP_COMBAT, WEM_BLUE);
    wem_combat *c = &f->s->combat;
    memset(c, 0, sizeof *c);
    c->active = 1;
    c->att_army = WEM_BLUE;
    c->def_army = WEM_RED;
    c->att = c->starter[0] = (int16_t)b->a;
    c->def = c->starter[1] = (int16_t)b->d;
    c->part[b->a] = 1;
    if (a2 >= 0) c->part[a2] = 1;
    c->part[b->d] = 2;
    c->withdrawn = c->general = -1;
    c->stage = WEM_CS_E_ROLL;
}

/* [3.4 Combat] "Combat starts if enemy Units are in contact": the clock of the army that orders
 * its combats ran out: the first contact left is fought all the same */
static void test_wem_combat_timeout_fights_first_contact(void **st) {
    (void)st;
    s_board b = s_new();
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_timeout(b.f, 0), 0);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "combat", 0);
    assert_non_null(e);
    assert_string_equal(e->piece, b.f->sc.units[b.a].id);
    assert_string_equal(t_kind(b.f), "counterattack");
    t_free(b.f);
}

/* [3.4 Combat B. Counterattack] "the defensive player can choose to melee a second time": out of
 * time, he does not */
static void test_wem_counterattack_timeout_declines(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "counterattack");
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_timeout(b.f, 1), 0);
    assert_null(t_ev_kind(&b.f->ev, "counterattack", 0));
    assert_non_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Melee] "its controlling player can choose to reroll the die": out of time, the die stands */
static void test_wem_melee_reroll_timeout_keeps_die(void **st) {
    (void)st;
    s_board b = s_new();
    b.f->sc.units[b.a].cls = WEM_GUARD;
    t_rolls(b.f, 4, 1, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "reroll");
    assert_int_equal(s_timeout(b.f, 0), 0);
    assert_null(t_ev_kind(&b.f->ev, "melee-reroll", 0));
    assert_int_equal(b.f->s->combat.rerolled[0], 0);
    t_free(b.f);
}

/* [Pursuit] "The player must decide from among the type of Units that participated in the melee
 * ... and roll 1 die": the Pursuit cannot be declined; out of time, the first type rolls */
static void test_wem_pursuit_cannot_be_declined(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 4, 4, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "pursuit");
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 0;
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Pursuit"));
    assert_int_equal(t_legal_n(b.f, 0), 1); /* infantry only */
    t_legal_all_accepted(b.f, 0);
    t_rolls(b.f, 3, 1, 3, 3);
    assert_int_equal(s_timeout(b.f, 0), 0);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "pursuit-roll", 0);
    assert_non_null(e);
    assert_int_equal(e->value, 1);
    assert_non_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    assert_int_equal(t_rolls_left(b.f), 0);
    t_free(b.f);
}

/* [Result of Combat] "rolls 1 die for each Formation ... and then chooses 1 of the obtained
 * results": out of time, the highest is kept (the one every player keeps) */
static void test_wem_result_die_timeout_keeps_highest(void **st) {
    (void)st;
    s_board b = s_new();
    int a2 = t_unit(b.f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    s_at_result(&b, a2);
    t_rolls(b.f, 3, 2, 5, 3);
    wem_combat_drive(b.f->s, &b.f->d.d, &b.f->ev);
    assert_string_equal(t_kind(b.f), "result-die");
    assert_int_equal(s_timeout(b.f, 0), 0);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "combat-result", 0);
    assert_non_null(e);
    assert_int_equal(e->army, WEM_RED); /* 5 against 3: red falls back 1 */
    assert_int_equal(e->value, 1);
    t_free(b.f);
}

/* [Result of Combat] "+/- (as the player wants) the rank of the attached General": out of time,
 * the rank is added */
static void test_wem_result_rank_timeout_adds(void **st) {
    (void)st;
    s_board b = s_new();
    int g = t_general(b.f, WEM_BLUE, 1, 3, 2, 300, 400, 0);
    b.f->s->generals[g].attached = (int16_t)b.a;
    s_at_result(&b, -1);
    t_rolls(b.f, 2, 2, 4);
    wem_combat_drive(b.f->s, &b.f->d.d, &b.f->ev);
    assert_string_equal(t_kind(b.f), "result-modifier");
    t_roll(b.f, 12); /* the General's [Attaching] roll: unharmed */
    t_roll(b.f, 1);
    assert_int_equal(s_timeout(b.f, 0), 0);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "combat-result", 0);
    assert_non_null(e);
    assert_int_equal(e->army, WEM_RED); /* 2 + 3 against 4 */
    assert_int_equal(e->value, 1);
    t_free(b.f);
}

/* [Suffer Damages (melee)] "The controlling player can distribute the Losses": out of time, one
 * at a time from the Unit that started the combat, which never takes fewer than another */
static void test_wem_losses_timeout_starter_first(void **st) {
    (void)st;
    s_board b = s_new();
    t_fx *f = b.f;
    int a2 = t_unit(f, WEM_BLUE, WEM_INF, 1, 270, 400, 0);
    t_step(f, WEM_STEP_COMBAT, WEM_BLUE);
    wem_combat *c = &f->s->combat;
    memset(c, 0, sizeof *c);
    c->active = 1;
    c->att_army = WEM_BLUE;
    c->def_army = WEM_RED;
    c->att = c->starter[0] = (int16_t)b.a;
    c->def = c->starter[1] = (int16_t)b.d;
    c->part[a2] = 1 | 4;
    c->part[b.a] = 1;
    c->part[b.d] = 2;
    c->melee_step = 'A';
    c->loser = 2;
    c->withdrawn = c->general = -1;
    c->loss_n[0] = 3;
    c->stage = WEM_CS_M_LOSS;
    wem_combat_drive(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->phase, WEM_PH_LOSSES);
    assert_int_equal(s_timeout(f, 0), 0);
    assert_int_equal(f->s->units[b.a].losses, 2);
    assert_int_equal(f->s->units[a2].losses, 1);
    assert_int_not_equal(f->s->phase, WEM_PH_LOSSES);
    t_free(f);
}

/* [Unattached Generals] "Otherwise, the counter can be moved up to 2 units of measurement": out
 * of time, he stays where he is */
static void test_wem_general_escape_timeout_stays(void **st) {
    (void)st;
    s_board b = s_new();
    int g = t_general(b.f, WEM_RED, 1, 2, 1, 900, 600, 0);
    b.f->s->generals[g].at.x = 300 * WEM_MM;
    b.f->s->generals[g].at.y = 385 * WEM_MM - WEM_UOM / 4;
    b.f->s->units[b.d].status = WEM_ELIMINATED;
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b.a;
    o.target = WEM_GEN_BASE + g;
    t_roll(b.f, 4);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_string_equal(t_kind(b.f), "general-escape");
    wem_pt at = b.f->s->generals[g].at;
    assert_int_equal(s_timeout(b.f, 1), 0);
    assert_int_equal(b.f->s->generals[g].status, WEM_ON);
    assert_int_equal(b.f->s->generals[g].at.x, at.x);
    assert_int_equal(b.f->s->generals[g].at.y, at.y);
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Bombardment effects table 8/10] "must Withdraw 1. If the controlling player cannot or does not
 * want to ...": out of time, the target Withdraws 1 (the table's rule) and is not Shaken */
static void test_wem_bombard_8_10_timeout_withdraws(void **st) {
    (void)st;
    t_fx *f = t_new(2, 7);
    t_param(f, "damage-lo", 5);
    t_param(f, "damage-hi", 6);
    int gun = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 300, 400, 0);
    int tgt = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 900, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 900, 300, 180);
    assert_int_equal(t_step(f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_BOMBARD);
    o.unit = gun;
    o.target = tgt;
    t_rolls(f, 4, 4, 5, 1, 2);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_string_equal(t_kind(f), "bombard-withdraw");
    wem_pt at = f->s->units[tgt].at;
    assert_int_equal(s_timeout(f, 1), 0);
    assert_int_equal(f->s->units[tgt].yellow, 0);
    assert_int_equal(f->s->units[tgt].at.y, at.y - WEM_UOM);
    assert_int_equal(f->s->phase, WEM_PH_BOMBARD);
    t_free(f);
}

/* [The Garrisons] "All of the enemy Formations still in contact with a Garrison at the end of the
 * melee must Withdraw 1": the whole Formation, its Unit beside the one touching too */
static void test_wem_garrison_enemy_formation_withdraws_whole(void **st) {
    (void)st;
    s_board b = s_new();
    t_fx *f = b.f;
    f->sc.units[b.d].kind = WEM_GARRISON;
    f->sc.units[b.d].fire = 1;
    f->sc.units[b.d].cls = WEM_VETERAN;
    f->s->units[b.d].at.y = 385 * WEM_MM - WEM_UOM / 4;
    int a2 = t_unit(f, WEM_BLUE, WEM_INF, 1, 330, 400, 0); /* beside A, in its Formation */
    f->s->units[a2].green = 1;
    wem_pt at1 = f->s->units[b.a].at, at2 = f->s->units[a2].at;
    t_rolls(f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(f), "counterattack");
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 0;
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_null(t_ev_kind(&f->ev, "combat-result", 0));
    assert_non_null(t_ev_kind(&f->ev, "garrison-withdraw", 0));
    /* both face north: straight back is south, 1 unit of measurement */
    assert_int_equal(f->s->units[b.a].at.y, at1.y + WEM_UOM);
    assert_int_equal(f->s->units[a2].at.y, at2.y + WEM_UOM);
    assert_int_equal(f->s->units[a2].at.x, at2.x);
    assert_int_equal(f->s->units[b.a].yellow, 0);
    assert_int_equal(f->s->units[a2].yellow, 0);
    t_free(f);
}

/* the Pursuit Charge asked: A beat D by 2 (4 against 2), D withdrew 1, the infantry pursuit
 * rolled a 6 */
static void s_pursuit_charge(s_board *b) {
    t_rolls(b->f, 5, 4, 2, 1, 1, 6);
    assert_int_equal(s_attack(b), 0);
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = WEM_INF + 1;
    assert_int_equal(t_order(b->f, 0, &o), 0);
    assert_string_equal(t_kind(b->f), "pursuit-charge");
}

static wem_order s_charge(int target, int unit) {
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 1;
    o.n_units = 2;
    o.units[0] = (int16_t)target;
    o.units[1] = (int16_t)unit;
    o.n_values = 2;
    o.values[0] = 0;
    o.values[1] = WEM_UOM;
    return o;
}

/* [Pursuit] "all the Units of that type must resolve the Pursuit by executing the Charge
 * maneuver": once the die succeeds, the pursuer cannot decline a Charge it can make */
static void test_wem_pursuit_charge_is_mandatory(void **st) {
    (void)st;
    s_board b = s_new();
    s_pursuit_charge(&b);
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 0;
    wem_pt at = b.f->s->units[b.a].at;
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Pursuit"));
    assert_int_equal(b.f->s->units[b.a].at.y, at.y);
    /* legal() lists no refusal, and every Charge it lists is accepted */
    assert_true(t_legal_n(b.f, 0) >= 1);
    t_legal_all_accepted(b.f, 0);
    brt_buf buf;
    buf_init(&buf);
    int n = b.f->rs->legal(b.f->s, 0, &buf);
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL;
    for (int k = 0; k < n; k++) {
        assert_int_equal(buf_next_item(&buf, &pos, &item, &len), 1);
        wem_order lo;
        assert_int_equal(wem_order_decode(b.f->s, item, len, &lo, NULL), 0);
        assert_int_equal(lo.value, 1);
    }
    buf_free(&buf);
    o = s_charge(b.d, b.a);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_int_equal(b.f->s->units[b.a].at.y, 400 * WEM_MM - WEM_UOM);
    t_free(b.f);
}

/* [Pursuit] "against the enemy Unit in Withdraw or, if this is not possible, against an enemy
 * Unit in Formation": another enemy cannot be charged while the Unit in Withdraw can */
static void test_wem_pursuit_charge_the_unit_in_withdraw_first(void **st) {
    (void)st;
    s_board b = s_new();
    int d2 = t_unit(b.f, WEM_RED, WEM_INF, 1, 330, 370, 180); /* beside D, in its Formation */
    b.f->s->units[d2].fought = 1;                             /* out of this combat */
    s_pursuit_charge(&b);
    wem_order o = s_charge(d2, b.a);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Pursuit"));
    assert_non_null(strstr(b.f->err.message, "in Withdraw"));
    t_free(b.f);
}

/* the timeout of the Pursuit Charge: the Charge is due, the first legal() lists is made */
static void test_wem_pursuit_charge_timeout_charges(void **st) {
    (void)st;
    s_board b = s_new();
    s_pursuit_charge(&b);
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_timeout(b.f, 0), 0);
    assert_int_equal(b.f->s->units[b.a].at.y, 400 * WEM_MM - WEM_UOM);
    t_free(b.f);
}

/* the melee won by A with A2 (same type, at A's rear corner, in its Formation) in support: 4 + 1
 * support against 3, D withdraws 1; red rolls 2 Damage dice (A and A2), blue 1; then the Pursuit
 * die of the type (die) */
static void s_pursuit_two(s_board *b, int kind, int a2, int die) {
    t_rolls(b->f, 6, 4, 3, 1, 1, 1, die);
    assert_int_equal(s_attack(b), 0);
    assert_true(b->f->s->combat.part[a2] & 4); /* A2 took part in the melee */
    assert_string_equal(t_kind(b->f), "pursuit");
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = kind + 1;
    assert_int_equal(t_order(b->f, 0, &o), 0);
    assert_int_equal(t_rolls_left(b->f), 0);
    assert_string_equal(t_kind(b->f), "pursuit-charge");
}

/* A charges D (the Unit in Withdraw), then A2 (which cannot reach D) charges R2: each its own
 * Charge, the second asked after the first; A cannot charge twice, A2 cannot decline */
static void s_pursuit_each(s_board *b, int a2, int r2, int32_t dist) {
    t_fx *f = b->f;
    assert_int_equal(f->s->units[b->d].at.y, 370 * WEM_MM - WEM_UOM);
    t_legal_all_accepted(f, 0);
    wem_pt at2 = f->s->units[a2].at;
    wem_order o = s_charge(b->d, b->a); /* one Charge of both Units: refused, each makes its own */
    o.values[1] = dist;
    o.n_units = 3;
    o.units[2] = (int16_t)a2;
    wem_order oa = s_charge(b->d, b->a);
    oa.values[1] = dist;
    assert_int_equal(t_order(f, 0, &o), -1);
    assert_true(t_cites(f, "Pursuit"));
    if (t_order(f, 0, &oa)) fail_msg("[%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[b->a].at.y, 400 * WEM_MM - WEM_UOM);
    assert_int_equal(f->s->units[a2].at.y, at2.y);
    /* the second Unit of the type: its own Charge is due */
    assert_string_equal(t_kind(f), "pursuit-charge");
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 0);
    o = t_o(WEM_O_ANSWER);
    o.value = 0;
    assert_int_equal(t_order(f, 0, &o), -1);
    assert_true(t_cites(f, "Pursuit"));
    assert_int_equal(t_order(f, 0, &oa), -1); /* A has made its Charge */
    assert_true(t_cites(f, "Pursuit"));
    assert_true(t_legal_n(f, 0) >= 1);
    t_legal_all_accepted(f, 0);
    o = s_charge(r2, a2);
    o.values[1] = dist;
    if (t_order(f, 0, &o)) fail_msg("[%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[a2].at.x, at2.x);
    assert_int_equal(f->s->units[a2].at.y, at2.y - WEM_UOM); /* to contact with R2 */
    assert_string_not_equal(t_kind(f), "pursuit-charge");
}

/* [Pursuit] "all the Units of that type must resolve the Pursuit by executing the Charge
 * maneuver": A and A2, the winner's infantry in the melee (A2 in support), each make their own
 * Charge 1, one after the other */
static void test_wem_pursuit_all_units_of_the_type_charge(void **st) {
    (void)st;
    s_board b = s_new();
    int a2 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 330, 430, 0); /* at A's rear corner: in support */
    int r2 = t_unit(b.f, WEM_RED, WEM_INF, 2, 345, 370, 180); /* 1 unit ahead of A2 */
    s_pursuit_two(&b, WEM_INF, a2, 6);
    s_pursuit_each(&b, a2, r2, WEM_UOM);
    t_free(b.f);
}

/* [Pursuit] "Cavalry Units: ... must execute a Charge 2 maneuver": both cavalry Units of the
 * winner in the melee charge, each its own; the die 5 + 1 cavalry succeeds */
static void test_wem_pursuit_all_cavalry_units_charge(void **st) {
    (void)st;
    s_board b = s_new();
    b.f->sc.units[b.a].kind = WEM_CAV;
    b.f->sc.units[b.a].cav = WEM_CAV_MEDIUM;
    int a2 = t_unit(b.f, WEM_BLUE, WEM_CAV, 1, 330, 430, 0); /* at A's rear corner: in support */
    int r2 = t_unit(b.f, WEM_RED, WEM_INF, 2, 345, 370, 180);
    s_pursuit_two(&b, WEM_CAV, a2, 5);
    s_pursuit_each(&b, a2, r2, 2 * WEM_UOM);
    t_free(b.f);
}

/* [3.4 C. Attack Reinforcements] "the attacking player's Formations without an orange marker ...
 * occupy the area of engagement of one of the Units of the defending Formation involved in the
 * combat": R stands in the area of D2, which is in D's Formation but not in the melee */
static void test_wem_reinforce_area_of_any_unit_of_defending_formation(void **st) {
    (void)st;
    s_board b = s_new();
    t_fx *f = b.f;
    t_put(f, b.d, 290, 370, 180);
    int d2 = t_unit(f, WEM_RED, WEM_INF, 1, 260, 370, 180); /* beside D: its Formation */
    int r = t_unit(f, WEM_BLUE, WEM_INF, 2, 215, 415, 0);   /* in D2's area, not in D's */
    (void)d2, (void)r;
    t_rolls(f, 4, 3, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(f), "counterattack");
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 0;
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_string_equal(t_kind(f), "reinforce");
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 0);
    t_rolls(f, 2, 3, 3);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_non_null(t_ev_kind(&f->ev, "combat-result", 0));
    t_free(f);
}

/* [Result of Combat] "1 Unit (chosen by the player) per each Formation executing the Fall Back
 * maneuver suffers 1 Loss": out of time, the Unit of the Formation with most capacity left */
static void test_wem_result_fall_back_loss_timeout_most_capacity(void **st) {
    (void)st;
    s_board b = s_new();
    int d2 = t_unit(b.f, WEM_RED, WEM_INF, 1, 330, 370, 180); /* beside D: its Formation */
    b.f->s->units[b.d].losses = 2;
    s_at_result(&b, -1);
    t_rolls(b.f, 2, 5, 2);
    wem_combat_drive(b.f->s, &b.f->d.d, &b.f->ev);
    assert_string_equal(t_kind(b.f), "fall-back-loss");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 1);
    assert_int_equal(s_timeout(b.f, 1), 0);
    assert_int_equal(b.f->s->units[d2].losses, 1);
    assert_int_equal(b.f->s->units[b.d].losses, 2);
    t_free(b.f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_combat_timeout_fights_first_contact),
        cmocka_unit_test(test_wem_counterattack_timeout_declines),
        cmocka_unit_test(test_wem_melee_reroll_timeout_keeps_die),
        cmocka_unit_test(test_wem_pursuit_cannot_be_declined),
        cmocka_unit_test(test_wem_result_die_timeout_keeps_highest),
        cmocka_unit_test(test_wem_result_rank_timeout_adds),
        cmocka_unit_test(test_wem_losses_timeout_starter_first),
        cmocka_unit_test(test_wem_general_escape_timeout_stays),
        cmocka_unit_test(test_wem_bombard_8_10_timeout_withdraws),
        cmocka_unit_test(test_wem_garrison_enemy_formation_withdraws_whole),
        cmocka_unit_test(test_wem_pursuit_charge_is_mandatory),
        cmocka_unit_test(test_wem_pursuit_charge_the_unit_in_withdraw_first),
        cmocka_unit_test(test_wem_pursuit_charge_timeout_charges),
        cmocka_unit_test(test_wem_pursuit_all_units_of_the_type_charge),
        cmocka_unit_test(test_wem_pursuit_all_cavalry_units_charge),
        cmocka_unit_test(test_wem_reinforce_area_of_any_unit_of_defending_formation),
        cmocka_unit_test(test_wem_result_fall_back_loss_timeout_most_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
