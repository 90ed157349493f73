/*
 * replay.c - re-execute a game log and compare every record (see replay.h and
 * docs/log-format.md, "What berthier-replay verify checks").
 *
 * The engine (core/game.c) runs with a sink whose record() does not write but
 * compares what the engine produced with the next record of the log, and whose
 * checkpoint() checks that the next record is a CHECKPOINT of the current head
 * signed by the trusted key (verify checks the signature of the last checkpoint
 * before the end or the first problem, which covers the earlier ones through the
 * chain: s_flush_sigs; --paranoid and the other tools check each one). The replay feeds every input record of the log to
 * the engine in order; each must make the engine produce exactly the records
 * that follow it, so a changed, missing, extra or reordered record is found at
 * the first place it makes a difference.
 */
#include "replay.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berthier/v1/berthier.pb-c.h"
#include "canon.h"
#include "evidence.h"
#include "dice.h"
#include "evlog.h"
#include "game.h"
#include "sigcheck.h"
#include "walk.h"

typedef struct dice_rec {
    uint64_t index;
    uint32_t sides;
    uint32_t value;
    uint64_t record;
} dice_rec;

typedef struct session {
    evlog_reader *rd;
    evlog_record *recs;
    size_t n;
    int damaged;                 /* the chain walk stopped at damage */
    const evlog_scan *scan;

    Berthier__V1__LogHeader *hdr;
    const brt_ruleset *rs;
    brt_game *g;
    uint8_t pk[32];
    int have_pk;
    uint8_t seed[32];
    int have_seed;
    size_t reveal_at;

    dice_rec *dice;              /* in record order */
    size_t n_dice, cap_dice;
    size_t dice_pos;             /* first DICE record not before the cursor */

    size_t cursor;               /* next log record the engine must produce */
    int problem;                 /* a mismatch was reported */
    int ran_out;                 /* the engine wanted a record after the end of the log */
    uint64_t checkpoints;        /* checkpoints verified */
    size_t last_checkpoint;      /* position of the last one verified (0: none) */
    int lazy_sigs;               /* verify: one signature for the checkpoints the chain covers */
    size_t *ckpts;               /* lazy: checkpoints whose signature is not checked yet */
    size_t n_ckpts, cap_ckpts;
    int flushing;                /* inside s_flush_sigs */
    uint64_t rolls;              /* DICE records matched */
    brt_buf *report;
    size_t n_problems;
    const replay_opts *opts;     /* pinned keys, receipts and heads (NULL: none) */
    const char *pinned_by;       /* how the signer was pinned, NULL: not pinned */
    sigcheck *sc;                /* verify: seat signatures checked ahead (NULL: by the engine) */
} session;

/* ---- report lines ---------------------------------------------------------- */

static void s_line(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_line(session *s, const char *fmt, ...) {
    if (!s->report) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_append_str(s->report, line);
    buf_append_str(s->report, "\n");
}

static void s_flush_sigs(session *s);

/* One problem, naming the record. The checkpoints before it whose signatures
 * wait are checked first, so that a bad one is named before it. */
static void s_problem(session *s, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_problem(session *s, size_t i, const char *fmt, ...) {
    if (!s->flushing) s_flush_sigs(s);
    char what[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    s->problem = 1;
    s->n_problems++;
    if (i < s->n)
        s_line(s, "record %llu at offset %llu (%s): %s", (unsigned long long)s->recs[i].index,
               (unsigned long long)s->recs[i].offset, evlog_kind_name(s->recs[i].kind), what);
    else
        s_line(s, "record %llu: %s", (unsigned long long)(s->n ? s->recs[s->n - 1].index + 1 : 0), what);
}

static void s_hex(const uint8_t *p, size_t n, char *out, size_t cap) {
    if (cap < 2 * n + 1) n = (cap - 1) / 2;
    sodium_bin2hex(out, 2 * n + 1, p, n);
}

/* ---- loading ---------------------------------------------------------------- */

static void s_session_free(session *s) {
    sigcheck_destroy(&s->sc);
    game_destroy(&s->g);
    if (s->hdr) berthier__v1__log_header__free_unpacked(s->hdr, NULL);
    free(s->recs);
    free(s->dice);
    free(s->ckpts);
    evlog_reader_destroy(&s->rd);
    sodium_memzero(s->seed, sizeof s->seed);
    memset(s, 0, sizeof *s);
}

/* Walk the chain once, keeping every valid record. 0, or -1 out of memory. */
static int s_load(session *s, evlog_reader *rd) {
    s->rd = rd;
    size_t cap = 0;
    evlog_record rec;
    int rc;
    while ((rc = evlog_reader_next(rd, &rec)) == 1) {
        if (s->n == cap) {
            size_t nc = cap ? cap * 2 : 256;
            evlog_record *r = realloc(s->recs, nc * sizeof *r);
            if (!r) return -1;
            s->recs = r;
            cap = nc;
        }
        s->recs[s->n++] = rec;
    }
    s->damaged = rc < 0;
    s->scan = evlog_reader_scan(rd);
    return 0;
}

/* Index the DICE records (the dice source of a game whose seed is not revealed). */
static int s_index_dice(session *s) {
    for (size_t i = 0; i < s->n; i++) {
        if (s->recs[i].kind != EVLOG_DICE) continue;
        Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, s->recs[i].len, s->recs[i].payload);
        if (!d) continue; /* the comparison will name it */
        if (s->n_dice == s->cap_dice) {
            size_t nc = s->cap_dice ? 2 * s->cap_dice : 64;
            dice_rec *nd = realloc(s->dice, nc * sizeof *nd);
            if (!nd) {
                berthier__v1__log_dice__free_unpacked(d, NULL);
                return -1;
            }
            s->dice = nd;
            s->cap_dice = nc;
        }
        s->dice[s->n_dice++] = (dice_rec){d->index, d->sides, d->value, i};
        berthier__v1__log_dice__free_unpacked(d, NULL);
    }
    return 0;
}

static uint32_t s_log_dice(void *ctx, uint64_t index, uint32_t sides, const char *purpose) {
    session *s = ctx;
    while (s->dice_pos < s->n_dice && s->dice[s->dice_pos].record < s->cursor) s->dice_pos++;
    for (size_t k = s->dice_pos; k < s->n_dice; k++) {
        const dice_rec *d = &s->dice[k];
        if (d->index != index) continue;
        if (d->sides != sides || d->value < 1 || d->value > sides) {
            s_problem(s, (size_t)d->record, "roll %llu (%s) is a d%u in the rules but the log has d%u=%u",
                      (unsigned long long)index, purpose ? purpose : "", sides, d->sides, d->value);
            return 0;
        }
        return d->value;
    }
    /* Not found: fine if the log ends inside this input's outcome (cut or damaged
     * there), a problem if the next input comes first. */
    size_t next = s->cursor;
    while (next < s->n && s->recs[next].kind >= 16) next++;
    if (next >= s->n) s->ran_out = 1;
    else
        s_problem(s, s->cursor ? s->cursor - 1 : 0,
                  "the rules roll dice #%llu (d%u, %s) for this input but its outcome holds no such DICE record",
                  (unsigned long long)index, sides, purpose ? purpose : "");
    return 0;
}

/* ---- describing a difference ------------------------------------------------- */

static void s_describe(session *s, const evlog_record *r, uint8_t kind, const uint8_t *p, size_t len, char *out,
                       size_t cap) {
    if (r->kind != kind) {
        snprintf(out, cap, "the log has %s (%u bytes) where the engine produces %s (%zu bytes)",
                 evlog_kind_name(r->kind), r->len, evlog_kind_name(kind), len);
        return;
    }
    switch (kind) {
    case EVLOG_DICE: {
        Berthier__V1__LogDice *a = berthier__v1__log_dice__unpack(NULL, r->len, r->payload);
        Berthier__V1__LogDice *b = berthier__v1__log_dice__unpack(NULL, len, p);
        if (a && b) {
            snprintf(out, cap,
                     "roll #%llu: the log says d%u=%u (\"%s\", visible %#x), the engine rolls #%llu d%u=%u (\"%s\", "
                     "visible %#x)",
                     (unsigned long long)a->index, a->sides, a->value, a->purpose, a->visible,
                     (unsigned long long)b->index, b->sides, b->value, b->purpose, b->visible);
        } else {
            snprintf(out, cap, "DICE record does not decode");
        }
        if (a) berthier__v1__log_dice__free_unpacked(a, NULL);
        if (b) berthier__v1__log_dice__free_unpacked(b, NULL);
        return;
    }
    case EVLOG_STATE: {
        Berthier__V1__LogState *a = berthier__v1__log_state__unpack(NULL, r->len, r->payload);
        Berthier__V1__LogState *b = berthier__v1__log_state__unpack(NULL, len, p);
        if (a && b) {
            char ha[65] = "", hb[65] = "";
            s_hex(a->hash.data, a->hash.len, ha, sizeof ha);
            s_hex(b->hash.data, b->hash.len, hb, sizeof hb);
            snprintf(out, cap, "state after seq %llu (turn %u): the log says %s, the engine computes seq %llu "
                               "(turn %u) %s",
                     (unsigned long long)a->seq, a->turn, ha, (unsigned long long)b->seq, b->turn, hb);
        } else {
            snprintf(out, cap, "STATE record does not decode");
        }
        if (a) berthier__v1__log_state__free_unpacked(a, NULL);
        if (b) berthier__v1__log_state__free_unpacked(b, NULL);
        return;
    }
    case EVLOG_EVENT: {
        Berthier__V1__LogEvent *a = berthier__v1__log_event__unpack(NULL, r->len, r->payload);
        Berthier__V1__LogEvent *b = berthier__v1__log_event__unpack(NULL, len, p);
        if (a && b) {
            brt_buf ta, tb;
            buf_init(&ta);
            buf_init(&tb);
            if (!s->rs || s->rs->event_format(a->data.data, a->data.len, &ta) != 0) {
                buf_reset(&ta);
                buf_append_str(&ta, "(undecodable)");
            }
            if (!s->rs || s->rs->event_format(b->data.data, b->data.len, &tb) != 0) {
                buf_reset(&tb);
                buf_append_str(&tb, "(undecodable)");
            }
            snprintf(out, cap, "event %llu.%u: the log says \"%.*s\" (visible %#x), the engine produces "
                               "%llu.%u \"%.*s\" (visible %#x)",
                     (unsigned long long)a->seq, a->index, (int)(ta.len > 200 ? 200 : ta.len),
                     ta.data ? (char *)ta.data : "", a->visible, (unsigned long long)b->seq, b->index,
                     (int)(tb.len > 200 ? 200 : tb.len), tb.data ? (char *)tb.data : "", b->visible);
            buf_free(&ta);
            buf_free(&tb);
        } else {
            snprintf(out, cap, "EVENT record does not decode");
        }
        if (a) berthier__v1__log_event__free_unpacked(a, NULL);
        if (b) berthier__v1__log_event__free_unpacked(b, NULL);
        return;
    }
    case EVLOG_REVEAL:
        snprintf(out, cap, "the revealed seed differs from the one the game was replayed with");
        return;
    case EVLOG_END:
        snprintf(out, cap, "the result differs from the one the rules give");
        return;
    default: {
        size_t k = 0, m = r->len < len ? r->len : len;
        while (k < m && r->payload[k] == p[k]) k++;
        snprintf(out, cap, "payload differs from the engine's at byte %zu (log %u bytes, engine %zu bytes)", k,
                 r->len, len);
        return;
    }
    }
}

/* ---- the comparing sink ---------------------------------------------------------- */

static int s_sink_record(void *ctx, uint8_t kind, const uint8_t *payload, size_t len) {
    session *s = ctx;
    if (s->problem || s->ran_out) return -1;
    if (s->cursor >= s->n) {
        s->ran_out = 1;
        return -1;
    }
    const evlog_record *r = &s->recs[s->cursor];
    if (r->kind == kind && r->len == len && (len == 0 || memcmp(r->payload, payload, len) == 0)) {
        if (kind == EVLOG_DICE) s->rolls++;
        s->cursor++;
        return 0;
    }
    char what[700];
    s_describe(s, r, kind, payload, len, what, sizeof what);
    s_problem(s, s->cursor, "%s", what);
    return -1;
}

/* 1 if the signature of checkpoint c does not verify. */
static int s_sig_bad(const session *s, const Berthier__V1__LogCheckpoint *c) {
    return evlog_checkpoint_verify(s->pk, s->hdr->game_id, c->record, c->head.data, c->signature.data) != 0;
}

/* The same for the checkpoint at record i (decoded and checked once already);
 * *rec: the record it names. */
static int s_ckpt_bad(const session *s, size_t i, uint64_t *rec) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&berthier__v1__log_checkpoint__descriptor, s->recs[i].payload, s->recs[i].len, 0, &m) !=
        CANON_OK)
        return 1;
    Berthier__V1__LogCheckpoint *c = (Berthier__V1__LogCheckpoint *)m;
    *rec = c->record;
    int bad = s_sig_bad(s, c);
    protobuf_c_message_free_unpacked(m, NULL);
    return bad;
}

/* Keep checkpoint i for s_flush_sigs: its record and head are checked already. */
static int s_defer_sig(session *s, size_t i) {
    if (s->n_ckpts == s->cap_ckpts) {
        size_t nc = s->cap_ckpts ? 2 * s->cap_ckpts : 32;
        size_t *p = realloc(s->ckpts, nc * sizeof *p);
        if (!p) {
            s_problem(s, i, "out of memory while keeping the checkpoints");
            return -1;
        }
        s->ckpts = p;
        s->cap_ckpts = nc;
    }
    s->ckpts[s->n_ckpts++] = i;
    return 0;
}

/* The signatures of the checkpoints kept so far. The chain hash that the last
 * one signs covers every record before it, the earlier checkpoints included, so
 * its signature alone vouches for all of them: one Ed25519 check. Only when it
 * fails are the earlier ones checked one by one, to name the first bad one (a
 * rewritten history re-signed with another key fails at the first checkpoint). */
static void s_flush_sigs(session *s) {
    if (!s->n_ckpts || s->flushing) return;
    s->flushing = 1;
    size_t n = s->n_ckpts;
    s->n_ckpts = 0;
    uint64_t rec = 0;
    if (s_ckpt_bad(s, s->ckpts[n - 1], &rec)) {
        size_t first = n - 1;
        for (size_t j = 0; j + 1 < n; j++)
            if (s_ckpt_bad(s, s->ckpts[j], &rec)) {
                first = j;
                break;
            }
        if (first == n - 1) s_ckpt_bad(s, s->ckpts[first], &rec);
        s_problem(s, s->ckpts[first], "checkpoint signature of record %llu does not verify under key %02x%02x%02x%02x...",
                  (unsigned long long)rec, s->pk[0], s->pk[1], s->pk[2], s->pk[3]);
    }
    s->flushing = 0;
}

static int s_sink_checkpoint(void *ctx) {
    session *s = ctx;
    if (s->problem || s->ran_out) return -1;
    if (s->cursor >= s->n) {
        s->ran_out = 1;
        return -1;
    }
    size_t i = s->cursor;
    const evlog_record *r = &s->recs[i];
    if (r->kind != EVLOG_CHECKPOINT) {
        s_problem(s, i, "the engine signs the head here but the log has %s, not CHECKPOINT",
                  evlog_kind_name(r->kind));
        return -1;
    }
    ProtobufCMessage *m = NULL;
    int crc = canon_unpack(&berthier__v1__log_checkpoint__descriptor, r->payload, r->len, 0, &m);
    if (crc != CANON_OK) {
        s_problem(s, i, "checkpoint does not decode: %s", canon_strerror(crc));
        return -1;
    }
    Berthier__V1__LogCheckpoint *c = (Berthier__V1__LogCheckpoint *)m;
    int rc = -1;
    /* The signed record is the one just before the checkpoint in the file. The
     * reader hides SYNC records (evlog.h), so if there are any in between, the
     * head is carried over them: each is empty and chains like any record. */
    uint64_t want = r->index - 1;
    uint8_t head[32];
    memcpy(head, s->recs[i - 1].chain, 32);
    for (uint64_t k = s->recs[i - 1].index + 1; k < r->index; k++) evlog_chain(head, EVLOG_SYNC, NULL, 0, head);
    if (c->record != want)
        s_problem(s, i, "checkpoint names record %llu, but it follows record %llu", (unsigned long long)c->record,
                  (unsigned long long)want);
    else if (c->head.len != 32 || memcmp(c->head.data, head, 32) != 0)
        s_problem(s, i, "checkpoint head is not the chain hash of record %llu", (unsigned long long)want);
    else if (c->signature.len != 64)
        s_problem(s, i, "checkpoint signature is %zu bytes, not 64", c->signature.len);
    else if (!s->have_pk)
        s_problem(s, i, "no signing key to check the checkpoint with");
    else if (s->lazy_sigs)
        rc = s_defer_sig(s, i);
    else if (s_sig_bad(s, c))
        s_problem(s, i, "checkpoint signature of record %llu does not verify under key %02x%02x%02x%02x...",
                  (unsigned long long)c->record, s->pk[0], s->pk[1], s->pk[2], s->pk[3]);
    else
        rc = 0;
    protobuf_c_message_free_unpacked(m, NULL);
    if (rc == 0) {
        s->checkpoints++;
        s->last_checkpoint = i;
        s->cursor++;
    }
    return rc;
}

static void s_sink_head(void *ctx, uint8_t out[32]) {
    session *s = ctx;
    if (s->cursor == 0 || s->cursor > s->n) memset(out, 0, 32);
    else memcpy(out, s->recs[s->cursor - 1].chain, 32);
}

/* ---- starting the engine ------------------------------------------------------------ */

/* Header checks, the seed, the engine. 0, or -1 after reporting. */
static int s_start(session *s) {
    const uint8_t *trusted_pk = s->opts ? s->opts->pk : NULL;
    const replay_evidence *ev = s->opts ? s->opts->ev : NULL;
    const evlog_record *h = &s->recs[0];
    ProtobufCMessage *m = NULL;
    int crc = canon_unpack(&berthier__v1__log_header__descriptor, h->payload, h->len, 0, &m);
    if (crc != CANON_OK) {
        s_problem(s, 0, "the header does not decode: %s", canon_strerror(crc));
        return -1;
    }
    s->hdr = (Berthier__V1__LogHeader *)m;
    const Berthier__V1__LogHeader *hd = s->hdr;
    if (hd->format != EVLOG_FORMAT) {
        s_problem(s, 0, "header format %u, this build reads format %d", hd->format, EVLOG_FORMAT);
        return -1;
    }
    s->rs = brt_ruleset_find(hd->ruleset);
    if (!s->rs) {
        s_problem(s, 0, "ruleset \"%s\" is not built into this engine", hd->ruleset);
        return -1;
    }
    if (strcmp(hd->ruleset_version, s->rs->version) != 0) {
        s_problem(s, 0, "the game was played with ruleset %s version \"%s\" but this build has version \"%s\"",
                  s->rs->id, hd->ruleset_version, s->rs->version);
        return -1;
    }
    /* the scenario data (map, charts, cards) this build has must be the game's */
    uint8_t scen[32];
    if (s->rs->scenario_hash(hd->scenario, scen) != 0) {
        s_problem(s, 0, "scenario \"%s\" is not built into ruleset %s", hd->scenario, s->rs->id);
        return -1;
    }
    if (hd->scenario_hash.len != 32 || memcmp(hd->scenario_hash.data, scen, 32) != 0) {
        char a[65], b[65];
        s_hex(hd->scenario_hash.len == 32 ? hd->scenario_hash.data : scen, 32, a, sizeof a);
        s_hex(scen, 32, b, sizeof b);
        s_problem(s, 0, "the game was played with scenario %s data %s but this build has %s",
                  hd->scenario, hd->scenario_hash.len == 32 ? a : "(none)", b);
        return -1;
    }
    if (hd->server_sign_pk.len != 32) {
        s_problem(s, 0, "the header's server_sign_pk is %zu bytes, not 32", hd->server_sign_pk.len);
        return -1;
    }
    if (trusted_pk && memcmp(trusted_pk, hd->server_sign_pk.data, 32) != 0) {
        char a[65], b[65];
        s_hex(hd->server_sign_pk.data, 32, a, sizeof a);
        s_hex(trusted_pk, 32, b, sizeof b);
        s_problem(s, 0, "the header's signing key %s is not the trusted key %s", a, b);
        return -1;
    }
    if (trusted_pk) s->pinned_by = "--pk";
    if (ev && ev->have_trust) {
        size_t k = 0;
        while (k < ev->ntrust && memcmp(ev->trust[k], hd->server_sign_pk.data, 32) != 0) k++;
        if (k == ev->ntrust) {
            char a[65];
            s_hex(hd->server_sign_pk.data, 32, a, sizeof a);
            s_problem(s, 0, "the header's signing key %s is not in the trust file", a);
            return -1;
        }
        if (!s->pinned_by) s->pinned_by = "the trust file";
    }
    memcpy(s->pk, hd->server_sign_pk.data, 32);
    s->have_pk = 1;

    /* The seed, if revealed, must open the commitment. */
    for (size_t i = 1; i < s->n; i++) {
        if (s->recs[i].kind != EVLOG_REVEAL) continue;
        Berthier__V1__LogReveal *rv = berthier__v1__log_reveal__unpack(NULL, s->recs[i].len, s->recs[i].payload);
        uint8_t commit[32];
        int ok = rv && rv->seed.len == 32 && hd->dice_commit.len == 32;
        if (ok) {
            dice_commit(rv->seed.data, commit);
            ok = sodium_memcmp(commit, hd->dice_commit.data, 32) == 0;
        }
        if (ok) memcpy(s->seed, rv->seed.data, 32);
        if (rv) berthier__v1__log_reveal__free_unpacked(rv, NULL);
        if (!ok) {
            s_problem(s, i, "the revealed seed does not match the header's dice commitment");
            return -1;
        }
        s->have_seed = 1;
        s->reveal_at = i;
        break;
    }
    /* The DICE records are the dice source only without the seed; with it the
     * engine derives every roll and the sink compares each DICE record. */
    if (!s->have_seed && s_index_dice(s) != 0) {
        s_problem(s, 0, "out of memory while indexing the dice records");
        return -1;
    }

    brt_sink sink = {s_sink_record, s_sink_checkpoint, s_sink_head, s};
    brt_reject err;
    memset(&err, 0, sizeof err);
    s->g = game_from_header(h->payload, h->len, s->have_seed ? s->seed : NULL, sink, &err);
    if (!s->g) {
        s_problem(s, 0, "the engine refuses the header: %s", err.message);
        return -1;
    }
    if (!s->have_seed) game_set_dice_source(s->g, s_log_dice, s);
    game_set_replaying(s->g, 1);
    s->cursor = 1;
    return 0;
}

/* Feed the next input. 1 = fed, 0 = stop (end, ran out or a problem reported). */
static int s_step(session *s) {
    if (s->problem || s->ran_out || s->cursor >= s->n) return 0;
    size_t i = s->cursor;
    const evlog_record *r = &s->recs[i];
    if (r->kind >= 16) {
        s_problem(s, i, "the engine produced nothing here; an input record was expected");
        return 0;
    }
    brt_reject err;
    memset(&err, 0, sizeof err);
    int rc = game_input_record(s->g, r->kind, r->payload, r->len, &err);
    if (s->problem || s->ran_out) return 0;
    if (rc != 0) {
        s_problem(s, i, "the engine rejects this input: %s%s%s%s", err.rule[0] ? "[" : "", err.rule,
                  err.rule[0] ? "] " : "", err.message);
        return 0;
    }
    if (s->cursor == i) {
        s_problem(s, i, "the engine accepted this input but did not log it");
        return 0;
    }
    return 1;
}

static int s_open_session(session *s, const uint8_t *data, size_t len, const char *path, brt_buf *report) {
    memset(s, 0, sizeof *s);
    s->report = report;
    char err[256];
    evlog_reader *rd = path ? evlog_reader_open(path, err, sizeof err) : evlog_reader_from_memory(data, len);
    if (!rd) {
        s_line(s, "%s", path ? err : "out of memory");
        return -1;
    }
    if (s_load(s, rd) != 0) {
        s_line(s, "out of memory");
        s_session_free(s);
        return -1;
    }
    return 0;
}

/* ---- verify ---------------------------------------------------------------------------- */

/* The reader hides SYNC records; they must be empty (evlog.h), or bytes could be
 * hidden in the log that no check covers. Walks the gaps between the records it
 * returned (their lengths were checked by the reader). */
static void s_check_syncs(session *s) {
    if (s->n == 0) return;
    const uint8_t *base = s->recs[0].payload - (s->recs[0].offset + 5);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t pos = s->recs[i].offset + 37 + s->recs[i].len;
        uint64_t next = i + 1 < s->n ? s->recs[i + 1].offset : s->scan->valid_bytes;
        uint64_t index = s->recs[i].index + 1;
        while (pos + 37 <= next) {
            const uint8_t *p = base + pos;
            uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            if (p[4] != EVLOG_SYNC || len != 0) {
                s->n_problems++;
                s_line(s, "record %llu at offset %llu (%s): a %u-byte record hidden between the records the log "
                          "shows (only empty SYNC records may be)",
                       (unsigned long long)index, (unsigned long long)pos, evlog_kind_name(p[4]), len);
                return;
            }
            pos += 37 + (uint64_t)len;
            index++;
        }
    }
}

/* Receipts and witnessed heads of this game against the log (receipts.c). */
static void s_check_evidence(session *s, size_t checked[2]) {
    checked[0] = checked[1] = 0;
    replay_evidence *ev = s->opts ? s->opts->ev : NULL;
    if (!ev || (!ev->nreceipts && !ev->nheads) || !s->hdr || !s->hdr->game_id) return;
    replay_log_view v = {s->recs, s->n, s->scan->records, s->hdr->game_id, s->have_pk ? s->pk : NULL};
    size_t bad = replay_evidence_check(ev, &v, s->report, &checked[0], &checked[1]);
    s->n_problems += bad;
    if (bad) s->problem = 1;
}

/* The signing key's fingerprint (its 64 hex characters), just before the result line. */
static void s_signer_line(session *s) {
    if (!s->have_pk) return;
    char fp[65];
    s_hex(s->pk, 32, fp, sizeof fp);
    s_line(s, "signer: %s (%s)", fp, s->pinned_by ? "pinned" : "not pinned: give --pk or --trust");
}

/* "; signer not pinned" or how it was, and what evidence was checked, for the result line. */
static void s_signer_note(const session *s, const size_t checked[2], char *out, size_t cap) {
    size_t n = (size_t)snprintf(out, cap, "; %s%s", s->pinned_by ? "signer pinned by " : "signer not pinned",
                                s->pinned_by ? s->pinned_by : "");
    if ((checked[0] || checked[1]) && n < cap)
        snprintf(out + n, cap - n, "; %zu receipt%s and %zu witnessed head%s hold", checked[0],
                 checked[0] == 1 ? "" : "s", checked[1], checked[1] == 1 ? "" : "s");
}

/* The seats' own records of their joins against the log (replay_seat_pin). */
static void s_check_pins(session *s, const replay_seat_pin *pins, size_t npins) {
    for (size_t k = 0; k < npins && !s->problem; k++) {
        const replay_seat_pin *pin = &pins[k];
        char want[17], got[17];
        for (int i = 0; i < 8; i++) snprintf(want + 2 * i, 3, "%02x", pin->sign_pk[i]);
        size_t at = 0;
        Berthier__V1__LogJoin *j = NULL;
        for (size_t i = 1; i < s->n && !j; i++) {
            if (s->recs[i].kind != EVLOG_JOIN) continue;
            j = berthier__v1__log_join__unpack(NULL, s->recs[i].len, s->recs[i].payload);
            if (j && j->seat != pin->seat) berthier__v1__log_join__free_unpacked(j, NULL), j = NULL;
            at = i;
        }
        if (pin->have_header_hash && sodium_memcmp(pin->header_hash, game_header_hash(s->g), 32) != 0) {
            char a[17], b[17];
            for (int i = 0; i < 8; i++) snprintf(a + 2 * i, 3, "%02x", game_header_hash(s->g)[i]);
            for (int i = 0; i < 8; i++) snprintf(b + 2 * i, 3, "%02x", pin->header_hash[i]);
            s_problem(s, 0, "the header hashes to %s..., but seat %u joined a header that hashes to %s... (its "
                            "own record of its join): the header was changed", a, pin->seat, b);
        } else if (!j) {
            s_problem(s, s->n - 1, "seat %u holds a join signed with key %s..., but no JOIN of seat %u is in this "
                                   "log", pin->seat, want, pin->seat);
        } else if (j->sign_pk.len != 32 || sodium_memcmp(j->sign_pk.data, pin->sign_pk, 32) != 0) {
            if (j->sign_pk.len == 32)
                for (int i = 0; i < 8; i++) snprintf(got + 2 * i, 3, "%02x", j->sign_pk.data[i]);
            else
                snprintf(got, sizeof got, "no key");
            s_problem(s, at, "seat %u's JOIN binds signing key %s%s, not the key %s... seat %u joined with (its "
                             "own record of its join): this join is not the seat's", pin->seat, got,
                      j->sign_pk.len == 32 ? "..." : "", want, pin->seat);
        }
        if (j) berthier__v1__log_join__free_unpacked(j, NULL);
    }
}

/* The engine's seat-signature check, answered from the workers' (sigcheck.h):
 * the input being applied is the record at the cursor. */
static int s_seat_verify(void *ctx, const uint8_t pk[32], const char *game_id, const uint8_t header_hash[32],
                         uint64_t seq, uint64_t request_id, unsigned body_field, const uint8_t *body, size_t body_len,
                         const uint8_t *sig, size_t sig_len) {
    session *s = ctx;
    return sigcheck_verdict(s->sc, s->cursor, pk, game_id, header_hash, seq, request_id, body_field, body, body_len,
                            sig, sig_len);
}

static void s_start_sigcheck(session *s) {
    int threads = s->opts ? s->opts->sig_threads : 0;
    if (threads < 0) return;
    s->sc = sigcheck_start(s->recs, s->n, game_id(s->g), game_header_hash(s->g), (unsigned)threads);
    if (s->sc) game_set_seat_verify(s->g, s_seat_verify, s);
}

static int s_verify(session *s) {
    if (s->n == 0) {
        s_line(s, "%s", s->scan->reason);
        s_line(s, "BAD: not a game log");
        return REPLAY_BAD;
    }
    s_check_syncs(s);
    if (s->n_problems == 0 && s_start(s) == 0) {
        s_start_sigcheck(s);
        while (s_step(s)) {}
        sigcheck_destroy(&s->sc);
        game_set_seat_verify(s->g, NULL, NULL);
        s_flush_sigs(s);
        if (s->opts && s->opts->npins) s_check_pins(s, s->opts->pins, s->opts->npins);
    }
    if (s->damaged) {
        s->n_problems++;
        s_line(s, "%s", s->scan->reason);
    }
    size_t checked[2];
    s_check_evidence(s, checked);
    char note[160];
    s_signer_note(s, checked, note, sizeof note);
    if (s->n_problems) {
        s_signer_line(s);
        s_line(s, "BAD: %zu problem%s; the first bad record is named above", s->n_problems,
               s->n_problems == 1 ? "" : "s");
        return REPLAY_BAD;
    }
    const char *id = s->hdr->game_id;
    if (s->ran_out || !game_over(s->g)) {
        if (s->scan->torn_tail)
            s_line(s, "note: %s (never acknowledged; ignored)", s->scan->reason);
        brt_pending p;
        game_pending(s->g, -1, &p, NULL);
        s_signer_line(s);
        if (s->ran_out)
            s_line(s, "INCOMPLETE: game %s: the log ends inside the outcome of its last input (record %llu)", id,
                   (unsigned long long)s->recs[s->n - 1].index);
        else
            s_line(s, "INCOMPLETE: game %s is not finished: %llu records consistent, %llu checkpoints verified, "
                      "seq %llu, waiting for: %s%s%s",
                   id, (unsigned long long)s->scan->records, (unsigned long long)s->checkpoints,
                   (unsigned long long)game_seq(s->g), p.kind[0] ? p.kind : "?",
                   game_dice_fixed(s->g) ? "; dice fixed by the operator (dice-seed)" : "", note);
        if (game_seat_signed(s->g) == 0)
            s_line(s, "note: inputs not seat-signed (the joins bind no signing key: a log from before seat "
                      "signatures)");
        size_t unsigned_after = s->n - 1 - s->last_checkpoint;
        if (unsigned_after)
            s_line(s, "note: %zu record%s after the last checkpoint %s covered by the chain and the re-execution "
                      "only, not yet by a signature",
                   unsigned_after, unsigned_after == 1 ? "" : "s", unsigned_after == 1 ? "is" : "are");
        return REPLAY_INCOMPLETE;
    }
    /* finished: the seed must have been revealed, the final checkpoint must end the file */
    if (!s->have_seed) {
        s_problem(s, s->n - 1, "the game ended but the log never reveals the server seed");
    } else if (s->recs[s->n - 1].kind != EVLOG_CHECKPOINT) {
        s_problem(s, s->n - 1, "a finished game's log must end with its final CHECKPOINT");
    } else if (s->scan->torn_tail) {
        s_problem(s, s->n - 1, "%llu bytes follow the final checkpoint: %s",
                  (unsigned long long)(s->scan->file_bytes - s->scan->valid_bytes), s->scan->reason);
    }
    if (s->n_problems) {
        s_signer_line(s);
        s_line(s, "BAD: %zu problem%s; the first bad record is named above", s->n_problems,
               s->n_problems == 1 ? "" : "s");
        return REPLAY_BAD;
    }
    brt_result res;
    game_result(s->g, &res);
    char winners[64] = "";
    size_t w = 0;
    for (unsigned i = 0; i < game_seat_count(s->g) && w + 4 < sizeof winners; i++)
        if (res.winners & (1u << i)) w += (size_t)snprintf(winners + w, sizeof winners - w, "%s%u", w ? "," : "", i);
    int seat_signed = game_seat_signed(s->g);
    s_signer_line(s);
    if (game_aborted(s->g))
        s_line(s, "note: an admin aborted the game (ABORT record, re-executed): %s", res.level);
    s_line(s, "OK: game %s (%s %s, %s %s): %llu records, %llu checkpoints and %llu dice rolls verified; "
              "%s%s; result: %s, winners: %s (%s)%s",
           id, s->hdr->ruleset, s->hdr->scenario, s->rs->id, s->rs->version, (unsigned long long)s->scan->records,
           (unsigned long long)s->checkpoints, (unsigned long long)s->rolls,
           seat_signed > 0 ? "inputs seat-signed" : seat_signed == 0 ? "inputs not seat-signed" : "no seat joined",
           game_dice_fixed(s->g) ? "; dice fixed by the operator (dice-seed)" : "",
           res.level, w ? winners : "none", res.reason, note);
    return REPLAY_OK;
}

int replay_verify_with(const char *path, const uint8_t *data, size_t len, const replay_opts *opts,
                       brt_buf *report) {
    session s;
    if (s_open_session(&s, path ? NULL : data, len, path, report) != 0) return REPLAY_CANNOT;
    s.opts = opts;
    s.lazy_sigs = !(opts && opts->paranoid);
    int rc = s_verify(&s);
    s_session_free(&s);
    return rc;
}

int replay_verify_memory(const uint8_t *data, size_t len, const uint8_t *trusted_pk, brt_buf *report) {
    replay_opts o = {trusted_pk, NULL, NULL, 0, 0, 0};
    return replay_verify_with(NULL, data, len, &o, report);
}

int replay_verify(const char *path, const uint8_t *trusted_pk, brt_buf *report) {
    replay_opts o = {trusted_pk, NULL, NULL, 0, 0, 0};
    return replay_verify_with(path, NULL, 0, &o, report);
}

int replay_verify_seats(const char *path, const uint8_t *trusted_pk, const replay_seat_pin *pins, size_t npins,
                        brt_buf *report) {
    replay_opts o = {trusted_pk, NULL, pins, npins, 0, 0};
    return replay_verify_with(path, NULL, 0, &o, report);
}

/* ---- show ------------------------------------------------------------------------------- */

int replay_show(const char *path, uint64_t seq, int seat, brt_buf *out, brt_buf *err) {
    session s;
    if (s_open_session(&s, NULL, 0, path, err) != 0) return -1;
    int rc = -1;
    if (s.n == 0) {
        buf_printf(err, "%s\n", s.scan->reason);
        goto done;
    }
    if (s_start(&s) != 0) goto done;
    if (seat >= 0 && (unsigned)seat >= game_seat_count(s.g)) {
        buf_printf(err, "this game has %u seats; there is no seat %d\n", game_seat_count(s.g), seat);
        goto done;
    }
    while (game_seq(s.g) < seq && s_step(&s)) {}
    if (s.problem) goto done;
    if (seq != UINT64_MAX && game_seq(s.g) < seq) {
        buf_printf(err, "the log reaches seq %llu only\n", (unsigned long long)game_seq(s.g));
        goto done;
    }
    brt_pending p;
    game_pending(s.g, seat, &p, NULL);
    buf_printf(out, "game %s (%s %s), seq %llu, after record %llu of %llu%s\n", s.hdr->game_id, s.hdr->ruleset,
               s.hdr->scenario, (unsigned long long)game_seq(s.g), (unsigned long long)s.recs[s.cursor - 1].index,
               (unsigned long long)s.scan->records,
               s.damaged ? " (the log is damaged further on)" : "");
    if (seat >= 0) buf_printf(out, "as seat %d sees it\n", seat);
    if (game_view(s.g, seat, NULL, out) != 0) {
        buf_printf(err, "the ruleset cannot render this state\n");
        goto done;
    }
    if (out->len && out->data[out->len - 1] != '\n') buf_append_str(out, "\n");
    if (game_over(s.g)) {
        brt_result r;
        game_result(s.g, &r);
        buf_printf(out, "result: %s: %s\n", r.level, r.reason);
    } else {
        buf_printf(out, "pending: %s", p.kind);
        for (unsigned i = 0; i < game_seat_count(s.g); i++)
            if (p.seats & (1u << i)) buf_printf(out, " seat %u", i);
        buf_printf(out, "%s%s%s\n", p.prompt[0] ? ": " : "", p.prompt, p.sealed ? " (sealed)" : "");
    }
    rc = 0;
done:
    s_session_free(&s);
    return rc;
}

/* ---- walking a log step by step (walk.h) ------------------------------------------------ */

struct replay_walk {
    session s;
    size_t prev_cursor;          /* where the last input fed began */
};

replay_walk *replay_walk_open(const char *path, brt_buf *err) {
    replay_walk *w = calloc(1, sizeof *w);
    if (!w) {
        buf_append_str(err, "out of memory\n");
        return NULL;
    }
    if (s_open_session(&w->s, NULL, 0, path, err) != 0) {
        free(w);
        return NULL;
    }
    if (w->s.n == 0) {
        buf_printf(err, "%s\n", w->s.scan->reason);
        replay_walk_destroy(&w);
        return NULL;
    }
    if (s_start(&w->s) != 0) {
        replay_walk_destroy(&w);
        return NULL;
    }
    w->prev_cursor = w->s.cursor;
    return w;
}

void replay_walk_destroy(replay_walk **pw) {
    if (!pw || !*pw) return;
    s_session_free(&(*pw)->s);
    free(*pw);
    *pw = NULL;
}

int replay_walk_step(replay_walk *w) {
    size_t at = w->s.cursor;
    int rc = s_step(&w->s);
    if (rc == 1) w->prev_cursor = at;
    return rc;
}

const brt_game *replay_walk_game(const replay_walk *w) { return w->s.g; }
const Berthier__V1__LogHeader *replay_walk_header(const replay_walk *w) { return w->s.hdr; }
const evlog_record *replay_walk_records(const replay_walk *w, size_t *n) {
    *n = w->s.n;
    return w->s.recs;
}
void replay_walk_last(const replay_walk *w, size_t *first, size_t *end) {
    *first = w->prev_cursor;
    *end = w->s.cursor;
}
size_t replay_walk_cursor(const replay_walk *w) { return w->s.cursor; }
int replay_walk_stopped(const replay_walk *w) { return w->s.problem || w->s.ran_out || w->s.damaged; }
int replay_walk_problem(const replay_walk *w) { return w->s.problem; }
