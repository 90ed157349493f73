/*
 * test_n20_legal_steps.c - the step orders through which legal() reaches every order: [9.2] the
 * declaration one battle at a time, [9.7] the retreat hex by hex (rulings
 * docs/danube-rulings/legal.md R-legal-steps). docs/n20-cases/danube-legal.md.
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
#include <stdlib.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

#define SETUP(turn, phasing) T_SETUP(turn, phasing, N20_PH_DECLARE)

static void s_same(const n20_state *a, const n20_state *b) {
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    assert_int_equal(n20_encode(a, &x), 0);
    assert_int_equal(n20_encode(b, &y), 0);
    assert_int_equal(x.len, y.len);
    assert_memory_equal(x.data, y.data, x.len);
    buf_free(&x);
    buf_free(&y);
}

/* VANDAMME is in the ZOC of ZIETEN and PIRCH; DERLON in PIRCH's only */
static n20_state *s_two(t_dice *d) {
    n20_state *s = t_pos(d, 9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 807);
    t_place(s, "DERLON", 806);
    return s;
}

/* [9.2] one battle at a time, then done: the declaration the whole order makes */
static void test_n20_9_2_declare_one_battle_at_a_time(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_two(&d);
    assert_true(t_legal_has(s, N20_FRENCH, "declare one VANDAMME -> ZIETEN"));
    OK(N20_FRENCH, "declare one VANDAMME -> ZIETEN");
    assert_int_equal(s->phase, N20_PH_DECLARE);
    assert_int_equal(s->nbattles, 1);
    assert_false(t_events_has(&ev, "declared")); /* nothing is announced before the declaration is done */
    NO(N20_FRENCH, "declare done", "9.1");        /* DERLON is in PIRCH's ZOC and must attack */
    assert_false(t_legal_has(s, N20_FRENCH, "declare done"));
    NO(N20_FRENCH, "declare DERLON -> PIRCH", "9.2"); /* no whole declaration once the steps began */
    assert_true(t_legal_has(s, N20_FRENCH, "declare one DERLON -> PIRCH"));
    OK(N20_FRENCH, "declare one DERLON -> PIRCH");
    assert_true(t_legal_has(s, N20_FRENCH, "declare done"));
    assert_int_equal(t_legal_n(s, N20_FRENCH), 1);
    OK(N20_FRENCH, "declare done");
    assert_int_equal(s->phase, N20_PH_BATTLES);
    assert_true(t_events_has(&ev, "[9.2] battle 1 declared: VANDAMME attacks ZIETEN"));
    assert_true(t_events_has(&ev, "[9.2] battle 2 declared: DERLON attacks PIRCH"));
    t_dice d2;
    t_dice_init(&d2, 1);
    n20_state *w = s_two(&d2);
    assert_int_equal(t_order(w, N20_FRENCH, "declare VANDAMME -> ZIETEN ; DERLON -> PIRCH", &d2, NULL, &err), 0);
    s_same(s, w);
    free(w);
    free(s);
}

/* [9.1] [9.1.2] a battle that leaves an obligation no battle can meet is refused, and not listed */
static void test_n20_9_2_declare_one_dead_end_refused(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_two(&d);
    /* with VANDAMME against PIRCH, DERLON can attack nobody else and ZIETEN is left unattacked */
    assert_false(t_legal_has(s, N20_FRENCH, "declare one VANDAMME -> PIRCH"));
    assert_false(t_legal_has(s, N20_FRENCH, "declare one VANDAMME,DERLON -> PIRCH"));
    assert_false(t_legal_has(s, N20_FRENCH, "declare one VANDAMME -> ZIETEN,PIRCH"));
    n20_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    NO(N20_FRENCH, "declare one VANDAMME -> PIRCH", "9.1");
    NO(N20_FRENCH, "declare one VANDAMME -> ZIETEN,PIRCH", "9.1");
    NO(N20_FRENCH, "declare one DERLON -> ZIETEN", "9.2.2"); /* not adjacent */
    assert_int_equal(memcmp(copy, s, sizeof *s), 0);
    /* the battles that keep a declaration possible */
    assert_true(t_legal_has(s, N20_FRENCH, "declare one DERLON -> PIRCH"));
    assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "declare one"), 2);
    OK(N20_FRENCH, "declare one DERLON -> PIRCH");
    NO(N20_FRENCH, "declare one VANDAMME -> PIRCH", "9.1.2"); /* PIRCH is attacked once */
    free(copy);
    free(s);
}

/* [9.7] hex by hex: nothing moves and no die is rolled until the path is complete; then it is the
 * whole-path retreat, hazards rolled as the unit enters the hexes [9.7.4] */
static void test_n20_9_7_retreat_hex_by_hex(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 407);
    t_place(s, "KELLERMANN", 607);
    t_place(s, "MILHAUD", 509); /* not in the battle: its ZOC covers 0508 */
    int z = t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,DERLON,KELLERMANN -> ZIETEN");
    uint32_t r[] = {4, 2}; /* 9 vs 3: column +4, die 4: DR; rout 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    n20_state *w = malloc(sizeof *w);
    memcpy(w, s, sizeof *s);
    t_dice dw = d;
    dw.d.source_ctx = &dw;
    int rolled = d.npurposes;
    assert_true(t_legal_has(s, N20_ALLIED, "retreat-step ZIETEN 0507"));
    OK(N20_ALLIED, "retreat-step ZIETEN 0507");
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(s->u[z].hex, n20_hex(506));
    assert_int_equal(d.npurposes, rolled);
    NO(N20_ALLIED, "retreat ZIETEN 0507 0508", "9.7"); /* the steps began */
    assert_true(t_legal_has(s, N20_ALLIED, "retreat-step ZIETEN 0508"));
    uint32_t h[] = {5, 3};
    t_dice_script(&d, 2, h);
    OK(N20_ALLIED, "retreat-step ZIETEN 0508"); /* the 2 hexes: carried out at once */
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 2);
    assert_true(t_events_has(&ev, "ZIETEN hazardous retreat roll 3: Broken"));
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    t_dice_script(&dw, 2, h);
    assert_int_equal(t_order(w, N20_ALLIED, "retreat ZIETEN 0507 0508", &dw, NULL, &err), 0);
    s_same(s, w);
    free(w);
    free(s);
}

/* [9.7.3] a step the priorities forbid is refused with their rule, state untouched */
static void test_n20_9_7_3_retreat_step_priority(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH);
    t_place(s, "REILLE", 1508);
    t_place(s, "ZIETEN", 1509);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    n20_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    NO(N20_ALLIED, "retreat-step ZIETEN 1609", "9.7.3"); /* in REILLE's ZOC while 1510 is free */
    NO(N20_ALLIED, "retreat-step ZIETEN 1410", "9.7.2.1"); /* Major River, no crossing */
    NO(N20_ALLIED, "retreat-stop ZIETEN", "9.7.8");        /* it must retreat its hex */
    assert_int_equal(memcmp(copy, s, sizeof *s), 0);
    assert_false(t_legal_has(s, N20_ALLIED, "retreat-step ZIETEN 1609"));
    assert_true(t_legal_has(s, N20_ALLIED, "retreat-step ZIETEN 1510"));
    free(copy);
    free(s);
}

/* [9.7.2.2] in a Fortified hex the retreat may stop short: retreat-stop with no step holds */
static void test_n20_9_7_2_2_retreat_stop_holds_fortified(void **st) {
    (void)st;
    SETUP(18, N20_FRENCH);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1801);
    t_place(s, "ORANGE", 1802);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {3}; /* +1, die 3: DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat-stop ORANGE"));
    assert_true(t_legal_has(s, N20_ALLIED, "retreat-step ORANGE 1902"));
    OK(N20_ALLIED, "retreat-stop ORANGE");
    AT("ORANGE", 1802);
    assert_int_not_equal(s->phase, N20_PH_RETREAT);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_9_2_declare_one_battle_at_a_time),
        cmocka_unit_test(test_n20_9_2_declare_one_dead_end_refused),
        cmocka_unit_test(test_n20_9_7_retreat_hex_by_hex),
        cmocka_unit_test(test_n20_9_7_3_retreat_step_priority),
        cmocka_unit_test(test_n20_9_7_2_2_retreat_stop_holds_fortified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
