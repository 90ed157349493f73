/*
 * evidence.h - what a verifier is given beside a log: the receipts seats kept,
 * the checkpoints witnesses kept, and the signing keys it trusts
 * (docs/log-format.md "Receipts", "Witnesses" and "Pinning the signer").
 */
#ifndef BERTHIER_REPLAY_EVIDENCE_H
#define BERTHIER_REPLAY_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"
#include "evlog.h"

typedef struct replay_receipt {
    Berthier__V1__Receipt *r;   /* decoded */
    uint8_t *req;               /* the request bytes kept beside it (NULL if none) */
    size_t req_len;
    char origin[300];           /* "FILE:LINE" */
    int used;                   /* a log of its game was checked */
} replay_receipt;

typedef struct replay_head {
    char game_id[65];
    uint64_t record;
    uint8_t head[32];
    uint8_t sig[64];
    char origin[300];
    int used;
} replay_head;

typedef struct replay_evidence {
    replay_receipt *receipts;
    size_t nreceipts, capreceipts;
    replay_head *heads;
    size_t nheads, capheads;
    uint8_t (*trust)[32];       /* keys from trust files */
    size_t ntrust, captrust;
    int have_trust;             /* a trust file was given (even an empty one) */
} replay_evidence;

/* Load a file into ev. 0, or -1 with a sentence (naming FILE:LINE) in err. */
int replay_receipts_load(replay_evidence *ev, const char *path, brt_buf *err);
int replay_heads_load(replay_evidence *ev, const char *path, brt_buf *err);
int replay_trust_load(replay_evidence *ev, const char *path, brt_buf *err);
void replay_evidence_free(replay_evidence *ev);

/* A log as the verifier read it (the valid records, SYNC records hidden). */
typedef struct replay_log_view {
    const evlog_record *recs;
    size_t n;
    uint64_t records;       /* records in the valid prefix, SYNC records included */
    const char *game_id;
    const uint8_t *pk;      /* the key receipts and heads must be signed by */
} replay_log_view;

/* Check every receipt and head of v->game_id against the log. One line per
 * contradiction in report (naming the receipt or head); returns their count.
 * *receipts, *heads: how many of this game's were checked. */
size_t replay_evidence_check(replay_evidence *ev, const replay_log_view *v, brt_buf *report, size_t *receipts,
                             size_t *heads);

#endif
