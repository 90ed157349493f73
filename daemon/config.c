/* config.c - settings table shared by the command line and the config file. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { S_STR, S_SIZE, S_INT, S_UINT } s_type;

typedef struct {
    const char *key;    /* config-file key and long flag name (--key) */
    s_type type;
    size_t offset;
    size_t size;        /* for strings */
    long long min, max; /* for numbers */
    const char *help;
} s_setting;

#define S_STR_FIELD(f) S_STR, offsetof(bd_config, f), sizeof(((bd_config *)0)->f), 0, 0
#define S_NUM_FIELD(t, f, lo, hi) t, offsetof(bd_config, f), 0, lo, hi

static const s_setting s_settings[] = {
    {"data-dir", S_STR_FIELD(data_dir), "directory of keys and game logs"},
    {"listen", S_STR_FIELD(listen), "request endpoint (ROUTER), ipc:// or tcp://"},
    {"publish", S_STR_FIELD(publish), "event endpoint (PUB), ipc:// or tcp://"},
    {"max-message", S_NUM_FIELD(S_SIZE, max_message, 1024, 64 << 20),
     "largest request in bytes (larger: CODE_TOO_LARGE)"},
    {"hwm", S_NUM_FIELD(S_INT, hwm, 1, 1000000), "send/receive high-water mark in messages"},
    {"heartbeat", S_NUM_FIELD(S_INT, heartbeat_ms, 100, 3600000), "heartbeat interval in ms"},
    {"batch", S_NUM_FIELD(S_UINT, batch, 1, 100000), "most requests per commit round"},
    {"rate", S_NUM_FIELD(S_UINT, rate, 0, 10000000), "requests per second per key (0 = no limit)"},
    {"burst", S_NUM_FIELD(S_UINT, burst, 1, 10000000), "burst size of the rate limit"},
    {"share", S_NUM_FIELD(S_UINT, share, 1, 100000),
     "most frames one key may have in a commit round that other keys share"},
    {"dedupe", S_NUM_FIELD(S_SIZE, dedupe, 16, 100000000), "replies remembered for retries"},
    {"abuse-malformed", S_NUM_FIELD(S_UINT, abuse_malformed, 0, 100000000),
     "malformed frames of one key per window before it is cut and banned (0 = never)"},
    {"abuse-busy", S_NUM_FIELD(S_UINT, abuse_busy, 0, 100000000),
     "BUSY refusals of one key per window before it is cut and banned (0 = never)"},
    {"abuse-window", S_NUM_FIELD(S_UINT, abuse_window, 1, 86400), "window of the abuse counts, in seconds"},
    {"ban-seconds", S_NUM_FIELD(S_UINT, ban_seconds, 0, 86400 * 365),
     "how long a cut key is refused at the handshake (0 = cut only)"},
    {"reply-budget", S_NUM_FIELD(S_SIZE, reply_budget, 0, 1ll << 40),
     "unsent reply bytes per connection; over it the connection's frames are dropped (0 = no bound)"},
    {"key-reply-budget", S_NUM_FIELD(S_SIZE, key_reply_budget, 0, 1ll << 40),
     "unsent reply bytes per key; over it the key's frames get CODE_BUSY (0 = no bound)"},
    {"key-connections", S_NUM_FIELD(S_UINT, key_connections, 0, 1000000),
     "live connections served per key; more get CODE_TOO_MANY_CONNECTIONS (0 = no cap)"},
    {"journal", S_NUM_FIELD(S_UINT, journal, 0, 1),
     "1: a commit round is one append and one fdatasync of a shared journal; 0: one fdatasync per touched log"},
    {"journal-size", S_NUM_FIELD(S_SIZE, journal_size, 4096, 1ll << 40),
     "bytes of journal after which the logs are fdatasynced and the journal is emptied"},
    {"reveal-deadline", S_NUM_FIELD(S_UINT, reveal_deadline_ms, 0, 86400000),
     "ms a seat of a dice=contributory game without a clock has to reveal its nonce, else it forfeits (0 = never)"},
};
#define S_NSETTINGS (sizeof s_settings / sizeof s_settings[0])

void config_defaults(bd_config *self, const char *state_directory) {
    memset(self, 0, sizeof *self);
    const char *dir = "./var/berthier";
    if (state_directory && *state_directory) {
        /* systemd may list several directories separated by ':'; use the first. */
        size_t n = strcspn(state_directory, ":");
        if (n < sizeof self->data_dir) {
            memcpy(self->data_dir, state_directory, n);
            self->data_dir[n] = 0;
            dir = NULL;
        }
    }
    if (dir) snprintf(self->data_dir, sizeof self->data_dir, "%s", dir);
    self->max_message = 1u << 20;
    self->hwm = 10000;
    self->heartbeat_ms = 10000;
    self->batch = 1024;
    self->rate = 50000;
    self->burst = 50000;
    self->share = 16;
    self->dedupe = 65536;
    self->abuse_malformed = 32;
    self->abuse_busy = 10000;
    self->abuse_window = 10;
    self->ban_seconds = 30;
    self->reply_budget = 1u << 20;
    self->key_reply_budget = 8u << 20;
    self->key_connections = 32;
    self->reveal_deadline_ms = 300000;
    self->journal = 1;
    self->journal_size = 8u << 20;
}

static const s_setting *s_find(const char *key) {
    for (size_t i = 0; i < S_NSETTINGS; i++)
        if (strcmp(s_settings[i].key, key) == 0) return &s_settings[i];
    return NULL;
}

int config_set(bd_config *self, const char *key, const char *value, char *err, size_t errlen) {
    const s_setting *s = s_find(key);
    if (!s) {
        snprintf(err, errlen, "unknown setting '%s'", key);
        return -1;
    }
    char *field = (char *)self + s->offset;
    if (s->type == S_STR) {
        size_t n = strlen(value);
        if (n == 0 || n >= s->size) {
            snprintf(err, errlen, "%s: value must be 1 to %zu characters", key, s->size - 1);
            return -1;
        }
        memcpy(field, value, n + 1);
        return 0;
    }
    errno = 0;
    char *end = NULL;
    if (!isdigit((unsigned char)value[0])) goto bad;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || !end || end == value) goto bad;
    if (*end == 'k' || *end == 'K') v *= 1024, end++;
    else if (*end == 'm' || *end == 'M') v *= 1024 * 1024, end++;
    if (*end) goto bad;
    if ((long long)v < s->min || (long long)v > s->max || v > (unsigned long long)s->max) goto bad;
    switch (s->type) {
    case S_SIZE: *(size_t *)field = (size_t)v; break;
    case S_INT: *(int *)field = (int)v; break;
    case S_UINT: *(unsigned *)field = (unsigned)v; break;
    default: break;
    }
    return 0;
bad:
    snprintf(err, errlen, "%s: '%s' is not a number from %lld to %lld", key, value, s->min, s->max);
    return -1;
}

static char *s_trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
    return s;
}

int config_parse_text(bd_config *self, const char *text, char *err, size_t errlen) {
    char *copy = strdup(text);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0, lineno = 0;
    char *p = copy;
    while (p && *p) {
        lineno++;
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        char *line = p;
        p = nl ? nl + 1 : NULL;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        line = s_trim(line);
        if (!*line) continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            snprintf(err, errlen, "line %d: expected 'key = value'", lineno);
            rc = -1;
            break;
        }
        *eq = 0;
        char *key = s_trim(line), *value = s_trim(eq + 1);
        char e2[200];
        if (config_set(self, key, value, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "line %d: %s", lineno, e2);
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

static int s_load_file(bd_config *self, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open config file %s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap || !text) {
            cap = (len + n + 1) * 2;
            if (cap > (1u << 20)) {
                free(text);
                fclose(f);
                snprintf(err, errlen, "config file %s is larger than 1 MiB", path);
                return -1;
            }
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            text = t;
        }
        memcpy(text + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!text) return 0;
    text[len] = 0;
    char e2[300];
    int rc = config_parse_text(self, text, e2, sizeof e2);
    free(text);
    if (rc) snprintf(err, errlen, "%s: %s", path, e2);
    return rc;
}

const char *config_usage(void) {
    static char text[8192];
    if (text[0]) return text;
    size_t off = (size_t)snprintf(text, sizeof text,
        "usage: berthierd [options]\n"
        "  --config FILE        read settings from FILE (key = value lines) first\n"
        "  --help               print this text\n"
        "  --version            print the engine version\n");
    for (size_t i = 0; i < S_NSETTINGS && off < sizeof text; i++)
        off += (size_t)snprintf(text + off, sizeof text - off, "  --%-18s %s\n",
                                s_settings[i].key, s_settings[i].help);
    return text;
}

int config_from_args(bd_config *self, int argc, char **argv, const char *state_directory,
                     char *err, size_t errlen) {
    config_defaults(self, state_directory);
    /* First pass: --help, --version, --config. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) self->help = 1;
        else if (strcmp(argv[i], "--version") == 0) self->version = 1;
        else if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "--config needs a value");
                return -1;
            }
            snprintf(self->config, sizeof self->config, "%s", argv[++i]);
        } else if (strncmp(argv[i], "--config=", 9) == 0)
            snprintf(self->config, sizeof self->config, "%s", argv[i] + 9);
    }
    if (self->help || self->version) return 0;
    if (self->config[0] && s_load_file(self, self->config, err, errlen) != 0) return -1;
    /* Second pass: every other flag, in the order given. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--config") == 0) {
            i++;
            continue;
        }
        if (strncmp(a, "--config=", 9) == 0) continue;
        if (strncmp(a, "--", 2) != 0) {
            snprintf(err, errlen, "unexpected argument '%s' (see --help)", a);
            return -1;
        }
        char key[64];
        const char *value = NULL;
        const char *eq = strchr(a + 2, '=');
        size_t klen = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if (klen >= sizeof key) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", a);
            return -1;
        }
        memcpy(key, a + 2, klen);
        key[klen] = 0;
        if (!s_find(key)) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", a);
            return -1;
        }
        if (eq) value = eq + 1;
        else if (i + 1 < argc) value = argv[++i];
        else {
            snprintf(err, errlen, "--%s needs a value", key);
            return -1;
        }
        if (config_set(self, key, value, err, errlen) != 0) return -1;
    }
    if (!self->listen[0] &&
        snprintf(self->listen, sizeof self->listen, "ipc://%s/berthier.sock", self->data_dir) >=
            (int)sizeof self->listen) {
        snprintf(err, errlen, "data dir path too long");
        return -1;
    }
    if (!self->publish[0] &&
        snprintf(self->publish, sizeof self->publish, "ipc://%s/events.sock", self->data_dir) >=
            (int)sizeof self->publish) {
        snprintf(err, errlen, "data dir path too long");
        return -1;
    }
    return 0;
}
