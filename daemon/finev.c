/* finev.c - the record index of a finished game, <id>.evx (see finev.h; the format byte
 * by byte is in docs/log-format.md "Finished-game index"):
 *
 *   offset  size  field
 *   0       8     magic, the ASCII bytes "BRTHREVX", no terminator
 *   8       4     format, u32 le, = 1
 *   12      4     E, u32 le: entries (EVENT records)
 *   16      8     log_bytes, u64 le: size of <id>.log
 *   24      32    head: chain hash of the log's last record (its last 32 bytes)
 *   56      8     header_offset, u64 le: where record 0's payload starts (21)
 *   64      4     header_len, u32 le
 *   68      4     ckpt_len, u32 le: the last CHECKPOINT's payload length (0: none)
 *   72      8     ckpt_offset, u64 le: where its payload starts (0: none)
 *   80      8     ckpt_record, u64 le: its record index
 *   88      8     reserved, 0
 *   96      32    ruleset_version: LogHeader.ruleset_version, zero padded
 *   128     32*E  entries, in log order:
 *                   0  8 seq (LogEvent.seq)      8  4 index (LogEvent.index)
 *                   12 4 visible (LogEvent.visible) 16 8 offset of the payload
 *                   24 4 length of the payload   28 4 reserved, 0
 *   128+32E 32    BLAKE2b-256 (unkeyed) of bytes 0 .. 128+32E-1
 *
 * Nothing follows the checksum. */
#include "finev.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "finidx.h"

enum { S_FIXED = 128, S_ENTRY = 32, S_REC = 5 };   /* S_REC: a record's length and kind */

static void s_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void s_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t s_g32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t s_g64(const uint8_t *p) { return (uint64_t)s_g32(p) | (uint64_t)s_g32(p + 4) << 32; }

static void s_err(char *err, size_t errlen, const char *msg, const char *path) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, msg);
}

static int s_push(bd_finev *self, size_t *cap, const bd_finev_entry *e) {
    if (self->n == *cap) {
        size_t c = *cap ? *cap * 2 : 256;
        bd_finev_entry *p = realloc(self->e, c * sizeof *p);
        if (!p) return -1;
        self->e = p;
        *cap = c;
    }
    self->e[self->n++] = *e;
    return 0;
}

bd_finev *finev_build(const char *path, char *err, size_t errlen) {
    char rerr[256] = "";
    evlog_reader *rd = evlog_reader_open(path, rerr, sizeof rerr);
    if (!rd) {
        s_err(err, errlen, rerr, path);
        return NULL;
    }
    bd_finev *self = calloc(1, sizeof *self);
    size_t cap = 0;
    int rc = self ? 1 : -2, have_header = 0;
    evlog_record r;
    while (rc == 1 && (rc = evlog_reader_next(rd, &r)) == 1) {
        if (r.kind == EVLOG_HEADER && r.index == 0) {
            Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, r.len, r.payload);
            if (!h) {
                rc = -3;
                break;
            }
            snprintf(self->version, sizeof self->version, "%s", h->ruleset_version ? h->ruleset_version : "");
            berthier__v1__log_header__free_unpacked(h, NULL);
            self->header_offset = r.offset + S_REC;
            self->header_len = r.len;
            have_header = 1;
        } else if (r.kind == EVLOG_CHECKPOINT) {
            self->ckpt_offset = r.offset + S_REC;
            self->ckpt_len = r.len;
            self->ckpt_record = r.index;
        } else if (r.kind == EVLOG_EVENT) {
            /* as the in-memory index: a payload that is no LogEvent is not indexed */
            Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, r.len, r.payload);
            if (!le) continue;
            bd_finev_entry e = {le->seq, le->index, le->visible, r.offset + S_REC, r.len};
            berthier__v1__log_event__free_unpacked(le, NULL);
            if (s_push(self, &cap, &e) != 0) rc = -2;
        }
    }
    const evlog_scan *sc = evlog_reader_scan(rd);
    uint64_t file_bytes = sc->file_bytes;
    int clean = rc == 0 && !sc->torn_tail && !sc->damaged && sc->valid_bytes == file_bytes;
    evlog_reader_destroy(&rd);
    if (!clean || !have_header || file_bytes < EVLOG_FILE_HEADER + 32) {
        s_err(err, errlen,
              rc == -2   ? "out of memory"
              : rc == -3 ? "record 0 is not a LogHeader"
                         : "the log is not whole (damaged, torn or without a header)",
              path);
        finev_destroy(&self);
        return NULL;
    }
    /* the head: the log's last 32 bytes, read from the file that was just read whole */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int ok = fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_size == file_bytes &&
             pread(fd, self->head, 32, (off_t)(file_bytes - 32)) == 32;
    if (fd >= 0) close(fd);
    if (!ok) {
        s_err(err, errlen, "the log changed while it was read", path);
        finev_destroy(&self);
        return NULL;
    }
    self->log_bytes = file_bytes;
    return self;
}

void finev_destroy(bd_finev **pself) {
    if (!pself || !*pself) return;
    free((*pself)->e);
    free(*pself);
    *pself = NULL;
}

int finev_write(const bd_finev *self, const char *path, int sync) {
    if (self->n > UINT32_MAX) return -1;
    size_t total = S_FIXED + S_ENTRY * self->n + 32;
    uint8_t *b = calloc(1, total);
    if (!b) return -1;
    memcpy(b, FINEV_MAGIC, 8);
    s_u32(b + 8, FINEV_FORMAT);
    s_u32(b + 12, (uint32_t)self->n);
    s_u64(b + 16, self->log_bytes);
    memcpy(b + 24, self->head, 32);
    s_u64(b + 56, self->header_offset);
    s_u32(b + 64, self->header_len);
    s_u32(b + 68, self->ckpt_len);
    s_u64(b + 72, self->ckpt_offset);
    s_u64(b + 80, self->ckpt_record);
    memcpy(b + 96, self->version, strlen(self->version));
    uint8_t *p = b + S_FIXED;
    for (size_t i = 0; i < self->n; i++, p += S_ENTRY) {
        const bd_finev_entry *e = &self->e[i];
        s_u64(p, e->seq);
        s_u32(p + 8, e->index);
        s_u32(p + 12, e->visible);
        s_u64(p + 16, e->offset);
        s_u32(p + 24, e->len);
    }
    crypto_generichash(p, 32, b, (size_t)(p - b), NULL, 0);
    int rc = finidx_put_file(path, b, total, sync);
    free(b);
    return rc;
}

/* A payload at `offset` of `len` bytes, with its record's length and kind before it and
 * its chain hash after it, inside a log of `size` bytes. */
static int s_inside(uint64_t offset, uint32_t len, uint64_t size) {
    return offset >= EVLOG_FILE_HEADER + S_REC && offset <= size && (uint64_t)len + 32 <= size - offset;
}

bd_finev *finev_read(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < S_FIXED + 32 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2) {
        close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *b = malloc(n);
    size_t got = 0;
    while (b && got < n) {
        ssize_t r = pread(fd, b + got, n - got, (off_t)got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    bd_finev *self = NULL;
    uint8_t sum[32];
    if (!b || got != n || memcmp(b, FINEV_MAGIC, 8) != 0 || s_g32(b + 8) != FINEV_FORMAT ||
        S_FIXED + (size_t)S_ENTRY * s_g32(b + 12) + 32 != n || b[96 + FINEV_VERSION_MAX - 1] != 0)
        goto done;
    crypto_generichash(sum, 32, b, n - 32, NULL, 0);
    if (sodium_memcmp(sum, b + n - 32, 32) != 0) goto done;
    self = calloc(1, sizeof *self);
    if (!self) goto done;
    self->n = s_g32(b + 12);
    self->e = malloc(self->n ? self->n * sizeof *self->e : 1);
    if (!self->e) {
        finev_destroy(&self);
        goto done;
    }
    self->log_bytes = s_g64(b + 16);
    memcpy(self->head, b + 24, 32);
    self->header_offset = s_g64(b + 56);
    self->header_len = s_g32(b + 64);
    self->ckpt_len = s_g32(b + 68);
    self->ckpt_offset = s_g64(b + 72);
    self->ckpt_record = s_g64(b + 80);
    memcpy(self->version, b + 96, FINEV_VERSION_MAX);
    self->version[FINEV_VERSION_MAX] = 0;
    /* every place it names is a payload inside the log, in log order */
    int ok = s_inside(self->header_offset, self->header_len, self->log_bytes) &&
             (!self->ckpt_offset || s_inside(self->ckpt_offset, self->ckpt_len, self->log_bytes));
    const uint8_t *p = b + S_FIXED;
    for (size_t i = 0; ok && i < self->n; i++, p += S_ENTRY) {
        bd_finev_entry *e = &self->e[i];
        e->seq = s_g64(p);
        e->index = s_g32(p + 8);
        e->visible = s_g32(p + 12);
        e->offset = s_g64(p + 16);
        e->len = s_g32(p + 24);
        ok = s_inside(e->offset, e->len, self->log_bytes) && (!i || e->offset > self->e[i - 1].offset);
    }
    if (!ok) finev_destroy(&self);
done:
    free(b);
    return self;
}

int finev_matches(const bd_finev *self, uint64_t log_bytes, const uint8_t head[32]) {
    return self->log_bytes == log_bytes && memcmp(self->head, head, 32) == 0 ? 0 : -1;
}

/* A record whose payload starts at `offset` begins S_REC bytes before it, and the chain
 * hash of the record before it (none for record 0, at the first record's place) takes
 * the 32 bytes before that. */
static uint64_t s_from(uint64_t offset) {
    uint64_t rec = offset - S_REC;
    return rec >= EVLOG_FILE_HEADER + 32 ? rec - 32 : rec;
}

int finev_span_read(int fd, uint64_t first, uint64_t end, bd_finev_span *s) {
    memset(s, 0, sizeof *s);
    if (first < EVLOG_FILE_HEADER + S_REC || end < first) return -1;
    uint64_t from = s_from(first), to = end + 32;
    if (to - from > (uint64_t)SIZE_MAX / 2) return -1;
    size_t n = (size_t)(to - from);
    s->data = malloc(n ? n : 1);
    if (!s->data) return -1;
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, s->data + got, n - got, (off_t)(from + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got != n) {
        finev_span_free(s);
        return -1;
    }
    s->base = from;
    s->len = n;
    return 0;
}

void finev_span_free(bd_finev_span *s) {
    free(s->data);
    memset(s, 0, sizeof *s);
}

const uint8_t *finev_span_record(const bd_finev_span *s, uint64_t offset, uint32_t len, uint8_t kind) {
    if (!s->data || offset < EVLOG_FILE_HEADER + S_REC) return NULL;
    uint64_t from = s_from(offset);
    if (from < s->base || offset + len + 32 > s->base + s->len || offset + len < offset) return NULL;
    const uint8_t *rec = s->data + (offset - S_REC - s->base);
    if (s_g32(rec) != len || rec[4] != kind) return NULL;
    uint8_t zero[32] = {0}, chain[32];
    const uint8_t *prev = offset - S_REC == EVLOG_FILE_HEADER ? zero : rec - 32;
    evlog_chain(prev, kind, rec + S_REC, len, chain);
    if (memcmp(chain, rec + S_REC + len, 32) != 0) return NULL;
    return rec + S_REC;
}
