/* pad.c - messages padded to size classes (see pad.h). */
#include "pad.h"

#include <stdlib.h>

#include "canon.h"

int pad_is_class(size_t len) { return len >= PAD_MIN_CLASS && (len & (len - 1)) == 0; }

static size_t s_varint_len(size_t v) {
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* The padding length p such that the field (tag, varint p, p bytes) takes
 * exactly `room` bytes; 0 when no p does (room <= tag + 1, or a varint
 * boundary: with a 1-byte tag 130 bytes cannot be filled, 129 and 131 can).
 * p = 0 is never written: an empty bytes field is left out of a canonical
 * message. */
static size_t s_fill(size_t room, size_t tag_len) {
    for (size_t v = 1; v <= 10; v++) {
        if (room < tag_len + v + 1) break;
        size_t p = room - tag_len - v;
        if (s_varint_len(p) == v) return p;
    }
    return 0;
}

size_t pad_target(size_t base, size_t tag_len, size_t limit, size_t *fill) {
    *fill = 0;
    for (size_t cls = PAD_MIN_CLASS; !limit || cls <= limit; cls *= 2) {
        if (cls == base) return cls;
        if (cls > base && (*fill = s_fill(cls - base, tag_len)) != 0) return cls;
        if (cls > SIZE_MAX / 2) return base;
    }
    /* over the limit: the limit itself, when it holds the message, or one byte
     * less where the room left is a varint gap (a single length: tag + 129, ...) */
    if (limit == base) return base;
    if (limit > base && (*fill = s_fill(limit - base, tag_len)) != 0) return limit;
    if (limit - 1 > base && (*fill = s_fill(limit - 1 - base, tag_len)) != 0) return limit - 1;
    return base;
}

uint8_t *pad_pack(ProtobufCMessage *m, ProtobufCBinaryData *pad, size_t tag_len, size_t limit, size_t *len) {
    pad->data = NULL;
    pad->len = 0;
    size_t base = protobuf_c_message_get_packed_size(m), p;
    size_t target = pad_target(base, tag_len, limit, &p);
    uint8_t *zeros = NULL;
    if (p) {
        zeros = calloc(1, p);
        if (!zeros) return NULL;
        pad->data = zeros;
        pad->len = p;
    }
    uint8_t *out = canon_pack(m, len);
    pad->data = NULL;
    pad->len = 0;
    free(zeros);
    if (out && *len != target) {   /* the padding field is not last: a broken invariant */
        free(out);
        return NULL;
    }
    return out;
}

uint8_t *pad_notice_pack(Berthier__V1__Notice *n, size_t *len) {
    return pad_pack(&n->base, &n->padding, 1, 0, len);   /* field 15: tag 0x7a */
}
