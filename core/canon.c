/* canon.c - canonical protobuf decoding (see canon.h). */
#include "canon.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t used;
    size_t cap;
    int denied;   /* an allocation was refused for the cap */
} s_budget;

/* Every block carries its size in front so that free can give the budget back. */
static void *s_alloc(void *ctx, size_t size) {
    s_budget *b = ctx;
    if (size > b->cap || b->used > b->cap - size) {
        b->denied = 1;
        return NULL;
    }
    size_t *p = malloc(sizeof(size_t) * 2 + size);
    if (!p) return NULL;
    p[0] = size;
    b->used += size;
    return p + 2;
}

static void s_free(void *ctx, void *ptr) {
    if (!ptr) return;
    s_budget *b = ctx;
    size_t *p = (size_t *)ptr - 2;
    b->used -= p[0];
    free(p);
}

int canon_has_unknown(const ProtobufCMessage *msg) {
    if (!msg) return 0;
    if (msg->n_unknown_fields) return 1;
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
        const char *base = (const char *)msg;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            uint32_t which = *(const uint32_t *)(base + f->quantifier_offset);
            if (which != f->id) continue;
        }
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            ProtobufCMessage *const *arr = *(ProtobufCMessage *const *const *)(base + f->offset);
            for (size_t k = 0; k < n; k++)
                if (canon_has_unknown(arr[k])) return 1;
        } else {
            const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)(base + f->offset);
            if (canon_has_unknown(sub)) return 1;
        }
    }
    return 0;
}

uint8_t *canon_pack(const ProtobufCMessage *msg, size_t *len) {
    size_t n = protobuf_c_message_get_packed_size(msg);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return NULL;
    *len = protobuf_c_message_pack(msg, buf);
    return buf;
}

int canon_unpack(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len,
                 size_t alloc_cap, ProtobufCMessage **out) {
    *out = NULL;
    s_budget budget = {0, alloc_cap ? alloc_cap : CANON_DEFAULT_ALLOC_CAP, 0};
    ProtobufCAllocator a = {s_alloc, s_free, &budget};
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, &a, len, data);
    if (!m) return budget.denied ? CANON_TOO_BIG : CANON_UNDECODABLE;
    int rc = CANON_OK;
    if (canon_has_unknown(m)) {
        rc = CANON_UNKNOWN_FIELD;
    } else {
        size_t n = protobuf_c_message_get_packed_size(m);
        if (n != len) {
            rc = CANON_NOT_CANONICAL;
        } else {
            uint8_t *again = malloc(n ? n : 1);
            if (!again) {
                rc = CANON_TOO_BIG;
            } else {
                protobuf_c_message_pack(m, again);
                if (n && memcmp(again, data, n) != 0) rc = CANON_NOT_CANONICAL;
                free(again);
            }
        }
    }
    if (rc != CANON_OK) {
        protobuf_c_message_free_unpacked(m, &a);
        return rc;
    }
    /* Hand back a copy owned by the default allocator so callers free it plainly. */
    size_t n = len;
    ProtobufCMessage *copy = protobuf_c_message_unpack(desc, NULL, n, data);
    protobuf_c_message_free_unpacked(m, &a);
    if (!copy) return CANON_TOO_BIG;
    *out = copy;
    return CANON_OK;
}

const char *canon_strerror(int rc) {
    switch (rc) {
    case CANON_OK: return "canonical";
    case CANON_UNDECODABLE: return "the bytes are not a valid protobuf message of the expected type";
    case CANON_UNKNOWN_FIELD: return "the message carries a field this protocol version does not define";
    case CANON_NOT_CANONICAL: return "the message is not in canonical encoding (re-encoding gives other bytes)";
    case CANON_TOO_BIG: return "decoding the message would allocate more memory than allowed";
    default: return "unknown decoding error";
    }
}
