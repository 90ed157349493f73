/*
 * test_hard_flood.c - [issue 6] floods and slow peers.
 *
 * An honest duel game plays durable orders, first on a quiet daemon, then
 * while, at the same time:
 *   - a seat of another game floods pipelined requests (pending queries,
 *     stale submits, garbage frames) as fast as the daemon answers them;
 *   - a seat of a third game sends thousands of requests and never reads a
 *     reply (its receive queue stays full);
 *   - many unauthenticated peers sit on the socket: ZeroMQ clients with
 *     unknown CURVE keys (their handshakes fail and are retried), and raw
 *     unix-socket connections that never send a byte.
 * Every honest order must be acknowledged, the flooder must be served (or
 * told BUSY when a rate is set) when abuse cuts are off, and cut for its
 * garbage with the default settings, the daemon must stay up with bounded RSS,
 * and the honest p99 round trip under the flood is compared with the one
 * measured while the flooder pauses, in alternating blocks of the same run
 * (printed; asserted with BERTHIER_FLOOD_STRICT=1, see below).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cmocka.h>

#include "test_hard_common.h"

typedef struct flood {
    td_daemon *d;
    char gid[32];
    char pub[41], sec[41];
    volatile int stop;
    volatile int pause;       /* set: send nothing, keep reading replies */
    volatile int drained;     /* paused and no reply came for 50 ms */
    uint64_t sent, got, busy, malformed;
    int failed;
} flood;

static void *s_flooder(void *arg) {
    flood *f = arg;
    /* A ZeroMQ context of its own, as another client would have: sharing the
     * test's context would put the honest seats' messages behind the flood in
     * one client-side I/O thread, which is no part of the daemon. */
    void *ctx = zmq_ctx_new();
    td_client *c = calloc(1, sizeof *c);
    if (!ctx || !c) {
        f->failed = 1;
        free(c);
        if (ctx) zmq_ctx_term(ctx);
        return NULL;
    }
    memcpy(c->pub, f->pub, 41);
    memcpy(c->sec, f->sec, 41);
    c->sock = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 0;
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", f->d->dir);
    if (!c->sock || zmq_setsockopt(c->sock, ZMQ_LINGER, &linger, sizeof linger) != 0 ||
        zmq_setsockopt(c->sock, ZMQ_CURVE_SERVERKEY, f->d->server_pub, 40) != 0 ||
        zmq_setsockopt(c->sock, ZMQ_CURVE_PUBLICKEY, c->pub, 40) != 0 ||
        zmq_setsockopt(c->sock, ZMQ_CURVE_SECRETKEY, c->sec, 40) != 0 || zmq_connect(c->sock, ep) != 0) {
        f->failed = 1;
        td_client_destroy(&c);
        zmq_ctx_term(ctx);
        return NULL;
    }
    uint64_t rid = 1u << 30;
    static const uint8_t garbage[] = {0xff, 0xfe, 0x01, 0x02, 0x7f};
    double last_reply = th_now_us();
    while (!f->stop) {
        /* Keep up to 2000 requests in flight. */
        if (!f->pause) f->drained = 0;
        else if (th_now_us() - last_reply > 50000) f->drained = 1;
        while (f->sent - f->got < 2000 && !f->stop && !f->pause) {
            uint8_t buf[256];
            size_t n = 0;
            switch (f->sent % 3) {
            case 0: {
                Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
                Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
                g.game_id = f->gid;
                req.request_id = ++rid;
                req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
                req.pending = &g;
                n = berthier__v1__request__pack(&req, buf);
                break;
            }
            case 1: {
                uint8_t *b = td_submit_bytes(++rid, f->gid, 0, 999999, "bid 1", NULL, 0, &n);
                memcpy(buf, b, n);
                free(b);
                break;
            }
            default:
                memcpy(buf, garbage, sizeof garbage);
                n = sizeof garbage;
            }
            if (zmq_send(c->sock, buf, n, ZMQ_DONTWAIT) != (int)n) break;
            f->sent++;
        }
        zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
        zmq_poll(&it, 1, 10);
        for (;;) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, c->sock, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&m);
                break;
            }
            Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
            zmq_msg_close(&m);
            last_reply = th_now_us();
            f->got++;
            if (r && r->code == BERTHIER__V1__CODE__CODE_BUSY) f->busy++;
            if (r && r->code == BERTHIER__V1__CODE__CODE_MALFORMED) f->malformed++;
            if (r) berthier__v1__reply__free_unpacked(r, NULL);
        }
    }
    td_client_destroy(&c);
    zmq_ctx_term(ctx);
    return NULL;
}

typedef th_fx fx;

static int s_setup_args(void **state, const char *const *extra, int nextra) {
    return th_fx_setup(state, extra, nextra, th_start);
}

/* The flooder's garbage would get it cut and banned (docs/daemon.md, "Abuse")
 * within its first hundred frames: these two measure the throttle alone. */
static int s_setup(void **state) {
    const char *extra[] = {"--abuse-malformed", "0", "--rate", "0"};
    return s_setup_args(state, extra, 4);
}

static int s_setup_rate(void **state) {
    const char *extra[] = {"--rate", "2000", "--burst", "500", "--abuse-malformed", "0", "--abuse-busy", "0"};
    return s_setup_args(state, extra, 8);
}

/* Default settings: the flooder is cut and banned. */
static int s_setup_defaults(void **state) { return s_setup_args(state, NULL, 0); }

/* n honest durable orders; a new game when one ends. Round trips into v. */
static void s_honest(fx *f, th_game *g, uint64_t *rid, double *v, size_t n) {
    for (size_t i = 0; i < n;) {
        int rc = th_play_one(g, rid, &v[i], NULL);
        assert_true(rc >= 0);
        if (rc == 0) {
            th_game_end(g);
            assert_int_equal(th_game_start(g, &f->d, f->admin), 0);
            continue;
        }
        i++;
    }
}

/*
 * The latency bound: the honest p99 while the flooder runs within 2x of the
 * p99 while it pauses. The two are sampled in alternating blocks of orders
 * (the flooder stops and its replies drain before a quiet block, it runs
 * again 100 ms before a loud one), so that both see the same disk and CPU
 * weather on a shared machine; the quiet run before the attack is printed
 * too. The bound (2x, plus 2 ms for a scheduling quantum) is asserted only
 * with BERTHIER_FLOOD_STRICT=1: a timing never fails `make test`.
 *
 * What keeps the flood from reaching the honest seats (docs/daemon.md,
 * "Fairness"): every frame is admitted by its key before it is decoded; once
 * two keys share a round, no key may have more than `share` (16) frames in
 * it, so the honest request waits for rounds of a few dozen frames instead
 * of `batch` (1024); with a rate, an over-rate frame, garbage included, is
 * answered BUSY without being decoded or taking part in the round.
 *
 * Measured on the 2-core build machine while other builds saturated it (load
 * 9-14): p50 4-27 ms flooding against 1-7 ms paused, p99 ratio 0.8-7.5 from
 * run to run (the daemon before admission and the share: p50 22-38 ms, p99
 * ratio 1-6). The flooder's own CPU (its threads here, CURVE in the daemon's
 * I/O thread) is what remains; with CPU to spare the bench's flood line gave
 * p50 839 vs 815 us.
 */
static void s_check_latency(double *base, double *quiet, double *loud, size_t n, int strict) {
    double b50 = th_percentile(base, n, 0.50), b99 = th_percentile(base, n, 0.99);
    double q50 = th_percentile(quiet, n, 0.50), q99 = th_percentile(quiet, n, 0.99);
    double l50 = th_percentile(loud, n, 0.50), l99 = th_percentile(loud, n, 0.99);
    fprintf(stderr,
            "honest order round trip (p50/p99 us): before the attack %.0f/%.0f; flooder paused %.0f/%.0f; "
            "flooding %.0f/%.0f; p99 ratio %.2f against paused, %.2f against before (bound %s)\n",
            b50, b99, q50, q99, l50, l99, l99 / q99, l99 / b99,
            strict ? "asserted: 2x paused + 2 ms" : "not asserted (BERTHIER_FLOOD_STRICT=1)");
    if (strict) assert_true(l99 <= 2 * q99 + 2000);
}

static void s_attack(void **state, int expect_busy, int expect_cut) {
    fx *f = *state;
    size_t n = th_long() ? 400 : 60;
    unsigned nunauth = th_long() ? 400 : 100;
    uint64_t rid = 1;
    th_game honest, target, slow;
    assert_int_equal(th_game_start(&honest, &f->d, f->admin), 0);
    assert_int_equal(th_game_start(&target, &f->d, f->admin), 0);
    assert_int_equal(th_game_start(&slow, &f->d, f->admin), 0);
    double *base = calloc(n, sizeof *base), *quiet = calloc(n, sizeof *quiet), *loud = calloc(n, sizeof *loud);

    /* Quiet baseline. */
    s_honest(f, &honest, &rid, base, n);
    long rss0 = th_rss(f->d.pid);
    assert_true(rss0 > 0);

    /* The slow peer: thousands of requests, never a read. */
    void *slow_sock = zmq_socket(td_zctx(), ZMQ_DEALER);
    int zero = 0, one = 1;
    zmq_setsockopt(slow_sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(slow_sock, ZMQ_SNDHWM, &zero, sizeof zero);
    zmq_setsockopt(slow_sock, ZMQ_RCVHWM, &one, sizeof one);
    zmq_setsockopt(slow_sock, ZMQ_RCVBUF, &(int){4096}, sizeof(int));
    zmq_setsockopt(slow_sock, ZMQ_CURVE_SERVERKEY, f->d.server_pub, 40);
    zmq_setsockopt(slow_sock, ZMQ_CURVE_PUBLICKEY, slow.pub[0], 40);
    zmq_setsockopt(slow_sock, ZMQ_CURVE_SECRETKEY, slow.sec[0], 40);
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", f->d.dir);
    assert_int_equal(zmq_connect(slow_sock, ep), 0);
    unsigned nslow = th_long() ? 20000 : 5000;
    for (unsigned i = 0; i < nslow; i++) {
        Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
        Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
        g.game_id = slow.gid;
        req.request_id = 1 + i;
        req.body_case = BERTHIER__V1__REQUEST__BODY_STATE;
        g.text = 1;
        req.state = &g;
        uint8_t buf[128];
        size_t len = berthier__v1__request__pack(&req, buf);
        assert_int_equal(zmq_send(slow_sock, buf, len, 0), (int)len);
    }

    /* Unauthenticated peers: unknown CURVE keys, and raw connections that say nothing. */
    void **strangers = calloc(nunauth, sizeof *strangers);
    int *raw = calloc(nunauth, sizeof *raw);
    for (unsigned i = 0; i < nunauth; i++) {
        char pub[41], sec[41];
        zmq_curve_keypair(pub, sec);
        strangers[i] = zmq_socket(td_zctx(), ZMQ_DEALER);
        zmq_setsockopt(strangers[i], ZMQ_LINGER, &zero, sizeof zero);
        zmq_setsockopt(strangers[i], ZMQ_CURVE_SERVERKEY, f->d.server_pub, 40);
        zmq_setsockopt(strangers[i], ZMQ_CURVE_PUBLICKEY, pub, 40);
        zmq_setsockopt(strangers[i], ZMQ_CURVE_SECRETKEY, sec, 40);
        assert_int_equal(zmq_connect(strangers[i], ep), 0);
        zmq_send(strangers[i], "hello?", 6, ZMQ_DONTWAIT);
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        snprintf(sa.sun_path, sizeof sa.sun_path, "%.90s/berthier.sock", f->d.dir);
        raw[i] = socket(AF_UNIX, SOCK_STREAM, 0);
        assert_true(raw[i] >= 0);
        assert_int_equal(connect(raw[i], (struct sockaddr *)&sa, sizeof sa), 0);
    }

    /* The flooder, in its own thread, then the honest game again. */
    flood fl;
    memset(&fl, 0, sizeof fl);
    fl.d = &f->d;
    snprintf(fl.gid, sizeof fl.gid, "%s", target.gid);
    memcpy(fl.pub, target.pub[0], 41);
    memcpy(fl.sec, target.sec[0], 41);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, s_flooder, &fl), 0);
    td_sleep_ms(300);
    const size_t block = 10;
    for (size_t i = 0; i < n; i += block) {
        size_t k = n - i < block ? n - i : block;
        fl.pause = 1;
        for (int w = 0; w < 400 && !fl.drained; w++) td_sleep_ms(5);
        s_honest(f, &honest, &rid, quiet + i, k);
        fl.pause = 0;
        td_sleep_ms(100);
        s_honest(f, &honest, &rid, loud + i, k);
    }
    long rss1 = th_rss(f->d.pid);
    fl.stop = 1;
    pthread_join(th, NULL);
    assert_false(fl.failed);
    fprintf(stderr, "flooder: %llu sent, %llu answered (%llu BUSY, %llu MALFORMED); daemon RSS %ld -> %ld KiB\n",
            (unsigned long long)fl.sent, (unsigned long long)fl.got, (unsigned long long)fl.busy,
            (unsigned long long)fl.malformed, rss0 / 1024, rss1 / 1024);
    if (expect_cut) {
        /* Cut for its garbage (its replies of that round go nowhere), banned,
         * and its DEALER gives up after the refused handshake. */
        fprintf(stderr, "flooder cut: %d log line(s)\n", td_log_count(&f->d, "too many malformed frames: connection cut"));
        assert_true(td_log_count(&f->d, "too many malformed frames: connection cut") >= 1);
    } else {
        assert_true(fl.got > 0);
        assert_true(fl.malformed > 0);
        assert_int_equal(td_log_count(&f->d, "connection cut"), 0);
    }
    if (expect_busy) assert_true(fl.busy > 0);
    else assert_int_equal(fl.busy, 0);
    /* Memory stays bounded: the slow peer's queue and the flood's are capped by the HWM. */
    assert_true(rss1 - rss0 < 64L * 1024 * 1024);
    assert_true(td_alive(&f->d));

    /* The honest seats were never throttled and the game log verifies so far. */
    const char *strict = getenv("BERTHIER_FLOOD_STRICT");
    s_check_latency(base, quiet, loud, n, strict && strcmp(strict, "1") == 0);
    char log[512];
    snprintf(log, sizeof log, "%s/games/%s.log", f->d.dir, honest.gid);
    int skipped, rc = td_replay_verify(log, &skipped);
    assert_true(rc == 0 || rc == 2);   /* 2: live game, consistent so far */

    /* The slow peer and the strangers go away; the daemon serves on. */
    zmq_close(slow_sock);
    for (unsigned i = 0; i < nunauth; i++) {
        zmq_close(strangers[i]);
        close(raw[i]);
    }
    free(strangers);
    free(raw);
    double one_more;
    assert_true(th_play_one(&honest, &rid, &one_more, NULL) >= 0);
    Berthier__V1__Reply *r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_true(td_alive(&f->d));
    th_game_end(&honest);
    th_game_end(&target);
    th_game_end(&slow);
    free(base);
    free(quiet);
    free(loud);
}

static void test_flood_no_rate(void **state) { s_attack(state, 0, 0); }

static void test_flood_rate_limited(void **state) { s_attack(state, 1, 0); }

static void test_flood_cut_by_default(void **state) { s_attack(state, 0, 1); }

int main(void) {
    srand(11);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_flood_no_rate, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_flood_rate_limited, s_setup_rate, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_flood_cut_by_default, s_setup_defaults, th_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
