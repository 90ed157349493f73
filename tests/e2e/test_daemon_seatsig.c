/*
 * test_daemon_seatsig.c - seat-signed inputs through berthierd
 * (docs/protocol.md P3.1): the header a seat checks before it sends any
 * entropy, the refusal of an unsigned join, and forged inputs (no seat
 * signature, another key's, a signature moved to other bytes) refused with
 * UNAUTHORIZED [P3] while the game's log does not grow by a byte.
 *
 * On the code before seat signatures there was no `header` request (a seat
 * joined without ever seeing the dice commitment), an unsigned join started
 * the game, and an order needed nothing but the seat's CURVE connection.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "evlog.h"
#include "test_daemon_common.h"

typedef struct {
    td_daemon d;
    td_client *admin;
    td_client *seat[2];
    char pub[2][41], sec[2][41];
    uint8_t keys[2][32];
    char gid[32];
    uint8_t dice_commit[32], server_pk[32];
} fx;

static void s_code(Berthier__V1__Reply *r, int code, const char *rule, const char *needle) {
    assert_non_null(r);
    if ((int)r->code != code || (rule && strcmp(r->rule, rule) != 0) || (needle && !strstr(r->message, needle)))
        fail_msg("expected code %d [%s] \"%s\", got %d [%s] %s", code, rule ? rule : "", needle ? needle : "",
                 r->code, r->rule, r->message);
    berthier__v1__reply__free_unpacked(r, NULL);
}

static off_t s_log_size(const fx *f) {
    char p[512];
    snprintf(p, sizeof p, "%s/games/%s.log", f->d.dir, f->gid);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    return st.st_size;
}

static int s_setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    if (td_start_admin(&f->d, &f->admin, NULL, 0, td_start) != 0) {
        free(f);
        return -1;
    }
    td_fresh_keys(2, f->pub, f->sec, f->keys);
    Berthier__V1__Reply *r = td_create(f->admin, "duel", "standard", 2, (const uint8_t(*)[32])f->keys, NULL, 0, 0, 0);
    if (!r || r->code) return -1;
    snprintf(f->gid, sizeof f->gid, "%s", r->created->game_id);
    memcpy(f->dice_commit, r->created->dice_commit.data, 32);
    memcpy(f->server_pk, r->created->server_sign_pk.data, 32);
    berthier__v1__reply__free_unpacked(r, NULL);
    for (int i = 0; i < 2; i++) f->seat[i] = td_client_new(&f->d, f->pub[i], f->sec[i]);
    *state = f;
    return 0;
}

static int s_teardown(void **state) {
    fx *f = *state;
    td_fixture_end(&f->d, &f->admin, f->seat, 2);
    free(f);
    return 0;
}

static Berthier__V1__Reply *s_header(td_client *c, const char *gid, unsigned seat) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = (char *)gid;
    g.seat = seat;
    req.body_case = BERTHIER__V1__REQUEST__BODY_HEADER;
    req.header = &g;
    return td_call_plain(c, &req, TD_TIMEOUT);
}

/* Before any entropy: the seat gets the exact logged header, with its own key,
 * the dice commitment and the server's signing key in it. */
static void test_header_before_join(void **state) {
    fx *f = *state;
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = s_header(f->seat[s], f->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_HEADER);
        const Berthier__V1__GameHeader *h = r->header;
        uint8_t hh[32];
        seatsig_header_hash(h->header.data, h->header.len, hh);
        assert_int_equal(h->header_hash.len, 32);
        assert_memory_equal(hh, h->header_hash.data, 32);
        Berthier__V1__LogHeader *lh = berthier__v1__log_header__unpack(NULL, h->header.len, h->header.data);
        assert_non_null(lh);
        assert_string_equal(lh->game_id, f->gid);
        assert_int_equal(lh->n_seats, 2);
        assert_memory_equal(lh->seats[s]->key.data, f->keys[s], 32);
        assert_memory_equal(lh->dice_commit.data, f->dice_commit, 32);
        assert_memory_equal(lh->server_sign_pk.data, f->server_pk, 32);
        berthier__v1__log_header__free_unpacked(lh, NULL);
        /* the same bytes as record 0 of the log on disk, signed by the server as a
         * checkpoint of record 0: the seat holds the header signed */
        char p[512];
        snprintf(p, sizeof p, "%s/games/%s.log", f->d.dir, f->gid);
        size_t n;
        uint8_t *file = td_slurp(p, &n);
        assert_non_null(file);
        assert_true(n > 16 + 5 + h->header.len + 32);
        assert_memory_equal(file + 16 + 5, h->header.data, h->header.len);
        uint8_t zero[32] = {0}, chain0[32];
        evlog_chain(zero, EVLOG_HEADER, h->header.data, (uint32_t)h->header.len, chain0);
        assert_memory_equal(file + 16 + 5 + h->header.len, chain0, 32);
        free(file);
        assert_int_equal(h->signature.len, 64);
        assert_int_equal(evlog_checkpoint_verify(f->server_pk, f->gid, 0, chain0, h->signature.data), 0);
        chain0[0] ^= 1;
        assert_int_equal(evlog_checkpoint_verify(f->server_pk, f->gid, 0, chain0, h->signature.data), -1);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    /* the admin may read it; a seat only as itself; a stranger not at all */
    Berthier__V1__Reply *r = s_header(f->admin, f->gid, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    s_code(s_header(f->seat[0], f->gid, 1), BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT, "P3", NULL);
    s_code(s_header(f->seat[0], "ffffffffffffffff", 0), BERTHIER__V1__CODE__CODE_UNKNOWN_GAME, NULL, NULL);
}

/* An unsigned join would start an unsigned game: refused, nothing logged. */
static void test_unsigned_join_refused(void **state) {
    fx *f = *state;
    off_t size = s_log_size(f);
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Join j = BERTHIER__V1__JOIN__INIT;
    uint8_t ent[32];
    randombytes_buf(ent, 32);
    j.game_id = f->gid;
    j.seat = 0;
    j.entropy.data = ent;
    j.entropy.len = 32;
    req.body_case = BERTHIER__V1__REQUEST__BODY_JOIN;
    req.join = &j;
    s_code(td_call_plain(f->seat[0], &req, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
           "must be seat-signed");
    /* signed for a header hash that is not this game's */
    uint8_t pk[32], sk[64], hh[32], sig[64];
    td_client_sign_key(f->seat[0], pk, sk);
    assert_int_equal(td_header_hash(f->seat[0], f->gid, 0, hh), 0);
    hh[5] ^= 1;
    j.sign_pk.data = pk;
    j.sign_pk.len = 32;
    j.header_hash.data = hh;
    j.header_hash.len = 32;
    req.request_id = ++f->seat[0]->next_id;
    assert_int_equal(td_sign_with(&req, sk, hh, sig), 0);
    s_code(td_call_plain(f->seat[0], &req, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
           "not the header the seat signed");
    assert_int_equal(s_log_size(f), size);
    Berthier__V1__Reply *r = td_join(f->seat[0], f->gid, 0);
    assert_non_null(r);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    assert_true(s_log_size(f) > size);
}

/* Orders that are valid in every way but the seat's signature. */
static void test_forged_inputs_refused(void **state) {
    fx *f = *state;
    for (unsigned s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_join(f->seat[s], f->gid, s);
        assert_non_null(r);
        assert_int_equal(r->code, 0);
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    unsigned s = 0;
    uint64_t seq = 0;
    for (s = 0; s < 2; s++) {
        Berthier__V1__Reply *r = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_PENDING, f->gid, s);
        assert_non_null(r);
        int must = r->decision->you_must_act;
        seq = r->decision->seq;
        berthier__v1__reply__free_unpacked(r, NULL);
        if (must) break;
    }
    assert_true(s < 2);
    Berthier__V1__Reply *l = td_gameref(f->seat[s], BERTHIER__V1__REQUEST__BODY_LEGAL, f->gid, s);
    assert_non_null(l);
    assert_int_equal(l->code, 0);
    assert_true(l->legal->n_orders > 0);
    off_t size = s_log_size(f);
    td_signer *real = td_signer_find(f->gid, s);
    assert_non_null(real);
    uint8_t opk[32], osk[64], other_pk[32], other_sk[64];
    crypto_sign_keypair(opk, osk);
    td_client_sign_key(f->seat[1 - s], other_pk, other_sk);
    for (int variant = 0; variant < 4; variant++) {
        Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
        Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
        sub.game_id = f->gid;
        sub.seat = s;
        sub.based_on_seq = seq;
        sub.order = l->legal->orders[0];
        req.request_id = 7000 + (uint64_t)variant;
        req.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
        req.submit = &sub;
        uint8_t sig[64];
        const char *needle = "does not verify";
        if (variant == 0) needle = "carries no seat signature";
        if (variant == 1) assert_int_equal(td_sign_with(&req, osk, real->hh, sig), 0);
        if (variant == 2) assert_int_equal(td_sign_with(&req, other_sk, real->hh, sig), 0);
        if (variant == 3) {
            /* the seat's true signature, on a request with another id */
            assert_int_equal(td_sign_with(&req, real->sk, real->hh, sig), 0);
            req.request_id++;
        }
        s_code(td_call_plain(f->seat[s], &req, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3", needle);
    }
    /* an unsigned resign of a joined seat */
    Berthier__V1__Request rq = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__GameRef g = BERTHIER__V1__GAME_REF__INIT;
    g.game_id = f->gid;
    g.seat = 1;
    rq.body_case = BERTHIER__V1__REQUEST__BODY_RESIGN;
    rq.resign = &g;
    s_code(td_call_plain(f->seat[1], &rq, TD_TIMEOUT), BERTHIER__V1__CODE__CODE_UNAUTHORIZED, "P3",
           "carries no seat signature");
    assert_int_equal(s_log_size(f), size);
    /* the seat's own order goes through */
    size_t n;
    uint8_t *b = td_submit_bytes(7100, f->gid, s, seq, NULL, l->legal->orders[0].data, l->legal->orders[0].len, &n);
    Berthier__V1__Reply *a = td_call_raw(f->seat[s], b, n, TD_TIMEOUT);
    free(b);
    assert_non_null(a);
    assert_int_equal(a->code, 0);
    berthier__v1__reply__free_unpacked(a, NULL);
    berthier__v1__reply__free_unpacked(l, NULL);
    assert_true(s_log_size(f) > size);
    /* and a signed resign ends the game; the log verifies as seat-signed */
    Berthier__V1__Reply *e = td_gameref(f->seat[1], BERTHIER__V1__REQUEST__BODY_RESIGN, f->gid, 1);
    assert_non_null(e);
    assert_int_equal(e->code, 0);
    berthier__v1__reply__free_unpacked(e, NULL);
    char p[512];
    snprintf(p, sizeof p, "%s/games/%s.log", f->d.dir, f->gid);
    int skipped;
    int vrc = td_replay_verify(p, &skipped);
    if (!skipped) assert_int_equal(vrc, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_header_before_join, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_unsigned_join_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_forged_inputs_refused, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
