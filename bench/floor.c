/*
 * floor.c - the floors: what this machine can do with no Berthier in the way.
 *
 * A child process plays the server: a ROUTER socket, CURVE server, bound on
 * ipc in the run's work dir, exactly like berthierd's request socket. The
 * parent is a DEALER client with its own CURVE keypair.
 *   - latency (floor_session_*): one request at a time; the server appends
 *     200 bytes to a file and fdatasyncs it before it answers (a durable order
 *     with nothing else); the same without the file, and the file alone, to
 *     split the floor. Sampled between the daemon's orders (live.c).
 *   - echo: the server sends every frame straight back; the client keeps
 *     `window` frames in flight and counts replies per second.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "bench.h"

enum { S_ECHO = 0, S_SYNC = 1 };

typedef struct s_server {
    pid_t pid;
    char endpoint[300];
    char server_pub[41];
} s_server;

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
    if (mode == S_SYNC) {
        fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
        if (fd < 0) _exit(4);
    }
    uint8_t rec[200];
    memset(rec, 0x5a, sizeof rec);
    for (;;) {
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        zmq_msg_init(&body);
        if (zmq_msg_recv(&id, sock, 0) < 0 || zmq_msg_recv(&body, sock, 0) < 0) break;
        if (zmq_msg_size(&body) == 0) break;   /* the parent says stop */
        if (fd >= 0) {
            if (write(fd, rec, sizeof rec) != (ssize_t)sizeof rec || fdatasync(fd) != 0) _exit(5);
        }
        zmq_msg_send(&id, sock, ZMQ_SNDMORE);
        zmq_msg_send(&body, sock, 0);
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

int floor_echo(const bench_opts *o, double seconds, unsigned window, double *per_s) {
    s_server s;
    *per_s = 0;
    if (s_server_start(&s, o, S_ECHO, "floor-echo") != 0) return -1;
    void *ctx = zmq_ctx_new();
    void *c = s_client(ctx, &s);
    if (!c) {
        s_server_stop(&s, NULL);
        zmq_ctx_term(ctx);
        return -1;
    }
    uint8_t msg[80], back[128];
    memset(msg, 9, sizeof msg);
    /* One round trip first: the handshake is not part of the rate. */
    int rc = (zmq_send(c, msg, sizeof msg, 0) == (int)sizeof msg && s_recv_timeout(c, back, sizeof back, 10000) >= 0)
                 ? 0
                 : -1;
    uint64_t got = 0, sent = 0;
    double t0 = bench_now_us(), end = t0 + seconds * 1e6, now = t0;
    while (rc == 0 && now < end) {
        while (sent - got < window) {
            if (zmq_send(c, msg, sizeof msg, 0) != (int)sizeof msg) {
                rc = -1;
                break;
            }
            sent++;
        }
        if (s_recv_timeout(c, back, sizeof back, 10000) < 0) {
            rc = -1;
            break;
        }
        got++;
        while (zmq_recv(c, back, sizeof back, ZMQ_DONTWAIT) >= 0) got++;
        now = bench_now_us();
    }
    if (rc == 0) *per_s = (double)got / ((now - t0) / 1e6);
    /* Drain what is in flight so that the stop frame is read. */
    while (got < sent && s_recv_timeout(c, back, sizeof back, 2000) >= 0) got++;
    s_server_stop(&s, c);
    zmq_close(c);
    zmq_ctx_term(ctx);
    return rc;
}

/* ---- interleaved floor: one sample of each floor between two daemon orders ---- */

struct floor_session {
    s_server sync_srv, echo_srv;
    void *ctx, *sync_c, *echo_c;
    int fd;
    int started_sync, started_echo;
};

floor_session *floor_session_new(const bench_opts *o) {
    floor_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->fd = -1;
    if (s_server_start(&s->sync_srv, o, S_SYNC, "floor-sync") != 0) goto fail;
    s->started_sync = 1;
    if (s_server_start(&s->echo_srv, o, S_ECHO, "floor-zmq") != 0) goto fail;
    s->started_echo = 1;
    s->ctx = zmq_ctx_new();
    if (!(s->sync_c = s_client(s->ctx, &s->sync_srv)) || !(s->echo_c = s_client(s->ctx, &s->echo_srv))) goto fail;
    char file[400];
    snprintf(file, sizeof file, "%s/floor-alone.dat", o->workdir);
    s->fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
    if (s->fd < 0) goto fail;
    /* Handshakes are not part of any sample. */
    double a, b, c;
    if (floor_session_sample(s, &a, &b, &c) != 0) goto fail;
    return s;
fail:
    floor_session_destroy(&s);
    return NULL;
}

static int s_rt(void *c, double *us) {
    uint8_t msg[80], back[128];
    memset(msg, 7, sizeof msg);
    double t0 = bench_now_us();
    if (zmq_send(c, msg, sizeof msg, 0) != (int)sizeof msg || s_recv_timeout(c, back, sizeof back, 10000) < 0) return -1;
    *us = bench_now_us() - t0;
    return 0;
}

int floor_session_sample(floor_session *s, double *sync_rt, double *zmq_rt, double *alone) {
    if (s_rt(s->sync_c, sync_rt) != 0 || s_rt(s->echo_c, zmq_rt) != 0) return -1;
    uint8_t rec[200];
    memset(rec, 0x5a, sizeof rec);
    double t0 = bench_now_us();
    if (write(s->fd, rec, sizeof rec) != (ssize_t)sizeof rec || fdatasync(s->fd) != 0) return -1;
    *alone = bench_now_us() - t0;
    return 0;
}

void floor_session_destroy(floor_session **ps) {
    if (!ps || !*ps) return;
    floor_session *s = *ps;
    if (s->started_sync) s_server_stop(&s->sync_srv, s->sync_c);
    if (s->started_echo) s_server_stop(&s->echo_srv, s->echo_c);
    if (s->sync_c) zmq_close(s->sync_c);
    if (s->echo_c) zmq_close(s->echo_c);
    if (s->ctx) zmq_ctx_term(s->ctx);
    if (s->fd >= 0) close(s->fd);
    free(s);
    *ps = NULL;
}
