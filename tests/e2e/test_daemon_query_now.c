/*
 * test_daemon_query_now.c - when a query's reply may leave (docs/daemon.md,
 * "Query replies"). berthierd-faulty with BERTHIERD_FAULT=gate=DIR stops every
 * log fdatasync in the middle of its commit round (DIR/wait.N appears; the
 * test lets it go with DIR/go.N), so the test sees where a round stands
 * without measuring any time:
 *   - a query about a game with nothing unsynced is answered while a round is
 *     stopped in the fdatasync of another game's order, ahead of that order's
 *     reply on the same connection;
 *   - a query about a game whose order is in flight (appended, not yet
 *     synced) gets no reply before that fdatasync has returned, comes after
 *     the order's reply, and shows the state after the order;
 *   - an order taken during a flush is applied only after it, and a query
 *     pipelined behind it waits for the order's own fdatasync;
 *   - [issue 11, attack 5] a query of one seat is answered while the
 *     fdatasync of the other seat's sealed choice is held: its latency does
 *     not tell that the choice was made. The choice's own seat still waits.
 *   - the games then play on and the daemon stops cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_daemon_common.h"

#define NGAMES 3

typedef struct {
    td_daemon d;
    char gate[200];
    td_client *admin, *seat[2];
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    char gid[NGAMES][32];
    uint64_t rid;
    long released;   /* highest N with go.N written */
} fx;

static int s_exists(const char *path) { return access(path, F_OK) == 0; }

static void s_touch(const char *dir, const char *name) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

/* The next fdatasync the gate stops: waits for DIR/wait.N, N > released.
 * A wait for a condition, not a measure of time (the 60 s cap only turns a
 * hang into a failure). */
static long s_wait_stopped(fx *f) {
    char p[400];
    for (int i = 0; i < 60000; i++) {
        for (long n = f->released + 1; n < f->released + 64; n++) {
            snprintf(p, sizeof p, "%s/wait.%ld", f->gate, n);
            if (s_exists(p)) return n;
        }
        td_sleep_ms(1);
    }
    fail_msg("no fdatasync reached the gate");
    return -1;
}

static void s_release(fx *f, long n) {
    char name[64];
    snprintf(name, sizeof name, "go.%ld", n);
    s_touch(f->gate, name);
    if (n > f->released) f->released = n;
}

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->d.dir, sizeof f->d.dir, "/tmp/berthierd-test-XXXXXX");
    assert_non_null(mkdtemp(f->d.dir));
    snprintf(f->gate, sizeof f->gate, "%.180s/gate", f->d.dir);
    assert_int_equal(mkdir(f->gate, 0700), 0);
    f->d.binary = "berthierd-faulty";
    snprintf(f->d.env, sizeof f->d.env, "BERTHIERD_FAULT=gate=%.200s", f->gate);
    assert_int_equal(td_start(&f->d), 0);
    f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    assert_non_null(f->admin);
    td_fresh_keys(2, f->pub, f->sec, f->keys);
    /* Every game's seat i is bound to key i: one connection per seat serves them all. */
    for (int g = 0; g < NGAMES; g++) {
        Berthier__V1__Reply *c = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])f->keys, NULL, 0, 0, 0);
        assert_non_null(c);
        assert_int_equal(c->code, 0);
        snprintf(f->gid[g], sizeof f->gid[g], "%s", c->created->game_id);
        berthier__v1__reply__free_unpacked(c, NULL);
    }
    for (int i = 0; i < 2; i++) {
        f->seat[i] = td_client_new(&f->d, f->pub[i], f->sec[i]);
        assert_non_null(f->seat[i]);
    }
    for (int g = 0; g < NGAMES; g++)
        for (unsigned s = 0; s < 2; s++) {
            Berthier__V1__Reply *j = td_join(f->seat[s], f->gid[g], s);
            assert_non_null(j);
            assert_int_equal(j->code, 0);
            berthier__v1__reply__free_unpacked(j, NULL);
        }
    f->rid = 1ull << 40;
    *state = f;
    return 0;
}

static int s_teardown(void **state) {
    fx *f = *state;
    char p[400];
    snprintf(p, sizeof p, "%s/hold", f->gate);
    unlink(p);   /* let any stopped fdatasync go, then stop */
    assert_int_equal(td_stop(&f->d), 0);
    td_client_destroy(&f->admin);
    for (int i = 0; i < 2; i++) td_client_destroy(&f->seat[i]);
    td_rmrf(f->d.dir);
    free(f);
    return 0;
}

/* The seat that must act in game g, its decision seq and a legal order (the
 * first one). Queries on a game with nothing unsynced: no fdatasync is needed. */
static unsigned s_actor(fx *f, int g, uint64_t *seq, uint8_t **order, size_t *olen) {
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *p = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid[g], s);
        assert_non_null(p);
        assert_int_equal(p->code, 0);
        assert_null(p->decision->result);
        int must = p->decision->you_must_act;
        *seq = p->decision->seq;
        berthier__v1__reply__free_unpacked(p, NULL);
        if (!must) continue;
        Berthier__V1__Reply *l = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid[g], s);
        assert_non_null(l);
        assert_int_equal(l->code, 0);
        assert_true(l->legal->n_orders > 0);
        *olen = l->legal->orders[0].len;
        *order = malloc(*olen ? *olen : 1);
        memcpy(*order, l->legal->orders[0].data, *olen);
        berthier__v1__reply__free_unpacked(l, NULL);
        return s;
    }
    fail_msg("no seat must act in game %s", f->gid[g]);
    *order = NULL;
    *olen = 0;
    return 0;
}

/* The actor's order in game g, ready to send (asked while the game is synced). */
typedef struct {
    unsigned seat;
    uint64_t seq, rid;
    uint8_t *bytes;
    size_t len;
} s_order;

static void s_prepare_order(fx *f, int g, s_order *o) {
    uint8_t *order = NULL;
    size_t olen = 0;
    o->seat = s_actor(f, g, &o->seq, &order, &olen);
    o->rid = ++f->rid;
    o->bytes = td_submit_bytes(o->rid, f->gid[g], o->seat, o->seq, NULL, order, olen, &o->len);
    free(order);
}

static void s_send_order(fx *f, s_order *o) {
    assert_int_equal(td_send_raw(f->seat[o->seat], o->bytes, o->len), 0);
    free(o->bytes);
    o->bytes = NULL;
}

static uint64_t s_send_pending(fx *f, unsigned seat, int g) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef ref = BERTHIER__V1__GAME_REF__INIT;
    ref.game_id = f->gid[g];
    ref.seat = seat;
    req.request_id = ++f->rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
    req.pending = &ref;
    size_t n = berthier__v1__request__get_packed_size(&req);
    uint8_t buf[256];
    assert_true(n <= sizeof buf);
    berthier__v1__request__pack(&req, buf);
    assert_int_equal(td_send_raw(f->seat[seat], buf, n), 0);
    return req.request_id;
}

/* The next reply on c, which must answer request rid (the caller frees it). */
static Berthier__V1__Reply *s_reply_to(td_client *c, uint64_t rid) {
    Berthier__V1__Reply *r = td_recv(c, TD_TIMEOUT);
    assert_non_null(r);
    assert_int_equal(r->request_id, rid);
    return r;
}

/* The next reply on c acknowledges order rid: the seq it gives. */
static uint64_t s_acked_seq(td_client *c, uint64_t rid) {
    Berthier__V1__Reply *r = s_reply_to(c, rid);
    assert_int_equal(r->code, 0);
    uint64_t seq = r->accepted->seq;
    berthier__v1__reply__free_unpacked(r, NULL);
    return seq;
}

/* [P1] A query about a game whose order is in the round waits for the round's
 * fdatasync; it then follows the order's reply and shows its effect. */
static void test_query_on_unsynced_game_waits_for_the_sync(void **state) {
    fx *f = *state;
    s_touch(f->gate, "hold");
    s_order o;
    s_prepare_order(f, 1, &o);
    unsigned seat = o.seat;
    uint64_t seq = o.seq, order_rid = o.rid;
    s_send_order(f, &o);
    uint64_t query_rid = s_send_pending(f, seat, 1);
    long n = s_wait_stopped(f);
    /* The order's round is stopped in its fdatasync: neither the order nor the
     * query (taken in that round or waiting behind it) may be answered. A reply
     * here can only come from a daemon that reveals unsynced state. */
    Berthier__V1__Reply *early = td_recv(f->seat[seat], 300);
    if (early) fail_msg("reply to request %llu while its game's fdatasync %ld has not returned",
                        (unsigned long long)early->request_id, n);
    s_release(f, n);
    Berthier__V1__Reply *a = s_reply_to(f->seat[seat], order_rid);
    assert_int_equal(a->code, 0);
    uint64_t after = a->accepted->seq;
    int waiting = a->accepted->waiting;   /* a sealed choice, recorded: the seq stays */
    assert_true(waiting ? after == seq : after > seq);
    berthier__v1__reply__free_unpacked(a, NULL);
    Berthier__V1__Reply *q = s_reply_to(f->seat[seat], query_rid);
    assert_int_equal(q->code, 0);
    /* the state after the order: its seq, and a recorded sealed choice is not asked again */
    assert_int_equal(q->decision->seq, after);
    if (waiting) assert_false(q->decision->you_must_act);
    berthier__v1__reply__free_unpacked(q, NULL);
}

static td_client *s_conn(fx *f, unsigned seat) {
    td_client *c = td_client_new(&f->d, f->pub[seat], f->sec[seat]);
    assert_non_null(c);
    return c;
}

static uint64_t s_send_query(fx *f, td_client *c, Berthier__V1__Request__BodyCase kind, unsigned seat, int g) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef ref = BERTHIER__V1__GAME_REF__INIT;
    ref.game_id = f->gid[g];
    ref.seat = seat;
    req.request_id = ++f->rid;
    req.body_case = kind;
    if (kind == BERTHIER__V1__REQUEST__BODY_LEGAL) req.legal = &ref;
    else if (kind == BERTHIER__V1__REQUEST__BODY_STATE) req.state = &ref;
    else if (kind == BERTHIER__V1__REQUEST__BODY_EVENTS) req.events = &ref;
    else req.pending = &ref;
    size_t n = berthier__v1__request__get_packed_size(&req);
    uint8_t buf[256];
    assert_true(n <= sizeof buf);
    berthier__v1__request__pack(&req, buf);
    assert_int_equal(td_send_raw(c, buf, n), 0);
    return req.request_id;
}

/* Nothing may come while an fdatasync is held. The wait only bounds how long
 * the test looks; a reply here is always a failure, whatever the timing. */
static void s_expect_silence(td_client *c, const char *what) {
    Berthier__V1__Reply *r = td_recv(c, 300);
    if (r) fail_msg("%s: reply to request %llu while the fdatasync it depends on is held", what,
                    (unsigned long long)r->request_id);
}

/* While round 1's fdatasync (an order of game 2) is held:
 *   - a query about game 0 (nothing unsynced) is answered, on the very
 *     connection whose order waits, ahead of that order's reply;
 *   - a query about game 2 (in flight) by the order's own seat, on another
 *     connection of its key, is not (another seat's query would be: a sealed
 *     choice changes nothing it sees, see the next test);
 *   - an order of game 1 and a query about game 1 pipelined behind it are put
 *     off whole: the order is applied only once the flush has ended, in the
 *     next round, and the query then waits for that round's fdatasync and
 *     shows the order's effect. */
static void test_query_on_synced_game_does_not_wait_for_the_sync(void **state) {
    fx *f = *state;
    s_touch(f->gate, "hold");
    s_order o2, o1;
    s_prepare_order(f, 2, &o2);   /* asked while the games are synced */
    s_prepare_order(f, 1, &o1);
    uint64_t r2 = o2.rid, r1 = o1.rid;
    td_client *a = s_conn(f, o2.seat), *b = s_conn(f, o1.seat), *c = s_conn(f, o2.seat);
    assert_int_equal(td_send_raw(a, o2.bytes, o2.len), 0);
    free(o2.bytes);
    long n1 = s_wait_stopped(f);
    /* Round 1 is in its fdatasync: the query about game 0 leaves now. */
    uint64_t rq0 = s_send_query(f, a, BERTHIER__V1__REQUEST__BODY_PENDING, o2.seat, 0);
    Berthier__V1__Reply *q0 = s_reply_to(a, rq0);   /* not the order's reply: that one waits */
    assert_int_equal(q0->code, 0);
    assert_null(q0->decision->result);
    berthier__v1__reply__free_unpacked(q0, NULL);
    uint64_t rq2 = s_send_query(f, c, BERTHIER__V1__REQUEST__BODY_PENDING, o2.seat, 2);
    assert_int_equal(td_send_raw(b, o1.bytes, o1.len), 0);
    free(o1.bytes);
    uint64_t rl1 = s_send_query(f, b, BERTHIER__V1__REQUEST__BODY_LEGAL, o1.seat, 1);
    s_expect_silence(c, "a query about the game in flight");
    s_expect_silence(b, "an order taken during a flush");
    /* Round 1 ends: its order is acknowledged; the query about game 2 follows. */
    s_release(f, n1);
    uint64_t seq2 = s_acked_seq(a, r2);
    Berthier__V1__Reply *q2 = s_reply_to(c, rq2);
    assert_int_equal(q2->decision->seq, seq2);   /* the state after the order */
    berthier__v1__reply__free_unpacked(q2, NULL);
    /* Round 2 applies game 1's order and holds in its fdatasync. */
    long n2 = s_wait_stopped(f);
    s_expect_silence(b, "an order and a query of a game whose fdatasync is held");
    s_release(f, n2);
    uint64_t seq1 = s_acked_seq(b, r1);
    Berthier__V1__Reply *l1 = s_reply_to(b, rl1);
    /* after the order: either the seat's list at the new seq, or not its decision any more */
    if (l1->code == 0) assert_int_equal(l1->legal->seq, seq1);
    else assert_int_equal(l1->code, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION);
    berthier__v1__reply__free_unpacked(l1, NULL);
    td_client_destroy(&a);
    td_client_destroy(&b);
    td_client_destroy(&c);
}

/* [issue 11, attack 5] Seat A's sealed bid is recorded (the seq stays) and its
 * fdatasync held; seat B, which has not bid, asks pending, state, legal and
 * events: every reply comes while the fdatasync is held, and shows nothing of
 * A's bid (the same seq, B still to act). On the old code each of these
 * queries waited for A's fdatasync (the game had unsynced records), so B
 * could time its replies to learn that A had bid: here no reply would come
 * while the gate holds, and s_reply_to fails. A's own query, on another
 * connection of its key, still waits for its order. */
static void test_sealed_choice_does_not_delay_the_other_seat(void **state) {
    fx *f = *state;
    const int g = 0;
    /* both seats must bid, in secret */
    uint64_t seq = 0;
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *p = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid[g], s);
        assert_non_null(p);
        assert_int_equal(p->code, 0);
        assert_true(p->decision->sealed);
        assert_true(p->decision->you_must_act);
        seq = p->decision->seq;
        berthier__v1__reply__free_unpacked(p, NULL);
    }
    const unsigned sa = 0, sb = 1;
    Berthier__V1__Reply *l = td_gameref(f->seat[sa], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid[g], sa);
    assert_non_null(l);
    assert_int_equal(l->code, 0);
    assert_true(l->legal->n_orders > 0);
    size_t n;
    uint64_t order_rid = ++f->rid;
    uint8_t *bytes = td_submit_bytes(order_rid, f->gid[g], sa, seq, NULL, l->legal->orders[0].data,
                                     l->legal->orders[0].len, &n);
    berthier__v1__reply__free_unpacked(l, NULL);
    td_client *a2 = s_conn(f, sa);
    s_touch(f->gate, "hold");
    assert_int_equal(td_send_raw(f->seat[sa], bytes, n), 0);
    free(bytes);
    long held = s_wait_stopped(f);
    /* A's bid is appended and its fdatasync held: B is answered now. */
    uint64_t rp = s_send_query(f, f->seat[sb], BERTHIER__V1__REQUEST__BODY_PENDING, sb, g);
    Berthier__V1__Reply *p = s_reply_to(f->seat[sb], rp);
    assert_int_equal(p->code, 0);
    assert_int_equal(p->decision->seq, seq);
    assert_true(p->decision->you_must_act);
    berthier__v1__reply__free_unpacked(p, NULL);
    uint64_t rs = s_send_query(f, f->seat[sb], BERTHIER__V1__REQUEST__BODY_STATE, sb, g);
    Berthier__V1__Reply *st = s_reply_to(f->seat[sb], rs);
    assert_int_equal(st->code, 0);
    assert_int_equal(st->state->seq, seq);
    berthier__v1__reply__free_unpacked(st, NULL);
    uint64_t rl = s_send_query(f, f->seat[sb], BERTHIER__V1__REQUEST__BODY_LEGAL, sb, g);
    Berthier__V1__Reply *lg = s_reply_to(f->seat[sb], rl);
    assert_int_equal(lg->code, 0);
    assert_int_equal(lg->legal->seq, seq);
    berthier__v1__reply__free_unpacked(lg, NULL);
    uint64_t re = s_send_query(f, f->seat[sb], BERTHIER__V1__REQUEST__BODY_EVENTS, sb, g);
    Berthier__V1__Reply *ev = s_reply_to(f->seat[sb], re);
    assert_int_equal(ev->code, 0);
    assert_int_equal(ev->events->seq, seq);
    berthier__v1__reply__free_unpacked(ev, NULL);
    /* A's own query waits behind its order. */
    uint64_t ra = s_send_query(f, a2, BERTHIER__V1__REQUEST__BODY_PENDING, sa, g);
    s_expect_silence(a2, "the sealed choice's own seat");
    s_expect_silence(f->seat[sa], "the sealed choice's reply");
    s_release(f, held);
    assert_int_equal(s_acked_seq(f->seat[sa], order_rid), seq);   /* recorded, waiting for B */
    Berthier__V1__Reply *q = s_reply_to(a2, ra);
    assert_int_equal(q->code, 0);
    assert_false(q->decision->you_must_act);
    berthier__v1__reply__free_unpacked(q, NULL);
    td_client_destroy(&a2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_query_on_unsynced_game_waits_for_the_sync, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_query_on_synced_game_does_not_wait_for_the_sync, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_sealed_choice_does_not_delay_the_other_seat, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
