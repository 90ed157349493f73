/*
 * berthier-replay - verify, show and export Berthier game logs.
 *
 *   berthier-replay verify LOG [LOG...] [-j N] [--paranoid] [--pk HEX] [--trust FILE] [--receipts FILE]
 *                          [--heads FILE] [--seat-key SEAT:KEY[:HEADER_HASH]]...
 *   berthier-replay show LOG [--at SEQ] [--seat N]
 *   berthier-replay export LOG
 *   berthier-replay render LOG [--at SEQ] [--seat N [--seat-secret FILE] | --spectator | --all] [-o FILE.svg]
 *   berthier-replay html LOG [--seat N [--seat-secret FILE] | --spectator | --all] [-o FILE.html]
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "replay.h"

typedef struct args {
    const char *log;
    const char **logs; /* verify: every LOG named, in order */
    int nlogs;
    uint8_t pk[32];
    int have_pk;
    uint64_t at;
    int seat;
    replay_evidence ev;  /* --trust, --receipts, --heads (each may be given several times) */
    replay_seat_pin pins[8];   /* verify: the seats' own records of their joins */
    size_t npins;
    int spectator;             /* render, html: the spectators' view */
    int all;                   /* render, html: the full view of an unfinished game */
    const char *seat_secret;   /* render, html: the seat's key file */
    const char *output;        /* render, html: -o FILE (NULL: stdout) */
    unsigned jobs;             /* verify: -j N, logs checked at once (default 1) */
    int jobs_given;            /* -j N was given */
    int paranoid;              /* verify: every checkpoint signature on its own */
} args;

/* ---- options ---------------------------------------------------------------- */

typedef int (*opt_fn)(args *a, const char *value);

typedef struct option {
    const char *name;
    const char *arg;           /* NULL: a flag without a value */
    const char *help;
    opt_fn parse;
} option;

static int s_opt_pk(args *a, const char *v) {
    size_t n = 0;
    if (strlen(v) != 64 || sodium_hex2bin(a->pk, sizeof a->pk, v, 64, NULL, &n, NULL) != 0 || n != 32) {
        fprintf(stderr, "berthier-replay: --pk wants 64 hex characters (an Ed25519 public key)\n");
        return -1;
    }
    a->have_pk = 1;
    return 0;
}

/* --trust, --receipts, --heads: a file that cannot be read or parsed is a usage error. */
static int s_opt_file(args *a, const char *v, int (*load)(replay_evidence *, const char *, brt_buf *)) {
    brt_buf err;
    buf_init(&err);
    int rc = load(&a->ev, v, &err);
    if (rc != 0) fprintf(stderr, "berthier-replay: %.*s", (int)err.len, (const char *)err.data);
    buf_free(&err);
    return rc;
}
static int s_opt_trust(args *a, const char *v) { return s_opt_file(a, v, replay_trust_load); }
static int s_opt_receipts(args *a, const char *v) { return s_opt_file(a, v, replay_receipts_load); }
static int s_opt_heads(args *a, const char *v) { return s_opt_file(a, v, replay_heads_load); }

static int s_parse_u64(const char *v, uint64_t *out) {
    if (!*v || *v == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end) return -1;
    *out = x;
    return 0;
}

static int s_opt_at(args *a, const char *v) {
    if (s_parse_u64(v, &a->at) != 0) {
        fprintf(stderr, "berthier-replay: --at wants a sequence number (0, 1, 2, ...)\n");
        return -1;
    }
    return 0;
}

static int s_opt_seat(args *a, const char *v) {
    uint64_t s;
    if (s_parse_u64(v, &s) != 0 || s > 7) {
        fprintf(stderr, "berthier-replay: --seat wants a seat number 0..7\n");
        return -1;
    }
    a->seat = (int)s;
    return 0;
}

/* SEAT:KEY[:HEADER_HASH], as `berthierctl header` prints them (your-sign-key, header-hash). */
static int s_opt_seat_key(args *a, const char *v) {
    char *end;
    errno = 0;
    unsigned long seat = strtoul(v, &end, 10);
    replay_seat_pin *p = &a->pins[a->npins];
    size_t n = 0;
    const char *hh = end && *end == ':' ? strchr(end + 1, ':') : NULL;
    size_t klen = end && *end == ':' ? (hh ? (size_t)(hh - end - 1) : strlen(end + 1)) : 0;
    if (a->npins >= 8 || errno || end == v || *end != ':' || seat > 7 || klen != 64 ||
        sodium_hex2bin(p->sign_pk, 32, end + 1, 64, NULL, &n, NULL) != 0 || n != 32 ||
        (hh && (strlen(hh + 1) != 64 || sodium_hex2bin(p->header_hash, 32, hh + 1, 64, NULL, &n, NULL) != 0 ||
                n != 32))) {
        fprintf(stderr, "berthier-replay: --seat-key wants SEAT:KEY or SEAT:KEY:HEADER_HASH (64 hex characters "
                        "each), at most 8 times\n");
        return -1;
    }
    p->seat = (unsigned)seat;
    p->have_header_hash = hh != NULL;
    a->npins++;
    return 0;
}

static int s_opt_spectator(args *a, const char *v) {
    (void)v;
    a->spectator = 1;
    return 0;
}
static int s_opt_all(args *a, const char *v) {
    (void)v;
    a->all = 1;
    return 0;
}
static int s_opt_seat_secret(args *a, const char *v) {
    a->seat_secret = v;
    return 0;
}
static int s_opt_output(args *a, const char *v) {
    a->output = v;
    return 0;
}
static int s_opt_jobs(args *a, const char *v) {
    uint64_t n;
    if (s_parse_u64(v, &n) != 0 || n < 1 || n > 256) {
        fprintf(stderr, "berthier-replay: --jobs wants a number of threads, 1..256\n");
        return -1;
    }
    a->jobs = (unsigned)n;
    a->jobs_given = 1;
    return 0;
}
static int s_opt_paranoid(args *a, const char *v) {
    (void)v;
    a->paranoid = 1;
    return 0;
}

static const option s_opt_table[] = {
    {"--pk", "HEX", "trust only this Ed25519 public key (64 hex chars); a header naming another key fails",
     s_opt_pk},
    {"--trust", "FILE", "trust the signing keys listed in FILE (one 64-hex key a line, then a comment; sign.pub is one)",
     s_opt_trust},
    {"--receipts", "FILE", "check the receipts in FILE (one `<Receipt hex> [<Request hex>]` a line) against the logs",
     s_opt_receipts},
    {"--heads", "FILE", "check that each log extends the witnessed heads in FILE (`<game> <record> <head> <sig>` a line)",
     s_opt_heads},
    {"--seat-key", "SEAT:KEY[:HASH]",
     "a seat's own record of its join: the log's JOIN of SEAT must bind signing key KEY (and its header hash HASH)",
     s_opt_seat_key},
    {"--at", "SEQ", "show, render: the state after the first input that brings the game to seq SEQ or beyond (default: the end)", s_opt_at},
    {"--seat", "N", "the state as seat N may see it (default: everything)", s_opt_seat},
    {"--spectator", NULL, "render, html: what the spectators may see (always allowed)", s_opt_spectator},
    {"--seat-secret", "FILE",
     "render, html: seat N's key file (berthierctl keygen); needed for --seat N before the game ends", s_opt_seat_secret},
    {"--all", NULL, "render, html: everything, also before the game ends (the operator's forensic view)", s_opt_all},
    {"--output", "FILE", "render, html: write to FILE (also -o FILE; default: standard output)", s_opt_output},
    {"--jobs", "N",
     "verify: check N logs at once on N threads (also -j N; default 1); reports in the order given. One log at a "
     "time, its seat signatures are checked on N threads (default: one per cpu) beside the re-execution",
     s_opt_jobs},
    {"--paranoid", NULL,
     "verify: check every checkpoint signature on its own, not only the last one before each end or cut",
     s_opt_paranoid},
};

static const option *s_find_opt(const char *name) {
    for (size_t i = 0; i < sizeof s_opt_table / sizeof s_opt_table[0]; i++)
        if (strcmp(s_opt_table[i].name, name) == 0) return &s_opt_table[i];
    return NULL;
}

/* ---- commands ------------------------------------------------------------------ */

static int s_flush(brt_buf *b, FILE *f) {
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len) return -1;
    return fflush(f);
}

/* The exit status of several verifications: a bad log outranks one that cannot be read,
 * which outranks an unfinished one. */
static int s_worse(int a, int b) {
    static const int rank[] = {[REPLAY_OK] = 0, [REPLAY_INCOMPLETE] = 1, [REPLAY_CANNOT] = 2, [REPLAY_BAD] = 3};
    int ra = a >= 0 && a <= REPLAY_CANNOT ? rank[a] : 3, rb = b >= 0 && b <= REPLAY_CANNOT ? rank[b] : 3;
    return rb > ra ? b : a;
}

/* verify -j N: the workers take the next log not yet taken; each report is kept
 * until every earlier one has been printed. */
typedef struct vjob {
    const args *a;
    brt_buf *reports;
    int *rcs;
    int next;                  /* the next log to take */
    pthread_mutex_t lock;
} vjob;

/* sig_threads: replay_opts.sig_threads (-1 when the logs themselves are spread
 * over the threads). */
static int s_verify_one(const args *a, int i, int sig_threads, brt_buf *report) {
    replay_opts o = {a->have_pk ? a->pk : NULL, (replay_evidence *)&a->ev, a->pins, a->npins, a->paranoid,
                     sig_threads};
    return replay_verify_with(a->logs[i], NULL, 0, &o, report);
}

static void *s_verify_worker(void *arg) {
    vjob *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int i = j->next < j->a->nlogs ? j->next++ : -1;
        pthread_mutex_unlock(&j->lock);
        if (i < 0) return NULL;
        j->rcs[i] = s_verify_one(j->a, i, -1, &j->reports[i]);
    }
}

static int s_print_report(const args *a, int i, brt_buf *report, int rc) {
    if (a->nlogs > 1) { /* name each log: "LOG: " before its report's first line */
        printf("%s: ", a->logs[i]);
    }
    if (s_flush(report, stdout) != 0 && rc == REPLAY_OK) rc = REPLAY_CANNOT;
    return rc;
}

static int s_cmd_verify(const args *a) {
    int worst = REPLAY_OK;
    /* Receipts and heads are marked as used by the log that holds them: one thread then. */
    unsigned jobs = a->ev.nreceipts || a->ev.nheads ? 1 : a->jobs;
    if (jobs > (unsigned)a->nlogs) jobs = (unsigned)a->nlogs;
    if (jobs > 1) {
        vjob j = {a, calloc((size_t)a->nlogs, sizeof(brt_buf)), calloc((size_t)a->nlogs, sizeof(int)), 0,
                  PTHREAD_MUTEX_INITIALIZER};
        pthread_t th[256];
        unsigned started = 0;
        /* The first log on this thread: whatever a ruleset builds once per process
         * (its scenario tables) is built before any worker starts. */
        if (j.reports && j.rcs) j.rcs[j.next++] = s_verify_one(a, 0, -1, &j.reports[0]);
        if (j.reports && j.rcs)
            while (started < jobs && pthread_create(&th[started], NULL, s_verify_worker, &j) == 0) started++;
        for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
        if (j.reports && j.rcs && !started) s_verify_worker(&j); /* no thread: the rest in this one */
        if (j.reports && j.rcs) {
            for (int i = 0; i < a->nlogs; i++) {
                worst = s_worse(worst, s_print_report(a, i, &j.reports[i], j.rcs[i]));
                buf_free(&j.reports[i]);
            }
        }
        int done = j.reports && j.rcs;
        free(j.reports);
        free(j.rcs);
        jobs = done ? 0 : 1; /* out of memory: one at a time */
    }
    if (jobs == 1) {
        brt_buf report;
        buf_init(&report);
        for (int i = 0; i < a->nlogs; i++) {
            buf_reset(&report);
            /* one log at a time: its seat signatures on -j N threads (default: one per cpu) */
            int rc = s_verify_one(a, i, a->jobs_given ? (int)a->jobs : 0, &report);
            worst = s_worse(worst, s_print_report(a, i, &report, rc));
        }
        buf_free(&report);
    }
    /* Evidence about no game given cannot be checked: say so. */
    for (size_t i = 0; i < a->ev.nreceipts; i++)
        if (!a->ev.receipts[i].used)
            printf("note: receipt %zu (%s) names game %s, and no LOG given holds it\n", i + 1,
                   a->ev.receipts[i].origin, a->ev.receipts[i].r->game_id ? a->ev.receipts[i].r->game_id : "?");
    for (size_t i = 0; i < a->ev.nheads; i++)
        if (!a->ev.heads[i].used)
            printf("note: head %zu (%s) names game %s, and no LOG given holds it\n", i + 1, a->ev.heads[i].origin,
                   a->ev.heads[i].game_id);
    return worst;
}

static int s_cmd_show(const args *a) {
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    int rc = replay_show(a->log, a->at, a->seat, &out, &err) == 0 ? 0 : REPLAY_BAD;
    s_flush(&out, stdout);
    s_flush(&err, stderr);
    buf_free(&out);
    buf_free(&err);
    return rc;
}

static int s_cmd_export(const args *a) {
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    int rc = replay_export(a->log, &out, &err) == 0 ? 0 : REPLAY_BAD;
    if (s_flush(&out, stdout) != 0) rc = REPLAY_CANNOT;
    s_flush(&err, stderr);
    buf_free(&out);
    buf_free(&err);
    return rc;
}

/* render and html: the viewpoint the options ask for, and the output written only on success. */
static int s_view_opts(const args *a, replay_view_opts *o) {
    if (a->spectator && a->seat >= 0) {
        fprintf(stderr, "berthier-replay: give --seat N or --spectator, not both\n");
        return -1;
    }
    if (a->seat_secret && a->seat < 0) {
        fprintf(stderr, "berthier-replay: --seat-secret goes with --seat N\n");
        return -1;
    }
    if (a->all && (a->seat >= 0 || a->spectator)) {
        fprintf(stderr, "berthier-replay: --all is the full view; give it alone, not with --seat N or --spectator\n");
        return -1;
    }
    o->viewpoint = a->spectator ? -2 : a->seat >= 0 ? a->seat : -1; /* BRT_VIEW_PUBLIC, a seat, BRT_VIEW_ALL */
    o->all = a->all;
    o->seat_secret = a->seat_secret;
    return 0;
}

static int s_write_output(const args *a, const brt_buf *out) {
    FILE *f = a->output ? fopen(a->output, "w") : stdout;
    if (!f) {
        fprintf(stderr, "berthier-replay: cannot write %s\n", a->output);
        return REPLAY_CANNOT;
    }
    int rc = s_flush((brt_buf *)out, f) == 0 ? 0 : REPLAY_CANNOT;
    if (a->output && fclose(f) != 0) rc = REPLAY_CANNOT;
    if (rc) fprintf(stderr, "berthier-replay: cannot write %s\n", a->output ? a->output : "the output");
    return rc;
}

static int s_cmd_picture(const args *a, int html) {
    replay_view_opts o;
    if (s_view_opts(a, &o) != 0) return REPLAY_USAGE;
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    int rc = html ? replay_html(a->log, &o, &out, &err) : replay_render(a->log, a->at, &o, &out, &err);
    if (rc == 0) rc = s_write_output(a, &out);
    else if (err.len) fprintf(stderr, "berthier-replay: %.*s", (int)err.len, (const char *)err.data);
    buf_free(&out);
    buf_free(&err);
    return rc;
}
static int s_cmd_render(const args *a) { return s_cmd_picture(a, 0); }
static int s_cmd_html(const args *a) { return s_cmd_picture(a, 1); }

typedef struct command {
    const char *name;
    const char *options;     /* space-separated option names it accepts */
    const char *summary;
    int (*run)(const args *a);
} command;

static const command s_cmd_table[] = {
    {"verify", "--jobs --paranoid --pk --trust --receipts --heads --seat-key",
     "(several LOGs may be named: each is checked in turn, or N at once with -j N, its report prefixed with\n"
     "        its name and printed in the order given, and the exit status is the worst: 1 before 3 before 2)\n"
     "        check the chain, the checkpoints (the signature of the last one before the end or the first bad\n"
     "        record covers the earlier ones through the chain; --paranoid checks each one), the seed reveal and\n"
     "        every roll, and re-execute every input\n"
     "        with the pinned ruleset comparing each outcome byte for byte. Exit 0: a complete, finished game\n"
     "        and every check passed; 1: tampered or corrupt (the first bad record is named); 2: consistent\n"
     "        so far but not finished (a live game); 3: the log could not be read. The signer's key is printed;\n"
     "        pinned with --pk or --trust a log signed by another key is 1, unpinned the result line says\n"
     "        \"signer not pinned\" (the status is unchanged). A receipt or witnessed head that a log contradicts\n"
     "        (truncated, forked, rewritten, re-signed) is 1, naming the receipt or head. Every seat signature is\n"
     "        checked; --seat-key SEAT:KEY[:HASH] checks the JOIN of SEAT against the seat's own record of its join",
     s_cmd_verify},
    {"show", "--at --seat", "print the state in text at any point of the game", s_cmd_show},
    {"export", "",
     "write the log as JSON lines: header, inputs with orders in the text syntax, events, dice with their\n"
     "        rule references and who may see them, state hashes, result, reveal and checkpoints, and after each\n"
     "        input the state as every party may see it (lines of kind \"view\")",
     s_cmd_export},
    {"render", "--at --seat --seat-secret --spectator --all --output",
     "the ruleset's SVG picture of the state at SEQ (default: the end) with the last order; --seat N: as seat N\n"
     "        sees it, --spectator: as the spectators do, neither: everything. Before the game ends --seat N\n"
     "        needs --seat-secret (the seat's key file) and everything needs --all (exit 64 otherwise)",
     s_cmd_render},
    {"html", "--seat --seat-secret --spectator --all --output",
     "one self-contained HTML page stepping through the game (board, order, events, dice, the next\n"
     "        decision, the result) as the viewpoint saw it; the same viewpoints and gating as render",
     s_cmd_html},
};

static void s_usage(FILE *f) {
    fprintf(f, "usage: berthier-replay COMMAND LOG [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof s_cmd_table / sizeof s_cmd_table[0]; i++) {
        const command *c = &s_cmd_table[i];
        fprintf(f, "  %s LOG%s", c->name, c->run == s_cmd_verify ? " [LOG...]" : "");
        char opts[96];
        snprintf(opts, sizeof opts, "%s", c->options);
        for (char *save = NULL, *o = strtok_r(opts, " ", &save); o; o = strtok_r(NULL, " ", &save)) {
            const option *op = s_find_opt(o);
            if (op && op->arg) fprintf(f, " [%s %s]", op->name, op->arg);
            else if (op) fprintf(f, " [%s]", op->name);
        }
        fprintf(f, "\n        %s\n", c->summary);
    }
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < sizeof s_opt_table / sizeof s_opt_table[0]; i++) {
        char both[40];
        snprintf(both, sizeof both, "%s %s", s_opt_table[i].name, s_opt_table[i].arg ? s_opt_table[i].arg : "");
        fprintf(f, "  %-20s  %s\n", both, s_opt_table[i].help);
    }
    fprintf(f, "  %-20s  this text\n", "--help, -h");
    fprintf(f, "\nexit status: 0 ok, 1 bad log, 2 incomplete (verify), 3 cannot read, "
               "64 usage or a view render/html may not show\nformat of the log: docs/log-format.md\n");
}

static int s_accepts(const command *c, const char *opt) {
    size_t n = strlen(opt);
    for (const char *p = c->options; (p = strstr(p, opt)) != NULL; p += n)
        if ((p == c->options || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (sodium_init() < 0) {
        fprintf(stderr, "berthier-replay: libsodium failed to initialise\n");
        return REPLAY_CANNOT;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            s_usage(stdout);
            return 0;
        }
    if (argc < 2) {
        s_usage(stderr);
        return REPLAY_USAGE;
    }
    const command *cmd = NULL;
    for (size_t i = 0; i < sizeof s_cmd_table / sizeof s_cmd_table[0]; i++)
        if (strcmp(s_cmd_table[i].name, argv[1]) == 0) cmd = &s_cmd_table[i];
    if (!cmd) {
        fprintf(stderr, "berthier-replay: unknown command \"%s\" (verify, show, export, render, html; --help)\n",
                argv[1]);
        return REPLAY_USAGE;
    }
    args a = {.at = UINT64_MAX, .seat = -1, .jobs = 1};
    static const char *logs[4096];
    a.logs = logs;
    for (int i = 2; i < argc; i++) {
        const char *arg = strcmp(argv[i], "-o") == 0 ? "--output" : strcmp(argv[i], "-j") == 0 ? "--jobs" : argv[i];
        if (strncmp(arg, "--", 2) == 0) {
            char name[32];
            const char *eq = strchr(arg, '=');
            size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
            snprintf(name, sizeof name, "%.*s", (int)n, arg);
            const option *op = s_find_opt(name);
            if (!op || !s_accepts(cmd, name)) {
                fprintf(stderr, "berthier-replay: %s does not take %s (--help)\n", cmd->name, name);
                return REPLAY_USAGE;
            }
            if (!op->arg) {
                if (eq) {
                    fprintf(stderr, "berthier-replay: %s takes no value\n", name);
                    return REPLAY_USAGE;
                }
                op->parse(&a, NULL);
                continue;
            }
            const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                fprintf(stderr, "berthier-replay: %s needs %s\n", name, op->arg);
                return REPLAY_USAGE;
            }
            if (op->parse(&a, v) != 0) return REPLAY_USAGE;
        } else if (!a.log) {
            a.log = arg;
            a.logs[a.nlogs++] = arg;
        } else if (cmd->run == s_cmd_verify && a.nlogs < (int)(sizeof logs / sizeof logs[0])) {
            a.logs[a.nlogs++] = arg;
        } else {
            fprintf(stderr, "berthier-replay: %s takes %s LOG (extra \"%s\")\n", cmd->name,
                    cmd->run == s_cmd_verify ? "at most 4096" : "one", arg);
            return REPLAY_USAGE;
        }
    }
    if (!a.log) {
        fprintf(stderr, "berthier-replay: %s needs a LOG file (--help)\n", cmd->name);
        return REPLAY_USAGE;
    }
    int rc = cmd->run(&a);
    replay_evidence_free(&a.ev);
    return rc;
}
