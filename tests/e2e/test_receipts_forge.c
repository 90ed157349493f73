/*
 * test_receipts_forge.c - the dishonest operator against signed receipts
 * (docs/protocol.md P9, docs/log-format.md "Receipts").
 *
 * A real duel game on a real berthierd: both seats join and play through the C
 * client library, which checks every receipt against the pinned signing key
 * and the bytes it sent, and keeps them in a receipts file. Seat 0 then makes
 * a sealed bid, which is only recorded (Accepted.waiting) and acknowledged.
 * The operator, who holds the log, the seed and the signing key, rewrites
 * history:
 *
 *   - truncate: cut the log back to the SYNC before the sealed bid. Verify
 *     alone says "consistent so far" (exit 2); with the receipts it names the
 *     receipt of the bid: the log has no such record.
 *   - truncate and forfeit: from that SYNC on, let seat 0's clock run out
 *     (a TIMEOUT input, which forfeits a sealed decision), recompute every
 *     outcome, the chain and the checkpoints, re-signed with the daemon's own
 *     key. The forged log is a complete, finished game: verify alone passes
 *     (exit 0); with the receipts it fails, naming the bid's receipt.
 *   - re-key: replace the header's signing key by the operator's own and
 *     re-sign everything: verify alone passes, --pk with the daemon's key and
 *     the receipts both fail.
 *
 * A second game is played to its end while a witness keeps the signed
 * checkpoints from seat 0's sealed notices (Notice.checkpoint). The operator
 * forks it from an early point (seat 0 forfeits instead of bidding) and
 * re-signs: verify alone passes, verify --heads names the head the fork
 * contradicts.
 *
 * On the old code the daemon sent no receipt, notices carried no checkpoint
 * and verify had neither --receipts nor --heads: the forged logs verified
 * (exit 0) and these tests fail at their first assertion that a receipt or a
 * head was kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/client.h"
#include "evlog.h"
#include "game.h"
#include "ruleset.h"
#include "test_daemon_common.h"

typedef struct {
    td_daemon d;
    char dir[300];
} fx;

static int s_setup(void **state) {
    if (sodium_init() < 0) return -1;
    fx *f = calloc(1, sizeof *f);
    *state = f;
    return td_start(&f->d) == 0 ? 0 : -1;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_kill9(&f->d);
    td_rmrf(f->d.dir);
    free(f);
    return 0;
}

/* ---- the forger's sink: discard while rebuilding the state, then append and sign ---- */

typedef struct forger {
    evlog *log;          /* NULL: discard */
    uint8_t sk[64];
    const char *game_id;
} forger;

static int s_rec(void *ctx, uint8_t kind, const uint8_t *payload, size_t len) {
    forger *fg = ctx;
    return fg->log ? evlog_append(fg->log, kind, payload, len) : 0;
}

static int s_ckpt(void *ctx) {
    forger *fg = ctx;
    return fg->log ? evlog_checkpoint(fg->log, fg->sk, fg->game_id) : 0;
}

static void s_head(void *ctx, uint8_t out[32]) {
    forger *fg = ctx;
    if (fg->log) memcpy(out, evlog_head(fg->log), 32);
    else memset(out, 0, 32);
}

static int s_write(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int rc = fwrite(b, 1, n, f) == n ? 0 : -1;
    return fclose(f) == 0 ? rc : -1;
}

/* berthier-replay verify with extra arguments; its exit status, its output in out. */
static int s_verify(const char *args, char *out, size_t cap) {
    const char *bindir = getenv("BERTHIER_BIN");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s/berthier-replay' verify %s 2>&1", bindir ? bindir : "build/bin", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int rc = pclose(p);
    if (getenv("BERTHIER_TEST_VERBOSE")) fprintf(stderr, "$ berthier-replay verify %s\n%s", args, out);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The byte offset just past the SYNC that closes the batch before record `index`. */
static size_t s_cut_before(const uint8_t *log, size_t len, uint64_t index) {
    evlog_reader *rd = evlog_reader_from_memory(log, len);
    assert_non_null(rd);
    evlog_record rec;
    size_t cut = 0;
    while (evlog_reader_next(rd, &rec) == 1)
        if (rec.index == index) {
            cut = (size_t)rec.offset;
            break;
        }
    evlog_reader_destroy(&rd);
    assert_true(cut > 0);
    /* the record before it must be a SYNC: 37 bytes, kind 33, length 0 */
    assert_int_equal(log[cut - 37 + 4], EVLOG_SYNC);
    return cut;
}

/* Rebuild a game from `header` and the log's inputs before record `stop`
 * (discarding what it produces), then, appending to `out` (already holding the
 * prefix, or only the header), feed the inputs from `from` to `stop` and make
 * seat `timeout_seat` time out. Every record is recomputed; checkpoints are
 * signed with sk. */
static void s_forge(const uint8_t *log, size_t len, const uint8_t *header, size_t hlen, const uint8_t seed[32],
                    const uint8_t sk[64], const char *gid, uint64_t from, uint64_t stop, int timeout_seat,
                    evlog *out) {
    forger fg = {NULL, {0}, gid};
    memcpy(fg.sk, sk, 64);
    brt_sink sink = {s_rec, s_ckpt, s_head, &fg};
    brt_reject rej;
    memset(&rej, 0, sizeof rej);
    brt_game *g = game_from_header(header, hlen, seed, sink, &rej);
    assert_non_null(g);
    evlog_reader *rd = evlog_reader_from_memory(log, len);
    evlog_record rec;
    while (evlog_reader_next(rd, &rec) == 1) {
        if (rec.index >= stop) break;
        if (rec.kind == EVLOG_HEADER || rec.kind >= EVLOG_DICE) continue;
        fg.log = rec.index >= from ? out : NULL;
        if (game_input_record(g, rec.kind, rec.payload, rec.len, &rej) != 0) fail_msg("record %llu: %s", (unsigned long long)rec.index, rej.message);
        if (fg.log) assert_int_equal(evlog_sync(out), 0);
    }
    evlog_reader_destroy(&rd);
    fg.log = out;
    if (timeout_seat >= 0) {
        assert_int_equal(game_timeout(g, (unsigned)timeout_seat, &rej), 0);
        assert_true(game_over(g));
    }
    assert_int_equal(evlog_sync(out), 0);
    game_destroy(&g);
}

static void test_forged_history_contradicts_receipts(void **state) {
    fx *f = *state;
    char path[512], rcpt[512], args[2048], out[16384];
    /* the operator's side: admin client (pins sign.pub of the data dir) */
    brt_client *admin = brt_client_new_data_dir(f->d.dir);
    assert_non_null(admin);
    brt_keypair kp[2];
    const char *pubs[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(brt_keypair_generate(&kp[i]), 0);
        pubs[i] = kp[i].public_z85;
    }
    brt_game_spec spec = {"duel", "standard", NULL, 0, pubs, 2, 600000, 600000, 0, NULL, 0};
    char gid[BRT_GAME_ID_MAX + 1];
    assert_int_equal(brt_client_create(admin, &spec, gid, NULL), 0);
    char endpoint[400];
    snprintf(endpoint, sizeof endpoint, "ipc://%s/berthier.sock", f->d.dir);
    snprintf(rcpt, sizeof rcpt, "%s/seat0.receipts", f->d.dir);

    /* the seats: their keys only; the signing key is learnt on first use (hello) */
    brt_client *seat[2];
    for (int i = 0; i < 2; i++) {
        seat[i] = brt_client_new_keypair(endpoint, f->d.server_pub, &kp[i]);
        assert_non_null(seat[i]);
        assert_int_equal(brt_client_join(seat[i], gid, (unsigned)i, NULL), 0);
        const Berthier__V1__Receipt *r = brt_client_receipt(seat[i]);
        assert_non_null(r);
        assert_int_equal(r->kind, EVLOG_JOIN);
        assert_int_equal(r->seat, (uint32_t)i);
        if (i == 0) assert_int_equal(brt_client_save_receipt(seat[0], rcpt), 1);
    }
    uint8_t pinned[32], daemon_pk[32];
    char pkhex[65];
    assert_int_equal(brt_client_sign_key(seat[0], pinned), 0);
    snprintf(path, sizeof path, "%s/sign.pub", f->d.dir);
    assert_int_equal(td_read_line(path, pkhex, sizeof pkhex), 0);
    assert_int_equal(sodium_hex2bin(daemon_pk, 32, pkhex, 64, NULL, NULL, NULL), 0);
    assert_memory_equal(pinned, daemon_pk, 32);

    /* Play until seat 0 faces a sealed decision; it bids and the bid is only recorded. */
    uint64_t bid_record = 0, bid_rid = 0;
    uint8_t *bid_req = NULL, *bid_reply = NULL;
    size_t bid_req_len = 0, bid_reply_len = 0;
    for (int step = 0; step < 60 && !bid_record; step++) {
        const Berthier__V1__Decision *d = NULL;
        assert_int_equal(brt_client_pending(seat[0], gid, 0, &d), 0);
        assert_false(d->result && d->result->ended);
        unsigned who = d->n_seats ? d->seats[0] : 0;
        if (d->sealed && d->you_must_act) who = 0;
        else if (d->sealed) who = 1;
        uint64_t seq = d->seq;
        int sealed = d->sealed;
        const Berthier__V1__LegalOrders *lo = NULL;
        assert_int_equal(brt_client_legal(seat[who], gid, who, 1, &lo), 0);
        assert_true(lo->n_orders >= 1);
        uint8_t order[256];
        size_t olen = lo->orders[0].len;
        assert_true(olen <= sizeof order);
        memcpy(order, lo->orders[0].data, olen);
        const Berthier__V1__Accepted *a = NULL;
        assert_int_equal(brt_client_submit(seat[who], gid, who, seq, order, olen, &a), 0);
        const Berthier__V1__Receipt *r = brt_client_receipt(seat[who]);
        assert_non_null(r);
        assert_int_equal(r->seq, a->seq);
        if (who == 0) assert_int_equal(brt_client_save_receipt(seat[0], rcpt), 1);
        if (who == 0 && sealed && a->waiting) {
            /* only recorded: the head is the ORDER record itself */
            assert_int_equal(r->kind, EVLOG_ORDER);
            assert_int_equal(r->head_record, r->record);
            bid_record = r->record;
            const uint8_t *q = brt_client_last_request(seat[0], &bid_req_len);
            bid_req = malloc(bid_req_len);
            memcpy(bid_req, q, bid_req_len);
            bid_rid = brt_client_last_request_id(seat[0]);
            const Berthier__V1__Reply *rp = brt_client_reply(seat[0]);
            bid_reply_len = berthier__v1__reply__get_packed_size(rp);
            bid_reply = malloc(bid_reply_len);
            berthier__v1__reply__pack(rp, bid_reply);
        }
    }
    assert_true(bid_record > 0);

    /* The operator's material: the log as acknowledged, the seed, the signing key. */
    snprintf(path, sizeof path, "%s/games/%s.log", f->d.dir, gid);
    size_t len = 0;
    uint8_t *log = td_slurp(path, &len);
    assert_non_null(log);
    snprintf(path, sizeof path, "%s/games/%s.seed", f->d.dir, gid);
    size_t slen = 0;
    uint8_t *seed = td_slurp(path, &slen);
    assert_non_null(seed);
    assert_int_equal(slen, 32);
    char skhex[160];
    uint8_t sk[64];
    snprintf(path, sizeof path, "%s/sign.key", f->d.dir);
    assert_int_equal(td_read_line(path, skhex, sizeof skhex), 0);
    assert_int_equal(sodium_hex2bin(sk, 64, skhex, 128, NULL, NULL, NULL), 0);
    for (int i = 0; i < 2; i++) brt_client_destroy(&seat[i]);
    brt_client_destroy(&admin);
    td_kill9(&f->d);

    /* After a crash and a restart the retried bid gets the very same reply, receipt included:
     * recovery rebuilds it from the log. */
    assert_int_equal(td_start(&f->d), 0);
    brt_client *again = brt_client_new_keypair(endpoint, f->d.server_pub, &kp[0]);
    assert_non_null(again);
    assert_int_equal(brt_client_pin_sign_key(again, daemon_pk), 0);
    assert_int_equal(brt_client_call_raw(again, bid_req, bid_req_len, bid_rid), 0);
    const Berthier__V1__Reply *rr = brt_client_reply(again);
    assert_non_null(rr->receipt);
    size_t rlen = berthier__v1__reply__get_packed_size(rr);
    uint8_t *rb = malloc(rlen);
    berthier__v1__reply__pack(rr, rb);
    assert_int_equal(rlen, bid_reply_len);
    assert_memory_equal(rb, bid_reply, rlen);
    free(rb);
    free(bid_req);
    free(bid_reply);
    brt_client_destroy(&again);
    td_kill9(&f->d);

    /* The honest log holds every receipt. */
    snprintf(path, sizeof path, "%s/honest.log", f->d.dir);
    assert_int_equal(s_write(path, log, len), 0);
    snprintf(args, sizeof args, "'%s' --pk %s --receipts '%s'", path, pkhex, rcpt);
    assert_int_equal(s_verify(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "signer pinned by --pk"));
    assert_null(strstr(out, "receipt 1 "));

    /* 1. Truncated back to the SYNC before the bid. */
    size_t cut = s_cut_before(log, len, bid_record);
    char trunc[512];
    snprintf(trunc, sizeof trunc, "%s/truncated.log", f->d.dir);
    assert_int_equal(s_write(trunc, log, cut), 0);
    snprintf(args, sizeof args, "'%s'", trunc);
    assert_int_equal(s_verify(args, out, sizeof out), 2);   /* consistent so far, as before */
    snprintf(args, sizeof args, "'%s' --receipts '%s'", trunc, rcpt);
    assert_int_equal(s_verify(args, out, sizeof out), 1);
    char needle[200];
    snprintf(needle, sizeof needle, "(game %s, record %llu, seat 0's ORDER;", gid, (unsigned long long)bid_record);
    if (!strstr(out, needle) || !strstr(out, "truncated")) fail_msg("truncated log:\n%s", out);

    /* 2. Truncated, then seat 0 forfeits on its clock: a complete game, re-signed with the daemon's key. */
    char forged[512];
    snprintf(forged, sizeof forged, "%s/forfeit.log", f->d.dir);
    assert_int_equal(s_write(forged, log, cut), 0);
    evlog_scan scan;
    evlog *w = evlog_open(forged, &scan);
    assert_non_null(w);
    evlog_reader *rd = evlog_reader_from_memory(log, len);
    evlog_record hrec;
    assert_int_equal(evlog_reader_next(rd, &hrec), 1);
    s_forge(log, len, hrec.payload, hrec.len, seed, sk, gid, bid_record, bid_record, 0, w);
    evlog_destroy(&w);
    snprintf(args, sizeof args, "'%s' --pk %s", forged, pkhex);
    if (s_verify(args, out, sizeof out) != 0) fail_msg("the forged log should pass without receipts:\n%s", out);
    snprintf(args, sizeof args, "'%s' --pk %s --receipts '%s'", forged, pkhex, rcpt);
    assert_int_equal(s_verify(args, out, sizeof out), 1);
    if (!strstr(out, needle) || !strstr(out, "is a TIMEOUT")) fail_msg("forged forfeit:\n%s", out);

    /* 3. Re-keyed: the header names the operator's own signing key. */
    uint8_t opk[32], osk[64];
    crypto_sign_keypair(opk, osk);
    brt_reject rej;
    Berthier__V1__LogHeader *h = berthier__v1__log_header__unpack(NULL, hrec.len, hrec.payload);
    assert_non_null(h);
    uint8_t *theirs = h->server_sign_pk.data;
    h->server_sign_pk.data = opk;
    size_t nh = berthier__v1__log_header__get_packed_size(h);
    uint8_t *hb = malloc(nh);
    berthier__v1__log_header__pack(h, hb);
    h->server_sign_pk.data = theirs;   /* freed with the header */
    berthier__v1__log_header__free_unpacked(h, NULL);
    /* The seats' signed joins cover the header hash (docs/protocol.md P3.1): replayed under
     * the re-keyed header, seat 0's own JOIN is refused, so the operator cannot carry the
     * seats' inputs over to a header of its own. (Without seat signatures this log was
     * rebuilt, re-signed with the operator's key, and only the receipts caught it.) */
    memset(&rej, 0, sizeof rej);
    brt_sink nosink = {s_rec, s_ckpt, s_head, &(forger){NULL, {0}, gid}};
    brt_game *rg = game_from_header(hb, nh, seed, nosink, &rej);
    assert_non_null(rg);
    evlog_record jrec;
    int refused = 0;
    while (evlog_reader_next(rd, &jrec) == 1)
        if (jrec.kind == EVLOG_JOIN) {
            refused = game_input_record(rg, jrec.kind, jrec.payload, jrec.len, &rej) != 0;
            break;
        }
    assert_true(refused);
    if (!strstr(rej.message, "not the header the seat signed")) fail_msg("re-keyed join: %s", rej.message);
    game_destroy(&rg);
    evlog_reader_destroy(&rd);
    free(hb);

    free(log);
    free(seed);
    sodium_memzero(sk, sizeof sk);
    sodium_memzero(osk, sizeof osk);
}

static void test_forked_log_contradicts_witness(void **state) {
    fx *f = *state;
    char path[512], heads[512], args[2048], out[16384];
    brt_client *admin = brt_client_new_data_dir(f->d.dir);
    assert_non_null(admin);
    brt_keypair kp[2];
    const char *pubs[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(brt_keypair_generate(&kp[i]), 0);
        pubs[i] = kp[i].public_z85;
    }
    brt_game_spec spec = {"duel", "standard", NULL, 0, pubs, 2, 0, 0, 0, NULL, 0};
    char gid[BRT_GAME_ID_MAX + 1];
    assert_int_equal(brt_client_create(admin, &spec, gid, NULL), 0);
    char endpoint[400];
    snprintf(endpoint, sizeof endpoint, "ipc://%s/berthier.sock", f->d.dir);
    snprintf(heads, sizeof heads, "%s/seat0.heads", f->d.dir);
    brt_client *seat[2];
    for (int i = 0; i < 2; i++) {
        seat[i] = brt_client_new_keypair(endpoint, f->d.server_pub, &kp[i]);
        assert_non_null(seat[i]);
    }
    /* seat 0's witness: its sealed stream, subscribed before the game starts */
    uint8_t ek[BRT_EVENT_KEY_BYTES];
    assert_int_equal(brt_client_hello(seat[0], gid, 0, NULL), 0);
    assert_int_equal(brt_client_event_key(seat[0], ek), 0);
    brt_sub *sub = brt_client_subscribe(seat[0], gid, 0, ek);
    assert_non_null(sub);
    for (int i = 0; i < 2; i++) assert_int_equal(brt_client_join(seat[i], gid, (unsigned)i, NULL), 0);
    uint64_t first_bid = 0;
    int ended = 0;
    for (int step = 0; step < 400 && !ended; step++) {
        const Berthier__V1__Decision *d = NULL;
        assert_int_equal(brt_client_pending(seat[0], gid, 0, &d), 0);
        if (d->result && d->result->ended) {
            ended = 1;
            break;
        }
        unsigned who = d->n_seats ? d->seats[0] : 0;
        if (d->sealed) who = d->you_must_act ? 0 : 1;
        uint64_t seq = d->seq;
        const Berthier__V1__LegalOrders *lo = NULL;
        assert_int_equal(brt_client_legal(seat[who], gid, who, 1, &lo), 0);
        assert_true(lo->n_orders >= 1);
        uint8_t order[256];
        size_t olen = lo->orders[0].len;
        assert_true(olen <= sizeof order);
        memcpy(order, lo->orders[0].data, olen);
        assert_int_equal(brt_client_submit(seat[who], gid, who, seq, order, olen, NULL), 0);
        if (who == 0 && !first_bid) first_bid = brt_client_receipt(seat[0])->record;
    }
    assert_true(ended);
    assert_true(first_bid > 0);
    /* Keep every checkpoint the notices carried, up to the final one. */
    unsigned kept = 0;
    for (int got_end = 0; !got_end;) {
        Berthier__V1__Notice *n = NULL;
        int r = brt_sub_recv(sub, 10000, &n);
        assert_int_equal(r, 1);   /* the final notice always comes */
        if (n->checkpoint) {
            assert_int_equal(brt_witness_append(heads, gid, n->checkpoint), 0);
            kept++;
        }
        got_end = n->decision && n->decision->result && n->decision->result->ended;
        berthier__v1__notice__free_unpacked(n, NULL);
    }
    assert_true(kept >= 1);
    brt_sub_destroy(&sub);
    for (int i = 0; i < 2; i++) brt_client_destroy(&seat[i]);
    brt_client_destroy(&admin);

    snprintf(path, sizeof path, "%s/games/%s.log", f->d.dir, gid);
    size_t len = 0;
    uint8_t *log = td_slurp(path, &len);
    assert_non_null(log);
    char pkhex[65];
    snprintf(path, sizeof path, "%s/sign.pub", f->d.dir);
    assert_int_equal(td_read_line(path, pkhex, sizeof pkhex), 0);
    snprintf(path, sizeof path, "%s/games/%s.log", f->d.dir, gid);
    snprintf(args, sizeof args, "'%s' --trust '%s/sign.pub' --heads '%s'", path, f->d.dir, heads);
    if (s_verify(args, out, sizeof out) != 0) fail_msg("the honest log and its witness:\n%s", out);
    assert_non_null(strstr(out, "signer pinned by the trust file"));

    /* The fork: from seat 0's first bid on, seat 0 forfeits instead; re-signed with the daemon's key. */
    snprintf(path, sizeof path, "%s/games/%s.seed", f->d.dir, gid);
    size_t slen = 0;
    uint8_t *seed = td_slurp(path, &slen);
    assert_non_null(seed);
    char skhex[160];
    uint8_t sk[64];
    snprintf(path, sizeof path, "%s/sign.key", f->d.dir);
    assert_int_equal(td_read_line(path, skhex, sizeof skhex), 0);
    assert_int_equal(sodium_hex2bin(sk, 64, skhex, 128, NULL, NULL, NULL), 0);
    size_t cut = s_cut_before(log, len, first_bid);
    char forked[512];
    snprintf(forked, sizeof forked, "%s/forked.log", f->d.dir);
    assert_int_equal(s_write(forked, log, cut), 0);
    evlog_scan scan;
    evlog *w = evlog_open(forked, &scan);
    assert_non_null(w);
    evlog_reader *rd = evlog_reader_from_memory(log, len);
    evlog_record hrec;
    assert_int_equal(evlog_reader_next(rd, &hrec), 1);
    s_forge(log, len, hrec.payload, hrec.len, seed, sk, gid, first_bid, first_bid, 0, w);
    evlog_destroy(&w);
    evlog_reader_destroy(&rd);
    snprintf(args, sizeof args, "'%s' --trust '%s/sign.pub'", forked, f->d.dir);
    if (s_verify(args, out, sizeof out) != 0) fail_msg("the forked log passes without the witness:\n%s", out);
    snprintf(args, sizeof args, "'%s' --trust '%s/sign.pub' --heads '%s'", forked, f->d.dir, heads);
    assert_int_equal(s_verify(args, out, sizeof out), 1);
    char needle[100];
    snprintf(needle, sizeof needle, "(game %s, record ", gid);
    if (!strstr(out, "head ") || !strstr(out, needle)) fail_msg("forked log with the witness:\n%s", out);
    free(log);
    free(seed);
    sodium_memzero(sk, sizeof sk);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_forged_history_contradicts_receipts, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_forked_log_contradicts_witness, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
