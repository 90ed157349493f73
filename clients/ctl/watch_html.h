/*
 * watch_html.h - the page `berthierctl watch --html FILE` keeps current: one
 * self-contained HTML file (inline CSS, the daemon's SVG picture inline, no
 * script, no network) with the decision in front of the game, the result at the
 * end and the recent events as the watcher received them, newest first.
 * The page shows only what the daemon gave the watcher's key; it decides nothing.
 */
#ifndef BERTHIERCTL_WATCH_HTML_H
#define BERTHIERCTL_WATCH_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/client.h"

typedef struct ctl_page ctl_page;

/* who: what the page says about the viewpoint ("spectators", "seat 1"). */
ctl_page *ctl_page_new(const char *game_id, const char *who);
void ctl_page_destroy(ctl_page **self_p);

/* Keep an event (the page holds the newest CTL_PAGE_EVENTS). 0 or -1. */
#define CTL_PAGE_EVENTS 200
int ctl_page_add_event(ctl_page *self, uint64_t seq, uint32_t index, const char *text);
size_t ctl_page_events(const ctl_page *self);

/* Copy what the page shows of the decision (NULL: none known). 0 or -1. */
int ctl_page_set_decision(ctl_page *self, const Berthier__V1__Decision *d);
/* 1 once the decision set carries the result. */
int ctl_page_ended(const ctl_page *self);

/* Write the page to path atomically (path.tmp, fsync, rename). svg: the picture,
 * or NULL/"" for none; text: the state's text rendering or NULL; note: a line
 * saying why there is no picture, or NULL. The page refreshes itself every 2 s
 * until the game has ended. 0, or -1 with errno set. */
int ctl_page_write(const ctl_page *self, const char *path, uint64_t seq, const char *svg, const char *text,
                   const char *note);

#endif
