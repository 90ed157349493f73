/*
 * test_daemon_common.h - what the berthierd end-to-end tests share: start and
 * kill a daemon on a fresh data dir, and talk to it over raw ZeroMQ (DEALER +
 * CURVE), one Request frame out, one Reply frame back.
 *
 * Every daemon started is recorded and killed at exit, whatever happens to
 * the test.
 */
#ifndef TEST_DAEMON_COMMON_H
#define TEST_DAEMON_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "dice.h"
#include "seatsig.h"

#define TD_MAX_DAEMONS 16

typedef struct td_daemon {
    pid_t pid;
    char dir[256];
    char server_pub[41];
    char admin_pub[41], admin_sec[41];
    char extra[8][128];   /* extra command-line arguments */
    int nextra;
    int last_exit;        /* exit status when td_start saw it exit */
    const char *binary;   /* NULL: berthierd */
    char env[256];        /* one NAME=value for the daemon, or "" */
} td_daemon;

static pid_t td_pids[TD_MAX_DAEMONS];

static __attribute__((unused)) void td_kill_all(void) {
    for (int i = 0; i < TD_MAX_DAEMONS; i++)
        if (td_pids[i] > 0) {
            kill(td_pids[i], SIGKILL);
            waitpid(td_pids[i], NULL, 0);
            td_pids[i] = 0;
        }
}

static __attribute__((unused)) void td_track(pid_t pid, int add) {
    static int registered;
    if (!registered) {
        atexit(td_kill_all);
        registered = 1;
    }
    for (int i = 0; i < TD_MAX_DAEMONS; i++) {
        if (add && td_pids[i] == 0) {
            td_pids[i] = pid;
            return;
        }
        if (!add && td_pids[i] == pid) {
            td_pids[i] = 0;
            return;
        }
    }
}

static __attribute__((unused)) void td_sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static __attribute__((unused)) int td_read_line(const char *path, char *out, size_t max) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(out, (int)max, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    out[strcspn(out, "\r\n")] = 0;
    return 0;
}

static __attribute__((unused)) int td_read_keypair(const char *path, char pub[41], char sec[41]) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char p[64], s[64];
    int n = fscanf(f, "public %63s secret %63s", p, s);
    fclose(f);
    if (n != 2 || strlen(p) != 40 || strlen(s) != 40) return -1;
    memcpy(pub, p, 41);
    memcpy(sec, s, 41);
    return 0;
}

/* Lines of the daemon's log that announce a start. */
static __attribute__((unused)) int td_ready_count(const char *logpath) {
    FILE *f = fopen(logpath, "r");
    if (!f) return 0;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "berthierd: berthierd ") && strstr(line, " ready: ")) n++;
    fclose(f);
    return n;
}

/* A fresh data dir (d->dir empty) or the same one again (restart).
 * 0 = ready, -2 = the daemon exited (see td_exited / daemon.log), -1 = error. */
static __attribute__((unused)) int td_start(td_daemon *d) {
    if (!d->dir[0]) {
        snprintf(d->dir, sizeof d->dir, "/tmp/berthierd-test-XXXXXX");
        if (!mkdtemp(d->dir)) return -1;
    }
    const char *bindir = getenv("BERTHIER_BIN");
    char bin[512];
    snprintf(bin, sizeof bin, "%s/%s", bindir ? bindir : "build/bin", d->binary ? d->binary : "berthierd");
    char logpath[300];
    snprintf(logpath, sizeof logpath, "%s/daemon.log", d->dir);
    int before = td_ready_count(logpath);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 2);
            dup2(fd, 1);
            close(fd);
        }
        char *argv[24];
        int n = 0;
        argv[n++] = bin;
        argv[n++] = (char *)"--data-dir";
        argv[n++] = d->dir;
        for (int i = 0; i < d->nextra && n < 22; i++) argv[n++] = d->extra[i];
        argv[n] = NULL;
        unsetenv("NOTIFY_SOCKET");
        unsetenv("WATCHDOG_USEC");
        if (d->env[0]) putenv(d->env);
        execv(bin, argv);
        _exit(127);
    }
    d->pid = pid;
    td_track(pid, 1);
    char pubp[300], admp[300];
    snprintf(pubp, sizeof pubp, "%s/server.pub", d->dir);
    snprintf(admp, sizeof admp, "%s/admin.key", d->dir);
    d->last_exit = -1;
    for (int i = 0; i < 3000; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            td_track(pid, 0);
            d->pid = 0;
            d->last_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return -2;
        }
        if (td_ready_count(logpath) > before && td_read_line(pubp, d->server_pub, sizeof d->server_pub) == 0 &&
            td_read_keypair(admp, d->admin_pub, d->admin_sec) == 0)
            return 0;
        td_sleep_ms(10);
    }
    return -1;
}

/* Exit status of a daemon that stopped by itself (or -1 if still running). */
static __attribute__((unused)) int td_exited(td_daemon *d) {
    int status;
    if (d->pid <= 0) return -1;
    if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
        td_track(d->pid, 0);
        d->pid = 0;
        d->last_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return d->last_exit;
    }
    return -1;
}

static __attribute__((unused)) int td_alive(td_daemon *d) { return td_exited(d) < 0 && d->pid > 0; }

/* SIGTERM, then SIGKILL after 10 s. Returns the exit status. */
static __attribute__((unused)) int td_stop(td_daemon *d) {
    if (d->pid <= 0) return -1;
    kill(d->pid, SIGTERM);
    int status = 0;
    for (int i = 0; i < 1000; i++) {
        if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
            td_track(d->pid, 0);
            d->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        td_sleep_ms(10);
    }
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &status, 0);
    td_track(d->pid, 0);
    d->pid = 0;
    return 137;
}

static __attribute__((unused)) void td_kill9(td_daemon *d) {
    if (d->pid <= 0) return;
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    td_track(d->pid, 0);
    d->pid = 0;
}

static __attribute__((unused)) void td_rmrf(const char *dir) {
    if (!dir[0] || getenv("BERTHIER_KEEP")) return;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {}
}

/* ---- clients ------------------------------------------------------------- */

typedef struct td_client {
    void *ctx, *sock;
    char pub[41], sec[41];
    uint8_t pk[32];
    uint64_t next_id;
} td_client;

static __attribute__((unused)) void *td_zctx(void) {
    static void *ctx;
    if (!ctx) ctx = zmq_ctx_new();
    return ctx;
}

/* The client's DEALER with its CURVE keys, not yet connected (a test may attach a
 * monitor before td_client_dial, so that it sees the handshake). */
static __attribute__((unused)) int td_client_open(td_client *c, const td_daemon *d) {
    c->ctx = td_zctx();
    c->sock = zmq_socket(c->ctx, ZMQ_DEALER);
    if (!c->sock) return -1;
    int linger = 0;
    zmq_setsockopt(c->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(c->sock, ZMQ_CURVE_SERVERKEY, d->server_pub, 40);
    zmq_setsockopt(c->sock, ZMQ_CURVE_PUBLICKEY, c->pub, 40);
    zmq_setsockopt(c->sock, ZMQ_CURVE_SECRETKEY, c->sec, 40);
    return 0;
}

static __attribute__((unused)) int td_client_dial(td_client *c, const td_daemon *d) {
    char ep[300];
    snprintf(ep, sizeof ep, "ipc://%s/berthier.sock", d->dir);
    return zmq_connect(c->sock, ep);
}

static __attribute__((unused)) int td_client_connect(td_client *c, const td_daemon *d) {
    if (td_client_open(c, d) != 0) return -1;
    return td_client_dial(c, d);
}

/* A client with the given keypair (pub NULL: a fresh one). */
static __attribute__((unused)) td_client *td_client_new(const td_daemon *d, const char *pub, const char *sec) {
    td_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (pub) {
        memcpy(c->pub, pub, 41);
        memcpy(c->sec, sec, 41);
    } else if (zmq_curve_keypair(c->pub, c->sec) != 0) {
        free(c);
        return NULL;
    }
    zmq_z85_decode(c->pk, c->pub);
    c->next_id = 1000;
    if (td_client_connect(c, d) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

static __attribute__((unused)) void td_client_reconnect(td_client *c, const td_daemon *d) {
    if (c->sock) zmq_close(c->sock);
    c->sock = NULL;
    td_client_connect(c, d);
}

static __attribute__((unused)) void td_client_destroy(td_client **pc) {
    if (!pc || !*pc) return;
    if ((*pc)->sock) zmq_close((*pc)->sock);
    free(*pc);
    *pc = NULL;
}

static __attribute__((unused)) int td_send_raw(td_client *c, const void *frame, size_t len) {
    return zmq_send(c->sock, frame, len, ZMQ_DONTWAIT) == (int)len ? 0 : -1;
}

/* Wait for one reply frame. NULL on timeout. */
static __attribute__((unused)) Berthier__V1__Reply *td_recv(td_client *c, int timeout_ms) {
    zmq_pollitem_t it = {c->sock, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&it, 1, timeout_ms) <= 0) return NULL;
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, c->sock, 0) < 0) {
        zmq_msg_close(&m);
        return NULL;
    }
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
    zmq_msg_close(&m);
    return r;
}

static __attribute__((unused)) Berthier__V1__Reply *td_call_raw(td_client *c, const void *frame, size_t len, int timeout_ms) {
    if (td_send_raw(c, frame, len) != 0) return NULL;
    return td_recv(c, timeout_ms);
}

/* ---- seat signatures (docs/protocol.md P3.1) ------------------------------
 * Every input a seat makes is signed. td_call signs joins, resigns and reveals,
 * td_submit_bytes signs submits, with the key the seat's join bound: the key
 * derived from the joining client's CURVE secret key, remembered per (game,
 * seat) once the join is acknowledged, with the header hash it signed. A test
 * that wants an unsigned or a forged input builds its bytes by hand. */
typedef struct td_signer {
    char gid[48];
    unsigned seat;
    uint8_t sk[64], pk[32], hh[32];
} td_signer;

#define TD_SIGNERS 1024
static td_signer td_signers[TD_SIGNERS];   /* a ring: the oldest goes first */
static unsigned td_nsigners;

static __attribute__((unused)) td_signer *td_signer_find(const char *gid, unsigned seat) {
    unsigned n = td_nsigners < TD_SIGNERS ? td_nsigners : TD_SIGNERS;
    for (unsigned k = 0; k < n; k++) {
        td_signer *s = &td_signers[(td_nsigners - 1 - k) % TD_SIGNERS];
        if (s->seat == seat && strcmp(s->gid, gid) == 0) return s;
    }
    return NULL;
}

/* The body of an input request and its oneof field number (0: not an input). */
static __attribute__((unused)) const ProtobufCMessage *td_input_body(const Berthier__V1__Request *req, const char **gid,
                                                                      unsigned *seat, uint64_t *seq, unsigned *field) {
    *seq = 0;
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN:
        *gid = req->join->game_id, *seat = req->join->seat, *field = SEATSIG_BODY_JOIN;
        return &req->join->base;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT:
        *gid = req->submit->game_id, *seat = req->submit->seat, *field = SEATSIG_BODY_SUBMIT;
        *seq = req->submit->based_on_seq;
        return &req->submit->base;
    case BERTHIER__V1__REQUEST__BODY_RESIGN:
        *gid = req->resign->game_id, *seat = req->resign->seat, *field = SEATSIG_BODY_RESIGN;
        return &req->resign->base;
    case BERTHIER__V1__REQUEST__BODY_REVEAL:
        *gid = req->reveal->game_id, *seat = req->reveal->seat, *field = SEATSIG_BODY_REVEAL;
        return &req->reveal->base;
    default: *field = 0; return NULL;
    }
}

/* Sign req (an input without a signature) with sk over header hash hh; sig
 * receives the signature, which req then points to. 0 / -1. */
static __attribute__((unused)) int td_sign_with(Berthier__V1__Request *req, const uint8_t sk[64], const uint8_t hh[32],
                                               uint8_t sig[64]) {
    const char *gid = "";
    unsigned seat = 0, field = 0;
    uint64_t seq = 0;
    const ProtobufCMessage *body = td_input_body(req, &gid, &seat, &seq, &field);
    if (!body || !gid) return -1;
    size_t n = protobuf_c_message_get_packed_size(body);
    uint8_t *b = malloc(n ? n : 1);
    protobuf_c_message_pack(body, b);
    int rc = seatsig_sign(sk, gid, hh, seq, req->request_id, field, b, n, sig);
    free(b);
    if (rc != 0) return -1;
    req->signature.data = sig;
    req->signature.len = 64;
    return 0;
}

/* Sign with the remembered key of the request's (game, seat), if there is one. */
static __attribute__((unused)) void td_sign_request(Berthier__V1__Request *req, uint8_t sig[64]) {
    const char *gid = "";
    unsigned seat = 0, field = 0;
    uint64_t seq = 0;
    if (req->signature.len || !td_input_body(req, &gid, &seat, &seq, &field) || !gid) return;
    td_signer *s = td_signer_find(gid, seat);
    if (s) td_sign_with(req, s->sk, s->hh, sig);
}

static __attribute__((unused)) Berthier__V1__Reply *td_call_plain(td_client *c, Berthier__V1__Request *req,
                                                                 int timeout_ms) {
    if (!req->request_id) req->request_id = ++c->next_id;
    size_t n = berthier__v1__request__get_packed_size(req);
    uint8_t *buf = malloc(n ? n : 1);
    berthier__v1__request__pack(req, buf);
    Berthier__V1__Reply *r = td_call_raw(c, buf, n, timeout_ms);
    free(buf);
    return r;
}

/* The game's header hash as the daemon gives it to `seat` (checked against the
 * header bytes it comes with). 0 / -1. */
static __attribute__((unused)) int td_header_hash(td_client *c, const char *gid, unsigned seat, uint8_t hh[32]) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HEADER;
    req.header = &g;
    Berthier__V1__Reply *r = td_call_plain(c, &req, 10000);
    int rc = -1;
    if (r && r->code == BERTHIER__V1__CODE__CODE_OK && r->body_case == BERTHIER__V1__REPLY__BODY_HEADER &&
        r->header->header_hash.len == 32) {
        uint8_t mine[32];
        seatsig_header_hash(r->header->header.data, r->header->header.len, mine);
        if (memcmp(mine, r->header->header_hash.data, 32) == 0) {
            memcpy(hh, mine, 32);
            rc = 0;
        }
    }
    if (r) berthier__v1__reply__free_unpacked(r, NULL);
    return rc;
}

/* The seat signing keypair of a client (from its CURVE secret key). */
static __attribute__((unused)) void td_client_sign_key(const td_client *c, uint8_t pk[32], uint8_t sk[64]) {
    uint8_t curve_sk[32];
    zmq_z85_decode(curve_sk, c->sec);
    seatsig_derive(curve_sk, pk, sk);
}

/* Pack (request_id 0 gets the next id) and call. Inputs are seat-signed (above):
 * a join without a sign_pk gets the client's key and the game's header hash. */
static __attribute__((unused)) Berthier__V1__Reply *td_call(td_client *c, Berthier__V1__Request *req, int timeout_ms) {
    if (!req->request_id) req->request_id = ++c->next_id;
    uint8_t sig[64], pk[32], sk[64], hh[32];
    int unsigned_before = req->signature.len == 0;
    int join = req->body_case == BERTHIER__V1__REQUEST__BODY_JOIN && !req->signature.len && req->join->game_id;
    if (join && !req->join->sign_pk.len) {
        td_client_sign_key(c, pk, sk);
        if (td_header_hash(c, req->join->game_id, req->join->seat, hh) == 0) {
            req->join->sign_pk.data = pk;
            req->join->sign_pk.len = 32;
            req->join->header_hash.data = hh;
            req->join->header_hash.len = 32;
            td_sign_with(req, sk, hh, sig);
        }
    } else {
        join = 0;
        td_sign_request(req, sig);
    }
    Berthier__V1__Reply *r = td_call_plain(c, req, timeout_ms);
    /* ALREADY_JOINED: a join whose reply was lost bound this same key (derived). */
    if (join && req->signature.len && r &&
        (r->code == BERTHIER__V1__CODE__CODE_OK || r->code == BERTHIER__V1__CODE__CODE_ALREADY_JOINED)) {
        td_signer *s = &td_signers[td_nsigners++ % TD_SIGNERS];
        snprintf(s->gid, sizeof s->gid, "%s", req->join->game_id);
        s->seat = req->join->seat;
        memcpy(s->sk, sk, 64);
        memcpy(s->pk, pk, 32);
        memcpy(s->hh, hh, 32);
    }
    /* Leave the request as it came (the signature lived on this stack). */
    if (join) {
        req->join->sign_pk.len = 0;
        req->join->header_hash.len = 0;
    }
    if (unsigned_before) {
        req->signature.data = NULL;
        req->signature.len = 0;
    }
    return r;
}

/* ---- fixtures ------------------------------------------------------------ */

/* n fresh keypairs (Z85) and the public keys' 32 bytes. */
static __attribute__((unused)) void td_fresh_keys(int n, char (*pub)[41], char (*sec)[41], uint8_t (*keys)[32]) {
    for (int i = 0; i < n; i++) {
        zmq_curve_keypair(pub[i], sec[i]);
        zmq_z85_decode(keys[i], pub[i]);
    }
}

/* A daemon on a fresh data dir with these extra arguments, started by `start`
 * (NULL: td_start), and an admin client on it. -1 (why on stderr) if it did
 * not start. */
static __attribute__((unused)) int td_start_admin(td_daemon *d, td_client **admin, const char *const *extra, int nextra,
                                                  int (*start)(td_daemon *)) {
    for (int i = 0; i < nextra; i++) snprintf(d->extra[i], sizeof d->extra[i], "%s", extra[i]);
    d->nextra = nextra;
    if ((start ? start : td_start)(d) != 0) {
        fprintf(stderr, "berthierd did not start (see %s/daemon.log)\n", d->dir);
        return -1;
    }
    *admin = td_client_new(d, d->admin_pub, d->admin_sec);
    return 0;
}

/* A fixture's end: the daemon killed, the admin and n seat clients closed,
 * the data dir removed (freeing the fixture is the caller's). */
static __attribute__((unused)) void td_fixture_end(td_daemon *d, td_client **admin, td_client **seats, int n) {
    td_kill9(d);
    td_client_destroy(admin);
    for (int i = 0; i < n; i++) td_client_destroy(&seats[i]);
    td_rmrf(d->dir);
}

/* Lines of the daemon's daemon.log that contain `needle`. */
static __attribute__((unused)) int td_log_count(const td_daemon *d, const char *needle) {
    char path[300], line[4096];
    snprintf(path, sizeof path, "%s/daemon.log", d->dir);
    FILE *fp = fopen(path, "r");
    if (!fp) return 0;
    int n = 0;
    while (fgets(line, sizeof line, fp))
        if (strstr(line, needle)) n++;
    fclose(fp);
    return n;
}

#define TD_TIMEOUT 10000

static __attribute__((unused)) Berthier__V1__Reply *td_create(td_client *admin, const char *ruleset, const char *scenario, unsigned nseats,
                                      const uint8_t (*keys)[32], const char *const *opts, size_t nopts,
                                      uint32_t decision_ms, uint32_t bank_ms) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame cg = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[8], *sp[8];
    Berthier__V1__Clock clk = BERTHIER__V1__CLOCK__INIT;
    for (unsigned i = 0; i < nseats && i < 8; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = (uint8_t *)keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    cg.ruleset = (char *)ruleset;
    cg.scenario = (char *)scenario;
    cg.n_seats = nseats;
    cg.seats = sp;
    cg.n_options = nopts;
    cg.options = (char **)opts;
    if (decision_ms || bank_ms) {
        clk.decision_ms = decision_ms;
        clk.bank_ms = bank_ms;
        cg.clock = &clk;
    }
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &cg;
    return td_call(admin, &req, TD_TIMEOUT);
}

/* Join with rand() entropy; commit (dice=contributory): the seat's nonce chain head, or NULL. */
static __attribute__((unused)) Berthier__V1__Reply *td_join_chain(td_client *c, const char *gid, unsigned seat,
                                                                 const uint8_t *commit) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    uint8_t ent[32];
    for (int i = 0; i < 32; i++) ent[i] = (uint8_t)(rand() & 0xff);
    j.game_id = (char *)gid;
    j.seat = seat;
    j.entropy.data = ent;
    j.entropy.len = 32;
    if (commit) {
        j.chain_commit.data = (uint8_t *)commit;
        j.chain_commit.len = 32;
    }
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    return td_call(c, &req, TD_TIMEOUT);
}

static __attribute__((unused)) Berthier__V1__Reply *td_join(td_client *c, const char *gid, unsigned seat) {
    return td_join_chain(c, gid, seat, NULL);
}

/* Nonce chains for n seats (dice=contributory, docs/dice.md section 7): seat i's links are
 * chains[i * (len + 1) + k], k = 0 (the commitment) .. len, link len drawn at random. */
static __attribute__((unused)) void td_fresh_chains(int n, size_t len, uint8_t (*chains)[32]) {
    for (int i = 0; i < n; i++) {
        uint8_t (*c)[32] = chains + (size_t)i * (len + 1);
        randombytes_buf(c[len], 32);
        for (size_t k = len; k > 0; k--) dice_chain_step(c[k], c[k - 1]);
    }
}

static __attribute__((unused)) Berthier__V1__Reply *td_gameref(td_client *c, Berthier__V1__Request__BodyCase kind, const char *gid,
                                       unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    req.body_case = kind;
    switch (kind) {
    case BERTHIER__V1__REQUEST__BODY_PENDING: req.pending = &g; break;
    case BERTHIER__V1__REQUEST__BODY_LEGAL: req.legal = &g; break;
    case BERTHIER__V1__REQUEST__BODY_STATE: req.state = &g; break;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: req.resign = &g; break;
    case BERTHIER__V1__REQUEST__BODY_LIST_GAMES: req.list_games = &g; break;
    case BERTHIER__V1__REQUEST__BODY_EVENTS: req.events = &g; break;
    case BERTHIER__V1__REQUEST__BODY_HELLO: req.hello = &g; break;
    default: return NULL;
    }
    return td_call(c, &req, TD_TIMEOUT);
}

/* A submit's exact bytes (so that a test can send them again). */
static __attribute__((unused)) uint8_t *td_submit_bytes(uint64_t rid, const char *gid, unsigned seat, uint64_t seq, const char *text,
                                const uint8_t *order, size_t order_len, size_t *len) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    s.game_id = (char *)gid;
    s.seat = seat;
    s.based_on_seq = seq;
    if (text) s.order_text = (char *)text;
    if (order) {
        s.order.data = (uint8_t *)order;
        s.order.len = order_len;
    }
    req.request_id = rid;
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &s;
    uint8_t sig[64];
    td_sign_request(&req, sig);
    *len = berthier__v1__request__get_packed_size(&req);
    uint8_t *buf = malloc(*len ? *len : 1);
    berthier__v1__request__pack(&req, buf);
    return buf;
}

static __attribute__((unused)) Berthier__V1__Reply *td_submit_text(td_client *c, const char *gid, unsigned seat, uint64_t seq,
                                           const char *text) {
    size_t n;
    uint8_t *b = td_submit_bytes(++c->next_id, gid, seat, seq, text, NULL, 0, &n);
    Berthier__V1__Reply *r = td_call_raw(c, b, n, TD_TIMEOUT);
    free(b);
    return r;
}

/* Bytes of a file (NULL if absent). */
static __attribute__((unused)) uint8_t *td_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(b, 1, n > 0 ? (size_t)n : 0, f);
    fclose(f);
    return b;
}

static __attribute__((unused)) int td_replay_verify(const char *log, int *skipped) {
    const char *bindir = getenv("BERTHIER_BIN");
    char bin[512], cmd[2048];
    snprintf(bin, sizeof bin, "%s/berthier-replay", bindir ? bindir : "build/bin");
    *skipped = 0;
    if (access(bin, X_OK) != 0) {
        *skipped = 1;
        return 0;
    }
    snprintf(cmd, sizeof cmd, "'%s' verify '%s' > /dev/null 2>&1", bin, log);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

#endif
