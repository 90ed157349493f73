/*
 * test_n20_alloc.c - legal() and apply() allocate nothing on the hot path (issue 17, in-process
 * self-play): random games played through n20_legal()/n20_apply(), with every event packed and
 * handed to a sink, count the heap allocations made inside those two calls once the order list
 * has grown to its size (warm-up: the first decisions of the first game, and any call after which
 * the caller's list buffer had to grow). Counted by a malloc hook in this program, not timed.
 *
 * The hook replaces malloc, calloc and realloc of this test binary (glibc lets a program replace
 * them, and calls from the libraries - protobuf-c, libc's own printf - reach the replacement); it
 * is left out of sanitizer builds, whose runtime owns malloc, and the test then only plays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

#if defined(__SANITIZE_ADDRESS__)
#define S_HOOK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define S_HOOK 0
#endif
#endif
#ifndef S_HOOK
#define S_HOOK 1
#endif

static int s_counting;
static long s_allocs;

#if S_HOOK
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

void *malloc(size_t size) {
    if (s_counting) s_allocs++;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (s_counting) s_allocs++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    if (s_counting) s_allocs++;
    return __libc_realloc(p, size);
}

void free(void *p) { __libc_free(p); }
#endif

/* the events are packed by apply() and handed here: counted, kept nowhere */
static void s_sink(void *ctx, const uint8_t *data, size_t len) {
    (void)data;
    size_t *bytes = ctx;
    *bytes += len;
}

typedef struct s_tally {
    long decisions, counted, legal_allocs, apply_allocs, orders;
    size_t event_bytes;
} s_tally;

/* one random game of `scenario` with `opts`; the calls of the first `warm` decisions are not counted */
static void s_play(const char *scenario, uint32_t opts, uint64_t seed, int warm, s_tally *t) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {s_sink, &t->event_bytes};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    assert_int_equal(buf_reserve(&legal, 1u << 20), 0); /* the caller's list, grown once */
    for (int step = 0; !s->over && step < 30000; step++) {
        int who = n20_pending_seat(s);
        assert_true(who == 0 || who == 1);
        buf_reset(&legal);
        size_t cap = legal.cap;
        long a0 = s_allocs;
        s_counting = 1;
        int n = n20_legal(s, (unsigned)who, &legal);
        s_counting = 0;
        long la = s_allocs - a0;
        assert_true(n > 0);
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        size_t len = 0;
        const uint8_t *item = t_nth(&legal, pick, &len);
        assert_non_null(item);
        brt_reject err;
        a0 = s_allocs;
        s_counting = 1;
        int rc = n20_apply(s, (unsigned)who, item, len, &d.d, &out, &err);
        s_counting = 0;
        long aa = s_allocs - a0;
        if (rc != 0) fail_msg("%s seed %llu: listed order rejected: %s", scenario, (unsigned long long)seed, err.message);
        t->decisions++;
        t->orders += n;
        if (step < warm || legal.cap != cap) continue; /* warm-up, or the list outgrew its buffer */
        t->counted++;
        if (la || aa)
            print_message("%s seed %llu step %d phase %d: %ld allocation(s) in legal(), %ld in apply()\n", scenario,
                          (unsigned long long)seed, step, s->phase, la, aa);
        t->legal_allocs += la;
        t->apply_allocs += aa;
    }
    assert_true(s->over);
    buf_free(&legal);
    free(s);
}

/* the hook counts: an allocation made here while counting is seen, and so is one made by a
 * library (protobuf-c decoding an order with its default allocator, as canon_unpack() does) */
static void test_n20_alloc_hook_counts(void **st) {
    (void)st;
    void *(*volatile m)(size_t) = malloc; /* a call the compiler cannot leave out */
    long a0 = s_allocs;
    s_counting = 1;
    void *p = m(64);
    s_counting = 0;
    assert_non_null(p);
    free(p);
    assert_int_equal(s_allocs - a0, S_HOOK ? 1 : 0);
    uint32_t path[1] = {1005};
    N20__V1__Move mv = N20__V1__MOVE__INIT;
    mv.unit = (char *)"GARDE";
    mv.n_path = 1;
    mv.path = path;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    o.kind_case = N20__V1__ORDER__KIND_MOVE;
    o.move = &mv;
    uint8_t b[64];
    size_t len = n20__v1__order__pack(&o, b);
    a0 = s_allocs;
    s_counting = 1;
    N20__V1__Order *back = n20__v1__order__unpack(NULL, len, b);
    s_counting = 0;
    assert_non_null(back);
    assert_string_equal(back->move->unit, "GARDE");
    n20__v1__order__free_unpacked(back, NULL);
    if (S_HOOK) assert_true(s_allocs - a0 >= 2);
}

/* Waterloo 20 standard, random games: no allocation in legal() or apply() after warm-up */
static void test_n20_alloc_none_in_standard_games(void **st) {
    (void)st;
    s_tally t = {0};
    for (uint64_t seed = 1; seed <= 12; seed++) s_play("waterloo20-standard", 0, seed, seed == 1 ? 8 : 0, &t);
    assert_true(t.counted > 500);
    assert_true(t.orders > t.decisions);
    assert_true(t.event_bytes > 0); /* the events were packed and handed out */
    assert_int_equal(t.legal_allocs, 0);
    assert_int_equal(t.apply_allocs, 0);
}

/* the same with the general optional rules, fog-of-war and Leaders (more kinds of orders) */
static void test_n20_alloc_none_with_options(void **st) {
    (void)st;
    s_tally t = {0};
    uint32_t opts = N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_CAV_PENETRATION | N20_OPT_ART_SUPPORT |
                    N20_OPT_UNIT_REDUCTION | N20_OPT_SPECIAL_UNITS | N20_OPT_FATIGUE;
    for (uint64_t seed = 1; seed <= 6; seed++) s_play("waterloo20-standard", opts, seed, seed == 1 ? 8 : 0, &t);
    assert_true(t.counted > 200);
    assert_int_equal(t.legal_allocs, 0);
    assert_int_equal(t.apply_allocs, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_alloc_hook_counts),
        cmocka_unit_test(test_n20_alloc_none_in_standard_games),
        cmocka_unit_test(test_n20_alloc_none_with_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
