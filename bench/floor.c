/*
 * floor.c - the floors: what this machine can do with no Berthier in the way.
 *
 * A child process plays the server: a ROUTER socket, CURVE server, bound on
 * ipc in the run's work dir, exactly like berthierd's request socket. The
 * parent is a DEALER client with its own CURVE keypair. A request frame of
 * 8 bytes or more starts with two u32 (little-endian): the size of the reply
 * to send and the bytes to append to the file per frame, so that a floor can
 * move the same bytes as the daemon's requests, replies and records; the rest
 * of the frame is filler. An empty frame stops the server.
 *   - latency (floor_session_*): one request at a time; the server appends
 *     the record to a file and fdatasyncs it before it answers (a durable
 *     order with nothing else); the same without the file, and the file alone,
 *     to split the floor. Sampled between the daemon's orders (live.c).
 *   - echo: the server sends every frame straight back; the client keeps
 *     `window` frames in flight and counts replies per second.
 *   - durable echo (group commit): the server reads every frame there is
 *     (the first one blocking, the rest without waiting), appends one record
 *     per frame to one file, fdatasyncs once, then answers them all; the
 *     client keeps `window` frames in flight. The first 8 bytes of each reply
 *     are the number of the round that made it durable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "bench.h"

enum { S_ECHO = 0, S_SYNC = 1, S_GROUP = 2, S_SYNC_THREAD = 3 };
enum { S_MAX_FRAME = 1 << 20, S_MAX_BATCH = 4096, S_FLOOR_MAX = 16384 };

typedef struct s_server {
    pid_t pid;
    char endpoint[300];
    char server_pub[41];
} s_server;

static uint32_t s_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void s_put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* What a request frame asks for: reply size (0 = echo the frame) and record bytes. */
static void s_frame_asks(const zmq_msg_t *body, size_t *reply, size_t *record) {
    *reply = 0;
    *record = 200;
    if (zmq_msg_size(body) >= 8) {
        const uint8_t *b = zmq_msg_data((zmq_msg_t *)body);
        *reply = s_u32(b);
        *record = s_u32(b + 4);
        if (*reply > S_MAX_FRAME) *reply = S_MAX_FRAME;
        if (*record > S_MAX_FRAME) *record = S_MAX_FRAME;
    }
}

static int s_reply(void *sock, zmq_msg_t *id, zmq_msg_t *body, size_t size, const uint8_t *zeros, uint64_t round) {
    if (zmq_msg_send(id, sock, ZMQ_SNDMORE) < 0) return -1;
    if (!size) return zmq_msg_send(body, sock, 0) < 0 ? -1 : 0;
    zmq_msg_t out;
    if (zmq_msg_init_size(&out, size) != 0) return -1;
    uint8_t *d = zmq_msg_data(&out);
    memcpy(d, zeros, size);
    if (size >= 8) memcpy(d, &round, 8);
    (void)body;
    return zmq_msg_send(&out, sock, 0) < 0 ? -1 : 0;
}

/* S_SYNC_THREAD: the append and fdatasync on a second thread, handed over and back through
 * pipes, as berthierd's main loop hands a round's fdatasyncs to its flush threads. */
typedef struct {
    int fd, to_worker[2], to_main[2];
    const uint8_t *recs;
} s_flusher;

static void *s_flush_run(void *arg) {
    s_flusher *f = arg;
    uint32_t n;
    while (read(f->to_worker[0], &n, sizeof n) == (ssize_t)sizeof n) {
        char ok = 1;
        if (n && (write(f->fd, f->recs, n) != (ssize_t)n || fdatasync(f->fd) != 0)) ok = 0;
        if (write(f->to_main[1], &ok, 1) != 1) break;
    }
    return NULL;
}

static void s_serve(const char *endpoint, const char *secret, int mode, const char *file) {
    void *ctx = zmq_ctx_new();
    void *sock = zmq_socket(ctx, ZMQ_ROUTER);
    int one = 1, zero = 0, hwm = 100000;
    zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one);
    zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, secret, 40);
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (zmq_bind(sock, endpoint) != 0) _exit(3);
    int fd = -1;
    if (mode != S_ECHO) {
        fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
        if (fd < 0) _exit(4);
    }
    uint8_t *zeros = calloc(1, S_MAX_FRAME);
    uint8_t *recs = malloc(S_MAX_FRAME);
    zmq_msg_t *ids = calloc(S_MAX_BATCH, sizeof *ids), *bodies = calloc(S_MAX_BATCH, sizeof *bodies);
    size_t *sizes = calloc(S_MAX_BATCH, sizeof *sizes);
    if (!zeros || !recs || !ids || !bodies || !sizes) _exit(6);
    memset(recs, 0x5a, S_MAX_FRAME);
    s_flusher fl = {fd, {-1, -1}, {-1, -1}, recs};
    pthread_t th;
    if (mode == S_SYNC_THREAD &&
        (pipe(fl.to_worker) != 0 || pipe(fl.to_main) != 0 || pthread_create(&th, NULL, s_flush_run, &fl) != 0))
        _exit(7);
    uint64_t round = 0;
    for (int stop = 0; !stop;) {
        /* one round: the first frame waits, the rest are what is there already (S_GROUP) */
        size_t n = 0, bytes = 0;
        while (n < S_MAX_BATCH) {
            zmq_msg_init(&ids[n]);
            zmq_msg_init(&bodies[n]);
            int flags = n == 0 ? 0 : ZMQ_DONTWAIT;
            if (zmq_msg_recv(&ids[n], sock, flags) < 0) {
                zmq_msg_close(&ids[n]);
                zmq_msg_close(&bodies[n]);
                if (n == 0) stop = 1;
                break;
            }
            if (zmq_msg_recv(&bodies[n], sock, 0) < 0 || zmq_msg_size(&bodies[n]) == 0) {
                zmq_msg_close(&ids[n]);
                zmq_msg_close(&bodies[n]);
                stop = 1;   /* the parent says stop (the frames before it are answered) */
                break;
            }
            size_t rec;
            s_frame_asks(&bodies[n], &sizes[n], &rec);
            if (bytes + rec > S_MAX_FRAME) rec = 0;
            bytes += rec;
            n++;
            if (mode != S_GROUP) break;
        }
        if (n == 0) break;
        round++;
        if (mode == S_SYNC_THREAD) {
            uint32_t nb = (uint32_t)bytes;
            char ok = 0;
            if (write(fl.to_worker[1], &nb, sizeof nb) != (ssize_t)sizeof nb || read(fl.to_main[0], &ok, 1) != 1 || !ok)
                _exit(5);
        } else if (fd >= 0 && bytes && (write(fd, recs, bytes) != (ssize_t)bytes || fdatasync(fd) != 0)) {
            _exit(5);
        }
        for (size_t i = 0; i < n; i++) {
            s_reply(sock, &ids[i], &bodies[i], sizes[i], zeros, round);
            zmq_msg_close(&ids[i]);
            zmq_msg_close(&bodies[i]);
        }
    }
    if (fd >= 0) close(fd);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    _exit(0);
}

static int s_server_start(s_server *s, const bench_opts *o, int mode, const char *name) {
    char secret[41];
    if (zmq_curve_keypair(s->server_pub, secret) != 0) return -1;
    snprintf(s->endpoint, sizeof s->endpoint, "ipc://%s/%s.sock", o->workdir, name);
    char file[400];
    snprintf(file, sizeof file, "%s/%s.dat", o->workdir, name);
    fflush(NULL);
    s->pid = fork();
    if (s->pid < 0) return -1;
    if (s->pid == 0) s_serve(s->endpoint, secret, mode, file);
    return 0;
}

static void s_server_stop(s_server *s, void *client) {
    if (client) zmq_send(client, "", 0, ZMQ_DONTWAIT);
    for (int i = 0; i < 200; i++) {
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) return;
        usleep(10000);
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
}

static void *s_client(void *ctx, const s_server *s) {
    char pub[41], sec[41];
    zmq_curve_keypair(pub, sec);
    void *c = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, hwm = 100000;
    zmq_setsockopt(c, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(c, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(c, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(c, ZMQ_CURVE_SERVERKEY, s->server_pub, 40);
    zmq_setsockopt(c, ZMQ_CURVE_PUBLICKEY, pub, 40);
    zmq_setsockopt(c, ZMQ_CURVE_SECRETKEY, sec, 40);
    if (zmq_connect(c, s->endpoint) != 0) {
        zmq_close(c);
        return NULL;
    }
    return c;
}

static int s_recv_timeout(void *sock, void *buf, size_t len, int ms) {
    zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&it, 1, ms) <= 0) return -1;
    return zmq_recv(sock, buf, len, 0);
}

/* A request frame of `req` bytes (at least 8) asking for `rep` bytes back and `rec` appended. */
static uint8_t *s_request(size_t req, size_t rep, size_t rec) {
    if (req < 8) req = 8;
    uint8_t *m = malloc(req);
    if (!m) return NULL;
    memset(m, 9, req);
    s_put_u32(m, (uint32_t)rep);
    s_put_u32(m + 4, (uint32_t)rec);
    return m;
}

/* Replies per second with `window` frames in flight; *per_round: replies per server round. */
static int s_pipelined(const bench_opts *o, int mode, const char *name, double seconds, unsigned window, size_t req,
                       size_t rep, size_t rec, double *per_s, double *per_round) {
    s_server s;
    *per_s = 0;
    if (per_round) *per_round = 0;
    if (window < 1) window = 1;
    if (s_server_start(&s, o, mode, name) != 0) return -1;
    void *ctx = zmq_ctx_new();
    void *c = s_client(ctx, &s);
    uint8_t *msg = s_request(req, rep, rec);
    size_t backlen = (rep > req ? rep : req) + 64;
    uint8_t *back = malloc(backlen);
    if (!c || !msg || !back) {
        if (c) zmq_close(c);
        s_server_stop(&s, NULL);
        zmq_ctx_term(ctx);
        free(msg);
        free(back);
        return -1;
    }
    if (req < 8) req = 8;
    /* One round trip first: the handshake is not part of the rate. */
    int rc = (zmq_send(c, msg, req, 0) == (int)req && s_recv_timeout(c, back, backlen, 10000) >= 0) ? 0 : -1;
    uint64_t got = 0, sent = 0, first_round = 0, last_round = 0;
    double t0 = bench_now_us(), end = t0 + seconds * 1e6, now = t0;
    while (rc == 0 && now < end) {
        while (sent - got < window) {
            if (zmq_send(c, msg, req, 0) != (int)req) {
                rc = -1;
                break;
            }
            sent++;
        }
        int n = s_recv_timeout(c, back, backlen, 10000);
        if (n < 0) {
            rc = -1;
            break;
        }
        for (;;) {
            got++;
            if (rep >= 8 && n >= 8) {
                uint64_t r;
                memcpy(&r, back, 8);
                if (!first_round) first_round = r;
                last_round = r;
            }
            n = zmq_recv(c, back, backlen, ZMQ_DONTWAIT);
            if (n < 0) break;
        }
        now = bench_now_us();
    }
    if (rc == 0) *per_s = (double)got / ((now - t0) / 1e6);
    if (rc == 0 && per_round && last_round > first_round) *per_round = (double)got / (double)(last_round - first_round + 1);
    /* Drain what is in flight so that the stop frame is read. */
    while (got < sent && s_recv_timeout(c, back, backlen, 2000) >= 0) got++;
    s_server_stop(&s, c);
    zmq_close(c);
    zmq_ctx_term(ctx);
    free(msg);
    free(back);
    return rc;
}

int floor_echo(const bench_opts *o, double seconds, unsigned window, double *per_s) {
    return s_pipelined(o, S_ECHO, "floor-echo", seconds, window, 80, 0, 0, per_s, NULL);
}

int floor_durable_echo(const bench_opts *o, double seconds, unsigned window, size_t req_bytes, size_t reply_bytes,
                       double *per_s, double *per_round) {
    return s_pipelined(o, S_GROUP, "floor-group", seconds, window, req_bytes, reply_bytes < 8 ? 8 : reply_bytes, 200,
                       per_s, per_round);
}

/* ---- interleaved floor: one sample of each floor between two daemon orders ---- */

struct floor_session {
    s_server sync_srv, echo_srv, thread_srv;
    void *ctx, *sync_c, *echo_c, *thread_c;
    int fd;
    int started_sync, started_echo, started_thread;
};

floor_session *floor_session_new(const bench_opts *o) {
    floor_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->fd = -1;
    if (s_server_start(&s->sync_srv, o, S_SYNC, "floor-sync") != 0) goto fail;
    s->started_sync = 1;
    if (s_server_start(&s->echo_srv, o, S_ECHO, "floor-zmq") != 0) goto fail;
    s->started_echo = 1;
    if (s_server_start(&s->thread_srv, o, S_SYNC_THREAD, "floor-sync-thread") != 0) goto fail;
    s->started_thread = 1;
    s->ctx = zmq_ctx_new();
    if (!(s->sync_c = s_client(s->ctx, &s->sync_srv)) || !(s->echo_c = s_client(s->ctx, &s->echo_srv)) ||
        !(s->thread_c = s_client(s->ctx, &s->thread_srv)))
        goto fail;
    char file[400];
    snprintf(file, sizeof file, "%s/floor-alone.dat", o->workdir);
    s->fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
    if (s->fd < 0) goto fail;
    /* Handshakes are not part of any sample. */
    double a, b, c, d;
    if (floor_session_sample(s, &a, &b, &c) != 0 || floor_session_sample_thread(s, 80, 80, 200, &d) != 0) goto fail;
    return s;
fail:
    floor_session_destroy(&s);
    return NULL;
}

static int s_rt(void *c, double *us, size_t req, size_t rep, size_t rec) {
    uint8_t msg[S_FLOOR_MAX], back[S_FLOOR_MAX + 64];
    if (req < 8) req = 8;
    if (req > sizeof msg) req = sizeof msg;
    if (rep > S_FLOOR_MAX) rep = S_FLOOR_MAX;
    memset(msg, 7, req);
    s_put_u32(msg, (uint32_t)rep);
    s_put_u32(msg + 4, (uint32_t)rec);
    double t0 = bench_now_us();
    if (zmq_send(c, msg, req, 0) != (int)req || s_recv_timeout(c, back, sizeof back, 10000) < 0) return -1;
    *us = bench_now_us() - t0;
    return 0;
}

int floor_session_sample(floor_session *s, double *sync_rt, double *zmq_rt, double *alone) {
    return floor_session_sample_sized(s, 80, 80, 200, sync_rt, zmq_rt, alone);
}

int floor_session_sample_sized(floor_session *s, size_t req, size_t rep, size_t rec, double *sync_rt, double *zmq_rt,
                               double *alone) {
    if (rec > S_FLOOR_MAX) rec = S_FLOOR_MAX;
    if (s_rt(s->sync_c, sync_rt, req, rep, rec) != 0 || s_rt(s->echo_c, zmq_rt, req, rep, 0) != 0) return -1;
    uint8_t recb[S_FLOOR_MAX];
    memset(recb, 0x5a, rec);
    double t0 = bench_now_us();
    if (write(s->fd, recb, rec) != (ssize_t)rec || fdatasync(s->fd) != 0) return -1;
    *alone = bench_now_us() - t0;
    return 0;
}

int floor_session_sample_thread(floor_session *s, size_t req, size_t rep, size_t rec, double *rt) {
    if (rec > S_FLOOR_MAX) rec = S_FLOOR_MAX;
    return s_rt(s->thread_c, rt, req, rep, rec);
}

void floor_session_destroy(floor_session **ps) {
    if (!ps || !*ps) return;
    floor_session *s = *ps;
    if (s->started_sync) s_server_stop(&s->sync_srv, s->sync_c);
    if (s->started_echo) s_server_stop(&s->echo_srv, s->echo_c);
    if (s->started_thread) s_server_stop(&s->thread_srv, s->thread_c);
    if (s->thread_c) zmq_close(s->thread_c);
    if (s->sync_c) zmq_close(s->sync_c);
    if (s->echo_c) zmq_close(s->echo_c);
    if (s->ctx) zmq_ctx_term(s->ctx);
    if (s->fd >= 0) close(s->fd);
    free(s);
    *ps = NULL;
}
