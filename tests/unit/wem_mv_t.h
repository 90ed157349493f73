/*
 * wem_mv_t.h - the boards of the wem maneuver rule cases (test_wem_cases_maneuver*.c): a blank
 * board with a spare blue Formation IN MOVEMENT, blue and red tiles, a maneuver order, and the
 * test's own terrain areas and linear features. Header-only, after wem_t.h.
 */
#ifndef BERTHIER_TEST_WEM_MV_T_H
#define BERTHIER_TEST_WEM_MV_T_H

#include "wem_t.h"

#define MM(v) ((v) * WEM_MM)

/* a blank board, no fold line, and a spare blue Formation IN MOVEMENT far away (so that blue's
 * part of the subphase does not end with the maneuver under test) */
static t_fx *s_new(void) {
    t_fx *f = t_new(2, 1);
    f->sc.fold_x = 0;
    int spare = t_unit(f, WEM_BLUE, WEM_INF, 6, 900, 600, 0);
    f->s->units[spare].green = 1;
    return f;
}

static int s_blue(t_fx *f, int corps, int x, int y, int h, int green) {
    int u = t_unit(f, WEM_BLUE, WEM_INF, corps, x, y, h);
    f->s->units[u].green = (uint8_t)green;
    return u;
}

static int s_red(t_fx *f, int corps, int x, int y, int h) { return t_unit(f, WEM_RED, WEM_INF, corps, x, y, h); }

static wem_order s_mv(int kind, int guide, int32_t turn, int32_t dist, int target) {
    wem_order o = t_o(WEM_O_MANEUVER);
    o.value = kind;
    o.unit = guide;
    o.turn = turn;
    o.dist = dist;
    o.target = target;
    return o;
}

/* begin blue's maneuvers and give the order */
static int s_go(t_fx *f, wem_order o) {
    assert_int_equal(t_step(f, WEM_STEP_MANEUVER, WEM_BLUE), 1);
    return t_order(f, 0, &o);
}

/* an area (rectangle, mm) or a straight linear feature of the test's board */
static void s_area(t_fx *f, int kind, int x0, int y0, int x1, int y1) {
    wem_scenario *sc = &f->sc;
    wem_area_def *a = &sc->areas[sc->n_areas++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "area-%d", (int)sc->n_areas);
    a->kind = (uint8_t)kind;
    a->first = (uint16_t)sc->n_verts;
    a->n = 4;
    wem_pt v[4] = {{MM(x0), MM(y0)}, {MM(x1), MM(y0)}, {MM(x1), MM(y1)}, {MM(x0), MM(y1)}};
    for (int i = 0; i < 4; i++) sc->verts[sc->n_verts++] = v[i];
}

static void s_line(t_fx *f, int kind, int hw_mm, int x0, int y0, int x1, int y1) {
    wem_scenario *sc = &f->sc;
    wem_line_def *l = &sc->lines[sc->n_lines++];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "line-%d", (int)sc->n_lines);
    l->kind = (uint8_t)kind;
    l->hw = MM(hw_mm);
    l->first = (uint16_t)sc->n_verts;
    l->n = 2;
    sc->verts[sc->n_verts++] = (wem_pt){MM(x0), MM(y0)};
    sc->verts[sc->n_verts++] = (wem_pt){MM(x1), MM(y1)};
}

#endif
