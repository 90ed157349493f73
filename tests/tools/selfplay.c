/*
 * berthier-selfplay - plays random games in process, or replays a log, and
 * prints what every build must print identically (the determinism tests).
 *
 *   berthier-selfplay play RULESET SCENARIO SEED [OUT.log [OPTION...]]
 *       play one game with random legal orders (with the game options given,
 *       e.g. fog-of-war); print the final state hash, the number of orders and
 *       the BLAKE2b of every record; write the log.
 *   berthier-selfplay replay LOG
 *       replay the log through the game driver with its revealed seed and
 *       print the same lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "memlog.h"
#include "selfplay.h"

static void s_hex(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static void s_print(const memlog *log, const uint8_t hash[32], uint64_t orders, int ended) {
    printf("state ");
    s_hex(hash, 32);
    printf("\norders %llu\nended %d\nrecords %zu\n", (unsigned long long)orders, ended, log->n);
    for (size_t i = 0; i < log->n; i++) {
        printf("%zu %s ", i, evlog_kind_name(log->recs[i].kind));
        if (log->recs[i].kind == EVLOG_CHECKPOINT) {
            /* Signed over the chain of the file it sits in, which also covers the
             * SYNC batch marks; berthier-replay verifies it. Only its place counts. */
            printf("-\n");
            continue;
        }
        uint8_t h[32];
        crypto_generichash(h, 32, log->recs[i].payload, log->recs[i].len, NULL, 0);
        s_hex(h, 32);
        printf("\n");
    }
}

/* BERTHIER_SELFPLAY_LEGAL set: a `legal` line, the BLAKE2b of every legal() list of the game in
 * order (seat, length, bytes), so that two builds can be shown to list the same orders */
static void s_legal_digest(void *ctx, unsigned seat, const uint8_t *list, size_t len) {
    uint8_t hdr[12] = {(uint8_t)seat};
    for (int i = 0; i < 8; i++) hdr[4 + i] = (uint8_t)((uint64_t)len >> (8 * i));
    crypto_generichash_update(ctx, hdr, sizeof hdr);
    crypto_generichash_update(ctx, list, len);
}

int main(int argc, char **argv) {
    if (sodium_init() < 0) return 2;
    crypto_generichash_state lst;
    int digest = getenv("BERTHIER_SELFPLAY_LEGAL") != NULL;
    if (digest) {
        crypto_generichash_init(&lst, NULL, 0, 32);
        selfplay_legal_hook = s_legal_digest;
        selfplay_legal_ctx = &lst;
    }
    if (argc >= 5 && strcmp(argv[1], "play") == 0) {
        memlog log;
        selfplay_result r;
        const char *const *opts = argc > 6 ? (const char *const *)argv + 6 : NULL;
        size_t nopts = argc > 6 ? (size_t)(argc - 6) : 0;
        int rc = selfplay_game(argv[2], argv[3], opts, nopts, 2, strtoull(argv[4], NULL, 0), 200000, &log, &r);
        if (rc != 0) {
            fprintf(stderr, "berthier-selfplay: %s\n", r.error);
            return 1;
        }
        s_print(&log, r.state_hash, r.orders, r.ended);
        if (digest) {
            uint8_t h[32];
            crypto_generichash_final(&lst, h, sizeof h);
            printf("legal ");
            s_hex(h, 32);
            printf("\n");
        }
        if (argc >= 6 && memlog_save(&log, argv[5]) != 0) {
            fprintf(stderr, "berthier-selfplay: cannot write %s\n", argv[5]);
            return 1;
        }
        memlog_free(&log);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "replay") == 0) {
        char err[256];
        evlog_reader *rd = evlog_reader_open(argv[2], err, sizeof err);
        if (!rd) {
            fprintf(stderr, "berthier-selfplay: %s\n", err);
            return 1;
        }
        /* Load the game records (the reader skips the SYNC batch marks). */
        memlog log;
        memlog_init(&log, "", 0);
        log.foreign_checkpoints = 1; /* signed by whoever wrote the log; berthier-replay verifies them */
        brt_sink sink = memlog_sink(&log);
        evlog_record rec;
        const uint8_t *seed = NULL;
        uint8_t seedbuf[32];
        int rc;
        while ((rc = evlog_reader_next(rd, &rec)) == 1) {
            sink.record(sink.ctx, rec.kind, rec.payload, rec.len);
            if (rec.kind == EVLOG_REVEAL) {
                Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, rec.len, rec.payload);
                if (rv && rv->seed.len == 32) {
                    memcpy(seedbuf, rv->seed.data, 32);
                    seed = seedbuf;
                }
                if (rv) berthier__v1__log_reveal__free_unpacked(rv, NULL);
            }
            if (rec.kind == EVLOG_HEADER) {
                Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, rec.len, rec.payload);
                if (h) {
                    snprintf(log.game_id, sizeof log.game_id, "%s", h->game_id);
                    berthier__v1__log_header__free_unpacked(h, NULL);
                }
            }
        }
        evlog_reader_destroy(&rd);
        if (rc < 0 || log.n == 0) {
            fprintf(stderr, "berthier-selfplay: the log is damaged\n");
            return 1;
        }
        uint8_t hash[32];
        char why[256];
        size_t n = memlog_replay(&log, seed, hash, why, sizeof why);
        if (n != log.n) {
            fprintf(stderr, "berthier-selfplay: replay stopped at record %zu: %s\n", n, why);
            return 1;
        }
        uint64_t orders = 0;
        int ended = 0;
        for (size_t i = 0; i < log.n; i++) {
            orders += log.recs[i].kind == EVLOG_ORDER;
            ended |= log.recs[i].kind == EVLOG_END;
        }
        s_print(&log, hash, orders, ended);
        memlog_free(&log);
        return 0;
    }
    fprintf(stderr, "usage: berthier-selfplay play RULESET SCENARIO SEED [OUT.log]\n"
                    "       berthier-selfplay replay LOG\n");
    return 2;
}
