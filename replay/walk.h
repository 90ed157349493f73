/*
 * walk.h - a log re-executed one input at a time, for the tools that look at
 * every step (render, html, export's views). The same re-execution as verify
 * (replay.c): every record the engine produces is compared with the log's.
 */
#ifndef BERTHIER_REPLAY_WALK_H
#define BERTHIER_REPLAY_WALK_H

#include <stddef.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"
#include "evlog.h"
#include "game.h"

typedef struct replay_walk replay_walk;

/* Open the log and start the engine from its header (no input fed yet). NULL
 * with a sentence in err when the log cannot be read or its header is refused. */
replay_walk *replay_walk_open(const char *path, brt_buf *err);
void replay_walk_destroy(replay_walk **pw);

/* Feed the next input. 1 fed, 0 stopped (the end, the log ran out or a problem:
 * replay_walk_problem, and the report went to the err given to open). */
int replay_walk_step(replay_walk *w);

const brt_game *replay_walk_game(const replay_walk *w);
const Berthier__V1__LogHeader *replay_walk_header(const replay_walk *w);
/* Every record of the log, in order (the reader hides SYNC records). */
const evlog_record *replay_walk_records(const replay_walk *w, size_t *n);
/* The records of the last input fed: [first, end), its input record first. */
void replay_walk_last(const replay_walk *w, size_t *first, size_t *end);
/* The position of the next input record. */
size_t replay_walk_cursor(const replay_walk *w);
/* 1 if a record did not match, the log ran out inside an outcome or is damaged further on. */
int replay_walk_stopped(const replay_walk *w);
int replay_walk_problem(const replay_walk *w);

#endif
