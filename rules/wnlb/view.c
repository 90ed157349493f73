/*
 * view.c - what each viewpoint may see [2.4] [3.2]: every hand is its owner's alone, the unused
 * portion nobody's, the counts everybody's. BRT_VIEW_ALL sees everything, BRT_VIEW_PUBLIC no hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"

static const char *const s_names3[] = {"french", "british", "prussian"};

/* [2.4] a hand is its owner's alone; BRT_VIEW_ALL sees every hand, BRT_VIEW_PUBLIC none */
int wnlb_may_see_hand(const wnlb_state *s, int vp, int army) {
    if (vp == BRT_VIEW_ALL) return 1;
    if (vp < 0) return 0;
    return wnlb_seat_of_army(s, army) == vp;
}

int wnlb_view_text(const wnlb_state *s, int vp, brt_buf *out) {
    buf_printf(out, "wnlb %s turn %u/%u, %s round (%s deck), %u cards played\n", s->sc->name, s->turn, s->sc->last_turn,
               s->active_side ? "Allied" : "French", s_names3[s->round_army], s->round_cards);
    for (int a = 0; a < WNLB_ARMIES; a++) {
        buf_printf(out, "%s hand: %d cards", s_names3[a], wnlb_hand_count(s, a));
        if (wnlb_may_see_hand(s, vp, a))
            for (size_t i = 0; i < s->sc->n_cards; i++)
                if (s->sc->cards[i].army == a && s->card_loc[i] == WNLB_LOC_HAND)
                    buf_printf(out, " #%u(MP%u BP%u)", s->sc->cards[i].id, s->sc->cards[i].mp, s->sc->cards[i].bp);
        buf_printf(out, "\n");
    }
    for (size_t i = 0; i < s->sc->n_units; i++) {
        char sq[8];
        const wnlb_unit *u = &s->units[i];
        wnlb_square_name(u->row, u->col, sq, sizeof sq);
        buf_printf(out, "%s %s facing %c%s%s\n", s->sc->units[i].id, sq, "NESW"[u->facing & 3], u->reduced ? " reduced" : "",
                   u->disordered ? " disordered" : "");
    }
    return 0;
}

int wnlb_view(const wnlb_state *s, int vp, brt_buf *out) {
    Wnlb__V1__View v = WNLB__V1__VIEW__INIT;
    Wnlb__V1__Hand hands[WNLB_ARMIES], *hp[WNLB_ARMIES];
    Wnlb__V1__Card cards[WNLB_MAX_CARDS], *cp[WNLB_MAX_CARDS];
    Wnlb__V1__Unit units[WNLB_MAX_UNITS], *up[WNLB_MAX_UNITS];
    char sqs[WNLB_MAX_UNITS][8];
    size_t nc = 0;
    v.scenario = (char *)s->sc->name;
    v.turn = s->turn;
    v.last_turn = s->sc->last_turn;
    brt_pending pend;
    wnlb_pending(s, &pend);
    v.phase = s->over ? (char *)"over" : pend.kind; /* the decision open now (rounds.c) */
    v.active_side = s->active_side;
    v.round_army = s->round_army;
    v.round_cards = s->round_cards;
    v.mp_left = s->mp_left;
    v.rows = s->sc->rows;
    v.cols = s->sc->cols;
    for (int a = 0; a < WNLB_ARMIES; a++) {
        wnlb__v1__hand__init(&hands[a]);
        hp[a] = &hands[a];
        hands[a].army = (uint32_t)a;
        hands[a].count = (uint32_t)wnlb_hand_count(s, a);
        hands[a].unused = (uint32_t)wnlb_unused_count(s, a);
        hands[a].cards = &cp[nc];
        if (wnlb_may_see_hand(s, vp, a))
            for (size_t i = 0; i < s->sc->n_cards; i++) {
                const wnlb_card_def *d = &s->sc->cards[i];
                if (d->army != a || s->card_loc[i] != WNLB_LOC_HAND) continue;
                wnlb__v1__card__init(&cards[nc]);
                cards[nc].id = d->id;
                cards[nc].army = d->army;
                cards[nc].mp = d->mp;
                cards[nc].bp = d->bp;
                cards[nc].action = d->action;
                cards[nc].value = d->value;
                cp[nc] = &cards[nc];
                nc++;
                hands[a].n_cards++;
            }
    }
    v.n_hands = WNLB_ARMIES;
    v.hands = hp;
    for (size_t i = 0; i < s->sc->n_units; i++) {
        const wnlb_unit_def *d = &s->sc->units[i];
        const wnlb_unit *u = &s->units[i];
        wnlb__v1__unit__init(&units[i]);
        up[i] = &units[i];
        units[i].id = (char *)d->id;
        units[i].name = (char *)d->name;
        units[i].army = d->army;
        units[i].type = d->type;
        wnlb_square_name(u->row, u->col, sqs[i], sizeof sqs[i]);
        units[i].square = u->row >= 0 ? sqs[i] : (char *)"";
        units[i].facing = u->facing;
        units[i].reduced = u->reduced;
        units[i].disordered = u->disordered;
        units[i].moved = u->moved;
        units[i].rallied = u->rallied;
        units[i].eliminated = u->eliminated;
        units[i].bp = u->reduced ? d->reduced : d->full;
        units[i].elite = d->elite;
        units[i].heavy = d->heavy;
    }
    v.n_units = s->sc->n_units;
    v.units = up;
    size_t n = wnlb__v1__view__get_packed_size(&v);
    if (buf_reserve(out, n)) return -1;
    wnlb__v1__view__pack(&v, out->data + out->len);
    out->len += n;
    return 0;
}

