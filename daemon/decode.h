/*
 * decode.h - the request decoder: one frame in, a Request out, or the code
 * and sentence of its refusal. A frame over the size limit is CODE_TOO_LARGE;
 * anything that is not the one canonical encoding of a berthier.v1.Request
 * (garbage, unknown fields at any depth, non-minimal varints, fields out of
 * order, default values written out) is CODE_MALFORMED, and so is a frame that
 * would need more memory to decode than allowed (at most 8 times the frame plus
 * 64 KiB). A refused frame never reaches a game.
 */
#ifndef BERTHIERD_DECODE_H
#define BERTHIERD_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

/* 0 with *out set (free with berthier__v1__request__free_unpacked(*out, NULL)),
 * or -1 with *code and *why (a static sentence) set. */
int decode_request(const uint8_t *frame, size_t len, size_t max_message, Berthier__V1__Request **out, int *code,
                   const char **why);

/* The request id of a frame without decoding it: the value of a varint field 1
 * at the very start (where a canonical Request has it), else 0. For replies
 * made before decoding (rate limit, revoked key); the rest is not looked at. */
uint64_t decode_peek_request_id(const uint8_t *frame, size_t len);

/* The code of a Reply the daemon packed (field 2 after the optional field 1;
 * 0 when absent), -1 if it cannot be read. For counting malformed frames. */
int decode_peek_reply_code(const uint8_t *reply, size_t len);

#endif
