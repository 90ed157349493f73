/*
 * quiet.h - which parties an unsynced record concerns, so that a query's
 * latency never depends on another seat's hidden activity
 * (docs/daemon.md, "Query replies").
 *
 * A query may be answered before the round's fdatasyncs only if everything
 * its reply reveals is already durable. Before, "everything" was the game: a
 * query of seat 1 waited for the fdatasync of seat 0's sealed choice, so the
 * timing of seat 1's replies told it that seat 0 had made its choice. Now each
 * party of a game is a view bit (bit s: the key holding seat s; QUIET_OTHER:
 * admins, spectators, readers of an ended game) and each game keeps, for the
 * round being filled and the one being flushed, the views that none of the
 * round's records changed (`clean_touched`, `clean_inflight`). An input is
 * hidden from seat s when it leaves the game's seq and public decision as
 * they were (a sealed choice, recorded) and seat s's decision, state view and
 * events are byte for byte what they were: a reply to seat s built now is then
 * the reply built from the durable log, and may leave at once. Every other
 * record (creation, recovery, an input that moves the game, any input whose
 * effect on seat s cannot be shown to be nil) concerns every view.
 *
 * The order of replies is kept per party: a reply that waits marks the
 * game's `wait_views`/`defer_views` with the asking key's views, and later
 * replies of a key sharing one of them wait too.
 */
#ifndef BERTHIERD_QUIET_H
#define BERTHIERD_QUIET_H

#include <stdint.h>

#include "buf.h"
#include "engine.h"
#include "ruleset.h"

#define QUIET_OTHER (1u << 31)
#define QUIET_ALL 0xffffffffu

/* The views of `key` in game gm: the seats it holds, else QUIET_OTHER. */
uint32_t quiet_views(const bd_game *gm, const uint8_t key[32]);

/* 1 if no record of the round being filled (or, with inflight, of the one
 * being flushed) changed what `views` may see. */
int quiet_clean(const bd_game *gm, uint32_t views, int inflight);

/* Replies of `views` about gm wait in this round (marks and checks). */
void quiet_mark_wait(bd_engine *e, bd_game *gm, uint32_t views);
/* 1 if a reply of `views` waits: in this round, or (flushing) in the round
 * being flushed too. */
int quiet_waiting(const bd_engine *e, const bd_game *gm, uint32_t views, int flushing);
void quiet_mark_defer(bd_engine *e, bd_game *gm, uint32_t views);
int quiet_deferred(const bd_engine *e, const bd_game *gm, uint32_t views);

/* The list of games for `key`: 1 if no unsynced record concerns what it lists. */
int quiet_list(const bd_engine *e, const uint8_t key[32]);

/* Around one input of seat `actor`: before it is applied (pub: the public
 * decision then), and after it (same: its seq and public decision are those
 * of before). quiet_after returns the views the input left untouched and
 * frees the snapshot. */
typedef struct {
    int have;
    brt_pending p[BRT_MAX_SEATS];
    int must[BRT_MAX_SEATS];
    brt_buf view[BRT_MAX_SEATS];
} quiet_snap;
void quiet_before(const bd_game *gm, unsigned actor, const brt_pending *pub, quiet_snap *s);
uint32_t quiet_after(const bd_game *gm, unsigned actor, quiet_snap *s, int same);

#endif
