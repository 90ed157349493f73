/* evindex.c - the in-memory index of a game's events (see evindex.h). */
#include "evindex.h"

#include <stdlib.h>

#include "berthier/v1/berthier.pb-c.h"

void evindex_init(bd_evindex *self) { self->b = NULL; }

void evindex_free(bd_evindex *self) {
    bd_evindex_body *b = self->b;
    if (b) {
        free(b->seq);
        free(b->off);
        free(b->len);
        buf_free(&b->data);
        free(b);
    }
    evindex_init(self);
}

static int s_grow(bd_evindex_body *self) {
    size_t cap = self->cap ? self->cap * 2 : 64;
    uint64_t *seq = realloc(self->seq, cap * sizeof *seq);
    if (!seq) return -1;
    self->seq = seq;
    size_t *off = realloc(self->off, cap * sizeof *off);
    if (!off) return -1;
    self->off = off;
    uint32_t *len = realloc(self->len, cap * sizeof *len);
    if (!len) return -1;
    self->len = len;
    self->cap = cap;
    return 0;
}

int evindex_add(bd_evindex *ix, const uint8_t *payload, size_t len) {
    Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, len, payload);
    if (!le) return 0;
    uint64_t seq = le->seq;
    berthier__v1__log_event__free_unpacked(le, NULL);
    if (len > UINT32_MAX) return -1;
    if (!ix->b) {
        ix->b = calloc(1, sizeof *ix->b);
        if (!ix->b) return -1;
        buf_init(&ix->b->data);
    }
    bd_evindex_body *self = ix->b;
    if (self->n == self->cap && s_grow(self) != 0) return -1;
    size_t off = self->data.len;
    if (buf_append(&self->data, payload, len) != 0) return -1;
    if (self->n && seq < self->seq[self->n - 1]) self->unsorted = 1;
    self->seq[self->n] = seq;
    self->off[self->n] = off;
    self->len[self->n] = (uint32_t)len;
    self->n++;
    return 0;
}

void evindex_mark_durable(bd_evindex *ix) {
    if (ix->b) ix->b->durable = ix->b->n;
}

size_t evindex_after(const bd_evindex *ix, uint64_t seq) {
    const bd_evindex_body *self = ix->b;
    if (!self) return 0;
    if (self->unsorted) {
        for (size_t i = 0; i < self->durable; i++)
            if (self->seq[i] > seq) return i;
        return self->durable;
    }
    size_t lo = 0, hi = self->durable;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (self->seq[mid] > seq) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}
