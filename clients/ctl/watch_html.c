/* watch_html.c - the live page of `berthierctl watch --html` (see watch_html.h). */
#include "watch_html.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint64_t seq;
    uint32_t index;
    char *text;
} s_event;

struct ctl_page {
    char *game;
    char *who;
    s_event ev[CTL_PAGE_EVENTS];  /* a ring: the newest at (head - 1) */
    size_t head, n;
    char *decision;               /* an HTML fragment, escaped */
    int ended;
};

/* ---- a growable string ---------------------------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
    int failed;
} s_str;

static void s_put(s_str *s, const char *d, size_t n) {
    if (s->failed) return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + n + 1) cap *= 2;
        char *p = realloc(s->p, cap);
        if (!p) {
            s->failed = 1;
            return;
        }
        s->p = p;
        s->cap = cap;
    }
    memcpy(s->p + s->len, d, n);
    s->len += n;
    s->p[s->len] = '\0';
}

static void s_puts(s_str *s, const char *d) { s_put(s, d, strlen(d)); }

static void s_printf(s_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_printf(s_str *s, const char *fmt, ...) {
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (n < 0) s->failed = 1;
    else s_put(s, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

/* Text for an HTML text node or attribute: markup characters escaped, control
 * bytes other than newline and tab dropped. */
static void s_esc(s_str *s, const char *t) {
    for (; t && *t; t++) {
        unsigned char c = (unsigned char)*t;
        switch (c) {
        case '&': s_puts(s, "&amp;"); break;
        case '<': s_puts(s, "&lt;"); break;
        case '>': s_puts(s, "&gt;"); break;
        case '"': s_puts(s, "&quot;"); break;
        case '\'': s_puts(s, "&#39;"); break;
        default:
            if (c >= 0x20 || c == '\n' || c == '\t') s_put(s, t, 1);
        }
    }
}

/* ---- the page ------------------------------------------------------------------ */

ctl_page *ctl_page_new(const char *game_id, const char *who) {
    ctl_page *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->game = strdup(game_id ? game_id : "");
    self->who = strdup(who ? who : "");
    if (!self->game || !self->who) ctl_page_destroy(&self);
    return self;
}

void ctl_page_destroy(ctl_page **self_p) {
    if (!self_p || !*self_p) return;
    ctl_page *self = *self_p;
    for (size_t i = 0; i < CTL_PAGE_EVENTS; i++) free(self->ev[i].text);
    free(self->game);
    free(self->who);
    free(self->decision);
    free(self);
    *self_p = NULL;
}

int ctl_page_add_event(ctl_page *self, uint64_t seq, uint32_t index, const char *text) {
    char *t = strdup(text ? text : "");
    if (!t) return -1;
    s_event *e = &self->ev[self->head];
    free(e->text);
    e->seq = seq;
    e->index = index;
    e->text = t;
    self->head = (self->head + 1) % CTL_PAGE_EVENTS;
    if (self->n < CTL_PAGE_EVENTS) self->n++;
    return 0;
}

size_t ctl_page_events(const ctl_page *self) { return self->n; }

int ctl_page_ended(const ctl_page *self) { return self->ended; }

static void s_result(s_str *s, const Berthier__V1__Result *r) {
    s_puts(s, "<p class=\"result\">Result: ");
    if (r->n_winners == 0) s_puts(s, "no winner");
    else {
        s_puts(s, r->n_winners == 1 ? "winner seat" : "winners seats");
        for (size_t i = 0; i < r->n_winners; i++) s_printf(s, "%s%u", i ? ", " : " ", r->winners[i]);
    }
    if (r->level && *r->level) {
        s_puts(s, " (");
        s_esc(s, r->level);
        s_puts(s, ")");
    }
    if (r->reason && *r->reason) {
        s_puts(s, ": ");
        s_esc(s, r->reason);
    }
    s_puts(s, "</p>\n");
}

int ctl_page_set_decision(ctl_page *self, const Berthier__V1__Decision *d) {
    s_str s = {0};
    if (!d) {
        s_puts(&s, "<p class=\"decision\">No decision known yet.</p>\n");
    } else if (d->result && d->result->ended) {
        s_result(&s, d->result);
        self->ended = 1;
    } else if (!d->started) {
        s_puts(&s, "<p class=\"decision\">Waiting for every seat to join.</p>\n");
    } else {
        s_printf(&s, "<p class=\"decision\">Turn %u, seq %" PRIu64 ": ", d->turn, d->seq);
        s_puts(&s, d->n_seats == 1 ? "seat" : "seats");
        for (size_t i = 0; i < d->n_seats; i++) s_printf(&s, "%s%u", i ? ", " : " ", d->seats[i]);
        s_puts(&s, " to decide");
        if (d->kind && *d->kind) {
            s_puts(&s, " (");
            s_esc(&s, d->kind);
            if (d->rule && *d->rule) {
                s_puts(&s, " [");
                s_esc(&s, d->rule);
                s_puts(&s, "]");
            }
            s_puts(&s, ")");
        }
        if (d->sealed) s_puts(&s, ", in secret");
        if (d->you_must_act) s_puts(&s, "; your move");
        if (d->prompt && *d->prompt) {
            s_puts(&s, ": ");
            s_esc(&s, d->prompt);
        }
        s_puts(&s, "</p>\n");
    }
    if (s.failed) {
        free(s.p);
        return -1;
    }
    free(self->decision);
    self->decision = s.p;
    return 0;
}

static const char s_css[] =
    "body{font-family:sans-serif;margin:1em;background:#fafaf7;color:#222}"
    "h1{font-size:1.2em}.who{color:#555}.board{margin:.5em 0}"
    ".result{font-weight:bold;font-size:1.1em}.note{color:#8a4b00}"
    "ol.events{font-family:monospace;font-size:.9em;padding-left:0;list-style:none}"
    "ol.events li{margin:.1em 0}.seq{color:#777}pre.state{background:#f0ede4;padding:.5em}";

static void s_page(const ctl_page *self, s_str *s, uint64_t seq, const char *svg, const char *text,
                   const char *note) {
    s_puts(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    /* a browser showing the file follows the game; the final page stays still */
    if (!self->ended) s_puts(s, "<meta http-equiv=\"refresh\" content=\"2\">\n");
    s_puts(s, "<title>Berthier game ");
    s_esc(s, self->game);
    s_puts(s, "</title>\n<style>");
    s_puts(s, s_css);
    s_puts(s, "</style>\n</head>\n<body>\n<h1>Game ");
    s_esc(s, self->game);
    s_printf(s, ", seq %" PRIu64 "</h1>\n<p class=\"who\">As ", seq);
    s_esc(s, self->who);
    s_puts(s, self->ended ? " see it: the game has ended.</p>\n" : " see it while the game goes on.</p>\n");
    s_puts(s, self->decision ? self->decision : "");
    if (note && *note) {
        s_puts(s, "<p class=\"note\">");
        s_esc(s, note);
        s_puts(s, "</p>\n");
    }
    if (svg && *svg) {
        /* the daemon's picture is a standalone, well-formed SVG document whose text
         * the renderer escaped (docs/render.md); it goes in as it came */
        s_puts(s, "<div class=\"board\">\n");
        s_puts(s, svg);
        s_puts(s, "</div>\n");
    }
    if (text && *text) {
        s_puts(s, "<details><summary>State as text</summary>\n<pre class=\"state\">");
        s_esc(s, text);
        s_puts(s, "</pre></details>\n");
    }
    s_printf(s, "<h2>Events</h2>\n<ol class=\"events\" data-count=\"%zu\">\n", self->n);
    for (size_t k = 0; k < self->n; k++) {
        const s_event *e = &self->ev[(self->head + CTL_PAGE_EVENTS - 1 - k) % CTL_PAGE_EVENTS];
        s_printf(s, "<li><span class=\"seq\">%" PRIu64 ".%u</span> ", e->seq, e->index);
        s_esc(s, e->text);
        s_puts(s, "</li>\n");
    }
    s_puts(s, "</ol>\n</body>\n</html>\n");
}

int ctl_page_write(const ctl_page *self, const char *path, uint64_t seq, const char *svg, const char *text,
                   const char *note) {
    s_str s = {0};
    s_page(self, &s, seq, svg, text, note);
    if (s.failed) {
        free(s.p);
        errno = ENOMEM;
        return -1;
    }
    size_t n = strlen(path) + 5;
    char *tmp = malloc(n);
    if (!tmp) {
        free(s.p);
        errno = ENOMEM;
        return -1;
    }
    snprintf(tmp, n, "%s.tmp", path);
    int rc = -1, fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        size_t off = 0;
        while (off < s.len) {
            ssize_t w = write(fd, s.p + off, s.len - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            off += (size_t)w;
        }
        int ok = off == s.len && fsync(fd) == 0;
        int e = errno;
        if (close(fd) != 0 && ok) ok = 0, e = errno;
        if (ok && rename(tmp, path) == 0) rc = 0;
        else {
            e = ok ? errno : e;
            unlink(tmp);
            errno = e;
        }
    }
    free(tmp);
    free(s.p);
    return rc;
}
