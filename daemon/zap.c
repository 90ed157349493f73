/* zap.c - the ZAP handler (see zap.h). */
#include "zap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "log.h"

#define S_FRAMES 7

struct bd_zap {
    void *sock;
    zap_check_fn check;
    void *ctx;
};

bd_zap *zap_new(void *zctx, zap_check_fn check, void *ctx) {
    bd_zap *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->sock = zmq_socket(zctx, ZMQ_REP);
    int linger = 0;
    if (!self->sock || zmq_setsockopt(self->sock, ZMQ_LINGER, &linger, sizeof linger) != 0 ||
        zmq_bind(self->sock, "inproc://zeromq.zap.01") != 0) {
        log_err("cannot bind the ZAP handler on inproc://zeromq.zap.01: %s", zmq_strerror(errno));
        if (self->sock) zmq_close(self->sock);
        free(self);
        return NULL;
    }
    self->check = check;
    self->ctx = ctx;
    return self;
}

void zap_destroy(bd_zap **pself) {
    if (!pself || !*pself) return;
    zmq_close((*pself)->sock);
    free(*pself);
    *pself = NULL;
}

void *zap_socket(bd_zap *self) { return self->sock; }

static void s_send(void *sock, const void *data, size_t len, int more) {
    zmq_send(sock, data, len, more ? ZMQ_SNDMORE : 0);
}

/* Receive one whole request; frames beyond S_FRAMES are drained and refused. */
static int s_serve_one(bd_zap *self) {
    zmq_msg_t f[S_FRAMES + 1];
    int n = 0, more = 1, overflow = 0;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, self->sock, n == 0 ? ZMQ_DONTWAIT : 0) < 0) {
            zmq_msg_close(&m);
            for (int i = 0; i < n && i < S_FRAMES + 1; i++) zmq_msg_close(&f[i]);
            return n == 0 ? 0 : -1;
        }
        more = zmq_msg_more(&m);
        if (n < S_FRAMES + 1) f[n] = m;
        else {
            zmq_msg_close(&m);
            overflow = 1;
        }
        n++;
    }
    int kept = n < S_FRAMES + 1 ? n : S_FRAMES + 1;
    const char *status = "400", *text = "refused";
    char user[41] = "";
    char domain[64] = "";
    /* frames: version, request id, domain, address, identity, mechanism, credentials... */
    if (!overflow && kept >= 6 && zmq_msg_size(&f[0]) == 3 && memcmp(zmq_msg_data(&f[0]), "1.0", 3) == 0) {
        size_t dl = zmq_msg_size(&f[2]);
        if (dl < sizeof domain) {
            memcpy(domain, zmq_msg_data(&f[2]), dl);
            domain[dl] = 0;
        }
        size_t ml = zmq_msg_size(&f[5]);
        const char *mech = zmq_msg_data(&f[5]);
        if (ml == 5 && memcmp(mech, "CURVE", 5) == 0 && kept == 7 && zmq_msg_size(&f[6]) == 32) {
            const uint8_t *key = zmq_msg_data(&f[6]);
            if (self->check(self->ctx, domain, key)) {
                status = "200";
                text = "OK";
                zmq_z85_encode(user, key, 32);
            } else {
                text = "key not admitted";
            }
        } else {
            text = "only CURVE is accepted";
        }
    }
    const void *reqid = kept >= 2 ? zmq_msg_data(&f[1]) : "";
    size_t reqid_len = kept >= 2 ? zmq_msg_size(&f[1]) : 0;
    s_send(self->sock, "1.0", 3, 1);
    s_send(self->sock, reqid, reqid_len, 1);
    s_send(self->sock, status, 3, 1);
    s_send(self->sock, text, strlen(text), 1);
    s_send(self->sock, user, strlen(user), 1);
    s_send(self->sock, "", 0, 0);
    for (int i = 0; i < kept; i++) zmq_msg_close(&f[i]);
    return 1;
}

int zap_serve(bd_zap *self) {
    int count = 0;
    for (;;) {
        int rc = s_serve_one(self);
        if (rc <= 0) break;
        count++;
    }
    return count;
}
