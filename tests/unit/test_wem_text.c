/* test_wem_text.c - the text syntax of every order kind (docs/orders-wem.md): each prints back
 * to the same text; bad text is refused with the syntax; query lines are not orders. */
#include "wem_t.h"

static t_fx *s_board(void) {
    t_fx *f = t_new(3, 3);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 300, 500, 0);   /* B1 */
    t_unit(f, WEM_BLUE, WEM_INF, 2, 330, 500, 0);   /* B2 */
    t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 400, 500, 0); /* B3 */
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 200, 180);  /* R4 */
    t_unit(f, WEM_BLACK, WEM_INF, 3, 900, 300, 270); /* K5 */
    t_general(f, WEM_BLUE, 2, 2, 1, 320, 560, 0);    /* B-G1 */
    t_general(f, WEM_BLACK, 0, 4, 0, 950, 300, 1);   /* K-G2 */
    return f;
}

static const char *const s_texts[] = {
    "bid 3",
    "bid 3 2",
    "place K5 18000,6000,2700 K-G2 18000,6000",
    "place B3 8000,10000,1800 fastened",
    "done",
    "bombard B3 R4",
    "bombard B3 R4 support B1 B2",
    "assign B-G1 2",
    "general B-G1 6400,11200",
    "general B-G1 6000,10000 attach B1",
    "put B-G1 B1 B2",
    "put B-G1 B1 out-of-sequence markers",
    "keep B-G1 B1 B2",
    "recover B-G1 B2",
    "redeploy B-G1 B1@6000,11000,900 B2@6600,11000,0",
    "advance B1 B2 guide B1 turn 15 dist 900",
    "fallback B1 B2 guide B1",
    "charge B1 B2 guide B1 turn -30 target R4",
    "unfasten B3",
    "combat B1 R4",
    "answer 1",
    "answer 1 2 units B1",
    "answer 0 units B1 B2 place B1 6000,11000,900",
};

/* order_format prints every order kind back as the same text */
static void test_wem_text_every_order_round_trips(void **st) {
    (void)st;
    t_fx *f = s_board();
    for (size_t i = 0; i < sizeof s_texts / sizeof s_texts[0]; i++) {
        char out[256];
        t_format(f, s_texts[i], out, sizeof out);
        if (strcmp(out, s_texts[i])) fail_msg("'%s' printed as '%s'", s_texts[i], out);
    }
    t_free(f);
}

/* the parsed order is the one the fields say */
static void test_wem_text_fields(void **st) {
    (void)st;
    t_fx *f = s_board();
    wem_order o;
    brt_reject err;
    assert_int_equal(wem_order_parse(f->s, "redeploy B-G1 B1@6000,11000,900", &o, &err), 0);
    assert_int_equal(o.kind, WEM_O_COMMAND);
    assert_int_equal(o.value, WEM_CMD_REDEPLOY);
    assert_int_equal(o.general, 0);
    assert_int_equal(o.n_units, 1);
    assert_int_equal(o.n_places, 1);
    assert_int_equal(o.places[0].at.x, 6000);
    assert_int_equal(o.places[0].h, 900);
    assert_int_equal(wem_order_parse(f->s, "charge B1 guide B1 turn -30 dist 600 target R4", &o, &err), 0);
    assert_int_equal(o.value, WEM_MV_CHARGE);
    assert_int_equal(o.turn, -30);
    assert_int_equal(o.dist, 600);
    assert_int_equal(o.target, 3);
    assert_int_equal(wem_order_parse(f->s, "bid 3 2", &o, &err), 0);
    assert_int_equal(o.n_values, 2);
    assert_int_equal(o.values[1], 2);
    t_free(f);
}

/* refused text says what the syntax is; a query is no order */
static void test_wem_text_bad_text_refused(void **st) {
    (void)st;
    t_fx *f = s_board();
    wem_order o;
    brt_reject err;
    static const char *const bad[] = {"", "march B1", "bid", "bid x", "assign B-G1", "assign Nobody 2", "put B-G1",
                                      "put B-G1 B9", "put B-G1 B1@1,2,3", "redeploy B-G1 B1", "general B-G1 12",
                                      "advance B1 turn", "combat B1", "place B1 1,2 B2", "done now", "query charge B1 R4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (wem_order_parse(f->s, bad[i], &o, &err) == 0) fail_msg("'%s' parsed", bad[i]);
        assert_int_equal(err.code, BRT_REJECT_BAD_TEXT);
        assert_int_equal(o.kind, WEM_O_NONE);
    }
    assert_int_equal(wem_order_parse(f->s, "query charge B1 R4", &o, &err), -1);
    assert_non_null(strstr(err.message, "query"));
    t_free(f);
}

/* events print their kind, pieces, dice and sentence */
static void test_wem_text_event_format(void **st) {
    (void)st;
    t_fx *f = s_board();
    int d = 4;
    wem_event(f->s, &f->ev, BRT_SEATS_ALL, "entrance-roll", WEM_BLACK, -1, -1, 0, &d, 1, NULL, 0, "[Entrance] black rolls %d", d);
    Wem__V1__Event *e = f->ev.ev[0].e;
    size_t n = wem__v1__event__get_packed_size(e);
    uint8_t buf[512];
    assert_true(n < sizeof buf);
    wem__v1__event__pack(e, buf);
    brt_buf out;
    buf_init(&out);
    assert_int_equal(f->rs->event_format(buf, n, &out), 0);
    const char *want = "entrance-roll dice 4: [Entrance] black rolls 4";
    assert_int_equal(out.len, strlen(want));
    assert_memory_equal(out.data, want, out.len);
    buf_free(&out);
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_text_every_order_round_trips),
        cmocka_unit_test(test_wem_text_fields),
        cmocka_unit_test(test_wem_text_bad_text_refused),
        cmocka_unit_test(test_wem_text_event_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
