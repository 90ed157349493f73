/*
 * seatsign.h - the client side of seat-signed inputs (docs/protocol.md P3.1):
 * the seat's signing key, the signed message and the header check. Internal
 * to the client library; written apart from the daemon's core/seatsig.c so
 * that each checks the other.
 */
#ifndef BERTHIER_CLIENT_SEATSIGN_H
#define BERTHIER_CLIENT_SEATSIGN_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

/* The seat's Ed25519 keypair from its CURVE secret key (32 raw bytes):
 * crypto_sign_seed_keypair(BLAKE2b-256(key = curve_sk, "berthier-seat-sign-v1")). 0 / -1. */
int brt_seatsign_derive(const uint8_t curve_sk[32], uint8_t pk[32], uint8_t sk[64]);

/* The input request's game, seat, signed seq and oneof field (0: not an input). */
unsigned brt_seatsign_input(const Berthier__V1__Request *req, const char **game_id, unsigned *seat,
                            uint64_t *seq);

/* Sign req (an input) with sk over header hash hh into sig; req->signature then
 * points to sig. 0 / -1. */
int brt_seatsign_request(Berthier__V1__Request *req, const uint8_t sk[64], const uint8_t hh[32], uint8_t sig[64]);

/* Check a GameHeader for seat `seat` holding CURVE public key `curve_pk`: the
 * hash is BLAKE2b-256 of the bytes, the header names this game, has this key at
 * that seat, a 32-byte dice commitment and a 32-byte server signing key, whose
 * signature of record 0 (GameHeader.signature) verifies. 0, or -1 with a
 * sentence in why. */
int brt_seatsign_check_header(const Berthier__V1__GameHeader *h, const char *game_id, unsigned seat,
                              const uint8_t curve_pk[32], char *why, size_t cap);

#endif
