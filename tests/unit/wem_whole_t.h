/*
 * wem_whole_t.h - utilities of the whole-game wem tests (test_wem_random.c, test_wem_render.c):
 * the ruleset driven in process through its interface, a keyed dice stream that counts its
 * rolls, a stand-in for the core's event collector (every event must decode as a wem.v1.Event),
 * random play over legal(), and a small battlefield of the tests' own (w_board) so that a
 * picture does not change when the scenario data does.
 * Header-only; a program that includes it must not call the core's game driver (core/game.c),
 * whose brt_events this replaces.
 */
#ifndef BERTHIER_TEST_WEM_WHOLE_T_H
#define BERTHIER_TEST_WEM_WHOLE_T_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dice.h"
#include "ruleset.h"
#include "wem/v1/wem.pb-c.h"
#include "wem/wem.h"

/* ---- events: counted, each decoded once ---- */

struct brt_events {
    int total;  /* emitted since the last clear */
    int bad;    /* events that did not decode */
    int public_; /* of them, for every seat */
};

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    ev->total++;
    Wem__V1__Event *e = wem__v1__event__unpack(NULL, len, data);
    if (!e) {
        ev->bad++;
        return 0;
    }
    if (visible == BRT_SEATS_ALL) ev->public_++;
    wem__v1__event__free_unpacked(e, NULL);
    return 0;
}

/* ---- dice: a keyed stream ---- */

typedef struct w_dice {
    brt_dice d;
    uint8_t key[DICE_KEY_BYTES];
    int n; /* rolls since the last clear */
} w_dice;

static uint32_t w_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    w_dice *t = ctx;
    return dice_stream_value(t->key, index, sides);
}

static void w_dice_record(void *ctx, uint64_t index, uint32_t sides, uint32_t value, uint32_t seats,
                          const char *purpose) {
    (void)index, (void)sides, (void)value, (void)seats, (void)purpose;
    ((w_dice *)ctx)->n++;
}

static inline void w_dice_init(w_dice *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 8; i++) t->key[i] = (uint8_t)(seed >> (8 * i));
    t->key[8] = 0x3e;
    t->d.source = w_dice_source;
    t->d.source_ctx = t;
    t->d.record = w_dice_record;
    t->d.record_ctx = t;
}

static inline uint64_t w_next(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* the k-th order of a legal() list */
static inline int w_item(const brt_buf *l, int k, const uint8_t **item, size_t *len) {
    size_t pos = 0;
    for (int i = 0; i <= k; i++)
        if (buf_next_item(l, &pos, item, len) != 1) return -1;
    return 0;
}

/* the lowest seat that must decide now, or -1 */
static inline int w_actor(const brt_ruleset *rs, const void *s, unsigned seats) {
    brt_pending p;
    memset(&p, 0, sizeof p);
    rs->pending(s, &p);
    for (unsigned i = 0; i < seats; i++)
        if (p.seats & (1u << i)) return (int)i;
    return -1;
}

/* ---- a battlefield of the tests' own ---- */

/* A board of 40 x 30 cm with one piece of every kind of terrain, the out-of-field strip, the
 * fold line, the black deployment area with its three entrance sections, and one unit of every
 * kind (and heading) of the three armies with their Generals. */
typedef struct w_board {
    wem_scenario sc;
} w_board;

static inline uint16_t w_verts(wem_scenario *sc, const int32_t *xy, int n) {
    uint16_t first = (uint16_t)sc->n_verts;
    for (int i = 0; i < n; i++) {
        sc->verts[sc->n_verts].x = xy[2 * i];
        sc->verts[sc->n_verts].y = xy[2 * i + 1];
        sc->n_verts++;
    }
    return first;
}

static inline void w_area(wem_scenario *sc, wem_area_def *a, const char *name, int kind, int lof, const int32_t *xy,
                          int n) {
    snprintf(a->name, sizeof a->name, "%s", name);
    a->kind = (uint8_t)kind;
    a->blocks_lof = (uint8_t)lof;
    a->first = w_verts(sc, xy, n);
    a->n = (uint16_t)n;
}

static inline void w_line(wem_scenario *sc, wem_line_def *l, const char *name, int kind, int32_t hw, const int32_t *xy,
                          int n) {
    snprintf(l->name, sizeof l->name, "%s", name);
    l->kind = (uint8_t)kind;
    l->hw = hw;
    l->first = w_verts(sc, xy, n);
    l->n = (uint16_t)n;
}

static inline int w_unit(wem_scenario *sc, const char *id, const char *name, int army, int kind, int corps,
                         int32_t x, int32_t y, int32_t h) {
    wem_unit_def *u = &sc->units[sc->n_units];
    snprintf(u->id, sizeof u->id, "%s", id);
    snprintf(u->name, sizeof u->name, "%s", name);
    u->army = (uint8_t)army;
    u->kind = (uint8_t)kind;
    u->corps = (uint8_t)corps;
    u->cls = WEM_VETERAN;
    u->losses = kind == WEM_INF ? 4 : kind == WEM_CAV ? 3 : 2;
    u->vp = 4;
    u->bombards = kind == WEM_ART_FOOT;
    u->at.x = x, u->at.y = y;
    u->h = h;
    return (int)sc->n_units++;
}

static inline int w_general(wem_scenario *sc, const char *id, const char *name, int army, int corps, int cinc,
                            int rank, int attach, int32_t x, int32_t y) {
    wem_general_def *g = &sc->generals[sc->n_generals];
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->sub_name, sizeof g->sub_name, "%s", cinc ? "" : "Substitute");
    g->army = (uint8_t)army;
    g->corps = (uint8_t)corps;
    g->cinc = (uint8_t)cinc;
    g->rank = (uint8_t)rank;
    g->cp = (uint8_t)(rank > 2 ? 2 : 1);
    g->vp = 12;
    g->sub_vp = 6;
    g->attach = (int8_t)attach;
    g->at.x = x, g->at.y = y;
    return (int)sc->n_generals++;
}

static inline void w_board_init(w_board *b) {
    memset(b, 0, sizeof *b);
    wem_scenario *sc = &b->sc;
    snprintf(sc->name, sizeof sc->name, "test");
    sc->last_turn = 7;
    sc->prussians = 1;
    sc->max_seats = 3;
    sc->width = 8000;
    sc->height = 6000;
    sc->fold_x = 5000;
    /* [Understanding the Game Board] out of field: the turn track along the red side */
    static const int32_t track[] = {0, 0, 8000, 0, 8000, 300, 0, 300};
    w_area(sc, &sc->offfield[sc->n_offfield++], "turn-track", WEM_T_GRASS, 0, track, 4);
    /* [Area Terrain] */
    static const int32_t hill[] = {600, 2200, 1800, 1900, 2400, 2500, 1900, 3200, 800, 3000};
    static const int32_t wood[] = {3000, 800, 4200, 700, 4400, 1700, 3100, 1800};
    static const int32_t farm[] = {5400, 3600, 6600, 3600, 6600, 4600, 5400, 4600};
    static const int32_t town[] = {2800, 4200, 3600, 4100, 3700, 4900, 2900, 5000};
    w_area(sc, &sc->areas[sc->n_areas++], "test-hill", WEM_T_HILL, 1, hill, 5);
    w_area(sc, &sc->areas[sc->n_areas++], "test-wood", WEM_T_WOOD, 1, wood, 4);
    w_area(sc, &sc->areas[sc->n_areas++], "test-farm", WEM_T_FARM, 0, farm, 4);
    w_area(sc, &sc->areas[sc->n_areas++], "mont-saint-jean", WEM_T_TOWN, 0, town, 4);
    /* [Linear Terrain] */
    static const int32_t road[] = {0, 3500, 2600, 3400, 4800, 3700, 8000, 3300};
    static const int32_t sunken[] = {3800, 2300, 5200, 2200};
    static const int32_t torrent[] = {6000, 300, 6200, 2000, 6100, 3200};
    static const int32_t bridge[] = {6000, 2600, 6300, 2600};
    w_line(sc, &sc->lines[sc->n_lines++], "test-road", WEM_L_ROAD, 60, road, 4);
    w_line(sc, &sc->lines[sc->n_lines++], "test-sunken-road", WEM_L_SUNKEN, 50, sunken, 2);
    w_line(sc, &sc->lines[sc->n_lines++], "test-torrent", WEM_L_TORRENT, 40, torrent, 3);
    w_line(sc, &sc->lines[sc->n_lines++], "test-bridge", WEM_L_BRIDGE, 70, bridge, 2);
    /* the black deployment area on the black (east) side and its entrance sections */
    static const int32_t deploy[] = {7000, 1000, 8000, 1000, 8000, 5000, 7000, 5000};
    static const int32_t e1[] = {7000, 1200, 7000, 2200}, e2[] = {7000, 2500, 7000, 3500}, e3[] = {7000, 3800, 7000, 4800};
    w_area(sc, &sc->deploy, "deployment", WEM_T_GRASS, 0, deploy, 4);
    w_line(sc, &sc->entrance[0], "entrance-1", WEM_L_ROAD, 30, e1, 2);
    w_line(sc, &sc->entrance[1], "entrance-2", WEM_L_ROAD, 30, e2, 2);
    w_line(sc, &sc->entrance[2], "entrance-3", WEM_L_ROAD, 30, e3, 2);
    /* [Units] blue faces north (the red side), red south, black west */
    int b1 = w_unit(sc, "B1", "1st Line Infantry", WEM_BLUE, WEM_INF, 2, 2000, 4600, 0);
    w_unit(sc, "B2", "Cuirassiers", WEM_BLUE, WEM_CAV, 5, 3400, 3000, 450);
    int b3 = w_unit(sc, "B3", "Foot Battery", WEM_BLUE, WEM_ART_FOOT, 2, 1400, 2600, 0);
    int b4 = w_unit(sc, "B4", "Horse Battery", WEM_BLUE, WEM_ART_HORSE, 5, 4300, 4500, 3450);
    int r1 = w_unit(sc, "R1", "Guards Brigade", WEM_RED, WEM_INF, 1, 1400, 900, 1800);
    int r2 = w_unit(sc, "R2", "Horse Battery", WEM_RED, WEM_ART_HORSE, 2, 2600, 1000, 2100);
    w_unit(sc, "R3", "Light Dragoons", WEM_RED, WEM_CAV, 4, 4600, 2800, 1800);
    int rh = w_unit(sc, "R-H", "Hougoumont", WEM_RED, WEM_GARRISON, 2, 5000, 1300, 1800);
    int k1 = w_unit(sc, "K1", "15th Brigade", WEM_BLACK, WEM_INF, 3, 7400, 2000, 2700);
    w_unit(sc, "K2", "Uhlans", WEM_BLACK, WEM_CAV, 3, 7500, 4200, 2700);
    sc->units[b3].fastened = 0;
    sc->units[b4].fastened = 1;
    sc->units[r2].fastened = 1;
    sc->units[rh].losses = 3;
    sc->units[k1].cls = WEM_GUARD;
    /* [Generals] [Commanders in Chief] */
    w_general(sc, "B-N", "Napoleon", WEM_BLUE, 0, 1, 4, b1, 2000, 4600);
    w_general(sc, "B-II", "d'Erlon", WEM_BLUE, 2, 0, 2, -1, 1000, 4000);
    w_general(sc, "R-W", "Wellington", WEM_RED, 0, 1, 4, r1, 1400, 900);
    w_general(sc, "K-B", "Blucher", WEM_BLACK, 0, 1, 4, -1, 7600, 3000);
    w_general(sc, "K-III", "Bulow", WEM_BLACK, 3, 0, 3, k1, 7400, 2000);
}

/* the markers and tokens of a battle in progress on the test board, set by hand */
static inline void w_board_midgame(wem_state *s) {
    int b1 = wem_unit_find(s, "B1"), b2 = wem_unit_find(s, "B2"), b3 = wem_unit_find(s, "B3");
    int r1 = wem_unit_find(s, "R1"), r3 = wem_unit_find(s, "R3"), k1 = wem_unit_find(s, "K1");
    int k2 = wem_unit_find(s, "K2");
    s->turn = 3;
    s->units[b1].green = 1;
    s->units[b2].yellow = 1;
    s->units[b2].losses = 2;
    s->units[b3].smoke = 1;
    s->units[r1].orange = 2;
    s->units[r1].losses = 1;
    s->units[r3].yellow = 2;
    s->units[k1].green = 1;
    s->units[k1].orange = 1;
    s->units[k2].status = WEM_ELIMINATED;
    s->generals[wem_general_find(s, "B-II")].markers = 2;
    s->generals[wem_general_find(s, "K-III")].substitute = 1;
    s->markers[WEM_BLUE] = 3;
    s->markers[WEM_RED] = 1;
    s->vp[WEM_RED] = 4;
    s->order[0] = WEM_RED, s->order[1] = WEM_BLUE, s->order[2] = WEM_BLACK;
    s->n_order = 3;
    /* [3.4 Combat] a melee in progress: B2 attacks R3 */
    s->combat.active = 1;
    s->combat.att = (int16_t)b2;
    s->combat.def = (int16_t)r3;
    /* [2. Bombardment] the last bombardment: B3 on R1 */
    s->last_lof_gun = (int16_t)b3;
    s->last_lof_target = (int16_t)r1;
}

#endif
