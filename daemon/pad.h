/*
 * pad.h - length hiding for sealed notices (docs/protocol.md P8).
 *
 * A sealed notice's plaintext is padded (Notice.padding, zero bytes) to a size
 * class, so that its length, which an outsider reads off the ciphertext, does
 * not depend on what it says (which hidden unit moved, which card was drawn).
 * The classes are the powers of two from PAD_MIN_CLASS bytes: 512, 1024, 2048,
 * ... A notice of L bytes gets the smallest class that can hold L plus its
 * padding field; the sealed body is then 40 bytes more (24-byte nonce, 16-byte
 * MAC). What still shows is the class: a notice that crosses a class boundary
 * (a long combat against a short move) is told apart from one that does not.
 */
#ifndef BERTHIERD_PAD_H
#define BERTHIERD_PAD_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

#define PAD_MIN_CLASS 512u

/* 1 if `len` is a size class. */
int pad_is_class(size_t len);

/* Pack `n` (its padding field must be empty) with the padding that brings it
 * to its size class. Returns a malloc'd buffer of *len bytes (a class), or
 * NULL when out of memory. `n` is left as it was. */
uint8_t *pad_notice_pack(Berthier__V1__Notice *n, size_t *len);

#endif
