/*
 * client.c - the C client library for berthierd (see berthier/client.h).
 *
 * Retries: one request is encoded once; every attempt sends those exact bytes.
 * When an attempt gets no reply in time the DEALER socket is closed and a new
 * one connects (a daemon restart leaves the old one waiting on a dead peer),
 * then the same bytes go out again, until the total timeout runs out. Replies
 * whose request id is not the one we wait for are dropped.
 *
 * Seat signatures (docs/protocol.md P3.1): brt_client_call signs every input
 * (join, submit, resign, reveal) that carries no signature yet, with the key
 * derived from the client's CURVE secret key, over the game's header hash. The
 * header is fetched and checked (brt_client_header) the first time a game is
 * used and its hash kept; a join binds the key and the hash.
 */
#include "berthier/client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <zmq.h>

#include "seatsign.h"

#define S_DEFAULT_ATTEMPT_MS 2000
#define S_DEFAULT_TOTAL_MS 30000
#define S_MAX_REPLY (64u << 20)

struct brt_client {
    void *ctx;
    void *sock;
    void *mon;                  /* PAIR on the socket monitor of sock (handshake failures) */
    unsigned mon_seq;
    int handshake_failed;       /* a handshake failed without a refusal (wrong server key?) */
    char *endpoint;
    char *events_endpoint;
    char server_z85[BRT_Z85_KEY_LEN + 1];
    brt_keypair kp;
    int attempt_ms;
    int total_ms;
    Berthier__V1__Reply *reply;
    int code;
    char rule[64];
    char message[512];
    char error[768];
    uint64_t last_id;
    /* receipts (receipt.c): the daemon's signing key, pinned, and the last request sent */
    uint8_t sign_pk[32];
    int have_sign_pk;
    uint8_t *last_req;
    size_t last_req_len;
    /* seat signatures */
    uint8_t curve_pk[32];
    uint8_t seat_pk[32], seat_sk[64];   /* this client's seat signing key */
    struct {
        char game_id[BRT_GAME_ID_MAX + 1];
        unsigned seat;
        uint8_t hash[32];
    } headers[8];               /* header hashes checked, most recent first */
    size_t n_headers;
    /* P4.3: what join, submit, reveal, resign and pending ask the reply to carry */
    unsigned want_flags, want_limit;
    Berthier__V1__Want want;
};

struct brt_sub {
    void *sock;
    char topic[BRT_GAME_ID_MAX + 32];
    int sealed;
    uint8_t key[BRT_EVENT_KEY_BYTES];
    uint64_t dropped;
};

static _Thread_local char s_last_error[512];

static void s_set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void s_set_last_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s_last_error, sizeof s_last_error, fmt, ap);
    va_end(ap);
}

const char *brt_client_last_error(void) { return s_last_error; }

static int64_t s_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void s_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static int s_sodium_ready(void) { return sodium_init() >= 0 ? 0 : -1; }

/* ---- keys ------------------------------------------------------------------ */

static int s_is_z85_key(const char *s) {
    if (!s || strlen(s) != BRT_Z85_KEY_LEN) return 0;
    uint8_t raw[32];
    return zmq_z85_decode(raw, s) != NULL;
}

static void s_trim(char *s) {
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

int brt_keypair_generate(brt_keypair *out) {
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    return zmq_curve_keypair(out->public_z85, out->secret_z85) == 0 ? 0 : -1;
}

int brt_keypair_load(brt_keypair *out, const char *path) {
    if (!out || !path) return -1;
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    int have_pub = 0, have_sec = 0;
    while (fgets(line, sizeof line, f)) {
        s_trim(line);
        if (strncmp(line, "public ", 7) == 0 && s_is_z85_key(line + 7)) {
            memcpy(out->public_z85, line + 7, BRT_Z85_KEY_LEN + 1);
            have_pub = 1;
        } else if (strncmp(line, "secret ", 7) == 0 && s_is_z85_key(line + 7)) {
            memcpy(out->secret_z85, line + 7, BRT_Z85_KEY_LEN + 1);
            have_sec = 1;
        }
    }
    fclose(f);
    sodium_memzero(line, sizeof line);
    if (!have_pub || !have_sec) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

static int s_write_file(const char *path, const char *text, mode_t mode) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) return -1;
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            unlink(path);
            errno = e;
            return -1;
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) return -1;
    return 0;
}

int brt_keypair_save(const brt_keypair *kp, const char *name) {
    if (!kp || !name || !*name) {
        errno = EINVAL;
        return -1;
    }
    size_t n = strlen(name) + 8;
    char *key_path = malloc(n), *pub_path = malloc(n);
    char text[128];
    int rc = -1;
    if (!key_path || !pub_path) goto done;
    snprintf(key_path, n, "%s.key", name);
    snprintf(pub_path, n, "%s.pub", name);
    snprintf(text, sizeof text, "public %s\nsecret %s\n", kp->public_z85, kp->secret_z85);
    if (s_write_file(key_path, text, 0600) != 0) goto done;
    snprintf(text, sizeof text, "%s\n", kp->public_z85);
    if (s_write_file(pub_path, text, 0644) != 0) {
        int e = errno;
        unlink(key_path);
        errno = e;
        goto done;
    }
    rc = 0;
done:
    sodium_memzero(text, sizeof text);
    free(key_path);
    free(pub_path);
    return rc;
}

int brt_pubkey_resolve(const char *arg, char out_z85[BRT_Z85_KEY_LEN + 1]) {
    if (!arg || !out_z85) return -1;
    if (s_is_z85_key(arg)) {
        memcpy(out_z85, arg, BRT_Z85_KEY_LEN + 1);
        return 0;
    }
    FILE *f = fopen(arg, "r");
    if (!f) return -1;
    char line[256];
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        s_trim(line);
        const char *k = line;
        if (strncmp(k, "public ", 7) == 0) k += 7;
        if (s_is_z85_key(k)) {
            memcpy(out_z85, k, BRT_Z85_KEY_LEN + 1);
            rc = 0;
            break;
        }
    }
    fclose(f);
    if (rc != 0) errno = EINVAL;
    return rc;
}

int brt_pubkey_raw(const char *z85, uint8_t out[32]) {
    if (!s_is_z85_key(z85)) return -1;
    return zmq_z85_decode(out, z85) ? 0 : -1;
}

/* ---- connection -------------------------------------------------------------- */

static int s_set_curve(void *sock, const brt_client *self) {
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, self->server_z85, BRT_Z85_KEY_LEN + 1) != 0)
        return -1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, self->kp.public_z85, BRT_Z85_KEY_LEN + 1) != 0)
        return -1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, self->kp.secret_z85, BRT_Z85_KEY_LEN + 1) != 0)
        return -1;
    int linger = 0;
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    int ivl = 100, ivl_max = 1000;
    zmq_setsockopt(sock, ZMQ_RECONNECT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(sock, ZMQ_RECONNECT_IVL_MAX, &ivl_max, sizeof ivl_max);
    return 0;
}

static void s_close_socket(brt_client *self) {
    if (self->sock) {
        if (self->mon) zmq_socket_monitor(self->sock, NULL, 0);
        zmq_close(self->sock);
        self->sock = NULL;
    }
    if (self->mon) {
        zmq_close(self->mon);
        self->mon = NULL;
    }
}

/* Watch the socket's handshakes: the daemon's ZAP handler refuses a key it does not
 * know with a CURVE ERROR (ZMQ_EVENT_HANDSHAKE_FAILED_AUTH), after which no request
 * on that connection is ever read. Without the monitor the client would wait for
 * its whole timeout. A monitor that cannot be set up leaves only the timeout. */
static void s_open_monitor(brt_client *self, void *sock) {
    char ep[96];
    snprintf(ep, sizeof ep, "inproc://brt-client-monitor-%p-%u", (void *)self, ++self->mon_seq);
    int events = ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
                 ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL;
    if (zmq_socket_monitor(sock, ep, events) != 0) return;
    void *mon = zmq_socket(self->ctx, ZMQ_PAIR);
    int linger = 0;
    if (!mon || zmq_setsockopt(mon, ZMQ_LINGER, &linger, sizeof linger) != 0 || zmq_connect(mon, ep) != 0) {
        if (mon) zmq_close(mon);
        zmq_socket_monitor(sock, NULL, 0);
        return;
    }
    self->mon = mon;
}

static int s_open_socket(brt_client *self) {
    s_close_socket(self);
    void *s = zmq_socket(self->ctx, ZMQ_DEALER);
    if (!s) return -1;
    if (s_set_curve(s, self) != 0) {
        int e = errno;
        zmq_close(s);
        errno = e;
        return -1;
    }
    s_open_monitor(self, s);
    if (zmq_connect(s, self->endpoint) != 0) {
        int e = errno;
        self->sock = s;
        s_close_socket(self);
        errno = e;
        return -1;
    }
    self->sock = s;
    return 0;
}

/* Read one monitor event: its number, or 0 when there is none (or it is cut). */
static int s_monitor_event(brt_client *self) {
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, self->mon, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&m);
        return 0;
    }
    int ev = 0;
    if (zmq_msg_size(&m) >= 2) {
        uint16_t n;
        memcpy(&n, zmq_msg_data(&m), 2);
        ev = n;
    }
    while (zmq_msg_more(&m)) { /* the endpoint frame */
        zmq_msg_close(&m);
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, self->mon, ZMQ_DONTWAIT) < 0) break;
    }
    zmq_msg_close(&m);
    return ev;
}

static char *s_default_events_endpoint(const char *endpoint) {
    const char *suffix = "berthier.sock";
    size_t n = strlen(endpoint), m = strlen(suffix);
    if (strncmp(endpoint, "ipc://", 6) != 0 || n < m || strcmp(endpoint + n - m, suffix) != 0)
        return NULL;
    size_t out_len = n - m + strlen("events.sock") + 1;
    char *out = malloc(out_len);
    if (!out) return NULL;
    snprintf(out, out_len, "%.*sevents.sock", (int)(n - m), endpoint);
    return out;
}

brt_client *brt_client_new_keypair(const char *endpoint, const char *server_pubkey_z85,
                                   const brt_keypair *client) {
    if (!endpoint || !server_pubkey_z85 || !client) {
        s_set_last_error("missing endpoint, server key or client key");
        errno = EINVAL;
        return NULL;
    }
    if (s_sodium_ready() != 0) {
        s_set_last_error("libsodium failed to initialise");
        return NULL;
    }
    if (!s_is_z85_key(server_pubkey_z85) || !s_is_z85_key(client->public_z85) ||
        !s_is_z85_key(client->secret_z85)) {
        s_set_last_error("a key is not 40 characters of Z85");
        errno = EINVAL;
        return NULL;
    }
    brt_client *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->ctx = zmq_ctx_new();
    self->endpoint = strdup(endpoint);
    self->events_endpoint = s_default_events_endpoint(endpoint);
    memcpy(self->server_z85, server_pubkey_z85, BRT_Z85_KEY_LEN + 1);
    self->kp = *client;
    uint8_t curve_sk[32];
    if (!zmq_z85_decode(self->curve_pk, client->public_z85) || !zmq_z85_decode(curve_sk, client->secret_z85) ||
        brt_seatsign_derive(curve_sk, self->seat_pk, self->seat_sk) != 0) {
        sodium_memzero(curve_sk, sizeof curve_sk);
        s_set_last_error("cannot derive the seat signing key");
        brt_client_destroy(&self);
        return NULL;
    }
    sodium_memzero(curve_sk, sizeof curve_sk);
    self->attempt_ms = S_DEFAULT_ATTEMPT_MS;
    self->total_ms = S_DEFAULT_TOTAL_MS;
    self->code = BRT_CODE_OK;
    if (!self->ctx || !self->endpoint) {
        s_set_last_error("out of memory");
        brt_client_destroy(&self);
        return NULL;
    }
    if (s_open_socket(self) != 0) {
        s_set_last_error("cannot connect to %s: %s", endpoint, zmq_strerror(errno));
        brt_client_destroy(&self);
        return NULL;
    }
    return self;
}

brt_client *brt_client_new(const char *endpoint, const char *server_pubkey_z85,
                           const char *client_key_file) {
    brt_keypair kp;
    if (!client_key_file || brt_keypair_load(&kp, client_key_file) != 0) {
        s_set_last_error("cannot read client key file %s (two lines: public <z85>, secret <z85>)",
                         client_key_file ? client_key_file : "(none)");
        return NULL;
    }
    brt_client *self = brt_client_new_keypair(endpoint, server_pubkey_z85, &kp);
    sodium_memzero(&kp, sizeof kp);
    return self;
}

/* Pin the signing key from a file whose first line is its 64 hex characters
 * (the daemon's sign.pub), if there is one. */
static void s_pin_from_file(brt_client *self, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[160];
    uint8_t pk[32];
    size_t n = 0;
    if (fgets(line, sizeof line, f)) {
        s_trim(line);
        if (strlen(line) == 64 && sodium_hex2bin(pk, 32, line, 64, NULL, &n, NULL) == 0 && n == 32)
            brt_client_pin_sign_key(self, pk);
    }
    fclose(f);
}

brt_client *brt_client_new_data_dir(const char *data_dir) {
    if (!data_dir) data_dir = "./var/berthier";
    size_t n = strlen(data_dir) + 64;
    char *path = malloc(n);
    if (!path) return NULL;
    char server[BRT_Z85_KEY_LEN + 1];
    brt_client *self = NULL;
    snprintf(path, n, "%s/server.pub", data_dir);
    if (brt_pubkey_resolve(path, server) != 0) {
        s_set_last_error("cannot read the server key %s", path);
        goto done;
    }
    brt_keypair kp;
    snprintf(path, n, "%s/admin.key", data_dir);
    if (brt_keypair_load(&kp, path) != 0) {
        s_set_last_error("cannot read the admin key %s", path);
        goto done;
    }
    snprintf(path, n, "ipc://%s/berthier.sock", data_dir);
    self = brt_client_new_keypair(path, server, &kp);
    sodium_memzero(&kp, sizeof kp);
    snprintf(path, n, "%s/sign.pub", data_dir);
    if (self) s_pin_from_file(self, path);
done:
    free(path);
    return self;
}

brt_client *brt_client_open(const brt_connect_opts *o) {
    brt_connect_opts none = {0};
    if (!o) o = &none;
    const char *dir = o->data_dir;
    if (!dir) dir = getenv("STATE_DIRECTORY");
    if (!dir || !*dir) dir = "./var/berthier";
    size_t n = strlen(dir) + 64;
    char *path = malloc(n);
    if (!path) return NULL;
    brt_client *self = NULL;
    char server[BRT_Z85_KEY_LEN + 1];
    snprintf(path, n, "%s/server.pub", dir);
    const char *sk = o->server_key ? o->server_key : path;
    if (brt_pubkey_resolve(sk, server) != 0) {
        s_set_last_error("cannot read the server key from %s", sk);
        goto done;
    }
    brt_keypair kp;
    snprintf(path, n, "%s/admin.key", dir);
    const char *kf = o->key_file ? o->key_file : path;
    if (brt_keypair_load(&kp, kf) != 0) {
        s_set_last_error("cannot read the client key file %s (two lines: public <z85>, secret <z85>)",
                         kf);
        goto done;
    }
    snprintf(path, n, "ipc://%s/berthier.sock", dir);
    self = brt_client_new_keypair(o->endpoint ? o->endpoint : path, server, &kp);
    sodium_memzero(&kp, sizeof kp);
    if (self && o->events_endpoint) brt_client_set_events_endpoint(self, o->events_endpoint);
    snprintf(path, n, "%s/sign.pub", dir);
    if (self) s_pin_from_file(self, path);
done:
    free(path);
    return self;
}

void brt_client_destroy(brt_client **pself) {
    if (!pself || !*pself) return;
    brt_client *self = *pself;
    s_close_socket(self);
    if (self->ctx) zmq_ctx_term(self->ctx);
    if (self->reply) berthier__v1__reply__free_unpacked(self->reply, NULL);
    free(self->last_req);
    free(self->endpoint);
    free(self->events_endpoint);
    sodium_memzero(&self->kp, sizeof self->kp);
    free(self);
    *pself = NULL;
}

void brt_client_set_timeout(brt_client *self, int attempt_ms, int total_ms) {
    if (!self) return;
    if (attempt_ms > 0) self->attempt_ms = attempt_ms;
    if (total_ms > 0) self->total_ms = total_ms;
    if (self->total_ms < self->attempt_ms) self->total_ms = self->attempt_ms;
}

int brt_client_set_events_endpoint(brt_client *self, const char *endpoint) {
    if (!self || !endpoint) return -1;
    char *copy = strdup(endpoint);
    if (!copy) return -1;
    free(self->events_endpoint);
    self->events_endpoint = copy;
    return 0;
}

const char *brt_client_endpoint(const brt_client *self) { return self ? self->endpoint : NULL; }
const char *brt_client_events_endpoint(const brt_client *self) {
    return self ? self->events_endpoint : NULL;
}
const char *brt_client_server_key(const brt_client *self) {
    return self ? self->server_z85 : NULL;
}
const char *brt_client_public_key(const brt_client *self) {
    return self ? self->kp.public_z85 : NULL;
}

/* ---- outcome ------------------------------------------------------------------ */

static const char *const s_code_names[] = {
    "OK",           "MALFORMED",       "TOO_LARGE",    "UNAUTHORIZED",  "UNKNOWN_GAME",
    "NOT_YOUR_SEAT", "NOT_YOUR_DECISION", "STALE",      "ILLEGAL",       "GAME_OVER",
    "BAD_RULESET",  "BAD_SCENARIO",    "BAD_OPTION",   "BAD_SEATS",     "NOT_STARTED",
    "ALREADY_JOINED", "REQUEST_ID_REUSED", "BUSY",     "IO_ERROR",      "INTERNAL",
    "BAD_TEXT",     "BAD_REQUEST",
};

const char *brt_code_name(int code) {
    if (code == BRT_CLIENT_NO_REPLY) return "NO_REPLY";
    if (code == BRT_CLIENT_BAD_RECEIPT) return "BAD_RECEIPT";
    if (code >= 0 && (size_t)code < sizeof s_code_names / sizeof s_code_names[0])
        return s_code_names[code];
    return "?";
}

int brt_client_code(const brt_client *self) { return self ? self->code : BRT_CLIENT_NO_REPLY; }
const char *brt_client_rule(const brt_client *self) { return self ? self->rule : ""; }
const char *brt_client_message(const brt_client *self) { return self ? self->message : ""; }
const char *brt_client_error(const brt_client *self) { return self ? self->error : ""; }
const Berthier__V1__Reply *brt_client_reply(const brt_client *self) {
    return self ? self->reply : NULL;
}
uint64_t brt_client_last_request_id(const brt_client *self) { return self ? self->last_id : 0; }

static void s_reset_outcome(brt_client *self) {
    if (self->reply) berthier__v1__reply__free_unpacked(self->reply, NULL);
    self->reply = NULL;
    self->code = BRT_CLIENT_NO_REPLY;
    self->rule[0] = self->message[0] = self->error[0] = '\0';
}

static int s_no_reply(brt_client *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int s_no_reply(brt_client *self, const char *fmt, ...) {
    self->code = BRT_CLIENT_NO_REPLY;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(self->message, sizeof self->message, fmt, ap);
    va_end(ap);
    snprintf(self->error, sizeof self->error, "no reply from %s: %s", self->endpoint,
             self->message);
    return -1;
}

/* The message already carries "[rule]" when the daemon wrote it so; do not repeat it. */
static void s_format_error(brt_client *self) {
    const char *name = brt_code_name(self->code);
    char ref[80] = "";
    if (self->rule[0]) {
        snprintf(ref, sizeof ref, "[%s]", self->rule);
        if (strncmp(self->message, ref, strlen(ref)) == 0) ref[0] = '\0';
    }
    snprintf(self->error, sizeof self->error, "rejected %s%s%s%s%s", name, ref[0] ? " " : "", ref,
             self->message[0] ? " " : "", self->message);
}

/* ---- calls ------------------------------------------------------------------ */

static uint64_t s_fresh_id(void) {
    uint64_t id = 0;
    while (id == 0) randombytes_buf(&id, sizeof id);
    return id;
}

static int s_pin_by_hello(brt_client *self);
static int s_keep_request(brt_client *self, const uint8_t *req, size_t len);
static int s_check_receipt(brt_client *self);

/* Receive one reply frame (the last part of a multipart message). 1 = got it,
 * 0 = nothing within timeout, -1 = socket error, -2 = the daemon refused our key
 * at the handshake. */
static int s_recv_reply(brt_client *self, int timeout_ms, zmq_msg_t *out) {
    zmq_pollitem_t items[2] = {{self->sock, 0, ZMQ_POLLIN, 0}, {self->mon, 0, ZMQ_POLLIN, 0}};
    int rc = zmq_poll(items, self->mon ? 2 : 1, timeout_ms);
    if (rc < 0) return errno == EINTR ? 0 : -1;
    if (rc == 0) return 0;
    if (self->mon && (items[1].revents & ZMQ_POLLIN)) {
        int ev = s_monitor_event(self);
        if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) return -2;
        if (ev) self->handshake_failed = 1;
        if (!(items[0].revents & ZMQ_POLLIN)) return 0;
    }
    for (;;) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, self->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&part);
            return errno == EAGAIN ? 0 : -1;
        }
        int more = zmq_msg_more(&part);
        if (!more) {
            zmq_msg_move(out, &part);
            zmq_msg_close(&part);
            return 1;
        }
        zmq_msg_close(&part);
    }
}

int brt_client_call_raw(brt_client *self, const uint8_t *req, size_t len, uint64_t request_id) {
    if (!self) return -1;
    /* An input's reply carries a receipt signed by the daemon's key: pin the key first. */
    int input = brt_request_is_input(req, len);
    if (input && !self->have_sign_pk && s_pin_by_hello(self) != 0) return -1;
    s_reset_outcome(self);
    self->handshake_failed = 0;
    self->last_id = request_id;
    if (s_keep_request(self, req, len) != 0) return s_no_reply(self, "out of memory");
    int64_t deadline = s_now_ms() + self->total_ms;
    int busy_wait = 50;
    int resend = 1;
    int opened_here = 0;
    int64_t attempt_end = 0;
    for (;;) {
        int64_t now = s_now_ms();
        if (resend) {
            if (!self->sock) {
                if (s_open_socket(self) != 0) return s_no_reply(self, "cannot connect: %s", zmq_strerror(errno));
                opened_here = 1;
            }
            if (zmq_send(self->sock, req, len, ZMQ_DONTWAIT) < 0 && errno != EAGAIN)
                return s_no_reply(self, "send failed: %s", zmq_strerror(errno));
            resend = 0;
            attempt_end = now + self->attempt_ms;
            if (attempt_end > deadline) attempt_end = deadline;
        }
        int64_t wait = attempt_end - now;
        if (wait < 0) wait = 0;
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        int got = s_recv_reply(self, (int)wait, &msg);
        if (got == -2) {
            zmq_msg_close(&msg);
            s_close_socket(self);
            /* A socket opened before this call may have shaken hands before the daemon
             * knew the key (a seat's client made before its game was created): only a
             * refusal on a socket this call opened, after every reply the caller has
             * seen, tells that the daemon does not know the key. */
            if (opened_here) return s_no_reply(self, "%s", BRT_CLIENT_REFUSED_KEY);
            resend = 1;
            continue;
        }
        if (got < 0) {
            zmq_msg_close(&msg);
            s_close_socket(self);
        } else if (got == 1) {
            Berthier__V1__Reply *r = NULL;
            if (zmq_msg_size(&msg) <= S_MAX_REPLY)
                r = berthier__v1__reply__unpack(NULL, zmq_msg_size(&msg), zmq_msg_data(&msg));
            zmq_msg_close(&msg);
            if (!r || r->request_id != request_id) {
                if (r) berthier__v1__reply__free_unpacked(r, NULL);
                continue; /* not ours (an older attempt's) or garbage */
            }
            if (r->code == BERTHIER__V1__CODE__CODE_BUSY && s_now_ms() + busy_wait < deadline) {
                berthier__v1__reply__free_unpacked(r, NULL);
                s_sleep_ms(busy_wait);
                if (busy_wait < 1000) busy_wait *= 2;
                resend = 1;
                continue;
            }
            self->reply = r;
            self->code = (int)r->code;
            snprintf(self->rule, sizeof self->rule, "%s", r->rule ? r->rule : "");
            snprintf(self->message, sizeof self->message, "%s", r->message ? r->message : "");
            if (self->code == BRT_CODE_OK) return input ? s_check_receipt(self) : 0;
            s_format_error(self);
            return -1;
        } else {
            zmq_msg_close(&msg);
            if (s_now_ms() < attempt_end) continue;
            /* No reply this attempt: the daemon may have restarted; start afresh. */
            s_close_socket(self);
        }
        if (s_now_ms() >= deadline) {
            if (self->handshake_failed)
                return s_no_reply(self, "timed out after %d ms; the CURVE handshake failed (is the server key "
                                  "right?) or %s", self->total_ms, BRT_CLIENT_UNKNOWN_KEY_HINT);
            return s_no_reply(self, "timed out after %d ms (if the daemon is up, it may not know this key: %s)",
                              self->total_ms, BRT_CLIENT_UNKNOWN_KEY_HINT);
        }
        if (!self->sock) s_sleep_ms(got < 0 ? 100 : 0);
        resend = 1;
    }
}

static int s_expect(brt_client *self, int rc, Berthier__V1__Reply__BodyCase body);

static const uint8_t *s_header_cached(const brt_client *self, const char *game_id, unsigned seat) {
    for (size_t i = 0; i < self->n_headers; i++)
        if (self->headers[i].seat == seat && strcmp(self->headers[i].game_id, game_id) == 0)
            return self->headers[i].hash;
    return NULL;
}

int brt_client_call(brt_client *self, Berthier__V1__Request *req) {
    if (!self || !req) return -1;
    if (req->request_id == 0) req->request_id = s_fresh_id();
    const char *gid = NULL;
    unsigned seat = 0;
    uint64_t seq = 0;
    uint8_t sig[64];
    int signed_here = 0, bound_here = 0;
    if (!req->signature.len && brt_seatsign_input(req, &gid, &seat, &seq)) {
        if (req->body_case == BERTHIER__V1__REQUEST__BODY_JOIN) bound_here = !req->join->sign_pk.len;
        if (brt_client_sign(self, req, sig) != 0) {
            if (bound_here) req->join->sign_pk.len = req->join->header_hash.len = 0;
            return -1;
        }
        signed_here = 1;
    }
    size_t len = berthier__v1__request__get_packed_size(req);
    uint8_t *bytes = malloc(len ? len : 1);
    if (!bytes) {
        s_reset_outcome(self);
        return s_no_reply(self, "out of memory");
    }
    berthier__v1__request__pack(req, bytes);
    /* The request is the caller's again: no pointers into this frame or the client. */
    if (signed_here) {
        req->signature.data = NULL;
        req->signature.len = 0;
    }
    if (bound_here) {
        req->join->sign_pk.len = 0;
        req->join->header_hash.len = 0;
    }
    int rc = brt_client_call_raw(self, bytes, len, req->request_id);
    free(bytes);
    return rc;
}

int brt_client_header(brt_client *self, const char *game_id, unsigned seat, const Berthier__V1__GameHeader **out) {
    if (!self || !game_id) return -1;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)game_id;
    g.seat = seat;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HEADER;
    req.header = &g;
    if (s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_HEADER) != 0) return -1;
    char why[256];
    if (brt_seatsign_check_header(self->reply->header, game_id, seat, self->curve_pk, why, sizeof why) != 0) {
        self->code = BRT_CODE_UNAUTHORIZED;
        snprintf(self->rule, sizeof self->rule, "P3");
        snprintf(self->message, sizeof self->message, "refusing to sign for game %s: %s", game_id, why);
        s_format_error(self);
        return -1;
    }
    if (!s_header_cached(self, game_id, seat)) {
        size_t n = sizeof self->headers / sizeof self->headers[0];
        memmove(&self->headers[1], &self->headers[0], (n - 1) * sizeof self->headers[0]);
        snprintf(self->headers[0].game_id, sizeof self->headers[0].game_id, "%s", game_id);
        self->headers[0].seat = seat;
        memcpy(self->headers[0].hash, self->reply->header->header_hash.data, 32);
        if (self->n_headers < n) self->n_headers++;
    }
    if (out) *out = self->reply->header;
    return 0;
}

int brt_client_sign(brt_client *self, Berthier__V1__Request *req, uint8_t sig[64]) {
    if (!self || !req) return -1;
    const char *gid = NULL;
    unsigned seat = 0;
    uint64_t seq = 0;
    if (!brt_seatsign_input(req, &gid, &seat, &seq) || !gid) {
        s_reset_outcome(self);
        return s_no_reply(self, "only a join, submit, resign or reveal is seat-signed");
    }
    if (req->request_id == 0) req->request_id = s_fresh_id();
    const uint8_t *hh = s_header_cached(self, gid, seat);
    if (!hh) {
        if (brt_client_header(self, gid, seat, NULL) != 0) return -1;
        hh = s_header_cached(self, gid, seat);
    }
    if (req->body_case == BERTHIER__V1__REQUEST__BODY_JOIN && !req->join->sign_pk.len) {
        req->join->sign_pk.data = self->seat_pk;
        req->join->sign_pk.len = 32;
        req->join->header_hash.data = (uint8_t *)hh;
        req->join->header_hash.len = 32;
    }
    if (!hh || brt_seatsign_request(req, self->seat_sk, hh, sig) != 0) {
        s_reset_outcome(self);
        return s_no_reply(self, "could not sign the request");
    }
    return 0;
}

void brt_client_sign_pk(const brt_client *self, uint8_t pk[32]) {
    if (self) memcpy(pk, self->seat_pk, 32);
}

/* Check that the reply body is the expected one. */
static int s_expect(brt_client *self, int rc, Berthier__V1__Reply__BodyCase body) {
    if (rc != 0) return -1;
    if (!self->reply || self->reply->body_case != body) {
        self->code = BRT_CODE_INTERNAL;
        snprintf(self->message, sizeof self->message, "the reply has no body of the kind asked for");
        s_format_error(self);
        return -1;
    }
    return 0;
}

static void s_gameref(Berthier__V1__GameRef *g, const char *game_id, unsigned seat) {
    berthier__v1__game_ref__init(g);
    g->game_id = (char *)(game_id ? game_id : "");
    g->seat = seat;
}

int brt_client_hello(brt_client *self, const char *game_id, int seat,
                     const Berthier__V1__Hello **out) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat < 0 ? 0 : (unsigned)seat);
    req.body_case = BERTHIER__V1__REQUEST__BODY_HELLO;
    req.hello = &g;
    int rc = brt_client_call(self, &req);
    if (rc != 0) return -1;
    if (out) *out = self->reply->body_case == BERTHIER__V1__REPLY__BODY_HELLO ? self->reply->hello
                                                                             : NULL;
    return 0;
}

int brt_client_event_key(const brt_client *self, uint8_t key[BRT_EVENT_KEY_BYTES]) {
    if (!self || !self->reply) return -1;
    const Berthier__V1__Reply *r = self->reply;
    if (r->body_case == BERTHIER__V1__REPLY__BODY_JOINED && r->joined &&
        r->joined->event_key.len == BRT_EVENT_KEY_BYTES) {
        memcpy(key, r->joined->event_key.data, BRT_EVENT_KEY_BYTES);
        return 0;
    }
    return -1;
}

int brt_client_create(brt_client *self, const brt_game_spec *spec,
                      char game_id_out[BRT_GAME_ID_MAX + 1], const Berthier__V1__Created **out) {
    if (!self || !spec || !spec->ruleset || !spec->scenario) return -1;
    if (spec->n_seats > 8) {
        s_reset_outcome(self);
        return s_no_reply(self, "too many seats");
    }
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame cg = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__Clock clock = BERTHIER__V1__CLOCK__INIT;
    Berthier__V1__SeatSpec seats[8];
    Berthier__V1__SeatSpec *seat_ptrs[8];
    uint8_t raw[8][32];
    for (size_t i = 0; i < spec->n_seats; i++) {
        if (brt_pubkey_raw(spec->seat_keys[i], raw[i]) != 0) {
            s_reset_outcome(self);
            return s_no_reply(self, "seat %zu key is not a Z85 public key", i);
        }
        berthier__v1__seat_spec__init(&seats[i]);
        seats[i].seat = (uint32_t)i;
        seats[i].key.data = raw[i];
        seats[i].key.len = 32;
        seat_ptrs[i] = &seats[i];
    }
    cg.ruleset = (char *)spec->ruleset;
    cg.scenario = (char *)spec->scenario;
    cg.n_options = spec->n_options;
    cg.options = (char **)spec->options;
    cg.n_seats = spec->n_seats;
    cg.seats = seat_ptrs;
    if (spec->n_spectators > BRT_MAX_SPECTATORS) {
        s_reset_outcome(self);
        return s_no_reply(self, "too many spectator keys");
    }
    uint8_t spec_raw[BRT_MAX_SPECTATORS][32];
    ProtobufCBinaryData spec_keys[BRT_MAX_SPECTATORS];
    for (size_t i = 0; i < spec->n_spectators; i++) {
        if (brt_pubkey_raw(spec->spectator_keys[i], spec_raw[i]) != 0) {
            s_reset_outcome(self);
            return s_no_reply(self, "spectator key %zu is not a Z85 public key", i);
        }
        spec_keys[i].data = spec_raw[i];
        spec_keys[i].len = 32;
    }
    cg.n_spectator_keys = spec->n_spectators;
    cg.spectator_keys = spec->n_spectators ? spec_keys : NULL;
    if (spec->decision_ms || spec->bank_ms || spec->forfeit) {
        clock.decision_ms = spec->decision_ms;
        clock.bank_ms = spec->bank_ms;
        clock.forfeit = spec->forfeit ? 1 : 0;
        cg.clock = &clock;
    }
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &cg;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_CREATED);
    if (rc != 0) return -1;
    const Berthier__V1__Created *c = self->reply->created;
    if (game_id_out) snprintf(game_id_out, BRT_GAME_ID_MAX + 1, "%s", c->game_id ? c->game_id : "");
    if (out) *out = c;
    return 0;
}

/* ---- one round trip per order (P4.3) ---------------------------------------- */

/* The Want of the next input or pending (NULL when none is set). */
static Berthier__V1__Want *s_want(brt_client *self) {
    if (!(self->want_flags & (BRT_WANT_DECISION | BRT_WANT_LEGAL | BRT_WANT_VIEW))) return NULL;
    berthier__v1__want__init(&self->want);
    self->want.decision = (self->want_flags & BRT_WANT_DECISION) != 0;
    self->want.legal = (self->want_flags & BRT_WANT_LEGAL) != 0;
    self->want.texts = self->want.legal && (self->want_flags & BRT_WANT_TEXTS) != 0;
    self->want.limit = self->want.legal ? self->want_limit : 0;
    self->want.view = (self->want_flags & BRT_WANT_VIEW) != 0;
    return &self->want;
}

void brt_client_set_want(brt_client *self, unsigned flags, unsigned limit) {
    if (!self) return;
    self->want_flags = flags;
    self->want_limit = limit;
}

const Berthier__V1__Decision *brt_client_next(const brt_client *self) {
    if (!self || !self->reply || self->code != BRT_CODE_OK) return NULL;
    if (self->reply->next) return self->reply->next;
    return self->reply->body_case == BERTHIER__V1__REPLY__BODY_DECISION ? self->reply->decision : NULL;
}

const Berthier__V1__LegalOrders *brt_client_next_legal(const brt_client *self) {
    if (!self || !self->reply || self->code != BRT_CODE_OK) return NULL;
    return self->reply->next_legal;
}

const Berthier__V1__StateView *brt_client_next_view(const brt_client *self) {
    if (!self || !self->reply || self->code != BRT_CODE_OK) return NULL;
    return self->reply->next_view;
}

int brt_client_join(brt_client *self, const char *game_id, unsigned seat,
                    const Berthier__V1__Joined **out) {
    if (!self || !game_id) return -1;
    uint8_t entropy[32];
    randombytes_buf(entropy, sizeof entropy);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    j.game_id = (char *)game_id;
    j.seat = seat;
    j.entropy.data = entropy;
    j.entropy.len = sizeof entropy;
    j.want = s_want(self);
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_JOINED);
    if (rc == 0 && out) *out = self->reply->joined;
    return rc;
}

static int s_gameref_call(brt_client *self, Berthier__V1__Request__BodyCase which,
                          Berthier__V1__Reply__BodyCase expect, Berthier__V1__GameRef *g) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    req.body_case = which;
    switch (which) {
    case BERTHIER__V1__REQUEST__BODY_PENDING: req.pending = g; break;
    case BERTHIER__V1__REQUEST__BODY_LEGAL: req.legal = g; break;
    case BERTHIER__V1__REQUEST__BODY_STATE: req.state = g; break;
    case BERTHIER__V1__REQUEST__BODY_RESIGN: req.resign = g; break;
    case BERTHIER__V1__REQUEST__BODY_LIST_GAMES: req.list_games = g; break;
    case BERTHIER__V1__REQUEST__BODY_EVENTS: req.events = g; break;
    case BERTHIER__V1__REQUEST__BODY_HELLO: req.hello = g; break;
    default: return -1;
    }
    int rc = brt_client_call(self, &req);
    if (expect == BERTHIER__V1__REPLY__BODY__NOT_SET) return rc;
    return s_expect(self, rc, expect);
}

int brt_client_pending(brt_client *self, const char *game_id, unsigned seat,
                       const Berthier__V1__Decision **out) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat);
    g.want = s_want(self);
    int rc = s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_PENDING,
                            BERTHIER__V1__REPLY__BODY_DECISION, &g);
    if (rc == 0 && out) *out = self->reply->decision;
    return rc;
}

int brt_client_legal(brt_client *self, const char *game_id, unsigned seat, unsigned limit,
                     const Berthier__V1__LegalOrders **out) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat);
    g.limit = limit;
    int rc = s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_LEGAL,
                            BERTHIER__V1__REPLY__BODY_LEGAL, &g);
    if (rc == 0 && out) *out = self->reply->legal;
    return rc;
}

int brt_client_state(brt_client *self, const char *game_id, unsigned seat, int what,
                     const Berthier__V1__StateView **out) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat);
    g.text = (what & BRT_STATE_TEXT) ? 1 : 0;
    g.svg = (what & BRT_STATE_SVG) ? 1 : 0;
    int rc = s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_STATE,
                            BERTHIER__V1__REPLY__BODY_STATE, &g);
    if (rc == 0 && out) *out = self->reply->state;
    return rc;
}

int brt_client_query(brt_client *self, const char *game_id, unsigned seat, const char *text,
                     const Berthier__V1__QueryAnswer **out) {
    if (!self || !game_id || !text) return -1;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Query q = BERTHIER__V1__QUERY__INIT;
    q.game_id = (char *)game_id;
    q.seat = seat;
    q.text = (char *)text;
    req.body_case = BERTHIER__V1__REQUEST__BODY_QUERY;
    req.query = &q;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_ANSWER);
    if (rc == 0 && out) *out = self->reply->answer;
    return rc;
}

int brt_view_hash(const char *game_id, int seat, uint64_t seq, const uint8_t *view, size_t len,
                  uint8_t out[32]) {
    if (!game_id || !out || (len && !view) || sodium_init() < 0) return -1;
    static const char tag[] = "berthier-view-v1";
    uint8_t b[12];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)((uint32_t)seat >> (8 * i));
    for (int i = 0; i < 8; i++) b[4 + i] = (uint8_t)(seq >> (8 * i));
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, NULL, 0, 32) != 0) return -1;
    crypto_generichash_update(&st, (const uint8_t *)tag, sizeof tag - 1);
    crypto_generichash_update(&st, (const uint8_t *)game_id, strlen(game_id));
    crypto_generichash_update(&st, b, sizeof b);
    if (len) crypto_generichash_update(&st, view, len);
    return crypto_generichash_final(&st, out, 32) == 0 ? 0 : -1;
}

int brt_view_hash_check(const Berthier__V1__StateView *sv, const char *game_id, int seat) {
    uint8_t h[32];
    if (!sv || sv->view_hash.len != 32) return -1;
    if (brt_view_hash(game_id, seat, sv->seq, sv->view.data, sv->view.len, h) != 0) return -1;
    return sodium_memcmp(h, sv->view_hash.data, 32) == 0 ? 0 : -1;
}

static int s_submit(brt_client *self, const char *game_id, unsigned seat, uint64_t seq,
                    const uint8_t *order, size_t len, const char *text,
                    const Berthier__V1__Accepted **out) {
    if (!self || !game_id) return -1;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Submit s = BERTHIER__V1__SUBMIT__INIT;
    s.game_id = (char *)game_id;
    s.seat = seat;
    s.based_on_seq = seq;
    if (order) {
        s.order.data = (uint8_t *)order;
        s.order.len = len;
    }
    if (text) s.order_text = (char *)text;
    s.want = s_want(self);
    req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    req.submit = &s;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_ACCEPTED);
    if (rc == 0 && out) *out = self->reply->accepted;
    return rc;
}

int brt_client_submit(brt_client *self, const char *game_id, unsigned seat, uint64_t based_on_seq,
                      const uint8_t *order, size_t len, const Berthier__V1__Accepted **out) {
    return s_submit(self, game_id, seat, based_on_seq, order, len, NULL, out);
}

int brt_client_submit_text(brt_client *self, const char *game_id, unsigned seat,
                           uint64_t based_on_seq, const char *text,
                           const Berthier__V1__Accepted **out) {
    return s_submit(self, game_id, seat, based_on_seq, NULL, 0, text ? text : "", out);
}

int brt_client_resign(brt_client *self, const char *game_id, unsigned seat) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat);
    g.want = s_want(self);
    return s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_RESIGN,
                          BERTHIER__V1__REPLY__BODY__NOT_SET, &g);
}

int brt_client_abort(brt_client *self, const char *game_id, const char *reason, int forfeit_seat) {
    if (!self) return -1;
    Berthier__V1__AbortGame a = BERTHIER__V1__ABORT_GAME__INIT;
    a.game_id = (char *)(game_id ? game_id : "");
    a.reason = (char *)(reason ? reason : "");
    if (forfeit_seat >= 0) {
        a.has_forfeit = 1;
        a.forfeit_seat = (uint32_t)forfeit_seat;
    }
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    req.body_case = BERTHIER__V1__REQUEST__BODY_ABORT;
    req.abort = &a;
    return s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_ACCEPTED);
}

int brt_client_games(brt_client *self, const Berthier__V1__GameList **out) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, NULL, 0);
    int rc = s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_LIST_GAMES,
                            BERTHIER__V1__REPLY__BODY_GAMES, &g);
    if (rc == 0 && out) *out = self->reply->games;
    return rc;
}

int brt_client_events(brt_client *self, const char *game_id, unsigned seat, uint64_t since_seq,
                      const Berthier__V1__EventList **out) {
    if (!self) return -1;
    Berthier__V1__GameRef g;
    s_gameref(&g, game_id, seat);
    g.since_seq = since_seq;
    int rc = s_gameref_call(self, BERTHIER__V1__REQUEST__BODY_EVENTS,
                            BERTHIER__V1__REPLY__BODY_EVENTS, &g);
    if (rc == 0 && out) *out = self->reply->events;
    return rc;
}

int brt_client_fetch_log(brt_client *self, const char *game_id, uint64_t offset,
                         uint32_t max_bytes, const Berthier__V1__LogChunk **out) {
    if (!self || !game_id) return -1;
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__FetchLog f = BERTHIER__V1__FETCH_LOG__INIT;
    f.game_id = (char *)game_id;
    f.offset = offset;
    f.max_bytes = max_bytes;
    req.body_case = BERTHIER__V1__REQUEST__BODY_FETCH_LOG;
    req.fetch_log = &f;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_LOG);
    if (rc == 0 && out) *out = self->reply->log;
    return rc;
}

int brt_client_fetch_log_file(brt_client *self, const char *game_id, const char *path) {
    if (!self || !game_id || !path) return -1;
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) return -1;
    snprintf(tmp, n, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return -1;
    }
    uint64_t offset = 0;
    int rc = -1;
    for (;;) {
        const Berthier__V1__LogChunk *chunk = NULL;
        if (brt_client_fetch_log(self, game_id, offset, 1u << 20, &chunk) != 0) break;
        if (chunk->offset != offset) {
            self->code = BRT_CODE_INTERNAL;
            snprintf(self->message, sizeof self->message, "log chunk at offset %llu, asked %llu",
                     (unsigned long long)chunk->offset, (unsigned long long)offset);
            s_format_error(self);
            break;
        }
        if (chunk->data.len && fwrite(chunk->data.data, 1, chunk->data.len, f) != chunk->data.len)
            break;
        offset += chunk->data.len;
        if (chunk->eof) {
            rc = 0;
            break;
        }
        if (chunk->data.len == 0) {
            self->code = BRT_CODE_INTERNAL;
            snprintf(self->message, sizeof self->message, "empty log chunk before the end");
            s_format_error(self);
            break;
        }
    }
    if (fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) unlink(tmp);
    free(tmp);
    return rc;
}

/* ---- contributory dice -------------------------------------------------------- */

struct brt_chain {
    uint8_t (*links)[32]; /* links[0] = commitment ... links[length] = random tail */
    size_t length;
    size_t next;          /* index of the next link to reveal (1-based) */
};

static void s_chain_step(const uint8_t next[32], uint8_t prev[32]) {
    static const char tag[] = "berthier-chain-v1";
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const uint8_t *)tag, sizeof tag - 1);
    crypto_generichash_update(&st, next, 32);
    crypto_generichash_final(&st, prev, 32);
}

/* the chain ending in `tail`, or a random tail when `tail` is NULL */
static brt_chain *s_chain_build(const uint8_t *tail, size_t length) {
    if (length == 0 || length > (1u << 24) || s_sodium_ready() != 0) return NULL;
    brt_chain *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->links = malloc((length + 1) * sizeof *self->links);
    if (!self->links) {
        free(self);
        return NULL;
    }
    self->length = length;
    self->next = 1;
    if (tail)
        memcpy(self->links[length], tail, 32);
    else
        randombytes_buf(self->links[length], 32);
    for (size_t k = length; k > 0; k--) s_chain_step(self->links[k], self->links[k - 1]);
    return self;
}

brt_chain *brt_chain_new(size_t length) { return s_chain_build(NULL, length); }

brt_chain *brt_chain_from_tail(const uint8_t tail[32], size_t length) {
    return tail ? s_chain_build(tail, length) : NULL;
}

const uint8_t *brt_chain_tail(const brt_chain *self) { return self ? self->links[self->length] : NULL; }

size_t brt_chain_length(const brt_chain *self) { return self ? self->length : 0; }

int brt_chain_seek(brt_chain *self, uint64_t batch) {
    if (!self || batch >= self->length) return -1;
    self->next = (size_t)batch + 1;
    return 0;
}

void brt_chain_destroy(brt_chain **pself) {
    if (!pself || !*pself) return;
    brt_chain *self = *pself;
    sodium_memzero(self->links, (self->length + 1) * sizeof *self->links);
    free(self->links);
    free(self);
    *pself = NULL;
}

const uint8_t *brt_chain_commitment(const brt_chain *self) { return self ? self->links[0] : NULL; }

const uint8_t *brt_chain_peek(const brt_chain *self) {
    return self && self->next <= self->length ? self->links[self->next] : NULL;
}

void brt_chain_advance(brt_chain *self) {
    if (self && self->next <= self->length) self->next++;
}

int brt_client_join_chain(brt_client *self, const char *game_id, unsigned seat,
                          const brt_chain *chain, const Berthier__V1__Joined **out) {
    if (!self || !game_id || !chain) return -1;
    uint8_t entropy[32];
    randombytes_buf(entropy, sizeof entropy);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    j.game_id = (char *)game_id;
    j.seat = seat;
    j.entropy.data = entropy;
    j.entropy.len = sizeof entropy;
    j.chain_commit.data = (uint8_t *)chain->links[0];
    j.chain_commit.len = 32;
    j.want = s_want(self);
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    int rc = s_expect(self, brt_client_call(self, &req), BERTHIER__V1__REPLY__BODY_JOINED);
    if (rc == 0 && out) *out = self->reply->joined;
    return rc;
}

int brt_client_reveal(brt_client *self, const char *game_id, unsigned seat, uint64_t batch,
                      brt_chain *chain) {
    if (!self || !game_id || !chain) return -1;
    const uint8_t *link = brt_chain_peek(chain);
    if (!link) {
        s_reset_outcome(self);
        return s_no_reply(self, "the nonce chain is used up");
    }
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__RevealNonce rv = BERTHIER__V1__REVEAL_NONCE__INIT;
    rv.game_id = (char *)game_id;
    rv.seat = seat;
    rv.batch = batch;
    rv.nonce.data = (uint8_t *)link;
    rv.nonce.len = 32;
    rv.want = s_want(self);
    req.body_case = BERTHIER__V1__REQUEST__BODY_REVEAL;
    req.reveal = &rv;
    int rc = brt_client_call(self, &req);
    if (rc == 0) brt_chain_advance(chain);
    return rc;
}

int brt_decision_batch(const Berthier__V1__Decision *d, uint64_t *batch) {
    if (!d || !d->kind || strcmp(d->kind, "dice-nonce") != 0 || !d->prompt) return -1;
    const char *p = strstr(d->prompt, "batch ");
    if (!p) return -1;
    char *end = NULL;
    unsigned long long v = strtoull(p + 6, &end, 10);
    if (end == p + 6) return -1;
    *batch = v;
    return 0;
}

/* ---- events ------------------------------------------------------------------ */

brt_sub *brt_client_subscribe(brt_client *self, const char *game_id, int seat,
                              const uint8_t key[BRT_EVENT_KEY_BYTES]) {
    if (!self || !game_id || !self->events_endpoint || (seat >= 0 && !key)) return NULL;
    brt_sub *sub = calloc(1, sizeof *sub);
    if (!sub) return NULL;
    if (seat >= 0)
        snprintf(sub->topic, sizeof sub->topic, "g/%s/%d", game_id, seat);
    else
        snprintf(sub->topic, sizeof sub->topic, "g/%s/all", game_id);
    sub->sealed = seat >= 0;
    if (key) memcpy(sub->key, key, BRT_EVENT_KEY_BYTES);
    sub->sock = zmq_socket(self->ctx, ZMQ_SUB);
    if (!sub->sock || s_set_curve(sub->sock, self) != 0 ||
        zmq_setsockopt(sub->sock, ZMQ_SUBSCRIBE, sub->topic, strlen(sub->topic)) != 0 ||
        zmq_connect(sub->sock, self->events_endpoint) != 0) {
        brt_sub_destroy(&sub);
        return NULL;
    }
    return sub;
}

static Berthier__V1__Notice *s_open_notice(brt_sub *self, const uint8_t *body, size_t len) {
    if (!self->sealed) return berthier__v1__notice__unpack(NULL, len, body);
    if (len < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) return NULL;
    size_t clen = len - crypto_secretbox_NONCEBYTES;
    size_t plen = clen - crypto_secretbox_MACBYTES;
    uint8_t *plain = malloc(plen ? plen : 1);
    if (!plain) return NULL;
    Berthier__V1__Notice *n = NULL;
    if (crypto_secretbox_open_easy(plain, body + crypto_secretbox_NONCEBYTES, clen, body,
                                   self->key) == 0)
        n = berthier__v1__notice__unpack(NULL, plen, plain);
    free(plain);
    return n;
}

int brt_sub_recv(brt_sub *self, int timeout_ms, Berthier__V1__Notice **out) {
    if (!self || !out) return -1;
    *out = NULL;
    int64_t deadline = s_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        int64_t wait = deadline - s_now_ms();
        if (wait < 0) wait = 0;
        zmq_pollitem_t item = {self->sock, 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&item, 1, (long)wait);
        if (rc < 0) return errno == EINTR ? 0 : -1;
        if (rc == 0) return 0;
        zmq_msg_t topic, body;
        zmq_msg_init(&topic);
        zmq_msg_init(&body);
        int ok = zmq_msg_recv(&topic, self->sock, ZMQ_DONTWAIT) >= 0;
        int have_body = ok && zmq_msg_more(&topic) &&
                        zmq_msg_recv(&body, self->sock, ZMQ_DONTWAIT) >= 0;
        while (have_body && zmq_msg_more(&body)) { /* drain unexpected extra parts */
            zmq_msg_t extra;
            zmq_msg_init(&extra);
            zmq_msg_recv(&extra, self->sock, ZMQ_DONTWAIT);
            int more = zmq_msg_more(&extra);
            zmq_msg_close(&extra);
            if (!more) break;
        }
        Berthier__V1__Notice *n = NULL;
        if (have_body && zmq_msg_size(&topic) == strlen(self->topic) &&
            memcmp(zmq_msg_data(&topic), self->topic, strlen(self->topic)) == 0)
            n = s_open_notice(self, zmq_msg_data(&body), zmq_msg_size(&body));
        zmq_msg_close(&topic);
        zmq_msg_close(&body);
        if (n) {
            *out = n;
            return 1;
        }
        if (ok) self->dropped++;
        if (s_now_ms() >= deadline) return 0;
    }
}

uint64_t brt_sub_dropped(const brt_sub *self) { return self ? self->dropped : 0; }

void brt_sub_destroy(brt_sub **pself) {
    if (!pself || !*pself) return;
    brt_sub *self = *pself;
    if (self->sock) zmq_close(self->sock);
    sodium_memzero(self->key, sizeof self->key);
    free(self);
    *pself = NULL;
}

/* ---- receipts (docs/protocol.md P9) ---------------------------------------------- */

int brt_client_pin_sign_key(brt_client *self, const uint8_t pk[32]) {
    if (!self || !pk) return -1;
    memcpy(self->sign_pk, pk, 32);
    self->have_sign_pk = 1;
    return 0;
}

int brt_client_sign_key(const brt_client *self, uint8_t pk[32]) {
    if (!self || !self->have_sign_pk) return -1;
    memcpy(pk, self->sign_pk, 32);
    return 0;
}

const Berthier__V1__Receipt *brt_client_receipt(const brt_client *self) {
    return self && self->reply && self->code == BRT_CODE_OK ? self->reply->receipt : NULL;
}

const uint8_t *brt_client_last_request(const brt_client *self, size_t *len) {
    if (len) *len = self ? self->last_req_len : 0;
    return self ? self->last_req : NULL;
}

int brt_client_save_receipt(const brt_client *self, const char *path) {
    const Berthier__V1__Receipt *r = brt_client_receipt(self);
    if (!r) return 0;
    return brt_receipts_append(path, r, self->last_req, self->last_req_len) == 0 ? 1 : -1;
}

static int s_keep_request(brt_client *self, const uint8_t *req, size_t len) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return -1;
    if (len) memcpy(copy, req, len);
    free(self->last_req);
    self->last_req = copy;
    self->last_req_len = len;
    return 0;
}

/* Trust on first use: the signing key the daemon states in `hello`, over the
 * CURVE connection authenticated by the pinned server key. */
static int s_pin_by_hello(brt_client *self) {
    const Berthier__V1__Hello *h = NULL;
    if (brt_client_hello(self, NULL, -1, &h) != 0) return -1;
    if (!h || h->server_sign_pk.len != 32) {
        self->code = BRT_CLIENT_BAD_RECEIPT;
        snprintf(self->message, sizeof self->message, "the daemon states no signing key in hello");
        snprintf(self->error, sizeof self->error, "bad receipt: %s", self->message);
        return -1;
    }
    return brt_client_pin_sign_key(self, h->server_sign_pk.data);
}

static int s_check_receipt(brt_client *self) {
    char why[200];
    if (brt_receipt_check_request(self->reply->receipt, self->sign_pk, self->last_req, self->last_req_len, why,
                                  sizeof why) == 0)
        return 0;
    self->code = BRT_CLIENT_BAD_RECEIPT;
    snprintf(self->message, sizeof self->message, "%s", why);
    snprintf(self->error, sizeof self->error, "bad receipt from %s: %s", self->endpoint, why);
    return -1;
}
