/*
 * berthier-match - bot-vs-bot tournaments on a running berthierd.
 *
 *   berthier-match --connect ENDPOINT --ruleset R --scenario S --bots random,greedy
 *                  [--schedule round-robin|gauntlet|swiss] [--rounds N | --games N]
 *                  [--parallel N] [--results FILE] [--seed S] [--data-dir DIR]
 *                  [--decision-ms MS] [--bank-ms MS] [--no-forfeit] ...
 *
 * The schedule (schedule.c) says which entrant plays which seat of each game:
 * a round robin seats every group of entrants in every order once a round.
 * For every game the runner generates a keypair per seat, creates the game as
 * admin with those keys, and plays every seat in a thread of its own (bot.c);
 * --parallel N games run at once, each with an admin connection of its own.
 * exec:PROGRAM bots are child programs speaking the line protocol of
 * docs/bots.md; their stderr goes to a file per entrant (--bot-logs).
 * The clocks are the daemon's (CreateGame.clock), on by default (30 s a
 * decision, forfeit): the runner never decides a timeout, it only says why a
 * game ended (timeout, crash, illegal orders, resignation).
 *
 * Each client retries unanswered requests with the same request id on a fresh
 * connection, so a daemon restart mid-game costs a pause, never a duplicate order.
 *
 * Output: one line per game; a results file (CSV or JSON lines); a table of
 * Bradley-Terry ratings (bt.c) with 95% intervals, a crosstable and results
 * per seat. Exit: 0 every game ended (and verified); 1 some game did not;
 * 2 usage; 3 no daemon.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bot.h"
#include "bt.h"
#include "schedule.h"

#define S_MAX_BOTS BT_MAX
#define S_MAX_SEATS SCHED_MAX_SEATS
#define S_MAX_OPTIONS 32

typedef struct s_bot_stats {
    char label[64];
    const char *spec;
    char spec_buf[2 * PATH_MAX + 64]; /* exec specs with their stderr redirected */
    unsigned games, wins, draws, losses, unfinished, forfeits;
    unsigned side_w[S_MAX_SEATS], side_d[S_MAX_SEATS], side_l[S_MAX_SEATS];
    double points;
} s_bot_stats;

typedef struct s_seat_run {
    bot_params p;
    bot_outcome out;
    brt_client *client;
    pthread_t thread;
    atomic_int done;
    int rc;
    int bot;
    char label[160];
} s_seat_run;

typedef struct s_match {
    brt_connect_opts conn;
    const char *ruleset, *scenario;
    const char *options[S_MAX_OPTIONS];
    size_t n_options;
    unsigned games, seats, rounds, parallel;
    sched_kind schedule;
    s_bot_stats bots[S_MAX_BOTS];
    unsigned n_bots;
    uint64_t seed;
    int duplicate;            /* --duplicate: the seat orders of one group share a dice-seed */
    uint8_t dup_key[32];      /* draws each group's seed (docs/dice.md "Fixed dice") */
    uint32_t decision_ms, bank_ms;
    int forfeit, verify, verbose, quiet, max_illegal;
    int old_protocol;           /* --protocol old: pending + legal + submit (bot_params) */
    int patience_ms;
    unsigned game_timeout_s;  /* 0 = none */
    const char *logs_dir;
    const char *receipts_dir; /* NULL: $BERTHIER_RECEIPTS_DIR, else ./receipts */
    char data_dir_abs[PATH_MAX];
    char logs_abs[PATH_MAX];
    char receipts_abs[PATH_MAX];
    char bot_logs[PATH_MAX];
    char replay_bin[PATH_MAX];
    /* results */
    const char *results_path;
    int results_json;
    FILE *results;
    /* shared between the game workers, under lock */
    pthread_mutex_t lock;
    unsigned next_game, finished, failed_verify, create_failed;
    double pair_games[S_MAX_BOTS * S_MAX_BOTS], pair_points[S_MAX_BOTS * S_MAX_BOTS];
    unsigned pair_w[S_MAX_BOTS * S_MAX_BOTS], pair_d[S_MAX_BOTS * S_MAX_BOTS];
    /* every game played, scored or not (Swiss pairing) */
    double met[S_MAX_BOTS * S_MAX_BOTS];
    unsigned seat_count[S_MAX_BOTS][S_MAX_SEATS];
    /* Swiss: the round being played, paired when the one before has ended */
    pthread_cond_t round_done;
    sched_game round_games[S_MAX_BOTS];
    size_t round_len, round_pos;
    unsigned round_no, in_flight, byes[S_MAX_BOTS];
} s_match;

static atomic_int s_interrupted;
static void s_on_signal(int sig) {
    (void)sig;
    atomic_store(&s_interrupted, 1);
}

static uint64_t s_mix(uint64_t x) {
    uint64_t s = x;
    return bot_rng_next(&s);
}

static void s_usage(FILE *f) {
    char pols[128];
    bot_policy_list(pols, sizeof pols);
    fprintf(f,
        "usage: berthier-match [--data-dir DIR | --connect ENDPOINT --server-key KEY --key ADMIN.key]\n"
        "                      [--ruleset R] [--scenario S] [--bots B1,B2,...]\n"
        "                      [--schedule round-robin|gauntlet|swiss] [--rounds N | --games N]\n"
        "                      [--parallel N] [--results FILE] [--results-format csv|jsonl]\n"
        "                      [--bot-logs DIR] [--option NAME[=VALUE]]... [--seats N] [--seed S]\n"
        "                      [--decision-ms MS] [--bank-ms MS] [--no-forfeit]\n"
        "                      [--verify] [--logs-dir DIR] [--verbose] [--quiet] [--duplicate]\n"
        "                      [--protocol new|old]\n"
        "\n"
        "Plays a tournament of ruleset R (default duel) and scenario S (default standard).\n"
        "  --events EP     the daemon's PUB endpoint (default beside an ipc endpoint)\n"
        "  --bots          comma-separated entrants: %s (default random,random);\n"
        "                  the same bot twice is numbered random#1, random#2\n"
        "  --schedule K    round-robin (default): each round seats every group of entrants in\n"
        "                  every seat order once (2 seats: every pair plays both sides);\n"
        "                  gauntlet: the first entrant against each other one, on every seat;\n"
        "                  swiss (2 seats): each round pairs entrants of similar score who have\n"
        "                  met least, seats balanced, one bye a round for an odd field\n"
        "  --rounds N      rounds of the schedule (default 1)\n"
        "  --games N       play the first N games of the repeating schedule instead\n"
        "  --parallel N    games at once (default 1, at most 64)\n"
        "  --seats N       seats per game (default 2)\n"
        "  --duplicate     duplicate matches for research: the games of one round that seat the\n"
        "                  same entrants in other orders (2 seats: the side-swapped pair) share\n"
        "                  fixed dice (option dice-seed=HEX, docs/dice.md \"Fixed dice\"); round\n"
        "                  robin and gauntlet only\n"
        "  --seed S        seeds every bot's generator (default: from the clock); the schedule\n"
        "                  itself is fixed by the entrants, seats and rounds (Swiss: and results)\n"
        "  --results FILE  one record per game: CSV, or JSON lines if FILE ends in .json or\n"
        "                  .jsonl (or --results-format); the log path in it is absolute\n"
        "  --bot-logs DIR  each exec entrant's stderr in DIR/LABEL.stderr (default: FILE.bots/\n"
        "                  next to --results; without either, the runner's stderr)\n"
        "  --decision-ms MS  the daemon's clock per decision (default 30000; 0: no clock)\n"
        "  --bank-ms MS    a time bank per seat (default 0)\n"
        "  --no-forfeit    running out of time applies the rules' default decision instead of\n"
        "                  losing the game (--forfeit, the default, loses it)\n"
        "  --verify        run berthier-replay verify ($BERTHIER_REPLAY, else the one next to this\n"
        "                  program, else on PATH) on each finished game's log; a remote daemon's\n"
        "                  logs are downloaded first (into FILE.logs/ next to --results, else\n"
        "                  ./berthier-logs/, unless --logs-dir)\n"
        "  --logs-dir DIR  download each game's log into DIR (for a remote daemon)\n"
        "  --receipts-dir DIR  keep each seat's receipts in DIR/ID.seatN.receipts (default\n"
        "                  $BERTHIER_RECEIPTS_DIR, else ./receipts); --verify checks them\n"
        "  --patience-ms MS  how long a bot waits for a daemon that does not answer (default 300000)\n"
        "  --max-illegal N   rejected orders in a row before a bot resigns (default 3)\n"
        "  --game-timeout S  stop a game that has not ended after S seconds (default: never) and\n"
        "                  abort it on the daemon, the seat that stalled forfeiting\n"
        "  --protocol P    new (default): one round trip per order, the reply to an order bringing\n"
        "                  the next decision and its legal orders (docs/protocol.md P4.3); old:\n"
        "                  pending, legal and submit, one request each, as older clients do\n"
        "Each game's line counts the requests its bots sent and their number per order.\n"
        "Ratings: a maximum-likelihood Bradley-Terry fit on the Elo scale, every entrant with\n"
        "one virtual draw against a reference at 0, 95%% intervals from the observed information.\n"
        "A game that ended by timeout, crash or illegal orders is scored against that seat; an\n"
        "unfinished game against the seat whose bot stopped, if one did, else not at all; the\n"
        "runner aborts it on the daemon (results: ended \"aborted\").\n"
        "Exit: 0 every game ended (and verified); 1 some game did not; 2 usage; 3 no daemon.\n",
        pols);
}

static int s_parse_bots(s_match *m, char *list) {
    m->n_bots = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (m->n_bots == S_MAX_BOTS) {
            fprintf(stderr, "berthier-match: at most %d entrants\n", S_MAX_BOTS);
            return -1;
        }
        const char *arg;
        if (!bot_policy_find(tok, &arg)) {
            fprintf(stderr, "berthier-match: unknown bot %s\n", tok);
            return -1;
        }
        s_bot_stats *b = &m->bots[m->n_bots];
        b->spec = tok;
        if (arg) {
            const char *base = strrchr(arg, '/');
            base = base ? base + 1 : arg;
            snprintf(b->label, sizeof b->label, "%.50s", base);
        } else
            snprintf(b->label, sizeof b->label, "%s", tok);
        m->n_bots++;
    }
    /* The same bot twice: number them #1, #2, ... in the order given. */
    for (unsigned i = 0; i < m->n_bots; i++) {
        unsigned same = 0, nth = 0;
        for (unsigned k = 0; k < m->n_bots; k++)
            if (strcmp(m->bots[k].spec, m->bots[i].spec) == 0) {
                same++;
                if (k <= i) nth++;
            }
        if (same > 1) {
            size_t n = strlen(m->bots[i].label);
            snprintf(m->bots[i].label + n, sizeof m->bots[i].label - n, "#%u", nth);
        }
    }
    return m->n_bots ? 0 : -1;
}

/* exec entrants: "PROGRAM 2>>'DIR/LABEL.stderr'" (the program runs under /bin/sh -c). */
static int s_redirect_bot_logs(s_match *m) {
    if (!m->bot_logs[0]) return 0;
    int any = 0;
    for (unsigned i = 0; i < m->n_bots; i++) {
        const char *arg;
        bot_policy_find(m->bots[i].spec, &arg);
        any |= arg != NULL;
    }
    if (!any) return 0; /* the built-in bots run in this process: nothing to redirect */
    if (mkdir(m->bot_logs, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "berthier-match: --bot-logs %s: %s\n", m->bot_logs, strerror(errno));
        return -1;
    }
    for (unsigned i = 0; i < m->n_bots; i++) {
        s_bot_stats *b = &m->bots[i];
        const char *arg;
        bot_policy_find(b->spec, &arg);
        if (!arg) continue;
        char file[PATH_MAX];
        int n = snprintf(file, sizeof file, "%s/%s.stderr", m->bot_logs, b->label);
        if (n < 0 || (size_t)n >= sizeof file || strchr(file, '\'')) {
            fprintf(stderr, "berthier-match: cannot name a stderr file for %s\n", b->label);
            return -1;
        }
        n = snprintf(b->spec_buf, sizeof b->spec_buf, "exec:%s 2>>'%s'", arg, file);
        if (n < 0 || (size_t)n >= sizeof b->spec_buf) return -1;
        b->spec = b->spec_buf;
    }
    return 0;
}

static void *s_seat_thread(void *arg) {
    s_seat_run *r = arg;
    r->rc = bot_play(&r->p, &r->out);
    atomic_store(&r->done, 1);
    return NULL;
}

/* An absolute path for p (which may not exist yet): realpath, else cwd + p. */
static void s_absolute(const char *p, char *out, size_t len) {
    char buf[PATH_MAX];
    if (realpath(p, buf)) {
        snprintf(out, len, "%s", buf);
        return;
    }
    if (p[0] == '/' || !getcwd(buf, sizeof buf)) {
        snprintf(out, len, "%s", p);
        return;
    }
    snprintf(out, len, "%.*s/%s", (int)(len / 2), buf, p);
}

/* The replay tool: $BERTHIER_REPLAY, else berthier-replay next to this program, else on PATH. */
static void s_find_replay(s_match *m) {
    const char *env = getenv("BERTHIER_REPLAY");
    if (env && *env) {
        snprintf(m->replay_bin, sizeof m->replay_bin, "%s", env);
        return;
    }
    char self[PATH_MAX - 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    m->replay_bin[0] = '\0';
    if (n <= 0) return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return;
    *slash = '\0';
    snprintf(m->replay_bin, sizeof m->replay_bin, "%s/berthier-replay", self);
    if (access(m->replay_bin, X_OK) != 0) snprintf(m->replay_bin, sizeof m->replay_bin, "berthier-replay");
}

/* berthier-replay verify LOG [--pk KEY] [--receipts FILE]...: its exit code (0 verified), or -1.
 * pk: the signing key the seats pinned (64 hex, "" if none); receipts: the seats' files.
 * msg: the tool's last line of output (its error when it fails). */
static int s_verify(const s_match *m, const char *log, const char *pk, char receipts[][PATH_MAX], unsigned n,
                    char *msg, size_t msg_len) {
    const char *argv[8 + 2 * S_MAX_SEATS];
    int k = 0;
    msg[0] = '\0';
    argv[k++] = "berthier-replay";
    argv[k++] = "verify";
    argv[k++] = log;
    if (pk[0]) {
        argv[k++] = "--pk";
        argv[k++] = pk;
    }
    for (unsigned i = 0; i < n; i++)
        if (receipts[i][0] && access(receipts[i], R_OK) == 0) {
            argv[k++] = "--receipts";
            argv[k++] = receipts[i];
        }
    argv[k] = NULL;
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(msg, msg_len, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, msg_len, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        execvp(m->replay_bin, (char *const *)argv);
        static const char why[] = "cannot run the replay tool (berthier-replay or $BERTHIER_REPLAY)\n";
        if (write(2, why, sizeof why - 1) < 0) _exit(127);
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    size_t used = 0;
    for (;;) {
        char chunk[1024];
        ssize_t r = read(fds[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        for (ssize_t i = 0; i < r; i++) {
            if (used == sizeof buf - 1) { /* keep the tail */
                memmove(buf, buf + sizeof buf / 2, used - sizeof buf / 2);
                used -= sizeof buf / 2;
            }
            buf[used++] = chunk[i];
        }
    }
    close(fds[0]);
    buf[used] = '\0';
    while (used && (buf[used - 1] == '\n' || buf[used - 1] == '\r')) buf[--used] = '\0';
    const char *last = strrchr(buf, '\n');
    snprintf(msg, msg_len, "%.*s", (int)(msg_len ? msg_len - 1 : 0), last ? last + 1 : buf);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void s_progress(const s_match *m, unsigned g, s_seat_run *runs, unsigned n, int tty) {
    if (!tty || m->quiet || m->parallel > 1) return;
    uint64_t seq = 0;
    unsigned turn = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t s = atomic_load(runs[i].p.progress_seq);
        unsigned t = atomic_load(runs[i].p.progress_turn);
        if (s > seq) seq = s;
        if (t > turn) turn = t;
    }
    fprintf(stderr, "\r\033[K[game %u/%u] turn %u, seq %" PRIu64, g + 1, m->games, turn, seq);
    fflush(stderr);
}

/* CSV field: quoted, quotes doubled. */
static void s_csv(FILE *f, const char *s, int last) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

static void s_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

typedef struct s_record {
    const char *id;
    unsigned round;
    const char *entrants[S_MAX_SEATS];
    const char *score;      /* "1-0", "0.5-0.5", "*" */
    uint32_t winners;
    int ended;
    const char *how;        /* normal, resignation, timeout, crash, illegal, aborted, unfinished */
    int stalled;            /* seat, or -1 */
    const char *reason;
    unsigned turns, orders;
    const char *log;
    const char *verify;     /* ok, failed, incomplete, skipped */
    const char *verify_msg;
    char (*receipts)[PATH_MAX];
} s_record;

static void s_write_record(s_match *m, const s_record *r) {
    FILE *f = m->results;
    if (!f) return;
    if (m->results_json) {
        fprintf(f, "{\"game\":");
        s_json_str(f, r->id);
        fprintf(f, ",\"round\":%u,\"entrants\":[", r->round + 1);
        for (unsigned s = 0; s < m->seats; s++) {
            if (s) fputc(',', f);
            s_json_str(f, r->entrants[s]);
        }
        fprintf(f, "],\"score\":");
        s_json_str(f, r->score);
        fprintf(f, ",\"winners\":[");
        for (unsigned s = 0, k = 0; s < m->seats; s++)
            if (r->ended && (r->winners & (1u << s))) fprintf(f, "%s%u", k++ ? "," : "", s);
        fprintf(f, "],\"ended\":");
        s_json_str(f, r->how);
        if (r->stalled >= 0) fprintf(f, ",\"stalled_seat\":%d", r->stalled);
        else fprintf(f, ",\"stalled_seat\":null");
        fprintf(f, ",\"reason\":");
        s_json_str(f, r->reason);
        fprintf(f, ",\"turns\":%u,\"orders\":%u,\"log\":", r->turns, r->orders);
        s_json_str(f, r->log);
        fprintf(f, ",\"verify\":");
        s_json_str(f, r->verify);
        if (r->verify_msg[0]) {
            fprintf(f, ",\"verify_error\":");
            s_json_str(f, r->verify_msg);
        }
        fprintf(f, ",\"receipts\":[");
        for (unsigned s = 0; s < m->seats; s++) {
            if (s) fputc(',', f);
            s_json_str(f, r->receipts[s]);
        }
        fprintf(f, "]}\n");
    } else {
        char buf[PATH_MAX * S_MAX_SEATS];
        size_t used = 0;
        s_csv(f, r->id, 0);
        fprintf(f, "%u,", r->round + 1);
        buf[0] = '\0';
        for (unsigned s = 0; s < m->seats && used < sizeof buf; s++)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", s ? ";" : "", r->entrants[s]);
        s_csv(f, buf, 0);
        s_csv(f, r->score, 0);
        used = 0;
        buf[0] = '\0';
        for (unsigned s = 0; s < m->seats && used < sizeof buf; s++)
            if (r->ended && (r->winners & (1u << s)))
                used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%u", used ? ";" : "", s);
        s_csv(f, buf, 0);
        s_csv(f, r->how, 0);
        if (r->stalled >= 0) fprintf(f, "%d,", r->stalled);
        else fprintf(f, ",");
        s_csv(f, r->reason, 0);
        fprintf(f, "%u,%u,", r->turns, r->orders);
        s_csv(f, r->log, 0);
        s_csv(f, r->verify, 0);
        s_csv(f, r->verify_msg, 0);
        used = 0;
        buf[0] = '\0';
        for (unsigned s = 0; s < m->seats && used < sizeof buf; s++)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", s ? ";" : "", r->receipts[s]);
        s_csv(f, buf, 1);
    }
    fflush(f);
}

/* Play game g (entrants per seat from sg). Returns 1 if it ended, 0 if not, -1 if it could not
 * be created. */
static int s_play_game(s_match *m, brt_client *admin, unsigned g, const sched_game *sg, int tty) {
    brt_keypair kps[S_MAX_SEATS];
    const char *pubs[S_MAX_SEATS];
    for (unsigned s = 0; s < m->seats; s++) {
        if (brt_keypair_generate(&kps[s]) != 0) return -1;
        pubs[s] = kps[s].public_z85;
    }
    /* --duplicate: one fixed dice seed per round and group of entrants (whatever their seat
     * order), keyed by a secret drawn at start, so the side-swapped games roll alike. */
    const char *opts[S_MAX_OPTIONS];
    size_t nopts = m->n_options;
    memcpy(opts, m->options, nopts * sizeof *opts);
    char dice_opt[10 + 65];
    if (m->duplicate) {
        unsigned group[S_MAX_SEATS];
        memcpy(group, sg->entrant, m->seats * sizeof *group);
        for (unsigned i = 1; i < m->seats; i++)
            for (unsigned j = i; j > 0 && group[j - 1] > group[j]; j--) {
                unsigned t = group[j];
                group[j] = group[j - 1];
                group[j - 1] = t;
            }
        uint8_t msg[4 + 4 * S_MAX_SEATS], seed[32];
        size_t ml = 0;
        for (int b = 0; b < 4; b++) msg[ml++] = (uint8_t)(sg->round >> (8 * b));
        for (unsigned i = 0; i < m->seats; i++)
            for (int b = 0; b < 4; b++) msg[ml++] = (uint8_t)(group[i] >> (8 * b));
        crypto_generichash(seed, sizeof seed, msg, ml, m->dup_key, sizeof m->dup_key);
        memcpy(dice_opt, "dice-seed=", 10);
        sodium_bin2hex(dice_opt + 10, 65, seed, sizeof seed);
        sodium_memzero(seed, sizeof seed);
        opts[nopts++] = dice_opt;
    }
    brt_game_spec spec = {m->ruleset, m->scenario, opts, nopts, pubs, m->seats,
                          m->decision_ms, m->bank_ms, m->forfeit, NULL, 0};
    char id[BRT_GAME_ID_MAX + 1];
    const Berthier__V1__Created *cr = NULL;
    int created = brt_client_create(admin, &spec, id, &cr);
    sodium_memzero(dice_opt, sizeof dice_opt);
    if (created != 0) {
        fprintf(stderr, "berthier-match: game %u: create: %s\n", g + 1, brt_client_error(admin));
        return -1;
    }
    char names[S_MAX_SEATS][32];
    const char *name_ptrs[S_MAX_SEATS];
    for (unsigned s = 0; s < S_MAX_SEATS; s++) {
        names[s][0] = '\0';
        name_ptrs[s] = names[s];
    }
    for (size_t i = 0; i < cr->n_seats; i++)
        if (cr->seats[i]->seat < S_MAX_SEATS && cr->seats[i]->name)
            snprintf(names[cr->seats[i]->seat], sizeof names[0], "%s", cr->seats[i]->name);
    /* The log path, absolute: the daemon's data dir is ours when we started it with
     * --data-dir; a remote daemon's path is its own (fetched below with --logs-dir). */
    char log_path[PATH_MAX] = "";
    if (m->data_dir_abs[0])
        snprintf(log_path, sizeof log_path, "%.*s/games/%s.log", PATH_MAX - 64, m->data_dir_abs, id);
    else if (cr->log_path && *cr->log_path)
        snprintf(log_path, sizeof log_path, "%s", cr->log_path);

    /* The seats pin the signing key the admin connection knows (sign.pub, or the create reply's). */
    uint8_t sign_pk[32];
    int have_pk = brt_client_sign_key(admin, sign_pk) == 0;
    if (!have_pk && cr->server_sign_pk.len == 32) {
        memcpy(sign_pk, cr->server_sign_pk.data, 32);
        have_pk = 1;
    }
    char pk_hex[65] = "";
    if (have_pk) sodium_bin2hex(pk_hex, sizeof pk_hex, sign_pk, 32);
    char receipts[S_MAX_SEATS][PATH_MAX];
    for (unsigned s = 0; s < m->seats; s++)
        snprintf(receipts[s], sizeof receipts[s], "%.*s/%s.seat%u.receipts", PATH_MAX - 80,
                 m->receipts_abs, id, s);

    s_seat_run runs[S_MAX_SEATS];
    atomic_ullong seqs[S_MAX_SEATS];
    atomic_uint turns[S_MAX_SEATS];
    atomic_int stop = 0;
    memset(runs, 0, sizeof runs);
    unsigned started = 0;
    for (unsigned s = 0; s < m->seats; s++) {
        s_seat_run *r = &runs[s];
        r->bot = (int)sg->entrant[s];
        atomic_init(&seqs[s], 0);
        atomic_init(&turns[s], 0);
        atomic_init(&r->done, 0);
        const char *endpoint = brt_client_endpoint(admin);
        r->client = brt_client_new_keypair(endpoint, brt_client_server_key(admin), &kps[s]);
        if (!r->client) break;
        if (have_pk) brt_client_pin_sign_key(r->client, sign_pk);
        r->p.receipts = receipts[s];
        if (brt_client_events_endpoint(admin))
            brt_client_set_events_endpoint(r->client, brt_client_events_endpoint(admin));
        brt_client_set_timeout(r->client, 2000, 10000);
        snprintf(r->label, sizeof r->label, "%s seat %u (%s)", id, s, m->bots[r->bot].label);
        r->p.client = r->client;
        r->p.game_id = id;
        r->p.ruleset = m->ruleset;
        r->p.scenario = m->scenario;
        r->p.seat = s;
        r->p.n_seats = m->seats;
        r->p.policy = m->bots[r->bot].spec;
        r->p.seed = s_mix(m->seed ^ ((uint64_t)g << 16) ^ s);
        for (size_t k = 0; k < m->n_options; k++)
            if (strcmp(m->options[k], "dice=contributory") == 0) r->p.contributory = 1;
        r->p.max_illegal = m->max_illegal;
        r->p.patience_ms = m->patience_ms;
        r->p.verbose = m->verbose;
        r->p.old_protocol = m->old_protocol;
        r->p.label = r->label;
        r->p.stop = &stop;
        r->p.progress_seq = &seqs[s];
        r->p.progress_turn = &turns[s];
        if (pthread_create(&r->thread, NULL, s_seat_thread, r) != 0) {
            brt_client_destroy(&r->client);
            break;
        }
        started++;
    }
    if (started < m->seats) atomic_store(&stop, 1);
    /* Wait; if a seat stops without the game ending, the others cannot finish either. */
    time_t began = time(NULL);
    int overtime = 0;
    for (;;) {
        unsigned done = 0, failed = 0;
        for (unsigned s = 0; s < started; s++)
            if (atomic_load(&runs[s].done)) {
                done++;
                if (runs[s].rc != 0) failed++;
            }
        if (done == started) break;
        if (failed || atomic_load(&s_interrupted)) atomic_store(&stop, 1);
        if (m->game_timeout_s && !overtime && time(NULL) - began > (time_t)m->game_timeout_s) {
            overtime = 1;
            atomic_store(&stop, 1);
        }
        s_progress(m, g, runs, started, tty);
        struct timespec ts = {0, 200 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (tty && !m->quiet && m->parallel <= 1) fprintf(stderr, "\r\033[K");
    int ended = started == m->seats;
    uint32_t winners = 0;
    unsigned orders = 0, turn = 0, requests = 0;
    char why[600] = "";
    int failed_seat = -1;
    const bot_outcome *res = NULL;
    int must_act_seat = -1, must_act_count = 0;
    for (unsigned s = 0; s < started; s++) {
        pthread_join(runs[s].thread, NULL);
        /* stopped by --game-timeout: ask, as each seat, whom the daemon is waiting for
         * (a sealed decision lists every seat; only the seat itself knows it has chosen) */
        const Berthier__V1__Decision *d = NULL;
        if (overtime && brt_client_pending(runs[s].client, id, s, &d) == 0 && d && d->you_must_act) {
            must_act_seat = (int)s;
            must_act_count++;
        }
        brt_client_destroy(&runs[s].client);
        orders += runs[s].out.orders;
        requests += runs[s].out.requests;
        if (runs[s].out.turn > turn) turn = runs[s].out.turn;
        if (runs[s].rc == 0) {
            if (!res) res = &runs[s].out;
        } else {
            ended = 0;
            if (!why[0] && strcmp(runs[s].out.error, "stopped") != 0) {
                snprintf(why, sizeof why, "seat %u (%s): %s", s, m->bots[runs[s].bot].label,
                         runs[s].out.error);
                failed_seat = (int)s;
            }
        }
    }
    if (!res) ended = 0;
    if (ended) winners = res->winners;

    /* How it ended: the rules say only "resigned or forfeited"; the runner knows which
     * seat's bot resigned and why, and a loser that did not resign ran out of time. */
    const char *how = ended ? "normal" : "unfinished";
    int stalled = ended ? -1 : failed_seat;
    char how_why[400] = "";
    if (!ended && stalled < 0 && overtime && must_act_count == 1) stalled = must_act_seat;
    /* A game that did not end would stay `playing` on the daemon for good: the admin
     * aborts it, with a forfeit against the seat that stalled when the runner knows it. */
    int aborted = 0;
    if (!ended) {
        char reason[BRT_ABORT_REASON_MAX + 1];
        if (overtime)
            snprintf(reason, sizeof reason, "berthier-match: no end after %u s (--game-timeout)%s",
                     m->game_timeout_s, stalled >= 0 ? "; the seat that stalled forfeits" : "");
        else
            snprintf(reason, sizeof reason, "berthier-match: the game stopped%s",
                     stalled >= 0 ? "; the seat that stalled forfeits" : "");
        if (brt_client_abort(admin, id, reason, stalled) == 0) {
            aborted = 1;
            how = "aborted";
        } else if (brt_client_code(admin) != BRT_CODE_GAME_OVER) {
            /* (GAME_OVER: it ended on the daemon after all, and says how in its log) */
            fprintf(stderr, "berthier-match: %s: abort: %s\n", id, brt_client_error(admin));
        }
    }
    if (ended) {
        for (unsigned s = 0; s < m->seats && stalled < 0; s++) {
            const bot_outcome *o = &runs[s].out;
            if (!o->resigned) continue;
            stalled = (int)s;
            how = strstr(o->error, "rejected orders") ? "illegal"
                  : strstr(o->error, "policy failed") ? "crash" : "resignation";
            snprintf(how_why, sizeof how_why, "seat %u (%s) %s", s, m->bots[runs[s].bot].label,
                     strcmp(how, "illegal") == 0 ? "resigned after its orders were rejected"
                     : strcmp(how, "crash") == 0 ? "forfeited: its bot program died or failed"
                                                 : "resigned");
        }
        if (stalled < 0 && winners && strstr(res->reason, "forfeit")) {
            for (unsigned s = 0; s < m->seats; s++)
                if (!(winners & (1u << s))) {
                    stalled = (int)s;
                    break;
                }
            if (stalled >= 0) {
                how = "timeout";
                snprintf(how_why, sizeof how_why, "seat %d (%s) forfeited on time (decision clock %u ms)",
                         stalled, m->bots[sg->entrant[stalled]].label, (unsigned)m->decision_ms);
            }
        }
    }
    char result[600];
    if (ended) {
        Berthier__V1__Result r = BERTHIER__V1__RESULT__INIT;
        uint32_t w[32];
        size_t nw = 0;
        for (unsigned i = 0; i < 32; i++)
            if (winners & (1u << i)) w[nw++] = i;
        r.ended = 1;
        r.winners = w;
        r.n_winners = nw;
        r.level = (char *)res->level;
        r.reason = how_why[0] ? how_why : (char *)res->reason;
        bot_result_line_named(&r, name_ptrs, m->seats, result, sizeof result);
    } else
        snprintf(result, sizeof result, "unfinished: %.380s", why[0] ? why : "stopped");
    if (overtime) {
        uint64_t seq = 0;
        unsigned turn2 = 0;
        for (unsigned s = 0; s < started; s++) {
            if (atomic_load(&seqs[s]) > seq) seq = atomic_load(&seqs[s]);
            if (atomic_load(&turns[s]) > turn2) turn2 = atomic_load(&turns[s]);
        }
        int n = snprintf(result, sizeof result, "unfinished: no end after %u s (--game-timeout), at seq %" PRIu64
                 " turn %u", m->game_timeout_s, seq, turn2);
        if (stalled >= 0 && n > 0 && (size_t)n < sizeof result)
            snprintf(result + n, sizeof result - (size_t)n, "; waiting for seat %d (%s)", stalled,
                     m->bots[sg->entrant[stalled]].label);
    }
    if (aborted) {
        size_t n = strlen(result);
        if (n < sizeof result)
            snprintf(result + n, sizeof result - n, "; aborted on the daemon%s",
                     stalled >= 0 ? " (forfeit of the seat that stalled)" : " (no winner)");
    }
    if ((ended || aborted) && m->logs_abs[0]) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%.*s/%s.log", PATH_MAX - 64, m->logs_abs, id);
        if (brt_client_fetch_log_file(admin, id, path) == 0)
            snprintf(log_path, sizeof log_path, "%s", path);
        else
            fprintf(stderr, "berthier-match: %s: fetch log: %s\n", id, brt_client_error(admin));
    }
    const char *verified = "", *vstatus = "skipped";
    char vmsg[512] = "";
    int vfailed = 0;
    if ((ended || aborted) && m->verify) {
        int v = log_path[0] ? s_verify(m, log_path, pk_hex, receipts, m->seats, vmsg, sizeof vmsg) : -1;
        if (!log_path[0]) snprintf(vmsg, sizeof vmsg, "no log path (use --data-dir or --logs-dir)");
        vstatus = v == 0 ? "ok" : v == 2 ? "incomplete" : "failed";
        verified = v == 0 ? " verified" : v == 2 ? " verify:incomplete" : " verify:FAILED";
        vfailed = v != 0;
        if (!vfailed) vmsg[0] = '\0'; /* the tool's OK line: the status says it */
    }

    /* Scores per seat: a game that did not end counts against the seat that stopped, if any. */
    double pts[S_MAX_SEATS] = {0};
    int scored = ended || stalled >= 0;
    if (ended && winners == 0)
        for (unsigned s = 0; s < m->seats; s++) pts[s] = 0.5;
    else if (ended)
        for (unsigned s = 0; s < m->seats; s++) pts[s] = (winners & (1u << s)) ? 1.0 : 0.0;
    else if (stalled >= 0)
        for (unsigned s = 0; s < m->seats; s++) pts[s] = (int)s == stalled ? 0.0 : 1.0;
    char score[64] = "*";
    if (scored) {
        size_t used = 0;
        for (unsigned s = 0; s < m->seats && used < sizeof score; s++)
            used += (size_t)snprintf(score + used, sizeof score - used, "%s%s", s ? "-" : "",
                                     pts[s] == 1.0 ? "1" : pts[s] == 0.5 ? "0.5" : "0");
    }

    char seats_desc[256] = "";
    size_t used = 0;
    for (unsigned s = 0; s < m->seats && used < sizeof seats_desc; s++)
        used += (size_t)snprintf(seats_desc + used, sizeof seats_desc - used, "%s%u=%s",
                                 s ? " " : "", s, m->bots[sg->entrant[s]].label);

    pthread_mutex_lock(&m->lock);
    for (unsigned s = 0; s < m->seats; s++) {
        m->seat_count[sg->entrant[s]][s]++;
        for (unsigned t = 0; t < m->seats; t++)
            if (t != s) m->met[sg->entrant[s] * m->n_bots + sg->entrant[t]] += 1.0;
    }
    for (unsigned s = 0; s < m->seats; s++) {
        s_bot_stats *b = &m->bots[sg->entrant[s]];
        b->games++;
        if (!scored) {
            b->unfinished++;
            continue;
        }
        if (!ended) b->unfinished++;
        if ((int)s == stalled) b->forfeits++;
        b->points += pts[s];
        if (pts[s] == 0.5) {
            b->draws++;
            b->side_d[s]++;
        } else if (pts[s] == 1.0) {
            b->wins++;
            b->side_w[s]++;
        } else {
            b->losses++;
            b->side_l[s]++;
        }
    }
    /* pairwise, for the crosstable and the fit: each pair of seats is one encounter */
    if (scored)
        for (unsigned a = 0; a < m->seats; a++)
            for (unsigned c = 0; c < m->seats; c++) {
                unsigned i = sg->entrant[a], j = sg->entrant[c];
                if (a == c || i == j) continue;
                double p = pts[a] > pts[c] ? 1.0 : pts[a] == pts[c] ? 0.5 : 0.0;
                m->pair_games[i * m->n_bots + j] += 1.0;
                m->pair_points[i * m->n_bots + j] += p;
                if (p == 1.0) m->pair_w[i * m->n_bots + j]++;
                if (p == 0.5) m->pair_d[i * m->n_bots + j]++;
            }
    if (ended && !vfailed) m->finished++;
    if (vfailed) m->failed_verify++;
    char per[32] = "-";
    if (orders) snprintf(per, sizeof per, "%.2f", (double)requests / orders);
    printf("%s  %s  %s  turns %u  orders %u  requests %u (%s per order)  log %s%s", id, seats_desc, result, turn,
           orders, requests, per, log_path[0] ? log_path : "-", verified);
    if (vfailed && vmsg[0]) printf(" (%s)", vmsg);
    printf("\n");
    fflush(stdout);
    s_record rec = {id, sg->round, {0}, score, winners, ended, how, stalled,
                    ended ? (how_why[0] ? how_why : res->reason) : (why[0] ? why : result),
                    turn, orders, log_path, vstatus, vmsg, receipts};
    if (overtime) rec.reason = result;
    for (unsigned s = 0; s < m->seats; s++) rec.entrants[s] = m->bots[sg->entrant[s]].label;
    s_write_record(m, &rec);
    pthread_mutex_unlock(&m->lock);
    for (unsigned s = 0; s < m->seats; s++) memset(&kps[s], 0, sizeof kps[s]);
    return ended ? 1 : 0;
}

static void s_table(s_match *m) {
    unsigned n = m->n_bots;
    bt_rating rt[S_MAX_BOTS];
    int have = bt_fit(n, m->pair_games, m->pair_points, 1.0, rt) == 0;
    unsigned order[S_MAX_BOTS];
    for (unsigned i = 0; i < n; i++) order[i] = i;
    if (have) /* by rating, ties in the order given */
        for (unsigned i = 1; i < n; i++)
            for (unsigned k = i; k > 0 && rt[order[k]].elo > rt[order[k - 1]].elo; k--) {
                unsigned t = order[k];
                order[k] = order[k - 1];
                order[k - 1] = t;
            }
    printf("\n%-20s %6s %6s %6s %6s %7s  %s\n", "bot", "games", "wins", "draws", "losses", "score",
           "Elo (95% CI)");
    for (unsigned k = 0; k < n; k++) {
        unsigned i = order[k];
        const s_bot_stats *b = &m->bots[i];
        unsigned played = b->wins + b->draws + b->losses;
        printf("%-20s %6u %6u %6u %6u", b->label, b->games, b->wins, b->draws, b->losses);
        if (played)
            printf(" %6.1f%%", 100.0 * b->points / played);
        else
            printf(" %7s", "-");
        if (have && n > 1)
            printf("  %+5.0f [%+.0f, %+.0f]", rt[i].elo, rt[i].lo, rt[i].hi);
        else
            printf("  -");
        if (b->forfeits) printf("  (%u forfeited)", b->forfeits);
        if (b->unfinished) printf("  (%u unfinished)", b->unfinished);
        printf("\n");
    }
    if (n > 1) {
        printf("(Bradley-Terry maximum likelihood; each bot has one virtual draw against a reference at 0)\n");
        printf("\ncrosstable: row's score against column (points/games)\n%-20s", "");
        for (unsigned k = 0; k < n; k++) printf(" %9u", k + 1);
        printf("\n");
        for (unsigned k = 0; k < n; k++) {
            unsigned i = order[k];
            printf("%2u %-17s", k + 1, m->bots[i].label);
            for (unsigned l = 0; l < n; l++) {
                unsigned j = order[l];
                char cell[32];
                if (i == j)
                    snprintf(cell, sizeof cell, "-");
                else
                    snprintf(cell, sizeof cell, "%g/%g", m->pair_points[i * n + j], m->pair_games[i * n + j]);
                printf(" %9s", cell);
            }
            printf("\n");
        }
    }
    printf("\nper seat: wins-draws-losses\n%-20s", "bot");
    for (unsigned s = 0; s < m->seats; s++) {
        char h[16];
        snprintf(h, sizeof h, "seat %u", s);
        printf(" %11s", h);
    }
    printf("\n");
    for (unsigned k = 0; k < n; k++) {
        const s_bot_stats *b = &m->bots[order[k]];
        printf("%-20s", b->label);
        for (unsigned s = 0; s < m->seats; s++) {
            char cell[40];
            snprintf(cell, sizeof cell, "%u-%u-%u", b->side_w[s], b->side_d[s], b->side_l[s]);
            printf(" %11s", cell);
        }
        printf("\n");
    }
}

/* Swiss: pair the next round from the standings (under lock). */
static void s_pair_swiss(s_match *m) {
    unsigned n = m->n_bots;
    double score[S_MAX_BOTS];
    int balance[S_MAX_BOTS];
    for (unsigned i = 0; i < n; i++) {
        const s_bot_stats *b = &m->bots[i];
        unsigned played = b->wins + b->draws + b->losses;
        score[i] = played ? b->points / played : 0.5; /* a bye or an unscored game is no loss */
        balance[i] = (int)m->seat_count[i][0] - (int)m->seat_count[i][1];
    }
    int bye = -1;
    m->round_len = sched_swiss_round(n, m->round_no, score, m->met, balance, m->byes, m->round_games, &bye);
    m->round_pos = 0;
    if (bye >= 0) {
        m->byes[bye]++;
        if (!m->quiet) fprintf(stderr, "berthier-match: round %u: %s has the bye\n", m->round_no + 1,
                               m->bots[bye].label);
    }
    m->round_no++;
}

/* The next game to play: 1 and *g, *sg set, or 0 when there is none (or the match stops). */
static int s_next_game(s_match *m, unsigned *g, sched_game *sg) {
    int go = 0;
    pthread_mutex_lock(&m->lock);
    for (;;) {
        if (m->create_failed || atomic_load(&s_interrupted) || m->next_game >= m->games) break;
        if (m->schedule != SCHED_SWISS) {
            *g = m->next_game++;
            go = sched_game_at(m->schedule, m->n_bots, m->seats, *g, sg) == 0;
            break;
        }
        if (m->round_pos < m->round_len) {
            *sg = m->round_games[m->round_pos++];
            *g = m->next_game++;
            go = 1;
            break;
        }
        if (m->in_flight > 0) { /* the round is not over: its results pair the next one */
            pthread_cond_wait(&m->round_done, &m->lock);
            continue;
        }
        if (m->round_no >= m->rounds) break;
        s_pair_swiss(m);
        if (!m->round_len) break;
    }
    if (go) m->in_flight++;
    pthread_mutex_unlock(&m->lock);
    return go;
}

typedef struct s_worker {
    s_match *m;
    pthread_t thread;
    int tty;
} s_worker;

static void *s_worker_run(void *arg) {
    s_worker *w = arg;
    s_match *m = w->m;
    brt_client *admin = brt_client_open(&m->conn);
    if (!admin) {
        fprintf(stderr, "berthier-match: %s\n", brt_client_last_error());
        pthread_mutex_lock(&m->lock);
        m->create_failed = 1;
        pthread_cond_broadcast(&m->round_done);
        pthread_mutex_unlock(&m->lock);
        return NULL;
    }
    brt_client_set_timeout(admin, 2000, m->patience_ms);
    for (;;) {
        unsigned g = 0;
        sched_game sg;
        int go = s_next_game(m, &g, &sg);
        if (!go) break;
        int rc = s_play_game(m, admin, g, &sg, w->tty);
        pthread_mutex_lock(&m->lock);
        /* the daemon refused to create a game: the others would fail alike */
        if (rc < 0) m->create_failed = 1;
        m->in_flight--;
        pthread_cond_broadcast(&m->round_done);
        pthread_mutex_unlock(&m->lock);
    }
    brt_client_destroy(&admin);
    return NULL;
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        {"data-dir", required_argument, NULL, 'D'}, {"connect", required_argument, NULL, 'c'},
        {"events", required_argument, NULL, 'e'},   {"server-key", required_argument, NULL, 's'},
        {"key", required_argument, NULL, 'k'},      {"ruleset", required_argument, NULL, 'r'},
        {"scenario", required_argument, NULL, 'S'}, {"games", required_argument, NULL, 'n'},
        {"bots", required_argument, NULL, 'b'},     {"option", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 'x'},     {"seats", required_argument, NULL, 'N'},
        {"decision-ms", required_argument, NULL, 'd'}, {"bank-ms", required_argument, NULL, 'B'},
        {"forfeit", no_argument, NULL, 'f'},        {"no-forfeit", no_argument, NULL, 'F'},
        {"verify", no_argument, NULL, 'V'},
        {"logs-dir", required_argument, NULL, 'L'}, {"verbose", no_argument, NULL, 'v'},
        {"receipts-dir", required_argument, NULL, 'R'},
        {"quiet", no_argument, NULL, 'q'},          {"max-illegal", required_argument, NULL, 'm'},
        {"patience-ms", required_argument, NULL, 'P'}, {"game-timeout", required_argument, NULL, 'T'},
        {"schedule", required_argument, NULL, 'K'}, {"rounds", required_argument, NULL, 'O'},
        {"parallel", required_argument, NULL, 'j'}, {"results", required_argument, NULL, 'W'},
        {"results-format", required_argument, NULL, 'Y'}, {"bot-logs", required_argument, NULL, 'G'},
        {"duplicate", no_argument, NULL, 'u'},     {"help", no_argument, NULL, 'h'},
        {"protocol", required_argument, NULL, 'Q'},
        {NULL, 0, NULL, 0},
    };
    static s_match m; /* large: the crosstable */
    memset(&m, 0, sizeof m);
    m.ruleset = "duel";
    m.scenario = "standard";
    m.seats = 2;
    m.parallel = 1;
    m.decision_ms = 30000;
    m.forfeit = 1;
    m.seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    m.patience_ms = 300000;
    char bots_default[] = "random,random";
    char *bots = bots_default;
    const char *results_format = NULL, *bot_logs = NULL;
    unsigned games = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "hvq", opts, NULL)) != -1) {
        char *end = NULL;
        unsigned long v;
        switch (ch) {
        case 'D': m.conn.data_dir = optarg; break;
        case 'c': m.conn.endpoint = optarg; break;
        case 'e': m.conn.events_endpoint = optarg; break;
        case 's': m.conn.server_key = optarg; break;
        case 'k': m.conn.key_file = optarg; break;
        case 'r': m.ruleset = optarg; break;
        case 'S': m.scenario = optarg; break;
        case 'b': bots = optarg; break;
        case 'o':
            if (m.n_options == S_MAX_OPTIONS) goto usage;
            m.options[m.n_options++] = optarg;
            break;
        case 'x': m.seed = strtoull(optarg, NULL, 0); break;
        case 'u': m.duplicate = 1; break;
        case 'Q':
            if (strcmp(optarg, "old") != 0 && strcmp(optarg, "new") != 0) {
                fprintf(stderr, "berthier-match: --protocol: new or old\n");
                return 2;
            }
            m.old_protocol = strcmp(optarg, "old") == 0;
            break;
        case 'f': m.forfeit = 1; break;
        case 'F': m.forfeit = 0; break;
        case 'V': m.verify = 1; break;
        case 'L': m.logs_dir = optarg; break;
        case 'R': m.receipts_dir = optarg; break;
        case 'v': m.verbose = 1; break;
        case 'q': m.quiet = 1; break;
        case 'K':
            if (sched_kind_parse(optarg, &m.schedule) != 0) {
                fprintf(stderr, "berthier-match: --schedule: round-robin, gauntlet or swiss\n");
                return 2;
            }
            break;
        case 'W': m.results_path = optarg; break;
        case 'Y': results_format = optarg; break;
        case 'G': bot_logs = optarg; break;
        case 'n': case 'N': case 'd': case 'B': case 'm': case 'P': case 'T': case 'O': case 'j':
            errno = 0;
            v = strtoul(optarg, &end, 10);
            if (errno || !end || *end || optarg[0] == '-' || v > UINT32_MAX) {
                fprintf(stderr, "berthier-match: bad number %s\n", optarg);
                return 2;
            }
            if (ch == 'n') games = (unsigned)v ? (unsigned)v : UINT_MAX;
            if (ch == 'N') m.seats = (unsigned)v;
            if (ch == 'd') m.decision_ms = (uint32_t)v;
            if (ch == 'B') m.bank_ms = (uint32_t)v;
            if (ch == 'm') m.max_illegal = (int)v;
            if (ch == 'P') m.patience_ms = v > INT_MAX ? INT_MAX : (int)v;
            if (ch == 'T') m.game_timeout_s = (unsigned)v;
            if (ch == 'O') m.rounds = (unsigned)v ? (unsigned)v : UINT_MAX;
            if (ch == 'j') m.parallel = (unsigned)v;
            break;
        case 'h': s_usage(stdout); return 0;
        default: goto usage;
        }
    }
    if (optind != argc || games == UINT_MAX || m.rounds == UINT_MAX || m.seats < 1 ||
        m.seats > S_MAX_SEATS || m.parallel < 1 || m.parallel > 64)
        goto usage;
    if (games && m.rounds) {
        fprintf(stderr, "berthier-match: --games and --rounds: give one\n");
        return 2;
    }
    if (s_parse_bots(&m, bots) != 0) goto usage;
    for (unsigned i = 0; i < m.n_bots; i++) {
        const char *arg;
        const bot_policy *pol = bot_policy_find(m.bots[i].spec, &arg);
        const char *why = pol->unsupported ? pol->unsupported(m.ruleset) : NULL;
        if (why) {
            fprintf(stderr, "berthier-match: %s (bot %s, ruleset %s)\n", why, m.bots[i].label,
                    m.ruleset);
            return 2;
        }
    }
    size_t per_round = sched_round_size(m.schedule, m.n_bots, m.seats);
    if (!per_round) {
        fprintf(stderr, "berthier-match: this schedule cannot seat %u entrant%s in %u seats\n", m.n_bots,
                m.n_bots == 1 ? "" : "s", m.seats);
        return 2;
    }
    if (!games && !m.rounds) m.rounds = 1;
    if (m.duplicate && (m.schedule == SCHED_SWISS || m.n_options == S_MAX_OPTIONS)) {
        fprintf(stderr, "berthier-match: --duplicate needs --schedule round-robin or gauntlet (every seat order "
                        "of a group in one round) and room for one more option\n");
        return 2;
    }
    if (m.duplicate) randombytes_buf(m.dup_key, sizeof m.dup_key);
    if (m.schedule == SCHED_SWISS && games) {
        fprintf(stderr, "berthier-match: --schedule swiss plays --rounds, not --games\n");
        return 2;
    }
    if (m.rounds) {
        if (per_round * m.rounds > 100000) {
            fprintf(stderr, "berthier-match: %zu games a round: too many rounds\n", per_round);
            return 2;
        }
        m.games = (unsigned)(per_round * m.rounds);
    } else {
        m.games = games;
        if (games % per_round && !m.quiet && m.schedule != SCHED_SWISS)
            fprintf(stderr, "berthier-match: note: %u games is not a whole number of rounds (%zu a round):"
                    " the entrants will not meet equally often on every seat\n", games, per_round);
    }
    if (m.results_path) {
        const char *dot = strrchr(m.results_path, '.');
        m.results_json = dot && (strcmp(dot, ".json") == 0 || strcmp(dot, ".jsonl") == 0);
        if (results_format) {
            if (strcmp(results_format, "csv") == 0) m.results_json = 0;
            else if (strcmp(results_format, "jsonl") == 0 || strcmp(results_format, "json") == 0)
                m.results_json = 1;
            else {
                fprintf(stderr, "berthier-match: --results-format: csv or jsonl\n");
                return 2;
            }
        }
        m.results = fopen(m.results_path, "w");
        if (!m.results) {
            fprintf(stderr, "berthier-match: --results %s: %s\n", m.results_path, strerror(errno));
            return 2;
        }
        if (!m.results_json)
            fprintf(m.results, "game,round,entrants,score,winners,ended,stalled_seat,reason,turns,orders,"
                    "log,verify,verify_error,receipts\n");
        if (!bot_logs) {
            char b[PATH_MAX];
            snprintf(b, sizeof b, "%.*s.bots", PATH_MAX - 8, m.results_path);
            s_absolute(b, m.bot_logs, sizeof m.bot_logs);
        }
    }
    if (bot_logs) s_absolute(bot_logs, m.bot_logs, sizeof m.bot_logs);
    if (s_redirect_bot_logs(&m) != 0) return 2;
    s_find_replay(&m);
    char logs_default[PATH_MAX];
    if (m.verify && !m.logs_dir && !m.conn.data_dir) {
        /* a remote daemon's log path is its own: verify a downloaded copy */
        if (m.results_path)
            snprintf(logs_default, sizeof logs_default, "%.*s.logs", PATH_MAX - 8, m.results_path);
        else
            snprintf(logs_default, sizeof logs_default, "berthier-logs");
        m.logs_dir = logs_default;
        if (!m.quiet) fprintf(stderr, "berthier-match: --verify: downloading the logs into %s\n", m.logs_dir);
    }
    if (m.logs_dir) {
        mkdir(m.logs_dir, 0755);
        s_absolute(m.logs_dir, m.logs_abs, sizeof m.logs_abs);
    }
    if (m.conn.data_dir) s_absolute(m.conn.data_dir, m.data_dir_abs, sizeof m.data_dir_abs);
    {
        const char *rdir = m.receipts_dir ? m.receipts_dir : getenv("BERTHIER_RECEIPTS_DIR");
        if (!rdir || !*rdir) rdir = "receipts";
        s_absolute(rdir, m.receipts_abs, sizeof m.receipts_abs);
    }
    if (m.decision_ms == 0) m.forfeit = 0;

    brt_client *admin = brt_client_open(&m.conn);
    if (!admin) {
        fprintf(stderr, "berthier-match: %s\n", brt_client_last_error());
        return 3;
    }
    brt_client_set_timeout(admin, 2000, m.patience_ms);
    const Berthier__V1__Hello *h = NULL;
    if (brt_client_hello(admin, NULL, -1, &h) != 0) {
        fprintf(stderr, "berthier-match: %s\n", brt_client_error(admin));
        int rc = brt_client_code(admin) == BRT_CLIENT_NO_REPLY ? 3 : 1;
        brt_client_destroy(&admin);
        return rc;
    }
    if (h && !h->admin)
        fprintf(stderr, "berthier-match: warning: the daemon does not know this key as an admin\n");
    brt_client_destroy(&admin);
    signal(SIGINT, s_on_signal);
    signal(SIGTERM, s_on_signal);
    signal(SIGPIPE, SIG_IGN);
    int tty = isatty(2);
    if (!m.quiet)
        fprintf(stderr, "berthier-match: %u game%s of %s %s (%s, %u entrants), seed %" PRIu64 "\n",
                m.games, m.games == 1 ? "" : "s", m.ruleset, m.scenario,
                m.schedule == SCHED_GAUNTLET ? "gauntlet" : m.schedule == SCHED_SWISS ? "Swiss" : "round robin",
                m.n_bots, m.seed);
    pthread_mutex_init(&m.lock, NULL);
    pthread_cond_init(&m.round_done, NULL);
    if (m.parallel > m.games) m.parallel = m.games;
    s_worker workers[64];
    unsigned n_workers = 0;
    for (unsigned i = 0; i < m.parallel; i++) {
        workers[i].m = &m;
        workers[i].tty = tty;
        if (pthread_create(&workers[i].thread, NULL, s_worker_run, &workers[i]) != 0) break;
        n_workers++;
    }
    for (unsigned i = 0; i < n_workers; i++) pthread_join(workers[i].thread, NULL);
    s_table(&m);
    printf("%u of %u game%s ended", m.finished, m.games, m.games == 1 ? "" : "s");
    if (m.failed_verify) printf("; %u ended but failed to verify", m.failed_verify);
    printf("\n");
    if (m.results) fclose(m.results);
    pthread_cond_destroy(&m.round_done);
    pthread_mutex_destroy(&m.lock);
    return m.finished == m.games ? 0 : 1;
usage:
    s_usage(stderr);
    return 2;
}
