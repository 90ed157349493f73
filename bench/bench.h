/*
 * bench.h - berthier-bench: what the measuring parts share.
 *
 * Every speed figure is printed next to a floor measured in the same run on
 * the same machine (docs/bench.md):
 *   floor.c    bare ZeroMQ + CURVE round trips over ipc with the daemon's frame
 *              sizes, with and without one fdatasync of an order's log bytes; a
 *              pipelined echo; a durable echo that group-commits each round to
 *              one file with one fdatasync
 *   live.c     a real berthierd on a temporary data dir: order latency,
 *              throughput over concurrent games, memory per live game
 *   offline.c  berthier-replay verify on finished logs against BLAKE2b alone;
 *              random-bot games in process
 */
#ifndef BERTHIER_BENCH_H
#define BERTHIER_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct bench_opts {
    int quick;                 /* --quick: small counts (the ctest smoke test) */
    const char *ruleset;       /* --ruleset: duel (default) or n20 */
    const char *scenario;      /* that ruleset's scenario */
    unsigned games;            /* --games: live games for memory_per_game */
    unsigned orders;           /* --orders: timed orders for the latency lines */
    unsigned concurrency;      /* games played at once for throughput (64) */
    double seconds;            /* length of each timed window */
    unsigned logs;             /* finished logs for replay_verify */
    const char *only;          /* --only: comma-separated groups to run (NULL = all) */
    int old_protocol;          /* --protocol old: the bots' four-request flow, not P4.3 */
    char bindir[512];          /* where berthierd and berthier-replay are */
    char workdir[256];         /* temporary directory of this run */
} bench_opts;

/* ---- helpers (main.c) ---- */
double bench_now_us(void);
/* p in [0,1]; sorts v in place. */
double bench_percentile(double *v, size_t n, double p);
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bench_cpu_count(void);

/* ---- floor.c ---- */
typedef struct bench_floor_latency {
    double p50, p99;           /* round trip + one write/fdatasync, microseconds */
    size_t req_bytes, rep_bytes, rec_bytes;   /* the sizes it moved: the daemon's (means of the run) */
    double thread_p50, thread_p99;   /* the same with the fdatasync on a second thread */
    double zmq_p50, zmq_p99;   /* round trip alone */
    double sync_p50, sync_p99; /* write + fdatasync alone */
} bench_floor_latency;

/* The latency floors, sampled one at a time so that they can be interleaved
 * with the daemon's orders and see the same disk and CPU weather. */
typedef struct floor_session floor_session;
floor_session *floor_session_new(const bench_opts *o);
int floor_session_sample(floor_session *s, double *sync_rt, double *zmq_rt, double *alone);
/* The same with the daemon's sizes: a request of req bytes, a reply of rep bytes, rec bytes
 * appended (and fdatasynced) by the durable server and by the lone write. */
int floor_session_sample_sized(floor_session *s, size_t req, size_t rep, size_t rec, double *sync_rt, double *zmq_rt,
                               double *alone);
/* The durable floor once more, its server handing the append + fdatasync to a second thread and
 * waiting for it (as berthierd's main loop hands a round's fdatasyncs to its flush threads). */
int floor_session_sample_thread(floor_session *s, size_t req, size_t rep, size_t rec, double *rt);
void floor_session_destroy(floor_session **ps);
/* Messages per second echoed by a bare ROUTER, `window` in flight. */
int floor_echo(const bench_opts *o, double seconds, unsigned window, double *per_s);
/* The durable echo (group commit): replies per second with `window` requests of req_bytes in
 * flight, the server appending one 200-byte record per frame to one file and fdatasyncing once
 * per round of every frame it could read, then sending reply_bytes back for each;
 * *per_round = replies per fdatasync. */
int floor_durable_echo(const bench_opts *o, double seconds, unsigned window, size_t req_bytes, size_t reply_bytes,
                       double *per_s, double *per_round);

/* ---- live.c: a berthierd of our own ---- */
typedef struct bench_daemon {
    pid_t pid;
    char dir[300];
    char server_pub[41];
    char endpoint[340];
    double ready_us;           /* from the fork to the daemon's ready line (polled every 0.5 ms) */
} bench_daemon;

int bench_daemon_start(bench_daemon *d, const bench_opts *o, const char *name);
/* The same with more berthierd arguments (NULL-terminated list, or NULL). */
int bench_daemon_start_args(bench_daemon *d, const bench_opts *o, const char *name, const char *const *extra);
void bench_daemon_stop(bench_daemon *d);
/* VmRSS of a process in bytes (-1 if unknown). */
long bench_rss_bytes(pid_t pid);
/* Kill every daemon still running (atexit, signals). */
void bench_daemon_kill_all(void);

typedef struct bench_latency {
    double p50, p99, mean;
    size_t n;
    bench_floor_latency floor;   /* sampled between the orders */
    char ruleset[32];
    double sign_us, verify_us;   /* one Ed25519 signature, one check, timed here in the same run */
    double pending_p50, pending_p99;   /* a `pending` of the same seat after each order: a query, no disk */
} bench_latency;

int live_latency(const bench_opts *o, bench_latency *out);

/* An honest seat's durable orders while a seat of another game keeps 2000
 * requests in flight (pending queries and garbage), against the same orders
 * with the flooder paused, in alternating blocks of 10. */
typedef struct bench_flood {
    double quiet_p50, quiet_p99;   /* flooder paused, microseconds */
    double loud_p50, loud_p99;     /* flooder running */
    size_t n;                      /* orders timed each way */
    uint64_t flood_sent, flood_answered;
    /* with the default settings (abuse cuts on): */
    double cut_p99;                /* honest p99 while the flooder runs (or has been cut) */
    double cut_quiet_p99;          /* the same daemon, the flooder paused */
    uint64_t cut_sent, cut_answered;
    uint64_t cut_at;               /* frames it had sent when its connection was cut (0: never) */
    unsigned cut_refused, cut_readmitted;   /* its handshakes after the cut */
} bench_flood;

int live_flood(const bench_opts *o, bench_flood *out);

typedef struct bench_throughput {
    double per_s;              /* accepted orders per second */
    uint64_t orders, games_finished, requests;
    double seconds;
    int old_protocol;          /* pending + legal + submit (+ pending), not P4.3 */
    uint64_t window_requests;  /* requests sent in the timed window */
    double per_order;          /* requests per accepted order in the window */
    double inflight;           /* mean requests in flight, seen at each reply in the window */
    double req_bytes, rep_bytes;   /* mean request and reply frame sizes in the window */
    uint64_t next_used;        /* replies whose Reply.next / next_legal the bots acted on */
} bench_throughput;

int live_throughput(const bench_opts *o, bench_throughput *out);
/* Plays until n games have ended; their logs are in <dir>/games. */
int live_finished_games(const bench_opts *o, unsigned n, char *dir, size_t dirlen);

/* `events` for the last input of a long game against `pending` on the same
 * game, alternately: the events index makes a request cost what it returns. */
typedef struct bench_events {
    double events_p50, pending_p50;   /* microseconds */
    size_t n;                         /* requests timed each way */
    uint64_t seq;                     /* inputs in the game */
    long log_bytes;                   /* its log's size */
    char ruleset[32];
} bench_events;

int live_events(const bench_opts *o, bench_events *out);

typedef struct bench_memory {
    double per_game;           /* bytes */
    unsigned games;
    long rss_before, rss_after;
    double create_s;           /* seconds to create them */
    char ruleset[32];
    int capped;                /* stopped early by the time cap */
} bench_memory;

int live_memory(const bench_opts *o, bench_memory *out);

/* Start-up and memory of ended games: a daemon's time to ready and VmRSS with N ended games
 * in its data dir against a daemon with none (medians of three starts each), and the floors
 * of the same run: reading each game's index and checking its log's size and last hash in
 * this process (time), the index's size (bytes). */
typedef struct bench_startup {
    unsigned games;            /* ended games in the data dir */
    double per_game_us, floor_us;        /* (ready with N - ready with none) / N; floor per game */
    double ready_empty_us, ready_full_us;
    double rebuild_per_game_us;          /* the same without indexes (each game re-executed once) */
    double mem_per_game, floor_bytes;    /* (VmRSS with N - VmRSS with none) / N; index bytes per game */
    long rss_empty, rss_full;
} bench_startup;

int live_startup(const bench_opts *o, bench_startup *out);

/* ---- offline.c ---- */
typedef struct bench_replay {
    double per_s;              /* records per second, berthier-replay verify (one process per log) */
    double inproc_per_s;       /* records per second, the same checks in process */
    double jobs_per_s;         /* records per second, berthier-replay verify -j <jobs> */
    unsigned jobs;             /* the cpus online */
    double hash_per_s;         /* records per second, BLAKE2b over the same bytes */
    double bare_per_s;         /* records per second, bare re-execution (game_bare_run); NAN: not measured */
    uint64_t bare_orders;      /* orders it applied per pass */
    size_t bare_refused;       /* of which apply refused (0 when every order is taken in log order) */
    uint64_t seat_sigs;        /* seat-signed inputs in the logs: one Ed25519 check each in verify */
    double sig_us;             /* one Ed25519 check (crypto_sign_verify_detached) here */
    uint64_t records, bytes;
    unsigned logs;
    double exec_us;            /* one run of `berthier-replay --help`: process start-up */
    char ruleset[32];
} bench_replay;

int offline_replay(const bench_opts *o, bench_replay *out);

typedef struct bench_inproc {
    double per_s;              /* games per second on one core */
    uint64_t games, orders;
    int available;             /* the ruleset is built in */
} bench_inproc;

int offline_inproc(const bench_opts *o, const char *ruleset, const char *scenario, bench_inproc *out);

#endif
