/*
 * test_n20_leaders.c - optional rule [16.9] Leaders (option "leaders") of
 * Waterloo 20: set-up, command span [16.9.1] [16.9.5], leader movement
 * [16.9.2], leaders and ZOCs [16.9.3], reaction [16.9.4], retreats
 * [16.9.5], broken leaders and the Breaking Napoleon Table [16.9.6],
 * the automatic rally [16.9.7], the French Wing Commanders; and random play
 * with the option on (games end, legal/apply agree, replay is identical).
 *
 * CRT row used here (scenario data), differential columns -2 .. +4:
 *   die 3: AR AW N DW DW DW DR
 * Breaking Napoleon Table (scenario data, RECONSTRUCTED from Danube 20):
 *   1 killed, 2 wounded (-1 French Morale), 3-6 escapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

extern const brt_ruleset brt_ruleset_n20;

/* ---- helpers ---------------------------------------------------------------- */

/* a t_pos test (n20_test.h) with the Leaders option */
#define SETUP(turn, phasing, phase)      \
    T_SETUP(turn, phasing, phase);       \
    s->opts |= N20_OPT_LEADERS

/* ---- set-up [3.0] [16.9] -------------------------------------------------------- */

/* [3.0] [16.9] the Leader units of the set-up are on the map only with the option */
static void test_n20_16_9_setup_places_leaders_only_with_option(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    n20_state *s = n20_state_new(sc);
    assert_int_equal(n20_setup(s, &d.d, NULL, N20_OPT_LEADERS, NULL), 0);
    assert_int_equal(WHERE("NEY"), N20_U_MAP);
    AT("NEY", 704);
    assert_int_equal(n20_unit_at(s, n20_hex(704)), U("REILLE")); /* a Leader is never "the" unit of a hex */
    AT("NAPOLEON", 608);
    AT("WELLINGTON", 1005);
    AT("BLUCHER", 809);
    assert_int_equal(WHERE("NAPOLEON2"), N20_U_OUT); /* set aside */
    assert_int_equal(WHERE("GROUCHY"), N20_U_OUT);
    assert_true(n20_leader_stacked(s, U("NEY")));
    /* the encoding carries the option and differs from a game without it */
    n20_state *s0 = n20_state_new(sc);
    t_dice d0;
    t_dice_init(&d0, 1);
    assert_int_equal(n20_setup(s0, &d0.d, NULL, 0, NULL), 0);
    assert_int_equal(s0->u[U("NAPOLEON")].where, N20_U_OUT);
    brt_buf a, b;
    buf_init(&a);
    buf_init(&b);
    assert_int_equal(n20_encode(s, &a), 0);
    assert_int_equal(n20_encode(s0, &b), 0);
    assert_true(a.len != b.len || memcmp(a.data, b.data, a.len) != 0);
    buf_free(&a);
    buf_free(&b);
    free(s);
    free(s0);
}


/* [16.0] the options "leaders" and "special-units" are accepted by the ruleset and its Leaders show in the view */
static void test_n20_16_9_option_accepted_by_ruleset(void **st) {
    (void)st;
    const brt_ruleset *r = &brt_ruleset_n20;
    t_dice d;
    t_dice_init(&d, 42);
    brt_reject err;
    const char *names[] = {"leaders", "special-units"};
    brt_ruleset_options o = {names, 2, 2};
    n20_state *s = r->setup("waterloo20-standard", &o, &d.d, &err);
    assert_non_null(s);
    assert_int_equal(s->opts, N20_OPT_LEADERS | N20_OPT_SPECIAL_UNITS);
    brt_buf v;
    buf_init(&v);
    assert_int_equal(r->view_text(s, -1, &v), 0);
    buf_append(&v, "", 1);
    assert_non_null(strstr((const char *)v.data, "NAPOLEON"));
    assert_non_null(strstr((const char *)v.data, "WELLINGTON"));
    buf_free(&v);
    r->destroy(s);
    /* without the option the view has no Leader */
    s = r->setup("waterloo20-standard", NULL, &d.d, &err);
    buf_init(&v);
    assert_int_equal(r->view_text(s, -1, &v), 0);
    buf_append(&v, "", 1);
    assert_null(strstr((const char *)v.data, "WELLINGTON"));
    buf_free(&v);
    r->destroy(s);
}

/* [16.9] without the option a Leader never moves (and none is on the map) */
static void test_n20_16_9_leader_refused_without_option(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    s->opts &= ~(uint32_t)N20_OPT_LEADERS;
    t_place(s, "NAPOLEON", 1605);
    NO(N20_FRENCH, "move NAPOLEON 1604", "16.9");
    free(s);
}

/* ---- [16.9.1] [16.9.5] command ------------------------------------------------------ */

/* [16.9.1] the span is a radius in hexes: NAPOLEON (3-5) commands REILLE 3 hexes away;
 * [16.9.5] In Command, the differential is unaffected: 4 - 3 = +1, die 3 = DW */
static void test_n20_16_9_1_attacker_within_span_is_in_command(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "NAPOLEON", 1602); /* distance 3 */
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t dice[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_true(t_events_has(&ev, "the attackers are In Command"));
    assert_true(t_events_has(&ev, "differential +1, column +1, die 3: DW"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    free(s);
}

/* [16.9.5] Out of Command: no attacker within any span, the differential is reduced by one
 * (+1 becomes 0, die 3 = N) */
static void test_n20_16_9_5_out_of_command_reduces_differential(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "NAPOLEON", 1601); /* distance 4 > span 3 */
    t_place(s, "BLUCHER", 1607);  /* an enemy Leader gives no command to the French */
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t dice[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_true(t_events_has(&ev, "Out of Command (-1 differential)"));
    assert_true(t_events_has(&ev, "differential +0, column +0, die 3: N"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    AT("ZIETEN", 1606);
    free(s);
}

/* [16.9.5] one attacker In Command is enough for the whole battle */
static void test_n20_16_9_5_one_attacker_in_command_suffices(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "GERARD", 1505);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "NEY", 1505); /* NEY (0-5): span 0, commands only his own hex */
    n20_battle b = {.natt = 2, .ndef = 1, .att = {(uint8_t)U("REILLE"), (uint8_t)U("GERARD")},
                    .def = {(uint8_t)U("ZIETEN")}};
    assert_int_equal(n20_in_command(s, &b), 1);
    s->u[U("NEY")].hex = n20_hex(1504); /* adjacent to both, but span 0 */
    assert_int_equal(n20_in_command(s, &b), 0);
    free(s);
}

/* [16.9] GROUCHY (1/0-5): span 1 for Cavalry, his own hex only for Infantry and Artillery */
static void test_n20_16_9_1_grouchy_span_one_for_cavalry_zero_for_foot(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "GROUCHY", 1604);
    n20_battle inf = {.natt = 1, .ndef = 1, .att = {(uint8_t)U("REILLE")}, .def = {(uint8_t)U("ZIETEN")}};
    assert_int_equal(n20_in_command(s, &inf), 0);
    s->u[U("GROUCHY")].hex = n20_hex(1605);
    assert_int_equal(n20_in_command(s, &inf), 1);
    s->u[U("REILLE")].where = N20_U_OUT;
    t_place(s, "KELLERMANN", 1605);
    s->u[U("GROUCHY")].hex = n20_hex(1604);
    n20_battle cav = {.natt = 1, .ndef = 1, .att = {(uint8_t)U("KELLERMANN")}, .def = {(uint8_t)U("ZIETEN")}};
    assert_int_equal(n20_in_command(s, &cav), 1);
    s->u[U("GROUCHY")].hex = n20_hex(1603); /* distance 2 */
    assert_int_equal(n20_in_command(s, &cav), 0);
    free(s);
}

/* ---- [16.9.2] movement ----------------------------------------------------------------- */

/* [16.9.2] Leaders move through Rugged hexes as if Clear (Cavalry must stop [6.5]) */
static void test_n20_16_9_2_leader_moves_through_rugged_as_clear(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "NAPOLEON", 1606);
    t_place(s, "MILHAUD", 1506);
    NO(N20_FRENCH, "move MILHAUD 1507 1608 1609", "6.5");
    OK(N20_FRENCH, "move NAPOLEON 1607 1608 1609"); /* 1608 is Forest */
    AT("NAPOLEON", 1609);
    assert_true(t_events_has(&ev, "NAPOLEON moves to 1609"));
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [16.9.2] a Leader may leave an EZOC, but not directly into another EZOC hex */
static void test_n20_16_9_2_leader_leaves_ezoc_but_not_into_another(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", 1605);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "ZIETEN", 1606);
    NO(N20_FRENCH, "move REILLE 1604", "6.8");   /* a unit cannot [6.8] */
    NO(N20_FRENCH, "move NAPOLEON 1505", "16.9.2"); /* 1505 is in ZIETEN's ZOC */
    assert_false(t_legal_has(s, N20_FRENCH, "move NAPOLEON 1505"));
    assert_true(t_legal_has(s, N20_FRENCH, "move NAPOLEON 1604 1603"));
    OK(N20_FRENCH, "move NAPOLEON 1604 1603");
    AT("NAPOLEON", 1603);
    free(s);
}

/* [16.9.2] Leaders are stack free: with a friendly unit and other Leaders */
static void test_n20_16_9_2_leaders_are_stack_free(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", 1605);
    t_place(s, "NAPOLEON", 1603);
    t_place(s, "NEY", 1604);
    t_place(s, "DERLON", 1504);
    OK(N20_FRENCH, "move NAPOLEON 1604 1605");
    OK(N20_FRENCH, "move NEY 1605");
    NO(N20_FRENCH, "move DERLON 1605", "6.9"); /* two units still may not stack [6.9] */
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    OK(N20_FRENCH, "end");
    AT("NAPOLEON", 1605);
    AT("NEY", 1605);
    AT("REILLE", 1605);
    free(s);
}

/* ---- [16.9.3] ZOCs --------------------------------------------------------------------- */

/* [16.9.3] Leaders exert no ZOC (REILLE moves on past BLUCHER) and a lone Leader in an EZOC
 * must immediately retreat one hex: its owner decides, in the enemy's Movement Phase */
static void test_n20_16_9_3_lone_leader_in_ezoc_retreats(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "REILLE", 1604);
    t_place(s, "BLUCHER", 1606);
    OK(N20_FRENCH, "move REILLE 1605 1505"); /* both hexes are next to BLUCHER: no stop */
    AT("REILLE", 1505);
    assert_int_equal(s->phase, N20_PH_LEADER_RETREAT);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "leader-retreat");
    assert_int_equal(t_legal_n(s, N20_FRENCH), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "retreat BLUCHER 1607"));
    assert_false(t_legal_has(s, N20_ALLIED, "retreat BLUCHER 1505")); /* enemy occupied */
    NO(N20_ALLIED, "retreat BLUCHER 1505", "16.9.3");
    NO(N20_ALLIED, "retreat BLUCHER 1607 1608", "16.9.3"); /* one hex only */
    OK(N20_ALLIED, "retreat BLUCHER 1607");
    AT("BLUCHER", 1607);
    assert_int_equal(WHERE("BLUCHER"), N20_U_MAP);
    assert_true(t_events_has(&ev, "[16.9.3] Leader BLUCHER retreats to 1607"));
    assert_int_equal(s->phase, N20_PH_MOVE); /* back to the French Movement Phase */
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [16.9.3] still alone in an EZOC after the retreat: the Leader is Broken; NAPOLEON rolls on the
 * Breaking Napoleon Table [16.9.6]: 2 = wounded, -1 French Morale */
static void test_n20_16_9_3_leader_still_in_ezoc_breaks(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "ORANGE", 1607);
    OK(N20_ALLIED, "move ORANGE 1606");
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    uint32_t die[] = {2};
    t_dice_script(&d, 1, die);
    OK(N20_FRENCH, "retreat NAPOLEON 1505"); /* 1505 is in ORANGE's ZOC too */
    assert_int_equal(WHERE("NAPOLEON"), N20_U_BROKEN);
    assert_true(t_events_has(&ev, "Leader NAPOLEON is Broken"));
    assert_true(t_events_has(&ev, "Breaking Napoleon roll 2: Napoleon is wounded"));
    assert_int_equal(t_dice_count(&d, "16.9.6 breaking Napoleon"), 1);
    assert_int_equal(d.npurposes, 1);
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_int_equal(s->morale[N20_ALLIED], 6); /* no Morale gain for breaking a Leader */
    assert_int_equal(s->phase, N20_PH_MOVE);
    free(s);
}

/* [16.9.3] a lone Leader with no hex to retreat into is Broken at once; [16.9.6] a roll of 1
 * kills Napoleon: Anti-French Decisive Victory */
static void test_n20_16_9_6_napoleon_killed_ends_the_game(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "NAPOLEON", 1601); /* map edge: neighbours 1602 1501 1701 */
    t_place(s, "RESERVE", 1501);
    t_place(s, "HILL", 1701);
    t_place(s, "ORANGE", 1603);
    uint32_t die[] = {1};
    t_dice_script(&d, 1, die);
    OK(N20_ALLIED, "move ORANGE 1602");
    assert_int_equal(WHERE("NAPOLEON"), N20_U_BROKEN);
    assert_true(t_events_has(&ev, "no hex to retreat into"));
    assert_int_equal(t_dice_count(&d, "16.9.6 breaking Napoleon"), 1);
    assert_true(s->over);
    brt_result r;
    n20_result(s, &r);
    assert_int_equal(r.winners, 1u << N20_ALLIED);
    assert_string_equal(r.level, "decisive");
    assert_non_null(strstr(r.reason, "16.9.6"));
    free(s);
}

/* [16.9.6] 3-6: Napoleon escapes, no effect; [16.9.6] another Leader breaks without a roll */
static void test_n20_16_9_6_napoleon_escapes_and_other_leaders_roll_nothing(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_MOVE);
    t_place(s, "NAPOLEON", 1601);
    t_place(s, "NEY", 1601);
    t_place(s, "RESERVE", 1501);
    t_place(s, "HILL", 1701);
    t_place(s, "ORANGE", 1603);
    uint32_t die[] = {4};
    t_dice_script(&d, 1, die);
    OK(N20_ALLIED, "move ORANGE 1602");
    assert_int_equal(WHERE("NAPOLEON"), N20_U_BROKEN);
    assert_int_equal(WHERE("NEY"), N20_U_BROKEN);
    assert_true(t_events_has(&ev, "Breaking Napoleon roll 4: Napoleon escapes"));
    assert_int_equal(d.npurposes, 1); /* one roll, for NAPOLEON only */
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_false(s->over);
    free(s);
}

/* [16.9.3] Leaders are not obliged to attack and cannot attack or be attacked */
static void test_n20_16_9_3_leaders_neither_attack_nor_are_attacked(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "BLUCHER", 1606);
    assert_int_equal(n20_must_attack(s, U("NAPOLEON")), 0);
    NO(N20_FRENCH, "declare REILLE,NAPOLEON -> ZIETEN", "9.0");
    NO(N20_FRENCH, "declare REILLE -> ZIETEN,BLUCHER", "9.0");
    assert_true(t_legal_has(s, N20_FRENCH, "declare REILLE -> ZIETEN"));
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    free(s);
}

/* ---- [16.9.4] reaction ------------------------------------------------------------------ */

/* [16.9.4] Leaders do not perform Reaction Movement */
static void test_n20_16_9_4_leaders_do_not_react(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "COLLAERT", 1606);
    t_place(s, "WELLINGTON", 1606);
    t_place(s, "REILLE", 1605);
    assert_int_equal(n20_reaction_eligible(s, U("WELLINGTON")), 0);
    assert_int_equal(n20_reaction_eligible(s, U("COLLAERT")), 1);
    free(s);
}

/* [16.9.4] Leaders do not affect a countercharge: no command check */
static void test_n20_16_9_4_countercharge_has_no_command_check(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_REACTION);
    t_place(s, "COLLAERT", 1606);
    t_place(s, "REILLE", 1605);
    s->u[U("COLLAERT")].flags |= N20_UF_REACT_OK;
    uint32_t dice[] = {3};
    t_dice_script(&d, 1, dice);
    OK(N20_ALLIED, "countercharge COLLAERT -> REILLE");
    if (s->phase == N20_PH_DEF_RESERVE) OK(N20_FRENCH, "no-reserve");
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_false(t_events_has(&ev, "Command"));
    free(s);
}

/* ---- [16.9.5] retreats -------------------------------------------------------------------- */

/* [16.9.5] a Leader stacked with a unit that must Retreat accompanies it */
static void test_n20_16_9_5_leader_accompanies_retreat(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1605);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "BLUCHER", 1606);
    OK(N20_FRENCH, "declare REILLE -> ZIETEN");
    uint32_t dice[] = {3}; /* +1, die 3 = DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    /* the first retreat path legal() lists */
    brt_buf b, f;
    buf_init(&b);
    buf_init(&f);
    assert_true(n20_legal(s, N20_ALLIED, &b) > 0);
    size_t pos = 0;
    const uint8_t *item;
    size_t len;
    assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
    assert_int_equal(n20_order_format(item, len, &f), 0);
    buf_append(&f, "", 1);
    OK(N20_ALLIED, (const char *)f.data);
    buf_free(&b);
    buf_free(&f);
    assert_int_equal(WHERE("ZIETEN"), N20_U_MAP);
    assert_int_not_equal(s->u[U("ZIETEN")].hex, n20_hex(1606));
    assert_int_equal(s->u[U("BLUCHER")].hex, s->u[U("ZIETEN")].hex);
    assert_int_equal(WHERE("BLUCHER"), N20_U_MAP);
    assert_true(t_events_has(&ev, "[16.9.5] Leader BLUCHER accompanies ZIETEN to"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_int_equal(d.npurposes, 1);
    free(s);
}

/* [16.9.5] if the unit Breaks during its Retreat, the Leader Breaks too ([9.7.7] no retreat
 * possible); [16.9.6] no Morale penalty for the Leader: only ZIETEN's break counts */
static void test_n20_16_9_5_leader_breaks_with_retreating_unit(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "BLUCHER", 1606);
    t_place(s, "REILLE", 1605);
    t_place(s, "DERLON", 1607);
    t_place(s, "VANDAMME", 1505);
    t_place(s, "GERARD", 1506);
    t_place(s, "GARDE", 1705);      /* LOBAU and RAPP are in the game only with their options */
    t_place(s, "ARTILLERY", 1706);
    OK(N20_FRENCH, "declare REILLE,DERLON,VANDAMME,GERARD,GARDE,ARTILLERY -> ZIETEN");
    uint32_t dice[] = {3, 2}; /* +12 -> column +4, die 3 = DR; rout roll 2 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, dice), 0);
    assert_int_equal(WHERE("ZIETEN"), N20_U_BROKEN);
    assert_int_equal(WHERE("BLUCHER"), N20_U_BROKEN);
    assert_true(t_events_has(&ev, "[16.9.5 the unit it accompanied in retreat Broke] Leader BLUCHER is Broken"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 1);
    assert_int_equal(d.npurposes, 2);
    assert_int_equal(s->morale[N20_ALLIED], 5);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    free(s);
}


/* [16.9.5] a failed Hazardous Retreat roll [9.7.4] that Breaks the unit Breaks the Leader with it */
static void test_n20_16_9_5_leader_breaks_on_failed_hazard(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "BLUCHER", 1606);
    t_place(s, "REILLE", 1605);
    t_place(s, "DERLON", 1505);   /* its ZOC covers 1506 */
    t_place(s, "GERARD", 1707);   /* covers 1607 and 1706 */
    t_place(s, "VANDAMME", 1704); /* covers 1705 */
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN");
    uint32_t dice[] = {3}; /* 7 - 3 = +4, Out of Command +3, die 3 = DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_true(t_events_has(&ev, "differential +3, column +3, die 3: DW"));
    assert_int_equal(s->phase, N20_PH_RETREAT);
    char order[200];
    t_legal_find_sub(s, N20_ALLIED, "retreat ZIETEN", order, sizeof order);
    assert_true(order[0] != 0);
    uint32_t hz[] = {2}; /* 1-3 breaks [9.7.4] */
    t_dice_script(&d, 1, hz);
    OK(N20_ALLIED, order);
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)"), 1);
    assert_int_equal(WHERE("ZIETEN"), N20_U_BROKEN);
    assert_int_equal(WHERE("BLUCHER"), N20_U_BROKEN);
    assert_true(t_events_has(&ev, "Leader BLUCHER is Broken"));
    assert_int_equal(d.npurposes, 2);
    free(s);
}

/* [16.9.5] [16.9.3] the unit stacked with the Leader is Broken in place (DB): the Leader stays,
 * alone in the EZOC, and must retreat before the victor advances */
static void test_n20_16_9_3_leader_left_alone_by_db_retreats_before_advance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "BLUCHER", 1606);
    t_place(s, "REILLE", 1605);
    t_place(s, "DERLON", 1505);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN");
    uint32_t dice[] = {6}; /* 7 - 3 = +4, die 6 = DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_int_equal(WHERE("ZIETEN"), N20_U_BROKEN);
    assert_int_equal(WHERE("BLUCHER"), N20_U_MAP);
    assert_int_equal(s->phase, N20_PH_LEADER_RETREAT);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    OK(N20_ALLIED, "retreat BLUCHER 1607");
    assert_int_equal(WHERE("BLUCHER"), N20_U_MAP);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 1606"));
    free(s);
}


/* [16.9.5] a Leader stacked with a unit that Advances after Combat may accompany it (or not) */
static void test_n20_16_9_5_leader_may_accompany_advance(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "ZIETEN", 1606);
    t_place(s, "REILLE", 1605);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "NEY", 1604);
    t_place(s, "DERLON", 1505);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ZIETEN");
    uint32_t dice[] = {6}; /* +4, die 6 = DB */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 1606"));
    assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 1606 with NAPOLEON"));
    assert_false(t_legal_has(s, N20_FRENCH, "advance DERLON 1606 with NAPOLEON"));
    NO(N20_FRENCH, "advance REILLE 1606 with NEY", "16.9.5"); /* not stacked with REILLE */
    NO(N20_FRENCH, "advance REILLE 1606 with ZIETEN", "16.9.5");
    OK(N20_FRENCH, "advance REILLE 1606 with NAPOLEON");
    AT("REILLE", 1606);
    AT("NAPOLEON", 1606);
    AT("NEY", 1604);
    assert_true(t_events_has(&ev, "[16.9.5] Leader NAPOLEON accompanies REILLE to 1606"));
    assert_int_equal(d.npurposes, 1);
    free(s);
}

/* [16.9.4] a Leader may accompany the friendly unit it is stacked with that Disengages */
static void test_n20_16_9_4_leader_may_accompany_disengagement(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_REACTION);
    t_place(s, "COLLAERT", 1606);
    t_place(s, "WELLINGTON", 1606);
    t_place(s, "REILLE", 1605);
    s->u[U("COLLAERT")].flags |= N20_UF_REACT_OK;
    char order[200];
    t_legal_find_sub(s, N20_ALLIED, " with WELLINGTON", order, sizeof order);
    assert_non_null(strstr(order, "disengage COLLAERT "));
    NO(N20_ALLIED, "move WELLINGTON 1607", "8.0"); /* [16.9.4] a Leader has no Reaction Movement of its own */
    NO(N20_ALLIED, "disengage WELLINGTON 1607", "8.0");
    OK(N20_ALLIED, order);
    assert_int_not_equal(s->u[U("COLLAERT")].hex, n20_hex(1606));
    assert_int_equal(s->u[U("WELLINGTON")].hex, s->u[U("COLLAERT")].hex);
    assert_true(t_events_has(&ev, "[16.9.4] Leader WELLINGTON accompanies COLLAERT"));
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [16.9.2] a Leader's own move names no other Leader */
static void test_n20_16_9_2_move_with_leaders_refused(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    t_place(s, "KELLERMANN", 1605);
    t_place(s, "NAPOLEON", 1605);
    /* only disengage and advance take "with": a move order keeps "with" as a bad hex */
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 1604 with NAPOLEON", &d, &ev, &err), -2);
    free(s);
}

/* ---- [16.9.7] rally ------------------------------------------------------------------------ */

/* [16.9.7] at the beginning of its Movement Phase a Broken Leader Rallies automatically (no
 * die) and is placed like other units [10.0] (Leaders are stack free: R-16.9.7-place) */
static void test_n20_16_9_7_broken_leader_rallies_automatically(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE_START);
    s->u[U("NAPOLEON")].where = N20_U_BROKEN;
    t_place(s, "REILLE", 105);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_PLACE);
    assert_true(t_events_has(&ev, "[16.9.7] Leader NAPOLEON Rallies automatically"));
    assert_int_equal(d.npurposes, 0);
    assert_true(t_legal_has(s, N20_FRENCH, "place NAPOLEON 0105"));
    assert_true(t_legal_has(s, N20_FRENCH, "place NAPOLEON 0106"));
    NO(N20_FRENCH, "place NAPOLEON 2502", "10.0"); /* not a French LOC hex */
    OK(N20_FRENCH, "place NAPOLEON 0105");
    AT("NAPOLEON", 105);
    assert_int_equal(WHERE("NAPOLEON"), N20_U_MAP);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* [16.9.7] [10.0] a rallied Leader need not be placed: it stays Broken */
static void test_n20_16_9_7_rallied_leader_may_stay_broken(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_MOVE_START);
    s->u[U("WELLINGTON")].where = N20_U_BROKEN;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_PLACE);
    OK(N20_ALLIED, "end");
    assert_int_equal(WHERE("WELLINGTON"), N20_U_BROKEN);
    assert_int_equal(s->phase, N20_PH_MOVE);
    free(s);
}


/* [16.9.8] with Optional Rule 16.4, a "Rallying on" event makes vacant hexes with or next to the named
 * Leader, not in an EZOC, additional Rally locations for that event's Rally */
static void test_n20_16_9_8_rallying_on_a_leader(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_PLACE);
    int card = -1;
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == 2) card = i;
    assert_true(card >= 0);
    assert_int_equal(s->sc->cards[card].rally_on, U("BLUCHER") + 1); /* "Rally on Old Forwards!" */
    s->opts |= N20_OPT_RALLY_LOCATIONS;
    s->rally_event = 2;
    s->rally_on = (uint8_t)(U("BLUCHER") + 1);
    t_place(s, "BLUCHER", 1605);
    t_place(s, "REILLE", 1503); /* its ZOC covers 1604 */
    s->u[U("PIRCH")].where = N20_U_BROKEN;
    s->u[U("PIRCH")].flags = N20_UF_RALLIED;
    s->u[U("THIELMANN")].where = N20_U_BROKEN;
    s->u[U("THIELMANN")].flags = N20_UF_RALLIED;
    assert_true(t_legal_has(s, N20_ALLIED, "place PIRCH 1605"));
    assert_true(t_legal_has(s, N20_ALLIED, "place PIRCH 1606"));
    assert_false(t_legal_has(s, N20_ALLIED, "place PIRCH 1604"));
    /* with [16.4] on, a hex that is not a LOC hex is judged as a [16.4] Rally hex */
    NO(N20_ALLIED, "place PIRCH 1604", "16.4"); /* in REILLE's ZOC */
    NO(N20_ALLIED, "place PIRCH 1607", "16.4"); /* two hexes from BLUCHER */
    OK(N20_ALLIED, "place PIRCH 1606");
    AT("PIRCH", 1606);
    NO(N20_ALLIED, "place THIELMANN 1606", "16.4"); /* no longer vacant */
    /* without 16.4, or once the event's Rally is over, only the LOC hexes */
    s->opts &= ~(uint32_t)N20_OPT_RALLY_LOCATIONS;
    NO(N20_ALLIED, "place THIELMANN 1705", "10.0");
    s->opts |= N20_OPT_RALLY_LOCATIONS;
    s->rally_event = 0;
    NO(N20_ALLIED, "place THIELMANN 1705", "16.4");
    s->rally_event = 2;
    OK(N20_ALLIED, "place THIELMANN 1705");
    assert_int_equal(d.npurposes, 0);
    free(s);
}

/* ---- French Wing Commanders (Standard Scenario) ------------------------------------------------ */

/* [16.9] at the conclusion of the French Player Turn NAPOLEON (3-5) may become NAPOLEON (2-5) plus the
 * third Leader (GROUCHY) in his hex; later the two are absorbed back into NAPOLEON (3-5) */
static void test_n20_16_9_wing_commanders_split_and_merge(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_TURN_END);
    t_place(s, "NAPOLEON", 1605);
    t_place(s, "NEY", 1603);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_WING);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_true(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    assert_false(t_legal_has(s, N20_FRENCH, "wing NEY")); /* not stacked with NAPOLEON */
    NO(N20_FRENCH, "wing NEY", "16.9");
    OK(N20_FRENCH, "wing GROUCHY");
    assert_int_equal(WHERE("NAPOLEON"), N20_U_OUT);
    AT("NAPOLEON2", 1605);
    AT("GROUCHY", 1605);
    assert_int_equal(s->phasing, N20_ALLIED); /* the turn went on */
    /* the next French Player Turn: absorb GROUCHY */
    s->phasing = N20_FRENCH;
    s->wing_done = 0;
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_WING);
    assert_true(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    OK(N20_FRENCH, "wing GROUCHY");
    AT("NAPOLEON", 1605);
    assert_int_equal(WHERE("NAPOLEON2"), N20_U_OUT);
    assert_int_equal(WHERE("GROUCHY"), N20_U_OUT);
    assert_int_equal(t_dice_count(&d, "16.9.6 breaking Napoleon"), 0);
    free(s);
}

/* [16.9] no decision without the option, nor at the end of an Allied Player Turn */
static void test_n20_16_9_wing_commanders_only_french_turn_end(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_TURN_END);
    t_place(s, "NAPOLEON", 1605);
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_WING);
    free(s);
}


/* ---- [16.7] special troop units (option "special-units") ------------------------------------------ */

/* a scenario parsed from the Waterloo 20 data with `flags` on unit `id` (its "-" field) */
static n20_scenario *s_scenario_with(const char *id, const char *flags) {
    size_t len;
    const char *text = n20_data_text("waterloo20-standard", &len);
    char needle[64];
    snprintf(needle, sizeof needle, "unit %s ", id);
    const char *at = strstr(text, needle);
    assert_non_null(at);
    const char *dash = strstr(at, " - ");
    assert_non_null(dash);
    size_t pre = (size_t)(dash - text) + 1, fl = strlen(flags);
    char *t = malloc(len + fl + 1);
    memcpy(t, text, pre);
    memcpy(t + pre, flags, fl);
    memcpy(t + pre + fl, dash + 2, len - pre - 1);
    n20_scenario *sc = malloc(sizeof *sc);
    char msg[128];
    assert_int_equal(n20_data_parse(t, len + fl - 1, sc, msg, sizeof msg), 0);
    free(t);
    return sc;
}

/* an empty map on scenario sc with the option special-units */
static n20_state *s_pos_sc(const n20_scenario *sc, t_dice *d, int phasing, int phase) {
    n20_state *s = n20_state_new(sc);
    n20_setup(s, &d->d, NULL, N20_OPT_SPECIAL_UNITS, NULL);
    for (int i = 0; i < sc->nunits; i++) memset(&s->u[i], 0, sizeof s->u[i]);
    s->gg_unit = 0xff;
    s->phasing = (uint8_t)phasing;
    s->phase = (uint8_t)phase;
    s->morale[0] = s->morale[1] = 6;
    d->npurposes = 0;
    return s;
}

/* [16.7.1] an attacking Elite unit rolls for Elan at Step D: GARDE (Guard +1) rolls 5 -> 6: +1 */
static void test_n20_16_7_1_elite_elan_bonus_on_six(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    t_place(s, "GARDE", 1605);
    t_place(s, "ZIETEN", 1606);
    OK(N20_FRENCH, "declare GARDE -> ZIETEN");
    uint32_t dice[] = {5, 3}; /* Elan 5 + 1 Guard = 6; 4 vs 3 = +1, die 3 = DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, dice), 0);
    assert_true(t_events_has(&ev, "[16.7.1] GARDE Elan roll 5 (modified 6): Elan! +1 Combat Strength"));
    assert_true(t_events_has(&ev, "4 vs 3"));
    assert_true(t_events_has(&ev, "differential +1, column +1, die 3: DW"));
    assert_string_equal(d.purposes[0], "16.7.1 elan");
    assert_string_equal(d.purposes[1], "9.6 combat");
    assert_int_equal(d.npurposes, 2);
    free(s);
}

/* [16.7.1] modified result below six: no effect (4 + 1 Guard = 5) */
static void test_n20_16_7_1_elan_below_six_no_effect(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    t_place(s, "GARDE", 1605);
    t_place(s, "ZIETEN", 1606);
    OK(N20_FRENCH, "declare GARDE -> ZIETEN");
    uint32_t dice[] = {4, 3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, dice), 0);
    assert_true(t_events_has(&ev, "Elan roll 4 (modified 5): no effect"));
    assert_true(t_events_has(&ev, "differential +0, column +0, die 3: N"));
    assert_int_equal(t_dice_count(&d, "16.7.1 elan"), 1);
    free(s);
}

/* [16.7.1] +1 for the Morale Point that committed the Guard [12.3.1], +1 for committed reserves
 * [12.2.3]: 3 + 1 + 1 + 1 = 6 */
static void test_n20_16_7_1_elan_modifiers_commit_and_reserve(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_MOVE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    t_place(s, "GARDE", 1604);
    t_place(s, "ZIETEN", 1606);
    OK(N20_FRENCH, "move GARDE 1605"); /* commits the Guard: -1 Morale */
    assert_int_equal(s->morale[N20_FRENCH], 5);
    assert_true(s->u[U("GARDE")].flags & N20_UF_COMMITTED);
    OK(N20_FRENCH, "end");
    assert_int_equal(s->phase, N20_PH_DECLARE);
    OK(N20_FRENCH, "declare GARDE -> ZIETEN");
    uint32_t dice[] = {3, 3}; /* 3 + 3 = 6: Elan; 3 + 1 reserve + 1 = 5 vs 3 = +2, die 3 = DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1 reserve", 2, dice), 0);
    assert_true(t_events_has(&ev, "GARDE Elan roll 3 (modified 6): Elan!"));
    assert_true(t_events_has(&ev, "differential +2, column +2, die 3: DW"));
    assert_int_equal(t_dice_count(&d, "16.7.1 elan"), 1);
    assert_int_equal(s->morale[N20_FRENCH], 4);
    free(s);
}

/* [16.7.1] +1 if either side's Morale is at one; never when defending */
static void test_n20_16_7_1_elan_morale_one_and_never_defending(void **st) {
    (void)st;
    SETUP(9, N20_ALLIED, N20_PH_DECLARE);
    s->opts = N20_OPT_SPECIAL_UNITS;
    s->morale[N20_ALLIED] = 1;
    t_place(s, "GARDE", 1605);
    t_place(s, "ZIETEN", 1606);
    OK(N20_ALLIED, "declare ZIETEN -> GARDE");
    uint32_t dice[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_int_equal(t_dice_count(&d, "16.7.1 elan"), 0); /* GARDE defends */
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    /* the French attack back: 2 + 1 Guard + 1 Morale at one = 4 */
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_DECLARE;
    s->nbattles = 0;
    memset(&s->f, 0, sizeof s->f);
    t_place(s, "GARDE", 1605);
    t_place(s, "ZIETEN", 1606);
    n20_battle b = {.natt = 1, .ndef = 1, .att = {(uint8_t)U("GARDE")}, .def = {(uint8_t)U("ZIETEN")}};
    uint32_t e[] = {2};
    t_dice_script(&d, 1, e);
    n20_out out = {t_events_emit, &ev};
    assert_int_equal(n20_special_step_d(s, b.att, 1, 1, 0, &d.d, &out), 0);
    assert_true(t_events_has(&ev, "GARDE Elan roll 2 (modified 4): no effect"));
    free(s);
}

/* [16.7] without the option no Elan roll is made */
static void test_n20_16_7_no_elan_without_option(void **st) {
    (void)st;
    SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    s->opts = 0;
    t_place(s, "GARDE", 1605);
    t_place(s, "ZIETEN", 1606);
    OK(N20_FRENCH, "declare GARDE -> ZIETEN");
    uint32_t dice[] = {3};
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
    assert_int_equal(t_dice_count(&d, "16.7.1 elan"), 0);
    assert_int_equal(d.npurposes, 1);
    free(s);
}

/* [16.7.4] an Unreliable unit in a battle rolls at Step D: -1 if its side's Morale is lower;
 * modified 1 or less: it Wavers, -1 Combat Strength */
static void test_n20_16_7_4_unreliable_wavers_on_one(void **st) {
    (void)st;
    n20_scenario *sc = s_scenario_with("ORANGE", "unreliable");
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_pos_sc(sc, &d, N20_FRENCH, N20_PH_DECLARE);
    s->morale[N20_ALLIED] = 5; /* lower than the French 6 */
    t_place(s, "REILLE", 1605);
    t_place(s, "ORANGE", 1606);
    OK(N20_FRENCH, "declare REILLE -> ORANGE");
    uint32_t dice[] = {2, 3}; /* 2 - 1 = 1: Wavers; 4 vs 3 = +1, die 3 = DW */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, dice), 0);
    assert_true(t_events_has(&ev, "[16.7.4] ORANGE roll 2 (modified 1): Wavers, -1 Combat Strength"));
    assert_true(t_events_has(&ev, "4 vs 3"));
    assert_string_equal(d.purposes[0], "16.7.4 unreliable");
    assert_int_equal(d.npurposes, 2);
    free(s);
    free(sc);
}

/* [16.7.4] modified result above one: Steady, no effect (2, Morale not lower) */
static void test_n20_16_7_4_unreliable_steady(void **st) {
    (void)st;
    n20_scenario *sc = s_scenario_with("ORANGE", "unreliable");
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_pos_sc(sc, &d, N20_ALLIED, N20_PH_DECLARE);
    t_place(s, "ORANGE", 1605);
    t_place(s, "REILLE", 1606);
    OK(N20_ALLIED, "declare ORANGE -> REILLE");
    uint32_t dice[] = {2, 3}; /* attacking too; 4 vs 4 = 0, die 3 = N */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, dice), 0);
    assert_true(t_events_has(&ev, "ORANGE roll 2 (modified 2): Steady"));
    assert_true(t_events_has(&ev, "4 vs 4"));
    assert_int_equal(t_dice_count(&d, "16.7.4 unreliable"), 1);
    free(s);
    free(sc);
}

/* [16.7.5] a Reluctant unit that wants to advance rolls on the Controlled Advance Table first:
 * Lost (1-3) it stays, Kept (4-6) it advances */
static void test_n20_16_7_5_reluctant_advance(void **st) {
    (void)st;
    n20_scenario *sc = s_scenario_with("ORANGE", "reluctant");
    for (int k = 0; k < 2; k++) {
        t_dice d;
        t_dice_init(&d, 1);
        t_events ev = {0};
        brt_reject err;
        n20_state *s = s_pos_sc(sc, &d, N20_ALLIED, N20_PH_DECLARE);
        t_place(s, "ORANGE", 1605);
        t_place(s, "GERARD", 1606);
        OK(N20_ALLIED, "declare ORANGE -> GERARD");
        uint32_t dice[] = {6}; /* 4 vs 2 = +2, die 6 = DR */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, dice), 0);
        /* GERARD's rout roll and retreat: the first path legal() lists */
        while (s->phase == N20_PH_RETREAT) {
            brt_buf b, f;
            buf_init(&b);
            buf_init(&f);
            assert_true(n20_legal(s, N20_FRENCH, &b) > 0);
            size_t pos = 0;
            const uint8_t *item;
            size_t len;
            assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
            assert_int_equal(n20_order_format(item, len, &f), 0);
            buf_append(&f, "", 1);
            OK(N20_FRENCH, (const char *)f.data);
            buf_free(&b);
            buf_free(&f);
        }
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        int before = t_dice_count(&d, "16.7.5 reluctant advance");
        assert_int_equal(before, 0);
        uint32_t r[] = {k ? 5u : 2u};
        t_dice_script(&d, 1, r);
        OK(N20_ALLIED, "advance ORANGE 1606");
        assert_int_equal(t_dice_count(&d, "16.7.5 reluctant advance"), 1);
        if (k) {
            AT("ORANGE", 1606);
            assert_true(t_events_has(&ev, "[16.7.5] ORANGE Controlled Advance roll 5: Kept"));
        } else {
            AT("ORANGE", 1605);
            assert_true(t_events_has(&ev, "[16.7.5] ORANGE Controlled Advance roll 2: Lost: it cannot advance"));
            assert_int_not_equal(s->phase, N20_PH_ADVANCE); /* nobody else can advance: the battle ends */
        }
        free(s);
    }
    free(sc);
}

/* ---- random play with the option ----------------------------------------------------------------- */

static int s_play(uint64_t seed, uint32_t opts, int check_all, uint8_t hash[32], int *ended, int *leader_decisions) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start("waterloo20-standard", opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    while (!s->over && steps < 20000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        if (s->phase == N20_PH_LEADER_RETREAT || s->phase == N20_PH_WING) (*leader_decisions)++;
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) fail_msg("seed %llu: no legal order at phase %d", (unsigned long long)seed, s->phase);
        assert_int_equal(t_legal_n(s, (unsigned)(1 - seat)), 0); /* the other seat has nothing to do */
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        char tag[96];
        snprintf(tag, sizeof tag, "seed %llu", (unsigned long long)seed);
        size_t clen;
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, check_all, &d, &out, tag, &clen);
        assert_non_null(chosen);
        brt_reject err;
        if (n20_apply(s, (unsigned)seat, chosen, clen, &d.d, &out, &err) != 0)
            fail_msg("seed %llu: chosen order rejected: %s", (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    *ended = s->over;
    t_hash(s, hash);
    free(s);
    return steps;
}

static void test_n20_16_9_random_games_with_leaders_end_and_replay(void **st) {
    (void)st;
    const char *lg = getenv("BERTHIER_LONG");
    int games = lg && *lg == '1' ? 400 : 8;
    int decisions = 0;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        int e1, e2, x = 0;
        uint32_t opts = N20_OPT_LEADERS | (g % 2 ? N20_OPT_SPECIAL_UNITS : 0u);
        int n1 = s_play((uint64_t)g + 101, opts, g < 3, h1, &e1, &decisions);
        assert_true(e1);
        int n2 = s_play((uint64_t)g + 101, opts, 0, h2, &e2, &x);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
    assert_true(decisions > 0); /* the Leader decisions did come up */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_16_9_setup_places_leaders_only_with_option),
        cmocka_unit_test(test_n20_16_9_option_accepted_by_ruleset),
        cmocka_unit_test(test_n20_16_9_leader_refused_without_option),
        cmocka_unit_test(test_n20_16_9_1_attacker_within_span_is_in_command),
        cmocka_unit_test(test_n20_16_9_5_out_of_command_reduces_differential),
        cmocka_unit_test(test_n20_16_9_5_one_attacker_in_command_suffices),
        cmocka_unit_test(test_n20_16_9_1_grouchy_span_one_for_cavalry_zero_for_foot),
        cmocka_unit_test(test_n20_16_9_2_leader_moves_through_rugged_as_clear),
        cmocka_unit_test(test_n20_16_9_2_leader_leaves_ezoc_but_not_into_another),
        cmocka_unit_test(test_n20_16_9_2_leaders_are_stack_free),
        cmocka_unit_test(test_n20_16_9_3_lone_leader_in_ezoc_retreats),
        cmocka_unit_test(test_n20_16_9_3_leader_still_in_ezoc_breaks),
        cmocka_unit_test(test_n20_16_9_6_napoleon_killed_ends_the_game),
        cmocka_unit_test(test_n20_16_9_6_napoleon_escapes_and_other_leaders_roll_nothing),
        cmocka_unit_test(test_n20_16_9_3_leaders_neither_attack_nor_are_attacked),
        cmocka_unit_test(test_n20_16_9_4_leaders_do_not_react),
        cmocka_unit_test(test_n20_16_9_4_countercharge_has_no_command_check),
        cmocka_unit_test(test_n20_16_9_5_leader_accompanies_retreat),
        cmocka_unit_test(test_n20_16_9_5_leader_breaks_with_retreating_unit),
        cmocka_unit_test(test_n20_16_9_5_leader_breaks_on_failed_hazard),
        cmocka_unit_test(test_n20_16_9_3_leader_left_alone_by_db_retreats_before_advance),
        cmocka_unit_test(test_n20_16_9_5_leader_may_accompany_advance),
        cmocka_unit_test(test_n20_16_9_4_leader_may_accompany_disengagement),
        cmocka_unit_test(test_n20_16_9_2_move_with_leaders_refused),
        cmocka_unit_test(test_n20_16_9_7_broken_leader_rallies_automatically),
        cmocka_unit_test(test_n20_16_9_7_rallied_leader_may_stay_broken),
        cmocka_unit_test(test_n20_16_9_8_rallying_on_a_leader),
        cmocka_unit_test(test_n20_16_9_wing_commanders_split_and_merge),
        cmocka_unit_test(test_n20_16_9_wing_commanders_only_french_turn_end),
        cmocka_unit_test(test_n20_16_7_1_elite_elan_bonus_on_six),
        cmocka_unit_test(test_n20_16_7_1_elan_below_six_no_effect),
        cmocka_unit_test(test_n20_16_7_1_elan_modifiers_commit_and_reserve),
        cmocka_unit_test(test_n20_16_7_1_elan_morale_one_and_never_defending),
        cmocka_unit_test(test_n20_16_7_no_elan_without_option),
        cmocka_unit_test(test_n20_16_7_4_unreliable_wavers_on_one),
        cmocka_unit_test(test_n20_16_7_4_unreliable_steady),
        cmocka_unit_test(test_n20_16_7_5_reluctant_advance),
        cmocka_unit_test(test_n20_16_9_random_games_with_leaders_end_and_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
