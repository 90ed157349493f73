/*
 * engine_sign_t.h - seat-sign an input for the in-process engine tests, as a client would
 * (docs/protocol.md P3.1): the seat's signing key is derived from its CURVE key bytes (these
 * tests hold no CURVE secret: the engine is called in process), a join binds it and the
 * header hash. Included by the test files that call engine_handle directly.
 */
#ifndef BERTHIER_TEST_ENGINE_SIGN_T_H
#define BERTHIER_TEST_ENGINE_SIGN_T_H

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "berthier/v1/berthier.pb-c.h"
#include "engine.h"
#include "seatsig.h"

/* Sign `req` in place with seat_key[seat] (nseats keys): sig and pk must live as long as req.
 * Nothing is done for a body no seat signs, a game not found, a seat out of range or a
 * request signed already. */
static void t_engine_sign(bd_engine *eng, const uint8_t (*seat_key)[32], unsigned nseats, Berthier__V1__Request *req,
                          uint8_t sig[64], uint8_t pk[32]) {
    const ProtobufCMessage *body = NULL;
    const char *gid = NULL;
    unsigned seat = 0, field = 0;
    uint64_t seq = 0;
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN:
        body = &req->join->base, gid = req->join->game_id, seat = req->join->seat, field = SEATSIG_BODY_JOIN;
        break;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT:
        body = &req->submit->base, gid = req->submit->game_id, seat = req->submit->seat;
        seq = req->submit->based_on_seq, field = SEATSIG_BODY_SUBMIT;
        break;
    case BERTHIER__V1__REQUEST__BODY_RESIGN:
        body = &req->resign->base, gid = req->resign->game_id, seat = req->resign->seat, field = SEATSIG_BODY_RESIGN;
        break;
    case BERTHIER__V1__REQUEST__BODY_REVEAL:
        body = &req->reveal->base, gid = req->reveal->game_id, seat = req->reveal->seat, field = SEATSIG_BODY_REVEAL;
        break;
    default: return;
    }
    bd_game *gm = gid ? engine_find(eng, gid) : NULL;
    if (!gm || seat >= nseats || req->signature.len) return;
    const uint8_t *hh = game_header_hash(gm->g);
    uint8_t seed[32], sk[64];
    crypto_generichash(seed, 32, seat_key[seat], 32, (const uint8_t *)SEATSIG_DERIVE_DOMAIN,
                       strlen(SEATSIG_DERIVE_DOMAIN));
    crypto_sign_seed_keypair(pk, sk, seed);
    if (req->body_case == BERTHIER__V1__REQUEST__BODY_JOIN) {
        req->join->sign_pk.data = pk;
        req->join->sign_pk.len = 32;
        req->join->header_hash.data = (uint8_t *)hh;
        req->join->header_hash.len = 32;
    }
    size_t n = protobuf_c_message_get_packed_size(body);
    uint8_t *b = malloc(n ? n : 1);
    assert_non_null(b);
    protobuf_c_message_pack(body, b);
    assert_int_equal(seatsig_sign(sk, gid, hh, seq, req->request_id, field, b, n, sig), 0);
    free(b);
    sodium_memzero(sk, sizeof sk);
    req->signature.data = sig;
    req->signature.len = 64;
}

#endif
