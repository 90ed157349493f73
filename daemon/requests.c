/*
 * requests.c - one handler per request kind. Every problem becomes a Reply
 * with a code, a rule reference where the rules give one, and a sentence;
 * nothing a client sends reaches fatal().
 *
 * Who may do what (the key is the CURVE key authenticated by ZAP):
 *   create, abort, list of all games, live logs . admin keys
 *   join, submit, resign, reveal, legal ......... the key bound to that seat
 *   pending, events ............................. that seat; the game's spectator
 *                                                 keys (what every seat may see, all
 *                                                 of it after the end); admins (all)
 *   state ....................................... that seat; admins; spectator keys
 *                                                 after the end, or all along what
 *                                                 every seat may see (spectators=live)
 *   fetch_log ................................... admins; the game's seats and
 *                                                 spectator keys after the end
 * A key with neither a seat nor a spectator key in a game reads nothing of it,
 * ended or not (docs/protocol.md P3).
 *   header ...................................... as pending
 *   query ....................................... as state
 *
 *
 * Seat signatures (docs/protocol.md P3.1) are checked by the core (game.c),
 * so live play and replay check them with the same code; the daemon only
 * refuses an unsigned join, which would otherwise start an unsigned game.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "decode.h"
#include "engine.h"
#include "hello.h"
#include "log.h"
#include "receipts.h"
#include "seatsig.h"
#include "pad.h"
#include "vis.h"
#include "quiet.h"

#ifndef BERTHIER_VERSION
#define BERTHIER_VERSION "0.0.0"
#endif

#define S_LOG_CHUNK_DEFAULT (64u << 10)
#define S_LOG_CHUNK_MAX (512u << 10)

typedef Berthier__V1__Reply s_reply;

/* ---- reply helpers -------------------------------------------------------- */

static void s_pack(brt_buf *out, const s_reply *r) {
    buf_reset(out);
    size_t n = protobuf_c_message_get_packed_size(&r->base);
    if (buf_reserve(out, n) != 0) fatal("out of memory packing a reply of %zu bytes", n);
    protobuf_c_message_pack(&r->base, out->data);
    out->len = n;
}

/* A reply about a game, padded to its size class but never past `limit`
 * (max-message), pad.h: its length on the wire tells no more than the class. */
static void s_pack_padded(brt_buf *out, s_reply *r, size_t limit) {
    buf_reset(out);
    size_t n = 0;
    uint8_t *p = pad_pack(&r->base, &r->padding, 2, limit, &n);   /* field 110: tag f2 06 */
    if (!p) fatal("out of memory packing a reply");
    if (buf_append(out, p, n) != 0) fatal("out of memory packing a reply of %zu bytes", n);
    if (r->body_case == BERTHIER__V1__REPLY__BODY_JOINED) sodium_memzero(p, n);   /* an event key */
    free(p);
}

/* Rejections are padded too (their message may name what the asking seat
 * alone knows); they are at most 1024 bytes, the least max-message. */
#define S_FAIL_LIMIT 1024

static void s_fail(brt_buf *out, uint64_t request_id, int code, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The section of docs/protocol.md behind a rejection that no game rule governs. */
static const char *s_protocol_rule(int code) {
    switch (code) {
    case BERTHIER__V1__CODE__CODE_MALFORMED:
    case BERTHIER__V1__CODE__CODE_TOO_LARGE: return "P2";
    case BERTHIER__V1__CODE__CODE_UNAUTHORIZED:
    case BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT: return "P3";
    case BERTHIER__V1__CODE__CODE_BAD_RULESET:
    case BERTHIER__V1__CODE__CODE_BAD_SCENARIO:
    case BERTHIER__V1__CODE__CODE_BAD_OPTION:
    case BERTHIER__V1__CODE__CODE_BAD_SEATS: return "P4.1";
    case BERTHIER__V1__CODE__CODE_UNKNOWN_GAME:
    case BERTHIER__V1__CODE__CODE_BAD_REQUEST: return "P4";
    case BERTHIER__V1__CODE__CODE_REQUEST_ID_REUSED:
    case BERTHIER__V1__CODE__CODE_TOO_MANY_CONNECTIONS:
    case BERTHIER__V1__CODE__CODE_BUSY: return "P5";
    case BERTHIER__V1__CODE__CODE_IO_ERROR:
    case BERTHIER__V1__CODE__CODE_INTERNAL: return "P7";
    default: return "P6";
    }
}

static void s_fail(brt_buf *out, uint64_t request_id, int code, const char *rule, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* A message may quote what the client sent (a ruleset name, a game id):
     * keep it printable ASCII so that it is valid UTF-8 for every client. */
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e) *p = '?';
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = request_id;
    r.code = (Berthier__V1__Code)code;
    r.rule = (char *)(rule && rule[0] ? rule : s_protocol_rule(code));
    r.message = msg;
    s_pack_padded(out, &r, S_FAIL_LIMIT);
}

static void s_fail_rej(brt_buf *out, uint64_t request_id, const brt_reject *rej) {
    int code = rej->code ? rej->code : BERTHIER__V1__CODE__CODE_INTERNAL;
    s_fail(out, request_id, code, rej->rule, "%s", rej->message[0] ? rej->message : "the request was refused");
}

/* ---- captured records -> events, rolls, state hash ------------------------- */

typedef struct {
    Berthier__V1__Event *ev;
    Berthier__V1__Event **evp;
    size_t nev;
    Berthier__V1__Roll *rolls;
    Berthier__V1__Roll **rollp;
    size_t nrolls;
    uint8_t hash[32];
    int have_hash;
    brt_buf texts;             /* NUL-terminated texts; pointers fixed up after */
    size_t *text_off;
    ProtobufCMessage **held;   /* decoded records to free */
    size_t nheld;
} s_outcome;

/* seat >= 0: that seat's view; seat < 0: public events and rolls only (all = every one).
 * What a party may receive is decided by core/vis.c alone. */
static void s_outcome_build_rs(s_outcome *o, const brt_ruleset *rs, unsigned nseats, const brt_buf *cap, int seat,
                               int all);
static void s_outcome_build(s_outcome *o, const bd_game *gm, const brt_buf *cap, int seat, int all) {
    s_outcome_build_rs(o, game_ruleset(gm->g), game_seat_count(gm->g), cap, seat, all);
}

/* The same from the ruleset and seat count alone (an ended game kept on disk). */
static void s_outcome_build_rs(s_outcome *o, const brt_ruleset *rs, unsigned nseats, const brt_buf *cap, int seat,
                               int all) {
    memset(o, 0, sizeof *o);
    buf_init(&o->texts);
    size_t items = 0, pos = 0;
    const uint8_t *it;
    size_t len;
    while (buf_next_item(cap, &pos, &it, &len) == 1) items++;
    if (!items) return;
    o->ev = calloc(items, sizeof *o->ev);
    o->evp = calloc(items, sizeof *o->evp);
    o->rolls = calloc(items, sizeof *o->rolls);
    o->rollp = calloc(items, sizeof *o->rollp);
    o->text_off = calloc(items, sizeof *o->text_off);
    o->held = calloc(items, sizeof *o->held);
    if (!o->ev || !o->evp || !o->rolls || !o->rollp || !o->text_off || !o->held)
        fatal("out of memory building an outcome");
    pos = 0;
    while (buf_next_item(cap, &pos, &it, &len) == 1) {
        if (len < 1) continue;
        uint8_t kind = it[0];
        const uint8_t *p = it + 1;
        size_t n = len - 1;
        const ProtobufCMessageDescriptor *d = kind == EVLOG_EVENT  ? &berthier__v1__log_event__descriptor
                                              : kind == EVLOG_DICE  ? &berthier__v1__log_dice__descriptor
                                              : kind == EVLOG_STATE ? &berthier__v1__log_state__descriptor
                                                                    : NULL;
        if (!d) continue;
        ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, n, p);
        if (!m) continue;
        o->held[o->nheld++] = m;
        if (kind == EVLOG_EVENT) {
            const Berthier__V1__LogEvent *le = (const Berthier__V1__LogEvent *)m;
            if (!vis_event_may_see(le->visible, seat, nseats, all)) continue;
            Berthier__V1__Event *e = &o->ev[o->nev];
            berthier__v1__event__init(e);
            e->seq = le->seq;
            e->index = le->index;
            e->data = le->data;
            brt_buf t;
            buf_init(&t);
            o->text_off[o->nev] = o->texts.len;
            if (rs->event_format && rs->event_format(le->data.data, le->data.len, &t) == 0)
                buf_append(&o->texts, t.data, t.len);
            buf_append(&o->texts, "", 1);
            buf_free(&t);
            o->evp[o->nev] = e;
            o->nev++;
        } else if (kind == EVLOG_DICE) {
            const Berthier__V1__LogDice *ld = (const Berthier__V1__LogDice *)m;
            if (!vis_dice_may_see(ld->visible, seat, nseats, all)) continue;
            Berthier__V1__Roll *r = &o->rolls[o->nrolls];
            berthier__v1__roll__init(r);
            r->index = ld->index;
            r->sides = ld->sides;
            r->value = ld->value;
            r->purpose = ld->purpose;
            r->visible = ld->visible;
            o->rollp[o->nrolls++] = r;
        } else {
            const Berthier__V1__LogState *ls = (const Berthier__V1__LogState *)m;
            if (ls->hash.len == 32) {
                memcpy(o->hash, ls->hash.data, 32);
                o->have_hash = 1;
            }
        }
    }
    for (size_t i = 0; i < o->nev; i++) o->ev[i].text = (char *)o->texts.data + o->text_off[i];
}

static void s_outcome_free(s_outcome *o) {
    for (size_t i = 0; i < o->nheld; i++) protobuf_c_message_free_unpacked(o->held[i], NULL);
    free(o->held);
    free(o->ev);
    free(o->evp);
    free(o->rolls);
    free(o->rollp);
    free(o->text_off);
    buf_free(&o->texts);
}

/* ---- the decision as a seat sees it ------------------------------------------ */

typedef struct {
    Berthier__V1__Decision d;
    Berthier__V1__Result res;
    uint32_t seats[BRT_MAX_SEATS];
    uint32_t winners[BRT_MAX_SEATS];
    int32_t scores[BRT_MAX_SEATS];
    brt_pending p;
    brt_result r;
} s_decision;

/* Decision.result of an ended game from s->r (its brt_result) */
static void s_decision_result(s_decision *s, unsigned nseats) {
    berthier__v1__result__init(&s->res);
    s->res.ended = 1;
    for (unsigned i = 0; i < nseats; i++) {
        if (s->r.winners & (1u << i)) s->winners[s->res.n_winners++] = i;
        s->scores[i] = s->r.scores[i];
    }
    s->res.winners = s->winners;
    s->res.level = s->r.level;
    s->res.reason = s->r.reason;
    s->res.n_scores = nseats;
    s->res.scores = s->scores;
    s->d.result = &s->res;
}

static void s_decision_build(s_decision *s, const bd_game *gm, int seat) {
    memset(s, 0, sizeof *s);
    berthier__v1__decision__init(&s->d);
    int must = 0;
    game_pending(gm->g, seat, &s->p, &must);
    unsigned nseats = game_seat_count(gm->g);
    s->d.seq = game_seq(gm->g);
    for (unsigned i = 0; i < nseats; i++)
        if (s->p.seats & (1u << i)) s->seats[s->d.n_seats++] = i;
    s->d.seats = s->seats;
    s->d.kind = s->p.kind;
    s->d.rule = s->p.rule;
    s->d.sealed = s->p.sealed;
    s->d.prompt = s->p.prompt;
    s->d.you_must_act = must;
    s->d.started = game_started(gm->g);
    s->d.turn = s->p.turn;
    s->d.batch = game_batch(gm->g);
    if (game_over(gm->g)) {
        game_result(gm->g, &s->r);
        s_decision_result(s, nseats);
    }
}

/* The same decision for an ended game kept on disk, from its index (finidx.h): an ended
 * game asks nothing of anyone (game_pending: kind "none"), so its seq, start, dice batch
 * and result are all there is. -1: the index does not hold the batch (format 1). */
static int s_decision_build_fin(s_decision *s, const bd_finidx *f) {
    if (!f->have_batch) return -1;
    memset(s, 0, sizeof *s);
    berthier__v1__decision__init(&s->d);
    snprintf(s->p.kind, sizeof s->p.kind, "none");
    unsigned nseats = f->nseats;
    s->d.seq = f->seq;
    s->d.seats = s->seats;
    s->d.kind = s->p.kind;
    s->d.rule = s->p.rule;
    s->d.sealed = 0;
    s->d.prompt = s->p.prompt;
    s->d.you_must_act = 0;
    s->d.started = f->started;
    s->d.turn = 0;
    s->d.batch = f->batch;
    finidx_result(f, &s->r);
    s_decision_result(s, nseats);
    return 0;
}

/* ---- legal orders, listed and formatted once per decision (P4.3) ------------- */

/* A seat's legal orders after the game's input number `gen`: the ruleset's list,
 * and the texts of its first `nformatted` orders. `legal` requests and
 * Reply.next_legal both read it, so a decision is listed once and each of its
 * orders formatted at most once, however often it is asked for. */
typedef struct {
    int valid;
    uint64_t gen;
    int failed;                    /* the ruleset could not list orders */
    brt_buf list;                  /* u32 le length || order, as legal() writes them */
    ProtobufCBinaryData *orders;   /* into list */
    size_t n;
    brt_buf text;                  /* NUL-terminated texts */
    size_t *toff, *tlen;           /* offset in text; length with its NUL */
    char **texts;                  /* into text, fixed up after formatting */
    size_t nformatted;
} s_lcache;

struct bd_legal_cache {
    s_lcache seat[BRT_MAX_SEATS];
};

static void s_lcache_clear(s_lcache *c) {
    buf_free(&c->list);
    buf_free(&c->text);
    free(c->orders);
    free(c->toff);
    free(c->tlen);
    free(c->texts);
    memset(c, 0, sizeof *c);
}

void engine_legal_forget(bd_game *g) {
    if (!g || !g->legal) return;
    for (unsigned s = 0; s < BRT_MAX_SEATS; s++) s_lcache_clear(&g->legal->seat[s]);
    free(g->legal);
    g->legal = NULL;
}

uint64_t engine_formatted(const bd_engine *self) { return self->formatted; }

/* The seat's legal orders now (seat < BRT_MAX_SEATS), listed once per input. */
static s_lcache *s_legal_get(bd_game *gm, unsigned seat) {
    if (!gm->legal && !(gm->legal = calloc(1, sizeof *gm->legal))) fatal("out of memory listing orders");
    s_lcache *c = &gm->legal->seat[seat];
    if (c->valid && c->gen == gm->gen) return c;
    s_lcache_clear(c);
    c->valid = 1;
    c->gen = gm->gen;
    int n = game_legal(gm->g, seat, &c->list);
    if (n < 0) {
        c->failed = 1;
        return c;
    }
    size_t items = 0, pos = 0;
    const uint8_t *it;
    size_t len;
    while (buf_next_item(&c->list, &pos, &it, &len) == 1) items++;
    c->orders = calloc(items ? items : 1, sizeof *c->orders);
    c->toff = calloc(items ? items : 1, sizeof *c->toff);
    c->tlen = calloc(items ? items : 1, sizeof *c->tlen);
    c->texts = calloc(items ? items : 1, sizeof *c->texts);
    if (!c->orders || !c->toff || !c->tlen || !c->texts) fatal("out of memory listing orders");
    pos = 0;
    while (buf_next_item(&c->list, &pos, &it, &len) == 1) {
        c->orders[c->n].data = (uint8_t *)it;
        c->orders[c->n].len = len;
        c->n++;
    }
    return c;
}

/* The text of order i (the orders before it are formatted already). */
static void s_legal_format(bd_engine *e, const brt_ruleset *rs, s_lcache *c, size_t i) {
    if (i < c->nformatted) return;
    brt_buf t;
    buf_init(&t);
    e->formatted++;
    if (!rs->order_format || rs->order_format(c->orders[i].data, c->orders[i].len, &t) != 0) buf_reset(&t);
    buf_append(&t, "", 1);
    c->toff[i] = c->text.len;
    c->tlen[i] = t.len;
    if (buf_append(&c->text, t.data, t.len) != 0) fatal("out of memory formatting orders");
    buf_free(&t);
    c->nformatted = i + 1;
}

/* Bytes of a length-delimited field of n bytes with a one-byte tag. */
static size_t s_field_len(size_t n) {
    size_t v = 1;
    for (size_t x = n; x >= 0x80; x >>= 7) v++;
    return 1 + v + n;
}

/* LegalOrders as `legal` answers it: at most `limit` orders (0 = all) within
 * `budget` bytes as encoded (tags and lengths counted, so that a long list of
 * short orders cannot pass max-message), with their texts when `texts`. lo points into the cache (valid
 * until the game's next input). -1: the ruleset could not list orders. */
static int s_legal_fill(bd_engine *e, bd_game *gm, unsigned seat, uint32_t limit, int texts, size_t budget,
                        Berthier__V1__LegalOrders *lo) {
    berthier__v1__legal_orders__init(lo);
    if (seat >= BRT_MAX_SEATS) return -1;
    s_lcache *c = s_legal_get(gm, seat);
    if (c->failed) return -1;
    const brt_ruleset *rs = game_ruleset(gm->g);
    size_t cap = c->n, k = 0, used = 0;
    if (limit && cap > limit) cap = limit;
    int truncated = 0;
    while (k < c->n) {
        size_t len = s_field_len(c->orders[k].len);
        if (k >= cap || used + len > budget) {
            truncated = 1;
            break;
        }
        size_t tl = 0;
        if (texts) {
            s_legal_format(e, rs, c, k);
            tl = s_field_len(c->tlen[k] - 1);   /* the text without its NUL */
        }
        used += len + tl;
        k++;
    }
    if (texts)
        for (size_t i = 0; i < k; i++) c->texts[i] = (char *)c->text.data + c->toff[i];
    lo->seq = game_seq(gm->g);
    lo->n_orders = k;
    lo->orders = c->orders;
    lo->n_texts = texts ? k : 0;
    lo->texts = c->texts;
    lo->truncated = truncated;
    return 0;
}

/* What a `legal` reply may fill: no reply is larger than the request limit. */
static size_t s_legal_budget(const bd_engine *e) {
    return e->cfg->max_message > 4096 ? e->cfg->max_message - 4096 : e->cfg->max_message / 2;
}

/* ---- the seat's next decision in a reply (P4.3) --------------------------------- */

typedef struct {
    s_decision dec;
    Berthier__V1__LegalOrders lo;
    Berthier__V1__StateView sv;
    brt_buf view;
    uint8_t vh[32];
} s_next;

/* The seat's View as `state` answers it to that seat without text or svg: seq,
 * view, view_hash (never state_hash: the game is not over and a seat is no admin
 * here, P4.3). 0, or -1 when the ruleset could not render it. */
static int s_next_view(bd_game *gm, unsigned seat, s_next *nx) {
    berthier__v1__state_view__init(&nx->sv);
    if (game_view(gm->g, (int)seat, &nx->view, NULL) != 0) return -1;
    nx->sv.seq = game_seq(gm->g);
    nx->sv.view.data = nx->view.data;
    nx->sv.view.len = nx->view.len;
    nx->sv.text = (char *)"";
    nx->sv.svg = (char *)"";
    if (vis_view_hash(gm->id, (int)seat, nx->sv.seq, nx->view.data, nx->view.len, nx->vh) == 0) {
        nx->sv.view_hash.data = nx->vh;
        nx->sv.view_hash.len = 32;
    }
    return 0;
}

/* Add to r, as `want` asks, the seat's decision now (Reply.next, as `pending`
 * answers it; not for `pending`, whose body is that decision) and, when the seat
 * must act on it, its View (Reply.next_view, as `state` answers it without text or
 * svg) and its legal orders (Reply.next_legal, as `legal` answers it), within what
 * max-message leaves beside the rest of the reply: a view that does not fit is left
 * out (the client asks `state`), the legal orders are cut (truncated). nx holds them
 * until r is packed; s_next_free after. */
static void s_next_add(bd_engine *e, bd_game *gm, unsigned seat, const Berthier__V1__Want *want, int pending,
                       s_reply *r, s_next *nx) {
    buf_init(&nx->view);
    if (!want || !(want->decision || want->legal || want->view)) return;
    if (pending && !want->legal && !want->view) return;
    s_decision_build(&nx->dec, gm, (int)seat);
    if (!pending) r->next = &nx->dec.d;
    if (!nx->dec.d.you_must_act || !game_started(gm->g) || game_over(gm->g)) return;
    size_t budget = s_legal_budget(e);
    if (want->view && s_next_view(gm, seat, nx) == 0) {
        r->next_view = &nx->sv;
        if (protobuf_c_message_get_packed_size(&r->base) > budget) r->next_view = NULL;
    }
    if (!want->legal) return;
    size_t rest = protobuf_c_message_get_packed_size(&r->base);
    budget = budget > rest ? budget - rest : 0;
    if (s_legal_fill(e, gm, seat, want->limit, want->texts, budget, &nx->lo) == 0) r->next_legal = &nx->lo;
}

static void s_next_free(s_next *nx) { buf_free(&nx->view); }

/* The Want a request carries (NULL: none). */
static const Berthier__V1__Want *s_want_of(const Berthier__V1__Request *req) {
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN: return req->join->want;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT: return req->submit->want;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: return req->resign->want;
    case BERTHIER__V1__REQUEST__BODY_REVEAL: return req->reveal->want;
    case BERTHIER__V1__REQUEST__BODY_PENDING: return req->pending->want;
    default: return NULL;
    }
}

/* ---- notices --------------------------------------------------------------- */

static void s_push_notice(bd_engine *e, const char *topic, uint8_t *body, size_t len) {
    if (e->nout == e->capout) {
        size_t cap = e->capout ? e->capout * 2 : 64;
        bd_notice *p = realloc(e->out, cap * sizeof *p);
        if (!p) fatal("out of memory queueing a notice");
        e->out = p;
        e->capout = cap;
    }
    bd_notice *n = &e->out[e->nout++];
    snprintf(n->topic, sizeof n->topic, "%s", topic);
    n->body = body;
    n->len = len;
}

static uint8_t *s_notice_bytes(const bd_game *gm, int seat, int all, size_t *len) {
    s_outcome o;
    s_outcome_build(&o, gm, &gm->cap, seat, all);
    s_decision dec;
    s_decision_build(&dec, gm, seat);
    Berthier__V1__Notice n = BERTHIER__V1__NOTICE__INIT;
    n.game_id = (char *)gm->id;
    n.seq = game_seq(gm->g);
    n.n_events = o.nev;
    n.events = o.evp;
    n.decision = &dec.d;
    n.n_rolls = o.nrolls;
    n.rolls = o.rollp;
    bd_witness w;
    if (bd_witness_build(&w, gm)) n.checkpoint = &w.c;
    /* A seat's notice is sealed: padded to its size class (pad.h). The clear
     * one carries only what every party may read, its length tells no more. */
    uint8_t *p = seat >= 0 ? pad_notice_pack(&n, len) : canon_pack(&n.base, len);
    s_outcome_free(&o);
    if (!p) fatal("out of memory packing a notice");
    return p;
}

/* After an input moved the game on: one sealed notice per seat, and the clear
 * one for spectators when the game allows it. */
static void s_queue_notices(bd_engine *e, bd_game *gm) {
    unsigned nseats = game_seat_count(gm->g);
    char topic[64];
    for (unsigned s = 0; s < nseats; s++) {
        size_t len;
        uint8_t *clear = s_notice_bytes(gm, (int)s, 0, &len);
        size_t blen = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + len;
        uint8_t *body = malloc(blen);
        if (!body) fatal("out of memory sealing a notice");
        uint8_t key[32];
        keys_event_key(e->keys, gm->id, s, key);
        randombytes_buf(body, crypto_secretbox_NONCEBYTES);
        crypto_secretbox_easy(body + crypto_secretbox_NONCEBYTES, clear, len, body, key);
        sodium_memzero(key, sizeof key);
        free(clear);
        snprintf(topic, sizeof topic, "g/%s/%u", gm->id, s);
        s_push_notice(e, topic, body, blen);
    }
    int over = game_over(gm->g);
    if (over || gm->spectators_live) {
        /* Only what every seat may see, even after the end: the PUB socket cannot
         * tell its subscribers apart, and any admitted key may subscribe to any
         * topic. A game's own spectators read the rest with `events` (P3). */
        size_t len;
        uint8_t *clear = s_notice_bytes(gm, -1, 0, &len);
        snprintf(topic, sizeof topic, "g/%s/all", gm->id);
        s_push_notice(e, topic, clear, len);
    }
}

void engine_take_notices(bd_engine *self, bd_notice **out, size_t *n) {
    *out = self->out;
    *n = self->nout;
    self->out = NULL;
    self->nout = self->capout = 0;
}

void engine_free_notices(bd_notice *out, size_t n) {
    for (size_t i = 0; i < n; i++) free(out[i].body);
    free(out);
}

/* ---- inputs ------------------------------------------------------------------ */

/* The hashes of an Accepted reply to `seat` after an input that moved the state
 * (attack 3 of issue 11): mid-game only the hash of the seat's own View, which covers
 * nothing it may not see; the full state's hash once the game has ended. */
static void s_accepted_hashes(const bd_game *gm, unsigned seat, const s_outcome *o, Berthier__V1__Accepted *a,
                              uint8_t vh[32]) {
    brt_buf view;
    buf_init(&view);
    if (game_view(gm->g, (int)seat, &view, NULL) == 0 &&
        vis_view_hash(gm->id, (int)seat, game_seq(gm->g), view.data, view.len, vh) == 0) {
        a->view_hash.data = vh;
        a->view_hash.len = 32;
    }
    buf_free(&view);
    if (game_over(gm->g)) {
        a->state_hash.data = (uint8_t *)o->hash;
        a->state_hash.len = 32;
    }
}

/* An Accepted message over an outcome: the game's seq, the outcome's events and rolls. */
static void s_outcome_accepted(const s_outcome *o, const bd_game *gm, Berthier__V1__Accepted *a) {
    berthier__v1__accepted__init(a);
    a->seq = game_seq(gm->g);
    a->n_events = o->nev;
    a->events = o->evp;
    a->n_rolls = o->nrolls;
    a->rolls = o->rollp;
}

/* The Accepted reply to `seat` for the input just captured. Live and recovery
 * build it the same way, so a retry after a restart gets the same bytes (but for
 * Reply.next and next_legal, which recovery leaves out: P4.3). want: what else
 * the reply carries (NULL: nothing). */
static void s_accepted_reply(bd_game *gm, unsigned seat, uint64_t request_id, uint64_t seq_before,
                             const uint8_t *req, size_t req_len, const Berthier__V1__Want *want, brt_buf *out) {
    s_outcome o;
    s_outcome_build(&o, gm, &gm->cap, (int)seat, 0);
    Berthier__V1__Accepted a;
    s_outcome_accepted(&o, gm, &a);
    uint8_t vh[32];
    if (o.have_hash) s_accepted_hashes(gm, seat, &o, &a, vh);
    a.waiting = a.seq == seq_before;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = request_id;
    r.code = BERTHIER__V1__CODE__CODE_OK;
    r.rule = (char *)"";
    r.message = (char *)(a.waiting ? "recorded; waiting for the other seats' sealed choices" : "accepted");
    r.body_case = BERTHIER__V1__REPLY__BODY_ACCEPTED;
    r.accepted = &a;
    bd_receipt rc;
    bd_receipt_build(&rc, gm, seat, req, req_len);
    r.receipt = &rc.r;
    s_next nx;
    s_next_add(gm->eng, gm, seat, want, 0, &r, &nx);
    s_pack_padded(out, &r, gm->eng->cfg->max_message);
    s_next_free(&nx);
    s_outcome_free(&o);
}

typedef enum { S_IN_JOIN, S_IN_SUBMIT, S_IN_RESIGN, S_IN_NONCE, S_IN_TIMEOUT, S_IN_ABORT } s_input_kind;

typedef struct {
    s_input_kind kind;
    unsigned seat;
    const uint8_t *bytes;   /* submit: the Request bytes; join: entropy; nonce: nonce */
    size_t len;
    const uint8_t *extra;   /* join: chain commit */
    size_t extra_len;
    uint64_t batch;
    brt_seatsig sig;        /* join, resign, reveal: the seat's signature (submit: in bytes) */
    const char *reason;     /* abort: the admin's reason */
    int forfeit;            /* abort: the seat that forfeits, or -1 */
} s_input;

/* The decision as a spectator knows it: what every seat can tell apart. */
static int s_same_public_decision(const brt_pending *a, const brt_pending *b) {
    return a->seats == b->seats && a->sealed == b->sealed && strcmp(a->kind, b->kind) == 0 &&
           a->turn == b->turn;
}

/* Feed one input to the game. 0 = applied (records captured, notices queued).
 * Notices go out when the seq moved or the public decision changed (an order
 * that waits for a contributory dice batch changes what everyone must do);
 * a sealed choice that is only recorded changes neither, and stays unseen. */
static int s_apply(bd_engine *e, bd_game *gm, const s_input *in, uint64_t *seq_before, brt_reject *rej) {
    *seq_before = game_seq(gm->g);
    gm->gen++;   /* whatever happens, what the cache of legal orders holds is old */
    brt_pending before, after;
    game_pending(gm->g, -1, &before, NULL);
    quiet_snap snap;
    quiet_before(gm, in->seat, &before, &snap);
    gm->applying = 1;
    game_capture_begin(gm);
    int rc;
    switch (in->kind) {
    case S_IN_JOIN:
        rc = game_join_signed(gm->g, in->seat, in->bytes, in->len, in->extra, in->extra_len, &in->sig, rej);
        break;
    case S_IN_SUBMIT: rc = game_submit(gm->g, in->seat, in->bytes, in->len, rej); break;
    case S_IN_RESIGN: rc = game_resign_signed(gm->g, in->seat, &in->sig, rej); break;
    case S_IN_ABORT: rc = game_abort(gm->g, in->reason, in->forfeit, rej); break;
    case S_IN_NONCE:
        rc = game_nonce_signed(gm->g, in->seat, in->batch, in->bytes, in->len, &in->sig, rej);
        break;
    default: rc = game_timeout(gm->g, in->seat, rej); break;
    }
    game_capture_end(gm);
    if (rc != 0) {
        gm->applying = 0;
        quiet_after(gm, in->seat, &snap, 0);
        /* a refused input appended nothing and concerns nobody else; records of
         * an input that failed half-way (a halted game) concern everyone */
        if (gm->cap.len) gm->clean_touched = 0;
        if (gm->io_failed) log_err("game %s: a record could not be appended; the daemon will stop", gm->id);
        return -1;
    }
    engine_touch(e, gm);
    gm->applying = 0;
    gm->clock_dirty = 1;
    if (game_over(gm->g)) engine_legal_forget(gm);   /* nobody acts on an ended game */
    game_pending(gm->g, -1, &after, NULL);
    int same = game_seq(gm->g) == *seq_before && s_same_public_decision(&before, &after);
    /* the views this input left as they were: their queries need not wait for its sync */
    gm->clean_touched &= quiet_after(gm, in->seat, &snap, same);
    if (!same) s_queue_notices(e, gm);
    return 0;
}

void engine_recovered_input(bd_engine *self, bd_game *gm, uint8_t kind, const uint8_t *payload, size_t len,
                            uint64_t seq_before) {
    if (kind != EVLOG_ORDER) return;
    Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, len, payload);
    if (!o) return;
    Berthier__V1__Request *req = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
    const uint8_t *key = game_seat_key(gm->g, o->seat);
    if (req && key && req->request_id != 0) {
        brt_buf reply;
        buf_init(&reply);
        s_accepted_reply(gm, o->seat, req->request_id, seq_before, o->request.data, o->request.len, NULL, &reply);
        uint8_t digest[DEDUPE_DIGEST];
        dedupe_digest(o->request.data, o->request.len, digest);
        if (dedupe_put(self->dedupe, key, req->request_id, digest, reply.data, reply.len) != 0)
            log_warn("out of memory remembering replies for retries");
        buf_free(&reply);
    }
    if (req) berthier__v1__request__free_unpacked(req, NULL);
    berthier__v1__log_order__free_unpacked(o, NULL);
}

/* ---- access ------------------------------------------------------------------- */

typedef struct {
    bd_game *gm;
    uint32_t seats;   /* seats of this game bound to the key */
    int admin;
    int spectator;    /* one of the game's spectator keys */
    int view;         /* the seat whose view applies, -1 = all */
} s_access;

/* A game-scoped request: find the game and check the key's right to `seat`.
 * need_seat: the request acts for a seat (admins and spectators may not). */
static int s_check_game(bd_engine *e, const uint8_t key[32], const char *game_id, unsigned seat, int need_seat,
                        s_access *a, uint64_t rid, brt_buf *out, int load);
static int s_check(bd_engine *e, const uint8_t key[32], const char *game_id, unsigned seat, int need_seat,
                   s_access *a, uint64_t rid, brt_buf *out) {
    return s_check_game(e, key, game_id, seat, need_seat, a, rid, out, 1);
}

/* load 0: an ended game kept on disk is not brought back (a->gm->g may be NULL); the
 * seats and spectator keys come from its index. */
static int s_check_game(bd_engine *e, const uint8_t key[32], const char *game_id, unsigned seat, int need_seat,
                        s_access *a, uint64_t rid, brt_buf *out, int load) {
    memset(a, 0, sizeof *a);
    a->admin = keys_is_admin(e->keys, key);
    if (!game_id || !game_id[0]) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "the request names no game");
        return -1;
    }
    a->gm = load ? engine_find(e, game_id) : engine_peek(e, game_id);
    if (!a->gm) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNKNOWN_GAME, "", "there is no game \"%.40s\"", game_id);
        return -1;
    }
    a->seats = engine_seats_of(a->gm, key);
    if (a->seats) {
        if (seat >= 32 || !(a->seats & (1u << seat))) {
            s_fail(out, rid, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "",
                   "your key is not bound to seat %u of game %s", seat, a->gm->id);
            return -1;
        }
        a->view = (int)seat;
        return 0;
    }
    /* Ended or not, a game is read only by its seats, its spectator keys and
     * the admins (a seat of another game reads nothing of it). */
    a->spectator = engine_is_spectator(a->gm, key);
    if (!need_seat && (a->admin || a->spectator)) {
        a->view = -1;
        return 0;
    }
    s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "",
           a->admin       ? "an admin key holds no seat in game %s and cannot act for one"
           : a->spectator ? "a spectator key of game %s watches it and cannot act for a seat"
                          : "your key holds no seat in game %s",
           a->gm->id);
    return -1;
}

/* ---- handlers ------------------------------------------------------------------- */

/* The Created reply to the request that made `gm`. Live and recovery build it
 * the same way, from the header, so a retry after a restart gets the same bytes. */
static void s_created_reply(const bd_game *gm, uint64_t rid, brt_buf *out) {
    const Berthier__V1__LogHeader *h = game_header(gm->g);
    Berthier__V1__Created cr = BERTHIER__V1__CREATED__INIT;
    cr.game_id = (char *)gm->id;
    cr.log_path = (char *)gm->log_path;
    cr.dice_commit = h->dice_commit;
    cr.server_sign_pk = h->server_sign_pk;
    cr.n_seats = h->n_seats;
    cr.seats = h->seats;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = rid;
    r.message = (char *)"created";
    r.rule = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_CREATED;
    r.created = &cr;
    s_pack(out, &r);
}

void engine_recovered_create(bd_engine *self, bd_game *gm) {
    const Berthier__V1__LogHeader *h = game_header(gm->g);
    if (!h->create_request_id || h->create_key.len != 32 || h->create_digest.len != DEDUPE_DIGEST) return;
    brt_buf reply;
    buf_init(&reply);
    s_created_reply(gm, h->create_request_id, &reply);
    if (dedupe_put(self->dedupe, h->create_key.data, h->create_request_id, h->create_digest.data, reply.data,
                   reply.len) != 0)
        log_warn("out of memory remembering replies for retries");
    buf_free(&reply);
}

/* digest: of the request bytes, when it has an id (recorded in the header). */
static void s_create(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req,
                     const uint8_t digest[DEDUPE_DIGEST], brt_buf *out) {
    uint64_t rid = req->request_id;
    if (!keys_is_admin(e->keys, key)) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "", "only an admin key may create games");
        return;
    }
    const Berthier__V1__CreateGame *c = req->create;
    if (!c->ruleset || !c->ruleset[0]) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_RULESET, "", "the request names no ruleset");
        return;
    }
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    bd_game *gm = engine_create_game(e, c, key, rid, rid ? digest : NULL, &rej);
    if (!gm) {
        s_fail_rej(out, rid, &rej);
        return;
    }
    engine_touch(e, gm);
    s_created_reply(gm, rid, out);
}

static void s_joined_reply(bd_engine *e, bd_game *gm, unsigned seat, uint64_t rid, const char *msg,
                           const Berthier__V1__Receipt *receipt, const Berthier__V1__Want *want, brt_buf *out) {
    uint8_t ek[32];
    keys_event_key(e->keys, gm->id, seat, ek);
    Berthier__V1__Joined j = BERTHIER__V1__JOINED__INIT;
    /* an ended game kept on disk (no want then: hello) answers from its index */
    j.seq = gm->g ? game_seq(gm->g) : gm->fin->seq;
    j.started = gm->g ? game_started(gm->g) : gm->fin->started;
    j.event_key.data = ek;
    j.event_key.len = 32;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = rid;
    r.rule = (char *)"";
    r.message = (char *)msg;
    r.body_case = BERTHIER__V1__REPLY__BODY_JOINED;
    r.joined = &j;
    r.receipt = (Berthier__V1__Receipt *)receipt;
    s_next nx;
    s_next_add(e, gm, seat, want, 0, &r, &nx);
    s_pack_padded(out, &r, e->cfg->max_message);
    s_next_free(&nx);
    sodium_memzero(ek, sizeof ek);
}

/* frame/len: the exact request bytes, which the receipt's input_hash covers. */
static void s_input_reply(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req,
                          const uint8_t *frame, size_t len, const char *game_id, unsigned seat, s_input *in,
                          brt_buf *out) {
    uint64_t rid = req->request_id;
    s_access a;
    if (s_check(e, key, game_id, seat, 1, &a, rid, out) != 0) return;
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    uint64_t before = 0;
    /* A new game is always seat-signed: an unsigned join is refused unless the
     * game is already unsigned (a game begun before seat signatures). */
    if (in->kind == S_IN_JOIN && !in->sig.signature_len && game_seat_signed(a.gm->g) != 0) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
               "a join must be seat-signed: Join.sign_pk, Join.header_hash (from a `header` request) and "
               "Request.signature (docs/protocol.md P3.1)");
        return;
    }
    if (s_apply(e, a.gm, in, &before, &rej) != 0) {
        s_fail_rej(out, rid, &rej);
        return;
    }
    if (in->kind == S_IN_JOIN) {
        bd_receipt rc;
        bd_receipt_build(&rc, a.gm, seat, frame, len);
        s_joined_reply(e, a.gm, seat, rid, "joined", &rc.r, s_want_of(req), out);
    } else {
        s_accepted_reply(a.gm, seat, rid, before, frame, len, s_want_of(req), out);
    }
}

/* abort: admins only (P3). Seats and spectators are refused; the game ends with
 * no winner or a forfeit (core/game.h game_abort). The reply is Accepted with
 * the public outcome and no receipt: the admin holds no seat to sign for, and
 * the checkpoint that closes the game witnesses the ABORT record. */
static void s_abort_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__AbortGame *ab = req->abort;
    uint64_t rid = req->request_id;
    if (!keys_is_admin(e->keys, key)) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3", "only an admin key may abort a game");
        return;
    }
    if (!ab->game_id || !ab->game_id[0]) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "the request names no game");
        return;
    }
    if (!ab->has_forfeit && ab->forfeit_seat) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P3", "forfeit_seat is set without has_forfeit");
        return;
    }
    bd_game *gm = engine_find(e, ab->game_id);
    if (!gm) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNKNOWN_GAME, "", "there is no game \"%.40s\"", ab->game_id);
        return;
    }
    if (ab->has_forfeit && ab->forfeit_seat >= game_seat_count(gm->g)) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "P3", "game %s has no seat %u to forfeit", gm->id,
               ab->forfeit_seat);
        return;
    }
    s_input in = {S_IN_ABORT, 0, NULL, 0, NULL, 0, 0, {0}, ab->reason ? ab->reason : "",
                  ab->has_forfeit ? (int)ab->forfeit_seat : -1};
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    uint64_t before = 0;
    if (s_apply(e, gm, &in, &before, &rej) != 0) {
        s_fail_rej(out, rid, &rej);
        return;
    }
    log_info("game %s: aborted by an admin at seq %llu", gm->id, (unsigned long long)before);
    s_outcome o;
    s_outcome_build(&o, gm, &gm->cap, -1, 0);
    Berthier__V1__Accepted a;
    s_outcome_accepted(&o, gm, &a);
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = rid;
    r.code = BERTHIER__V1__CODE__CODE_OK;
    r.rule = (char *)"";
    r.message = (char *)"aborted";
    r.body_case = BERTHIER__V1__REPLY__BODY_ACCEPTED;
    r.accepted = &a;
    s_pack_padded(out, &r, e->cfg->max_message);
    s_outcome_free(&o);
}

static int s_bring_back(bd_engine *e, s_access *a, uint64_t rid, brt_buf *out);

static void s_pending_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->pending;
    s_access a;
    if (s_check_game(e, key, g->game_id, g->seat, 0, &a, req->request_id, out, 0) != 0) return;
    s_decision dec;
    /* an ended game kept on disk answers from its index: it has no legal orders, so
     * Want adds nothing to its reply (s_next_add) and the bytes are those below */
    int cold = !a.gm->g;
    if (cold && s_decision_build_fin(&dec, a.gm->fin) != 0) {
        if (s_bring_back(e, &a, req->request_id, out) != 0) return;
        cold = 0;
    }
    if (!cold) s_decision_build(&dec, a.gm, a.view);
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_DECISION;
    r.decision = &dec.d;
    /* Want.legal: the seat's legal orders too (a seat only: `legal` is for seats) */
    s_next nx;
    buf_init(&nx.view);
    if (a.view >= 0 && !cold) s_next_add(e, a.gm, (unsigned)a.view, g->want, 1, &r, &nx);
    s_pack_padded(out, &r, e->cfg->max_message);
    s_next_free(&nx);
}

static void s_legal_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->legal;
    s_access a;
    if (s_check_game(e, key, g->game_id, g->seat, 1, &a, req->request_id, out, 0) != 0) return;
    if (!a.gm->g || game_over(a.gm->g)) {   /* a game kept on disk has ended */
        s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_GAME_OVER, "", "game %s has ended", a.gm->id);
        return;
    }
    if (!game_started(a.gm->g)) {
        s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_NOT_STARTED, "",
               "game %s waits for every seat to join", a.gm->id);
        return;
    }
    /* listed once per decision, each text formatted at most once (P4.3) */
    Berthier__V1__LegalOrders lo;
    if (s_legal_fill(e, a.gm, g->seat, g->limit, 1, s_legal_budget(e), &lo) != 0) {
        s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_INTERNAL, "", "the ruleset could not list orders");
        return;
    }
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_LEGAL;
    r.legal = &lo;
    s_pack_padded(out, &r, e->cfg->max_message);
}

/* GameRef.svg: the ruleset's picture of the same view as the reply's View (docs/render.md).
 * 0 with an empty picture when the ruleset draws none or the game has not started. */
static int s_state_svg(const bd_game *gm, int view, brt_buf *svg) {
    if (!game_started(gm->g) || !game_ruleset(gm->g)->render) return 0;
    char caption[96];
    snprintf(caption, sizeof caption, "game %s, seq %llu", gm->id, (unsigned long long)game_seq(gm->g));
    brt_render_ctx ctx = {NULL, 0, -1, caption};
    return game_render(gm->g, view, &ctx, svg);
}

static void s_state_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->state;
    s_access a;
    if (s_check(e, key, g->game_id, g->seat, 0, &a, req->request_id, out) != 0) return;
    int over = game_over(a.gm->g);
    if (a.view < 0 && !a.admin && !over) {
        /* A spectator of a game whose spectators are live sees what every seat
         * may see at once (BRT_VIEW_PUBLIC); a delayed one sees the state once
         * the game has ended, and follows events and pending until then. */
        if (!a.gm->spectators_live) {
            s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "",
                   "a spectator sees the state of game %s after the end (it is not created with spectators=live); "
                   "until then it follows events and pending",
                   a.gm->id);
            return;
        }
        a.view = BRT_VIEW_PUBLIC;
    }
    brt_buf view, text, svg;
    buf_init(&view);
    buf_init(&text);
    buf_init(&svg);
    if (game_view(a.gm->g, a.view, &view, g->text ? &text : NULL) != 0 ||
        (g->svg && s_state_svg(a.gm, a.view, &svg) != 0)) {
        buf_free(&view);
        buf_free(&text);
        buf_free(&svg);
        s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_INTERNAL, "", "the ruleset could not render the state");
        return;
    }
    buf_append(&text, "", 1);
    buf_append(&svg, "", 1);
    uint8_t hash[32];
    Berthier__V1__StateView sv = BERTHIER__V1__STATE_VIEW__INIT;
    sv.seq = game_seq(a.gm->g);
    sv.view.data = view.data;
    sv.view.len = view.len;
    sv.text = (char *)text.data;
    sv.svg = (char *)svg.data;
    if ((a.admin || over) && game_state_hash(a.gm->g, hash) == 0) {
        sv.state_hash.data = hash;
        sv.state_hash.len = 32;
    }
    /* the view's own seat: a seat, 0xffffffff (all), 0xfffffffe (public) */
    uint8_t vh[32];
    if (vis_view_hash(a.gm->id, a.view, sv.seq, view.data, view.len, vh) == 0) {
        sv.view_hash.data = vh;
        sv.view_hash.len = 32;
    }
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_STATE;
    r.state = &sv;
    size_t need = protobuf_c_message_get_packed_size(&r.base);
    if (g->svg && need > e->cfg->max_message) {
        /* never a cut picture: the client asks again without svg (or the
         * operator raises max-message) */
        s_fail(out, req->request_id, BERTHIER__V1__CODE__CODE_TOO_LARGE, "P4",
               "the state of game %s with its picture takes %zu bytes, over max-message (%zu); ask without svg",
               a.gm->id, need, (size_t)e->cfg->max_message);
    } else {
        s_pack_padded(out, &r, e->cfg->max_message);
    }
    buf_free(&view);
    buf_free(&text);
    buf_free(&svg);
}

/* query: a question about the state, answered by the ruleset (brt_ruleset.query) as the asker
 * may see the state, by the rules of `state`: a seat its own view, an admin everything, a
 * spectator what every seat may see when the game's spectators are live, everything after the
 * end, and nothing before it otherwise. */
#define S_QUERY_MAX 200
static void s_query_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__Query *q = req->query;
    uint64_t rid = req->request_id;
    s_access a;
    if (s_check(e, key, q->game_id, q->seat, 0, &a, rid, out) != 0) return;
    size_t n = q->text ? strlen(q->text) : 0;
    int printable = n > 0 && n <= S_QUERY_MAX;
    for (size_t i = 0; printable && i < n; i++) printable = q->text[i] >= 0x20 && q->text[i] < 0x7f;
    if (!printable) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P4",
               "a query is 1 to %d bytes of printable ASCII", S_QUERY_MAX);
        return;
    }
    if (!game_ruleset(a.gm->g)->query) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "P4", "the %s ruleset answers no queries",
               game_ruleset(a.gm->g)->id);
        return;
    }
    if (!game_started(a.gm->g)) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_NOT_STARTED, "", "game %s waits for every seat to join", a.gm->id);
        return;
    }
    int over = game_over(a.gm->g);
    if (a.view < 0 && !a.admin && !over) {
        if (!a.gm->spectators_live) {
            s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "",
                   "a spectator asks about game %s after the end (it is not created with spectators=live)", a.gm->id);
            return;
        }
        a.view = BRT_VIEW_PUBLIC;
    }
    brt_buf text;
    buf_init(&text);
    if (game_query(a.gm->g, a.view, q->text, &text) != 0 || buf_append(&text, "", 1) != 0) {
        buf_free(&text);
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_INTERNAL, "", "the ruleset could not answer the query");
        return;
    }
    Berthier__V1__QueryAnswer qa = BERTHIER__V1__QUERY_ANSWER__INIT;
    qa.seq = game_seq(a.gm->g);
    qa.text = (char *)text.data;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = rid;
    r.rule = (char *)"";
    r.message = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_ANSWER;
    r.answer = &qa;
    if (protobuf_c_message_get_packed_size(&r.base) > e->cfg->max_message)
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_TOO_LARGE, "P4", "the answer takes over max-message (%zu bytes)",
               (size_t)e->cfg->max_message);
    else
        s_pack_padded(out, &r, e->cfg->max_message);
    buf_free(&text);
}

static void s_list_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    int admin = keys_is_admin(e->keys, key);
    Berthier__V1__GameSummary *sums = calloc(e->ngames ? e->ngames : 1, sizeof *sums);
    Berthier__V1__GameSummary **sp = calloc(e->ngames ? e->ngames : 1, sizeof *sp);
    Berthier__V1__Result *res = calloc(e->ngames ? e->ngames : 1, sizeof *res);
    uint32_t(*seats)[BRT_MAX_SEATS] = calloc(e->ngames ? e->ngames : 1, sizeof *seats);
    uint32_t(*winners)[BRT_MAX_SEATS] = calloc(e->ngames ? e->ngames : 1, sizeof *winners);
    brt_result *rr = calloc(e->ngames ? e->ngames : 1, sizeof *rr);
    if (!sums || !sp || !res || !seats || !winners || !rr) fatal("out of memory listing games");
    size_t n = 0;
    size_t budget = e->cfg->max_message / 2, used = 0;
    int truncated = 0;
    for (size_t i = 0; i < e->ngames; i++) {
        bd_game *gm = e->games[i];
        uint32_t mine = engine_seats_of(gm, key);
        if (!admin && !mine && !engine_is_spectator(gm, key)) continue;
        if (used > budget) {
            truncated = 1;
            break;
        }
        Berthier__V1__GameSummary *s = &sums[n];
        berthier__v1__game_summary__init(s);
        /* an ended game may be on disk only (games.c "finished games") */
        bd_summary sum;
        engine_summary(gm, &sum, &rr[n]);
        s->game_id = gm->id;
        s->ruleset = (char *)sum.ruleset;
        s->scenario = (char *)sum.scenario;
        s->seq = sum.seq;
        s->started = sum.started;
        for (unsigned k = 0; k < sum.nseats; k++)
            if (mine & (1u << k)) seats[n][s->n_your_seats++] = k;
        s->your_seats = seats[n];
        if (sum.over) {
            berthier__v1__result__init(&res[n]);
            res[n].ended = 1;
            for (unsigned k = 0; k < sum.nseats; k++)
                if (rr[n].winners & (1u << k)) winners[n][res[n].n_winners++] = k;
            res[n].winners = winners[n];
            res[n].level = rr[n].level;
            res[n].reason = rr[n].reason;
            s->result = &res[n];
        }
        used += 128;
        sp[n] = s;
        n++;
    }
    Berthier__V1__GameList gl = BERTHIER__V1__GAME_LIST__INIT;
    gl.n_games = n;
    gl.games = sp;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)(truncated ? "the list was cut to fit the message size limit" : "");
    r.body_case = BERTHIER__V1__REPLY__BODY_GAMES;
    r.games = &gl;
    s_pack(out, &r);
    free(sums);
    free(sp);
    free(res);
    free(seats);
    free(winners);
    free(rr);
}

static void s_fetch_log_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__FetchLog *f = req->fetch_log;
    uint64_t rid = req->request_id;
    bd_game *gm = engine_peek(e, f->game_id);   /* the bytes come from the file: no need of its state */
    if (!f->game_id || !f->game_id[0]) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "the request names no game");
        return;
    }
    if (!gm) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNKNOWN_GAME, "", "there is no game \"%.40s\"", f->game_id);
        return;
    }
    int admin = keys_is_admin(e->keys, key);
    int mine = engine_seats_of(gm, key) != 0 || engine_is_spectator(gm, key);
    if (!admin && !(mine && (!gm->g || game_over(gm->g)))) {
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "",
               mine ? "a seat or spectator may fetch the log of game %s only after the game has ended"
                    : "your key holds no seat in game %s",
               gm->id);
        return;
    }
    size_t want = f->max_bytes ? f->max_bytes : S_LOG_CHUNK_DEFAULT;
    if (want > S_LOG_CHUNK_MAX) want = S_LOG_CHUNK_MAX;
    if (want > e->cfg->max_message / 2) want = e->cfg->max_message / 2;
    int fd = open(gm->log_path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_IO_ERROR, "", "the log of game %s cannot be read: %s", gm->id,
               strerror(errno));
        return;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (f->offset > size) {
        close(fd);
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "",
               "offset %llu is past the end of the log (%llu bytes)", (unsigned long long)f->offset,
               (unsigned long long)size);
        return;
    }
    size_t n = (size_t)(size - f->offset < want ? size - f->offset : want);
    uint8_t *data = malloc(n ? n : 1);
    if (!data) fatal("out of memory reading a log chunk");
    ssize_t got = n ? pread(fd, data, n, (off_t)f->offset) : 0;
    close(fd);
    if (got < 0) {
        free(data);
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_IO_ERROR, "", "the log of game %s cannot be read", gm->id);
        return;
    }
    Berthier__V1__LogChunk lc = BERTHIER__V1__LOG_CHUNK__INIT;
    lc.offset = f->offset;
    lc.data.data = data;
    lc.data.len = (size_t)got;
    lc.eof = f->offset + (uint64_t)got >= size;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = rid;
    r.rule = (char *)"";
    r.message = (char *)"";
    r.body_case = BERTHIER__V1__REPLY__BODY_LOG;
    r.log = &lc;
    s_pack(out, &r);
    free(data);
}

/* The EventList of `cap` (the events after since_seq, in log order) as the asker may see them. */
static void s_events_reply(bd_engine *e, const Berthier__V1__Request *req, const brt_ruleset *rs, unsigned nseats,
                           const brt_buf *cap, int view, int all, uint64_t last_seq, int truncated, brt_buf *out) {
    s_outcome o;
    s_outcome_build_rs(&o, rs, nseats, cap, view, all);
    Berthier__V1__EventList el = BERTHIER__V1__EVENT_LIST__INIT;
    el.seq = last_seq;
    el.n_events = o.nev;
    el.events = o.evp;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)(truncated ? "more events follow: ask again from seq" : "");
    r.body_case = BERTHIER__V1__REPLY__BODY_EVENTS;
    r.events = &el;
    s_pack_padded(out, &r, e->cfg->max_message);
    s_outcome_free(&o);
}

/* The ruleset of an ended game kept on disk, if it is the one that played it (else the game
 * is brought back, which refuses it as start-up would). */
static const brt_ruleset *s_cold_ruleset(const bd_game *gm, const bd_finev *ix) {
    const brt_ruleset *rs = brt_ruleset_find(finidx_ruleset(gm->fin));
    return rs && rs->version && strcmp(rs->version, ix->version) == 0 ? rs : NULL;
}

/* `events` about an ended game kept on disk: the same selection as below, made from its
 * record index (<id>.evx, finev.h), the payloads read from the log in one pread and each
 * checked against the chain. 0 = answered; -1 = the index or the log could not serve it
 * (nothing was sent: the caller brings the game back). */
static int s_events_cold(bd_engine *e, const s_access *a, const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->events;
    const bd_game *gm = a->gm;
    bd_finev *ix = engine_fin_records(e, gm);
    const brt_ruleset *rs = ix ? s_cold_ruleset(gm, ix) : NULL;
    if (!rs) {
        finev_destroy(&ix);
        return -1;
    }
    unsigned nseats = gm->fin->nseats;
    int all = a->view < 0;   /* the game has ended */
    size_t first = 0;
    while (first < ix->n && ix->e[first].seq <= g->since_seq) first++;
    uint64_t last_seq = g->since_seq, cur_seq = 0;
    size_t budget = e->cfg->max_message / 2, caplen = 0, end = first;
    int truncated = 0;
    for (size_t i = first; i < ix->n; i++) {
        uint64_t seq = ix->e[i].seq;
        if (seq <= g->since_seq) continue;
        if (seq != cur_seq) {
            if (caplen > budget) {
                truncated = 1;
                last_seq = cur_seq;   /* every event of cur_seq is in */
                break;
            }
            if (cur_seq) last_seq = cur_seq;
            cur_seq = seq;
        }
        caplen += 5u + ix->e[i].len;   /* as the item would take in `cap` */
        end = i + 1;
    }
    if (!truncated) last_seq = gm->fin->seq > last_seq ? gm->fin->seq : last_seq;
    brt_buf cap;
    buf_init(&cap);
    int rc = 0;
    if (end > first) {
        bd_finev_span sp = {NULL, 0, 0};
        int fd = open(gm->log_path, O_RDONLY | O_CLOEXEC);
        const bd_finev_entry *lo = &ix->e[first], *hi = &ix->e[end - 1];
        rc = fd >= 0 && finev_span_read(fd, lo->offset, hi->offset + hi->len, &sp) == 0 ? 0 : -1;
        if (fd >= 0) close(fd);
        for (size_t i = first; rc == 0 && i < end; i++) {
            const bd_finev_entry *en = &ix->e[i];
            /* what the asker may not see is left out here already (it takes no room in
             * the reply); s_outcome_build_rs judges again from the payload itself */
            if (en->seq <= g->since_seq || !vis_event_may_see(en->visible, a->view, nseats, all)) continue;
            const uint8_t *p = finev_span_record(&sp, en->offset, en->len, EVLOG_EVENT);
            if (!p) {
                log_err("game %s: the EVENT record at offset %llu of %s is not what its index says", gm->id,
                        (unsigned long long)en->offset, gm->log_path);
                rc = -1;
                break;
            }
            uint8_t k = EVLOG_EVENT;
            buf_append_u32le(&cap, en->len + 1);
            buf_append(&cap, &k, 1);
            buf_append(&cap, p, en->len);
        }
        finev_span_free(&sp);
    }
    if (rc == 0) s_events_reply(e, req, rs, nseats, &cap, a->view, all, last_seq, truncated, out);
    buf_free(&cap);
    finev_destroy(&ix);
    return rc;
}

/* An ended game kept on disk whose index could not serve a request is brought back
 * from its log (re-executed once), as every request about it did before. */
static int s_bring_back(bd_engine *e, s_access *a, uint64_t rid, brt_buf *out) {
    char id[ENGINE_ID_LEN + 1];
    snprintf(id, sizeof id, "%s", a->gm->id);
    a->gm = engine_find(e, id);
    if (a->gm) return 0;
    s_fail(out, rid, BERTHIER__V1__CODE__CODE_UNKNOWN_GAME, "", "there is no game \"%.40s\"", id);
    return -1;
}

/* Events after since_seq as the asker may see them, from the game's index of
 * its durable EVENT records (evindex.h): the cost is that of what is returned.
 * Inputs are kept whole: a reply ends at an input boundary. An ended game kept
 * on disk is answered from its record index (s_events_cold), with the same bytes. */
static void s_events_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->events;
    s_access a;
    if (s_check_game(e, key, g->game_id, g->seat, 0, &a, req->request_id, out, 0) != 0) return;
    if (!a.gm->g && (s_events_cold(e, &a, req, out) == 0 || s_bring_back(e, &a, req->request_id, out) != 0)) return;
    const bd_evindex *ix = &a.gm->events;
    brt_buf cap;
    buf_init(&cap);
    uint64_t last_seq = g->since_seq, cur_seq = 0;
    size_t budget = e->cfg->max_message / 2;
    int truncated = 0;
    size_t durable = evindex_durable(ix);
    for (size_t i = evindex_after(ix, g->since_seq); i < durable; i++) {
        uint64_t seq = evindex_seq(ix, i);
        if (seq <= g->since_seq) continue;
        if (seq != cur_seq) {
            /* A new input begins: stop here if the reply is already big. */
            if (cap.len > budget) {
                truncated = 1;
                last_seq = cur_seq;   /* every event of cur_seq is in: ask again from there */
                break;
            }
            if (cur_seq) last_seq = cur_seq;
            cur_seq = seq;
        }
        uint8_t k = EVLOG_EVENT;
        buf_append_u32le(&cap, evindex_len(ix, i) + 1);
        buf_append(&cap, &k, 1);
        buf_append(&cap, evindex_payload(ix, i), evindex_len(ix, i));
    }
    if (!truncated) last_seq = a.gm->synced_seq > last_seq ? a.gm->synced_seq : last_seq;
    s_events_reply(e, req, game_ruleset(a.gm->g), game_seat_count(a.gm->g), &cap, a.view,
                   a.view < 0 && (a.admin || game_over(a.gm->g)), last_seq, truncated, out);
    buf_free(&cap);
}

/* The Header reply of a game whose record 0 is `bytes`. */
static void s_header_reply(bd_engine *e, const Berthier__V1__Request *req, const char *game_id, const uint8_t *bytes,
                           size_t len, const uint8_t hash[32], brt_buf *out) {
    Berthier__V1__GameHeader h = BERTHIER__V1__GAME_HEADER__INIT;
    h.header.data = (uint8_t *)bytes;
    h.header.len = len;
    h.header_hash.data = (uint8_t *)hash;
    h.header_hash.len = 32;
    /* the header signed as a checkpoint of record 0, so that a seat holds it signed */
    uint8_t zero[32] = {0}, chain0[32], sig[64];
    evlog_chain(zero, EVLOG_HEADER, bytes, (uint32_t)len, chain0);
    evlog_checkpoint_sign(e->keys->sign_sk, game_id, 0, chain0, sig);
    h.signature.data = sig;
    h.signature.len = 64;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)"header";
    r.body_case = BERTHIER__V1__REPLY__BODY_HEADER;
    r.header = &h;
    s_pack(out, &r);
}

/* `header` about an ended game kept on disk: record 0 read from the log where its record
 * index says, checked against the chain. 0 = answered; -1 = not (nothing sent). */
static int s_header_cold(bd_engine *e, const s_access *a, const Berthier__V1__Request *req, brt_buf *out) {
    const bd_game *gm = a->gm;
    bd_finev *ix = engine_fin_records(e, gm);
    if (!ix) return -1;
    bd_finev_span sp = {NULL, 0, 0};
    int fd = open(gm->log_path, O_RDONLY | O_CLOEXEC);
    int rc = fd >= 0 && finev_span_read(fd, ix->header_offset, ix->header_offset + ix->header_len, &sp) == 0 ? 0 : -1;
    if (fd >= 0) close(fd);
    const uint8_t *p = rc == 0 ? finev_span_record(&sp, ix->header_offset, ix->header_len, EVLOG_HEADER) : NULL;
    if (p) {
        uint8_t hash[32];
        seatsig_header_hash(p, ix->header_len, hash);
        s_header_reply(e, req, gm->id, p, ix->header_len, hash, out);
    } else if (rc == 0) {
        log_err("game %s: record 0 of %s is not what its index says", gm->id, gm->log_path);
        rc = -1;
    }
    finev_span_free(&sp);
    finev_destroy(&ix);
    return p ? 0 : -1;
}

/* The exact header a seat checks (its key, the dice commitment, the server's
 * signing key) and signs the hash of with its join. */
static void s_header_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->header;
    s_access a;
    if (s_check_game(e, key, g->game_id, g->seat, 0, &a, req->request_id, out, 0) != 0) return;
    if (!a.gm->g && (s_header_cold(e, &a, req, out) == 0 || s_bring_back(e, &a, req->request_id, out) != 0)) return;
    size_t len;
    const uint8_t *bytes = game_header_bytes(a.gm->g, &len);
    s_header_reply(e, req, a.gm->id, bytes, len, game_header_hash(a.gm->g), out);
}

static void s_hello_req(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__GameRef *g = req->hello;
    if (g->game_id && g->game_id[0]) {
        /* Naming a game and seat: the seat's event key (Joined carries it). */
        s_access a;
        if (s_check_game(e, key, g->game_id, g->seat, 1, &a, req->request_id, out, 0) != 0) return;
        s_joined_reply(e, a.gm, g->seat, req->request_id, "hello", NULL, NULL, out);
        return;
    }
    const brt_ruleset *const *all = brt_ruleset_all();
    size_t n = 0;
    while (all[n]) n++;
    char **ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids) fatal("out of memory");
    for (size_t i = 0; i < n; i++) ids[i] = (char *)all[i]->id;
    hello_info info;
    hello_info_fill(&info, all);
    const char *const *core = game_core_options();
    size_t ncore = 0;
    while (core[ncore]) ncore++;
    Berthier__V1__Hello h = BERTHIER__V1__HELLO__INIT;
    h.engine_version = (char *)BERTHIER_VERSION;
    h.n_rulesets = n;
    h.rulesets = ids;
    h.n_rulesets_info = info.n;
    h.rulesets_info = info.rulesets;
    h.n_core_options = ncore;
    h.core_options = (char **)core;
    h.admin = keys_is_admin(e->keys, key);
    h.server_sign_pk.data = (uint8_t *)e->keys->sign_pk;
    h.server_sign_pk.len = 32;
    s_reply r = BERTHIER__V1__REPLY__INIT;
    r.request_id = req->request_id;
    r.rule = (char *)"";
    r.message = (char *)"hello";
    r.body_case = BERTHIER__V1__REPLY__BODY_HELLO;
    r.hello = &h;
    s_pack(out, &r);
    free(ids);
    hello_info_free(&info);
}

/* ---- refusals made before decoding -------------------------------------------- */

void engine_refuse(brt_buf *out, uint64_t request_id, int code, const char *message) {
    s_fail(out, request_id, code, "", "%s", message);
}

/* ---- dispatch ---------------------------------------------------------------------- */

static int s_mutating(Berthier__V1__Request__BodyCase c) {
    return c == BERTHIER__V1__REQUEST__BODY_CREATE || c == BERTHIER__V1__REQUEST__BODY_JOIN ||
           c == BERTHIER__V1__REQUEST__BODY_SUBMIT || c == BERTHIER__V1__REQUEST__BODY_RESIGN ||
           c == BERTHIER__V1__REQUEST__BODY_REVEAL || c == BERTHIER__V1__REQUEST__BODY_ABORT;
}

/* The game a request names ("" for none). */
static const char *s_game_named(const Berthier__V1__Request *req) {
    const char *id = NULL;
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN: id = req->join->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT: id = req->submit->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: id = req->resign->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_REVEAL: id = req->reveal->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_PENDING: id = req->pending->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_LEGAL: id = req->legal->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_STATE: id = req->state->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_FETCH_LOG: id = req->fetch_log->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_EVENTS: id = req->events->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_HELLO: id = req->hello->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_HEADER: id = req->header->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_ABORT: id = req->abort->game_id; break;
    case BERTHIER__V1__REQUEST__BODY_QUERY: id = req->query->game_id; break;
    default: break;
    }
    return id ? id : "";
}

/*
 * May the reply leave before the round's syncs? (engine.h, docs/daemon.md
 * "Query replies"). The log reaches the disk before any reply that reveals
 * it: a query about a game whose records of this round are not yet synced
 * waits, and so does every later reply about that game in the round, so that
 * replies about one game keep the order of their requests. A reply that
 * reveals no game (hello, an unknown game) and a reply about a game with
 * nothing unsynced reveal only what is on disk already.
 */
static int s_reply_now(bd_engine *e, const uint8_t key[32], const Berthier__V1__Request *req, int mutating) {
    if (req->body_case == BERTHIER__V1__REQUEST__BODY_LIST_GAMES) return quiet_list(e, key);
    if (req->body_case == BERTHIER__V1__REQUEST__BODY_CREATE) return 0;
    if (req->body_case == BERTHIER__V1__REQUEST__BODY__NOT_SET) return 0;
    const char *id = s_game_named(req);
    bd_game *gm = id[0] ? engine_peek(e, id) : NULL;   /* an ended game may stay on disk */
    /* Unsynced records of the game wait only for the parties they concern
     * (quiet.h): another seat's sealed choice, recorded, does not hold this one up. */
    uint32_t views = gm ? quiet_views(gm, key) : 0;
    if (mutating || (gm && (!quiet_clean(gm, views, 1) || quiet_waiting(e, gm, views, 0)))) {
        if (gm) quiet_mark_wait(e, gm, views);
        return 0;
    }
    return 1;
}

/* Serve a decoded request; 1 = its reply may leave at once (s_reply_now). */
static int s_dispatch(bd_engine *e, const uint8_t key[32], const uint8_t *frame, size_t len,
                      Berthier__V1__Request *req, brt_buf *out);

int engine_handle(bd_engine *e, const uint8_t key[32], const uint8_t *frame, size_t len, brt_buf *out) {
    Berthier__V1__Request *req = NULL;
    int code;
    const char *why;
    if (decode_request(frame, len, e->cfg->max_message, &req, &code, &why) != 0) {
        if (len > e->cfg->max_message)
            s_fail(out, 0, code, "", "the request is %zu bytes; the limit is %zu bytes", len, e->cfg->max_message);
        else
            s_fail(out, 0, code, "", "the request was refused: %s", why);
        /* Its reply carries request id 0: it keeps its place in the connection's order. */
        return 0;
    }
    int now = s_dispatch(e, key, frame, len, req, out);
    berthier__v1__request__free_unpacked(req, NULL);
    return now;
}

int engine_try_now(bd_engine *e, const uint8_t key[32], const uint8_t *frame, size_t len, brt_buf *out) {
    Berthier__V1__Request *req = NULL;
    int code;
    const char *why;
    /* Undecodable: put off, its refusal (request id 0) keeps its place. */
    if (decode_request(frame, len, e->cfg->max_message, &req, &code, &why) != 0) return 0;
    int now = 0;
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_PENDING:
    case BERTHIER__V1__REQUEST__BODY_LEGAL:
    case BERTHIER__V1__REQUEST__BODY_STATE:
    case BERTHIER__V1__REQUEST__BODY_FETCH_LOG:
    case BERTHIER__V1__REQUEST__BODY_EVENTS:
    case BERTHIER__V1__REQUEST__BODY_HELLO:
    case BERTHIER__V1__REQUEST__BODY_HEADER:
    case BERTHIER__V1__REQUEST__BODY_QUERY: {
        const char *id = s_game_named(req);
        bd_game *gm = id[0] ? engine_peek(e, id) : NULL;   /* an ended game may stay on disk */
        /* Nothing in flight or in the new round that concerns the asker (quiet.h),
         * and no reply of the asker about it waiting: neither in the round being
         * flushed (a refused input's reply, say) nor in the new one, and nothing
         * of the asker about it put off. */
        uint32_t views = gm ? quiet_views(gm, key) : 0;
        now = !gm || (quiet_clean(gm, views, 1) && !quiet_waiting(e, gm, views, 1) && !quiet_deferred(e, gm, views));
        if (!now) quiet_mark_defer(e, gm, views);
        break;
    }
    case BERTHIER__V1__REQUEST__BODY_LIST_GAMES: now = quiet_list(e, key); break;
    default: {
        /* An input, a creation: it must wait for the flush to end before it is applied. */
        const char *id = s_game_named(req);
        bd_game *gm = id[0] ? engine_peek(e, id) : NULL;   /* an ended game may stay on disk */
        if (gm) quiet_mark_defer(e, gm, quiet_views(gm, key));
        break;
    }
    }
    if (now && !s_dispatch(e, key, frame, len, req, out)) fatal("a query judged durable had to wait");
    berthier__v1__request__free_unpacked(req, NULL);
    return now;
}

/* The seat an input names. */
static unsigned s_seat_of(const Berthier__V1__Request *req) {
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_JOIN: return req->join->seat;
    case BERTHIER__V1__REQUEST__BODY_SUBMIT: return req->submit->seat;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: return req->resign->seat;
    case BERTHIER__V1__REQUEST__BODY_REVEAL: return req->reveal->seat;
    default: return 0;
    }
}

/* A retry answered from the retry table with a reply rebuilt from the log, which
 * leaves Reply.next out: when the request wants it, the seat's decision as of now
 * (P4.3). A reply remembered as it was sent is sent again as it was. */
static void s_retry_next(bd_engine *e, const Berthier__V1__Request *req, brt_buf *out) {
    const Berthier__V1__Want *want = s_want_of(req);
    if (!want || !(want->decision || want->legal || want->view)) return;
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, out->len, out->data);
    if (!r) return;
    /* an ended game kept on disk: its decision is in its index (s_decision_build_fin) */
    bd_game *gm = engine_peek(e, s_game_named(req));
    s_decision fin;
    int cold = gm && !gm->g && s_decision_build_fin(&fin, gm->fin) == 0;
    if (gm && !gm->g && !cold) gm = engine_find(e, s_game_named(req));
    unsigned seat = s_seat_of(req);
    if (r->code == BERTHIER__V1__CODE__CODE_OK && r->body_case == BERTHIER__V1__REPLY__BODY_ACCEPTED && !r->next &&
        gm && (cold || gm->g) && seat < (cold ? gm->fin->nseats : game_seat_count(gm->g))) {
        ProtobufCBinaryData pad = r->padding;
        r->padding.data = NULL;
        r->padding.len = 0;
        s_next nx;
        buf_init(&nx.view);
        if (cold)
            r->next = &fin.d;   /* as s_next_add gives it: an ended game has no legal orders */
        else
            s_next_add(e, gm, seat, want, 0, r, &nx);
        s_pack_padded(out, r, e->cfg->max_message);
        s_next_free(&nx);
        r->next = NULL;
        r->next_legal = NULL;
        r->next_view = NULL;
        r->padding = pad;
    }
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* Reply.code (field 2) of packed reply bytes without decoding the rest; -1 if
 * they do not parse. */
static int s_reply_code(const uint8_t *p, size_t n) {
    size_t i = 0;
    int code = 0;
    while (i < n) {
        uint64_t tag = 0, v = 0;
        for (unsigned sh = 0;; sh += 7) {
            if (i >= n || sh > 63) return -1;
            tag |= (uint64_t)(p[i] & 0x7f) << sh;
            if (!(p[i++] & 0x80)) break;
        }
        unsigned wt = (unsigned)(tag & 7);
        if (wt == 0 || wt == 2) {
            for (unsigned sh = 0;; sh += 7) {
                if (i >= n || sh > 63) return -1;
                v |= (uint64_t)(p[i] & 0x7f) << sh;
                if (!(p[i++] & 0x80)) break;
            }
            if (wt == 0 && (tag >> 3) == 2) code = (int)v;
            if (wt == 2) {
                if (v > n - i) return -1;
                i += (size_t)v;
            }
        } else if (wt == 1 || wt == 5) {
            size_t w = wt == 1 ? 8 : 4;
            if (w > n - i) return -1;
            i += w;
        } else {
            return -1;
        }
    }
    return code;
}

static int s_dispatch(bd_engine *e, const uint8_t key[32], const uint8_t *frame, size_t len,
                      Berthier__V1__Request *req, brt_buf *out) {
    int now = 0;
    /* The rate limit and revoked keys were checked before decoding (server.c, fair.c). */
    uint64_t rid = req->request_id;
    int mutating = s_mutating(req->body_case);
    uint8_t digest[DEDUPE_DIGEST] = {0};
    if (mutating && rid) {
        dedupe_digest(frame, len, digest);
        const uint8_t *d, *reply;
        size_t rlen;
        /* an ended game's last replies are kept in its index, on disk (games.c) */
        int hit = dedupe_get(e->dedupe, key, rid, &d, &reply, &rlen) ||
                  (engine_retry_restore(e, s_game_named(req), key, rid) &&
                   dedupe_get(e->dedupe, key, rid, &d, &reply, &rlen));
        if (hit) {
            if (sodium_memcmp(d, digest, DEDUPE_DIGEST) == 0) {
                buf_reset(out);
                buf_append(out, reply, rlen);
                s_retry_next(e, req, out);
            } else {
                s_fail(out, rid, BERTHIER__V1__CODE__CODE_REQUEST_ID_REUSED, "",
                       "request id %llu was used before for a different request",
                       (unsigned long long)rid);
            }
            goto done;
        }
    }
    switch (req->body_case) {
    case BERTHIER__V1__REQUEST__BODY_CREATE: s_create(e, key, req, digest, out); break;
    case BERTHIER__V1__REQUEST__BODY_JOIN: {
        const Berthier__V1__Join *j = req->join;
        s_input in = {S_IN_JOIN, j->seat, j->entropy.data, j->entropy.len, j->chain_commit.data,
                      j->chain_commit.len, 0,
                      {rid, req->signature.data, req->signature.len, j->sign_pk.data, j->sign_pk.len,
                       j->header_hash.data, j->header_hash.len}, NULL, -1};
        s_input_reply(e, key, req, frame, len, j->game_id, j->seat, &in, out);
        break;
    }
    case BERTHIER__V1__REQUEST__BODY_SUBMIT: {
        const Berthier__V1__Submit *s = req->submit;
        if (!rid) {
            s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "",
                   "an order needs a nonzero request id so that a retry cannot apply it twice");
            break;
        }
        s_input in = {S_IN_SUBMIT, s->seat, frame, len, NULL, 0, 0, {0}, NULL, -1};
        s_input_reply(e, key, req, frame, len, s->game_id, s->seat, &in, out);
        break;
    }
    case BERTHIER__V1__REQUEST__BODY_RESIGN: {
        const Berthier__V1__GameRef *g = req->resign;
        if (g->limit || g->since_seq || g->text) {
            /* The signature covers {game_id, seat} only (P3.1). */
            s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "a resign names only game_id and seat");
            break;
        }
        s_input in = {S_IN_RESIGN, g->seat, NULL, 0, NULL, 0, 0, {rid, req->signature.data, req->signature.len,
                                                                  NULL, 0, NULL, 0}, NULL, -1};
        s_input_reply(e, key, req, frame, len, g->game_id, g->seat, &in, out);
        break;
    }
    case BERTHIER__V1__REQUEST__BODY_REVEAL: {
        const Berthier__V1__RevealNonce *rv = req->reveal;
        s_input in = {S_IN_NONCE, rv->seat, rv->nonce.data, rv->nonce.len, NULL, 0, rv->batch,
                      {rid, req->signature.data, req->signature.len, NULL, 0, NULL, 0}, NULL, -1};
        s_input_reply(e, key, req, frame, len, rv->game_id, rv->seat, &in, out);
        break;
    }
    case BERTHIER__V1__REQUEST__BODY_PENDING: s_pending_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_LEGAL: s_legal_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_STATE: s_state_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_LIST_GAMES: s_list_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_FETCH_LOG: s_fetch_log_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_EVENTS: s_events_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_HELLO: s_hello_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_HEADER: s_header_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_ABORT: s_abort_req(e, key, req, out); break;
    case BERTHIER__V1__REQUEST__BODY_QUERY: s_query_req(e, key, req, out); break;
    default:
        s_fail(out, rid, BERTHIER__V1__CODE__CODE_BAD_REQUEST, "", "the request carries no body");
        break;
    }
    if (mutating && rid && out->len) {
        /* Remember the answer unless it asks for a retry (BUSY, IO_ERROR, INTERNAL). */
        int code = s_reply_code(out->data, out->len);
        if (code >= 0 && code != BERTHIER__V1__CODE__CODE_BUSY && code != BERTHIER__V1__CODE__CODE_IO_ERROR &&
            code != BERTHIER__V1__CODE__CODE_INTERNAL &&
            dedupe_put(e->dedupe, key, rid, digest, out->data, out->len) != 0)
            log_warn("out of memory remembering a reply");
    }
done:
    now = s_reply_now(e, key, req, mutating);
    return now;
}

/* ---- clocks --------------------------------------------------------------------------- */

static void s_clock_refresh(bd_game *gm, int64_t now) {
    unsigned n = game_seat_count(gm->g);
    int must[BRT_MAX_SEATS] = {0};
    if (!game_over(gm->g)) {
        for (unsigned s = 0; s < n; s++) {
            brt_pending p;
            game_pending(gm->g, (int)s, &p, &must[s]);
            int nonce = strcmp(p.kind, "dice-nonce") == 0;
            /* Before the start a clock runs only for a nonce (contributory batch 0);
             * the reveal deadline runs only while the seat's nonce is awaited. */
            if ((!game_started(gm->g) || gm->reveal_only) && !nonce) must[s] = 0;
        }
    }
    clock_update(gm->clock, n, must, game_seq(gm->g), now);
    gm->clock_dirty = 0;
}

void engine_clocks(bd_engine *self, int64_t now) {
    for (size_t i = 0; i < self->nclocked; i++) {
        bd_game *gm = self->clocked[i];
        if (gm->clock_dirty) s_clock_refresh(gm, now);
        for (int guard = 0; guard < BRT_MAX_SEATS * 4; guard++) {
            unsigned seat = 0;
            int64_t d = clock_next_deadline(gm->clock, game_seat_count(gm->g), &seat);
            if (d > now) break;
            clock_expired(gm->clock, seat);
            s_input in = {S_IN_TIMEOUT, seat, NULL, 0, NULL, 0, 0, {0}, NULL, -1};
            brt_reject rej;
            memset(&rej, 0, sizeof rej);
            uint64_t before;
            if (s_apply(self, gm, &in, &before, &rej) == 0)
                log_info("game %s: seat %u ran out of time at seq %llu", gm->id, seat, (unsigned long long)before);
            else
                log_warn("game %s: timeout of seat %u refused: %s", gm->id, seat, rej.message);
            s_clock_refresh(gm, now);
        }
    }
}

long engine_next_timeout(bd_engine *self, int64_t now) {
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < self->nclocked; i++) {
        bd_game *gm = self->clocked[i];
        int64_t d = clock_next_deadline(gm->clock, game_seat_count(gm->g), NULL);
        if (d < best) best = d;
    }
    if (best == INT64_MAX) return -1;
    return best <= now ? 0 : (long)(best - now);
}
