/*
 * replay.h - re-executing a game log: the library behind berthier-replay.
 *
 * verify: the chain, the header (ruleset version, signing key), every
 * checkpoint (the signature of the last one before the end or the first problem,
 * which covers the earlier ones through the chain; each one with opts->paranoid),
 * the seed reveal against the dice commitment, and a
 * re-execution of every input through the pinned ruleset in which every record
 * the engine produces must equal the next record of the log byte for byte.
 */
#ifndef BERTHIER_REPLAY_H
#define BERTHIER_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Exit codes of berthier-replay (and return values of replay_verify). */
enum {
    REPLAY_OK = 0,          /* a complete, finished game; every check passed */
    REPLAY_BAD = 1,         /* tampered or corrupt: the first bad record is named */
    REPLAY_INCOMPLETE = 2,  /* consistent so far, but the game is not finished (a live game) */
    REPLAY_CANNOT = 3,      /* could not check at all (cannot read the file, out of memory) */
    REPLAY_USAGE = 64       /* bad command line */
};

/* Verify the log at `path`. trusted_pk: the Ed25519 key to trust (NULL: the
 * header's server_sign_pk). One line per problem and a summary line are
 * appended to `report`. Returns a REPLAY_* code. */
int replay_verify(const char *path, const uint8_t *trusted_pk, brt_buf *report);

/* What a seat keeps of its own join (docs/protocol.md P3.1; berthierctl header
 * prints both): the signing key it bound and the header hash it signed. A log
 * is then checked against it too: that seat's JOIN must bind this key and (when
 * given) sign this header hash, or the log is BAD naming the JOIN (a join that
 * the operator replaced with one of its own) or the header. */
typedef struct replay_seat_pin {
    unsigned seat;
    uint8_t sign_pk[32];
    int have_header_hash;
    uint8_t header_hash[32];
} replay_seat_pin;

int replay_verify_seats(const char *path, const uint8_t *trusted_pk, const replay_seat_pin *pins, size_t npins,
                        brt_buf *report);

/* Same, over a memory image of a log. */
int replay_verify_memory(const uint8_t *data, size_t len, const uint8_t *trusted_pk, brt_buf *report);

/* What verify is given beside the log (evidence.h): the signer pinned with
 * --pk and trust files, receipts and witnessed heads. */
struct replay_evidence;
typedef struct replay_opts {
    const uint8_t *pk;                /* --pk: the only key to accept (NULL: none) */
    struct replay_evidence *ev;       /* trust keys, receipts, heads (NULL: none) */
    const replay_seat_pin *pins;      /* --seat-key: the seats' own records of their joins */
    size_t npins;
    int paranoid;                     /* --paranoid: check every checkpoint signature on its own */
    int sig_threads;                  /* seat signatures checked ahead on this many worker threads (0: one
                                         per cpu online; -1: none, each checked by the engine as it applies
                                         the input); the report is the same either way */
} replay_opts;

/* Verify the log at path (or, with path NULL, the memory image data/len) and
 * check it against opts. The result line ends with "; signer not pinned" unless
 * --pk or a trust file pinned the header's key (a key not pinned is a problem,
 * REPLAY_BAD); a receipt or head the log contradicts is a problem naming it. */
int replay_verify_with(const char *path, const uint8_t *data, size_t len, const replay_opts *opts,
                       brt_buf *report);

/* The state text after the first input that brought the game's seq to `seq`
 * or beyond (one input may advance seq by more than one: the last join also
 * starts the game; UINT64_MAX: the end of the log), as `seat` may see it (-1: everything).
 * 0, or -1 with a sentence in `err`. */
int replay_show(const char *path, uint64_t seq, int seat, brt_buf *out, brt_buf *err);

/* JSON lines: the header, every record (inputs with orders in the text syntax,
 * dice with their purpose, events in text, state hashes, result, reveal,
 * checkpoints). 0, or -1 (an "error" line names the damage) with err filled. */
int replay_export(const char *path, brt_buf *out, brt_buf *err);

/* Which party's share of a log render and html show, and what allows it
 * (view.c, docs/trust.md "Pictures and pages of a log"). */
typedef struct replay_view_opts {
    int viewpoint;             /* a seat (>= 0), BRT_VIEW_ALL (-1) or BRT_VIEW_PUBLIC (-2) */
    int all;                   /* --all: the operator asks for the full view of an unfinished game */
    const char *seat_secret;   /* --seat-secret: the seat's key file (NULL: none) */
} replay_view_opts;

/* The ruleset's SVG picture of the state at `seq` (as replay_show) for o->viewpoint,
 * with the last accepted order (when the viewpoint may know it) and a caption.
 * 0; REPLAY_BAD with err (the log does not re-execute, seq not reached, no
 * picture); REPLAY_USAGE with err when the viewpoint is not allowed. Nothing is
 * appended to out unless 0 is returned. */
int replay_render(const char *path, uint64_t seq, const replay_view_opts *o, brt_buf *out, brt_buf *err);

/* One self-contained HTML page (inline CSS, script and SVG; nothing fetched) that
 * steps through every input that changed the state, as o->viewpoint saw it.
 * Returns as replay_render. */
int replay_html(const char *path, const replay_view_opts *o, brt_buf *out, brt_buf *err);

/* Append s as a JSON string (with quotes), escaped. */
int replay_json_string(brt_buf *out, const char *s, size_t len);

#endif
