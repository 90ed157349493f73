/* test_daemon_pad.c - the size classes of sealed notices (daemon/pad.c) and the
 * events index (daemon/evindex.c): every notice length, varint boundaries
 * included, packs to a class that decodes back to the same notice with only
 * zero padding added; the index finds the first event after a seq as a scan of
 * the log would, and serves only what is durable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../daemon/evindex.c"
#include "../../daemon/pad.c"

static void test_every_length_packs_to_a_class(void **state) {
    (void)state;
    static char text[70000];
    memset(text, 'x', sizeof text - 1);
    size_t last_class = 0;
    /* Lengths around every class boundary and the 1- to 3-byte varints of the padding. */
    for (size_t tl = 0; tl < 66000; tl += (tl < 5000 || (tl > 16000 && tl < 17000) || tl > 65000) ? 1 : 97) {
        text[tl] = 0;
        Berthier__V1__Event ev = BERTHIER__V1__EVENT__INIT, *evp = &ev;
        ev.seq = 7;
        ev.text = text;
        Berthier__V1__Notice n = BERTHIER__V1__NOTICE__INIT;
        n.game_id = (char *)"0123456789abcdef";
        n.seq = 7;
        n.n_events = 1;
        n.events = &evp;
        size_t base = berthier__v1__notice__get_packed_size(&n);
        size_t len = 0;
        uint8_t *p = pad_notice_pack(&n, &len);
        assert_non_null(p);
        assert_true(pad_is_class(len));
        assert_true(len >= base);
        /* the smallest class that can hold it: half of it could not */
        size_t half = len / 2;
        assert_true(len == PAD_MIN_CLASS || half < base || (half != base && s_fill(half - base, 1) == 0));
        /* not always monotonic: 130 bytes of room cannot be filled (a 1-byte varint
         * says at most 127, a 2-byte one at least 128), so that notice takes the next class */
        last_class = len;
        assert_int_equal(n.padding.len, 0);   /* the caller's notice is left as it was */
        ProtobufCMessage *m = NULL;
        assert_int_equal(canon_unpack(&berthier__v1__notice__descriptor, p, len, 0, &m), CANON_OK);
        Berthier__V1__Notice *back = (Berthier__V1__Notice *)m;
        assert_int_equal(back->n_events, 1);
        assert_string_equal(back->events[0]->text, text);
        for (size_t i = 0; i < back->padding.len; i++) assert_int_equal(back->padding.data[i], 0);
        size_t pl = back->padding.len;
        assert_int_equal(pl ? base + 1 + s_varint_len(pl) + pl : base, len);
        protobuf_c_message_free_unpacked(m, NULL);
        free(p);
        text[tl] = 'x';
    }
    assert_true(last_class >= 65536);
    assert_false(pad_is_class(256));
    assert_false(pad_is_class(1000));
    assert_true(pad_is_class(512));
    assert_true(pad_is_class(1 << 20));
}

/* A reply is padded to its class, or to the limit when its class would pass
 * it, or left alone when even the limit cannot hold it: never past the limit. */
static void test_replies_stay_under_the_limit(void **state) {
    (void)state;
    static char text[5000];
    for (size_t limit = 1024; limit <= 4096; limit += 1000) {
        for (size_t tl = 0; tl < sizeof text - 1; tl++) {
            memset(text, 'm', tl);
            text[tl] = 0;
            Berthier__V1__Reply r = BERTHIER__V1__REPLY__INIT;
            r.request_id = 99;
            r.code = BERTHIER__V1__CODE__CODE_ILLEGAL;
            r.message = text;
            size_t base = berthier__v1__reply__get_packed_size(&r), len = 0;
            uint8_t *p = pad_pack(&r.base, &r.padding, 2, limit, &len);
            assert_non_null(p);
            if (base > limit) assert_int_equal(len, base);
            else assert_true(len <= limit);
            assert_true(pad_is_class(len) || len == limit || len == limit - 1 || len == base);
            if (base + 3 < limit) assert_true(pad_is_class(len) || len == limit || len == limit - 1);
            Berthier__V1__Reply *back = berthier__v1__reply__unpack(NULL, len, p);
            assert_non_null(back);
            assert_string_equal(back->message, text);
            assert_int_equal(back->code, BERTHIER__V1__CODE__CODE_ILLEGAL);
            berthier__v1__reply__free_unpacked(back, NULL);
            free(p);
        }
    }
}

static void s_add(bd_evindex *ix, uint64_t seq, uint32_t index) {
    Berthier__V1__LogEvent le = BERTHIER__V1__LOG_EVENT__INIT;
    le.seq = seq;
    le.index = index;
    le.visible = 3;
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, (uint8_t)seq};
    le.data.data = data;
    le.data.len = sizeof data;
    size_t n;
    uint8_t *p = canon_pack(&le.base, &n);
    assert_non_null(p);
    assert_int_equal(evindex_add(ix, p, n), 0);
    assert_memory_equal(evindex_payload(ix, evindex_count(ix) - 1), p, n);
    free(p);
}

static void test_index_finds_what_a_scan_finds(void **state) {
    (void)state;
    bd_evindex ix;
    evindex_init(&ix);
    /* seqs 1, 1, 3, 3, 3, 4, 7 ... as inputs produce them (some produce none) */
    uint64_t seqs[200];
    size_t n = 0;
    for (uint64_t s = 1; n < 200; s += (s % 3) + 1)
        for (uint32_t k = 0; k < (uint32_t)(s % 4) && n < 200; k++) {
            seqs[n++] = s;
            s_add(&ix, s, k);
        }
    /* a payload that is no LogEvent is not indexed */
    assert_int_equal(evindex_add(&ix, (const uint8_t *)"\xff\xff\xff", 3), 0);
    assert_int_equal(evindex_count(&ix), 200);
    /* nothing durable yet: nothing found */
    assert_int_equal(evindex_after(&ix, 0), 0);
    assert_int_equal(evindex_durable(&ix), 0);
    evindex_mark_durable(&ix);
    for (uint64_t q = 0; q < seqs[199] + 3; q++) {
        size_t want = 0;
        while (want < n && seqs[want] <= q) want++;
        assert_int_equal(evindex_after(&ix, q), want);
    }
    /* entries added after the last sync are not served */
    s_add(&ix, seqs[199] + 5, 0);
    assert_int_equal(evindex_after(&ix, seqs[199]), 200);
    evindex_mark_durable(&ix);
    assert_int_equal(evindex_after(&ix, seqs[199]), 200);
    assert_int_equal(evindex_durable(&ix), 201);
    assert_false(ix.b->unsorted);
    evindex_free(&ix);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_length_packs_to_a_class),
        cmocka_unit_test(test_replies_stay_under_the_limit),
        cmocka_unit_test(test_index_finds_what_a_scan_finds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
