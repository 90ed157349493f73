/*
 * test_wnlb_render.c - the wnlb pictures (rules/wnlb/render.c, docs/render.md): golden SVG
 * files fixed byte for byte (tests/golden/wnlb-*.svg), the same bytes twice, a tag structure
 * that closes, a counter for every unit on the board, and the hands: a seat's picture shows
 * its own hand's cards and no card of another hand [2.4] [6.0], the spectators' picture no
 * card at all, while every hand's count is public.
 *
 * The games are played through the core (game_create, game_submit) with random legal orders
 * from a fixed generator and the core's dice from a fixed seed, so every run is the same game.
 * BERTHIER_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing them.
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
#include "game.h"
#include "golden.h"
#include "memlog.h"
#include "selfplay.h"

/* ---- a game in process ------------------------------------------------------------ */
typedef struct r_game {
    memlog log;
    brt_game *g;
    char id[GAME_ID_MAX + 1];
    unsigned seats;
    uint64_t rng, rid;
    uint8_t last[4096];
    size_t last_len;
    int last_seat;
} r_game;

static void r_fill(uint64_t *rng, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = selfplay_next(rng);
        for (size_t k = 0; k < 8 && i + k < n; k++) out[i + k] = (uint8_t)(v >> (8 * k));
    }
}

static r_game *r_new(const char *scenario, unsigned seats, uint64_t seed) {
    r_game *self = calloc(1, sizeof *self);
    assert_non_null(self);
    self->rng = seed;
    self->seats = seats;
    self->last_seat = -1;
    snprintf(self->id, sizeof self->id, "%016llx", (unsigned long long)seed);
    memlog_init(&self->log, self->id, (uint8_t)(seed & 0xff));
    uint8_t server_seed[32], keys[BRT_MAX_SEATS][32];
    r_fill(&self->rng, server_seed, sizeof server_seed);
    Berthier__V1__SeatSpec specs[BRT_MAX_SEATS], *sp[BRT_MAX_SEATS];
    for (unsigned i = 0; i < seats; i++) {
        r_fill(&self->rng, keys[i], 32);
        berthier__v1__seat_spec__init(&specs[i]);
        specs[i].seat = i;
        specs[i].key.data = keys[i];
        specs[i].key.len = 32;
        sp[i] = &specs[i];
    }
    Berthier__V1__CreateGame c = BERTHIER__V1__CREATE_GAME__INIT;
    c.ruleset = "wnlb";
    c.scenario = (char *)scenario;
    c.seats = sp;
    c.n_seats = seats;
    game_params p = {self->id, &c, server_seed, self->log.pk, "test", NULL, 0, NULL};
    brt_reject err;
    self->g = game_create(&p, memlog_sink(&self->log), &err);
    if (!self->g) fail_msg("game_create wnlb %s: %s", scenario, err.message);
    for (unsigned i = 0; i < seats; i++) {
        uint8_t ent[32];
        r_fill(&self->rng, ent, 32);
        assert_int_equal(game_join(self->g, i, ent, 32, NULL, 0, &err), 0);
    }
    return self;
}

static void r_free(r_game **p) {
    if (!*p) return;
    game_destroy(&(*p)->g);
    memlog_free(&(*p)->log);
    free(*p);
    *p = NULL;
}

/* up to n random legal orders (fewer if the game ends) */
static void r_play(r_game *self, int n) {
    brt_buf legal;
    buf_init(&legal);
    for (int k = 0; k < n && !game_over(self->g); k++) {
        int acted = 0;
        for (unsigned s = 0; s < self->seats && !game_over(self->g); s++) {
            brt_pending pend;
            int must;
            game_pending(self->g, (int)s, &pend, &must);
            if (!must) continue;
            buf_reset(&legal);
            int cnt = game_legal(self->g, s, &legal);
            assert_true(cnt > 0);
            uint64_t pick = selfplay_next(&self->rng) % (uint64_t)cnt;
            size_t pos = 0, ilen = 0;
            const uint8_t *item = NULL;
            for (uint64_t i = 0; i <= pick; i++) buf_next_item(&legal, &pos, &item, &ilen);
            Berthier__V1__Request r = BERTHIER__V1__REQUEST__INIT;
            Berthier__V1__Submit sub = BERTHIER__V1__SUBMIT__INIT;
            r.request_id = ++self->rid;
            r.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
            r.submit = &sub;
            sub.game_id = self->id;
            sub.seat = s;
            sub.based_on_seq = game_seq(self->g);
            sub.order.data = (uint8_t *)item;
            sub.order.len = ilen;
            size_t blen;
            uint8_t *bytes = canon_pack(&r.base, &blen);
            brt_reject err;
            assert_non_null(bytes);
            if (game_submit(self->g, s, bytes, blen, &err) != 0) fail_msg("legal order refused: [%s] %s", err.rule, err.message);
            free(bytes);
            assert_true(ilen <= sizeof self->last);
            memcpy(self->last, item, ilen);
            self->last_len = ilen;
            self->last_seat = (int)s;
            acted = 1;
        }
        assert_true(acted || game_over(self->g));
    }
    buf_free(&legal);
}

/* the picture as a NUL-terminated string (free it), with the last order given */
static char *r_render(const r_game *self, int vp, const char *caption) {
    brt_render_ctx ctx = {self->last_len ? self->last : NULL, self->last_len, self->last_seat, caption};
    brt_buf b;
    buf_init(&b);
    assert_int_equal(game_render(self->g, vp, &ctx, &b), 0);
    buf_append(&b, "", 1);
    char *str = malloc(b.len);
    assert_non_null(str);
    memcpy(str, b.data, b.len);
    buf_free(&b);
    return str;
}

/* compare data with the committed file `rel` (under the source tree) byte for byte; with
 * BERTHIER_UPDATE_GOLDEN=1 write it instead (golden.h) */
static void r_golden(const char *rel, const char *data) {
    const char *src = getenv("BERTHIER_SRC");
    if (!src || !*src) src = "../..";
    char why[4608];
    if (golden_check(src, rel, data, strlen(data), why, sizeof why) != 0) fail_msg("%s", why);
}

static int r_count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* every element opened is closed, in order, under one <svg> root */
static void r_tags_close(const char *x) {
    char stack[64][24];
    int depth = 0, roots = 0;
    for (const char *p = strchr(x, '<'); p; p = strchr(p + 1, '<')) {
        const char *e = strchr(p, '>');
        assert_non_null(e);
        if (p[1] == '/') {
            size_t k = (size_t)(e - p - 2);
            assert_true(depth > 0);
            if (k != strlen(stack[depth - 1]) || strncmp(p + 2, stack[depth - 1], k) != 0)
                fail_msg("</%.*s> closes <%s>", (int)k, p + 2, stack[depth - 1]);
            depth--;
            continue;
        }
        size_t k = strcspn(p + 1, " >/\n");
        assert_true(k > 0 && k < sizeof stack[0]);
        if (e[-1] == '/') continue; /* <x ... /> */
        assert_true(depth < 64);
        if (depth == 0) roots++;
        memcpy(stack[depth], p + 1, k);
        stack[depth++][k] = 0;
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
    assert_true(strncmp(x, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"wnlb\"", 77) == 0);
}

/* the card ids the picture lists in the hand of `army` ("French", "British", "Prussian"), as a bit set */
static void r_hand_cards(const char *svg, const char *army, uint8_t cards[256], int *count) {
    char key[64];
    snprintf(key, sizeof key, "<g class=\"hand\" data-army=\"%s\" data-count=\"", army);
    memset(cards, 0, 256);
    *count = -1;
    const char *h = strstr(svg, key);
    if (!h) return;
    *count = atoi(h + strlen(key));
    const char *stop = strstr(h, "</g>"); /* a hand group holds text lines only */
    for (const char *p = strstr(h, "data-card=\""); p && (!stop || p < stop);
         p = strstr(p + 1, "data-card=\"")) {
        int id = atoi(p + 11);
        if (id > 0 && id < 256) cards[id] = 1;
    }
}

static int r_skip_without_wnlb(void) {
    if (brt_ruleset_find("wnlb")) return 0;
    print_message("ruleset wnlb is not built in\n");
    return 1;
}

/* ---- golden pictures ------------------------------------------------------------- */

/* [3.1] the Short game's set-up, everything: the board, every unit facing as set up, the VP squares
 * [13.2] and their owners (Allied at the start), the chateaux with their full CDP [10.0], both hands */
static void test_wnlb_3_1_render_short_setup(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    r_game *g = r_new("short", 2, 14);
    char *svg = r_render(g, BRT_VIEW_ALL, "short, set-up");
    r_tags_close(svg);
    assert_non_null(strstr(svg, "data-scenario=\"short\" data-viewpoint=\"all\""));
    assert_true(r_count(svg, "<g class=\"counter") >= 30); /* 19 French and 17 British/Allied [3.1] */
    assert_int_equal(r_count(svg, "<g class=\"commander\""), 2); /* Napoleon and Wellington [12.0] */
    assert_int_equal(r_count(svg, "<g class=\"vp\" data-owner=\"Allied\""), 4); /* [3.1] British side up */
    assert_int_equal(r_count(svg, "<g class=\"vp\" data-owner=\"French\""), 0);
    assert_int_equal(r_count(svg, "<g class=\"cdp\""), 3); /* the three chateaux [10.0] */
    assert_int_equal(r_count(svg, "data-army=\"Prussian\" data-type"), 0); /* [13.1] no Prussians */
    assert_non_null(strstr(svg, "<g class=\"hand\" data-army=\"French\" data-count=\"15\" data-shown=\"1\">")); /* [3.2] */
    assert_non_null(strstr(svg, "<g class=\"hand\" data-army=\"British\" data-count=\"12\" data-shown=\"1\">"));
    r_golden("tests/golden/wnlb-short-setup-all.svg", svg);
    free(svg);
    r_free(&g);
}

/* the same state drawn twice, and by a second game of the same seeds, gives the same bytes */
static void test_wnlb_render_deterministic(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    r_game *a = r_new("full", 3, 7), *b = r_new("full", 3, 7);
    r_play(a, 120);
    r_play(b, 120);
    for (int vp = BRT_VIEW_PUBLIC; vp < 3; vp++) {
        char *x = r_render(a, vp, NULL), *y = r_render(a, vp, NULL), *z = r_render(b, vp, NULL);
        r_tags_close(x);
        assert_string_equal(x, y);
        assert_string_equal(x, z);
        free(x);
        free(y);
        free(z);
    }
    r_free(&a);
    r_free(&b);
}

/* [4.0] [6.0] a game under way, the French seat's picture: its own hand, the others' counts, the
 * round and whose it is, and the last order (a move's path when it was one) */
static void test_wnlb_render_short_midgame_french(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    r_game *g = r_new("short", 2, 21);
    r_play(g, 60);
    char *svg = r_render(g, 0, "short, 60 orders");
    r_tags_close(svg);
    assert_non_null(strstr(svg, "data-viewpoint=\"french\""));
    assert_non_null(strstr(svg, "<g class=\"hand\" data-army=\"French\""));
    r_golden("tests/golden/wnlb-short-midgame-french.svg", svg);
    free(svg);
    r_free(&g);
}

/* [6.0] the Full Battle game with three seats, the British seat's picture */
static void test_wnlb_render_full3_british(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    r_game *g = r_new("full", 3, 33);
    r_play(g, 150);
    char *svg = r_render(g, 1, "full, 3 seats, 150 orders");
    r_tags_close(svg);
    assert_non_null(strstr(svg, "data-viewpoint=\"british\""));
    r_golden("tests/golden/wnlb-full3-british.svg", svg);
    free(svg);
    r_free(&g);
}

/* [13.2] a finished Short game, everything: the result in the panel */
static void test_wnlb_13_2_render_finished(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    r_game *g = r_new("short", 2, 5);
    r_play(g, 100000);
    assert_true(game_over(g->g));
    char *svg = r_render(g, BRT_VIEW_ALL, "short, finished");
    r_tags_close(svg);
    assert_non_null(strstr(svg, "Game over: "));
    r_golden("tests/golden/wnlb-short-finished-all.svg", svg);
    free(svg);
    r_free(&g);
}

/* ---- the hands ---------------------------------------------------------------------- */

/* [2.4] [6.0] over random games of each kind, at many points: every seat's picture lists exactly
 * its own hands' cards (the ones the whole-truth picture lists for those armies) and no card of
 * another hand anywhere; the spectators' picture lists no card; every picture gives every count. */
static void s_hands_check(const char *scenario, unsigned seats, uint64_t seed) {
    static const char *army[3] = {"French", "British", "Prussian"};
    r_game *g = r_new(scenario, seats, seed);
    int checks = 0;
    for (int step = 0; step < 40 && !game_over(g->g); step++) {
        r_play(g, 9);
        char *all = r_render(g, BRT_VIEW_ALL, NULL);
        uint8_t truth[3][256];
        int tcount[3];
        for (int a = 0; a < 3; a++) r_hand_cards(all, army[a], truth[a], &tcount[a]);
        for (int vp = BRT_VIEW_PUBLIC; vp < (int)seats; vp++) {
            if (vp == BRT_VIEW_ALL) continue;
            char *svg = r_render(g, vp, NULL);
            for (int a = 0; a < 3; a++) {
                if (tcount[a] < 0) continue; /* no such deck in this scenario */
                int own = vp == 0 ? a == 0 : vp >= 0 && (seats == 2 ? a > 0 : a == vp);
                uint8_t seen[256];
                int count;
                r_hand_cards(svg, army[a], seen, &count);
                assert_int_equal(count, tcount[a]); /* the counts are public */
                for (int id = 1; id < 256; id++) {
                    char needle[32];
                    snprintf(needle, sizeof needle, "data-card=\"%d\"", id);
                    if (own) {
                        assert_int_equal(seen[id], truth[a][id]);
                    } else if (truth[a][id]) {
                        if (strstr(svg, needle)) fail_msg("viewpoint %d sees card %d of the %s hand", vp, id, army[a]);
                    }
                }
            }
            if (vp == BRT_VIEW_PUBLIC) assert_null(strstr(svg, "data-card=\""));
            free(svg);
            checks++;
        }
        free(all);
    }
    assert_true(checks > 0);
    r_free(&g);
}

static void test_wnlb_render_hands_short(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    s_hands_check("short", 2, 41);
}

static void test_wnlb_render_hands_full2(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    s_hands_check("full", 2, 42);
}

static void test_wnlb_render_hands_full3(void **st) {
    (void)st;
    if (r_skip_without_wnlb()) skip();
    s_hands_check("full", 3, 43);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_3_1_render_short_setup),
        cmocka_unit_test(test_wnlb_render_deterministic),
        cmocka_unit_test(test_wnlb_render_short_midgame_french),
        cmocka_unit_test(test_wnlb_render_full3_british),
        cmocka_unit_test(test_wnlb_13_2_render_finished),
        cmocka_unit_test(test_wnlb_render_hands_short),
        cmocka_unit_test(test_wnlb_render_hands_full2),
        cmocka_unit_test(test_wnlb_render_hands_full3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
