/*
 * evlog.c - the per-game append-only event log with a BLAKE2b hash chain.
 *
 * ON-DISK FORMAT (format 1). All integers are little-endian. docs/log-format.md
 * repeats this with the recovery rules and examples.
 *
 *   File header, 16 bytes, written once by evlog_create():
 *
 *     offset  size  field
 *     0       8     magic, the ASCII bytes "BRTHRLOG" (42 52 54 48 52 4c 4f 47), no terminator
 *     8       4     format, u32 le, = 1
 *     12      4     reserved, u32 le, = 0
 *
 *   Then records, back to back, starting at offset 16. Record i:
 *
 *     offset  size  field
 *     0       4     N, u32 le: payload length, 0 <= N <= EVLOG_MAX_PAYLOAD (16 MiB)
 *     4       1     kind, u8: EVLOG_HEADER .. EVLOG_CHECKPOINT (evlog.h)
 *     5       N     payload: the protobuf message of that kind (berthier.v1.Log*)
 *     5+N     32    chain[i] = BLAKE2b-256(chain[i-1] || kind || N as u32 le || payload)
 *                   (unkeyed, 32-byte digest); chain[-1] = 32 zero bytes
 *
 *   A record therefore takes N + 37 bytes. Record 0 is always a HEADER (LogHeader)
 *   and no other record is. Nothing else is ever in the file: no padding, no index,
 *   no footer. The chain head (chain of the last record) names the whole log; a
 *   CHECKPOINT record's payload is LogCheckpoint{record, head, signature} where
 *   signature = Ed25519 (detached) by the daemon's signing key over
 *
 *     "berthier-ckpt-v1" (16 ASCII bytes) || game_id (its bytes, no terminator)
 *       || record (u64 le) || head (32 bytes)
 *
 *   and record is the index of the record whose chain is head (the one just
 *   before the CHECKPOINT).
 *
 * WRITING. evlog_append() only adds the record to an in-memory buffer and moves
 * the head. evlog_sync() writes the whole buffer at the end of the file (looping
 * on short writes) and fdatasyncs. A failure of either poisons the log: every
 * later append, sync or checkpoint fails. We never retry an fdatasync: after a
 * failed one the kernel may have dropped the dirty pages and a second call can
 * succeed without the data being on disk (the "fsyncgate" problem), so
 * acknowledging after a retry could acknowledge lost records. evlog_create()
 * makes the file with O_EXCL, writes the file header and record 0, fdatasyncs
 * and fsyncs the directory so the name is durable too.
 *
 * BATCHES. evlog_sync() ends every batch it writes with a SYNC record (kind 33,
 * empty payload), and evlog_create() writes the HEADER followed by a SYNC. The
 * bytes of a batch are written and then fdatasynced; the daemon acknowledges
 * nothing of a batch before its fdatasync returned, and it never starts writing
 * a batch before the previous one was synced. So a crash or power loss can only
 * damage the last batch (its writes dropped, reordered or torn at any sector),
 * and a batch followed by a complete later batch was durable.
 *
 * JOURNAL MODE (daemon/journal.c). evlog_sync_write + evlog_sync_batch +
 * evlog_sync_handed: the batch is written here and made durable by the caller
 * elsewhere (the daemon's journal holds a copy with its offset); the log's own
 * fdatasync comes later (evlog_sync_data, or any evlog_sync_flush). Then the
 * rule above does not hold on this file's blocks alone: after a power loss it
 * may lack several batches, and the caller must put them back (the journal's
 * recovery writes the same bytes at the same offsets) before evlog_open.
 *
 * RECOVERY (evlog_open, evlog_reader). The whole file is analysed first:
 *   1. The records are walked from the start, checking each length, kind and
 *      chain link. D is the end of the last valid SYNC record.
 *   2. If the walk reaches the end of the file at D: the log is clean.
 *   3. If it reaches the end of the file past D (records without their SYNC) or
 *      meets a bad record at offset X: is there a complete later batch after X?
 *      The bytes after X are searched for records that link to the 32 bytes just
 *      before them (not to X, whose length or trailer may be the damaged part).
 *      When two or more such SYNC records follow X, a batch was completed after
 *      X's batch, so X's batch was durable: DAMAGE, the log is refused, naming
 *      the record and its offset. Otherwise the damage is confined to the last
 *      batch: TORN TAIL, and the valid prefix ends at D.
 *   4. Whatever the chain says, a record 0 that is not a HEADER, a HEADER
 *      elsewhere or an unknown kind is DAMAGE.
 * evlog_open() cuts a torn tail (ftruncate to D + fdatasync), which also drops
 * valid records of a batch whose SYNC never made it: a batch is all or nothing,
 * so an input is never left without its outcomes. A file holding no complete
 * HEADER + SYNC (empty, a torn file header, a torn record 0) was never
 * acknowledged (evlog_create returns only after the sync): evlog_open() refuses
 * it with damaged = 0, torn_tail = 1 and records = 0, and leaves the file alone.
 * The reader returns records up to the valid end, never SYNC records (their
 * indexes still count), and then 0 (clean or torn tail) or -1 (damage).
 */
#include "evlog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"

#define REC_OVERHEAD (4 + 1 + EVLOG_HASH)
#define CKPT_DOMAIN "berthier-ckpt-v1"
#define CKPT_DOMAIN_LEN 16

/* ---- names, chain, checkpoints ------------------------------------------------ */

const char *evlog_kind_name(uint8_t kind) {
    switch (kind) {
    case EVLOG_HEADER: return "HEADER";
    case EVLOG_JOIN: return "JOIN";
    case EVLOG_ORDER: return "ORDER";
    case EVLOG_TIMEOUT: return "TIMEOUT";
    case EVLOG_RESIGN: return "RESIGN";
    case EVLOG_NONCE: return "NONCE";
    case EVLOG_ABORT: return "ABORT";
    case EVLOG_DICE: return "DICE";
    case EVLOG_EVENT: return "EVENT";
    case EVLOG_STATE: return "STATE";
    case EVLOG_END: return "END";
    case EVLOG_REVEAL: return "REVEAL";
    case EVLOG_CHECKPOINT: return "CHECKPOINT";
    case EVLOG_SYNC: return "SYNC";
    default: return "UNKNOWN";
    }
}

static int s_kind_known(uint8_t kind) { return strcmp(evlog_kind_name(kind), "UNKNOWN") != 0; }

static void s_put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t s_get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void evlog_chain(const uint8_t prev[32], uint8_t kind, const uint8_t *payload, uint32_t len,
                 uint8_t out[32]) {
    crypto_generichash_state st;
    uint8_t n[4];
    s_put_u32(n, len);
    crypto_generichash_init(&st, NULL, 0, EVLOG_HASH);
    crypto_generichash_update(&st, prev, EVLOG_HASH);
    crypto_generichash_update(&st, &kind, 1);
    crypto_generichash_update(&st, n, 4);
    if (len) crypto_generichash_update(&st, payload, len);
    crypto_generichash_final(&st, out, EVLOG_HASH);
}

/* The signed message; returns its length, 0 if game_id is absurdly long. */
static size_t s_ckpt_message(const char *game_id, uint64_t record, const uint8_t head[32],
                             uint8_t *msg, size_t cap) {
    size_t idlen = game_id ? strlen(game_id) : 0;
    size_t need = CKPT_DOMAIN_LEN + idlen + 8 + EVLOG_HASH;
    if (need > cap) return 0;
    uint8_t *p = msg;
    memcpy(p, CKPT_DOMAIN, CKPT_DOMAIN_LEN);
    p += CKPT_DOMAIN_LEN;
    if (idlen) memcpy(p, game_id, idlen);
    p += idlen;
    for (int i = 0; i < 8; i++) *p++ = (uint8_t)(record >> (8 * i));
    memcpy(p, head, EVLOG_HASH);
    return need;
}

#define CKPT_MSG_MAX (CKPT_DOMAIN_LEN + 256 + 8 + EVLOG_HASH)

void evlog_checkpoint_sign(const uint8_t sk[64], const char *game_id, uint64_t record,
                           const uint8_t head[32], uint8_t sig[64]) {
    uint8_t msg[CKPT_MSG_MAX];
    size_t n = s_ckpt_message(game_id, record, head, msg, sizeof msg);
    if (n == 0 || sodium_init() < 0) {
        memset(sig, 0, 64); /* never verifies */
        return;
    }
    crypto_sign_detached(sig, NULL, msg, n, sk);
}

int evlog_checkpoint_verify(const uint8_t pk[32], const char *game_id, uint64_t record,
                            const uint8_t head[32], const uint8_t sig[64]) {
    uint8_t msg[CKPT_MSG_MAX];
    size_t n = s_ckpt_message(game_id, record, head, msg, sizeof msg);
    if (n == 0 || sodium_init() < 0) return -1;
    return crypto_sign_verify_detached(sig, msg, n, pk) == 0 ? 0 : -1;
}

/* ---- I/O shim ------------------------------------------------------------------ */

static ssize_t s_default_write(int fd, const void *buf, size_t len) { return write(fd, buf, len); }
static int s_default_fdatasync(int fd) { return fdatasync(fd); }
static int s_default_ftruncate(int fd, off_t len) { return ftruncate(fd, len); }
static int s_default_fsync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

const evlog_io evlog_io_default = {
    .write = s_default_write,
    .fdatasync = s_default_fdatasync,
    .ftruncate = s_default_ftruncate,
    .fsync_dir = s_default_fsync_dir,
};

static const evlog_io *s_io = &evlog_io_default;

void evlog_io_set(const evlog_io *io) { s_io = io ? io : &evlog_io_default; }

const evlog_io *evlog_io_get(void) { return s_io; }

/* ---- the walk shared by evlog_open and the reader -------------------------------- */

static void s_reason(evlog_scan *scan, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_reason(evlog_scan *scan, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(scan->reason, sizeof scan->reason, fmt, ap);
    va_end(ap);
}

static const uint8_t s_file_header[EVLOG_FILE_HEADER] = {
    'B', 'R', 'T', 'H', 'R', 'L', 'O', 'G', EVLOG_FORMAT, 0, 0, 0, 0, 0, 0, 0};

static int s_all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* A well-formed record at p whose chain links to the 32 bytes just before it?
 * Returns its end offset, or 0. */
static size_t s_linked_at(const uint8_t *data, size_t size, size_t p) {
    if (p < EVLOG_HASH || p + REC_OVERHEAD > size) return 0;
    uint32_t n = s_get_u32(data + p);
    if (n > EVLOG_MAX_PAYLOAD || (size_t)n > size - p - REC_OVERHEAD) return 0;
    uint8_t kind = data[p + 4];
    if (!s_kind_known(kind)) return 0;
    uint8_t h[EVLOG_HASH];
    evlog_chain(data + p - EVLOG_HASH, kind, data + p + 5, n, h);
    if (sodium_memcmp(h, data + p + 5 + n, EVLOG_HASH) != 0) return 0;
    return p + REC_OVERHEAD + n;
}

/* How many SYNC records follow the bad record at x and link to the 32 bytes
 * before them (see RECOVERY, step 3)? The bytes after x are searched offset by
 * offset for linked records, jumping over each one found, so that a damaged
 * length, a damaged trailer or a swapped batch cannot hide later batches.
 * A random match would need a BLAKE2b-256 collision. Stops counting at 2. */
static int s_syncs_after(const uint8_t *data, size_t size, size_t x) {
    int syncs = 0;
    size_t q = x + 1;
    while (syncs < 2 && q + REC_OVERHEAD <= size) {
        size_t end = s_linked_at(data, size, q);
        if (!end) {
            q++;
            continue;
        }
        if (data[q + 4] == EVLOG_SYNC) syncs++;
        q = end;
    }
    return syncs;
}

typedef struct walk {
    const uint8_t *data;
    size_t size;
    size_t off;              /* next record's offset (0 before the file header) */
    uint64_t index;          /* next record's index */
    uint8_t prev[EVLOG_HASH];
    int state;               /* 0 walking, 1 clean end (or torn), -1 damaged */
    size_t limit;            /* the valid end found by the analysis */
    int verdict;             /* 0 clean, 1 torn tail at limit, -1 damage at limit */
    evlog_scan scan;         /* the analysis' result; the walk reports it at the end */
    uint64_t records_at_limit;
} walk;

static int s_all_zero_tail(const uint8_t *p, size_t n) { return s_all_zero(p, n); }

/* Step 1-4 of RECOVERY over the whole image; fills w->limit, w->verdict, w->scan. */
static void s_analyse(walk *w) {
    const uint8_t *data = w->data;
    size_t size = w->size;
    evlog_scan *sc = &w->scan;
    sc->file_bytes = size;
    w->limit = 0;
    if (size < EVLOG_FILE_HEADER) {
        if (memcmp(data, s_file_header, size) == 0 || s_all_zero_tail(data, size)) {
            w->verdict = 1;
            sc->torn_tail = 1;
            s_reason(sc, "no complete header record (%s): the log was never created",
                     size ? "torn file header" : "empty file");
        } else {
            w->verdict = -1;
            sc->damaged = 1;
            s_reason(sc, "record 0 at offset 0: bad file header (%zu bytes, not a Berthier log)", size);
        }
        return;
    }
    if (s_all_zero_tail(data, size)) {
        w->verdict = 1;
        sc->torn_tail = 1;
        s_reason(sc, "no complete header record (file holds only zero bytes): the log was never created");
        return;
    }
    const char *fh = NULL;
    uint32_t fmt = s_get_u32(data + 8), res = s_get_u32(data + 12);
    if (memcmp(data, EVLOG_MAGIC, 8) != 0) fh = "magic is not \"BRTHRLOG\"";
    else if (fmt != EVLOG_FORMAT) fh = "format";
    else if (res != 0) fh = "reserved field is not 0";
    if (fh) {
        w->verdict = -1;
        sc->damaged = 1;
        if (strcmp(fh, "format") == 0)
            s_reason(sc, "record 0 at offset 0: bad file header: format %u, this build reads format %d", fmt,
                     EVLOG_FORMAT);
        else
            s_reason(sc, "record 0 at offset 0: bad file header: %s", fh);
        return;
    }
    size_t off = EVLOG_FILE_HEADER, d = 0;
    uint64_t index = 0, d_records = 0;
    uint8_t prev[EVLOG_HASH] = {0};
    const char *bad = NULL;
    char what[120];
    for (;;) {
        size_t rem = size - off;
        if (rem == 0) break;
        if (rem < 5) { bad = "record length and kind incomplete"; break; }
        uint32_t n = s_get_u32(data + off);
        uint8_t kind = data[off + 4];
        if (n > EVLOG_MAX_PAYLOAD) {
            snprintf(what, sizeof what, "payload length %u exceeds the maximum %u", n, EVLOG_MAX_PAYLOAD);
            bad = what;
            break;
        }
        if ((size_t)n + REC_OVERHEAD > rem) { bad = "record runs past end of file"; break; }
        uint8_t h[EVLOG_HASH];
        evlog_chain(prev, kind, data + off + 5, n, h);
        if (sodium_memcmp(h, data + off + 5 + n, EVLOG_HASH) != 0) {
            snprintf(what, sizeof what, "chain hash mismatch (%s, %u bytes)", evlog_kind_name(kind), n);
            bad = what;
            break;
        }
        const char *sem = NULL;
        if (!s_kind_known(kind)) sem = "unknown record kind";
        else if (index == 0 && kind != EVLOG_HEADER) sem = "first record is not HEADER";
        else if (index > 0 && kind == EVLOG_HEADER) sem = "a second HEADER record";
        if (sem) {
            w->verdict = -1;
            sc->damaged = 1;
            sc->bad_record = index;
            sc->bad_offset = off;
            s_reason(sc, "record %llu at offset %llu: %s %u", (unsigned long long)index,
                     (unsigned long long)off, sem, kind);
            w->limit = off;
            sc->records = index;
            sc->valid_bytes = off;
            return;
        }
        memcpy(prev, h, EVLOG_HASH);
        off += REC_OVERHEAD + n;
        index++;
        if (kind == EVLOG_SYNC) {
            d = off;
            d_records = index;
        }
    }
    if (!bad && off == d) {
        w->verdict = 0;
        w->limit = d;
        sc->records = index;
        sc->valid_bytes = d;
        return;
    }
    if (bad && s_syncs_after(data, size, off) >= 2) {
        w->verdict = -1;
        w->limit = off;
        sc->damaged = 1;
        sc->bad_record = index;
        sc->bad_offset = off;
        sc->records = index;
        sc->valid_bytes = off;
        s_reason(sc, "record %llu at offset %llu: %s, and complete batches follow it",
                 (unsigned long long)index, (unsigned long long)off, bad);
        return;
    }
    /* Torn: the last batch is cut back to D. */
    w->verdict = 1;
    w->limit = d;
    sc->torn_tail = 1;
    sc->records = d_records;
    sc->valid_bytes = d ? d : EVLOG_FILE_HEADER;
    sc->bad_record = d_records;
    sc->bad_offset = d ? d : EVLOG_FILE_HEADER;
    if (d == 0) {
        sc->records = 0;
        s_reason(sc, "no complete header record (%s): the log was never created", bad ? bad : "no SYNC");
    } else {
        s_reason(sc, "record %llu at offset %llu: torn tail (%s), %llu bytes of an unconfirmed batch cut",
                 (unsigned long long)d_records, (unsigned long long)d,
                 bad ? bad : "the last batch has no SYNC record", (unsigned long long)(size - d));
    }
}

static void s_walk_init(walk *w, const uint8_t *data, size_t size) {
    memset(w, 0, sizeof *w);
    w->data = data;
    w->size = size;
    s_analyse(w);
}

/* 1 = a record in *rec, 0 = end (clean or torn tail), -1 = damage. */
static int s_walk_next(walk *w, evlog_record *rec) {
    for (;;) {
        if (w->state != 0) return w->state < 0 ? -1 : 0;
        if (w->off == 0) w->off = EVLOG_FILE_HEADER;
        if (w->off >= w->limit || w->limit == 0) {
            w->state = w->verdict < 0 ? -1 : 1;
            return w->state < 0 ? -1 : 0;
        }
        const uint8_t *p = w->data + w->off;
        uint32_t n = s_get_u32(p);
        uint8_t kind = p[4];
        uint8_t h[EVLOG_HASH];
        memcpy(h, p + 5 + n, EVLOG_HASH); /* verified by the analysis */
        uint64_t index = w->index;
        uint64_t offset = w->off;
        memcpy(w->prev, h, EVLOG_HASH);
        w->index++;
        w->off += REC_OVERHEAD + n;
        if (kind == EVLOG_SYNC) continue;
        rec->index = index;
        rec->offset = offset;
        rec->kind = kind;
        rec->payload = p + 5;
        rec->len = n;
        memcpy(rec->chain, h, EVLOG_HASH);
        return 1;
    }
}

/* ---- whole-file reading ------------------------------------------------------------ */

static int s_read_all(int fd, uint8_t **out, size_t *outlen) {
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    if (!S_ISREG(st.st_mode)) {
        errno = EINVAL;
        return -1;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    uint8_t *data = malloc(cap);
    if (!data) return -1;
    for (;;) {
        if (len == cap) {
            uint8_t *d = realloc(data, cap * 2);
            if (!d) {
                free(data);
                return -1;
            }
            data = d;
            cap *= 2;
        }
        ssize_t r = pread(fd, data + len, cap - len, (off_t)len);
        if (r < 0) {
            if (errno == EINTR) continue;
            int saved = errno;
            free(data);
            errno = saved;
            return -1;
        }
        if (r == 0) break;
        len += (size_t)r;
    }
    *out = data;
    *outlen = len;
    return 0;
}

/* ---- writer -------------------------------------------------------------------------- */

struct evlog {
    int fd;
    uint64_t count;            /* records, buffered included */
    uint8_t head[EVLOG_HASH];  /* chain of the last record, buffered included */
    brt_buf pending;           /* encoded records not yet written */
    uint64_t pending_records;
    int poisoned;
    int written;               /* evlog_sync_write done, evlog_sync_flush not yet */
    int unsynced;              /* batches handed (evlog_sync_handed) and not fdatasynced since */
    uint64_t size;             /* bytes written to the file (the next batch's offset) */
};

static evlog *s_evlog_new(int fd) {
    evlog *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->fd = fd;
    buf_init(&self->pending);
    return self;
}

void evlog_destroy(evlog **pself) {
    if (!pself || !*pself) return;
    evlog *self = *pself;
    if (self->fd >= 0) close(self->fd);
    buf_free(&self->pending);
    free(self);
    *pself = NULL;
}

static void s_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Encode a record into the pending buffer and move the head. */
static int s_buffer_record(evlog *self, uint8_t kind, const uint8_t *payload, size_t len) {
    if (len > EVLOG_MAX_PAYLOAD || (len && !payload)) return -1;
    if (self->written) return -1; /* between evlog_sync_write and evlog_sync_flush */
    uint8_t hdr[5];
    s_put_u32(hdr, (uint32_t)len);
    hdr[4] = kind;
    uint8_t h[EVLOG_HASH];
    evlog_chain(self->head, kind, payload, (uint32_t)len, h);
    size_t mark = self->pending.len;
    if (buf_reserve(&self->pending, REC_OVERHEAD + len) != 0) return -1;
    if (buf_append(&self->pending, hdr, 5) != 0 || buf_append(&self->pending, payload, len) != 0 ||
        buf_append(&self->pending, h, EVLOG_HASH) != 0) {
        self->pending.len = mark;
        return -1;
    }
    memcpy(self->head, h, EVLOG_HASH);
    self->count++;
    self->pending_records++;
    return 0;
}

int evlog_append(evlog *self, uint8_t kind, const uint8_t *payload, size_t len) {
    if (!self || self->poisoned) return -1;
    if (!s_kind_known(kind) || kind == EVLOG_HEADER || kind == EVLOG_SYNC) return -1;
    return s_buffer_record(self, kind, payload, len);
}

int evlog_sync(evlog *self) {
    if (evlog_sync_write(self) != 0) return -1;
    return evlog_sync_flush(self);
}

int evlog_sync_write(evlog *self) {
    if (!self || self->poisoned) return -1;
    if (self->pending.len == 0 || self->written) return 0;
    if (s_buffer_record(self, EVLOG_SYNC, NULL, 0) != 0) {
        self->poisoned = 1;
        return -1;
    }
    size_t done = 0;
    while (done < self->pending.len) {
        ssize_t w = s_io->write(self->fd, self->pending.data + done, self->pending.len - done);
        if (w < 0 && errno == EINTR) continue; /* nothing was written */
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            self->poisoned = 1;
            return -1;
        }
        done += (size_t)w;
    }
    self->size += done;
    self->written = 1;
    return 0;
}

int evlog_sync_flush(evlog *self) {
    if (!self || self->poisoned) return -1;
    if (!self->written) return self->pending.len == 0 ? 0 : -1; /* evlog_sync_write first */
    if (s_io->fdatasync(self->fd) != 0) {
        self->poisoned = 1; /* never retried: see the comment at the top */
        return -1;
    }
    buf_reset(&self->pending);
    self->pending_records = 0;
    self->written = 0;
    self->unsynced = 0; /* the fdatasync covered the batches handed before too */
    return 0;
}

int evlog_sync_batch(const evlog *self, uint64_t *offset, const uint8_t **bytes, size_t *len) {
    if (!self || self->poisoned || !self->written) return -1;
    *offset = self->size - self->pending.len;
    *bytes = self->pending.data;
    *len = self->pending.len;
    return 0;
}

int evlog_sync_handed(evlog *self) {
    if (!self || self->poisoned) return -1;
    if (!self->written) return self->pending.len == 0 ? 0 : -1; /* evlog_sync_write first */
    buf_reset(&self->pending);
    self->pending_records = 0;
    self->written = 0;
    self->unsynced = 1;
    return 0;
}

int evlog_sync_data(evlog *self) {
    if (!self || self->poisoned) return -1;
    if (!self->unsynced || self->written) return 0; /* nothing handed, or a batch is in flight */
    if (s_io->fdatasync(self->fd) != 0) {
        self->poisoned = 1; /* never retried */
        return -1;
    }
    self->unsynced = 0;
    return 0;
}

int evlog_unsynced(const evlog *self) { return self && self->unsynced; }
uint64_t evlog_size(const evlog *self) { return self ? self->size : 0; }

size_t evlog_checkpoint_payload(const uint8_t sk[64], const char *game_id, uint64_t record,
                                const uint8_t head[32], uint8_t out[EVLOG_CHECKPOINT_MAX]) {
    uint8_t sig[64], h[EVLOG_HASH];
    evlog_checkpoint_sign(sk, game_id, record, head, sig);
    memcpy(h, head, EVLOG_HASH);
    Berthier__V1__LogCheckpoint ck = BERTHIER__V1__LOG_CHECKPOINT__INIT;
    ck.record = record;
    ck.head.data = h;
    ck.head.len = EVLOG_HASH;
    ck.signature.data = sig;
    ck.signature.len = sizeof sig;
    /* at most 2 + 10 (record) + 2 + 32 (head) + 2 + 64 (signature) = 112 bytes */
    return berthier__v1__log_checkpoint__pack(&ck, out);
}

int evlog_checkpoint(evlog *self, const uint8_t sk[64], const char *game_id) {
    if (!self || self->poisoned || self->count == 0 || !sk || !game_id) return -1;
    uint8_t out[EVLOG_CHECKPOINT_MAX];
    size_t n = evlog_checkpoint_payload(sk, game_id, self->count - 1, self->head, out);
    return s_buffer_record(self, EVLOG_CHECKPOINT, out, n);
}

uint64_t evlog_count(const evlog *self) { return self ? self->count : 0; }
const uint8_t *evlog_head(const evlog *self) { return self ? self->head : NULL; }
int evlog_dirty(const evlog *self) { return self && self->pending.len > 0; }
int evlog_poisoned(const evlog *self) { return self ? self->poisoned : 1; }
int evlog_fd(const evlog *self) { return self ? self->fd : -1; }

static int s_lock(int fd) { return flock(fd, LOCK_EX | LOCK_NB); }

static int s_fsync_parent(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return s_io->fsync_dir(".");
    if (slash == path) return s_io->fsync_dir("/");
    size_t n = (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (!dir) return -1;
    memcpy(dir, path, n);
    dir[n] = 0;
    int rc = s_io->fsync_dir(dir);
    free(dir);
    return rc;
}

evlog *evlog_create(const char *path, const uint8_t *header, size_t len, char *err, size_t errlen) {
    if (!path || (!header && len) || len > EVLOG_MAX_PAYLOAD) {
        s_err(err, errlen, "evlog_create: bad arguments");
        return NULL;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        s_err(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return NULL;
    }
    evlog *self = s_evlog_new(fd);
    if (!self) {
        close(fd);
        unlink(path);
        s_err(err, errlen, "out of memory");
        return NULL;
    }
    if (s_lock(fd) != 0) {
        s_err(err, errlen, "cannot lock %s: %s", path, strerror(errno));
        goto fail;
    }
    if (buf_append(&self->pending, s_file_header, EVLOG_FILE_HEADER) != 0 ||
        s_buffer_record(self, EVLOG_HEADER, header, len) != 0) {
        s_err(err, errlen, "out of memory");
        goto fail;
    }
    if (evlog_sync(self) != 0) {
        s_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    if (s_fsync_parent(path) != 0) {
        s_err(err, errlen, "cannot sync the directory of %s: %s", path, strerror(errno));
        goto fail;
    }
    return self;
fail:
    evlog_destroy(&self);
    unlink(path); /* never acknowledged */
    return NULL;
}

evlog *evlog_open(const char *path, evlog_scan *scan) {
    evlog_scan local;
    if (!scan) scan = &local;
    memset(scan, 0, sizeof *scan);
    int fd = path ? open(path, O_RDWR | O_APPEND | O_CLOEXEC) : -1;
    if (fd < 0) {
        s_reason(scan, "cannot open %s: %s", path ? path : "(null)", strerror(errno));
        return NULL;
    }
    if (s_lock(fd) != 0) {
        s_reason(scan, "cannot lock %s: %s (is another process writing it?)", path, strerror(errno));
        close(fd);
        return NULL;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if (s_read_all(fd, &data, &size) != 0) {
        s_reason(scan, "cannot read %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    walk w;
    s_walk_init(&w, data, size);
    *scan = w.scan;
    /* the head at the valid end */
    evlog_record rec;
    while (s_walk_next(&w, &rec) == 1) {}
    uint8_t head[EVLOG_HASH];
    memcpy(head, w.prev, EVLOG_HASH);
    free(data);
    if (w.verdict < 0 || w.scan.records == 0) {
        close(fd);
        return NULL;
    }
    if (w.scan.valid_bytes < w.scan.file_bytes) {
        if (s_io->ftruncate(fd, (off_t)w.scan.valid_bytes) != 0 || s_io->fdatasync(fd) != 0) {
            s_reason(scan, "record %llu at offset %llu: cannot cut the torn tail: %s",
                     (unsigned long long)scan->bad_record, (unsigned long long)scan->bad_offset,
                     strerror(errno));
            close(fd);
            return NULL;
        }
    }
    evlog *self = s_evlog_new(fd);
    if (!self) {
        close(fd);
        s_reason(scan, "out of memory");
        return NULL;
    }
    self->count = w.scan.records;
    self->size = w.scan.valid_bytes;
    memcpy(self->head, head, EVLOG_HASH);
    return self;
}

/* ---- reader ---------------------------------------------------------------------------- */

struct evlog_reader {
    uint8_t *data;
    size_t size;
    walk w;
};

static evlog_reader *s_reader_take(uint8_t *data, size_t size) {
    evlog_reader *self = calloc(1, sizeof *self);
    if (!self) {
        free(data);
        return NULL;
    }
    self->data = data;
    self->size = size;
    s_walk_init(&self->w, data, size);
    return self;
}

evlog_reader *evlog_reader_open(const char *path, char *err, size_t errlen) {
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0) {
        s_err(err, errlen, "cannot open %s: %s", path ? path : "(null)", strerror(errno));
        return NULL;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = s_read_all(fd, &data, &size);
    int saved = errno;
    close(fd);
    if (rc != 0) {
        s_err(err, errlen, "cannot read %s: %s", path, strerror(saved));
        return NULL;
    }
    evlog_reader *self = s_reader_take(data, size);
    if (!self) s_err(err, errlen, "out of memory");
    return self;
}

evlog_reader *evlog_reader_from_memory(const uint8_t *data, size_t len) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return NULL;
    if (len) memcpy(copy, data, len);
    return s_reader_take(copy, len);
}

int evlog_reader_next(evlog_reader *self, evlog_record *rec) {
    if (!self || !rec) return -1;
    return s_walk_next(&self->w, rec);
}

const evlog_scan *evlog_reader_scan(const evlog_reader *self) { return self ? &self->w.scan : NULL; }

void evlog_reader_rewind(evlog_reader *self) {
    if (self) s_walk_init(&self->w, self->data, self->size);
}

void evlog_reader_destroy(evlog_reader **pself) {
    if (!pself || !*pself) return;
    free((*pself)->data);
    free(*pself);
    *pself = NULL;
}
