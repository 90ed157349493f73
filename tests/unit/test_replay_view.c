/*
 * test_replay_view.c - berthier-replay render, html and export's per-step views
 * (replay/view.c, replay/export.c) on games played in process:
 *   - the picture of a finished duel game at the end and at a chosen seq, for every viewpoint;
 *   - the page: one step per input that changed the state (as many as STATE records),
 *     its hooks for viewers and tests, nothing fetched, no way out of its <script>;
 *   - who may see what on an unfinished game: the full view only with --all, a seat's
 *     only with its key (an unsigned log has none that could prove it), the spectators'
 *     always; after the end every view;
 *   - export: a "view" line after each input with every party's View as JSON, and
 *     "visible_to" on events and dice;
 *   - fog of war [16.1]: a unit hidden from seat 0 (from the spectators) at every step
 *     never appears in seat 0's (the spectators') page, and does in the full one.
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
#include "game.h"
#include "memlog.h"
#include "n20/v1/n20.pb-c.h"
#include "replay.h"
#include "selfplay.h"
#include "vis.h"
#include "walk.h"

static char s_dir[64];

static int s_has_render(const char *id) {
    const brt_ruleset *rs = brt_ruleset_find(id);
    return rs && rs->render != NULL;
}
static char s_duel[128], s_duel_live[128], s_n20[128];
static size_t s_duel_states;

static void s_path(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", s_dir, name); }

static size_t s_count_kind(const memlog *log, uint8_t kind) {
    size_t n = 0;
    for (size_t i = 0; i < log->n; i++) n += log->recs[i].kind == kind;
    return n;
}

static size_t s_count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

static int s_setup(void **st) {
    (void)st;
    memlog log;
    selfplay_result res;
    assert_int_equal(selfplay_game("duel", "standard", NULL, 0, 2, 5, 200000, &log, &res), 0);
    assert_true(res.ended);
    s_duel_states = s_count_kind(&log, EVLOG_STATE);
    s_path(s_duel, sizeof s_duel, "duel.log");
    assert_int_equal(memlog_save(&log, s_duel), 0);
    memlog_free(&log);
    assert_int_equal(selfplay_game("duel", "standard", NULL, 0, 2, 6, 6, &log, &res), 0);
    assert_false(res.ended);
    s_path(s_duel_live, sizeof s_duel_live, "duel-live.log");
    assert_int_equal(memlog_save(&log, s_duel_live), 0);
    memlog_free(&log);
    static const char *const fog[] = {"fog-of-war"};
    assert_int_equal(selfplay_game("n20", "waterloo20-standard", fog, 1, 2, 11, 2000, &log, &res), 0);
    assert_true(res.ended);
    s_path(s_n20, sizeof s_n20, "n20-fog.log");
    assert_int_equal(memlog_save(&log, s_n20), 0);
    memlog_free(&log);
    return 0;
}

typedef struct call {
    int rc;
    brt_buf out, err;
} call;

static void s_call_free(call *c) {
    buf_free(&c->out);
    buf_free(&c->err);
}

static call s_render(const char *path, uint64_t seq, int vp, int all, const char *secret) {
    call c;
    buf_init(&c.out);
    buf_init(&c.err);
    replay_view_opts o = {vp, all, secret};
    c.rc = replay_render(path, seq, &o, &c.out, &c.err);
    buf_append(&c.out, "", 1);
    buf_append(&c.err, "", 1);
    return c;
}

static call s_html(const char *path, int vp, int all, const char *secret) {
    call c;
    buf_init(&c.out);
    buf_init(&c.err);
    replay_view_opts o = {vp, all, secret};
    c.rc = replay_html(path, &o, &c.out, &c.err);
    buf_append(&c.out, "", 1);
    buf_append(&c.err, "", 1);
    return c;
}

#define OUT(c) ((const char *)(c).out.data)
#define ERR(c) ((const char *)(c).err.data)

/* The picture at the end and at a seq, for each viewpoint; a seq the log never reaches. */
static void test_render_duel(void **st) {
    (void)st;
    const int vps[] = {BRT_VIEW_ALL, BRT_VIEW_PUBLIC, 0, 1};
    for (size_t i = 0; i < sizeof vps / sizeof vps[0]; i++) {
        call c = s_render(s_duel, UINT64_MAX, vps[i], 0, NULL);
        if (c.rc != 0) fail_msg("render for viewpoint %d: %d %s", vps[i], c.rc, ERR(c));
        assert_true(strncmp(OUT(c), "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\"", 57) == 0);
        assert_non_null(strstr(OUT(c), "data-ruleset=\"duel\""));
        assert_non_null(strstr(OUT(c), "game 0000000000000005, seq "));
        assert_non_null(strstr(OUT(c), ", ended"));
        assert_non_null(strstr(OUT(c), "<g class=\"counter\" id=\"u-"));
        s_call_free(&c);
    }
    call c = s_render(s_duel, 7, BRT_VIEW_ALL, 0, NULL);
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(OUT(c), "game 0000000000000005, seq 7, turn "));
    assert_null(strstr(OUT(c), ", ended"));
    s_call_free(&c);
    c = s_render(s_duel, 1000000, BRT_VIEW_ALL, 0, NULL);
    assert_int_equal(c.rc, REPLAY_BAD);
    assert_non_null(strstr(ERR(c), "reaches seq"));
    assert_int_equal(c.out.len, 1); /* nothing but the terminator the test added */
    s_call_free(&c);
    c = s_render(s_duel, UINT64_MAX, 2, 0, NULL);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_non_null(strstr(ERR(c), "no seat 2"));
    s_call_free(&c);
}

/* n20: the ruleset's picture for every viewpoint (rules/n20/render.c), with the caption. */
static void test_render_n20(void **st) {
    (void)st;
    assert_true(s_has_render("n20"));
    const int vps[] = {BRT_VIEW_ALL, BRT_VIEW_PUBLIC, 0, 1};
    for (size_t i = 0; i < sizeof vps / sizeof vps[0]; i++) {
        call c = s_render(s_n20, 100, vps[i], 0, NULL);
        if (c.rc != 0) fail_msg("n20 render for viewpoint %d: %s", vps[i], ERR(c));
        assert_true(strncmp(OUT(c), "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\"", 57) == 0);
        assert_non_null(strstr(OUT(c), "data-ruleset=\"n20\""));
        assert_non_null(strstr(OUT(c), "<g class=\"counter\""));
        assert_non_null(strstr(OUT(c), "game 000000000000000b, seq "));
        s_call_free(&c);
    }
}

/* The picture render writes for a fixed state, byte for byte: duel game 5 at seq 7, seen by
 * seat 0 (the last order, the caption). tests/golden/replay-duel-5-seq7-seat0.svg;
 * BERTHIER_UPDATE_GOLDEN=1 rewrites it after a deliberate change of the picture. */
static void test_render_golden(void **st) {
    (void)st;
    const char *src = getenv("BERTHIER_SRC");
    if (!src) src = "..";
    char path[512];
    snprintf(path, sizeof path, "%s/tests/golden/replay-duel-5-seq7-seat0.svg", src);
    call c = s_render(s_duel, 7, 0, 0, NULL);
    assert_int_equal(c.rc, 0);
    size_t n = c.out.len - 1;
    if (getenv("BERTHIER_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(c.out.data, 1, n, f), n);
        fclose(f);
    }
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot read %s", path);
    static char want[1 << 16];
    size_t got = fread(want, 1, sizeof want, f);
    fclose(f);
    if (got != n || memcmp(want, c.out.data, n) != 0)
        fail_msg("render differs from %s (%zu bytes, the golden file %zu):\n%s", path, n, got, OUT(c));
    s_call_free(&c);
}

/* The page of a finished game: a step per state change, the hooks, nothing fetched. */
static void test_html_duel(void **st) {
    (void)st;
    call c = s_html(s_duel, BRT_VIEW_ALL, 0, NULL);
    if (c.rc != 0) fail_msg("html: %d %s", c.rc, ERR(c));
    const char *t = OUT(c);
    char want[64];
    snprintf(want, sizeof want, "<div id=\"viewer\" data-steps=\"%zu\"", s_duel_states);
    if (!strstr(t, want)) fail_msg("no %s", want);
    assert_non_null(strstr(t, "id=\"step-index\""));
    assert_non_null(strstr(t, "id=\"step-detail\""));
    assert_non_null(strstr(t, "class=\"board\""));
    assert_non_null(strstr(t, "<script type=\"application/json\" id=\"brt-data\">"));
    assert_non_null(strstr(t, "\"order\":\"bid ")); /* the full view shows every order */
    assert_non_null(strstr(t, "\"purpose\":\"D3 first roll\""));
    assert_non_null(strstr(t, "\"result\":{\"winners\":["));
    assert_non_null(strstr(t, "class=\\\"counter\\\" id=\\\"u-"));
    /* the data cannot end its <script> early, and nothing is fetched */
    assert_int_equal(s_count(t, "</script>"), 2);
    assert_int_equal(s_count(t, "<script"), 2);
    assert_null(strstr(t, " src="));
    assert_null(strstr(t, "<link"));
    assert_null(strstr(t, "https:"));
    assert_non_null(strstr(t, "default-src 'none'"));
    s_call_free(&c);
    /* seat 0's page: seat 0's own orders only, the other's as "gave an order" */
    c = s_html(s_duel, 0, 0, NULL);
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(OUT(c), "{\"kind\":\"order\",\"seat\":0,\"order\":\"bid "));
    assert_non_null(strstr(OUT(c), "{\"kind\":\"order\",\"seat\":1}"));
    assert_null(strstr(OUT(c), "{\"kind\":\"order\",\"seat\":1,\"order\""));
    s_call_free(&c);
    c = s_html(s_duel, BRT_VIEW_PUBLIC, 0, NULL);
    assert_int_equal(c.rc, 0);
    assert_null(strstr(OUT(c), "\"order\":\"bid "));
    s_call_free(&c);
}

static void s_write(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* An unfinished game: every view but the spectators' needs what allows it. */
static void test_gating_unfinished(void **st) {
    (void)st;
    call c = s_html(s_duel_live, BRT_VIEW_ALL, 0, NULL);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_non_null(strstr(ERR(c), "--all"));
    assert_int_equal(c.out.len, 1);
    s_call_free(&c);
    c = s_render(s_duel_live, UINT64_MAX, BRT_VIEW_ALL, 0, NULL);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_int_equal(c.out.len, 1);
    s_call_free(&c);
    c = s_html(s_duel_live, BRT_VIEW_ALL, 1, NULL);
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(OUT(c), "not finished"));
    s_call_free(&c);
    c = s_html(s_duel_live, BRT_VIEW_PUBLIC, 0, NULL);
    assert_int_equal(c.rc, 0);
    s_call_free(&c);
    c = s_html(s_duel_live, 0, 0, NULL);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_non_null(strstr(ERR(c), "--seat-secret"));
    assert_int_equal(c.out.len, 1);
    s_call_free(&c);
    /* a well-formed key file, but this log's joins bind no signing key at all */
    char key[128], bad[128];
    s_path(key, sizeof key, "some.key");
    s_write(key, "public mdW&l>a3PT9EP9DT9W:6/Jc5S2Aq/P.!V<YGm!W(\nsecret <LKin23w5lMmO%bT(we0V:viVhJPn?g:nt(hzcbv\n");
    c = s_html(s_duel_live, 0, 0, key);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_non_null(strstr(ERR(c), "binds no signing key"));
    assert_int_equal(c.out.len, 1);
    s_call_free(&c);
    s_path(bad, sizeof bad, "bad.key");
    s_write(bad, "secret not-a-key\n");
    c = s_render(s_duel_live, UINT64_MAX, 0, 0, bad);
    assert_int_equal(c.rc, REPLAY_USAGE);
    assert_non_null(strstr(ERR(c), "not a key file"));
    s_call_free(&c);
    /* after the end: every view, no key needed */
    c = s_html(s_duel, 1, 0, NULL);
    assert_int_equal(c.rc, 0);
    s_call_free(&c);
}

/* export: views after each input, and who may receive each event and roll. */
static void test_export_views_n20(void **st) {
    (void)st;
    brt_buf out, err;
    buf_init(&out);
    buf_init(&err);
    assert_int_equal(replay_export(s_n20, &out, &err), 0);
    buf_append(&out, "", 1);
    const char *t = (const char *)out.data;
    const char *v = strstr(t, "{\"kind\":\"view\",\"seq\":");
    assert_non_null(v);
    assert_non_null(strstr(v, "\"views\":{\"all\":{\"turn\":"));
    assert_non_null(strstr(v, ",\"public\":{\"turn\":"));
    assert_non_null(strstr(v, ",\"seat0\":{\"turn\":"));
    assert_non_null(strstr(v, ",\"seat1\":{\"turn\":"));
    assert_non_null(strstr(t, "\"id\":\"GARDE\""));
    assert_non_null(strstr(t, "\"hidden\":true")); /* [16.1] face-down units, in the seats' views */
    assert_non_null(strstr(t, "\"visible_to\":[\"seat0\",\"seat1\",\"public\"]"));
    /* [16.1] an event naming a hidden unit: its full copy for one seat only */
    assert_true(strstr(t, "\"visible_to\":[\"seat0\"]") || strstr(t, "\"visible_to\":[\"seat1\"]"));
    /* the set-up shuffle is seen by nobody */
    assert_non_null(strstr(t, "\"purpose\":\"3.0 event deck shuffle\",\"visible\":2147483648,\"seen_by\":[],"
                              "\"visible_to\":[]"));
    buf_free(&out);
    buf_free(&err);
}

/* The ids of the units `vp` may not see now (those of the full view that its view lacks). */
static size_t s_hidden_ids(const brt_game *g, int vp, char ids[][32], size_t max) {
    brt_buf a, b;
    buf_init(&a);
    buf_init(&b);
    assert_int_equal(game_view(g, BRT_VIEW_ALL, &a, NULL), 0);
    assert_int_equal(game_view(g, vp, &b, NULL), 0);
    N20__V1__View *va = n20__v1__view__unpack(NULL, a.len, a.data);
    N20__V1__View *vb = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(va);
    assert_non_null(vb);
    size_t n = 0;
    for (size_t i = 0; i < va->n_units && n < max; i++) {
        int seen = 0;
        for (size_t k = 0; k < vb->n_units && !seen; k++) seen = strcmp(vb->units[k]->id, va->units[i]->id) == 0;
        if (!seen) snprintf(ids[n++], 32, "%s", va->units[i]->id);
    }
    n20__v1__view__free_unpacked(va, NULL);
    n20__v1__view__free_unpacked(vb, NULL);
    buf_free(&a);
    buf_free(&b);
    return n;
}

/* A word of the first len bytes of t: the id between characters that cannot be part of an id. */
static int s_has_word_n(const char *t, size_t len, const char *w) {
    size_t n = strlen(w);
    for (const char *p = t; p + n <= t + len; p++) {
        if (memcmp(p, w, n) != 0) continue;
        char before = p == t ? ' ' : p[-1], after = p + n < t + len ? p[n] : ' ';
        int idch_b = (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9') || before == '-';
        int idch_a = (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9') || after == '-';
        if (!idch_b && !idch_a) return 1;
    }
    return 0;
}

static int s_has_word(const char *t, const char *w) { return s_has_word_n(t, strlen(t), w); }

/* The top-level elements of the JSON array at p (a '['): where each starts and its length. */
static size_t s_json_items(const char *p, const char **items, size_t *lens, size_t max) {
    assert_int_equal(*p, '[');
    size_t n = 0;
    int depth = 0, str = 0;
    const char *start = NULL;
    for (; *p; p++) {
        char ch = *p;
        if (str) {
            if (ch == '\\') p++;
            else if (ch == '"') str = 0;
            continue;
        }
        if (depth == 1 && !start && ch != ',' && ch != ']' && ch != ' ') start = p;
        if (ch == '"') str = 1;
        else if (ch == '[' || ch == '{') depth++;
        else if (ch == ']' || ch == '}') depth--;
        if (depth == 1 && start && ch == ',') {
            assert_true(n < max);
            items[n] = start;
            lens[n++] = (size_t)(p - start);
            start = NULL;
        }
        if (depth == 0) {
            if (start) {
                assert_true(n < max);
                items[n] = start;
                lens[n++] = (size_t)(p - start);
            }
            return n;
        }
    }
    fail_msg("unterminated JSON array");
    return 0;
}

/* Does the board {"svg":[first,count,...]} (runs of line numbers into lines) hold the word? */
static int s_board_has(const char *b, size_t n, const char *const *lines, const size_t *llen, size_t nl,
                       const char *w) {
    const char *p = memchr(b, '[', n);
    assert_non_null(p);
    unsigned long first, count;
    int used;
    p++;
    while (sscanf(p, "%lu,%lu%n", &first, &count, &used) == 2) {
        assert_true(first + count <= nl);
        for (unsigned long i = first; i < first + count; i++)
            if (s_has_word_n(lines[i], llen[i], w)) return 1;
        p += used;
        if (*p != ',') break;
        p++;
    }
    assert_int_equal(*p, ']');
    return 0;
}

/* One state the walk reached: its seq, the units hidden from the viewpoint then, and what the
 * events and rolls it may receive told it by name on the way there. */
typedef struct fog_state {
    uint64_t seq;
    char ids[64][32];
    size_t n;
    brt_buf told;
} fog_state;

static int s_in(const fog_state *f, const char *id) {
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->ids[i], id) == 0) return 1;
    return 0;
}

/* [16.1] At every step of a viewpoint's page, no unit hidden from it appears: not on the board
 * (hidden in the state shown), not in the step's orders, events, dice or decision (hidden before
 * and after the step, and not named to it by an event copy or roll core/vis.c lets it receive,
 * e.g. a Dummy revealed and removed [16.1.3]). The same ids do appear in the full page. */
static void s_fog_check(int vp) {
    brt_buf err;
    buf_init(&err);
    replay_walk *w = replay_walk_open(s_n20, &err);
    assert_non_null(w);
    size_t nrec, nst = 0, cap = 1024;
    const evlog_record *recs = replay_walk_records(w, &nrec);
    fog_state *st = calloc(cap, sizeof *st);
    assert_non_null(st);
    brt_buf told;
    buf_init(&told);
    while (replay_walk_step(w)) {
        const brt_game *g = replay_walk_game(w);
        size_t from, end;
        replay_walk_last(w, &from, &end);
        for (size_t r = from; r < end; r++) {
            if (recs[r].kind == EVLOG_EVENT) {
                Berthier__V1__LogEvent *e = berthier__v1__log_event__unpack(NULL, recs[r].len, recs[r].payload);
                assert_non_null(e);
                if (vis_event_may_see(e->visible, vp >= 0 ? vp : -1, 2, 0))
                    assert_int_equal(game_ruleset(g)->event_format(e->data.data, e->data.len, &told), 0);
                berthier__v1__log_event__free_unpacked(e, NULL);
            } else if (recs[r].kind == EVLOG_DICE) {
                Berthier__V1__LogDice *d = berthier__v1__log_dice__unpack(NULL, recs[r].len, recs[r].payload);
                assert_non_null(d);
                if (vis_dice_may_see(d->visible, vp >= 0 ? vp : -1, 2, 0)) buf_append_str(&told, d->purpose);
                berthier__v1__log_dice__free_unpacked(d, NULL);
            }
            buf_append_str(&told, "\n");
        }
        if (!game_started(g) || (nst && st[nst - 1].seq == game_seq(g))) continue;
        assert_true(nst < cap);
        fog_state *f = &st[nst++];
        f->seq = game_seq(g);
        f->n = s_hidden_ids(g, vp, f->ids, 64);
        buf_append(&told, "", 1);
        f->told = told;
        buf_init(&told);
    }
    buf_free(&told);
    assert_false(replay_walk_problem(w));
    replay_walk_destroy(&w);
    buf_free(&err);

    call c = s_html(s_n20, vp, 0, NULL);
    assert_int_equal(c.rc, 0);
    call all = s_html(s_n20, BRT_VIEW_ALL, 0, NULL);
    assert_int_equal(all.rc, 0);
    static const char *steps[4096], *boards[4096], *lines[1 << 17];
    static size_t slen[4096], blen[4096], llen[1 << 17];
    const char *sp = strstr(OUT(c), "\"steps\":["), *bp = strstr(OUT(c), "\"boards\":[");
    const char *lp = strstr(OUT(c), "\"lines\":[");
    assert_non_null(sp);
    assert_non_null(bp);
    assert_non_null(lp);
    size_t ns = s_json_items(sp + 8, steps, slen, 4096), nb = s_json_items(bp + 9, boards, blen, 4096);
    size_t nl = s_json_items(lp + 8, lines, llen, 1 << 17);
    assert_int_equal(ns, nst);
    size_t checked = 0, in_all = 0;
    for (size_t k = 0; k < ns; k++) {
        unsigned long long seq = 0;
        long bi = -1;
        const char *q = strstr(steps[k], "\"seq\":"), *qb = strstr(steps[k], "\"board\":");
        assert_true(q && sscanf(q, "\"seq\":%llu", &seq) == 1);
        assert_true(qb && sscanf(qb, "\"board\":%ld", &bi) == 1);
        assert_true(bi >= 0 && (size_t)bi < nb);
        assert_int_equal(seq, st[k].seq); /* the page's steps are the states the walk reached */
        const fog_state *before = k ? &st[k - 1] : &st[k], *after = &st[k];
        for (size_t i = 0; i < after->n; i++) {
            const char *id = after->ids[i];
            if (s_board_has(boards[bi], blen[bi], lines, llen, nl, id))
                fail_msg("step %zu: %s, hidden from viewpoint %d, is on its board", k + 1, id, vp);
            checked++;
            if (!s_in(before, id) || s_has_word((const char *)after->told.data, id)) continue;
            if (s_has_word_n(steps[k], slen[k], id))
                fail_msg("step %zu: %s, hidden from viewpoint %d, is in %.*s", k + 1, id, vp, (int)slen[k], steps[k]);
            checked++;
        }
    }
    for (size_t i = 0; i < st[nst - 1].n; i++) in_all += s_has_word(OUT(all), st[nst - 1].ids[i]);
    if (checked == 0 || in_all == 0)
        fail_msg("viewpoint %d: %zu checks, %zu hidden ids in the full page", vp, checked, in_all);
    for (size_t i = 0; i < nst; i++) buf_free(&st[i].told);
    free(st);
    s_call_free(&c);
    s_call_free(&all);
}

static void test_fog_seat0_page(void **st) {
    (void)st;
    s_fog_check(0);
}

static void test_fog_spectator_page(void **st) {
    (void)st;
    s_fog_check(BRT_VIEW_PUBLIC);
}

int main(void) {
    snprintf(s_dir, sizeof s_dir, "/tmp/test_replay_view.XXXXXX");
    if (!mkdtemp(s_dir) || sodium_init() < 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_duel),
        cmocka_unit_test(test_render_golden),
        cmocka_unit_test(test_render_n20),
        cmocka_unit_test(test_html_duel),
        cmocka_unit_test(test_gating_unfinished),
        cmocka_unit_test(test_export_views_n20),
        cmocka_unit_test(test_fog_seat0_page),
        cmocka_unit_test(test_fog_spectator_page),
    };
    int rc = cmocka_run_group_tests(tests, s_setup, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
