/*
 * test_daemon_vis_wem.c - what each party receives from the daemon's engine in wem games, on the
 * fixture of test_daemon_vis.c (included whole, its own tests left out): Enemy Mistakes hides
 * only the sealed initiative bids [1. Initiative] ("each player will secretly choose a number
 * of markers"), which the core collects and reveals together.
 *   - random games, two seats and three: every party receives only what the log says it may
 *     see, and all of it; every reply and notice has the length of its class;
 *   - non-interference: two games that differ only in one seat's bid, or in whether it has bid
 *     yet, give every other seat and the spectators the same bytes (replies, notices, their
 *     lengths, view hashes) until every bid is in, and the bidding seat messages of one length;
 *   - the `query` request (docs/protocol.md P4): answered by the ruleset as the asker may see the
 *     state, by the rules of `state`; refused before the start, to a key with no seat, to a
 *     spectator of a game whose spectators are not live before the end, for a ruleset that
 *     answers no questions, and for a text that is not 1 to 200 printable bytes; its replies
 *     are padded to their class like every reply about a game.
 */
#define main s_daemon_vis_main
#include "test_daemon_vis.c"
#undef main

#include "wem/wem.h"

/* ---- the query request ---- */

/* a query from `key` (party: whose inbox keeps the reply, -1 none), its reply's length checked
 * against the size classes (an answer is padded like a state) */
static Berthier__V1__Reply *s_query(s_fix *f, const uint8_t key[32], int party, unsigned seat, const char *text) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__Query q = BERTHIER__V1__QUERY__INIT;
    q.game_id = f->gid;
    q.seat = seat;
    q.text = (char *)text;
    req.body_case = BERTHIER__V1__REQUEST__BODY_QUERY;
    req.query = &q;
    req.request_id = ++f->rid;
    size_t n;
    uint8_t *b = canon_pack(&req.base, &n);
    assert_non_null(b);
    brt_buf reply;
    buf_init(&reply);
    (void)engine_handle(f->eng, key, b, n, &reply);
    free(b);
    s_round(f);
    if (party >= 0) s_keep(f, party, reply.data, reply.len, 0, 0);
    Berthier__V1__Reply *r = berthier__v1__reply__unpack(NULL, reply.len, reply.data);
    assert_non_null(r);
    s_zero_padding(&r->padding);
    size_t len = reply.len;
    r->padding.len = 0;
    size_t base = berthier__v1__reply__get_packed_size(r);
    size_t want = s_want_len(base, 2, r->code ? 1024 : f->cfg.max_message);
    if (len != want) fail_msg("query reply (code %d) of %zu bytes, %zu unpadded: the class is %zu", (int)r->code, len,
                              base, want);
    buf_free(&reply);
    return r;
}

/* what the ruleset itself answers, in process, for that viewpoint */
static void s_ruleset_answer(s_fix *f, int view, const char *text, brt_buf *out) {
    bd_game *gm = engine_find(f->eng, f->gid);
    assert_non_null(gm);
    buf_reset(out);
    assert_int_equal(game_query(gm->g, view, text, out), 0);
    buf_append(out, "", 1);
}

/* [docs/protocol.md P4] a seat's query is answered by the ruleset from its own view, and the
 * refusals: before the start, a key with no seat, a text that is not 1 to 200 printable bytes */
static void test_query_wem_seat_answered_by_the_ruleset(void **st) {
    (void)st;
    s_fix *f = s_fix_new(0x9e71);
    s_create(f, "wem", "short", NULL, 0);
    Berthier__V1__Reply *r = s_query(f, f->seat_key[0], 0, 0, "reach B1 R1");
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_NOT_STARTED);
    berthier__v1__reply__free_unpacked(r, NULL);
    for (unsigned s = 0; s < s_nseats; s++) s_join(f, s, 0);
    brt_buf want;
    buf_init(&want);
    for (unsigned s = 0; s < s_nseats; s++) {
        r = s_query(f, f->seat_key[s], (int)s, s, "reach B1 R1");
        assert_int_equal(r->code, 0);
        assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_ANSWER);
        s_ruleset_answer(f, (int)s, "reach B1 R1", &want);
        assert_string_equal(r->answer->text, (const char *)want.data);
        bd_game *gm = engine_find(f->eng, f->gid);
        assert_int_equal(r->answer->seq, game_seq(gm->g));
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    /* seat 1's key asking for seat 0 */
    r = s_query(f, f->seat_key[1], 1, 0, "reach B1 R1");
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_NOT_YOUR_SEAT);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* a key that holds no seat and watches nothing */
    uint8_t stranger[32];
    memset(stranger, 0x5a, sizeof stranger);
    r = s_query(f, stranger, -1, 0, "reach B1 R1");
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    berthier__v1__reply__free_unpacked(r, NULL);
    /* texts: empty, too long, not printable */
    char longer[202];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    const char *bad[] = {"", longer, "reach\tB1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = s_query(f, f->seat_key[0], 0, 0, bad[i]);
        assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_BAD_REQUEST);
        assert_string_equal(r->rule, "P4");
        berthier__v1__reply__free_unpacked(r, NULL);
    }
    longer[200] = '\0'; /* 200 bytes: the longest question */
    r = s_query(f, f->seat_key[0], 0, 0, longer);
    assert_int_equal(r->code, 0);
    berthier__v1__reply__free_unpacked(r, NULL);
    buf_free(&want);
    s_fix_free(f);
}

/* a ruleset with no query function (duel) refuses the request, naming itself */
static void test_query_refused_by_a_ruleset_without_one(void **st) {
    (void)st;
    assert_null(brt_ruleset_find("duel")->query);
    assert_non_null(brt_ruleset_find("wem")->query);
    s_fix *f = s_fix_new(0x9e72);
    s_create(f, "duel", "standard", NULL, 0);
    for (unsigned s = 0; s < s_nseats; s++) s_join(f, s, 0);
    Berthier__V1__Reply *r = s_query(f, f->seat_key[0], 0, 0, "reach B1 R1");
    assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_BAD_REQUEST);
    assert_non_null(strstr(r->message, "duel ruleset answers no queries"));
    berthier__v1__reply__free_unpacked(r, NULL);
    s_fix_free(f);
}

/* create a game of `ruleset` with one spectator key */
static void s_create_watched(s_fix *f, const char *ruleset, const char *scenario, const char *const *opts, size_t nopts,
                             const uint8_t spect[32]) {
    Berthier__V1__Request req = BERTHIER__V1__REQUEST__INIT;
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec ss[S_MAX_SEATS], *ssp[S_MAX_SEATS];
    for (unsigned s = 0; s < s_nseats; s++) {
        berthier__v1__seat_spec__init(&ss[s]);
        ss[s].seat = s;
        ss[s].key.data = f->seat_key[s];
        ss[s].key.len = 32;
        ssp[s] = &ss[s];
    }
    ProtobufCBinaryData sk = {32, (uint8_t *)spect};
    c.ruleset = (char *)ruleset;
    c.scenario = (char *)scenario;
    c.n_options = nopts;
    c.options = (char **)opts;
    c.n_seats = s_nseats;
    c.seats = ssp;
    c.n_spectator_keys = 1;
    c.spectator_keys = &sk;
    req.body_case = BERTHIER__V1__REQUEST__BODY_CREATE;
    req.create = &c;
    Berthier__V1__Reply *r = s_send(f, f->keys.admins[0], -1, &req, 0);
    assert_int_equal(r->code, 0);
    snprintf(f->gid, sizeof f->gid, "%s", r->created->game_id);
    berthier__v1__reply__free_unpacked(r, NULL);
}

/* the viewpoints of `state`: a spectator key of a spectators=live game is answered from what
 * every seat may see (BRT_VIEW_PUBLIC); of another game, only after the end (then from
 * everything); an admin from everything */
static void test_query_wem_spectator_and_admin_viewpoints(void **st) {
    (void)st;
    static const char *const live[] = {"spectators=live"};
    uint8_t spect[32];
    memset(spect, 0x77, sizeof spect);
    brt_buf want;
    buf_init(&want);
    for (int k = 0; k < 2; k++) {
        s_fix *f = s_fix_new(0x9e73 + (uint64_t)k);
        s_create_watched(f, "wem", "short", k ? live : NULL, k ? 1 : 0, spect);
        for (unsigned s = 0; s < s_nseats; s++) s_join(f, s, 0);
        bd_game *gm = engine_find(f->eng, f->gid);
        assert_non_null(gm);
        int over = game_over(gm->g);
        Berthier__V1__Reply *r = s_query(f, spect, S_SPECT, 0, "reach B1 R1");
        if (!k && !over) {
            assert_int_equal(r->code, BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
        } else {
            assert_int_equal(r->code, 0);
            s_ruleset_answer(f, over ? BRT_VIEW_ALL : BRT_VIEW_PUBLIC, "reach B1 R1", &want);
            assert_string_equal(r->answer->text, (const char *)want.data);
        }
        berthier__v1__reply__free_unpacked(r, NULL);
        r = s_query(f, f->keys.admins[0], -1, 0, "reach B1 R1");
        assert_int_equal(r->code, 0);
        s_ruleset_answer(f, BRT_VIEW_ALL, "reach B1 R1", &want);
        assert_string_equal(r->answer->text, (const char *)want.data);
        berthier__v1__reply__free_unpacked(r, NULL);
        s_fix_free(f);
    }
    buf_free(&want);
}

/* ---- the sealed bids [1. Initiative] ---- */

/* 1 if the engine gives a wem game of that scenario any decision after the joins (the phases
 * are landing one by one: until the first does, a game ends at its set-up) */
static int s_wem_decides(const char *scenario) {
    s_fix *f = s_fix_new(0x9e80);
    s_create(f, "wem", scenario, NULL, 0);
    for (unsigned s = 0; s < s_nseats; s++) s_join(f, s, 0);
    bd_game *gm = engine_find(f->eng, f->gid);
    int decides = !game_over(gm->g);
    s_fix_free(f);
    return decides;
}

/* Plays random legal orders (the fixture's generator) until the decision in front is sealed
 * and names two seats or more (the bids: blue's and red's before black enters, every army's
 * after); 1 then, 0 if the game ended or max_inputs passed first. */
static int s_to_sealed(s_fix *f, int max_inputs) {
    for (int k = 0; k < max_inputs; k++) {
        int acted = 0;
        for (unsigned s = 0; s < s_nseats && !acted; s++) {
            Berthier__V1__Reply *p = s_ref(f, s, BERTHIER__V1__REQUEST__BODY_PENDING, 0);
            const Berthier__V1__Decision *d = p->decision;
            if (d->result && d->result->ended) {
                berthier__v1__reply__free_unpacked(p, NULL);
                return 0;
            }
            if (d->sealed && d->n_seats >= 2) {
                berthier__v1__reply__free_unpacked(p, NULL);
                return 1;
            }
            if (d->you_must_act) {
                s_order(f, s, d->seq);
                acted = 1;
            }
            berthier__v1__reply__free_unpacked(p, NULL);
        }
        if (!acted) return 0;
    }
    return 0;
}

/* [1. Initiative] "each player will secretly choose a number of markers (not less than 1)": in
 * three games alike up to the bids, seat 0 bids the least it may, bids the most, or has not bid
 * yet (it asks for its pending instead, so that the request ids stay in step); until the others
 * bid, every other seat and the spectators get the same bytes in all three (replies, notices,
 * view hashes), and seat 0 messages of the same lengths */
static void s_bid_noninterference(const char *scenario, unsigned seats) {
    static const char *const opts[] = {"spectators=live"};
    s_nseats = seats;
    if (!s_wem_decides(scenario)) {
        s_nseats = 2;
        print_message("wem %s: the engine has no decision yet (its phases have not landed): nothing to bid\n",
                      scenario);
        skip();
    }
    s_fix *g[3];
    int found = 1;
    for (int k = 0; k < 3; k++) {
        g[k] = s_fix_new(0xb1d5);
        s_create(g[k], "wem", scenario, opts, 1);
        for (unsigned s = 0; s < s_nseats; s++) s_join(g[k], s, 0);
        found &= s_to_sealed(g[k], 4000);
    }
    if (!found) {
        for (int k = 0; k < 3; k++) s_fix_free(g[k]);
        s_nseats = 2;
        print_message("wem %s: no sealed bid reached (the initiative phase has not landed)\n", scenario);
        skip();
    }
    for (int k = 0; k < 3; k++) {
        Berthier__V1__Reply *p = s_ref(g[k], 0, BERTHIER__V1__REQUEST__BODY_PENDING, 0);
        Berthier__V1__Reply *l = s_ref(g[k], 0, BERTHIER__V1__REQUEST__BODY_LEGAL, 0);
        assert_true(p->decision->you_must_act);
        assert_true(l->legal->n_orders >= 1);
        if (k < 2) {
            size_t pick = k == 0 ? 0 : l->legal->n_orders - 1; /* the hidden choice */
            s_submit_order(g[k], 0, p->decision->seq, l->legal->orders[pick]);
        } else {
            berthier__v1__reply__free_unpacked(s_ref(g[k], 0, BERTHIER__V1__REQUEST__BODY_PENDING, 0), NULL);
        }
        berthier__v1__reply__free_unpacked(l, NULL);
        berthier__v1__reply__free_unpacked(p, NULL);
        for (unsigned s = 1; s < s_nseats; s++) s_queries(g[k], s);
    }
    for (int k = 1; k < 3; k++) {
        assert_string_equal(g[0]->gid, g[k]->gid);
        for (unsigned s = 1; s < s_nseats; s++) s_same_bytes(g[0], g[k], (int)s, 0);
        s_same_bytes(g[0], g[k], S_SPECT, 0);
    }
    int differ, raw;
    s_same_lengths(g[0], g[1], 0, &differ, &raw);
    for (int k = 0; k < 3; k++) s_fix_free(g[k]);
    s_nseats = 2;
}

static void test_noninterference_wem_sealed_bid_two_seats(void **st) {
    (void)st;
    s_bid_noninterference("full", 2);
}

static void test_noninterference_wem_sealed_bid_three_seats(void **st) {
    (void)st;
    s_bid_noninterference("full", 3);
}

/* random wem games: every party receives exactly what the log says it may see, and every reply
 * and notice has its class's length (test_daemon_vis.c's s_run_case) */
static void s_leak(const char *scenario, unsigned seats, int games, int max_inputs) {
    static const char *const opts[] = {"spectators=live"};
    s_nseats = seats;
    if (!s_wem_decides(scenario)) {
        s_nseats = 2;
        print_message("wem %s: the engine has no decision yet (its phases have not landed)\n", scenario);
        skip();
    }
    s_case c = {"wem", scenario, {opts[0]}, 1, 0, games, max_inputs, 0, 0, 0, 0};
    s_run_case(&c);
    s_nseats = 2;
}

static void test_leak_random_wem_short(void **st) {
    (void)st;
    s_leak("short", 2, 2, 3000);
}

static void test_leak_random_wem_full_three_seats(void **st) {
    (void)st;
    s_leak("full", 3, 2, 8000);
}

int main(void) {
    randombytes_set_implementation(&s_rand_impl); /* the fixture's repeatable randomness */
    if (sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_wem_seat_answered_by_the_ruleset),
        cmocka_unit_test(test_query_refused_by_a_ruleset_without_one),
        cmocka_unit_test(test_query_wem_spectator_and_admin_viewpoints),
        cmocka_unit_test(test_noninterference_wem_sealed_bid_two_seats),
        cmocka_unit_test(test_noninterference_wem_sealed_bid_three_seats),
        cmocka_unit_test(test_leak_random_wem_short),
        cmocka_unit_test(test_leak_random_wem_full_three_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
