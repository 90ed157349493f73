/*
 * fair.h - admission of request frames, before any decoding, by the client's
 * CURVE key (the one ZAP authenticated; a key may have several connections):
 *
 *   - the rate limit: a token bucket per key (`rate` tokens a second, at most
 *     `burst`; one token per frame, whatever the frame holds, garbage
 *     included). A frame with no token is over the rate: the server answers it
 *     CODE_BUSY without decoding it and without handing it to the engine.
 *   - the round share: once two or more keys have sent frames in a commit
 *     round, the round takes no more frames after one key has `share` of them
 *     (accepted or refused). A flooding key cannot make the round, and thus
 *     every other key's wait for its reply, longer than `share` frames of its
 *     own; alone on the socket it may fill a whole `batch`.
 *
 * Buckets live in an open-addressing table (SipHash of the key under a
 * random secret, linear probing, at most half full), so that two keys never
 * share or reset each other's state. The table holds at most `max_keys`
 * keys. When it is full, entries whose state equals that of a key never seen
 * (bucket full again, nothing in the current round, no ban, no abuse count
 * in its window) are dropped, at most one sweep a second; if it is still
 * full, keys without an entry share one overflow bucket (rate-limited and
 * share-counted as one key, never banned) until entries become free. No key
 * ever takes over another key's entry.
 *
 * Time is in milliseconds (CLOCK_MONOTONIC), passed in: the table itself never
 * reads a clock. Tokens are counted in thousandths, in integers.
 */
#ifndef BERTHIERD_FAIR_H
#define BERTHIERD_FAIR_H

#include <stddef.h>
#include <stdint.h>

#define FAIR_MAX_KEYS 65536
#define FAIR_CONNS 2        /* connections remembered per key (the last ones seen) */
#define FAIR_RID_MAX 16     /* longest ROUTER routing id kept (libzmq's own are 5 bytes) */
#define FAIR_MAX_FD (1 << 20)

typedef struct bd_fair bd_fair;

typedef enum {
    FAIR_ADMIT = 0,     /* within the rate: decode and serve it; its reply is counted as queued
                         * for the round until fair_answered() says it left at once */
    FAIR_OVER_NOW,      /* over the rate, no reply of this key waits in the round: answer it now */
    FAIR_OVER_QUEUED,   /* over the rate, a reply of this key waits: answer it in order */
} fair_verdict;

/* rate 0 = no rate limit (the round share still applies). share >= 1.
 * max_keys 0 = FAIR_MAX_KEYS. NULL when out of memory. */
bd_fair *fair_new(unsigned rate, unsigned burst, unsigned share, size_t max_keys);
void fair_destroy(bd_fair **pself);

/* A commit round begins: every key's share count starts from zero. */
void fair_round_begin(bd_fair *self);

/* Account one frame of `key` at `now`. */
fair_verdict fair_admit(bd_fair *self, const uint8_t key[32], int64_t now);

/* The frame just admitted (FAIR_ADMIT) was answered at once instead of
 * waiting for the end of the round: its key's later refusals in the round no
 * longer have to queue behind it. uncount: it does not count toward the
 * key's share either (it was answered while the main loop would only have
 * waited for the disk). Call it before the next fair_admit. */
void fair_answered(bd_fair *self, int uncount);

/* 1 = the round must take no more frames (two keys or more in it, and one of
 * them has sent `share` frames). */
int fair_round_full(const bd_fair *self);

/* Keys with an entry in the table (for tests and diagnostics). */
size_t fair_count(const bd_fair *self);
/* 1 if `key` has an entry of its own (0: unseen, dropped, or in the overflow bucket). */
int fair_has_entry(const bd_fair *self, const uint8_t key[32]);

/*
 * Abuse: cutting a key's connections and banning it for a while.
 *
 * libzmq gives a ROUTER no call to close one peer, but every message carries
 * the fd of the connection it came from (zmq_msg_get(ZMQ_SRCFD), deprecated
 * but kept in 4.3): shutdown(2) on it (never close: libzmq owns the fd) ends
 * the stream, and libzmq drops that connection. An fd is a number that the
 * kernel hands out again once libzmq closes it, so it is only acted on for
 * the frame just received, and only if the record of the fd says that the
 * frame's routing id owns its current socket (fair_frame: the first routing
 * id seen on a socket inode owns it; a second one claiming the same socket
 * marks it contested, and a contested socket is never cut) and, when the
 * message has a Peer-Address, the peer of the fd now is that peer (uid, gid
 * and pid of a unix-socket peer; the address of a TCP peer).
 *
 * A banned key fails the ZAP handshake until its ban ends (in memory only).
 */
/* malformed/busy: frames over which a key is cut and banned, per window_s
 * seconds (0 = never); ban_s: length of the ban (0 = cut only, no ban). */
void fair_set_abuse(bd_fair *self, unsigned malformed, unsigned busy, unsigned window_s, unsigned ban_s);

/* Every frame, before admission: `fd` from ZMQ_SRCFD (-1 unknown) and the
 * routing id of its connection. Records the connection for the key. 1 = the
 * daemon cut this connection already: the frame is a leftover, drop it. */
int fair_frame(bd_fair *self, const uint8_t key[32], int fd, const uint8_t *rid, size_t rid_len, int64_t now);

/* 1 while `key` is banned. */
int fair_banned(const bd_fair *self, const uint8_t key[32], int64_t now);

/* Count a malformed frame (undecodable, not canonical, oversize, several
 * frames) or a BUSY refusal (counted only while a rate is set) of `key`.
 * 1 = over the threshold in the window: cut and ban it (fair_punish). */
int fair_note_malformed(bd_fair *self, const uint8_t key[32], int64_t now);
int fair_note_busy(bd_fair *self, const uint8_t key[32], int64_t now);

/* Cut the connection of the frame just received (fd, routing id, Peer-Address
 * or NULL) if it can be verified; with `ban`, ban the key for ban_s seconds
 * and cut its other recorded connections. Logs a warning with the key's
 * short form and `reason`. 1 = the frame's connection was cut. */
int fair_punish(bd_fair *self, const uint8_t key[32], int fd, const uint8_t *rid, size_t rid_len, const char *peer,
                int64_t now, int ban, const char *reason);

/* Cut the recorded connections of every key for which pred() is 1 (revoked
 * keys at a reload); logs each key. How many connections were cut. */
size_t fair_cut_keys(bd_fair *self, int (*pred)(void *ctx, const uint8_t key[32]), void *ctx, const char *reason);

/* Connections cut so far. */
uint64_t fair_cuts(const bd_fair *self);

#endif
