/*
 * schedule.c - round-robin and gauntlet tournament schedules (schedule.h).
 */
#include "schedule.h"

#include <stdint.h>
#include <string.h>

int sched_kind_parse(const char *name, sched_kind *kind) {
    if (strcmp(name, "round-robin") == 0 || strcmp(name, "rr") == 0) {
        *kind = SCHED_ROUND_ROBIN;
        return 0;
    }
    if (strcmp(name, "swiss") == 0) {
        *kind = SCHED_SWISS;
        return 0;
    }
    if (strcmp(name, "gauntlet") == 0) {
        *kind = SCHED_GAUNTLET;
        return 0;
    }
    return -1;
}

static size_t s_falling(unsigned n, unsigned k) {
    size_t r = 1;
    for (unsigned i = 0; i < k; i++) r *= n - i;
    return r;
}

size_t sched_round_size(sched_kind kind, unsigned entrants, unsigned seats) {
    if (seats < 1 || seats > SCHED_MAX_SEATS || entrants < 1) return 0;
    if (kind == SCHED_GAUNTLET) return entrants < 2 ? 0 : (size_t)(entrants - 1) * seats;
    if (kind == SCHED_SWISS) return seats != 2 || entrants < 2 || entrants > SCHED_MAX_ENTRANTS ? 0 : entrants / 2;
    if (entrants < seats) return entrants;
    return s_falling(entrants, seats);
}

/* The idx-th k-subset of {0..n-1} in lexicographic order. */
static void s_combination(unsigned n, unsigned k, size_t idx, unsigned *out) {
    unsigned next = 0;
    for (unsigned i = 0; i < k; i++) {
        for (;;) {
            /* subsets that start with `next` at position i: C(n - next - 1, k - i - 1) */
            size_t c = 1;
            unsigned top = n - next - 1, r = k - i - 1;
            for (unsigned j = 0; j < r; j++) c = c * (top - j) / (j + 1);
            if (idx < c) break;
            idx -= c;
            next++;
        }
        out[i] = next++;
    }
}

/* The idx-th permutation of k items in lexicographic order (Lehmer code). */
static void s_permutation(unsigned k, size_t idx, unsigned *out) {
    unsigned pool[SCHED_MAX_SEATS];
    for (unsigned i = 0; i < k; i++) pool[i] = i;
    size_t f = 1;
    for (unsigned i = 2; i < k; i++) f *= i;
    for (unsigned i = 0; i < k; i++) {
        size_t q = f ? idx / f : 0;
        idx = f ? idx % f : 0;
        out[i] = pool[q];
        memmove(&pool[q], &pool[q + 1], (k - i - 1 - q) * sizeof pool[0]);
        if (k - i - 1 > 0) f /= (k - i - 1);
    }
}

int sched_game_at(sched_kind kind, unsigned entrants, unsigned seats, size_t index, sched_game *out) {
    size_t per = sched_round_size(kind, entrants, seats);
    if (!per || kind == SCHED_SWISS) return -1;
    memset(out, 0, sizeof *out);
    out->round = (unsigned)(index / per);
    size_t i = index % per;
    if (kind == SCHED_GAUNTLET) {
        unsigned opp = 1 + (unsigned)(i / seats), at = (unsigned)(i % seats);
        for (unsigned s = 0; s < seats; s++) out->entrant[s] = s == at ? 0 : opp;
        return 0;
    }
    if (entrants < seats) {
        for (unsigned s = 0; s < seats; s++) out->entrant[s] = (unsigned)((i + s) % entrants);
        return 0;
    }
    size_t perms = s_falling(seats, seats);
    unsigned group[SCHED_MAX_SEATS], order[SCHED_MAX_SEATS];
    s_combination(entrants, seats, i / perms, group);
    s_permutation(seats, i % perms, order);
    for (unsigned s = 0; s < seats; s++) out->entrant[s] = group[order[s]];
    return 0;
}

size_t sched_swiss_round(unsigned n, unsigned round, const double *points, const double *met,
                         const int *seat_balance, const unsigned *byes, sched_game *out, int *bye) {
    *bye = -1;
    if (n < 2 || n > SCHED_MAX_ENTRANTS) return 0;
    unsigned rank[SCHED_MAX_ENTRANTS];
    for (unsigned i = 0; i < n; i++) rank[i] = i;
    for (unsigned i = 1; i < n; i++) /* insertion sort: stable, so ties keep the index order */
        for (unsigned k = i; k > 0; k--) {
            unsigned a = rank[k - 1], b = rank[k];
            int before = points[b] > points[a] ||
                         (points[b] == points[a] && seat_balance[b] < seat_balance[a]);
            if (!before) break;
            rank[k - 1] = b;
            rank[k] = a;
        }
    int used[SCHED_MAX_ENTRANTS] = {0};
    if (n % 2) { /* the bye: lowest-ranked among those with the fewest byes */
        unsigned fewest = UINT32_MAX;
        for (unsigned i = 0; i < n; i++)
            if (byes[i] < fewest) fewest = byes[i];
        for (unsigned k = n; k-- > 0;)
            if (byes[rank[k]] == fewest) {
                *bye = (int)rank[k];
                used[rank[k]] = 1;
                break;
            }
    }
    size_t games = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned a = rank[k];
        if (used[a]) continue;
        int best = -1;
        for (unsigned l = k + 1; l < n; l++) {
            unsigned b = rank[l];
            if (used[b]) continue;
            if (best < 0 || met[a * n + b] < met[a * n + (unsigned)best]) best = (int)b;
        }
        if (best < 0) break;
        unsigned b = (unsigned)best;
        used[a] = used[b] = 1;
        sched_game *g = &out[games++];
        memset(g, 0, sizeof *g);
        g->round = round;
        int a_first = seat_balance[a] < seat_balance[b] ||
                      (seat_balance[a] == seat_balance[b] && round % 2 == 0);
        g->entrant[0] = a_first ? a : b;
        g->entrant[1] = a_first ? b : a;
    }
    return games;
}
