/*
 * test_n20_cases_4_8.c - rule cases of Waterloo 20 [4.0]-[8.2.4] not covered by the other
 * n20 tests: sequence of play [4.0], Random Events [5.0], Damned Good Ground [5.1], Weather
 * [5.2]/[5.2.1], Movement [6.0]-[6.9], Zones of Control [7.0]-[7.7], Reaction [8.0]-[8.2.4],
 * and the worked examples of those sections. The inventory is docs/n20-cases/04-08.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* ---- helpers ---------------------------------------------------------------- */

static const char *s_kind(const n20_state *s) {
    static brt_pending p;
    n20_pending(s, &p);
    return p.kind;
}

/* ---- [4.0] sequence of play ----------------------------------------------- */

/* [4.0] a Game Turn is a First (French) and a Second (Allied) Player Turn, then the next turn */
static void test_n20_4_0_game_turn_is_two_player_turns(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->turn, 10);
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_true(t_events_has(&ev, "Turn 10 (16-June dusk), allied Player Turn"));
    assert_string_equal(s_kind(s), "move");
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->turn, 11);
    assert_int_equal(s->phasing, N20_FRENCH); /* the French player is the First player */
    assert_true(t_events_has(&ev, "Turn 11 (16-June evening), french Player Turn"));
    free(s);
}

/* [4.0] 1-4: events, movement, the Second Player's Reaction Phase, the First Player's Combat Phase */
static void test_n20_4_0_phases_in_order(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    t_top_card(s, 3);
    int ndraw = s->ndraw;
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "french draws #3 Intelligence Gathering")); /* 1. events */
    assert_int_equal(s->ndraw, ndraw - 1);
    assert_string_equal(s_kind(s), "move"); /* 2. movement */
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "reaction"); /* 3. the Second Player reacts */
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "declare-battles"); /* 4. the First Player's Combat Phase */
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    free(s);
}

/* [4.0] the Anti-French player commands both the Anglo-Dutch and the Prussian army; [6.1] only
 * the phasing player's units move */
static void test_n20_4_0_allied_seat_commands_two_armies(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int o = t_place(s, "ORANGE", 1005);
    int z = t_place(s, "ZIETEN", 808);
    t_place(s, "GERARD", 107);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0207", &d, NULL, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    assert_int_equal(t_order(s, N20_ALLIED, "move ORANGE 1006", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 0908", &d, NULL, &err), 0);
    assert_int_equal(s->u[o].hex, n20_hex(1006));
    assert_int_equal(s->u[z].hex, n20_hex(908));
    assert_int_equal(t_order(s, N20_ALLIED, "move GERARD 0207", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.1");
    free(s);
}

/* [4.0] 4. Recovery: In Contact markers [8.2.4] go after the battles of the Combat Phase; the
 * unit maintaining contact attacks at half strength */
static void test_n20_4_0_recovery_removes_in_contact(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "declare-battles");
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, &ev, &err), -1); /* [9.1] it must attack */
    assert_string_equal(err.rule, "9.1");
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> UXBRIDGE", &d, &ev, &err), 0);
    uint32_t r[] = {4}; /* 1 vs 2: column -1, die 4 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_true(s->u[g].flags & N20_UF_CONTACT); /* still In Contact during the battle */
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 1 vs 2 (terrain +0), differential -1, column -1, die 4: N"));
    assert_true(t_events_has(&ev, "[8.2.4] GERARD's In Contact marker is removed"));
    assert_false(s->u[g].flags & N20_UF_CONTACT);
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    free(s);
}

/* [4.0] 5. Night Operations only on a Night Game Turn */
static void test_n20_4_0_night_operations_only_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    int g = n20_unit_find(s, "GERARD");
    s->u[g].where = N20_U_BROKEN;
    s->phase = N20_PH_COMBAT_END;
    n20_run(s, &d.d, &out);
    assert_false(t_events_has(&ev, "Night Operations"));
    assert_int_equal(s->phasing, N20_ALLIED); /* straight on to the Allied Player Turn */
    assert_int_equal(s->u[g].where, N20_U_BROKEN);
    free(s);
    t_events ev2 = {0};
    n20_out out2 = {t_events_emit, &ev2};
    t_dice_init(&d, 1);
    s = t_empty(&d, 12, N20_FRENCH);
    s->u[g].where = N20_U_BROKEN;
    s->phase = N20_PH_COMBAT_END;
    n20_run(s, &d.d, &out2);
    assert_true(t_events_has(&ev2, "[14.0] french Night Operations"));
    assert_string_equal(s_kind(s), "rally");
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    free(s);
}

/* [4.0] 7. the deck is reshuffled at the end of a Night Game Turn (after the Second Player
 * Turn), not after the First Player Turn nor on a Day turn */
static void test_n20_4_0_7_reshuffle_at_end_of_night_turn(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 12, N20_FRENCH);
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_false(t_events_has(&ev, "reshuffled"));
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), 0);
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "[14.0 reshuffle at the end of the Night turn] the Event cards are reshuffled (12 cards)"));
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), 11); /* one die per card but the last */
    assert_int_equal(s->turn, 13);
    assert_int_equal(s->ndiscard, 1); /* only the card the French drew on Turn 13 */
    assert_int_equal(s->ndraw + s->ndiscard, 12);
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 11, N20_ALLIED); /* a Day turn */
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->turn, 12);
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), 0);
    free(s);
}

/* [4.0] 8. Sudden Death: a roll above the printed number continues the game; the roll is made only
 * at the end of a marked Game Turn */
static void test_n20_4_0_8_sudden_death_continues(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 19, N20_FRENCH);
    s->phase = N20_PH_TURN_END; /* end of the First Player Turn: no roll */
    n20_run(s, &d.d, &out);
    assert_int_equal(t_dice_count(&d, "4.0 sudden death"), 0);
    s->phase = N20_PH_TURN_END;
    uint32_t r[] = {2}; /* Turn 19 shows 1: 2 > 1 */
    t_dice_script(&d, 1, r);
    n20_run(s, &d.d, &out);
    assert_int_equal(t_dice_count(&d, "4.0 sudden death"), 1);
    assert_true(t_events_has(&ev, "[4.0] Sudden Death roll 2 against 1: play continues"));
    assert_false(s->over);
    assert_int_equal(s->turn, 20);
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 18, N20_ALLIED); /* no stop sign on Turn 18 */
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_int_equal(t_dice_count(&d, "4.0 sudden death"), 0);
    assert_int_equal(s->turn, 19);
    free(s);
}

/* [5.0] only the French player's Random Events Phase of the first Game Turn is skipped */
static void test_n20_5_0_skip_only_first_french_events(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 5);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_standard(&d);
    assert_int_equal(s->ndraw, 11);
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phasing, N20_ALLIED);
    assert_int_equal(s->ndraw, 10); /* the Allies draw on Turn 9 */
    assert_true(t_events_has(&ev, "allied draws #"));
    assert_false(t_events_has(&ev, "event-skipped"));
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->turn, 10);
    assert_int_equal(s->phasing, N20_FRENCH);
    assert_true(t_events_has(&ev, "french draws #")); /* and the French on Turn 10 */
    assert_false(t_events_has(&ev, "Random Events Phase of the first Game Turn is skipped"));
    free(s);
}

/* ---- [5.0] Random Events ----------------------------------------------------- */

/* [5.0] Dual Event card: perform only the drawing side's event (card #9) */
static void test_n20_5_0_dual_event_own_colour_only(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    int g = t_place(s, "GERARD", 107);
    t_top_card(s, 9);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "french draws #9 Sacrebleu!"));
    assert_int_equal(s->morale[N20_ALLIED], 6); /* blue event: enemy -1 */
    assert_int_equal(s->morale[N20_FRENCH], 8);
    assert_int_equal(s->move_mod, 0);           /* the Allied event is ignored */
    assert_int_equal(n20_move_allowance(s, g), 2);
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 10, N20_ALLIED);
    int z = t_place(s, "ZIETEN", 2512);
    t_top_card(s, 9);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->move_mod, -1); /* Allied event: Movement -1 */
    assert_int_equal(n20_move_allowance(s, z), 1);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    assert_int_equal(s->morale[N20_FRENCH], 8);
    free(s);
}

/* [5.0] an event that says so reshuffles the deck; a discarded event can occur again */
static void test_n20_5_0_event_reshuffle_and_recurrence(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_FRENCH);
    t_top_card(s, 3);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, &out);
    int c3 = t_card_index(s, 3), c12 = t_card_index(s, 12);
    assert_int_equal(s->ndiscard, 2); /* #12 (red title) and #3 */
    /* next turn the French draw #12 "A Change in the Weather" (reshuffle) */
    int k = -1;
    for (int i = 0; i < s->ndiscard; i++)
        if (s->discard[i] == c12) k = i;
    assert_true(k >= 0);
    s->discard[k] = s->discard[s->ndiscard - 1];
    s->ndiscard--;
    memmove(s->draw + 1, s->draw, s->ndraw);
    s->draw[0] = (uint8_t)c12;
    s->ndraw++;
    s->turn = 11;
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "french draws #12 A Change in the Weather"));
    assert_true(t_events_has(&ev, "[5.0 the event says to reshuffle] the Event cards are reshuffled (12 cards)"));
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), 11);
    assert_int_equal(s->ndiscard, 0);
    assert_int_equal(s->ndraw, 12);
    int has3 = 0;
    for (int i = 0; i < s->ndraw; i++)
        if (s->draw[i] == c3) has3 = 1;
    assert_true(has3); /* #3 may be drawn again */
    free(s);
}

/* ---- [5.1] Damned Good Ground ------------------------------------------------ */

/* [5.1] an Allied draw of the event offers the marker at the end of the Movement Phase, on either
 * side, on an Allied unit; the French drawing the same card get nothing */
static void test_n20_5_1_allied_draw_offers_marker(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_out out = {t_events_emit, &ev};
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    t_place(s, "PIRCH", 1510);
    t_place(s, "GERARD", 107);
    t_top_card(s, 4);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "allied draws #4 Steady, Lads!"));
    assert_string_equal(s_kind(s), "move"); /* not before the end of the Movement Phase */
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "good-ground");
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_true(t_legal_has(s, N20_ALLIED, "goodground PIRCH defense"));
    assert_true(t_legal_has(s, N20_ALLIED, "goodground PIRCH immune"));
    assert_true(t_legal_has(s, N20_ALLIED, "end"));
    assert_false(t_legal_has(s, N20_ALLIED, "goodground GERARD defense"));
    assert_int_equal(t_order(s, N20_ALLIED, "goodground GERARD immune", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "5.1");
    assert_int_equal(t_order(s, N20_ALLIED, "goodground PIRCH immune", &d, &ev, &err), 0);
    assert_int_equal(s->gg_unit, n20_unit_find(s, "PIRCH"));
    assert_int_equal(s->gg_immune, 1);
    assert_true(t_events_has(&ev, "[5.1] Good Ground (Artillery Immune) placed on PIRCH at 1510"));
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 10, N20_FRENCH);
    t_place(s, "GERARD", 107);
    t_top_card(s, 4);
    s->phase = N20_PH_EVENTS;
    n20_run(s, &d.d, NULL);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_not_equal(s->phase, N20_PH_GOOD_GROUND);
    assert_int_equal(s->gg_unit, 0xff);
    free(s);
}

/* [5.1] without the event there is no placement decision */
static void test_n20_5_1_no_marker_without_event(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    t_place(s, "PIRCH", 1510);
    assert_int_equal(t_order(s, N20_ALLIED, "goodground PIRCH defense", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.0"); /* not an answer to the Movement decision */
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_not_equal(s->phase, N20_PH_GOOD_GROUND);
    assert_int_equal(s->gg_unit, 0xff);
    free(s);
}

/* [5.1] drawn again: the marker may be moved to another unit and side, or left where it is */
static void test_n20_5_1_redraw_moves_or_keeps_marker(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int z = t_place(s, "ZIETEN", 2512);
    int p = t_place(s, "PIRCH", 1510);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(2512);
    s->gg_immune = 1;
    s->gg_event = 1;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0); /* declines */
    assert_int_equal(s->gg_unit, z);
    assert_int_equal(s->gg_immune, 1);
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 10, N20_ALLIED);
    t_place(s, "ZIETEN", 2512);
    t_place(s, "PIRCH", 1510);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(2512);
    s->gg_immune = 1;
    s->gg_event = 1;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "goodground PIRCH defense", &d, NULL, &err), 0);
    assert_int_equal(s->gg_unit, p);
    assert_int_equal(s->gg_hex, n20_hex(1510));
    assert_int_equal(s->gg_immune, 0);
    free(s);
}

/* [5.1] "+1 Terrain Defense" is cumulative with one other terrain benefit (Ligny: town) */
static void test_n20_5_1_defense_cumulative_with_town(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 707);
    int z = t_place(s, "ZIETEN", 808);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(808);
    s->gg_immune = 0;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    /* 4 vs 3 + 1 (town; the brook's +1 is not cumulative [9.4.1]) + 1 Good Ground */
    assert_true(t_events_has(&ev, "battle 1: 4 vs 5 (terrain +1), differential -1"));
    free(s);
}

/* [5.1] the "Artillery Immune" side gives no defence bonus against other attackers */
static void test_n20_5_1_immune_side_no_defense_bonus(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(506);
    s->gg_immune = 1;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {4}; /* +1, die 4 = DW */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 4 vs 3 (terrain +0), differential +1"));
    free(s);
}

/* [5.1] "Artillery Immune": the French Artillery attacks as a 2-strength unit even alongside
 * other attackers */
static void test_n20_5_1_immune_artillery_in_combined_attack(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ARTILLERY", 407);
    int z = t_place(s, "ZIETEN", 506);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(506);
    s->gg_immune = 1;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,ARTILLERY -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {1}; /* 6 vs 3: column +3, die 1 = EX */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 6 vs 3 (terrain +0), differential +3"));
    free(s);
}

/* [5.1] the marker is removed when its unit is Broken (R-5.1-remove) */
static void test_n20_5_1_removed_when_broken(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "DERLON", 407);
    int z = t_place(s, "ZIETEN", 506);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(506);
    s->gg_immune = 0;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,DERLON -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r[] = {6}; /* 7 vs 3 + 1: column +3, die 6 = DB */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 7 vs 4 (terrain +0), differential +3, column +3, die 6: DB"));
    assert_int_equal(s->u[z].where, N20_U_BROKEN);
    assert_int_equal(s->gg_unit, 0xff);
    free(s);
}

/* [5.1] the marker is removed when its unit leaves the hex by retreat, and another unit entering
 * that hex does not use it */
static void test_n20_5_1_removed_on_retreat_not_inherited(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    s->gg_unit = (uint8_t)z;
    s->gg_hex = n20_hex(506);
    s->gg_immune = 0;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t r2[] = {5}; /* 4 vs 3 + 1 (Good Ground): column 0, die 5 = DW */
    t_dice_script(&d, 1, r2);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 4 vs 4 (terrain +0), differential +0, column +0, die 5: DW"));
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 0507", &d, &ev, &err), 0);
    assert_int_equal(s->gg_unit, 0xff);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0); /* no advance */
    free(s);
    /* another Allied unit now in 0506 defends without the marker */
    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "PIRCH", 506);
    s->gg_unit = 0xff;
    s->gg_hex = n20_hex(506);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> PIRCH", &d, &ev2, &err), 0);
    t_dice_script(&d, 1, r2);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev2, &err), 0);
    assert_true(t_events_has(&ev2, "battle 1: 4 vs 3 (terrain +0)"));
    free(s);
}

/* [5.1] "until it leaves that hex for any reason": a move that comes back to the same hex has
 * still left it */
static void test_n20_5_1_removed_on_round_trip(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    int p = t_place(s, "PIRCH", 1510);
    s->gg_unit = (uint8_t)p;
    s->gg_hex = n20_hex(1510);
    assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 1511 1510", &d, &ev, &err), 0);
    assert_int_equal(s->u[p].hex, n20_hex(1510));
    assert_int_equal(s->gg_unit, 0xff);
    assert_true(t_events_has(&ev, "[5.1] the Good Ground marker is removed: PIRCH left its hex"));
    free(s);
}

/* [5.1] the marker is removed when its Cavalry unit disengages [8.2] */
static void test_n20_5_1_removed_on_disengage(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    int c = t_place(s, "COLLAERT", 506);
    s->gg_unit = (uint8_t)c;
    s->gg_hex = n20_hex(506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage COLLAERT 0507", &d, NULL, &err), 0);
    assert_int_equal(s->gg_unit, 0xff);
    free(s);
}

/* ---- [5.2] Weather -------------------------------------------------------------- */

/* [5.2] the Game Turn track gives each turn's weather (a printed Storm acts as Downpour, R-5.2-storm) */
static void test_n20_5_2_turn_track_weather(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    static const struct { int turn, w; } tw[] = {{9, N20_W_CLEAR}, {11, N20_W_CLOUDY}, {14, N20_W_DOWNPOUR},
                                                 {15, N20_W_DOWNPOUR}, {16, N20_W_MUD}, {17, N20_W_CLOUDY}};
    for (size_t i = 0; i < sizeof tw / sizeof tw[0]; i++) {
        s->turn = (uint8_t)tw[i].turn;
        assert_int_equal(n20_weather(s), tw[i].w);
    }
    assert_int_equal(s->sc->turns[15].weather, N20_W_STORM);
    free(s);
}

/* [5.2.1] Clear or Cloudy: no effect on strength, allowance, road bonus or artillery */
static void test_n20_5_2_1_cloudy_no_effect(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 11, N20_FRENCH); /* Cloudy */
    int r = t_place(s, "REILLE", 505);
    int a = t_place(s, "ARTILLERY", 1010);
    t_place(s, "DERLON", 105);
    assert_int_equal(n20_combat_strength(s, r, 1, 0, 0), 4);
    assert_int_equal(n20_combat_strength(s, r, 0, 0, 0), 4);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 4);
    assert_int_equal(n20_move_allowance(s, r), 2);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304 0404", &d, NULL, &err), 0);
    free(s);
}

/* [5.2.1] Showers: Infantry -1 only (no Showers turn is printed: the test sets one) */
static void test_n20_5_2_1_showers(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_scenario *sc = malloc(sizeof *sc);
    assert_non_null(sc);
    n20_state *s = t_empty(&d, 11, N20_FRENCH);
    memcpy(sc, s->sc, sizeof *sc);
    sc->turns[11].weather = N20_W_SHOWERS;
    s->sc = sc;
    assert_int_equal(n20_weather(s), N20_W_SHOWERS);
    int r = t_place(s, "REILLE", 505);
    int k = t_place(s, "KELLERMANN", 808);
    int a = t_place(s, "ARTILLERY", 1010);
    t_place(s, "DERLON", 105);
    assert_int_equal(n20_combat_strength(s, r, 1, 0, 0), 3);
    assert_int_equal(n20_combat_strength(s, r, 0, 0, 0), 3);
    assert_int_equal(n20_combat_strength(s, k, 1, 0, 0), 2); /* Cavalry unaffected */
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 4); /* Artillery still doubles */
    assert_int_equal(n20_move_allowance(s, r), 2);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304 0404", &d, NULL, &err), 0); /* road bonus */
    free(s);
    free(sc);
}

/* [5.2.1] Downpour: no road bonus, but Forced March still adds; Artillery does not double */
static void test_n20_5_2_1_downpour_no_road_bonus(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 14, N20_FRENCH); /* Downpour */
    int dl = t_place(s, "DERLON", 105);
    int a = t_place(s, "ARTILLERY", 1010);
    int k = t_place(s, "KELLERMANN", 808);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 2);
    assert_int_equal(n20_combat_strength(s, k, 1, 0, 0), 2); /* Cavalry is not weakened */
    assert_int_equal(n20_move_allowance(s, dl), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_non_null(strstr(err.message, "DERLON has 1 Movement Points and the path to 0304 costs 2"));
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, NULL, &err), 0);
    assert_int_equal(n20_move_allowance(s, dl), 2);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304 0404", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304", &d, NULL, &err), 0);
    free(s);
}

/* [5.2.1] Downpour: Minor River hexsides are Major River hexsides [7.1] (impassable, no ZOC, not
 * adjacent), a bridged minor river a bridged Major River */
static void test_n20_5_2_1_downpour_minor_river_is_major(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 13, N20_FRENCH); /* Cloudy: the brook is a Minor River */
    int v = t_place(s, "VANDAMME", 707);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0807", &d, NULL, &err), 0);
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 14, N20_FRENCH); /* Downpour */
    t_place(s, "VANDAMME", 707);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0807", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_non_null(strstr(err.message, "Major River"));
    int z = t_place(s, "ZIETEN", 808);
    assert_int_equal(n20_exerts_zoc(s, z, n20_hex(707)), 0);
    assert_int_equal(n20_adjacent_units(s, v, z), 0);
    int g = t_place(s, "GERARD", 1806); /* 1806-1807: the Lasne's bridge */
    int p = t_place(s, "PIRCH", 1807);
    assert_int_equal(n20_adjacent_units(s, g, p), 1);
    assert_int_equal(n20_in_ezoc(s, n20_hex(1806), N20_ALLIED, 1), 0); /* the phasing player ignores it */
    assert_int_equal(n20_in_ezoc(s, n20_hex(1806), N20_ALLIED, 0), 1);
    s->turn = 13;
    assert_int_equal(n20_exerts_zoc(s, z, n20_hex(707)), 1);
    free(s);
}

/* [5.2.1] Mud: Movement -1 but the road bonus [6.6] remains (only Downpour takes it away) */
static void test_n20_5_2_1_mud_keeps_road_bonus(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 16, N20_FRENCH); /* Mud */
    int dl = t_place(s, "DERLON", 105);
    assert_int_equal(n20_weather(s), N20_W_MUD);
    assert_int_equal(n20_move_allowance(s, dl), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304 0404", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_non_null(strstr(err.message, "DERLON has 1 Movement Points (+1 on road) and the path to 0404 costs 3"));
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 0205 0304", &d, NULL, &err), 0);
    free(s);
}

/* [5.2.1] Reminder / [6.2]: a unit can always move one hex, even at Movement Allowance zero
 * (Night + Downpour), but never across a prohibited hexside */
static void test_n20_5_2_1_always_one_hex(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 15, N20_FRENCH); /* Night, Storm = Downpour */
    int r = t_place(s, "REILLE", 505);
    assert_int_equal(n20_move_allowance(s, r), 0);
    assert_true(t_legal_has(s, N20_FRENCH, "move REILLE 0506"));
    assert_false(t_legal_has(s, N20_FRENCH, "move REILLE 0506 0507"));
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0506 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0506", &d, NULL, &err), 0);
    t_place(s, "VANDAMME", 707);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0807", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    free(s);
    /* Downpour Day turn and an event -1: 2 - 1 - 1 = 0 */
    t_dice_init(&d, 1);
    s = t_empty(&d, 14, N20_FRENCH);
    t_place(s, "REILLE", 505);
    s->move_mod = -1;
    assert_int_equal(n20_move_allowance(s, r), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move REILLE 0506", &d, NULL, &err), 0);
    free(s);
}

/* ---- [6.0] Movement ----------------------------------------------------------- */

/* [6.0] a path is a line of contiguous hexes */
static void test_n20_6_0_path_contiguous(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.0");
    assert_non_null(strstr(err.message, "not adjacent"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506 0507", &d, NULL, &err), 0);
    free(s);
}

/* [6.1] no movement outside the friendly Movement Phase: not in the Reaction Phase (except by
 * Disengagement), not in the Combat Phase */
static void test_n20_6_1_strict_sequence(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    int u = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.0");
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "declare-battles");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0405", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2");
    assert_int_equal(s->u[g].hex, n20_hex(505));
    assert_int_equal(s->u[u].hex, n20_hex(506));
    free(s);
}

/* [6.2] one hex is always allowed, even when it costs more than the allowance (a Minor River
 * crossing at Night) */
static void test_n20_6_2_one_hex_over_cost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 12, N20_FRENCH); /* Night: allowance 1 */
    int v = t_place(s, "VANDAMME", 707);
    assert_int_equal(n20_move_allowance(s, v), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0807", &d, NULL, &err), 0); /* costs 2 */
    t_place(s, "GERARD", 1409);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1410", &d, NULL, &err), -1); /* the Dyle */
    assert_string_equal(err.rule, "6.2");
    free(s);
}

/* [6.5] Marsh and Rough stop the unit too; it leaves freely at its next opportunity */
static void test_n20_6_5_marsh_rough_stop_then_leave(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 1411);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0606 0607", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.5");
    assert_non_null(strstr(err.message, "rugged hex 0606"));
    assert_int_equal(t_order(s, N20_FRENCH, "move DERLON 1510 1610", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.5");
    assert_non_null(strstr(err.message, "rugged hex 1510"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0606", &d, NULL, &err), 0);
    s->u[g].flags = 0; /* its next Movement Phase */
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0607 0608", &d, NULL, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(608));
    free(s);
}

/* [6.6] the worked example: a Cavalry unit with 3 MP entirely on a road spends up to 4 MP; a move
 * partly off the road gets no bonus */
static void test_n20_6_6_example_cavalry_four_on_road(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int k = t_place(s, "KELLERMANN", 105);
    assert_true(t_legal_has(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503"));
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503 0604", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2");
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0504", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.2"); /* 0404-0504 is off the road */
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503", &d, NULL, &err), 0);
    assert_int_equal(s->u[k].hex, n20_hex(503));
    free(s);
}

/* [6.7] a unit entering an EZOC stops; friendly ZOCs do not stop it */
static void test_n20_6_7_stop_in_ezoc_not_friendly_zoc(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 406); /* friendly, adjacent to 0505 and 0506 */
    t_place(s, "ZIETEN", 609);
    /* 0507 is not adjacent to 0609; 0608 is */
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506 0507 0608 0708", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.7");
    assert_non_null(strstr(err.message, "enemy ZOC at 0608"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506 0507 0608", &d, NULL, &err), 0);
    free(s);
}

/* ---- [7.0] Zones of Control --------------------------------------------------- */

/* [7.0] every unit (any type, either side) exerts a ZOC at all times; other units never negate
 * it; ZOCs reach Rugged terrain and cross Minor Rivers */
static void test_n20_7_0_zoc_always_never_negated(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int a = t_place(s, "ARTILLERY", 505);
    int z = t_place(s, "ZIETEN", 808);
    int c = t_place(s, "COLLAERT", 1004);
    t_place(s, "VANDAMME", 707); /* French unit in ZIETEN's ZOC */
    assert_int_equal(n20_exerts_zoc(s, a, n20_hex(405)), 1);
    assert_int_equal(n20_exerts_zoc(s, z, n20_hex(707)), 1);          /* across the brook */
    assert_int_equal(n20_in_ezoc(s, n20_hex(707), N20_ALLIED, 0), 1); /* French units do not negate it */
    assert_int_equal(n20_exerts_zoc(s, c, n20_hex(1003)), 1);         /* into the Bois de Bossu */
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_DECLARE;
    assert_int_equal(n20_exerts_zoc(s, a, n20_hex(405)), 1);
    assert_int_equal(n20_in_ezoc(s, n20_hex(808), N20_FRENCH, 0), 1);
    free(s);
}

/* [7.0] the worked example: the French unit in La Haye Sainte (town) exerts no ZOC into Mont St
 * Jean (town, British unit) nor into Hougoumont (fortified), but does into a clear hex (Prussian
 * unit). So the British unit is free to move; the Prussian unit is stuck and must be attacked. */
static void test_n20_7_0_example_la_haye_sainte(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 18, N20_ALLIED);
    int f = t_place(s, "DERLON", 1803);
    int o = t_place(s, "ORANGE", 1903);
    int z = t_place(s, "ZIETEN", 1804);
    assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1903)), 0);
    assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1802)), 0);
    assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1804)), 1);
    assert_int_equal(n20_exerts_zoc(s, o, n20_hex(1803)), 0); /* nor the British into La Haye Sainte */
    assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 1805", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    assert_int_equal(t_order(s, N20_ALLIED, "move ORANGE 2003", &d, NULL, &err), 0);
    (void)z;
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 18, N20_FRENCH);
    t_place(s, "DERLON", 1803);
    t_place(s, "ORANGE", 1903);
    t_place(s, "ZIETEN", 1804);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.1");
    assert_int_equal(t_order(s, N20_FRENCH, "declare DERLON -> ZIETEN", &d, NULL, &err), 0);
    free(s);
}

/* [7.0] no ZOC reaches into a Fortified hex: the unit in Hougoumont is never stuck, even with
 * enemy units adjacent in clear and town hexes */
static void test_n20_7_0_fortified_unit_not_stuck(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 18, N20_ALLIED);
    t_place(s, "REILLE", 1701);
    t_place(s, "DERLON", 1803);
    int r = t_place(s, "RESERVE", 1802);
    assert_int_equal(n20_in_ezoc(s, n20_hex(1802), N20_FRENCH, 0), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move RESERVE 1901 2001", &d, NULL, &err), 0);
    assert_int_equal(s->u[r].hex, n20_hex(2001));
    free(s);
}

/* [7.1] across a Major River without bridge units are not adjacent: no combat, no reaction */
static void test_n20_7_1_major_river_not_adjacent_for_combat_and_reaction(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int vh = t_place(s, "VONHOBE", 2109);
    t_place(s, "GERARD", 2010);
    t_place(s, "DERLON", 2210); /* 2109-2210: Major River */
    assert_int_equal(n20_reaction_eligible(s, vh), 0);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> VONHOBE", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2.2");
    assert_int_equal(t_order(s, N20_FRENCH, "declare DERLON -> VONHOBE", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2.2");
    free(s);
}

/* [7.1] at a bridged Major River: Countercharge across it; attack across it without obligation */
static void test_n20_7_1_bridge_countercharge_and_optional_attack(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int vh = t_place(s, "VONHOBE", 2109);
    t_place(s, "GERARD", 2110); /* across the Wavre bridge */
    assert_int_equal(n20_reaction_eligible(s, vh), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge VONHOBE -> GERARD"));
    uint32_t r[] = {4}; /* 2 (doubled) vs 2 + 1 (bridge): column -1, die 4 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge VONHOBE -> GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 2 vs 3 (terrain +1), differential -1, column -1, die 4: N"));
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "declare-battles");
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, &ev, &err), 0); /* not obliged */
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VONHOBE", 2109);
    t_place(s, "GERARD", 2110);
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> VONHOBE", &d, NULL, &err), 0); /* but may */
    free(s);
}

/* [7.1] the phasing player's unit moves past an enemy across a bridged Major River without
 * stopping [6.7] */
static void test_n20_7_1_bridge_move_past_without_stopping(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "THIELMANN", 2109); /* Wavre */
    int k = t_place(s, "KELLERMANN", 2111);
    assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 2110 2011 2012", &d, NULL, &err), 0);
    assert_int_equal(s->u[k].hex, n20_hex(2012));
    free(s);
}

/* [7.1] a unit may Maintain Contact across a bridged Major River */
static void test_n20_7_1_bridge_maintain_contact(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int vh = t_place(s, "VONHOBE", 2109);
    int g = t_place(s, "GERARD", 2110);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 2108", &d, NULL, &err), 0);
    assert_int_equal(s->u[vh].hex, n20_hex(2108));
    assert_string_equal(s_kind(s), "contact");
    assert_true(t_legal_has(s, N20_FRENCH, "contact GERARD"));
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, NULL, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(2109));
    assert_true(s->u[g].flags & N20_UF_CONTACT);
    free(s);
}

/* [8.2.2] (rulings R-8.2-bridged) an enemy Cavalry unit across a bridged Major River pins */
static void test_n20_8_2_2_pinned_across_bridge(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VONHOBE", 2109);
    t_place(s, "EXELMANS", 2110);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 2108", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.2");
    assert_false(t_legal_has(s, N20_ALLIED, "disengage VONHOBE 2108"));
    free(s);
}

/* [7.2] two units in each other's ZOC are locked: neither may move in its Movement Phase */
static void test_n20_7_2_mutually_locked(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "VANDAMME", 707);
    t_place(s, "ZIETEN", 808);
    t_place(s, "PIRCH", 708); /* a second ZOC on VANDAMME: no further effect */
    assert_int_equal(t_order(s, N20_FRENCH, "move VANDAMME 0607", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    s->phasing = N20_ALLIED;
    assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 0908", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    assert_false(t_legal_has(s, N20_ALLIED, "move ZIETEN 0908"));
    free(s);
}

/* [7.3] entering an EZOC costs no extra Movement Point */
static void test_n20_7_3_no_extra_cost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "ZIETEN", 508);
    assert_true(t_legal_has(s, N20_FRENCH, "move GERARD 0506 0507"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0506 0507", &d, NULL, &err), 0); /* 2 MP of 2 */
    assert_int_equal(s->u[g].hex, n20_hex(507));
    free(s);
}

/* [7.6] Advance after Combat ignores EZOCs */
static void test_n20_7_6_advance_into_ezoc(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "PIRCH", 607); /* its ZOC covers 0506, not 0505 */
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &ev, &err), 0);
    uint32_t rr[] = {3}; /* +1, die 3 = DW */
    t_dice_script(&d, 1, rr);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, ": DW"));
    assert_int_equal(t_order(s, N20_ALLIED, "retreat ZIETEN 0507", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "advance");
    assert_int_equal(n20_in_ezoc(s, n20_hex(506), N20_ALLIED, 0), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "advance REILLE 0506", &d, &ev, &err), 0);
    assert_int_equal(s->u[r].hex, n20_hex(506));
    assert_int_equal(t_dice_count(&d, "9.7.4 hazardous retreat (EZOC)") + t_dice_count(&d, "9.8.3 controlled advance"), 0);
    free(s);
}

/* ---- [8.0] Reaction ------------------------------------------------------------ */

/* [8.0] only Cavalry that begins the Reaction Phase adjacent to an enemy may react; no eligible
 * unit, no Reaction Phase */
static void test_n20_8_0_only_adjacent_cavalry_reacts(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "ZIETEN", 506);   /* infantry, adjacent */
    t_place(s, "UXBRIDGE", 509); /* cavalry, not adjacent */
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "declare-battles"); /* the Reaction Phase is skipped */
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "ZIETEN", 506);
    t_place(s, "UXBRIDGE", 605);
    t_place(s, "COLLAERT", 509);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"));
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge ZIETEN -> GERARD"));
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge ZIETEN -> GERARD", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.0");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage COLLAERT 0510", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.0");
    free(s);
}

/* [8.0] eligibility is fixed when the Reaction Phase begins: a Cavalry unit that an enemy unit
 * maintaining contact [8.2.4] comes next to may not react */
static void test_n20_8_0_eligible_only_if_adjacent_at_start(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    int c = t_place(s, "COLLAERT", 607); /* next to 0506, not to 0505 */
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0407", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, NULL, &err), 0);
    assert_int_equal(n20_reaction_eligible(s, c), 1); /* adjacent now ... */
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge COLLAERT -> GERARD"));
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge COLLAERT -> GERARD", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.0"); /* ... but not when the phase began */
    free(s);
}

/* [8.0] Reaction is voluntary: the Cavalry stands and is attacked normally */
static void test_n20_8_0_reaction_voluntary(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    int u = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    uint64_t rolls = d.d.rolls_made;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_equal(d.d.rolls_made, rolls);
    assert_int_equal(s->u[u].hex, n20_hex(506));
    assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.1");
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> UXBRIDGE", &d, NULL, &err), 0);
    free(s);
}

/* [8.1] the Countercharging Cavalry does not move first: only enemies already adjacent */
static void test_n20_8_1_countercharge_adjacent_only(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 508);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    uint64_t rolls = d.d.rolls_made;
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> DERLON", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.1");
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> DERLON"));
    assert_int_equal(d.d.rolls_made, rolls);
    free(s);
}

/* [8.1] a Countercharge is made only in the Reaction Phase, not in the Cavalry's own Combat Phase */
static void test_n20_8_1_countercharge_not_in_combat_phase(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    s->phase = N20_PH_DECLARE;
    uint64_t rolls = d.d.rolls_made;
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2");
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"));
    assert_int_equal(d.d.rolls_made, rolls);
    free(s);
}

/* [8.1] [8.1.1] a Routed Cavalry unit cannot Countercharge; [8.2] it may still Disengage */
static void test_n20_8_1_1_routed_no_countercharge_may_disengage(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    int u = t_place(s, "UXBRIDGE", 506);
    s->u[u].routed = 1 + N20_FRENCH;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_false(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"));
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.1.1");
    assert_true(t_legal_has(s, N20_ALLIED, "disengage UXBRIDGE 0507"));
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, NULL, &err), 0);
    assert_int_equal(s->u[u].hex, n20_hex(507));
    free(s);
}

/* [8.1.3] Selective Attack: one of two adjacent enemies; [8.1.3] the Countercharger still fights
 * normally in the ensuing Combat Phase */
static void test_n20_8_1_3_selective_attack(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 507);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD"));
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge UXBRIDGE -> DERLON"));
    uint32_t r[] = {1}; /* 4 vs 2: column +2, die 1 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 4 vs 2 (terrain +0), differential +2, column +2, die 1: N"));
    assert_int_equal(t_dice_count(&d, "9.6 combat"), 1);
    assert_string_equal(s_kind(s), "reaction");
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> UXBRIDGE", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.1"); /* DERLON is in its ZOC too */
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD,DERLON -> UXBRIDGE", &d, &ev, &err), 0);
    free(s);
}

/* [8.1.3] several Cavalry units combine against one enemy unit (not against several); [8.1.3]
 * normal Advance after Combat follows, with the Controlled Advance roll [9.8.3] */
static void test_n20_8_1_3_combined_countercharge_and_advance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "DERLON", 705); /* adjacent to COLLAERT only */
    int u = t_place(s, "UXBRIDGE", 506);
    t_place(s, "COLLAERT", 606);
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "countercharge COLLAERT,UXBRIDGE -> GERARD"));
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE,COLLAERT -> GERARD,DERLON", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "8.1.3");
    uint32_t r[] = {2, 6}; /* (2+1)x2 = 6 vs 2: column +4, die 2 = DW; controlled advance 6-1 = 5: kept */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE,COLLAERT -> GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 6 vs 2 (terrain +0), differential +4, column +4, die 2: DW"));
    assert_string_equal(s_kind(s), "retreat");
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_order(s, N20_FRENCH, "retreat GERARD 0405", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(405));
    assert_int_equal(t_dice_count(&d, "9.8.3 controlled advance"), 1);
    assert_true(t_events_has(&ev, "Controlled Advance roll 6 (-1 heavy): control Kept"));
    assert_string_equal(s_kind(s), "advance");
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    assert_int_equal(t_order(s, N20_ALLIED, "advance UXBRIDGE 0505", &d, &ev, &err), 0);
    assert_int_equal(s->u[u].hex, n20_hex(505));
    assert_string_equal(s_kind(s), "reaction");
    free(s);
}

/* [8.1.4] no doubling when Countercharging enemy Cavalry */
static void test_n20_8_1_4_not_doubled_against_cavalry(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "MILHAUD", 505);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    uint32_t r[] = {2}; /* 2 vs 1: column +1, die 2 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> MILHAUD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 2 vs 1 (terrain +0), differential +1, column +1, die 2: N"));
    free(s);
}

/* [8.2.1] Disengagement only in the Reaction Phase: not in the unit's own Movement Phase (where
 * it is stuck [6.8]) nor in a Combat Phase */
static void test_n20_8_2_1_disengage_only_in_reaction(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.0");
    assert_int_equal(t_order(s, N20_ALLIED, "move UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.8");
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2");
    free(s);
}

/* [8.2.3] one hex into a vacant hex not in an EZOC and not across a prohibited hexside */
static void test_n20_8_2_3_one_hex_not_across_major_river(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 1508);
    int v = t_place(s, "VONHOBE", 1509);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 1410", &d, NULL, &err), -1); /* the Dyle */
    assert_string_equal(err.rule, "8.2.3");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 1409", &d, NULL, &err), -1); /* EZOC */
    assert_string_equal(err.rule, "8.2.3");
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 1510 1511", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.3"); /* ends in the first vacant hex */
    assert_false(t_legal_has(s, N20_ALLIED, "disengage VONHOBE 1410"));
    assert_true(t_legal_has(s, N20_ALLIED, "disengage VONHOBE 1510"));
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 1510", &d, NULL, &err), 0); /* the ford */
    assert_int_equal(s->u[v].hex, n20_hex(1510));
    free(s);
}

/* [8.2.3] through friendly-occupied hexes not in an EZOC, only if no vacant hex is open, one
 * hex at a time until no longer stacked */
static void test_n20_8_2_3_through_friendly_units(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);
    t_place(s, "ZIETEN", 507);
    int u = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    /* 0407 and 0607 are vacant: no passing through ZIETEN */
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507 0508", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.3");
    free(s);
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GERARD", 505);   /* EZOC: 0406 and 0606 */
    t_place(s, "ZIETEN", 507);
    t_place(s, "PIRCH", 407);
    t_place(s, "THIELMANN", 607);
    t_place(s, "BULOW", 406);    /* friendly, but in the EZOC */
    u = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.3"); /* must not end stacked */
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0406 0306", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.3"); /* 0406 is in an EZOC */
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507 0508 0509", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.3");
    assert_true(t_legal_has(s, N20_ALLIED, "disengage UXBRIDGE 0507 0508"));
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507 0508", &d, NULL, &err), 0);
    assert_int_equal(s->u[u].hex, n20_hex(508));
    free(s);
}

/* [8.2.4] only one enemy unit that was adjacent maintains contact; not Artillery (R-8.2.4-who) */
static void test_n20_8_2_4_who_maintains_contact(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 505);
    t_place(s, "ARTILLERY", 406);
    t_place(s, "DERLON", 305); /* not adjacent to 0506 */
    t_place(s, "REILLE", 407); /* adjacent to 0506 */
    t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0607", &d, NULL, &err), 0);
    assert_string_equal(s_kind(s), "contact");
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_true(t_legal_has(s, N20_FRENCH, "contact GERARD"));
    assert_true(t_legal_has(s, N20_FRENCH, "contact REILLE"));
    assert_false(t_legal_has(s, N20_FRENCH, "contact ARTILLERY"));
    assert_false(t_legal_has(s, N20_FRENCH, "contact DERLON"));
    assert_int_equal(t_order(s, N20_FRENCH, "contact ARTILLERY", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.4");
    assert_int_equal(t_order(s, N20_FRENCH, "contact DERLON", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "8.2.4");
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, NULL, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(506));
    assert_true(t_legal_has(s, N20_ALLIED, "end")); /* back to the Reaction Phase */
    assert_int_equal(t_order(s, N20_FRENCH, "contact REILLE", &d, NULL, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    free(s);
}

/* [8.2.4] In Contact: half strength when defending (terrain not halved), no Advance after Combat */
static void test_n20_8_2_4_in_contact_defends_half_no_advance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GERARD", 709);
    t_place(s, "VONHOBE", 809); /* Sombreffe (town), across the brook */
    t_place(s, "ROEDER", 810);  /* also adjacent to GERARD across the brook */
    s->morale[N20_FRENCH] = 6;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_string_equal(s_kind(s), "reaction");
    /* VONHOBE disengages; GERARD follows into Sombreffe and is Countercharged there by ROEDER */
    assert_int_equal(t_order(s, N20_ALLIED, "disengage VONHOBE 0909", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "contact GERARD", &d, &ev, &err), 0);
    assert_int_equal(s->u[g].hex, n20_hex(809));
    assert_int_equal(n20_combat_strength(s, g, 0, 0, 0), 1);
    uint32_t r[] = {3}; /* ROEDER 1 x2 = 2 vs 1 + 1 (Sombreffe town): column +0, die 3 = N */
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge ROEDER -> GERARD", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "battle 1: 2 vs 2 (terrain +1), differential +0, column +0, die 3: N"));
    free(s);
    /* the unit In Contact wins its attack but cannot advance */
    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    g = t_place(s, "REILLE", 505);
    int u = t_place(s, "UXBRIDGE", 506);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "disengage UXBRIDGE 0507", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "contact REILLE", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE -> UXBRIDGE", &d, &ev2, &err), 0);
    uint32_t r2[] = {4}; /* 2 vs 2: column 0, die 4 = DW */
    t_dice_script(&d, 1, r2);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev2, &err), 0);
    assert_true(t_events_has(&ev2, "battle 1: 2 vs 2 (terrain +0), differential +0, column +0, die 4: DW"));
    assert_string_equal(s_kind(s), "retreat");
    assert_int_equal(t_order(s, N20_ALLIED, "retreat UXBRIDGE 0608", &d, &ev2, &err), 0);
    assert_int_equal(s->u[u].hex, n20_hex(608));
    assert_int_not_equal(s->phase, N20_PH_ADVANCE); /* nobody may advance into 0507 */
    assert_int_equal(s->u[g].hex, n20_hex(506));
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_4_0_game_turn_is_two_player_turns),
        cmocka_unit_test(test_n20_4_0_phases_in_order),
        cmocka_unit_test(test_n20_4_0_allied_seat_commands_two_armies),
        cmocka_unit_test(test_n20_4_0_recovery_removes_in_contact),
        cmocka_unit_test(test_n20_4_0_night_operations_only_at_night),
        cmocka_unit_test(test_n20_4_0_7_reshuffle_at_end_of_night_turn),
        cmocka_unit_test(test_n20_4_0_8_sudden_death_continues),
        cmocka_unit_test(test_n20_5_0_skip_only_first_french_events),
        cmocka_unit_test(test_n20_5_0_dual_event_own_colour_only),
        cmocka_unit_test(test_n20_5_0_event_reshuffle_and_recurrence),
        cmocka_unit_test(test_n20_5_1_allied_draw_offers_marker),
        cmocka_unit_test(test_n20_5_1_no_marker_without_event),
        cmocka_unit_test(test_n20_5_1_redraw_moves_or_keeps_marker),
        cmocka_unit_test(test_n20_5_1_defense_cumulative_with_town),
        cmocka_unit_test(test_n20_5_1_immune_side_no_defense_bonus),
        cmocka_unit_test(test_n20_5_1_immune_artillery_in_combined_attack),
        cmocka_unit_test(test_n20_5_1_removed_when_broken),
        cmocka_unit_test(test_n20_5_1_removed_on_retreat_not_inherited),
        cmocka_unit_test(test_n20_5_1_removed_on_round_trip),
        cmocka_unit_test(test_n20_5_1_removed_on_disengage),
        cmocka_unit_test(test_n20_5_2_turn_track_weather),
        cmocka_unit_test(test_n20_5_2_1_cloudy_no_effect),
        cmocka_unit_test(test_n20_5_2_1_showers),
        cmocka_unit_test(test_n20_5_2_1_downpour_no_road_bonus),
        cmocka_unit_test(test_n20_5_2_1_downpour_minor_river_is_major),
        cmocka_unit_test(test_n20_5_2_1_mud_keeps_road_bonus),
        cmocka_unit_test(test_n20_5_2_1_always_one_hex),
        cmocka_unit_test(test_n20_6_0_path_contiguous),
        cmocka_unit_test(test_n20_6_1_strict_sequence),
        cmocka_unit_test(test_n20_6_2_one_hex_over_cost),
        cmocka_unit_test(test_n20_6_5_marsh_rough_stop_then_leave),
        cmocka_unit_test(test_n20_6_6_example_cavalry_four_on_road),
        cmocka_unit_test(test_n20_6_7_stop_in_ezoc_not_friendly_zoc),
        cmocka_unit_test(test_n20_7_0_zoc_always_never_negated),
        cmocka_unit_test(test_n20_7_0_example_la_haye_sainte),
        cmocka_unit_test(test_n20_7_0_fortified_unit_not_stuck),
        cmocka_unit_test(test_n20_7_1_major_river_not_adjacent_for_combat_and_reaction),
        cmocka_unit_test(test_n20_7_1_bridge_countercharge_and_optional_attack),
        cmocka_unit_test(test_n20_7_1_bridge_move_past_without_stopping),
        cmocka_unit_test(test_n20_7_1_bridge_maintain_contact),
        cmocka_unit_test(test_n20_8_2_2_pinned_across_bridge),
        cmocka_unit_test(test_n20_7_2_mutually_locked),
        cmocka_unit_test(test_n20_7_3_no_extra_cost),
        cmocka_unit_test(test_n20_7_6_advance_into_ezoc),
        cmocka_unit_test(test_n20_8_0_only_adjacent_cavalry_reacts),
        cmocka_unit_test(test_n20_8_0_eligible_only_if_adjacent_at_start),
        cmocka_unit_test(test_n20_8_0_reaction_voluntary),
        cmocka_unit_test(test_n20_8_1_countercharge_adjacent_only),
        cmocka_unit_test(test_n20_8_1_countercharge_not_in_combat_phase),
        cmocka_unit_test(test_n20_8_1_1_routed_no_countercharge_may_disengage),
        cmocka_unit_test(test_n20_8_1_3_selective_attack),
        cmocka_unit_test(test_n20_8_1_3_combined_countercharge_and_advance),
        cmocka_unit_test(test_n20_8_1_4_not_doubled_against_cavalry),
        cmocka_unit_test(test_n20_8_2_1_disengage_only_in_reaction),
        cmocka_unit_test(test_n20_8_2_3_one_hex_not_across_major_river),
        cmocka_unit_test(test_n20_8_2_3_through_friendly_units),
        cmocka_unit_test(test_n20_8_2_4_who_maintains_contact),
        cmocka_unit_test(test_n20_8_2_4_in_contact_defends_half_no_advance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
