/* pad.c - sealed notices padded to size classes (see pad.h). */
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

/* The padding length p such that the field (tag 1 byte, varint p, p bytes)
 * takes exactly `room` bytes; 0 when no p does (room 1, or a varint boundary:
 * 130 bytes cannot be filled, 129 and 131 can). p = 0 is never written: an
 * empty bytes field is left out of a canonical message. */
static size_t s_fill(size_t room) {
    for (size_t v = 1; v <= 10; v++) {
        if (room < 1 + v + 1) break;
        size_t p = room - 1 - v;
        if (s_varint_len(p) == v) return p;
    }
    return 0;
}

uint8_t *pad_notice_pack(Berthier__V1__Notice *n, size_t *len) {
    n->padding.data = NULL;
    n->padding.len = 0;
    size_t base = protobuf_c_message_get_packed_size(&n->base);
    size_t cls = PAD_MIN_CLASS, p = 0;
    for (;;) {
        if (cls >= base) {
            if (cls == base) break;
            p = s_fill(cls - base);
            if (p) break;
        }
        if (cls > SIZE_MAX / 2) return NULL;
        cls *= 2;
    }
    uint8_t *zeros = NULL;
    if (p) {
        zeros = calloc(1, p);
        if (!zeros) return NULL;
        n->padding.data = zeros;
        n->padding.len = p;
    }
    uint8_t *out = canon_pack(&n->base, len);
    n->padding.data = NULL;
    n->padding.len = 0;
    free(zeros);
    if (out && *len != cls) {
        free(out);
        return NULL;
    }
    return out;
}
