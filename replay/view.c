/*
 * view.c - pictures of a game from its log: berthier-replay render (one SVG)
 * and html (a self-contained step-through viewer), and who may see what.
 *
 * Who may see what (docs/trust.md, "Pictures and pages of a log"): the log holds
 * everything, so the tool decides which party's share it shows.
 *   - the spectators' share (BRT_VIEW_PUBLIC) always;
 *   - a seat's share once the game has ended, or before with that seat's own key
 *     file (the CURVE secret key its signing key derives from, seatsig.h): the
 *     key the log's JOIN of the seat binds must be the one it derives;
 *   - everything (BRT_VIEW_ALL) once the game has ended, or before with --all:
 *     the operator's forensic view (the operator holds the log anyway).
 * A page shows each step as the party saw it at that time: the ruleset's picture
 * or view for that viewpoint, the events and dice that core/vis.c lets it receive
 * (never the open-after-the-end copies), the orders of its own seat only (other
 * parties learn orders through their events, as from the daemon), and the
 * pending decision.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "game.h"
#include "replay.h"
#include "seatsig.h"
#include "vis.h"
#include "walk.h"

/* ---- key files ------------------------------------------------------------------------ */

/* Z85 (ZeroMQ RFC 32) of a 32-byte key: 40 characters. 0, or -1 if not one. */
static int s_z85_key(const char *s, size_t n, uint8_t out[32]) {
    static const char alphabet[] =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    if (n != 40) return -1;
    for (size_t i = 0; i < 40; i += 5) {
        uint64_t v = 0;
        for (size_t k = 0; k < 5; k++) {
            const char *p = s[i + k] ? strchr(alphabet, s[i + k]) : NULL;
            if (!p) return -1;
            v = v * 85 + (uint64_t)(p - alphabet);
        }
        if (v > 0xffffffffu) return -1;
        for (size_t k = 0; k < 4; k++) out[i / 5 * 4 + k] = (uint8_t)(v >> (24 - 8 * k));
    }
    return 0;
}

/* A client key file (docs/clients.md: lines "public <z85>" and "secret <z85>"): the
 * CURVE secret key, checked against its public line when there is one. */
static int s_load_secret(const char *path, uint8_t sk[32], brt_buf *err) {
    FILE *f = fopen(path, "r");
    if (!f) {
        buf_printf(err, "cannot read the key file %s\n", path);
        return -1;
    }
    char line[256];
    int have_sk = 0, have_pk = 0;
    uint8_t pk[32];
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = 0;
        if (strncmp(line, "secret ", 7) == 0 && s_z85_key(line + 7, n - 7, sk) == 0) have_sk = 1;
        else if (strncmp(line, "public ", 7) == 0 && s_z85_key(line + 7, n - 7, pk) == 0) have_pk = 1;
    }
    fclose(f);
    sodium_memzero(line, sizeof line);
    if (!have_sk) {
        buf_printf(err, "%s is not a key file: expected a line \"secret <z85>\" (berthierctl keygen)\n", path);
        return -1;
    }
    uint8_t derived[32];
    if (have_pk && (crypto_scalarmult_base(derived, sk) != 0 || sodium_memcmp(derived, pk, 32) != 0)) {
        sodium_memzero(sk, 32);
        buf_printf(err, "%s: its secret key does not belong to its public key\n", path);
        return -1;
    }
    return 0;
}

/* ---- access ----------------------------------------------------------------------------- */

static const char *s_vp_name(int vp, char *buf, size_t cap) {
    if (vp == BRT_VIEW_ALL) return "everything";
    if (vp == BRT_VIEW_PUBLIC) return "the spectators' view";
    snprintf(buf, cap, "seat %d's view", vp);
    return buf;
}

/* Re-execute the whole log once and decide whether o->viewpoint may be shown.
 * 0 allowed; REPLAY_BAD (the log does not re-execute: err says where); REPLAY_USAGE
 * refused (err says why and what would allow it). */
static int s_access(const char *path, const replay_view_opts *o, brt_buf *err) {
    replay_walk *w = replay_walk_open(path, err);
    if (!w) return REPLAY_BAD;
    while (replay_walk_step(w)) {}
    int rc = 0;
    const brt_game *g = replay_walk_game(w);
    unsigned nseats = game_seat_count(g);
    if (replay_walk_problem(w)) {
        rc = REPLAY_BAD;
    } else if (o->viewpoint >= 0 && (unsigned)o->viewpoint >= nseats) {
        buf_printf(err, "this game has %u seats; there is no seat %d\n", nseats, o->viewpoint);
        rc = REPLAY_USAGE;
    } else if (o->viewpoint == BRT_VIEW_PUBLIC || game_over(g)) {
        rc = 0; /* the spectators' share always; after the end, everything is open */
    } else if (o->viewpoint == BRT_VIEW_ALL) {
        if (!o->all) {
            buf_printf(err, "game %s is not finished: the full view of a live game is the operator's; give --all "
                            "to ask for it (or --spectator, or --seat S with --seat-secret)\n", game_id(g));
            rc = REPLAY_USAGE;
        }
    } else if (!o->seat_secret) {
        buf_printf(err, "game %s is not finished: seat %d's view needs that seat's key (--seat-secret FILE) until "
                        "the game ends\n", game_id(g), o->viewpoint);
        rc = REPLAY_USAGE;
    } else {
        uint8_t curve[32], pk[SEATSIG_PK_BYTES], sk[SEATSIG_SK_BYTES];
        const uint8_t *bound = game_seat_sign_pk(g, (unsigned)o->viewpoint);
        if (s_load_secret(o->seat_secret, curve, err) != 0) {
            rc = REPLAY_USAGE;
        } else if (seatsig_derive(curve, pk, sk) != 0) {
            buf_printf(err, "cannot derive a signing key from %s\n", o->seat_secret);
            rc = REPLAY_USAGE;
        } else if (!bound) {
            buf_printf(err, "seat %d's JOIN in this log binds no signing key (%s): no key can show seat %d's view "
                            "before the end\n", o->viewpoint,
                       game_joined(g, (unsigned)o->viewpoint) ? "a log from before seat signatures"
                                                              : "the seat has not joined",
                       o->viewpoint);
            rc = REPLAY_USAGE;
        } else if (sodium_memcmp(bound, pk, SEATSIG_PK_BYTES) != 0) {
            buf_printf(err, "%s is not seat %d's key: its signing key %02x%02x%02x%02x... is not the key "
                            "%02x%02x%02x%02x... the log's JOIN of seat %d binds\n", o->seat_secret, o->viewpoint,
                       pk[0], pk[1], pk[2], pk[3], bound[0], bound[1], bound[2], bound[3], o->viewpoint);
            rc = REPLAY_USAGE;
        }
        sodium_memzero(curve, sizeof curve);
        sodium_memzero(sk, sizeof sk);
    }
    replay_walk_destroy(&w);
    return rc;
}

/* ---- what one step shows ------------------------------------------------------------------ */

/* The party of core/vis.c for a viewpoint: a seat, or the spectators (-1). */
static int s_party(int vp) { return vp >= 0 ? vp : -1; }

/* May vp see the order `seat` gave? Its own seat and the full view. */
static int s_may_see_order(int vp, unsigned seat) { return vp == BRT_VIEW_ALL || (vp >= 0 && (unsigned)vp == seat); }

/* The Order bytes and seat of an ORDER record (pointers into *rq; free it after). */
static int s_order_of(const evlog_record *r, Berthier__V1__Request **rq, unsigned *seat) {
    Berthier__V1__LogOrder *o = berthier__v1__log_order__unpack(NULL, r->len, r->payload);
    if (!o) return -1;
    *seat = o->seat;
    *rq = berthier__v1__request__unpack(NULL, o->request.len, o->request.data);
    berthier__v1__log_order__free_unpacked(o, NULL);
    if (!*rq) return -1;
    if ((*rq)->body_case != BERTHIER__V1__REQUEST__BODY_SUBMIT) {
        berthier__v1__request__free_unpacked(*rq, NULL);
        *rq = NULL;
        return -1;
    }
    return 0;
}

static void s_caption(const brt_game *g, char *out, size_t cap) {
    brt_pending p;
    game_pending(g, -1, &p, NULL);
    snprintf(out, cap, "game %s, seq %llu, turn %u%s", game_id(g), (unsigned long long)game_seq(g), p.turn,
             game_over(g) ? ", ended" : "");
}

/* ---- render ------------------------------------------------------------------------------ */

int replay_render(const char *path, uint64_t seq, const replay_view_opts *o, brt_buf *out, brt_buf *err) {
    int rc = s_access(path, o, err);
    if (rc != 0) return rc;
    replay_walk *w = replay_walk_open(path, err);
    if (!w) return REPLAY_BAD;
    size_t nrec;
    const evlog_record *recs = replay_walk_records(w, &nrec);
    long last_order = -1;
    while (game_seq(replay_walk_game(w)) < seq && replay_walk_step(w)) {
        size_t first, end;
        replay_walk_last(w, &first, &end);
        if (recs[first].kind != EVLOG_NONCE) last_order = recs[first].kind == EVLOG_ORDER ? (long)first : -1;
    }
    const brt_game *g = replay_walk_game(w);
    rc = REPLAY_BAD;
    if (replay_walk_problem(w)) goto done;
    if (seq != UINT64_MAX && game_seq(g) < seq) {
        buf_printf(err, "the log reaches seq %llu only\n", (unsigned long long)game_seq(g));
        goto done;
    }
    if (!game_started(g)) {
        buf_printf(err, "game %s has not started at seq %llu: there is no board yet\n", game_id(g),
                   (unsigned long long)game_seq(g));
        goto done;
    }
    char caption[160];
    s_caption(g, caption, sizeof caption);
    brt_render_ctx ctx = {NULL, 0, -1, caption};
    Berthier__V1__Request *rq = NULL;
    unsigned seat = 0;
    if (last_order >= 0 && s_order_of(&recs[last_order], &rq, &seat) == 0 && s_may_see_order(o->viewpoint, seat)) {
        ctx.last_order = rq->submit->order.data;
        ctx.last_len = rq->submit->order.len;
        ctx.last_seat = (int)seat;
    }
    if (!game_ruleset(g)->render) {
        buf_printf(err, "ruleset %s draws no pictures (berthier-replay show gives the state in text)\n",
                   game_ruleset(g)->id);
    } else if (game_render(g, o->viewpoint, &ctx, out) != 0) {
        buf_printf(err, "the ruleset cannot draw this state\n");
    } else {
        rc = 0;
    }
    if (rq) berthier__v1__request__free_unpacked(rq, NULL);
done:
    replay_walk_destroy(&w);
    return rc;
}

/* ---- html -------------------------------------------------------------------------------- */

/* The boards of a page. Pictures of one game share most of their lines (the map, the
 * legend), so the page keeps every distinct line once ("lines") and each board as runs of
 * line numbers ([first, count, first, count, ...]); a board seen before is kept once. */
typedef struct s_boards {
    uint8_t (*hash)[32];         /* each board's hash */
    size_t n, cap;
    brt_buf text;                /* every distinct line's bytes */
    size_t *off, *len;           /* line i: text.data + off[i], len[i] bytes */
    size_t nlines, caplines;
    size_t *slot;                /* open addressing: line number + 1, 0 empty */
    uint64_t *slot_hash;
    size_t nslots;
    brt_buf lines;               /* the JSON list of lines, without its brackets */
} s_boards;

static void s_boards_free(s_boards *bs) {
    free(bs->hash);
    buf_free(&bs->text);
    free(bs->off);
    free(bs->len);
    free(bs->slot);
    free(bs->slot_hash);
    buf_free(&bs->lines);
}

static uint64_t s_fnv(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static int s_rehash(s_boards *bs) {
    size_t ns = bs->nslots ? bs->nslots * 2 : 4096;
    size_t *slot = calloc(ns, sizeof *slot);
    uint64_t *sh = calloc(ns, sizeof *sh);
    if (!slot || !sh) {
        free(slot);
        free(sh);
        return -1;
    }
    for (size_t i = 0; i < bs->nslots; i++) {
        if (!bs->slot[i]) continue;
        size_t k = (size_t)(bs->slot_hash[i] & (ns - 1));
        while (slot[k]) k = (k + 1) & (ns - 1);
        slot[k] = bs->slot[i];
        sh[k] = bs->slot_hash[i];
    }
    free(bs->slot);
    free(bs->slot_hash);
    bs->slot = slot;
    bs->slot_hash = sh;
    bs->nslots = ns;
    return 0;
}

/* The number of the line p[0..n), added (to the table and the JSON list) when new; -1 out of memory. */
static long s_line_id(s_boards *bs, const uint8_t *p, size_t n) {
    if ((bs->nlines + 1) * 2 > bs->nslots && s_rehash(bs) != 0) return -1;
    uint64_t h = s_fnv(p, n);
    size_t k = (size_t)(h & (bs->nslots - 1));
    for (; bs->slot[k]; k = (k + 1) & (bs->nslots - 1)) {
        size_t id = bs->slot[k] - 1;
        if (bs->slot_hash[k] == h && bs->len[id] == n && (n == 0 || memcmp(bs->text.data + bs->off[id], p, n) == 0))
            return (long)id;
    }
    if (bs->nlines == bs->caplines) {
        size_t nc = bs->caplines ? 2 * bs->caplines : 1024;
        size_t *no = realloc(bs->off, nc * sizeof *no);
        if (!no) return -1;
        bs->off = no;
        size_t *nl = realloc(bs->len, nc * sizeof *nl);
        if (!nl) return -1;
        bs->len = nl;
        bs->caplines = nc;
    }
    bs->off[bs->nlines] = bs->text.len;
    bs->len[bs->nlines] = n;
    if (n && buf_append(&bs->text, p, n) != 0) return -1;
    if (bs->nlines) buf_append_str(&bs->lines, ",");
    replay_json_string(&bs->lines, (const char *)p, n);
    bs->slot[k] = bs->nlines + 1;
    bs->slot_hash[k] = h;
    return (long)bs->nlines++;
}

/* The index of board b in the page's boards (appending it to list when new), or -1. */
static long s_board_index(s_boards *bs, brt_buf *list, const brt_buf *b, int is_svg) {
    uint8_t h[32];
    crypto_generichash(h, 32, b->data ? b->data : (const uint8_t *)"", b->len, (const uint8_t *)&is_svg,
                       sizeof is_svg);
    for (size_t i = bs->n; i-- > 0;)
        if (memcmp(bs->hash[i], h, 32) == 0) return (long)i;
    if (bs->n == bs->cap) {
        size_t nc = bs->cap ? bs->cap * 2 : 64;
        uint8_t (*nh)[32] = realloc(bs->hash, nc * sizeof *nh);
        if (!nh) return -1;
        bs->hash = nh;
        bs->cap = nc;
    }
    memcpy(bs->hash[bs->n], h, 32);
    buf_append_str(list, bs->n ? ",{" : "{");
    buf_append_str(list, is_svg ? "\"svg\":[" : "\"text\":[");
    const uint8_t *p = b->data ? b->data : (const uint8_t *)"";
    size_t pos = 0, nruns = 0;
    long first = -1, count = 0;
    for (;;) {
        size_t e = pos;
        while (e < b->len && p[e] != '\n') e++;
        long id = s_line_id(bs, p + pos, e - pos);
        if (id < 0) return -1;
        if (first >= 0 && id == first + count) {
            count++;
        } else {
            if (first >= 0) buf_printf(list, "%s%ld,%ld", nruns++ ? "," : "", first, count);
            first = id;
            count = 1;
        }
        if (e >= b->len) break;
        pos = e + 1;
    }
    buf_printf(list, "%s%ld,%ld]}", nruns ? "," : "", first, count);
    return (long)bs->n++;
}

static void s_jstr(brt_buf *out, const char *key, const char *v) {
    buf_printf(out, ",\"%s\":", key);
    replay_json_string(out, v ? v : "", v ? strlen(v) : 0);
}

static void s_seats_json(brt_buf *out, uint32_t mask, unsigned nseats) {
    buf_append_str(out, "[");
    for (unsigned i = 0, k = 0; i < nseats; i++)
        if (mask & (1u << i)) buf_printf(out, "%s%u", k++ ? "," : "", i);
    buf_append_str(out, "]");
}

/* One input record of a step, as the viewpoint may see it: {"kind":..,"seat":..,...}. */
static void s_input_json(brt_buf *out, const evlog_record *r, const brt_ruleset *rs, int vp) {
    switch (r->kind) {
    case EVLOG_JOIN: {
        Berthier__V1__LogJoin *j = berthier__v1__log_join__unpack(NULL, r->len, r->payload);
        buf_printf(out, "{\"kind\":\"join\",\"seat\":%u}", j ? j->seat : 0);
        if (j) berthier__v1__log_join__free_unpacked(j, NULL);
        return;
    }
    case EVLOG_ORDER: {
        Berthier__V1__Request *rq = NULL;
        unsigned seat = 0;
        if (s_order_of(r, &rq, &seat) != 0) {
            buf_append_str(out, "{\"kind\":\"order\",\"seat\":null}");
            return;
        }
        buf_printf(out, "{\"kind\":\"order\",\"seat\":%u", seat);
        if (s_may_see_order(vp, seat)) {
            brt_buf t;
            buf_init(&t);
            const Berthier__V1__Submit *sb = rq->submit;
            if (sb->order.len && rs->order_format && rs->order_format(sb->order.data, sb->order.len, &t) == 0)
                buf_append(&t, "", 1);
            else if (!sb->order.len && sb->order_text)
                buf_append(&t, sb->order_text, strlen(sb->order_text) + 1);
            else
                buf_append(&t, "(an order that does not decode)", 32);
            s_jstr(out, "order", (const char *)t.data);
            buf_free(&t);
        }
        buf_append_str(out, "}");
        berthier__v1__request__free_unpacked(rq, NULL);
        return;
    }
    case EVLOG_TIMEOUT: {
        Berthier__V1__LogTimeout *t = berthier__v1__log_timeout__unpack(NULL, r->len, r->payload);
        buf_printf(out, "{\"kind\":\"timeout\",\"seat\":%u,\"forfeit\":%s}", t ? t->seat : 0,
                   t && t->forfeit ? "true" : "false");
        if (t) berthier__v1__log_timeout__free_unpacked(t, NULL);
        return;
    }
    case EVLOG_RESIGN: {
        Berthier__V1__LogResign *x = berthier__v1__log_resign__unpack(NULL, r->len, r->payload);
        buf_printf(out, "{\"kind\":\"resign\",\"seat\":%u}", x ? x->seat : 0);
        if (x) berthier__v1__log_resign__free_unpacked(x, NULL);
        return;
    }
    case EVLOG_ABORT: {
        Berthier__V1__LogAbort *x = berthier__v1__log_abort__unpack(NULL, r->len, r->payload);
        buf_append_str(out, "{\"kind\":\"abort\"");
        if (x) {
            s_jstr(out, "reason", x->reason);
            if (x->has_forfeit) buf_printf(out, ",\"seat\":%u", x->forfeit_seat);
            berthier__v1__log_abort__free_unpacked(x, NULL);
        }
        buf_append_str(out, "}");
        return;
    }
    default:
        buf_printf(out, "{\"kind\":\"%s\"}", r->kind == EVLOG_NONCE ? "nonce" : "input");
        return;
    }
}

/* The outcome records [first, end) the viewpoint may receive: events and dice. */
static void s_outcome_json(brt_buf *events, brt_buf *dice, const evlog_record *recs, size_t first, size_t end,
                           const brt_ruleset *rs, int vp, unsigned nseats) {
    for (size_t i = first; i < end; i++) {
        const evlog_record *r = &recs[i];
        if (r->kind == EVLOG_EVENT) {
            Berthier__V1__LogEvent *e = berthier__v1__log_event__unpack(NULL, r->len, r->payload);
            if (!e) continue;
            if (vp == BRT_VIEW_ALL || vis_event_may_see(e->visible, s_party(vp), nseats, 0)) {
                brt_buf t;
                buf_init(&t);
                if (rs->event_format(e->data.data, e->data.len, &t) != 0) {
                    buf_reset(&t);
                    buf_append_str(&t, "(an event that does not decode)");
                }
                buf_append_str(events, events->len ? ",{\"text\":" : "{\"text\":");
                replay_json_string(events, t.data ? (const char *)t.data : "", t.len);
                uint32_t all = (1u << nseats) - 1;
                if (vp == BRT_VIEW_ALL && (e->visible & all) != all) { /* who received a limited copy */
                    buf_append_str(events, ",\"seen_by\":");
                    s_seats_json(events, e->visible, nseats);
                }
                buf_append_str(events, "}");
                buf_free(&t);
            }
            berthier__v1__log_event__free_unpacked(e, NULL);
        } else if (r->kind == EVLOG_DICE) {
            Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, r->len, r->payload);
            if (!d) continue;
            if (vp == BRT_VIEW_ALL || vis_dice_may_see(d->visible, s_party(vp), nseats, 0)) {
                buf_printf(dice, "%s{\"index\":%llu,\"sides\":%u,\"value\":%u", dice->len ? "," : "",
                           (unsigned long long)d->index, d->sides, d->value);
                s_jstr(dice, "purpose", d->purpose);
                if (vp == BRT_VIEW_ALL && (d->visible & VIS_DICE_LIMITED)) {
                    buf_append_str(dice, ",\"seen_by\":");
                    s_seats_json(dice, vis_dice_seats(d->visible, nseats), nseats);
                }
                buf_append_str(dice, "}");
            }
            berthier__v1__log_dice__free_unpacked(d, NULL);
        }
    }
}

/* The inputs of one step: where each one's JSON is in the step's buffer. */
typedef struct s_input {
    size_t off, len;
    int order;          /* an ORDER: a sealed round's orders are shown in seat order */
    unsigned seat;
} s_input;

/* The step's inputs as a JSON list. A sealed round's orders are shown in seat order to every
 * party but the full view: in which order the seats chose is not theirs to learn. */
static void s_inputs_json(brt_buf *out, const brt_buf *buf, s_input *in, size_t n, int vp) {
    for (size_t i = 0; vp != BRT_VIEW_ALL && i < n; i++)
        for (size_t k = i + 1; in[i].order && k < n; k++)
            if (in[k].order && in[k].seat < in[i].seat) {
                s_input t = in[i];
                in[i] = in[k];
                in[k] = t;
            }
    for (size_t i = 0; i < n; i++) {
        if (i) buf_append_str(out, ",");
        buf_append(out, buf->data + in[i].off, in[i].len);
    }
}

/* The page around the data: inline CSS and script, nothing fetched. */
static const char s_page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; img-src data:\">\n";

static const char s_page_style[] =
    "<style>\n"
    "body{font-family:sans-serif;margin:0;background:#fafaf7;color:#222}\n"
    "header{padding:8px 12px;background:#2b3a55;color:#fff}\n"
    "header h1{font-size:17px;margin:0}\nheader p{margin:2px 0 0;font-size:13px}\n"
    "#controls{padding:8px 12px;display:flex;gap:8px;align-items:center;border-bottom:1px solid #ccc}\n"
    "#slider{flex:1}\n#main{display:flex;gap:12px;padding:12px;align-items:flex-start}\n"
    "#boards{flex:0 0 auto;max-width:70%;overflow:auto}\n.board svg{max-width:100%;height:auto}\n"
    ".board pre{font-size:12px;background:#fff;border:1px solid #ccc;padding:6px}\n"
    "#step-detail{flex:1;font-size:14px;min-width:240px}\n#step-detail h2{font-size:15px;margin:0 0 6px}\n"
    ".order{font-family:monospace;background:#eef;padding:2px 4px;margin:2px 0}\n"
    ".order.unseen{font-family:sans-serif;background:#eee;color:#555}\n"
    ".seen-by{color:#777;font-size:12px}\n.result{font-weight:bold;background:#ffd;padding:4px}\n"
    "ul{margin:2px 0 8px;padding-left:18px}\n"
    "</style>\n</head>\n";

static const char s_page_script[] =
    "<script>\n"
    "(function () {\n"
    "  'use strict';\n"
    "  var data = JSON.parse(document.getElementById('brt-data').textContent);\n"
    "  var steps = data.steps, boards = data.boards, lines = data.lines, n = steps.length, cur = -1;\n"
    "  var viewer = document.getElementById('viewer'), board = document.getElementById('board');\n"
    "  var detail = document.getElementById('step-detail'), index = document.getElementById('step-index');\n"
    "  var slider = document.getElementById('slider');\n"
    "  function el(tag, cls, text) {\n"
    "    var e = document.createElement(tag);\n"
    "    if (cls) e.className = cls;\n"
    "    if (text !== undefined) e.textContent = text;\n"
    "    return e;\n"
    "  }\n"
    "  function lines_of(runs) {\n"
    "    var out = [];\n"
    "    for (var i = 0; i < runs.length; i += 2)\n"
    "      for (var j = 0; j < runs[i + 1]; j++) out.push(lines[runs[i] + j]);\n"
    "    return out.join('\\n');\n"
    "  }\n"
    "  function seats(list) { return list.length ? 'seat ' + list.join(', seat ') : 'nobody'; }\n"
    "  function input(i) {\n"
    "    if (i.kind === 'order') {\n"
    "      if (i.order !== undefined) return el('div', 'order', 'seat ' + i.seat + ': ' + i.order);\n"
    "      return el('div', 'order unseen', 'seat ' + i.seat + ' gave an order (not shown to this viewpoint)');\n"
    "    }\n"
    "    if (i.kind === 'join') return el('div', 'input', 'seat ' + i.seat + ' joins');\n"
    "    if (i.kind === 'timeout') return el('div', 'input', 'seat ' + i.seat + '\\u2019s clock ran out' +\n"
    "                                         (i.forfeit ? ' (forfeit)' : ''));\n"
    "    if (i.kind === 'resign') return el('div', 'input', 'seat ' + i.seat + ' resigns');\n"
    "    if (i.kind === 'abort') return el('div', 'input', 'an admin aborts the game: ' + i.reason +\n"
    "                                       (i.seat !== undefined ? ' (seat ' + i.seat + ' forfeits)' : ''));\n"
    "    return el('div', 'input', i.kind);\n"
    "  }\n"
    "  function list(title, items, fmt) {\n"
    "    var f = document.createDocumentFragment();\n"
    "    f.appendChild(el('h3', null, title));\n"
    "    var ul = el('ul', title.toLowerCase());\n"
    "    if (!items.length) ul.appendChild(el('li', 'none', 'none'));\n"
    "    items.forEach(function (x) {\n"
    "      var li = el('li', null, fmt(x));\n"
    "      if (x.seen_by) li.appendChild(el('span', 'seen-by', ' (seen by ' + seats(x.seen_by) + ')'));\n"
    "      ul.appendChild(li);\n"
    "    });\n"
    "    f.appendChild(ul);\n"
    "    return f;\n"
    "  }\n"
    "  function show(k) {\n"
    "    if (isNaN(k)) k = 0;\n"
    "    k = Math.max(0, Math.min(n - 1, k));\n"
    "    if (k === cur) return;\n"
    "    cur = k;\n"
    "    var s = steps[k], b = boards[s.board];\n"
    "    if (b.svg !== undefined) board.innerHTML = lines_of(b.svg);\n"
    "    else { board.textContent = ''; board.appendChild(el('pre', 'text-view', lines_of(b.text))); }\n"
    "    board.setAttribute('data-step', String(k + 1));\n"
    "    index.textContent = String(k + 1);\n"
    "    slider.value = String(k + 1);\n"
    "    detail.textContent = '';\n"
    "    detail.appendChild(el('h2', null, 'Step ' + (k + 1) + ' of ' + n + ': seq ' + s.seq + ', record ' +\n"
    "                          s.record + (s.turn ? ', turn ' + s.turn : '')));\n"
    "    s.inputs.forEach(function (i) { detail.appendChild(input(i)); });\n"
    "    detail.appendChild(list('Events', s.events, function (e) { return e.text; }));\n"
    "    detail.appendChild(list('Dice', s.dice, function (d) {\n"
    "      return 'd' + d.sides + ' = ' + d.value + ' (#' + d.index + ', ' + d.purpose + ')';\n"
    "    }));\n"
    "    if (s.result) {\n"
    "      detail.appendChild(el('div', 'result', 'Result: ' + s.result.level + ', winners ' +\n"
    "                            seats(s.result.winners) + ': ' + s.result.reason));\n"
    "    } else {\n"
    "      var p = s.pending;\n"
    "      detail.appendChild(el('div', 'pending', 'Next: ' + p.kind + (p.rule ? ' [' + p.rule + ']' : '') +\n"
    "                            ' by ' + seats(p.seats) + (p.sealed ? ' (sealed)' : '') +\n"
    "                            (p.prompt ? ': ' + p.prompt : '')));\n"
    "    }\n"
    "    try { history.replaceState(null, '', '#step=' + (k + 1)); } catch (e) { /* file: may refuse */ }\n"
    "  }\n"
    "  function fromHash() {\n"
    "    var m = /step=(\\d+)/.exec(location.hash);\n"
    "    return m ? parseInt(m[1], 10) - 1 : 0;\n"
    "  }\n"
    "  document.getElementById('prev').addEventListener('click', function () { show(cur - 1); });\n"
    "  document.getElementById('next').addEventListener('click', function () { show(cur + 1); });\n"
    "  slider.addEventListener('input', function () { show(parseInt(slider.value, 10) - 1); });\n"
    "  document.addEventListener('keydown', function (ev) {\n"
    "    if (ev.target === slider && (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight')) return;\n"
    "    if (ev.key === 'ArrowLeft') show(cur - 1);\n"
    "    else if (ev.key === 'ArrowRight') show(cur + 1);\n"
    "    else if (ev.key === 'Home') show(0);\n"
    "    else if (ev.key === 'End') show(n - 1);\n"
    "    else return;\n"
    "    ev.preventDefault();\n"
    "  });\n"
    "  window.addEventListener('hashchange', function () { show(fromHash()); });\n"
    "  slider.max = String(n);\n"
    "  show(fromHash());\n"
    "  viewer.setAttribute('data-ready', 'true');\n"
    "})();\n"
    "</script>\n";

/* JSON inside <script>: no "<" at all, so neither "</script>" nor "<!--" can occur. */
static int s_append_script_json(brt_buf *out, const brt_buf *json) {
    int rc = 0;
    size_t from = 0;
    for (size_t i = 0; i < json->len && rc == 0; i++) {
        if (json->data[i] != '<') continue;
        rc |= buf_append(out, json->data + from, i - from);
        rc |= buf_append_str(out, "\\u003c");
        from = i + 1;
    }
    if (json->len > from) rc |= buf_append(out, json->data + from, json->len - from);
    return rc ? -1 : 0;
}

int replay_html(const char *path, const replay_view_opts *o, brt_buf *out, brt_buf *err) {
    int rc = s_access(path, o, err);
    if (rc != 0) return rc;
    replay_walk *w = replay_walk_open(path, err);
    if (!w) return REPLAY_BAD;
    const int vp = o->viewpoint;
    const brt_game *g = replay_walk_game(w);
    const brt_ruleset *rs = game_ruleset(g);
    const unsigned nseats = game_seat_count(g);
    size_t nrec;
    const evlog_record *recs = replay_walk_records(w, &nrec);
    brt_buf steps, boards, inputs, events, dice, board;
    buf_init(&steps);
    buf_init(&boards);
    buf_init(&inputs);
    buf_init(&events);
    buf_init(&dice);
    buf_init(&board);
    s_boards bs;
    memset(&bs, 0, sizeof bs);
    buf_init(&bs.text);
    buf_init(&bs.lines);
    s_input *in = NULL;
    size_t nin = 0, capin = 0;
    size_t nsteps = 0;
    long last_order = -1;
    uint64_t seq = game_seq(g);
    int started = 0, over = 0;
    rc = REPLAY_BAD;
    while (replay_walk_step(w)) {
        size_t first, end;
        replay_walk_last(w, &first, &end);
        if (recs[first].kind == EVLOG_NONCE) continue; /* the dice nonces change no state */
        last_order = recs[first].kind == EVLOG_ORDER ? (long)first : -1;
        if (nin == capin) {
            size_t nc = capin ? 2 * capin : 16;
            s_input *ni = realloc(in, nc * sizeof *ni);
            if (!ni) {
                buf_append_str(err, "out of memory\n");
                goto done;
            }
            in = ni;
            capin = nc;
        }
        in[nin].off = inputs.len;
        s_input_json(&inputs, &recs[first], rs, vp);
        in[nin].len = inputs.len - in[nin].off;
        in[nin].order = recs[first].kind == EVLOG_ORDER;
        in[nin].seat = 0;
        if (in[nin].order) {
            Berthier__V1__LogOrder *lo = berthier__v1__log_order__unpack(NULL, recs[first].len, recs[first].payload);
            if (lo) in[nin].seat = lo->seat;
            if (lo) berthier__v1__log_order__free_unpacked(lo, NULL);
        }
        nin++;
        s_outcome_json(&events, &dice, recs, first + 1, end, rs, vp, nseats);
        /* a step: the state changed (the seq moved, the game started or ended); a sealed
         * order that is only recorded moves nothing and waits for the one that resolves it */
        if (!game_started(g) || (game_seq(g) == seq && started && game_over(g) == over)) continue;
        seq = game_seq(g);
        started = 1;
        over = game_over(g);
        char caption[160];
        s_caption(g, caption, sizeof caption);
        brt_render_ctx ctx = {NULL, 0, -1, caption};
        Berthier__V1__Request *rq = NULL;
        unsigned oseat = 0;
        if (last_order >= 0 && s_order_of(&recs[last_order], &rq, &oseat) == 0 &&
            s_may_see_order(vp, oseat)) {
            ctx.last_order = rq->submit->order.data;
            ctx.last_len = rq->submit->order.len;
            ctx.last_seat = (int)oseat;
        }
        buf_reset(&board);
        int is_svg = rs->render && game_render(g, vp, &ctx, &board) == 0;
        if (rq) berthier__v1__request__free_unpacked(rq, NULL);
        if (!is_svg) {
            buf_reset(&board);
            if (game_view(g, vp, NULL, &board) != 0) {
                buf_printf(err, "the ruleset cannot show the state at seq %llu\n", (unsigned long long)seq);
                goto done;
            }
        }
        long bi = s_board_index(&bs, &boards, &board, is_svg);
        if (bi < 0) {
            buf_append_str(err, "out of memory\n");
            goto done;
        }
        brt_pending p;
        game_pending(g, s_party(vp), &p, NULL);
        buf_printf(&steps, "%s{\"seq\":%llu,\"record\":%llu,\"turn\":%u,\"board\":%ld,\"inputs\":[", nsteps ? "," : "",
                   (unsigned long long)seq, (unsigned long long)recs[first].index, p.turn, bi);
        s_inputs_json(&steps, &inputs, in, nin, vp);
        buf_append_str(&steps, "],\"events\":[");
        buf_append(&steps, events.data, events.len);
        buf_append_str(&steps, "],\"dice\":[");
        buf_append(&steps, dice.data, dice.len);
        buf_append_str(&steps, "]");
        if (over) {
            brt_result r;
            game_result(g, &r);
            buf_append_str(&steps, ",\"result\":{\"winners\":");
            s_seats_json(&steps, r.winners, nseats);
            s_jstr(&steps, "level", r.level);
            s_jstr(&steps, "reason", r.reason);
            buf_append_str(&steps, "}");
        } else {
            buf_append_str(&steps, ",\"pending\":{\"seats\":");
            s_seats_json(&steps, p.seats, nseats);
            s_jstr(&steps, "kind", p.kind);
            s_jstr(&steps, "rule", p.rule);
            s_jstr(&steps, "prompt", p.prompt);
            buf_printf(&steps, ",\"sealed\":%s}", p.sealed ? "true" : "false");
        }
        buf_append_str(&steps, "}");
        buf_reset(&inputs);
        nin = 0;
        buf_reset(&events);
        buf_reset(&dice);
        nsteps++;
    }
    if (replay_walk_problem(w)) goto done;
    if (!nsteps) {
        buf_printf(err, "game %s never started: there is nothing to show\n", game_id(g));
        goto done;
    }
    const Berthier__V1__LogHeader *h = replay_walk_header(w);
    char vpbuf[32];
    const char *vpname = s_vp_name(vp, vpbuf, sizeof vpbuf);
    buf_append_str(out, s_page_head);
    buf_append_str(out, "<title>");
    brt_buf t;
    buf_init(&t);
    buf_printf(&t, "Berthier game %s (%s %s): %s", h->game_id, h->ruleset, h->scenario, vpname);
    buf_append(&t, "", 1);
    buf_append_xml(out, (const char *)t.data);
    buf_append_str(out, "</title>\n");
    buf_append_str(out, s_page_style);
    buf_printf(out, "<body>\n<div id=\"viewer\" data-steps=\"%zu\" data-game=\"", nsteps);
    buf_append_xml(out, h->game_id);
    buf_printf(out, "\" data-viewpoint=\"%s\">\n<header><h1>", vp == BRT_VIEW_ALL ? "all"
                                                             : vp == BRT_VIEW_PUBLIC ? "public" : "seat");
    buf_append_xml(out, (const char *)t.data);
    buf_free(&t);
    buf_printf(out, "</h1><p>%zu steps; %s%s. Keys: &larr; &rarr; step, Home / End.</p></header>\n", nsteps,
               game_over(g) ? "finished" : "not finished",
               replay_walk_stopped(w) ? " (the log is cut or damaged after the last step shown)" : "");
    buf_printf(out,
               "<div id=\"controls\"><button id=\"prev\" type=\"button\">&#9664; previous</button>"
               "<span>step <span id=\"step-index\">1</span> of %zu</span>"
               "<input id=\"slider\" type=\"range\" min=\"1\" max=\"%zu\" value=\"1\" aria-label=\"step\">"
               "<button id=\"next\" type=\"button\">next &#9654;</button></div>\n"
               "<div id=\"main\"><div id=\"boards\"><div id=\"board\" class=\"board\" data-step=\"1\"></div></div>"
               "<div id=\"step-detail\"></div></div>\n</div>\n",
               nsteps, nsteps);
    brt_buf json;
    buf_init(&json);
    buf_append_str(&json, "{\"game\":");
    replay_json_string(&json, h->game_id, strlen(h->game_id));
    s_jstr(&json, "ruleset", h->ruleset);
    s_jstr(&json, "scenario", h->scenario);
    s_jstr(&json, "viewpoint", vp == BRT_VIEW_ALL ? "all" : vp == BRT_VIEW_PUBLIC ? "public" : "seat");
    if (vp >= 0) buf_printf(&json, ",\"seat\":%d", vp);
    buf_append_str(&json, ",\"lines\":[");
    buf_append(&json, bs.lines.data, bs.lines.len);
    buf_append_str(&json, "],\"boards\":[");
    buf_append(&json, boards.data, boards.len);
    buf_append_str(&json, "],\"steps\":[");
    buf_append(&json, steps.data, steps.len);
    buf_append_str(&json, "]}");
    buf_append_str(out, "<script type=\"application/json\" id=\"brt-data\">");
    int wr = s_append_script_json(out, &json);
    buf_free(&json);
    buf_append_str(out, "</script>\n");
    buf_append_str(out, s_page_script);
    buf_append_str(out, "</body>\n</html>\n");
    rc = wr == 0 ? 0 : REPLAY_CANNOT;
done:
    s_boards_free(&bs);
    free(in);
    buf_free(&steps);
    buf_free(&boards);
    buf_free(&inputs);
    buf_free(&events);
    buf_free(&dice);
    buf_free(&board);
    replay_walk_destroy(&w);
    return rc;
}
