/*
 * evindex.h - a game's EVENT records in memory, in log order, so that an
 * `events` request costs what it returns rather than a read of the whole log
 * (docs/daemon.md "Events index").
 *
 * Every EVENT record the game produces goes in as it is appended (live) or
 * checked against the log (recovery); `durable` counts those that are on disk,
 * and a reply uses only those (what a reply reveals is on disk first, P7).
 */
#ifndef BERTHIERD_EVINDEX_H
#define BERTHIERD_EVINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct bd_evindex {
    uint64_t *seq;          /* LogEvent.seq of entry i */
    size_t *off;            /* where its payload starts in `data` */
    uint32_t *len;          /* its length */
    size_t n, cap;
    size_t durable;         /* entries 0 .. durable-1 are on disk */
    int unsorted;           /* a seq went down: look-ups scan from the start */
    brt_buf data;           /* the LogEvent payloads, back to back */
} bd_evindex;

void evindex_init(bd_evindex *self);
void evindex_free(bd_evindex *self);
/* Add the payload of an EVENT record. 0, or -1 when out of memory (the caller
 * stops: the record is in the log). A payload that does not decode as a
 * LogEvent is not added (0), as a read of the log skipped it. */
int evindex_add(bd_evindex *self, const uint8_t *payload, size_t len);
/* Every entry so far is on disk. */
void evindex_mark_durable(bd_evindex *self);
/* The first durable entry whose seq is above `seq` (durable if none). */
size_t evindex_after(const bd_evindex *self, uint64_t seq);
static inline const uint8_t *evindex_payload(const bd_evindex *self, size_t i) { return self->data.data + self->off[i]; }

#endif
