/*
 * berthier-match - bot-vs-bot games and tournaments on a running berthierd.
 *
 *   berthier-match --connect ENDPOINT --ruleset R --scenario S --games N
 *                  --bots random,greedy [--option NAME]... [--seed S] [--data-dir DIR]
 *                  [--decision-ms MS] [--bank-ms MS] [--forfeit] ...
 *
 * For every game it generates a keypair per seat, creates the game as admin
 * with those keys, and plays every seat in a thread of its own (bot.c) with
 * the bot the seat was given: seat s of game g plays bots[(g + s) % nbots], so
 * seats alternate between the bots. exec:PROGRAM bots are child programs
 * speaking the line protocol of docs/bots.md. The clocks are the daemon's
 * (CreateGame.clock): the runner never decides a timeout.
 *
 * Each client retries unanswered requests with the same request id on a fresh
 * connection, so a daemon restart mid-game costs a pause, never a duplicate order.
 *
 * Output: one line per game, then a table of wins, draws and losses per bot
 * with Elo against the field and its 95% confidence interval.
 * Exit: 0 every game ended; 1 some game did not; 2 usage; 3 no daemon.
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
#include "elo.h"

#define S_MAX_BOTS 16
#define S_MAX_SEATS 8
#define S_MAX_OPTIONS 32

typedef struct s_bot_stats {
    char label[64];
    const char *spec;
    unsigned games, wins, draws, losses, unfinished;
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
    unsigned games, seats;
    s_bot_stats bots[S_MAX_BOTS];
    unsigned n_bots;
    uint64_t seed;
    uint32_t decision_ms, bank_ms;
    int forfeit, verify, verbose, quiet, max_illegal;
    int patience_ms;
    unsigned game_timeout_s;  /* 0 = none */
    const char *logs_dir;
    const char *receipts_dir; /* NULL: $BERTHIER_RECEIPTS_DIR, else ./receipts */
    char replay_bin[PATH_MAX];
    int duplicate;            /* --duplicate: each game twice, seats reversed, one dice-seed */
    int reversed;             /* the second game of a duplicate pair */
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
        "                      [--ruleset R] [--scenario S] [--games N] [--bots B1,B2,...]\n"
        "                      [--option NAME[=VALUE]]... [--seats N] [--seed S]\n"
        "                      [--decision-ms MS] [--bank-ms MS] [--forfeit]\n"
        "                      [--verify] [--logs-dir DIR] [--verbose] [--quiet] [--duplicate]\n"
        "\n"
        "Plays N games (default 1) of ruleset R (default duel) and scenario S (default standard);\n"
        "seat s of game g is played by bot (g + s) mod the number of bots.\n"
        "  --bots          comma-separated: %s (default random,random)\n"
        "  --seats N       seats per game (default 2)\n"
        "  --seed S        seeds every bot's generator (default: from the clock)\n"
        "  --decision-ms, --bank-ms, --forfeit   the daemon's clock for the games\n"
        "  --verify        run berthier-replay verify on each finished game's log\n"
        "  --logs-dir DIR  download each game's log into DIR (for a remote daemon)\n"
        "  --receipts-dir DIR  keep each seat's receipts in DIR/ID.seatN.receipts (default\n"
        "                  $BERTHIER_RECEIPTS_DIR, else ./receipts); --verify checks them\n"
        "  --patience-ms MS  how long a bot waits for a daemon that does not answer (default 300000)\n"
        "  --max-illegal N   rejected orders in a row before a bot resigns (default 3)\n"
        "  --game-timeout S  stop a game that has not ended after S seconds (default: never)\n"
        "  --duplicate     play each game twice, the second with the seats reversed, both with\n"
        "                  the same fixed dice (option dice-seed=HEX, docs/dice.md \"Fixed dice\")\n"
        "Exit: 0 every game ended; 1 some game did not; 2 usage; 3 no daemon.\n",
        pols);
}

static int s_parse_bots(s_match *m, char *list) {
    m->n_bots = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (m->n_bots == S_MAX_BOTS) return -1;
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
    /* The same bot twice: number them so the table tells them apart. */
    for (unsigned i = 0; i < m->n_bots; i++) {
        unsigned same = 0;
        for (unsigned k = 0; k < m->n_bots; k++) same += strcmp(m->bots[k].spec, m->bots[i].spec) == 0;
        if (same > 1) {
            size_t n = strlen(m->bots[i].label);
            snprintf(m->bots[i].label + n, sizeof m->bots[i].label - n, "#%u", i + 1);
        }
    }
    return m->n_bots ? 0 : -1;
}

static void *s_seat_thread(void *arg) {
    s_seat_run *r = arg;
    r->rc = bot_play(&r->p, &r->out);
    atomic_store(&r->done, 1);
    return NULL;
}

static void s_find_replay(s_match *m) {
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
 * pk: the signing key the seats pinned (64 hex, "" if none); receipts: the seats' files. */
static int s_verify(const s_match *m, const char *log, const char *pk, char receipts[][PATH_MAX], unsigned n) {
    const char *argv[8 + 2 * S_MAX_SEATS];
    int k = 0;
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
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execvp(m->replay_bin, (char *const *)argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void s_progress(const s_match *m, unsigned g, s_seat_run *runs, unsigned n, int tty) {
    if (!tty || m->quiet) return;
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

/* Play game g. Returns 1 if it ended, 0 if not, -1 if it could not be created. */
static int s_play_game(s_match *m, brt_client *admin, unsigned g, int tty) {
    brt_keypair kps[S_MAX_SEATS];
    const char *pubs[S_MAX_SEATS];
    for (unsigned s = 0; s < m->seats; s++) {
        if (brt_keypair_generate(&kps[s]) != 0) return -1;
        pubs[s] = kps[s].public_z85;
    }
    brt_game_spec spec = {m->ruleset, m->scenario, m->options, m->n_options, pubs, m->seats,
                          m->decision_ms, m->bank_ms, m->forfeit, NULL, 0};
    char id[BRT_GAME_ID_MAX + 1];
    const Berthier__V1__Created *cr = NULL;
    if (brt_client_create(admin, &spec, id, &cr) != 0) {
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
    char log_path[PATH_MAX] = "";
    if (cr->log_path && *cr->log_path)
        snprintf(log_path, sizeof log_path, "%s", cr->log_path);
    else if (m->conn.data_dir)
        snprintf(log_path, sizeof log_path, "%s/games/%s.log", m->conn.data_dir, id);

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
    const char *rdir = m->receipts_dir ? m->receipts_dir : getenv("BERTHIER_RECEIPTS_DIR");
    if (!rdir || !*rdir) rdir = "receipts";
    for (unsigned s = 0; s < m->seats; s++)
        snprintf(receipts[s], sizeof receipts[s], "%s/%s.seat%u.receipts", rdir, id, s);

    s_seat_run runs[S_MAX_SEATS];
    atomic_ullong seqs[S_MAX_SEATS];
    atomic_uint turns[S_MAX_SEATS];
    atomic_int stop = 0;
    memset(runs, 0, sizeof runs);
    unsigned started = 0;
    for (unsigned s = 0; s < m->seats; s++) {
        s_seat_run *r = &runs[s];
        r->bot = (int)((g + (m->reversed ? m->seats - 1 - s : s)) % m->n_bots);
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
    if (tty && !m->quiet) fprintf(stderr, "\r\033[K");
    int ended = started == m->seats;
    uint32_t winners = 0;
    unsigned orders = 0, turn = 0;
    char why[600] = "";
    const bot_outcome *res = NULL;
    for (unsigned s = 0; s < started; s++) {
        pthread_join(runs[s].thread, NULL);
        brt_client_destroy(&runs[s].client);
        orders += runs[s].out.orders;
        if (runs[s].out.turn > turn) turn = runs[s].out.turn;
        if (runs[s].rc == 0) {
            if (!res) res = &runs[s].out;
        } else {
            ended = 0;
            if (!why[0] && strcmp(runs[s].out.error, "stopped") != 0)
                snprintf(why, sizeof why, "seat %u: %s", s, runs[s].out.error);
        }
    }
    if (!res) ended = 0;
    if (ended) winners = res->winners;
    for (unsigned s = 0; s < m->seats; s++) {
        s_bot_stats *b = &m->bots[runs[s].bot];
        b->games++;
        if (!ended) b->unfinished++;
        else if (winners == 0) b->draws++;
        else if (winners & (1u << s)) b->wins++;
        else b->losses++;
    }
    char result[400];
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
        r.reason = (char *)res->reason;
        bot_result_line_named(&r, name_ptrs, m->seats, result, sizeof result);
    } else
        snprintf(result, sizeof result, "unfinished: %.380s", why[0] ? why : "stopped");
    if (overtime) {
        uint64_t seq = 0;
        unsigned turn = 0;
        for (unsigned s = 0; s < started; s++) {
            if (atomic_load(&seqs[s]) > seq) seq = atomic_load(&seqs[s]);
            if (atomic_load(&turns[s]) > turn) turn = atomic_load(&turns[s]);
        }
        snprintf(result, sizeof result, "unfinished: no end after %u s (--game-timeout), at seq %" PRIu64
                 " turn %u", m->game_timeout_s, seq, turn);
    }
    if (ended && m->logs_dir) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s.log", m->logs_dir, id);
        if (brt_client_fetch_log_file(admin, id, path) == 0)
            snprintf(log_path, sizeof log_path, "%s", path);
        else
            fprintf(stderr, "berthier-match: %s: fetch log: %s\n", id, brt_client_error(admin));
    }
    const char *verified = "";
    if (ended && m->verify) {
        int v = log_path[0] ? s_verify(m, log_path, pk_hex, receipts, m->seats) : -1;
        verified = v == 0 ? " verified" : v == 2 ? " verify:incomplete" : " verify:FAILED";
        if (v != 0) ended = 0;
    }
    char seats_desc[256] = "";
    size_t used = 0;
    for (unsigned s = 0; s < m->seats && used < sizeof seats_desc; s++)
        used += (size_t)snprintf(seats_desc + used, sizeof seats_desc - used, "%s%u=%s",
                                 s ? " " : "", s, m->bots[runs[s].bot].label);
    printf("%s  %s  %s  turns %u  orders %u  log %s%s\n", id, seats_desc, result, turn, orders,
           log_path[0] ? log_path : "-", verified);
    fflush(stdout);
    for (unsigned s = 0; s < m->seats; s++) memset(&kps[s], 0, sizeof kps[s]);
    return ended ? 1 : 0;
}

static void s_table(const s_match *m) {
    printf("\n%-20s %6s %6s %6s %6s %7s  %s\n", "bot", "games", "wins", "draws", "losses", "score",
           "Elo vs field (95% CI)");
    for (unsigned i = 0; i < m->n_bots; i++) {
        const s_bot_stats *b = &m->bots[i];
        elo_est e;
        unsigned played = b->wins + b->draws + b->losses;
        printf("%-20s %6u %6u %6u %6u", b->label, b->games, b->wins, b->draws, b->losses);
        if (played && elo_estimate(b->wins, b->draws, b->losses, &e) == 0)
            printf(" %6.1f%%  %s%+.0f [%+.0f, %+.0f]", 100.0 * e.score,
                   e.clamped ? (e.score >= 1.0 ? ">" : "<") : "", e.elo, e.lo, e.hi);
        else
            printf(" %7s  -", "-");
        if (b->unfinished) printf("  (%u unfinished)", b->unfinished);
        printf("\n");
    }
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
        {"forfeit", no_argument, NULL, 'f'},        {"verify", no_argument, NULL, 'V'},
        {"logs-dir", required_argument, NULL, 'L'}, {"verbose", no_argument, NULL, 'v'},
        {"receipts-dir", required_argument, NULL, 'R'},
        {"quiet", no_argument, NULL, 'q'},          {"max-illegal", required_argument, NULL, 'm'},
        {"patience-ms", required_argument, NULL, 'P'}, {"game-timeout", required_argument, NULL, 'T'},
        {"duplicate", no_argument, NULL, 'u'},     {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    s_match m;
    memset(&m, 0, sizeof m);
    m.ruleset = "duel";
    m.scenario = "standard";
    m.games = 1;
    m.seats = 2;
    m.seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    m.patience_ms = 300000;
    char bots_default[] = "random,random";
    char *bots = bots_default;
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
        case 'f': m.forfeit = 1; break;
        case 'u': m.duplicate = 1; break;
        case 'V': m.verify = 1; break;
        case 'L': m.logs_dir = optarg; break;
        case 'R': m.receipts_dir = optarg; break;
        case 'v': m.verbose = 1; break;
        case 'q': m.quiet = 1; break;
        case 'n': case 'N': case 'd': case 'B': case 'm': case 'P': case 'T':
            errno = 0;
            v = strtoul(optarg, &end, 10);
            if (errno || !end || *end || optarg[0] == '-' || v > UINT32_MAX) {
                fprintf(stderr, "berthier-match: bad number %s\n", optarg);
                return 2;
            }
            if (ch == 'n') m.games = (unsigned)v;
            if (ch == 'N') m.seats = (unsigned)v;
            if (ch == 'd') m.decision_ms = (uint32_t)v;
            if (ch == 'B') m.bank_ms = (uint32_t)v;
            if (ch == 'm') m.max_illegal = (int)v;
            if (ch == 'P') m.patience_ms = v > INT_MAX ? INT_MAX : (int)v;
            if (ch == 'T') m.game_timeout_s = (unsigned)v;
            break;
        case 'h': s_usage(stdout); return 0;
        default: goto usage;
        }
    }
    if (optind != argc || m.games == 0 || m.seats < 1 || m.seats > S_MAX_SEATS) goto usage;
    if (s_parse_bots(&m, bots) != 0) goto usage;
    if (m.duplicate && m.n_options == S_MAX_OPTIONS) goto usage; /* room for dice-seed */
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
    s_find_replay(&m);
    if (m.logs_dir) mkdir(m.logs_dir, 0755);

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
    signal(SIGINT, s_on_signal);
    signal(SIGTERM, s_on_signal);
    signal(SIGPIPE, SIG_IGN);
    int tty = isatty(2);
    if (!m.quiet)
        fprintf(stderr, "berthier-match: %u game%s of %s %s on %s, seed %" PRIu64 "\n", m.games,
                m.games == 1 ? "" : "s", m.ruleset, m.scenario, brt_client_endpoint(admin), m.seed);
    unsigned finished = 0, played = m.duplicate ? 2 * m.games : m.games;
    for (unsigned g = 0; g < m.games && !atomic_load(&s_interrupted); g++) {
        /* --duplicate: one operator seed per pair, the second game with the seats reversed. */
        char dice_opt[10 + 65];
        uint8_t dice_seed[32];
        if (m.duplicate) {
            randombytes_buf(dice_seed, sizeof dice_seed);
            memcpy(dice_opt, "dice-seed=", 10);
            sodium_bin2hex(dice_opt + 10, 65, dice_seed, sizeof dice_seed);
            m.options[m.n_options++] = dice_opt;
        }
        int r = 0;
        for (int half = 0; half < (m.duplicate ? 2 : 1) && !atomic_load(&s_interrupted); half++) {
            m.reversed = half;
            r = s_play_game(&m, admin, g, tty);
            if (r == 1) finished++;
            if (r < 0) break;
        }
        if (m.duplicate) {
            m.n_options--;
            sodium_memzero(dice_opt, sizeof dice_opt);
            sodium_memzero(dice_seed, sizeof dice_seed);
        }
        if (r < 0) break; /* the daemon refused to create a game: the others would fail alike */
    }
    s_table(&m);
    printf("%u of %u game%s ended\n", finished, played, played == 1 ? "" : "s");
    brt_client_destroy(&admin);
    return finished == played ? 0 : 1;
usage:
    s_usage(stderr);
    return 2;
}
