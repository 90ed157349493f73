/* dedupe.c - bounded LRU of replies (see dedupe.h). Chained hash table plus a
 * doubly linked recency list. A reply is kept without its trailing zero bytes (the
 * padding of a padded reply, pad.h: most of a small reply, and of one that carries
 * legal orders, P4.3), which are put back when a retry asks for it. */
#include "dedupe.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

typedef struct s_entry {
    uint8_t key[32];
    uint64_t id;
    uint8_t digest[DEDUPE_DIGEST];
    uint8_t *reply;
    size_t reply_len;                 /* bytes kept */
    size_t zeros;                     /* zero bytes after them, not kept */
    struct s_entry *chain;            /* next in bucket */
    struct s_entry *newer, *older;    /* recency list */
} s_entry;

struct bd_dedupe {
    s_entry **buckets;
    size_t nbuckets;    /* power of two */
    size_t count, capacity;
    s_entry *newest, *oldest;
};

bd_dedupe *dedupe_new(size_t capacity) {
    bd_dedupe *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->capacity = capacity ? capacity : 1;
    self->nbuckets = 16;
    while (self->nbuckets < self->capacity) self->nbuckets <<= 1;
    self->buckets = calloc(self->nbuckets, sizeof *self->buckets);
    if (!self->buckets) {
        free(self);
        return NULL;
    }
    return self;
}

void dedupe_destroy(bd_dedupe **pself) {
    if (!pself || !*pself) return;
    bd_dedupe *self = *pself;
    for (s_entry *e = self->newest; e;) {
        s_entry *next = e->older;
        free(e->reply);
        free(e);
        e = next;
    }
    free(self->buckets);
    free(self);
    *pself = NULL;
}

void dedupe_digest(const uint8_t *request, size_t len, uint8_t out[DEDUPE_DIGEST]) {
    crypto_generichash(out, DEDUPE_DIGEST, request, len, NULL, 0);
}

static size_t s_bucket(const bd_dedupe *self, const uint8_t key[32], uint64_t id) {
    uint64_t h = id * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 32; i++) h = (h ^ key[i]) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 29)) & (self->nbuckets - 1);
}

static s_entry **s_find(bd_dedupe *self, const uint8_t key[32], uint64_t id) {
    s_entry **pp = &self->buckets[s_bucket(self, key, id)];
    while (*pp && !((*pp)->id == id && memcmp((*pp)->key, key, 32) == 0)) pp = &(*pp)->chain;
    return pp;
}

static void s_unlink_recency(bd_dedupe *self, s_entry *e) {
    if (e->newer) e->newer->older = e->older;
    else self->newest = e->older;
    if (e->older) e->older->newer = e->newer;
    else self->oldest = e->newer;
    e->newer = e->older = NULL;
}

static void s_push_newest(bd_dedupe *self, s_entry *e) {
    e->older = self->newest;
    e->newer = NULL;
    if (self->newest) self->newest->newer = e;
    self->newest = e;
    if (!self->oldest) self->oldest = e;
}

int dedupe_get(bd_dedupe *self, const uint8_t key[32], uint64_t request_id,
               const uint8_t **digest, const uint8_t **reply, size_t *reply_len) {
    s_entry *e = *s_find(self, key, request_id);
    if (!e) return 0;
    if (e->zeros) {
        uint8_t *whole = realloc(e->reply, e->reply_len + e->zeros);
        if (!whole) return 0;   /* out of memory: judged afresh, as if forgotten */
        memset(whole + e->reply_len, 0, e->zeros);
        e->reply = whole;
        e->reply_len += e->zeros;
        e->zeros = 0;
    }
    s_unlink_recency(self, e);
    s_push_newest(self, e);
    *digest = e->digest;
    *reply = e->reply;
    *reply_len = e->reply_len;
    return 1;
}

static void s_remove(bd_dedupe *self, s_entry *e) {
    s_entry **pp = s_find(self, e->key, e->id);
    if (*pp == e) *pp = e->chain;
    s_unlink_recency(self, e);
    free(e->reply);
    free(e);
    self->count--;
}

int dedupe_put(bd_dedupe *self, const uint8_t key[32], uint64_t request_id,
               const uint8_t digest[DEDUPE_DIGEST], const uint8_t *reply, size_t reply_len) {
    size_t zeros = 0;
    while (zeros < reply_len && reply[reply_len - 1 - zeros] == 0) zeros++;
    size_t keep = reply_len - zeros;
    uint8_t *copy = malloc(keep ? keep : 1);
    if (!copy) return -1;
    if (keep) memcpy(copy, reply, keep);
    s_entry **pp = s_find(self, key, request_id);
    s_entry *e = *pp;
    if (e) {
        free(e->reply);
        s_unlink_recency(self, e);
    } else {
        e = calloc(1, sizeof *e);
        if (!e) {
            free(copy);
            return -1;
        }
        memcpy(e->key, key, 32);
        e->id = request_id;
        e->chain = NULL;
        *pp = e;
        self->count++;
    }
    memcpy(e->digest, digest, DEDUPE_DIGEST);
    e->reply = copy;
    e->reply_len = keep;
    e->zeros = zeros;
    s_push_newest(self, e);
    while (self->count > self->capacity && self->oldest && self->oldest != e) s_remove(self, self->oldest);
    return 0;
}

size_t dedupe_count(const bd_dedupe *self) { return self->count; }
