/*
 * seatsign.c - seat-signed inputs, the client side (seatsign.h).
 *
 * The signed message (docs/protocol.md P3.1), byte for byte:
 *   "berthier-input-v1" ‖ u8 len(game_id) ‖ game_id ‖ header_hash (32)
 *   ‖ seq (u64 le) ‖ request_id (u64 le) ‖ body field (u8) ‖ u32 le N ‖ body (N bytes)
 */
#include "seatsign.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_DOMAIN "berthier-input-v1"
#define S_DERIVE "berthier-seat-sign-v1"

int brt_seatsign_derive(const uint8_t curve_sk[32], uint8_t pk[32], uint8_t sk[64]) {
    uint8_t seed[32];
    if (sodium_init() < 0) return -1;
    if (crypto_generichash(seed, 32, (const uint8_t *)S_DERIVE, sizeof S_DERIVE - 1, curve_sk, 32) != 0) return -1;
    int rc = crypto_sign_seed_keypair(pk, sk, seed);
    sodium_memzero(seed, sizeof seed);
    return rc == 0 ? 0 : -1;
}

unsigned brt_seatsign_input(const Berthier__V1__Request *req, const char **game_id, unsigned *seat,
                            uint64_t *seq) {
    *seq = 0;
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN:
        *game_id = req->join->game_id;
        *seat = req->join->seat;
        return 11;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT:
        *game_id = req->submit->game_id;
        *seat = req->submit->seat;
        *seq = req->submit->based_on_seq;
        return 12;
    case BERTHIER__V1__REQUEST__BODY_RESIGN:
        *game_id = req->resign->game_id;
        *seat = req->resign->seat;
        return 16;
    case BERTHIER__V1__REQUEST__BODY_REVEAL:
        *game_id = req->reveal->game_id;
        *seat = req->reveal->seat;
        return 20;
    default: return 0;
    }
}

static const ProtobufCMessage *s_body(const Berthier__V1__Request *req) {
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN: return &req->join->base;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT: return &req->submit->base;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: return &req->resign->base;
    case BERTHIER__V1__REQUEST__BODY_REVEAL: return &req->reveal->base;
    default: return NULL;
    }
}

static void s_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int brt_seatsign_request(Berthier__V1__Request *req, const uint8_t sk[64], const uint8_t hh[32], uint8_t sig[64]) {
    const char *gid = NULL;
    unsigned seat = 0;
    uint64_t seq = 0;
    unsigned field = brt_seatsign_input(req, &gid, &seat, &seq);
    const ProtobufCMessage *body = s_body(req);
    if (!field || !body || !gid) return -1;
    /* Want (P4.3) asks for more in the reply and is not logged with a join, resign or
     * reveal, whose logged fields the verifiers rebuild the body from: signed without
     * it (a submit's body is logged as sent, Want included, and signed so). */
    Berthier__V1__Want **wantp = req->body_case == BERTHIER__V1__REQUEST__BODY_JOIN     ? &req->join->want
                                 : req->body_case == BERTHIER__V1__REQUEST__BODY_RESIGN ? &req->resign->want
                                 : req->body_case == BERTHIER__V1__REQUEST__BODY_REVEAL ? &req->reveal->want
                                                                                        : NULL;
    Berthier__V1__Want *want = wantp ? *wantp : NULL;
    if (wantp) *wantp = NULL;
    size_t idlen = strlen(gid);
    size_t blen = protobuf_c_message_get_packed_size(body);
    size_t dl = sizeof S_DOMAIN - 1;
    size_t n = dl + 1 + idlen + 32 + 8 + 8 + 1 + 4 + blen;
    uint8_t *m = idlen > 255 || blen > UINT32_MAX ? NULL : malloc(n);
    if (!m) {
        if (wantp) *wantp = want;
        return -1;
    }
    uint8_t *p = m;
    memcpy(p, S_DOMAIN, dl), p += dl;
    *p++ = (uint8_t)idlen;
    memcpy(p, gid, idlen), p += idlen;
    memcpy(p, hh, 32), p += 32;
    s_le(p, seq, 8), p += 8;
    s_le(p, req->request_id, 8), p += 8;
    *p++ = (uint8_t)field;
    s_le(p, blen, 4), p += 4;
    protobuf_c_message_pack(body, p);
    if (wantp) *wantp = want;
    int rc = crypto_sign_detached(sig, NULL, m, n, sk) == 0 ? 0 : -1;
    free(m);
    if (rc == 0) {
        req->signature.data = sig;
        req->signature.len = 64;
    }
    return rc;
}

/* GameHeader.signature: the server's checkpoint of record 0,
 * Ed25519 over "berthier-ckpt-v1" || game_id || 0 (u64 le) || chain[0]. */
static int s_header_signature_check(const Berthier__V1__GameHeader *h, const Berthier__V1__LogHeader *lh) {
    if (h->signature.len != 64 || h->header.len > UINT32_MAX) return -1;
    uint8_t chain0[32], pre[37];
    memset(pre, 0, 32);
    pre[32] = 1;  /* HEADER */
    s_le(pre + 33, h->header.len, 4);
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, pre, sizeof pre);
    crypto_generichash_update(&st, h->header.data, h->header.len);
    crypto_generichash_final(&st, chain0, 32);
    size_t idlen = strlen(lh->game_id);
    uint8_t *m = malloc(16 + idlen + 8 + 32);
    if (!m) return -1;
    memcpy(m, "berthier-ckpt-v1", 16);
    memcpy(m + 16, lh->game_id, idlen);
    s_le(m + 16 + idlen, 0, 8);
    memcpy(m + 24 + idlen, chain0, 32);
    int rc = crypto_sign_verify_detached(h->signature.data, m, 56 + idlen, lh->server_sign_pk.data) == 0 ? 0 : -1;
    free(m);
    return rc;
}

int brt_seatsign_check_header(const Berthier__V1__GameHeader *h, const char *game_id, unsigned seat,
                              const uint8_t curve_pk[32], char *why, size_t cap) {
    uint8_t mine[32];
    if (!h || h->header_hash.len != 32) {
        snprintf(why, cap, "the daemon sent no header hash");
        return -1;
    }
    crypto_generichash(mine, 32, h->header.data, h->header.len, NULL, 0);
    if (sodium_memcmp(mine, h->header_hash.data, 32) != 0) {
        snprintf(why, cap, "the header hash the daemon sent is not the hash of the header it sent");
        return -1;
    }
    Berthier__V1__LogHeader *lh = berthier__v1__log_header__unpack(NULL, h->header.len, h->header.data);
    if (!lh) {
        snprintf(why, cap, "the header does not decode");
        return -1;
    }
    int rc = -1;
    if (!lh->game_id || strcmp(lh->game_id, game_id) != 0)
        snprintf(why, cap, "the header is of game \"%s\", not %s", lh->game_id ? lh->game_id : "", game_id);
    else if (seat >= lh->n_seats || lh->seats[seat]->key.len != 32 ||
             sodium_memcmp(lh->seats[seat]->key.data, curve_pk, 32) != 0)
        snprintf(why, cap, "the header does not bind this client's key to seat %u of game %s", seat, game_id);
    else if (lh->dice_commit.len != 32)
        snprintf(why, cap, "the header holds no 32-byte dice commitment");
    else if (lh->server_sign_pk.len != 32)
        snprintf(why, cap, "the header holds no 32-byte server signing key");
    else if (s_header_signature_check(h, lh) != 0)
        snprintf(why, cap, "the header's signature (a checkpoint of record 0) does not verify under its server key");
    else
        rc = 0;
    berthier__v1__log_header__free_unpacked(lh, NULL);
    return rc;
}
