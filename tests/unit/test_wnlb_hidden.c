/*
 * test_wnlb_hidden.c - the hidden information of Napoleon's Last Battle through the core's
 * visibility (docs/trust.md): each hand is its owner's alone [3.2] [4.0], the unused portion
 * nobody's [6.0], the counts of cards in hand public, the British and Prussian hands secret
 * from each other [6.0], sealed bids [7.0] and battle cards [9.3], and the two cards
 * Napoleon's Health removes [11.7] known to the French seat only. And a leak test over random
 * games: every event a seat (or the spectators) receives and every view it gets is checked
 * against the hands, taken from the full state (card_loc), never from the visibility code
 * under test: no card of another seat's hand or of the unused portion reaches it.
 *
 * And, against the contract rather than against any one rule, two twin checks (what a party
 * receives may not depend on what it may not know):
 *  - a twin of the state whose hidden cards differ (a card of a hand another party plays
 *    swapped with one of its unused portion: same counts) gives that party the same view,
 *    text view, picture, pending decision and legal orders, byte for byte;
 *  - the same order applied to the state and to such a twin gives the acting seat the same
 *    events; and of a sealed decision [7.0] [9.3], two different choices of the first seat
 *    give every other party the same events, view, picture, pending and legal orders until
 *    the reveal.
 * Every case plays real games (bids, battles with sealed cards, actions) and also checks
 * constructed states where a position is hard to reach by chance.
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
    uint8_t ref[WNLB_MAX_CARDS]; /* chosen before the order: a bid, a battle card, the card in play */
} s_truth;

static int s_card_referenced(const wnlb_state *s, int ci);

static void s_before(const t_fx *f, s_truth *t) {
    memcpy(t->loc, f->s->card_loc, sizeof t->loc);
    for (size_t ci = 0; ci < WNLB_MAX_CARDS; ci++) t->ref[ci] = ci < f->s->sc->n_cards && s_card_referenced(f->s, (int)ci);
}

/* Checks the events of the order just applied (f->ev) for every party; returns 0 or fails
 * naming the leak. A card named in an event party receives is a leak when (after the order)
 * it is in the hand of an army party does not play, or when it was in the unused portion
 * before and after (the unused portion is nobody's) unless the event is the [7.0] blind draw,
 * or when it left a hand it does not play through Napoleon's Health [11.7]. A chosen card (a
 * bid, a battle card, the card in play, before or after the order) is revealed by its rule
 * [6.0] [7.0] [9.3]: that it reaches no one before its reveal, the sealed twins check. */
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
                if (t_seat_plays(f, party, army) || t->ref[ci] || s_card_referenced(f->s, ci)) continue;
                const char *why = NULL;
                if (f->s->card_loc[ci] == WNLB_LOC_HAND)
                    why = "a card of another seat's hand";
                else if (t->loc[ci] == WNLB_LOC_UNUSED && !t->ref[ci] && strcmp(ev->e->kind, "draw") != 0)
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


/* ---- twins: what a party receives may not depend on what it may not know -------------- */

/* 1 if card index ci is named by the state as a chosen card (a bid, a battle card, the card in
 * play): those are the rules' business, a twin keeps them */
static int s_card_referenced(const wnlb_state *s, int ci) {
    if (s->cur_card == ci + 1) return 1;
    for (int k = 0; k < 2; k++)
        if (s->bid[k] == ci) return 1;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < s->battle.n_cards[side] && k < WNLB_MAX_CARDS; k++)
            if (s->battle.cards[side][k] == ci) return 1;
    return 0;
}

/* A twin of s for party (a seat, or S_SPECTATORS): in each hand of an army party does not play,
 * the `nth` free card of the hand changes places with the `nth` free card of the unused portion
 * (the counts stay). NULL when no hand could change. */
static wnlb_state *s_twin(const t_fx *f, const wnlb_state *s, int party, int nth) {
    wnlb_state *t = wnlb_state_clone(s);
    assert_non_null(t);
    int changed = 0;
    for (int a = 0; a < WNLB_ARMIES; a++) {
        if (t_seat_plays(f, party, a)) continue;
        int hand[WNLB_MAX_CARDS], unused[WNLB_MAX_CARDS], nh = 0, nu = 0;
        for (size_t ci = 0; ci < s->sc->n_cards; ci++) {
            if (s->sc->cards[ci].army != a || s_card_referenced(s, (int)ci)) continue;
            if (s->card_loc[ci] == WNLB_LOC_HAND) hand[nh++] = (int)ci;
            else if (s->card_loc[ci] == WNLB_LOC_UNUSED) unused[nu++] = (int)ci;
        }
        if (!nh || !nu) continue;
        int h = hand[nth % nh], u = unused[(nth / nh) % nu];
        t->card_loc[h] = WNLB_LOC_UNUSED;
        t->card_loc[u] = WNLB_LOC_HAND;
        changed = 1;
    }
    if (!changed) wnlb_state_destroy(&t);
    return t;
}

/* everything a party reads of a state without acting: its view, text view, picture (no last
 * order), the pending decision and, for a seat, its legal orders; as one byte string */
static void s_party_reads(const t_fx *f, const wnlb_state *s, int party, brt_buf *out) {
    int vp = party == S_SPECTATORS ? BRT_VIEW_PUBLIC : party;
    brt_buf b;
    buf_init(&b);
    assert_int_equal(f->rs->view(s, vp, &b), 0);
    assert_int_equal(buf_append_item(out, b.data, b.len), 0);
    buf_reset(&b);
    assert_int_equal(f->rs->view_text(s, vp, &b), 0);
    assert_int_equal(buf_append_item(out, b.data, b.len), 0);
    buf_reset(&b);
    assert_int_equal(f->rs->render(s, vp, NULL, &b), 0);
    assert_int_equal(buf_append_item(out, b.data, b.len), 0);
    buf_reset(&b);
    brt_pending p;
    memset(&p, 0, sizeof p);
    f->rs->pending(s, &p);
    buf_printf(out, "pending %08x %d %d %s|%s|%s\n", p.seats, p.sealed, (int)p.turn, p.kind, p.rule, p.prompt);
    if (party != S_SPECTATORS) {
        int n = f->rs->legal(s, (unsigned)party, &b);
        buf_printf(out, "legal %d\n", n);
        assert_int_equal(buf_append_item(out, b.data, b.len), 0);
    }
    buf_free(&b);
}

static void s_same_reads(const t_fx *f, const wnlb_state *a, const wnlb_state *b, int party, const char *where,
                         const char *what) {
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    s_party_reads(f, a, party, &x);
    s_party_reads(f, b, party, &y);
    if (x.len != y.len || memcmp(x.data, y.data, x.len) != 0) {
        size_t at = 0;
        while (at < x.len && at < y.len && x.data[at] == y.data[at]) at++;
        fail_msg("%s: %s %d reads other bytes (%zu against %zu, first difference at %zu) when %s", where,
                 party == S_SPECTATORS ? "the spectators" : "seat", party, x.len, y.len, at, what);
    }
    buf_free(&x);
    buf_free(&y);
}

/* [3.2] [4.0] [6.0] every party's reads do not depend on the cards of hands it does not play */
static int s_check_twin_reads(const t_fx *f, const wnlb_state *s, const char *where) {
    int checked = 0;
    for (int party = S_SPECTATORS; party < (int)f->seats; party++)
        for (int nth = 0; nth < 2; nth++) {
            wnlb_state *t = s_twin(f, s, party, nth * 5 + 1);
            if (!t) continue;
            s_same_reads(f, s, t, party, where, "the hidden cards of another hand differ");
            wnlb_state_destroy(&t);
            checked++;
        }
    return checked;
}

/* an order applied to a state of its own with its own dice (a copy of the fixture's) and events */
typedef struct s_run {
    wnlb_state *s;
    t_dice d;
    brt_events ev;
    brt_reject err;
    int rc;
} s_run;

static void s_run_apply(const t_fx *f, s_run *r, const wnlb_state *from, unsigned seat, const uint8_t *o, size_t len) {
    memset(r, 0, sizeof *r);
    r->s = wnlb_state_clone(from);
    assert_non_null(r->s);
    r->d = f->d;
    r->d.d.source_ctx = &r->d;
    r->d.d.record_ctx = &r->d;
    r->d.n = 0;
    r->rc = f->rs->apply(r->s, seat, o, len, &r->d.d, &r->ev, &r->err);
}

static void s_run_free(s_run *r) {
    t_ev_clear(&r->ev);
    wnlb_state_destroy(&r->s);
}

/* the events party receives, each re-packed, and the rolls it sees, as one byte string */
static void s_party_events(const s_run *r, int party, brt_buf *out) {
    for (int i = 0; i < r->ev.n; i++) {
        if (!s_receives(r->ev.ev[i].mask, party)) continue;
        size_t n = wnlb__v1__event__get_packed_size(r->ev.ev[i].e);
        assert_int_equal(buf_reserve(out, n + 8), 0);
        buf_append_u32le(out, (uint32_t)n);
        wnlb__v1__event__pack(r->ev.ev[i].e, out->data + out->len);
        out->len += n;
    }
    buf_printf(out, "|%d events emitted, %d rolls:", r->ev.total, r->d.n);
    for (int k = 0; k < r->d.n && k < T_MAX_ROLLS; k++) {
        uint32_t seats = r->d.seats[k];
        int sees = party == S_SPECTATORS ? (seats & BRT_SEATS_SPECTATORS) != 0 : (seats & (1u << party)) != 0;
        buf_printf(out, " %s", r->d.purpose[k]);
        if (sees) buf_printf(out, "=%u", r->d.value[k]);
    }
}

/* 1 if an event party receives names a card of a deck it does not play that lay in the unused
 * portion of `before`: a blind draw [7.0] shows such a card on purpose */
static int s_reveals_unused(const t_fx *f, const wnlb_state *before, const brt_events *ev, int party) {
    for (int i = 0; i < ev->n; i++) {
        if (!s_receives(ev->ev[i].mask, party)) continue;
        for (size_t c = 0; c < ev->ev[i].e->n_cards; c++) {
            int ci = wnlb_card_index(before, (int)ev->ev[i].e->cards[c]);
            if (ci >= 0 && !t_seat_plays(f, party, before->sc->cards[ci].army) && before->card_loc[ci] == WNLB_LOC_UNUSED)
                return 1;
        }
    }
    return 0;
}

static void s_same_events(const s_run *a, const s_run *b, int party, const char *where, const char *what) {
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    s_party_events(a, party, &x);
    s_party_events(b, party, &y);
    if (x.len != y.len || memcmp(x.data, y.data, x.len) != 0)
        fail_msg("%s: %s %d receives other events (%zu against %zu bytes) when %s", where,
                 party == S_SPECTATORS ? "the spectators" : "seat", party, x.len, y.len, what);
    buf_free(&x);
    buf_free(&y);
}

/* The acting seat's events do not depend on the hidden cards of the hands it does not play
 * (Napoleon's Health draws from a hand the Allied seat never sees [11.7]); the blind draws of
 * [7.0] reveal cards of the unused portion on purpose, so an order whose events show the acting
 * seat a card of another deck's unused portion is not compared. */
static int s_check_twin_actor(const t_fx *f, unsigned seat, const uint8_t *o, size_t len, const char *where) {
    wnlb_state *t = s_twin(f, f->s, (int)seat, 3);
    if (!t) return 0;
    s_run a, b;
    s_run_apply(f, &a, f->s, seat, o, len);
    s_run_apply(f, &b, t, seat, o, len);
    int draws = s_reveals_unused(f, f->s, &a.ev, (int)seat) || s_reveals_unused(f, t, &b.ev, (int)seat);
    wnlb_state_destroy(&t);
    int checked = 0;
    if (a.rc != b.rc)
        fail_msg("%s: seat %u's order is %s on a twin whose hidden cards differ: [%s] %s", where, seat,
                 a.rc ? "refused on the state, accepted" : "accepted on the state, refused", a.rc ? a.err.rule : b.err.rule,
                 a.rc ? a.err.message : b.err.message);
    if (a.rc == 0 && !draws) {
        s_same_events(&a, &b, (int)seat, where, "the hidden cards of another hand differ");
        checked = 1;
    }
    s_run_free(&a);
    s_run_free(&b);
    return checked;
}

/* [7.0] [9.3] a sealed decision: for the first seat to give its choice, every other legal choice
 * gives every other party the same events, reads and legal orders while the decision is still open */
static int s_check_sealed(const t_fx *f, unsigned seat, const brt_buf *l, int n, int k, const char *where) {
    brt_pending p;
    t_pending(f, &p);
    if (!p.sealed || (p.seats & ~(1u << seat)) == 0) return 0;
    const uint8_t *item, *other;
    size_t len, olen;
    assert_int_equal(t_item(l, k, &item, &len), 0);
    int checked = 0;
    for (int j = 0; j < n && checked < 3; j++) {
        if (j == k) continue;
        assert_int_equal(t_item(l, j, &other, &olen), 0);
        s_run a, b;
        s_run_apply(f, &a, f->s, seat, item, len);
        s_run_apply(f, &b, f->s, seat, other, olen);
        assert_int_equal(a.rc, 0);
        assert_int_equal(b.rc, 0);
        brt_pending pa;
        memset(&pa, 0, sizeof pa);
        f->rs->pending(a.s, &pa);
        if (pa.seats & ~(1u << seat) & p.seats) { /* still open for the others: nothing revealed */
            for (int party = S_SPECTATORS; party < (int)f->seats; party++) {
                if (party == (int)seat) continue;
                s_same_events(&a, &b, party, where, "the first seat's sealed choice differs");
                s_same_reads(f, a.s, b.s, party, where, "the first seat's sealed choice differs");
            }
            checked++;
        }
        s_run_free(&a);
        s_run_free(&b);
    }
    return checked;
}

/* counts of the checks the drives made */
typedef struct s_counts {
    int orders, twin_reads, twin_actor, sealed;
} s_counts;
static s_counts s_count;

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
        snprintf(where, sizeof where, "turn %u order %d seat %d", f->s->turn, orders, seat);
        s_count.sealed += s_check_sealed(f, (unsigned)seat, &l, n, k, where);
        assert_int_equal(t_item(&l, k, &item, &len), 0);
        if (orders % 3 == 0) s_count.twin_actor += s_check_twin_actor(f, (unsigned)seat, item, len, where);
        s_truth t;
        s_before(f, &t);
        if (t_apply(f, (unsigned)seat, item, len) != 0)
            fail_msg("legal order refused: [%s] %s", f->err.rule, f->err.message);
        snprintf(where, sizeof where, "turn %u order %d seat %d", f->s->turn, orders, seat);
        s_check_events(f, &t, where);
        if (orders % 4 == 0) s_check_views(f, where);
        if (orders % 16 == 0) s_count.twin_reads += s_check_twin_reads(f, f->s, where);
        s_count.orders++;
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

/* the index of the nth card in army's hand, or fails */
static int s_hand_ci(const t_fx *f, const wnlb_state *s, int army, int nth) {
    for (size_t ci = 0; ci < s->sc->n_cards; ci++)
        if (s->sc->cards[ci].army == army && s->card_loc[ci] == WNLB_LOC_HAND && nth-- == 0) return (int)ci;
    fail_msg("army %d holds no card %d", army, nth);
    (void)f;
    return -1;
}

/* [7.0] constructed: game turn 2, the French bid given and the Allied not yet: no party but the
 * French seat reads anything of which card it is, or whether there is one */
static void s_bid_constructed(t_fx *f) {
    wnlb_state *x = wnlb_state_clone(f->s), *y, *z;
    x->turn = 2;
    x->phase = WNLB_PH_BID;
    x->bid[0] = (int8_t)s_hand_ci(f, x, WNLB_FR, 0);
    x->bid[1] = -2;
    y = wnlb_state_clone(x);
    y->bid[0] = (int8_t)s_hand_ci(f, y, WNLB_FR, 3);
    z = wnlb_state_clone(x);
    z->bid[0] = -1;
    for (int party = S_SPECTATORS; party < (int)f->seats; party++) {
        if (party == 0) continue;
        s_same_reads(f, x, y, party, "a constructed bid", "the French bid another card");
        s_same_reads(f, x, z, party, "a constructed bid", "the French did not bid");
    }
    wnlb_state_destroy(&x);
    wnlb_state_destroy(&y);
    wnlb_state_destroy(&z);
}

/* [7.0] the first-player bid is sealed: the core collects it (pending sealed, both seats),
 * and nothing of the French seat's choice reaches another party before the reveal */
static void test_wnlb_hidden_bid_sealed_until_reveal(void **st) {
    (void)st;
    for (unsigned seats = 2; seats <= 3; seats++) {
        t_fx *f = t_new(seats == 2 ? "short" : "full", seats, 16);
        s_bid_constructed(f);
        uint64_t rng = 16;
        assert_int_equal(s_drive(f, &rng, NULL, s_in_bid, 6000), 1);
        assert_true(f->s->turn >= 2); /* no bid on turn 1 [7.0] */
        brt_pending p;
        t_pending(f, &p);
        assert_true(p.sealed);
        assert_true((p.seats & 1u) != 0);                 /* the French seat */
        assert_int_equal(__builtin_popcount(p.seats), 2); /* and one Allied bidder [7.0] */
        brt_buf l;
        buf_init(&l);
        int n = f->rs->legal(f->s, 0, &l);
        assert_true(n >= 2); /* a card or no bid */
        int before = s_count.sealed;
        s_check_sealed(f, 0, &l, n, 0, "the French bid");
        assert_true(s_count.sealed >= before);
        assert_true(s_check_sealed(f, 0, &l, n, n - 1, "the French bid") > 0);
        const uint8_t *item;
        size_t len;
        assert_int_equal(t_item(&l, n - 1, &item, &len), 0);
        s_truth t;
        s_before(f, &t);
        assert_int_equal(t_apply(f, 0, item, len), 0);
        s_check_events(f, &t, "the French bid");
        s_check_views(f, "the French bid");
        buf_free(&l);
        t_free(f);
    }
}

static int s_in_battle_cards(const t_fx *f) { return f->s->phase == WNLB_PH_BATTLE_CARDS; }
static int s_prefer_attack(const t_fx *f, unsigned seat, const Wnlb__V1__Order *o) {
    (void)f, (void)seat;
    return o->kind_case == WNLB__V1__ORDER__KIND_ATTACK || o->kind_case == WNLB__V1__ORDER__KIND_PLAY;
}

/* [9.3] constructed: a battle whose attacker has chosen its cards and the defender not yet: no
 * party but the attacker's reads anything of them */
static void s_battle_constructed(t_fx *f) {
    wnlb_state *x = wnlb_state_clone(f->s), *y, *z;
    x->phase = WNLB_PH_BATTLE_CARDS;
    x->battle.target = (int8_t)t_unit(f, WNLB_BR, WNLB_INF, 0);
    x->battle.n_att = 1;
    x->battle.att[0] = (int8_t)t_unit(f, WNLB_FR, WNLB_INF, 0);
    x->battle.att_army = WNLB_FR;
    x->battle.submitted[0] = 1;
    x->battle.n_cards[0] = 1;
    x->battle.cards[0][0] = (uint8_t)s_hand_ci(f, x, WNLB_FR, 0);
    x->battle.purpose[0][0] = WNLB_PURPOSE_BATTLE;
    y = wnlb_state_clone(x);
    y->battle.n_cards[0] = 2;
    y->battle.cards[0][0] = (uint8_t)s_hand_ci(f, y, WNLB_FR, 2);
    y->battle.cards[0][1] = (uint8_t)s_hand_ci(f, y, WNLB_FR, 4);
    y->battle.purpose[0][1] = WNLB_PURPOSE_BATTLE;
    z = wnlb_state_clone(x);
    z->battle.n_cards[0] = 0;
    for (int party = S_SPECTATORS; party < (int)f->seats; party++) {
        if (party == 0) continue;
        s_same_reads(f, x, y, party, "a constructed battle", "the attacker chose other battle cards");
        s_same_reads(f, x, z, party, "a constructed battle", "the attacker chose no battle card");
    }
    wnlb_state_destroy(&x);
    wnlb_state_destroy(&y);
    wnlb_state_destroy(&z);
}

/* at PH_BATTLE_CARDS: a sealed decision of attacker and defender; the first seat's choice
 * reaches no other party (s_check_sealed), and its order's events and the views hold */
static void s_battle_cards_case(t_fx *g) {
    brt_pending p;
    t_pending(g, &p);
    assert_true(p.sealed);
    assert_int_equal(__builtin_popcount(p.seats), 2); /* attacker and defender */
    int seat = t_actor(g);
    brt_buf l;
    buf_init(&l);
    int n = g->rs->legal(g->s, (unsigned)seat, &l);
    assert_true(n >= 2); /* at least: no card, or a card [9.3] */
    assert_true(s_check_sealed(g, (unsigned)seat, &l, n, n - 1, "the first battle cards") > 0);
    const uint8_t *item;
    size_t len;
    assert_int_equal(t_item(&l, n - 1, &item, &len), 0);
    s_truth t;
    s_before(g, &t);
    assert_int_equal(t_apply(g, (unsigned)seat, item, len), 0);
    s_check_events(g, &t, "the first battle cards");
    s_check_views(g, "the first battle cards");
    buf_free(&l);
}

/* [9.0] a French infantry unit facing a British one, a Movement card played and done: the
 * battle is declared, and play goes on (an Artillery Fire window may come first) until the
 * battle cards; 1 when they were reached */
static int s_battle_position(unsigned seats) {
    t_board bd;
    t_fx *g = t_new_blank(&bd, seats == 2 ? "short" : "full", seats, 19);
    int fr = t_place(g, WNLB_FR, WNLB_INF, 0, "E-5", WNLB_N);
    int br = t_place(g, WNLB_BR, WNLB_INF, 0, "D-5", WNLB_S);
    assert_int_equal(t_declare(g, s_hand_ci(g, g->s, WNLB_FR, 0), br, fr), 0);
    uint64_t rng = 19;
    int reached = g->s->phase == WNLB_PH_BATTLE_CARDS || s_drive(g, &rng, NULL, s_in_battle_cards, 12) == 1;
    if (reached) s_battle_cards_case(g);
    t_free(g);
    return reached;
}

/* [9.3] battle cards are chosen in secret and revealed together: a sealed decision of both
 * sides, and the first side's choice reaches no other party before the reveal */
static void test_wnlb_hidden_battle_cards_sealed_until_reveal(void **st) {
    (void)st;
    for (unsigned seats = 2; seats <= 3; seats++) {
        t_fx *f = t_new(seats == 2 ? "short" : "full", seats, 17);
        s_battle_constructed(f);
        /* a battle declared on a position of its own, and one reached in a random game */
        assert_true(s_battle_position(seats));
        int found = 0;
        for (uint64_t seed = 17; seed < 27 && !found; seed++) {
            t_fx *g = t_new(seats == 2 ? "short" : "full", seats, seed);
            uint64_t rng = seed;
            if (s_drive(g, &rng, s_prefer_attack, s_in_battle_cards, 6000) == 1) {
                s_battle_cards_case(g);
                found = 1;
            }
            t_free(g);
        }
        assert_true(found);
        t_free(f);
    }
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
    {
        /* at the set-up: the Allied seat reads nothing of the French hand */
        t_fx *f = t_new("short", 2, 18);
        assert_true(s_check_twin_reads(f, f->s, "set-up") > 0);
        t_free(f);
    }
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

/* [3.2] [4.0] [6.0] over random games, at every 16th order: each party's view, text view,
 * picture, pending decision and legal orders are the same on a twin whose hands it does not
 * play hold other cards (same counts) */
static void test_wnlb_hidden_reads_independent_of_other_hands(void **st) {
    (void)st;
    static const struct {
        const char *sc;
        unsigned seats;
    } games[] = {{"short", 2}, {"full", 2}, {"full", 3}};
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        t_fx *f = t_new(games[g].sc, games[g].seats, 700 + g);
        assert_true(s_check_twin_reads(f, f->s, "set-up") >= (int)games[g].seats);
        uint64_t rng = 700 + g;
        int before = s_count.twin_reads;
        s_drive(f, &rng, NULL, NULL, 20000);
        assert_true(s_count.twin_reads > before);
        assert_int_equal(t_actor(f), -1);
        t_free(f);
    }
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
            int before = s_count.twin_actor;
            s_drive(f, &rng, NULL, NULL, 20000);
            assert_int_equal(t_actor(f), -1); /* played to the end */
            assert_true(s_count.twin_actor > before); /* the acting seats' events were compared */
            t_free(f);
        }
    print_message("leak test: %d orders, %d twin reads, %d twin orders, %d sealed choices compared\n",
                  s_count.orders, s_count.twin_reads, s_count.twin_actor, s_count.sealed);
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
        cmocka_unit_test(test_wnlb_hidden_reads_independent_of_other_hands),
        cmocka_unit_test(test_wnlb_hidden_leak_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
