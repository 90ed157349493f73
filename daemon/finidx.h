/*
 * finidx.h - the index of a finished game, <id>.fin next to its log: what the
 * daemon needs of an ended game without keeping it in memory or re-executing
 * it at start-up (docs/log-format.md "Finished-game index", docs/daemon.md
 * "Finished games").
 *
 * It is written once the game's last records are durable (the log first, then
 * the index: a crash in between leaves a log without an index, rebuilt at the
 * next start by re-executing that game once), and trusted at start-up only if
 * the log still has the size and the last chain hash the index names.
 */
#ifndef BERTHIERD_FINIDX_H
#define BERTHIERD_FINIDX_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#define FINIDX_MAGIC "BRTHRFIN"
#define FINIDX_FORMAT 2u   /* format 1 (no batch) is still read */

typedef struct bd_finidx {
    uint64_t log_bytes;     /* size of the log file */
    uint64_t records;       /* records in it (SYNC records included) */
    uint8_t head[32];       /* chain hash of its last record (its last 32 bytes) */
    uint64_t seq;           /* the game's seq at its end */
    uint64_t create_request_id;   /* LogHeader.create_request_id (0: none recorded) */
    uint64_t batch;         /* game_batch() at its end (what `pending` answers) */
    uint32_t bound;         /* seats that have a key */
    uint32_t winners;       /* bit mask (0: a draw) */
    uint16_t nspectators;
    /* where the strings start past the keys in blob (each NUL-terminated): it is kept in
     * memory for every ended game, so it holds offsets, not pointers */
    uint16_t level_at, reason_at, ruleset_at, scenario_at;
    uint8_t started;
    uint8_t nseats;
    uint8_t have_batch;     /* 0: read from a format-1 index, which does not hold it */
    uint8_t pad_[3];        /* blob starts 4-aligned: the scores come first */
    /* blob: scores (i32 x nseats), seat keys (32 x nseats, zero where unbound), spectator
     * keys (32 x nspectators), then the strings at their offsets past those */
    uint8_t blob[];
} bd_finidx;
_Static_assert(offsetof(bd_finidx, blob) % 4 == 0, "the scores in blob are aligned");

static inline const int32_t *finidx_scores(const bd_finidx *self) { return (const int32_t *)(const void *)self->blob; }
static inline const uint8_t *finidx_seat_keys(const bd_finidx *self) { return self->blob + 4u * self->nseats; }
static inline const uint8_t *finidx_spectators(const bd_finidx *self) { return self->blob + 36u * self->nseats; }
static inline const char *finidx_str_(const bd_finidx *self, unsigned at) {
    return (const char *)self->blob + 36u * self->nseats + 32u * self->nspectators + at;
}
static inline const char *finidx_level(const bd_finidx *self) { return finidx_str_(self, self->level_at); }
static inline const char *finidx_reason(const bd_finidx *self) { return finidx_str_(self, self->reason_at); }
static inline const char *finidx_ruleset(const bd_finidx *self) { return finidx_str_(self, self->ruleset_at); }
static inline const char *finidx_scenario(const bd_finidx *self) { return finidx_str_(self, self->scenario_at); }

/* A new index from its parts (strings are cut to 255 bytes). NULL: out of memory. */
bd_finidx *finidx_new(uint64_t log_bytes, uint64_t records, const uint8_t head[32], uint64_t seq, int started,
                      uint64_t create_request_id, uint64_t batch,
                      unsigned nseats, const uint8_t *const *seat_keys, unsigned nspectators,
                      const uint8_t *spectators, const brt_result *res, const char *ruleset, const char *scenario);
void finidx_destroy(bd_finidx **pself);
/* Write `path` durably (a temporary file, fsync, rename, fsync of `dir`). 0 / -1. */
int finidx_write(const bd_finidx *self, const char *dir, const char *path);
/* Write n bytes to path through path.tmp and a rename (fdatasynced first when sync): the file
 * is whole or absent. 0 or -1 (path.tmp removed). The directory's fsync is the caller's. */
int finidx_put_file(const char *path, const uint8_t *b, size_t n, int sync);
/* Read `path`: NULL if absent, short, of another format or its checksum fails. */
bd_finidx *finidx_read(const char *path);
/* 0 if the log at `log_path` has the size and last chain hash the index names. */
int finidx_matches(const bd_finidx *self, const char *log_path);
/* The result as game_result() gives it. */
void finidx_result(const bd_finidx *self, brt_result *out);

#endif
