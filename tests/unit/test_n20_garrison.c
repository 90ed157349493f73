/*
 * test_n20_garrison.c - rule cases of Garrison Forces [9.4.4]-[9.4.4.5] (Waterloo 20's text, which
 * Danube 20 plays too: rulings R-dn-9.4.4), Redoubt hexes (A-E [9.10], v3 [7.0] [9.8.1]) and the
 * Wagram 20 Lobau Island Batteries [9.11]. docs/n20-cases/danube-garrison.md maps every case to
 * its test. The Waterloo 20 map has no Garrison: the position is a scenario of the test's own,
 * the Standard Scenario plus Garrison and Battery records and a Redoubt hex, played in each
 * edition (the Garrison rules are the same in both: every test runs in both and asserts each).
 *
 * CRT (scenario data), differential columns -2 .. +4:
 *   die 1: AB AR AR AW N  EX EX      die 4: AR N  DW DW DR DR DR
 *   die 2: AR AR AW N  DW DW DW      die 5: AW DW DW DR DR DR DB
 *   die 3: AR AW N  DW DW DW DR      die 6: N  DW DR DR DR DB DB
 * Terrain: Town +1, Fortified +2, Redoubt +2 (this scenario's `tec redoubt` record).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- the scenario ------------------------------------------------------------ */

static const char *s_text =
    "base waterloo20-standard all | RULEBOOK 17.0 the Standard Scenario's map and set-up\n"
    "tec redoubt 1 2 | RECONSTRUCTED a test value: a Redoubt as a Fortified hex\n"
    "hex 1205 redoubt | RECONSTRUCTED a test Redoubt hex\n"
    "unit GARF french french inf 0 0 garrison hex 0505 | RECONSTRUCTED a test French Garrison\n"
    "unit GARA allied anglo inf 0 0 garrison hex 0708 | RECONSTRUCTED a test Allied Garrison (St Amand)\n"
    "unit BAT french french art 2 0 garrison,battery hex 1410 | RECONSTRUCTED a test Battery (Wagram 9.11)\n";

static n20_scenario s_sc[2]; /* [0] v3, [1] v4 */

static const n20_scenario *s_scenario(int edition) {
    n20_scenario *sc = &s_sc[edition == N20_ED_V3 ? 0 : 1];
    if (!sc->nunits) {
        char msg[200];
        int rc = n20_data_parse(s_text, strlen(s_text), sc, msg, sizeof msg);
        if (rc != 0) fail_msg("scenario: %s", msg);
        sc->edition = (uint8_t)edition;
    }
    return sc;
}

/* an empty map of the edition's scenario at `phase` of `turn`, both sides on 6 Morale Points (as
 * t_pos) */
static n20_state *g_pos(int edition, t_dice *d, int turn, int phasing, int phase) {
    n20_state *s = n20_state_new(s_scenario(edition));
    assert_non_null(s);
    assert_int_equal(n20_setup(s, &d->d, NULL, 0u, NULL), 0);
    n20_run(s, &d->d, NULL);
    t_clear_map(s);
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)phasing;
    s->phase = (uint8_t)phase;
    memset(s->fm, 0, sizeof s->fm);
    s->move_mod = 0;
    s->nbattles = 0;
    memset(&s->f, 0, sizeof s->f);
    s->morale[N20_FRENCH] = 6;
    s->morale[N20_ALLIED] = 6;
    d->npurposes = 0;
    return s;
}

/* the Garrison `id` intact at xxyy */
static int g_garrison(n20_state *s, const char *id, unsigned xxyy) {
    int g = n20_unit_find(s, id);
    assert_true(g >= 0);
    n20_garrison_place(s, g, n20_hex(xxyy));
    return g;
}

/* the locals of a test run once per edition (ed = N20_ED_V3, then N20_ED_V4) */
#define G_SETUP(turn, phasing, phase) \
    t_dice d;                         \
    t_dice_init(&d, 1);               \
    t_events ev = {0};                \
    brt_reject err;                   \
    (void)err;                        \
    (void)ev;                         \
    n20_state *s = g_pos(ed, &d, turn, phasing, phase)
#define EDITIONS for (int ed = N20_ED_V3; ed <= N20_ED_V4; ed++)

/* ---- the representation -------------------------------------------------------- */

/* [9.4.4] a Garrison record sets up as a Garrison Force, not as a unit on the map; Waterloo 20
 * scenarios have none */
static void test_n20_9_4_4_garrison_sets_up_as_intrinsic_force(void **st) {
    (void)st;
    EDITIONS {
        t_dice d;
        t_dice_init(&d, 1);
        n20_state *s = n20_state_new(s_scenario(ed));
        assert_int_equal(n20_setup(s, &d.d, NULL, 0u, NULL), 0);
        int g = n20_unit_find(s, "GARF");
        assert_int_equal(s->u[g].where, N20_U_GARRISON);
        assert_int_equal(s->u[g].hex, n20_hex(505));
        assert_int_equal(n20_unit_at(s, n20_hex(505)), -1); /* not a unit for stacking [9.4.4.1] */
        assert_int_equal(n20_garrison_at(s, n20_hex(505)), g);
        assert_true(s->sc->dn.has_garrison);
        free(s);
        /* [16.1] with fog-of-war the units set up face-down, a Garrison (a flag on the map) face-up */
        s = n20_state_new(s_scenario(ed));
        assert_int_equal(n20_setup(s, &d.d, NULL, N20_OPT_FOG, NULL), 0);
        assert_int_equal(s->u[g].hidden, 0);
        assert_int_equal(s->u[n20_unit_find(s, "REILLE")].hidden, 1);
        free(s);
    }
    assert_false(n20_scenario_get("waterloo20-standard")->dn.has_garrison);
}

/* [9.4.4] a Garrison is shown as a flag of its side at its hex, not as a counter; the view gives
 * its hex with the status "garrison" */
static void test_n20_9_4_4_garrison_rendered_as_flag(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
        g_garrison(s, "GARF", 505);
        t_place(s, "REILLE", 504);
        brt_buf b;
        buf_init(&b);
        assert_int_equal(n20_render(s, BRT_VIEW_ALL, NULL, &b), 0);
        buf_append(&b, "", 1);
        const char *svg = (const char *)b.data;
        assert_non_null(strstr(svg, "<g class=\"garrison\" data-unit=\"GARF\" data-hex=\"0505\""));
        assert_non_null(strstr(svg, "data-unit=\"REILLE\""));
        assert_null(strstr(svg, "id=\"u-GARF\"")); /* no counter */
        buf_free(&b);
        buf_init(&b);
        assert_int_equal(n20_view(s, N20_ALLIED, &b), 0);
        N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
        assert_non_null(v);
        int seen = 0;
        for (size_t i = 0; i < v->n_units; i++)
            if (strcmp(v->units[i]->id, "GARF") == 0) {
                assert_string_equal(v->units[i]->status, "garrison");
                assert_int_equal(v->units[i]->hex, 505);
                seen = 1;
            }
        assert_true(seen);
        n20__v1__view__free_unpacked(v, NULL);
        buf_free(&b);
        free(s);
    }
}

/* ---- [9.4.4.1] abilities ---------------------------------------------------------- */

/* [9.4.4.1] a Garrison alone in its hex exerts a normal ZOC; [9.4.4] ignored completely while a
 * friendly unit occupies its hex (a Routed one, which has no ZOC [9.6.2]: then no ZOC at all) */
static void test_n20_9_4_4_1_garrison_exerts_zoc(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
        g_garrison(s, "GARF", 505);
        assert_true(n20_in_ezoc(s, n20_hex(506), N20_FRENCH, 0));
        assert_true(n20_in_ezoc(s, n20_hex(406), N20_FRENCH, 0));
        assert_false(n20_in_ezoc(s, n20_hex(507), N20_FRENCH, 0));
        n20_index ix;
        n20_index_build(s, &ix);
        assert_true(n20_ix_in_ezoc(&ix, n20_hex(506), N20_FRENCH, 0));
        assert_int_equal(n20_ix_unit_at(&ix, n20_hex(505)), -1);
        int r = t_place(s, "REILLE", 505);
        s->u[r].routed = 1 + N20_FRENCH;
        assert_false(n20_in_ezoc(s, n20_hex(506), N20_FRENCH, 0));
        free(s);
    }
}

/* [9.4.4.1] a Garrison cannot attack, and its side's attack obligations [9.1] ignore it: the
 * Garrison is in an enemy ZOC, yet no battle is needed */
static void test_n20_9_4_4_1_garrison_cannot_attack(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        g_garrison(s, "GARF", 505);
        t_place(s, "ZIETEN", 506);
        NO(N20_FRENCH, "declare GARF -> ZIETEN", "9.4.4.1");
        assert_int_equal(t_legal_count_sub(s, N20_FRENCH, "GARF ->"), 0);
        assert_int_equal(d.npurposes, 0);
        OK(N20_FRENCH, "declare");
        assert_int_equal(s->nbattles, 0);
        free(s);
    }
}

/* [9.4.4.1] a Garrison exerts a normal ZOC, so the enemy units in it must attack it [9.1] */
static void test_n20_9_4_4_1_enemy_in_garrison_zoc_must_attack_it(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        g_garrison(s, "GARF", 505);
        t_place(s, "ZIETEN", 506);
        NO(N20_ALLIED, "declare", "9.1");
        assert_true(t_legal_has(s, N20_ALLIED, "declare ZIETEN -> GARF"));
        OK(N20_ALLIED, "declare ZIETEN -> GARF");
        assert_int_equal(s->nbattles, 1);
        free(s);
    }
}

/* [9.1] [9.4.4.1] a unit not in an enemy ZOC (in a Redoubt) that attacks must also attack every
 * enemy in its own ZOC, a Garrison included */
static void test_n20_9_4_4_1_voluntary_attacker_must_attack_garrison_in_its_zoc(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        t_place(s, "ORANGE", 1205); /* the Redoubt: no ZOC into it */
        g_garrison(s, "GARF", 1204);
        t_place(s, "REILLE", 1105);
        OK(N20_ALLIED, "declare");
        free(s);
    }
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        t_place(s, "ORANGE", 1205);
        g_garrison(s, "GARF", 1204);
        t_place(s, "REILLE", 1105);
        NO(N20_ALLIED, "declare ORANGE -> REILLE", "9.1.1");
        OK(N20_ALLIED, "declare ORANGE -> REILLE,GARF");
        free(s);
    }
}

/* [9.4.4.1] a Garrison does not move: no order moves it, legal() lists none */
static void test_n20_9_4_4_1_garrison_does_not_move(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
        g_garrison(s, "GARF", 505);
        NO(N20_FRENCH, "move GARF 0504", "9.4.4.1");
        assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "move GARF"), 0);
        assert_int_equal(s->u[U("GARF")].hex, n20_hex(505));
        free(s);
    }
}

/* [9.4.4.1] friendly units move through a Garrison's hex and may end there (stacked with it) */
static void test_n20_9_4_4_1_friendly_units_move_through_and_stack(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
        g_garrison(s, "GARF", 505);
        t_place(s, "REILLE", 504);
        t_place(s, "DERLON", 404);
        assert_true(t_legal_has(s, N20_FRENCH, "move REILLE 0505 0506"));
        OK(N20_FRENCH, "move REILLE 0505 0506");
        AT("REILLE", 506);
        OK(N20_FRENCH, "move DERLON 0405 0505");
        AT("DERLON", 505);
        OK(N20_FRENCH, "end");
        assert_int_equal(s->u[U("GARF")].where, N20_U_GARRISON);
        free(s);
    }
}

/* [9.4.4.1] enemy units cannot enter a garrisoned hex (but by Advancing after Combat) */
static void test_n20_9_4_4_1_enemy_cannot_enter_garrison_hex(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
        g_garrison(s, "GARA", 1803); /* La Haye Sainte, a Town */
        t_place(s, "DERLON", 1903);  /* Mont St Jean, a Town: no ZOC between them [7.0] */
        assert_false(n20_in_ezoc(s, n20_hex(1903), N20_ALLIED, 0));
        NO(N20_FRENCH, "move DERLON 1803", "9.4.4.1");
        assert_int_equal(t_legal_count_prefix(s, N20_FRENCH, "move DERLON 1803"), 0);
        AT("DERLON", 1903);
        free(s);
    }
}

/* [9.4.4.1] enemy units cannot retreat into a garrisoned hex either: with every other hex
 * blocked the retreating unit is Broken [9.7.7]; without the Garrison it retreats there */
static void test_n20_9_4_4_1_enemy_cannot_retreat_into_garrison_hex(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
            if (garrison) g_garrison(s, "GARF", 505);
            /* ZIETEN's neighbours: 0505, and 0406 0407 0507 0606 0607 held by the attackers */
            int z = t_place(s, "ZIETEN", 506);
            t_place(s, "REILLE", 406);
            t_place(s, "DERLON", 407);
            t_place(s, "VANDAMME", 507);
            t_place(s, "GERARD", 606);
            t_place(s, "MILHAUD", 607);
            OK(N20_FRENCH, "declare REILLE,DERLON,VANDAMME,GERARD,MILHAUD -> ZIETEN");
            uint32_t r[] = {4, 2}; /* 13 vs 3, column +4, die 4: DR; rout 2 */
            assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
            if (garrison) {
                assert_true(t_events_has(&ev, s->sc->edition == N20_ED_V3 ? "[9.8.6 no retreat possible] ZIETEN is Broken"
                                                                          : "[9.7.7 no retreat possible] ZIETEN is Broken"));
                assert_int_equal(s->u[z].where, N20_U_BROKEN);
            } else {
                assert_int_equal(s->phase, N20_PH_RETREAT);
                assert_true(t_legal_count_prefix(s, N20_ALLIED, "retreat ZIETEN 0505") > 0);
            }
            free(s);
        }
    }
}

/* [9.4.4.1] [8.2.3] nor Disengage into it (it may without the Garrison) */
static void test_n20_9_4_4_1_enemy_cannot_disengage_into_garrison_hex(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_FRENCH, N20_PH_REACTION);
            if (garrison) g_garrison(s, "GARF", 505);
            t_place(s, "REILLE", 507);
            int c = t_place(s, "COLLAERT", 506);
            s->u[c].flags |= N20_UF_REACT_OK;
            assert_false(n20_in_ezoc(s, n20_hex(505), N20_FRENCH, 0));
            if (garrison) {
                NO(N20_ALLIED, "disengage COLLAERT 0505", "9.4.4.1");
                assert_false(t_legal_has(s, N20_ALLIED, "disengage COLLAERT 0505"));
                AT("COLLAERT", 506);
            } else {
                assert_true(t_legal_has(s, N20_ALLIED, "disengage COLLAERT 0505"));
            }
            free(s);
        }
    }
}

/* [9.4.4.1] [8.1] a Countercharge is an attack: it may target an active Garrison (doubled [8.1.4]),
 * and the Cavalry that wins may Advance after Combat into its hex, which destroys it [9.4.4.4] */
static void test_n20_9_4_4_1_garrison_may_be_countercharged(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_REACTION);
        int g = g_garrison(s, "GARF", 505);
        int c = t_place(s, "COLLAERT", 506); /* 1-3 */
        s->u[c].flags |= N20_UF_REACT_OK;
        assert_true(t_legal_has(s, N20_ALLIED, "countercharge COLLAERT -> GARF"));
        t_dice_script(&d, 1, (uint32_t[]){4}); /* 2 vs 0 = +2, die 4: DR */
        OK(N20_ALLIED, "countercharge COLLAERT -> GARF");
        assert_true(t_events_has(&ev, "2 vs 0 (terrain +0), differential +2, column +2, die 4: DR"));
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        OK(N20_ALLIED, "advance COLLAERT 0505");
        assert_int_equal(s->u[g].where, N20_U_ELIM);
        free(s);
    }
}

/* [9.4.4.1] [16.4] an enemy Garrison's hex is no Rally hex (a Town, but not empty) */
static void test_n20_9_4_4_1_enemy_garrison_hex_no_rally_hex(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_MOVE);
        s->opts |= N20_OPT_RALLY_LOCATIONS;
        int o = n20_unit_find(s, "ORANGE");
        memset(&err, 0, sizeof err);
        n20_rally_hex_check(s, o, n20_hex(1803), &err);
        assert_null(strstr(err.message, "is not empty"));
        g_garrison(s, "GARF", 1803);
        memset(&err, 0, sizeof err);
        assert_int_equal(n20_rally_hex_check(s, o, n20_hex(1803), &err), -1);
        assert_string_equal(err.rule, "16.4");
        assert_non_null(strstr(err.message, "is not empty"));
        free(s);
    }
}


/* [9.4.4.1] [11.0] a reinforcement cannot enter the map into an entry hex an enemy Garrison holds
 * (it may at another hex of its area, and at that hex without the Garrison) */
static void test_n20_9_4_4_1_reinforcement_cannot_enter_garrison_hex(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_ALLIED, N20_PH_MOVE);
            if (garrison) g_garrison(s, "GARF", 1701);
            int u = U("UXBRIDGE"); /* Turn 9, Area X: 1701 1801 1901 2001 */
            s->u[u].where = N20_U_REINF;
            s->u[u].arrive = 9;
            if (garrison) {
                assert_false(t_legal_has(s, N20_ALLIED, "move UXBRIDGE 1701"));
                NO(N20_ALLIED, "move UXBRIDGE 1701", "9.4.4.1");
                assert_int_equal(WHERE("UXBRIDGE"), N20_U_REINF);
                OK(N20_ALLIED, "move UXBRIDGE 1901");
                AT("UXBRIDGE", 1901);
            } else {
                assert_true(t_legal_has(s, N20_ALLIED, "move UXBRIDGE 1701"));
                OK(N20_ALLIED, "move UXBRIDGE 1701");
                AT("UXBRIDGE", 1701);
            }
            free(s);
        }
    }
}

/* [9.4.4.1] [16.9.3] a lone Leader in an EZOC retreats one hex, never into an enemy Garrison's hex
 * (the hex is open to it without the Garrison) */
static void test_n20_9_4_4_1_lone_leader_cannot_retreat_into_garrison_hex(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_FRENCH, N20_PH_MOVE);
            s->opts |= N20_OPT_LEADERS;
            if (garrison) g_garrison(s, "GARF", 1607);
            t_place(s, "REILLE", 1604);
            t_place(s, "BLUCHER", 1606);
            OK(N20_FRENCH, "move REILLE 1605 1505");
            assert_int_equal(s->phase, N20_PH_LEADER_RETREAT);
            if (garrison) {
                assert_false(t_legal_has(s, N20_ALLIED, "retreat BLUCHER 1607"));
                assert_int_equal(t_order(s, N20_ALLIED, "retreat BLUCHER 1607", &d, &ev, &err), -1);
                assert_string_equal(err.rule, ed == N20_ED_V3 ? "16.9" : "16.9.3"); /* v3 numbers it [16.9] */
                AT("BLUCHER", 1606);
                assert_true(t_legal_count_prefix(s, N20_ALLIED, "retreat BLUCHER ") > 0); /* another hex */
            } else {
                OK(N20_ALLIED, "retreat BLUCHER 1607");
                AT("BLUCHER", 1607);
            }
            free(s);
        }
    }
}

/* [9.4.4.1] [10.0] a rallied unit is not placed on a friendly LOC hex an enemy Garrison holds: the
 * hex is not empty (the other LOC hex, and that one without the Garrison, are) */
static void test_n20_9_4_4_1_rallied_unit_not_placed_on_enemy_garrison_loc(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_ALLIED, N20_PH_PLACE);
            if (garrison) g_garrison(s, "GARF", 2502); /* an Anglo-Allied LOC hex */
            int u = U("HILL");
            s->u[u].where = N20_U_BROKEN;
            s->u[u].flags |= N20_UF_RALLIED;
            memset(&err, 0, sizeof err);
            assert_int_equal(n20_place_check(s, u, n20_hex(2502), &err), garrison ? -1 : 0);
            if (garrison) {
                assert_string_equal(err.rule, "10.0");
                assert_non_null(strstr(err.message, "is not empty"));
            }
            assert_int_equal(n20_place_check(s, u, n20_hex(2505), &err), 0);
            free(s);
        }
    }
}

/* [9.4.4.1] [9.4.4.4] v4 [9.8.5]: a defeated unit retreats through its own Garrison's hex; the
 * victorious Cavalry pursuing along its Retreat Path through that hex destroys the Garrison (no
 * Morale effect [9.4.4.5]). The pursuit along the Retreat Path is the v4 rule. */
static void test_n20_9_4_4_4_cavalry_pursuit_through_garrison_hex_destroys_it(void **st) {
    (void)st;
    int ed = N20_ED_V4;
    G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    int g = g_garrison(s, "GARA", 507);
    t_place(s, "REILLE", 505);
    int m = t_place(s, "MILHAUD", 406);
    int z = t_place(s, "ZIETEN", 506);
    OK(N20_FRENCH, "declare REILLE,MILHAUD -> ZIETEN");
    uint32_t r[] = {4, 4}; /* 5 vs 3 = +2, die 4: DR; rout 4 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    t_dice_script(&d, 1, (uint32_t[]){5}); /* control Kept */
    OK(N20_ALLIED, "retreat ZIETEN 0507 0508 0509 0510"); /* through its own Garrison's hex */
    assert_int_equal(s->u[z].hex, n20_hex(510));
    assert_int_equal(s->u[g].where, N20_U_GARRISON);
    int am = s->morale[N20_ALLIED];
    assert_true(t_legal_has(s, N20_FRENCH, "advance MILHAUD 0506 0507 0508"));
    OK(N20_FRENCH, "advance MILHAUD 0506 0507 0508");
    assert_int_equal(s->u[m].hex, n20_hex(508));
    assert_int_equal(s->u[g].where, N20_U_ELIM);
    assert_true(t_events_has(&ev, "[9.4.4.4] the Garrison GARA is destroyed: MILHAUD occupies 0507"));
    assert_int_equal(s->morale[N20_ALLIED], am); /* [9.4.4.5] */
    free(s);
}

/* [9.4.4] a Garrison's defence is its strength (0) plus its hex's terrain benefit: in a Town, 1 */
static void test_n20_9_4_4_1_garrison_in_town_defends_at_1(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        g_garrison(s, "GARA", 1803);
        t_place(s, "REILLE", 1703);
        OK(N20_FRENCH, "declare REILLE -> GARA");
        uint32_t r[] = {6};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "4 vs 1 (terrain +1), differential +3, column +3, die 6: DB"));
        free(s);
    }
}

/* [9.4.4.1] no reserves [12.2.3] for a battle of Garrisons only: the defender is not asked */
static void test_n20_9_4_4_1_no_reserves_for_garrison_only_battle(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        g_garrison(s, "GARA", 1803);
        t_place(s, "REILLE", 1703);
        OK(N20_FRENCH, "declare REILLE -> GARA");
        t_dice_script(&d, 1, (uint32_t[]){3}); /* 4 vs 1 = +3, die 3: DW */
        OK(N20_FRENCH, "resolve 1");
        assert_int_equal(t_dice_count(&d, "9.6 combat"), 1); /* rolled at once: no reserve decision */
        assert_int_equal(s->morale[N20_ALLIED], 6);
        free(s);
    }
}

/* [9.4.4.1] a Garrison does not retreat, and a DR leaves it in place (rulings R-dn-garrison-crt):
 * its hex is open to the victors' Advance after Combat, which destroys it [9.4.4.4] with no Morale
 * effect [9.4.4.5] */
static void test_n20_9_4_4_1_garrison_holds_dr_and_advance_destroys_it(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        int g = g_garrison(s, "GARA", 1803);
        t_place(s, "REILLE", 1703);
        OK(N20_FRENCH, "declare REILLE -> GARA");
        uint32_t r[] = {4}; /* +3, die 4: DR */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_int_equal(t_dice_count(&d, "9.6 rout distance"), 0);
        assert_true(t_events_has(&ev, "the Garrison GARA does not retreat and is not Broken"));
        assert_int_equal(s->u[g].where, N20_U_GARRISON);
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        assert_true(t_legal_has(s, N20_FRENCH, "advance REILLE 1803"));
        OK(N20_FRENCH, "advance REILLE 1803");
        assert_int_equal(s->u[g].where, N20_U_ELIM);
        assert_true(t_events_has(&ev, "[9.4.4.4] the Garrison GARA is destroyed: REILLE occupies 1803"));
        AT("REILLE", 1803);
        assert_int_equal(s->morale[N20_ALLIED], 6);
        assert_int_equal(s->morale[N20_FRENCH], 6);
        free(s);
    }
}

/* [9.4.4.1] a DB does not Break a Garrison (no Morale effect [9.4.4.5]); if no victor advances it
 * stays intact, exerting its ZOC ([9.4.4.3] "remains unaffected and intact") */
static void test_n20_9_4_4_1_garrison_db_no_advance_stays_intact(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        int g = g_garrison(s, "GARA", 1803);
        t_place(s, "REILLE", 1703);
        OK(N20_FRENCH, "declare REILLE -> GARA");
        uint32_t r[] = {6}; /* +3, die 6: DB */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_false(t_events_has(&ev, "GARA is Broken"));
        assert_int_equal(s->morale[N20_ALLIED], 6);
        assert_int_equal(s->morale[N20_FRENCH], 6);
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        OK(N20_FRENCH, "end");
        assert_int_equal(s->u[g].where, N20_U_GARRISON);
        assert_true(n20_in_ezoc(s, n20_hex(1703), N20_ALLIED, 0));
        free(s);
    }
}

/* [9.4.4.1] a Withdraws leaves a Garrison in place too; the attackers' EX losses against a
 * strength-0 Garrison are nothing (printed strength [9.6]) */
static void test_n20_9_4_4_1_garrison_ex_costs_attacker_nothing(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        int g = g_garrison(s, "GARF", 505);
        int z = t_place(s, "ZIETEN", 506);
        s->phasing = N20_ALLIED;
        OK(N20_ALLIED, "declare ZIETEN -> GARF");
        uint32_t r[] = {1}; /* 3 vs 0 = +3, die 1: EX */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "die 1: EX"));
        assert_int_equal(s->u[z].where, N20_U_MAP);
        assert_int_equal(s->u[g].where, N20_U_GARRISON);
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        assert_int_equal(s->morale[N20_ALLIED], 6);
        free(s);
    }
}

/* [9.4.4.5] enemy units that Break attacking a Garrison cause the normal Morale adjustments */
static void test_n20_9_4_4_5_attacker_broken_by_garrison_normal_morale(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        g_garrison(s, "GARA", 1803); /* an Allied Garrison in a Town: 0 + 1 */
        int c = t_place(s, "MILHAUD", 1703); /* 1-3 */
        s->phasing = N20_FRENCH;
        OK(N20_FRENCH, "declare MILHAUD -> GARA");
        uint32_t r[] = {1}; /* 1 vs 1 = 0: die 1, column 0: N; with cap -2: AB */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1 cap -2", 1, r), 0);
        assert_true(t_events_has(&ev, "die 1: AB"));
        assert_int_equal(s->u[c].where, N20_U_BROKEN);
        assert_int_equal(s->morale[N20_FRENCH], 6 - s->sc->mc_break_owner);
        assert_int_equal(s->morale[N20_ALLIED], 6 + s->sc->mc_break_enemy);
        free(s);
    }
}

/* [9.4.4] a Garrison is ignored completely while a friendly unit occupies its hex: it cannot be
 * attacked, only the unit can */
static void test_n20_9_4_4_garrison_ignored_while_friend_in_hex(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        g_garrison(s, "GARF", 505);
        t_place(s, "REILLE", 505);
        t_place(s, "ZIETEN", 506);
        NO(N20_ALLIED, "declare ZIETEN -> GARF", "9.4.4");
        NO(N20_ALLIED, "declare ZIETEN -> REILLE,GARF", "9.4.4");
        assert_int_equal(t_legal_count_sub(s, N20_ALLIED, "GARF"), 0);
        OK(N20_ALLIED, "declare ZIETEN -> REILLE");
        free(s);
    }
}

/* [9.4.4.2] Rearguards: an attacker displaced from a hex with its own intact Garrison: the
 * victorious defender cannot Advance after Combat (without the Garrison it may) */
static void test_n20_9_4_4_2_rearguard_no_advance(void **st) {
    (void)st;
    EDITIONS {
        for (int garrison = 0; garrison < 2; garrison++) {
            G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
            if (garrison) g_garrison(s, "GARF", 505);
            int r0 = t_place(s, "REILLE", 505);
            t_place(s, "ZIETEN", 506);
            OK(N20_FRENCH, "declare REILLE -> ZIETEN");
            uint32_t r[] = {1}; /* 4 vs 3 = +1, die 1: AW */
            assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
            assert_int_equal(s->phase, N20_PH_RETREAT);
            char o[64];
            t_legal_find_sub(s, N20_FRENCH, "retreat REILLE 0", o, sizeof o);
            OK(N20_FRENCH, o);
            assert_int_not_equal(s->u[r0].hex, n20_hex(505));
            if (garrison) {
                assert_true(s->b[0].done);
                assert_int_not_equal(s->phase, N20_PH_ADVANCE);
                assert_int_equal(s->u[U("GARF")].where, N20_U_GARRISON);
            } else {
                assert_int_equal(s->phase, N20_PH_ADVANCE);
                assert_true(t_legal_has(s, N20_ALLIED, "advance ZIETEN 0505"));
            }
            free(s);
        }
    }
}

/* [9.4.4.3] a defender forced out of a garrisoned hex: the victor advances into it and the
 * Garrison, subsumed into the defeated unit, is destroyed (no Morale effect for it [9.4.4.5]) */
static void test_n20_9_4_4_3_victor_advance_subsumes_garrison(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        int g = g_garrison(s, "GARF", 505);
        t_place(s, "REILLE", 505);
        t_place(s, "ZIETEN", 506);
        t_place(s, "PIRCH", 406);
        OK(N20_ALLIED, "declare ZIETEN,PIRCH -> REILLE");
        uint32_t r[] = {3}; /* 6 vs 4 = +2, die 3: DW */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_int_equal(s->phase, N20_PH_RETREAT);
        char o[64];
        t_legal_find_sub(s, N20_FRENCH, "retreat REILLE 0", o, sizeof o);
        OK(N20_FRENCH, o);
        assert_int_equal(s->phase, N20_PH_ADVANCE);
        assert_int_equal(s->u[g].where, N20_U_GARRISON); /* until a victor enters */
        OK(N20_ALLIED, "advance ZIETEN 0505");
        assert_int_equal(s->u[g].where, N20_U_ELIM);
        assert_false(t_events_has(&ev, "12.1")); /* no Morale change for it */
        free(s);
    }
}

/* [9.4.4.3] if no victor advances at once into the garrisoned hex, the Garrison stays intact,
 * and from then on holds the hex (the enemy may not move in [9.4.4.1]) */
static void test_n20_9_4_4_3_no_advance_garrison_intact(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        int g = g_garrison(s, "GARF", 505);
        t_place(s, "REILLE", 505);
        t_place(s, "ZIETEN", 506);
        t_place(s, "PIRCH", 406);
        OK(N20_ALLIED, "declare ZIETEN,PIRCH -> REILLE");
        uint32_t r[] = {3};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        char o[64];
        t_legal_find_sub(s, N20_FRENCH, "retreat REILLE 0", o, sizeof o);
        OK(N20_FRENCH, o);
        OK(N20_ALLIED, "end");
        assert_int_equal(s->u[g].where, N20_U_GARRISON);
        assert_true(n20_in_ezoc(s, n20_hex(506), N20_FRENCH, 0));
        free(s);
    }
}

/* ---- Redoubt ------------------------------------------------------------------------ */

/* A-E [9.10] v3/v4 [7.0]: a Redoubt is a Fortified hex for ZOC (none into it), a built-up hex,
 * and its Terrain Effects Chart benefit (`tec redoubt`) counts in defence */
static void test_n20_dn_redoubt_blocks_zoc_and_defends(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        assert_true(n20_is_fortified(s->sc, s, n20_hex(1205)));
        assert_true(n20_is_builtup(s->sc, n20_hex(1205)));
        assert_int_equal(n20_terrain_at(s, n20_hex(1205)), N20_T_REDOUBT);
        t_place(s, "REILLE", 1204);
        t_place(s, "ORANGE", 1205);
        assert_false(n20_in_ezoc(s, n20_hex(1205), N20_FRENCH, 0)); /* not into a Redoubt */
        assert_true(n20_in_ezoc(s, n20_hex(1204), N20_ALLIED, 0));  /* but out of it */
        OK(N20_FRENCH, "declare REILLE -> ORANGE");
        uint32_t r[] = {6};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "4 vs 6 (terrain +2)"));
        free(s);
    }
}

/* [9.7.2.2] a unit in a Redoubt may retreat one hex fewer: a Withdraws may hold its ground */
static void test_n20_dn_redoubt_defender_may_hold_on_withdraws(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        t_place(s, "REILLE", 1204);
        t_place(s, "DERLON", 1105);
        t_place(s, "VANDAMME", 1206);
        int o = t_place(s, "ORANGE", 1205);
        OK(N20_FRENCH, "declare REILLE,DERLON,VANDAMME -> ORANGE");
        uint32_t r[] = {3}; /* 10 vs 6 = +4, die 3: DR? column +4 die 3: DR; use the cap */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1 cap 2", 1, r), 0); /* +2, die 3: DW */
        assert_true(t_events_has(&ev, "die 3: DW"));
        assert_true(t_legal_has(s, N20_ALLIED, "retreat ORANGE"));
        OK(N20_ALLIED, "retreat ORANGE");
        AT("ORANGE", 1205);
        assert_int_equal(s->u[o].where, N20_U_MAP);
        free(s);
    }
}

/* [9.6.2.1] Waterloo 20: a unit in a Redoubt subtracts one from its Rout die roll ("Fortified or
 * Redoubt"): a roll of 1 becomes a Withdraws. (Danube 20 [9.8.1] has no modifier: the edition's
 * own rout rule, docs/n20-editions.md, applies to Redoubts through the same predicate.) */
static void test_n20_9_6_2_1_redoubt_rout_modifier(void **st) {
    (void)st;
    int ed = N20_ED_V4;
    G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
    t_place(s, "REILLE", 1204);
    t_place(s, "DERLON", 1105);
    t_place(s, "ORANGE", 1205);
    OK(N20_FRENCH, "declare REILLE,DERLON -> ORANGE");
    uint32_t r[] = {5, 1}; /* 7 vs 6 = +1, die 5: DR; rout 1 - 1 = 0 */
    assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 2, r), 0);
    assert_true(t_events_has(&ev, "[9.6.2.1] ORANGE rout roll 1, modified 0: changed to Withdraws"));
    free(s);
}

/* ---- Wagram [9.11] Lobau Island Batteries ------------------------------------------ */

/* [9.11] a Battery attacks as an Artillery unit: doubled when attacking [9.3]; it is never
 * obliged to attack [9.1] (rulings R-dn-wg-9.11-battery) */
static void test_n20_wg_9_11_battery_attacks_as_artillery_doubled(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        g_garrison(s, "BAT", 1410);
        t_place(s, "PIRCH", 1411);
        assert_true(t_legal_has(s, N20_FRENCH, "declare"));
        assert_true(t_legal_has(s, N20_FRENCH, "declare BAT -> PIRCH"));
        OK(N20_FRENCH, "declare BAT -> PIRCH");
        NO(N20_FRENCH, "resolve 1 reserve", s->sc->edition == N20_ED_V3 ? "12.5" : "12.2.3"); /* [9.4.4.1] a battle of Garrisons only; v3 numbers it 12.5 */
        uint32_t r[] = {3};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "4 vs 3 (terrain +0), differential +1"));
        free(s);
    }
}

/* [9.11] a Battery defends as an immobile Artillery unit of strength 2 (plus terrain); the
 * attacking player may not commit reserves to it... the defender has none [9.4.4.1] */
static void test_n20_wg_9_11_battery_defends_at_2(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        int b = g_garrison(s, "BAT", 1410);
        t_place(s, "PIRCH", 1411);
        OK(N20_ALLIED, "declare PIRCH -> BAT");
        uint32_t r[] = {4}; /* 3 vs 2 = +1, die 4: DW */
        t_dice_script(&d, 1, r);
        OK(N20_ALLIED, "resolve 1");
        assert_true(t_events_has(&ev, "3 vs 2 (terrain +0), differential +1, column +1, die 4: DW"));
        assert_int_equal(s->u[b].where, N20_U_GARRISON);
        assert_int_equal(s->u[b].hex, n20_hex(1410));
        free(s);
    }
}

/* [9.11] a French unit defending in a Battery hex adds two to its strength (the Battery itself is
 * ignored while the unit is there [9.4.4]) */
static void test_n20_wg_9_11_french_unit_in_battery_hex_adds_2(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
        g_garrison(s, "BAT", 1410);
        t_place(s, "GERARD", 1410); /* 2-2 */
        t_place(s, "PIRCH", 1411);
        NO(N20_ALLIED, "declare PIRCH -> BAT", "9.4.4");
        OK(N20_ALLIED, "declare PIRCH -> GERARD");
        uint32_t r[] = {6};
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "3 vs 4 (terrain +0)"));
        free(s);
    }
}

/* [9.11] a Battery projects defensive support [16.3.1] across an unbridged Major River, where an
 * Artillery unit's ZOC, and so its support, does not reach */
static void test_n20_wg_9_11_battery_supports_across_major_river(void **st) {
    (void)st;
    EDITIONS {
        for (int battery = 0; battery < 3; battery++) { /* 2: the Battery is itself attacked */
            G_SETUP(9, N20_ALLIED, N20_PH_DECLARE);
            s->opts |= N20_OPT_ART_SUPPORT;
            if (battery) g_garrison(s, "BAT", 1410);
            else t_place(s, "ARTILLERY", 1410);
            t_place(s, "GERARD", 1509); /* across the unbridged 1410|1509 Dyle hexside */
            t_place(s, "PIRCH", 1508);
            if (battery == 2) t_place(s, "ZIETEN", 1411);
            OK(N20_ALLIED, battery == 2 ? "declare PIRCH -> GERARD ; ZIETEN -> BAT" : "declare PIRCH -> GERARD");
            uint32_t r[] = {6};
            assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
            if (battery == 1) assert_true(t_events_has(&ev, "3 vs 3 (terrain +0, artillery support)"));
            else assert_true(t_events_has(&ev, "3 vs 2 (terrain +0)"));
            free(s);
        }
    }
}

/* [9.11] a Battery bombards [16.3.2] across a Major River; it ignores AW (and AB, AR): it stays */
static void test_n20_wg_9_11_battery_ignores_aw_when_bombarding(void **st) {
    (void)st;
    EDITIONS {
        for (int die = 1; die <= 5; die += 4) {
            G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
            s->opts |= N20_OPT_ART_SUPPORT;
            int b = g_garrison(s, "BAT", 1410);
            t_place(s, "ZIETEN", 1409); /* Town, across the unbridged 1409|1410 hexside */
            assert_true(t_legal_has(s, N20_FRENCH, "declare BAT -> ZIETEN"));
            OK(N20_FRENCH, "declare BAT -> ZIETEN");
            uint32_t r[] = {(uint32_t)die}; /* 2 (printed) vs 4 = -2: die 1 AB, die 5 AW */
            assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
            assert_true(t_events_has(&ev, "bombards in battle 1"));
            assert_true(t_events_has(&ev, "the Battery BAT ignores the attacker's result"));
            assert_int_equal(s->u[b].where, N20_U_GARRISON);
            assert_int_equal(s->u[b].hex, n20_hex(1410));
            assert_false(t_events_has(&ev, "12.1"));
            assert_true(s->b[0].done);
            free(s);
        }
    }
}

/* [9.11] a Battery is never Broken to satisfy an EX: the other attackers pay it */
static void test_n20_wg_9_11_battery_not_broken_for_ex(void **st) {
    (void)st;
    EDITIONS {
        G_SETUP(9, N20_FRENCH, N20_PH_DECLARE);
        int b = g_garrison(s, "BAT", 1410);
        int r0 = t_place(s, "REILLE", 1412);
        t_place(s, "PIRCH", 1411);
        OK(N20_FRENCH, "declare BAT,REILLE -> PIRCH");
        uint32_t r[] = {1}; /* 4 + 4 vs 3 = +5, column +4, die 1: EX; PIRCH 3 printed */
        assert_int_equal(t_fight(s, &d, &ev, "resolve 1", 1, r), 0);
        assert_true(t_events_has(&ev, "die 1: EX"));
        assert_int_equal(s->u[r0].where, N20_U_BROKEN);
        assert_int_equal(s->u[b].where, N20_U_GARRISON);
        free(s);
    }
}

/* ---- random play ------------------------------------------------------------------- */

/* Whole games of random legal orders on the scenario with its three Garrisons, in both editions,
 * with and without artillery-support: every listed order of the first steps is accepted, the game
 * ends, and after every step an intact Garrison never shares its hex with an enemy unit
 * [9.4.4.4] and a Garrison is only ever intact or destroyed (it never moves, retreats or breaks) */
static void test_n20_9_4_4_random_games_keep_garrison_invariants(void **st) {
    (void)st;
    EDITIONS {
        for (int k = 0; k < 12; k++) {
            uint64_t seed = 11 + (uint64_t)k;
            uint32_t opts = (k & 1) ? N20_OPT_ART_SUPPORT : 0;
            t_dice d;
            t_dice_init(&d, seed);
            n20_out out = {t_null_emit, NULL};
            n20_state *s = n20_state_new(s_scenario(ed));
            assert_int_equal(n20_setup(s, &d.d, &out, opts, NULL), 0);
            n20_run(s, &d.d, &out);
            uint64_t rng = seed * 2654435761u + 7;
            brt_buf legal;
            buf_init(&legal);
            char tag[64];
            snprintf(tag, sizeof tag, "garrison v%d seed %llu", ed, (unsigned long long)seed);
            int steps = 0;
            uint16_t home[N20_MAX_UNITS];
            for (int g = 0; g < s->sc->nunits; g++) home[g] = s->u[g].hex;
            while (!s->over && steps < 30000) {
                t_random_step(s, &rng, &legal, steps < 400, &d, &out, tag, NULL, NULL, NULL);
                steps++;
                for (int g = 0; g < s->sc->nunits; g++) {
                    if (!n20_is_garrison(s, g)) continue;
                    assert_true(s->u[g].where == N20_U_GARRISON || s->u[g].where == N20_U_ELIM);
                    if (s->u[g].where != N20_U_GARRISON) continue;
                    assert_int_equal(s->u[g].hex, home[g]);
                    int o = n20_unit_at(s, s->u[g].hex);
                    if (o >= 0) assert_int_equal(s->sc->units[o].side, s->sc->units[g].side);
                }
            }
            assert_true(s->over);
            buf_free(&legal);
            free(s);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_9_4_4_garrison_sets_up_as_intrinsic_force),
        cmocka_unit_test(test_n20_9_4_4_garrison_rendered_as_flag),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_exerts_zoc),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_cannot_attack),
        cmocka_unit_test(test_n20_9_4_4_1_enemy_in_garrison_zoc_must_attack_it),
        cmocka_unit_test(test_n20_9_4_4_1_voluntary_attacker_must_attack_garrison_in_its_zoc),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_does_not_move),
        cmocka_unit_test(test_n20_9_4_4_1_friendly_units_move_through_and_stack),
        cmocka_unit_test(test_n20_9_4_4_1_enemy_cannot_enter_garrison_hex),
        cmocka_unit_test(test_n20_9_4_4_1_enemy_cannot_retreat_into_garrison_hex),
        cmocka_unit_test(test_n20_9_4_4_1_enemy_cannot_disengage_into_garrison_hex),
        cmocka_unit_test(test_n20_9_4_4_1_enemy_garrison_hex_no_rally_hex),
        cmocka_unit_test(test_n20_9_4_4_1_reinforcement_cannot_enter_garrison_hex),
        cmocka_unit_test(test_n20_9_4_4_1_lone_leader_cannot_retreat_into_garrison_hex),
        cmocka_unit_test(test_n20_9_4_4_1_rallied_unit_not_placed_on_enemy_garrison_loc),
        cmocka_unit_test(test_n20_9_4_4_4_cavalry_pursuit_through_garrison_hex_destroys_it),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_may_be_countercharged),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_in_town_defends_at_1),
        cmocka_unit_test(test_n20_9_4_4_1_no_reserves_for_garrison_only_battle),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_holds_dr_and_advance_destroys_it),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_db_no_advance_stays_intact),
        cmocka_unit_test(test_n20_9_4_4_1_garrison_ex_costs_attacker_nothing),
        cmocka_unit_test(test_n20_9_4_4_5_attacker_broken_by_garrison_normal_morale),
        cmocka_unit_test(test_n20_9_4_4_garrison_ignored_while_friend_in_hex),
        cmocka_unit_test(test_n20_9_4_4_2_rearguard_no_advance),
        cmocka_unit_test(test_n20_9_4_4_3_victor_advance_subsumes_garrison),
        cmocka_unit_test(test_n20_9_4_4_3_no_advance_garrison_intact),
        cmocka_unit_test(test_n20_dn_redoubt_blocks_zoc_and_defends),
        cmocka_unit_test(test_n20_dn_redoubt_defender_may_hold_on_withdraws),
        cmocka_unit_test(test_n20_9_6_2_1_redoubt_rout_modifier),
        cmocka_unit_test(test_n20_wg_9_11_battery_attacks_as_artillery_doubled),
        cmocka_unit_test(test_n20_wg_9_11_battery_defends_at_2),
        cmocka_unit_test(test_n20_wg_9_11_french_unit_in_battery_hex_adds_2),
        cmocka_unit_test(test_n20_wg_9_11_battery_supports_across_major_river),
        cmocka_unit_test(test_n20_wg_9_11_battery_ignores_aw_when_bombarding),
        cmocka_unit_test(test_n20_wg_9_11_battery_not_broken_for_ex),
        cmocka_unit_test(test_n20_9_4_4_random_games_keep_garrison_invariants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
