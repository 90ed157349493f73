/*
 * test_n20_dn_examples.c - the worked examples of the Danube 20 series rules (Napoleonic 20 v3.0,
 * rulebook [6.6], [7.0], [9.2.1], [9.6.3]; the [9.4.3] Jena example and the [9.9] advance example
 * are in test_n20_v3_edition.c). Each example is played on the Waterloo 20 map (the v3 book's
 * illustrations are of that map) under both editions (t_edition), and asserts what the example
 * says in each: these examples read the same in the v4.0 book, and the tests show that Berthier
 * plays them the same.
 *
 * CRT (scenario data), differential columns -2 .. +4:
 *   die 4: AR N  DW DW DR DR DR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"

static const int EDS[2] = {N20_ED_V3, N20_ED_V4};

/* an empty map under edition ed at `phase` of `turn` */
static n20_state *x_pos(t_dice *d, int ed, int turn, int phasing, int phase) {
    n20_state *s = t_pos(d, turn, phasing, phase);
    t_edition(s, ed);
    return s;
}

/* v3 [6.6] the example: "A Cavalry unit moving entirely along connected road hexes could spend up
 * to 4 Movement Points that Turn"; off the road for a single hex, no bonus */
static void test_n20_v3_6_6_example_cavalry_four_on_road(void **st) {
    (void)st;
    for (int e = 0; e < 2; e++) {
        t_dice d;
        t_dice_init(&d, 1);
        brt_reject err;
        n20_state *s = x_pos(&d, EDS[e], 9, N20_FRENCH, N20_PH_MOVE);
        int k = t_place(s, "KELLERMANN", 105); /* 3 MP */
        assert_true(t_legal_has(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503"));
        assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503 0604", &d, NULL, &err), -1);
        assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0504", &d, NULL, &err), -1);
        assert_int_equal(t_order(s, N20_FRENCH, "move KELLERMANN 0205 0304 0404 0503", &d, NULL, &err), 0);
        assert_int_equal(s->u[k].hex, n20_hex(503));
        free(s);
    }
}

/* v3 [7.0] the example: the ZOC of the French unit in La Haye Sainte (a Town) does not extend into
 * Mont St Jean (a Town, the British unit) nor into Hougoumont (Fortified); it does into the clear
 * hex of the Prussian unit, which is stuck [6.8] and must be attacked [9.1]; the British unit
 * moves freely */
static void test_n20_v3_7_0_example_la_haye_sainte(void **st) {
    (void)st;
    for (int e = 0; e < 2; e++) {
        t_dice d;
        t_dice_init(&d, 1);
        brt_reject err;
        n20_state *s = x_pos(&d, EDS[e], 18, N20_ALLIED, N20_PH_MOVE);
        int f = t_place(s, "DERLON", 1803);
        int o = t_place(s, "ORANGE", 1903);
        t_place(s, "ZIETEN", 1804);
        assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1903)), 0);
        assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1802)), 0);
        assert_int_equal(n20_exerts_zoc(s, f, n20_hex(1804)), 1);
        assert_int_equal(n20_exerts_zoc(s, o, n20_hex(1803)), 0);
        assert_int_equal(t_order(s, N20_ALLIED, "move ZIETEN 1805", &d, NULL, &err), -1);
        assert_string_equal(err.rule, "6.8");
        assert_int_equal(t_order(s, N20_ALLIED, "move ORANGE 2003", &d, NULL, &err), 0);
        free(s);
        t_dice_init(&d, 1);
        s = x_pos(&d, EDS[e], 18, N20_FRENCH, N20_PH_DECLARE);
        t_place(s, "DERLON", 1803);
        t_place(s, "ORANGE", 1903);
        t_place(s, "ZIETEN", 1804);
        assert_int_equal(t_order(s, N20_FRENCH, "declare", &d, NULL, &err), -1);
        assert_string_equal(err.rule, "9.1");
        assert_int_equal(t_order(s, N20_FRENCH, "declare DERLON -> ZIETEN", &d, NULL, &err), 0);
        free(s);
    }
}

/* v3 [9.2.1] the example: "You have a lone unit adjacent to two enemy units; it must fight them
 * both!" */
static void test_n20_v3_9_2_1_example_lone_unit_fights_both(void **st) {
    (void)st;
    for (int e = 0; e < 2; e++) {
        t_dice d;
        t_dice_init(&d, 1);
        brt_reject err;
        n20_state *s = x_pos(&d, EDS[e], 9, N20_FRENCH, N20_PH_DECLARE);
        t_place(s, "VANDAMME", 707);
        t_place(s, "ZIETEN", 808);
        t_place(s, "PIRCH", 807);
        assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN", &d, NULL, &err), -1);
        assert_string_equal(err.rule, "9.1.1");
        assert_non_null(strstr(err.message, "PIRCH"));
        assert_false(t_legal_has(s, N20_FRENCH, "declare VANDAMME -> ZIETEN"));
        assert_int_equal(t_order(s, N20_FRENCH, "declare VANDAMME -> ZIETEN,PIRCH", &d, NULL, &err), 0);
        free(s);
    }
}

/* v3 [9.6.3] the example: a Routed! marker shows the colour of the side whose Player Turn it is
 * not: placed in the French Player Turn it shows the Anti-French colour, in the Anti-French
 * Player Turn the French colour (v4 [9.6.2] the same) */
static void test_n20_v3_9_6_3_example_routed_marker_colour(void **st) {
    (void)st;
    for (int e = 0; e < 2; e++)
        for (int french_turn = 0; french_turn < 2; french_turn++) {
            t_dice d;
            t_dice_init(&d, 1);
            t_events ev = {0};
            brt_reject err;
            int att = french_turn ? N20_FRENCH : N20_ALLIED;
            n20_state *s = x_pos(&d, EDS[e], 9, att, N20_PH_DECLARE);
            int z;
            if (french_turn) {
                t_place(s, "REILLE", 505);
                t_place(s, "MILHAUD", 406);
                z = t_place(s, "ZIETEN", 506);
                assert_int_equal(t_order(s, N20_FRENCH, "declare REILLE,MILHAUD -> ZIETEN", &d, NULL, &err), 0);
            } else {
                t_place(s, "ZIETEN", 505);
                t_place(s, "PIRCH", 406);
                z = t_place(s, "REILLE", 506);
                assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN,PIRCH -> REILLE", &d, NULL, &err), 0);
            }
            uint32_t r[] = {4, 4}; /* +2 (or better), die 4: DR; rout 4 */
            assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
            assert_int_equal(s->phase, N20_PH_RETREAT);
            int def = 1 - att;
            for (int i = 0; i < 8 && s->phase == N20_PH_RETREAT; i++) {
                char o[64];
                int n = t_legal_match(s, (unsigned)def, "retreat ", T_MATCH_PREFIX, o, sizeof o);
                assert_true(n > 0);
                assert_int_equal(t_order(s, (unsigned)def, o, &d, &ev, &err), 0);
            }
            assert_int_equal(s->u[z].where, N20_U_MAP);
            assert_int_equal(s->u[z].routed, 1 + (french_turn ? N20_ALLIED : N20_FRENCH));
            free(s);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_v3_6_6_example_cavalry_four_on_road),
        cmocka_unit_test(test_n20_v3_7_0_example_la_haye_sainte),
        cmocka_unit_test(test_n20_v3_9_2_1_example_lone_unit_fights_both),
        cmocka_unit_test(test_n20_v3_9_6_3_example_routed_marker_colour),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
