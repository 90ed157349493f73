/*
 * wem_t.h - utilities for the wem tests (tests/unit/test_wem_*.c): a game on a board of the
 * test's own (no terrain, no pieces until the test places them), the ruleset driven through
 * its interface (apply, legal, pending, view), scripted dice, and an event recorder standing in
 * for the core's collector. Header-only: each test program stays one file. A program that
 * includes it must not call the core's game driver (core/game.c), whose brt_events it replaces.
 *
 *   t_fx *f = t_new(2, 1);                      // 2 seats, dice seed 1, blank board
 *   int a = t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 400, 0);     // x, y in mm, heading in degrees
 *   int b = t_unit(f, WEM_RED, WEM_INF, 1, 300, 340, 180);
 *   t_step(f, WEM_STEP_MANEUVER, WEM_BLUE);     // the step begun for that army
 *   t_roll(f, 6); t_roll(f, 1);                 // the next d6 rolls (then the keyed stream)
 *   wem_order o = t_o(WEM_O_DONE); assert_int_equal(t_order(f, 0, &o), 0);
 */
#ifndef BERTHIER_TEST_WEM_T_H
#define BERTHIER_TEST_WEM_T_H

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
#include "wem/v1/wem.pb-c.h"
#include "wem/wem.h"

/* ---- events ---- */

#define T_MAX_EV 1024
typedef struct t_ev {
    uint32_t mask;
    Wem__V1__Event *e;
} t_ev;

struct brt_events {
    t_ev ev[T_MAX_EV];
    int n;
    int total;
    int bad;
};

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    ev->total++;
    Wem__V1__Event *e = wem__v1__event__unpack(NULL, len, data);
    if (!e) {
        ev->bad++;
        return 0;
    }
    if (ev->n < T_MAX_EV) {
        ev->ev[ev->n].mask = visible;
        ev->ev[ev->n].e = e;
        ev->n++;
    } else {
        wem__v1__event__free_unpacked(e, NULL);
    }
    return 0;
}

static inline void t_ev_clear(brt_events *ev) {
    for (int i = 0; i < ev->n; i++) wem__v1__event__free_unpacked(ev->ev[i].e, NULL);
    memset(ev, 0, sizeof *ev);
}

/* the nth event of that kind recorded since the last clear, or NULL */
static inline const Wem__V1__Event *t_ev_kind(const brt_events *ev, const char *kind, int nth) {
    for (int i = 0; i < ev->n; i++)
        if (strcmp(ev->ev[i].e->kind, kind) == 0 && nth-- == 0) return ev->ev[i].e;
    return NULL;
}

/* ---- dice: scripted values first, then a keyed stream; every roll recorded ---- */

#define T_MAX_ROLLS 1024
typedef struct t_dice {
    brt_dice d;
    uint8_t key[DICE_KEY_BYTES];
    int queued, next;                   /* scripted values: q[next..queued) */
    uint32_t q[256];
    int n;                              /* rolls recorded since the last clear */
    uint32_t value[T_MAX_ROLLS];
    char purpose[T_MAX_ROLLS][DICE_PURPOSE_MAX];
} t_dice;

static uint32_t t_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    t_dice *t = ctx;
    if (t->next < t->queued) {
        uint32_t v = t->q[t->next++];
        return v >= 1 && v <= sides ? v : 1;
    }
    return dice_stream_value(t->key, index, sides);
}

static void t_dice_record(void *ctx, uint64_t index, uint32_t sides, uint32_t value, uint32_t seats,
                          const char *purpose) {
    (void)index, (void)sides, (void)seats;
    t_dice *t = ctx;
    if (t->n < T_MAX_ROLLS) {
        t->value[t->n] = value;
        snprintf(t->purpose[t->n], DICE_PURPOSE_MAX, "%s", purpose ? purpose : "");
    }
    t->n++;
}

static inline void t_dice_init(t_dice *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 8; i++) t->key[i] = (uint8_t)(seed >> (8 * i));
    t->key[8] = 0x3e;
    t->d.source = t_dice_source;
    t->d.source_ctx = t;
    t->d.record = t_dice_record;
    t->d.record_ctx = t;
}

/* ---- a game in process ---- */

typedef struct t_fx {
    const brt_ruleset *rs;
    wem_state *s;
    wem_scenario sc;        /* the test's own board (f->s->sc points here) */
    t_dice d;
    brt_events ev;
    brt_reject err;
    unsigned seats;
} t_fx;

/* a game of the named scenario as its data gives it */
static inline t_fx *t_new_scenario(const char *scenario, unsigned seats, uint64_t seed, int ney) {
    t_fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->rs = brt_ruleset_find("wem");
    assert_non_null(f->rs);
    t_dice_init(&f->d, seed);
    f->seats = seats;
    const char *on[] = {"ney"};
    brt_ruleset_options o = {on, ney ? 1u : 0u, seats};
    f->s = f->rs->setup(scenario, &o, &f->d.d, &f->err);
    if (!f->s) fail_msg("setup %s/%u: [%s] %s", scenario, seats, f->err.rule, f->err.message);
    return f;
}

/* a game on a blank board: the full scenario's parameters, no terrain, no pieces */
static inline t_fx *t_new(unsigned seats, uint64_t seed) {
    t_fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->rs = brt_ruleset_find("wem");
    assert_non_null(f->rs);
    t_dice_init(&f->d, seed);
    f->seats = seats;
    const wem_scenario *full = wem_scenario_get("full");
    assert_non_null(full);
    memset(&f->sc, 0, sizeof f->sc);
    snprintf(f->sc.name, sizeof f->sc.name, "%s", full->name);
    f->sc.last_turn = full->last_turn;
    f->sc.prussians = full->prussians;
    f->sc.max_seats = full->max_seats;
    f->sc.width = full->width ? full->width : 20000;
    f->sc.height = full->height ? full->height : 13600;
    f->sc.fold_x = full->fold_x;
    f->sc.n_params = full->n_params;
    memcpy(f->sc.params, full->params, sizeof f->sc.params);
    f->s = wem_state_new(&f->sc, seats, 0);
    assert_non_null(f->s);
    return f;
}

static inline void t_free(t_fx *f) {
    t_ev_clear(&f->ev);
    wem_state_destroy(&f->s);
    free(f);
}

/* set a scenario parameter on the test's board */
static inline void t_param(t_fx *f, const char *name, int32_t v) {
    for (size_t i = 0; i < f->sc.n_params; i++)
        if (strcmp(f->sc.params[i].name, name) == 0) {
            f->sc.params[i].value = v;
            return;
        }
    assert_true(f->sc.n_params < WEM_MAX_PARAMS);
    wem_param *p = &f->sc.params[f->sc.n_params++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->value = v;
}

/* a unit on the test's board: army, kind, corps; centre (mm) and heading (degrees). Defaults:
 * Regulars, 4 Losses, 2 VP, normal fire, medium cavalry for WEM_CAV; on the field. Returns its index. */
static inline int t_unit(t_fx *f, int army, int kind, int corps, int x_mm, int y_mm, int h_deg) {
    assert_true(f->sc.n_units < WEM_MAX_PIECES);
    int u = (int)f->sc.n_units++;
    wem_unit_def *d = &f->sc.units[u];
    memset(d, 0, sizeof *d);
    snprintf(d->id, sizeof d->id, "%c%u", army == WEM_BLUE ? 'B' : army == WEM_RED ? 'R' : 'K', (unsigned)(u + 1) % 1000u);
    snprintf(d->name, sizeof d->name, "unit %d", u + 1);
    d->army = (uint8_t)army;
    d->kind = (uint8_t)kind;
    d->corps = (uint8_t)corps;
    d->cls = WEM_REGULAR;
    d->losses = 4;
    d->vp = 2;
    d->cav = kind == WEM_CAV ? WEM_CAV_MEDIUM : WEM_CAV_NONE;
    d->bombards = kind == WEM_ART_FOOT;
    d->at.x = x_mm * WEM_MM;
    d->at.y = y_mm * WEM_MM;
    d->h = wem_g_norm((int64_t)h_deg * 10);
    wem_unit *x = &f->s->units[u];
    memset(x, 0, sizeof *x);
    x->at = d->at;
    x->h = d->h;
    x->status = WEM_ON;
    return u;
}

/* move a unit (mm, degrees) */
static inline void t_put(t_fx *f, int u, int x_mm, int y_mm, int h_deg) {
    f->s->units[u].at.x = x_mm * WEM_MM;
    f->s->units[u].at.y = y_mm * WEM_MM;
    f->s->units[u].h = wem_g_norm((int64_t)h_deg * 10);
}

/* a General (cinc = 1: a Commander in Chief) of army and corps, rank and CP, at (mm); returns
 * its general index */
static inline int t_general(t_fx *f, int army, int corps, int rank, int cp, int x_mm, int y_mm, int cinc) {
    assert_true(f->sc.n_generals < WEM_MAX_GENERALS);
    int g = (int)f->sc.n_generals++;
    wem_general_def *d = &f->sc.generals[g];
    memset(d, 0, sizeof *d);
    snprintf(d->id, sizeof d->id, "%c-G%u", army == WEM_BLUE ? 'B' : army == WEM_RED ? 'R' : 'K', (unsigned)(g + 1) % 1000u);
    snprintf(d->name, sizeof d->name, "general %d", g + 1);
    snprintf(d->sub_name, sizeof d->sub_name, "substitute %d", g + 1);
    d->army = (uint8_t)army;
    d->corps = (uint8_t)corps;
    d->cinc = (uint8_t)cinc;
    d->rank = (uint8_t)(cinc ? 4 : rank);
    d->cp = (uint8_t)(cinc ? 0 : cp);
    d->vp = 12;
    d->sub_vp = 6;
    d->attach = -1;
    d->at.x = x_mm * WEM_MM;
    d->at.y = y_mm * WEM_MM;
    wem_general *x = &f->s->generals[g];
    memset(x, 0, sizeof *x);
    x->at = d->at;
    x->status = WEM_ON;
    x->attached = -1;
    x->cp_gen_fmn = -1;
    return g;
}

/* the next d6 results, in order (then the keyed stream again) */
static inline void t_roll(t_fx *f, int v) {
    assert_true(f->d.queued < 256);
    f->d.q[f->d.queued++] = (uint32_t)v;
}
static inline void t_rolls(t_fx *f, int n, ...) {
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) t_roll(f, va_arg(ap, int));
    va_end(ap);
}
/* every scripted value used */
static inline int t_rolls_left(const t_fx *f) { return f->d.queued - f->d.next; }

/* put the game at the start of a step with `army` first in the initiative order, and begin it
 * (the step's begin sets the phase; 0 if the army had nothing to do) */
static inline int t_step(t_fx *f, int step, int army) {
    wem_state *s = f->s;
    s->step = (uint8_t)step;
    s->order[0] = (uint8_t)army;
    s->order[1] = (uint8_t)(army == WEM_BLUE ? WEM_RED : WEM_BLUE);
    s->order[2] = WEM_BLACK;
    if (army == WEM_BLACK) s->order[1] = WEM_BLUE, s->order[2] = WEM_RED;
    s->n_order = (uint8_t)(s->n_order < 2 ? 2 : s->n_order);
    s->cur = 0;
    s->passed = 0;
    s->depth = 0;
    switch (step) {
    case WEM_STEP_ENTRANCE: return wem_entrance_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_INITIATIVE: return wem_initiative_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_SUBSTITUTE: return wem_substitute_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_BOMBARD: return wem_bombard_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_ASSIGN: return wem_assign_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_ORDERS: return wem_orders_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_MANEUVER: return wem_maneuver_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_UNFASTEN: return wem_unfasten_begin(s, &f->d.d, &f->ev);
    case WEM_STEP_COMBAT: return wem_combat_begin(s, &f->d.d, &f->ev);
    default: return 0;
    }
}

static inline wem_order t_o(int kind) {
    wem_order o;
    wem_order_init(&o, kind);
    return o;
}

/* apply an order through the ruleset's interface (encoded, then decoded by apply); 0 accepted,
 * -1 refused (f->err says why) */
static inline int t_order(t_fx *f, unsigned seat, const wem_order *o) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(wem_order_encode(f->s, o, &b), 0);
    memset(&f->err, 0, sizeof f->err);
    int rc = f->rs->apply(f->s, seat, b.data, b.len, &f->d.d, &f->ev, &f->err);
    buf_free(&b);
    return rc;
}

/* apply an order in the text syntax (docs/orders-wem.md) */
static inline int t_do(t_fx *f, unsigned seat, const char *text) {
    brt_buf b;
    buf_init(&b);
    memset(&f->err, 0, sizeof f->err);
    int rc = f->rs->order_parse(f->s, text, &b, &f->err);
    if (rc == 0) rc = f->rs->apply(f->s, seat, b.data, b.len, &f->d.d, &f->ev, &f->err);
    buf_free(&b);
    return rc;
}

static inline void t_pending(const t_fx *f, brt_pending *p) { f->rs->pending(f->s, p); }

/* the kind of the decision pending now */
static inline const char *t_kind(t_fx *f) {
    static brt_pending p;
    t_pending(f, &p);
    return p.kind;
}

/* answer the pending choice with one value */
static inline int t_answer(t_fx *f, unsigned seat, int v) {
    wem_order o = t_o(WEM_O_ANSWER);
    o.value = v;
    return t_order(f, seat, &o);
}

/* the refusal cites this rule heading (a substring of err.rule or err.message) */
static inline int t_cites(const t_fx *f, const char *heading) {
    return strstr(f->err.rule, heading) != NULL || strstr(f->err.message, heading) != NULL;
}

/* the number of orders legal() lists for the seat now */
static inline int t_legal_n(const t_fx *f, unsigned seat) {
    brt_buf b;
    buf_init(&b);
    int n = f->rs->legal(f->s, seat, &b);
    buf_free(&b);
    return n;
}

/* every order legal() lists is accepted by apply() on a copy of the state */
static inline void t_legal_all_accepted(t_fx *f, unsigned seat) {
    brt_buf b;
    buf_init(&b);
    int n = f->rs->legal(f->s, seat, &b);
    assert_true(n >= 0);
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL;
    for (int k = 0; k < n; k++) {
        assert_int_equal(buf_next_item(&b, &pos, &item, &len), 1);
        void *twin = f->rs->clone(f->s);
        t_dice d = f->d;
        d.d.source_ctx = &d;
        d.d.record_ctx = &d;
        brt_events *ev = calloc(1, sizeof *ev);
        brt_reject err;
        int rc = f->rs->apply(twin, seat, item, len, &d.d, ev, &err);
        if (rc) fail_msg("legal order %d refused: [%s] %s", k, err.rule, err.message);
        t_ev_clear(ev);
        free(ev);
        f->rs->destroy(twin);
    }
    buf_free(&b);
}

/* a small deterministic generator for property tests */
static inline uint64_t t_next(uint64_t *x) {
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

/* ---- terrain and areas of the test's board (rectangles in mm) ---- */

static inline uint16_t t_rect_verts(t_fx *f, int x0, int y0, int x1, int y1) {
    assert_true(f->sc.n_verts + 4 <= WEM_MAX_VERTS);
    uint16_t first = (uint16_t)f->sc.n_verts;
    wem_pt v[4] = {{x0 * WEM_MM, y0 * WEM_MM}, {x1 * WEM_MM, y0 * WEM_MM}, {x1 * WEM_MM, y1 * WEM_MM}, {x0 * WEM_MM, y1 * WEM_MM}};
    for (int i = 0; i < 4; i++) f->sc.verts[f->sc.n_verts++] = v[i];
    return first;
}

/* an area terrain rectangle (kind WEM_T_*, named) */
static inline int t_area(t_fx *f, int kind, const char *name, int blocks, int x0, int y0, int x1, int y1) {
    assert_true(f->sc.n_areas < WEM_MAX_AREAS);
    wem_area_def *a = &f->sc.areas[f->sc.n_areas];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->kind = (uint8_t)kind;
    a->blocks_lof = (uint8_t)blocks;
    a->first = t_rect_verts(f, x0, y0, x1, y1);
    a->n = 4;
    return (int)f->sc.n_areas++;
}

/* a historical objective [End of the Game]: the area's army and VP */
static inline void t_objective(t_fx *f, int area, int army, int vp) {
    f->sc.areas[area].obj_army = (uint8_t)army;
    f->sc.areas[area].obj_vp = (uint8_t)vp;
}

/* the black deployment area (a rectangle) and entrance section `sec` (1..3): a segment */
static inline void t_deploy(t_fx *f, int x0, int y0, int x1, int y1) {
    memset(&f->sc.deploy, 0, sizeof f->sc.deploy);
    snprintf(f->sc.deploy.name, sizeof f->sc.deploy.name, "deploy");
    f->sc.deploy.first = t_rect_verts(f, x0, y0, x1, y1);
    f->sc.deploy.n = 4;
}

static inline void t_entrance(t_fx *f, int sec, int x0, int y0, int x1, int y1) {
    assert_true(f->sc.n_verts + 2 <= WEM_MAX_VERTS);
    wem_line_def *l = &f->sc.entrance[sec - 1];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "section-%d", sec);
    l->first = (uint16_t)f->sc.n_verts;
    l->n = 2;
    l->hw = 0;
    f->sc.verts[f->sc.n_verts].x = x0 * WEM_MM, f->sc.verts[f->sc.n_verts++].y = y0 * WEM_MM;
    f->sc.verts[f->sc.n_verts].x = x1 * WEM_MM, f->sc.verts[f->sc.n_verts++].y = y1 * WEM_MM;
}

/* the order's text applied must fail, leaving the state as it was */
static inline void t_refused(t_fx *f, unsigned seat, const char *text, const char *heading) {
    brt_buf a, b;
    buf_init(&a), buf_init(&b);
    assert_int_equal(wem_state_encode(f->s, &a), 0);
    int rc = t_do(f, seat, text);
    if (rc == 0) fail_msg("accepted: %s", text);
    assert_int_equal(wem_state_encode(f->s, &b), 0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    if (heading && !t_cites(f, heading)) fail_msg("%s: refused as [%s] %s, not citing %s", text, f->err.rule, f->err.message, heading);
    buf_free(&a), buf_free(&b);
}

static inline void t_ok(t_fx *f, unsigned seat, const char *text) {
    if (t_do(f, seat, text)) fail_msg("%s: [%s] %s", text, f->err.rule, f->err.message);
}

/* the order's text as order_format prints it back */
static inline void t_format(t_fx *f, const char *text, char *out, size_t cap) {
    brt_buf b, t;
    buf_init(&b), buf_init(&t);
    memset(&f->err, 0, sizeof f->err);
    if (f->rs->order_parse(f->s, text, &b, &f->err)) fail_msg("%s: [%s] %s", text, f->err.rule, f->err.message);
    assert_int_equal(f->rs->order_format(b.data, b.len, &t), 0);
    snprintf(out, cap, "%.*s", (int)t.len, (const char *)t.data);
    buf_free(&b), buf_free(&t);
}

/* apply an order; when it is refused, the state's bytes and the dice are as they were (a refused
 * order changes nothing and rolls nothing) */
static inline int t_order_or_same(t_fx *f, unsigned seat, const wem_order *o) {
    brt_buf before, after;
    buf_init(&before);
    buf_init(&after);
    assert_int_equal(wem_state_encode(f->s, &before), 0);
    int rolls = f->d.n;
    int rc = t_order(f, seat, o);
    if (rc) {
        assert_int_equal(wem_state_encode(f->s, &after), 0);
        assert_int_equal(before.len, after.len);
        assert_memory_equal(before.data, after.data, before.len);
        assert_int_equal(f->d.n, rolls);
    }
    buf_free(&before);
    buf_free(&after);
    return rc;
}

/* apply one of the orders legal() lists for the seat, picked by the generator; the list is not
 * empty and apply accepts the pick (seed and kind name the game in a failure) */
static inline void t_legal_random(t_fx *f, unsigned seat, uint64_t *x, int seed, const char *kind) {
    brt_buf buf;
    buf_init(&buf);
    int k = f->rs->legal(f->s, seat, &buf);
    if (k <= 0) fail_msg("seed %d: no legal answer to %s", seed, kind);
    int pick = (int)(t_next(x) % (uint64_t)k);
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL;
    for (int i = 0; i <= pick; i++) assert_int_equal(buf_next_item(&buf, &pos, &item, &len), 1);
    if (f->rs->apply(f->s, seat, item, len, &f->d.d, &f->ev, &f->err))
        fail_msg("seed %d: legal %s refused: [%s] %s", seed, kind, f->err.rule, f->err.message);
    buf_free(&buf);
}

#endif
