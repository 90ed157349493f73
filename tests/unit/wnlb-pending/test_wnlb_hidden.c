/*
 * test_wnlb_hidden.c - the hidden information of Napoleon's Last Battle through the core's
 * visibility (docs/trust.md): each hand is its owner's alone [3.2] [4.0], the unused portion
 * nobody's [6.0], the counts of cards in hand public, the British and Prussian hands secret
 * from each other [6.0], sealed bids [7.0] and battle cards [9.3], and the two cards
 * Napoleon's Health removes [11.7] known to the French seat only. And a leak test over random
 * games: every event a seat (or the spectators) receives and every view it gets is checked
 * against the hands, taken from the full state (card_loc), never from the visibility code
 * under test: no card of another seat's hand or of the unused portion reaches it.
 * docs/wnlb-cases/hidden.md maps every case to its test.
 */
#include "wnlb_t.h"

#define S_SPECTATORS (-1)

/* 1 if party (a seat, or S_SPECTATORS) receives an event of that mask */
static int s_receives(uint32_t mask, int party) {
    if (mask == BRT_SEATS_ALL) return 1;
    if (party == S_SPECTATORS) return (mask & BRT_SEATS_SPECTATORS) != 0;
    return (mask & (1u << party)) != 0;
}

/* ---- the truth from the full state ---------------------------------------------------- */

typedef struct s_truth {
    uint8_t loc[WNLB_MAX_CARDS]; /* card_loc before the order */
} s_truth;

static void s_before(const t_fx *f, s_truth *t) { memcpy(t->loc, f->s->card_loc, sizeof t->loc); }

/* Checks the events of the order just applied (f->ev) for every party; returns 0 or fails
 * naming the leak. A card named in an event party receives is a leak when (after the order)
 * it is in the hand of an army party does not play, or when it was in the unused portion
 * before and after (the unused portion is nobody's) unless the event is the [7.0] blind draw,
 * or when it left a hand it does not play through Napoleon's Health [11.7]. */
static void s_check_events(const t_fx *f, const s_truth *t, const char *where) {
    for (int i = 0; i < f->ev.n; i++) {
        const t_ev *ev = &f->ev.ev[i];
        for (int party = S_SPECTATORS; party < (int)f->seats; party++) {
            if (!s_receives(ev->mask, party)) continue;
            for (size_t c = 0; c < ev->e->n_cards; c++) {
                int ci = wnlb_card_index(f->s, (int)ev->e->cards[c]);
                if (ci < 0) fail_msg("%s: event \"%s\" names card %u, no card of the game", where, ev->e->kind,
                                     ev->e->cards[c]);
                int army = f->s->sc->cards[ci].army;
                if (t_seat_plays(f, party, army)) continue;
                const char *why = NULL;
                if (f->s->card_loc[ci] == WNLB_LOC_HAND)
                    why = "a card of another seat's hand";
                else if (t->loc[ci] == WNLB_LOC_UNUSED && strcmp(ev->e->kind, "draw") != 0)
                    why = "a card of the unused portion";
                else if (t->loc[ci] == WNLB_LOC_HAND && strcmp(ev->e->kind, "health") == 0)
                    why = "a card Napoleon's Health removed [11.7]";
                if (why)
                    fail_msg("%s: event \"%s\" (mask %08x) names card %u of army %d to %s %d: %s", where,
                             ev->e->kind, ev->mask, ev->e->cards[c], army,
                             party == S_SPECTATORS ? "the spectators" : "seat", party, why);
            }
        }
    }
    /* [11.7] the draws from the hidden French hand are seen by the French seat at most */
    for (int r = 0; r < f->d.n && r < T_MAX_ROLLS; r++)
        if (strstr(f->d.purpose[r], "11.7") && (f->d.seats[r] & ~t_army_seats(f, WNLB_FR)) != 0)
            fail_msg("%s: roll \"%s\" seen by %08x, beyond the French seat", where, f->d.purpose[r], f->d.seats[r]);
}

/* Every viewpoint's view against the hands: its own hands in full, no card of any other hand,
 * the public counts of every hand and of every unused portion [4.0] [6.0]. */
static void s_check_views(const t_fx *f, const char *where) {
    for (int vp = BRT_VIEW_PUBLIC; vp < (int)f->seats; vp++) {
        if (vp == BRT_VIEW_ALL) continue;
        Wnlb__V1__View *v = t_view(f, vp);
        int party = vp == BRT_VIEW_PUBLIC ? S_SPECTATORS : vp;
        for (size_t h = 0; h < v->n_hands; h++) {
            const Wnlb__V1__Hand *hd = v->hands[h];
            int army = (int)hd->army;
            int ids[WNLB_MAX_CARDS];
            int n = t_hand(f, army, ids, WNLB_MAX_CARDS);
            if ((int)hd->count != n) fail_msg("%s: viewpoint %d reads %u cards in army %d's hand, it holds %d", where, vp, hd->count, army, n);
            if ((int)hd->unused != wnlb_unused_count(f->s, army))
                fail_msg("%s: viewpoint %d reads an unused portion of %u for army %d", where, vp, hd->unused, army);
            if (t_seat_plays(f, party, army)) {
                if ((int)hd->n_cards != n) fail_msg("%s: seat %d's view lists %zu of its %d cards", where, vp, hd->n_cards, n);
                for (size_t c = 0; c < hd->n_cards; c++) {
                    int in = 0;
                    for (int k = 0; k < n; k++) in |= ids[k] == (int)hd->cards[c]->id;
                    if (!in) fail_msg("%s: seat %d's view lists card %u, not in its hand", where, vp, hd->cards[c]->id);
                }
            } else if (hd->n_cards != 0) {
                fail_msg("%s: viewpoint %d sees %zu cards of army %d's hand", where, vp, hd->n_cards, army);
            }
        }
        wnlb__v1__view__free_unpacked(v, NULL);
    }
}

/* ---- a driver: random legal orders, some preferred --------------------------------- */

typedef int (*s_prefer_fn)(const t_fx *f, unsigned seat, const Wnlb__V1__Order *o);
typedef int (*s_stop_fn)(const t_fx *f);

/* plays until stop() holds (returns 1) or the game is over (0); every order is checked */
static int s_drive(t_fx *f, uint64_t *rng, s_prefer_fn prefer, s_stop_fn stop, int max_orders) {
    brt_buf l;
    buf_init(&l);
    char where[96];
    int rc = 0;
    for (int orders = 0; orders < max_orders; orders++) {
        if (stop && stop(f)) {
            rc = 1;
            break;
        }
        int seat = t_actor(f);
        if (seat < 0) break;
        buf_reset(&l);
        int n = f->rs->legal(f->s, (unsigned)seat, &l);
        assert_true(n > 0);
        const uint8_t *item;
        size_t len;
        int k = (int)(t_next(rng) % (uint64_t)n);
        for (int j = 0; prefer && j < n; j++) {
            assert_int_equal(t_item(&l, j, &item, &len), 0);
            Wnlb__V1__Order *o = wnlb__v1__order__unpack(NULL, len, item);
            assert_non_null(o);
            int p = prefer(f, (unsigned)seat, o);
            wnlb__v1__order__free_unpacked(o, NULL);
            if (p) {
                k = j;
                break;
            }
        }
        assert_int_equal(t_item(&l, k, &item, &len), 0);
        s_truth t;
        s_before(f, &t);
        if (t_apply(f, (unsigned)seat, item, len) != 0)
            fail_msg("legal order refused: [%s] %s", f->err.rule, f->err.message);
        snprintf(where, sizeof where, "turn %u order %d seat %d", f->s->turn, orders, seat);
        s_check_events(f, &t, where);
        if (orders % 4 == 0) s_check_views(f, where);
    }
    buf_free(&l);
    return rc;
}

/* ---- the cases ----------------------------------------------------------------------- */

/* [3.2] [4.0] each seat's view holds its own hand and no other; 3 seats */
static void test_wnlb_hidden_view_holds_own_hand_only(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 11);
    int ids[WNLB_MAX_CARDS];
    assert_int_equal(t_hand(f, WNLB_FR, ids, WNLB_MAX_CARDS), 15); /* [3.2] */
    assert_int_equal(t_hand(f, WNLB_BR, ids, WNLB_MAX_CARDS), 12);
    Wnlb__V1__View *v = t_view(f, 0);
    size_t own = 0, other = 0;
    for (size_t h = 0; h < v->n_hands; h++) {
        if (v->hands[h]->army == WNLB_FR) own += v->hands[h]->n_cards;
        else other += v->hands[h]->n_cards;
    }
    assert_int_equal(own, 15);
    assert_int_equal(other, 0);
    wnlb__v1__view__free_unpacked(v, NULL);
    v = t_view(f, 1);
    own = other = 0;
    for (size_t h = 0; h < v->n_hands; h++) {
        if (v->hands[h]->army == WNLB_BR) own += v->hands[h]->n_cards;
        else other += v->hands[h]->n_cards;
    }
    assert_int_equal(own, 12);
    assert_int_equal(other, 0);
    wnlb__v1__view__free_unpacked(v, NULL);
    s_check_views(f, "set-up");
    t_free(f);
}

/* [3.2] [6.0] the unused portion is nobody's: no seat's view and not the spectators' lists
 * a card of it; only its size shows */
static void test_wnlb_hidden_unused_portion_nobodys(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 12);
    for (int vp = BRT_VIEW_PUBLIC; vp < 2; vp++) {
        if (vp == BRT_VIEW_ALL) continue;
        Wnlb__V1__View *v = t_view(f, vp);
        for (size_t h = 0; h < v->n_hands; h++)
            for (size_t c = 0; c < v->hands[h]->n_cards; c++) {
                int ci = wnlb_card_index(f->s, (int)v->hands[h]->cards[c]->id);
                assert_true(ci >= 0);
                assert_int_equal(f->s->card_loc[ci], WNLB_LOC_HAND);
            }
        for (size_t h = 0; h < v->n_hands; h++) {
            if (v->hands[h]->army == WNLB_FR) assert_int_equal(v->hands[h]->unused, 26 - 15);
            if (v->hands[h]->army == WNLB_BR) assert_int_equal(v->hands[h]->unused, 19 - 12);
        }
        wnlb__v1__view__free_unpacked(v, NULL);
    }
    t_free(f);
}

/* [4.0] the counts of cards in each hand are public: the spectators read them */
static void test_wnlb_hidden_hand_counts_public(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 13);
    Wnlb__V1__View *v = t_view(f, BRT_VIEW_PUBLIC);
    int seen = 0;
    for (size_t h = 0; h < v->n_hands; h++) {
        assert_int_equal(v->hands[h]->n_cards, 0);
        if (v->hands[h]->army == WNLB_FR) assert_int_equal(v->hands[h]->count, 15), seen |= 1;
        if (v->hands[h]->army == WNLB_BR) assert_int_equal(v->hands[h]->count, 12), seen |= 2;
    }
    assert_int_equal(seen, 3);
    wnlb__v1__view__free_unpacked(v, NULL);
    t_free(f);
}

static int s_prussian_cards(const t_fx *f) { return wnlb_hand_count(f->s, WNLB_PR) > 0 && wnlb_hand_count(f->s, WNLB_BR) > 0; }

/* [6.0] 3 seats: the British and Prussian hands are separate secrets (allies may not see
 * each other's cards, "if they cannot agree") */
static void test_wnlb_hidden_allied_hands_separate(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 14);
    uint64_t rng = 14;
    assert_int_equal(s_drive(f, &rng, NULL, s_prussian_cards, 6000), 1); /* turn 2 deals 1 Prussian card [4.0] */
    Wnlb__V1__View *b = t_view(f, 1), *p = t_view(f, 2);
    for (size_t h = 0; h < b->n_hands; h++)
        if (b->hands[h]->army != WNLB_BR) assert_int_equal(b->hands[h]->n_cards, 0);
    for (size_t h = 0; h < p->n_hands; h++)
        if (p->hands[h]->army != WNLB_PR) assert_int_equal(p->hands[h]->n_cards, 0);
    wnlb__v1__view__free_unpacked(b, NULL);
    wnlb__v1__view__free_unpacked(p, NULL);
    s_check_views(f, "turn 2");
    t_free(f);
}

static int s_prefer_play(const t_fx *f, unsigned seat, const Wnlb__V1__Order *o) {
    (void)f, (void)seat;
    return o->kind_case == WNLB__V1__ORDER__KIND_PLAY;
}
static int s_card_played(const t_fx *f) { return t_ev_kind(&f->ev, "played", 0) != NULL; }

/* [6.0] a card played is public from the moment it is played: the spectators read its id */
static void test_wnlb_hidden_played_card_public(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 15);
    uint64_t rng = 15;
    assert_int_equal(s_drive(f, &rng, s_prefer_play, s_card_played, 200), 1);
    const t_ev *ev = t_ev_kind(&f->ev, "played", 0);
    int public_copy = 0;
    for (int i = 0; i < f->ev.n; i++)
        if (strcmp(f->ev.ev[i].e->kind, "played") == 0 && s_receives(f->ev.ev[i].mask, S_SPECTATORS) &&
            f->ev.ev[i].e->n_cards == 1)
            public_copy = 1;
    assert_non_null(ev);
    assert_true(public_copy);
    t_free(f);
}

static int s_in_bid(const t_fx *f) { return f->s->phase == WNLB_PH_BID; }

/* [7.0] the first-player bid is sealed: the core collects it (pending sealed, both seats),
 * and nothing the French seat's bid card is reaches the Allied seat while it is in the hand */
static void test_wnlb_hidden_bid_sealed_until_reveal(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 16);
    uint64_t rng = 16;
    assert_int_equal(s_drive(f, &rng, NULL, s_in_bid, 6000), 1);
    assert_true(f->s->turn >= 2); /* no bid on turn 1 [7.0] */
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 3u);
    int ids[WNLB_MAX_CARDS];
    assert_true(t_hand(f, WNLB_FR, ids, WNLB_MAX_CARDS) > 0);
    char text[32];
    snprintf(text, sizeof text, "bid %d", ids[0]);
    s_truth t;
    s_before(f, &t);
    T_OK(f, 0, text);
    s_check_events(f, &t, "the French bid");
    Wnlb__V1__View *v = t_view(f, 1);
    for (size_t h = 0; h < v->n_hands; h++)
        if (v->hands[h]->army == WNLB_FR) assert_int_equal(v->hands[h]->n_cards, 0);
    wnlb__v1__view__free_unpacked(v, NULL);
    t_free(f);
}

static int s_in_battle_cards(const t_fx *f) { return f->s->phase == WNLB_PH_BATTLE_CARDS; }
static int s_prefer_attack(const t_fx *f, unsigned seat, const Wnlb__V1__Order *o) {
    (void)f, (void)seat;
    return o->kind_case == WNLB__V1__ORDER__KIND_ATTACK || o->kind_case == WNLB__V1__ORDER__KIND_PLAY;
}

/* [9.3] battle cards are chosen in secret and revealed together: a sealed decision of both
 * sides, and the first side's choice reaches no other seat while its cards are in hand */
static void test_wnlb_hidden_battle_cards_sealed_until_reveal(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 17);
    uint64_t rng = 17;
    assert_int_equal(s_drive(f, &rng, s_prefer_attack, s_in_battle_cards, 6000), 1);
    brt_pending p;
    t_pending(f, &p);
    assert_true(p.sealed);
    assert_int_equal(p.seats, 3u);
    /* the first of the two seats gives its cards; nothing of them reaches the other */
    int seat = t_actor(f);
    brt_buf l;
    buf_init(&l);
    int n = f->rs->legal(f->s, (unsigned)seat, &l);
    assert_true(n > 0);
    const uint8_t *item;
    size_t len;
    assert_int_equal(t_item(&l, n - 1, &item, &len), 0);
    s_truth t;
    s_before(f, &t);
    assert_int_equal(t_apply(f, (unsigned)seat, item, len), 0);
    s_check_events(f, &t, "the first battle cards");
    buf_free(&l);
    s_check_views(f, "the first battle cards");
    t_free(f);
}

static int s_prefer_health(const t_fx *f, unsigned seat, const Wnlb__V1__Order *o) {
    (void)f, (void)seat;
    return o->kind_case == WNLB__V1__ORDER__KIND_PLAY && o->play->purpose == WNLB_PURPOSE_ACTION &&
           o->play->action == WNLB_ACT_HEALTH;
}
static int s_health_done(const t_fx *f) { return t_ev_kind(&f->ev, "health", 0) != NULL; }

/* [11.7] Napoleon's Health: two cards drawn at random from the French hand to the unused
 * portion; which ones, the French seat alone learns (the event naming them and the draws) */
static void test_wnlb_hidden_napoleons_health_french_only(void **st) {
    (void)st;
    int done = 0;
    for (uint64_t seed = 18; seed < 40 && !done; seed++) {
        t_fx *f = t_new("short", 2, seed);
        uint64_t rng = seed;
        if (s_drive(f, &rng, s_prefer_health, s_health_done, 6000) == 1) {
            /* the drive checked the events and draws of the Health order (s_check_events) */
            int named_to_french = 0, named_to_allied = 0;
            for (int i = 0; i < f->ev.n; i++) {
                const t_ev *ev = &f->ev.ev[i];
                if (strcmp(ev->e->kind, "health") != 0) continue;
                if (s_receives(ev->mask, 0) && ev->e->n_cards > 0) named_to_french = 1;
                if (s_receives(ev->mask, 1) && ev->e->n_cards > 0) named_to_allied = 1;
            }
            assert_true(named_to_french);
            assert_false(named_to_allied);
            done = 1;
        }
        t_free(f);
    }
    assert_true(done);
}

/* every event, roll and view over random games, Short and Full, 2 and 3 seats */
static void test_wnlb_hidden_leak_random_games(void **st) {
    (void)st;
    static const struct {
        const char *sc;
        unsigned seats;
    } games[] = {{"short", 2}, {"full", 2}, {"full", 3}};
    int reps = getenv("BERTHIER_LONG") ? 20 : 2;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        for (int r = 0; r < reps; r++) {
            uint64_t seed = 500 + g * 97 + (uint64_t)r;
            t_fx *f = t_new(games[g].sc, games[g].seats, seed);
            uint64_t rng = seed;
            s_check_views(f, "set-up");
            s_drive(f, &rng, NULL, NULL, 20000);
            assert_int_equal(t_actor(f), -1); /* played to the end */
            t_free(f);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_hidden_view_holds_own_hand_only),
        cmocka_unit_test(test_wnlb_hidden_unused_portion_nobodys),
        cmocka_unit_test(test_wnlb_hidden_hand_counts_public),
        cmocka_unit_test(test_wnlb_hidden_allied_hands_separate),
        cmocka_unit_test(test_wnlb_hidden_played_card_public),
        cmocka_unit_test(test_wnlb_hidden_bid_sealed_until_reveal),
        cmocka_unit_test(test_wnlb_hidden_battle_cards_sealed_until_reveal),
        cmocka_unit_test(test_wnlb_hidden_napoleons_health_french_only),
        cmocka_unit_test(test_wnlb_hidden_leak_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
