/*
 * test_wem_geom.c - the integer geometry of wem (rules/wem/geom.h, docs/wem-geometry.md).
 *
 * The rulebook's figures and examples on boards of the test's own ("[Formations]" contact,
 * "[Area of Engagement]", "[Line of fire]", terrain), then properties over hundreds of cases
 * from a fixed-seed integer generator: symmetry, translation and rotation invariance, monotone
 * distance, approach-then-contact. The sine table is checked against the C library's sine
 * (tests may use it; the rules code does not).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wem/geom.h"

#define TOL 10          /* contact-tol default: 0.5 mm */
#define TILE 300        /* half of a 30 mm tile */
#define COUNTER 150     /* half of a 15 mm counter */
#define MM(x) ((x) * WEM_MM)

static wem_rect
t_rect(int32_t x, int32_t y, int32_t hw, int32_t hd, int32_t h)
{
    wem_rect r;
    memset(&r, 0, sizeof r);
    r.c.x = x;
    r.c.y = y;
    r.hw = hw;
    r.hd = hd;
    r.h = h;
    return r;
}

static wem_rect
t_tile(int32_t x, int32_t y, int32_t h)
{
    return t_rect(x, y, TILE, TILE, h);
}

/* a fastened gun and its team: 15 mm front, 30 mm deep */
static wem_rect
t_gun(int32_t x, int32_t y, int32_t h)
{
    return t_rect(x, y, COUNTER, TILE, h);
}

/* ---- a deterministic generator ---- */

static uint64_t s_seed = 0x5eed0f3a7e5ull;

static uint32_t
t_next(void)
{
    s_seed = s_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t) (s_seed >> 33);
}

/* uniform in [lo, hi] */
static int32_t
t_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t) (t_next() % (uint32_t) (hi - lo + 1));
}

static wem_rect
t_random_rect(int32_t span)
{
    int32_t hw = t_range(50, 700), hd = t_range(50, 700);
    return t_rect(t_range(-span, span), t_range(-span, span), hw, hd, t_range(0, WEM_TURN - 1));
}

static wem_quad
t_q(const wem_rect *r)
{
    wem_quad q;
    wem_g_quad(r, 0, &q);
    return q;
}

/* ---- numbers ---- */

static void
test_wem_geom_norm_and_hdiff(void **state)
{
    (void) state;
    assert_int_equal(wem_g_norm(-1), 3599);
    assert_int_equal(wem_g_norm(3600), 0);
    assert_int_equal(wem_g_norm(-7201), 3599);
    assert_int_equal(wem_g_hdiff(10, 3590), 20);
    assert_int_equal(wem_g_hdiff(0, 1800), 1800);
    assert_int_equal(wem_g_hdiff(900, 2700), 1800);
    assert_int_equal(wem_g_hdiff(100, 1000), 900);
}

static void
test_wem_geom_div_round_halves_away_from_zero(void **state)
{
    (void) state;
    assert_int_equal(wem_g_div_round(5, 2), 3);
    assert_int_equal(wem_g_div_round(-5, 2), -3);
    assert_int_equal(wem_g_div_round(4, 3), 1);
    assert_int_equal(wem_g_div_round(-4, 3), -1);
    assert_int_equal(wem_g_div_round(5, 3), 2);
    assert_int_equal(wem_g_div_round(-5, 3), -2);
    assert_int_equal(wem_g_div_round(0, 7), 0);
    assert_int_equal(wem_g_div_round(INT64_MAX, INT64_MAX), 1);
}

static void
test_wem_geom_isqrt_is_floor(void **state)
{
    (void) state;
    assert_int_equal(wem_g_isqrt(0), 0);
    assert_int_equal(wem_g_isqrt(1), 1);
    assert_int_equal(wem_g_isqrt(15), 3);
    assert_int_equal(wem_g_isqrt(16), 4);
    assert_true(wem_g_isqrt(UINT64_MAX) == 4294967295ull);
    for (int i = 0; i < 2000; i++) {
        uint64_t v = ((uint64_t) t_next() << 32 | t_next()) >> (t_next() % 64);
        uint64_t r = wem_g_isqrt(v);
        assert_true(r * r <= v);
        assert_true((r + 1) * (r + 1) > v || r == 4294967295ull);
    }
}

/* sin^2 + cos^2 is 2^60 within the table's rounding, for every step */
static void
test_wem_geom_sin2_cos2_is_one(void **state)
{
    (void) state;
    for (int32_t h = 0; h < WEM_TURN; h++) {
        int64_t s = wem_g_sin(h), c = wem_g_cos(h);
        int64_t e = s * s + c * c - ((int64_t) 1 << 60);
        /* each value is within a half of the true one: the error is below |s| + |c| + 1 */
        assert_true(e <= ((int64_t) 1 << 31) && e >= -((int64_t) 1 << 31));
    }
}

/* the table matches the C library's sine to 1 unit in the last place of Q30 */
static void
test_wem_geom_sin_table_matches_libm(void **state)
{
    (void) state;
    const double pi = 3.14159265358979323846;
    for (int32_t h = -WEM_TURN; h < 2 * WEM_TURN; h++) {
        double want = sin(pi * (double) h / 1800.0) * (double) WEM_Q30;
        double wc = cos(pi * (double) h / 1800.0) * (double) WEM_Q30;
        assert_true(fabs((double) wem_g_sin(h) - want) <= 1.0);
        assert_true(fabs((double) wem_g_cos(h) - wc) <= 1.0);
    }
    assert_int_equal(wem_g_sin(900), WEM_Q30);
    assert_int_equal(wem_g_sin(0), 0);
    assert_int_equal(wem_g_cos(1800), -WEM_Q30);
    assert_int_equal(wem_g_sin(2700), -WEM_Q30);
}

/* ---- points and pieces ---- */

static void
test_wem_geom_headings_and_corners(void **state)
{
    (void) state;
    wem_pt o = {0, 0};
    wem_pt n = wem_g_offset(o, 0, 100, 0), e = wem_g_offset(o, 900, 100, 0);
    wem_pt r = wem_g_offset(o, 0, 0, 100);
    assert_int_equal(n.x, 0);
    assert_int_equal(n.y, -100); /* north is -y */
    assert_int_equal(e.x, 100);
    assert_int_equal(e.y, 0);
    assert_int_equal(r.x, 100); /* the right of a piece facing north is east */
    wem_rect t = t_tile(1000, 2000, 0);
    wem_pt fl = wem_g_corner(&t, WEM_FL), rr = wem_g_corner(&t, WEM_RR);
    assert_int_equal(fl.x, 700);
    assert_int_equal(fl.y, 1700);
    assert_int_equal(rr.x, 1300);
    assert_int_equal(rr.y, 2300);
    wem_rect s = t_tile(0, 0, 1800); /* facing south: its front-left is south-east */
    fl = wem_g_corner(&s, WEM_FL);
    assert_int_equal(fl.x, 300);
    assert_int_equal(fl.y, 300);
}

/* ---- contact: [Formations], the figures of pieces in contact ---- */

/* two 30 mm tiles side by side, fronts aligned, touch along the whole flank */
static void
test_wem_geom_tiles_side_by_side_touch_along_flank(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0), b = t_tile(2 * TILE, 0, 0);
    int corner = -1;
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
    assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_RIGHT);
    assert_int_equal(corner, 0);
    assert_int_equal(wem_g_contact_len(&a, WEM_SIDE_RIGHT, &b, TOL), 600);
    assert_int_equal(wem_g_contact_len(&a, WEM_SIDE_FRONT, &b, TOL), 0);
    assert_int_equal(wem_g_touch_sides(&b, &a, TOL, &corner), WEM_SIDE_LEFT);
    assert_int_equal(wem_g_contact_len(&b, WEM_SIDE_LEFT, &a, TOL), 600);
}

/* corner to corner is a contact, only at a corner */
static void
test_wem_geom_corner_to_corner_is_touch_at_corner(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0), b = t_tile(2 * TILE, -2 * TILE, 0);
    int corner = 0;
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
    int sides = wem_g_touch_sides(&a, &b, TOL, &corner);
    assert_int_equal(corner, 1);
    assert_int_equal(sides, WEM_SIDE_FRONT | WEM_SIDE_RIGHT);
}

/* a gap of the tolerance still touches, a gap beyond it does not; an overlap of the tolerance
 * is an overlap */
static void
test_wem_geom_contact_tolerance_band(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    wem_rect b = t_tile(2 * TILE + TOL, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
    b = t_tile(2 * TILE + TOL + 1, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_APART);
    b = t_tile(2 * TILE - TOL, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
    b = t_tile(2 * TILE - TOL - 1, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_OVERLAP);
    /* with no tolerance, touching is a touch and any overlap an overlap */
    b = t_tile(2 * TILE, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, 0), WEM_TOUCH);
    b = t_tile(2 * TILE - 1, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, 0), WEM_OVERLAP);
    b = t_tile(2 * TILE + 1, 0, 0);
    assert_int_equal(wem_g_contact(&a, &b, 0), WEM_APART);
    /* a front-to-front contact */
    b = t_tile(0, -2 * TILE, 1800);
    int corner = 1;
    assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_FRONT);
    assert_int_equal(corner, 0);
    assert_int_equal(wem_g_touch_sides(&b, &a, TOL, &corner), WEM_SIDE_FRONT);
}

/* a piece half a tile further forward on the flank touches the flank along half its length */
static void
test_wem_geom_staggered_flank_contact_length(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0), b = t_tile(2 * TILE, -TILE, 0);
    int corner = 1;
    assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_RIGHT);
    assert_int_equal(corner, 0);
    assert_int_equal(wem_g_contact_len(&a, WEM_SIDE_RIGHT, &b, TOL), 300);
}

/* the same figures at any heading and place: the rounding of the corners stays inside the
 * tolerance */
static void
test_wem_geom_contact_figures_at_any_heading(void **state)
{
    (void) state;
    for (int i = 0; i < 400; i++) {
        int32_t h = t_range(0, WEM_TURN - 1);
        wem_rect a = t_tile(t_range(-20000, 20000), t_range(-20000, 20000), h);
        int corner = -1;
        /* side by side, fronts aligned */
        wem_rect b = a;
        b.c = wem_g_offset(a.c, h, 0, 2 * TILE);
        assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_RIGHT);
        assert_int_equal(corner, 0);
        int32_t len = wem_g_contact_len(&a, WEM_SIDE_RIGHT, &b, TOL);
        assert_true(len >= 598 && len <= 602);
        /* staggered by half a tile */
        b.c = wem_g_offset(a.c, h, TILE, -2 * TILE);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_LEFT);
        len = wem_g_contact_len(&a, WEM_SIDE_LEFT, &b, TOL);
        assert_true(len >= 298 && len <= 302);
        /* corner to corner */
        b.c = wem_g_offset(a.c, h, 2 * TILE, 2 * TILE);
        assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_TOUCH);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_FRONT | WEM_SIDE_RIGHT);
        assert_int_equal(corner, 1);
        b.c = wem_g_offset(a.c, h, -2 * TILE, -2 * TILE);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_REAR | WEM_SIDE_LEFT);
        assert_int_equal(corner, 1);
        /* front to front */
        b.c = wem_g_offset(a.c, h, 2 * TILE, 0);
        b.h = wem_g_norm((int64_t) h + 1800);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), WEM_SIDE_FRONT);
        assert_int_equal(wem_g_touch_sides(&b, &a, TOL, &corner), WEM_SIDE_FRONT);
        assert_int_equal(corner, 0);
        /* a counter in column behind a tile, centred */
        wem_rect g = t_rect(0, 0, COUNTER, COUNTER, h);
        g.c = wem_g_offset(a.c, h, -TILE - COUNTER, 0);
        assert_int_equal(wem_g_touch_sides(&a, &g, TOL, &corner), WEM_SIDE_REAR);
        assert_int_equal(wem_g_touch_sides(&g, &a, TOL, &corner), WEM_SIDE_FRONT);
        len = wem_g_contact_len(&a, WEM_SIDE_REAR, &g, TOL);
        assert_true(len >= 298 && len <= 302);
        /* a gap of 1 mm is apart */
        b = a;
        b.c = wem_g_offset(a.c, h, 0, 2 * TILE + MM(1));
        assert_int_equal(wem_g_contact(&a, &b, TOL), WEM_APART);
        assert_int_equal(wem_g_touch_sides(&a, &b, TOL, &corner), 0);
    }
}

/* ---- [Area of Engagement] ---- */

static void
test_wem_geom_aoe_one_uom_in_front_is_limit(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0); /* front edge at y = -300 */
    wem_rect b = t_tile(0, -TILE - WEM_UOM - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 1);
    assert_true(wem_g_front_within(&a, &b, WEM_UOM));
    assert_false(wem_g_front_within(&a, &b, WEM_UOM - 1));
}

static void
test_wem_geom_aoe_half_uom_in_front_is_occupied(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    wem_rect b = t_tile(0, -TILE - WEM_UOM / 2 - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 2);
}

static void
test_wem_geom_aoe_one_uom_and_1mm_is_outside(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    wem_rect b = t_tile(0, -TILE - WEM_UOM - MM(1) - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 0);
    /* "exactly 1 unit of measurement" is measured within the contact tolerance either way */
    b = t_tile(0, -TILE - WEM_UOM - TOL - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 1);
    b = t_tile(0, -TILE - WEM_UOM - TOL - 1 - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 0);
    b = t_tile(0, -TILE - WEM_UOM + TOL - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 1);
    b = t_tile(0, -TILE - WEM_UOM + TOL + 1 - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 2);
}

static void
test_wem_geom_aoe_entirely_behind_rear_line_is_outside(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0); /* rear edge at y = +300 */
    /* right behind, touching the rear line from behind: not in the area */
    wem_rect b = t_tile(0, TILE + TILE + 1, 0);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 0);
    /* behind and to the side, within 1 UoM of the rear corner */
    b = t_tile(2 * TILE + MM(5), 2 * TILE + MM(1), 0);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 0);
}

/* the flanks: a piece beside the flank, within 1 UoM, is in the area; the area's corners in
 * front are rounded: diagonally off the front corner it is the distance to the corner */
static void
test_wem_geom_aoe_flanks_and_rounded_corners(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    wem_rect b = t_tile(2 * TILE + WEM_UOM / 2, 0, 2700);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 2);
    /* off the front-right corner (300, -300) by (400, 400): 566 away, inside */
    b = t_tile(TILE + 400 + TILE, -TILE - 400 - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 2);
    /* by (450, 450): 636 away, outside though within 1 UoM along each axis */
    b = t_tile(TILE + 450 + TILE, -TILE - 450 - TILE, 1800);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 0);
}

/* a piece straddling the rear line: only its part not behind the line counts */
static void
test_wem_geom_aoe_straddling_rear_line_counts_front_part(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    /* beside the flank at 0.5 UoM, its front half ahead of a's rear line */
    wem_rect b = t_tile(2 * TILE + WEM_UOM / 2, 2 * TILE - TILE / 2, 0);
    assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), 2);
}

/* a swept path is checked against the area the same way */
static void
test_wem_geom_aoe_of_a_swept_path(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 0);
    wem_rect m = t_tile(3000, -1000, 2700); /* far to the east, moving west across a's front */
    wem_rect e = wem_g_translate(&m, 2700, 6000);
    wem_quad qm = t_q(&m), qe = t_q(&e);
    wem_pt sw[8];
    int n = wem_g_sweep(&qm, &qe, sw);
    assert_int_equal(wem_g_aoe(&a, &m, WEM_UOM, TOL), 0);
    assert_int_equal(wem_g_aoe_convex(&a, sw, n, WEM_UOM, TOL), 2);
    /* the same path 1 UoM and a bit further north misses it */
    m = t_tile(3000, -300 - WEM_UOM - MM(2) - TILE, 2700);
    e = wem_g_translate(&m, 2700, 6000);
    qm = t_q(&m);
    qe = t_q(&e);
    n = wem_g_sweep(&qm, &qe, sw);
    assert_int_equal(wem_g_aoe_convex(&a, sw, n, WEM_UOM, TOL), 0);
}

static void
test_wem_geom_same_facing_within_heading_tol(void **state)
{
    (void) state;
    assert_true(wem_g_same_facing(0, 10, WEM_HEADING_TOL));
    assert_true(wem_g_same_facing(3595, 5, WEM_HEADING_TOL));
    assert_false(wem_g_same_facing(0, 11, WEM_HEADING_TOL));
    assert_false(wem_g_same_facing(0, 1800, WEM_HEADING_TOL));
}

/* ---- [Line of fire]: 15 mm wide, 6 UoM (180 mm) long, straight ahead ---- */

static wem_rect
t_strip(void)
{
    wem_rect g = t_gun(0, 0, 0); /* front edge at y = -300 */
    return wem_g_lof(&g, MM(15), 6 * WEM_UOM);
}

static void
test_wem_geom_lof_is_15_by_180_straight_ahead(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_quad q = t_q(&s);
    assert_int_equal(q.v[WEM_RL].x, -150);
    assert_int_equal(q.v[WEM_RL].y, -300);
    assert_int_equal(q.v[WEM_FR].x, 150);
    assert_int_equal(q.v[WEM_FR].y, -300 - MM(180));
}

static void
test_wem_geom_lof_target_179mm_hit_181mm_not(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_rect t = t_tile(0, -300 - MM(179) - TILE, 1800);
    assert_true(wem_g_lof_hits(&s, &t));
    assert_int_equal(wem_g_lof_depth(&s, &t), MM(179));
    t = t_tile(0, -300 - MM(181) - TILE, 1800);
    assert_false(wem_g_lof_hits(&s, &t));
    assert_int_equal(wem_g_lof_depth(&s, &t), -1);
}

/* "even partially": a target beside the strip, in it by 1 mm, is hit; one only touching the
 * strip's edge is not in it */
static void
test_wem_geom_lof_target_partially_in_strip_is_hit(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_rect t = t_tile(150 - MM(1) + TILE, -300 - MM(60), 1800);
    assert_true(wem_g_lof_hits(&s, &t));
    assert_int_equal(wem_g_lof_depth(&s, &t), MM(60) - TILE);
    t = t_tile(150 + TILE, -300 - MM(60), 1800);
    assert_false(wem_g_lof_hits(&s, &t));
}

static void
test_wem_geom_lof_blocked_by_tile_across_whole_width(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_rect b = t_tile(0, -300 - MM(60), 0);
    wem_quad q = t_q(&b);
    assert_true(wem_g_lof_blocked_quad(&s, &q, 0, MM(180)));
    /* not between the gun and a target nearer than the blocker */
    assert_false(wem_g_lof_blocked_quad(&s, &q, 0, MM(30)));
}

static void
test_wem_geom_lof_not_blocked_by_tile_across_half_width(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_rect b = t_tile(TILE, -300 - MM(60), 0); /* x from 0 to 600: half the strip */
    wem_quad q = t_q(&b);
    assert_false(wem_g_lof_blocked_quad(&s, &q, 0, MM(180)));
    /* nor by two such tiles side by side, each taken alone (R-wem-lof-entire-width) */
    wem_rect c = t_tile(-TILE, -300 - MM(60), 0);
    wem_quad qc = t_q(&c);
    assert_false(wem_g_lof_blocked_quad(&s, &qc, 0, MM(180)));
}

static void
test_wem_geom_lof_blocked_by_terrain(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    /* a wood across the strip */
    static const wem_pt wood[] = {{-1000, -1500}, {1000, -1500}, {1000, -2500}, {-1000, -2500}};
    wem_poly p = {4, wood};
    assert_true(wem_g_lof_blocked_poly(&s, &p, 0, MM(180)));
    assert_false(wem_g_lof_blocked_poly(&s, &p, 0, 1000));
    /* a wood reaching only half across */
    static const wem_pt half[] = {{0, -1500}, {1000, -1500}, {1000, -2500}, {0, -2500}};
    wem_poly ph = {4, half};
    assert_false(wem_g_lof_blocked_poly(&s, &ph, 0, MM(180)));
    /* a U-shaped wood with the strip in its notch: free up to its base (at depth 2700), blocked
     * beyond it */
    static const wem_pt u[] = {{-1000, -1500}, {-400, -1500}, {-400, -3000}, {400, -3000}, {400, -1500},
                               {1000, -1500}, {1000, -3500}, {-1000, -3500}};
    wem_poly pu = {8, u};
    assert_false(wem_g_lof_blocked_poly(&s, &pu, 0, 2600));
    assert_true(wem_g_lof_blocked_poly(&s, &pu, 0, MM(180)));
    /* the notch narrower than the strip: its arms cover both long edges, but every line along
     * the middle of the strip is free */
    static const wem_pt u2[] = {{-1000, -1500}, {-100, -1500}, {-100, -3000}, {100, -3000}, {100, -1500},
                                {1000, -1500}, {1000, -3500}, {-1000, -3500}};
    wem_poly pu2 = {8, u2};
    assert_false(wem_g_lof_blocked_poly(&s, &pu2, 0, 2600));
    assert_true(wem_g_lof_blocked_poly(&s, &pu2, 0, 2800));
    /* a wood the cut strip lies wholly inside (no edge crosses it) */
    static const wem_pt big[] = {{-5000, -10000}, {5000, -10000}, {5000, 5000}, {-5000, 5000}};
    wem_poly pb = {4, big};
    assert_true(wem_g_lof_blocked_poly(&s, &pb, 0, MM(180)));
    /* two woods each across half the width, side by side, as one polygon with a seam: blocks;
     * as two polygons: neither does (R-wem-lof-entire-width) */
    static const wem_pt lw[] = {{-1000, -1500}, {0, -1500}, {0, -2500}, {-1000, -2500}};
    static const wem_pt rw[] = {{0, -1500}, {1000, -1500}, {1000, -2500}, {0, -2500}};
    wem_poly pl = {4, lw}, pr = {4, rw};
    assert_false(wem_g_lof_blocked_poly(&s, &pl, 0, MM(180)));
    assert_false(wem_g_lof_blocked_poly(&s, &pr, 0, MM(180)));
    /* a diagonal band of wood (a parallelogram) across the strip */
    static const wem_pt diag[] = {{-1000, -1000}, {-800, -1000}, {1000, -2800}, {800, -2800}};
    wem_poly pd = {4, diag};
    assert_true(wem_g_lof_blocked_poly(&s, &pd, 0, MM(180)));
    assert_false(wem_g_lof_blocked_poly(&s, &pd, 0, 1000));
    /* a sunken road crossing it diagonally */
    static const wem_pt road[] = {{-2000, -1000}, {2000, -3000}};
    wem_line l = {2, MM(2), road};
    assert_true(wem_g_lof_blocked_line(&s, &l, 0, MM(180)));
}

static void
test_wem_geom_fired_on_rear_gun_behind_target(void **state)
{
    (void) state;
    wem_rect s = t_strip();
    wem_rect t = t_tile(0, -300 - MM(60) - TILE, 0);      /* faces north, away from the gun */
    assert_true(wem_g_lof_hits(&s, &t));
    assert_true(wem_g_fired_on_rear(&s, &t));
    t.h = 1800;                                            /* faces the gun */
    assert_false(wem_g_fired_on_rear(&s, &t));
    t.h = 900;                                             /* its flank to the gun */
    assert_false(wem_g_fired_on_rear(&s, &t));
    /* a gun beside the target, firing along its rear line's side: not behind it */
    wem_rect g = t_gun(-3000, -300, 900);                  /* faces east */
    wem_rect s2 = wem_g_lof(&g, MM(15), 6 * WEM_UOM);
    t = t_tile(-3000 + 300 + MM(60) + TILE, -300, 0);      /* faces north: the gun is on its left */
    assert_true(wem_g_lof_hits(&s2, &t));
    assert_false(wem_g_fired_on_rear(&s2, &t));
    /* behind it and to the side, firing obliquely forward into it */
    g = t_gun(-1500, 1500, 450);
    s2 = wem_g_lof(&g, MM(15), 6 * WEM_UOM);
    t = t_tile(0, 0, 0);
    assert_true(wem_g_lof_hits(&s2, &t));
    assert_true(wem_g_fired_on_rear(&s2, &t));
}

/* ---- terrain ---- */

static void
test_wem_geom_piece_crossing_board_edge_meets_out_of_field(void **state)
{
    (void) state;
    /* the out-of-field strip west of the board's edge x = 0 */
    static const wem_pt off[] = {{-4000, -20000}, {0, -20000}, {0, 20000}, {-4000, 20000}};
    wem_poly p = {4, off};
    wem_rect a = t_tile(100, 5000, 450);
    wem_quad q = t_q(&a);
    assert_true(wem_g_convex_meets_poly(q.v, 4, &p));
    assert_false(wem_g_quad_inside_poly(&q, &p));
    a = t_tile(TILE + 1, 5000, 0);
    q = t_q(&a);
    assert_false(wem_g_convex_meets_poly(q.v, 4, &p));
    a = t_tile(-1000, 5000, 0);
    q = t_q(&a);
    assert_true(wem_g_quad_inside_poly(&q, &p));
}

static void
test_wem_geom_segment_through_hill_meets_it(void **state)
{
    (void) state;
    /* a non-convex hill: an L */
    static const wem_pt hill[] = {{0, 0}, {3000, 0}, {3000, 1000}, {1000, 1000}, {1000, 3000}, {0, 3000}};
    wem_poly p = {6, hill};
    wem_pt a = {-500, 500}, b = {4000, 500};
    assert_true(wem_g_seg_meets_poly(a, b, &p));
    a = (wem_pt){2000, 2000};
    b = (wem_pt){4000, 4000}; /* in the notch of the L, outside */
    assert_false(wem_g_seg_meets_poly(a, b, &p));
    assert_false(wem_g_pt_in_poly(a, &p));
    assert_true(wem_g_pt_in_poly((wem_pt){500, 2500}, &p));
    assert_true(wem_g_pt_in_poly((wem_pt){1000, 2000}, &p)); /* on the boundary */
    /* a piece in the notch is not inside; one in the arm is */
    wem_rect t = t_tile(2000, 2000, 0);
    wem_quad q = t_q(&t);
    assert_false(wem_g_convex_meets_poly(q.v, 4, &p));
    t = t_tile(500, 2000, 0);
    q = t_q(&t);
    assert_true(wem_g_quad_inside_poly(&q, &p));
    /* a tile covering the L's inner corner */
    t = t_tile(1100, 1100, 0);
    q = t_q(&t);
    assert_true(wem_g_convex_meets_poly(q.v, 4, &p));
    assert_false(wem_g_quad_inside_poly(&q, &p));
}

/* [Linear Terrain] "the bombardment or combat front must touch, even partially, the terrain
 * element": the front edge against the band of a sunken road */
static void
test_wem_geom_front_touches_linear_terrain(void **state)
{
    (void) state;
    static const wem_pt road[] = {{-3000, -400}, {3000, -400}};
    wem_line l = {2, MM(2), road}; /* a band from y = -440 to -360 */
    wem_rect t = t_tile(0, -60, 0); /* front edge at y = -360: touches the band */
    wem_pt a, b;
    assert_int_equal(wem_g_side(&t, WEM_SIDE_FRONT, &a, &b), 0);
    assert_true(wem_g_seg_meets_line(a, b, &l));
    assert_int_equal(wem_g_side(&t, WEM_SIDE_REAR, &a, &b), 0);
    assert_false(wem_g_seg_meets_line(a, b, &l));
    assert_int_equal(wem_g_side(&t, WEM_SIDE_FRONT | WEM_SIDE_REAR, &a, &b), -1);
    t.h = 1800; /* facing away: its rear touches, not its front */
    assert_int_equal(wem_g_side(&t, WEM_SIDE_FRONT, &a, &b), 0);
    assert_false(wem_g_seg_meets_line(a, b, &l));
    t = t_tile(0, -61 + 1 - 1, 0);
    wem_quad q = t_q(&t);
    assert_true(wem_g_convex_meets_line(q.v, 4, &l));
    t = t_tile(0, -59, 0);
    q = t_q(&t);
    assert_false(wem_g_convex_meets_line(q.v, 4, &l));
}

/* ---- motion ---- */

static void
test_wem_geom_approach_stops_at_contact(void **state)
{
    (void) state;
    wem_rect m = t_tile(0, 3000, 0), o = t_tile(100, 0, 1800);
    wem_quad qm = t_q(&m), qo = t_q(&o);
    int32_t d = wem_g_approach(qm.v, 4, 0, 10000, qo.v, 4);
    assert_int_equal(d, 3000 - 600);
    wem_rect m2 = wem_g_translate(&m, 0, d);
    assert_int_equal(wem_g_contact(&m2, &o, TOL), WEM_TOUCH);
    assert_int_equal(wem_g_approach(qm.v, 4, 0, 100, qo.v, 4), 100);
    assert_int_equal(wem_g_approach(qm.v, 4, 1800, 10000, qo.v, 4), 10000);
    wem_quad q2 = t_q(&m2);
    assert_int_equal(wem_g_approach(q2.v, 4, 0, 10000, qo.v, 4), 0);
    /* square on, where the approach is exact: a further tol is the band's edge, tol + 1 is an
     * overlap */
    wem_rect m3 = wem_g_translate(&m, 0, d + TOL);
    assert_int_equal(wem_g_contact(&m3, &o, TOL), WEM_TOUCH);
    m3 = wem_g_translate(&m, 0, d + TOL + 1);
    assert_int_equal(wem_g_contact(&m3, &o, TOL), WEM_OVERLAP);
    /* a corner first: a tile turned 45 degrees stops with its corner on o's rear edge */
    wem_rect k = t_tile(100, 3000, 450);
    wem_quad qk = t_q(&k);
    d = wem_g_approach(qk.v, 4, 0, 10000, qo.v, 4);
    assert_int_equal(d, 3000 - 300 - 424);
    wem_rect k2 = wem_g_translate(&k, 0, d);
    assert_int_equal(wem_g_contact(&k2, &o, TOL), WEM_TOUCH);
}

/* [Sidebar: Advance] "Once the Formation meets an enemy area of engagement it CANNOT Advance
 * further": where an advance straight at an enemy's front first meets its area */
static void
test_wem_geom_advance_meets_area_of_engagement(void **state)
{
    (void) state;
    wem_rect a = t_tile(0, 0, 1800);              /* faces south: its front edge at y = +300 */
    wem_rect m = t_tile(0, 3000, 0);              /* faces north, its front at y = 2700 */
    wem_quad qm = t_q(&m);
    /* at the limit when the gap is 1 UoM + tol: 2400 - t = 610 */
    assert_int_equal(wem_g_approach_aoe(&a, qm.v, 4, 0, 5000, WEM_UOM, TOL, 1), 2400 - WEM_UOM - TOL);
    /* in it when the gap is below 1 UoM - tol: 2400 - t = 589 */
    assert_int_equal(wem_g_approach_aoe(&a, qm.v, 4, 0, 5000, WEM_UOM, TOL, 2), 2400 - WEM_UOM + TOL + 1);
    /* not within the distance allowed, nor moving away */
    assert_int_equal(wem_g_approach_aoe(&a, qm.v, 4, 0, 1000, WEM_UOM, TOL, 1), -1);
    assert_int_equal(wem_g_approach_aoe(&a, qm.v, 4, 1800, 5000, WEM_UOM, TOL, 1), -1);
    /* already in it */
    wem_rect n = t_tile(0, 1200, 0);
    wem_quad qn = t_q(&n);
    assert_int_equal(wem_g_approach_aoe(&a, qn.v, 4, 0, 5000, WEM_UOM, TOL, 1), 0);
    /* passing behind it, within 1 UoM of its rear, never meets it */
    wem_rect p = t_tile(-3000, -1000, 900);
    wem_quad qp = t_q(&p);
    assert_int_equal(wem_g_approach_aoe(&a, qp.v, 4, 900, 6000, WEM_UOM, TOL, 1), -1);
}

/* the same, checked against trying every whole distance */
static void
test_wem_geom_property_approach_aoe_matches_scan(void **state)
{
    (void) state;
    for (int i = 0; i < 60; i++) {
        wem_rect a = t_random_rect(0);
        wem_rect m = t_random_rect(0);
        m.c = wem_g_offset(a.c, t_range(0, WEM_TURN - 1), 2500, 0);
        /* heading roughly towards a, within 40 degrees */
        int32_t back = 0;
        {
            int64_t dx = (int64_t) a.c.x - m.c.x, dy = (int64_t) a.c.y - m.c.y;
            /* the table heading nearest the direction to a, by search */
            int64_t best = -1;
            for (int32_t hh = 0; hh < WEM_TURN; hh += 5) {
                int64_t dot = dx * wem_g_sin(hh) - dy * wem_g_cos(hh);
                if (best < 0 || dot > best) {
                    best = dot;
                    back = hh;
                }
            }
        }
        int32_t h = wem_g_norm((int64_t) back + t_range(-400, 400));
        wem_quad qm = t_q(&m);
        int level = 1 + (i & 1);
        int32_t maxd = 3500;
        int32_t want = -1;
        wem_pt zero = {0, 0};
        for (int32_t t = 0; t <= maxd && want < 0; t++) {
            wem_pt d = wem_g_offset(zero, h, t, 0);
            wem_pt mv[4];
            for (int k = 0; k < 4; k++) {
                mv[k].x = qm.v[k].x + d.x;
                mv[k].y = qm.v[k].y + d.y;
            }
            if (wem_g_aoe_convex(&a, mv, 4, WEM_UOM, TOL) >= level)
                want = t;
        }
        assert_int_equal(wem_g_approach_aoe(&a, qm.v, 4, h, maxd, WEM_UOM, TOL, level), want);
    }
}

/* ---- properties ---- */

static void
test_wem_geom_property_symmetry(void **state)
{
    (void) state;
    for (int i = 0; i < 600; i++) {
        wem_rect a = t_random_rect(1500), b = t_random_rect(1500);
        wem_quad qa = t_q(&a), qb = t_q(&b);
        assert_int_equal(wem_g_contact(&a, &b, TOL), wem_g_contact(&b, &a, TOL));
        assert_int_equal(wem_g_dist(&qa, &qb), wem_g_dist(&qb, &qa));
        assert_int_equal(wem_g_quads_meet(&qa, &qb), wem_g_quads_meet(&qb, &qa));
        int32_t d = wem_g_dist(&qa, &qb);
        assert_true(wem_g_within(&qa, &qb, d + 1));
        assert_true(d == 0 || !wem_g_within(&qa, &qb, d - 1));
    }
}

static void
test_wem_geom_property_translation_invariance(void **state)
{
    (void) state;
    for (int i = 0; i < 400; i++) {
        wem_rect a = t_random_rect(1200), b = t_random_rect(1200);
        int32_t tx = t_range(-100000, 100000), ty = t_range(-100000, 100000);
        wem_rect a2 = a, b2 = b;
        a2.c.x += tx;
        a2.c.y += ty;
        b2.c.x += tx;
        b2.c.y += ty;
        wem_quad qa = t_q(&a), qb = t_q(&b), qa2 = t_q(&a2), qb2 = t_q(&b2);
        int c1 = 0, c2 = 0;
        assert_int_equal(wem_g_contact(&a, &b, TOL), wem_g_contact(&a2, &b2, TOL));
        assert_int_equal(wem_g_dist(&qa, &qb), wem_g_dist(&qa2, &qb2));
        assert_int_equal(wem_g_touch_sides(&a, &b, 300, &c1), wem_g_touch_sides(&a2, &b2, 300, &c2));
        assert_int_equal(c1, c2);
        assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), wem_g_aoe(&a2, &b2, WEM_UOM, TOL));
        wem_rect s = wem_g_lof(&a, MM(15), 6 * WEM_UOM), s2 = wem_g_lof(&a2, MM(15), 6 * WEM_UOM);
        assert_int_equal(wem_g_lof_hits(&s, &b), wem_g_lof_hits(&s2, &b2));
        assert_int_equal(wem_g_lof_depth(&s, &b), wem_g_lof_depth(&s2, &b2));
        int32_t h = t_range(0, WEM_TURN - 1);
        assert_int_equal(wem_g_approach(qa.v, 4, h, 5000, qb.v, 4),
                         wem_g_approach(qa2.v, 4, h, 5000, qb2.v, 4));
    }
}

/* rotating both pieces about the same point by quarter turns changes nothing */
static void
test_wem_geom_property_quarter_turns_exact(void **state)
{
    (void) state;
    for (int i = 0; i < 400; i++) {
        wem_rect a = t_random_rect(1200), b = t_random_rect(1200);
        wem_pt pivot = {t_range(-3000, 3000), t_range(-3000, 3000)};
        int32_t dh = 900 * t_range(1, 3);
        wem_rect a2 = wem_g_rotate(&a, pivot, dh), b2 = wem_g_rotate(&b, pivot, dh);
        wem_quad qa = t_q(&a), qb = t_q(&b), qa2 = t_q(&a2), qb2 = t_q(&b2);
        int c1 = 0, c2 = 0;
        assert_int_equal(wem_g_contact(&a, &b, TOL), wem_g_contact(&a2, &b2, TOL));
        assert_int_equal(wem_g_dist(&qa, &qb), wem_g_dist(&qa2, &qb2));
        assert_int_equal(wem_g_touch_sides(&a, &b, 300, &c1), wem_g_touch_sides(&a2, &b2, 300, &c2));
        assert_int_equal(c1, c2);
        for (int k = 0; k < 4; k++)
            assert_int_equal(wem_g_contact_len(&a, 1 << k, &b, 300), wem_g_contact_len(&a2, 1 << k, &b2, 300));
        assert_int_equal(wem_g_aoe(&a, &b, WEM_UOM, TOL), wem_g_aoe(&a2, &b2, WEM_UOM, TOL));
        wem_rect s = wem_g_lof(&a, MM(15), 6 * WEM_UOM), s2 = wem_g_lof(&a2, MM(15), 6 * WEM_UOM);
        assert_int_equal(wem_g_lof_hits(&s, &b), wem_g_lof_hits(&s2, &b2));
        assert_int_equal(wem_g_lof_depth(&s, &b), wem_g_lof_depth(&s2, &b2));
        assert_int_equal(wem_g_fired_on_rear(&s, &b), wem_g_fired_on_rear(&s2, &b2));
        assert_int_equal(wem_g_lof_blocked_quad(&s, &qb, 0, 3600), wem_g_lof_blocked_quad(&s2, &qb2, 0, 3600));
        assert_int_equal(wem_g_front_within(&a, &b, WEM_UOM), wem_g_front_within(&a2, &b2, WEM_UOM));
        int32_t h = t_range(0, WEM_TURN - 1);
        assert_int_equal(wem_g_approach(qa.v, 4, h, 5000, qb.v, 4),
                         wem_g_approach(qa2.v, 4, wem_g_norm((int64_t) h + dh), 5000, qb2.v, 4));
    }
}

/* rotating by any other step: the contact class is kept wherever it is not within a few units
 * of a tolerance boundary */
static void
test_wem_geom_property_any_rotation_robust(void **state)
{
    (void) state;
    int checked = 0;
    for (int i = 0; i < 1500; i++) {
        wem_rect a = t_random_rect(900), b = t_random_rect(900);
        wem_pt pivot = {t_range(-3000, 3000), t_range(-3000, 3000)};
        int32_t dh = t_range(1, WEM_TURN - 1);
        wem_rect a2 = wem_g_rotate(&a, pivot, dh), b2 = wem_g_rotate(&b, pivot, dh);
        wem_quad qa = t_q(&a), qb = t_q(&b), qa2 = t_q(&a2), qb2 = t_q(&b2);
        int32_t d1 = wem_g_dist(&qa, &qb), d2 = wem_g_dist(&qa2, &qb2);
        assert_true(d1 - d2 <= 4 && d2 - d1 <= 4);
        /* robust classes: far from the band edges */
        wem_quad sa, sb;
        int margin = 6;
        wem_g_quad(&a, -(TOL / 2) - margin, &sa);
        wem_g_quad(&b, -(TOL / 2) - margin, &sb);
        int deep = wem_g_quads_meet(&sa, &sb);
        wem_g_quad(&a, -(TOL / 2) + margin, &sa);
        wem_g_quad(&b, -(TOL / 2) + margin, &sb);
        int shallow = !wem_g_quads_meet(&sa, &sb);
        int want = -1;
        if (deep)
            want = WEM_OVERLAP;
        else if (shallow && d1 <= TOL - margin)
            want = WEM_TOUCH;
        else if (d1 >= TOL + margin)
            want = WEM_APART;
        if (want < 0)
            continue;
        checked++;
        assert_int_equal(wem_g_contact(&a, &b, TOL), want);
        assert_int_equal(wem_g_contact(&a2, &b2, TOL), want);
        /* the area of engagement, away from its band edges */
        int g = wem_g_aoe(&a, &b, WEM_UOM, TOL);
        if (g == wem_g_aoe(&a, &b, WEM_UOM - margin, TOL) && g == wem_g_aoe(&a, &b, WEM_UOM + margin, TOL))
            assert_int_equal(wem_g_aoe(&a2, &b2, WEM_UOM, TOL), g);
        /* the line of fire: hit when a narrower, shorter strip is hit, missed when a wider one is */
        wem_rect s = wem_g_lof(&a, MM(15), 6 * WEM_UOM), s2 = wem_g_lof(&a2, MM(15), 6 * WEM_UOM);
        wem_rect in = s, out = s;
        in.hw -= margin;
        in.hd -= margin;
        out.hw += margin;
        out.hd += margin;
        if (wem_g_lof_hits(&in, &b))
            assert_true(wem_g_lof_hits(&s2, &b2));
        else if (!wem_g_lof_hits(&out, &b))
            assert_false(wem_g_lof_hits(&s2, &b2));
    }
    assert_true(checked > 1000);
}

/* moving b further along a ray from a never brings it nearer */
static void
test_wem_geom_property_distance_monotone_along_ray(void **state)
{
    (void) state;
    for (int i = 0; i < 200; i++) {
        wem_rect a = t_random_rect(0), b = t_random_rect(0);
        b.c = a.c;
        int32_t dx = t_range(-40, 40), dy = t_range(-40, 40);
        if (dx == 0 && dy == 0)
            dx = 1;
        wem_quad qa = t_q(&a);
        int32_t last = 0;
        for (int k = 0; k < 120; k++) {
            wem_rect bk = b;
            bk.c.x += k * dx;
            bk.c.y += k * dy;
            wem_quad qb = t_q(&bk);
            int32_t d = wem_g_dist(&qa, &qb);
            assert_true(d >= last);
            last = d;
        }
    }
}

/* approach then contact is a touch; a further tol (and a little) head on is an overlap */
static void
test_wem_geom_property_approach_then_contact(void **state)
{
    (void) state;
    for (int i = 0; i < 500; i++) {
        wem_rect o = t_random_rect(2000);
        wem_rect m = t_random_rect(0);
        int aligned = i % 2;
        /* m stands ahead of o's front, within its width, facing o's heading turned by quarter
         * turns when aligned, any heading otherwise */
        int32_t lat = t_range(-(o.hw > 60 ? o.hw - 50 : 10), o.hw > 60 ? o.hw - 50 : 10);
        m.c = wem_g_offset(o.c, o.h, o.hd + 1500 + t_range(0, 3000), lat);
        m.h = aligned ? wem_g_norm((int64_t) o.h + 900 * t_range(0, 3)) : t_range(0, WEM_TURN - 1);
        wem_quad qm = t_q(&m), qo = t_q(&o);
        if (wem_g_quads_meet(&qm, &qo))
            continue;
        int32_t h = wem_g_norm((int64_t) o.h + 1800);
        int32_t d = wem_g_approach(qm.v, 4, h, 20000, qo.v, 4);
        assert_true(d > 0 && d < 20000);
        wem_rect m2 = wem_g_translate(&m, h, d);
        assert_int_equal(wem_g_contact(&m2, &o, TOL), WEM_TOUCH);
        wem_quad q2 = t_q(&m2);
        assert_true(wem_g_dist(&q2, &qo) <= 2);
        if (d >= 2) {
            /* and not too late: two units short of it they are apart */
            wem_rect m1 = wem_g_translate(&m, h, d - 2);
            wem_quad q1 = t_q(&m1);
            assert_false(wem_g_quads_meet(&q1, &qo));
        }
        if (aligned) {
            /* the contact band ends at an overlap of tol across; the approach is rounded down
             * and the move rounded to the unit, so a little more than tol is always beyond it */
            wem_rect m3 = wem_g_translate(&m, h, d + TOL + 3);
            assert_int_equal(wem_g_contact(&m3, &o, TOL), WEM_OVERLAP);
        }
    }
}

/* the exact distance agrees with a reference computed in the C library's arithmetic */
static double
t_ref_pt_seg(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    double qx = ax + t * dx - px, qy = ay + t * dy - py;
    return sqrt(qx * qx + qy * qy);
}

static void
test_wem_geom_property_distance_matches_reference(void **state)
{
    (void) state;
    for (int i = 0; i < 600; i++) {
        wem_rect a = t_random_rect(3000), b = t_random_rect(3000);
        wem_quad qa = t_q(&a), qb = t_q(&b);
        if (wem_g_quads_meet(&qa, &qb)) {
            assert_int_equal(wem_g_dist(&qa, &qb), 0);
            continue;
        }
        double best = 1e300;
        for (int pass = 0; pass < 2; pass++) {
            const wem_quad *p = pass ? &qb : &qa, *q = pass ? &qa : &qb;
            for (int k = 0; k < 4; k++)
                for (int j = 0; j < 4; j++) {
                    double d = t_ref_pt_seg(p->v[k].x, p->v[k].y, q->v[j].x, q->v[j].y,
                                            q->v[(j + 1) & 3].x, q->v[(j + 1) & 3].y);
                    if (d < best)
                        best = d;
                }
        }
        int32_t d = wem_g_dist(&qa, &qb);
        assert_true(fabs((double) d - floor(best)) <= 1.0);
        assert_true((double) d <= best + 1e-6 && best < (double) d + 1 + 1e-6);
    }
}

/* contact agrees with the distance, and the area of engagement with a reference computed in the
 * C library's arithmetic (b cut at a's rear line exactly), away from its band edges */
static double
t_ref_poly_dist(const double (*p)[2], int np, const wem_quad *q)
{
    double best = 1e300;
    for (int i = 0; i < np; i++)
        for (int j = 0; j < 4; j++) {
            double d = t_ref_pt_seg(p[i][0], p[i][1], q->v[j].x, q->v[j].y, q->v[(j + 1) & 3].x,
                                    q->v[(j + 1) & 3].y);
            best = d < best ? d : best;
        }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < np; i++) {
            int k = (i + 1) % np;
            double d = t_ref_pt_seg(q->v[j].x, q->v[j].y, p[i][0], p[i][1], p[k][0], p[k][1]);
            best = d < best ? d : best;
        }
    return best;
}

static void
test_wem_geom_property_contact_and_aoe_match_reference(void **state)
{
    (void) state;
    int checked = 0;
    for (int i = 0; i < 3000; i++) {
        wem_rect a = t_random_rect(1500), b = t_random_rect(1500);
        wem_quad qa = t_q(&a), qb = t_q(&b);
        int c = wem_g_contact(&a, &b, TOL);
        assert_int_equal(c != WEM_APART, wem_g_within(&qa, &qb, TOL));
        /* b cut at the rear line RR -> RL of a (a on its left) */
        double part[8][2];
        int n = 0;
        double ex = qa.v[WEM_RL].x - qa.v[WEM_RR].x, ey = qa.v[WEM_RL].y - qa.v[WEM_RR].y;
        for (int k = 0; k < 4; k++) {
            const wem_pt *u = &qb.v[k], *v = &qb.v[(k + 1) & 3];
            double fu = ex * (u->y - qa.v[WEM_RR].y) - ey * (u->x - qa.v[WEM_RR].x);
            double fv = ex * (v->y - qa.v[WEM_RR].y) - ey * (v->x - qa.v[WEM_RR].x);
            if (fu >= 0) {
                part[n][0] = u->x;
                part[n][1] = u->y;
                n++;
            }
            if ((fu >= 0) != (fv >= 0)) {
                double t = fu / (fu - fv);
                part[n][0] = u->x + t * (v->x - u->x);
                part[n][1] = u->y + t * (v->y - u->y);
                n++;
            }
        }
        int g = wem_g_aoe(&a, &b, WEM_UOM, TOL);
        if (n == 0) {
            assert_int_equal(g, 0);
            checked++;
            continue;
        }
        if (n < 3)
            continue; /* only touching the line */
        double d = wem_g_quads_meet(&qa, &qb) ? 0 : t_ref_poly_dist(part, n, &qa);
        int want;
        if (d < WEM_UOM - TOL - 1.5)
            want = 2;
        else if (d > WEM_UOM - TOL + 1.5 && d < WEM_UOM + TOL - 1.5)
            want = 1;
        else if (d > WEM_UOM + TOL + 1.5)
            want = 0;
        else
            continue;
        checked++;
        assert_int_equal(g, want);
    }
    assert_true(checked > 2800);
}

/* a convex polygon blocks a line of fire as the same shape as a piece does, away from the edges */
static void
test_wem_geom_property_lof_blocked_poly_matches_convex(void **state)
{
    (void) state;
    int blocked = 0, free = 0;
    for (int i = 0; i < 800; i++) {
        wem_rect g = t_gun(t_range(-500, 500), t_range(-500, 500), t_range(0, WEM_TURN - 1));
        wem_rect s = wem_g_lof(&g, MM(15), 6 * WEM_UOM);
        wem_rect b = t_random_rect(0);
        b.c = wem_g_offset(s.c, s.h, t_range(-1800, 1800), t_range(-400, 400));
        wem_quad qb = t_q(&b);
        wem_poly p = {4, qb.v};
        int32_t lo = t_range(0, 1800), hi = t_range(lo, 3600);
        wem_rect wide = s, narrow = s;
        wide.hw += 3;
        narrow.hw -= 3;
        int got = wem_g_lof_blocked_poly(&s, &p, lo, hi);
        if (wem_g_lof_blocked_quad(&wide, &qb, lo, hi)) {
            assert_true(got);
            blocked++;
        } else if (!wem_g_lof_blocked_quad(&narrow, &qb, lo, hi)) {
            assert_false(got);
            free++;
        }
    }
    assert_true(blocked > 50 && free > 50);
}

/* comparing two distances is exact: a congruent pair is equal, one unit further is more */
static void
test_wem_geom_dist_cmp_exact(void **state)
{
    (void) state;
    for (int i = 0; i < 300; i++) {
        wem_rect a = t_random_rect(2000), b = t_random_rect(2000);
        wem_rect a2 = wem_g_rotate(&a, (wem_pt){17, -5}, 900), b2 = wem_g_rotate(&b, (wem_pt){17, -5}, 900);
        wem_quad qa = t_q(&a), qb = t_q(&b), qa2 = t_q(&a2), qb2 = t_q(&b2);
        assert_int_equal(wem_g_dist_cmp(qa.v, 4, qb.v, 4, qa2.v, 4, qb2.v, 4), 0);
        if (wem_g_quads_meet(&qa, &qb))
            continue;
        /* b moved straight away from a along the x axis */
        int32_t amax = qa.v[0].x, bmin = qb.v[0].x;
        for (int k = 1; k < 4; k++) {
            amax = qa.v[k].x > amax ? qa.v[k].x : amax;
            bmin = qb.v[k].x < bmin ? qb.v[k].x : bmin;
        }
        if (bmin <= amax)
            continue;
        wem_rect b3 = b;
        b3.c.x += 1;
        wem_quad qb3 = t_q(&b3);
        assert_int_equal(wem_g_dist_cmp(qa.v, 4, qb3.v, 4, qa.v, 4, qb.v, 4), 1);
        assert_true(wem_g_dist_cmp(qa.v, 4, qb3.v, 4, qa.v, 4, qb.v, 4) >= 0);
    }
    /* two pieces 600 and 601 away */
    wem_rect a = t_tile(0, 0, 0), b = t_tile(1200, 0, 0), c = t_tile(1201, 0, 0);
    wem_quad qa = t_q(&a), qb = t_q(&b), qc = t_q(&c);
    assert_int_equal(wem_g_dist_cmp(qa.v, 4, qc.v, 4, qa.v, 4, qb.v, 4), 1);
    assert_int_equal(wem_g_dist_cmp(qa.v, 4, qb.v, 4, qa.v, 4, qc.v, 4), -1);
    /* 3-4-5: a corner 3000 x 4000 off is as far as a face 5000 off */
    wem_rect d = t_tile(600 + 3000, -600 - 4000, 0), e = t_tile(600 + 5000, 0, 0);
    wem_quad qd = t_q(&d), qe = t_q(&e);
    assert_int_equal(wem_g_dist_cmp(qa.v, 4, qd.v, 4, qa.v, 4, qe.v, 4), 0);
}

/* [Execute maneuvers] an Advance wheels about the front corner: the parts cover the arc */
static void
test_wem_geom_wheel_parts_cover_the_arc(void **state)
{
    (void) state;
    wem_rect r = t_tile(0, 0, 0);
    wem_pt pivot = wem_g_corner(&r, WEM_FL);
    assert_int_equal(wem_g_wheel_parts(0), 1);
    assert_int_equal(wem_g_wheel_parts(900), 90);
    assert_int_equal(wem_g_wheel_parts(-905), 91);
    wem_pt part[8];
    /* the last part ends on the piece turned by the whole angle */
    int n = wem_g_wheel_part(&r, pivot, 900, 89, part);
    wem_rect end = wem_g_rotate(&r, pivot, 900);
    wem_quad qe = t_q(&end);
    for (int k = 0; k < 4; k++)
        assert_true(wem_g_convex_meet(&qe.v[k], 1, part, n));
    assert_int_equal(wem_g_wheel_part(&r, pivot, 900, 90, part), 0);
    /* the rear-right corner draws the outer arc (radius 849 about the pivot): a counter just
     * inside it, half way round (straight south of the pivot), is met by some part; one just
     * outside is not */
    int met = 0, met_out = 0;
    wem_rect on = t_rect(-300, -300 + 849 - 30, 20, 20, 0);
    wem_rect off = t_rect(-300, -300 + 849 + 25, 20, 20, 0);
    wem_quad qon = t_q(&on), qoff = t_q(&off);
    for (int i = 0; i < wem_g_wheel_parts(900); i++) {
        n = wem_g_wheel_part(&r, pivot, 900, i, part);
        met |= wem_g_convex_meet(part, n, qon.v, 4);
        met_out |= wem_g_convex_meet(part, n, qoff.v, 4);
    }
    assert_true(met);
    assert_false(met_out);
}

/* the swept area of a move contains both ends, and a piece it meets lies on the way */
static void
test_wem_geom_sweep_and_hull(void **state)
{
    (void) state;
    wem_rect m = t_tile(0, 0, 0);
    wem_rect e = wem_g_translate(&m, 0, 3000);
    wem_quad qa = t_q(&m), qb = t_q(&e);
    wem_pt sw[8];
    int n = wem_g_sweep(&qa, &qb, sw);
    assert_int_equal(n, 4);
    wem_rect x = t_tile(0, -1500, 450);
    wem_quad qx = t_q(&x);
    assert_true(wem_g_convex_meet(sw, n, qx.v, 4));
    x = t_tile(900, -1500, 0);
    qx = t_q(&x);
    assert_false(wem_g_convex_meet(sw, n, qx.v, 4));
    static const wem_pt pts[] = {{0, 0}, {10, 0}, {5, 5}, {10, 10}, {0, 10}, {5, 0}, {0, 0}};
    wem_pt h[WEM_G_HULL_MAX];
    assert_int_equal(wem_g_hull(pts, 7, h), 4);
    /* a formation of eight tiles in two ranks: the hull of its 32 corners is its outline */
    wem_pt c[32];
    for (int i = 0; i < 8; i++) {
        wem_rect t = t_tile((i % 4) * 2 * TILE, (i / 4) * 2 * TILE, 0);
        wem_quad q = t_q(&t);
        for (int k = 0; k < 4; k++)
            c[4 * i + k] = q.v[k];
    }
    int n2 = wem_g_hull(c, 32, h);
    assert_int_equal(n2, 4);
    wem_rect all = t_rect(3 * TILE, TILE, 4 * TILE, 2 * TILE, 0);
    wem_quad qall = t_q(&all);
    for (int k = 0; k < 4; k++)
        assert_true(wem_g_convex_meet(&qall.v[k], 1, h, n2));
    assert_int_equal(wem_g_aoe_convex(&all, h, n2, WEM_UOM, TOL), 2);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_geom_norm_and_hdiff),
        cmocka_unit_test(test_wem_geom_div_round_halves_away_from_zero),
        cmocka_unit_test(test_wem_geom_isqrt_is_floor),
        cmocka_unit_test(test_wem_geom_sin2_cos2_is_one),
        cmocka_unit_test(test_wem_geom_sin_table_matches_libm),
        cmocka_unit_test(test_wem_geom_headings_and_corners),
        cmocka_unit_test(test_wem_geom_tiles_side_by_side_touch_along_flank),
        cmocka_unit_test(test_wem_geom_corner_to_corner_is_touch_at_corner),
        cmocka_unit_test(test_wem_geom_contact_tolerance_band),
        cmocka_unit_test(test_wem_geom_staggered_flank_contact_length),
        cmocka_unit_test(test_wem_geom_contact_figures_at_any_heading),
        cmocka_unit_test(test_wem_geom_aoe_one_uom_in_front_is_limit),
        cmocka_unit_test(test_wem_geom_aoe_half_uom_in_front_is_occupied),
        cmocka_unit_test(test_wem_geom_aoe_one_uom_and_1mm_is_outside),
        cmocka_unit_test(test_wem_geom_aoe_entirely_behind_rear_line_is_outside),
        cmocka_unit_test(test_wem_geom_aoe_flanks_and_rounded_corners),
        cmocka_unit_test(test_wem_geom_aoe_straddling_rear_line_counts_front_part),
        cmocka_unit_test(test_wem_geom_aoe_of_a_swept_path),
        cmocka_unit_test(test_wem_geom_same_facing_within_heading_tol),
        cmocka_unit_test(test_wem_geom_lof_is_15_by_180_straight_ahead),
        cmocka_unit_test(test_wem_geom_lof_target_179mm_hit_181mm_not),
        cmocka_unit_test(test_wem_geom_lof_target_partially_in_strip_is_hit),
        cmocka_unit_test(test_wem_geom_lof_blocked_by_tile_across_whole_width),
        cmocka_unit_test(test_wem_geom_lof_not_blocked_by_tile_across_half_width),
        cmocka_unit_test(test_wem_geom_lof_blocked_by_terrain),
        cmocka_unit_test(test_wem_geom_fired_on_rear_gun_behind_target),
        cmocka_unit_test(test_wem_geom_piece_crossing_board_edge_meets_out_of_field),
        cmocka_unit_test(test_wem_geom_segment_through_hill_meets_it),
        cmocka_unit_test(test_wem_geom_front_touches_linear_terrain),
        cmocka_unit_test(test_wem_geom_approach_stops_at_contact),
        cmocka_unit_test(test_wem_geom_property_contact_and_aoe_match_reference),
        cmocka_unit_test(test_wem_geom_advance_meets_area_of_engagement),
        cmocka_unit_test(test_wem_geom_property_approach_aoe_matches_scan),
        cmocka_unit_test(test_wem_geom_property_symmetry),
        cmocka_unit_test(test_wem_geom_property_translation_invariance),
        cmocka_unit_test(test_wem_geom_property_quarter_turns_exact),
        cmocka_unit_test(test_wem_geom_property_any_rotation_robust),
        cmocka_unit_test(test_wem_geom_property_distance_monotone_along_ray),
        cmocka_unit_test(test_wem_geom_property_approach_then_contact),
        cmocka_unit_test(test_wem_geom_sweep_and_hull),
        cmocka_unit_test(test_wem_geom_property_distance_matches_reference),
        cmocka_unit_test(test_wem_geom_dist_cmp_exact),
        cmocka_unit_test(test_wem_geom_property_lof_blocked_poly_matches_convex),
        cmocka_unit_test(test_wem_geom_wheel_parts_cover_the_arc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
