/*
 * test_vis.c - who may receive an outcome record (core/vis.c), and the hash a seat may hold
 * mid-game (issue 11, attack 3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "vis.h"

/* LogDice.visible: absent (0) is public, as in logs written before the field; a limited
 * roll has bit 31 and the mask of its seats. */
static void test_vis_dice_encoding_absent_means_public(void **st) {
    (void)st;
    assert_int_equal(vis_dice_encode(DICE_SEEN_BY_ALL, 2), 0);
    assert_int_equal(vis_dice_encode(3u, 2), 0);
    assert_int_equal(vis_dice_encode(DICE_SEEN_BY_NONE, 2), VIS_DICE_LIMITED);
    assert_int_equal(vis_dice_encode(1u << 1, 2), VIS_DICE_LIMITED | 2u);
    assert_int_equal(vis_dice_encode(1u << 1, 3), VIS_DICE_LIMITED | 2u);
    assert_int_equal(vis_dice_encode(0x7u, 3), 0);
    assert_int_equal(vis_dice_seats(0, 2), 3u);
    assert_int_equal(vis_dice_seats(VIS_DICE_LIMITED | 2u, 2), 2u);
    assert_true(vis_dice_hidden_from_all(VIS_DICE_LIMITED, 2));
    assert_false(vis_dice_hidden_from_all(0, 2));
}

static void test_vis_who_may_see(void **st) {
    (void)st;
    /* public: every seat and the spectators */
    for (int p = -1; p < 2; p++) assert_true(vis_dice_may_see(0, p, 2, 0));
    /* seat 1 only */
    assert_false(vis_dice_may_see(VIS_DICE_LIMITED | 2u, 0, 2, 0));
    assert_true(vis_dice_may_see(VIS_DICE_LIMITED | 2u, 1, 2, 0));
    assert_false(vis_dice_may_see(VIS_DICE_LIMITED | 2u, -1, 2, 0));
    /* nobody before the end; everything once the log is open */
    for (int p = -1; p < 2; p++) {
        assert_false(vis_dice_may_see(VIS_DICE_LIMITED, p, 2, 0));
        assert_true(vis_dice_may_see(VIS_DICE_LIMITED, p, 2, 1));
    }
    assert_false(vis_dice_may_see(0, 5, 2, 0)); /* no such seat */
    /* events: the LogEvent mask, all bits = public */
    assert_true(vis_event_may_see(BRT_SEATS_ALL, -1, 2, 0));
    assert_false(vis_event_may_see(1u, -1, 2, 0));
    assert_true(vis_event_may_see(1u, 0, 2, 0));
    assert_false(vis_event_may_see(1u, 1, 2, 0));
    assert_false(vis_event_may_see(0u, 0, 2, 0));
    assert_true(vis_event_may_see(0u, -1, 2, 1));
}

static void s_view(const n20_state *s, int seat, brt_buf *out) {
    buf_reset(out);
    assert_int_equal(n20_view(s, seat, out), 0);
}

static void s_state_hash(const n20_state *s, uint8_t out[32]) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_encode(s, &b), 0);
    crypto_generichash(out, 32, b.data, b.len, NULL, 0);
    buf_free(&b);
}

static void s_view_hash(const n20_state *s, int seat, uint8_t out[32]) {
    brt_buf v;
    buf_init(&v);
    s_view(s, seat, &v);
    assert_int_equal(vis_view_hash("0123456789abcdef", seat, 7, v.data, v.len, out), 0);
    buf_free(&v);
}

/* Attack 3 of issue 11: two fog-of-war positions [16.1] that differ only in what the Allied
 * seat may not see (the order of the Draw Pile [5.0], and which of two face-down French units
 * stands where) have different full-state hashes, so a seat that held the full-state hash
 * mid-game (Accepted.state_hash on the old code) could confirm a guess about them offline.
 * The hash a seat now holds (Accepted/StateView.view_hash) covers its own View only: it is the
 * same for both positions, and differs from the full-state hash. */
static void test_view_hash_ignores_what_the_seat_may_not_see(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    n20_state *a = n20_state_new(sc);
    assert_int_equal(n20_setup(a, &d.d, NULL, N20_OPT_FOG, NULL), 0);
    n20_run(a, &d.d, NULL);
    n20_state *b = malloc(sizeof *b);
    assert_non_null(b);
    memcpy(b, a, sizeof *b);
    /* the Draw Pile order: hidden from both seats */
    assert_true(b->ndraw >= 2);
    assert_int_not_equal(b->draw[0], b->draw[1]);
    uint8_t t = b->draw[0];
    b->draw[0] = b->draw[1];
    b->draw[1] = t;
    /* two face-down French units on the map, in different hexes: hidden from the Allies */
    int u1 = -1, u2 = -1;
    for (int i = 0; i < sc->nunits; i++) {
        if (b->u[i].where != N20_U_MAP || !n20_fog_hidden_from(b, i, N20_ALLIED)) continue;
        if (sc->units[i].type == N20_DUMMY || sc->units[i].type == N20_LEADER) continue;
        if (u1 < 0) u1 = i;
        else if (b->u[i].hex != b->u[u1].hex && sc->units[i].strength != sc->units[u1].strength) {
            u2 = i;
            break;
        }
    }
    assert_true(u1 >= 0 && u2 >= 0);
    uint16_t h = b->u[u1].hex;
    b->u[u1].hex = b->u[u2].hex;
    b->u[u2].hex = h;

    uint8_t ha[32], hb[32], va[32], vb[32];
    s_state_hash(a, ha);
    s_state_hash(b, hb);
    assert_memory_not_equal(ha, hb, 32); /* the full state differs: the old hash told them apart */
    s_view_hash(a, N20_ALLIED, va);
    s_view_hash(b, N20_ALLIED, vb);
    assert_memory_equal(va, vb, 32);     /* the Allied seat's hash does not */
    assert_memory_not_equal(va, ha, 32); /* and it is not the full-state hash */
    /* non-interference: everything else the Allied seat may ask is the same bytes too */
    brt_buf x, y;
    buf_init(&x);
    buf_init(&y);
    assert_int_equal(n20_view_text(a, N20_ALLIED, &x), 0);
    assert_int_equal(n20_view_text(b, N20_ALLIED, &y), 0);
    assert_int_equal(x.len, y.len);
    assert_memory_equal(x.data, y.data, x.len);
    buf_reset(&x);
    buf_reset(&y);
    assert_true(n20_legal(a, N20_ALLIED, &x) >= 0);
    assert_true(n20_legal(b, N20_ALLIED, &y) >= 0);
    assert_int_equal(x.len, y.len);
    if (x.len) assert_memory_equal(x.data, y.data, x.len);
    brt_pending pa, pb;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    n20_pending(a, &pa);
    n20_pending(b, &pb);
    assert_memory_equal(&pa, &pb, sizeof pa);
    buf_free(&x);
    buf_free(&y);
    /* the French seat sees its own units: its hash tells the positions apart */
    s_view_hash(a, N20_FRENCH, va);
    s_view_hash(b, N20_FRENCH, vb);
    assert_memory_not_equal(va, vb, 32);
    free(a);
    free(b);
}

/* The view hash binds the game, the seat and the seq (so a hash cannot be replayed as
 * another seat's or another moment's). */
static void test_view_hash_binds_game_seat_and_seq(void **st) {
    (void)st;
    static const uint8_t v[3] = {1, 2, 3};
    uint8_t h0[32], h1[32], h2[32], h3[32];
    assert_int_equal(vis_view_hash("aaaa", 0, 1, v, 3, h0), 0);
    assert_int_equal(vis_view_hash("aaab", 0, 1, v, 3, h1), 0);
    assert_int_equal(vis_view_hash("aaaa", 1, 1, v, 3, h2), 0);
    assert_int_equal(vis_view_hash("aaaa", 0, 2, v, 3, h3), 0);
    assert_memory_not_equal(h0, h1, 32);
    assert_memory_not_equal(h0, h2, 32);
    assert_memory_not_equal(h0, h3, 32);
    /* the exact bytes: BLAKE2b-256("berthier-view-v1" || "aaaa" || 00000000 || 01 00.. || 010203) */
    uint8_t m[16 + 4 + 4 + 8 + 3] = "berthier-view-v1";
    memcpy(m + 16, "aaaa", 4);
    memset(m + 20, 0, 12);
    m[24] = 1;
    memcpy(m + 32, v, 3);
    uint8_t want[32];
    crypto_generichash(want, 32, m, sizeof m, NULL, 0);
    assert_memory_equal(h0, want, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vis_dice_encoding_absent_means_public),
        cmocka_unit_test(test_vis_who_may_see),
        cmocka_unit_test(test_view_hash_ignores_what_the_seat_may_not_see),
        cmocka_unit_test(test_view_hash_binds_game_seat_and_seq),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
