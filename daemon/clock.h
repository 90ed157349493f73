/*
 * clock.h - per-seat game clocks from CreateGame.clock, kept by the daemon
 * only (CLOCK_MONOTONIC; the rules never see a clock). Each decision has a
 * budget of decision_ms; time beyond it is drawn from the seat's bank of
 * bank_ms. When both are spent the daemon feeds game_timeout(), a logged
 * input, which applies the rules' default or forfeits. After a restart the
 * clocks start afresh (the time already used is not in the log).
 */
#ifndef BERTHIERD_CLOCK_H
#define BERTHIERD_CLOCK_H

#include <stdint.h>

#include "ruleset.h"

typedef struct bd_clock {
    uint32_t decision_ms, bank_ms;   /* 0 = none */
    int64_t bank_left[BRT_MAX_SEATS];
    int64_t since[BRT_MAX_SEATS];    /* when the seat's current decision began; -1 = not running */
    uint64_t seq[BRT_MAX_SEATS];     /* game seq when it began */
} bd_clock;

int64_t clock_now_ms(void);

void clock_init(bd_clock *self, uint32_t decision_ms, uint32_t bank_ms);
int clock_enabled(const bd_clock *self);

/* Start or stop each seat's clock: must[i] says whether seat i has a decision
 * to make now at game seq `seq`. */
void clock_update(bd_clock *self, unsigned nseats, const int *must, uint64_t seq, int64_t now);

/* The earliest deadline of a running seat (INT64_MAX if none); *seat gets it. */
int64_t clock_next_deadline(const bd_clock *self, unsigned nseats, unsigned *seat);

/* The seat timed out: its bank is spent and its clock stops. */
void clock_expired(bd_clock *self, unsigned seat);

#endif
