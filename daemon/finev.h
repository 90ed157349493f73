/*
 * finev.h - the record index of a finished game, <id>.evx next to its log and its
 * <id>.fin: where each EVENT record's payload is in the log (with the LogEvent's seq,
 * index and visible), and where record 0 (the header) and the last CHECKPOINT are, so
 * that `events` and `header` about an ended game kept on disk are answered by pread
 * from the log, without loading or re-executing the game (docs/log-format.md
 * "Finished-game index", docs/daemon.md "Finished games").
 *
 * It lives on disk only: a request reads it, checks it and lets it go. It is made
 * from the log alone (a read of the log, no re-execution), written once the log is
 * durable and before the .fin, and trusted only if it names the log's size and last
 * chain hash, as the .fin does. Each record read through it is checked again against
 * the log: its length, its kind and its chain link (the 32 bytes before it and after
 * it), so that a damaged index or log is never served, only refused.
 */
#ifndef BERTHIERD_FINEV_H
#define BERTHIERD_FINEV_H

#include <stddef.h>
#include <stdint.h>

#define FINEV_MAGIC "BRTHREVX"
#define FINEV_FORMAT 1u
#define FINEV_VERSION_MAX 32   /* bytes of LogHeader.ruleset_version kept */

typedef struct bd_finev_entry {
    uint64_t seq;        /* LogEvent.seq */
    uint32_t index;      /* LogEvent.index: its place among the input's events */
    uint32_t visible;    /* LogEvent.visible */
    uint64_t offset;     /* where its payload starts in the log */
    uint32_t len;        /* the payload's length */
} bd_finev_entry;

typedef struct bd_finev {
    uint64_t log_bytes;         /* size of the log it indexes */
    uint8_t head[32];           /* chain hash of the log's last record */
    uint64_t header_offset;     /* record 0's payload (the LogHeader) */
    uint32_t header_len;
    uint64_t ckpt_offset;       /* the last CHECKPOINT's payload (0 and 0: none) */
    uint32_t ckpt_len;
    uint64_t ckpt_record;       /* its record index */
    char version[FINEV_VERSION_MAX + 1];   /* LogHeader.ruleset_version */
    size_t n;                   /* EVENT records whose payload decodes as a LogEvent, in log order */
    bd_finev_entry *e;
} bd_finev;

/* Index the log at `path` (read whole, its chain checked). NULL: it cannot be read,
 * is damaged, torn, or out of memory (err says which). */
bd_finev *finev_build(const char *path, char *err, size_t errlen);
void finev_destroy(bd_finev **pself);
/* Write `path` (a temporary file, renamed; sync: fdatasynced before the rename). The
 * directory is not fsynced: the .fin written next does it, and an index lost in a crash
 * is only made again. 0 / -1. */
int finev_write(const bd_finev *self, const char *path, int sync);
/* Read `path`: NULL if absent, short, of another magic or format, or its checksum fails. */
bd_finev *finev_read(const char *path);
/* 0 if the index names this log size and last chain hash. */
int finev_matches(const bd_finev *self, uint64_t log_bytes, const uint8_t head[32]);

/* Bytes of the log read in one pread, from which records are taken and checked. */
typedef struct bd_finev_span {
    uint8_t *data;
    uint64_t base;       /* log offset of data[0] */
    size_t len;
} bd_finev_span;

/* Read the log bytes that hold the records whose payloads start at `first` and end at
 * `end` (payload offsets), with the chain hash before the first and after the last.
 * 0 / -1 (a short read, out of memory). */
int finev_span_read(int fd, uint64_t first, uint64_t end, bd_finev_span *s);
void finev_span_free(bd_finev_span *s);
/* The payload at log offset `offset` of `len` bytes, if the span holds it as a record
 * of `kind` whose chain link holds; else NULL. */
const uint8_t *finev_span_record(const bd_finev_span *s, uint64_t offset, uint32_t len, uint8_t kind);

#endif
