/*
 * receipt.h - signed receipts: the daemon's acknowledgement of one input,
 * which a seat keeps and shows to anyone (docs/protocol.md P9,
 * docs/log-format.md "Receipts").
 *
 * The signed message (Ed25519, the checkpoint key LogHeader.server_sign_pk):
 *
 *   "berthier-rcpt-v1" (16 bytes) || len(game_id) (u32 le) || game_id ||
 *   seat (u32 le) || kind (u8) || record (u64 le) || head_record (u64 le) ||
 *   head (32) || input_hash (32) || seq (u64 le)
 *
 * input_hash = BLAKE2b-256 (unkeyed) of the exact Request bytes the daemon
 * received. Pure code: libsodium and the generated protocol only, so that the
 * client library compiles it too.
 */
#ifndef BERTHIER_RECEIPT_H
#define BERTHIER_RECEIPT_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

#define RECEIPT_DOMAIN "berthier-rcpt-v1"
#define RECEIPT_GAME_ID_MAX 64
/* 16 + 4 + 64 + 4 + 1 + 8 + 8 + 32 + 32 + 8 */
#define RECEIPT_MESSAGE_MAX 177

/* The signed message of `r` into out (RECEIPT_MESSAGE_MAX bytes). Its length,
 * or 0 if r is malformed (game id too long, head or input_hash not 32 bytes,
 * kind above 255). */
size_t receipt_message(const Berthier__V1__Receipt *r, uint8_t out[RECEIPT_MESSAGE_MAX]);
/* BLAKE2b-256 of the request bytes. */
void receipt_input_hash(const uint8_t *req, size_t len, uint8_t out[32]);
/* Sign r (every field but signature set) into sig. 0, or -1 if r is malformed. */
int receipt_sign(const Berthier__V1__Receipt *r, const uint8_t sk[64], uint8_t sig[64]);
/* 0 if r's signature is pk's over its fields, -1 otherwise. */
int receipt_verify(const Berthier__V1__Receipt *r, const uint8_t pk[32]) __attribute__((warn_unused_result));

#endif
