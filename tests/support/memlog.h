/*
 * memlog.h - an in-memory game log for tests and fuzzers: a brt_sink that
 * appends records with their chain hashes and signs checkpoints (live), or
 * compares every produced record with an expected list (replay).
 */
#ifndef BERTHIER_TEST_MEMLOG_H
#define BERTHIER_TEST_MEMLOG_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef struct memlog_rec {
    uint8_t kind;
    uint8_t *payload;
    size_t len;
    uint8_t chain[32];
} memlog_rec;

typedef struct memlog {
    memlog_rec *recs;
    size_t n, cap;
    uint8_t head[32];
    uint8_t sk[64], pk[32];
    char game_id[GAME_ID_MAX + 1];
    /* replay mode */
    const memlog_rec *expect;
    size_t n_expect, pos;
    int mismatch;
    size_t mismatch_at;
    int foreign_checkpoints;   /* replay of a log signed elsewhere: accept its CHECKPOINT
                                  records where expected, without re-signing them */
} memlog;

/* Live log with a signing key derived from key_seed. */
void memlog_init(memlog *self, const char *game_id, uint8_t key_seed);
/* Replay log that expects `of`'s records from record 1 on (record 0 is the header). */
void memlog_init_replay(memlog *self, const memlog *of);
void memlog_free(memlog *self);
brt_sink memlog_sink(memlog *self);

/* Replay `log` through a fresh game (with `seed`, or from its DICE records when NULL).
 * Returns the number of records matched (== log->n when everything matched) and
 * the final state hash. On failure, *why says what went wrong. */
size_t memlog_replay(const memlog *log, const uint8_t *seed, uint8_t final_hash[32], char *why, size_t whylen);

/* Write the log as a real log file (core/evlog.c format). 0 or -1. */
int memlog_save(const memlog *self, const char *path);

/* A dice source answering from a log's DICE records (replay without the seed). */
uint32_t memlog_dice_source(void *log, uint64_t index, uint32_t sides, const char *purpose);

#endif
