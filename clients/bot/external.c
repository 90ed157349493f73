/*
 * external.c - bots in any language: a child program that reads decisions on
 * its stdin and answers orders on its stdout, one line each (docs/bots.md).
 *
 *   runner -> program, once:      berthier-bots 1
 *                                 game <game_id> <ruleset> <scenario>
 *                                 seat <seat> of <n_seats>
 *   for every decision:           decision <seq> turn <turn> kind <kind> rule <rule>
 *                                 prompt <text>
 *                                 legal <n>
 *                                 <order text> (n lines)
 *                                 go
 *   program -> runner:            one line: an order text, "@<k>" (the k-th listed
 *                                 order, from 0), or "resign"
 *   after a rejected answer:      rejected <one-line error>   (then the decision again)
 *   at the end:                   end <result line>           (then stdin is closed)
 *
 * Protocol 2 (the program asks for it by answering "protocol 2", at any time,
 * usually at once after the header): the runner answers "protocol 2 ok" and from
 * then on (the decision it was answering is sent again) every decision block
 * also carries the seat's view and the events since the previous block:
 *
 *                                 decision ... / prompt ... (as above)
 *                                 view <m>
 *                                 <the view's text> (m lines)
 *                                 view-json <the ruleset's View message as JSON>
 *                                 events <k>
 *                                 event <seq> <index> <text>    \  k pairs
 *                                 event-json <Event as JSON>    /
 *                                 legal <n> ... go (as above)
 *
 * The runner keeps asking the daemon while the program thinks; when the
 * decision goes away (the daemon's clock ran out and the game moved on) the
 * answer to it, whenever it comes, is read and dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "duel/v1/duel.pb-c.h"
#include "n20/v1/n20.pb-c.h"
#include "pbjson.h"
#ifdef BERTHIER_BOT_WEM
#include "wem/v1/wem.pb-c.h"
#endif

extern char **environ;

typedef struct s_ext {
    pid_t pid;
    int to_child;     /* its stdin */
    int from_child;   /* its stdout */
    char buf[8192];
    size_t len;
    unsigned owed;    /* answers still due for decisions we abandoned */
    int dead;
    int v2;           /* the program asked for protocol 2 */
    int v1_answered;  /* it answered a decision in protocol 1: it will not ask */
    const ProtobufCMessageDescriptor *view_desc;  /* the ruleset's View, NULL if unknown */
    const ProtobufCMessageDescriptor *event_desc; /* the ruleset's Event */
} s_ext;

/* The rulesets whose View and Event messages the runner can show as JSON. */
static const struct {
    const char *ruleset;
    const ProtobufCMessageDescriptor *view, *event;
} s_messages[] = {
    {"duel", &duel__v1__view__descriptor, &duel__v1__event__descriptor},
    {"n20", &n20__v1__view__descriptor, &n20__v1__event__descriptor},
#ifdef BERTHIER_BOT_WEM
    {"wem", &wem__v1__view__descriptor, &wem__v1__event__descriptor},
#endif
};

static int s_write_all(s_ext *self, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(self->to_child, s, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            self->dead = 1;
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Write one line; newlines inside `text` become spaces. */
static int s_line(s_ext *self, const char *prefix, const char *text) {
    size_t n = strlen(prefix) + (text ? strlen(text) : 0) + 2;
    char *line = malloc(n);
    if (!line) return -1;
    snprintf(line, n, "%s%s", prefix, text ? text : "");
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    strcat(line, "\n");
    int rc = s_write_all(self, line, strlen(line));
    free(line);
    return rc;
}

static void *s_ext_create(uint64_t seed, const char *program, const bot_view *start) {
    (void)seed;
    signal(SIGPIPE, SIG_IGN);
    s_ext *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        free(self);
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        free(self);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    /* Its own process group, so that the whole program (sh and what it runs) can be stopped. */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    char *argv[] = {"/bin/sh", "-c", (char *)program, NULL};
    int rc = posix_spawn(&self->pid, "/bin/sh", &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    self->to_child = in[1];
    self->from_child = out[0];
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        free(self);
        return NULL;
    }
    char line[512];
    snprintf(line, sizeof line, "berthier-bots 1\ngame %s %s %s\nseat %u of %u\n", start->game_id,
             start->ruleset ? start->ruleset : "-", start->scenario ? start->scenario : "-",
             start->seat, start->n_seats);
    s_write_all(self, line, strlen(line));
    for (size_t i = 0; start->ruleset && i < sizeof s_messages / sizeof s_messages[0]; i++)
        if (strcmp(start->ruleset, s_messages[i].ruleset) == 0) {
            self->view_desc = s_messages[i].view;
            self->event_desc = s_messages[i].event;
        }
    return self;
}

/* "<prefix><JSON of bytes as desc>", or "<prefix>null" when it cannot be decoded. */
static int s_json_line(s_ext *self, const char *prefix, const ProtobufCMessageDescriptor *desc,
                       const uint8_t *data, size_t len, int have) {
    char *json = have ? pbjson_encode_bytes(desc, data, len, NULL) : NULL;
    int rc = s_line(self, prefix, json ? json : "null");
    free(json);
    return rc;
}

/* Protocol 2: the view (text and JSON) and the events since the previous block. */
static int s_v2_lines(s_ext *self, const bot_view *v) {
    char head[128];
    const char *text = v->view_text ? v->view_text : "";
    size_t m = 0;
    for (const char *c = text; *c; c++)
        if (*c == '\n') m++;
    if (*text && text[strlen(text) - 1] != '\n') m++;
    snprintf(head, sizeof head, "view %zu", m);
    if (s_line(self, "", head) != 0) return -1;
    for (const char *c = text; *c;) {
        const char *nl = strchr(c, '\n');
        size_t n = nl ? (size_t)(nl - c) : strlen(c);
        char *one = strndup(c, n);
        if (!one) return -1;
        int rc = s_line(self, "", one);
        free(one);
        if (rc != 0) return -1;
        c += n + (nl ? 1 : 0);
    }
    if (s_json_line(self, "view-json ", self->view_desc, v->view, v->view_len,
                    self->view_desc && v->view) != 0)
        return -1;
    snprintf(head, sizeof head, "events %zu", v->n_events);
    if (s_line(self, "", head) != 0) return -1;
    for (size_t i = 0; i < v->n_events; i++) {
        const Berthier__V1__Event *e = v->events[i];
        snprintf(head, sizeof head, "event %llu %u ", (unsigned long long)e->seq, e->index);
        if (s_line(self, head, e->text ? e->text : "") != 0) return -1;
        if (s_json_line(self, "event-json ", self->event_desc, e->data.data, e->data.len,
                        self->event_desc != NULL) != 0)
            return -1;
    }
    return 0;
}

static int s_ext_wants_events(void *ps) {
    const s_ext *self = ps;
    return self->v2 || !self->v1_answered; /* the first decision may turn into protocol 2 */
}

/* The program asked for protocol 2: say yes. Every block it was sent before
 * this line is one it skipped, answered by nothing else. */
static int s_upgrade(s_ext *self) {
    self->v2 = 1;
    self->owed = 0;
    return s_line(self, "", "protocol 2 ok");
}

/* Next complete line from the program, waiting up to timeout_ms.
 * 1 = line in out, 0 = none yet, -1 = the program closed its stdout. */
static int s_read_line(s_ext *self, int timeout_ms, char *out, size_t outlen) {
    for (;;) {
        char *nl = memchr(self->buf, '\n', self->len);
        if (nl) {
            size_t n = (size_t)(nl - self->buf);
            size_t copy = n < outlen - 1 ? n : outlen - 1;
            memcpy(out, self->buf, copy);
            out[copy] = '\0';
            if (copy && out[copy - 1] == '\r') out[copy - 1] = '\0';
            memmove(self->buf, nl + 1, self->len - n - 1);
            self->len -= n + 1;
            return 1;
        }
        if (self->len == sizeof self->buf) self->len = 0; /* an absurd line: drop it */
        struct pollfd pfd = {self->from_child, POLLIN, 0};
        int pr = poll(&pfd, 1, timeout_ms);
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0) return 0;
        ssize_t r = read(self->from_child, self->buf + self->len, sizeof self->buf - self->len);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (r <= 0) {
            self->dead = 1;
            return -1;
        }
        self->len += (size_t)r;
        timeout_ms = 0;
    }
}

static int s_block(s_ext *self, const bot_view *v) {
    const Berthier__V1__Decision *d = v->decision;
    const Berthier__V1__LegalOrders *lo = v->legal;
    char head[512];
    snprintf(head, sizeof head, "decision %llu turn %u kind %s rule %s",
             (unsigned long long)(d ? d->seq : lo->seq), d ? d->turn : 0,
             d && d->kind && *d->kind ? d->kind : "-", d && d->rule && *d->rule ? d->rule : "-");
    if (s_line(self, "", head) != 0) return BOT_FAILED;
    if (s_line(self, "prompt ", d && d->prompt ? d->prompt : "") != 0) return BOT_FAILED;
    if (self->v2 && s_v2_lines(self, v) != 0) return BOT_FAILED;
    size_t n = lo->n_texts ? lo->n_texts : lo->n_orders;
    snprintf(head, sizeof head, "legal %zu", n);
    if (s_line(self, "", head) != 0) return BOT_FAILED;
    for (size_t i = 0; i < n; i++) {
        if (i < lo->n_texts) {
            if (s_line(self, "", lo->texts[i]) != 0) return BOT_FAILED;
        } else {
            /* No text rendering from the daemon: the order's bytes in hex. */
            const ProtobufCBinaryData *o = &lo->orders[i];
            char *hex = malloc(o->len * 2 + 5);
            if (!hex) return BOT_FAILED;
            strcpy(hex, "hex:");
            for (size_t k = 0; k < o->len; k++) sprintf(hex + 4 + 2 * k, "%02x", o->data[k]);
            int rc = s_line(self, "", hex);
            free(hex);
            if (rc != 0) return BOT_FAILED;
        }
    }
    if (s_line(self, "", "go") != 0) return BOT_FAILED;
    return 0;
}

static int s_ext_choose(void *ps, const bot_view *v, bot_choice *out) {
    s_ext *self = ps;
    if (self->dead) return BOT_FAILED;
    const Berthier__V1__LegalOrders *lo = v->legal;
    size_t n = lo->n_texts ? lo->n_texts : lo->n_orders;
    if (s_block(self, v) != 0) return BOT_FAILED;
    char line[sizeof out->text];
    for (;;) {
        int r = s_read_line(self, 250, line, sizeof line);
        if (r < 0) return BOT_FAILED;
        if (r == 0) {
            if (!v->still_current || v->still_current(v->ctx)) continue;
            self->owed++;
            return BOT_ABANDON;
        }
        if (!self->v2 && strcmp(line, "protocol 2") == 0) {
            /* The block just sent was skipped: send it again with the view. */
            if (s_upgrade(self) != 0 || s_block(self, v) != 0) return BOT_FAILED;
            continue;
        }
        if (self->owed > 0) {
            self->owed--; /* the late answer to a decision that went away */
            continue;
        }
        break;
    }
    if (!self->v2) self->v1_answered = 1;
    if (strcmp(line, "resign") == 0) return BOT_FAILED;
    if (line[0] == '@') {
        char *end = NULL;
        long k = strtol(line + 1, &end, 10);
        if (end && *end == '\0' && k >= 0 && (size_t)k < n) {
            out->index = (int)k;
            return BOT_CHOSE;
        }
    }
    out->index = -1;
    for (size_t i = 0; i < lo->n_texts; i++)
        if (strcmp(lo->texts[i], line) == 0) {
            out->index = (int)i; /* a listed order: send its bytes */
            return BOT_CHOSE;
        }
    if (lo->n_texts == 0 && strncmp(line, "hex:", 4) == 0) {
        for (size_t i = 0; i < lo->n_orders; i++) {
            const ProtobufCBinaryData *o = &lo->orders[i];
            if (strlen(line + 4) != o->len * 2) continue;
            size_t k = 0;
            for (; k < o->len; k++) {
                char two[3];
                snprintf(two, sizeof two, "%02x", o->data[k]);
                if (strncmp(line + 4 + 2 * k, two, 2) != 0) break;
            }
            if (k == o->len) {
                out->index = (int)i;
                return BOT_CHOSE;
            }
        }
    }
    snprintf(out->text, sizeof out->text, "%s", line);
    return BOT_CHOSE;
}

static void s_ext_rejected(void *ps, int code, const char *error) {
    (void)code;
    s_line(ps, "rejected ", error);
}

static void s_ext_finished(void *ps, const char *result) { s_line(ps, "end ", result); }

static void s_ext_destroy(void *ps) {
    s_ext *self = ps;
    close(self->to_child);
    close(self->from_child);
    int status;
    for (int i = 0; i < 40; i++) {
        if (waitpid(self->pid, &status, WNOHANG) == self->pid) {
            kill(-self->pid, SIGKILL); /* anything it left running in its group */
            free(self);
            return;
        }
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    kill(-self->pid, SIGKILL);
    waitpid(self->pid, &status, 0);
    free(self);
}

/* A program reads the orders as texts (docs/bots.md). */
static int s_ext_needs_texts(const char *ruleset) {
    (void)ruleset;
    return 1;
}

const bot_policy bot_policy_exec = {
    .name = "exec",
    .summary = "an external program speaking the line protocol of docs/bots.md",
    .create = s_ext_create,
    .choose = s_ext_choose,
    .rejected = s_ext_rejected,
    .finished = s_ext_finished,
    .destroy = s_ext_destroy,
    .wants_events = s_ext_wants_events,
    .needs_texts = s_ext_needs_texts,
};
