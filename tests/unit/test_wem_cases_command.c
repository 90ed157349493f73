/* test_wem_cases_command.c - [3.1 Assign], [Attaching], [General Ney], [3.2 Issue Orders] and
 * its four Orders, [Move out of sequence], [Redeploy the Grand Battery of General d'Erlon]. */
#include "wem_t.h"

typedef struct s_b {
    int nap, g2, g3, wel;
    int u[6];   /* blue corps 2, a line facing north at y 500 mm from x 300 */
    int c3;     /* blue corps 3 cavalry at 600, 500 */
    int r;      /* red infantry at 300, 200, facing south */
} s_b;

static t_fx *s_board(s_b *b, int n_line) {
    t_fx *f = t_new(2, 11);
    for (int i = 0; i < n_line; i++) b->u[i] = t_unit(f, WEM_BLUE, WEM_INF, 2, 300 + 30 * i, 500, 0);
    b->c3 = t_unit(f, WEM_BLUE, WEM_CAV, 3, 700, 500, 0);
    b->r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    b->nap = t_general(f, WEM_BLUE, 0, 4, 0, 500, 620, 1);
    b->g2 = t_general(f, WEM_BLUE, 2, 2, 1, 310, 550, 0);
    b->g3 = t_general(f, WEM_BLUE, 3, 3, 2, 700, 560, 0);
    b->wel = t_general(f, WEM_RED, 0, 4, 0, 300, 100, 1);
    return f;
}

static const char *U(t_fx *f, int u) { return f->sc.units[u].id; }
static const char *G(t_fx *f, int g) { return f->sc.generals[g].id; }

/* the units are one Formation (formation.c finds them); the case is skipped until it does */
static void s_need_formation(t_fx *f, int a, int b) {
    wem_formations fm;
    wem_formations_find(f->s, &fm);
    if (fm.of[a] != fm.of[b]) skip();
}

/* ---- [3.1 Assign] ---- */

/* "It is not possible to assign more than 2 markers per General"; only what the box holds */
static void test_wem_assign_at_most_2_markers_per_general(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->markers[WEM_BLUE] = 3;
    assert_int_equal(t_step(f, WEM_STEP_ASSIGN, WEM_BLUE), 1);
    char o[64];
    snprintf(o, sizeof o, "assign %s 3", G(f, b.g2));
    t_refused(f, 0, o, "more than 2 markers");
    snprintf(o, sizeof o, "assign %s 2", G(f, b.g2));
    t_ok(f, 0, o);
    snprintf(o, sizeof o, "assign %s 1", G(f, b.g2));
    t_refused(f, 0, o, "more than 2 markers");
    snprintf(o, sizeof o, "assign %s 2", G(f, b.g3));
    t_refused(f, 0, o, "box holds 1");
    snprintf(o, sizeof o, "assign %s 1", G(f, b.nap));
    t_refused(f, 0, o, "3.1 Assign");
    assert_int_equal(f->s->generals[b.g2].markers, 2);
    assert_int_equal(f->s->markers[WEM_BLUE], 1);
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* "He can move these counters up to 2 units of measurement"; the markers come before the moves */
static void test_wem_assign_general_moves_at_most_2_uom(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->markers[WEM_BLUE] = 2;
    t_step(f, WEM_STEP_ASSIGN, WEM_BLUE);
    char o[64];
    snprintf(o, sizeof o, "general %s 6200,12200", G(f, b.g2)); /* 310,610 mm: 60 mm */
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].at.y, 12200);
    snprintf(o, sizeof o, "general %s 6200,11200", G(f, b.g2));
    t_refused(f, 0, o, "has moved");
    snprintf(o, sizeof o, "general %s 14000,12500", G(f, b.g3)); /* 65 mm */
    t_refused(f, 0, o, "2 units of measurement");
    snprintf(o, sizeof o, "assign %s 1", G(f, b.g3));
    t_refused(f, 0, o, "before the Generals move");
    t_free(f);
}

/* [Attaching] only to a Unit of his Army Corps, his counter on top of it; the Commander in
 * Chief to any; one General per Formation */
static void test_wem_attaching_own_corps_one_general_per_formation(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    int o3 = t_unit(f, WEM_BLUE, WEM_INF, 3, 350, 540, 0);
    t_step(f, WEM_STEP_ASSIGN, WEM_BLUE);
    char o[64];
    snprintf(o, sizeof o, "general %s 7000,10800 attach %s", G(f, b.g2), U(f, o3));
    t_refused(f, 0, o, "Attaching");
    snprintf(o, sizeof o, "general %s 6000,10500 attach %s", G(f, b.g2), U(f, b.u[0])); /* beside it */
    t_refused(f, 0, o, "on top of");
    snprintf(o, sizeof o, "general %s 6000,10000 attach %s", G(f, b.g2), U(f, b.u[0]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].attached, b.u[0]);
    /* Napoleon may attach to any Unit of his army, but not where d'Erlon is */
    f->s->generals[b.nap].at.x = 320 * WEM_MM, f->s->generals[b.nap].at.y = 540 * WEM_MM;
    snprintf(o, sizeof o, "general %s 6000,10000 attach %s", G(f, b.nap), U(f, b.u[0]));
    t_refused(f, 0, o, "only 1 General");
    snprintf(o, sizeof o, "general %s 7000,10800 attach %s", G(f, b.nap), U(f, o3));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.nap].attached, o3);
    /* an unattached General stands on a free space */
    snprintf(o, sizeof o, "general %s 14000,10000", G(f, b.g3));
    t_refused(f, 0, o, "free space");
    t_free(f);
}

/* [General Ney] Napoleon gives him 2 blue markers every turn; lost if he is removed; he attaches
 * to any blue Formation except those of Army Corps I */
static void test_wem_ney_receives_2_markers_every_turn(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    int c1 = t_unit(f, WEM_BLUE, WEM_INF, 1, 800, 500, 0);
    int ney = t_general(f, WEM_BLUE, 0, 3, 0, 800, 560, 0);
    f->sc.generals[ney].ney = 1;
    f->s->option_ney = 1;
    f->s->markers[WEM_BLUE] = 5;
    t_step(f, WEM_STEP_ASSIGN, WEM_BLUE);
    assert_int_equal(f->s->generals[ney].markers, 2);
    assert_int_equal(f->s->markers[WEM_BLUE], 3);
    char o[64];
    snprintf(o, sizeof o, "assign %s 1", G(f, ney));
    t_refused(f, 0, o, "General Ney");
    snprintf(o, sizeof o, "general %s 16000,10000 attach %s", G(f, ney), U(f, c1));
    t_refused(f, 0, o, "Army Corps I");
    /* removed: the 2 markers are lost */
    f->s->generals[ney].status = WEM_ELIMINATED;
    f->s->markers[WEM_BLUE] = 5;
    t_step(f, WEM_STEP_ASSIGN, WEM_BLUE);
    assert_int_equal(f->s->markers[WEM_BLUE], 3);
    t_free(f);
}

/* [Attaching] a Unit moved onto a General of its army: attached if of his corps (the Commander in
 * Chief always), else the counter moves the least distance to a free space */
static void test_wem_attaching_unit_moved_onto_general(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    t_put(f, b.u[0], 310, 550, 0); /* onto d'Erlon */
    wem_general_bumped(f->s, b.u[0], &f->ev);
    assert_int_equal(f->s->generals[b.g2].attached, b.u[0]);
    t_put(f, b.c3, 700, 560, 0); /* corps 3 cavalry onto Reille: attached too */
    wem_general_bumped(f->s, b.c3, &f->ev);
    assert_int_equal(f->s->generals[b.g3].attached, b.c3);
    int o = t_unit(f, WEM_BLUE, WEM_INF, 4, 500, 620, 0); /* corps 4 onto Napoleon: he always attaches */
    wem_general_bumped(f->s, o, &f->ev);
    assert_int_equal(f->s->generals[b.nap].attached, o);
    /* a corps-2 unit onto an unattached corps-3 General: pushed off, 22.5 mm at least */
    f->s->generals[b.g3].attached = -1;
    f->s->generals[b.g3].at.x = 400 * WEM_MM, f->s->generals[b.g3].at.y = 400 * WEM_MM;
    int v = t_unit(f, WEM_BLUE, WEM_INF, 2, 400, 400, 0);
    wem_general_bumped(f->s, v, &f->ev);
    assert_int_equal(f->s->generals[b.g3].attached, -1);
    wem_rect gr = wem_general_rect(f->s, b.g3), ur = wem_unit_rect(f->s, v);
    assert_int_not_equal(wem_g_contact(&gr, &ur, wem_tol(f->s)), WEM_OVERLAP);
    int64_t dx = f->s->generals[b.g3].at.x - 8000, dy = f->s->generals[b.g3].at.y - 8000;
    assert_true(dx * dx + dy * dy <= (int64_t)(23 * WEM_MM) * (23 * WEM_MM));
    assert_non_null(t_ev_kind(&f->ev, "general-pushed", 0));
    t_free(f);
}

/* ---- [3.2 Issue Orders] ---- */

static void s_orders(t_fx *f, int markers_g2) {
    (void)markers_g2;
    assert_int_equal(t_step(f, WEM_STEP_ORDERS, WEM_BLUE), 1);
}

/* "PUT IN MOVEMENT ... 1 Command point, plus 1 added point for each Unit"; green; artillery fastens */
static void test_wem_put_in_movement_costs_1_plus_1_per_unit(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 2);
    s_need_formation(f, b.u[0], b.u[1]);
    f->s->generals[b.g2].markers = 1;
    s_orders(f, 1);
    char o[64];
    snprintf(o, sizeof o, "put %s %s %s", G(f, b.g2), U(f, b.u[0]), U(f, b.u[1]));
    t_refused(f, 0, o, "costs 3"); /* 1 generated + 1 marker */
    f->s->generals[b.g2].markers = 2;
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[b.u[0]].green, 1);
    assert_int_equal(f->s->units[b.u[1]].green, 1);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    assert_int_equal(f->s->generals[b.g2].cp_gen, 0);
    t_free(f);
}

/* "With a cumulative cost of 5 Command points ... any number of Units"; mixed +1 */
static void test_wem_put_in_movement_costs_capped_at_5(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 6);
    s_need_formation(f, b.u[0], b.u[5]);
    f->s->generals[b.g2].markers = 4;
    s_orders(f, 4);
    char o[128];
    snprintf(o, sizeof o, "put %s %s %s %s %s %s %s", G(f, b.g2), U(f, b.u[0]), U(f, b.u[1]), U(f, b.u[2]), U(f, b.u[3]),
             U(f, b.u[4]), U(f, b.u[5]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].markers, 0); /* 5 = 1 generated + 4 markers */
    t_free(f);
}

static void test_wem_put_in_movement_mixed_formation_costs_1_more(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    int cav = t_unit(f, WEM_BLUE, WEM_CAV, 2, 330, 500, 0);
    s_need_formation(f, b.u[0], cav);
    f->s->generals[b.g2].markers = 2; /* 1 + 2 + 1 mixed = 4: one short */
    s_orders(f, 2);
    char o[64];
    snprintf(o, sizeof o, "put %s %s %s", G(f, b.g2), U(f, b.u[0]), U(f, cav));
    t_refused(f, 0, o, "costs 4");
    f->s->generals[b.g2].markers = 3;
    t_ok(f, 0, o);
    t_free(f);
}

/* a single Unit: 2 points; the artillery fastens its Horse Team */
static void test_wem_put_in_movement_fastens_artillery(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 0);
    int gun = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 300, 500, 0);
    f->s->generals[b.g2].markers = 1;
    s_orders(f, 1);
    char o[64];
    snprintf(o, sizeof o, "put %s %s", G(f, b.g2), U(f, gun));
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[gun].green, 1);
    assert_int_equal(f->s->units[gun].fastened, 1);
    t_free(f);
}

/* "KEEP IN MOVEMENT any 1 Formation ... already marked in green: 1 Command point" */
static void test_wem_keep_in_movement_only_green(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 2);
    s_orders(f, 0);
    char o[64];
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "already marked in green");
    f->s->units[b.u[0]].green = 1;
    f->s->units[b.u[1]].green = 1;
    f->s->units[b.c3].green = 1;
    t_refused(f, 0, o, "whole Formation"); /* R-wem-keep-whole */
    snprintf(o, sizeof o, "keep %s %s %s", G(f, b.g2), U(f, b.u[0]), U(f, b.u[1]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].cp_gen, 0);
    /* at the end of 3.2 the green without Put or Keep comes off */
    wem_orders_end(f->s, &f->ev);
    assert_int_equal(f->s->units[b.u[0]].green, 1);
    assert_int_equal(f->s->units[b.u[1]].green, 1);
    assert_int_equal(f->s->units[b.c3].green, 0);
    t_free(f);
}

/* "RECOVER ... 2 Command points for each Shaken Unit"; "The Order Recovery cannot be issued to
 * Routed Units" */
static void test_wem_recover_costs_2_per_shaken_not_routed(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 2);
    f->s->units[b.u[0]].yellow = 1;
    f->s->units[b.u[1]].yellow = 2;
    f->s->generals[b.g2].markers = 1;
    s_orders(f, 1);
    char o[64];
    snprintf(o, sizeof o, "recover %s %s", G(f, b.g2), U(f, b.u[1]));
    t_refused(f, 0, o, "Routed");
    snprintf(o, sizeof o, "recover %s %s", G(f, b.g2), U(f, b.u[0]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[b.u[0]].yellow, 0);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    t_free(f);
}

/* "Units in Recovery, marked in orange, CANNOT receive Orders"; [Colored Markers] "CANNOT follow
 * Orders (beside Recovery)": RECOVER is the one they take (R-wem-orange-recover) */
static void test_wem_orders_none_to_formation_in_recovery(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->units[b.u[0]].orange = 1;
    f->s->units[b.u[0]].yellow = 1;
    f->s->generals[b.g2].markers = 4;
    s_orders(f, 4);
    char o[64];
    snprintf(o, sizeof o, "put %s %s", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "Recovery");
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "Recovery");
    snprintf(o, sizeof o, "recover %s %s", G(f, b.g2), U(f, b.u[0]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[b.u[0]].yellow, 0);
    assert_int_equal(f->s->units[b.u[0]].orange, 1);
    t_free(f);
}

/* "it is NOT possible to issue more than 1 Order to each Formation"; only his own corps */
static void test_wem_orders_one_per_formation_own_corps(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->units[b.u[0]].green = 1;
    f->s->units[b.u[0]].yellow = 1;
    f->s->generals[b.g2].markers = 4;
    s_orders(f, 4);
    char o[64];
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g2), U(f, b.u[0]));
    t_ok(f, 0, o);
    snprintf(o, sizeof o, "recover %s %s", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "more than 1 Order");
    snprintf(o, sizeof o, "put %s %s", G(f, b.g2), U(f, b.c3));
    t_refused(f, 0, o, "own Army Corps");
    t_free(f);
}

/* "If the Command points are generated they can be used to issue Orders only to 1 Formation" */
static void test_wem_generated_points_only_one_formation(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 0);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 3, 500, 500, 0);
    int c = t_unit(f, WEM_BLUE, WEM_INF, 3, 600, 500, 0); /* apart: two Formations */
    f->s->units[a].green = f->s->units[c].green = 1;
    s_orders(f, 0); /* Reille: 2 generated, no markers */
    char o[64];
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g3), U(f, a));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g3].cp_gen, 1);
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g3), U(f, c));
    t_refused(f, 0, o, "generated");
    f->s->generals[b.g3].markers = 1;
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g3].markers, 0);
    t_free(f);
}

/* a 4-star General spends his generated points on several Formations; `markers` pays with markers */
static void test_wem_generated_points_four_stars_several_formations(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 0);
    f->sc.generals[b.g3].rank = 4;
    f->sc.generals[b.g3].cp = 2;
    int a = t_unit(f, WEM_BLUE, WEM_INF, 3, 500, 500, 0);
    int c = t_unit(f, WEM_BLUE, WEM_INF, 3, 600, 500, 0);
    f->s->units[a].green = f->s->units[c].green = 1;
    f->s->generals[b.g3].markers = 1;
    s_orders(f, 1);
    char o[64];
    snprintf(o, sizeof o, "keep %s %s markers", G(f, b.g3), U(f, a));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g3].markers, 0);
    assert_int_equal(f->s->generals[b.g3].cp_gen, 2);
    snprintf(o, sizeof o, "keep %s %s", G(f, b.g3), U(f, c));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g3].cp_gen, 1);
    t_free(f);
}

/* "The General must spend 1 added Command point ... if all of its Units is NOT visible": his
 * line of sight crosses a Wood, unless the Unit is on it */
static void test_wem_orders_not_visible_costs_1_more(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 0);
    t_area(f, WEM_T_WOOD, "wood", 1, 250, 520, 450, 535); /* between the General (y 550) and the line, touching neither */
    int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 500, 0);
    s_orders(f, 0);
    char o[64];
    snprintf(o, sizeof o, "put %s %s", G(f, b.g2), U(f, a));
    t_refused(f, 0, o, "costs 3");
    f->s->generals[b.g2].markers = 2;
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    t_free(f);
}

/* [REDEPLOY] 2 points; never closer to the enemy; the green marker comes off; foot artillery
 * with Smoke cannot */
static void test_wem_redeploy_never_closer_to_the_enemy(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->units[b.u[0]].green = 1;
    s_orders(f, 0);
    f->s->generals[b.g2].markers = 1;
    char o[96];
    snprintf(o, sizeof o, "redeploy %s %s@6000,9000,0", G(f, b.g2), U(f, b.u[0])); /* 50 mm closer */
    t_refused(f, 0, o, "towards the enemy");
    snprintf(o, sizeof o, "redeploy %s %s@6000,11000,900", G(f, b.g2), U(f, b.u[0]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[b.u[0]].at.y, 11000);
    assert_int_equal(f->s->units[b.u[0]].h, 900);
    assert_int_equal(f->s->units[b.u[0]].green, 0);
    t_free(f);
}

static void test_wem_redeploy_foot_artillery_with_smoke_cannot(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 0);
    int gun = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 300, 500, 0);
    f->s->units[gun].smoke = 1;
    f->s->generals[b.g2].markers = 2;
    s_orders(f, 2);
    char o[96];
    snprintf(o, sizeof o, "redeploy %s %s@6000,11000,0", G(f, b.g2), U(f, gun));
    t_refused(f, 0, o, "Smoke");
    t_free(f);
}

/* [Redeploy the Grand Battery of General d'Erlon] its own Redeploy */
static void test_wem_redeploy_grand_battery_by_its_own_order(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    int gun = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 323, 500, 0);
    f->s->units[gun].at.x = f->sc.units[gun].at.x = 6450; /* in contact with the line's right flank */
    f->sc.units[gun].grand_battery = 1;
    s_need_formation(f, b.u[0], gun);
    f->s->generals[b.g2].markers = 3;
    s_orders(f, 3);
    char o[128];
    snprintf(o, sizeof o, "redeploy %s %s@6000,11000,0 %s@6800,11000,0", G(f, b.g2), U(f, b.u[0]), U(f, gun));
    t_refused(f, 0, o, "Grand Battery");
    t_free(f);
}

/* [Move out of sequence] 4 Command points for each Unit */
static void test_wem_move_out_of_sequence_costs_4_per_unit(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    f->s->generals[b.g2].markers = 4;
    s_orders(f, 4);
    char o[96];
    snprintf(o, sizeof o, "put %s %s out-of-sequence", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "costs 6");
    f->s->generals[b.g2].markers = 5;
    t_ok(f, 0, o);
    assert_int_equal(f->s->units[b.u[0]].out_of_seq, 1);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    t_free(f);
}

/* [General Ney] "The Formation that General Ney is attached to CANNOT receive Orders from the
 * General of that Army Corps"; Ney orders it with his markers */
static void test_wem_ney_formation_no_orders_from_corps_general(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 1);
    int ney = t_general(f, WEM_BLUE, 0, 3, 0, 300, 500, 0);
    f->sc.generals[ney].ney = 1;
    f->s->option_ney = 1;
    f->s->generals[ney].attached = (int16_t)b.u[0];
    f->s->generals[ney].markers = 2;
    f->s->generals[b.g2].markers = 2;
    s_orders(f, 2);
    char o[64];
    snprintf(o, sizeof o, "put %s %s", G(f, b.g2), U(f, b.u[0]));
    t_refused(f, 0, o, "General Ney");
    snprintf(o, sizeof o, "put %s %s", G(f, ney), U(f, b.u[0]));
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[ney].markers, 0);
    t_free(f);
}

/* every order legal() lists for 3.2 is accepted */
static void test_wem_orders_legal_all_accepted(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b, 3);
    f->s->units[b.u[1]].yellow = 1;
    f->s->units[b.c3].green = 1;
    f->s->generals[b.g2].markers = 4;
    s_orders(f, 4);
    assert_true(t_legal_n(f, 0) > 3);
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* on the printed deployment of the full scenario: every order legal() lists in 3.1 and 3.2 of
 * turn 1 is accepted, for both armies */
static void test_wem_legal_on_the_printed_deployment(void **st) {
    (void)st;
    const wem_scenario *sc = wem_scenario_get("full");
    if (!sc || sc->n_units == 0) skip();
    t_fx *f = t_new_scenario("full", 2, 9, 1);
    for (int k = 0; k < 4; k++) {
        /* other phases (the bombardment) pass by their defaults */
        for (int guard = 0; f->s->phase != WEM_PH_ASSIGN && f->s->phase != WEM_PH_ORDERS && !f->s->over; guard++) {
            assert_true(guard < 200);
            brt_pending p;
            t_pending(f, &p);
            unsigned seat = p.seats & 1u ? 0u : 1u;
            if (f->rs->timeout_default(f->s, seat, &f->d.d, &f->ev) == 0) continue;
            brt_buf b;
            buf_init(&b);
            int n = f->rs->legal(f->s, seat, &b);
            size_t pos = 0, len = 0;
            const uint8_t *item = NULL;
            assert_true(n > 0);
            assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
            assert_int_equal(f->rs->apply(f->s, seat, item, len, &f->d.d, &f->ev, &f->err), 0);
            buf_free(&b);
        }
        assert_true(f->s->phase == WEM_PH_ASSIGN || f->s->phase == WEM_PH_ORDERS);
        assert_int_equal(f->s->turn, 1);
        int army = wem_cur_army(f->s);
        assert_int_equal(army, k % 2 == 0 ? WEM_BLUE : WEM_RED);
        assert_true(t_legal_n(f, (unsigned)army) > 1);
        t_legal_all_accepted(f, (unsigned)army);
        t_ok(f, (unsigned)army, "done");
    }
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_assign_at_most_2_markers_per_general),
        cmocka_unit_test(test_wem_assign_general_moves_at_most_2_uom),
        cmocka_unit_test(test_wem_attaching_own_corps_one_general_per_formation),
        cmocka_unit_test(test_wem_ney_receives_2_markers_every_turn),
        cmocka_unit_test(test_wem_attaching_unit_moved_onto_general),
        cmocka_unit_test(test_wem_put_in_movement_costs_1_plus_1_per_unit),
        cmocka_unit_test(test_wem_put_in_movement_costs_capped_at_5),
        cmocka_unit_test(test_wem_put_in_movement_mixed_formation_costs_1_more),
        cmocka_unit_test(test_wem_put_in_movement_fastens_artillery),
        cmocka_unit_test(test_wem_keep_in_movement_only_green),
        cmocka_unit_test(test_wem_recover_costs_2_per_shaken_not_routed),
        cmocka_unit_test(test_wem_orders_none_to_formation_in_recovery),
        cmocka_unit_test(test_wem_orders_one_per_formation_own_corps),
        cmocka_unit_test(test_wem_generated_points_only_one_formation),
        cmocka_unit_test(test_wem_generated_points_four_stars_several_formations),
        cmocka_unit_test(test_wem_orders_not_visible_costs_1_more),
        cmocka_unit_test(test_wem_redeploy_never_closer_to_the_enemy),
        cmocka_unit_test(test_wem_redeploy_foot_artillery_with_smoke_cannot),
        cmocka_unit_test(test_wem_redeploy_grand_battery_by_its_own_order),
        cmocka_unit_test(test_wem_move_out_of_sequence_costs_4_per_unit),
        cmocka_unit_test(test_wem_ney_formation_no_orders_from_corps_general),
        cmocka_unit_test(test_wem_orders_legal_all_accepted),
        cmocka_unit_test(test_wem_legal_on_the_printed_deployment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
