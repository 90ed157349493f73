/*
 * test_net_trust.c - [issue 11, attacks 2 and 6] length hiding and who may
 * listen and read:
 *   - under n20 fog-of-war, the French seat's sealed notices after moves of
 *     different hidden units have one length, a size class (docs/protocol.md
 *     P8), though what they say differs in length (on the old code the sealed
 *     length was the plaintext's plus 40 bytes: KELLERMANN and MILHAUD told
 *     apart from the ciphertext alone);
 *   - the events endpoint: an unknown key cannot complete the handshake (the
 *     old code admitted every CURVE key there), a seat key and a spectator key
 *     can;
 *   - a spectator key of game A reads A as a spectator may (pending, events,
 *     the state and the log after the end) and nothing of game B, and never
 *     acts for a seat;
 *   - with spectators=live a spectator key gets the state all along, as the
 *     spectators' view: under n20 fog-of-war [16.1] it names no unit hidden from
 *     either seat (view, text, picture), its view hash covers seat 0xfffffffe,
 *     and the seats keep their own views;
 *   - an ended game is read only by its seats, its spectator keys and the
 *     admins (on the old code a seat key of any ended game read every ended game);
 *   - create refuses 10,000 copies of an option and a 500 KB seat name;
 *   - events replies served from the index are the same bytes before and
 *     after a restart (index built live, and built at load).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sodium.h>

#include "test_hard_common.h"
#include "n20/v1/n20.pb-c.h"
#include "ruleset.h"
#include "vis.h"

typedef th_fx fx;

static int s_setup(void **state) { return th_fx_setup(state, NULL, 0, td_start); }
static int s_teardown(void **state) { return th_fx_teardown(state); }

static Berthier__V1__Reply *s_ok(Berthier__V1__Reply *r) {
    assert_non_null(r);
    if (r->code) fprintf(stderr, "unexpected code %d [%s] %s\n", r->code, r->rule, r->message);
    assert_int_equal(r->code, 0);
    return r;
}

static void s_code(Berthier__V1__Reply *r, int code) {
    assert_non_null(r);
    if ((int)r->code != code) fprintf(stderr, "expected code %d, got %d [%s] %s\n", code, r->code, r->rule, r->message);
    assert_int_equal(r->code, code);
    if (code) {
        assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY__NOT_SET);
        assert_true(r->rule[0] && r->message[0]);
    }
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* create with spectator keys (and optionally seat 0's name). */
static Berthier__V1__Reply *s_create(td_client *admin, const char *ruleset, const char *scenario,
                                     const uint8_t (*keys)[32], const char *const *opts, size_t nopts,
                                     const uint8_t (*spec)[32], size_t nspec, const char *name0) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame cg = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = (uint8_t *)keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    if (name0) specs[0].name = (char *)name0;
    ProtobufCBinaryData sk[4];
    for (size_t i = 0; i < nspec && i < 4; i++) {
        sk[i].data = (uint8_t *)spec[i];
        sk[i].len = 32;
    }
    cg.ruleset = (char *)ruleset;
    cg.scenario = (char *)scenario;
    cg.n_seats = 2;
    cg.seats = sp;
    cg.n_options = nopts;
    cg.options = (char **)opts;
    cg.n_spectator_keys = nspec;
    cg.spectator_keys = nspec ? sk : NULL;
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &cg;
    return td_call(admin, &req, TD_TIMEOUT);
}

/* ---- the events endpoint ---- */

/* A SUB on the events endpoint with this keypair, monitored; returns the
 * handshake's outcome: 1 succeeded, 0 failed (auth), -1 neither came (a hang
 * guard, never reached when the daemon answers). The socket is kept in *out
 * when asked (else closed). */
static int s_sub_handshake(const td_daemon *d, const char *pub, const char *sec, const char *topic, void **out) {
    static int seq;
    void *s = zmq_socket(td_zctx(), ZMQ_SUB);
    assert_non_null(s);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, d->server_pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
    zmq_setsockopt(s, ZMQ_SUBSCRIBE, topic, strlen(topic));
    char mep[64], ep[300];
    snprintf(mep, sizeof mep, "inproc://net-mon-%d", ++seq);
    assert_int_equal(zmq_socket_monitor(s, mep, ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
                                                    ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL),
                     0);
    void *mon = zmq_socket(td_zctx(), ZMQ_PAIR);
    assert_int_equal(zmq_connect(mon, mep), 0);
    snprintf(ep, sizeof ep, "ipc://%s/events.sock", d->dir);
    assert_int_equal(zmq_connect(s, ep), 0);
    int result = -1;
    for (int waited = 0; waited < 20000 && result < 0;) {
        zmq_pollitem_t it = {mon, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 100) <= 0) {
            waited += 100;
            continue;
        }
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, mon, 0) < 0) {
            zmq_msg_close(&m);
            continue;
        }
        uint16_t ev = 0;
        if (zmq_msg_size(&m) >= 2) memcpy(&ev, zmq_msg_data(&m), 2);
        zmq_msg_close(&m);
        zmq_msg_init(&m);
        zmq_msg_recv(&m, mon, 0);
        zmq_msg_close(&m);
        if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) result = 1;
        else result = 0;
    }
    zmq_socket_monitor(s, NULL, 0);
    zmq_close(mon);
    if (out && result == 1) *out = s;
    else zmq_close(s);
    return result;
}

/* The next message on `sub` for `topic`: its body in buf (at most max), its
 * length returned; -1 if none came (a hang guard). */
static long s_sub_recv(void *sub, char *buf, size_t max) {
    zmq_pollitem_t it = {sub, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&it, 1, TD_TIMEOUT) <= 0) return -1;
    char topic[128];
    int tl = zmq_recv(sub, topic, sizeof topic, 0);
    int more = 0;
    size_t ml = sizeof more;
    zmq_getsockopt(sub, ZMQ_RCVMORE, &more, &ml);
    if (tl < 0 || !more) return -1;
    int n = zmq_recv(sub, buf, max, 0);
    return n < 0 || (size_t)n > max ? -1 : n;
}

static void test_events_endpoint_admits_known_keys_only(void **state) {
    fx *f = *state;
    char pub[2][41], sec[2][41], spub[1][41], ssec[1][41];
    uint8_t keys[2][32], spec[1][32];
    td_fresh_keys(2, pub, sec, keys);
    td_fresh_keys(1, spub, ssec, spec);
    const char *live[] = {"spectators=live"};
    Berthier__V1__Reply *r = s_ok(s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, live, 1, NULL, 0, NULL));
    char gid[32], topic[64];
    snprintf(gid, sizeof gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    snprintf(topic, sizeof topic, "g/%s/all", gid);
    /* A key the daemon does not know: refused at the handshake, so it can read
     * neither the clear stream nor the sizes of the sealed ones. The old code
     * admitted it (result 1). */
    char upub[41], usec[41];
    zmq_curve_keypair(upub, usec);
    assert_int_equal(s_sub_handshake(&f->d, upub, usec, topic, NULL), 0);
    /* A seat key, the spectator key and the admin key: admitted. */
    assert_int_equal(s_sub_handshake(&f->d, pub[1], sec[1], topic, NULL), 1);
    assert_int_equal(s_sub_handshake(&f->d, f->d.admin_pub, f->d.admin_sec, topic, NULL), 1);
    /* A game with a spectator key: the key is admitted and hears its clear stream. */
    char sp_pub[2][41], sp_sec[2][41];
    td_fresh_keys(2, sp_pub, sp_sec, keys);
    memcpy(pub, sp_pub, sizeof pub);
    memcpy(sec, sp_sec, sizeof sec);
    r = s_ok(s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, live, 1, (const uint8_t(*)[32])spec, 1, NULL));
    snprintf(gid, sizeof gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    snprintf(topic, sizeof topic, "g/%s/all", gid);
    void *sub = NULL;
    assert_int_equal(s_sub_handshake(&f->d, spub[0], ssec[0], topic, &sub), 1);
    td_sleep_ms(300);   /* the subscription reaches the PUB socket */
    td_client *seat[2];
    for (int i = 0; i < 2; i++) {
        seat[i] = td_client_new(&f->d, pub[i], sec[i]);
        r = s_ok(td_join(seat[i], gid, (unsigned)i));
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    static char body[1 << 16];
    long n = s_sub_recv(sub, body, sizeof body);
    assert_true(n > 0);
    Berthier__V1__Notice *no = berthier__v1__notice__unpack(NULL, (size_t)n, (const uint8_t *)body);
    assert_non_null(no);
    assert_string_equal(no->game_id, gid);
    berthier__v1__notice__free_unpacked(no, NULL);
    zmq_close(sub);
    /* The same unknown key is admitted once a game names it as a spectator. */
    char p2[2][41], s2[2][41];
    uint8_t k2[2][32], uk[1][32];
    td_fresh_keys(2, p2, s2, k2);
    zmq_z85_decode(uk[0], upub);
    r = s_ok(s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])k2, NULL, 0, (const uint8_t(*)[32])uk, 1, NULL));
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_int_equal(s_sub_handshake(&f->d, upub, usec, topic, NULL), 1);
    for (int i = 0; i < 2; i++) td_client_destroy(&seat[i]);
    assert_true(td_alive(&f->d));
}

/* ---- spectators and ended games ---- */

static Berthier__V1__Reply *s_events(td_client *c, const char *gid, unsigned seat, uint64_t since) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    g.since_seq = since;
    req.body_case = BERTHIER__V1__REQUEST__BODY_EVENTS;
    req.events = &g;
    return td_call(c, &req, TD_TIMEOUT);
}

static Berthier__V1__Reply *s_fetch(td_client *c, const char *gid) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__FetchLog fl = BERTHIER__V1__FETCH_LOG__INIT;
    fl.game_id = (char *)gid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_FETCH_LOG;
    req.fetch_log = &fl;
    return td_call(c, &req, TD_TIMEOUT);
}

/* Every read request of `c` about `gid` gets `code`. */
static void s_reads(td_client *c, const char *gid, int code) {
    s_code(td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, gid, 0), code);
    s_code(td_gameref(c, BERTHIER__V1__REQUEST__BODY_STATE, gid, 0), code);
    s_code(s_events(c, gid, 0, 0), code);
    s_code(s_fetch(c, gid), code);
}

/* Play a started duel to its end with the seats' first legal orders. */
static void s_play_to_end(td_client **seat, const char *gid) {
    th_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.gid, sizeof g.gid, "%s", gid);
    g.seat[0] = seat[0];
    g.seat[1] = seat[1];
    uint64_t rid = 50000;
    int rc;
    for (int i = 0; i < 2000 && (rc = th_play_one(&g, &rid, NULL, NULL)) == 1; i++) {}
    assert_int_equal(th_play_one(&g, &rid, NULL, NULL), 0);
}

static void test_spectator_reads_its_game_only(void **state) {
    fx *f = *state;
    srand(11);
    char pub[4][41], sec[4][41], spub[1][41], ssec[1][41];
    uint8_t keys[4][32], spec[1][32];
    td_fresh_keys(4, pub, sec, keys);
    td_fresh_keys(1, spub, ssec, spec);
    Berthier__V1__Reply *r =
        s_ok(s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, NULL, 0, (const uint8_t(*)[32])spec, 1, NULL));
    char a[32], b[32];
    snprintf(a, sizeof a, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys + 2, NULL, 0, NULL, 0, NULL));
    snprintf(b, sizeof b, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client *seat[4];
    for (int i = 0; i < 4; i++) {
        seat[i] = td_client_new(&f->d, pub[i], sec[i]);
        r = s_ok(td_join(seat[i], i < 2 ? a : b, (unsigned)(i % 2)));
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    /* The spectator key connects to the request socket (it is known). */
    td_client *sp = td_client_new(&f->d, spub[0], ssec[0]);
    r = s_ok(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0));
    assert_false(r->hello->admin);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* game A, running: pending and events as a spectator; no state yet, no log. */
    r = s_ok(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_PENDING, a, 0));
    assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_DECISION);
    assert_false(r->decision->you_must_act);
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_events(sp, a, 0, 0));
    assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_EVENTS);
    berthier__v1__reply__free_unpacked(r, NULL);
    s_code(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_STATE, a, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_code(s_fetch(sp, a), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* never acts for a seat, never gets a seat's event key */
    s_code(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_LEGAL, a, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_code(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_RESIGN, a, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_code(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_HELLO, a, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_code(td_join(sp, a, 0), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_code(td_submit_text(sp, a, 0, 2, "bid 1"), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* game B: nothing */
    s_reads(sp, b, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* list_games: A only */
    r = s_ok(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0));
    assert_int_equal(r->games->n_games, 1);
    assert_string_equal(r->games->games[0]->game_id, a);
    assert_int_equal(r->games->games[0]->n_your_seats, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* Both games end. */
    s_play_to_end(seat, a);
    s_play_to_end(seat + 2, b);
    /* A, ended: the spectator reads it all (the state with its hash, every event, the log). */
    r = s_ok(td_gameref(sp, BERTHIER__V1__REQUEST__BODY_STATE, a, 0));
    assert_int_equal(r->state->state_hash.len, 32);
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_events(sp, a, 0, 0));
    assert_true(r->events->n_events > 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_fetch(sp, a));
    assert_true(r->log->data.len > 16);
    assert_memory_equal(r->log->data.data, "BRTHRLOG", 8);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* B, ended: still nothing for A's spectator */
    s_reads(sp, b, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    for (int i = 0; i < 4; i++) td_client_destroy(&seat[i]);
    td_client_destroy(&sp);
    assert_true(td_alive(&f->d));
}

static void test_ended_game_read_by_its_parties_only(void **state) {
    fx *f = *state;
    srand(12);
    th_game a, b;
    assert_int_equal(th_game_start(&a, &f->d, f->admin), 0);
    assert_int_equal(th_game_start(&b, &f->d, f->admin), 0);
    s_play_to_end(a.seat, a.gid);
    s_play_to_end(b.seat, b.gid);
    /* [attack 6] A seat key of an ended game (A) reads nothing of another ended
     * game (B): the old code gave it B's full view, every event, the state hash. */
    s_reads(a.seat[0], b.gid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    s_reads(b.seat[1], a.gid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    /* its own seats and the admin still read it */
    Berthier__V1__Reply *r = s_ok(td_gameref(b.seat[0], BERTHIER__V1__REQUEST__BODY_STATE, b.gid, 0));
    assert_int_equal(r->state->state_hash.len, 32);
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_fetch(b.seat[1], b.gid));
    berthier__v1__reply__free_unpacked(r, NULL);
    r = s_ok(s_events(f->admin, b.gid, 0, 0));
    assert_true(r->events->n_events > 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    th_game_end(&a);
    th_game_end(&b);
}

/* ---- create limits on the wire ---- */

static void test_create_limits(void **state) {
    fx *f = *state;
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    td_fresh_keys(2, pub, sec, keys);
    /* [attack 6] 10,000 copies of one option: the old code put them all in the header. */
    const char **many = calloc(10000, sizeof *many);
    for (int i = 0; i < 10000; i++) many[i] = "spectators=live";
    Berthier__V1__Reply *r = s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, many, 10000, NULL, 0, NULL);
    assert_non_null(r);
    assert_non_null(strstr(r->message, "at most 32"));
    s_code(r, BERTHIER__V1__CODE__CODE_BAD_OPTION);
    r = s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, many, 2, NULL, 0, NULL);
    assert_non_null(r);
    assert_non_null(strstr(r->message, "twice"));
    assert_string_equal(r->rule, "P4.1");
    s_code(r, BERTHIER__V1__CODE__CODE_BAD_OPTION);
    free(many);
    /* [attack 6] a 500 KB seat name */
    size_t big = 500u << 10;
    char *name = malloc(big + 1);
    memset(name, 'n', big);
    name[big] = 0;
    r = s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, NULL, 0, NULL, 0, name);
    assert_non_null(r);
    assert_non_null(strstr(r->message, "at most 64"));
    s_code(r, BERTHIER__V1__CODE__CODE_BAD_SEATS);
    free(name);
    /* a spectator key that is a seat's */
    r = s_create(f->admin, "duel", "standard", (const uint8_t(*)[32])keys, NULL, 0, (const uint8_t(*)[32])keys + 1, 1, NULL);
    s_code(r, BERTHIER__V1__CODE__CODE_BAD_SEATS);
    /* no game was made by any of them */
    r = s_ok(td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0));
    assert_int_equal(r->games->n_games, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* ---- events from the index: the same bytes, live and after a restart ---- */

/* The raw reply bytes of events(since) for `seat` of `c`. */
static uint8_t *s_events_raw(td_client *c, const char *gid, unsigned seat, uint64_t since, size_t *len) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    g.since_seq = since;
    req.request_id = 777;
    req.body_case = BERTHIER__V1__REQUEST__BODY_EVENTS;
    req.events = &g;
    uint8_t frame[128];
    size_t n = berthier__v1__request__pack(&req, frame);
    assert_int_equal(td_send_raw(c, frame, n), 0);
    zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
    assert_true(zmq_poll(&it, 1, TD_TIMEOUT) > 0);
    zmq_msg_t m;
    zmq_msg_init(&m);
    assert_true(zmq_msg_recv(&m, c->sock, 0) >= 0);
    *len = zmq_msg_size(&m);
    uint8_t *b = malloc(*len ? *len : 1);
    memcpy(b, zmq_msg_data(&m), *len);
    zmq_msg_close(&m);
    return b;
}

static void test_events_same_bytes_after_restart(void **state) {
    fx *f = *state;
    srand(5);
    th_game g;
    assert_int_equal(th_game_start(&g, &f->d, f->admin), 0);
    uint64_t rid = 9000;
    for (int i = 0; i < 12; i++) assert_int_equal(th_play_one(&g, &rid, NULL, NULL), 1);
    uint64_t seq = th_seq(g.seat[0], g.gid, 0);
    enum { N = 40 };
    assert_true(seq > 4 && seq + 2 < N);   /* sealed bids move seq once per pair */
    uint8_t *before[3][N];
    size_t blen[3][N];
    td_client *who[3] = {g.seat[0], g.seat[1], f->admin};
    for (int w = 0; w < 3; w++)
        for (uint64_t s = 0; s < N; s++) before[w][s] = s_events_raw(who[w], g.gid, w < 2 ? (unsigned)w : 0, s, &blen[w][s]);
    /* every later since_seq returns fewer events and the same seq */
    for (int w = 0; w < 3; w++) {
        Berthier__V1__Reply *r0 = berthier__v1__reply__unpack(NULL, blen[w][0], before[w][0]);
        assert_non_null(r0);
        assert_int_equal(r0->code, 0);
        assert_true(r0->events->n_events > 0);
        assert_int_equal(r0->events->seq, seq);
        berthier__v1__reply__free_unpacked(r0, NULL);
    }
    th_game_end(&g);
    td_client_destroy(&f->admin);
    assert_int_equal(td_stop(&f->d), 0);
    assert_int_equal(td_start(&f->d), 0);
    f->admin = td_client_new(&f->d, f->d.admin_pub, f->d.admin_sec);
    td_client *c0 = td_client_new(&f->d, g.pub[0], g.sec[0]);
    td_client *c1 = td_client_new(&f->d, g.pub[1], g.sec[1]);
    td_client *after[3] = {c0, c1, f->admin};
    for (int w = 0; w < 3; w++)
        for (uint64_t s = 0; s < N; s++) {
            size_t n;
            uint8_t *b = s_events_raw(after[w], g.gid, w < 2 ? (unsigned)w : 0, s, &n);
            assert_int_equal(n, blen[w][s]);
            assert_memory_equal(b, before[w][s], n);
            free(b);
            free(before[w][s]);
        }
    td_client_destroy(&c0);
    td_client_destroy(&c1);
}

/* ---- length hiding under fog-of-war ---- */

/* Submit a text order; the reply's length on the wire in *len. */
static Berthier__V1__Reply *s_submit_len(td_client *c, const char *gid, unsigned seat, uint64_t seq, const char *text,
                                         size_t *len) {
    size_t n;
    uint8_t *b = td_submit_bytes(++c->next_id, gid, seat, seq, text, NULL, 0, &n);
    assert_int_equal(td_send_raw(c, b, n), 0);
    free(b);
    zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
    assert_true(zmq_poll(&it, 1, TD_TIMEOUT) > 0);
    zmq_msg_t m;
    zmq_msg_init(&m);
    assert_true(zmq_msg_recv(&m, c->sock, 0) >= 0);
    *len = zmq_msg_size(&m);
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
    zmq_msg_close(&m);
    return r;
}

/* What a seat's stream carried for one input. */
typedef struct {
    long sealed;       /* body length: nonce, MAC and padded plaintext */
    size_t plain;      /* the padded plaintext */
    size_t raw;        /* the notice without its padding (what the old code sealed) */
    char text[256];    /* its first event's text */
} s_heard;

/* Read `sub` until the notice of `seq`; decrypt and measure it. */
static void s_hear(void *sub, const uint8_t key[32], uint64_t seq, s_heard *h) {
    static uint8_t body[1 << 20], plain[1 << 20];
    for (int k = 0; k < 1000; k++) {
        long n = s_sub_recv(sub, (char *)body, sizeof body);
        assert_true(n > (long)(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES));
        size_t pl = (size_t)n - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
        assert_int_equal(crypto_secretbox_open_easy(plain, body + crypto_secretbox_NONCEBYTES,
                                                    (size_t)n - crypto_secretbox_NONCEBYTES, body, key),
                         0);
        Berthier__V1__Notice *no = berthier__v1__notice__unpack(NULL, pl, plain);
        assert_non_null(no);
        if (no->seq != seq) {
            berthier__v1__notice__free_unpacked(no, NULL);
            continue;
        }
        /* every sealed notice is padded with zero bytes to a class (P8) */
        for (size_t i = 0; i < no->padding.len; i++) assert_int_equal(no->padding.data[i], 0);
        h->sealed = n;
        h->plain = pl;
        no->padding.len = 0;
        h->raw = berthier__v1__notice__get_packed_size(no);
        snprintf(h->text, sizeof h->text, "%s", no->n_events ? no->events[0]->text : "");
        berthier__v1__notice__free_unpacked(no, NULL);
        return;
    }
    fail_msg("no notice for seq %llu", (unsigned long long)seq);
}

static int s_is_class(size_t n) { return n >= 512 && (n & (n - 1)) == 0; }

static void test_fog_notices_hide_which_unit_moved(void **state) {
    fx *f = *state;
    srand(3);
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    td_fresh_keys(2, pub, sec, keys);
    const char *opts[] = {"fog-of-war"};
    Berthier__V1__Reply *r =
        s_ok(s_create(f->admin, "n20", "waterloo20-standard", (const uint8_t(*)[32])keys, opts, 1, NULL, 0, NULL));
    char gid[32];
    snprintf(gid, sizeof gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    td_client *seat[2];
    void *sub[2];
    uint8_t ek[2][32];
    for (int i = 0; i < 2; i++) {
        char topic[64];
        snprintf(topic, sizeof topic, "g/%s/%d", gid, i);
        assert_int_equal(s_sub_handshake(&f->d, pub[i], sec[i], topic, &sub[i]), 1);
    }
    td_sleep_ms(300);   /* the subscriptions reach the PUB socket */
    for (int i = 0; i < 2; i++) {
        seat[i] = td_client_new(&f->d, pub[i], sec[i]);
        r = s_ok(td_join(seat[i], gid, (unsigned)i));
        memcpy(ek[i], r->joined->event_key.data, 32);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    /* Play: the French seat (0) moves each of its units once when it can,
     * everyone else ends phases or plays a pseudo-random legal order. */
    enum { MAXU = 24 };
    char moved[MAXU][32];
    s_heard heard[MAXU][2];
    size_t reply_len[MAXU], reply_raw[MAXU];
    int nmoved = 0;
    for (int step = 0; step < 400 && nmoved < 6; step++) {
        int acted = 0;
        for (unsigned s = 0; s < 2; s++) {
            r = s_ok(td_gameref(seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, gid, s));
            int ended = r->decision->result && r->decision->result->ended;
            int must = r->decision->you_must_act;
            berthier__v1__reply__free_unpacked(r, NULL);
            assert_false(ended);
            if (!must) continue;
            r = s_ok(td_gameref(seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, gid, s));
            assert_true(r->legal->n_texts > 0);
            uint64_t seq = r->legal->seq;
            const char *pick = NULL;
            char unit[32] = "";
            for (size_t k = 0; s == 0 && !pick && k < r->legal->n_texts; k++) {
                const char *t = r->legal->texts[k];
                if (strncmp(t, "move ", 5) != 0) continue;
                char u[32];
                if (sscanf(t + 5, "%31s", u) != 1 || strstr(u, "DUMMY")) continue;
                int seen = 0;
                for (int m = 0; m < nmoved; m++) seen |= strcmp(moved[m], u) == 0;
                if (seen) continue;
                pick = t;
                snprintf(unit, sizeof unit, "%s", u);
            }
            for (size_t k = 0; !pick && k < r->legal->n_texts; k++)
                if (strcmp(r->legal->texts[k], "end") == 0) pick = r->legal->texts[k];
            if (!pick) pick = r->legal->texts[(size_t)rand() % r->legal->n_texts];
            char order[512];
            snprintf(order, sizeof order, "%s", pick);
            berthier__v1__reply__free_unpacked(r, NULL);
            size_t rlen = 0;
            r = s_ok(s_submit_len(seat[s], gid, s, seq, order, &rlen));
            uint64_t after = r->accepted->seq;
            r->padding.len = 0;
            size_t rraw = berthier__v1__reply__get_packed_size(r);
            berthier__v1__reply__free_unpacked(r, NULL);
            acted = 1;
            if (after == seq) continue;   /* nothing published */
            s_heard h[2];
            for (int q = 0; q < 2; q++) s_hear(sub[q], ek[q], after, &h[q]);
            /* a unit hidden from the Allied seat: its notice does not name it */
            if (unit[0] && strstr(h[0].text, unit) && !strstr(h[1].text, unit) && nmoved < MAXU) {
                snprintf(moved[nmoved], sizeof moved[nmoved], "%s", unit);
                heard[nmoved][0] = h[0];
                heard[nmoved][1] = h[1];
                reply_len[nmoved] = rlen;
                reply_raw[nmoved] = rraw;
                nmoved++;
            }
            break;
        }
        assert_true(acted);
    }
    assert_true(nmoved >= 2);
    int raw_differs = 0, reply_differs = 0;
    for (int m = 0; m < nmoved; m++) {
        /* the French seat's own Accepted replies name the unit too: padded alike */
        assert_true(s_is_class(reply_len[m]));
        assert_int_equal(reply_len[m], reply_len[0]);
        reply_differs |= reply_raw[m] != reply_raw[0];
    }
    assert_true(reply_differs);
    for (int m = 0; m < nmoved; m++)
        for (int q = 0; q < 2; q++) {
            if (getenv("NET_DEBUG"))
                fprintf(stderr, "%s seat %d: sealed %ld plain %zu raw %zu [%s]\n", moved[m], q, heard[m][q].sealed,
                        heard[m][q].plain, heard[m][q].raw, heard[m][q].text);
            assert_true(s_is_class(heard[m][q].plain));
            assert_int_equal(heard[m][q].sealed, (long)heard[m][q].plain + 40);
            /* the attack: the old code's sealed length was raw + 40 */
            assert_int_equal(heard[m][q].sealed, heard[0][q].sealed);
            raw_differs |= heard[m][q].raw != heard[0][q].raw;
        }
    /* what the notices say differs in length (KELLERMANN, MILHAUD, ...): on the
     * old code the sealed lengths differed too and the assertion above failed */
    assert_true(raw_differs);
    for (int i = 0; i < 2; i++) {
        zmq_close(sub[i]);
        td_client_destroy(&seat[i]);
    }
}

/* ---- the spectators' view of a live game ---- */

/* state with text (and svg) for the key of c; the reply checked OK. */
static Berthier__V1__Reply *s_state(td_client *c, const char *gid, unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    g.text = 1;
    g.svg = 1;
    req.body_case = BERTHIER__V1__REQUEST__BODY_STATE;
    req.state = &g;
    Berthier__V1__Reply *r = s_ok(td_call(c, &req, TD_TIMEOUT));
    assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_STATE);
    return r;
}

/* `word` in text as a whole name (not inside a longer one: "D1" is not in "D12"). */
static int s_has_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p++) {
        int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-';
        if (!before && !after) return 1;
    }
    return 0;
}

static int s_lists(const N20__V1__View *v, const char *id) {
    for (size_t i = 0; i < v->n_units; i++)
        if (strcmp(v->units[i]->id, id) == 0) return 1;
    return 0;
}

/* One look at the game by every party: the spectators' view names no unit that a seat may
 * not see, and every unit both seats see; each seat keeps its own view. Returns how many
 * units were hidden from one seat or the other. */
static int s_check_public_view(td_client *admin, td_client **seat, td_client *sp, const char *gid) {
    Berthier__V1__Reply *r[4] = {s_state(admin, gid, 0), s_state(seat[0], gid, 0), s_state(seat[1], gid, 1),
                                 s_state(sp, gid, 0)};
    N20__V1__View *v[4];
    for (int i = 0; i < 4; i++) {
        v[i] = n20__v1__view__unpack(NULL, r[i]->state->view.len, r[i]->state->view.data);
        assert_non_null(v[i]);
    }
    const Berthier__V1__StateView *pub = r[3]->state;
    /* its hash covers its own view, seat 0xfffffffe (docs/protocol.md P4.2); never the state's */
    uint8_t vh[32];
    assert_int_equal(vis_view_hash(gid, BRT_VIEW_PUBLIC, pub->seq, pub->view.data, pub->view.len, vh), 0);
    assert_int_equal(pub->view_hash.len, 32);
    assert_memory_equal(pub->view_hash.data, vh, 32);
    assert_int_equal(pub->state_hash.len, 0);
    int hidden = 0;
    for (size_t i = 0; i < v[0]->n_units; i++) {
        const char *id = v[0]->units[i]->id;
        assert_true(id[0] != '@');   /* the full view names every unit */
        int seen0 = s_lists(v[1], id), seen1 = s_lists(v[2], id);
        if (seen0 && seen1) {
            assert_true(s_lists(v[3], id));   /* what every seat sees, the spectators see */
            continue;
        }
        hidden++;
        /* [16.1] hidden from a seat: "a unit" for the spectators too, in the view, its text
         * and its picture */
        if (s_lists(v[3], id) || s_has_word(pub->text, id) || (pub->svg && s_has_word(pub->svg, id)))
            fail_msg("the spectators' view of game %s names %s, hidden from seat %d", gid, id, seen0 ? 1 : 0);
        /* its owner keeps it by name in its own view */
        assert_true(seen0 || seen1);
    }
    /* a picture, when the ruleset draws one, follows docs/render.md */
    if (pub->svg && pub->svg[0]) assert_non_null(strstr(pub->svg, "class=\"brt-board\" data-ruleset=\"n20\""));
    for (int i = 0; i < 4; i++) {
        n20__v1__view__free_unpacked(v[i], NULL);
        berthier__v1__reply__free_unpacked(r[i], NULL);
    }
    return hidden;
}

/* [16.1] fog-of-war with spectators=live: a spectator key gets the state mid-game, as
 * BRT_VIEW_PUBLIC (every face-down unit is "a unit"), while the seats keep their own views;
 * checked at the start and after every order of a stretch of pseudo-random play. */
static void test_live_spectator_state_hides_face_down_units(void **state) {
    fx *f = *state;
    srand(21);
    char pub[2][41], sec[2][41], spub[1][41], ssec[1][41];
    uint8_t keys[2][32], spec[1][32];
    td_fresh_keys(2, pub, sec, keys);
    td_fresh_keys(1, spub, ssec, spec);
    const char *opts[] = {"fog-of-war", "spectators=live",
                          "dice-seed=5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"};
    Berthier__V1__Reply *r = s_ok(s_create(f->admin, "n20", "waterloo20-standard", (const uint8_t(*)[32])keys, opts, 3,
                                           (const uint8_t(*)[32])spec, 1, NULL));
    th_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.gid, sizeof g.gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    for (int i = 0; i < 2; i++) {
        g.seat[i] = td_client_new(&f->d, pub[i], sec[i]);
        berthier__v1__reply__free_unpacked(s_ok(td_join(g.seat[i], g.gid, (unsigned)i)), NULL);
    }
    td_client *sp = td_client_new(&f->d, spub[0], ssec[0]);
    int hidden = s_check_public_view(f->admin, g.seat, sp, g.gid);
    assert_true(hidden > 0);   /* fog-of-war: units start face-down [16.1] */
    uint64_t rid = 70000;
    for (int i = 0; i < 60; i++) {
        int rc = th_play_one(&g, &rid, NULL, NULL);
        assert_true(rc >= 0);
        if (rc == 0) break;
        s_check_public_view(f->admin, g.seat, sp, g.gid);
    }
    /* the events of face-down units reach the spectators in their own copies, which name them
     * "a unit" (n20-0.6.0, BRT_SEATS_SPECTATORS): the spectators' events are not only the public ones */
    int anonymous = 0;
    for (uint64_t since = 0;;) {
        r = s_ok(s_events(sp, g.gid, 0, since));
        for (size_t i = 0; i < r->events->n_events; i++) anonymous += strstr(r->events->events[i]->text, "a unit") != NULL;
        int moved = r->events->seq != since;
        since = r->events->seq;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (!moved) break;
    }
    assert_true(anonymous > 0);
    th_game_end(&g);
    td_client_destroy(&sp);
    assert_true(td_alive(&f->d));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_events_endpoint_admits_known_keys_only, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_spectator_reads_its_game_only, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_ended_game_read_by_its_parties_only, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_create_limits, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_events_same_bytes_after_restart, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_fog_notices_hide_which_unit_moved, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_live_spectator_state_hides_face_down_units, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
