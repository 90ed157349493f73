/*
 * test_replay_vis.c - berthier-replay and LogDice.visible: verify re-executes the
 * visibility the rules give each roll and compares it byte for byte, export prints it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "berthier/v1/berthier.pb-c.h"
#include "evlog.h"
#include "memlog.h"
#include "replay.h"
#include "selfplay.h"

static char s_dir[64];

static void s_path(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", s_dir, name); }

/* An n20 game with fog-of-war played at random into a memlog. */
static void s_n20_game(memlog *log) {
    static const char *const opts[] = {"fog-of-war"};
    selfplay_result res;
    memlog_init(log, "00000000000000b1", 7);
    assert_int_equal(selfplay_game("n20", "waterloo20-standard", opts, 1, 2, 11, 2000, log, &res), 0);
    assert_true(res.ended);
}

static int s_verify(const char *path, char *rep, size_t cap) {
    brt_buf b;
    buf_init(&b);
    int rc = replay_verify(path, NULL, &b);
    snprintf(rep, cap, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    buf_free(&b);
    return rc;
}

/* The first DICE record whose purpose contains `what`, or -1. */
static long s_find_dice(const memlog *log, const char *what, uint32_t *visible) {
    for (size_t i = 0; i < log->n; i++) {
        if (log->recs[i].kind != EVLOG_DICE) continue;
        Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, log->recs[i].len, log->recs[i].payload);
        assert_non_null(d);
        int hit = strstr(d->purpose, what) != NULL;
        if (hit && visible) *visible = d->visible;
        berthier__v1__log_dice__free_unpacked(d, NULL);
        if (hit) return (long)i;
    }
    return -1;
}

/* A log with hidden rolls verifies, and export shows who may see each roll. */
static void test_replay_verifies_and_exports_dice_visibility(void **st) {
    (void)st;
    memlog log;
    s_n20_game(&log);
    uint32_t vis = 1;
    assert_true(s_find_dice(&log, "3.0 event deck shuffle", &vis) > 0);
    assert_int_equal(vis, 0x80000000u); /* the set-up shuffle: seen by nobody */
    char path[128], rep[4096];
    s_path(path, sizeof path, "good.log");
    assert_int_equal(memlog_save(&log, path), 0);
    int rc = s_verify(path, rep, sizeof rep);
    if (rc != REPLAY_OK) fail_msg("verify gave %d:\n%s", rc, rep);
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    assert_int_equal(replay_export(path, &out, &err), 0);
    buf_append(&out, "", 1);
    const char *t = (const char *)out.data;
    assert_non_null(strstr(t, "\"purpose\":\"3.0 event deck shuffle\",\"visible\":2147483648,\"seen_by\":[]"));
    assert_non_null(strstr(t, "\"visible\":0,\"seen_by\":\"all\""));
    buf_free(&out);
    buf_free(&err);
    memlog_free(&log);
}

/* A forger holding the signing key who makes a hidden roll public (or a public one hidden)
 * and signs everything again is caught by the re-execution, which names the roll. */
static void test_replay_refuses_a_changed_visibility(void **st) {
    (void)st;
    memlog log;
    s_n20_game(&log);
    uint32_t vis = 0;
    long k = s_find_dice(&log, "3.0 event deck shuffle", &vis);
    assert_true(k > 0);
    Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, log.recs[k].len, log.recs[k].payload);
    assert_non_null(d);
    d->visible = 0; /* public, as an old log would have it */
    size_t n = berthier__v1__log_dice__get_packed_size(d);
    uint8_t *p = malloc(n);
    assert_non_null(p);
    berthier__v1__log_dice__pack(d, p);
    berthier__v1__log_dice__free_unpacked(d, NULL);
    free(log.recs[k].payload);
    log.recs[k].payload = p;
    log.recs[k].len = n;
    char path[128], rep[4096];
    s_path(path, sizeof path, "forged.log");
    assert_int_equal(memlog_save(&log, path), 0); /* chain and checkpoints made afresh */
    int rc = s_verify(path, rep, sizeof rep);
    if (rc != REPLAY_BAD) fail_msg("verify gave %d:\n%s", rc, rep);
    assert_non_null(strstr(rep, "roll #"));
    assert_non_null(strstr(rep, "visible 0x80000000"));
    memlog_free(&log);
}

int main(void) {
    snprintf(s_dir, sizeof s_dir, "/tmp/test_replay_vis.XXXXXX");
    if (!mkdtemp(s_dir) || sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_verifies_and_exports_dice_visibility),
        cmocka_unit_test(test_replay_refuses_a_changed_visibility),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
