/*
 * server.h - the network front end: a ROUTER socket for requests and a PUB
 * socket for notices, both CURVE servers checked by the ZAP handler, and the
 * main loop that runs commit rounds:
 *
 *   1. wait (zmq_poll) for requests, ZAP requests or the next clock deadline;
 *   2. answer ZAP requests; take up to `batch` frames without blocking (fewer
 *      when one key has its `share` of a round other keys share, fair.h);
 *      refuse over-rate frames (CODE_BUSY) and revoked keys before decoding,
 *      hand the others to the engine (records are appended); a query whose
 *      answer is already durable (about a game with nothing unsynced) is
 *      answered at once, every other reply waits;
 *   3. feed timeouts of expired clocks;
 *   4. write every log that has new records, then fdatasync them all at once
 *      (up to 8 threads: the file system can commit them together);
 *      on failure stop the daemon, acknowledging nothing;
 *   5. send the replies and publish the notices of the round.
 */
#ifndef BERTHIERD_SERVER_H
#define BERTHIERD_SERVER_H

#include <signal.h>

#include "config.h"
#include "engine.h"
#include "keys.h"

typedef struct bd_server bd_server;

bd_server *server_new(const bd_config *cfg, bd_keys *keys, bd_engine *engine, char *err, size_t errlen);
void server_destroy(bd_server **pself);
/* Run until *stop is set (then finish the round). When *reload is set (SIGHUP)
 * the key lists are read again (keys_reload) between two rounds, and *reload
 * cleared. 0 = clean stop, -1 = fail-stop. */
int server_run(bd_server *self, volatile sig_atomic_t *stop, volatile sig_atomic_t *reload);

#endif
