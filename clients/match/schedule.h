/*
 * schedule.h - who plays which seat of which game in a tournament.
 *
 * round-robin: one round is every ordered choice of `seats` distinct entrants,
 *   so every group of entrants meets in every seat assignment exactly once per
 *   round (two seats: every pair plays both sides; three seats: all 6 orders).
 *   With fewer entrants than seats, seat s of game g is entrant (g + s) mod n.
 * gauntlet: entrant 0 against each other entrant j, once in every seat, the
 *   other seats of the game played by j.
 * swiss (two seats): rounds paired from the standings so far (swiss_pair below);
 *   the runner pairs a round when the previous one has ended.
 * The list is a pure function of (kind, entrants, seats, rounds): the order is
 * fixed (round by round, groups in lexicographic order, then their seat orders),
 * so a schedule is reproducible; --seed only seeds the bots.
 */
#ifndef BERTHIER_MATCH_SCHEDULE_H
#define BERTHIER_MATCH_SCHEDULE_H

#include <stddef.h>

#define SCHED_MAX_SEATS 8

typedef enum { SCHED_ROUND_ROBIN = 0, SCHED_GAUNTLET = 1, SCHED_SWISS = 2 } sched_kind;

typedef struct sched_game {
    unsigned round;                       /* 0-based */
    unsigned entrant[SCHED_MAX_SEATS];    /* entrant per seat */
} sched_game;

/* "round-robin" / "gauntlet" / "swiss": 0 and *kind set, or -1. */
int sched_kind_parse(const char *name, sched_kind *kind);

/* Games in one round; 0 when the kind cannot seat these entrants
 * (gauntlet with one entrant, swiss with fewer than 2 or with other than 2 seats,
 * or seats out of 1..SCHED_MAX_SEATS). sched_game_at does not serve swiss. */
size_t sched_round_size(sched_kind kind, unsigned entrants, unsigned seats);

/* One Swiss round for n entrants (2..SCHED_MAX_ENTRANTS), two seats: entrants ranked by
 * points (most first; ties by fewer games on seat 0 minus seat 1, then by index), and
 * from the top each unpaired entrant meets the highest-ranked unpaired one it has met
 * least often (met[i*n+j]: games between i and j so far). Of the two, the one that
 * has played seat 0 less often (seat_balance[i]: games on seat 0 minus on seat 1) takes
 * seat 0; a tie goes to the higher-ranked in rounds 0, 2, 4, ... and the other in 1, 3, ... With an odd n the
 * lowest-ranked entrant with the fewest byes (byes[i]) sits the round out; *bye is set
 * to it (or -1). Returns the number of games written to out (n / 2), or 0 on bad input.
 * A pure function: the same standings give the same round. */
#define SCHED_MAX_ENTRANTS 16
size_t sched_swiss_round(unsigned n, unsigned round, const double *points, const double *met,
                         const int *seat_balance, const unsigned *byes, sched_game *out, int *bye);

/* Game `index` of the endless schedule (round = index / round size). 0 or -1. */
int sched_game_at(sched_kind kind, unsigned entrants, unsigned seats, size_t index, sched_game *out);

#endif
