/*
 * receipts.c - receipts, witnessed heads and trusted keys against a log
 * (evidence.h). A receipt proves that the daemon acknowledged an input at a
 * place in the log; a head, that the log once reached a chain hash at a
 * record. A log that lost the input, holds another one there, or forks before
 * the acknowledged head contradicts it, whatever its chain and checkpoints say:
 * the chain can be recomputed and the checkpoints re-signed by whoever holds
 * the key, but the receipt was signed before the rewrite.
 */
#include "evidence.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "receipt.h"

/* ---- files ---------------------------------------------------------------------- */

static void s_err(brt_buf *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_err(brt_buf *err, const char *fmt, ...) {
    if (!err) return;
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_append_str(err, line);
    buf_append_str(err, "\n");
}

/* Read the whole file, NUL-terminated. NULL with err filled. */
static char *s_slurp(const char *path, brt_buf *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        s_err(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    brt_buf b;
    buf_init(&b);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    buf_append(&b, "", 1);
    if (bad) {
        s_err(err, "%s: read error", path);
        buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* Next line (in place); NULL at the end. Strips \r\n and surrounding spaces. */
static char *s_next_line(char **pos) {
    char *p = *pos;
    if (!p || !*p) return NULL;
    char *nl = strchr(p, '\n');
    if (nl) {
        *nl = 0;
        *pos = nl + 1;
    } else {
        *pos = p + strlen(p);
    }
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strlen(p);
    while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t')) p[--n] = 0;
    return p;
}

/* Hex word to fresh bytes. 0 / -1. */
static int s_unhex(const char *hex, size_t hexlen, uint8_t **out, size_t *len) {
    if (hexlen % 2) return -1;
    uint8_t *b = malloc(hexlen / 2 + 1);
    if (!b) return -1;
    size_t n = 0;
    if (sodium_hex2bin(b, hexlen / 2 + 1, hex, hexlen, NULL, &n, NULL) != 0 || n != hexlen / 2) {
        free(b);
        return -1;
    }
    *out = b;
    *len = n;
    return 0;
}

static int s_unhex_fixed(const char *hex, uint8_t *out, size_t want) {
    size_t n = 0;
    return strlen(hex) == 2 * want && sodium_hex2bin(out, want, hex, 2 * want, NULL, &n, NULL) == 0 && n == want
               ? 0
               : -1;
}

static int s_grow(void **arr, size_t *cap, size_t n, size_t size) {
    if (n < *cap) return 0;
    size_t nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, nc * size);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

int replay_receipts_load(replay_evidence *ev, const char *path, brt_buf *err) {
    char *text = s_slurp(path, err);
    if (!text) return -1;
    int rc = 0;
    char *pos = text, *line;
    for (unsigned lineno = 1; (line = s_next_line(&pos)) != NULL; lineno++) {
        if (!*line || *line == '#') continue;
        char *sp = strpbrk(line, " \t");
        size_t rlen = sp ? (size_t)(sp - line) : strlen(line);
        const char *req = sp ? sp + strspn(sp, " \t") : "";
        uint8_t *rb = NULL, *qb = NULL;
        size_t rn = 0, qn = 0;
        Berthier__V1__Receipt *r = NULL;
        if (s_unhex(line, rlen, &rb, &rn) != 0 || (*req && s_unhex(req, strlen(req), &qb, &qn) != 0) ||
            !(r = berthier__v1__receipt__unpack(NULL, rn, rb))) {
            s_err(err, "%s:%u: not a receipt line (<Receipt hex> [<Request hex>])", path, lineno);
            free(rb);
            free(qb);
            rc = -1;
            break;
        }
        free(rb);
        if (s_grow((void **)&ev->receipts, &ev->capreceipts, ev->nreceipts, sizeof *ev->receipts) != 0) {
            berthier__v1__receipt__free_unpacked(r, NULL);
            free(qb);
            s_err(err, "out of memory");
            rc = -1;
            break;
        }
        replay_receipt *e = &ev->receipts[ev->nreceipts++];
        memset(e, 0, sizeof *e);
        e->r = r;
        e->req = qb;
        e->req_len = qn;
        snprintf(e->origin, sizeof e->origin, "%s:%u", path, lineno);
    }
    free(text);
    return rc;
}

int replay_heads_load(replay_evidence *ev, const char *path, brt_buf *err) {
    char *text = s_slurp(path, err);
    if (!text) return -1;
    int rc = 0;
    char *pos = text, *line;
    for (unsigned lineno = 1; (line = s_next_line(&pos)) != NULL; lineno++) {
        if (!*line || *line == '#') continue;
        char id[80], rec[32], head[80], sig[160], extra[2];
        replay_head h;
        memset(&h, 0, sizeof h);
        char *end = NULL;
        if (sscanf(line, "%79s %31s %79s %159s %1s", id, rec, head, sig, extra) != 4 || strlen(id) > 64 ||
            (errno = 0, h.record = strtoull(rec, &end, 10), errno || !end || *end || rec[0] == '-') ||
            s_unhex_fixed(head, h.head, 32) != 0 || s_unhex_fixed(sig, h.sig, 64) != 0) {
            s_err(err, "%s:%u: not a head line (<game> <record> <head hex> <signature hex>)", path, lineno);
            rc = -1;
            break;
        }
        snprintf(h.game_id, sizeof h.game_id, "%.64s", id); /* strlen(id) <= 64, checked above */
        snprintf(h.origin, sizeof h.origin, "%s:%u", path, lineno);
        if (s_grow((void **)&ev->heads, &ev->capheads, ev->nheads, sizeof *ev->heads) != 0) {
            s_err(err, "out of memory");
            rc = -1;
            break;
        }
        ev->heads[ev->nheads++] = h;
    }
    free(text);
    return rc;
}

int replay_trust_load(replay_evidence *ev, const char *path, brt_buf *err) {
    char *text = s_slurp(path, err);
    if (!text) return -1;
    ev->have_trust = 1;
    int rc = 0;
    char *pos = text, *line;
    for (unsigned lineno = 1; (line = s_next_line(&pos)) != NULL; lineno++) {
        if (!*line || *line == '#') continue;
        char key[80];
        uint8_t pk[32];
        if (sscanf(line, "%79s", key) != 1 || s_unhex_fixed(key, pk, 32) != 0) {
            s_err(err, "%s:%u: not a key line (64 hex characters, then an optional comment)", path, lineno);
            rc = -1;
            break;
        }
        if (s_grow((void **)&ev->trust, &ev->captrust, ev->ntrust, sizeof *ev->trust) != 0) {
            s_err(err, "out of memory");
            rc = -1;
            break;
        }
        memcpy(ev->trust[ev->ntrust++], pk, 32);
    }
    free(text);
    return rc;
}

void replay_evidence_free(replay_evidence *ev) {
    for (size_t i = 0; i < ev->nreceipts; i++) {
        berthier__v1__receipt__free_unpacked(ev->receipts[i].r, NULL);
        free(ev->receipts[i].req);
    }
    free(ev->receipts);
    free(ev->heads);
    free(ev->trust);
    memset(ev, 0, sizeof *ev);
}

/* ---- checks ------------------------------------------------------------------------- */

/* The chain hash of record `index` of the log, SYNC records included. 1 = found
 * (*rec: the non-SYNC record at that index, or NULL for a SYNC), 0 = past the end. */
static int s_chain_at(const replay_log_view *v, uint64_t index, uint8_t out[32], const evlog_record **rec) {
    *rec = NULL;
    if (v->n == 0 || index >= v->records) return 0;
    size_t lo = 0, hi = v->n;   /* the last record with recs[i].index <= index */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (v->recs[mid].index <= index) lo = mid;
        else hi = mid;
    }
    const evlog_record *r = &v->recs[lo];
    if (r->index > index) return 0;
    uint8_t h[32];
    memcpy(h, r->chain, 32);
    for (uint64_t i = r->index; i < index; i++) evlog_chain(h, EVLOG_SYNC, NULL, 0, h);
    memcpy(out, h, 32);
    if (r->index == index) *rec = r;
    return 1;
}

static const char *s_kind(uint32_t kind) { return kind <= 255 ? evlog_kind_name((uint8_t)kind) : "?"; }

/* The seat of an input record, and whether it holds what the request asked (req may be NULL).
 * 0 = consistent, -1 with why filled. */
static int s_input_matches(const evlog_record *rec, const Berthier__V1__Receipt *r, const uint8_t *req,
                           size_t req_len, char *why, size_t whylen) {
    Berthier__V1__Request *q = req ? berthier__v1__request__unpack(NULL, req_len, req) : NULL;
    int ok = 0;
    uint32_t seat = UINT32_MAX;
    switch (rec->kind) {
    case EVLOG_JOIN: {
        Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, rec->len, rec->payload);
        if (!j) break;
        seat = j->seat;
        ok = !q || (q->body_case == BERTHIER__V1__REQUEST__BODY_JOIN && q->join->seat == j->seat &&
                    q->join->entropy.len == j->entropy.len &&
                    memcmp(q->join->entropy.data, j->entropy.data, j->entropy.len) == 0 &&
                    q->join->chain_commit.len == j->chain_commit.len &&
                    (!j->chain_commit.len ||
                     memcmp(q->join->chain_commit.data, j->chain_commit.data, j->chain_commit.len) == 0));
        berthier__v1__log_join__free_unpacked(j, NULL);
        break;
    }
    case EVLOG_ORDER: {
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, rec->len, rec->payload);
        if (!o) break;
        seat = o->seat;
        uint8_t h[32];
        receipt_input_hash(o->request.data, o->request.len, h);
        ok = r->input_hash.len == 32 && sodium_memcmp(h, r->input_hash.data, 32) == 0;
        berthier__v1__log_order__free_unpacked(o, NULL);
        if (!ok && seat == r->seat) {
            snprintf(why, whylen, "record %llu is seat %u's ORDER, but its request bytes do not hash to the "
                                  "receipt's input_hash: the order was replaced",
                     (unsigned long long)rec->index, seat);
            if (q) berthier__v1__request__free_unpacked(q, NULL);
            return -1;
        }
        break;
    }
    case EVLOG_RESIGN: {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, rec->len, rec->payload);
        if (!x) break;
        seat = x->seat;
        ok = !q || q->body_case == BERTHIER__V1__REQUEST__BODY_RESIGN;
        berthier__v1__log_resign__free_unpacked(x, NULL);
        break;
    }
    case EVLOG_NONCE: {
        Berthier__V1__LogNonce *x = berthier__v1__log_nonce__unpack(NULL, rec->len, rec->payload);
        if (!x) break;
        seat = x->seat;
        ok = !q || (q->body_case == BERTHIER__V1__REQUEST__BODY_REVEAL && q->reveal->batch == x->batch &&
                    q->reveal->nonce.len == x->nonce.len &&
                    memcmp(q->reveal->nonce.data, x->nonce.data, x->nonce.len) == 0);
        berthier__v1__log_nonce__free_unpacked(x, NULL);
        break;
    }
    default: break;
    }
    if (q) berthier__v1__request__free_unpacked(q, NULL);
    if (ok && seat == r->seat) return 0;
    if (seat != r->seat && seat != UINT32_MAX)
        snprintf(why, whylen, "record %llu is seat %u's %s: the log was rewritten there",
                 (unsigned long long)rec->index, seat, evlog_kind_name(rec->kind));
    else
        snprintf(why, whylen, "record %llu does not hold the acknowledged %s: the log was rewritten there",
                 (unsigned long long)rec->index, evlog_kind_name(rec->kind));
    return -1;
}

static void s_hex(const uint8_t *p, size_t n, char *out) { sodium_bin2hex(out, 2 * n + 1, p, n); }

size_t replay_evidence_check(replay_evidence *ev, const replay_log_view *v, brt_buf *report, size_t *receipts,
                             size_t *heads) {
    size_t problems = 0, count = 0;
    char line[1200], why[600];
    /* where the log departs from the evidence: the last record some evidence agrees with
     * (chain hash included) and the first one some evidence contradicts */
    uint64_t agree = 0, depart = UINT64_MAX;
    int agreed = 0;
    for (size_t i = 0; i < ev->nreceipts; i++) {
        replay_receipt *e = &ev->receipts[i];
        const Berthier__V1__Receipt *r = e->r;
        if (!r->game_id || strcmp(r->game_id, v->game_id) != 0) continue;
        e->used = 1;
        count++;
        char name[500];
        snprintf(name, sizeof name, "receipt %zu (game %s, record %llu, seat %u's %s; %s)", i + 1, r->game_id,
                 (unsigned long long)r->record, r->seat, s_kind(r->kind), e->origin);
        why[0] = 0;
        uint8_t h[32];
        const evlog_record *rec;
        if (!v->pk || receipt_verify(r, v->pk) != 0) {
            snprintf(why, sizeof why, "its signature does not verify under the log's signing key: it was signed by "
                                      "another key, or the log was re-signed by one");
        } else if (e->req && (receipt_input_hash(e->req, e->req_len, h),
                              sodium_memcmp(h, r->input_hash.data, 32) != 0)) {
            snprintf(why, sizeof why, "the request bytes kept beside it do not hash to its input_hash (the receipts "
                                      "file is wrong)");
        } else if (!s_chain_at(v, r->record, h, &rec)) {
            snprintf(why, sizeof why, "the log has no record %llu (it ends at record %llu): truncated",
                     (unsigned long long)r->record, (unsigned long long)(v->records ? v->records - 1 : 0));
        } else if (!rec || rec->kind != r->kind) {
            snprintf(why, sizeof why, "record %llu is %s%s, not seat %u's %s: the log was rewritten there",
                     (unsigned long long)r->record, rec ? "a " : "a ", rec ? evlog_kind_name(rec->kind) : "SYNC",
                     r->seat, s_kind(r->kind));
        } else if (s_input_matches(rec, r, e->req, e->req_len, why, sizeof why) != 0) {
            /* why is filled */
        } else if (!s_chain_at(v, r->head_record, h, &rec)) {
            snprintf(why, sizeof why, "the log has no record %llu, the acknowledged head (it ends at record %llu): "
                                      "truncated",
                     (unsigned long long)r->head_record, (unsigned long long)(v->records ? v->records - 1 : 0));
        } else if (sodium_memcmp(h, r->head.data, 32) != 0) {
            char a[65], b[65];
            s_hex(h, 32, a);
            s_hex(r->head.data, 32, b);
            snprintf(why, sizeof why, "the chain hash of record %llu is %s, the receipt's head is %s: the log forks "
                                      "from the acknowledged history at or before record %llu",
                     (unsigned long long)r->head_record, a, b, (unsigned long long)r->head_record);
        }
        if (why[0]) {
            snprintf(line, sizeof line, "%s: %s\n", name, why);
            buf_append_str(report, line);
            problems++;
            if (r->record < depart) depart = r->record;
        } else if (!agreed || r->head_record > agree) {
            agree = r->head_record;
            agreed = 1;
        }
    }
    if (receipts) *receipts = count;
    count = 0;
    for (size_t i = 0; i < ev->nheads; i++) {
        replay_head *hd = &ev->heads[i];
        if (strcmp(hd->game_id, v->game_id) != 0) continue;
        hd->used = 1;
        count++;
        why[0] = 0;
        uint8_t h[32];
        const evlog_record *rec;
        if (!v->pk || evlog_checkpoint_verify(v->pk, hd->game_id, hd->record, hd->head, hd->sig) != 0) {
            snprintf(why, sizeof why, "its signature does not verify under the log's signing key: it was signed by "
                                      "another key, or the log was re-signed by one");
        } else if (!s_chain_at(v, hd->record, h, &rec)) {
            snprintf(why, sizeof why, "the log has no record %llu (it ends at record %llu): truncated",
                     (unsigned long long)hd->record, (unsigned long long)(v->records ? v->records - 1 : 0));
        } else if (sodium_memcmp(h, hd->head, 32) != 0) {
            char a[65], b[65];
            s_hex(h, 32, a);
            s_hex(hd->head, 32, b);
            snprintf(why, sizeof why, "the chain hash of record %llu is %s, the witnessed head is %s: the log forks "
                                      "at or before record %llu",
                     (unsigned long long)hd->record, a, b, (unsigned long long)hd->record);
        }
        if (why[0]) {
            snprintf(line, sizeof line, "head %zu (game %s, record %llu; %s): %s\n", i + 1, hd->game_id,
                     (unsigned long long)hd->record, hd->origin, why);
            buf_append_str(report, line);
            problems++;
            if (hd->record < depart) depart = hd->record;
        } else if (!agreed || hd->record > agree) {
            agree = hd->record;
            agreed = 1;
        }
    }
    if (problems && depart != UINT64_MAX) {
        if (agreed && agree < depart)
            snprintf(line, sizeof line, "the log extends the evidence up to record %llu and departs from it after "
                                        "that, by record %llu\n",
                     (unsigned long long)agree, (unsigned long long)depart);
        else
            snprintf(line, sizeof line, "the log departs from the evidence by record %llu\n",
                     (unsigned long long)depart);
        buf_append_str(report, line);
    }
    if (heads) *heads = count;
    return problems;
}
