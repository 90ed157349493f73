/*
 * test_n20_cards.c - "Keep this card" Event cards [5.0] and the differential
 * caps legal() offers for Voluntary Differential Reduction [9.5].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

/* Start `side`'s player turn with card `number` on top of the Draw Pile. */
static void s_draw_next(n20_state *s, t_dice *d, t_events *ev, int side, int turn, unsigned number) {
    int c = t_card_index(s, number);
    assert_true(c >= 0);
    /* take the card out of wherever it is and put it on top of the Draw Pile */
    int n = 0;
    uint8_t rest[N20_MAX_CARDS];
    for (int i = 0; i < s->ndraw; i++)
        if (s->draw[i] != c) rest[n++] = s->draw[i];
    s->draw[0] = (uint8_t)c;
    memcpy(s->draw + 1, rest, (size_t)n);
    s->ndraw = (uint8_t)(n + 1);
    int m = 0;
    for (int i = 0; i < s->ndiscard; i++)
        if (s->discard[i] != c) s->discard[m++] = s->discard[i];
    s->ndiscard = (uint8_t)m;
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)side;
    s->phase = N20_PH_EVENTS;
    s->first_turn_done = 1;
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, &out);
}

/* [5.0] "Keep this card": the drawer holds it face up; it is not discarded on the draw */
static void test_n20_5_0_keep_this_card_is_held_not_discarded(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int c8 = t_card_index(s, 8);
    int ndiscard = s->ndiscard;
    s_draw_next(s, &d, &ev, N20_ALLIED, 10, 8);
    assert_true(t_events_has(&ev, "allied keeps #8 March to the Guns"));
    assert_true(s->kept[N20_ALLIED] & (1u << c8));
    assert_int_equal(s->kept[N20_FRENCH], 0);
    for (int i = 0; i < s->ndiscard; i++) assert_int_not_equal(s->discard[i], c8);
    for (int i = 0; i < s->ndraw; i++) assert_int_not_equal(s->draw[i], c8);
    assert_int_equal(s->ndiscard, ndiscard);
    /* the view shows it face up */
    brt_buf v;
    buf_init(&v);
    assert_int_equal(n20_view_text(s, N20_FRENCH, &v), 0);
    buf_append(&v, "", 1);
    assert_non_null(strstr((const char *)v.data, "allied keeps Event card #8"));
    buf_free(&v);
    free(s);
}

/* [5.0] a Dual Event keeps only for the side whose event says so: #7 is kept by the French
 * only; the Allied half is "none" */
static void test_n20_5_0_keep_is_per_side_of_a_dual_event(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int c7 = t_card_index(s, 7);
    s_draw_next(s, &d, &ev, N20_ALLIED, 10, 7);
    assert_int_equal(s->kept[N20_ALLIED], 0);
    assert_int_equal(s->discard[s->ndiscard - 1], c7);
    t_events ev2 = {0};
    s_draw_next(s, &d, &ev2, N20_FRENCH, 11, 7);
    assert_true(s->kept[N20_FRENCH] & (1u << c7));
    free(s);
}

/* [5.0] [12.2.1] using a kept card: a free Forced March, and the card goes to the Discard Pile */
static void test_n20_5_0_kept_card_pays_a_forced_march_then_is_discarded(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int c8 = t_card_index(s, 8);
    s_draw_next(s, &d, &ev, N20_ALLIED, 10, 8);
    assert_int_equal(s->phase, N20_PH_MOVE);
    s->morale[N20_ALLIED] = 0; /* no Morale Point to spend: only the card can pay */
    assert_int_equal(t_legal_count_sub(s, N20_ALLIED, "forcemarch prussian card 8"), 1);
    assert_int_equal(t_legal_count_sub(s, N20_ALLIED, "forcemarch anglo card 8"), 1);
    assert_int_equal(t_legal_count_sub(s, N20_ALLIED, "forcemarch french"), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "12.2.1");
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo card 7", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "5.0");
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo card 8", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], 0);
    assert_int_equal(s->fm[N20_ARMY_ANGLO], 1);
    assert_int_equal(s->kept[N20_ALLIED], 0);
    assert_int_equal(s->discard[s->ndiscard - 1], c8);
    assert_true(t_events_has(&ev, "kept card #8: no Morale cost"));
    assert_true(t_events_has(&ev, "allied discards kept #8 March to the Guns: used"));
    /* used once: the Prussians cannot march on the same card */
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch prussian card 8", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "5.0");
    assert_int_equal(t_legal_count_sub(s, N20_ALLIED, "card 8"), 0);
    free(s);
}

/* [5.0] a kept card may wait for a later turn, and the other side cannot use it */
static void test_n20_5_0_kept_card_usable_on_a_later_turn_only_by_its_holder(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    int c7 = t_card_index(s, 7);
    s_draw_next(s, &d, &ev, N20_FRENCH, 9, 7);
    assert_true(s->kept[N20_FRENCH] & (1u << c7));
    /* the Allies hold nothing */
    s_draw_next(s, &d, &ev, N20_ALLIED, 9, 3);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo card 7", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "5.0");
    /* the next French turn (a day turn): still kept, still usable */
    s_draw_next(s, &d, &ev, N20_FRENCH, 10, 4);
    assert_true(s->kept[N20_FRENCH] & (1u << c7));
    s->morale[N20_FRENCH] = 3;
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french card 7", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 3);
    assert_int_equal(s->kept[N20_FRENCH], 0);
    free(s);
}

/* [5.0] an unused kept card is discarded at the beginning of its holder's next Night turn,
 * and a card kept from a Night turn's own draw lasts to the next Night */
static void test_n20_5_0_kept_card_discarded_at_next_night_turn(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int c8 = t_card_index(s, 8);
    int night = -1;
    for (int t = 10; t < N20_MAX_TURNS && night < 0; t++)
        if (s->sc->turns[t].defined && s->sc->turns[t].night) night = t;
    assert_true(night > 10);
    s_draw_next(s, &d, &ev, N20_ALLIED, 10, 8);
    assert_true(s->kept[N20_ALLIED] & (1u << c8));
    /* the French Night turn does not touch the Allied card */
    t_events ev2 = {0};
    s_draw_next(s, &d, &ev2, N20_FRENCH, night, 3);
    assert_true(s->kept[N20_ALLIED] & (1u << c8));
    /* the Allied Night turn begins: discarded before the draw */
    t_events ev3 = {0};
    s_draw_next(s, &d, &ev3, N20_ALLIED, night, 8);
    assert_true(t_events_has(&ev3, "allied discards kept #8 March to the Guns: its holder's Night turn begins"));
    /* ... and the same card drawn again that Night is kept anew */
    assert_true(t_events_has(&ev3, "allied keeps #8"));
    assert_true(s->kept[N20_ALLIED] & (1u << c8));
    free(s);
}

/* [5.0] kept cards stay out of a reshuffle: they lie face up in front of their holder */
static void test_n20_5_0_kept_card_not_reshuffled(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    int c8 = t_card_index(s, 8);
    s_draw_next(s, &d, &ev, N20_ALLIED, 10, 8);
    n20_out out = {t_events_emit, &ev};
    n20_deck_reshuffle(s, &d.d, &out, "test");
    for (int i = 0; i < s->ndraw; i++) assert_int_not_equal(s->draw[i], c8);
    assert_int_equal(s->ndraw + s->ndiscard + 1, s->sc->ncards - 1); /* #13 is out of the game */
    assert_true(s->kept[N20_ALLIED] & (1u << c8));
    free(s);
}

/* [5.0] R-5.0-empty: an empty Draw Pile at a draw is refilled from the Discard Pile first */
static void test_n20_5_0_empty_draw_pile_reshuffles_discards(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    /* every card in play into the Discard Pile */
    for (int i = 0; i < s->ndraw; i++) s->discard[s->ndiscard++] = s->draw[i];
    s->ndraw = 0;
    int before = s->ndiscard;
    s->phase = N20_PH_EVENTS;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "[5.0 the Draw Pile is empty (rulings R-5.0-empty)] the Event cards are reshuffled"));
    assert_true(t_events_has(&ev, "allied draws #"));
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), before - 1); /* Fisher-Yates: n-1 rolls */
    /* one card drawn: it is in the Discard Pile again (or kept), the rest in the Draw Pile */
    int kept = s->kept[N20_ALLIED] ? 1 : 0;
    assert_int_equal(s->ndraw + s->ndiscard + kept, before);
    assert_int_equal(s->ndraw, before - 1);
    free(s);
}

/* [5.0] the kept cards are part of the state's canonical encoding (replay checkpoints) */
static void test_n20_5_0_kept_cards_are_encoded(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    brt_buf a, b;
    buf_init(&a);
    buf_init(&b);
    assert_int_equal(n20_encode(s, &a), 0);
    s->kept[N20_ALLIED] = 1u << t_card_index(s, 8);
    assert_int_equal(n20_encode(s, &b), 0);
    assert_true(a.len != b.len || memcmp(a.data, b.data, a.len) != 0);
    buf_free(&a);
    buf_free(&b);
    free(s);
}

/* [9.5] legal() lists every cap that changes the CRT column, with and without reserves,
 * and each one is accepted; the battle resolves at the capped column */
static void test_n20_9_5_legal_lists_differential_caps(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "GARDE", 505);
    t_place(s, "PIRCH", 506);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 0; /* no reserves: only the no-reserve resolves */
    s->morale[N20_ALLIED] = 0;
    assert_int_equal(t_order(s, N20_FRENCH, "declare GARDE -> PIRCH", &d, &ev, &err), 0);
    int ncols = s->sc->crt_hi - s->sc->crt_lo + 1;
    /* uncapped plus a cap at every column but the rightmost */
    assert_int_equal(t_legal_count_sub(s, N20_FRENCH, "resolve"), ncols);
    assert_int_equal(t_legal_count_sub(s, N20_FRENCH, "cap"), ncols - 1);
    char want[64];
    snprintf(want, sizeof want, "cap %d", s->sc->crt_lo);
    assert_int_equal(t_legal_count_sub(s, N20_FRENCH, want), 1);
    snprintf(want, sizeof want, "cap %d", s->sc->crt_hi);
    assert_int_equal(t_legal_count_sub(s, N20_FRENCH, want), 0);
    /* GARDE (strength > PIRCH) capped at 0: the 0 column is used, whatever the odds */
    uint32_t r[] = {4};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1 cap 0", &d, &ev, &err), 0);
    if (s->phase == N20_PH_DEF_RESERVE) assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_true(t_events_has(&ev, "differential +0, column +0, die 4"));
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_5_0_keep_this_card_is_held_not_discarded),
        cmocka_unit_test(test_n20_5_0_keep_is_per_side_of_a_dual_event),
        cmocka_unit_test(test_n20_5_0_kept_card_pays_a_forced_march_then_is_discarded),
        cmocka_unit_test(test_n20_5_0_kept_card_usable_on_a_later_turn_only_by_its_holder),
        cmocka_unit_test(test_n20_5_0_kept_card_discarded_at_next_night_turn),
        cmocka_unit_test(test_n20_5_0_kept_card_not_reshuffled),
        cmocka_unit_test(test_n20_5_0_kept_cards_are_encoded),
        cmocka_unit_test(test_n20_5_0_empty_draw_pile_reshuffles_discards),
        cmocka_unit_test(test_n20_9_5_legal_lists_differential_caps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
