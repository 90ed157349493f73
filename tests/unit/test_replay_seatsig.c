/*
 * test_replay_seatsig.c - seat-signed inputs (docs/protocol.md P3.1) against a
 * dishonest operator, who holds the server's signing key and seed but not the
 * seats' keys.
 *
 * A duel game is played in-process with every input signed by its seat. Then:
 *   - forged inputs (no signature, another key's, a signature over other bytes)
 *     are refused live by the core with UNAUTHORIZED [P3] and nothing logged;
 *   - the operator's rewrites of a finished log, each with the chain recomputed
 *     and every checkpoint signed again with the server key, are refused by
 *     berthier-replay verify and by the Python verifier, which name the record
 *     and the signature contradicted:
 *       an order stripped of its seat's signature or signed by the operator,
 *       a header with a seat's key replaced (a take-over of the seat),
 *       a header with another seed and dice commitment after the seats' entropy
 *       was logged (the game re-run with the new seed).
 * On the code before seat signatures every one of these rewrites verified:
 * nothing in a log tied an input to its seat, and nothing tied the seats'
 * entropy to the header it was sent against.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "canon.h"
#include "dice.h"
#include "evlog.h"
#include "game.h"
#include "replay.h"
#include "seatsig.h"
#include "sigcheck.h"

#define GAME_ID "5e475e475e475e47"
#define LINKS 256

static char s_dir[256];
static int s_seq;
static uint8_t s_srv_pk[32], s_srv_sk[64];          /* the server's (the operator holds it) */
static uint8_t s_seat_pk[2][32], s_seat_sk[2][64];  /* the seats' (the operator does not) */
static uint8_t s_curve[2][32];                      /* the seats' CURVE public keys */
static uint8_t s_links[2][LINKS][32];
static char s_good[300], s_good_c[300], s_work[300];

/* ---- a log file sink that may put other input records in the engine's place ---- */

typedef struct filelog {
    const char *path;
    evlog *log;
    const uint8_t *subst;    /* the input record to write instead of the engine's */
    size_t subst_len;
    size_t records;
} filelog;

static int s_rec(void *ctx, uint8_t kind, const uint8_t *payload, size_t len) {
    filelog *f = ctx;
    f->records++;
    if (!f->log) {
        char err[200];
        if (kind != EVLOG_HEADER) return -1;
        unlink(f->path);
        f->log = evlog_create(f->path, payload, len, err, sizeof err);
        return f->log ? 0 : -1;
    }
    if (kind < 16 && f->subst) {
        payload = f->subst;
        len = f->subst_len;
        f->subst = NULL;
    }
    return evlog_append(f->log, kind, payload, len);
}

static int s_ckpt(void *ctx) { return evlog_checkpoint(((filelog *)ctx)->log, s_srv_sk, GAME_ID); }
static void s_head(void *ctx, uint8_t out[32]) { memcpy(out, evlog_head(((filelog *)ctx)->log), 32); }

static uint64_t s_rng(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void s_newpath(char *out, size_t n) { snprintf(out, n, "%s/game%d.log", s_dir, s_seq++); }

/* ---- signing as a seat does ---------------------------------------------------------- */

static void s_sign_body(unsigned seat, const brt_game *g, uint64_t seq, uint64_t rid, unsigned field,
                        const ProtobufCMessage *body, uint8_t sig[64]) {
    size_t n;
    uint8_t *b = canon_pack(body, &n);
    assert_non_null(b);
    assert_int_equal(seatsig_sign(s_seat_sk[seat], game_id(g), game_header_hash(g), seq, rid, field, b, n, sig), 0);
    free(b);
}

/* A Submit request's bytes, signed by `signer` (-1: unsigned, 2: a key no seat has). */
static uint8_t *s_submit(const brt_game *g, unsigned seat, int signer, uint64_t rid, const uint8_t *order,
                         size_t olen, size_t *len) {
    Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
    r.request_id = rid;
    r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    r.submit = &sub;
    sub.game_id = (char *)GAME_ID;
    sub.seat = seat;
    sub.based_on_seq = game_seq(g);
    sub.order.data = (uint8_t *)order;
    sub.order.len = olen;
    uint8_t sig[64];
    if (signer >= 0 && signer < 2) {
        s_sign_body((unsigned)signer, g, sub.based_on_seq, rid, SEATSIG_BODY_SUBMIT, &sub.base, sig);
    } else if (signer == 2) {
        uint8_t opk[32], osk[64];
        crypto_sign_keypair(opk, osk);
        size_t n;
        uint8_t *b = canon_pack(&sub.base, &n);
        assert_int_equal(seatsig_sign(osk, GAME_ID, game_header_hash(g), sub.based_on_seq, rid,
                                      SEATSIG_BODY_SUBMIT, b, n, sig), 0);
        free(b);
    }
    if (signer >= 0) {
        r.signature.data = sig;
        r.signature.len = 64;
    }
    uint8_t *bytes = canon_pack(&r.base, len);
    assert_non_null(bytes);
    return bytes;
}

static int s_join(brt_game *g, unsigned seat, int contributory, uint64_t rid, brt_reject *err) {
    uint8_t ent[32], sig[64];
    memset(ent, (int)(0x60 + seat), 32);
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    j.game_id = (char *)GAME_ID;
    j.seat = seat;
    j.entropy.data = ent;
    j.entropy.len = 32;
    if (contributory) {
        j.chain_commit.data = s_links[seat][0];
        j.chain_commit.len = 32;
    }
    j.sign_pk.data = s_seat_pk[seat];
    j.sign_pk.len = 32;
    j.header_hash.data = (uint8_t *)game_header_hash(g);
    j.header_hash.len = 32;
    s_sign_body(seat, g, 0, rid, SEATSIG_BODY_JOIN, &j.base, sig);
    brt_seatsig sg = {rid, sig, 64, s_seat_pk[seat], 32, game_header_hash(g), 32};
    return game_join_signed(g, seat, ent, 32, j.chain_commit.data, j.chain_commit.len, &sg, err);
}

static brt_game *s_new_game(filelog *fl, int contributory, const uint8_t seed[32]) {
    brt_sink sink = {s_rec, s_ckpt, s_head, fl};
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = s_curve[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)"duel";
    c.scenario = (char *)"standard";
    c.seats = sp;
    c.n_seats = 2;
    char *opts[] = {(char *)"dice=contributory"};
    if (contributory) {
        c.options = opts;
        c.n_options = 1;
    }
    game_params p = {GAME_ID, &c, seed, s_srv_pk, "test", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, sink, &err);
    assert_non_null(g);
    assert_int_equal(evlog_sync(fl->log), 0);
    return g;
}

/* The n-th legal order of seat (random pick). */
static size_t s_pick(const brt_game *g, unsigned seat, uint64_t *rng, uint8_t *out, size_t cap) {
    brt_buf legal;
    buf_init(&legal);
    int n = game_legal(g, seat, &legal);
    assert_true(n > 0);
    int pick = (int)(s_rng(rng) % (uint64_t)n);
    size_t pos = 0, ilen = 0;
    const uint8_t *item = NULL;
    for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&legal, &pos, &item, &ilen), 1);
    assert_true(ilen <= cap);
    memcpy(out, item, ilen);
    buf_free(&legal);
    return ilen;
}

/* A whole signed duel game into path, ended by seat 1's signed resign after
 * `moves` orders (moves < 0: played to the end). */
static void s_play(const char *path, int contributory, uint64_t rng, int moves) {
    filelog fl = {path, NULL, NULL, 0, 0};
    uint8_t seed[32];
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)(rng + (uint64_t)i * 7);
    brt_game *g = s_new_game(&fl, contributory, seed);
    brt_reject err;
    uint64_t rid = 100;
    for (unsigned s = 0; s < 2; s++) {
        if (s_join(g, s, contributory, ++rid, &err) != 0) fail_msg("join refused: %s", err.message);
        assert_int_equal(evlog_sync(fl.log), 0);
    }
    assert_int_equal(game_seat_signed(g), 1);
    int next[2] = {1, 1}, made = 0;
    while (!game_over(g) && (moves < 0 || made < moves)) {
        int progressed = 0;
        for (unsigned s = 0; s < 2 && !game_over(g); s++) {
            brt_pending pd;
            int must;
            game_pending(g, (int)s, &pd, &must);
            if (!must) continue;
            if (strcmp(pd.kind, "dice-nonce") == 0) {
                uint64_t r = ++rid;
                Berthier__V1__RevealNonce rv = BERTHIER__V1__REVEAL_NONCE__INIT;
                rv.game_id = (char *)GAME_ID;
                rv.seat = s;
                rv.batch = game_batch(g);
                rv.nonce.data = s_links[s][next[s]];
                rv.nonce.len = 32;
                uint8_t sig[64];
                s_sign_body(s, g, 0, r, SEATSIG_BODY_REVEAL, &rv.base, sig);
                brt_seatsig sg = {r, sig, 64, NULL, 0, NULL, 0};
                if (game_nonce_signed(g, s, rv.batch, s_links[s][next[s]++], 32, &sg, &err) != 0)
                    fail_msg("nonce refused: %s", err.message);
            } else {
                uint8_t order[512];
                size_t olen = s_pick(g, s, &rng, order, sizeof order);
                size_t blen;
                uint8_t *bytes = s_submit(g, s, (int)s, ++rid, order, olen, &blen);
                if (game_submit(g, s, bytes, blen, &err) != 0) fail_msg("order refused: %s", err.message);
                free(bytes);
                made++;
            }
            assert_int_equal(evlog_sync(fl.log), 0);
            progressed = 1;
        }
        assert_true(progressed);
    }
    if (!game_over(g)) {
        uint64_t r = ++rid;
        Berthier__V1__GameRef ref = BERTHIER__V1__GAME_REF__INIT;
        ref.game_id = (char *)GAME_ID;
        ref.seat = 1;
        uint8_t sig[64];
        s_sign_body(1, g, 0, r, SEATSIG_BODY_RESIGN, &ref.base, sig);
        brt_seatsig sg = {r, sig, 64, NULL, 0, NULL, 0};
        assert_int_equal(game_resign_signed(g, 1, &sg, &err), 0);
        assert_int_equal(evlog_sync(fl.log), 0);
    }
    assert_true(game_over(g));
    game_destroy(&g);
    evlog_destroy(&fl.log);
}

/* ---- reading a log back -------------------------------------------------------------- */

typedef struct rec {
    uint8_t kind;
    uint8_t *payload;
    size_t len;
    uint64_t index;
} rec;

typedef struct parsed {
    rec *r;
    size_t n;
} parsed;

static void s_parse(const char *path, parsed *p) {
    memset(p, 0, sizeof *p);
    char err[200];
    evlog_reader *rd = evlog_reader_open(path, err, sizeof err);
    assert_non_null(rd);
    size_t cap = 64;
    p->r = calloc(cap, sizeof *p->r);
    evlog_record r;
    while (evlog_reader_next(rd, &r) == 1) {
        if (p->n == cap) p->r = realloc(p->r, (cap *= 2) * sizeof *p->r);
        rec *x = &p->r[p->n++];
        x->kind = r.kind;
        x->len = r.len;
        x->index = r.index;
        x->payload = malloc(r.len + 1);
        memcpy(x->payload, r.payload, r.len);
    }
    assert_int_equal(evlog_reader_scan(rd)->damaged, 0);
    evlog_reader_destroy(&rd);
}

static void s_parsed_free(parsed *p) {
    for (size_t i = 0; i < p->n; i++) free(p->r[i].payload);
    free(p->r);
}

static long s_find(const parsed *p, uint8_t kind, int nth) {
    for (size_t i = 0; i < p->n; i++)
        if (p->r[i].kind == kind && nth-- == 0) return (long)i;
    return -1;
}

/* An input record with its seat signature removed, so that the operator's
 * engine takes it (an unsigned game takes no signature). */
static uint8_t *s_unsigned_input(const rec *r, size_t *len) {
    uint8_t *out = NULL;
    if (r->kind == EVLOG_JOIN) {
        Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, r->len, r->payload);
        j->sign_pk.len = j->header_hash.len = j->signature.len = 0;
        j->request_id = 0;
        out = canon_pack(&j->base, len);
        berthier__v1__log_join__free_unpacked(j, NULL);
    } else if (r->kind == EVLOG_ORDER) {
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
        q->signature.len = 0;
        size_t n;
        uint8_t *qb = canon_pack(&q->base, &n);
        Berthier__V1__LogOrder no = BERTHIER__V1__LOG_ORDER__INIT;
        no.seat = o->seat;
        no.request.data = qb;
        no.request.len = n;
        out = canon_pack(&no.base, len);
        free(qb);
        berthier__v1__request__free_unpacked(q, NULL);
        berthier__v1__log_order__free_unpacked(o, NULL);
    } else if (r->kind == EVLOG_RESIGN) {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, r->len, r->payload);
        x->signature.len = 0;
        x->request_id = 0;
        out = canon_pack(&x->base, len);
        berthier__v1__log_resign__free_unpacked(x, NULL);
    } else if (r->kind == EVLOG_NONCE) {
        Berthier__V1__LogNonce *x = berthier__v1__log_nonce__unpack(NULL, r->len, r->payload);
        x->signature.len = 0;
        x->request_id = 0;
        out = canon_pack(&x->base, len);
        berthier__v1__log_nonce__free_unpacked(x, NULL);
    } else {
        *len = r->len;
        out = malloc(r->len + 1);
        memcpy(out, r->payload, r->len);
    }
    assert_non_null(out);
    return out;
}

/*
 * The operator's rewrite: a new log from `header` (and `seed`) in which the
 * engine re-runs the inputs of p, their signatures stripped so that it takes
 * them; what is written for each input is `inputs`' record (the original
 * signed one, or what the caller planted), so the outcomes, the chain and every
 * checkpoint (signed with the server key) are all the engine's. Stops at the
 * first input the engine refuses (the log is then a live game).
 */
static void s_forge(const char *path, const parsed *p, const uint8_t *header, size_t hlen, const uint8_t *seed,
                    const rec *const *inputs) {
    filelog fl = {path, NULL, NULL, 0, 0};
    brt_sink sink = {s_rec, s_ckpt, s_head, &fl};
    brt_reject err;
    uint8_t logged_seed[32];
    long rv = s_find(p, EVLOG_REVEAL, 0);
    if (!seed && rv > 0) {
        /* the operator knows the seed it drew; the log reveals it at the end */
        Berthier__V1__LogReveal *x = berthier__v1__log_reveal__unpack(NULL, p->r[rv].len, p->r[rv].payload);
        assert_non_null(x);
        memcpy(logged_seed, x->seed.data, 32);
        berthier__v1__log_reveal__free_unpacked(x, NULL);
        seed = logged_seed;
    }
    assert_non_null(seed);
    assert_int_equal(s_rec(&fl, EVLOG_HEADER, header, hlen), 0);
    brt_game *g = game_from_header(header, hlen, seed, sink, &err);
    if (!g) fail_msg("the forged header: %s", err.message);
    assert_int_equal(evlog_sync(fl.log), 0);
    for (size_t i = 1; i < p->n; i++) {
        if (p->r[i].kind >= 16) continue;
        size_t ulen;
        uint8_t *u = s_unsigned_input(&p->r[i], &ulen);
        fl.subst = inputs[i]->payload;
        fl.subst_len = inputs[i]->len;
        int rc = game_input_record(g, p->r[i].kind, u, ulen, &err);
        free(u);
        fl.subst = NULL;
        if (rc != 0) break;
        assert_int_equal(evlog_sync(fl.log), 0);
    }
    game_destroy(&g);
    evlog_destroy(&fl.log);
}

static const rec **s_same_inputs(const parsed *p) {
    const rec **in = calloc(p->n, sizeof *in);
    for (size_t i = 0; i < p->n; i++) in[i] = &p->r[i];
    return in;
}

/* Every input of p with its signature stripped (free with s_inputs_free). */
static const rec **s_unsigned_inputs(const parsed *p) {
    const rec **in = calloc(p->n, sizeof *in);
    for (size_t i = 0; i < p->n; i++) {
        rec *x = calloc(1, sizeof *x);
        *x = p->r[i];
        x->payload = s_unsigned_input(&p->r[i], &x->len);
        in[i] = x;
    }
    return in;
}

static void s_inputs_free(const parsed *p, const rec **in) {
    for (size_t i = 0; i < p->n; i++) {
        free(in[i]->payload);
        free((rec *)in[i]);
    }
    free(in);
}

/* ---- verifying with both verifiers ------------------------------------------------- */

static int s_verify(const char *path, char *report, size_t cap) {
    brt_buf b;
    buf_init(&b);
    int rc = replay_verify(path, NULL, &b);
    snprintf(report, cap, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    buf_free(&b);
    return rc;
}

/* The independent Python verifier (clients/python/berthier/verify.py), when the
 * source tree and Debian's python3 with PyNaCl are there; -2 when not. */
static int s_py_verify(const char *path, char *out, size_t cap) {
    const char *src = getenv("BERTHIER_SRC");
    if (!src || access("/usr/bin/python3", X_OK) != 0 ||
        system("/usr/bin/python3 -c 'import nacl.signing' 2>/dev/null") != 0)
        return -2;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "PYTHONPATH='%s/clients/python' /usr/bin/python3 -m berthier.verify '%s' 2>&1", src,
             path);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Both verifiers refuse `path`, naming record `bad` and saying `c_needle` (C)
 * and `py_needle` (Python). */
static void s_expect_bad(const char *path, long bad, const char *c_needle, const char *py_needle) {
    char rep[8192], name[48];
    int rc = s_verify(path, rep, sizeof rep);
    if (rc != REPLAY_BAD) fail_msg("berthier-replay verify gave %d, not BAD:\n%s", rc, rep);
    snprintf(name, sizeof name, "record %ld ", bad);
    if (strncmp(rep, name, strlen(name)) != 0) fail_msg("expected the report to name %s first:\n%s", name, rep);
    if (!strstr(rep, c_needle)) fail_msg("expected \"%s\" in:\n%s", c_needle, rep);
    fprintf(stderr, "berthier-replay: %.*s\n", (int)strcspn(rep, "\n"), rep);
    char py[8192];
    int prc = s_py_verify(path, py, sizeof py);
    if (prc == -2) {
        fprintf(stderr, "note: the Python verifier is not available here; checked with berthier-replay only\n");
        return;
    }
    if (prc != 1) fail_msg("the Python verifier gave %d, not 1:\n%s", prc, py);
    snprintf(name, sizeof name, "record %ld (", bad);
    if (!strstr(py, name) || !strstr(py, py_needle)) fail_msg("expected %s and \"%s\" in:\n%s", name, py_needle, py);
    fprintf(stderr, "python verify: %s", py);
}

/* ---- fixtures ------------------------------------------------------------------------ */

static int s_setup(void **state) {
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/test_replay_seatsig.XXXXXX");
    assert_non_null(mkdtemp(s_dir));
    assert_int_equal(sodium_init() < 0, 0);
    uint8_t kseed[32];
    memset(kseed, 0x5b, 32);
    crypto_sign_seed_keypair(s_srv_pk, s_srv_sk, kseed);
    for (unsigned s = 0; s < 2; s++) {
        uint8_t curve_sk[32];
        memset(curve_sk, (int)(0x31 + s), 32);
        crypto_scalarmult_base(s_curve[s], curve_sk);
        assert_int_equal(seatsig_derive(curve_sk, s_seat_pk[s], s_seat_sk[s]), 0);
        memset(s_links[s][LINKS - 1], (int)(0x70 + s), 32);
        for (int k = LINKS - 1; k > 0; k--) dice_chain_step(s_links[s][k], s_links[s][k - 1]);
    }
    s_newpath(s_good, sizeof s_good);
    s_play(s_good, 0, 7, -1);
    s_newpath(s_good_c, sizeof s_good_c);
    s_play(s_good_c, 1, 9, 6);
    s_newpath(s_work, sizeof s_work);
    return 0;
}

static int s_teardown(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

/* ---- tests ---------------------------------------------------------------------------- */

/* Known answers, the same in clients/python/tests/test_verify.py: every client, in
 * any language, derives the same key and signs the same bytes (docs/protocol.md P3.1). */
#define KAT_PK "a2346bd69b5b9ab9357477ecbbfb0fca4d1501000f4c1bbeafebfa2cf7fc3b0d"
#define KAT_MSG                                                                                                  \
    "62657274686965722d696e7075742d763110303031313232333334343535363637370001020304050607"                      \
    "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f05000000000000004d000000000000000c040000000a026869"
#define KAT_SIG                                                                                                  \
    "77bbcf1538197653704076c4241d7394a1ff98cc9d7007f50d5d4425d1004acf9d3ecfe7794ca65ea1149792c72c3a1eeb5e02c64bd7" \
    "2913e7b43f29d4636107"

static void test_key_derivation_is_fixed(void **state) {
    (void)state;
    uint8_t sk32[32], pk[32], sk[64], seed[32], pk2[32], sk2[64];
    for (int i = 0; i < 32; i++) sk32[i] = (uint8_t)i;
    assert_int_equal(seatsig_derive(sk32, pk, sk), 0);
    char hex[257];
    sodium_bin2hex(hex, sizeof hex, pk, 32);
    assert_string_equal(hex, KAT_PK);
    /* the signed message of a submit (seq 5, request id 77, body 0a 02 "hi") and its signature */
    brt_buf m;
    buf_init(&m);
    const uint8_t body[] = {0x0a, 0x02, 'h', 'i'};
    assert_int_equal(seatsig_message(&m, "0011223344556677", sk32, 5, 77, SEATSIG_BODY_SUBMIT, body, sizeof body), 0);
    assert_true(m.len * 2 < sizeof hex);
    sodium_bin2hex(hex, sizeof hex, m.data, m.len);
    assert_string_equal(hex, KAT_MSG);
    buf_free(&m);
    uint8_t sig[64];
    assert_int_equal(seatsig_sign(sk, "0011223344556677", sk32, 5, 77, SEATSIG_BODY_SUBMIT, body, sizeof body, sig), 0);
    sodium_bin2hex(hex, sizeof hex, sig, 64);
    assert_string_equal(hex, KAT_SIG);
    assert_int_equal(seatsig_verify(pk, "0011223344556677", sk32, 5, 77, SEATSIG_BODY_SUBMIT, body, sizeof body, sig,
                                    64), 0);
    assert_int_equal(seatsig_verify(pk, "0011223344556677", sk32, 6, 77, SEATSIG_BODY_SUBMIT, body, sizeof body, sig,
                                    64), -1);
    crypto_generichash(seed, 32, (const uint8_t *)"berthier-seat-sign-v1", 21, sk32, 32);
    crypto_sign_seed_keypair(pk2, sk2, seed);
    assert_memory_equal(pk, pk2, 32);
    /* another CURVE key, another signing key */
    sk32[0] ^= 1;
    assert_int_equal(seatsig_derive(sk32, pk2, sk2), 0);
    assert_memory_not_equal(pk, pk2, 32);
}

static void test_signed_games_verify(void **state) {
    (void)state;
    char rep[8192];
    assert_int_equal(s_verify(s_good, rep, sizeof rep), REPLAY_OK);
    assert_non_null(strstr(rep, "inputs seat-signed"));
    assert_int_equal(s_verify(s_good_c, rep, sizeof rep), REPLAY_OK);
    assert_non_null(strstr(rep, "inputs seat-signed"));
    char py[8192];
    int prc = s_py_verify(s_good, py, sizeof py);
    if (prc != -2) {
        assert_int_equal(prc, 0);
        assert_non_null(strstr(py, "seat signatures verified"));
        assert_int_equal(s_py_verify(s_good_c, py, sizeof py), 0);
        assert_non_null(strstr(py, "seat signatures verified"));
    }
    /* every input record of the log carries its seat's signature */
    parsed p;
    s_parse(s_good_c, &p);
    int nonces = 0;
    for (size_t i = 0; i < p.n; i++)
        if (p.r[i].kind == EVLOG_NONCE) {
            Berthier__V1__LogNonce *x = berthier__v1__log_nonce__unpack(NULL, p.r[i].len, p.r[i].payload);
            assert_int_equal(x->signature.len, 64);
            assert_true(x->request_id != 0);
            berthier__v1__log_nonce__free_unpacked(x, NULL);
            nonces++;
        }
    assert_true(nonces >= 2);
    s_parsed_free(&p);
}

/* Live: the core refuses a forged input with UNAUTHORIZED [P3] and logs nothing. */
static void test_forged_inputs_refused_live(void **state) {
    (void)state;
    char path[300];
    s_newpath(path, sizeof path);
    filelog fl = {path, NULL, NULL, 0, 0};
    uint8_t seed[32];
    memset(seed, 3, 32);
    brt_game *g = s_new_game(&fl, 0, seed);
    brt_reject err;
    /* a join for another header (the seat checked a header that is not this game's) */
    {
        uint8_t ent[32], sig[64], other[32];
        memset(ent, 1, 32);
        memcpy(other, game_header_hash(g), 32);
        other[0] ^= 1;
        Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
        j.game_id = (char *)GAME_ID;
        j.seat = 0;
        j.entropy.data = ent;
        j.entropy.len = 32;
        j.sign_pk.data = s_seat_pk[0];
        j.sign_pk.len = 32;
        j.header_hash.data = other;
        j.header_hash.len = 32;
        s_sign_body(0, g, 0, 9, SEATSIG_BODY_JOIN, &j.base, sig);
        brt_seatsig sg = {9, sig, 64, s_seat_pk[0], 32, other, 32};
        size_t before = fl.records;
        assert_int_equal(game_join_signed(g, 0, ent, 32, NULL, 0, &sg, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        assert_string_equal(err.rule, "P3");
        assert_non_null(strstr(err.message, "not the header the seat signed"));
        /* a join signature that is not over these bytes (another request id) */
        brt_seatsig sg2 = {10, sig, 64, s_seat_pk[0], 32, game_header_hash(g), 32};
        assert_int_equal(game_join_signed(g, 0, ent, 32, NULL, 0, &sg2, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        assert_int_equal(fl.records, before);
    }
    assert_int_equal(s_join(g, 0, 0, 1, &err), 0);
    /* once a join is signed, an unsigned one is refused */
    uint8_t ent[32];
    memset(ent, 2, 32);
    assert_int_equal(game_join(g, 1, ent, 32, NULL, 0, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    assert_int_equal(s_join(g, 1, 0, 2, &err), 0);
    assert_true(game_started(g));
    uint64_t rng = 5;
    for (int round = 0; round < 3 && !game_over(g); round++) {
        unsigned s = 0;
        int must = 0;
        brt_pending pd;
        for (s = 0; s < 2; s++) {
            game_pending(g, (int)s, &pd, &must);
            if (must) break;
        }
        assert_true(must);
        uint8_t order[512];
        size_t olen = s_pick(g, s, &rng, order, sizeof order);
        size_t before = fl.records;
        uint64_t seq = game_seq(g);
        /* the operator's order for seat s: unsigned, signed by its own key, or
         * signed by the other seat */
        int forgers[3] = {-1, 2, (int)(1 - s)};
        for (int f = 0; f < 3; f++) {
            size_t blen;
            uint8_t *bytes = s_submit(g, s, forgers[f], 500 + (uint64_t)f, order, olen, &blen);
            assert_int_equal(game_submit(g, s, bytes, blen, &err), -1);
            assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
            assert_string_equal(err.rule, "P3");
            assert_non_null(strstr(err.message, f == 0 ? "carries no seat signature" : "does not verify"));
            free(bytes);
        }
        /* a true signature moved to other bytes (another request id) */
        size_t blen;
        uint8_t *bytes = s_submit(g, s, (int)s, 600, order, olen, &blen);
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, blen, bytes);
        q->request_id = 601;
        size_t qlen;
        uint8_t *moved = canon_pack(&q->base, &qlen);
        assert_int_equal(game_submit(g, s, moved, qlen, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        free(moved);
        berthier__v1__request__free_unpacked(q, NULL);
        /* nothing was logged, nothing moved */
        assert_int_equal(fl.records, before);
        assert_int_equal(game_seq(g), seq);
        /* and the seat's own order goes through */
        assert_int_equal(game_submit(g, s, bytes, blen, &err), 0);
        free(bytes);
    }
    /* an unsigned resign of a joined seat is refused; resign is seat 1's alone */
    size_t before = fl.records;
    assert_int_equal(game_resign(g, 1, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    assert_int_equal(fl.records, before);
    assert_false(game_over(g));
    game_destroy(&g);
    evlog_destroy(&fl.log);
}

/* A contributory game: an unsigned or forged nonce reveal is refused too. */
static void test_forged_nonce_refused_live(void **state) {
    (void)state;
    char path[300];
    s_newpath(path, sizeof path);
    filelog fl = {path, NULL, NULL, 0, 0};
    uint8_t seed[32];
    memset(seed, 4, 32);
    brt_game *g = s_new_game(&fl, 1, seed);
    brt_reject err;
    assert_int_equal(s_join(g, 0, 1, 1, &err), 0);
    assert_int_equal(s_join(g, 1, 1, 2, &err), 0);
    brt_pending pd;
    int must;
    game_pending(g, 0, &pd, &must);
    assert_string_equal(pd.kind, "dice-nonce");
    size_t before = fl.records;
    assert_int_equal(game_nonce(g, 0, 0, s_links[0][1], 32, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    uint8_t bad[64];
    memset(bad, 7, 64);
    brt_seatsig sg = {3, bad, 64, NULL, 0, NULL, 0};
    assert_int_equal(game_nonce_signed(g, 0, 0, s_links[0][1], 32, &sg, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    assert_int_equal(fl.records, before);
    game_destroy(&g);
    evlog_destroy(&fl.log);
}

/* The operator plants an order the seat never signed: the same order with the
 * signature stripped, or signed by the operator's key. The chain and every
 * checkpoint are recomputed and signed with the server key. (Before seat
 * signatures the stripped variant was exactly what every ORDER looked like,
 * and it verified.) */
static void test_forged_order_in_log(void **state) {
    (void)state;
    parsed p;
    s_parse(s_good, &p);
    long k = s_find(&p, EVLOG_ORDER, 3);
    assert_true(k > 0);
    Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, p.r[k].len, p.r[k].payload);
    Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
    assert_int_equal(q->signature.len, 64);
    ProtobufCBinaryData true_sig = q->signature;
    const rec **in = s_same_inputs(&p);
    for (int variant = 0; variant < 2; variant++) {
        uint8_t opk[32], osk[64], sig[64];
        crypto_sign_keypair(opk, osk);
        if (variant == 0) {
            q->signature.len = 0;
        } else {
            size_t bn;
            uint8_t *body = canon_pack(&q->submit->base, &bn);
            uint8_t hh[32];
            seatsig_header_hash(p.r[0].payload, p.r[0].len, hh);
            assert_int_equal(seatsig_sign(osk, GAME_ID, hh, q->submit->based_on_seq, q->request_id,
                                          SEATSIG_BODY_SUBMIT, body, bn, sig), 0);
            free(body);
            q->signature.data = sig;
            q->signature.len = 64;
        }
        size_t qn, on;
        uint8_t *qb = canon_pack(&q->base, &qn);
        Berthier__V1__LogOrder no = BERTHIER__V1__LOG_ORDER__INIT;
        no.seat = o->seat;
        no.request.data = qb;
        no.request.len = qn;
        rec planted = {EVLOG_ORDER, canon_pack(&no.base, &on), 0, 0};
        planted.len = on;
        in[k] = &planted;
        s_forge(s_work, &p, p.r[0].payload, p.r[0].len, NULL, in);
        in[k] = &p.r[k];
        /* the forged log is whole: the same records but the planted one */
        parsed f;
        s_parse(s_work, &f);
        assert_int_equal(f.n, p.n);
        s_parsed_free(&f);
        char needle[120];
        snprintf(needle, sizeof needle, "seat %u's %s", o->seat,
                 variant == 0 ? "order carries no seat signature" : "signature on its order");
        s_expect_bad(s_work, (long)p.r[k].index, needle, needle);
        free(qb);
        free(planted.payload);
    }
    free(in);
    q->signature = true_sig;
    berthier__v1__request__free_unpacked(q, NULL);
    berthier__v1__log_order__free_unpacked(o, NULL);
    s_parsed_free(&p);
}

/* verify with the seat signatures on `threads` worker threads (replay_opts.sig_threads). */
static int s_verify_threads(const char *path, int threads, char *report, size_t cap) {
    brt_buf b;
    buf_init(&b);
    replay_opts o = {NULL, NULL, NULL, 0, 0, threads};
    int rc = replay_verify_with(path, NULL, 0, &o, &b);
    snprintf(report, cap, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    buf_free(&b);
    return rc;
}

/* berthier-replay verify [-j J] path, its output in out; its exit status, or -2
 * when the tool is not built next to this test (BERTHIER_BIN). */
static int s_cli_verify(const char *path, const char *jobs, char *out, size_t cap) {
    const char *bin = getenv("BERTHIER_BIN");
    char tool[600];
    if (!bin) return -2;
    snprintf(tool, sizeof tool, "%s/berthier-replay", bin);
    if (access(tool, X_OK) != 0) return -2;
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "'%s' verify %s%s '%s' 2>&1", tool, jobs ? "-j " : "", jobs ? jobs : "", path);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The seat signatures checked ahead on worker threads: a whole game's are
 * answered from the workers' checks (counted), and a bad signature on an order
 * in the middle of a long log fails verify naming that record, with the same
 * report, byte for byte, on 1 (-j 1), 2, 4 or one-per-cpu threads as when the
 * engine checks each signature itself, in process and from the tool. */
static void test_signatures_checked_ahead(void **state) {
    (void)state;
    char ref[8192], rep[8192];
    parsed p;
    s_parse(s_good, &p);
    size_t inputs = 0, orders = 0;
    for (size_t i = 1; i < p.n; i++) {
        inputs += p.r[i].kind == EVLOG_JOIN || p.r[i].kind == EVLOG_ORDER || p.r[i].kind == EVLOG_RESIGN ||
                  p.r[i].kind == EVLOG_NONCE;
        orders += p.r[i].kind == EVLOG_ORDER;
    }
    assert_true(orders >= 10);
    assert_int_equal(s_verify_threads(s_good, -1, ref, sizeof ref), REPLAY_OK);
    const int threads[] = {0, 1, 2, 4};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        uint64_t before = sigcheck_total_precomputed();
        assert_int_equal(s_verify_threads(s_good, threads[t], rep, sizeof rep), REPLAY_OK);
        assert_string_equal(rep, ref);
        /* every signed input's verdict came from the workers */
        assert_int_equal(sigcheck_total_precomputed() - before, inputs);
    }
    /* one bit of the signature of the order in the middle flipped */
    long k = s_find(&p, EVLOG_ORDER, (int)(orders / 2));
    assert_true(k > 0);
    Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, p.r[k].len, p.r[k].payload);
    Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
    assert_int_equal(q->signature.len, 64);
    q->signature.data[17] ^= 0x20;
    size_t qn, on;
    uint8_t *qb = canon_pack(&q->base, &qn);
    Berthier__V1__LogOrder no = BERTHIER__V1__LOG_ORDER__INIT;
    no.seat = o->seat;
    no.request.data = qb;
    no.request.len = qn;
    rec planted = {EVLOG_ORDER, canon_pack(&no.base, &on), 0, 0};
    planted.len = on;
    const rec **in = s_same_inputs(&p);
    in[k] = &planted;
    s_forge(s_work, &p, p.r[0].payload, p.r[0].len, NULL, in);
    parsed f;
    s_parse(s_work, &f);
    assert_int_equal(f.n, p.n);
    s_parsed_free(&f);
    char needle[120];
    snprintf(needle, sizeof needle, "seat %u's signature on its order", o->seat);
    s_expect_bad(s_work, (long)p.r[k].index, needle, needle);
    assert_int_equal(s_verify_threads(s_work, -1, ref, sizeof ref), REPLAY_BAD);
    char name[48];
    snprintf(name, sizeof name, "record %llu ", (unsigned long long)p.r[k].index);
    assert_int_equal(strncmp(ref, name, strlen(name)), 0);
    assert_non_null(strstr(ref, needle));
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        for (int rep_i = 0; rep_i < 3; rep_i++) {
            assert_int_equal(s_verify_threads(s_work, threads[t], rep, sizeof rep), REPLAY_BAD);
            assert_string_equal(rep, ref);
        }
    }
    /* the tool, one log: -j 1 (one worker), -j 2 and the default (one per cpu) */
    const char *jobs[] = {"1", "2", NULL};
    for (size_t t = 0; t < 3; t++) {
        int crc = s_cli_verify(s_work, jobs[t], rep, sizeof rep);
        if (crc == -2) {
            fprintf(stderr, "note: berthier-replay is not built in BERTHIER_BIN; checked in process only\n");
            break;
        }
        assert_int_equal(crc, REPLAY_BAD);
        assert_string_equal(rep, ref);
    }
    free(in);
    free(qb);
    free(planted.payload);
    berthier__v1__request__free_unpacked(q, NULL);
    berthier__v1__log_order__free_unpacked(o, NULL);
    s_parsed_free(&p);
}

/* The operator replaces seat 1's key in the header to take the seat over (the
 * whole log re-chained and re-signed by the server key): the seats' own signed
 * joins name the header hash they were made for, which this header no longer
 * has. */
static void test_rekeyed_header_in_log(void **state) {
    (void)state;
    parsed p;
    s_parse(s_good, &p);
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, p.r[0].len, p.r[0].payload);
    uint8_t operator_key[32];
    memset(operator_key, 0xee, 32);
    uint8_t *saved = h->seats[1]->key.data;
    h->seats[1]->key.data = operator_key;
    size_t hn;
    uint8_t *hb = canon_pack(&h->base, &hn);
    const rec **in = s_same_inputs(&p);
    s_forge(s_work, &p, hb, hn, NULL, in);
    parsed f;
    s_parse(s_work, &f);
    assert_int_equal(f.n, p.n);   /* the engine took every input: only the signatures object */
    s_parsed_free(&f);
    long j = s_find(&p, EVLOG_JOIN, 0);
    s_expect_bad(s_work, (long)p.r[j].index, "seat 0's signed join is for header hash",
                 "seat 0's signed join is for header hash");
    /* The same rewrite of a log without seat signatures (every log before them)
     * verifies: nothing in it objects to the new key. */
    const rec **plain = s_unsigned_inputs(&p);
    s_forge(s_work, &p, hb, hn, NULL, plain);
    char rep[8192];
    assert_int_equal(s_verify(s_work, rep, sizeof rep), REPLAY_OK);
    s_inputs_free(&p, plain);
    free(in);
    free(hb);
    h->seats[1]->key.data = saved;
    berthier__v1__log_header__free_unpacked(h, NULL);
    s_parsed_free(&p);
}

/* After the seats' entropy is logged the operator swaps the server seed and
 * the dice commitment and re-runs the game with the new seed (new rolls, the
 * chain and checkpoints recomputed and signed). Each seat's join signed the
 * header hash with the old commitment. */
static void test_swapped_seed_in_log(void **state) {
    (void)state;
    const char *logs[2] = {s_good, s_good_c};
    for (int l = 0; l < 2; l++) {
        parsed p;
        s_parse(logs[l], &p);
        Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, p.r[0].len, p.r[0].payload);
        uint8_t seed[32], commit[32];
        memset(seed, 0x42, 32);
        dice_commit(seed, commit);
        assert_memory_not_equal(commit, h->dice_commit.data, 32);
        memcpy(h->dice_commit.data, commit, 32);
        size_t hn;
        uint8_t *hb = canon_pack(&h->base, &hn);
        const rec **in = s_same_inputs(&p);
        s_forge(s_work, &p, hb, hn, seed, in);
        long j = s_find(&p, EVLOG_JOIN, 0);
        s_expect_bad(s_work, (long)p.r[j].index, "seat 0's signed join is for header hash",
                     "seat 0's signed join is for header hash");
        /* Without seat signatures the re-seeded game verifies as far as the
         * seats' logged inputs stay legal under the new rolls. */
        const rec **plain = s_unsigned_inputs(&p);
        s_forge(s_work, &p, hb, hn, seed, plain);
        char rep[8192];
        int rc = s_verify(s_work, rep, sizeof rep);
        if (rc != REPLAY_OK && rc != REPLAY_INCOMPLETE) fail_msg("the unsigned re-seeded log: %d\n%s", rc, rep);
        s_inputs_free(&p, plain);
        free(in);
        free(hb);
        berthier__v1__log_header__free_unpacked(h, NULL);
        s_parsed_free(&p);
    }
}

/* And the same rewrite of a log whose joins also had their header hash
 * replaced: the join signatures then no longer verify. */
static void test_rekeyed_header_with_rewritten_joins(void **state) {
    (void)state;
    parsed p;
    s_parse(s_good, &p);
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, p.r[0].len, p.r[0].payload);
    uint8_t operator_key[32];
    memset(operator_key, 0xef, 32);
    uint8_t *saved = h->seats[1]->key.data;
    h->seats[1]->key.data = operator_key;
    size_t hn;
    uint8_t *hb = canon_pack(&h->base, &hn);
    uint8_t hh[32];
    seatsig_header_hash(hb, hn, hh);
    const rec **in = s_same_inputs(&p);
    rec joins[2];
    for (int s = 0; s < 2; s++) {
        long j = s_find(&p, EVLOG_JOIN, s);
        Berthier__V1__LogJoin *x = berthier__v1__log_join__unpack(NULL, p.r[j].len, p.r[j].payload);
        memcpy(x->header_hash.data, hh, 32);
        joins[s].kind = EVLOG_JOIN;
        joins[s].payload = canon_pack(&x->base, &joins[s].len);
        in[j] = &joins[s];
        berthier__v1__log_join__free_unpacked(x, NULL);
    }
    s_forge(s_work, &p, hb, hn, NULL, in);
    long j0 = s_find(&p, EVLOG_JOIN, 0);
    s_expect_bad(s_work, (long)p.r[j0].index, "seat 0's join signature", "seat 0's join signature");
    for (int s = 0; s < 2; s++) free(joins[s].payload);
    free(in);
    free(hb);
    h->seats[1]->key.data = saved;
    berthier__v1__log_header__free_unpacked(h, NULL);
    s_parsed_free(&p);
}

/* An input record signed again by another key (sk, pk) over header hash hh:
 * what an operator who plays a seat with a key of its own writes. */
static uint8_t *s_resigned_input(const rec *r, const uint8_t sk[64], const uint8_t pk[32], const uint8_t hh[32],
                                 size_t *len) {
    uint8_t sig[64];
    uint8_t *out = NULL;
    if (r->kind == EVLOG_JOIN) {
        Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, r->len, r->payload);
        Berthier__V1__Join body = BERTHIER__V1__JOIN__INIT;
        body.game_id = (char *)GAME_ID;
        body.seat = j->seat;
        body.entropy = j->entropy;
        body.chain_commit = j->chain_commit;
        body.sign_pk.data = (uint8_t *)pk;
        body.sign_pk.len = 32;
        body.header_hash.data = (uint8_t *)hh;
        body.header_hash.len = 32;
        size_t n;
        uint8_t *b = canon_pack(&body.base, &n);
        assert_int_equal(seatsig_sign(sk, GAME_ID, hh, 0, j->request_id, SEATSIG_BODY_JOIN, b, n, sig), 0);
        free(b);
        memcpy(j->sign_pk.data, pk, 32);
        memcpy(j->header_hash.data, hh, 32);
        memcpy(j->signature.data, sig, 64);
        out = canon_pack(&j->base, len);
        berthier__v1__log_join__free_unpacked(j, NULL);
    } else if (r->kind == EVLOG_ORDER) {
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
        size_t n, qn;
        uint8_t *b = canon_pack(&q->submit->base, &n);
        assert_int_equal(seatsig_sign(sk, GAME_ID, hh, q->submit->based_on_seq, q->request_id, SEATSIG_BODY_SUBMIT,
                                      b, n, sig), 0);
        free(b);
        memcpy(q->signature.data, sig, 64);
        uint8_t *qb = canon_pack(&q->base, &qn);
        Berthier__V1__LogOrder no = BERTHIER__V1__LOG_ORDER__INIT;
        no.seat = o->seat;
        no.request.data = qb;
        no.request.len = qn;
        out = canon_pack(&no.base, len);
        free(qb);
        berthier__v1__request__free_unpacked(q, NULL);
        berthier__v1__log_order__free_unpacked(o, NULL);
    } else if (r->kind == EVLOG_RESIGN) {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, r->len, r->payload);
        Berthier__V1__GameRef body = BERTHIER__V1__GAME_REF__INIT;
        body.game_id = (char *)GAME_ID;
        body.seat = x->seat;
        size_t n;
        uint8_t *b = canon_pack(&body.base, &n);
        assert_int_equal(seatsig_sign(sk, GAME_ID, hh, 0, x->request_id, SEATSIG_BODY_RESIGN, b, n, sig), 0);
        free(b);
        memcpy(x->signature.data, sig, 64);
        out = canon_pack(&x->base, len);
        berthier__v1__log_resign__free_unpacked(x, NULL);
    }
    assert_non_null(out);
    return out;
}

static unsigned s_input_seat(const rec *r) {
    unsigned seat = 99;
    if (r->kind == EVLOG_JOIN) {
        Berthier__V1__LogJoin *x = berthier__v1__log_join__unpack(NULL, r->len, r->payload);
        seat = x->seat;
        berthier__v1__log_join__free_unpacked(x, NULL);
    } else if (r->kind == EVLOG_ORDER) {
        Berthier__V1__LogOrder *x = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
        seat = x->seat;
        berthier__v1__log_order__free_unpacked(x, NULL);
    } else if (r->kind == EVLOG_RESIGN) {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, r->len, r->payload);
        seat = x->seat;
        berthier__v1__log_resign__free_unpacked(x, NULL);
    }
    return seat;
}

/* The operator takes seat 1 over from its join on, with a signing key of its
 * own, the header unchanged: every record verifies (the signing key cannot be
 * told from the seat's CURVE key by anyone without the seat's secret). What
 * the seat kept of its own join (berthierctl header: your-sign-key,
 * header-hash) catches it: both verifiers, given it, name seat 1's JOIN. */
static void test_replaced_join_against_the_seats_own_record(void **state) {
    (void)state;
    parsed p;
    s_parse(s_good, &p);
    uint8_t opk[32], osk[64], hh[32];
    crypto_sign_keypair(opk, osk);
    seatsig_header_hash(p.r[0].payload, p.r[0].len, hh);
    const rec **in = s_same_inputs(&p);
    rec *mine = calloc(p.n, sizeof *mine);
    int replaced = 0;
    for (size_t i = 1; i < p.n; i++)
        if (p.r[i].kind < 16 && s_input_seat(&p.r[i]) == 1) {
            mine[i] = p.r[i];
            mine[i].payload = s_resigned_input(&p.r[i], osk, opk, hh, &mine[i].len);
            in[i] = &mine[i];
            replaced++;
        }
    assert_true(replaced > 3);
    s_forge(s_work, &p, p.r[0].payload, p.r[0].len, NULL, in);
    char rep[8192];
    assert_int_equal(s_verify(s_work, rep, sizeof rep), REPLAY_OK);
    /* seat 0's own record agrees with the log; seat 1's does not */
    replay_seat_pin pins[2];
    memset(pins, 0, sizeof pins);
    for (unsigned s = 0; s < 2; s++) {
        pins[s].seat = s;
        memcpy(pins[s].sign_pk, s_seat_pk[s], 32);
        pins[s].have_header_hash = 1;
        memcpy(pins[s].header_hash, hh, 32);
    }
    brt_buf b;
    buf_init(&b);
    assert_int_equal(replay_verify_seats(s_work, NULL, pins, 1, &b), REPLAY_OK);
    buf_reset(&b);
    assert_int_equal(replay_verify_seats(s_work, NULL, pins, 2, &b), REPLAY_BAD);
    long j1 = s_find(&p, EVLOG_JOIN, 1);
    char name[48];
    snprintf(name, sizeof name, "record %llu ", (unsigned long long)p.r[j1].index);
    buf_append(&b, "", 1);
    if (strncmp((char *)b.data, name, strlen(name)) != 0 || !strstr((char *)b.data, "this join is not the seat's"))
        fail_msg("expected %s and the seat's join named:\n%s", name, (char *)b.data);
    fprintf(stderr, "berthier-replay: %.*s\n", (int)strcspn((char *)b.data, "\n"), (char *)b.data);
    /* a header hash the seat did not sign */
    buf_reset(&b);
    pins[0].header_hash[0] ^= 1;
    assert_int_equal(replay_verify_seats(s_work, NULL, pins, 1, &b), REPLAY_BAD);
    buf_append(&b, "", 1);
    assert_non_null(strstr((char *)b.data, "record 0 "));
    assert_non_null(strstr((char *)b.data, "the header was changed"));
    buf_free(&b);
    /* the same through the command line (berthier-replay verify --seat-key) */
    const char *bin = getenv("BERTHIER_BIN");
    char k1[65], hx[65], cmd[1400];
    sodium_bin2hex(k1, sizeof k1, s_seat_pk[1], 32);
    sodium_bin2hex(hx, sizeof hx, hh, 32);
    if (bin) {
        snprintf(cmd, sizeof cmd, "'%s/berthier-replay' verify --seat-key 1:%s:%s '%s' > /dev/null 2>&1", bin, k1,
                 hx, s_work);
        int st = system(cmd);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), REPLAY_BAD);
        snprintf(cmd, sizeof cmd, "'%s/berthier-replay' verify --seat-key 1:%s '%s' > /dev/null 2>&1", bin, hx,
                 s_work);   /* a key that is not the one seat 1's JOIN binds */
        st = system(cmd);
        assert_int_equal(WEXITSTATUS(st), REPLAY_BAD);
        snprintf(cmd, sizeof cmd, "'%s/berthier-replay' verify --seat-key 1:nothex '%s' > /dev/null 2>&1", bin,
                 s_work);
        st = system(cmd);
        assert_int_equal(WEXITSTATUS(st), REPLAY_USAGE);
    }
    /* the Python verifier, with the same records */
    const char *src = getenv("BERTHIER_SRC");
    if (src && s_py_verify(s_good, rep, sizeof rep) != -2) {
        snprintf(cmd, sizeof cmd,
                 "PYTHONPATH='%s/clients/python' /usr/bin/python3 -m berthier.verify --seat-key 1:%s:%s '%s' 2>&1",
                 src, k1, hx, s_work);
        FILE *f = popen(cmd, "r");
        size_t n = fread(rep, 1, sizeof rep - 1, f);
        rep[n] = 0;
        int st = pclose(f);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 1);
        snprintf(name, sizeof name, "record %llu (JOIN)", (unsigned long long)p.r[j1].index);
        if (!strstr(rep, name) || !strstr(rep, "this join is not the seat's")) fail_msg("python verify:\n%s", rep);
        fprintf(stderr, "python verify: %s", rep);
    }
    for (size_t i = 0; i < p.n; i++)
        if (in[i] == &mine[i]) free(mine[i].payload);
    free(mine);
    free(in);
    s_parsed_free(&p);
}

/* A log from before seat signatures (no join binds a key) still verifies, and
 * says so; a log that mixes signed and unsigned joins does not. */
static void test_unsigned_logs(void **state) {
    (void)state;
    parsed p;
    s_parse(s_good, &p);
    const rec **in = calloc(p.n, sizeof *in);
    rec *plain = calloc(p.n, sizeof *plain);
    for (size_t i = 0; i < p.n; i++) {
        plain[i] = p.r[i];
        if (p.r[i].kind < 16 && p.r[i].kind != EVLOG_HEADER) plain[i].payload = s_unsigned_input(&p.r[i], &plain[i].len);
        in[i] = &plain[i];
    }
    s_forge(s_work, &p, p.r[0].payload, p.r[0].len, NULL, in);
    char rep[8192];
    assert_int_equal(s_verify(s_work, rep, sizeof rep), REPLAY_OK);
    assert_non_null(strstr(rep, "inputs not seat-signed"));
    char py[8192];
    int prc = s_py_verify(s_work, py, sizeof py);
    if (prc != -2) {
        assert_int_equal(prc, 0);
        assert_non_null(strstr(py, "inputs not seat-signed"));
    }
    /* seat 1's join signed, seat 0's not: refused at seat 1's join */
    long j1 = s_find(&p, EVLOG_JOIN, 1);
    in[j1] = &p.r[j1];
    s_forge(s_work, &p, p.r[0].payload, p.r[0].len, NULL, in);
    s_expect_bad(s_work, (long)p.r[j1].index, "every seat's join binds a signing key, or none",
                 "every seat's join binds a signing key, or none");
    for (size_t i = 0; i < p.n; i++)
        if (plain[i].payload != p.r[i].payload) free(plain[i].payload);
    free(plain);
    free(in);
    s_parsed_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_derivation_is_fixed),
        cmocka_unit_test(test_signed_games_verify),
        cmocka_unit_test(test_forged_inputs_refused_live),
        cmocka_unit_test(test_forged_nonce_refused_live),
        cmocka_unit_test(test_forged_order_in_log),
        cmocka_unit_test(test_signatures_checked_ahead),
        cmocka_unit_test(test_rekeyed_header_in_log),
        cmocka_unit_test(test_swapped_seed_in_log),
        cmocka_unit_test(test_rekeyed_header_with_rewritten_joins),
        cmocka_unit_test(test_replaced_join_against_the_seats_own_record),
        cmocka_unit_test(test_unsigned_logs),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
