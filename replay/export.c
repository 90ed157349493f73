/*
 * export.c - a log as JSON lines, one object per record (docs/log-format.md).
 *
 * Every line has "record", "offset" and "kind". Inputs carry the order in the
 * ruleset's text syntax, events their text rendering, dice their purpose (a
 * rule reference). Bytes are lowercase hex. A damaged log ends with a line of
 * kind "error" naming the first bad record.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "berthier/v1/berthier.pb-c.h"
#include "duel/v1/duel.pb-c.h"
#include "evlog.h"
#include "game.h"
#include "n20/v1/n20.pb-c.h"
#include "pbjson.h"
#include "replay.h"
#include "ruleset.h"
#include "vis.h"
#include "walk.h"

int replay_json_string(brt_buf *out, const char *s, size_t len) {
    int rc = buf_append_str(out, "\"");
    for (size_t i = 0; i < len && rc == 0; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': rc = buf_append_str(out, "\\\""); break;
        case '\\': rc = buf_append_str(out, "\\\\"); break;
        case '\n': rc = buf_append_str(out, "\\n"); break;
        case '\r': rc = buf_append_str(out, "\\r"); break;
        case '\t': rc = buf_append_str(out, "\\t"); break;
        case '\b': rc = buf_append_str(out, "\\b"); break;
        case '\f': rc = buf_append_str(out, "\\f"); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                rc = buf_printf(out, "\\u%04x", c);
            } else if (c >= 0x80) {
                /* keep valid UTF-8 sequences, escape stray bytes as U+FFFD */
                size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
                int ok = n > 0 && i + n <= len;
                for (size_t k = 1; ok && k < n; k++) ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
                if (ok) {
                    rc = buf_append(out, s + i, n);
                    i += n - 1;
                } else {
                    rc = buf_append_str(out, "\\ufffd");
                }
            } else {
                rc = buf_append(out, &c, 1);
            }
        }
    }
    return rc ? -1 : buf_append_str(out, "\"");
}

static void s_str(brt_buf *out, const char *key, const char *v) {
    buf_printf(out, ",\"%s\":", key);
    replay_json_string(out, v ? v : "", v ? strlen(v) : 0);
}

static void s_hexfield(brt_buf *out, const char *key, const uint8_t *p, size_t n) {
    buf_printf(out, ",\"%s\":\"", key);
    for (size_t i = 0; i < n; i++) buf_printf(out, "%02x", p[i]);
    buf_append_str(out, "\"");
}

static void s_text(brt_buf *out, const char *key, int (*fmt)(const uint8_t *, size_t, brt_buf *),
                   const uint8_t *p, size_t n) {
    brt_buf t;
    buf_init(&t);
    if (fmt && fmt(p, n, &t) == 0) {
        buf_printf(out, ",\"%s\":", key);
        replay_json_string(out, t.data ? (const char *)t.data : "", t.len);
    }
    buf_free(&t);
}

static void s_result(brt_buf *out, const Berthier__V1__Result *r) {
    if (!r) return;
    buf_printf(out, ",\"result\":{\"ended\":%s,\"winners\":[", r->ended ? "true" : "false");
    for (size_t i = 0; i < r->n_winners; i++) buf_printf(out, "%s%u", i ? "," : "", r->winners[i]);
    buf_append_str(out, "]");
    s_str(out, "level", r->level);
    s_str(out, "reason", r->reason);
    buf_append_str(out, ",\"scores\":[");
    for (size_t i = 0; i < r->n_scores; i++) buf_printf(out, "%s%d", i ? "," : "", r->scores[i]);
    buf_append_str(out, "]}");
}

/* The View message of each ruleset built in, for the per-step views as JSON. */
static const struct {
    const char *ruleset;
    const ProtobufCMessageDescriptor *view;
} s_views[] = {
    {"duel", &duel__v1__view__descriptor},
    {"n20", &n20__v1__view__descriptor},
};

static const ProtobufCMessageDescriptor *s_view_desc(const char *ruleset) {
    for (size_t i = 0; ruleset && i < sizeof s_views / sizeof s_views[0]; i++)
        if (strcmp(s_views[i].ruleset, ruleset) == 0) return s_views[i].view;
    return NULL;
}

/* "visible_to": the parties core/vis.c lets receive the record before the end
 * ("seat0", ..., "public" for the spectators). */
static void s_visible_to(brt_buf *out, uint32_t visible, unsigned nseats, int is_dice) {
    buf_append_str(out, ",\"visible_to\":[");
    int k = 0;
    for (unsigned i = 0; i < nseats; i++)
        if (is_dice ? vis_dice_may_see(visible, (int)i, nseats, 0) : vis_event_may_see(visible, (int)i, nseats, 0))
            buf_printf(out, "%s\"seat%u\"", k++ ? "," : "", i);
    if (is_dice ? vis_dice_may_see(visible, -1, nseats, 0) : vis_event_may_see(visible, -1, nseats, 0))
        buf_printf(out, "%s\"public\"", k ? "," : "");
    buf_append_str(out, "]");
}

/* One view of the state as JSON (null when the ruleset gives none or its View is unknown). */
static void s_view_json(brt_buf *out, const brt_game *g, int viewpoint, const ProtobufCMessageDescriptor *desc) {
    brt_buf v;
    buf_init(&v);
    char *j = NULL;
    size_t n = 0;
    if (desc && game_view(g, viewpoint, &v, NULL) == 0)
        j = pbjson_encode_bytes(desc, v.data ? v.data : (const uint8_t *)"", v.len, &n);
    if (j) buf_append(out, j, n);
    else buf_append_str(out, "null");
    free(j);
    buf_free(&v);
}

/* {"kind":"view",...}: what each party may see after the input just fed. */
static void s_views_line(brt_buf *out, const brt_game *g) {
    const ProtobufCMessageDescriptor *desc = s_view_desc(game_ruleset(g)->id);
    buf_printf(out, "{\"kind\":\"view\",\"seq\":%llu,\"views\":{\"all\":", (unsigned long long)game_seq(g));
    s_view_json(out, g, BRT_VIEW_ALL, desc);
    buf_append_str(out, ",\"public\":");
    s_view_json(out, g, BRT_VIEW_PUBLIC, desc);
    for (unsigned i = 0; i < game_seat_count(g); i++) {
        buf_printf(out, ",\"seat%u\":", i);
        s_view_json(out, g, (int)i, desc);
    }
    buf_append_str(out, "}}\n");
}

/* One record's fields after "kind". Returns -1 if the payload does not decode. */
static int s_fields(brt_buf *out, const evlog_record *r, const brt_ruleset **rs, unsigned *nseats) {
    const uint8_t *p = r->payload;
    size_t n = r->len;
    switch (r->kind) {
    case EVLOG_HEADER: {
        Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, n, p);
        if (!h) return -1;
        *rs = brt_ruleset_find(h->ruleset);
        *nseats = (unsigned)h->n_seats;
        buf_printf(out, ",\"format\":%u", h->format);
        s_str(out, "game_id", h->game_id);
        s_str(out, "ruleset", h->ruleset);
        s_str(out, "ruleset_version", h->ruleset_version);
        s_str(out, "scenario", h->scenario);
        s_hexfield(out, "scenario_hash", h->scenario_hash.data, h->scenario_hash.len);
        buf_append_str(out, ",\"options\":[");
        for (size_t i = 0; i < h->n_options; i++) {
            if (i) buf_append_str(out, ",");
            replay_json_string(out, h->options[i], strlen(h->options[i]));
        }
        buf_append_str(out, "]");
        s_str(out, "engine_version", h->engine_version);
        s_hexfield(out, "server_sign_pk", h->server_sign_pk.data, h->server_sign_pk.len);
        s_hexfield(out, "dice_commit", h->dice_commit.data, h->dice_commit.len);
        s_str(out, "dice_mode", h->dice_mode);
        buf_append_str(out, ",\"seats\":[");
        for (size_t i = 0; i < h->n_seats; i++) {
            buf_printf(out, "%s{\"seat\":%u", i ? "," : "", h->seats[i]->seat);
            s_str(out, "name", h->seats[i]->name);
            s_hexfield(out, "key", h->seats[i]->key.data, h->seats[i]->key.len);
            buf_append_str(out, "}");
        }
        buf_append_str(out, "]");
        if (h->clock)
            buf_printf(out, ",\"clock\":{\"decision_ms\":%u,\"bank_ms\":%u,\"forfeit\":%s}", h->clock->decision_ms,
                       h->clock->bank_ms, h->clock->forfeit ? "true" : "false");
        if (h->create_request_id) {
            s_hexfield(out, "create_key", h->create_key.data, h->create_key.len);
            buf_printf(out, ",\"create_request_id\":%llu", (unsigned long long)h->create_request_id);
            s_hexfield(out, "create_digest", h->create_digest.data, h->create_digest.len);
        }
        berthier__v1__log_header__free_unpacked(h, NULL);
        return 0;
    }
    case EVLOG_JOIN: {
        Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, n, p);
        if (!j) return -1;
        buf_printf(out, ",\"seat\":%u", j->seat);
        s_hexfield(out, "entropy", j->entropy.data, j->entropy.len);
        if (j->chain_commit.len) s_hexfield(out, "chain_commit", j->chain_commit.data, j->chain_commit.len);
        if (j->sign_pk.len || j->signature.len) {  /* a seat-signed join (docs/log-format.md) */
            buf_printf(out, ",\"request_id\":%llu", (unsigned long long)j->request_id);
            s_hexfield(out, "sign_pk", j->sign_pk.data, j->sign_pk.len);
            s_hexfield(out, "header_hash", j->header_hash.data, j->header_hash.len);
            s_hexfield(out, "signature", j->signature.data, j->signature.len);
        }
        berthier__v1__log_join__free_unpacked(j, NULL);
        return 0;
    }
    case EVLOG_ORDER: {
        Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, n, p);
        if (!o) return -1;
        buf_printf(out, ",\"seat\":%u", o->seat);
        Berthier__V1__Request *rq = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
        if (rq && rq->body_case == BERTHIER__V1__REQUEST__BODY_SUBMIT) {
            const Berthier__V1__Submit *sb = rq->submit;
            buf_printf(out, ",\"request_id\":%llu,\"based_on_seq\":%llu", (unsigned long long)rq->request_id,
                       (unsigned long long)sb->based_on_seq);
            if (sb->order.len) {
                s_text(out, "order", *rs ? (*rs)->order_format : NULL, sb->order.data, sb->order.len);
                s_hexfield(out, "order_bytes", sb->order.data, sb->order.len);
            } else {
                s_str(out, "order", sb->order_text);
            }
            if (rq->signature.len) s_hexfield(out, "signature", rq->signature.data, rq->signature.len);
        }
        if (rq) berthier__v1__request__free_unpacked(rq, NULL);
        s_hexfield(out, "request", o->request.data, o->request.len);
        berthier__v1__log_order__free_unpacked(o, NULL);
        return 0;
    }
    case EVLOG_TIMEOUT: {
        Berthier__V1__LogTimeout *t = berthier__v1__log_timeout__unpack(NULL, n, p);
        if (!t) return -1;
        buf_printf(out, ",\"seat\":%u,\"seq\":%llu,\"forfeit\":%s", t->seat, (unsigned long long)t->seq,
                   t->forfeit ? "true" : "false");
        berthier__v1__log_timeout__free_unpacked(t, NULL);
        return 0;
    }
    case EVLOG_RESIGN: {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, n, p);
        if (!x) return -1;
        buf_printf(out, ",\"seat\":%u", x->seat);
        if (x->signature.len) {
            buf_printf(out, ",\"request_id\":%llu", (unsigned long long)x->request_id);
            s_hexfield(out, "signature", x->signature.data, x->signature.len);
        }
        berthier__v1__log_resign__free_unpacked(x, NULL);
        return 0;
    }
    case EVLOG_ABORT: {
        Berthier__V1__LogAbort *x = berthier__v1__log_abort__unpack(NULL, n, p);
        if (!x) return -1;
        s_str(out, "reason", x->reason);
        if (x->has_forfeit) buf_printf(out, ",\"forfeit_seat\":%u", x->forfeit_seat);
        berthier__v1__log_abort__free_unpacked(x, NULL);
        return 0;
    }
    case EVLOG_NONCE: {
        Berthier__V1__LogNonce *x = berthier__v1__log_nonce__unpack(NULL, n, p);
        if (!x) return -1;
        buf_printf(out, ",\"seat\":%u,\"batch\":%llu", x->seat, (unsigned long long)x->batch);
        s_hexfield(out, "nonce", x->nonce.data, x->nonce.len);
        if (x->signature.len) {
            buf_printf(out, ",\"request_id\":%llu", (unsigned long long)x->request_id);
            s_hexfield(out, "signature", x->signature.data, x->signature.len);
        }
        berthier__v1__log_nonce__free_unpacked(x, NULL);
        return 0;
    }
    case EVLOG_DICE: {
        Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, n, p);
        if (!d) return -1;
        buf_printf(out, ",\"index\":%llu,\"sides\":%u,\"value\":%u", (unsigned long long)d->index, d->sides,
                   d->value);
        s_str(out, "purpose", d->purpose);
        /* LogDice.visible (core/vis.h): who may see the roll before the end */
        buf_printf(out, ",\"visible\":%u,\"seen_by\":", d->visible);
        if (!(d->visible & VIS_DICE_LIMITED)) {
            buf_printf(out, "\"all\"");
        } else {
            buf_printf(out, "[");
            for (unsigned b = 0, k = 0; b < 31; b++)
                if (d->visible & (1u << b)) buf_printf(out, "%s%u", k++ ? "," : "", b);
            buf_printf(out, "]");
        }
        s_visible_to(out, d->visible, *nseats, 1);
        berthier__v1__log_dice__free_unpacked(d, NULL);
        return 0;
    }
    case EVLOG_EVENT: {
        Berthier__V1__LogEvent *e = berthier__v1__log_event__unpack(NULL, n, p);
        if (!e) return -1;
        buf_printf(out, ",\"seq\":%llu,\"index\":%u,\"visible\":%u", (unsigned long long)e->seq, e->index,
                   e->visible);
        s_text(out, "text", *rs ? (*rs)->event_format : NULL, e->data.data, e->data.len);
        s_hexfield(out, "data", e->data.data, e->data.len);
        s_visible_to(out, e->visible, *nseats, 0);
        berthier__v1__log_event__free_unpacked(e, NULL);
        return 0;
    }
    case EVLOG_STATE: {
        Berthier__V1__LogState *st = berthier__v1__log_state__unpack(NULL, n, p);
        if (!st) return -1;
        buf_printf(out, ",\"seq\":%llu,\"turn\":%u", (unsigned long long)st->seq, st->turn);
        s_hexfield(out, "hash", st->hash.data, st->hash.len);
        berthier__v1__log_state__free_unpacked(st, NULL);
        return 0;
    }
    case EVLOG_END: {
        Berthier__V1__LogEnd *e = berthier__v1__log_end__unpack(NULL, n, p);
        if (!e) return -1;
        s_result(out, e->result);
        berthier__v1__log_end__free_unpacked(e, NULL);
        return 0;
    }
    case EVLOG_REVEAL: {
        Berthier__V1__LogReveal *x = berthier__v1__log_reveal__unpack(NULL, n, p);
        if (!x) return -1;
        s_hexfield(out, "seed", x->seed.data, x->seed.len);
        berthier__v1__log_reveal__free_unpacked(x, NULL);
        return 0;
    }
    case EVLOG_CHECKPOINT: {
        Berthier__V1__LogCheckpoint *c = berthier__v1__log_checkpoint__unpack(NULL, n, p);
        if (!c) return -1;
        buf_printf(out, ",\"signed_record\":%llu", (unsigned long long)c->record);
        s_hexfield(out, "head", c->head.data, c->head.len);
        s_hexfield(out, "signature", c->signature.data, c->signature.len);
        berthier__v1__log_checkpoint__free_unpacked(c, NULL);
        return 0;
    }
    default:
        return -1;
    }
}

int replay_export(const char *path, brt_buf *out, brt_buf *err) {
    char e[256];
    evlog_reader *rd = evlog_reader_open(path, e, sizeof e);
    if (!rd) {
        buf_printf(err, "%s\n", e);
        return -1;
    }
    const brt_ruleset *rs = NULL;
    unsigned nseats = 0;
    evlog_record r;
    int rc, bad = 0;
    /* The per-step views come from a re-execution beside the reading: after each input's
     * records, the state it led to as each party may see it. A log that does not
     * re-execute (tampered, an unknown ruleset) gets no views past that point. */
    brt_buf walk_err;
    buf_init(&walk_err);
    replay_walk *w = replay_walk_open(path, &walk_err);
    size_t pos = 0;
    int fed = 0;
    while ((rc = evlog_reader_next(rd, &r)) == 1) {
        if (pos > 0 && r.kind < 16 && w) {
            if (fed && game_started(replay_walk_game(w))) s_views_line(out, replay_walk_game(w));
            fed = replay_walk_cursor(w) == pos && replay_walk_step(w) == 1;
            if (!fed) replay_walk_destroy(&w);
        }
        pos++;
        /* the kind names in lower case, as JSON values */
        char kind[16];
        const char *k = evlog_kind_name(r.kind);
        size_t i = 0;
        for (; k[i] && i + 1 < sizeof kind; i++) kind[i] = (char)(k[i] >= 'A' && k[i] <= 'Z' ? k[i] + 32 : k[i]);
        kind[i] = 0;
        size_t mark = out->len;
        buf_printf(out, "{\"record\":%llu,\"offset\":%llu,\"kind\":\"%s\"", (unsigned long long)r.index,
                   (unsigned long long)r.offset, kind);
        if (s_fields(out, &r, &rs, &nseats) != 0) {
            out->len = mark;
            buf_printf(out, "{\"record\":%llu,\"offset\":%llu,\"kind\":\"%s\"", (unsigned long long)r.index,
                       (unsigned long long)r.offset, kind);
            s_hexfield(out, "undecodable_payload", r.payload, r.len);
            buf_printf(err, "record %llu at offset %llu (%s): the payload does not decode\n",
                       (unsigned long long)r.index, (unsigned long long)r.offset, k);
            bad = 1;
        }
        s_hexfield(out, "chain", r.chain, sizeof r.chain);
        buf_append_str(out, "}\n");
    }
    if (w && fed && rc == 0 && replay_walk_cursor(w) == pos && game_started(replay_walk_game(w)))
        s_views_line(out, replay_walk_game(w));
    replay_walk_destroy(&w);
    buf_free(&walk_err);
    const evlog_scan *sc = evlog_reader_scan(rd);
    if (rc < 0 || sc->records == 0) {
        buf_printf(out, "{\"kind\":\"error\",\"record\":%llu,\"offset\":%llu", (unsigned long long)sc->bad_record,
                   (unsigned long long)sc->bad_offset);
        s_str(out, "reason", sc->reason);
        buf_append_str(out, "}\n");
        buf_printf(err, "%s\n", sc->reason);
        bad = 1;
    } else if (sc->torn_tail) {
        buf_printf(out, "{\"kind\":\"torn_tail\",\"record\":%llu,\"offset\":%llu", (unsigned long long)sc->bad_record,
                   (unsigned long long)sc->bad_offset);
        s_str(out, "reason", sc->reason);
        buf_append_str(out, "}\n");
    }
    evlog_reader_destroy(&rd);
    return bad ? -1 : 0;
}
