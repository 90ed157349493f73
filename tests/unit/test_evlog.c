/*
 * test_evlog.c - the event log: format, chain, checkpoints, recovery of torn
 * tails, refusal of damage in the middle, and fail-stop on I/O errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"

/* ---- helpers ---------------------------------------------------------------- */

static char s_dir[256];
static int s_seq;

static void s_path(char *out, size_t n) {
    snprintf(out, n, "%s/log%d.log", s_dir, s_seq++);
}

static int s_setup(void **state) {
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/test_evlog.XXXXXX");
    assert_non_null(mkdtemp(s_dir));
    evlog_io_set(NULL);
    return 0;
}

static int s_teardown(void **state) {
    (void)state;
    evlog_io_set(NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static uint8_t *s_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return d;
}

static void s_spit(const char *path, const uint8_t *d, size_t len) {
    unlink(path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(d, 1, len, f), len);
    fclose(f);
}

static off_t s_size(const char *path) {
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

/* A log of a HEADER and n records with varied payloads, each record synced as a
 * batch of its own (so each is followed by a SYNC record), except that records
 * from `batch_from` on (if > 0) share one last batch. offsets[i] = offset of
 * logical record i; physical record indexes count the SYNC records too. */
static void s_make_log_batches(const char *path, int n, uint64_t *offsets, int batch_from) {
    char err[200];
    uint8_t hdr[40];
    for (size_t i = 0; i < sizeof hdr; i++) hdr[i] = (uint8_t)(i * 7 + 1);
    evlog *log = evlog_create(path, hdr, sizeof hdr, err, sizeof err);
    assert_non_null(log);
    if (offsets) offsets[0] = EVLOG_FILE_HEADER;
    uint64_t off = EVLOG_FILE_HEADER + 37 + sizeof hdr + 37;
    for (int i = 1; i <= n; i++) {
        uint8_t p[300];
        size_t len = (size_t)(i * 37) % 200 + 3;
        for (size_t j = 0; j < len; j++) p[j] = (uint8_t)(i + j * 13);
        uint8_t kind = (i % 3 == 0) ? EVLOG_DICE : (i % 3 == 1) ? EVLOG_ORDER : EVLOG_EVENT;
        assert_int_equal(evlog_append(log, kind, p, len), 0);
        if (offsets) offsets[i] = off;
        off += 37 + len;
        if (batch_from <= 0 || i < batch_from) {
            assert_int_equal(evlog_sync(log), 0);
            off += 37;
        }
    }
    if (batch_from > 0) {
        assert_int_equal(evlog_sync(log), 0);
        off += 37;
    }
    assert_int_equal((uint64_t)s_size(path), off);
    evlog_destroy(&log);
}

static void s_make_log(const char *path, int n, uint64_t *offsets) { s_make_log_batches(path, n, offsets, 0); }

/* ---- golden known-answer test ------------------------------------------------ */

/* The bytes of a log made by evlog_create(HEADER "berthier"), then ORDER 01 02 03 and
 * DICE (empty) in one sync: HEADER SYNC ORDER DICE SYNC. Computed independently with
 * Python's hashlib:
 *   prev = bytes(32)
 *   h = hashlib.blake2b(prev + bytes([kind]) + struct.pack("<I", len(p)) + p,
 *                       digest_size=32).digest()
 * and the file as b"BRTHRLOG" + struct.pack("<II", 1, 0) + records. */
static const char *s_golden_hex =
    "42525448524c4f4701000000000000000800000001626572746869657232b94d"
    "f6ad895d20aa7c8aa8968c2fe60848e34a3d3a3f5eb203f6a4182ff8be000000"
    "0021fde878f865bab4d31a1f42c3f96bd21417ff0bf505402ef8787a4fdce24f"
    "0d9e030000000301020318fc9ff5bd19e4f4378092c1077dee00ec00e57c87c9"
    "af0ffeabae5c243b1c610000000010aa25be7459d212ce8436e3e033fe49035f"
    "5093d2558d3fe6fe0db5ae3499670c0000000021907a81702898bbb6f29f4a2c"
    "2eb95141f09b2cd058a2e2738b64378b2337a67c";
static const char *s_golden_chain[5] = {
    "32b94df6ad895d20aa7c8aa8968c2fe60848e34a3d3a3f5eb203f6a4182ff8be",
    "fde878f865bab4d31a1f42c3f96bd21417ff0bf505402ef8787a4fdce24f0d9e",
    "18fc9ff5bd19e4f4378092c1077dee00ec00e57c87c9af0ffeabae5c243b1c61",
    "aa25be7459d212ce8436e3e033fe49035f5093d2558d3fe6fe0db5ae3499670c",
    "907a81702898bbb6f29f4a2c2eb95141f09b2cd058a2e2738b64378b2337a67c",
};
/* The head signed in the checkpoint known-answer test (any 32 bytes will do). */
static const char *s_ckpt_head = "c7f177885665b0060819bc5bc9828065fbf0348fb231335a0d0ae6ee8b2ab2a7";

static void s_hex(const char *hex, uint8_t *out, size_t *len) {
    size_t n = strlen(hex) / 2;
    assert_int_equal(sodium_hex2bin(out, n, hex, strlen(hex), NULL, len, NULL), 0);
}

static void test_golden(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    evlog *log = evlog_create(path, (const uint8_t *)"berthier", 8, err, sizeof err);
    assert_non_null(log);
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"\x01\x02\x03", 3), 0);
    assert_int_equal(evlog_append(log, EVLOG_DICE, NULL, 0), 0);
    assert_int_equal(evlog_count(log), 4);
    assert_true(evlog_dirty(log));
    assert_int_equal(evlog_sync(log), 0);
    assert_false(evlog_dirty(log));
    assert_int_equal(evlog_count(log), 5);
    uint8_t want[256], h[32];
    size_t wlen, hlen;
    s_hex(s_golden_hex, want, &wlen);
    s_hex(s_golden_chain[4], h, &hlen);
    assert_memory_equal(evlog_head(log), h, 32);
    evlog_destroy(&log);

    size_t len;
    uint8_t *got = s_slurp(path, &len);
    assert_int_equal(len, wlen);
    assert_int_equal(len, 212);
    assert_memory_equal(got, want, len);

    /* the reader yields the same chain */
    evlog_reader *r = evlog_reader_from_memory(got, len);
    assert_non_null(r);
    evlog_record rec;
    const int phys[3] = {0, 2, 3}; /* SYNC records are not returned */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(evlog_reader_next(r, &rec), 1);
        assert_int_equal(rec.index, (uint64_t)phys[i]);
        s_hex(s_golden_chain[phys[i]], h, &hlen);
        assert_memory_equal(rec.chain, h, 32);
    }
    assert_int_equal(rec.kind, EVLOG_DICE);
    assert_int_equal(rec.len, 0);
    assert_int_equal(evlog_reader_next(r, &rec), 0);
    const evlog_scan *sc = evlog_reader_scan(r);
    assert_int_equal(sc->records, 5);
    assert_int_equal(sc->valid_bytes, 212);
    assert_int_equal(sc->torn_tail, 0);
    assert_int_equal(sc->damaged, 0);
    evlog_reader_rewind(r);
    assert_int_equal(evlog_reader_next(r, &rec), 1);
    assert_int_equal(rec.kind, EVLOG_HEADER);
    assert_int_equal(rec.len, 8);
    assert_memory_equal(rec.payload, "berthier", 8);
    evlog_reader_destroy(&r);
    assert_null(r);
    free(got);
}

/* Ed25519 known answer: seed = 00 01 .. 1f, signature over the checkpoint message of
 * game "00112233aabbccdd", record 2, head = the golden head; computed with PyNaCl
 * (nacl.signing.SigningKey(bytes(range(32))).sign(msg).signature). */
static void test_checkpoint_known_answer(void **state) {
    (void)state;
    uint8_t seed[32], pk[32], sk[64], head[32], sig[64], want[64];
    size_t n;
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)i;
    assert_int_equal(sodium_init() < 0, 0);
    crypto_sign_seed_keypair(pk, sk, seed);
    uint8_t wpk[32];
    s_hex("03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8", wpk, &n);
    assert_memory_equal(pk, wpk, 32);
    s_hex(s_ckpt_head, head, &n);
    evlog_checkpoint_sign(sk, "00112233aabbccdd", 2, head, sig);
    s_hex("1bc41306a1fcce0d3068a0a1b265b4dead33562bc6ca7266d6fd0ba9fa694138"
          "5490920ed844b07ff64e40592efab67309a191d2a4eaf3c8be244dac26fc9b0b",
          want, &n);
    assert_memory_equal(sig, want, 64);
    assert_int_equal(evlog_checkpoint_verify(pk, "00112233aabbccdd", 2, head, sig), 0);
    assert_int_equal(evlog_checkpoint_verify(pk, "00112233aabbccde", 2, head, sig), -1);
    assert_int_equal(evlog_checkpoint_verify(pk, "00112233aabbccdd", 3, head, sig), -1);
    head[5] ^= 1;
    assert_int_equal(evlog_checkpoint_verify(pk, "00112233aabbccdd", 2, head, sig), -1);
}

/* ---- writer and reopen --------------------------------------------------------- */

static void test_create_append_reopen(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    evlog *log = evlog_create(path, (const uint8_t *)"hdr", 3, err, sizeof err);
    assert_non_null(log);
    assert_true(evlog_fd(log) >= 0);
    assert_int_equal(s_size(path), EVLOG_FILE_HEADER + 37 + 3 + 37);
    /* O_EXCL: a second create of the same path fails */
    char err2[200];
    assert_null(evlog_create(path, (const uint8_t *)"x", 1, err2, sizeof err2));
    assert_non_null(strstr(err2, "cannot create"));
    /* appends are buffered until sync */
    assert_int_equal(evlog_append(log, EVLOG_JOIN, (const uint8_t *)"a", 1), 0);
    assert_int_equal(evlog_append(log, EVLOG_STATE, (const uint8_t *)"bb", 2), 0);
    assert_int_equal(s_size(path), EVLOG_FILE_HEADER + 37 + 3 + 37);
    assert_int_equal(evlog_sync(log), 0);
    assert_int_equal(s_size(path), EVLOG_FILE_HEADER + 5 * 37 + 6);
    assert_int_equal(evlog_sync(log), 0); /* nothing to do */
    /* a second HEADER, an unknown kind or an oversize payload is refused */
    assert_int_equal(evlog_append(log, EVLOG_HEADER, (const uint8_t *)"h", 1), -1);
    assert_int_equal(evlog_append(log, 99, (const uint8_t *)"h", 1), -1);
    assert_int_equal(evlog_append(log, EVLOG_SYNC, NULL, 0), -1); /* written by evlog_sync only */
    assert_int_equal(evlog_append(log, EVLOG_EVENT, (const uint8_t *)"h", EVLOG_MAX_PAYLOAD + 1), -1);
    assert_false(evlog_poisoned(log));
    uint8_t head[32];
    memcpy(head, evlog_head(log), 32);
    evlog_destroy(&log);
    assert_null(log);

    evlog_scan scan;
    log = evlog_open(path, &scan);
    assert_non_null(log);
    assert_int_equal(scan.records, 5);
    assert_int_equal(scan.torn_tail, 0);
    assert_int_equal(scan.damaged, 0);
    assert_int_equal(evlog_count(log), 5);
    assert_memory_equal(evlog_head(log), head, 32);
    /* the file is locked while open */
    evlog_scan scan2;
    assert_null(evlog_open(path, &scan2));
    assert_non_null(strstr(scan2.reason, "lock"));
    assert_int_equal(evlog_append(log, EVLOG_END, (const uint8_t *)"end", 3), 0);
    assert_int_equal(evlog_sync(log), 0);
    evlog_destroy(&log);

    /* the reader sees every record with the right chain */
    char rerr[200];
    evlog_reader *r = evlog_reader_open(path, rerr, sizeof rerr);
    assert_non_null(r);
    evlog_record rec;
    uint8_t prev[32] = {0}, h[32];
    const uint8_t kinds[] = {EVLOG_HEADER, EVLOG_JOIN, EVLOG_STATE, EVLOG_END};
    const uint64_t phys[] = {0, 2, 3, 5}; /* SYNC records at 1, 4 and 6 are not returned */
    uint64_t next = 0;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(evlog_reader_next(r, &rec), 1);
        assert_int_equal(rec.kind, kinds[i]);
        assert_int_equal(rec.index, phys[i]);
        for (; next < rec.index; next++) { /* fold the skipped SYNC records into the chain */
            evlog_chain(prev, EVLOG_SYNC, NULL, 0, h);
            memcpy(prev, h, 32);
        }
        next = rec.index + 1;
        evlog_chain(prev, rec.kind, rec.payload, rec.len, h);
        assert_memory_equal(h, rec.chain, 32);
        memcpy(prev, h, 32);
    }
    assert_int_equal(evlog_reader_next(r, &rec), 0);
    assert_int_equal(evlog_reader_next(r, &rec), 0);
    evlog_reader_destroy(&r);
    assert_null(evlog_reader_open("/nonexistent/x.log", rerr, sizeof rerr));
    assert_non_null(strstr(rerr, "cannot open"));
}

static void test_checkpoint_record(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    uint8_t pk[32], sk[64], other_pk[32], other_sk[64];
    crypto_sign_keypair(pk, sk);
    crypto_sign_keypair(other_pk, other_sk);
    evlog *log = evlog_create(path, (const uint8_t *)"hdr", 3, err, sizeof err);
    assert_non_null(log);
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"o", 1), 0);
    uint8_t head[32];
    memcpy(head, evlog_head(log), 32);
    assert_int_equal(evlog_checkpoint(log, sk, "0123456789abcdef"), 0);
    assert_int_equal(evlog_count(log), 4);
    assert_int_equal(evlog_sync(log), 0);
    evlog_destroy(&log);

    evlog_reader *r = evlog_reader_open(path, err, sizeof err);
    assert_non_null(r);
    evlog_record rec;
    for (int i = 0; i < 3; i++) assert_int_equal(evlog_reader_next(r, &rec), 1);
    assert_int_equal(rec.kind, EVLOG_CHECKPOINT);
    Berthier__V1__LogCheckpoint *ck = berthier__v1__log_checkpoint__unpack(NULL, rec.len, rec.payload);
    assert_non_null(ck);
    assert_int_equal(ck->record, 2);
    assert_int_equal(ck->head.len, 32);
    assert_memory_equal(ck->head.data, head, 32);
    assert_int_equal(ck->signature.len, 64);
    assert_int_equal(evlog_checkpoint_verify(pk, "0123456789abcdef", ck->record, ck->head.data,
                                             ck->signature.data), 0);
    /* another key, another game, another record, a tampered signature: all fail */
    assert_int_equal(evlog_checkpoint_verify(other_pk, "0123456789abcdef", ck->record, ck->head.data,
                                             ck->signature.data), -1);
    assert_int_equal(evlog_checkpoint_verify(pk, "0123456789abcdee", ck->record, ck->head.data,
                                             ck->signature.data), -1);
    assert_int_equal(evlog_checkpoint_verify(pk, "0123456789abcdef", 0, ck->head.data,
                                             ck->signature.data), -1);
    ck->signature.data[10] ^= 0x40;
    assert_int_equal(evlog_checkpoint_verify(pk, "0123456789abcdef", ck->record, ck->head.data,
                                             ck->signature.data), -1);
    berthier__v1__log_checkpoint__free_unpacked(ck, NULL);
    evlog_reader_destroy(&r);
}

/* ---- torn tails ------------------------------------------------------------------ */

static void s_check_cut(const char *path, const uint8_t *orig, size_t newlen, uint64_t last_off,
                        int expect_torn, uint64_t records) {
    evlog_scan scan;
    evlog *log = evlog_open(path, &scan);
    assert_non_null(log);
    assert_int_equal(scan.damaged, 0);
    assert_int_equal(scan.torn_tail, expect_torn);
    assert_int_equal(scan.records, records);
    assert_int_equal(scan.valid_bytes, last_off);
    assert_int_equal(scan.file_bytes, newlen);
    assert_int_equal(s_size(path), (off_t)last_off);
    if (expect_torn) {
        assert_int_equal(scan.bad_record, records);
        assert_int_equal(scan.bad_offset, last_off);
        assert_non_null(strstr(scan.reason, "torn tail"));
    }
    /* after the cut, a new record appends and verifies (the record and its SYNC) */
    assert_int_equal(evlog_count(log), records);
    assert_int_equal(evlog_append(log, EVLOG_EVENT, (const uint8_t *)"new", 3), 0);
    assert_int_equal(evlog_sync(log), 0);
    evlog_destroy(&log);
    log = evlog_open(path, &scan);
    assert_non_null(log);
    assert_int_equal(scan.records, records + 2);
    assert_int_equal(scan.torn_tail, 0);
    evlog_destroy(&log);
    size_t len;
    uint8_t *now = s_slurp(path, &len);
    assert_int_equal(len, last_off + 37 + 3 + 37);
    assert_memory_equal(now, orig, last_off); /* the valid prefix is untouched */
    free(now);
}

/* Physical records up to the end of logical record k's batch, one record per batch. */
#define PHYS_THROUGH(k) (2 + 2 * (uint64_t)(k))

static void test_torn_tail_every_byte(void **state) {
    (void)state;
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[7];
    s_make_log(path, 5, off);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    uint64_t last = off[5]; /* the last batch: record 5 and its SYNC */
    /* cut the file at every byte position inside the last batch: at its start
     * the log is clean; anywhere after, the batch is incomplete and cut back */
    for (size_t cut = last; cut < len; cut++) {
        s_spit(path, orig, cut);
        s_check_cut(path, orig, cut, last, cut > last, PHYS_THROUGH(4));
    }
    /* zero the last batch from every byte position to its end (a write that
     * grew the file but did not reach the disk) */
    uint8_t *z = malloc(len);
    for (size_t from = last; from < len; from++) {
        memcpy(z, orig, len);
        memset(z + from, 0, len - from);
        s_spit(path, z, len);
        s_check_cut(path, orig, len, last, 1, PHYS_THROUGH(4));
    }
    /* a bit flipped anywhere in the last batch: tail damage, repaired to the
     * longest valid prefix */
    for (size_t pos = last; pos < len; pos++) {
        memcpy(z, orig, len);
        z[pos] ^= 0x04;
        s_spit(path, z, len);
        s_check_cut(path, orig, len, last, 1, PHYS_THROUGH(4));
    }
    /* garbage appended after a complete log: the bytes are cut */
    memcpy(z, orig, len);
    s_spit(path, z, len);
    FILE *f = fopen(path, "ab");
    fwrite("\x07\x00", 1, 2, f);
    fclose(f);
    s_check_cut(path, orig, len + 2, len, 1, PHYS_THROUGH(5));
    free(z);
    free(orig);
}

static void test_torn_batch_of_records(void **state) {
    (void)state;
    /* records 6, 7, 8 written by one sync that did not complete: the file grew
     * but the pages from some byte on never reached the disk (zeros) */
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[10];
    s_make_log_batches(path, 8, off, 6);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    uint8_t *z = malloc(len);
    for (size_t from = off[6]; from < len; from += 5) {
        memcpy(z, orig, len);
        memset(z + from, 0, len - from);
        s_spit(path, z, len);
        evlog_scan scan;
        evlog *log = evlog_open(path, &scan);
        assert_non_null(log);
        /* a batch is all or nothing: records 6 and 7 go even when intact */
        assert_int_equal(scan.records, PHYS_THROUGH(5));
        assert_int_equal(scan.torn_tail, 1);
        assert_int_equal(scan.damaged, 0);
        assert_int_equal(s_size(path), (off_t)off[6]);
        evlog_destroy(&log);
    }
    free(z);
    free(orig);
}

/* Simulated power loss: the writes of the last batch reach the disk in any
 * order and torn at 512-byte sectors, so any sector of the batch may be missing
 * (zero) while later ones landed. Every acknowledged batch is kept and only the
 * unsynced batch is cut. */
static void test_power_loss_reordered_sectors(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    uint64_t off[10];
    s_make_log_batches(path, 4, off, 0);
    /* a last batch of several kilobytes */
    evlog_scan scan;
    evlog *log = evlog_open(path, &scan);
    assert_non_null(log);
    uint64_t acked = scan.records;
    size_t acked_len = (size_t)s_size(path);
    for (int i = 0; i < 24; i++) {
        uint8_t p[400];
        for (size_t j = 0; j < sizeof p; j++) p[j] = (uint8_t)(i * 31 + j);
        assert_int_equal(evlog_append(log, EVLOG_EVENT, p, sizeof p - (size_t)i * 9), 0);
    }
    assert_int_equal(evlog_sync(log), 0);
    evlog_destroy(&log);
    (void)err;
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    uint8_t *img = malloc(len);
    size_t first_sector = acked_len / 512;
    size_t nsect = (len + 511) / 512;
    int cases = 0;
    for (size_t sct = first_sector; sct < nsect; sct++) {
        for (int mode = 0; mode < 3; mode++) {
            memcpy(img, orig, len);
            size_t a = sct * 512 < acked_len ? acked_len : sct * 512;
            size_t b = (sct + 1) * 512 < len ? (sct + 1) * 512 : len;
            size_t newlen = len;
            if (mode == 0) memset(img + a, 0, b - a);            /* one sector missing */
            if (mode == 1) memset(img + a, 0, len - a);          /* everything from it missing */
            if (mode == 2) { memset(img + a, 0xa5, b - a); }     /* sector torn to garbage */
            s_spit(path, img, newlen);
            log = evlog_open(path, &scan);
            assert_non_null(log);
            assert_int_equal(scan.damaged, 0);
            assert_int_equal(scan.torn_tail, 1);
            assert_int_equal(scan.records, acked);
            assert_int_equal((size_t)s_size(path), acked_len);
            /* and the log goes on */
            assert_int_equal(evlog_append(log, EVLOG_EVENT, (const uint8_t *)"after", 5), 0);
            assert_int_equal(evlog_sync(log), 0);
            evlog_destroy(&log);
            log = evlog_open(path, &scan);
            assert_non_null(log);
            assert_int_equal(scan.torn_tail, 0);
            assert_int_equal(scan.records, acked + 2);
            evlog_destroy(&log);
            cases++;
        }
    }
    assert_true(cases >= 3 * 8);
    free(img);
    free(orig);
}

/* ---- damage in the middle -------------------------------------------------------------- */

static void s_expect_damage(const char *path, uint64_t bad_record, uint64_t bad_offset,
                            uint64_t logical_before) {
    size_t before;
    uint8_t *img = s_slurp(path, &before);
    evlog_scan scan;
    evlog *log = evlog_open(path, &scan);
    if (log) fail_msg("expected damage at record %llu, got: %s", (unsigned long long)bad_record, scan.reason);
    assert_int_equal(scan.damaged, 1);
    assert_int_equal(scan.torn_tail, 0);
    assert_int_equal(scan.bad_record, bad_record);
    assert_int_equal(scan.bad_offset, bad_offset);
    char want[80];
    snprintf(want, sizeof want, "record %llu at offset %llu: ", (unsigned long long)bad_record,
             (unsigned long long)bad_offset);
    assert_non_null(strstr(scan.reason, want));
    assert_int_equal((size_t)s_size(path), before); /* nothing cut */
    /* the reader agrees */
    evlog_reader *r = evlog_reader_from_memory(img, before);
    evlog_record rec;
    int rc;
    uint64_t n = 0;
    while ((rc = evlog_reader_next(r, &rec)) == 1) n++;
    assert_int_equal(rc, -1);
    assert_int_equal(n, logical_before);
    assert_int_equal(evlog_reader_scan(r)->bad_record, bad_record);
    assert_int_equal(evlog_reader_scan(r)->damaged, 1);
    assert_int_equal(evlog_reader_next(r, &rec), -1);
    evlog_reader_destroy(&r);
    free(img);
}

static void test_bit_flip_in_middle(void **state) {
    (void)state;
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[7];
    s_make_log(path, 6, off);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    uint8_t *img = malloc(len);
    /* every byte of record 3 (physical 6: length, kind, payload, chain), two bits;
     * complete batches follow it, so it was durable: damage, refused */
    uint64_t end3 = off[4] - 37;
    for (uint64_t pos = off[3]; pos < end3; pos++) {
        for (int bit = 0; bit < 8; bit += 7) {
            memcpy(img, orig, len);
            img[pos] ^= (uint8_t)(1u << bit);
            s_spit(path, img, len);
            s_expect_damage(path, 6, off[3], 3);
        }
    }
    /* a flip in record 0 or in the file header */
    memcpy(img, orig, len);
    img[off[0] + 9] ^= 1;
    s_spit(path, img, len);
    s_expect_damage(path, 0, off[0], 0);
    for (size_t pos = 0; pos < EVLOG_FILE_HEADER; pos++) {
        memcpy(img, orig, len);
        img[pos] ^= 0x10;
        s_spit(path, img, len);
        s_expect_damage(path, 0, 0, 0);
    }
    free(img);
    free(orig);
}

static void test_deleted_duplicated_swapped(void **state) {
    (void)state;
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[7];
    s_make_log(path, 6, off);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    uint8_t *img = malloc(len * 2);
    size_t r2 = off[3] - off[2] - 37; /* record 2 alone, without its SYNC */
    size_t b2 = off[3] - off[2], b3 = off[4] - off[3]; /* batches 2 and 3 */

    /* record 2 deleted: its SYNC now stands at physical 4 and does not link */
    memcpy(img, orig, off[2]);
    memcpy(img + off[2], orig + off[2] + r2, len - off[2] - r2);
    s_spit(path, img, len - r2);
    s_expect_damage(path, 4, off[2], 2);

    /* record 2 duplicated: the copy (physical 5) does not link */
    memcpy(img, orig, off[2] + r2);
    memcpy(img + off[2] + r2, orig + off[2], r2);
    memcpy(img + off[2] + 2 * r2, orig + off[2] + r2, len - off[2] - r2);
    s_spit(path, img, len + r2);
    s_expect_damage(path, 5, off[2] + r2, 3);

    /* batches 2 and 3 swapped */
    memcpy(img, orig, off[2]);
    memcpy(img + off[2], orig + off[3], b3);
    memcpy(img + off[2] + b3, orig + off[2], b2);
    memcpy(img + off[4], orig + off[4], len - off[4]);
    s_spit(path, img, len);
    s_expect_damage(path, 4, off[2], 2);

    /* record 0 deleted: what stands first does not link */
    size_t r0 = off[1] - off[0] - 37;
    memcpy(img, orig, EVLOG_FILE_HEADER);
    memcpy(img + EVLOG_FILE_HEADER, orig + off[0] + r0, len - off[0] - r0);
    s_spit(path, img, len - r0);
    s_expect_damage(path, 0, EVLOG_FILE_HEADER, 0);

    /* a length field flipped to a huge value in the middle is damage, not a torn tail */
    memcpy(img, orig, len);
    img[off[2] + 3] = 0x7f;
    s_spit(path, img, len);
    s_expect_damage(path, 4, off[2], 2);
    free(img);
    free(orig);
}

static void test_record0_not_header(void **state) {
    (void)state;
    /* a well-chained record 0 of another kind, and a second HEADER later */
    uint8_t img[200];
    memcpy(img, "BRTHRLOG\x01\0\0\0\0\0\0\0", 16);
    uint8_t zero[32] = {0}, h[32];
    img[16] = 1; img[17] = img[18] = img[19] = 0;
    img[20] = EVLOG_ORDER;
    img[21] = 'x';
    evlog_chain(zero, EVLOG_ORDER, img + 21, 1, h);
    memcpy(img + 22, h, 32);
    evlog_reader *r = evlog_reader_from_memory(img, 54);
    evlog_record rec;
    assert_int_equal(evlog_reader_next(r, &rec), -1);
    assert_non_null(strstr(evlog_reader_scan(r)->reason, "not HEADER"));
    evlog_reader_destroy(&r);

    img[20] = EVLOG_HEADER;
    evlog_chain(zero, EVLOG_HEADER, img + 21, 1, h);
    memcpy(img + 22, h, 32);
    memcpy(img + 54, img + 16, 6);
    evlog_chain(h, EVLOG_HEADER, img + 21, 1, img + 60);
    r = evlog_reader_from_memory(img, 92);
    assert_int_equal(evlog_reader_next(r, &rec), 1);
    assert_int_equal(evlog_reader_next(r, &rec), -1);
    assert_int_equal(evlog_reader_scan(r)->bad_record, 1);
    assert_non_null(strstr(evlog_reader_scan(r)->reason, "second HEADER"));
    evlog_reader_destroy(&r);

    /* an unknown kind with a valid chain */
    img[58] = 77;
    evlog_chain(h, 77, img + 59, 1, img + 60);
    r = evlog_reader_from_memory(img, 92);
    assert_int_equal(evlog_reader_next(r, &rec), 1);
    assert_int_equal(evlog_reader_next(r, &rec), -1);
    assert_non_null(strstr(evlog_reader_scan(r)->reason, "unknown record kind 77"));
    evlog_reader_destroy(&r);
}

static void test_never_created(void **state) {
    (void)state;
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[2];
    s_make_log(path, 1, off);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    /* empty, a torn file header, a file header alone, a torn record 0:
     * never acknowledged, refused without damage and left alone */
    size_t cuts[] = {0, 1, 8, 15, 16, 17, 20, 21, (size_t)off[1] - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        s_spit(path, orig, cuts[i]);
        evlog_scan scan;
        assert_null(evlog_open(path, &scan));
        assert_int_equal(scan.damaged, 0);
        assert_int_equal(scan.torn_tail, 1);
        assert_int_equal(scan.records, 0);
        assert_non_null(strstr(scan.reason, "never created"));
        assert_int_equal((size_t)s_size(path), cuts[i]);
    }
    /* a short file that is not a prefix of a Berthier header: damaged */
    s_spit(path, (const uint8_t *)"GARBAGE", 7);
    evlog_scan scan;
    assert_null(evlog_open(path, &scan));
    assert_int_equal(scan.damaged, 1);
    assert_non_null(strstr(scan.reason, "bad file header"));
    /* a newer format */
    uint8_t img[512];
    memcpy(img, orig, len);
    img[8] = 2;
    s_spit(path, img, len);
    assert_null(evlog_open(path, &scan));
    assert_int_equal(scan.damaged, 1);
    assert_non_null(strstr(scan.reason, "format 2"));
    free(orig);
}

/* ---- fault injection ---------------------------------------------------------------------- */

static int s_fail_errno;
static int s_writes, s_syncs, s_dirsyncs;
static int s_write_fail_at = -1, s_sync_fail_at = -1, s_dirsync_fail;

static ssize_t s_fault_write(int fd, const void *buf, size_t len) {
    if (s_writes++ == s_write_fail_at) {
        errno = s_fail_errno;
        return -1;
    }
    return write(fd, buf, len);
}

/* Writes at most 3 bytes at a time. */
static ssize_t s_short_write(int fd, const void *buf, size_t len) {
    s_writes++;
    return write(fd, buf, len < 3 ? len : 3);
}

static int s_fault_fdatasync(int fd) {
    if (s_syncs++ == s_sync_fail_at) {
        errno = EIO;
        return -1;
    }
    return fdatasync(fd);
}

static int s_fault_fsync_dir(const char *dir) {
    s_dirsyncs++;
    if (s_dirsync_fail) {
        errno = EIO;
        return -1;
    }
    return evlog_io_default.fsync_dir(dir);
}

static int s_fault_ftruncate(int fd, off_t len) {
    errno = EIO;
    (void)fd;
    (void)len;
    return -1;
}

static void s_fault_reset(void) {
    s_writes = s_syncs = s_dirsyncs = 0;
    s_write_fail_at = s_sync_fail_at = -1;
    s_dirsync_fail = 0;
    s_fail_errno = EIO;
}

static const evlog_io s_fault_io = {s_fault_write, s_fault_fdatasync, NULL, s_fault_fsync_dir};

static void s_write_fails(int err_no) {
    char path[300], err[200];
    s_path(path, sizeof path);
    s_fault_reset();
    evlog_io io = s_fault_io;
    io.ftruncate = evlog_io_default.ftruncate;
    evlog_io_set(&io);
    evlog *log = evlog_create(path, (const uint8_t *)"hdr", 3, err, sizeof err);
    assert_non_null(log);
    assert_int_equal(s_dirsyncs, 1);
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"o", 1), 0);
    s_write_fail_at = s_writes;
    s_fail_errno = err_no;
    assert_int_equal(evlog_sync(log), -1);
    assert_true(evlog_poisoned(log));
    int syncs = s_syncs;
    /* poisoned forever: nothing more is written or synced */
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"p", 1), -1);
    assert_int_equal(evlog_sync(log), -1);
    assert_int_equal(evlog_checkpoint(log, (const uint8_t *)"0123456789012345678901234567890123456789012345678901234567890123", "g"), -1);
    assert_int_equal(s_syncs, syncs);
    evlog_destroy(&log);
    evlog_io_set(NULL);
    /* the disk holds the acknowledged prefix only: HEADER and its SYNC */
    evlog_scan scan;
    log = evlog_open(path, &scan);
    assert_non_null(log);
    assert_int_equal(scan.records, 2);
    evlog_destroy(&log);
}

static void test_write_fails_eio(void **state) {
    (void)state;
    s_write_fails(EIO);
}

static void test_write_fails_enospc(void **state) {
    (void)state;
    s_write_fails(ENOSPC);
}

static void test_fdatasync_fails_no_retry(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    s_fault_reset();
    evlog_io io = s_fault_io;
    io.ftruncate = evlog_io_default.ftruncate;
    evlog_io_set(&io);
    evlog *log = evlog_create(path, (const uint8_t *)"hdr", 3, err, sizeof err);
    assert_non_null(log);
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"o", 1), 0);
    s_sync_fail_at = s_syncs;
    assert_int_equal(evlog_sync(log), -1);
    assert_true(evlog_poisoned(log));
    int syncs = s_syncs, writes = s_writes;
    assert_int_equal(evlog_sync(log), -1); /* no retry: no further fdatasync or write */
    assert_int_equal(evlog_append(log, EVLOG_ORDER, (const uint8_t *)"o", 1), -1);
    assert_int_equal(evlog_sync(log), -1);
    assert_int_equal(s_syncs, syncs);
    assert_int_equal(s_writes, writes);
    evlog_destroy(&log);
    evlog_io_set(NULL);
}

static void test_create_fails_cleanly(void **state) {
    (void)state;
    char path[300], err[200];
    evlog_io io = s_fault_io;
    io.ftruncate = evlog_io_default.ftruncate;
    /* write, fdatasync, directory fsync: each failure refuses and removes the file */
    for (int which = 0; which < 3; which++) {
        s_path(path, sizeof path);
        s_fault_reset();
        if (which == 0) s_write_fail_at = 0;
        if (which == 1) s_sync_fail_at = 0;
        if (which == 2) s_dirsync_fail = 1;
        evlog_io_set(&io);
        err[0] = 0;
        assert_null(evlog_create(path, (const uint8_t *)"hdr", 3, err, sizeof err));
        evlog_io_set(NULL);
        assert_true(strlen(err) > 0);
        assert_int_equal(access(path, F_OK), -1);
    }
}

static void test_short_writes(void **state) {
    (void)state;
    char path[300], err[200];
    s_path(path, sizeof path);
    s_fault_reset();
    evlog_io io = s_fault_io;
    io.write = s_short_write;
    io.ftruncate = evlog_io_default.ftruncate;
    evlog_io_set(&io);
    evlog *log = evlog_create(path, (const uint8_t *)"header", 6, err, sizeof err);
    assert_non_null(log);
    assert_int_equal(evlog_append(log, EVLOG_EVENT, (const uint8_t *)"0123456789", 10), 0);
    assert_int_equal(evlog_sync(log), 0);
    assert_true(s_writes > 20);
    evlog_destroy(&log);
    evlog_io_set(NULL);
    evlog_scan scan;
    log = evlog_open(path, &scan);
    assert_non_null(log);
    assert_int_equal(scan.records, 4); /* HEADER SYNC EVENT SYNC */
    evlog_destroy(&log);
}

static void test_cut_fails(void **state) {
    (void)state;
    char path[300];
    s_path(path, sizeof path);
    uint64_t off[3];
    s_make_log(path, 2, off);
    size_t len;
    uint8_t *orig = s_slurp(path, &len);
    s_spit(path, orig, len - 5);
    evlog_io io = evlog_io_default;
    io.ftruncate = s_fault_ftruncate;
    evlog_io_set(&io);
    evlog_scan scan;
    assert_null(evlog_open(path, &scan));
    evlog_io_set(NULL);
    assert_non_null(strstr(scan.reason, "cannot cut"));
    assert_int_equal((size_t)s_size(path), len - 5);
    free(orig);
}

static void test_kind_names(void **state) {
    (void)state;
    assert_string_equal(evlog_kind_name(EVLOG_HEADER), "HEADER");
    assert_string_equal(evlog_kind_name(EVLOG_CHECKPOINT), "CHECKPOINT");
    assert_string_equal(evlog_kind_name(EVLOG_REVEAL), "REVEAL");
    assert_string_equal(evlog_kind_name(0), "UNKNOWN");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_checkpoint_known_answer),
        cmocka_unit_test(test_create_append_reopen),
        cmocka_unit_test(test_checkpoint_record),
        cmocka_unit_test(test_torn_tail_every_byte),
        cmocka_unit_test(test_torn_batch_of_records),
        cmocka_unit_test(test_power_loss_reordered_sectors),
        cmocka_unit_test(test_bit_flip_in_middle),
        cmocka_unit_test(test_deleted_duplicated_swapped),
        cmocka_unit_test(test_record0_not_header),
        cmocka_unit_test(test_never_created),
        cmocka_unit_test(test_write_fails_eio),
        cmocka_unit_test(test_write_fails_enospc),
        cmocka_unit_test(test_fdatasync_fails_no_retry),
        cmocka_unit_test(test_create_fails_cleanly),
        cmocka_unit_test(test_short_writes),
        cmocka_unit_test(test_cut_fails),
        cmocka_unit_test(test_kind_names),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
