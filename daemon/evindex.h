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

/* The index itself is allocated at its first entry: a game with no events in memory
 * (an ended game kept on disk, docs/daemon.md "Finished games") keeps one pointer. */
typedef struct bd_evindex_body {
    uint64_t *seq;          /* LogEvent.seq of entry i */
    size_t *off;            /* where its payload starts in `data` */
    uint32_t *len;          /* its length */
    size_t n, cap;
    size_t durable;         /* entries 0 .. durable-1 are on disk */
    int unsorted;           /* a seq went down: look-ups scan from the start */
    brt_buf data;           /* the LogEvent payloads, back to back */
} bd_evindex_body;

typedef struct bd_evindex {
    bd_evindex_body *b;     /* NULL: no entry */
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
/* Entries; durable ones; entry i's seq, payload length and payload (i < evindex_count). */
static inline size_t evindex_count(const bd_evindex *self) { return self->b ? self->b->n : 0; }
static inline size_t evindex_durable(const bd_evindex *self) { return self->b ? self->b->durable : 0; }
static inline uint64_t evindex_seq(const bd_evindex *self, size_t i) { return self->b->seq[i]; }
static inline uint32_t evindex_len(const bd_evindex *self, size_t i) { return self->b->len[i]; }
static inline const uint8_t *evindex_payload(const bd_evindex *self, size_t i) {
    return self->b->data.data + self->b->off[i];
}

#endif
