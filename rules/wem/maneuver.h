/*
 * maneuver.h - what formation.c, maneuver.c, forced.c and query.c share: who is an enemy, the
 * shapes of pieces, the Advance/Charge number [Front width and depth of Formations], the area of
 * engagement as a polygon, terrain met by a path, and the plan of a maneuver (the rigid motion of
 * [Execute maneuvers]).
 */
#ifndef BERTHIER_WEM_MANEUVER_H
#define BERTHIER_WEM_MANEUVER_H

#include "wem.h"

/* blue against red and black (allies) [Introduction] */
static inline int wem_mv_enemies(int a, int b) { return (a == WEM_BLUE) != (b == WEM_BLUE); }

/* two shapes surely more than d apart (their centres further than both half diagonals and d):
 * a cheap test before an exact one */
static inline int wem_mv_far(const wem_rect *a, const wem_rect *b, int32_t d) {
    int64_t ea = a->hw > a->hd ? a->hw : a->hd, eb = b->hw > b->hd ? b->hw : b->hd;
    int64_t r = (ea + eb) * 3 / 2 + d + 2;
    int64_t dx = (int64_t)a->c.x - b->c.x, dy = (int64_t)a->c.y - b->c.y;
    return dx > r || dx < -r || dy > r || dy < -r;
}

/* formation.c */
int32_t wem_heading_tol(const wem_state *s);           /* heading-tol, steps (default 10) */
int32_t wem_split_gap(const wem_state *s);             /* split-gap, units (default 600) */
/* the units of a set side by side (width) and in column (depth) [Front width and depth] */
void wem_set_shape(const wem_state *s, const int16_t *units, int n, int *width, int *depth);
/* [Front width and depth of Formations] the Advance/Charge number of a set, in UoM: 4/3/2/1
 * by its front width, +1 for light cavalry only (horse artillery does not reduce it) */
int wem_set_allowance(const wem_state *s, const int16_t *units, int n);
/* the Formation (own corps) of unit u, and its united group; counts */
int wem_formation_of(const wem_state *s, const wem_formations *f, int u, int16_t *out);
int wem_united_of(const wem_state *s, const wem_formations *f, int u, int16_t *out);

/* maneuver.c */
/* is enemy unit e's area of engagement occupied by unit-shape r: 2 occupied, 1 at its limit, 0 */
int wem_aoe_of(const wem_state *s, int e, const wem_rect *r);
/* is unit u in contact with a unit hostile to it */
int wem_in_enemy_contact(const wem_state *s, int u);
/* [Attaching] unit u has just moved (a maneuver, a Withdraw, a Fall Back, a split): an unattached
 * General of its army under it is attached (his corps, or a Commander in Chief, when the Formation
 * has none yet) or moved the least distance to a free space (R-wem-general-in-the-way) */
void wem_meet_generals(wem_state *s, int u, brt_events *ev);
/* does a unit shape touch the board's edge or an off-field element [Elements out of field] */
int wem_rect_offfield(const wem_state *s, const wem_rect *r);

/* query.c: a maneuver checked whatever the markers say (green, orange, made already), every other
 * rule as it is (with WEM_MVF_DRY) */
#define WEM_MVF_ANY_MARKERS 0x400
/* the distance along the ruler to contact of the Charge o (-1: no contact within 8 UoM) */
int32_t wem_charge_reach(const wem_state *s, const wem_order *o);

/* a maneuver planned (not executed): the moving units, their shapes after the pivot and after
 * the slide, the swept hulls, the terrain met and what it allows */
#define WEM_MV_HULLS 64
typedef struct wem_plan {
    int kind, guide, target, army;
    int n;
    int16_t units[WEM_MAX_LIST];
    wem_rect r0[WEM_MAX_LIST], r1[WEM_MAX_LIST], r2[WEM_MAX_LIST];
    int32_t turn, dir, dist;
    wem_pt pivot;
    int32_t base;          /* the set's Advance/Charge number, units */
    int32_t allow;         /* after terrain, units */
    int width;
    int wood, farm, town, sunken, torrent, bridge, road;  /* terrain met (counts) */
    int art_torrent[WEM_MAX_LIST];  /* artillery crossing a Torrent */
} wem_plan;

#endif
