/* local.c - see berthier_local.h. */
#include "berthier_local.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "evlog.h"
#include "game.h"
#include "seatsig.h"

typedef struct s_rec {
    uint8_t kind;
    uint8_t *payload;
    size_t len;
} s_rec;

struct brt_local {
    brt_game *g;
    char id[GAME_ID_MAX + 1];
    unsigned nseats;
    uint8_t seed[32];
    uint8_t curve_sk[BRT_MAX_SEATS][32], curve_pk[BRT_MAX_SEATS][32];
    uint8_t seat_pk[BRT_MAX_SEATS][SEATSIG_PK_BYTES], seat_sk[BRT_MAX_SEATS][SEATSIG_SK_BYTES];
    uint8_t sign_pk[32], sign_sk[64];
    uint64_t request_id;
    s_rec *recs;
    size_t n, cap;
    size_t last_from, last_to;   /* the records of the last accepted input */
    uint8_t head[32];
    int failed;                  /* a record could not be kept: the game is unusable */
    brt_buf out, aux;
    char err[640];
};

static void s_err(brt_local *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_err(brt_local *self, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(self->err, sizeof self->err, fmt, ap);
    va_end(ap);
}

static const char *s_code_name(int code) {
    const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(&berthier__v1__code__descriptor, code);
    return v ? v->name : "CODE_UNKNOWN";
}

static int s_reject(brt_local *self, const brt_reject *r) {
    s_err(self, "%s [%s] %s", s_code_name(r->code), r->rule, r->message);
    return -1;
}

/* ---- the sink: records in memory, with the chain for contributory heads ---- */
static int s_record(void *ctx, uint8_t kind, const uint8_t *p, size_t len) {
    brt_local *self = ctx;
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 256;
        s_rec *r = realloc(self->recs, cap * sizeof *r);
        if (!r) {
            self->failed = 1;
            return -1;
        }
        self->recs = r;
        self->cap = cap;
    }
    s_rec *r = &self->recs[self->n];
    r->payload = malloc(len ? len : 1);
    if (!r->payload) {
        self->failed = 1;
        return -1;
    }
    if (len) memcpy(r->payload, p, len);
    r->kind = kind;
    r->len = len;
    evlog_chain(self->head, kind, p, (uint32_t)len, self->head);
    self->n++;
    return 0;
}

/* A CHECKPOINT over the in-memory chain; brt_local_write_log signs each one
 * again over the file's own chain. */
static int s_checkpoint(void *ctx) {
    brt_local *self = ctx;
    uint8_t p[EVLOG_CHECKPOINT_MAX];
    size_t n = evlog_checkpoint_payload(self->sign_sk, self->id, self->n - 1, self->head, p);
    return s_record(ctx, EVLOG_CHECKPOINT, p, n);
}

static void s_head(void *ctx, uint8_t out[32]) { memcpy(out, ((brt_local *)ctx)->head, 32); }

/* Derived bytes: BLAKE2b-256 keyed with the seed over a label and a number. */
static void s_derive(const uint8_t seed[32], const char *label, unsigned i, uint8_t out[32]) {
    crypto_generichash_state st;
    uint8_t n[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16), (uint8_t)(i >> 24)};
    crypto_generichash_init(&st, seed, 32, 32);
    crypto_generichash_update(&st, (const uint8_t *)label, strlen(label));
    crypto_generichash_update(&st, n, sizeof n);
    crypto_generichash_final(&st, out, 32);
}

brt_local *brt_local_new(const char *ruleset, const char *scenario, const char *options, unsigned n_seats,
                         const char *game_id, const uint8_t *seed, const uint8_t *seat_sk,
                         const uint8_t *sign_seed, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (sodium_init() < 0 || !ruleset || !seed || n_seats < 1 || n_seats > BRT_MAX_SEATS ||
        (game_id && strlen(game_id) > GAME_ID_MAX)) {
        if (err) snprintf(err, errlen, "CODE_BAD_REQUEST [] a ruleset, a 32-byte seed, 1 to %d seats and a game id "
                                       "of at most %d characters are needed", BRT_MAX_SEATS, GAME_ID_MAX);
        return NULL;
    }
    brt_local *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    buf_init(&self->out);
    buf_init(&self->aux);
    memcpy(self->seed, seed, 32);
    self->nseats = n_seats;
    if (game_id) snprintf(self->id, sizeof self->id, "%s", game_id);
    else {
        uint8_t h[32];
        s_derive(seed, "berthier-local-id", 0, h);
        for (int i = 0; i < 8; i++) snprintf(self->id + 2 * i, 3, "%02x", h[i]);
    }
    uint8_t ss[32];
    if (sign_seed) memcpy(ss, sign_seed, 32);
    else s_derive(seed, "berthier-local-sign", 0, ss);
    crypto_sign_seed_keypair(self->sign_pk, self->sign_sk, ss);
    sodium_memzero(ss, sizeof ss);
    for (unsigned i = 0; i < n_seats; i++) {
        if (seat_sk) memcpy(self->curve_sk[i], seat_sk + 32 * i, 32);
        else s_derive(seed, "berthier-local-seat", i, self->curve_sk[i]);
        crypto_scalarmult_base(self->curve_pk[i], self->curve_sk[i]);
        seatsig_derive(self->curve_sk[i], self->seat_pk[i], self->seat_sk[i]);
    }
    /* Options: split the '\n'-separated list. */
    char *opts_copy = options ? strdup(options) : NULL;
    char *optv[GAME_MAX_OPTIONS + 1];
    size_t nopt = 0;
    int too_many = 0;
    for (char *save = NULL, *t = opts_copy ? strtok_r(opts_copy, "\n", &save) : NULL; t;
         t = strtok_r(NULL, "\n", &save)) {
        if (nopt == GAME_MAX_OPTIONS + 1) {
            too_many = 1;
            break;
        }
        optv[nopt++] = t;
    }
    Berthier__V1__SeatSpec specs[BRT_MAX_SEATS], *sp[BRT_MAX_SEATS];
    for (unsigned i = 0; i < n_seats; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = self->curve_pk[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    c.ruleset = (char *)ruleset;
    c.scenario = (char *)(scenario ? scenario : "");
    c.options = optv;
    c.n_options = nopt;
    c.seats = sp;
    c.n_seats = n_seats;
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    uint8_t fixed[32];
    int f = too_many ? -1 : game_fixed_seed(optv, nopt, fixed, &rej);
    if (too_many) {
        rej.code = BERTHIER__V1__CODE__CODE_BAD_OPTION;
        snprintf(rej.message, sizeof rej.message, "at most %d options", GAME_MAX_OPTIONS);
    }
    if (f == 1) memcpy(self->seed, fixed, 32);
    if (f >= 0) {
        game_params p = {self->id, &c, self->seed, self->sign_pk, "local", NULL, 0, NULL};
        brt_sink sink = {s_record, s_checkpoint, s_head, self};
        self->g = game_create(&p, sink, &rej);
    }
    free(opts_copy);
    if (!self->g) {
        if (err) snprintf(err, errlen, "%s [%s] %s", s_code_name(rej.code), rej.rule, rej.message);
        brt_local_destroy(&self);
        return NULL;
    }
    if (options && strstr(options, "dice=contributory")) {
        if (err) snprintf(err, errlen, "CODE_BAD_OPTION [] dice=contributory is not supported in process");
        brt_local_destroy(&self);
        return NULL;
    }
    return self;
}

void brt_local_destroy(brt_local **pself) {
    if (!pself || !*pself) return;
    brt_local *self = *pself;
    game_destroy(&self->g);
    for (size_t i = 0; i < self->n; i++) free(self->recs[i].payload);
    free(self->recs);
    buf_free(&self->out);
    buf_free(&self->aux);
    sodium_memzero(self, sizeof *self);
    free(self);
    *pself = NULL;
}

static int s_begin(brt_local *self, unsigned seat) {
    self->err[0] = '\0';
    if (self->failed) {
        s_err(self, "CODE_INTERNAL [] the game could not keep a record (out of memory)");
        return -1;
    }
    if (seat >= self->nseats) {
        s_err(self, "CODE_BAD_SEAT [] seat %u: this game has %u seats", seat, self->nseats);
        return -1;
    }
    return 0;
}

static int s_done(brt_local *self, size_t from, int rc, const brt_reject *rej) {
    if (rc != 0) return s_reject(self, rej);
    self->last_from = from;
    self->last_to = self->n;
    return 0;
}

/* Sign `body` (a Request oneof `field`) as `seat` into sig. */
static int s_sign(brt_local *self, unsigned seat, uint64_t seq, uint64_t rid, unsigned field,
                  const ProtobufCMessage *body, uint8_t sig[SEATSIG_BYTES]) {
    size_t n;
    uint8_t *b = canon_pack(body, &n);
    if (!b) return -1;
    int rc = seatsig_sign(self->seat_sk[seat], self->id, game_header_hash(self->g), seq, rid, field, b, n, sig);
    free(b);
    return rc;
}

int brt_local_join(brt_local *self, unsigned seat, const uint8_t *entropy) {
    if (s_begin(self, seat) != 0) return -1;
    uint8_t ent[32];
    if (entropy) memcpy(ent, entropy, 32);
    else s_derive(self->seed, "berthier-local-entropy", seat, ent);
    Berthier__V1__Join body = BERTHIER__V1__JOIN__INIT;
    body.game_id = self->id;
    body.seat = seat;
    body.entropy.data = ent;
    body.entropy.len = 32;
    body.sign_pk.data = self->seat_pk[seat];
    body.sign_pk.len = SEATSIG_PK_BYTES;
    body.header_hash.data = (uint8_t *)game_header_hash(self->g);
    body.header_hash.len = 32;
    uint64_t rid = ++self->request_id;
    uint8_t sig[SEATSIG_BYTES];
    if (s_sign(self, seat, 0, rid, SEATSIG_BODY_JOIN, &body.base, sig) != 0) {
        s_err(self, "CODE_INTERNAL [] signing failed");
        return -1;
    }
    brt_seatsig ss = {rid, sig, sizeof sig, self->seat_pk[seat], SEATSIG_PK_BYTES, game_header_hash(self->g), 32};
    brt_reject rej;
    size_t from = self->n;
    int rc = game_join_signed(self->g, seat, ent, 32, NULL, 0, &ss, &rej);
    return s_done(self, from, rc, &rej);
}

int brt_local_apply(brt_local *self, unsigned seat, const uint8_t *order, size_t len, int is_text) {
    if (s_begin(self, seat) != 0) return -1;
    brt_reject rej;
    if (is_text) {
        buf_reset(&self->aux);
        if (!order || game_parse_order(self->g, (const char *)order, &self->aux, &rej) != 0) {
            if (!order) {
                s_err(self, "CODE_BAD_ORDER [] no order text");
                return -1;
            }
            return s_reject(self, &rej);
        }
        order = self->aux.data;
        len = self->aux.len;
    }
    Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
    r.request_id = ++self->request_id;
    r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    r.submit = &sub;
    sub.game_id = self->id;
    sub.seat = seat;
    sub.based_on_seq = game_seq(self->g);
    sub.order.data = (uint8_t *)order;
    sub.order.len = len;
    uint8_t sig[SEATSIG_BYTES];
    if (s_sign(self, seat, sub.based_on_seq, r.request_id, SEATSIG_BODY_SUBMIT, &sub.base, sig) != 0) {
        s_err(self, "CODE_INTERNAL [] signing failed");
        return -1;
    }
    r.signature.data = sig;
    r.signature.len = sizeof sig;
    size_t blen;
    uint8_t *bytes = canon_pack(&r.base, &blen);
    if (!bytes) {
        s_err(self, "CODE_INTERNAL [] out of memory");
        return -1;
    }
    size_t from = self->n;
    int rc = game_submit(self->g, seat, bytes, blen, &rej);
    free(bytes);
    return s_done(self, from, rc, &rej);
}

int brt_local_resign(brt_local *self, unsigned seat) {
    if (s_begin(self, seat) != 0) return -1;
    uint64_t rid = ++self->request_id;
    brt_reject rej;
    size_t from = self->n;
    int rc;
    if (game_joined(self->g, seat) && game_seat_signed(self->g) == 1) {
        Berthier__V1__GameRef body = BERTHIER__V1__GAME_REF__INIT;
        body.game_id = self->id;
        body.seat = seat;
        uint8_t sig[SEATSIG_BYTES];
        if (s_sign(self, seat, 0, rid, SEATSIG_BODY_RESIGN, &body.base, sig) != 0) {
            s_err(self, "CODE_INTERNAL [] signing failed");
            return -1;
        }
        brt_seatsig ss = {rid, sig, sizeof sig, NULL, 0, NULL, 0};
        rc = game_resign_signed(self->g, seat, &ss, &rej);
    } else {
        rc = game_resign(self->g, seat, &rej);
    }
    return s_done(self, from, rc, &rej);
}

const uint8_t *brt_local_legal(brt_local *self, unsigned seat, int text, size_t *len, int *count) {
    if (s_begin(self, seat) != 0) return NULL;
    buf_reset(&self->aux);
    int n = game_legal(self->g, seat, &self->aux);
    if (n < 0) {
        s_err(self, "CODE_INTERNAL [] the ruleset could not list the legal orders");
        return NULL;
    }
    if (!text) {
        *len = self->aux.len;
        *count = n;
        return self->aux.data ? self->aux.data : (const uint8_t *)"";
    }
    buf_reset(&self->out);
    brt_buf one;
    buf_init(&one);
    const brt_ruleset *rs = game_ruleset(self->g);
    size_t pos = 0;
    const uint8_t *item;
    size_t ilen;
    while (buf_next_item(&self->aux, &pos, &item, &ilen) == 1) {
        buf_reset(&one);
        if (!rs->order_format || rs->order_format(item, ilen, &one) != 0) {
            buf_reset(&one);
            buf_append_str(&one, "?");
        }
        if (buf_append_item(&self->out, one.data, one.len) != 0) {
            buf_free(&one);
            s_err(self, "CODE_INTERNAL [] out of memory");
            return NULL;
        }
    }
    buf_free(&one);
    *len = self->out.len;
    *count = n;
    return self->out.data ? self->out.data : (const uint8_t *)"";
}

const uint8_t *brt_local_view(brt_local *self, int seat, int text, size_t *len) {
    self->err[0] = '\0';
    if (seat >= (int)self->nseats || seat < -1) {
        s_err(self, "CODE_BAD_SEAT [] seat %d: this game has %u seats", seat, self->nseats);
        return NULL;
    }
    buf_reset(&self->out);
    if (game_view(self->g, seat, text ? NULL : &self->out, text ? &self->out : NULL) != 0) {
        s_err(self, "CODE_INTERNAL [] the ruleset could not make the view");
        return NULL;
    }
    *len = self->out.len;
    return self->out.data ? self->out.data : (const uint8_t *)"";
}

int brt_local_pending(brt_local *self, uint32_t *seats, int *sealed, char *kind, char *rule, char *prompt,
                      uint32_t *turn) {
    brt_pending p;
    int must;
    memset(&p, 0, sizeof p);
    game_pending(self->g, -1, &p, &must);
    *seats = game_over(self->g) ? 0 : p.seats;
    *sealed = p.sealed;
    snprintf(kind, sizeof p.kind, "%s", p.kind);
    snprintf(rule, sizeof p.rule, "%s", p.rule);
    snprintf(prompt, sizeof p.prompt, "%s", p.prompt);
    *turn = p.turn;
    return 0;
}

int brt_local_must_act(brt_local *self, unsigned seat) {
    if (seat >= self->nseats || game_over(self->g)) return 0;
    brt_pending p;
    int must = 0;
    game_pending(self->g, (int)seat, &p, &must);
    return must ? 1 : 0;
}

int brt_local_result(brt_local *self, int *ended, uint32_t *winners, char *level, char *reason) {
    brt_result r;
    memset(&r, 0, sizeof r);
    game_result(self->g, &r);
    *ended = game_over(self->g) ? 1 : r.ended;
    *winners = r.winners;
    snprintf(level, sizeof r.level, "%s", r.level);
    snprintf(reason, sizeof r.reason, "%s", r.reason);
    return 0;
}

int brt_local_state_hash(brt_local *self, uint8_t out[32]) { return game_state_hash(self->g, out); }
uint64_t brt_local_seq(const brt_local *self) { return game_seq(self->g); }
unsigned brt_local_seats(const brt_local *self) { return self->nseats; }
const char *brt_local_game_id(const brt_local *self) { return self->id; }
const uint8_t *brt_local_seat_key(const brt_local *self, unsigned seat) {
    return seat < self->nseats ? self->curve_pk[seat] : NULL;
}
const uint8_t *brt_local_sign_pk(const brt_local *self) { return self->sign_pk; }
const char *brt_local_error(const brt_local *self) { return self->err; }

const uint8_t *brt_local_last_records(brt_local *self, size_t *len, int *count) {
    buf_reset(&self->out);
    int n = 0;
    for (size_t i = self->last_from; i < self->last_to; i++, n++) {
        if (buf_reserve(&self->out, self->recs[i].len + 5) != 0) {
            s_err(self, "CODE_INTERNAL [] out of memory");
            return NULL;
        }
        buf_append_u32le(&self->out, (uint32_t)self->recs[i].len + 1);
        buf_append(&self->out, &self->recs[i].kind, 1);
        buf_append(&self->out, self->recs[i].payload, self->recs[i].len);
    }
    *len = self->out.len;
    *count = n;
    return self->out.data ? self->out.data : (const uint8_t *)"";
}

int brt_local_write_log(brt_local *self, const char *path) {
    self->err[0] = '\0';
    if (self->n == 0 || self->recs[0].kind != EVLOG_HEADER || !path) {
        s_err(self, "CODE_INTERNAL [] no log to write");
        return -1;
    }
    char e[200];
    evlog *l = evlog_create(path, self->recs[0].payload, self->recs[0].len, e, sizeof e);
    if (!l) {
        s_err(self, "CODE_INTERNAL [] %s: %s", path, e);
        return -1;
    }
    int rc = 0;
    /* The file's chain also covers its SYNC record: checkpoints are signed again over it. */
    for (size_t i = 1; i < self->n && rc == 0; i++) {
        if (self->recs[i].kind == EVLOG_CHECKPOINT) rc = evlog_checkpoint(l, self->sign_sk, self->id);
        else rc = evlog_append(l, self->recs[i].kind, self->recs[i].payload, self->recs[i].len);
    }
    if (rc == 0) rc = evlog_sync(l);
    evlog_destroy(&l);
    if (rc != 0) s_err(self, "CODE_INTERNAL [] %s: the log could not be written", path);
    return rc;
}
