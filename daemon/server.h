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
 *   4. write every log that has new records, then hand their fdatasyncs to the
 *      flush threads (8, started once: the file system can commit them
 *      together);
 *   5. while they run, keep reading frames: durable queries are answered at
 *      once, every other frame is put off whole, in order;
 *   6. when the flush has ended (on failure: stop the daemon, acknowledging
 *      nothing), send the round's replies and publish its notices, serve the
 *      frames put off, and go on with the next round at 2.
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
