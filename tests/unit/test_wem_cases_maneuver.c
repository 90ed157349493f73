/* test_wem_cases_maneuver.c - [3.3 Maneuver]: Advance, Fall Back 1, Charge [Execute
 * maneuvers], the area of engagement, moving through friends, terrain, the board, the
 * [Maneuver limit], [Split Formations], [Charge against Artillery], [Unfastening Artillery
 * Units], [Move out of sequence] and the split of [3.5 End of Turn]. Boards of the tests' own:
 * blue faces north (heading 0) from y = 600 mm, red south (180); 30 mm tiles; 1 UoM = 30 mm. */
/* wem_t.h's t_unit() names units "%c%d" into 12 bytes, which gcc's inliner flags (it cannot
 * overflow: at most 160 units) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/maneuver.h"

#include "wem_mv_t.h"

static int s_touching(t_fx *f, int a, int b) {
    wem_rect ra = wem_unit_rect(f->s, a), rb = wem_unit_rect(f->s, b);
    return wem_g_contact(&ra, &rb, wem_tol(f->s)) == WEM_TOUCH;
}

/* ---- Advance ---- */

/* [Advance] straight ahead, the front width's allowance (width 1: 4 UoM = 120 mm) */
static void test_wem_advance_straight_full_allowance(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[b].at.x, MM(200));
    assert_int_equal(f->s->units[b].at.y, MM(480));
    assert_int_equal(f->s->units[b].h, 0);
    assert_true(f->s->units[b].maneuvered);
    t_free(f);
}

static void test_wem_advance_beyond_allowance_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM + 1, -1)), -1);
    assert_true(t_cites(f, "Advance"));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    assert_false(f->s->units[b].maneuvered);
    t_free(f);
}

/* width 3: Advance 2 */
static void test_wem_advance_width_3_moves_2(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 600, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);
    int c = s_blue(f, 2, 260, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 0, 2 * WEM_UOM + 1, -1)), -1);
    assert_true(t_cites(f, "Advance"));
    wem_order o = s_mv(WEM_MV_ADVANCE, a, 0, 2 * WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[a].at.y, MM(540));
    assert_int_equal(f->s->units[b].at.y, MM(540));
    assert_int_equal(f->s->units[c].at.y, MM(540));
    t_free(f);
}

/* [Execute maneuvers] the ruler pivots on the front corner opposite the direction of the
 * maneuver (R-wem-pivot): a quarter turn right about the front-left corner */
static void test_wem_advance_turn_right_pivots_on_front_left(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 900, 0, -1)), 0);
    assert_int_equal(f->s->units[b].h, 900);
    assert_int_equal(f->s->units[b].at.x, MM(170));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    t_free(f);
}

static void test_wem_advance_turn_left_pivots_on_front_right(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, -900, 2 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[b].h, 2700);
    /* turned about (215, 585): centre (230, 600), then 60 mm west along the ruler */
    assert_int_equal(f->s->units[b].at.x, MM(170));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    t_free(f);
}

/* the Formation turns rigidly: the guide's neighbour keeps its place beside it */
static void test_wem_advance_formation_turns_rigidly(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 600, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 900, 0, -1)), 0);
    /* about a's front-left corner (185, 585): a to (170, 600), b to (170, 630) */
    assert_int_equal(f->s->units[b].h, 900);
    assert_int_equal(f->s->units[b].at.x, MM(170));
    assert_int_equal(f->s->units[b].at.y, MM(630));
    assert_true(s_touching(f, a, b));
    t_free(f);
}

/* [3.3] "These Formations can execute 1 of the following types of maneuvers" */
static void test_wem_maneuver_one_per_formation(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, WEM_UOM, -1)), 0);
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), -1);
    assert_true(t_cites(f, "3.3 Maneuver"));
    assert_int_equal(f->s->units[b].at.y, MM(570));
    t_free(f);
}

/* only Formations IN MOVEMENT (green) maneuver */
static void test_wem_maneuver_needs_green(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 0);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "IN MOVEMENT"));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    t_free(f);
}

/* [Colored Markers] orange: "CANNOT ... execute maneuvers" */
static void test_wem_maneuver_orange_cannot(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    f->s->units[b].orange = 1;
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Colored Markers"));
    t_free(f);
}

/* ---- Fall Back 1 ---- */

static void test_wem_fall_back_1_straight_back(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_FALLBACK, b, 0, WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(630));
    assert_int_equal(f->s->units[b].h, 0);
    t_free(f);
}

static void test_wem_fall_back_without_turn(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_FALLBACK, b, 150, WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Fall Back"));
    t_free(f);
}

/* ---- the area of engagement ---- */

/* "if a Unit has an enemy Unit that is at the limit of its area of engagement (its distance is
 * exactly 1 unit of measurement) then its area of engagement is considered occupied, but it does
 * not force the Unit to execute a Charge": an Advance may stop there */
static void test_wem_advance_may_stop_at_aoe_limit(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 400, 0, 1);   /* 70 mm apart */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(40), -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(360));
    t_free(f);
}

/* [3.3] "No maneuver, besides Charge, can occupy an enemy area of engagement" */
static void test_wem_advance_cannot_enter_enemy_aoe(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(41), -1)), -1);
    assert_true(t_cites(f, "Area of Engagement"));
    assert_int_equal(f->s->units[b].at.y, MM(400));
    t_free(f);
}

/* "... unless the enemy Unit is already in contact with enemy Units" */
static void test_wem_advance_enters_aoe_of_enemy_in_contact(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 3, 230, 300, 270);   /* touching red's flank */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(340));
    t_free(f);
}

/* the area of engagement is not behind the rear line (R-wem-aoe-shape): coming from behind */
static void test_wem_advance_behind_enemy_rear_allowed(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 0);   /* red faces north: its rear towards blue */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(65), -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(335));
    t_free(f);
}

/* "... or unless the area of engagement of the enemy Unit is already occupied by enemy Units NOT
 * in contact with friendly Units" (R-wem-aoe-exceptions) */
static void test_wem_advance_enters_aoe_already_occupied(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_CAV, 3, 260, 310, 0);   /* 15 mm from red's flank, touching nobody */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(340));
    t_free(f);
}

/* a unit already inside an enemy's area does not exempt that area for itself: "Once the
 * Formation meets an enemy area of engagement it CANNOT Advance further" */
static void test_wem_advance_from_inside_aoe_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 350, 0, 1);   /* 20 mm from red's front */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(10), -1)), -1);
    assert_true(t_cites(f, "Advance"));
    wem_order o = s_mv(WEM_MV_FALLBACK, b, 0, WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), 0);   /* but it may Fall Back */
    assert_int_equal(f->s->units[b].at.y, MM(380));
    t_free(f);
}

/* ---- Charge ---- */

/* [Charge] "moves the Formation ... until it's in contact with the enemy Unit" */
static void test_wem_charge_ends_in_contact(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_true(s_touching(f, b, r));
    assert_true(f->s->units[b].charged);
    assert_in_range(f->s->units[b].charge_dist, MM(70) - 1, MM(70));
    assert_false(f->s->units[r].charge_flank);
    t_free(f);
}

static void test_wem_charge_beyond_allowance_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 460, 0, 1);   /* 130 mm: more than Charge 4 */
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), -1);
    assert_true(t_cites(f, "Charge"));
    assert_int_equal(f->s->units[b].at.y, MM(460));
    t_free(f);
}

/* [Charge] "When a Unit is Charged, remove the green marker from its Formation. All Command
 * points stored on the command table of its General are lost as well." */
static void test_wem_charge_target_loses_green_and_stored_points(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    int r2 = s_red(f, 1, 230, 300, 180);
    f->s->units[r].green = f->s->units[r2].green = 1;
    int g = t_general(f, WEM_RED, 1, 2, 1, 400, 100, 0);
    f->s->generals[g].markers = 3;
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_int_equal(f->s->units[r].green, 0);
    assert_int_equal(f->s->units[r2].green, 0);
    assert_int_equal(f->s->generals[g].markers, 0);
    t_free(f);
}

/* "Units CANNOT Charge enemy Units of a Formation which already has Units in contact with enemy
 * Units" */
static void test_wem_charge_formation_already_in_contact_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    s_red(f, 1, 230, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 3, 230, 270, 180);   /* touching the rear of red's second unit */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), -1);
    assert_true(t_cites(f, "Charge"));
    assert_non_null(strstr(f->err.message, "already in contact"));
    t_free(f);
}

/* [Melee modifiers] "if a Unit is Charged on its flanks it is then considered temporarily
 * Shaken" */
static void test_wem_charge_on_flank_temporarily_shaken(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 90);   /* faces east: its right flank south, towards blue */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_true(f->s->units[r].charge_flank);
    assert_int_equal(f->s->units[r].yellow, 0);   /* no yellow marker */
    t_free(f);
}

/* "Artillery Units NOT in Formation with Infantry and/or Cavalry CANNOT execute the Charge" */
static void test_wem_charge_artillery_alone_cannot(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 400, 0);
    f->s->units[g].green = 1;
    f->s->units[g].fastened = 1;
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, g, 0, 0, r)), -1);
    assert_true(t_cites(f, "Charge"));
    t_free(f);
}

/* a Charge may turn to point at its target */
static void test_wem_charge_with_a_turn(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 260, 320, 180);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 300, 0, r)), 0);
    assert_true(s_touching(f, b, r));
    assert_int_equal(f->s->units[b].h, 300);
    t_free(f);
}

/* ---- moving through units ---- */

static void test_wem_maneuver_never_through_enemy(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 500, 0);   /* its rear towards blue */
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Moving through friendly Units"));
    assert_non_null(strstr(f->err.message, "enemy"));
    t_free(f);
}

/* [Moving through friendly Units] "as long as these Units are not part of a Formation IN
 * MOVEMENT" */
static void test_wem_maneuver_not_through_friendly_green(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_blue(f, 3, 200, 500, 0, 1);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Moving through friendly Units"));
    assert_non_null(strstr(f->err.message, "IN MOVEMENT"));
    t_free(f);
}

/* "A Unit becomes Shaken if it moves through a Shaken Unit" */
static void test_wem_maneuver_through_shaken_friend_shakes(void **st) {
    (void)st;
    t_fx *f = s_new();
    int x = s_blue(f, 3, 200, 520, 0, 0);
    f->s->units[x].yellow = 1;
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(480));
    assert_int_equal(f->s->units[b].yellow, 1);
    assert_int_equal(f->s->units[x].yellow, 1);
    t_free(f);
}

/* "if a Shaken Unit moves through a Unit, they will become Shaken as well" */
static void test_wem_maneuver_shaken_mover_shakes_friend(void **st) {
    (void)st;
    t_fx *f = s_new();
    int x = s_blue(f, 3, 200, 520, 0, 0);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    f->s->units[b].yellow = 1;
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[x].yellow, 1);
    t_free(f);
}

static void test_wem_maneuver_cannot_end_on_friend(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_blue(f, 3, 200, 490, 0, 0);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Moving through friendly Units"));
    t_free(f);
}

/* ---- terrain ---- */

/* [Wood] "the maneuvers executed across the Wood, even partially, cannot surpass one Unit of
 * Measurement" */
static void test_wem_wood_caps_maneuver_at_1(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_WOOD, 150, 500, 250, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(31), -1)), -1);
    assert_true(t_cites(f, "Wood"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(30), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(570));
    t_free(f);
}

/* [Farm Field] "cannot surpass 2 units of measurement" */
static void test_wem_farm_caps_maneuver_at_2(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_FARM, 150, 450, 250, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(61), -1)), -1);
    assert_true(t_cites(f, "Farm Field"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_free(f);
}

/* [Town] "treated as if they already moved 1 unit of measurement" */
static void test_wem_town_counts_1_moved(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_TOWN, 150, 450, 250, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(91), -1)), -1);
    assert_true(t_cites(f, "Town"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(90), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_free(f);
}

/* [Sunken Road] "maneuvers across a Sunken Road are reduced by 1 unit of measurement" */
static void test_wem_sunken_road_reduces_by_1(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_SUNKEN, 1, 100, 560, 300, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(91), -1)), -1);
    assert_true(t_cites(f, "Sunken Road"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(90), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_free(f);
}

/* [Torrent] reduced by 1; "Artillery Units that cross the Torrent become Shaken" */
static void test_wem_torrent_reduces_and_shakes_artillery(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_TORRENT, 1, 100, 560, 300, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 222, 592, 0);
    f->s->units[g].at = (wem_pt){4450, 11850};   /* beside b, front edges in line */
    f->s->units[g].fastened = 1;
    f->s->units[g].green = 1;
    /* front width 2: Advance 3, less 1 for the Torrent */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(61), -1)), -1);
    assert_true(t_cites(f, "Torrent"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[g].yellow, 1);
    assert_int_equal(f->s->units[b].yellow, 0);
    t_free(f);
}

/* [Bridge] "only Formations with a front width of 1 can perform maneuvers across a Bridge" */
static void test_wem_bridge_only_front_width_1(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_BRIDGE, 1, 100, 560, 300, 560);
    int a = s_blue(f, 2, 200, 600, 0, 1);
    s_blue(f, 2, 230, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 0, MM(60), -1)), -1);
    assert_true(t_cites(f, "Bridge"));
    t_free(f);
}

/* [Bridge] a Charge across it: "temporarily Shaken ... CANNOT give support" (recorded) */
static void test_wem_bridge_charge_recorded(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_BRIDGE, 1, 100, 360, 300, 360);
    int r = s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_true(f->s->units[b].charge_bridge);
    assert_int_equal(f->s->units[b].yellow, 0);
    t_free(f);
}

/* [Road] "Formations with front width of 1 which start a maneuver in contact with a Road do not
 * suffer limitations from other types of terrain (except the Bridge) for as long as they are in
 * the Road" */
static void test_wem_road_ignores_wood(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_ROAD, 3, 200, 650, 200, 300);
    s_area(f, WEM_T_WOOD, 150, 500, 250, 560);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(480));
    t_free(f);
}

/* ---- the board ---- */

/* [Elements out of field] "if an Unit touches, even partially, any of the above elements then it
 * is out of field" */
static void test_wem_maneuver_off_the_board_is_out_of_field(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 40, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->units[b].status, WEM_OUTFIELD);
    t_free(f);
}

/* [Maneuver limit] blue not right of the fold line until the first black Units are deployed */
static void test_wem_maneuver_limit_fold_line(void **st) {
    (void)st;
    t_fx *f = s_new();
    f->sc.fold_x = MM(500);
    int b = s_blue(f, 2, 470, 600, 90, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), -1);
    assert_true(t_cites(f, "Maneuver limit"));
    f->s->black_seen = 1;
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.x, MM(530));
    t_free(f);
}

/* ---- [Split Formations] ---- */

/* "one part of the Formation keeps the green marker whilst the other part remains stationary
 * (without a green marker)" */
static void test_wem_split_by_maneuver_other_part_loses_green(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 600, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);
    wem_order o = s_mv(WEM_MV_ADVANCE, a, 0, MM(60), -1);
    o.n_units = 1;
    o.units[0] = (int16_t)a;
    assert_int_equal(s_go(f, o), 0);
    assert_int_equal(f->s->units[a].at.y, MM(540));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    assert_int_equal(f->s->units[a].green, 1);
    assert_int_equal(f->s->units[b].green, 0);
    t_free(f);
}

/* [Split Formations] "divided at their contact point by the distance equal to the width of the
 * ruler" (R-wem-split-gap): a part that would end closer than that is refused */
static void test_wem_split_parts_divided_by_ruler_width(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 600, 0, 1);
    s_blue(f, 2, 230, 600, 0, 1);
    wem_order o = s_mv(WEM_MV_ADVANCE, a, 0, MM(20), -1);
    o.n_units = 1;
    o.units[0] = (int16_t)a;
    assert_int_equal(s_go(f, o), -1);
    assert_true(t_cites(f, "Split Formations"));
    assert_int_equal(f->s->units[a].at.y, MM(600));
    t_free(f);
}

/* [3.4 C. Attack Reinforcements] "the attacking Formations may Charge (even without a green
 * marker) the defending Unit", which is in contact already (R-wem-combat-charges) */
static void test_wem_combat_charge_without_green_into_engaged_unit(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 3, 200, 330, 0);   /* the attacker, in contact */
    int b = s_blue(f, 2, 260, 300, 270, 0);          /* a Formation without green, 30 mm from red's flank */
    wem_order o = s_mv(WEM_MV_CHARGE, b, 0, 0, r);
    assert_int_equal(wem_maneuver_exec(f->s, &o, -1, 0, &f->d.d, &f->ev, &f->err), -1);
    if (wem_maneuver_exec(f->s, &o, -1, WEM_MVF_NO_GREEN, &f->d.d, &f->ev, &f->err)) fail_msg("%s", f->err.message);
    assert_true(s_touching(f, b, r));
    assert_true(f->s->units[b].charged);
    t_free(f);
}

/* [Attaching] "If a Unit is moved in a space occupied by a General ... of its army, the General is
 * then attached if the Unit belongs to his Army Corps" */
static void test_wem_advance_onto_own_general_attaches(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int g = t_general(f, WEM_BLUE, 2, 2, 1, 200, 540, 0);
    int h = t_general(f, WEM_BLUE, 4, 2, 1, 240, 500, 0);   /* another corps, not in the way */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->generals[g].attached, b);
    assert_int_equal(f->s->generals[h].attached, -1);
    t_free(f);
}

/* "Otherwise, the counter must be moved the least distance necessary to occupy a free space" */
static void test_wem_advance_onto_other_general_moves_him(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int g = t_general(f, WEM_BLUE, 4, 2, 1, 200, 540, 0);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->generals[g].attached, -1);
    wem_rect ur = wem_unit_rect(f->s, b), gr = wem_general_rect(f->s, g);
    assert_int_not_equal(wem_g_contact(&ur, &gr, wem_tol(f->s)), WEM_OVERLAP);
    /* the least distance: out over the nearest edge, the unit's half (less contact-tol / 2) and
     * the counter's half, 22.25 mm (the front first on a tie) */
    assert_int_equal(f->s->generals[g].at.x, MM(200));
    assert_int_equal(f->s->generals[g].at.y, MM(540) - (WEM_UOM / 2 - wem_tol(f->s) / 2 + WEM_UOM / 4));
    t_free(f);
}

/* the attached General rides with his unit */
static void test_wem_attached_general_moves_with_unit(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int g = t_general(f, WEM_BLUE, 2, 2, 1, 200, 600, 0);
    f->s->generals[g].attached = (int16_t)b;
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->generals[g].at.y, MM(540));
    t_free(f);
}

/* ---- [Charge against Artillery] ---- */

static int s_red_gun(t_fx *f, int kind, int x, int y, int fastened) {
    int g = t_unit(f, WEM_RED, kind, 1, x, y, 180);
    f->s->units[g].fastened = (uint8_t)fastened;
    return g;
}

static int s_answer(t_fx *f, int v, int unit) {
    wem_order a = t_o(WEM_O_ANSWER);
    a.value = v;
    if (unit >= 0) a.n_units = 1, a.units[0] = (int16_t)unit;
    return t_order(f, 1, &a);
}

/* a fastened gun on foot may Withdraw 1; "if the attacking enemy Unit can complete the maneuver
 * and stays in contact with the Artillery Unit, the Artillery Unit is then captured" */
static void test_wem_charge_fastened_gun_withdraws_1_still_captured(void **st) {
    (void)st;
    t_fx *f = s_new();
    int g = s_red_gun(f, WEM_ART_FOOT, 200, 300, 1);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(f->s->phase, WEM_PH_CHARGE_REPLY);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 1);
    assert_int_equal(s_answer(f, 1, -1), 0);
    assert_int_equal(f->s->units[g].status, WEM_CAPTURED);
    assert_true(f->s->units[b].charged);
    assert_int_equal(f->s->phase, WEM_PH_MANEUVER);
    t_free(f);
}

/* horse artillery may Withdraw 2: out of the charger's reach it escapes (R-wem-charge-artillery-escape) */
static void test_wem_charge_horse_gun_withdraws_2_escapes(void **st) {
    (void)st;
    t_fx *f = s_new();
    int g = s_red_gun(f, WEM_ART_HORSE, 200, 300, 1);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(s_answer(f, 1, -1), 0);
    assert_int_equal(f->s->units[g].status, WEM_ON);
    assert_int_equal(f->s->units[g].at.y, MM(240));
    assert_int_equal(f->s->units[b].at.y, MM(400));
    assert_true(f->s->units[b].maneuvered);
    t_free(f);
}

/* an unfastened gun not defended is captured */
static void test_wem_charge_unfastened_gun_undefended_captured(void **st) {
    (void)st;
    t_fx *f = s_new();
    int g = s_red_gun(f, WEM_ART_FOOT, 200, 300, 0);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(s_answer(f, 1, -1), -1);   /* only a fastened gun withdraws */
    assert_true(t_cites(f, "Charge against Artillery"));
    assert_int_equal(s_answer(f, 0, -1), 0);
    assert_int_equal(f->s->units[g].status, WEM_CAPTURED);
    t_free(f);
}

/* "its player can defend its Artillery Unit with an Infantry or Cavalry Unit in the same
 * Formation by switching the position of the pieces without altering the front and the
 * orientation" (R-wem-defend-gun) */
static void test_wem_charge_unfastened_gun_defended_by_switching(void **st) {
    (void)st;
    t_fx *f = s_new();
    int d = s_red(f, 1, 170, 300, 180);
    int g = s_red_gun(f, WEM_ART_FOOT, 192, 307, 0);
    f->s->units[g].at = (wem_pt){3850, 6150};   /* beside d, front edges in line at y = 315 */
    int b = s_blue(f, 2, 195, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(s_answer(f, 2, d), 0);
    assert_int_equal(f->s->units[d].at.x, 3850);
    assert_int_equal(f->s->units[d].at.y, MM(300));
    assert_int_equal(f->s->units[g].at.x, MM(170));
    assert_int_equal(f->s->units[g].at.y, 6150);
    assert_int_equal(f->s->units[g].status, WEM_ON);
    assert_true(s_touching(f, b, d));
    t_free(f);
}

/* legal() of [Charge against Artillery] and of [Unfastening]: every answer listed is accepted */
static void test_wem_charge_reply_and_unfasten_legal_all_accepted(void **st) {
    (void)st;
    t_fx *f = s_new();
    int d = s_red(f, 1, 170, 300, 180);
    int g = s_red_gun(f, WEM_ART_FOOT, 192, 307, 0);
    f->s->units[g].at = (wem_pt){3850, 6150};
    int b = s_blue(f, 2, 195, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(t_legal_n(f, 1), 2);   /* stand, defend by d */
    t_legal_all_accepted(f, 1);
    (void)d;
    t_free(f);
    f = s_new();
    int x = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 600, 0);
    int y = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 2, 300, 600, 0);
    f->s->units[x].fastened = f->s->units[y].fastened = 1;
    assert_int_equal(t_step(f, WEM_STEP_UNFASTEN, WEM_BLUE), 1);
    assert_int_equal(t_legal_n(f, 0), 4);   /* each, both, done */
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* ---- [Unfastening Artillery Units from Horse Teams] ---- */

static void test_wem_unfasten_foot_that_fastened_and_maneuvered_cannot(void **st) {
    (void)st;
    t_fx *f = s_new();
    int g = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 600, 0);
    f->s->units[g].fastened = 1;
    f->s->units[g].fastened_turn = 1;
    f->s->units[g].maneuvered = 1;
    int h = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 400, 600, 0);
    f->s->units[h].fastened = 1;
    f->s->units[h].fastened_turn = 1;   /* fastened, but did not maneuver */
    assert_int_equal(t_step(f, WEM_STEP_UNFASTEN, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_UNFASTEN);
    o.n_units = 1;
    o.units[0] = (int16_t)g;
    assert_int_equal(t_order(f, 0, &o), -1);
    assert_true(t_cites(f, "Unfastening Artillery Units"));
    o.units[0] = (int16_t)h;
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[h].fastened, 0);
    assert_int_equal(f->s->units[g].fastened, 1);
    t_free(f);
}

static void test_wem_unfasten_black_horse_fastened_this_turn_cannot(void **st) {
    (void)st;
    t_fx *f = s_new();
    f->s->n_order = 3;
    int g = t_unit(f, WEM_BLACK, WEM_ART_HORSE, 1, 200, 200, 180);
    f->s->units[g].fastened = 1;
    f->s->units[g].fastened_turn = 1;
    int h = t_unit(f, WEM_BLACK, WEM_ART_HORSE, 1, 400, 200, 180);
    f->s->units[h].fastened = 1;
    assert_int_equal(t_step(f, WEM_STEP_UNFASTEN, WEM_BLACK), 1);
    wem_order o = t_o(WEM_O_UNFASTEN);
    o.n_units = 1;
    o.units[0] = (int16_t)g;
    assert_int_equal(t_order(f, 1, &o), -1);
    assert_true(t_cites(f, "Unfastening Artillery Units"));
    o.units[0] = (int16_t)h;
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->units[h].fastened, 0);
    assert_non_null(t_ev_kind(&f->ev, "unfasten", 0));
    t_free(f);
}

/* ---- [Move out of sequence] ---- */

/* R-wem-out-of-sequence: the Formations that paid maneuver before the army with better
 * Initiative begins */
static void test_wem_out_of_sequence_moves_first(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 100, 180);
    f->s->units[r].green = 1;
    f->s->units[r].out_of_seq = 1;
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 1);
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(30), -1);
    assert_int_not_equal(t_order(f, 0, &o), 0);
    o = s_mv(WEM_MV_ADVANCE, r, 0, MM(30), -1);
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->units[r].at.y, MM(130));
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 0);
    t_free(f);
}

/* ---- legal() ---- */

static void test_wem_maneuver_legal_all_accepted(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    s_blue(f, 2, 200, 400, 0, 1);
    s_blue(f, 2, 230, 400, 0, 1);
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    t_legal_all_accepted(f, 0);
    brt_buf buf;
    buf_init(&buf);
    int n = f->rs->legal(f->s, 0, &buf);
    assert_true(n >= 4);
    size_t pos = 0, len = 0;
    const uint8_t *item;
    int charges = 0;
    for (int k = 0; k < n; k++) {
        assert_int_equal(buf_next_item(&buf, &pos, &item, &len), 1);
        wem_order o;
        brt_reject err;
        assert_int_equal(wem_order_decode(f->s, item, len, &o, &err), 0);
        if (o.kind == WEM_O_MANEUVER && o.value == WEM_MV_CHARGE && o.target == r) charges++;
    }
    assert_int_equal(charges, 1);
    buf_free(&buf);
    t_free(f);
}

/* ---- [3.5 End of Turn] ---- */

/* "All enemy Units still in contact must be split" (R-wem-split-contacts) */
static void test_wem_end_of_turn_contacts_split(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 370, 180);
    int b = s_blue(f, 2, 200, 400, 0, 0);
    f->s->order[0] = WEM_BLUE;
    f->s->order[1] = WEM_RED;
    assert_true(s_touching(f, b, r));
    wem_split_contacts(f->s, &f->ev);
    wem_rect rb = wem_unit_rect(f->s, b), rr = wem_unit_rect(f->s, r);
    assert_int_equal(wem_g_contact(&rb, &rr, wem_tol(f->s)), WEM_APART);
    assert_int_equal(f->s->units[b].at.y, MM(400));   /* the army with the initiative stays */
    assert_true(f->s->units[r].at.y < MM(370));
    t_free(f);
}


/* the printed deployment of the full scenario: every blue Formation IN MOVEMENT; whatever
 * legal() lists there, apply accepts */
static void test_wem_maneuver_legal_full_scenario(void **st) {
    (void)st;
    t_fx *f = t_new_scenario("full", 2, 1, 0);
    for (size_t u = 0; u < f->s->sc->n_units; u++)
        if (f->s->sc->units[u].army == WEM_BLUE && f->s->units[u].status == WEM_ON) f->s->units[u].green = 1;
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    int n = t_legal_n(f, 0);
    assert_true(n > 10);
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* on random boards, whatever legal() lists leaves no two units overlapping once applied */
static void test_wem_maneuver_random_boards_no_overlap(void **st) {
    (void)st;
    uint64_t seed = 7;
    for (int game = 0; game < 40; game++) {
        t_fx *f = s_new();
        for (int k = 0; k < 10; k++) {
            int army = k % 2 ? WEM_RED : WEM_BLUE;
            for (int tries = 0; tries < 50; tries++) {
                int x = 100 + (int)(t_next(&seed) % 600), y = 150 + (int)(t_next(&seed) % 400);
                int h = army == WEM_BLUE ? (int)(t_next(&seed) % 61) - 30 : 180 + (int)(t_next(&seed) % 61) - 30;
                int u = t_unit(f, army, k % 3 ? WEM_INF : WEM_CAV, 1 + k % 2, x, y, h);
                wem_rect r = wem_unit_rect(f->s, u);
                int bad = 0;
                for (int o = 0; o < u; o++) {
                    wem_rect q = wem_unit_rect(f->s, o);
                    if (wem_g_contact(&r, &q, wem_tol(f->s)) != WEM_APART) bad = 1;
                }
                if (!bad) {
                    f->s->units[u].green = army == WEM_BLUE;
                    break;
                }
                f->sc.n_units--;   /* take it back and try another place */
            }
        }
        assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
        brt_buf b;
        buf_init(&b);
        int n = f->rs->legal(f->s, 0, &b);
        size_t pos = 0, len = 0;
        const uint8_t *item;
        for (int k = 0; k < n; k++) {
            assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
            wem_state *twin = f->rs->clone(f->s);
            brt_reject err;
            t_dice d = f->d;
            d.d.source_ctx = &d;
            d.d.record_ctx = &d;
            if (f->rs->apply(twin, 0, item, len, &d.d, NULL, &err)) fail_msg("game %d order %d: %s", game, k, err.message);
            wem_state *w = twin;
            for (size_t i = 0; i < f->sc.n_units; i++)
                for (size_t j = i + 1; j < f->sc.n_units; j++) {
                    if (w->units[i].status != WEM_ON || w->units[j].status != WEM_ON) continue;
                    wem_rect ri = wem_unit_rect(w, (int)i), rj = wem_unit_rect(w, (int)j);
                    if (wem_g_contact(&ri, &rj, wem_tol(w)) == WEM_OVERLAP)
                        fail_msg("game %d order %d: %s overlaps %s", game, k, f->sc.units[i].id, f->sc.units[j].id);
                }
            f->rs->destroy(twin);
        }
        buf_free(&b);
        t_free(f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_advance_straight_full_allowance),
        cmocka_unit_test(test_wem_advance_beyond_allowance_refused),
        cmocka_unit_test(test_wem_advance_width_3_moves_2),
        cmocka_unit_test(test_wem_advance_turn_right_pivots_on_front_left),
        cmocka_unit_test(test_wem_advance_turn_left_pivots_on_front_right),
        cmocka_unit_test(test_wem_advance_formation_turns_rigidly),
        cmocka_unit_test(test_wem_maneuver_one_per_formation),
        cmocka_unit_test(test_wem_maneuver_needs_green),
        cmocka_unit_test(test_wem_maneuver_orange_cannot),
        cmocka_unit_test(test_wem_fall_back_1_straight_back),
        cmocka_unit_test(test_wem_fall_back_without_turn),
        cmocka_unit_test(test_wem_advance_may_stop_at_aoe_limit),
        cmocka_unit_test(test_wem_advance_cannot_enter_enemy_aoe),
        cmocka_unit_test(test_wem_advance_enters_aoe_of_enemy_in_contact),
        cmocka_unit_test(test_wem_advance_behind_enemy_rear_allowed),
        cmocka_unit_test(test_wem_advance_enters_aoe_already_occupied),
        cmocka_unit_test(test_wem_advance_from_inside_aoe_refused),
        cmocka_unit_test(test_wem_charge_ends_in_contact),
        cmocka_unit_test(test_wem_charge_beyond_allowance_refused),
        cmocka_unit_test(test_wem_charge_target_loses_green_and_stored_points),
        cmocka_unit_test(test_wem_charge_formation_already_in_contact_refused),
        cmocka_unit_test(test_wem_charge_on_flank_temporarily_shaken),
        cmocka_unit_test(test_wem_charge_artillery_alone_cannot),
        cmocka_unit_test(test_wem_charge_with_a_turn),
        cmocka_unit_test(test_wem_maneuver_never_through_enemy),
        cmocka_unit_test(test_wem_maneuver_not_through_friendly_green),
        cmocka_unit_test(test_wem_maneuver_through_shaken_friend_shakes),
        cmocka_unit_test(test_wem_maneuver_shaken_mover_shakes_friend),
        cmocka_unit_test(test_wem_maneuver_cannot_end_on_friend),
        cmocka_unit_test(test_wem_wood_caps_maneuver_at_1),
        cmocka_unit_test(test_wem_farm_caps_maneuver_at_2),
        cmocka_unit_test(test_wem_town_counts_1_moved),
        cmocka_unit_test(test_wem_sunken_road_reduces_by_1),
        cmocka_unit_test(test_wem_torrent_reduces_and_shakes_artillery),
        cmocka_unit_test(test_wem_bridge_only_front_width_1),
        cmocka_unit_test(test_wem_bridge_charge_recorded),
        cmocka_unit_test(test_wem_road_ignores_wood),
        cmocka_unit_test(test_wem_maneuver_off_the_board_is_out_of_field),
        cmocka_unit_test(test_wem_maneuver_limit_fold_line),
        cmocka_unit_test(test_wem_split_by_maneuver_other_part_loses_green),
        cmocka_unit_test(test_wem_split_parts_divided_by_ruler_width),
        cmocka_unit_test(test_wem_combat_charge_without_green_into_engaged_unit),
        cmocka_unit_test(test_wem_advance_onto_own_general_attaches),
        cmocka_unit_test(test_wem_advance_onto_other_general_moves_him),
        cmocka_unit_test(test_wem_attached_general_moves_with_unit),
        cmocka_unit_test(test_wem_charge_fastened_gun_withdraws_1_still_captured),
        cmocka_unit_test(test_wem_charge_horse_gun_withdraws_2_escapes),
        cmocka_unit_test(test_wem_charge_unfastened_gun_undefended_captured),
        cmocka_unit_test(test_wem_charge_unfastened_gun_defended_by_switching),
        cmocka_unit_test(test_wem_charge_reply_and_unfasten_legal_all_accepted),
        cmocka_unit_test(test_wem_unfasten_foot_that_fastened_and_maneuvered_cannot),
        cmocka_unit_test(test_wem_unfasten_black_horse_fastened_this_turn_cannot),
        cmocka_unit_test(test_wem_out_of_sequence_moves_first),
        cmocka_unit_test(test_wem_maneuver_legal_all_accepted),
        cmocka_unit_test(test_wem_end_of_turn_contacts_split),
        cmocka_unit_test(test_wem_maneuver_legal_full_scenario),
        cmocka_unit_test(test_wem_maneuver_random_boards_no_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
