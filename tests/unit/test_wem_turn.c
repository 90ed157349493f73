/* test_wem_turn.c - the turn sequence [How to Play] [Turn Sequence] [3. Execution] [3.5 End of
 * Turn]: who acts when, in initiative order, every step; and whole games of random legal play. */
#include "wem_t.h"

/* a phase of this file's steps (initiative.c, command.c) */
static int s_mine(int phase) {
    return phase == WEM_PH_ENTRANCE || phase == WEM_PH_BID || phase == WEM_PH_SUBSTITUTE || phase == WEM_PH_ASSIGN ||
           phase == WEM_PH_ORDERS;
}

/* answer a decision of another file's phase: its first legal order, else its default */
static void s_other(t_fx *f) {
    brt_pending p;
    t_pending(f, &p);
    for (unsigned seat = 0; seat < f->seats; seat++) {
        if (!(p.seats & (1u << seat))) continue;
        brt_buf b;
        buf_init(&b);
        int n = f->rs->legal(f->s, seat, &b);
        size_t pos = 0, len = 0;
        const uint8_t *item = NULL;
        int rc = -1;
        if (n > 0 && buf_next_item(&b, &pos, &item, &len) == 1)
            rc = f->rs->apply(f->s, seat, item, len, &f->d.d, &f->ev, &f->err);
        if (rc) rc = f->rs->timeout_default(f->s, seat, &f->d.d, &f->ev);
        buf_free(&b);
        if (rc) fail_msg("no way out of phase %s for seat %u", wem_phase_name(f->s->phase), seat);
        return;
    }
}

/* turn 1: no bid; 3.1 then 3.2, each army in initiative order (blue first: gold); the end of the
 * turn; turn 2 opens with the sealed bid */
static void test_wem_turn_sequence_steps_in_initiative_order(void **st) {
    (void)st;
    t_fx *f = t_new(2, 21);
    t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 500, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    wem_turn_start(f->s, &f->d.d, &f->ev);
    int want_phase[] = {WEM_PH_ASSIGN, WEM_PH_ASSIGN, WEM_PH_ORDERS, WEM_PH_ORDERS, WEM_PH_BID};
    int want_army[] = {WEM_BLUE, WEM_RED, WEM_BLUE, WEM_RED, -1};
    int want_turn[] = {1, 1, 1, 1, 2};
    for (int k = 0; k < 5; k++) {
        int guard = 0;
        while (!s_mine(f->s->phase) && !f->s->over && guard++ < 50) s_other(f);
        assert_int_equal(f->s->phase, want_phase[k]);
        assert_int_equal(f->s->turn, want_turn[k]);
        brt_pending p;
        t_pending(f, &p);
        if (want_army[k] >= 0) {
            assert_int_equal(wem_cur_army(f->s), want_army[k]);
            assert_int_equal(p.seats, 1u << want_army[k]);
            assert_int_equal(p.sealed, 0);
            /* the other seat may not act */
            wem_order o = t_o(WEM_O_DONE);
            assert_int_equal(t_order(f, want_army[k] == WEM_BLUE ? 1 : 0, &o), -1);
            assert_int_equal(f->err.code, BRT_REJECT_NOT_YOUR_DECISION);
            assert_int_equal(t_order(f, (unsigned)want_army[k], &o), 0);
        } else {
            assert_int_equal(p.sealed, 1);
            assert_int_equal(p.seats, 3u);
        }
    }
    assert_non_null(t_ev_kind(&f->ev, "turn-end", 0));
    t_free(f);
}

/* the second army acts first in every subphase once it wins the gold marker */
static void test_wem_turn_gold_winner_acts_first(void **st) {
    (void)st;
    t_fx *f = t_new(2, 22);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    f->s->turn = 2;
    t_rolls(f, 2, 6, 6);
    wem_turn_start(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->phase, WEM_PH_BID);
    t_ok(f, 0, "bid 1");
    t_ok(f, 1, "bid 2");
    int guard = 0;
    while (!s_mine(f->s->phase) && guard++ < 50) s_other(f);
    assert_int_equal(f->s->phase, WEM_PH_ASSIGN);
    assert_int_equal(wem_cur_army(f->s), WEM_RED);
    t_free(f);
}

/* turn VIII: the Prussian entrance first (black's seat), then the markers and the sealed bid of
 * three armies, then the Substitutes in the new initiative order, then 3.1 for the gold army */
static void test_wem_turn_entrance_bid_substitutes_in_order(void **st) {
    (void)st;
    t_fx *f = t_new(3, 24);
    t_deploy(f, 850, 100, 990, 500);
    t_entrance(f, 3, 985, 100, 985, 250);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 500, 0);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    int k = t_unit(f, WEM_BLACK, WEM_INF, 3, 970, 150, 270);
    f->sc.units[k].entry = 3;
    f->s->units[k].status = WEM_NOT_ENTERED;
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    int bg = t_general(f, WEM_BLUE, 2, 2, 1, 300, 560, 0);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    int rg = t_general(f, WEM_RED, 1, 2, 1, 300, 140, 0);
    int kb = t_general(f, WEM_BLACK, 0, 4, 0, 900, 200, 1);
    f->sc.generals[kb].entry = 3;
    f->s->generals[kb].status = WEM_NOT_ENTERED;
    wem_general_remove(f->s, bg, WEM_ELIMINATED, WEM_RED, &f->ev);
    wem_general_remove(f->s, rg, WEM_ELIMINATED, WEM_BLUE, &f->ev);
    f->s->turn = 8;
    t_param(f, "entrance-lo", 5);
    t_param(f, "entrance-hi", 6);
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_rolls(f, 1, 6);        /* the entrance */
    t_rolls(f, 3, 2, 2, 2);  /* markers: blue 2, red 2, black 2 (Blucher is no corps General) */
    t_rolls(f, 2, 6, 6);     /* the Substitutes: red's first, then blue's */
    wem_turn_start(f->s, &f->d.d, &f->ev);
    brt_pending p;
    t_pending(f, &p);
    assert_int_equal(f->s->phase, WEM_PH_ENTRANCE);
    assert_int_equal(p.seats, 4u);
    char o[96];
    snprintf(o, sizeof o, "place %s 19400,3000,2700 %s 17400,5000", f->sc.units[k].id, f->sc.generals[kb].id);
    t_ok(f, 2, o);
    t_pending(f, &p);
    assert_int_equal(f->s->phase, WEM_PH_BID);
    assert_int_equal(p.seats, 7u);
    assert_int_equal(p.sealed, 1);
    t_ok(f, 0, "bid 1");
    t_ok(f, 2, "bid 2");
    t_ok(f, 1, "bid 2"); /* red ties black: red was higher last turn */
    assert_int_equal(f->s->order[0], WEM_RED);
    assert_int_equal(f->s->order[1], WEM_BLACK);
    assert_int_equal(f->s->order[2], WEM_BLUE);
    assert_int_equal(f->s->phase, WEM_PH_SUBSTITUTE);
    assert_int_equal(wem_cur_army(f->s), WEM_RED);
    snprintf(o, sizeof o, "place %s 6000,3400", f->sc.generals[rg].id);
    t_ok(f, 1, o);
    assert_int_equal(f->s->phase, WEM_PH_SUBSTITUTE);
    assert_int_equal(wem_cur_army(f->s), WEM_BLUE);
    snprintf(o, sizeof o, "place %s 6000,10600", f->sc.generals[bg].id);
    t_ok(f, 0, o);
    assert_int_equal(t_rolls_left(f), 0);
    int guard = 0;
    while (!s_mine(f->s->phase) && guard++ < 50) s_other(f);
    assert_int_equal(f->s->phase, WEM_PH_ASSIGN);
    assert_int_equal(wem_cur_army(f->s), WEM_RED);
    (void)b, (void)r;
    t_free(f);
}

/* the timeout defaults: bid 1, done, the Substitute on a Unit of his corps */
static void test_wem_timeout_defaults(void **st) {
    (void)st;
    t_fx *f = t_new(2, 25);
    int u = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 500, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    int g = t_general(f, WEM_BLUE, 2, 2, 1, 300, 560, 0);
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    wem_general_remove(f->s, g, WEM_ELIMINATED, WEM_RED, &f->ev);
    f->s->turn = 2;
    t_param(f, "substitute-lo", 5);
    t_param(f, "substitute-hi", 6);
    t_rolls(f, 3, 4, 4, 6); /* blue 4, red 4, the Substitute succeeds */
    wem_turn_start(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->phase, WEM_PH_BID);
    assert_int_equal(f->rs->timeout_default(f->s, 0, &f->d.d, &f->ev), 0);
    assert_int_equal(f->rs->timeout_default(f->s, 1, &f->d.d, &f->ev), 0);
    assert_int_equal(f->s->markers[WEM_BLUE], 4 - 1 + 2); /* a tie: blue was first */
    assert_int_equal(f->s->phase, WEM_PH_SUBSTITUTE);
    assert_int_equal(f->rs->timeout_default(f->s, 0, &f->d.d, &f->ev), 0);
    assert_int_equal(f->s->generals[g].status, WEM_ON);
    assert_int_equal(f->s->generals[g].attached, u);
    int guard = 0;
    while (!s_mine(f->s->phase) && guard++ < 50) s_other(f);
    assert_int_equal(f->s->phase, WEM_PH_ASSIGN);
    assert_int_equal(f->rs->timeout_default(f->s, 0, &f->d.d, &f->ev), 0);
    assert_int_equal(f->s->phase, WEM_PH_ASSIGN);
    assert_int_equal(wem_cur_army(f->s), WEM_RED);
    t_free(f);
}

/* [3.5 End of Turn] Routed eliminated; 1 orange off; Smoke off; the CinC box emptied; Generals
 * keep at most 4 markers; Ney keeps none; a new turn */
static void test_wem_end_of_turn_steps(void **st) {
    (void)st;
    t_fx *f = t_new(2, 23);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 500, 0);
    int b = t_unit(f, WEM_BLUE, WEM_ART_FOOT, 1, 400, 500, 0);
    int r = t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);
    t_general(f, WEM_BLUE, 0, 4, 0, 350, 600, 1);
    int g = t_general(f, WEM_BLUE, 1, 2, 1, 300, 560, 0);
    int ney = t_general(f, WEM_BLUE, 0, 3, 0, 500, 560, 0);
    f->sc.generals[ney].ney = 1;
    t_general(f, WEM_RED, 0, 4, 0, 350, 100, 1);
    f->s->units[a].orange = 2;
    f->s->units[b].smoke = 1;
    f->s->units[r].yellow = 2;
    f->s->markers[WEM_BLUE] = 3;
    f->s->generals[g].markers = 6;
    f->s->generals[ney].markers = 2;
    f->s->step = WEM_STEP_END;
    wem_end_of_turn(f->s, &f->d.d, &f->ev);
    assert_int_equal(f->s->units[r].status, WEM_ELIMINATED);
    assert_int_equal(f->s->vp[WEM_BLUE], 2);
    assert_int_equal(f->s->units[a].orange, 1);
    assert_int_equal(f->s->units[b].smoke, 0);
    assert_int_equal(f->s->generals[g].markers, 4);
    assert_int_equal(f->s->generals[ney].markers, 0);
    assert_int_equal(f->s->turn, 2);
    /* the new turn rolled fresh markers into the box */
    assert_int_equal(f->s->phase, WEM_PH_BID);
    t_free(f);
}

/* play a game on the scenario with random legal orders (the timeout default when none is listed);
 * returns the number of orders */
static int s_random_game(const char *scenario, unsigned seats, uint64_t seed) {
    t_fx *f = t_new_scenario(scenario, seats, seed, 0);
    uint64_t x = seed;
    int orders = 0;
    for (int step = 0; step < 20000 && !f->s->over; step++) {
        brt_pending p;
        t_pending(f, &p);
        if (!p.seats) break;
        for (unsigned seat = 0; seat < f->seats; seat++) {
            if (!(p.seats & (1u << seat))) continue;
            brt_buf b;
            buf_init(&b);
            int n = f->rs->legal(f->s, seat, &b);
            int rc = -1;
            if (n > 0) {
                int pick = (int)(t_next(&x) % (uint64_t)n);
                size_t pos = 0, len = 0;
                const uint8_t *item = NULL;
                for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
                rc = f->rs->apply(f->s, seat, item, len, &f->d.d, &f->ev, &f->err);
                if (rc) fail_msg("legal order refused in %s: [%s] %s", wem_phase_name(f->s->phase), f->err.rule,
                                 f->err.message);
            } else {
                rc = f->rs->timeout_default(f->s, seat, &f->d.d, &f->ev);
                if (rc) fail_msg("no legal order and no default in phase %s", wem_phase_name(f->s->phase));
            }
            buf_free(&b);
            orders++;
            t_ev_clear(&f->ev);
            if (!p.sealed) break;
        }
    }
    assert_int_equal(f->s->over, 1);
    brt_result r;
    f->rs->result(f->s, &r);
    assert_int_equal(r.ended, 1);
    /* by turn XII the entrance roll cannot fail (5-6, 4-6, 3-6, 2-6, then 1-6) */
    if (f->sc.prussians || f->s->sc->prussians) {
        if (f->s->turn >= 12) assert_true(f->s->entered >= 1);
        if (f->s->turn >= 14) assert_int_equal(f->s->entered, 3);
    }
    t_free(f);
    return orders;
}

/* Formations are found from contact (formation.c): two touching tiles are one */
static int s_formations_found(void) {
    t_fx *f = t_new(2, 1);
    int a = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 500, 0);
    int b = t_unit(f, WEM_BLUE, WEM_INF, 1, 300, 530, 0);
    wem_formations fm;
    wem_formations_find(f->s, &fm);
    int one = fm.of[a] == fm.of[b];
    t_free(f);
    return one;
}

/* a whole game of the short scenario, random legal play: every step passes, the game ends */
static void test_wem_turn_whole_game_short_random_legal(void **st) {
    (void)st;
    const wem_scenario *sc = wem_scenario_get("short");
    if (!sc || sc->n_units == 0) skip(); /* until the scenario data is in */
    assert_true(s_random_game("short", 2, 2) > 7);
}

/* the full and medium games, the Prussians entering by the default deployment (columns behind
 * the entrance section: one Formation each once Formations are found from contact) */
static void test_wem_turn_whole_games_full_medium_random_legal(void **st) {
    (void)st;
    const wem_scenario *sc = wem_scenario_get("full");
    if (!sc || sc->n_units == 0 || !s_formations_found()) skip();
    assert_true(s_random_game("full", 3, 1) > 19);
    assert_true(s_random_game("medium", 2, 3) > 14);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_turn_sequence_steps_in_initiative_order),
        cmocka_unit_test(test_wem_turn_gold_winner_acts_first),
        cmocka_unit_test(test_wem_turn_entrance_bid_substitutes_in_order),
        cmocka_unit_test(test_wem_timeout_defaults),
        cmocka_unit_test(test_wem_end_of_turn_steps),
        cmocka_unit_test(test_wem_turn_whole_game_short_random_legal),
        cmocka_unit_test(test_wem_turn_whole_games_full_medium_random_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
