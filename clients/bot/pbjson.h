/*
 * pbjson.h - any protobuf-c message as one line of JSON, from its descriptor
 * alone (so that any ruleset's View or Event message can be shown to an
 * external bot without code written for it; docs/bots.md "JSON").
 *
 * The mapping:
 *   message           an object; keys are the fields' names in the .proto
 *                     (snake_case), in the order of the descriptor
 *   proto3 scalars    always present, defaults included
 *   optional fields   present only when set (has_ flag, non-NULL pointer)
 *   oneof members     only the member that is set
 *   sub-messages      an object, or absent when not set
 *   repeated          an array (possibly empty)
 *   integers          JSON numbers in decimal, 64-bit ones too
 *   bool              true / false
 *   enum              the value's name as a string ("PHASE_MOVE"); a value the
 *                     descriptor does not name as a number
 *   float, double     a number (%.17g); NaN and infinities as null
 *   string            a JSON string: '"', '\' and control characters escaped
 *                     (\n \r \t \b \f, others \u00XX), DEL as \u007f, bytes
 *                     that are not valid UTF-8 replaced by \ufffd
 *   bytes             a string of lowercase hex digits, two per byte
 * No newline is ever written: the result is a single line.
 */
#ifndef BERTHIER_PBJSON_H
#define BERTHIER_PBJSON_H

#include <stddef.h>
#include <protobuf-c/protobuf-c.h>

/* The JSON text of msg (NUL-terminated, malloc'd; the caller frees it), or
 * NULL when out of memory or msg is NULL. *len (if given) gets its length. */
char *pbjson_encode(const ProtobufCMessage *msg, size_t *len);

/* Unpack bytes as a message of descriptor desc and encode it; NULL if they do
 * not parse. */
char *pbjson_encode_bytes(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t n,
                          size_t *len);

/* A JSON string literal of s (quotes included), escaped as above. */
char *pbjson_string(const char *s, size_t *len);

#endif
