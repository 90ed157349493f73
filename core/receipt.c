/*
 * receipt.c - the signed message of a receipt (receipt.h).
 */
#include "receipt.h"

#include <sodium.h>
#include <string.h>

static uint8_t *s_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
    return p + n;
}

size_t receipt_message(const Berthier__V1__Receipt *r, uint8_t out[RECEIPT_MESSAGE_MAX]) {
    if (!r || !r->game_id) return 0;
    size_t idlen = strlen(r->game_id);
    if (idlen > RECEIPT_GAME_ID_MAX || r->head.len != 32 || r->input_hash.len != 32 || r->kind > 255) return 0;
    uint8_t *p = out;
    memcpy(p, RECEIPT_DOMAIN, 16);
    p += 16;
    p = s_le(p, idlen, 4);
    memcpy(p, r->game_id, idlen);
    p += idlen;
    p = s_le(p, r->seat, 4);
    *p++ = (uint8_t)r->kind;
    p = s_le(p, r->record, 8);
    p = s_le(p, r->head_record, 8);
    memcpy(p, r->head.data, 32);
    p += 32;
    memcpy(p, r->input_hash.data, 32);
    p += 32;
    p = s_le(p, r->seq, 8);
    return (size_t)(p - out);
}

void receipt_input_hash(const uint8_t *req, size_t len, uint8_t out[32]) {
    crypto_generichash(out, 32, req, len, NULL, 0);
}

int receipt_sign(const Berthier__V1__Receipt *r, const uint8_t sk[64], uint8_t sig[64]) {
    uint8_t m[RECEIPT_MESSAGE_MAX];
    size_t n = receipt_message(r, m);
    if (!n) return -1;
    crypto_sign_ed25519_detached(sig, NULL, m, n, sk);
    return 0;
}

int receipt_verify(const Berthier__V1__Receipt *r, const uint8_t pk[32]) {
    uint8_t m[RECEIPT_MESSAGE_MAX];
    size_t n = receipt_message(r, m);
    if (!n || r->signature.len != 64) return -1;
    return crypto_sign_ed25519_verify_detached(r->signature.data, m, n, pk) == 0 ? 0 : -1;
}
