/*
 * greedy_n20.c - the greedy player for Napoleonic 20 (ruleset n20).
 *
 * It reads the seat's view (n20.v1.View) and scores every legal order the
 * daemon listed, decoded as n20.v1.Order, then plays the best (ties broken by
 * the bot's own generator). One-move lookahead, no search:
 *
 *   move        close on the enemy (French) or hold a line (Allied); step into
 *               contact only at 3:2 or better counting the friends already
 *               there; bring reinforcements on; end the phase when no move
 *               gains anything
 *   declare     the declaration whose battles have the best odds [9.2]
 *   resolve     best odds first; commit a reserve only with Morale to spare [12.2]
 *   reserve     the defender spends Morale only with plenty left [12.2.3]
 *   EX losses   the cheapest set of units [9.6]
 *   retreat     the path ending farthest from the enemy (back toward the LOC) [9.7]
 *   advance     take the ground when it is not a trap [9.8]
 *   rally       rally, spending Morale only with plenty left [10.0]
 *   place       the rallied unit goes where the enemy is farthest
 *   other       end / decline (reaction, contact, good ground unless useful)
 *   steps       the whole orders first; within a step-by-step declaration the best battle,
 *               at Step F no reduction [9.5]
 *
 * Clients are not rules code: nothing here is logged or replayed.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "greedy.h"
#include "n20/v1/n20.pb-c.h"

#define S_MAX_UNITS 512
#define S_FAR 99

typedef struct s_unit {
    const char *id;
    int side;       /* 0 french, 1 allied */
    int strength;
    int on_map;
    int hex;        /* XXYY */
} s_unit;

typedef struct s_board {
    s_unit u[S_MAX_UNITS];
    int n;
    int me;         /* our side */
    int morale;     /* ours */
} s_board;

/* Hex distance on the XXYY grid: columns XX, rows YY, odd columns shifted. */
static int s_dist(int a, int b) {
    int ac = a / 100, ar = a % 100, bc = b / 100, br = b % 100;
    int ax = ac, az = ar - (ac - (ac & 1)) / 2, ay = -ax - az;
    int bx = bc, bz = br - (bc - (bc & 1)) / 2, by = -bx - bz;
    int d = abs(ax - bx);
    if (abs(ay - by) > d) d = abs(ay - by);
    if (abs(az - bz) > d) d = abs(az - bz);
    return d;
}

static const s_unit *s_find(const s_board *b, const char *id) {
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->u[i].id, id) == 0) return &b->u[i];
    return NULL;
}

static int s_nearest_enemy(const s_board *b, int hex) {
    int best = S_FAR;
    for (int i = 0; i < b->n; i++)
        if (b->u[i].on_map && b->u[i].side != b->me) {
            int d = s_dist(hex, b->u[i].hex);
            if (d < best) best = d;
        }
    return best;
}

static int s_enemy_adjacent(const s_board *b, int hex) {
    int sum = 0;
    for (int i = 0; i < b->n; i++)
        if (b->u[i].on_map && b->u[i].side != b->me && s_dist(hex, b->u[i].hex) == 1)
            sum += b->u[i].strength;
    return sum;
}

/* Strength of our other units adjacent to the enemies next to `hex`. */
static int s_friends_near_enemies_of(const s_board *b, int hex, const s_unit *self) {
    int sum = 0;
    for (int i = 0; i < b->n; i++) {
        const s_unit *f = &b->u[i];
        if (f == self || !f->on_map || f->side != b->me) continue;
        for (int k = 0; k < b->n; k++) {
            const s_unit *e = &b->u[k];
            if (e->on_map && e->side != b->me && s_dist(hex, e->hex) == 1 && s_dist(f->hex, e->hex) == 1) {
                sum += f->strength;
                break;
            }
        }
    }
    return sum;
}

static int s_strength(const s_board *b, char **ids, size_t n) {
    int sum = 0;
    for (size_t i = 0; i < n; i++) {
        const s_unit *u = s_find(b, ids[i]);
        if (u) sum += u->strength;
    }
    return sum;
}

/* Odds of a battle as a score: good differentials are worth much more. */
static int s_odds_score(int att, int def) {
    if (def <= 0) return 30;
    if (att >= 3 * def) return 30;
    if (att >= 2 * def) return 20;
    if (2 * att >= 3 * def) return 8;
    if (att >= def) return -5;
    return -25;
}

static int s_last(const uint32_t *path, size_t n) { return n ? (int)path[n - 1] : 0; }

static int s_score(const s_board *b, const N20__V1__Order *o) {
    switch (o->kind_case) {
    case N20__V1__ORDER__KIND_END: return 0;
    case N20__V1__ORDER__KIND_MOVE: {
        const s_unit *u = s_find(b, o->move->unit);
        if (!u || o->move->n_path == 0) return -1;
        int to = s_last(o->move->path, o->move->n_path);
        int d1 = s_nearest_enemy(b, to);
        int adj = s_enemy_adjacent(b, to);
        if (!u->on_map) return 40 - d1; /* reinforcements come on */
        int d0 = s_nearest_enemy(b, u->hex);
        int gain = d0 - d1;
        int score = b->me == 0 ? gain * 10 : (d0 > 3 ? gain * 6 : 0);
        if (adj > 0) { /* contact means battle [9.2]: only at good odds, with the friends already there */
            int att = u->strength + s_friends_near_enemies_of(b, to, u);
            score += 2 * att >= 4 * adj ? 20 : 2 * att >= 3 * adj ? 8 : -30;
        }
        return score;
    }
    case N20__V1__ORDER__KIND_FORCE_MARCH: return -1;
    case N20__V1__ORDER__KIND_DECLARE: {
        int score = 0;
        for (size_t i = 0; i < o->declare->n_battles; i++) {
            const N20__V1__Battle *bt = o->declare->battles[i];
            score += s_odds_score(s_strength(b, bt->attackers, bt->n_attackers),
                                  s_strength(b, bt->defenders, bt->n_defenders));
        }
        return score;
    }
    case N20__V1__ORDER__KIND_RESOLVE: /* the battle's odds are not in the order: prefer no reserve */
        /* [9.5] a capped resolve only ever lowers the odds: never the greedy choice */
        return (o->resolve->has_cap ? -20 : 0) + (o->resolve->reserve ? (b->morale >= 6 ? 1 : -10) : 0);
    case N20__V1__ORDER__KIND_RESERVE:
        return o->reserve->commit ? (b->morale >= 6 ? 1 : -1) : 0;
    case N20__V1__ORDER__KIND_LOSSES:
        return -10 * s_strength(b, o->losses->units, o->losses->n_units) - (int)o->losses->n_units;
    case N20__V1__ORDER__KIND_RETREAT: {
        int to = s_last(o->retreat->path, o->retreat->n_path);
        return 10 * s_nearest_enemy(b, to) - (int)o->retreat->n_path;
    }
    case N20__V1__ORDER__KIND_ADVANCE: {
        const s_unit *u = s_find(b, o->advance->unit);
        int to = s_last(o->advance->path, o->advance->n_path);
        int adj = s_enemy_adjacent(b, to);
        return u && adj > 2 * u->strength ? -10 : 5;
    }
    case N20__V1__ORDER__KIND_RALLY:
        return b->morale >= 8 ? 2 + (int)o->rally->n_spend : 2 - 5 * (int)o->rally->n_spend;
    case N20__V1__ORDER__KIND_PLACE: return s_nearest_enemy(b, (int)o->place->hex);
    case N20__V1__ORDER__KIND_GOOD_GROUND: {
        const s_unit *u = s_find(b, o->good_ground->unit);
        return u ? s_enemy_adjacent(b, u->hex) - 1 - (o->good_ground->artillery_immune ? 0 : 1) : -1;
    }
    case N20__V1__ORDER__KIND_COUNTERCHARGE: return o->countercharge->fight ? -2 : -1;
    case N20__V1__ORDER__KIND_DISENGAGE:
    case N20__V1__ORDER__KIND_CONTACT: return -1;
    /* the step forms of legal(): the whole orders above are preferred where they are listed */
    case N20__V1__ORDER__KIND_FIGHT: return -25; /* [9.5] decided at Step F: never reduces anyway */
    case N20__V1__ORDER__KIND_STEP_F: return o->step_f->reduce ? -20 : 0;
    case N20__V1__ORDER__KIND_DECLARE_ONE:
        return s_odds_score(s_strength(b, o->declare_one->attackers, o->declare_one->n_attackers),
                            s_strength(b, o->declare_one->defenders, o->declare_one->n_defenders)) - 40;
    case N20__V1__ORDER__KIND_DECLARE_DONE: return 0;
    case N20__V1__ORDER__KIND_RETREAT_STEP:
        return 10 * s_nearest_enemy(b, s_last(o->retreat_step->path, o->retreat_step->n_path)) - 100;
    case N20__V1__ORDER__KIND_RETREAT_STOP: return -50;
    default: return -1;
    }
}

int greedy_n20_choose(uint64_t *rng, const bot_view *v, bot_choice *out) {
    const Berthier__V1__LegalOrders *lo = v->legal;
    if (!lo || lo->n_orders == 0) return -1;
    N20__V1__View *view = v->view ? n20__v1__view__unpack(NULL, v->view_len, v->view) : NULL;
    if (!view) return -1;
    s_board *b = calloc(1, sizeof *b);
    if (!b) {
        n20__v1__view__free_unpacked(view, NULL);
        return -1;
    }
    b->me = v->seat == 0 ? 0 : 1;
    b->morale = b->me == 0 ? view->morale_french : view->morale_allied;
    for (size_t i = 0; i < view->n_units && b->n < S_MAX_UNITS; i++) {
        const N20__V1__UnitView *uv = view->units[i];
        s_unit *u = &b->u[b->n++];
        u->id = uv->id ? uv->id : "";
        u->side = uv->side && strcmp(uv->side, "french") == 0 ? 0 : 1;
        u->strength = (int)uv->strength;
        u->on_map = uv->status && strcmp(uv->status, "map") == 0 && uv->hex != 0;
        u->hex = (int)uv->hex;
    }
    bot_best pick;
    bot_best_init(&pick);
    for (size_t i = 0; i < lo->n_orders; i++) {
        N20__V1__Order *o = n20__v1__order__unpack(NULL, lo->orders[i].len, lo->orders[i].data);
        if (!o) continue;
        int sc = s_score(b, o);
        n20__v1__order__free_unpacked(o, NULL);
        bot_best_offer(&pick, rng, sc, (int)i);
    }
    if (pick.found) out->index = pick.index;
    free(b);
    n20__v1__view__free_unpacked(view, NULL);
    return pick.found ? 0 : -1;
}
