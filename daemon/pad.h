/*
 * pad.h - length hiding (docs/protocol.md P8 "Padding").
 *
 * A sealed notice's plaintext (Notice.padding, field 15) and a reply to a
 * request about a game (Reply.padding, field 110) are padded with zero bytes to
 * a size class, so that their length, which an outsider reads off the
 * ciphertext (the notice's secretbox, the CURVE message of the reply), does not
 * depend on what they say: which hidden unit moved, which card was drawn.
 *
 * The classes are the powers of two from PAD_MIN_CLASS bytes: 512, 1024, 2048,
 * ... A message of L bytes gets the smallest class that holds L plus its
 * padding field. Where a limit is given (a reply may not exceed max-message),
 * a message whose class would pass it is padded to the limit itself (one byte
 * less in the rare case where the room left is a varint gap), or left as it is
 * if even that cannot hold it. What still shows is the class: a
 * message that crosses a class boundary (a long combat against a short move)
 * is told apart from one that does not.
 */
#ifndef BERTHIERD_PAD_H
#define BERTHIERD_PAD_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

#define PAD_MIN_CLASS 512u

/* 1 if `len` is a size class. */
int pad_is_class(size_t len);

/* The size `m` is padded to, given its unpadded size `base`, the tag length of
 * its padding field and `limit` (0 = none); `*fill` gets the padding length (0:
 * none). */
size_t pad_target(size_t base, size_t tag_len, size_t limit, size_t *fill);

/* Pack `m`, whose padding field is `pad` (empty; tag of `tag_len` bytes, the
 * message's highest field number so that it comes last), with the padding
 * pad_target gives. A malloc'd buffer of *len bytes, or NULL when out of
 * memory. `pad` is left empty. */
uint8_t *pad_pack(ProtobufCMessage *m, ProtobufCBinaryData *pad, size_t tag_len, size_t limit, size_t *len);

/* A Notice, padded to its class (no limit). */
uint8_t *pad_notice_pack(Berthier__V1__Notice *n, size_t *len);

#endif
