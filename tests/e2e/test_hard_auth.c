/*
 * test_hard_auth.c - [issue 6] authentication and replays of acknowledged
 * orders, beyond test_daemon_codes.c:
 *   - transport: no CURVE at all, CURVE with a wrong server key, the PLAIN
 *     mechanism, an unknown client key: no request is ever read (no reply),
 *     the daemon stays up; an unknown key is admitted once a game names it;
 *   - a seat field that lies, in every request kind that names a seat
 *     (join, pending, state, events, hello, legal, resign, submit), and
 *     out-of-range seats: NOT_YOUR_SEAT, nothing leaks (no view, no event
 *     key), nothing is logged;
 *   - a key of another game on every request kind: UNAUTHORIZED;
 *   - every acknowledged order of a finished game sent again, byte for byte:
 *     after a reconnect, after a daemon restart, and into another game with
 *     the same keys: the same outcome or a refusal, never a new record
 *     (both logs unchanged byte for byte, ORDER records counted by
 *     berthier-replay export).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

typedef th_fx fx;

static int s_setup(void **state) { return th_fx_setup(state, NULL, 0, td_start); }

static void s_code(Berthier__V1__Reply *r, int code) {
    assert_non_null(r);
    if ((int)r->code != code) fprintf(stderr, "expected code %d, got %d [%s] %s\n", code, r->code, r->rule, r->message);
    assert_int_equal(r->code, code);
    /* A refusal carries no body: no view, no event key, no decision. */
    if (code) assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY__NOT_SET);
    berthier__v1__reply__free_unpacked(r, NULL);
}

static uint8_t *s_hello_bytes(size_t *n) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    req.request_id = 5;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    req.hello = &g;
    *n = berthier__v1__request__get_packed_size(&req);
    uint8_t *b = malloc(*n);
    berthier__v1__request__pack(&req, b);
    return b;
}

/* A DEALER with whatever security the caller sets; returns 1 if a hello got a reply. */
static int s_hello_gets_reply(void *sock, const td_daemon *d, int ms) {
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", d->dir);
    int zero = 0;
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_connect(sock, ep) != 0) return -1;
    size_t n;
    uint8_t *b = s_hello_bytes(&n);
    zmq_send(sock, b, n, ZMQ_DONTWAIT);
    free(b);
    zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
    int got = zmq_poll(&it, 1, ms) > 0;
    zmq_close(sock);
    return got;
}

static void test_transport_refusals(void **state) {
    fx *f = *state;
    void *ctx = td_zctx();
    /* No security mechanism at all. */
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    assert_int_equal(s_hello_gets_reply(s, &f->d, 1500), 0);
    /* PLAIN with the admin's public key as a user name. */
    s = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(s, ZMQ_PLAIN_USERNAME, f->d.admin_pub, 40);
    zmq_setsockopt(s, ZMQ_PLAIN_PASSWORD, "x", 1);
    assert_int_equal(s_hello_gets_reply(s, &f->d, 1500), 0);
    /* CURVE with the admin keypair but a wrong server key. */
    char wrong_pub[41], wrong_sec[41];
    zmq_curve_keypair(wrong_pub, wrong_sec);
    s = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, wrong_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, f->d.admin_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, f->d.admin_sec, 40);
    assert_int_equal(s_hello_gets_reply(s, &f->d, 1500), 0);
    /* CURVE with the admin's public key but another secret key (a stolen .pub). */
    s = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, f->d.server_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, f->d.admin_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, wrong_sec, 40);
    assert_int_equal(s_hello_gets_reply(s, &f->d, 1500), 0);
    /* An unknown key: refused; admitted once a game names it as a seat. */
    char pub[41], sec[41];
    zmq_curve_keypair(pub, sec);
    td_client *stranger = td_client_new(&f->d, pub, sec);
    size_t n;
    uint8_t *b = s_hello_bytes(&n);
    assert_null(td_call_raw(stranger, b, n, 1500));
    td_client_destroy(&stranger);
    assert_true(td_alive(&f->d));
    uint8_t keys[2][32];
    char p2[41], s2[41];
    zmq_curve_keypair(p2, s2);
    zmq_z85_decode(keys[0], pub);
    zmq_z85_decode(keys[1], p2);
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
    s_code(r, 0);
    stranger = td_client_new(&f->d, pub, sec);
    r = td_call_raw(stranger, b, n, TD_TIMEOUT);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_false(r->hello->admin);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client_destroy(&stranger);
    free(b);
    assert_true(td_alive(&f->d));
}

static Berthier__V1__Reply *s_ref(td_client *c, Berthier__V1__Request__BodyCase kind, const char *gid, unsigned seat) {
    return td_gameref(c, kind, gid, seat);
}

static void test_lying_seat_field(void **state) {
    fx *f = *state;
    /* A game where only seat 0 has joined: seat 0's key tries to act as seat 1. */
    th_game g;
    uint8_t keys[2][32];
    char pub[2][41], sec[2][41];
    for (int i = 0; i < 2; i++) {
        zmq_curve_keypair(pub[i], sec[i]);
        zmq_z85_decode(keys[i], pub[i]);
    }
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    snprintf(g.gid, sizeof g.gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client *c0 = td_client_new(&f->d, pub[0], sec[0]);
    s_code(td_join(c0, g.gid, 0), 0);
    size_t before_len, after_len;
    uint8_t *before = th_log_bytes(&f->d, g.gid, &before_len);
    assert_non_null(before);
    unsigned lies[] = {1, 2, 7, 8, 255, 0x7fffffff, 0xffffffffu};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        unsigned s = lies[i];
        Berthier__V1__Reply *x = td_join(c0, g.gid, s);
        assert_non_null(x);
        assert_true(x->code == BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT || x->code == BERTHIER__V1__CODE__CODE_BAD_REQUEST);
        assert_int_equal(x->body_case, BERTHIER__V1__REPLY__BODY__NOT_SET);
        berthier__v1__reply__free_unpacked(x, NULL);
        Berthier__V1__Request__BodyCase kinds[] = {BERTHIER__V1__REQUEST__BODY_PENDING, BERTHIER__V1__REQUEST__BODY_STATE,
                                                   BERTHIER__V1__REQUEST__BODY_EVENTS, BERTHIER__V1__REQUEST__BODY_HELLO,
                                                   BERTHIER__V1__REQUEST__BODY_LEGAL, BERTHIER__V1__REQUEST__BODY_RESIGN};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            x = s_ref(c0, kinds[k], g.gid, s);
            assert_non_null(x);
            if (x->code != BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT && x->code != BERTHIER__V1__CODE__CODE_BAD_REQUEST)
                fprintf(stderr, "request kind %d naming seat %u: code %d\n", kinds[k], s, x->code);
            assert_true(x->code == BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT || x->code == BERTHIER__V1__CODE__CODE_BAD_REQUEST);
            assert_int_equal(x->body_case, BERTHIER__V1__REPLY__BODY__NOT_SET);
            berthier__v1__reply__free_unpacked(x, NULL);
        }
        x = td_submit_text(c0, g.gid, s, 1, "bid 1");
        assert_non_null(x);
        assert_true(x->code == BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT || x->code == BERTHIER__V1__CODE__CODE_BAD_REQUEST);
        berthier__v1__reply__free_unpacked(x, NULL);
    }
    /* Seat 1 is still waiting to join, and the log did not move. */
    r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_false(r->decision->started);
    berthier__v1__reply__free_unpacked(r, NULL);
    uint8_t *after = th_log_bytes(&f->d, g.gid, &after_len);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len);
    free(before);
    free(after);
    td_client_destroy(&c0);
    assert_true(td_alive(&f->d));
}

static void test_key_of_another_game(void **state) {
    fx *f = *state;
    th_game a, b;
    assert_int_equal(th_game_start(&a, &f->d, f->admin), 0);
    assert_int_equal(th_game_start(&b, &f->d, f->admin), 0);
    size_t before_len, after_len;
    uint8_t *before = th_log_bytes(&f->d, a.gid, &before_len);
    td_client *o = b.seat[0];   /* a seat of game b, acting on game a */
    uint64_t seq = th_seq(a.seat[0], a.gid, 0);
    for (unsigned s = 0; s < 2; s++) {
        s_code(td_join(o, a.gid, s), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        s_code(td_submit_text(o, a.gid, s, seq, "bid 1"), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        Berthier__V1__Request__BodyCase kinds[] = {BERTHIER__V1__REQUEST__BODY_PENDING, BERTHIER__V1__REQUEST__BODY_STATE,
                                                   BERTHIER__V1__REQUEST__BODY_EVENTS, BERTHIER__V1__REQUEST__BODY_HELLO,
                                                   BERTHIER__V1__REQUEST__BODY_LEGAL, BERTHIER__V1__REQUEST__BODY_RESIGN};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            s_code(s_ref(o, kinds[k], a.gid, s), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    }
    /* Its list shows its own game only. */
    Berthier__V1__Reply *r = td_gameref(o, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_int_equal(r->games->n_games, 1);
    assert_string_equal(r->games->games[0]->game_id, b.gid);
    berthier__v1__reply__free_unpacked(r, NULL);
    uint8_t *after = th_log_bytes(&f->d, a.gid, &after_len);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len);
    free(before);
    free(after);
    th_game_end(&a);
    th_game_end(&b);
}

/* Sends every acknowledged submit again; each must get OK with the same seq. */
static void s_resend_all(th_game *g, th_sent *sent, size_t n) {
    for (size_t i = 0; i < n; i++) {
        Berthier__V1__Reply *r = td_call_raw(g->seat[sent[i].seat], sent[i].bytes, sent[i].len, TD_TIMEOUT);
        assert_non_null(r);
        if (r->code) fprintf(stderr, "resend %zu: code %d [%s] %s\n", i, r->code, r->rule, r->message);
        assert_int_equal(r->code, 0);
        assert_non_null(r->accepted);
        assert_int_equal(r->accepted->seq, sent[i].seq_after);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
}

/* In another game: the same id with other bytes is REQUEST_ID_REUSED. */
static uint8_t *s_retarget(const th_sent *s, const char *gid, size_t *len) {
    Berthier__V1__Request *req = berthier__v1__request__unpack(NULL, s->len, s->bytes);
    assert_non_null(req);
    char *old = req->submit->game_id;
    req->submit->game_id = (char *)gid;
    *len = berthier__v1__request__get_packed_size(req);
    uint8_t *b = malloc(*len);
    berthier__v1__request__pack(req, b);
    req->submit->game_id = old;
    berthier__v1__request__free_unpacked(req, NULL);
    return b;
}

static void test_resend_acknowledged(void **state) {
    fx *f = *state;
    th_game g;
    assert_int_equal(th_game_start(&g, &f->d, f->admin), 0);
    size_t cap = 4096, n = 0;
    th_sent *sent = calloc(cap, sizeof *sent);
    uint64_t rid = 100;
    for (;;) {
        assert_true(n < cap);
        int rc = th_play_one(&g, &rid, NULL, &sent[n]);
        assert_true(rc >= 0);
        if (rc == 0) break;
        n++;
    }
    assert_true(n > 5);
    size_t len0;
    uint8_t *log0 = th_log_bytes(&f->d, g.gid, &len0);
    int orders0 = th_count_orders(&f->d, g.gid);
    assert_int_equal(orders0, (int)n);
    int skipped;
    char path[512];
    snprintf(path, sizeof path, "%s/games/%s.log", f->d.dir, g.gid);
    assert_int_equal(td_replay_verify(path, &skipped), 0);

    /* After a reconnect. */
    for (int i = 0; i < 2; i++) td_client_reconnect(g.seat[i], &f->d);
    s_resend_all(&g, sent, n);
    /* After a restart (the replies are rebuilt from the log). */
    assert_int_equal(td_stop(&f->d), 0);
    assert_int_equal(td_start(&f->d), 0);
    for (int i = 0; i < 2; i++) td_client_reconnect(g.seat[i], &f->d);
    td_client_reconnect(f->admin, &f->d);
    s_resend_all(&g, sent, n);
    size_t len1;
    uint8_t *log1 = th_log_bytes(&f->d, g.gid, &len1);
    assert_int_equal(len1, len0);
    assert_memory_equal(log1, log0, len0);
    assert_int_equal(th_count_orders(&f->d, g.gid), orders0);

    /* Into another game with the same seat keys. */
    uint8_t keys[2][32];
    memcpy(keys, g.keys, sizeof keys);
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    char other[32];
    snprintf(other, sizeof other, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    for (unsigned s = 0; s < 2; s++) s_code(td_join(g.seat[s], other, s), 0);
    size_t olen0, olen1;
    uint8_t *olog0 = th_log_bytes(&f->d, other, &olen0);
    for (size_t i = 0; i < n; i++) {
        size_t bl;
        uint8_t *b = s_retarget(&sent[i], other, &bl);
        r = td_call_raw(g.seat[sent[i].seat], b, bl, TD_TIMEOUT);
        free(b);
        s_code(r, BERTHIER__V1__CODE__CODE_REQUEST_ID_REUSED);
    }
    uint8_t *olog1 = th_log_bytes(&f->d, other, &olen1);
    assert_int_equal(olen1, olen0);
    assert_memory_equal(olog1, olog0, olen0);
    assert_int_equal(th_count_orders(&f->d, other), 0);
    /* And the first game's log still holds each order once. */
    assert_int_equal(th_count_orders(&f->d, g.gid), orders0);
    assert_int_equal(td_replay_verify(path, &skipped), 0);
    for (size_t i = 0; i < n; i++) free(sent[i].bytes);
    free(sent);
    free(log0);
    free(log1);
    free(olog0);
    free(olog1);
    th_game_end(&g);
}

int main(void) {
    srand(23);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_transport_refusals, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_lying_seat_field, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_key_of_another_game, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_resend_acknowledged, s_setup, th_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
