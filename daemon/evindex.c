/* evindex.c - the in-memory index of a game's events (see evindex.h). */
#include "evindex.h"

#include <stdlib.h>

#include "berthier/v1/berthier.pb-c.h"

void evindex_init(bd_evindex *self) {
    self->seq = NULL;
    self->off = NULL;
    self->len = NULL;
    self->n = self->cap = self->durable = 0;
    self->unsorted = 0;
    buf_init(&self->data);
}

void evindex_free(bd_evindex *self) {
    free(self->seq);
    free(self->off);
    free(self->len);
    buf_free(&self->data);
    evindex_init(self);
}

static int s_grow(bd_evindex *self) {
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

int evindex_add(bd_evindex *self, const uint8_t *payload, size_t len) {
    Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, len, payload);
    if (!le) return 0;
    uint64_t seq = le->seq;
    berthier__v1__log_event__free_unpacked(le, NULL);
    if (len > UINT32_MAX) return -1;
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

void evindex_mark_durable(bd_evindex *self) { self->durable = self->n; }

size_t evindex_after(const bd_evindex *self, uint64_t seq) {
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
