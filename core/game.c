/*
 * game.c - the game driver (see game.h for the record order it guarantees).
 *
 * Records an accepted input produces, in order:
 *   input record (JOIN | ORDER | TIMEOUT | RESIGN | NONCE | ABORT)
 *   outcomes, in the order they happened: DICE and EVENT records
 *   STATE (seq, state hash, turn)             only when the input was applied
 *   END, REVEAL                               when the game ended
 *   CHECKPOINT                                at the start, when the turn changed, at the end
 *
 * Sealed decisions: pending() names several seats with `sealed`. Each seat's
 * order is checked by a dry run on a copy of the state, logged (its ORDER
 * record) and kept; seq does not move and nothing is told to the others. When
 * the last one arrives, all are applied in seat order to the real state.
 *
 * dice=contributory: before an input whose application rolls dice (found by a
 * dry run), the input is logged and kept, and every seat must reveal the next
 * link of its nonce chain (NONCE records). The batch key then mixes the dice
 * key, the batch number, the chain head when the batch opened (the hash of the
 * input record that opened it: the last JOIN for setup, else the ORDER) and
 * the nonces in seat order (core/dice.h); the kept input is applied with it.
 */
#include "game.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "evlog.h"
#include "vis.h"
#include "seatsig.h"

#define LOG_FORMAT 1

typedef enum { DEFER_NONE = 0, DEFER_SETUP, DEFER_ORDERS } defer_kind;

/* Seat signatures (seatsig.h): decided by the first join, the same for every seat. */
typedef enum { SIG_UNDECIDED = 0, SIG_SIGNED, SIG_UNSIGNED } sig_mode;

struct brt_events {
    brt_buf *out;       /* encoded pending records: u8 kind | u32 le len | payload */
    uint64_t seq;
    uint32_t index;
};

struct brt_game {
    const brt_ruleset *rs;
    Berthier__V1__LogHeader *hdr;
    char id[GAME_ID_MAX + 1];
    unsigned nseats;
    char **rules_opts;          /* options handed to the ruleset */
    size_t n_rules_opts;
    int contributory;
    int fixed;                  /* dice-seed: the key is derived from the seed alone */

    uint8_t *hdr_bytes;         /* the exact HEADER payload */
    size_t hdr_len;
    uint8_t hdr_hash[32];       /* BLAKE2b-256 of it: what seats sign */
    sig_mode sig;
    uint8_t sign_pk[BRT_MAX_SEATS][32];  /* each seat's key, bound by its signed join */

    brt_sink sink;
    void *state;                /* NULL until every seat has joined */
    int started;
    int over;
    int halted;                 /* a broken invariant: refuse every input */
    uint64_t seq;
    uint32_t last_turn;

    int joined[BRT_MAX_SEATS];
    uint8_t entropy[BRT_MAX_SEATS][32];
    uint8_t chain[BRT_MAX_SEATS][32];   /* contributory: last revealed link */

    uint8_t seed[32];
    int have_seed;
    uint8_t dice_key[32];
    uint8_t batch_key[32];
    int use_batch_key;
    brt_dice dice;
    dice_source_fn ext_source;
    void *ext_ctx;

    /* sealed choices collected so far */
    brt_buf sealed[BRT_MAX_SEATS];
    int sealed_have[BRT_MAX_SEATS];

    /* contributory: what waits for the batch's nonces */
    defer_kind deferred;
    int abandoned_nonce;   /* ended before the start by a withheld batch-0 nonce (TIMEOUT) */
    int aborted;                /* an admin's ABORT ended the game: abort_res is its result */
    brt_result abort_res;
    uint64_t batch;
    uint8_t batch_head[32];     /* log head when the batch opened, before any reveal */
    uint8_t nonce[BRT_MAX_SEATS][32];
    int nonce_have[BRT_MAX_SEATS];
    unsigned deferred_seat[BRT_MAX_SEATS];
    brt_buf deferred_order[BRT_MAX_SEATS];
    size_t n_deferred;

    brt_buf pending_records;    /* outcomes of the application under way */
    int probing;                /* dry run: rolls are counted, not recorded */
    int replaying;              /* game_set_replaying: orders applied once, unchecked first */
    seat_verify_fn seat_verify; /* game_set_seat_verify: NULL = seatsig_verify */
    void *seat_verify_ctx;
};

/* ---- small helpers ------------------------------------------------------ */

static int s_pending_record(brt_buf *out, uint8_t kind, const ProtobufCMessage *msg) {
    size_t n = protobuf_c_message_get_packed_size(msg);
    if (n > UINT32_MAX || buf_reserve(out, 5 + n) != 0) return -1;
    uint8_t k = kind;
    buf_append(out, &k, 1);
    buf_append_u32le(out, (uint32_t)n);
    protobuf_c_message_pack(msg, out->data + out->len);
    out->len += n;
    return 0;
}

int brt_events_emit(brt_events *ev, uint32_t visible, const uint8_t *data, size_t len) {
    Berthier__V1__LogEvent e = BERTHIER__V1__LOG_EVENT__INIT;
    e.seq = ev->seq;
    e.index = ev->index++;
    e.visible = visible;
    e.data.data = (uint8_t *)data;
    e.data.len = len;
    return s_pending_record(ev->out, EVLOG_EVENT, &e.base);
}

static uint32_t s_dice_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    brt_game *g = ctx;
    if (g->probing) return 1;
    if (g->have_seed) return dice_stream_value(g->use_batch_key ? g->batch_key : g->dice_key, index, sides);
    if (g->ext_source) return g->ext_source(g->ext_ctx, index, sides, purpose);
    return 0;
}

static void s_dice_record(void *ctx, uint64_t index, uint32_t sides, uint32_t value, uint32_t seats,
                          const char *purpose) {
    brt_game *g = ctx;
    if (g->probing) return;
    Berthier__V1__LogDice d = BERTHIER__V1__LOG_DICE__INIT;
    d.index = index;
    d.sides = sides;
    d.value = value;
    d.purpose = (char *)(purpose ? purpose : "");
    d.visible = vis_dice_encode(seats, g->nseats); /* 0 (absent) = public, as in older logs */
    if (s_pending_record(&g->pending_records, EVLOG_DICE, &d.base) != 0) g->dice.failed = 1;
}

/* Emit the records collected in pending_records. */
static int s_flush_pending(brt_game *g) {
    size_t pos = 0;
    brt_buf *b = &g->pending_records;
    int rc = 0;
    while (pos + 5 <= b->len) {
        uint8_t kind = b->data[pos];
        uint32_t n = (uint32_t)b->data[pos + 1] | (uint32_t)b->data[pos + 2] << 8 |
                     (uint32_t)b->data[pos + 3] << 16 | (uint32_t)b->data[pos + 4] << 24;
        if (rc == 0 && g->sink.record(g->sink.ctx, kind, b->data + pos + 5, n) != 0) rc = -1;
        pos += 5 + (size_t)n;
    }
    buf_reset(b);
    return rc;
}

static int s_emit(brt_game *g, uint8_t kind, const ProtobufCMessage *msg) {
    size_t n;
    uint8_t *p = canon_pack(msg, &n);
    if (!p) return -1;
    int rc = g->sink.record(g->sink.ctx, kind, p, n);
    free(p);
    return rc;
}

/* A sink failure or a dice failure is a broken invariant: the game stops taking input. */
static int s_halt(brt_game *g, brt_reject *err, const char *what) {
    g->halted = 1;
    return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "the game is halted: %s", what);
}

int game_option_is_core(const char *opt) {
    return strncmp(opt, "dice=", 5) == 0 || strncmp(opt, "dice-seed=", 10) == 0 ||
           strncmp(opt, "spectators=", 11) == 0;
}

#define S_FIXED_OPTION "dice-seed=fixed" /* what the header keeps of dice-seed=HEX */

int game_fixed_seed(char *const *opts, size_t n, uint8_t seed[32], brt_reject *err) {
    int found = 0, other_mode = 0;
    for (size_t i = 0; i < n; i++) {
        const char *o = opts[i];
        if (strncmp(o, "dice=", 5) == 0) other_mode = 1;
        if (strncmp(o, "dice-seed=", 10) != 0) continue;
        if (found)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "", "dice-seed is given twice");
        const char *hex = o + 10;
        size_t bin_len = 0;
        if (strlen(hex) != 64 ||
            sodium_hex2bin(seed, 32, hex, 64, NULL, &bin_len, NULL) != 0 || bin_len != 32)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "",
                                  "dice-seed needs 64 hex digits (a 32-byte seed), not \"%.80s\"", hex);
        found = 1;
    }
    if (found && other_mode)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "",
                              "dice-seed fixes the dice: it cannot be combined with a dice= option");
    return found;
}

int game_dice_fixed(const brt_game *self) { return self->fixed; }

static const char *const s_core_options[] = {"dice=standard", "dice=contributory", "spectators=live", "dice-seed=HEX", NULL};

const char *const *game_core_options(void) { return s_core_options; }

static void s_free_opts(brt_game *g) {
    for (size_t i = 0; i < g->n_rules_opts; i++) free(g->rules_opts[i]);
    free(g->rules_opts);
    g->rules_opts = NULL;
    g->n_rules_opts = 0;
}

/* Split options into core and ruleset ones; validates the core ones. */
static int s_parse_options(brt_game *g, char *const *opts, size_t n, brt_reject *err) {
    g->rules_opts = calloc(n ? n : 1, sizeof(char *));
    if (!g->rules_opts) return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *o = opts[i];
        if (game_option_is_core(o)) {
            if (strcmp(o, "dice=contributory") == 0) g->contributory = 1;
            else if (strcmp(o, "dice=standard") == 0) g->contributory = 0;
            else if (strcmp(o, "spectators=live") == 0) { /* the daemon reads it */ }
            else if (strcmp(o, S_FIXED_OPTION) == 0 && !g->fixed) g->fixed = 1;
            else {
                char valid[200] = "";
                size_t len = 0;
                for (size_t k = 0; s_core_options[k] && len < sizeof valid; k++)
                    len += (size_t)snprintf(valid + len, sizeof valid - len, "%s%s", k ? ", " : "", s_core_options[k]);
                return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "",
                                      "unknown core option \"%.60s\"; valid: %s", o, valid);
            }
            continue;
        }
        g->rules_opts[g->n_rules_opts] = strdup(o);
        if (!g->rules_opts[g->n_rules_opts])
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        g->n_rules_opts++;
    }
    return 0;
}

static brt_ruleset_options s_rules_options(const brt_game *g) {
    brt_ruleset_options o = {(const char *const *)g->rules_opts, g->n_rules_opts, g->nseats};
    return o;
}

static brt_game *s_alloc(brt_sink sink) {
    brt_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->sink = sink;
    g->dice.source = s_dice_source;
    g->dice.source_ctx = g;
    g->dice.record = s_dice_record;
    g->dice.record_ctx = g;
    for (unsigned i = 0; i < BRT_MAX_SEATS; i++) {
        buf_init(&g->sealed[i]);
        buf_init(&g->deferred_order[i]);
    }
    buf_init(&g->pending_records);
    return g;
}

/* The length of an option's name: up to its '=' (docs/protocol.md P4.1). */
static size_t s_option_name_len(const char *o) {
    const char *eq = strchr(o, '=');
    return eq ? (size_t)(eq - o) : strlen(o);
}

/* Limits on what a header may hold (docs/protocol.md P4.1), checked at
 * creation and again on every load, so that a log whose header breaks them is
 * refused by replay too. Seat keys are checked by the caller. */
static int s_check_limits(const Berthier__V1__LogHeader *h, brt_reject *err) {
    if (h->n_options > GAME_MAX_OPTIONS)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "P4.1",
                              "%zu options; a game takes at most %d", h->n_options, GAME_MAX_OPTIONS);
    for (size_t i = 0; i < h->n_options; i++) {
        const char *o = h->options[i];
        size_t len = strlen(o);
        if (len == 0 || len > GAME_MAX_OPTION_LEN)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "P4.1",
                                  "option %zu is %zu bytes; an option is 1 to %d bytes", i, len,
                                  GAME_MAX_OPTION_LEN);
        size_t nl = s_option_name_len(o);
        for (size_t j = 0; j < i; j++) {
            const char *p = h->options[j];
            if (s_option_name_len(p) == nl && memcmp(p, o, nl) == 0)
                return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "P4.1",
                                      "option \"%.*s\" is given twice (options %zu and %zu)", (int)nl, o, j, i);
        }
    }
    for (size_t i = 0; i < h->n_seats; i++) {
        const char *name = h->seats[i]->name;
        size_t len = name ? strlen(name) : 0;
        if (len > GAME_MAX_SEAT_NAME)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "P4.1",
                                  "seat %zu: its name is %zu bytes; a seat name is at most %d bytes", i, len,
                                  GAME_MAX_SEAT_NAME);
    }
    if (h->n_spectator_keys > GAME_MAX_SPECTATORS)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "P4.1",
                              "%zu spectator keys; a game takes at most %d", h->n_spectator_keys,
                              GAME_MAX_SPECTATORS);
    for (size_t i = 0; i < h->n_spectator_keys; i++) {
        const ProtobufCBinaryData *k = &h->spectator_keys[i];
        if (k->len != 32)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "P4.1",
                                  "spectator key %zu: a key is 32 bytes, not %zu", i, k->len);
        for (size_t j = 0; j < i; j++)
            if (memcmp(h->spectator_keys[j].data, k->data, 32) == 0)
                return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "P4.1",
                                      "spectator keys %zu and %zu are the same key", j, i);
        for (size_t s = 0; s < h->n_seats; s++)
            if (h->seats[s]->key.len == 32 && memcmp(h->seats[s]->key.data, k->data, 32) == 0)
                return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "P4.1",
                                      "spectator key %zu is the key of seat %zu; a seat key cannot also watch", i,
                                      s);
    }
    return 0;
}

/* Checks the ruleset, scenario, options and seats of a header; sets up g. */
static int s_adopt_header(brt_game *g, Berthier__V1__LogHeader *h, brt_reject *err) {
    g->hdr = h;
    if (!h->game_id || strlen(h->game_id) == 0 || strlen(h->game_id) > GAME_ID_MAX)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "bad game id");
    snprintf(g->id, sizeof g->id, "%s", h->game_id);
    g->rs = brt_ruleset_find(h->ruleset);
    if (!g->rs) {
        char ids[200] = "";
        size_t len = 0;
        const brt_ruleset *const *all = brt_ruleset_all();
        for (size_t i = 0; all[i] && len < sizeof ids; i++)
            len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%s", i ? ", " : "", all[i]->id);
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_RULESET, "", "unknown ruleset \"%.40s\"; valid: %s",
                              h->ruleset ? h->ruleset : "", ids);
    }
    const char *names[BRT_MAX_SEATS] = {0};
    int max = g->rs->scenario_seats(h->scenario, names, BRT_MAX_SEATS);
    if (max < 0) {
        char valid[400];
        brt_ruleset_names(g->rs, NULL, valid, sizeof valid);
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SCENARIO, "",
                              "unknown scenario \"%.40s\" for %s; valid: %s", h->scenario ? h->scenario : "",
                              g->rs->id, valid);
    }
    if (h->n_seats < 2 || h->n_seats > (size_t)max || h->n_seats > BRT_MAX_SEATS)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "",
                              "%s %s is played by 2 to %d seats, not %zu", g->rs->id, h->scenario, max,
                              h->n_seats);
    g->nseats = (unsigned)h->n_seats;
    for (size_t i = 0; i < h->n_seats; i++) {
        const Berthier__V1__SeatSpec *s = h->seats[i];
        if (s->seat != i)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "",
                                  "seats must be listed in order 0..%u", g->nseats - 1);
        if (s->key.len != 32)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "",
                                  "seat %zu: a key is 32 bytes, not %zu", i, s->key.len);
        for (size_t j = 0; j < i; j++)
            if (memcmp(h->seats[j]->key.data, s->key.data, 32) == 0)
                return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "",
                                      "seats %zu and %zu have the same key; every seat needs its own", j, i);
    }
    if (s_check_limits(h, err) != 0) return -1;
    /* The create request: all of it or nothing (a create without an id). */
    if (h->create_request_id ? (h->create_key.len != 32 || h->create_digest.len != GAME_CREATE_DIGEST)
                             : (h->create_key.len != 0 || h->create_digest.len != 0))
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "",
                              "the header's create request is incomplete: id %llu, key %zu bytes, digest %zu bytes",
                              (unsigned long long)h->create_request_id, h->create_key.len, h->create_digest.len);
    if (s_parse_options(g, h->options, h->n_options, err) != 0) return -1;
    if (g->fixed && g->contributory)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "",
                              "dice-seed fixes the dice: it cannot be combined with a dice= option");
    if (h->dice_mode && h->dice_mode[0] &&
        strcmp(h->dice_mode, g->fixed ? "fixed" : g->contributory ? "contributory" : "standard") != 0)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "", "dice mode disagrees with options");
    /* Validate the ruleset options now with a setup that rolls nothing. */
    brt_ruleset_options ro = s_rules_options(g);
    g->probing = 1;
    void *probe = g->rs->setup(h->scenario, &ro, &g->dice, err);
    g->probing = 0;
    g->dice.next_index = 0;
    g->dice.rolls_made = 0;
    g->dice.failed = 0;
    if (!probe) return -1;
    g->rs->destroy(probe);
    return 0;
}

brt_game *game_create(const game_params *p, brt_sink sink, brt_reject *err) {
    const Berthier__V1__CreateGame *c = p->create;
    brt_game *g = s_alloc(sink);
    if (!g) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        return NULL;
    }
    /* Build the header as a packed message, then re-read it: one owned representation. */
    Berthier__V1__LogHeader tmp = BERTHIER__V1__LOG_HEADER__INIT;
    uint8_t commit[32], scen_hash[32], fixed_seed[32];
    memset(scen_hash, 0, sizeof scen_hash);
    /* dice-seed=HEX: the operator's seed replaces the daemon's; the header keeps only
     * "dice-seed=fixed", so that the seats do not learn the seed from it. */
    int fixed = game_fixed_seed(c->options, c->n_options, fixed_seed, err);
    if (fixed < 0) {
        free(g);
        return NULL;
    }
    const uint8_t *seed = fixed ? fixed_seed : p->seed;
    dice_commit(seed, commit);
    const brt_ruleset *rs = brt_ruleset_find(c->ruleset);
    int contributory = 0;
    char *opt_copy[GAME_MAX_OPTIONS];
    size_t n_opts = c->n_options < GAME_MAX_OPTIONS ? c->n_options : GAME_MAX_OPTIONS;
    for (size_t i = 0; i < c->n_options; i++)
        if (strcmp(c->options[i], "dice=contributory") == 0) contributory = 1;
    for (size_t i = 0; i < n_opts; i++)
        opt_copy[i] = strncmp(c->options[i], "dice-seed=", 10) == 0 ? (char *)S_FIXED_OPTION : c->options[i];
    if (rs && rs->scenario_hash(c->scenario, scen_hash) != 0) memset(scen_hash, 0, sizeof scen_hash);
    tmp.format = LOG_FORMAT;
    tmp.game_id = (char *)p->game_id;
    tmp.ruleset = c->ruleset;
    tmp.ruleset_version = (char *)(rs ? rs->version : "");
    tmp.scenario = c->scenario;
    tmp.scenario_hash.data = scen_hash;
    tmp.scenario_hash.len = 32;
    tmp.n_options = c->n_options > n_opts ? c->n_options : n_opts;
    tmp.options = c->n_options > n_opts ? c->options : opt_copy; /* too many: refused below */
    tmp.engine_version = (char *)p->engine_version;
    tmp.server_sign_pk.data = (uint8_t *)p->sign_pk;
    tmp.server_sign_pk.len = 32;
    tmp.dice_commit.data = commit;
    tmp.dice_commit.len = 32;
    /* Seats as asked, with the ruleset's seat names where the request gave none. */
    const char *names[BRT_MAX_SEATS] = {0};
    if (rs) rs->scenario_seats(c->scenario, names, BRT_MAX_SEATS);
    Berthier__V1__SeatSpec seat_copy[BRT_MAX_SEATS], *seat_ptr[BRT_MAX_SEATS];
    size_t nseats = c->n_seats < BRT_MAX_SEATS ? c->n_seats : BRT_MAX_SEATS;
    for (size_t i = 0; i < nseats; i++) {
        seat_copy[i] = *c->seats[i];
        if ((!seat_copy[i].name || !seat_copy[i].name[0]) && c->seats[i]->seat < BRT_MAX_SEATS &&
            names[c->seats[i]->seat])
            seat_copy[i].name = (char *)names[c->seats[i]->seat];
        seat_ptr[i] = &seat_copy[i];
    }
    tmp.n_seats = c->n_seats > BRT_MAX_SEATS ? c->n_seats : nseats;
    tmp.seats = c->n_seats > BRT_MAX_SEATS ? c->seats : seat_ptr;
    tmp.clock = c->clock;
    tmp.n_spectator_keys = c->n_spectator_keys;
    tmp.spectator_keys = c->spectator_keys;
    tmp.dice_mode = (char *)(fixed ? "fixed" : contributory ? "contributory" : "standard");
    if (p->create_request_id && p->create_key && p->create_digest) {
        tmp.create_key.data = (uint8_t *)p->create_key;
        tmp.create_key.len = 32;
        tmp.create_request_id = p->create_request_id;
        tmp.create_digest.data = (uint8_t *)p->create_digest;
        tmp.create_digest.len = GAME_CREATE_DIGEST;
    }
    size_t n;
    uint8_t *bytes = canon_pack(&tmp.base, &n);
    if (!bytes) {
        free(g);
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        return NULL;
    }
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, n, bytes);
    if (!h) {
        free(bytes);
        free(g);
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "header does not round-trip");
        return NULL;
    }
    if (s_adopt_header(g, h, err) != 0) {
        free(bytes);
        game_destroy(&g);
        return NULL;
    }
    memcpy(g->seed, seed, 32);
    sodium_memzero(fixed_seed, sizeof fixed_seed);
    g->have_seed = 1;
    int rc = g->sink.record(g->sink.ctx, EVLOG_HEADER, bytes, n);
    g->hdr_bytes = bytes;
    g->hdr_len = n;
    seatsig_header_hash(bytes, n, g->hdr_hash);
    if (rc != 0) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_IO_ERROR, "", "could not write the log header");
        game_destroy(&g);
        return NULL;
    }
    return g;
}

brt_game *game_from_header(const uint8_t *header, size_t len, const uint8_t *seed, brt_sink sink,
                           brt_reject *err) {
    brt_game *g = s_alloc(sink);
    if (!g) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        return NULL;
    }
    ProtobufCMessage *m = NULL;
    int rc = canon_unpack(&berthier__v1__log_header__descriptor, header, len, 0, &m);
    if (rc != CANON_OK) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "log header: %s", canon_strerror(rc));
        free(g);
        return NULL;
    }
    Berthier__V1__LogHeader *h = (Berthier__V1__LogHeader *)m;
    if (h->format != LOG_FORMAT) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "log header format %u, expected %u",
                       h->format, LOG_FORMAT);
        berthier__v1__log_header__free_unpacked(h, NULL);
        free(g);
        return NULL;
    }
    if (s_adopt_header(g, h, err) != 0) {
        game_destroy(&g);
        return NULL;
    }
    g->hdr_bytes = malloc(len ? len : 1);
    if (!g->hdr_bytes) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
        game_destroy(&g);
        return NULL;
    }
    memcpy(g->hdr_bytes, header, len);
    g->hdr_len = len;
    seatsig_header_hash(header, len, g->hdr_hash);
    if (strcmp(h->ruleset_version, g->rs->version) != 0) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_RULESET, "",
                       "the log was played with %s %s; this engine has %s %s", g->rs->id,
                       h->ruleset_version, g->rs->id, g->rs->version);
        game_destroy(&g);
        return NULL;
    }
    if (seed) {
        uint8_t commit[32];
        dice_commit(seed, commit);
        if (h->dice_commit.len != 32 || sodium_memcmp(commit, h->dice_commit.data, 32) != 0) {
            brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "",
                           "the seed does not match the header's dice commitment");
            game_destroy(&g);
            return NULL;
        }
        memcpy(g->seed, seed, 32);
        g->have_seed = 1;
    }
    return g;
}

void game_destroy(brt_game **pself) {
    if (!pself || !*pself) return;
    brt_game *g = *pself;
    if (g->state) g->rs->destroy(g->state);
    if (g->hdr) berthier__v1__log_header__free_unpacked(g->hdr, NULL);
    free(g->hdr_bytes);
    s_free_opts(g);
    for (unsigned i = 0; i < BRT_MAX_SEATS; i++) {
        buf_free(&g->sealed[i]);
        buf_free(&g->deferred_order[i]);
    }
    buf_free(&g->pending_records);
    sodium_memzero(g->seed, sizeof g->seed);
    sodium_memzero(g->dice_key, sizeof g->dice_key);
    free(g);
    *pself = NULL;
}

void game_set_replaying(brt_game *self, int on) { self->replaying = on; }

void game_set_seat_verify(brt_game *self, seat_verify_fn fn, void *ctx) {
    self->seat_verify = fn;
    self->seat_verify_ctx = ctx;
}

typedef struct bare_dice {
    const uint32_t *v;
    size_t n;
} bare_dice;

static uint32_t s_bare_source(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    (void)purpose;
    const bare_dice *d = ctx;
    return index < d->n && d->v[index] <= sides ? d->v[index] : 0;
}

int game_bare_run(const brt_ruleset *rs, const char *scenario, const brt_ruleset_options *opts,
                  const unsigned *seats, const uint8_t *const *orders, const size_t *lens, size_t n,
                  const uint32_t *dice, size_t ndice, size_t *refused) {
    bare_dice bd = {dice, ndice};
    brt_dice d = {s_bare_source, &bd, NULL, NULL, 0, 0, 0};
    brt_reject err;
    memset(&err, 0, sizeof err);
    void *st = rs->setup(scenario, opts, &d, &err);
    if (!st) return -1;
    brt_buf out;
    buf_init(&out);
    for (size_t i = 0; i < n; i++) {
        buf_reset(&out);
        brt_events ev = {&out, i + 1, 0};
        if (rs->apply(st, seats[i], orders[i], lens[i], &d, &ev, &err) != 0 && refused) (*refused)++;
    }
    buf_free(&out);
    rs->destroy(st);
    return 0;
}

void game_set_dice_source(brt_game *self, dice_source_fn fn, void *ctx) {
    self->ext_source = fn;
    self->ext_ctx = ctx;
}

/* ---- after an input: STATE, END, REVEAL, CHECKPOINT ------------------------ */

static int s_state_hash(const brt_game *g, uint8_t out[32]) {
    brt_buf b;
    buf_init(&b);
    int rc = g->rs->encode(g->state, &b);
    if (rc == 0) crypto_generichash(out, 32, b.data, b.len, NULL, 0);
    buf_free(&b);
    return rc;
}

/* The end of a game: END with the result, then the seed it was played with. */
static int s_emit_end(brt_game *g, Berthier__V1__Result *res) {
    g->over = 1;
    Berthier__V1__LogEnd end = BERTHIER__V1__LOG_END__INIT;
    end.result = res;
    if (s_emit(g, EVLOG_END, &end.base) != 0) return -1;
    if (!g->have_seed) return 0;
    Berthier__V1__LogReveal rv = BERTHIER__V1__LOG_REVEAL__INIT;
    rv.seed.data = g->seed;
    rv.seed.len = 32;
    return s_emit(g, EVLOG_REVEAL, &rv.base);
}

static int s_after_apply(brt_game *g, brt_reject *err) {
    g->seq++;
    uint8_t hash[32];
    if (s_state_hash(g, hash) != 0) return s_halt(g, err, "state encoding failed");
    brt_pending p;
    g->rs->pending(g->state, &p);
    Berthier__V1__LogState st = BERTHIER__V1__LOG_STATE__INIT;
    st.seq = g->seq;
    st.hash.data = hash;
    st.hash.len = 32;
    st.turn = p.turn;
    if (s_emit(g, EVLOG_STATE, &st.base) != 0) return s_halt(g, err, "log write failed");
    brt_result r;
    g->rs->result(g->state, &r);
    int checkpoint = p.turn != g->last_turn;
    g->last_turn = p.turn;
    if (r.ended) {
        Berthier__V1__Result res = BERTHIER__V1__RESULT__INIT;
        uint32_t winners[BRT_MAX_SEATS];
        int32_t scores[BRT_MAX_SEATS];
        size_t nw = 0;
        for (unsigned i = 0; i < g->nseats; i++) {
            if (r.winners & (1u << i)) winners[nw++] = i;
            scores[i] = r.scores[i];
        }
        res.ended = 1;
        res.n_winners = nw;
        res.winners = winners;
        res.level = r.level;
        res.reason = r.reason;
        res.n_scores = g->nseats;
        res.scores = scores;
        if (s_emit_end(g, &res) != 0) return s_halt(g, err, "log write failed");
        checkpoint = 1;
    }
    if (checkpoint && g->sink.checkpoint && g->sink.checkpoint(g->sink.ctx) != 0)
        return s_halt(g, err, "checkpoint failed");
    return 0;
}

/* ---- applying orders ----------------------------------------------------- */

static int s_input_order_record(brt_game *g, unsigned seat, const uint8_t *request, size_t len) {
    Berthier__V1__LogOrder o = BERTHIER__V1__LOG_ORDER__INIT;
    o.seat = seat;
    o.request.data = (uint8_t *)request;
    o.request.len = len;
    return s_emit(g, EVLOG_ORDER, &o.base);
}

/* Run `apply` of each (seat, order) on a copy. probe: roll nothing, keep nothing.
 * Otherwise the copy replaces the state and outcomes go to pending_records.
 * Returns 0, or -1 with err. *rolled is set to the number of dice rolls made. */
static int s_run_orders(brt_game *g, const unsigned *seats, brt_buf *const *orders, size_t n, int probe,
                        uint64_t *rolled, brt_reject *err) {
    void *copy = g->rs->clone(g->state);
    if (!copy) return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
    uint64_t start_index = g->dice.next_index;
    g->dice.rolls_made = 0;
    g->dice.failed = 0;
    g->probing = probe;
    buf_reset(&g->pending_records);
    brt_events ev = {&g->pending_records, g->seq + 1, 0};
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = g->rs->apply(copy, seats[i], orders[i]->data, orders[i]->len, &g->dice, &ev, err);
    g->probing = 0;
    if (rolled) *rolled = g->dice.rolls_made;
    if (rc != 0 || g->dice.failed || probe) {
        int failed = g->dice.failed;
        g->rs->destroy(copy);
        g->dice.next_index = start_index;
        g->dice.failed = 0;
        buf_reset(&g->pending_records);
        if (rc == 0 && failed && !probe)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "no dice value for roll %llu",
                                  (unsigned long long)start_index);
        return rc;
    }
    g->rs->destroy(g->state);
    g->state = copy;
    return 0;
}

static int s_apply_now(brt_game *g, const unsigned *seats, brt_buf *const *orders, size_t n, brt_reject *err) {
    if (s_run_orders(g, seats, orders, n, 0, NULL, err) != 0) {
        if (err->code == BERTHIER__V1__CODE__CODE_INTERNAL) return s_halt(g, err, err->message);
        return -1;
    }
    if (s_flush_pending(g) != 0) return s_halt(g, err, "log write failed");
    return s_after_apply(g, err);
}

/* One order of a game without contributory dice, applied once: `apply` into a copy (what
 * s_run_orders would do), then the ORDER record, then the copy becomes the state and its records
 * follow, as the probe, the record and s_apply_now would leave them. Returns 0 or -1 as
 * s_apply_now, or 1 when `apply` rejected the order: nothing was logged or kept, the caller checks
 * it the old way (its probe rejects it the same way, or, for a rejection that depended on a rolled
 * value, takes the old path's record and rejection). */
static int s_apply_order_once(brt_game *g, unsigned seat, const brt_buf *order, const uint8_t *request,
                              size_t len, brt_reject *err) {
    void *copy = g->rs->clone(g->state);
    if (!copy) return 1;
    uint64_t start_index = g->dice.next_index;
    g->dice.rolls_made = 0;
    g->dice.failed = 0;
    g->probing = 0;
    buf_reset(&g->pending_records);
    brt_events ev = {&g->pending_records, g->seq + 1, 0};
    brt_reject e2;
    int rc = g->rs->apply(copy, seat, order->data, order->len, &g->dice, &ev, &e2);
    if (rc != 0 || g->dice.failed) {
        g->rs->destroy(copy);
        g->dice.next_index = start_index;
        g->dice.failed = 0;
        buf_reset(&g->pending_records);
        return 1;
    }
    if (s_input_order_record(g, seat, request, len) != 0) {
        g->rs->destroy(copy);
        g->dice.next_index = start_index;
        buf_reset(&g->pending_records);
        return s_halt(g, err, "log write failed");
    }
    g->rs->destroy(g->state);
    g->state = copy;
    if (s_flush_pending(g) != 0) return s_halt(g, err, "log write failed");
    return s_after_apply(g, err);
}

static void s_clear_sealed(brt_game *g) {
    for (unsigned i = 0; i < BRT_MAX_SEATS; i++) {
        buf_reset(&g->sealed[i]);
        g->sealed_have[i] = 0;
    }
}

/* Keep orders that must wait for a contributory batch. */
static int s_defer(brt_game *g, defer_kind kind, const unsigned *seats, brt_buf *const *orders, size_t n) {
    g->deferred = kind;
    g->n_deferred = n;
    for (size_t i = 0; i < n; i++) {
        g->deferred_seat[i] = seats[i];
        buf_reset(&g->deferred_order[i]);
        if (buf_append(&g->deferred_order[i], orders[i]->data, orders[i]->len) != 0) return -1;
    }
    memset(g->nonce_have, 0, sizeof g->nonce_have);
    g->sink.head(g->sink.ctx, g->batch_head);
    return 0;
}

/* Apply now, or (contributory, dice needed) defer until every seat revealed a nonce. */
static int s_apply_or_defer(brt_game *g, const unsigned *seats, brt_buf *const *orders, size_t n,
                            brt_reject *err) {
    if (g->contributory) {
        uint64_t rolled = 0;
        if (s_run_orders(g, seats, orders, n, 1, &rolled, err) != 0) return -1;
        if (rolled > 0) {
            if (s_defer(g, DEFER_ORDERS, seats, orders, n) != 0) return s_halt(g, err, "out of memory");
            return 0;
        }
    }
    return s_apply_now(g, seats, orders, n, err);
}

static int s_start(brt_game *g, brt_reject *err) {
    if (g->have_seed && g->fixed) {
        dice_key_fixed(g->seed, g->dice_key); /* the seats' entropy is logged but not used */
    } else if (g->have_seed) {
        const uint8_t(*ent)[32] = (const uint8_t(*)[32])g->entropy;
        dice_key_derive(g->seed, g->id, ent, g->nseats, g->dice_key);
    }
    brt_ruleset_options ro = s_rules_options(g);
    buf_reset(&g->pending_records);
    g->dice.failed = 0;
    g->state = g->rs->setup(g->hdr->scenario, &ro, &g->dice, err);
    if (!g->state || g->dice.failed) return s_halt(g, err, "setup failed");
    g->started = 1;
    if (s_flush_pending(g) != 0) return s_halt(g, err, "log write failed");
    brt_pending p;
    g->rs->pending(g->state, &p);
    g->last_turn = p.turn;
    int rc = s_after_apply(g, err);
    /* The game has started: sign the head whether or not the turn moved. */
    if (rc == 0 && !g->over && g->sink.checkpoint && g->sink.checkpoint(g->sink.ctx) != 0)
        return s_halt(g, err, "checkpoint failed");
    return rc;
}

/* ---- inputs -------------------------------------------------------------- */

static int s_check_live(brt_game *g, brt_reject *err) {
    if (g->halted)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "the game is halted");
    if (g->over) return brt_reject_set(err, BERTHIER__V1__CODE__CODE_GAME_OVER, "", "the game is over");
    return 0;
}

static int s_check_seat(brt_game *g, unsigned seat, brt_reject *err) {
    if (seat >= g->nseats)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "", "this game has no seat %u", seat);
    return 0;
}

/* ---- seat signatures (seatsig.h) ------------------------------------------- */

static void s_hex8(const uint8_t *p, char out[17]) {
    for (int i = 0; i < 8; i++) snprintf(out + 2 * i, 3, "%02x", p[i]);
}

static int s_seat_verify(const brt_game *g, const uint8_t pk[32], uint64_t seq, uint64_t rid, unsigned field,
                         const uint8_t *body, size_t body_len, const uint8_t *sig, size_t sig_len) {
    if (g->seat_verify)
        return g->seat_verify(g->seat_verify_ctx, pk, g->id, g->hdr_hash, seq, rid, field, body, body_len, sig,
                              sig_len);
    return seatsig_verify(pk, g->id, g->hdr_hash, seq, rid, field, body, body_len, sig, sig_len);
}

/* Check the signature of seat `seat`'s input `what` (body: the exact body
 * message bytes). A signed game needs a valid signature on every seat input;
 * an unsigned game (a log from before seat signatures) takes none. */
static int s_sig_check(const brt_game *g, unsigned seat, const char *what, uint64_t seq, uint64_t rid,
                       unsigned field, const uint8_t *body, size_t body_len, const uint8_t *sig, size_t sig_len,
                       brt_reject *err) {
    if (g->sig != SIG_SIGNED) {
        if (sig_len)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                                  "seat %u's %s is signed but game %s is not seat-signed (its joins bound no "
                                  "signing key)", seat, what, g->id);
        return 0;
    }
    if (!g->joined[seat])
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_STARTED, "P3",
                              "seat %u has not joined, so no signing key is bound to it", seat);
    if (sig_len == 0)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                              "seat %u's %s carries no seat signature; every input of game %s must be signed "
                              "with the key the seat's join bound", seat, what, g->id);
    if (s_seat_verify(g, g->sign_pk[seat], seq, rid, field, body, body_len, sig, sig_len) != 0) {
        char k[17];
        s_hex8(g->sign_pk[seat], k);
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                              "seat %u's signature on its %s (request id %llu) does not verify under the "
                              "signing key %s... its join bound", seat, what, (unsigned long long)rid, k);
    }
    return 0;
}

/* The join's own checks: a signed join binds its key and the header hash. */
static int s_join_sig(brt_game *g, unsigned seat, const uint8_t *entropy, const uint8_t *chain_commit,
                      size_t commit_len, const brt_seatsig *sig, brt_reject *err) {
    int is_signed = sig && (sig->sign_pk_len || sig->header_hash_len || sig->signature_len);
    if (!is_signed) {
        if (g->sig == SIG_SIGNED)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                                  "seat %u's join is not signed, but game %s is seat-signed: every seat's join "
                                  "binds a signing key, or none", seat, g->id);
        return 0;
    }
    if (g->sig == SIG_UNSIGNED)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                              "seat %u's join is signed, but game %s is not seat-signed: every seat's join binds "
                              "a signing key, or none", seat, g->id);
    if (sig->sign_pk_len != SEATSIG_PK_BYTES || sig->header_hash_len != 32 || sig->signature_len != SEATSIG_BYTES)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P3",
                              "a signed join has a 32-byte sign_pk, a 32-byte header_hash and a 64-byte "
                              "signature, not %zu, %zu and %zu bytes",
                              sig->sign_pk_len, sig->header_hash_len, sig->signature_len);
    if (sodium_memcmp(sig->header_hash, g->hdr_hash, 32) != 0) {
        char a[17], b[17];
        s_hex8(sig->header_hash, a);
        s_hex8(g->hdr_hash, b);
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                              "seat %u's signed join is for header hash %s... but game %s's header hashes to "
                              "%s...: this is not the header the seat signed", seat, a, g->id, b);
    }
    Berthier__V1__Join body = BERTHIER__V1__JOIN__INIT;
    body.game_id = (char *)g->id;
    body.seat = seat;
    body.entropy.data = (uint8_t *)entropy;
    body.entropy.len = 32;
    body.chain_commit.data = (uint8_t *)chain_commit;
    body.chain_commit.len = commit_len;
    body.sign_pk.data = (uint8_t *)sig->sign_pk;
    body.sign_pk.len = SEATSIG_PK_BYTES;
    body.header_hash.data = (uint8_t *)sig->header_hash;
    body.header_hash.len = 32;
    size_t n;
    uint8_t *bytes = canon_pack(&body.base, &n);
    if (!bytes) return brt_reject_set(err, BERTHIER__V1__CODE__CODE_INTERNAL, "", "out of memory");
    int v = s_seat_verify(g, sig->sign_pk, 0, sig->request_id, SEATSIG_BODY_JOIN, bytes, n, sig->signature,
                          sig->signature_len);
    free(bytes);
    if (v != 0)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
                              "seat %u's join signature (request id %llu) does not verify under the signing key "
                              "the join binds", seat, (unsigned long long)sig->request_id);
    return 1;
}

int game_join(brt_game *self, unsigned seat, const uint8_t *entropy, size_t entropy_len,
              const uint8_t *chain_commit, size_t commit_len, brt_reject *err) {
    return game_join_signed(self, seat, entropy, entropy_len, chain_commit, commit_len, NULL, err);
}

int game_join_signed(brt_game *self, unsigned seat, const uint8_t *entropy, size_t entropy_len,
                     const uint8_t *chain_commit, size_t commit_len, const brt_seatsig *sig, brt_reject *err) {
    if (s_check_live(self, err) || s_check_seat(self, seat, err)) return -1;
    if (self->joined[seat])
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_ALREADY_JOINED, "", "seat %u has joined already", seat);
    if (entropy_len != 32)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "",
                              "a seat's entropy is exactly 32 bytes, not %zu", entropy_len);
    if (self->contributory ? commit_len != 32 : commit_len != 0)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "",
                              self->contributory ? "dice=contributory: join needs a 32-byte nonce chain commitment"
                                                 : "this game uses standard dice: no chain commitment");
    int is_signed = s_join_sig(self, seat, entropy, chain_commit, commit_len, sig, err);
    if (is_signed < 0) return -1;
    Berthier__V1__LogJoin j = BERTHIER__V1__LOG_JOIN__INIT;
    j.seat = seat;
    j.entropy.data = (uint8_t *)entropy;
    j.entropy.len = 32;
    j.chain_commit.data = (uint8_t *)chain_commit;
    j.chain_commit.len = commit_len;
    if (is_signed) {
        j.sign_pk.data = (uint8_t *)sig->sign_pk;
        j.sign_pk.len = SEATSIG_PK_BYTES;
        j.header_hash.data = (uint8_t *)sig->header_hash;
        j.header_hash.len = 32;
        j.signature.data = (uint8_t *)sig->signature;
        j.signature.len = SEATSIG_BYTES;
        j.request_id = sig->request_id;
    }
    if (s_emit(self, EVLOG_JOIN, &j.base) != 0) return s_halt(self, err, "log write failed");
    self->sig = is_signed ? SIG_SIGNED : SIG_UNSIGNED;
    if (is_signed) memcpy(self->sign_pk[seat], sig->sign_pk, SEATSIG_PK_BYTES);
    self->joined[seat] = 1;
    memcpy(self->entropy[seat], entropy, 32);
    if (commit_len) memcpy(self->chain[seat], chain_commit, 32);
    self->seq++;
    for (unsigned i = 0; i < self->nseats; i++)
        if (!self->joined[i]) return 0;
    if (self->contributory) {
        /* Setup may shuffle: its rolls form batch 0. */
        self->deferred = DEFER_SETUP;
        memset(self->nonce_have, 0, sizeof self->nonce_have);
        self->sink.head(self->sink.ctx, self->batch_head);
        return 0;
    }
    return s_start(self, err);
}

int game_submit(brt_game *self, unsigned seat, const uint8_t *request, size_t len, brt_reject *err) {
    if (s_check_live(self, err) || s_check_seat(self, seat, err)) return -1;
    ProtobufCMessage *m = NULL;
    int crc = canon_unpack(&berthier__v1__request__descriptor, request, len, 0, &m);
    if (crc != CANON_OK)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "%s", canon_strerror(crc));
    Berthier__V1__Request *req = (Berthier__V1__Request *)m;
    int rc = -1;
    brt_buf order;
    buf_init(&order);
    if (req->body_case != BERTHIER__V1__REQUEST__BODY_SUBMIT) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "not a submit request");
        goto done;
    }
    const Berthier__V1__Submit *sub = req->submit;
    if (sub->seat != seat) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "",
                       "the order names seat %u but comes from seat %u", sub->seat, seat);
        goto done;
    }
    if (!self->started) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_STARTED, "", "not every seat has joined yet");
        goto done;
    }
    {
        /* The request is canonical, so its body packs back to the bytes received. */
        size_t bn;
        uint8_t *body = canon_pack(&sub->base, &bn);
        if (!body) goto oom;
        int v = s_sig_check(self, seat, "order", sub->based_on_seq, req->request_id, SEATSIG_BODY_SUBMIT, body, bn,
                            req->signature.data, req->signature.len, err);
        free(body);
        if (v != 0) goto done;
    }
    if (self->deferred != DEFER_NONE) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, "",
                       "dice batch %llu waits for every seat's nonce reveal", (unsigned long long)self->batch);
        goto done;
    }
    brt_pending p;
    self->rs->pending(self->state, &p);
    if (p.sealed && (p.seats & (1u << seat)) && self->sealed_have[seat]) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, p.rule,
                       "seat %u has made this sealed choice already", seat);
        goto done;
    }
    if (!(p.seats & (1u << seat))) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, p.rule,
                       "no decision is pending for seat %u now (%s)", seat, p.kind);
        goto done;
    }
    if (sub->based_on_seq != self->seq) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_STALE, "",
                       "the order was decided at seq %llu but the game is at seq %llu",
                       (unsigned long long)sub->based_on_seq, (unsigned long long)self->seq);
        goto done;
    }
    if (sub->order.len > 0 && sub->order_text && sub->order_text[0]) {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "give the order as bytes or as text, not both");
        goto done;
    }
    if (sub->order.len > 0) {
        if (buf_append(&order, sub->order.data, sub->order.len) != 0) goto oom;
    } else if (sub->order_text && sub->order_text[0]) {
        if (self->rs->order_parse(self->state, sub->order_text, &order, err) != 0) goto done;
    } else {
        brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "the submit carries no order");
        goto done;
    }
    brt_buf *orders[1] = {&order};
    unsigned seats[1] = {seat};
    if (p.sealed) {
        /* Check it alone on a copy, log it, keep it; apply when every seat has chosen. */
        if (s_run_orders(self, seats, orders, 1, 1, NULL, err) != 0) goto done;
        if (s_input_order_record(self, seat, request, len) != 0) {
            s_halt(self, err, "log write failed");
            goto done;
        }
        buf_reset(&self->sealed[seat]);
        if (buf_append(&self->sealed[seat], order.data, order.len) != 0) goto oom;
        self->sealed_have[seat] = 1;
        for (unsigned i = 0; i < self->nseats; i++)
            if ((p.seats & (1u << i)) && !self->sealed_have[i]) {
                rc = 0;
                goto done;
            }
        unsigned ss[BRT_MAX_SEATS];
        brt_buf *oo[BRT_MAX_SEATS];
        size_t n = 0;
        for (unsigned i = 0; i < self->nseats; i++)
            if (p.seats & (1u << i)) {
                ss[n] = i;
                oo[n++] = &self->sealed[i];
            }
        rc = s_apply_or_defer(self, ss, oo, n, err);
        if (rc != 0 && !self->halted) {
            /* Each choice was valid alone but not together: a ruleset bug. */
            s_halt(self, err, "sealed choices could not be applied together");
        }
        s_clear_sealed(self);
        goto done;
    }
    /* Check first so that a rejected order leaves no record (a replay compares
     * the record and applies the order once: the engine's only copy). */
    if (self->replaying && !self->contributory) {
        if (s_input_order_record(self, seat, request, len) != 0) {
            s_halt(self, err, "log write failed");
            goto done;
        }
        rc = s_apply_now(self, seats, orders, 1, err);
        goto done;
    }
    if (!self->contributory && (self->have_seed || !self->ext_source)) {
        /* No contributory batch and dice that are a function of their index: the probe would be the
         * same computation as the apply (only the rolled values differ, and neither the probe nor a
         * rejection keeps them), so apply once into the copy, log the order, then take the copy.
         * A rejection falls back to the probe below, which gives the same answer and no record. */
        int k = s_apply_order_once(self, seat, &order, request, len, err);
        if (k != 1) {
            rc = k;
            goto done;
        }
    }
    if (s_run_orders(self, seats, orders, 1, 1, NULL, err) != 0) goto done;
    if (s_input_order_record(self, seat, request, len) != 0) {
        s_halt(self, err, "log write failed");
        goto done;
    }
    rc = s_apply_or_defer(self, seats, orders, 1, err);
    goto done;
oom:
    s_halt(self, err, "out of memory");
done:
    buf_free(&order);
    berthier__v1__request__free_unpacked(req, NULL);
    return rc;
}

static int s_end_by_resign(brt_game *g, unsigned seat, uint8_t kind, const ProtobufCMessage *input,
                           brt_reject *err) {
    if (s_emit(g, kind, input) != 0) return s_halt(g, err, "log write failed");
    s_clear_sealed(g);
    g->deferred = DEFER_NONE;
    if (!g->started) {
        /* Nobody has a state yet: the game ends unplayed. */
        g->seq++;
        g->abandoned_nonce = kind == EVLOG_TIMEOUT;
        Berthier__V1__Result res = BERTHIER__V1__RESULT__INIT;
        res.ended = 1;
        res.level = (char *)"abandoned";
        /* A TIMEOUT before the start can only be a withheld batch-0 nonce (game_timeout). */
        res.reason = g->abandoned_nonce ? (char *)"a seat did not reveal its nonce before the game began"
                                        : (char *)"a seat left before every seat had joined";
        if (s_emit_end(g, &res) != 0) return s_halt(g, err, "log write failed");
        if (g->sink.checkpoint && g->sink.checkpoint(g->sink.ctx) != 0) return s_halt(g, err, "checkpoint failed");
        return 0;
    }
    buf_reset(&g->pending_records);
    brt_events ev = {&g->pending_records, g->seq + 1, 0};
    g->rs->resign(g->state, seat, &ev);
    if (s_flush_pending(g) != 0) return s_halt(g, err, "log write failed");
    return s_after_apply(g, err);
}

int game_resign(brt_game *self, unsigned seat, brt_reject *err) {
    return game_resign_signed(self, seat, NULL, err);
}

int game_resign_signed(brt_game *self, unsigned seat, const brt_seatsig *sig, brt_reject *err) {
    if (s_check_live(self, err) || s_check_seat(self, seat, err)) return -1;
    size_t sig_len = sig ? sig->signature_len : 0;
    uint64_t rid = sig ? sig->request_id : 0;
    /* A seat that has not joined has no key to sign with: its resign (the game
     * ends unplayed, nobody wins) is unsigned. */
    if (self->joined[seat] || sig_len) {
        Berthier__V1__GameRef body = BERTHIER__V1__GAME_REF__INIT;
        body.game_id = self->id;
        body.seat = seat;
        size_t bn;
        uint8_t *bytes = canon_pack(&body.base, &bn);
        if (!bytes) return s_halt(self, err, "out of memory");
        int v = s_sig_check(self, seat, "resign", 0, rid, SEATSIG_BODY_RESIGN, bytes, bn, sig ? sig->signature : NULL,
                            sig_len, err);
        free(bytes);
        if (v != 0) return -1;
    }
    Berthier__V1__LogResign r = BERTHIER__V1__LOG_RESIGN__INIT;
    r.seat = seat;
    if (sig_len) {
        r.signature.data = (uint8_t *)sig->signature;
        r.signature.len = sig_len;
        r.request_id = rid;
    }
    return s_end_by_resign(self, seat, EVLOG_RESIGN, &r.base, err);
}

int game_timeout(brt_game *self, unsigned seat, brt_reject *err) {
    if (s_check_live(self, err) || s_check_seat(self, seat, err)) return -1;
    /* Before the start only a dice batch (contributory: batch 0) can wait for a seat. */
    if (!self->started && self->deferred == DEFER_NONE)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_STARTED, "", "not every seat has joined yet");
    int must = 0;
    brt_pending p;
    memset(&p, 0, sizeof p);
    if (self->deferred != DEFER_NONE) {
        must = !self->nonce_have[seat];
    } else {
        self->rs->pending(self->state, &p);
        must = (p.seats & (1u << seat)) && !(p.sealed && self->sealed_have[seat]);
    }
    if (!must)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, "",
                              "seat %u has no decision pending to time out", seat);
    Berthier__V1__LogTimeout t = BERTHIER__V1__LOG_TIMEOUT__INIT;
    t.seat = seat;
    t.seq = self->seq;
    const Berthier__V1__Clock *clk = self->hdr->clock;
    int forfeit = (clk && clk->forfeit) || p.sealed || self->deferred != DEFER_NONE ||
                  !self->rs->timeout_default;
    if (!forfeit) {
        /* Try the rules' default on a copy; no default means forfeit. */
        void *copy = self->rs->clone(self->state);
        if (!copy) return s_halt(self, err, "out of memory");
        uint64_t start = self->dice.next_index;
        buf_reset(&self->pending_records);
        self->dice.failed = 0;
        self->dice.rolls_made = 0;
        self->probing = self->contributory; /* contributory: a default that rolls forfeits instead */
        brt_events ev = {&self->pending_records, self->seq + 1, 0};
        int drc = self->rs->timeout_default(copy, seat, &self->dice, &ev);
        int rolled = self->dice.rolls_made > 0;
        self->probing = 0;
        if (drc != 0 || self->dice.failed || (self->contributory && rolled)) {
            self->rs->destroy(copy);
            self->dice.next_index = start;
            buf_reset(&self->pending_records);
            forfeit = 1;
        } else {
            t.forfeit = 0;
            if (s_emit(self, EVLOG_TIMEOUT, &t.base) != 0) {
                self->rs->destroy(copy);
                return s_halt(self, err, "log write failed");
            }
            self->rs->destroy(self->state);
            self->state = copy;
            if (s_flush_pending(self) != 0) return s_halt(self, err, "log write failed");
            return s_after_apply(self, err);
        }
    }
    t.forfeit = 1;
    return s_end_by_resign(self, seat, EVLOG_TIMEOUT, &t.base, err);
}

/* ABORT: an admin ends the game (game.h). With a forfeit seat in a started game
 * the ruleset's resign() plays the forfeit on the state (its events and a STATE
 * record follow the input); the result is the core's, not the ruleset's. */
int game_abort(brt_game *self, const char *reason, int forfeit_seat, brt_reject *err) {
    if (s_check_live(self, err)) return -1;
    size_t n = reason ? strlen(reason) : 0;
    if (n == 0 || n > GAME_ABORT_REASON_MAX)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P3",
                              "an abort needs a reason of 1 to %d bytes", GAME_ABORT_REASON_MAX);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)reason[i] < 0x20 || (unsigned char)reason[i] > 0x7e)
            return brt_reject_set(err, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P3",
                                  "an abort's reason must be printable ASCII (byte %zu is not)", i);
    if (forfeit_seat >= 0 && (unsigned)forfeit_seat >= self->nseats)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "P3",
                              "this game has no seat %d to forfeit", forfeit_seat);
    Berthier__V1__LogAbort a = BERTHIER__V1__LOG_ABORT__INIT;
    a.reason = (char *)reason;
    if (forfeit_seat >= 0) {
        a.has_forfeit = 1;
        a.forfeit_seat = (uint32_t)forfeit_seat;
    }
    if (s_emit(self, EVLOG_ABORT, &a.base) != 0) return s_halt(self, err, "log write failed");
    s_clear_sealed(self);
    self->deferred = DEFER_NONE;
    self->n_deferred = 0;
    self->seq++;
    if (self->started && forfeit_seat >= 0) {
        buf_reset(&self->pending_records);
        brt_events ev = {&self->pending_records, self->seq, 0};
        self->rs->resign(self->state, (unsigned)forfeit_seat, &ev);
        if (s_flush_pending(self) != 0) return s_halt(self, err, "log write failed");
        uint8_t hash[32];
        if (s_state_hash(self, hash) != 0) return s_halt(self, err, "state encoding failed");
        brt_pending p;
        self->rs->pending(self->state, &p);
        Berthier__V1__LogState st = BERTHIER__V1__LOG_STATE__INIT;
        st.seq = self->seq;
        st.hash.data = hash;
        st.hash.len = 32;
        st.turn = p.turn;
        self->last_turn = p.turn;
        if (s_emit(self, EVLOG_STATE, &st.base) != 0) return s_halt(self, err, "log write failed");
    }
    brt_result *r = &self->abort_res;
    memset(r, 0, sizeof *r);
    if (self->state) self->rs->result(self->state, r); /* for the scores */
    r->ended = 1;
    r->winners = 0;
    if (forfeit_seat >= 0) {
        r->winners = ((1u << self->nseats) - 1) & ~(1u << forfeit_seat);
        snprintf(r->level, sizeof r->level, "forfeit");
        snprintf(r->reason, sizeof r->reason, "seat %d forfeits by admin abort: %s", forfeit_seat, reason);
    } else {
        snprintf(r->level, sizeof r->level, "aborted");
        snprintf(r->reason, sizeof r->reason, "aborted by the admin: %s", reason);
    }
    self->aborted = 1;
    Berthier__V1__Result res = BERTHIER__V1__RESULT__INIT;
    uint32_t winners[BRT_MAX_SEATS];
    int32_t scores[BRT_MAX_SEATS];
    size_t nw = 0;
    for (unsigned i = 0; i < self->nseats; i++) {
        if (r->winners & (1u << i)) winners[nw++] = i;
        scores[i] = r->scores[i];
    }
    res.ended = 1;
    res.n_winners = nw;
    res.winners = winners;
    res.level = r->level;
    res.reason = r->reason;
    if (self->state) {
        res.n_scores = self->nseats;
        res.scores = scores;
    }
    if (s_emit_end(self, &res) != 0) return s_halt(self, err, "log write failed");
    if (self->sink.checkpoint && self->sink.checkpoint(self->sink.ctx) != 0)
        return s_halt(self, err, "checkpoint failed");
    return 0;
}

int game_aborted(const brt_game *self) { return self->aborted; }

int game_nonce(brt_game *self, unsigned seat, uint64_t batch, const uint8_t *nonce, size_t len,
               brt_reject *err) {
    return game_nonce_signed(self, seat, batch, nonce, len, NULL, err);
}

int game_nonce_signed(brt_game *self, unsigned seat, uint64_t batch, const uint8_t *nonce, size_t len,
                      const brt_seatsig *sig, brt_reject *err) {
    if (s_check_live(self, err) || s_check_seat(self, seat, err)) return -1;
    size_t sig_len = sig ? sig->signature_len : 0;
    uint64_t rid = sig ? sig->request_id : 0;
    {
        Berthier__V1__RevealNonce body = BERTHIER__V1__REVEAL_NONCE__INIT;
        body.game_id = self->id;
        body.seat = seat;
        body.batch = batch;
        body.nonce.data = (uint8_t *)nonce;
        body.nonce.len = len;
        size_t bn;
        uint8_t *bytes = canon_pack(&body.base, &bn);
        if (!bytes) return s_halt(self, err, "out of memory");
        int v = s_sig_check(self, seat, "nonce reveal", 0, rid, SEATSIG_BODY_REVEAL, bytes, bn,
                            sig ? sig->signature : NULL, sig_len, err);
        free(bytes);
        if (v != 0) return -1;
    }
    if (!self->contributory || self->deferred == DEFER_NONE)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, "",
                              "no dice batch is waiting for a nonce");
    if (batch != self->batch)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_STALE, "", "the waiting dice batch is %llu, not %llu",
                              (unsigned long long)self->batch, (unsigned long long)batch);
    if (self->nonce_have[seat])
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_YOUR_DECISION, "",
                              "seat %u has revealed its nonce for this batch", seat);
    if (len != 32 || dice_chain_check(self->chain[seat], nonce) != 0)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_ILLEGAL, "",
                              "the nonce is not the next link of seat %u's committed chain", seat);
    Berthier__V1__LogNonce rec = BERTHIER__V1__LOG_NONCE__INIT;
    rec.seat = seat;
    rec.batch = batch;
    rec.nonce.data = (uint8_t *)nonce;
    rec.nonce.len = 32;
    if (sig_len) {
        rec.signature.data = (uint8_t *)sig->signature;
        rec.signature.len = sig_len;
        rec.request_id = rid;
    }
    if (s_emit(self, EVLOG_NONCE, &rec.base) != 0) return s_halt(self, err, "log write failed");
    memcpy(self->nonce[seat], nonce, 32);
    memcpy(self->chain[seat], nonce, 32);
    self->nonce_have[seat] = 1;
    for (unsigned i = 0; i < self->nseats; i++)
        if (!self->nonce_have[i]) return 0;
    /* Every seat revealed: key the batch and run what waited. The head mixed in is
     * the one from when the batch opened: fixed before any nonce was seen, so the
     * order in which reveals are logged cannot be used to choose among keys. */
    const uint8_t *head = self->batch_head;
    defer_kind what = self->deferred;
    self->deferred = DEFER_NONE;
    int rc;
    if (what == DEFER_SETUP) {
        if (self->have_seed) {
            const uint8_t(*ent)[32] = (const uint8_t(*)[32])self->entropy;
            dice_key_derive(self->seed, self->id, ent, self->nseats, self->dice_key);
            dice_batch_key(self->dice_key, self->batch, head, (const uint8_t(*)[32])self->nonce, self->nseats,
                           self->batch_key);
        }
        self->use_batch_key = 1;
        rc = s_start(self, err);
    } else {
        if (self->have_seed)
            dice_batch_key(self->dice_key, self->batch, head, (const uint8_t(*)[32])self->nonce, self->nseats,
                           self->batch_key);
        self->use_batch_key = 1;
        brt_buf *oo[BRT_MAX_SEATS];
        for (size_t i = 0; i < self->n_deferred; i++) oo[i] = &self->deferred_order[i];
        rc = s_apply_now(self, self->deferred_seat, oo, self->n_deferred, err);
        if (rc != 0 && !self->halted) s_halt(self, err, "a deferred order failed when its dice came");
    }
    self->use_batch_key = 0;
    self->batch++;
    return rc;
}

int game_input_record(brt_game *self, uint8_t kind, const uint8_t *payload, size_t len, brt_reject *err) {
    ProtobufCMessage *m = NULL;
    const ProtobufCMessageDescriptor *d = NULL;
    switch (kind) {
    case EVLOG_JOIN: d = &berthier__v1__log_join__descriptor; break;
    case EVLOG_ORDER: d = &berthier__v1__log_order__descriptor; break;
    case EVLOG_TIMEOUT: d = &berthier__v1__log_timeout__descriptor; break;
    case EVLOG_RESIGN: d = &berthier__v1__log_resign__descriptor; break;
    case EVLOG_NONCE: d = &berthier__v1__log_nonce__descriptor; break;
    case EVLOG_ABORT: d = &berthier__v1__log_abort__descriptor; break;
    default:
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "record kind %u is not an input", kind);
    }
    int crc = canon_unpack(d, payload, len, 0, &m);
    if (crc != CANON_OK)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "%s record: %s", evlog_kind_name(kind),
                              canon_strerror(crc));
    int rc;
    switch (kind) {
    case EVLOG_JOIN: {
        Berthier__V1__LogJoin *j = (Berthier__V1__LogJoin *)m;
        brt_seatsig sg = {j->request_id, j->signature.data, j->signature.len, j->sign_pk.data, j->sign_pk.len,
                          j->header_hash.data, j->header_hash.len};
        if (!j->sign_pk.len && !j->header_hash.len && !j->signature.len && j->request_id) {
            rc = brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "an unsigned JOIN with a request id");
            break;
        }
        rc = game_join_signed(self, j->seat, j->entropy.data, j->entropy.len, j->chain_commit.data,
                              j->chain_commit.len, &sg, err);
        break;
    }
    case EVLOG_ORDER: {
        Berthier__V1__LogOrder *o = (Berthier__V1__LogOrder *)m;
        rc = game_submit(self, o->seat, o->request.data, o->request.len, err);
        break;
    }
    case EVLOG_TIMEOUT: {
        Berthier__V1__LogTimeout *t = (Berthier__V1__LogTimeout *)m;
        rc = t->seq != self->seq ? brt_reject_set(err, BERTHIER__V1__CODE__CODE_STALE, "",
                                                  "timeout logged at seq %llu, game at %llu",
                                                  (unsigned long long)t->seq, (unsigned long long)self->seq)
                                 : game_timeout(self, t->seat, err);
        break;
    }
    case EVLOG_RESIGN: {
        Berthier__V1__LogResign *r = (Berthier__V1__LogResign *)m;
        brt_seatsig sg = {r->request_id, r->signature.data, r->signature.len, NULL, 0, NULL, 0};
        rc = game_resign_signed(self, r->seat, &sg, err);
        break;
    }
    case EVLOG_ABORT: {
        Berthier__V1__LogAbort *a = (Berthier__V1__LogAbort *)m;
        if (!a->has_forfeit && a->forfeit_seat)
            rc = brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "an ABORT names a seat without a forfeit");
        else if (a->has_forfeit && a->forfeit_seat >= BRT_MAX_SEATS)
            rc = brt_reject_set(err, BERTHIER__V1__CODE__CODE_MALFORMED, "", "an ABORT forfeits seat %u",
                                a->forfeit_seat);
        else
            rc = game_abort(self, a->reason, a->has_forfeit ? (int)a->forfeit_seat : -1, err);
        break;
    }
    default: {
        Berthier__V1__LogNonce *nn = (Berthier__V1__LogNonce *)m;
        brt_seatsig sg = {nn->request_id, nn->signature.data, nn->signature.len, NULL, 0, NULL, 0};
        rc = game_nonce_signed(self, nn->seat, nn->batch, nn->nonce.data, nn->nonce.len, &sg, err);
        break;
    }
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return rc;
}

/* ---- queries ------------------------------------------------------------- */

const char *game_id(const brt_game *self) { return self->id; }
const brt_ruleset *game_ruleset(const brt_game *self) { return self->rs; }
const Berthier__V1__LogHeader *game_header(const brt_game *self) { return self->hdr; }
unsigned game_seat_count(const brt_game *self) { return self->nseats; }
const uint8_t *game_seat_key(const brt_game *self, unsigned seat) {
    return seat < self->nseats ? self->hdr->seats[seat]->key.data : NULL;
}
int game_started(const brt_game *self) { return self->started; }
int game_joined(const brt_game *self, unsigned seat) { return seat < self->nseats && self->joined[seat]; }
uint64_t game_seq(const brt_game *self) { return self->seq; }
int game_over(const brt_game *self) { return self->over; }
const uint8_t *game_seed(const brt_game *self) { return self->have_seed ? self->seed : NULL; }
uint64_t game_batch(const brt_game *self) { return self->batch; }
const uint8_t *game_header_bytes(const brt_game *self, size_t *len) {
    *len = self->hdr_len;
    return self->hdr_bytes;
}
const uint8_t *game_header_hash(const brt_game *self) { return self->hdr_hash; }
int game_seat_signed(const brt_game *self) {
    return self->sig == SIG_SIGNED ? 1 : self->sig == SIG_UNSIGNED ? 0 : -1;
}
const uint8_t *game_seat_sign_pk(const brt_game *self, unsigned seat) {
    return self->sig == SIG_SIGNED && seat < self->nseats && self->joined[seat] ? self->sign_pk[seat] : NULL;
}

void game_result(const brt_game *self, brt_result *out) {
    memset(out, 0, sizeof *out);
    if (self->aborted) {
        *out = self->abort_res;
        return;
    }
    if (self->state) self->rs->result(self->state, out);
    if (self->over && !out->ended) {
        out->ended = 1;
        snprintf(out->level, sizeof out->level, "abandoned");
        snprintf(out->reason, sizeof out->reason, "%s",
                 self->abandoned_nonce ? "a seat did not reveal its nonce before the game began"
                                       : "a seat left before every seat had joined");
    }
}

void game_pending(const brt_game *self, int seat, brt_pending *out, int *you_must_act) {
    memset(out, 0, sizeof *out);
    int must = 0;
    if (self->over || self->halted) {
        snprintf(out->kind, sizeof out->kind, self->halted ? "halted" : "none");
    } else if (!self->started && self->deferred == DEFER_NONE) {
        for (unsigned i = 0; i < self->nseats; i++)
            if (!self->joined[i]) out->seats |= 1u << i;
        snprintf(out->kind, sizeof out->kind, "join");
        snprintf(out->prompt, sizeof out->prompt, "every seat must join with its entropy");
        must = seat >= 0 && (out->seats & (1u << seat));
    } else if (self->deferred != DEFER_NONE) {
        out->seats = (1u << self->nseats) - 1;
        out->sealed = 1;
        snprintf(out->kind, sizeof out->kind, "dice-nonce");
        snprintf(out->prompt, sizeof out->prompt, "dice batch %llu: reveal the next link of your nonce chain",
                 (unsigned long long)self->batch);
        if (self->state) out->turn = self->last_turn;
        must = seat >= 0 && (unsigned)seat < self->nseats && !self->nonce_have[seat];
    } else {
        self->rs->pending(self->state, out);
        if (seat >= 0 && (unsigned)seat < self->nseats && (out->seats & (1u << seat)))
            must = !(out->sealed && self->sealed_have[seat]);
    }
    if (you_must_act) *you_must_act = must;
}

int game_legal(const brt_game *self, unsigned seat, brt_buf *out) {
    if (!self->state || self->over || self->halted || self->deferred != DEFER_NONE) return 0;
    if (seat >= self->nseats || self->sealed_have[seat]) return 0;
    return self->rs->legal(self->state, seat, out);
}

int game_view(const brt_game *self, int seat, brt_buf *out, brt_buf *text) {
    if (!self->state) {
        if (text) buf_printf(text, "game %s: waiting for every seat to join\n", self->id);
        return 0;
    }
    if (out && self->rs->view(self->state, seat, out) != 0) return -1;
    if (text && self->rs->view_text(self->state, seat, text) != 0) return -1;
    return 0;
}

int game_render(const brt_game *self, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    if (!self->state || !self->rs->render) return -1;
    static const brt_render_ctx none = {NULL, 0, -1, NULL};
    return self->rs->render(self->state, viewpoint, ctx ? ctx : &none, out);
}

int game_query(const brt_game *self, int viewpoint, const char *text, brt_buf *out) {
    if (!self->state || !self->rs->query) return -1;
    return self->rs->query(self->state, viewpoint, text ? text : "", out);
}

int game_state_hash(const brt_game *self, uint8_t out[32]) {
    if (!self->state) {
        memset(out, 0, 32);
        return 0;
    }
    return s_state_hash(self, out);
}

int game_parse_order(const brt_game *self, const char *text, brt_buf *out, brt_reject *err) {
    if (!self->state)
        return brt_reject_set(err, BERTHIER__V1__CODE__CODE_NOT_STARTED, "", "not every seat has joined yet");
    return self->rs->order_parse(self->state, text, out, err);
}
