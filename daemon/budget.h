/*
 * budget.h - bounds on what a client may make the daemon hold for it:
 *
 *   - unsent reply bytes, per connection (`reply-budget`) and per key
 *     (`key-reply-budget`, the sum over the key's connections);
 *   - connections per key (`key-connections`).
 *
 * What is unsent: every reply is charged to its connection and its key when
 * it is built (budget_charge), and handed to libzmq as a message whose bytes
 * the daemon owns (zmq_msg_init_data); libzmq calls the message's free
 * function once the connection's engine has taken it for the wire (with CURVE:
 * when it has been encrypted into the frame being written) or dropped it (the
 * peer left). The free function (on a libzmq I/O thread) gives the bytes back.
 * So the charge of a connection is exactly the replies built for it that it
 * has not yet let the daemon write: a client that does not read them fills
 * its socket buffers, then its pipe, and its charge stays.
 *
 * A frame of a connection over its budget is dropped unread (budget_frame:
 * BUDGET_OVER_CONN): nothing is built for a peer that does not read. A frame
 * of a connection within its budget whose key is over the key's budget is
 * refused with CODE_BUSY (BUDGET_OVER_KEY; a small reply, charged too), or
 * dropped if the connection holds BUDGET_REFUSALS unread bytes already. A
 * frame of a connection the key cannot open any more (it has
 * `key-connections` others that are live) is refused with
 * CODE_TOO_MANY_CONNECTIONS (BUDGET_TOO_MANY). Other peers are never held up.
 *
 * A connection is known by (key, routing id) from its first frame; it is
 * forgotten when libzmq reports its socket closed (ZMQ_EVENT_DISCONNECTED on
 * the ROUTER's monitor, budget_disconnected) or a reply to it finds no such
 * peer (EHOSTUNREACH with ZMQ_ROUTER_MANDATORY).
 *
 * Everything is called from the main thread except the free function; the
 * byte counts are atomics, and the accounts are reference-counted so that a
 * message freed after its connection was forgotten still finds its account.
 */
#ifndef BERTHIERD_BUDGET_H
#define BERTHIERD_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#define BUDGET_RID_MAX 16
#define BUDGET_REFUSALS (64u << 10)   /* unread bytes over which even a key's CODE_BUSY is dropped */

typedef struct bd_budget bd_budget;

typedef enum {
    BUDGET_OK = 0,      /* serve the frame */
    BUDGET_OVER_CONN,   /* its connection has more unsent bytes than reply-budget: drop it unread */
    BUDGET_OVER_KEY,    /* its key has more unsent bytes than key-reply-budget: CODE_BUSY */
    BUDGET_TOO_MANY,    /* a new connection of a key that has key-connections live ones */
} budget_verdict;

/* What a reply was charged to (held by the reply until it is sent or dropped). */
typedef struct {
    void *conn, *key;
    size_t len;
} budget_ticket;

/* conn_bytes, key_bytes: 0 = no bound; max_conns: 0 = no cap. NULL when out of memory. */
bd_budget *budget_new(size_t conn_bytes, size_t key_bytes, unsigned max_conns);
void budget_destroy(bd_budget **pself);

/* Every frame (after its key was authenticated): its connection's verdict.
 * fd: ZMQ_SRCFD of the frame (-1 unknown), kept for budget_disconnected. */
budget_verdict budget_frame(bd_budget *self, const uint8_t key[32], const uint8_t *rid, size_t rid_len, int fd);

/* Charge a reply of len bytes to the connection (key, rid) and its key. */
void budget_charge(bd_budget *self, const uint8_t key[32], const uint8_t *rid, size_t rid_len, size_t len,
                   budget_ticket *t);
/* Give a charge back without sending (the reply is not sent). */
void budget_refund(budget_ticket *t);

/* Send the reply (identity frame, then the body as a message the budget owns,
 * ZMQ_DONTWAIT) on the ROUTER, moving the charge into the message: it is
 * given back when libzmq is done with it. identity is consumed. 0 = sent,
 * -1 = dropped (the peer left: its connection is forgotten; or its pipe is
 * full). key: the key the reply was charged to. */
int budget_send(bd_budget *self, void *router, void *identity_msg, const uint8_t key[32], const void *data,
                size_t len, budget_ticket *t);

/* libzmq closed the socket `fd` (monitor event): forget its connections. */
void budget_disconnected(bd_budget *self, int fd);

/* Diagnostics and tests. */
size_t budget_connections(const bd_budget *self);
size_t budget_unsent(const bd_budget *self);   /* bytes charged and not given back, all keys */
uint64_t budget_dropped(const bd_budget *self);   /* frames dropped unread (BUDGET_OVER_CONN) */

#endif
