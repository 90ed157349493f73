/*
 * test_wem_cases_units.c - rule cases of [Units], [Colored Markers], [General Ney], [Introduction]
 * and [Effects of Unit removal] left open in docs/wem-cases/: each on a board of its own, with
 * fixed dice.
 */
#include "wem_t.h"
#include "wem/combat.h"

/* [Units] "the Infantry and Cavalry Units are represented by 30 mm square tiles"; "two types of
 * 15 mm square counters" for the Artillery; the Garrisons are "square (15x15 mm) counters" */
static void test_wem_units_shapes(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int i = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    int c = t_unit(f, WEM_BLUE, WEM_CAV, 1, 400, 400, 0);
    int a = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 500, 400, 0);
    int h = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 1, 600, 400, 0);
    int g = t_unit(f, WEM_RED, WEM_GARRISON, 0, 700, 200, 180);
    int tile[] = {i, c}, counter[] = {a, h, g};
    for (int k = 0; k < 2; k++) {
        wem_rect r = wem_unit_rect(f->s, tile[k]);
        assert_int_equal(2 * r.hw, 30 * WEM_MM);
        assert_int_equal(2 * r.hd, 30 * WEM_MM);
    }
    for (int k = 0; k < 3; k++) {
        wem_rect r = wem_unit_rect(f->s, counter[k]);
        assert_int_equal(2 * r.hw, 15 * WEM_MM);
        assert_int_equal(2 * r.hd, 15 * WEM_MM);
    }
    t_free(f);
}

/* [Colored Markers] "if the Unit receives a second yellow marker it's Routed and, at the end of
 * the turn, is eliminated": Shaken by the first, Routed by the second, still on the field until
 * [3.5 End of Turn] removes it */
static void test_wem_markers_second_yellow_routed_eliminated_at_end(void **st) {
    (void)st;
    t_fx *f = t_new(2, 7);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 600, 0);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    int k = t_unit(f, WEM_RED, WEM_INF, 1, 500, 200, 180);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 700, 1);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    wem_shake(f->s, r, -1, &f->ev);
    assert_int_equal(f->s->units[r].yellow, 1);
    assert_int_equal(f->s->units[r].status, WEM_ON);
    wem_shake(f->s, r, -1, &f->ev);
    assert_int_equal(f->s->units[r].yellow, 2);
    assert_int_equal(f->s->units[r].status, WEM_ON);   /* Routed, not yet removed */
    f->s->step = WEM_STEP_END;
    wem_end_of_turn(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->units[r].status, WEM_ELIMINATED);
    assert_int_equal(f->s->units[k].status, WEM_ON);
    t_free(f);
}

/* ---- [3.1 Assign]: the Commander in Chief ---- */

/* ---- [Unfastening Artillery Units from Horse Teams] ---- */

/* "At the end of Maneuver subphase 3.3, all Artillery Units, even if in Formations NOT IN
 * MOVEMENT (hence without the green marker), may unfasten from the Horse Team" */
static void test_wem_unfasten_any_gun_even_not_in_movement(void **st) {
    (void)st;
    t_fx *f = t_new(2, 5);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 600, 0);
    int h = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 3, 500, 600, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    f->s->units[g].fastened = f->s->units[h].fastened = 1;
    assert_int_equal(f->s->units[g].green, 0);
    assert_int_equal(f->s->units[h].green, 0);
    assert_int_equal(t_step(f, WEM_STEP_UNFASTEN, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_UNFASTEN);
    o.n_units = 2;                         /* one order names every gun that unfastens */
    o.units[0] = (int16_t)g;
    o.units[1] = (int16_t)h;
    if (t_order(f, 0, &o)) fail_msg("[%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->units[g].fastened, 0);
    assert_int_equal(f->s->units[h].fastened, 0);
    t_free(f);
}

/* ---- melee boards: blue A (in movement) attacks red D in contact; dice fixed ---- */

typedef struct s_board {
    t_fx *f;
    int a, d;
} s_board;

static s_board s_melee(int dkind) {
    s_board b;
    b.f = t_new(2, 11);
    t_param(b.f, "melee-loss-lo", 5);
    t_param(b.f, "melee-loss-hi", 6);
    t_param(b.f, "pursuit-lo", 5);
    t_param(b.f, "pursuit-hi", 6);
    b.a = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    b.d = t_unit(b.f, WEM_RED, dkind, 1, 300, 370, 180);
    b.f->s->units[b.a].green = 1;
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
    t_unit(b.f, WEM_RED, WEM_INF, 1, 900, 370, 180);
    t_rolls(b.f, 4, 3, 3, 1, 1);
    return b;
}

/* the melee's final results, attacker's minus defender's (the melee-result event) */
static int s_fight(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b->a;
    o.target = b->d;
    if (t_order(b->f, 0, &o)) fail_msg("[%s] %s", b->f->err.rule, b->f->err.message);
    const Wem__V1__Event *e = t_ev_kind(&b->f->ev, "melee-result", 0);
    assert_non_null(e);
    int m = e->value;
    t_free(b->f);
    return m;
}

/* the margin of the same melee with no terrain */
static int s_plain(int dkind) {
    s_board b = s_melee(dkind);
    return s_fight(&b);
}

/* [Area Terrain] "The combat modifiers of the area terrain are applied to Units that are entirely
 * placed inside that type of terrain": a Wood over part of the defender gives him nothing; a Wood
 * holding all of him, +1 */
static void test_wem_area_combat_modifier_only_entirely_inside(void **st) {
    (void)st;
    int plain = s_plain(WEM_INF);
    s_board b = s_melee(WEM_INF);
    t_area(b.f, WEM_T_WOOD, "wood", 1, 270, 340, 300, 385);  /* half of D (x 285..315) */
    assert_int_equal(s_fight(&b), plain);
    b = s_melee(WEM_INF);
    t_area(b.f, WEM_T_WOOD, "wood", 1, 270, 340, 330, 385);  /* all of D */
    assert_int_equal(s_fight(&b), plain - 1);
}

/* [Area Terrain] Hills: "+1 to Units in defense NOT IN MOVEMENT (without a green marker)" */
static void test_wem_hill_defence_not_in_movement_melee(void **st) {
    (void)st;
    int plain = s_plain(WEM_INF);
    s_board b = s_melee(WEM_INF);
    t_area(b.f, WEM_T_HILL, "hill", 1, 250, 330, 350, 385);
    assert_int_equal(s_fight(&b), plain - 1);
    b = s_melee(WEM_INF);
    t_area(b.f, WEM_T_HILL, "hill", 1, 250, 330, 350, 385);
    b.f->s->units[b.d].green = 1;          /* in movement: no modifier */
    assert_int_equal(s_fight(&b), plain);
}

/* [Area Terrain] Town: "+2 to Infantry Units in defense NOT IN MOVEMENT" */
static void test_wem_town_infantry_defence_plus_2(void **st) {
    (void)st;
    int plain = s_plain(WEM_INF);
    s_board b = s_melee(WEM_INF);
    t_area(b.f, WEM_T_TOWN, "town", 0, 250, 330, 350, 385);
    assert_int_equal(s_fight(&b), plain - 2);
}

/* [Area Terrain] Town: "-1 to Cavalry Units in melee" (and no +2: that is the Infantry's) */
static void test_wem_town_cavalry_minus_1(void **st) {
    (void)st;
    int plain = s_plain(WEM_CAV);
    s_board b = s_melee(WEM_CAV);
    t_area(b.f, WEM_T_TOWN, "town", 0, 250, 330, 350, 385);
    assert_int_equal(s_fight(&b), plain + 1);
}

/* [Unfastening Artillery Units from Horse Teams] "Artillery Horse Units CANNOT give support to the
 * combat if they are fastened to the Horse Team or during a turn in which they both fastened and
 * unfastened the Horse Team"; an unfastened horse gun touching A's flank, its area of engagement
 * occupied by D, supports (the control) */
static s_board s_horse_gun(int *g) {
    s_board b = s_melee(WEM_INF);
    *g = t_unit(b.f, WEM_BLUE, WEM_ART_HORSE, 1, 322, 407, 0);
    b.f->s->units[*g].at.x = 3225 * WEM_MM / 10;
    b.f->s->units[*g].at.y = 4075 * WEM_MM / 10;
    return b;
}

static void test_wem_unfasten_horse_artillery_fastened_gives_no_support(void **st) {
    (void)st;
    int plain = s_plain(WEM_INF), g;
    s_board b = s_horse_gun(&g);
    assert_int_equal(s_fight(&b), plain + 1);           /* unfastened: supports */
    b = s_horse_gun(&g);
    b.f->s->units[g].fastened = 1;
    assert_int_equal(s_fight(&b), plain);               /* fastened: no support */
    b = s_horse_gun(&g);
    b.f->s->units[g].fastened_turn = 1;
    b.f->s->units[g].unfastened_turn = 1;
    assert_int_equal(s_fight(&b), plain);               /* fastened and unfastened this turn */
}

/* [Units] "Front: indicates the orientation. The Unit's ability of bombardment and combat is
 * expressed through the front": a gun bombards the enemy before its front, not the same enemy
 * behind it once turned about (the combat's side: combat_through_attacker_front) */
static void test_wem_units_front_bombards(void **st) {
    (void)st;
    t_fx *f = t_new(2, 3);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 300, 500, 0);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 400, 180);
    assert_true(wem_bomb_can_target(f->s, g, r));
    t_put(f, g, 300, 500, 180);             /* its front turned away from R */
    assert_false(wem_bomb_can_target(f->s, g, r));
    t_free(f);
}

/* [Units] "The unit classes, from best to worst, are: Guard, Elite, Veterans, Regulars,
 * Recruits": the melee's "+1 if a Unit with a [class] class or superior is in melee", set here at
 * Veterans, counts the Elite (better) and the Veterans, not the Regulars nor the Recruits */
static int s_class_margin(int cls) {
    s_board b = s_melee(WEM_INF);
    t_param(b.f, "melee-class", WEM_VETERAN);
    b.f->sc.units[b.d].cls = (uint8_t)cls;
    return s_fight(&b);
}

static void test_wem_units_classes_best_to_worst(void **st) {
    (void)st;
    assert_true(WEM_GUARD < WEM_ELITE && WEM_ELITE < WEM_VETERAN && WEM_VETERAN < WEM_REGULAR &&
                WEM_REGULAR < WEM_RECRUIT);
    int regular = s_class_margin(WEM_REGULAR);
    assert_int_equal(s_class_margin(WEM_RECRUIT), regular);
    assert_int_equal(s_class_margin(WEM_VETERAN), regular - 1);
    assert_int_equal(s_class_margin(WEM_ELITE), regular - 1);
}

/* [Components] 70 markers: 30 orange, 25 green, 15 yellow; [Game Preparation 4] they make a
 * reserve "to indicate the status of the Units": the state counts each unit's markers, and the
 * reserve's size is no limit: a 16th unit is Shaken as the 1st (15 yellow markers printed) */
static void test_wem_components_marker_reserve_is_no_limit(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u[16];
    for (int i = 0; i < 16; i++) u[i] = t_unit(f, WEM_RED, WEM_INF, 1, 100 + 100 * i, 200, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 900, 0);
    for (int i = 0; i < 16; i++) wem_shake(f->s, u[i], -1, &f->ev);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(f->s->units[u[i]].yellow, 1);
        assert_int_equal(f->s->units[u[i]].status, WEM_ON);
    }
    t_free(f);
}

/* [Split Formations] "When a Formation is split because of any other game effect, the orange or
 * green markers must be placed on both newly formed Formations": a fastened gun whose Horse Team
 * is the contact with the unit behind unfastens ([Unfastening] "Attention"); both parts keep the
 * markers of the Formation */
static void s_split_by_unfastening(int green) {
    t_fx *f = t_new(2, 5);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 3225 / 10, 495, 0); /* beside the gun, 5 mm clear of B */
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 300, 500, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 530, 0);   /* behind the Horse Team: y 515..545 */
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    f->s->units[a].at.x = 3225 * WEM_MM / 10;               /* x 307.5..337.5: on the gun's flank */
    int rg = t_unit(f, WEM_RED, WEM_ART_FOOT, 1, 800, 200, 180);
    f->s->units[rg].fastened = 1;                           /* red's unfastening still to come */
    f->s->units[g].at.y = 4925 * WEM_MM / 10;               /* the counter y 485..500 */
    f->s->units[g].fastened = 1;                            /* its team behind: y 500..515 */
    wem_formations fm;
    wem_formations_find(f->s, &fm);
    assert_int_equal(fm.of[a], fm.of[g]);
    assert_int_equal(fm.of[b], fm.of[g]);
    int u3[] = {a, g, b};
    for (int i = 0; i < 3; i++) {
        f->s->units[u3[i]].green = (uint8_t)(green ? 1 : 0);
        f->s->units[u3[i]].orange = (uint8_t)(green ? 0 : 1);
    }
    assert_int_equal(t_step(f, WEM_STEP_UNFASTEN, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_UNFASTEN);
    o.n_units = 1;
    o.units[0] = (int16_t)g;
    if (t_order(f, 0, &o)) fail_msg("[%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->phase, WEM_PH_UNFASTEN);          /* red's turn to unfasten: still 3.3 */
    wem_formations_find(f->s, &fm);
    assert_int_equal(fm.of[a], fm.of[g]);
    assert_int_not_equal(fm.of[b], fm.of[g]);               /* split */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f->s->units[u3[i]].green, green ? 1 : 0);
        assert_int_equal(f->s->units[u3[i]].orange, green ? 0 : 1);
    }
    t_free(f);
}

static void test_wem_split_by_other_effect_both_parts_keep_markers(void **st) {
    (void)st;
    s_split_by_unfastening(0);   /* in Recovery: orange on both parts */
    s_split_by_unfastening(1);   /* IN MOVEMENT: green on both parts */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_units_shapes),
        cmocka_unit_test(test_wem_markers_second_yellow_routed_eliminated_at_end),
        cmocka_unit_test(test_wem_unfasten_any_gun_even_not_in_movement),
        cmocka_unit_test(test_wem_area_combat_modifier_only_entirely_inside),
        cmocka_unit_test(test_wem_hill_defence_not_in_movement_melee),
        cmocka_unit_test(test_wem_town_infantry_defence_plus_2),
        cmocka_unit_test(test_wem_town_cavalry_minus_1),
        cmocka_unit_test(test_wem_unfasten_horse_artillery_fastened_gives_no_support),
        cmocka_unit_test(test_wem_units_front_bombards),
        cmocka_unit_test(test_wem_units_classes_best_to_worst),
        cmocka_unit_test(test_wem_components_marker_reserve_is_no_limit),
        cmocka_unit_test(test_wem_split_by_other_effect_both_parts_keep_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
