/*
 * engine.h - the daemon's engine: the table of live games, their logs and
 * clocks, and the handling of decoded requests. It knows nothing of sockets:
 * the network front end (server.c) hands it (client key, request bytes) and
 * gets back reply bytes and notices to publish once the round is durable.
 */
#ifndef BERTHIERD_ENGINE_H
#define BERTHIERD_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"
#include "buf.h"
#include "clock.h"
#include "config.h"
#include "dedupe.h"
#include "evindex.h"
#include "evlog.h"
#include "finev.h"
#include "finidx.h"
#include "game.h"
#include "keys.h"

#define ENGINE_ID_LEN 16

typedef struct bd_engine bd_engine;
typedef struct bd_flush_pool bd_flush_pool;

/* Where the captured input's records are in the log (receipts, witnesses; receipt.c):
 * the index of its first record, of its last one and that one's chain hash, and
 * whether the input ended with a CHECKPOINT (which signs ckpt_head at ckpt_record). */
typedef struct bd_capture_at {
    uint64_t cap_first, cap_last;
    uint8_t cap_head[32];
    int cap_ckpt;
    uint64_t ckpt_record;
    uint8_t ckpt_head[32];
} bd_capture_at;

typedef struct bd_game {
    bd_engine *eng;
    brt_game *g;
    evlog *log;
    char id[ENGINE_ID_LEN + 1];
    char *log_path;         /* <data-dir>/games/<id>.log, in the same allocation as the game */
    int mode;               /* S_MODE_* in games.c: where records go */
    int io_failed;          /* a record could not be appended */
    /* replay (recovery): records already in the log */
    const evlog_record *recs;
    size_t nrecs, cursor;
    char *mismatch;         /* during a re-execution: where a difference from the log is described (games.c) */
    /* records of the input under way: items of u8 kind || payload */
    brt_buf cap;
    int capturing;
    bd_capture_at *cx;      /* where the captured input's records are (allocated at the first
                             * capture or checkpoint: an ended game kept on disk has none) */
    bd_clock *clock;        /* allocated when the game is loaded (s_after_load in games.c): an
                             * ended game kept on disk has none */
    int clock_dirty;        /* clocks need an update after this round */
    int spectators_live;
    uint64_t synced_seq;    /* game seq at the last durable sync */
    int touched;            /* records appended since the last sync: nothing of the game may be
                             * revealed before the end of the round */
    int inflight;           /* its records of the last round are being fdatasynced (off the
                             * main thread): nothing may touch its log, nothing of it be revealed */
    uint64_t defer_round;   /* == eng->round: a frame about it was put off during a flush, so
                             * later frames about it are put off too (their order is kept) */
    uint64_t wait_round;    /* == eng->round: a reply about this game waits for the end of the
                             * round, so later replies about it wait too (their order is kept) */
    bd_evindex events;      /* its EVENT records, for `events` requests (evindex.h) */
    /* An ended game whose index (<id>.fin, finidx.h) is on disk. With g == NULL the game
     * is "cold": nothing of it but this is in memory, and engine_find brings it back by
     * re-executing its log (games.c "Finished games"). */
    bd_finidx *fin;
    int warm;               /* an ended game in memory, in eng->warm */
    int retries;            /* its replies are back in the retry table (engine_retry_restore) */
    /* Which parties the unsynced records concern (quiet.h): views (bit s: seat s,
     * QUIET_OTHER: any other key) that no record of the round being filled, or of
     * the round being flushed, changed; the views whose replies wait or were put off. */
    uint32_t clean_touched, clean_inflight;
    uint32_t wait_views, wait_prev;   /* of round wait_round, and of the round before it */
    uint32_t defer_views;
    int applying;           /* an input is being applied: its records' views are judged after it */
    int reveal_only;        /* the clock is the reveal deadline of a dice=contributory game without
                             * a clock of its own: it runs only while a nonce is awaited */
    uint64_t gen;           /* inputs fed to it in this run (applied or not): what the legal
                             * cache is keyed by */
    struct bd_legal_cache *legal;   /* per seat, the last decision's legal orders and their
                                     * texts, formatted at most once (requests.c) */
} bd_game;

/* A notice waiting for the end of the round (after the sync). */
typedef struct bd_notice {
    char topic[64];
    uint8_t *body;
    size_t len;
} bd_notice;

struct bd_engine {
    const bd_config *cfg;
    const bd_keys *keys;
    char games_dir[CONFIG_PATH_MAX + 16];
    bd_game **games;
    size_t ngames, capgames;
    bd_game **index;        /* open addressing by game id; size a power of two */
    size_t index_size;
    bd_game **touched;      /* games with records this round (synced at its end) */
    size_t ntouched, captouched;
    bd_game **inflight;     /* the previous round's games, while their fdatasyncs run */
    size_t ninflight, capinflight;
    int flushing;           /* the flush thread runs */
    atomic_int flushed;     /* set by the flush thread when it is done */
    struct bd_flush_pool *pool;   /* the fdatasync threads (games.c), started at the first flush */
    int sync_fd;            /* eventfd: the flush thread is done */
    bd_game **clocked;      /* games whose header has a clock */
    size_t nclocked, capclocked;
    bd_dedupe *dedupe;
    bd_notice *out;
    size_t nout, capout;
    uint64_t round;         /* commit rounds ended (engine_sync), from 1 */
    uint64_t reexecuted;    /* inputs re-executed from logs (recovery, cold games brought back) */
    uint64_t formatted;     /* legal orders formatted as text (order_format calls, requests.c) */
    bd_game **warm;         /* ended games kept in memory, oldest first (at most S_WARM in games.c) */
    size_t nwarm, capwarm;
    /* The shared journal (journal.h; NULL with journal = 0, or before engine_recover):
     * a round is durable once its frame is fdatasynced; the logs are fdatasynced later. */
    struct bd_journal *journal;
    int journaled;          /* the round in flight went to the journal */
    atomic_int journal_rc;  /* its fdatasync's result (set by the flush pool) */
    int failed;             /* a round could not be made durable: nothing more is cut or synced */
    bd_game **lazy;         /* scratch: the logs fdatasynced before a cut of the journal */
    size_t nlazy, caplazy;
    bd_game **ending;       /* games of the round in flight that ended: their logs are fdatasynced
                             * with the journal (their index is written once the log is durable) */
    size_t nending, capending;
    uint64_t cuts;          /* journal cuts since the engine was made (tests) */
};

/* ---- games.c ---- */
bd_engine *engine_new(const bd_config *cfg, const bd_keys *keys, char *err, size_t errlen);
void engine_destroy(bd_engine **pself);
/* Scan <data-dir>/games, recover every log. -1 (err names the log, record and
 * offset) if a log is damaged before its end: the daemon refuses to start. */
int engine_recover(bd_engine *self, char *err, size_t errlen);
/* The game `id`, in memory: an ended game that is cold is re-executed from its log first
 * (NULL, logged, if that fails). engine_peek: the same without bringing it back (g may be NULL). */
bd_game *engine_find(bd_engine *self, const char *id);
bd_game *engine_peek(bd_engine *self, const char *id);
/* What the list of games shows of a game, in memory or cold. res is filled when over. */
typedef struct bd_summary {
    const char *ruleset, *scenario;
    uint64_t seq;
    int started, over;
    unsigned nseats;
} bd_summary;
void engine_summary(const bd_game *game, bd_summary *out, brt_result *res);
/* A mutating request (key, request_id) about the game `id` missed the retry table. If the
 * game is an ended one loaded from its index, whose replies recovery did not rebuild, its
 * log is re-executed once (for this daemon run) to put them back, as recovery would have,
 * and 1 is returned: look again. Else 0. */
int engine_retry_restore(bd_engine *self, const char *id, const uint8_t key[32], uint64_t request_id);
/* The record index of an ended game that has its .fin (<id>.evx, finev.h), read from disk
 * and checked against the .fin, or made again from its log (no re-execution) when it is
 * absent or stale. The caller destroys it. NULL: the log cannot be indexed (logged). */
bd_finev *engine_fin_records(bd_engine *self, const bd_game *g);
/* Inputs re-executed from logs since the engine was made (tests, bench). */
uint64_t engine_reexecuted(const bd_engine *self);
/* Mark a game as having records to sync at the end of the round. */
void engine_touch(bd_engine *self, bd_game *g);
/* Seats of `game` bound to `key` (bit mask). */
uint32_t engine_seats_of(const bd_game *game, const uint8_t key[32]);
/* 1 if `key` is one of the game's spectator keys (LogHeader.spectator_keys). */
int engine_is_spectator(const bd_game *game, const uint8_t key[32]);
/* 1 if the key is an admin key, a seat key or a spectator key of some game,
 * and not revoked. */
int engine_key_known(const bd_engine *self, const uint8_t key[32]);
/* Make every record of the round durable. -1: a log failed (fail-stop).
 * In two steps, so that the main loop can serve durable queries while the
 * disk works: engine_sync_start writes every touched log (main thread) and
 * hands their fdatasyncs to the flush threads: 1 = started (wait for engine_sync_fd
 * to become readable, then call engine_sync_finish), 0 = nothing to flush
 * (call engine_sync_finish at once), -1 = a write failed. Between the two,
 * the round's games are in flight: the engine must not be fed inputs (only
 * engine_try_now may be called). engine_sync_finish: -1 = an fdatasync failed.
 * Only after it returned 0 may the round's replies and notices go out. */
int engine_sync_start(bd_engine *self, char *err, size_t errlen);
int engine_sync_fd(const bd_engine *self);
int engine_sync_done(bd_engine *self);   /* 1: the flush thread is done (no system call) */
int engine_sync_finish(bd_engine *self, char *err, size_t errlen);
int engine_sync(bd_engine *self, char *err, size_t errlen);   /* start + finish */
/* Create a game (admin). Returns the game, or NULL with rej filled.
 * key, request_id, digest (DEDUPE_DIGEST bytes): the create request, recorded
 * in the log header so that its retry is answered after a restart too
 * (request_id 0: not recorded). */
bd_game *engine_create_game(bd_engine *self, const Berthier__V1__CreateGame *c, const uint8_t key[32],
                            uint64_t request_id, const uint8_t *digest, brt_reject *rej);

/* Capture of one input's records. */
void game_capture_begin(bd_game *self);
void game_capture_end(bd_game *self);

/* ---- requests.c ---- */
/* Handle one request frame from an authenticated key. The reply bytes go to
 * `reply`. Never fails: every problem is a reply code.
 * Returns 1 when the reply may be sent at once, 0 when it must wait for the
 * end of the round (engine_sync). At once means: a query (nothing appended)
 * about a game with no record appended since its last sync and no reply
 * waiting in the round (or about no game at all: hello, an unknown game), or
 * the list of games when no game has unsynced records. Everything such a reply
 * reveals is already on disk. Inputs, creations, retries answered from the
 * retry table and undecodable frames always wait. */
int engine_handle(bd_engine *self, const uint8_t key[32], const uint8_t *frame, size_t len, brt_buf *reply);
/* While a flush is under way (engine_sync_start returned 1): answer the frame
 * if it is a query whose answer is durable and about a game not in flight
 * (1, the reply is in `reply` and may be sent at once); else change nothing
 * and return 0: the caller keeps the frame and hands it to engine_handle, in
 * order, after engine_sync_finish. A frame put off marks its game, so that
 * later frames about it are put off too. */
int engine_try_now(bd_engine *self, const uint8_t key[32], const uint8_t *frame, size_t len, brt_buf *reply);
/* Recovery re-executed an input of `g` (its records are in g->cap): rebuild
 * the reply of an order for the retry table. */
void engine_recovered_input(bd_engine *self, bd_game *g, uint8_t kind, const uint8_t *payload, size_t len,
                            uint64_t seq_before);
/* Recovery loaded the header of `g`: if it records the create request
 * (LogHeader.create_*), put its Created reply back in the retry table. */
void engine_recovered_create(bd_engine *self, bd_game *g);
/* A Reply refusing a request without decoding it (rate limit, revoked key):
 * `request_id` as read by decode_peek_request_id, the rule of `code` (P3, P5). */
void engine_refuse(brt_buf *reply, uint64_t request_id, int code, const char *message);
/* Legal orders formatted as text since the engine was made (tests: the cache of
 * legal texts, P4.3). */
uint64_t engine_formatted(const bd_engine *self);
/* Drop a game's cache of legal orders (the game is destroyed or frozen). */
void engine_legal_forget(bd_game *g);
/* Feed timeouts for expired clocks; update the clocks of touched games. */
void engine_clocks(bd_engine *self, int64_t now);
/* Milliseconds until the next clock deadline (-1 = none). */
long engine_next_timeout(bd_engine *self, int64_t now);
/* After the round's sync: hand the notices out and forget them. */
void engine_take_notices(bd_engine *self, bd_notice **out, size_t *n);
void engine_free_notices(bd_notice *out, size_t n);

#endif
