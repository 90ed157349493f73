/*
 * fuzz_logreader.c - the log reader and replay over arbitrary file images:
 * the reader stops at the first bad record with a reason, and any header it
 * accepts can be replayed without crashing, whatever the inputs say.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "evlog.h"
#include "game.h"
#include "memlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int init;
    if (!init) {
        if (sodium_init() < 0) abort();
        init = 1;
    }
    evlog_reader *r = evlog_reader_from_memory(data, size);
    if (!r) return 0;
    memlog live;
    memlog_init(&live, "fuzz", 1);
    evlog_record rec;
    int rc;
    uint64_t count = 0;
    brt_sink s = memlog_sink(&live);
    while ((rc = evlog_reader_next(r, &rec)) == 1) {
        if (rec.index < count) abort();
        /* Re-chain into a memory log so the records can be replayed; the reader
         * does not return the SYNC records that close each batch. */
        while (count < rec.index) {
            if (s.record(s.ctx, EVLOG_SYNC, NULL, 0) != 0) abort();
            count++;
        }
        count++;
        if (s.record(s.ctx, rec.kind, rec.payload, rec.len) != 0) break;
        if (memcmp(live.head, rec.chain, 32) != 0) abort(); /* the reader checked the same chain */
    }
    const evlog_scan *scan = evlog_reader_scan(r);
    if (rc < 0 && scan->reason[0] == '\0') abort();
    if (live.n > 0 && live.recs[0].kind == EVLOG_HEADER) {
        uint8_t hash[32];
        char why[200];
        (void)memlog_replay(&live, NULL, hash, why, sizeof why);
    }
    memlog_free(&live);
    evlog_reader_destroy(&r);
    return 0;
}
