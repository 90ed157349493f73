/*
 * test_replay.c - berthier-replay on real logs: a duel game is played in-process
 * by core/game.c writing through core/evlog.c, then the log is verified as it is,
 * damaged (flipped bytes, deleted, duplicated and swapped records, cut tails),
 * forged (records changed with the chain recomputed, checkpoints signed by
 * another key, another ruleset version), shown and exported. The same checks
 * run through the berthier-replay binary when BERTHIER_BIN is set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

#define GAME_ID "0a1b2c3d4e5f6071"

static char s_dir[256];
static int s_seq;
static uint8_t s_pk[32], s_sk[64];

/* ---- playing a game into a log file ------------------------------------------- */

typedef struct filelog {
    const char *path;
    evlog *log;
    int failed;
} filelog;

static int s_rec(void *ctx, uint8_t kind, const uint8_t *payload, size_t len) {
    filelog *f = ctx;
    if (!f->log) {
        char err[200];
        if (kind != EVLOG_HEADER) return -1;
        f->log = evlog_create(f->path, payload, len, err, sizeof err);
        return f->log ? 0 : -1;
    }
    return evlog_append(f->log, kind, payload, len);
}

static int s_ckpt(void *ctx) {
    filelog *f = ctx;
    return evlog_checkpoint(f->log, s_sk, GAME_ID);
}

static void s_head(void *ctx, uint8_t out[32]) {
    filelog *f = ctx;
    memcpy(out, evlog_head(f->log), 32);
}

static uint64_t s_rng(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void s_newpath(char *out, size_t n) { snprintf(out, n, "%s/game%d.log", s_dir, s_seq++); }

/* Play duel with `nseats` seats choosing random legal orders; max_inputs < 0: to the end.
 * contributory: dice=contributory, every seat revealing the next link of its nonce chain. */
enum { LINKS = 256 };
static uint8_t s_links[3][LINKS][32];

enum { THEN_NOTHING, THEN_RESIGN, THEN_TIMEOUT, THEN_ABORT, THEN_ABORT_FORFEIT };

static void s_play_opts(const char *path, unsigned nseats, uint64_t rng, int max_inputs, int contributory,
                        int then) {
    filelog fl = {path, NULL, 0};
    brt_sink sink = {s_rec, s_ckpt, s_head, &fl};
    uint8_t keys[3][32], seed[32];
    for (unsigned s = 0; s < 3; s++) memset(keys[s], (int)(0x10 + s), 32);
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)(rng + (uint64_t)i * 3);
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[3], *sp[3];
    for (unsigned i = 0; i < nseats; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)"duel";
    c.scenario = (char *)"standard";
    c.seats = sp;
    c.n_seats = nseats;
    char *opts[] = {(char *)"dice=contributory"};
    if (contributory) {
        c.options = opts;
        c.n_options = 1;
        for (unsigned s = 0; s < nseats; s++) {
            memset(s_links[s][LINKS - 1], (int)(0x70 + s), 32);
            for (int k = LINKS - 1; k > 0; k--) dice_chain_step(s_links[s][k], s_links[s][k - 1]);
        }
    }
    int next[3] = {1, 1, 1};
    game_params p = {GAME_ID, &c, seed, s_pk, "test", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, sink, &err);
    assert_non_null(g);
    assert_int_equal(evlog_sync(fl.log), 0);
    int inputs = 0;
    for (unsigned s = 0; s < nseats && (max_inputs < 0 || inputs < max_inputs); s++, inputs++) {
        uint8_t ent[32];
        memset(ent, (int)(0x60 + s), 32);
        assert_int_equal(game_join(g, s, ent, 32, contributory ? s_links[s][0] : NULL, contributory ? 32 : 0, &err),
                         0);
        assert_int_equal(evlog_sync(fl.log), 0);
    }
    uint64_t rid = 0;
    while (!game_over(g) && (max_inputs < 0 || inputs < max_inputs)) {
        int progressed = 0;
        for (unsigned s = 0; s < nseats && !game_over(g); s++) {
            brt_pending pd;
            int must;
            game_pending(g, (int)s, &pd, &must);
            if (!must) continue;
            if (strcmp(pd.kind, "dice-nonce") == 0) {
                assert_true(next[s] < LINKS);
                if (game_nonce(g, s, game_batch(g), s_links[s][next[s]++], 32, &err) != 0)
                    fail_msg("nonce refused: %s", err.message);
                assert_int_equal(evlog_sync(fl.log), 0);
                progressed = 1;
                inputs++;
                continue;
            }
            brt_buf legal;
            buf_init(&legal);
            int n = game_legal(g, s, &legal);
            assert_true(n > 0);
            int pick = (int)(s_rng(&rng) % (uint64_t)n);
            size_t pos = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&legal, &pos, &item, &ilen), 1);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = (char *)GAME_ID;
            sub.seat = s;
            sub.based_on_seq = game_seq(g);
            sub.order.data = (uint8_t *)item;
            sub.order.len = ilen;
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            assert_non_null(bytes);
            if (game_submit(g, s, bytes, blen, &err) != 0) fail_msg("legal order rejected: %s", err.message);
            assert_int_equal(evlog_sync(fl.log), 0);
            free(bytes);
            buf_free(&legal);
            progressed = 1;
            inputs++;
        }
        assert_true(progressed);
    }
    if (then == THEN_RESIGN) {
        assert_int_equal(game_resign(g, 0, &err), 0);
        assert_int_equal(evlog_sync(fl.log), 0);
        assert_true(game_over(g));
    } else if (then == THEN_ABORT || then == THEN_ABORT_FORFEIT) {
        int forfeit = then == THEN_ABORT_FORFEIT ? (int)nseats - 1 : -1;
        /* refused without a record: an empty or unprintable reason, a seat the game lacks */
        assert_int_equal(game_abort(g, "", forfeit, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_REQUEST);
        assert_int_equal(game_abort(g, "tab\there", forfeit, &err), -1);
        assert_int_equal(game_abort(g, "stalled", (int)nseats, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
        assert_false(game_over(g));
        assert_int_equal(game_abort(g, "seat stalled past the match's game timeout", forfeit, &err), 0);
        assert_int_equal(evlog_sync(fl.log), 0);
        assert_true(game_over(g));
        assert_true(game_aborted(g));
        brt_result res;
        game_result(g, &res);
        assert_true(res.ended);
        if (forfeit < 0) {
            assert_string_equal(res.level, "aborted");
            assert_int_equal(res.winners, 0);
        } else {
            assert_string_equal(res.level, "forfeit");
            assert_int_equal(res.winners, ((1u << nseats) - 1) & ~(1u << forfeit));
        }
        assert_non_null(strstr(res.reason, "seat stalled past the match's game timeout"));
        /* an ended game cannot be aborted again */
        assert_int_equal(game_abort(g, "again", -1, &err), -1);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_GAME_OVER);
    } else if (then == THEN_TIMEOUT) {
        for (unsigned s = 0; s < nseats; s++) {
            brt_pending pd;
            int must;
            game_pending(g, (int)s, &pd, &must);
            if (must) {
                assert_int_equal(game_timeout(g, s, &err), 0);
                assert_int_equal(evlog_sync(fl.log), 0);
                break;
            }
        }
    }
    game_destroy(&g);
    evlog_destroy(&fl.log);
}

static void s_play(const char *path, unsigned nseats, uint64_t rng, int max_inputs) {
    s_play_opts(path, nseats, rng, max_inputs, 0, THEN_NOTHING);
}

/* ---- log surgery -------------------------------------------------------------------- */

typedef struct rec {
    uint8_t kind;
    uint8_t *payload;
    size_t len;
    uint64_t offset, size;
} rec;

typedef struct parsed {
    uint8_t *file;
    size_t file_len;
    rec *r;
    size_t n;
} parsed;

static uint8_t *s_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n + 1);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return d;
}

static void s_spit(const char *path, const uint8_t *d, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(d, 1, len, f), len);
    fclose(f);
}

/* Every record of the file as it lies on disk, SYNC records included (the
 * reader hides those), by walking the length fields; the file must be sound. */
static void s_parse(const char *path, parsed *p) {
    memset(p, 0, sizeof *p);
    p->file = s_slurp(path, &p->file_len);
    size_t cap = 64;
    p->r = calloc(cap, sizeof *p->r);
    size_t off = EVLOG_FILE_HEADER;
    while (off < p->file_len) {
        assert_true(off + 37 <= p->file_len);
        if (p->n == cap) {
            cap *= 2;
            p->r = realloc(p->r, cap * sizeof *p->r);
        }
        const uint8_t *b = p->file + off;
        rec *x = &p->r[p->n++];
        x->len = (size_t)b[0] | (size_t)b[1] << 8 | (size_t)b[2] << 16 | (size_t)b[3] << 24;
        x->kind = b[4];
        assert_true(off + 37 + x->len <= p->file_len);
        x->payload = malloc(x->len + 1);
        memcpy(x->payload, b + 5, x->len);
        x->offset = off;
        x->size = 37 + x->len;
        off += x->size;
    }
    /* and the reader agrees that it is sound */
    evlog_reader *rd = evlog_reader_from_memory(p->file, p->file_len);
    evlog_record r;
    while (evlog_reader_next(rd, &r) == 1) {}
    assert_int_equal(evlog_reader_scan(rd)->damaged, 0);
    assert_int_equal(evlog_reader_scan(rd)->torn_tail, 0);
    evlog_reader_destroy(&rd);
}

/* The index of the last record of a kind. */
static long s_last(const parsed *p, uint8_t kind) {
    for (size_t i = p->n; i-- > 0;)
        if (p->r[i].kind == kind) return (long)i;
    return -1;
}

/* How many SYNC records (closed batches) lie at index >= from. */
static int s_syncs_from(const parsed *p, size_t from) {
    int n = 0;
    for (size_t i = from; i < p->n; i++) n += p->r[i].kind == EVLOG_SYNC;
    return n;
}

static void s_parsed_free(parsed *p) {
    for (size_t i = 0; i < p->n; i++) free(p->r[i].payload);
    free(p->r);
    free(p->file);
}

/* Write records (by index list, -1 ends) with a freshly computed chain. */
static void s_write_chained(const char *path, const parsed *p, const int *order, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("BRTHRLOG\x01\0\0\0\0\0\0\0", 1, 16, f);
    uint8_t prev[32] = {0};
    for (size_t k = 0; k < n; k++) {
        const rec *r = &p->r[order[k]];
        uint8_t hdr[5] = {(uint8_t)r->len, (uint8_t)(r->len >> 8), (uint8_t)(r->len >> 16), (uint8_t)(r->len >> 24),
                          r->kind};
        evlog_chain(prev, r->kind, r->payload, (uint32_t)r->len, prev);
        fwrite(hdr, 1, 5, f);
        fwrite(r->payload, 1, r->len, f);
        fwrite(prev, 1, 32, f);
    }
    fclose(f);
}

static void s_identity(int *order, size_t n) {
    for (size_t i = 0; i < n; i++) order[i] = (int)i;
}

/* ---- verifying ---------------------------------------------------------------------- */

static int s_verify(const char *path, const uint8_t *pk, char *report, size_t cap) {
    brt_buf b;
    buf_init(&b);
    int rc = replay_verify(path, pk, &b);
    snprintf(report, cap, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    buf_free(&b);
    return rc;
}

/* Verify and expect rc; when rc is REPLAY_BAD, the report names record `bad` first. */
static void s_expect(const char *path, int want, long bad, const char *needle) {
    char rep[8192];
    int rc = s_verify(path, NULL, rep, sizeof rep);
    if (rc != want) fail_msg("verify gave %d, expected %d:\n%s", rc, want, rep);
    if (bad >= 0) {
        char name[48];
        snprintf(name, sizeof name, "record %ld ", bad);
        if (strncmp(rep, name, strlen(name)) != 0) fail_msg("expected the report to start with \"%s\":\n%s", name, rep);
    }
    if (needle && !strstr(rep, needle)) fail_msg("expected \"%s\" in the report:\n%s", needle, rep);
}

/* Damage at record `bad`: with several complete batches after it the log is
 * refused naming that record; in the last batches it may be a torn tail (the
 * recovery rules in core/evlog.c), but it never verifies as a finished game. */
static void s_expect_damage(const parsed *p, const char *path, long bad, size_t batches_from) {
    if (s_syncs_from(p, batches_from) >= 3) {
        s_expect(path, REPLAY_BAD, bad, NULL);
        return;
    }
    char rep[8192];
    int rc = s_verify(path, NULL, rep, sizeof rep);
    if (rc != REPLAY_BAD && rc != REPLAY_INCOMPLETE) fail_msg("verify gave %d for damage at record %ld:\n%s", rc, bad, rep);
}

/* The index of the record holding byte `off`. */
static long s_record_at(const parsed *p, uint64_t off) {
    for (size_t i = 0; i < p->n; i++)
        if (off >= p->r[i].offset && off < p->r[i].offset + p->r[i].size) return (long)i;
    return -1;
}

/* ---- fixtures -------------------------------------------------------------------------- */

static char s_good[300], s_live[300], s_work[300];
static parsed s_p;

static int s_setup(void **state) {
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/test_replay.XXXXXX");
    assert_non_null(mkdtemp(s_dir));
    assert_int_equal(sodium_init() < 0, 0);
    uint8_t kseed[32];
    memset(kseed, 0x5a, 32);
    crypto_sign_seed_keypair(s_pk, s_sk, kseed);
    s_newpath(s_good, sizeof s_good);
    s_play(s_good, 2, 7, -1);
    s_newpath(s_live, sizeof s_live);
    s_play(s_live, 2, 11, 9);
    s_newpath(s_work, sizeof s_work);
    s_parse(s_good, &s_p);
    return 0;
}

static int s_teardown(void **state) {
    (void)state;
    s_parsed_free(&s_p);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void test_good_log_verifies(void **state) {
    (void)state;
    assert_true(s_p.n > 20);
    assert_int_equal(s_p.r[0].kind, EVLOG_HEADER);
    long ck = s_last(&s_p, EVLOG_CHECKPOINT);
    assert_int_equal(s_p.r[ck - 2].kind, EVLOG_END);
    assert_int_equal(s_p.r[ck - 1].kind, EVLOG_REVEAL);
    for (size_t k = (size_t)ck + 1; k < s_p.n; k++) assert_int_equal(s_p.r[k].kind, EVLOG_SYNC);
    char rep[4096];
    assert_int_equal(s_verify(s_good, NULL, rep, sizeof rep), REPLAY_OK);
    assert_non_null(strstr(rep, "OK: game " GAME_ID));
    /* pinning the right key passes, another key fails at the header */
    assert_int_equal(s_verify(s_good, s_pk, rep, sizeof rep), REPLAY_OK);
    uint8_t other[32];
    memcpy(other, s_pk, 32);
    other[0] ^= 1;
    assert_int_equal(s_verify(s_good, other, rep, sizeof rep), REPLAY_BAD);
    assert_non_null(strstr(rep, "record 0 at offset 16 (HEADER): the header's signing key"));
    /* the in-memory entry point agrees */
    brt_buf b;
    buf_init(&b);
    assert_int_equal(replay_verify_memory(s_p.file, s_p.file_len, NULL, &b), REPLAY_OK);
    buf_free(&b);
    /* a file that is not there cannot be checked */
    assert_int_equal(s_verify("/nonexistent/x.log", NULL, rep, sizeof rep), REPLAY_CANNOT);
}

static void test_three_seat_game_verifies(void **state) {
    (void)state;
    char path[300];
    s_newpath(path, sizeof path);
    s_play(path, 3, 5, -1);
    s_expect(path, REPLAY_OK, -1, "OK: game");
}

static void test_contributory_dice_game_verifies(void **state) {
    (void)state;
    char path[300];
    s_newpath(path, sizeof path);
    s_play_opts(path, 2, 3, -1, 1, THEN_NOTHING);
    s_expect(path, REPLAY_OK, -1, "OK: game");
    parsed q;
    s_parse(path, &q);
    size_t nonces = 0;
    for (size_t i = 0; i < q.n; i++) nonces += q.r[i].kind == EVLOG_NONCE;
    assert_true(nonces > 4);
    /* a live contributory game: dice come from the log, the batch keys from the chain */
    s_newpath(path, sizeof path);
    s_play_opts(path, 2, 3, 14, 1, THEN_NOTHING);
    s_expect(path, REPLAY_INCOMPLETE, -1, "is not finished");
    s_parsed_free(&q);
}

/* Resignations (before and after the start) and clock timeouts are inputs too. */
static void test_resign_and_timeout_verify(void **state) {
    (void)state;
    char path[300];
    for (int at = 1; at <= 12; at += (at < 4 ? 1 : 4)) {
        s_newpath(path, sizeof path);
        s_play_opts(path, 2, 21, at, 0, THEN_RESIGN);
        s_expect(path, REPLAY_OK, -1, "OK: game");
    }
    for (int at = 3; at <= 12; at += 3) {
        s_newpath(path, sizeof path);
        s_play_opts(path, 3, 22, at, 0, THEN_TIMEOUT);
        parsed q;
        s_parse(path, &q);
        assert_true(s_last(&q, EVLOG_TIMEOUT) > 0);
        s_parsed_free(&q);
        char rep[4096];
        int rc = s_verify(path, NULL, rep, sizeof rep);
        if (rc != REPLAY_OK && rc != REPLAY_INCOMPLETE) fail_msg("timeout log: %d\n%s", rc, rep);
    }
}

/* An admin's ABORT (no winner, or a forfeit) is an input: the replay re-executes it
 * and the log verifies as a finished game. Before ABORT existed an admin could not
 * end a game at all: the old engine rejects record kind 7 ("not an input"). */
static void test_abort_verifies(void **state) {
    (void)state;
    char path[300];
    static const int ats[] = {0, 1, 2, 5, 13};
    for (size_t k = 0; k < sizeof ats / sizeof ats[0]; k++) {
        for (int then = THEN_ABORT; then <= THEN_ABORT_FORFEIT; then++) {
            for (int contributory = 0; contributory <= 1; contributory++) {
                s_newpath(path, sizeof path);
                s_play_opts(path, 2 + (unsigned)(k % 2), 31 + (uint64_t)k, ats[k], contributory, then);
                parsed q;
                s_parse(path, &q);
                long ab = s_last(&q, EVLOG_ABORT), end = s_last(&q, EVLOG_END);
                assert_true(ab > 0);
                assert_true(end > ab);
                assert_int_equal(s_last(&q, EVLOG_CHECKPOINT), end + 2);
                s_parsed_free(&q);
                s_expect(path, REPLAY_OK, -1, "note: an admin aborted the game");
                s_expect(path, REPLAY_OK, -1,
                         then == THEN_ABORT ? "result: aborted, winners: none (aborted by the admin: seat stalled"
                                            : "result: forfeit, winners: ");
            }
        }
    }
}

static void test_live_game_is_incomplete(void **state) {
    (void)state;
    s_expect(s_live, REPLAY_INCOMPLETE, -1, "INCOMPLETE: game " GAME_ID " is not finished");
}

static void test_flipped_byte_anywhere_in_the_middle(void **state) {
    (void)state;
    uint8_t *img = malloc(s_p.file_len);
    /* every byte of the file, one flip each (the stride keeps the test short but
     * crosses every field of every record kind) */
    for (uint64_t pos = EVLOG_FILE_HEADER; pos < s_p.file_len; pos += (pos < 800 ? 1 : 3)) {
        memcpy(img, s_p.file, s_p.file_len);
        img[pos] ^= 0x04;
        s_spit(s_work, img, s_p.file_len);
        long r = s_record_at(&s_p, pos);
        if (r == 0) s_expect(s_work, REPLAY_BAD, 0, NULL);
        else s_expect_damage(&s_p, s_work, r, (size_t)r + 1);
    }
    /* the file header */
    memcpy(img, s_p.file, s_p.file_len);
    img[3] ^= 0x20;
    s_spit(s_work, img, s_p.file_len);
    s_expect(s_work, REPLAY_BAD, 0, "bad file header");
    free(img);
}

static void test_deleted_duplicated_swapped_records(void **state) {
    (void)state;
    size_t n = s_p.n;
    uint8_t *img = malloc(s_p.file_len * 2);
    for (size_t k = 1; k + 1 < n; k++) {
        const rec *r = &s_p.r[k];
        /* deleted: the record after it no longer links */
        memcpy(img, s_p.file, r->offset);
        memcpy(img + r->offset, s_p.file + r->offset + r->size, s_p.file_len - r->offset - r->size);
        s_spit(s_work, img, s_p.file_len - r->size);
        s_expect_damage(&s_p, s_work, (long)k, k + 2);
        /* duplicated: the copy does not link */
        memcpy(img, s_p.file, r->offset + r->size);
        memcpy(img + r->offset + r->size, s_p.file + r->offset, s_p.file_len - r->offset);
        s_spit(s_work, img, s_p.file_len + r->size);
        s_expect_damage(&s_p, s_work, (long)k + 1, k + 1);
        /* swapped with the next one */
        if (k + 2 < n) {
            const rec *q = &s_p.r[k + 1];
            memcpy(img, s_p.file, s_p.file_len);
            memcpy(img + r->offset, s_p.file + q->offset, q->size);
            memcpy(img + r->offset + q->size, s_p.file + r->offset, r->size);
            s_spit(s_work, img, s_p.file_len);
            s_expect_damage(&s_p, s_work, (long)k, k + 3);
        }
    }
    free(img);
}

static void test_cut_tail(void **state) {
    (void)state;
    /* cut at every record boundary and inside every record: a consistent prefix
     * of the game (a torn batch is dropped whole), not finished */
    size_t first_sync = 0;
    while (s_p.r[first_sync].kind != EVLOG_SYNC) first_sync++;
    for (size_t k = first_sync + 1; k < s_p.n; k++) {
        s_spit(s_work, s_p.file, s_p.r[k].offset);
        s_expect(s_work, REPLAY_INCOMPLETE, -1, "INCOMPLETE");
        s_spit(s_work, s_p.file, s_p.r[k].offset + s_p.r[k].size / 2);
        s_expect(s_work, REPLAY_INCOMPLETE, -1, "torn tail");
    }
    /* before the header's batch is closed: the game was never created */
    for (uint64_t cut = 0; cut < s_p.r[first_sync].offset + s_p.r[first_sync].size; cut += 7) {
        s_spit(s_work, s_p.file, cut);
        s_expect(s_work, REPLAY_BAD, -1, "never created");
    }
    /* bytes after the end of a finished game */
    uint8_t *img = malloc(s_p.file_len + 3);
    memcpy(img, s_p.file, s_p.file_len);
    memcpy(img + s_p.file_len, "\x05\x00\x00", 3);
    s_spit(s_work, img, s_p.file_len + 3);
    s_expect(s_work, REPLAY_BAD, s_last(&s_p, EVLOG_CHECKPOINT), "follow the final checkpoint");
    free(img);
}

/* A forger rewrites records and recomputes the chain (but holds no signing key). */
static void test_forged_records_with_a_recomputed_chain(void **state) {
    (void)state;
    int *order = calloc(s_p.n, sizeof *order);
    s_identity(order, s_p.n);
    int seen_dice = 0, seen_state = 0, seen_event = 0;
    for (size_t k = 1; k < s_p.n; k++) {
        rec *r = &s_p.r[k];
        int kind = r->kind;
        if (!((kind == EVLOG_DICE && !seen_dice++) || (kind == EVLOG_STATE && !seen_state++) ||
              (kind == EVLOG_EVENT && !seen_event++)))
            continue;
        uint8_t saved = r->payload[r->len - 1];
        r->payload[r->len - 1] ^= 0x01;
        s_write_chained(s_work, &s_p, order, s_p.n);
        r->payload[r->len - 1] = saved;
        s_expect(s_work, REPLAY_BAD, (long)k,
                 kind == EVLOG_DICE ? "roll #" : kind == EVLOG_STATE ? "state after seq" : NULL);
    }
    assert_true(seen_dice && seen_state && seen_event);
    /* REVEAL and the final CHECKPOINT dropped (the batch still closed): the
     * game cannot be finished without the seed, so it is not complete */
    long ck = s_last(&s_p, EVLOG_CHECKPOINT);
    size_t m = 0;
    for (size_t k = 0; k < s_p.n; k++)
        if ((long)k != ck && (long)k != ck - 1) order[m++] = (int)k;
    s_write_chained(s_work, &s_p, order, m);
    s_expect(s_work, REPLAY_INCOMPLETE, -1, NULL);
    /* END dropped: the engine ends the game where the log reveals the seed */
    m = 0;
    for (size_t k = 0; k < s_p.n; k++)
        if ((long)k != ck - 2) order[m++] = (int)k;
    s_write_chained(s_work, &s_p, order, m);
    s_expect(s_work, REPLAY_BAD, ck - 2, "where the engine produces END");
    free(order);
}

/* Any payload in place of any record's, with the chain recomputed: refused, never a crash. */
static void test_garbage_payloads_with_a_recomputed_chain(void **state) {
    (void)state;
    parsed q;
    s_parse(s_good, &q);
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    uint64_t rng = 77;
    for (size_t k = 0; k < q.n; k++) {
        rec *r = &q.r[k];
        uint8_t *saved = r->payload;
        size_t saved_len = r->len;
        for (int round = 0; round < 2; round++) {
            size_t len = round == 0 ? saved_len : (size_t)(s_rng(&rng) % 64);
            uint8_t *junk = malloc(len + 1);
            for (size_t i = 0; i < len; i++) junk[i] = (uint8_t)s_rng(&rng);
            if (round == 0 && len) junk[0] = saved[0]; /* same first byte: decodes further */
            r->payload = junk;
            r->len = len;
            s_write_chained(s_work, &q, order, q.n);
            char rep[8192];
            int rc = s_verify(s_work, NULL, rep, sizeof rep);
            if (rc == REPLAY_OK && !(len == saved_len && memcmp(junk, saved, len) == 0))
                fail_msg("record %zu (%s) replaced by %zu random bytes verified:\n%s", k,
                         evlog_kind_name(r->kind), len, rep);
            free(junk);
        }
        r->payload = saved;
        r->len = saved_len;
    }
    /* a SYNC record carrying bytes is refused, even after the final checkpoint */
    long last_sync = s_last(&q, EVLOG_SYNC);
    uint8_t *saved = q.r[last_sync].payload;
    q.r[last_sync].payload = (uint8_t *)"hidden";
    q.r[last_sync].len = 6;
    s_write_chained(s_work, &q, order, q.n);
    q.r[last_sync].payload = saved;
    q.r[last_sync].len = 0;
    s_expect(s_work, REPLAY_BAD, last_sync, "hidden");
    free(order);
    s_parsed_free(&q);
}

static void test_checkpoints_signed_by_another_key(void **state) {
    (void)state;
    uint8_t opk[32], osk[64];
    crypto_sign_keypair(opk, osk);
    /* re-sign every checkpoint with another key over the true chain */
    parsed q;
    s_parse(s_good, &q);
    uint8_t prev[32] = {0}, chain[32];
    long first = -1;
    for (size_t k = 0; k < q.n; k++) {
        rec *r = &q.r[k];
        if (r->kind == EVLOG_CHECKPOINT) {
            Berthier__V1__LogCheckpoint *c = berthier__v1__log_checkpoint__unpack(NULL, r->len, r->payload);
            assert_non_null(c);
            evlog_checkpoint_sign(osk, GAME_ID, c->record, c->head.data, c->signature.data);
            berthier__v1__log_checkpoint__pack(c, r->payload);
            berthier__v1__log_checkpoint__free_unpacked(c, NULL);
            if (first < 0) first = (long)k;
        }
        evlog_chain(prev, r->kind, r->payload, (uint32_t)r->len, chain);
        memcpy(prev, chain, 32);
    }
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_BAD, first, "does not verify");
    free(order);
    s_parsed_free(&q);
}

/* The signer's own rewrite: every checkpoint's head set to the chain as it now
 * is and signed again with the server's key, but the signature of checkpoint
 * `spoil` (-2: of every one) spoilt after signing (its length kept). */
static void s_resign(parsed *q, long spoil) {
    uint8_t prev[32] = {0};
    for (size_t k = 0; k < q->n; k++) {
        rec *r = &q->r[k];
        if (r->kind == EVLOG_CHECKPOINT) {
            Berthier__V1__LogCheckpoint *c = berthier__v1__log_checkpoint__unpack(NULL, r->len, r->payload);
            assert_non_null(c);
            assert_true(c->head.len == 32 && c->signature.len == 64);
            memcpy(c->head.data, prev, 32);
            evlog_checkpoint_sign(s_sk, GAME_ID, c->record, c->head.data, c->signature.data);
            if (spoil == -2 || (long)k == spoil) c->signature.data[0] ^= 0x01;
            berthier__v1__log_checkpoint__pack(c, r->payload);
            berthier__v1__log_checkpoint__free_unpacked(c, NULL);
        }
        evlog_chain(prev, r->kind, r->payload, (uint32_t)r->len, prev);
    }
}

static int s_verify_paranoid(const char *path, char *report, size_t cap) {
    brt_buf b;
    buf_init(&b);
    replay_opts o = {NULL, NULL, NULL, 0, 1, 0};
    int rc = replay_verify_with(path, NULL, 0, &o, &b);
    snprintf(report, cap, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    buf_free(&b);
    return rc;
}

/* The last checkpoint's signature covers every earlier record through the chain
 * (docs/log-format.md, "What berthier-replay verify checks"): a spoilt signature on
 * an earlier checkpoint is what the signer vouched for then, and only --paranoid
 * names it; but where the log ends or first goes wrong after it, it is the last
 * checkpoint signed so far, and it is checked. */
static void test_one_signature_covers_the_earlier_checkpoints(void **state) {
    (void)state;
    parsed q;
    s_parse(s_good, &q);
    long mid = -1, last = s_last(&q, EVLOG_CHECKPOINT);
    for (size_t k = 0; k < q.n && mid < 0; k++)
        if (q.r[k].kind == EVLOG_CHECKPOINT && k > 3) mid = (long)k;
    assert_true(mid > 0 && mid < last);
    s_resign(&q, mid);
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_OK, -1, "OK: game");
    char rep[8192], name[48];
    snprintf(name, sizeof name, "record %ld ", mid);
    assert_int_equal(s_verify_paranoid(s_work, rep, sizeof rep), REPLAY_BAD);
    if (strncmp(rep, name, strlen(name)) != 0 || !strstr(rep, "does not verify"))
        fail_msg("--paranoid should name the spoilt checkpoint %ld first:\n%s", mid, rep);
    /* cut after it (its batch closed): it is the last checkpoint, and checked */
    size_t end = (size_t)mid + 1;
    while (end < q.n && q.r[end - 1].kind != EVLOG_SYNC) end++;
    s_write_chained(s_work, &q, order, end);
    s_expect(s_work, REPLAY_BAD, mid, "does not verify");
    /* a record the rules would not produce after it: the checkpoint is named first */
    long st = -1;
    for (size_t k = (size_t)mid + 1; k < (size_t)last && st < 0; k++)
        if (q.r[k].kind == EVLOG_STATE) st = (long)k;
    assert_true(st > mid);
    q.r[st].payload[q.r[st].len - 1] ^= 0x01;
    s_resign(&q, mid);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_BAD, mid, "does not verify");
    assert_non_null(strstr(s_verify(s_work, NULL, rep, sizeof rep) == REPLAY_BAD ? rep : "", "2 problems"));
    q.r[st].payload[q.r[st].len - 1] ^= 0x01;
    /* every checkpoint's signature spoilt: the first is named, as with another key */
    s_resign(&q, -2);
    s_write_chained(s_work, &q, order, q.n);
    long first = -1;
    for (size_t k = 0; k < q.n && first < 0; k++)
        if (q.r[k].kind == EVLOG_CHECKPOINT) first = (long)k;
    s_expect(s_work, REPLAY_BAD, first, "does not verify");
    free(order);
    s_parsed_free(&q);
}

static void test_ruleset_version_must_match(void **state) {
    (void)state;
    parsed q;
    s_parse(s_good, &q);
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, q.r[0].len, q.r[0].payload);
    assert_non_null(h);
    char *orig = h->ruleset_version;
    h->ruleset_version = (char *)"0-not-this-one";
    size_t n;
    uint8_t *bytes = canon_pack(&h->base, &n);
    h->ruleset_version = orig;
    berthier__v1__log_header__free_unpacked(h, NULL);
    free(q.r[0].payload);
    q.r[0].payload = bytes;
    q.r[0].len = n;
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_BAD, 0, "version \"0-not-this-one\"");
    free(order);
    s_parsed_free(&q);
}

/* the scenario data this build has (map, charts, cards) must be the data the game was played on */
static void test_scenario_data_must_match(void **state) {
    (void)state;
    parsed q;
    s_parse(s_good, &q);
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, q.r[0].len, q.r[0].payload);
    assert_non_null(h);
    assert_int_equal(h->scenario_hash.len, 32);
    h->scenario_hash.data[0] ^= 1;
    size_t n;
    uint8_t *bytes = canon_pack(&h->base, &n);
    berthier__v1__log_header__free_unpacked(h, NULL);
    free(q.r[0].payload);
    q.r[0].payload = bytes;
    q.r[0].len = n;
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_BAD, 0, "played with scenario standard data");
    free(order);
    s_parsed_free(&q);
}

static void test_reveal_must_open_the_commitment(void **state) {
    (void)state;
    parsed q;
    s_parse(s_good, &q);
    size_t k = (size_t)s_last(&q, EVLOG_REVEAL);
    q.r[k].payload[q.r[k].len - 1] ^= 0x80;
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    s_expect(s_work, REPLAY_BAD, (long)k, "dice commitment");
    free(order);
    s_parsed_free(&q);
}

static void test_show_and_export(void **state) {
    (void)state;
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    assert_int_equal(replay_show(s_good, UINT64_MAX, -1, &out, &err), 0);
    buf_append(&out, "", 1);
    assert_non_null(strstr((char *)out.data, "game " GAME_ID));
    assert_non_null(strstr((char *)out.data, "result: "));
    buf_reset(&out);
    /* seq 4: both seats joined (the start is an applied step of its own) and both bid */
    assert_int_equal(replay_show(s_good, 4, 0, &out, &err), 0);
    buf_append(&out, "", 1);
    if (!strstr((char *)out.data, "seq 4,") || !strstr((char *)out.data, "pending: "))
        fail_msg("show --at 4 --seat 0 gave:\n%s", (char *)out.data);
    buf_reset(&out);
    assert_int_equal(replay_show(s_good, 1000000, -1, &out, &err), -1);
    buf_append(&err, "", 1);
    assert_non_null(strstr((char *)err.data, "reaches seq"));
    buf_reset(&err);

    assert_int_equal(replay_export(s_good, &out, &err), 0);
    /* one JSON object per record, and after each input once the game has started, the
     * views of the state it led to (lines of kind "view") */
    size_t lines = 0, views = 0;
    for (size_t i = 0; i < out.len; i++) {
        if (i == 0 || out.data[i - 1] == '\n')
            views += strncmp((const char *)out.data + i, "{\"kind\":\"view\"", 14) == 0;
        lines += out.data[i] == '\n';
    }
    assert_true(views > 0);
    assert_int_equal(lines - views, s_p.n - (size_t)s_syncs_from(&s_p, 0));
    buf_append(&out, "", 1);
    const char *t = (const char *)out.data;
    assert_true(strncmp(t, "{\"record\":0,\"offset\":16,\"kind\":\"header\"", 39) == 0);
    assert_non_null(strstr(t, "\"ruleset\":\"duel\""));
    assert_non_null(strstr(t, "\"kind\":\"order\""));
    assert_non_null(strstr(t, "\"order\":\"bid "));
    assert_non_null(strstr(t, "\"kind\":\"dice\""));
    assert_non_null(strstr(t, "\"purpose\":\""));
    assert_non_null(strstr(t, "\"kind\":\"event\""));
    assert_non_null(strstr(t, "\"kind\":\"state\""));
    assert_non_null(strstr(t, "\"kind\":\"end\""));
    assert_non_null(strstr(t, "\"result\":{\"ended\":true"));
    buf_free(&out);
    buf_free(&err);

    /* JSON strings are escaped */
    brt_buf j;
    buf_init(&j);
    const char raw[] = "a\"b\\c\n\x01\x7f\xc3\xa9\xff";
    assert_int_equal(replay_json_string(&j, raw, sizeof raw - 1), 0);
    buf_append(&j, "", 1);
    assert_string_equal((char *)j.data, "\"a\\\"b\\\\c\\n\\u0001\\u007f\xc3\xa9\\ufffd\"");
    buf_free(&j);
}

/* The command line, when the binary is available (ctest sets BERTHIER_BIN). */
static int s_run(const char *args) {
    const char *bin = getenv("BERTHIER_BIN");
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "'%.1000s/berthier-replay' %.1300s >/dev/null 2>&1", bin, args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_command_line(void **state) {
    (void)state;
    const char *bin = getenv("BERTHIER_BIN");
    char path[400];
    if (bin) snprintf(path, sizeof path, "%s/berthier-replay", bin);
    if (!bin || access(path, X_OK) != 0) skip();
    char a[1024], pk[65];
    sodium_bin2hex(pk, sizeof pk, s_pk, 32);
    snprintf(a, sizeof a, "verify '%s'", s_good);
    assert_int_equal(s_run(a), 0);
    snprintf(a, sizeof a, "verify '%s' --pk %s", s_good, pk);
    assert_int_equal(s_run(a), 0);
    pk[0] = pk[0] == '0' ? '1' : '0';
    snprintf(a, sizeof a, "verify '%s' --pk %s", s_good, pk);
    assert_int_equal(s_run(a), 1);
    snprintf(a, sizeof a, "verify '%s'", s_live);
    assert_int_equal(s_run(a), 2);
    uint8_t *img = malloc(s_p.file_len);
    memcpy(img, s_p.file, s_p.file_len);
    img[s_p.r[5].offset + 6] ^= 0x40;
    s_spit(s_work, img, s_p.file_len);
    free(img);
    snprintf(a, sizeof a, "verify '%s'", s_work);
    assert_int_equal(s_run(a), 1);
    snprintf(a, sizeof a, "show '%s' --at 3 --seat 1", s_good);
    assert_int_equal(s_run(a), 0);
    snprintf(a, sizeof a, "export '%s'", s_good);
    assert_int_equal(s_run(a), 0);
    assert_int_equal(s_run("--help"), 0);
    assert_int_equal(s_run("frobnicate x"), 64);
    snprintf(a, sizeof a, "export '%s' --pk 00", s_good);
    assert_int_equal(s_run(a), 64);
    assert_int_equal(s_run("verify"), 64);
    /* several logs in one run: the worst status wins (1 bad, then 3 unreadable, then 2 live) */
    snprintf(a, sizeof a, "verify '%s' '%s'", s_good, s_good);
    assert_int_equal(s_run(a), 0);
    snprintf(a, sizeof a, "verify '%s' '%s'", s_good, s_live);
    assert_int_equal(s_run(a), 2);
    snprintf(a, sizeof a, "verify '%s' /nonexistent/x.log '%s'", s_live, s_good);
    assert_int_equal(s_run(a), 3);
    snprintf(a, sizeof a, "verify '%s' '%s' /nonexistent/x.log '%s'", s_live, s_work, s_good);
    assert_int_equal(s_run(a), 1);
    snprintf(a, sizeof a, "show '%s' '%s'", s_good, s_good);
    assert_int_equal(s_run(a), 64);
}

/* The whole output of a run, and its exit status. */
static int s_run_capture(const char *args, char *out, size_t cap) {
    const char *bin = getenv("BERTHIER_BIN");
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "'%.1000s/berthier-replay' %.1300s 2>&1", bin, args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* verify -j N: the same reports in the order of the arguments, the same status,
 * and a tampered log still names its first bad record. */
static void test_verify_jobs(void **state) {
    (void)state;
    const char *bin = getenv("BERTHIER_BIN");
    char path[400];
    if (bin) snprintf(path, sizeof path, "%s/berthier-replay", bin);
    if (!bin || access(path, X_OK) != 0) skip();
    parsed q;
    s_parse(s_good, &q);
    long st = -1;
    for (size_t k = 4; k < q.n && st < 0; k++)
        if (q.r[k].kind == EVLOG_STATE) st = (long)k;
    assert_true(st > 0);
    q.r[st].payload[q.r[st].len - 1] ^= 0x01;
    int *order = calloc(q.n, sizeof *order);
    s_identity(order, q.n);
    s_write_chained(s_work, &q, order, q.n);
    free(order);
    s_parsed_free(&q);
    static char one[65536], many[65536];
    char a[2048], want[400];
    snprintf(a, sizeof a, "verify '%s' '%s' '%s' '%s' '%s'", s_good, s_work, s_live, s_good, s_good);
    assert_int_equal(s_run_capture(a, one, sizeof one), 1);
    snprintf(a, sizeof a, "verify -j 3 '%s' '%s' '%s' '%s' '%s'", s_good, s_work, s_live, s_good, s_good);
    assert_int_equal(s_run_capture(a, many, sizeof many), 1);
    assert_string_equal(one, many);
    snprintf(want, sizeof want, "%s: record %ld at offset", s_work, st);
    if (!strstr(many, want)) fail_msg("expected \"%s\" in:\n%s", want, many);
    const char *g = strstr(many, s_good), *w = strstr(many, want), *l = strstr(many, s_live);
    assert_true(g && w && l && g < w && w < l);
    snprintf(a, sizeof a, "verify --jobs 2 '%s' '%s'", s_good, s_good);
    assert_int_equal(s_run_capture(a, many, sizeof many), 0);
    assert_int_equal(s_run("verify -j 0 x.log"), 64);
    snprintf(a, sizeof a, "verify --paranoid -j 2 '%s' '%s'", s_good, s_live);
    assert_int_equal(s_run(a), 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_log_verifies),
        cmocka_unit_test(test_three_seat_game_verifies),
        cmocka_unit_test(test_contributory_dice_game_verifies),
        cmocka_unit_test(test_live_game_is_incomplete),
        cmocka_unit_test(test_resign_and_timeout_verify),
        cmocka_unit_test(test_abort_verifies),
        cmocka_unit_test(test_flipped_byte_anywhere_in_the_middle),
        cmocka_unit_test(test_deleted_duplicated_swapped_records),
        cmocka_unit_test(test_cut_tail),
        cmocka_unit_test(test_forged_records_with_a_recomputed_chain),
        cmocka_unit_test(test_garbage_payloads_with_a_recomputed_chain),
        cmocka_unit_test(test_checkpoints_signed_by_another_key),
        cmocka_unit_test(test_one_signature_covers_the_earlier_checkpoints),
        cmocka_unit_test(test_ruleset_version_must_match),
        cmocka_unit_test(test_scenario_data_must_match),
        cmocka_unit_test(test_reveal_must_open_the_commitment),
        cmocka_unit_test(test_show_and_export),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_verify_jobs),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
