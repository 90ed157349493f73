/* test_wem_cases_maneuver2.c - more rule cases of [3.3 Maneuver] and the forced moves, each for
 * a line of the book the first cases did not hold: [Charge] (only a Charge brings units in
 * contact), [3.3 Maneuver] (Formations that end a maneuver in contact are united from the next
 * turn on), [Area Terrain] (the caps and what is taken off them), [Units] (horse artillery and
 * light cavalry), [Attaching] (a unit moved onto a General, by any move), [Withdraw] (a column of
 * depth 2 withdraws 1), [Moving through friendly Units] (in a forced Fall Back), [Elements out of
 * field] (on the way), [3.5 End of Turn] (the split takes the attached General along).
 * Boards of the tests' own: blue faces north (heading 0), red south (180); 30 mm tiles;
 * 1 UoM = 30 mm. */
/* wem_t.h's t_unit() names units "%c%d" into 12 bytes, which gcc's inliner flags (it cannot
 * overflow: at most 160 units) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/maneuver.h"

#include "wem_mv_t.h"

static int s_contact(t_fx *f, int a, int b) {
    wem_rect ra = wem_unit_rect(f->s, a), rb = wem_unit_rect(f->s, b);
    return wem_g_contact(&ra, &rb, wem_tol(f->s));
}

/* ---- [Charge] "Charge is the only maneuver that allows the movement of Formations, on the
 * battlefield, to bring them in contact with the enemy" ---- */

/* an Advance onto an enemy's rear (no area of engagement there) may come close, not touch */
static void test_wem_charge_only_maneuver_into_contact_advance_to_rear_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 0);   /* faces north: its rear towards blue */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(70), -1)), -1);   /* to contact */
    assert_true(t_cites(f, "Charge"));
    assert_int_equal(f->s->units[b].at.y, MM(400));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(69), -1);   /* 1 mm short: allowed */
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(s_contact(f, b, r), WEM_APART);
    t_free(f);
}

/* an enemy already in contact with a blue unit stops no Advance by its area of engagement, but
 * the Advance still may not end in contact with it */
static void test_wem_charge_only_maneuver_into_contact_engaged_enemy(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 3, 230, 300, 270);   /* touching red's flank */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(70), -1)), -1);
    assert_true(t_cites(f, "Charge"));
    wem_order o = s_mv(WEM_MV_CHARGE, b, 0, 0, r);   /* but it may Charge it... */
    assert_int_equal(t_order(f, 0, &o), -1);         /* ...not: its Formation is in contact */
    assert_true(t_cites(f, "Charge"));
    o = s_mv(WEM_MV_ADVANCE, b, 0, MM(65), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(335));
    t_free(f);
}

/* ---- [3.3 Maneuver] "If two Formations belonging to the same Army Corps end a maneuver in
 * contact, from the next turn on, these Formations can be considered united" ---- */

static void test_wem_maneuver_formations_in_contact_united_from_next_turn(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 660, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);   /* same corps, same facing, apart */
    /* a ends beside b, flank to flank */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 0, MM(60), -1)), 0);
    assert_int_equal(s_contact(f, a, b), WEM_TOUCH);
    /* this turn b is still a Formation of its own: it maneuvers alone, by a front width of 1,
     * and a keeps its place and its green marker */
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, 4 * WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(480));
    assert_int_equal(f->s->units[a].at.y, MM(600));
    assert_int_equal(f->s->units[a].green, 1);
    t_free(f);
}

/* legal() lists the maneuvers of the Formation that has not maneuvered, and apply accepts them */
static void test_wem_maneuver_formations_in_contact_legal_lists_the_other(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 660, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 0, MM(60), -1)), 0);
    brt_buf out;
    buf_init(&out);
    int n = f->rs->legal(f->s, 0, &out);
    buf_free(&out);
    assert_true(n > 2);   /* b's (and the spare's) maneuvers, and done */
    wem_order o = s_mv(WEM_MV_FALLBACK, b, 0, WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(630));
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* ---- [Area Terrain] the caps, then what is taken off them (R-wem-terrain-order) ---- */

/* [Town] "treated as if they already moved 1 unit of measurement" and [Wood] "cannot surpass one
 * Unit of Measurement": across both, nothing is left */
static void test_wem_town_and_wood_leave_nothing(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_TOWN, 150, 560, 200, 590);   /* the front edge (y 585) in both */
    s_area(f, WEM_T_WOOD, 200, 560, 250, 590);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(1), -1)), -1);
    assert_true(t_cites(f, "Town"));
    assert_int_equal(f->s->units[b].at.y, MM(600));
    t_free(f);
}

/* [Farm Field] "cannot surpass 2" and [Sunken Road] "reduced by 1": 1 unit of measurement */
static void test_wem_farm_and_sunken_road_allow_1(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_FARM, 150, 450, 250, 590);
    s_line(f, WEM_L_SUNKEN, 1, 100, 580, 300, 580);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(31), -1)), -1);
    assert_true(t_cites(f, "Sunken Road"));
    wem_order o = s_mv(WEM_MV_ADVANCE, b, 0, MM(30), -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(570));
    t_free(f);
}

/* [Wood] caps at 1, then the Torrent takes 1 off: Fall Back 1 across both is refused */
static void test_wem_wood_and_torrent_fall_back_1_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_area(f, WEM_T_WOOD, 150, 580, 250, 640);
    s_line(f, WEM_L_TORRENT, 1, 100, 625, 300, 625);
    int b = s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_FALLBACK, b, 0, WEM_UOM, -1)), -1);
    assert_true(t_cites(f, "Torrent"));
    assert_string_equal(f->err.rule, "Fall Back");
    assert_int_equal(f->s->units[b].at.y, MM(600));
    t_free(f);
}

/* ---- [Units] "Horse Artillery Units do not reduce the Advance/Charge ability of the Light
 * Cavalry Units in the same Formation" (R-wem-light-horse-artillery) ---- */

static void test_wem_advance_light_cavalry_with_horse_artillery_not_reduced(void **st) {
    (void)st;
    t_fx *f = s_new();
    int c = t_unit(f, WEM_BLUE, WEM_CAV, 2, 200, 600, 0);
    f->sc.units[c].cav = WEM_CAV_LIGHT;
    /* a fastened horse gun beside it, fronts level */
    int g = t_unit(f, WEM_BLUE, WEM_ART_HORSE, 2, 222, 592, 0);
    f->s->units[g].fastened = 1;
    f->s->units[c].green = f->s->units[g].green = 1;
    assert_int_equal(s_contact(f, c, g), WEM_TOUCH);
    /* as the light cavalry alone: Advance 4 + 1 = 5 units of measurement */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, c, 0, 5 * WEM_UOM, -1)), 0);
    assert_int_equal(f->s->units[c].at.y, MM(450));
    assert_int_equal(f->s->units[g].at.y, MM(442));
    t_free(f);
}

/* ---- [Attaching] a unit moved onto a General of its army ---- */

/* "A Formation can have only 1 General (or the Commander in Chief) attached to it": a unit whose
 * Formation has the Commander in Chief does not pick up its corps' General; he makes way */
static void test_wem_attaching_one_general_per_formation(void **st) {
    (void)st;
    t_fx *f = s_new();
    int a = s_blue(f, 2, 200, 600, 0, 1);
    int b = s_blue(f, 2, 230, 600, 0, 1);
    int n = t_general(f, WEM_BLUE, 0, 4, 0, 230, 600, 1);   /* Napoleon, on b */
    f->s->generals[n].attached = (int16_t)b;
    int g = t_general(f, WEM_BLUE, 2, 2, 1, 200, 540, 0);   /* corps 2's General, in a's way */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, a, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(540));
    assert_int_equal(f->s->generals[g].attached, -1);
    wem_rect ur = wem_unit_rect(f->s, a), gr = wem_general_rect(f->s, g);
    assert_int_not_equal(wem_g_contact(&ur, &gr, wem_tol(f->s)), WEM_OVERLAP);
    assert_int_equal(f->s->generals[n].attached, b);
    t_free(f);
}

/* "If a Unit is moved in a space occupied by a General": a Withdraw too */
static void test_wem_attaching_withdraw_onto_own_general(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int g = t_general(f, WEM_BLUE, 2, 2, 1, 200, 430, 0);
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->generals[g].attached, u);
    t_free(f);
}

/* the least distance to a free space: a General of another corps just beside the unit's path
 * is pushed out over the nearer edge, sideways */
static void test_wem_attaching_general_moved_least_distance_sideways(void **st) {
    (void)st;
    t_fx *f = s_new();
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int g = t_general(f, WEM_BLUE, 4, 2, 1, 212, 540, 0);   /* 12 mm right of the path's axis */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(60), -1)), 0);
    assert_int_equal(f->s->generals[g].attached, -1);
    /* out over the right edge: 15 - 12 + 7.5 mm, less contact-tol / 2 */
    assert_int_equal(f->s->generals[g].at.y, MM(540));
    assert_int_equal(f->s->generals[g].at.x, MM(212) + WEM_UOM / 2 - MM(12) + WEM_UOM / 4 - wem_tol(f->s) / 2);
    t_free(f);
}

/* ---- [Withdraw] "If the Unit must Withdraw and is in contact with a friendly Unit (up to depth
 * 2), both Units must Withdraw 1" - a Routed unit's Withdraw 2 as well ---- */

static void test_wem_withdraw_routed_with_friend_behind_both_withdraw_1(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 430, 0);
    f->s->units[u].yellow = 1;
    wem_shake(f->s, u, -1, &f->ev);   /* Routed: must Withdraw 2 */
    assert_int_equal(f->s->units[u].status, WEM_ON);
    assert_int_equal(f->s->units[u].at.y, MM(430));
    assert_int_equal(f->s->units[x].at.y, MM(460));
    t_free(f);
}

/* ---- [Moving through friendly Units] "if a Shaken Unit moves through a Unit, they will become
 * Shaken as well": in the Fall Back of [Result of Combat] too ---- */

static void test_wem_fall_back_shaken_unit_shakes_friend_passed(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 3, 200, 460, 90);   /* another corps, another facing */
    f->s->units[a].yellow = 1;
    wem_fall_back(f->s, a, 4 * WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(520));
    assert_int_equal(f->s->units[x].yellow, 1);
    assert_int_equal(f->s->units[a].yellow, 1);
    t_free(f);
}

/* ---- [Elements out of field] "a tile or counter that comes out of the battlefield, even
 * partially": on the way, not only at the end ---- */

static void test_wem_maneuver_pivot_over_the_edge_out_of_field(void **st) {
    (void)st;
    t_fx *f = s_new();
    /* a Formation of two side by side near the west edge: a quarter turn to the right pivots on
     * the guide's front-left corner (x = 40 mm); the left unit's rear-left corner swings out to
     * x = 40 - 42.4 mm on the way and back to 10 mm */
    int l = s_blue(f, 2, 25, 600, 0, 1);
    int b = s_blue(f, 2, 55, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 900, 0, -1)), 0);
    assert_int_equal(f->s->units[b].status, WEM_ON);
    assert_int_equal(f->s->units[l].status, WEM_OUTFIELD);
    t_free(f);
}

/* ---- [3.5 End of Turn] "All enemy Units still in contact must be split": the attached General
 * goes with the unit that steps away ---- */

static void test_wem_end_of_turn_split_takes_attached_general(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 370, 180);
    int b = s_blue(f, 2, 200, 400, 0, 0);
    int g = t_general(f, WEM_RED, 1, 2, 1, 200, 370, 0);
    f->s->generals[g].attached = (int16_t)r;
    f->s->order[0] = WEM_BLUE;
    f->s->order[1] = WEM_RED;
    wem_split_contacts(f->s, &f->ev);
    assert_int_equal(s_contact(f, b, r), WEM_APART);
    assert_int_equal(f->s->generals[g].at.x, f->s->units[r].at.x);
    assert_int_equal(f->s->generals[g].at.y, f->s->units[r].at.y);
    t_free(f);
}

/* [Area of Engagement] "if a Unit has an enemy Unit that is at the limit of its area of engagement
 * (its distance is exactly 1 unit of measurement) then its area of engagement is considered
 * occupied" and [Advance] "Once the Formation meets an enemy area of engagement it CANNOT Advance
 * further": from the limit, no Advance, even sideways; Fall Back 1 is still open */
static void test_wem_advance_from_aoe_limit_cannot_advance_further(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 200, 360, 0, 1);   /* exactly 30 mm from red's front */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 450, MM(10), -1)), -1);
    assert_true(t_cites(f, "Advance"));
    assert_int_equal(f->s->units[b].at.y, MM(360));
    wem_order o = s_mv(WEM_MV_FALLBACK, b, 0, WEM_UOM, -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    assert_int_equal(f->s->units[b].at.y, MM(390));
    t_free(f);
}

/* [Maneuver limit] "the blue (French) army Units cannot execute maneuvers to the right of the
 * imaginary line": not on the way either (a pivot swinging a corner over the line and back) */
static void test_wem_maneuver_limit_pivot_swing_over_fold_refused(void **st) {
    (void)st;
    t_fx *f = s_new();
    f->sc.fold_x = MM(245);
    f->s->black_seen = 0;
    /* a quarter turn to the left pivots on the guide's front-right corner (x = 215 mm): the right
     * unit's rear-right corner swings out to x = 215 + 42.4 mm and back to 245 */
    int b = s_blue(f, 2, 200, 600, 0, 1);
    int r = s_blue(f, 2, 230, 600, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, -900, 0, -1)), -1);
    assert_true(t_cites(f, "Maneuver limit"));
    assert_int_equal(f->s->units[r].at.x, MM(230));
    f->s->black_seen = 1;   /* once the black army is deployed */
    wem_order o = s_mv(WEM_MV_ADVANCE, b, -900, 0, -1);
    assert_int_equal(t_order(f, 0, &o), 0);
    t_free(f);
}

/* [Area of Engagement] "unless the enemy Unit is already in contact with enemy Units": other
 * units than those that move; a unit touching the enemy's flank does not open its area for itself */
static void test_wem_aoe_own_contact_does_not_exempt(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_red(f, 1, 200, 300, 180);
    int b = s_blue(f, 2, 230, 300, 0, 1);   /* touching red's flank, facing north */
    assert_int_equal(s_go(f, s_mv(WEM_MV_ADVANCE, b, 0, MM(10), -1)), -1);
    assert_true(t_cites(f, "Advance"));
    assert_int_equal(f->s->units[b].at.y, MM(300));
    t_free(f);
}

/* [Fall Back] of [Result of Combat] across a Wood: "the maneuvers executed across the Wood, even
 * partially, cannot surpass one Unit of Measurement"; a Fall Back 2 cannot be made, "it will
 * instead suffer 1 Loss" (R-wem-fall-back-terrain) */
static void test_wem_fall_back_2_across_wood_cannot_loss(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    s_area(f, WEM_T_WOOD, 150, 430, 250, 480);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 230, 400, 0);
    wem_fall_back(f->s, a, 2 * WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(400));
    assert_int_equal(f->s->units[b].at.y, MM(400));
    assert_int_equal(f->s->units[a].losses, 1);
    assert_int_equal(f->s->units[b].losses, 1);
    /* a Fall Back 1 across it is within the cap */
    wem_fall_back(f->s, a, WEM_UOM, &f->ev);
    assert_int_equal(f->s->units[a].at.y, MM(430));
    assert_int_equal(f->s->units[b].at.y, MM(430));
    assert_int_equal(f->s->units[a].losses, 1);
    t_free(f);
}

/* [Withdraw] "in contact with a friendly Unit (up to depth 2 *), both Units must Withdraw 1": a
 * friend touching only at a rear corner is not columned with it (R-wem-withdraw-column) */
static void test_wem_withdraw_corner_friend_is_no_column(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    int x = t_unit(f, WEM_BLUE, WEM_INF, 2, 230, 430, 0);   /* corner to corner, behind right */
    assert_int_equal(wem_withdraw(f->s, u, WEM_UOM, -1, &f->ev), WEM_UOM);
    assert_int_equal(f->s->units[u].at.y, MM(430));
    assert_int_equal(f->s->units[x].at.y, MM(430));
    assert_int_equal(f->s->units[u].yellow + f->s->units[x].yellow, 0);
    t_free(f);
}

/* [Charge against Artillery] "switching the position of the pieces": the General attached to the
 * defender goes with it ([Attaching]) */
static void test_wem_charge_defended_gun_switch_takes_attached_general(void **st) {
    (void)st;
    t_fx *f = s_new();
    int d = s_red(f, 1, 170, 300, 180);
    int g = t_unit(f, WEM_RED, WEM_ART_FOOT, 1, 192, 307, 180);
    f->s->units[g].fastened = 0;
    f->s->units[g].at = (wem_pt){3850, 6150};   /* beside d, front edges in line at y = 315 */
    int k = t_general(f, WEM_RED, 1, 2, 1, 170, 300, 0);
    f->s->generals[k].attached = (int16_t)d;
    int b = s_blue(f, 2, 195, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    wem_order a = t_o(WEM_O_ANSWER);
    a.value = 2;   /* defend */
    a.n_units = 1;
    a.units[0] = (int16_t)d;
    assert_int_equal(t_order(f, 1, &a), 0);
    assert_int_equal(f->s->units[d].at.x, 3850);
    assert_int_equal(f->s->generals[k].at.x, f->s->units[d].at.x);
    assert_int_equal(f->s->generals[k].at.y, f->s->units[d].at.y);
    t_free(f);
}

/* [Road] "do not suffer limitations from other types of terrain": the Charge along the Road
 * crosses the Torrent without losing 1; [Torrent] "-1 to Units that cross the Torrent whilst
 * executing a Charge" is a modifier to combat and still holds */
static void test_wem_road_charge_across_torrent_keeps_combat_minus_1(void **st) {
    (void)st;
    t_fx *f = s_new();
    s_line(f, WEM_L_ROAD, 1, 200, 300, 200, 650);
    s_line(f, WEM_L_TORRENT, 1, 100, 520, 300, 520);
    int r = s_red(f, 1, 200, 470, 180);
    int b = s_blue(f, 2, 200, 600, 0, 1);   /* 100 mm to red's front: Charge 4 less 1 would not do */
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_int_equal(f->s->units[b].at.y, MM(500));
    assert_int_equal(f->s->units[b].charged, 1);
    assert_int_equal(f->s->units[b].charge_torrent, 1);
    t_free(f);
}

/* [The Garrisons] "The Garrison's combat ability and engagement area is expressed through ALL
 * sides of the counter": a Garrison Charged on a side that is not its marked front is not
 * "Charged on its flanks" ([Melee modifiers]: no temporary Shaken) */
static void test_wem_garrison_charged_on_side_not_flank(void **st) {
    (void)st;
    t_fx *f = s_new();
    int g = t_unit(f, WEM_RED, WEM_GARRISON, 1, 200, 300, 90);   /* marked front east */
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, g)), 0);
    assert_int_equal(f->s->units[b].charged, 1);
    assert_int_equal(f->s->units[g].charge_flank, 0);
    t_free(f);
}

/* for comparison, a tile Charged the same way on its flank is temporarily Shaken */
static void test_wem_charge_on_flank_tile_temporarily_shaken(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 300, 90);
    int b = s_blue(f, 2, 200, 400, 0, 1);
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, b, 0, 0, r)), 0);
    assert_int_equal(f->s->units[r].charge_flank, 1);
    t_free(f);
}

/* [Move out of sequence] "the Units that move out of sequence ... can execute any maneuver": when
 * only one unit of a Formation paid, legal() lists its maneuvers (the Formation split, [Split
 * Formations]) and apply accepts every one of them */
static void test_wem_out_of_sequence_part_of_formation_legal(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 100, 180);
    int q = s_red(f, 1, 230, 100, 180);   /* same Formation, did not pay */
    f->s->units[r].green = f->s->units[q].green = 1;
    f->s->units[r].out_of_seq = 1;
    s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    assert_true(t_legal_n(f, 1) > 1);   /* more than done */
    t_legal_all_accepted(f, 1);
    wem_order o = s_mv(WEM_MV_ADVANCE, r, 0, 2 * WEM_UOM, -1);
    o.n_units = 1;
    o.units[0] = (int16_t)r;
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->units[r].at.y, MM(160));
    assert_int_equal(f->s->units[q].at.y, MM(100));
    assert_int_equal(f->s->units[q].green, 0);   /* the part that stays */
    t_free(f);
}

/* [Move out of sequence] "By paying this cost, the Units that "move out of sequence" can ...
 * execute any maneuver": a unit that paid maneuvers in the early round without a green marker
 * (R-wem-out-of-sequence); in Recovery (orange) it still cannot */
static void test_wem_out_of_sequence_paid_unit_needs_no_green(void **st) {
    (void)st;
    t_fx *f = s_new();
    int r = s_red(f, 1, 200, 100, 180);
    int q = s_red(f, 2, 400, 100, 180);
    f->s->units[r].out_of_seq = 1;
    f->s->units[q].out_of_seq = 1;
    f->s->units[q].orange = 1;
    s_blue(f, 2, 200, 600, 0, 1);
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 1u << 1);   /* red's early round */
    wem_order o = s_mv(WEM_MV_ADVANCE, q, 0, MM(30), -1);
    assert_int_equal(t_order(f, 1, &o), -1);
    assert_true(t_cites(f, "Colored Markers"));
    o = s_mv(WEM_MV_ADVANCE, r, 0, MM(30), -1);
    assert_int_equal(t_order(f, 1, &o), 0);
    assert_int_equal(f->s->units[r].at.y, MM(130));
    t_free(f);
}

/* [Sidebar: Area of Engagement] "If a player has more than one Unit in a Formation engaging the
 * enemy, he must then choose which Unit will Charge": two blue tiles side by side both meet a red
 * tile straddling them; the unit named as the guide is the one that charges */
static void s_charger(int guide_right) {
    t_fx *f = s_new();
    int b2 = s_blue(f, 2, 200, 400, 0, 1);
    int b3 = s_blue(f, 2, 230, 400, 0, 1);
    int r = s_red(f, 1, 215, 330, 180);
    int g = guide_right ? b3 : b2;
    assert_int_equal(s_go(f, s_mv(WEM_MV_CHARGE, g, 0, 0, r)), 0);
    const Wem__V1__Event *e = t_ev_kind(&f->ev, "charge", 0);
    assert_non_null(e);
    assert_string_equal(e->piece, f->sc.units[g].id);
    assert_string_equal(e->other, f->sc.units[r].id);
    assert_int_not_equal(s_contact(f, b2, r), WEM_APART);
    assert_int_not_equal(s_contact(f, b3, r), WEM_APART);
    t_free(f);
}

static void test_wem_aoe_player_chooses_which_unit_charges(void **st) {
    (void)st;
    s_charger(0);
    s_charger(1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_charge_only_maneuver_into_contact_advance_to_rear_refused),
        cmocka_unit_test(test_wem_aoe_player_chooses_which_unit_charges),
        cmocka_unit_test(test_wem_charge_only_maneuver_into_contact_engaged_enemy),
        cmocka_unit_test(test_wem_maneuver_formations_in_contact_united_from_next_turn),
        cmocka_unit_test(test_wem_maneuver_formations_in_contact_legal_lists_the_other),
        cmocka_unit_test(test_wem_town_and_wood_leave_nothing),
        cmocka_unit_test(test_wem_farm_and_sunken_road_allow_1),
        cmocka_unit_test(test_wem_wood_and_torrent_fall_back_1_refused),
        cmocka_unit_test(test_wem_advance_light_cavalry_with_horse_artillery_not_reduced),
        cmocka_unit_test(test_wem_attaching_one_general_per_formation),
        cmocka_unit_test(test_wem_attaching_withdraw_onto_own_general),
        cmocka_unit_test(test_wem_attaching_general_moved_least_distance_sideways),
        cmocka_unit_test(test_wem_withdraw_routed_with_friend_behind_both_withdraw_1),
        cmocka_unit_test(test_wem_fall_back_shaken_unit_shakes_friend_passed),
        cmocka_unit_test(test_wem_maneuver_pivot_over_the_edge_out_of_field),
        cmocka_unit_test(test_wem_end_of_turn_split_takes_attached_general),
        cmocka_unit_test(test_wem_advance_from_aoe_limit_cannot_advance_further),
        cmocka_unit_test(test_wem_maneuver_limit_pivot_swing_over_fold_refused),
        cmocka_unit_test(test_wem_aoe_own_contact_does_not_exempt),
        cmocka_unit_test(test_wem_fall_back_2_across_wood_cannot_loss),
        cmocka_unit_test(test_wem_withdraw_corner_friend_is_no_column),
        cmocka_unit_test(test_wem_charge_defended_gun_switch_takes_attached_general),
        cmocka_unit_test(test_wem_road_charge_across_torrent_keeps_combat_minus_1),
        cmocka_unit_test(test_wem_garrison_charged_on_side_not_flank),
        cmocka_unit_test(test_wem_charge_on_flank_tile_temporarily_shaken),
        cmocka_unit_test(test_wem_out_of_sequence_part_of_formation_legal),
        cmocka_unit_test(test_wem_out_of_sequence_paid_unit_needs_no_green),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
