/*
 * receipts.c - receipts and witnesses (receipts.h). Ed25519 signatures are
 * deterministic, so the receipt of an order rebuilt by recovery is byte for
 * byte the one sent live: every field comes from the log and the request.
 */
#include "receipts.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

/* where a game's last captured input is (nothing yet: all zero, as before any capture) */
static const bd_capture_at *s_at(const bd_game *gm) {
    static const bd_capture_at none;
    return gm->cx ? gm->cx : &none;
}

void bd_receipt_build(bd_receipt *self, const bd_game *gm, unsigned seat, const uint8_t *req, size_t len) {
    memset(self, 0, sizeof *self);
    berthier__v1__receipt__init(&self->r);
    snprintf(self->game_id, sizeof self->game_id, "%s", gm->id);
    memcpy(self->head, s_at(gm)->cap_head, 32);
    receipt_input_hash(req, len, self->input_hash);
    uint8_t kind = 0;
    size_t pos = 0;
    const uint8_t *it;
    size_t n;
    if (buf_next_item(&gm->cap, &pos, &it, &n) == 1 && n >= 1) kind = it[0];
    self->r.game_id = self->game_id;
    self->r.seat = seat;
    self->r.kind = kind;
    self->r.record = s_at(gm)->cap_first;
    self->r.head_record = s_at(gm)->cap_last;
    self->r.head.data = self->head;
    self->r.head.len = 32;
    self->r.input_hash.data = self->input_hash;
    self->r.input_hash.len = 32;
    self->r.seq = game_seq(gm->g);
    if (receipt_sign(&self->r, gm->eng->keys->sign_sk, self->sig) != 0)
        fatal("game %s: a receipt could not be signed", gm->id);
    self->r.signature.data = self->sig;
    self->r.signature.len = 64;
}

int bd_witness_build(bd_witness *self, const bd_game *gm) {
    memset(self, 0, sizeof *self);
    const bd_capture_at *at = s_at(gm);
    if (!at->cap_ckpt) return 0;
    berthier__v1__log_checkpoint__init(&self->c);
    memcpy(self->head, at->ckpt_head, 32);
    evlog_checkpoint_sign(gm->eng->keys->sign_sk, gm->id, at->ckpt_record, self->head, self->sig);
    self->c.record = at->ckpt_record;
    self->c.head.data = self->head;
    self->c.head.len = 32;
    self->c.signature.data = self->sig;
    self->c.signature.len = 64;
    return 1;
}
