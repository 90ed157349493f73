/*
 * test_hard_input.c - [issue 6] hostile input beyond test_daemon_codes.c:
 *   - overlong encodings of field number 0 (protobuf-c 1.4.1 accepts them and
 *     re-encodes bytes it cannot parse) in every position: before and after
 *     the body, inside the body, inside a Submit, and inside the ruleset's
 *     order bytes of an otherwise valid Submit: MALFORMED, never logged;
 *   - messages built to amplify memory in the decoder: hundreds of thousands
 *     of empty repeated seats or options, a oneof body repeated (protobuf
 *     merges repeated sub-messages), start-group nesting: refused quickly;
 *   - frames at the size limits (max-message, one byte over, over twice the
 *     limit) and a pipelined stream of near-limit frames;
 * while the daemon stays up, its RSS stays bounded and every log is unchanged
 * byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

typedef struct fx {
    td_daemon d;
    td_client *admin;
    th_game g;
    uint8_t *log0;
    size_t len0;
} fx;

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    /* Every hostile frame here must be answered: with the default
     * `abuse-malformed` (32 per 10 s) the sending key would be cut and banned
     * (test_hard_abuse.c covers that). */
    const char *extra[] = {"--abuse-malformed", "0"};
    if (td_start_admin(&f->d, &f->admin, extra, 2, th_start) != 0) {
        free(f);
        return -1;
    }
    if (th_game_start(&f->g, &f->d, f->admin) != 0) return -1;
    f->log0 = th_log_bytes(&f->d, f->g.gid, &f->len0);
    *state = f;
    return 0;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_kill9(&f->d);
    th_game_end(&f->g);
    td_client_destroy(&f->admin);
    td_rmrf(f->d.dir);
    free(f->log0);
    free(f);
    return 0;
}

static void s_log_unchanged(fx *f) {
    size_t n;
    uint8_t *now = th_log_bytes(&f->d, f->g.gid, &n);
    assert_non_null(now);
    assert_int_equal(n, f->len0);
    assert_memory_equal(now, f->log0, n);
    free(now);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "test $(ls '%s/games' | grep -c '\\.log$') -eq 1", f->d.dir);
    assert_int_equal(system(cmd), 0);
}

static int s_code_of(Berthier__V1__Reply *r) {
    int c = r ? (int)r->code : -1;
    if (r) berthier__v1__reply__free_unpacked(r, NULL);
    return c;
}

/* Bytes: a || b. */
static size_t s_cat(uint8_t *out, const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
    memcpy(out, a, an);
    memcpy(out + an, b, bn);
    return an + bn;
}

static void test_field_zero(void **state) {
    fx *f = *state;
    td_client *c = f->g.seat[0];
    /* Field number 0 as tags of 2 to 5 bytes, with each wire type it can carry. */
    static const uint8_t tags[][8] = {
        {2, 0x80, 0x00},             {3, 0x80, 0x80, 0x00},         {5, 0x80, 0x80, 0x80, 0x80, 0x00},
        {2, 0x81, 0x00},             {2, 0x82, 0x00},               {2, 0x85, 0x00},
        {3, 0x80, 0x80, 0x80 & 0x7f},
    };
    static const uint8_t values[][10] = {
        {1, 0x01}, {9, 1, 2, 3, 4, 5, 6, 7, 8}, {1, 0x00}, {5, 1, 2, 3, 4},
    };
    uint64_t seq = th_seq(c, f->g.gid, 0);
    /* A valid submit to embed them in (seat 0's sealed bid). */
    size_t sn;
    uint8_t *sub = td_submit_bytes(777, f->g.gid, 0, seq, "bid 1", NULL, 0, &sn);
    size_t hn;
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.request_id = 3;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    uint8_t hello[32];
    hn = berthier__v1__request__pack(&h, hello);
    int tried = 0;
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            uint8_t field[32], buf[512];
            size_t fl = 0;
            memcpy(field, tags[t] + 1, tags[t][0]);
            fl = tags[t][0];
            memcpy(field + fl, values[v] + 1, values[v][0]);
            fl += values[v][0];
            /* Before and after a hello and a submit. */
            size_t n = s_cat(buf, field, fl, hello, hn);
            assert_int_equal(s_code_of(td_call_raw(c, buf, n, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_MALFORMED);
            n = s_cat(buf, hello, hn, field, fl);
            assert_int_equal(s_code_of(td_call_raw(c, buf, n, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_MALFORMED);
            n = s_cat(buf, sub, sn, field, fl);
            assert_int_equal(s_code_of(td_call_raw(c, buf, n, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_MALFORMED);
            /* Inside the Submit body: request_id, then field 12 with the field appended. */
            Berthier__V1__Request *req = berthier__v1__request__unpack(NULL, sn, sub);
            assert_non_null(req);
            size_t bl = berthier__v1__submit__get_packed_size(req->submit);
            uint8_t body[256];
            berthier__v1__submit__pack(req->submit, body);
            memcpy(body + bl, field, fl);
            bl += fl;
            n = 0;
            buf[n++] = 0x08;
            buf[n++] = 0x89; /* request_id 777 = 0x309 */
            buf[n++] = 0x06;
            buf[n++] = 0x62; /* field 12, wire type 2 */
            buf[n++] = (uint8_t)bl;
            memcpy(buf + n, body, bl);
            n += bl;
            berthier__v1__request__free_unpacked(req, NULL);
            assert_int_equal(s_code_of(td_call_raw(c, buf, n, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_MALFORMED);
            tried++;
        }
    }
    free(sub);
    /* Inside the ruleset's order bytes of a legal order. */
    Berthier__V1__Reply *r = td_gameref(c, BERTHIER__V1__REQUEST__BODY_LEGAL, f->g.gid, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_true(r->legal->n_orders > 0);
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
        uint8_t order[256];
        size_t on = r->legal->orders[0].len;
        memcpy(order, r->legal->orders[0].data, on);
        memcpy(order + on, tags[t] + 1, tags[t][0]);
        on += tags[t][0];
        order[on++] = 0x01;
        size_t n;
        uint8_t *b = td_submit_bytes(900 + t, f->g.gid, 0, r->legal->seq, NULL, order, on, &n);
        int code = s_code_of(td_call_raw(c, b, n, TD_TIMEOUT));
        if (code != BERTHIER__V1__CODE__CODE_MALFORMED)
            fprintf(stderr, "order bytes with an overlong field 0 (tag %zu): code %d\n", t, code);
        assert_int_equal(code, BERTHIER__V1__CODE__CODE_MALFORMED);
        free(b);
    }
    berthier__v1__reply__free_unpacked(r, NULL);
    fprintf(stderr, "%d framings of field number 0 refused\n", tried);
    assert_true(td_alive(&f->d));
    s_log_unchanged(f);
}

/* A message built to expand in the decoder is refused under P2: TOO_LARGE
 * (the decoder's allocation cap) or MALFORMED (not canonical), either way
 * before anything else looks at it. */
static void s_refused_p2(int code) {
    if (code != BERTHIER__V1__CODE__CODE_TOO_LARGE && code != BERTHIER__V1__CODE__CODE_MALFORMED)
        fprintf(stderr, "amplifying message: code %d\n", code);
    assert_true(code == BERTHIER__V1__CODE__CODE_TOO_LARGE || code == BERTHIER__V1__CODE__CODE_MALFORMED);
}

/* Request{request_id, create{ ... n copies of `item` ... }} */
static uint8_t *s_create_of(const uint8_t *item, size_t il, size_t copies, size_t *len) {
    size_t body = il * copies;
    uint8_t *b = malloc(body + 32);
    size_t n = 0;
    b[n++] = 0x08;
    b[n++] = 0x2a;   /* request_id 42 */
    b[n++] = 0x52;   /* field 10 (create), wire type 2 */
    size_t v = body;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    for (size_t i = 0; i < copies; i++) {
        memcpy(b + n, item, il);
        n += il;
    }
    *len = n;
    return b;
}

static void test_amplification(void **state) {
    fx *f = *state;
    long rss0 = th_rss(f->d.pid);
    int rounds = th_long() ? 20 : 4;
    static const uint8_t empty_seat[] = {0x22, 0x00};       /* seats: SeatSpec{} */
    static const uint8_t empty_option[] = {0x1a, 0x00};     /* options: "" */
    static const uint8_t clock[] = {0x2a, 0x02, 0x08, 0x01}; /* clock: Clock{decision_ms 1}, merged again and again */
    struct {
        const uint8_t *item;
        size_t il, copies;
    } shapes[] = {{empty_seat, 2, 400000}, {empty_option, 2, 400000}, {clock, 4, 200000}};
    for (int k = 0; k < rounds; k++)
        for (size_t s = 0; s < 3; s++) {
            size_t n;
            uint8_t *b = s_create_of(shapes[s].item, shapes[s].il, shapes[s].copies, &n);
            assert_true(n < 1024 * 1024);
            /* From the admin (who may create) and from a seat (who may not). */
            double t0 = th_now_us();
            int code = s_code_of(td_call_raw(f->admin, b, n, 30000));
            double ms = (th_now_us() - t0) / 1000;
            if (k == 0) fprintf(stderr, "shape %zu (%zu bytes): code %d in %.0f ms\n", s, n, code, ms);
            s_refused_p2(code);
            code = s_code_of(td_call_raw(f->g.seat[1], b, n, 30000));
            s_refused_p2(code);
            free(b);
        }
    /* A oneof body repeated: hello{} 300000 times. */
    size_t n = 2 + 3 * 300000;
    uint8_t *b = malloc(n);
    b[0] = 0x08;
    b[1] = 0x07;
    for (size_t i = 0; i < 300000; i++) memcpy(b + 2 + 3 * i, "\xaa\x01\x00", 3);
    s_refused_p2(s_code_of(td_call_raw(f->g.seat[0], b, n, 30000)));
    /* Start-group nesting 500000 deep (wire type 3; proto3 has no groups). */
    memset(b, 0x0b, n);
    s_refused_p2(s_code_of(td_call_raw(f->g.seat[0], b, 500000, 30000)));
    free(b);
    long rss1 = th_rss(f->d.pid);
    fprintf(stderr, "daemon RSS %ld -> %ld KiB\n", rss0 / 1024, rss1 / 1024);
    assert_true(rss1 - rss0 < 64L * 1024 * 1024);
    assert_true(td_alive(&f->d));
    s_log_unchanged(f);
    /* Still serving. */
    assert_true(th_seq(f->g.seat[0], f->g.gid, 0) != UINT64_MAX);
}

static void test_size_limits(void **state) {
    fx *f = *state;
    const size_t max = 1024 * 1024;
    uint8_t *big = malloc(2 * max + 2);
    memset(big, 0xff, 2 * max + 2);
    td_client *c = f->g.seat[0];
    /* Exactly max-message: read and refused as garbage. */
    assert_int_equal(s_code_of(td_call_raw(c, big, max, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_MALFORMED);
    /* One byte over: TOO_LARGE. */
    assert_int_equal(s_code_of(td_call_raw(c, big, max + 1, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_TOO_LARGE);
    /* A valid-looking submit padded to the limit with a huge order text. */
    char *text = malloc(max);
    memset(text, 'a', max - 1);
    text[max - 1] = 0;
    size_t n;
    uint8_t *b = td_submit_bytes(55, f->g.gid, 0, th_seq(c, f->g.gid, 0), text, NULL, 0, &n);
    assert_int_equal(s_code_of(td_call_raw(c, b, n, TD_TIMEOUT)), BERTHIER__V1__CODE__CODE_TOO_LARGE);
    free(b);
    free(text);
    /* Over twice the limit: the connection is dropped, nothing else happens. */
    assert_int_equal(td_send_raw(c, big, 2 * max + 1), 0);
    assert_null(td_recv(c, 1500));
    td_client_reconnect(c, &f->d);
    /* A stream of 1.5 MiB frames (over the limit, under the drop size), pipelined, from a client
     * that reads its replies only at the end. */
    long rss0 = th_rss(f->d.pid), peak = rss0;
    int frames = th_long() ? 400 : 100;
    td_client *s = f->g.seat[1];
    int sent = 0;
    for (int i = 0; i < frames; i++) {
        if (zmq_send(s->sock, big, max + max / 2, 0) == (int)(max + max / 2)) sent++;
        long r = th_rss(f->d.pid);
        if (r > peak) peak = r;
    }
    int replies = 0;
    for (;;) {
        Berthier__V1__Reply *r = td_recv(s, 5000);
        if (!r) break;
        assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_TOO_LARGE);
        berthier__v1__reply__free_unpacked(r, NULL);
        replies++;
        long x = th_rss(f->d.pid);
        if (x > peak) peak = x;
    }
    fprintf(stderr, "%d frames of %zu bytes: %d TOO_LARGE replies; daemon RSS %ld KiB, peak %ld KiB\n", sent,
            max + max / 2, replies, rss0 / 1024, peak / 1024);
    assert_int_equal(replies, sent);
    /* 100 frames of 1.5 MiB are 150 MiB: the daemon must not hold them all. */
    assert_true(peak - rss0 < 128L * 1024 * 1024);
    free(big);
    assert_true(td_alive(&f->d));
    s_log_unchanged(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_field_zero, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_amplification, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_size_limits, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
