/*
 * test_client_pbjson.c - the generic protobuf-c to JSON encoder that shows
 * external bots the ruleset's View and Event messages (clients/bot/pbjson.c,
 * docs/bots.md "JSON"). The expected texts below are written by hand from the
 * mapping in pbjson.h, not produced by the encoder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "berthier/v1/berthier.pb-c.h"
#include "duel/v1/duel.pb-c.h"
#include "pbjson.h"

static void s_expect(const ProtobufCMessage *m, const char *want) {
    size_t len = 0;
    char *got = pbjson_encode(m, &len);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_int_equal(len, strlen(want));
    assert_null(strchr(got, '\n')); /* one line, always */
    free(got);
}

/* Scalars, an enum by name, escaped strings, a oneof member that is a message
 * (with a repeated field, bools and a 64-bit number), the unset oneof members,
 * the unset sub-message and the empty bytes field: absent / present as pbjson.h says. */
static void test_reply_known_answer(void **state) {
    (void)state;
    uint32_t seats[] = {0, 2};
    Berthier__V1__Decision d = BERTHIER__V1__DECISION__INIT;
    d.seq = 1099511627777ull; /* 2^40 + 1: more than 32 bits */
    d.n_seats = 2;
    d.seats = seats;
    d.kind = "bid";
    d.sealed = 1;
    d.started = 1;
    d.turn = 3;
    Berthier__V1__Reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = 7;
    r.code = BERTHIER__V1__CODE__CODE_BAD_OPTION;
    r.rule = "P4.1";
    r.message = "say \"hi\"\n\ttab\\ \x01 \x7f \xc3\xa9";
    r.body_case = BERTHIER__V1__REPLY__BODY_DECISION;
    r.decision = &d;
    s_expect(&r.base,
             "{\"request_id\":7,\"code\":\"CODE_BAD_OPTION\",\"rule\":\"P4.1\","
             "\"message\":\"say \\\"hi\\\"\\n\\ttab\\\\ \\u0001 \\u007f \xc3\xa9\","
             "\"decision\":{\"seq\":1099511627777,\"seats\":[0,2],\"kind\":\"bid\",\"rule\":\"\","
             "\"sealed\":true,\"prompt\":\"\",\"you_must_act\":false,\"started\":true,\"turn\":3,"
             "\"batch\":0},\"padding\":\"\"}");
}

/* Bytes as lowercase hex; a string that is not valid UTF-8 gets U+FFFD for each
 * bad byte (a lone continuation byte, a truncated sequence, an overlong form). */
static void test_bytes_hex_and_bad_utf8(void **state) {
    (void)state;
    uint8_t data[] = {0x00, 0xff, 0x10, 0xab};
    Berthier__V1__Event e = BERTHIER__V1__EVENT__INIT;
    e.seq = 5;
    e.index = 1;
    e.data.data = data;
    e.data.len = sizeof data;
    e.text = "a\x80" "b\xc3" "c\xc0\xaf";
    s_expect(&e.base, "{\"seq\":5,\"index\":1,\"data\":\"00ff10ab\",\"text\":\"a\\ufffdb\\ufffdc\\ufffd\\ufffd\"}");
}

/* A ruleset's View from its bytes: sint32 negative, repeated uint32, a string. */
static void test_duel_view_from_bytes(void **state) {
    (void)state;
    uint32_t scores[] = {4, 11}, reserves[] = {6, 0};
    Duel__V1__View v = DUEL__V1__VIEW__INIT;
    v.round = 5;
    v.n_scores = 2;
    v.scores = scores;
    v.n_reserves = 2;
    v.reserves = reserves;
    v.pot = 0;
    v.roller = -1;
    v.my_bid = -1;
    v.phase = "bid";
    uint8_t buf[128];
    size_t n = duel__v1__view__pack(&v, buf);
    size_t len = 0;
    char *got = pbjson_encode_bytes(&duel__v1__view__descriptor, buf, n, &len);
    assert_non_null(got);
    assert_string_equal(got, "{\"round\":5,\"scores\":[4,11],\"reserves\":[6,0],\"pot\":0,\"roller\":-1,"
                             "\"my_bid\":-1,\"phase\":\"bid\"}");
    free(got);
    /* bytes that are not a View: no JSON (the runner then writes null) */
    uint8_t junk[] = {0x0a, 0x05, 0x01};
    assert_null(pbjson_encode_bytes(&duel__v1__view__descriptor, junk, sizeof junk, NULL));
}

/* A oneof member that is a nested message inside a ruleset's Event. */
static void test_duel_event_oneof(void **state) {
    (void)state;
    Duel__V1__Rolled rolled = DUEL__V1__ROLLED__INIT;
    rolled.seat = 1;
    rolled.value = 6;
    rolled.pot = 6;
    rolled.why = "first roll";
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    e.kind_case = DUEL__V1__EVENT__KIND_ROLLED;
    e.rolled = &rolled;
    s_expect(&e.base, "{\"rolled\":{\"seat\":1,\"value\":6,\"pot\":6,\"why\":\"first roll\"}}");
    Duel__V1__Event none = DUEL__V1__EVENT__INIT; /* no member set: an empty object */
    s_expect(&none.base, "{}");
}

static void test_string_literal(void **state) {
    (void)state;
    char *s = pbjson_string("tab\there \"q\"", NULL);
    assert_non_null(s);
    assert_string_equal(s, "\"tab\\there \\\"q\\\"\"");
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reply_known_answer),
        cmocka_unit_test(test_bytes_hex_and_bad_utf8),
        cmocka_unit_test(test_duel_view_from_bytes),
        cmocka_unit_test(test_duel_event_oneof),
        cmocka_unit_test(test_string_literal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
