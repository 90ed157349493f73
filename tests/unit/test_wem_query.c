/* test_wem_query.c - the measured answers of wem_query (docs/wem-query.md): reach, touch, fire,
 * aoe, in millimetres to 0.05 mm. Boards of the tests' own. */
/* wem_t.h's t_unit() names units "%c%d" into 12 bytes, which gcc's inliner flags (it cannot
 * overflow: at most 160 units) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "wem_t.h"

/* the answer to a question, as a C string in a static buffer */
static const char *s_ask(t_fx *f, const char *q) {
    static char text[4096];
    brt_buf b;
    buf_init(&b);
    assert_true(wem_query(f->s, 0, q, &b) >= 0);
    size_t n = b.len < sizeof text - 1 ? b.len : sizeof text - 1;
    memcpy(text, b.data, n);
    text[n] = 0;
    buf_free(&b);
    return text;
}

static void s_has(const char *text, const char *what) {
    if (!strstr(text, what)) fail_msg("no \"%s\" in:\n%s", what, text);
}

static void test_wem_query_touch_side_by_side(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 230, 400, 0);
    const char *a = s_ask(f, "touch B1 B2");
    s_has(a, "in contact");
    s_has(a, "B1 touched on: right");
    s_has(a, "B2 touched on: left");
    s_has(a, "30.00 mm");
    t_free(f);
}

static void test_wem_query_touch_apart_gives_gap(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 300, 180);
    const char *a = s_ask(f, "touch B1 R2");
    s_has(a, "apart");
    s_has(a, "gap 70.00 mm");
    t_free(f);
}

/* [Area of Engagement] occupied, and "at the limit" at exactly 1 UoM */
static void test_wem_query_aoe_limit_and_occupied(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 360, 0);   /* 30 mm from its front */
    t_unit(f, WEM_BLUE, WEM_INF, 2, 245, 320, 0);   /* 15 mm from its left flank (the red faces south) */
    t_unit(f, WEM_BLUE, WEM_INF, 2, 400, 300, 0);   /* far */
    const char *a = s_ask(f, "aoe R1");
    s_has(a, "B2 is at its limit");
    s_has(a, "B3 occupies it, 15.00 mm away");
    assert_null(strstr(a, "B4"));
    t_free(f);
}

static void test_wem_query_reach_yes_with_distance(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    const char *a = s_ask(f, "reach B2 R1");
    s_has(a, "front width 1, depth 1: Charge 4 (120.00 mm)");
    s_has(a, "yes: turn 0.0 degrees");
    s_has(a, "allowance 120.00 mm");
    t_free(f);
}

/* [Formations] "United Formations must calculate together their own front width": two corps
 * side by side, the Charge moves both, Charge 3 */
static void test_wem_query_reach_united_front_width(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 300, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    t_unit(f, WEM_BLUE, WEM_INF, 3, 230, 400, 0);
    const char *a = s_ask(f, "reach B2 R1");
    s_has(a, "Formation of 2 unit(s), front width 2, depth 1: Charge 3 (90.00 mm)");
    s_has(a, "yes: turn 0.0 degrees, then 70.00 mm");
    t_free(f);
}

static void test_wem_query_reach_no_says_why(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 200, 180);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);   /* 170 mm */
    const char *a = s_ask(f, "reach B2 R1");
    s_has(a, "no: ");
    t_free(f);
}

/* [2. Bombardment] the line of fire straight ahead, what crosses its entire width */
static void test_wem_query_fire_in_line_and_blocked(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 200, 300, 180);
    const char *a = s_ask(f, "fire B1 R2");
    s_has(a, "in the line of fire at");
    s_has(a, "nothing crosses");
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 360, 0);
    a = s_ask(f, "fire B1 R2");
    s_has(a, "blocked by B3");
    t_free(f);
}

static void test_wem_query_fire_outside_line(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_ART_FOOT, 2, 200, 400, 0);
    t_unit(f, WEM_RED, WEM_INF, 1, 300, 300, 180);
    s_has(s_ask(f, "fire B1 R2"), "not in the line of fire");
    t_free(f);
}

static void test_wem_query_unknown_and_usage(void **st) {
    (void)st;
    t_fx *f = t_new(2, 1);
    t_unit(f, WEM_BLUE, WEM_INF, 2, 200, 400, 0);
    s_has(s_ask(f, "touch B1 X9"), "unknown unit X9");
    s_has(s_ask(f, "what"), "reach U T | touch U T");
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wem_query_touch_side_by_side),
        cmocka_unit_test(test_wem_query_touch_apart_gives_gap),
        cmocka_unit_test(test_wem_query_aoe_limit_and_occupied),
        cmocka_unit_test(test_wem_query_reach_yes_with_distance),
        cmocka_unit_test(test_wem_query_reach_no_says_why),
        cmocka_unit_test(test_wem_query_reach_united_front_width),
        cmocka_unit_test(test_wem_query_fire_in_line_and_blocked),
        cmocka_unit_test(test_wem_query_fire_outside_line),
        cmocka_unit_test(test_wem_query_unknown_and_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
