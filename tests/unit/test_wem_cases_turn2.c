/* test_wem_cases_turn2.c - rule cases of the turn sequence found open or wrong on review:
 * [Effects of Unit removal] (the column of an eliminated Unit), [Substitute Generals] and
 * [Executing the entrance] (a General's counter on a free space or on a Unit of his corps). */
#include "wem_t.h"

/* blue corps 2: a column of three facing north at x 300 (y 500, 530, 560), a fourth beside the
 * head at x 330; red far to the north */
typedef struct s_b {
    int head, mid, tail, side, other, red, nap, g2, wel;
} s_b;

static t_fx *s_board(s_b *b) {
    t_fx *f = t_new(2, 5);
    b->head = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 500, 0);
    b->mid = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 530, 0);
    b->tail = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 560, 0);
    b->side = t_unit(f, WEM_BLUE, WEM_INF, 2, 330, 500, 0);
    b->other = t_unit(f, WEM_BLUE, WEM_INF, 3, 380, 560, 0);
    b->red = t_unit(f, WEM_RED, WEM_INF, 1, 300, 380, 180);
    b->nap = t_general(f, WEM_BLUE, 0, 4, 0, 600, 620, 1);
    b->g2 = t_general(f, WEM_BLUE, 2, 3, 2, 250, 600, 0);
    b->wel = t_general(f, WEM_RED, 0, 4, 0, 300, 100, 1);
    return f;
}

static void s_one_formation(t_fx *f, const s_b *b) {
    wem_formations fm;
    wem_formations_find(f->s, &fm);
    assert_int_equal(fm.of[b->head], fm.of[b->mid]);
    assert_int_equal(fm.of[b->head], fm.of[b->tail]);
    assert_int_equal(fm.of[b->head], fm.of[b->side]);
}

/* [Effects of Unit removal] Elimination: "the other friendly Units in the same column become
 * Shaken (they will receive 1 yellow marker if they don't already have one)"; the Unit beside it
 * in the line is not in its column; a united Formation's Unit behind it is */
static void test_wem_removal_elimination_shakes_its_column(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    s_one_formation(f, &b);
    int behind = t_unit(f, WEM_BLUE, WEM_INF, 3, 300, 590, 0); /* corps 3, united, behind the tail */
    f->s->units[b.tail].yellow = 1;
    wem_unit_remove(f->s, b.head, WEM_ELIMINATED, WEM_RED, &f->ev);
    assert_int_equal(f->s->units[behind].yellow, 1);
    assert_int_equal(f->s->units[b.head].status, WEM_ELIMINATED);
    assert_int_equal(f->s->units[b.mid].yellow, 1);
    assert_int_equal(f->s->units[b.tail].yellow, 1); /* already Shaken: not a second marker */
    assert_int_equal(f->s->units[b.side].yellow, 0);
    assert_int_equal(f->s->units[b.other].yellow, 0);
    assert_int_equal(f->s->units[b.tail].status, WEM_ON);
    assert_non_null(t_ev_kind(&f->ev, "shaken", 0));
    t_free(f);
}

/* the middle of a column eliminated: the Units before and behind it were in its column */
static void test_wem_removal_elimination_middle_shakes_both_ends(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    wem_unit_remove(f->s, b.mid, WEM_ELIMINATED, WEM_RED, &f->ev);
    assert_int_equal(f->s->units[b.head].yellow, 1);
    assert_int_equal(f->s->units[b.tail].yellow, 1);
    assert_int_equal(f->s->units[b.side].yellow, 0);
    t_free(f);
}

/* Capture and Out of field remove the Unit without the Elimination's Shaken column */
static void test_wem_removal_capture_and_out_of_field_shake_nobody(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    wem_unit_remove(f->s, b.head, WEM_CAPTURED, WEM_RED, &f->ev);
    assert_int_equal(f->s->units[b.mid].yellow, 0);
    wem_unit_remove(f->s, b.tail, WEM_OUTFIELD, -1, &f->ev);
    assert_int_equal(f->s->units[b.mid].yellow, 0);
    t_free(f);
}

/* [Substitute Generals] "place the Substitute General counter within two units of measurement
 * from any Unit in his Army Corps": on a Unit of his corps (attached) or on a free space, never on
 * top of an enemy Unit or a Unit of another corps */
static void test_wem_substitute_counter_on_free_space_or_own_corps(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    wem_general_remove(f->s, b.g2, WEM_ELIMINATED, WEM_RED, &f->ev);
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_roll(f, 5);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 1);
    const char *G = f->sc.generals[b.g2].id;
    char o[80];
    snprintf(o, sizeof o, "place %s 6000,7600", G); /* on the red Unit at 300,380 mm */
    t_refused(f, 0, o, "Substitute Generals");
    snprintf(o, sizeof o, "place %s 7600,11200", G); /* on corps 3's Unit */
    t_refused(f, 0, o, "Attaching");
    snprintf(o, sizeof o, "place %s 6100,10000", G); /* on the head of his corps' column */
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].attached, b.head);
    t_free(f);
}

/* the same free-space rule when the counter is not centred on a Unit */
static void test_wem_substitute_unattached_not_over_a_unit(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    wem_general_remove(f->s, b.g2, WEM_ELIMINATED, WEM_RED, &f->ev);
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_roll(f, 6);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 1);
    const char *G = f->sc.generals[b.g2].id;
    char o[80];
    /* centre 5 mm west of the column's tiles (x 280 mm): the 15 mm counter overlaps them */
    snprintf(o, sizeof o, "place %s 5600,10600", G);
    t_refused(f, 0, o, "free space");
    t_legal_all_accepted(f, 0);
    snprintf(o, sizeof o, "place %s 5400,11400", G); /* 270,570 mm: clear of every tile */
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].attached, -1);
    t_free(f);
}

/* [Executing the entrance] "He can choose to attach the General or the Commander in Chief": a
 * General's counter stands on a Unit he may attach to, or on a free space - not on a red Unit that
 * stands in the deployment area, nor half over one of his own Units */
static void test_wem_entrance_general_on_a_unit_or_a_free_space(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    f->s->nseats = 3;
    t_deploy(f, 850, 100, 990, 500);
    t_entrance(f, 3, 985, 100, 985, 250);
    int k = t_unit(f, WEM_BLACK, WEM_INF, 3, 970, 150, 270);
    f->sc.units[k].entry = 3;
    f->s->units[k].status = WEM_NOT_ENTERED;
    int bl = t_general(f, WEM_BLACK, 0, 4, 0, 960, 200, 1);
    int bu = t_general(f, WEM_BLACK, 3, 2, 1, 960, 220, 0);
    f->sc.generals[bl].entry = 3;
    f->sc.generals[bu].entry = 3;
    f->s->generals[bl].status = WEM_NOT_ENTERED;
    f->s->generals[bu].status = WEM_NOT_ENTERED;
    t_unit(f, WEM_RED, WEM_INF, 1, 900, 400, 90); /* a red Unit inside the area */
    f->s->turn = 8;
    t_roll(f, 6);
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 1);
    char o[200];
    const char *K = f->sc.units[k].id, *BL = f->sc.generals[bl].id, *BU = f->sc.generals[bu].id;
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 18000,8000 %s 19400,3000", K, BL, BU);
    t_refused(f, 2, o, "free space");
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 19400,3400 %s 19400,3000", K, BL, BU); /* half over K */
    t_refused(f, 2, o, "free space");
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 17400,5000 %s 19400,3000", K, BL, BU);
    t_ok(f, 2, o);
    assert_int_equal(f->s->generals[bu].attached, k);
    assert_int_equal(f->s->generals[bl].attached, -1);
    t_free(f);
}

/* a Substitute removed in his turn is not substituted again (R-wem-substitute-once): 6 VP */
static void test_wem_substitute_removed_is_not_substituted_again(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    wem_general_remove(f->s, b.g2, WEM_ELIMINATED, WEM_RED, &f->ev);
    f->sc.generals[b.g2].sub_vp = 6;
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_roll(f, 6);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 1);
    char o[80];
    snprintf(o, sizeof o, "place %s 5400,11400", f->sc.generals[b.g2].id);
    t_ok(f, 0, o);
    int vp = f->s->vp[WEM_RED];
    wem_general_remove(f->s, b.g2, WEM_ELIMINATED, WEM_RED, &f->ev);
    assert_int_equal(f->s->vp[WEM_RED], vp + 6);
    assert_int_equal(f->s->generals[b.g2].sub_due, 0);
    int rolls = f->d.n;
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 0);
    assert_int_equal(f->d.n, rolls);
    t_free(f);
}

/* [3.2 Issue Orders] "A Unit is NOT visible if the General's line of sight crosses a Hill, Wood,
 * or Placenoit Town, unless the Unit is on that terrain": a Hill between them costs 1 more; the
 * Hill the General stands on is not crossed (R-wem-not-visible) */
static void test_wem_orders_visibility_general_on_the_hill_sees_below(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    int hill = t_area(f, WEM_T_HILL, "hill", 1, 200, 590, 280, 640); /* under the General at 250,600 */
    (void)hill;
    t_step(f, WEM_STEP_ORDERS, WEM_BLUE);
    f->s->generals[b.g2].cp_gen = 0;
    f->s->generals[b.g2].markers = 2;
    char o[64];
    snprintf(o, sizeof o, "put %s %s", f->sc.generals[b.g2].id, f->sc.units[b.side].id);
    t_ok(f, 0, o); /* 1 + 1 = 2: visible from the hill he stands on */
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    t_free(f);
    /* the General off the hill, behind it: the hill between them hides the Unit */
    f = s_board(&b);
    t_area(f, WEM_T_HILL, "hill", 1, 200, 590, 280, 640);
    f->s->generals[b.g2].at.y = 13200; /* 250,660 mm */
    t_step(f, WEM_STEP_ORDERS, WEM_BLUE);
    f->s->generals[b.g2].cp_gen = 0;
    f->s->generals[b.g2].markers = 2;
    snprintf(o, sizeof o, "put %s %s", f->sc.generals[b.g2].id, f->sc.units[b.tail].id);
    t_refused(f, 0, o, "costs 3");
    f->s->generals[b.g2].markers = 3;
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    t_free(f);
}

/* [General Ney] "If General Ney is not introduced into the game, do not use his counter and ignore
 * his related box in the command table": no markers, no move, no Initiative marker for him */
static void test_wem_ney_without_option_counter_not_used(void **st) {
    (void)st;
    t_fx *f = t_new_scenario("full", 2, 3, 0);
    int ney = wem_general_find(f->s, "B-NEY");
    assert_true(ney >= 0);
    assert_int_not_equal(f->s->generals[ney].status, WEM_ON);
    f->s->markers[WEM_BLUE] = 5;
    assert_int_equal(t_step(f, WEM_STEP_ASSIGN, WEM_BLUE), 1);
    assert_int_equal(f->s->markers[WEM_BLUE], 5); /* Napoleon gives him nothing */
    assert_int_equal(f->s->generals[ney].markers, 0);
    t_refused(f, 0, "assign B-NEY 1", "3.1 Assign");
    char o[64];
    snprintf(o, sizeof o, "general B-NEY %d,%d", f->s->generals[ney].at.x, f->s->generals[ney].at.y);
    t_refused(f, 0, o, "3.1 Assign");
    t_free(f);
    /* with the optional rule Napoleon's 2 markers go to Ney's box */
    f = t_new_scenario("full", 2, 3, 1);
    ney = wem_general_find(f->s, "B-NEY");
    assert_int_equal(f->s->generals[ney].status, WEM_ON);
    f->s->markers[WEM_BLUE] = 5;
    assert_int_equal(t_step(f, WEM_STEP_ASSIGN, WEM_BLUE), 1);
    assert_int_equal(f->s->markers[WEM_BLUE], 3);
    assert_int_equal(f->s->generals[ney].markers, 2);
    t_free(f);
}

/* [3.1 Assign] "The Commander in Chief does NOT generate Command points": attached, he pays with
 * the markers of his box only */
static void test_wem_assign_cinc_generates_no_command_points(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    f->sc.generals[b.nap].cp = 3; /* even were a value printed for him */
    f->s->generals[b.nap].at = f->s->units[b.head].at;
    f->s->generals[b.nap].attached = (int16_t)b.head;
    f->s->generals[b.g2].status = WEM_ELIMINATED;
    f->s->markers[WEM_BLUE] = 1;
    assert_int_equal(t_step(f, WEM_STEP_ORDERS, WEM_BLUE), 1);
    assert_int_equal(f->s->generals[b.nap].cp_gen, 0);
    char o[64];
    snprintf(o, sizeof o, "put %s %s", f->sc.generals[b.nap].id, f->sc.units[b.head].id);
    t_refused(f, 0, o, "costs 2");
    f->s->markers[WEM_BLUE] = 2;
    t_ok(f, 0, o);
    assert_int_equal(f->s->markers[WEM_BLUE], 0);
    assert_int_equal(f->s->units[b.head].green, 1);
    t_free(f);
}

/* a seat that resigns loses; red and black are one side against blue [Introduction] */
static void test_wem_resign_blue_red_and_black_win(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    f->s->nseats = 3;
    f->rs->resign(f->s, 0, &f->ev);
    brt_result r;
    f->rs->result(f->s, &r);
    assert_int_equal(r.ended, 1);
    assert_int_equal(r.winners, (1u << 1) | (1u << 2));
    t_free(f);
    f = s_board(&b);
    f->s->nseats = 3;
    f->rs->resign(f->s, 2, &f->ev);
    f->rs->result(f->s, &r);
    assert_int_equal(r.ended, 1);
    assert_int_equal(r.winners, 1u << 0);
    t_free(f);
    f = s_board(&b); /* two seats: the red seat resigns for red and black */
    f->rs->resign(f->s, 1, &f->ev);
    f->rs->result(f->s, &r);
    assert_int_equal(r.winners, 1u << 0);
    t_free(f);
}

/* [End of the Last Turn of the Game] the complete scenario ends at the end of turn XIX, the short
 * one at the end of turn VII, the medium one at the end of turn XIV: the tally then */
static void test_wem_end_last_turn_xix_vii_xiv(void **st) {
    (void)st;
    const char *name[] = {"full", "short", "medium"};
    const int last[] = {19, 7, 14};
    for (int i = 0; i < 3; i++) {
        t_fx *f = t_new_scenario(name[i], 2, 9, 0);
        assert_int_equal(f->s->sc->last_turn, last[i]);
        f->s->turn = (uint8_t)last[i];
        wem_end_of_turn(f->s, &f->d.d, &f->ev);
        assert_int_equal(f->s->over, 1);
        brt_result r;
        f->rs->result(f->s, &r);
        assert_int_equal(r.ended, 1);
        t_free(f);
    }
}

/* [3.5 End of Turn] "Routed (2 yellow markers) Units are eliminated": an elimination, so the
 * Units in its column are Shaken [Effects of Unit removal] */
static void test_wem_end_of_turn_routed_eliminated_column_shaken(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    f->s->turn = f->s->sc->last_turn;
    f->s->units[b.head].yellow = 2;
    wem_end_of_turn(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->units[b.head].status, WEM_ELIMINATED);
    assert_int_equal(f->s->units[b.mid].yellow, 1);
    assert_int_equal(f->s->units[b.tail].yellow, 1);
    assert_int_equal(f->s->units[b.side].yellow, 0);
    t_free(f);
}

/* [REDEPLOY] "Redeploy any number of Formations of his Army Corps: to issue this Order, the
 * General must spend 2 Command points. The General must spend another 1 Command point if the
 * Formation is mixed": one Order moves two Formations for 2, +1 for the mixed one; the generated
 * points of a 3-star General go to 1 Formation only, so markers pay; each Formation never closer
 * to the enemy than its own closest Unit was (R-wem-redeploy-formations) */
static void test_wem_redeploy_any_number_of_formations_2_points(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    int bi = t_unit(f, WEM_BLUE, WEM_INF, 2, 600, 500, 0);
    int bc = t_unit(f, WEM_BLUE, WEM_CAV, 2, 630, 500, 0);
    wem_formations fm;
    wem_formations_find(f->s, &fm);
    assert_int_equal(fm.of[bi], fm.of[bc]);
    assert_int_not_equal(fm.of[bi], fm.of[b.head]);
    t_step(f, WEM_STEP_ORDERS, WEM_BLUE);
    assert_int_equal(f->s->generals[b.g2].cp_gen, 2);
    f->s->generals[b.g2].markers = 2;
    const char *G = f->sc.generals[b.g2].id, *S = f->sc.units[b.side].id, *I = f->sc.units[bi].id,
               *C = f->sc.units[bc].id;
    char o[160];
    /* B's infantry to 126 mm of the red Unit: farther than A's head (90) but nearer than B was */
    snprintf(o, sizeof o, "redeploy %s %s@6600,12400,0 %s@9000,9000,0 %s@12600,10800,0", G, S, I, C);
    t_refused(f, 0, o, "towards the enemy");
    snprintf(o, sizeof o, "redeploy %s %s@6600,12400,0 %s@12000,10800,0 %s@12600,10800,0", G, S, I, C);
    t_refused(f, 0, o, "costs 3");
    f->s->generals[b.g2].markers = 3;
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    assert_int_equal(f->s->generals[b.g2].cp_gen, 2);
    assert_int_equal(f->s->units[b.side].at.y, 12400);
    assert_int_equal(f->s->units[bi].at.y, 10800);
    assert_int_equal(f->s->units[bc].at.y, 10800);
    /* both Formations have their Order: no other this subphase */
    f->s->generals[b.g2].markers = 4;
    snprintf(o, sizeof o, "recover %s %s", G, f->sc.units[b.head].id);
    f->s->units[b.head].yellow = 1;
    t_refused(f, 0, o, "more than 1 Order");
    t_free(f);
}

/* [Introduction] "If there are only two players, the red player also controls the black Prussian
 * army, starting from turn VIII on. If there are three players, each one plays as their own
 * color": black's decisions go to seat 1 of two, to seat 2 of three, in every phase */
static void test_wem_introduction_black_decisions_seat_by_seats(void **st) {
    (void)st;
    for (unsigned seats = 2; seats <= 3; seats++) {
        s_b b;
        t_fx *f = s_board(&b);
        f->s->nseats = (uint8_t)seats;
        int k = t_unit(f, WEM_BLACK, WEM_INF, 3, 900, 300, 270);
        int bu = t_general(f, WEM_BLACK, 3, 2, 1, 900, 360, 0);
        (void)bu;
        f->s->n_order = 3;
        unsigned want = seats == 2 ? 1u << 1 : 1u << 2, other = seats == 2 ? 2 : 1;
        const int steps[] = {WEM_STEP_ASSIGN, WEM_STEP_ORDERS};
        for (int i = 0; i < 2; i++) {
            assert_int_equal(t_step(f, steps[i], WEM_BLACK), 1);
            brt_pending p;
            t_pending(f, &p);
            assert_int_equal(p.seats, want);
            if (seats == 3) {
                int rc = t_do(f, other, "done");
                assert_int_not_equal(rc, 0);
                assert_int_equal(f->err.code, BRT_REJECT_NOT_YOUR_DECISION);
            }
        }
        /* the sealed bid: the red seat of two gives red's and black's */
        f->s->turn = 9;
        assert_int_equal(t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE), 1);
        brt_pending p;
        t_pending(f, &p);
        assert_int_equal(p.seats, seats == 2 ? 3u : 7u);
        assert_int_equal(p.sealed, 1);
        assert_int_equal(f->s->units[k].status, WEM_ON);
        t_free(f);
    }
}

/* [KEEP IN MOVEMENT] "any 1 Formation of his Army Corps already marked in green: ... 1 Command
 * point": the Order goes to the Formation whole (only Put in Movement may split one,
 * R-wem-keep-whole) */
static void test_wem_keep_in_movement_the_whole_formation_for_1(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(&b);
    int all[] = {b.head, b.mid, b.tail, b.side};
    for (int i = 0; i < 4; i++) f->s->units[all[i]].green = 1;
    t_step(f, WEM_STEP_ORDERS, WEM_BLUE);
    f->s->generals[b.g2].cp_gen = 0;
    f->s->generals[b.g2].markers = 1;
    const char *G = f->sc.generals[b.g2].id;
    char o[96];
    snprintf(o, sizeof o, "keep %s %s %s", G, f->sc.units[b.head].id, f->sc.units[b.mid].id);
    t_refused(f, 0, o, "whole Formation");
    snprintf(o, sizeof o, "keep %s %s %s %s %s", G, f->sc.units[b.head].id, f->sc.units[b.mid].id,
             f->sc.units[b.tail].id, f->sc.units[b.side].id);
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.g2].markers, 0);
    wem_orders_end(f->s, &f->ev);
    for (int i = 0; i < 4; i++) assert_int_equal(f->s->units[all[i]].green, 1);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_removal_elimination_shakes_its_column),
        cmocka_unit_test(test_wem_removal_elimination_middle_shakes_both_ends),
        cmocka_unit_test(test_wem_removal_capture_and_out_of_field_shake_nobody),
        cmocka_unit_test(test_wem_substitute_counter_on_free_space_or_own_corps),
        cmocka_unit_test(test_wem_substitute_unattached_not_over_a_unit),
        cmocka_unit_test(test_wem_entrance_general_on_a_unit_or_a_free_space),
        cmocka_unit_test(test_wem_substitute_removed_is_not_substituted_again),
        cmocka_unit_test(test_wem_orders_visibility_general_on_the_hill_sees_below),
        cmocka_unit_test(test_wem_ney_without_option_counter_not_used),
        cmocka_unit_test(test_wem_assign_cinc_generates_no_command_points),
        cmocka_unit_test(test_wem_resign_blue_red_and_black_win),
        cmocka_unit_test(test_wem_end_last_turn_xix_vii_xiv),
        cmocka_unit_test(test_wem_end_of_turn_routed_eliminated_column_shaken),
        cmocka_unit_test(test_wem_redeploy_any_number_of_formations_2_points),
        cmocka_unit_test(test_wem_introduction_black_decisions_seat_by_seats),
        cmocka_unit_test(test_wem_keep_in_movement_the_whole_formation_for_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
