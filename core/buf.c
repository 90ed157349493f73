/* buf.c - see buf.h. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(brt_buf *self) {
    self->data = NULL;
    self->len = 0;
    self->cap = 0;
}

void buf_free(brt_buf *self) {
    free(self->data);
    buf_init(self);
}

void buf_reset(brt_buf *self) { self->len = 0; }

int buf_reserve(brt_buf *self, size_t extra) {
    if (extra > SIZE_MAX - self->len) return -1;
    size_t need = self->len + extra;
    if (need <= self->cap) return 0;
    size_t cap = self->cap ? self->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) { cap = need; break; }
        cap *= 2;
    }
    uint8_t *p = realloc(self->data, cap);
    if (!p) return -1;
    self->data = p;
    self->cap = cap;
    return 0;
}

int buf_append(brt_buf *self, const void *data, size_t len) {
    if (len == 0) return 0;
    if (buf_reserve(self, len) != 0) return -1;
    memcpy(self->data + self->len, data, len);
    self->len += len;
    return 0;
}

int buf_append_str(brt_buf *self, const char *s) { return buf_append(self, s, strlen(s)); }

int buf_printf(brt_buf *self, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if (buf_reserve(self, (size_t)n + 1) != 0) return -1;
    va_start(ap, fmt);
    vsnprintf((char *)self->data + self->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    self->len += (size_t)n;
    return 0;
}

int buf_append_u32le(brt_buf *self, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return buf_append(self, b, 4);
}

int buf_append_u64le(brt_buf *self, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    return buf_append(self, b, 8);
}

int buf_append_item(brt_buf *self, const void *data, size_t len) {
    if (len > UINT32_MAX) return -1;
    if (buf_reserve(self, 4 + len) != 0) return -1;
    buf_append_u32le(self, (uint32_t)len);
    return buf_append(self, data, len);
}

int buf_next_item(const brt_buf *self, size_t *pos, const uint8_t **item, size_t *len) {
    if (*pos == self->len) return 0;
    if (self->len - *pos < 4) return -1;
    const uint8_t *p = self->data + *pos;
    uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (self->len - *pos - 4 < n) return -1;
    *item = p + 4;
    *len = n;
    *pos += 4 + (size_t)n;
    return 1;
}

int buf_append_xml(brt_buf *self, const char *s) {
    int rc = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && rc == 0; p++) {
        switch (*p) {
        case '&': rc = buf_append_str(self, "&amp;"); break;
        case '<': rc = buf_append_str(self, "&lt;"); break;
        case '>': rc = buf_append_str(self, "&gt;"); break;
        case '"': rc = buf_append_str(self, "&quot;"); break;
        case '\'': rc = buf_append_str(self, "&#39;"); break;
        default: {
            char c = (*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f ? '?' : (char)*p;
            rc = buf_append(self, &c, 1);
        }
        }
    }
    return rc;
}
