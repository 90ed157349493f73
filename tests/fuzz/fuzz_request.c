/*
 * fuzz_request.c - the daemon's request decoder: any bytes either decode as a
 * canonical Request (and then encode back to exactly those bytes) or are
 * refused; nothing crashes, leaks or allocates past the cap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "berthier/v1/berthier.pb-c.h"
#include "canon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ProtobufCMessage *m = NULL;
    int rc = canon_unpack(&berthier__v1__request__descriptor, data, size, 64 * 1024, &m);
    if (rc != CANON_OK) {
        if (m) abort();
        return 0;
    }
    size_t n;
    uint8_t *again = canon_pack(m, &n);
    if (!again || n != size || (n && memcmp(again, data, n) != 0)) abort();
    if (canon_has_unknown(m)) abort();
    free(again);
    protobuf_c_message_free_unpacked(m, NULL);
    return 0;
}
