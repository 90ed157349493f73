/*
 * test_hard_abuse.c - [issue 6] the offender is disconnected (docs/daemon.md,
 * "Abuse: cutting connections and banning keys").
 *
 *   - a seat that sends garbage past `abuse-malformed` in a window has its
 *     connection cut (its DEALER's monitor reports ZMQ_EVENT_DISCONNECTED), its
 *     reconnections fail the handshake during the ban (ZMQ_EVENT_HANDSHAKE_
 *     FAILED_AUTH), and it is served again once the ban is over; the other seat
 *     of the same game is served all along;
 *   - a seat that sends thousands of valid requests, pipelined, with `rate` 0,
 *     is never cut;
 *   - a revoked key's open connection is cut at the SIGHUP reload, without
 *     sending anything, and cannot come back;
 *   - with a `rate`, a client that keeps sending past it is cut after
 *     `abuse-busy` BUSY refusals.
 * Every cut is logged with the key's short form and the reason. Nothing here
 * depends on timing: waits have generous limits, and what is asserted is the
 * events the client sees and the replies it gets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

#define S_WAIT_MS 60000

typedef th_fx fx;

static int s_setup_args(void **state, const char *const *extra, int nextra) {
    return th_fx_setup(state, extra, nextra, th_start);
}

/* A small threshold and a short ban, so that the ban's end is seen; no rate
 * limit (its default is 50000 a second), so that pipelined valid requests
 * are never refused. */
static int s_setup(void **state) {
    const char *extra[] = {"--abuse-malformed", "8", "--ban-seconds", "3", "--rate", "0"};
    return s_setup_args(state, extra, 6);
}

/* A rate of 5 a second (burst 5) and a cut after 20 BUSY refusals in 10 s. */
static int s_setup_rate(void **state) {
    const char *extra[] = {"--rate", "5", "--burst", "5", "--abuse-busy", "20", "--ban-seconds", "3"};
    return s_setup_args(state, extra, 8);
}

/* A monitor (PAIR) on a client's DEALER. */
static void *s_monitor(td_client *c) {
    static int seq;
    char ep[64];
    snprintf(ep, sizeof ep, "inproc://abuse-mon-%d", ++seq);
    assert_int_equal(zmq_socket_monitor(c->sock, ep,
                                        ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                                            ZMQ_EVENT_HANDSHAKE_FAILED_AUTH),
                     0);
    void *m = zmq_socket(td_zctx(), ZMQ_PAIR);
    assert_non_null(m);
    assert_int_equal(zmq_connect(m, ep), 0);
    return m;
}

/* The next monitor event among `mask` (others are skipped), 0 if none came
 * within the limit (a hang guard, not a timing assertion). */
static int s_wait_event(void *mon, int mask, int limit_ms) {
    for (int waited = 0; waited < limit_ms;) {
        zmq_pollitem_t it = {mon, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 100) <= 0) {
            waited += 100;
            continue;
        }
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, mon, 0) < 0) {
            zmq_msg_close(&m);
            continue;
        }
        uint16_t ev = 0;
        if (zmq_msg_size(&m) >= 2) memcpy(&ev, zmq_msg_data(&m), 2);
        zmq_msg_close(&m);
        zmq_msg_init(&m);
        zmq_msg_recv(&m, mon, 0);   /* the endpoint frame */
        zmq_msg_close(&m);
        if (getenv("ABUSE_DEBUG")) fprintf(stderr, "event 0x%x\n", ev);
        if (ev & mask) return ev;
    }
    return 0;
}

static void s_close_monitor(td_client *c, void *mon) {
    zmq_socket_monitor(c->sock, NULL, 0);
    zmq_close(mon);
}

static void s_ok(Berthier__V1__Reply *r) {
    assert_non_null(r);
    if (r->code) fprintf(stderr, "unexpected code %d: %s\n", r->code, r->message);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* A started duel game, and a monitor on its seat 0's DEALER. */
static void *s_game_watched(fx *f, th_game *g) {
    assert_int_equal(th_game_start(g, &f->d, f->admin), 0);
    return s_monitor(g->seat[0]);
}

/* A PENDING request for seat 0 of game gid, packed into buf. */
static size_t s_pack_pending(char *gid, uint64_t rid, uint8_t buf[128]) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef gr = BERTHIER__V1__GAME_REF__INIT;
    gr.game_id = gid;
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
    req.pending = &gr;
    return berthier__v1__request__pack(&req, buf);
}

static void s_key_short(const char *pub, char out[16]) { snprintf(out, 16, "key %.8s", pub); }

static void test_garbage_cut_banned_and_back(void **state) {
    fx *f = *state;
    th_game g;
    void *mon = s_game_watched(f, &g);
    td_client *bad = g.seat[0], *good = g.seat[1];
    s_ok(td_gameref(bad, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 0));
    s_ok(td_gameref(good, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 1));

    /* Garbage past the threshold (8 in 10 s): each frame is answered
     * MALFORMED until the 9th, whose connection is cut. */
    static const uint8_t garbage[] = {0xff, 0xfe, 0x01, 0x02, 0x7f};
    unsigned malformed = 0;
    for (int i = 0; i < 9; i++) {
        Berthier__V1__Reply *r = td_call_raw(bad, garbage, sizeof garbage, i < 8 ? TD_TIMEOUT : 1000);
        if (i < 8) {
            assert_non_null(r);
            assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_MALFORMED);
            assert_string_equal(r->rule, "P2");
            malformed++;
        }
        if (r) berthier__v1__reply__free_unpacked(r, NULL);
    }
    assert_int_equal(malformed, 8);
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_DISCONNECTED, S_WAIT_MS), ZMQ_EVENT_DISCONNECTED);
    char k[16];
    s_key_short(g.pub[0], k);
    assert_true(td_log_count(&f->d, "too many malformed frames: connection cut") >= 1);
    assert_true(td_log_count(&f->d, k) >= 1);
    assert_int_equal(td_log_count(&f->d, "key banned for 3 s"), 1);

    /* During the ban its DEALER reconnects on its own and is refused at the
     * handshake (libzmq then gives that connection up for good); the other
     * seat is served meanwhile. */
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_SUCCEEDED, S_WAIT_MS),
                     ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    s_close_monitor(bad, mon);
    s_ok(td_gameref(good, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 1));
    s_ok(td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0));

    /* After the ban a new connection with the key passes the handshake and is
     * served: new connections until one is admitted (each refused one before
     * it was inside the ban, which the log gives as 3 s). */
    int refused = 0, admitted = 0;
    for (int tries = 0; tries < 300 && !admitted; tries++) {
        /* the monitor is attached before the connect, so the handshake's event cannot be missed */
        zmq_close(bad->sock);
        assert_int_equal(td_client_open(bad, &f->d), 0);
        void *m2 = s_monitor(bad);
        assert_int_equal(td_client_dial(bad, &f->d), 0);
        int ev = s_wait_event(m2, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_SUCCEEDED, S_WAIT_MS);
        s_close_monitor(bad, m2);
        assert_true(ev != 0);
        if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) admitted = 1;
        else {
            refused++;
            td_sleep_ms(200);
        }
    }
    assert_true(admitted);
    fprintf(stderr, "new connections refused during the ban before one was admitted: %d\n", refused);
    s_ok(td_gameref(bad, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 0));
    s_ok(td_gameref(good, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 1));
    /* The honest seat was never cut, and the game goes on. */
    uint64_t rid = 1;
    assert_int_equal(th_play_one(&g, &rid, NULL, NULL), 1);
    assert_true(td_alive(&f->d));
    th_game_end(&g);
}

static void test_valid_flood_never_cut(void **state) {
    fx *f = *state;
    th_game g;
    void *mon = s_game_watched(f, &g);
    td_client *c = g.seat[0];
    const unsigned total = th_long() ? 50000 : 5000, window = 500;
    unsigned sent = 0, got = 0;
    while (got < total) {
        while (sent < total && sent - got < window) {
            uint8_t buf[128];
            size_t n = s_pack_pending(g.gid, 1 + sent, buf);
            assert_int_equal(zmq_send(c->sock, buf, n, 0), (int)n);
            sent++;
        }
        Berthier__V1__Reply *r = td_recv(c, TD_TIMEOUT);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        berthier__v1__reply__free_unpacked(r, NULL);
        got++;
    }
    /* Not cut: no disconnect was seen, nothing was logged, it is still served. */
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_DISCONNECTED, 300), 0);
    assert_int_equal(td_log_count(&f->d, "connection cut"), 0);
    s_ok(td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 0));
    s_close_monitor(c, mon);
    th_game_end(&g);
}

static void test_revoked_cut_at_reload(void **state) {
    fx *f = *state;
    th_game g;
    void *mon = s_game_watched(f, &g);
    td_client *c = g.seat[0];
    s_ok(td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 0));
    char path[300];
    snprintf(path, sizeof path, "%s/revoked.keys", f->d.dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "%s\n", g.pub[0]);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(kill(f->d.pid, SIGHUP), 0);
    /* Cut without sending anything, and refused when it comes back. */
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_DISCONNECTED, S_WAIT_MS), ZMQ_EVENT_DISCONNECTED);
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_SUCCEEDED, S_WAIT_MS),
                     ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    char k[16];
    s_key_short(g.pub[0], k);
    assert_int_equal(td_log_count(&f->d, "revoked key: 1 connection cut"), 1);
    assert_true(td_log_count(&f->d, k) >= 1);
    /* The other seat goes on. */
    s_ok(td_gameref(g.seat[1], BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 1));
    s_close_monitor(c, mon);
    th_game_end(&g);
}

/* A client that keeps sending past its rate: BUSY replies, then, past
 * `abuse-busy` of them, its connection is cut. Another key is served. */
static void test_over_rate_cut(void **state) {
    fx *f = *state;
    th_game g;
    void *mon = s_game_watched(f, &g);
    td_client *c = g.seat[0];
    unsigned busy = 0, sent = 0;
    /* 200 pipelined valid requests: at most the burst and what refills are
     * served, the rest is BUSY until the 21st refusal cuts the connection. */
    for (; sent < 200; sent++) {
        uint8_t buf[128];
        size_t n = s_pack_pending(g.gid, 1 + sent, buf);
        assert_int_equal(zmq_send(c->sock, buf, n, 0), (int)n);
    }
    for (;;) {
        Berthier__V1__Reply *r = td_recv(c, 2000);
        if (!r) break;
        if (r->code == BERTHIER__V1__CODE__CODE_BUSY) busy++;
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    assert_int_equal(s_wait_event(mon, ZMQ_EVENT_DISCONNECTED, S_WAIT_MS), ZMQ_EVENT_DISCONNECTED);
    assert_true(busy <= 21);
    assert_int_equal(td_log_count(&f->d, "over its rate too often: connection cut; key banned for 3 s"), 1);
    s_close_monitor(c, mon);
    s_ok(td_gameref(g.seat[1], BERTHIER__V1__REQUEST__BODY_PENDING, g.gid, 1));
    th_game_end(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_garbage_cut_banned_and_back, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_valid_flood_never_cut, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_revoked_cut_at_reload, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_over_rate_cut, s_setup_rate, th_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
