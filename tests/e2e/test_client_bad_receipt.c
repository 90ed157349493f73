/*
 * test_client_bad_receipt.c - the C client library against a daemon that lies
 * in its receipts (docs/protocol.md P9). A fake daemon (a CURVE ROUTER socket
 * in a thread) answers every input with an Accepted reply whose receipt is:
 * right (the call succeeds and the receipt is handed over), signed by another
 * key, over other request bytes, for another seat, or missing. Every lie must
 * make the call fail with BRT_CLIENT_BAD_RECEIPT. Without a pinned key the
 * library first learns the key from `hello`.
 *
 * On the old code the library read no receipt: every lie was taken as success.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/client.h"
#include "buf.h"
#include "receipt.h"
#include "test_daemon_common.h"

enum { LIE_NONE, LIE_KEY, LIE_BYTES, LIE_SEAT, LIE_MISSING };

typedef struct {
    char dir[64];
    char endpoint[128];
    char server_pub[41], server_sec[41];
    uint8_t pk[32], sk[64], other_sk[64];
    atomic_int lie;
    atomic_int stop;
    atomic_int hellos;
    void *ctx;
    pthread_t thread;
} fake;

/* Answer one request frame. */
static void s_answer(fake *f, const uint8_t *frame, size_t len, brt_buf *out) {
    Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, len, frame);
    Berthier__V1__Reply r = BERTHIER__V1__REPLY__INIT;
    Berthier__V1__Hello h = BERTHIER__V1__HELLO__INIT;
    Berthier__V1__Accepted a = BERTHIER__V1__ACCEPTED__INIT;
    Berthier__V1__Receipt rc = BERTHIER__V1__RECEIPT__INIT;
    uint8_t head[32] = {7}, hash[32], sig[64];
    r.request_id = q ? q->request_id : 0;
    r.rule = (char *)"";
    r.message = (char *)"";
    if (q && q->body_case == BERTHIER__V1__REQUEST__BODY_HELLO) {
        atomic_fetch_add(&f->hellos, 1);
        h.engine_version = (char *)"fake";
        h.server_sign_pk.data = f->pk;
        h.server_sign_pk.len = 32;
        r.body_case = BERTHIER__V1__REPLY__BODY_HELLO;
        r.hello = &h;
    } else if (q && q->body_case == BERTHIER__V1__REQUEST__BODY_SUBMIT) {
        int lie = atomic_load(&f->lie);
        a.seq = q->submit->based_on_seq + 1;
        r.body_case = BERTHIER__V1__REPLY__BODY_ACCEPTED;
        r.accepted = &a;
        receipt_input_hash(frame, len, hash);
        if (lie == LIE_BYTES) hash[0] ^= 1;
        rc.game_id = q->submit->game_id;
        rc.seat = lie == LIE_SEAT ? q->submit->seat + 1 : q->submit->seat;
        rc.kind = 3;
        rc.record = 5;
        rc.head_record = 7;
        rc.head.data = head;
        rc.head.len = 32;
        rc.input_hash.data = hash;
        rc.input_hash.len = 32;
        rc.seq = a.seq;
        assert_int_equal(receipt_sign(&rc, lie == LIE_KEY ? f->other_sk : f->sk, sig), 0);
        rc.signature.data = sig;
        rc.signature.len = 64;
        if (lie != LIE_MISSING) r.receipt = &rc;
    } else {
        r.code = BERTHIER__V1__CODE__CODE_BAD_REQUEST;
    }
    size_t n = berthier__v1__reply__get_packed_size(&r);
    buf_reset(out);
    buf_reserve(out, n);
    berthier__v1__reply__pack(&r, out->data);
    out->len = n;
    if (q) berthier__v1__request__free_unpacked(q, NULL);
}

static void *s_serve(void *arg) {
    fake *f = arg;
    void *sock = zmq_socket(f->ctx, ZMQ_ROUTER);
    int one = 1, linger = 0;
    zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one);
    zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, f->server_sec, 40);
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_bind(sock, f->endpoint) != 0) {
        zmq_close(sock);
        return NULL;
    }
    brt_buf out;
    buf_init(&out);
    while (!atomic_load(&f->stop)) {
        zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 100) <= 0) continue;
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        zmq_msg_init(&body);
        if (zmq_msg_recv(&id, sock, 0) < 0 || !zmq_msg_more(&id) || zmq_msg_recv(&body, sock, 0) < 0) {
            zmq_msg_close(&id);
            zmq_msg_close(&body);
            continue;
        }
        s_answer(f, zmq_msg_data(&body), zmq_msg_size(&body), &out);
        zmq_msg_send(&id, sock, ZMQ_SNDMORE);
        zmq_send(sock, out.data, out.len, 0);
        zmq_msg_close(&body);
    }
    buf_free(&out);
    zmq_close(sock);
    return NULL;
}

static int s_setup(void **state) {
    if (sodium_init() < 0) return -1;
    fake *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/brt-fake-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    snprintf(f->endpoint, sizeof f->endpoint, "ipc://%s/fake.sock", f->dir);
    zmq_curve_keypair(f->server_pub, f->server_sec);
    uint8_t other_pk[32];
    crypto_sign_keypair(f->pk, f->sk);
    crypto_sign_keypair(other_pk, f->other_sk);
    f->ctx = zmq_ctx_new();
    if (pthread_create(&f->thread, NULL, s_serve, f) != 0) return -1;
    *state = f;
    return 0;
}

static int s_teardown(void **state) {
    fake *f = *state;
    atomic_store(&f->stop, 1);
    pthread_join(f->thread, NULL);
    zmq_ctx_term(f->ctx);
    td_rmrf(f->dir);
    free(f);
    return 0;
}

/* A submit sent as bytes (brt_client_call_raw does not seat-sign, and this fake
 * daemon has no header to give: it is the receipt check under test, not the
 * seat signature). */
static int s_submit(brt_client *c, const uint8_t *order, size_t len) {
    static uint64_t rid = 100;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit sb = BERTHIER__V1__SUBMIT__INIT;
    sb.game_id = (char *)"0a1b2c3d4e5f6071";
    sb.seat = 1;
    sb.based_on_seq = 4;
    sb.order.data = (uint8_t *)order;
    sb.order.len = len;
    req.request_id = ++rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &sb;
    uint8_t buf[256];
    size_t n = berthier__v1__request__get_packed_size(&req);
    assert_true(n <= sizeof buf);
    berthier__v1__request__pack(&req, buf);
    return brt_client_call_raw(c, buf, n, req.request_id);
}

static void test_lies_are_caught(void **state) {
    fake *f = *state;
    brt_keypair kp;
    assert_int_equal(brt_keypair_generate(&kp), 0);
    brt_client *c = brt_client_new_keypair(f->endpoint, f->server_pub, &kp);
    assert_non_null(c);
    brt_client_set_timeout(c, 2000, 20000);
    static const uint8_t order[] = {0x08, 0x02};
    /* no key pinned: the first input asks hello for it, and the true receipt passes */
    atomic_store(&f->lie, LIE_NONE);
    assert_int_equal(s_submit(c, order, sizeof order), 0);
    assert_int_equal(atomic_load(&f->hellos), 1);
    uint8_t pinned[32];
    assert_int_equal(brt_client_sign_key(c, pinned), 0);
    assert_memory_equal(pinned, f->pk, 32);
    const Berthier__V1__Receipt *r = brt_client_receipt(c);
    assert_non_null(r);
    assert_int_equal(r->head_record, 7);
    static const struct {
        int lie;
        const char *why;
    } lies[] = {
        {LIE_KEY, "signature"},
        {LIE_BYTES, "input hash"},
        {LIE_SEAT, "another game, seat or kind"},
        {LIE_MISSING, "without a receipt"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        atomic_store(&f->lie, lies[i].lie);
        assert_int_equal(s_submit(c, order, sizeof order), -1);
        assert_int_equal(brt_client_code(c), BRT_CLIENT_BAD_RECEIPT);
        if (!strstr(brt_client_error(c), lies[i].why))
            fail_msg("lie %d: %s", lies[i].lie, brt_client_error(c));
        assert_null(brt_client_receipt(c));
    }
    assert_int_equal(atomic_load(&f->hellos), 1);   /* the key stays pinned */
    brt_client_destroy(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lies_are_caught, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
