/*
 * test_hard_common.h - what the hardening suites (test_hard_*.c) share on top
 * of test_daemon_common.h: daemon RSS, a duel game with two seat clients, one
 * durable order at a time with its round trip timed, log snapshots.
 *
 * Short by default; BERTHIER_LONG=1 runs the long forms.
 */
#ifndef TEST_HARD_COMMON_H
#define TEST_HARD_COMMON_H

#include "test_daemon_common.h"

static __attribute__((unused)) int th_long(void) {
    const char *l = getenv("BERTHIER_LONG");
    return l && *l && strcmp(l, "0") != 0;
}

static __attribute__((unused)) double th_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* VmRSS in bytes (-1 unknown). */
static __attribute__((unused)) long th_rss(pid_t pid) {
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

static __attribute__((unused)) int th_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static __attribute__((unused)) double th_percentile(double *v, size_t n, double p) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, th_cmp_double);
    size_t k = (size_t)(p * (double)(n - 1) + 0.5);
    return v[k < n ? k : n - 1];
}

/* td_start with a small ASan quarantine for the daemon (harmless without
 * ASan): freed memory held in quarantine would otherwise count as RSS and make
 * the memory bounds of these suites meaningless in the sanitizer build. */
static __attribute__((unused)) int th_start(td_daemon *d) {
    const char *old = getenv("ASAN_OPTIONS");
    char *saved = old ? strdup(old) : NULL;
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%squarantine_size_mb=8", old ? old : "", old && *old ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    int rc = td_start(d);
    if (saved) setenv("ASAN_OPTIONS", saved, 1);
    else unsetenv("ASAN_OPTIONS");
    free(saved);
    return rc;
}

/* The fixture of the suites that want a daemon and its admin client. */
typedef struct th_fx {
    td_daemon d;
    td_client *admin;
} th_fx;

/* cmocka setup: a th_fx whose daemon gets these extra arguments, started by
 * `start` (td_start or th_start). */
static __attribute__((unused)) int th_fx_setup(void **state, const char *const *extra, int nextra,
                                               int (*start)(td_daemon *)) {
    th_fx *f = calloc(1, sizeof *f);
    if (td_start_admin(&f->d, &f->admin, extra, nextra, start) != 0) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static __attribute__((unused)) int th_fx_teardown(void **state) {
    th_fx *f = *state;
    td_fixture_end(&f->d, &f->admin, NULL, 0);
    free(f);
    return 0;
}

/* A started duel game: two fresh seat keys, both joined. */
typedef struct th_game {
    char gid[32];
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    td_client *seat[2];
} th_game;

static __attribute__((unused)) int th_game_start(th_game *g, td_daemon *d, td_client *admin) {
    memset(g, 0, sizeof *g);
    td_fresh_keys(2, g->pub, g->sec, g->keys);
    Berthier__V1__Reply *r = td_create(admin, "duel", "standard", 2, (const uint8_t(*)[32])g->keys, NULL, 0, 0, 0);
    if (!r || r->code) {
        if (r) berthier__v1__reply__free_unpacked(r, NULL);
        return -1;
    }
    snprintf(g->gid, sizeof g->gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
    for (int i = 0; i < 2; i++) {
        g->seat[i] = td_client_new(d, g->pub[i], g->sec[i]);
        if (!g->seat[i]) return -1;
        r = td_join(g->seat[i], g->gid, (unsigned)i);
        int ok = r && r->code == 0;
        if (r) berthier__v1__reply__free_unpacked(r, NULL);
        if (!ok) return -1;
    }
    return 0;
}

static __attribute__((unused)) void th_game_end(th_game *g) {
    for (int i = 0; i < 2; i++) td_client_destroy(&g->seat[i]);
}

/* The packed bytes of every acknowledged submit, to send again. */
typedef struct th_sent {
    uint8_t *bytes;
    size_t len;
    unsigned seat;
    uint64_t seq_after;
} th_sent;

/* One durable order: the seat that must act picks its first legal order (or
 * a pseudo-random one) and submits it. 1 = an order was acknowledged (its
 * round trip in *us), 0 = the game is over, -1 = something failed (why on
 * stderr). The order's bytes go to *sent when asked. */
static __attribute__((unused)) int th_play_one(th_game *g, uint64_t *rid, double *us, th_sent *sent) {
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_gameref(g->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, g->gid, s);
        if (!r || r->code || !r->decision) {
            fprintf(stderr, "pending: %s\n", r ? r->message : "no reply");
            if (r) berthier__v1__reply__free_unpacked(r, NULL);
            return -1;
        }
        int ended = r->decision->result && r->decision->result->ended;
        int must = r->decision->you_must_act;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (ended) return 0;
        if (!must) continue;
        r = td_gameref(g->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, g->gid, s);
        if (!r || r->code || !r->legal || !r->legal->n_orders) {
            fprintf(stderr, "legal: %s\n", r ? r->message : "no reply");
            if (r) berthier__v1__reply__free_unpacked(r, NULL);
            return -1;
        }
        size_t k = (size_t)rand() % r->legal->n_orders;
        size_t n;
        uint8_t *b = td_submit_bytes(++*rid, g->gid, s, r->legal->seq, NULL, r->legal->orders[k].data,
                                     r->legal->orders[k].len, &n);
        berthier__v1__reply__free_unpacked(r, NULL);
        double t0 = th_now_us();
        r = td_call_raw(g->seat[s], b, n, TD_TIMEOUT);
        if (us) *us = th_now_us() - t0;
        if (!r || r->code || !r->accepted) {
            fprintf(stderr, "submit: %s\n", r ? r->message : "no reply");
            if (r) berthier__v1__reply__free_unpacked(r, NULL);
            free(b);
            return -1;
        }
        if (sent) {
            sent->bytes = b;
            sent->len = n;
            sent->seat = s;
            sent->seq_after = r->accepted->seq;
        } else {
            free(b);
        }
        berthier__v1__reply__free_unpacked(r, NULL);
        return 1;
    }
    fprintf(stderr, "game %s: nobody must act\n", g->gid);
    return -1;
}

static __attribute__((unused)) uint8_t *th_log_bytes(const td_daemon *d, const char *gid, size_t *len) {
    char p[512];
    snprintf(p, sizeof p, "%s/games/%s.log", d->dir, gid);
    return td_slurp(p, len);
}

static __attribute__((unused)) uint64_t th_seq(td_client *c, const char *gid, unsigned seat) {
    Berthier__V1__Reply *r = td_gameref(c, BERTHIER__V1__REQUEST__BODY_PENDING, gid, seat);
    uint64_t s = (r && r->code == 0 && r->decision) ? r->decision->seq : UINT64_MAX;
    if (r) berthier__v1__reply__free_unpacked(r, NULL);
    return s;
}

/* ORDER records of a game's log, counted by berthier-replay export (-1: no tool). */
static __attribute__((unused)) int th_count_orders(const td_daemon *d, const char *gid) {
    const char *bindir = getenv("BERTHIER_BIN");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s/berthier-replay' export '%s/games/%s.log' | grep -c '\"kind\":\"order\"'",
             bindir ? bindir : "build/bin", d->dir, gid);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    int n = -1;
    if (fscanf(p, "%d", &n) != 1) n = -1;
    pclose(p);
    return n;
}

#endif
