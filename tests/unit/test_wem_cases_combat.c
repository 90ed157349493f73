/*
 * test_wem_cases_combat.c - rule cases of [3.4 Combat] (Waterloo: Enemy Mistakes): which
 * combats the current army picks and who attacks, the steps B Counterattack, C/D Reinforcements
 * and E [Result of Combat], and [The Garrisons].
 *
 * The board: a blue infantry tile A at (300, 400) mm facing north, front to front with a red tile
 * D at (300, 370) facing south; a second pair far to the east keeps the combat subphase open
 * after the combat under test. Dice in order: the attacker's melee die, the defender's, the Damage
 * dice of each side, then the Result dice of each side (one per Formation in the combat).
 */
/* the fixture's id and name formats are bounded by its own counts (gcc cannot see it) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/combat.h"

typedef struct s_board {
    t_fx *f;
    int a, d, k1, k2;
} s_board;

static s_board s_new(int dkind) {
    s_board b;
    b.f = t_new(2, 13);
    t_param(b.f, "melee-loss-lo", 5);
    t_param(b.f, "melee-loss-hi", 6);
    t_param(b.f, "die-general-attached", 3);
    b.a = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    b.d = t_unit(b.f, WEM_RED, dkind, 1, 300, 370, 180);
    if (dkind != WEM_INF && dkind != WEM_CAV) b.f->s->units[b.d].at.y = 385 * WEM_MM - WEM_UOM / 4;
    b.f->s->units[b.a].green = 1;
    b.k1 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
    b.k2 = t_unit(b.f, WEM_RED, WEM_INF, 1, 900, 370, 180);
    return b;
}

static wem_order s_combat(int a, int d) {
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = a;
    o.target = d;
    return o;
}

static int s_attack(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = s_combat(b->a, b->d);
    return t_order(b->f, 0, &o);
}

static const Wem__V1__Event *s_result(t_fx *f) {
    const Wem__V1__Event *e = t_ev_kind(&f->ev, "combat-result", 0);
    assert_non_null(e);
    return e;
}

/* [3.4 Combat] "the Unit belonging to the Formation IN MOVEMENT (marked in green) is the attacker" */
static void test_wem_combat_green_unit_is_attacker(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.a].green = 0;
    b.f->s->units[b.d].green = 1;
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = s_combat(b.a, b.d);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "IN MOVEMENT"));
    o = s_combat(b.d, b.a);
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_int_equal(b.f->s->combat.att_army, WEM_RED);
    t_free(b.f);
}

/* [3.4 Combat] "A Unit can participate only in 1 combat per turn" */
static void test_wem_combat_one_combat_per_turn(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    b.f->s->units[b.a].fought = 1;
    wem_order o = s_combat(b.a, b.d);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "1 combat per turn"));
    t_free(b.f);
}

/* [3.4 Combat] "Combat starts if enemy Units are in contact": no done while a contact is left */
static void test_wem_combat_every_contact_is_fought(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_DONE);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "3.4 Combat"));
    t_free(b.f);
}

/* [3.4 Combat] no enemy Units in contact: the army has no combat */
static void test_wem_combat_none_without_contact(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    assert_int_equal(t_step(f, WEM_STEP_COMBAT, WEM_BLUE), 0);
    t_free(f);
}

/* [Melee] "Resolve the melee through the front of the attacking Unit": a Unit touching with its
 * rear cannot attack */
static void test_wem_combat_through_attacker_front(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_put(b.f, b.a, 300, 400, 180);
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = s_combat(b.a, b.d);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "front of the attacking Unit"));
    t_free(b.f);
}

/* [Melee] "the Unit that will start the combat must be the one with most contact length
 * measured along the front" */
static void test_wem_combat_starter_most_contact_length(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_put(b.f, b.a, 290, 400, 0);                           /* 20 mm of its front on D */
    int a3 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 320, 400, 0); /* 10 mm */
    b.f->s->units[a3].green = 1;
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = s_combat(a3, b.d);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "most contact length"));
    t_legal_all_accepted(b.f, 0);
    o = s_combat(b.a, b.d);
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    t_free(b.f);
}

/* legal(): each combat the army may pick; apply accepts each */
static void test_wem_combat_legal_all_accepted(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    assert_int_equal(t_legal_n(b.f, 0), 2);
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_legal_n(b.f, 1), 0);
    t_free(b.f);
}

/* [3.4 B. Counterattack] the defender chooses to melee a second time with roles swapped */
static void test_wem_counterattack_roles_swapped(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 8, 3, 2, 1, 1, 2, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "counterattack");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 1);
    t_legal_all_accepted(b.f, 1);
    assert_int_equal(t_answer(b.f, 1, 1), 0);
    const Wem__V1__Event *m = t_ev_kind(&b.f->ev, "melee", 1);
    assert_non_null(m);
    assert_int_equal(m->value, 'B');
    assert_string_equal(m->piece, b.f->sc.units[b.d].id);
    /* D (2) against A (3): D the attacker now loses by 1 */
    const Wem__V1__Event *r = t_ev_kind(&b.f->ev, "melee-result", 1);
    assert_non_null(r);
    assert_int_equal(r->value, 1);
    t_free(b.f);
}

/* [Withdraw] "A Unit that must Withdraw because of a melee effect, CANNOT start combat": no
 * counterattack after it withdrew */
static void test_wem_counterattack_not_after_withdraw(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 7, 4, 2, 1, 1, 1, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "pursuit");
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0); /* the Pursuit die: 1, no Pursuit */
    assert_null(t_ev_kind(&b.f->ev, "counterattack", 0));
    assert_non_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Result of Combat] the difference "halved (rounded up)" is the loser's Fall Back; 1 Loss per
 * Formation falling back */
static void test_wem_result_fall_back_half_rounded_up(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 6, 3, 2, 1, 1, 6, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0); /* no counterattack */
    const Wem__V1__Event *e = s_result(b.f);
    assert_int_equal(e->value, 3); /* 6 - 1 = 5, halved rounded up */
    assert_int_equal(e->army, WEM_RED);
    assert_int_equal(b.f->s->units[b.d].at.y, 370 * WEM_MM - 3 * WEM_UOM); /* Fall Back 3 */
    assert_int_equal(b.f->s->units[b.a].at.y, 400 * WEM_MM);
    assert_int_equal(b.f->s->units[b.d].losses, 1);
    assert_int_equal(b.f->s->units[b.a].losses, 0);
    assert_int_equal(t_rolls_left(b.f), 0);
    t_free(b.f);
}

/* [Result of Combat] a draw: the current player's side subtracts 0: nobody falls back
 * (R-wem-result-draw) */
static void test_wem_result_draw_no_fall_back(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 6, 3, 2, 1, 1, 4, 4);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_int_equal(s_result(b.f)->value, 0);
    assert_int_equal(b.f->s->units[b.d].losses, 0);
    assert_int_equal(b.f->s->units[b.a].losses, 0);
    t_free(b.f);
}

/* [Result of Combat] "All the Formations that participated in the combat must receive 2 orange
 * markers"; every participant has fought */
static void test_wem_result_two_orange_markers(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 6, 3, 2, 1, 1, 4, 4);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_int_equal(b.f->s->units[b.a].orange, 2);
    assert_int_equal(b.f->s->units[b.d].orange, 2);
    assert_int_equal(b.f->s->units[b.a].green, 0);
    assert_true(b.f->s->units[b.a].fought);
    assert_true(b.f->s->units[b.d].fought);
    assert_int_equal(b.f->s->units[b.k1].orange, 0);
    t_free(b.f);
}

/* [Result of Combat] +2 per enemy Unit that received 1 yellow marker in the combat; Fall Back 4
 * or more: the Units are Shaken, or suffer a Loss if they already are */
static void test_wem_result_fall_back_4_shakes_or_loss(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 7, 5, 1, 1, 1, 1, 6, 1); /* melee 5 - 1 = 4: D Retreats (1 yellow) */
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0); /* the Pursuit die: 1, no Pursuit */
    const Wem__V1__Event *e = s_result(b.f);
    assert_int_equal(e->value, 4); /* 6 + 2 against 1: 7, halved rounded up */
    assert_int_equal(b.f->s->units[b.d].yellow, 1);
    assert_int_equal(b.f->s->units[b.d].losses, 2); /* already Shaken: a Loss, and the Fall Back Loss */
    t_free(b.f);
}

/* [Result of Combat] "+/- (as the player wants) the rank of the attached General": his player
 * chooses the sign */
static void test_wem_result_general_rank_sign_chosen(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int g = t_general(b.f, WEM_BLUE, 1, 3, 2, 300, 400, 0);
    b.f->s->generals[g].attached = (int16_t)b.a;
    b.f->s->generals[g].markers = 2;
    t_rolls(b.f, 8, 2, 2, 1, 1, 4, 4, 6, 6); /* melee 2 + 1 against 2 */
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_string_equal(t_kind(b.f), "result-modifier");
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_answer(b.f, 0, -1), 0);
    const Wem__V1__Event *e = s_result(b.f);
    assert_int_equal(e->army, WEM_BLUE); /* 4 - 3 against 4 */
    assert_int_equal(e->value, 2);
    /* [Attaching] "all markers ... stored in his box ... are removed"; he rolls his 2 dice */
    assert_int_equal(b.f->s->generals[g].markers, 0);
    assert_non_null(t_ev_kind(&b.f->ev, "general-check", 0));
    assert_int_equal(b.f->s->generals[g].status, WEM_ON);
    t_free(b.f);
}

/* [Result of Combat] "Each player rolls 1 die for each Formation participating in the combat and
 * then chooses 1 of the obtained results" */
static void test_wem_result_die_player_chooses(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_fx *f = b.f;
    int a2 = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_step(f, WEM_STEP_COMBAT, WEM_BLUE);
    wem_combat *c = &f->s->combat;
    memset(c, 0, sizeof *c);
    c->active = 1;
    c->att_army = WEM_BLUE;
    c->def_army = WEM_RED;
    c->att = c->starter[0] = (int16_t)b.a;
    c->def = c->starter[1] = (int16_t)b.d;
    c->part[b.a] = 1;
    c->part[a2] = 1;
    c->part[b.d] = 2;
    c->withdrawn = c->general = -1;
    c->stage = WEM_CS_E_ROLL;
    t_rolls(f, 3, 3, 5, 2);
    wem_combat_drive(f->s, &f->d.d, &f->ev);
    assert_string_equal(t_kind(f), "result-die");
    assert_int_equal(t_legal_n(f, 0), 2);
    assert_int_equal(t_answer(f, 0, 0), 0); /* keeps the 3 */
    const Wem__V1__Event *e = s_result(f);
    assert_int_equal(e->army, WEM_RED);
    assert_int_equal(e->value, 1);
    t_free(f);
}

/* [3.4 C. Attack Reinforcements] a Formation of the attacker without orange in the area of
 * engagement of a defending Unit may Charge: its player is asked */
static void test_wem_reinforce_asked_of_attacker(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_unit(b.f, WEM_BLUE, WEM_INF, 2, 250, 370, 0); /* 20 mm off D's flank */
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_string_equal(t_kind(b.f), "reinforce");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 0);
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_answer(b.f, 0, 0), 0);
    assert_non_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    t_free(b.f);
}

/* [3.4 C] the reinforcing Formation Charges (no green marker needed) and melees the defending
 * Unit: a third melee, step C */
static void test_wem_reinforce_charge_melees(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int r = t_unit(b.f, WEM_BLUE, WEM_INF, 2, 250, 370, 0);
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_string_equal(t_kind(b.f), "reinforce");
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 1;
    o.n_units = 2;
    o.units[0] = (int16_t)b.d;
    o.units[1] = (int16_t)r;
    o.n_values = 2;
    o.values[0] = 900; /* a quarter turn to face D */
    o.values[1] = 4 * WEM_UOM;
    if (t_order(b.f, 0, &o)) fail_msg("[%s] %s", b.f->err.rule, b.f->err.message);
    const Wem__V1__Event *m = t_ev_kind(&b.f->ev, "melee", 1);
    assert_non_null(m);
    assert_int_equal(m->value, 'C');
    assert_string_equal(m->piece, b.f->sc.units[r].id);
    assert_int_equal(b.f->s->units[r].green, 0);
    t_free(b.f);
}

/* [The Garrisons] "Combats involving Garrisons ignore the Result phase. All of the enemy
 * Formations still in contact with a Garrison at the end of the melee must Withdraw 1." */
static void test_wem_garrison_ignores_result_enemies_withdraw(void **st) {
    (void)st;
    s_board b = s_new(WEM_GARRISON);
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "counterattack"); /* all its sides fight */
    assert_int_equal(t_answer(b.f, 1, 0), 0);
    assert_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    assert_non_null(t_ev_kind(&b.f->ev, "garrison-withdraw", 0));
    assert_int_equal(b.f->s->units[b.a].orange, 0);
    assert_true(b.f->s->units[b.a].fought);
    t_free(b.f);
}

/* [The Garrisons] "Garrisons can NEVER be moved (ignore Withdraw or Retreat effects)" */
static void test_wem_garrison_ignores_withdraw(void **st) {
    (void)st;
    s_board b = s_new(WEM_GARRISON);
    wem_pt at = b.f->s->units[b.d].at;
    t_rolls(b.f, 4, 5, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_ON);
    assert_false(b.f->s->units[b.d].withdrew);
    assert_int_equal(b.f->s->units[b.d].at.y, at.y);
    t_free(b.f);
}

/* [The Garrisons] "The Hougoumont Garrison is eliminated if it is Routed" */
static void test_wem_garrison_hougoumont_routed_eliminated(void **st) {
    (void)st;
    s_board b = s_new(WEM_GARRISON);
    snprintf(b.f->sc.units[b.d].id, WEM_ID, "R-H");
    t_rolls(b.f, 4, 6, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_ELIMINATED);
    t_free(b.f);
}

/* ... "the La Haye Sainte Garrison is eliminated if it is Routed or in Retreat as a result of
 * melee", while Hougoumont in Retreat stays */
static void test_wem_garrison_lhs_retreat_eliminated(void **st) {
    (void)st;
    s_board b = s_new(WEM_GARRISON);
    snprintf(b.f->sc.units[b.d].id, WEM_ID, "R-LHS");
    t_rolls(b.f, 4, 5, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_ELIMINATED);
    t_free(b.f);
    b = s_new(WEM_GARRISON);
    snprintf(b.f->sc.units[b.d].id, WEM_ID, "R-H");
    t_rolls(b.f, 4, 5, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_ON);
    assert_int_equal(b.f->s->units[b.d].yellow, 0);
    t_free(b.f);
}

/* [Melee] "the attacking player chooses the Unit, if the contact length is even": an enemy
 * attacker (IN MOVEMENT) with two Units tied is asked which starts */
static void test_wem_combat_starter_tie_attacker_chooses(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.a].green = 0;
    t_put(b.f, b.d, 285, 370, 180);
    int d2 = t_unit(b.f, WEM_RED, WEM_INF, 1, 315, 370, 180);
    b.f->s->units[b.d].green = b.f->s->units[d2].green = 1;
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = s_combat(b.d, b.a);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_string_equal(t_kind(b.f), "starter");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 1);
    assert_int_equal(t_legal_n(b.f, 1), 2);
    t_legal_all_accepted(b.f, 1);
    o = t_o(WEM_O_ANSWER);
    o.n_units = 1;
    o.units[0] = (int16_t)d2;
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(t_order(b.f, 1, &o), 0);
    assert_int_equal(b.f->s->combat.starter[0], d2);
    const Wem__V1__Event *m = t_ev_kind(&b.f->ev, "melee", 0);
    assert_non_null(m);
    assert_string_equal(m->piece, b.f->sc.units[d2].id);
    t_free(b.f);
}

/* [3.4 B] the defender counterattacks only through its front: struck on its flank it cannot */
static void test_wem_counterattack_needs_defender_front(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_put(b.f, b.d, 300, 370, 90);
    t_rolls(b.f, 6, 3, 2, 1, 1, 4, 4);
    assert_int_equal(s_attack(&b), 0);
    assert_null(t_ev_kind(&b.f->ev, "counterattack", 0));
    assert_non_null(t_ev_kind(&b.f->ev, "combat-result", 0));
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* on random boards of a few Units in and near contact, every combat decision has a legal
 * answer and the random answers among them finish the subphase */
static void test_wem_combat_random_boards_finish(void **st) {
    (void)st;
    uint64_t x = 11;
    int fought = 0;
    for (int seed = 1; seed <= 400; seed++) {
        t_fx *f = t_new(2, (uint64_t)seed);
        int n = 3 + (int)(t_next(&x) % 6);
        for (int i = 0; i < n; i++) {
            int army = i % 2 ? WEM_RED : WEM_BLUE;
            int kinds[4] = {WEM_INF, WEM_CAV, WEM_INF, WEM_ART_FOOT};
            int kind = kinds[t_next(&x) % 4];
            if (army == WEM_RED && t_next(&x) % 8 == 0) kind = WEM_GARRISON;
            for (int tries = 0; tries < 20; tries++) {
                int px = 300 + 30 * (int)(t_next(&x) % 4), py = 300 + 30 * (int)(t_next(&x) % 4);
                int h = army == WEM_BLUE ? 0 : 180;
                if (t_next(&x) % 4 == 0) h = (int)(t_next(&x) % 4) * 90;
                int u = t_unit(f, army, kind, 1 + (int)(t_next(&x) % 2), px, py, h);
                f->s->units[u].green = (uint8_t)(t_next(&x) % 2);
                f->sc.units[u].cls = (uint8_t)(t_next(&x) % 5);
                f->sc.units[u].cav = kind == WEM_CAV ? (uint8_t)(1 + t_next(&x) % 3) : 0;
                f->sc.units[u].fire = kind == WEM_INF ? (uint8_t)(t_next(&x) % 3) : 0;
                f->s->units[u].yellow = (uint8_t)(t_next(&x) % 5 == 0);
                f->s->units[u].orange = (uint8_t)(t_next(&x) % 5 == 0);
                int clash = 0;
                wem_rect ru = wem_unit_rect(f->s, u);
                for (int v = 0; v < u; v++) {
                    wem_rect rv = wem_unit_rect(f->s, v);
                    if (wem_g_contact(&ru, &rv, wem_tol(f->s)) == WEM_OVERLAP) clash = 1;
                }
                if (!clash) break;
                f->sc.n_units--;
            }
        }
        /* an unattached General of each side somewhere near, and one attached */
        for (int a = 0; a < 2; a++) {
            int g = t_general(f, a ? WEM_RED : WEM_BLUE, 1, 1 + (int)(t_next(&x) % 3), 1,
                              290 + 15 * (int)(t_next(&x) % 8), 290 + 15 * (int)(t_next(&x) % 8), 0);
            if (t_next(&x) % 2) {
                for (size_t u = 0; u < f->sc.n_units; u++)
                    if (f->sc.units[u].army == (a ? WEM_RED : WEM_BLUE)) {
                        f->s->generals[g].attached = (int16_t)u;
                        f->s->generals[g].at = f->s->units[u].at;
                        break;
                    }
            } else {
                wem_rect rg = wem_general_rect(f->s, g);
                for (size_t u = 0; u < f->sc.n_units; u++) {
                    wem_rect ru = wem_unit_rect(f->s, (int)u);
                    if (wem_g_contact(&rg, &ru, wem_tol(f->s)) == WEM_OVERLAP) f->s->generals[g].status = WEM_NOT_ENTERED;
                }
            }
        }
        if (!t_step(f, WEM_STEP_COMBAT, WEM_BLUE)) {
            t_free(f);
            continue;
        }
        int steps = 0;
        while (!f->s->over && f->s->step == WEM_STEP_COMBAT) {
            brt_pending p;
            t_pending(f, &p);
            unsigned seat = p.seats & 1u ? 0u : 1u;
            /* a random answer first: refused, it leaves the state and the dice untouched */
            {
                wem_order r = t_o(t_next(&x) % 3 ? WEM_O_ANSWER : WEM_O_DONE);
                r.value = (int)(t_next(&x) % 12) - 3;
                r.n_units = (int)(t_next(&x) % 3);
                for (int i = 0; i < r.n_units; i++) r.units[i] = (int16_t)(t_next(&x) % f->sc.n_units);
                r.n_values = r.n_units;
                for (int i = 0; i < r.n_values; i++) r.values[i] = (int)(t_next(&x) % 4) - 1;
                t_order_or_same(f, seat, &r);
                t_ev_clear(&f->ev);
                if (f->s->over || f->s->step != WEM_STEP_COMBAT) break;
                t_pending(f, &p);
                seat = p.seats & 1u ? 0u : 1u;
            }
            t_legal_random(f, seat, &x, seed, p.kind);
            if (strcmp(p.kind, "combat") == 0) fought++;
            if (++steps > 400) fail_msg("seed %d: the combats do not end (%s)", seed, p.kind);
            t_ev_clear(&f->ev);
        }
        t_free(f);
    }
    assert_true(fought > 20);
}

/* [Result of Combat] "+2 for each Unit that received 1 yellow marker": the Unit that could not
 * Withdraw and got its yellow marker counts +2, not the +1 of a Withdraw (R-wem-result-yellows) */
static void test_wem_result_blocked_withdraw_counts_yellow(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_unit(b.f, WEM_BLUE, WEM_INF, 2, 300, 340, 0); /* behind D: it cannot Withdraw */
    t_rolls(b.f, 4, 4, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].yellow, 1);
    int guard = 0;
    while (!t_ev_kind(&b.f->ev, "combat-result", 0)) {
        brt_pending p;
        t_pending(b.f, &p);
        if (strcmp(p.kind, "result-die") == 0 || ++guard > 10) fail_msg("asked %s", p.kind);
        if (!t_ev_kind(&b.f->ev, "result-dice", 0)) t_rolls(b.f, 2, 1, 3);
        /* the answers of a seat out of time: no counterattack, the Pursuit and its Charge due */
        assert_int_equal(b.f->rs->timeout_default(b.f->s, p.seats & 1u ? 0 : 1, &b.f->d.d, &b.f->ev), 0);
    }
    assert_int_equal(s_result(b.f)->value, 0); /* 1 + 2 against 3: a draw */
    t_free(b.f);
}

/* the combat in the order's text (docs/orders-wem.md): combat, answer, the spread of Losses */
static void test_wem_combat_in_text_orders(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    char line[96];
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    t_rolls(b.f, 6, 3, 2, 1, 1, 6, 1);
    snprintf(line, sizeof line, "combat %s %s", b.f->sc.units[b.a].id, b.f->sc.units[b.d].id);
    if (t_do(b.f, 0, line)) fail_msg("%s: [%s] %s", line, b.f->err.rule, b.f->err.message);
    assert_string_equal(t_kind(b.f), "counterattack");
    if (t_do(b.f, 1, "answer 0")) fail_msg("answer 0: [%s] %s", b.f->err.rule, b.f->err.message);
    assert_int_equal(s_result(b.f)->value, 3);
    t_free(b.f);
}

/* [Introduction] three players: a Prussian Unit's combat is black's to order, his seat answers
 * for it (seat 2), and his red ally is asked nothing */
static void test_wem_combat_black_orders_its_own(void **st) {
    (void)st;
    t_fx *f = t_new(3, 29);
    int k = t_unit(f, WEM_BLACK, WEM_INF, 1, 300, 400, 0);
    int bl = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 370, 180);
    f->s->units[k].green = 1;
    f->s->n_order = 3;
    t_unit(f, WEM_BLACK, WEM_INF, 1, 900, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 900, 370, 180);
    assert_int_equal(t_step(f, WEM_STEP_COMBAT, WEM_BLACK), 1);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 2);
    wem_order o = s_combat(k, bl);
    assert_int_equal(t_order(f, 1, &o), -1); /* not red's decision */
    t_rolls(f, 4, 3, 2, 1, 1);
    assert_int_equal(t_order(f, 2, &o), 0);
    assert_string_equal(t_kind(f), "counterattack");
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 0); /* blue's answer */
    t_free(f);
}

/* every decision of a combat has a legal answer, and answering with any of them leads the
 * combat to its end (random dice and random picks among the legal orders) */
static void test_wem_combat_legal_answers_reach_the_end(void **st) {
    (void)st;
    uint64_t x = 5;
    for (int seed = 1; seed <= 40; seed++) {
        s_board b = s_new(seed % 3 == 0 ? WEM_CAV : WEM_INF);
        b.f->sc.units[b.a].cls = (uint8_t)(seed % 5);
        b.f->sc.units[b.d].cls = (uint8_t)((seed / 5) % 5);
        b.f->sc.units[b.a].fire = (uint8_t)(seed % 3);
        t_unit(b.f, WEM_BLUE, WEM_INF, 2, 250, 370, 0); /* a possible reinforcement */
        t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 430, 0); /* in column behind A */
        int g = t_general(b.f, WEM_RED, 1, 1 + seed % 3, 1, 300, 370, 0);
        b.f->s->generals[g].attached = (int16_t)b.d;
        t_dice_init(&b.f->d, (uint64_t)seed);
        assert_int_equal(s_attack(&b), 0);
        int steps = 0;
        while (!b.f->s->over && b.f->s->phase != WEM_PH_COMBAT) {
            brt_pending p;
            t_pending(b.f, &p);
            unsigned seat = p.seats & 1u ? 0u : 1u;
            assert_true(p.seats & (1u << seat));
            brt_buf buf;
            buf_init(&buf);
            int n = b.f->rs->legal(b.f->s, seat, &buf);
            if (n <= 0) fail_msg("seed %d: no legal answer to %s", seed, p.kind);
            int k = (int)(t_next(&x) % (uint64_t)n);
            size_t pos = 0, len = 0;
            const uint8_t *item = NULL;
            for (int i = 0; i <= k; i++) assert_int_equal(buf_next_item(&buf, &pos, &item, &len), 1);
            int rc = b.f->rs->apply(b.f->s, seat, item, len, &b.f->d.d, &b.f->ev, &b.f->err);
            if (rc) fail_msg("seed %d: legal %s refused: %s", seed, p.kind, b.f->err.message);
            buf_free(&buf);
            assert_true(++steps < 100);
        }
        assert_true(b.f->s->units[b.a].fought);
        t_free(b.f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_combat_green_unit_is_attacker),
        cmocka_unit_test(test_wem_combat_one_combat_per_turn),
        cmocka_unit_test(test_wem_combat_every_contact_is_fought),
        cmocka_unit_test(test_wem_combat_none_without_contact),
        cmocka_unit_test(test_wem_combat_through_attacker_front),
        cmocka_unit_test(test_wem_combat_starter_most_contact_length),
        cmocka_unit_test(test_wem_combat_legal_all_accepted),
        cmocka_unit_test(test_wem_combat_black_orders_its_own),
        cmocka_unit_test(test_wem_combat_in_text_orders),
        cmocka_unit_test(test_wem_combat_starter_tie_attacker_chooses),
        cmocka_unit_test(test_wem_counterattack_needs_defender_front),
        cmocka_unit_test(test_wem_counterattack_roles_swapped),
        cmocka_unit_test(test_wem_counterattack_not_after_withdraw),
        cmocka_unit_test(test_wem_result_fall_back_half_rounded_up),
        cmocka_unit_test(test_wem_result_draw_no_fall_back),
        cmocka_unit_test(test_wem_result_two_orange_markers),
        cmocka_unit_test(test_wem_result_fall_back_4_shakes_or_loss),
        cmocka_unit_test(test_wem_result_general_rank_sign_chosen),
        cmocka_unit_test(test_wem_result_die_player_chooses),
        cmocka_unit_test(test_wem_result_blocked_withdraw_counts_yellow),
        cmocka_unit_test(test_wem_reinforce_asked_of_attacker),
        cmocka_unit_test(test_wem_reinforce_charge_melees),
        cmocka_unit_test(test_wem_garrison_ignores_result_enemies_withdraw),
        cmocka_unit_test(test_wem_garrison_ignores_withdraw),
        cmocka_unit_test(test_wem_garrison_hougoumont_routed_eliminated),
        cmocka_unit_test(test_wem_garrison_lhs_retreat_eliminated),
        cmocka_unit_test(test_wem_combat_legal_answers_reach_the_end),
        cmocka_unit_test(test_wem_combat_random_boards_finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
