/* fair.c - rate limit and round share per client key (see fair.h). */
#include "fair.h"

#include <netdb.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <zmq.h>

#include "log.h"

#define S_MIN_SLOTS 256
#define S_SWEEP_MS 1000

typedef struct {
    uint8_t key[32];
    uint64_t tokens;   /* thousandths of a token */
    int64_t last;      /* ms of the last refill */
    uint64_t round;    /* the round `count` and `queued` belong to */
    uint32_t count;    /* frames of this key in that round */
    uint8_t used;
    uint16_t queued;   /* replies of this key waiting for the end of that round (saturates) */
    /* abuse (fair.h): counts in the current window, the ban, the last connections seen */
    int64_t ban_until;       /* ms; the key is banned while now < ban_until */
    int64_t mal_start, busy_start;
    uint32_t mal_count, busy_count;
    int32_t conn_fd[FAIR_CONNS];
    uint8_t conn_rid[FAIR_CONNS][FAIR_RID_MAX];
    uint8_t conn_rid_len[FAIR_CONNS];
    uint8_t conn_next;
} s_entry;

/* What the daemon knows of one file descriptor that frames came from: the
 * routing id that owns it (the first one seen on its current socket), the
 * socket's inode at that time, and whether the daemon cut it. */
typedef struct {
    uint64_t ino;
    uint8_t rid[FAIR_RID_MAX];
    uint8_t rid_len;
    uint8_t cut;
    uint8_t contested;   /* another routing id claimed the same socket: never cut it */
} s_fdinfo;

struct bd_fair {
    s_entry *slots;
    size_t cap;        /* power of two; at most half full */
    size_t n;
    size_t max_keys;
    unsigned rate, burst, share;
    uint8_t secret[crypto_shorthash_KEYBYTES];
    uint64_t round;
    unsigned nkeys_round;     /* keys with frames in the current round */
    uint32_t max_count;       /* most frames of one key in the current round */
    int64_t last_sweep;
    int swept;
    s_entry overflow;
    unsigned abuse_malformed, abuse_busy;
    int64_t window_ms, ban_ms;
    s_fdinfo *fds;
    size_t nfds;
    uint64_t ncut;
    s_entry *last;            /* the entry of the last admitted frame (until the next admit) */
};

static size_t s_hash(const bd_fair *f, const uint8_t key[32]) {
    uint8_t h[crypto_shorthash_BYTES];
    crypto_shorthash(h, key, 32, f->secret);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)h[i] << (8 * i);
    return (size_t)v;
}

static uint64_t s_full(const bd_fair *f) { return (uint64_t)f->burst * 1000u; }

/* Tokens of `e` at `now` (ms), without changing it. */
static uint64_t s_tokens_at(const bd_fair *f, const s_entry *e, int64_t now) {
    uint64_t full = s_full(f);
    if (now <= e->last) return e->tokens;
    uint64_t dt = (uint64_t)(now - e->last);
    if (dt > full / f->rate) return full;   /* dt * rate >= full: no overflow below */
    uint64_t t = e->tokens + dt * f->rate;
    return t > full ? full : t;
}

bd_fair *fair_new(unsigned rate, unsigned burst, unsigned share, size_t max_keys) {
    bd_fair *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->max_keys = max_keys ? max_keys : FAIR_MAX_KEYS;
    f->cap = S_MIN_SLOTS;
    f->slots = calloc(f->cap, sizeof *f->slots);
    if (!f->slots) {
        free(f);
        return NULL;
    }
    f->rate = rate;
    f->burst = burst ? burst : 1;
    f->share = share ? share : 1;
    randombytes_buf(f->secret, sizeof f->secret);
    f->round = 1;
    f->overflow.tokens = s_full(f);
    for (int i = 0; i < FAIR_CONNS; i++) f->overflow.conn_fd[i] = -1;
    f->window_ms = 10000;
    return f;
}

void fair_destroy(bd_fair **pself) {
    if (!pself || !*pself) return;
    free((*pself)->slots);
    free((*pself)->fds);
    free(*pself);
    *pself = NULL;
}

void fair_round_begin(bd_fair *self) {
    self->round++;
    self->nkeys_round = 0;
    self->max_count = 0;
    self->last = NULL;
}

static s_entry *s_probe(const bd_fair *f, s_entry *slots, size_t cap, const uint8_t key[32]) {
    size_t i = s_hash(f, key) & (cap - 1);
    for (;;) {
        s_entry *e = &slots[i];
        if (!e->used || memcmp(e->key, key, 32) == 0) return e;
        i = (i + 1) & (cap - 1);
    }
}

/* Move the live entries into a table of `cap` slots, leaving out those that
 * equal a fresh entry when `drop_idle` is set. -1: out of memory (unchanged). */
static int s_rebuild(bd_fair *f, size_t cap, int drop_idle, int64_t now) {
    s_entry *slots = calloc(cap, sizeof *slots);
    if (!slots) return -1;
    size_t n = 0;
    for (size_t i = 0; i < f->cap; i++) {
        const s_entry *e = &f->slots[i];
        if (!e->used) continue;
        if (drop_idle && e->round != f->round && (!f->rate || s_tokens_at(f, e, now) == s_full(f)) &&
            e->ban_until <= now && (!e->mal_count || now - e->mal_start >= f->window_ms) &&
            (!e->busy_count || now - e->busy_start >= f->window_ms))
            continue;
        *s_probe(f, slots, cap, e->key) = *e;
        n++;
    }
    free(f->slots);
    f->last = NULL;
    f->slots = slots;
    f->cap = cap;
    f->n = n;
    return 0;
}

/* The entry of `key`, made if needed; the overflow entry when the table is full. */
static s_entry *s_entry_of(bd_fair *f, const uint8_t key[32], int64_t now) {
    s_entry *e = s_probe(f, f->slots, f->cap, key);
    if (e->used) return e;
    if (f->n >= f->max_keys) {
        if (f->swept && now - f->last_sweep < S_SWEEP_MS) return &f->overflow;
        f->swept = 1;
        f->last_sweep = now;
        if (s_rebuild(f, f->cap, 1, now) != 0 || f->n >= f->max_keys) return &f->overflow;
        e = s_probe(f, f->slots, f->cap, key);
    }
    if (2 * (f->n + 1) > f->cap) {
        if (s_rebuild(f, f->cap * 2, 0, now) != 0) return &f->overflow;
        e = s_probe(f, f->slots, f->cap, key);
    }
    memset(e, 0, sizeof *e);
    for (int i = 0; i < FAIR_CONNS; i++) e->conn_fd[i] = -1;
    memcpy(e->key, key, 32);
    e->used = 1;
    e->tokens = s_full(f);
    e->last = now;
    f->n++;
    return e;
}

fair_verdict fair_admit(bd_fair *self, const uint8_t key[32], int64_t now) {
    s_entry *e = s_entry_of(self, key, now);
    if (e->round != self->round) {
        e->round = self->round;
        e->count = 0;
        e->queued = 0;
        self->nkeys_round++;
    }
    if (e->count < UINT32_MAX) e->count++;
    if (e->count > self->max_count) self->max_count = e->count;
    if (self->rate) {
        e->tokens = s_tokens_at(self, e, now);
        if (now > e->last) e->last = now;
        if (e->tokens < 1000) return e->queued ? FAIR_OVER_QUEUED : FAIR_OVER_NOW;
        e->tokens -= 1000;
    }
    if (e->queued < UINT16_MAX) e->queued++;
    self->last = e;
    return FAIR_ADMIT;
}

void fair_answered(bd_fair *self, int uncount) {
    s_entry *e = self->last;
    self->last = NULL;
    if (!e || e->round != self->round) return;
    /* A saturated count stays: the key's refusals then wait for the round (safe). */
    if (e->queued > 0 && e->queued < UINT16_MAX) e->queued--;
    /* max_count keeps the highest count seen, so it may stay one above: the
     * round then closes a frame early, never late. */
    if (uncount && e->count > 0 && e->count < UINT32_MAX) e->count--;
}

int fair_round_full(const bd_fair *self) { return self->nkeys_round >= 2 && self->max_count >= self->share; }

size_t fair_count(const bd_fair *self) { return self->n; }

int fair_has_entry(const bd_fair *self, const uint8_t key[32]) {
    return s_probe(self, self->slots, self->cap, key)->used;
}

/* ---- abuse: cutting connections and banning keys ---------------------------------- */

void fair_set_abuse(bd_fair *self, unsigned malformed, unsigned busy, unsigned window_s, unsigned ban_s) {
    self->abuse_malformed = malformed;
    self->abuse_busy = busy;
    self->window_ms = window_s ? (int64_t)window_s * 1000 : 10000;
    self->ban_ms = (int64_t)ban_s * 1000;
}

/* The record of `fd`, grown on demand; NULL for an fd out of range or out of memory. */
static s_fdinfo *s_fdinfo_of(bd_fair *f, int fd) {
    if (fd < 0 || fd >= FAIR_MAX_FD) return NULL;
    if ((size_t)fd >= f->nfds) {
        size_t n = f->nfds ? f->nfds : 256;
        while (n <= (size_t)fd) n *= 2;
        s_fdinfo *p = realloc(f->fds, n * sizeof *p);
        if (!p) return NULL;
        memset(p + f->nfds, 0, (n - f->nfds) * sizeof *p);
        f->fds = p;
        f->nfds = n;
    }
    return &f->fds[fd];
}

static int s_rid_is(const s_fdinfo *d, const uint8_t *rid, size_t len) {
    return d->rid_len && d->rid_len == len && memcmp(d->rid, rid, len) == 0;
}

static void s_remember_conn(s_entry *e, int fd, const uint8_t *rid, size_t len) {
    for (int i = 0; i < FAIR_CONNS; i++)
        if (e->conn_fd[i] == fd && e->conn_rid_len[i] == len && memcmp(e->conn_rid[i], rid, len) == 0) return;
    int i = e->conn_next;
    e->conn_next = (uint8_t)((i + 1) % FAIR_CONNS);
    e->conn_fd[i] = fd;
    memcpy(e->conn_rid[i], rid, len);
    e->conn_rid_len[i] = (uint8_t)len;
}

int fair_frame(bd_fair *self, const uint8_t key[32], int fd, const uint8_t *rid, size_t rid_len, int64_t now) {
    if (rid_len == 0 || rid_len > FAIR_RID_MAX) return 0;
    s_fdinfo *d = s_fdinfo_of(self, fd);
    if (!d) return 0;
    if (s_rid_is(d, rid, rid_len)) {
        d->contested = 0;
    } else {
        struct stat st;
        if (fstat(fd, &st) != 0) return 0;
        if (d->rid_len && (uint64_t)st.st_ino == d->ino) {
            /* The socket another routing id owns: one of them is a leftover of a
             * closed connection whose fd was reused. Never cut it on this evidence. */
            d->contested = 1;
            return 0;
        }
        d->ino = (uint64_t)st.st_ino;
        memcpy(d->rid, rid, rid_len);
        d->rid_len = (uint8_t)rid_len;
        d->cut = 0;
        d->contested = 0;
    }
    if (d->cut) return 1;
    s_entry *e = s_entry_of(self, key, now);
    if (e != &self->overflow) s_remember_conn(e, fd, rid, rid_len);
    return 0;
}

int fair_banned(const bd_fair *self, const uint8_t key[32], int64_t now) {
    const s_entry *e = s_probe(self, self->slots, self->cap, key);
    return e->used && now < e->ban_until;
}

static int s_count(uint32_t *count, int64_t *start, unsigned limit, int64_t window, int64_t now) {
    if (!limit) return 0;
    if (!*count || now - *start >= window) {
        *start = now;
        *count = 0;
    }
    if (*count < UINT32_MAX) (*count)++;
    return *count > limit;
}

int fair_note_malformed(bd_fair *self, const uint8_t key[32], int64_t now) {
    s_entry *e = s_entry_of(self, key, now);
    if (e == &self->overflow) return 0;   /* shared by many keys: never banned */
    return s_count(&e->mal_count, &e->mal_start, self->abuse_malformed, self->window_ms, now);
}

int fair_note_busy(bd_fair *self, const uint8_t key[32], int64_t now) {
    if (!self->rate) return 0;
    s_entry *e = s_entry_of(self, key, now);
    if (e == &self->overflow) return 0;
    return s_count(&e->busy_count, &e->busy_start, self->abuse_busy, self->window_ms, now);
}

/* 1 if `peer` (the message's Peer-Address) is the peer of `fd` now: for a unix
 * socket libzmq writes "<host>:uid:gid:pid" of the peer, for TCP its address. */
static int s_peer_matches(int fd, const char *peer) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return 0;
    if (ss.ss_family == AF_UNIX) {
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0) return 0;
        char tail[64];
        int n = snprintf(tail, sizeof tail, ":%u:%u:%d", (unsigned)cr.uid, (unsigned)cr.gid, (int)cr.pid);
        size_t pl = strlen(peer);
        return n > 0 && pl >= (size_t)n && strcmp(peer + pl - (size_t)n, tail) == 0;
    }
    len = sizeof ss;
    if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0) return 0;
    char host[NI_MAXHOST];
    if (getnameinfo((struct sockaddr *)&ss, len, host, sizeof host, NULL, 0, NI_NUMERICHOST) != 0) return 0;
    return strcmp(host, peer) == 0;
}

/* Shut down the connection that routing id `rid` has on `fd`, if everything
 * says the fd still holds it: `rid` owns the fd's record, nobody contested it,
 * the socket's inode is the one recorded, and (when known) the peer matches.
 * libzmq owns the fd: it is shut down, never closed; libzmq sees the end of
 * the stream and drops the connection itself. 1 = cut (now or before). */
static int s_cut(bd_fair *f, int fd, const uint8_t *rid, size_t rid_len, const char *peer) {
    if (fd < 0 || (size_t)fd >= f->nfds) return 0;
    s_fdinfo *d = &f->fds[fd];
    if (!s_rid_is(d, rid, rid_len) || d->contested) return 0;
    if (d->cut) return 1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) || (uint64_t)st.st_ino != d->ino) return 0;
    if (peer && !s_peer_matches(fd, peer)) return 0;
    if (shutdown(fd, SHUT_RDWR) != 0) return 0;
    d->cut = 1;
    f->ncut++;
    return 1;
}

/* Cut the other connections recorded for `e`. How many were cut. */
static unsigned s_cut_recorded(bd_fair *f, s_entry *e) {
    unsigned n = 0;
    for (int i = 0; i < FAIR_CONNS; i++) {
        if (e->conn_fd[i] < 0) continue;
        size_t fd = (size_t)e->conn_fd[i];
        int was = fd < f->nfds && s_rid_is(&f->fds[fd], e->conn_rid[i], e->conn_rid_len[i]) && f->fds[fd].cut;
        if (!was && s_cut(f, e->conn_fd[i], e->conn_rid[i], e->conn_rid_len[i], NULL)) n++;
        e->conn_fd[i] = -1;
    }
    return n;
}

static void s_short(const uint8_t key[32], char out[12]) {
    char z[41];
    zmq_z85_encode(z, key, 32);
    snprintf(out, 12, "%.8s", z);
}

int fair_punish(bd_fair *self, const uint8_t key[32], int fd, const uint8_t *rid, size_t rid_len, const char *peer,
                int64_t now, int ban, const char *reason) {
    int cut = s_cut(self, fd, rid, rid_len, peer);
    if (!cut && !ban) return 0;   /* nothing done, nothing to say (the frame is refused instead) */
    unsigned others = 0;
    int banned = 0;
    s_entry *e = s_entry_of(self, key, now);
    if (e != &self->overflow) {
        if (ban && self->ban_ms) {
            e->ban_until = now + self->ban_ms;
            e->mal_count = e->busy_count = 0;
            banned = 1;
        }
        if (ban) others = s_cut_recorded(self, e);
    }
    char k[12];
    s_short(key, k);
    char bantext[64] = "";
    if (banned) snprintf(bantext, sizeof bantext, "; key banned for %lld s", (long long)(self->ban_ms / 1000));
    char othertext[64] = "";
    if (others) snprintf(othertext, sizeof othertext, " (and %u other connection%s)", others, others == 1 ? "" : "s");
    log_warn("key %s...: %s: %s%s%s", k, reason,
             cut ? "connection cut" : "connection not cut (its socket could not be verified)", othertext, bantext);
    return cut;
}

size_t fair_cut_keys(bd_fair *self, int (*pred)(void *ctx, const uint8_t key[32]), void *ctx, const char *reason) {
    size_t total = 0;
    for (size_t i = 0; i < self->cap; i++) {
        s_entry *e = &self->slots[i];
        if (!e->used || !pred(ctx, e->key)) continue;
        unsigned n = s_cut_recorded(self, e);
        if (!n) continue;
        char k[12];
        s_short(e->key, k);
        log_warn("key %s...: %s: %u connection%s cut", k, reason, n, n == 1 ? "" : "s");
        total += n;
    }
    return total;
}

uint64_t fair_cuts(const bd_fair *self) { return self->ncut; }
