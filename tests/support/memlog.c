/* memlog.c - see memlog.h. */
#include "memlog.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "evlog.h"

void memlog_init(memlog *self, const char *game_id, uint8_t key_seed) {
    memset(self, 0, sizeof *self);
    snprintf(self->game_id, sizeof self->game_id, "%s", game_id);
    uint8_t seed[32];
    memset(seed, key_seed, sizeof seed);
    crypto_sign_seed_keypair(self->pk, self->sk, seed);
}

void memlog_init_replay(memlog *self, const memlog *of) {
    memset(self, 0, sizeof *self);
    memcpy(self->sk, of->sk, 64);
    memcpy(self->pk, of->pk, 32);
    memcpy(self->game_id, of->game_id, sizeof self->game_id);
    self->expect = of->recs;
    self->n_expect = of->n;
    self->pos = 1;
    if (of->n) memcpy(self->head, of->recs[0].chain, 32);
}

void memlog_free(memlog *self) {
    for (size_t i = 0; i < self->n; i++) free(self->recs[i].payload);
    free(self->recs);
    self->recs = NULL;
    self->n = self->cap = 0;
}

static int s_record(void *ctx, uint8_t kind, const uint8_t *p, size_t len) {
    memlog *m = ctx;
    if (m->expect) {
        while (m->pos < m->n_expect && m->expect[m->pos].kind == EVLOG_SYNC) {
            memcpy(m->head, m->expect[m->pos].chain, 32); /* batch marks are not game records */
            m->pos++;
        }
        const memlog_rec *e = m->pos < m->n_expect ? &m->expect[m->pos] : NULL;
        if (!e || e->kind != kind || e->len != len || (len && memcmp(e->payload, p, len) != 0)) {
            if (!m->mismatch) m->mismatch_at = m->pos;
            m->mismatch = 1;
            return -1;
        }
        memcpy(m->head, e->chain, 32);
        m->pos++;
        return 0;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        memlog_rec *r = realloc(m->recs, cap * sizeof *r);
        if (!r) return -1;
        m->recs = r;
        m->cap = cap;
    }
    memlog_rec *r = &m->recs[m->n];
    r->payload = malloc(len ? len : 1);
    if (!r->payload) return -1;
    if (len) memcpy(r->payload, p, len);
    r->kind = kind;
    r->len = len;
    evlog_chain(m->head, kind, p, (uint32_t)len, r->chain);
    memcpy(m->head, r->chain, 32);
    m->n++;
    return 0;
}

static int s_checkpoint(void *ctx) {
    memlog *m = ctx;
    if (m->expect && m->foreign_checkpoints) {
        while (m->pos < m->n_expect && m->expect[m->pos].kind == EVLOG_SYNC) m->pos++;
        if (m->pos >= m->n_expect || m->expect[m->pos].kind != EVLOG_CHECKPOINT) {
            if (!m->mismatch) m->mismatch_at = m->pos;
            m->mismatch = 1;
            return -1;
        }
        memcpy(m->head, m->expect[m->pos].chain, 32);
        m->pos++;
        return 0;
    }
    uint8_t p[EVLOG_CHECKPOINT_MAX];
    size_t n = evlog_checkpoint_payload(m->sk, m->game_id, (m->expect ? m->pos : m->n) - 1, m->head, p);
    return s_record(ctx, EVLOG_CHECKPOINT, p, n);
}

static void s_head(void *ctx, uint8_t out[32]) { memcpy(out, ((memlog *)ctx)->head, 32); }

brt_sink memlog_sink(memlog *self) {
    brt_sink s = {s_record, s_checkpoint, s_head, self};
    return s;
}

uint32_t memlog_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    const memlog *m = ctx;
    for (size_t i = 0; i < m->n; i++) {
        if (m->recs[i].kind != EVLOG_DICE) continue;
        Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, m->recs[i].len, m->recs[i].payload);
        if (!d) continue;
        int hit = d->index == index;
        uint32_t v = hit && d->sides == sides ? d->value : 0;
        berthier__v1__log_dice__free_unpacked(d, NULL);
        if (hit) return v;
    }
    return 0;
}

size_t memlog_replay(const memlog *log, const uint8_t *seed, uint8_t final_hash[32], char *why, size_t whylen) {
    memlog r;
    memlog_init_replay(&r, log);
    r.foreign_checkpoints = log->foreign_checkpoints;
    brt_reject err;
    memset(final_hash, 0, 32);
    if (why && whylen) why[0] = '\0';
    brt_game *g = game_from_header(log->recs[0].payload, log->recs[0].len, seed, memlog_sink(&r), &err);
    if (!g) {
        if (why) snprintf(why, whylen, "header: %s", err.message);
        return 0;
    }
    if (!seed) game_set_dice_source(g, memlog_dice_source, (void *)log);
    while (r.pos < r.n_expect && !r.mismatch) {
        const memlog_rec *rec = &r.expect[r.pos];
        if (rec->kind == EVLOG_SYNC) {
            memcpy(r.head, rec->chain, 32);
            r.pos++;
            continue;
        }
        if (rec->kind >= EVLOG_DICE) {
            if (why) snprintf(why, whylen, "record %zu (%s) stands where an input belongs", r.pos,
                              evlog_kind_name(rec->kind));
            break;
        }
        size_t at = r.pos;
        if (game_input_record(g, rec->kind, rec->payload, rec->len, &err) != 0) {
            if (why) snprintf(why, whylen, "input record %zu: %s", at, r.mismatch ? "outcome differs" : err.message);
            break;
        }
    }
    if (r.mismatch && why && !why[0]) snprintf(why, whylen, "record %zu differs", r.mismatch_at);
    game_state_hash(g, final_hash);
    game_destroy(&g);
    return r.mismatch ? r.mismatch_at : r.pos;
}

int memlog_save(const memlog *self, const char *path) {
    if (self->n == 0 || self->recs[0].kind != EVLOG_HEADER) return -1;
    char err[200];
    evlog *l = evlog_create(path, self->recs[0].payload, self->recs[0].len, err, sizeof err);
    if (!l) return -1;
    int rc = 0;
    /* Checkpoints are signed again over the file's own chain (which also covers
     * the SYNC records), so that berthier-replay verify accepts the file. */
    for (size_t i = 1; i < self->n && rc == 0; i++) {
        if (self->recs[i].kind == EVLOG_CHECKPOINT) rc = evlog_checkpoint(l, self->sk, self->game_id);
        else rc = evlog_append(l, self->recs[i].kind, self->recs[i].payload, self->recs[i].len);
    }
    if (rc == 0) rc = evlog_sync(l);
    evlog_destroy(&l);
    return rc;
}
