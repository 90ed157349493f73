/*
 * sigcheck.h - the seat signatures of a log checked ahead of its re-execution,
 * on worker threads (berthier-replay verify).
 *
 * sigcheck_start reads every seat-signed input of the log (JOIN, ORDER, RESIGN,
 * NONCE), rebuilds the message its seat signed (seatsig.h) and has worker
 * threads check the signatures in record order while the engine re-executes the
 * log. The engine asks for each verdict through game_set_seat_verify; the answer
 * is the precomputed one only when the engine's pk, message and signature are
 * byte for byte those the worker checked, else the check runs there and then
 * (seatsig_verify): the verdicts are exactly the engine's own, whatever the
 * threads' timing.
 */
#ifndef BERTHIER_SIGCHECK_H
#define BERTHIER_SIGCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "evlog.h"

typedef struct sigcheck sigcheck;

/* Checks recs[0..n) of game game_id (its header hashing to header_hash) on
 * `threads` workers (0: one per cpu online). NULL when the log holds too few
 * seat signatures to be worth threads, or on any failure: the engine then
 * checks each one itself, as without this. recs must outlive the sigcheck. */
sigcheck *sigcheck_start(const evlog_record *recs, size_t n, const char *game_id, const uint8_t header_hash[32],
                         unsigned threads);

/* Stops the workers and frees everything. */
void sigcheck_destroy(sigcheck **pself);

/* seatsig_verify's verdict (0 valid, -1 not) on the signature the engine checks
 * while it re-executes record `rec`. */
int sigcheck_verdict(sigcheck *self, size_t rec, const uint8_t pk[32], const char *game_id,
                     const uint8_t header_hash[32], uint64_t seq, uint64_t request_id, unsigned body_field,
                     const uint8_t *body, size_t body_len, const uint8_t *sig, size_t sig_len);

/* Verdicts answered from the workers' checks, and checks made on the spot
 * because the engine's message was not the one prepared (tests count these). */
void sigcheck_counts(const sigcheck *self, uint64_t *precomputed, uint64_t *on_the_spot);

/* The verdicts answered from the workers' checks by every sigcheck destroyed so
 * far in this process (a test counts the work done off the re-execution). */
uint64_t sigcheck_total_precomputed(void);

#endif
