/*
 * evlog.h - the per-game append-only event log with a BLAKE2b hash chain.
 * The on-disk format is written out byte by byte at the top of evlog.c.
 *
 * Durability: evlog_append() only buffers; evlog_sync() writes the buffered
 * records and fdatasyncs. A reply may be sent only after evlog_sync() returned
 * 0 for every record it depends on. Any write or fdatasync failure poisons the
 * log (fail-stop): every later call fails and the daemon halts the game rather
 * than retrying and acknowledging records the disk may have dropped.
 */
#ifndef BERTHIER_EVLOG_H
#define BERTHIER_EVLOG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EVLOG_MAGIC "BRTHRLOG"        /* 8 bytes, no terminator on disk */
#define EVLOG_FORMAT 1
#define EVLOG_FILE_HEADER 16          /* magic(8) format(u32 le) reserved(u32 le, 0) */
#define EVLOG_HASH 32
#define EVLOG_MAX_PAYLOAD (16u << 20) /* 16 MiB */

/* Record kinds (u8). Inputs are < 16, outcomes 16..31, trailer records >= 32. */
enum {
    EVLOG_HEADER = 1,     /* LogHeader: always record 0 */
    EVLOG_JOIN = 2,       /* LogJoin: a seat's entropy (input) */
    EVLOG_ORDER = 3,      /* LogOrder: the exact Request bytes (input) */
    EVLOG_TIMEOUT = 4,    /* LogTimeout (input) */
    EVLOG_RESIGN = 5,     /* LogResign (input) */
    EVLOG_NONCE = 6,      /* LogNonce: contributory dice chain link (input) */
    EVLOG_ABORT = 7,      /* LogAbort: an admin ended the game (input) */
    EVLOG_DICE = 16,      /* LogDice (outcome) */
    EVLOG_EVENT = 17,     /* LogEvent (outcome) */
    EVLOG_STATE = 18,     /* LogState: state hash after an input (outcome) */
    EVLOG_END = 19,       /* LogEnd: the result (outcome) */
    EVLOG_REVEAL = 20,    /* LogReveal: the server seed, after the end (outcome) */
    EVLOG_CHECKPOINT = 32, /* LogCheckpoint: Ed25519 over the chain head */
    EVLOG_SYNC = 33        /* LogSync (empty): closes each evlog_sync batch; never
                              returned by the reader, which only uses it for recovery */
};

const char *evlog_kind_name(uint8_t kind);

/* Signed message of a checkpoint:
 * "berthier-ckpt-v1" (16 bytes) || game_id bytes || record index (u64 le) || head (32). */
int evlog_checkpoint_verify(const uint8_t pk[32], const char *game_id, uint64_t record,
                            const uint8_t head[32], const uint8_t sig[64])
    __attribute__((warn_unused_result));
void evlog_checkpoint_sign(const uint8_t sk[64], const char *game_id, uint64_t record,
                           const uint8_t head[32], uint8_t sig[64]);
/* The CHECKPOINT payload (LogCheckpoint{record, head, signature}, canonical) signing
 * `head` as record `record`'s chain hash. Returns its length (at most EVLOG_CHECKPOINT_MAX). */
#define EVLOG_CHECKPOINT_MAX 128
size_t evlog_checkpoint_payload(const uint8_t sk[64], const char *game_id, uint64_t record,
                                const uint8_t head[32], uint8_t out[EVLOG_CHECKPOINT_MAX]);

/* chain = BLAKE2b-256(prev || kind || u32 le len || payload); prev of record 0 = 32 zero bytes. */
void evlog_chain(const uint8_t prev[32], uint8_t kind, const uint8_t *payload, uint32_t len,
                 uint8_t out[32]);

/* ---- I/O shim: tests replace these to inject faults, drop or tear writes. ---- */
typedef struct evlog_io {
    ssize_t (*write)(int fd, const void *buf, size_t len);
    int (*fdatasync)(int fd);
    int (*ftruncate)(int fd, off_t len);
    int (*fsync_dir)(const char *dir);
} evlog_io;
extern const evlog_io evlog_io_default;
/* Install a shim (NULL restores the default). Not thread-safe; for tests. */
void evlog_io_set(const evlog_io *io);
/* The shim in use: other durable files of the daemon (its journal, daemon/journal.c)
 * go through it too, so that the same faults reach them. */
const evlog_io *evlog_io_get(void);

/* ---- writer --------------------------------------------------------------- */
typedef struct evlog evlog;

/* Create a new log (O_EXCL) holding the file header and the header record, synced
 * together with its directory. NULL on failure with err filled. */
evlog *evlog_create(const char *path, const uint8_t *header, size_t len, char *err, size_t errlen);

/* Scan result of evlog_open / evlog_reader. */
typedef struct evlog_scan {
    uint64_t records;         /* valid records kept */
    uint64_t valid_bytes;     /* length of the valid prefix */
    uint64_t file_bytes;      /* length found on disk */
    int torn_tail;            /* 1 if bytes after the valid prefix were (or would be) cut */
    int damaged;              /* 1 if damage before the end: refused */
    uint64_t bad_record;      /* index of the first bad record */
    uint64_t bad_offset;      /* its byte offset */
    char reason[160];         /* what differs, for people */
} evlog_scan;

/* Open an existing log for appending: verifies the chain, cuts a torn tail
 * (ftruncate + fdatasync; it was never acknowledged) and refuses a log damaged
 * in the middle (NULL, scan->damaged set, naming the record and offset). */
evlog *evlog_open(const char *path, evlog_scan *scan);

int evlog_append(evlog *self, uint8_t kind, const uint8_t *payload, size_t len);
/* Write what is buffered and fdatasync. 0 = durable. -1 = the log is poisoned. */
int evlog_sync(evlog *self) __attribute__((warn_unused_result));
/* evlog_sync in two halves, for a caller that makes many logs durable at once:
 * evlog_sync_write() closes the batch and writes it (no fdatasync); then
 * evlog_sync_flush() fdatasyncs. flush touches only this log and the I/O hooks,
 * so the flushes of different logs may run on different threads at the same
 * time; nothing else may use the log between the two calls. Same returns as
 * evlog_sync; a failure of either poisons the log. */
int evlog_sync_write(evlog *self) __attribute__((warn_unused_result));
int evlog_sync_flush(evlog *self) __attribute__((warn_unused_result));
/* "Write, the sync is someone else's" (the daemon's journal, daemon/journal.c):
 * after evlog_sync_write(), evlog_sync_batch() gives the batch just written (its
 * bytes and the file offset where they start; valid until the next call on the
 * log) so that the caller can make a copy durable elsewhere; then, once that copy
 * is durable, evlog_sync_handed() ends the batch without an fdatasync: the log
 * takes appends again and stays "unsynced" (evlog_unsynced) until an fdatasync of
 * its own, evlog_sync_data() (or a later evlog_sync_flush), which may run on
 * another thread like evlog_sync_flush. The poisoning rules are the same: a
 * failed write or fdatasync poisons the log, and no fdatasync is retried. */
int evlog_sync_batch(const evlog *self, uint64_t *offset, const uint8_t **bytes, size_t *len);
int evlog_sync_handed(evlog *self) __attribute__((warn_unused_result));
int evlog_sync_data(evlog *self) __attribute__((warn_unused_result));
int evlog_unsynced(const evlog *self);   /* 1 if written bytes await an fdatasync of the log */
uint64_t evlog_size(const evlog *self);  /* bytes written to the file so far */
/* Append a CHECKPOINT signing the current head (record index = count - 1). */
int evlog_checkpoint(evlog *self, const uint8_t sk[64], const char *game_id);

uint64_t evlog_count(const evlog *self);          /* records so far, buffered included */
const uint8_t *evlog_head(const evlog *self);     /* chain hash of the last record */
int evlog_dirty(const evlog *self);               /* 1 if records await evlog_sync */
int evlog_poisoned(const evlog *self);
int evlog_fd(const evlog *self);
void evlog_destroy(evlog **pself);

/* ---- reader (replay, verify, recovery) -------------------------------------- */
typedef struct evlog_record {
    uint64_t index;
    uint64_t offset;
    uint8_t kind;
    const uint8_t *payload;   /* points into the reader's copy of the file */
    uint32_t len;
    uint8_t chain[32];
} evlog_record;

typedef struct evlog_reader evlog_reader;

/* Reads the whole file (or a memory image) and checks the chain as it goes. */
evlog_reader *evlog_reader_open(const char *path, char *err, size_t errlen);
evlog_reader *evlog_reader_from_memory(const uint8_t *data, size_t len);
/* 1 = a record, 0 = clean end, -1 = damage (see evlog_reader_scan for what and where). */
int evlog_reader_next(evlog_reader *self, evlog_record *rec);
const evlog_scan *evlog_reader_scan(const evlog_reader *self);
void evlog_reader_rewind(evlog_reader *self);
void evlog_reader_destroy(evlog_reader **pself);

#endif
