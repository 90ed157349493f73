/*
 * state.c - the wem state: set-up [Game Preparation], copies, canonical bytes, finding pieces,
 * the shapes of pieces, and who plays which army [Introduction].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"

/* [Game Preparation 3] the printed deployment; [7] turn 1, gold initiative to blue */
wem_state *wem_state_new(const wem_scenario *sc, unsigned seats, int ney) {
    wem_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->sc = sc;
    s->nseats = (uint8_t)seats;
    s->turn = 1;
    s->option_ney = ney ? 1 : 0;
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *d = &sc->units[i];
        wem_unit *u = &s->units[i];
        u->at = d->at;
        u->h = d->h;
        u->fastened = d->fastened;
        u->status = d->entry || (d->army == WEM_BLACK && !sc->prussians) ? WEM_NOT_ENTERED : WEM_ON;
    }
    for (size_t i = 0; i < sc->n_generals; i++) {
        const wem_general_def *d = &sc->generals[i];
        wem_general *g = &s->generals[i];
        g->at = d->at;
        g->attached = d->attach;
        g->cp_gen_fmn = -1;
        g->status = d->entry || (d->army == WEM_BLACK && !sc->prussians) ? WEM_NOT_ENTERED : WEM_ON;
        /* [General Ney] only with the optional rule */
        if (d->ney && !s->option_ney) g->status = WEM_NOT_ENTERED, g->attached = -1;
    }
    s->order[0] = WEM_BLUE; /* [Game Preparation 7] the gold Initiative marker to blue */
    s->order[1] = WEM_RED;  /* R-wem-turn1-order: red acts second on turn 1 */
    s->order[2] = WEM_BLACK;
    s->n_order = 2;
    memcpy(s->prev_order, s->order, sizeof s->order);
    for (int a = 0; a < WEM_ARMIES; a++) s->bid[a] = -1;
    s->bomb.gun = s->bomb.target = -1;
    s->combat.att = s->combat.def = -1;
    s->forced.unit = s->forced.cause = -1;
    s->last_lof_gun = s->last_lof_target = -1;
    return s;
}

void wem_state_destroy(wem_state **p) {
    if (p && *p) {
        free(*p);
        *p = NULL;
    }
}

wem_state *wem_state_clone(const wem_state *s) {
    wem_state *c = malloc(sizeof *c);
    if (c) memcpy(c, s, sizeof *c);
    return c;
}

/* canonical bytes: the scenario's name and every field but the scenario pointer (the state is
 * calloc'd and only ever copied whole, so its padding is zero) */
int wem_state_encode(const wem_state *s, brt_buf *out) {
    if (buf_append_str(out, s->sc->name) || buf_append(out, "\0", 1)) return -1;
    return buf_append(out, (const uint8_t *)s + sizeof s->sc, sizeof *s - sizeof s->sc);
}

int wem_unit_find(const wem_state *s, const char *id) {
    if (!id) return -1;
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (strcmp(s->sc->units[i].id, id) == 0) return (int)i;
    return -1;
}

int wem_general_find(const wem_state *s, const char *id) {
    if (!id) return -1;
    for (size_t i = 0; i < s->sc->n_generals; i++)
        if (strcmp(s->sc->generals[i].id, id) == 0) return (int)i;
    return -1;
}

/* [Introduction] 3 players: one army each; 2 players: red also plays black */
int wem_seat_of_army(const wem_state *s, int army) {
    if (army == WEM_BLUE) return 0;
    if (army == WEM_RED) return 1;
    return s->nseats == 3 ? 2 : 1;
}

uint32_t wem_army_mask(const wem_state *s, int army) { return 1u << wem_seat_of_army(s, army); }

int wem_seat_armies(const wem_state *s, unsigned seat, int *armies) {
    int n = 0;
    for (int a = 0; a < WEM_ARMIES; a++)
        if ((unsigned)wem_seat_of_army(s, a) == seat) armies[n++] = a;
    return n;
}

int wem_cur_army(const wem_state *s) { return s->order[s->cur < s->n_order ? s->cur : 0]; }

/* [Units] tiles are 30 mm squares, gun counters 15 mm; a fastened gun has its 15 mm Horse Team
 * counter behind it (R-wem-horse-team-behind): the pair is 15 x 30 mm, the gun at the front */
wem_rect wem_unit_rect(const wem_state *s, int u) {
    const wem_unit *x = &s->units[u];
    int kind = s->sc->units[u].kind;
    wem_rect r;
    r.c = x->at;
    r.h = x->h;
    if (kind == WEM_INF || kind == WEM_CAV) {
        r.hw = r.hd = WEM_UOM / 2;
    } else {
        r.hw = r.hd = WEM_UOM / 4;
        if (x->fastened && kind != WEM_GARRISON) {
            /* the centre moves half a counter back: the gun's front edge stays where it is */
            r.c = wem_g_offset(x->at, x->h, -WEM_UOM / 4, 0);
            r.hd = WEM_UOM / 2;
        }
    }
    return r;
}

/* [Generals] square counters with 15 mm sides; a general has no front: heading 0 */
wem_rect wem_general_rect(const wem_state *s, int g) {
    wem_rect r;
    r.c = s->generals[g].at;
    r.h = 0;
    r.hw = r.hd = WEM_UOM / 4;
    return r;
}

int32_t wem_tol(const wem_state *s) { return wem_param_get(s->sc, "contact-tol", 10); }
