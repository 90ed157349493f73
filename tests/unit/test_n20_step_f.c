/*
 * test_n20_step_f.c - [9.0] Step F, [9.5] Voluntary Differential Reduction: after a `fight`
 * order the attacker decides the reduction once Steps B (attacker reserve), C (defender
 * reserve) and D (Special Troops) are known (rulings R-9.5-cap); the `resolve ... cap D` form
 * is a standing instruction applied at Step F without asking. docs/n20-cases/danube-legal.md.
 *
 * CRT (scenario data), differential columns -2 .. +4:
 *   die 1: AB AR AR AW N  EX EX      die 4: AR N  DW DW DR DR DR
 *   die 2: AR AR AW N  DW DW DW      die 5: AW DW DW DR DR DR DB
 *   die 3: AR AW N  DW DW DW DR      die 6: N  DW DR DR DR DB DB
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* REILLE, GERARD, DERLON (9) against ZIETEN (3) in clear terrain: differential +6 (column +4) */
static n20_state *sf_battle(t_dice *d, t_events *ev) {
    brt_reject err;
    n20_state *s = t_pos(d, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 505);
    t_place(s, "GERARD", 607);
    t_place(s, "DERLON", 407);
    t_place(s, "ZIETEN", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN", d, ev, &err), 0);
    return s;
}

/* the text of the first order legal() lists for the seat */
static void sf_first(const n20_state *s, unsigned seat, char *out, size_t max) {
    brt_buf b, t;
    buf_init(&b);
    buf_init(&t);
    assert_true(n20_legal(s, seat, &b) > 0);
    size_t len;
    const uint8_t *it = t_nth(&b, 0, &len);
    assert_non_null(it);
    assert_int_equal(n20_order_format(it, len, &t), 0);
    snprintf(out, max, "%.*s", (int)t.len, (const char *)t.data);
    buf_free(&t);
    buf_free(&b);
}

/* [9.0] Steps C before F: the attacker sees the defender commit his reserve (and the
 * differential it leaves) before he decides the reduction; nothing is rolled before */
static void test_n20_9_5_step_f_after_defender_reserve(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = sf_battle(&d, &ev);
    assert_true(t_legal_has(s, N20_FRENCH, "fight 1"));
    assert_int_equal(t_order(s, N20_FRENCH, "fight 1", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_DEF_RESERVE);
    assert_int_equal(t_order(s, N20_ALLIED, "reserve", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_int_equal(s->phase, N20_PH_STEP_F);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(d.npurposes, 0); /* no die before Step G */
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "step-f");
    assert_string_equal(p.rule, "9.5");
    assert_non_null(strstr(p.prompt, "differential +5")); /* 9 vs 3 + 1 reserve */
    assert_non_null(strstr(p.prompt, "-2..+4"));
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve at differential +1", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "[9.5] battle 1: the attacker reduces the differential from +5 to +1"));
    assert_true(t_events_has(&ev, "9 vs 4 (terrain +0, defender reserve), differential +1, column +1, die 6: DR"));
    free(s);
}

/* [9.5] a reduction to each column from the lowest up to the actual one */
static void test_n20_9_5_reduction_to_each_column(void **st) {
    (void)st;
    static const char *res[] = {"N", "DW", "DR", "DR", "DR", "DB", "DB"}; /* die 6, columns -2..+4 */
    for (int col = -2; col <= 4; col++) {
        t_dice d;
        t_dice_init(&d, 1);
        t_events ev = {0};
        brt_reject err;
        n20_state *s = sf_battle(&d, &ev);
        uint32_t r[] = {6};
        assert_int_equal(t_fight(s, &d, &ev, "fight 1", 0, r), 0);
        assert_int_equal(s->phase, N20_PH_STEP_F);
        char o[64], want[128];
        snprintf(o, sizeof o, "resolve at differential %+d", col);
        if (col < 4) assert_true(t_legal_has(s, N20_FRENCH, o)); /* +4 is the actual column: no reduction */
        t_dice_script(&d, 1, r);
        assert_int_equal(t_order(s, N20_FRENCH, o, &d, &ev, &err), 0);
        snprintf(want, sizeof want, "column %+d, die 6: %s", col, res[col + 2]);
        assert_true(t_events_has(&ev, want));
        free(s);
    }
}

/* [9.5] "a specified lower differential": not above the actual one, not below the table */
static void test_n20_9_5_reduction_out_of_range_refused(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = sf_battle(&d, &ev);
    t_place(s, "PIRCH", 1010); /* far away */
    uint32_t none[] = {0};
    assert_int_equal(t_fight(s, &d, &ev, "fight 1", 0, none), 0);
    assert_int_equal(s->phase, N20_PH_STEP_F);
    n20_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve at differential +5", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.5");
    assert_int_equal(t_order(s, N20_FRENCH, "resolve at differential -3", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.5");
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), -1); /* not the pending decision */
    assert_int_equal(memcmp(copy, s, sizeof *s), 0);
    assert_int_equal(d.npurposes, 0);
    free(copy);
    free(s);
}

/* [9.5] at the lowest column there is nothing to reduce: no Step F decision, the die is rolled */
static void test_n20_9_5_no_decision_at_lowest_column(void **st) {
    (void)st;
    T_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "MILHAUD", 1607);
    t_place(s, "ORANGE", 1608);
    OK(N20_FRENCH, "declare MILHAUD -> ORANGE");
    uint32_t r[] = {6}; /* 1 vs 4+1 forest = -4: column -2 */
    assert_int_equal(t_fight(s, &d, &ev, "fight 1", 1, r), 0);
    assert_int_not_equal(s->phase, N20_PH_STEP_F);
    assert_true(t_events_has(&ev, "differential -4, column -2, die 6: N"));
    assert_false(t_events_has(&ev, "[9.5]"));
    free(s);
}

/* R-9.5-cap: the cap given with `resolve` is applied at Step F without asking */
static void test_n20_9_5_cap_form_is_a_standing_instruction(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = sf_battle(&d, &ev);
    uint32_t r[] = {6};
    assert_true(t_legal_has(s, N20_FRENCH, "resolve 1 cap 0"));
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1 cap 0", 1, r), 0);
    assert_int_not_equal(s->phase, N20_PH_STEP_F);
    assert_true(t_events_has(&ev, "differential +0, column +0, die 6: DR"));
    free(s);
    /* and `resolve` without a cap resolves at the actual differential, as before */
    t_dice_init(&d, 1);
    memset(&ev, 0, sizeof ev);
    s = sf_battle(&d, &ev);
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_events_has(&ev, "differential +6, column +4, die 6: DB"));
    free(s);
}

/* the decision's default (the first order legal() lists, which the timeout gives) is "no
 * reduction": the battle is resolved at the actual differential */
static void test_n20_9_5_default_is_no_reduction(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = sf_battle(&d, &ev);
    uint32_t r[] = {6};
    assert_int_equal(t_fight(s, &d, &ev, "fight 1", 0, r), 0);
    assert_int_equal(s->phase, N20_PH_STEP_F);
    char first[64];
    sf_first(s, N20_FRENCH, first, sizeof first);
    assert_string_equal(first, "no reduction");
    /* "no reduction" and a reduction to each of the six lower columns */
    assert_int_equal(t_legal_n(s, N20_FRENCH), 7);
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "no reduction", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "differential +6, column +4, die 6: DB"));
    free(s);
}

/* [9.0] while Step F waits, the totals of Steps B-E are part of the state (its hash) */
static void test_n20_9_5_step_f_encoded(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = sf_battle(&d, &ev);
    uint32_t r[] = {6};
    assert_int_equal(t_fight(s, &d, &ev, "fight 1", 0, r), 0);
    assert_int_equal(s->phase, N20_PH_STEP_F);
    /* the kept Steps B-E are in the state hash while the decision waits */
    uint8_t h1[32], h2[32];
    t_hash(s, h1);
    s->f.sf_diff = 5;
    t_hash(s, h2);
    assert_memory_not_equal(h1, h2, 32);
    free(s);
}

/* R-dn-9.5: Danube 20's v3.0 series rules have no [9.5] case; Berthier plays the same Step F in
 * both editions: the same position under v4 and v3 gives the same decision and the same result */
static void test_n20_dn_9_5_both_editions_reduce_at_step_f(void **st) {
    (void)st;
    static const int eds[2] = {N20_ED_V4, N20_ED_V3};
    for (int i = 0; i < 2; i++) {
        t_dice d;
        t_dice_init(&d, 1);
        t_events ev = {0};
        brt_reject err;
        n20_state *s = t_pos(&d, 9, N20_FRENCH, N20_PH_DECLARE);
        t_edition(s, eds[i]);
        t_place(s, "REILLE", 505);
        t_place(s, "GERARD", 607);
        t_place(s, "DERLON", 407);
        t_place(s, "ZIETEN", 506);
        assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,GERARD,DERLON -> ZIETEN", &d, &ev, &err), 0);
        uint32_t r[] = {6};
        assert_int_equal(t_fight(s, &d, &ev, "fight 1", 0, r), 0);
        assert_int_equal(s->phase, N20_PH_STEP_F);
        t_dice_script(&d, 1, r);
        assert_int_equal(t_order(s, N20_FRENCH, "resolve at differential -1", &d, &ev, &err), 0);
        assert_true(t_events_has(&ev, "differential -1, column -1, die 6: DW"));
        free(s);
    }
}

/* [8.1] the reacting player is the Attacker of a Countercharge: with `fight` he decides [9.5] at
 * Step F, after the defender's reserve decision; without it the battle is fought at the actual
 * differential, as before */
static void test_n20_8_1_countercharge_reduces_at_step_f(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "MILHAUD", 505);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> MILHAUD fight"));
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> MILHAUD reserve fight"));
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> MILHAUD fight", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_STEP_F);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    brt_pending p;
    n20_pending(s, &p);
    assert_non_null(strstr(p.prompt, "differential +1")); /* 2 vs 1: not doubled against Cavalry [8.1.4] */
    uint32_t r[] = {6};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve at differential -1", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 2 vs 1 (terrain +0), differential -1, column -1, die 6: DW"));
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_9_5_step_f_after_defender_reserve),
        cmocka_unit_test(test_n20_9_5_reduction_to_each_column),
        cmocka_unit_test(test_n20_9_5_reduction_out_of_range_refused),
        cmocka_unit_test(test_n20_9_5_no_decision_at_lowest_column),
        cmocka_unit_test(test_n20_9_5_cap_form_is_a_standing_instruction),
        cmocka_unit_test(test_n20_9_5_default_is_no_reduction),
        cmocka_unit_test(test_n20_9_5_step_f_encoded),
        cmocka_unit_test(test_n20_dn_9_5_both_editions_reduce_at_step_f),
        cmocka_unit_test(test_n20_8_1_countercharge_reduces_at_step_f),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
