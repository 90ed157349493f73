/*
 * dedupe.h - replies remembered for retries: (client key, request id) ->
 * (digest of the request bytes, reply bytes), bounded, least recently used
 * out first. A retry with the same bytes gets the same reply; the same id
 * with other bytes is CODE_REQUEST_ID_REUSED.
 */
#ifndef BERTHIERD_DEDUPE_H
#define BERTHIERD_DEDUPE_H

#include <stddef.h>
#include <stdint.h>

#define DEDUPE_DIGEST 16

typedef struct bd_dedupe bd_dedupe;

bd_dedupe *dedupe_new(size_t capacity);
void dedupe_destroy(bd_dedupe **pself);

void dedupe_digest(const uint8_t *request, size_t len, uint8_t out[DEDUPE_DIGEST]);

/* 1 = found (digest and reply set, pointers valid until the next put), 0 = not found. */
int dedupe_get(bd_dedupe *self, const uint8_t key[32], uint64_t request_id,
               const uint8_t **digest, const uint8_t **reply, size_t *reply_len);
/* Remember (replaces an entry with the same key and id). 0 / -1 (out of memory). */
int dedupe_put(bd_dedupe *self, const uint8_t key[32], uint64_t request_id,
               const uint8_t digest[DEDUPE_DIGEST], const uint8_t *reply, size_t reply_len);
size_t dedupe_count(const bd_dedupe *self);

#endif
