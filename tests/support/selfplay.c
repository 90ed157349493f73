/* selfplay.c - see selfplay.h. */
#include "selfplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "game.h"

void (*selfplay_legal_hook)(void *ctx, unsigned seat, const uint8_t *list, size_t len);
void *selfplay_legal_ctx;

uint64_t selfplay_next(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void s_fill(uint64_t *rng, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = selfplay_next(rng);
        for (size_t k = 0; k < 8 && i + k < n; k++) out[i + k] = (uint8_t)(v >> (8 * k));
    }
}

int selfplay_game(const char *ruleset, const char *scenario, const char *const *options, size_t n_options,
                  unsigned seats, uint64_t seed, uint64_t max_orders, memlog *log, selfplay_result *out) {
    memset(out, 0, sizeof *out);
    uint64_t rng = seed;
    char game_id[GAME_ID_MAX + 1];
    snprintf(game_id, sizeof game_id, "%016llx", (unsigned long long)seed);
    memlog_init(log, game_id, (uint8_t)(seed & 0xff));
    uint8_t server_seed[32];
    s_fill(&rng, server_seed, sizeof server_seed);
    uint8_t keys[BRT_MAX_SEATS][32];
    Berthier__V1__SeatSpec specs[BRT_MAX_SEATS], *sp[BRT_MAX_SEATS];
    if (seats < 2 || seats > BRT_MAX_SEATS) {
        snprintf(out->error, sizeof out->error, "bad seat count %u", seats);
        return -1;
    }
    for (unsigned i = 0; i < seats; i++) {
        s_fill(&rng, keys[i], 32);
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    c.ruleset = (char *)ruleset;
    c.scenario = (char *)scenario;
    c.options = (char **)options;
    c.n_options = n_options;
    c.seats = sp;
    c.n_seats = seats;
    game_params p = {game_id, &c, server_seed, log->pk, "selfplay", NULL, 0, NULL};
    brt_reject err;
    brt_game *g = game_create(&p, memlog_sink(log), &err);
    if (!g) {
        snprintf(out->error, sizeof out->error, "create: %s", err.message);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < seats && rc == 0; i++) {
        uint8_t ent[32];
        s_fill(&rng, ent, 32);
        if (game_join(g, i, ent, 32, NULL, 0, &err) != 0) {
            snprintf(out->error, sizeof out->error, "join %u: %s", i, err.message);
            rc = -1;
        }
    }
    brt_buf legal;
    buf_init(&legal);
    uint64_t rid = 0;
    while (rc == 0 && !game_over(g) && out->orders < max_orders) {
        int acted = 0;
        for (unsigned s = 0; s < seats && rc == 0 && !game_over(g); s++) {
            brt_pending pend;
            int must;
            game_pending(g, (int)s, &pend, &must);
            if (!must) continue;
            buf_reset(&legal);
            int n = game_legal(g, s, &legal);
            if (selfplay_legal_hook) selfplay_legal_hook(selfplay_legal_ctx, s, legal.data, legal.len);
            if (n <= 0) {
                snprintf(out->error, sizeof out->error, "seat %u must decide (%s) but has no legal order", s,
                         pend.kind);
                rc = -1;
                break;
            }
            uint64_t pick = selfplay_next(&rng) % (uint64_t)n;
            size_t pos = 0;
            const uint8_t *item = NULL;
            size_t ilen = 0;
            for (uint64_t k = 0; k <= pick; k++) buf_next_item(&legal, &pos, &item, &ilen);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = game_id;
            sub.seat = s;
            sub.based_on_seq = game_seq(g);
            sub.order.data = (uint8_t *)item;
            sub.order.len = ilen;
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            if (!bytes || game_submit(g, s, bytes, blen, &err) != 0) {
                out->rejected++;
                snprintf(out->error, sizeof out->error, "legal order rejected: [%s] %s", err.rule, err.message);
                rc = -1;
            }
            free(bytes);
            out->orders++;
            acted = 1;
        }
        if (rc == 0 && !acted && !game_over(g)) {
            snprintf(out->error, sizeof out->error, "nobody must act in a live game");
            rc = -1;
        }
    }
    buf_free(&legal);
    out->ended = game_over(g);
    game_state_hash(g, out->state_hash);
    game_destroy(&g);
    return rc;
}
