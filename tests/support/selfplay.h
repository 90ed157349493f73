/*
 * selfplay.h - plays a game of any ruleset in process with random legal orders
 * (a fixed splitmix64 generator, so the same seed gives the same game), into a
 * memlog. Used by the determinism tests, the fuzzers' seeds and the
 * in-process benchmark.
 */
#ifndef BERTHIER_TEST_SELFPLAY_H
#define BERTHIER_TEST_SELFPLAY_H

#include <stdint.h>

#include "memlog.h"

typedef struct selfplay_result {
    int ended;          /* the game reached a result */
    uint64_t orders;    /* orders applied */
    uint64_t rejected;  /* legal orders that apply rejected (must stay 0) */
    uint8_t state_hash[32];
    char error[640];    /* empty when all went well */
} selfplay_result;

/* Plays at most max_orders orders. The server seed and the seats' entropy are
 * derived from `seed`. Returns 0, or -1 with out->error. */
int selfplay_game(const char *ruleset, const char *scenario, const char *const *options, size_t n_options,
                  unsigned seats, uint64_t seed, uint64_t max_orders, memlog *log, selfplay_result *out);

uint64_t selfplay_next(uint64_t *state);

/* Called, when set, with every legal() list a game of selfplay_game draws from (seat, the list
 * as game_legal wrote it): the determinism checks digest them (berthier-selfplay's `legal` line). */
extern void (*selfplay_legal_hook)(void *ctx, unsigned seat, const uint8_t *list, size_t len);
extern void *selfplay_legal_ctx;

#endif
