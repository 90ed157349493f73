/*
 * test_client_duel.c - the C client library against a real berthierd on a
 * temporary data dir: hello, create, join, a duel game played to its end with
 * the seats' sealed event streams, rejections that carry code, rule and
 * message, and retries: the same request id sent again (on the same socket, on
 * a new connection, and after the daemon was killed with -9 and restarted) is
 * answered with the first reply and applied once.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>
#include <zmq.h>

#include "berthier/client.h"

static char s_dir[64];
static char s_data[128];
static pid_t s_daemon = -1;

static void s_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static const char *s_bin(void) {
    const char *b = getenv("BERTHIER_BIN");
    return b ? b : "build/bin";
}

static int s_start_daemon(void) {
    char prog[512], logp[256];
    snprintf(prog, sizeof prog, "%s/berthierd", s_bin());
    snprintf(logp, sizeof logp, "%s/daemon.log", s_dir);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(prog, "berthierd", "--data-dir", s_data, (char *)NULL);
        _exit(127);
    }
    s_daemon = pid;
    for (int i = 0; i < 200; i++) {
        brt_client *c = brt_client_new_data_dir(s_data);
        if (c) {
            brt_client_set_timeout(c, 200, 200);
            int ok = brt_client_hello(c, NULL, -1, NULL) == 0;
            brt_client_destroy(&c);
            if (ok) return 0;
        }
        s_sleep_ms(50);
    }
    return -1;
}

static void s_kill_daemon(void) {
    if (s_daemon > 0) {
        kill(s_daemon, SIGKILL);
        waitpid(s_daemon, NULL, 0);
        s_daemon = -1;
    }
}

static int s_group_setup(void **state) {
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/brt-client.XXXXXX");
    if (!mkdtemp(s_dir)) return -1;
    snprintf(s_data, sizeof s_data, "%s/d", s_dir);
    return s_start_daemon();
}

static int s_group_teardown(void **state) {
    (void)state;
    s_kill_daemon();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static brt_client *s_admin(void) {
    brt_client *c = brt_client_new_data_dir(s_data);
    assert_non_null(c);
    return c;
}

/* A new duel game with two fresh seat keypairs; both seats joined when join. */
typedef struct s_game {
    char id[BRT_GAME_ID_MAX + 1];
    brt_keypair kp[2];
    brt_client *seat[2];
    uint8_t event_key[2][BRT_EVENT_KEY_BYTES];
} s_game;

static brt_client *s_seat_client(const brt_keypair *kp) {
    brt_client *admin = s_admin();
    brt_client *c = brt_client_new_keypair(brt_client_endpoint(admin), brt_client_server_key(admin), kp);
    brt_client_destroy(&admin);
    assert_non_null(c);
    return c;
}

static void s_new_game(s_game *g, int join) {
    memset(g, 0, sizeof *g);
    const char *pubs[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(brt_keypair_generate(&g->kp[i]), 0);
        pubs[i] = g->kp[i].public_z85;
    }
    brt_client *admin = s_admin();
    brt_game_spec spec = {"duel", "standard", NULL, 0, pubs, 2, 0, 0, 0, NULL, 0};
    const Berthier__V1__Created *cr = NULL;
    assert_int_equal(brt_client_create(admin, &spec, g->id, &cr), 0);
    assert_int_equal(strlen(g->id), 16);
    assert_int_equal(cr->n_seats, 2);
    brt_client_destroy(&admin);
    for (int i = 0; i < 2; i++) {
        g->seat[i] = s_seat_client(&g->kp[i]);
        if (join) {
            const Berthier__V1__Joined *j = NULL;
            assert_int_equal(brt_client_join(g->seat[i], g->id, (unsigned)i, &j), 0);
            assert_int_equal(brt_client_event_key(g->seat[i], g->event_key[i]), 0);
        }
    }
}

static void s_free_game(s_game *g) {
    for (int i = 0; i < 2; i++) brt_client_destroy(&g->seat[i]);
}

static uint64_t s_seq(brt_client *c, const char *id, unsigned seat) {
    const Berthier__V1__Decision *d = NULL;
    assert_int_equal(brt_client_pending(c, id, seat, &d), 0);
    return d->seq;
}

/* ---- tests ------------------------------------------------------------------ */

static void test_hello(void **state) {
    (void)state;
    brt_client *c = s_admin();
    const Berthier__V1__Hello *h = NULL;
    assert_int_equal(brt_client_hello(c, NULL, -1, &h), 0);
    assert_non_null(h);
    assert_true(h->admin);
    int duel = 0;
    for (size_t i = 0; i < h->n_rulesets; i++) duel |= strcmp(h->rulesets[i], "duel") == 0;
    assert_true(duel);
    assert_int_equal(brt_client_code(c), BRT_CODE_OK);
    brt_client_destroy(&c);
}

static void test_create_rejected(void **state) {
    (void)state;
    brt_keypair kp[2];
    brt_keypair_generate(&kp[0]);
    brt_keypair_generate(&kp[1]);
    const char *pubs[2] = {kp[0].public_z85, kp[1].public_z85};
    brt_client *c = s_admin();
    char id[BRT_GAME_ID_MAX + 1];
    brt_game_spec spec = {"no-such-ruleset", "standard", NULL, 0, pubs, 2, 0, 0, 0, NULL, 0};
    assert_int_equal(brt_client_create(c, &spec, id, NULL), -1);
    assert_int_equal(brt_client_code(c), BRT_CODE_BAD_RULESET);
    assert_true(strlen(brt_client_message(c)) > 0);
    assert_non_null(strstr(brt_client_error(c), "rejected BAD_RULESET"));
    spec.ruleset = "duel";
    spec.scenario = "no-such-scenario";
    assert_int_equal(brt_client_create(c, &spec, id, NULL), -1);
    assert_int_equal(brt_client_code(c), BRT_CODE_BAD_SCENARIO);
    spec.scenario = "standard";
    spec.n_seats = 1;
    assert_int_equal(brt_client_create(c, &spec, id, NULL), -1);
    assert_int_equal(brt_client_code(c), BRT_CODE_BAD_SEATS);
    brt_client_destroy(&c);
}

static void test_play_to_the_end(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, 1);
    brt_sub *sub = brt_client_subscribe(g.seat[0], g.id, 0, g.event_key[0]);
    assert_non_null(sub);
    s_sleep_ms(200); /* let the subscription reach the daemon */
    uint64_t rng = 12345;
    int ended = 0, orders = 0;
    for (int round = 0; round < 2000 && !ended; round++) {
        for (unsigned s = 0; s < 2 && !ended; s++) {
            const Berthier__V1__Decision *d = NULL;
            assert_int_equal(brt_client_pending(g.seat[s], g.id, s, &d), 0);
            if (d->result && d->result->ended) {
                ended = 1;
                break;
            }
            if (!d->you_must_act) continue;
            uint64_t seq = d->seq;
            const Berthier__V1__LegalOrders *lo = NULL;
            assert_int_equal(brt_client_legal(g.seat[s], g.id, s, 0, &lo), 0);
            assert_true(lo->n_orders > 0);
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            size_t k = (size_t)((rng >> 33) % lo->n_orders);
            uint8_t order[256];
            assert_true(lo->orders[k].len <= sizeof order);
            size_t len = lo->orders[k].len;
            memcpy(order, lo->orders[k].data, len);
            int rc = brt_client_submit(g.seat[s], g.id, s, seq, order, len, NULL);
            if (rc == 0) orders++;
            else
                assert_true(brt_client_code(g.seat[s]) == BRT_CODE_STALE ||
                            brt_client_code(g.seat[s]) == BRT_CODE_NOT_YOUR_DECISION);
        }
    }
    assert_true(ended);
    assert_true(orders > 0);
    /* The game is over: a new order is refused with its own code. */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, s_seq(g.seat[0], g.id, 0), "bid 1", NULL), -1);
    assert_true(brt_client_code(g.seat[0]) == BRT_CODE_GAME_OVER ||
                brt_client_code(g.seat[0]) == BRT_CODE_NOT_YOUR_DECISION);
    /* Seat 0's sealed stream delivered notices of this game, the last with the result. */
    int notices = 0, saw_end = 0;
    Berthier__V1__Notice *n = NULL;
    while (brt_sub_recv(sub, 300, &n) == 1) {
        assert_string_equal(n->game_id, g.id);
        notices++;
        if (n->decision && n->decision->result && n->decision->result->ended) saw_end = 1;
        berthier__v1__notice__free_unpacked(n, NULL);
    }
    assert_true(notices > 0);
    assert_true(saw_end);
    assert_int_equal(brt_sub_dropped(sub), 0);
    brt_sub_destroy(&sub);
    /* The log, fetched through the library, verifies. */
    brt_client *admin = s_admin();
    char path[256], cmd[700];
    snprintf(path, sizeof path, "%s/%s.log", s_dir, g.id);
    assert_int_equal(brt_client_fetch_log_file(admin, g.id, path), 0);
    snprintf(cmd, sizeof cmd, "'%s/berthier-replay' verify '%s' >&2", s_bin(), path);
    assert_int_equal(system(cmd), 0);
    const Berthier__V1__GameList *gl = NULL;
    assert_int_equal(brt_client_games(admin, &gl), 0);
    int listed = 0;
    for (size_t i = 0; i < gl->n_games; i++)
        if (strcmp(gl->games[i]->game_id, g.id) == 0) {
            listed = 1;
            assert_true(gl->games[i]->result && gl->games[i]->result->ended);
        }
    assert_true(listed);
    brt_client_destroy(&admin);
    s_free_game(&g);
}

static void test_rejections_carry_code_rule_message(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, 0);
    /* before the game starts */
    assert_int_equal(brt_client_join(g.seat[0], g.id, 0, NULL), 0);
    assert_int_equal(brt_client_join(g.seat[0], g.id, 0, NULL), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_ALREADY_JOINED);
    assert_int_equal(brt_client_join(g.seat[1], g.id, 1, NULL), 0);
    uint64_t seq = s_seq(g.seat[0], g.id, 0);
    /* the rules say no: code, rule and a sentence */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq, "bid 9", NULL), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_ILLEGAL);
    assert_string_equal(brt_client_rule(g.seat[0]), "D2");
    assert_true(strlen(brt_client_message(g.seat[0])) > 0);
    assert_int_equal(strncmp(brt_client_error(g.seat[0]), "rejected ILLEGAL [D2] ", 22), 0);
    assert_null(strchr(brt_client_error(g.seat[0]), '\n'));
    const Berthier__V1__Reply *r = brt_client_reply(g.seat[0]);
    assert_non_null(r);
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_ILLEGAL);
    /* text that does not parse */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq, "charge!", NULL), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_BAD_TEXT);
    /* stale seq */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq + 7, "bid 1", NULL), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_STALE);
    /* another seat's business */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 1, seq, "bid 1", NULL), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_NOT_YOUR_SEAT);
    /* no such game */
    brt_client *admin = s_admin();
    assert_int_equal(brt_client_pending(admin, "00000000deadbeef", 0, NULL), -1);
    assert_int_equal(brt_client_code(admin), BRT_CODE_UNKNOWN_GAME);
    brt_client_destroy(&admin);
    /* nothing of that changed the game */
    assert_int_equal(s_seq(g.seat[0], g.id, 0), seq);
    s_free_game(&g);
}

/* Encode a Submit of `text` for seat with a fixed request id, signed by that
 * seat's client (inputs are seat-signed, docs/protocol.md P3.1). */
static uint8_t *s_submit_bytes(brt_client *c, const char *id, unsigned seat, uint64_t seq, const char *text,
                               uint64_t request_id, size_t *len) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    s.game_id = (char *)id;
    s.seat = seat;
    s.based_on_seq = seq;
    s.order_text = (char *)text;
    req.request_id = request_id;
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &s;
    uint8_t sig[64];
    assert_int_equal(brt_client_sign(c, &req, sig), 0);
    *len = berthier__v1__request__get_packed_size(&req);
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    berthier__v1__request__pack(&req, b);
    return b;
}

static void test_retry_same_id_applies_once(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, 1);
    uint64_t seq = s_seq(g.seat[0], g.id, 0);
    const uint64_t rid0 = 0x0123456789abcdefull, rid1 = 0x0fedcba987654321ull;
    size_t len0, len1;
    uint8_t *b0 = s_submit_bytes(g.seat[0], g.id, 0, seq, "bid 1", rid0, &len0);
    uint8_t *b1 = s_submit_bytes(g.seat[1], g.id, 1, seq, "bid 2", rid1, &len1);

    /* seat 0's sealed bid, then the same bytes again: the same reply */
    assert_int_equal(brt_client_call_raw(g.seat[0], b0, len0, rid0), 0);
    assert_int_equal(brt_client_reply(g.seat[0])->body_case, BERTHIER__V1__REPLY__BODY_ACCEPTED);
    uint64_t first_seq = brt_client_reply(g.seat[0])->accepted->seq;
    assert_int_equal(brt_client_call_raw(g.seat[0], b0, len0, rid0), 0);
    assert_int_equal(brt_client_reply(g.seat[0])->accepted->seq, first_seq);
    /* and from a new connection with the same key */
    brt_client_destroy(&g.seat[0]);
    g.seat[0] = s_seat_client(&g.kp[0]);
    assert_int_equal(brt_client_call_raw(g.seat[0], b0, len0, rid0), 0);
    assert_int_equal(brt_client_reply(g.seat[0])->accepted->seq, first_seq);
    /* the same id with other bytes is refused */
    size_t len_other;
    uint8_t *other = s_submit_bytes(g.seat[0], g.id, 0, seq, "bid 0", rid0, &len_other);
    assert_int_equal(brt_client_call_raw(g.seat[0], other, len_other, rid0), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BRT_CODE_REQUEST_ID_REUSED);
    free(other);

    /* seat 1 bids: the round resolves once, seq moves by exactly one input */
    assert_int_equal(brt_client_call_raw(g.seat[1], b1, len1, rid1), 0);
    uint64_t after = s_seq(g.seat[1], g.id, 1);
    assert_true(after > seq);
    assert_int_equal(brt_client_call_raw(g.seat[1], b1, len1, rid1), 0);
    assert_int_equal(brt_client_call_raw(g.seat[0], b0, len0, rid0), 0);
    assert_int_equal(s_seq(g.seat[1], g.id, 1), after);

    /* kill -9 and restart the daemon: the retry is still answered, never re-applied */
    s_kill_daemon();
    assert_int_equal(s_start_daemon(), 0);
    brt_client_set_timeout(g.seat[1], 500, 20000);
    assert_int_equal(brt_client_call_raw(g.seat[1], b1, len1, rid1), 0);
    assert_int_equal(brt_client_reply(g.seat[1])->body_case, BERTHIER__V1__REPLY__BODY_ACCEPTED);
    assert_int_equal(s_seq(g.seat[1], g.id, 1), after);

    /* a call made while the daemon is down is retried until it is back */
    s_kill_daemon();
    char prog[512];
    snprintf(prog, sizeof prog, "%s/berthierd", s_bin());
    pid_t late = fork();
    assert_true(late >= 0);
    if (late == 0) { /* the daemon comes back in a second */
        s_sleep_ms(1000);
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execl(prog, "berthierd", "--data-dir", s_data, (char *)NULL);
        _exit(127);
    }
    s_daemon = late;
    brt_client_set_timeout(g.seat[0], 300, 20000);
    assert_int_equal(brt_client_call_raw(g.seat[0], b0, len0, rid0), 0);
    assert_int_equal(brt_client_reply(g.seat[0])->body_case, BERTHIER__V1__REPLY__BODY_ACCEPTED);
    assert_int_equal(s_seq(g.seat[0], g.id, 0), after);
    free(b0);
    free(b1);
    s_free_game(&g);
}

static void test_no_daemon_is_no_reply(void **state) {
    (void)state;
    brt_keypair kp, server;
    brt_keypair_generate(&kp);
    brt_keypair_generate(&server);
    char ep[200];
    snprintf(ep, sizeof ep, "ipc://%s/nobody.sock", s_dir);
    brt_client *c = brt_client_new_keypair(ep, server.public_z85, &kp);
    assert_non_null(c);
    brt_client_set_timeout(c, 100, 300);
    assert_int_equal(brt_client_hello(c, NULL, -1, NULL), -1);
    assert_int_equal(brt_client_code(c), BRT_CLIENT_NO_REPLY);
    assert_int_equal(strncmp(brt_client_error(c), "no reply from ", 14), 0);
    brt_client_destroy(&c);
    /* and bad keys are refused up front */
    brt_keypair bad = kp;
    bad.secret_z85[3] = '\0';
    assert_null(brt_client_new_keypair(ep, server.public_z85, &bad));
}

static void test_keys_files(void **state) {
    (void)state;
    brt_keypair kp, back;
    char name[200], path[220], pub[BRT_Z85_KEY_LEN + 1];
    assert_int_equal(brt_keypair_generate(&kp), 0);
    snprintf(name, sizeof name, "%s/k", s_dir);
    assert_int_equal(brt_keypair_save(&kp, name), 0);
    assert_int_equal(brt_keypair_save(&kp, name), -1); /* never overwrites */
    snprintf(path, sizeof path, "%s.key", name);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(brt_keypair_load(&back, path), 0);
    assert_string_equal(back.public_z85, kp.public_z85);
    assert_string_equal(back.secret_z85, kp.secret_z85);
    assert_int_equal(brt_pubkey_resolve(path, pub), 0);
    assert_string_equal(pub, kp.public_z85);
    snprintf(path, sizeof path, "%s.pub", name);
    assert_int_equal(brt_pubkey_resolve(path, pub), 0);
    assert_string_equal(pub, kp.public_z85);
    assert_int_equal(brt_pubkey_resolve(kp.public_z85, pub), 0);
    assert_int_equal(brt_pubkey_resolve("not a key", pub), -1);
    assert_string_equal(brt_code_name(BRT_CODE_STALE), "STALE");
    assert_string_equal(brt_code_name(BRT_CLIENT_NO_REPLY), "NO_REPLY");
}

/* The library's seat signing key is the one docs/protocol.md P3.1 derives: the
 * known answer of tests/unit/test_replay_seatsig.c and the Python tests. */
static void test_seat_sign_key_known_answer(void **state) {
    (void)state;
    uint8_t sk[32], pk[32], sign_pk[32];
    for (int i = 0; i < 32; i++) sk[i] = (uint8_t)i;
    crypto_scalarmult_base(pk, sk);
    brt_keypair kp, server;
    assert_non_null(zmq_z85_encode(kp.secret_z85, sk, 32));
    assert_non_null(zmq_z85_encode(kp.public_z85, pk, 32));
    brt_keypair_generate(&server);
    char ep[200];
    snprintf(ep, sizeof ep, "ipc://%s/nobody.sock", s_dir);
    brt_client *c = brt_client_new_keypair(ep, server.public_z85, &kp);
    assert_non_null(c);
    brt_client_sign_pk(c, sign_pk);
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, sign_pk, 32);
    assert_string_equal(hex, "a2346bd69b5b9ab9357477ecbbfb0fca4d1501000f4c1bbeafebfa2cf7fc3b0d");
    brt_client_destroy(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hello),
        cmocka_unit_test(test_create_rejected),
        cmocka_unit_test(test_play_to_the_end),
        cmocka_unit_test(test_rejections_carry_code_rule_message),
        cmocka_unit_test(test_retry_same_id_applies_once),
        cmocka_unit_test(test_no_daemon_is_no_reply),
        cmocka_unit_test(test_keys_files),
        cmocka_unit_test(test_seat_sign_key_known_answer),
    };
    return cmocka_run_group_tests(tests, s_group_setup, s_group_teardown);
}
