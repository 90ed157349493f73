/* test_wem_cases_initiative.c - [1. Initiative], [Entrance of the black (Prussian) army],
 * [Executing the entrance], [Substitute Generals], [Army Corps] on boards of the tests' own. */
#include "wem_t.h"

/* blue: Napoleon and two Generals (corps 1, 2); red: Wellington and one General (corps 1); a
 * unit for each corps */
typedef struct s_b {
    int nap, b1, b2, wel, r1;
    int ub1, ub2, ur1;
} s_b;

static t_fx *s_board(unsigned seats, s_b *b) {
    t_fx *f = t_new(seats, 7);
    b->ub1 = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 500, 0);
    b->ub2 = t_unit(f, WEM_BLUE, WEM_INF, 2, 400, 500, 0);
    b->ur1 = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    b->nap = t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    b->b1 = t_general(f, WEM_BLUE, 1, 2, 1, 300, 560, 0);
    b->b2 = t_general(f, WEM_BLUE, 2, 3, 2, 400, 560, 0);
    b->wel = t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    b->r1 = t_general(f, WEM_RED, 1, 2, 1, 300, 140, 0);
    return f;
}

/* a black corps 3 unit waiting to enter, with Blucher and Bulow; the deployment area at the east */
static void s_prussians(t_fx *f, int *k, int *blucher, int *bulow) {
    t_deploy(f, 850, 100, 990, 500);
    t_entrance(f, 3, 985, 100, 985, 250);
    t_entrance(f, 2, 985, 250, 985, 380);
    t_entrance(f, 1, 985, 380, 985, 500);
    *k = t_unit(f, WEM_BLACK, WEM_INF, 3, 970, 150, 270);
    f->sc.units[*k].entry = 3;
    f->s->units[*k].status = WEM_NOT_ENTERED;
    *blucher = t_general(f, WEM_BLACK, 0, 4, 0, 960, 200, 1);
    *bulow = t_general(f, WEM_BLACK, 3, 2, 1, 960, 220, 0);
    f->sc.generals[*blucher].entry = 3;
    f->sc.generals[*bulow].entry = 3;
    f->s->generals[*blucher].status = f->s->generals[*bulow].status = WEM_NOT_ENTERED;
}

/* [1. Initiative] "each player rolls 1 die and then adds the number of his General counters
 * associated with an Army Corps (therefore do not count General Ney)"; turn 1: no bidding, all to
 * the Commander in Chief box, gold to blue */
static void test_wem_initiative_turn1_markers_die_plus_generals_no_bid(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    int ney = t_general(f, WEM_BLUE, 0, 3, 0, 500, 560, 0);
    f->sc.generals[ney].ney = 1;
    t_rolls(f, 2, 3, 4);
    assert_int_equal(t_step(f, WEM_STEP_INITIATIVE, WEM_RED), 0); /* no decision on turn 1 */
    assert_int_equal(f->s->markers[WEM_BLUE], 3 + 2);              /* Ney not counted */
    assert_int_equal(f->s->markers[WEM_RED], 4 + 1);
    assert_int_equal(f->s->order[0], WEM_BLUE);
    assert_int_equal(f->s->order[1], WEM_RED);
    assert_int_equal(f->s->n_order, 2);
    assert_int_equal(t_rolls_left(f), 0);
    t_free(f);
}

/* a General removed from the battlefield is not counted */
static void test_wem_initiative_removed_general_not_counted(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->s->generals[b.b2].status = WEM_ELIMINATED;
    t_rolls(f, 2, 1, 1);
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    assert_int_equal(f->s->markers[WEM_BLUE], 1 + 1);
    t_free(f);
}

/* from turn 2 every army bids SECRETLY: one sealed decision naming every seat */
static void test_wem_initiative_bids_are_sealed_for_every_seat(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->s->turn = 2;
    t_rolls(f, 2, 3, 3);
    assert_int_equal(t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE), 1);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.sealed, 1);
    assert_int_equal(p.seats, 3u);
    assert_string_equal(p.kind, "bid");
    /* blue's bid in: only blue learns it is recorded; the view says it is in, never its number */
    t_ev_clear(&f->ev);
    t_ok(f, 0, "bid 2");
    const Wem__V1__Event *e = t_ev_kind(&f->ev, "bid-sealed", 0);
    assert_non_null(e);
    assert_int_equal(f->ev.ev[0].mask, 1u);
    assert_null(t_ev_kind(&f->ev, "bid", 0));
    t_pending(f, &p);
    assert_int_equal(p.seats, 2u);
    brt_buf v;
    buf_init(&v);
    assert_int_equal(f->rs->view(f->s, 1, &v), 0);
    Wem__V1__View *vw = wem__v1__view__unpack(NULL, v.len, v.data);
    assert_non_null(vw);
    assert_true(vw->armies[WEM_BLUE]->bid_given);
    assert_false(vw->armies[WEM_RED]->bid_given);
    wem__v1__view__free_unpacked(vw, NULL);
    buf_free(&v);
    t_free(f);
}

/* "The player revealing the highest number of markers ... receives Initiative marker 1 (gold)
 * ... two extra markers"; "all the markers bet ... will be lost" */
static void test_wem_initiative_highest_bid_wins_gold_and_2_markers(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->s->turn = 2;
    t_rolls(f, 2, 3, 3); /* blue 3 + 2 = 5, red 3 + 1 = 4 */
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    t_ok(f, 0, "bid 2");
    t_ok(f, 1, "bid 3");
    assert_int_equal(f->s->order[0], WEM_RED);
    assert_int_equal(f->s->order[1], WEM_BLUE);
    assert_int_equal(f->s->markers[WEM_RED], 4 - 3 + 2);
    assert_int_equal(f->s->markers[WEM_BLUE], 5 - 2); /* no silver without black */
    assert_non_null(t_ev_kind(&f->ev, "bid", 0));     /* the reveal is public */
    assert_int_equal(f->ev.ev[f->ev.n - 1].mask, BRT_SEATS_ALL);
    t_free(f);
}

/* "in the case of a draw ... the player with the highest Initiative in the previous turn wins" */
static void test_wem_initiative_tie_goes_to_previous_order(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->s->turn = 3;
    t_rolls(f, 2, 3, 3);
    t_step(f, WEM_STEP_INITIATIVE, WEM_RED); /* red had the gold marker last turn */
    t_ok(f, 0, "bid 2");
    t_ok(f, 1, "bid 2");
    assert_int_equal(f->s->order[0], WEM_RED);
    assert_int_equal(f->s->order[1], WEM_BLUE);
    t_free(f);
}

/* "not less than 1"; no more than he has */
static void test_wem_initiative_bid_at_least_1_at_most_held(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->s->turn = 2;
    t_rolls(f, 2, 1, 1); /* blue 3, red 2 */
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    t_refused(f, 0, "bid 0", "1. Initiative");
    t_refused(f, 0, "bid 4", "1. Initiative");
    t_refused(f, 0, "bid 1 1", "1. Initiative");
    t_refused(f, 0, "done", "1. Initiative");
    assert_int_equal(t_legal_n(f, 0), 3);
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* 2 seats with black on the field: the red seat bids twice (red, black) in one order; the second
 * highest takes silver and 1 extra marker */
static void test_wem_initiative_two_seats_red_bids_for_red_and_black(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    f->s->units[k].status = WEM_ON;
    f->s->generals[bl].status = f->s->generals[bu].status = WEM_ON;
    f->s->turn = 9;
    t_rolls(f, 3, 4, 4, 4); /* blue 6, red 5, black 5 */
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    assert_int_equal(f->s->n_order, 3);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 3u);
    t_refused(f, 1, "bid 2", "1. Initiative");
    t_ok(f, 0, "bid 1");
    t_ok(f, 1, "bid 3 2");
    assert_int_equal(f->s->order[0], WEM_RED);
    assert_int_equal(f->s->order[1], WEM_BLACK);
    assert_int_equal(f->s->order[2], WEM_BLUE);
    assert_int_equal(f->s->markers[WEM_RED], 5 - 3 + 2);
    assert_int_equal(f->s->markers[WEM_BLACK], 5 - 2 + 1);
    assert_int_equal(f->s->markers[WEM_BLUE], 6 - 1);
    t_free(f);
}

/* [Commander in Chief Blucher] removed: black rolls no die, keeps the Generals' markers */
static void test_wem_initiative_blucher_removed_black_rolls_no_die(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    f->s->units[k].status = WEM_ON;
    f->s->generals[bl].status = WEM_ELIMINATED;
    f->s->generals[bu].status = WEM_ON;
    f->s->turn = 10;
    t_rolls(f, 2, 2, 2);
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    assert_int_equal(t_rolls_left(f), 0);
    assert_int_equal(f->d.n, 2); /* blue and red only */
    assert_int_equal(f->s->markers[WEM_BLACK], 1);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 7u);
    t_free(f);
}

/* R-wem-no-marker-no-bid: black without Blucher and without a corps General has no marker: it
 * bids none; two seats: the red seat then bids for red alone */
static void test_wem_initiative_army_without_markers_bids_none(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    f->s->units[k].status = WEM_ON;
    f->s->generals[bl].status = WEM_ELIMINATED;
    f->s->generals[bu].status = WEM_ELIMINATED;
    f->s->turn = 12;
    t_rolls(f, 2, 2, 2);
    t_step(f, WEM_STEP_INITIATIVE, WEM_BLUE);
    assert_int_equal(f->s->markers[WEM_BLACK], 0);
    t_refused(f, 1, "bid 1 1", "1. Initiative");
    t_ok(f, 1, "bid 1");
    t_ok(f, 0, "bid 1");
    assert_int_equal(f->s->order[2], WEM_BLACK);
    assert_int_equal(f->s->order[1], WEM_RED);
    assert_int_equal(f->s->markers[WEM_RED], 3 - 1 + 1); /* silver: the second army's extra marker */
    assert_int_equal(f->s->markers[WEM_BLACK], 0);
    t_free(f);
}

/* [Entrance] not before turn VIII; success on the two faces (5, 6 here) */
static void test_wem_entrance_rolls_from_turn_8(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    t_param(f, "entrance-lo", 5);
    t_param(f, "entrance-hi", 6);
    f->s->turn = 7;
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 0);
    assert_int_equal(f->d.n, 0);
    f->s->turn = 8;
    t_roll(f, 5);
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 1);
    assert_int_equal(f->s->phase, WEM_PH_ENTRANCE);
    assert_int_equal(f->s->deploying, 3);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(p.seats, 4u);
    t_free(f);
}

/* "he must repeat the procedure in every subsequent turn whilst lowering the valid result by 1"
 * (R-wem-entrance-lowering: 5-6, then 4-6, then 3-6) */
static void test_wem_entrance_failed_roll_lowers_valid_result(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    t_param(f, "entrance-lo", 5);
    t_param(f, "entrance-hi", 6);
    f->s->turn = 8;
    t_roll(f, 4);
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 0);
    assert_int_equal(f->s->entrance_tries, 1);
    f->s->turn = 9;
    t_roll(f, 3);
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 0);
    f->s->turn = 10;
    t_roll(f, 3);
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 1);
    assert_int_equal(wem_lowered_success(2, 5, 6, 2), 0);
    assert_int_equal(wem_lowered_success(6, 5, 6, 0), 1);
    t_free(f);
}

/* [Short Alternative Scenario] the Prussians never arrive: no roll */
static void test_wem_entrance_none_without_prussians(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    f->sc.prussians = 0;
    f->s->turn = 8;
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 0);
    assert_int_equal(f->d.n, 0);
    t_free(f);
}

/* [Executing the entrance] inside the area, each Formation touching section III, all green,
 * the General attached when placed on a Unit of his corps; [Maneuver limit] black is seen */
static void test_wem_entrance_deploys_corps_green_touching_section(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    f->s->turn = 8;
    t_roll(f, 6);
    t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE);
    char o[200];
    const char *K = f->sc.units[k].id, *BL = f->sc.generals[bl].id, *BU = f->sc.generals[bu].id;
    /* away from the section */
    snprintf(o, sizeof o, "place %s 18000,3000,2700 %s 17400,5000 %s 18000,3000", K, BL, BU);
    t_refused(f, 2, o, "entrance section 3");
    /* outside the deployment area */
    snprintf(o, sizeof o, "place %s 19400,1000,2700 %s 17400,5000 %s 19400,1000", K, BL, BU);
    t_refused(f, 2, o, "deployment area");
    /* Bulow missing */
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 17400,5000", K, BL);
    t_refused(f, 2, o, "Executing the entrance");
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 17400,5000 %s 19400,3000", K, BL, BU);
    t_ok(f, 2, o);
    assert_int_equal(f->s->units[k].status, WEM_ON);
    assert_int_equal(f->s->units[k].green, 1);
    assert_int_equal(f->s->generals[bu].attached, k);
    assert_int_equal(f->s->generals[bl].attached, -1);
    assert_int_equal(f->s->black_seen, 1);
    assert_int_equal(f->s->entered, 1);
    assert_int_equal(f->s->n_order, 3);
    /* the green marker of the entrance stays at the end of 3.2 */
    wem_orders_end(f->s, &f->ev);
    assert_int_equal(f->s->units[k].green, 1);
    t_free(f);
}

/* "At the start of the subsequent turn the black player must deploy General Pirch (II)" - no roll */
static void test_wem_entrance_next_corps_next_turn_without_roll(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    int k2 = t_unit(f, WEM_BLACK, WEM_INF, 2, 970, 300, 270);
    f->sc.units[k2].entry = 2;
    f->s->units[k2].status = WEM_NOT_ENTERED;
    f->s->entered = 1;
    f->s->turn = 9;
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 1);
    assert_int_equal(f->d.n, 0);
    assert_int_equal(f->s->deploying, 2);
    assert_int_equal(t_legal_n(f, 2), 1); /* the default deployment: the data's line-up */
    t_legal_all_accepted(f, 2);
    t_free(f);
}

/* the default deployment goes round a piece in the way; with no room at all the corps enters the
 * next turn, without a new roll (R-wem-entrance-no-room) */
static void test_wem_entrance_no_room_waits_a_turn(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(3, &b);
    int k, bl, bu;
    s_prussians(f, &k, &bl, &bu);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 970, 116, 270); /* across the head of the section */
    f->s->turn = 8;
    t_roll(f, 6);
    t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE);
    assert_int_equal(t_legal_n(f, 2), 1);
    t_legal_all_accepted(f, 2);
    t_refused(f, 2, "done", "must be deployed");
    /* the whole section held by red */
    for (int y = 131; y <= 251; y += 30) t_unit(f, WEM_RED, WEM_INF, 1, 970, y, 270);
    (void)r;
    brt_buf l;
    buf_init(&l);
    assert_int_equal(f->rs->legal(f->s, 2, &l), 1);
    buf_free(&l);
    t_ok(f, 2, "done");
    assert_int_equal(f->s->entered, 0);
    assert_int_equal(f->s->deploying, 3);
    f->s->turn = 9;
    int rolls = f->d.n;
    assert_int_equal(t_step(f, WEM_STEP_ENTRANCE, WEM_BLUE), 1);
    assert_int_equal(f->d.n, rolls); /* no new entrance roll */
    assert_int_equal(f->s->phase, WEM_PH_ENTRANCE);
    t_free(f);
}

/* [Substitute Generals] success: placed within 2 UoM of a Unit of his corps, rank 1, 0 CP */
static void test_wem_substitute_success_places_rank_1_general(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    wem_general_remove(f->s, b.b2, WEM_ELIMINATED, WEM_RED, &f->ev);
    assert_int_equal(f->s->generals[b.b2].sub_due, 1);
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_roll(f, 6);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 1);
    char o[80];
    const char *G = f->sc.generals[b.b2].id;
    snprintf(o, sizeof o, "place %s 8000,3000", G); /* far from corps 2 */
    t_refused(f, 0, o, "2 UoM");
    snprintf(o, sizeof o, "place %s 8000,8000", G); /* 100 mm behind unit 2's centre: 85 from its edge */
    t_refused(f, 0, o, "Substitute Generals");
    snprintf(o, sizeof o, "place %s 8000,10600", G); /* 30 mm behind it */
    t_ok(f, 0, o);
    assert_int_equal(f->s->generals[b.b2].status, WEM_ON);
    assert_int_equal(f->s->generals[b.b2].substitute, 1);
    assert_int_equal(f->s->generals[b.b2].attached, -1);
    brt_buf v;
    buf_init(&v);
    assert_int_equal(f->rs->view(f->s, 0, &v), 0);
    Wem__V1__View *vw = wem__v1__view__unpack(NULL, v.len, v.data);
    assert_int_equal(vw->generals[b.b2]->rank, 1);
    assert_int_equal(vw->generals[b.b2]->cp, 0);
    wem__v1__view__free_unpacked(vw, NULL);
    buf_free(&v);
    t_free(f);
}

/* failure: the corps stays without command; the next turn's valid result is lowered by 1 */
static void test_wem_substitute_failure_lowers_next_roll(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    wem_general_remove(f->s, b.b2, WEM_ELIMINATED, WEM_RED, &f->ev);
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_roll(f, 4);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 0);
    assert_int_equal(f->s->generals[b.b2].sub_tries, 1);
    assert_int_equal(f->s->generals[b.b2].sub_due, 1);
    t_roll(f, 4);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 1);
    t_legal_all_accepted(f, 0);
    t_free(f);
}

/* [Army Corps] all of its Units removed: the General is eliminated and CANNOT be substituted */
static void test_wem_army_corps_all_units_removed_general_lost(void **st) {
    (void)st;
    s_b b;
    t_fx *f = s_board(2, &b);
    wem_unit_remove(f->s, b.ub2, WEM_ELIMINATED, WEM_RED, &f->ev);
    assert_int_equal(f->s->generals[b.b2].status, WEM_ELIMINATED);
    assert_int_equal(f->s->generals[b.b2].sub_due, 0);
    assert_int_equal(f->s->vp[WEM_RED], 2 + 12);
    assert_int_equal(t_step(f, WEM_STEP_SUBSTITUTE, WEM_BLUE), 0);
    assert_int_equal(f->d.n, 0);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_initiative_turn1_markers_die_plus_generals_no_bid),
        cmocka_unit_test(test_wem_initiative_removed_general_not_counted),
        cmocka_unit_test(test_wem_initiative_bids_are_sealed_for_every_seat),
        cmocka_unit_test(test_wem_initiative_highest_bid_wins_gold_and_2_markers),
        cmocka_unit_test(test_wem_initiative_tie_goes_to_previous_order),
        cmocka_unit_test(test_wem_initiative_bid_at_least_1_at_most_held),
        cmocka_unit_test(test_wem_initiative_two_seats_red_bids_for_red_and_black),
        cmocka_unit_test(test_wem_initiative_blucher_removed_black_rolls_no_die),
        cmocka_unit_test(test_wem_initiative_army_without_markers_bids_none),
        cmocka_unit_test(test_wem_entrance_rolls_from_turn_8),
        cmocka_unit_test(test_wem_entrance_failed_roll_lowers_valid_result),
        cmocka_unit_test(test_wem_entrance_none_without_prussians),
        cmocka_unit_test(test_wem_entrance_deploys_corps_green_touching_section),
        cmocka_unit_test(test_wem_entrance_next_corps_next_turn_without_roll),
        cmocka_unit_test(test_wem_entrance_no_room_waits_a_turn),
        cmocka_unit_test(test_wem_substitute_success_places_rank_1_general),
        cmocka_unit_test(test_wem_substitute_failure_lowers_next_roll),
        cmocka_unit_test(test_wem_army_corps_all_units_removed_general_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
