/*
 * test_n20_sambre.c - [17.1.1] Crossing the Sambre River (option sambre-crossing): the French
 * player's secret schedule at set-up (constraints A-D), the arrival procedure on the French Arrival
 * Table (its modifiers, the Delayed units chosen by the French player, cascading delays, NAPOLEON's
 * voluntary delay), what the Allied seat may see, and random games to a result.
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

#define SAMBRE (N20_OPT_SAMBRE | N20_OPT_BREAKDOWN)

/* the Extended game with `opts`, at the French set-up decision */
static n20_state *s_game(uint32_t opts, t_dice *d, t_events *ev) {
    n20_state *s = t_setup("waterloo20-extended", opts, d, ev);
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, ev ? &out : NULL);
    assert_int_equal(s->phase, N20_PH_SCHEDULE);
    return s;
}

static int s_arrive(const n20_state *s, const char *id) { return s->u[t_unit(s, id)].arrive; }
static int s_scheduled(const n20_state *s, const char *id) {
    return (s->u[t_unit(s, id)].flags & N20_UF_SCHEDULED) != 0;
}

static void s_ok(n20_state *s, const char *order, t_dice *d, t_events *ev) {
    brt_reject err;
    int rc = t_order(s, N20_FRENCH, order, d, ev, &err);
    if (rc != 0) fail_msg("'%s' rejected: %s", order, err.message);
}

/* the order is rejected citing [17.1.1] with a message naming the constraint */
static void s_refused(n20_state *s, const char *order, const char *constraint, t_dice *d) {
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, order, d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1.1");
    if (!strstr(err.message, constraint)) fail_msg("'%s': '%s' lacks '%s'", order, err.message, constraint);
}

/* ---- set-up ------------------------------------------------------------------------ */

/* [17.1.1] "the French player secretly arranges all his units face down on the Game Turn track":
 * the set-up decision is the French player's; every French reinforcement waits to be scheduled */
static void test_n20_17_1_1_setup_decision(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "schedule-reinforcements");
    assert_string_equal(p.rule, "17.1.1");
    const char *fr[] = {"REILLE", "PAJOL", "GARDE", "EXELMANS", "KELLERMANN", "DERLON", "VANDAMME", "GERARD",
                        "MILHAUD", "ARTILLERY", "LOBAU"};
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        assert_true(s_scheduled(s, fr[i]));
        assert_int_equal(s_arrive(s, fr[i]), 0);
    }
    assert_false(s_scheduled(s, "PIRCH")); /* the Allied schedule is the table's */
    assert_int_equal(s_arrive(s, "PIRCH"), 4);
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    assert_true(t_legal_has(s, N20_FRENCH, "schedule REILLE 1"));
    assert_false(t_legal_has(s, N20_FRENCH, "schedule GARDE 1")); /* C */
    free(s);
}

/* [17.1.1] `end` schedules every unit not yet placed on its [17.1] turn (the timeout default) */
static void test_n20_17_1_1_end_schedules_the_rest_as_printed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_ok(s, "schedule REILLE 3", &d, NULL);
    s_ok(s, "end", &d, NULL);
    assert_int_equal(s_arrive(s, "REILLE"), 3);
    assert_int_equal(s_arrive(s, "PAJOL"), 1);
    assert_int_equal(s_arrive(s, "GARDE"), 2);
    assert_int_equal(s_arrive(s, "VANDAMME"), 4);
    assert_int_equal(s_arrive(s, "ARTILLERY"), 6);
    assert_int_equal(s_arrive(s, "LOBAU"), 7);
    /* Turn 1: PAJOL alone is due: the arrival decision of the French Movement Phase */
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    free(s);
}

/* [17.1.1] A. "No more than three units can be scheduled to arrive on a single Game Turn, and no
 * more than two of those units can be Infantry units" */
static void test_n20_17_1_1_A_three_units_two_infantry(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_ok(s, "schedule REILLE 1", &d, NULL);
    s_ok(s, "schedule DERLON 1", &d, NULL);
    s_refused(s, "schedule VANDAMME 1", "A. no more than two Infantry", &d);
    assert_false(t_legal_has(s, N20_FRENCH, "schedule VANDAMME 1"));
    s_ok(s, "schedule PAJOL 1", &d, NULL);
    s_refused(s, "schedule EXELMANS 1", "A. no more than three units", &d);
    s_ok(s, "schedule EXELMANS 2", &d, NULL);
    free(s);
}

/* [17.1.1] B. "The four Cavalry units must be scheduled to arrive before the Artillery unit; ... the
 * Artillery can arrive on the same turn that the last Cavalry unit is scheduled to arrive" */
static void test_n20_17_1_1_B_cavalry_before_artillery(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_ok(s, "schedule ARTILLERY 5", &d, NULL);
    s_refused(s, "schedule MILHAUD 6", "B. the Cavalry units must be scheduled to arrive before the Artillery", &d);
    s_ok(s, "schedule MILHAUD 5", &d, NULL); /* the same turn as the Artillery */
    free(s);
    s = s_game(SAMBRE, &d, NULL);
    s_ok(s, "schedule KELLERMANN 4", &d, NULL);
    s_refused(s, "schedule ARTILLERY 3", "B. the Artillery unit cannot arrive before the Cavalry unit KELLERMANN", &d);
    /* the Artillery on Turn 1 leaves no room for the four Cavalry units by then */
    free(s);
    s = s_game(SAMBRE, &d, NULL);
    s_refused(s, "schedule ARTILLERY 1", "could not all be scheduled", &d);
    assert_false(t_legal_has(s, N20_FRENCH, "schedule ARTILLERY 1"));
    free(s);
}

/* [17.1.1] C. "The Imperial Guard unit cannot be scheduled to arrive on Game Turn 1" */
static void test_n20_17_1_1_C_guard_not_on_turn_1(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_refused(s, "schedule GARDE 1", "C. the Imperial Guard unit cannot be scheduled to arrive on Game Turn 1", &d);
    s_ok(s, "schedule GARDE 2", &d, NULL);
    free(s);
}

/* [17.1.1] D. with Leaders: no Leader on Turn 1; Leaders do not count towards the three; NAPOLEON on
 * the Imperial Guard's turn; NEY not before Turn 6 */
static void test_n20_17_1_1_D_leaders(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE | N20_OPT_LEADERS, &d, NULL);
    assert_true(s_scheduled(s, "GROUCHY"));
    assert_true(s_scheduled(s, "NAPOLEON2"));
    assert_true(s_scheduled(s, "NEY"));
    assert_false(s_scheduled(s, "NAPOLEON")); /* the 3-5 enters only combined */
    /* "No Leaders may enter play on Turn 1" */
    s_refused(s, "schedule GROUCHY 1", "D. no Leaders may enter play on Turn 1", &d);
    /* "Leader units do not count towards the maximum limit of three units per turn" */
    s_ok(s, "schedule PAJOL 3", &d, NULL);
    s_ok(s, "schedule EXELMANS 3", &d, NULL);
    s_ok(s, "schedule KELLERMANN 3", &d, NULL);
    s_ok(s, "schedule GROUCHY 3", &d, NULL);
    /* "The NAPOLEON Leader must be scheduled to arrive on the same turn as the Imperial Guard unit" */
    s_ok(s, "schedule GARDE 4", &d, NULL);
    s_refused(s, "schedule NAPOLEON2 5", "D. the NAPOLEON Leader must be scheduled to arrive on the same turn", &d);
    s_ok(s, "schedule NAPOLEON2 4", &d, NULL);
    /* "The NEY Leader cannot arrive before Turn 6" */
    s_refused(s, "schedule NEY 5", "D. the NEY Leader cannot arrive before Turn 6", &d);
    s_ok(s, "schedule NEY 6", &d, NULL);
    free(s);
    /* NAPOLEON first: the Imperial Guard must then come on his turn */
    s = s_game(SAMBRE | N20_OPT_LEADERS, &d, NULL);
    s_ok(s, "schedule NAPOLEON2 5", &d, NULL);
    s_refused(s, "schedule GARDE 4", "D. the Imperial Guard unit must arrive on the NAPOLEON Leader's turn", &d);
    s_ok(s, "schedule GARDE 5", &d, NULL);
    free(s);
}

/* [17.1.1] the units of another scenario or side are not scheduled; nothing is scheduled twice or
 * after the set-up */
static void test_n20_17_1_1_schedule_only_french_reinforcements_once(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_refused(s, "schedule PIRCH 3", "not a French reinforcement", &d);
    s_ok(s, "schedule REILLE 2", &d, NULL);
    s_refused(s, "schedule REILLE 3", "already scheduled", &d);
    s_refused(s, "schedule GERARD 30", "Game Turn track", &d);
    s_ok(s, "end", &d, NULL);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "schedule GERARD 3", &d, NULL, &err), -1);
    free(s);
}

/* ---- hidden information -------------------------------------------------------------- */

static int s_text_has(brt_buf *b, const char *needle) {
    buf_append(b, "", 1);
    int r = strstr((char *)b->data, needle) != NULL;
    b->len--;
    return r;
}

/* [17.1.1] "secretly": the Allied seat's view and events never name a unit on the schedule nor its
 * turn; the French seat sees them; a unit is named to both once it has arrived */
static void test_n20_17_1_1_schedule_is_secret(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_game(SAMBRE, &d, NULL);
    s_ok(s, "schedule REILLE 4", &d, NULL);
    int r = t_unit(s, "REILLE");
    assert_true(n20_fog_hidden_from(s, r, N20_ALLIED));
    assert_false(n20_fog_hidden_from(s, r, N20_FRENCH));
    assert_false(n20_fog_hidden_from(s, r, -1)); /* the log */
    brt_buf b;
    buf_init(&b);
    n20_view_text(s, N20_ALLIED, &b);
    assert_false(s_text_has(&b, "REILLE"));
    assert_true(s_text_has(&b, "PIRCH"));
    buf_reset(&b);
    n20_view_text(s, N20_FRENCH, &b);
    assert_true(s_text_has(&b, "REILLE"));
    assert_true(s_text_has(&b, "turn 4 area A"));
    buf_reset(&b);
    n20_view(s, N20_ALLIED, &b);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    int french = 0;
    for (size_t i = 0; i < v->n_units; i++) { /* the French Force Pool, never a reinforcement */
        if (strcmp(v->units[i]->side, "french") != 0) continue;
        french++;
        assert_string_equal(v->units[i]->status, "pool");
        assert_int_equal(v->units[i]->arrival_turn, 0);
    }
    assert_true(french > 0);
    n20__v1__view__free_unpacked(v, NULL);
    buf_free(&b);
    /* an Allied order naming it is refused as if no such unit existed, without its name */
    brt_reject err;
    s->phasing = N20_ALLIED; /* only to try an order from the Allied seat */
    int rc = t_order(s, N20_ALLIED, "delay REILLE", &d, NULL, &err);
    s->phasing = N20_FRENCH;
    assert_int_equal(rc, -1);
    assert_null(strstr(err.message, "REILLE"));
    free(s);
}

/* ---- the arrival procedure ----------------------------------------------------------- */

/* a game scheduled as [17.1] prints it (`end`), at the French Movement Phase start of `turn`
 * (Turn 1: straight from the set-up; later turns: set directly) */
static n20_state *s_at_turn(uint32_t opts, int turn, t_dice *d, t_events *ev) {
    n20_state *s = s_game(opts, d, ev);
    s_ok(s, "end", d, ev);
    if (turn > 1) {
        for (int u = 0; u < s->sc->nunits; u++) /* the units of the turns before have arrived */
            if ((s->u[u].flags & N20_UF_SCHEDULED) && s->u[u].arrive < turn) {
                s->u[u].flags &= (uint16_t)~N20_UF_SCHEDULED;
                s->u[u].arrive = (uint8_t)(turn - 1);
            }
        s->turn = (uint8_t)turn;
        s->phasing = N20_FRENCH;
        s->phase = N20_PH_MOVE_START;
        n20_out out = {t_events_emit, ev};
        n20_run(s, &d->d, ev ? &out : NULL);
    }
    return s;
}

/* [17.1.1] Turn 1: REILLE and PAJOL due: -2; a modified 2 or more: all arrive (R-17.1.1-table) */
static void test_n20_17_1_1_all_arrive(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_at_turn(SAMBRE, 1, &d, &ev);
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    assert_true(t_legal_has(s, N20_FRENCH, "forcemarch french"));
    assert_false(t_legal_has(s, N20_FRENCH, "delay REILLE")); /* only the Table Delays */
    s_refused(s, "delay REILLE", "only the NAPOLEON Leader may be Delayed voluntarily", &d);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0105", &d, NULL, &err), -1); /* not arrived */
    assert_int_equal(n20_arrival_modifier(s), -2);
    uint32_t die[] = {4};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_int_equal(t_dice_count(&d, "17.1.1 French Arrival Table"), 1);
    assert_true(t_events_has(&ev, "French Arrival Table: die 4, modifier -2 (2 units scheduled) = 2: all arrive"));
    assert_false(s_scheduled(s, "REILLE"));
    assert_false(s_scheduled(s, "PAJOL"));
    assert_int_equal(s->phase, N20_PH_MOVE);
    s_ok(s, "move REILLE 0105", &d, NULL);
    free(s);
}

/* [17.1.1] a modified 1: one of the two Delayed, the French player chooses which (R-17.1.1-which);
 * the Delayed unit tries again next turn, where it adds its -1: the cascade */
static void test_n20_17_1_1_some_delayed_french_choose_and_cascade(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_at_turn(SAMBRE, 1, &d, &ev);
    uint32_t die[] = {3};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_true(t_events_has(&ev, "= 1: 1 of 2 Delayed, the French player chooses"));
    assert_int_equal(s->phase, N20_PH_ARRIVAL_DELAY);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_true(t_legal_has(s, N20_FRENCH, "delay REILLE"));
    assert_true(t_legal_has(s, N20_FRENCH, "delay PAJOL"));
    assert_false(t_legal_has(s, N20_FRENCH, "end"));
    s_ok(s, "delay PAJOL", &d, &ev);
    assert_true(t_events_has(&ev, "PAJOL is Delayed to Turn 2"));
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_false(s_scheduled(s, "REILLE"));
    assert_true(s_scheduled(s, "PAJOL"));
    assert_int_equal(s_arrive(s, "PAJOL"), 2);
    /* Turn 2: GARDE, EXELMANS and the Delayed PAJOL: -3 */
    s->turn = 2;
    s->phase = N20_PH_MOVE_START;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    assert_int_equal(n20_arrival_modifier(s), -3);
    free(s);
}

/* [17.1.1] a modified 0 or less with two units: both Delayed, no choice to make */
static void test_n20_17_1_1_all_delayed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_at_turn(SAMBRE, 1, &d, &ev);
    uint32_t die[] = {1};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_true(t_events_has(&ev, "die 1, modifier -2 (2 units scheduled) = -1: all 2 Delayed"));
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s_arrive(s, "REILLE"), 2);
    assert_int_equal(s_arrive(s, "PAJOL"), 2);
    assert_true(s_scheduled(s, "REILLE"));
    free(s);
}

/* [17.1.1] +1 if the French player Forced March this turn (decided before the roll) */
static void test_n20_17_1_1_forced_march_plus_1(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_at_turn(SAMBRE, 1, &d, &ev);
    int m0 = s->morale[N20_FRENCH];
    s_ok(s, "forcemarch french", &d, &ev);
    assert_int_equal(s->morale[N20_FRENCH], m0 - 1);
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    assert_int_equal(n20_arrival_modifier(s), -1);
    assert_false(t_legal_has(s, N20_FRENCH, "forcemarch french"));
    uint32_t die[] = {2};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_true(t_events_has(&ev, "die 2, modifier -1 (2 units scheduled, Forced March) = 1: 1 of 2 Delayed"));
    free(s);
}

/* [17.1.1] +1 if NAPOLEON has not yet arrived (with [16.9] only); +1 with Berthier is Back! */
static void test_n20_17_1_1_napoleon_and_berthier_modifiers(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_at_turn(SAMBRE | N20_OPT_LEADERS, 1, &d, NULL);
    assert_int_equal(n20_arrival_modifier(s), -2 + 1);
    free(s);
    s = s_at_turn(SAMBRE | N20_OPT_BERTHIER_BACK, 1, &d, NULL);
    assert_int_equal(n20_arrival_modifier(s), -2 + 1);
    free(s);
    s = s_at_turn(SAMBRE | N20_OPT_LEADERS | N20_OPT_BERTHIER_BACK, 1, &d, NULL);
    assert_int_equal(n20_arrival_modifier(s), -2 + 2);
    t_events ev = {0};
    uint32_t die[] = {1};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_true(t_events_has(&ev, "die 1, modifier +0 (2 units scheduled, NAPOLEON not arrived, Berthier is Back!) = 1"));
    free(s);
}

/* [17.1.1] D. Leaders arrive automatically and do not affect the roll; NAPOLEON arriving this turn no
 * longer gives +1, unless the French player delays him voluntarily (R-17.1.1-arrival) */
static void test_n20_17_1_1_napoleon_voluntary_delay(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    /* Turn 2 as printed: GARDE, EXELMANS, GROUCHY, NAPOLEON (2-5) */
    n20_state *s = s_at_turn(SAMBRE | N20_OPT_LEADERS, 2, &d, &ev);
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    assert_true(t_legal_has(s, N20_FRENCH, "delay NAPOLEON2"));
    assert_false(t_legal_has(s, N20_FRENCH, "delay GROUCHY"));
    n20_state *keep = malloc(sizeof *keep);
    memcpy(keep, s, sizeof *keep);
    /* not delayed: the Leaders arrive first, the roll is -2 (no NAPOLEON bonus) */
    uint32_t die[] = {5};
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev);
    assert_true(t_events_has(&ev, "NAPOLEON2 arrives this turn at Area A (a Leader arrives automatically)"));
    assert_true(t_events_has(&ev, "die 5, modifier -2 (2 units scheduled) = 3: all arrive"));
    assert_false(s_scheduled(s, "GROUCHY"));
    /* [17.1] both arrived and neither entered: they may enter combined as NAPOLEON (3-5) */
    assert_true(t_legal_has(s, N20_FRENCH, "wing GROUCHY"));
    free(s);
    /* delayed: +1 for this roll, and NAPOLEON tries again on Turn 3 */
    s = keep;
    t_events ev2 = {0};
    s_ok(s, "delay NAPOLEON2", &d, &ev2);
    assert_true(t_events_has(&ev2, "NAPOLEON2 is Delayed to Turn 3 (voluntarily)"));
    assert_int_equal(s->phase, N20_PH_ARRIVAL);
    t_dice_script(&d, 1, die);
    s_ok(s, "end", &d, &ev2);
    assert_true(t_events_has(&ev2, "die 5, modifier -1 (2 units scheduled, NAPOLEON not arrived) = 4: all arrive"));
    assert_int_equal(s_arrive(s, "NAPOLEON2"), 3);
    assert_true(s_scheduled(s, "NAPOLEON2"));
    assert_false(t_legal_has(s, N20_FRENCH, "wing GROUCHY")); /* NAPOLEON has not arrived */
    free(s);
}

/* [17.1.1] a turn with no French unit scheduled has no arrival decision and no roll */
static void test_n20_17_1_1_no_units_no_roll(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_at_turn(SAMBRE, 8, &d, NULL);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(t_dice_count(&d, "17.1.1 French Arrival Table"), 0);
    free(s);
}

/* ---- random play ------------------------------------------------------------------------ */

static int s_rolls;

/* one random game (t_play_random), its rolls on the French Arrival Table added to s_rolls */
static void s_play(const char *scenario, uint32_t opts, uint64_t seed, int check, uint8_t hash[32]) {
    t_dice d;
    t_play_random(scenario, opts, seed, check, hash, &d);
    s_rolls += t_dice_count(&d, "17.1.1 French Arrival Table");
}

static void s_random(const char *scenario, uint32_t opts, int games) {
    const char *lg = getenv("BERTHIER_LONG");
    if (lg && *lg == '1') games *= 20;
    s_rolls = 0;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        s_play(scenario, opts, (uint64_t)g + 71, g == 0 ? 200 : 0, h1);
        s_play(scenario, opts, (uint64_t)g + 71, 0, h2);
        assert_memory_equal(h1, h2, 32);
    }
    assert_true(s_rolls > 0); /* the games did roll on the French Arrival Table */
}

/* [17.1.1] random games to a result, replayed identically */
static void test_n20_17_1_1_random_games(void **st) {
    (void)st;
    s_random("waterloo20-extended", SAMBRE, 4);
    s_random("waterloo20-opening", SAMBRE, 2);
}
static void test_n20_17_1_1_random_games_leaders_berthier(void **st) {
    (void)st;
    s_random("waterloo20-extended", SAMBRE | N20_OPT_LEADERS | N20_OPT_BERTHIER_BACK, 4);
    s_random("waterloo20-extended", SAMBRE | N20_OPT_LEADERS, 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_17_1_1_setup_decision),
        cmocka_unit_test(test_n20_17_1_1_end_schedules_the_rest_as_printed),
        cmocka_unit_test(test_n20_17_1_1_A_three_units_two_infantry),
        cmocka_unit_test(test_n20_17_1_1_B_cavalry_before_artillery),
        cmocka_unit_test(test_n20_17_1_1_C_guard_not_on_turn_1),
        cmocka_unit_test(test_n20_17_1_1_D_leaders),
        cmocka_unit_test(test_n20_17_1_1_schedule_only_french_reinforcements_once),
        cmocka_unit_test(test_n20_17_1_1_schedule_is_secret),
        cmocka_unit_test(test_n20_17_1_1_all_arrive),
        cmocka_unit_test(test_n20_17_1_1_some_delayed_french_choose_and_cascade),
        cmocka_unit_test(test_n20_17_1_1_all_delayed),
        cmocka_unit_test(test_n20_17_1_1_forced_march_plus_1),
        cmocka_unit_test(test_n20_17_1_1_napoleon_and_berthier_modifiers),
        cmocka_unit_test(test_n20_17_1_1_napoleon_voluntary_delay),
        cmocka_unit_test(test_n20_17_1_1_no_units_no_roll),
        cmocka_unit_test(test_n20_17_1_1_random_games),
        cmocka_unit_test(test_n20_17_1_1_random_games_leaders_berthier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
