/* quiet.c - which parties an unsynced record concerns (see quiet.h). */
#include "quiet.h"

#include <sodium.h>
#include <string.h>

#include "evlog.h"
#include "game.h"

uint32_t quiet_views(const bd_game *gm, const uint8_t key[32]) {
    uint32_t seats = engine_seats_of(gm, key);
    return seats ? seats : QUIET_OTHER;
}

int quiet_clean(const bd_game *gm, uint32_t views, int inflight) {
    if (gm->touched && (gm->clean_touched & views) != views) return 0;
    if (inflight && gm->inflight && (gm->clean_inflight & views) != views) return 0;
    return 1;
}

void quiet_mark_wait(bd_engine *e, bd_game *gm, uint32_t views) {
    if (gm->wait_round != e->round) {
        /* a new round: what waited in the round before is kept apart (it may be
         * the round being flushed), anything older is done with */
        gm->wait_prev = gm->wait_round + 1 == e->round ? gm->wait_views : 0;
        gm->wait_views = 0;
        gm->wait_round = e->round;
    }
    gm->wait_views |= views;
}

int quiet_waiting(const bd_engine *e, const bd_game *gm, uint32_t views, int flushing) {
    uint32_t cur = gm->wait_round == e->round ? gm->wait_views : 0;
    uint32_t prev = gm->wait_round == e->round ? gm->wait_prev : gm->wait_round + 1 == e->round ? gm->wait_views : 0;
    /* in a flush, replies of the round being flushed are still waiting too */
    return ((flushing ? cur | prev : cur) & views) != 0;
}

void quiet_mark_defer(bd_engine *e, bd_game *gm, uint32_t views) {
    if (gm->defer_round != e->round) gm->defer_views = 0;
    gm->defer_views |= views;
    gm->defer_round = e->round;
}

int quiet_deferred(const bd_engine *e, const bd_game *gm, uint32_t views) {
    return gm->defer_round == e->round && (gm->defer_views & views);
}

static int s_list_clean(bd_game *const *games, size_t n, const uint8_t key[32], int admin, int inflight) {
    for (size_t i = 0; i < n; i++) {
        const bd_game *gm = games[i];
        uint32_t seats = engine_seats_of(gm, key);
        if (!seats && !admin) continue;   /* not in this key's list */
        if (!quiet_clean(gm, seats ? seats : QUIET_OTHER, inflight)) return 0;
    }
    return 1;
}

int quiet_list(const bd_engine *e, const uint8_t key[32]) {
    int admin = keys_is_admin(e->keys, key);
    return s_list_clean(e->touched, e->ntouched, key, admin, 1) && s_list_clean(e->inflight, e->ninflight, key, admin, 1);
}

void quiet_before(const bd_game *gm, unsigned actor, const brt_pending *pub, quiet_snap *s) {
    memset(s, 0, sizeof *s);
    /* Only a sealed decision can take an input that others cannot see. */
    if (!pub->sealed || !game_started(gm->g) || game_over(gm->g)) return;
    unsigned n = game_seat_count(gm->g);
    if (n > BRT_MAX_SEATS || actor >= n) return;
    for (unsigned i = 0; i < n; i++) {
        buf_init(&s->view[i]);
        if (i == actor) continue;
        game_pending(gm->g, (int)i, &s->p[i], &s->must[i]);
        if (game_view(gm->g, (int)i, &s->view[i], NULL) != 0) {
            for (unsigned k = 0; k <= i; k++) buf_free(&s->view[k]);
            return;
        }
    }
    s->have = 1;
}

/* 1 if a captured record of the input is an event that `seat` sees (or a
 * record that cannot be read: counted as seen). */
static int s_event_seen(const bd_game *gm, unsigned seat) {
    size_t pos = 0, len;
    const uint8_t *it;
    while (buf_next_item(&gm->cap, &pos, &it, &len) == 1) {
        if (len < 1 || it[0] != EVLOG_EVENT) continue;
        Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, len - 1, it + 1);
        if (!le) return 1;
        int seen = (le->visible >> seat) & 1;
        berthier__v1__log_event__free_unpacked(le, NULL);
        if (seen) return 1;
    }
    return 0;
}

uint32_t quiet_after(const bd_game *gm, unsigned actor, quiet_snap *s, int same) {
    uint32_t clean = 0;
    unsigned n = game_seat_count(gm->g);
    if (s->have && same) {
        for (unsigned i = 0; i < n; i++) {
            if (i == actor) continue;
            brt_pending p;
            int must = 0;
            game_pending(gm->g, (int)i, &p, &must);
            brt_buf v;
            buf_init(&v);
            int ok = game_view(gm->g, (int)i, &v, NULL) == 0 && v.len == s->view[i].len &&
                     (v.len == 0 || memcmp(v.data, s->view[i].data, v.len) == 0) && must == s->must[i] &&
                     memcmp(&p, &s->p[i], sizeof p) == 0 && !s_event_seen(gm, i);
            buf_free(&v);
            if (ok) clean |= 1u << i;
        }
    }
    if (s->have)
        for (unsigned i = 0; i < n; i++) buf_free(&s->view[i]);
    s->have = 0;
    return clean;
}
