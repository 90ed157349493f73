/* decode.c - the request decoder (see decode.h). The canonical check itself
 * is the core's (core/canon.c), shared with the log reader. */
#include "decode.h"

#include "canon.h"

int decode_request(const uint8_t *frame, size_t len, size_t max_message, Berthier__V1__Request **out, int *code,
                   const char **why) {
    *out = NULL;
    if (len > max_message) {
        *code = BERTHIER__V1__CODE__CODE_TOO_LARGE;
        *why = "the request is larger than the daemon's message size limit";
        return -1;
    }
    ProtobufCMessage *m = NULL;
    int rc = canon_unpack(&berthier__v1__request__descriptor, frame, len, 8 * len + (64u << 10), &m);
    if (rc != CANON_OK) {
        /* TOO_LARGE means one thing: the frame is over the limit. A frame under it
         * that would need more memory than allowed to decode is built to amplify,
         * not a request any client needs to send: MALFORMED like other bad bytes. */
        *code = BERTHIER__V1__CODE__CODE_MALFORMED;
        *why = canon_strerror(rc);
        return -1;
    }
    *out = (Berthier__V1__Request *)m;
    return 0;
}

uint64_t decode_peek_request_id(const uint8_t *frame, size_t len) {
    if (len < 2 || frame[0] != 0x08) return 0;   /* field 1, wire type 0 */
    uint64_t v = 0;
    for (size_t i = 1; i < len && i <= 10; i++) {
        v |= (uint64_t)(frame[i] & 0x7f) << (7 * (i - 1));
        if (!(frame[i] & 0x80)) return v;
    }
    return 0;
}

static int s_varint(const uint8_t *p, size_t len, size_t *off, uint64_t *v) {
    *v = 0;
    for (int i = 0; i < 10 && *off < len; i++) {
        uint8_t b = p[(*off)++];
        *v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) return 0;
    }
    return -1;
}

int decode_peek_reply_code(const uint8_t *reply, size_t len) {
    size_t off = 0;
    uint64_t v;
    if (off < len && reply[off] == 0x08) {   /* request_id = 1 */
        off++;
        if (s_varint(reply, len, &off, &v) != 0) return -1;
    }
    if (off < len && reply[off] == 0x10) {   /* code = 2 */
        off++;
        if (s_varint(reply, len, &off, &v) != 0 || v > 0x7fffffff) return -1;
        return (int)v;
    }
    return 0;
}
