/*
 * test_daemon_finished.c - ended games are indexed (<id>.fin) and not re-executed at
 * start-up (docs/daemon.md "Finished games"). The daemon's start-up line counts the
 * inputs it re-executed; the test counts, never times:
 *   - 200 ended games (one of them played: joins and orders) come back with 0 inputs
 *     re-executed, and are listed with their results;
 *   - requests about a game kept on disk are answered (state, events, header, fetch_log),
 *     and only state brings it back (a log line counts it): the others are read from disk;
 *   - a missing index and one that does not match its log are rebuilt: those two games'
 *     inputs are re-executed once, and the next start re-executes none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "evlog.h"
#include "test_daemon_common.h"

enum { S_GAMES = 200 };

typedef struct {
    td_daemon d;
    td_client *admin, *seat[2];
    char pub[2][41], sec[2][41];
    char (*gid)[32];
} fx;

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    f->gid = calloc(S_GAMES, sizeof *f->gid);
    *state = f;
    return td_start(&f->d) == 0 ? 0 : -1;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_fixture_end(&f->d, &f->admin, f->seat, 2);
    free(f->gid);
    free(f);
    return 0;
}

static void s_connect(fx *f) {
    if (f->admin) td_client_reconnect(f->admin, &f->d);
    else f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    for (int i = 0; i < 2; i++) {
        if (f->seat[i]) td_client_reconnect(f->seat[i], &f->d);
        else f->seat[i] = td_client_new(&f->d, f->pub[i], f->sec[i]);
    }
}

static void s_ok(Berthier__V1__Reply *r) {
    assert_non_null(r);
    if (r->code != 0) fprintf(stderr, "reply %d: %s\n", r->code, r->message);
    assert_int_equal(r->code, 0);
}

static void s_abort(fx *f, const char *gid) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__AbortGame ab = BERTHIER__V1__ABORT_GAME__INIT;
    ab.game_id = (char *)gid;
    ab.reason = (char *)"the test ends it";
    req.body_case = BERTHIER__V1__REQUEST__BODY_ABORT;
    req.abort = &ab;
    Berthier__V1__Reply *r = td_call(f->admin, &req, TD_TIMEOUT);
    s_ok(r);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* Play the duel game to its end (returns the number of orders accepted). */
static int s_play(fx *f, const char *gid) {
    int orders = 0;
    for (int k = 0; k < 2000; k++) {
        int acted = 0;
        for (unsigned s = 0; s < 2; s++) {
            Berthier__V1__Reply *r = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, gid, s);
            s_ok(r);
            int ended = r->decision->result && r->decision->result->ended;
            int must = r->decision->you_must_act;
            uint64_t seq = r->decision->seq;
            berthier__v1__reply__free_unpacked(r, NULL);
            if (ended) return orders;
            if (!must) continue;
            r = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, gid, s);
            s_ok(r);
            assert_true(r->legal->n_orders > 0);
            size_t n;
            uint8_t *b = td_submit_bytes(++f->seat[s]->next_id + 1000000u * (unsigned)f->d.pid, gid, s, seq, NULL,
                                         r->legal->orders[0].data, r->legal->orders[0].len, &n);
            berthier__v1__reply__free_unpacked(r, NULL);
            r = td_call_raw(f->seat[s], b, n, TD_TIMEOUT);
            free(b);
            s_ok(r);
            berthier__v1__reply__free_unpacked(r, NULL);
            orders++;
            acted = 1;
        }
        if (!acted) td_sleep_ms(5);
    }
    fail_msg("the game did not end");
    return orders;
}

/* Inputs in a log: every record but the header and the outcomes. */
static unsigned long long s_inputs(const char *logp) {
    char err[256];
    evlog_reader *rd = evlog_reader_open(logp, err, sizeof err);
    assert_non_null(rd);
    evlog_record r;
    unsigned long long n = 0;
    while (evlog_reader_next(rd, &r) == 1)
        if (r.kind != EVLOG_HEADER && r.kind < EVLOG_DICE) n++;
    evlog_reader_destroy(&rd);
    return n;
}

static void s_restart(fx *f) {
    assert_int_equal(td_stop(&f->d), 0);
    assert_int_equal(td_start(&f->d), 0);
    s_connect(f);
}

static void s_expect_start(fx *f, int which, unsigned long long reexecuted) {
    char want[128];
    snprintf(want, sizeof want, "recovered %d games (%d ended ones kept on disk); %llu inputs re-executed", S_GAMES,
             S_GAMES, reexecuted);
    int n = td_log_count(&f->d, want);
    if (n < which) fprintf(stderr, "no start-up line \"%s\" (start %d) in %s/daemon.log\n", want, which, f->d.dir);
    assert_true(n >= which);
}

static void test_no_reexecution(void **state) {
    fx *f = *state;
    if (getenv("BERTHIER_KEEP")) fprintf(stderr, "data dir %s\n", f->d.dir);
    uint8_t keys[2][32];
    td_fresh_keys(2, f->pub, f->sec, keys);
    f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    for (int i = 0; i < S_GAMES; i++) {
        Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
        s_ok(r);
        snprintf(f->gid[i], sizeof f->gid[i], "%s", r->created->game_id);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    s_connect(f);   /* the seat keys are known now (a key of no game is refused at the handshake) */
    /* game 0 is played to its end; the others are aborted */
    const char *played = f->gid[0];
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_join(f->seat[s], played, s);
        s_ok(r);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    assert_true(s_play(f, played) > 0);
    for (int i = 1; i < S_GAMES; i++) s_abort(f, f->gid[i]);
    char logp[512], finp[512];
    for (int i = 0; i < S_GAMES; i++) {
        snprintf(finp, sizeof finp, "%s/games/%s.fin", f->d.dir, f->gid[i]);
        assert_int_equal(access(finp, F_OK), 0);
    }

    /* 1. every game comes back from its index */
    s_restart(f);
    s_expect_start(f, 1, 0);
    Berthier__V1__Reply *r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, S_GAMES);
    for (size_t i = 0; i < r->games->n_games; i++) {
        assert_non_null(r->games->games[i]->result);
        assert_true(r->games->games[i]->result->ended);
        assert_string_equal(r->games->games[i]->ruleset, "duel");
    }
    berthier__v1__reply__free_unpacked(r, NULL);
    /* a seat's list shows its seats of a game on disk */
    r = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, S_GAMES);
    assert_int_equal(r->games->games[0]->n_your_seats, 1);
    assert_int_equal(r->games->games[0]->your_seats[0], 1);
    berthier__v1__reply__free_unpacked(r, NULL);

    /* 2. requests about games kept on disk */
    snprintf(logp, sizeof logp, "%s/games/%s.log", f->d.dir, played);
    size_t flen = 0;
    uint8_t *bytes = td_slurp(logp, &flen);
    assert_non_null(bytes);
    {
        Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
        Berthier__V1__FetchLog fl = BERTHIER__V1__FETCH_LOG__INIT;
        fl.game_id = (char *)played;
        fl.max_bytes = (uint32_t)flen;
        req.body_case = BERTHIER__V1__REQUEST__BODY_FETCH_LOG;
        req.fetch_log = &fl;
        r = td_call(f->seat[0], &req, TD_TIMEOUT);
        s_ok(r);
        assert_int_equal(r->log->offset, 0);
        if (r->log->eof) {
            assert_int_equal(r->log->data.len, flen);
            assert_memory_equal(r->log->data.data, bytes, flen);
        }
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    free(bytes);
    r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_EVENTS, played, 0);
    s_ok(r);
    assert_true(r->events->n_events > 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    {
        Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
        Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
        g.game_id = (char *)played;
        g.seat = 1;
        req.body_case = BERTHIER__V1__REQUEST__BODY_HEADER;
        req.header = &g;
        r = td_call(f->seat[1], &req, TD_TIMEOUT);
        s_ok(r);
        assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_HEADER);
        assert_true(r->header->header.len > 0);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    /* fetch_log, events and header are read from disk (the log, its record index <id>.evx):
     * the game is not brought back; state needs its final state and is */
    snprintf(finp, sizeof finp, "%s/games/%s.evx", f->d.dir, played);
    assert_int_equal(access(finp, F_OK), 0);
    assert_int_equal(td_log_count(&f->d, "brought back from its log"), 0);
    r = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_STATE, played, 1);
    s_ok(r);
    assert_true(r->state->view.len > 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(td_log_count(&f->d, "brought back from its log"), 1);
    r = td_gameref(f->seat[0], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid[7], 0);
    s_ok(r);
    assert_non_null(r->decision->result);
    assert_true(r->decision->result->ended);
    berthier__v1__reply__free_unpacked(r, NULL);

    /* 3. a missing index and a stale one (it no longer matches its log) are rebuilt */
    unsigned long long want = s_inputs(logp);
    assert_true(want > 2);
    snprintf(finp, sizeof finp, "%s/games/%s.fin", f->d.dir, played);
    assert_int_equal(unlink(finp), 0);
    char log2[512], fin2[512];
    snprintf(log2, sizeof log2, "%s/games/%s.log", f->d.dir, f->gid[3]);
    snprintf(fin2, sizeof fin2, "%s/games/%s.fin", f->d.dir, f->gid[3]);
    want += s_inputs(log2);
    {
        /* an index from before the game's log grew: its size is off by one byte */
        size_t n = 0;
        uint8_t *b = td_slurp(fin2, &n);
        assert_non_null(b);
        assert_true(n > 24);
        b[16] ^= 1;   /* log_bytes (the checksum fails too: either way it is rebuilt) */
        FILE *fp = fopen(fin2, "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(b, 1, n, fp), n);
        fclose(fp);
        free(b);
    }
    s_restart(f);
    s_expect_start(f, 1, want);
    assert_int_equal(access(finp, F_OK), 0);
    /* 4. and then they are not re-executed again */
    s_restart(f);
    s_expect_start(f, 2, 0);
    r = td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0);
    s_ok(r);
    assert_int_equal(r->games->n_games, S_GAMES);
    berthier__v1__reply__free_unpacked(r, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_reexecution, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
