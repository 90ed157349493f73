/*
 * test_n20_scenarios.c - the additional Waterloo 20 scenarios [17.0]: Extended Campaign
 * [17.1] with its variants, Opening Battles [17.2], Closing Battles [17.3] with the
 * Historical Events Variant [17.3.1], and the game balance options [17.4]. One test per
 * rule case, then random play to a result (with replay) for every scenario and option
 * combination.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "evlog.h"
#include "game.h"
#include "memlog.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

extern const brt_ruleset brt_ruleset_n20;

/* the same, run to its first decision of the first Game Turn ([17.3] Good Ground: defense) */
static n20_state *s_game(const char *scenario, uint32_t opts, t_dice *d, t_events *ev) {
    n20_state *s = t_setup(scenario, opts, d, ev);
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, ev ? &out : NULL);
    if (s->phase == N20_PH_GG_SETUP) {
        brt_reject err;
        assert_int_equal(t_order(s, N20_ALLIED, "goodground ORANGE defense", d, ev, &err), 0);
    }
    return s;
}

static void s_at(const n20_state *s, const char *id, unsigned xxyy) {
    int u = t_unit(s, id);
    assert_int_equal(s->u[u].where, N20_U_MAP);
    assert_int_equal(n20_xxyy(s->u[u].hex), xxyy);
}

static int s_card_number(const n20_state *s, int idx) { return s->sc->cards[idx].number; }

/* setup through the ruleset table with option names; NULL + err on refusal */
static void *s_setup_opts(const char *scenario, const char **names, size_t n, t_dice *d, brt_reject *err) {
    brt_ruleset_options o = {names, n, 2};
    memset(err, 0, sizeof *err);
    return brt_ruleset_n20.setup(scenario, &o, &d->d, err);
}

/* ---- scenario list and data ------------------------------------------------ */

/* [17.0] every scenario is embedded, listed, parses with provenance on every record, and the
 * unknown-scenario refusal names them */
static void test_n20_17_0_scenarios_listed(void **st) {
    (void)st;
    const char *want[] = {"waterloo20-standard", "waterloo20-closing", "waterloo20-extended",
                          "waterloo20-opening"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int found = 0;
        for (size_t k = 0; n20_data_name(k); k++) found |= strcmp(n20_data_name(k), want[i]) == 0;
        assert_true(found);
        const n20_scenario *sc = n20_scenario_get(want[i]);
        assert_non_null(sc);
        assert_string_equal(sc->id, want[i]);
        assert_int_equal(brt_ruleset_n20.scenario_seats(want[i], NULL, 0), 2);
    }
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    assert_null(s_setup_opts("waterloo20-nope", NULL, 0, &d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_SCENARIO);
    for (size_t k = 0; n20_data_name(k); k++) assert_non_null(strstr(err.message, n20_data_name(k)));
}

/* [17.0] a scenario built on the Standard map hashes its own file and its base's */
static void test_n20_17_0_hash_covers_base(void **st) {
    (void)st;
    uint8_t h[32], want[32], std[32];
    assert_int_equal(brt_ruleset_n20.scenario_hash("waterloo20-closing", h), 0);
    assert_int_equal(brt_ruleset_n20.scenario_hash("waterloo20-standard", std), 0);
    size_t l1, l2;
    const char *t1 = n20_data_text("waterloo20-closing", &l1);
    const char *t2 = n20_data_text("waterloo20-standard", &l2);
    crypto_generichash_state hs;
    crypto_generichash_init(&hs, NULL, 0, 32);
    crypto_generichash_update(&hs, (const unsigned char *)t1, l1);
    crypto_generichash_update(&hs, (const unsigned char *)t2, l2);
    crypto_generichash_final(&hs, want, 32);
    assert_memory_equal(h, want, 32);
    assert_memory_not_equal(h, std, 32);
    /* the map comes from the base: same grid and terrain as the Standard Scenario */
    const n20_scenario *a = n20_scenario_get("waterloo20-closing"), *b = n20_scenario_get("waterloo20-standard");
    assert_int_equal(a->rows, b->rows);
    assert_memory_equal(a->terrain, b->terrain, sizeof a->terrain);
    assert_memory_equal(a->river, b->river, sizeof a->river);
    assert_int_equal(a->ncards, b->ncards);
    assert_string_equal(a->base, "waterloo20-standard");
    /* its own records are counted with the base's map and chart records */
    assert_true(a->n_rulebook + a->n_reconstructed > b->n_reconstructed);
}

/* docs/n20-data.md: a base must come first, unit ids are unique unless options exclude each
 * other, option names are known */
static void test_n20_17_0_data_format_checks(void **st) {
    (void)st;
    n20_scenario *sc = malloc(sizeof *sc);
    char msg[128];
    const char *late = "grid 25 12 | RECONSTRUCTED x\nbase waterloo20-standard map | RULEBOOK 17.0\n";
    assert_int_equal(n20_data_parse(late, strlen(late), sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 2"));
    const char *dup = "base waterloo20-standard map | RULEBOOK 17.0\nstart-turn 9 | RULEBOOK x\n"
                      "last-turn 10 | RULEBOOK x\nunit A french french inf 1 2 - hex 0101 | RULEBOOK x\n"
                      "unit A french french inf 2 2 - hex 0101 | RULEBOOK x\n";
    assert_int_equal(n20_data_parse(dup, strlen(dup), sc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "line 5"));
    const char *excl = "base waterloo20-standard map | RULEBOOK 17.0\nstart-turn 9 | RULEBOOK x\n"
                       "last-turn 10 | RULEBOOK x\nunit A french french inf 1 2 - hex 0101 unless rapp | RULEBOOK x\n"
                       "unit A french french inf 2 2 - hex 0101 if rapp | RULEBOOK x\n";
    assert_int_equal(n20_data_parse(excl, strlen(excl), sc, msg, sizeof msg), 0);
    assert_int_equal(sc->units[sc->nunits - 1].if_opts, N20_OPT_RAPP);
    const char *badopt = "base waterloo20-standard map | RULEBOOK 17.0\noption no-such | RULEBOOK x\n";
    assert_int_equal(n20_data_parse(badopt, strlen(badopt), sc, msg, sizeof msg), -1);
    free(sc);
}

/* ---- [17.3] Closing Battles ------------------------------------------------- */

/* [17.3] set-up: Turn 16 (18 June Morning, a Mud turn), morale 7/6, French first, the
 * deployment, Roeder Broken, Good Ground on ORANGE; no skipped Random Events Phase */
static void test_n20_17_3_closing_setup(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 7);
    t_events ev = {0};
    n20_state *s = t_setup("waterloo20-closing", 0, &d, &ev);
    assert_int_equal(s->turn, 16);
    assert_int_equal(s->sc->last_turn, 21);
    assert_int_equal(n20_weather(s), N20_W_MUD);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_int_equal(s->phasing, N20_FRENCH);
    s_at(s, "GARDE", 1604);
    s_at(s, "REILLE", 1702);
    assert_int_equal(s->sc->units[t_unit(s, "REILLE")].strength, 3); /* 2e: REILLE (3-2) */
    s_at(s, "LOBAU", 1703);
    assert_int_equal(s->sc->units[t_unit(s, "LOBAU")].strength, 1);
    s_at(s, "ARTILLERY", 1704);
    s_at(s, "VANDAMME", 1810);
    s_at(s, "PAJOL", 1911);
    s_at(s, "ORANGE", 1902);
    s_at(s, "UXBRIDGE", 2003);
    s_at(s, "BULOW", 2009);
    s_at(s, "THIELMANN", 2109);
    s_at(s, "CADRE-PIRCH", 2209);
    s_at(s, "CADRE-ZIETEN", 2210);
    assert_int_equal(s->u[t_unit(s, "ROEDER")].where, N20_U_BROKEN);
    assert_int_equal(s->u[t_unit(s, "FREDERICK")].where, N20_U_OUT);
    assert_int_equal(n20_unit_find(s, "RAPP"), -1); /* in the game only with [17.4.2] */
    assert_int_equal(s->gg_unit, t_unit(s, "ORANGE"));
    assert_int_equal(s->gg_hex, n20_hex(1902));
    /* [3.0] card #12 in the Discard Pile, the eleven others shuffled */
    assert_int_equal(s->ndiscard, 1);
    assert_int_equal(s_card_number(s, s->discard[0]), 12);
    assert_int_equal(s->ndraw, 11);
    assert_int_equal(t_dice_count(&d, "3.0 event deck shuffle"), 10);
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->ndraw, 11);
    assert_int_equal(s->phase, N20_PH_GG_SETUP);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    free(s);
    /* the Good Ground side of [17.3] is chosen by the Allied player before Turn 16 */
    s = s_game("waterloo20-closing", 0, &d, NULL);
    free(s);
    t_dice_init(&d, 7);
    ev.n = 0;
    s = t_setup("waterloo20-closing", 0, &d, &ev);
    n20_run(s, &d.d, &out);
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_legal(s, N20_FRENCH, &b), 0);
    buf_reset(&b);
    assert_int_equal(n20_legal(s, N20_ALLIED, &b), 2);
    buf_free(&b);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "goodground ORANGE immune", &d, &ev, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    assert_int_equal(t_order(s, N20_ALLIED, "goodground RESERVE immune", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "17.3");
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "17.3");
    assert_int_equal(t_order(s, N20_ALLIED, "goodground ORANGE immune", &d, &ev, &err), 0);
    assert_int_equal(s->gg_immune, 1);
    assert_int_equal(s->gg_unit, t_unit(s, "ORANGE"));
    assert_true(t_events_has(&ev, "[17.3] Good Ground set up on ORANGE at 1902 showing Artillery Immune"));
    assert_int_equal(s->turn, 16);
    assert_int_equal(s->phasing, N20_FRENCH);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s->ndraw, 10); /* one drawn by the French Morning turn */
    assert_true(t_events_has(&ev, "french draws #"));
    assert_false(t_events_has(&ev, "is skipped"));
    free(s);
}

/* [17.3.1] the deck is arranged #01..#11 in the listed order: no shuffle at set-up, and each
 * Player Turn draws the next one (French then Allied, Morning to Evening) */
static void test_n20_17_3_1_historical_deck_order(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 3);
    n20_state *s = s_game("waterloo20-closing", N20_OPT_HIST_EVENTS, &d, NULL);
    assert_int_equal(t_dice_count(&d, "3.0 event deck shuffle"), 0);
    /* the French Morning draw has been made: #01 is discarded, #02 is next */
    assert_int_equal(s->ndiscard, 2);
    assert_int_equal(s_card_number(s, s->discard[1]), 1);
    assert_int_equal(s->ndraw, 10);
    for (int i = 0; i < 10; i++) assert_int_equal(s_card_number(s, s->draw[i]), i + 2);
    /* the next draws follow the table: Allied Morning #02, French Mid-day #03 ... */
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    for (int k = 2; k <= 10; k++) {
        s->phasing = (uint8_t)(k % 2 == 0 ? N20_ALLIED : N20_FRENCH);
        int before = s->ndiscard;
        n20_events_phase(s, &d.d, &out);
        int c = -1;
        for (int i = 0; i < s->sc->ncards; i++)
            if (s->sc->cards[i].number == k) c = i;
        if (s->sc->cards[c].keep[s->phasing]) { /* [5.0] "Keep this card": held, not discarded */
            assert_int_equal(s->ndiscard, before);
            assert_true(s->kept[s->phasing] & (1u << c));
            continue;
        }
        assert_int_equal(s->ndiscard, before + 1);
        assert_int_equal(s_card_number(s, s->discard[s->ndiscard - 1]), k);
    }
    assert_int_equal(s->ndraw, 1);
    assert_int_equal(s_card_number(s, s->draw[0]), 11);
    free(s);
}

/* [17.3.1] Night French: #11 is drawn, then the cards are reshuffled before the Allied draw */
static void test_n20_17_3_1_historical_reshuffle_at_night_french(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 5);
    n20_state *s = s_game("waterloo20-closing", N20_OPT_HIST_EVENTS, &d, NULL);
    /* the deck as the table leaves it at Turn 21: #11 on top, the rest discarded */
    int c11 = -1;
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].number == 11) c11 = i;
    s->ndraw = 1;
    s->draw[0] = (uint8_t)c11;
    s->ndiscard = 0;
    for (int i = 0; i < s->sc->ncards; i++)
        if (s->sc->cards[i].pile != 2 && i != c11) s->discard[s->ndiscard++] = (uint8_t)i;
    s->turn = 21;
    s->phasing = N20_FRENCH;
    s->phase = N20_PH_EVENTS;
    d.npurposes = 0;
    t_events ev = {0};
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "french draws #11"));
    assert_true(t_events_has(&ev, "17.3.1 historical events: reshuffle"));
    assert_int_equal(s->ndiscard, 0);
    assert_int_equal(s->ndraw, 12); /* #01-#12, #13 only with just-like-old-days */
    assert_int_equal(t_dice_count(&d, "5.0 event deck shuffle"), 11);
    /* without the variant the Night French draw does not reshuffle */
    t_dice d2;
    t_dice_init(&d2, 5);
    n20_state *s2 = s_game("waterloo20-closing", 0, &d2, NULL);
    s2->ndraw = 1;
    s2->draw[0] = (uint8_t)c11;
    s2->ndiscard = 0;
    s2->turn = 21;
    s2->phasing = N20_FRENCH;
    s2->phase = N20_PH_EVENTS;
    t_events ev2 = {0};
    n20_out out2 = {t_events_emit, &ev2};
    n20_run(s2, &d2.d, &out2);
    assert_true(t_events_has(&ev2, "french draws #11"));
    assert_false(t_events_has(&ev2, "reshuffle"));
    assert_int_equal(s2->ndraw, 0);
    free(s);
    free(s2);
}

/* [17.3.1] the variant belongs to the Closing Battles scenario: refused elsewhere, by rule */
static void test_n20_17_3_1_historical_events_only_in_closing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    const char *o[] = {"historical-events"};
    assert_null(s_setup_opts("waterloo20-standard", o, 1, &d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_string_equal(err.rule, "17.3.1");
    void *s = s_setup_opts("waterloo20-closing", o, 1, &d, &err);
    assert_non_null(s);
    assert_int_equal(((n20_state *)s)->opts, N20_OPT_HIST_EVENTS);
    brt_ruleset_n20.destroy(s);
}

/* ---- random play ------------------------------------------------------------ */

/* 1 if the order spends a Morale Point (forced march, reserves, rally) */
static int s_spends(const uint8_t *item, size_t len) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__order__descriptor, item, len, 0, &m) != CANON_OK) return 0;
    N20__V1__Order *o = (N20__V1__Order *)m;
    int r = o->kind_case == N20__V1__ORDER__KIND_FORCE_MARCH ||
            (o->kind_case == N20__V1__ORDER__KIND_RESOLVE && o->resolve->reserve) ||
            (o->kind_case == N20__V1__ORDER__KIND_RESERVE && o->reserve->commit) ||
            (o->kind_case == N20__V1__ORDER__KIND_RALLY && o->rally->n_spend) ||
            (o->kind_case == N20__V1__ORDER__KIND_COUNTERCHARGE && o->countercharge->reserve);
    protobuf_c_message_free_unpacked(m, NULL);
    return r;
}

static int s_rebuilds; /* [17.1] rebuild decisions met in random play */

/* plays one game of random legal orders; every listed order of the first `check` steps is
 * applied to a copy and must be accepted; returns the steps, fills the final state hash */
/* thrifty: the players rarely spend Morale, so that games last to the later turns */
static int s_play(const char *scenario, uint32_t opts, uint64_t seed, int check, int thrifty, uint8_t hash[32],
                  int *ended) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {t_null_emit, NULL};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    while (!s->over && steps < 30000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) fail_msg("%s seed %llu: no legal order (phase %d)", scenario, (unsigned long long)seed, s->phase);
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        if (s->phase == N20_PH_REBUILD) s_rebuilds++; /* [17.1] */
        for (int tries = 0; thrifty && tries < 4; tries++) {
            size_t p2 = 0;
            const uint8_t *it = NULL;
            size_t l2 = 0;
            int k = 0;
            while (buf_next_item(&legal, &p2, &it, &l2) == 1 && k < pick) k++;
            if (!s_spends(it, l2) || t_rng(&rng) % 16 == 0) break;
            pick = (int)(t_rng(&rng) % (uint64_t)n);
        }
        char tag[96];
        snprintf(tag, sizeof tag, "%s seed %llu", scenario, (unsigned long long)seed);
        size_t clen;
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, steps < check || s->phase == N20_PH_REBUILD, &d, &out, tag, &clen);
        assert_non_null(chosen);
        brt_reject err;
        if (n20_apply(s, (unsigned)seat, chosen, clen, &d.d, &out, &err) != 0)
            fail_msg("%s seed %llu: chosen order rejected: %s", scenario, (unsigned long long)seed, err.message);
        assert_int_equal(d.d.failed, 0);
        steps++;
    }
    buf_free(&legal);
    *ended = s->over;
    if (getenv("N20_SCEN_DEBUG")) fprintf(stderr, "%s %u: %d steps, turn %u, morale %d/%d, reason %u, rebuilds %d\n", scenario, opts, steps, s->turn, s->morale[0], s->morale[1], s->reason, s_rebuilds);
    t_hash(s, hash);
    free(s);
    return steps;
}

static void s_random_games(const char *scenario, uint32_t opts, int games) {
    const char *lg = getenv("BERTHIER_LONG");
    if (lg && *lg == '1') games *= 50;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        int n1 = s_play(scenario, opts, (uint64_t)g + 101, g == 0 ? 120 : 0, g % 2, h1, &e1);
        assert_true(e1); /* [15.0] / [17.2] every game ends with a result */
        int n2 = s_play(scenario, opts, (uint64_t)g + 101, 0, g % 2, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
}

static void test_n20_17_3_random_closing(void **st) {
    (void)st;
    s_random_games("waterloo20-closing", 0, 4);
}
static void test_n20_17_3_1_random_closing_historical(void **st) {
    (void)st;
    s_random_games("waterloo20-closing", N20_OPT_HIST_EVENTS, 4);
}

/* ---- [17.1] Extended Campaign ------------------------------------------------ */

/* [17.1] set-up: Turn 1 (15 June Morning), morale 7/8, no French on the map, the
 * reinforcement schedule, ZIETEN and ORANGE broken down into Cadres */
static void test_n20_17_1_extended_setup(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 11);
    n20_state *s = t_setup("waterloo20-extended", 0, &d, NULL);
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->sc->last_turn, 21);
    assert_int_equal(s->phasing, N20_FRENCH);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->morale[N20_ALLIED], 8);
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_side_of(s, i) == N20_FRENCH) assert_int_not_equal(s->u[i].where, N20_U_MAP);
    t_reinf(s, "REILLE", 1, 'A');
    t_reinf(s, "PAJOL", 1, 'A');
    t_reinf(s, "GARDE", 2, 'A');
    t_reinf(s, "KELLERMANN", 3, 'A');
    t_reinf(s, "VANDAMME", 4, 'A');
    t_reinf(s, "MILHAUD", 5, 'A');
    t_reinf(s, "ARTILLERY", 6, 'A');
    t_reinf(s, "LOBAU", 7, 'A');
    assert_int_equal(s->sc->units[t_unit(s, "LOBAU")].strength, 1);
    s_at(s, "CADRE-ORANGE1", 1201);
    t_reinf(s, "CADRE-ORANGE2", 3, 'X');
    t_reinf(s, "RESERVE", 5, 'X');
    t_reinf(s, "COLLAERT", 8, 'X');
    t_reinf(s, "HILL", 10, 'X');
    s_at(s, "CADRE-ZIETEN1", 203);
    s_at(s, "CADRE-ZIETEN2", 205);
    s_at(s, "ROEDER", 206);
    t_reinf(s, "PIRCH", 4, 'Z');
    t_reinf(s, "VONHOBE", 6, 'Z');
    t_reinf(s, "THIELMANN", 7, 'Z');
    t_reinf(s, "BULOW", 10, 'Y');
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].where, N20_U_OUT);
    assert_int_equal(s->u[t_unit(s, "ORANGE")].where, N20_U_OUT);
    assert_int_equal(n20_unit_find(s, "RAPP"), -1);
    /* [17.1] #12 and #11 begin in the Discard Pile, #10 on top of the Draw Pile */
    assert_int_equal(s->ndiscard, 2);
    assert_int_equal(s->ndraw, 10);
    assert_int_equal(s_card_number(s, s->draw[0]), 10);
    for (int i = 1; i < s->ndraw; i++) assert_int_not_equal(s_card_number(s, s->draw[i]), 10);
    /* the track: Turn 6 is the first Night turn, Turn 7 the Morning of 16 June (R-17.1-turn6) */
    assert_true(s->sc->turns[6].night);
    for (int t = 1; t <= 5; t++) assert_false(s->sc->turns[t].night);
    assert_string_equal(s->sc->turns[7].label, "16-June morning");
    assert_string_equal(s->sc->turns[9].label, "16-June afternoon"); /* from the base */
    free(s);
}

/* [17.1] Random Events: the French skip their first phase, so the Allied player draws #10 first */
/* [17.1] "Optional rule [16.6] (Unit Breakdown and Buildup) must be used": the Extended and
 * Opening games play with `breakdown` whether or not it was chosen; the Standard one does not */
static void test_n20_17_1_breakdown_is_mandatory(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    const char *none[] = {NULL};
    n20_state *s = s_setup_opts("waterloo20-extended", none, 0, &d, &err);
    assert_non_null(s);
    assert_true(s->opts & N20_OPT_BREAKDOWN);
    brt_ruleset_n20.destroy(s);
    s = s_setup_opts("waterloo20-opening", none, 0, &d, &err);
    assert_non_null(s);
    assert_true(s->opts & N20_OPT_BREAKDOWN);
    brt_ruleset_n20.destroy(s);
    s = s_setup_opts("waterloo20-standard", none, 0, &d, &err);
    assert_non_null(s);
    assert_false(s->opts & N20_OPT_BREAKDOWN);
    brt_ruleset_n20.destroy(s);
    const char *bd[] = {"breakdown"};
    s = s_setup_opts("waterloo20-extended", bd, 1, &d, &err); /* naming it too is fine */
    assert_non_null(s);
    assert_true(s->opts & N20_OPT_BREAKDOWN);
    brt_ruleset_n20.destroy(s);
}

static void test_n20_17_1_card_10_drawn_first(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 12);
    t_events ev = {0};
    n20_state *s = s_game("waterloo20-extended", 0, &d, &ev);
    assert_true(t_events_has(&ev, "[5.0] the french Random Events Phase of the first Game Turn is skipped"));
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_int_equal(s_card_number(s, s->draw[0]), 10);
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_EVENTS;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_true(t_events_has(&ev, "allied draws #10 Now's Your Time!"));
    free(s);
}

/* [17.1] the French enter at Area A on Turn 1; the Prussians at Area Z (not Y) */
static void test_n20_17_1_entry_areas(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 13);
    n20_state *s = s_game("waterloo20-extended", 0, &d, NULL);
    brt_reject err;
    assert_int_equal(t_order(s, N20_FRENCH, "move PAJOL 0107", &d, NULL, &err), 0);
    s_at(s, "PAJOL", 107);
    assert_int_equal(t_order(s, N20_FRENCH, "move GARDE 0106", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.0"); /* Turn 2 */
    s->turn = 4;
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_MOVE;
    assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 2412", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "11.6");
    assert_int_equal(t_order(s, N20_ALLIED, "move PIRCH 0812", &d, NULL, &err), 0);
    s_at(s, "PIRCH", 812);
    free(s);
}

/* an Allied Player Turn of `turn` with an empty deck, run to the Movement Phase */
static void s_allied_turn(n20_state *s, int turn, t_dice *d, t_events *ev) {
    s->turn = (uint8_t)turn;
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_EVENTS;
    s->ndraw = 0;
    s->ndiscard = 0;
    n20_out out = {t_events_emit, ev};
    n20_run(s, &d->d, &out);
    assert_int_equal(s->phase, N20_PH_MOVE);
}

/* [17.1.3] Look Out Bulow!: no roll before 16 June Morning (Turn 7); a 6 brings BULOW via Area Y */
static void test_n20_17_1_3_bulow_arrives_on_6(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 14);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LOOKOUT_BULOW, &d, NULL);
    int b = t_unit(s, "BULOW");
    assert_int_equal(s->sc->units[b].place, N20_P_ROLL);
    assert_int_equal(s->u[b].where, N20_U_VARIABLE);
    assert_int_equal(s->u[b].arrive, 7);
    t_events ev = {0};
    uint32_t six[] = {6};
    t_dice_script(&d, 1, six);
    d.npurposes = 0;
    s_allied_turn(s, 6, &d, &ev);
    assert_int_equal(t_dice_count(&d, "17.1.3 arrival roll"), 0);
    assert_int_equal(s->u[b].where, N20_U_VARIABLE);
    s_allied_turn(s, 7, &d, &ev);
    assert_int_equal(t_dice_count(&d, "17.1.3 arrival roll"), 1);
    assert_true(t_events_has(&ev, "BULOW rolls 6: it arrives this turn"));
    t_reinf(s, "BULOW", 7, 'Y');
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2412", &d, NULL, &err), 0);
    s_at(s, "BULOW", 2412);
    free(s);
}

/* [17.1.3] a 5 arrives only if the Prussian army Forced Marches that turn (+1) */
static void test_n20_17_1_3_bulow_forced_march_plus_1(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 15);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LOOKOUT_BULOW, &d, NULL);
    int b = t_unit(s, "BULOW");
    t_events ev = {0};
    uint32_t five[] = {5};
    t_dice_script(&d, 1, five);
    s_allied_turn(s, 8, &d, &ev);
    assert_int_equal(s->u[b].where, N20_U_VARIABLE);
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2412", &d, NULL, &err), -1);
    int m = s->morale[N20_ALLIED];
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch prussian", &d, &ev, &err), 0);
    assert_int_equal(s->morale[N20_ALLIED], m - 1);
    assert_true(t_events_has(&ev, "[17.1.3] the prussian army Force Marches: BULOW arrives this turn"));
    t_reinf(s, "BULOW", 8, 'Y');
    assert_int_equal(t_order(s, N20_ALLIED, "move BULOW 2412", &d, NULL, &err), 0);
    free(s);
    /* an Anglo-Dutch Forced March does not help the Prussian */
    t_dice_init(&d, 15);
    s = t_setup("waterloo20-extended", N20_OPT_LOOKOUT_BULOW, &d, NULL);
    t_dice_script(&d, 1, five);
    s_allied_turn(s, 8, &d, &ev);
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch anglo", &d, NULL, &err), 0);
    assert_int_equal(s->u[b].where, N20_U_VARIABLE);
    assert_int_equal(s->u[b].arrive, 9);
    free(s);
}

/* [17.1.3] any other result: BULOW moves one turn ahead and rolls again */
static void test_n20_17_1_3_bulow_delayed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 16);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_LOOKOUT_BULOW, &d, NULL);
    int b = t_unit(s, "BULOW");
    t_events ev = {0};
    uint32_t rolls[] = {4, 1, 6};
    t_dice_script(&d, 3, rolls);
    s_allied_turn(s, 7, &d, &ev);
    assert_true(t_events_has(&ev, "BULOW rolls 4: delayed to Turn 8"));
    assert_int_equal(s->u[b].flags & N20_UF_FM_ARRIVE, 0);
    brt_reject err;
    assert_int_equal(t_order(s, N20_ALLIED, "forcemarch prussian", &d, NULL, &err), 0);
    assert_int_equal(s->u[b].where, N20_U_VARIABLE); /* 4 + 1 is not 6 */
    s_allied_turn(s, 8, &d, &ev);
    assert_true(t_events_has(&ev, "BULOW rolls 1: delayed to Turn 9"));
    s_allied_turn(s, 9, &d, &ev);
    t_reinf(s, "BULOW", 9, 'Y');
    free(s);
    /* without the variant BULOW is a Turn 10 reinforcement, and no die is rolled for him */
    t_dice_init(&d, 16);
    s = t_setup("waterloo20-extended", 0, &d, NULL);
    t_reinf(s, "BULOW", 10, 'Y');
    d.npurposes = 0;
    s_allied_turn(s, 7, &d, &ev);
    assert_int_equal(t_dice_count(&d, "17.1.3 arrival roll"), 0);
    free(s);
}

/* [17.1.3] a variant of the Extended Campaign (and so of the Opening Battles [17.2]) only */
static void test_n20_17_1_3_only_in_extended(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    const char *o[] = {"look-out-bulow"};
    assert_null(s_setup_opts("waterloo20-standard", o, 1, &d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_string_equal(err.rule, "17.1.3");
    assert_null(s_setup_opts("waterloo20-closing", o, 1, &d, &err));
    assert_string_equal(err.rule, "17.1.3");
    void *s = s_setup_opts("waterloo20-extended", o, 1, &d, &err);
    assert_non_null(s);
    brt_ruleset_n20.destroy(s);
    s = s_setup_opts("waterloo20-opening", o, 1, &d, &err);
    assert_non_null(s);
    brt_ruleset_n20.destroy(s);
    /* [17.1.1] likewise a variant of the Extended Campaign only (test_n20_sambre.c plays it) */
    const char *sam[] = {"sambre-crossing"};
    assert_null(s_setup_opts("waterloo20-standard", sam, 1, &d, &err));
    assert_int_equal(err.code, BRT_REJECT_BAD_OPTION);
    assert_string_equal(err.rule, "17.1.1");
    s = s_setup_opts("waterloo20-extended", sam, 1, &d, &err);
    assert_non_null(s);
    brt_ruleset_n20.destroy(s);
}

/* [17.1.2] Berthier is Back! "can work with any scenario": accepted everywhere. Its two effects
 * (+1 on the French Arrival Table of [17.1.1], the 3-rated NAPOLEON of [16.9]) need those rules;
 * without them the set-up is the scenario's own (with Leaders: test_n20_extended.c) */
static void test_n20_17_1_2_berthier_any_scenario(void **st) {
    (void)st;
    const char *names[] = {"waterloo20-standard", "waterloo20-extended", "waterloo20-opening",
                           "waterloo20-closing"};
    const char *o[] = {"berthier-is-back"};
    for (size_t i = 0; i < 4; i++) {
        t_dice d1, d2;
        t_dice_init(&d1, 9);
        t_dice_init(&d2, 9);
        brt_reject err;
        n20_state *a = s_setup_opts(names[i], o, 1, &d1, &err);
        n20_state *b = s_setup_opts(names[i], NULL, 0, &d2, &err);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(a->opts, N20_OPT_BERTHIER_BACK | a->sc->opts_required);
        assert_int_equal(a->morale[0], b->morale[0]);
        assert_memory_equal(a->u, b->u, sizeof a->u);
        assert_memory_equal(a->draw, b->draw, sizeof a->draw);
        brt_ruleset_n20.destroy(a);
        brt_ruleset_n20.destroy(b);
    }
}

/* ---- [17.2] Opening Battles -------------------------------------------------- */

/* [17.2] the Extended set-up, ending on Turn 12 */
static void test_n20_17_2_opening_setup(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 21);
    n20_state *s = t_setup("waterloo20-opening", 0, &d, NULL);
    assert_string_equal(s->sc->id, "waterloo20-opening");
    assert_string_equal(s->sc->base, "waterloo20-extended");
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->sc->last_turn, 12);
    assert_int_equal(s->sc->victory, N20_VICTORY_OPENING);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->morale[N20_ALLIED], 8);
    t_reinf(s, "REILLE", 1, 'A');
    s_at(s, "CADRE-ZIETEN1", 203);
    assert_int_equal(s_card_number(s, s->draw[0]), 10);
    uint8_t h[32], want[32];
    assert_int_equal(brt_ruleset_n20.scenario_hash("waterloo20-opening", h), 0);
    crypto_generichash_state hs;
    crypto_generichash_init(&hs, NULL, 0, 32);
    const char *names[] = {"waterloo20-opening", "waterloo20-extended", "waterloo20-standard"};
    for (int i = 0; i < 3; i++) {
        size_t l;
        const char *t = n20_data_text(names[i], &l);
        crypto_generichash_update(&hs, (const unsigned char *)t, l);
    }
    crypto_generichash_final(&hs, want, 32);
    assert_memory_equal(h, want, 32);
    free(s);
}

/* the end of the Opening Battles game with Allied units on `held` French Objective hexes */
static n20_state *s_opening_end(int held, int french, int allied, brt_result *r) {
    t_dice d;
    t_dice_init(&d, 22);
    n20_state *s = t_setup("waterloo20-opening", 0, &d, NULL);
    if (held >= 1) t_place(s, "CADRE-ZIETEN1", 1104); /* Quatre Bras */
    if (held >= 2) t_place(s, "CADRE-ZIETEN2", 809);  /* Sombreffe */
    if (held < 2) t_place(s, "CADRE-ZIETEN2", 810);
    if (held < 1) t_place(s, "CADRE-ZIETEN1", 1105);
    t_place(s, "REILLE", 808); /* a French unit next to Sombreffe does not count */
    s->morale[N20_FRENCH] = (int8_t)french;
    s->morale[N20_ALLIED] = (int8_t)allied;
    s->turn = 12;
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_true(s->over);
    n20_result(s, r);
    return s;
}

static void s_expect(int held, int french, int allied, unsigned winners, const char *level, const char *why) {
    brt_result r;
    n20_state *s = s_opening_end(held, french, allied, &r);
    assert_int_equal(r.winners, winners);
    assert_string_equal(r.level, level);
    assert_non_null(strstr(r.reason, why));
    free(s);
}

/* [17.2] both French Objective hexes held by Anti-French units: Anti-French Decisive,
 * regardless of morale */
static void test_n20_17_2_allied_decisive_both_objectives(void **st) {
    (void)st;
    s_expect(2, 9, 2, 2u, "decisive", "[17.2] Anti-French Decisive Victory");
}

/* [17.2] neither held and French morale higher: French Marginal */
static void test_n20_17_2_french_marginal(void **st) {
    (void)st;
    s_expect(0, 6, 5, 1u, "marginal", "[17.2] French Marginal Victory");
}

/* [17.2] one held and Anti-French morale higher: Anti-French Marginal */
static void test_n20_17_2_allied_marginal_one_objective(void **st) {
    (void)st;
    s_expect(1, 4, 5, 2u, "marginal", "[17.2] Anti-French Marginal Victory");
}

/* [17.2] any other result is a Draw: none held but Anti-French morale higher (or equal), one held
 * but French morale higher (or equal) */
static void test_n20_17_2_draws(void **st) {
    (void)st;
    s_expect(0, 4, 5, 0u, "draw", "[17.2] Draw");
    s_expect(0, 5, 5, 0u, "draw", "[17.2] Draw");
    s_expect(1, 6, 5, 0u, "draw", "[17.2] Draw");
    s_expect(1, 5, 5, 0u, "draw", "[17.2] Draw");
}

/* [17.2] "The game ends on Turn 12": Turn 11 goes on to Turn 12 */
static void test_n20_17_2_ends_on_turn_12(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 23);
    n20_state *s = t_setup("waterloo20-opening", 0, &d, NULL);
    s->turn = 11;
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_TURN_END;
    n20_run(s, &d.d, NULL);
    assert_false(s->over);
    assert_int_equal(s->turn, 12);
    free(s);
}

/* ---- [17.1] SPECIAL RULE: ZIETEN and ORANGE begin broken down ---------------- */

/* the Extended Campaign with every unit off the map (pool), `phasing`'s Player Turn about to start */
static n20_state *s_ext_empty(t_dice *d, int turn, int phasing) {
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_BREAKDOWN, d, NULL);
    t_clear_map(s);
    s->turn = (uint8_t)turn;
    s->phasing = (uint8_t)phasing;
    s->first_turn_done = 1;
    s->phase = N20_PH_EVENTS;
    return s;
}

/* [17.1] the data marks the detached Cadres and their parents: Cadre units [16.5.2] of the parent's
 * nationality; the Opening Battles scenario [17.2] inherits them; the Standard Scenario has none */
static void test_n20_17_1_special_data(void **st) {
    (void)st;
    const n20_scenario *sc = n20_scenario_get("waterloo20-extended");
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_setup("waterloo20-extended", N20_OPT_BREAKDOWN, &d, NULL);
    int zi = t_unit(s, "ZIETEN"), ora = t_unit(s, "ORANGE");
    const char *pz[] = {"CADRE-ZIETEN1", "CADRE-ZIETEN2"}, *po[] = {"CADRE-ORANGE1", "CADRE-ORANGE2"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(sc->units[t_unit(s, pz[k])].parent, zi + 1);
        assert_int_equal(sc->units[t_unit(s, po[k])].parent, ora + 1);
        assert_true(sc->units[t_unit(s, pz[k])].flags & N20_FLAG_CADRE);
    }
    int parents = 0;
    for (int i = 0; i < sc->nunits; i++) parents += n20_is_parent(sc, i);
    assert_int_equal(parents, 2);
    assert_true(n20_is_parent(sc, zi) && n20_is_parent(sc, ora));
    free(s);
    const n20_scenario *op = n20_scenario_get("waterloo20-opening");
    parents = 0;
    for (int i = 0; i < op->nunits; i++) parents += n20_is_parent(op, i);
    assert_int_equal(parents, 2);
    const n20_scenario *std = n20_scenario_get("waterloo20-standard");
    for (int i = 0; i < std->nunits; i++) {
        assert_false(n20_is_parent(std, i));
        assert_int_equal(std->units[i].parent, 0);
    }
}

/* [17.1] "they can be combined into that unit normally in accordance with rule [16.6.2] including
 * gaining one Morale Point": the two detached Cadres of ZIETEN, stacked at the end of the Allied
 * Movement Phase, become ZIETEN (from the pool: no unit is eliminated) */
static void test_n20_17_1_detached_cadres_combine_into_parent(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_ext_empty(&d, 2, N20_ALLIED);
    s->phase = N20_PH_MOVE;
    s->morale[N20_ALLIED] = 5;
    int a = t_place(s, "CADRE-ZIETEN1", 1505), b = t_place(s, "CADRE-ZIETEN2", 1507);
    int zi = t_unit(s, "ZIETEN");
    assert_true(t_legal_has(s, N20_ALLIED, "move CADRE-ZIETEN2 1506 1505"));
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-ZIETEN2 1506 1505", &d, &ev, &err), 0);
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, &ev, &err), 0);
    assert_int_equal(s->u[zi].where, N20_U_MAP);
    assert_int_equal(s->u[zi].hex, n20_hex(1505));
    assert_int_equal(s->u[a].where, N20_U_OUT);
    assert_int_equal(s->u[b].where, N20_U_OUT);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    assert_true(t_events_has(&ev, "[16.6.2] CADRE-ZIETEN1 and CADRE-ZIETEN2 combine into ZIETEN at 1505 (its "
                                  "detached Cadres [17.1])"));
    free(s);

    /* a detached Cadre with a Cadre of the pool: no eliminated Prussian unit, so no build-up [6.9] */
    t_dice_init(&d, 1);
    s = s_ext_empty(&d, 2, N20_ALLIED);
    s->phase = N20_PH_MOVE;
    t_place(s, "CADRE-ZIETEN1", 1505);
    t_place(s, "CADRE-P1", 1507);
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-P1 1506 1505", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.9");
    /* ORANGE's and ZIETEN's Cadres are of two nationalities */
    t_place(s, "CADRE-ORANGE1", 1509);
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-ORANGE1 1508 1507 1506 1505", &d, NULL, &err), -1);
    free(s);
}

/* [17.1] a detached Cadre is a Cadre unit: Broken, it is not Rallied but returns to the pool
 * [16.5.2], and its pair can no longer rebuild ZIETEN by [16.6.2] ("Under normal circumstances,
 * the loss of one of these Cadres would prevent the Allied player from rebuilding the associated
 * parent unit") */
static void test_n20_17_1_broken_detached_cadre_is_lost(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_ext_empty(&d, 3, N20_FRENCH);
    int a = t_place(s, "CADRE-ZIETEN1", 1505), b = t_place(s, "CADRE-ZIETEN2", 1507);
    int zi = t_unit(s, "ZIETEN");
    int m = s->morale[N20_ALLIED];
    n20_break_unit(s, a, NULL, "9.6");
    assert_int_equal(s->u[a].where, N20_U_OUT); /* back to the pool, never Broken */
    assert_int_equal(s->cadre_lost[zi], 3);
    assert_int_equal(s->morale[N20_ALLIED], m - s->sc->mc_break_owner); /* a Broken unit's cost [12.1] */
    assert_false(n20_has_broken(s, N20_ALLIED, -1));
    /* a later breakdown takes it from the pool; stacked with its old pair it does not become ZIETEN */
    s->phasing = N20_ALLIED;
    s->phase = N20_PH_MOVE;
    t_place(s, "CADRE-ZIETEN1", 1505);
    assert_false(n20_combine_ok(s, b, a));
    assert_int_equal(t_order(s, N20_ALLIED, "move CADRE-ZIETEN2 1506 1505", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.9");
    /* the encoding carries the loss (ZIETEN's and ORANGE's entries only) */
    brt_buf e1, e2;
    buf_init(&e1);
    buf_init(&e2);
    n20_encode(s, &e1);
    s->cadre_lost[zi] = 0;
    n20_encode(s, &e2);
    assert_int_equal(e1.len, e2.len);
    assert_memory_not_equal(e1.data, e2.data, e1.len);
    buf_free(&e1);
    buf_free(&e2);
    free(s);
}

/* a Turn-4 Allied Player Turn about to start: CADRE-ZIETEN1 was Broken on Turn 3, CADRE-ZIETEN2 at
 * 1505, a French unit at `french` (0: none) */
static n20_state *s_rebuild_pos(t_dice *d, unsigned french) {
    n20_state *s = s_ext_empty(d, 4, N20_ALLIED);
    s->cadre_lost[t_unit(s, "ZIETEN")] = 3;
    t_place(s, "CADRE-ZIETEN2", 1505);
    if (french) t_place(s, "REILLE", french);
    return s;
}

/* [17.1] PROCEDURE: "If one of his Cadres is Broken during the course of play, on any future Turn the
 * Allied player may choose to voluntarily eliminate a Cadre of the same national group ... in order to
 * place the associated Infantry unit ... into his Broken Units pile": a decision at the start of the
 * Allied Player Turn, before the Random Events Phase, with `end` to decline */
static void test_n20_17_1_rebuild_eligible(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 1508);
    assert_int_equal(n20_distance(n20_hex(1505), n20_hex(1508)), 3);
    int c = t_unit(s, "CADRE-ZIETEN2"), zi = t_unit(s, "ZIETEN");
    int m0 = s->morale[N20_ALLIED], m1 = s->morale[N20_FRENCH], nd = s->ndraw;
    n20_out out = {t_events_emit, &ev};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_REBUILD);
    assert_int_equal(n20_pending_seat(s), N20_ALLIED);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "rebuild");
    assert_string_equal(p.rule, "17.1");
    assert_int_equal(s->ndraw, nd); /* before the Random Events Phase */
    assert_true(t_legal_has(s, N20_ALLIED, "rebuild CADRE-ZIETEN2"));
    assert_true(t_legal_has(s, N20_ALLIED, "end"));
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild REILLE", &d, &ev, &err), -1);
    assert_string_equal(err.rule, "17.1");
    int rolls = d.npurposes, ne = ev.n;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, &ev, &err), 0);
    assert_int_equal(s->u[c].where, N20_U_ELIM); /* removed from play, not back to the pool */
    assert_int_equal(s->u[zi].where, N20_U_BROKEN);
    /* the rebuild is the first event; then the Random Events Phase (its card may change Morale) */
    assert_true(ne < ev.n);
    assert_non_null(strstr(ev.text[ne], "rebuild: [17.1] CADRE-ZIETEN2 is eliminated at 1505: ZIETEN goes into "
                                        "the Broken Units pile, to be Rallied [10.0]"));
    assert_true(ne + 1 < ev.n && strstr(ev.text[ne + 1], "event-card") != NULL);
    assert_int_equal(s->ndraw, nd - 1);
    int cards = 0; /* no Morale change but the card's */
    for (int i = ne; i < ev.n; i++) cards += strstr(ev.text[i], "morale") != NULL && strstr(ev.text[i], "17.1") != NULL;
    assert_int_equal(cards, 0);
    (void)m0;
    (void)m1;
    /* no die rolled by the procedure: the only dice are the Random Events Phase's */
    for (int i = rolls; i < d.npurposes; i++) assert_null(strstr(d.purposes[i], "17.1"));
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    assert_int_equal(n20_rebuild_parent(s, c), -1); /* once: ZIETEN is no longer waiting */
    free(s);

    /* declining: `end` goes on to the Random Events Phase, nothing changes */
    t_dice_init(&d, 1);
    s = s_rebuild_pos(&d, 0);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_REBUILD);
    nd = s->ndraw;
    assert_int_equal(t_order(s, N20_ALLIED, "end", &d, NULL, &err), 0);
    assert_int_equal(s->ndraw, nd - 1);
    assert_int_equal(s->u[t_unit(s, "CADRE-ZIETEN2")].where, N20_U_MAP);
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].where, N20_U_OUT);
    free(s);
}

/* [17.1] "a Cadre of the same national group": any Prussian Cadre on the map, a Cadre of the pool
 * too (rulings R-17.1-special); a Cadre of the other nationality does not rebuild ZIETEN */
static void test_n20_17_1_rebuild_nationality(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    s->u[t_unit(s, "CADRE-ZIETEN2")].where = N20_U_OUT;
    int p1 = t_place(s, "CADRE-P1", 1509);
    t_place(s, "CADRE-ORANGE1", 1201);
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_REBUILD);
    assert_true(t_legal_has(s, N20_ALLIED, "rebuild CADRE-P1"));
    assert_false(t_legal_has(s, N20_ALLIED, "rebuild CADRE-ORANGE1"));
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ORANGE1", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_true(strstr(err.message, "ORANGE") != NULL); /* ORANGE's Cadres were never Broken */
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-P1", &d, NULL, &err), 0);
    assert_int_equal(s->u[p1].where, N20_U_ELIM);
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].where, N20_U_BROKEN);
    assert_int_equal(s->u[t_unit(s, "ORANGE")].where, N20_U_OUT);
    free(s);

    /* only ORANGE's Cadre was lost: a Prussian Cadre cannot bring ORANGE back */
    t_dice_init(&d, 1);
    s = s_ext_empty(&d, 4, N20_ALLIED);
    s->cadre_lost[t_unit(s, "ORANGE")] = 2;
    t_place(s, "CADRE-ZIETEN1", 1505);
    t_place(s, "CADRE-ZIETEN2", 1509);
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN1", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_int_equal(s->u[t_unit(s, "ORANGE")].where, N20_U_OUT);
    free(s);
}

/* [17.1] ZIETEN and ORANGE each by its own Cadre at the same start of turn; with fog-of-war the
 * Cadre taken off is revealed, the parent is face-up in the Broken Units pile, and the events name no
 * unit still hidden from the French seat (rulings R-17.1-special) */
static void s_ids_leak(const n20_state *s, const t_events *ev) {
    for (int i = 0; i < ev->n; i++)
        for (int u = 0; u < s->sc->nunits; u++)
            if (n20_fog_hidden_from(s, u, N20_FRENCH) && strstr(ev->text[i], n20_uid(s, u)))
                fail_msg("an event to the French names hidden %s: %s", n20_uid(s, u), ev->text[i]);
}
static void s_seat_emit(void *ctx, uint32_t seats, const uint8_t *data, size_t len) {
    if (seats & 1u) t_events_emit(ctx, data, len); /* what the French seat receives */
}
static void test_n20_17_1_rebuild_both_parents_and_fog(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    s->opts |= N20_OPT_FOG;
    for (int i = 0; i < s->sc->nunits; i++) s->u[i].hidden = 1;
    s->cadre_lost[t_unit(s, "ORANGE")] = 2;
    int oc = t_place(s, "CADRE-ORANGE1", 1201), zc = t_unit(s, "CADRE-ZIETEN2");
    t_place(s, "CADRE-A1", 1203); /* stays hidden */
    t_events fr = {0};
    n20_sink sink = {s_seat_emit, &fr};
    n20_out out = {n20_sink_emit, &sink};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->phase, N20_PH_REBUILD);
    assert_true(t_legal_has(s, N20_ALLIED, "rebuild CADRE-ORANGE1"));
    assert_true(t_legal_has(s, N20_ALLIED, "rebuild CADRE-ZIETEN2"));
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_order_parse(s, "rebuild CADRE-ZIETEN2", &b, &err), 0);
    assert_int_equal(n20_apply(s, N20_ALLIED, b.data, b.len, &d.d, &out, &err), 0);
    assert_int_equal(s->phase, N20_PH_REBUILD); /* ORANGE's is still open */
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].where, N20_U_BROKEN);
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].hidden, 0);
    assert_int_equal(s->u[zc].hidden, 0);
    buf_reset(&b);
    assert_int_equal(n20_order_parse(s, "rebuild CADRE-ORANGE1", &b, &err), 0);
    assert_int_equal(n20_apply(s, N20_ALLIED, b.data, b.len, &d.d, &out, &err), 0);
    buf_free(&b);
    assert_int_equal(s->u[oc].where, N20_U_ELIM);
    assert_int_equal(s->u[t_unit(s, "ORANGE")].where, N20_U_BROKEN);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    assert_true(t_events_has(&fr, "[17.1] CADRE-ORANGE1 is eliminated at 1201: ORANGE goes into the Broken Units"));
    assert_true(t_events_has(&fr, "CADRE-ZIETEN2 (prussian infantry 1-2) is revealed at 1505"));
    s_ids_leak(s, &fr);
    assert_int_equal(s->u[t_unit(s, "CADRE-A1")].hidden, 1);
    free(s);
}

/* [17.1] no Cadre Broken: no decision; the two Cadres combine instead */
static void test_n20_17_1_rebuild_needs_a_broken_cadre(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    s->cadre_lost[t_unit(s, "ZIETEN")] = 0;
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_true(strstr(err.message, "combine them instead") != NULL);
    free(s);

    /* "on any future Turn": not on the Turn the Cadre was Broken */
    t_dice_init(&d, 1);
    s = s_rebuild_pos(&d, 0);
    s->cadre_lost[t_unit(s, "ZIETEN")] = 4;
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_true(strstr(err.message, "later Turn") != NULL);
    free(s);

    /* ZIETEN already rebuilt (on the map): nothing to restore */
    t_dice_init(&d, 1);
    s = s_rebuild_pos(&d, 0);
    t_place(s, "ZIETEN", 1509);
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    free(s);
}

/* [17.1] "The Cadre being eliminated cannot be adjacent to or within two hexes of an enemy unit" */
static void test_n20_17_1_rebuild_enemy_within_two_hexes(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 1507);
    assert_int_equal(n20_distance(n20_hex(1505), n20_hex(1507)), 2);
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_true(strstr(err.message, "within two hexes") != NULL);
    free(s);

    t_dice_init(&d, 1); /* adjacent */
    s = s_rebuild_pos(&d, 1506);
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    free(s);
}

/* [17.1] "at the start of the Allied Player Turn ... of a Daylight (non-Night) Turn" */
static void test_n20_17_1_rebuild_not_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    s->turn = 6; /* 15 June Night (R-17.1-turn6) */
    assert_true(n20_is_night(s));
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_true(strstr(err.message, "Daylight") != NULL);
    free(s);
}

/* [17.1] only at that moment: not in the Allied Movement Phase, not at the French Player Turn */
static void test_n20_17_1_rebuild_wrong_timing(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    s->phase = N20_PH_MOVE;
    assert_false(t_legal_has(s, N20_ALLIED, "rebuild CADRE-ZIETEN2"));
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    assert_true(strstr(err.message, "start of the Allied Player Turn") != NULL);
    assert_int_equal(s->u[t_unit(s, "ZIETEN")].where, N20_U_OUT);
    s->phase = N20_PH_RALLY;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    free(s);

    /* the French Player Turn's start offers nothing (the Allied seat does not decide there) */
    t_dice_init(&d, 1);
    s = s_rebuild_pos(&d, 0);
    s->phasing = N20_FRENCH;
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), -1);
    free(s);
}

/* [17.1] "... so that it can then be Rallied normally [10.0]": ZIETEN rallies at Night and is placed */
static void test_n20_17_1_rebuilt_parent_rallies(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    t_events ev = {0};
    brt_reject err;
    n20_state *s = s_rebuild_pos(&d, 0);
    n20_run(s, &d.d, NULL);
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-ZIETEN2", &d, NULL, &err), 0);
    int zi = t_unit(s, "ZIETEN");
    assert_int_equal(s->u[zi].where, N20_U_BROKEN);
    assert_true(n20_has_broken(s, N20_ALLIED, N20_ARMY_PRUSSIAN));
    s->phase = N20_PH_RALLY; /* its Night Operations [14.0] */
    uint32_t six[] = {6};
    t_dice_script(&d, 1, six);
    assert_true(t_legal_has(s, N20_ALLIED, "rally"));
    assert_int_equal(t_order(s, N20_ALLIED, "rally", &d, &ev, &err), 0);
    assert_int_equal(t_dice_count(&d, "10.0 rally"), 1);
    assert_true(s->u[zi].flags & N20_UF_RALLIED);
    uint16_t loc = s->sc->loc[N20_ARMY_PRUSSIAN][0];
    char pl[40];
    snprintf(pl, sizeof pl, "place ZIETEN %04u", n20_xxyy(loc));
    assert_true(t_legal_has(s, N20_ALLIED, pl));
    assert_int_equal(t_order(s, N20_ALLIED, pl, &d, &ev, &err), 0);
    assert_int_equal(s->u[zi].where, N20_U_MAP);
    assert_int_equal(s->u[zi].hex, loc);
    free(s);
}

/* [17.1] "for Extended Campaign scenarios only": the Standard Scenario never offers it */
static void test_n20_17_1_rebuild_never_in_standard(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    brt_reject err;
    n20_state *s = t_empty(&d, 10, N20_ALLIED);
    s->opts |= N20_OPT_BREAKDOWN;
    s->phase = N20_PH_EVENTS;
    int c = t_place(s, "CADRE-P1", 1505);
    for (int i = 0; i < s->sc->nunits; i++) s->cadre_lost[i] = 1; /* not even so */
    assert_int_equal(n20_rebuild_parent(s, c), -1);
    assert_false(n20_rebuild_any(s));
    n20_run(s, &d.d, NULL);
    assert_int_not_equal(s->phase, N20_PH_REBUILD);
    s->phase = N20_PH_REBUILD;
    assert_int_equal(t_order(s, N20_ALLIED, "rebuild CADRE-P1", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "17.1");
    free(s);
}

static void test_n20_17_1_random_extended(void **st) {
    (void)st;
    s_random_games("waterloo20-extended", 0, 2);
}
/* [17.1] random Extended games meet the rebuild decision: every listed order is accepted there, the
 * games end and replay identically */
static void test_n20_17_1_random_extended_rebuilds(void **st) {
    (void)st;
    s_rebuilds = 0;
    for (uint64_t g = 0; g < 40 && !s_rebuilds; g++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        int n1 = s_play("waterloo20-extended", 0, 301 + g, 0, 1, h1, &e1);
        assert_true(e1);
        int n2 = s_play("waterloo20-extended", 0, 301 + g, 0, 1, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
        if (getenv("N20_SCEN_DEBUG")) fprintf(stderr, "game %d: rebuilds %d\n", (int)g, s_rebuilds);
    }
    assert_true(s_rebuilds > 0);
}
static void test_n20_17_1_3_random_extended_bulow_berthier(void **st) {
    (void)st;
    s_random_games("waterloo20-extended", N20_OPT_LOOKOUT_BULOW | N20_OPT_BERTHIER_BACK, 2);
}
static void test_n20_17_2_random_opening(void **st) {
    (void)st;
    s_random_games("waterloo20-opening", 0, 3);
}
static void test_n20_17_2_random_opening_bulow(void **st) {
    (void)st;
    s_random_games("waterloo20-opening", N20_OPT_LOOKOUT_BULOW, 3);
}

/* ---- [17.4] game balance options ------------------------------------------- */

/* the LOBAU unit of a game, its strength and place (0 = not on the map) */
static void s_lobau(const n20_state *s, int strength, unsigned hex, int turn) {
    int u = t_unit(s, "LOBAU");
    assert_int_equal(s->sc->units[u].strength, strength);
    if (hex) s_at(s, "LOBAU", hex);
    else t_reinf(s, "LOBAU", turn, 'A');
}

/* [17.4.1] Lobau Reinforced: the 2-2 6e LOBAU replaces the 1-2 CADRE of each set-up */
static void test_n20_17_4_1_lobau_reinforced(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 31);
    n20_state *s = t_setup("waterloo20-standard", N20_OPT_LOBAU, &d, NULL);
    s_lobau(s, 2, 205, 0);
    assert_int_equal(n20_combat_strength(s, t_unit(s, "LOBAU"), 0, 0, 0), 2);
    assert_int_equal(s->morale[N20_FRENCH], 8); /* no morale change */
    assert_int_equal(n20_unit_find(s, "RAPP"), -1);
    free(s);
    /* without it, the Standard Scenario has no Lobau at all [3.0] */
    s = t_setup("waterloo20-standard", 0, &d, NULL);
    assert_int_equal(n20_unit_find(s, "LOBAU"), -1);
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP) assert_int_not_equal(n20_xxyy(s->u[i].hex), 205);
    free(s);
    s = t_setup("waterloo20-closing", N20_OPT_LOBAU, &d, NULL);
    s_lobau(s, 2, 1703, 0);
    free(s);
    s = t_setup("waterloo20-closing", 0, &d, NULL);
    s_lobau(s, 1, 1703, 0);
    free(s);
    s = t_setup("waterloo20-extended", N20_OPT_LOBAU, &d, NULL);
    s_lobau(s, 2, 0, 7);
    free(s);
    s = t_setup("waterloo20-opening", N20_OPT_LOBAU, &d, NULL);
    s_lobau(s, 2, 0, 7);
    free(s);
}

/* [17.4.2] Rapp's 5e Corps: French morale -1 and 5e RAPP (2-2) where each scenario says */
static void test_n20_17_4_2_rapp(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 32);
    n20_state *s = t_setup("waterloo20-standard", N20_OPT_RAPP, &d, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->morale[N20_ALLIED], 7);
    s_at(s, "RAPP", 305);
    assert_int_equal(s->sc->units[t_unit(s, "RAPP")].strength, 2);
    s_lobau(s, 1, 205, 0); /* [3.0] the CADRE stays "using 17.4.2" (rulings R-3.0-lobau) */
    free(s);
    s = t_setup("waterloo20-standard", N20_OPT_RAPP | N20_OPT_LOBAU, &d, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    s_at(s, "RAPP", 305);
    s_lobau(s, 2, 205, 0);
    free(s);
    s = t_setup("waterloo20-extended", N20_OPT_RAPP, &d, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    t_reinf(s, "RAPP", 6, 'A');
    free(s);
    s = t_setup("waterloo20-opening", N20_OPT_RAPP, &d, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    t_reinf(s, "RAPP", 6, 'A');
    free(s);
    s = t_setup("waterloo20-closing", N20_OPT_RAPP, &d, NULL);
    assert_int_equal(s->morale[N20_FRENCH], 6);
    assert_int_equal(s->morale[N20_ALLIED], 6);
    s_at(s, "RAPP", 1503);
    free(s);
}

/* [17.4] the options go through the ruleset table by name in every scenario */
static void test_n20_17_4_options_by_name(void **st) {
    (void)st;
    const char *names[] = {"waterloo20-standard", "waterloo20-extended", "waterloo20-opening",
                           "waterloo20-closing"};
    const char *o[] = {"lobau-reinforced", "rapp"};
    for (size_t i = 0; i < 4; i++) {
        t_dice d;
        t_dice_init(&d, 33);
        brt_reject err;
        n20_state *s = s_setup_opts(names[i], o, 2, &d, &err);
        assert_non_null(s);
        assert_int_equal(s->opts, N20_OPT_LOBAU | N20_OPT_RAPP | s->sc->opts_required);
        assert_int_equal(s->morale[N20_FRENCH], s->sc->morale0[N20_FRENCH] - 1);
        brt_ruleset_n20.destroy(s);
    }
}

static void test_n20_17_4_random_standard_lobau_rapp(void **st) {
    (void)st;
    s_random_games("waterloo20-standard", N20_OPT_LOBAU | N20_OPT_RAPP, 2);
    s_random_games("waterloo20-standard", N20_OPT_RAPP, 2);
}
static void test_n20_17_4_random_extended_lobau_rapp(void **st) {
    (void)st;
    s_random_games("waterloo20-extended", N20_OPT_LOBAU | N20_OPT_RAPP | N20_OPT_LOOKOUT_BULOW, 2);
}
static void test_n20_17_4_random_opening_lobau_rapp(void **st) {
    (void)st;
    s_random_games("waterloo20-opening", N20_OPT_LOBAU | N20_OPT_RAPP, 2);
}
static void test_n20_17_4_random_closing_lobau_rapp(void **st) {
    (void)st;
    s_random_games("waterloo20-closing", N20_OPT_LOBAU | N20_OPT_RAPP | N20_OPT_HIST_EVENTS, 2);
    s_random_games("waterloo20-closing", N20_OPT_LOBAU | N20_OPT_OLD_DAYS, 2);
}

/* ---- through the game driver and its log ------------------------------------ */

#define GID "5c3e0a1b2c3d4e5f"

/* a game of `scenario` with option names created through core/game.c, played with random legal
 * orders to its end, then replayed from the log with the revealed seed */
static void s_driver_game(const char *scenario, const char **opts, size_t nopts, uint64_t seed) {
    memlog log;
    memlog_init(&log, GID, 5);
    uint8_t srv[32], keys[2][32];
    for (int i = 0; i < 32; i++) {
        srv[i] = (uint8_t)(i * 5 + seed);
        keys[0][i] = (uint8_t)(i + 3);
        keys[1][i] = (uint8_t)(i + 103);
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    c.ruleset = (char *)"n20";
    c.scenario = (char *)scenario;
    c.options = (char **)opts;
    c.n_options = nopts;
    c.seats = sp;
    c.n_seats = 2;
    game_params p = {GID, &c, srv, log.pk, "test", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, memlog_sink(&log), &err);
    if (!g) fail_msg("game_create %s: %s", scenario, err.message);
    for (unsigned st = 0; st < 2; st++) {
        uint8_t ent[32];
        memset(ent, (int)(0x60 + st), 32);
        assert_int_equal(game_join(g, st, ent, 32, NULL, 0, &err), 0);
    }
    uint64_t rng = seed + 29, rid = 0;
    int steps = 0;
    while (!game_over(g) && steps < 30000) {
        for (unsigned st = 0; st < 2 && !game_over(g); st++) {
            brt_pending pd;
            int must;
            game_pending(g, (int)st, &pd, &must);
            if (!must) continue;
            brt_buf legal;
            buf_init(&legal);
            int n = game_legal(g, st, &legal);
            assert_true(n > 0);
            int pick = (int)(t_rng(&rng) % (uint64_t)n);
            size_t pos = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (int k = 0; k <= pick; k++) assert_int_equal(buf_next_item(&legal, &pos, &item, &ilen), 1);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = (char *)GID;
            sub.seat = st;
            sub.based_on_seq = game_seq(g);
            sub.order.data = (uint8_t *)item;
            sub.order.len = ilen;
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            if (game_submit(g, st, bytes, blen, &err) != 0) fail_msg("%s: legal order rejected: %s", scenario, err.message);
            free(bytes);
            buf_free(&legal);
            steps++;
        }
    }
    assert_true(game_over(g));
    uint8_t live[32], h1[32];
    game_state_hash(g, live);
    char why[256];
    size_t got = memlog_replay(&log, srv, h1, why, sizeof why);
    if (got != log.n) fail_msg("%s: replay stopped at record %zu of %zu: %s", scenario, got, log.n, why);
    assert_memory_equal(live, h1, 32);
    game_destroy(&g);
    memlog_free(&log);
}

/* [17.x] each scenario with its options, created by name, played to the end and replayed */
static void test_n20_17_0_driver_games_replay(void **st) {
    (void)st;
    const char *closing[] = {"historical-events", "rapp", "lobau-reinforced"};
    s_driver_game("waterloo20-closing", closing, 3, 1);
    const char *ext[] = {"look-out-bulow", "berthier-is-back", "rapp"};
    s_driver_game("waterloo20-extended", ext, 3, 2);
    const char *open[] = {"lobau-reinforced", "look-out-bulow"};
    s_driver_game("waterloo20-opening", open, 2, 3);
    const char *std[] = {"rapp"};
    s_driver_game("waterloo20-standard", std, 1, 4);
    /* [17.1.1] the secret schedule and the French Arrival Table, through the driver's per-seat events */
    const char *sam[] = {"sambre-crossing", "leaders", "berthier-is-back"};
    s_driver_game("waterloo20-extended", sam, 3, 5);
    const char *samfog[] = {"sambre-crossing", "fog-of-war"};
    s_driver_game("waterloo20-opening", samfog, 2, 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_17_0_scenarios_listed),
        cmocka_unit_test(test_n20_17_0_hash_covers_base),
        cmocka_unit_test(test_n20_17_0_data_format_checks),
        cmocka_unit_test(test_n20_17_3_closing_setup),
        cmocka_unit_test(test_n20_17_3_1_historical_deck_order),
        cmocka_unit_test(test_n20_17_3_1_historical_reshuffle_at_night_french),
        cmocka_unit_test(test_n20_17_3_1_historical_events_only_in_closing),
        cmocka_unit_test(test_n20_17_3_random_closing),
        cmocka_unit_test(test_n20_17_3_1_random_closing_historical),
        cmocka_unit_test(test_n20_17_1_extended_setup),
        cmocka_unit_test(test_n20_17_1_breakdown_is_mandatory),
        cmocka_unit_test(test_n20_17_1_special_data),
        cmocka_unit_test(test_n20_17_1_detached_cadres_combine_into_parent),
        cmocka_unit_test(test_n20_17_1_broken_detached_cadre_is_lost),
        cmocka_unit_test(test_n20_17_1_rebuild_eligible),
        cmocka_unit_test(test_n20_17_1_rebuild_nationality),
        cmocka_unit_test(test_n20_17_1_rebuild_both_parents_and_fog),
        cmocka_unit_test(test_n20_17_1_rebuild_needs_a_broken_cadre),
        cmocka_unit_test(test_n20_17_1_rebuild_enemy_within_two_hexes),
        cmocka_unit_test(test_n20_17_1_rebuild_not_at_night),
        cmocka_unit_test(test_n20_17_1_rebuild_wrong_timing),
        cmocka_unit_test(test_n20_17_1_rebuilt_parent_rallies),
        cmocka_unit_test(test_n20_17_1_rebuild_never_in_standard),
        cmocka_unit_test(test_n20_17_1_card_10_drawn_first),
        cmocka_unit_test(test_n20_17_1_entry_areas),
        cmocka_unit_test(test_n20_17_1_3_bulow_arrives_on_6),
        cmocka_unit_test(test_n20_17_1_3_bulow_forced_march_plus_1),
        cmocka_unit_test(test_n20_17_1_3_bulow_delayed),
        cmocka_unit_test(test_n20_17_1_3_only_in_extended),
        cmocka_unit_test(test_n20_17_1_2_berthier_any_scenario),
        cmocka_unit_test(test_n20_17_2_opening_setup),
        cmocka_unit_test(test_n20_17_2_allied_decisive_both_objectives),
        cmocka_unit_test(test_n20_17_2_french_marginal),
        cmocka_unit_test(test_n20_17_2_allied_marginal_one_objective),
        cmocka_unit_test(test_n20_17_2_draws),
        cmocka_unit_test(test_n20_17_2_ends_on_turn_12),
        cmocka_unit_test(test_n20_17_1_random_extended),
        cmocka_unit_test(test_n20_17_1_random_extended_rebuilds),
        cmocka_unit_test(test_n20_17_1_3_random_extended_bulow_berthier),
        cmocka_unit_test(test_n20_17_2_random_opening),
        cmocka_unit_test(test_n20_17_2_random_opening_bulow),
        cmocka_unit_test(test_n20_17_4_1_lobau_reinforced),
        cmocka_unit_test(test_n20_17_4_2_rapp),
        cmocka_unit_test(test_n20_17_4_options_by_name),
        cmocka_unit_test(test_n20_17_4_random_standard_lobau_rapp),
        cmocka_unit_test(test_n20_17_4_random_extended_lobau_rapp),
        cmocka_unit_test(test_n20_17_4_random_opening_lobau_rapp),
        cmocka_unit_test(test_n20_17_4_random_closing_lobau_rapp),
        cmocka_unit_test(test_n20_17_0_driver_games_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
