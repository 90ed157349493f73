/*
 * offline.c - measurements with no daemon:
 *   - replay_verify: random bots play games to the end through a real daemon;
 *     `berthier-replay verify` checks the finished logs (up to 256 per process, as an
 *     operator runs it), the same checks run in process (the library behind
 *     the tool), and the floor is BLAKE2b over the same bytes alone.
 *   - inproc_games: full random-bot games in one process, no IPC, no disk.
 */
#include <errno.h>
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
        char **argv = calloc(BATCH + 3, sizeof *argv);
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
        free(argv);
        out->per_s = (double)out->records / ((bench_now_us() - t0) / 1e6);
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
