/* test_daemon_decode.c - berthierd's request decoder: canonical requests
 * pass; oversize, garbage, unknown fields, non-minimal and reordered
 * encodings are refused with the right code; random bytes never crash it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../daemon/decode.c"

static size_t s_pack_submit(uint8_t *buf, uint64_t rid, const char *gid, const char *text) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    s.game_id = (char *)gid;
    s.seat = 1;
    s.based_on_seq = 300;
    s.order_text = (char *)text;
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &s;
    return berthier__v1__request__pack(&req, buf);
}

static int s_code(const uint8_t *b, size_t n, size_t max) {
    Berthier__V1__Request *r = NULL;
    int code = 0;
    const char *why = NULL;
    int rc = decode_request(b, n, max, &r, &code, &why);
    if (rc == 0) {
        assert_non_null(r);
        berthier__v1__request__free_unpacked(r, NULL);
        return 0;
    }
    assert_null(r);
    assert_non_null(why);
    assert_true(strlen(why) > 10);
    return code;
}

static void test_canonical(void **state) {
    (void)state;
    uint8_t b[256];
    size_t n = s_pack_submit(b, 42, "0123456789abcdef", "bid 2");
    Berthier__V1__Request *r = NULL;
    int code;
    const char *why;
    assert_int_equal(decode_request(b, n, 1024, &r, &code, &why), 0);
    assert_int_equal(r->request_id, 42);
    assert_int_equal(r->body_case, BERTHIER__V1__REQUEST__BODY_SUBMIT);
    assert_string_equal(r->submit->order_text, "bid 2");
    assert_int_equal(r->submit->based_on_seq, 300);
    berthier__v1__request__free_unpacked(r, NULL);
    /* The empty request decodes (the handlers call it a request with no body). */
    assert_int_equal(s_code((const uint8_t *)"", 0, 1024), 0);
}

static void test_refusals(void **state) {
    (void)state;
    uint8_t b[256];
    size_t n = s_pack_submit(b, 42, "0123456789abcdef", "bid 2");
    assert_int_equal(s_code(b, n, n - 1), BERTHIER__V1__CODE__CODE_TOO_LARGE);
    assert_int_equal(s_code(b, n, n), 0);
    /* Unknown field at the top and inside the body. */
    uint8_t u[260];
    memcpy(u, b, n);
    u[n] = 0x98;
    u[n + 1] = 0x06;
    u[n + 2] = 0x01;
    assert_int_equal(s_code(u, n + 3, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    static const uint8_t inner[] = {0x08, 0x09, 0xaa, 0x01, 0x02, 0x78, 0x01};
    assert_int_equal(s_code(inner, sizeof inner, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Non-minimal varint, reordered fields, an explicit default, field number 0. */
    static const uint8_t overlong[] = {0x08, 0x89, 0x00, 0xaa, 0x01, 0x00};
    static const uint8_t reordered[] = {0xaa, 0x01, 0x00, 0x08, 0x09};
    static const uint8_t zero[] = {0x08, 0x00, 0xaa, 0x01, 0x00};
    static const uint8_t field0[] = {0x80, 0x00, 0x01, 0xaa, 0x01, 0x00};
    static const uint8_t truncated[] = {0x62, 0x7f, 0x0a, 0x01};
    assert_int_equal(s_code(overlong, sizeof overlong, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    assert_int_equal(s_code(reordered, sizeof reordered, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    assert_int_equal(s_code(zero, sizeof zero, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    assert_int_equal(s_code(field0, sizeof field0, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    assert_int_equal(s_code(truncated, sizeof truncated, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* Two bodies of the oneof: protobuf keeps the last, re-encoding differs. */
    static const uint8_t two[] = {0xaa, 0x01, 0x00, 0x82, 0x01, 0x00};
    assert_int_equal(s_code(two, sizeof two, 1024), BERTHIER__V1__CODE__CODE_MALFORMED);
}

static void test_amplification(void **state) {
    (void)state;
    /* Many empty repeated sub-messages: each costs a struct when decoded.
     * CreateGame (field 10) with 20000 empty SeatSpec entries (field 4). */
    size_t count = 20000;
    uint8_t *b = malloc(count * 2 + 16);
    size_t inner = count * 2;
    size_t n = 0;
    b[n++] = 0x52; /* field 10, length-delimited */
    size_t v = inner;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    for (size_t i = 0; i < count; i++) {
        b[n++] = 0x22;
        b[n++] = 0x00;
    }
    /* 40 KB that would decode to over 1 MB: refused within the allocation cap,
     * as MALFORMED (TOO_LARGE is only for frames over the size limit). */
    int code = s_code(b, n, 1u << 20);
    assert_int_equal(code, BERTHIER__V1__CODE__CODE_MALFORMED);
    /* The same shape at a sane size decodes. */
    n = 0;
    b[n++] = 0x52;
    b[n++] = 0xc8; /* 200 as a varint */
    b[n++] = 0x01;
    for (size_t i = 0; i < 100; i++) {
        b[n++] = 0x22;
        b[n++] = 0x00;
    }
    assert_int_equal(s_code(b, n, 1u << 20), 0);
    free(b);
}

static void test_random_bytes(void **state) {
    (void)state;
    srand(1);
    uint8_t b[128];
    int accepted = 0;
    for (int i = 0; i < 100000; i++) {
        size_t n = (size_t)rand() % sizeof b;
        for (size_t k = 0; k < n; k++) b[k] = (uint8_t)rand();
        if (s_code(b, n, 4096) == 0) accepted++;
    }
    /* Whatever was accepted is canonical by construction; most garbage is not. */
    assert_true(accepted < 100000 / 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_canonical), cmocka_unit_test(test_refusals),
                                       cmocka_unit_test(test_amplification), cmocka_unit_test(test_random_bytes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
