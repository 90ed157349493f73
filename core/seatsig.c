/*
 * seatsig.c - seat-signed inputs: the signed message, key derivation, sign and
 * verify (the layout is in seatsig.h and docs/protocol.md P3.1).
 */
#include "seatsig.h"

#include <sodium.h>
#include <string.h>

void seatsig_header_hash(const uint8_t *header, size_t len, uint8_t out[32]) {
    crypto_generichash(out, 32, header, len, NULL, 0);
}

int seatsig_derive(const uint8_t curve_sk[32], uint8_t pk[SEATSIG_PK_BYTES], uint8_t sk[SEATSIG_SK_BYTES]) {
    uint8_t seed[32];
    if (crypto_generichash(seed, sizeof seed, (const uint8_t *)SEATSIG_DERIVE_DOMAIN,
                           sizeof SEATSIG_DERIVE_DOMAIN - 1, curve_sk, 32) != 0)
        return -1;
    int rc = crypto_sign_seed_keypair(pk, sk, seed);
    sodium_memzero(seed, sizeof seed);
    return rc == 0 ? 0 : -1;
}

int seatsig_message(brt_buf *out, const char *game_id, const uint8_t header_hash[32], uint64_t seq,
                    uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len) {
    size_t idlen = strlen(game_id);
    if (idlen > 255 || body_field > 255 || body_len > UINT32_MAX) return -1;
    uint8_t l = (uint8_t)idlen, f = (uint8_t)body_field;
    if (buf_append(out, SEATSIG_DOMAIN, sizeof SEATSIG_DOMAIN - 1) != 0 || buf_append(out, &l, 1) != 0 ||
        buf_append(out, game_id, idlen) != 0 || buf_append(out, header_hash, 32) != 0 ||
        buf_append_u64le(out, seq) != 0 || buf_append_u64le(out, request_id) != 0 || buf_append(out, &f, 1) != 0 ||
        buf_append_u32le(out, (uint32_t)body_len) != 0 || buf_append(out, body, body_len) != 0)
        return -1;
    return 0;
}

int seatsig_sign(const uint8_t sk[SEATSIG_SK_BYTES], const char *game_id, const uint8_t header_hash[32], uint64_t seq,
                 uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len,
                 uint8_t sig[SEATSIG_BYTES]) {
    brt_buf m;
    buf_init(&m);
    int rc = seatsig_message(&m, game_id, header_hash, seq, request_id, body_field, body, body_len);
    if (rc == 0) rc = crypto_sign_detached(sig, NULL, m.data, m.len, sk) == 0 ? 0 : -1;
    buf_free(&m);
    return rc;
}

int seatsig_verify(const uint8_t pk[SEATSIG_PK_BYTES], const char *game_id, const uint8_t header_hash[32],
                   uint64_t seq, uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len,
                   const uint8_t *sig, size_t sig_len) {
    if (!sig || sig_len != SEATSIG_BYTES) return -1;
    brt_buf m;
    buf_init(&m);
    int rc = seatsig_message(&m, game_id, header_hash, seq, request_id, body_field, body, body_len);
    if (rc == 0) rc = crypto_sign_verify_detached(sig, m.data, m.len, pk) == 0 ? 0 : -1;
    buf_free(&m);
    return rc;
}
