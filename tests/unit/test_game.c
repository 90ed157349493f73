/*
 * test_game.c - the game driver (core/game.c) on the `duel` ruleset:
 * creation checks, joins, sealed choices, stale and foreign orders, the record
 * order, timeouts, resignation, contributory dice, and replay reproducing every
 * record byte for byte (with the seed, and from the logged dice without it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "canon.h"
#include "duel/v1/duel.pb-c.h"
#include "evlog.h"
#include "game.h"
#include "memlog.h"

/* ---- fixtures ---- */
typedef struct {
    memlog log;
    brt_game *g;
    uint8_t seed[32];
    uint8_t keys[3][32];
    unsigned nseats;
    uint64_t rid;
} fx;

static brt_game *s_create(fx *f, const char *ruleset, const char *scenario, char **opts, size_t nopts,
                          unsigned nseats, brt_reject *err) {
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[3];
    Berthier__V1__SeatSpec *sp[3];
    for (unsigned i = 0; i < nseats; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = f->keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)ruleset;
    c.scenario = (char *)scenario;
    c.options = opts;
    c.n_options = nopts;
    c.seats = sp;
    c.n_seats = nseats;
    game_params p = {"00112233aabbccdd", &c, f->seed, f->log.pk, "test", NULL, 0, NULL};
    return game_create(&p, memlog_sink(&f->log), err);
}

static int setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    for (int i = 0; i < 32; i++) f->seed[i] = (uint8_t)(i * 7 + 1);
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 32; i++) f->keys[s][i] = (uint8_t)(s * 50 + i);
    memlog_init(&f->log, "00112233aabbccdd", 9);
    f->nseats = 2;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    game_destroy(&f->g);
    memlog_free(&f->log);
    free(f);
    return 0;
}

static void s_join_all(fx *f, const uint8_t (*commits)[32]) {
    brt_reject err;
    for (unsigned s = 0; s < f->nseats; s++) {
        uint8_t ent[32];
        memset(ent, (int)(0x40 + s), 32);
        assert_int_equal(game_join(f->g, s, ent, 32, commits ? commits[s] : NULL, commits ? 32 : 0, &err), 0);
    }
}

/* Build a Request{submit} and return its bytes (caller frees). */
static uint8_t *s_submit_bytes(fx *f, unsigned seat, uint64_t seq, const char *text, size_t *len) {
    Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    r.request_id = ++f->rid;
    r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    r.submit = &s;
    s.game_id = (char *)"00112233aabbccdd";
    s.seat = seat;
    s.based_on_seq = seq;
    s.order_text = (char *)text;
    return canon_pack(&r.base, len);
}

static int s_submit(fx *f, unsigned seat, const char *text, brt_reject *err) {
    size_t n;
    uint8_t *b = s_submit_bytes(f, seat, game_seq(f->g), text, &n);
    int rc = game_submit(f->g, seat, b, n, err);
    free(b);
    return rc;
}

/* ---- tests ---- */

static void test_create_refusals_name_their_code(void **state) {
    fx *f = *state;
    brt_reject err;
    assert_null(s_create(f, "nosuch", "standard", NULL, 0, 2, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_RULESET);
    assert_null(s_create(f, "duel", "grand", NULL, 0, 2, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_SCENARIO);
    assert_null(s_create(f, "duel", "standard", NULL, 0, 1, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_SEATS);
    char *bad[] = {(char *)"fog-of-war"};
    assert_null(s_create(f, "duel", "standard", bad, 1, 2, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_OPTION);
    char *badcore[] = {(char *)"dice=loaded"};
    assert_null(s_create(f, "duel", "standard", badcore, 1, 2, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_OPTION);
    memcpy(f->keys[1], f->keys[0], 32);
    assert_null(s_create(f, "duel", "standard", NULL, 0, 2, &err));
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_SEATS);
    assert_true(strlen(err.message) > 10);
    /* Nothing refused was logged. */
    assert_int_equal(f->log.n, 0);
}

static void test_join_rules(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    assert_non_null(f->g);
    assert_int_equal(f->log.n, 1);
    assert_int_equal(f->log.recs[0].kind, EVLOG_HEADER);
    uint8_t ent[32] = {1};
    assert_int_equal(game_join(f->g, 0, ent, 31, NULL, 0, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_REQUEST);
    assert_int_equal(game_join(f->g, 5, ent, 32, NULL, 0, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    assert_int_equal(game_join(f->g, 0, ent, 32, NULL, 0, &err), 0);
    assert_int_equal(game_join(f->g, 0, ent, 32, NULL, 0, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_ALREADY_JOINED);
    assert_int_equal(s_submit(f, 0, "bid 1", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_STARTED);
    assert_false(game_started(f->g));
    assert_int_equal(game_join(f->g, 1, ent, 32, NULL, 0, &err), 0);
    assert_true(game_started(f->g));
    /* HEADER, JOIN, JOIN, STATE, CHECKPOINT */
    assert_int_equal(f->log.n, 5);
    assert_int_equal(f->log.recs[3].kind, EVLOG_STATE);
    assert_int_equal(f->log.recs[4].kind, EVLOG_CHECKPOINT);
}

static void test_sealed_choice_is_hidden_until_all_have_chosen(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    brt_pending before, after;
    int must0, must1;
    game_pending(f->g, 1, &before, &must1);
    uint64_t seq = game_seq(f->g);
    uint8_t h0[32], h1[32];
    game_state_hash(f->g, h0);
    size_t nrec = f->log.n;
    assert_int_equal(s_submit(f, 0, "bid 2", &err), 0);
    /* Only the ORDER record is logged; the state, seq and what seat 1 sees are unchanged. */
    assert_int_equal(f->log.n, nrec + 1);
    assert_int_equal(f->log.recs[nrec].kind, EVLOG_ORDER);
    assert_int_equal(game_seq(f->g), seq);
    game_state_hash(f->g, h1);
    assert_memory_equal(h0, h1, 32);
    game_pending(f->g, 1, &after, &must1);
    assert_int_equal(before.seats, after.seats);
    assert_true(after.sealed);
    assert_true(must1);
    game_pending(f->g, 0, &after, &must0);
    assert_false(must0);
    assert_int_equal(s_submit(f, 0, "bid 1", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION);
    assert_int_equal(s_submit(f, 1, "bid 1", &err), 0);
    assert_int_equal(game_seq(f->g), seq + 1);
    /* ORDER ORDER then outcomes: a Bids event revealing both stakes. */
    int found = 0;
    for (size_t i = nrec + 2; i < f->log.n; i++) {
        if (f->log.recs[i].kind != EVLOG_EVENT) continue;
        Berthier__V1__LogEvent *e = berthier__v1__log_event__unpack(NULL, f->log.recs[i].len, f->log.recs[i].payload);
        Duel__V1__Event *d = duel__v1__event__unpack(NULL, e->data.len, e->data.data);
        if (d->kind_case == DUEL__V1__EVENT__KIND_BIDS) {
            found = 1;
            assert_int_equal(d->bids->stakes[0], 2);
            assert_int_equal(d->bids->stakes[1], 1);
            assert_int_equal(d->bids->winner, 0);
        }
        duel__v1__event__free_unpacked(d, NULL);
        berthier__v1__log_event__free_unpacked(e, NULL);
    }
    assert_true(found);
}

static void test_stale_foreign_and_illegal_orders_are_rejected_without_a_record(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    size_t nrec = f->log.n;
    size_t n;
    uint8_t *b = s_submit_bytes(f, 0, game_seq(f->g) - 1, "bid 1", &n);
    assert_int_equal(game_submit(f->g, 0, b, n, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_STALE);
    free(b);
    b = s_submit_bytes(f, 1, game_seq(f->g), "bid 1", &n);
    assert_int_equal(game_submit(f->g, 0, b, n, &err), -1); /* the order names seat 1, sent by seat 0 */
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    free(b);
    assert_int_equal(s_submit(f, 0, "bid 7", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_ILLEGAL);
    assert_string_equal(err.rule, "D2");
    assert_int_equal(s_submit(f, 0, "bank", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_ILLEGAL);
    assert_int_equal(s_submit(f, 0, "charge!", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_TEXT);
    uint8_t junk[] = {0x08, 0x01, 0xff};
    assert_int_equal(game_submit(f->g, 0, junk, sizeof junk, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_MALFORMED);
    assert_int_equal(f->log.n, nrec);
}

/* Play random legal orders (a fixed local generator) until the game ends. */
static uint64_t s_rng(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void s_play_random_steps(fx *f, uint64_t seed, int max_steps) {
    brt_reject err;
    for (int steps = 0; steps < max_steps && !game_over(f->g); steps++) {
        brt_pending p;
        int progressed = 0;
        for (unsigned s = 0; s < f->nseats && !game_over(f->g); s++) {
            int must;
            game_pending(f->g, (int)s, &p, &must);
            if (!must) continue;
            brt_buf legal;
            buf_init(&legal);
            int n = game_legal(f->g, s, &legal);
            assert_true(n > 0);
            int pick = (int)(s_rng(&seed) % (uint64_t)n);
            size_t pos = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&legal, &pos, &item, &ilen), 1);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++f->rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = (char *)"00112233aabbccdd";
            sub.seat = s;
            sub.based_on_seq = game_seq(f->g);
            sub.order.data = (uint8_t *)item;
            sub.order.len = ilen;
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            int rc = game_submit(f->g, s, bytes, blen, &err);
            if (rc != 0) fail_msg("legal order rejected: %s", err.message);
            free(bytes);
            buf_free(&legal);
            progressed = 1;
        }
        assert_true(progressed);
    }
}

static void s_play_random(fx *f, uint64_t seed) {
    s_play_random_steps(f, seed, 10000);
    assert_true(game_over(f->g));
}

static size_t s_replay(fx *f, int with_seed, uint8_t final_hash[32]);

static void test_full_game_record_order_and_replay(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    s_play_random(f, 42);
    size_t n = f->log.n;
    assert_int_equal(f->log.recs[0].kind, EVLOG_HEADER);
    assert_int_equal(f->log.recs[n - 3].kind, EVLOG_END);
    assert_int_equal(f->log.recs[n - 2].kind, EVLOG_REVEAL);
    assert_int_equal(f->log.recs[n - 1].kind, EVLOG_CHECKPOINT);
    /* The revealed seed matches the header's commitment. */
    Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, f->log.recs[n - 2].len, f->log.recs[n - 2].payload);
    assert_memory_equal(rv->seed.data, f->seed, 32);
    berthier__v1__log_reveal__free_unpacked(rv, NULL);
    /* Every checkpoint signature verifies. */
    size_t ck = 0;
    for (size_t i = 0; i < n; i++) {
        if (f->log.recs[i].kind != EVLOG_CHECKPOINT) continue;
        Berthier__V1__LogCheckpoint *c = berthier__v1__log_checkpoint__unpack(NULL, f->log.recs[i].len, f->log.recs[i].payload);
        assert_int_equal(c->record, i - 1);
        assert_memory_equal(c->head.data, f->log.recs[i - 1].chain, 32);
        assert_int_equal(evlog_checkpoint_verify(f->log.pk, "00112233aabbccdd", c->record, c->head.data, c->signature.data), 0);
        berthier__v1__log_checkpoint__free_unpacked(c, NULL);
        ck++;
    }
    assert_true(ck >= 2);
    uint8_t live_hash[32], h1[32];
    game_state_hash(f->g, live_hash);
    assert_int_equal(s_replay(f, 1, h1), n);
    assert_memory_equal(live_hash, h1, 32);
    /* Written to a real log file (whose chain also covers the SYNC records that
     * close each batch), the reader finds the same records. */
    char path[] = "/tmp/berthier-test-game-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(memlog_save(&f->log, path), 0);
    const char *corpus = getenv("BERTHIER_SAVE_LOG");
    if (corpus) assert_int_equal(memlog_save(&f->log, corpus), 0);
    char e[200];
    evlog_reader *r = evlog_reader_open(path, e, sizeof e);
    assert_non_null(r);
    evlog_record rec;
    size_t i = 0;
    while (evlog_reader_next(r, &rec) == 1) {
        assert_true(i < n);
        assert_int_equal(rec.kind, f->log.recs[i].kind);
        if (rec.kind == EVLOG_CHECKPOINT) { /* signed again over the file's chain */
            i++;
            continue;
        }
        assert_int_equal(rec.len, f->log.recs[i].len);
        assert_memory_equal(rec.payload, f->log.recs[i].payload, rec.len);
        i++;
    }
    assert_int_equal(i, n);
    assert_int_equal(evlog_reader_scan(r)->damaged, 0);
    evlog_reader_destroy(&r);
    unlink(path);
}

/* A live game (seed still secret) replays from the logged dice values. */
static void test_live_game_replays_from_logged_dice(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    s_play_random_steps(f, 99, 12);
    assert_false(game_over(f->g));
    size_t dice = 0;
    for (size_t i = 0; i < f->log.n; i++) dice += f->log.recs[i].kind == EVLOG_DICE;
    assert_true(dice > 0);
    uint8_t live_hash[32], h[32];
    game_state_hash(f->g, live_hash);
    assert_int_equal(s_replay(f, 0, h), f->log.n);
    assert_memory_equal(live_hash, h, 32);
}

/* docs/log-format.md, LogHeader fields 14-16: the create request behind the game
 * (docs/protocol.md P5) is recorded in the header all together or not at all, and a
 * header that holds part of it is refused on re-opening (daemon restart, replay). */
static void test_header_records_the_create_request(void **state) {
    fx *f = *state;
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = f->keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)"duel";
    c.scenario = (char *)"standard";
    c.seats = sp;
    c.n_seats = 2;
    uint8_t admin[32], digest[GAME_CREATE_DIGEST];
    memset(admin, 0xa5, sizeof admin);
    memset(digest, 0x3c, sizeof digest);
    game_params p = {"00112233aabbccdd", &c, f->seed, f->log.pk, "test", admin, 4242, digest};
    brt_reject err;
    f->g = game_create(&p, memlog_sink(&f->log), &err);
    assert_non_null(f->g);
    const Berthier__V1__LogHeader *h = game_header(f->g);
    assert_int_equal(h->create_request_id, 4242);
    assert_int_equal(h->create_key.len, 32);
    assert_memory_equal(h->create_key.data, admin, 32);
    assert_int_equal(h->create_digest.len, GAME_CREATE_DIGEST);
    assert_memory_equal(h->create_digest.data, digest, GAME_CREATE_DIGEST);
    /* The record ends with the three fields, in field order (72 20 .., 78 .., 82 01 10 ..). */
    assert_int_equal(f->log.n, 1);
    const memlog_rec *r0 = &f->log.recs[0];
    size_t tail = 2 + 32 + 1 + 2 + 3 + GAME_CREATE_DIGEST;   /* 4242 is a 2-byte varint */
    assert_true(r0->len > tail);
    const uint8_t *t = r0->payload + r0->len - tail;
    assert_int_equal(t[0], 0x72);
    assert_int_equal(t[1], 32);
    assert_int_equal(t[34], 0x78);
    assert_int_equal(t[35], (4242 & 0x7f) | 0x80);
    assert_int_equal(t[36], 4242 >> 7);
    assert_int_equal(t[37], 0x82);
    assert_int_equal(t[38], 0x01);
    assert_int_equal(t[39], GAME_CREATE_DIGEST);
    assert_memory_equal(t + 40, digest, GAME_CREATE_DIGEST);
    /* It re-opens and replays. */
    brt_game *again = game_from_header(r0->payload, r0->len, f->seed, memlog_sink(&f->log), &err);
    assert_non_null(again);
    game_destroy(&again);
    s_join_all(f, NULL);
    s_play_random_steps(f, 7, 6);
    uint8_t final_hash[32];
    s_replay(f, 1, final_hash);

    /* Part of the request: refused, naming it. */
    for (int k = 0; k < 3; k++) {
        ProtobufCMessage *m = NULL;
        assert_int_equal(canon_unpack(&berthier__v1__log_header__descriptor, r0->payload, r0->len, 0, &m), CANON_OK);
        Berthier__V1__LogHeader *bad = (Berthier__V1__LogHeader *)m;
        if (k == 0) bad->create_request_id = 0;                  /* key and digest, no id */
        if (k == 1) bad->create_digest.len = 8;                  /* a short digest */
        if (k == 2) bad->create_key.len = 0;                     /* an id without a key */
        size_t n;
        uint8_t *bytes = canon_pack(&bad->base, &n);
        assert_non_null(bytes);
        memset(&err, 0, sizeof err);
        brt_game *g = game_from_header(bytes, n, f->seed, memlog_sink(&f->log), &err);
        assert_null(g);
        assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_BAD_REQUEST);
        assert_non_null(strstr(err.message, "create request"));
        free(bytes);
        protobuf_c_message_free_unpacked(m, NULL);
    }
}

/* Replay f->log through a fresh game; returns how many records matched. */
static size_t s_replay(fx *f, int with_seed, uint8_t final_hash[32]) {
    char why[256];
    size_t n = memlog_replay(&f->log, with_seed ? f->seed : NULL, final_hash, why, sizeof why);
    if (n != f->log.n) fail_msg("replay stopped at record %zu of %zu: %s", n, f->log.n, why);
    return n;
}

static void test_three_seats_play_to_a_result(void **state) {
    fx *f = *state;
    brt_reject err;
    f->nseats = 3;
    f->g = s_create(f, "duel", "standard", NULL, 0, 3, &err);
    assert_non_null(f->g);
    s_join_all(f, NULL);
    s_play_random(f, 7);
    brt_result r;
    game_result(f->g, &r);
    assert_true(r.ended);
    uint8_t h[32];
    assert_int_equal(s_replay(f, 1, h), f->log.n);
}

static void test_timeout_applies_the_default_or_forfeits(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    /* Seat 1 has no decision of its own that can time out while it has chosen. */
    assert_int_equal(s_submit(f, 1, "bid 0", &err), 0);
    assert_int_equal(game_timeout(f->g, 1, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION);
    assert_int_equal(s_submit(f, 0, "bid 3", &err), 0);
    /* Seat 0 rolls; its timeout banks by default [D4]. */
    brt_pending p;
    int must;
    game_pending(f->g, 0, &p, &must);
    assert_true(must);
    assert_string_equal(p.kind, "bank-or-press");
    assert_int_equal(game_timeout(f->g, 0, &err), 0);
    assert_false(game_over(f->g));
    game_pending(f->g, 0, &p, &must);
    assert_string_equal(p.kind, "bid");
    /* A sealed bid has no default: timing out forfeits [D6]. */
    assert_int_equal(game_timeout(f->g, 1, &err), 0);
    assert_true(game_over(f->g));
    brt_result r;
    game_result(f->g, &r);
    assert_int_equal(r.winners, 1u);
    uint8_t h[32];
    assert_int_equal(s_replay(f, 1, h), f->log.n);
}

static void test_resign_ends_the_game_and_reveals_the_seed(void **state) {
    fx *f = *state;
    brt_reject err;
    f->g = s_create(f, "duel", "standard", NULL, 0, 2, &err);
    s_join_all(f, NULL);
    assert_int_equal(game_resign(f->g, 0, &err), 0);
    assert_true(game_over(f->g));
    assert_int_equal(f->log.recs[f->log.n - 2].kind, EVLOG_REVEAL);
    assert_int_equal(game_resign(f->g, 1, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_GAME_OVER);
    assert_int_equal(s_submit(f, 1, "bid 0", &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_GAME_OVER);
}

/* dice=contributory: a roll waits for every seat's next chain link. */
static void test_contributory_dice_wait_for_every_nonce(void **state) {
    fx *f = *state;
    brt_reject err;
    char *opts[] = {(char *)"dice=contributory"};
    f->g = s_create(f, "duel", "standard", opts, 1, 2, &err);
    assert_non_null(f->g);
    /* Each seat's chain: links[0] is committed, links[1..] revealed in order. */
    enum { LINKS = 64 };
    static uint8_t links[2][LINKS][32];
    for (int s = 0; s < 2; s++) {
        memset(links[s][LINKS - 1], 0x70 + s, 32);
        for (int k = LINKS - 1; k > 0; k--) dice_chain_step(links[s][k], links[s][k - 1]);
    }
    uint8_t commits[2][32];
    memcpy(commits[0], links[0][0], 32);
    memcpy(commits[1], links[1][0], 32);
    s_join_all(f, (const uint8_t(*)[32])commits);
    int next[2] = {1, 1};
    /* Setup is batch 0 (duel's setup rolls nothing, but the batch is still asked). */
    brt_pending p;
    int must;
    game_pending(f->g, 0, &p, &must);
    assert_string_equal(p.kind, "dice-nonce");
    /* A wrong link is refused. */
    assert_int_equal(game_nonce(f->g, 0, 0, links[0][2], 32, &err), -1);
    assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_ILLEGAL);
    for (int s = 0; s < 2; s++) assert_int_equal(game_nonce(f->g, (unsigned)s, 0, links[s][next[s]++], 32, &err), 0);
    assert_true(game_started(f->g));
    /* Bids: applying both rolls a die, so the batch must wait for nonces. */
    assert_int_equal(s_submit(f, 0, "bid 2", &err), 0);
    uint64_t seq = game_seq(f->g);
    assert_int_equal(s_submit(f, 1, "bid 1", &err), 0);
    assert_int_equal(game_seq(f->g), seq); /* not applied yet */
    game_pending(f->g, 1, &p, &must);
    assert_string_equal(p.kind, "dice-nonce");
    assert_true(must);
    assert_int_equal(game_nonce(f->g, 1, 1, links[1][next[1]++], 32, &err), 0);
    assert_int_equal(game_seq(f->g), seq);
    assert_int_equal(game_nonce(f->g, 0, 1, links[0][next[0]++], 32, &err), 0);
    assert_int_equal(game_seq(f->g), seq + 1);
    game_pending(f->g, 0, &p, &must);
    assert_string_equal(p.kind, "bank-or-press");
    /* Play on: every dice-nonce decision answered with the next link. */
    uint64_t rng = 5;
    for (int steps = 0; steps < 5000 && !game_over(f->g); steps++) {
        for (unsigned s = 0; s < 2 && !game_over(f->g); s++) {
            game_pending(f->g, (int)s, &p, &must);
            if (!must) continue;
            if (strcmp(p.kind, "dice-nonce") == 0) {
                assert_true(next[s] < LINKS);
                assert_int_equal(game_nonce(f->g, s, game_batch(f->g), links[s][next[s]++], 32, &err), 0);
                continue;
            }
            const char *choice = strcmp(p.kind, "bid") == 0 ? (s_rng(&rng) % 2 ? "bid 1" : "bid 0")
                                                            : (s_rng(&rng) % 3 ? "bank" : "press");
            if (s_submit(f, s, choice, &err) != 0) {
                assert_int_equal(err.code, BERTHIER__V1__CODE__CODE_ILLEGAL); /* reserve exhausted */
                assert_int_equal(s_submit(f, s, "bid 0", &err), 0);
            }
        }
        if (next[0] >= LINKS - 1 || next[1] >= LINKS - 1) break;
    }
    uint8_t live[32], h[32];
    game_state_hash(f->g, live);
    assert_int_equal(s_replay(f, 1, h), f->log.n);
    assert_memory_equal(live, h, 32);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_refusals_name_their_code, setup, teardown),
        cmocka_unit_test_setup_teardown(test_join_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sealed_choice_is_hidden_until_all_have_chosen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_foreign_and_illegal_orders_are_rejected_without_a_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_game_record_order_and_replay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_live_game_replays_from_logged_dice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_three_seats_play_to_a_result, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_applies_the_default_or_forfeits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resign_ends_the_game_and_reveals_the_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_contributory_dice_wait_for_every_nonce, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header_records_the_create_request, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
