/*
 * first.c - [7.0] the first player of each game turn: the French on turn 1; from turn 2 the
 * sealed bid (three players: the British first names the Allied bidder, PH_BIDDER), the reveal,
 * and the blind draws that break a tie or an empty bid (rulings R-wnlb-7.0-*).
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

/* a new game turn's first round [7.0] */
void wnlb_first_start(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice;
    s->bid[0] = s->bid[1] = -2;
    s->bound_army = 0;
    s->bidder = WNLB_BR;
    if (s->turn <= s->sc->first_turn) { /* [7.0] "In game turn 1, the French automatically is the first player" */
        wnlb_round_start(s, WNLB_SIDE_FRENCH, ev);
        return;
    }
    /* [7.0] three players: "If they cannot decide who shall bid, the British player decides" */
    s->phase = s->nseats == 3 && s->sc->prussians ? WNLB_PH_BIDDER : WNLB_PH_BID;
}

/* the armies whose cards the seat of side may bid [7.0]: 3 seats the named bidder's, 2 seats
 * either Allied deck [6.0] */
static int s_may_bid(const wnlb_state *s, int side, int army) {
    if (side == WNLB_SIDE_FRENCH) return army == WNLB_FR;
    if (s->nseats == 3) return army == s->bidder;
    return army == WNLB_BR || army == WNLB_PR;
}

/* the seat that bids for side */
static int s_bid_seat(const wnlb_state *s, int side) {
    return side == WNLB_SIDE_FRENCH ? wnlb_seat_of_army(s, WNLB_FR) : wnlb_seat_of_army(s, s->bidder);
}

/* R-wnlb-7.0-draw-deck: the deck an Allied blind draw comes from: 3 seats the bidder's; 2 seats
 * the deck of the Allied bid card, the British/Allied deck when none was bid */
static int s_draw_army(const wnlb_state *s, int side) {
    if (side == WNLB_SIDE_FRENCH) return WNLB_FR;
    if (s->nseats == 3) return s->bidder;
    if (s->bid[1] >= 0) return s->sc->cards[s->bid[1]].army;
    return WNLB_BR;
}

/* the cards of army's unused portion, by index, ascending id order (sc->cards order) */
static int s_unused(const wnlb_state *s, int army, int *idx) {
    int n = 0;
    for (size_t i = 0; i < s->sc->n_cards; i++)
        if (s->sc->cards[i].army == army && s->card_loc[i] == WNLB_LOC_UNUSED) idx[n++] = (int)i;
    return n;
}

/* 1 when no number of draws can ever tell the two portions apart: both empty, or both hold
 * only cards of one and the same MP */
static int s_draws_endless(const wnlb_state *s, int fa, int aa) {
    int fi[WNLB_MAX_CARDS], ai[WNLB_MAX_CARDS];
    int nf = s_unused(s, fa, fi), na = s_unused(s, aa, ai);
    if (!nf && !na) return 1;
    if (!nf || !na) return 0;
    int mp = s->sc->cards[fi[0]].mp;
    for (int i = 0; i < nf; i++)
        if (s->sc->cards[fi[i]].mp != mp) return 0;
    for (int i = 0; i < na; i++)
        if (s->sc->cards[ai[i]].mp != mp) return 0;
    return 1;
}

/* one blind draw [7.0] from army's unused portion: a public roll and a public event; the card
 * stays in the unused portion (R-wnlb-7.0-draws-put-back). MP, or -1 when the portion is empty. */
static int s_draw(wnlb_state *s, int army, brt_dice *dice, brt_events *ev) {
    int idx[WNLB_MAX_CARDS];
    int n = s_unused(s, army, idx);
    if (!n) {
        wnlb_event(ev, BRT_SEATS_ALL, "draw", army, NULL, -1, -1, -1, NULL, 0,
                   "[7.0] the unused portion is empty: nothing to draw");
        return -1;
    }
    uint32_t r = brt_dice_roll(dice, (uint32_t)n, army == WNLB_FR ? "7.0 blind draw from the French unused portion"
                                                  : army == WNLB_BR ? "7.0 blind draw from the British/Allied unused portion"
                                                                    : "7.0 blind draw from the Prussian unused portion");
    int ci = idx[(r - 1) % (uint32_t)n];
    int id = s->sc->cards[ci].id;
    char text[96];
    snprintf(text, sizeof text, "[7.0] drawn blindly from the unused portion: MP %u (it goes back)", s->sc->cards[ci].mp);
    wnlb_event(ev, BRT_SEATS_ALL, "draw", army, NULL, -1, -1, s->sc->cards[ci].mp, &id, 1, text);
    return s->sc->cards[ci].mp;
}

/* both bids are in: reveal them together, decide the first player [7.0] */
static void s_resolve(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    int mp[2] = {-1, -1};
    for (int side = 0; side < 2; side++) {
        int ci = s->bid[side];
        int army = side == WNLB_SIDE_FRENCH ? WNLB_FR : ci >= 0 ? s->sc->cards[ci].army : s->bidder;
        if (ci < 0) {
            wnlb_event(ev, BRT_SEATS_ALL, "bid", army, NULL, -1, -1, 0, NULL, 0, "[7.0] no bid: an empty hand");
            continue;
        }
        int id = s->sc->cards[ci].id;
        mp[side] = s->sc->cards[ci].mp;
        wnlb_card_use(s, ci); /* [7.0] "A revealed card is considered used" */
        char text[96];
        snprintf(text, sizeof text, "[7.0] the bid revealed: MP %d, used, outside the 5-card maximum", mp[side]);
        wnlb_event(ev, BRT_SEATS_ALL, "bid", army, NULL, -1, -1, mp[side], &id, 1, text);
    }
    int first;
    if (mp[0] >= 0 && mp[1] < 0) first = WNLB_SIDE_FRENCH; /* [7.0] the other did not bid */
    else if (mp[1] >= 0 && mp[0] < 0) first = WNLB_SIDE_ALLIED;
    else if (mp[0] != mp[1]) first = mp[0] > mp[1] ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED;
    else {
        /* [7.0] a tie or no bids: blind draws, "repeat this process until one higher MP # card is drawn" */
        int fa = WNLB_FR, aa = s_draw_army(s, WNLB_SIDE_ALLIED);
        first = -1;
        if (s_draws_endless(s, fa, aa)) {
            first = WNLB_SIDE_FRENCH; /* R-wnlb-7.0-draws-put-back: no draw can differ */
            wnlb_event(ev, BRT_SEATS_ALL, "draw", -1, NULL, -1, -1, 0, NULL, 0,
                       "[7.0] no blind draw can differ: the French play first, as on turn 1");
        }
        for (int k = 0; first < 0 && k < 256; k++) {
            int f = s_draw(s, fa, dice, ev), a = s_draw(s, aa, dice, ev);
            if (f != a) first = f > a ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED;
        }
        if (first < 0) first = WNLB_SIDE_FRENCH;
    }
    /* [7.0] "If a British card is played for a bid, only British cards may be used for that first
     * player round" (R-wnlb-7.0-bid-binds): the Allied bid card binds the round it won */
    if (first == WNLB_SIDE_ALLIED && s->bid[1] >= 0) s->bound_army = (uint8_t)(s->sc->cards[s->bid[1]].army + 1);
    s->bid[0] = s->bid[1] = -1;
    wnlb_event(ev, BRT_SEATS_ALL, "first", first == WNLB_SIDE_FRENCH ? WNLB_FR : WNLB_BR, NULL, -1, -1, first, NULL,
               0,
               first == WNLB_SIDE_FRENCH ? "[7.0] the French play the first round"
                                         : "[7.0] the Allies play the first round");
    s->passes = 0;
    wnlb_round_start(s, first, ev);
}

int wnlb_first_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    if (s->phase == WNLB_PH_BIDDER) {
        if (o->kind != WNLB_O_BIDDER)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0",
                                  "name the Allied bidder: bidder british or bidder prussian");
        if (o->army != WNLB_BR && o->army != WNLB_PR)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0", "the Allied bidder is the British or the Prussian player");
        s->bidder = (uint8_t)o->army;
        s->phase = WNLB_PH_BID;
        wnlb_event(ev, BRT_SEATS_ALL, "bidder", o->army, NULL, -1, -1, 0, NULL, 0,
                   "[7.0] the British player decides who bids for the Allies");
        return 0;
    }
    if (o->kind != WNLB_O_BID) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0", "bid a card of your hand, or none");
    int side = wnlb_side_of_seat(s, seat);
    if ((int)seat != s_bid_seat(s, side))
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "7.0", "only one player bids for the Allied side");
    if (s->bid[side] != -2) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0", "your bid is in already");
    int ci = -1;
    if (o->card) {
        ci = wnlb_card_index(s, o->card);
        if (ci < 0 || s->card_loc[ci] != WNLB_LOC_HAND || !s_may_bid(s, side, s->sc->cards[ci].army))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "7.0", "card %d is not in the bidding hand", o->card);
    }
    s->bid[side] = (int8_t)ci;
    /* sealed: the bidder alone learns that it is recorded; nothing of the other bid [7.0] */
    int id = ci >= 0 ? s->sc->cards[ci].id : 0;
    wnlb_event(ev, 1u << seat, "bid-sealed", ci >= 0 ? s->sc->cards[ci].army : -1, NULL, -1, -1, 0, ci >= 0 ? &id : NULL,
               ci >= 0, "[7.0] your bid is sealed until both are in");
    if (s->bid[0] != -2 && s->bid[1] != -2) s_resolve(s, dice, ev);
    return 0;
}

void wnlb_first_pending(const wnlb_state *s, brt_pending *out) {
    if (s->phase == WNLB_PH_BIDDER) {
        out->seats = 1u << wnlb_seat_of_army(s, WNLB_BR);
        snprintf(out->kind, sizeof out->kind, "bidder");
        snprintf(out->rule, sizeof out->rule, "7.0");
        snprintf(out->prompt, sizeof out->prompt, "name the Allied bidder for the first player (british or prussian)");
        return;
    }
    out->sealed = 1;
    for (int side = 0; side < 2; side++)
        if (s->bid[side] == -2) out->seats |= 1u << s_bid_seat(s, side);
    snprintf(out->kind, sizeof out->kind, "bid");
    snprintf(out->rule, sizeof out->rule, "7.0");
    snprintf(out->prompt, sizeof out->prompt, "bid one card of your hand for the first player round, or none");
}

int wnlb_first_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    int n = 0;
    if (s->phase == WNLB_PH_BIDDER) {
        o.kind = WNLB_O_BIDDER;
        for (int a = WNLB_BR; a <= WNLB_PR; a++) {
            o.army = a;
            if (wnlb_order_encode(s, &o, out)) return -1;
            n++;
        }
        return n;
    }
    int side = wnlb_side_of_seat(s, seat);
    if ((int)seat != s_bid_seat(s, side) || s->bid[side] != -2) return 0;
    o.kind = WNLB_O_BID;
    o.card = 0;
    if (wnlb_order_encode(s, &o, out)) return -1;
    n++;
    for (size_t i = 0; i < s->sc->n_cards; i++) {
        if (s->card_loc[i] != WNLB_LOC_HAND || !s_may_bid(s, side, s->sc->cards[i].army)) continue;
        o.card = s->sc->cards[i].id;
        if (wnlb_order_encode(s, &o, out)) return -1;
        n++;
    }
    return n;
}

/* the clock runs out: the British names himself; a bid is an empty hand [7.0] */
int wnlb_first_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    if (s->phase == WNLB_PH_BIDDER) {
        o->kind = WNLB_O_BIDDER;
        o->army = WNLB_BR;
        return 0;
    }
    o->kind = WNLB_O_BID;
    o->card = 0;
    return 0;
}
