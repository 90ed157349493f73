/* clock.c - decision budgets and time banks (see clock.h). */
#include "clock.h"

#include <time.h>

int64_t clock_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clock_init(bd_clock *self, uint32_t decision_ms, uint32_t bank_ms) {
    self->decision_ms = decision_ms;
    self->bank_ms = bank_ms;
    for (unsigned i = 0; i < BRT_MAX_SEATS; i++) {
        self->bank_left[i] = bank_ms;
        self->since[i] = -1;
        self->seq[i] = 0;
    }
}

int clock_enabled(const bd_clock *self) { return self->decision_ms > 0 || self->bank_ms > 0; }

static void s_stop(bd_clock *self, unsigned i, int64_t now) {
    if (self->since[i] < 0) return;
    int64_t used = now - self->since[i];
    int64_t over = used - (int64_t)self->decision_ms;
    if (self->decision_ms == 0) over = used;
    if (over > 0) self->bank_left[i] = self->bank_left[i] > over ? self->bank_left[i] - over : 0;
    self->since[i] = -1;
}

void clock_update(bd_clock *self, unsigned nseats, const int *must, uint64_t seq, int64_t now) {
    if (!clock_enabled(self)) return;
    for (unsigned i = 0; i < nseats && i < BRT_MAX_SEATS; i++) {
        if (self->since[i] >= 0 && (!must[i] || self->seq[i] != seq)) s_stop(self, i, now);
        if (must[i] && self->since[i] < 0) {
            self->since[i] = now;
            self->seq[i] = seq;
        }
    }
}

int64_t clock_next_deadline(const bd_clock *self, unsigned nseats, unsigned *seat) {
    int64_t best = INT64_MAX;
    if (!clock_enabled(self)) return best;
    for (unsigned i = 0; i < nseats && i < BRT_MAX_SEATS; i++) {
        if (self->since[i] < 0) continue;
        int64_t d = self->since[i] + (int64_t)self->decision_ms + self->bank_left[i];
        if (d < best) {
            best = d;
            if (seat) *seat = i;
        }
    }
    return best;
}

void clock_expired(bd_clock *self, unsigned seat) {
    if (seat >= BRT_MAX_SEATS) return;
    self->bank_left[seat] = 0;
    self->since[seat] = -1;
}
