/*
 * test_daemon_journal.c - the shared journal (daemon/journal.c) under a real berthierd:
 *   - power loss: the daemon is killed (-9) after acknowledging orders, and the game's
 *     log is cut back to its creation (as if none of its page-cache writes had reached
 *     the disk: they were fdatasynced only in the journal); a start whose recovery fails
 *     (berthierd-faulty, its first fdatasync) refuses to start and leaves the journal
 *     whole; the next start puts the batches back from the journal, every acknowledged
 *     order is there, and the log verifies;
 *   - a torn journal frame (garbage after the last frame) is dropped, the start is clean;
 *   - the journal of a daemon that was killed is replayed even when the restart runs
 *     with `journal = 0`;
 *   - a crash after the journal's fdatasync but before the reply (berthierd-faulty,
 *     gate-after on the journal fdatasync, then kill -9 and the log cut back): the
 *     unacknowledged order is durable, and its retry gets its reply without a new record;
 *   - a clean stop leaves the journal empty (a lone header) and every log durable;
 *   - past `journal-size` the logs are fdatasynced and the journal is cut: it never
 *     holds much more than that, and a power loss after a cut loses nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sodium.h>

#include "evlog.h"
#include "test_daemon_common.h"

typedef struct {
    td_daemon d;
    td_client *admin, *seat[2];
    char pub[2][41], sec[2][41];
    char gid[32];
    char logp[512], jpath[512];
    off_t created_len;   /* the log's length right after creation (header batch) */
    uint64_t rid;
} fx;

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    *state = f;
    f->rid = 7000;
    return td_start(&f->d) == 0 ? 0 : -1;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_fixture_end(&f->d, &f->admin, f->seat, 2);
    free(f);
    return 0;
}

static void s_connect(fx *f) {
    if (f->admin) td_client_reconnect(f->admin, &f->d);
    else f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    for (int i = 0; i < 2; i++) {
        if (f->seat[i]) td_client_reconnect(f->seat[i], &f->d);
        else if (f->gid[0]) f->seat[i] = td_client_new(&f->d, f->pub[i], f->sec[i]);
    }
}

static off_t s_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static int s_log_has(const td_daemon *d, const char *what) {
    char p[400];
    snprintf(p, sizeof p, "%s/daemon.log", d->dir);
    size_t n;
    uint8_t *b = td_slurp(p, &n);
    if (!b) return 0;
    b = realloc(b, n + 1);
    b[n] = 0;
    int found = strstr((char *)b, what) != NULL;
    free(b);
    return found;
}

static void s_new_game_of(fx *f, const char *ruleset, const char *scenario) {
    s_connect(f);
    uint8_t keys[2][32];
    td_fresh_keys(2, f->pub, f->sec, keys);
    Berthier__V1__Reply *r = td_create(f->admin, ruleset, scenario, 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    snprintf(f->gid, sizeof f->gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    snprintf(f->logp, sizeof f->logp, "%s/games/%s.log", f->d.dir, f->gid);
    snprintf(f->jpath, sizeof f->jpath, "%s/games/journal", f->d.dir);
    f->created_len = s_size(f->logp);
    assert_true(f->created_len > 0);
    s_connect(f);
    for (unsigned s = 0; s < 2; s++) {
        r = td_join(f->seat[s], f->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
}

static void s_new_game(fx *f) { s_new_game_of(f, "duel", "standard"); }

/* The next order of a seat that must act, as bytes (not sent). */
static uint8_t *s_next_order(fx *f, unsigned *seat, size_t *len) {
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        int must = r->decision->you_must_act && !(r->decision->result && r->decision->result->ended);
        uint64_t seq = r->decision->seq;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (!must) continue;
        r = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        uint8_t *b = td_submit_bytes(++f->rid, f->gid, s, seq, NULL, r->legal->orders[0].data,
                                     r->legal->orders[0].len, len);
        berthier__v1__reply__free_unpacked(r, NULL);
        *seat = s;
        return b;
    }
    return NULL;
}

/* Play up to `steps` acknowledged orders (0 = to the end). The game's seq. */
static uint64_t s_play(fx *f, int steps) {
    int done = 0;
    for (int k = 0; k < 4000 && (steps == 0 || done < steps); k++) {
        unsigned seat;
        size_t n;
        uint8_t *b = s_next_order(f, &seat, &n);
        if (!b) {
            Berthier__V1__Reply *r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, 0);
            assert_non_null(r);
            int ended = r->decision->result && r->decision->result->ended;
            berthier__v1__reply__free_unpacked(r, NULL);
            if (ended) break;
            td_sleep_ms(5);
            continue;
        }
        Berthier__V1__Reply *r = td_call_raw(f->seat[seat], b, n, TD_TIMEOUT);
        free(b);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        berthier__v1__reply__free_unpacked(r, NULL);
        done++;
    }
    Berthier__V1__Reply *r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    uint64_t seq = r->decision->seq;
    berthier__v1__reply__free_unpacked(r, NULL);
    return seq;
}

/* The complete frames of the journal as daemon/journal.c defines them (its header, then
 * frames each closed by BLAKE2b-256 keyed with the previous hash); *end = where the last
 * one ends. -1 if there is no journal. */
static int s_journal_frames(const char *path, size_t *end) {
    size_t n = 0;
    uint8_t *b = td_slurp(path, &n);
    if (!b) return -1;
    int frames = 0;
    size_t off = 24;
    uint8_t prev[32];
    if (n >= 24) {
        crypto_generichash(prev, 32, b, 24, NULL, 0);
        while (n - off >= 48) {
            uint32_t len = (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 | (uint32_t)b[off + 2] << 16 |
                           (uint32_t)b[off + 3] << 24;
            if (len < 12 || len > n - off - 36) break;
            uint8_t h[32];
            crypto_generichash(h, 32, b + off, 4 + (size_t)len, prev, 32);
            if (memcmp(h, b + off + 4 + len, 32) != 0) break;
            memcpy(prev, h, 32);
            off += 4 + (size_t)len + 32;
            frames++;
        }
    }
    free(b);
    if (end) *end = off;
    return frames;
}

static int s_orders_in_log(const char *path) {
    char err[256];
    evlog_reader *rd = evlog_reader_open(path, err, sizeof err);
    if (!rd) return -1;
    evlog_record rec;
    int n = 0;
    while (evlog_reader_next(rd, &rec) == 1) n += rec.kind == EVLOG_ORDER;
    evlog_reader_destroy(&rd);
    return n;
}

static void s_finish_and_verify(fx *f) {
    s_play(f, 0);
    assert_int_equal(td_stop(&f->d), 0);
    /* a clean stop: the journal holds no frame */
    assert_int_equal(s_journal_frames(f->jpath, NULL), 0);
    int skipped;
    int vrc = td_replay_verify(f->logp, &skipped);
    if (!skipped) assert_int_equal(vrc, 0);
}

/* Power loss after acknowledgements: the log loses every write since its creation. */
static void test_power_loss_log_writes(void **state) {
    fx *f = *state;
    s_new_game(f);
    uint64_t seq = s_play(f, 8);
    int orders = s_orders_in_log(f->logp);
    assert_int_equal(orders, 8);
    off_t full = s_size(f->logp);
    assert_true(full > f->created_len);
    assert_true(s_journal_frames(f->jpath, NULL) >= 8);   /* the rounds went to the journal */
    td_kill9(&f->d);
    assert_int_equal(truncate(f->logp, f->created_len), 0);
    /* a crash during recovery: its first fdatasync fails, the daemon refuses to start and
     * leaves the journal whole */
    off_t jlen = s_size(f->jpath);
    f->d.binary = "berthierd-faulty";
    snprintf(f->d.env, sizeof f->d.env, "BERTHIERD_FAULT=fdatasync=1");
    assert_int_equal(td_start(&f->d), -2);
    assert_int_equal(f->d.last_exit, 1);
    assert_true(s_log_has(&f->d, "refusing to start"));
    assert_int_equal(s_size(f->jpath), jlen);
    f->d.binary = NULL;
    f->d.env[0] = 0;
    /* and the log as the power loss left it, again */
    assert_int_equal(truncate(f->logp, f->created_len), 0);
    assert_int_equal(td_start(&f->d), 0);
    assert_true(s_log_has(&f->d, "journal: "));
    assert_int_equal(s_journal_frames(f->jpath, NULL), 0);   /* cut after the replay */
    assert_true(s_size(f->logp) >= full);
    assert_true(s_orders_in_log(f->logp) >= orders);
    s_connect(f);
    assert_true(s_play(f, 2) >= seq);
    assert_int_equal(s_orders_in_log(f->logp), orders + 2);
    /* a second crash and power loss after the replay: the log was fdatasynced by it */
    off_t replayed = s_size(f->logp);
    td_kill9(&f->d);
    assert_int_equal(truncate(f->logp, replayed), 0);
    assert_int_equal(td_start(&f->d), 0);
    s_connect(f);
    s_finish_and_verify(f);
}

/* A torn last frame, and a restart with the journal off that still replays it. */
static void test_torn_frame_and_journal_off(void **state) {
    fx *f = *state;
    s_new_game(f);
    s_play(f, 5);
    int orders = s_orders_in_log(f->logp);
    td_kill9(&f->d);
    /* half a frame after the last one: a length, a round number and garbage that does not link */
    size_t end = 0;
    int frames = s_journal_frames(f->jpath, &end);
    assert_true(frames >= 5);
    FILE *fp = fopen(f->jpath, "r+b");
    assert_non_null(fp);
    uint8_t torn[40];
    memset(torn, 0x5a, sizeof torn);
    torn[0] = 36, torn[1] = torn[2] = torn[3] = 0;   /* a frame of 4 + 36 + 32 (its hash) bytes,
                                                        * the last 32 of them zeros: it does not link */
    assert_int_equal(fseek(fp, (long)end, SEEK_SET), 0);
    assert_int_equal(fwrite(torn, 1, sizeof torn, fp), sizeof torn);
    fclose(fp);
    assert_int_equal(s_journal_frames(f->jpath, NULL), frames);
    assert_int_equal(truncate(f->logp, f->created_len), 0);
    snprintf(f->d.extra[0], sizeof f->d.extra[0], "--journal");
    snprintf(f->d.extra[1], sizeof f->d.extra[1], "0");
    f->d.nextra = 2;
    assert_int_equal(td_start(&f->d), 0);
    char want[160];
    snprintf(want, sizeof want, "journal: %d frames replayed", frames);
    assert_true(s_log_has(&f->d, want));
    assert_true(s_log_has(&f->d, "the 72 bytes of the next frame ignored"));
    assert_int_equal(s_orders_in_log(f->logp), orders);
    s_connect(f);
    s_play(f, 3);
    /* with the journal off, the rounds no longer touch it */
    assert_int_equal(s_journal_frames(f->jpath, NULL), 0);
    td_kill9(&f->d);
    f->d.nextra = 0;
    assert_int_equal(td_start(&f->d), 0);
    assert_int_equal(s_orders_in_log(f->logp), orders + 3);
    s_connect(f);
    s_finish_and_verify(f);
}

/* Wait for the gate to stop an fdatasync: its number, or -1. */
static long s_wait_gate(const char *gate, long after) {
    for (int i = 0; i < 1000; i++) {
        for (long n = after + 1; n < after + 200; n++) {
            char p[400];
            snprintf(p, sizeof p, "%s/wait.%ld", gate, n);
            if (access(p, F_OK) == 0) return n;
        }
        td_sleep_ms(10);
    }
    return -1;
}

/* Killed after the journal's fdatasync, before the reply and the log's own fdatasync. */
static void test_crash_after_journal_sync(void **state) {
    fx *f = *state;
    s_new_game(f);
    s_play(f, 3);
    assert_int_equal(td_stop(&f->d), 0);
    char gate[300], hold[320];
    snprintf(gate, sizeof gate, "%.200s/gate", f->d.dir);
    assert_int_equal(mkdir(gate, 0700), 0);
    f->d.binary = "berthierd-faulty";
    snprintf(f->d.env, sizeof f->d.env, "BERTHIERD_FAULT=gate=%.200s,gate-after", gate);
    assert_int_equal(td_start(&f->d), 0);
    s_connect(f);
    off_t before = s_size(f->logp);
    int orders = s_orders_in_log(f->logp);
    unsigned seat;
    size_t n;
    uint8_t *b = s_next_order(f, &seat, &n);
    assert_non_null(b);
    snprintf(hold, sizeof hold, "%s/hold", gate);
    FILE *h = fopen(hold, "w");
    assert_non_null(h);
    fclose(h);
    assert_int_equal(td_send_raw(f->seat[seat], b, n), 0);
    long at = s_wait_gate(gate, 0);
    assert_true(at > 0);   /* the round's one fdatasync (the journal's) returned */
    td_kill9(&f->d);
    unlink(hold);
    /* the order's batch reached the log only through the page cache: drop it */
    assert_true(s_size(f->logp) > before);
    assert_int_equal(truncate(f->logp, before), 0);
    f->d.binary = NULL;
    f->d.env[0] = 0;
    assert_int_equal(td_start(&f->d), 0);
    assert_int_equal(s_orders_in_log(f->logp), orders + 1);   /* durable before any reply */
    s_connect(f);
    Berthier__V1__Reply *r = td_call_raw(f->seat[seat], b, n, TD_TIMEOUT);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(s_orders_in_log(f->logp), orders + 1);   /* the retry applied nothing */
    free(b);
    s_finish_and_verify(f);
}

/* A small journal-size: the journal is cut again and again as the game goes on. */
static void test_cut_at_size(void **state) {
    fx *f = *state;
    assert_int_equal(td_stop(&f->d), 0);
    snprintf(f->d.extra[0], sizeof f->d.extra[0], "--journal-size");
    snprintf(f->d.extra[1], sizeof f->d.extra[1], "4096");
    f->d.nextra = 2;
    assert_int_equal(td_start(&f->d), 0);
    s_new_game_of(f, "n20", "waterloo20-standard");   /* a longer game than a duel */
    off_t max_journal = 0, start = s_size(f->logp);
    int cuts = 0;
    for (int k = 0; k < 400 && s_size(f->logp) - start < 8 * 4096; k++) {
        size_t before = 0, now = 0;
        (void)s_journal_frames(f->jpath, &before);
        if (s_play(f, 1) == 0) break;
        (void)s_journal_frames(f->jpath, &now);
        if (now < before) cuts++;
        if ((off_t)now > max_journal) max_journal = (off_t)now;
        Berthier__V1__Reply *r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, 0);
        assert_non_null(r);
        int ended = r->decision->result && r->decision->result->ended;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (ended) break;
    }
    if (s_size(f->logp) - start < 3 * 4096) {
        fprintf(stderr, "note: the game ended before its log grew past 3 x journal-size (%lld bytes); cuts not checked\n", (long long)(s_size(f->logp) - start));
    } else {
        assert_true(cuts >= 1);
        assert_true(max_journal < 4 * 4096);
    }
    /* a power loss that drops nothing the cut made durable: the log as it is now */
    off_t now = s_size(f->logp);
    int orders = s_orders_in_log(f->logp);
    td_kill9(&f->d);
    assert_int_equal(truncate(f->logp, now), 0);
    f->d.nextra = 0;
    assert_int_equal(td_start(&f->d), 0);
    assert_int_equal(s_orders_in_log(f->logp), orders);
    s_connect(f);
    s_finish_and_verify(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_power_loss_log_writes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_torn_frame_and_journal_off, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_crash_after_journal_sync, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_cut_at_size, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
