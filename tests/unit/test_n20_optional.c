/*
 * test_n20_optional.c - rule cases of the Napoleonic 20 Optional Rules [16.0]
 * (game options of the n20 ruleset), and random play with each option on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

static void s_dump(const t_events *ev) {
    for (int i = 0; i < ev->n; i++) fprintf(stderr, "  %s\n", ev->text[i]);
}
#define HAS(ev, txt) do { if (!t_events_has(ev, txt)) { s_dump(ev); fail_msg("no event '%s'", txt); } } while (0)
#define HASNT(ev, txt) do { if (t_events_has(ev, txt)) { s_dump(ev); fail_msg("unexpected event '%s'", txt); } } while (0)

/* the number of dice rolled with a purpose starting with `p` */
static int s_rolled(const t_dice *d, const char *p) {
    int n = 0;
    for (int i = 0; i < d->npurposes; i++)
        if (strncmp(d->purposes[i], p, strlen(p)) == 0) n++;
    return n;
}

/* a copy of the scenario whose Combat Results Table gives `res` on every cell */
static n20_scenario *s_fixed_crt(n20_state *s, int res) {
    n20_scenario *sc = malloc(sizeof *sc);
    memcpy(sc, s->sc, sizeof *sc);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 8; c++) sc->crt[r][c] = (uint8_t)res;
    s->sc = sc;
    return sc;
}

/* ---- [16.3] Artillery Support --------------------------------------------------- */

/* Allied ZIETEN attacks French GERARD; the French ARTILLERY is adjacent to GERARD */
static n20_state *s_support_pos(t_dice *d, uint32_t opts) {
    n20_state *s = t_empty(d, 9, N20_ALLIED);
    s->opts = opts;
    t_place(s, "GERARD", 505);
    t_place(s, "ARTILLERY", 405);
    t_place(s, "ZIETEN", 606);
    s->phase = N20_PH_DECLARE;
    return s;
}

/* [16.3.1] an Artillery unit not attacked adds +1 to a friendly defender in its ZOC */
static void test_n20_16_3_1_defensive_support_adds_one(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_support_pos(&d, N20_OPT_ART_SUPPORT);
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN -> GERARD", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    HAS(&ev, "3 vs 3 (terrain +0, artillery support)");
    HAS(&ev, "[16.3.1] defensive artillery support: +1");
    assert_int_equal(s_rolled(&d, "9.6 combat"), 1);
    free(s);

    /* without the option: 3 vs 2 */
    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = s_support_pos(&d, 0);
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN -> GERARD", &d, &ev2, &err), 0);
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev2, &err), 0);
    HAS(&ev2, "3 vs 2 (terrain +0)");
    HASNT(&ev2, "artillery support");
    free(s);
}

/* [16.3.1] no support from an Artillery unit against which an attack has been declared */
static void test_n20_16_3_1_no_support_when_artillery_attacked(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_support_pos(&d, N20_OPT_ART_SUPPORT);
    t_place(s, "VONHOBE", 304);
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN -> GERARD ; VONHOBE -> ARTILLERY", &d, &ev, &err), 0);
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    HAS(&ev, "3 vs 2 (terrain +0)");
    HASNT(&ev, "artillery support");
    free(s);
}

/* French ARTILLERY across the unbridged Dyle from Allied THIELMANN (Wavre) */
static n20_state *s_bombard_pos(t_dice *d, uint32_t opts) {
    n20_state *s = t_empty(d, 9, N20_FRENCH);
    s->opts = opts;
    t_place(s, "ARTILLERY", 2010);
    t_place(s, "THIELMANN", 2109);
    s->phase = N20_PH_DECLARE;
    return s;
}

/* [16.3.2] Bombardment across a Major River at printed strength; refused without the option */
static void test_n20_16_3_2_bombardment_printed_strength(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_bombard_pos(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> THIELMANN", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "9.2.2");
    free(s);

    s = s_bombard_pos(&d, N20_OPT_ART_SUPPORT);
    assert_true(t_legal_has(s, N20_FRENCH, "declare ARTILLERY -> THIELMANN"));
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> THIELMANN", &d, &ev, &err), 0);
    n20_scenario *sc = s_fixed_crt(s, N20_R_N);
    uint32_t r[] = {4};
    t_dice_script(&d, 1, r);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    HAS(&ev, "2 vs 3"); /* printed 2, not doubled; THIELMANN 2 + Wavre +1 */
    HAS(&ev, "[16.3.2] ARTILLERY bombards in battle 1");
    free(s);
    free(sc);
}

/* [16.3.2] a bombarding Artillery unit treats AB (and AR) as AW: it withdraws one hex */
static void test_n20_16_3_2_bombardment_ab_is_aw(void **st) {
    (void)st;
    for (int res = N20_R_AB; res <= N20_R_AR; res++) {
        t_dice d;
        t_dice_init(&d, 1);
        t_events ev = {0};
        brt_reject err;
        n20_state *s = s_bombard_pos(&d, N20_OPT_ART_SUPPORT);
        n20_scenario *sc = s_fixed_crt(s, res);
        assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> THIELMANN", &d, &ev, &err), 0);
        uint32_t r[] = {2};
        t_dice_script(&d, 1, r);
        assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
        assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
        HAS(&ev, res == N20_R_AB ? "AB read as AW" : "AR read as AW");
        HASNT(&ev, "broken");
        assert_int_equal(s->phase, N20_PH_RETREAT);
        int a = n20_unit_find(s, "ARTILLERY");
        assert_int_equal(n20_retreat_current(s), a);
        assert_int_equal(s->f.ret_dist[0], 1);
        assert_int_equal(s->f.ret_rout[0], 0);
        assert_int_equal(s_rolled(&d, "9.6 rout"), 0); /* no rout distance rolled */
        assert_int_equal(s->u[a].where, N20_U_MAP);
        free(s);
        free(sc);
    }
}

/* [16.3.2] with other attackers: they suffer the AB, the bombarding Artillery withdraws */
static void test_n20_16_3_2_bombardment_ab_with_others(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_bombard_pos(&d, N20_OPT_ART_SUPPORT);
    t_place(s, "GERARD", 2110); /* across the Wavre bridge */
    n20_scenario *sc = s_fixed_crt(s, N20_R_AB);
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY,GERARD -> THIELMANN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "GERARD")].where, N20_U_BROKEN);
    int a = n20_unit_find(s, "ARTILLERY");
    assert_int_equal(s->u[a].where, N20_U_MAP);
    assert_int_equal(s->phase, N20_PH_RETREAT);
    assert_int_equal(n20_retreat_current(s), a);
    free(s);
    free(sc);
}

/* [16.3.2] EX: bombarding Artillery cannot be Broken for the losses; alone, EX is eNgaged */
static void test_n20_16_3_2_bombardment_ex(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_bombard_pos(&d, N20_OPT_ART_SUPPORT);
    n20_scenario *sc = s_fixed_crt(s, N20_R_EX);
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY -> THIELMANN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    HAS(&ev, "EX read as N");
    HASNT(&ev, "broken");
    assert_int_equal(s->u[n20_unit_find(s, "THIELMANN")].where, N20_U_MAP);
    free(s);
    free(sc);

    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = s_bombard_pos(&d, N20_OPT_ART_SUPPORT);
    t_place(s, "GERARD", 2110);
    t_place(s, "REILLE", 2108);
    sc = s_fixed_crt(s, N20_R_EX);
    assert_int_equal(t_order(s, N20_FRENCH, "declare ARTILLERY,GERARD,REILLE -> THIELMANN", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev2, &err), 0);
    assert_int_equal(s->phase, N20_PH_EX_LOSSES);
    assert_false(t_legal_has(s, N20_FRENCH, "losses ARTILLERY"));
    assert_int_equal(t_order(s, N20_FRENCH, "losses ARTILLERY", &d, &ev2, &err), -1);
    assert_string_equal(err.rule, "16.3.2");
    assert_true(t_legal_has(s, N20_FRENCH, "losses GERARD"));
    assert_int_equal(t_order(s, N20_FRENCH, "losses GERARD", &d, &ev2, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "GERARD")].where, N20_U_BROKEN);
    assert_int_equal(s->u[n20_unit_find(s, "ARTILLERY")].where, N20_U_MAP);
    free(s);
    free(sc);
}


/* ---- [16.2] Cavalry Penetration ------------------------------------------------- */

/* French GERARD at 0505 ends its move next to Allied UXBRIDGE (0506): Allied Reaction Phase */
static n20_state *s_penetrate_pos(t_dice *d, uint32_t opts) {
    n20_state *s = t_empty(d, 9, N20_FRENCH);
    s->opts = opts;
    t_place(s, "GERARD", 505);
    t_place(s, "UXBRIDGE", 506);
    return s;
}

/* [16.2] a Cavalry unit moves from one hex adjacent to an enemy to another, then stops; it
 * cannot also Countercharge */
static void test_n20_16_2_penetration_moves_next_to_enemy(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_penetrate_pos(&d, N20_OPT_CAV_PENETRATION);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_REACTION);
    int rolled = d.npurposes;
    assert_true(t_legal_has(s, N20_ALLIED, "penetrate UXBRIDGE 0406"));
    assert_false(t_legal_has(s, N20_ALLIED, "penetrate UXBRIDGE 0607"));
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0607", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.2"); /* 0607 is not adjacent to an enemy unit */
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0406", &d, &ev, &err), 0);
    int u = n20_unit_find(s, "UXBRIDGE");
    assert_int_equal(s->u[u].hex, n20_hex(406));
    HAS(&ev, "[16.2] UXBRIDGE penetrates to 0406");
    assert_int_equal(t_order(s, N20_ALLIED, "countercharge UXBRIDGE -> GERARD", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "8.0");
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0506", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.2");
    assert_int_equal(d.npurposes, rolled); /* no die */
    free(s);
}

/* [16.2] not without the option; not a Routed unit; not out of, nor into, an enemy Cavalry ZOC */
static void test_n20_16_2_penetration_restrictions(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_penetrate_pos(&d, 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0406", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.2");
    assert_false(t_legal_has(s, N20_ALLIED, "penetrate UXBRIDGE 0406"));
    free(s);

    s = s_penetrate_pos(&d, N20_OPT_CAV_PENETRATION);
    s->u[n20_unit_find(s, "UXBRIDGE")].routed = 1 + N20_FRENCH;
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0406", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.2");
    assert_true(strstr(err.message, "Routed") != NULL);
    free(s);

    s = s_penetrate_pos(&d, N20_OPT_CAV_PENETRATION);
    t_place(s, "MILHAUD", 306); /* its ZOC covers 0406 */
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0406", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "enemy Cavalry unit's ZOC (0406)") != NULL);
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0606", &d, NULL, &err), 0);
    free(s);

    s = s_penetrate_pos(&d, N20_OPT_CAV_PENETRATION);
    t_place(s, "MILHAUD", 507); /* UXBRIDGE begins in its ZOC */
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "penetrate UXBRIDGE 0406", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "begins in an enemy Cavalry") != NULL);
    free(s);
}


/* ---- [16.8] Fatigue -------------------------------------------------------------- */

/* [16.8.1] every unit in a battle gains one Fatigue Level; a Spent unit remains Spent */
static void test_n20_16_8_1_exhaustion_raises_one_level(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_FATIGUE;
    int g = t_place(s, "GERARD", 505), z = t_place(s, "ZIETEN", 606);
    int v = t_place(s, "VANDAMME", 1507), p = t_place(s, "PIRCH", 1607);
    s->fatigue[v] = N20_FAT_SPENT;
    s->fatigue[p] = N20_FAT_READY;
    s->phase = N20_PH_DECLARE;
    n20_scenario *sc = s_fixed_crt(s, N20_R_N);
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> ZIETEN ; VANDAMME -> PIRCH", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->fatigue[g], N20_FAT_READY);
    assert_int_equal(s->fatigue[z], N20_FAT_READY);
    assert_int_equal(s->fatigue[v], N20_FAT_SPENT); /* not yet in battle */
    HAS(&ev, "[16.8.1] GERARD is now Ready");
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 2", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->fatigue[v], N20_FAT_SPENT); /* remains Spent */
    assert_int_equal(s->fatigue[p], N20_FAT_TIRED);
    /* without the option nothing is recorded */
    n20_state *s2 = t_empty(&d, 9, N20_FRENCH);
    t_place(s2, "GERARD", 505);
    t_place(s2, "ZIETEN", 606);
    s2->phase = N20_PH_DECLARE;
    s2->sc = sc;
    t_events ev2 = {0};
    assert_int_equal(t_order(s2, N20_FRENCH, "declare GERARD -> ZIETEN", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s2, N20_FRENCH, "resolve 1", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s2, N20_ALLIED, "no-reserve", &d, &ev2, &err), 0);
    assert_int_equal(s2->fatigue[g], 0);
    HASNT(&ev2, "16.8");
    free(s2);
    free(s);
    free(sc);
}

/* [16.8.2] Tired: no Forced March benefit; Weary: also -1 Movement Allowance */
static void test_n20_16_8_2_tired_and_weary_movement(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_FATIGUE;
    int a = t_place(s, "GERARD", 1505), b = t_place(s, "VANDAMME", 1508), c = t_place(s, "REILLE", 1511);
    s->fatigue[a] = N20_FAT_READY;
    s->fatigue[b] = N20_FAT_TIRED;
    s->fatigue[c] = N20_FAT_WEARY;
    assert_int_equal(n20_move_allowance(s, a), 2);
    assert_int_equal(n20_move_allowance(s, b), 2);
    assert_int_equal(n20_move_allowance(s, c), 1);
    assert_int_equal(t_order(s, N20_FRENCH, "forcemarch french", &d, &ev, &err), 0);
    assert_int_equal(n20_move_allowance(s, a), 3); /* Ready: unaffected */
    assert_int_equal(n20_move_allowance(s, b), 2); /* Tired: no benefit */
    assert_int_equal(n20_move_allowance(s, c), 1); /* Weary: no benefit and -1 */
    free(s);
}

/* [16.8.2] Spent: cannot voluntarily enter an EZOC, nor Advance after Combat ([9.8.2]) */
static void test_n20_16_8_2_spent_cannot_enter_ezoc(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_FATIGUE;
    int g = t_place(s, "GERARD", 503);
    t_place(s, "ZIETEN", 606); /* its ZOC covers 0505 */
    s->fatigue[g] = N20_FAT_SPENT;
    assert_false(t_legal_has(s, N20_FRENCH, "move GERARD 0504 0505"));
    assert_true(t_legal_has(s, N20_FRENCH, "move GERARD 0504"));
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0504 0505", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.8.2");
    s->fatigue[g] = N20_FAT_WEARY; /* Weary may (allowance 1: one hex, always allowed [6.2]) */
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 0504", &d, &ev, &err), 0);
    free(s);

    /* advance after combat: the Spent victor cannot advance; a Fresh one can */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_FATIGUE;
    g = t_place(s, "GERARD", 505);
    int v = t_place(s, "VANDAMME", 507);
    t_place(s, "ZIETEN", 506);
    s->fatigue[g] = N20_FAT_WEARY; /* Spent after this battle */
    s->phase = N20_PH_DECLARE;
    n20_scenario *sc = s_fixed_crt(s, N20_R_DB);
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD,VANDAMME -> ZIETEN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phase, N20_PH_ADVANCE);
    assert_int_equal(s->fatigue[g], N20_FAT_SPENT);
    assert_int_equal(s->fatigue[v], N20_FAT_READY);
    assert_int_equal(t_order(s, N20_FRENCH, "advance GERARD 0506", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.8.2");
    assert_false(t_legal_has(s, N20_FRENCH, "advance GERARD 0506"));
    assert_int_equal(t_order(s, N20_FRENCH, "advance VANDAMME 0506", &d, &ev, &err), 0);
    free(s);
    free(sc);
}

/* [16.8.3] at the end of its Combat Phase each of the phasing player's fatigued units not
 * adjacent to an enemy unit recovers one level (Ready becomes Fresh) */
static void test_n20_16_8_3_recovery_not_adjacent(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_FATIGUE;
    int g = t_place(s, "GERARD", 505), z = t_place(s, "ZIETEN", 606);
    int v = t_place(s, "VANDAMME", 1507), r = t_place(s, "REILLE", 1511);
    int t = t_place(s, "THIELMANN", 2109);
    s->fatigue[g] = N20_FAT_TIRED;
    s->fatigue[v] = N20_FAT_READY;
    s->fatigue[r] = N20_FAT_SPENT;
    s->fatigue[t] = N20_FAT_TIRED; /* not the phasing player's */
    s->phase = N20_PH_DECLARE;
    n20_scenario *sc = s_fixed_crt(s, N20_R_N);
    assert_int_equal(t_order(s, N20_FRENCH, "declare GERARD -> ZIETEN", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->phasing, N20_ALLIED); /* the French Combat Phase is over */
    assert_int_equal(s->fatigue[g], N20_FAT_WEARY); /* fought, and still adjacent to ZIETEN */
    assert_int_equal(s->fatigue[z], N20_FAT_READY);
    assert_int_equal(s->fatigue[v], N20_FAT_FRESH);
    assert_int_equal(s->fatigue[r], N20_FAT_WEARY);
    assert_int_equal(s->fatigue[t], N20_FAT_TIRED);
    HAS(&ev, "[16.8.3] VANDAMME recovers: now Fresh");
    HASNT(&ev, "GERARD recovers");
    free(s);
    free(sc);
}


/* ---- [16.10] Variable Weather ------------------------------------------------------- */

static n20_state *s_weather_state(t_dice *d, uint32_t opts) {
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    n20_state *s = n20_state_new(sc);
    n20_setup(s, &d->d, NULL, opts, NULL);
    n20_run(s, &d->d, NULL);
    return s;
}

/* [3.0] [16.10] Cloudy box, Worsening side; the printed track is not used; no roll in the
 * skipped first French Random Events Phase */
static void test_n20_16_10_setup_cloudy_worsening(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_weather_state(&d, N20_OPT_VAR_WEATHER);
    assert_int_equal(s->turn, 9);
    assert_int_equal(s->wx, N20_W_CLOUDY);
    assert_int_equal(s->wx_worse, 1);
    assert_int_equal(s->mud, 0);
    assert_int_equal(n20_weather(s), N20_W_CLOUDY); /* the track prints Clear on Turn 9 */
    assert_int_equal(s_rolled(&d, "16.10"), 0);
    free(s);
    t_dice_init(&d, 1);
    s = s_weather_state(&d, 0);
    assert_int_equal(n20_weather(s), N20_W_CLEAR);
    free(s);
}

/* [16.10.1] the two trend tables, die by die, from Showers; never better than Clear */
static void test_n20_16_10_1_trend_tables(void **st) {
    (void)st;
    /* expected box after the roll from Showers: Improving then Worsening side (Storm = Downpour) */
    static const int exp[2][6] = {
        {N20_W_DOWNPOUR, N20_W_SHOWERS, N20_W_SHOWERS, N20_W_SHOWERS, N20_W_CLOUDY, N20_W_CLEAR},
        {N20_W_DOWNPOUR, N20_W_DOWNPOUR, N20_W_SHOWERS, N20_W_SHOWERS, N20_W_SHOWERS, N20_W_CLOUDY}};
    for (int side = 0; side < 2; side++)
        for (uint32_t die = 1; die <= 6; die++) {
            t_dice d;
            t_dice_init(&d, 1);
            n20_state *s = s_weather_state(&d, N20_OPT_VAR_WEATHER);
            s->phasing = N20_FRENCH;
            s->wx = N20_W_SHOWERS;
            s->wx_worse = (uint8_t)side;
            int before = d.npurposes;
            t_dice_script(&d, 1, &die);
            t_events ev = {0};
            n20_out out = {t_events_emit, &ev};
            n20_weather_roll(s, &d.d, &out);
            assert_int_equal(d.npurposes, before + 1);
            assert_string_equal(d.purposes[before], "16.10.1 weather");
            assert_int_equal(s->wx, exp[side][die - 1]);
            /* from Clear, an improving 6 stays Clear */
            s->wx = N20_W_CLEAR;
            s->mud = 0;
            uint32_t six = 6;
            t_dice_script(&d, 1, &six);
            n20_weather_roll(s, &d.d, &out);
            assert_int_equal(s->wx, N20_W_CLEAR);
            free(s);
        }
    /* the Allied player never rolls */
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = s_weather_state(&d, N20_OPT_VAR_WEATHER);
    s->phasing = N20_ALLIED;
    int before = d.npurposes;
    n20_weather_roll(s, &d.d, NULL);
    assert_int_equal(d.npurposes, before);
    free(s);
}

/* [16.10.1] drawing Event card #12 flips the Weather marker; the French roll follows the event */
static void test_n20_16_10_1_card_12_flips_marker(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_state *s = s_weather_state(&d, N20_OPT_VAR_WEATHER);
    int c12 = -1;
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == 12) c12 = i;
    assert_true(c12 >= 0);
    /* put #12 on top of the Draw Pile at the start of the French Turn 10 */
    s->ndiscard = 0;
    s->draw[0] = (uint8_t)c12;
    s->ndraw = 1;
    s->turn = 10;
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_EVENTS;
    s->first_turn_done = 1;
    uint32_t r[] = {3};
    t_dice_script(&d, 1, r);
    n20_out out = {t_events_emit, &ev};
    int before = d.npurposes;
    n20_run(s, &d.d, &out);
    assert_int_equal(s->wx_worse, 0);
    HAS(&ev, "[16.10.1] the Weather marker is flipped to its Improving side");
    HAS(&ev, "[16.10.1] weather roll 3 (Improving side): cloudy");
    assert_int_equal(s_rolled(&d, "16.10.1 weather"), 1);
    assert_true(d.npurposes > before);
    free(s);
}

/* [16.10.2] a Storm puts the Mud marker one turn ahead and the Weather marker on Downpour; a
 * Downpour advances it; Showers with Mud combine; the marker goes at the end of its turn */
static void test_n20_16_10_2_storm_and_mud(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_state *s = s_weather_state(&d, N20_OPT_VAR_WEATHER);
    s->turn = 16;
    s->phasing = N20_FRENCH;
    s->wx = N20_W_SHOWERS;
    s->wx_worse = 1;
    uint32_t r1 = 1; /* Worsening 1: two spaces left, Showers -> Storm */
    t_dice_script(&d, 1, &r1);
    n20_weather_roll(s, &d.d, &out);
    assert_int_equal(s->wx, N20_W_DOWNPOUR);
    assert_int_equal(s->mud, 17);
    assert_int_equal(n20_weather(s), N20_W_DOWNPOUR); /* Downpour effects only */
    HAS(&ev, "Storm, the marker returns to downpour");
    n20_weather_turn_end(s, &out); /* end of Turn 16: the marker is on Turn 17 */
    assert_int_equal(s->mud, 17);
    s->turn = 17;
    uint32_t r2 = 4; /* no change: still Downpour, the Mud marker advances */
    t_dice_script(&d, 1, &r2);
    n20_weather_roll(s, &d.d, &out);
    assert_int_equal(s->mud, 18);
    n20_weather_turn_end(s, &out);
    s->turn = 18;
    s->wx_worse = 0;
    uint32_t r3 = 5; /* Improving 5: one space right, Downpour -> Showers; Mud stays */
    t_dice_script(&d, 1, &r3);
    n20_weather_roll(s, &d.d, &out);
    assert_int_equal(s->wx, N20_W_SHOWERS);
    assert_int_equal(s->mud, 18);
    assert_int_equal(n20_weather(s), N20_W_SHOWERS_MUD);
    /* combined: Infantry -1 (Showers), allowance -1 and Artillery not doubled (Mud) */
    int g = n20_unit_find(s, "GERARD"), a = n20_unit_find(s, "ARTILLERY"), m = n20_unit_find(s, "MILHAUD");
    assert_int_equal(n20_combat_strength(s, g, 1, 0, 0), 1);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 2);
    s->move_mod = 0;
    memset(s->fm, 0, sizeof s->fm);
    assert_int_equal(n20_move_allowance(s, m), 2);
    /* Clear or Cloudy with Mud: no Infantry penalty, the rest of Mud */
    s->wx = N20_W_CLOUDY;
    assert_int_equal(n20_weather(s), N20_W_MUD);
    assert_int_equal(n20_combat_strength(s, g, 1, 0, 0), 2);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 2);
    assert_int_equal(n20_move_allowance(s, m), 2);
    n20_weather_turn_end(s, &out); /* end of Turn 18: removed */
    assert_int_equal(s->mud, 0);
    HAS(&ev, "[16.10.2] the Mud marker is removed");
    s->turn = 19;
    assert_int_equal(n20_weather(s), N20_W_CLOUDY);
    assert_int_equal(n20_combat_strength(s, a, 1, 0, 0), 4);
    assert_int_equal(n20_move_allowance(s, m), 3);
    /* a Downpour with no Mud marker places none */
    s->wx = N20_W_SHOWERS;
    s->wx_worse = 1;
    uint32_t r4 = 2;
    t_dice_script(&d, 1, &r4);
    n20_weather_roll(s, &d.d, &out);
    assert_int_equal(s->wx, N20_W_DOWNPOUR);
    assert_int_equal(s->mud, 0);
    free(s);
}


/* ---- [16.4] Additional Rally Locations ---------------------------------------------- */

/* the Allied player places the rallied ORANGE (Anglo-Dutch LOC hexes 2502, 2505) */
static n20_state *s_place_pos(t_dice *d, uint32_t opts) {
    n20_state *s = t_empty(d, 12, N20_ALLIED);
    s->opts = opts;
    int o = n20_unit_find(s, "ORANGE");
    s->u[o].where = N20_U_BROKEN;
    s->u[o].flags = N20_UF_RALLIED;
    s->phase = N20_PH_PLACE;
    return s;
}

/* [16.4] an empty Town or friendly Objective hex, 4+ hexes from the enemy and closer to the
 * nearest LOC hex than the enemy, with a clear path: Waterloo 2102 */
static void test_n20_16_4_rally_hex_accepted(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_place_pos(&d, 0);
    t_place(s, "DERLON", 1505);
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 2102", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "10.0"); /* LOC hexes only without the option */
    assert_false(t_legal_has(s, N20_ALLIED, "place ORANGE 2102"));
    free(s);

    s = s_place_pos(&d, N20_OPT_RALLY_LOCATIONS);
    t_place(s, "DERLON", 1505);
    assert_true(t_legal_has(s, N20_ALLIED, "place ORANGE 2102"));  /* Waterloo: Town, Allied Objective */
    assert_true(t_legal_has(s, N20_ALLIED, "place ORANGE 1901"));  /* Braine l'Alleud: Town */
    assert_true(t_legal_has(s, N20_ALLIED, "place ORANGE 2502"));  /* the LOC hexes still */
    assert_false(t_legal_has(s, N20_ALLIED, "place ORANGE 2103")); /* clear */
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 2103", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.4");
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 2102", &d, &ev, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "ORANGE")].hex, n20_hex(2102));
    HAS(&ev, "ORANGE is placed at 2102");
    free(s);
}

/* [16.4] refused: occupied; less than 4 hexes from an enemy unit; not closer to the nearest LOC
 * hex than the nearest enemy unit is */
static void test_n20_16_4_rally_hex_safe_distance(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_place_pos(&d, N20_OPT_RALLY_LOCATIONS);
    t_place(s, "DERLON", 1505);
    t_place(s, "RESERVE", 2102);
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 2102", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "not empty") != NULL);
    free(s);

    s = s_place_pos(&d, N20_OPT_RALLY_LOCATIONS);
    t_place(s, "DERLON", 1803); /* 3 hexes from Waterloo */
    assert_int_equal(n20_distance(n20_hex(1803), n20_hex(2102)), 3);
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 2102", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.4");
    assert_true(strstr(err.message, "safe distance") != NULL);
    free(s);

    s = s_place_pos(&d, N20_OPT_RALLY_LOCATIONS);
    t_place(s, "DERLON", 2306); /* 4 from Braine l'Alleud, but nearer its LOC hex 2502 */
    assert_true(n20_distance(n20_hex(2306), n20_hex(1901)) >= 4);
    assert_true(n20_distance(n20_hex(2306), n20_hex(2502)) <= n20_distance(n20_hex(1901), n20_hex(2502)));
    assert_int_equal(t_order(s, N20_ALLIED, "place ORANGE 1901", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "not closer") != NULL);
    free(s);
}

/* [16.4] the path to the LOC hex: no hex containing or adjacent to an enemy unit, no Major
 * River hexside without bridge or ford */
static void test_n20_16_4_rally_path_tracing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 12, N20_ALLIED);
    s->opts = N20_OPT_RALLY_LOCATIONS;
    uint16_t from = n20_hex(1901), loc = n20_hex(2502);
    assert_int_equal(n20_rally_path(s, N20_ALLIED, from, loc), 1);
    /* a French screen across row 22: every hex of the row is occupied or adjacent to a unit */
    t_place(s, "DERLON", 2202);
    t_place(s, "REILLE", 2205);
    t_place(s, "VANDAMME", 2208);
    t_place(s, "GERARD", 2211);
    assert_int_equal(n20_rally_path(s, N20_ALLIED, from, loc), 0);
    assert_int_equal(n20_rally_path(s, N20_FRENCH, n20_hex(2005), n20_hex(2405)), 1); /* own units do not block */
    /* a gap at the western end of the screen opens the path */
    s->u[n20_unit_find(s, "DERLON")].where = N20_U_OUT;
    assert_int_equal(n20_rally_path(s, N20_ALLIED, from, loc), 1);
    /* close the gap with a Major River without bridge or ford (a copy of the map) */
    n20_scenario *sc = malloc(sizeof *sc);
    memcpy(sc, s->sc, sizeof *sc);
    for (unsigned c = 1; c <= 3; c++) {
        uint16_t h = n20_hex(2200 + c);
        for (int dir = 0; dir < 6; dir++) {
            uint16_t n;
            if (n20_neighbor(sc, h, dir, &n) < 0 || n20_xxyy(n) / 100 != 21) continue;
            int back = n20_dir(sc, n, h);
            sc->river[h][dir] = sc->river[n][back] = N20_RIV_MAJOR;
            sc->cross[h][dir] = sc->cross[n][back] = N20_X_NONE;
        }
    }
    s->sc = sc;
    assert_int_equal(n20_rally_path(s, N20_ALLIED, from, loc), 0);
    /* a bridge on one of those hexsides opens it again */
    uint16_t h = n20_hex(2202), n;
    for (int dir = 0; dir < 6; dir++)
        if (n20_neighbor(sc, h, dir, &n) == 0 && n20_xxyy(n) / 100 == 21) {
            sc->cross[h][dir] = sc->cross[n][n20_dir(sc, n, h)] = N20_X_BRIDGE;
            break;
        }
    assert_int_equal(n20_rally_path(s, N20_ALLIED, from, loc), 1);
    free(s);
    free(sc);
}


/* ---- [16.5] Unit Reduction, [16.6] Unit Breakdown and Buildup ------------------------ */

/* French Night Operations, Turn 12: a Rally with DERLON (Infantry) and KELLERMANN (Cavalry) Broken */
static n20_state *s_rally_pos(t_dice *d, uint32_t opts) {
    n20_state *s = t_empty(d, 12, N20_FRENCH);
    s->opts = opts;
    s->u[n20_unit_find(s, "DERLON")].where = N20_U_BROKEN;
    s->u[n20_unit_find(s, "KELLERMANN")].where = N20_U_BROKEN;
    s->phase = N20_PH_RALLY;
    return s;
}

/* [16.5.1] "Cadre?" for an Infantry unit: it may be eliminated for a rallied Cadre unit */
static void test_n20_16_5_1_cadre_result_partial_rally(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_rally_pos(&d, N20_OPT_UNIT_REDUCTION);
    int de = n20_unit_find(s, "DERLON"), ke = n20_unit_find(s, "KELLERMANN"), c1 = n20_unit_find(s, "CADRE-F1");
    assert_true(c1 >= 0);
    assert_int_equal(s->u[c1].where, N20_U_OUT); /* in the force pool */
    uint32_t r[] = {4, 4}; /* 4 = Cadre? for both (no modifier) */
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally", &d, &ev, &err), 0);
    assert_int_equal(s_rolled(&d, "10.0 rally"), 2);
    assert_int_equal(s->phase, N20_PH_PLACE);
    HAS(&ev, "DERLON rally roll 4 (modified 4): Cadre? (16.5.1");
    assert_true(t_legal_has(s, N20_FRENCH, "reduce DERLON"));
    assert_false(t_legal_has(s, N20_FRENCH, "reduce KELLERMANN")); /* Infantry only */
    assert_int_equal(t_order(s, N20_FRENCH, "reduce KELLERMANN", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.5.1");
    assert_int_equal(t_order(s, N20_FRENCH, "reduce DERLON", &d, &ev, &err), 0);
    assert_int_equal(s->u[de].where, N20_U_ELIM);
    assert_int_equal(s->u[c1].where, N20_U_BROKEN);
    assert_true(s->u[c1].flags & N20_UF_RALLIED);
    HAS(&ev, "[16.5.1] DERLON is eliminated; the Cadre unit CADRE-F1 is Rallied instead");
    assert_true(t_legal_has(s, N20_FRENCH, "place CADRE-F1 0105"));
    assert_int_equal(t_order(s, N20_FRENCH, "place CADRE-F1 0105", &d, &ev, &err), 0);
    assert_int_equal(s->u[c1].where, N20_U_MAP);
    assert_int_equal(s->u[ke].where, N20_U_BROKEN);
    free(s);

    /* without the option the unit stays Broken; declining keeps it Broken too */
    t_events ev2 = {0};
    t_dice_init(&d, 1);
    s = s_rally_pos(&d, 0);
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally", &d, &ev2, &err), 0);
    HAS(&ev2, "Cadre? (16.5 not in use: stays Broken)");
    assert_int_equal(s->u[de].where, N20_U_BROKEN);
    assert_int_equal(s->u[de].flags & N20_UF_CADRE_Q, 0);
    free(s);
    t_dice_init(&d, 1);
    s = s_rally_pos(&d, N20_OPT_UNIT_REDUCTION);
    t_dice_script(&d, 2, r);
    assert_int_equal(t_order(s, N20_FRENCH, "rally", &d, &ev2, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev2, &err), 0);
    assert_int_equal(s->u[de].where, N20_U_BROKEN);
    assert_int_equal(s->u[de].flags & N20_UF_CADRE_Q, 0);
    assert_int_equal(s->u[c1].where, N20_U_OUT);
    free(s);
}

/* [16.5.2] a Broken Cadre unit cannot be Rallied: it returns to the pool (Morale as usual) */
static void test_n20_16_5_2_broken_cadre_returns_to_pool(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    s->opts = N20_OPT_UNIT_REDUCTION;
    t_place(s, "ZIETEN", 606);
    int c = t_place(s, "CADRE-F1", 505);
    s->phase = N20_PH_DECLARE;
    s->morale[N20_FRENCH] = 5;
    n20_scenario *sc = s_fixed_crt(s, N20_R_DB);
    assert_int_equal(t_order(s, N20_ALLIED, "declare ZIETEN -> CADRE-F1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "resolve 1", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "no-reserve", &d, &ev, &err), 0);
    assert_int_equal(s->u[c].where, N20_U_OUT);
    assert_int_equal(s->morale[N20_FRENCH], 5 - s->sc->mc_break_owner);
    assert_false(n20_has_broken(s, N20_FRENCH, -1));
    HAS(&ev, "CADRE-F1 is Broken");
    free(s);
    free(sc);
}

/* [16.6.1] before it moves, a large Infantry unit breaks down into two Cadre units for one
 * Morale Point; the Cadres are free to move */
static void test_n20_16_6_1_breakdown_two_cadres(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_BREAKDOWN;
    int re = t_place(s, "REILLE", 1505);
    t_place(s, "GERARD", 1508);
    t_place(s, "KELLERMANN", 1511);
    int m0 = s->morale[N20_FRENCH];
    assert_true(t_legal_has(s, N20_FRENCH, "breakdown REILLE"));
    assert_false(t_legal_has(s, N20_FRENCH, "breakdown KELLERMANN"));
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown KELLERMANN", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "16.6");
    assert_int_equal(t_order(s, N20_FRENCH, "move GERARD 1509", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown GERARD", &d, &ev, &err), -1); /* it has moved */
    assert_true(strstr(err.message, "before it moves") != NULL);
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown REILLE", &d, &ev, &err), 0);
    int c1 = n20_unit_find(s, "CADRE-F1"), c2 = n20_unit_find(s, "CADRE-F2");
    assert_int_equal(s->u[re].where, N20_U_ELIM);
    assert_int_equal(s->u[c1].where, N20_U_MAP);
    assert_int_equal(s->u[c1].hex, n20_hex(1505));
    assert_int_equal(s->u[c2].hex, n20_hex(1505));
    assert_int_equal(s->morale[N20_FRENCH], m0 - 1);
    HAS(&ev, "[16.6.1] REILLE breaks down into CADRE-F1 and CADRE-F2 at 1505");
    assert_int_equal(t_order(s, N20_FRENCH, "move CADRE-F1 1506 1507", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, &ev, &err), 0);
    assert_int_equal(s->u[c2].hex, n20_hex(1505));
    assert_int_equal(s->morale[N20_FRENCH], m0 - 1);
    free(s);

    /* two Cadres are needed (two of the four are on the map), and a Morale Point */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_BREAKDOWN;
    t_place(s, "REILLE", 1505);
    t_place(s, "CADRE-F1", 1508);
    t_place(s, "CADRE-F2", 1510);
    t_place(s, "CADRE-F3", 1512);
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown REILLE", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.6.1");
    s->u[n20_unit_find(s, "CADRE-F3")].where = N20_U_OUT;
    s->morale[N20_FRENCH] = 0;
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown REILLE", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "Morale Point") != NULL);
    free(s);

    /* without the option */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 1505);
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown REILLE", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.6");
    assert_false(t_legal_has(s, N20_FRENCH, "breakdown REILLE"));
    free(s);
}

/* [16.6.2] two Cadres of one nationality ending the Movement Phase stacked become the weakest
 * eliminated large Infantry unit of that nationality, for +1 Morale */
static void test_n20_16_6_2_combine_into_weakest(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = t_empty(&d, 9, N20_ALLIED);
    s->opts = N20_OPT_BREAKDOWN;
    s->morale[N20_ALLIED] = 5;
    int pi = n20_unit_find(s, "PIRCH"), th = n20_unit_find(s, "THIELMANN");
    s->u[pi].where = N20_U_ELIM;
    s->u[th].where = N20_U_ELIM;
    int a = t_place(s, "CADRE-P1", 1505), b = t_place(s, "CADRE-P2", 1507);
    t_place(s, "CADRE-A1", 1509);
    assert_true(t_legal_has(s, N20_ALLIED, "move CADRE-P2 1506 1505"));
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-A1 1508 1507", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "6.9"); /* an Anglo-Dutch and a Prussian Cadre do not combine */
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-P2 1506 1505", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-A1 1508 1507 1506 1505", &d, &ev, &err), -1); /* no third */
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_int_equal(s->u[th].where, N20_U_MAP); /* THIELMANN (2) is weaker than PIRCH (3) */
    assert_int_equal(s->u[th].hex, n20_hex(1505));
    assert_int_equal(s->u[pi].where, N20_U_ELIM);
    assert_int_equal(s->u[a].where, N20_U_OUT);
    assert_int_equal(s->u[b].where, N20_U_OUT);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    HAS(&ev, "[16.6.2] CADRE-P1 and CADRE-P2 combine into THIELMANN at 1505");
    free(s);

    /* with no eliminated large unit to build up, two Cadres may not stay stacked [6.9] */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_ALLIED);
    s->opts = N20_OPT_BREAKDOWN;
    t_place(s, "CADRE-P1", 1505);
    t_place(s, "CADRE-P2", 1507);
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-P2 1506 1505", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.9");
    free(s);

    /* [16.9.2] a Leader in the hex does not count: the pair still combines (random play once
     * found the Movement Phase unable to end with NAPOLEON on two French Cadres) */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    s->opts = N20_OPT_BREAKDOWN | N20_OPT_LEADERS;
    s->u[n20_unit_find(s, "VANDAMME")].where = N20_U_ELIM;
    t_place(s, "CADRE-F1", 707);
    t_place(s, "CADRE-F2", 707);
    t_place(s, "NAPOLEON", 707);
    assert_int_equal(n20_end_move_check(s, &err), 0);
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    assert_int_equal(t_order(s, N20_FRENCH, "end", &d, NULL, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "VANDAMME")].where, N20_U_MAP);
    free(s);
}

/* the event kinds of the optional rules seen in random play */
static const char *s_kinds[] = {"artillery-support", "bombardment", "penetrated", "fatigue", "weather",
                                "mud", "reduced", "breakdown", "buildup", "placed"};
#define NKINDS (sizeof s_kinds / sizeof s_kinds[0])
static int s_seen[NKINDS];

static void s_count_emit(void *ctx, const uint8_t *data, size_t len) {
    (void)ctx;
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__event__descriptor, data, len, 0, &m) != CANON_OK) return;
    N20__V1__Event *e = (N20__V1__Event *)m;
    for (size_t k = 0; k < NKINDS; k++)
        if (strcmp(e->kind, s_kinds[k]) == 0) s_seen[k]++;
    protobuf_c_message_free_unpacked(m, NULL);
}

/* orders only an optional rule allows: penetrate, reduce, a Bombardment */
static int s_optional_order(const uint8_t *item, size_t len) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__order__descriptor, item, len, 0, &m) != CANON_OK) return 0;
    N20__V1__Order *o = (N20__V1__Order *)m;
    int r = o->kind_case == N20__V1__ORDER__KIND_PENETRATE || o->kind_case == N20__V1__ORDER__KIND_REDUCE;
    if (o->kind_case == N20__V1__ORDER__KIND_DECLARE)
        for (size_t i = 0; i < o->declare->n_battles; i++)
            if (o->declare->battles[i]->n_attackers == 1 &&
                strcmp(o->declare->battles[i]->attackers[0], "ARTILLERY") == 0)
                r = 1;
    protobuf_c_message_free_unpacked(m, NULL);
    return r;
}

static int s_seen_kind(const char *kind) {
    for (size_t k = 0; k < NKINDS; k++)
        if (strcmp(kind, s_kinds[k]) == 0) return s_seen[k];
    return 0;
}

/* one game of random legal orders with the options; with check_all every listed order is
 * applied to a copy (legal/apply agreement); returns the number of orders, fills the final hash */
static int s_play(uint64_t seed, uint32_t opts, int check_all, uint8_t hash[32], int *ended) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {s_count_emit, NULL};
    n20_state *s = t_play_start("waterloo20-standard", opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    while (!s->over && steps < 20000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) fail_msg("seed %llu opts %x: no legal order (phase %d)", (unsigned long long)seed, opts, s->phase);
        assert_int_equal(t_legal_n(s, (unsigned)(1 - seat)), 0); /* the other seat has nothing to do */
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        if (t_rng(&rng) % 2 == 0) { /* half the time prefer an order of an optional rule */
            size_t p2 = 0;
            const uint8_t *it;
            size_t l2;
            int k = 0, pref[64], npref = 0;
            while (buf_next_item(&legal, &p2, &it, &l2) == 1) {
                if (s_optional_order(it, l2) && npref < 64) pref[npref++] = k;
                k++;
            }
            if (npref) pick = pref[t_rng(&rng) % (uint64_t)npref];
        }
        n20_out quiet = {NULL, NULL}; /* the copies stay silent */
        char tag[96];
        snprintf(tag, sizeof tag, "seed %llu opts %x", (unsigned long long)seed, opts);
        size_t clen;
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, check_all, &d, &quiet, tag, &clen);
        assert_non_null(chosen);
        brt_reject err;
        if (n20_apply(s, (unsigned)seat, chosen, clen, &d.d, &out, &err) != 0)
            fail_msg("seed %llu: chosen order rejected: %s", (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    *ended = s->over;
    t_hash(s, hash);
    free(s);
    return steps;
}

/* fixed seeds; every legal order of the first game is checked against apply() */
static void s_random_seeds(uint32_t opts, uint64_t seeds) {
    memset(s_seen, 0, sizeof s_seen);
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        int n1 = s_play(seed, opts, seed == 1, h1, &e1);
        assert_true(e1); /* [15.0] the game ends with a result */
        int n2 = s_play(seed, opts, 0, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
    if (getenv("N20_OPT_KINDS")) /* which optional-rule events random play reached */
        for (size_t k = 0; k < NKINDS; k++) fprintf(stderr, "opts %x: %s %d\n", opts, s_kinds[k], s_seen[k]);
}

static void s_random_with(uint32_t opts) { s_random_seeds(opts, 2); }

static void test_n20_16_3_random_artillery_support(void **st) { (void)st; s_random_with(N20_OPT_ART_SUPPORT); }
static void test_n20_16_2_random_cavalry_penetration(void **st) { (void)st; s_random_with(N20_OPT_CAV_PENETRATION); }
static void test_n20_16_8_random_fatigue(void **st) {
    (void)st;
    s_random_with(N20_OPT_FATIGUE);
    assert_true(s_seen_kind("fatigue") > 0); /* the rule was exercised */
}
static void test_n20_16_10_random_variable_weather(void **st) {
    (void)st;
    s_random_with(N20_OPT_VAR_WEATHER);
    assert_true(s_seen_kind("weather") > 0);
}
static void test_n20_16_4_random_rally_locations(void **st) { (void)st; s_random_with(N20_OPT_RALLY_LOCATIONS); }
static void test_n20_16_5_random_unit_reduction(void **st) { (void)st; s_random_with(N20_OPT_UNIT_REDUCTION); }
static void test_n20_16_6_random_breakdown(void **st) {
    (void)st;
    s_random_with(N20_OPT_BREAKDOWN);
    assert_true(s_seen_kind("breakdown") > 0);
}
/* every option of this file at once */
static void test_n20_16_random_all_options(void **st) {
    (void)st;
    s_random_seeds(N20_OPT_ART_SUPPORT | N20_OPT_CAV_PENETRATION | N20_OPT_FATIGUE | N20_OPT_VAR_WEATHER |
                       N20_OPT_RALLY_LOCATIONS | N20_OPT_UNIT_REDUCTION | N20_OPT_BREAKDOWN | N20_OPT_OLD_DAYS,
                   3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_16_3_1_defensive_support_adds_one),
        cmocka_unit_test(test_n20_16_3_1_no_support_when_artillery_attacked),
        cmocka_unit_test(test_n20_16_3_2_bombardment_printed_strength),
        cmocka_unit_test(test_n20_16_3_2_bombardment_ab_is_aw),
        cmocka_unit_test(test_n20_16_3_2_bombardment_ab_with_others),
        cmocka_unit_test(test_n20_16_3_2_bombardment_ex),
        cmocka_unit_test(test_n20_16_3_random_artillery_support),
        cmocka_unit_test(test_n20_16_2_penetration_moves_next_to_enemy),
        cmocka_unit_test(test_n20_16_2_penetration_restrictions),
        cmocka_unit_test(test_n20_16_2_random_cavalry_penetration),
        cmocka_unit_test(test_n20_16_8_1_exhaustion_raises_one_level),
        cmocka_unit_test(test_n20_16_8_2_tired_and_weary_movement),
        cmocka_unit_test(test_n20_16_8_2_spent_cannot_enter_ezoc),
        cmocka_unit_test(test_n20_16_8_3_recovery_not_adjacent),
        cmocka_unit_test(test_n20_16_8_random_fatigue),
        cmocka_unit_test(test_n20_16_10_setup_cloudy_worsening),
        cmocka_unit_test(test_n20_16_10_1_trend_tables),
        cmocka_unit_test(test_n20_16_10_1_card_12_flips_marker),
        cmocka_unit_test(test_n20_16_10_2_storm_and_mud),
        cmocka_unit_test(test_n20_16_10_random_variable_weather),
        cmocka_unit_test(test_n20_16_4_rally_hex_accepted),
        cmocka_unit_test(test_n20_16_4_rally_hex_safe_distance),
        cmocka_unit_test(test_n20_16_4_rally_path_tracing),
        cmocka_unit_test(test_n20_16_4_random_rally_locations),
        cmocka_unit_test(test_n20_16_5_1_cadre_result_partial_rally),
        cmocka_unit_test(test_n20_16_5_2_broken_cadre_returns_to_pool),
        cmocka_unit_test(test_n20_16_6_1_breakdown_two_cadres),
        cmocka_unit_test(test_n20_16_6_2_combine_into_weakest),
        cmocka_unit_test(test_n20_16_5_random_unit_reduction),
        cmocka_unit_test(test_n20_16_6_random_breakdown),
        cmocka_unit_test(test_n20_16_random_all_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
