/*
 * ruleset.c - brt_ruleset_n20: the table the core calls.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"

#define N20_VERSION "n20-0.3.0" /* 0.3.0: fog-of-war [16.1]; 0.2.0: kept Event cards [5.0], options in the state */

static int s_seats(const char *scenario, const char **names, size_t max) {
    if (!n20_scenario_get(scenario)) return -1;
    if (names && max >= 2) {
        names[0] = "french";
        names[1] = "allied";
    }
    return 2;
}

static int s_hash(const char *scenario, uint8_t out[32]) {
    size_t len = 0;
    const char *t = n20_data_text(scenario, &len);
    if (!t || !n20_scenario_get(scenario)) return -1;
    return crypto_generichash(out, 32, (const unsigned char *)t, len, NULL, 0);
}

/* [16.1] per-seat events: n20_event sends the full event to the seats entitled to it (0 = the
 * log only) and a redacted copy to each other seat */
static void s_emit_core_to(void *ctx, uint32_t seats, const uint8_t *data, size_t len) {
    if (ctx) brt_events_emit((brt_events *)ctx, seats, data, len);
}

/* Every option name the n20 ruleset knows; `implemented` 0 ones are refused. */
const n20_option_def n20_options[] = {
    {"just-like-old-days", N20_OPT_OLD_DAYS, 1},
    {"fog-of-war", N20_OPT_FOG, 1},
    {"cavalry-penetration", N20_OPT_CAV_PENETRATION, 0},
    {"artillery-support", N20_OPT_ART_SUPPORT, 0},
    {"rally-locations", N20_OPT_RALLY_LOCATIONS, 0},
    {"unit-reduction", N20_OPT_UNIT_REDUCTION, 0},
    {"breakdown", N20_OPT_BREAKDOWN, 0},
    {"special-units", N20_OPT_SPECIAL_UNITS, 0},
    {"fatigue", N20_OPT_FATIGUE, 0},
    {"leaders", N20_OPT_LEADERS, 0},
    {"variable-weather", N20_OPT_VAR_WEATHER, 0},
    {"sambre-crossing", N20_OPT_SAMBRE, 0},
    {"berthier-is-back", N20_OPT_BERTHIER_BACK, 0},
    {"look-out-bulow", N20_OPT_LOOKOUT_BULOW, 0},
    {"historical-events", N20_OPT_HIST_EVENTS, 0},
    {"lobau-reinforced", N20_OPT_LOBAU, 0},
    {"rapp", N20_OPT_RAPP, 0},
};
const size_t n20_noptions = sizeof n20_options / sizeof n20_options[0];

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice, brt_reject *err) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    if (!sc) {
        if (err) {
            n20_reject(err, "3.0", "unknown scenario %.60s (n20 knows waterloo20-standard)", scenario ? scenario : "");
            err->code = BRT_REJECT_BAD_SCENARIO;
        }
        return NULL;
    }
    if (opts && opts->seats && opts->seats != 2) {
        if (err) {
            n20_reject(err, "3.0", "%s is played by 2 seats (french, allied), not %u", scenario, opts->seats);
            err->code = BRT_REJECT_BAD_SEATS;
        }
        return NULL;
    }
    uint32_t bits = 0;
    for (size_t i = 0; opts && i < opts->count; i++) {
        const n20_option_def *o = NULL;
        for (size_t k = 0; k < n20_noptions; k++)
            if (strcmp(opts->names[i], n20_options[k].name) == 0) o = &n20_options[k];
        if (!o || !o->implemented) {
            if (err) {
                n20_reject(err, "16.0", "%s option %.60s", o ? "not yet supported:" : "unknown", opts->names[i]);
                err->code = BRT_REJECT_BAD_OPTION;
            }
            return NULL;
        }
        bits |= o->bit;
    }
    n20_state *s = n20_state_new(sc);
    if (!s) return NULL;
    n20_setup(s, dice, NULL, bits, err);
    n20_run(s, dice, NULL);
    return s;
}

static void s_destroy(void *state) { free(state); }

static void *s_clone(const void *state) {
    n20_state *c = malloc(sizeof(n20_state));
    if (c) memcpy(c, state, sizeof(n20_state));
    return c;
}

static void s_pending(const void *state, brt_pending *out) { n20_pending(state, out); }

static int s_apply(void *state, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice, brt_events *ev,
                   brt_reject *err) {
    n20_sink sink = {s_emit_core_to, ev};
    n20_out out = {n20_sink_emit, &sink};
    return n20_apply(state, seat, order, len, dice, &out, err);
}

static int s_legal(const void *state, unsigned seat, brt_buf *out) { return n20_legal(state, seat, out); }
static int s_view(const void *state, int seat, brt_buf *out) { return n20_view(state, seat, out); }
static int s_view_text(const void *state, int seat, brt_buf *out) { return n20_view_text(state, seat, out); }
static int s_encode(const void *state, brt_buf *out) { return n20_encode(state, out); }
static void s_result(const void *state, brt_result *out) { n20_result(state, out); }

static void s_resign(void *state, unsigned seat, brt_events *ev) {
    n20_sink sink = {s_emit_core_to, ev};
    n20_out out = {n20_sink_emit, &sink};
    n20_resign(state, seat, &out);
}

static int s_timeout(void *state, unsigned seat, brt_dice *dice, brt_events *ev) {
    /* the rules' default: the first legal order (an "end" where there is one; with fog-of-war a
     * [16.1.1] reveal order sorts last, never first) */
    brt_buf b;
    buf_init(&b);
    int rc = -1;
    if (n20_legal(state, seat, &b) > 0) {
        size_t pos = 0;
        const uint8_t *item;
        size_t len;
        if (buf_next_item(&b, &pos, &item, &len) == 1) {
            n20_sink sink = {s_emit_core_to, ev};
            n20_out out = {n20_sink_emit, &sink};
            brt_reject err;
            rc = n20_apply(state, seat, item, len, dice, &out, &err);
        }
    }
    buf_free(&b);
    return rc;
}

static int s_parse(const void *state, const char *text, brt_buf *out, brt_reject *err) {
    return n20_order_parse(state, text, out, err);
}

const brt_ruleset brt_ruleset_n20 = {
    .id = "n20",
    .version = N20_VERSION,
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
    .encode = s_encode,
    .result = s_result,
    .resign = s_resign,
    .timeout_default = s_timeout,
    .order_parse = s_parse,
    .order_format = n20_order_format,
    .event_format = n20_event_format,
};
