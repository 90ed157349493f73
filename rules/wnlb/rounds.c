/*
 * rounds.c - the course of play [4.0] [6.0]: player rounds of 1 to 5 cards, each declared for one
 * purpose and finished before the next, passing, the end of the round and of the game turn. It is
 * also the engine's switchboard: each phase (WNLB_PH_*) belongs to the file of its rule, and
 * apply, pending, legal and the timeout default go to that file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"

/* the seat that plays the current round's army */
int wnlb_round_seat(const wnlb_state *s) { return wnlb_seat_of_army(s, s->round_army); }

/* ---- the end of the game turn and of the round [4.0] ---- */

void wnlb_turn_end(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    wnlb_event(ev, BRT_SEATS_ALL, "turn", -1, NULL, -1, -1, s->turn, NULL, 0, "[4.0] the game turn is over");
    if (s->turn >= s->sc->last_turn) {
        wnlb_victory(s, ev);
        return;
    }
    s->turn++;
    wnlb_deal(s, dice, ev);
    s->round_cards = 0;
    s->passes = 0;
    wnlb_first_start(s, dice, ev); /* [7.0] who plays the first round */
}

/* [4.0] "When a player has finished his round, remove all Moved and Rally Markers"; play passes to
 * the other side, unless it has no cards left: then this side plays as many rounds as it wants. */
void wnlb_round_end(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    for (size_t i = 0; i < s->sc->n_units; i++) s->units[i].moved = s->units[i].rallied = s->units[i].attacked = 0;
    wnlb_event(ev, BRT_SEATS_ALL, "round", s->round_army, NULL, -1, -1, s->round_cards, NULL, 0,
               "[4.0] the player round is over");
    int other = 1 - s->active_side;
    if (!wnlb_side_has_cards(s, 0) && !wnlb_side_has_cards(s, 1)) {
        wnlb_turn_end(s, dice, ev);
        return;
    }
    if (wnlb_side_has_cards(s, other)) s->active_side = (uint8_t)other;
    wnlb_round_start(s, s->active_side, ev);
}

/* a new round of side: its army. The Allied side plays one deck per round [6.0]: the deck a won
 * bid binds [7.0], the only deck with cards, or the Allied deck choice (PH_DECK) when both hold
 * cards (R-wnlb-6.0-allied-deck). */
void wnlb_round_start(wnlb_state *s, int side, brt_events *ev) {
    (void)ev;
    s->active_side = (uint8_t)side;
    s->round_cards = 0;
    s->cur_card = 0;
    s->phase = WNLB_PH_ROUND;
    if (side == WNLB_SIDE_FRENCH) {
        s->round_army = WNLB_FR;
        return;
    }
    if (s->bound_army) { /* [7.0] the first Allied round after a British (Prussian) bid card */
        s->round_army = (uint8_t)(s->bound_army - 1);
        s->bound_army = 0;
        return;
    }
    int br = wnlb_hand_count(s, WNLB_BR), pr = wnlb_hand_count(s, WNLB_PR);
    s->round_army = br || !pr ? WNLB_BR : WNLB_PR;
    if (br && pr) s->phase = WNLB_PH_DECK;
}

/* the card's purpose is complete [6.0]: the other side's Artillery Fire window
 * (R-wnlb-11.1-windows), then one battle may follow [9.0] */
void wnlb_card_done(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    (void)dice;
    (void)ev;
    s->mp_left = 0;
    s->moving = -1;
    s->phase = WNLB_PH_DECLARE;
    wnlb_fire_open(s, -1);
}

/* the card and its battle are over: the next card, or the round ends (five cards, or none left) */
void wnlb_after_card(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    s->cur_card = 0;
    s->phase = WNLB_PH_ROUND;
    if (!wnlb_hand_count(s, s->round_army) || s->round_cards >= WNLB_ROUND_CARDS) {
        s->passes = 0;
        wnlb_round_end(s, dice, ev);
    }
}

/* ---- the round's own decisions: play a card, end the round, pass [4.0] [6.0] ---- */

int wnlb_round_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    if ((int)seat != wnlb_round_seat(s))
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "4.0", "it is not your player round");
    if (o->kind == WNLB_O_PASS) {
        if (s->round_cards)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "you have played a card: end the round instead");
        s->passes++;
        wnlb_event(ev, BRT_SEATS_ALL, "pass", s->round_army, NULL, -1, -1, 0, NULL, 0, "[4.0] passes");
        /* [4.0] both sides passed consecutively; a side with no cards left passes too */
        if (s->passes >= 2 || !wnlb_side_has_cards(s, 1 - s->active_side)) {
            wnlb_turn_end(s, dice, ev);
            return 0;
        }
        wnlb_round_end(s, dice, ev);
        return 0;
    }
    if (o->kind == WNLB_O_END_ROUND) {
        if (!s->round_cards) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "play a card or pass");
        s->passes = 0;
        wnlb_round_end(s, dice, ev);
        return 0;
    }
    if (o->kind != WNLB_O_PLAY) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "play a card, end the round or pass");
    if (s->round_cards >= WNLB_ROUND_CARDS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "five cards is the maximum of a player round");
    int ci = wnlb_card_in_hand(s, s->round_army, o->card);
    if (ci < 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "card %d is not in the hand of this round's deck", o->card);
    if (o->purpose == WNLB_PURPOSE_ACTION) {
        /* [11.0] the action's own checks come first: a refused action leaves the card in hand */
        wnlb_state *t = wnlb_state_clone(s);
        if (!t) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.0", "out of memory");
        wnlb_card_use(t, ci);
        t->round_cards++;
        t->passes = 0;
        t->cur_card = (uint8_t)(ci + 1);
        int rc = wnlb_action_apply(t, seat, o, ci, dice, ev, err);
        if (rc == 0) memcpy(s, t, sizeof *s);
        wnlb_state_destroy(&t);
        return rc;
    }
    if (o->purpose != WNLB_PURPOSE_MOVE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "a card is played for Movement or for its Action");
    wnlb_card_use(s, ci);
    s->round_cards++;
    s->passes = 0;
    s->mp_left = s->sc->cards[ci].mp;
    s->cur_card = (uint8_t)(ci + 1);
    s->moving = -1;
    int id = o->card;
    wnlb_event(ev, BRT_SEATS_ALL, "played", s->round_army, NULL, -1, -1, WNLB_PURPOSE_MOVE, &id, 1,
               "[6.0] a card played for Movement");
    s->phase = WNLB_PH_MOVE;
    return 0;
}

void wnlb_round_pending(const wnlb_state *s, brt_pending *out) {
    out->seats = 1u << wnlb_round_seat(s);
    snprintf(out->kind, sizeof out->kind, "round");
    snprintf(out->rule, sizeof out->rule, "6.0");
    snprintf(out->prompt, sizeof out->prompt, "play a card (%u of 5 played), end the round or pass", s->round_cards);
}

int wnlb_round_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    if ((int)seat != wnlb_round_seat(s)) return 0;
    int n = 0;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = s->round_cards ? WNLB_O_END_ROUND : WNLB_O_PASS;
    if (wnlb_order_encode(s, &o, out)) return -1;
    n++;
    if (s->round_cards >= WNLB_ROUND_CARDS) return n;
    for (size_t i = 0; i < s->sc->n_cards; i++) {
        if (s->sc->cards[i].army != s->round_army || s->card_loc[i] != WNLB_LOC_HAND) continue;
        o.kind = WNLB_O_PLAY;
        o.card = s->sc->cards[i].id;
        o.purpose = WNLB_PURPOSE_MOVE;
        if (wnlb_order_encode(s, &o, out)) return -1;
        n++;
        int k = wnlb_action_legal(s, seat, (int)i, out);
        if (k < 0) return -1;
        n += k;
    }
    return n;
}

int wnlb_round_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    o->kind = s->round_cards ? WNLB_O_END_ROUND : WNLB_O_PASS;
    return 0;
}

/* ---- the switchboard: each phase to the file of its rule ---- */

typedef struct s_phase {
    int (*apply)(wnlb_state *, unsigned, const wnlb_order *, brt_dice *, brt_events *, brt_reject *);
    void (*pending)(const wnlb_state *, brt_pending *);
    int (*legal)(const wnlb_state *, unsigned, brt_buf *);
    int (*dflt)(const wnlb_state *, unsigned, wnlb_order *);
} s_phase;

static const s_phase s_phases[WNLB_PH_OVER] = {
    [WNLB_PH_BIDDER] = {wnlb_first_apply, wnlb_first_pending, wnlb_first_legal, wnlb_first_default},
    [WNLB_PH_BID] = {wnlb_first_apply, wnlb_first_pending, wnlb_first_legal, wnlb_first_default},
    [WNLB_PH_DECK] = {wnlb_deck_apply, wnlb_deck_pending, wnlb_deck_legal, wnlb_deck_default},
    [WNLB_PH_ROUND] = {wnlb_round_apply, wnlb_round_pending, wnlb_round_legal, wnlb_round_default},
    [WNLB_PH_MOVE] = {wnlb_move_apply, wnlb_move_pending, wnlb_move_legal, wnlb_move_default},
    [WNLB_PH_CAV_RETREAT] = {wnlb_move_apply, wnlb_move_pending, wnlb_move_legal, wnlb_move_default},
    [WNLB_PH_DISPLACE] = {wnlb_displace_apply, wnlb_displace_pending, wnlb_displace_legal, wnlb_displace_default},
    [WNLB_PH_DECLARE] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_BATTLE_CARDS] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_LOSS] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_ADVANCE] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_ATT_REDUCE] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_CHARGE] = {wnlb_battle_apply, wnlb_battle_pending, wnlb_battle_legal, wnlb_battle_default},
    [WNLB_PH_FIRE] = {wnlb_fire_apply, wnlb_fire_pending, wnlb_fire_legal, wnlb_fire_default},
};

static const s_phase *s_of(const wnlb_state *s) {
    if (s->over || s->phase >= WNLB_PH_OVER || !s_phases[s->phase].apply) return NULL;
    return &s_phases[s->phase];
}

int wnlb_apply_order(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    const s_phase *p = s_of(s);
    if (!p) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "13.0", "the game is over");
    brt_pending pend;
    wnlb_pending(s, &pend);
    if (!(pend.seats & (1u << seat)))
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, pend.rule, "not your decision: %s", pend.prompt);
    return p->apply(s, seat, o, dice, ev, err);
}

void wnlb_pending(const wnlb_state *s, brt_pending *out) {
    memset(out, 0, sizeof *out);
    out->turn = s->turn;
    const s_phase *p = s_of(s);
    if (p) p->pending(s, out);
}

int wnlb_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    const s_phase *p = s_of(s);
    brt_pending pend;
    wnlb_pending(s, &pend);
    if (!p || seat >= 32 || !(pend.seats & (1u << seat))) return 0;
    return p->legal(s, seat, out);
}

/* the rules' default when a seat's clock runs out: what "not playing" means in that phase */
int wnlb_default_order(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    memset(o, 0, sizeof *o);
    o->unit = o->target = o->row = o->col = -1;
    const s_phase *p = s_of(s);
    return p ? p->dflt(s, seat, o) : -1;
}

/* ---- [6.0] which Allied deck plays the round (3 seats: the British decides) ---- */

int wnlb_deck_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    (void)seat, (void)dice;
    if (o->kind != WNLB_O_DECK)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0",
                              "choose the deck of this Allied round: deck british or deck prussian");
    if (o->army != WNLB_BR && o->army != WNLB_PR)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "an Allied round plays British/Allied or Prussian cards");
    if (!wnlb_hand_count(s, o->army))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "the %s hand holds no card",
                              o->army == WNLB_BR ? "British" : "Prussian");
    s->round_army = (uint8_t)o->army;
    s->phase = WNLB_PH_ROUND;
    wnlb_event(ev, BRT_SEATS_ALL, "deck", o->army, NULL, -1, -1, 0, NULL, 0,
               o->army == WNLB_BR ? "[6.0] this Allied round plays British/Allied cards only"
                                  : "[6.0] this Allied round plays Prussian cards only");
    return 0;
}

/* R-wnlb-6.0-allied-deck: the British seat decides (3 seats), the one Allied seat (2 seats) */
void wnlb_deck_pending(const wnlb_state *s, brt_pending *out) {
    out->seats = 1u << wnlb_seat_of_army(s, WNLB_BR);
    snprintf(out->kind, sizeof out->kind, "deck");
    snprintf(out->rule, sizeof out->rule, "6.0");
    snprintf(out->prompt, sizeof out->prompt, "which Allied deck plays this round: british or prussian");
}

int wnlb_deck_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_DECK;
    int n = 0;
    for (int a = WNLB_BR; a <= WNLB_PR; a++) {
        if (!wnlb_hand_count(s, a)) continue;
        o.army = a;
        if (wnlb_order_encode(s, &o, out)) return -1;
        n++;
    }
    return n;
}

int wnlb_deck_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    o->kind = WNLB_O_DECK;
    o->army = wnlb_hand_count(s, WNLB_BR) ? WNLB_BR : WNLB_PR;
    return 0;
}
