/*
 * canon.h - canonical protobuf decoding.
 *
 * Berthier logs the exact bytes a message arrived as, so it only accepts
 * messages whose bytes are the one canonical encoding of what they say:
 * decoding and re-encoding must give back the same bytes, and no field may be
 * unknown (protobuf-c keeps unknown fields and, for some malformed inputs such
 * as an overlong field number 0, re-encodes bytes that it cannot parse).
 * Allocation is capped per message so that a small message cannot make the
 * decoder allocate a lot of memory.
 */
#ifndef BERTHIER_CANON_H
#define BERTHIER_CANON_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

#define CANON_DEFAULT_ALLOC_CAP (8u << 20)

enum { CANON_OK = 0, CANON_UNDECODABLE = -1, CANON_UNKNOWN_FIELD = -2, CANON_NOT_CANONICAL = -3,
       CANON_TOO_BIG = -4 };

/* Decode `data` as `desc`, requiring a canonical encoding. On success *out is
 * the message (free with protobuf_c_message_free_unpacked(*out, NULL)).
 * alloc_cap: at most this many bytes allocated while decoding (0 = default). */
int canon_unpack(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len,
                 size_t alloc_cap, ProtobufCMessage **out);

/* canon_unpack() into a scratch arena the caller owns (on its stack, say): the same checks,
 * budget and answers, without a copy, and without the heap for a message whose blocks fit in
 * CANON_ARENA_BYTES (larger ones take theirs from the heap). On CANON_OK *out lives in the
 * arena until canon_arena_release(a, *out) or the arena's next use. */
#define CANON_ARENA_BYTES 16384u
typedef struct canon_arena {
    size_t used, cap;      /* the budget: bytes asked for, at most cap */
    int denied;            /* an allocation was refused for the budget */
    size_t top;            /* bytes of mem handed out */
    size_t heap;           /* blocks taken from the heap */
    ProtobufCAllocator allocator;
    _Alignas(16) uint8_t mem[CANON_ARENA_BYTES];
} canon_arena;
int canon_unpack_arena(canon_arena *a, const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len,
                       size_t alloc_cap, ProtobufCMessage **out);
void canon_arena_release(canon_arena *a, ProtobufCMessage *m);

/* A sentence for a canon_unpack error code. */
const char *canon_strerror(int rc);

/* 1 if the message or any message inside it carries unknown fields. */
int canon_has_unknown(const ProtobufCMessage *msg);

/* Pack into a malloc'd buffer (caller frees). NULL on allocation failure. */
uint8_t *canon_pack(const ProtobufCMessage *msg, size_t *len);

#endif
