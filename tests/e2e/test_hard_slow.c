/*
 * test_hard_slow.c - [issue 11, attack 6] slow readers and connections per key
 * (docs/daemon.md, "Bounded resources").
 *
 *   - 100 slow readers (20 seat keys, 5 connections each) send 1200 `state`
 *     requests each (the n20 state with its text: about 3.7 KB a reply) and
 *     never read a reply. The daemon must stop building replies for each of
 *     them once it holds `reply-budget` unsent bytes for it (the daemon logs
 *     it once per connection), and its RSS (/proc/PID/status VmRSS) must stay
 *     under the documented bound
 *         RSS before + connections x (reply-budget + 3 x largest reply) + 96 MiB
 *     all along, while an honest seat of another game keeps playing durable
 *     orders, every one acknowledged. `rate` is 0 here: the budget alone
 *     bounds the memory.
 *     On the old code every reply was handed to libzmq whatever the peer
 *     had left unread: 100 x 1200 replies of 3.7 KB, about 440 MB, and no
 *     connection is ever reported over its budget: the test fails on the RSS
 *     bound or on the missing reports.
 *   - `key-connections` (default 32): a key's 33rd live connection is refused
 *     CODE_TOO_MANY_CONNECTIONS (rule P5) while its 32 others are served; once
 *     one of them closes, the new one is served. On the old code all 33 were
 *     served.
 * Nothing is timed: waits have generous caps and only turn a hang into a failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

#define S_GAMES 10   /* n20 games, 2 seat keys each */
#define S_KEYS (2 * S_GAMES)
#define S_CONNS_PER_KEY 5
#define S_READERS (S_KEYS * S_CONNS_PER_KEY)
#define S_REQUESTS 1200
#define S_BUDGET (1u << 20)   /* reply-budget, the default */
#define S_WAIT_MS 120000

typedef th_fx fx;

/* rate 0: no rate limit, so that the reply budget alone is what holds. */
static int s_setup(void **state) {
    const char *extra[] = {"--rate", "0"};
    return th_fx_setup(state, extra, 2, th_start);
}

static int s_setup_default(void **state) { return th_fx_setup(state, NULL, 0, th_start); }

/* A DEALER that reads nothing: its receive queue holds one message and its
 * kernel buffer little, so that what it leaves unread stays in the daemon. */
static void *s_slow_socket(const td_daemon *d, const char *pub, const char *sec) {
    void *s = zmq_socket(td_zctx(), ZMQ_DEALER);
    assert_non_null(s);
    int one = 1, small = 4096, linger = 0, sndhwm = S_REQUESTS + 10;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_RCVHWM, &one, sizeof one);
    zmq_setsockopt(s, ZMQ_RCVBUF, &small, sizeof small);
    zmq_setsockopt(s, ZMQ_SNDHWM, &sndhwm, sizeof sndhwm);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, d->server_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", d->dir);
    assert_int_equal(zmq_connect(s, ep), 0);
    return s;
}

static size_t s_pack_state(uint64_t rid, const char *gid, unsigned seat, uint8_t *buf, size_t cap) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    g.text = 1;
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_STATE;
    req.state = &g;
    size_t n = berthier__v1__request__get_packed_size(&req);
    assert_true(n <= cap);
    berthier__v1__request__pack(&req, buf);
    return n;
}

static void test_slow_readers_bounded(void **state) {
    fx *f = *state;
    char pub[S_KEYS][41], sec[S_KEYS][41];
    uint8_t keys[S_KEYS][32];
    char gid[S_GAMES][32];
    td_fresh_keys(S_KEYS, pub, sec, keys);
    for (int g = 0; g < S_GAMES; g++) {
        Berthier__V1__Reply *c = td_create(f->admin, "n20", "waterloo20-standard", 2,
                                           (const uint8_t(*)[32])keys[2 * g], NULL, 0, 0, 0);
        assert_non_null(c);
        assert_int_equal(c->code, 0);
        snprintf(gid[g], sizeof gid[g], "%s", c->created->game_id);
        berthier__v1__reply__free_unpacked(c, NULL);
        for (unsigned s = 0; s < 2; s++) {
            td_client *j = td_client_new(&f->d, pub[2 * g + s], sec[2 * g + s]);
            assert_non_null(j);
            Berthier__V1__Reply *r = td_join(j, gid[g], s);
            assert_non_null(r);
            assert_int_equal(r->code, 0);
            berthier__v1__reply__free_unpacked(r, NULL);
            td_client_destroy(&j);
        }
    }
    /* The size of one reply, as an honest reader gets it. */
    td_client *probe = td_client_new(&f->d, pub[0], sec[0]);
    assert_non_null(probe);
    uint8_t buf[512];
    size_t n = s_pack_state(1, gid[0], 0, buf, sizeof buf);
    zmq_msg_t m;
    assert_int_equal(td_send_raw(probe, buf, n), 0);
    zmq_msg_init(&m);
    assert_true(zmq_msg_recv(&m, probe->sock, 0) > 0);
    size_t reply_size = zmq_msg_size(&m);
    zmq_msg_close(&m);
    td_client_destroy(&probe);
    fprintf(stderr, "state reply: %zu bytes\n", reply_size);
    /* Large enough that 200 of them per reader are far over the budget. */
    assert_true(reply_size * S_REQUESTS > 4 * S_BUDGET);

    th_game honest;
    assert_int_equal(th_game_start(&honest, &f->d, f->admin), 0);
    uint64_t hrid = 1u << 20;
    assert_int_equal(th_play_one(&honest, &hrid, NULL, NULL), 1);
    td_sleep_ms(200);   /* the baseline once the sockets and first rounds exist */
    long before = th_rss(f->d.pid);
    assert_true(before > 0);
    long bound = before + (long)S_READERS * (long)(S_BUDGET + 3 * reply_size) + (96l << 20);

    void *slow[S_READERS];
    for (int i = 0; i < S_READERS; i++) {
        int k = i % S_KEYS;
        slow[i] = s_slow_socket(&f->d, pub[k], sec[k]);
    }
    uint64_t rid = 1;
    for (int r = 0; r < S_REQUESTS; r++)
        for (int i = 0; i < S_READERS; i++) {
            int k = i % S_KEYS;
            n = s_pack_state(++rid, gid[k / 2], (unsigned)(k % 2), buf, sizeof buf);
            assert_int_equal(zmq_send(slow[i], buf, n, 0), (int)n);
        }
    /* Wait until every slow reader is reported over its budget, checking the
     * RSS and playing honest orders all along. */
    long peak = before;
    int over = 0, played = 0;
    for (int waited = 0; waited < S_WAIT_MS; waited += 20) {
        long rss = th_rss(f->d.pid);
        if (rss > peak) peak = rss;
        if (rss > bound)
            fail_msg("daemon RSS %ld MiB over the bound %ld MiB (before %ld MiB, reply %zu bytes)", rss >> 20,
                     bound >> 20, before >> 20, reply_size);
        over = td_log_count(&f->d, "replies it has not read (reply-budget");
        if (over >= S_READERS && played >= 10) break;
        int rc = th_play_one(&honest, &hrid, NULL, NULL);
        assert_true(rc >= 0);   /* every honest order acknowledged */
        if (rc == 1) played++;
        if (rc == 0) {   /* the game ended: another one */
            th_game_end(&honest);
            assert_int_equal(th_game_start(&honest, &f->d, f->admin), 0);
        }
        td_sleep_ms(20);
    }
    assert_int_equal(over, S_READERS);
    assert_true(played >= 10);
    /* Still served, still bounded, with every slow reader in place. */
    for (int i = 0; i < 5; i++) assert_true(th_play_one(&honest, &hrid, NULL, NULL) >= 0);
    long rss = th_rss(f->d.pid);
    if (rss > peak) peak = rss;
    assert_true(rss <= bound);
    fprintf(stderr, "slow readers: reply %zu bytes, RSS before %ld MiB, peak %ld MiB, bound %ld MiB\n", reply_size,
            before >> 20, peak >> 20, bound >> 20);
    for (int i = 0; i < S_READERS; i++) zmq_close(slow[i]);
    th_game_end(&honest);
    assert_true(td_alive(&f->d));
}

static uint64_t s_hello(void *sock, uint64_t rid) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    req.hello = &g;
    uint8_t buf[64];
    size_t n = berthier__v1__request__pack(&req, buf);
    assert_int_equal(zmq_send(sock, buf, n, 0), (int)n);
    return rid;
}

/* The code of the reply to a hello on c (-1: none within the cap). */
static int s_hello_code(td_client *c, uint64_t rid) {
    s_hello(c->sock, rid);
    Berthier__V1__Reply *r = td_recv(c, TD_TIMEOUT);
    if (!r) return -1;
    int code = r->request_id == rid ? (int)r->code : -2;
    if (code == BERTHIER__V1__CODE__CODE_TOO_MANY_CONNECTIONS) assert_string_equal(r->rule, "P5");
    berthier__v1__reply__free_unpacked(r, NULL);
    return code;
}

#define S_CAP 32   /* key-connections, the default */

static void test_connections_per_key_capped(void **state) {
    fx *f = *state;
    th_game g;
    assert_int_equal(th_game_start(&g, &f->d, f->admin), 0);
    td_client *c[S_CAP + 1];
    /* g.seat[0] is one live connection of the key already */
    c[0] = g.seat[0];
    g.seat[0] = NULL;
    uint64_t rid = 100;
    assert_int_equal(s_hello_code(c[0], ++rid), 0);
    for (int i = 1; i < S_CAP; i++) {
        c[i] = td_client_new(&f->d, g.pub[0], g.sec[0]);
        assert_non_null(c[i]);
        assert_int_equal(s_hello_code(c[i], ++rid), 0);
    }
    c[S_CAP] = td_client_new(&f->d, g.pub[0], g.sec[0]);
    assert_non_null(c[S_CAP]);
    assert_int_equal(s_hello_code(c[S_CAP], ++rid), BERTHIER__V1__CODE__CODE_TOO_MANY_CONNECTIONS);
    /* Another key is not affected. */
    assert_int_equal(s_hello_code(g.seat[1], ++rid), 0);
    /* The others of the key are still served. */
    assert_int_equal(s_hello_code(c[5], ++rid), 0);
    /* One closes: once the daemon sees it gone, the refused one is served. */
    td_client_destroy(&c[0]);
    int code = -1;
    for (int i = 0; i < 600 && code != 0; i++) {
        code = s_hello_code(c[S_CAP], ++rid);
        assert_true(code == 0 || code == BERTHIER__V1__CODE__CODE_TOO_MANY_CONNECTIONS);
        if (code) td_sleep_ms(50);
    }
    assert_int_equal(code, 0);
    for (int i = 1; i <= S_CAP; i++) td_client_destroy(&c[i]);
    th_game_end(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_slow_readers_bounded, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_connections_per_key_capped, s_setup_default, th_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
