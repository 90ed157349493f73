/*
 * test_n20_redact.c - redaction on structured data [16.1] [17.1.1]: an event names its units by
 * placeholders into its own `units` list and is rendered once per party; a rejection names a unit
 * by what the deciding seat may know of it. The checks take the truth from the full state (the
 * raw `hidden` and schedule fields), never from the redaction code they test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- the truth from the full state ------------------------------------------ */

/* 1 if unit u is hidden from seat now: a face-down unit of the other side with fog-of-war [16.1],
 * or a unit on the French player's secret schedule [17.1.1] (read from the state's fields) */
static int r_hidden(const n20_state *s, int u, int seat) {
    if (!n20_unit_in_game(s, u) || s->sc->units[u].side == seat) return 0;
    if (s->u[u].flags & N20_UF_SCHEDULED) return 1;
    return (s->opts & N20_OPT_FOG) && s->u[u].hidden;
}

static const uint8_t *r_find(const uint8_t *p, size_t n, const char *needle, size_t from) {
    size_t l = strlen(needle);
    for (size_t i = from; l && i + l <= n; i++)
        if (memcmp(p + i, needle, l) == 0) return p + i;
    return NULL;
}

/* 1 if the bytes contain the id of a unit hidden from `seat` anywhere (no word boundaries: an id
 * followed by "'s" is found). An occurrence that lies inside the id of a unit the seat may see
 * (ZIETEN in CADRE-ZIETEN) is that unit's name, not a leak. */
static int r_leaks(const n20_state *s, int seat, const uint8_t *p, size_t n, char *which, size_t wcap) {
    for (int u = 0; u < s->sc->nunits; u++) {
        if (!r_hidden(s, u, seat)) continue;
        const char *id = s->sc->units[u].id;
        size_t il = strlen(id);
        const uint8_t *hit;
        for (size_t from = 0; (hit = r_find(p, n, id, from)) != NULL; from = (size_t)(hit - p) + 1) {
            size_t at = (size_t)(hit - p);
            int covered = 0;
            for (int v = 0; v < s->sc->nunits && !covered; v++) {
                if (v == u || r_hidden(s, v, seat) || !n20_unit_in_game(s, v)) continue;
                const char *vid = s->sc->units[v].id;
                size_t vl = strlen(vid);
                const char *k = strstr(vid, id);
                if (!k || vl <= il) {
                    if (strcmp(vid, id) == 0) covered = 1; /* the same id, a unit the seat sees (LOBAU) */
                    continue;
                }
                size_t off = (size_t)(k - vid);
                covered = at >= off && at - off + vl <= n && memcmp(p + at - off, vid, vl) == 0;
            }
            if (covered) continue;
            if (which) snprintf(which, wcap, "%s", id);
            return 1;
        }
    }
    return 0;
}

/* ---- an event recorder -------------------------------------------------------- */

typedef struct r_rec {
    const n20_state *s; /* the live state: the check is made at the moment of the event */
    int copies[2];      /* the event copies each seat received */
    int named_hidden;   /* units named by their handle (@XXYY) in the copies */
    int leaks;
    char leak[400];
    char last[2][320];  /* the last copy to each seat: its text */
    t_events *ev[2];    /* if set: every copy to the seat, formatted */
    const char *needle; /* if set: the copies to each seat whose bytes hold it anywhere */
    int needle_hits[2];
} r_rec;

static void r_text(const uint8_t *data, size_t len, char *out, size_t cap) {
    N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
    snprintf(out, cap, "%s", e && e->text ? e->text : "?");
    if (e) n20__v1__event__free_unpacked(e, NULL);
}

static void r_emit_to(void *ctx, uint32_t seats, const uint8_t *data, size_t len) {
    r_rec *r = ctx;
    for (int k = 0; k < 2; k++) {
        if (!(seats & (1u << k))) continue;
        r->copies[k]++;
        r_text(data, len, r->last[k], sizeof r->last[k]);
        if (r->ev[k]) t_events_emit(r->ev[k], data, len);
        if (r->needle && r_find(data, len, r->needle, 0)) r->needle_hits[k]++;
        /* every string of the copy, field by field (the raw bytes would join an id to the tag byte
         * of the next field: "NAPOLEON" then 0x32 reads "NAPOLEON2") */
        N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
        assert_non_null(e);
        assert_null(strchr(e->text, N20_U_MARK)); /* every placeholder was rendered */
        char w[N20_NAME];
        int leak = r_leaks(r->s, k, (const uint8_t *)e->text, strlen(e->text), w, sizeof w) ||
                   r_leaks(r->s, k, (const uint8_t *)e->kind, strlen(e->kind), w, sizeof w);
        for (size_t i = 0; i < e->n_units; i++) {
            if (e->units[i][0] == '@') r->named_hidden++;
            leak = leak || r_leaks(r->s, k, (const uint8_t *)e->units[i], strlen(e->units[i]), w, sizeof w);
        }
        n20__v1__event__free_unpacked(e, NULL);
        if (leak) {
            if (!r->leaks) snprintf(r->leak, sizeof r->leak, "event to seat %d names hidden %s: %s", k, w, r->last[k]);
            r->leaks++;
        }
    }
}

/* ---- [8.2.4] "GARDE's In Contact marker is removed" ---------------------------- */

/* [16.1] [8.2.4] The recovery event of sequence.c names its unit followed by "'s". The old text
 * search (n20_fog_scrub) took the apostrophe for part of a word and left "GARDE's" in the Allied
 * copy: this test fails on it. The event is rendered from its units list instead. */
static void test_n20_16_1_garde_in_contact_removed_reaches_allied_without_its_id(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_FOG;
    for (int i = 0; i < s->sc->nunits; i++) s->u[i].hidden = 1;
    int g = t_place(s, "GARDE", 1005);
    t_place(s, "ZIETEN", 2010);
    s->u[g].flags |= N20_UF_CONTACT; /* it maintained contact [8.2.4] and was not revealed */
    s->phase = N20_PH_DECLARE;
    assert_true(r_hidden(s, g, N20_ALLIED));
    static t_events seen[2];
    memset(seen, 0, sizeof seen);
    r_rec rec = {.s = s, .ev = {&seen[0], &seen[1]}, .needle = "GARDE"};
    n20_sink sink = {r_emit_to, &rec};
    n20_out out = {n20_sink_emit, &sink};
    static t_events full;
    memset(&full, 0, sizeof full);
    n20_out fout = {t_events_emit, &full};
    n20_state *c = malloc(sizeof *c);
    memcpy(c, s, sizeof *c);
    t_dice d2 = d;
    d2.d.source_ctx = &d2;
    brt_reject err;
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare", &d, &out, &err), 0); /* no battle: Recovery */
    assert_false(s->u[g].flags & N20_UF_CONTACT);
    /* the full copy (the log, any n20_out but a sink) names GARDE, as before */
    assert_int_equal(t_order_out(c, N20_FRENCH, "declare", &d2, &fout, &err), 0);
    assert_true(t_events_has(&full, "[8.2.4] GARDE's In Contact marker is removed"));
    free(c);
    assert_int_equal(rec.copies[0], rec.copies[1]);
    assert_true(rec.named_hidden > 0); /* the Allied copy names GARDE by its handle */
    assert_int_equal(rec.leaks, 0);
    assert_int_equal(rec.needle_hits[N20_ALLIED], 0); /* no byte of any Allied copy spells GARDE */
    assert_true(rec.needle_hits[N20_FRENCH] > 0);    /* the owner's copy names it */
    assert_true(t_events_has(&seen[N20_FRENCH], "[8.2.4] GARDE's In Contact marker is removed"));
    assert_true(t_events_has(&seen[N20_ALLIED], "[8.2.4] a unit's In Contact marker is removed"));
    free(s);
}

/* [16.1] a rejection names a hidden enemy unit as the seat named it, by its handle: decided by the
 * unit's visibility (n20_uid_seat), not by a search of the message */
static void test_n20_16_1_rejection_names_hidden_enemy_by_its_handle(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = t_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_FOG;
    for (int i = 0; i < s->sc->nunits; i++) s->u[i].hidden = 1;
    int r = t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 1010);
    brt_reject err;
    /* the Movement Phase: the French seat orders the hidden Allied unit */
    assert_int_equal(t_order_out(s, N20_FRENCH, "move @1010 1011", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.1");
    assert_string_equal(err.message, "[6.1] @1010 is not a unit of the phasing player");
    /* the Combat Phase: a battle with a defender out of reach */
    s->phase = N20_PH_DECLARE;
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare REILLE -> @1010", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.2.2");
    assert_non_null(strstr(err.message, "REILLE is not adjacent to @1010"));
    /* revealed, the same unit is named by its id */
    s->u[z].hidden = 0;
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, NULL, &err), -1);
    assert_non_null(strstr(err.message, "REILLE is not adjacent to ZIETEN"));
    /* the id of a unit still hidden names nothing, and is not repeated back */
    s->u[z].hidden = 1;
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "3.0");
    assert_null(strstr(err.message, "ZIETEN"));
    brt_reject err2;
    assert_int_equal(t_order_out(s, N20_FRENCH, "declare REILLE -> NOSUCH", &d, NULL, &err2), -1);
    assert_string_equal(err2.message, err.message); /* the same answer as for a name of no unit */
    (void)r;
    free(s);
}

/* the placeholder byte of n20.h (N20_U_MARK) occurs in no scenario data: no card title, label or
 * id can be taken for a placeholder */
static void test_n20_16_1_placeholder_byte_in_no_data(void **st) {
    (void)st;
    int n = 0;
    for (size_t i = 0; n20_data_name(i); i++, n++) {
        size_t len = 0;
        const char *t = n20_data_text(n20_data_name(i), &len);
        assert_non_null(t);
        assert_null(memchr(t, N20_U_MARK, len));
    }
    assert_true(n >= 4);
}

/* ---- random play ------------------------------------------------------------------ */

/* the games: fog-of-war with most optional rules in the Standard Scenario, and the secret schedule
 * of sambre-crossing [17.1.1] in the Extended Campaign, with and without fog-of-war */
typedef struct r_game {
    const char *scenario;
    uint32_t opts;
} r_game;
static const r_game r_games[] = {
    {"waterloo20-standard", N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_SPECIAL_UNITS | N20_OPT_FATIGUE |
                                N20_OPT_CAV_PENETRATION | N20_OPT_ART_SUPPORT | N20_OPT_UNIT_REDUCTION},
    {"waterloo20-standard", N20_OPT_FOG | N20_OPT_BREAKDOWN | N20_OPT_RALLY_LOCATIONS | N20_OPT_VAR_WEATHER},
    {"waterloo20-extended", N20_OPT_SAMBRE | N20_OPT_BREAKDOWN | N20_OPT_LEADERS | N20_OPT_FOG | N20_OPT_BERTHIER_BACK},
    {"waterloo20-extended", N20_OPT_SAMBRE | N20_OPT_BREAKDOWN | N20_OPT_LEADERS | N20_OPT_SPECIAL_UNITS},
    {"waterloo20-closing", N20_OPT_FOG | N20_OPT_LEADERS | N20_OPT_HIST_EVENTS | N20_OPT_LOBAU | N20_OPT_FATIGUE},
    {"waterloo20-opening", N20_OPT_FOG | N20_OPT_CAV_PENETRATION | N20_OPT_UNIT_REDUCTION | N20_OPT_OLD_DAYS},
};
#define R_NGAMES ((int)(sizeof r_games / sizeof r_games[0]))
#define R_SEEDS 10

/* the full events of a game, as any n20_out but a sink receives them (the log): kind and text */
static void r_digest_emit(void *ctx, const uint8_t *data, size_t len) {
    crypto_generichash_state *h = ctx;
    N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
    assert_non_null(e);
    assert_null(strchr(e->text, N20_U_MARK)); /* every placeholder was rendered */
    crypto_generichash_update(h, (const uint8_t *)e->kind, strlen(e->kind) + 1);
    crypto_generichash_update(h, (const uint8_t *)e->text, strlen(e->text) + 1);
    n20__v1__event__free_unpacked(e, NULL);
}

static int r_rejections, r_rejections_hidden;

/* illegal or unlikely orders of the deciding seat, tried on a copy: a rejection must not name a
 * unit hidden from it; the orders name hidden units by their handle (@XXYY), as a seat can, or
 * by their id (a guess: a scheduled unit [17.1.1] has no handle) */
static void r_probe(const n20_state *s, int seat, uint64_t *rng, const t_dice *d, const char *tag, int step) {
    int hidden[N20_MAX_UNITS], nh = 0, own[N20_MAX_UNITS], no = 0, any[N20_MAX_UNITS], na = 0;
    for (int u = 0; u < s->sc->nunits; u++) {
        if (r_hidden(s, u, seat) && s->u[u].where == N20_U_MAP) hidden[nh++] = u;
        if (r_hidden(s, u, seat)) any[na++] = u;
        if (s->sc->units[u].side == seat && s->u[u].where == N20_U_MAP) own[no++] = u;
    }
    if (!na) return;
    if (!nh) hidden[nh++] = any[0]; /* no handle: @0000 */
    /* H: the hidden unit's handle, I: the id of a hidden unit (on the map or not), O: an own unit's
     * id, N: the hex number after the hidden unit's */
    static const char *const forms[] = {
        "move H 0101",   "move H N",         "declare O -> H",  "declare H -> O",     "countercharge O -> H",
        "retreat H 0101", "losses H",        "advance H N",     "disengage H 0101",   "contact H",
        "reveal H",      "place H 0101",     "rebuild H",       "wing H",             "delay H",
        "reduce H",      "breakdown H",      "breakdown H dummy", "penetrate H 0101", "goodground H",
        "declare O -> H, O -> H", "losses O H", "move O N", "move I 0101", "declare O -> I", "delay I",
        "schedule I 12", "wing I", "reveal I", "losses I", "retreat I 0101",
    };
    for (int k = 0; k < 3; k++) {
        int h = hidden[t_rng(rng) % (uint64_t)nh];
        char handle[N20_NAME], next[8], text[200] = "";
        snprintf(handle, sizeof handle, "@%04u", s->u[h].where == N20_U_MAP ? n20_xxyy(s->u[h].hex) : 0u);
        const char *hid = s->sc->units[any[t_rng(rng) % (uint64_t)na]].id;
        snprintf(next, sizeof next, "%04u", n20_xxyy(s->u[h].hex) + 1);
        const char *ownid = no ? s->sc->units[own[t_rng(rng) % (uint64_t)no]].id : "REILLE";
        const char *f = forms[t_rng(rng) % (sizeof forms / sizeof forms[0])];
        for (const char *q = f; *q; q++) {
            char one[2] = {*q, 0};
            const char *part = *q == 'H' ? handle : *q == 'I' ? hid : *q == 'O' ? ownid : *q == 'N' ? next : one;
            strncat(text, part, sizeof text - strlen(text) - 1);
        }
        n20_state *c = malloc(sizeof *c);
        memcpy(c, s, sizeof *c);
        t_dice d2 = *d;
        d2.d.source_ctx = &d2;
        r_rec rec = {.s = c};
        n20_sink sink = {r_emit_to, &rec};
        n20_out out = {n20_sink_emit, &sink};
        brt_reject err;
        memset(&err, 0, sizeof err);
        int rc = t_order_out(c, (unsigned)seat, text, &d2, &out, &err);
        if (rc == -1) {
            char w[N20_NAME];
            r_rejections++;
            const char *at = strchr(err.message, '@');
            if (at && at[1] >= '0' && at[1] <= '9') r_rejections_hidden++; /* a handle, @XXYY */
            if (r_leaks(s, seat, (const uint8_t *)err.message, strlen(err.message), w, sizeof w))
                fail_msg("%s step %d: '%s' rejected naming hidden %s: %s", tag, step, text, w, err.message);
        }
        if (rc == 0 && rec.leaks) fail_msg("%s step %d: '%s': %s", tag, step, text, rec.leak);
        free(c);
    }
}

/* one random game (the order picker of t_play_random: the same seed plays the same game) with the
 * events to a sink checked at each copy, rejections probed at each step; returns the orders played */
static int r_play(const char *scenario, uint32_t opts, uint64_t seed, int probe, r_rec *rec) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_sink sink = {r_emit_to, rec};
    n20_out out = {n20_sink_emit, &sink};
    const n20_scenario *sc = n20_scenario_get(scenario);
    assert_non_null(sc);
    n20_state *s = n20_state_new(sc);
    rec->s = s;
    assert_int_equal(n20_setup(s, &d.d, &out, opts, NULL), 0);
    n20_run(s, &d.d, &out);
    uint64_t rng = seed * 2654435761u + 7, prng = seed ^ 0x9e3779b97f4a7c15u;
    int steps = 0;
    brt_buf legal;
    buf_init(&legal);
    char tag[96];
    snprintf(tag, sizeof tag, "%s opts %#x seed %llu", scenario, opts, (unsigned long long)seed);
    while (!s->over && steps < 30000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        if (probe) r_probe(s, seat, &prng, &d, tag, steps);
        /* the pending decision goes to every party */
        brt_pending pd;
        n20_pending(s, &pd);
        char w[N20_NAME];
        for (int k = 0; k < 2; k++)
            if (r_leaks(s, k, (const uint8_t *)pd.prompt, strlen(pd.prompt), w, sizeof w))
                fail_msg("%s step %d: the pending prompt names %s, hidden from seat %d: %s", tag, steps, w, k, pd.prompt);
        t_random_step(s, &rng, &legal, 0, &d, &out, tag, NULL, NULL, NULL);
        if (rec->leaks) fail_msg("%s step %d: %s", tag, steps, rec->leak);
        steps++;
    }
    assert_true(s->over);
    buf_free(&legal);
    free(s);
    return steps;
}

/* the same game with the events to a plain n20_out: the full events only, digested */
static void r_play_full(const char *scenario, uint32_t opts, uint64_t seed, crypto_generichash_state *h) {
    t_dice d;
    t_dice_init(&d, seed);
    n20_out out = {r_digest_emit, h};
    n20_state *s = t_play_start(scenario, opts, &d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    brt_buf legal;
    buf_init(&legal);
    for (int steps = 0; !s->over && steps < 30000; steps++) t_random_step(s, &rng, &legal, 0, &d, &out, "full", NULL, NULL, NULL);
    assert_true(s->over);
    buf_free(&legal);
    free(s);
}

/* [16.1] [17.1.1] many random games: no event copy and no rejection a seat receives contains the
 * id of a unit hidden from it at that moment (an id followed by "'s" included), nor the prompt of
 * the pending decision, which every party receives */
static void test_n20_16_1_random_games_no_copy_or_rejection_names_a_hidden_unit(void **st) {
    (void)st;
    r_rejections = r_rejections_hidden = 0;
    int named_hidden = 0, copies = 0, steps = 0;
    const char *lg = getenv("BERTHIER_LONG");
    uint64_t seeds = lg && *lg == '1' ? 20 * R_SEEDS : R_SEEDS;
    for (int g = 0; g < R_NGAMES; g++)
        for (uint64_t seed = 1; seed <= seeds; seed++) {
            r_rec rec = {0};
            steps += r_play(r_games[g].scenario, r_games[g].opts, seed + 40u * (uint64_t)g, 1, &rec);
            assert_int_equal(rec.copies[0], rec.copies[1]); /* one copy of every event to each seat */
            named_hidden += rec.named_hidden;
            copies += rec.copies[0];
        }
    if (getenv("N20_REDACT_PRINT"))
        fprintf(stderr, "copies %d named hidden %d rejections %d (%d by handle) steps %d\n", copies, named_hidden,
                r_rejections, r_rejections_hidden, steps);
    assert_true(copies > 1000);
    assert_true(named_hidden > 100);      /* the games named hidden units in events */
    assert_true(r_rejections > 200);      /* and the probes were rejected */
    assert_true(r_rejections_hidden > 50); /* naming hidden units by their handles */
}

/* [16.1] the full copies (the log; every n20_out but a sink) are unchanged by the rendering: the
 * digest of the kind and text of every full event of the random games above. R_FULL_DIGEST was
 * computed by the free-text events of commit d7e82e3, before they were rendered from their units
 * lists; a rule change that changes these games (their orders or texts) must recompute it, after
 * checking the differences (N20_REDACT_PRINT=1 prints the digest of the current code).
 * Recomputed for n20-0.6.0, whose [9.2] declared, [9.6] combat, [16.9.5] command and [16.3.2]
 * bombardment events name their units (no other text and no order changed). Recomputed when
 * legal() began to list the `fight` order ([9.5] decided at Step F, R-9.5-cap), and again when it
 * began to list the step orders (declare one, retreat-step; every countercharge and set of
 * accompanying Leaders, `countercharge ... fight`): the random games choose among more orders, so
 * they play differently. */
#define R_FULL_DIGEST "b4c6345b5b4f2cbff9a7f1f832247ddc4a7554e14209b4ac092d7ec0efd348da"

static void test_n20_16_1_full_copies_unchanged(void **st) {
    (void)st;
    crypto_generichash_state h;
    crypto_generichash_init(&h, NULL, 0, 32);
    for (int g = 0; g < R_NGAMES; g++)
        for (uint64_t seed = 1; seed <= R_SEEDS; seed++)
            r_play_full(r_games[g].scenario, r_games[g].opts, seed + 40u * (uint64_t)g, &h);
    uint8_t out[32];
    crypto_generichash_final(&h, out, sizeof out);
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, out, sizeof out);
    if (getenv("N20_REDACT_PRINT")) fprintf(stderr, "full digest %s\n", hex);
    assert_string_equal(hex, R_FULL_DIGEST);
}

int main(void) {
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_16_1_garde_in_contact_removed_reaches_allied_without_its_id),
        cmocka_unit_test(test_n20_16_1_rejection_names_hidden_enemy_by_its_handle),
        cmocka_unit_test(test_n20_16_1_placeholder_byte_in_no_data),
        cmocka_unit_test(test_n20_16_1_random_games_no_copy_or_rejection_names_a_hidden_unit),
        cmocka_unit_test(test_n20_16_1_full_copies_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
