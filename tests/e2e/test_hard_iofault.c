/*
 * test_hard_iofault.c - [issue 6] I/O faults under a live berthierd, injected
 * by an LD_PRELOAD shim (hard_iofault.c, compiled here at run time) that
 * fails the Nth write, fdatasync, fsync or rename on the game files with EIO
 * or ENOSPC, once or persistently:
 *   - an order whose batch cannot be synced is never acknowledged: the daemon
 *     stops (exit 1) without answering, even when a second fdatasync would
 *     succeed (no retry-then-acknowledge);
 *   - a restart on healthy I/O recovers every acknowledged order; the
 *     unacknowledged one, sent again with the same id, is applied at most
 *     once; the log verifies;
 *   - with the disk still failing, a restart never acknowledges anything;
 *   - a failure while a game is created gives IO_ERROR (or a stop), never a
 *     game without its files;
 *   - a failed rename of a key file at first start: the daemon refuses to
 *     start, and starts cleanly once the disk is healthy.
 * Short by default; BERTHIER_LONG=1 sweeps N.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

static char s_work[128];
static char s_shim[256];

static int s_group_setup(void **state) {
    (void)state;
    snprintf(s_work, sizeof s_work, "/tmp/berthier-iofault-XXXXXX");
    if (!mkdtemp(s_work)) return -1;
    const char *src = getenv("BERTHIER_SRC");
    snprintf(s_shim, sizeof s_shim, "%s/hard_iofault.so", s_work);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cc -shared -fPIC -O1 -Wall -o '%s' '%s/tests/e2e/hard_iofault.c' -ldl", s_shim,
             src ? src : ".");
    if (system(cmd) != 0) {
        fprintf(stderr, "cannot build the I/O fault shim: %s\n", cmd);
        return -1;
    }
    return 0;
}

static int s_group_teardown(void **state) {
    (void)state;
    td_kill_all();
    td_rmrf(s_work);
    return 0;
}

typedef struct fault {
    const char *op, *err, *mode, *match;
    long n;
} fault;

static char s_arm[300], s_flog[300];

/* Start (or restart) a daemon with the shim loaded, not yet armed. */
static int s_start_faulty(td_daemon *d, const fault *fl) {
    static int serial;
    snprintf(s_arm, sizeof s_arm, "%s/arm-%d", s_work, ++serial);
    snprintf(s_flog, sizeof s_flog, "%s/faults-%d.log", s_work, serial);
    char n[32], asan[512];
    snprintf(n, sizeof n, "%ld", fl->n);
    const char *old = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0", old ? old : "", old && *old ? ":" : "");
    char *saved_asan = old ? strdup(old) : NULL;
    setenv("LD_PRELOAD", s_shim, 1);
    setenv("ASAN_OPTIONS", asan, 1);
    setenv("HARD_IOFAULT_OP", fl->op, 1);
    setenv("HARD_IOFAULT_N", n, 1);
    setenv("HARD_IOFAULT_ERRNO", fl->err, 1);
    setenv("HARD_IOFAULT_MODE", fl->mode, 1);
    setenv("HARD_IOFAULT_MATCH", fl->match ? fl->match : "/games/", 1);
    setenv("HARD_IOFAULT_ARM", s_arm, 1);
    setenv("HARD_IOFAULT_LOG", s_flog, 1);
    int rc = td_start(d);
    unsetenv("LD_PRELOAD");
    if (saved_asan) setenv("ASAN_OPTIONS", saved_asan, 1);
    else unsetenv("ASAN_OPTIONS");
    free(saved_asan);
    unsetenv("HARD_IOFAULT_OP");
    unsetenv("HARD_IOFAULT_N");
    unsetenv("HARD_IOFAULT_ERRNO");
    unsetenv("HARD_IOFAULT_MODE");
    unsetenv("HARD_IOFAULT_MATCH");
    unsetenv("HARD_IOFAULT_ARM");
    unsetenv("HARD_IOFAULT_LOG");
    return rc;
}

static void s_arm_now(void) {
    FILE *f = fopen(s_arm, "w");
    assert_non_null(f);
    fclose(f);
}

static int s_faults_injected(void) {
    FILE *f = fopen(s_flog, "r");
    if (!f) return 0;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        if (c == '\n') n++;
    fclose(f);
    return n;
}

/* Wait for the daemon to stop by itself; its exit status (-1 if it did not). */
static int s_wait_exit(td_daemon *d, int ms) {
    for (int i = 0; i < ms / 10; i++) {
        int st = td_exited(d);
        if (st >= 0) return st;
        td_sleep_ms(10);
    }
    return -1;
}

/* The next order of the game as bytes, not sent (seat in *seat). */
static uint8_t *s_next_order(th_game *g, uint64_t rid, unsigned *seat, size_t *len) {
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_gameref(g->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, g->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        int must = r->decision->you_must_act;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (!must) continue;
        r = td_gameref(g->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, g->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        uint8_t *b = td_submit_bytes(rid, g->gid, s, r->legal->seq, NULL, r->legal->orders[0].data,
                                     r->legal->orders[0].len, len);
        berthier__v1__reply__free_unpacked(r, NULL);
        *seat = s;
        return b;
    }
    fail_msg("nobody must act");
    return NULL;
}

/*
 * One scenario: play `before` acknowledged orders, arm the fault, send one
 * more order: it must get no reply and the daemon must stop with status 1.
 * If `restart_faulty`, restart with the fault still armed (persistent):
 * nothing may be acknowledged. Then restart healthy: every acknowledged order
 * is there, the unacknowledged one sent again applies at most once.
 */
static void s_sync_scenario(const fault *fl, int before, int restart_faulty) {
    td_daemon d;
    memset(&d, 0, sizeof d);
    assert_int_equal(s_start_faulty(&d, fl), 0);
    td_client *admin = td_client_new(&d, d.admin_pub, d.admin_sec);
    th_game g;
    assert_int_equal(th_game_start(&g, &d, admin), 0);
    uint64_t rid = 500;
    int acked = 0;
    for (int i = 0; i < before; i++) {
        int rc = th_play_one(&g, &rid, NULL, NULL);
        assert_int_equal(rc, 1);
        acked++;
    }
    uint64_t seq_acked = th_seq(g.seat[0], g.gid, 0);
    unsigned seat;
    size_t len;
    uint8_t *order = s_next_order(&g, ++rid, &seat, &len);
    s_arm_now();
    Berthier__V1__Reply *r = td_call_raw(g.seat[seat], order, len, 4000);
    if (r) fprintf(stderr, "%s %s: acknowledged with code %d [%s] %s\n", fl->op, fl->err, r->code, r->rule, r->message);
    assert_null(r);
    int st = s_wait_exit(&d, 10000);
    assert_int_equal(st, 1);
    assert_true(s_faults_injected() >= 1);
    char dlog[400];
    snprintf(dlog, sizeof dlog, "grep -q 'stopping without acknowledging' '%s/daemon.log'", d.dir);
    assert_int_equal(system(dlog), 0);

    if (restart_faulty) {
        /* The disk is still failing: never an acknowledgement. */
        int rc = s_start_faulty(&d, fl);
        if (rc == 0) {
            s_arm_now();
            for (int i = 0; i < 2; i++) td_client_reconnect(g.seat[i], &d);
            r = td_call_raw(g.seat[seat], order, len, 4000);
            if (r) {
                /* Answered from the recovered log without a new write: the order was synced after all. */
                assert_int_equal(r->code, 0);
                berthier__v1__reply__free_unpacked(r, NULL);
                acked++;
                seq_acked = th_seq(g.seat[0], g.gid, 0);
                uint8_t *again = s_next_order(&g, ++rid, &seat, &len);
                free(order);
                order = again;
                r = td_call_raw(g.seat[seat], order, len, 4000);
                assert_null(r);
            }
            st = s_wait_exit(&d, 10000);
            assert_int_equal(st, 1);
        } else {
            assert_int_equal(rc, -2);
            assert_int_equal(d.last_exit, 1);
        }
    }

    /* Healthy again. */
    assert_int_equal(td_start(&d), 0);
    for (int i = 0; i < 2; i++) td_client_reconnect(g.seat[i], &d);
    uint64_t seq_now = th_seq(g.seat[0], g.gid, 0);
    assert_true(seq_now != UINT64_MAX);
    assert_true(seq_now >= seq_acked);
    int orders_before = th_count_orders(&d, g.gid);
    assert_true(orders_before >= acked);
    assert_true(orders_before <= acked + 1);
    r = td_call_raw(g.seat[seat], order, len, TD_TIMEOUT);
    assert_non_null(r);
    if (r->code) fprintf(stderr, "resend after recovery: code %d [%s] %s\n", r->code, r->rule, r->message);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* Sent twice more: still one record. */
    r = td_call_raw(g.seat[seat], order, len, TD_TIMEOUT);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_true(th_count_orders(&d, g.gid) >= 0);
    int orders_after = th_count_orders(&d, g.gid);
    assert_true(orders_after == acked + 1);
    char path[512];
    snprintf(path, sizeof path, "%s/games/%s.log", d.dir, g.gid);
    int skipped, vr = td_replay_verify(path, &skipped);
    assert_true(vr == 0 || vr == 2);
    /* The game goes on to its end. */
    for (int guard = 0; guard < 1000; guard++) {
        int rc = th_play_one(&g, &rid, NULL, NULL);
        assert_true(rc >= 0);
        if (rc == 0) break;
    }
    assert_int_equal(td_replay_verify(path, &skipped), 0);
    free(order);
    th_game_end(&g);
    td_client_destroy(&admin);
    td_kill9(&d);
    td_rmrf(d.dir);
}

static void test_fdatasync_eio_once(void **state) {
    (void)state;
    fault fl = {"fdatasync", "EIO", "once", NULL, 1};
    s_sync_scenario(&fl, 3, 0);
}

static void test_fdatasync_enospc_persistent(void **state) {
    (void)state;
    fault fl = {"fdatasync", "ENOSPC", "persist", NULL, 1};
    s_sync_scenario(&fl, 2, 1);
}

static void test_write_enospc_persistent(void **state) {
    (void)state;
    fault fl = {"write", "ENOSPC", "persist", NULL, 1};
    s_sync_scenario(&fl, 4, 1);
}

static void test_write_eio_once(void **state) {
    (void)state;
    fault fl = {"write", "EIO", "once", NULL, 1};
    s_sync_scenario(&fl, 1, 0);
}

static void test_sweep(void **state) {
    (void)state;
    if (!th_long()) {
        fprintf(stderr, "sweep over N: BERTHIER_LONG=1\n");
        skip();
    }
    const char *ops[] = {"fdatasync", "write"};
    for (int o = 0; o < 2; o++)
        for (int before = 0; before < 12; before++) {
            fault fl = {ops[o], before % 2 ? "ENOSPC" : "EIO", before % 3 ? "once" : "persist", NULL, 1};
            s_sync_scenario(&fl, before, before % 3 == 0);
        }
}

/* Creating a game while its files cannot be written or synced. */
static void test_create_faults(void **state) {
    (void)state;
    const char *ops[] = {"write", "fsync", "fdatasync"};
    int longs = th_long();
    for (int o = 0; o < 3; o++)
        for (long n = 1; n <= (longs ? 4 : 2); n++) {
            fault fl = {ops[o], n % 2 ? "EIO" : "ENOSPC", "once", "/games", n};
            td_daemon d;
            memset(&d, 0, sizeof d);
            assert_int_equal(s_start_faulty(&d, &fl), 0);
            td_client *admin = td_client_new(&d, d.admin_pub, d.admin_sec);
            uint8_t keys[2][32];
            for (int i = 0; i < 2; i++) {
                char p[41], s[41];
                zmq_curve_keypair(p, s);
                zmq_z85_decode(keys[i], p);
            }
            s_arm_now();
            int created = 0;
            for (int k = 0; k < 3; k++) {
                Berthier__V1__Reply *r = td_create(admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
                if (!r) break;   /* the daemon stopped */
                assert_true(r->code == 0 || r->code == BERTHIER__V1__CODE__CODE_IO_ERROR);
                if (r->code == 0) created++;
                berthier__v1__reply__free_unpacked(r, NULL);
            }
            int injected = s_faults_injected();
            if (td_alive(&d)) td_stop(&d);
            else assert_int_equal(s_wait_exit(&d, 5000), 1);
            /* Healthy restart: every game it lists has its log and seed, and verifies so far. */
            assert_int_equal(td_start(&d), 0);
            td_client_reconnect(admin, &d);
            Berthier__V1__Reply *r = td_gameref(admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
            assert_non_null(r);
            assert_int_equal(r->code, 0);
            assert_true((int)r->games->n_games >= created);
            for (size_t i = 0; i < r->games->n_games; i++) {
                char p[600];
                struct stat st;
                snprintf(p, sizeof p, "%s/games/%s.seed", d.dir, r->games->games[i]->game_id);
                assert_int_equal(stat(p, &st), 0);
                snprintf(p, sizeof p, "%s/games/%s.log", d.dir, r->games->games[i]->game_id);
                assert_int_equal(stat(p, &st), 0);
                int skipped, vr = td_replay_verify(p, &skipped);
                assert_true(vr == 0 || vr == 2);
            }
            size_t listed = r->games->n_games;
            berthier__v1__reply__free_unpacked(r, NULL);
            fprintf(stderr, "create under %s %s #%ld: %d injected, %d created, %zu listed after restart\n", fl.op,
                    fl.err, n, injected, created, listed);
            r = td_create(admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
            assert_non_null(r);
            assert_int_equal(r->code, 0);
            berthier__v1__reply__free_unpacked(r, NULL);
            td_client_destroy(&admin);
            td_kill9(&d);
            td_rmrf(d.dir);
        }
}

static void test_rename_at_first_start(void **state) {
    (void)state;
    fault fl = {"rename", "EIO", "persist", "/berthierd-test-", 1};
    td_daemon d;
    memset(&d, 0, sizeof d);
    int rc;
    {
        /* As s_start_faulty, but armed from the first call (no HARD_IOFAULT_ARM). */
        char asan[512];
        const char *old = getenv("ASAN_OPTIONS");
        snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0", old ? old : "", old && *old ? ":" : "");
        char *saved = old ? strdup(old) : NULL;
        snprintf(s_flog, sizeof s_flog, "%s/faults-rename.log", s_work);
        setenv("LD_PRELOAD", s_shim, 1);
        setenv("ASAN_OPTIONS", asan, 1);
        setenv("HARD_IOFAULT_OP", fl.op, 1);
        setenv("HARD_IOFAULT_N", "1", 1);
        setenv("HARD_IOFAULT_ERRNO", fl.err, 1);
        setenv("HARD_IOFAULT_MODE", fl.mode, 1);
        setenv("HARD_IOFAULT_MATCH", fl.match, 1);
        setenv("HARD_IOFAULT_LOG", s_flog, 1);
        rc = td_start(&d);
        unsetenv("LD_PRELOAD");
        if (saved) setenv("ASAN_OPTIONS", saved, 1);
        else unsetenv("ASAN_OPTIONS");
        free(saved);
        unsetenv("HARD_IOFAULT_OP");
        unsetenv("HARD_IOFAULT_N");
        unsetenv("HARD_IOFAULT_ERRNO");
        unsetenv("HARD_IOFAULT_MODE");
        unsetenv("HARD_IOFAULT_MATCH");
        unsetenv("HARD_IOFAULT_LOG");
    }
    assert_int_equal(rc, -2);
    assert_int_equal(d.last_exit, 1);
    assert_true(s_faults_injected() >= 1);
    /* Healthy: starts, with whole key files. */
    assert_int_equal(td_start(&d), 0);
    assert_int_equal(strlen(d.server_pub), 40);
    td_client *admin = td_client_new(&d, d.admin_pub, d.admin_sec);
    Berthier__V1__Reply *r = td_gameref(admin, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_true(r->hello->admin);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client_destroy(&admin);
    td_kill9(&d);
    td_rmrf(d.dir);
}

int main(void) {
    srand(5);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fdatasync_eio_once),
        cmocka_unit_test(test_fdatasync_enospc_persistent),
        cmocka_unit_test(test_write_enospc_persistent),
        cmocka_unit_test(test_write_eio_once),
        cmocka_unit_test(test_create_faults),
        cmocka_unit_test(test_rename_at_first_start),
        cmocka_unit_test(test_sweep),
    };
    return cmocka_run_group_tests(tests, s_group_setup, s_group_teardown);
}
