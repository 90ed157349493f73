/*
 * view.c - the state as a viewpoint may see it (proto wem.v1.View) and as text. Enemy Mistakes
 * hides only the sealed bids [1. Initiative], which the core keeps until every bid is in; the
 * view says whether an army's bid is in, never its number before the reveal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"
#include "wem/v1/wem.pb-c.h"

static int s_initiative(const wem_state *s, int army) {
    for (int i = 0; i < s->n_order; i++)
        if (s->order[i] == army) return i + 1;
    return 0;
}

int wem_view(const wem_state *s, int viewpoint, brt_buf *out) {
    (void)viewpoint;
    const wem_scenario *sc = s->sc;
    Wem__V1__View v = WEM__V1__VIEW__INIT;
    Wem__V1__ArmyView av[WEM_ARMIES], *avp[WEM_ARMIES];
    Wem__V1__UnitView *uv = calloc(sc->n_units + 1, sizeof *uv);
    Wem__V1__UnitView **uvp = calloc(sc->n_units + 1, sizeof *uvp);
    Wem__V1__GeneralView gv[WEM_MAX_GENERALS], *gvp[WEM_MAX_GENERALS];
    Wem__V1__Pose *up = calloc(sc->n_units + 1, sizeof *up);
    Wem__V1__Pose gp[WEM_MAX_GENERALS];
    if (!uv || !uvp || !up) {
        free(uv), free(uvp), free(up);
        return -1;
    }
    wem_formations f;
    wem_formations_find(s, &f);
    v.scenario = (char *)sc->name;
    v.turn = s->turn;
    v.last_turn = sc->last_turn;
    v.phase = (char *)wem_phase_name(s->phase);
    v.viewpoint = viewpoint;
    for (int a = 0; a < WEM_ARMIES; a++) {
        wem__v1__army_view__init(&av[a]);
        av[a].army = (uint32_t)a;
        av[a].markers = s->markers[a];
        av[a].initiative = s_initiative(s, a);
        av[a].vp = s->vp[a];
        av[a].bid_given = s->phase == WEM_PH_BID && s->bid[a] >= 0;
        avp[a] = &av[a];
    }
    v.n_armies = WEM_ARMIES;
    v.armies = avp;
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit_def *d = &sc->units[i];
        const wem_unit *u = &s->units[i];
        wem__v1__unit_view__init(&uv[i]);
        wem__v1__pose__init(&up[i]);
        up[i].x = u->at.x, up[i].y = u->at.y, up[i].h = u->h;
        uv[i].id = (char *)d->id;
        uv[i].name = (char *)d->name;
        uv[i].army = d->army;
        uv[i].kind = d->kind;
        uv[i].corps = d->corps;
        uv[i].pose = &up[i];
        uv[i].status = u->status;
        uv[i].losses = u->losses;
        uv[i].capacity = d->losses;
        uv[i].yellow = u->yellow;
        uv[i].green = u->green;
        uv[i].orange = u->orange;
        uv[i].fastened = u->fastened;
        uv[i].smoke = u->smoke;
        uv[i].cls = d->cls;
        uv[i].vp = d->vp;
        uv[i].formation = f.of[i];
        uvp[i] = &uv[i];
    }
    v.n_units = sc->n_units;
    v.units = uvp;
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general_def *d = &sc->generals[g];
        const wem_general *x = &s->generals[g];
        wem__v1__general_view__init(&gv[g]);
        wem__v1__pose__init(&gp[g]);
        gp[g].x = x->at.x, gp[g].y = x->at.y;
        gv[g].id = (char *)d->id;
        gv[g].name = (char *)(x->substitute ? d->sub_name : d->name);
        gv[g].army = d->army;
        gv[g].corps = d->corps;
        gv[g].pose = &gp[g];
        gv[g].status = x->status;
        gv[g].substitute = x->substitute;
        gv[g].attached = (char *)(x->attached >= 0 ? sc->units[x->attached].id : "");
        gv[g].markers = x->markers;
        gv[g].rank = x->substitute ? (uint32_t)wem_param_get(sc, "substitute-rank", 1) : d->rank;
        gv[g].cp = x->substitute ? (uint32_t)wem_param_get(sc, "substitute-cp", 0) : d->cp;
        gv[g].assigned = x->assigned;
        gv[g].moved = x->moved != 0;
        gv[g].substitute_due = x->sub_due != 0;
        gv[g].cp_generated = x->cp_gen;
        gvp[g] = &gv[g];
    }
    v.n_generals = sc->n_generals;
    v.generals = gvp;
    v.over = s->over;
    v.result = (char *)s->reason;
    v.prussian_corps_entered = s->entered;
    v.deploying = s->deploying;
    v.entrance_tries = s->entrance_tries;
    v.black_seen = s->black_seen != 0;
    static const char *const acting[] = {"blue", "red", "black"};
    v.acting = (char *)(s->over || s->phase == WEM_PH_BID ? ""
                        : s->phase == WEM_PH_ENTRANCE ? acting[WEM_BLACK]
                                                      : acting[wem_cur_army(s)]);
    size_t n = wem__v1__view__get_packed_size(&v);
    int rc = buf_reserve(out, n);
    if (rc == 0) {
        wem__v1__view__pack(&v, out->data + out->len);
        out->len += n;
    }
    free(uv), free(uvp), free(up);
    return rc;
}

static const char *const s_army[] = {"blue", "red", "black"};

int wem_view_text(const wem_state *s, int viewpoint, brt_buf *out) {
    (void)viewpoint;
    const wem_scenario *sc = s->sc;
    buf_printf(out, "wem %s turn %u/%u phase %s\n", sc->name, s->turn, sc->last_turn, wem_phase_name(s->phase));
    for (int a = 0; a < WEM_ARMIES; a++)
        buf_printf(out, "%s: initiative %d markers %u vp %d%s\n", s_army[a], s_initiative(s, a), s->markers[a], s->vp[a],
                   s->phase == WEM_PH_BID && s->bid[a] >= 0 ? " bid given" : "");
    for (size_t g = 0; g < sc->n_generals; g++) {
        const wem_general *x = &s->generals[g];
        if (x->status != WEM_ON) continue;
        buf_printf(out, "%s %s%s %d,%d markers %u%s%s\n", sc->generals[g].id,
                   x->substitute ? sc->generals[g].sub_name : sc->generals[g].name, x->substitute ? " (substitute)" : "",
                   x->at.x, x->at.y, x->markers, x->attached >= 0 ? " attached to " : "",
                   x->attached >= 0 ? sc->units[x->attached].id : "");
    }
    for (size_t i = 0; i < sc->n_units; i++) {
        const wem_unit *u = &s->units[i];
        if (u->status != WEM_ON) continue;
        buf_printf(out, "%s %d,%d h%d losses %u/%u yellow %u green %u orange %u%s%s\n", sc->units[i].id, u->at.x,
                   u->at.y, u->h, u->losses, sc->units[i].losses, u->yellow, u->green, u->orange,
                   u->fastened ? " fastened" : "", u->smoke ? " smoke" : "");
    }
    if (s->over) buf_printf(out, "over: %s\n", s->reason);
    return 0;
}
