/*
 * morale.c - Army Morale [12.0]: gains and losses, the cap of 10, zero
 * morale, committing the Guard [12.3.1].
 */
#include "n20.h"

void n20_morale_change(n20_state *s, const int8_t gain[2], const int8_t loss[2], n20_out *out,
                       const char *why) {
    for (int side = 0; side < 2; side++) {
        if (!gain[side] && !loss[side]) continue;
        int before = s->morale[side];
        int m = before + gain[side]; /* [12.1] first add, then subtract */
        if (m > s->sc->morale_max) m = s->sc->morale_max; /* [12.1.1] */
        m -= loss[side];
        if (m < 0) m = 0;
        s->morale[side] = (int8_t)m;
        int v[2] = {before, m};
        n20_event(out, s, "morale", NULL, 0, NULL, 0, v, 2, "[%s] %s morale %d -> %d", why,
                  n20_side_name(side), before, m);
    }
    n20_check_morale_zero(s, out);
}

void n20_morale_one(n20_state *s, int side, int delta, n20_out *out, const char *why) {
    int8_t g[2] = {0, 0}, l[2] = {0, 0};
    if (delta > 0) g[side] = (int8_t)delta;
    else l[side] = (int8_t)-delta;
    n20_morale_change(s, g, l, out, why);
}

/* [12.3.1] 1 if moving Guard unit u from `from` (0 = off map) to `to` commits it. */
int n20_guard_commit_cost(const n20_state *s, int u, uint16_t from, uint16_t to) {
    return n20_guard_commit_cost_ix(s, u, from, to, NULL);
}

int n20_guard_commit_cost_ix(const n20_state *s, int u, uint16_t from, uint16_t to, const n20_index *ix) {
    const n20_unit_def *d = &s->sc->units[u];
    if (!(d->flags & N20_FLAG_GUARD)) return 0;
    if (s->morale[0] == 1 || s->morale[1] == 1) return 0; /* either side at 1 */
    if (from && n20_ed_has(s, N20_EDF_GUARD_EZOC) && (ix ? n20_ix_in_ezoc(ix, from, 1 - d->side, 0) : n20_in_ezoc(s, from, 1 - d->side, 0)))
        return 0; /* already committed */
    int w = n20_weather(s);
    for (int dir = 0; dir < 6; dir++) {
        uint16_t n;
        if (n20_neighbor(s->sc, to, dir, &n) < 0 || n20_side_blocked(s->sc, w, to, dir)) continue;
        int o = ix ? n20_ix_unit_at(ix, n) : n20_unit_at(s, n);
        if (o >= 0 && o != u && n20_side_of(s, o) != d->side && s->sc->units[o].type != N20_LEADER)
            return 1;
    }
    return 0;
}
