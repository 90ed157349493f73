/*
 * berthierctl - talk to berthierd from a shell.
 *
 *   berthierctl [GLOBAL OPTIONS] COMMAND [ARGS]     (berthierctl help COMMAND)
 *
 * Exit codes (scripts rely on them):
 *   0  done
 *   1  the daemon rejected the request; one line on stderr:
 *      rejected ILLEGAL [6.3] GARDE cannot enter 0805: an enemy unit is there
 *   2  usage error (unknown command or option, missing argument)
 *   3  no reply: cannot connect, or the daemon did not answer in time
 *   4  local failure (a key or log file cannot be read or written)
 *
 * Subcommands are rows of one table; each has its own --help.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "berthier/client.h"
#include "watch_html.h"

enum { EXIT_OK = 0, EXIT_REJECTED = 1, EXIT_USAGE = 2, EXIT_NO_REPLY = 3, EXIT_LOCAL = 4 };

typedef struct ctl {
    brt_connect_opts conn;
    int timeout_ms;
    int quiet;
    const char *receipts;  /* --receipts FILE, else brt_receipts_default_path; "-": keep none */
    brt_client *client;
} ctl;

typedef struct ctl_cmd {
    const char *name;
    const char *usage;     /* arguments after the name */
    const char *summary;   /* one line */
    const char *help;      /* more lines, or NULL */
    int connects;          /* needs a daemon connection */
    int (*run)(ctl *self, int argc, char **argv);
} ctl_cmd;

static const ctl_cmd *s_find(const char *name);
static void s_cmd_usage(FILE *f, const ctl_cmd *c);

/* ---- helpers ------------------------------------------------------------------ */

static int s_usage_error(const ctl_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int s_usage_error(const ctl_cmd *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "berthierctl %s: ", c->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    s_cmd_usage(stderr, c);
    return EXIT_USAGE;
}

/* Connect on first use, after a command has checked its arguments. */
static int s_connect(ctl *self) {
    if (self->client) return EXIT_OK;
    self->client = brt_client_open(&self->conn);
    if (!self->client) {
        fprintf(stderr, "berthierctl: %s\n", brt_client_last_error());
        return strncmp(brt_client_last_error(), "cannot read", 11) == 0 ? EXIT_LOCAL : EXIT_NO_REPLY;
    }
    if (self->timeout_ms) {
        int attempt = self->timeout_ms < 2000 ? self->timeout_ms : 2000;
        brt_client_set_timeout(self->client, attempt, self->timeout_ms);
    }
    return EXIT_OK;
}
#define S_CONNECT(self)                                                                            \
    do {                                                                                           \
        int crc_ = s_connect(self);                                                                \
        if (crc_) return crc_;                                                                     \
    } while (0)

/* Exit code and one line on stderr for a failed call. */
static int s_fail(ctl *self) {
    int code = brt_client_code(self->client);
    fprintf(stderr, "%s\n", brt_client_error(self->client));
    return code == BRT_CLIENT_NO_REPLY ? EXIT_NO_REPLY : EXIT_REJECTED;
}

/* Keep the receipt of the input just acknowledged (docs/log-format.md "Receipts file").
 * EXIT_OK, or EXIT_LOCAL when it cannot be written (the input was applied all the same). */
static int s_keep_receipt(ctl *self, const char *game) {
    if (self->receipts && strcmp(self->receipts, "-") == 0) return EXIT_OK;
    char path[4096];
    const char *where = self->receipts;
    if (!where) {
        if (brt_receipts_default_path(game, path, sizeof path) != 0) return EXIT_LOCAL;
        where = path;
    }
    if (brt_client_save_receipt(self->client, where) < 0) {
        fprintf(stderr, "berthierctl: the input was acknowledged, but its receipt cannot be appended to %s: %s\n",
                where, strerror(errno));
        return EXIT_LOCAL;
    }
    return EXIT_OK;
}

static int s_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s) return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || !end || *end || s[0] == '-') return -1;
    *out = v;
    return 0;
}

static int s_parse_seat(const char *s, unsigned *out) {
    uint64_t v;
    if (s_parse_u64(s, &v) != 0 || v > 7) return -1;
    *out = (unsigned)v;
    return 0;
}

static void s_hex(const uint8_t *d, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", d[i]);
    out[2 * n] = '\0';
}

static void s_print_hex_line(const char *prefix, const ProtobufCBinaryData *b) {
    char *hex = malloc(b->len * 2 + 1);
    if (!hex) return;
    s_hex(b->data, b->len, hex);
    printf("%s%s\n", prefix, hex);
    free(hex);
}

static void s_print_result(const char *prefix, const Berthier__V1__Result *r) {
    if (!r || !r->ended) return;
    printf("%sresult ", prefix);
    if (r->n_winners == 0) printf("draw");
    else {
        printf("winners");
        for (size_t i = 0; i < r->n_winners; i++) printf(" %u", r->winners[i]);
    }
    if (r->level && *r->level) printf(" (%s)", r->level);
    if (r->reason && *r->reason) printf(": %s", r->reason);
    printf("\n");
}

/* The decision's lines, each after prefix ("" for pending, "next " after an input). */
static void s_print_decision(const char *prefix, const Berthier__V1__Decision *d) {
    const char *p = prefix;
    printf("%sseq %" PRIu64 "\n", p, d->seq);
    printf("%sturn %u\n", p, d->turn);
    printf("%sstarted %s\n", p, d->started ? "yes" : "no");
    printf("%sseats", p);
    for (size_t i = 0; i < d->n_seats; i++) printf(" %u", d->seats[i]);
    printf("\n");
    if (d->kind && *d->kind) printf("%skind %s\n", p, d->kind);
    if (d->rule && *d->rule) printf("%srule %s\n", p, d->rule);
    if (d->sealed) printf("%ssealed yes\n", p);
    if (d->prompt && *d->prompt) printf("%sprompt %s\n", p, d->prompt);
    printf("%syou-must-act %s\n", p, d->you_must_act ? "yes" : "no");
    s_print_result(p, d->result);
}

/* Legal orders one per line after prefix: the text, or hex: and the encoded order. */
static void s_print_legal(ctl *self, const char *prefix, const Berthier__V1__LegalOrders *lo) {
    size_t n = lo->n_texts > lo->n_orders ? lo->n_texts : lo->n_orders;
    char hexprefix[32];
    snprintf(hexprefix, sizeof hexprefix, "%shex:", prefix);
    for (size_t i = 0; i < n; i++) {
        if (i < lo->n_texts) printf("%s%s\n", prefix, lo->texts[i]);
        else s_print_hex_line(hexprefix, &lo->orders[i]);
    }
    if (!self->quiet)
        fprintf(stderr, "%zu legal orders at seq %" PRIu64 "%s\n", n, lo->seq, lo->truncated ? " (truncated)" : "");
}

/* ---- the seat's next decision in the same reply (docs/protocol.md P4.3) -------------
 *
 * join, order, reveal and resign take --next (print the seat's decision after the
 * input, each line after "next ") and --legal (that too, and the seat's legal orders
 * when it must act, each after "legal "); pending takes --legal. --limit N: at most N
 * orders; --no-texts: the encoded orders only (hex:), which the daemon need not format.
 * A daemon that does not carry them is asked with pending and legal instead. */

typedef struct s_next_opts {
    int next, legal, no_texts;
    uint64_t limit;
} s_next_opts;

#define S_NEXT_OPTS                                                                                \
    {"next", no_argument, NULL, 'N'}, {"legal", no_argument, NULL, 'L'},                           \
        {"limit", required_argument, NULL, 'l'}, {"no-texts", no_argument, NULL, 'T'}

/* 1: ch was one of S_NEXT_OPTS; 0: it was not; -1: a bad value. */
static int s_next_opt(s_next_opts *o, int ch, const char *arg) {
    switch (ch) {
    case 'N': o->next = 1; return 1;
    case 'L': o->legal = 1; return 1;
    case 'T': o->no_texts = 1; return 1;
    case 'l': return s_parse_u64(arg, &o->limit) == 0 && o->limit <= UINT32_MAX ? 1 : -1;
    default: return 0;
    }
}

static int s_next_check(const ctl_cmd *c, const s_next_opts *o) {
    if ((o->limit || o->no_texts) && !o->legal) return s_usage_error(c, "--limit and --no-texts go with --legal");
    return EXIT_OK;
}

/* Ask for them in the request about to be sent (after s_connect). */
static void s_next_want(ctl *self, const s_next_opts *o) {
    unsigned flags = 0;
    if (o->next) flags |= BRT_WANT_DECISION;
    if (o->legal) flags |= BRT_WANT_DECISION | BRT_WANT_LEGAL | (o->no_texts ? 0u : (unsigned)BRT_WANT_TEXTS);
    brt_client_set_want(self->client, flags, (unsigned)o->limit);
}

static int s_has_legal(const Berthier__V1__Decision *d) {
    return d->you_must_act && d->started && !(d->result && d->result->ended) &&
           !(d->kind && (strcmp(d->kind, "dice-nonce") == 0 || strcmp(d->kind, "join") == 0));
}

/* Print what --next / --legal asked for from the last reply. shown: the decision the
 * command printed already (pending's), so that only the legal orders follow; else NULL.
 * What the reply does not carry (a daemon older than P4.3) is asked for. */
static int s_print_next(ctl *self, const char *game, unsigned seat, const s_next_opts *o,
                        const Berthier__V1__Decision *shown) {
    if (!o->next && !o->legal) return EXIT_OK;
    const Berthier__V1__Decision *d = shown;
    if (!shown) {
        d = brt_client_next(self->client);
        if (!d) {
            brt_client_set_want(self->client, 0, 0);
            if (brt_client_pending(self->client, game, seat, &d) != 0) return s_fail(self);
        }
        s_print_decision("next ", d);
    }
    if (!o->legal || !s_has_legal(d)) return EXIT_OK;
    const Berthier__V1__LegalOrders *lo = brt_client_next_legal(self->client);
    if (!lo) {
        brt_client_set_want(self->client, 0, 0);
        if (brt_client_legal(self->client, game, seat, (unsigned)o->limit, &lo) != 0) return s_fail(self);
    }
    s_print_legal(self, "legal ", lo);
    return EXIT_OK;
}

static void s_print_events(Berthier__V1__Event *const *ev, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (ev[i]->text && *ev[i]->text)
            printf("event %" PRIu64 ".%u %s\n", ev[i]->seq, ev[i]->index, ev[i]->text);
        else {
            char prefix[64];
            snprintf(prefix, sizeof prefix, "event %" PRIu64 ".%u hex:", ev[i]->seq, ev[i]->index);
            s_print_hex_line(prefix, &ev[i]->data);
        }
    }
}

/* getopt_long over a subcommand's arguments; argv[0] is the command name. */
#define S_HELP_OPT {"help", no_argument, NULL, 'h'}

static int s_want_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

/* Commands taking exactly GAME SEAT and no options. */
static int s_game_seat(const ctl_cmd *c, int argc, char **argv, const char **game,
                       unsigned *seat) {
    *game = NULL;
    *seat = 0;
    if (argc != 3) return s_usage_error(c, "expects GAME SEAT");
    *game = argv[1];
    if (s_parse_seat(argv[2], seat) != 0) return s_usage_error(c, "bad seat %s", argv[2]);
    return EXIT_OK;
}

/* ---- commands --------------------------------------------------------------------- */

static int s_cmd_hello(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("hello");
    const char *game = NULL;
    unsigned seat = 0;
    if (argc == 3) {
        int rc = s_game_seat(c, argc, argv, &game, &seat);
        if (rc) return rc;
    } else if (argc != 1)
        return s_usage_error(c, "expects no arguments, or GAME SEAT");
    const Berthier__V1__Hello *h = NULL;
    S_CONNECT(self);
    if (brt_client_hello(self->client, game, game ? (int)seat : -1, &h) != 0) return s_fail(self);
    if (h) {
        printf("engine %s\n", h->engine_version ? h->engine_version : "?");
        printf("rulesets");
        for (size_t i = 0; i < h->n_rulesets; i++) printf(" %s", h->rulesets[i]);
        printf("\nadmin %s\n", h->admin ? "yes" : "no");
        if (h->server_sign_pk.len) s_print_hex_line("sign-key ", &h->server_sign_pk);
    }
    uint8_t key[BRT_EVENT_KEY_BYTES];
    if (brt_client_event_key(self->client, key) == 0) {
        char hex[2 * BRT_EVENT_KEY_BYTES + 1];
        s_hex(key, sizeof key, hex);
        printf("event-key %s\n", hex);
    }
    return EXIT_OK;
}

static void s_print_list(const char *head, char *const *items, size_t n) {
    printf("%s", head);
    if (n == 0) printf(" none");
    for (size_t i = 0; i < n; i++) printf("%s%s", i ? ", " : " ", items[i]);
    printf("\n");
}

static int s_cmd_rulesets(ctl *self, int argc, char **argv) {
    (void)argv;
    if (argc != 1) return s_usage_error(s_find("rulesets"), "expects no arguments");
    const Berthier__V1__Hello *h = NULL;
    S_CONNECT(self);
    if (brt_client_hello(self->client, NULL, -1, &h) != 0) return s_fail(self);
    if (!h) return EXIT_OK;
    for (size_t i = 0; i < h->n_rulesets; i++) {
        const Berthier__V1__RulesetInfo *ri = NULL;
        for (size_t k = 0; k < h->n_rulesets_info; k++)
            if (h->rulesets_info[k]->id && strcmp(h->rulesets_info[k]->id, h->rulesets[i]) == 0)
                ri = h->rulesets_info[k];
        if (!ri) {
            printf("ruleset %s (the daemon lists no scenarios for it)\n", h->rulesets[i]);
            continue;
        }
        printf("ruleset %s %s\n", ri->id, ri->version ? ri->version : "");
        for (size_t k = 0; k < ri->n_scenarios; k++) {
            const Berthier__V1__ScenarioInfo *sc = ri->scenarios[k];
            printf("  scenario %s: ", sc->name);
            if (sc->min_seats == sc->max_seats) printf("%u seats", sc->max_seats);
            else printf("%u to %u seats", sc->min_seats, sc->max_seats);
            s_print_list(" (seat 0..):", sc->seat_names, sc->n_seat_names);
            s_print_list("    options:", sc->options, sc->n_options);
        }
    }
    s_print_list("core options (every ruleset):", h->core_options, h->n_core_options);
    return EXIT_OK;
}

/* keygen keys/alice: make keys/ (mode 0700, one level) when it is not there, so that
 * keys go to a directory of their own (the repository ignores /keys/). */
static int s_make_parent(const char *name) {
    const char *slash = strrchr(name, '/');
    if (!slash || slash == name) return 0;
    char dir[PATH_MAX];
    if ((size_t)(slash - name) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(dir, name, (size_t)(slash - name));
    dir[slash - name] = '\0';
    if (mkdir(dir, 0700) == 0 || errno == EEXIST) return 0;
    return -1;
}

static int s_cmd_keygen(ctl *self, int argc, char **argv) {
    (void)self;
    const ctl_cmd *c = s_find("keygen");
    if (argc != 2) return s_usage_error(c, "expects NAME");
    brt_keypair kp;
    if (brt_keypair_generate(&kp) != 0) {
        fprintf(stderr, "berthierctl keygen: cannot generate a keypair\n");
        return EXIT_LOCAL;
    }
    if (s_make_parent(argv[1]) != 0) {
        fprintf(stderr, "berthierctl keygen: cannot make the directory of %s: %s\n", argv[1], strerror(errno));
        return EXIT_LOCAL;
    }
    if (brt_keypair_save(&kp, argv[1]) != 0) {
        fprintf(stderr, "berthierctl keygen: cannot write %s.key / %s.pub: %s\n", argv[1], argv[1],
                strerror(errno));
        return EXIT_LOCAL;
    }
    printf("%s\n", kp.public_z85);
    if (!self->quiet) fprintf(stderr, "wrote %s.key (secret, mode 0600) and %s.pub\n", argv[1], argv[1]);
    return EXIT_OK;
}

static int s_cmd_new(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("new");
    static const struct option opts[] = {
        {"ruleset", required_argument, NULL, 'r'},  {"scenario", required_argument, NULL, 's'},
        {"option", required_argument, NULL, 'o'},   {"seat-key", required_argument, NULL, 'k'},
        {"gen-keys", required_argument, NULL, 'g'}, {"seats", required_argument, NULL, 'n'},
        {"decision-ms", required_argument, NULL, 'd'}, {"bank-ms", required_argument, NULL, 'b'},
        {"forfeit", no_argument, NULL, 'f'},        {"spectator-key", required_argument, NULL, 'w'},
        S_HELP_OPT,                                 {NULL, 0, NULL, 0},
    };
    const char *ruleset = NULL, *scenario = NULL, *gen = NULL;
    enum { S_MAX_SPECTATORS = 64 };   /* GAME_MAX_SPECTATORS, docs/protocol.md P4.1 */
    char spec_keys[S_MAX_SPECTATORS][BRT_Z85_KEY_LEN + 1];
    const char *spec_ptrs[S_MAX_SPECTATORS];
    size_t n_spec = 0;
    const char *options[32];
    size_t n_options = 0;
    char keys[8][BRT_Z85_KEY_LEN + 1];
    const char *key_ptrs[8];
    size_t n_keys = 0;
    uint64_t seats = 2, dms = 0, bms = 0;
    int forfeit = 0, ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        switch (ch) {
        case 'r': ruleset = optarg; break;
        case 's': scenario = optarg; break;
        case 'o':
            if (n_options == 32) return s_usage_error(c, "too many --option");
            options[n_options++] = optarg;
            break;
        case 'k':
            if (n_keys == 8) return s_usage_error(c, "too many --seat-key");
            if (brt_pubkey_resolve(optarg, keys[n_keys]) != 0) {
                fprintf(stderr, "berthierctl new: %s is not a Z85 public key or a key file\n", optarg);
                return EXIT_LOCAL;
            }
            n_keys++;
            break;
        case 'g': gen = optarg; break;
        case 'n':
            if (s_parse_u64(optarg, &seats) != 0 || seats < 1 || seats > 8)
                return s_usage_error(c, "bad --seats %s", optarg);
            break;
        case 'd':
            if (s_parse_u64(optarg, &dms) != 0 || dms > UINT32_MAX)
                return s_usage_error(c, "bad --decision-ms %s", optarg);
            break;
        case 'b':
            if (s_parse_u64(optarg, &bms) != 0 || bms > UINT32_MAX)
                return s_usage_error(c, "bad --bank-ms %s", optarg);
            break;
        case 'f': forfeit = 1; break;
        case 'w':
            if (n_spec == S_MAX_SPECTATORS) return s_usage_error(c, "too many --spectator-key");
            if (brt_pubkey_resolve(optarg, spec_keys[n_spec]) != 0) {
                fprintf(stderr, "berthierctl new: %s is not a Z85 public key or a key file\n", optarg);
                return EXIT_LOCAL;
            }
            spec_ptrs[n_spec] = spec_keys[n_spec];
            n_spec++;
            break;
        default: return s_usage_error(c, "bad option");
        }
    }
    if (optind != argc) return s_usage_error(c, "unexpected argument %s", argv[optind]);
    if (!ruleset || !scenario) return s_usage_error(c, "--ruleset and --scenario are required");
    if (gen && n_keys) return s_usage_error(c, "give --seat-key or --gen-keys, not both");
    if (!gen && n_keys == 0) return s_usage_error(c, "give a --seat-key per seat, or --gen-keys PREFIX");
    if (gen) {
        for (size_t i = 0; i < seats; i++) {
            brt_keypair kp;
            char name[4096];
            snprintf(name, sizeof name, "%s%zu", gen, i);
            if (brt_keypair_generate(&kp) != 0 || brt_keypair_save(&kp, name) != 0) {
                fprintf(stderr, "berthierctl new: cannot write %s.key: %s\n", name, strerror(errno));
                return EXIT_LOCAL;
            }
            memcpy(keys[i], kp.public_z85, sizeof keys[i]);
            if (!self->quiet) fprintf(stderr, "seat %zu key: %s.key\n", i, name);
        }
        n_keys = seats;
    }
    for (size_t i = 0; i < n_keys; i++) key_ptrs[i] = keys[i];
    brt_game_spec spec = {ruleset, scenario, options, n_options, key_ptrs, n_keys,
                          (uint32_t)dms, (uint32_t)bms, forfeit, spec_ptrs, n_spec};
    char id[BRT_GAME_ID_MAX + 1];
    const Berthier__V1__Created *cr = NULL;
    S_CONNECT(self);
    if (brt_client_create(self->client, &spec, id, &cr) != 0) return s_fail(self);
    printf("%s\n", id);
    if (!self->quiet) {
        fprintf(stderr, "created game %s (%s %s, %zu seats)", id, ruleset, scenario, n_keys);
        if (cr->log_path && *cr->log_path) fprintf(stderr, ", log %s", cr->log_path);
        fprintf(stderr, "\n");
        for (size_t i = 0; i < cr->n_seats; i++)
            if (cr->seats[i]->name && *cr->seats[i]->name)
                fprintf(stderr, "seat %u: %s\n", cr->seats[i]->seat, cr->seats[i]->name);
    }
    return EXIT_OK;
}

/* ---- nonce chain files (dice=contributory) ------------------------------------------
 *
 * A chain file holds one line: "berthier-chain-v1 LENGTH TAIL\n", TAIL being the chain's
 * random tail in 64 hex digits. From it every link is recomputed (docs/dice.md), so
 * `reveal` needs no other state: batch b is answered with link b+1. The file is as
 * secret as a key (mode 0600): whoever reads it can reveal for the seat. */

#define S_CHAIN_LENGTH 16384
#define S_CHAIN_TAG "berthier-chain-v1"

static int s_chain_save(const brt_chain *chain, const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) return -1;
    char line[sizeof S_CHAIN_TAG + 24 + 65 + 2];
    char hex[65];
    s_hex(brt_chain_tail(chain), 32, hex);
    int n = snprintf(line, sizeof line, "%s %zu %s\n", S_CHAIN_TAG, brt_chain_length(chain), hex);
    int ok = n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) == n && fsync(fd) == 0;
    if (close(fd) != 0) ok = 0;
    if (!ok) unlink(path);
    return ok ? 0 : -1;
}

static brt_chain *s_chain_load(const char *path, char *why, size_t whylen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    char tag[32], hex[80];
    size_t length = 0;
    int n = fscanf(f, "%31s %zu %79s", tag, &length, hex);
    fclose(f);
    uint8_t tail[32];
    if (n != 3 || strcmp(tag, S_CHAIN_TAG) != 0 || strlen(hex) != 64) {
        snprintf(why, whylen, "%s is not a chain file (" S_CHAIN_TAG " LENGTH TAIL)", path);
        return NULL;
    }
    for (size_t i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
            snprintf(why, whylen, "%s: the tail is not hex", path);
            return NULL;
        }
        tail[i] = (uint8_t)v;
    }
    brt_chain *chain = brt_chain_from_tail(tail, length);
    if (!chain) snprintf(why, whylen, "%s: bad chain length %zu", path, length);
    return chain;
}

/* the --chain FILE option of join and reveal, and --next / --legal; leaves optind at the
 * first operand */
static int s_chain_option(const ctl_cmd *c, int argc, char **argv, const char **path, s_next_opts *o) {
    static const struct option opts[] = {
        {"chain", required_argument, NULL, 'c'}, S_NEXT_OPTS, S_HELP_OPT, {NULL, 0, NULL, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'c') {
            *path = optarg;
            continue;
        }
        if (s_next_opt(o, ch, optarg) != 1) return s_usage_error(c, "bad option");
    }
    return s_next_check(c, o);
}

static int s_cmd_join(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("join");
    const char *chain_path = NULL;
    s_next_opts no = {0};
    if (s_chain_option(c, argc, argv, &chain_path, &no) != 0) return EXIT_USAGE;
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT");
    const char *game = argv[optind];
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0) return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    S_CONNECT(self);
    brt_chain *chain = NULL;
    if (chain_path) {
        /* [docs/dice.md] the commitment is sent at join: the file must exist first, so that
         * a join that is accepted always leaves a chain the seat can reveal from */
        chain = brt_chain_new(S_CHAIN_LENGTH);
        if (!chain || s_chain_save(chain, chain_path) != 0) {
            fprintf(stderr, "berthierctl join: cannot create %s: %s\n", chain_path,
                    errno == EEXIST ? "it exists (a chain is used for one seat of one game)" : strerror(errno));
            brt_chain_destroy(&chain);
            return EXIT_LOCAL;
        }
    }
    const Berthier__V1__Joined *j = NULL;
    s_next_want(self, &no);
    int rc = chain ? brt_client_join_chain(self->client, game, seat, chain, &j)
                   : brt_client_join(self->client, game, seat, &j);
    brt_chain_destroy(&chain);
    if (rc != 0) {
        if (!chain_path && strstr(brt_client_message(self->client), "chain commitment"))
            fprintf(stderr, "berthierctl join: a dice=contributory game: join with --chain FILE\n");
        return s_fail(self);
    }
    printf("joined seat %u of %s at seq %" PRIu64 "; game %s\n", seat, game, j->seq,
           j->started ? "started" : "waits for the other seats");
    int krc = s_keep_receipt(self, game);
    int nrc = s_print_next(self, game, seat, &no, NULL);
    return nrc ? nrc : krc;
}

static int s_cmd_reveal(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("reveal");
    const char *chain_path = NULL;
    s_next_opts no = {0};
    if (s_chain_option(c, argc, argv, &chain_path, &no) != 0) return EXIT_USAGE;
    if (!chain_path) return s_usage_error(c, "needs --chain FILE (written by join --chain)");
    if (argc - optind != 3) return s_usage_error(c, "expects GAME SEAT BATCH");
    const char *game = argv[optind];
    unsigned seat;
    uint64_t batch;
    if (s_parse_seat(argv[optind + 1], &seat) != 0) return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    if (s_parse_u64(argv[optind + 2], &batch) != 0) return s_usage_error(c, "bad batch %s", argv[optind + 2]);
    S_CONNECT(self);
    char why[512];
    brt_chain *chain = s_chain_load(chain_path, why, sizeof why);
    if (!chain) {
        fprintf(stderr, "berthierctl reveal: %s\n", why);
        return EXIT_LOCAL;
    }
    if (brt_chain_seek(chain, batch) != 0) {
        fprintf(stderr, "berthierctl reveal: the chain in %s has %zu links: no link for batch %" PRIu64 "\n",
                chain_path, brt_chain_length(chain), batch);
        brt_chain_destroy(&chain);
        return EXIT_LOCAL;
    }
    s_next_want(self, &no);
    int rc = brt_client_reveal(self->client, game, seat, batch, chain);
    brt_chain_destroy(&chain);
    if (rc != 0) return s_fail(self);
    printf("revealed seat %u's nonce for dice batch %" PRIu64 " of %s\n", seat, batch, game);
    int krc = s_keep_receipt(self, game);
    int nrc = s_print_next(self, game, seat, &no, NULL);
    return nrc ? nrc : krc;
}

static int s_cmd_order(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("order");
    static const struct option opts[] = {
        {"seq", required_argument, NULL, 'q'}, S_NEXT_OPTS, S_HELP_OPT, {NULL, 0, NULL, 0}};
    uint64_t seq = 0;
    int have_seq = 0, ch;
    s_next_opts no = {0};
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'q') {
            if (s_parse_u64(optarg, &seq) != 0) return s_usage_error(c, "bad --seq %s", optarg);
            have_seq = 1;
        } else if (s_next_opt(&no, ch, optarg) != 1)
            return s_usage_error(c, "bad option");
    }
    if (s_next_check(c, &no) != 0) return EXIT_USAGE;
    if (argc - optind < 3) return s_usage_error(c, "expects GAME SEAT ORDER...");
    const char *game = argv[optind];
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0)
        return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    S_CONNECT(self);
    size_t len = 1;
    for (int i = optind + 2; i < argc; i++) len += strlen(argv[i]) + 1;
    char *text = malloc(len);
    if (!text) return EXIT_LOCAL;
    text[0] = '\0';
    for (int i = optind + 2; i < argc; i++) {
        if (i > optind + 2) strcat(text, " ");
        strcat(text, argv[i]);
    }
    if (!have_seq) {
        const Berthier__V1__Decision *d = NULL;
        if (brt_client_pending(self->client, game, seat, &d) != 0) {
            free(text);
            return s_fail(self);
        }
        seq = d->seq;
    }
    const Berthier__V1__Accepted *a = NULL;
    s_next_want(self, &no);
    int rc = brt_client_submit_text(self->client, game, seat, seq, text, &a);
    free(text);
    if (rc != 0) return s_fail(self);
    int krc = s_keep_receipt(self, game);
    printf("accepted seq %" PRIu64 "%s\n", a->seq, a->waiting ? " (sealed; waiting for the others)" : "");
    for (size_t i = 0; i < a->n_rolls; i++)
        printf("roll %" PRIu64 " d%u = %u %s\n", a->rolls[i]->index, a->rolls[i]->sides,
               a->rolls[i]->value, a->rolls[i]->purpose ? a->rolls[i]->purpose : "");
    s_print_events(a->events, a->n_events);
    if (a->view_hash.len) s_print_hex_line("view-hash ", &a->view_hash);
    if (a->state_hash.len) s_print_hex_line("state-hash ", &a->state_hash);
    int nrc = s_print_next(self, game, seat, &no, NULL);
    return nrc ? nrc : krc;
}

static int s_cmd_pending(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("pending");
    static const struct option opts[] = {
        {"legal", no_argument, NULL, 'L'}, {"limit", required_argument, NULL, 'l'},
        {"no-texts", no_argument, NULL, 'T'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    s_next_opts no = {0};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1)
        if (s_next_opt(&no, ch, optarg) != 1) return s_usage_error(c, "bad option");
    if (s_next_check(c, &no) != 0) return EXIT_USAGE;
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT");
    const char *game = argv[optind];
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0) return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    const Berthier__V1__Decision *d = NULL;
    S_CONNECT(self);
    s_next_want(self, &no);
    if (brt_client_pending(self->client, game, seat, &d) != 0) return s_fail(self);
    s_print_decision("", d);
    return s_print_next(self, game, seat, &no, d);
}

static int s_cmd_legal(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("legal");
    static const struct option opts[] = {
        {"limit", required_argument, NULL, 'l'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    uint64_t limit = 0;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'l' && s_parse_u64(optarg, &limit) == 0 && limit <= UINT32_MAX) continue;
        return s_usage_error(c, "bad option");
    }
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT");
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0)
        return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    const Berthier__V1__LegalOrders *lo = NULL;
    S_CONNECT(self);
    if (brt_client_legal(self->client, argv[optind], seat, (unsigned)limit, &lo) != 0)
        return s_fail(self);
    s_print_legal(self, "", lo);
    return EXIT_OK;
}

/* Write the picture to path whole or not at all (path.tmp, fsync, rename). */
static int s_write_file(const char *path, const char *data, size_t len) {
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
    }
    int ok = off == len && fsync(fd) == 0;
    if (close(fd) != 0) ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static int s_cmd_state(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("state");
    static const struct option opts[] = {
        {"svg", required_argument, NULL, 'g'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    const char *svg = NULL;
    int ch;
    optind = 0;   /* reinitialise getopt: options may follow GAME SEAT here */
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'g' && *optarg) svg = optarg;
        else return s_usage_error(c, "bad option");
    }
    if (argc - optind != 1 && argc - optind != 2) return s_usage_error(c, "expects GAME [SEAT]");
    const char *game = argv[optind];
    unsigned seat = 0;
    if (argc - optind == 2 && s_parse_seat(argv[optind + 1], &seat) != 0)
        return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    const Berthier__V1__StateView *v = NULL;
    S_CONNECT(self);
    if (brt_client_state(self->client, game, seat, BRT_STATE_TEXT | (svg ? BRT_STATE_SVG : 0), &v) != 0)
        return s_fail(self);
    printf("seq %" PRIu64 "\n", v->seq);
    /* mid-game only the hash of this seat's view (or the spectators'); the full state's hash after the end */
    if (v->state_hash.len) s_print_hex_line("state-hash ", &v->state_hash);
    if (v->view_hash.len) {
        s_print_hex_line("view-hash ", &v->view_hash);
        if (brt_view_hash_check(v, game, (int)seat) != 0 && brt_view_hash_check(v, game, -1) != 0 &&
            brt_view_hash_check(v, game, -2) != 0)
            fprintf(stderr, "berthierctl: warning: the view hash does not match the view received\n");
    }
    if (v->text && *v->text) {
        fputs(v->text, stdout);
        if (v->text[strlen(v->text) - 1] != '\n') putchar('\n');
    } else if (v->view.len)
        s_print_hex_line("view hex:", &v->view);
    if (svg) {
        if (!v->svg || !*v->svg) {
            fprintf(stderr, "berthierctl state: the ruleset draws no picture of game %s (or it has not started)\n",
                    game);
            return EXIT_REJECTED;
        }
        if (s_write_file(svg, v->svg, strlen(v->svg)) != 0) {
            fprintf(stderr, "berthierctl state: cannot write %s: %s\n", svg, strerror(errno));
            return EXIT_LOCAL;
        }
        if (!self->quiet) fprintf(stderr, "picture written to %s\n", svg);
    }
    return EXIT_OK;
}

static int s_cmd_query(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("query");
    static const struct option opts[] = {S_HELP_OPT, {NULL, 0, NULL, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) return s_usage_error(c, "bad option");
    if (argc - optind < 3) return s_usage_error(c, "expects GAME SEAT QUESTION...");
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0) return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    char text[256];
    size_t n = 0;
    for (int i = optind + 2; i < argc; i++) {
        size_t l = strlen(argv[i]);
        if (n + l + 2 > sizeof text) return s_usage_error(c, "the question is over %zu bytes", sizeof text - 1);
        if (n) text[n++] = ' ';
        memcpy(text + n, argv[i], l);
        n += l;
    }
    text[n] = '\0';
    const Berthier__V1__QueryAnswer *a = NULL;
    S_CONNECT(self);
    if (brt_client_query(self->client, argv[optind], seat, text, &a) != 0) return s_fail(self);
    if (a->text && *a->text) {
        fputs(a->text, stdout);
        if (a->text[strlen(a->text) - 1] != '\n') putchar('\n');
    }
    if (!self->quiet) fprintf(stderr, "answered at seq %" PRIu64 "\n", a->seq);
    return EXIT_OK;
}

static int s_cmd_events(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("events");
    static const struct option opts[] = {
        {"since", required_argument, NULL, 's'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    uint64_t since = 0;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 's' && s_parse_u64(optarg, &since) == 0) continue;
        return s_usage_error(c, "bad option");
    }
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT");
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0)
        return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    const Berthier__V1__EventList *el = NULL;
    S_CONNECT(self);
    if (brt_client_events(self->client, argv[optind], seat, since, &el) != 0) return s_fail(self);
    printf("seq %" PRIu64 "\n", el->seq);
    s_print_events(el->events, el->n_events);
    return EXIT_OK;
}

static int s_cmd_resign(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("resign");
    static const struct option opts[] = {{"next", no_argument, NULL, 'N'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    s_next_opts no = {0};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1)
        if (s_next_opt(&no, ch, optarg) != 1) return s_usage_error(c, "bad option");
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT");
    const char *game = argv[optind];
    unsigned seat;
    if (s_parse_seat(argv[optind + 1], &seat) != 0) return s_usage_error(c, "bad seat %s", argv[optind + 1]);
    S_CONNECT(self);
    s_next_want(self, &no);
    if (brt_client_resign(self->client, game, seat) != 0) return s_fail(self);
    printf("seat %u resigned %s\n", seat, game);
    int krc = s_keep_receipt(self, game);
    int nrc = s_print_next(self, game, seat, &no, NULL);
    return nrc ? nrc : krc;
}

/* Admins: end a game now, with no winner or a forfeit (docs/protocol.md P3). */
static int s_cmd_abort(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("abort");
    static const struct option opts[] = {{"reason", required_argument, NULL, 'r'},
                                         {"forfeit", required_argument, NULL, 'f'},
                                         S_HELP_OPT,
                                         {NULL, 0, NULL, 0}};
    const char *reason = "aborted by the operator";
    int forfeit = -1;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'r') {
            reason = optarg;
            continue;
        }
        unsigned seat;
        if (ch == 'f' && s_parse_seat(optarg, &seat) == 0) {
            forfeit = (int)seat;
            continue;
        }
        return s_usage_error(c, "bad option");
    }
    if (argc - optind != 1) return s_usage_error(c, "expects GAME");
    const char *game = argv[optind];
    S_CONNECT(self);
    if (brt_client_abort(self->client, game, reason, forfeit) != 0) return s_fail(self);
    if (forfeit >= 0)
        printf("aborted %s: seat %d forfeits\n", game, forfeit);
    else
        printf("aborted %s: no winner\n", game);
    return EXIT_OK;
}

/* The header a seat checks before joining (docs/protocol.md P3.1). */
static int s_cmd_header(ctl *self, int argc, char **argv) {
    const char *game;
    unsigned seat;
    int rc = s_game_seat(s_find("header"), argc, argv, &game, &seat);
    if (rc) return rc;
    S_CONNECT(self);
    const Berthier__V1__GameHeader *h = NULL;
    if (brt_client_header(self->client, game, seat, &h) != 0) return s_fail(self);
    Berthier__V1__LogHeader *lh = berthier__v1__log_header__unpack(NULL, h->header.len, h->header.data);
    if (!lh) return s_fail(self);
    printf("game %s\nruleset %s %s\nscenario %s\n", lh->game_id, lh->ruleset, lh->ruleset_version, lh->scenario);
    s_print_hex_line("header-hash ", &h->header_hash);
    s_print_hex_line("header-signature ", &h->signature);
    s_print_hex_line("dice-commit ", &lh->dice_commit);
    s_print_hex_line("server-sign-key ", &lh->server_sign_pk);
    uint8_t pk[32];
    brt_client_sign_pk(self->client, pk);
    ProtobufCBinaryData b = {32, pk};
    s_print_hex_line("your-sign-key ", &b);
    berthier__v1__log_header__free_unpacked(lh, NULL);
    return EXIT_OK;
}

static int s_cmd_games(ctl *self, int argc, char **argv) {
    (void)argv;
    if (argc != 1) return s_usage_error(s_find("games"), "expects no arguments");
    const Berthier__V1__GameList *gl = NULL;
    S_CONNECT(self);
    if (brt_client_games(self->client, &gl) != 0) return s_fail(self);
    for (size_t i = 0; i < gl->n_games; i++) {
        const Berthier__V1__GameSummary *g = gl->games[i];
        printf("%s %s %s seq %" PRIu64 " %s", g->game_id, g->ruleset, g->scenario, g->seq,
               g->result && g->result->ended ? "ended" : g->started ? "playing" : "joining");
        if (g->result && g->result->ended) {
            if (g->result->n_winners == 0) printf(" draw");
            else {
                printf(" winners");
                for (size_t k = 0; k < g->result->n_winners; k++)
                    printf("%s%u", k ? "," : " ", g->result->winners[k]);
            }
        }
        if (g->n_your_seats) {
            printf(" your-seats");
            for (size_t k = 0; k < g->n_your_seats; k++)
                printf("%s%u", k ? "," : " ", g->your_seats[k]);
        }
        printf("\n");
    }
    return EXIT_OK;
}

static int s_cmd_log(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("log");
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    const char *path = NULL;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+o:", opts, NULL)) != -1) {
        if (ch == 'o') path = optarg;
        else return s_usage_error(c, "bad option");
    }
    if (argc - optind != 1) return s_usage_error(c, "expects GAME");
    const char *game = argv[optind];
    char def[256];
    if (!path) {
        snprintf(def, sizeof def, "%s.log", game);
        path = def;
    }
    S_CONNECT(self);
    if (brt_client_fetch_log_file(self->client, game, path) != 0) {
        if (brt_client_error(self->client)[0] == '\0') {
            fprintf(stderr, "berthierctl log: cannot write %s: %s\n", path, strerror(errno));
            return EXIT_LOCAL;
        }
        return s_fail(self);
    }
    printf("%s\n", path);
    return EXIT_OK;
}

static volatile sig_atomic_t s_interrupted;
static void s_on_signal(int sig) {
    (void)sig;
    s_interrupted = 1;
}

static int s_hex_key(const char *hex, uint8_t key[BRT_EVENT_KEY_BYTES]) {
    if (strlen(hex) != 2 * BRT_EVENT_KEY_BYTES) return -1;
    for (size_t i = 0; i < BRT_EVENT_KEY_BYTES; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
        key[i] = (uint8_t)v;
    }
    return 0;
}

/* --html: bring the page up to date from the request socket, the source of truth
 * (PUB is lossy): the events after *seq this key may see, the decision, the state
 * with its picture. EXIT_OK, or the exit code of a failure. */
static int s_html_refresh(ctl *self, ctl_page *page, const char *game, unsigned seat, const char *path,
                          uint64_t *seq) {
    for (int round = 0; round < 1000; round++) {
        const Berthier__V1__EventList *el = NULL;
        if (brt_client_events(self->client, game, seat, *seq, &el) != 0) return s_fail(self);
        for (size_t i = 0; i < el->n_events; i++)
            if (ctl_page_add_event(page, el->events[i]->seq, el->events[i]->index, el->events[i]->text) != 0)
                return EXIT_LOCAL;
        int moved = el->seq != *seq;
        *seq = el->seq;
        if (!moved || el->n_events == 0) break;
    }
    const Berthier__V1__Decision *d = NULL;
    if (brt_client_pending(self->client, game, seat, &d) != 0) return s_fail(self);
    if (ctl_page_set_decision(page, d) != 0) return EXIT_LOCAL;
    uint64_t at = d->seq;
    const Berthier__V1__StateView *v = NULL;
    int rc;
    if (brt_client_state(self->client, game, seat, BRT_STATE_TEXT | BRT_STATE_SVG, &v) == 0) {
        rc = ctl_page_write(page, path, v->seq, v->svg, v->text,
                            v->svg && *v->svg ? NULL : "The ruleset draws no picture of this game.");
    } else {
        if (brt_client_code(self->client) == BRT_CLIENT_NO_REPLY) return s_fail(self);
        /* a delayed spectator sees the state only after the end: say why there is no board */
        rc = ctl_page_write(page, path, at, NULL, NULL, brt_client_error(self->client));
    }
    if (rc != 0) {
        fprintf(stderr, "berthierctl watch: cannot write %s: %s\n", path, strerror(errno));
        return EXIT_LOCAL;
    }
    return EXIT_OK;
}

/* --html, nothing heard for a while: has the game moved on without a notice reaching us? */
static int s_html_stale(ctl *self, const char *game, unsigned seat, uint64_t shown, int *stale) {
    const Berthier__V1__Decision *d = NULL;
    *stale = 0;
    if (brt_client_pending(self->client, game, seat, &d) != 0) return s_fail(self);
    *stale = d->seq != shown || (d->result && d->result->ended);
    return EXIT_OK;
}

static int s_cmd_watch(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("watch");
    static const struct option opts[] = {
        {"event-key", required_argument, NULL, 'e'}, {"timeout", required_argument, NULL, 't'},
        {"html", required_argument, NULL, 'H'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    const char *hexkey = NULL, *html = NULL;
    uint64_t timeout_s = 0;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'e') hexkey = optarg;
        else if (ch == 'H' && *optarg) html = optarg;
        else if (ch == 't' && s_parse_u64(optarg, &timeout_s) == 0) continue;
        else return s_usage_error(c, "bad option");
    }
    if (argc - optind != 2) return s_usage_error(c, "expects GAME SEAT (or GAME all)");
    const char *game = argv[optind];
    int seat = -1;
    uint8_t key[BRT_EVENT_KEY_BYTES];
    if (strcmp(argv[optind + 1], "all") != 0) {
        unsigned s;
        if (s_parse_seat(argv[optind + 1], &s) != 0)
            return s_usage_error(c, "bad seat %s", argv[optind + 1]);
        seat = (int)s;
        if (hexkey && s_hex_key(hexkey, key) != 0) return s_usage_error(c, "bad --event-key");
    }
    S_CONNECT(self);
    if (seat >= 0 && !hexkey) {
        if (brt_client_hello(self->client, game, (unsigned)seat, NULL) != 0) return s_fail(self);
        if (brt_client_event_key(self->client, key) != 0) {
            fprintf(stderr, "berthierctl watch: the daemon gave no event key for seat %d; "
                            "pass --event-key HEX (printed by join)\n", seat);
            return EXIT_REJECTED;
        }
    }
    if (!brt_client_events_endpoint(self->client)) {
        fprintf(stderr, "berthierctl watch: no events endpoint; pass --events ENDPOINT\n");
        return EXIT_USAGE;
    }
    brt_sub *sub = brt_client_subscribe(self->client, game, seat, seat >= 0 ? key : NULL);
    if (!sub) {
        fprintf(stderr, "berthierctl watch: cannot subscribe to %s\n",
                brt_client_events_endpoint(self->client));
        return EXIT_NO_REPLY;
    }
    signal(SIGINT, s_on_signal);
    signal(SIGTERM, s_on_signal);
    time_t end = timeout_s ? time(NULL) + (time_t)timeout_s : 0;
    int rc = EXIT_OK;
    /* --html: the page's queries name the seat watched, or seat 0 for a key without
     * one (a spectator or admin key: the daemon gives it the view it may have) */
    unsigned qseat = seat >= 0 ? (unsigned)seat : 0;
    char who[32];
    snprintf(who, sizeof who, "seat %d", seat);
    if (html && seat < 0) {
        /* a key without a seat: an admin sees everything, a spectator key what spectators may */
        const Berthier__V1__Hello *h = NULL;
        if (brt_client_hello(self->client, NULL, -1, &h) != 0) rc = s_fail(self);
        snprintf(who, sizeof who, "%s", h && h->admin ? "admins" : "spectators");
    }
    ctl_page *page = NULL;
    uint64_t seen = 0;
    int idle = 0;
    if (html && rc == EXIT_OK) {
        page = ctl_page_new(game, who);
        if (!page) rc = EXIT_LOCAL;
        else rc = s_html_refresh(self, page, game, qseat, html, &seen);
        if (rc == EXIT_OK && ctl_page_ended(page)) goto done;   /* over before we came */
    }
    while (rc == EXIT_OK && !s_interrupted) {
        if (end && time(NULL) >= end) {
            rc = EXIT_NO_REPLY;
            break;
        }
        Berthier__V1__Notice *n = NULL;
        int r = brt_sub_recv(sub, 250, &n);
        if (r < 0) {
            rc = EXIT_NO_REPLY;
            break;
        }
        if (r == 0) {
            /* a notice lost at the subscription's start or at the high-water mark:
             * every second of silence, look whether the game moved on regardless */
            int stale = 0;
            if (page && ++idle >= 4) {
                idle = 0;
                rc = s_html_stale(self, game, qseat, seen, &stale);
                if (rc == EXIT_OK && stale) rc = s_html_refresh(self, page, game, qseat, html, &seen);
                if (rc == EXIT_OK && ctl_page_ended(page)) break;
            }
            continue;
        }
        idle = 0;
        s_print_events(n->events, n->n_events);
        int ended = 0;
        if (n->decision) {
            const Berthier__V1__Decision *d = n->decision;
            if (d->result && d->result->ended) {
                s_print_result("", d->result);
                ended = 1;
            } else {
                printf("decision seq %" PRIu64 " turn %u %s%s%s\n", d->seq, d->turn,
                       d->kind ? d->kind : "", d->you_must_act ? " (your move)" : "",
                       "");
            }
        }
        fflush(stdout);
        berthier__v1__notice__free_unpacked(n, NULL);
        if (page) {
            rc = s_html_refresh(self, page, game, qseat, html, &seen);
            if (rc == EXIT_OK && ctl_page_ended(page)) break;
        }
        if (ended && !page) break;
    }
done:
    ctl_page_destroy(&page);
    brt_sub_destroy(&sub);
    return rc;
}

/* Keep every signed checkpoint the game's notices carry, until the game ends. */
static int s_cmd_witness(ctl *self, int argc, char **argv) {
    const ctl_cmd *c = s_find("witness");
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'}, {"seat", required_argument, NULL, 'n'},
        {"timeout", required_argument, NULL, 't'}, S_HELP_OPT, {NULL, 0, NULL, 0}};
    const char *out = NULL;
    uint64_t timeout_s = 0;
    int seat = -1, ch;
    unsigned s;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        if (ch == 'o') out = optarg;
        else if (ch == 'n' && s_parse_seat(optarg, &s) == 0) seat = (int)s;
        else if (ch == 't' && s_parse_u64(optarg, &timeout_s) == 0) continue;
        else return s_usage_error(c, "bad option");
    }
    if (argc - optind != 1) return s_usage_error(c, "expects GAME");
    if (!out) return s_usage_error(c, "needs --out FILE");
    const char *game = argv[optind];
    uint8_t key[BRT_EVENT_KEY_BYTES];
    S_CONNECT(self);
    if (seat >= 0) {
        if (brt_client_hello(self->client, game, seat, NULL) != 0) return s_fail(self);
        if (brt_client_event_key(self->client, key) != 0) {
            fprintf(stderr, "berthierctl witness: the daemon gave no event key for seat %d\n", seat);
            return EXIT_REJECTED;
        }
    }
    if (!brt_client_events_endpoint(self->client)) {
        fprintf(stderr, "berthierctl witness: no events endpoint; pass --events ENDPOINT\n");
        return EXIT_USAGE;
    }
    brt_sub *sub = brt_client_subscribe(self->client, game, seat, seat >= 0 ? key : NULL);
    if (!sub) {
        fprintf(stderr, "berthierctl witness: cannot subscribe to %s\n", brt_client_events_endpoint(self->client));
        return EXIT_NO_REPLY;
    }
    signal(SIGINT, s_on_signal);
    signal(SIGTERM, s_on_signal);
    if (!self->quiet) {
        printf("witnessing %s on %s\n", game, seat >= 0 ? "the seat's stream" : "the spectators' stream");
        fflush(stdout);
    }
    time_t end = timeout_s ? time(NULL) + (time_t)timeout_s : 0;
    int rc = EXIT_OK;
    unsigned kept = 0;
    while (!s_interrupted) {
        if (end && time(NULL) >= end) {
            rc = EXIT_NO_REPLY;
            break;
        }
        Berthier__V1__Notice *n = NULL;
        int r = brt_sub_recv(sub, 250, &n);
        if (r < 0) {
            rc = EXIT_NO_REPLY;
            break;
        }
        if (r == 0) continue;
        int ended = n->decision && n->decision->result && n->decision->result->ended;
        if (n->checkpoint && n->game_id && strcmp(n->game_id, game) == 0) {
            if (brt_witness_append(out, game, n->checkpoint) != 0) {
                fprintf(stderr, "berthierctl witness: cannot append to %s: %s\n", out, strerror(errno));
                berthier__v1__notice__free_unpacked(n, NULL);
                rc = EXIT_LOCAL;
                break;
            }
            kept++;
            if (!self->quiet) printf("head %" PRIu64 " of %s kept\n", n->checkpoint->record, game);
        }
        fflush(stdout);
        berthier__v1__notice__free_unpacked(n, NULL);
        if (ended) break;
    }
    brt_sub_destroy(&sub);
    if (!self->quiet && rc == EXIT_OK) printf("%u head%s of %s in %s\n", kept, kept == 1 ? "" : "s", game, out);
    return rc;
}

static int s_cmd_help(ctl *self, int argc, char **argv);

static const ctl_cmd s_cmds[] = {
    {"hello", "[GAME SEAT]", "check the connection; engine version, rulesets, admin or not",
     "With GAME SEAT (and that seat's --key) it also prints the seat's event key.", 1,
     s_cmd_hello},
    {"rulesets", "", "list each ruleset's scenarios, their seats and the options each takes",
     "Give new's --scenario and --option these names. The core options go to every ruleset.", 1,
     s_cmd_rulesets},
    {"keygen", "NAME", "make a Curve keypair: NAME.key (secret, 0600) and NAME.pub",
     "Prints the public key. Give NAME.pub to whoever creates the game; keep NAME.key.\n"
     "NAME is a path: keygen keys/alice writes keys/alice.key, making keys/ (0700) if\n"
     "needed. Keep keys out of a source tree (the repository ignores /keys/).", 0,
     s_cmd_keygen},
    {"new",
     "--ruleset R --scenario S [--option NAME[=VALUE]]... (--seat-key KEY... | --gen-keys PREFIX "
     "[--seats N]) [--decision-ms MS] [--bank-ms MS] [--forfeit] [--spectator-key KEY]...",
     "create a game (admin); prints its id",
     "--seat-key once per seat, in seat order: a Z85 public key or a .pub/.key file.\n"
     "--spectator-key KEY (same forms, up to 64): a key that may watch the game (pending,\n"
     "events; the state and the log after the end, the state all along with spectators=live),\n"
     "never act for a seat.\n"
     "--gen-keys PREFIX writes PREFIX0.key, PREFIX1.key, ... for --seats N (default 2).\n"
     "Clock: --decision-ms per decision, --bank-ms time bank per seat, --forfeit: running\n"
     "out forfeits the game (otherwise the rules' default applies).",
     1, s_cmd_new},
    {"join", "[--chain FILE] [--next | --legal [--limit N] [--no-texts]] GAME SEAT",
     "join a seat (with its --key); sends 32 bytes of fresh entropy",
     "dice=contributory games: --chain FILE makes a nonce chain, keeps it in FILE (0600, secret;\n"
     "the file must not exist) and sends its commitment; answer each dice-nonce decision\n"
     "with `reveal --chain FILE GAME SEAT BATCH`.\n"
     "--next: also print the seat's decision after it, from the same reply (each line after\n"
     "\"next \", as pending prints it); --legal: that and, when the seat must act, its legal\n"
     "orders (each after \"legal \"; --limit N at most N, --no-texts encoded as hex: only).",
     1, s_cmd_join},
    {"reveal", "--chain FILE [--next | --legal [--limit N] [--no-texts]] GAME SEAT BATCH",
     "dice=contributory: reveal the seat's nonce for a dice batch (pending names it)",
     "FILE is the chain file that `join --chain` wrote for this seat (docs/dice.md).\n"
     "--next: also print the seat's decision after it, from the same reply (each line after\n"
     "\"next \", as pending prints it); --legal: that and, when the seat must act, its legal\n"
     "orders (each after \"legal \"; --limit N at most N, --no-texts encoded as hex: only).", 1, s_cmd_reveal},
    {"order", "[--seq N] [--next | --legal [--limit N] [--no-texts]] GAME SEAT ORDER...",
     "submit an order in the ruleset's text syntax (docs/orders.md lists each)",
     "Without --seq the order cites the game's current seq (fetched first); with --seq it\n"
     "cites N, and the daemon answers STALE if the game has moved since.\n"
     "--next: also print the seat's decision after it, from the same reply (each line after\n"
     "\"next \", as pending prints it); --legal: that and, when the seat must act, its legal\n"
     "orders (each after \"legal \"; --limit N at most N, --no-texts encoded as hex: only).\n"
     "A bot's turn is then one call: order --seq N --legal, N being the printed next seq.",
     1, s_cmd_order},
    {"pending", "[--legal [--limit N] [--no-texts]] GAME SEAT",
     "the decision in front of the game: seq, turn, who, what, result",
     "--legal: also the seat's legal orders when it must act, from the same reply (each line\n"
     "after \"legal \"; --limit N at most N, --no-texts encoded as hex: only).",
     1, s_cmd_pending},
    {"legal", "[--limit N] GAME SEAT", "the seat's legal orders, one per line", NULL, 1,
     s_cmd_legal},
    {"state", "[--svg FILE] GAME [SEAT]", "the game as the seat (or this spectator or admin key) may see it",
     "SEAT defaults to 0; a spectator or admin key gets its own view whatever SEAT says: a\n"
     "spectator of a spectators=live game what every seat may see, others after the end.\n"
     "--svg FILE: also save the ruleset's picture of that view (docs/render.md) to FILE;\n"
     "exit 1 when the ruleset draws none.",
     1, s_cmd_state},
    {"query", "GAME SEAT QUESTION...", "ask the ruleset a question about the state, as the seat may see it",
     "The question is in the ruleset's own words (wem: docs/wem-query.md, e.g.\n"
     "`reach B12 R3`); the answer is text for people. Spectator and admin keys get the view\n"
     "`state` would give them. Exit 1 when the ruleset answers no questions.",
     1, s_cmd_query},
    {"events", "[--since SEQ] GAME SEAT", "the events the seat may see, after SEQ", NULL, 1,
     s_cmd_events},
    {"watch", "[--event-key HEX] [--timeout S] [--html FILE] GAME SEAT|all",
     "follow a seat's event stream (or the spectators' with all) until the game ends",
     "A seat's stream is sealed with its event key, which the daemon gives to that seat's key.\n"
     "--html FILE: keep FILE a self-contained page of the game as this key may see it (the\n"
     "picture, the decision, the recent events newest first, the result at the end), rewritten\n"
     "whole at the start and after each notice; it reloads itself every 2 s until the end.\n"
     "Exit 3 when --timeout seconds pass first.",
     1, s_cmd_watch},
    {"witness", "--out FILE [--seat N] [--timeout S] GAME",
     "keep every signed checkpoint the game's notices carry in FILE, until the game ends",
     "FILE gets one line per checkpoint: GAME RECORD HEAD SIGNATURE (hex). Check that a log\n"
     "extends every head with: berthier-replay verify LOG --heads FILE. Without --seat it\n"
     "follows the spectators' stream (live with spectators=live, else only the end); with\n"
     "--seat N (and that seat's --key) the seat's sealed stream. Exit 3 when --timeout passes first.",
     1, s_cmd_witness},
    {"resign", "[--next] GAME SEAT", "resign the seat",
     "--next: also print the seat's decision after it (each line after \"next \").", 1, s_cmd_resign},
    {"abort", "[--reason TEXT] [--forfeit SEAT] GAME", "end a game now (admins): no winner, or SEAT forfeits",
     "The ABORT is logged as an input; the log verifies as a finished game. TEXT: 1 to 120\n"
     "printable ASCII bytes, quoted in the result.",
     1, s_cmd_abort},
    {"header", "GAME SEAT", "the game's header, checked: your key at SEAT, the dice commitment, the server key",
     "Prints the header hash your join signs, the dice commitment, the server's signing key and\n"
     "your seat signing key (derived from --key). join, order, reveal and resign check the\n"
     "header and sign by themselves (docs/protocol.md P3.1).",
     1, s_cmd_header},
    {"games", "", "list games: id ruleset scenario seq state result", NULL, 1, s_cmd_games},
    {"log", "[-o FILE] GAME", "download a game's log (default GAME.log); prints the path",
     "Check it with: berthier-replay verify FILE", 1, s_cmd_log},
    {"help", "[COMMAND]", "this text, or a command's", NULL, 0, s_cmd_help},
};
#define S_NCMDS (sizeof s_cmds / sizeof s_cmds[0])

static const ctl_cmd *s_find(const char *name) {
    for (size_t i = 0; i < S_NCMDS; i++)
        if (strcmp(s_cmds[i].name, name) == 0) return &s_cmds[i];
    return NULL;
}

static void s_cmd_usage(FILE *f, const ctl_cmd *c) {
    fprintf(f, "usage: berthierctl [GLOBAL OPTIONS] %s %s\n", c->name, c->usage);
}

static void s_usage(FILE *f) {
    fprintf(f,
            "usage: berthierctl [GLOBAL OPTIONS] COMMAND [ARGS]\n"
            "\n"
            "Global options:\n"
            "  --data-dir DIR     the daemon's data dir (default $STATE_DIRECTORY or ./var/berthier):\n"
            "                     endpoint ipc://DIR/berthier.sock, DIR/server.pub, DIR/admin.key\n"
            "  --connect ENDPOINT request endpoint (ipc://PATH or tcp://HOST:PORT)\n"
            "  --events ENDPOINT  the daemon's PUB endpoint (for watch over tcp)\n"
            "  --server-key KEY   the daemon's public key: Z85, or a file such as server.pub\n"
            "  --key FILE         your keypair file (NAME.key from keygen; default DIR/admin.key)\n"
            "  --timeout MS       give up after MS without a reply (default 30000)\n"
            "  --quiet            no informational lines on stderr\n"
            "  --receipts FILE    append the receipts of join, order, reveal and resign to FILE (default\n"
            "                     $BERTHIER_RECEIPTS_DIR/GAME.receipts, directory ./receipts; - keeps none)\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < S_NCMDS; i++) fprintf(f, "  %-9s %s\n", s_cmds[i].name, s_cmds[i].summary);
    fprintf(f,
            "\n"
            "Exit codes: 0 done; 1 rejected by the daemon (one line: rejected CODE [rule] message);\n"
            "2 usage error; 3 no reply (connection or timeout); 4 local file error.\n"
            "berthierctl COMMAND --help shows a command's arguments.\n");
}

static void s_cmd_full_help(FILE *f, const ctl_cmd *c) {
    s_cmd_usage(f, c);
    fprintf(f, "\n%s.\n", c->summary);
    if (c->help) fprintf(f, "\n%s\n", c->help);
    fprintf(f, "\nExit codes: 0 done; 1 rejected; 2 usage; 3 no reply; 4 local file error.\n");
}

static int s_cmd_help(ctl *self, int argc, char **argv) {
    (void)self;
    if (argc >= 2) {
        const ctl_cmd *c = s_find(argv[1]);
        if (!c) {
            fprintf(stderr, "berthierctl: no command %s\n", argv[1]);
            return EXIT_USAGE;
        }
        s_cmd_full_help(stdout, c);
        return EXIT_OK;
    }
    s_usage(stdout);
    return EXIT_OK;
}

int main(int argc, char **argv) {
    ctl self;
    memset(&self, 0, sizeof self);
    static const struct option opts[] = {
        {"data-dir", required_argument, NULL, 'D'}, {"connect", required_argument, NULL, 'c'},
        {"events", required_argument, NULL, 'e'},   {"server-key", required_argument, NULL, 's'},
        {"key", required_argument, NULL, 'k'},      {"timeout", required_argument, NULL, 't'},
        {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
        {"receipts", required_argument, NULL, 'R'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    opterr = 1;
    while ((ch = getopt_long(argc, argv, "+hq", opts, NULL)) != -1) {
        switch (ch) {
        case 'D': self.conn.data_dir = optarg; break;
        case 'c': self.conn.endpoint = optarg; break;
        case 'e': self.conn.events_endpoint = optarg; break;
        case 's': self.conn.server_key = optarg; break;
        case 'k': self.conn.key_file = optarg; break;
        case 't': {
            uint64_t v;
            if (s_parse_u64(optarg, &v) != 0 || v == 0 || v > 86400000) {
                fprintf(stderr, "berthierctl: bad --timeout %s\n", optarg);
                return EXIT_USAGE;
            }
            self.timeout_ms = (int)v;
            break;
        }
        case 'q': self.quiet = 1; break;
        case 'R': self.receipts = optarg; break;
        case 'h': s_usage(stdout); return EXIT_OK;
        default: s_usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        s_usage(stderr);
        return EXIT_USAGE;
    }
    const ctl_cmd *c = s_find(argv[optind]);
    if (!c) {
        fprintf(stderr, "berthierctl: no command %s (berthierctl --help lists them)\n", argv[optind]);
        return EXIT_USAGE;
    }
    int sub_argc = argc - optind;
    char **sub_argv = argv + optind;
    if (s_want_help(sub_argc, sub_argv)) {
        s_cmd_full_help(stdout, c);
        return EXIT_OK;
    }
    int rc = c->run(&self, sub_argc, sub_argv);
    fflush(stdout);
    brt_client_destroy(&self.client);
    return rc;
}
