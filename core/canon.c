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

/* The checks after a decode: no unknown field, and re-encoding gives the same bytes. */
static int s_check(const ProtobufCMessage *m, const uint8_t *data, size_t len) {
    if (canon_has_unknown(m)) return CANON_UNKNOWN_FIELD;
    size_t n = protobuf_c_message_get_packed_size(m);
    if (n != len) return CANON_NOT_CANONICAL;
    uint8_t stackbuf[4096];
    uint8_t *again = n <= sizeof stackbuf ? stackbuf : malloc(n ? n : 1);
    if (!again) return CANON_TOO_BIG;
    protobuf_c_message_pack(m, again);
    int rc = n && memcmp(again, data, n) != 0 ? CANON_NOT_CANONICAL : CANON_OK;
    if (again != stackbuf) free(again);
    return rc;
}

int canon_unpack(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len,
                 size_t alloc_cap, ProtobufCMessage **out) {
    *out = NULL;
    s_budget budget = {0, alloc_cap ? alloc_cap : CANON_DEFAULT_ALLOC_CAP, 0};
    ProtobufCAllocator a = {s_alloc, s_free, &budget};
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, &a, len, data);
    if (!m) return budget.denied ? CANON_TOO_BIG : CANON_UNDECODABLE;
    int rc = s_check(m, data, len);
    if (rc != CANON_OK) {
        protobuf_c_message_free_unpacked(m, &a);
        return rc;
    }
    /* Hand back a copy owned by the default allocator so callers free it plainly. */
    ProtobufCMessage *copy = protobuf_c_message_unpack(desc, NULL, len, data);
    protobuf_c_message_free_unpacked(m, &a);
    if (!copy) return CANON_TOO_BIG;
    *out = copy;
    return CANON_OK;
}

/* Each arena block is preceded by {size, 1 if from the heap}; the budget counts sizes as
 * s_alloc does, so both decoders accept and refuse the same messages. */
static void *s_arena_alloc(void *ctx, size_t size) {
    canon_arena *a = ctx;
    if (size > a->cap || a->used > a->cap - size) {
        a->denied = 1;
        return NULL;
    }
    size_t need = sizeof(size_t) * 2 + ((size + 15) & ~(size_t)15);
    size_t *p;
    if (need <= sizeof a->mem - a->top) {
        p = (size_t *)(void *)(a->mem + a->top);
        a->top += need;
        p[1] = 0;
    } else {
        p = malloc(sizeof(size_t) * 2 + size);
        if (!p) return NULL;
        p[1] = 1;
        a->heap++;
    }
    p[0] = size;
    a->used += size;
    return p + 2;
}

static void s_arena_free(void *ctx, void *ptr) {
    if (!ptr) return;
    canon_arena *a = ctx;
    size_t *p = (size_t *)ptr - 2;
    a->used -= p[0];
    if (p[1]) {
        a->heap--;
        free(p);
    }
}

int canon_unpack_arena(canon_arena *a, const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len,
                       size_t alloc_cap, ProtobufCMessage **out) {
    a->used = a->top = a->heap = 0;
    a->cap = alloc_cap ? alloc_cap : CANON_DEFAULT_ALLOC_CAP;
    a->denied = 0;
    a->allocator = (ProtobufCAllocator){s_arena_alloc, s_arena_free, a};
    *out = NULL;
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, &a->allocator, len, data);
    if (!m) return a->denied ? CANON_TOO_BIG : CANON_UNDECODABLE;
    int rc = s_check(m, data, len);
    if (rc != CANON_OK) {
        protobuf_c_message_free_unpacked(m, &a->allocator);
        return rc;
    }
    *out = m;
    return CANON_OK;
}

void canon_arena_release(canon_arena *a, ProtobufCMessage *m) {
    if (m && a->heap) protobuf_c_message_free_unpacked(m, &a->allocator); /* the arena itself needs no freeing */
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
