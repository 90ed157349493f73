/*
 * ruleset.c - brt_ruleset_wem: the table the core calls.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"
#include "wem/v1/wem.pb-c.h"

static const char *const s_names[] = {"blue", "red", "black"};
extern const brt_ruleset brt_ruleset_wem;

static int s_seats(const char *scenario, const char **names, size_t max) {
    const wem_scenario *sc = wem_scenario_get(scenario);
    if (!sc) return -1;
    for (size_t i = 0; names && i < max && i < sc->max_seats; i++) names[i] = s_names[i];
    return sc->max_seats;
}

static int s_hash(const char *scenario, uint8_t out[32]) {
    size_t len = 0;
    const char *t = wem_data_text(scenario, &len);
    if (!t || !wem_scenario_get(scenario)) return -1;
    return crypto_generichash(out, 32, (const unsigned char *)t, len, NULL, 0);
}

static const char *s_scenario_name(size_t i, unsigned *min_seats) {
    if (min_seats) *min_seats = 2;
    return wem_data_name(i);
}

/* [General Ney] "Optional rule" */
static const char *const s_options[] = {"ney", NULL};

static const char *s_scenario_option(const char *scenario, size_t i) {
    if (!wem_scenario_get(scenario)) return NULL;
    return i < sizeof s_options / sizeof s_options[0] ? s_options[i] : NULL;
}

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice, brt_reject *err) {
    const wem_scenario *sc = wem_scenario_get(scenario);
    if (!sc) {
        char names[80];
        brt_ruleset_names(&brt_ruleset_wem, NULL, names, sizeof names);
        brt_reject_set(err, BRT_REJECT_BAD_SCENARIO, "Game Preparation", "unknown scenario \"%.40s\" for wem; valid: %s",
                       scenario ? scenario : "", names);
        return NULL;
    }
    unsigned seats = opts ? opts->seats : 2;
    if (seats < 2 || seats > sc->max_seats) {
        brt_reject_set(err, BRT_REJECT_BAD_SEATS, "Introduction", "%s takes 2%s seats, not %u", sc->name,
                       sc->max_seats == 3 ? " or 3" : "", seats);
        return NULL;
    }
    int ney = 0;
    for (size_t i = 0; opts && i < opts->count; i++) {
        if (strcmp(opts->names[i], "ney") == 0) {
            ney = 1;
            continue;
        }
        brt_reject_set(err, BRT_REJECT_BAD_OPTION, "General Ney", "wem has no option '%s' (it has: ney)",
                       opts->names[i]);
        return NULL;
    }
    wem_state *s = wem_state_new(sc, seats, ney);
    if (!s) {
        brt_reject_set(err, BRT_REJECT_ILLEGAL, "Game Preparation", "out of memory");
        return NULL;
    }
    wem_turn_start(s, dice, NULL);
    return s;
}

static void s_destroy(void *st) {
    wem_state *s = st;
    wem_state_destroy(&s);
}

static void *s_clone(const void *st) { return wem_state_clone(st); }

static int s_apply(void *st, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice, brt_events *ev,
                   brt_reject *err) {
    wem_state *s = st;
    wem_order o;
    if (seat >= s->nseats)
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "Introduction", "there is no seat %u", seat);
    if (wem_order_decode(s, order, len, &o, err)) return -1;
    return wem_apply_order(s, seat, &o, dice, ev, err);
}

static int s_legal(const void *st, unsigned seat, brt_buf *out) { return wem_legal(st, seat, out); }
static void s_pending(const void *st, brt_pending *out) { wem_pending(st, out); }
static int s_view(const void *st, int vp, brt_buf *out) { return wem_view(st, vp, out); }
static int s_view_text(const void *st, int vp, brt_buf *out) { return wem_view_text(st, vp, out); }
static int s_encode(const void *st, brt_buf *out) { return wem_state_encode(st, out); }

static void s_result(const void *st, brt_result *out) {
    const wem_state *s = st;
    memset(out, 0, sizeof *out);
    if (!s->over) return;
    out->ended = 1;
    out->winners = s->winners;
    snprintf(out->level, sizeof out->level, "%s", s->level);
    wem_victory_text(s, out->reason, sizeof out->reason);
    int32_t vp[WEM_ARMIES];
    wem_scores(s, vp);
    for (unsigned i = 0; i < s->nseats; i++) {
        int armies[WEM_ARMIES];
        int n = wem_seat_armies(s, i, armies);
        for (int k = 0; k < n; k++) out->scores[i] += vp[armies[k]];
    }
}

/* a seat resigns: its side loses (blue against red and black together) */
static void s_resign(void *st, unsigned seat, brt_events *ev) {
    wem_state *s = st;
    if (s->over) return;
    s->over = 1;
    s->phase = WEM_PH_OVER;
    s->resigned = (uint8_t)(seat + 1);
    uint32_t allies = wem_army_mask(s, WEM_RED) | wem_army_mask(s, WEM_BLACK);
    s->winners = seat == 0 ? allies : wem_army_mask(s, WEM_BLUE);
    snprintf(s->level, sizeof s->level, "forfeit");
    snprintf(s->reason, sizeof s->reason, "seat %u resigned", seat);
    wem_event(s, ev, BRT_SEATS_ALL, "resigned", -1, -1, -1, (int)seat, NULL, 0, NULL, 0, "seat %u resigned", seat);
}

static int s_timeout(void *st, unsigned seat, brt_dice *dice, brt_events *ev) {
    return wem_timeout_default(st, seat, dice, ev);
}

static int s_order_parse(const void *st, const char *text, brt_buf *out, brt_reject *err) {
    wem_order o;
    if (wem_order_parse(st, text, &o, err)) return -1;
    if (wem_order_encode(st, &o, out))
        return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "Order", "the order cannot be encoded");
    return 0;
}

static int s_order_format(const uint8_t *order, size_t len, brt_buf *out) { return wem_order_format(order, len, out); }
static int s_event_format(const uint8_t *event, size_t len, brt_buf *out) { return wem_event_format(event, len, out); }
static int s_render(const void *st, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    return wem_render(st, viewpoint, ctx, out);
}

static int s_query(const void *st, int viewpoint, const char *text, brt_buf *out) {
    return wem_query(st, viewpoint, text, out);
}

const brt_ruleset brt_ruleset_wem = {
    .id = "wem",
    .version = WEM_VERSION,
    .scenario_seats = s_seats,
    .scenario_hash = s_hash,
    .setup = s_setup,
    .destroy = s_destroy,
    .clone = s_clone,
    .pending = s_pending,
    .apply = s_apply,
    .legal = s_legal,
    .view = s_view,
    .view_text = s_view_text,
    .render = s_render,
    .encode = s_encode,
    .result = s_result,
    .resign = s_resign,
    .timeout_default = s_timeout,
    .order_parse = s_order_parse,
    .order_format = s_order_format,
    .event_format = s_event_format,
    .scenario_name = s_scenario_name,
    .scenario_option = s_scenario_option,
    .query = s_query,
};
