/*
 * cards.c - the three decks [2.4]: hands, the unused portion, the deal of each game turn [3.2] [4.0]
 * and a card's return to the unused portion once used [6.0].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"

/* ---- cards [3.2] [4.0] [6.0] ---- */

int wnlb_card_index(const wnlb_state *s, int id) {
    for (size_t i = 0; i < s->sc->n_cards; i++)
        if (s->sc->cards[i].id == id) return (int)i;
    return -1;
}

int wnlb_hand_count(const wnlb_state *s, int army) {
    int n = 0;
    for (size_t i = 0; i < s->sc->n_cards; i++)
        if (s->sc->cards[i].army == army && s->card_loc[i] == WNLB_LOC_HAND) n++;
    return n;
}

int wnlb_unused_count(const wnlb_state *s, int army) {
    int n = 0;
    for (size_t i = 0; i < s->sc->n_cards; i++)
        if (s->sc->cards[i].army == army && s->card_loc[i] == WNLB_LOC_UNUSED) n++;
    return n;
}

int wnlb_card_in_hand(const wnlb_state *s, int army, int id) {
    int ci = wnlb_card_index(s, id);
    if (ci < 0 || s->sc->cards[ci].army != army || s->card_loc[ci] != WNLB_LOC_HAND) return -1;
    return ci;
}

void wnlb_card_use(wnlb_state *s, int ci) { s->card_loc[ci] = WNLB_LOC_UNUSED; }

int wnlb_side_has_cards(const wnlb_state *s, int side) {
    if (side == WNLB_SIDE_FRENCH) return wnlb_hand_count(s, WNLB_FR) > 0;
    return wnlb_hand_count(s, WNLB_BR) + wnlb_hand_count(s, WNLB_PR) > 0;
}

/* [4.0] each deck shuffled whole, then dealt; the rest is the unused portion. The shuffle's rolls
 * are seen by nobody (brt_dice_shuffle); each hand goes to its owner only, the counts to all. */
void wnlb_deal(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    for (int a = 0; a < WNLB_ARMIES; a++) {
        if (a == WNLB_PR && !s->sc->prussians) continue;
        uint32_t idx[WNLB_MAX_CARDS];
        size_t n = 0;
        for (size_t i = 0; i < s->sc->n_cards; i++)
            if (s->sc->cards[i].army == a) {
                s->card_loc[i] = WNLB_LOC_UNUSED;
                idx[n++] = (uint32_t)i;
            }
        if (!n) continue;
        brt_dice_shuffle(dice, idx, n, a == WNLB_FR ? "4.0 shuffle the French deck"
                                        : a == WNLB_BR ? "4.0 shuffle the British/Allied deck"
                                                       : "4.0 shuffle the Prussian deck");
        size_t k = s->sc->deal[a][s->turn];
        if (k > n) k = n;
        int ids[WNLB_MAX_CARDS];
        for (size_t i = 0; i < k; i++) s->card_loc[idx[i]] = WNLB_LOC_HAND;
        int m = 0;
        for (size_t i = 0; i < s->sc->n_cards; i++) /* by id: the order leaks nothing */
            if (s->sc->cards[i].army == a && s->card_loc[i] == WNLB_LOC_HAND) ids[m++] = s->sc->cards[i].id;
        uint32_t owner = 1u << wnlb_seat_of_army(s, a);
        wnlb_event(ev, owner, "dealt", a, NULL, -1, -1, m, ids, m, "[4.0] your hand for this game turn");
        wnlb_event(ev, BRT_SEATS_ALL & ~owner, "dealt", a, NULL, -1, -1, m, NULL, 0, "[4.0] cards dealt");
    }
}

