/*
 * geom.c - the integer geometry of Waterloo: Enemy Mistakes (rules/wem/geom.h).
 *
 * Integers only. Coordinates are int32 but the kernel is exact for |coordinate| < 2^28 (13 km
 * at 1/20 mm: any board): differences stay below 2^29, cross and dot products below 2^59, and
 * every product of two of those fits an __int128. No division comes before a comparison: a
 * comparison of quotients is made on the cross-multiplied integers. The model and the exact
 * definition of each predicate are in docs/wem-geometry.md.
 */
#include "wem/geom.h"

__extension__ typedef __int128 s_i128;
__extension__ typedef unsigned __int128 s_u128;

extern const int32_t wem_g_sintab[901];

/* ---- numbers ---- */

int32_t
wem_g_norm(int64_t h)
{
    int64_t r = h % WEM_TURN;
    if (r < 0)
        r += WEM_TURN;
    return (int32_t) r;
}

int32_t
wem_g_sin(int32_t h)
{
    int32_t n = wem_g_norm(h);
    int32_t q = n / 900, r = n % 900;
    switch (q) {
    case 0: return wem_g_sintab[r];
    case 1: return wem_g_sintab[900 - r];
    case 2: return -wem_g_sintab[r];
    default: return -wem_g_sintab[900 - r];
    }
}

int32_t
wem_g_cos(int32_t h)
{
    return wem_g_sin(wem_g_norm((int64_t) h + 900));
}

int32_t
wem_g_hdiff(int32_t a, int32_t b)
{
    int32_t d = wem_g_norm((int64_t) a - b);
    return d > WEM_TURN / 2 ? WEM_TURN - d : d;
}

int64_t
wem_g_div_round(int64_t num, int64_t den)
{
    int64_t q = num / den, r = num % den;  /* C truncates toward zero */
    if (r > 0 && r >= den - r)
        q++;
    else if (r < 0 && -r >= den + r)
        q--;
    return q;
}

/* round(num / den), den > 0, halves away from zero */
static s_i128
s_div_round128(s_i128 num, s_i128 den)
{
    s_i128 q = num / den, r = num % den;
    if (r > 0 && r >= den - r)
        q++;
    else if (r < 0 && -r >= den + r)
        q--;
    return q;
}

/* floor(num / den), den > 0 */
static s_i128
s_floor_div128(s_i128 num, s_i128 den)
{
    s_i128 q = num / den;
    if (num % den != 0 && num < 0)
        q--;
    return q;
}

uint64_t
wem_g_isqrt(uint64_t v)
{
    uint64_t r = 0, bit = (uint64_t) 1 << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else
            r >>= 1;
        bit >>= 2;
    }
    return r;
}

/* floor(sqrt(v)) for a non-negative 128-bit v (values here stay below 2^120) */
static uint64_t
s_isqrt128(s_u128 v)
{
    if (v >> 64 == 0)
        return wem_g_isqrt((uint64_t) v);
    /* Newton from above */
    s_u128 x = (s_u128) 1 << 64, y;
    for (;;) {
        y = (x + v / x) >> 1;
        if (y >= x)
            break;
        x = y;
    }
    return (uint64_t) x;
}

static int
s_sgn(s_i128 v)
{
    return (v > 0) - (v < 0);
}

/* ---- vectors ---- */

static s_i128
s_cross(wem_pt o, wem_pt a, wem_pt b)
{
    return (s_i128) ((int64_t) a.x - o.x) * ((int64_t) b.y - o.y)
         - (s_i128) ((int64_t) a.y - o.y) * ((int64_t) b.x - o.x);
}

static s_i128
s_dot(wem_pt o, wem_pt a, wem_pt b)
{
    return (s_i128) ((int64_t) a.x - o.x) * ((int64_t) b.x - o.x)
         + (s_i128) ((int64_t) a.y - o.y) * ((int64_t) b.y - o.y);
}

static s_i128
s_len2(wem_pt a, wem_pt b)
{
    return s_dot(a, b, b);
}

static int
s_pt_eq(wem_pt a, wem_pt b)
{
    return a.x == b.x && a.y == b.y;
}

/* ---- points and pieces ---- */

wem_pt
wem_g_offset(wem_pt p, int32_t h, int32_t fwd, int32_t right)
{
    int64_t s = wem_g_sin(h), c = wem_g_cos(h);
    int64_t dx = (int64_t) fwd * s + (int64_t) right * c;
    int64_t dy = -(int64_t) fwd * c + (int64_t) right * s;
    wem_pt q;
    q.x = (int32_t) (p.x + wem_g_div_round(dx, WEM_Q30));
    q.y = (int32_t) (p.y + wem_g_div_round(dy, WEM_Q30));
    return q;
}

void
wem_g_quad(const wem_rect *r, int32_t grow, wem_quad *out)
{
    int32_t hw = r->hw + grow, hd = r->hd + grow;
    if (hw < 0)
        hw = 0;
    if (hd < 0)
        hd = 0;
    out->v[WEM_FL] = wem_g_offset(r->c, r->h, hd, -hw);
    out->v[WEM_FR] = wem_g_offset(r->c, r->h, hd, hw);
    out->v[WEM_RR] = wem_g_offset(r->c, r->h, -hd, hw);
    out->v[WEM_RL] = wem_g_offset(r->c, r->h, -hd, -hw);
}

wem_rect
wem_g_rotate(const wem_rect *r, wem_pt pivot, int32_t dh)
{
    wem_rect o = *r;
    int64_t s = wem_g_sin(dh), c = wem_g_cos(dh);
    int64_t vx = (int64_t) r->c.x - pivot.x, vy = (int64_t) r->c.y - pivot.y;
    /* clockwise on the board (y grows south): north (0,-1) turns to east (1,0) */
    s_i128 nx = (s_i128) vx * c - (s_i128) vy * s;
    s_i128 ny = (s_i128) vx * s + (s_i128) vy * c;
    o.c.x = (int32_t) (pivot.x + s_div_round128(nx, WEM_Q30));
    o.c.y = (int32_t) (pivot.y + s_div_round128(ny, WEM_Q30));
    o.h = wem_g_norm((int64_t) r->h + dh);
    return o;
}

wem_rect
wem_g_translate(const wem_rect *r, int32_t h, int32_t dist)
{
    wem_rect o = *r;
    o.c = wem_g_offset(r->c, h, dist, 0);
    return o;
}

wem_pt
wem_g_corner(const wem_rect *r, int k)
{
    wem_quad q;
    wem_g_quad(r, 0, &q);
    return q.v[k & 3];
}

static int s_side_index(int side);

int
wem_g_side(const wem_rect *r, int side, wem_pt *a, wem_pt *b)
{
    wem_quad q;
    int k = s_side_index(side);
    if (k < 0)
        return -1;
    wem_g_quad(r, 0, &q);
    *a = q.v[k];
    *b = q.v[(k + 1) & 3];
    return 0;
}

/* ---- convex shapes ---- */

/* projections of the points on axis (ax, ay): min and max */
static void
s_project(const wem_pt *p, int n, s_i128 ax, s_i128 ay, s_i128 *lo, s_i128 *hi)
{
    for (int i = 0; i < n; i++) {
        s_i128 v = ax * p[i].x + ay * p[i].y;
        if (i == 0 || v < *lo)
            *lo = v;
        if (i == 0 || v > *hi)
            *hi = v;
    }
}

/* does axis (ax, ay) separate a and b? strict: 1 when a gap; open: 1 also when they only
 * touch along it */
static int
s_axis_separates(const wem_pt *a, int na, const wem_pt *b, int nb, s_i128 ax, s_i128 ay,
                 int open)
{
    s_i128 alo = 0, ahi = 0, blo = 0, bhi = 0;
    if (ax == 0 && ay == 0)
        return 0;
    s_project(a, na, ax, ay, &alo, &ahi);
    s_project(b, nb, ax, ay, &blo, &bhi);
    if (open)
        return ahi <= blo || bhi <= alo;
    return ahi < blo || bhi < alo;
}

/* the separating axis test over the edge normals and edge directions of both (the directions
 * settle degenerate shapes: points and segments) */
static int
s_convex_sep(const wem_pt *a, int na, const wem_pt *b, int nb, int open)
{
    for (int pass = 0; pass < 2; pass++) {
        const wem_pt *p = pass ? b : a;
        int n = pass ? nb : na;
        for (int i = 0; i < n; i++) {
            wem_pt u = p[i], v = p[(i + 1) % n];
            s_i128 ex = (s_i128) v.x - u.x, ey = (s_i128) v.y - u.y;
            if (s_axis_separates(a, na, b, nb, -ey, ex, open))
                return 1;
            if (s_axis_separates(a, na, b, nb, ex, ey, open))
                return 1;
        }
    }
    if (na > 0 && nb > 0) {
        s_i128 dx = (s_i128) b[0].x - a[0].x, dy = (s_i128) b[0].y - a[0].y;
        if (s_axis_separates(a, na, b, nb, dx, dy, open))
            return 1;
    }
    return 0;
}

int
wem_g_convex_meet(const wem_pt *a, int na, const wem_pt *b, int nb)
{
    if (na <= 0 || nb <= 0)
        return 0;
    return !s_convex_sep(a, na, b, nb, 0);
}

/* the (relative) interiors meet: touching along an edge or at a point does not count */
static int
s_convex_interiors_meet(const wem_pt *a, int na, const wem_pt *b, int nb)
{
    if (na <= 0 || nb <= 0)
        return 0;
    return !s_convex_sep(a, na, b, nb, 1);
}

int
wem_g_quads_meet(const wem_quad *a, const wem_quad *b)
{
    return wem_g_convex_meet(a->v, 4, b->v, 4);
}

static int
s_pt_less(wem_pt a, wem_pt b)
{
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

int
wem_g_hull(const wem_pt *pts, int n, wem_pt *out)
{
    wem_pt s[WEM_G_HULL_MAX];
    wem_pt h[2 * WEM_G_HULL_MAX + 2];
    int m = 0, k = 0;
    if (n <= 0)
        return 0;
    if (n > WEM_G_HULL_MAX)
        n = WEM_G_HULL_MAX;
    /* insertion sort by x then y, dropping duplicates */
    for (int i = 0; i < n; i++) {
        int j = m;
        int dup = 0;
        for (int t = 0; t < m; t++)
            if (s_pt_eq(s[t], pts[i]))
                dup = 1;
        if (dup)
            continue;
        while (j > 0 && s_pt_less(pts[i], s[j - 1])) {
            s[j] = s[j - 1];
            j--;
        }
        s[j] = pts[i];
        m++;
    }
    if (m == 1) {
        out[0] = s[0];
        return 1;
    }
    /* monotone chain, counter-clockwise (positive cross), collinear points dropped */
    for (int i = 0; i < m; i++) {
        while (k >= 2 && s_cross(h[k - 2], h[k - 1], s[i]) <= 0)
            k--;
        h[k++] = s[i];
    }
    for (int i = m - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && s_cross(h[k - 2], h[k - 1], s[i]) <= 0)
            k--;
        h[k++] = s[i];
    }
    k--; /* the first point is repeated at the end */
    for (int i = 0; i < k; i++)
        out[i] = h[i];
    return k;
}

int
wem_g_sweep(const wem_quad *a, const wem_quad *b, wem_pt out[8])
{
    wem_pt p[8];
    for (int i = 0; i < 4; i++) {
        p[i] = a->v[i];
        p[4 + i] = b->v[i];
    }
    return wem_g_hull(p, 8, out);
}

/* ---- distance ---- */

/* sign(dist(p, segment ab) - x) exactly, x >= 0 */
static int
s_pt_seg_cmp(wem_pt p, wem_pt a, wem_pt b, int64_t x)
{
    s_i128 x2 = (s_i128) x * x;
    s_i128 l2 = s_len2(a, b);
    s_i128 t = s_dot(a, b, p);
    if (l2 == 0 || t <= 0)
        return s_sgn(s_len2(a, p) - x2);
    if (t >= l2)
        return s_sgn(s_len2(b, p) - x2);
    s_i128 c = s_cross(a, b, p);
    return s_sgn(c * c - x2 * l2);
}

/* floor(dist(p, segment ab)) */
static int64_t
s_pt_seg_floor(wem_pt p, wem_pt a, wem_pt b)
{
    s_i128 l2 = s_len2(a, b);
    s_i128 t = s_dot(a, b, p);
    if (l2 == 0 || t <= 0)
        return (int64_t) s_isqrt128((s_u128) s_len2(a, p));
    if (t >= l2)
        return (int64_t) s_isqrt128((s_u128) s_len2(b, p));
    s_i128 c = s_cross(a, b, p);
    return (int64_t) s_isqrt128((s_u128) (c * c) / (s_u128) l2);
}

/* closed: do segments ab and cd share a point? */
static int
s_on_seg(wem_pt a, wem_pt b, wem_pt p)
{
    return s_cross(a, b, p) == 0 && s_dot(p, a, b) <= 0;
}

static int
s_segs_meet(wem_pt a, wem_pt b, wem_pt c, wem_pt d)
{
    int d1 = s_sgn(s_cross(a, b, c)), d2 = s_sgn(s_cross(a, b, d));
    int d3 = s_sgn(s_cross(c, d, a)), d4 = s_sgn(s_cross(c, d, b));
    if (d1 * d2 < 0 && d3 * d4 < 0)
        return 1;
    return s_on_seg(a, b, c) || s_on_seg(a, b, d) || s_on_seg(c, d, a) || s_on_seg(c, d, b);
}

/* sign(dist(segment ab, segment cd) - x), x >= 0 */
static int
s_seg_seg_cmp(wem_pt a, wem_pt b, wem_pt c, wem_pt d, int64_t x)
{
    if (s_segs_meet(a, b, c, d))
        return x > 0 ? -1 : 0;
    int m = s_pt_seg_cmp(a, c, d, x), t;
    if ((t = s_pt_seg_cmp(b, c, d, x)) < m)
        m = t;
    if ((t = s_pt_seg_cmp(c, a, b, x)) < m)
        m = t;
    if ((t = s_pt_seg_cmp(d, a, b, x)) < m)
        m = t;
    return m;
}

/* sign(dist(convex a, convex b) - x) exactly, x >= 0 */
static int
s_convex_dist_cmp(const wem_pt *a, int na, const wem_pt *b, int nb, int64_t x)
{
    if (wem_g_convex_meet(a, na, b, nb))
        return x > 0 ? -1 : 0;
    int m = 1;
    for (int pass = 0; pass < 2; pass++) {
        const wem_pt *p = pass ? b : a, *q = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        for (int i = 0; i < np; i++)
            for (int j = 0; j < nq; j++) {
                int t = s_pt_seg_cmp(p[i], q[j], q[(j + 1) % nq], x);
                if (t < m)
                    m = t;
            }
    }
    return m;
}

static int64_t
s_convex_dist_floor(const wem_pt *a, int na, const wem_pt *b, int nb)
{
    if (wem_g_convex_meet(a, na, b, nb))
        return 0;
    int64_t m = INT64_MAX;
    for (int pass = 0; pass < 2; pass++) {
        const wem_pt *p = pass ? b : a, *q = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        for (int i = 0; i < np; i++)
            for (int j = 0; j < nq; j++) {
                int64_t t = s_pt_seg_floor(p[i], q[j], q[(j + 1) % nq]);
                if (t < m)
                    m = t;
            }
    }
    return m;
}

static int32_t
s_clamp32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : (int32_t) v);
}

int32_t
wem_g_convex_dist(const wem_pt *a, int na, const wem_pt *b, int nb)
{
    if (na <= 0 || nb <= 0)
        return INT32_MAX;
    return s_clamp32(s_convex_dist_floor(a, na, b, nb));
}

int
wem_g_convex_dist_cmp(const wem_pt *a, int na, const wem_pt *b, int nb, int32_t d)
{
    if (na <= 0 || nb <= 0 || d < 0)
        return 1;
    return s_convex_dist_cmp(a, na, b, nb, d);
}

int
wem_g_convex_within(const wem_pt *a, int na, const wem_pt *b, int nb, int32_t d)
{
    if (na <= 0 || nb <= 0 || d < 0)
        return 0;
    return s_convex_dist_cmp(a, na, b, nb, d) <= 0;
}

int32_t
wem_g_dist(const wem_quad *a, const wem_quad *b)
{
    return s_clamp32(s_convex_dist_floor(a->v, 4, b->v, 4));
}

int
wem_g_within(const wem_quad *a, const wem_quad *b, int32_t d)
{
    if (d < 0)
        return 0;
    return s_convex_dist_cmp(a->v, 4, b->v, 4, d) <= 0;
}

int32_t
wem_g_dist_pt_seg(wem_pt p, wem_pt a, wem_pt b)
{
    return s_clamp32(s_pt_seg_floor(p, a, b));
}

int
wem_g_pt_seg_within(wem_pt p, wem_pt a, wem_pt b, int32_t d)
{
    if (d < 0)
        return 0;
    return s_pt_seg_cmp(p, a, b, d) <= 0;
}

int
wem_g_seg_seg_within(wem_pt a, wem_pt b, wem_pt c, wem_pt d, int32_t dist)
{
    if (dist < 0)
        return 0;
    return s_seg_seg_cmp(a, b, c, d, dist) <= 0;
}

/* ---- exact squared distances as fractions ---- */

/* a * b as 256 bits (hi, lo) */
static void
s_mul256(s_u128 a, s_u128 b, s_u128 *hi, s_u128 *lo)
{
    const s_u128 m = ((s_u128) 1 << 64) - 1;
    s_u128 a0 = a & m, a1 = a >> 64, b0 = b & m, b1 = b >> 64;
    s_u128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    s_u128 mid = (p00 >> 64) + (p01 & m) + (p10 & m);
    *lo = (p00 & m) | (mid << 64);
    *hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

/* sign(a * b - c * d) */
static int
s_cmp_products(s_u128 a, s_u128 b, s_u128 c, s_u128 d)
{
    s_u128 h1, l1, h2, l2;
    s_mul256(a, b, &h1, &l1);
    s_mul256(c, d, &h2, &l2);
    if (h1 != h2)
        return h1 < h2 ? -1 : 1;
    if (l1 != l2)
        return l1 < l2 ? -1 : 1;
    return 0;
}

/* the squared distance from p to segment ab as num / den (den > 0) */
static void
s_pt_seg_d2(wem_pt p, wem_pt a, wem_pt b, s_u128 *num, s_u128 *den)
{
    s_i128 l2 = s_len2(a, b);
    s_i128 t = s_dot(a, b, p);
    *den = 1;
    if (l2 == 0 || t <= 0)
        *num = (s_u128) s_len2(a, p);
    else if (t >= l2)
        *num = (s_u128) s_len2(b, p);
    else {
        s_i128 c = s_cross(a, b, p);
        *num = (s_u128) (c * c);
        *den = (s_u128) l2;
    }
}

/* the squared distance between convex a and b as num / den (0 / 1 if they meet) */
static void
s_convex_d2(const wem_pt *a, int na, const wem_pt *b, int nb, s_u128 *num, s_u128 *den)
{
    int found = 0;
    *num = 0;
    *den = 1;
    if (wem_g_convex_meet(a, na, b, nb))
        return;
    for (int pass = 0; pass < 2; pass++) {
        const wem_pt *p = pass ? b : a, *q = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        for (int i = 0; i < np; i++)
            for (int j = 0; j < nq; j++) {
                s_u128 n, d;
                s_pt_seg_d2(p[i], q[j], q[(j + 1) % nq], &n, &d);
                if (!found || s_cmp_products(n, *den, *num, d) < 0) {
                    *num = n;
                    *den = d;
                    found = 1;
                }
            }
    }
}

int
wem_g_dist_cmp(const wem_pt *a, int na, const wem_pt *b, int nb, const wem_pt *c, int nc,
               const wem_pt *d, int nd)
{
    s_u128 n1, d1, n2, d2;
    s_convex_d2(a, na, b, nb, &n1, &d1);
    s_convex_d2(c, nc, d, nd, &n2, &d2);
    return s_cmp_products(n1, d2, n2, d1);
}

int32_t
wem_g_approach_aoe(const wem_rect *a, const wem_pt *mov, int nm, int32_t h, int32_t maxd,
                   int32_t reach, int32_t tol, int level)
{
    wem_quad qa;
    wem_pt moved[WEM_G_POLY_MAX];
    wem_pt zero = {0, 0};
    int64_t thr;
    if (nm <= 0 || nm > WEM_G_POLY_MAX || maxd < 0)
        return -1;
    if (tol < 0)
        tol = 0;
    thr = (int64_t) reach + tol;
    wem_g_quad(a, 0, &qa);
    wem_pt e0 = qa.v[WEM_RR], e1 = qa.v[WEM_RL];
    s_i128 l2 = s_len2(e0, e1);
    int64_t t = 0;
    while (t <= maxd) {
        wem_pt d = wem_g_offset(zero, h, (int32_t) t, 0);
        for (int i = 0; i < nm; i++) {
            moved[i].x = mov[i].x + d.x;
            moved[i].y = mov[i].y + d.y;
        }
        if (wem_g_aoe_convex(a, moved, nm, reach, tol) >= level)
            return (int32_t) t;
        /* conservative advancement: to come within thr of a the piece must first close its
         * whole distance to a down to thr, and, when it is all behind the rear line, reach the
         * line; it closes either by at most 1 a unit moved (the rounding of the move adds at most
         * 1 more each way: the step keeps 2 in hand) */
        int64_t step = s_convex_dist_floor(moved, nm, qa.v, 4) - thr - 2;
        s_i128 front = 0;
        for (int i = 0; i < nm; i++) {
            s_i128 c = s_cross(e0, e1, moved[i]);
            if (i == 0 || c > front)
                front = c;
        }
        if (front < 0 && l2 > 0) {
            int64_t behind = (int64_t) s_isqrt128((s_u128) (front * front) / (s_u128) l2) - 2;
            if (behind > step)
                step = behind;
        }
        t += step > 1 ? step : 1;
    }
    return -1;
}

/* ---- a wheel: [Execute maneuvers] "rotate the ruler pivoting on the corner of the front", the
 * piece turned about a pivot in whole degrees (R-wem-wheel-sampling) ---- */

#define S_WHEEL_STEP 10

int
wem_g_wheel_parts(int32_t dh)
{
    int64_t a = dh < 0 ? -(int64_t) dh : dh;
    if (a == 0)
        return 1;
    return (int) ((a + S_WHEEL_STEP - 1) / S_WHEEL_STEP);
}

int
wem_g_wheel_part(const wem_rect *r, wem_pt pivot, int32_t dh, int i, wem_pt out[8])
{
    int parts = wem_g_wheel_parts(dh);
    int64_t a = dh < 0 ? -(int64_t) dh : dh, sign = dh < 0 ? -1 : 1;
    if (i < 0 || i >= parts)
        return 0;
    int64_t s0 = (int64_t) i * S_WHEEL_STEP, s1 = s0 + S_WHEEL_STEP;
    if (s1 > a)
        s1 = a;
    wem_rect r0 = wem_g_rotate(r, pivot, (int32_t) (sign * s0));
    wem_rect r1 = wem_g_rotate(r, pivot, (int32_t) (sign * s1));
    wem_quad q0, q1;
    wem_g_quad(&r0, 0, &q0);
    wem_g_quad(&r1, 0, &q1);
    return wem_g_sweep(&q0, &q1, out);
}

/* ---- clipping (new vertices rounded to the nearest unit, once) ---- */

/* keep the part of convex p where f(v) = cross(e0, e1, v) - k >= 0; returns the count */
static int
s_clip(const wem_pt *p, int n, wem_pt e0, wem_pt e1, s_i128 k, wem_pt *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        wem_pt a = p[i], b = p[(i + 1) % n];
        s_i128 fa = s_cross(e0, e1, a) - k, fb = s_cross(e0, e1, b) - k;
        if (fa >= 0)
            out[m++] = a;
        if ((fa >= 0 && fb < 0) || (fa < 0 && fb >= 0)) {
            if (fb == 0)
                continue; /* b itself is kept next */
            s_i128 den = fa - fb, num = fa;
            if (den < 0) {
                den = -den;
                num = -num;
            }
            wem_pt x;
            x.x = (int32_t) (a.x + s_div_round128(((s_i128) b.x - a.x) * num, den));
            x.y = (int32_t) (a.y + s_div_round128(((s_i128) b.y - a.y) * num, den));
            if (m == 0 || !s_pt_eq(out[m - 1], x))
                out[m++] = x;
        }
    }
    if (m > 1 && s_pt_eq(out[0], out[m - 1]))
        m--;
    return m;
}

/* the signed area sign of a polygon (positive: counter-clockwise in x-right y-down numbers,
 * the order wem_g_quad gives) */
static int
s_orient(const wem_pt *p, int n)
{
    s_i128 a = 0;
    for (int i = 0; i < n; i++) {
        wem_pt u = p[i], v = p[(i + 1) % n];
        a += (s_i128) u.x * v.y - (s_i128) u.y * v.x;
    }
    return s_sgn(a);
}

/* ---- contact between pieces: [Formations] "placed in contact (even by corners)", [Melee] the
 * contact length along the front and "in contact exactly on the corner" (R-wem-contact-tol,
 * R-wem-corner-contact) ---- */

int
wem_g_contact(const wem_rect *a, const wem_rect *b, int32_t tol)
{
    wem_quad qa, qb;
    int32_t half = tol / 2;
    wem_g_quad(a, -half, &qa);
    wem_g_quad(b, -half, &qb);
    if (s_convex_interiors_meet(qa.v, 4, qb.v, 4))
        return WEM_OVERLAP;
    wem_g_quad(a, 0, &qa);
    wem_g_quad(b, 0, &qb);
    if (s_convex_dist_cmp(qa.v, 4, qb.v, 4, tol < 0 ? 0 : tol) <= 0)
        return WEM_TOUCH;
    return WEM_APART;
}

/* k = round-down(tol * |e1 - e0|): tol measured in the units of cross(e0, e1, .) */
static s_i128
s_scaled(wem_pt e0, wem_pt e1, int32_t tol)
{
    s_i128 l2 = s_len2(e0, e1);
    if (tol <= 0)
        return 0;
    return (s_i128) s_isqrt128((s_u128) ((s_i128) tol * tol * l2));
}

/* the contact length of b along a's edge k (0..3), given the quads; in units, rounded down */
static int32_t
s_edge_contact_len(const wem_quad *qa, int k, const wem_quad *qb, int32_t tol)
{
    wem_pt e0 = qa->v[k], e1 = qa->v[(k + 1) & 3];
    wem_pt band[8], tmp[8];
    int n;
    s_i128 kk = s_scaled(e0, e1, tol);
    s_i128 l2 = s_len2(e0, e1);
    if (l2 == 0)
        return 0;
    /* the part of b in the band within tol of the edge's line: -tol <= outward <= tol;
     * outward = -cross(e0, e1, v) */
    n = s_clip(qb->v, 4, e0, e1, -kk, tmp);             /* cross >= -k: outward <= tol */
    n = s_clip(tmp, n, e1, e0, -kk, band);              /* -cross >= -k: outward >= -tol */
    if (n == 0)
        return 0;
    s_i128 lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        s_i128 t = s_dot(e0, e1, band[i]);
        if (i == 0 || t < lo)
            lo = t;
        if (i == 0 || t > hi)
            hi = t;
    }
    if (lo < 0)
        lo = 0;
    if (hi > l2)
        hi = l2;
    if (hi <= lo)
        return 0;
    s_i128 x = hi - lo; /* length * |e| */
    return (int32_t) s_isqrt128((s_u128) (x * x) / (s_u128) l2);
}

/* is b beyond a's edge k (outward) by more than tol somewhere, and within tol of the edge? */
static int
s_edge_touched(const wem_quad *qa, int k, const wem_quad *qb, int32_t tol)
{
    wem_pt e0 = qa->v[k], e1 = qa->v[(k + 1) & 3];
    s_i128 l2 = s_len2(e0, e1), best = 0;
    if (l2 == 0)
        return 0;
    for (int i = 0; i < 4; i++) {
        s_i128 out = -s_cross(e0, e1, qb->v[i]);
        if (i == 0 || out > best)
            best = out;
    }
    if (best <= 0 || best * best <= (s_i128) tol * tol * l2)
        return 0;
    wem_pt seg[2] = {e0, e1};
    return s_convex_dist_cmp(seg, 2, qb->v, 4, tol < 0 ? 0 : tol) <= 0;
}

int
wem_g_touch_sides(const wem_rect *a, const wem_rect *b, int32_t tol, int *corner)
{
    wem_quad qa, qb;
    int touched = 0, real = 0;
    wem_g_quad(a, 0, &qa);
    wem_g_quad(b, 0, &qb);
    if (corner)
        *corner = 0;
    for (int k = 0; k < 4; k++) {
        if (!s_edge_touched(&qa, k, &qb, tol))
            continue;
        touched |= 1 << k;
        if (s_edge_contact_len(&qa, k, &qb, tol) > tol)
            real |= 1 << k;
    }
    if (real)
        return real;
    if (touched && corner)
        *corner = 1;
    return touched;
}

static int
s_side_index(int side)
{
    switch (side) {
    case WEM_SIDE_FRONT: return 0;
    case WEM_SIDE_RIGHT: return 1;
    case WEM_SIDE_REAR: return 2;
    case WEM_SIDE_LEFT: return 3;
    default: return -1;
    }
}

int32_t
wem_g_contact_len(const wem_rect *a, int side, const wem_rect *b, int32_t tol)
{
    wem_quad qa, qb;
    int k = s_side_index(side);
    if (k < 0)
        return 0;
    wem_g_quad(a, 0, &qa);
    wem_g_quad(b, 0, &qb);
    if (!s_edge_touched(&qa, k, &qb, tol))
        return 0;
    return s_edge_contact_len(&qa, k, &qb, tol);
}

/* ---- area of engagement: [Sidebar: Area of Engagement] "1 unit of measurement along the arc
 * formed by the front and the two flanks" (R-wem-aoe-shape, R-wem-aoe-limit) ---- */

int
wem_g_aoe_convex(const wem_rect *a, const wem_pt *q, int nq, int32_t reach, int32_t tol)
{
    wem_quad qa;
    wem_pt part[WEM_G_POLY_MAX + 2];
    int n;
    if (nq <= 0 || nq > WEM_G_POLY_MAX)
        return 0;
    wem_g_quad(a, 0, &qa);
    /* the part of q not behind the line of a's rear edge (RR -> RL, a inside on its left) */
    n = s_clip(q, nq, qa.v[WEM_RR], qa.v[WEM_RL], 0, part);
    if (n == 0)
        return 0;
    if (tol < 0)
        tol = 0;
    /* for a point not behind the rear line, the distance to a is the distance to its front and
     * flank edges: the nearest point of the rear edge is then a rear corner, on a flank too */
    if ((int64_t) reach - tol > 0 && s_convex_dist_cmp(part, n, qa.v, 4, (int64_t) reach - tol) < 0)
        return 2;
    if (s_convex_dist_cmp(part, n, qa.v, 4, (int64_t) reach + tol) <= 0)
        return 1;
    return 0;
}

int
wem_g_aoe(const wem_rect *a, const wem_rect *b, int32_t reach, int32_t tol)
{
    wem_quad qb;
    wem_g_quad(b, 0, &qb);
    return wem_g_aoe_convex(a, qb.v, 4, reach, tol);
}

int
wem_g_front_within(const wem_rect *a, const wem_rect *b, int32_t d)
{
    wem_quad qa, qb;
    wem_pt front[2];
    if (d < 0)
        return 0;
    wem_g_quad(a, 0, &qa);
    wem_g_quad(b, 0, &qb);
    front[0] = qa.v[WEM_FL];
    front[1] = qa.v[WEM_FR];
    return s_convex_dist_cmp(front, 2, qb.v, 4, d) <= 0;
}

/* ---- line of fire: [Line of fire and visibility] 15 mm wide, 6 units of measurement long;
 * "the entire width of the line of fire crosses" (R-wem-lof-straight, R-wem-lof-entire-width,
 * R-wem-fire-rear) ---- */

wem_rect
wem_g_lof(const wem_rect *g, int32_t width, int32_t length)
{
    wem_rect s;
    s.hw = width / 2;
    s.hd = length / 2;
    s.h = wem_g_norm(g->h);
    s.c = wem_g_offset(g->c, g->h, g->hd + s.hd, 0);
    return s;
}

int
wem_g_lof_hits(const wem_rect *strip, const wem_rect *t)
{
    wem_quad qs, qt;
    wem_g_quad(strip, 0, &qs);
    wem_g_quad(t, 0, &qt);
    return s_convex_interiors_meet(qs.v, 4, qt.v, 4);
}

int32_t
wem_g_lof_depth(const wem_rect *strip, const wem_rect *t)
{
    wem_quad qs, qt;
    wem_pt p1[12], p2[12];
    int n;
    wem_g_quad(strip, 0, &qs);
    wem_g_quad(t, 0, &qt);
    if (!s_convex_interiors_meet(qs.v, 4, qt.v, 4))
        return -1;
    /* t clipped to the strip: keep the left of each strip edge */
    n = 4;
    for (int i = 0; i < 4; i++)
        p1[i] = qt.v[i];
    for (int k = 0; k < 4 && n > 0; k++) {
        n = s_clip(p1, n, qs.v[k], qs.v[(k + 1) & 3], 0, p2);
        for (int i = 0; i < n; i++)
            p1[i] = p2[i];
    }
    if (n == 0)
        return 0;
    /* depth from the near edge RR -> RL (the strip inside on its left) */
    wem_pt e0 = qs.v[WEM_RR], e1 = qs.v[WEM_RL];
    s_i128 l2 = s_len2(e0, e1), best = 0;
    for (int i = 0; i < n; i++) {
        s_i128 c = s_cross(e0, e1, p1[i]);
        if (i == 0 || c < best)
            best = c;
    }
    if (best <= 0 || l2 == 0)
        return 0;
    return (int32_t) s_isqrt128((s_u128) (best * best) / (s_u128) l2);
}

/* the two long edges of the strip cut to depths [lo, hi]: left RL->FL, right RR->FR; each
 * cut point rounded once */
static void
s_lof_edges(const wem_rect *strip, int32_t lo, int32_t hi, wem_pt l[2], wem_pt r[2])
{
    wem_quad q;
    int64_t len = 2 * (int64_t) strip->hd;
    wem_g_quad(strip, 0, &q);
    if (lo < 0)
        lo = 0;
    if (hi > len)
        hi = (int32_t) len;
    if (len <= 0) {
        l[0] = l[1] = q.v[WEM_RL];
        r[0] = r[1] = q.v[WEM_RR];
        return;
    }
    const int32_t d[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        wem_pt a = q.v[WEM_RL], b = q.v[WEM_FL];
        l[i].x = (int32_t) (a.x + wem_g_div_round(((int64_t) b.x - a.x) * d[i], len));
        l[i].y = (int32_t) (a.y + wem_g_div_round(((int64_t) b.y - a.y) * d[i], len));
        a = q.v[WEM_RR];
        b = q.v[WEM_FR];
        r[i].x = (int32_t) (a.x + wem_g_div_round(((int64_t) b.x - a.x) * d[i], len));
        r[i].y = (int32_t) (a.y + wem_g_div_round(((int64_t) b.y - a.y) * d[i], len));
    }
}

int
wem_g_lof_blocked_quad(const wem_rect *strip, const wem_quad *b, int32_t lo, int32_t hi)
{
    wem_pt l[2], r[2];
    if (hi < lo)
        return 0;
    s_lof_edges(strip, lo, hi, l, r);
    return wem_g_convex_meet(l, 2, b->v, 4) && wem_g_convex_meet(r, 2, b->v, 4);
}

/* a fraction n / d, d > 0 */
typedef struct {
    s_i128 n, d;
} s_frac;

/* sign(a - b) */
static int
s_frac_cmp(s_frac a, s_frac b)
{
    int sa = s_sgn(a.n), sb = s_sgn(b.n);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (sa == 0)
        return 0;
    if (sa > 0)
        return s_cmp_products((s_u128) a.n, (s_u128) b.d, (s_u128) b.n, (s_u128) a.d);
    return -s_cmp_products((s_u128) -a.n, (s_u128) b.d, (s_u128) -b.n, (s_u128) a.d);
}

/* The lateral span covered by edge ab of a polygon inside the convex quad c (positive
 * orientation): the part of ab in c, projected on W from o (sigma(X) = (X - o).W); 0 if it misses */
static int
s_edge_span(wem_pt a, wem_pt b, const wem_pt c[4], wem_pt o, wem_pt w, s_frac *lo, s_frac *hi)
{
    s_frac l0 = {0, 1}, l1 = {1, 1};
    for (int k = 0; k < 4; k++) {
        s_i128 fa = s_cross(c[k], c[(k + 1) & 3], a), fb = s_cross(c[k], c[(k + 1) & 3], b);
        if (fa < 0 && fb < 0)
            return 0;
        if (fa < 0) {
            s_frac t = {-fa, fb - fa};
            if (s_frac_cmp(t, l0) > 0)
                l0 = t;
        } else if (fb < 0) {
            s_frac t = {fa, fa - fb};
            if (s_frac_cmp(t, l1) < 0)
                l1 = t;
        }
    }
    if (s_frac_cmp(l0, l1) > 0)
        return 0;
    s_i128 sa = ((s_i128) a.x - o.x) * w.x + ((s_i128) a.y - o.y) * w.y;
    s_i128 sb = ((s_i128) b.x - o.x) * w.x + ((s_i128) b.y - o.y) * w.y;
    s_frac x0 = {sa * l0.d + l0.n * (sb - sa), l0.d}, x1 = {sa * l1.d + l1.n * (sb - sa), l1.d};
    if (s_frac_cmp(x0, x1) <= 0) {
        *lo = x0;
        *hi = x1;
    } else {
        *lo = x1;
        *hi = x0;
    }
    return 1;
}

/* Every line along the strip between depths lo and hi meets the polygon: the lateral spans of the
 * polygon's edges inside the cut strip, and between them the gaps that the polygon holds whole
 * (a point of the gap's middle line inside it), cover the width. Gaps under 2 units are not
 * looked into. */
int
wem_g_lof_blocked_poly(const wem_rect *strip, const wem_poly *p, int32_t lo, int32_t hi)
{
    wem_pt l[2], r[2], c[4];
    int n = p->n;
    if (hi < lo || n < 3)
        return 0;
    s_lof_edges(strip, lo, hi, l, r);
    c[0] = l[0];
    c[1] = r[0];
    c[2] = r[1];
    c[3] = l[1];
    if (s_orient(c, 4) < 0) {
        c[1] = l[1];
        c[3] = r[0];
    } else if (s_orient(c, 4) == 0)
        return wem_g_seg_meets_poly(l[0], l[1], p) && wem_g_seg_meets_poly(r[0], r[1], p);
    wem_pt o = l[0];
    wem_pt w = {r[0].x - l[0].x, r[0].y - l[0].y};
    wem_pt f = {l[1].x - l[0].x, l[1].y - l[0].y};
    s_i128 w2 = (s_i128) w.x * w.x + (s_i128) w.y * w.y;
    s_i128 sl1 = (s_i128) f.x * w.x + (s_i128) f.y * w.y;
    s_i128 sr1 = ((s_i128) r[1].x - o.x) * w.x + ((s_i128) r[1].y - o.y) * w.y;
    s_frac cur = {sl1 > 0 ? sl1 : 0, 1}, end = {sr1 < w2 ? sr1 : w2, 1};
    s_i128 gap_min = 2 * ((s_i128) s_isqrt128((s_u128) w2) + 1); /* 2 units, in sigma */
    for (int guard = 0; guard < 2 * n + 4 && s_frac_cmp(cur, end) < 0; guard++) {
        s_frac best = cur, nxt = end, a, b;
        for (int i = 0, j = n - 1; i < n; j = i++) {
            if (!s_edge_span(p->v[j], p->v[i], c, o, w, &a, &b))
                continue;
            if (s_frac_cmp(a, cur) <= 0) {
                if (s_frac_cmp(b, best) > 0)
                    best = b;
            } else if (s_frac_cmp(a, nxt) < 0)
                nxt = a;
        }
        if (s_frac_cmp(best, cur) > 0) {
            cur = best;
            continue;
        }
        /* a gap from cur to nxt: no edge crosses it, the polygon holds it whole or not at all */
        s_frac wide = {cur.n + gap_min * cur.d, cur.d};
        if (s_frac_cmp(nxt, wide) > 0) {
            s_i128 mid = s_floor_div128(s_floor_div128(cur.n, cur.d) + s_floor_div128(nxt.n, nxt.d), 2);
            s_i128 k = 2 * mid - sl1, d2 = 2 * w2;
            wem_pt x;
            x.x = (int32_t) s_div_round128((2 * (s_i128) o.x + f.x) * w2 + k * w.x, d2);
            x.y = (int32_t) s_div_round128((2 * (s_i128) o.y + f.y) * w2 + k * w.y, d2);
            if (!wem_g_pt_in_poly(x, p))
                return 0;
        }
        cur = nxt;
    }
    return s_frac_cmp(cur, end) >= 0;
}

int
wem_g_lof_blocked_line(const wem_rect *strip, const wem_line *ln, int32_t lo, int32_t hi)
{
    wem_pt l[2], r[2];
    if (hi < lo)
        return 0;
    s_lof_edges(strip, lo, hi, l, r);
    return wem_g_seg_meets_line(l[0], l[1], ln) && wem_g_seg_meets_line(r[0], r[1], ln);
}

int
wem_g_fired_on_rear(const wem_rect *strip, const wem_rect *b)
{
    wem_quad qs, qb;
    if (wem_g_hdiff(strip->h, b->h) >= 900)
        return 0;
    wem_g_quad(strip, 0, &qs);
    wem_g_quad(b, 0, &qb);
    /* the middle of the strip's near edge, twice scaled, against b's rear line RR -> RL (b on its
     * left, cross > 0): behind is cross < 0 */
    wem_pt e0 = qb.v[WEM_RR], e1 = qb.v[WEM_RL];
    s_i128 mx2 = (s_i128) qs.v[WEM_RL].x + qs.v[WEM_RR].x, my2 = (s_i128) qs.v[WEM_RL].y + qs.v[WEM_RR].y;
    s_i128 c = ((s_i128) e1.x - e0.x) * (my2 - 2 * (s_i128) e0.y)
             - ((s_i128) e1.y - e0.y) * (mx2 - 2 * (s_i128) e0.x);
    return c < 0;
}

int
wem_g_same_facing(int32_t ha, int32_t hb, int32_t heading_tol)
{
    return wem_g_hdiff(ha, hb) <= heading_tol;
}

/* ---- terrain: [Understanding the Game Board] touching a border puts a piece on that terrain,
 * [Elements out of field] "touches, even partially" (R-wem-touch-boundary) ---- */

int
wem_g_pt_in_poly(wem_pt p, const wem_poly *poly)
{
    int in = 0;
    int n = poly->n;
    if (n == 0)
        return 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        wem_pt a = poly->v[j], b = poly->v[i];
        if (s_on_seg(a, b, p))
            return 1;
        /* the ray from p to +x crosses the edge (half open in y) when the edge's x at p.y is
         * beyond p.x: for an edge going to +y that is cross(a, b, p) > 0, cross-multiplied */
        if ((a.y > p.y) != (b.y > p.y)) {
            s_i128 c = s_cross(a, b, p);
            if (b.y > a.y ? c > 0 : c < 0)
                in = !in;
        }
    }
    return in;
}

/* does segment ab meet the open interior of convex q (q with an area)? */
static int
s_seg_meets_open_convex(wem_pt a, wem_pt b, const wem_pt *q, int nq)
{
    wem_pt s[2] = {a, b};
    return s_convex_interiors_meet(q, nq, s, 2);
}

/* twice-scaled point (px2/2, py2/2) in poly, boundary counts */
static int
s_pt2_in_poly(int64_t px2, int64_t py2, const wem_poly *poly)
{
    int in = 0;
    int n = poly->n;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        int64_t ax = 2 * (int64_t) poly->v[j].x, ay = 2 * (int64_t) poly->v[j].y;
        int64_t bx = 2 * (int64_t) poly->v[i].x, by = 2 * (int64_t) poly->v[i].y;
        s_i128 c = (s_i128) (bx - ax) * (py2 - ay) - (s_i128) (by - ay) * (px2 - ax);
        s_i128 d = (s_i128) (px2 - ax) * (px2 - bx) + (s_i128) (py2 - ay) * (py2 - by);
        if (c == 0 && d <= 0)
            return 1;
        if ((ay > py2) != (by > py2)) {
            if (by > ay ? c > 0 : c < 0)
                in = !in;
        }
    }
    return in;
}

int
wem_g_quad_inside_poly(const wem_quad *q, const wem_poly *poly)
{
    int n = poly->n;
    if (n < 3)
        return 0;
    for (int k = 0; k < 4; k++)
        if (!wem_g_pt_in_poly(q->v[k], poly))
            return 0;
    if (s_orient(q->v, 4) != 0) {
        for (int i = 0, j = n - 1; i < n; j = i++)
            if (s_seg_meets_open_convex(poly->v[j], poly->v[i], q->v, 4))
                return 0;
        /* the centre (twice scaled) */
        int64_t cx2 = (int64_t) q->v[0].x + q->v[2].x, cy2 = (int64_t) q->v[0].y + q->v[2].y;
        if (!s_pt2_in_poly(cx2, cy2, poly))
            return 0;
    } else {
        for (int k = 0; k < 4; k++)
            for (int i = 0, j = n - 1; i < n; j = i++) {
                wem_pt a = q->v[k], b = q->v[(k + 1) & 3];
                wem_pt c = poly->v[j], d = poly->v[i];
                int d1 = s_sgn(s_cross(a, b, c)), d2 = s_sgn(s_cross(a, b, d));
                int d3 = s_sgn(s_cross(c, d, a)), d4 = s_sgn(s_cross(c, d, b));
                if (d1 * d2 < 0 && d3 * d4 < 0)
                    return 0;
            }
    }
    return 1;
}

/* is point p in convex q (closed), either orientation? */
static int
s_pt_in_convex(wem_pt p, const wem_pt *q, int nq)
{
    return wem_g_convex_meet(&p, 1, q, nq);
}

int
wem_g_convex_meets_poly(const wem_pt *q, int nq, const wem_poly *poly)
{
    int n = poly->n;
    if (nq <= 0 || n == 0)
        return 0;
    for (int k = 0; k < nq; k++)
        if (wem_g_pt_in_poly(q[k], poly))
            return 1;
    for (int i = 0; i < n; i++)
        if (s_pt_in_convex(poly->v[i], q, nq))
            return 1;
    for (int k = 0; k < nq; k++)
        for (int i = 0, j = n - 1; i < n; j = i++)
            if (s_segs_meet(q[k], q[(k + 1) % nq], poly->v[j], poly->v[i]))
                return 1;
    return 0;
}

int
wem_g_convex_meets_line(const wem_pt *q, int nq, const wem_line *l)
{
    if (nq <= 0 || l->n == 0)
        return 0;
    int hw = l->hw < 0 ? 0 : l->hw;
    int segs = l->n == 1 ? 1 : l->n - 1;
    for (int i = 0; i < segs; i++) {
        wem_pt s[2] = {l->v[i], l->v[l->n == 1 ? 0 : i + 1]};
        if (s_convex_dist_cmp(s, 2, q, nq, hw) <= 0)
            return 1;
    }
    return 0;
}

int
wem_g_seg_meets_poly(wem_pt a, wem_pt b, const wem_poly *poly)
{
    int n = poly->n;
    if (n == 0)
        return 0;
    if (wem_g_pt_in_poly(a, poly) || wem_g_pt_in_poly(b, poly))
        return 1;
    for (int i = 0, j = n - 1; i < n; j = i++)
        if (s_segs_meet(a, b, poly->v[j], poly->v[i]))
            return 1;
    return 0;
}

int
wem_g_seg_meets_line(wem_pt a, wem_pt b, const wem_line *l)
{
    if (l->n == 0)
        return 0;
    int hw = l->hw < 0 ? 0 : l->hw;
    int segs = l->n == 1 ? 1 : l->n - 1;
    for (int i = 0; i < segs; i++)
        if (s_seg_seg_cmp(a, b, l->v[i], l->v[l->n == 1 ? 0 : i + 1], hw) <= 0)
            return 1;
    return 0;
}

/* ---- motion: [Execute maneuvers] Charge "until it's in contact with the enemy Unit" ---- */

/* the earliest s = N/D (D > 0) in Q30-scaled time at which point p, moving by s * (dx, dy),
 * lies on segment e0e1; 0 if never */
static int
s_hit(wem_pt p, int64_t dx, int64_t dy, wem_pt e0, wem_pt e1, s_i128 *num, s_i128 *den)
{
    s_i128 ex = (s_i128) e1.x - e0.x, ey = (s_i128) e1.y - e0.y;
    s_i128 px = (s_i128) p.x - e0.x, py = (s_i128) p.y - e0.y;
    s_i128 cd = ex * dy - ey * dx;     /* cross(E, d) */
    s_i128 cp = ex * py - ey * px;     /* cross(E, p - e0) */
    s_i128 l2 = ex * ex + ey * ey;
    if (l2 == 0)
        return 0;
    if (cd == 0) {
        /* moving parallel to the edge: a hit only if on its line; then when the point reaches
         * the nearer end (or now if already on the segment) */
        if (cp != 0)
            return 0;
        s_i128 t0 = px * ex + py * ey;           /* position along E, times |E| */
        s_i128 v = dx * ex + dy * ey;            /* speed along E */
        if (t0 >= 0 && t0 <= l2) {
            *num = 0;
            *den = 1;
            return 1;
        }
        if (v == 0)
            return 0;
        s_i128 target = t0 < 0 ? 0 : l2;
        s_i128 n = target - t0, d = v;
        if (d < 0) {
            d = -d;
            n = -n;
        }
        if (n < 0)
            return 0;
        *num = n;
        *den = d;
        return 1;
    }
    s_i128 n = -cp, d = cd;
    if (d < 0) {
        d = -d;
        n = -n;
    }
    if (n < 0)
        return 0;
    /* the hit point's position along E, times |E|^2 * d: (p - e0).E * d + n * (d.E) */
    s_i128 mu = (px * ex + py * ey) * d + n * (dx * ex + dy * ey);
    if (mu < 0 || mu > l2 * d)
        return 0;
    *num = n;
    *den = d;
    return 1;
}

int32_t
wem_g_approach(const wem_pt *mov, int nm, int32_t h, int32_t maxd, const wem_pt *obst, int no)
{
    int64_t dx = wem_g_sin(h), dy = -(int64_t) wem_g_cos(h);
    int found = 0;
    s_i128 bn = 0, bd = 1;
    if (maxd <= 0 || nm <= 0 || no <= 0)
        return 0;
    if (wem_g_convex_meet(mov, nm, obst, no))
        return 0;
    for (int pass = 0; pass < 2; pass++) {
        const wem_pt *p = pass ? obst : mov, *q = pass ? mov : obst;
        int np = pass ? no : nm, nq = pass ? nm : no;
        int64_t sx = pass ? -dx : dx, sy = pass ? -dy : dy;
        for (int i = 0; i < np; i++)
            for (int j = 0; j < nq; j++) {
                s_i128 n, d;
                if (!s_hit(p[i], sx, sy, q[j], q[(j + 1) % nq], &n, &d))
                    continue;
                if (!found || n * bd < bn * d) {
                    bn = n;
                    bd = d;
                    found = 1;
                }
            }
    }
    if (!found)
        return maxd;
    /* time in units = s * 2^30 */
    s_i128 t = s_floor_div128(bn * WEM_Q30, bd);
    if (t > maxd)
        return maxd;
    return (int32_t) t;
}
