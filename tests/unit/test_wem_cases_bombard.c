/*
 * test_wem_cases_bombard.c - rule cases of [2. Bombardment] (Waterloo: Enemy Mistakes): who may
 * fire, the line of fire and visibility, support, the modifiers (only above a natural 5), the
 * effects table, [Suffering Damages], the Grand Battery, the garrisons and the attached General.
 *
 * Every board is the test's own: a blue gun on foot at (300, 400) mm facing north, a red
 * infantry tile 77.5 mm ahead of its front, facing south; a second pair far to the east keeps the
 * blue army's bombardment open after the shot under test (t_keep).
 */
/* the fixture's id and name formats are bounded by its own counts (gcc cannot see it) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/combat.h"

/* the die faces of the tests (the book's are in the data; these are fixed here) */
static void s_faces(t_fx *f) {
    t_param(f, "damage-lo", 5);
    t_param(f, "damage-hi", 6);
    t_param(f, "die-general-attached", 3);
}

/* a gun and a target that keep the bombardment open */
static void t_keep(t_fx *f) {
    t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 900, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 900, 300, 180);
}

typedef struct s_board {
    t_fx *f;
    int gun, tgt;
} s_board;

static s_board s_new(void) {
    s_board b;
    b.f = t_new(2, 7);
    s_faces(b.f);
    b.gun = t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 300, 400, 0);
    b.tgt = t_unit(b.f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    t_keep(b.f);
    return b;
}

static void s_area(t_fx *f, int kind, int x0, int y0, int x1, int y1) {
    wem_scenario *sc = &f->sc;
    wem_area_def *a = &sc->areas[sc->n_areas++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "area-%zu", sc->n_areas);
    a->kind = (uint8_t)kind;
    a->blocks_lof = kind == WEM_T_HILL || kind == WEM_T_WOOD;
    a->first = (uint16_t)sc->n_verts;
    a->n = 4;
    wem_pt v[4] = {{x0 * WEM_MM, y0 * WEM_MM}, {x1 * WEM_MM, y0 * WEM_MM}, {x1 * WEM_MM, y1 * WEM_MM}, {x0 * WEM_MM, y1 * WEM_MM}};
    for (int i = 0; i < 4; i++) sc->verts[sc->n_verts++] = v[i];
}

static wem_order s_fire(int gun, int tgt) {
    wem_order o = t_o(WEM_O_BOMBARD);
    o.unit = gun;
    o.target = tgt;
    return o;
}

static int s_fire_at(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b->gun, b->tgt);
    return t_order(b->f, 0, &o);
}

/* the value of the last bombard event (the final result) */
static int s_result(t_fx *f) {
    const Wem__V1__Event *e = t_ev_kind(&f->ev, "bombard", 0);
    assert_non_null(e);
    return e->value;
}

/* [Bombardment effects table 3/5] a natural 3-5 only brings the Smoke token, on every gun firing */
static void test_wem_bombard_3_5_smoke_only(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 2, 2, 3);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 5);
    assert_int_equal(b.f->s->units[b.gun].smoke, 1);
    assert_int_equal(b.f->s->units[b.tgt].losses, 0);
    assert_null(t_ev_kind(&b.f->ev, "damage", 0));
    assert_int_equal(b.f->s->phase, WEM_PH_BOMBARD);
    t_free(b.f);
}

/* [2. Bombardment] "modifiers ... will be applied ONLY if the unmodified result of the roll is
 * higher than 5": a target in column (+1) on a natural 5 is still a 5 */
static void test_wem_bombard_modifiers_only_above_5(void **st) {
    (void)st;
    s_board b = s_new();
    t_unit(b.f, WEM_RED, WEM_INF, 1, 300, 270, 180); /* in column behind the target */
    t_rolls(b.f, 2, 4, 1);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 5);
    assert_null(t_ev_kind(&b.f->ev, "damage", 0));
    t_free(b.f);
}

/* ... and on a natural 6 the same +1 makes it 7: 1 Damage [Bombardment effects table 6/7] */
static void test_wem_bombard_column_plus_1_above_5(void **st) {
    (void)st;
    s_board b = s_new();
    t_unit(b.f, WEM_RED, WEM_INF, 1, 300, 270, 180);
    t_rolls(b.f, 3, 3, 3, 6); /* 6 +1 = 7; the Damage die 6 is a Loss */
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 7);
    assert_int_equal(b.f->s->units[b.tgt].losses, 1);
    t_free(b.f);
}

/* [Dice modifiers (bombardment)] -1 if the Artillery Unit is Shaken: 6 becomes 5, no Damage */
static void test_wem_bombard_shaken_gun_minus_1(void **st) {
    (void)st;
    s_board b = s_new();
    b.f->s->units[b.gun].yellow = 1;
    t_rolls(b.f, 2, 3, 3);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 5);
    assert_null(t_ev_kind(&b.f->ev, "damage", 0));
    t_free(b.f);
}

/* [Bombardment effects table 2] the gun that fired is Shaken, and has its Smoke token */
static void test_wem_bombard_2_shakes_the_gun(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 2, 1, 1);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->units[b.gun].yellow, 1);
    assert_int_equal(b.f->s->units[b.gun].smoke, 1);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 0);
    t_free(b.f);
}

/* [Bombardment effects table 6/7] 1 Damage; [Suffering Damages] 1 die, a Loss only on its faces */
static void test_wem_bombard_6_7_one_damage(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 3, 4, 2, 4); /* 6: one Damage die, a 4: no Loss */
    assert_int_equal(s_fire_at(&b), 0);
    assert_non_null(t_ev_kind(&b.f->ev, "damage", 0));
    assert_null(t_ev_kind(&b.f->ev, "damage", 1));
    assert_int_equal(b.f->s->units[b.tgt].losses, 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 0);
    t_free(b.f);
}

/* [Suffering Damages] "If a unit reaches its capacity to sustain Losses, that unit is eliminated" */
static void test_wem_damage_loss_at_capacity_eliminates(void **st) {
    (void)st;
    s_board b = s_new();
    b.f->sc.units[b.tgt].losses = 1;
    t_rolls(b.f, 3, 3, 4, 5);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->units[b.tgt].status, WEM_ELIMINATED);
    t_free(b.f);
}

/* [Bombardment effects table 8/10] 2 Damage, then the target's owner chooses: not withdrawing,
 * the Unit is Shaken */
static void test_wem_bombard_8_10_owner_takes_shaken(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 4, 4, 4, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->units[b.tgt].losses, 0);
    brt_pending p;
    t_pending(b.f, &p);
    assert_string_equal(p.kind, "bombard-withdraw");
    assert_int_equal(p.seats, 1u << 1); /* red's seat decides */
    t_legal_all_accepted(b.f, 1);
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 0;
    assert_int_equal(t_order(b.f, 1, &o), 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->phase, WEM_PH_BOMBARD);
    t_free(b.f);
}

/* [Bombardment effects table 8/10] ... or it Withdraws 1 and is not Shaken */
static void test_wem_bombard_8_10_owner_withdraws(void **st) {
    (void)st;
    s_board b = s_new();
    t_rolls(b.f, 4, 5, 4, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    wem_pt at = b.f->s->units[b.tgt].at;
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = 1;
    assert_int_equal(t_order(b.f, 1, &o), 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 0);
    assert_non_null(t_ev_kind(&b.f->ev, "bombard-withdraw", 0));
    /* straight back from its front (it faces south: back is north), 1 unit */
    assert_int_equal(b.f->s->units[b.tgt].at.y, at.y - WEM_UOM);
    assert_int_equal(b.f->s->units[b.tgt].at.x, at.x);
    t_free(b.f);
}

/* [Bombardment effects table 8/10] "If the controlling player cannot ... Withdraw 1, the Unit
 * is Shaken": an enemy Unit right behind the target leaves it no room: Shaken, no question */
static void test_wem_bombard_8_10_cannot_withdraw_is_shaken(void **st) {
    (void)st;
    s_board b = s_new();
    t_unit(b.f, WEM_BLUE, WEM_INF, 2, 300, 270, 0); /* behind the target */
    t_rolls(b.f, 4, 4, 4, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->phase, WEM_PH_BOMBARD);
    t_free(b.f);
}

/* [Withdraw] "If the Unit is a bombardment target and it is fired on the rear, it CANNOT
 * Withdraw": an 8/10 on the rear (7 + 1) Shakes it with no choice */
static void test_wem_bombard_8_10_fired_on_rear_is_shaken(void **st) {
    (void)st;
    s_board b = s_new();
    t_put(b.f, b.tgt, 300, 300, 0); /* facing away from the gun: its rear toward it */
    t_rolls(b.f, 4, 3, 4, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 8);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->phase, WEM_PH_BOMBARD);
    t_free(b.f);
}

/* [Bombardment effects table 11+] 2 Damage, 1 Loss and Retreat (Withdraw 1 and a yellow marker) */
static void test_wem_bombard_11_retreats_target(void **st) {
    (void)st;
    s_board b = s_new();
    wem_pt at = b.f->s->units[b.tgt].at;
    t_rolls(b.f, 4, 6, 5, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 11);
    assert_int_equal(b.f->s->units[b.tgt].at.y, at.y - WEM_UOM);
    assert_int_equal(b.f->s->units[b.tgt].losses, 1);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->phase, WEM_PH_BOMBARD);
    t_free(b.f);
}

/* [Support] a gun sharing the target supports instead of firing: +1, and both get Smoke */
static void test_wem_bombard_support_adds_1_and_smokes_both(void **st) {
    (void)st;
    s_board b = s_new();
    int sup = t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 315, 400, 0);
    t_rolls(b.f, 3, 3, 3, 1); /* 6 + 1 = 7 */
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b.gun, b.tgt);
    o.n_units = 1;
    o.units[0] = (int16_t)sup;
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_int_equal(s_result(b.f), 7);
    assert_int_equal(b.f->s->units[sup].smoke, 1);
    assert_int_equal(b.f->s->units[b.gun].smoke, 1);
    t_free(b.f);
}

/* [Support] "Unfastened Artillery Units on Foot that share the same bombardment target": a gun
 * whose line of fire misses the target cannot support */
static void test_wem_bombard_support_must_share_target(void **st) {
    (void)st;
    s_board b = s_new();
    int sup = t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 500, 400, 0);
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b.gun, b.tgt);
    o.n_units = 1;
    o.units[0] = (int16_t)sup;
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Support"));
    assert_int_equal(b.f->s->units[b.gun].smoke, 0);
    assert_int_equal(t_rolls_left(b.f), 0);
    t_free(b.f);
}

/* [Executing the bombardment] a gun with a Smoke token, or fastened, cannot fire */
static void test_wem_bombard_smoke_or_fastened_cannot_fire(void **st) {
    (void)st;
    s_board b = s_new();
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    b.f->s->units[b.gun].smoke = 1;
    wem_order o = s_fire(b.gun, b.tgt);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Smoke"));
    b.f->s->units[b.gun].smoke = 0;
    b.f->s->units[b.gun].fastened = 1;
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "fastened"));
    t_free(b.f);
}

/* [Executing the bombardment] a gun in an enemy area of engagement cannot fire */
static void test_wem_bombard_in_enemy_aoe_cannot_fire(void **st) {
    (void)st;
    s_board b = s_new();
    t_put(b.f, b.tgt, 300, 365, 180); /* its front 20 mm from the gun */
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b.gun, b.tgt);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "area of engagement"));
    t_free(b.f);
}

/* [Units] Horse Artillery cannot bombard, except the red 39 and 40 (unit def `bombards`) */
static void test_wem_bombard_horse_artillery_only_39_40(void **st) {
    (void)st;
    t_fx *f = t_new(2, 3);
    int h = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 1, 300, 400, 0);
    int t = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    t_keep(f);
    assert_int_equal(t_step(f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(h, t);
    assert_int_equal(t_order(f, 0, &o), -1);
    assert_true(t_cites(f, "Horse Artillery"));
    f->sc.units[h].bombards = 1; /* as the data marks red 39 and 40 */
    t_rolls(f, 2, 1, 2);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_free(f);
}

/* [Executing the bombardment] "Unattached Generals ... CANNOT be targets of bombardment" */
static void test_wem_bombard_never_at_a_general(void **st) {
    (void)st;
    s_board b = s_new();
    int g = t_general(b.f, WEM_RED, 1, 2, 1, 300, 340, 0);
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b.gun, WEM_GEN_BASE + g);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Generals cannot be targets"));
    t_free(b.f);
}

/* [Line of fire and visibility] the line of fire is 6 units long: a target beyond is out of it */
static void test_wem_bombard_range_6_uom(void **st) {
    (void)st;
    s_board b = s_new();
    t_put(b.f, b.tgt, 300, 200, 180); /* its near edge 177.5 mm from the front: in */
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_put(b.f, b.tgt, 300, 190, 180); /* 187.5 mm: out */
    assert_false(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

/* [Line of fire and visibility] "NOT visible if the entire width of the line of fire crosses a
 * Unit": a tile across the line hides the target; one that covers half the width does not */
static void test_wem_bombard_unit_across_hides_target(void **st) {
    (void)st;
    s_board b = s_new();
    int m = t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 350, 0);
    assert_false(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    wem_order o = s_fire(b.gun, b.tgt);
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Line of fire"));
    t_put(b.f, m, 322, 350, 0); /* covers only part of the 15 mm width */
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

/* [Line of fire and visibility] "An Artillery Unit entirely inside a Hill may ignore Units
 * that cross their line of fire" */
static void test_wem_bombard_gun_on_hill_ignores_units(void **st) {
    (void)st;
    s_board b = s_new();
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 300, 350, 0);
    s_area(b.f, WEM_T_HILL, 280, 380, 320, 420);
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

/* [Line of fire and visibility] a Wood across the whole width hides the target, unless the
 * target is on that terrain */
static void test_wem_bombard_wood_hides_unless_target_on_it(void **st) {
    (void)st;
    s_board b = s_new();
    s_area(b.f, WEM_T_WOOD, 250, 340, 350, 360);
    assert_false(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    b.f->sc.n_areas = 0;
    b.f->sc.n_verts = 0;
    s_area(b.f, WEM_T_WOOD, 250, 310, 350, 360); /* reaches the target's edge: it is on it */
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

/* [Linear Terrain Sunken Road] "a Sunken Road blocks the bombardment line of fire" */
static void test_wem_bombard_sunken_road_blocks(void **st) {
    (void)st;
    s_board b = s_new();
    wem_scenario *sc = &b.f->sc;
    wem_line_def *l = &sc->lines[sc->n_lines++];
    memset(l, 0, sizeof *l);
    l->kind = WEM_L_SUNKEN;
    l->hw = 2 * WEM_MM;
    l->first = (uint16_t)sc->n_verts;
    l->n = 2;
    sc->verts[sc->n_verts++] = (wem_pt){250 * WEM_MM, 350 * WEM_MM};
    sc->verts[sc->n_verts++] = (wem_pt){350 * WEM_MM, 350 * WEM_MM};
    assert_false(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    l->kind = WEM_L_ROAD; /* a Road does not */
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

/* [Area Terrain Town] -2 if the target of bombardment is completely inside the Town: 7 - 2 = 5 */
static void test_wem_bombard_town_minus_2(void **st) {
    (void)st;
    s_board b = s_new();
    s_area(b.f, WEM_T_TOWN, 250, 250, 350, 330);
    t_rolls(b.f, 2, 4, 3);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 5);
    assert_null(t_ev_kind(&b.f->ev, "damage", 0));
    t_free(b.f);
}

/* [Area Terrain Hills] +1 to Units in defense NOT IN MOVEMENT: the gun's roll loses 1
 * (R-wem-bomb-defence); a target IN MOVEMENT has no such defence */
static void test_wem_bombard_hill_defence_not_in_movement(void **st) {
    (void)st;
    s_board b = s_new();
    s_area(b.f, WEM_T_HILL, 250, 250, 350, 330);
    t_rolls(b.f, 2, 4, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 5);
    t_free(b.f);
    b = s_new();
    s_area(b.f, WEM_T_HILL, 250, 250, 350, 330);
    b.f->s->units[b.tgt].green = 1;
    t_rolls(b.f, 3, 4, 2, 1);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 6);
    t_free(b.f);
}

/* [The Grand Battery of General d'Erlon] +1 for every other Artillery Unit in contact */
static void test_wem_bombard_grand_battery_plus_contact(void **st) {
    (void)st;
    s_board b = s_new();
    b.f->sc.units[b.gun].grand_battery = 1;
    t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 2, 315, 400, 0); /* side by side, in contact */
    t_rolls(b.f, 3, 3, 3, 1);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(s_result(b.f), 7);
    t_free(b.f);
}

/* [The Garrisons] La Haye Sainte "in Retreat as a result of bombardment ... receives only one
 * yellow marker, unless it already has one", and never moves */
static void test_wem_bombard_lhs_retreat_one_yellow(void **st) {
    (void)st;
    s_board b = s_new();
    wem_unit_def *d = &b.f->sc.units[b.tgt];
    d->kind = WEM_GARRISON;
    d->losses = 9;
    snprintf(d->id, sizeof d->id, "R-LHS");
    wem_pt at = b.f->s->units[b.tgt].at;
    t_rolls(b.f, 5, 6, 6, 1, 2);
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->units[b.tgt].at.y, at.y);
    /* again: it already has one, and stays at one */
    b.f->s->units[b.gun].smoke = 0;
    b.f->s->bomb.fired[b.gun] = 0;
    wem_order o = s_fire(b.gun, b.tgt);
    t_rolls(b.f, 5, 6, 6, 1, 2);
    assert_int_equal(t_order(b.f, 0, &o), 0);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    assert_int_equal(b.f->s->units[b.tgt].status, WEM_ON);
    t_free(b.f);
}

/* [Attaching] the General attached to a Unit taking Damage rolls 2d6: a ★★ General -1, at 3 or
 * less he is eliminated */
static void test_wem_bombard_attached_general_rolls(void **st) {
    (void)st;
    s_board b = s_new();
    int g = t_general(b.f, WEM_RED, 1, 2, 1, 300, 300, 0);
    b.f->s->generals[g].attached = (int16_t)b.tgt;
    t_rolls(b.f, 5, 3, 3, 1, 2, 2); /* 6: a Damage die 1; the General's 2 + 2 - 1 = 3 */
    assert_int_equal(s_fire_at(&b), 0);
    assert_non_null(t_ev_kind(&b.f->ev, "general-check", 0));
    assert_int_equal(b.f->s->generals[g].status, WEM_ELIMINATED);
    t_free(b.f);
}

/* ... and with a higher roll he stays */
static void test_wem_bombard_attached_general_survives(void **st) {
    (void)st;
    s_board b = s_new();
    int g = t_general(b.f, WEM_RED, 1, 2, 1, 300, 300, 0);
    b.f->s->generals[g].attached = (int16_t)b.tgt;
    t_rolls(b.f, 5, 3, 3, 1, 3, 2); /* 3 + 2 - 1 = 4 */
    assert_int_equal(s_fire_at(&b), 0);
    assert_int_equal(b.f->s->generals[g].status, WEM_ON);
    t_free(b.f);
}

/* legal(): each gun, each visible target, alone and with each supporter; done. All accepted. */
static void test_wem_bombard_legal_all_accepted(void **st) {
    (void)st;
    s_board b = s_new();
    t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 315, 400, 0);
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    int n = t_legal_n(b.f, 0);
    /* gun A: alone, with B; gun B: alone, with A; the keeper gun: alone; done */
    assert_int_equal(n, 6);
    t_legal_all_accepted(b.f, 0);
    assert_int_equal(t_legal_n(b.f, 1), 0);
    t_free(b.f);
}

/* [2. Bombardment] the army that has no gun able to fire passes the phase */
static void test_wem_bombard_no_gun_passes(void **st) {
    (void)st;
    t_fx *f = t_new(2, 3);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
    assert_int_equal(t_step(f, WEM_STEP_BOMBARD, WEM_BLUE), 0);
    t_free(f);
}

/* on random boards every bombardment decision has a legal answer, each accepted, and the
 * random answers among them finish the phase for both armies */
static void test_wem_bombard_random_boards_finish(void **st) {
    (void)st;
    uint64_t x = 3;
    int shots = 0;
    for (int seed = 1; seed <= 300; seed++) {
        t_fx *f = t_new(2, (uint64_t)seed);
        int n = 4 + (int)(t_next(&x) % 8);
        for (int i = 0; i < n; i++) {
            int army = i % 2 ? WEM_RED : WEM_BLUE;
            int kinds[4] = {WEM_INF, WEM_CAV, WEM_ART_FOOT, WEM_ART_FOOT};
            int kind = kinds[t_next(&x) % 4];
            for (int tries = 0; tries < 20; tries++) {
                int px = 200 + 15 * (int)(t_next(&x) % 20), py = 200 + 15 * (int)(t_next(&x) % 20);
                int h = (army == WEM_BLUE ? 0 : 180) + (int)(t_next(&x) % 7) * 15 - 45;
                int u = t_unit(f, army, kind, 1, px, py, h);
                f->s->units[u].yellow = (uint8_t)(t_next(&x) % 4 == 0);
                f->sc.units[u].grand_battery = (uint8_t)(kind == WEM_ART_FOOT && t_next(&x) % 3 == 0);
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
        if (t_next(&x) % 2) s_area(f, WEM_T_WOOD, 250, 250, 320, 300);
        if (!t_step(f, WEM_STEP_BOMBARD, WEM_BLUE)) {
            t_free(f);
            continue;
        }
        int steps = 0;
        while (!f->s->over && f->s->step == WEM_STEP_BOMBARD) {
            brt_pending p;
            t_pending(f, &p);
            unsigned seat = p.seats & 1u ? 0u : 1u;
            /* a random order first: refused, it leaves the state and the dice untouched */
            {
                wem_order r = t_o(t_next(&x) % 4 ? WEM_O_BOMBARD : WEM_O_ANSWER);
                r.unit = (int)(t_next(&x) % f->sc.n_units);
                r.target = (int)(t_next(&x) % f->sc.n_units);
                r.value = (int)(t_next(&x) % 4) - 1;
                r.n_units = (int)(t_next(&x) % 3);
                for (int i = 0; i < r.n_units; i++) r.units[i] = (int16_t)(t_next(&x) % f->sc.n_units);
                t_order_or_same(f, seat, &r);
                t_ev_clear(&f->ev);
                if (f->s->over || f->s->step != WEM_STEP_BOMBARD) break;
                t_pending(f, &p);
                seat = p.seats & 1u ? 0u : 1u;
            }
            t_legal_random(f, seat, &x, seed, p.kind);
            if (strcmp(p.kind, "bombard") == 0) shots++;
            if (++steps > 200) fail_msg("seed %d: the bombardment does not end", seed);
            t_ev_clear(&f->ev);
        }
        t_free(f);
    }
    assert_true(shots > 50);
}

/* the bombardment in the order's text: bombard GUN TARGET support GUN, then the owner's answer */
static void test_wem_bombard_in_text_orders(void **st) {
    (void)st;
    s_board b = s_new();
    int sup = t_unit(b.f, WEM_BLUE, WEM_ART_FOOT, 1, 315, 400, 0);
    char line[96];
    assert_int_equal(t_step(b.f, WEM_STEP_BOMBARD, WEM_BLUE), 1);
    t_rolls(b.f, 4, 4, 3, 1, 2); /* 7 + 1 = 8 */
    snprintf(line, sizeof line, "bombard %s %s support %s", b.f->sc.units[b.gun].id, b.f->sc.units[b.tgt].id,
             b.f->sc.units[sup].id);
    if (t_do(b.f, 0, line)) fail_msg("%s: [%s] %s", line, b.f->err.rule, b.f->err.message);
    assert_int_equal(s_result(b.f), 8);
    if (t_do(b.f, 1, "answer 0")) fail_msg("answer 0: [%s] %s", b.f->err.rule, b.f->err.message);
    assert_int_equal(b.f->s->units[b.tgt].yellow, 1);
    t_free(b.f);
}

/* [Linear Terrain] "The bombardment and combat modifiers of linear terrain are applied to Units in
 * defense that are NOT IN MOVEMENT ... in contact with the terrain element and the bombardment or
 * combat front must touch, even partially, the terrain element": a Sunken Road along the target's
 * front towards the gun shields it unless it is IN MOVEMENT (then it is only "on that terrain",
 * which the line of fire does not stop at); a Sunken Road behind the target shields nothing */
static void test_wem_linear_terrain_sunken_road_shields_defender_not_in_movement(void **st) {
    (void)st;
    s_board b = s_new();
    wem_scenario *sc = &b.f->sc;
    wem_line_def *l = &sc->lines[sc->n_lines++];
    memset(l, 0, sizeof *l);
    l->kind = WEM_L_SUNKEN;
    l->hw = 2 * WEM_MM;
    l->first = (uint16_t)sc->n_verts;
    l->n = 2;
    /* the target's front (south edge) is at y = 315 mm: the road's band is 315..319 */
    sc->verts[sc->n_verts++] = (wem_pt){250 * WEM_MM, 317 * WEM_MM};
    sc->verts[sc->n_verts++] = (wem_pt){350 * WEM_MM, 317 * WEM_MM};
    assert_false(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    b.f->s->units[b.tgt].green = 1; /* IN MOVEMENT: no linear terrain modifier */
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    b.f->s->units[b.tgt].green = 0;
    /* the road behind the target (its rear edge at y = 285 mm) */
    sc->verts[l->first].y = sc->verts[l->first + 1].y = 283 * WEM_MM;
    assert_true(wem_bomb_can_target(b.f->s, b.gun, b.tgt));
    t_free(b.f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_bombard_3_5_smoke_only),
        cmocka_unit_test(test_wem_bombard_modifiers_only_above_5),
        cmocka_unit_test(test_wem_bombard_column_plus_1_above_5),
        cmocka_unit_test(test_wem_bombard_shaken_gun_minus_1),
        cmocka_unit_test(test_wem_bombard_2_shakes_the_gun),
        cmocka_unit_test(test_wem_bombard_6_7_one_damage),
        cmocka_unit_test(test_wem_damage_loss_at_capacity_eliminates),
        cmocka_unit_test(test_wem_bombard_8_10_owner_takes_shaken),
        cmocka_unit_test(test_wem_bombard_8_10_owner_withdraws),
        cmocka_unit_test(test_wem_bombard_8_10_fired_on_rear_is_shaken),
        cmocka_unit_test(test_wem_bombard_8_10_cannot_withdraw_is_shaken),
        cmocka_unit_test(test_wem_bombard_11_retreats_target),
        cmocka_unit_test(test_wem_bombard_support_adds_1_and_smokes_both),
        cmocka_unit_test(test_wem_bombard_support_must_share_target),
        cmocka_unit_test(test_wem_bombard_smoke_or_fastened_cannot_fire),
        cmocka_unit_test(test_wem_bombard_in_enemy_aoe_cannot_fire),
        cmocka_unit_test(test_wem_bombard_horse_artillery_only_39_40),
        cmocka_unit_test(test_wem_bombard_never_at_a_general),
        cmocka_unit_test(test_wem_bombard_range_6_uom),
        cmocka_unit_test(test_wem_bombard_unit_across_hides_target),
        cmocka_unit_test(test_wem_bombard_gun_on_hill_ignores_units),
        cmocka_unit_test(test_wem_bombard_wood_hides_unless_target_on_it),
        cmocka_unit_test(test_wem_bombard_sunken_road_blocks),
        cmocka_unit_test(test_wem_linear_terrain_sunken_road_shields_defender_not_in_movement),
        cmocka_unit_test(test_wem_bombard_town_minus_2),
        cmocka_unit_test(test_wem_bombard_hill_defence_not_in_movement),
        cmocka_unit_test(test_wem_bombard_grand_battery_plus_contact),
        cmocka_unit_test(test_wem_bombard_lhs_retreat_one_yellow),
        cmocka_unit_test(test_wem_bombard_attached_general_rolls),
        cmocka_unit_test(test_wem_bombard_attached_general_survives),
        cmocka_unit_test(test_wem_bombard_legal_all_accepted),
        cmocka_unit_test(test_wem_bombard_in_text_orders),
        cmocka_unit_test(test_wem_bombard_no_gun_passes),
        cmocka_unit_test(test_wem_bombard_random_boards_finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
