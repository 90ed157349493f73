/*
 * ruleset.c - brt_ruleset_wnlb: the table the core calls, and the first engine:
 * set-up [3.1], the deal [3.2] [4.0], player rounds of cards played for Movement [6.0] [8.0]
 * (the MPs are not spent on units yet), passing and the end of the turn [4.0], victory [13.2] [13.3].
 * Not yet: bids [7.0], battles [9.0], actions [11.x], moves of units [8.x] (see README.md).
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"
#include "wnlb_render.h"

static const char *const s_names3[] = {"french", "british", "prussian"};
static const char *const s_names2[] = {"french", "allied"};

static int s_seats(const char *scenario, const char **names, size_t max) {
    const wnlb_scenario *sc = wnlb_scenario_get(scenario);
    if (!sc) return -1;
    for (size_t i = 0; names && i < max && i < sc->max_seats; i++)
        names[i] = sc->max_seats == 3 ? s_names3[i] : s_names2[i];
    return sc->max_seats;
}

static int s_hash(const char *scenario, uint8_t out[32]) {
    size_t len = 0;
    const char *t = wnlb_data_text(scenario, &len);
    if (!t || !wnlb_scenario_get(scenario)) return -1;
    return crypto_generichash(out, 32, (const unsigned char *)t, len, NULL, 0);
}

static const char *s_scenario_name(size_t i, unsigned *min_seats) {
    if (min_seats) *min_seats = 2;
    return wnlb_data_name(i);
}

static const char *s_scenario_option(const char *scenario, size_t i) {
    (void)scenario;
    (void)i;
    return NULL;
}

int wnlb_seat_of_army(const wnlb_state *s, int army) {
    if (army == WNLB_FR) return 0;
    if (s->nseats == 3) return army;
    return 1;
}

int wnlb_side_of_army(int army) { return army == WNLB_FR ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED; }

int wnlb_side_of_seat(const wnlb_state *s, unsigned seat) {
    (void)s;
    return seat == 0 ? WNLB_SIDE_FRENCH : WNLB_SIDE_ALLIED;
}

uint32_t wnlb_side_seats(const wnlb_state *s, int side) {
    if (side == WNLB_SIDE_FRENCH) return 1u;
    return s->nseats == 3 ? 6u : 2u;
}

void wnlb_event(brt_events *ev, uint32_t seats, const char *kind, int army, const char *unit, int row, int col,
                int value, const int *cards, int n_cards, const char *text) {
    if (!ev) return;
    Wnlb__V1__Event e = WNLB__V1__EVENT__INIT;
    char sq[8];
    uint32_t ids[WNLB_MAX_CARDS];
    e.kind = (char *)kind;
    e.army = army;
    e.unit = (char *)(unit ? unit : "");
    wnlb_square_name(row, col, sq, sizeof sq);
    e.square = row >= 0 ? sq : (char *)"";
    e.value = value;
    for (int i = 0; i < n_cards && i < WNLB_MAX_CARDS; i++) ids[i] = (uint32_t)cards[i];
    e.n_cards = (size_t)(n_cards > 0 ? n_cards : 0);
    e.cards = ids;
    e.text = (char *)(text ? text : "");
    size_t n = wnlb__v1__event__get_packed_size(&e);
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return;
    wnlb__v1__event__pack(&e, b);
    brt_events_emit(ev, seats, b, n);
    free(b);
}

/* ---- set-up [3.1] ---- */

wnlb_state *wnlb_state_new(const wnlb_scenario *sc, unsigned seats) {
    wnlb_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->sc = sc;
    s->nseats = (uint8_t)seats;
    s->turn = sc->first_turn;
    for (size_t i = 0; i < sc->n_units; i++) {
        const wnlb_unit_def *d = &sc->units[i];
        s->units[i].row = d->row;
        s->units[i].col = d->col;
        s->units[i].facing = d->facing;
        s->units[i].entered = d->row >= 0;
    }
    for (int a = 0; a < 2; a++) {
        s->cmd_row[a] = sc->cmd_row[a];
        s->cmd_col[a] = sc->cmd_col[a];
    }
    for (size_t i = 0; i < sc->n_chateaux; i++) s->cdp[i] = sc->chateaux[i].cdp;
    for (size_t i = 0; i < sc->n_vp; i++) s->vp_owner[i] = WNLB_SIDE_ALLIED; /* [3.1] British side up */
    s->moving = -1;
    s->interrupt_unit = s->mover = -1;
    s->battle.target = -1;
    s->bid[0] = s->bid[1] = -2;
    s->phase = WNLB_PH_ROUND;
    s->active_side = WNLB_SIDE_FRENCH; /* [3.2] [7.0] the French start game turn 1 */
    s->round_army = WNLB_FR;
    return s;
}

void wnlb_state_destroy(wnlb_state **p) {
    if (p && *p) {
        free(*p);
        *p = NULL;
    }
}

wnlb_state *wnlb_state_clone(const wnlb_state *s) {
    wnlb_state *c = malloc(sizeof *c);
    if (c) memcpy(c, s, sizeof *c);
    return c;
}

/* canonical bytes: every field but the scenario pointer (calloc'd, so padding is zero) */
int wnlb_state_encode(const wnlb_state *s, brt_buf *out) {
    if (buf_append_str(out, s->sc->name) || buf_append(out, "\0", 1)) return -1;
    return buf_append(out, (const uint8_t *)s + sizeof s->sc, sizeof *s - sizeof s->sc);
}

static void *s_setup(const char *scenario, const brt_ruleset_options *opts, brt_dice *dice, brt_reject *err) {
    const wnlb_scenario *sc = wnlb_scenario_get(scenario);
    if (!sc) {
        brt_reject_set(err, BRT_REJECT_BAD_SCENARIO, "13.1", "unknown scenario \"%.40s\" for wnlb; valid: short, full",
                       scenario ? scenario : "");
        return NULL;
    }
    if (opts->count > 0) {
        brt_reject_set(err, BRT_REJECT_BAD_OPTION, "13.1", "wnlb takes no option (\"%.40s\")", opts->names[0]);
        return NULL;
    }
    if (opts->seats < 2 || opts->seats > sc->max_seats) {
        brt_reject_set(err, BRT_REJECT_BAD_SEATS, "1.0", "the %s game is played by 2%s seats, not %u", sc->name,
                       sc->max_seats == 3 ? " or 3" : "", opts->seats);
        return NULL;
    }
    wnlb_state *s = wnlb_state_new(sc, opts->seats);
    if (!s) {
        brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.0", "out of memory");
        return NULL;
    }
    wnlb_deal(s, dice, NULL); /* set-up has no event stream: the hands are in the state */
    return s;
}

static void s_destroy(void *st) {
    wnlb_state *s = st;
    wnlb_state_destroy(&s);
}

static void *s_clone(const void *st) { return wnlb_state_clone(st); }

static int s_apply(void *st, unsigned seat, const uint8_t *order, size_t len, brt_dice *dice, brt_events *ev,
                   brt_reject *err) {
    wnlb_state *s = st;
    wnlb_order o;
    if (seat >= s->nseats) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "1.0", "there is no seat %u", seat);
    if (wnlb_order_decode(s, order, len, &o, err)) return -1;
    return wnlb_apply_order(s, seat, &o, dice, ev, err);
}

static int s_legal(const void *st, unsigned seat, brt_buf *out) { return wnlb_legal(st, seat, out); }
static void s_pending(const void *st, brt_pending *out) { wnlb_pending(st, out); }

static int s_view(const void *st, int vp, brt_buf *out) { return wnlb_view(st, vp, out); }
static int s_view_text(const void *st, int vp, brt_buf *out) { return wnlb_view_text(st, vp, out); }
static int s_encode(const void *st, brt_buf *out) { return wnlb_state_encode(st, out); }

static void s_result(const void *st, brt_result *out) {
    const wnlb_state *s = st;
    memset(out, 0, sizeof *out);
    if (!s->over) return;
    out->ended = 1;
    out->winners = s->winners;
    snprintf(out->level, sizeof out->level, "%s", s->level);
    if (s->resigned) snprintf(out->reason, sizeof out->reason, "a side resigned");
    else wnlb_victory_text(s, out->reason, sizeof out->reason);
    int32_t vp[2];
    wnlb_scores(s, vp);
    for (unsigned i = 0; i < s->nseats; i++) out->scores[i] = vp[wnlb_side_of_seat(s, i)];
}

static void s_resign(void *st, unsigned seat, brt_events *ev) {
    wnlb_state *s = st;
    if (s->over) return;
    int side = wnlb_side_of_seat(s, seat);
    s->over = 1;
    s->phase = WNLB_PH_OVER;
    s->resigned = (uint8_t)(side + 1);
    s->winners = wnlb_side_seats(s, 1 - side);
    snprintf(s->level, sizeof s->level, "forfeit");
    wnlb_event(ev, BRT_SEATS_ALL, "resigned", -1, NULL, -1, -1, (int)seat, NULL, 0, "a side resigned");
}

/* [4.0] a player may always choose not to play: each phase's file says what that means (rounds.c) */
static int s_timeout(void *st, unsigned seat, brt_dice *dice, brt_events *ev) {
    wnlb_state *s = st;
    wnlb_order o;
    brt_reject err;
    if (wnlb_default_order(s, seat, &o)) return -1;
    return wnlb_apply_order(s, seat, &o, dice, ev, &err);
}

static int s_order_parse(const void *st, const char *text, brt_buf *out, brt_reject *err) {
    brt_buf tmp;
    buf_init(&tmp);
    int rc = wnlb_order_parse(st, text, &tmp, err);
    if (rc == 0) { /* order_parse gives the bare Order bytes */
        size_t pos = 0, n = 0;
        const uint8_t *item = NULL;
        rc = buf_next_item(&tmp, &pos, &item, &n) == 1 ? buf_append(out, item, n) : -1;
    }
    buf_free(&tmp);
    return rc;
}

int wnlb_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    Wnlb__V1__Event *e = wnlb__v1__event__unpack(NULL, len, event);
    if (!e) return -1;
    buf_printf(out, "%s", e->kind);
    if (e->army >= 0 && e->army < WNLB_ARMIES) buf_printf(out, " %s", s_names3[e->army]);
    if (e->unit[0]) buf_printf(out, " %s", e->unit);
    if (e->square[0]) buf_printf(out, " %s", e->square);
    for (size_t i = 0; i < e->n_cards; i++) buf_printf(out, " #%u", e->cards[i]);
    if (e->text[0]) buf_printf(out, ": %s", e->text);
    wnlb__v1__event__free_unpacked(e, NULL);
    return 0;
}

static int s_render(const void *state, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    return wnlb_render(state, viewpoint, ctx, out);
}

const brt_ruleset brt_ruleset_wnlb = {
    .id = "wnlb",
    .version = WNLB_VERSION,
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
    .order_format = wnlb_order_format,
    .event_format = wnlb_event_format,
    .scenario_name = s_scenario_name,
    .scenario_option = s_scenario_option,
};
