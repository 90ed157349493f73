/*
 * test_wem_cases_generals.c - rule cases of the Generals in combat (Waterloo: Enemy Mistakes):
 * [Attaching] the attached General's 2d6 roll and its modifiers, [Unattached Generals] /
 * [Capture of a General] the 1d6 capture roll, its modifiers and the escape of up to 2 units of
 * measurement, and [Victory Conditions] for a captured Commander in Chief.
 *
 * The board: a blue infantry tile A at (300, 400) mm facing north; an unattached red General's
 * counter touching its front; a second pair far to the east keeps the combat subphase open.
 */
/* the fixture's id and name formats are bounded by its own counts (gcc cannot see it) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"
#include "wem/combat.h"

typedef struct s_board {
    t_fx *f;
    int a, g;
} s_board;

static s_board s_new(int kind, int cav, int cinc) {
    s_board b;
    b.f = t_new(2, 17);
    t_param(b.f, "die-general-melee", 1);
    t_param(b.f, "die-general-attached", 3);
    b.a = t_unit(b.f, WEM_BLUE, kind, 1, 300, 400, 0);
    b.f->sc.units[b.a].cav = (uint8_t)cav;
    b.g = t_general(b.f, WEM_RED, cinc ? 0 : 1, 2, 1, 300, 378, cinc);
    b.f->s->generals[b.g].at.y = 385 * WEM_MM - WEM_UOM / 4;
    b.f->sc.generals[b.g].at = b.f->s->generals[b.g].at;
    t_unit(b.f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
    t_unit(b.f, WEM_RED, WEM_INF, 1, 900, 370, 180);
    return b;
}

static int s_attack(s_board *b) {
    assert_int_equal(t_step(b->f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b->a;
    o.target = WEM_GEN_BASE + b->g;
    return t_order(b->f, 0, &o);
}

/* [Unattached Generals] "If the modified result is [die-face] or less, the General is captured" */
static void test_wem_general_unattached_captured_on_low_roll(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF, WEM_CAV_NONE, 0);
    t_roll(b.f, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_CAPTURED);
    assert_int_equal(b.f->s->vp[WEM_BLUE], 24); /* captured: twice his 12 VP */
    assert_true(b.f->s->units[b.a].fought);
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Unattached Generals] "Otherwise, the counter can be moved up to 2 units of measurement": his
 * owner moves him (or leaves him) */
static void test_wem_general_escape_up_to_2_uom(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF, WEM_CAV_NONE, 0);
    t_roll(b.f, 4);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_ON);
    assert_string_equal(t_kind(b.f), "general-escape");
    brt_pending p;
    t_pending(b.f, &p);
    assert_int_equal(p.seats, 1u << 1);
    t_legal_all_accepted(b.f, 1);
    wem_pt at = b.f->s->generals[b.g].at;
    wem_order o = t_o(WEM_O_ANSWER);
    o.n_places = 1;
    o.places[0].piece = (int16_t)(WEM_GEN_BASE + b.g);
    o.places[0].at.x = at.x;
    o.places[0].at.y = at.y - 2 * WEM_UOM - 1;
    assert_int_equal(t_order(b.f, 1, &o), -1);
    assert_true(t_cites(b.f, "Unattached Generals"));
    o.places[0].at.y = at.y - 2 * WEM_UOM;
    assert_int_equal(t_order(b.f, 1, &o), 0);
    assert_int_equal(b.f->s->generals[b.g].at.y, at.y - 2 * WEM_UOM);
    assert_int_equal(b.f->s->phase, WEM_PH_COMBAT);
    t_free(b.f);
}

/* [Die modifiers (unattached General)] -2 against Light Cavalry: a 3 is a 1, captured */
static void test_wem_general_light_cavalry_minus_2(void **st) {
    (void)st;
    s_board b = s_new(WEM_CAV, WEM_CAV_LIGHT, 0);
    t_roll(b.f, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_CAPTURED);
    t_free(b.f);
}

/* [Die modifiers (unattached General)] -1 against Medium or Heavy Cavalry: a 3 is a 2, he stays */
static void test_wem_general_heavy_cavalry_minus_1(void **st) {
    (void)st;
    s_board b = s_new(WEM_CAV, WEM_CAV_HEAVY, 0);
    t_roll(b.f, 3);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_ON);
    t_free(b.f);
    b = s_new(WEM_CAV, WEM_CAV_MEDIUM, 0);
    t_roll(b.f, 2);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_CAPTURED);
    t_free(b.f);
}

/* [Unattached Generals] "if a Commander in Chief (except Blücher) is captured then the game ends" */
static void test_wem_general_captured_wellington_ends_game(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF, WEM_CAV_NONE, 1);
    t_roll(b.f, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_true(b.f->s->over);
    assert_int_equal(b.f->s->winners, 1u << 0);
    t_free(b.f);
}

/* ... Blücher's capture does not */
static void test_wem_general_captured_blucher_game_goes_on(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF, WEM_CAV_NONE, 1);
    b.f->sc.generals[b.g].army = WEM_BLACK;
    t_roll(b.f, 1);
    assert_int_equal(s_attack(&b), 0);
    assert_int_equal(b.f->s->generals[b.g].status, WEM_CAPTURED);
    assert_false(b.f->s->over);
    t_free(b.f);
}

/* [Unattached Generals] only an unattached General is attacked so: an attached one is not a target */
static void test_wem_general_attached_is_not_a_target(void **st) {
    (void)st;
    s_board b = s_new(WEM_INF, WEM_CAV_NONE, 0);
    int r = t_unit(b.f, WEM_RED, WEM_INF, 1, 500, 300, 180);
    b.f->s->generals[b.g].attached = (int16_t)r;
    assert_int_equal(t_step(b.f, WEM_STEP_COMBAT, WEM_BLUE), 1);
    wem_order o = t_o(WEM_O_COMBAT);
    o.unit = b.a;
    o.target = WEM_GEN_BASE + b.g;
    assert_int_equal(t_order(b.f, 0, &o), -1);
    assert_true(t_cites(b.f, "Unattached Generals"));
    t_free(b.f);
}

/* [Attaching] a ★ General on a fresh Unit: 2 + 2 = 4, above 3: he stays */
static void test_wem_attached_general_plain_roll(void **st) {
    (void)st;
    t_fx *f = t_new(2, 5);
    t_param(f, "die-general-attached", 3);
    int u = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    int g = t_general(f, WEM_RED, 1, 1, 0, 300, 300, 0);
    f->s->generals[g].attached = (int16_t)u;
    t_rolls(f, 2, 2, 2);
    assert_int_equal(wem_gen_attached_check(f->s, g, u, WEM_BLUE, &f->d.d, &f->ev), 0);
    assert_int_equal(f->s->generals[g].status, WEM_ON);
    t_free(f);
}

/* [Attaching] "-2 if ... he is the Commander in Chief": the same 4 is a 2, eliminated */
static void test_wem_attached_cinc_minus_2(void **st) {
    (void)st;
    t_fx *f = t_new(2, 5);
    t_param(f, "die-general-attached", 3);
    int u = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    int g = t_general(f, WEM_RED, 0, 4, 0, 300, 300, 1);
    f->s->generals[g].attached = (int16_t)u;
    t_rolls(f, 2, 2, 2);
    assert_int_equal(wem_gen_attached_check(f->s, g, u, WEM_BLUE, &f->d.d, &f->ev), 1);
    assert_int_equal(f->s->generals[g].status, WEM_ELIMINATED);
    assert_true(f->s->over); /* Wellington removed [Victory Conditions] */
    t_free(f);
}

/* [Attaching] -1 Shaken, -1 ★★, -1 already in melee this turn: 6 - 3 = 3, eliminated; -2 Routed */
static void test_wem_attached_general_unit_modifiers(void **st) {
    (void)st;
    t_fx *f = t_new(2, 5);
    t_param(f, "die-general-attached", 3);
    int u = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    int g = t_general(f, WEM_RED, 1, 2, 1, 300, 300, 0);
    f->s->generals[g].attached = (int16_t)u;
    f->s->units[u].yellow = 1;
    f->s->units[u].meleed = 1;
    t_rolls(f, 2, 3, 3);
    assert_int_equal(wem_gen_attached_check(f->s, g, u, WEM_BLUE, &f->d.d, &f->ev), 1);
    t_free(f);
    f = t_new(2, 5);
    t_param(f, "die-general-attached", 3);
    u = t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    g = t_general(f, WEM_RED, 1, 1, 0, 300, 300, 0);
    f->s->generals[g].attached = (int16_t)u;
    f->s->units[u].yellow = 2;
    t_rolls(f, 2, 3, 2); /* 5 - 2 Routed = 3 */
    assert_int_equal(wem_gen_attached_check(f->s, g, u, WEM_BLUE, &f->d.d, &f->ev), 1);
    t_free(f);
}

/* [Capture of a General] "If an unattached General participates in the melee, his controlling
 * player must roll 1 die": a red General standing against the attacking Unit's flank rolls at the
 * end of the combat (R-wem-general-in-melee); captured on a 1 */
static void test_wem_general_in_melee_rolls(void **st) {
    (void)st;
    for (int roll = 1; roll <= 4; roll += 3) {
        t_fx *f = t_new(2, 23);
        t_param(f, "die-general-melee", 1);
        int a = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 400, 0);
        t_unit(f, WEM_RED, WEM_INF, 1, 300, 370, 180);
        f->s->units[a].green = 1;
        int g = t_general(f, WEM_RED, 1, 2, 1, 322, 407, 0);
        f->s->generals[g].at.x = 3225 * WEM_MM / 10;
        f->s->generals[g].at.y = 4075 * WEM_MM / 10;
        t_unit(f, WEM_BLUE, WEM_INF, 1, 900, 400, 0);
        t_unit(f, WEM_RED, WEM_INF, 1, 900, 370, 180);
        assert_int_equal(t_step(f, WEM_STEP_COMBAT, WEM_BLUE), 1);
        wem_order o = t_o(WEM_O_COMBAT);
        o.unit = a;
        o.target = 1;
        t_rolls(f, 7, 3, 3, 1, 1, 3, 3, roll);
        assert_int_equal(t_order(f, 0, &o), 0);
        o = t_o(WEM_O_ANSWER);
        o.value = 0;
        assert_int_equal(t_order(f, 1, &o), 0); /* no counterattack */
        assert_non_null(t_ev_kind(&f->ev, "general-capture-roll", 0));
        if (roll == 1) {
            assert_int_equal(f->s->generals[g].status, WEM_CAPTURED);
            assert_int_equal(f->s->phase, WEM_PH_COMBAT);
        } else {
            assert_string_equal(t_kind(f), "general-escape");
            t_legal_all_accepted(f, 1);
            o = t_o(WEM_O_DONE);
            assert_int_equal(t_order(f, 1, &o), 0);
            assert_int_equal(f->s->phase, WEM_PH_COMBAT);
            assert_true(f->s->units[a].fought);
        }
        t_free(f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_general_unattached_captured_on_low_roll),
        cmocka_unit_test(test_wem_general_escape_up_to_2_uom),
        cmocka_unit_test(test_wem_general_light_cavalry_minus_2),
        cmocka_unit_test(test_wem_general_heavy_cavalry_minus_1),
        cmocka_unit_test(test_wem_general_captured_wellington_ends_game),
        cmocka_unit_test(test_wem_general_captured_blucher_game_goes_on),
        cmocka_unit_test(test_wem_general_attached_is_not_a_target),
        cmocka_unit_test(test_wem_general_in_melee_rolls),
        cmocka_unit_test(test_wem_attached_general_plain_roll),
        cmocka_unit_test(test_wem_attached_cinc_minus_2),
        cmocka_unit_test(test_wem_attached_general_unit_modifiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
