/* server.c - sockets and the commit-round loop (see server.h). */
#include "server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zmq.h>

#include "budget.h"
#include "decode.h"
#include "fair.h"
#include "log.h"
#include "notify.h"
#include "zap.h"

typedef struct {
    zmq_msg_t identity;
    brt_buf reply;
    /* a frame put off during a flush: its bytes and key (frame = 1), or a refusal
     * already built in `reply` (frame = 0) that must keep its place */
    zmq_msg_t body;
    uint8_t key[32];          /* the key of the frame (every slot) */
    int frame;
    budget_ticket ticket;     /* what the reply in `reply` is charged to (budget.h) */
} s_pending_reply;

struct bd_server {
    const bd_config *cfg;
    bd_keys *keys;
    bd_engine *engine;
    bd_fair *fair;
    bd_budget *budget;
    void *monitor;             /* PAIR: the ROUTER's ZMQ_EVENT_DISCONNECTED events (budget.h) */
    unsigned nframes;          /* frames taken this round, answered or queued */
    void *ctx;
    bd_zap *zap;
    void *router;
    void *pub;
    s_pending_reply *replies;
    size_t nreplies;
    s_pending_reply *deferred;   /* frames taken while the previous round's fdatasyncs run */
    size_t ndeferred;
    int64_t watchdog_ms, last_watchdog;
};

static int s_zap_check(void *ctx, const char *domain, const uint8_t key[32]) {
    bd_server *self = ctx;
    (void)domain;
    /* Both endpoints (ZAP_DOMAIN_REQUESTS, ZAP_DOMAIN_EVENTS) admit the same keys:
     * admin keys, and the seat and spectator keys of the games (docs/protocol.md
     * P3, P8). An unknown key cannot even subscribe, so it cannot measure the
     * sealed notices. A key cut for abuse is refused until its ban ends (fair.h). */
    if (self->fair && fair_banned(self->fair, key, clock_now_ms())) return 0;
    return engine_key_known(self->engine, key);
}

static int s_set(void *sock, int opt, const void *val, size_t len, const char *name, char *err, size_t errlen) {
    if (zmq_setsockopt(sock, opt, val, len) == 0) return 0;
    snprintf(err, errlen, "cannot set %s: %s", name, zmq_strerror(errno));
    return -1;
}

static int s_set_int(void *sock, int opt, int v, const char *name, char *err, size_t errlen) {
    return s_set(sock, opt, &v, sizeof v, name, err, errlen);
}

static int s_common(bd_server *self, void *sock, const char *domain, char *err, size_t errlen) {
    const bd_config *c = self->cfg;
    int64_t maxmsg = (int64_t)c->max_message * 2;   /* above: the peer is dropped */
    if (s_set_int(sock, ZMQ_LINGER, 0, "ZMQ_LINGER", err, errlen) ||
        s_set_int(sock, ZMQ_SNDHWM, c->hwm, "ZMQ_SNDHWM", err, errlen) ||
        s_set_int(sock, ZMQ_RCVHWM, c->hwm, "ZMQ_RCVHWM", err, errlen) ||
        s_set(sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg, "ZMQ_MAXMSGSIZE", err, errlen) ||
        s_set_int(sock, ZMQ_HEARTBEAT_IVL, c->heartbeat_ms, "ZMQ_HEARTBEAT_IVL", err, errlen) ||
        s_set_int(sock, ZMQ_HEARTBEAT_TIMEOUT, c->heartbeat_ms * 3, "ZMQ_HEARTBEAT_TIMEOUT", err, errlen) ||
        s_set_int(sock, ZMQ_HEARTBEAT_TTL, c->heartbeat_ms * 3, "ZMQ_HEARTBEAT_TTL", err, errlen) ||
        s_set(sock, ZMQ_ZAP_DOMAIN, domain, strlen(domain), "ZMQ_ZAP_DOMAIN", err, errlen) ||
        s_set_int(sock, ZMQ_CURVE_SERVER, 1, "ZMQ_CURVE_SERVER", err, errlen) ||
        s_set(sock, ZMQ_CURVE_SECRETKEY, self->keys->server_sk, 32, "ZMQ_CURVE_SECRETKEY", err, errlen))
        return -1;
#ifdef ZMQ_ZAP_ENFORCE_DOMAIN
    (void)zmq_setsockopt(sock, ZMQ_ZAP_ENFORCE_DOMAIN, &(int){1}, sizeof(int));
#endif
    return 0;
}

static int s_bind(void *sock, const char *endpoint, char *err, size_t errlen) {
    if (strncmp(endpoint, "ipc://", 6) == 0) {
        /* A socket file left by a daemon that died: nobody listens there now. */
        struct stat st;
        if (stat(endpoint + 6, &st) == 0 && S_ISSOCK(st.st_mode)) unlink(endpoint + 6);
    }
    /* ipc sockets are open to every local user: CURVE and ZAP decide who
     * gets in, not the file mode (connect needs write permission). */
    mode_t old = umask(0);
    int rc = zmq_bind(sock, endpoint);
    int saved = errno;
    umask(old);
    if (rc != 0) {
        snprintf(err, errlen, "cannot bind %s: %s", endpoint, zmq_strerror(saved));
        return -1;
    }
    return 0;
}

bd_server *server_new(const bd_config *cfg, bd_keys *keys, bd_engine *engine, char *err, size_t errlen) {
    bd_server *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->cfg = cfg;
    self->keys = keys;
    self->engine = engine;
    self->ctx = zmq_ctx_new();
    if (!self->ctx) {
        snprintf(err, errlen, "cannot create a ZeroMQ context");
        free(self);
        return NULL;
    }
    if (!zmq_has("curve")) {
        snprintf(err, errlen, "this libzmq has no CURVE support");
        goto fail;
    }
    /* The ZAP handler first: without it libzmq would admit every CURVE client. */
    self->zap = zap_new(self->ctx, s_zap_check, self);
    if (!self->zap) {
        snprintf(err, errlen, "cannot bind the ZAP handler; refusing to serve without authentication");
        goto fail;
    }
    self->router = zmq_socket(self->ctx, ZMQ_ROUTER);
    self->pub = zmq_socket(self->ctx, ZMQ_PUB);
    if (!self->router || !self->pub) {
        snprintf(err, errlen, "cannot create sockets: %s", zmq_strerror(errno));
        goto fail;
    }
    if (s_common(self, self->router, ZAP_DOMAIN_REQUESTS, err, errlen) ||
        s_set_int(self->router, ZMQ_ROUTER_MANDATORY, 1, "ZMQ_ROUTER_MANDATORY", err, errlen) ||
        s_common(self, self->pub, ZAP_DOMAIN_EVENTS, err, errlen))
        goto fail;
    /* Closed connections are forgotten by the budget (their key may open others). */
    if (zmq_socket_monitor(self->router, "inproc://berthierd-router-monitor", ZMQ_EVENT_DISCONNECTED) != 0 ||
        !(self->monitor = zmq_socket(self->ctx, ZMQ_PAIR)) ||
        s_set_int(self->monitor, ZMQ_LINGER, 0, "ZMQ_LINGER", err, errlen) ||
        zmq_connect(self->monitor, "inproc://berthierd-router-monitor") != 0) {
        snprintf(err, errlen, "cannot monitor the request socket: %s", zmq_strerror(errno));
        goto fail;
    }
    if (s_bind(self->router, cfg->listen, err, errlen) || s_bind(self->pub, cfg->publish, err, errlen)) goto fail;
    self->replies = calloc(cfg->batch, sizeof *self->replies);
    self->deferred = calloc(cfg->batch, sizeof *self->deferred);
    if (!self->replies || !self->deferred) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (unsigned i = 0; i < cfg->batch; i++) {
        buf_init(&self->replies[i].reply);
        buf_init(&self->deferred[i].reply);
    }
    self->fair = fair_new(cfg->rate, cfg->burst, cfg->share, 0);
    if (!self->fair) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    fair_set_abuse(self->fair, cfg->abuse_malformed, cfg->abuse_busy, cfg->abuse_window, cfg->ban_seconds);
    self->budget = budget_new(cfg->reply_budget, cfg->key_reply_budget, cfg->key_connections);
    if (!self->budget) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    self->watchdog_ms = notify_watchdog_ms();
    return self;
fail:
    server_destroy(&self);
    return NULL;
}

void server_destroy(bd_server **pself) {
    if (!pself || !*pself) return;
    bd_server *self = *pself;
    if (self->replies) {
        for (size_t i = 0; i < self->nreplies; i++) {   /* never sent: give their charges back */
            zmq_msg_close(&self->replies[i].identity);
            budget_refund(&self->replies[i].ticket);
        }
        for (unsigned i = 0; i < self->cfg->batch; i++) buf_free(&self->replies[i].reply);
        free(self->replies);
    }
    if (self->deferred) {
        for (size_t i = 0; i < self->ndeferred; i++) {
            zmq_msg_close(&self->deferred[i].identity);
            if (self->deferred[i].frame) zmq_msg_close(&self->deferred[i].body);
            budget_refund(&self->deferred[i].ticket);
        }
        for (unsigned i = 0; i < self->cfg->batch; i++) buf_free(&self->deferred[i].reply);
        free(self->deferred);
    }
    fair_destroy(&self->fair);
    if (self->monitor) {
        /* Stop the events first and read what is left: an event still in the
         * pipe when both ends close is never freed by libzmq. */
        if (self->router) (void)zmq_socket_monitor(self->router, NULL, 0);
        for (;;) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            int rc = zmq_msg_recv(&m, self->monitor, ZMQ_DONTWAIT);
            zmq_msg_close(&m);
            if (rc < 0) break;
        }
        zmq_close(self->monitor);
    }
    if (self->router) zmq_close(self->router);
    if (self->pub) zmq_close(self->pub);
    zap_destroy(&self->zap);
    /* Replies still queued in libzmq are freed by the context's end: their
     * accounts are reference-counted, the budget goes after. */
    if (self->ctx) zmq_ctx_term(self->ctx);
    budget_destroy(&self->budget);
    free(self);
    *pself = NULL;
}

/* Discard the rest of a multi-frame message. */
static void s_drain(void *sock) {
    int more = 1;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0) {
            zmq_msg_close(&m);
            return;
        }
        more = zmq_msg_more(&m);
        zmq_msg_close(&m);
    }
}

/* Send one reply (identity frame, reply frame); the slot can be used again. */
static void s_send_reply(bd_server *self, s_pending_reply *pr) {
    /* A reply to a peer that left is dropped (and the peer forgotten); a peer
     * over its HWM loses the reply and retries with the same id. The bytes
     * stay charged to the peer until libzmq has taken them (budget.h). */
    (void)budget_send(self->budget, self->router, &pr->identity, pr->key, pr->reply.data, pr->reply.len,
                      &pr->ticket);
    /* Do not keep a large reply's buffer (a log chunk) for every slot. */
    if (pr->reply.cap > (16u << 10)) buf_free(&pr->reply);
}

/* Charge the reply just built in the slot to its connection and key (budget.h). */
static void s_charge(bd_server *self, s_pending_reply *pr) {
    budget_charge(self->budget, pr->key, zmq_msg_data(&pr->identity), zmq_msg_size(&pr->identity), pr->reply.len,
                  &pr->ticket);
}

/* Where a frame came from: the fd of its connection (ZMQ_SRCFD, -1 unknown),
 * its routing id (the identity frame) and libzmq's Peer-Address. */
typedef struct {
    int fd;
    const uint8_t *rid;
    size_t rid_len;
    const char *peer;
} s_conn;

/* Cut the frame's connection (and ban the key with `ban`), see fair.h. */
static int s_punish(bd_server *self, const uint8_t key[32], const s_conn *c, int64_t now, int ban,
                    const char *why) {
    return fair_punish(self->fair, key, c->fd, c->rid, c->rid_len, c->peer, now, ban, why);
}

/* A reply the engine built says the frame was malformed or oversize: count it
 * against the key (fair.h). `c` is the connection of the frame just received,
 * or NULL for a frame put off during a flush, whose connection is no longer
 * known for sure: then only the key is banned, and its connections are cut at
 * their next frame. */
static void s_note_reply(bd_server *self, const uint8_t key[32], const s_conn *c, int64_t now, const brt_buf *reply) {
    int code = decode_peek_reply_code(reply->data, reply->len);
    if (code != BERTHIER__V1__CODE__CODE_MALFORMED && code != BERTHIER__V1__CODE__CODE_TOO_LARGE) return;
    if (!fair_note_malformed(self->fair, key, now)) return;
    if (c)
        s_punish(self, key, c, now, 1, "too many malformed frames");
    else
        fair_punish(self->fair, key, -1, NULL, 0, NULL, now, 1, "too many malformed frames");
}

/*
 * Take one frame. 1 = a frame was taken, 0 = nothing waiting.
 *
 * Admission comes first, before anything looks inside the frame (fair.h):
 * a frame over its key's rate is answered CODE_BUSY at once, or in order
 * behind a reply of the same key already queued in this round, and never
 * reaches the engine nor takes a place in the round's work. Then a revoked
 * key is refused (CODE_UNAUTHORIZED, in order); only then is the frame
 * decoded and served. A query the engine may answer at once (its answer is
 * already durable) is sent now; every other reply waits for the round's sync.
 *
 * flushing: the previous round's fdatasyncs are under way and no input may be
 * applied. A durable query is still answered at once (engine_try_now); every
 * other frame, and every refusal, is put off in order (self->deferred) and
 * served when the flush has ended (s_run_deferred).
 */
static int s_take(bd_server *self, int flushing) {
    s_pending_reply *pr = flushing ? &self->deferred[self->ndeferred] : &self->replies[self->nreplies];
    zmq_msg_init(&pr->identity);
    if (zmq_msg_recv(&pr->identity, self->router, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&pr->identity);
        return 0;
    }
    self->nframes++;
    if (!zmq_msg_more(&pr->identity)) {   /* cannot happen on a ROUTER; drop it */
        zmq_msg_close(&pr->identity);
        return 1;
    }
    zmq_msg_t body;
    zmq_msg_init(&body);
    if (zmq_msg_recv(&body, self->router, 0) < 0) {
        zmq_msg_close(&body);
        zmq_msg_close(&pr->identity);
        return 1;
    }
    int extra = zmq_msg_more(&body);
    if (extra) s_drain(self->router);
    buf_reset(&pr->reply);
    pr->frame = 0;
    uint8_t key[32];
    const char *user = zmq_msg_gets(&body, "User-Id");
    if (!user || strlen(user) != 40 || !zmq_z85_decode(key, user)) {
        /* ZAP admitted nobody without a key: a broken invariant of libzmq or ours. */
        log_err("a request arrived without an authenticated key; dropped");
        zmq_msg_close(&body);
        zmq_msg_close(&pr->identity);
        return 1;
    }
    const uint8_t *data = zmq_msg_data(&body);
    size_t len = zmq_msg_size(&body);
    /* The connection the frame came from, for cutting it (fair.h): acted on
     * only now, for this frame, never later from a stored fd number. */
    int64_t now = clock_now_ms();
    s_conn conn = {zmq_msg_get(&body, ZMQ_SRCFD), zmq_msg_data(&pr->identity), zmq_msg_size(&pr->identity),
                   zmq_msg_gets(&body, "Peer-Address")};
    if (fair_frame(self->fair, key, conn.fd, conn.rid, conn.rid_len, now)) {
        /* A leftover frame of a connection the daemon cut: nobody to answer. */
        zmq_msg_close(&body);
        zmq_msg_close(&pr->identity);
        return 1;
    }
    memcpy(pr->key, key, 32);
    int revoked = keys_is_revoked(self->keys, key), banned = fair_banned(self->fair, key, now);
    if ((revoked || banned) &&
        s_punish(self, key, &conn, now, 0, revoked ? "revoked key" : "banned key")) {
        zmq_msg_close(&body);
        zmq_msg_close(&pr->identity);
        return 1;
    }
    /* Bounded resources (budget.h): a peer that does not read its replies is
     * not served; a key over its budget or its connections is refused. */
    budget_verdict bv = budget_frame(self->budget, key, conn.rid, conn.rid_len, conn.fd);
    if (bv == BUDGET_OVER_CONN) {
        zmq_msg_close(&body);
        zmq_msg_close(&pr->identity);
        return 1;
    }
    if (bv != BUDGET_OK) {
        if (bv == BUDGET_TOO_MANY)
            engine_refuse(&pr->reply, decode_peek_request_id(data, len),
                          BERTHIER__V1__CODE__CODE_TOO_MANY_CONNECTIONS,
                          "your key has as many live connections as the daemon serves for one key "
                          "(key-connections); nothing was done: use one of them, or close one");
        else
            engine_refuse(&pr->reply, decode_peek_request_id(data, len), BERTHIER__V1__CODE__CODE_BUSY,
                          "your key has too many replies it has not read (key-reply-budget); nothing was "
                          "done: read them, then retry with the same request id");
        zmq_msg_close(&body);
        s_charge(self, pr);
        /* in order behind any reply of the round (never ahead of one) */
        if (flushing) self->ndeferred++;
        else self->nreplies++;
        return 1;
    }
    fair_verdict v = fair_admit(self->fair, key, now);
    if (v != FAIR_ADMIT) {
        engine_refuse(&pr->reply, decode_peek_request_id(data, len), BERTHIER__V1__CODE__CODE_BUSY,
                      "too many requests from your key (rate limit); nothing was done: "
                      "retry later with the same request id");
        zmq_msg_close(&body);
        s_charge(self, pr);
        if (fair_note_busy(self->fair, key, now)) s_punish(self, key, &conn, now, 1, "over its rate too often");
        if (flushing) self->ndeferred++;
        else if (v == FAIR_OVER_NOW) s_send_reply(self, pr);   /* the slot is free again */
        else self->nreplies++;
        return 1;
    }
    if (revoked) {
        engine_refuse(&pr->reply, decode_peek_request_id(data, len), BERTHIER__V1__CODE__CODE_UNAUTHORIZED,
                      "your key has been revoked by the operator: no request of it is served any more");
    } else if (banned) {   /* its connection could not be cut */
        engine_refuse(&pr->reply, decode_peek_request_id(data, len), BERTHIER__V1__CODE__CODE_BUSY,
                      "your key is banned for a while for abuse (malformed frames or over its rate); "
                      "nothing was done: retry later with the same request id");
    } else if (extra) {
        Berthier__V1__Reply r = BERTHIER__V1__REPLY__INIT;
        r.code = BERTHIER__V1__CODE__CODE_MALFORMED;
        r.rule = (char *)"P2";
        r.message = (char *)"a request is exactly one frame holding the Request bytes";
        size_t n = protobuf_c_message_get_packed_size(&r.base);
        if (buf_reserve(&pr->reply, n) != 0) fatal("out of memory");
        protobuf_c_message_pack(&r.base, pr->reply.data);
        pr->reply.len = n;
        if (fair_note_malformed(self->fair, key, now)) s_punish(self, key, &conn, now, 1, "too many malformed frames");
    } else if (flushing ? engine_try_now(self->engine, key, data, len, &pr->reply)
                        : engine_handle(self->engine, key, data, len, &pr->reply)) {
        /* A query whose answer is already durable (engine.h): it leaves now,
         * without waiting for any fdatasync. */
        zmq_msg_close(&body);
        /* During a flush it only used time the loop would spend waiting for the
         * disk: it takes no place in the next round's batch nor its key's share. */
        if (flushing) self->nframes--;
        fair_answered(self->fair, flushing);
        s_charge(self, pr);
        s_send_reply(self, pr);   /* the slot is free again */
        return 1;
    } else if (flushing) {
        /* Put off whole: served after the flush, in order. */
        zmq_msg_init(&pr->body);
        zmq_msg_move(&pr->body, &body);
        pr->frame = 1;
    } else {
        s_note_reply(self, key, &conn, now, &pr->reply);
    }
    if (!pr->frame) s_charge(self, pr);
    zmq_msg_close(&body);
    if (flushing) self->ndeferred++;
    else self->nreplies++;
    return 1;
}

/* The flush has ended and its round's replies are out: serve the frames put
 * off meanwhile, in the order they came, as the first of the new round. */
static void s_run_deferred(bd_server *self) {
    for (size_t i = 0; i < self->ndeferred; i++) {
        s_pending_reply *d = &self->deferred[i];
        s_pending_reply *pr = &self->replies[self->nreplies];
        zmq_msg_init(&pr->identity);
        zmq_msg_move(&pr->identity, &d->identity);
        zmq_msg_close(&d->identity);
        if (!d->frame) {
            /* a refusal built when the frame came: it waits for the round (in order) */
            brt_buf t = pr->reply;
            pr->reply = d->reply;
            d->reply = t;
            memcpy(pr->key, d->key, 32);
            pr->ticket = d->ticket;
            memset(&d->ticket, 0, sizeof d->ticket);
            self->nreplies++;
            continue;
        }
        buf_reset(&pr->reply);
        memcpy(pr->key, d->key, 32);
        int now = engine_handle(self->engine, d->key, zmq_msg_data(&d->body), zmq_msg_size(&d->body), &pr->reply);
        zmq_msg_close(&d->body);
        d->frame = 0;
        s_note_reply(self, d->key, NULL, clock_now_ms(), &pr->reply);
        s_charge(self, pr);
        if (now) s_send_reply(self, pr);
        else self->nreplies++;
    }
    self->ndeferred = 0;
}

/* The ROUTER's monitor: each ZMQ_EVENT_DISCONNECTED names the fd of a closed
 * connection (first frame: u16 event, u32 value; second: the endpoint). */
static void s_monitor_events(bd_server *self) {
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, self->monitor, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return;
        }
        int more = zmq_msg_more(&m);
        if (zmq_msg_size(&m) == 6) {
            const uint8_t *p = zmq_msg_data(&m);
            uint16_t ev;
            uint32_t value;
            memcpy(&ev, p, 2);
            memcpy(&value, p + 2, 4);
            if (ev == ZMQ_EVENT_DISCONNECTED) budget_disconnected(self->budget, (int)value);
        }
        zmq_msg_close(&m);
        if (more) s_drain(self->monitor);
    }
}

static void s_watchdog(bd_server *self, int64_t now) {
    if (self->watchdog_ms && now - self->last_watchdog >= self->watchdog_ms / 2) {
        notify_send("WATCHDOG=1");
        self->last_watchdog = now;
    }
}

static void s_send_replies(bd_server *self) {
    for (size_t i = 0; i < self->nreplies; i++) s_send_reply(self, &self->replies[i]);
    self->nreplies = 0;
}

static int s_is_revoked(void *ctx, const uint8_t key[32]) { return keys_is_revoked(ctx, key); }

static void s_reload_keys(bd_server *self) {
    char err[1200];
    if (keys_reload(self->keys, self->cfg->data_dir, err, sizeof err) == 0) {
        log_info("keys reloaded: %zu admin keys, %zu revoked keys", self->keys->n_admins, self->keys->n_revoked);
        /* Open connections of revoked keys end now; one not seen yet ends at its next frame. */
        fair_cut_keys(self->fair, s_is_revoked, self->keys, "revoked key");
    } else
        log_err("keys not reloaded, the keys in force stay: %s", err);
}

static void s_publish(bd_server *self) {
    bd_notice *n;
    size_t count;
    engine_take_notices(self->engine, &n, &count);
    for (size_t i = 0; i < count; i++) {
        if (zmq_send(self->pub, n[i].topic, strlen(n[i].topic), ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0)
            zmq_send(self->pub, n[i].body, n[i].len, ZMQ_DONTWAIT);
    }
    engine_free_notices(n, count);
}

static int s_round_full(const bd_server *self) {
    return self->nframes >= self->cfg->batch || fair_round_full(self->fair);
}

/*
 * The loop of commit rounds. Round N's fdatasyncs run on a thread
 * (engine_sync_start); meanwhile the loop keeps reading frames: durable
 * queries are answered at once, everything else is put off for round N+1.
 * When the flush has ended, round N's replies and notices go out, then the
 * frames put off are served, then round N+1 takes what else is waiting,
 * writes, and starts its own flush.
 */
int server_run(bd_server *self, volatile sig_atomic_t *stop, volatile sig_atomic_t *reload) {
    self->last_watchdog = clock_now_ms();
    int flushing = 0;
    fair_round_begin(self->fair);
    self->nframes = 0;
    while (!*stop || flushing) {
        int64_t now = clock_now_ms();
        /* During a flush no timeout can be fed: wake for the flush's end instead. */
        long timeout = flushing ? 1000 : engine_next_timeout(self->engine, now);
        if (timeout < 0 || timeout > 1000) timeout = 1000;
        if (self->watchdog_ms) {
            long w = (long)(self->watchdog_ms / 2 - (now - self->last_watchdog));
            if (w < 0) w = 0;
            if (w < timeout) timeout = w;
        }
        zmq_pollitem_t items[4];
        int nitems = 0;
        items[nitems++] = (zmq_pollitem_t){zap_socket(self->zap), 0, ZMQ_POLLIN, 0};
        items[nitems++] = (zmq_pollitem_t){self->monitor, 0, ZMQ_POLLIN, 0};
        if (!*stop && !s_round_full(self)) items[nitems++] = (zmq_pollitem_t){self->router, 0, ZMQ_POLLIN, 0};
        if (flushing) {
            items[nitems++] = (zmq_pollitem_t){NULL, engine_sync_fd(self->engine), ZMQ_POLLIN, 0};
        }
        int rc = zmq_poll(items, nitems, timeout);
        if (rc < 0 && errno != EINTR) {
            log_err("zmq_poll: %s", zmq_strerror(errno));
            return -1;
        }
        if (reload && *reload) {
            *reload = 0;
            s_reload_keys(self);
        }
        zap_serve(self->zap);
        s_monitor_events(self);
        /* During a flush, stop taking as soon as the disk is done: the round's
         * replies must not wait for the frames of the next one. */
        unsigned taken = 0;
        while (!*stop && !s_round_full(self) && !(flushing && engine_sync_done(self->engine)) &&
               s_take(self, flushing)) {
            /* Serve handshakes between requests so that new peers are not starved. */
            if ((++taken & 63) == 0) zap_serve(self->zap);
        }
        char err[512];
        if (flushing) {
            if (!engine_sync_done(self->engine)) {
                s_watchdog(self, clock_now_ms());
                continue;   /* the disk is still at work */
            }
            flushing = 0;
            if (engine_sync_finish(self->engine, err, sizeof err) != 0) {
                /* Fail-stop: nothing of this round is acknowledged; a restart
                 * recovers the valid prefix of the log. */
                log_err("%s; stopping without acknowledging the round", err);
                return -1;
            }
            s_send_replies(self);
            s_publish(self);
            s_run_deferred(self);
            while (!*stop && !s_round_full(self) && s_take(self, 0)) {
                if ((++taken & 63) == 0) zap_serve(self->zap);
            }
        }
        now = clock_now_ms();
        engine_clocks(self->engine, now);
        int started = engine_sync_start(self->engine, err, sizeof err);
        if (started == 0 && engine_sync_finish(self->engine, err, sizeof err) != 0) started = -1;
        if (started < 0) {
            log_err("%s; stopping without acknowledging the round", err);
            return -1;
        }
        if (started == 0) {
            s_send_replies(self);
            s_publish(self);
        } else {
            flushing = 1;
        }
        /* The next round opens: frames taken during the flush belong to it. */
        fair_round_begin(self->fair);
        self->nframes = 0;
        s_watchdog(self, now);
    }
    return 0;
}
