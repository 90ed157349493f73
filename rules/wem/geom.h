/*
 * geom.h - the integer geometry of Waterloo: Enemy Mistakes (the `wem` ruleset).
 *
 * The board has no grid: pieces stand anywhere and every move, contact, line of fire and area
 * of engagement is measured with a ruler. Berthier measures in integers only, so that every
 * build on every machine gives the same bytes:
 *
 *   - positions in 1/20 mm (WEM_MM units per millimetre), int32; x grows east (to the right of
 *     the blue player, who sits on the south long side), y grows south (down the picture, the
 *     SVG way). A board of 1 m is 20,000 units.
 *   - 1 unit of measurement (UoM, the ruler's 30 mm) = WEM_UOM = 600 units.
 *   - headings in tenths of a degree (WEM_TURN = 3600 steps a full turn), clockwise from north
 *     (-y): 0 faces north (the red side), 900 east, 1800 south (the blue side), 2700 west.
 *     The direction of heading h is (sin h, -cos h).
 *   - sine and cosine in Q30 from an embedded table (sintab.c, a quarter wave, generated once
 *     and checked in); a quarter turn is exact, so rotating by 900 steps is exact.
 *   - a piece is an oriented rectangle (wem_rect): its centre, half its width along the front,
 *     half its depth, its heading. Its corners (wem_quad) are computed once, each coordinate
 *     rounded to the nearest unit (halves away from zero); every predicate after that is exact
 *     on int64 / __int128 products: no division before a comparison, integers only.
 *
 * Tolerances the rulebook leaves to the eye (contact, "facing the same direction") are
 * scenario parameters (docs/wem-data.md: `contact-tol`, default WEM_CONTACT_TOL = 10 = 0.5 mm;
 * `heading-tol`, default WEM_HEADING_TOL = 10 = 1 degree), passed in by the caller: a tolerance
 * of `tol` units means two pieces whose least distance is at most tol (each grown by tol/2 all
 * round) are touching, and two whose rectangles shrunk by tol/2 on every side overlap, overlap.
 *
 * Domain: the kernel is exact for |coordinate| < WEM_G_MAX (2^28 units, 13 km). The model, each
 * predicate's exact definition and the tolerances: docs/wem-geometry.md; the rulings:
 * docs/wem-rulings/geometry.md.
 */
#ifndef BERTHIER_WEM_GEOM_H
#define BERTHIER_WEM_GEOM_H

#include <stddef.h>
#include <stdint.h>

#define WEM_MM 20        /* units per millimetre */
#define WEM_UOM 600      /* the unit of measurement, 30 mm */
#define WEM_TURN 3600    /* heading steps in a full turn */
#define WEM_Q30 (1 << 30)
#define WEM_G_MAX (1 << 28)      /* |coordinate| below this: every predicate exact */
#define WEM_CONTACT_TOL 10       /* the `contact-tol` default: 0.5 mm (R-wem-contact-tol) */
#define WEM_HEADING_TOL 10       /* the `heading-tol` default: 1 degree (R-wem-heading-tol) */
#define WEM_G_HULL_MAX 64        /* points wem_g_hull takes (a hull of up to 16 pieces' corners) */
#define WEM_G_POLY_MAX 32        /* corners of a convex polygon wem_g_aoe_convex and
                                  * wem_g_approach_aoe take */

typedef struct wem_pt {
    int32_t x, y;
} wem_pt;

/* an oriented rectangle: a tile (30 x 30 mm), a counter (15 x 15 mm), a fastened gun and its
 * horse team (15 x 30 mm), the line of fire (15 x 180 mm) */
typedef struct wem_rect {
    wem_pt c;       /* centre */
    int32_t hw;     /* half the width (along the front edge) */
    int32_t hd;     /* half the depth (front to rear) */
    int32_t h;      /* heading 0..WEM_TURN-1 */
} wem_rect;

/* corners in this order: front-left, front-right, rear-right, rear-left (as the piece sees
 * them: left is counter-clockwise of the heading) */
enum { WEM_FL = 0, WEM_FR = 1, WEM_RR = 2, WEM_RL = 3 };
typedef struct wem_quad {
    wem_pt v[4];
} wem_quad;

/* the sides of a piece, as bits */
enum { WEM_SIDE_FRONT = 1, WEM_SIDE_RIGHT = 2, WEM_SIDE_REAR = 4, WEM_SIDE_LEFT = 8 };

/* a simple polygon (terrain area, out-of-field element, deployment area): vertices in order,
 * either orientation, not closed (the last joins the first); may be non-convex */
typedef struct wem_poly {
    uint16_t n;
    const wem_pt *v;
} wem_poly;

/* a polyline with a half width (road, sunken road, torrent, bridge, entrance section) */
typedef struct wem_line {
    uint16_t n;
    int32_t hw;
    const wem_pt *v;
} wem_line;

/* ---- numbers ---- */

/* heading normalised into 0..WEM_TURN-1 */
int32_t wem_g_norm(int64_t h);
/* Q30 sine and cosine of heading h (any integer) */
int32_t wem_g_sin(int32_t h);
int32_t wem_g_cos(int32_t h);
/* the smallest difference between two headings, 0..WEM_TURN/2 */
int32_t wem_g_hdiff(int32_t a, int32_t b);
/* round(num / den) for den > 0, halves away from zero; exact, any sign */
int64_t wem_g_div_round(int64_t num, int64_t den);
/* floor(sqrt(v)) for v >= 0 */
uint64_t wem_g_isqrt(uint64_t v);

/* ---- points and pieces ---- */

/* p moved `fwd` units along heading h and `right` units to its right (heading h + 900),
 * rounded once */
wem_pt wem_g_offset(wem_pt p, int32_t h, int32_t fwd, int32_t right);
/* the corners of r, each half extent grown by `grow` (negative shrinks) */
void wem_g_quad(const wem_rect *r, int32_t grow, wem_quad *out);
/* r rotated by dh steps (clockwise) about pivot: centre and heading */
wem_rect wem_g_rotate(const wem_rect *r, wem_pt pivot, int32_t dh);
/* r moved `dist` units along heading h (h need not be r's heading) */
wem_rect wem_g_translate(const wem_rect *r, int32_t h, int32_t dist);
/* the rectangle's corner k (WEM_FL..WEM_RL), exact as wem_g_quad gives it */
wem_pt wem_g_corner(const wem_rect *r, int k);
/* the edge of side `side` (one WEM_SIDE_* bit) as the segment *a -> *b, corners as wem_g_quad
 * gives them (front FL->FR, right FR->RR, rear RR->RL, left RL->FL); -1 if side is not one bit
 * ("the bombardment or combat front must touch the terrain element": wem_g_seg_meets_line) */
int wem_g_side(const wem_rect *r, int side, wem_pt *a, wem_pt *b);

/* ---- convex shapes ---- */

/* closed intersection of two convex polygons (touching counts); any n */
int wem_g_convex_meet(const wem_pt *a, int na, const wem_pt *b, int nb);
int wem_g_quads_meet(const wem_quad *a, const wem_quad *b);
/* the convex hull of n points (n <= WEM_G_HULL_MAX; more are left out) into out (positive
 * orientation, as wem_g_quad's corners), returns its count; out has room for n */
int wem_g_hull(const wem_pt *pts, int n, wem_pt *out);
/* the area swept by a convex quad moving in a straight line from a to b (both the same shape
 * translated): the hull of the eight corners; returns the count in out (<= 8) */
int wem_g_sweep(const wem_quad *a, const wem_quad *b, wem_pt out[8]);

/* ---- contact between pieces ---- */

enum { WEM_APART = 0, WEM_TOUCH = 1, WEM_OVERLAP = 2 };
/* WEM_OVERLAP if a and b shrunk by tol/2 (integer half) on every side overlap (their interiors
 * meet: they overlap by more than tol across); WEM_TOUCH if their least distance is at most tol
 * (grown by tol/2 all round they meet); else WEM_APART. Symmetric in a and b. */
int wem_g_contact(const wem_rect *a, const wem_rect *b, int32_t tol);
/* the sides of a that b touches (bits WEM_SIDE_*), 0 if apart. A side is touched when b is
 * within tol of that side's edge and reaches more than tol beyond the edge's line (b lies on its
 * outer side). The sides whose contact length (below) is more than tol are returned; when there
 * is none (the contact is only at a corner of a), every touched side is returned and *corner is
 * set to 1 (else 0): corner to corner gives the two sides of that corner. */
int wem_g_touch_sides(const wem_rect *a, const wem_rect *b, int32_t tol, int *corner);
/* the length along a's side `side` (one WEM_SIDE_* bit) that b covers while touching it: the
 * part of b within tol of that edge's line (either side of it), projected on the edge, overlapped
 * with the edge itself, in units, rounded down; 0 if b does not touch that side */
int32_t wem_g_contact_len(const wem_rect *a, int side, const wem_rect *b, int32_t tol);

/* ---- distance ---- */

/* the least distance between two convex polygons (any n), rounded down; 0 if they meet */
int32_t wem_g_convex_dist(const wem_pt *a, int na, const wem_pt *b, int nb);
/* exactly: is it <= d? */
int wem_g_convex_within(const wem_pt *a, int na, const wem_pt *b, int nb, int32_t d);
/* exactly: the sign of dist(a, b) - d (-1, 0, 1) */
int wem_g_convex_dist_cmp(const wem_pt *a, int na, const wem_pt *b, int nb, int32_t d);

/* the least Euclidean distance between two convex quads (0 if they meet), rounded down */
int32_t wem_g_dist(const wem_quad *a, const wem_quad *b);
/* exactly: is that distance <= d? */
int wem_g_within(const wem_quad *a, const wem_quad *b, int32_t d);
/* the least distance from point p to segment ab, rounded down; exact compare below */
int32_t wem_g_dist_pt_seg(wem_pt p, wem_pt a, wem_pt b);
int wem_g_pt_seg_within(wem_pt p, wem_pt a, wem_pt b, int32_t d);
/* the least distance between segments ab and cd <= d (0 if they cross) */
int wem_g_seg_seg_within(wem_pt a, wem_pt b, wem_pt c, wem_pt d, int32_t dist);

/* exactly: the sign of dist(a, b) - dist(c, d) for four convex polygons (-1, 0, 1) ("closer to
 * the enemy than the closest Unit was") */
int wem_g_dist_cmp(const wem_pt *a, int na, const wem_pt *b, int nb, const wem_pt *c, int nc,
                   const wem_pt *d, int nd);

/* ---- area of engagement ---- */

/* The area of engagement of a: the points within `reach` (1 UoM) of its front edge or either
 * flank edge that are not behind the line of its rear edge (R-wem-aoe-shape: the corners ahead
 * are rounded). Let d be the least distance from a to the part of b not behind that line (b cut
 * at the line, the cut's two new corners rounded to the unit). Returns 0 if no part of b is on
 * a's side of the line or d > reach + tol (outside); 1 if reach - tol <= d <= reach + tol (at
 * its limit, "exactly 1 unit of measurement": occupied, but it does not force a Charge,
 * R-wem-aoe-limit); 2 if d < reach - tol (occupied). */
int wem_g_aoe(const wem_rect *a, const wem_rect *b, int32_t reach, int32_t tol);
/* the same for any convex polygon q (n <= WEM_G_POLY_MAX, else 0): a swept path, a
 * formation's hull */
int wem_g_aoe_convex(const wem_rect *a, const wem_pt *q, int nq, int32_t reach, int32_t tol);
/* is b within `d` of a's front edge (the no-support test: "an enemy Unit within 1 unit of
 * measurement from its front") */
int wem_g_front_within(const wem_rect *a, const wem_rect *b, int32_t d);

/* ---- line of fire ---- */

/* The line of fire of gun g: the strip `width` wide (the front's 15 mm) and `length` long
 * (6 UoM) straight ahead of g's front edge, centred on it (R-wem-lof-straight). */
wem_rect wem_g_lof(const wem_rect *g, int32_t width, int32_t length);
/* Does target t lie in the strip (even partially): do their interiors meet? A piece that only
 * shares an edge or a corner with the strip is not in it. */
int wem_g_lof_hits(const wem_rect *strip, const wem_rect *t);
/* How far along the strip (from its near end) the target begins: the least depth of t's part
 * inside the strip (t clipped to the strip, new corners rounded to the unit), in units, rounded
 * down; -1 if t is not in it (wem_g_lof_hits). */
int32_t wem_g_lof_depth(const wem_rect *strip, const wem_rect *t);
/* Does convex blocker b cross the ENTIRE width of the strip somewhere between depth lo and hi
 * (units from the near end)? Both long edges of the strip, each cut to [lo, hi] (the cut points
 * rounded to the unit), meet b: for a convex b that is every line along the strip passing
 * through b there (R-wem-lof-entire-width: one blocker at a time). */
int wem_g_lof_blocked_quad(const wem_rect *strip, const wem_quad *b, int32_t lo, int32_t hi);
/* Does the terrain polygon (simple, maybe not convex) cross the entire width between depth lo
 * and hi: does every line along the strip, cut to [lo, hi] (the cut points rounded), meet it?
 * Exact but for gaps narrower than 2 units between the polygon's edges, which are not looked
 * into. A polygon the strip starts in (a gun's own Hill) meets every line: the caller decides
 * which terrain to leave out. */
int wem_g_lof_blocked_poly(const wem_rect *strip, const wem_poly *p, int32_t lo, int32_t hi);
/* Same for a linear feature (its band of half width hw). */
int wem_g_lof_blocked_line(const wem_rect *strip, const wem_line *l, int32_t lo, int32_t hi);
/* Is b fired on its rear (R-wem-fire-rear): the middle of the strip's near end (the gun's front)
 * stands strictly behind the line of b's rear edge, and the strip's heading is within 900 steps
 * (exclusive) of b's own heading (it fires towards b's rear, not along it)? */
int wem_g_fired_on_rear(const wem_rect *strip, const wem_rect *b);

/* Do two pieces face the same direction ([Formations] "fronts facing the same direction"):
 * their headings differ by at most heading_tol steps (R-wem-heading-tol)? */
int wem_g_same_facing(int32_t ha, int32_t hb, int32_t heading_tol);

/* ---- terrain ---- */

/* point strictly inside, on the boundary counts as inside */
int wem_g_pt_in_poly(wem_pt p, const wem_poly *poly);
/* every corner of q inside poly and no edge of q crossing poly's boundary */
int wem_g_quad_inside_poly(const wem_quad *q, const wem_poly *poly);
/* q touches or overlaps poly (even partially, the boundary counts) */
int wem_g_convex_meets_poly(const wem_pt *q, int nq, const wem_poly *poly);
/* q touches or overlaps the band of the polyline */
int wem_g_convex_meets_line(const wem_pt *q, int nq, const wem_line *l);
/* the segment ab meets poly (crosses it or lies in it) */
int wem_g_seg_meets_poly(wem_pt a, wem_pt b, const wem_poly *poly);
/* the segment ab meets the band of the polyline */
int wem_g_seg_meets_line(wem_pt a, wem_pt b, const wem_line *l);

/* ---- motion ---- */

/* The area a piece covers while it wheels by dh steps about pivot (an Advance's turn about the
 * front corner) is taken as the union of convex parts: part i is the hull of the piece turned by
 * i and i + 1 whole degrees (the last part ends at dh). Between two whole degrees the true arc
 * bulges out of that hull by at most R (1 - cos 0.5 degree), under 1 unit for a radius R below
 * 1.3 m. wem_g_wheel_parts gives their count (1 when dh = 0); wem_g_wheel_part writes part i into
 * out (<= 8 corners) and returns its count (0 past the end). Check each part with any convex
 * predicate (wem_g_convex_meet, wem_g_aoe_convex, wem_g_convex_meets_poly ...). */
int wem_g_wheel_parts(int32_t dh);
int wem_g_wheel_part(const wem_rect *r, wem_pt pivot, int32_t dh, int i, wem_pt out[8]);

/* The furthest that convex `mov` can translate along heading h, from 0 up to maxd units, before
 * it would meet convex `obst`: returns that distance rounded down (maxd if it never meets within
 * maxd), 0 if they already meet. Used for "move until in contact" (a Charge) and for what blocks
 * a move. */
int32_t wem_g_approach(const wem_pt *mov, int nm, int32_t h, int32_t maxd, const wem_pt *obst, int no);

/* [Sidebar: Advance] "Once the Formation meets an enemy area of engagement it CANNOT Advance
 * further": the least whole distance t in 0..maxd at which convex `mov` (n <= WEM_G_POLY_MAX), moved t units
 * along heading h (each coordinate of the move rounded once, as wem_g_translate does), gives
 * wem_g_aoe_convex(a, moved, reach, tol) >= level (1: at the limit or in; 2: in); -1 if it never
 * does within maxd. Exact on those whole distances: no step is skipped. */
int32_t wem_g_approach_aoe(const wem_rect *a, const wem_pt *mov, int nm, int32_t h, int32_t maxd,
                           int32_t reach, int32_t tol, int level);

#endif
