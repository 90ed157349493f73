/*
 * test_daemon_faults.c - I/O fault sweep. berthierd-faulty (the daemon built
 * with daemon/fault.c) fails the Nth log write or fdatasync, once or from then
 * on, optionally tearing the write. For each fault:
 *   - a failed creation answers CODE_IO_ERROR and leaves nothing behind;
 *   - a failed sync stops the daemon (exit 1) without acknowledging the round;
 *   - the plain daemon then restarts cleanly on the same data dir, every
 *     acknowledged order is in the log, retries get their original replies,
 *     and the game plays on to an end whose log verifies.
 * Short sweep by default; BERTHIER_LONG=1 sweeps N further.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "evlog.h"
#include "test_daemon_common.h"

typedef struct {
    uint64_t rid;
    unsigned seat;
    uint8_t *req, *rep;
    size_t req_len, rep_len;
} ack;

typedef struct {
    td_daemon d;
    td_client *admin, *seat[2];
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    char gid[32];
    ack acks[512];
    size_t nacks;
    uint64_t rid;
} run;

static void s_run_free(run *r) {
    td_kill9(&r->d);
    td_client_destroy(&r->admin);
    for (int i = 0; i < 2; i++) td_client_destroy(&r->seat[i]);
    for (size_t i = 0; i < r->nacks; i++) {
        free(r->acks[i].req);
        free(r->acks[i].rep);
    }
    td_rmrf(r->d.dir);
    memset(r, 0, sizeof *r);
}

/* Wait for a daemon that stopped by itself; its exit status. */
static int s_wait_exit(td_daemon *d) {
    if (d->pid <= 0) return d->last_exit;
    for (int i = 0; i < 500; i++) {
        int st = td_exited(d);
        if (st >= 0) return st;
        td_sleep_ms(10);
    }
    return -1;
}

/* Play until the game ends (1) or a call gets no reply (0). */
static int s_play(run *r, int record_acks) {
    for (int step = 0; step < 2000; step++) {
        int acted = 0;
        for (unsigned s = 0; s < 2; s++) {
            Berthier__V1__Reply *p = td_gameref(r->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, r->gid, s);
            if (!p) return 0;
            assert_int_equal(p->code, 0);
            int ended = p->decision->result && p->decision->result->ended;
            int must = p->decision->you_must_act;
            uint64_t seq = p->decision->seq;
            berthier__v1__reply__free_unpacked(p, NULL);
            if (ended) return 1;
            if (!must) continue;
            Berthier__V1__Reply *l = td_gameref(r->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, r->gid, s);
            if (!l) return 0;
            assert_int_equal(l->code, 0);
            size_t n;
            uint8_t *b = td_submit_bytes(++r->rid, r->gid, s, seq, NULL, l->legal->orders[step % l->legal->n_orders].data,
                                         l->legal->orders[step % l->legal->n_orders].len, &n);
            berthier__v1__reply__free_unpacked(l, NULL);
            if (td_send_raw(r->seat[s], b, n) != 0) {
                free(b);
                return 0;
            }
            zmq_pollitem_t it = {r->seat[s]->sock, 0, ZMQ_POLLIN, 0};
            int got = 0;
            for (int w = 0; w < 100 && !got; w++) {
                got = zmq_poll(&it, 1, 100) == 1;
                if (!got && r->d.pid <= 0) break;
                if (!got && td_exited(&r->d) >= 0) break;   /* it stopped: no reply will come */
            }
            if (!got) {
                free(b);
                return 0;
            }
            zmq_msg_t m;
            zmq_msg_init(&m);
            assert_true(zmq_msg_recv(&m, r->seat[s]->sock, 0) >= 0);
            Berthier__V1__Reply *a = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
            assert_non_null(a);
            assert_int_equal(a->code, 0);
            berthier__v1__reply__free_unpacked(a, NULL);
            if (record_acks && r->nacks < 512) {
                ack *k = &r->acks[r->nacks++];
                k->rid = r->rid;
                k->seat = s;
                k->req = b;
                k->req_len = n;
                k->rep_len = zmq_msg_size(&m);
                k->rep = malloc(k->rep_len);
                memcpy(k->rep, zmq_msg_data(&m), k->rep_len);
                b = NULL;
            }
            free(b);
            zmq_msg_close(&m);
            acted = 1;
        }
        if (!acted) td_sleep_ms(2);
    }
    return 1;
}

static void s_connect(run *r) {
    if (r->admin) td_client_reconnect(r->admin, &r->d);
    else r->admin = td_client_new(&r->d, r->d.admin_pub, r->d.admin_sec);
    for (int i = 0; i < 2; i++)
        if (r->gid[0]) {
            if (r->seat[i]) td_client_reconnect(r->seat[i], &r->d);
            else r->seat[i] = td_client_new(&r->d, r->pub[i], r->sec[i]);
        }
}

static void s_check_acks_in_log(run *r) {
    char p[512], err[200];
    snprintf(p, sizeof p, "%s/games/%s.log", r->d.dir, r->gid);
    evlog_reader *rd = evlog_reader_open(p, err, sizeof err);
    assert_non_null(rd);
    evlog_record rec;
    uint64_t seen[1024];
    size_t n = 0;
    while (evlog_reader_next(rd, &rec) == 1) {
        if (rec.kind != EVLOG_ORDER) continue;
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, rec.len, rec.payload);
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
        for (size_t k = 0; k < n; k++) assert_true(seen[k] != q->request_id);
        if (n < 1024) seen[n++] = q->request_id;
        berthier__v1__request__free_unpacked(q, NULL);
        berthier__v1__log_order__free_unpacked(o, NULL);
    }
    evlog_reader_destroy(&rd);
    for (size_t a = 0; a < r->nacks; a++) {
        int found = 0;
        for (size_t k = 0; k < n && !found; k++) found = seen[k] == r->acks[a].rid;
        if (!found) fail_msg("acknowledged order %llu is not in the log", (unsigned long long)r->acks[a].rid);
        /* and its retry gets the original reply */
        td_client *c = r->seat[r->acks[a].seat];
        assert_int_equal(td_send_raw(c, r->acks[a].req, r->acks[a].req_len), 0);
        zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
        assert_int_equal(zmq_poll(&it, 1, TD_TIMEOUT), 1);
        zmq_msg_t m;
        zmq_msg_init(&m);
        assert_true(zmq_msg_recv(&m, c->sock, 0) >= 0);
        assert_int_equal(zmq_msg_size(&m), r->acks[a].rep_len);
        assert_memory_equal(zmq_msg_data(&m), r->acks[a].rep, r->acks[a].rep_len);
        zmq_msg_close(&m);
    }
}

static void s_one(const char *spec) {
    run r;
    memset(&r, 0, sizeof r);
    r.rid = 1ull << 32;
    r.d.binary = "berthierd-faulty";
    snprintf(r.d.env, sizeof r.d.env, "BERTHIERD_FAULT=%s", spec);
    int rc = td_start(&r.d);
    if (rc != 0) fail_msg("%s: berthierd-faulty did not start", spec);
    s_connect(&r);
    td_fresh_keys(2, r.pub, r.sec, r.keys);
    int died = 0;
    /* Create: a failed creation is CODE_IO_ERROR and leaves nothing. */
    for (int tries = 0; tries < 3 && !r.gid[0]; tries++) {
        Berthier__V1__Reply *c = td_create(r.admin, "duel", "standard", 2, (const uint8_t(*)[32])r.keys, NULL, 0, 0, 0);
        assert_non_null(c);
        if (c->code == 0) snprintf(r.gid, sizeof r.gid, "%s", c->created->game_id);
        else {
            assert_int_equal(c->code, BERTHIER__V1__CODE__CODE_IO_ERROR);
            char cmd[400];
            snprintf(cmd, sizeof cmd, "test -z \"$(ls '%s/games')\"", r.d.dir);
            assert_int_equal(system(cmd), 0);
        }
        berthier__v1__reply__free_unpacked(c, NULL);
    }
    if (r.gid[0]) {
        s_connect(&r);
        for (unsigned s = 0; s < 2 && !died; s++) {
            Berthier__V1__Reply *j = td_join(r.seat[s], r.gid, s);
            if (!j) died = 1;
            else {
                assert_int_equal(j->code, 0);
                berthier__v1__reply__free_unpacked(j, NULL);
            }
        }
        if (!died && !s_play(&r, 1)) died = 1;
    }
    if (died) {
        assert_int_equal(s_wait_exit(&r.d), 1);
    } else {
        assert_int_equal(td_stop(&r.d), 0);
    }
    /* The plain daemon on the same data: clean start, nothing acknowledged lost. */
    r.d.binary = NULL;
    r.d.env[0] = 0;
    rc = td_start(&r.d);
    if (rc != 0) fail_msg("%s: berthierd did not restart after the fault (see %s/daemon.log)", spec, r.d.dir);
    if (r.gid[0]) {
        s_connect(&r);
        s_check_acks_in_log(&r);
        for (unsigned s = 0; s < 2; s++) {
            Berthier__V1__Reply *j = td_join(r.seat[s], r.gid, s);
            assert_non_null(j);
            assert_true(j->code == 0 || j->code == BERTHIER__V1__CODE__CODE_ALREADY_JOINED ||
                        j->code == BERTHIER__V1__CODE__CODE_GAME_OVER);
            berthier__v1__reply__free_unpacked(j, NULL);
        }
        assert_int_equal(s_play(&r, 0), 1);
        assert_int_equal(td_stop(&r.d), 0);
        char p[512];
        snprintf(p, sizeof p, "%s/games/%s.log", r.d.dir, r.gid);
        int skipped;
        int vrc = td_replay_verify(p, &skipped);
        if (!skipped) assert_int_equal(vrc, 0);
    }
    fprintf(stderr, "fault %-28s %s, %zu orders acknowledged before it\n", spec,
            died ? "stopped the daemon" : "did not stop it", r.nacks);
    s_run_free(&r);
}

static void test_fault_sweep(void **state) {
    (void)state;
    const char *lg = getenv("BERTHIER_LONG");
    int longer = lg && lg[0] == '1';
    int top = longer ? 40 : 8;
    char spec[64];
    for (int n = 1; n <= top; n += longer ? 1 : 3) {
        snprintf(spec, sizeof spec, "fdatasync=%d", n);
        s_one(spec);
        snprintf(spec, sizeof spec, "write=%d", n);
        s_one(spec);
        snprintf(spec, sizeof spec, "write=%d,tear", n);
        s_one(spec);
    }
    s_one("fdatasync=3,persistent");
    s_one("write=4,persistent,tear");
}

int main(void) {
    const char *bindir = getenv("BERTHIER_BIN");
    char bin[512];
    snprintf(bin, sizeof bin, "%s/berthierd-faulty", bindir ? bindir : "build/bin");
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "SKIP: %s is not built\n", bin);
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fault_sweep)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
