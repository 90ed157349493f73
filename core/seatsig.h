/*
 * seatsig.h - seat-signed inputs (docs/protocol.md P3.1, docs/log-format.md
 * "Seat signatures").
 *
 * Every input a seat makes (join, submit, resign, reveal) carries the seat's
 * Ed25519 signature (Request.signature) over
 *
 *   "berthier-input-v1"       17 bytes, the domain
 *   u8 L ‖ game_id            L = the game id's length (at most 40), its ASCII bytes
 *   header_hash               32 bytes: BLAKE2b-256 of the HEADER record's payload
 *   seq                       u64 le: Submit.based_on_seq; 0 for join, resign, reveal
 *   request_id                u64 le: Request.request_id
 *   body field                u8: the Request's oneof field number (11 join, 12 submit,
 *                             16 resign, 20 reveal)
 *   u32 le N ‖ body           the body message's exact bytes (canonical protobuf)
 *
 * The seat's key is the one its join bound (Join.sign_pk); a client derives it
 * from its CURVE secret key (seatsig_derive), so no other key file is needed.
 */
#ifndef BERTHIER_SEATSIG_H
#define BERTHIER_SEATSIG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define SEATSIG_DOMAIN "berthier-input-v1"
#define SEATSIG_DERIVE_DOMAIN "berthier-seat-sign-v1"
#define SEATSIG_BYTES 64
#define SEATSIG_PK_BYTES 32
#define SEATSIG_SK_BYTES 64

/* Oneof field numbers of the inputs in berthier.v1.Request. */
enum {
    SEATSIG_BODY_JOIN = 11,
    SEATSIG_BODY_SUBMIT = 12,
    SEATSIG_BODY_RESIGN = 16,
    SEATSIG_BODY_REVEAL = 20
};

/* The signed input of one request, as the core checks it. */
typedef struct brt_seatsig {
    uint64_t request_id;
    const uint8_t *signature;   /* SEATSIG_BYTES, or NULL: unsigned */
    size_t signature_len;
    /* join only */
    const uint8_t *sign_pk;     /* SEATSIG_PK_BYTES */
    size_t sign_pk_len;
    const uint8_t *header_hash; /* 32 */
    size_t header_hash_len;
} brt_seatsig;

/* The header hash: BLAKE2b-256 (unkeyed) of the exact LogHeader bytes. */
void seatsig_header_hash(const uint8_t *header, size_t len, uint8_t out[32]);

/* The seat's signing keypair from its CURVE secret key:
 *   seed = BLAKE2b-256(key = curve_sk (32 bytes), message = "berthier-seat-sign-v1")
 *   (pk, sk) = crypto_sign_seed_keypair(seed). */
int seatsig_derive(const uint8_t curve_sk[32], uint8_t pk[SEATSIG_PK_BYTES], uint8_t sk[SEATSIG_SK_BYTES]);

/* The signed message above, appended to out. 0 / -1 (out of memory, id too long). */
int seatsig_message(brt_buf *out, const char *game_id, const uint8_t header_hash[32], uint64_t seq,
                    uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len);

/* Sign / check. 0 / -1. */
int seatsig_sign(const uint8_t sk[SEATSIG_SK_BYTES], const char *game_id, const uint8_t header_hash[32], uint64_t seq,
                 uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len,
                 uint8_t sig[SEATSIG_BYTES]);
int seatsig_verify(const uint8_t pk[SEATSIG_PK_BYTES], const char *game_id, const uint8_t header_hash[32],
                   uint64_t seq, uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len,
                   const uint8_t *sig, size_t sig_len) __attribute__((warn_unused_result));

#endif
