/*
 * test_canon.c - canonical decoding (core/canon.c): only the one canonical
 * encoding of a Request is accepted, unknown fields are refused at any depth,
 * and a message built to make the decoder allocate a lot is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "berthier/v1/berthier.pb-c.h"
#include "canon.h"

static int s_decode(const uint8_t *b, size_t n, size_t cap) {
    ProtobufCMessage *m = NULL;
    int rc = canon_unpack(&berthier__v1__request__descriptor, b, n, cap, &m);
    if (rc == CANON_OK) {
        assert_non_null(m);
        protobuf_c_message_free_unpacked(m, NULL);
    } else {
        assert_null(m);
    }
    return rc;
}

/* Request{request_id=1, submit{game_id="ab", seat=1, based_on_seq=3, order_text="bid 1"}} */
static const uint8_t s_good[] = {0x08, 0x01, 0x62, 0x0f, 0x0a, 0x02, 'a', 'b', 0x10, 0x01,
                                 0x18, 0x03, 0x2a, 0x05, 'b', 'i', 'd', ' ', '1'};

static void test_canonical_request_is_accepted_and_round_trips(void **state) {
    (void)state;
    ProtobufCMessage *m = NULL;
    assert_int_equal(canon_unpack(&berthier__v1__request__descriptor, s_good, sizeof s_good, 0, &m), CANON_OK);
    Berthier__V1__Request *r = (Berthier__V1__Request *)m;
    assert_int_equal(r->request_id, 1);
    assert_int_equal(r->body_case, BERTHIER__V1__REQUEST__BODY_SUBMIT);
    assert_string_equal(r->submit->order_text, "bid 1");
    size_t n;
    uint8_t *again = canon_pack(m, &n);
    assert_int_equal(n, sizeof s_good);
    assert_memory_equal(again, s_good, n);
    free(again);
    protobuf_c_message_free_unpacked(m, NULL);
    /* The empty message is canonical too. */
    assert_int_equal(s_decode((const uint8_t *)"", 0, 0), CANON_OK);
}

static void test_unknown_fields_are_refused_at_any_depth(void **state) {
    (void)state;
    /* field 99, varint 1, at the top */
    uint8_t top[] = {0x08, 0x01, 0x98, 0x06, 0x01};
    assert_int_equal(s_decode(top, sizeof top, 0), CANON_UNKNOWN_FIELD);
    /* field 9 (unknown in Submit) inside the submit body */
    uint8_t nested[] = {0x08, 0x01, 0x62, 0x04, 0x10, 0x01, 0x48, 0x07};
    assert_int_equal(s_decode(nested, sizeof nested, 0), CANON_UNKNOWN_FIELD);
    /* protobuf-c 1.4.1 takes an overlong tag of field number 0 as an unknown field and
     * would re-encode bytes it cannot parse back: refused, never passed on */
    uint8_t field0[] = {0x80, 0x00, 0x01};
    int rc = s_decode(field0, sizeof field0, 0);
    assert_true(rc == CANON_UNKNOWN_FIELD || rc == CANON_UNDECODABLE);
}

static void test_non_canonical_encodings_are_refused(void **state) {
    (void)state;
    /* a default value written out: request_id = 0 */
    uint8_t zero[] = {0x08, 0x00};
    assert_int_equal(s_decode(zero, sizeof zero, 0), CANON_NOT_CANONICAL);
    /* an overlong varint: request_id = 1 as two bytes */
    uint8_t overlong[] = {0x08, 0x81, 0x00};
    assert_int_equal(s_decode(overlong, sizeof overlong, 0), CANON_NOT_CANONICAL);
    /* fields out of order: submit before request_id */
    uint8_t order[] = {0x62, 0x02, 0x10, 0x01, 0x08, 0x01};
    assert_int_equal(s_decode(order, sizeof order, 0), CANON_NOT_CANONICAL);
    /* the same scalar field twice (the last wins when decoding) */
    uint8_t twice[] = {0x08, 0x01, 0x08, 0x02};
    assert_int_equal(s_decode(twice, sizeof twice, 0), CANON_NOT_CANONICAL);
}

static void test_garbage_is_undecodable(void **state) {
    (void)state;
    uint8_t junk[] = {0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f};
    assert_int_equal(s_decode(junk, sizeof junk, 0), CANON_UNDECODABLE);
    uint8_t truncated[] = {0x62, 0x0f, 0x0a};
    assert_int_equal(s_decode(truncated, sizeof truncated, 0), CANON_UNDECODABLE);
    assert_non_null(strstr(canon_strerror(CANON_UNDECODABLE), "not a valid"));
}

/* Many empty SeatSpec entries: 2 bytes each on the wire, a whole struct each in
 * memory. With a cap, the decoder stops instead of allocating. */
static void test_memory_amplification_is_capped(void **state) {
    (void)state;
    enum { N = 20000 };
    size_t body = 2 * N;
    uint8_t *b = malloc(body + 16);
    size_t n = 0;
    b[n++] = 0x52; /* field 10 (create), length-delimited */
    size_t len = body;
    while (len >= 0x80) {
        b[n++] = (uint8_t)(len | 0x80);
        len >>= 7;
    }
    b[n++] = (uint8_t)len;
    for (int i = 0; i < N; i++) {
        b[n++] = 0x22; /* CreateGame.seats, empty */
        b[n++] = 0x00;
    }
    assert_int_equal(s_decode(b, n, 64 * 1024), CANON_TOO_BIG);
    /* Without a tight cap it decodes (and is canonical): the cap is what refused it. */
    assert_int_equal(s_decode(b, n, 64u << 20), CANON_OK);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_request_is_accepted_and_round_trips),
        cmocka_unit_test(test_unknown_fields_are_refused_at_any_depth),
        cmocka_unit_test(test_non_canonical_encodings_are_refused),
        cmocka_unit_test(test_garbage_is_undecodable),
        cmocka_unit_test(test_memory_amplification_is_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
