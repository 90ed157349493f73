/*
 * test_wnlb_battle_random.c - random play of battles [9.0]-[9.5] [10.0] [11.2]-[11.5] on a
 * crowded board of the test's own (wnlb_t.h): the two armies face each other over a chateau, a
 * village, a hill, ridge and stream sides, with both commanders and cards of every battle use.
 * Every order legal() lists is accepted (on a copy); the same order on two copies gives the same
 * state bytes and events; the first side's sealed battle cards tell nothing; no two units share a
 * square. Charges [11.4] [11.5] are played from wnlb_charge_legal as the actions part plays them.
 */
#include "wnlb_t.h"

static void s_board(t_fx *f, t_board *b, uint64_t seed) {
    wnlb_scenario *sc = t_blank(f, b);
    uint64_t rng = seed;
    static const char *const fsq[] = {"E-3", "E-4", "E-5", "E-6", "E-7", "E-8", "F-4", "F-6", "G-8", "H-5"};
    static const char *const bsq[] = {"D-3", "D-4", "D-5", "D-6", "D-7", "D-8", "C-4", "C-6", "C-8", "B-5"};
    int nf = 0, nb = 0;
    for (size_t u = 0; u < sc->n_units && (nf < 10 || nb < 10); u++) {
        int army = sc->units[u].army;
        int facing = (int)(t_next(&rng) % 4);
        if (army == WNLB_FR && nf < 10) t_put(f, (int)u, fsq[nf++], t_next(&rng) % 3 ? WNLB_N : facing);
        else if (army == WNLB_BR && nb < 10) t_put(f, (int)u, bsq[nb++], t_next(&rng) % 3 ? WNLB_S : facing);
    }
    /* gaps for charges [11.4] [11.5]: a French cavalry two squares from a British unit, a British
     * cavalry two squares from a French unit */
    static const struct {
        int army, type;
        const char *sq;
        int facing;
    } gap[] = {{WNLB_FR, WNLB_CAV, "F-10", WNLB_N}, {WNLB_BR, WNLB_INF, "C-10", WNLB_S},
               {WNLB_BR, WNLB_CAV, "B-12", WNLB_S}, {WNLB_FR, WNLB_INF, "E-12", WNLB_N},
               {WNLB_FR, WNLB_CAV, "G-14", WNLB_N}, {WNLB_BR, WNLB_CAV, "D-14", WNLB_S},
               /* a pocket: one British unit attacked from three sides */
               {WNLB_BR, WNLB_INF, "H-2", WNLB_S},  {WNLB_FR, WNLB_INF, "I-2", WNLB_N},
               {WNLB_FR, WNLB_INF, "H-1", WNLB_E},  {WNLB_FR, WNLB_INF, "H-3", WNLB_W}};
    for (size_t g = 0; g < sizeof gap / sizeof gap[0]; g++)
        for (size_t u = 0; u < sc->n_units; u++)
            if (sc->units[u].army == gap[g].army && sc->units[u].type == gap[g].type && f->s->units[u].row < 0) {
                t_put(f, (int)u, gap[g].sq, gap[g].facing);
                break;
            }
    /* few distinct values: ties among the strongest attackers [9.4] */
    for (size_t u = 0; u < sc->n_units; u++) t_values(f, (int)u, t_next(&rng) % 3 ? 2 : 3, 1, 0);
    int r, c;
    t_sq("D-5", &r, &c);
    if (sc->n_chateaux < 1) sc->n_chateaux = 1;
    sc->chateaux[0].row = (int8_t)r;
    sc->chateaux[0].col = (int8_t)c;
    f->s->cdp[0] = 2;
    t_terrain(f, "D-5", WNLB_CHATEAU);
    t_terrain(f, "D-7", WNLB_VILLAGE);
    t_terrain(f, "H-2", WNLB_CHATEAU); /* the pocket: facing all sides [10.0] */
    t_terrain(f, "D-3", WNLB_HILL);
    t_terrain(f, "F-3", WNLB_HILL);
    t_side(f, "D-4", WNLB_S, WNLB_SIDE_RIDGE);
    t_side(f, "D-8", WNLB_S, WNLB_SIDE_STREAM | WNLB_SIDE_BRIDGE);
    t_side(f, "D-6", WNLB_E, WNLB_SIDE_POND);
    t_cmd_at(f, 0, "G-5");
    t_cmd_at(f, 1, "D-6");
    /* the hands: cards of every use, values varied */
    static const int acts[] = {WNLB_ACT_NONE,    WNLB_ACT_COMMAND, WNLB_ACT_ELITE,  WNLB_ACT_ARTILLERY,
                               WNLB_ACT_CHARGE, WNLB_ACT_NONE,    WNLB_ACT_ENEMY_CHARGE};
    for (int a = WNLB_FR; a <= WNLB_BR; a++) {
        t_empty_hand(f, a);
        for (int i = 0; i < 12; i++) {
            int id = t_give(f, a, 1 + (int)(t_next(&rng) % 4), (int)(t_next(&rng) % 5), acts[i % 7], 2 + (a == WNLB_BR) * 2);
            sc->cards[wnlb_card_index(f->s, id)].cmd_attack = (uint8_t)(a == WNLB_FR);
        }
    }
    for (size_t u = 0; u < sc->n_units; u++)
        if (t_next(&rng) % 4 == 0) sc->units[u].elite = 1;
}

/* no two combat units in one square [8.2] */
static void s_stacking(const t_fx *f) {
    for (size_t i = 0; i < f->s->sc->n_units; i++) {
        const wnlb_unit *a = &f->s->units[i];
        if (a->eliminated || a->row < 0) continue;
        for (size_t j = i + 1; j < f->s->sc->n_units; j++) {
            const wnlb_unit *b = &f->s->units[j];
            if (!b->eliminated && b->row == a->row && b->col == a->col) fail_msg("units %zu and %zu share a square", i, j);
        }
    }
}

/* the round's charge cards played as the actions part plays them: every listed order accepted */
static int s_try_charge(t_fx *f, uint64_t *rng) {
    if (f->s->phase != WNLB_PH_ROUND || f->s->round_cards >= WNLB_ROUND_CARDS) return 0;
    unsigned seat = (unsigned)wnlb_round_seat(f->s);
    for (size_t ci = 0; ci < f->s->sc->n_cards; ci++) {
        const wnlb_card_def *cd = &f->s->sc->cards[ci];
        if (cd->army != f->s->round_army || f->s->card_loc[ci] != WNLB_LOC_HAND) continue;
        if (cd->action != WNLB_ACT_CHARGE && cd->action != WNLB_ACT_ENEMY_CHARGE) continue;
        brt_buf l;
        buf_init(&l);
        int n = wnlb_charge_legal(f->s, seat, (int)ci, &l);
        assert_true(n >= 0);
        int pick = n ? (int)(t_next(rng) % (uint64_t)n) : -1, done = 0;
        for (int k = 0; k < n; k++) {
            const uint8_t *item;
            size_t len;
            assert_int_equal(t_item(&l, k, &item, &len), 0);
            wnlb_order o;
            assert_int_equal(wnlb_order_decode(f->s, item, len, &o, &f->err), 0);
            wnlb_state *t = wnlb_state_clone(f->s);
            wnlb_card_use(t, (int)ci);
            t->round_cards++;
            t->cur_card = (uint8_t)(ci + 1);
            t_ev_clear(&f->ev);
            if (wnlb_charge_start(t, seat, &o, (int)ci, &f->ev, &f->err) != 0)
                fail_msg("listed charge refused: [%s] %s", f->err.rule, f->err.message);
            if (k == pick) {
                memcpy(f->s, t, sizeof *t);
                done = 1;
            }
            wnlb_state_destroy(&t);
        }
        buf_free(&l);
        if (done) return 1;
    }
    return 0;
}

static void s_play(uint64_t seed, int steps, int *battles, int *seen) {
    t_fx *f = t_new("short", 2, seed);
    t_board b;
    s_board(f, &b, seed);
    uint64_t rng = seed * 31 + 7;
    brt_buf l, x, y;
    buf_init(&l);
    buf_init(&x);
    buf_init(&y);
    for (int step = 0; step < steps; step++) {
        if (f->s->over) break;
        s_stacking(f);
        if (t_next(&rng) % 3 == 0 && s_try_charge(f, &rng)) continue;
        int seat = t_actor(f);
        if (seat < 0) break;
        seen[f->s->phase < WNLB_PH_OVER ? f->s->phase : WNLB_PH_OVER]++;
        buf_reset(&l);
        int n = f->rs->legal(f->s, (unsigned)seat, &l);
        if (n <= 0) fail_msg("seed %llu step %d: seat %d is pending in phase %d with no legal order",
                             (unsigned long long)seed, step, seat, f->s->phase);
        const uint8_t *item;
        size_t len;
        for (int k = 0; k < n; k++) { /* every listed order is accepted */
            assert_int_equal(t_item(&l, k, &item, &len), 0);
            wnlb_state *keep = f->s;
            f->s = f->rs->clone(keep);
            if (t_apply(f, (unsigned)seat, item, len) != 0)
                fail_msg("seed %llu step %d phase %d: legal order %d refused: [%s] %s", (unsigned long long)seed,
                         step, keep->phase, k, f->err.rule, f->err.message);
            f->rs->destroy(f->s);
            f->s = keep;
        }
        /* prefer battles: an attack when one is listed */
        int k = (int)(t_next(&rng) % (uint64_t)n);
        if (f->s->phase == WNLB_PH_DECLARE && n > 1 && t_next(&rng) % 4) k = 1 + (int)(t_next(&rng) % (uint64_t)(n - 1));
        /* and battles of several attackers [9.2] */
        if (f->s->phase == WNLB_PH_DECLARE && t_next(&rng) % 2)
            for (int j = 1; j < n; j++) {
                wnlb_order o;
                assert_int_equal(t_item(&l, j, &item, &len), 0);
                if (wnlb_order_decode(f->s, item, len, &o, &f->err) == 0 && o.n_units >= 2) {
                    k = j;
                    break;
                }
            }
        /* the other side's Artillery Fire windows [11.1]: mostly declined, so that battles are fought */
        if (f->s->phase == WNLB_PH_FIRE && t_next(&rng) % 4)
            for (int j = 0; j < n; j++) {
                wnlb_order o;
                assert_int_equal(t_item(&l, j, &item, &len), 0);
                if (wnlb_order_decode(f->s, item, len, &o, &f->err) == 0 && o.flag) {
                    k = j;
                    break;
                }
            }
        /* and lopsided battles: often all the BP cards (listed last) */
        if (f->s->phase == WNLB_PH_BATTLE_CARDS && t_next(&rng) % 2) k = n - 1;
        assert_int_equal(t_item(&l, k, &item, &len), 0);
        int sealed_first = f->s->phase == WNLB_PH_BATTLE_CARDS && !f->s->battle.submitted[0] && !f->s->battle.submitted[1];
        int hands[WNLB_ARMIES];
        for (int a = 0; a < WNLB_ARMIES; a++) hands[a] = wnlb_hand_count(f->s, a);
        wnlb_state *twin = f->rs->clone(f->s);
        t_dice td = f->d;
        td.d.source_ctx = &td;
        td.d.record_ctx = &td;
        brt_events tev;
        memset(&tev, 0, sizeof tev);
        brt_reject terr;
        if (f->s->phase == WNLB_PH_DECLARE && k > 0) (*battles)++;
        assert_int_equal(f->rs->apply(twin, (unsigned)seat, item, len, &td.d, &tev, &terr), 0);
        assert_int_equal(t_apply(f, (unsigned)seat, item, len), 0);
        assert_int_equal(f->ev.bad, 0);
        if (sealed_first) { /* [9.3] nothing told, no card moved, until both are in */
            assert_int_equal(f->ev.total, 0);
            for (int a = 0; a < WNLB_ARMIES; a++) assert_int_equal(wnlb_hand_count(f->s, a), hands[a]);
        }
        t_same_state(f, twin, &x, &y);
        assert_int_equal(tev.total, f->ev.total);
        t_ev_clear(&tev);
        f->rs->destroy(twin);
    }
    buf_free(&l);
    buf_free(&x);
    buf_free(&y);
    t_free(f);
}

/* random battles on a crowded board: legal() and apply() agree, replays give the same bytes */
static void test_wnlb_battle_random_play(void **st) {
    (void)st;
    int battles = 0, seen[WNLB_PH_OVER + 1] = {0};
    for (uint64_t g = 0; g < 80; g++) s_play(9000 + g * 101, 400, &battles, seen);
    if (getenv("WNLB_TRACE"))
        for (int p = 0; p <= WNLB_PH_OVER; p++) fprintf(stderr, "phase %d: %d\n", p, seen[p]);
    /* every battle decision was met */
    assert_true(seen[WNLB_PH_BATTLE_CARDS] > 0 && seen[WNLB_PH_LOSS] > 0 && seen[WNLB_PH_ADVANCE] > 0);
    assert_true(seen[WNLB_PH_ATT_REDUCE] > 0 && seen[WNLB_PH_CHARGE] > 0);
    assert_true(battles > 20); /* the board is crowded enough that battles are fought */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_battle_random_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
