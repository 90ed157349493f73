/*
 * offline.c - measurements with no daemon:
 *   - replay_verify: random bots play games to the end through a real daemon;
 *     `berthier-replay verify` checks the finished logs (up to 256 per process, as an
 *     operator runs it), the same checks run in process (the library behind
 *     the tool), and the floors are BLAKE2b over the same bytes alone and the
 *     bare re-execution of the same inputs (game_bare_run: the ruleset's setup
 *     and apply on the decoded orders with the logged dice, no log checks).
 *   - inproc_games: full random-bot games in one process, no IPC, no disk.
 */
#include <errno.h>
#include <math.h>
#include <dirent.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "evlog.h"
#include "game.h"
#include "memlog.h"
#include "replay.h"
#include "ruleset.h"
#include "selfplay.h"

static int s_run_quiet(char *const argv[]) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static uint8_t *s_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    *len = b ? fread(b, 1, n > 0 ? (size_t)n : 0, f) : 0;
    fclose(f);
    return b;
}

static int s_count_records(const uint8_t *data, size_t len, uint64_t *n) {
    evlog_reader *rd = evlog_reader_from_memory(data, len);
    if (!rd) return -1;
    evlog_record rec;
    int rc;
    while ((rc = evlog_reader_next(rd, &rec)) == 1) (*n)++;
    evlog_reader_destroy(&rd);
    return rc < 0 ? -1 : 0;
}

/* One log's inputs, decoded before the clock starts, for game_bare_run. */
typedef struct bare_log {
    const brt_ruleset *rs;
    char *scenario;
    char **opts;               /* the ruleset's options (core ones left out) */
    size_t nopts;
    unsigned nseats;
    unsigned *seat;
    uint8_t **order;
    size_t *len;
    size_t n, cap;
    uint32_t *dice;            /* by roll index */
    size_t ndice;
    size_t signed_inputs;      /* inputs carrying a seat signature (verify checks each) */
} bare_log;

static void s_bare_free(bare_log *b) {
    free(b->scenario);
    for (size_t i = 0; i < b->nopts; i++) free(b->opts[i]);
    free(b->opts);
    for (size_t i = 0; i < b->n; i++) free(b->order[i]);
    free(b->seat);
    free(b->order);
    free(b->len);
    free(b->dice);
    memset(b, 0, sizeof *b);
}

static int s_bare_order(bare_log *b, const evlog_record *r) {
    Berthier__V1__LogOrder *lo = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
    if (!lo) return -1;
    Berthier__V1__Request *rq = berthier__v1__request__unpack(NULL, lo->request.len, lo->request.data);
    int rc = -1;
    if (rq && rq->signature.len) b->signed_inputs++;
    if (rq && rq->body_case == BERTHIER__V1__REQUEST__BODY_SUBMIT && rq->submit->order.len > 0) {
        if (b->n == b->cap) {
            size_t nc = b->cap ? 2 * b->cap : 64;
            unsigned *ns = realloc(b->seat, nc * sizeof *ns);
            if (ns) b->seat = ns;
            uint8_t **no = realloc(b->order, nc * sizeof *no);
            if (no) b->order = no;
            size_t *nl = realloc(b->len, nc * sizeof *nl);
            if (nl) b->len = nl;
            if (ns && no && nl) b->cap = nc;
        }
        if (b->n < b->cap && (b->order[b->n] = malloc(rq->submit->order.len))) {
            memcpy(b->order[b->n], rq->submit->order.data, rq->submit->order.len);
            b->len[b->n] = rq->submit->order.len;
            b->seat[b->n++] = lo->seat;
            rc = 0;
        }
    }
    if (rq) berthier__v1__request__free_unpacked(rq, NULL);
    berthier__v1__log_order__free_unpacked(lo, NULL);
    return rc;
}

static int s_bare_dice(bare_log *b, const evlog_record *r) {
    Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, r->len, r->payload);
    if (!d || d->index > 100000000) {
        if (d) berthier__v1__log_dice__free_unpacked(d, NULL);
        return -1;
    }
    if (d->index >= b->ndice) {
        size_t nn = (size_t)d->index + 1;
        uint32_t *nd = realloc(b->dice, nn * sizeof *nd);
        if (!nd) {
            berthier__v1__log_dice__free_unpacked(d, NULL);
            return -1;
        }
        memset(nd + b->ndice, 0, (nn - b->ndice) * sizeof *nd);
        b->dice = nd;
        b->ndice = nn;
    }
    b->dice[d->index] = d->value;
    berthier__v1__log_dice__free_unpacked(d, NULL);
    return 0;
}

/* 0, or -1 when the log holds an input the bare run cannot take (an order given as text). */
static int s_bare_load(const uint8_t *data, size_t len, bare_log *b) {
    memset(b, 0, sizeof *b);
    evlog_reader *rd = evlog_reader_from_memory(data, len);
    if (!rd) return -1;
    evlog_record rec;
    int rc = 0, more;
    while (rc == 0 && (more = evlog_reader_next(rd, &rec)) == 1) {
        if (rec.kind == EVLOG_HEADER) {
            Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, rec.len, rec.payload);
            if (!h || !(b->rs = brt_ruleset_find(h->ruleset)) || !(b->scenario = strdup(h->scenario)) ||
                !(b->opts = calloc(h->n_options + 1, sizeof *b->opts)))
                rc = -1;
            for (size_t i = 0; rc == 0 && i < h->n_options; i++)
                if (!game_option_is_core(h->options[i]) && !(b->opts[b->nopts++] = strdup(h->options[i]))) rc = -1;
            if (h) b->nseats = (unsigned)h->n_seats;
            if (h) berthier__v1__log_header__free_unpacked(h, NULL);
        } else if (rec.kind == EVLOG_ORDER) {
            rc = s_bare_order(b, &rec);
        } else if (rec.kind == EVLOG_JOIN) {
            Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, rec.len, rec.payload);
            if (j && j->signature.len) b->signed_inputs++;
            if (j) berthier__v1__log_join__free_unpacked(j, NULL);
        } else if (rec.kind == EVLOG_DICE) {
            rc = s_bare_dice(b, &rec);
        }
    }
    evlog_reader_destroy(&rd);
    if (rc != 0 || !b->rs) {
        s_bare_free(b);
        return -1;
    }
    return 0;
}

int offline_replay(const bench_opts *o, bench_replay *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->ruleset, sizeof out->ruleset, "%s", o->ruleset);
    /* Finished games played by random bots through a real daemon. */
    char ddir[400];
    if (live_finished_games(o, o->logs, ddir, sizeof ddir) != 0) return -1;
    char gdir[480];
    snprintf(gdir, sizeof gdir, "%s/games", ddir);
    DIR *dh = opendir(gdir);
    if (!dh) return -1;
    unsigned cap = o->logs + 256, n = 0;
    char (*paths)[800] = calloc(cap, sizeof *paths);
    uint8_t **data = calloc(cap, sizeof *data);
    size_t *lens = calloc(cap, sizeof *lens);
    int rc = (paths && data && lens) ? 0 : -1;
    brt_buf report;
    buf_init(&report);
    for (struct dirent *e; rc == 0 && n < o->logs && (e = readdir(dh));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".log") != 0) continue;
        snprintf(paths[n], sizeof paths[n], "%s/%s", gdir, e->d_name);
        if (!(data[n] = s_slurp(paths[n], &lens[n]))) continue;
        /* Only finished games: a live one verifies as incomplete. */
        buf_reset(&report);
        int vr = replay_verify_memory(data[n], lens[n], NULL, &report);
        if (vr != REPLAY_OK) {
            if (vr != REPLAY_INCOMPLETE)
                fprintf(stderr, "berthier-bench: %s does not verify (%d): %.*s\n", paths[n], vr,
                        (int)(report.len < 300 ? report.len : 300), (const char *)report.data);
            free(data[n]);
            data[n] = NULL;
            continue;
        }
        if (s_count_records(data[n], lens[n], &out->records) != 0) rc = -1;
        out->bytes += lens[n];
        n++;
    }
    closedir(dh);
    buf_free(&report);
    if (rc == 0 && n == 0) {
        fprintf(stderr, "berthier-bench: no finished game log in %s\n", gdir);
        rc = -1;
    }
    out->logs = n;
    char bin[600];
    snprintf(bin, sizeof bin, "%s/berthier-replay", o->bindir);
    /* The tool, as an auditor runs it: `verify` with up to 256 logs per process. */
    if (rc == 0) {
        enum { BATCH = 256 };
        char **argv = calloc(BATCH + 5, sizeof *argv);
        if (!argv) rc = -1;
        double t0 = bench_now_us();
        for (unsigned i = 0; i < n && rc == 0; i += BATCH) {
            unsigned k = 0;
            argv[k++] = bin;
            argv[k++] = (char *)"verify";
            for (unsigned j = i; j < n && j < i + BATCH; j++) argv[k++] = paths[j];
            argv[k] = NULL;
            int st = s_run_quiet(argv);
            if (st != 0) {
                fprintf(stderr, "berthier-bench: berthier-replay verify %s ... exited %d\n", paths[i], st);
                rc = -1;
            }
        }
        out->per_s = (double)out->records / ((bench_now_us() - t0) / 1e6);
        /* The same with -j (one thread per cpu), as an auditor with many logs runs it. */
        char jarg[16];
        out->jobs = (unsigned)bench_cpu_count();
        snprintf(jarg, sizeof jarg, "%u", out->jobs);
        t0 = bench_now_us();
        for (unsigned i = 0; i < n && rc == 0; i += BATCH) {
            unsigned k = 0;
            argv[k++] = bin;
            argv[k++] = (char *)"verify";
            argv[k++] = (char *)"-j";
            argv[k++] = jarg;
            for (unsigned j = i; j < n && j < i + BATCH; j++) argv[k++] = paths[j];
            argv[k] = NULL;
            int st = s_run_quiet(argv);
            if (st != 0) {
                fprintf(stderr, "berthier-bench: berthier-replay verify -j %s %s ... exited %d\n", jarg, paths[i], st);
                rc = -1;
            }
        }
        out->jobs_per_s = (double)out->records / ((bench_now_us() - t0) / 1e6);
        free(argv);
        char *help[] = {bin, (char *)"--help", NULL};
        t0 = bench_now_us();
        for (int i = 0; i < 10; i++) s_run_quiet(help);
        out->exec_us = (bench_now_us() - t0) / 10;
    }
    /* The same checks in process, over the bytes in memory. */
    if (rc == 0) {
        brt_buf report;
        buf_init(&report);
        double t0 = bench_now_us();
        for (unsigned i = 0; i < n && rc == 0; i++) {
            buf_reset(&report);
            if (replay_verify_memory(data[i], lens[i], NULL, &report) != REPLAY_OK) rc = -1;
        }
        out->inproc_per_s = (double)out->records / ((bench_now_us() - t0) / 1e6);
        buf_free(&report);
    }
    /* The second floor: bare re-execution of the same inputs, decoded beforehand. */
    if (rc == 0) {
        bare_log *bl = calloc(n, sizeof *bl);
        int ok = bl != NULL;
        for (unsigned i = 0; ok && i < n; i++) ok = s_bare_load(data[i], lens[i], &bl[i]) == 0;
        if (ok) {
            unsigned reps = 0;
            size_t refused = 0;
            double t0 = bench_now_us(), el;
            do {
                refused = 0;
                for (unsigned i = 0; ok && i < n; i++) {
                    brt_ruleset_options ro = {(const char *const *)bl[i].opts, bl[i].nopts, bl[i].nseats};
                    ok = game_bare_run(bl[i].rs, bl[i].scenario, &ro, bl[i].seat, (const uint8_t *const *)bl[i].order,
                                       bl[i].len, bl[i].n, bl[i].dice, bl[i].ndice, &refused) == 0;
                }
                reps++;
                el = bench_now_us() - t0;
            } while (ok && el < 200000);
            if (ok) {
                out->bare_per_s = (double)out->records * reps / (el / 1e6);
                out->bare_refused = refused;
                for (unsigned i = 0; i < n; i++) out->bare_orders += bl[i].n;
                for (unsigned i = 0; i < n; i++) out->seat_sigs += bl[i].signed_inputs;
            }
        }
        for (unsigned i = 0; bl && i < n; i++) s_bare_free(&bl[i]);
        free(bl);
        if (!ok) out->bare_per_s = NAN;
    }
    /* What one Ed25519 check costs here (verify makes one per seat-signed input). */
    if (rc == 0) {
        uint8_t pk[32], sk[64], sig[64], msg[160];
        memset(msg, 7, sizeof msg);
        crypto_sign_keypair(pk, sk);
        crypto_sign_detached(sig, NULL, msg, sizeof msg, sk);
        unsigned k = 0;
        double t0 = bench_now_us(), el;
        do {
            for (int i = 0; i < 50; i++, k++)
                if (crypto_sign_verify_detached(sig, msg, sizeof msg, pk) != 0) rc = -1;
            el = bench_now_us() - t0;
        } while (el < 100000);
        out->sig_us = el / k;
    }
    /* The floor: BLAKE2b over the same bytes, repeated until it is long enough to time. */
    if (rc == 0) {
        uint8_t h[32];
        unsigned reps = 0;
        double t0 = bench_now_us(), el;
        do {
            for (unsigned i = 0; i < n; i++) crypto_generichash(h, sizeof h, data[i], lens[i], NULL, 0);
            reps++;
            el = bench_now_us() - t0;
        } while (el < 200000);
        out->hash_per_s = (double)out->records * reps / (el / 1e6);
    }
    for (unsigned i = 0; data && i < n; i++) free(data[i]);
    free(data);
    free(lens);
    free(paths);
    return rc;
}

int offline_inproc(const bench_opts *o, const char *ruleset, const char *scenario, bench_inproc *out) {
    memset(out, 0, sizeof *out);
    if (!brt_ruleset_find(ruleset)) return 0;
    out->available = 1;
    double t0 = bench_now_us(), el = 0, limit = (o->quick ? 0.3 : o->seconds) * 1e6;
    uint64_t seed = 1;
    do {
        memlog log;
        selfplay_result r;
        if (selfplay_game(ruleset, scenario, NULL, 0, 2, seed++, 1000000, &log, &r) != 0 || !r.ended) {
            fprintf(stderr, "berthier-bench: selfplay %s seed %llu: %s\n", ruleset, (unsigned long long)(seed - 1),
                    r.error[0] ? r.error : "did not end");
            memlog_free(&log);
            return -1;
        }
        memlog_free(&log);
        out->games++;
        out->orders += r.orders;
        el = bench_now_us() - t0;
    } while (el < limit || out->games < 3);
    out->per_s = (double)out->games / (el / 1e6);
    return 0;
}
