/*
 * greedy_wem.c - the greedy player for Waterloo: Enemy Mistakes (ruleset wem).
 *
 * It reads the seat's view (wem.v1.View: every piece with its pose, markers and Losses, the
 * markers of each army) and scores every legal order the daemon listed, decoded as
 * wem.v1.Order, then plays the best (ties broken by the bot's own generator). One step of
 * lookahead, no search, no geometry beyond the distance between centres:
 *
 *   bid        [1. Initiative] about a third of the markers in hand (at least the 1 the rule
 *              asks): the rest become Command points
 *   assign     [3.1 Assign] 2 markers to a General (the most the rule lets), else 1
 *   general    [Attaching] a move that attaches the General to a unit of his corps
 *   bombard    [2. Bombardment] fire, on the enemy unit worth the most Victory points and the
 *              closest to elimination, with as many guns in support as listed
 *   command    [3.2 Issue Orders] Recover Shaken units first (a Routed unit is lost anyway),
 *              then Keep in Movement, then Put in Movement (blue, who must take ground, more
 *              eagerly than red and black); Redeploy only when nothing else is listed
 *   maneuver   [3.3 Maneuver] a Charge on the weakest enemy it may reach; else an Advance that
 *              brings the guide closest to the nearest enemy (blue, who must take ground, and
 *              black, who marches on the French flank and so clears the deployment area for the
 *              next corps) or that keeps its distance (red holds); Fall Back only when nothing
 *              else is listed
 *   unfasten   [Unfastening Artillery Units] yes: an unfastened gun can bombard
 *   combat     [3.4 Combat] the combat against the most worn-down defender
 *   done       the last choice when anything else is listed
 *   other      answers and placements: any (the bot's generator picks)
 *
 * Clients are not rules code: nothing here is logged or replayed. Integers all the same.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "greedy.h"
#include "wem/v1/wem.pb-c.h"

#define S_UOM 600 /* the unit of measurement, 30 mm, in 1/20 mm */

typedef struct s_ctx {
    const Wem__V1__View *v;
    int armies[3], n_armies; /* the armies this seat plays */
} s_ctx;

static int s_mine(const s_ctx *c, unsigned army) {
    for (int i = 0; i < c->n_armies; i++)
        if ((unsigned)c->armies[i] == army) return 1;
    return 0;
}

static const Wem__V1__UnitView *s_unit(const s_ctx *c, const char *id) {
    for (size_t i = 0; id && i < c->v->n_units; i++)
        if (c->v->units[i]->id && strcmp(c->v->units[i]->id, id) == 0) return c->v->units[i];
    return NULL;
}

static int s_on(const Wem__V1__UnitView *u) { return u && u->status == 0 && u->pose; }

/* a distance in whole units of measurement, from the squared distance of the centres (no libm) */
static int64_t s_dist2(int64_t dx, int64_t dy) { return dx * dx + dy * dy; }

/* the squared distance from (x, y) to the nearest enemy of army on the field */
static int64_t s_nearest_enemy(const s_ctx *c, unsigned army, int64_t x, int64_t y) {
    int64_t best = -1;
    for (size_t i = 0; i < c->v->n_units; i++) {
        const Wem__V1__UnitView *u = c->v->units[i];
        if (!s_on(u)) continue;
        int enemy = army == 0 ? u->army != 0 : u->army == 0;
        if (!enemy) continue;
        int64_t d = s_dist2(u->pose->x - x, u->pose->y - y);
        if (best < 0 || d < best) best = d;
    }
    return best;
}

/* an integer square root, for scores in units of measurement */
static int64_t s_isqrt(int64_t v) {
    if (v <= 0) return 0;
    int64_t r = 0, bit = (int64_t)1 << 62;
    while (bit > v) bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

/* how worn a unit is: Losses near its capacity, Shaken, Routed; and what it is worth */
static int s_worth(const Wem__V1__UnitView *u) {
    if (!u) return 0;
    int left = (int)u->capacity - (int)u->losses;
    int w = (int)u->vp * 2 + (left <= 1 ? 8 : left <= 2 ? 4 : 0) + 3 * (int)u->yellow;
    return w;
}

/* [3.3 Maneuver] where the guide ends: along its heading turned by `turn`, `dist` on (a unit
 * circle of 8 directions is enough for a score) */
static void s_after(const Wem__V1__UnitView *g, int32_t turn, int32_t dist, int64_t *x, int64_t *y) {
    static const int dx[8] = {0, 7, 10, 7, 0, -7, -10, -7}, dy[8] = {-10, -7, 0, 7, 10, 7, 0, -7};
    int32_t h = (g->pose->h + turn) % 3600;
    if (h < 0) h += 3600;
    int k = (int)((h + 225) / 450) % 8;
    *x = g->pose->x + (int64_t)dx[k] * dist / 10;
    *y = g->pose->y + (int64_t)dy[k] * dist / 10;
}

static int s_score(const s_ctx *c, const Wem__V1__Order *o, int n_orders) {
    switch (o->kind_case) {
    case WEM__V1__ORDER__KIND_BID: {
        /* about a third of the markers in hand, at least 1 [1. Initiative] */
        int sc = 0;
        for (size_t i = 0; i < o->bid->n_markers && i < (size_t)c->n_armies; i++) {
            int army = c->armies[i], have = 0;
            for (size_t k = 0; k < c->v->n_armies; k++)
                if ((int)c->v->armies[k]->army == army) have = (int)c->v->armies[k]->markers;
            int want = have / 3 > 1 ? have / 3 : 1;
            int d = (int)o->bid->markers[i] - want;
            sc -= d < 0 ? -d : d;
        }
        return sc;
    }
    case WEM__V1__ORDER__KIND_ASSIGN: return 4 + (int)o->assign->markers;
    case WEM__V1__ORDER__KIND_GENERAL:
        return o->general->attach && o->general->attach[0] ? 2 : -1;
    case WEM__V1__ORDER__KIND_BOMBARD: {
        const Wem__V1__UnitView *t = s_unit(c, o->bombard->target);
        return 20 + s_worth(t) + 2 * (int)o->bombard->n_support;
    }
    case WEM__V1__ORDER__KIND_COMMAND: {
        const Wem__V1__Command *m = o->command;
        int blue = s_mine(c, 0);
        switch (m->kind) {
        case 3: /* recover */ return 12 + 2 * (int)m->n_units;
        case 2: /* keep in movement */ return 10;
        case 1: /* put in movement */ return (blue ? 8 : 3) + (int)m->n_units;
        default: return m->out_of_sequence ? -8 : -2;
        }
    }
    case WEM__V1__ORDER__KIND_MANEUVER: {
        const Wem__V1__Maneuver *m = o->maneuver;
        const Wem__V1__UnitView *g = s_unit(c, m->guide);
        if (!s_on(g) && m->n_units) g = s_unit(c, m->units[0]);
        if (m->kind == 3) return 30 + s_worth(s_unit(c, m->target)); /* charge */
        if (m->kind == 2 || !s_on(g)) return -4;                    /* fall back */
        int64_t before = s_nearest_enemy(c, g->army, g->pose->x, g->pose->y), x, y;
        s_after(g, m->turn, m->distance, &x, &y);
        int64_t after = s_nearest_enemy(c, g->army, x, y);
        if (before < 0 || after < 0) return 0;
        int gain = (int)((s_isqrt(before) - s_isqrt(after)) / (S_UOM / 4)); /* quarter UoM closer */
        /* blue must take ground; black marches on the French flank (and clears the deployment
         * area for the next corps [Executing the entrance]); red holds */
        return g->army != 1 ? 5 + gain : 1 - (gain < 0 ? -gain : gain);
    }
    case WEM__V1__ORDER__KIND_UNFASTEN: return 6 + (int)o->unfasten->n_units;
    case WEM__V1__ORDER__KIND_COMBAT: return 25 + s_worth(s_unit(c, o->combat->defender));
    case WEM__V1__ORDER__KIND_DONE: return n_orders > 1 ? -10 : 0;
    default: return 0; /* answers, placements: the generator picks */
    }
}

int greedy_wem_choose(uint64_t *rng, const bot_view *v, bot_choice *out) {
    const Berthier__V1__LegalOrders *lo = v->legal;
    if (!lo || lo->n_orders == 0) return -1;
    Wem__V1__View *view = v->view ? wem__v1__view__unpack(NULL, v->view_len, v->view) : NULL;
    if (!view) return -1;
    s_ctx c;
    memset(&c, 0, sizeof c);
    c.v = view;
    /* [Introduction] seat 0 blue, 1 red (and black with two seats), 2 black */
    if (v->seat == 0) {
        c.armies[c.n_armies++] = 0;
    } else if (v->seat == 1) {
        c.armies[c.n_armies++] = 1;
        if (v->n_seats < 3) c.armies[c.n_armies++] = 2;
    } else {
        c.armies[c.n_armies++] = 2;
    }
    bot_best pick;
    bot_best_init(&pick);
    for (size_t i = 0; i < lo->n_orders; i++) {
        Wem__V1__Order *o = wem__v1__order__unpack(NULL, lo->orders[i].len, lo->orders[i].data);
        if (!o) continue;
        int sc = s_score(&c, o, (int)lo->n_orders);
        wem__v1__order__free_unpacked(o, NULL);
        bot_best_offer(&pick, rng, sc, (int)i);
    }
    if (pick.found) out->index = pick.index;
    wem__v1__view__free_unpacked(view, NULL);
    return pick.found ? 0 : -1;
}
