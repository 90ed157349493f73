/*
 * journal.c - the daemon's shared write-ahead journal (journal.h).
 *
 * ON-DISK FORMAT (format 1), the file <data-dir>/games/journal. All integers
 * are little-endian. docs/daemon.md "The journal" repeats this with the rules.
 *
 *   File header, 24 bytes, written when the file is made and at every cut:
 *
 *     offset  size  field
 *     0       8     magic, the ASCII bytes "BRTHRJNL" (42 52 54 48 52 4a 4e 4c), no terminator
 *     8       4     format, u32 le, = 1
 *     12      4     reserved, u32 le, = 0
 *     16      8     epoch, u64 le: 1 when the file is made, +1 at every cut
 *
 *   Then frames, back to back, from offset 24; one per commit round that wrote
 *   a batch to some log. Frame k:
 *
 *     offset  size  field
 *     0       4     B, u32 le: the length of what follows up to the hash (12 <= B)
 *     4       8     round, u64 le: the daemon's commit round (for people; not checked)
 *     12      4     count, u32 le: the game batches in the frame (>= 1)
 *     16      ...   count entries, back to back:
 *                     1   L, u8: length of the game id, 1..64
 *                     L   the game id, ASCII [0-9a-f] (the log is <games>/<id>.log)
 *                     8   offset, u64 le: where the batch starts in that log
 *                     4   N, u32 le: the batch's length
 *                     N   the batch: the exact bytes written to the log there (whole
 *                         evlog records, ending with the batch's SYNC record)
 *     4+B     32    hash[k] = BLAKE2b-256 keyed with hash[k-1] (32-byte key) over the
 *                   frame's bytes 0 .. 4+B-1; hash[-1] = BLAKE2b-256 (unkeyed) of the
 *                   24 header bytes, so that frames of an earlier epoch never link
 *
 *   The entries fill the B bytes exactly. Nothing else is in the file.
 *
 * WRITING. A frame is written at the journal's end (looping on short writes)
 * after its batches were written to their logs, and fdatasynced before
 * anything of its round is acknowledged; the next frame is written only after
 * that. So only the last frame can be torn by a crash or a power loss, and it
 * was never acknowledged. A failed write or fdatasync poisons the journal; no
 * fdatasync is retried. The file is made (O_EXCL, header, zeros up to the size
 * asked for, fdatasync, fsync of the directory) at the first frame, so a data
 * dir where no round ever ran has no journal. The zeros are there so that the
 * frames overwrite blocks that already exist: the fdatasync of a write that
 * neither extends the file nor allocates blocks has no metadata to commit,
 * which on a journalling file system (ext4) is much of its cost.
 *
 * CUT. Once every log named by the journal's frames has been fdatasynced, the
 * journal is emptied: the header with epoch + 1 is written over the old one and
 * fdatasynced, and the next frame goes at offset 24. The bytes after it (older
 * frames, zeros) stay: a frame of an older epoch never links to the new header's
 * hash. A crash before the new header is durable leaves the old one, whose frames
 * are then replayed once more: harmless, their logs already hold those bytes.
 *
 * RECOVERY (journal_open, journal_recover), before any log is opened:
 *   1. A file shorter than the header, or holding only zero bytes, is empty.
 *      A bad magic, format or reserved field refuses the start.
 *   2. Frames are read from offset 24 while each one is complete and its hash
 *      links; the first that does not is the torn tail (dropped with all after
 *      it). A frame whose hash links but whose entries do not parse refuses
 *      the start (it cannot have been torn).
 *   3. For each batch in order: the log <games>/<id>.log must be at least
 *      `offset` bytes long (else bytes fdatasynced before the last cut are
 *      missing: the start is refused); where its bytes at offset differ from
 *      the batch's (or are missing), the batch is written there. A log that is
 *      not there at all was moved out by an operator (a log is created durable
 *      before any batch of it): its batches are left out, and counted.
 *   4. Every log named is fdatasynced, then the journal is cut.
 * A crash anywhere in 3-4 leaves the journal as it was; the next start does the
 * same again (writing the same bytes at the same offsets). After recovery each
 * log holds everything acknowledged, followed at most by the one batch of the
 * round that was cut short (written but not in a complete frame), which
 * evlog_open treats as it always did (kept if whole, cut if torn).
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "evlog.h"

#define FRAME_FIXED 16   /* B, round, count */

struct bd_journal {
    char *path;
    int fd;                     /* -1 until the file exists */
    uint64_t size;              /* the end of the last frame (of the header after a cut) */
    size_t prealloc;            /* zeros written when the file is made */
    uint64_t epoch;
    uint8_t prev[JOURNAL_HASH]; /* hash of the last frame (or of the header) */
    brt_buf frame;              /* the round's frame being built */
    uint32_t count;
    uint64_t round;
    int poisoned;
};

static void s_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static void s_put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void s_put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t s_get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t s_get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void s_header(uint64_t epoch, uint8_t out[JOURNAL_HEADER]) {
    memcpy(out, JOURNAL_MAGIC, 8);
    s_put_u32(out + 8, JOURNAL_FORMAT);
    s_put_u32(out + 12, 0);
    s_put_u64(out + 16, epoch);
}

static void s_header_hash(const uint8_t hdr[JOURNAL_HEADER], uint8_t out[JOURNAL_HASH]) {
    crypto_generichash(out, JOURNAL_HASH, hdr, JOURNAL_HEADER, NULL, 0);
}

static void s_frame_hash(const uint8_t prev[JOURNAL_HASH], const uint8_t *p, size_t n, uint8_t out[JOURNAL_HASH]) {
    crypto_generichash(out, JOURNAL_HASH, p, n, prev, JOURNAL_HASH);
}

/* Write all of p at the fd's position, through the shim. */
static int s_write_all(int fd, const uint8_t *p, size_t n) {
    const evlog_io *io = evlog_io_get();
    size_t done = 0;
    while (done < n) {
        ssize_t w = io->write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* Empty the journal: a fresh header with `epoch` over the old one, fdatasync; the
 * next frame goes right after it. */
static int s_cut(int fd, uint64_t epoch) {
    const evlog_io *io = evlog_io_get();
    uint8_t hdr[JOURNAL_HEADER];
    s_header(epoch, hdr);
    if (lseek(fd, 0, SEEK_SET) != 0) return -1;
    if (s_write_all(fd, hdr, sizeof hdr) != 0) return -1;
    return io->fdatasync(fd);
}

/* Read exactly n bytes at off: 0, or -1 (an error, or the file ends first). */
static int s_pread_all(int fd, uint8_t *p, size_t n, size_t off) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, p + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r == 0) errno = EIO;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static int s_id_ok(const uint8_t *id, size_t n) {
    if (n == 0 || n > JOURNAL_ID_MAX) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f'))) return 0;
    return 1;
}

/* ---- recovery ---------------------------------------------------------------- */

typedef struct s_log {
    char id[JOURNAL_ID_MAX + 1];
    int fd;
    uint64_t size;   /* its size when opened, then the end of the last batch put in */
} s_log;

typedef struct s_logs {
    s_log *v;
    size_t n, cap;
} s_logs;

static void s_logs_close(s_logs *ls) {
    for (size_t i = 0; i < ls->n; i++)
        if (ls->v[i].fd >= 0) close(ls->v[i].fd);
    free(ls->v);
    memset(ls, 0, sizeof *ls);
}

static s_log *s_logs_get(s_logs *ls, const char *games_dir, const uint8_t *id, size_t idlen, char *err,
                         size_t errlen) {
    for (size_t i = 0; i < ls->n; i++)
        if (strlen(ls->v[i].id) == idlen && memcmp(ls->v[i].id, id, idlen) == 0) return &ls->v[i];
    if (ls->n == ls->cap) {
        size_t c = ls->cap ? ls->cap * 2 : 16;
        s_log *p = realloc(ls->v, c * sizeof *p);
        if (!p) {
            s_err(err, errlen, "out of memory");
            return NULL;
        }
        ls->v = p;
        ls->cap = c;
    }
    s_log *l = &ls->v[ls->n];
    memcpy(l->id, id, idlen);
    l->id[idlen] = 0;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.log", games_dir, l->id);
    l->fd = open(path, O_RDWR | O_CLOEXEC);
    if (l->fd < 0 && errno == ENOENT) {   /* moved out by an operator: its batches are left out */
        l->size = 0;
        ls->n++;
        return l;
    }
    if (l->fd < 0) {
        s_err(err, errlen, "the journal holds batches of %s, which cannot be opened: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(l->fd, &st) != 0) {
        s_err(err, errlen, "cannot stat %s: %s", path, strerror(errno));
        close(l->fd);
        return NULL;
    }
    l->size = (uint64_t)st.st_size;
    ls->n++;
    return l;
}

/* Make the log hold exactly bytes[0..n) at offset. 1 = written, 0 = it held them, -1 = error. */
static int s_put_batch(s_log *l, const char *games_dir, uint64_t offset, const uint8_t *bytes, size_t n, char *err,
                       size_t errlen) {
    if (offset > l->size) {
        s_err(err, errlen,
              "%s/%s.log is %llu bytes long, but the journal's batch for it starts at offset %llu: bytes made "
              "durable before the journal was last cut are missing",
              games_dir, l->id, (unsigned long long)l->size, (unsigned long long)offset);
        return -1;
    }
    int same = 0;
    if (offset + n <= l->size) {
        uint8_t *have = malloc(n ? n : 1);
        if (!have) {
            s_err(err, errlen, "out of memory");
            return -1;
        }
        size_t got = 0;
        while (got < n) {
            ssize_t r = pread(l->fd, have + got, n - got, (off_t)(offset + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            got += (size_t)r;
        }
        same = got == n && memcmp(have, bytes, n) == 0;
        free(have);
    }
    if (!same) {
        if (lseek(l->fd, (off_t)offset, SEEK_SET) != (off_t)offset || s_write_all(l->fd, bytes, n) != 0) {
            s_err(err, errlen, "cannot write the journal's batch into %s/%s.log at offset %llu: %s", games_dir, l->id,
                  (unsigned long long)offset, strerror(errno));
            return -1;
        }
    }
    if (offset + n > l->size) l->size = offset + n;
    return same ? 0 : 1;
}

/* Recovery on an open journal file; *epoch is set to the epoch the cut wrote. */
static int s_recover_fd(int fd, const char *path, const char *games_dir, journal_stats *st, uint64_t *epoch,
                        char *err, size_t errlen) {
    /* Read frame by frame, not the whole file: most of it is zeros or older frames. */
    struct stat sst;
    if (fstat(fd, &sst) != 0) {
        s_err(err, errlen, "cannot stat %s: %s", path, strerror(errno));
        return -1;
    }
    size_t size = (size_t)sst.st_size;
    uint8_t hdr[JOURNAL_HEADER] = {0};
    int zero = 1;
    if (size >= JOURNAL_HEADER) {
        if (s_pread_all(fd, hdr, JOURNAL_HEADER, 0) != 0) {
            s_err(err, errlen, "cannot read %s: %s", path, strerror(errno));
            return -1;
        }
        for (size_t i = 0; i < JOURNAL_HEADER && zero; i++) zero = hdr[i] == 0;
    }
    if (size < JOURNAL_HEADER || zero) {
        /* made, and stopped before its header was durable: nothing in it */
        *epoch = 1;
        if (s_cut(fd, *epoch) != 0) {
            s_err(err, errlen, "cannot rewrite the header of %s: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (memcmp(hdr, JOURNAL_MAGIC, 8) != 0 || s_get_u32(hdr + 8) != JOURNAL_FORMAT || s_get_u32(hdr + 12) != 0) {
        s_err(err, errlen, "%s: bad header (not a Berthier journal of format %d)", path, JOURNAL_FORMAT);
        return -1;
    }
    uint64_t ep = s_get_u64(hdr + 16);
    uint8_t prev[JOURNAL_HASH];
    s_header_hash(hdr, prev);
    s_logs logs = {0};
    size_t off = JOURNAL_HEADER;
    int rc = 0;
    brt_buf fb;   /* the frame being read */
    buf_init(&fb);
    for (;;) {
        size_t rem = size - off;
        if (rem < 4 + FRAME_FIXED - 4 + JOURNAL_HASH) break;
        uint8_t lb[4];
        if (s_pread_all(fd, lb, 4, off) != 0) break;
        uint32_t b = s_get_u32(lb);
        if (b == 0) break;   /* zeros: space not used yet */
        st->torn_bytes = rem < 4 + (size_t)b + JOURNAL_HASH ? rem : 4 + (size_t)b + JOURNAL_HASH;
        if (b < FRAME_FIXED - 4 || (size_t)b > rem - 4 - JOURNAL_HASH) break;
        buf_reset(&fb);
        if (buf_reserve(&fb, 4 + (size_t)b + JOURNAL_HASH) != 0) {
            s_err(err, errlen, "out of memory reading %s", path);
            rc = -1;
            break;
        }
        if (s_pread_all(fd, fb.data, 4 + (size_t)b + JOURNAL_HASH, off) != 0) break;
        const uint8_t *data = fb.data;
        uint8_t h[JOURNAL_HASH];
        s_frame_hash(prev, data, 4 + (size_t)b, h);
        if (sodium_memcmp(h, data + 4 + b, JOURNAL_HASH) != 0) break;
        st->torn_bytes = 0;
        /* a complete frame: its batches were acknowledged (or were about to be) */
        const uint8_t *p = data + 4, *end = p + b;
        uint32_t count = s_get_u32(p + 8);
        p += 12;
        const char *bad = count == 0 ? "no batches" : NULL;
        for (uint32_t i = 0; i < count && !bad; i++) {
            if (end - p < 1) { bad = "entry cut short"; break; }
            size_t idlen = *p++;
            if ((size_t)(end - p) < idlen + 12) { bad = "entry cut short"; break; }
            if (!s_id_ok(p, idlen)) { bad = "bad game id"; break; }
            const uint8_t *id = p;
            p += idlen;
            uint64_t boff = s_get_u64(p);
            uint32_t n = s_get_u32(p + 8);
            p += 12;
            if ((size_t)(end - p) < n) { bad = "batch cut short"; break; }
            s_log *l = s_logs_get(&logs, games_dir, id, idlen, err, errlen);
            if (!l) { rc = -1; break; }
            if (l->fd < 0) {
                if (!st->skipped) snprintf(st->skipped_id, sizeof st->skipped_id, "%s", l->id);
                st->skipped++;
                p += n;
                continue;
            }
            int put = s_put_batch(l, games_dir, boff, p, n, err, errlen);
            if (put < 0) { rc = -1; break; }
            st->batches++;
            st->rewritten += (uint64_t)put;
            p += n;
        }
        if (rc != 0) break;
        if (!bad && p != end) bad = "bytes after the last entry";
        if (bad) {
            s_err(err, errlen, "%s: frame %llu at offset %zu is complete but malformed (%s)", path,
                  (unsigned long long)st->frames, off, bad);
            rc = -1;
            break;
        }
        memcpy(prev, h, JOURNAL_HASH);
        st->frames++;
        off += 4 + (size_t)b + JOURNAL_HASH;
    }
    buf_free(&fb);
    if (rc == 0) {
        const evlog_io *io = evlog_io_get();
        for (size_t i = 0; i < logs.n && rc == 0; i++) {
            if (logs.v[i].fd < 0) continue;
            if (io->fdatasync(logs.v[i].fd) != 0) {
                s_err(err, errlen, "cannot fdatasync %s/%s.log after putting the journal's batches in: %s",
                      games_dir, logs.v[i].id, strerror(errno));
                rc = -1;
            }
            st->logs++;
        }
    }
    s_logs_close(&logs);
    if (rc != 0) return -1;
    *epoch = ep + 1;
    if (s_cut(fd, *epoch) != 0) {
        s_err(err, errlen, "cannot cut %s after recovery: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Opens and recovers; *fd = -1 if there is no journal. */
static int s_recover(const char *path, const char *games_dir, journal_stats *st, int *fd, uint64_t *epoch, char *err,
                     size_t errlen) {
    *fd = open(path, O_RDWR | O_CLOEXEC);
    if (*fd < 0) {
        if (errno == ENOENT) return 0;
        s_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (s_recover_fd(*fd, path, games_dir, st, epoch, err, errlen) != 0) {
        close(*fd);
        *fd = -1;
        return -1;
    }
    return 0;
}

int journal_recover(const char *path, const char *games_dir, journal_stats *stats, char *err, size_t errlen) {
    journal_stats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    int fd;
    uint64_t epoch = 0;
    if (s_recover(path, games_dir, stats, &fd, &epoch, err, errlen) != 0) return -1;
    if (fd >= 0) close(fd);
    return 0;
}

bd_journal *journal_open(const char *path, const char *games_dir, size_t prealloc, journal_stats *stats, char *err,
                         size_t errlen) {
    journal_stats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    if (sodium_init() < 0) {
        s_err(err, errlen, "libsodium did not initialise");
        return NULL;
    }
    bd_journal *self = calloc(1, sizeof *self);
    if (!self || !(self->path = strdup(path))) {
        free(self);
        s_err(err, errlen, "out of memory");
        return NULL;
    }
    buf_init(&self->frame);
    self->prealloc = prealloc;
    if (s_recover(path, games_dir, stats, &self->fd, &self->epoch, err, errlen) != 0) {
        journal_destroy(&self);
        return NULL;
    }
    if (self->fd >= 0) {
        uint8_t hdr[JOURNAL_HEADER];
        s_header(self->epoch, hdr);
        s_header_hash(hdr, self->prev);
        self->size = JOURNAL_HEADER;
    }
    return self;
}

void journal_destroy(bd_journal **pself) {
    if (!pself || !*pself) return;
    bd_journal *self = *pself;
    if (self->fd >= 0) close(self->fd);
    buf_free(&self->frame);
    free(self->path);
    free(self);
    *pself = NULL;
}

/* ---- writing ------------------------------------------------------------------ */

void journal_begin(bd_journal *self, uint64_t round) {
    buf_reset(&self->frame);
    self->count = 0;
    self->round = round;
}

int journal_add(bd_journal *self, const char *game_id, uint64_t offset, const uint8_t *bytes, size_t len) {
    if (!self || self->poisoned || !game_id) return -1;
    size_t idlen = strlen(game_id);
    if (!s_id_ok((const uint8_t *)game_id, idlen) || len > UINT32_MAX) return -1;
    if (self->frame.len == 0) {
        uint8_t fixed[FRAME_FIXED] = {0};
        if (buf_append(&self->frame, fixed, sizeof fixed) != 0) return -1;
    }
    size_t need = 1 + idlen + 12 + len;
    if (self->frame.len + need > (size_t)UINT32_MAX - JOURNAL_HASH) return -1;
    uint8_t l = (uint8_t)idlen, num[12];
    s_put_u64(num, offset);
    s_put_u32(num + 8, (uint32_t)len);
    size_t mark = self->frame.len;
    if (buf_reserve(&self->frame, need) != 0 || buf_append(&self->frame, &l, 1) != 0 ||
        buf_append(&self->frame, game_id, idlen) != 0 || buf_append(&self->frame, num, sizeof num) != 0 ||
        buf_append(&self->frame, bytes, len) != 0) {
        self->frame.len = mark;
        return -1;
    }
    self->count++;
    return 0;
}

size_t journal_pending(const bd_journal *self) { return self ? self->count : 0; }

/* Make the file: header, zeros up to prealloc, fdatasync, directory fsync. */
static int s_create(bd_journal *self) {
    const evlog_io *io = evlog_io_get();
    self->fd = open(self->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (self->fd < 0) return -1;
    self->epoch = 1;
    uint8_t hdr[JOURNAL_HEADER];
    s_header(self->epoch, hdr);
    /* the header and the zeros in one write (one call for the fault injection to count) */
    size_t n = self->prealloc > JOURNAL_HEADER ? self->prealloc : JOURNAL_HEADER;
    uint8_t *first = calloc(1, n);
    if (!first) return -1;
    memcpy(first, hdr, sizeof hdr);
    int wrc = s_write_all(self->fd, first, n);
    free(first);
    if (wrc != 0) return -1;
    if (lseek(self->fd, JOURNAL_HEADER, SEEK_SET) != JOURNAL_HEADER) return -1;
    if (io->fdatasync(self->fd) != 0) return -1;
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", self->path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    if (io->fsync_dir(slash ? dir : ".") != 0) return -1;
    s_header_hash(hdr, self->prev);
    self->size = JOURNAL_HEADER;
    return 0;
}

int journal_write(bd_journal *self) {
    if (!self || self->poisoned) return -1;
    if (self->count == 0) return 0;
    if (self->fd < 0 && s_create(self) != 0) {
        self->poisoned = 1;
        return -1;
    }
    uint8_t *f = self->frame.data;
    s_put_u32(f, (uint32_t)(self->frame.len - 4));
    s_put_u64(f + 4, self->round);
    s_put_u32(f + 12, self->count);
    uint8_t h[JOURNAL_HASH];
    s_frame_hash(self->prev, f, self->frame.len, h);
    if (buf_append(&self->frame, h, sizeof h) != 0) return -1;   /* nothing written yet */
    if (s_write_all(self->fd, self->frame.data, self->frame.len) != 0) {
        self->poisoned = 1;
        return -1;
    }
    memcpy(self->prev, h, JOURNAL_HASH);
    self->size += self->frame.len;
    self->count = 0;
    buf_reset(&self->frame);
    return 0;
}

int journal_flush(bd_journal *self) {
    if (!self || self->poisoned) return -1;
    if (self->fd < 0) return 0;
    if (evlog_io_get()->fdatasync(self->fd) != 0) {
        self->poisoned = 1;   /* never retried */
        return -1;
    }
    return 0;
}

int journal_cut(bd_journal *self) {
    if (!self || self->poisoned) return -1;
    if (self->fd < 0 || self->size == JOURNAL_HEADER) return 0;
    if (s_cut(self->fd, self->epoch + 1) != 0) {
        self->poisoned = 1;
        return -1;
    }
    self->epoch++;
    uint8_t hdr[JOURNAL_HEADER];
    s_header(self->epoch, hdr);
    s_header_hash(hdr, self->prev);
    self->size = JOURNAL_HEADER;
    return 0;
}

uint64_t journal_size(const bd_journal *self) { return self ? self->size : 0; }
int journal_poisoned(const bd_journal *self) { return self ? self->poisoned : 1; }
