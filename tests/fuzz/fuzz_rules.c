/*
 * fuzz_rules.c - a ruleset's order application driven by sequences of
 * choices. Built once per ruleset (FUZZ_RULESET, FUZZ_SCENARIO).
 *
 * The input bytes steer a game: for each step, whichever seat must act takes
 * a byte (FUZZ_OPTIONS, if defined, is a comma-separated list of game options the
 * game is created with, FUZZ_SEATS the number of seats, 2 unless defined); with the high bit clear it plays legal order number (byte % count),
 * which must be accepted; with the high bit set the next bytes are sent as a
 * raw order, which must either be rejected (leaving no record) or be one of
 * the orders legal() offered. At the end the log must replay bit for bit,
 * with the seed and from the logged dice alone.
 * With BERTHIER_FUZZ_REACH set, the replay tool prints at exit how far the inputs went: the game
 * turns, the decision kinds met (sorted) and the games that ended (ctest *_reach checks them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "canon.h"
#include "game.h"
#include "memlog.h"

#ifndef FUZZ_RULESET
#define FUZZ_RULESET "duel"
#endif
#ifndef FUZZ_SCENARIO
#define FUZZ_SCENARIO "standard"
#endif
#define FUZZ_MAX_STEPS 4000
#ifndef FUZZ_SEATS
#define FUZZ_SEATS 2
#endif
#ifndef FUZZ_OPTIONS
#define FUZZ_OPTIONS ""
#endif
static const char s_fuzz_options[] = FUZZ_OPTIONS;

/* ---- how far the inputs went (BERTHIER_FUZZ_REACH) ---- */
#define S_REACH_KINDS 48
static char s_reach_kind[S_REACH_KINDS][32];
static int s_reach_n, s_reach_ended, s_reach_games;
static uint32_t s_reach_turn_min = UINT32_MAX, s_reach_turn_max;

static void s_reach_note(const brt_pending *p) {
    if (p->turn < s_reach_turn_min) s_reach_turn_min = p->turn;
    if (p->turn > s_reach_turn_max) s_reach_turn_max = p->turn;
    for (int i = 0; i < s_reach_n; i++)
        if (strcmp(s_reach_kind[i], p->kind) == 0) return;
    if (s_reach_n < S_REACH_KINDS) snprintf(s_reach_kind[s_reach_n++], sizeof s_reach_kind[0], "%s", p->kind);
}

static int s_reach_cmp(const void *a, const void *b) { return strcmp(a, b); }

static void s_reach_print(void) {
    qsort(s_reach_kind, (size_t)s_reach_n, sizeof s_reach_kind[0], s_reach_cmp);
    printf("fuzz reach: turns %u-%u, kinds:", s_reach_turn_min == UINT32_MAX ? 0 : s_reach_turn_min, s_reach_turn_max);
    for (int i = 0; i < s_reach_n; i++) printf(" %s", s_reach_kind[i]);
    printf(", %d of %d games ended\n", s_reach_ended, s_reach_games);
}

static uint8_t *s_request(unsigned seat, uint64_t seq, const uint8_t *order, size_t olen, uint64_t id, size_t *len) {
    Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    r.request_id = id;
    r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    r.submit = &s;
    s.game_id = (char *)"f0f0f0f0f0f0f0f0";
    s.seat = seat;
    s.based_on_seq = seq;
    s.order.data = (uint8_t *)order;
    s.order.len = olen;
    return canon_pack(&r.base, len);
}

static int s_in_list(const brt_buf *list, const uint8_t *o, size_t len) {
    size_t pos = 0;
    const uint8_t *item;
    size_t ilen;
    while (buf_next_item(list, &pos, &item, &ilen) == 1)
        if (ilen == len && memcmp(item, o, len) == 0) return 1;
    return 0;
}

/* Every viewpoint's picture of every state the fuzzer reaches: drawn without failing
 * (docs/render.md), one whole SVG document, and the same bytes when drawn again. */
static void s_check_pictures(const brt_game *g, unsigned nseats) {
    if (!game_ruleset(g)->render) return;
    for (int v = -2; v < (int)nseats; v++) {
        brt_buf a, b;
        buf_init(&a);
        buf_init(&b);
        if (game_render(g, v, NULL, &a) != 0 || game_render(g, v, NULL, &b) != 0) abort();
        if (a.len < 16 || memcmp(a.data, "<svg ", 5) != 0 || a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
            abort();
        if (memcmp(a.data + a.len - 7, "</svg>\n", 7) != 0) abort();
        buf_free(&a);
        buf_free(&b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int init;
    if (!init) {
        if (sodium_init() < 0) abort();
        if (getenv("BERTHIER_FUZZ_REACH")) atexit(s_reach_print);
        init = 1;
    }
    const brt_ruleset *rs = brt_ruleset_find(FUZZ_RULESET);
    if (!rs) abort();
    const char *names[BRT_MAX_SEATS];
    unsigned nseats = FUZZ_SEATS;
    if (rs->scenario_seats(FUZZ_SCENARIO, names, BRT_MAX_SEATS) < (int)nseats) abort();

    uint8_t seed[32] = {0};
    for (size_t i = 0; i < size && i < 32; i++) seed[i] = data[i];
    memlog log;
    memlog_init(&log, "f0f0f0f0f0f0f0f0", 3);
    uint8_t keys[BRT_MAX_SEATS][32];
    Berthier__V1__SeatSpec specs[BRT_MAX_SEATS], *sp[BRT_MAX_SEATS];
    for (unsigned i = 0; i < nseats; i++) {
        memset(keys[i], (int)(i + 1), 32);
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    c.ruleset = (char *)FUZZ_RULESET;
    c.scenario = (char *)FUZZ_SCENARIO;
    c.seats = sp;
    c.n_seats = nseats;
    static char optbuf[512];
    static char *opts[32];
    static size_t nopts;
    if (!nopts && s_fuzz_options[0]) {
        snprintf(optbuf, sizeof optbuf, "%s", s_fuzz_options);
        for (char *save = NULL, *t = strtok_r(optbuf, ",", &save); t && nopts < 32; t = strtok_r(NULL, ",", &save))
            opts[nopts++] = t;
    }
    c.options = opts;
    c.n_options = nopts;
    game_params p = {"f0f0f0f0f0f0f0f0", &c, seed, log.pk, "fuzz", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, memlog_sink(&log), &err);
    if (!g) abort();
    for (unsigned i = 0; i < nseats; i++) {
        uint8_t ent[32];
        memset(ent, (int)(0x30 + i), 32);
        if (game_join(g, i, ent, 32, NULL, 0, &err) != 0) abort();
    }
    size_t pos = 32 < size ? 32 : size;
    uint64_t rid = 0;
    for (int step = 0; step < FUZZ_MAX_STEPS && !game_over(g); step++) {
        unsigned seat = nseats;
        brt_pending pend;
        for (unsigned s = 0; s < nseats; s++) {
            int must;
            game_pending(g, (int)s, &pend, &must);
            if (must) { seat = s; break; }
        }
        if (seat == nseats) abort(); /* a live game with nobody to act */
        s_reach_note(&pend);
        brt_buf legal;
        buf_init(&legal);
        int n = game_legal(g, seat, &legal);
        if (n <= 0) abort(); /* pending names the seat: it must have something legal */
        uint8_t b = pos < size ? data[pos++] : 0;
        size_t before = log.n;
        if (b & 0x80) {
            size_t olen = pos < size ? (size_t)(data[pos++] % 24) : 0;
            if (olen > size - pos) olen = size - pos;
            size_t rlen;
            uint8_t *req = s_request(seat, game_seq(g), data + pos, olen, ++rid, &rlen);
            pos += olen;
            int rc = game_submit(g, seat, req, rlen, &err);
            free(req);
            if (rc == 0 && !s_in_list(&legal, data + pos - olen, olen)) {
                fprintf(stderr, "accepted an order legal() did not offer\n");
                abort();
            }
            if (rc != 0 && log.n != before) abort(); /* a rejection leaves no record */
            if (rc != 0 && err.code == 19) abort();  /* CODE_INTERNAL: a broken invariant */
        } else {
            size_t it = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (int k = 0; k <= b % n; k++)
                if (buf_next_item(&legal, &it, &item, &ilen) != 1) abort();
            size_t rlen;
            uint8_t *req = s_request(seat, game_seq(g), item, ilen, ++rid, &rlen);
            int rc = game_submit(g, seat, req, rlen, &err);
            free(req);
            if (rc != 0) {
                fprintf(stderr, "legal order rejected: [%s] %s\n", err.rule, err.message);
                abort();
            }
        }
        buf_free(&legal);
        if (step % 8 == 0) s_check_pictures(g, nseats);
        if (pos >= size && (b & 0x80) == 0 && step > 64) break;
    }
    s_check_pictures(g, nseats);
    s_reach_games++;
    s_reach_ended += game_over(g) != 0;
    uint8_t live[32], h[32];
    game_state_hash(g, live);
    char why[256];
    if (memlog_replay(&log, seed, h, why, sizeof why) != log.n || memcmp(live, h, 32) != 0) {
        fprintf(stderr, "replay with seed: %s\n", why);
        abort();
    }
    if (!game_over(g)) {
        if (memlog_replay(&log, NULL, h, why, sizeof why) != log.n || memcmp(live, h, 32) != 0) {
            fprintf(stderr, "replay from logged dice: %s\n", why);
            abort();
        }
    }
    game_destroy(&g);
    memlog_free(&log);
    return 0;
}
