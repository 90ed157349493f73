/*
 * wnlb_t.h - utilities for the wnlb rule-case tests (tests/unit/test_wnlb_*.c): the ruleset
 * driven in process through its interface (setup, order_parse, apply, legal, pending, view),
 * a keyed dice stream that records every roll with the seats that may see it, a stand-in for
 * the core's event collector that keeps every event with its seat mask, and random play.
 * Header-only so that every test program stays a single file. A program that includes it
 * must not call the core's game driver (core/game.c), whose brt_events this replaces.
 */
#ifndef BERTHIER_TEST_WNLB_T_H
#define BERTHIER_TEST_WNLB_T_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "canon.h"
#include "dice.h"
#include "ruleset.h"
#include "wnlb/v1/wnlb.pb-c.h"
#include "wnlb/wnlb.h"

/* ---- events: the core's collector replaced by a recorder --------------------------- */

#define T_MAX_EV 512
typedef struct t_ev {
    uint32_t mask;          /* the seats that may see it (BRT_SEATS_ALL public, bit 31 spectators) */
    Wnlb__V1__Event *e;     /* decoded */
} t_ev;

struct brt_events {
    t_ev ev[T_MAX_EV];
    int n;                  /* kept (at most T_MAX_EV) */
    int total;              /* emitted since the last clear */
    int bad;                /* an event that did not decode */
};

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    ev->total++;
    Wnlb__V1__Event *e = wnlb__v1__event__unpack(NULL, len, data);
    if (!e) {
        ev->bad++;
        return 0;
    }
    if (ev->n < T_MAX_EV) {
        ev->ev[ev->n].mask = visible;
        ev->ev[ev->n].e = e;
        ev->n++;
    } else {
        wnlb__v1__event__free_unpacked(e, NULL);
    }
    return 0;
}

static inline void t_ev_clear(brt_events *ev) {
    for (int i = 0; i < ev->n; i++) wnlb__v1__event__free_unpacked(ev->ev[i].e, NULL);
    memset(ev, 0, sizeof *ev);
}

/* the i-th event of that kind among the recorded ones, or NULL */
static inline const t_ev *t_ev_kind(const brt_events *ev, const char *kind, int nth) {
    for (int i = 0; i < ev->n; i++)
        if (strcmp(ev->ev[i].e->kind, kind) == 0 && nth-- == 0) return &ev->ev[i];
    return NULL;
}

/* ---- dice: a keyed stream, every roll recorded --------------------------------------- */

#define T_MAX_ROLLS 512
typedef struct t_dice {
    brt_dice d;
    uint8_t key[DICE_KEY_BYTES];
    int n;                                  /* rolls since the last clear (kept: T_MAX_ROLLS) */
    uint32_t seats[T_MAX_ROLLS];
    uint32_t value[T_MAX_ROLLS];
    char purpose[T_MAX_ROLLS][DICE_PURPOSE_MAX];
} t_dice;

static uint32_t t_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    t_dice *t = ctx;
    return dice_stream_value(t->key, index, sides);
}

static void t_dice_record(void *ctx, uint64_t index, uint32_t sides, uint32_t value, uint32_t seats,
                          const char *purpose) {
    (void)index, (void)sides;
    t_dice *t = ctx;
    if (t->n < T_MAX_ROLLS) {
        t->seats[t->n] = seats;
        t->value[t->n] = value;
        snprintf(t->purpose[t->n], DICE_PURPOSE_MAX, "%s", purpose ? purpose : "");
    }
    t->n++;
}

static inline void t_dice_init(t_dice *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 8; i++) t->key[i] = (uint8_t)(seed >> (8 * i));
    t->key[8] = 0x77;
    t->d.source = t_dice_source;
    t->d.source_ctx = t;
    t->d.record = t_dice_record;
    t->d.record_ctx = t;
}

/* ---- a game in process --------------------------------------------------------------- */

typedef struct t_fx {
    const brt_ruleset *rs;
    wnlb_state *s;
    t_dice d;
    brt_events ev;
    brt_reject err;
    unsigned seats;
} t_fx;

static inline t_fx *t_new(const char *scenario, unsigned seats, uint64_t seed) {
    t_fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->rs = brt_ruleset_find("wnlb");
    assert_non_null(f->rs);
    t_dice_init(&f->d, seed);
    f->seats = seats;
    brt_ruleset_options o = {NULL, 0, seats};
    f->s = f->rs->setup(scenario, &o, &f->d.d, &f->err);
    if (!f->s) fail_msg("setup %s/%u: [%s] %s", scenario, seats, f->err.rule, f->err.message);
    return f;
}

static inline void t_free(t_fx *f) {
    t_ev_clear(&f->ev);
    f->rs->destroy(f->s);
    free(f);
}

/* apply an order's bytes for seat: the events and rolls of this order only are kept */
static inline int t_apply(t_fx *f, unsigned seat, const uint8_t *o, size_t len) {
    t_ev_clear(&f->ev);
    f->d.n = 0;
    memset(&f->err, 0, sizeof f->err);
    return f->rs->apply(f->s, seat, o, len, &f->d.d, &f->ev, &f->err);
}

/* parse the text syntax (the ruleset's order text) and apply it; -1 if either refuses */
static inline int t_do(t_fx *f, unsigned seat, const char *text) {
    brt_buf b;
    buf_init(&b);
    memset(&f->err, 0, sizeof f->err);
    if (f->rs->order_parse(f->s, text, &b, &f->err) != 0) {
        buf_free(&b);
        return -1;
    }
    int rc = t_apply(f, seat, b.data, b.len);
    buf_free(&b);
    return rc;
}

#define T_OK(f, seat, text)                                                                           \
    do {                                                                                              \
        if (t_do((f), (seat), (text)) != 0)                                                           \
            fail_msg("refused \"%s\": [%s] %s", (text), (f)->err.rule, (f)->err.message);             \
    } while (0)
#define T_NO(f, seat, text)                                                                           \
    do {                                                                                              \
        if (t_do((f), (seat), (text)) == 0) fail_msg("accepted \"%s\"", (text));                    \
    } while (0)

static inline void t_pending(const t_fx *f, brt_pending *p) {
    memset(p, 0, sizeof *p);
    f->rs->pending(f->s, p);
}

/* the lowest seat that must decide now, or -1 (game over) */
static inline int t_actor(const t_fx *f) {
    brt_pending p;
    t_pending(f, &p);
    for (unsigned i = 0; i < f->seats; i++)
        if (p.seats & (1u << i)) return (int)i;
    return -1;
}

/* how many orders legal() lists for seat (negative: it failed) */
static inline int t_legal_n(const t_fx *f, unsigned seat) {
    brt_buf l;
    buf_init(&l);
    int n = f->rs->legal(f->s, seat, &l);
    buf_free(&l);
    return n;
}

/* 1 if the text's order is among the orders legal() lists for seat */
static inline int t_legal_has(t_fx *f, unsigned seat, const char *text) {
    brt_buf o, l;
    buf_init(&o);
    buf_init(&l);
    brt_reject err;
    int found = 0;
    if (f->rs->order_parse(f->s, text, &o, &err) == 0 && f->rs->legal(f->s, seat, &l) >= 0) {
        size_t pos = 0, len;
        const uint8_t *item;
        while (!found && buf_next_item(&l, &pos, &item, &len) == 1)
            found = len == o.len && memcmp(item, o.data, len) == 0;
    }
    buf_free(&o);
    buf_free(&l);
    return found;
}

/* the decoded view of viewpoint (a seat, BRT_VIEW_ALL or BRT_VIEW_PUBLIC); free with
 * wnlb__v1__view__free_unpacked */
static inline Wnlb__V1__View *t_view(const t_fx *f, int viewpoint) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(f->rs->view(f->s, viewpoint, &b), 0);
    Wnlb__V1__View *v = wnlb__v1__view__unpack(NULL, b.len, b.data);
    buf_free(&b);
    assert_non_null(v);
    return v;
}

/* the seat mask of the seats that play army (2 seats: the Allied seat plays both Allied decks) */
static inline uint32_t t_army_seats(const t_fx *f, int army) {
    int seat = wnlb_seat_of_army(f->s, army);
    return seat < 0 ? 0 : 1u << seat;
}

/* 1 if seat plays army */
static inline int t_seat_plays(const t_fx *f, int seat, int army) {
    return seat >= 0 && (t_army_seats(f, army) & (1u << seat)) != 0;
}

/* the ids of the cards in army's hand, ascending; returns the count */
static inline int t_hand(const t_fx *f, int army, int *ids, int cap) {
    int n = 0;
    for (size_t ci = 0; ci < f->s->sc->n_cards; ci++)
        if (f->s->sc->cards[ci].army == army && f->s->card_loc[ci] == WNLB_LOC_HAND && n < cap)
            ids[n++] = f->s->sc->cards[ci].id;
    return n;
}

/* ---- random play ---------------------------------------------------------------------- */

static inline uint64_t t_next(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* the k-th order of a legal() list */
static inline int t_item(const brt_buf *l, int k, const uint8_t **item, size_t *len) {
    size_t pos = 0;
    for (int i = 0; i <= k; i++)
        if (buf_next_item(l, &pos, item, len) != 1) return -1;
    return 0;
}

/* ---- positions: a board of the test's own ------------------------------------------ */

/* asserts that the game's state and twin (a state the same orders were applied to) encode to
 * the same bytes; a and b are the buffers it encodes into */
static inline void t_same_state(const t_fx *f, const void *twin, brt_buf *a, brt_buf *b) {
    buf_reset(a);
    buf_reset(b);
    assert_int_equal(f->rs->encode(f->s, a), 0);
    assert_int_equal(f->rs->encode(twin, b), 0);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->data, b->data, a->len);
}

/* The fixture's board: a copy of the scenario's data the test may change (terrain, sides,
 * unit and card values), so that a case is built from what the rule says and not from the
 * reconstructed battlefield (the scenario data). t_blank also clears the board: every
 * square clear, no side features, every unit and commander off it. */
typedef struct t_board {
    wnlb_scenario sc;
} t_board;

static inline wnlb_scenario *t_own_board(t_fx *f, t_board *b) {
    memcpy(&b->sc, f->s->sc, sizeof b->sc);
    f->s->sc = &b->sc;
    return &b->sc;
}

static inline wnlb_scenario *t_blank(t_fx *f, t_board *b) {
    wnlb_scenario *sc = t_own_board(f, b);
    memset(sc->terrain, 0, sizeof sc->terrain);
    memset(sc->side, 0, sizeof sc->side);
    for (size_t u = 0; u < sc->n_units; u++) {
        f->s->units[u].row = f->s->units[u].col = -1;
        f->s->units[u].entered = 0;
    }
    for (int c = 0; c < 2; c++) f->s->cmd_row[c] = f->s->cmd_col[c] = -1;
    return sc;
}

/* a new game (t_new) on the fixture's blank board (t_blank) */
static inline t_fx *t_new_blank(t_board *b, const char *scenario, unsigned seats, uint64_t seed) {
    t_fx *f = t_new(scenario, seats, seed);
    t_blank(f, b);
    return f;
}

/* a square's row and column from its name ("G-16") */
static inline void t_sq(const char *name, int *row, int *col) {
    if (wnlb_square_parse(name, row, col) != 0) fail_msg("bad square %s", name);
}

static inline void t_terrain(t_fx *f, const char *sq, int terrain) {
    int r, c;
    t_sq(sq, &r, &c);
    ((wnlb_scenario *)f->s->sc)->terrain[r][c] = (uint8_t)terrain;
}

/* a feature on the side `dir` of a square, on both squares that share it [8.3] */
static inline void t_side(t_fx *f, const char *sq, int dir, int bits) {
    int r, c;
    t_sq(sq, &r, &c);
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    sc->side[r][c][dir] |= (uint8_t)bits;
    int r2 = r, c2 = c;
    wnlb_step(dir, &r2, &c2);
    if (r2 >= 0 && c2 >= 0 && r2 < sc->rows && c2 < sc->cols) sc->side[r2][c2][(dir + 2) % 4] |= (uint8_t)bits;
}

/* the n-th unit (0-based) of army and type in the data, or fails */
static inline int t_unit(const t_fx *f, int army, int type, int n) {
    for (size_t u = 0; u < f->s->sc->n_units; u++)
        if (f->s->sc->units[u].army == army && f->s->sc->units[u].type == type && n-- == 0) return (int)u;
    fail_msg("no unit %d of army %d type %d", n, army, type);
    return -1;
}

/* puts unit u on a square with a facing, full strength, no markers */
static inline void t_put(t_fx *f, int u, const char *sq, int facing) {
    int r, c;
    t_sq(sq, &r, &c);
    wnlb_unit *x = &f->s->units[u];
    memset(x, 0, sizeof *x);
    x->row = (int8_t)r;
    x->col = (int8_t)c;
    x->facing = (uint8_t)facing;
    x->entered = 1;
}

/* a unit's id in the scenario data (the order text names units by it) */
static inline const char *t_id(const t_fx *f, int u) { return f->s->sc->units[u].id; }

/* asserts that unit u stands on the square sq */
static inline void t_at(const t_fx *f, int u, const char *sq) {
    int r, c;
    t_sq(sq, &r, &c);
    assert_int_equal(f->s->units[u].row, r);
    assert_int_equal(f->s->units[u].col, c);
}

/* [12.0] puts commander c (0 Napoleon, 1 Wellington) on the square sq */
static inline void t_cmd_at(t_fx *f, int c, const char *sq) {
    int r, col;
    t_sq(sq, &r, &col);
    f->s->cmd_row[c] = (int8_t)r;
    f->s->cmd_col[c] = (int8_t)col;
}

/* [12.0] asserts that commander c stands on the square sq */
static inline void t_cmd_is(const t_fx *f, int c, const char *sq) {
    int r, col;
    t_sq(sq, &r, &col);
    assert_int_equal(f->s->cmd_row[c], r);
    assert_int_equal(f->s->cmd_col[c], col);
}

/* sets a unit's printed values on the fixture's board */
static inline void t_values(t_fx *f, int u, int full, int reduced, int elite) {
    wnlb_unit_def *d = &((wnlb_scenario *)f->s->sc)->units[u];
    d->full = (uint8_t)full;
    d->reduced = (uint8_t)reduced;
    d->elite = (uint8_t)elite;
}

/* the n-th unit of army and type, put on a square with a facing (t_put); returns it */
static inline int t_place(t_fx *f, int army, int type, int n, const char *sq, int facing) {
    int u = t_unit(f, army, type, n);
    t_put(f, u, sq, facing);
    return u;
}

/* t_place with the unit's printed values (t_values) */
static inline int t_place_v(t_fx *f, int army, int type, int n, const char *sq, int facing, int full,
                            int reduced, int elite) {
    int u = t_place(f, army, type, n, sq, facing);
    t_values(f, u, full, reduced, elite);
    return u;
}

/* the index of a card of army now in the unused portion, put in its hand with these values
 * (returns its id) */
static inline int t_give(t_fx *f, int army, int mp, int bp, int action, int value) {
    wnlb_scenario *sc = (wnlb_scenario *)f->s->sc;
    for (size_t ci = 0; ci < sc->n_cards; ci++)
        if (sc->cards[ci].army == army && f->s->card_loc[ci] == WNLB_LOC_UNUSED) {
            f->s->card_loc[ci] = WNLB_LOC_HAND;
            sc->cards[ci].mp = (uint8_t)mp;
            sc->cards[ci].bp = (uint8_t)bp;
            sc->cards[ci].action = (uint8_t)action;
            sc->cards[ci].value = (uint8_t)value;
            return sc->cards[ci].id;
        }
    fail_msg("no unused card of army %d left", army);
    return 0;
}

/* empties army's hand into the unused portion */
static inline void t_empty_hand(t_fx *f, int army) {
    for (size_t ci = 0; ci < f->s->sc->n_cards; ci++)
        if (f->s->sc->cards[ci].army == army) f->s->card_loc[ci] = WNLB_LOC_UNUSED;
}

/* the French and British hands emptied but for one spare card each (1 MP, 1 BP), so that a
 * battle does not end the round or the turn by emptying a hand */
static inline void t_spare_hands(t_fx *f) {
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    (void)t_give(f, WNLB_FR, 1, 1, WNLB_ACT_NONE, 0);
    (void)t_give(f, WNLB_BR, 1, 1, WNLB_ACT_NONE, 0);
}

/* a game on the fixture's blank board (t_blank) with every army's hand emptied (t_empty_hand) */
static inline t_fx *t_bare(t_board *b, const char *scenario, unsigned seats, uint64_t seed) {
    t_fx *f = t_new_blank(b, scenario, seats, seed);
    t_empty_hand(f, WNLB_FR);
    t_empty_hand(f, WNLB_BR);
    t_empty_hand(f, WNLB_PR);
    return f;
}

/* applies an order given as a wnlb_order */
static inline int t_order(t_fx *f, unsigned seat, const wnlb_order *o) {
    brt_buf b;
    buf_init(&b);
    if (wnlb_order_encode(f->s, o, &b) != 0) fail_msg("order kind %d does not encode", o->kind);
    /* wnlb_order_encode appends one legal() list item: apply takes the bare Order bytes */
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL;
    if (buf_next_item(&b, &pos, &item, &len) != 1) fail_msg("order kind %d: no list item", o->kind);
    int rc = t_apply(f, seat, item, len);
    buf_free(&b);
    return rc;
}

static inline wnlb_order t_o(int kind) {
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.unit = o.target = -1;
    o.row = o.col = -1;
    return o;
}

/* [6.0] a play order: the card (its id) for a purpose (WNLB_PURPOSE_...) */
static inline wnlb_order t_play(int card, int purpose) {
    wnlb_order o = t_o(WNLB_O_PLAY);
    o.card = card;
    o.purpose = purpose;
    return o;
}

/* [8.0] a fresh card of mp MP given to army and played for Movement by seat (the phase is
 * then PH_MOVE); returns its id */
static inline int t_move_card(t_fx *f, unsigned seat, int army, int mp) {
    wnlb_order o = t_play(t_give(f, army, mp, 1, WNLB_ACT_NONE, 0), WNLB_PURPOSE_MOVE);
    if (t_order(f, seat, &o) != 0) fail_msg("movement card refused: [%s] %s", f->err.rule, f->err.message);
    return o.card;
}

/* [8.0] a move order of unit u: its n steps (WNLB_STEP_...) */
static inline wnlb_order t_move(int u, int n, const int *steps) {
    wnlb_order o = t_o(WNLB_O_MOVE);
    o.unit = u;
    o.n_steps = n;
    for (int i = 0; i < n; i++) o.steps[i] = (uint8_t)steps[i];
    return o;
}

/* [9.0] the card of index ci used as the round's first card, its movement over: seat 0 declares
 * the battle of unit a on target (the t_order result) */
static inline int t_declare(t_fx *f, int ci, int target, int a) {
    wnlb_card_use(f->s, ci);
    f->s->round_cards = 1;
    f->s->cur_card = (uint8_t)(ci + 1);
    f->s->phase = WNLB_PH_DECLARE;
    wnlb_order o = t_o(WNLB_O_ATTACK);
    o.target = target;
    o.n_units = 1;
    o.units[0] = a;
    return t_order(f, 0, &o);
}

/* [11.1] R-wnlb-11.1-windows: the other side's Artillery Fire windows after a card, declined */
static inline void t_no_fire(t_fx *f) {
    for (int i = 0; i < 4 && f->s->phase == WNLB_PH_FIRE; i++) {
        int seat = t_actor(f);
        wnlb_order o = t_o(WNLB_O_FIRE);
        o.flag = 1;
        if (seat < 0 || t_order(f, (unsigned)seat, &o) != 0) fail_msg("fire none refused: [%s] %s", f->err.rule, f->err.message);
    }
}

/* [9.0] the French seat plays card for Movement and moves nothing, the Artillery Fire windows
 * declined: the battle may be declared */
static inline void t_card_no_move(t_fx *f, int card) {
    char t[32];
    snprintf(t, sizeof t, "play %d move", card);
    T_OK(f, 0, t);
    T_OK(f, 0, "done");
    t_no_fire(f);
    assert_int_equal(f->s->phase, WNLB_PH_DECLARE);
}

#endif
