/*
 * vis.h - who may receive an outcome record: the one place that decides it.
 *
 * EVENT records carry LogEvent.visible, a bit mask of the seats that may see
 * the event (every seat's bit set = public); bit 31 (BRT_SEATS_SPECTATORS,
 * core/ruleset.h) marks the spectators' copy of an event that is not public
 * (with fog of war: the copy that names a unit hidden from either seat only as
 * "a unit"). No seat has bit 31, so logs written before it mean what they meant. DICE records carry LogDice.visible
 * (field 5), encoded so that an absent field means what logs written before it
 * meant, public:
 *
 *   0 (absent)            every seat and the spectators
 *   VIS_DICE_LIMITED | m  only the seats in m (bits 0..BRT_MAX_SEATS-1) before
 *                         the end; VIS_DICE_LIMITED alone: nobody
 *
 * After the end of the game everything is open (the log itself can be fetched).
 * Parties: a seat (seat >= 0) or the spectators' clear stream (seat < 0).
 * `open` says the message goes out once the game has ended to a party that
 * may read the whole log (spectators after the end, admins).
 */
#ifndef BERTHIER_VIS_H
#define BERTHIER_VIS_H

#include <stddef.h>
#include <stdint.h>

#define VIS_DICE_LIMITED 0x80000000u

/* LogDice.visible for a roll seen by `seats` (a seat mask, DICE_SEEN_BY_ALL = public). */
uint32_t vis_dice_encode(uint32_t seats, unsigned nseats);
/* The seat mask a LogDice.visible stands for (all seats' bits for public). */
uint32_t vis_dice_seats(uint32_t visible, unsigned nseats);
/* 1 if `seat` (< 0: spectators) may receive the DICE record now. */
int vis_dice_may_see(uint32_t visible, int seat, unsigned nseats, int open);
/* 1 if `seat` (< 0: spectators) may receive the EVENT record now. */
int vis_event_may_see(uint32_t visible, int seat, unsigned nseats, int open);
/* 1 if the roll is hidden from every seat before the end. */
int vis_dice_hidden_from_all(uint32_t visible, unsigned nseats);

/* The hash a party may hold mid-game (Accepted.view_hash, StateView.view_hash): it covers only
 * the View that party receives, never the full state:
 *   BLAKE2b-256("berthier-view-v1" (16 bytes) || game id (ASCII) || seat (u32 le; 0xffffffff
 *               for the full view, BRT_VIEW_ALL; 0xfffffffe for the spectators' view,
 *               BRT_VIEW_PUBLIC) || seq (u64 le) || the View bytes)
 * `seat` is the viewpoint as core/ruleset.h numbers it; a negative one is taken as u32.
 * Returns 0 or -1. */
int vis_view_hash(const char *game_id, int seat, uint64_t seq, const uint8_t *view, size_t len,
                  uint8_t out[32]);

#endif
