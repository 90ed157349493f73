/*
 * test_wem_render.c - the picture of a wem state (rules/wem/render.c, docs/render.md "wem").
 * Golden pictures of a battlefield of the tests' own (wem_whole_t.h: every kind of terrain and
 * piece), so that they do not move when the scenario data does: the set-up, a battle in progress
 * (markers, Smoke, Losses, the last line of fire, a Substitute), and a finished game. And, on the
 * scenarios themselves: every unit on the field is a counter g#u-ID and no other is; a sealed
 * bid [1. Initiative] changes no byte of any viewpoint's picture; the bytes are the same for every
 * viewpoint (the game hides nothing else). BERTHIER_UPDATE_GOLDEN=1 rewrites the golden files.
 */
#include "wem_whole_t.h"

#include "golden.h"

static void s_render(const wem_state *s, int vp, const char *caption, brt_buf *out) {
    const brt_ruleset *rs = brt_ruleset_find("wem");
    assert_non_null(rs);
    brt_render_ctx ctx = {NULL, 0, -1, caption};
    buf_reset(out);
    assert_int_equal(rs->render(s, vp, &ctx, out), 0);
    buf_append(out, "", 1);
    out->len--;
}

static void s_golden(const char *rel, const brt_buf *b) {
    char why[512];
    const char *src = getenv("BERTHIER_SRC");
    if (!src) fail_msg("BERTHIER_SRC is not set (ctest sets it)");
    if (golden_check(src, rel, (const char *)b->data, b->len, why, sizeof why) != 0) fail_msg("%s", why);
}

/* the picture holds the counter of unit id (g class="counter" id="u-ID") */
static int s_has_counter(const brt_buf *b, const char *id) {
    char pat[64];
    snprintf(pat, sizeof pat, "<g class=\"counter\" id=\"u-%s\" data-unit=\"%s\"", id, id);
    return strstr((const char *)b->data, pat) != NULL;
}

static int s_count(const brt_buf *b, const char *pat) {
    int n = 0;
    for (const char *p = (const char *)b->data; (p = strstr(p, pat)) != NULL; p++) n++;
    return n;
}

/* [Game Preparation 3] the pieces as set up, on the test board */
static void test_wem_render_setup_golden(void **st) {
    (void)st;
    static w_board b;
    w_board_init(&b);
    wem_state *s = wem_state_new(&b.sc, 3, 0);
    brt_buf out;
    buf_init(&out);
    s_render(s, BRT_VIEW_ALL, "test board, set-up", &out);
    s_golden("tests/golden/wem-test-setup-all.svg", &out);
    for (size_t i = 0; i < b.sc.n_units; i++) assert_true(s_has_counter(&out, b.sc.units[i].id));
    /* [Units] fastened guns have their Horse Team behind them: B4 and R2 */
    assert_int_equal(s_count(&out, "class=\"horse-team\""), 2);
    /* [Generals] 15 mm counters, the commanders among them */
    assert_int_equal(s_count(&out, "<g class=\"general\""), (int)b.sc.n_generals);
    /* the terrain: four areas, four lines, the fold, the deployment area, three entrances */
    assert_int_equal(s_count(&out, "<polygon class=\"area "), 4);
    assert_int_equal(s_count(&out, "<polyline class=\"line "), 4);
    assert_int_equal(s_count(&out, "class=\"fold\""), 1);
    assert_int_equal(s_count(&out, "class=\"deploy\""), 1);
    assert_int_equal(s_count(&out, "class=\"entrance\""), 3);
    assert_int_equal(s_count(&out, "class=\"offfield\" data-name"), 1);
    /* no line of fire before a bombardment */
    assert_int_equal(s_count(&out, "class=\"lof\""), 0);
    buf_free(&out);
    wem_state_destroy(&s);
}

/* [Colored Markers] [2. Bombardment] [Effects of Unit removal] a battle in progress */
static void test_wem_render_midgame_golden(void **st) {
    (void)st;
    static w_board b;
    w_board_init(&b);
    wem_state *s = wem_state_new(&b.sc, 3, 0);
    w_board_midgame(s);
    brt_buf out;
    buf_init(&out);
    s_render(s, BRT_VIEW_ALL, "test board, turn III", &out);
    s_golden("tests/golden/wem-test-midgame-all.svg", &out);
    /* the eliminated K2 is not on the field */
    assert_false(s_has_counter(&out, "K2"));
    assert_true(s_has_counter(&out, "K1"));
    /* green on B1 and K1, orange on R1 (2) and K1 (1), yellow on B2 (1) and R3 (2) */
    assert_int_equal(s_count(&out, "<g class=\"green\""), 2);
    assert_int_equal(s_count(&out, "<g class=\"orange\" data-count=\"2\""), 1);
    assert_int_equal(s_count(&out, "<g class=\"orange\" data-count=\"1\""), 1);
    assert_int_equal(s_count(&out, "<g class=\"yellow\" data-count=\"1\""), 1);
    assert_int_equal(s_count(&out, "<g class=\"yellow\" data-count=\"2\""), 1);
    assert_int_equal(s_count(&out, "<g class=\"smoke\""), 1);
    assert_int_equal(s_count(&out, "<g class=\"losses\" data-count=\"2\""), 1);
    /* [Line of fire and visibility] the strip of the last bombardment, gun and target named */
    assert_int_equal(s_count(&out, "class=\"lof\" data-gun=\"B3\" data-target=\"R1\""), 1);
    assert_int_equal(s_count(&out, "data-substitute=\"1\""), 1);
    /* [3.4 Combat] the melee in progress, attacker to defender */
    assert_int_equal(s_count(&out, "class=\"melee\" data-attacker=\"B2\" data-defender=\"R3\""), 1);
    buf_free(&out);
    wem_state_destroy(&s);
}

/* [Victory Conditions] the result in the caption */
static void test_wem_render_finished_golden(void **st) {
    (void)st;
    static w_board b;
    w_board_init(&b);
    wem_state *s = wem_state_new(&b.sc, 2, 0);
    w_board_midgame(s);
    s->over = 1;
    s->phase = WEM_PH_OVER;
    s->winners = 1;
    snprintf(s->level, sizeof s->level, "decisive");
    snprintf(s->reason, sizeof s->reason, "[Victory Conditions] the Wellington counter (W) is removed");
    s->generals[wem_general_find(s, "R-W")].status = WEM_CAPTURED;
    brt_buf out;
    buf_init(&out);
    s_render(s, BRT_VIEW_ALL, NULL, &out);
    s_golden("tests/golden/wem-test-finished-all.svg", &out);
    assert_non_null(strstr((const char *)out.data, "result: decisive: [Victory Conditions]"));
    assert_null(strstr((const char *)out.data, "id=\"g-R-W\""));
    buf_free(&out);
    wem_state_destroy(&s);
}

/* [1. Initiative] "each player will secretly choose a number of markers": no picture shows a bid,
 * or whether one is in; and as nothing else is hidden, every viewpoint gets the same bytes but
 * the caption's viewpoint line */
static void test_wem_render_sealed_bid_not_drawn(void **st) {
    (void)st;
    static w_board b;
    w_board_init(&b);
    wem_state *s = wem_state_new(&b.sc, 3, 0);
    w_board_midgame(s);
    s->phase = WEM_PH_BID;
    s->step = WEM_STEP_INITIATIVE;
    brt_buf none, bid;
    buf_init(&none);
    buf_init(&bid);
    int vps[5] = {BRT_VIEW_ALL, BRT_VIEW_PUBLIC, 0, 1, 2};
    for (int k = 0; k < 5; k++) {
        for (int a = 0; a < WEM_ARMIES; a++) s->bid[a] = -1;
        s_render(s, vps[k], NULL, &none);
        s->bid[WEM_BLUE] = 3;
        s->bid[WEM_BLACK] = 1;
        s_render(s, vps[k], NULL, &bid);
        assert_int_equal(none.len, bid.len);
        assert_memory_equal(none.data, bid.data, none.len);
    }
    /* seat 0's picture and seat 2's differ only in the viewpoint line */
    brt_buf a, c;
    buf_init(&a);
    buf_init(&c);
    s_render(s, 0, NULL, &a);
    s_render(s, 2, NULL, &c);
    assert_int_equal(a.len, c.len);
    size_t diff = 0;
    for (size_t i = 0; i < a.len; i++) diff += a.data[i] != c.data[i];
    assert_int_equal(diff, 1);
    buf_free(&a);
    buf_free(&c);
    buf_free(&none);
    buf_free(&bid);
    wem_state_destroy(&s);
}

/* [Game Preparation 3] every scenario's set-up: each unit on the field is a counter, each unit
 * not on it (the black army before its entrance) is not; the picture is one SVG document */
static void test_wem_render_scenarios_every_unit_on_the_field(void **st) {
    (void)st;
    const brt_ruleset *rs = brt_ruleset_find("wem");
    assert_non_null(rs);
    brt_buf out;
    buf_init(&out);
    int scenarios = 0;
    for (size_t i = 0; rs->scenario_name(i, NULL); i++) {
        const char *name = rs->scenario_name(i, NULL);
        w_dice d;
        w_dice_init(&d, 7 + i);
        brt_ruleset_options o = {NULL, 0, 2};
        brt_reject err;
        wem_state *s = rs->setup(name, &o, &d.d, &err);
        if (!s) fail_msg("setup %s: [%s] %s", name, err.rule, err.message);
        s_render(s, BRT_VIEW_PUBLIC, name, &out);
        const char *t = (const char *)out.data;
        assert_true(strncmp(t, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"wem\"", 76) ==
                    0);
        assert_true(out.len > 7 && strcmp(t + out.len - 7, "</svg>\n") == 0);
        int on = 0;
        for (size_t u = 0; u < s->sc->n_units; u++) {
            int drawn = s_has_counter(&out, s->sc->units[u].id);
            assert_int_equal(drawn, s->units[u].status == WEM_ON);
            on += drawn;
        }
        assert_int_equal(s_count(&out, "<g class=\"counter\""), on);
        rs->destroy(s);
        scenarios++;
    }
    assert_true(scenarios >= 2);
    buf_free(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_render_setup_golden),
        cmocka_unit_test(test_wem_render_midgame_golden),
        cmocka_unit_test(test_wem_render_finished_golden),
        cmocka_unit_test(test_wem_render_sealed_bid_not_drawn),
        cmocka_unit_test(test_wem_render_scenarios_every_unit_on_the_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
