/*
 * live.c - measurements against a real berthierd started on a temporary data
 * dir (ipc, CURVE, its own keys): the round trip of a durable order, orders
 * per second over many concurrent games, and daemon memory per live game.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sodium.h>
#include <zmq.h>

#include "bench.h"
#include "berthier/client.h"
#include "seatsig.h"

#define S_MAX_DAEMONS 8

static pid_t s_pids[S_MAX_DAEMONS];

void bench_daemon_kill_all(void) {
    for (int i = 0; i < S_MAX_DAEMONS; i++)
        if (s_pids[i] > 0) {
            kill(s_pids[i], SIGKILL);
            waitpid(s_pids[i], NULL, 0);
            s_pids[i] = 0;
        }
}

static void s_track(pid_t pid, int add) {
    for (int i = 0; i < S_MAX_DAEMONS; i++) {
        if (add && s_pids[i] == 0) {
            s_pids[i] = pid;
            return;
        }
        if (!add && s_pids[i] == pid) {
            s_pids[i] = 0;
            return;
        }
    }
}

static int s_log_says_ready(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[2048];
    int ready = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, " ready: ")) ready = 1;
    fclose(f);
    return ready;
}

static int s_read_line(const char *path, char *out, size_t max) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int rc = fgets(out, (int)max, f) ? 0 : -1;
    fclose(f);
    out[strcspn(out, "\r\n")] = 0;
    return rc;
}

int bench_daemon_start(bench_daemon *d, const bench_opts *o, const char *name) {
    return bench_daemon_start_args(d, o, name, NULL);
}

int bench_daemon_start_args(bench_daemon *d, const bench_opts *o, const char *name, const char *const *extra) {
    memset(d, 0, sizeof *d);
    snprintf(d->dir, sizeof d->dir, "%s/%s", o->workdir, name);
    if (mkdir(d->dir, 0700) != 0 && errno != EEXIST) return -1;
    char bin[600], logpath[400];
    snprintf(bin, sizeof bin, "%s/berthierd", o->bindir);
    snprintf(logpath, sizeof logpath, "%s/daemon.log", d->dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        unsetenv("NOTIFY_SOCKET");
        unsetenv("WATCHDOG_USEC");
        char *argv[16];
        int n = 0;
        argv[n++] = bin;
        argv[n++] = (char *)"--data-dir";
        argv[n++] = d->dir;
        for (int i = 0; extra && extra[i] && n < 15; i++) argv[n++] = (char *)extra[i];
        argv[n] = NULL;
        execv(bin, argv);
        _exit(127);
    }
    d->pid = pid;
    s_track(pid, 1);
    char pubpath[400];
    snprintf(pubpath, sizeof pubpath, "%s/server.pub", d->dir);
    snprintf(d->endpoint, sizeof d->endpoint, "ipc://%s/berthier.sock", d->dir);
    double t0 = bench_now_us();
    for (int i = 0; i < 60000; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            s_track(pid, 0);
            d->pid = 0;
            fprintf(stderr, "berthier-bench: berthierd exited at start (see %s)\n", logpath);
            return -1;
        }
        if (s_log_says_ready(logpath) && s_read_line(pubpath, d->server_pub, sizeof d->server_pub) == 0 &&
            strlen(d->server_pub) == 40) {
            d->ready_us = bench_now_us() - t0;
            return 0;
        }
        usleep(500);
    }
    fprintf(stderr, "berthier-bench: berthierd did not become ready (see %s)\n", logpath);
    bench_daemon_stop(d);
    return -1;
}

void bench_daemon_stop(bench_daemon *d) {
    if (d->pid <= 0) return;
    kill(d->pid, SIGTERM);
    for (int i = 0; i < 500; i++) {
        if (waitpid(d->pid, NULL, WNOHANG) == d->pid) {
            s_track(d->pid, 0);
            d->pid = 0;
            return;
        }
        usleep(10000);
    }
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    s_track(d->pid, 0);
    d->pid = 0;
}

long bench_rss_bytes(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static uint64_t s_rng = 0x243f6a8885a308d3ULL;

static uint64_t s_rand(void) {
    s_rng ^= s_rng << 13;
    s_rng ^= s_rng >> 7;
    s_rng ^= s_rng << 17;
    return s_rng;
}

static unsigned s_legal_limit(const char *ruleset) { return strcmp(ruleset, "duel") == 0 ? 0 : 64; }

static long s_file_size(const char *dir, const char *gid) {
    char path[700];
    snprintf(path, sizeof path, "%s/games/%s.log", dir, gid);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The bytes of the Request frame that brt_client_submit sends for this order (signed). */
static size_t s_submit_frame_bytes(const char *gid, unsigned seat, uint64_t seq, const uint8_t *order, size_t len) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit sb = BERTHIER__V1__SUBMIT__INIT;
    uint8_t sig[64] = {0};
    sb.game_id = (char *)gid;
    sb.seat = seat;
    sb.based_on_seq = seq;
    sb.order.data = (uint8_t *)order;
    sb.order.len = len;
    req.request_id = 1ull << 40;   /* the client's ids: a counter from a random 64-bit start */
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &sb;
    req.signature.data = sig;
    req.signature.len = 64;
    return berthier__v1__request__get_packed_size(&req);
}

/* One Ed25519 signature and one check of a 300-byte message, microseconds (best of 3 x 100). */
static void s_ed25519_us(double *sign_us, double *verify_us) {
    uint8_t pk[32], sk[64], m[300], sig[64];
    memset(m, 3, sizeof m);
    crypto_sign_keypair(pk, sk);
    *sign_us = *verify_us = 0;
    for (int round = 0; round < 3; round++) {
        double t0 = bench_now_us();
        for (int i = 0; i < 100; i++) crypto_sign_detached(sig, NULL, m, sizeof m, sk);
        double t1 = bench_now_us();
        for (int i = 0; i < 100; i++)
            if (crypto_sign_verify_detached(sig, m, sizeof m, pk) != 0) m[0]++;
        double t2 = bench_now_us();
        if (round == 0 || (t1 - t0) / 100 < *sign_us) *sign_us = (t1 - t0) / 100;
        if (round == 0 || (t2 - t1) / 100 < *verify_us) *verify_us = (t2 - t1) / 100;
    }
}

/* ---- latency: one order at a time through the client library ---------------- */

static int s_new_game(brt_client *admin, brt_client *seat[2], const brt_keypair kp[2], const bench_opts *o, char *gid) {
    const char *keys[2] = {kp[0].public_z85, kp[1].public_z85};
    brt_game_spec spec = {.ruleset = o->ruleset, .scenario = o->scenario, .seat_keys = keys, .n_seats = 2};
    if (brt_client_create(admin, &spec, gid, NULL) != 0) {
        fprintf(stderr, "berthier-bench: create %s/%s: %s\n", o->ruleset, o->scenario, brt_client_error(admin));
        return -1;
    }
    for (unsigned s = 0; s < 2; s++)
        if (brt_client_join(seat[s], gid, s, NULL) != 0) {
            fprintf(stderr, "berthier-bench: join: %s\n", brt_client_error(seat[s]));
            return -1;
        }
    return 0;
}

int live_latency(const bench_opts *o, bench_latency *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->ruleset, sizeof out->ruleset, "%s", o->ruleset);
    /* The floor servers are forked before this process has any ZeroMQ thread:
     * a fork beside running threads can inherit a held allocator lock. */
    floor_session *fl = floor_session_new(o);
    if (!fl) {
        fprintf(stderr, "berthier-bench: cannot start the floor servers\n");
        return -1;
    }
    bench_daemon d;
    if (bench_daemon_start(&d, o, "latency") != 0) {
        floor_session_destroy(&fl);
        return -1;
    }
    brt_client *admin = brt_client_new_data_dir(d.dir);
    brt_keypair kp[2];
    brt_client *seat[2] = {NULL, NULL};
    int rc = admin ? 0 : -1;
    for (int i = 0; i < 2 && rc == 0; i++) {
        if (brt_keypair_generate(&kp[i]) != 0 || !(seat[i] = brt_client_new_keypair(d.endpoint, d.server_pub, &kp[i])))
            rc = -1;
    }
    size_t warm = 10, n = o->orders, got = 0, stuck = 0;
    /* the floor moves the daemon's bytes: this order's request and reply frames, and the log
     * bytes an order has appended so far on average (200 until one is measured) */
    double sum_req = 0, sum_rep = 0, sum_rec = 0, grown = 0;
    size_t measured = 0;
    double *v = calloc(n + warm, sizeof *v);
    double *fs = calloc(n + warm, sizeof *fs), *fz = calloc(n + warm, sizeof *fz), *fa = calloc(n + warm, sizeof *fa);
    double *pq = calloc(n + warm, sizeof *pq), *ft = calloc(n + warm, sizeof *ft);
    if (!fs || !fz || !fa || !pq || !ft) rc = -1;
    char gid[BRT_GAME_ID_MAX + 1];
    if (!v) rc = -1;
    if (rc == 0) rc = s_new_game(admin, seat, kp, o, gid);
    while (rc == 0 && got < n + warm) {
        int acted = 0, ended = 0;
        for (unsigned s = 0; s < 2 && rc == 0 && !ended; s++) {
            const Berthier__V1__Decision *dec;
            if (brt_client_pending(seat[s], gid, s, &dec) != 0) {
                fprintf(stderr, "berthier-bench: pending: %s\n", brt_client_error(seat[s]));
                rc = -1;
                break;
            }
            if (dec->result && dec->result->ended) {
                ended = 1;
                break;
            }
            if (!dec->you_must_act) continue;
            const Berthier__V1__LegalOrders *lo;
            if (brt_client_legal(seat[s], gid, s, s_legal_limit(o->ruleset), &lo) != 0 || lo->n_orders == 0) {
                fprintf(stderr, "berthier-bench: legal: %s\n", brt_client_error(seat[s]));
                rc = -1;
                break;
            }
            size_t k = (size_t)(s_rand() % lo->n_orders);
            uint64_t seq = lo->seq;
            size_t len = lo->orders[k].len;
            uint8_t order[4096];
            if (len > sizeof order) {
                rc = -1;
                break;
            }
            memcpy(order, lo->orders[k].data, len);
            long size0 = s_file_size(d.dir, gid);
            double t0 = bench_now_us();
            if (brt_client_submit(seat[s], gid, s, seq, order, len, NULL) != 0) {
                fprintf(stderr, "berthier-bench: submit: %s\n", brt_client_error(seat[s]));
                rc = -1;
                break;
            }
            v[got] = bench_now_us() - t0;
            long size1 = s_file_size(d.dir, gid);
            const Berthier__V1__Reply *rp = brt_client_reply(seat[s]);
            size_t req_b = s_submit_frame_bytes(gid, s, seq, order, len);
            size_t rep_b = rp ? berthier__v1__reply__get_packed_size(rp) : 80;
            if (size0 >= 0 && size1 > size0) grown += (double)(size1 - size0);
            double rec_b = grown > 0 ? grown / (double)(got + 1) : 200;
            if (got >= warm) {
                sum_req += (double)req_b;
                sum_rep += (double)rep_b;
                sum_rec += rec_b;
                measured++;
            }
            if (floor_session_sample_sized(fl, req_b, rep_b, (size_t)(rec_b + 0.5), &fs[got], &fz[got], &fa[got]) != 0 ||
                floor_session_sample_thread(fl, req_b, rep_b, (size_t)(rec_b + 0.5), &ft[got]) != 0) {
                fprintf(stderr, "berthier-bench: a floor sample failed (no echo within 10 s)\n");
                rc = -1;
                break;
            }
            /* the daemon's own round trip without the commit: a query answered at once */
            const Berthier__V1__Decision *pd;
            double tq = bench_now_us();
            if (brt_client_pending(seat[s], gid, s, &pd) != 0) {
                fprintf(stderr, "berthier-bench: pending: %s\n", brt_client_error(seat[s]));
                rc = -1;
                break;
            }
            pq[got] = bench_now_us() - tq;
            got++;
            acted = 1;
            if (got >= n + warm) break;
        }
        if (rc != 0) break;
        if (ended) {
            rc = s_new_game(admin, seat, kp, o, gid);
            stuck = 0;
        } else if (!acted && ++stuck > 100) {
            fprintf(stderr, "berthier-bench: game %s: nobody must act\n", gid);
            rc = -1;
        }
    }
    if (rc == 0) {
        out->n = n;
        double sum = 0;
        for (size_t i = warm; i < n + warm; i++) sum += v[i];
        out->mean = sum / (double)n;
        out->p50 = bench_percentile(v + warm, n, 0.50);
        out->p99 = bench_percentile(v + warm, n, 0.99);
        out->floor.p50 = bench_percentile(fs + warm, n, 0.50);
        out->floor.p99 = bench_percentile(fs + warm, n, 0.99);
        out->floor.zmq_p50 = bench_percentile(fz + warm, n, 0.50);
        out->floor.zmq_p99 = bench_percentile(fz + warm, n, 0.99);
        out->floor.sync_p50 = bench_percentile(fa + warm, n, 0.50);
        out->floor.sync_p99 = bench_percentile(fa + warm, n, 0.99);
        if (measured) {
            out->floor.req_bytes = (size_t)(sum_req / (double)measured + 0.5);
            out->floor.rep_bytes = (size_t)(sum_rep / (double)measured + 0.5);
            out->floor.rec_bytes = (size_t)(sum_rec / (double)measured + 0.5);
        }
        s_ed25519_us(&out->sign_us, &out->verify_us);
        out->floor.thread_p50 = bench_percentile(ft + warm, n, 0.50);
        out->floor.thread_p99 = bench_percentile(ft + warm, n, 0.99);
        out->pending_p50 = bench_percentile(pq + warm, n, 0.50);
        out->pending_p99 = bench_percentile(pq + warm, n, 0.99);
    }
    floor_session_destroy(&fl);
    free(pq);
    free(ft);
    free(fs);
    free(fz);
    free(fa);
    free(v);
    for (int i = 0; i < 2; i++) brt_client_destroy(&seat[i]);
    brt_client_destroy(&admin);
    bench_daemon_stop(&d);
    return rc;
}

/* ---- events: the last input's events from a long log ----------------------------- */

int live_events(const bench_opts *o, bench_events *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->ruleset, sizeof out->ruleset, "%s", o->ruleset);
    bench_daemon d;
    if (bench_daemon_start(&d, o, "events") != 0) return -1;
    brt_client *admin = brt_client_new_data_dir(d.dir);
    brt_keypair kp[2];
    brt_client *seat[2] = {NULL, NULL};
    int rc = admin ? 0 : -1;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (brt_keypair_generate(&kp[i]) != 0 || !(seat[i] = brt_client_new_keypair(d.endpoint, d.server_pub, &kp[i])))
            rc = -1;
    char gid[BRT_GAME_ID_MAX + 1];
    if (rc == 0) rc = s_new_game(admin, seat, kp, o, gid);
    /* A long log: play until the end or `inputs` orders. */
    size_t inputs = o->quick ? 60 : 1500, played = 0, stuck = 0;
    int ended = 0;
    while (rc == 0 && !ended && played < inputs) {
        int acted = 0;
        for (unsigned s = 0; s < 2 && rc == 0 && !ended; s++) {
            const Berthier__V1__Decision *dec;
            if (brt_client_pending(seat[s], gid, s, &dec) != 0) {
                rc = -1;
                break;
            }
            if (dec->result && dec->result->ended) ended = 1;
            if (ended || !dec->you_must_act) continue;
            const Berthier__V1__LegalOrders *lo;
            if (brt_client_legal(seat[s], gid, s, s_legal_limit(o->ruleset), &lo) != 0 || lo->n_orders == 0) {
                rc = -1;
                break;
            }
            size_t k = (size_t)(s_rand() % lo->n_orders), len = lo->orders[k].len;
            uint64_t seq = lo->seq;
            uint8_t order[4096];
            if (len > sizeof order) {
                rc = -1;
                break;
            }
            memcpy(order, lo->orders[k].data, len);
            if (brt_client_submit(seat[s], gid, s, seq, order, len, NULL) != 0) {
                rc = -1;
                break;
            }
            played++;
            acted = 1;
        }
        if (rc == 0 && !acted && !ended && ++stuck > 100) rc = -1;
    }
    if (rc != 0) fprintf(stderr, "berthier-bench: events: playing the game failed\n");
    const Berthier__V1__Decision *dec;
    if (rc == 0 && brt_client_pending(seat[0], gid, 0, &dec) != 0) rc = -1;
    uint64_t seq = rc == 0 ? dec->seq : 0;
    size_t n = o->quick ? 50 : 500;
    double *ev = calloc(n, sizeof *ev), *pe = calloc(n, sizeof *pe);
    if (!ev || !pe) rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const Berthier__V1__EventList *el;
        double t0 = bench_now_us();
        if (brt_client_events(seat[0], gid, 0, seq ? seq - 1 : 0, &el) != 0) rc = -1;
        double t1 = bench_now_us();
        if (rc == 0 && brt_client_pending(seat[0], gid, 0, &dec) != 0) rc = -1;
        double t2 = bench_now_us();
        ev[i] = t1 - t0;
        pe[i] = t2 - t1;
    }
    if (rc == 0) {
        out->n = n;
        out->seq = seq;
        out->events_p50 = bench_percentile(ev, n, 0.50);
        out->pending_p50 = bench_percentile(pe, n, 0.50);
        char path[700];
        snprintf(path, sizeof path, "%s/games/%s.log", d.dir, gid);
        struct stat st;
        out->log_bytes = stat(path, &st) == 0 ? (long)st.st_size : -1;
    }
    free(ev);
    free(pe);
    for (int i = 0; i < 2; i++) brt_client_destroy(&seat[i]);
    brt_client_destroy(&admin);
    bench_daemon_stop(&d);
    return rc;
}

/* ---- flood: an honest seat's orders while another seat floods ---------------- */

static void *s_dealer(void *ctx, const char *endpoint, const char *server_pub, const brt_keypair *kp);

/* One order of the game, submit timed: 1 = done (*us), 0 = the game has
 * ended, 2 = nobody must act just now, -1 = error (on stderr). */
static int s_timed_order(brt_client *seat[2], const char *gid, const bench_opts *o, double *us) {
    for (unsigned s = 0; s < 2; s++) {
        const Berthier__V1__Decision *dec;
        if (brt_client_pending(seat[s], gid, s, &dec) != 0) {
            fprintf(stderr, "berthier-bench: pending: %s\n", brt_client_error(seat[s]));
            return -1;
        }
        if (dec->result && dec->result->ended) return 0;
        if (!dec->you_must_act) continue;
        const Berthier__V1__LegalOrders *lo;
        if (brt_client_legal(seat[s], gid, s, s_legal_limit(o->ruleset), &lo) != 0 || lo->n_orders == 0) {
            fprintf(stderr, "berthier-bench: legal: %s\n", brt_client_error(seat[s]));
            return -1;
        }
        size_t k = (size_t)(s_rand() % lo->n_orders);
        uint64_t seq = lo->seq;
        size_t len = lo->orders[k].len;
        uint8_t order[4096];
        if (len > sizeof order) return -1;
        memcpy(order, lo->orders[k].data, len);
        double t0 = bench_now_us();
        if (brt_client_submit(seat[s], gid, s, seq, order, len, NULL) != 0) {
            fprintf(stderr, "berthier-bench: submit: %s\n", brt_client_error(seat[s]));
            return -1;
        }
        *us = bench_now_us() - t0;
        return 1;
    }
    return 2;
}

/* n timed orders into v, a new game whenever one ends. */
static int s_timed_orders(brt_client *admin, brt_client *seat[2], const brt_keypair kp[2], const bench_opts *o,
                          char *gid, double *v, size_t n) {
    size_t got = 0, stuck = 0;
    while (got < n) {
        int rc = s_timed_order(seat, gid, o, &v[got]);
        if (rc < 0) return -1;
        if (rc == 1) {
            got++;
            stuck = 0;
        } else if (rc == 0) {
            if (s_new_game(admin, seat, kp, o, gid) != 0) return -1;
        } else if (++stuck > 100) {
            fprintf(stderr, "berthier-bench: game %s: nobody must act\n", gid);
            return -1;
        }
    }
    return 0;
}

typedef struct s_flooder {
    void *sock;
    void *mon;                 /* monitor of sock (PAIR), or NULL */
    char gid[BRT_GAME_ID_MAX + 1];
    volatile int stop, pause, drained;
    uint64_t sent, got;
    uint64_t cut_at;           /* frames sent when its connection was cut (0: never) */
    unsigned refused, readmitted;   /* handshakes after the cut: refused (ban), succeeded */
} s_flooder;

/* Read the flooder's monitor events (no wait). */
static void s_flood_events(s_flooder *f) {
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, f->mon, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return;
        }
        uint16_t ev = 0;
        if (zmq_msg_size(&m) >= 2) memcpy(&ev, zmq_msg_data(&m), 2);
        zmq_msg_close(&m);
        zmq_msg_init(&m);
        zmq_msg_recv(&m, f->mon, 0);
        zmq_msg_close(&m);
        if (ev == ZMQ_EVENT_DISCONNECTED && !f->cut_at) f->cut_at = f->sent ? f->sent : 1;
        else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH && f->cut_at) f->refused++;
        else if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED && f->cut_at) f->readmitted++;
    }
}

/* Keeps 2000 requests in flight (two pending queries for one frame of
 * garbage) as fast as the daemon answers, until stopped; sends nothing while
 * paused, and says when its replies have stopped coming. */
static void *s_flood_run(void *arg) {
    s_flooder *f = arg;
    static const uint8_t garbage[] = {0xff, 0xfe, 0x01, 0x02, 0x7f};
    uint64_t rid = 1ull << 40;
    double last = bench_now_us();
    while (!f->stop) {
        if (!f->pause) f->drained = 0;
        else if (bench_now_us() - last > 50000) f->drained = 1;
        while (!f->pause && !f->stop && f->sent - f->got < 2000) {
            uint8_t buf[128];
            size_t n;
            if (f->sent % 3 == 2) {
                memcpy(buf, garbage, sizeof garbage);
                n = sizeof garbage;
            } else {
                Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
                Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
                g.game_id = f->gid;
                req.request_id = ++rid;
                req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
                req.pending = &g;
                n = berthier__v1__request__pack(&req, buf);
            }
            if (zmq_send(f->sock, buf, n, ZMQ_DONTWAIT) != (int)n) break;
            f->sent++;
        }
        zmq_pollitem_t it = {f->sock, 0, ZMQ_POLLIN, 0};
        zmq_poll(&it, 1, 10);
        for (;;) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, f->sock, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&m);
                break;
            }
            zmq_msg_close(&m);
            last = bench_now_us();
            f->got++;
        }
        if (f->mon) s_flood_events(f);
    }
    return NULL;
}

/* The honest orders while the flooder floods (into loud) and pauses (into
 * quiet), in alternating blocks; the daemon started with `extra` settings. */
static int s_flood_phase(const bench_opts *o, const char *name, const char *const *extra, size_t n, double *quiet,
                         double *loud, s_flooder *fl) {
    bench_daemon d;
    if (bench_daemon_start_args(&d, o, name, extra) != 0) return -1;
    brt_client *admin = brt_client_new_data_dir(d.dir);
    brt_keypair kp[2], fk[2];
    brt_client *seat[2] = {NULL, NULL};
    int rc = admin ? 0 : -1;
    for (int i = 0; i < 2 && rc == 0; i++) {
        if (brt_keypair_generate(&kp[i]) != 0 || brt_keypair_generate(&fk[i]) != 0 ||
            !(seat[i] = brt_client_new_keypair(d.endpoint, d.server_pub, &kp[i])))
            rc = -1;
    }
    size_t block = 10;
    double warm[10];
    char gid[BRT_GAME_ID_MAX + 1];
    memset(fl, 0, sizeof *fl);
    void *ctx = zmq_ctx_new();
    pthread_t th;
    int started = 0;
    if (rc == 0) rc = s_new_game(admin, seat, kp, o, gid);
    if (rc == 0) {
        /* The flooder holds seat 0 of a game of its own (created, never joined). */
        const char *keys[2] = {fk[0].public_z85, fk[1].public_z85};
        brt_game_spec spec = {.ruleset = o->ruleset, .scenario = o->scenario, .seat_keys = keys, .n_seats = 2};
        if (brt_client_create(admin, &spec, fl->gid, NULL) != 0) {
            fprintf(stderr, "berthier-bench: create: %s\n", brt_client_error(admin));
            rc = -1;
        }
    }
    if (rc == 0 && !(fl->sock = s_dealer(ctx, d.endpoint, d.server_pub, &fk[0]))) rc = -1;
    if (rc == 0) {
        /* Whether the daemon cuts it (docs/daemon.md, "Abuse"), seen as its client sees it. */
        char ep[64];
        snprintf(ep, sizeof ep, "inproc://flood-mon-%s", name);
        if (zmq_socket_monitor(fl->sock, ep,
                               ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
                                   ZMQ_EVENT_HANDSHAKE_SUCCEEDED) == 0 &&
            (fl->mon = zmq_socket(ctx, ZMQ_PAIR)) && zmq_connect(fl->mon, ep) != 0) {
            zmq_close(fl->mon);
            fl->mon = NULL;
        }
    }
    if (rc == 0) rc = s_timed_orders(admin, seat, kp, o, gid, warm, 10);
    if (rc == 0) {
        fl->pause = 1;
        if (pthread_create(&th, NULL, s_flood_run, fl) != 0) rc = -1;
        else started = 1;
    }
    for (size_t i = 0; i < n && rc == 0; i += block) {
        size_t k = n - i < block ? n - i : block;
        fl->pause = 1;
        for (int w = 0; w < 400 && !fl->drained; w++) usleep(5000);
        if (quiet) rc = s_timed_orders(admin, seat, kp, o, gid, quiet + i, k);
        fl->pause = 0;
        usleep(100000);
        if (rc == 0) rc = s_timed_orders(admin, seat, kp, o, gid, loud + i, k);
    }
    if (started) {
        fl->stop = 1;
        pthread_join(th, NULL);
    }
    if (fl->mon) {
        zmq_socket_monitor(fl->sock, NULL, 0);
        zmq_close(fl->mon);
        fl->mon = NULL;
    }
    if (fl->sock) zmq_close(fl->sock);
    fl->sock = NULL;
    zmq_ctx_term(ctx);
    for (int i = 0; i < 2; i++) brt_client_destroy(&seat[i]);
    brt_client_destroy(&admin);
    bench_daemon_stop(&d);
    return rc;
}

int live_flood(const bench_opts *o, bench_flood *out) {
    memset(out, 0, sizeof *out);
    size_t n = o->orders / 4 < 40 ? 40 : o->orders / 4;
    double *quiet = calloc(n, sizeof *quiet), *loud = calloc(n, sizeof *loud), *cut = calloc(n, sizeof *cut),
           *cutq = calloc(n, sizeof *cutq);
    int rc = quiet && loud && cut && cutq ? 0 : -1;
    s_flooder fl;
    /* 1. The throttle alone: abuse cuts off, so that the flood lasts the whole run. */
    static const char *const no_cut[] = {"--abuse-malformed", "0", "--rate", "0", NULL};
    if (rc == 0) rc = s_flood_phase(o, "flood", no_cut, n, quiet, loud, &fl);
    if (rc == 0) {
        out->n = n;
        out->quiet_p50 = bench_percentile(quiet, n, 0.50);
        out->quiet_p99 = bench_percentile(quiet, n, 0.99);
        out->loud_p50 = bench_percentile(loud, n, 0.50);
        out->loud_p99 = bench_percentile(loud, n, 0.99);
        out->flood_sent = fl.sent;
        out->flood_answered = fl.got;
    }
    /* 2. Default settings: the flooder's garbage gets it cut and banned. */
    if (rc == 0) rc = s_flood_phase(o, "flood-cut", NULL, n, cutq, cut, &fl);
    if (rc == 0) {
        out->cut_p99 = bench_percentile(cut, n, 0.99);
        out->cut_quiet_p99 = bench_percentile(cutq, n, 0.99);
        out->cut_sent = fl.sent;
        out->cut_answered = fl.got;
        out->cut_at = fl.cut_at;
        out->cut_refused = fl.refused;
        out->cut_readmitted = fl.readmitted;
    }
    free(quiet);
    free(loud);
    free(cut);
    free(cutq);
    return rc;
}

/* ---- throughput: many games at once, every request pipelined ---------------- */

enum { ST_IDLE, ST_PENDING, ST_LEGAL, ST_SUBMIT, ST_JOIN, ST_DONE, ST_HEADER };

typedef struct s_slot {
    char id[BRT_GAME_ID_MAX + 1];
    int st[2];
    uint64_t gen;             /* moves of the game seen so far */
    uint64_t gen_sent[2];     /* gen when the seat's pending (or P4.3 join, submit) went out */
    int creating;
    unsigned joins;
    uint8_t header_hash[32];  /* what the seats sign (docs/protocol.md P3.1) */
} s_slot;

typedef struct s_tp {
    const bench_opts *o;
    void *ctx, *sock[2], *admin;
    brt_keypair kp[2];
    uint8_t raw[2][32];
    uint8_t sign_pk[2][32], sign_sk[2][64];  /* the seats' signing keys */
    const char *endpoint, *server_pub;
    s_slot *slots;
    unsigned nslots;
    uint64_t ctr;
    int counting;
    unsigned joined;          /* slots whose first game has both seats in */
    uint64_t orders, finished, requests, errors;
    int p43;                  /* the one-round-trip protocol (P4.3): Want on join, submit, pending */
    uint64_t replies, next_used;
    uint64_t req_bytes, rep_bytes;   /* frames sent and received */
    double inflight_sum;      /* requests - replies, summed at each reply of the window */
    uint64_t inflight_n;
    char err[300];
} s_tp;

static void *s_dealer(void *ctx, const char *endpoint, const char *server_pub, const brt_keypair *kp) {
    void *c = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, hwm = 100000, timeout = 30000;
    zmq_setsockopt(c, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(c, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(c, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(c, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(c, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(c, ZMQ_CURVE_SERVERKEY, server_pub, 40);
    zmq_setsockopt(c, ZMQ_CURVE_PUBLICKEY, kp->public_z85, 40);
    zmq_setsockopt(c, ZMQ_CURVE_SECRETKEY, kp->secret_z85, 40);
    if (zmq_connect(c, endpoint) != 0) {
        zmq_close(c);
        return NULL;
    }
    return c;
}

static int s_send(s_tp *t, void *sock, Berthier__V1__Request *req) {
    size_t n = berthier__v1__request__get_packed_size(req);
    uint8_t stackbuf[1024];
    uint8_t *b = n <= sizeof stackbuf ? stackbuf : malloc(n);
    if (!b) return -1;
    berthier__v1__request__pack(req, b);
    int rc = zmq_send(sock, b, n, 0) == (int)n ? 0 : -1;
    if (b != stackbuf) free(b);
    t->requests++;
    t->req_bytes += n;
    return rc;
}

/* What the P4.3 bots ask for in every join, submit and pending: the seat's next decision and,
 * when it must act, its legal orders without texts (a random bot needs none). */
static void s_tp_want(const s_tp *t, Berthier__V1__Want *w) {
    berthier__v1__want__init(w);
    w->decision = 1;
    w->legal = 1;
    w->limit = s_legal_limit(t->o->ruleset);
}

static uint64_t s_rid(s_tp *t, unsigned slot, unsigned seat) { return (++t->ctr << 16) | ((uint64_t)slot << 1) | seat; }

static int s_tp_gameref(s_tp *t, unsigned slot, unsigned seat, Berthier__V1__Request__BodyCase kind) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = t->slots[slot].id;
    g.seat = seat;
    req.request_id = s_rid(t, slot, seat);
    req.body_case = kind;
    Berthier__V1__Want w;
    if (kind == BERTHIER__V1__REQUEST__BODY_PENDING) {
        if (t->p43) {
            s_tp_want(t, &w);
            w.decision = 0;   /* the body is the decision already */
            g.want = &w;
        }
        req.pending = &g;
        t->slots[slot].st[seat] = ST_PENDING;
        t->slots[slot].gen_sent[seat] = t->slots[slot].gen;
    } else {
        g.limit = s_legal_limit(t->o->ruleset);
        req.legal = &g;
        t->slots[slot].st[seat] = ST_LEGAL;
    }
    return s_send(t, t->sock[seat], &req);
}

static int s_tp_create(s_tp *t, unsigned slot) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame cg = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec sp[2], *pp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&sp[i]);
        sp[i].seat = i;
        sp[i].key.data = t->raw[i];
        sp[i].key.len = 32;
        pp[i] = &sp[i];
    }
    cg.ruleset = (char *)t->o->ruleset;
    cg.scenario = (char *)t->o->scenario;
    cg.seats = pp;
    cg.n_seats = 2;
    req.request_id = s_rid(t, slot, 0);
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &cg;
    t->slots[slot].creating = 1;
    t->slots[slot].st[0] = t->slots[slot].st[1] = ST_JOIN;
    return s_send(t, t->admin, &req);
}

/* Seat-sign an input (docs/protocol.md P3.1): body is its message, field its oneof number. */
static int s_tp_sign(s_tp *t, unsigned slot, unsigned seat, Berthier__V1__Request *req, const ProtobufCMessage *body,
                     unsigned field, uint64_t seq, uint8_t sig[64]) {
    size_t n = protobuf_c_message_get_packed_size(body);
    uint8_t b[4096];
    if (n > sizeof b) return -1;
    protobuf_c_message_pack(body, b);
    if (seatsig_sign(t->sign_sk[seat], t->slots[slot].id, t->slots[slot].header_hash, seq, req->request_id, field, b,
                     n, sig) != 0)
        return -1;
    req->signature.data = sig;
    req->signature.len = 64;
    return 0;
}

static int s_tp_header(s_tp *t, unsigned slot, unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = t->slots[slot].id;
    g.seat = seat;
    req.request_id = s_rid(t, slot, seat);
    req.body_case = BERTHIER__V1__REQUEST__BODY_HEADER;
    req.header = &g;
    t->slots[slot].st[seat] = ST_HEADER;
    return s_send(t, t->sock[seat], &req);
}

static int s_tp_join(s_tp *t, unsigned slot, unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    uint8_t ent[32];
    for (int i = 0; i < 4; i++) {
        uint64_t r = s_rand();
        memcpy(ent + 8 * i, &r, 8);
    }
    j.game_id = t->slots[slot].id;
    j.seat = seat;
    j.entropy.data = ent;
    j.entropy.len = 32;
    j.sign_pk.data = t->sign_pk[seat];
    j.sign_pk.len = 32;
    j.header_hash.data = t->slots[slot].header_hash;
    j.header_hash.len = 32;
    req.request_id = s_rid(t, slot, seat);
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    uint8_t sig[64];
    /* a join is signed without its Want (P4.3: the verifiers rebuild the body from the logged fields) */
    if (s_tp_sign(t, slot, seat, &req, &j.base, SEATSIG_BODY_JOIN, 0, sig) != 0) return -1;
    Berthier__V1__Want w;
    if (t->p43) {
        s_tp_want(t, &w);
        j.want = &w;
    }
    t->slots[slot].st[seat] = ST_JOIN;
    t->slots[slot].gen_sent[seat] = t->slots[slot].gen;
    return s_send(t, t->sock[seat], &req);
}

/* The game moved: the other seat, if it was waiting, looks again, as a bot does on the notice
 * of the move. With the mover's next decision at hand (P4.3: a notice carries the decision too),
 * only when that decision names the other seat or the game has ended. */
static int s_tp_moved(s_tp *t, unsigned slot, unsigned seat, const Berthier__V1__Decision *next) {
    s_slot *sl = &t->slots[slot];
    sl->gen++;
    unsigned other = 1 - seat;
    if (sl->st[other] != ST_IDLE) return 0;
    int named = !next || (next->result && next->result->ended);
    for (size_t i = 0; next && i < next->n_seats; i++) named |= next->seats[i] == other;
    return named ? s_tp_gameref(t, slot, other, BERTHIER__V1__REQUEST__BODY_PENDING) : 0;
}

static int s_tp_fail(s_tp *t, const char *what, const Berthier__V1__Reply *r) {
    snprintf(t->err, sizeof t->err, "%s: code %d [%s] %s", what, r->code, r->rule ? r->rule : "",
             r->message ? r->message : "");
    return -1;
}

/* Submit a random order of lo (seat-signed; with Want under P4.3). */
static int s_tp_submit(s_tp *t, unsigned slot, unsigned seat, const Berthier__V1__LegalOrders *lo) {
    s_slot *sl = &t->slots[slot];
    size_t k = (size_t)(s_rand() % lo->n_orders);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    Berthier__V1__Want w;
    s.game_id = sl->id;
    s.seat = seat;
    s.based_on_seq = lo->seq;
    s.order = lo->orders[k];
    if (t->p43) {
        s_tp_want(t, &w);
        s.want = &w;   /* a submit's body is logged as sent: signed with its Want */
    }
    req.request_id = s_rid(t, slot, seat);
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &s;
    uint8_t sig[64];
    if (s_tp_sign(t, slot, seat, &req, &s.base, SEATSIG_BODY_SUBMIT, s.based_on_seq, sig) != 0) return -1;
    sl->st[seat] = ST_SUBMIT;
    sl->gen_sent[seat] = sl->gen;
    return s_send(t, t->sock[seat], &req);
}

/* The seat's decision d (from pending, or a P4.3 reply's next), with its legal orders lo when the
 * reply carried them; expect = the game's moves seen when d was current, as far as we know. */
static int s_tp_decided(s_tp *t, unsigned slot, unsigned seat, const Berthier__V1__Decision *d,
                        const Berthier__V1__LegalOrders *lo, uint64_t expect) {
    s_slot *sl = &t->slots[slot];
    if (d->result && d->result->ended) {
        sl->st[seat] = ST_DONE;
        if (sl->st[1 - seat] == ST_DONE && !sl->creating) {
            t->finished++;
            return s_tp_create(t, slot);
        }
        if (sl->st[1 - seat] == ST_IDLE) return s_tp_gameref(t, slot, 1 - seat, BERTHIER__V1__REQUEST__BODY_PENDING);
        return 0;
    }
    if (d->you_must_act) {
        if (lo && lo->n_orders > 0) {
            t->next_used++;
            return s_tp_submit(t, slot, seat, lo);
        }
        return s_tp_gameref(t, slot, seat, BERTHIER__V1__REQUEST__BODY_LEGAL);
    }
    /* the game moved since (a reply of the other seat came first): look again */
    if (sl->gen != expect) return s_tp_gameref(t, slot, seat, BERTHIER__V1__REQUEST__BODY_PENDING);
    sl->st[seat] = ST_IDLE;
    return 0;
}

static int s_tp_reply(s_tp *t, unsigned which, const Berthier__V1__Reply *r) {
    unsigned slot = (unsigned)((r->request_id >> 1) & 0x7fff), seat = (unsigned)(r->request_id & 1);
    if (slot >= t->nslots) {
        snprintf(t->err, sizeof t->err, "reply with an unknown request id %llu (code %d)",
                 (unsigned long long)r->request_id, r->code);
        return -1;
    }
    s_slot *sl = &t->slots[slot];
    if (which == 2) {   /* admin: create */
        if (r->code != 0 || !r->created) return s_tp_fail(t, "create", r);
        /* The seat keys are admitted once a game names them: connect now. */
        for (int i = 0; i < 2; i++)
            if (!t->sock[i] && !(t->sock[i] = s_dealer(t->ctx, t->endpoint, t->server_pub, &t->kp[i]))) {
                snprintf(t->err, sizeof t->err, "cannot connect seat %d", i);
                return -1;
            }
        snprintf(sl->id, sizeof sl->id, "%s", r->created->game_id);
        sl->creating = 0;
        sl->gen = 0;
        return (s_tp_header(t, slot, 0) || s_tp_header(t, slot, 1)) ? -1 : 0;
    }
    seat = which;
    switch (sl->st[seat]) {
    case ST_HEADER:
        if (r->code != 0 || r->body_case != BERTHIER__V1__REPLY__BODY_HEADER || r->header->header_hash.len != 32)
            return s_tp_fail(t, "header", r);
        seatsig_header_hash(r->header->header.data, r->header->header.len, sl->header_hash);
        if (memcmp(sl->header_hash, r->header->header_hash.data, 32) != 0) return s_tp_fail(t, "header hash", r);
        return s_tp_join(t, slot, seat);
    case ST_JOIN: {
        if (r->code != 0 && (int)r->code != BRT_CODE_ALREADY_JOINED) return s_tp_fail(t, "join", r);
        if (++sl->joins == 2) t->joined++;
        uint64_t expect = sl->gen_sent[seat] + 1;
        if (s_tp_moved(t, slot, seat, r->code == 0 ? r->next : NULL)) return -1;
        /* P4.3: the join's reply carries the seat's decision (not on ALREADY_JOINED) */
        if (r->code == 0 && r->next) return s_tp_decided(t, slot, seat, r->next, r->next_legal, expect);
        return s_tp_gameref(t, slot, seat, BERTHIER__V1__REQUEST__BODY_PENDING);
    }
    case ST_PENDING:
        if (r->code != 0 || !r->decision) return s_tp_fail(t, "pending", r);
        return s_tp_decided(t, slot, seat, r->decision, r->next_legal, sl->gen_sent[seat]);
    case ST_LEGAL:
        if ((int)r->code == BRT_CODE_GAME_OVER || (int)r->code == BRT_CODE_NOT_STARTED || (int)r->code == BRT_CODE_NOT_YOUR_DECISION)
            return s_tp_gameref(t, slot, seat, BERTHIER__V1__REQUEST__BODY_PENDING);
        if (r->code != 0 || !r->legal || r->legal->n_orders == 0) return s_tp_fail(t, "legal", r);
        return s_tp_submit(t, slot, seat, r->legal);
    case ST_SUBMIT:
        if (r->code == 0) {
            t->orders++;
            uint64_t expect = sl->gen_sent[seat] + 1;
            if (s_tp_moved(t, slot, seat, r->next)) return -1;
            if (r->next) return s_tp_decided(t, slot, seat, r->next, r->next_legal, expect);
        } else if ((int)r->code != BRT_CODE_STALE && (int)r->code != BRT_CODE_NOT_YOUR_DECISION && (int)r->code != BRT_CODE_GAME_OVER) {
            return s_tp_fail(t, "submit", r);
        }
        return s_tp_gameref(t, slot, seat, BERTHIER__V1__REQUEST__BODY_PENDING);
    default:
        snprintf(t->err, sizeof t->err, "a reply for game slot %u seat %u that waits for none", slot, seat);
        return -1;
    }
}

/* Plays nslots games at once. seconds > 0: count accepted orders for that long
 * once every slot has its first game joined. stop_finished > 0: play until that
 * many games have ended (the daemon's data dir is then left in place). */
static int s_tp_run(const bench_opts *o, const char *name, unsigned nslots, double seconds, unsigned stop_finished,
                    bench_throughput *out, char *dir_out, size_t dir_len) {
    memset(out, 0, sizeof *out);
    bench_daemon d;
    if (bench_daemon_start(&d, o, name) != 0) return -1;
    if (dir_out) snprintf(dir_out, dir_len, "%s", d.dir);
    s_tp t;
    memset(&t, 0, sizeof t);
    t.o = o;
    t.p43 = !o->old_protocol;
    t.nslots = nslots;
    t.slots = calloc(t.nslots, sizeof *t.slots);
    t.ctx = zmq_ctx_new();
    brt_keypair adm;
    char admpath[400];
    snprintf(admpath, sizeof admpath, "%s/admin.key", d.dir);
    int rc = (t.slots && brt_keypair_load(&adm, admpath) == 0) ? 0 : -1;
    t.endpoint = d.endpoint;
    t.server_pub = d.server_pub;
    for (int i = 0; i < 2 && rc == 0; i++) {
        uint8_t curve_sk[32];
        if (brt_keypair_generate(&t.kp[i]) != 0 || brt_pubkey_raw(t.kp[i].public_z85, t.raw[i]) != 0 ||
            !zmq_z85_decode(curve_sk, t.kp[i].secret_z85) || seatsig_derive(curve_sk, t.sign_pk[i], t.sign_sk[i]) != 0)
            rc = -1;
    }
    if (rc == 0 && !(t.admin = s_dealer(t.ctx, d.endpoint, d.server_pub, &adm))) rc = -1;
    for (unsigned i = 0; i < t.nslots && rc == 0; i++) rc = s_tp_create(&t, i);
    double start = bench_now_us(), now = start, window_start = 0, end = 0;
    uint64_t w_requests = 0, w_replies = 0, w_req_bytes = 0, w_rep_bytes = 0, w_next = 0;
    double cap = start + 1e6 * (seconds > 0 ? seconds + 120 : 300);
    while (rc == 0) {
        now = bench_now_us();
        if (seconds > 0 && !t.counting && t.joined >= t.nslots) {
            t.counting = 1;
            t.orders = 0;
            w_requests = t.requests;
            w_replies = t.replies;
            w_req_bytes = t.req_bytes;
            w_rep_bytes = t.rep_bytes;
            w_next = t.next_used;
            window_start = now;
            end = now + seconds * 1e6;
        }
        if (t.counting && now >= end) break;
        if (stop_finished && t.finished >= stop_finished) break;
        if (now > cap) {
            snprintf(t.err, sizeof t.err, "gave up after %.0f s", (now - start) / 1e6);
            rc = -1;
            break;
        }
        zmq_pollitem_t it[3];
        unsigned which[3], nit = 0;
        for (unsigned w = 0; w < 3; w++) {
            void *sk = w < 2 ? t.sock[w] : t.admin;
            if (!sk) continue;
            it[nit] = (zmq_pollitem_t){sk, 0, ZMQ_POLLIN, 0};
            which[nit++] = w;
        }
        int n = zmq_poll(it, (int)nit, 200);
        if (n < 0 && errno != EINTR) rc = -1;
        for (unsigned k = 0; k < nit && rc == 0; k++) {
            unsigned w = which[k];
            if (!(it[k].revents & ZMQ_POLLIN)) continue;
            for (;;) {
                zmq_msg_t m;
                zmq_msg_init(&m);
                if (zmq_msg_recv(&m, it[k].socket, ZMQ_DONTWAIT) < 0) {
                    zmq_msg_close(&m);
                    break;
                }
                Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&m), zmq_msg_data(&m));
                /* in flight when this reply came: every request sent and not yet answered */
                if (t.counting) {
                    t.inflight_sum += (double)(t.requests - t.replies);
                    t.inflight_n++;
                }
                t.replies++;
                t.rep_bytes += zmq_msg_size(&m);
                zmq_msg_close(&m);
                if (!r) {
                    snprintf(t.err, sizeof t.err, "a reply that does not decode");
                    rc = -1;
                    break;
                }
                rc = s_tp_reply(&t, w, r);
                berthier__v1__reply__free_unpacked(r, NULL);
                if (rc != 0) break;
            }
        }
    }
    if (rc == 0) {
        out->seconds = t.counting ? (now - window_start) / 1e6 : (now - start) / 1e6;
        out->orders = t.orders;
        out->per_s = out->seconds > 0 ? (double)t.orders / out->seconds : 0;
        out->games_finished = t.finished;
        out->requests = t.requests;
        out->old_protocol = !t.p43;
        if (t.counting) {
            uint64_t nreq = t.requests - w_requests, nrep = t.replies - w_replies;
            out->window_requests = nreq;
            out->per_order = t.orders ? (double)nreq / (double)t.orders : 0;
            out->inflight = t.inflight_n ? t.inflight_sum / (double)t.inflight_n : 0;
            out->req_bytes = nreq ? (double)(t.req_bytes - w_req_bytes) / (double)nreq : 0;
            out->rep_bytes = nrep ? (double)(t.rep_bytes - w_rep_bytes) / (double)nrep : 0;
            out->next_used = t.next_used - w_next;
        }
    } else if (t.err[0]) {
        fprintf(stderr, "berthier-bench: %s: %s\n", name, t.err);
    }
    for (int i = 0; i < 2; i++)
        if (t.sock[i]) zmq_close(t.sock[i]);
    if (t.admin) zmq_close(t.admin);
    zmq_ctx_term(t.ctx);
    free(t.slots);
    bench_daemon_stop(&d);
    return rc;
}

int live_throughput(const bench_opts *o, bench_throughput *out) {
    return s_tp_run(o, "throughput", o->concurrency, o->seconds, 0, out, NULL, 0);
}

int live_finished_games(const bench_opts *o, unsigned n, char *dir, size_t dirlen) {
    bench_throughput tp;
    return s_tp_run(o, "logs", n < o->concurrency ? n : o->concurrency, 0, n, &tp, dir, dirlen);
}

/* ---- memory: RSS per live game ------------------------------------------------ */

int live_memory(const bench_opts *o, bench_memory *out) {
    memset(out, 0, sizeof *out);
    bench_daemon d;
    if (bench_daemon_start(&d, o, "memory") != 0) return -1;
    brt_keypair adm, kp[2];
    uint8_t raw[2][32];
    char admpath[400];
    snprintf(admpath, sizeof admpath, "%s/admin.key", d.dir);
    void *ctx = zmq_ctx_new(), *sock = NULL;
    int rc = brt_keypair_load(&adm, admpath) == 0 ? 0 : -1;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (brt_keypair_generate(&kp[i]) != 0 || brt_pubkey_raw(kp[i].public_z85, raw[i]) != 0) rc = -1;
    if (rc == 0 && !(sock = s_dealer(ctx, d.endpoint, d.server_pub, &adm))) rc = -1;
    /* Prefer Waterloo 20 when this daemon has it: one create tells. */
    const char *rulesets[2][2] = {{"n20", "waterloo20-standard"}, {"duel", "standard"}};
    const char *rs = NULL, *sc = NULL;
    uint64_t rid = 0;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame cg = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec sp[2], *pp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&sp[i]);
        sp[i].seat = i;
        sp[i].key.data = raw[i];
        sp[i].key.len = 32;
        pp[i] = &sp[i];
    }
    cg.seats = pp;
    cg.n_seats = 2;
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &cg;
    s_tp dummy;
    memset(&dummy, 0, sizeof dummy);
    /* The connection and one round first, so that the baseline holds the socket. */
    Berthier__V1__Request hello = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    hello.request_id = ++rid;
    hello.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    hello.hello = &g;
    uint8_t buf[65536];
    if (rc == 0 && (s_send(&dummy, sock, &hello) != 0 || zmq_recv(sock, buf, sizeof buf, 0) < 0)) rc = -1;
    usleep(200000);
    long before = bench_rss_bytes(d.pid);
    unsigned created = 0;
    for (int k = 0; k < 2 && rc == 0 && !rs; k++) {
        cg.ruleset = (char *)rulesets[k][0];
        cg.scenario = (char *)rulesets[k][1];
        req.request_id = ++rid;
        if (s_send(&dummy, sock, &req) != 0) rc = -1;
        int n = rc == 0 ? zmq_recv(sock, buf, sizeof buf, 0) : -1;
        Berthier__V1__Reply *r = n > 0 ? berthier__v1__reply__unpack(NULL, (size_t)n, buf) : NULL;
        if (r && r->code == 0) {
            rs = rulesets[k][0];
            sc = rulesets[k][1];
            created = 1;
        } else if (!r || (int)r->code != BRT_CODE_BAD_RULESET) {
            rc = -1;
        }
        if (r) berthier__v1__reply__free_unpacked(r, NULL);
    }
    if (!rs) rc = -1;
    double t0 = bench_now_us(), cap = (o->quick ? 30.0 : 150.0) * 1e6;
    unsigned inflight = 0;
    while (rc == 0 && (created + inflight < o->games || inflight > 0)) {
        while (created + inflight < o->games && inflight < 32 && bench_now_us() - t0 < cap) {
            req.request_id = ++rid;
            cg.ruleset = (char *)rs;
            cg.scenario = (char *)sc;
            if (s_send(&dummy, sock, &req) != 0) {
                rc = -1;
                break;
            }
            inflight++;
        }
        if (inflight == 0) {
            out->capped = 1;
            break;
        }
        zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 30000) <= 0) {
            fprintf(stderr, "berthier-bench: memory: no reply to create in 30 s\n");
            rc = -1;
            break;
        }
        int n = zmq_recv(sock, buf, sizeof buf, 0);
        Berthier__V1__Reply *r = n > 0 ? berthier__v1__reply__unpack(NULL, (size_t)n, buf) : NULL;
        if (!r || r->code != 0) {
            fprintf(stderr, "berthier-bench: memory: create failed (code %d)\n", r ? (int)r->code : -1);
            rc = -1;
        }
        if (r) berthier__v1__reply__free_unpacked(r, NULL);
        inflight--;
        created++;
    }
    out->create_s = (bench_now_us() - t0) / 1e6;
    usleep(200000);
    long after = bench_rss_bytes(d.pid);
    if (rc == 0 && before > 0 && after > 0 && created > 0) {
        out->games = created;
        out->rss_before = before;
        out->rss_after = after;
        out->per_game = (double)(after - before) / created;
        snprintf(out->ruleset, sizeof out->ruleset, "%s", rs);
    } else {
        rc = -1;
    }
    if (sock) zmq_close(sock);
    zmq_ctx_term(ctx);
    bench_daemon_stop(&d);
    return rc;
}

/* ---- start-up and memory with ended games ------------------------------------------ */

static int s_dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Start the daemon of `name` three times: medians of its time to ready and its VmRSS. */
static int s_start_median(const bench_opts *o, const char *name, double *ready_us, long *rss) {
    double t[3], m[3];
    for (int i = 0; i < 3; i++) {
        bench_daemon d;
        char logpath[600];
        snprintf(logpath, sizeof logpath, "%s/%s/daemon.log", o->workdir, name);
        unlink(logpath);   /* the ready line of this start, not of the one before */
        if (bench_daemon_start(&d, o, name) != 0) return -1;
        t[i] = d.ready_us;
        usleep(200000);
        m[i] = (double)bench_rss_bytes(d.pid);
        bench_daemon_stop(&d);
        if (m[i] <= 0) return -1;
    }
    qsort(t, 3, sizeof *t, s_dcmp);
    qsort(m, 3, sizeof *m, s_dcmp);
    *ready_us = t[1];
    *rss = (long)m[1];
    return 0;
}

/* What loading an ended game from its index must do at least, in this process: read the
 * index, stat the log and read its last 32 bytes. Microseconds per game; bytes of index. */
static int s_startup_floor(const char *games, unsigned n, double *us, double *bytes) {
    double best = 0;
    long total = 0;
    for (int round = 0; round < 3; round++) {
        DIR *dir = opendir(games);
        if (!dir) return -1;
        unsigned seen = 0;
        total = 0;
        double t0 = bench_now_us();
        struct dirent *de;
        while ((de = readdir(dir))) {
            size_t len = strlen(de->d_name);
            if (len < 5 || strcmp(de->d_name + len - 4, ".fin") != 0) continue;
            char p[700], b[4096];
            if ((size_t)snprintf(p, sizeof p, "%s/%s", games, de->d_name) >= sizeof p) continue;
            int fd = open(p, O_RDONLY | O_CLOEXEC);
            ssize_t got = fd >= 0 ? read(fd, b, sizeof b) : -1;
            if (fd >= 0) close(fd);
            if (got <= 0) continue;
            total += got;
            snprintf(p + strlen(p) - 4, 5, ".log");
            fd = open(p, O_RDONLY | O_CLOEXEC);
            struct stat st;
            if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size >= 32) (void)!pread(fd, b, 32, st.st_size - 32);
            if (fd >= 0) close(fd);
            seen++;
        }
        double t = bench_now_us() - t0;
        closedir(dir);
        if (seen != n) return -1;
        if (round == 0 || t < best) best = t;
    }
    *us = best / n;
    *bytes = (double)total / n;
    return 0;
}

int live_startup(const bench_opts *o, bench_startup *out) {
    memset(out, 0, sizeof *out);
    unsigned want = o->quick ? 40 : 1000;
    bench_throughput tp;
    char dir[400];
    if (s_tp_run(o, "startup", want < o->concurrency ? want : o->concurrency, 0, want, &tp, dir, sizeof dir) != 0)
        return -1;
    /* keep the ended games only (those with an index): the games still in play are moved out */
    char games[500], aside[500];
    snprintf(games, sizeof games, "%s/games", dir);
    snprintf(aside, sizeof aside, "%s/live-games", dir);
    if (mkdir(aside, 0700) != 0 && errno != EEXIST) return -1;
    DIR *dd = opendir(games);
    if (!dd) return -1;
    unsigned ended = 0;
    struct dirent *de;
    while ((de = readdir(dd))) {
        size_t len = strlen(de->d_name);
        if (len != 20 || strcmp(de->d_name + 16, ".log") != 0) continue;
        char fin[700], from[700], to[700];
        snprintf(fin, sizeof fin, "%s/%.16s.fin", games, de->d_name);
        if (access(fin, F_OK) == 0) {
            ended++;
            continue;
        }
        for (int k = 0; k < 2; k++) {
            snprintf(from, sizeof from, "%s/%.16s.%s", games, de->d_name, k ? "seed" : "log");
            snprintf(to, sizeof to, "%s/%.16s.%s", aside, de->d_name, k ? "seed" : "log");
            if (rename(from, to) != 0) {
                closedir(dd);
                return -1;
            }
        }
    }
    closedir(dd);
    if (ended == 0) return -1;
    out->games = ended;
    if (s_start_median(o, "startup-empty", &out->ready_empty_us, &out->rss_empty) != 0) return -1;
    if (s_start_median(o, "startup", &out->ready_full_us, &out->rss_full) != 0) return -1;
    if (s_startup_floor(games, ended, &out->floor_us, &out->floor_bytes) != 0) return -1;
    out->per_game_us = (out->ready_full_us - out->ready_empty_us) / ended;
    out->mem_per_game = (double)(out->rss_full - out->rss_empty) / ended;
    /* the same games without their indexes: each is re-executed once (and indexed again) */
    dd = opendir(games);
    if (!dd) return -1;
    while ((de = readdir(dd))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".fin") != 0) continue;
        char p[1024];
        if (snprintf(p, sizeof p, "%s/%s", games, de->d_name) >= (int)sizeof p) continue; /* too long: not ours */
        unlink(p);
    }
    closedir(dd);
    bench_daemon d;
    char logpath[600];
    snprintf(logpath, sizeof logpath, "%s/startup/daemon.log", o->workdir);
    unlink(logpath);
    if (bench_daemon_start(&d, o, "startup") != 0) return -1;
    out->rebuild_per_game_us = (d.ready_us - out->ready_empty_us) / ended;
    bench_daemon_stop(&d);
    return 0;
}
