/*
 * test_daemon_codes.c - every Code a request can draw from berthierd, each
 * provoked and checked for its code, a rule reference and a sentence; hostile
 * frames (garbage, unknown fields, non-canonical encodings, extra frames,
 * oversize) leave the daemon up and every log unchanged; keys acting for
 * other seats or other games are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_daemon_common.h"

typedef struct {
    td_daemon d;
    td_client *admin;
    td_client *seat[2];
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    char gid[32];        /* a started game */
} fx;

static void s_expect(Berthier__V1__Reply *r, int code) {
    assert_non_null(r);
    if ((int)r->code != code) fprintf(stderr, "expected code %d, got %d [%s] %s\n", code, r->code, r->rule, r->message);
    assert_int_equal(r->code, code);
    assert_non_null(r->rule);
    assert_true(strlen(r->rule) > 0);
    assert_non_null(r->message);
    assert_true(strlen(r->message) > 3);
    berthier__v1__reply__free_unpacked(r, NULL);
}

static void s_ok(Berthier__V1__Reply *r) {
    assert_non_null(r);
    if (r->code) fprintf(stderr, "unexpected code %d [%s] %s\n", r->code, r->rule, r->message);
    assert_int_equal(r->code, 0);
}

static char *s_create_game(fx *f, char *gid, size_t n) {
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])f->keys, NULL, 0, 0, 0);
    s_ok(r);
    snprintf(gid, n, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    return gid;
}

static int s_setup_common(void **state, const char *const *extra, int nextra, int make_game) {
    fx *f = calloc(1, sizeof *f);
    if (td_start_admin(&f->d, &f->admin, extra, nextra, td_start) != 0) {
        free(f);
        return -1;
    }
    td_fresh_keys(2, f->pub, f->sec, f->keys);
    if (make_game) {
        s_create_game(f, f->gid, sizeof f->gid);
        for (int i = 0; i < 2; i++) {
            f->seat[i] = td_client_new(&f->d, f->pub[i], f->sec[i]);
            Berthier__V1__Reply *r = td_join(f->seat[i], f->gid, (unsigned)i);
            if (!r || r->code) return -1;
            berthier__v1__reply__free_unpacked(r, NULL);
        }
    }
    *state = f;
    return 0;
}

static int s_setup(void **state) { return s_setup_common(state, NULL, 0, 1); }

/* Hundreds of hostile frames from one key, each answered: with the default
 * `abuse-malformed` (32 per 10 s) the key would be cut and banned, which
 * test_hard_abuse.c covers; here every refusal is looked at. */
static int s_setup_hostile(void **state) {
    const char *extra[] = {"--abuse-malformed", "0"};
    return s_setup_common(state, extra, 2, 1);
}

static int s_setup_small(void **state) {
    const char *extra[] = {"--max-message", "2048"};
    return s_setup_common(state, extra, 2, 1);
}

static int s_setup_rate(void **state) {
    const char *extra[] = {"--rate", "1", "--burst", "3"};
    return s_setup_common(state, extra, 4, 0);
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_fixture_end(&f->d, &f->admin, f->seat, 2);
    free(f);
    return 0;
}

static uint64_t s_seq(td_client *c, const char *gid, unsigned seat, int *must) {
    Berthier__V1__Reply *r = td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, gid, seat);
    s_ok(r);
    uint64_t seq = r->decision->seq;
    if (must) *must = r->decision->you_must_act;
    berthier__v1__reply__free_unpacked(r, NULL);
    return seq;
}

/* ---- create ---- */

static void test_create_codes(void **state) {
    fx *f = *state;
    const uint8_t(*k)[32] = (const uint8_t(*)[32])f->keys;
    s_expect(td_create(f->admin, "no-such-ruleset", "standard", 2, k, NULL, 0, 0, 0), BERTHIER__V1__CODE__CODE_BAD_RULESET);
    s_expect(td_create(f->admin, "duel", "no-such-scenario", 2, k, NULL, 0, 0, 0), BERTHIER__V1__CODE__CODE_BAD_SCENARIO);
    const char *bad_core[] = {"dice=loaded"};
    s_expect(td_create(f->admin, "duel", "standard", 2, k, bad_core, 1, 0, 0), BERTHIER__V1__CODE__CODE_BAD_OPTION);
    const char *bad_rules[] = {"no-such-option"};
    s_expect(td_create(f->admin, "duel", "standard", 2, k, bad_rules, 1, 0, 0), BERTHIER__V1__CODE__CODE_BAD_OPTION);
    s_expect(td_create(f->admin, "duel", "standard", 1, k, NULL, 0, 0, 0), BERTHIER__V1__CODE__CODE_BAD_SEATS);
    uint8_t same[2][32];
    memcpy(same[0], f->keys[0], 32);
    memcpy(same[1], f->keys[0], 32);
    s_expect(td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])same, NULL, 0, 0, 0),
             BERTHIER__V1__CODE__CODE_BAD_SEATS);
    /* A name that is not text: the reply's sentence stays printable ASCII. */
    Berthier__V1__Reply *bad = td_create(f->admin, "\xff\xfe\x01duel", "standard", 2, k, NULL, 0, 0, 0);
    assert_non_null(bad);
    assert_int_equal(bad->code, BERTHIER__V1__CODE__CODE_BAD_RULESET);
    for (const char *p = bad->message; *p; p++) assert_true(*p >= 0x20 && *p <= 0x7e);
    berthier__v1__reply__free_unpacked(bad, NULL);
    /* Only admins create games. */
    s_expect(td_create(f->seat[0], "duel", "standard", 2, k, NULL, 0, 0, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* Nothing was created by any of these. */
    Berthier__V1__Reply *r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, 1);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* ---- who may act ---- */

static void test_auth_codes(void **state) {
    fx *f = *state;
    s_expect(td_join(f->seat[0], "0123456789abcdef", 0), BERTHIER__V1__CODE__CODE_UNKNOWN_GAME);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_PENDING, "0123456789abcdef", 0),
             BERTHIER__V1__CODE__CODE_UNKNOWN_GAME);
    /* Seat 0's key acting for seat 1. */
    int must;
    uint64_t seq = s_seq(f->seat[0], f->gid, 0, &must);
    s_expect(td_submit_text(f->seat[0], f->gid, 1, seq, "bid 1"), BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid, 1), BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_RESIGN, f->gid, 1), BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    /* A seat key of another game has no seat here. */
    char pub3[41], sec3[41];
    uint8_t k3[2][32];
    zmq_curve_keypair(pub3, sec3);
    zmq_z85_decode(k3[0], pub3);
    memcpy(k3[1], f->keys[1], 32);
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])k3, NULL, 0, 0, 0);
    s_ok(r);
    char other[32];
    snprintf(other, sizeof other, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client *outsider = td_client_new(&f->d, pub3, sec3);
    s_expect(td_submit_text(outsider, f->gid, 0, seq, "bid 1"), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_expect(td_gameref(outsider, BERTHIER__V1__REQUEST__BODY_STATE, f->gid, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__FetchLog fl = BERTHIER__V1__FETCH_LOG__INIT;
    fl.game_id = f->gid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_FETCH_LOG;
    req.fetch_log = &fl;
    s_expect(td_call(outsider, &req, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* A seat may not fetch a live game's log; an admin may. */
    req.request_id = 0;
    s_expect(td_call(f->seat[0], &req, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    req.request_id = 0;
    r = td_call(f->admin, &req, TD_TIMEOUT);
    s_ok(r);
    assert_true(r->log->data.len > 16);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* An admin holds no seat and cannot act for one. */
    s_expect(td_join(f->admin, other, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_expect(td_submit_text(f->admin, f->gid, 0, seq, "bid 1"), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* The outsider's list shows only its own game. */
    r = td_gameref(outsider, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, 1);
    assert_string_equal(r->games->games[0]->game_id, other);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* A key nobody knows is refused by ZAP: no reply at all. */
    td_client *stranger = td_client_new(&f->d, NULL, NULL);
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    assert_null(td_call(stranger, &h, 1500));
    td_client_destroy(&stranger);
    /* A known key that trusts the wrong server key: no handshake, no reply. */
    td_daemon fake = f->d;
    char wpub[41], wsec[41];
    zmq_curve_keypair(wpub, wsec);
    memcpy(fake.server_pub, wpub, 41);
    td_client *wrong = td_client_new(&fake, f->d.admin_pub, f->d.admin_sec);
    h.request_id = 0;
    assert_null(td_call(wrong, &h, 1500));
    td_client_destroy(&wrong);
    /* No CURVE at all (a plain NULL-mechanism DEALER): no reply. */
    void *plain = zmq_socket(td_zctx(), ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(plain, ZMQ_LINGER, &linger, sizeof linger);
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", f->d.dir);
    assert_int_equal(zmq_connect(plain, ep), 0);
    uint8_t hb[64];
    h.request_id = 5;
    size_t hn = berthier__v1__request__pack(&h, hb);
    zmq_send(plain, hb, hn, ZMQ_DONTWAIT);
    zmq_pollitem_t pit = {plain, 0, ZMQ_POLLIN, 0};
    assert_int_equal(zmq_poll(&pit, 1, 1500), 0);
    zmq_close(plain);
    /* The admin, with the right server key, is still served. */
    Berthier__V1__Reply *hr = td_call(f->admin, &h, TD_TIMEOUT);
    s_ok(hr);
    berthier__v1__reply__free_unpacked(hr, NULL);
    td_client_destroy(&outsider);
}

/* ---- the game's own refusals ---- */

static void test_game_codes(void **state) {
    fx *f = *state;
    int must;
    uint64_t seq = s_seq(f->seat[0], f->gid, 0, &must);
    assert_true(must);
    s_expect(td_submit_text(f->seat[0], f->gid, 0, seq, "bid 7"), BERTHIER__V1__CODE__CODE_ILLEGAL);
    s_expect(td_submit_text(f->seat[0], f->gid, 0, seq, "dance a jig"), BERTHIER__V1__CODE__CODE_BAD_TEXT);
    s_expect(td_submit_text(f->seat[0], f->gid, 0, seq + 5, "bid 1"), BERTHIER__V1__CODE__CODE_STALE);
    s_expect(td_join(f->seat[0], f->gid, 0), BERTHIER__V1__CODE__CODE_ALREADY_JOINED);
    /* A sealed bid, then the same seat again: not its decision any more. */
    Berthier__V1__Reply *r = td_submit_text(f->seat[0], f->gid, 0, seq, "bid 1");
    s_ok(r);
    assert_true(r->accepted->waiting);
    berthier__v1__reply__free_unpacked(r, NULL);
    s_expect(td_submit_text(f->seat[0], f->gid, 0, seq, "bid 2"), BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION);
    /* Submit without a request id; without an order; without a body. */
    size_t n;
    uint8_t *b = td_submit_bytes(0, f->gid, 1, seq, "bid 1", NULL, 0, &n);
    s_expect(td_call_raw(f->seat[1], b, n, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_BAD_REQUEST);
    free(b);
    b = td_submit_bytes(77, f->gid, 1, seq, NULL, NULL, 0, &n);
    s_expect(td_call_raw(f->seat[1], b, n, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_BAD_REQUEST);
    free(b);
    Berthier__V1__Request empty = BERTHIER__V1__REQUEST__INIT;
    s_expect(td_call(f->seat[1], &empty, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_BAD_REQUEST);

    /* Before every seat has joined. */
    char g2[32];
    s_create_game(f, g2, sizeof g2);
    r = td_join(f->seat[0], g2, 0);
    s_ok(r);
    berthier__v1__reply__free_unpacked(r, NULL);
    s_expect(td_submit_text(f->seat[0], g2, 0, 1, "bid 1"), BERTHIER__V1__CODE__CODE_NOT_STARTED);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_LEGAL, g2, 0), BERTHIER__V1__CODE__CODE_NOT_STARTED);
    /* Bad entropy. */
    Berthier__V1__Request jr = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    uint8_t five[5] = {1, 2, 3, 4, 5};
    j.game_id = g2;
    j.seat = 1;
    j.entropy.data = five;
    j.entropy.len = 5;
    jr.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    jr.join = &j;
    s_expect(td_call(f->seat[1], &jr, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_BAD_REQUEST);

    /* After the end. */
    r = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_RESIGN, f->gid, 1);
    s_ok(r);
    berthier__v1__reply__free_unpacked(r, NULL);
    seq = s_seq(f->seat[0], f->gid, 0, NULL);
    s_expect(td_submit_text(f->seat[0], f->gid, 0, seq, "bid 1"), BERTHIER__V1__CODE__CODE_GAME_OVER);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_RESIGN, f->gid, 0), BERTHIER__V1__CODE__CODE_GAME_OVER);
    s_expect(td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid, 0), BERTHIER__V1__CODE__CODE_GAME_OVER);
}

/* ---- sealed choices stay unseen ---- */

static size_t s_pending_bytes(td_client *c, const char *gid, unsigned seat, uint8_t *out, size_t max) {
    Berthier__V1__Reply *r = td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, gid, seat);
    s_ok(r);
    size_t n = berthier__v1__decision__get_packed_size(r->decision);
    assert_true(n <= max);
    berthier__v1__decision__pack(r->decision, out);
    berthier__v1__reply__free_unpacked(r, NULL);
    return n;
}

static void test_sealed_unseen(void **state) {
    fx *f = *state;
    void *sub = zmq_socket(td_zctx(), ZMQ_SUB);
    char sp[41], ss[41], t1[128], tall[128], ep[300];
    /* the events endpoint admits only keys the daemon knows (P3): the admin's */
    memcpy(sp, f->d.admin_pub, 41);
    memcpy(ss, f->d.admin_sec, 41);
    zmq_setsockopt(sub, ZMQ_CURVE_SERVERKEY, f->d.server_pub, 40);
    zmq_setsockopt(sub, ZMQ_CURVE_PUBLICKEY, sp, 40);
    zmq_setsockopt(sub, ZMQ_CURVE_SECRETKEY, ss, 40);
    snprintf(t1, sizeof t1, "g/%s/1", f->gid);
    snprintf(tall, sizeof tall, "g/%s/all", f->gid);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, t1, strlen(t1));
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, tall, strlen(tall));
    snprintf(ep, sizeof ep, "ipc://%s/events.sock", f->d.dir);
    assert_int_equal(zmq_connect(sub, ep), 0);
    td_sleep_ms(300);
    uint8_t before[1024], after[1024];
    size_t nb = s_pending_bytes(f->seat[1], f->gid, 1, before, sizeof before);
    int must;
    uint64_t seq = s_seq(f->seat[0], f->gid, 0, &must);
    Berthier__V1__Reply *r = td_submit_text(f->seat[0], f->gid, 0, seq, "bid 2");
    s_ok(r);
    assert_true(r->accepted->waiting);
    assert_int_equal(r->accepted->seq, seq);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* Seat 1 sees exactly what it saw before, and nothing is published. */
    size_t na = s_pending_bytes(f->seat[1], f->gid, 1, after, sizeof after);
    assert_int_equal(na, nb);
    assert_memory_equal(after, before, nb);
    zmq_pollitem_t it = {sub, 0, ZMQ_POLLIN, 0};
    assert_int_equal(zmq_poll(&it, 1, 500), 0);
    /* Its events and state did not move either. */
    r = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_EVENTS, f->gid, 1);
    s_ok(r);
    uint64_t ev_seq = r->events->seq;
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(ev_seq, seq);
    /* The second bid resolves the round: now seat 1 hears of it. */
    r = td_submit_text(f->seat[1], f->gid, 1, seq, "bid 1");
    s_ok(r);
    assert_false(r->accepted->waiting);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(zmq_poll(&it, 1, TD_TIMEOUT), 1);
    char topic[128];
    int tn = zmq_recv(sub, topic, sizeof topic - 1, 0);
    assert_true(tn > 0);
    topic[tn] = 0;
    assert_string_equal(topic, t1);
    zmq_close(sub);
}

/* ---- retries ---- */

static void test_retry_codes(void **state) {
    fx *f = *state;
    int must;
    uint64_t seq = s_seq(f->seat[0], f->gid, 0, &must);
    size_t n1, n2;
    uint8_t *a = td_submit_bytes(4242, f->gid, 0, seq, "bid 2", NULL, 0, &n1);
    uint8_t *b = td_submit_bytes(4242, f->gid, 0, seq, "bid 3", NULL, 0, &n2);
    Berthier__V1__Reply *r1 = td_call_raw(f->seat[0], a, n1, TD_TIMEOUT);
    s_ok(r1);
    Berthier__V1__Reply *r2 = td_call_raw(f->seat[0], a, n1, TD_TIMEOUT);
    s_ok(r2);
    assert_int_equal(r1->accepted->seq, r2->accepted->seq);
    assert_int_equal(r1->accepted->waiting, r2->accepted->waiting);
    berthier__v1__reply__free_unpacked(r1, NULL);
    berthier__v1__reply__free_unpacked(r2, NULL);
    s_expect(td_call_raw(f->seat[0], b, n2, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_REQUEST_ID_REUSED);
    /* The same id from another key is that key's own. */
    uint8_t *c = td_submit_bytes(4242, f->gid, 1, seq, "bid 1", NULL, 0, &n2);
    Berthier__V1__Reply *r3 = td_call_raw(f->seat[1], c, n2, TD_TIMEOUT);
    s_ok(r3);
    assert_false(r3->accepted->waiting);  /* both bids are in: the round was resolved */
    assert_true(r3->accepted->seq > seq);
    berthier__v1__reply__free_unpacked(r3, NULL);
    free(a);
    free(b);
    free(c);
}

/* ---- hostile frames ---- */

static void s_log_snapshot(fx *f, uint8_t **bytes, size_t *len) {
    char p[512];
    snprintf(p, sizeof p, "%s/games/%s.log", f->d.dir, f->gid);
    *bytes = td_slurp(p, len);
    assert_non_null(*bytes);
}

/* The game's log is still `before`, byte for byte (which is freed). */
static void s_expect_log_unchanged(fx *f, uint8_t *before, size_t before_len) {
    uint8_t *after;
    size_t after_len;
    s_log_snapshot(f, &after, &after_len);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len);
    free(before);
    free(after);
}

static void test_hostile_frames(void **state) {
    fx *f = *state;
    uint8_t *before;
    size_t before_len;
    s_log_snapshot(f, &before, &before_len);
    td_client *c = f->seat[0];
    static const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    s_expect(td_call_raw(c, garbage, sizeof garbage, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* A valid hello, then an unknown field 99 (varint 1). */
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.request_id = 9;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    uint8_t buf[256];
    size_t n = berthier__v1__request__pack(&h, buf);
    buf[n] = 0x98;
    buf[n + 1] = 0x06;
    buf[n + 2] = 0x01;
    s_expect(td_call_raw(c, buf, n + 3, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Unknown field inside the body: GameRef field 15. */
    static const uint8_t inner_unknown[] = {0x08, 0x09, 0xaa, 0x01, 0x02, 0x78, 0x01};
    s_expect(td_call_raw(c, inner_unknown, sizeof inner_unknown, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Non-canonical: an overlong varint for request_id. */
    static const uint8_t overlong[] = {0x08, 0x89, 0x00, 0xaa, 0x01, 0x00};
    s_expect(td_call_raw(c, overlong, sizeof overlong, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Non-canonical: fields out of order (body before request_id). */
    static const uint8_t reordered[] = {0xaa, 0x01, 0x00, 0x08, 0x09};
    s_expect(td_call_raw(c, reordered, sizeof reordered, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Non-canonical: a default value written out. */
    static const uint8_t zero[] = {0x08, 0x00, 0xaa, 0x01, 0x00};
    s_expect(td_call_raw(c, zero, sizeof zero, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* An overlong field number 0. */
    static const uint8_t field0[] = {0x80, 0x00, 0x01, 0xaa, 0x01, 0x00};
    s_expect(td_call_raw(c, field0, sizeof field0, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* A length running past the end. */
    static const uint8_t truncated[] = {0x62, 0x7f, 0x0a, 0x01};
    s_expect(td_call_raw(c, truncated, sizeof truncated, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* A submit whose order bytes are garbage for the ruleset. */
    uint64_t seq = s_seq(c, f->gid, 0, NULL);
    size_t sn;
    uint8_t *sb = td_submit_bytes(31337, f->gid, 0, seq, NULL, garbage, sizeof garbage, &sn);
    s_expect(td_call_raw(c, sb, sn, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    free(sb);
    /* Two frames. */
    zmq_send(c->sock, buf, n, ZMQ_SNDMORE);
    zmq_send(c->sock, buf, n, 0);
    s_expect(td_recv(c, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* An empty frame is an empty Request: no body. */
    s_expect(td_call_raw(c, "", 0, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_BAD_REQUEST);
    /* Random bytes: every reply is a rejection and the daemon stays up. */
    srand(7);
    for (int i = 0; i < 300; i++) {
        uint8_t rb[64];
        size_t rl = 1 + (size_t)rand() % sizeof rb;
        for (size_t k = 0; k < rl; k++) rb[k] = (uint8_t)rand();
        Berthier__V1__Reply *r = td_call_raw(c, rb, rl, TD_TIMEOUT);
        assert_non_null(r);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    assert_true(td_alive(&f->d));
    s_expect_log_unchanged(f, before, before_len);
}

static void test_too_large(void **state) {
    fx *f = *state;
    uint8_t *before;
    size_t before_len;
    s_log_snapshot(f, &before, &before_len);
    /* Over max-message (2048): TOO_LARGE. */
    size_t n;
    uint8_t big[3000];
    memset(big, 'x', sizeof big);
    big[sizeof big - 1] = 0;
    uint8_t *b = td_submit_bytes(5, f->gid, 0, 1, (const char *)big, NULL, 0, &n);
    assert_true(n > 2048);
    s_expect(td_call_raw(f->seat[0], b, n, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_TOO_LARGE);
    free(b);
    /* Over twice the limit: libzmq drops the connection; no reply, daemon up. */
    uint8_t *huge = calloc(1, 10000);
    assert_int_equal(td_send_raw(f->seat[1], huge, 10000), 0);
    assert_null(td_recv(f->seat[1], 1000));
    free(huge);
    assert_true(td_alive(&f->d));
    td_client_reconnect(f->seat[1], &f->d);
    Berthier__V1__Reply *r = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, 1);
    s_ok(r);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* A state reply whose picture would pass max-message: refused whole (P4), never cut; the
     * same state without the picture fits. */
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = f->gid;
    g.svg = 1;
    req.body_case = BERTHIER__V1__REQUEST__BODY_STATE;
    req.state = &g;
    r = td_call(f->seat[0], &req, TD_TIMEOUT);
    assert_non_null(r);
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_TOO_LARGE);
    assert_string_equal(r->rule, "P4");
    assert_non_null(strstr(r->message, "ask without svg"));
    berthier__v1__reply__free_unpacked(r, NULL);
    r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_STATE, f->gid, 0);
    s_ok(r);
    assert_string_equal(r->state->svg, "");
    berthier__v1__reply__free_unpacked(r, NULL);
    s_expect_log_unchanged(f, before, before_len);
}

static void test_busy(void **state) {
    fx *f = *state;
    /* rate 1/s, burst 3: ten requests at once cannot all pass. */
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    uint8_t buf[64];
    for (int i = 0; i < 10; i++) {
        h.request_id = (uint64_t)(100 + i);
        size_t n = berthier__v1__request__pack(&h, buf);
        assert_int_equal(td_send_raw(f->admin, buf, n), 0);
    }
    int busy = 0, ok = 0;
    for (int i = 0; i < 10; i++) {
        Berthier__V1__Reply *r = td_recv(f->admin, TD_TIMEOUT);
        assert_non_null(r);
        if (r->code == BERTHIER__V1__CODE__CODE_BUSY) {
            busy++;
            assert_int_equal(r->request_id, 100 + i);
            assert_true(strlen(r->rule) > 0);
            assert_true(strlen(r->message) > 3);
        } else {
            assert_int_equal(r->code, 0);
            ok++;
        }
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    assert_true(busy >= 5);
    assert_true(ok >= 1);
}

static void test_io_error(void **state) {
    fx *f = *state;
    /* The games directory turns into a file: a new game cannot be stored. */
    char games[400], moved[420], cmd[1000];
    snprintf(games, sizeof games, "%s/games", f->d.dir);
    snprintf(moved, sizeof moved, "%s/games.moved", f->d.dir);
    assert_int_equal(rename(games, moved), 0);
    FILE *fp = fopen(games, "w");
    assert_non_null(fp);
    fclose(fp);
    s_expect(td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])f->keys, NULL, 0, 0, 0),
             BERTHIER__V1__CODE__CODE_IO_ERROR);
    unlink(games);
    assert_int_equal(rename(moved, games), 0);
    assert_true(td_alive(&f->d));
    /* Nothing was half-created: the daemon lists just the one game and restarts cleanly. */
    Berthier__V1__Reply *r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, 1);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(td_stop(&f->d), 0);
    assert_int_equal(td_start(&f->d), 0);
    /* its log and seed (the daemon's journal, games/journal, is no game's file) */
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | grep -vx journal | wc -l) -eq 2", games);
    assert_int_equal(system(cmd), 0);
}

static void test_internal(void **state) {
    (void)state;
    /* CODE_INTERNAL answers requests to a game halted by a broken invariant
     * (a ruleset or core bug); no request can provoke it by design. */
    fprintf(stderr, "note: CODE_INTERNAL has no client-side trigger (it reports a broken invariant)\n");
    skip();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_codes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_auth_codes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_game_codes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_retry_codes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_sealed_unseen, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_hostile_frames, s_setup_hostile, s_teardown),
        cmocka_unit_test_setup_teardown(test_too_large, s_setup_small, s_teardown),
        cmocka_unit_test_setup_teardown(test_busy, s_setup_rate, s_teardown),
        cmocka_unit_test_setup_teardown(test_io_error, s_setup, s_teardown),
        cmocka_unit_test(test_internal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
