/*
 * test_daemon_finished_cold.c - `events`, `header` and `fetch_log` about an ended game
 * kept on disk (cold) are answered from its record index (<id>.evx, daemon/finev.h) by
 * reads of the log, and `pending` (with and without Want), `legal` and a seat's `hello`
 * from its index (<id>.fin), without loading or re-executing the game, and with the bytes the
 * same daemon gave while the game was in memory (docs/daemon.md "Finished games").
 *
 * The engine runs in process (as in test_daemon_vis.c). A Waterloo 20 game with
 * fog-of-war, and a wnlb game (hidden hands), whose events are not all seen by both seats,
 * are played and ended, each among a dozen other ended games; while it is still in memory, every seat, the admin and a spectator ask for its
 * events (every page of them from seq 0, and from a seq in the middle: max-message is
 * small so that replies are cut), its header and its log. The engine is made again from
 * the data dir: the same requests get the same bytes, and engine_reexecuted() stays 0
 * through start-up and all of them. Then the index is removed, and damaged: it is made
 * again from the log (still nothing re-executed) and the replies stay the same. A `state`
 * brings the game back (re-executed once), and the events from memory are the same bytes
 * again. A retried order with Want gets the same bytes whether its game was brought back
 * or answers from its .fin. A .fin of format 1 (no dice batch) is still read; its game's
 * `pending` brings the game back, with the same bytes. A log damaged in an event's payload is refused, never served.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "berthier/v1/berthier.pb-c.h"
#include "canon.h"
#include "config.h"
#include "engine.h"
#include "evlog.h"
#include "keys.h"
#include "engine_sign_t.h"
#include "seatsig.h"

enum { S_OTHERS = 12, S_MAX_REPLIES = 512, S_MAX_MESSAGE = 8192 };

typedef struct {
    char dir[128];
    bd_config cfg;
    bd_keys keys;
    bd_engine *eng;
    uint8_t seat_key[2][32];
    uint8_t spect_key[32];
    char gid[ENGINE_ID_LEN + 1];
    uint64_t rid;
    uint64_t rng;
    /* the last order sent (with Want.decision), as bytes: a retry sends them again */
    uint8_t last_order[4096];
    size_t last_len;
    unsigned last_seat;
} s_fix;

static uint64_t s_next(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The daemon's randomness (server seed, game ids, keys) from a fixed stream, so that every
 * run plays the same games (as test_daemon_vis.c does). */
static uint64_t s_rand_state = 0x5eedc01d;
static const char *s_rand_name(void) { return "berthier-test"; }
static uint32_t s_rand_u32(void) { return (uint32_t)s_next(&s_rand_state); }
static void s_rand_buf(void *const out, const size_t n) {
    uint8_t *p = out;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = s_next(&s_rand_state);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}
static randombytes_implementation s_rand_impl = {s_rand_name, s_rand_u32, NULL, NULL, s_rand_buf, NULL};

static void s_key(s_fix *f, uint8_t out[32]) {
    for (int i = 0; i < 32; i += 8) {
        uint64_t v = s_next(&f->rng);
        memcpy(out + i, &v, 8);
    }
}

static void s_engine_up(s_fix *f) {
    char err[256];
    config_defaults(&f->cfg, f->dir);
    f->cfg.max_message = S_MAX_MESSAGE;
    assert_int_equal(keys_load(&f->keys, f->cfg.data_dir, err, sizeof err), 0);
    f->eng = engine_new(&f->cfg, &f->keys, err, sizeof err);
    assert_non_null(f->eng);
    assert_int_equal(engine_recover(f->eng, err, sizeof err), 0);
}

static void s_engine_down(s_fix *f) {
    engine_destroy(&f->eng);
    keys_wipe(&f->keys);
}

/* One request's reply bytes, after the round it belongs to. */
static void s_call_raw(s_fix *f, const uint8_t key[32], const uint8_t *req, size_t len, brt_buf *reply) {
    char err[256];
    buf_reset(reply);
    (void)engine_handle(f->eng, key, req, len, reply);
    assert_int_equal(engine_sync(f->eng, err, sizeof err), 0);
    bd_notice *out;
    size_t n;
    engine_take_notices(f->eng, &out, &n);
    engine_free_notices(out, n);
}

/* Seat-sign an input as a client would (docs/protocol.md P3.1; engine_sign_t.h). */
static void s_sign(s_fix *f, Berthier__V1__Request *req, uint8_t sig[64], uint8_t pk[32]) {
    t_engine_sign(f->eng, (const uint8_t(*)[32])f->seat_key, 2, req, sig, pk);
}

/* Send `req` (its request id is set here unless `rid`) and return the reply bytes in `raw`. */
static Berthier__V1__Reply *s_send(s_fix *f, const uint8_t key[32], Berthier__V1__Request *req, uint64_t rid,
                                   brt_buf *raw) {
    req->request_id = rid ? rid : ++f->rid;
    uint8_t sig[64], pk[32];
    s_sign(f, req, sig, pk);
    size_t n;
    uint8_t *b = canon_pack(&req->base, &n);
    assert_non_null(b);
    if (req->body_case == BERTHIER__V1__REQUEST__BODY_SUBMIT && n <= sizeof f->last_order) {
        memcpy(f->last_order, b, n);
        f->last_len = n;
        f->last_seat = req->submit->seat;
    }
    brt_buf reply;
    buf_init(&reply);
    s_call_raw(f, key, b, n, &reply);
    free(b);
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, reply.len, reply.data);
    assert_non_null(r);
    if (raw) {
        buf_reset(raw);
        buf_append(raw, reply.data, reply.len);
    }
    buf_free(&reply);
    return r;
}

static Berthier__V1__Reply *s_ref(s_fix *f, const uint8_t key[32], const char *gid, unsigned seat,
                                  Berthier__V1__Request__BodyCase c, uint64_t since, uint64_t rid, brt_buf *raw) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    g.since_seq = since;
    req.body_case = c;
    switch (c) {
    case BERTHIER__V1__REQUEST__BODY_PENDING: req.pending = &g; break;
    case BERTHIER__V1__REQUEST__BODY_LEGAL: req.legal = &g; break;
    case BERTHIER__V1__REQUEST__BODY_STATE: req.state = &g; break;
    case BERTHIER__V1__REQUEST__BODY_EVENTS: req.events = &g; break;
    case BERTHIER__V1__REQUEST__BODY_HEADER: req.header = &g; break;
    case BERTHIER__V1__REQUEST__BODY_HELLO: req.hello = &g; break;
    default: fail();
    }
    return s_send(f, key, &req, rid, raw);
}

/* `pending` with a Want (P4.3): the decision, the legal orders and their texts. */
static Berthier__V1__Reply *s_pending_want(s_fix *f, const uint8_t key[32], unsigned seat, uint64_t rid,
                                           brt_buf *raw) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    Berthier__V1__Want w = BERTHIER__V1__WANT__INIT;
    w.decision = 1;
    w.legal = 1;
    w.texts = 1;
    w.limit = 50;
    g.game_id = f->gid;
    g.seat = seat;
    g.want = &w;
    req.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
    req.pending = &g;
    return s_send(f, key, &req, rid, raw);
}

static void s_create(s_fix *f, const char *ruleset, const char *scenario, const char *const *opts, size_t nopts) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec ss[2], *ssp[2];
    for (unsigned s = 0; s < 2; s++) {
        berthier__v1__seat_spec__init(&ss[s]);
        ss[s].seat = s;
        ss[s].key.data = f->seat_key[s];
        ss[s].key.len = 32;
        ssp[s] = &ss[s];
    }
    ProtobufCBinaryData spect = {32, f->spect_key};
    c.ruleset = (char *)ruleset;
    c.scenario = (char *)scenario;
    c.n_options = nopts;
    c.options = (char **)opts;
    c.n_seats = 2;
    c.seats = ssp;
    c.n_spectator_keys = 1;
    c.spectator_keys = &spect;
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &c;
    Berthier__V1__Reply *r = s_send(f, f->keys.admins[0], &req, 0, NULL);
    if (r->code) fprintf(stderr, "create: %s\n", r->message);
    assert_int_equal(r->code, 0);
    snprintf(f->gid, sizeof f->gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
}

static void s_abort(s_fix *f) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__AbortGame ab = BERTHIER__V1__ABORT_GAME__INIT;
    ab.game_id = f->gid;
    ab.reason = (char *)"the test ends it";
    req.body_case = BERTHIER__V1__REQUEST__BODY_ABORT;
    req.abort = &ab;
    Berthier__V1__Reply *r = s_send(f, f->keys.admins[0], &req, 0, NULL);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
}

static void s_join(s_fix *f, unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    uint8_t ent[32];
    s_key(f, ent);
    j.game_id = f->gid;
    j.seat = seat;
    j.entropy.data = ent;
    j.entropy.len = 32;
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    Berthier__V1__Reply *r = s_send(f, f->seat_key[seat], &req, 0, NULL);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* Mostly "end" (turns go by), else a legal order at random. */
static void s_order(s_fix *f, unsigned seat, uint64_t seq) {
    Berthier__V1__Reply *l = s_ref(f, f->seat_key[seat], f->gid, seat, BERTHIER__V1__REQUEST__BODY_LEGAL, 0, 0, NULL);
    assert_int_equal(l->code, 0);
    assert_true(l->legal->n_orders > 0);
    size_t pick = (size_t)(s_next(&f->rng) % l->legal->n_orders);
    if (s_next(&f->rng) % 4 != 0)
        for (size_t i = 0; i < l->legal->n_texts; i++)
            if (strcmp(l->legal->texts[i], "end") == 0 || strcmp(l->legal->texts[i], "no-reserve") == 0) pick = i;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit sb = BERTHIER__V1__SUBMIT__INIT;
    sb.game_id = f->gid;
    sb.seat = seat;
    sb.based_on_seq = seq;
    sb.order = l->legal->orders[pick];
    Berthier__V1__Want w = BERTHIER__V1__WANT__INIT;
    w.decision = 1;
    sb.want = &w;
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &sb;
    Berthier__V1__Reply *r = s_send(f, f->seat_key[seat], &req, 0, NULL);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    berthier__v1__reply__free_unpacked(l, NULL);
}

/* Play up to `inputs` orders, then the admin ends the game (if it has not ended). */
static void s_play_and_end(s_fix *f, int inputs) {
    for (unsigned s = 0; s < 2; s++) s_join(f, s);
    int ended = 0;
    for (int k = 0; k < inputs && !ended; k++) {
        int acted = 0;
        for (unsigned s = 0; s < 2 && !ended; s++) {
            Berthier__V1__Reply *p =
                s_ref(f, f->seat_key[s], f->gid, s, BERTHIER__V1__REQUEST__BODY_PENDING, 0, 0, NULL);
            assert_int_equal(p->code, 0);
            ended = p->decision->result && p->decision->result->ended;
            if (!ended && p->decision->you_must_act) {
                s_order(f, s, p->decision->seq);
                acted = 1;
            }
            berthier__v1__reply__free_unpacked(p, NULL);
        }
        assert_true(acted || ended);
    }
    if (!ended) s_abort(f);
}

/* ---- the requests compared, and their replies ---- */

typedef struct {
    const uint8_t *key;
    unsigned seat;
    int kind;          /* 0 events, 1 header, 2 fetch_log */
    uint64_t since;    /* events: since_seq; fetch_log: offset */
    uint64_t rid;
    uint8_t *bytes;    /* the reply */
    size_t len;
} s_asked;

typedef struct {
    s_asked a[S_MAX_REPLIES];
    size_t n;
} s_script;

static Berthier__V1__Reply *s_ask(s_fix *f, const s_asked *q, brt_buf *raw) {
    if (q->kind == 0)
        return s_ref(f, q->key, f->gid, q->seat, BERTHIER__V1__REQUEST__BODY_EVENTS, q->since, q->rid, raw);
    if (q->kind == 1) return s_ref(f, q->key, f->gid, q->seat, BERTHIER__V1__REQUEST__BODY_HEADER, 0, q->rid, raw);
    if (q->kind == 3) return s_ref(f, q->key, f->gid, q->seat, BERTHIER__V1__REQUEST__BODY_PENDING, 0, q->rid, raw);
    if (q->kind == 4) return s_pending_want(f, q->key, q->seat, q->rid, raw);
    if (q->kind == 5) return s_ref(f, q->key, f->gid, q->seat, BERTHIER__V1__REQUEST__BODY_LEGAL, 0, q->rid, raw);
    if (q->kind == 6) return s_ref(f, q->key, f->gid, q->seat, BERTHIER__V1__REQUEST__BODY_HELLO, 0, q->rid, raw);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__FetchLog fl = BERTHIER__V1__FETCH_LOG__INIT;
    fl.game_id = f->gid;
    fl.offset = q->since;
    fl.max_bytes = 1500;
    req.body_case = BERTHIER__V1__REQUEST__BODY_FETCH_LOG;
    req.fetch_log = &fl;
    return s_send(f, q->key, &req, q->rid, raw);
}

static s_asked *s_add(s_script *sc, const uint8_t *key, unsigned seat, int kind, uint64_t since) {
    assert_true(sc->n < S_MAX_REPLIES);
    s_asked *q = &sc->a[sc->n++];
    memset(q, 0, sizeof *q);
    q->key = key;
    q->seat = seat;
    q->kind = kind;
    q->since = since;
    q->rid = 900000 + sc->n;
    return q;
}

static void s_keep(s_asked *q, const brt_buf *raw) {
    q->bytes = malloc(raw->len);
    assert_non_null(q->bytes);
    memcpy(q->bytes, raw->data, raw->len);
    q->len = raw->len;
}

/* Record the script against the game in memory: the events of each party page by page
 * from 0 and from `mid`, the header, the log chunk by chunk. Returns the events seen by
 * seat 0 and by seat 1 (to show that some are hidden from one of them). */
static void s_record(s_fix *f, s_script *sc, uint64_t mid, size_t seen[2]) {
    brt_buf raw;
    buf_init(&raw);
    const uint8_t *keys[4] = {f->seat_key[0], f->seat_key[1], f->keys.admins[0], f->spect_key};
    for (int p = 0; p < 4; p++) {
        unsigned seat = p < 2 ? (unsigned)p : 0;
        for (int from = 0; from < 2; from++) {
            uint64_t since = from ? mid : 0;
            for (;;) {
                s_asked *q = s_add(sc, keys[p], seat, 0, since);
                Berthier__V1__Reply *r = s_ask(f, q, &raw);
                assert_int_equal(r->code, 0);
                s_keep(q, &raw);
                if (p < 2 && !from) seen[p] += r->events->n_events;
                int more = r->message[0] != 0;
                assert_true(r->events->seq >= since);
                int moved = r->events->seq > since;
                since = r->events->seq;
                berthier__v1__reply__free_unpacked(r, NULL);
                if (!more) break;
                assert_true(moved);
            }
        }
        s_asked *q = s_add(sc, keys[p], seat, 1, 0);
        Berthier__V1__Reply *r = s_ask(f, q, &raw);
        assert_int_equal(r->code, 0);
        assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_HEADER);
        s_keep(q, &raw);
        berthier__v1__reply__free_unpacked(r, NULL);
        /* its decision (the result; with Want nothing more: an ended game lists no orders),
         * `legal` (refused: the game has ended; an admin or a spectator acts for no seat) and
         * the seat's hello */
        for (int kind = 3; kind <= 6; kind++) {
            q = s_add(sc, keys[p], seat, kind, 0);
            r = s_ask(f, q, &raw);
            if (kind <= 4) {
                assert_int_equal(r->code, 0);
                assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_DECISION);
                assert_non_null(r->decision->result);
                assert_true(r->decision->result->ended);
                assert_false(r->decision->you_must_act);
                assert_string_equal(r->decision->kind, "none");
                assert_null(r->next_legal);
            } else if (kind == 5) {
                assert_int_equal(r->code, p < 2 ? BERTHIER__V1__CODE__CODE_GAME_OVER : BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
            } else {
                assert_int_equal(r->code, p < 2 ? 0 : BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
            }
            s_keep(q, &raw);
            berthier__v1__reply__free_unpacked(r, NULL);
        }
    }
    for (uint64_t off = 0;;) {
        s_asked *q = s_add(sc, f->seat_key[1], 1, 2, off);
        Berthier__V1__Reply *r = s_ask(f, q, &raw);
        assert_int_equal(r->code, 0);
        s_keep(q, &raw);
        int eof = r->log->eof;
        off += r->log->data.len;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (eof) break;
    }
    buf_free(&raw);
}

/* Every request of the script again: the same reply bytes. */
static void s_replay(s_fix *f, const s_script *sc) {
    brt_buf raw;
    buf_init(&raw);
    for (size_t i = 0; i < sc->n; i++) {
        Berthier__V1__Reply *r = s_ask(f, &sc->a[i], &raw);
        if (raw.len != sc->a[i].len || memcmp(raw.data, sc->a[i].bytes, raw.len) != 0)
            fprintf(stderr, "request %zu (kind %d, since %llu): %zu bytes, %zu before; code %d %s\n", i,
                    sc->a[i].kind, (unsigned long long)sc->a[i].since, raw.len, sc->a[i].len, r->code, r->message);
        assert_int_equal(raw.len, sc->a[i].len);
        assert_memory_equal(raw.data, sc->a[i].bytes, raw.len);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    buf_free(&raw);
}

static void s_path(const s_fix *f, const char *ext, char *out, size_t cap) {
    snprintf(out, cap, "%s/games/%s.%s", f->dir, f->gid, ext);
}

static int s_is_cold(s_fix *f) {
    bd_game *g = engine_peek(f->eng, f->gid);
    assert_non_null(g);
    return g->g == NULL;
}

/* The events of the log hidden from at least one seat (LogEvent.visible); in see[s] those
 * seat s may see. */
static size_t s_hidden_in_log(const s_fix *f, uint64_t *mid, size_t see[2]) {
    char path[400], err[200];
    s_path(f, "log", path, sizeof path);
    evlog_reader *rd = evlog_reader_open(path, err, sizeof err);
    assert_non_null(rd);
    evlog_record rec;
    size_t hidden = 0, n = 0;
    static uint64_t seqs[65536];
    while (evlog_reader_next(rd, &rec) == 1) {
        if (rec.kind != EVLOG_EVENT) continue;
        Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, rec.len, rec.payload);
        assert_non_null(le);
        if ((le->visible & 3u) != 3u) hidden++;
        for (unsigned k = 0; k < 2; k++) see[k] += (le->visible >> k) & 1u;
        if (n < 65536) seqs[n++] = le->seq;
        berthier__v1__log_event__free_unpacked(le, NULL);
    }
    evlog_reader_destroy(&rd);
    assert_true(n > 4);
    *mid = seqs[n / 2];
    return hidden;
}

static void s_rmdir(const char *dir) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void s_run(const char *ruleset, const char *scenario, const char *const *opts, size_t nopts) {
    s_rand_state = 0x5eedc01d;
    assert_true(sodium_init() >= 0);
    s_fix *f = calloc(1, sizeof *f);
    s_script *sc = calloc(1, sizeof *sc);
    assert_non_null(f);
    assert_non_null(sc);
    f->rng = 0xc01d;
    snprintf(f->dir, sizeof f->dir, "/tmp/berthier-cold-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    s_engine_up(f);
    for (unsigned s = 0; s < 2; s++) s_key(f, f->seat_key[s]);
    s_key(f, f->spect_key);

    /* a dozen ended games first, then the one asked about (ended last: still in memory) */
    for (int i = 0; i < S_OTHERS; i++) {
        s_create(f, "duel", "standard", NULL, 0);
        s_abort(f);
    }
    s_create(f, ruleset, scenario, opts, nopts);
    s_play_and_end(f, 160);
    uint64_t mid = 0;
    size_t see[2] = {0, 0};
    size_t hidden = s_hidden_in_log(f, &mid, see);
    print_message("game %s: %zu events hidden from a seat; asked from seq 0 and %llu\n", f->gid, hidden,
                  (unsigned long long)mid);
    assert_true(hidden > 0);
    char evx[400], fin[400], logp[400];
    s_path(f, "evx", evx, sizeof evx);
    s_path(f, "fin", fin, sizeof fin);
    s_path(f, "log", logp, sizeof logp);
    assert_int_equal(access(fin, F_OK), 0);
    assert_int_equal(access(evx, F_OK), 0);   /* written with the .fin */

    /* 1. while it is in memory */
    assert_false(s_is_cold(f));
    size_t seen[2] = {0, 0};
    s_record(f, sc, mid, seen);
    /* each seat got exactly the events it may see, and some were hidden from one of them */
    print_message("events seen by seat 0: %zu, by seat 1: %zu\n", seen[0], seen[1]);
    assert_int_equal(seen[0], see[0]);
    assert_int_equal(seen[1], see[1]);
    size_t events_asked = 0;
    for (size_t i = 0; i < sc->n; i++) events_asked += sc->a[i].kind == 0;
    print_message("%zu requests recorded (%zu events pages)\n", sc->n, events_asked);
    assert_true(events_asked > 8);   /* pages were cut: max-message is small */

    /* 2. after a restart: nothing re-executed, the same bytes */
    s_engine_down(f);
    s_engine_up(f);
    assert_int_equal(engine_reexecuted(f->eng), 0);
    assert_true(s_is_cold(f));
    s_replay(f, sc);
    assert_int_equal(engine_reexecuted(f->eng), 0);
    assert_true(s_is_cold(f));

    /* 3. no index (a game ended by an older daemon), then a damaged one: made again from the
     * log, still nothing re-executed */
    assert_int_equal(unlink(evx), 0);
    s_replay(f, sc);
    assert_int_equal(access(evx, F_OK), 0);
    {
        FILE *fp = fopen(evx, "r+b");
        assert_non_null(fp);
        assert_int_equal(fseek(fp, 128 + 16, SEEK_SET), 0);   /* the first entry's offset */
        fputc(0x55, fp);
        fclose(fp);
    }
    s_replay(f, sc);
    assert_int_equal(engine_reexecuted(f->eng), 0);
    assert_true(s_is_cold(f));

    /* 4. `state` brings the game back (once); its events from memory are the same bytes */
    Berthier__V1__Reply *r = s_ref(f, f->seat_key[0], f->gid, 0, BERTHIER__V1__REQUEST__BODY_STATE, 0, 0, NULL);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    uint64_t once = engine_reexecuted(f->eng);
    print_message("state brought the game back: %llu inputs re-executed\n", (unsigned long long)once);
    assert_true(once > 0);
    assert_false(s_is_cold(f));
    s_replay(f, sc);
    assert_int_equal(engine_reexecuted(f->eng), once);

    /* 4b. a retried order (with Want.decision) gets the reply rebuilt from the log and the
     * seat's decision now, the game's end: first with the .fin (its replies are put back by
     * re-executing the log once), then without (start-up re-executes the game, rebuilding the
     * replies, and keeps it cold): the second retry answers from the .fin, with the same
     * bytes and nothing re-executed */
    assert_true(f->last_len > 0);
    brt_buf warm, coldr;
    buf_init(&warm);
    buf_init(&coldr);
    s_engine_down(f);
    s_engine_up(f);
    s_call_raw(f, f->seat_key[f->last_seat], f->last_order, f->last_len, &warm);
    assert_true(engine_reexecuted(f->eng) > 0);
    assert_false(s_is_cold(f));
    s_engine_down(f);
    assert_int_equal(unlink(fin), 0);
    s_engine_up(f);
    assert_true(s_is_cold(f));
    assert_int_equal(access(fin, F_OK), 0);   /* written again by start-up */
    uint64_t at_start = engine_reexecuted(f->eng);
    s_call_raw(f, f->seat_key[f->last_seat], f->last_order, f->last_len, &coldr);
    assert_int_equal(engine_reexecuted(f->eng), at_start);
    assert_true(s_is_cold(f));
    {
        Berthier__V1__Reply *rr = berthier__v1__reply__unpack(NULL, coldr.len, coldr.data);
        assert_non_null(rr);
        assert_int_equal(rr->code, 0);
        assert_non_null(rr->next);
        assert_non_null(rr->next->result);
        assert_true(rr->next->result->ended);
        berthier__v1__reply__free_unpacked(rr, NULL);
    }
    assert_int_equal(coldr.len, warm.len);
    assert_memory_equal(coldr.data, warm.data, warm.len);
    buf_free(&warm);
    buf_free(&coldr);

    /* 4c. a format-1 .fin (written before it held the dice batch) is still trusted at
     * start-up; only `pending` brings its game back, with the same bytes */
    s_engine_down(f);
    {
        FILE *fp = fopen(fin, "rb");
        assert_non_null(fp);
        static uint8_t b[4096], o[4096];
        size_t n = fread(b, 1, sizeof b, fp);
        fclose(fp);
        assert_true(n > 104 + 32 && b[8] == 2);
        memcpy(o, b, 96);                           /* all but the batch (offset 96, 8 bytes) */
        memcpy(o + 96, b + 104, n - 32 - 104);
        size_t m = n - 8;
        o[8] = 1;
        uint32_t body = (uint32_t)(m - 16 - 32);
        for (int i = 0; i < 4; i++) o[12 + i] = (uint8_t)(body >> (8 * i));
        crypto_generichash(o + m - 32, 32, o, m - 32, NULL, 0);
        fp = fopen(fin, "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(o, 1, m, fp), m);
        fclose(fp);
    }
    s_engine_up(f);
    assert_int_equal(engine_reexecuted(f->eng), 0);
    assert_true(s_is_cold(f));
    {
        brt_buf raw;
        buf_init(&raw);
        const s_asked *q = NULL;
        for (size_t i = 0; i < sc->n && !q; i++)
            if (sc->a[i].kind == 3 && sc->a[i].key == f->seat_key[0]) q = &sc->a[i];
        assert_non_null(q);
        Berthier__V1__Reply *pr = s_ask(f, q, &raw);
        assert_true(engine_reexecuted(f->eng) > 0);
        assert_int_equal(raw.len, q->len);
        assert_memory_equal(raw.data, q->bytes, raw.len);
        berthier__v1__reply__free_unpacked(pr, NULL);
        buf_free(&raw);
    }

    /* 5. a log damaged in an event's payload (the .fin checks only its size and last hash):
     * the damaged record is never served */
    s_engine_down(f);
    {
        char err[200];
        evlog_reader *rd = evlog_reader_open(logp, err, sizeof err);
        assert_non_null(rd);
        evlog_record rec;
        uint64_t at = 0;
        while (evlog_reader_next(rd, &rec) == 1) {
            if (rec.kind != EVLOG_EVENT || at) continue;
            /* the first event seat 0 sees: its first page of events holds it */
            Berthier__V1__LogEvent *le = berthier__v1__log_event__unpack(NULL, rec.len, rec.payload);
            assert_non_null(le);
            if (le->visible & 1u) at = rec.offset + 5 + rec.len - 1;
            berthier__v1__log_event__free_unpacked(le, NULL);
        }
        evlog_reader_destroy(&rd);
        assert_true(at > 0);
        FILE *fp = fopen(logp, "r+b");
        assert_non_null(fp);
        assert_int_equal(fseek(fp, (long)at, SEEK_SET), 0);
        int c = fgetc(fp);
        assert_int_equal(fseek(fp, (long)at, SEEK_SET), 0);
        fputc(c ^ 0x40, fp);
        fclose(fp);
    }
    s_engine_up(f);
    assert_true(s_is_cold(f));
    r = s_ask(f, &sc->a[0], NULL);
    assert_int_not_equal(r->code, 0);
    assert_int_not_equal(r->body_case, BERTHIER__V1__REPLY__BODY_EVENTS);
    berthier__v1__reply__free_unpacked(r, NULL);

    s_engine_down(f);
    for (size_t i = 0; i < sc->n; i++) free(sc->a[i].bytes);
    s_rmdir(f->dir);
    free(sc);
    free(f);
}

/* n20 with fog-of-war: the hidden units' events reach only their own seat */
static void test_cold_n20_fog(void **st) {
    (void)st;
    const char *opts[] = {"fog-of-war"};
    s_run("n20", "waterloo20-standard", opts, 1);
}

/* wnlb: the hands are hidden [3.2] [4.0] */
static void test_cold_wnlb(void **st) {
    (void)st;
    s_run("wnlb", "short", NULL, 0);
}

int main(void) {
    randombytes_set_implementation(&s_rand_impl);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cold_n20_fog),
        cmocka_unit_test(test_cold_wnlb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
