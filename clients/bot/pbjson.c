/*
 * pbjson.c - protobuf-c messages as JSON, walking the descriptors (pbjson.h).
 */
#include "pbjson.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct s_out {
    char *data;
    size_t len, cap;
    int failed;
} s_out;

static void s_put(s_out *o, const char *s, size_t n) {
    if (o->failed) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + n + 1) cap *= 2;
        char *d = realloc(o->data, cap);
        if (!d) {
            o->failed = 1;
            return;
        }
        o->data = d;
        o->cap = cap;
    }
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = '\0';
}

static void s_puts(s_out *o, const char *s) { s_put(o, s, strlen(s)); }

/* Length of the valid UTF-8 sequence at p (up to end), 0 if not valid. */
static size_t s_utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) n = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4) n = 4, cp = c & 0x07;
    else return 0;
    if ((size_t)(end - p) < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0; /* overlong */
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;                                          /* surrogate */
    return n;
}

static void s_string(s_out *o, const char *s) {
    s_put(o, "\"", 1);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    const unsigned char *end = p + strlen((const char *)p);
    while (p < end) {
        unsigned c = *p;
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            s_put(o, esc, 2);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            const char *short_form = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                                   : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
            if (short_form) s_puts(o, short_form);
            else {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                s_puts(o, esc);
            }
            p++;
        } else {
            size_t n = s_utf8_len(p, end);
            if (n == 0) {
                s_puts(o, "\\ufffd");
                p++;
            } else {
                s_put(o, (const char *)p, n);
                p += n;
            }
        }
    }
    s_put(o, "\"", 1);
}

static void s_message(s_out *o, const ProtobufCMessage *m, int depth);

/* One value of field f stored at p. */
static void s_value(s_out *o, const ProtobufCFieldDescriptor *f, const void *p, int depth) {
    char num[64];
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        snprintf(num, sizeof num, "%" PRId32, *(const int32_t *)p);
        s_puts(o, num);
        break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        snprintf(num, sizeof num, "%" PRIu32, *(const uint32_t *)p);
        s_puts(o, num);
        break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        snprintf(num, sizeof num, "%" PRId64, *(const int64_t *)p);
        s_puts(o, num);
        break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        snprintf(num, sizeof num, "%" PRIu64, *(const uint64_t *)p);
        s_puts(o, num);
        break;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE: {
        double d = f->type == PROTOBUF_C_TYPE_FLOAT ? (double)*(const float *)p : *(const double *)p;
        if (isfinite(d)) {
            snprintf(num, sizeof num, "%.17g", d);
            s_puts(o, num);
        } else {
            s_puts(o, "null");
        }
        break;
    }
    case PROTOBUF_C_TYPE_BOOL:
        s_puts(o, *(const protobuf_c_boolean *)p ? "true" : "false");
        break;
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        const ProtobufCEnumValue *ev =
            f->descriptor ? protobuf_c_enum_descriptor_get_value(f->descriptor, v) : NULL;
        if (ev) {
            s_string(o, ev->name);
        } else {
            snprintf(num, sizeof num, "%d", v);
            s_puts(o, num);
        }
        break;
    }
    case PROTOBUF_C_TYPE_STRING:
        s_string(o, *(char *const *)p);
        break;
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = p;
        s_put(o, "\"", 1);
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < b->len; i++) {
            char two[2] = {hex[b->data[i] >> 4], hex[b->data[i] & 15]};
            s_put(o, two, 2);
        }
        s_put(o, "\"", 1);
        break;
    }
    case PROTOBUF_C_TYPE_MESSAGE:
        s_message(o, *(ProtobufCMessage *const *)p, depth + 1);
        break;
    }
}

static size_t s_elem_size(ProtobufCType t) {
    switch (t) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        return 8;
    case PROTOBUF_C_TYPE_DOUBLE:
        return sizeof(double);
    case PROTOBUF_C_TYPE_FLOAT:
        return sizeof(float);
    case PROTOBUF_C_TYPE_BOOL:
        return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_ENUM:
        return sizeof(int);
    case PROTOBUF_C_TYPE_STRING:
        return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
        return sizeof(ProtobufCMessage *);
    default:
        return 4;
    }
}

/* Whether a non-repeated field is there to be written. */
static int s_present(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f) {
    const char *base = (const char *)m;
    const void *p = base + f->offset;
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        return *(const uint32_t *)(base + f->quantifier_offset) == f->id;
    if (f->type == PROTOBUF_C_TYPE_MESSAGE) return *(ProtobufCMessage *const *)p != NULL;
    if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
        if (f->type == PROTOBUF_C_TYPE_STRING) return *(char *const *)p != NULL;
        return *(const protobuf_c_boolean *)(base + f->quantifier_offset) != 0;
    }
    return 1; /* required, or a proto3 field without presence */
}

static void s_message(s_out *o, const ProtobufCMessage *m, int depth) {
    if (!m || !m->descriptor || depth > 64) {
        s_puts(o, "null");
        return;
    }
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    s_put(o, "{", 1);
    int first = 1;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->label != PROTOBUF_C_LABEL_REPEATED && !s_present(m, f)) continue;
        if (!first) s_put(o, ",", 1);
        first = 0;
        s_string(o, f->name);
        s_put(o, ":", 1);
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            const char *arr = *(char *const *)(base + f->offset);
            size_t sz = s_elem_size(f->type);
            s_put(o, "[", 1);
            for (size_t k = 0; k < n && arr; k++) {
                if (k) s_put(o, ",", 1);
                s_value(o, f, arr + k * sz, depth);
            }
            s_put(o, "]", 1);
        } else {
            s_value(o, f, base + f->offset, depth);
        }
    }
    s_put(o, "}", 1);
}

static char *s_finish(s_out *o, size_t *len) {
    if (o->failed || !o->data) {
        free(o->data);
        return NULL;
    }
    if (len) *len = o->len;
    return o->data;
}

char *pbjson_encode(const ProtobufCMessage *msg, size_t *len) {
    if (!msg) return NULL;
    s_out o = {NULL, 0, 0, 0};
    s_message(&o, msg, 0);
    return s_finish(&o, len);
}

char *pbjson_encode_bytes(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t n,
                          size_t *len) {
    if (!desc) return NULL;
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, NULL, n, data);
    if (!m) return NULL;
    char *out = pbjson_encode(m, len);
    protobuf_c_message_free_unpacked(m, NULL);
    return out;
}

char *pbjson_string(const char *s, size_t *len) {
    s_out o = {NULL, 0, 0, 0};
    s_string(&o, s);
    return s_finish(&o, len);
}
