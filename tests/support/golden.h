/*
 * golden.h - golden files: bytes a test produced, compared with a file committed under the
 * source tree (tests/golden/..., docs/img/...), or written there when BERTHIER_UPDATE_GOLDEN=1
 * (after a deliberate change, to be looked at in the diff).
 */
#ifndef BERTHIER_TEST_GOLDEN_H
#define BERTHIER_TEST_GOLDEN_H

#include <stddef.h>

/* Compare data[0..len) with SRC/REL byte for byte (or write it there). 0 when they are the same
 * or the file was written; -1 with a sentence in why: the file missing or unwritable, or the
 * first byte offset where they differ. */
int golden_check(const char *src, const char *rel, const char *data, size_t len, char *why, size_t cap);

#endif
