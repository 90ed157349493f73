/*
 * duel.c - the `duel` ruleset (rules in rules/duel/README.md, cited [D1]..[D6]).
 *
 * A small complete game used to exercise the core: a sealed simultaneous bid,
 * a decision for one seat, dice and a result. Pure: no clock, no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "canon.h"
#include "duel/v1/duel.pb-c.h"
#include "ruleset.h"

#define DUEL_VERSION "1.0.0"
#define DUEL_MAX 3
#define DUEL_TARGET 20
#define DUEL_ROUNDS 12
#define DUEL_RESERVE 10
#define DUEL_MAX_BID 3

enum { PHASE_BID = 0, PHASE_ROLL = 1, PHASE_OVER = 2 };

typedef struct duel_state {
    uint32_t nseats;
    uint32_t round;
    uint32_t phase;
    int32_t roller;
    uint32_t pot;
    uint32_t score[DUEL_MAX];
    uint32_t reserve[DUEL_MAX];
    int32_t bid[DUEL_MAX];
    uint32_t winners;      /* bit mask once over */
    uint32_t level;        /* 0 none, 1 points, 2 rounds, 3 draw, 4 resign */
} duel_state;

static const char *const s_names3[] = {"red", "blue", "green"};

/* The scenario's data is these few lines: the game has no map or charts. */
static const char s_scenario_data[] = "duel standard: seats 2-3, reserve 10, target 20, rounds 12, bid 0-3, d6\n";

static int s_scenario_seats(const char *scenario, const char **names, size_t max) {
    if (!scenario || strcmp(scenario, "standard") != 0) return -1;
    for (size_t i = 0; i < max && i < DUEL_MAX; i++) names[i] = s_names3[i];
    return DUEL_MAX;
}

static int s_scenario_hash(const char *scenario, uint8_t out[32]) {
    if (!scenario || strcmp(scenario, "standard") != 0) return -1;
    return crypto_generichash(out, 32, (const unsigned char *)s_scenario_data, sizeof s_scenario_data - 1,
                              NULL, 0);
}

static const char *s_scenario_name(size_t i, unsigned *min_seats) {
    if (min_seats) *min_seats = 2;
    return i == 0 ? "standard" : NULL;
}

/* duel takes no option */
static const char *s_scenario_option(const char *scenario, size_t i) {
    (void)scenario;
    (void)i;
    return NULL;
}

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice,
                     brt_reject *err) {
    (void)dice;
    if (!scenario || strcmp(scenario, "standard") != 0) {
        brt_reject_set(err, BRT_REJECT_BAD_SCENARIO, "D1", "unknown scenario \"%.40s\" for duel; valid: standard",
                       scenario ? scenario : "");
        return NULL;
    }
    uint32_t nseats = opts->seats;
    if (nseats < 2 || nseats > DUEL_MAX) {
        brt_reject_set(err, BRT_REJECT_BAD_SEATS, "D1", "duel is played by 2 or 3 seats, not %u", nseats);
        return NULL;
    }
    if (opts->count) {
        brt_reject_set(err, BRT_REJECT_BAD_OPTION, "D1", "unknown option \"%.60s\" for duel standard; valid: none (duel takes no option)",
                       opts->names[0]);
        return NULL;
    }
    duel_state *s = calloc(1, sizeof *s);
    if (!s) {
        brt_reject_set(err, BRT_REJECT_BAD_SCENARIO, "D1", "out of memory");
        return NULL;
    }
    s->nseats = nseats;
    s->round = 1;
    s->phase = PHASE_BID;
    s->roller = -1;
    for (uint32_t i = 0; i < DUEL_MAX; i++) {
        s->reserve[i] = i < nseats ? DUEL_RESERVE : 0;
        s->bid[i] = -1;
    }
    return s;
}

static void s_destroy(void *state) { free(state); }

static void *s_clone(const void *state) {
    duel_state *c = malloc(sizeof *c);
    if (c) memcpy(c, state, sizeof *c);
    return c;
}

static uint32_t s_all_seats(const duel_state *s) { return (1u << s->nseats) - 1; }

static void s_pending(const void *state, brt_pending *out) {
    const duel_state *s = state;
    memset(out, 0, sizeof *out);
    out->turn = s->round;
    if (s->phase == PHASE_OVER) {
        snprintf(out->kind, sizeof out->kind, "none");
        return;
    }
    if (s->phase == PHASE_BID) {
        for (uint32_t i = 0; i < s->nseats; i++)
            if (s->bid[i] < 0) out->seats |= 1u << i;
        out->sealed = 1;
        snprintf(out->kind, sizeof out->kind, "bid");
        snprintf(out->rule, sizeof out->rule, "D2");
        snprintf(out->prompt, sizeof out->prompt, "round %u: bid a stake of 0 to 3 in secret",
                 s->round);
    } else {
        out->seats = 1u << s->roller;
        snprintf(out->kind, sizeof out->kind, "bank-or-press");
        snprintf(out->rule, sizeof out->rule, "D4");
        snprintf(out->prompt, sizeof out->prompt, "pot %u: bank it or press your luck", s->pot);
    }
}

static int s_emit(brt_events *ev, const Duel__V1__Event *e) {
    uint8_t buf[256];
    size_t n = protobuf_c_message_get_packed_size(&e->base);
    if (n > sizeof buf) return -1;
    protobuf_c_message_pack(&e->base, buf);
    return brt_events_emit(ev, BRT_SEATS_ALL, buf, n);
}

/* [D5] end of game checks after every change. */
static void s_check_end(duel_state *s, brt_events *ev) {
    uint32_t winners = 0;
    const char *reason = NULL;
    for (uint32_t i = 0; i < s->nseats; i++)
        if (s->score[i] >= DUEL_TARGET) winners |= 1u << i;
    if (winners) {
        reason = "[D5] reached 20 points";
        s->level = 1;
    } else if (s->round > DUEL_ROUNDS) {
        uint32_t best = 0;
        for (uint32_t i = 0; i < s->nseats; i++)
            if (s->score[i] > best) best = s->score[i];
        uint32_t n = 0;
        for (uint32_t i = 0; i < s->nseats; i++)
            if (s->score[i] == best) { winners |= 1u << i; n++; }
        if (n > 1) {
            winners = 0;
            s->level = 3;
            reason = "[D5] equal highest scores after round 12: a draw";
        } else {
            s->level = 2;
            reason = "[D5] highest score after round 12";
        }
    } else {
        return;
    }
    s->phase = PHASE_OVER;
    s->winners = winners;
    s->roller = -1;
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    Duel__V1__Ended ended = DUEL__V1__ENDED__INIT;
    uint32_t w[DUEL_MAX];
    size_t nw = 0;
    for (uint32_t i = 0; i < s->nseats; i++)
        if (winners & (1u << i)) w[nw++] = i;
    ended.n_winners = nw;
    ended.winners = w;
    ended.reason = (char *)reason;
    e.kind_case = DUEL__V1__EVENT__KIND_ENDED;
    e.ended = &ended;
    s_emit(ev, &e);
}

static void s_next_round(duel_state *s, brt_events *ev) {
    s->round++;
    s->phase = PHASE_BID;
    s->roller = -1;
    s->pot = 0;
    for (uint32_t i = 0; i < DUEL_MAX; i++) s->bid[i] = -1;
    s_check_end(s, ev);
}

static void s_emit_roll(brt_events *ev, uint32_t seat, uint32_t value, uint32_t pot, const char *why) {
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    Duel__V1__Rolled r = DUEL__V1__ROLLED__INIT;
    r.seat = seat;
    r.value = value;
    r.pot = pot;
    r.why = (char *)why;
    e.kind_case = DUEL__V1__EVENT__KIND_ROLLED;
    e.rolled = &r;
    s_emit(ev, &e);
}

/* [D2]-[D3] all bids are in: reveal and find the roller. */
static void s_resolve_bids(duel_state *s, brt_dice *dice, brt_events *ev) {
    uint32_t stakes[DUEL_MAX];
    int32_t best = -1, winner = -1;
    int tie = 0;
    for (uint32_t i = 0; i < s->nseats; i++) {
        stakes[i] = (uint32_t)s->bid[i];
        s->reserve[i] -= stakes[i];
        if (s->bid[i] > best) { best = s->bid[i]; winner = (int32_t)i; tie = 0; }
        else if (s->bid[i] == best) tie = 1;
    }
    if (tie) winner = -1;
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    Duel__V1__Bids b = DUEL__V1__BIDS__INIT;
    b.round = s->round;
    b.n_stakes = s->nseats;
    b.stakes = stakes;
    b.winner = winner;
    e.kind_case = DUEL__V1__EVENT__KIND_BIDS;
    e.bids = &b;
    s_emit(ev, &e);
    if (winner < 0) {
        s_next_round(s, ev);
        return;
    }
    s->roller = winner;
    s->pot = brt_dice_roll(dice, 6, "D3 first roll"); /* public: duel hides nothing but the sealed bids */
    s->phase = PHASE_ROLL;
    s_emit_roll(ev, (uint32_t)winner, s->pot, s->pot, "first roll");
}

static int s_bank(duel_state *s, brt_events *ev) {
    uint32_t seat = (uint32_t)s->roller;
    s->score[seat] += s->pot;
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    Duel__V1__Banked b = DUEL__V1__BANKED__INIT;
    b.seat = seat;
    b.points = s->pot;
    b.score = s->score[seat];
    e.kind_case = DUEL__V1__EVENT__KIND_BANKED;
    e.banked = &b;
    s_emit(ev, &e);
    s_next_round(s, ev);
    return 0;
}

static int s_apply(void *state, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice,
                   brt_events *ev, brt_reject *err) {
    duel_state *s = state;
    if (s->phase == PHASE_OVER)
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "D5", "the game is over");
    if (seat >= s->nseats)
        return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "D1", "there is no seat %u", seat);
    /* Only the canonical encoding: a bool written as 2, say, decodes to the same
     * order as the one legal() lists but is other bytes in the log. */
    ProtobufCMessage *m = NULL;
    int crc = canon_unpack(&duel__v1__order__descriptor, order, len, 4096, &m);
    if (crc != CANON_OK) return brt_reject_set(err, BRT_REJECT_MALFORMED, "D1", "the order: %s", canon_strerror(crc));
    Duel__V1__Order *o = (Duel__V1__Order *)m;
    int rc = -1;
    if (s->phase == PHASE_BID) {
        if (o->kind_case != DUEL__V1__ORDER__KIND_BID) {
            brt_reject_set(err, BRT_REJECT_ILLEGAL, "D2", "every seat must bid now");
            goto done;
        }
        if (s->bid[seat] >= 0) {
            brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "D2", "you have bid this round already");
            goto done;
        }
        if (o->bid > DUEL_MAX_BID) {
            brt_reject_set(err, BRT_REJECT_ILLEGAL, "D2", "a stake is 0 to 3, not %u", o->bid);
            goto done;
        }
        if (o->bid > s->reserve[seat]) {
            brt_reject_set(err, BRT_REJECT_ILLEGAL, "D2", "a stake of %u is more than your reserve of %u",
                           o->bid, s->reserve[seat]);
            goto done;
        }
        s->bid[seat] = (int32_t)o->bid;
        int all = 1;
        for (uint32_t i = 0; i < s->nseats; i++)
            if (s->bid[i] < 0) all = 0;
        if (all) s_resolve_bids(s, dice, ev);
        rc = 0;
        goto done;
    }
    /* PHASE_ROLL */
    if ((int32_t)seat != s->roller) {
        brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "D4", "only the roller decides now");
        goto done;
    }
    if ((o->kind_case == DUEL__V1__ORDER__KIND_BANK && !o->bank) ||
        (o->kind_case == DUEL__V1__ORDER__KIND_PRESS && !o->press)) {
        /* A oneof member set to false is a distinct encoding of no decision. */
        brt_reject_set(err, BRT_REJECT_MALFORMED, "D4", "bank and press are given as true");
    } else if (o->kind_case == DUEL__V1__ORDER__KIND_BANK) {
        rc = s_bank(s, ev);
    } else if (o->kind_case == DUEL__V1__ORDER__KIND_PRESS) {
        uint32_t v = brt_dice_roll(dice, 6, "D4 press"); /* public, like every duel roll */
        if (v == 1) {
            Duel__V1__Event e = DUEL__V1__EVENT__INIT;
            Duel__V1__Busted b = DUEL__V1__BUSTED__INIT;
            s_emit_roll(ev, seat, v, 0, "press");
            b.seat = seat;
            b.lost = s->pot;
            e.kind_case = DUEL__V1__EVENT__KIND_BUSTED;
            e.busted = &b;
            s_emit(ev, &e);
            s_next_round(s, ev);
        } else {
            s->pot += v;
            s_emit_roll(ev, seat, v, s->pot, "press");
        }
        rc = 0;
    } else {
        brt_reject_set(err, BRT_REJECT_ILLEGAL, "D4", "the roller must bank or press");
    }
done:
    duel__v1__order__free_unpacked(o, NULL);
    return rc;
}

static int s_pack_order(brt_buf *out, const Duel__V1__Order *o) {
    uint8_t buf[16];
    size_t n = duel__v1__order__pack(o, buf);
    return buf_append_item(out, buf, n);
}

static int s_legal(const void *state, unsigned seat, brt_buf *out) {
    const duel_state *s = state;
    int count = 0;
    Duel__V1__Order o = DUEL__V1__ORDER__INIT;
    if (s->phase == PHASE_BID && seat < s->nseats && s->bid[seat] < 0) {
        uint32_t max = s->reserve[seat] < DUEL_MAX_BID ? s->reserve[seat] : DUEL_MAX_BID;
        for (uint32_t b = 0; b <= max; b++) {
            o.kind_case = DUEL__V1__ORDER__KIND_BID;
            o.bid = b;
            if (s_pack_order(out, &o) != 0) return -1;
            count++;
        }
    } else if (s->phase == PHASE_ROLL && (int32_t)seat == s->roller) {
        o.kind_case = DUEL__V1__ORDER__KIND_BANK;
        o.bank = 1;
        if (s_pack_order(out, &o) != 0) return -1;
        o.kind_case = DUEL__V1__ORDER__KIND_PRESS;
        o.bank = 0;
        o.press = 1;
        if (s_pack_order(out, &o) != 0) return -1;
        count = 2;
    }
    return count;
}

static const char *s_phase_name(uint32_t p) {
    return p == PHASE_BID ? "bid" : p == PHASE_ROLL ? "bank-or-press" : "over";
}

static int s_view(const void *state, int seat, brt_buf *out) {
    const duel_state *s = state;
    Duel__V1__View v = DUEL__V1__VIEW__INIT;
    v.round = s->round;
    v.n_scores = s->nseats;
    v.scores = (uint32_t *)s->score;
    v.n_reserves = s->nseats;
    v.reserves = (uint32_t *)s->reserve;
    v.pot = s->pot;
    v.roller = s->roller;
    v.my_bid = (seat >= 0 && (uint32_t)seat < s->nseats) ? s->bid[seat] : -1;
    v.phase = (char *)s_phase_name(s->phase);
    size_t n = duel__v1__view__get_packed_size(&v);
    if (buf_reserve(out, n) != 0) return -1;
    duel__v1__view__pack(&v, out->data + out->len);
    out->len += n;
    return 0;
}

static int s_view_text(const void *state, int seat, brt_buf *out) {
    const duel_state *s = state;
    if (buf_printf(out, "duel round %u, phase %s\n", s->round, s_phase_name(s->phase)) != 0) return -1;
    for (uint32_t i = 0; i < s->nseats; i++) {
        if (buf_printf(out, "  seat %u %-5s score %2u reserve %2u%s%s\n", i, s_names3[i], s->score[i],
                       s->reserve[i], (int32_t)i == s->roller ? "  rolling, pot " : "",
                       (int32_t)i == s->roller ? "" : "") != 0)
            return -1;
        if ((int32_t)i == s->roller && buf_printf(out, "    pot %u\n", s->pot) != 0) return -1;
    }
    if (seat >= 0 && (uint32_t)seat < s->nseats && s->bid[seat] >= 0)
        return buf_printf(out, "  your sealed bid: %d\n", s->bid[seat]);
    return 0;
}

/* ---- the picture (render) ------------------------------------------------------ */
/* A score board: the round track 1..12, then a row per seat with its score on a track to
 * the target, its reserve, the roller's pot, and a bid only where the viewpoint may see it
 * (its own seat, or everything). Integer coordinates only. */
static const char *const s_colours[] = {"#b22222", "#1e4fa8", "#2e7d32"};

static int s_render(const void *state, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    const duel_state *s = state;
    const int cell = 24, left = 120, top = 70, row = 64;
    const int width = left + cell * (DUEL_TARGET + 1) + 140, height = top + row * (int)s->nseats + 70;
    int rc = buf_printf(out,
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"duel\" "
                        "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
                        "font-size=\"13\">\n<rect width=\"%d\" height=\"%d\" fill=\"#f7f3e8\"/>\n",
                        width, height, width, height, width, height);
    if (ctx && ctx->caption) {
        rc |= buf_append_str(out, "<text x=\"8\" y=\"18\" font-weight=\"bold\">");
        rc |= buf_append_xml(out, ctx->caption);
        rc |= buf_append_str(out, "</text>\n");
    }
    /* [D5] round track */
    rc |= buf_printf(out, "<g class=\"track\" id=\"rounds\"><text x=\"8\" y=\"44\">round</text>\n");
    for (int r = 1; r <= DUEL_ROUNDS; r++)
        rc |= buf_printf(out,
                         "<rect x=\"%d\" y=\"30\" width=\"%d\" height=\"20\" fill=\"%s\" stroke=\"#555\"/>"
                         "<text x=\"%d\" y=\"45\" text-anchor=\"middle\">%d</text>\n",
                         left + (r - 1) * cell, cell, (uint32_t)r == s->round ? "#f2c94c" : "#fff",
                         left + (r - 1) * cell + cell / 2, r);
    rc |= buf_append_str(out, "</g>\n");
    for (uint32_t i = 0; i < s->nseats; i++) {
        int y = top + row * (int)i;
        rc |= buf_printf(out, "<g class=\"counter\" id=\"u-%s\" data-unit=\"%s\" data-seat=\"%u\">\n", s_names3[i],
                         s_names3[i], i);
        rc |= buf_printf(out, "<text x=\"8\" y=\"%d\" fill=\"%s\" font-weight=\"bold\">seat %u %s</text>\n", y + 22,
                         s_colours[i], i, s_names3[i]);
        /* [D5] the score track 0..target */
        for (int k = 0; k <= DUEL_TARGET; k++)
            rc |= buf_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\" stroke=\"#999\"/>\n",
                             left + k * cell, y + 8, cell, (uint32_t)k <= s->score[i] && k > 0 ? s_colours[i] : "#fff");
        rc |= buf_printf(out, "<text x=\"%d\" y=\"%d\">score %u, reserve %u</text>\n", left, y + 42, s->score[i],
                         s->reserve[i]);
        if (s->phase == PHASE_ROLL && (int32_t)i == s->roller)
            rc |= buf_printf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">rolling: pot %u [D3] [D4]</text>\n",
                             left + cell * (DUEL_TARGET + 1) + 8, y + 22, s->pot);
        /* [D2] a bid is sealed: only its seat (and everything after the end) shows it */
        int own = viewpoint == BRT_VIEW_ALL || (viewpoint >= 0 && (uint32_t)viewpoint == i);
        if (own && s->phase == PHASE_BID && s->bid[i] >= 0)
            rc |= buf_printf(out, "<text x=\"%d\" y=\"%d\">sealed bid %d [D2]</text>\n",
                             left + cell * (DUEL_TARGET + 1) + 8, y + 42, s->bid[i]);
        if (s->phase == PHASE_OVER && (s->winners >> i) & 1u)
            rc |= buf_printf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">winner</text>\n",
                             left + cell * (DUEL_TARGET + 1) + 8, y + 22);
        rc |= buf_append_str(out, "</g>\n");
    }
    rc |= buf_printf(out, "<text x=\"8\" y=\"%d\">phase %s; target %d points [D5]</text>\n</svg>\n", height - 16,
                     s_phase_name(s->phase), DUEL_TARGET);
    return rc ? -1 : 0;
}

static int s_encode(const void *state, brt_buf *out) {
    const duel_state *s = state;
    int rc = 0;
    rc |= buf_append_str(out, "duel1");
    rc |= buf_append_u32le(out, s->nseats);
    rc |= buf_append_u32le(out, s->round);
    rc |= buf_append_u32le(out, s->phase);
    rc |= buf_append_u32le(out, (uint32_t)s->roller);
    rc |= buf_append_u32le(out, s->pot);
    for (uint32_t i = 0; i < DUEL_MAX; i++) {
        rc |= buf_append_u32le(out, s->score[i]);
        rc |= buf_append_u32le(out, s->reserve[i]);
        rc |= buf_append_u32le(out, (uint32_t)s->bid[i]);
    }
    rc |= buf_append_u32le(out, s->winners);
    rc |= buf_append_u32le(out, s->level);
    return rc ? -1 : 0;
}

static void s_result(const void *state, brt_result *out) {
    const duel_state *s = state;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < s->nseats; i++) out->scores[i] = (int32_t)s->score[i];
    if (s->phase != PHASE_OVER) return;
    out->ended = 1;
    out->winners = s->winners;
    static const char *const levels[] = {"", "points", "rounds", "draw", "resignation"};
    snprintf(out->level, sizeof out->level, "%s", levels[s->level]);
    static const char *const reasons[] = {"", "[D5] reached 20 points", "[D5] highest score after round 12",
                                          "[D5] equal highest scores after round 12",
                                          "[D6] the other side resigned or forfeited"};
    snprintf(out->reason, sizeof out->reason, "%s", reasons[s->level]);
}

static void s_resign(void *state, unsigned seat, brt_events *ev) {
    duel_state *s = state;
    if (s->phase == PHASE_OVER || seat >= s->nseats) return;
    s->phase = PHASE_OVER;
    s->winners = s_all_seats(s) & ~(1u << seat);
    s->level = 4;
    s->roller = -1;
    Duel__V1__Event e = DUEL__V1__EVENT__INIT;
    Duel__V1__Resigned r = DUEL__V1__RESIGNED__INIT;
    r.seat = seat;
    e.kind_case = DUEL__V1__EVENT__KIND_RESIGNED;
    e.resigned = &r;
    s_emit(ev, &e);
}

/* The default when the roller's clock runs out: bank [D4]. Bids have no default. */
static int s_timeout_default(void *state, unsigned seat, brt_dice *dice, brt_events *ev) {
    (void)dice;
    duel_state *s = state;
    if (s->phase != PHASE_ROLL || (int32_t)seat != s->roller) return -1;
    return s_bank(s, ev);
}

static int s_order_parse(const void *state, const char *text, brt_buf *out, brt_reject *err) {
    (void)state;
    Duel__V1__Order o = DUEL__V1__ORDER__INIT;
    unsigned v;
    char extra;
    while (*text == ' ' || *text == '\t') text++;
    if (sscanf(text, "bid %u %c", &v, &extra) == 1) {
        o.kind_case = DUEL__V1__ORDER__KIND_BID;
        o.bid = v;
    } else if (strncmp(text, "bank", 4) == 0 && text[4 + strspn(text + 4, " \t\n")] == '\0') {
        o.kind_case = DUEL__V1__ORDER__KIND_BANK;
        o.bank = 1;
    } else if (strncmp(text, "press", 5) == 0 && text[5 + strspn(text + 5, " \t\n")] == '\0') {
        o.kind_case = DUEL__V1__ORDER__KIND_PRESS;
        o.press = 1;
    } else {
        return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "D1",
                              "duel orders are \"bid N\", \"bank\" or \"press\"");
    }
    uint8_t buf[16];
    size_t n = duel__v1__order__pack(&o, buf);
    return buf_append(out, buf, n);
}

static int s_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    Duel__V1__Order *o = duel__v1__order__unpack(NULL, len, order);
    if (!o) return -1;
    int rc;
    switch (o->kind_case) {
    case DUEL__V1__ORDER__KIND_BID: rc = buf_printf(out, "bid %u", o->bid); break;
    case DUEL__V1__ORDER__KIND_BANK: rc = buf_append_str(out, "bank"); break;
    case DUEL__V1__ORDER__KIND_PRESS: rc = buf_append_str(out, "press"); break;
    default: rc = -1;
    }
    duel__v1__order__free_unpacked(o, NULL);
    return rc;
}

static int s_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    Duel__V1__Event *e = duel__v1__event__unpack(NULL, len, event);
    if (!e) return -1;
    int rc = 0;
    switch (e->kind_case) {
    case DUEL__V1__EVENT__KIND_BIDS:
        rc |= buf_printf(out, "round %u bids", e->bids->round);
        for (size_t i = 0; i < e->bids->n_stakes; i++) rc |= buf_printf(out, " %u", e->bids->stakes[i]);
        rc |= e->bids->winner < 0 ? buf_append_str(out, ": tie, nobody rolls")
                                  : buf_printf(out, ": seat %d rolls", e->bids->winner);
        break;
    case DUEL__V1__EVENT__KIND_ROLLED:
        rc = buf_printf(out, "seat %u rolled %u (%s), pot %u", e->rolled->seat, e->rolled->value,
                        e->rolled->why, e->rolled->pot);
        break;
    case DUEL__V1__EVENT__KIND_BANKED:
        rc = buf_printf(out, "seat %u banked %u, score %u", e->banked->seat, e->banked->points,
                        e->banked->score);
        break;
    case DUEL__V1__EVENT__KIND_BUSTED:
        rc = buf_printf(out, "seat %u busted and lost a pot of %u", e->busted->seat, e->busted->lost);
        break;
    case DUEL__V1__EVENT__KIND_ENDED:
        rc = buf_printf(out, "game over: %s", e->ended->reason);
        break;
    case DUEL__V1__EVENT__KIND_RESIGNED:
        rc = buf_printf(out, "seat %u resigned", e->resigned->seat);
        break;
    default: rc = -1;
    }
    duel__v1__event__free_unpacked(e, NULL);
    return rc ? -1 : 0;
}

const brt_ruleset brt_ruleset_duel = {
    .id = "duel",
    .version = DUEL_VERSION,
    .scenario_seats = s_scenario_seats,
    .scenario_hash = s_scenario_hash,
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
    .timeout_default = s_timeout_default,
    .order_parse = s_order_parse,
    .order_format = s_order_format,
    .event_format = s_event_format,
    .scenario_name = s_scenario_name,
    .scenario_option = s_scenario_option,
};
