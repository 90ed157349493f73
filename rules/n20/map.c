/*
 * map.c - hex geometry of the n20 maps. Hexes are XXYY: XX counts rows from
 * the south edge, YY hexes from the west edge. An odd row XX touches
 * (XX+-1, YY) and (XX+-1, YY+1); an even row (XX+-1, YY-1) and (XX+-1, YY).
 * Directions: 0 = YY-1, 1 = YY+1, 2/3 = row below, 4/5 = row above.
 */
#include "n20.h"

int n20_neighbor(const n20_scenario *sc, uint16_t h, int dir, uint16_t *out) {
    int x = h / 32, y = h % 32;
    int a = (x & 1) ? 0 : -1;
    int nx = x, ny = y;
    switch (dir) {
    case 0: ny = y - 1; break;
    case 1: ny = y + 1; break;
    case 2: nx = x - 1; ny = y + a; break;
    case 3: nx = x - 1; ny = y + a + 1; break;
    case 4: nx = x + 1; ny = y + a; break;
    case 5: nx = x + 1; ny = y + a + 1; break;
    default: return -1;
    }
    if (nx < 1 || ny < 1 || nx > sc->rows || ny > sc->cols) return -1;
    *out = (uint16_t)(nx * 32 + ny);
    return 0;
}

int n20_dir(const n20_scenario *sc, uint16_t a, uint16_t b) {
    int ax = a / 32, ay = a % 32, bx = b / 32, by = b % 32;
    if (bx < 1 || by < 1 || bx > sc->rows || by > sc->cols) return -1;
    int dx = bx - ax, dy = by - ay, k = (ax & 1) ? 0 : -1;
    if (dx == 0) return dy == -1 ? 0 : dy == 1 ? 1 : -1;
    if (dx != 1 && dx != -1) return -1;
    int base = dx < 0 ? 2 : 4;
    if (dy == k) return base;
    if (dy == k + 1) return base + 1;
    return -1;
}

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

int n20_side_river(const n20_scenario *sc, int weather, uint16_t a, int dir) {
    int r = sc->river[a][dir];
    if (r == N20_RIV_MINOR && (weather == N20_W_DOWNPOUR || weather == N20_W_STORM))
        return N20_RIV_MAJOR; /* [5.2.1] Downpour: treat Minor Rivers as Major */
    return r;
}

int n20_side_blocked(const n20_scenario *sc, int weather, uint16_t a, int dir) {
    return n20_side_river(sc, weather, a, dir) == N20_RIV_MAJOR && sc->cross[a][dir] == N20_X_NONE;
}
