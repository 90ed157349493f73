/* finidx.c - the index file of a finished game (see finidx.h; the format
 * byte by byte is in docs/log-format.md "Finished-game index"):
 *
 *   offset  size  field
 *   0       8     magic, the ASCII bytes "BRTHRFIN", no terminator
 *   8       4     format, u32 le, = 2 (1: the same without batch, still read)
 *   12      4     body length B, u32 le (the bytes from offset 16 to the checksum)
 *   16      8     log_bytes, u64 le: size of <id>.log
 *   24      8     records, u64 le: records in the log, SYNC records included
 *   32      32    head: chain hash of the last record (the log's last 32 bytes)
 *   64      8     seq, u64 le: the game's seq at its end
 *   72      1     started, u8 (0 or 1)
 *   73      1     nseats S, u8 (<= BRT_MAX_SEATS)
 *   74      2     nspectators P, u16 le
 *   76      4     bound, u32 le: bit s set = seat s has a key
 *   80      4     winners, u32 le: bit mask, 0 = a draw
 *   84      4     lengths of level, reason, ruleset, scenario, one u8 each
 *   88      8     create_request_id, u64 le: LogHeader.create_request_id (0: none)
 *   96      8     batch, u64 le: the game's dice batch number at its end (format 2 only)
 *   104     ...   level, reason, ruleset, scenario: their bytes, no terminators
 *           32*S  seat keys (32 zero bytes for an unbound seat)
 *           4*S   scores, i32 le
 *           32*P  spectator keys
 *   16+B    32    BLAKE2b-256 (unkeyed) of bytes 0 .. 16+B-1
 *
 * Nothing follows the checksum. */
#include "finidx.h"

#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { S_FIXED1 = 96, S_FIXED = 104, S_MAX_FILE = 1 << 20 };

static size_t s_cut(const char *s) {
    size_t n = s ? strlen(s) : 0;
    return n > 255 ? 255 : n;
}

static void s_copy(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static unsigned s_put_str(uint8_t **p, const uint8_t *base, const char *s, size_t n) {
    unsigned at = (unsigned)(*p - base);
    if (n) memcpy(*p, s, n);
    (*p)[n] = 0;
    *p += n + 1;
    return at;
}

bd_finidx *finidx_new(uint64_t log_bytes, uint64_t records, const uint8_t head[32], uint64_t seq, int started,
                      uint64_t create_request_id, uint64_t batch,
                      unsigned nseats, const uint8_t *const *seat_keys, unsigned nspectators,
                      const uint8_t *spectators, const brt_result *res, const char *ruleset, const char *scenario) {
    if (nseats > BRT_MAX_SEATS || nspectators > 0xffffu) return NULL;
    size_t ll = s_cut(res->level), lr = s_cut(res->reason), lu = s_cut(ruleset), ls = s_cut(scenario);
    size_t keys = 32u * nseats + 32u * nspectators, scores = 4u * nseats;
    bd_finidx *self = malloc(sizeof *self + scores + keys + ll + lr + lu + ls + 4);
    if (!self) return NULL;
    self->log_bytes = log_bytes;
    self->records = records;
    memcpy(self->head, head, 32);
    self->seq = seq;
    self->started = started ? 1 : 0;
    self->nseats = (uint8_t)nseats;
    self->nspectators = (uint16_t)nspectators;
    self->winners = res->winners;
    self->create_request_id = create_request_id;
    self->batch = batch;
    self->have_batch = 1;
    self->bound = 0;
    uint8_t *p = self->blob;
    /* the scores first: the blob follows the struct, so they are aligned */
    int32_t *sc = (int32_t *)(void *)p;
    for (unsigned s = 0; s < nseats; s++) sc[s] = res->scores[s];
    p += scores;
    for (unsigned s = 0; s < nseats; s++, p += 32) {
        if (seat_keys[s]) {
            memcpy(p, seat_keys[s], 32);
            self->bound |= 1u << s;
        } else
            memset(p, 0, 32);
    }
    if (nspectators) memcpy(p, spectators, 32u * nspectators);
    p += 32u * nspectators;
    const uint8_t *base = p;
    self->level_at = (uint16_t)s_put_str(&p, base, res->level, ll);
    self->reason_at = (uint16_t)s_put_str(&p, base, res->reason, lr);
    self->ruleset_at = (uint16_t)s_put_str(&p, base, ruleset, lu);
    self->scenario_at = (uint16_t)s_put_str(&p, base, scenario, ls);
    return self;
}

void finidx_destroy(bd_finidx **pself) {
    if (!pself || !*pself) return;
    free(*pself);
    *pself = NULL;
}

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

static size_t s_encode(const bd_finidx *self, uint8_t **out) {
    const char *level = finidx_level(self), *reason = finidx_reason(self), *ruleset = finidx_ruleset(self),
               *scenario = finidx_scenario(self);
    size_t ll = strlen(level), lr = strlen(reason), lu = strlen(ruleset), ls = strlen(scenario);
    size_t total = S_FIXED + ll + lr + lu + ls + 36u * self->nseats + 32u * self->nspectators + 32;
    uint8_t *b = calloc(1, total);
    if (!b) return 0;
    memcpy(b, FINIDX_MAGIC, 8);
    s_u32(b + 8, FINIDX_FORMAT);
    s_u32(b + 12, (uint32_t)(total - 16 - 32));
    s_u64(b + 16, self->log_bytes);
    s_u64(b + 24, self->records);
    memcpy(b + 32, self->head, 32);
    s_u64(b + 64, self->seq);
    b[72] = self->started;
    b[73] = self->nseats;
    b[74] = (uint8_t)self->nspectators;
    b[75] = (uint8_t)(self->nspectators >> 8);
    s_u32(b + 76, self->bound);
    s_u32(b + 80, self->winners);
    b[84] = (uint8_t)ll;
    b[85] = (uint8_t)lr;
    b[86] = (uint8_t)lu;
    b[87] = (uint8_t)ls;
    s_u64(b + 88, self->create_request_id);
    s_u64(b + 96, self->batch);
    uint8_t *p = b + S_FIXED;
    memcpy(p, level, ll), p += ll;
    memcpy(p, reason, lr), p += lr;
    memcpy(p, ruleset, lu), p += lu;
    memcpy(p, scenario, ls), p += ls;
    memcpy(p, finidx_seat_keys(self), 32u * self->nseats), p += 32u * self->nseats;
    for (unsigned s = 0; s < self->nseats; s++, p += 4) s_u32(p, (uint32_t)finidx_scores(self)[s]);
    memcpy(p, finidx_spectators(self), 32u * self->nspectators), p += 32u * self->nspectators;
    crypto_generichash(p, 32, b, (size_t)(p - b), NULL, 0);
    *out = b;
    return total;
}

int finidx_put_file(const char *path, const uint8_t *b, size_t n, int sync) {
    char tmp[1100];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int rc = -1;
    if (fd >= 0) {
        size_t done = 0;
        while (done < n) {
            ssize_t w = write(fd, b + done, n - done);
            if (w <= 0) break;
            done += (size_t)w;
        }
        rc = (done == n && (!sync || fdatasync(fd) == 0)) ? 0 : -1;
        if (close(fd) != 0) rc = -1;
    }
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) unlink(tmp);
    return rc;
}

int finidx_write(const bd_finidx *self, const char *dir, const char *path) {
    uint8_t *b = NULL;
    size_t n = s_encode(self, &b);
    if (!n) return -1;
    int rc = finidx_put_file(path, b, n, 1);
    free(b);
    if (rc == 0) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd) != 0) rc = -1;
        if (dfd >= 0) close(dfd);
    }
    return rc;
}

bd_finidx *finidx_read(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < S_FIXED1 + 32 || st.st_size > S_MAX_FILE) {
        close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    /* most indexes fit on the stack: no heap block is freed between the games' blocks */
    uint8_t small[2048];
    uint8_t *b = n <= sizeof small ? small : malloc(n);
    ssize_t got = b ? pread(fd, b, n, 0) : -1;
    close(fd);
    bd_finidx *self = NULL;
    uint8_t sum[32];
    uint32_t format = got == (ssize_t)n ? s_g32(b + 8) : 0;
    size_t fixed = format == 1 ? S_FIXED1 : S_FIXED;
    if (got != (ssize_t)n || memcmp(b, FINIDX_MAGIC, 8) != 0 || (format != 1 && format != FINIDX_FORMAT) ||
        n < fixed + 32 || (size_t)s_g32(b + 12) + 16 + 32 != n)
        goto done;
    crypto_generichash(sum, 32, b, n - 32, NULL, 0);
    if (sodium_memcmp(sum, b + n - 32, 32) != 0) goto done;
    unsigned nseats = b[73], nspect = (unsigned)b[74] | (unsigned)b[75] << 8;
    size_t ll = b[84], lr = b[85], lu = b[86], ls = b[87];
    if (nseats > BRT_MAX_SEATS || fixed + ll + lr + lu + ls + 36u * nseats + 32u * nspect + 32 != n) goto done;
    char level[256], reason[256], ruleset[256], scenario[256];
    const uint8_t *p = b + fixed;
    memcpy(level, p, ll), level[ll] = 0, p += ll;
    memcpy(reason, p, lr), reason[lr] = 0, p += lr;
    memcpy(ruleset, p, lu), ruleset[lu] = 0, p += lu;
    memcpy(scenario, p, ls), scenario[ls] = 0, p += ls;
    uint32_t bound = s_g32(b + 76);
    const uint8_t *keys[BRT_MAX_SEATS];
    for (unsigned s = 0; s < nseats; s++) keys[s] = (bound & (1u << s)) ? p + 32u * s : NULL;
    const uint8_t *sc = p + 32u * nseats;
    const uint8_t *spect = sc + 4u * nseats;
    brt_result res;
    memset(&res, 0, sizeof res);
    res.ended = 1;
    res.winners = s_g32(b + 80);
    s_copy(res.level, sizeof res.level, level);
    s_copy(res.reason, sizeof res.reason, reason);
    for (unsigned s = 0; s < nseats; s++) res.scores[s] = (int32_t)s_g32(sc + 4u * s);
    self = finidx_new(s_g64(b + 16), s_g64(b + 24), b + 32, s_g64(b + 64), b[72], s_g64(b + 88),
                      format == 1 ? 0 : s_g64(b + 96), nseats, keys, nspect, spect, &res, ruleset, scenario);
    if (self && format == 1) self->have_batch = 0;
done:
    if (b != small) free(b);
    return self;
}

int finidx_matches(const bd_finidx *self, const char *log_path) {
    int fd = open(log_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    uint8_t tail[32];
    int ok = fstat(fd, &st) == 0 && (uint64_t)st.st_size == self->log_bytes && self->log_bytes >= 32 &&
             pread(fd, tail, 32, (off_t)(self->log_bytes - 32)) == 32 && memcmp(tail, self->head, 32) == 0;
    close(fd);
    return ok ? 0 : -1;
}

void finidx_result(const bd_finidx *self, brt_result *out) {
    memset(out, 0, sizeof *out);
    out->ended = 1;
    out->winners = self->winners;
    s_copy(out->level, sizeof out->level, finidx_level(self));
    s_copy(out->reason, sizeof out->reason, finidx_reason(self));
    for (unsigned s = 0; s < self->nseats; s++) out->scores[s] = finidx_scores(self)[s];
}
