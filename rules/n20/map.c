/*
 * map.c - hex geometry of the n20 maps. Hexes are XXYY: XX counts rows from
 * the south edge, YY hexes from the west edge. An odd row XX touches
 * (XX+-1, YY) and (XX+-1, YY+1); an even row (XX+-1, YY-1) and (XX+-1, YY).
 * Directions: 0 = YY-1, 1 = YY+1, 2/3 = row below, 4/5 = row above.
 */
#include "n20.h"

/* n20_neighbor and n20_dir: inline in n20.h */

static void s_cube(uint16_t h, int *x, int *y, int *z) {
    int c = h / 32, r = h % 32;
    *x = c;
    *z = r - (c - (c & 1)) / 2;
    *y = -*x - *z;
}

static int s_abs(int v) { return v < 0 ? -v : v; }

int n20_distance(uint16_t a, uint16_t b) {
    int ax, ay, az, bx, by, bz;
    s_cube(a, &ax, &ay, &az);
    s_cube(b, &bx, &by, &bz);
    int d = s_abs(ax - bx);
    if (s_abs(ay - by) > d) d = s_abs(ay - by);
    if (s_abs(az - bz) > d) d = s_abs(az - bz);
    return d;
}

int n20_is_builtup(const n20_scenario *sc, uint16_t h) {
    return sc->terrain[h] == N20_T_TOWN || n20_is_fortified(sc, NULL, h); /* [7.0] Town, Fortified, Redoubt */
}

/* n20_side_river and n20_side_blocked: inline in n20.h */
