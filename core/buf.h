/*
 * buf.h - a growable byte buffer. Every byte up to len is written by its
 * owner; the spare capacity is never read, so nothing uninitialised is ever
 * hashed or logged.
 */
#ifndef BERTHIER_BUF_H
#define BERTHIER_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct brt_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} brt_buf;

void buf_init(brt_buf *self);
void buf_free(brt_buf *self);
void buf_reset(brt_buf *self);
/* 0 on success, -1 on allocation failure (the buffer is left as it was). */
int buf_reserve(brt_buf *self, size_t extra);
int buf_append(brt_buf *self, const void *data, size_t len);
int buf_append_str(brt_buf *self, const char *s);
int buf_printf(brt_buf *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_append_u32le(brt_buf *self, uint32_t v);
/* Append s escaped for XML text and attribute values (& < > " '); control bytes
 * other than tab and newline become '?', so the output is always well-formed. */
int buf_append_xml(brt_buf *self, const char *s);
int buf_append_u64le(brt_buf *self, uint64_t v);
/* Append a u32-le length prefix and then the bytes (the format of legal() lists). */
int buf_append_item(brt_buf *self, const void *data, size_t len);
/* Iterate a u32-le length-prefixed list: *pos starts at 0. 1 = got an item, 0 = end, -1 = corrupt. */
int buf_next_item(const brt_buf *self, size_t *pos, const uint8_t **item, size_t *len);

#endif
