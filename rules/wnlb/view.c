/*
 * view.c - what each viewpoint may see [2.4] [3.2]: every hand is its owner's alone, the unused
 * portion nobody's, the counts everybody's. BRT_VIEW_ALL sees everything, BRT_VIEW_PUBLIC no hand.
 * The rest of the View is public: the board's squares [8.3], the units [2.2], the commanders
 * [12.0], the chateaux with their CDP [10.0], the VP squares with their owners [13.2] [13.3], the
 * battle being fought [9.0] (never its sealed cards [9.3]) and the scores so far [13.3].
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
        if (u->eliminated) { /* [9.5] removed from play */
            buf_printf(out, "%s eliminated\n", s->sc->units[i].id);
            continue;
        }
        buf_printf(out, "%s %s facing %c%s%s%s%s\n", s->sc->units[i].id, sq, "NESW"[u->facing & 3],
                   u->reduced ? " reduced" : "", u->disordered ? " disordered" : "", u->moved ? " moved" : "",
                   u->rallied ? " rallied" : ""); /* [9.1] [9.5] [8.0] [11.6] */
    }
    for (int c = 0; c < 2; c++) { /* [12.0] */
        char sq[8] = "-";
        if (s->cmd_row[c] >= 0 && s->cmd_col[c] >= 0) wnlb_square_name(s->cmd_row[c], s->cmd_col[c], sq, sizeof sq);
        buf_printf(out, "%s %s\n", c ? "WELLINGTON" : "NAPOLEON", sq);
    }
    for (size_t i = 0; i < s->sc->n_chateaux && i < WNLB_MAX_CHATEAUX; i++) /* [10.0] */
        buf_printf(out, "chateau %s CDP %u of %u\n", s->sc->chateaux[i].name, s->cdp[i], s->sc->chateaux[i].cdp);
    for (size_t i = 0; i < s->sc->n_vp && i < WNLB_MAX_VP; i++) /* [13.2] [13.3] */
        if (s->sc->prussians ? s->sc->vp[i].full_game : s->sc->vp[i].short_game)
            buf_printf(out, "VP square %s: %s\n", s->sc->vp[i].name, s->vp_owner[i] ? "Allied" : "French");
    if (!s->over && s->battle.target >= 0 && (size_t)s->battle.target < s->sc->n_units) { /* [9.0] */
        buf_printf(out, "battle: %s attacked by", s->sc->units[s->battle.target].id);
        for (int i = 0; i < s->battle.n_att && i < WNLB_MAX_ATTACKERS; i++)
            if (s->battle.att[i] >= 0 && (size_t)s->battle.att[i] < s->sc->n_units)
                buf_printf(out, " %s", s->sc->units[s->battle.att[i]].id);
        buf_printf(out, "\n");
    }
    char why[160];
    wnlb_victory_text(s, why, sizeof why); /* [13.2] where the French stand, or [13.3] the VPs so far */
    buf_printf(out, "%s\n", why);
    return 0;
}

/* a named square of the view (a chateau [10.0], a VP square [13.2]): SQ holds its name */
static Wnlb__V1__Place *s_place(Wnlb__V1__Place *pl, const char *name, int row, int col, char sq[8]) {
    wnlb__v1__place__init(pl);
    pl->name = (char *)name;
    wnlb_square_name(row, col, sq, 8);
    pl->square = sq;
    return pl;
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

    /* [8.3] the squares: terrain and the features of each side (N E S W) */
    size_t nsq = (size_t)s->sc->rows * s->sc->cols;
    Wnlb__V1__Square *sq = calloc(nsq ? nsq : 1, sizeof *sq);
    Wnlb__V1__Square **sqp = calloc(nsq ? nsq : 1, sizeof *sqp);
    char (*sqid)[8] = calloc(nsq ? nsq : 1, sizeof *sqid);
    uint32_t (*sides)[4] = calloc(nsq ? nsq : 1, sizeof *sides);
    if (!sq || !sqp || !sqid || !sides) {
        free(sq), free(sqp), free(sqid), free(sides);
        return -1;
    }
    for (int r = 0; r < s->sc->rows; r++)
        for (int c = 0; c < s->sc->cols; c++) {
            size_t k = (size_t)r * s->sc->cols + (size_t)c;
            wnlb__v1__square__init(&sq[k]);
            sqp[k] = &sq[k];
            wnlb_square_name(r, c, sqid[k], sizeof sqid[k]);
            sq[k].id = sqid[k];
            sq[k].terrain = s->sc->terrain[r][c];
            for (int d = 0; d < 4; d++) sides[k][d] = s->sc->side[r][c][d];
            sq[k].n_sides = 4;
            sq[k].sides = sides[k];
        }
    v.n_squares = nsq;
    v.squares = sqp;

    /* [12.0] Napoleon's and Wellington's squares ("" off the board) */
    char cmd[2][8];
    char *cmdp[2];
    for (int c = 0; c < 2; c++) {
        cmd[c][0] = 0;
        if (s->cmd_row[c] >= 0 && s->cmd_col[c] >= 0) wnlb_square_name(s->cmd_row[c], s->cmd_col[c], cmd[c], sizeof cmd[c]);
        cmdp[c] = cmd[c];
    }
    v.n_commanders = 2;
    v.commanders = cmdp;

    /* [10.0] the chateaux and the CDP they have left */
    Wnlb__V1__Place ch[WNLB_MAX_CHATEAUX], *chp[WNLB_MAX_CHATEAUX];
    char chsq[WNLB_MAX_CHATEAUX][8];
    size_t nch = 0;
    for (size_t i = 0; i < s->sc->n_chateaux && i < WNLB_MAX_CHATEAUX; i++) {
        const wnlb_chateau_def *d = &s->sc->chateaux[i];
        chp[nch] = s_place(&ch[nch], d->name, d->row, d->col, chsq[nch]);
        ch[nch].cdp = s->cdp[i];
        for (size_t k = 0; k < s->sc->n_vp && k < WNLB_MAX_VP; k++) /* a chateau that is also a VP square */
            if (s->sc->vp[k].row == d->row && s->sc->vp[k].col == d->col) ch[nch].owner = s->vp_owner[k];
        nch++;
    }
    v.n_chateaux = nch;
    v.chateaux = chp;

    /* [13.2] [13.3] the scenario's VP squares, their owner (the last side to enter) and values */
    Wnlb__V1__Place vps[WNLB_MAX_VP], *vpp[WNLB_MAX_VP];
    char vpsq[WNLB_MAX_VP][8];
    size_t nvp = 0;
    for (size_t i = 0; i < s->sc->n_vp && i < WNLB_MAX_VP; i++) {
        const wnlb_vp_def *d = &s->sc->vp[i];
        if (!(s->sc->prussians ? d->full_game : d->short_game)) continue;
        vpp[nvp] = s_place(&vps[nvp], d->name, d->row, d->col, vpsq[nvp]);
        vps[nvp].owner = s->vp_owner[i];
        vps[nvp].french_vp = d->vp[0];
        vps[nvp].allied_vp = d->vp[1];
        nvp++;
    }
    v.n_vp_squares = nvp;
    v.vp_squares = vpp;

    /* [13.3] the Victory Points so far, per side (French, Allied) */
    int32_t score[2];
    wnlb_scores(s, score);
    v.n_scores = 2;
    v.scores = score;

    /* [9.0] the battle being fought: its defender and attackers (its cards stay sealed [9.3]) */
    char *att[WNLB_MAX_ATTACKERS];
    const wnlb_battle *b = &s->battle;
    v.battle_target = (char *)"";
    if (!s->over && b->target >= 0 && (size_t)b->target < s->sc->n_units) {
        v.battle_target = (char *)s->sc->units[b->target].id;
        for (int i = 0; i < b->n_att && i < WNLB_MAX_ATTACKERS; i++)
            if (b->att[i] >= 0 && (size_t)b->att[i] < s->sc->n_units) att[v.n_battle_attackers++] = (char *)s->sc->units[b->att[i]].id;
        v.battle_attackers = att;
    }

    size_t n = wnlb__v1__view__get_packed_size(&v);
    if (buf_reserve(out, n)) {
        free(sq), free(sqp), free(sqid), free(sides);
        return -1;
    }
    wnlb__v1__view__pack(&v, out->data + out->len);
    out->len += n;
    free(sq), free(sqp), free(sqid), free(sides);
    return 0;
}

