/*
 * vis.c - who may receive an outcome record (see vis.h for the encoding).
 */
#include "vis.h"

#include "ruleset.h"

#include <sodium.h>
#include <string.h>

#define S_VIEW_TAG "berthier-view-v1"

static uint32_t s_all(unsigned nseats) {
    return nseats >= 31 ? 0x7fffffffu : ((1u << nseats) - 1);
}

uint32_t vis_dice_encode(uint32_t seats, unsigned nseats) {
    uint32_t all = s_all(nseats);
    if ((seats & all) == all) return 0;
    return VIS_DICE_LIMITED | (seats & all);
}

uint32_t vis_dice_seats(uint32_t visible, unsigned nseats) {
    if (!(visible & VIS_DICE_LIMITED)) return s_all(nseats);
    return visible & s_all(nseats);
}

int vis_dice_may_see(uint32_t visible, int seat, unsigned nseats, int open) {
    if (open) return 1;
    uint32_t all = s_all(nseats), seen = vis_dice_seats(visible, nseats);
    if (seat < 0) return seen == all;
    if ((unsigned)seat >= nseats) return 0;
    return (seen >> seat) & 1;
}

int vis_event_may_see(uint32_t visible, int seat, unsigned nseats, int open) {
    if (open) return 1;
    uint32_t all = s_all(nseats);
    /* the spectators: a public event, or the spectators' copy of one that is not */
    if (seat < 0) return (visible & all) == all || (visible & BRT_SEATS_SPECTATORS) != 0;
    if ((unsigned)seat >= nseats) return 0;
    return (visible >> seat) & 1;
}

int vis_dice_hidden_from_all(uint32_t visible, unsigned nseats) {
    return vis_dice_seats(visible, nseats) == 0;
}

int vis_view_hash(const char *game_id, int seat, uint64_t seq, const uint8_t *view, size_t len,
                  uint8_t out[32]) {
    if (!game_id || !out || (len && !view)) return -1;
    if (sodium_init() < 0) return -1;
    uint8_t b[12];
    uint32_t s = (uint32_t)seat;
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(s >> (8 * i));
    for (int i = 0; i < 8; i++) b[4 + i] = (uint8_t)(seq >> (8 * i));
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, NULL, 0, 32) != 0) return -1;
    crypto_generichash_update(&st, (const uint8_t *)S_VIEW_TAG, strlen(S_VIEW_TAG));
    crypto_generichash_update(&st, (const uint8_t *)game_id, strlen(game_id));
    crypto_generichash_update(&st, b, sizeof b);
    if (len) crypto_generichash_update(&st, view, len);
    return crypto_generichash_final(&st, out, 32) == 0 ? 0 : -1;
}
