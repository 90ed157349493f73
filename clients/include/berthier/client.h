/*
 * berthier/client.h - the C client library for berthierd.
 *
 * One brt_client holds one ZeroMQ DEALER socket with CurveZMQ keys, talks to
 * one daemon and is used by one thread at a time. Every call sends one Request
 * and waits for its Reply:
 *
 *   - a call returns 0 when the daemon answered CODE_OK and -1 otherwise;
 *     brt_client_code(), brt_client_rule() and brt_client_message() then say
 *     why (BRT_CLIENT_NO_REPLY when the daemon never answered in time);
 *   - the full Reply of the last call stays readable through brt_client_reply()
 *     until the next call;
 *   - a request that gets no reply within the attempt timeout is sent again,
 *     byte for byte (same request id), on a fresh socket, until the total
 *     timeout runs out. The daemon answers a repeated request id with the reply
 *     it gave the first time, and an order also cites the game seq it was decided
 *     against, so an order is applied exactly once even across daemon restarts.
 *     CODE_BUSY replies are retried the same way.
 *
 * Example (a seat of an existing game):
 *
 *   brt_client *c = brt_client_new("ipc://var/berthier/berthier.sock",
 *                                  server_pub_z85, "french.key");
 *   if (brt_client_join(c, game_id, 0) != 0 && brt_client_code(c) != BRT_CODE_ALREADY_JOINED)
 *       fprintf(stderr, "%s\n", brt_client_error(c));
 *   const Berthier__V1__Decision *d;
 *   brt_client_pending(c, game_id, 0, &d);
 *   ...
 *   brt_client_destroy(&c);
 *
 * Link with `pkg-config --cflags --libs berthier`.
 */
#ifndef BERTHIER_CLIENT_H
#define BERTHIER_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "berthier/v1/berthier.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BRT_CLIENT_VERSION "0.1.0"

/* The message of a call whose key the daemon refused at the CURVE handshake (its ZAP
 * handler admits admin, seat and spectator keys only, docs/protocol.md P3): the call
 * fails at once with BRT_CLIENT_NO_REPLY and this message instead of waiting for the
 * timeout. A timeout's message names the same possibility. */
#define BRT_CLIENT_UNKNOWN_KEY_HINT                                                              \
    "it is not an admin key nor a seat or spectator key of any game, or it was revoked or is " \
    "banned for a while"
#define BRT_CLIENT_REFUSED_KEY "the daemon refused this key: " BRT_CLIENT_UNKNOWN_KEY_HINT

/* Reply codes (berthier.v1.Code), plus one of the library's own. */
enum {
    BRT_CLIENT_BAD_RECEIPT = -2, /* the daemon acknowledged an input with a receipt that does not check */
    BRT_CLIENT_NO_REPLY = -1, /* no reply in time, connection or local failure */
    BRT_CODE_OK = 0,
    BRT_CODE_MALFORMED = 1,
    BRT_CODE_TOO_LARGE = 2,
    BRT_CODE_UNAUTHORIZED = 3,
    BRT_CODE_UNKNOWN_GAME = 4,
    BRT_CODE_NOT_YOUR_SEAT = 5,
    BRT_CODE_NOT_YOUR_DECISION = 6,
    BRT_CODE_STALE = 7,
    BRT_CODE_ILLEGAL = 8,
    BRT_CODE_GAME_OVER = 9,
    BRT_CODE_BAD_RULESET = 10,
    BRT_CODE_BAD_SCENARIO = 11,
    BRT_CODE_BAD_OPTION = 12,
    BRT_CODE_BAD_SEATS = 13,
    BRT_CODE_NOT_STARTED = 14,
    BRT_CODE_ALREADY_JOINED = 15,
    BRT_CODE_REQUEST_ID_REUSED = 16,
    BRT_CODE_BUSY = 17,
    BRT_CODE_IO_ERROR = 18,
    BRT_CODE_INTERNAL = 19,
    BRT_CODE_BAD_TEXT = 20,
    BRT_CODE_BAD_REQUEST = 21,
};

#define BRT_Z85_KEY_LEN 40     /* a Curve key in Z85, without the terminator */
#define BRT_GAME_ID_MAX 40
#define BRT_EVENT_KEY_BYTES 32

typedef struct brt_client brt_client;

/* A Curve keypair in Z85 (40 characters each, NUL-terminated). */
typedef struct brt_keypair {
    char public_z85[BRT_Z85_KEY_LEN + 1];
    char secret_z85[BRT_Z85_KEY_LEN + 1];
} brt_keypair;

/* ---- keys ------------------------------------------------------------------ */

/* A fresh keypair. 0 / -1. */
int brt_keypair_generate(brt_keypair *out);
/* Read a key file of two lines `public <z85>` and `secret <z85>`. 0 / -1. */
int brt_keypair_load(brt_keypair *out, const char *path);
/* Write NAME.key (mode 0600) and NAME.pub; refuses to overwrite. 0 / -1 (errno set). */
int brt_keypair_save(const brt_keypair *kp, const char *name);
/* A public key given as 40 Z85 characters, or as the path of a file whose first
 * line is one (server.pub, NAME.pub), or of a .key file (its public line). 0 / -1. */
int brt_pubkey_resolve(const char *arg, char out_z85[BRT_Z85_KEY_LEN + 1]);
/* Z85 public key to its 32 raw bytes. 0 / -1. */
int brt_pubkey_raw(const char *z85, uint8_t out[32]);

/* ---- connection -------------------------------------------------------------- */

/* Connect to `endpoint` (ipc://..., tcp://host:port) whose server key is
 * server_pubkey_z85, with the client keypair read from client_key_file.
 * NULL on failure (errno set; a message on brt_client_last_error()). */
brt_client *brt_client_new(const char *endpoint, const char *server_pubkey_z85,
                           const char *client_key_file);
/* The same with a keypair in memory. */
brt_client *brt_client_new_keypair(const char *endpoint, const char *server_pubkey_z85,
                                   const brt_keypair *client);
/* Connect as the admin of a local daemon: ipc://<dir>/berthier.sock, the server
 * key from <dir>/server.pub and the admin keypair from <dir>/admin.key. Events
 * come from ipc://<dir>/events.sock. */
brt_client *brt_client_new_data_dir(const char *data_dir);
/* What command lines give: any field may be NULL.
 *   data_dir         default $STATE_DIRECTORY, else ./var/berthier
 *   endpoint         default ipc://<data_dir>/berthier.sock
 *   server_key       Z85 or a file holding it; default <data_dir>/server.pub
 *   key_file         the client keypair; default <data_dir>/admin.key
 *   events_endpoint  default as brt_client_set_events_endpoint says */
typedef struct brt_connect_opts {
    const char *data_dir;
    const char *endpoint;
    const char *server_key;
    const char *key_file;
    const char *events_endpoint;
} brt_connect_opts;
brt_client *brt_client_open(const brt_connect_opts *opts);
/* Destroy the client's subscriptions (brt_sub_destroy) before the client. */
void brt_client_destroy(brt_client **pself);

/* Why the last brt_client_new* returned NULL (thread-local). */
const char *brt_client_last_error(void);

/* attempt_ms: how long to wait for one reply before sending again on a fresh
 * socket (default 2000); total_ms: how long to keep trying (default 30000). */
void brt_client_set_timeout(brt_client *self, int attempt_ms, int total_ms);
/* Endpoint of the daemon's PUB socket (default: the request endpoint with
 * berthier.sock replaced by events.sock for ipc; must be set for tcp). */
int brt_client_set_events_endpoint(brt_client *self, const char *endpoint);
const char *brt_client_endpoint(const brt_client *self);
const char *brt_client_events_endpoint(const brt_client *self);
/* The daemon's public key in Z85. */
const char *brt_client_server_key(const brt_client *self);
/* This client's public key in Z85. */
const char *brt_client_public_key(const brt_client *self);

/* ---- outcome of the last call ------------------------------------------------ */

int brt_client_code(const brt_client *self);           /* Reply.code or BRT_CLIENT_NO_REPLY */
const char *brt_client_rule(const brt_client *self);   /* "6.3" or "" */
const char *brt_client_message(const brt_client *self);/* a sentence, or "" */
/* One line: "rejected ILLEGAL [6.3] GARDE cannot enter 0805: an enemy unit is there",
 * or "no reply from ipc://...: timed out after 30000 ms". */
const char *brt_client_error(const brt_client *self);
/* The last Reply (NULL if none arrived). Valid until the next call. */
const Berthier__V1__Reply *brt_client_reply(const brt_client *self);
/* The request id of the last call. */
uint64_t brt_client_last_request_id(const brt_client *self);
/* "ILLEGAL", "STALE", ... ("NO_REPLY" for BRT_CLIENT_NO_REPLY, "?" if unknown). */
const char *brt_code_name(int code);

/* ---- calls ----------------------------------------------------------------- */

/* Send a Request you built yourself. request_id 0 = the library picks a fresh one.
 * The Reply is in brt_client_reply(). */
int brt_client_call(brt_client *self, Berthier__V1__Request *req);
/* Send pre-encoded Request bytes as they are (the request id inside them is the
 * caller's). Used to retry a request by hand with the same id. */
int brt_client_call_raw(brt_client *self, const uint8_t *req, size_t len, uint64_t request_id);

/* ---- seat signatures (docs/protocol.md P3.1) ----------------------------------
 * Every input a seat makes is signed with an Ed25519 key derived from the
 * client's CURVE secret key (no other key file). brt_client_call signs a
 * join, submit, resign or reveal that has no signature yet; the first time a
 * game is used it fetches the game's header (brt_client_header) and checks it
 * before signing anything: its own key at that seat, a dice commitment and the
 * server's signing key. A join binds the signing key and the header hash. */

/* The game's header as logged, checked as above (fails with UNAUTHORIZED, rule
 * P3, when it does not hold this client's key at `seat`). */
int brt_client_header(brt_client *self, const char *game_id, unsigned seat,
                      const Berthier__V1__GameHeader **out);
/* Sign an input request in place (request_id 0 gets a fresh one; a join
 * without sign_pk gets this client's key and the header hash): req->signature
 * then points to sig. For requests sent with brt_client_call_raw. 0 / -1. */
int brt_client_sign(brt_client *self, Berthier__V1__Request *req, uint8_t sig[64]);
/* This client's seat signing key (Join.sign_pk). */
void brt_client_sign_pk(const brt_client *self, uint8_t pk[32]);

/* game_id NULL: engine version, rulesets, admin flag. With game_id and seat: the
 * daemon also returns that seat's event key (read it with brt_client_event_key). */
int brt_client_hello(brt_client *self, const char *game_id, int seat,
                     const Berthier__V1__Hello **out);
/* The seat's event key from the last join or hello reply. 0 / -1 (none there). */
int brt_client_event_key(const brt_client *self, uint8_t key[BRT_EVENT_KEY_BYTES]);

typedef struct brt_game_spec {
    const char *ruleset;            /* "duel", "n20" */
    const char *scenario;           /* "standard", "waterloo20-standard" */
    const char *const *options;     /* "name" or "name=value" */
    size_t n_options;
    const char *const *seat_keys;   /* each seat's public key, Z85 */
    size_t n_seats;
    uint32_t decision_ms;           /* clock: budget per decision, 0 = none */
    uint32_t bank_ms;               /* clock: time bank per seat, 0 = none */
    int forfeit;                    /* clock: a timeout forfeits */
    const char *const *spectator_keys; /* keys that may watch the game, Z85 (docs/protocol.md P3) */
    size_t n_spectators;            /* at most BRT_MAX_SPECTATORS */
} brt_game_spec;

#define BRT_MAX_SPECTATORS 64

/* Create a game (admin only). On success game_id_out holds its id. */
int brt_client_create(brt_client *self, const brt_game_spec *spec,
                      char game_id_out[BRT_GAME_ID_MAX + 1], const Berthier__V1__Created **out);
/* Join a seat with 32 fresh random bytes of entropy (after checking the game's
 * header; the join binds this client's signing key and the header hash). */
int brt_client_join(brt_client *self, const char *game_id, unsigned seat,
                    const Berthier__V1__Joined **out);
int brt_client_pending(brt_client *self, const char *game_id, unsigned seat,
                       const Berthier__V1__Decision **out);
int brt_client_legal(brt_client *self, const char *game_id, unsigned seat, unsigned limit,
                     const Berthier__V1__LegalOrders **out);
/* The state as this key may see it. `what`: BRT_STATE_TEXT adds the text rendering
 * (StateView.text), BRT_STATE_SVG the ruleset's picture (StateView.svg, empty when the
 * ruleset draws none; docs/render.md); 0 the View alone. A spectator key (seat 0) gets
 * the spectators' view all along when the game has spectators=live. */
#define BRT_STATE_TEXT 1
#define BRT_STATE_SVG 2
int brt_client_state(brt_client *self, const char *game_id, unsigned seat, int what,
                     const Berthier__V1__StateView **out);
/* A question about the state in the ruleset's own words (wem: "reach B12 R3", docs/wem-query.md),
 * answered as text as the seat (or the key's spectator / admin view) may see the state; *out
 * points into the client's last reply. -1 with the daemon's refusal in the last error. */
int brt_client_query(brt_client *self, const char *game_id, unsigned seat, const char *text,
                     const Berthier__V1__QueryAnswer **out);
/* The hash a seat holds mid-game (Accepted.view_hash, StateView.view_hash; docs/protocol.md):
 * BLAKE2b-256("berthier-view-v1" || game id || seat (u32 le, 0xffffffff = the full view,
 * 0xfffffffe = the spectators' view of a live game) ||
 * seq (u64 le) || View bytes). The full state's hash (state_hash) comes only after the end. */
int brt_view_hash(const char *game_id, int seat, uint64_t seq, const uint8_t *view, size_t len,
                  uint8_t out[32]);
/* 0 if the StateView's view_hash is that of its view for (game, seat); -1 if absent or not. */
int brt_view_hash_check(const Berthier__V1__StateView *sv, const char *game_id, int seat)
    __attribute__((warn_unused_result));
/* Submit an order as the ruleset's Order bytes ... */
int brt_client_submit(brt_client *self, const char *game_id, unsigned seat, uint64_t based_on_seq,
                      const uint8_t *order, size_t len, const Berthier__V1__Accepted **out);
/* ... or in the text syntax. */
int brt_client_submit_text(brt_client *self, const char *game_id, unsigned seat,
                           uint64_t based_on_seq, const char *text,
                           const Berthier__V1__Accepted **out);
int brt_client_resign(brt_client *self, const char *game_id, unsigned seat);

/* ---- one round trip per order (docs/protocol.md P4.3) --------------------------
 * With a Want set, the reply that acknowledges an input or answers `pending` also
 * carries the seat's decision after it (brt_client_next) and, when the seat must act
 * on it, its legal orders (brt_client_next_legal): a bot plays a whole turn with one
 * request. BRT_WANT_DECISION: the decision; BRT_WANT_LEGAL: the decision and, when
 * next.you_must_act, the legal orders (encoded orders only, at most `limit`, 0 = all);
 * BRT_WANT_TEXTS with BRT_WANT_LEGAL: their texts too; BRT_WANT_VIEW: the decision and,
 * when next.you_must_act, the seat's View as `state` answers it without text or svg
 * (brt_client_next_view). flags 0: the old replies. */
enum { BRT_WANT_DECISION = 1, BRT_WANT_LEGAL = 2, BRT_WANT_TEXTS = 4, BRT_WANT_VIEW = 8 };
/* P4.3: join, submit, submit_text, reveal, resign and pending from now on carry Want */
void brt_client_set_want(brt_client *self, unsigned flags, unsigned limit);
/* of the last successful reply: its Reply.next (for pending: the body's decision), NULL if none */
const Berthier__V1__Decision *brt_client_next(const brt_client *self);
/* of the last successful reply: Reply.next_legal, NULL if none */
const Berthier__V1__LegalOrders *brt_client_next_legal(const brt_client *self);
/* of the last successful reply: Reply.next_view, NULL if none (the daemon leaves it out
 * when the seat need not act, or when it would not fit in max-message: ask `state`) */
const Berthier__V1__StateView *brt_client_next_view(const brt_client *self);
/* (All three are valid until the next call on the client, like brt_client_reply.) */
/* Admins: end a game now (docs/protocol.md P3): no winner, or with forfeit_seat
 * >= 0 a forfeit of that seat. reason: 1..BRT_ABORT_REASON_MAX bytes of printable ASCII. */
#define BRT_ABORT_REASON_MAX 120
int brt_client_abort(brt_client *self, const char *game_id, const char *reason, int forfeit_seat);
int brt_client_games(brt_client *self, const Berthier__V1__GameList **out);
int brt_client_events(brt_client *self, const char *game_id, unsigned seat, uint64_t since_seq,
                      const Berthier__V1__EventList **out);
/* One chunk of a game's log (admins; seats after the end). */
int brt_client_fetch_log(brt_client *self, const char *game_id, uint64_t offset,
                         uint32_t max_bytes, const Berthier__V1__LogChunk **out);
/* The whole log into a file. 0 / -1. */
int brt_client_fetch_log_file(brt_client *self, const char *game_id, const char *path);

/* ---- contributory dice (game option dice=contributory) ------------------------
 * A seat commits at join to the head of a hash chain of nonces,
 *   link[k] = BLAKE2b-256("berthier-chain-v1" || link[k+1]), commitment = link[0],
 * and reveals link[1], link[2], ... one per dice batch, when the pending decision
 * is "dice-nonce". Nobody can predict a roll before every seat revealed. */
typedef struct brt_chain brt_chain;

/* A fresh chain of `length` links after the commitment (random tail). NULL on failure. */
brt_chain *brt_chain_new(size_t length);
/* The chain of `length` links that ends in `tail` (32 bytes): a chain saved with
 * brt_chain_tail() and its length is rebuilt, link for link. NULL on failure. */
brt_chain *brt_chain_from_tail(const uint8_t tail[32], size_t length);
/* The chain's random tail (32 bytes, secret: whoever has it can reveal every link). */
const uint8_t *brt_chain_tail(const brt_chain *self);
size_t brt_chain_length(const brt_chain *self);
/* Skip to the link for dice batch `batch` (batch b is answered with link b+1: every
 * seat reveals once per batch, from batch 0). -1 if the chain is too short. */
int brt_chain_seek(brt_chain *self, uint64_t batch);
void brt_chain_destroy(brt_chain **pself);
const uint8_t *brt_chain_commitment(const brt_chain *self);   /* 32 bytes */
/* The link to reveal next (32 bytes), or NULL when the chain is used up. */
const uint8_t *brt_chain_peek(const brt_chain *self);
/* Mark the peeked link as revealed. */
void brt_chain_advance(brt_chain *self);

/* Join a dice=contributory game with the chain's commitment. */
int brt_client_join_chain(brt_client *self, const char *game_id, unsigned seat,
                          const brt_chain *chain, const Berthier__V1__Joined **out);
/* Reveal the chain's next link for dice batch `batch`; on success the chain advances.
 * batch is in the decision's prompt ("dice batch N: ..."): brt_decision_batch(). */
int brt_client_reveal(brt_client *self, const char *game_id, unsigned seat, uint64_t batch,
                      brt_chain *chain);
/* The dice batch a "dice-nonce" decision waits for. 0 / -1 (not such a decision). */
int brt_decision_batch(const Berthier__V1__Decision *d, uint64_t *batch);

/* ---- receipts and witnesses (docs/protocol.md P9) -----------------------------
 * Every reply that acknowledges an input (join, submit, resign, reveal) carries a
 * Receipt signed by the daemon's checkpoint key. The library checks it before the
 * call returns 0: the signature under the pinned signing key, input_hash against
 * the exact bytes sent, and the game, seat and kind against the request. A reply
 * that fails is BRT_CLIENT_BAD_RECEIPT (the call returns -1; the input may have
 * been applied: keep the reply as evidence). The key is pinned by
 * brt_client_pin_sign_key, by brt_client_open from <data_dir>/sign.pub when that
 * file exists, or else on first use from the daemon's `hello` (over the CURVE
 * connection authenticated by the server key). */
int brt_client_pin_sign_key(brt_client *self, const uint8_t pk[32]);
/* The pinned signing key. 0 / -1 (none yet). */
int brt_client_sign_key(const brt_client *self, uint8_t pk[32]);
/* The checked receipt of the last call (NULL if it acknowledged no input). Valid until the next call. */
const Berthier__V1__Receipt *brt_client_receipt(const brt_client *self);
/* The exact bytes of the last request sent. */
const uint8_t *brt_client_last_request(const brt_client *self, size_t *len);
/* Append the last call's receipt and request to a receipts file: 1 = saved, 0 = none, -1 = error. */
int brt_client_save_receipt(const brt_client *self, const char *path);
/* 1 if the request bytes are an input (join, submit, resign, reveal). */
int brt_request_is_input(const uint8_t *req, size_t len);
/* 0 if r is signed by pk. */
int brt_receipt_check(const Berthier__V1__Receipt *r, const uint8_t pk[32]) __attribute__((warn_unused_result));
/* 0 if r is signed by pk and acknowledges exactly the request bytes req (else why says what differs). */
int brt_receipt_check_request(const Berthier__V1__Receipt *r, const uint8_t pk[32], const uint8_t *req,
                              size_t len, char *why, size_t whylen) __attribute__((warn_unused_result));
/* Receipts file (docs/log-format.md "Receipts file"): one line per receipt,
 * `<Receipt hex> <Request hex>`. The parent directory is made if missing. 0 / -1. */
int brt_receipts_append(const char *path, const Berthier__V1__Receipt *r, const uint8_t *req, size_t len);
/* The default receipts file of a game: $BERTHIER_RECEIPTS_DIR/<game_id>.receipts
 * (default directory ./receipts). 0 / -1 (too long). */
int brt_receipts_default_path(const char *game_id, char *out, size_t cap);
/* Heads file (a witness): one line per checkpoint, `<game> <record> <head hex> <signature hex>`. 0 / -1. */
int brt_witness_append(const char *path, const char *game_id, const Berthier__V1__LogCheckpoint *c);

/* ---- events ------------------------------------------------------------------ */

typedef struct brt_sub brt_sub;

/* Subscribe to one seat's sealed stream (key = that seat's event key) or, with
 * seat < 0 and key NULL, to the spectators' clear stream. */
brt_sub *brt_client_subscribe(brt_client *self, const char *game_id, int seat,
                              const uint8_t key[BRT_EVENT_KEY_BYTES]);
/* Wait up to timeout_ms for the next notice. 1 = *out holds one (free it with
 * berthier__v1__notice__free_unpacked), 0 = timed out, -1 = error. Notices that
 * fail to decrypt or decode are dropped and counted. */
int brt_sub_recv(brt_sub *self, int timeout_ms, Berthier__V1__Notice **out);
uint64_t brt_sub_dropped(const brt_sub *self);
void brt_sub_destroy(brt_sub **pself);

#ifdef __cplusplus
}
#endif

#endif
