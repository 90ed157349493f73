/*
 * test_n20_ruleset.c - the brt_ruleset_n20 table as the core sees it:
 * scenarios, seats, the scenario hash, set-up, pending, legal, apply,
 * encode, view, text orders, timeouts and resignation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

extern const brt_ruleset brt_ruleset_n20;

static void test_n20_ruleset_table(void **st) {
    (void)st;
    const brt_ruleset *r = &brt_ruleset_n20;
    assert_string_equal(r->id, "n20");
    const char *names[4];
    assert_int_equal(r->scenario_seats("waterloo20-standard", names, 4), 2);
    assert_string_equal(names[0], "french");
    assert_string_equal(names[1], "allied");
    assert_int_equal(r->scenario_seats("nope", names, 4), -1);
    uint8_t h[32], h2[32];
    assert_int_equal(r->scenario_hash("waterloo20-standard", h), 0);
    size_t len;
    const char *data = n20_data_text("waterloo20-standard", &len);
    crypto_generichash(h2, 32, (const unsigned char *)data, len, NULL, 0);
    assert_memory_equal(h, h2, 32);

    t_dice d;
    t_dice_init(&d, 42);
    brt_reject err;
    const char *bad[] = {"no-such-option"};
    brt_ruleset_options o = {bad, 1, 2};
    assert_null(r->setup("waterloo20-standard", &o, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    brt_ruleset_options three = {NULL, 0, 3};
    assert_null(r->setup("waterloo20-standard", &three, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SEATS);
    assert_null(r->setup("nope", NULL, &d.d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SCENARIO);
    void *s = r->setup("waterloo20-standard", NULL, &d.d, &err);
    assert_non_null(s);
    brt_pending p;
    r->pending(s, &p);
    assert_string_equal(p.kind, "move");
    assert_int_equal(p.seats, 1u);
    assert_int_equal(p.turn, 9);

    brt_buf b;
    buf_init(&b);
    assert_int_equal(r->order_parse(s, "move GARDE 0607", &b, &err), 0);
    void *c = r->clone(s);
    assert_int_equal(r->apply(c, 1, b.data, b.len, &d.d, NULL, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    assert_int_equal(r->apply(c, 0, b.data, b.len, &d.d, NULL, &err), 0);
    /* the original is untouched by what happened to the clone */
    brt_buf e1, e2;
    buf_init(&e1);
    buf_init(&e2);
    assert_int_equal(r->encode(s, &e1), 0);
    assert_int_equal(r->encode(c, &e2), 0);
    assert_true(e1.len != e2.len || memcmp(e1.data, e2.data, e1.len) != 0);
    buf_reset(&b);
    assert_int_equal(r->order_parse(s, "fly GARDE", &b, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_BAD_TEXT);
    uint8_t junk[3] = {0xff, 0xff, 0xff};
    assert_int_equal(r->apply(s, 0, junk, 3, &d.d, NULL, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_MALFORMED);

    buf_reset(&b);
    assert_true(r->legal(s, 0, &b) > 10);
    buf_reset(&b);
    assert_int_equal(r->legal(s, 1, &b), 0);
    buf_reset(&b);
    assert_int_equal(r->view(s, 0, &b), 0);
    assert_true(b.len > 100);
    buf_reset(&b);
    assert_int_equal(r->view_text(s, -1, &b), 0);
    buf_append(&b, "", 1);
    assert_non_null(strstr((char *)b.data, "GARDE"));

    /* a timeout on the movement decision ends the phase */
    assert_int_equal(r->timeout_default(s, 0, &d.d, NULL), 0);
    r->pending(s, &p);
    assert_string_not_equal(p.kind, "move");

    brt_result res;
    r->result(s, &res);
    assert_int_equal(res.ended, 0);
    r->resign(s, 0, NULL);
    r->result(s, &res);
    assert_int_equal(res.ended, 1);
    assert_int_equal(res.winners, 1u << 1);
    assert_string_equal(res.level, "forfeit");
    buf_free(&b);
    buf_free(&e1);
    buf_free(&e2);
    r->destroy(c);
    r->destroy(s);
}


/* nothing a client sends may crash the referee: random and mutated bytes are refused cleanly */
static void test_n20_ruleset_garbage(void **st) {
    (void)st;
    const brt_ruleset *r = &brt_ruleset_n20;
    t_dice d;
    t_dice_init(&d, 9);
    brt_reject err;
    void *s = r->setup("waterloo20-standard", NULL, &d.d, &err);
    assert_non_null(s);
    brt_buf legal, enc0, enc1, txt;
    buf_init(&legal);
    buf_init(&enc0);
    buf_init(&enc1);
    buf_init(&txt);
    assert_true(r->legal(s, 0, &legal) > 0);
    r->encode(s, &enc0);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 20000; i++) {
        uint8_t b[64];
        size_t n = 0;
        size_t pos = 0;
        const uint8_t *item = NULL;
        size_t len = 0;
        int k = i % 7;
        while (buf_next_item(&legal, &pos, &item, &len) == 1 && k-- > 0) {
        }
        if (item && len <= sizeof b && (i & 1)) {
            memcpy(b, item, len);
            n = len;
        } else {
            n = (size_t)(i % 40);
        }
        for (size_t j = 0; j < n; j++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if ((i & 1) == 0 || (x & 7) == 0) b[j] = (uint8_t)x;
        }
        void *c = r->clone(s);
        int rc = r->apply(c, (unsigned)(i & 1), b, n, &d.d, NULL, &err);
        if (rc != 0) {
            buf_reset(&enc1);
            r->encode(c, &enc1);
            assert_int_equal(enc0.len, enc1.len);
            assert_memory_equal(enc0.data, enc1.data, enc0.len); /* a rejection changes nothing */
        }
        r->destroy(c);
        buf_reset(&txt);
        r->order_format(b, n, &txt);
        r->event_format(b, n, &txt);
    }
    const char *texts[] = {"", "move", "move GARDE", "move GARDE 99999", "move GARDE 0000", "declare ->",
                           "declare A,B,C,D,E,F,G,H,I,J -> X", "resolve 0", "resolve -3 cap", "place X 12",
                           "retreat ZIETEN 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101 0101",
                           ";;;", "countercharge -> reserve", "goodground A b"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        buf_reset(&txt);
        if (r->order_parse(s, texts[i], &txt, &err) == 0) {
            void *c = r->clone(s);
            (void)r->apply(c, 0, txt.data, txt.len, &d.d, NULL, &err);
            r->destroy(c);
        }
    }
    buf_free(&legal);
    buf_free(&enc0);
    buf_free(&enc1);
    buf_free(&txt);
    r->destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_ruleset_table),
        cmocka_unit_test(test_n20_ruleset_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
