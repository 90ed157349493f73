/*
 * ruleset.c - brt_ruleset_n20: the table the core calls.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "n20.h"

#define N20_VERSION "n20-0.6.0" /* 0.6.0: `label` records (named places) in the map data, so every scenario hash changes; the events of a battle name its units ([9.2] declared: who attacks whom, [9.6] combat, [16.9.5] command, [16.3.2] bombardment), placeholders N20_U(0..15), the spectators' copy of a redacted event (BRT_SEATS_SPECTATORS); 0.5.0: who may see each roll (LogDice.visible: shuffles seen by nobody, rolls for hidden units [16.1] [17.1.1] only by the seats that see them), every unit an event names in its text is in its units list; 0.4.0: [17.1.1] sambre-crossing (state: its phases, a flag, one byte), [17.1] SPECIAL RULE (rebuild order, detached Cadres in the state), [16.6.1] Dummy; 0.3.0: optional rules [16.x], scenarios [17.x], 16-bit unit flags; 0.2.0: kept Event cards [5.0] */

static int s_seats(const char *scenario, const char **names, size_t max) {
    if (!n20_scenario_get(scenario)) return -1;
    if (names && max >= 2) {
        names[0] = "french";
        names[1] = "allied";
    }
    return 2;
}

/* BLAKE2b-256 of the scenario's file; a scenario built on a base ([17.0], `base` record)
 * hashes its own file, then its base's, and so on down the chain. */
static int s_hash_now(const char *scenario, uint8_t out[32]) {
    size_t len = 0;
    const char *t = n20_data_text(scenario, &len);
    const n20_scenario *sc = n20_scenario_get(scenario);
    if (!t || !sc) return -1;
    if (!sc->base[0]) return crypto_generichash(out, 32, (const unsigned char *)t, len, NULL, 0);
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, NULL, 0, 32)) return -1;
    for (int depth = 0; sc && t && depth < 4; depth++) {
        crypto_generichash_update(&st, (const unsigned char *)t, len);
        if (!sc->base[0]) break;
        t = n20_data_text(sc->base, &len);
        sc = n20_scenario_get(sc->base);
    }
    return crypto_generichash_final(&st, out, 32);
}

/* The built-in data never changes: each scenario's hash is computed the first time a game of
 * it is created (every game created asks for it) and the copy handed out after. */
enum { S_HASHED = 16 };
static once_flag s_hash_once = ONCE_FLAG_INIT;
static mtx_t s_hash_mtx;
static int s_hash_done[S_HASHED]; /* 0 not yet, 1 computed (s_hash_rc its result) */
static uint8_t s_hashes[S_HASHED][32];
static int s_hash_rc[S_HASHED];

static void s_hash_init(void) { mtx_init(&s_hash_mtx, mtx_plain); }

static int s_hash(const char *scenario, uint8_t out[32]) {
    if (!scenario) return -1;
    call_once(&s_hash_once, s_hash_init);
    for (size_t i = 0; i < S_HASHED && n20_data_name(i); i++) {
        if (strcmp(scenario, n20_data_name(i)) != 0) continue;
        mtx_lock(&s_hash_mtx);
        if (!s_hash_done[i]) {
            s_hash_rc[i] = s_hash_now(n20_data_name(i), s_hashes[i]);
            s_hash_done[i] = 1;
        }
        int rc = s_hash_rc[i];
        if (rc == 0) memcpy(out, s_hashes[i], 32);
        mtx_unlock(&s_hash_mtx);
        return rc;
    }
    return s_hash_now(scenario, out); /* a name that is no built-in scenario: as before */
}

/* the rule of each scenario-bound option, for the refusal [17.x] */
static const char *s_option_rule(uint32_t bit) {
    switch (bit) {
    case N20_OPT_SAMBRE: return "17.1.1";
    case N20_OPT_LOOKOUT_BULOW: return "17.1.3";
    case N20_OPT_HIST_EVENTS: return "17.3.1";
    case N20_OPT_LOBAU: return "17.4.1";
    case N20_OPT_RAPP: return "17.4.2";
    case N20_OPT_FLORIDSDORF: return "16.10"; /* Wagram 20 [16.10] */
    case N20_OPT_13TH_CARD: return "17.1";    /* A-E and Wagram 20 [17.1] */
    case N20_OPT_LINZ: return "17.2";         /* A-E [17.2] */
    case N20_OPT_BERTRAND: return "17.3";     /* A-E [17.3] */
    default: return "17.0";
    }
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
    {"cavalry-penetration", N20_OPT_CAV_PENETRATION, 1},
    {"artillery-support", N20_OPT_ART_SUPPORT, 1},
    {"rally-locations", N20_OPT_RALLY_LOCATIONS, 1},
    {"unit-reduction", N20_OPT_UNIT_REDUCTION, 1},
    {"breakdown", N20_OPT_BREAKDOWN, 1},
    {"special-units", N20_OPT_SPECIAL_UNITS, 1},
    {"fatigue", N20_OPT_FATIGUE, 1},
    {"leaders", N20_OPT_LEADERS, 1},
    {"variable-weather", N20_OPT_VAR_WEATHER, 1},
    {"sambre-crossing", N20_OPT_SAMBRE, 1},
    {"berthier-is-back", N20_OPT_BERTHIER_BACK, 1},
    {"look-out-bulow", N20_OPT_LOOKOUT_BULOW, 1},
    {"historical-events", N20_OPT_HIST_EVENTS, 1},
    {"lobau-reinforced", N20_OPT_LOBAU, 1},
    {"rapp", N20_OPT_RAPP, 1},
    /* Danube 20 (scenario-bound: each scenario's `option` records say which it takes) */
    {"floridsdorf-pontoon", N20_OPT_FLORIDSDORF, 1}, /* Wagram [16.10] (wagram.c) */
    {"thirteenth-card", N20_OPT_13TH_CARD, 1}, /* A-E and Wagram [17.1]: a card record `out` */
    {"summoned-from-linz", N20_OPT_LINZ, 1},   /* A-E [17.2] (ae.c) */
    {"bertrand-miracle", N20_OPT_BERTRAND, 1}, /* A-E [17.3] (ae.c) */
};
const size_t n20_noptions = sizeof n20_options / sizeof n20_options[0];

extern const brt_ruleset brt_ruleset_n20;

/* Whether scenario sc accepts option o (the same tests as setup below). */
static int s_option_ok(const n20_scenario *sc, const n20_option_def *o) {
    if (!o->implemented) return 0;
    if ((o->bit & N20_OPT_SCENARIO_BOUND) && !(sc->opts_ok & o->bit)) return 0;
    if (n20_ed_option_check(sc, o->bit, NULL) < 0) return 0; /* not listed where refused */
    return !(sc->opts_unsupported & o->bit);
}

/* The i-th scenario whose data loads (n20_scenario_get refuses the others). */
static const char *s_scenario_name(size_t i, unsigned *min_seats) {
    if (min_seats) *min_seats = 2;
    for (size_t k = 0; n20_data_name(k); k++) {
        if (!n20_scenario_get(n20_data_name(k))) continue;
        if (i-- == 0) return n20_data_name(k);
    }
    return NULL;
}

static const char *s_scenario_option(const char *scenario, size_t i) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    if (!sc) return NULL;
    for (size_t k = 0; k < n20_noptions; k++) {
        if (!s_option_ok(sc, &n20_options[k])) continue;
        if (i-- == 0) return n20_options[k].name;
    }
    return NULL;
}

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice, brt_reject *err) {
    const n20_scenario *sc = n20_scenario_get(scenario);
    if (!sc) {
        if (err) {
            char names[400];
            brt_ruleset_names(&brt_ruleset_n20, NULL, names, sizeof names);
            n20_reject(err, "3.0", "unknown scenario \"%.40s\" for n20; valid: %s", scenario ? scenario : "",
                       names);
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
                char names[400];
                brt_ruleset_names(&brt_ruleset_n20, scenario, names, sizeof names);
                n20_reject(err, "16.0", "%s option \"%.60s\" for %s; valid: %s", o ? "not yet supported:" : "unknown",
                           opts->names[i], scenario, names);
                err->code = BRT_REJECT_BAD_OPTION;
            }
            return NULL;
        }
        if ((o->bit & N20_OPT_SCENARIO_BOUND) && !(sc->opts_ok & o->bit)) {
            if (err) {
                const char *rule = s_option_rule(o->bit);
                char names[400];
                brt_ruleset_names(&brt_ruleset_n20, scenario, names, sizeof names);
                n20_reject(err, rule, "option %s does not apply to scenario %.60s; valid: %s", o->name, scenario,
                           names);
                err->code = BRT_REJECT_BAD_OPTION;
            }
            return NULL;
        }
        if (n20_ed_option_check(sc, o->bit, err) < 0) return NULL; /* an option of the other edition */
        if (sc->opts_unsupported & o->bit) {
            if (err) {
                n20_reject(err, "16.0", "option %s is not yet supported in scenario %.60s (rules/n20/README.md)",
                           o->name, scenario);
                err->code = BRT_REJECT_BAD_OPTION;
            }
            return NULL;
        }
        bits |= o->bit;
    }
    bits |= sc->opts_required; /* e.g. [17.1] "Optional rule [16.6] must be used" */
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
static int s_render(const void *state, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    return n20_render(state, viewpoint, ctx, out);
}
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
    .render = s_render,
    .encode = s_encode,
    .result = s_result,
    .resign = s_resign,
    .timeout_default = s_timeout,
    .order_parse = s_parse,
    .order_format = n20_order_format,
    .event_format = n20_event_format,
    .scenario_name = s_scenario_name,
    .scenario_option = s_scenario_option,
};
