/*
 * ruleset.c - brt_ruleset_wnlb: the table the core calls, and the first engine:
 * set-up [3.1], the deal [3.2] [4.0], player rounds of cards played for Movement [6.0] [8.0]
 * (the MPs are not spent on units yet), passing and the end of the turn [4.0], victory [13.2] [13.3].
 * Not yet: bids [7.0], battles [9.0], actions [11.x], moves of units [8.x] (see README.md).
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"
#include "wnlb_render.h"

static const char *const s_names3[] = {"french", "british", "prussian"};
static const char *const s_names2[] = {"french", "allied"};

static int s_seats(const char *scenario, const char **names, size_t max) {
    const wnlb_scenario *sc = wnlb_scenario_get(scenario);
    if (!sc) return -1;
    for (size_t i = 0; names && i < max && i < sc->max_seats; i++)
        names[i] = sc->max_seats == 3 ? s_names3[i] : s_names2[i];
    return sc->max_seats;
}

static int s_hash(const char *scenario, uint8_t out[32]) {
    size_t len = 0;
    const char *t = wnlb_data_text(scenario, &len);
    if (!t || !wnlb_scenario_get(scenario)) return -1;
    return crypto_generichash(out, 32, (const unsigned char *)t, len, NULL, 0);
}

static const char *s_scenario_name(size_t i, unsigned *min_seats) {
    if (min_seats) *min_seats = 2;
    return wnlb_data_name(i);
}

static const char *s_scenario_option(const char *scenario, size_t i) {
    (void)scenario;
    (void)i;
    return NULL;
}

int wnlb_seat_of_army(const wnlb_state *s, int army) {
    if (army == WNLB_FR) return 0;
    if (s->nseats == 3) return army;
    return 1;
}

int wnlb_side_of_army(int army) { return army == WNLB_FR ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED; }

int wnlb_side_of_seat(const wnlb_state *s, unsigned seat) {
    (void)s;
    return seat == 0 ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED;
}

uint32_t wnlb_side_seats(const wnlb_state *s, int side) {
    if (side == WNLB_SIDE_FRENCH) return 1u;
    return s->nseats == 3 ? 6u : 2u;
}

void wnlb_event(brt_events *ev, uint32_t seats, const char *kind, int army, const char *unit, int row, int col,
                int value, const int *cards, int n_cards, const char *text) {
    if (!ev) return;
    Wnlb__V1__Event e = WNLB__V1__EVENT__INIT;
    char sq[8];
    uint32_t ids[WNLB_MAX_CARDS];
    e.kind = (char *)kind;
    e.army = army;
    e.unit = (char *)(unit ? unit : "");
    wnlb_square_name(row, col, sq, sizeof sq);
    e.square = row >= 0 ? sq : (char *)"";
    e.value = value;
    for (int i = 0; i < n_cards && i < WNLB_MAX_CARDS; i++) ids[i] = (uint32_t)cards[i];
    e.n_cards = (size_t)(n_cards > 0 ? n_cards : 0);
    e.cards = ids;
    e.text = (char *)(text ? text : "");
    size_t n = wnlb__v1__event__get_packed_size(&e);
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return;
    wnlb__v1__event__pack(&e, b);
    brt_events_emit(ev, seats, b, n);
    free(b);
}

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

/* ---- set-up [3.1] ---- */

wnlb_state *wnlb_state_new(const wnlb_scenario *sc, unsigned seats) {
    wnlb_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->sc = sc;
    s->nseats = (uint8_t)seats;
    s->turn = sc->first_turn;
    for (size_t i = 0; i < sc->n_units; i++) {
        const wnlb_unit_def *d = &sc->units[i];
        s->units[i].row = d->row;
        s->units[i].col = d->col;
        s->units[i].facing = d->facing;
        s->units[i].entered = d->row >= 0;
    }
    for (int a = 0; a < 2; a++) {
        s->cmd_row[a] = sc->cmd_row[a];
        s->cmd_col[a] = sc->cmd_col[a];
    }
    for (size_t i = 0; i < sc->n_chateaux; i++) s->cdp[i] = sc->chateaux[i].cdp;
    for (size_t i = 0; i < sc->n_vp; i++) s->vp_owner[i] = WNLB_SIDE_ALLIED; /* [3.1] British side up */
    s->moving = -1;
    s->interrupt_unit = s->mover = -1;
    s->battle.target = -1;
    s->bid[0] = s->bid[1] = -2;
    s->phase = WNLB_PH_ROUND;
    s->active_side = WNLB_SIDE_FRENCH; /* [3.2] [7.0] the French start game turn 1 */
    s->round_army = WNLB_FR;
    return s;
}

void wnlb_state_destroy(wnlb_state **p) {
    if (p && *p) {
        free(*p);
        *p = NULL;
    }
}

wnlb_state *wnlb_state_clone(const wnlb_state *s) {
    wnlb_state *c = malloc(sizeof *c);
    if (c) memcpy(c, s, sizeof *c);
    return c;
}

/* canonical bytes: every field but the scenario pointer (calloc'd, so padding is zero) */
int wnlb_state_encode(const wnlb_state *s, brt_buf *out) {
    if (buf_append_str(out, s->sc->name) || buf_append(out, "\0", 1)) return -1;
    return buf_append(out, (const uint8_t *)s + sizeof s->sc, sizeof *s - sizeof s->sc);
}

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice, brt_reject *err) {
    const wnlb_scenario *sc = wnlb_scenario_get(scenario);
    if (!sc) {
        brt_reject_set(err, BRT_REJECT_BAD_SCENARIO, "13.1", "unknown scenario \"%.40s\" for wnlb; valid: short, full",
                       scenario ? scenario : "");
        return NULL;
    }
    if (opts->count > 0) {
        brt_reject_set(err, BRT_REJECT_BAD_OPTION, "13.1", "wnlb takes no option (\"%.40s\")", opts->names[0]);
        return NULL;
    }
    if (opts->seats < 2 || opts->seats > sc->max_seats) {
        brt_reject_set(err, BRT_REJECT_BAD_SEATS, "1.0", "the %s game is played by 2%s seats, not %u", sc->name,
                       sc->max_seats == 3 ? " or 3" : "", opts->seats);
        return NULL;
    }
    wnlb_state *s = wnlb_state_new(sc, opts->seats);
    if (!s) {
        brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.0", "out of memory");
        return NULL;
    }
    wnlb_deal(s, dice, NULL); /* set-up has no event stream: the hands are in the state */
    return s;
}

static void s_destroy(void *st) {
    wnlb_state *s = st;
    wnlb_state_destroy(&s);
}

static void *s_clone(const void *st) { return wnlb_state_clone(st); }

/* ---- victory [13.2] [13.3] ---- */

void wnlb_scores(const wnlb_state *s, int32_t vp[2]) {
    vp[0] = s->elim_vp[0];
    vp[1] = s->elim_vp[1];
    for (size_t i = 0; i < s->sc->n_vp; i++) {
        const wnlb_vp_def *d = &s->sc->vp[i];
        if (!d->full_game) continue;
        vp[s->vp_owner[i]] += d->vp[s->vp_owner[i]];
    }
}

void wnlb_victory(wnlb_state *s, brt_events *ev) {
    s->over = 1;
    s->phase = WNLB_PH_OVER;
    char why[160];
    if (!s->sc->prussians) {
        /* [13.2] all three chateaux, or two of them plus Mt St Jean */
        int ch = 0, msj = 0;
        for (size_t i = 0; i < s->sc->n_vp; i++) {
            const wnlb_vp_def *d = &s->sc->vp[i];
            if (!d->short_game || s->vp_owner[i] != WNLB_SIDE_FRENCH) continue;
            if (!strcmp(d->name, "mt-st-jean")) msj = 1;
            else ch++;
        }
        int fr = ch >= 3 || (ch >= 2 && msj);
        s->winners = wnlb_side_seats(s, fr ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED);
        snprintf(s->level, sizeof s->level, "decisive");
        snprintf(why, sizeof why, "[13.2] the French hold %d chateaux%s: %s win", ch, msj ? " and Mt St Jean" : "",
                 fr ? "the French" : "the Allies");
    } else {
        int32_t vp[2];
        wnlb_scores(s, vp);
        s->winners = vp[0] > vp[1] ? wnlb_side_seats(s, 0) : vp[1] > vp[0] ? wnlb_side_seats(s, 1) : 0;
        snprintf(s->level, sizeof s->level, "%s", s->winners ? "points" : "draw");
        snprintf(why, sizeof why, "[13.3] French %d VP, Allied %d VP", (int)vp[0], (int)vp[1]);
    }
    wnlb_event(ev, BRT_SEATS_ALL, "ended", -1, NULL, -1, -1, (int)s->winners, NULL, 0, why);
}

/* ---- rounds [4.0] [6.0] ---- */

void wnlb_turn_end(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    wnlb_event(ev, BRT_SEATS_ALL, "turn", -1, NULL, -1, -1, s->turn, NULL, 0, "[4.0] the game turn is over");
    if (s->turn >= s->sc->last_turn) {
        wnlb_victory(s, ev);
        return;
    }
    s->turn++;
    wnlb_deal(s, dice, ev);
    /* [7.0] the bid is not played yet: the French start every turn (README: what is missing) */
    s->active_side = WNLB_SIDE_FRENCH;
    s->round_army = WNLB_FR;
    s->round_cards = 0;
    s->passes = 0;
    s->phase = WNLB_PH_ROUND;
}

void wnlb_round_end(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    for (size_t i = 0; i < s->sc->n_units; i++) s->units[i].moved = s->units[i].rallied = s->units[i].attacked = 0;
    int other = 1 - s->active_side;
    if (!wnlb_side_has_cards(s, 0) && !wnlb_side_has_cards(s, 1)) {
        wnlb_turn_end(s, dice, ev);
        return;
    }
    /* [4.0] exception: a side with no cards left; the other plays as many rounds as it wants */
    if (wnlb_side_has_cards(s, other)) s->active_side = (uint8_t)other;
    s->round_cards = 0;
    s->round_army = s->active_side == WNLB_SIDE_FRENCH ? WNLB_FR : WNLB_BR;
    if (s->active_side == WNLB_SIDE_ALLIED && !wnlb_hand_count(s, WNLB_BR)) s->round_army = WNLB_PR;
    s->phase = WNLB_PH_ROUND;
}

static int s_round_seat(const wnlb_state *s) { return wnlb_seat_of_army(s, s->round_army); }

int wnlb_apply_order(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                     brt_reject *err) {
    if (s->over) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "13.0", "the game is over");
    if (s->phase == WNLB_PH_ROUND) {
        if ((int)seat != s_round_seat(s))
            return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "4.0", "it is not your player round");
        if (o->kind == WNLB_O_PASS) {
            if (s->round_cards)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "you have played a card: end the round instead");
            s->passes++;
            wnlb_event(ev, BRT_SEATS_ALL, "pass", s->round_army, NULL, -1, -1, 0, NULL, 0, "[4.0] passes");
            if (s->passes >= 2) { /* [4.0] both sides passed consecutively */
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
        if (o->kind == WNLB_O_PLAY) {
            if (s->round_cards >= WNLB_ROUND_CARDS)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "five cards is the maximum of a player round");
            int ci = wnlb_card_in_hand(s, s->round_army, o->card);
            if (ci < 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "card %d is not in the hand of this round's deck", o->card);
            if (o->purpose != WNLB_PURPOSE_MOVE)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "only the Movement purpose is played by this version");
            wnlb_card_use(s, ci);
            s->round_cards++;
            s->mp_left = s->sc->cards[ci].mp;
            s->cur_card = (uint8_t)(ci + 1);
            int id = o->card;
            wnlb_event(ev, BRT_SEATS_ALL, "played", s->round_army, NULL, -1, -1, WNLB_PURPOSE_MOVE, &id, 1,
                       "[6.0] a card played for Movement");
            s->phase = WNLB_PH_MOVE;
            return 0;
        }
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "play a card, end the round or pass");
    }
    if (s->phase == WNLB_PH_MOVE) {
        if ((int)seat != s_round_seat(s))
            return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "8.0", "it is not your player round");
        if (o->kind != WNLB_O_DONE) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.0", "finish the movement (done)");
        s->mp_left = 0;
        s->cur_card = 0;
        s->moving = -1;
        s->phase = WNLB_PH_ROUND;
        if (!wnlb_hand_count(s, s->round_army) || s->round_cards >= WNLB_ROUND_CARDS) {
            s->passes = 0;
            wnlb_round_end(s, dice, ev);
        }
        return 0;
    }
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "4.0", "no decision is open");
}

void wnlb_pending(const wnlb_state *s, brt_pending *out) {
    memset(out, 0, sizeof *out);
    out->turn = s->turn;
    if (s->over) return;
    out->seats = 1u << s_round_seat(s);
    if (s->phase == WNLB_PH_MOVE) {
        snprintf(out->kind, sizeof out->kind, "move");
        snprintf(out->rule, sizeof out->rule, "8.0");
        snprintf(out->prompt, sizeof out->prompt, "move under the Movement card (%u MP), then done", s->mp_left);
    } else {
        snprintf(out->kind, sizeof out->kind, "round");
        snprintf(out->rule, sizeof out->rule, "6.0");
        snprintf(out->prompt, sizeof out->prompt, "play a card (%u of 5 played), end the round or pass", s->round_cards);
    }
}

/* ---- orders: wnlb_order <-> wnlb.v1.Order ---- */

int wnlb_order_encode(const wnlb_state *s, const wnlb_order *o, brt_buf *out) {
    (void)s;
    Wnlb__V1__Order m = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play p = WNLB__V1__PLAY__INIT;
    switch (o->kind) {
    case WNLB_O_PASS: m.kind_case = WNLB__V1__ORDER__KIND_PASS; m.pass = 1; break;
    case WNLB_O_END_ROUND: m.kind_case = WNLB__V1__ORDER__KIND_END_ROUND; m.end_round = 1; break;
    case WNLB_O_DONE: m.kind_case = WNLB__V1__ORDER__KIND_DONE; m.done = 1; break;
    case WNLB_O_PLAY:
        p.card = (uint32_t)o->card;
        p.purpose = (uint32_t)o->purpose;
        m.kind_case = WNLB__V1__ORDER__KIND_PLAY;
        m.play = &p;
        break;
    default: return -1;
    }
    size_t n = wnlb__v1__order__get_packed_size(&m);
    uint8_t b[256];
    if (n > sizeof b) return -1;
    wnlb__v1__order__pack(&m, b);
    return buf_append_item(out, b, n);
}

int wnlb_order_decode(const wnlb_state *s, const uint8_t *data, size_t len, wnlb_order *o, brt_reject *err) {
    (void)s;
    ProtobufCMessage *pm = NULL;
    int crc = canon_unpack(&wnlb__v1__order__descriptor, data, len, 4096, &pm);
    if (crc != CANON_OK) return brt_reject_set(err, BRT_REJECT_MALFORMED, "6.0", "the order: %s", canon_strerror(crc));
    Wnlb__V1__Order *m = (Wnlb__V1__Order *)pm;
    memset(o, 0, sizeof *o);
    o->unit = o->target = o->row = o->col = -1;
    int rc = 0;
    switch (m->kind_case) {
    case WNLB__V1__ORDER__KIND_PASS: o->kind = WNLB_O_PASS; rc = m->pass == 1 ? 0 : -1; break;
    case WNLB__V1__ORDER__KIND_END_ROUND: o->kind = WNLB_O_END_ROUND; rc = m->end_round == 1 ? 0 : -1; break;
    case WNLB__V1__ORDER__KIND_DONE: o->kind = WNLB_O_DONE; rc = m->done == 1 ? 0 : -1; break;
    case WNLB__V1__ORDER__KIND_PLAY:
        o->kind = WNLB_O_PLAY;
        o->card = (int)(m->play->card & 0xff);
        o->purpose = (int)(m->play->purpose & 0xff);
        break;
    default: rc = -1;
    }
    protobuf_c_message_free_unpacked(pm, NULL);
    if (rc) return brt_reject_set(err, BRT_REJECT_MALFORMED, "6.0", "an order this version does not take");
    return 0;
}

static int s_apply(void *st, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice, brt_events *ev,
                   brt_reject *err) {
    wnlb_state *s = st;
    wnlb_order o;
    if (seat >= s->nseats) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "1.0", "there is no seat %u", seat);
    if (wnlb_order_decode(s, order, len, &o, err)) return -1;
    return wnlb_apply_order(s, seat, &o, dice, ev, err);
}

int wnlb_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    if (s->over || (int)seat != s_round_seat(s)) return 0;
    int n = 0;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    if (s->phase == WNLB_PH_MOVE) {
        o.kind = WNLB_O_DONE;
        return wnlb_order_encode(s, &o, out) ? -1 : 1;
    }
    o.kind = s->round_cards ? WNLB_O_END_ROUND : WNLB_O_PASS;
    if (wnlb_order_encode(s, &o, out)) return -1;
    n++;
    if (s->round_cards < WNLB_ROUND_CARDS)
        for (size_t i = 0; i < s->sc->n_cards; i++) {
            if (s->sc->cards[i].army != s->round_army || s->card_loc[i] != WNLB_LOC_HAND) continue;
            o.kind = WNLB_O_PLAY;
            o.card = s->sc->cards[i].id;
            o.purpose = WNLB_PURPOSE_MOVE;
            if (wnlb_order_encode(s, &o, out)) return -1;
            n++;
        }
    return n;
}

static int s_legal(const void *st, unsigned seat, brt_buf *out) { return wnlb_legal(st, seat, out); }
static void s_pending(const void *st, brt_pending *out) { wnlb_pending(st, out); }

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
    v.phase = (char *)(s->over ? "over" : s->phase == WNLB_PH_MOVE ? "move" : "round");
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

static int s_view(const void *st, int vp, brt_buf *out) { return wnlb_view(st, vp, out); }
static int s_view_text(const void *st, int vp, brt_buf *out) { return wnlb_view_text(st, vp, out); }
static int s_encode(const void *st, brt_buf *out) { return wnlb_state_encode(st, out); }

static void s_result(const void *st, brt_result *out) {
    const wnlb_state *s = st;
    memset(out, 0, sizeof *out);
    if (!s->over) return;
    out->ended = 1;
    out->winners = s->winners;
    snprintf(out->level, sizeof out->level, "%s", s->level);
    snprintf(out->reason, sizeof out->reason, "%s", s->resigned ? "a side resigned" : "[13.0] the last game turn is over");
    int32_t vp[2];
    wnlb_scores(s, vp);
    for (unsigned i = 0; i < s->nseats; i++) out->scores[i] = vp[wnlb_side_of_seat(s, i)];
}

static void s_resign(void *st, unsigned seat, brt_events *ev) {
    wnlb_state *s = st;
    if (s->over) return;
    int side = wnlb_side_of_seat(s, seat);
    s->over = 1;
    s->phase = WNLB_PH_OVER;
    s->resigned = (uint8_t)(side + 1);
    s->winners = wnlb_side_seats(s, 1 - side);
    snprintf(s->level, sizeof s->level, "forfeit");
    wnlb_event(ev, BRT_SEATS_ALL, "resigned", -1, NULL, -1, -1, (int)seat, NULL, 0, "a side resigned");
}

/* [4.0] a player may always choose not to play: the default is pass (or end the round / done) */
static int s_timeout(void *st, unsigned seat, brt_dice *dice, brt_events *ev) {
    wnlb_state *s = st;
    wnlb_order o;
    brt_reject err;
    memset(&o, 0, sizeof o);
    o.kind = s->phase == WNLB_PH_MOVE ? WNLB_O_DONE : s->round_cards ? WNLB_O_END_ROUND : WNLB_O_PASS;
    return wnlb_apply_order(s, seat, &o, dice, ev, &err);
}

/* text syntax (docs/orders-wnlb.md): "pass", "end", "done", "play ID move" */
int wnlb_order_parse(const wnlb_state *s, const char *text, brt_buf *out, brt_reject *err) {
    wnlb_order o;
    memset(&o, 0, sizeof o);
    int id = 0;
    char purpose[16] = "";
    if (!text) return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "no order text");
    if (!strcmp(text, "pass")) o.kind = WNLB_O_PASS;
    else if (!strcmp(text, "end")) o.kind = WNLB_O_END_ROUND;
    else if (!strcmp(text, "done")) o.kind = WNLB_O_DONE;
    else if (sscanf(text, "play %d %15s", &id, purpose) == 2 && !strcmp(purpose, "move")) {
        o.kind = WNLB_O_PLAY;
        o.card = id;
        o.purpose = WNLB_PURPOSE_MOVE;
    } else
        return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "unknown order \"%.60s\" (pass, end, done, play ID move)", text);
    if (o.card < 0 || o.card > 255) return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "no card %d", o.card);
    return wnlb_order_encode(s, &o, out);
}

static int s_order_parse(const void *st, const char *text, brt_buf *out, brt_reject *err) {
    brt_buf tmp;
    buf_init(&tmp);
    int rc = wnlb_order_parse(st, text, &tmp, err);
    if (rc == 0) { /* order_parse gives the bare Order bytes */
        size_t pos = 0, n = 0;
        const uint8_t *item = NULL;
        rc = buf_next_item(&tmp, &pos, &item, &n) == 1 ? buf_append(out, item, n) : -1;
    }
    buf_free(&tmp);
    return rc;
}

int wnlb_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    Wnlb__V1__Order *m = wnlb__v1__order__unpack(NULL, len, order);
    if (!m) return -1;
    switch (m->kind_case) {
    case WNLB__V1__ORDER__KIND_PASS: buf_printf(out, "pass"); break;
    case WNLB__V1__ORDER__KIND_END_ROUND: buf_printf(out, "end"); break;
    case WNLB__V1__ORDER__KIND_DONE: buf_printf(out, "done"); break;
    case WNLB__V1__ORDER__KIND_PLAY: buf_printf(out, "play %u %s", m->play->card, m->play->purpose == 1 ? "move" : "action"); break;
    default: buf_printf(out, "order");
    }
    wnlb__v1__order__free_unpacked(m, NULL);
    return 0;
}

int wnlb_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    Wnlb__V1__Event *e = wnlb__v1__event__unpack(NULL, len, event);
    if (!e) return -1;
    buf_printf(out, "%s", e->kind);
    if (e->army >= 0 && e->army < WNLB_ARMIES) buf_printf(out, " %s", s_names3[e->army]);
    if (e->unit[0]) buf_printf(out, " %s", e->unit);
    if (e->square[0]) buf_printf(out, " %s", e->square);
    for (size_t i = 0; i < e->n_cards; i++) buf_printf(out, " #%u", e->cards[i]);
    if (e->text[0]) buf_printf(out, ": %s", e->text);
    wnlb__v1__event__free_unpacked(e, NULL);
    return 0;
}

static int s_render(const void *state, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    return wnlb_render(state, viewpoint, ctx, out);
}

const brt_ruleset brt_ruleset_wnlb = {
    .id = "wnlb",
    .version = WNLB_VERSION,
    .scenario_seats = s_seats,
    .scenario_hash = s_hash,
    .setup = s_setup,
    .destroy = s_destroy,
    .clone = s_clone,
    .pending = s_pending,
    .apply = s_apply,
    .legal = s_legal,
    .view = s_view,
    .view_text = s_view_text,
    .render = s_render,
    .encode = s_encode,
    .result = s_result,
    .resign = s_resign,
    .timeout_default = s_timeout,
    .order_parse = s_order_parse,
    .order_format = wnlb_order_format,
    .event_format = wnlb_event_format,
    .scenario_name = s_scenario_name,
    .scenario_option = s_scenario_option,
};
