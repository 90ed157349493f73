/*
 * events.c - Random Events [5.0]: the Event deck, drawing, and the card
 * effects (the effect kinds are data: the "card" records of the scenario files).
 */
#include "n20.h"

void n20_deck_reshuffle(n20_state *s, brt_dice *dice, n20_out *out, const char *why) {
    uint32_t all[N20_MAX_CARDS];
    size_t n = 0;
    for (int i = 0; i < s->ndraw; i++) all[n++] = s->draw[i];
    for (int i = 0; i < s->ndiscard; i++) all[n++] = s->discard[i];
    /* canonical order before the shuffle, so the result depends only on the dice */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && all[j - 1] > all[j]; j--) {
            uint32_t t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    /* [5.0] the new Draw Pile order is hidden: the shuffle's rolls are seen by nobody before the end */
    brt_dice_shuffle(dice, all, n, "5.0 event deck shuffle");
    for (size_t i = 0; i < n; i++) s->draw[i] = (uint8_t)all[i];
    s->ndraw = (uint8_t)n;
    s->ndiscard = 0;
    N20_EV(out, s, "reshuffle", "[%s] the Event cards are reshuffled (%u cards)", why, (unsigned)n);
}

static void s_effect(n20_state *s, int card, int effect, int amount, n20_out *out) {
    int side = s->phasing;
    switch (effect) {
    case N20_E_MORALE_SELF:
        n20_morale_one(s, side, amount, out, "5.0 event");
        break;
    case N20_E_MORALE_ENEMY:
        n20_morale_one(s, 1 - side, amount, out, "5.0 event");
        break;
    case N20_E_RALLY:
        s->rally_event = 1;
        if (s->opts & N20_OPT_LEADERS) s->rally_on = s->sc->cards[card].rally_on; /* [16.9.8] */
        break;
    case N20_E_MOVE_MOD: s->move_mod = (int8_t)amount; break;
    case N20_E_GOOD_GROUND:
        if (side == N20_ALLIED) s->gg_event = 1; /* [5.1] placed at the end of the Movement Phase */
        break;
    case N20_E_FREDERICK: {
        int u = n20_unit_find(s, "FREDERICK");
        if (u >= 0 && s->u[u].where == N20_U_OUT) {
            s->u[u].where = N20_U_VARIABLE; /* [11.6] rolls from this turn on */
            s->u[u].arrive = s->turn;
            int us[1] = {u};
            n20_event(out, s, "reinforcement", us, 1, NULL, 0, NULL, 0,
                      "[11.6] " N20_U(0) " is released: it rolls for arrival at 2001");
        }
        break;
    }
    case N20_E_FM_FREE: s->fm_free = 1; break;
    default: break;
    }
    (void)card;
}

/* [5.0] a kept card goes to the Discard Pile: used, or its timeframe is over */
void n20_card_discard_kept(n20_state *s, int side, int card, n20_out *out, const char *why) {
    if (!(s->kept[side] & (1u << card))) return;
    s->kept[side] &= (uint16_t) ~(1u << card);
    s->discard[s->ndiscard++] = (uint8_t)card;
    int kv[1] = {s->sc->cards[card].number};
    n20_event(out, s, "card-discarded", NULL, 0, NULL, 0, kv, 1, "[5.0] %s discards kept #%u %s: %s",
              n20_side_name(side), s->sc->cards[card].number, s->sc->cards[card].title, why);
}

/* the index of the card numbered `number` that `side` keeps, or -1 */
int n20_card_kept(const n20_state *s, int side, unsigned number) {
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == number && (s->kept[side] & (1u << i))) return i;
    return -1;
}

void n20_events_phase(n20_state *s, brt_dice *dice, n20_out *out) {
    if (s->ndraw == 0) n20_deck_reshuffle(s, dice, out, "5.0 the Draw Pile is empty (rulings R-5.0-empty)");
    if (s->ndraw == 0) return;
    int card = s->draw[0];
    for (int i = 1; i < s->ndraw; i++) s->draw[i - 1] = s->draw[i];
    s->ndraw--;
    const n20_card_def *c = &s->sc->cards[card];
    int side = s->phasing;
    int v[3] = {c->number, c->effect[side], c->amount[side]};
    n20_event(out, s, "event-card", NULL, 0, NULL, 0, v, 3, "[5.0] %s draws #%u %s", n20_side_name(side),
              c->number, c->title);
    if (c->keep[side]) { /* [5.0] "Keep this card": its effect waits for the holder to use it */
        s->kept[side] |= (uint16_t)(1u << card);
        int kv[1] = {c->number};
        n20_event(out, s, "card-kept", NULL, 0, NULL, 0, kv, 1,
                  "[5.0] %s keeps #%u %s until it is used or the beginning of the next %s Night turn",
                  n20_side_name(side), c->number, c->title, n20_side_name(side));
        return;
    }
    s->discard[s->ndiscard++] = (uint8_t)card;
    s_effect(s, card, c->effect[side], c->amount[side], out);
    n20_ae_card(s, c->effect[side], dice, out); /* A-E [6.10.1] [6.10.2] pontoon-damage */
    n20_weather_card(s, c->number, out); /* [16.10.1] */
    if (!s->over && c->effect[side] == N20_E_RESHUFFLE)
        n20_deck_reshuffle(s, dice, out, "5.0 the event says to reshuffle");
}
