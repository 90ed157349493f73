/*
 * test_wem_cases_melee.c - rule cases of [Melee] (Waterloo: Enemy Mistakes): the melee effects
 * table, the melee die modifiers, the reroll, the corner contact, [Suffer Damages (melee)],
 * [Pursuit] and [Support to melee].
 *
 * The board: a blue infantry tile A at (300, 400) mm facing north, IN MOVEMENT, front to front
 * with a red tile D at (300, 370) facing south; a second pair far to the east keeps the combat
 * subphase open after the combat under test. Dice in order: the attacker's melee die, the
 * defender's, then the Damage dice of each side (one per enemy Unit in the combat), the Pursuit
 * die, the Result dice.
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

static s_board s_new(int dkind) {
    s_board b;
    b.f = t_new(2, 11);
    t_param(b.f, "melee-loss-lo", 5);
    t_param(b.f, "melee-loss-hi", 6);
    t_param(b.f, "pursuit-lo", 5);
    t_param(b.f, "pursuit-hi", 6);
    t_param(b.f, "die-general-attached", 3);
    b.a = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    b.d = t_unit(b.f, WEM_RED, dkind, 1, 300, dkind == WEM_INF || dkind == WEM_CAV ? 370 : 378, 180);
    if (dkind != WEM_INF && dkind != WEM_CAV) b.f->s->units[b.d].at.y = 385 * WEM_MM - WEM_UOM / 4;
    b.f->s->units[b.a].green = 1;
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
    t_unit(b.f, WEM_RED, WEM_INF, 1, 900, 370, 180);
    return b;
}

static int s_attack(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b->a;
    o.target = b->d;
    return t_order(b->f, 0, &o);
}

/* the final results of the melee: attacker's side minus defender's (the melee-result event) */
static int s_margin(t_fx *f, int nth) {
    const Wem__V1__Event *e = t_ev_kind(&f->ev, "melee-result", nth);
    assert_non_null(e);
    return e->value;
}

/* [Melee effects table 4] "Your own Unit in melee must Retreat": Withdraw 1 and a yellow marker */
static void test_wem_melee_difference_4_retreats(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 4, 5, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 4);
    assert_int_equal(b.f->s->units[b.d].yellow, 1);
    assert_true(b.f->s->units[b.d].withdrew);
    assert_int_equal(b.f->s->units[b.d].at.y, 370 * WEM_MM - WEM_UOM); /* 1 unit straight back */
    assert_string_equal(t_kind(b.f), "pursuit");
    t_free(b.f);
}

/* [Melee effects table 2/3] Withdraw 1, no yellow marker; a Pursuit opportunity */
static void test_wem_melee_difference_2_withdraws(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 4, 4, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 2);
    assert_int_equal(b.f->s->units[b.d].yellow, 0);
    assert_true(b.f->s->units[b.d].withdrew);
    assert_string_equal(t_kind(b.f), "pursuit");
    t_free(b.f);
}

/* [Melee effects table 5+] "Your own Unit in melee is Routed" (2 yellow markers) */
static void test_wem_melee_difference_5_routs(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 4, 6, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].yellow, 2);
    t_free(b.f);
}

/* [Melee effects table 0/1] both Units stay in contact: no effect, no Pursuit; the defender may
 * counterattack [3.4 B] */
static void test_wem_melee_difference_1_stays(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 4, 3, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    assert_int_equal(b.f->s->units[b.d].yellow, 0);
    assert_false(b.f->s->units[b.d].withdrew);
    assert_string_equal(t_kind(b.f), "counterattack");
    t_free(b.f);
}

/* [Melee effects table 2/3] "If it is an Artillery Unit, it is then captured" */
static void test_wem_melee_artillery_withdraw_captured(void **st) {
    (void)st;
    s_board b = s_new(WEM_ART_FOOT);
    t_rolls(b.f, 4, 3, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_CAPTURED);
    t_free(b.f);
}

/* [Melee die modifiers] "+X add the Fire Discipline value if the melee is between Infantry Units" */
static void test_wem_melee_fire_discipline_between_infantry(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->sc.units[b.a].fire = 2;
    t_rolls(b.f, 4, 1, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0); /* 1 + 2 against 3 */
    t_free(b.f);
}

/* ... not against Cavalry */
static void test_wem_melee_fire_discipline_not_vs_cavalry(void **st) {
    (void)st;
    s_board b = s_new(WEM_CAV);
    b.f->sc.units[b.a].fire = 2;
    t_rolls(b.f, 4, 1, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), -2);
    t_free(b.f);
}

/* [Melee die modifiers] "+1 if the attacker executes a Charge maneuver" */
static void test_wem_melee_charge_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.a].charged = 1;
    b.f->s->units[b.a].charge_dist = WEM_UOM;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    t_free(b.f);
}

/* [Melee die modifiers] "+1 if the General or Commander in Chief is attached to the Formation" */
static void test_wem_melee_attached_general_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int g = t_general(b.f, WEM_RED, 1, 2, 1, 300, 370, 0);
    b.f->s->generals[g].attached = (int16_t)b.d;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), -1);
    t_free(b.f);
}

/* [Melee die modifiers] "+1 if a Unit with a [class] class or superior is in melee" */
static void test_wem_melee_class_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_param(b.f, "melee-class", WEM_ELITE);
    b.f->sc.units[b.a].cls = WEM_ELITE;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    t_free(b.f);
}

/* [Melee die modifiers] "+2 if a Heavy Cavalry Unit is in melee against a Light Cavalry Unit" */
static void test_wem_melee_heavy_vs_light_plus_2(void **st) {
    (void)st;
    s_board b = s_new(WEM_CAV);
    b.f->sc.units[b.a].kind = WEM_CAV;
    b.f->sc.units[b.a].cav = WEM_CAV_HEAVY;
    b.f->sc.units[b.d].cav = WEM_CAV_LIGHT;
    t_rolls(b.f, 4, 3, 4, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    t_free(b.f);
}

/* [Melee die modifiers] "+1 if in melee against a Unit that executed a Withdraw", not for
 * Infantry against Cavalry */
static void test_wem_melee_against_withdrawn_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.d].withdrew = 1;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    t_free(b.f);
    b = s_new(WEM_CAV);
    b.f->s->units[b.d].withdrew = 1;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0);
    t_free(b.f);
}

/* [Area Terrain Wood] +1 to Infantry Units in defense NOT IN MOVEMENT (entirely inside) */
static void test_wem_melee_wood_defence(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    wem_scenario *sc = &b.f->sc;
    wem_area_def *a = &sc->areas[sc->n_areas++];
    memset(a, 0, sizeof *a);
    a->kind = WEM_T_WOOD;
    a->first = 0;
    a->n = 4;
    wem_pt v[4] = {{270 * WEM_MM, 340 * WEM_MM}, {330 * WEM_MM, 340 * WEM_MM}, {330 * WEM_MM, 385 * WEM_MM}, {270 * WEM_MM, 385 * WEM_MM}};
    memcpy(sc->verts, v, sizeof v);
    sc->n_verts = 4;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), -1);
    t_free(b.f);
}

/* [Melee] one reroll when a Unit of the reroll class is involved: its player chooses, and the
 * second result stands */
static void test_wem_melee_reroll_by_choice(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_param(b.f, "reroll-class", WEM_GUARD);
    b.f->sc.units[b.a].cls = WEM_GUARD;
    t_param(b.f, "melee-class", WEM_GUARD - 1); /* no class +1 here: the reroll alone */
    t_rolls(b.f, 3, 1, 3, 5);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "reroll");
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_answer(b.f, 0, 1), 0);
    assert_int_equal(s_margin(b.f, 0), 2); /* the reroll 5 against 3 */
    assert_non_null(t_ev_kind(&b.f->ev, "melee-reroll", 0));
    t_free(b.f);
}

/* [Melee modifiers] a Unit Charged on its flank is temporarily Shaken: a Retreat (one yellow
 * marker) leaves it Routed (R-wem-melee-flank) */
static void test_wem_melee_flank_charge_temporarily_shaken(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_put(b.f, b.d, 300, 370, 90); /* facing east: its right flank toward A */
    b.f->s->units[b.a].charged = 1;
    b.f->s->units[b.a].charge_dist = WEM_UOM;
    t_rolls(b.f, 4, 4, 1, 1, 1); /* 4 + 1 Charge against 1 */
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 4);
    assert_int_equal(b.f->s->units[b.d].yellow, 2);
    t_free(b.f);
}

/* [Melee] "if the melee Units are in contact exactly on the corner ... the defensive player
 * decides the sides" */
static void test_wem_melee_corner_defender_picks_sides(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_put(b.f, b.d, 330, 370, 180);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "corner-sides");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 1);
    assert_int_equal(t_legal_n(b.f, 1), 2);
    t_legal_all_accepted(b.f, 1);
    t_free(b.f);
}

/* [Suffer Damages (melee)] 1 die per enemy Unit in the combat, a Loss on its faces; one Unit
 * takes them all */
static void test_wem_melee_damage_one_die_per_enemy(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 4, 3, 3, 6, 5);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].losses, 1);
    assert_int_equal(b.f->s->units[b.a].losses, 1);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "melee-damage", 0);
    assert_non_null(e);
    assert_int_equal(e->n_dice, 1);
    t_free(b.f);
}

/* a combat set at the Losses: blue A and A2 in it, A the Unit that started it, 2 Losses */
static t_fx *s_losses(int *a, int *a2) {
    s_board b = s_new(WEM_INF);
    t_fx *f = b.f;
    *a = b.a;
    *a2 = t_unit(f, WEM_BLUE, WEM_INF, 1, 270, 400, 0);
    t_step(f, WEM_STEP_COMBAT, WEM_BLUE);
    wem_combat *c = &f->s->combat;
    memset(c, 0, sizeof *c);
    c->active = 1;
    c->att_army = WEM_BLUE;
    c->def_army = WEM_RED;
    c->att = c->starter[0] = (int16_t)*a;
    c->def = c->starter[1] = (int16_t)b.d;
    c->part[*a] = 1;
    c->part[*a2] = 1 | 4;
    c->part[b.d] = 2;
    c->melee_step = 'A';
    c->loser = 2;
    c->withdrawn = c->general = -1;
    c->loss_n[0] = 2;
    c->stage = WEM_CS_M_LOSS;
    wem_combat_drive(f->s, &f->d.d, &f->ev);
    return f;
}

static int s_spread(t_fx *f, int a, int na, int a2, int na2) {
    wem_order o = t_o(WEM_O_ANSWER);
    o.n_units = o.n_values = 2;
    o.units[0] = (int16_t)a;
    o.values[0] = na;
    o.units[1] = (int16_t)a2;
    o.values[1] = na2;
    return t_order(f, 0, &o);
}

/* [Suffer Damages (melee)] "The Unit that started the combat CANNOT suffer fewer Losses than the
 * other friendly Units"; the owner distributes */
static void test_wem_losses_starter_not_fewer(void **st) {
    (void)st;
    int a, a2;
    t_fx *f = s_losses(&a, &a2);
    assert_int_equal(f->s->phase, WEM_PH_LOSSES);
    assert_string_equal(t_kind(f), "losses");
    assert_int_equal(s_spread(f, a, 0, a2, 2), -1);
    assert_true(t_cites(f, "Suffer Damages"));
    assert_int_equal(f->s->units[a2].losses, 0);
    assert_int_equal(t_legal_n(f, 0), 2); /* 2/0 and 1/1 */
    t_legal_all_accepted(f, 0);
    assert_int_equal(s_spread(f, a, 1, a2, 1), 0);
    assert_int_equal(f->s->units[a].losses, 1);
    assert_int_equal(f->s->units[a2].losses, 1);
    t_free(f);
}

/* the spread of Losses in the order's text: answer 0 LOSSES... units UNIT... */
static void test_wem_losses_in_text(void **st) {
    (void)st;
    int a, a2;
    t_fx *f = s_losses(&a, &a2);
    char line[96];
    snprintf(line, sizeof line, "answer 0 0 2 units %s %s", f->sc.units[a].id, f->sc.units[a2].id);
    assert_int_equal(t_do(f, 0, line), -1);
    assert_true(t_cites(f, "Suffer Damages"));
    snprintf(line, sizeof line, "answer 0 2 0 units %s %s", f->sc.units[a].id, f->sc.units[a2].id);
    if (t_do(f, 0, line)) fail_msg("%s: [%s] %s", line, f->err.rule, f->err.message);
    assert_int_equal(f->s->units[a].losses, 2);
    t_free(f);
}

/* [Suffer Damages (melee)] "Units CANNOT suffer more Losses than their capacity" */
static void test_wem_losses_capacity_limit(void **st) {
    (void)st;
    int a, a2;
    t_fx *f = s_losses(&a, &a2);
    f->s->units[a2].losses = 3; /* one more takes it to its capacity of 4 */
    assert_int_equal(s_spread(f, a, 0, a2, 2), -1);
    assert_int_equal(s_spread(f, a, 2, a2, 0), 0);
    assert_int_equal(f->s->units[a].losses, 2);
    t_free(f);
}

/* [Pursuit] the winner picks the type of Units (not artillery); still in contact with the Unit
 * that withdrew (here it cannot: an enemy stands behind it): an automatic success, and the
 * Pursuit Charge is asked */
static void test_wem_pursuit_automatic_when_still_in_contact(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_unit(b.f, WEM_BLUE, WEM_INF, 2, 300, 340, 0); /* behind D, touching its rear */
    t_rolls(b.f, 4, 4, 2, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_string_equal(t_kind(b.f), "pursuit");
    assert_int_equal(t_legal_n(b.f, 0), 1); /* infantry: the Pursuit is not declined */
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0);
    assert_null(t_ev_kind(&b.f->ev, "pursuit-roll", 0));
    assert_string_equal(t_kind(b.f), "pursuit-charge");
    t_free(b.f);
}

/* [Pursuit] the die must show the success faces (here 5 or 6): a 4 is no Pursuit */
static void test_wem_pursuit_roll_outside_window_fails(void **st) {
    (void)st;
    s_board b = s_new(WEM_ART_FOOT);
    t_rolls(b.f, 6, 4, 2, 1, 1, 4, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_CAPTURED);
    assert_string_equal(t_kind(b.f), "pursuit");
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "pursuit-roll", 0);
    assert_non_null(e);
    assert_int_equal(e->value, 4);
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    assert_int_equal(t_rolls_left(b.f), 0);
    t_free(b.f);
}

/* ... and a 6 succeeds: the Pursuit Charge is asked */
static void test_wem_pursuit_roll_in_window_charges(void **st) {
    (void)st;
    s_board b = s_new(WEM_ART_FOOT);
    t_rolls(b.f, 5, 4, 2, 1, 1, 6);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0);
    assert_string_equal(t_kind(b.f), "pursuit-charge");
    t_free(b.f);
}

/* [Pursuit] "Infantry Units: must execute a Charge 1": after the roll's success the pursuer
 * charges the Unit that withdrew and is in contact with it again */
static void test_wem_pursuit_infantry_charge_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_rolls(b.f, 5, 4, 2, 1, 1, 6);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].at.y, 370 * WEM_MM - WEM_UOM);
    assert_int_equal(t_answer(b.f, 0, WEM_INF + 1), 0);
    assert_string_equal(t_kind(b.f), "pursuit-charge");
    t_legal_all_accepted(b.f, 0);
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 1;
    o.n_units = 2;
    o.units[0] = (int16_t)b.d;
    o.units[1] = (int16_t)b.a;
    o.n_values = 2;
    o.values[0] = 0;
    o.values[1] = WEM_UOM;
    if (t_order(b.f, 0, &o)) fail_msg("[%s] %s", b.f->err.rule, b.f->err.message);
    assert_int_equal(b.f->s->units[b.a].at.y, 400 * WEM_MM - WEM_UOM);
    t_free(b.f);
}

/* [Pursuit die modifiers] -2 by a Shaken Unit, +1 by Cavalry; "+/-1 (as the player wants)" for
 * a target of the class or higher and for a ★★ General within 2 units: the player picks each
 * sign after the die; success only on the printed faces (here 5 or 6) */
static void test_wem_pursuit_modifiers_as_the_player_wants(void **st) {
    (void)st;
    for (int k = 0; k < 2; k++) {
        s_board b = s_new(WEM_INF);
        b.f->sc.units[b.a].kind = WEM_CAV;
        b.f->sc.units[b.a].cav = WEM_CAV_MEDIUM;
        b.f->s->units[b.a].yellow = 1;
        b.f->sc.units[b.d].cls = WEM_ELITE;
        t_param(b.f, "melee-class", WEM_ELITE);
        t_param(b.f, "pursuit-target-class", WEM_ELITE);
        t_general(b.f, WEM_BLUE, 1, 2, 1, 300, 430, 0);
        t_rolls(b.f, 5, 5, 1, 1, 1, 6); /* 5 against 1 + 1 class: D withdraws; the Pursuit die 6 */
        assert_int_equal(s_attack(&b), 0);
        assert_int_equal(s_margin(b.f, 0), 3);
        assert_int_equal(t_answer(b.f, 0, WEM_CAV + 1), 0);
        const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "pursuit-roll", 0);
        assert_non_null(e);
        assert_int_equal(e->value, 5); /* 6 - 2 Shaken + 1 cavalry */
        assert_string_equal(t_kind(b.f), "pursuit-modifier");
        assert_int_equal(t_legal_n(b.f, 0), 4);
        t_legal_all_accepted(b.f, 0);
        wem_order o = t_o(WEM_O_ANSWER);
        o.n_values = 2;
        o.values[0] = 1;
        o.values[1] = k ? 1 : -1; /* 5 + 1 - 1 = 5: success; 5 + 1 + 1 = 7: none */
        assert_int_equal(t_order(b.f, 0, &o), 0);
        if (k) assert_string_not_equal(t_kind(b.f), "pursuit-charge");
        else assert_string_equal(t_kind(b.f), "pursuit-charge");
        t_free(b.f);
    }
}

/* [Pursuit] "Units of Formations in Recovery (marked in orange) cannot resolve a Pursuit" */
static void test_wem_pursuit_not_from_orange(void **st) {
    (void)st;
    s_board b = s_new(WEM_ART_FOOT);
    b.f->s->units[b.a].orange = 1;
    t_rolls(b.f, 5, 4, 2, 1, 1, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].status, WEM_CAPTURED);
    assert_null(t_ev_kind(&b.f->ev, "pursuit-roll", 0));
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Melee die modifiers] "(except Charge 0)": a Charge of no distance adds nothing */
static void test_wem_melee_charge_0_no_plus(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.a].charged = 1;
    b.f->s->units[b.a].charge_dist = 0;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0);
    t_free(b.f);
}

/* [Torrent] "-1 to Units that cross the Torrent whilst executing a Charge" */
static void test_wem_melee_torrent_charge_minus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.a].charged = 1;
    b.f->s->units[b.a].charge_dist = WEM_UOM;
    b.f->s->units[b.a].charge_torrent = 1;
    t_rolls(b.f, 4, 3, 3, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0); /* +1 Charge, -1 Torrent */
    t_free(b.f);
}

/* [Melee modifiers] the maneuver's record of a Charge on the flank: temporarily Shaken */
static void test_wem_melee_charge_flank_record(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    b.f->s->units[b.d].charge_flank = 1;
    t_rolls(b.f, 4, 5, 1, 1, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->units[b.d].yellow, 2);
    t_free(b.f);
}

/* ---- [Support to melee]: supporters stand in Formation with A (same corps, same facing,
 * touching it) ---- */

/* [Melee die modifiers] "+1 (max +2) for each Unit of the same type in support": three in
 * Formation touching A give +2; a supporter participates: the enemy rolls a Damage die for it */
static void test_wem_support_same_type_max_2(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int s1 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 430, 0); /* in column behind A */
    int s2 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 330, 430, 0); /* at A's rear corner */
    int s3 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 270, 430, 0);
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 2);
    assert_true(b.f->s->combat.part[s1] & 4);
    assert_true(b.f->s->combat.part[s2] & 4);
    assert_true(b.f->s->combat.part[s3] & 4);
    const Wem__V1__Event *e = t_ev_kind(&b.f->ev, "melee-damage", 1);
    assert_non_null(e);
    assert_int_equal(e->n_dice, 4); /* red rolls for A and its three supporters */
    t_free(b.f);
}

/* [Support to melee] one supporter: +1 */
static void test_wem_support_one_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 430, 0);
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    t_free(b.f);
}

/* [Support to melee] "in Formation": a Unit of another corps touching A does not support */
static void test_wem_support_only_in_formation(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int s1 = t_unit(b.f, WEM_BLUE, WEM_INF, 2, 300, 430, 0);
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0);
    assert_false(b.f->s->combat.part[s1] & 4);
    t_free(b.f);
}

/* [Support to melee] "CANNOT give support if ... it is in contact with enemy Units" */
static void test_wem_support_not_in_contact_with_enemy(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int s1 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 330, 400, 0); /* beside A: its corner touches D */
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0);
    assert_false(b.f->s->combat.part[s1] & 4);
    t_free(b.f);
}

/* [Support to melee] "Artillery Units can give support if their area of engagement is occupied
 * by the enemy Unit": +1 Artillery in support */
static void test_wem_support_artillery_plus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int g = t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 322, 407, 0);
    b.f->s->units[g].at.x = 3225 * WEM_MM / 10; /* touching A's right flank, 15 mm short of D */
    b.f->s->units[g].at.y = 4075 * WEM_MM / 10;
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 1);
    assert_true(b.f->s->combat.part[g] & 4);
    t_free(b.f);
}

/* [Withdraw] "A Unit that must Withdraw because of a melee effect, CANNOT ... give support in the
 * subsequent melee" */
static void test_wem_support_not_after_withdraw(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF);
    int s1 = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 430, 0);
    b.f->s->units[s1].withdrew = 1;
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(s_margin(b.f, 0), 0);
    t_free(b.f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_melee_difference_4_retreats),
        cmocka_unit_test(test_wem_melee_difference_2_withdraws),
        cmocka_unit_test(test_wem_melee_difference_5_routs),
        cmocka_unit_test(test_wem_melee_difference_1_stays),
        cmocka_unit_test(test_wem_melee_artillery_withdraw_captured),
        cmocka_unit_test(test_wem_melee_fire_discipline_between_infantry),
        cmocka_unit_test(test_wem_melee_fire_discipline_not_vs_cavalry),
        cmocka_unit_test(test_wem_melee_charge_plus_1),
        cmocka_unit_test(test_wem_melee_charge_0_no_plus),
        cmocka_unit_test(test_wem_melee_torrent_charge_minus_1),
        cmocka_unit_test(test_wem_melee_charge_flank_record),
        cmocka_unit_test(test_wem_melee_attached_general_plus_1),
        cmocka_unit_test(test_wem_melee_class_plus_1),
        cmocka_unit_test(test_wem_melee_heavy_vs_light_plus_2),
        cmocka_unit_test(test_wem_melee_against_withdrawn_plus_1),
        cmocka_unit_test(test_wem_melee_wood_defence),
        cmocka_unit_test(test_wem_melee_reroll_by_choice),
        cmocka_unit_test(test_wem_melee_flank_charge_temporarily_shaken),
        cmocka_unit_test(test_wem_melee_corner_defender_picks_sides),
        cmocka_unit_test(test_wem_melee_damage_one_die_per_enemy),
        cmocka_unit_test(test_wem_losses_starter_not_fewer),
        cmocka_unit_test(test_wem_losses_capacity_limit),
        cmocka_unit_test(test_wem_losses_in_text),
        cmocka_unit_test(test_wem_pursuit_automatic_when_still_in_contact),
        cmocka_unit_test(test_wem_pursuit_roll_outside_window_fails),
        cmocka_unit_test(test_wem_pursuit_roll_in_window_charges),
        cmocka_unit_test(test_wem_pursuit_not_from_orange),
        cmocka_unit_test(test_wem_pursuit_modifiers_as_the_player_wants),
        cmocka_unit_test(test_wem_pursuit_infantry_charge_1),
        cmocka_unit_test(test_wem_support_same_type_max_2),
        cmocka_unit_test(test_wem_support_one_plus_1),
        cmocka_unit_test(test_wem_support_only_in_formation),
        cmocka_unit_test(test_wem_support_not_in_contact_with_enemy),
        cmocka_unit_test(test_wem_support_artillery_plus_1),
        cmocka_unit_test(test_wem_support_not_after_withdraw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
