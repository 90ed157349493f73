/* budget.c - unsent reply bytes and connections per key (see budget.h). */
#include "budget.h"

#include <errno.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "log.h"

/* An account: bytes charged and not given back. Reference-counted: the
 * table holds one reference while the connection (or key) is known, every
 * charged reply one more. */
typedef struct {
    atomic_size_t bytes;
    atomic_uint refs;
} s_acct;

typedef struct s_key {
    uint8_t key[32];
    s_acct *acct;
    unsigned nconns;
    struct s_key *next;
} s_key;

typedef struct s_conn {
    uint8_t key[32];
    uint8_t rid[BUDGET_RID_MAX];
    size_t rid_len;
    int fd;
    int over;   /* its frames are being dropped */
    int warned; /* that was logged: once per connection, so that a reader hovering at its
                 * budget cannot make the daemon write a line per frame */
    s_acct *acct;
    s_key *k;
    struct s_conn *next;
} s_conn;

struct bd_budget {
    size_t conn_bytes, key_bytes;
    unsigned max_conns;
    uint8_t hash_key[crypto_shorthash_KEYBYTES];
    s_conn **conns;
    size_t nconns, conn_buckets;
    s_key **keys;
    size_t nkeys, key_buckets;
    uint64_t dropped;
};

/* A reply handed to libzmq: its accounts and bytes before the data. */
typedef struct {
    s_acct *conn, *key;
    size_t len;
    uint8_t data[];
} s_block;

static s_acct *s_acct_new(void) {
    s_acct *a = malloc(sizeof *a);
    if (!a) return NULL;
    atomic_init(&a->bytes, 0);
    atomic_init(&a->refs, 1);
    return a;
}

static s_acct *s_acct_ref(s_acct *a) {
    if (a) atomic_fetch_add(&a->refs, 1);
    return a;
}

static void s_acct_unref(s_acct *a) {
    if (a && atomic_fetch_sub(&a->refs, 1) == 1) free(a);
}

static void s_acct_give_back(s_acct *a, size_t len) {
    if (a) atomic_fetch_sub(&a->bytes, len);
}

static size_t s_hash(const bd_budget *self, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    uint8_t in[32 + BUDGET_RID_MAX + 1], out[crypto_shorthash_BYTES];
    memcpy(in, a, alen);
    if (blen) memcpy(in + alen, b, blen);
    in[alen + blen] = (uint8_t)blen;
    crypto_shorthash(out, in, alen + blen + 1, self->hash_key);
    uint64_t h;
    memcpy(&h, out, sizeof h);
    return (size_t)h;
}

bd_budget *budget_new(size_t conn_bytes, size_t key_bytes, unsigned max_conns) {
    bd_budget *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->conn_bytes = conn_bytes;
    self->key_bytes = key_bytes;
    self->max_conns = max_conns;
    randombytes_buf(self->hash_key, sizeof self->hash_key);
    self->conn_buckets = self->key_buckets = 256;
    self->conns = calloc(self->conn_buckets, sizeof *self->conns);
    self->keys = calloc(self->key_buckets, sizeof *self->keys);
    if (!self->conns || !self->keys) {
        budget_destroy(&self);
        return NULL;
    }
    return self;
}

void budget_destroy(bd_budget **pself) {
    if (!pself || !*pself) return;
    bd_budget *self = *pself;
    for (size_t i = 0; self->conns && i < self->conn_buckets; i++)
        for (s_conn *c = self->conns[i], *n; c; c = n) {
            n = c->next;
            s_acct_unref(c->acct);
            free(c);
        }
    for (size_t i = 0; self->keys && i < self->key_buckets; i++)
        for (s_key *k = self->keys[i], *n; k; k = n) {
            n = k->next;
            s_acct_unref(k->acct);
            free(k);
        }
    free(self->conns);
    free(self->keys);
    free(self);
    *pself = NULL;
}

/* Double a chained table when it holds more entries than buckets. */
static void s_grow_conns(bd_budget *self) {
    if (self->nconns < self->conn_buckets) return;
    size_t nb = self->conn_buckets * 2;
    s_conn **t = calloc(nb, sizeof *t);
    if (!t) return;   /* longer chains, still correct */
    for (size_t i = 0; i < self->conn_buckets; i++)
        for (s_conn *c = self->conns[i], *n; c; c = n) {
            n = c->next;
            size_t b = s_hash(self, c->key, 32, c->rid, c->rid_len) & (nb - 1);
            c->next = t[b];
            t[b] = c;
        }
    free(self->conns);
    self->conns = t;
    self->conn_buckets = nb;
}

static void s_grow_keys(bd_budget *self) {
    if (self->nkeys < self->key_buckets) return;
    size_t nb = self->key_buckets * 2;
    s_key **t = calloc(nb, sizeof *t);
    if (!t) return;
    for (size_t i = 0; i < self->key_buckets; i++)
        for (s_key *k = self->keys[i], *n; k; k = n) {
            n = k->next;
            size_t b = s_hash(self, k->key, 32, NULL, 0) & (nb - 1);
            k->next = t[b];
            t[b] = k;
        }
    free(self->keys);
    self->keys = t;
    self->key_buckets = nb;
}

static s_key *s_key_find(bd_budget *self, const uint8_t key[32], int create) {
    size_t b = s_hash(self, key, 32, NULL, 0) & (self->key_buckets - 1);
    for (s_key *k = self->keys[b]; k; k = k->next)
        if (memcmp(k->key, key, 32) == 0) return k;
    if (!create) return NULL;
    s_key *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->acct = s_acct_new();
    if (!k->acct) {
        free(k);
        return NULL;
    }
    memcpy(k->key, key, 32);
    k->next = self->keys[b];
    self->keys[b] = k;
    self->nkeys++;
    s_grow_keys(self);
    return k;
}

static void s_key_unlink(bd_budget *self, s_key *k) {
    size_t b = s_hash(self, k->key, 32, NULL, 0) & (self->key_buckets - 1);
    for (s_key **p = &self->keys[b]; *p; p = &(*p)->next)
        if (*p == k) {
            *p = k->next;
            self->nkeys--;
            s_acct_unref(k->acct);   /* replies still in libzmq keep it alive */
            free(k);
            return;
        }
}

static s_conn *s_conn_find(bd_budget *self, const uint8_t key[32], const uint8_t *rid, size_t rid_len) {
    if (rid_len > BUDGET_RID_MAX) rid_len = BUDGET_RID_MAX;
    size_t b = s_hash(self, key, 32, rid, rid_len) & (self->conn_buckets - 1);
    for (s_conn *c = self->conns[b]; c; c = c->next)
        if (c->rid_len == rid_len && memcmp(c->rid, rid, rid_len) == 0 && memcmp(c->key, key, 32) == 0) return c;
    return NULL;
}

/* Forget a connection: its key counts one connection less (and is forgotten
 * with its last one). Replies of it still in libzmq keep their accounts. */
static void s_conn_forget(bd_budget *self, s_conn *c) {
    size_t b = s_hash(self, c->key, 32, c->rid, c->rid_len) & (self->conn_buckets - 1);
    for (s_conn **p = &self->conns[b]; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            self->nconns--;
            if (c->k && --c->k->nconns == 0) s_key_unlink(self, c->k);
            s_acct_unref(c->acct);
            free(c);
            return;
        }
}

budget_verdict budget_frame(bd_budget *self, const uint8_t key[32], const uint8_t *rid, size_t rid_len, int fd) {
    if (rid_len > BUDGET_RID_MAX) rid_len = BUDGET_RID_MAX;
    s_conn *c = s_conn_find(self, key, rid, rid_len);
    if (!c) {
        s_key *k = s_key_find(self, key, 1);
        if (!k) return BUDGET_OVER_KEY;   /* out of memory: refuse, never serve unaccounted */
        if (self->max_conns && k->nconns >= self->max_conns) {
            /* Its refusal is charged to the key: past the key's budget it is dropped too. */
            if (self->key_bytes && atomic_load(&k->acct->bytes) > self->key_bytes) {
                self->dropped++;
                return BUDGET_OVER_CONN;
            }
            return BUDGET_TOO_MANY;
        }
        c = calloc(1, sizeof *c);
        if (!c || !(c->acct = s_acct_new())) {
            free(c);
            if (k->nconns == 0) s_key_unlink(self, k);
            return BUDGET_OVER_KEY;
        }
        memcpy(c->key, key, 32);
        memcpy(c->rid, rid, rid_len);
        c->rid_len = rid_len;
        c->fd = fd;
        c->k = k;
        k->nconns++;
        size_t b = s_hash(self, key, 32, rid, rid_len) & (self->conn_buckets - 1);
        c->next = self->conns[b];
        self->conns[b] = c;
        self->nconns++;
        s_grow_conns(self);
    }
    if (fd >= 0) c->fd = fd;
    size_t unsent = atomic_load(&c->acct->bytes);
    if (self->conn_bytes && unsent > self->conn_bytes) {
        self->dropped++;
        if (!c->warned) {
            char z[41];
            zmq_z85_encode(z, c->key, 32);
            z[8] = 0;
            log_warn("key %s...: a connection has %zu bytes of replies it has not read (reply-budget %zu): "
                     "its frames are dropped unread until it reads them",
                     z, unsent, self->conn_bytes);
        }
        c->over = 1;
        c->warned = 1;
        return BUDGET_OVER_CONN;
    }
    c->over = 0;
    if (self->key_bytes && atomic_load(&c->k->acct->bytes) > self->key_bytes) {
        /* Refusals are small, but not free: a connection that does not read them
         * either is dropped once it holds BUDGET_REFUSALS of them. */
        if (unsent > BUDGET_REFUSALS) {
            self->dropped++;
            return BUDGET_OVER_CONN;
        }
        return BUDGET_OVER_KEY;
    }
    return BUDGET_OK;
}

void budget_charge(bd_budget *self, const uint8_t key[32], const uint8_t *rid, size_t rid_len, size_t len,
                   budget_ticket *t) {
    memset(t, 0, sizeof *t);
    s_conn *c = s_conn_find(self, key, rid, rid_len);
    s_key *k = c ? c->k : s_key_find(self, key, 0);
    s_acct *ca = c ? s_acct_ref(c->acct) : NULL, *ka = k ? s_acct_ref(k->acct) : NULL;
    if (ca) atomic_fetch_add(&ca->bytes, len);
    if (ka) atomic_fetch_add(&ka->bytes, len);
    t->conn = ca;
    t->key = ka;
    t->len = len;
}

void budget_refund(budget_ticket *t) {
    s_acct_give_back(t->conn, t->len);
    s_acct_give_back(t->key, t->len);
    s_acct_unref(t->conn);
    s_acct_unref(t->key);
    memset(t, 0, sizeof *t);
}

/* libzmq is done with a reply (written or dropped); may run on an I/O thread. */
static void s_free(void *data, void *hint) {
    (void)data;
    s_block *b = hint;
    s_acct_give_back(b->conn, b->len);
    s_acct_give_back(b->key, b->len);
    s_acct_unref(b->conn);
    s_acct_unref(b->key);
    free(b);
}

int budget_send(bd_budget *self, void *router, void *identity_msg, const uint8_t key[32], const void *data,
                size_t len, budget_ticket *t) {
    zmq_msg_t *id = identity_msg;
    uint8_t rid[BUDGET_RID_MAX];
    size_t rid_len = zmq_msg_size(id) < BUDGET_RID_MAX ? zmq_msg_size(id) : BUDGET_RID_MAX;
    memcpy(rid, zmq_msg_data(id), rid_len);
    if (zmq_msg_send(id, router, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0) {
        int e = errno;
        zmq_msg_close(id);
        budget_refund(t);
        if (e == EHOSTUNREACH) {
            s_conn *c = s_conn_find(self, key, rid, rid_len);   /* the peer left */
            if (c) s_conn_forget(self, c);
        }
        return -1;
    }
    s_block *b = malloc(sizeof *b + (len ? len : 1));
    if (!b) fatal("out of memory sending a reply of %zu bytes", len);
    b->conn = t->conn;
    b->key = t->key;
    b->len = t->len;
    memset(t, 0, sizeof *t);
    if (len) memcpy(b->data, data, len);
    zmq_msg_t m;
    if (zmq_msg_init_data(&m, b->data, len, s_free, b) != 0) {
        s_free(b->data, b);
        return -1;
    }
    if (zmq_msg_send(&m, router, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&m);   /* calls s_free */
        return -1;
    }
    return 0;
}

void budget_disconnected(bd_budget *self, int fd) {
    if (fd < 0) return;
    for (size_t i = 0; i < self->conn_buckets; i++)
        for (s_conn *c = self->conns[i], *n; c; c = n) {
            n = c->next;
            if (c->fd == fd) s_conn_forget(self, c);
        }
}

size_t budget_connections(const bd_budget *self) { return self->nconns; }

size_t budget_unsent(const bd_budget *self) {
    size_t n = 0;
    for (size_t i = 0; i < self->key_buckets; i++)
        for (const s_key *k = self->keys[i]; k; k = k->next) n += atomic_load(&k->acct->bytes);
    return n;
}

uint64_t budget_dropped(const bd_budget *self) { return self->dropped; }
