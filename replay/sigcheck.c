/*
 * sigcheck.c - seat signatures checked on worker threads ahead of the
 * re-execution (see sigcheck.h).
 *
 * One job per seat-signed input record, in record order. A worker takes the
 * next job not taken, decodes its record, rebuilds the signed message as the
 * engine does (game.c: the body message packed canonically, seatsig_message)
 * and checks it. The engine's thread, when it needs the verdict of record i,
 * waits for job i, checking jobs not yet taken itself meanwhile, and takes the
 * verdict only if its own pk, message and signature are the job's, byte for
 * byte (the message compared by the inputs it is built from). A seat's key is the one its first JOIN in the log binds; anything the
 * jobs got wrong (a second join, a record the engine refuses first) only costs
 * a check on the spot.
 */
#include "sigcheck.h"

#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"
#include "canon.h"
#include "ruleset.h"
#include "seatsig.h"

enum { MIN_JOBS = 4, MAX_THREADS = 64 };

typedef struct job {
    size_t rec;
    uint8_t pk[32];
    uint8_t sig[64];
    brt_buf msg;            /* the signed message; the body is its tail */
    uint64_t seq, rid;
    unsigned field;
    size_t body_len;
    int ok;                 /* prepared: pk, sig and msg hold the input's */
    int verdict;            /* 0 valid, -1 not */
    atomic_int done;
} job;

struct sigcheck {
    const evlog_record *recs;
    const char *game_id;
    uint8_t hh[32];
    uint8_t seat_pk[BRT_MAX_SEATS][32];
    uint8_t have_pk[BRT_MAX_SEATS];
    job *jobs;
    size_t njobs;
    size_t pos;             /* engine thread: first job not before the record asked about */
    atomic_size_t next;     /* next job not taken */
    atomic_int stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t th[MAX_THREADS];
    unsigned nth;
    uint64_t pre, spot;
};

static atomic_uint_fast64_t s_total_pre;

uint64_t sigcheck_total_precomputed(void) { return (uint64_t)atomic_load(&s_total_pre); }

static int s_is_input(uint8_t kind) {
    return kind == EVLOG_JOIN || kind == EVLOG_ORDER || kind == EVLOG_RESIGN || kind == EVLOG_NONCE;
}

/* Pack body and build the signed message into j->msg. 0 or -1. */
static int s_message(const sigcheck *c, job *j, uint64_t seq, uint64_t rid, unsigned field,
                     const ProtobufCMessage *body) {
    size_t bn;
    uint8_t *b = canon_pack(body, &bn);
    if (!b) return -1;
    int rc = seatsig_message(&j->msg, c->game_id, c->hh, seq, rid, field, b, bn);
    free(b);
    j->seq = seq;
    j->rid = rid;
    j->field = field;
    j->body_len = bn;
    return rc;
}

static int s_seat_key(const sigcheck *c, unsigned seat, job *j) {
    if (seat >= BRT_MAX_SEATS || !c->have_pk[seat]) return -1;
    memcpy(j->pk, c->seat_pk[seat], 32);
    return 0;
}

/* Rebuild what the engine will check for record j->rec. 0, or -1 (no signature
 * to prepare: the engine checks whatever it finds on the spot). */
static int s_prepare(const sigcheck *c, job *j) {
    const evlog_record *r = &c->recs[j->rec];
    int rc = -1;
    switch (r->kind) {
    case EVLOG_JOIN: {
        Berthier__V1__LogJoin *x = berthier__v1__log_join__unpack(NULL, r->len, r->payload);
        if (!x) return -1;
        if (x->sign_pk.len == 32 && x->header_hash.len == 32 && x->signature.len == 64 && x->entropy.len == 32) {
            Berthier__V1__Join b = BERTHIER__V1__JOIN__INIT;
            b.game_id = (char *)c->game_id;
            b.seat = x->seat;
            b.entropy = x->entropy;
            b.chain_commit = x->chain_commit;
            b.sign_pk = x->sign_pk;
            b.header_hash = x->header_hash;
            memcpy(j->pk, x->sign_pk.data, 32);
            memcpy(j->sig, x->signature.data, 64);
            rc = s_message(c, j, 0, x->request_id, SEATSIG_BODY_JOIN, &b.base);
        }
        berthier__v1__log_join__free_unpacked(x, NULL);
        return rc;
    }
    case EVLOG_ORDER: {
        Berthier__V1__LogOrder *x = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
        if (!x) return -1;
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, x->request.len, x->request.data);
        if (q && q->body_case == BERTHIER__V1__REQUEST__BODY_SUBMIT && q->signature.len == 64 &&
            s_seat_key(c, x->seat, j) == 0) {
            memcpy(j->sig, q->signature.data, 64);
            rc = s_message(c, j, q->submit->based_on_seq, q->request_id, SEATSIG_BODY_SUBMIT, &q->submit->base);
        }
        if (q) berthier__v1__request__free_unpacked(q, NULL);
        berthier__v1__log_order__free_unpacked(x, NULL);
        return rc;
    }
    case EVLOG_RESIGN: {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, r->len, r->payload);
        if (!x) return -1;
        if (x->signature.len == 64 && s_seat_key(c, x->seat, j) == 0) {
            Berthier__V1__GameRef b = BERTHIER__V1__GAME_REF__INIT;
            b.game_id = (char *)c->game_id;
            b.seat = x->seat;
            memcpy(j->sig, x->signature.data, 64);
            rc = s_message(c, j, 0, x->request_id, SEATSIG_BODY_RESIGN, &b.base);
        }
        berthier__v1__log_resign__free_unpacked(x, NULL);
        return rc;
    }
    case EVLOG_NONCE: {
        Berthier__V1__LogNonce *x = berthier__v1__log_nonce__unpack(NULL, r->len, r->payload);
        if (!x) return -1;
        if (x->signature.len == 64 && s_seat_key(c, x->seat, j) == 0) {
            Berthier__V1__RevealNonce b = BERTHIER__V1__REVEAL_NONCE__INIT;
            b.game_id = (char *)c->game_id;
            b.seat = x->seat;
            b.batch = x->batch;
            b.nonce = x->nonce;
            memcpy(j->sig, x->signature.data, 64);
            rc = s_message(c, j, 0, x->request_id, SEATSIG_BODY_REVEAL, &b.base);
        }
        berthier__v1__log_nonce__free_unpacked(x, NULL);
        return rc;
    }
    default:
        return -1;
    }
}

static void s_run(sigcheck *c, size_t k) {
    job *j = &c->jobs[k];
    j->ok = s_prepare(c, j) == 0;
    if (j->ok) j->verdict = crypto_sign_verify_detached(j->sig, j->msg.data, j->msg.len, j->pk) == 0 ? 0 : -1;
    atomic_store_explicit(&j->done, 1, memory_order_release);
    pthread_mutex_lock(&c->lock);
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

/* Take and run the next job not taken. 0 when none was left. */
static int s_take(sigcheck *c) {
    if (atomic_load(&c->stop)) return 0;
    size_t k = atomic_fetch_add(&c->next, 1);
    if (k >= c->njobs) return 0;
    s_run(c, k);
    return 1;
}

static void *s_worker(void *arg) {
    sigcheck *c = arg;
    while (s_take(c)) {}
    return NULL;
}

/* The key each seat's first JOIN binds. */
static void s_seat_keys(sigcheck *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (c->recs[i].kind != EVLOG_JOIN) continue;
        Berthier__V1__LogJoin *x = berthier__v1__log_join__unpack(NULL, c->recs[i].len, c->recs[i].payload);
        if (!x) continue;
        if (x->seat < BRT_MAX_SEATS && !c->have_pk[x->seat] && x->sign_pk.len == 32) {
            memcpy(c->seat_pk[x->seat], x->sign_pk.data, 32);
            c->have_pk[x->seat] = 1;
        }
        berthier__v1__log_join__free_unpacked(x, NULL);
    }
}

sigcheck *sigcheck_start(const evlog_record *recs, size_t n, const char *game_id, const uint8_t header_hash[32],
                         unsigned threads) {
    size_t njobs = 0;
    for (size_t i = 1; i < n; i++) njobs += s_is_input(recs[i].kind);
    if (njobs < MIN_JOBS || !game_id) return NULL;
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (unsigned)cpus : 1;
    }
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    sigcheck *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->jobs = calloc(njobs, sizeof *c->jobs);
    if (!c->jobs || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->jobs);
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->cond, NULL) != 0) {
        pthread_mutex_destroy(&c->lock);
        free(c->jobs);
        free(c);
        return NULL;
    }
    c->recs = recs;
    c->game_id = game_id;
    memcpy(c->hh, header_hash, 32);
    for (size_t i = 1; i < n; i++) {
        if (!s_is_input(recs[i].kind)) continue;
        job *j = &c->jobs[c->njobs++];
        j->rec = i;
        buf_init(&j->msg);
        atomic_init(&j->done, 0);
    }
    atomic_init(&c->next, 0);
    atomic_init(&c->stop, 0);
    s_seat_keys(c, n);
    while (c->nth < threads && pthread_create(&c->th[c->nth], NULL, s_worker, c) == 0) c->nth++;
    return c;
}

void sigcheck_destroy(sigcheck **pself) {
    if (!pself || !*pself) return;
    sigcheck *c = *pself;
    atomic_store(&c->stop, 1);
    for (unsigned k = 0; k < c->nth; k++) pthread_join(c->th[k], NULL);
    atomic_fetch_add(&s_total_pre, c->pre);
    for (size_t k = 0; k < c->njobs; k++) buf_free(&c->jobs[k].msg);
    free(c->jobs);
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->lock);
    free(c);
    *pself = NULL;
}

/* The job of record rec, done; NULL when rec has none. */
static job *s_wait(sigcheck *c, size_t rec) {
    while (c->pos < c->njobs && c->jobs[c->pos].rec < rec) c->pos++;
    if (c->pos >= c->njobs || c->jobs[c->pos].rec != rec) return NULL;
    job *j = &c->jobs[c->pos];
    /* Help rather than wait: the jobs before it are taken first, so this
     * reaches it soon (or a worker has it). */
    while (!atomic_load_explicit(&j->done, memory_order_acquire) && s_take(c)) {}
    if (!atomic_load_explicit(&j->done, memory_order_acquire)) {
        pthread_mutex_lock(&c->lock);
        while (!atomic_load_explicit(&j->done, memory_order_acquire)) pthread_cond_wait(&c->cond, &c->lock);
        pthread_mutex_unlock(&c->lock);
    }
    return j;
}

int sigcheck_verdict(sigcheck *c, size_t rec, const uint8_t pk[32], const char *game_id,
                     const uint8_t header_hash[32], uint64_t seq, uint64_t request_id, unsigned body_field,
                     const uint8_t *body, size_t body_len, const uint8_t *sig, size_t sig_len) {
    if (!sig || sig_len != SEATSIG_BYTES) return -1; /* as seatsig_verify */
    job *j = s_wait(c, rec);
    /* The message is a function of these (seatsig_message): the same inputs, the same bytes. */
    if (j && j->ok && seq == j->seq && request_id == j->rid && body_field == j->field && body_len == j->body_len &&
        strcmp(game_id, c->game_id) == 0 && memcmp(header_hash, c->hh, 32) == 0 && memcmp(pk, j->pk, 32) == 0 &&
        memcmp(sig, j->sig, 64) == 0 &&
        (body_len == 0 || memcmp(body, j->msg.data + j->msg.len - body_len, body_len) == 0)) {
        c->pre++;
        return j->verdict;
    }
    c->spot++;
    return seatsig_verify(pk, game_id, header_hash, seq, request_id, body_field, body, body_len, sig, sig_len);
}

void sigcheck_counts(const sigcheck *c, uint64_t *precomputed, uint64_t *on_the_spot) {
    *precomputed = c ? c->pre : 0;
    *on_the_spot = c ? c->spot : 0;
}
