/*
 * greedy_wnlb.c - the greedy player for Waterloo: Napoleon's Last Battle (ruleset wnlb).
 *
 * It reads the seat's view (wnlb.v1.View: the units, the VP squares, its own hand's
 * cards and every hand's count) and scores every legal order the daemon listed, decoded
 * as wnlb.v1.Order, then plays the best (ties broken by the bot's own generator).
 * One step of lookahead, no search:
 *
 *   bidder       [7.0] 3 seats: the Allied army with the larger hand bids
 *   bid          [7.0] a high-MP card when the hand has one to spare, else no bid
 *   deck         [6.0] the Allied deck with more cards in hand
 *   play         [6.0] Movement for the cards with the most MP; Artillery Fire, Rally
 *                and Napoleon's Health as actions when they have a use
 *   move         [8.0] the French close on the nearest VP square they do not own (the
 *                nearest Allied unit once they own them all); the Allies hold, stepping
 *                only toward the VP squares they defend
 *   attack       [9.0] the battle whose attackers' BP best outweigh the defender's, above
 *                all on a square the side wants [13.2]
 *   battle cards [9.3] enough BP to outweigh the other side's units (a chateau doubles its
 *                infantry [10.0]) by a margin for its sealed cards, with the fewest cards;
 *                none when the gap is out of reach (the cards are the side's movement too)
 *   loss         [9.4] [10.0] spend a CDP, else retreat, else reduce
 *   other        advance when it may, fire when it may, end the round after two cards
 *                (the French, who must press [13.2], after four)
 *
 * Clients are not rules code: nothing here is logged or replayed.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "greedy.h"
#include "wnlb/v1/wnlb.pb-c.h"

#define S_MAX_UNITS 64
#define S_MAX_CARDS 64
#define S_FAR 99

typedef struct s_unit {
    const char *id;
    int side; /* 0 French, 1 Allied */
    int bp, row, col, facing, on_board, disordered, reduced;
} s_unit;

typedef struct s_card {
    unsigned id, mp, bp, action;
} s_card;

typedef struct s_board {
    s_unit u[S_MAX_UNITS];
    int n;
    s_card c[S_MAX_CARDS];
    int nc;
    int goal_row[16], goal_col[16], ngoal; /* VP squares: French to take, Allied to hold */
    int me, round_cards;
    int hand[3];
    int chateau_row[8], chateau_col[8], nchateau;
    const char *battle_target;                   /* [9.0] the battle being fought, NULL none */
    const char *battle_att[4];
    int nbattle_att;
} s_board;

/* "G-16": row letter from the north, column number */
static int s_square(const char *sq, int *row, int *col) {
    if (!sq || sq[0] < 'A' || sq[0] > 'Z' || sq[1] != '-') return -1;
    char *end = NULL;
    long c = strtol(sq + 2, &end, 10);
    if (!end || *end || c < 1 || c > 99) return -1;
    *row = sq[0] - 'A';
    *col = (int)c - 1;
    return 0;
}

static int s_dist(int r1, int c1, int r2, int c2) { return abs(r1 - r2) + abs(c1 - c2); }

static const s_unit *s_find(const s_board *b, const char *id) {
    for (int i = 0; id && i < b->n; i++)
        if (strcmp(b->u[i].id, id) == 0) return &b->u[i];
    return NULL;
}

static const s_card *s_card_of(const s_board *b, unsigned id) {
    for (int i = 0; i < b->nc; i++)
        if (b->c[i].id == id) return &b->c[i];
    return NULL;
}

/* how far (row, col) is from what the side wants: the French from the nearest enemy or VP square,
 * the Allies from the nearest VP square they hold */
static int s_goal_dist(const s_board *b, int row, int col) {
    int best = S_FAR;
    for (int i = 0; i < b->ngoal; i++) {
        int d = s_dist(row, col, b->goal_row[i], b->goal_col[i]);
        if (d < best) best = d;
    }
    if (b->me == 0 && b->ngoal == 0)
        for (int i = 0; i < b->n; i++)
            if (b->u[i].on_board && b->u[i].side != b->me) {
                int d = s_dist(row, col, b->u[i].row, b->u[i].col);
                if (d < best) best = d;
            }
    return best;
}

static int s_enemy_adjacent(const s_board *b, int row, int col) {
    int sum = 0;
    for (int i = 0; i < b->n; i++)
        if (b->u[i].on_board && b->u[i].side != b->me && s_dist(row, col, b->u[i].row, b->u[i].col) == 1)
            sum += b->u[i].bp;
    return sum;
}

static int s_in_chateau(const s_board *b, const s_unit *u) {
    for (int i = 0; i < b->nchateau; i++)
        if (u->row == b->chateau_row[i] && u->col == b->chateau_col[i]) return 1;
    return 0;
}

/* [9.3] the battle cards to give: enough BP to outweigh the other side's units by a margin for
 * its own sealed cards, with as few cards as that takes; none when the gap is out of reach */
static int s_battle_cards_score(const s_board *b, const Wnlb__V1__BattleCards *bc) {
    int bp = 0, n = (int)bc->n_cards;
    for (size_t i = 0; i < bc->n_cards; i++) {
        const s_card *c = s_card_of(b, bc->cards[i]);
        if (c) bp += (int)c->bp;
    }
    if (n == 0) return 0;
    const s_unit *t = s_find(b, b->battle_target);
    int att = 0, def = 0;
    for (int i = 0; i < b->nbattle_att; i++) {
        const s_unit *a = s_find(b, b->battle_att[i]);
        if (a) att += a->bp;
    }
    if (t) def = s_in_chateau(b, t) ? 2 * t->bp : t->bp; /* [9.3] [10.0] infantry doubled */
    int defending = t && t->side == b->me;
    int want = (defending ? att - def : def - att) + 3;
    if (want < 1) want = 1;
    if (want > 14) return -3 * n; /* out of reach: keep the cards for moving */
    int covered = bp < want ? bp : want, excess = bp > want ? bp - want : 0;
    return (bp >= want ? 12 : 0) + covered - 3 * n - excess / 2;
}

/* where a move ends: 0..3 turn (a commander: go that way), 4 one square ahead [8.1] */
static void s_walk(const Wnlb__V1__Move *m, int cmd, int *row, int *col, int facing) {
    static const int dr[4] = {-1, 0, 1, 0}, dc[4] = {0, 1, 0, -1};
    for (size_t i = 0; i < m->n_steps; i++) {
        unsigned st = m->steps[i];
        if (cmd && st < 4) {
            *row += dr[st];
            *col += dc[st];
        } else if (st < 4) {
            facing = (int)st;
        } else if (st == 4 && facing >= 0 && facing < 4) {
            *row += dr[facing];
            *col += dc[facing];
        }
    }
}

static int s_score(const s_board *b, const Wnlb__V1__Order *o) {
    switch (o->kind_case) {
    case WNLB__V1__ORDER__KIND_BIDDER: /* [7.0] the Allied army with the larger hand bids (British on a tie) */
        return o->bidder < 3 ? 2 * b->hand[o->bidder] + (o->bidder == 1) : 0;
    case WNLB__V1__ORDER__KIND_BID: {
        if (!o->bid) return 0;
        const s_card *c = s_card_of(b, o->bid);
        /* [7.0] a bid card is used: bid only a strong card from a full hand */
        return c && c->mp >= 4 && b->nc >= 8 ? (int)c->mp - 2 : -1;
    }
    case WNLB__V1__ORDER__KIND_DECK:
        return o->deck < 3 ? b->hand[o->deck] : 0;
    case WNLB__V1__ORDER__KIND_PLAY: {
        const s_card *c = s_card_of(b, o->play->card);
        int mp = c ? (int)c->mp : 0;
        if (o->play->purpose == 1) return 10 + 2 * mp - (c ? (int)c->bp : 0);
        switch (o->play->action) {
        case 1: return 14; /* [11.1] Artillery Fire: a Disorder for a card */
        case 6: {          /* [11.6] Rally, when there is something to rally */
            int need = 0;
            for (int i = 0; i < b->n; i++)
                if (b->u[i].side == b->me && b->u[i].on_board && (b->u[i].disordered || b->u[i].reduced)) need++;
            return need ? 8 + need : -5;
        }
        case 7: return 13; /* [11.7] Napoleon's Health: two French cards gone */
        case 4: return 6;  /* [11.4] Cavalry Charge */
        default: return 2;
        }
    }
    case WNLB__V1__ORDER__KIND_MOVE: {
        const Wnlb__V1__Move *m = o->move;
        int cmd = m->unit && (strcmp(m->unit, "NAPOLEON") == 0 || strcmp(m->unit, "WELLINGTON") == 0);
        if (cmd) return -2; /* [12.0] the commanders stay with their troops */
        const s_unit *u = s_find(b, m->unit);
        if (!u) return -1;
        int row = u->row, col = u->col;
        if (!u->on_board) { /* [5.0] a reinforcement comes on */
            if (s_square(m->entry, &row, &col) != 0) return -1;
            return 40 - s_goal_dist(b, row, col);
        }
        s_walk(m, 0, &row, &col, u->facing);
        int gain = s_goal_dist(b, u->row, u->col) - s_goal_dist(b, row, col);
        int adj = s_enemy_adjacent(b, row, col);
        if (b->me == 0) return gain * 10 + (adj && adj > 2 * u->bp ? -20 : adj ? 5 : 0) - (int)m->n_steps;
        return (gain > 0 && s_goal_dist(b, u->row, u->col) > 1 ? gain * 6 : -3) - (int)m->n_steps;
    }
    case WNLB__V1__ORDER__KIND_DONE: return 0;
    case WNLB__V1__ORDER__KIND_ATTACK: {
        const s_unit *t = s_find(b, o->attack->target);
        int att = 0;
        for (size_t i = 0; i < o->attack->n_attackers; i++) {
            const s_unit *a = s_find(b, o->attack->attackers[i]);
            if (a) att += a->bp;
        }
        int def = t ? t->bp : 0;
        int on_goal = t && s_goal_dist(b, t->row, t->col) == 0 ? 12 : 0; /* [13.2] it holds a square we want */
        return att >= def ? 8 + 3 * (att - def) + (t && t->reduced ? 6 : 0) + on_goal : on_goal ? 2 : -10;
    }
    case WNLB__V1__ORDER__KIND_NO_BATTLE: return 0;
    case WNLB__V1__ORDER__KIND_BATTLE_CARDS: return s_battle_cards_score(b, o->battle_cards);
    case WNLB__V1__ORDER__KIND_LOSS: return o->loss->choice == 3 ? 10 : o->loss->choice == 2 ? 6 : 4;
    case WNLB__V1__ORDER__KIND_ADVANCE: return o->advance->unit && o->advance->unit[0] ? 5 : 0;
    case WNLB__V1__ORDER__KIND_REDUCE: {
        const s_unit *u = s_find(b, o->reduce);
        return u ? -u->bp : 0;
    }
    case WNLB__V1__ORDER__KIND_CAV_RETREAT: return o->cav_retreat->square && o->cav_retreat->square[0] ? 3 : 1;
    case WNLB__V1__ORDER__KIND_FIRE: return o->fire->card ? 6 : 0;
    case WNLB__V1__ORDER__KIND_DISPLACE: return 0;
    case WNLB__V1__ORDER__KIND_PASS: return -20;
    case WNLB__V1__ORDER__KIND_END_ROUND: /* the French must press [13.2]: their whole round */
        return b->round_cards >= (b->me == 0 ? 4 : 2) ? 1 : -6;
    default: return -1;
    }
}

int greedy_wnlb_choose(uint64_t *rng, const bot_view *v, bot_choice *out) {
    const Berthier__V1__LegalOrders *lo = v->legal;
    if (!lo || lo->n_orders == 0) return -1;
    Wnlb__V1__View *view = v->view ? wnlb__v1__view__unpack(NULL, v->view_len, v->view) : NULL;
    if (!view) return -1;
    s_board *b = calloc(1, sizeof *b);
    if (!b) {
        wnlb__v1__view__free_unpacked(view, NULL);
        return -1;
    }
    b->me = v->seat == 0 ? 0 : 1;
    b->round_cards = (int)view->round_cards;
    for (size_t i = 0; i < view->n_units && b->n < S_MAX_UNITS; i++) {
        const Wnlb__V1__Unit *uv = view->units[i];
        s_unit *u = &b->u[b->n++];
        u->id = uv->id ? uv->id : "";
        u->side = uv->army == 0 ? 0 : 1;
        u->bp = (int)uv->bp;
        u->facing = (int)uv->facing;
        u->disordered = uv->disordered;
        u->reduced = uv->reduced;
        u->on_board = !uv->eliminated && s_square(uv->square, &u->row, &u->col) == 0;
    }
    for (size_t i = 0; i < view->n_hands; i++) {
        const Wnlb__V1__Hand *h = view->hands[i];
        if (h->army < 3) b->hand[h->army] = (int)h->count;
        for (size_t k = 0; k < h->n_cards && b->nc < S_MAX_CARDS; k++) {
            s_card *c = &b->c[b->nc++];
            c->id = h->cards[k]->id;
            c->mp = h->cards[k]->mp;
            c->bp = h->cards[k]->bp;
            c->action = h->cards[k]->action;
        }
    }
    for (size_t i = 0; i < view->n_chateaux && b->nchateau < 8; i++)
        if (s_square(view->chateaux[i]->square, &b->chateau_row[b->nchateau], &b->chateau_col[b->nchateau]) == 0)
            b->nchateau++;
    if (view->battle_target && view->battle_target[0]) {
        b->battle_target = view->battle_target;
        for (size_t i = 0; i < view->n_battle_attackers && b->nbattle_att < 4; i++)
            b->battle_att[b->nbattle_att++] = view->battle_attackers[i];
    }
    for (size_t i = 0; i < view->n_vp_squares && b->ngoal < 16; i++) {
        const Wnlb__V1__Place *p = view->vp_squares[i];
        int row, col;
        if (s_square(p->square, &row, &col) != 0) continue;
        /* the French go for what they do not hold; the Allies keep what they hold */
        if ((b->me == 0) != ((int)p->owner == 0)) {
            b->goal_row[b->ngoal] = row;
            b->goal_col[b->ngoal++] = col;
        }
    }
    bot_best pick;
    bot_best_init(&pick);
    for (size_t i = 0; i < lo->n_orders; i++) {
        Wnlb__V1__Order *o = wnlb__v1__order__unpack(NULL, lo->orders[i].len, lo->orders[i].data);
        if (!o) continue;
        int sc = s_score(b, o);
        wnlb__v1__order__free_unpacked(o, NULL);
        bot_best_offer(&pick, rng, sc, (int)i);
    }
    if (pick.found) out->index = pick.index;
    free(b);
    wnlb__v1__view__free_unpacked(view, NULL);
    return pick.found ? 0 : -1;
}
