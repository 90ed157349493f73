/* fair.c - rate limit and round share per client key (see fair.h). */
#include "fair.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

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
} s_entry;

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
    return f;
}

void fair_destroy(bd_fair **pself) {
    if (!pself || !*pself) return;
    free((*pself)->slots);
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
        if (drop_idle && e->round != f->round && (!f->rate || s_tokens_at(f, e, now) == s_full(f))) continue;
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
