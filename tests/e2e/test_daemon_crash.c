/*
 * test_daemon_crash.c - kill -9 of berthierd at random moments under load,
 * then a restart, many times over. After every restart:
 *   - every order the daemon acknowledged is in its game's log;
 *   - no order appears twice (a request id is applied once);
 *   - a retry of every acknowledged order gets the very same reply bytes;
 * and in the end every game is played to its finish and its log verifies.
 *
 * Short form by default; BERTHIER_LONG=1 runs many more iterations.
 * BERTHIER_SEED picks the random sequence (printed, so a failure can be rerun).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "evlog.h"
#include "test_daemon_common.h"

#define NG 3          /* games played at once */
#define MAX_ACK 20000

typedef struct {
    int game;
    char gid[32];
    unsigned seat;
    uint64_t rid;
    uint8_t *request;
    size_t request_len;
    uint8_t *reply;
    size_t reply_len;
} ack;

typedef struct {
    char id[32];
    int ended;
} game;

typedef struct {
    td_daemon d;
    td_client *admin;
    td_client *seat[NG][2];
    char pub[NG][2][41], sec[NG][2][41];
    game g[NG];
    ack acks[MAX_ACK];
    size_t nacks;
    uint64_t next_rid;
    unsigned rng;
    int restarts, kills;
} fx;

static unsigned s_rand(fx *f) {
    f->rng = f->rng * 1103515245u + 12345u;
    return (f->rng >> 8) & 0xffffff;
}

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    const char *seed = getenv("BERTHIER_SEED");
    f->rng = seed ? (unsigned)strtoul(seed, NULL, 10) : 20261130u;
    fprintf(stderr, "kill -9 loop: BERTHIER_SEED=%u\n", f->rng);
    f->next_rid = 1ull << 40;   /* apart from the ids the helpers draw (1000 up) */
    *state = f;
    return td_start(&f->d) == 0 ? 0 : -1;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_kill9(&f->d);
    td_client_destroy(&f->admin);
    for (int i = 0; i < NG; i++)
        for (int s = 0; s < 2; s++) td_client_destroy(&f->seat[i][s]);
    for (size_t i = 0; i < f->nacks; i++) {
        free(f->acks[i].request);
        free(f->acks[i].reply);
    }
    td_rmrf(f->d.dir);
    free(f);
    return 0;
}

static void s_connect_all(fx *f) {
    if (f->admin) td_client_reconnect(f->admin, &f->d);
    else f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    for (int i = 0; i < NG; i++)
        for (int s = 0; s < 2; s++)
            if (f->g[i].id[0]) {
                if (f->seat[i][s]) td_client_reconnect(f->seat[i][s], &f->d);
                else f->seat[i][s] = td_client_new(&f->d, f->pub[i][s], f->sec[i][s]);
            }
}

static void s_new_game(fx *f, int i) {
    uint8_t keys[2][32];
    for (int s = 0; s < 2; s++) {
        zmq_curve_keypair(f->pub[i][s], f->sec[i][s]);
        zmq_z85_decode(keys[s], f->pub[i][s]);
        td_client_destroy(&f->seat[i][s]);
    }
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    snprintf(f->g[i].id, sizeof f->g[i].id, "%s", r->created->game_id);
    f->g[i].ended = 0;
    berthier__v1__reply__free_unpacked(r, NULL);
    for (int s = 0; s < 2; s++) f->seat[i][s] = td_client_new(&f->d, f->pub[i][s], f->sec[i][s]);
}

/* Joins may be lost to a kill too: join until the seat is in. */
static void s_ensure_joined(fx *f, int i) {
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_join(f->seat[i][s], f->g[i].id, s);
        assert_non_null(r);
        assert_true(r->code == 0 || r->code == BERTHIER__V1__CODE__CODE_ALREADY_JOINED ||
                    r->code == BERTHIER__V1__CODE__CODE_GAME_OVER);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
}

/* Every acknowledged order is in its game's log; no request id is applied twice. */
static void s_check_log(fx *f, const char *gid) {
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/games/%s.log", f->d.dir, gid);
    evlog_reader *rd = evlog_reader_open(path, err, sizeof err);
    if (!rd) fail_msg("cannot read %s: %s", path, err);
    uint64_t *rids = calloc(8192, sizeof *rids);
    unsigned *seats = calloc(8192, sizeof *seats);
    size_t n = 0;
    evlog_record rec;
    int rc;
    while ((rc = evlog_reader_next(rd, &rec)) == 1) {
        if (rec.kind != EVLOG_ORDER) continue;
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, rec.len, rec.payload);
        assert_non_null(o);
        Berthier__V1__Request *q = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
        assert_non_null(q);
        for (size_t k = 0; k < n; k++)
            if (rids[k] == q->request_id && seats[k] == o->seat)
                fail_msg("request id %llu applied twice in game %s", (unsigned long long)q->request_id, gid);
        if (n < 8192) {
            rids[n] = q->request_id;
            seats[n] = o->seat;
            n++;
        }
        berthier__v1__request__free_unpacked(q, NULL);
        berthier__v1__log_order__free_unpacked(o, NULL);
    }
    assert_int_equal(rc, 0);
    evlog_reader_destroy(&rd);
    for (size_t a = 0; a < f->nacks; a++) {
        if (strcmp(f->acks[a].gid, gid) != 0) continue;
        int found = 0;
        for (size_t k = 0; k < n && !found; k++) found = rids[k] == f->acks[a].rid && seats[k] == f->acks[a].seat;
        if (!found)
            fail_msg("acknowledged order %llu of game %s is not in the log", (unsigned long long)f->acks[a].rid, gid);
    }
    free(rids);
    free(seats);
}

static void s_check_logs(fx *f) {
    /* Every game ever played in this run: the current ones and those of the acks. */
    for (int i = 0; i < NG; i++)
        if (f->g[i].id[0]) s_check_log(f, f->g[i].id);
    for (size_t a = 0; a < f->nacks; a++) {
        int seen = 0;
        for (size_t b = 0; b < a && !seen; b++) seen = strcmp(f->acks[b].gid, f->acks[a].gid) == 0;
        for (int i = 0; i < NG && !seen; i++) seen = strcmp(f->g[i].id, f->acks[a].gid) == 0;
        if (!seen) s_check_log(f, f->acks[a].gid);
    }
}

/* A retry of each order acknowledged since the last check, and of a sample
 * of older ones, gets the very same bytes back. */
static void s_check_retries(fx *f, size_t *checked_upto) {
    size_t sample = 16;
    for (size_t j = 0; j < f->nacks; j++) {
        size_t a = j;
        if (j < *checked_upto) {
            if (sample == 0) continue;
            sample--;
            a = s_rand(f) % *checked_upto;
        }
        ack *k = &f->acks[a];
        if (strcmp(f->g[k->game].id, k->gid) != 0) continue; /* a finished game's seats are gone */
        td_client *c = f->seat[k->game][k->seat];
        if (td_send_raw(c, k->request, k->request_len) != 0) fail_msg("send failed");
        zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
        assert_int_equal(zmq_poll(&it, 1, TD_TIMEOUT), 1);
        zmq_msg_t m;
        zmq_msg_init(&m);
        assert_true(zmq_msg_recv(&m, c->sock, 0) >= 0);
        if (zmq_msg_size(&m) != k->reply_len || memcmp(zmq_msg_data(&m), k->reply, k->reply_len) != 0)
            fail_msg("the retry of order %llu got another reply", (unsigned long long)k->rid);
        zmq_msg_close(&m);
    }
    *checked_upto = f->nacks;
}

typedef struct {
    int game;
    unsigned seat;
    uint64_t rid;
    uint8_t *bytes;
    size_t len;
} inflight;

/* One step: every seat that must act sends an order; kill decides whether the
 * daemon dies before the replies are read. Returns 1 when all games ended. */
static int s_step(fx *f, int kill_now) {
    inflight fl[NG * 2];
    int nfl = 0, all_ended = 1;
    for (int i = 0; i < NG; i++) {
        if (!f->g[i].id[0] || f->g[i].ended) continue;
        for (unsigned s = 0; s < 2; s++) {
            Berthier__V1__Reply *r = td_gameref(f->seat[i][s], BERTHIER__V1__REQUEST__BODY_PENDING, f->g[i].id, s);
            assert_non_null(r);
            assert_int_equal(r->code, 0);
            if (r->decision->result && r->decision->result->ended) f->g[i].ended = 1;
            int must = r->decision->you_must_act && !f->g[i].ended;
            uint64_t seq = r->decision->seq;
            berthier__v1__reply__free_unpacked(r, NULL);
            if (!must) continue;
            r = td_gameref(f->seat[i][s], BERTHIER__V1__REQUEST__BODY_LEGAL, f->g[i].id, s);
            assert_non_null(r);
            if (r->code != 0 || r->legal->n_orders == 0) {
                berthier__v1__reply__free_unpacked(r, NULL);
                continue;
            }
            size_t pick = s_rand(f) % r->legal->n_orders;
            inflight *x = &fl[nfl++];
            x->game = i;
            x->seat = s;
            x->rid = f->next_rid++;
            x->bytes = td_submit_bytes(x->rid, f->g[i].id, s, seq, NULL, r->legal->orders[pick].data,
                                       r->legal->orders[pick].len, &x->len);
            berthier__v1__reply__free_unpacked(r, NULL);
        }
        if (!f->g[i].ended) all_ended = 0;
    }
    for (int k = 0; k < nfl; k++) td_send_raw(f->seat[fl[k].game][fl[k].seat], fl[k].bytes, fl[k].len);
    if (kill_now) {
        td_sleep_ms(s_rand(f) % 3);
        td_kill9(&f->d);
        f->kills++;
    }
    for (int k = 0; k < nfl; k++) {
        td_client *c = f->seat[fl[k].game][fl[k].seat];
        zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, kill_now ? 50 : TD_TIMEOUT) == 1) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, c->sock, 0) >= 0) {
                Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
                assert_non_null(r);
                if (r->code == 0 && f->nacks < MAX_ACK) {
                    ack *a = &f->acks[f->nacks++];
                    a->game = fl[k].game;
                    memcpy(a->gid, f->g[fl[k].game].id, sizeof a->gid); /* same size, NUL-terminated */
                    a->seat = fl[k].seat;
                    a->rid = fl[k].rid;
                    a->request = fl[k].bytes;
                    a->request_len = fl[k].len;
                    a->reply_len = zmq_msg_size(&m);
                    a->reply = malloc(a->reply_len);
                    memcpy(a->reply, zmq_msg_data(&m), a->reply_len);
                    fl[k].bytes = NULL;
                } else if (!kill_now && r->code != 0) {
                    fail_msg("order refused without a kill: %d %s", r->code, r->message);
                }
                berthier__v1__reply__free_unpacked(r, NULL);
            }
            zmq_msg_close(&m);
        } else if (!kill_now) {
            fail_msg("no reply from a live daemon");
        }
        free(fl[k].bytes);
    }
    return all_ended;
}

static void s_restart(fx *f) {
    int rc = td_start(&f->d);
    if (rc != 0) fail_msg("berthierd did not restart (exit %d; see %s/daemon.log)", f->d.last_exit, f->d.dir);
    f->restarts++;
    s_connect_all(f);
}

static void test_kill9_loop(void **state) {
    fx *f = *state;
    const char *lg = getenv("BERTHIER_LONG");
    int iterations = lg && lg[0] == '1' ? 300 : 25;
    size_t checked_upto = 0;
    s_connect_all(f);
    for (int i = 0; i < NG; i++) s_new_game(f, i);
    for (int i = 0; i < NG; i++) s_ensure_joined(f, i);
    for (int it = 0; it < iterations; it++) {
        /* A few clean steps, then one that ends in kill -9. */
        int clean = (int)(s_rand(f) % 4);
        for (int k = 0; k < clean; k++) s_step(f, 0);
        s_step(f, 1);
        s_restart(f);
        s_check_logs(f);
        s_check_retries(f, &checked_upto);
        for (int i = 0; i < NG; i++) {
            s_ensure_joined(f, i);
            if (f->g[i].ended && it + 1 < iterations) {
                s_new_game(f, i);
                s_ensure_joined(f, i);
            }
        }
    }
    /* Play every game to its end, then verify every log. */
    for (int k = 0; k < 1000; k++)
        if (s_step(f, 0)) break;
    for (int i = 0; i < NG; i++) assert_true(f->g[i].ended);
    s_check_logs(f);
    assert_int_equal(td_stop(&f->d), 0);
    fprintf(stderr, "%d kills, %d restarts, %zu acknowledged orders\n", f->kills, f->restarts, f->nacks);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s/games", f->d.dir);
    int skipped = 0, checked = 0;
    for (int i = 0; i < NG; i++) {
        char logp[700];
        snprintf(logp, sizeof logp, "%s/%s.log", cmd, f->g[i].id);
        int rc = td_replay_verify(logp, &skipped);
        if (skipped) break;
        assert_int_equal(rc, 0);
        checked++;
    }
    if (skipped) fprintf(stderr, "note: build/bin/berthier-replay is absent; logs were not verified by it\n");
    (void)checked;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kill9_loop, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
