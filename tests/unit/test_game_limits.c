/*
 * test_game_limits.c - what a game header may hold (core/game.c, docs/protocol.md
 * P4.1): duplicate options, too many options, an option too long, a seat name
 * too long and bad spectator keys are refused at creation (BAD_OPTION,
 * BAD_SEATS, rule P4.1, a message) and on load, so that replay refuses such a
 * header too; spectator keys are recorded in the header (field 17) and a header
 * without them loads unchanged.
 *
 * On the old code `create` took 10,000 copies of one option and a 500 KB seat
 * name into the header: test_duplicate_and_oversized_are_refused fails there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canon.h"
#include "evlog.h"
#include "game.h"
#include "memlog.h"

typedef struct {
    memlog log;
    uint8_t seed[32];
    uint8_t keys[2][32];
    uint8_t spec[3][32];
} fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    for (int i = 0; i < 32; i++) f->seed[i] = (uint8_t)(i * 5 + 3);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 32; i++) f->keys[s][i] = (uint8_t)(s * 60 + i + 1);
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 32; i++) f->spec[s][i] = (uint8_t)(200 - s * 20 - i);
    memlog_init(&f->log, "00112233aabbccdd", 9);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    memlog_free(&f->log);
    free(f);
    return 0;
}

/* Create a duel game; NULL with err on refusal. */
static brt_game *s_create(fx *f, char **opts, size_t nopts, const char *name0, ProtobufCBinaryData *spec,
                          size_t nspec, brt_reject *err) {
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    Berthier__V1__SeatSpec specs[2], *sp[2];
    for (unsigned i = 0; i < 2; i++) {
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = f->keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    if (name0) specs[0].name = (char *)name0;
    c.ruleset = (char *)"duel";
    c.scenario = (char *)"standard";
    c.options = opts;
    c.n_options = nopts;
    c.seats = sp;
    c.n_seats = 2;
    c.spectator_keys = spec;
    c.n_spectator_keys = nspec;
    memset(err, 0, sizeof *err);
    game_params p = {"00112233aabbccdd", &c, f->seed, f->log.pk, "test", NULL, 0, NULL};
    return game_create(&p, memlog_sink(&f->log), err);
}

static void s_refused(brt_game *g, const brt_reject *err, int code, const char *needle) {
    assert_null(g);
    if (err->code != code) fprintf(stderr, "expected %d, got %d: %s\n", code, err->code, err->message);
    assert_int_equal(err->code, code);
    assert_string_equal(err->rule, "P4.1");
    assert_non_null(strstr(err->message, needle));
}

static void test_duplicate_and_oversized_are_refused(void **state) {
    fx *f = *state;
    brt_reject err;
    /* 10,000 copies of one core option */
    char **many = calloc(10000, sizeof *many);
    for (int i = 0; i < 10000; i++) many[i] = (char *)"dice=standard";
    s_refused(s_create(f, many, 10000, NULL, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_OPTION,
              "at most 32");
    /* two copies: a duplicate, whatever the count */
    s_refused(s_create(f, many, 2, NULL, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "twice");
    free(many);
    /* the same name with two values is a duplicate too */
    char *two[] = {(char *)"dice=standard", (char *)"dice=contributory"};
    s_refused(s_create(f, two, 2, NULL, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "twice");
    /* an option longer than GAME_MAX_OPTION_LEN bytes, and an empty one */
    char longopt[GAME_MAX_OPTION_LEN + 2];
    memset(longopt, 'a', sizeof longopt - 1);
    longopt[sizeof longopt - 1] = 0;
    char *lo[] = {longopt};
    s_refused(s_create(f, lo, 1, NULL, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "1 to 64");
    char *empty[] = {(char *)""};
    s_refused(s_create(f, empty, 1, NULL, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_OPTION, "1 to 64");
    /* a 500 KB seat name, and one byte over the limit */
    size_t big = 500u << 10;
    char *name = malloc(big + 1);
    memset(name, 'n', big);
    name[big] = 0;
    s_refused(s_create(f, NULL, 0, name, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "at most 64");
    name[GAME_MAX_SEAT_NAME + 1] = 0;
    s_refused(s_create(f, NULL, 0, name, NULL, 0, &err), &err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "at most 64");
    /* exactly at the limits: accepted */
    name[GAME_MAX_SEAT_NAME] = 0;
    brt_game *g = s_create(f, NULL, 0, name, NULL, 0, &err);
    assert_non_null(g);
    game_destroy(&g);
    free(name);
    /* nothing refused was logged (one header, of the game accepted) */
    assert_int_equal(f->log.n, 1);
}

static void test_spectator_keys(void **state) {
    fx *f = *state;
    brt_reject err;
    ProtobufCBinaryData sk[3] = {{32, f->spec[0]}, {32, f->spec[1]}, {31, f->spec[2]}};
    s_refused(s_create(f, NULL, 0, NULL, sk, 3, &err), &err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "32 bytes");
    ProtobufCBinaryData dup[2] = {{32, f->spec[0]}, {32, f->spec[0]}};
    s_refused(s_create(f, NULL, 0, NULL, dup, 2, &err), &err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "same key");
    ProtobufCBinaryData seat[1] = {{32, f->keys[1]}};
    s_refused(s_create(f, NULL, 0, NULL, seat, 1, &err), &err, BERTHIER__V1__CODE__CODE_BAD_SEATS, "seat 1");
    ProtobufCBinaryData *lots = calloc(GAME_MAX_SPECTATORS + 1, sizeof *lots);
    static uint8_t lk[GAME_MAX_SPECTATORS + 1][32];
    for (int i = 0; i <= GAME_MAX_SPECTATORS; i++) {
        memset(lk[i], 0x77, 32);
        lk[i][0] = (uint8_t)i;
        lots[i].data = lk[i];
        lots[i].len = 32;
    }
    s_refused(s_create(f, NULL, 0, NULL, lots, GAME_MAX_SPECTATORS + 1, &err), &err,
              BERTHIER__V1__CODE__CODE_BAD_SEATS, "at most 64");
    free(lots);
    assert_int_equal(f->log.n, 0);
    /* two good keys: in the header, field 17, after the seats and the dice mode */
    brt_game *g = s_create(f, NULL, 0, NULL, sk, 2, &err);
    assert_non_null(g);
    const Berthier__V1__LogHeader *h = game_header(g);
    assert_int_equal(h->n_spectator_keys, 2);
    assert_memory_equal(h->spectator_keys[1].data, f->spec[1], 32);
    const memlog_rec *r0 = &f->log.recs[0];
    const uint8_t *t = r0->payload + r0->len - 2 * 35;
    assert_int_equal(t[0], 0x8a);   /* field 17, wire type 2: varint 0x8a 0x01 */
    assert_int_equal(t[1], 0x01);
    assert_int_equal(t[2], 32);
    assert_memory_equal(t + 3, f->spec[0], 32);
    /* it loads again */
    brt_game *again = game_from_header(r0->payload, r0->len, f->seed, memlog_sink(&f->log), &err);
    assert_non_null(again);
    assert_int_equal(game_header(again)->n_spectator_keys, 2);
    game_destroy(&again);
    game_destroy(&g);
}

/* A header broken after the fact (an operator's edit, an old daemon that took
 * anything): game_from_header refuses it, so replay and recovery do too. */
static void test_load_refuses_what_create_refuses(void **state) {
    fx *f = *state;
    brt_reject err;
    brt_game *g = s_create(f, NULL, 0, NULL, NULL, 0, &err);
    assert_non_null(g);
    game_destroy(&g);
    const memlog_rec *r0 = &f->log.recs[0];
    /* as it was: loads (a header without spectator keys, as every older log) */
    g = game_from_header(r0->payload, r0->len, f->seed, memlog_sink(&f->log), &err);
    assert_non_null(g);
    assert_int_equal(game_header(g)->n_spectator_keys, 0);
    game_destroy(&g);
    for (int k = 0; k < 3; k++) {
        ProtobufCMessage *m = NULL;
        assert_int_equal(canon_unpack(&berthier__v1__log_header__descriptor, r0->payload, r0->len, 0, &m), CANON_OK);
        Berthier__V1__LogHeader *h = (Berthier__V1__LogHeader *)m;
        char *dup[] = {(char *)"dice=standard", (char *)"dice=standard"};
        char name[200];
        memset(name, 'q', sizeof name - 1);
        name[sizeof name - 1] = 0;
        char **saved_opts = h->options;
        size_t saved_n = h->n_options;
        char *saved_name = h->seats[0]->name;
        if (k == 0) {
            h->options = dup;
            h->n_options = 2;
        }
        if (k == 1) h->seats[0]->name = name;
        ProtobufCBinaryData sk[1] = {{32, f->keys[0]}};
        if (k == 2) {
            h->spectator_keys = sk;
            h->n_spectator_keys = 1;
        }
        size_t n;
        uint8_t *bytes = canon_pack(&h->base, &n);
        assert_non_null(bytes);
        h->options = saved_opts;
        h->n_options = saved_n;
        h->seats[0]->name = saved_name;
        h->spectator_keys = NULL;
        h->n_spectator_keys = 0;
        memset(&err, 0, sizeof err);
        g = game_from_header(bytes, n, f->seed, memlog_sink(&f->log), &err);
        s_refused(g, &err, k == 0 ? BERTHIER__V1__CODE__CODE_BAD_OPTION : BERTHIER__V1__CODE__CODE_BAD_SEATS,
                  k == 0 ? "twice" : k == 1 ? "at most 64" : "seat 0");
        free(bytes);
        protobuf_c_message_free_unpacked(m, NULL);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_duplicate_and_oversized_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spectator_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_refuses_what_create_refuses, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
