/*
 * journal.h - the daemon's shared write-ahead journal: one append and one
 * fdatasync per commit round for all the games of the round. The format is
 * written out byte by byte at the top of journal.c; docs/daemon.md
 * "The journal" tells the whole protocol.
 *
 * A round: each touched log gets its batch with write() only
 * (evlog_sync_write); journal_add() copies each batch (game id, the offset in
 * its log, the bytes) into the round's frame; journal_write() appends the frame;
 * journal_flush() fdatasyncs the journal (on any thread: nothing else touches
 * the journal meanwhile). Once it returned 0 the round is durable and may be
 * acknowledged. The logs are fdatasynced later (engine: when the journal passes
 * its size, when a game ends, at a clean stop), and only then is the journal
 * cut (journal_cut).
 *
 * I/O goes through evlog's shim (evlog_io_get), so the daemon's fault
 * injection reaches it. Any failed write or fdatasync poisons the journal:
 * every later call fails (no fdatasync is retried, as for a log).
 */
#ifndef BERTHIERD_JOURNAL_H
#define BERTHIERD_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define JOURNAL_MAGIC "BRTHRJNL"   /* 8 bytes, no terminator on disk */
#define JOURNAL_FORMAT 1
#define JOURNAL_HEADER 24          /* magic(8) format(u32) reserved(u32) epoch(u64) */
#define JOURNAL_HASH 32
#define JOURNAL_ID_MAX 64

typedef struct bd_journal bd_journal;

/* What start-up recovery did (journal_open). */
typedef struct journal_stats {
    uint64_t frames;        /* complete frames found */
    uint64_t batches;       /* game batches in them */
    uint64_t rewritten;     /* batches whose bytes the log did not hold (written again) */
    uint64_t logs;          /* logs fdatasynced */
    uint64_t skipped;       /* batches of logs that are no longer in the directory (moved out
                             * by an operator): left out */
    char skipped_id[JOURNAL_ID_MAX + 1];   /* the first of those logs */
    uint64_t torn_bytes;    /* the bytes of the frame after the last complete one, when one starts
                             * there (its length is not 0) but is incomplete or does not link: a
                             * torn frame (never acknowledged), or a frame of an earlier epoch */
} journal_stats;

/* Recover, then open for appending. `path` is the journal file, `games_dir`
 * the directory of <id>.log. If the file holds frames, each batch is put in
 * its log (written where the log does not hold exactly those bytes at that
 * offset), every log named is fdatasynced, and the journal is cut; a torn last
 * frame is dropped; the batches of a log that is no longer there (an operator
 * moved it out of the directory) are left out and counted. Must run before any log is opened with evlog_open. A
 * missing journal is created at the first journal_write (so that a data dir
 * without any round holds no journal), with `prealloc` bytes of zeros (see
 * journal.c, WRITING). NULL with err filled if recovery could
 * not complete: nothing was cut, and running it again is safe. */
bd_journal *journal_open(const char *path, const char *games_dir, size_t prealloc, journal_stats *stats,
                         char *err, size_t errlen);
void journal_destroy(bd_journal **pself);

/* Recovery only (journal_open without keeping the journal open), for tools and
 * for a daemon that runs with the journal off: 0, or -1 with err filled. */
int journal_recover(const char *path, const char *games_dir, journal_stats *stats, char *err, size_t errlen);

/* The round's frame: begin, add each game's batch, write. -1 = poisoned or bad arguments. */
void journal_begin(bd_journal *self, uint64_t round);
int journal_add(bd_journal *self, const char *game_id, uint64_t offset, const uint8_t *bytes, size_t len);
size_t journal_pending(const bd_journal *self);   /* batches added since journal_begin */
int journal_write(bd_journal *self) __attribute__((warn_unused_result));
/* fdatasync of what journal_write wrote. 0 = durable. */
int journal_flush(bd_journal *self) __attribute__((warn_unused_result));
/* Empty the journal (its frames' logs must all be fdatasynced first): a fresh
 * header with the next epoch is written over the old one and fdatasynced. */
int journal_cut(bd_journal *self) __attribute__((warn_unused_result));
uint64_t journal_size(const bd_journal *self);   /* the end of its last frame */
int journal_poisoned(const bd_journal *self);

#endif
