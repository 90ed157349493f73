/*
 * test_daemon_budget.c - the reply budget and the connection cap in process
 * (daemon/budget.c, docs/daemon.md "Bounded resources"):
 *   - a connection over reply-budget is dropped, and served again once its
 *     replies are given back;
 *   - a key over key-reply-budget is refused (BUSY), and a connection that
 *     does not read even its refusals is dropped past BUDGET_REFUSALS;
 *   - key-connections caps a key's live connections, keys do not share it,
 *     and a closed connection (monitor event) frees its place;
 *   - the bytes of a reply handed to libzmq stay charged until libzmq is done
 *     with the message, and come back when the peer has taken it (a ROUTER
 *     and a DEALER over inproc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../daemon/budget.c"
#include "../../daemon/log.c"

static const uint8_t K1[32] = {1}, K2[32] = {2};
static const uint8_t R1[5] = {0, 0, 0, 0, 1}, R2[5] = {0, 0, 0, 0, 2}, R3[5] = {0, 0, 0, 0, 3};

static void test_connection_budget(void **state) {
    (void)state;
    bd_budget *b = budget_new(1000, 0, 0);
    assert_non_null(b);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);
    budget_ticket t1, t2;
    budget_charge(b, K1, R1, 5, 600, &t1);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);   /* 600 <= 1000 */
    budget_charge(b, K1, R1, 5, 600, &t2);
    assert_int_equal(budget_unsent(b), 1200);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OVER_CONN);
    assert_int_equal(budget_dropped(b), 1);
    /* another connection of the same key is not held up (no key budget) */
    assert_int_equal(budget_frame(b, K1, R2, 5, 11), BUDGET_OK);
    budget_refund(&t1);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);
    budget_refund(&t2);
    assert_int_equal(budget_unsent(b), 0);
    budget_destroy(&b);
}

static void test_key_budget(void **state) {
    (void)state;
    bd_budget *b = budget_new(1u << 20, 1u << 20, 0);
    budget_ticket ta, tb, tc;
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);
    assert_int_equal(budget_frame(b, K1, R2, 5, 11), BUDGET_OK);
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_OK);
    budget_charge(b, K1, R1, 5, 700u << 10, &ta);
    budget_charge(b, K1, R2, 5, 700u << 10, &tb);
    /* the key holds 1.4 MiB: its third connection, within its own budget, is refused */
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_OVER_KEY);
    /* another key is not */
    assert_int_equal(budget_frame(b, K2, R1, 5, 13), BUDGET_OK);
    /* refusals it does not read either: past BUDGET_REFUSALS it is dropped */
    budget_charge(b, K1, R3, 5, BUDGET_REFUSALS + 1, &tc);
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_OVER_CONN);
    budget_refund(&ta);
    budget_refund(&tc);
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_OK);
    budget_refund(&tb);
    budget_destroy(&b);
}

static void test_connection_cap(void **state) {
    (void)state;
    bd_budget *b = budget_new(0, 0, 2);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);
    assert_int_equal(budget_frame(b, K1, R2, 5, 11), BUDGET_OK);
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_TOO_MANY);
    assert_int_equal(budget_frame(b, K1, R1, 5, 10), BUDGET_OK);   /* the known ones still are */
    assert_int_equal(budget_frame(b, K2, R3, 5, 13), BUDGET_OK);   /* per key */
    assert_int_equal(budget_connections(b), 3);
    budget_disconnected(b, 10);   /* R1 of K1 closed */
    assert_int_equal(budget_connections(b), 2);
    assert_int_equal(budget_frame(b, K1, R3, 5, 12), BUDGET_OK);
    assert_int_equal(budget_frame(b, K1, R1, 5, 14), BUDGET_TOO_MANY);
    budget_destroy(&b);
}

static void test_charge_given_back_by_libzmq(void **state) {
    (void)state;
    void *ctx = zmq_ctx_new();
    void *router = zmq_socket(ctx, ZMQ_ROUTER), *dealer = zmq_socket(ctx, ZMQ_DEALER);
    int one = 1;
    assert_int_equal(zmq_setsockopt(router, ZMQ_ROUTER_MANDATORY, &one, sizeof one), 0);
    assert_int_equal(zmq_bind(router, "inproc://budget-test"), 0);
    assert_int_equal(zmq_connect(dealer, "inproc://budget-test"), 0);
    assert_int_equal(zmq_send(dealer, "hi", 2, 0), 2);
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    assert_true(zmq_msg_recv(&id, router, 0) >= 0);
    assert_true(zmq_msg_recv(&body, router, 0) >= 0);
    zmq_msg_close(&body);
    uint8_t rid[BUDGET_RID_MAX];
    size_t rid_len = zmq_msg_size(&id);
    assert_true(rid_len <= sizeof rid);
    memcpy(rid, zmq_msg_data(&id), rid_len);
    bd_budget *b = budget_new(1u << 20, 0, 0);
    assert_int_equal(budget_frame(b, K1, rid, rid_len, -1), BUDGET_OK);
    static uint8_t reply[5000];
    for (int i = 0; i < 10; i++) {
        budget_ticket t;
        budget_charge(b, K1, rid, rid_len, sizeof reply, &t);
        zmq_msg_t copy;
        zmq_msg_init(&copy);
        zmq_msg_copy(&copy, &id);
        assert_int_equal(budget_send(b, router, &copy, K1, reply, sizeof reply, &t), 0);
    }
    zmq_msg_close(&id);
    /* nothing read yet: all of it is still charged */
    assert_int_equal(budget_unsent(b), 10 * sizeof reply);
    for (int i = 0; i < 10; i++) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        assert_int_equal(zmq_msg_recv(&m, dealer, 0), (int)sizeof reply);
        zmq_msg_close(&m);   /* the last reference: libzmq frees it, the bytes come back */
    }
    assert_int_equal(budget_unsent(b), 0);
    /* the peer leaves: a reply to it is dropped and the connection forgotten */
    zmq_close(dealer);
    int gone = 0;
    for (int i = 0; i < 1000 && !gone; i++) {
        budget_ticket t;
        budget_charge(b, K1, rid, rid_len, 10, &t);
        zmq_msg_t m;
        zmq_msg_init_size(&m, rid_len);
        memcpy(zmq_msg_data(&m), rid, rid_len);
        gone = budget_send(b, router, &m, K1, "x", 1, &t) != 0 && budget_connections(b) == 0;
        if (!gone) {
            zmq_msg_t r;   /* let libzmq see the peer go */
            zmq_msg_init(&r);
            (void)zmq_msg_recv(&r, router, ZMQ_DONTWAIT);
            zmq_msg_close(&r);
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    assert_true(gone);
    zmq_close(router);
    zmq_ctx_term(ctx);
    budget_destroy(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connection_budget),
        cmocka_unit_test(test_key_budget),
        cmocka_unit_test(test_connection_cap),
        cmocka_unit_test(test_charge_given_back_by_libzmq),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
