/*
 * test_daemon_revoke.c - keys change while the daemon runs (docs/daemon.md,
 * "Keys"): on SIGHUP berthierd reads admin.key, admin.keys and revoked.keys
 * again.
 *
 *   - an admin key added to admin.keys connects and creates games after the
 *     reload, and not before;
 *   - a revoked seat key: its open connection is cut at the reload (the
 *     daemon had seen it), so nothing it sends is answered or applied, and a
 *     new connection with it fails the handshake (no reply); the other seat of
 *     its game, the seats of another game and the admins go on. (A request on
 *     a connection the daemon cannot verify is still refused with
 *     CODE_UNAUTHORIZED, P3: docs/daemon.md, "Abuse".)
 *   - a revoked admin key loses its open connection the same way;
 *   - a list that cannot be read leaves the keys in force as they were;
 *   - the revocation is read again at a restart; lifting it lets the key in;
 *   - nothing acknowledged is lost: every acknowledged order's bytes are in
 *     its game's log, the log before the revocation is a prefix of the log
 *     after it, and berthier-replay verifies the logs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "test_hard_common.h"

typedef th_fx fx;

static int s_setup(void **state) { return th_fx_setup(state, NULL, 0, td_start); }

static void s_write(const fx *f, const char *name, const char *text) {
    char path[300];
    snprintf(path, sizeof path, "%s/%s", f->d.dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
}

/* The daemon logs the cut after "keys reloaded" (server.c s_reload_keys): wait for
 * the line to be there, then count it (the cap only turns a hang into a failure). */
static void s_expect_log_count(const fx *f, const char *needle, int n) {
    for (int i = 0; i < 1000 && td_log_count(&f->d, needle) < n; i++) td_sleep_ms(10);
    assert_int_equal(td_log_count(&f->d, needle), n);
}

/* SIGHUP, and wait for the daemon to say `expect` once more. */
static void s_reload(fx *f, const char *expect) {
    int before = td_log_count(&f->d, expect);
    assert_int_equal(kill(f->d.pid, SIGHUP), 0);
    for (int i = 0; i < 1000 && td_log_count(&f->d, expect) == before; i++) td_sleep_ms(10);
    assert_int_equal(td_log_count(&f->d, expect), before + 1);
    assert_true(td_alive(&f->d));
}

static void s_ok(Berthier__V1__Reply *r) {
    assert_non_null(r);
    if (r->code) fprintf(stderr, "unexpected code %d: %s\n", r->code, r->message);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* A new connection with the key gets no reply at all (ZAP refuses it). */
static void s_no_handshake(fx *f, const char *pub, const char *sec) {
    td_client *c = td_client_new(&f->d, pub, sec);
    assert_non_null(c);
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    assert_null(td_call(c, &h, 1500));
    td_client_destroy(&c);
}

/* The exact bytes of every acknowledged order of a game. */
typedef struct {
    th_sent sent[64];
    size_t n;
} s_acked;

/* n orders in game g (which must not end), remembered in *a. */
static void s_play(th_game *g, uint64_t *rid, int n, s_acked *a) {
    for (int i = 0; i < n; i++) {
        assert_true(a->n < 64);
        assert_int_equal(th_play_one(g, rid, NULL, &a->sent[a->n]), 1);
        a->n++;
    }
}

/* Every acknowledged order is in the game's log, byte for byte (an ORDER
 * record holds the whole Request). */
static void s_all_in_log(const fx *f, const th_game *g, const s_acked *a) {
    size_t len;
    uint8_t *log = th_log_bytes(&f->d, g->gid, &len);
    assert_non_null(log);
    for (size_t i = 0; i < a->n; i++)
        assert_non_null(memmem(log, len, a->sent[i].bytes, a->sent[i].len));
    free(log);
}

static void s_acked_free(s_acked *a) {
    for (size_t i = 0; i < a->n; i++) free(a->sent[i].bytes);
}

static Berthier__V1__Reply *s_create(td_client *c) {
    uint8_t keys[2][32];
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 32; k++) keys[i][k] = (uint8_t)(rand() ^ (i << 7));
    keys[1][0] = (uint8_t)(keys[0][0] ^ 1);   /* two seats never share a key */
    return td_create(c, "duel", "standard", 2, (const uint8_t(*)[32])keys, NULL, 0, 0, 0);
}

static void test_revoke_and_add(void **state) {
    fx *f = *state;
    uint64_t rid = 1;
    th_game g1, g2;
    assert_int_equal(th_game_start(&g1, &f->d, f->admin), 0);
    assert_int_equal(th_game_start(&g2, &f->d, f->admin), 0);
    s_acked acked1 = {.n = 0}, acked2 = {.n = 0};
    s_play(&g1, &rid, 4, &acked1);
    s_play(&g2, &rid, 2, &acked2);

    /* An admin key added to admin.keys: refused before the reload, an admin after it. */
    char xpub[41], xsec[41];
    zmq_curve_keypair(xpub, xsec);
    s_no_handshake(f, xpub, xsec);
    char text[200];
    snprintf(text, sizeof text, "# a second operator\n%s\n", xpub);
    s_write(f, "admin.keys", text);
    s_reload(f, "keys reloaded: 2 admin keys, 0 revoked keys");
    td_client *x = td_client_new(&f->d, xpub, xsec);
    Berthier__V1__Reply *r = td_gameref(x, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    assert_true(r->hello->admin);
    berthier__v1__reply__free_unpacked(r, NULL);
    s_ok(s_create(x));

    /* Revoke seat 0 of game 1 while its connection is open. */
    size_t before_len;
    uint8_t *before = th_log_bytes(&f->d, g1.gid, &before_len);
    assert_non_null(before);
    snprintf(text, sizeof text, "# revoked keys\n  %s   # red, game 1\n", g1.pub[0]);
    s_write(f, "revoked.keys", text);
    s_reload(f, "keys reloaded: 2 admin keys, 1 revoked keys");
    /* Its open connection was cut at the reload (it had sent requests, so the
     * daemon knew it), and its reconnection fails the handshake: whatever it
     * sends gets no reply. */
    s_expect_log_count(f, "revoked key: 1 connection cut", 1);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef gr = BERTHIER__V1__GAME_REF__INIT;
    gr.game_id = g1.gid;
    req.request_id = 777;
    req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
    req.pending = &gr;
    assert_null(td_call(g1.seat[0], &req, 1500));
    uint64_t seq = th_seq(f->admin, g1.gid, 0);
    assert_true(seq != UINT64_MAX);
    size_t n;
    uint8_t *b = td_submit_bytes(778, g1.gid, 0, seq, "bid 1", NULL, 0, &n);
    assert_null(td_call_raw(g1.seat[0], b, n, 1500));
    free(b);
    static const uint8_t garbage[] = {0xff, 0x00, 0x13};
    assert_null(td_call_raw(g1.seat[0], garbage, sizeof garbage, 1500));
    /* Nothing it sent reached the game. */
    assert_int_equal(th_seq(f->admin, g1.gid, 0), seq);
    size_t mid_len;
    uint8_t *mid = th_log_bytes(&f->d, g1.gid, &mid_len);
    assert_int_equal(mid_len, before_len);
    assert_memory_equal(mid, before, before_len);
    free(mid);
    /* A new connection with it fails the handshake. */
    s_no_handshake(f, g1.pub[0], g1.sec[0]);
    /* Everyone else goes on: the other seat of game 1, game 2, both admins. */
    s_ok(td_gameref(g1.seat[1], BERTHIER__V1__REQUEST__BODY_PENDING, g1.gid, 1));
    s_play(&g2, &rid, 2, &acked2);
    s_ok(td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_LIST_GAMES, "", 0));
    s_ok(td_gameref(x, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0));

    /* A list with a bad line is refused as a whole: the keys in force stay. */
    snprintf(text, sizeof text, "%s\nnot-a-key\n", g1.pub[0]);
    s_write(f, "revoked.keys", text);
    s_reload(f, "keys not reloaded");
    assert_int_equal(td_log_count(&f->d, "revoked.keys line 2: not a Z85 public key"), 1);
    s_no_handshake(f, g1.pub[0], g1.sec[0]);
    s_ok(td_gameref(x, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0));

    /* Revoke the second admin key too: its open connection loses its rights. */
    snprintf(text, sizeof text, "%s\n%s\n", g1.pub[0], xpub);
    s_write(f, "revoked.keys", text);
    s_reload(f, "keys reloaded: 2 admin keys, 2 revoked keys");
    s_expect_log_count(f, "revoked key: 1 connection cut", 2);
    x->next_id = 5000;
    assert_null(td_call(x, &req, 1500));
    s_no_handshake(f, xpub, xsec);
    s_ok(s_create(f->admin));
    s_play(&g2, &rid, 1, &acked2);

    /* A restart reads the revocations again. */
    assert_int_equal(td_stop(&f->d), 0);
    assert_int_equal(td_start(&f->d), 0);
    s_no_handshake(f, g1.pub[0], g1.sec[0]);
    s_no_handshake(f, xpub, xsec);
    td_client_reconnect(f->admin, &f->d);
    for (int i = 0; i < 2; i++) {
        td_client_reconnect(g1.seat[i], &f->d);
        td_client_reconnect(g2.seat[i], &f->d);
    }
    s_ok(td_gameref(g1.seat[1], BERTHIER__V1__REQUEST__BODY_PENDING, g1.gid, 1));
    s_play(&g2, &rid, 1, &acked2);

    /* Nothing acknowledged was lost. */
    assert_int_equal(th_seq(f->admin, g1.gid, 0), seq);
    s_all_in_log(f, &g1, &acked1);
    s_all_in_log(f, &g2, &acked2);
    size_t after_len;
    uint8_t *after = th_log_bytes(&f->d, g1.gid, &after_len);
    assert_true(after_len >= before_len);
    assert_memory_equal(after, before, before_len);
    free(after);

    /* Lifting the revocation lets the key in again, and its game goes on. */
    s_write(f, "revoked.keys", "# nobody\n");
    s_reload(f, "keys reloaded: 2 admin keys, 0 revoked keys");
    td_client_reconnect(g1.seat[0], &f->d);
    s_play(&g1, &rid, 2, &acked1);
    s_all_in_log(f, &g1, &acked1);

    const char *gids[2] = {g1.gid, g2.gid};
    for (int i = 0; i < 2; i++) {
        char log[512];
        snprintf(log, sizeof log, "%s/games/%s.log", f->d.dir, gids[i]);
        int skipped, rc = td_replay_verify(log, &skipped);
        assert_true(rc == 0 || rc == 2);   /* 2: live game, consistent so far */
    }
    free(before);
    s_acked_free(&acked1);
    s_acked_free(&acked2);
    td_client_destroy(&x);
    th_game_end(&g1);
    th_game_end(&g2);
}

/* Removing admin.key's own key needs no restart either: revoke it, and the
 * operator's connection is refused while another admin key serves. */
static void test_revoke_main_admin(void **state) {
    fx *f = *state;
    f->admin->next_id = 90;
    s_ok(td_gameref(f->admin, BERTHIER__V1__REQUEST__BODY_HELLO, "", 0));   /* the connection is up */
    char xpub[41], xsec[41], text[200];
    zmq_curve_keypair(xpub, xsec);
    snprintf(text, sizeof text, "%s\n", xpub);
    s_write(f, "admin.keys", text);
    snprintf(text, sizeof text, "%s\n", f->d.admin_pub);
    s_write(f, "revoked.keys", text);
    s_reload(f, "keys reloaded: 2 admin keys, 1 revoked keys");
    /* Its open connection was cut at the reload and cannot come back. */
    s_expect_log_count(f, "revoked key: 1 connection cut", 1);
    Berthier__V1__Request h = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    h.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    h.hello = &g;
    assert_null(td_call(f->admin, &h, 1500));
    td_client *x = td_client_new(&f->d, xpub, xsec);
    s_ok(s_create(x));
    td_client_destroy(&x);
    /* admin.key cannot be read: nothing changes. */
    char path[300], moved[320];
    snprintf(path, sizeof path, "%s/admin.key", f->d.dir);
    snprintf(moved, sizeof moved, "%s/admin.key.moved", f->d.dir);
    assert_int_equal(rename(path, moved), 0);
    s_write(f, "revoked.keys", "");
    s_reload(f, "keys not reloaded");
    s_no_handshake(f, f->d.admin_pub, f->d.admin_sec);
    assert_int_equal(rename(moved, path), 0);
    s_reload(f, "keys reloaded: 2 admin keys, 0 revoked keys");
    /* Lifted: a new connection with it is an admin again. */
    td_client_reconnect(f->admin, &f->d);
    s_ok(s_create(f->admin));
}

int main(void) {
    srand(23);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_revoke_and_add, s_setup, th_fx_teardown),
        cmocka_unit_test_setup_teardown(test_revoke_main_admin, s_setup, th_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
