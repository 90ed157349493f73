/*
 * zap.h - the ZAP handler (ZeroMQ RFC 27) that decides which CURVE client
 * keys may connect. It is a REP socket on inproc://zeromq.zap.01 served from
 * the main loop's zmq_poll. libzmq 4.3 admits every CURVE client when no
 * handler is bound, so the daemon refuses to start if the bind fails.
 *
 * The User-Id returned for an admitted key is its Z85 text; the daemon reads
 * it back from every message with zmq_msg_gets(msg, "User-Id").
 */
#ifndef BERTHIERD_ZAP_H
#define BERTHIERD_ZAP_H

#include <stdint.h>

#define ZAP_DOMAIN_REQUESTS "berthier"
#define ZAP_DOMAIN_EVENTS "berthier-events"

/* 1 = admit, 0 = refuse. */
typedef int (*zap_check_fn)(void *ctx, const char *domain, const uint8_t key[32]);

typedef struct bd_zap bd_zap;

bd_zap *zap_new(void *zctx, zap_check_fn check, void *ctx);
void zap_destroy(bd_zap **pself);
void *zap_socket(bd_zap *self);
/* Answer every ZAP request waiting (non-blocking). Returns how many. */
int zap_serve(bd_zap *self);

#endif
