/*
 * test_n20_index.c - the derived lookups legal() uses for speed give the
 * answers of the plain rules functions: n20_index (occupancy, ZOC [7.0]
 * [7.1]) against n20_unit_at()/n20_in_ezoc() in set positions and at every
 * decision of random games, and the orders legal() packs member by member
 * against protobuf-c's packing of the whole Order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* every hex, both sides, both [7.1] variants; returns the number of hexes in some ZOC */
static int s_index_matches(const n20_state *s) {
    n20_index ix;
    n20_index_build(s, &ix);
    int zoc = 0;
    for (int h = 0; h < N20_HEXES; h++) {
        assert_int_equal(n20_ix_unit_at(&ix, (uint16_t)h), n20_unit_at(s, (uint16_t)h));
        int any = 0;
        for (int side = 0; side < 2; side++)
            for (int ign = 0; ign < 2; ign++) {
                int want = n20_in_ezoc(s, (uint16_t)h, side, ign);
                assert_int_equal(n20_ix_in_ezoc(&ix, (uint16_t)h, side, ign), want);
                any |= want;
            }
        zoc += any;
    }
    /* hexes past the table: no unit, no ZOC, as the scans say */
    assert_int_equal(n20_ix_unit_at(&ix, N20_HEXES), -1);
    assert_int_equal(n20_ix_in_ezoc(&ix, N20_HEXES, 0, 0), 0);
    return zoc;
}

/* [7.0] [7.1] [9.6.2] [8.2.4] the index on a set position */
static void test_n20_7_1_index_zoc_kinds(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    assert_non_null(s);
    int reille = t_place(s, "REILLE", 1509);  /* Major River with a ford to 1510 */
    int derlon = t_place(s, "DERLON", 1409);  /* Major River without crossing to 1410 */
    int orange = t_place(s, "ORANGE", 1005);
    int collaert = t_place(s, "COLLAERT", 1005); /* stacked with ORANGE */
    assert_true(reille >= 0 && derlon >= 0 && orange >= 0 && collaert >= 0);
    s_index_matches(s);
    n20_index ix;
    n20_index_build(s, &ix);
    /* [7.1] a ZOC across a forded Major River counts unless the phasing player ignores it */
    assert_int_equal(n20_in_ezoc(s, n20_hex(1510), N20_FRENCH, 0), 1);
    assert_int_equal(n20_in_ezoc(s, n20_hex(1510), N20_FRENCH, 1), 0);
    assert_int_equal(n20_ix_in_ezoc(&ix, n20_hex(1510), N20_FRENCH, 0), 1);
    assert_int_equal(n20_ix_in_ezoc(&ix, n20_hex(1510), N20_FRENCH, 1), 0);
    /* [7.1] none across a Major River without crossing */
    assert_int_equal(n20_ix_in_ezoc(&ix, n20_hex(1410), N20_FRENCH, 0), 0);
    /* the first unit of a stack, as n20_unit_at() scans */
    assert_int_equal(n20_ix_unit_at(&ix, n20_hex(1005)), orange < collaert ? orange : collaert);
    /* [9.6.2] a Routed unit and [8.2.4] a unit In Contact exert no ZOC */
    s->u[orange].routed = 1 + N20_FRENCH;
    s->u[collaert].flags |= N20_UF_CONTACT;
    assert_int_equal(s_index_matches(s) > 0, 1);
    n20_index_build(s, &ix);
    assert_int_equal(n20_ix_in_ezoc(&ix, n20_hex(1006), N20_ALLIED, 0), 0);
    free(s);
}

/* legal() packs an Order's oneof member with its key and length: the bytes protobuf-c
 * writes for the whole Order */
static void s_orders_pack_as_protobuf(const brt_buf *legal) {
    size_t pos = 0, len;
    const uint8_t *item;
    while (buf_next_item(legal, &pos, &item, &len) == 1) {
        N20__V1__Order *o = n20__v1__order__unpack(NULL, len, item);
        assert_non_null(o);
        size_t l2 = n20__v1__order__get_packed_size(o);
        assert_int_equal(l2, len);
        uint8_t *p = malloc(l2 ? l2 : 1);
        assert_non_null(p);
        n20__v1__order__pack(o, p);
        assert_memory_equal(p, item, len);
        free(p);
        n20__v1__order__free_unpacked(o, NULL);
    }
}

/* at every decision of random games: the index answers as the scans, the orders pack alike */
static void test_n20_index_matches_scans_in_random_play(void **st) {
    (void)st;
    int decisions = 0, zoc = 0, orders = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        t_dice d;
        t_dice_init(&d, seed);
        n20_state *s = t_standard(&d);
        assert_non_null(s);
        uint64_t rng = seed * 2654435761u + 1;
        brt_buf legal;
        buf_init(&legal);
        for (int steps = 0; !s->over && steps < 20000; steps++) {
            zoc += s_index_matches(s);
            decisions++;
            int seat = n20_pending_seat(s);
            buf_reset(&legal);
            int n = n20_legal(s, (unsigned)seat, &legal);
            assert_true(n > 0);
            orders += n;
            s_orders_pack_as_protobuf(&legal);
            int pick = (int)(t_rng(&rng) % (uint64_t)n);
            size_t pos = 0, len = 0;
            const uint8_t *item = NULL;
            for (int k = 0; k <= pick; k++) buf_next_item(&legal, &pos, &item, &len);
            brt_reject err;
            assert_int_equal(n20_apply(s, (unsigned)seat, item, len, &d.d, NULL, &err), 0);
        }
        buf_free(&legal);
        free(s);
    }
    assert_true(decisions > 100);
    assert_true(zoc > 0);
    assert_true(orders > decisions);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_7_1_index_zoc_kinds),
        cmocka_unit_test(test_n20_index_matches_scans_in_random_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
