/*
 * receipts.h - the daemon's receipts and witnesses (docs/protocol.md P9): a
 * signed receipt for every input it acknowledges, and the checkpoint an input
 * ended with, published beside its notices.
 */
#ifndef BERTHIERD_RECEIPTS_H
#define BERTHIERD_RECEIPTS_H

#include "engine.h"
#include "receipt.h"

/* A receipt and the bytes its fields point at. */
typedef struct bd_receipt {
    Berthier__V1__Receipt r;
    char game_id[ENGINE_ID_LEN + 1];
    uint8_t head[32];
    uint8_t input_hash[32];
    uint8_t sig[64];
} bd_receipt;

/* The receipt of the input just captured in gm (gm->cap_*) for `seat`, whose
 * exact request bytes were req/len. Built the same way live and in recovery. */
void bd_receipt_build(bd_receipt *self, const bd_game *gm, unsigned seat, const uint8_t *req, size_t len);

/* The checkpoint the captured input ended with (gm->cap_ckpt), as logged. */
typedef struct bd_witness {
    Berthier__V1__LogCheckpoint c;
    uint8_t head[32];
    uint8_t sig[64];
} bd_witness;
/* 1 = filled, 0 = the input wrote no checkpoint. */
int bd_witness_build(bd_witness *self, const bd_game *gm);

#endif
