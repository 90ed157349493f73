/*
 * n20_test.h - utilities for the n20 unit tests (tests/unit/test_n20_*.c):
 * scripted and keyed dice, an event recorder, and position builders.
 * Header-only so that every test program stays a single file.
 */
#ifndef BERTHIER_N20_TEST_H
#define BERTHIER_N20_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "n20/n20.h"

/* ---- dice: a script of values, then a keyed stream ---------------------- */
typedef struct t_dice {
    brt_dice d;
    uint32_t script[64];
    int nscript, used;
    uint8_t key[32];
    char purposes[64][DICE_PURPOSE_MAX];
    int npurposes;
} t_dice;

static uint32_t t_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    t_dice *t = ctx;
    if (t->npurposes < 64) snprintf(t->purposes[t->npurposes++], DICE_PURPOSE_MAX, "%s", purpose);
    if (t->used < t->nscript) {
        uint32_t v = t->script[t->used++];
        return v >= 1 && v <= sides ? v : 1;
    }
    return dice_stream_value(t->key, index, sides);
}

static inline void t_dice_init(t_dice *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 8; i++) t->key[i] = (uint8_t)(seed >> (8 * i));
    t->d.source = t_dice_source;
    t->d.source_ctx = t;
}

/* how many rolls were made with this purpose (e.g. "9.6 combat") */
static inline int t_dice_count(const t_dice *t, const char *purpose) {
    int n = 0;
    for (int i = 0; i < t->npurposes; i++)
        if (strcmp(t->purposes[i], purpose) == 0) n++;
    return n;
}

static inline void t_dice_script(t_dice *t, int n, const uint32_t *v) {
    for (int i = 0; i < n && t->nscript < 64; i++) t->script[t->nscript++] = v[i];
}

/* ---- events ------------------------------------------------------------- */
typedef struct t_events {
    char text[256][200];
    int n;
} t_events;

static void t_events_emit(void *ctx, const uint8_t *data, size_t len) {
    t_events *e = ctx;
    brt_buf b;
    buf_init(&b);
    if (n20_event_format(data, len, &b) == 0 && e->n < 256) {
        size_t l = b.len < 199 ? b.len : 199;
        memcpy(e->text[e->n], b.data, l);
        e->text[e->n][l] = 0;
        e->n++;
    }
    buf_free(&b);
}

static inline int t_events_has(const t_events *e, const char *needle) {
    for (int i = 0; i < e->n; i++)
        if (strstr(e->text[i], needle)) return 1;
    return 0;
}

/* ---- orders in text ------------------------------------------------------ */
/* parse the order text and apply it, the events to `out` (NULL: none); -2 if it does not parse */
static inline int t_order_out(n20_state *s, unsigned seat, const char *text, t_dice *d, n20_out *out,
                              brt_reject *err) {
    brt_buf b;
    buf_init(&b);
    brt_reject e2;
    if (!err) err = &e2;
    memset(err, 0, sizeof *err);
    if (n20_order_parse(s, text, &b, err) < 0) {
        buf_free(&b);
        return -2;
    }
    int rc = n20_apply(s, seat, b.data, b.len, &d->d, out, err);
    buf_free(&b);
    return rc;
}

/* the same, the events to the recorder ev (NULL: none) */
static inline int t_order(n20_state *s, unsigned seat, const char *text, t_dice *d, t_events *ev,
                          brt_reject *err) {
    n20_out out = {t_events_emit, ev};
    return t_order_out(s, seat, text, d, ev ? &out : NULL, err);
}

/* ---- positions ----------------------------------------------------------- */
/* The standard set-up, with the French Movement Phase of Turn 9 pending. */
static inline n20_state *t_standard(t_dice *d) {
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    if (!sc) return NULL;
    n20_state *s = n20_state_new(sc);
    n20_setup(s, &d->d, NULL, 0u, NULL);
    n20_run(s, &d->d, NULL);
    return s;
}

/* every unit off the map (pool), no Good Ground unit */
static inline void t_clear_map(n20_state *s) {
    for (int i = 0; i < s->sc->nunits; i++) {
        s->u[i].where = N20_U_OUT;
        s->u[i].hex = 0;
        s->u[i].flags = 0;
        s->u[i].routed = 0;
    }
    s->gg_unit = 0xff;
}

/* An empty map: every unit off the map (pool), the given side's Movement Phase. */
static inline n20_state *t_empty(t_dice *d, int turn, int phasing) {
    n20_state *s = t_standard(d);
    if (!s) return NULL;
    t_clear_map(s);
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)phasing;
    s->phase = N20_PH_MOVE;
    memset(s->fm, 0, sizeof s->fm);
    s->move_mod = 0;
    s->nbattles = 0;
    memset(&s->f, 0, sizeof s->f);
    return s;
}

static inline int t_place(n20_state *s, const char *id, unsigned xxyy) {
    int u = n20_unit_find(s, id);
    if (u < 0) return -1;
    s->u[u].where = N20_U_MAP;
    s->u[u].hex = n20_hex(xxyy);
    s->u[u].flags = 0;
    s->u[u].routed = 0;
    return u;
}

/* ---- editions ------------------------------------------------------------------ */
/* The same position under an edition of the series rules: s plays from now on a copy of its
 * scenario whose `edition` record is ed (N20_ED_V3 Danube 20, N20_ED_V4 Waterloo 20). One copy per
 * edition, kept for the life of the test program (a state may point to it); the copy is returned
 * so that a test may mark data on it (e.g. a unit flag). */
static inline n20_scenario *t_edition(n20_state *s, int ed) {
    static n20_scenario copy[2];
    n20_scenario *c = &copy[ed == N20_ED_V3 ? 0 : 1];
    if (s->sc != c) {
        *c = *s->sc;
        c->edition = (uint8_t)ed;
        s->sc = c;
    }
    return c;
}

/* the edition's name for a test's messages */
static inline const char *t_ed_name(int ed) { return ed == N20_ED_V3 ? "v3" : "v4"; }

/* ---- what legal() lists ---------------------------------------------------- */
/* how a listed order's text is matched: the whole text, its start, or anywhere in it */
enum { T_MATCH_EXACT, T_MATCH_PREFIX, T_MATCH_SUB };

/* how many orders legal() lists for the seat whose text matches `text` in `mode`; the first
 * match is copied into `first` (max bytes, "" if none) when it is not NULL */
static inline int t_legal_match(const n20_state *s, unsigned seat, const char *text, int mode, char *first,
                                size_t max) {
    brt_buf b;
    buf_init(&b);
    n20_legal(s, seat, &b);
    size_t pos = 0, len, tl = strlen(text);
    const uint8_t *item;
    int n = 0;
    if (first && max) first[0] = 0;
    while (buf_next_item(&b, &pos, &item, &len) == 1) {
        brt_buf t;
        buf_init(&t);
        assert_int_equal(n20_order_format(item, len, &t), 0);
        buf_append(&t, "", 1);
        const char *o = (const char *)t.data;
        int hit = mode == T_MATCH_EXACT ? strcmp(o, text) == 0
                : mode == T_MATCH_PREFIX ? strncmp(o, text, tl) == 0
                                         : strstr(o, text) != NULL;
        if (hit && n++ == 0 && first && max) snprintf(first, max, "%s", o);
        buf_free(&t);
    }
    buf_free(&b);
    return n;
}

/* how many orders legal() lists for the seat */
static inline int t_legal_n(const n20_state *s, unsigned seat) {
    brt_buf b;
    buf_init(&b);
    int n = n20_legal(s, seat, &b);
    buf_free(&b);
    return n;
}

/* 1 if legal() lists for the seat the order whose whole text is `text` */
static inline int t_legal_has(const n20_state *s, unsigned seat, const char *text) {
    return t_legal_match(s, seat, text, T_MATCH_EXACT, NULL, 0) > 0;
}

/* how many listed orders start with `prefix` ("" = all) */
static inline int t_legal_count_prefix(const n20_state *s, unsigned seat, const char *prefix) {
    return t_legal_match(s, seat, prefix, T_MATCH_PREFIX, NULL, 0);
}

/* how many listed orders contain `needle` */
static inline int t_legal_count_sub(const n20_state *s, unsigned seat, const char *needle) {
    return t_legal_match(s, seat, needle, T_MATCH_SUB, NULL, 0);
}

/* the first listed order that contains `needle` into out ("" if none) */
static inline void t_legal_find_sub(const n20_state *s, unsigned seat, const char *needle, char *out, size_t max) {
    t_legal_match(s, seat, needle, T_MATCH_SUB, out, max);
}

/* ---- combat positions ------------------------------------------------------- */
/* an empty map (t_empty) at `phase`, both sides on 6 Morale Points, the dice purposes
 * forgotten so that a test counts only its own rolls (the set-up shuffles the deck) */
static inline n20_state *t_pos(t_dice *d, int turn, int phasing, int phase) {
    n20_state *s = t_empty(d, turn, phasing);
    s->phase = (uint8_t)phase;
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 6;
    d->npurposes = 0;
    return s;
}

/* resolve with scripted dice; the defender declines reserves when he is asked */
static inline int t_fight(n20_state *s, t_dice *d, t_events *ev, const char *resolve, int n, const uint32_t *dice) {
    brt_reject err;
    t_dice_script(d, n, dice);
    int rc = t_order(s, s->phasing, resolve, d, ev, &err);
    if (rc == 0 && s->phase == N20_PH_DEF_RESERVE)
        rc = t_order(s, (unsigned)(1 - s->f.att_side), "no-reserve", d, ev, &err);
    return rc;
}

/* the index of event card `number` in the scenario's deck, -1 if it has none */
static inline int t_card_index(const n20_state *s, int number) {
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == number) return i;
    return -1;
}

/* put event card `number` on top of the Draw Pile (so the next draw is known); fails the test
 * when the card is not in the Draw Pile */
static inline void t_top_card(n20_state *s, int number) {
    for (int i = 0; i < s->ndraw; i++)
        if (s->sc->cards[s->draw[i]].number == number) {
            uint8_t t = s->draw[0];
            s->draw[0] = s->draw[i];
            s->draw[i] = t;
            return;
        }
    fail_msg("card #%d is not in the Draw Pile", number);
}

/* short forms for a test body whose locals are s, d, ev and err (see T_SETUP) */
#define U(name) n20_unit_find(s, name)
#define AT(name, xxyy) assert_int_equal(s->u[U(name)].hex, n20_hex(xxyy))
#define WHERE(name) (s->u[U(name)].where)
#define OK(seat, text) assert_int_equal(t_order(s, seat, text, &d, &ev, &err), 0)
#define NO(seat, text, want)                                         \
    do {                                                             \
        assert_int_equal(t_order(s, seat, text, &d, &ev, &err), -1); \
        assert_string_equal(err.rule, want);                         \
    } while (0)

/* the locals of a combat test: keyed dice (seed 1), an event recorder, a t_pos position */
#define T_SETUP(turn, phasing, phase) \
    t_dice d;                         \
    t_dice_init(&d, 1);               \
    t_events ev = {0};                \
    brt_reject err;                   \
    (void)err;                        \
    (void)ev;                         \
    n20_state *s = t_pos(&d, turn, phasing, phase)

/* ---- random play -------------------------------------------------------------- */
/* xorshift64: the order picker of the random games (never the dice) */
static inline uint64_t t_rng(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* an n20_out that drops the events */
static inline void t_null_emit(void *ctx, const uint8_t *data, size_t len) {
    (void)ctx;
    (void)data;
    (void)len;
}

/* the k-th item of a list of orders (legal()'s output), NULL past the end */
static inline const uint8_t *t_nth(const brt_buf *list, int k, size_t *len) {
    size_t pos = 0;
    const uint8_t *item;
    for (int i = 0; buf_next_item(list, &pos, &item, len) == 1; i++)
        if (i == k) return item;
    return NULL;
}

/* apply() accepts a listed order on a copy of the state and of the dice (the game goes on
 * untouched); `tag` names the game in the failure */
static inline void t_try_on_copy(const n20_state *s, unsigned seat, const uint8_t *item, size_t len, const t_dice *d,
                                 n20_out *out, const char *tag) {
    n20_state *c = malloc(sizeof *c);
    memcpy(c, s, sizeof *c);
    t_dice d2 = *d;
    d2.d.source_ctx = &d2;
    brt_reject err;
    if (n20_apply(c, seat, item, len, &d2.d, out, &err) != 0) {
        brt_buf t;
        buf_init(&t);
        n20_order_format(item, len, &t);
        buf_append(&t, "", 1);
        fail_msg("%s: legal order '%s' rejected: %s", tag, (char *)t.data, err.message);
    }
    free(c);
}

/* the pick-th order of `legal` (NULL if there is none); with `check`, every listed order is first
 * tried on a copy (t_try_on_copy) */
static inline const uint8_t *t_choose(const n20_state *s, unsigned seat, const brt_buf *legal, int pick, int check,
                                      const t_dice *d, n20_out *out, const char *tag, size_t *clen) {
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL, *chosen = NULL;
    int i = 0;
    *clen = 0;
    while (buf_next_item(legal, &pos, &item, &len) == 1) {
        if (check) t_try_on_copy(s, seat, item, len, d, out, tag);
        if (i == pick) {
            chosen = item;
            *clen = len;
        }
        i++;
    }
    return chosen;
}

/* the BLAKE2b hash of the encoded state (the replay tests compare two games by it) */
static inline void t_hash(const n20_state *s, uint8_t hash[32]) {
    brt_buf enc;
    buf_init(&enc);
    assert_int_equal(n20_encode(s, &enc), 0);
    crypto_generichash(hash, 32, enc.data, enc.len, NULL, 0);
    buf_free(&enc);
}

/* ---- scenario games ------------------------------------------------------------ */
/* a game of `scenario` set up with `opts`, before its first step (events to ev, if any) */
static inline n20_state *t_setup(const char *scenario, uint32_t opts, t_dice *d, t_events *ev) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    assert_non_null(sc);
    n20_state *s = n20_state_new(sc);
    assert_non_null(s);
    n20_out out = {t_events_emit, ev};
    assert_int_equal(n20_setup(s, &d->d, ev ? &out : NULL, opts, NULL), 0);
    return s;
}

/* the index of unit `id`, which must exist */
static inline int t_unit(const n20_state *s, const char *id) {
    int u = n20_unit_find(s, id);
    assert_true(u >= 0);
    return u;
}

/* unit `id` waits as a reinforcement for `turn` at entry area `area` */
static inline void t_reinf(const n20_state *s, const char *id, int turn, char area) {
    int u = t_unit(s, id);
    assert_int_equal(s->u[u].where, N20_U_REINF);
    assert_int_equal(s->u[u].arrive, turn);
    assert_int_equal(s->sc->units[u].area, area);
}

/* a random game's start: `scenario` set up with `opts` and run to its first decision, the
 * events to out */
static inline n20_state *t_play_start(const char *scenario, uint32_t opts, t_dice *d, n20_out *out) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    assert_non_null(sc);
    n20_state *s = n20_state_new(sc);
    assert_int_equal(n20_setup(s, &d->d, out, opts, NULL), 0);
    n20_run(s, &d->d, out);
    return s;
}

/* one random legal order (the rng's next pick among legal()'s list) given by the seat that must
 * decide, and applied; every listed order is first applied to a copy and must be accepted when
 * `check`. The order and the seat that gave it come back in *order / *len / *seat (the order lives
 * in `legal` until its next use). */
static inline void t_random_step(n20_state *s, uint64_t *rng, brt_buf *legal, int check, t_dice *d, n20_out *out,
                                 const char *tag, const uint8_t **order, size_t *len, int *seat) {
    int who = n20_pending_seat(s);
    if (who != 0 && who != 1) fail_msg("%s: no seat to decide (phase %d)", tag, s->phase);
    buf_reset(legal);
    int n = n20_legal(s, (unsigned)who, legal);
    if (n <= 0) fail_msg("%s: no legal order (phase %d)", tag, s->phase);
    int pick = (int)(t_rng(rng) % (uint64_t)n);
    size_t clen;
    const uint8_t *chosen = t_choose(s, (unsigned)who, legal, pick, check, d, out, tag, &clen);
    assert_non_null(chosen);
    brt_reject err;
    if (n20_apply(s, (unsigned)who, chosen, clen, &d->d, out, &err) != 0)
        fail_msg("%s: chosen order rejected: %s", tag, err.message);
    if (order) *order = chosen;
    if (len) *len = clen;
    if (seat) *seat = who;
}

/* one game of random legal orders (seeded) to its result; every listed order of the first
 * `check` steps is applied to a copy and must be accepted; fills the final state hash and, if
 * `dice` is not NULL, leaves the game's dice there (for t_dice_count); returns the orders played */
static inline int t_play_random(const char *scenario, uint32_t opts, uint64_t seed, int check, uint8_t hash[32],
                                t_dice *dice) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    char tag[96];
    snprintf(tag, sizeof tag, "%s seed %llu", scenario, (unsigned long long)seed);
    while (!s->over && steps < 30000) {
        t_random_step(s, &rng, &legal, steps < check, &d, &out, tag, NULL, NULL, NULL);
        steps++;
    }
    assert_true(s->over); /* [15.0] the game ends with a result */
    buf_free(&legal);
    t_hash(s, hash);
    free(s);
    if (dice) *dice = d;
    return steps;
}

#endif
