/*
 * receipt.c - checking and keeping the daemon's receipts and witnesses
 * (berthier/client.h; docs/protocol.md P9). The signed message is built by
 * core/receipt.c, compiled into this library as it is into the daemon.
 *
 * A receipts file is text, one receipt per line:
 *
 *   <Receipt bytes in lowercase hex> <the exact Request bytes in lowercase hex>
 *
 * Lines that are empty or start with '#' are comments. A heads file (the
 * witness) is one checkpoint per line:
 *
 *   <game id> <record> <head, 64 hex> <signature, 128 hex>
 */
#include "berthier/client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>

#include "receipt.h"

int brt_request_is_input(const uint8_t *req, size_t len) {
    Berthier__V1__Request *r = berthier__v1__request__unpack(NULL, len, req);
    if (!r) return 0;
    int c = r->body_case;
    berthier__v1__request__free_unpacked(r, NULL);
    return c == BERTHIER__V1__REQUEST__BODY_JOIN || c == BERTHIER__V1__REQUEST__BODY_SUBMIT ||
           c == BERTHIER__V1__REQUEST__BODY_RESIGN || c == BERTHIER__V1__REQUEST__BODY_REVEAL;
}

int brt_receipt_check(const Berthier__V1__Receipt *r, const uint8_t pk[32]) {
    return r && pk && receipt_verify(r, pk) == 0 ? 0 : -1;
}

/* The game and seat an input request names, and the kind of record it makes. */
static int s_request_names(const Berthier__V1__Request *q, const char **game, uint32_t *seat, uint32_t *kind) {
    switch (q->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN: *game = q->join->game_id; *seat = q->join->seat; *kind = 2; return 0;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT:
        *game = q->submit->game_id;
        *seat = q->submit->seat;
        *kind = 3;
        return 0;
    case BERTHIER__V1__REQUEST__BODY_RESIGN:
        *game = q->resign->game_id;
        *seat = q->resign->seat;
        *kind = 5;
        return 0;
    case BERTHIER__V1__REQUEST__BODY_REVEAL:
        *game = q->reveal->game_id;
        *seat = q->reveal->seat;
        *kind = 6;
        return 0;
    default: return -1;
    }
}

int brt_receipt_check_request(const Berthier__V1__Receipt *r, const uint8_t pk[32], const uint8_t *req,
                              size_t len, char *why, size_t whylen) {
    char dummy[8];
    if (!why) {
        why = dummy;
        whylen = sizeof dummy;
    }
    if (!r) {
        snprintf(why, whylen, "the daemon acknowledged the input without a receipt");
        return -1;
    }
    if (brt_receipt_check(r, pk) != 0) {
        snprintf(why, whylen, "the receipt's signature does not verify under the pinned signing key");
        return -1;
    }
    uint8_t h[32];
    receipt_input_hash(req, len, h);
    if (r->input_hash.len != 32 || sodium_memcmp(h, r->input_hash.data, 32) != 0) {
        snprintf(why, whylen, "the receipt's input hash is not the hash of the request sent");
        return -1;
    }
    Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, len, req);
    const char *game = NULL;
    uint32_t seat = 0, kind = 0;
    int ok = q && s_request_names(q, &game, &seat, &kind) == 0 && game && r->game_id &&
             strcmp(game, r->game_id) == 0 && seat == r->seat && kind == r->kind && r->head_record >= r->record;
    if (q) berthier__v1__request__free_unpacked(q, NULL);
    if (!ok) {
        snprintf(why, whylen, "the receipt names another game, seat or kind of input than the request sent");
        return -1;
    }
    return 0;
}

/* Make the directory a path is in (one level), if it is missing. */
static void s_make_parent(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path) return;
    char dir[4096];
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir) return;
    memcpy(dir, path, n);
    dir[n] = 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return;
}

static int s_append_line(const char *path, const char *line) {
    s_make_parent(path);
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    int rc = fputs(line, f) < 0 ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

int brt_receipts_append(const char *path, const Berthier__V1__Receipt *r, const uint8_t *req, size_t len) {
    if (!path || !r) return -1;
    size_t n = berthier__v1__receipt__get_packed_size(r);
    uint8_t *bytes = malloc(n ? n : 1);
    char *line = malloc(2 * n + 2 * len + 4);
    if (!bytes || !line) {
        free(bytes);
        free(line);
        return -1;
    }
    berthier__v1__receipt__pack(r, bytes);
    sodium_bin2hex(line, 2 * n + 1, bytes, n);
    size_t at = 2 * n;
    if (req && len) {
        line[at++] = ' ';
        sodium_bin2hex(line + at, 2 * len + 1, req, len);
        at += 2 * len;
    }
    line[at++] = '\n';
    line[at] = 0;
    int rc = s_append_line(path, line);
    free(bytes);
    free(line);
    return rc;
}

int brt_receipts_default_path(const char *game_id, char *out, size_t cap) {
    const char *dir = getenv("BERTHIER_RECEIPTS_DIR");
    if (!dir || !*dir) dir = "receipts";
    int n = snprintf(out, cap, "%s/%s.receipts", dir, game_id ? game_id : "");
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int brt_witness_append(const char *path, const char *game_id, const Berthier__V1__LogCheckpoint *c) {
    if (!path || !game_id || !c || c->head.len != 32 || c->signature.len != 64) return -1;
    char head[65], sig[129], line[320];
    sodium_bin2hex(head, sizeof head, c->head.data, 32);
    sodium_bin2hex(sig, sizeof sig, c->signature.data, 64);
    snprintf(line, sizeof line, "%s %llu %s %s\n", game_id, (unsigned long long)c->record, head, sig);
    return s_append_line(path, line);
}
