/*
 * games.c - the table of games: creation, the record sink, start-up recovery
 * and the group commit.
 *
 * Recovery of a log: evlog_open() verifies the chain, cuts a torn tail (never
 * acknowledged) and refuses damage before the end. The game is rebuilt from
 * its header and seed file, and every input record is fed again through
 * game_input_record() with a sink that compares each record the game produces
 * with the next one in the log, byte for byte (the check berthier-replay
 * makes). If the log ends inside an input's outcome (a crash between the
 * write of its first and its last record: none of them was acknowledged), the
 * sink switches to appending and writes the rest of that input's records,
 * which are a pure function of the log so far. The retry table gets back the
 * reply of the create request the header records (LogHeader.create_*) and of
 * every order re-executed (engine_recovered_create, engine_recovered_input).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "engine.h"
#include "journal.h"
#include "log.h"

#ifndef BERTHIER_VERSION
#define BERTHIER_VERSION "0.0.0"
#endif

enum { S_MODE_CREATE = 0, S_MODE_LIVE = 1, S_MODE_REPLAY = 2 };
enum { S_MISMATCH = 200 };   /* bytes of bd_game.mismatch */

static int s_push(bd_game ***arr, size_t *n, size_t *cap, bd_game *g);
static void s_pool_destroy(bd_flush_pool **pp);
static int s_journal_cut(bd_engine *self, char *err, size_t errlen);

/* ---- the sink ------------------------------------------------------------ */

static int s_append(bd_game *self, uint8_t kind, const uint8_t *payload, size_t len) {
    engine_touch(self->eng, self);
    if (!self->log || evlog_append(self->log, kind, payload, len) != 0) {
        self->io_failed = 1;
        return -1;
    }
    return 0;
}

/* Where the game's captured input is, allocated at its first use. */
static bd_capture_at *s_cx(bd_game *self) {
    if (!self->cx && !(self->cx = calloc(1, sizeof *self->cx))) fatal("out of memory capturing an input");
    return self->cx;
}

static int s_record(void *ctx, uint8_t kind, const uint8_t *payload, size_t len) {
    bd_game *self = ctx;
    int rc = 0;
    switch (self->mode) {
    case S_MODE_CREATE: {
        if (kind != EVLOG_HEADER || self->log) return -1;
        char err[256] = "";
        self->log = evlog_create(self->log_path, payload, len, err, sizeof err);
        if (!self->log) {
            log_err("game %s: cannot create %s: %s", self->id, self->log_path, err);
            self->io_failed = 1;
            return -1;
        }
        self->mode = S_MODE_LIVE;
        break;
    }
    case S_MODE_REPLAY:
        if (self->cursor < self->nrecs) {
            const evlog_record *r = &self->recs[self->cursor];
            if (r->kind != kind || r->len != len || (len && memcmp(r->payload, payload, len) != 0)) {
                snprintf(self->mismatch, S_MISMATCH,
                         "record %llu at offset %llu: the log has %s (%u bytes), re-execution gives %s (%zu bytes)",
                         (unsigned long long)r->index, (unsigned long long)r->offset,
                         evlog_kind_name(r->kind), r->len, evlog_kind_name(kind), len);
                return -1;
            }
            self->cursor++;
            break;
        }
        /* read only (an ended game brought back from disk): there is nothing to complete */
        if (!self->log) {
            snprintf(self->mismatch, S_MISMATCH, "the log ends inside an input");
            return -1;
        }
        /* The log ended inside this input: write the rest of its records. */
        log_warn("game %s: completing the last input's records after record %llu", self->id,
                 (unsigned long long)self->nrecs);
        self->mode = S_MODE_LIVE;
        /* fall through */
    case S_MODE_LIVE:
        rc = s_append(self, kind, payload, len);
        break;
    default:
        return -1;
    }
    /* The record is in the log already: an index without it would answer wrong. */
    if (rc == 0 && kind == EVLOG_EVENT && evindex_add(&self->events, payload, len) != 0)
        fatal("out of memory indexing an event of game %s", self->id);
    if (rc == 0 && self->capturing && kind != EVLOG_HEADER) {
        uint8_t k = kind;
        if (buf_reserve(&self->cap, 1 + 4 + len) != 0) return -1;
        buf_append_u32le(&self->cap, (uint32_t)(len + 1));
        buf_append(&self->cap, &k, 1);
        buf_append(&self->cap, payload, len);
    }
    return rc;
}

static int s_checkpoint(void *ctx) {
    bd_game *self = ctx;
    if (self->mode == S_MODE_REPLAY && self->cursor < self->nrecs) {
        const evlog_record *r = &self->recs[self->cursor];
        if (r->kind != EVLOG_CHECKPOINT || self->cursor == 0) {
            snprintf(self->mismatch, S_MISMATCH,
                     "record %llu at offset %llu: the log has %s where re-execution gives a CHECKPOINT",
                     (unsigned long long)r->index, (unsigned long long)r->offset, evlog_kind_name(r->kind));
            return -1;
        }
        const evlog_record *prev = &self->recs[self->cursor - 1];
        ProtobufCMessage *m = NULL;
        int ok = 0;
        if (canon_unpack(&berthier__v1__log_checkpoint__descriptor, r->payload, r->len, 0, &m) == CANON_OK) {
            const Berthier__V1__LogCheckpoint *c = (const Berthier__V1__LogCheckpoint *)m;
            const Berthier__V1__LogHeader *h = game_header(self->g);
            ok = c->record == prev->index && c->head.len == 32 && memcmp(c->head.data, prev->chain, 32) == 0 &&
                 c->signature.len == 64 && h->server_sign_pk.len == 32 &&
                 evlog_checkpoint_verify(h->server_sign_pk.data, self->id, c->record, c->head.data,
                                         c->signature.data) == 0;
            protobuf_c_message_free_unpacked(m, NULL);
        }
        if (!ok) {
            snprintf(self->mismatch, S_MISMATCH,
                     "record %llu at offset %llu: the checkpoint does not sign the head before it",
                     (unsigned long long)r->index, (unsigned long long)r->offset);
            return -1;
        }
        self->cursor++;
        if (self->capturing) {
            bd_capture_at *cx = s_cx(self);
            cx->cap_ckpt = 1;
            cx->ckpt_record = prev->index;
            memcpy(cx->ckpt_head, prev->chain, 32);
        }
        return 0;
    }
    if (self->mode == S_MODE_REPLAY && !self->log) {   /* read only: nothing may be appended */
        snprintf(self->mismatch, S_MISMATCH, "the log ends where re-execution gives a CHECKPOINT");
        return -1;
    }
    if (self->mode == S_MODE_REPLAY) self->mode = S_MODE_LIVE;
    engine_touch(self->eng, self);
    uint64_t before = self->log ? evlog_count(self->log) : 0;
    if (before) {
        s_cx(self)->ckpt_record = before - 1;
        memcpy(s_cx(self)->ckpt_head, evlog_head(self->log), 32);
    }
    if (!self->log || evlog_checkpoint(self->log, self->eng->keys->sign_sk, self->id) != 0) {
        self->io_failed = 1;
        return -1;
    }
    if (self->capturing) s_cx(self)->cap_ckpt = 1;
    return 0;
}

static void s_head(void *ctx, uint8_t out[32]) {
    bd_game *self = ctx;
    if (self->mode == S_MODE_REPLAY && self->cursor < self->nrecs) {
        if (self->cursor == 0) memset(out, 0, 32);
        else memcpy(out, self->recs[self->cursor - 1].chain, 32);
        return;
    }
    if (self->log) memcpy(out, evlog_head(self->log), 32);
    else memset(out, 0, 32);
}

/* Index of the next record the game will produce or meet in the log. */
static uint64_t s_next_index(const bd_game *self) {
    if (self->mode == S_MODE_REPLAY && self->cursor < self->nrecs) return self->recs[self->cursor].index;
    return self->log ? evlog_count(self->log) : 0;
}

void game_capture_begin(bd_game *self) {
    buf_reset(&self->cap);
    self->capturing = 1;
    s_cx(self)->cap_ckpt = 0;
    self->cx->cap_first = s_next_index(self);
}

void game_capture_end(bd_game *self) {
    self->capturing = 0;
    bd_capture_at *cx = s_cx(self);
    if (self->mode == S_MODE_REPLAY && self->cursor > 0) {
        /* recovery: the last record met in the log (not the SYNC that may follow it) */
        cx->cap_last = self->recs[self->cursor - 1].index;
        memcpy(cx->cap_head, self->recs[self->cursor - 1].chain, 32);
    } else if (self->log && evlog_count(self->log)) {
        cx->cap_last = evlog_count(self->log) - 1;
        memcpy(cx->cap_head, evlog_head(self->log), 32);
    } else {
        cx->cap_last = 0;
        memset(cx->cap_head, 0, 32);
    }
}

/* ---- the table ----------------------------------------------------------- */

static bd_game *s_game_new(bd_engine *eng, const char *id) {
    /* the log path follows the game in one allocation: an ended game on disk keeps little */
    size_t plen = strlen(eng->games_dir) + 1 + strlen(id) + 5;
    bd_game *self = calloc(1, sizeof *self + plen);
    if (!self) return NULL;
    self->eng = eng;
    snprintf(self->id, sizeof self->id, "%s", id);
    self->log_path = (char *)(self + 1);
    snprintf(self->log_path, plen, "%s/%s.log", eng->games_dir, id);
    buf_init(&self->cap);
    evindex_init(&self->events);
    self->clean_touched = self->clean_inflight = 0xffffffffu;
    return self;
}

static void s_game_destroy(bd_game **pself) {
    if (!pself || !*pself) return;
    bd_game *self = *pself;
    engine_legal_forget(self);
    game_destroy(&self->g);
    evlog_destroy(&self->log);
    buf_free(&self->cap);
    evindex_free(&self->events);
    finidx_destroy(&self->fin);
    free(self->clock);
    free(self->cx);
    free(self);
    *pself = NULL;
}

static brt_sink s_sink(bd_game *self) {
    brt_sink s = {s_record, s_checkpoint, s_head, self};
    return s;
}

static void s_after_load(bd_game *self) {
    const Berthier__V1__LogHeader *h = game_header(self->g);
    self->spectators_live = 0;
    int contributory = 0;
    for (size_t i = 0; i < h->n_options; i++) {
        if (strcmp(h->options[i], "spectators=live") == 0) self->spectators_live = 1;
        if (strcmp(h->options[i], "dice=contributory") == 0) contributory = 1;
    }
    if (!self->clock && !(self->clock = malloc(sizeof *self->clock))) fatal("out of memory loading a game");
    clock_init(self->clock, h->clock ? h->clock->decision_ms : 0, h->clock ? h->clock->bank_ms : 0);
    /* A seat that withholds its nonce would stop a contributory game without a
     * clock for ever: it gets `reveal-deadline` to reveal, then forfeits
     * (game_timeout, a logged TIMEOUT; docs/daemon.md "Clocks"). */
    self->reveal_only = 0;
    if (contributory && !clock_enabled(self->clock) && self->eng->cfg->reveal_deadline_ms) {
        clock_init(self->clock, self->eng->cfg->reveal_deadline_ms, 0);
        self->reveal_only = 1;
    }
    self->clock_dirty = 1;
    self->synced_seq = game_seq(self->g);
    evindex_mark_durable(&self->events);   /* created, or recovered and synced */
}

/* After s_add: games with a clock are watched by the main loop. */
static int s_watch_clock(bd_engine *eng, bd_game *g) {
    if (!g->clock || !clock_enabled(g->clock)) return 0;
    return s_push(&eng->clocked, &eng->nclocked, &eng->capclocked, g);
}

static int s_push(bd_game ***arr, size_t *n, size_t *cap, bd_game *g) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        bd_game **p = realloc(*arr, c * sizeof *p);
        if (!p) return -1;
        *arr = p;
        *cap = c;
    }
    (*arr)[(*n)++] = g;
    return 0;
}

/* Ids are random hex: their first 16 hex digits are already a good hash. */
static size_t s_hash_id(const char *id) {
    uint64_t h = 1469598103934665603ull;
    for (const char *p = id; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
    return (size_t)h;
}

static int s_index_put(bd_engine *self, bd_game *g) {
    if ((self->ngames + 1) * 2 > self->index_size) {
        size_t size = self->index_size ? self->index_size * 2 : 64;
        while ((self->ngames + 1) * 2 > size) size *= 2;
        bd_game **idx = calloc(size, sizeof *idx);
        if (!idx) return -1;
        for (size_t i = 0; i < self->ngames; i++) {
            size_t k = s_hash_id(self->games[i]->id) & (size - 1);
            while (idx[k]) k = (k + 1) & (size - 1);
            idx[k] = self->games[i];
        }
        free(self->index);
        self->index = idx;
        self->index_size = size;
    }
    size_t k = s_hash_id(g->id) & (self->index_size - 1);
    while (self->index[k]) k = (k + 1) & (self->index_size - 1);
    self->index[k] = g;
    return 0;
}

static int s_add(bd_engine *self, bd_game *g) {
    if (s_index_put(self, g) != 0) return -1;
    if (s_push(&self->games, &self->ngames, &self->capgames, g) != 0) {
        /* undo the index entry */
        size_t k = s_hash_id(g->id) & (self->index_size - 1);
        while (self->index[k] != g) k = (k + 1) & (self->index_size - 1);
        self->index[k] = NULL;
        return -1;
    }
    return 0;
}

void engine_touch(bd_engine *self, bd_game *g) {
    /* A record outside an input (creation, recovery) may concern anyone (quiet.h). */
    if (!g->applying) g->clean_touched = 0;
    if (g->touched) return;
    if (s_push(&self->touched, &self->ntouched, &self->captouched, g) != 0) {
        /* Without the list the sync would miss this game: a broken invariant. */
        fatal("out of memory tracking the games of a round");
    }
    g->touched = 1;
}

bd_engine *engine_new(const bd_config *cfg, const bd_keys *keys, char *err, size_t errlen) {
    bd_engine *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->cfg = cfg;
    self->keys = keys;
    self->round = 1;
    self->sync_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (self->sync_fd < 0) {
        snprintf(err, errlen, "cannot create an eventfd: %s", strerror(errno));
        free(self);
        return NULL;
    }
    snprintf(self->games_dir, sizeof self->games_dir, "%s/games", cfg->data_dir);
    if (mkdir(self->games_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", self->games_dir, strerror(errno));
        close(self->sync_fd);
        free(self);
        return NULL;
    }
    self->dedupe = dedupe_new(cfg->dedupe);
    if (!self->dedupe) {
        snprintf(err, errlen, "out of memory");
        close(self->sync_fd);
        free(self);
        return NULL;
    }
    return self;
}

void engine_destroy(bd_engine **pself) {
    if (!pself || !*pself) return;
    bd_engine *self = *pself;
    if (self->journal && !self->failed && !self->flushing) {
        /* a clean stop leaves every log durable and the journal empty */
        char err[512];
        if (s_journal_cut(self, err, sizeof err) != 0) log_warn("%s; the next start replays the journal", err);
    }
    s_pool_destroy(&self->pool);   /* after the round in flight, if any, is flushed */
    journal_destroy(&self->journal);
    free(self->lazy);
    free(self->ending);
    if (self->sync_fd >= 0) close(self->sync_fd);
    for (size_t i = 0; i < self->ngames; i++) s_game_destroy(&self->games[i]);
    free(self->games);
    free(self->index);
    free(self->touched);
    free(self->inflight);
    free(self->clocked);
    free(self->warm);
    dedupe_destroy(&self->dedupe);
    engine_free_notices(self->out, self->nout);
    free(self);
    *pself = NULL;
}

bd_game *engine_peek(bd_engine *self, const char *id) {
    if (!id || !self->index_size) return NULL;
    size_t k = s_hash_id(id) & (self->index_size - 1);
    for (bd_game *g; (g = self->index[k]); k = (k + 1) & (self->index_size - 1))
        if (strcmp(g->id, id) == 0) return g;
    return NULL;
}

static int s_thaw(bd_engine *self, bd_game *g, int retries);
static void s_freeze(bd_engine *self, bd_game *g);

bd_game *engine_find(bd_engine *self, const char *id) {
    bd_game *g = engine_peek(self, id);
    if (g && !g->g && s_thaw(self, g, 0) != 0) return NULL;
    return g;
}

uint64_t engine_reexecuted(const bd_engine *self) { return self->reexecuted; }

/* Re-execute an ended game loaded from its index once more, putting its replies back. */
static int s_restore_one(bd_engine *self, bd_game *g) {
    if (g->g) {   /* in memory, but loaded without them */
        for (size_t i = 0; i < self->nwarm; i++)
            if (self->warm[i] == g) {
                memmove(&self->warm[i], &self->warm[i + 1], (self->nwarm - i - 1) * sizeof *self->warm);
                self->nwarm--;
                break;
            }
        s_freeze(self, g);
    }
    return s_thaw(self, g, 1) == 0;
}

int engine_retry_restore(bd_engine *self, const char *id, const uint8_t key[32], uint64_t request_id) {
    (void)key;
    /* Only an ended game loaded from its index lacks its replies (recovery rebuilds the others'). */
    if (!id || !id[0]) {
        /* a create names no game: the ended games whose header records that request id */
        int any = 0;
        for (size_t i = 0; i < self->ngames; i++) {
            bd_game *g = self->games[i];
            if (g->fin && !g->retries && !g->touched && !g->inflight && g->fin->create_request_id == request_id)
                any |= s_restore_one(self, g);
        }
        return any;
    }
    bd_game *g = engine_peek(self, id);
    if (!g || !g->fin || g->retries || g->touched || g->inflight) return 0;
    return s_restore_one(self, g);
}

void engine_summary(const bd_game *game, bd_summary *out, brt_result *res) {
    if (!game->g) {
        const bd_finidx *f = game->fin;
        out->ruleset = finidx_ruleset(f);
        out->scenario = finidx_scenario(f);
        out->seq = f->seq;
        out->started = f->started;
        out->over = 1;
        out->nseats = f->nseats;
        if (res) finidx_result(f, res);
        return;
    }
    const Berthier__V1__LogHeader *h = game_header(game->g);
    out->ruleset = h->ruleset;
    out->scenario = h->scenario;
    out->seq = game_seq(game->g);
    out->started = game_started(game->g);
    out->over = game_over(game->g);
    out->nseats = game_seat_count(game->g);
    if (res && out->over) game_result(game->g, res);
}

uint32_t engine_seats_of(const bd_game *game, const uint8_t key[32]) {
    uint32_t mask = 0;
    if (!game->g) {
        const bd_finidx *f = game->fin;
        for (unsigned s = 0; s < f->nseats; s++)
            if ((f->bound & (1u << s)) && sodium_memcmp(finidx_seat_keys(f) + 32u * s, key, 32) == 0) mask |= 1u << s;
        return mask;
    }
    unsigned n = game_seat_count(game->g);
    for (unsigned s = 0; s < n; s++) {
        const uint8_t *k = game_seat_key(game->g, s);
        if (k && sodium_memcmp(k, key, 32) == 0) mask |= 1u << s;
    }
    return mask;
}

int engine_is_spectator(const bd_game *game, const uint8_t key[32]) {
    if (!game->g) {
        const bd_finidx *f = game->fin;
        for (unsigned i = 0; i < f->nspectators; i++)
            if (sodium_memcmp(finidx_spectators(f) + 32u * i, key, 32) == 0) return 1;
        return 0;
    }
    const Berthier__V1__LogHeader *h = game_header(game->g);
    for (size_t i = 0; i < h->n_spectator_keys; i++)
        if (h->spectator_keys[i].len == 32 && sodium_memcmp(h->spectator_keys[i].data, key, 32) == 0) return 1;
    return 0;
}

int engine_key_known(const bd_engine *self, const uint8_t key[32]) {
    if (keys_is_revoked(self->keys, key)) return 0;
    if (keys_is_admin(self->keys, key)) return 1;
    for (size_t i = 0; i < self->ngames; i++)
        if (engine_seats_of(self->games[i], key) || engine_is_spectator(self->games[i], key)) return 1;
    return 0;
}

/* ---- finished games --------------------------------------------------------
 *
 * An ended game is indexed in <id>.fin (finidx.h) once its last records are
 * durable. The S_WARM ended games used last stay in memory; the others are
 * "cold": only their bd_game and index are kept (result, seats, spectators,
 * what the list of games shows, its decision: `pending`, `legal`, a seat's `hello`),
 * and engine_find brings one back when a request needs its state (its view, a
 * query) by re-executing its log once, read only. `events` and `header` of a cold game are read from the log where its record
 * index (<id>.evx, finev.h; engine_fin_records) says, and `fetch_log` reads the log
 * file itself: none of them brings it back. Start-up loads an ended game whose index
 * agrees with its log from the index alone, without reading the log. */

enum { S_WARM = 8 };

static int s_reexecute(bd_engine *self, bd_game *g, int thaw, uint64_t *nrecs, char *err, size_t errlen);

static void s_fin_path(const bd_engine *self, const char *id, char *out, size_t len) {
    snprintf(out, len, "%s/%s.fin", self->games_dir, id);
}

static void s_evx_path(const bd_engine *self, const char *id, char *out, size_t len) {
    snprintf(out, len, "%s/%s.evx", self->games_dir, id);
}

/* Index the records of a durable log (<id>.evx, finev.h): read from the log alone, no
 * re-execution. The index is a help, never needed: a failure is logged, and requests make it
 * again from the log. `f`, if given: the log must still be the one the .fin names. sync: the
 * file is fdatasynced before its rename. It is not (0) where it is made today: every byte of
 * it is checked before use (its checksum, then each record against the log's chain), so a
 * crash that tears or loses it costs a read of the log, never a wrong reply, and the end of a
 * game costs no fdatasync more than the .fin's. */
static bd_finev *s_evx_make(bd_engine *self, const char *id, const char *log_path, const bd_finidx *f, int sync) {
    char err[512] = "", path[CONFIG_PATH_MAX + 64];
    bd_finev *x = finev_build(log_path, err, sizeof err);
    if (!x) {
        log_warn("game %s: its records cannot be indexed: %s", id, err);
        return NULL;
    }
    if (f && finev_matches(x, f->log_bytes, f->head) != 0) {
        log_warn("game %s: its log is no longer the one its index %s/%s.fin names", id, self->games_dir, id);
        finev_destroy(&x);
        return NULL;
    }
    s_evx_path(self, id, path, sizeof path);
    if (finev_write(x, path, sync) != 0) log_warn("game %s: its record index %s could not be written", id, path);
    return x;
}

bd_finev *engine_fin_records(bd_engine *self, const bd_game *g) {
    if (!g->fin) return NULL;
    char path[CONFIG_PATH_MAX + 64];
    s_evx_path(self, g->id, path, sizeof path);
    bd_finev *x = finev_read(path);
    if (x && finev_matches(x, g->fin->log_bytes, g->fin->head) == 0) return x;
    /* absent (an index written before this file existed, or a crash before it), damaged
     * or stale: made again from the log, once */
    if (x) log_warn("game %s: its record index %s does not match its log; indexing the log again", g->id, path);
    finev_destroy(&x);
    return s_evx_make(self, g->id, g->log_path, g->fin, 0);
}

/* The index of an ended game in memory whose log is open and durable. */
static bd_finidx *s_fin_make(const bd_game *g) {
    struct stat st;
    if (!g->log || evlog_dirty(g->log) || fstat(evlog_fd(g->log), &st) != 0) return NULL;
    const Berthier__V1__LogHeader *h = game_header(g->g);
    unsigned n = game_seat_count(g->g);
    const uint8_t *keys[BRT_MAX_SEATS];
    for (unsigned s = 0; s < n && s < BRT_MAX_SEATS; s++) keys[s] = game_seat_key(g->g, s);
    uint8_t *spect = malloc(h->n_spectator_keys ? h->n_spectator_keys * 32 : 1);
    if (!spect) return NULL;
    unsigned ns = 0;
    for (size_t i = 0; i < h->n_spectator_keys; i++)
        if (h->spectator_keys[i].len == 32) memcpy(spect + 32u * ns++, h->spectator_keys[i].data, 32);
    brt_result res;
    memset(&res, 0, sizeof res);
    game_result(g->g, &res);
    uint64_t create_rid = h->create_key.len == 32 ? h->create_request_id : 0;
    bd_finidx *f = finidx_new((uint64_t)st.st_size, evlog_count(g->log), evlog_head(g->log), game_seq(g->g),
                              game_started(g->g), create_rid, game_batch(g->g), n, keys, ns, spect, &res, h->ruleset, h->scenario);
    free(spect);
    return f;
}

/* Index an ended game (its log open and durable). 0, or -1 (logged: the game stays in
 * memory, and the next start-up re-executes it and writes its index). */
static int s_finish(bd_engine *self, bd_game *g) {
    bd_finidx *f = s_fin_make(g);
    char path[CONFIG_PATH_MAX + 64];
    s_fin_path(self, g->id, path, sizeof path);
    /* the log is durable; its record index next, then the .fin that names them both */
    bd_finev *x = f ? s_evx_make(self, g->id, g->log_path, f, 0) : NULL;
    finev_destroy(&x);
    if (!f || finidx_write(f, self->games_dir, path) != 0) {
        log_warn("game %s: its index %s could not be written; it stays in memory", g->id, path);
        finidx_destroy(&f);
        return -1;
    }
    g->fin = f;
    g->retries = 1;   /* indexed live or after a re-execution: its replies are in the table */
    return 0;
}

static void s_unwatch_clock(bd_engine *self, bd_game *g) {
    for (size_t i = 0; i < self->nclocked; i++)
        if (self->clocked[i] == g) {
            memmove(&self->clocked[i], &self->clocked[i + 1], (self->nclocked - i - 1) * sizeof *self->clocked);
            self->nclocked--;
            return;
        }
}

/* Drop everything of an indexed ended game but its index. */
static void s_freeze(bd_engine *self, bd_game *g) {
    s_unwatch_clock(self, g);
    engine_legal_forget(g);
    game_destroy(&g->g);
    evlog_destroy(&g->log);
    evindex_free(&g->events);
    buf_free(&g->cap);
    buf_init(&g->cap);
    free(g->clock);
    g->clock = NULL;
    free(g->cx);
    g->cx = NULL;
    g->warm = 0;
}

static void s_warm_push(bd_engine *self, bd_game *g) {
    if (s_push(&self->warm, &self->nwarm, &self->capwarm, g) != 0) {
        s_freeze(self, g);   /* it has its index: it can be cold at once */
        return;
    }
    g->warm = 1;
}

/* Keep at most S_WARM ended games in memory (between requests only: nothing holds them). */
static void s_cool(bd_engine *self) {
    if (self->nwarm <= S_WARM) return;
    size_t drop = self->nwarm - S_WARM;
    for (size_t i = 0; i < drop; i++) s_freeze(self, self->warm[i]);
    memmove(self->warm, self->warm + drop, S_WARM * sizeof *self->warm);
    self->nwarm = S_WARM;
}

/* retries: put the replies of its create and orders back in the retry table, as recovery
 * does (once per game and daemon run: g->retries). */
static int s_thaw(bd_engine *self, bd_game *g, int retries) {
    char err[512] = "";
    uint64_t n = 0, before = self->reexecuted;
    if (retries) g->retries = 1;
    if (s_reexecute(self, g, retries ? 2 : 1, &n, err, sizeof err) != 0) {
        log_err("game %s: cannot be read back from its log: %s", g->id, err);
        return -1;
    }
    log_info("game %s: ended, brought back from its log (%llu inputs re-executed)", g->id,
             (unsigned long long)(self->reexecuted - before));
    s_after_load(g);
    s_warm_push(self, g);
    return 0;
}

/* The fdatasyncs of a round run on up to S_SYNC_THREADS threads at once: the
 * file system can commit many of them together, where one after the other
 * each waits for its own. The threads are started once and wait for the next
 * round (creating and reaping them every round cost a tenth of the daemon's
 * CPU under load: clone and the munmap of their stacks). They only call
 * evlog_sync_flush on the in-flight logs, which nothing else touches until
 * the round's flush is over (engine_sync_done). */
enum { S_SYNC_THREADS = 8 };
/* What a round of the pool does: fdatasync the logs' batches (journal = 0), the
 * journal (its frame), or the logs' handed batches (before a cut of the journal). */
enum { S_JOB_LOGS, S_JOB_JOURNAL, S_JOB_DATA };

struct bd_flush_pool {
    bd_engine *eng;
    int job;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t gen;        /* rounds posted; a worker serves each one once */
    bd_game **games;
    size_t n;
    atomic_size_t next;
    unsigned active;     /* workers still on the current round (under mu) */
    int quit;
    pthread_t th[S_SYNC_THREADS];
    unsigned nth;
};

static void s_flush_some(bd_flush_pool *p) {
    if (p->job == S_JOB_JOURNAL) {
        /* the round's one fdatasync (item 0), and those of the logs of games that ended
         * in the round (items 1..), which are indexed once their log is durable */
        for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n;) {
            if (i == 0) {
                atomic_store(&p->eng->journal_rc, journal_flush(p->eng->journal));
                continue;
            }
            bd_game *g = p->games[i - 1];
            /* a failure poisons the log, which stays dirty: engine_sync_finish sees it */
            if (g->log && evlog_dirty(g->log) && evlog_sync_flush(g->log) != 0) {}
        }
        return;
    }
    for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n;) {
        bd_game *g = p->games[i];
        if (p->job == S_JOB_DATA) {
            /* before a cut of the journal; a failure poisons the log, which stays unsynced */
            if (g->log && evlog_sync_data(g->log) != 0) {}
            continue;
        }
        /* a failure poisons the log, which stays dirty: engine_sync_finish sees it */
        if (g->log && evlog_dirty(g->log) && evlog_sync_flush(g->log) != 0) {}
    }
}

static void s_flush_signal(bd_engine *eng) {
    atomic_store(&eng->flushed, 1);
    uint64_t one = 1;
    /* the main loop polls the eventfd; a counter write cannot fail short */
    if (write(eng->sync_fd, &one, sizeof one) != (ssize_t)sizeof one) {}
}

static void *s_flush_worker(void *arg) {
    bd_flush_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen) pthread_cond_wait(&p->cv, &p->mu);
        if (p->quit) break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        s_flush_some(p);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0) s_flush_signal(p->eng);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static bd_flush_pool *s_pool_new(bd_engine *eng) {
    bd_flush_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->eng = eng;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    atomic_init(&p->next, 0);
    /* a thread that cannot start is simply not used (none: the flush runs inline) */
    while (p->nth < S_SYNC_THREADS && pthread_create(&p->th[p->nth], NULL, s_flush_worker, p) == 0) p->nth++;
    return p;
}

static void s_pool_destroy(bd_flush_pool **pp) {
    bd_flush_pool *p = *pp;
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nth; i++) pthread_join(p->th[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
    *pp = NULL;
}

/* Hand the in-flight logs to the pool. 0 = posted, -1 = no thread: flushed inline. */
static int s_pool_post(bd_flush_pool *p, bd_engine *eng, int job, bd_game **games, size_t n) {
    if (!p || !p->nth) {
        bd_flush_pool inline_job = {.eng = eng, .job = job, .games = games, .n = n};
        atomic_init(&inline_job.next, 0);
        s_flush_some(&inline_job);
        return -1;
    }
    pthread_mutex_lock(&p->mu);
    p->job = job;
    p->games = games;
    p->n = n;
    atomic_store(&p->next, 0);
    p->active = p->nth;
    p->gen++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

/* Wait for the pool's round (posted: 0) and drain its eventfd. */
static void s_pool_wait(bd_engine *self) {
    while (!atomic_load(&self->flushed)) {
        struct pollfd pfd = {self->sync_fd, POLLIN, 0};
        (void)poll(&pfd, 1, 100);
    }
    uint64_t v;
    if (read(self->sync_fd, &v, sizeof v) < 0) {}   /* nonblocking */
}

/* Empty the journal: fdatasync every log with handed batches (on the pool), then cut.
 * Only between rounds (no flush under way, no batch written and not handed). */
static int s_journal_cut(bd_engine *self, char *err, size_t errlen) {
    if (!self->journal || self->flushing || self->journaled) return 0;
    self->nlazy = 0;
    for (size_t i = 0; i < self->ngames; i++) {
        bd_game *g = self->games[i];
        if (g->log && evlog_unsynced(g->log) && s_push(&self->lazy, &self->nlazy, &self->caplazy, g) != 0) {
            snprintf(err, errlen, "out of memory listing the logs to sync");
            self->failed = 1;
            return -1;
        }
    }
    if (self->nlazy) {
        if (!self->pool) self->pool = s_pool_new(self);
        atomic_store(&self->flushed, 0);
        if (s_pool_post(self->pool, self, S_JOB_DATA, self->lazy, self->nlazy) == 0) s_pool_wait(self);
        for (size_t i = 0; i < self->nlazy; i++) {
            bd_game *g = self->lazy[i];
            if (evlog_unsynced(g->log)) {
                snprintf(err, errlen, "game %s: %s could not be made durable (fdatasync failed)", g->id, g->log_path);
                self->failed = 1;
                return -1;
            }
        }
    }
    if (journal_cut(self->journal) != 0) {
        snprintf(err, errlen, "the journal could not be cut (%s)", strerror(errno));
        self->failed = 1;
        return -1;
    }
    self->cuts++;
    return 0;
}

int engine_sync_start(bd_engine *self, char *err, size_t errlen) {
    if (self->flushing) fatal("engine_sync_start while a flush is under way");
    /* 1. write every touched log's batch, in order (with the journal: and copy it into the
     * round's frame, then append the frame) */
    size_t dirty = 0;
    self->journaled = 0;
    if (self->journal) journal_begin(self->journal, self->round);
    for (size_t i = 0; i < self->ntouched; i++) {
        bd_game *g = self->touched[i];
        if (g->io_failed) {
            snprintf(err, errlen, "game %s: a record could not be appended to %s", g->id, g->log_path);
            self->failed = 1;
            return -1;
        }
        if (g->log && evlog_dirty(g->log)) {
            if (evlog_sync_write(g->log) != 0) {
                snprintf(err, errlen, "game %s: %s could not be made durable (write failed)", g->id, g->log_path);
                self->failed = 1;
                return -1;
            }
            if (self->journal) {
                uint64_t off;
                const uint8_t *b;
                size_t n;
                if (evlog_sync_batch(g->log, &off, &b, &n) != 0 || journal_add(self->journal, g->id, off, b, n) != 0) {
                    snprintf(err, errlen, "game %s: its batch could not be added to the journal", g->id);
                    self->failed = 1;
                    return -1;
                }
            }
            dirty++;
        }
    }
    if (self->journal && dirty) {
        if (journal_write(self->journal) != 0) {
            snprintf(err, errlen, "the journal could not be written (%s)", strerror(errno));
            self->failed = 1;
            return -1;
        }
        self->journaled = 1;
    }
    /* 2. the round's games are in flight until engine_sync_finish; a new round fills */
    bd_game **t = self->inflight;
    size_t cap = self->capinflight;
    self->inflight = self->touched;
    self->ninflight = self->ntouched;
    self->capinflight = self->captouched;
    self->touched = t;
    self->captouched = cap;
    self->ntouched = 0;
    for (size_t i = 0; i < self->ninflight; i++) {
        self->inflight[i]->touched = 0;
        self->inflight[i]->inflight = 1;
        self->inflight[i]->clean_inflight = self->inflight[i]->clean_touched;
        self->inflight[i]->clean_touched = 0xffffffffu;
    }
    self->round++;   /* every wait_round of the round is stale from now on */
    if (!dirty) return 0;
    /* 3. fdatasync them together (or the journal alone), off the main thread */
    if (!self->pool) self->pool = s_pool_new(self);
    atomic_store(&self->flushed, 0);
    int posted;
    if (self->journaled) {
        self->nending = 0;
        for (size_t i = 0; i < self->ninflight; i++) {
            bd_game *g = self->inflight[i];
            if (g->g && game_over(g->g) && g->log && evlog_dirty(g->log) &&
                s_push(&self->ending, &self->nending, &self->capending, g) != 0)
                fatal("out of memory tracking the games of a round");
        }
        posted = s_pool_post(self->pool, self, S_JOB_JOURNAL, self->ending, 1 + self->nending);
    } else {
        posted = s_pool_post(self->pool, self, S_JOB_LOGS, self->inflight, self->ninflight);
    }
    if (posted != 0) return 0;   /* done inline */
    self->flushing = 1;
    return 1;
}

int engine_sync_fd(const bd_engine *self) { return self->sync_fd; }

int engine_sync_done(bd_engine *self) { return !self->flushing || atomic_load(&self->flushed); }

int engine_sync_finish(bd_engine *self, char *err, size_t errlen) {
    if (self->flushing) {
        /* wait for the pool (the main loop normally calls this once it is done) */
        while (!atomic_load(&self->flushed)) {
            struct pollfd pfd = {self->sync_fd, POLLIN, 0};
            (void)poll(&pfd, 1, 100);
        }
        self->flushing = 0;
        uint64_t v;
        if (read(self->sync_fd, &v, sizeof v) < 0) {}   /* drain the eventfd (nonblocking) */
    }
    if (self->journaled) {
        /* the frame is durable: so are the batches it holds (the logs' fdatasyncs come later) */
        if (atomic_load(&self->journal_rc) != 0) {
            snprintf(err, errlen, "the journal could not be made durable (fdatasync failed)");
            self->failed = 1;
            return -1;
        }
        for (size_t i = 0; i < self->ninflight; i++) {
            bd_game *g = self->inflight[i];
            int ended = 0;   /* its log's own fdatasync ran with the journal's (and failed if still dirty) */
            for (size_t k = 0; k < self->nending && !ended; k++) ended = self->ending[k] == g;
            if (!ended && g->log && evlog_dirty(g->log) && evlog_sync_handed(g->log) != 0) {
                snprintf(err, errlen, "game %s: %s is poisoned", g->id, g->log_path);
                self->failed = 1;
                return -1;
            }
        }
        self->journaled = 0;
        self->nending = 0;
    }
    /* every one must have reached the disk before anything of the round is acknowledged */
    for (size_t i = 0; i < self->ninflight; i++) {
        bd_game *g = self->inflight[i];
        if (g->log && evlog_dirty(g->log)) { /* a flush that succeeded leaves the log clean */
            snprintf(err, errlen, "game %s: %s could not be made durable (fdatasync failed)", g->id, g->log_path);
            self->failed = 1;
            return -1;
        }
    }
    /* An ended game's log is fdatasynced before its index is written (the log first, then
     * the index, on disk too: with the journal its last batch may be durable only there). */
    for (size_t i = 0; i < self->ninflight; i++) {
        bd_game *g = self->inflight[i];
        if (g->g && game_over(g->g) && g->log && evlog_unsynced(g->log) && evlog_sync_data(g->log) != 0) {
            snprintf(err, errlen, "game %s: %s could not be made durable (fdatasync failed)", g->id, g->log_path);
            self->failed = 1;
            return -1;
        }
    }
    for (size_t i = 0; i < self->ninflight; i++) {
        bd_game *g = self->inflight[i];
        if (!g->g) {   /* cold already (recovery completed and indexed it) */
            g->inflight = 0;
            continue;
        }
        g->synced_seq = game_seq(g->g);
        evindex_mark_durable(&g->events);
        g->inflight = 0;
        /* An ended game takes no more records: index it (its log is durable: the log
         * first, then the index) and give its descriptor back. */
        if (game_over(g->g)) {
            if (!g->fin && !g->warm && s_finish(self, g) == 0) s_warm_push(self, g);
            evlog_destroy(&g->log);
        }
    }
    self->ninflight = 0;
    s_cool(self);
    if (self->journal && journal_size(self->journal) > self->cfg->journal_size && s_journal_cut(self, err, errlen) != 0)
        return -1;
    return 0;
}

int engine_sync(bd_engine *self, char *err, size_t errlen) {
    if (engine_sync_start(self, err, errlen) < 0) return -1;
    return engine_sync_finish(self, err, errlen);
}

/* ---- creation ------------------------------------------------------------- */

static int s_write_seed(const char *dir, const char *id, const uint8_t seed[32]) {
    char path[CONFIG_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s.seed", dir, id);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    ssize_t n = write(fd, seed, 32);
    int rc = (n == 32 && fsync(fd) == 0) ? 0 : -1;
    close(fd);
    if (rc == 0) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd) != 0) rc = -1;
        if (dfd >= 0) close(dfd);
    }
    if (rc != 0) unlink(path);
    return rc;
}

static int s_read_seed(const char *dir, const char *id, uint8_t seed[32]) {
    char path[CONFIG_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s.seed", dir, id);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, seed, 32);
    uint8_t extra;
    ssize_t m = read(fd, &extra, 1);
    close(fd);
    return n == 32 && m == 0 ? 0 : -1;
}

bd_game *engine_create_game(bd_engine *self, const Berthier__V1__CreateGame *c, const uint8_t key[32],
                            uint64_t request_id, const uint8_t *digest, brt_reject *rej) {
    char id[ENGINE_ID_LEN + 1];
    for (int tries = 0;; tries++) {
        uint8_t raw[8];
        randombytes_buf(raw, sizeof raw);
        sodium_bin2hex(id, sizeof id, raw, sizeof raw);
        char path[CONFIG_PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s.seed", self->games_dir, id);
        if (!engine_find(self, id) && access(path, F_OK) != 0) break;
        if (tries > 8) {
            brt_reject_set(rej, BERTHIER__V1__CODE__CODE_INTERNAL, "", "could not draw an unused game id");
            return NULL;
        }
    }
    bd_game *g = s_game_new(self, id);
    if (!g) {
        brt_reject_set(rej, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        return NULL;
    }
    uint8_t seed[32];
    /* dice-seed=HEX: the operator fixed the dice (docs/dice.md "Fixed dice"). */
    int fixed = game_fixed_seed(c->options, c->n_options, seed, rej);
    if (fixed < 0) {
        s_game_destroy(&g);
        return NULL;
    }
    if (!fixed) randombytes_buf(seed, sizeof seed);
    /* The seed is durable before the header that commits to it. */
    if (s_write_seed(self->games_dir, id, seed) != 0) {
        brt_reject_set(rej, BERTHIER__V1__CODE__CODE_IO_ERROR, "",
                       "the game's seed could not be stored (%s); nothing was created", strerror(errno));
        sodium_memzero(seed, sizeof seed);
        s_game_destroy(&g);
        return NULL;
    }
    _Static_assert(GAME_CREATE_DIGEST == DEDUPE_DIGEST, "the header keeps the retry table's digest");
    game_params p = {id, c, seed, self->keys->sign_pk, BERTHIER_VERSION, NULL, 0, NULL};
    if (request_id && key && digest) {
        p.create_key = key;
        p.create_request_id = request_id;
        p.create_digest = digest;
    }
    g->mode = S_MODE_CREATE;
    g->g = game_create(&p, s_sink(g), rej);
    sodium_memzero(seed, sizeof seed);
    if (!g->g || s_add(self, g) != 0) {
        if (g->g) brt_reject_set(rej, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        else if (g->io_failed)
            brt_reject_set(rej, BERTHIER__V1__CODE__CODE_IO_ERROR, "",
                           "the game's log could not be created; nothing was created");
        /* Remove whatever part of the game exists: the id was unused, so
         * these files are ours (a log may exist even when evlog_create failed,
         * e.g. after a failed fdatasync). The log goes first: a seed without a
         * log is ignored at start-up, a log without its seed is not. */
        char path[CONFIG_PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s.seed", self->games_dir, id);
        evlog_destroy(&g->log);
        unlink(g->log_path);
        int dfd = open(self->games_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        unlink(path);
        s_game_destroy(&g);
        return NULL;
    }
    g->mode = S_MODE_LIVE;
    s_after_load(g);
    if (s_watch_clock(self, g) != 0) fatal("out of memory watching a game's clock");
    log_info("game %s created: %s %s, %zu seats", id, c->ruleset, c->scenario, c->n_seats);
    return g;
}

/* ---- recovery ------------------------------------------------------------- */

static void s_quarantine(const char *path, const char *suffix) {
    char to[CONFIG_PATH_MAX + 96];
    snprintf(to, sizeof to, "%s.%s", path, suffix);
    if (rename(path, to) == 0) log_warn("moved %s to %s", path, to);
}

/* Rebuild g->g from its log: every input record is fed again and each record the game
 * produces is compared with the log's. g->log is open (evlog_open) at start-up; thaw: a
 * cold ended game brought back, whose log is complete: it is only read (nothing can be
 * appended: g->log is NULL) and the retry table is left alone (1) or gets the replies of
 * the create and the orders as at start-up (2). 0; 1: not loaded (a game of
 * another ruleset version, logged); -1: err says why. On failure g->g is NULL. */
static int s_reexecute(bd_engine *self, bd_game *g, int thaw, uint64_t *nrecs, char *err, size_t errlen) {
    const char *id = g->id;
    char rerr[256] = "";
    evlog_reader *rd = evlog_reader_open(g->log_path, rerr, sizeof rerr);
    if (!rd) {
        snprintf(err, errlen, "cannot read %s: %s", g->log_path, rerr);
        return -1;
    }
    evlog_record *recs = NULL;
    size_t n = 0, cap = 0;
    evlog_record r;
    int rc;
    while ((rc = evlog_reader_next(rd, &r)) == 1) {
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            evlog_record *p = realloc(recs, cap * sizeof *p);
            if (!p) {
                rc = -2;
                break;
            }
            recs = p;
        }
        recs[n++] = r;
    }
    int result = -1;
    uint8_t seed[32];
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    char mismatch[S_MISMATCH];
    mismatch[0] = 0;
    g->mismatch = mismatch;
    if (rc != 0) {
        const evlog_scan *s = evlog_reader_scan(rd);
        snprintf(err, errlen, "%s is damaged at record %llu, offset %llu: %s", g->log_path,
                 (unsigned long long)s->bad_record, (unsigned long long)s->bad_offset, s->reason);
        goto done;
    }
    if (n == 0 || recs[0].kind != EVLOG_HEADER) {
        snprintf(err, errlen, "%s: record 0 at offset %llu is not a header", g->log_path,
                 n ? (unsigned long long)recs[0].offset : 0ull);
        goto done;
    }
    if (s_read_seed(self->games_dir, id, seed) != 0) {
        snprintf(err, errlen, "%s: the seed file %s/%s.seed is missing or not 32 bytes", g->log_path,
                 self->games_dir, id);
        goto done;
    }
    g->recs = recs;
    g->nrecs = n;
    g->cursor = 1;
    g->mode = S_MODE_REPLAY;
    g->g = game_from_header(recs[0].payload, recs[0].len, seed, s_sink(g), &rej);
    sodium_memzero(seed, sizeof seed);
    if (!g->g && (rej.code == BERTHIER__V1__CODE__CODE_BAD_RULESET || rej.code == BERTHIER__V1__CODE__CODE_BAD_SCENARIO)) {
        /* Not damage: a game played by another ruleset or ruleset version (an upgrade). This
         * engine cannot re-execute it, so it is not served; its files stay as they are, for
         * the Berthier that played it to verify or finish. */
        log_warn("%s: not loaded: %s; the log and its seed are left as they are (verify it with the "
                 "berthier-replay of that version)",
                 g->log_path, rej.message);
        result = 1;
        goto done;
    }
    if (!g->g) {
        snprintf(err, errlen, "%s: record 0 at offset 0: %s", g->log_path, rej.message);
        goto done;
    }
    if (strcmp(game_id(g->g), id) != 0) {
        snprintf(err, errlen, "%s: the header names game %s", g->log_path, game_id(g->g));
        goto done;
    }
    /* The create's reply first, then the orders' (the retry table, docs/protocol.md P5). */
    if (thaw != 1) engine_recovered_create(self, g);
    while (g->mode == S_MODE_REPLAY && g->cursor < g->nrecs) {
        const evlog_record *in = &recs[g->cursor];
        if (in->kind == EVLOG_HEADER || in->kind >= EVLOG_DICE) {
            snprintf(err, errlen, "%s: record %llu at offset %llu: %s where an input record belongs", g->log_path,
                     (unsigned long long)in->index, (unsigned long long)in->offset, evlog_kind_name(in->kind));
            goto done;
        }
        uint64_t seq_before = game_seq(g->g);
        size_t at = g->cursor;
        g->mismatch[0] = 0;
        game_capture_begin(g);
        self->reexecuted++;
        int irc = game_input_record(g->g, in->kind, in->payload, in->len, &rej);
        game_capture_end(g);
        if (irc != 0 || g->cursor == at) {
            if (g->mismatch[0]) snprintf(err, errlen, "%s: %s", g->log_path, g->mismatch);
            else
                snprintf(err, errlen, "%s: record %llu at offset %llu (%s) is refused on re-execution: %s",
                         g->log_path, (unsigned long long)in->index, (unsigned long long)in->offset,
                         evlog_kind_name(in->kind), irc ? rej.message : "no record produced");
            goto done;
        }
        if (thaw != 1) engine_recovered_input(self, g, recs[at].kind, recs[at].payload, recs[at].len, seq_before);
    }
    if (thaw && (g->mode != S_MODE_REPLAY || !game_over(g->g))) {
        snprintf(err, errlen, "%s: the log no longer ends with the game's end", g->log_path);
        goto done;
    }
    g->mode = S_MODE_LIVE;
    *nrecs = n;
    result = 0;
done:
    g->recs = NULL;
    g->mismatch = NULL;
    g->nrecs = g->cursor = 0;
    free(recs);
    evlog_reader_destroy(&rd);
    if (result != 0) {
        game_destroy(&g->g);
        evindex_free(&g->events);
        g->mode = S_MODE_LIVE;
    }
    return result;
}

static int s_recover_one(bd_engine *self, const char *id, char *err, size_t errlen) {
    bd_game *g = s_game_new(self, id);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* An ended game whose index agrees with its log (size, last chain hash) is loaded
     * from the index alone: not read, not re-executed. */
    char fpath[CONFIG_PATH_MAX + 64];
    s_fin_path(self, id, fpath, sizeof fpath);
    bd_finidx *fin = finidx_read(fpath);
    if (fin && finidx_matches(fin, g->log_path) == 0) {
        g->fin = fin;
        if (s_add(self, g) != 0) {
            snprintf(err, errlen, "out of memory");
            s_game_destroy(&g);
            return -1;
        }
        return 0;
    }
    if (fin) log_warn("game %s: its index %s does not match its log; re-executing the log", id, fpath);
    finidx_destroy(&fin);
    evlog_scan scan;
    g->log = evlog_open(g->log_path, &scan);
    if (!g->log) {
        if (scan.damaged) {
            snprintf(err, errlen, "%s is damaged at record %llu, offset %llu: %s", g->log_path,
                     (unsigned long long)scan.bad_record, (unsigned long long)scan.bad_offset, scan.reason);
            s_game_destroy(&g);
            return -1;
        }
        if (scan.records == 0 && (scan.torn_tail || scan.file_bytes < EVLOG_FILE_HEADER)) {
            /* Creation was cut before the header was durable: never acknowledged. */
            log_warn("%s holds no complete header record; the game was never created", g->log_path);
            s_quarantine(g->log_path, "unfinished");
            s_game_destroy(&g);
            return 0;
        }
        snprintf(err, errlen, "cannot open %s: %s", g->log_path, scan.reason);
        s_game_destroy(&g);
        return -1;
    }
    if (scan.torn_tail)
        log_warn("%s: cut a torn tail at offset %llu (%llu bytes, never acknowledged)", g->log_path,
                 (unsigned long long)scan.valid_bytes,
                 (unsigned long long)(scan.file_bytes - scan.valid_bytes));
    uint64_t n = 0;
    int rc = s_reexecute(self, g, 0, &n, err, errlen);
    if (rc != 0) {
        s_game_destroy(&g);
        return rc < 0 ? -1 : 0;
    }
    if (evlog_dirty(g->log) && evlog_sync(g->log) != 0) {
        snprintf(err, errlen, "%s: could not complete the last input (write or fdatasync failed)", g->log_path);
        s_game_destroy(&g);
        return -1;
    }
    int over = game_over(g->g);
    /* An ended game is indexed (its log is durable now) and kept cold. */
    int indexed = over && s_finish(self, g) == 0;
    if (over) evlog_destroy(&g->log);   /* nothing more will be appended */
    if (s_add(self, g) != 0) {
        snprintf(err, errlen, "out of memory");
        s_game_destroy(&g);
        return -1;
    }
    s_after_load(g);
    log_info("game %s resumed at seq %llu (%llu records)%s", id, (unsigned long long)game_seq(g->g),
             (unsigned long long)n, over ? ", ended" : "");
    if (indexed) {
        s_freeze(self, g);
        return 0;
    }
    if (s_watch_clock(self, g) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;   /* g is in the table; engine_destroy frees it */
    }
    return 0;
}

static int s_is_id(const char *name, size_t len) {
    if (len != ENGINE_ID_LEN) return 0;
    for (size_t i = 0; i < len; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return 0;
    return 1;
}

static int s_cmp(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Put the journal's batches back into their logs (before any log is opened) and, with
 * journal = 1, keep it open for the rounds. */
static int s_journal_recover(bd_engine *self, char *err, size_t errlen) {
    char path[CONFIG_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/journal", self->games_dir);
    journal_stats st;
    if (self->cfg->journal) {
        /* zeros for a journal-size and some: the frames of a cycle overwrite blocks that exist */
        self->journal = journal_open(path, self->games_dir, self->cfg->journal_size + (256u << 10), &st, err, errlen);
        if (!self->journal) return -1;
    } else if (journal_recover(path, self->games_dir, &st, err, errlen) != 0) {
        return -1;
    }
    if (st.frames || st.torn_bytes)
        log_info("journal: %llu frames replayed (%llu batches, %llu of them written again) into %llu logs; "
                 "the %llu bytes of the next frame ignored (torn, or from before the last cut)",
                 (unsigned long long)st.frames, (unsigned long long)st.batches, (unsigned long long)st.rewritten,
                 (unsigned long long)st.logs, (unsigned long long)st.torn_bytes);
    if (st.skipped)
        log_warn("journal: %llu batches of logs no longer in %s left out (the first: %s.log)",
                 (unsigned long long)st.skipped, self->games_dir, st.skipped_id);
    return 0;
}

int engine_recover(bd_engine *self, char *err, size_t errlen) {
    if (s_journal_recover(self, err, errlen) != 0) {
        self->failed = 1;
        return -1;
    }
    DIR *d = opendir(self->games_dir);
    if (!d) {
        snprintf(err, errlen, "cannot read %s: %s", self->games_dir, strerror(errno));
        return -1;
    }
    /* the ids back to back in one block: no small blocks freed between the games' */
    typedef struct {
        char id[ENGINE_ID_LEN + 1];
    } s_id;
    s_id *ids = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len != ENGINE_ID_LEN + 4 || strcmp(de->d_name + ENGINE_ID_LEN, ".log") != 0) continue;
        if (!s_is_id(de->d_name, ENGINE_ID_LEN)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            s_id *p = realloc(ids, cap * sizeof *p);
            if (!p) break;
            ids = p;
        }
        memcpy(ids[n].id, de->d_name, ENGINE_ID_LEN);
        ids[n].id[ENGINE_ID_LEN] = 0;
        n++;
    }
    closedir(d);
    if (n) qsort(ids, n, sizeof *ids, s_cmp);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (s_recover_one(self, ids[i].id, err, errlen) != 0) rc = -1;
    free(ids);
    if (rc == 0) {
        size_t cold = 0;
        for (size_t i = 0; i < self->ngames; i++) cold += !self->games[i]->g;
        log_info("recovered %zu games (%zu ended ones kept on disk); %llu inputs re-executed", self->ngames, cold,
                 (unsigned long long)self->reexecuted);
    }
    return rc;
}
