/*
 * test_daemon_journal.c - the daemon's shared journal (daemon/journal.c) in process:
 *   - recovery puts back batches whose log writes were lost (a power loss), and
 *     rewrites bytes that differ; the logs then open with every record;
 *   - a torn last frame is dropped, and so are its batches;
 *   - recovery is idempotent: a failed fdatasync during recovery (a crash there)
 *     leaves the journal as it was, and the next recovery does it all again;
 *   - a log shorter than a batch's offset (bytes lost from before the last cut)
 *     refuses recovery, naming the log; a log moved out of the directory has its
 *     batches left out (counted), and is not made again;
 *   - a failed journal fdatasync poisons the journal: nothing more is written;
 *   - the engine: N games with an input each in one commit round cost one fdatasync
 *     with the journal on, N with it off (the I/O shim counts them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "engine.h"
#include "evlog.h"
#include "journal.h"
#include "keys.h"
#include "seatsig.h"

/* ---- an I/O shim that counts fdatasyncs and fails the Nth ---- */
static atomic_long s_syncs;   /* the engine's flush threads call it at the same time */
static long s_fail_at;
static int s_fdatasync(int fd) {
    if (atomic_fetch_add(&s_syncs, 1) + 1 == s_fail_at) {
        errno = EIO;
        return -1;
    }
    return evlog_io_default.fdatasync(fd);
}
static evlog_io s_io;
static void s_shim(long fail_at) {
    s_io = evlog_io_default;
    s_io.fdatasync = s_fdatasync;
    atomic_store(&s_syncs, 0);
    s_fail_at = fail_at;
    evlog_io_set(&s_io);
}

typedef struct {
    char dir[64], games[96], jpath[128];
    char path[2][160];
    const char *id[2];
    evlog *log[2];
    bd_journal *j;
} fx;

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_true(sodium_init() >= 0);
    snprintf(f->dir, sizeof f->dir, "/tmp/berthier-journal-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->games, sizeof f->games, "%s/games", f->dir);
    assert_int_equal(mkdir(f->games, 0700), 0);
    snprintf(f->jpath, sizeof f->jpath, "%s/journal", f->games);
    f->id[0] = "00000000000000a1";
    f->id[1] = "00000000000000b2";
    for (int i = 0; i < 2; i++) {
        snprintf(f->path[i], sizeof f->path[i], "%s/%s.log", f->games, f->id[i]);
        char err[256];
        f->log[i] = evlog_create(f->path[i], (const uint8_t *)"header", 6, err, sizeof err);
        assert_non_null(f->log[i]);
    }
    char err[256];
    f->j = journal_open(f->jpath, f->games, 0, NULL, err, sizeof err);
    assert_non_null(f->j);
    assert_int_equal(access(f->jpath, F_OK), -1);   /* made at the first frame */
    *state = f;
    return 0;
}

static int s_teardown(void **state) {
    fx *f = *state;
    evlog_io_set(NULL);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* One commit round as the engine runs it: each log's batch written, the frame, its fdatasync. */
static int s_round(fx *f, uint64_t round, int which) {
    journal_begin(f->j, round);
    for (int i = 0; i < 2; i++) {
        if (!(which & (1 << i))) continue;
        char p[64];
        int n = snprintf(p, sizeof p, "round %llu of %s", (unsigned long long)round, f->id[i]);
        assert_int_equal(evlog_append(f->log[i], EVLOG_ORDER, (const uint8_t *)p, (size_t)n), 0);
        assert_int_equal(evlog_sync_write(f->log[i]), 0);
        uint64_t off;
        const uint8_t *b;
        size_t len;
        assert_int_equal(evlog_sync_batch(f->log[i], &off, &b, &len), 0);
        assert_int_equal(journal_add(f->j, f->id[i], off, b, len), 0);
    }
    if (journal_write(f->j) != 0 || journal_flush(f->j) != 0) return -1;
    for (int i = 0; i < 2; i++)
        if (which & (1 << i)) assert_int_equal(evlog_sync_handed(f->log[i]), 0);
    return 0;
}

static uint8_t *s_slurp(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return b;
}

static off_t s_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static uint64_t s_records(const char *path) {
    evlog_scan scan;
    evlog *l = evlog_open(path, &scan);
    assert_non_null(l);
    uint64_t n = evlog_count(l);
    evlog_destroy(&l);
    return n;
}

static void test_lost_log_writes_put_back(void **state) {
    fx *f = *state;
    off_t created = s_size(f->path[0]);
    for (uint64_t r = 1; r <= 3; r++) assert_int_equal(s_round(f, r, 3), 0);
    assert_true(s_size(f->jpath) > JOURNAL_HEADER);
    size_t n0, n1;
    uint8_t *good0 = s_slurp(f->path[0], &n0), *good1 = s_slurp(f->path[1], &n1);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    /* power loss: nothing of the logs' writes reached the disk; one byte of the other differs */
    assert_int_equal(truncate(f->path[0], created), 0);
    int fd = open(f->path[1], O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, "X", 1, (off_t)n1 - 40), 1);
    close(fd);
    char err[256];
    journal_stats st;
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 3);
    assert_int_equal(st.batches, 6);
    assert_int_equal(st.rewritten, 4);   /* 3 of the first log, the last of the second */
    assert_int_equal(st.logs, 2);
    assert_int_equal(st.torn_bytes, 0);
    size_t m0, m1;
    uint8_t *now0 = s_slurp(f->path[0], &m0), *now1 = s_slurp(f->path[1], &m1);
    assert_int_equal(m0, n0);
    assert_memory_equal(now0, good0, n0);
    assert_int_equal(m1, n1);
    assert_memory_equal(now1, good1, n1);
    /* header, its SYNC, and 3 x (ORDER, SYNC) */
    assert_int_equal(s_records(f->path[0]), 8);
    /* nothing left to do */
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 0);
    free(good0);
    free(good1);
    free(now0);
    free(now1);
}

static void test_torn_frame_dropped(void **state) {
    fx *f = *state;
    assert_int_equal(s_round(f, 1, 1), 0);
    assert_int_equal(s_round(f, 2, 1), 0);
    off_t two = s_size(f->path[0]);
    off_t jtwo = s_size(f->jpath);
    assert_int_equal(s_round(f, 3, 1), 0);
    off_t jthree = s_size(f->jpath);
    evlog_destroy(&f->log[0]);
    journal_destroy(&f->j);
    /* the third frame torn (never acknowledged), and its log write lost */
    assert_int_equal(truncate(f->jpath, jthree - 9), 0);
    assert_int_equal(truncate(f->path[0], two), 0);
    char err[256];
    journal_stats st;
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 2);
    assert_true(st.torn_bytes > 0 && st.torn_bytes <= (uint64_t)(jthree - 9 - jtwo));
    assert_int_equal(s_size(f->path[0]), two);
    assert_int_equal(s_records(f->path[0]), 6);
}

static void test_recovery_idempotent(void **state) {
    fx *f = *state;
    off_t created = s_size(f->path[0]);
    for (uint64_t r = 1; r <= 4; r++) assert_int_equal(s_round(f, r, r % 2 ? 3 : 1), 0);
    size_t n0;
    uint8_t *good0 = s_slurp(f->path[0], &n0);
    off_t jsize = s_size(f->jpath);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    assert_int_equal(truncate(f->path[0], created), 0);
    char err[256];
    journal_stats st;
    /* a crash in recovery, at each of its fdatasyncs (2 logs, then the cut) */
    for (long at = 1; at <= 3; at++) {
        s_shim(at);
        assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), -1);
        evlog_io_set(NULL);
        if (at <= 2) assert_int_equal(s_size(f->jpath), jsize);   /* nothing was cut */
    }
    /* the cut's fdatasync failed after its new header was written: the logs were durable */
    size_t m0;
    uint8_t *now0 = s_slurp(f->path[0], &m0);
    assert_int_equal(m0, n0);
    assert_memory_equal(now0, good0, n0);
    free(now0);
    /* and what is left of it recovers as empty */
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 0);
    free(good0);
}

static void test_recovery_twice_from_full_journal(void **state) {
    fx *f = *state;
    off_t created = s_size(f->path[0]);
    for (uint64_t r = 1; r <= 3; r++) assert_int_equal(s_round(f, r, 1), 0);
    size_t n0, jn;
    uint8_t *good0 = s_slurp(f->path[0], &n0);
    uint8_t *jbytes = s_slurp(f->jpath, &jn);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    char err[256];
    journal_stats st;
    for (int pass = 0; pass < 2; pass++) {
        /* the journal as it was before the first recovery (a crash before its cut) */
        FILE *fp = fopen(f->jpath, "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(jbytes, 1, jn, fp), jn);
        fclose(fp);
        if (pass == 0) assert_int_equal(truncate(f->path[0], created), 0);
        assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
        assert_int_equal(st.frames, 3);
        assert_int_equal(st.rewritten, pass == 0 ? 3 : 0);
        size_t m0;
        uint8_t *now0 = s_slurp(f->path[0], &m0);
        assert_int_equal(m0, n0);
        assert_memory_equal(now0, good0, n0);
        free(now0);
    }
    free(good0);
    free(jbytes);
}

static void test_missing_prefix_refused(void **state) {
    fx *f = *state;
    assert_int_equal(s_round(f, 1, 1), 0);
    evlog_destroy(&f->log[0]);
    journal_destroy(&f->j);
    assert_int_equal(truncate(f->path[0], 20), 0);   /* lost bytes the journal does not hold */
    char err[512] = "";
    journal_stats st;
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, f->id[0]));
    assert_non_null(strstr(err, "missing"));
    assert_true(s_size(f->jpath) > JOURNAL_HEADER);   /* left for people to look at */
}

static void test_moved_log_left_out(void **state) {
    fx *f = *state;
    off_t created = s_size(f->path[0]);
    assert_int_equal(s_round(f, 1, 3), 0);
    assert_int_equal(s_round(f, 2, 3), 0);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    assert_int_equal(unlink(f->path[1]), 0);   /* an operator moved it out */
    assert_int_equal(truncate(f->path[0], created), 0);
    char err[256];
    journal_stats st;
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 2);
    assert_int_equal(st.skipped, 2);
    assert_string_equal(st.skipped_id, f->id[1]);
    assert_int_equal(st.rewritten, 2);
    assert_int_equal(access(f->path[1], F_OK), -1);   /* not made again */
    assert_int_equal(s_records(f->path[0]), 6);
}

static void test_journal_fdatasync_failure_poisons(void **state) {
    fx *f = *state;
    assert_int_equal(s_round(f, 1, 3), 0);
    s_shim(1);
    assert_int_equal(s_round(f, 2, 3), -1);
    assert_true(journal_poisoned(f->j));
    evlog_io_set(NULL);
    journal_begin(f->j, 3);
    assert_int_equal(journal_add(f->j, f->id[0], 0, (const uint8_t *)"x", 1), -1);
    assert_int_equal(journal_write(f->j), -1);
    assert_int_equal(journal_flush(f->j), -1);
    assert_int_equal(journal_cut(f->j), -1);
}

/* A journal made with zeros: it never grows, a cut writes a new header, and only the
 * frames after the cut are replayed (the older ones, still in the file, do not link). */
static void test_prealloc_cut_and_overwrite(void **state) {
    fx *f = *state;
    char err[256];
    journal_destroy(&f->j);
    f->j = journal_open(f->jpath, f->games, 64u << 10, NULL, err, sizeof err);
    assert_non_null(f->j);
    for (uint64_t r = 1; r <= 5; r++) assert_int_equal(s_round(f, r, 3), 0);
    assert_int_equal(s_size(f->jpath), 64 << 10);
    for (int i = 0; i < 2; i++) assert_int_equal(evlog_sync_data(f->log[i]), 0);
    assert_int_equal(journal_cut(f->j), 0);
    assert_int_equal(journal_size(f->j), JOURNAL_HEADER);
    off_t synced = s_size(f->path[0]);
    assert_int_equal(s_round(f, 6, 1), 0);
    assert_int_equal(s_size(f->jpath), 64 << 10);
    size_t n0;
    uint8_t *good0 = s_slurp(f->path[0], &n0);
    for (int i = 0; i < 2; i++) evlog_destroy(&f->log[i]);
    journal_destroy(&f->j);
    assert_int_equal(truncate(f->path[0], synced), 0);
    journal_stats st;
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 1);
    assert_int_equal(st.batches, 1);
    assert_int_equal(st.rewritten, 1);
    assert_true(st.torn_bytes > 0);   /* the older frames after it */
    size_t m0;
    uint8_t *now0 = s_slurp(f->path[0], &m0);
    assert_int_equal(m0, n0);
    assert_memory_equal(now0, good0, n0);
    free(now0);
    free(good0);
    assert_int_equal(journal_recover(f->jpath, f->games, &st, err, sizeof err), 0);
    assert_int_equal(st.frames, 0);
}

/* ---- the engine: fdatasyncs per commit round ---- */

static void s_join(bd_engine *eng, const char *gid, unsigned seat, const uint8_t key[32], uint64_t rid) {
    bd_game *gm = engine_find(eng, gid);
    assert_non_null(gm);
    const uint8_t *hh = game_header_hash(gm->g);
    uint8_t seed[32], sk[64], pk[32], entropy[32], sig[64];
    crypto_generichash(seed, 32, key, 32, (const uint8_t *)SEATSIG_DERIVE_DOMAIN, strlen(SEATSIG_DERIVE_DOMAIN));
    crypto_sign_seed_keypair(pk, sk, seed);
    randombytes_buf(entropy, sizeof entropy);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    j.game_id = (char *)gid;
    j.seat = seat;
    j.entropy.data = entropy;
    j.entropy.len = 32;
    j.sign_pk.data = pk;
    j.sign_pk.len = 32;
    j.header_hash.data = (uint8_t *)hh;
    j.header_hash.len = 32;
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    size_t n = protobuf_c_message_get_packed_size(&j.base);
    uint8_t *b = malloc(n ? n : 1);
    protobuf_c_message_pack(&j.base, b);
    assert_int_equal(seatsig_sign(sk, gid, hh, 0, rid, SEATSIG_BODY_JOIN, b, n, sig), 0);
    free(b);
    req.signature.data = sig;
    req.signature.len = 64;
    size_t len;
    uint8_t *bytes = canon_pack(&req.base, &len);
    assert_non_null(bytes);
    brt_buf reply;
    buf_init(&reply);
    (void)engine_handle(eng, key, bytes, len, &reply);
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, reply.len, reply.data);
    assert_non_null(r);
    if (r->code) fprintf(stderr, "join: %d %s\n", r->code, r->message);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    buf_free(&reply);
    free(bytes);
}

static long s_syncs_of_round(unsigned journal, unsigned ngames) {
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/berthier-journal-eng-XXXXXX");
    assert_non_null(mkdtemp(dir));
    bd_config cfg;
    config_defaults(&cfg, dir);
    cfg.journal = journal;
    bd_keys keys;
    char err[256];
    assert_int_equal(keys_load(&keys, cfg.data_dir, err, sizeof err), 0);
    bd_engine *eng = engine_new(&cfg, &keys, err, sizeof err);
    assert_non_null(eng);
    assert_int_equal(engine_recover(eng, err, sizeof err), 0);
    uint8_t seat_key[2][32];
    randombytes_buf(seat_key, sizeof seat_key);
    char gid[8][ENGINE_ID_LEN + 1];
    uint64_t rid = 1;
    for (unsigned g = 0; g < ngames; g++) {
        Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
        Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
        Berthier__V1__SeatSpec ss[2], *ssp[2];
        for (unsigned s = 0; s < 2; s++) {
            berthier__v1__seat_spec__init(&ss[s]);
            ss[s].seat = s;
            ss[s].key.data = seat_key[s];
            ss[s].key.len = 32;
            ssp[s] = &ss[s];
        }
        c.ruleset = (char *)"duel";
        c.scenario = (char *)"standard";
        c.n_seats = 2;
        c.seats = ssp;
        req.request_id = rid++;
        req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
        req.create = &c;
        size_t len;
        uint8_t *bytes = canon_pack(&req.base, &len);
        brt_buf reply;
        buf_init(&reply);
        (void)engine_handle(eng, keys.admins[0], bytes, len, &reply);
        free(bytes);
        Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, reply.len, reply.data);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        snprintf(gid[g], sizeof gid[g], "%s", r->created->game_id);
        berthier__v1__reply__free_unpacked(r, NULL);
        buf_free(&reply);
        assert_int_equal(engine_sync(eng, err, sizeof err), 0);
    }
    /* a round of joins (the first frame also makes the journal file), then the one counted:
     * the other seat's join in every game */
    for (unsigned g = 0; g < ngames; g++) s_join(eng, gid[g], 0, seat_key[0], rid++);
    assert_int_equal(engine_sync(eng, err, sizeof err), 0);
    for (unsigned g = 0; g < ngames; g++) s_join(eng, gid[g], 1, seat_key[1], rid++);
    s_shim(0);
    assert_int_equal(engine_sync(eng, err, sizeof err), 0);
    long syncs = atomic_load(&s_syncs);
    evlog_io_set(NULL);
    /* a clean stop leaves the journal empty */
    engine_destroy(&eng);
    char jpath[128];
    snprintf(jpath, sizeof jpath, "%s/games/journal", dir);
    if (journal) {
        char games[128];
        snprintf(games, sizeof games, "%s/games", dir);
        journal_stats st;
        assert_int_equal(journal_recover(jpath, games, &st, err, sizeof err), 0);
        assert_int_equal(st.frames, 0);
        assert_true(s_size(jpath) >= (off_t)cfg.journal_size);   /* made with its zeros */
    } else {
        assert_int_equal(access(jpath, F_OK), -1);
    }
    keys_wipe(&keys);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return syncs;
}

static void test_engine_one_fdatasync_per_round(void **state) {
    (void)state;
    assert_int_equal(s_syncs_of_round(1, 6), 1);
    assert_int_equal(s_syncs_of_round(0, 6), 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lost_log_writes_put_back, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_torn_frame_dropped, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_recovery_idempotent, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_recovery_twice_from_full_journal, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_missing_prefix_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_journal_fdatasync_failure_poisons, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_prealloc_cut_and_overwrite, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_moved_log_left_out, s_setup, s_teardown),
        cmocka_unit_test(test_engine_one_fdatasync_per_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
