/*
 * test_daemon_want.c - one round trip per order (docs/protocol.md P4.3) against a
 * real berthierd, through the C client library:
 *   - full duel and Waterloo 20 games with seat 0 playing old-style (pending, legal,
 *     submit) and seat 1 new-style (Want on join, submit and pending): every
 *     Reply.next is byte for byte the Decision `pending` answers at the same seq, every
 *     Reply.next_legal what `legal` answers (orders, truncated, texts only when asked);
 *     a decision that is not the seat's to act on (the other seat's turn, a sealed bid
 *     already made: duel bids, wem's Initiative) never comes with legal orders; every
 *     such reply is padded;
 *   - the retry ruling: a retry gets the first reply's bytes; after a restart the
 *     acknowledgement is the same and next is the decision as of the retry;
 *   - the cache of legal texts: repeated `legal` requests format each order once (the
 *     daemon counts order_format calls and logs the count when it stops);
 *   - berthier-bot's play loop: requests per order fall with the new protocol (counted,
 *     never timed), to about one per order for the greedy policy, whose View comes with
 *     the decision (Want.view);
 *   - Reply.next_view: byte for byte the StateView `state` answers the seat at the same
 *     seq without text or svg, only when the seat must act, and always the seat's own
 *     View (wnlb's hidden hands, wem's sealed bids: never the other seat's).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "berthier/client.h"
#include "bot.h"

static char s_dir[64];
static char s_data[128];
static pid_t s_daemon = -1;
static const char *s_max_message;   /* --max-message for the next start (NULL: the default) */

static void s_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int s_start_daemon(void) {
    const char *b = getenv("BERTHIER_BIN");
    char prog[512], logp[256];
    snprintf(prog, sizeof prog, "%s/berthierd", b ? b : "build/bin");
    snprintf(logp, sizeof logp, "%s/daemon.log", s_dir);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (s_max_message) execl(prog, "berthierd", "--data-dir", s_data, "--max-message", s_max_message, (char *)NULL);
        execl(prog, "berthierd", "--data-dir", s_data, (char *)NULL);
        _exit(127);
    }
    s_daemon = pid;
    for (int i = 0; i < 200; i++) {
        brt_client *c = brt_client_new_data_dir(s_data);
        if (c) {
            brt_client_set_timeout(c, 200, 200);
            int ok = brt_client_hello(c, NULL, -1, NULL) == 0;
            brt_client_destroy(&c);
            if (ok) return 0;
        }
        s_sleep_ms(50);
    }
    return -1;
}

static void s_kill_daemon(int sig) {
    if (s_daemon > 0) {
        kill(s_daemon, sig);
        waitpid(s_daemon, NULL, 0);
        s_daemon = -1;
    }
}

static int s_group_setup(void **state) {
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/brt-want.XXXXXX");
    if (!mkdtemp(s_dir)) return -1;
    snprintf(s_data, sizeof s_data, "%s/d", s_dir);
    setenv("BERTHIER_RECEIPTS_DIR", s_dir, 1);
    return s_start_daemon();
}

static int s_group_teardown(void **state) {
    (void)state;
    s_kill_daemon(SIGKILL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static brt_client *s_admin(void) {
    brt_client *c = brt_client_new_data_dir(s_data);
    assert_non_null(c);
    return c;
}

static brt_client *s_client(const brt_keypair *kp) {
    brt_client *admin = s_admin();
    brt_client *c = brt_client_new_keypair(brt_client_endpoint(admin), brt_client_server_key(admin), kp);
    brt_client_destroy(&admin);
    assert_non_null(c);
    return c;
}

typedef struct s_game {
    char id[BRT_GAME_ID_MAX + 1];
    brt_keypair kp[2];
    brt_client *seat[2];    /* the players */
    brt_client *probe[2];   /* the same keys: old-style pending and legal, to compare */
    int texts;              /* the new-style seat asks for texts */
    int view;               /* ... and for its View (Want.view) */
    unsigned checked, not_ours, sealed_seen, padded;
    unsigned views, views_differ;   /* next_view checked; differing from the other seat's View */
} s_game;

static void s_new_game(s_game *g, const char *ruleset, const char *scenario) {
    memset(g, 0, sizeof *g);
    const char *pubs[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(brt_keypair_generate(&g->kp[i]), 0);
        pubs[i] = g->kp[i].public_z85;
    }
    brt_client *admin = s_admin();
    brt_game_spec spec = {ruleset, scenario, NULL, 0, pubs, 2, 0, 0, 0, NULL, 0};
    assert_int_equal(brt_client_create(admin, &spec, g->id, NULL), 0);
    brt_client_destroy(&admin);
    for (int i = 0; i < 2; i++) {
        g->seat[i] = s_client(&g->kp[i]);
        g->probe[i] = s_client(&g->kp[i]);
    }
}

static void s_free_game(s_game *g) {
    for (int i = 0; i < 2; i++) {
        brt_client_destroy(&g->seat[i]);
        brt_client_destroy(&g->probe[i]);
    }
}

static uint8_t *s_pack_decision(const Berthier__V1__Decision *d, size_t *n) {
    *n = berthier__v1__decision__get_packed_size(d);
    uint8_t *b = malloc(*n ? *n : 1);
    assert_non_null(b);
    berthier__v1__decision__pack(d, b);
    return b;
}

static Berthier__V1__Decision *s_copy_decision(const Berthier__V1__Decision *d) {
    size_t n;
    uint8_t *b = s_pack_decision(d, &n);
    Berthier__V1__Decision *c = berthier__v1__decision__unpack(NULL, n, b);
    free(b);
    assert_non_null(c);
    return c;
}

static Berthier__V1__LegalOrders *s_copy_legal(const Berthier__V1__LegalOrders *lo) {
    size_t n = berthier__v1__legal_orders__get_packed_size(lo);
    uint8_t *b = malloc(n ? n : 1);
    assert_non_null(b);
    berthier__v1__legal_orders__pack(lo, b);
    Berthier__V1__LegalOrders *c = berthier__v1__legal_orders__unpack(NULL, n, b);
    free(b);
    assert_non_null(c);
    return c;
}

static Berthier__V1__StateView *s_copy_view(const Berthier__V1__StateView *v) {
    if (!v) return NULL;
    size_t n = berthier__v1__state_view__get_packed_size(v);
    uint8_t *b = malloc(n ? n : 1);
    assert_non_null(b);
    berthier__v1__state_view__pack(v, b);
    Berthier__V1__StateView *c = berthier__v1__state_view__unpack(NULL, n, b);
    free(b);
    assert_non_null(c);
    return c;
}

static void s_free_view(Berthier__V1__StateView **v) {
    if (*v) berthier__v1__state_view__free_unpacked(*v, NULL);
    *v = NULL;
}

static uint8_t *s_pack_view(const Berthier__V1__StateView *v, size_t *n) {
    *n = berthier__v1__state_view__get_packed_size(v);
    uint8_t *b = malloc(*n ? *n : 1);
    assert_non_null(b);
    berthier__v1__state_view__pack(v, b);
    return b;
}

/* next_view against what `state` answers the seat now (the View alone), and the other
 * seat's View at the same seq. */
static void s_check_view(s_game *g, unsigned seat, const Berthier__V1__StateView *next_view) {
    if (!g->view) {
        assert_null(next_view);
        return;
    }
    assert_non_null(next_view);
    assert_int_equal(next_view->state_hash.len, 0);   /* never to a seat before the end */
    assert_string_equal(next_view->text ? next_view->text : "", "");
    assert_string_equal(next_view->svg ? next_view->svg : "", "");
    assert_int_equal(next_view->view_hash.len, 32);
    const Berthier__V1__StateView *sv = NULL;
    assert_int_equal(brt_client_state(g->probe[seat], g->id, seat, 0, &sv), 0);
    size_t na, nb;
    uint8_t *a = s_pack_view(next_view, &na), *b = s_pack_view(sv, &nb);
    if (na != nb || memcmp(a, b, na) != 0)
        fail_msg("seat %u: Reply.next_view at seq %llu (%zu bytes) differs from state at seq %llu (%zu bytes)", seat,
                 (unsigned long long)next_view->seq, na, (unsigned long long)sv->seq, nb);
    free(b);
    unsigned other = 1 - seat;
    assert_int_equal(brt_client_state(g->probe[other], g->id, other, 0, &sv), 0);
    assert_int_equal(sv->seq, next_view->seq);
    b = s_pack_view(sv, &nb);
    assert_false(na == nb && memcmp(a, b, na) == 0);   /* view_hash names the seat at least */
    if (next_view->view.len != sv->view.len || memcmp(next_view->view.data, sv->view.data, sv->view.len) != 0)
        g->views_differ++;
    free(a);
    free(b);
    g->views++;
}

/* The last reply of c is padded to a size class (docs/protocol.md "Padding of replies"). */
static void s_check_padded(s_game *g, brt_client *c) {
    const Berthier__V1__Reply *r = brt_client_reply(c);
    assert_non_null(r);
    size_t n = berthier__v1__reply__get_packed_size(r);
    /* a class (a reply that is one already carries no padding field) */
    if (n < 512 || (n & (n - 1)) != 0)
        fail_msg("a reply of %zu bytes (%zu legal orders, truncated %d) is not padded to a class", n,
                 r->next_legal ? r->next_legal->n_orders : 0, r->next_legal ? r->next_legal->truncated : -1);
    g->padded++;
}

/* next / next_legal (just received by the new-style seat) against what the old
 * requests answer now, at the same seq. */
static void s_check_next(s_game *g, unsigned seat, const Berthier__V1__Decision *next,
                         const Berthier__V1__LegalOrders *next_legal, const Berthier__V1__StateView *next_view) {
    assert_non_null(next);
    const Berthier__V1__Decision *d = NULL;
    brt_client_set_want(g->probe[seat], 0, 0);
    assert_int_equal(brt_client_pending(g->probe[seat], g->id, seat, &d), 0);
    size_t na, nb;
    uint8_t *a = s_pack_decision(next, &na), *b = s_pack_decision(d, &nb);
    if (na != nb || memcmp(a, b, na) != 0)
        fail_msg("seat %u: Reply.next at seq %llu differs from pending at seq %llu", seat,
                 (unsigned long long)next->seq, (unsigned long long)d->seq);
    free(a);
    free(b);
    int ours = next->you_must_act && next->started && !(next->result && next->result->ended);
    if (!ours) {
        /* not the seat's to act on: no legal orders and no View, whoever must decide */
        assert_null(next_legal);
        assert_null(next_view);
        g->not_ours++;
        if (next->sealed && !next->you_must_act && !(next->result && next->result->ended)) g->sealed_seen++;
        return;
    }
    assert_non_null(next_legal);
    const Berthier__V1__LegalOrders *lo = NULL;
    assert_int_equal(brt_client_legal(g->probe[seat], g->id, seat, 0, &lo), 0);
    assert_int_equal(next_legal->seq, lo->seq);
    assert_int_equal(next_legal->truncated, lo->truncated);
    assert_int_equal(next_legal->n_orders, lo->n_orders);
    for (size_t i = 0; i < lo->n_orders; i++) {
        assert_int_equal(next_legal->orders[i].len, lo->orders[i].len);
        assert_memory_equal(next_legal->orders[i].data, lo->orders[i].data, lo->orders[i].len);
    }
    if (g->texts) {
        assert_int_equal(next_legal->n_texts, lo->n_texts);
        for (size_t i = 0; i < lo->n_texts; i++) assert_string_equal(next_legal->texts[i], lo->texts[i]);
    } else {
        assert_int_equal(next_legal->n_texts, 0);
    }
    s_check_view(g, seat, next_view);
    g->checked++;
}

/* Play a whole game: seat 0 old-style, seat 1 with Want. Which seat moves first in
 * a step alternates, so that each is sometimes first to a sealed decision. */
static void s_play_mixed(s_game *g, uint64_t rng, int parity, int max_steps) {
    unsigned flags = BRT_WANT_LEGAL | (g->texts ? BRT_WANT_TEXTS : 0) | (g->view ? BRT_WANT_VIEW : 0);
    const Berthier__V1__Joined *j = NULL;
    assert_int_equal(brt_client_join(g->seat[0], g->id, 0, &j), 0);
    assert_null(brt_client_next(g->seat[0]));   /* no Want: the old reply */
    brt_client_set_want(g->seat[1], flags, 0);
    assert_int_equal(brt_client_join(g->seat[1], g->id, 1, &j), 0);
    s_check_padded(g, g->seat[1]);
    Berthier__V1__Decision *held = s_copy_decision(brt_client_next(g->seat[1]));
    Berthier__V1__LegalOrders *held_l =
        brt_client_next_legal(g->seat[1]) ? s_copy_legal(brt_client_next_legal(g->seat[1])) : NULL;
    Berthier__V1__StateView *held_v = s_copy_view(brt_client_next_view(g->seat[1]));
    s_check_next(g, 1, held, held_l, held_v);
    int ended = 0;
    int step;
    for (step = 0; step < max_steps && !ended; step++) {
        for (int k = 0; k < 2 && !ended; k++) {
            unsigned s = (unsigned)((step + k + parity) & 1);
            brt_client *c = g->seat[s];
            if (s == 0) {
                const Berthier__V1__Decision *d = NULL;
                assert_int_equal(brt_client_pending(c, g->id, 0, &d), 0);
                if (d->result && d->result->ended) {
                    ended = 1;
                    break;
                }
                if (!d->you_must_act) continue;
                uint64_t seq = d->seq;
                const Berthier__V1__LegalOrders *lo = NULL;
                assert_int_equal(brt_client_legal(c, g->id, 0, 0, &lo), 0);
                assert_true(lo->n_orders > 0);
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                size_t i = (size_t)(rng >> 33) % lo->n_orders;
                uint8_t order[4096];
                size_t len = lo->orders[i].len;
                assert_true(len <= sizeof order);
                memcpy(order, lo->orders[i].data, len);
                assert_int_equal(brt_client_submit(c, g->id, 0, seq, order, len, NULL), 0);
                assert_null(brt_client_next(c));
                assert_null(brt_client_next_legal(c));
                assert_null(brt_client_next_view(c));
                continue;
            }
            if (!held) {
                /* pending with Want.legal: the body is the decision, next_legal its orders */
                assert_int_equal(brt_client_pending(c, g->id, 1, NULL), 0);
                s_check_padded(g, c);
                assert_null(brt_client_reply(c)->next);
                held = s_copy_decision(brt_client_next(c));
                held_l = brt_client_next_legal(c) ? s_copy_legal(brt_client_next_legal(c)) : NULL;
                held_v = s_copy_view(brt_client_next_view(c));
                s_check_next(g, 1, held, held_l, held_v);
            }
            if (held->result && held->result->ended) {
                ended = 1;
                break;
            }
            if (!held->you_must_act || !held_l) {
                berthier__v1__decision__free_unpacked(held, NULL);
                if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
                s_free_view(&held_v);
                held = NULL;
                held_l = NULL;
                continue;
            }
            assert_true(held_l->n_orders > 0);
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            size_t i = (size_t)(rng >> 33) % held_l->n_orders;
            int rc = brt_client_submit(c, g->id, 1, held->seq, held_l->orders[i].data, held_l->orders[i].len, NULL);
            if (rc != 0) fail_msg("seat 1: %s", brt_client_error(c));
            s_check_padded(g, c);
            berthier__v1__decision__free_unpacked(held, NULL);
            if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
            s_free_view(&held_v);
            held = s_copy_decision(brt_client_next(c));
            held_l = brt_client_next_legal(c) ? s_copy_legal(brt_client_next_legal(c)) : NULL;
            held_v = s_copy_view(brt_client_next_view(c));
            s_check_next(g, 1, held, held_l, held_v);
        }
    }
    assert_true(ended || max_steps < 4000);
    if (held) berthier__v1__decision__free_unpacked(held, NULL);
    if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
    s_free_view(&held_v);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_mixed_duel(void **state) {
    (void)state;
    unsigned checked = 0, not_ours = 0, sealed = 0, padded = 0;
    for (int k = 0; k < 4; k++) {   /* either seat first to the bids */
        s_game g;
        s_new_game(&g, "duel", "standard");
        g.texts = 1;
        s_play_mixed(&g, 7 + (uint64_t)k, k & 1, 4000);
        checked += g.checked;
        not_ours += g.not_ours;
        sealed += g.sealed_seen;
        padded += g.padded;
        s_free_game(&g);
    }
    fprintf(stderr, "duel: %u next_legal checked, %u decisions not ours (%u sealed, chosen), %u padded\n", checked,
            not_ours, sealed, padded);
    assert_true(checked > 5);
    assert_true(not_ours > 0);
    assert_true(sealed > 0);   /* a sealed bid made, the other seat's still to come: no orders */
}

static void test_mixed_n20(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "n20", "waterloo20-standard");
    s_play_mixed(&g, 11, 0, 4000);
    fprintf(stderr, "n20: %u next_legal checked, %u decisions not ours, %u padded\n", g.checked, g.not_ours,
            g.padded);
    assert_true(g.checked > 10);
    assert_true(g.not_ours > 5);   /* the other seat's turn: never listed */
    s_free_game(&g);
}

/* Waterloo: Enemy Mistakes opens with sealed Initiative bids: the seat that bid first is
 * told it waits, with no legal orders, exactly as pending tells it (the first 300 steps). */
static void test_mixed_wem_sealed(void **state) {
    (void)state;
    unsigned sealed = 0, checked = 0;
    for (int k = 0; k < 2; k++) {
        s_game g;
        s_new_game(&g, "wem", "short");
        s_play_mixed(&g, 21 + (uint64_t)k, k & 1, 300);
        sealed += g.sealed_seen;
        checked += g.checked;
        s_free_game(&g);
    }
    fprintf(stderr, "wem: %u next_legal checked, %u sealed decisions chosen and waiting\n", checked, sealed);
    assert_true(checked > 10);
    assert_true(sealed > 0);
}

/* Want.view: the View comes with every decision the seat must act on, as `state`
 * answers it. In Waterloo 20 the seats' views may be alike; the View hash is the seat's. */
static void test_view_n20(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "n20", "waterloo20-standard");
    g.view = 1;
    s_play_mixed(&g, 31, 1, 4000);
    fprintf(stderr, "n20: %u next_view checked, %u decisions not ours\n", g.views, g.not_ours);
    assert_true(g.views > 10);
    assert_int_equal(g.views, g.checked);
    assert_true(g.not_ours > 5);
    s_free_game(&g);
}

/* wnlb's hidden hands: a seat's next_view is its own, never the other seat's. */
static void test_view_wnlb(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "wnlb", "short");
    g.view = 1;
    s_play_mixed(&g, 41, 0, 300);
    fprintf(stderr, "wnlb: %u next_view checked, %u unlike the other seat's View, %u not ours\n", g.views,
            g.views_differ, g.not_ours);
    assert_true(g.views > 10);
    assert_true(g.views_differ > 0);
    s_free_game(&g);
}

/* wem's sealed Initiative bids: the seat that bid first waits, with no View in the reply;
 * the seat that must bid gets its own View, not the other's. */
static void test_view_wem_sealed(void **state) {
    (void)state;
    unsigned sealed = 0, views = 0, differ = 0;
    for (int k = 0; k < 2; k++) {
        s_game g;
        s_new_game(&g, "wem", "short");
        g.view = 1;
        s_play_mixed(&g, 51 + (uint64_t)k, k & 1, 300);
        sealed += g.sealed_seen;
        views += g.views;
        differ += g.views_differ;
        s_free_game(&g);
    }
    fprintf(stderr, "wem: %u next_view checked (%u unlike the other seat's), %u sealed and waiting\n", views,
            differ, sealed);
    assert_true(views > 10);
    assert_true(sealed > 0);
}

/* Legal orders are a seat's: an admin's pending with Want.legal gets the decision alone. */
static void test_admin_pending_no_legal(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "duel", "standard");
    for (unsigned s = 0; s < 2; s++) assert_int_equal(brt_client_join(g.seat[s], g.id, s, NULL), 0);
    brt_client *admin = s_admin();
    brt_client_set_want(admin, BRT_WANT_DECISION | BRT_WANT_LEGAL | BRT_WANT_TEXTS, 0);
    const Berthier__V1__Decision *d = NULL;
    assert_int_equal(brt_client_pending(admin, g.id, 0, &d), 0);
    assert_true(d->started);
    assert_non_null(brt_client_next(admin));   /* the body */
    assert_null(brt_client_next_legal(admin));
    assert_null(brt_client_reply(admin)->next);
    brt_client_destroy(&admin);
    /* the seat itself gets them */
    brt_client_set_want(g.seat[0], BRT_WANT_LEGAL, 0);
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_non_null(brt_client_next_legal(g.seat[0]));
    s_free_game(&g);
}

/* The ruling on retries (P4.3): the same bytes while the retry table has them; after
 * a restart the same acknowledgement, with next as of the retry. */
static void test_retry(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "duel", "standard");
    for (unsigned s = 0; s < 2; s++) assert_int_equal(brt_client_join(g.seat[s], g.id, s, NULL), 0);
    const Berthier__V1__Decision *d = NULL;
    assert_int_equal(brt_client_pending(g.seat[1], g.id, 1, &d), 0);
    uint64_t seq = d->seq;
    brt_client_set_want(g.seat[1], BRT_WANT_DECISION | BRT_WANT_LEGAL, 0);
    assert_int_equal(brt_client_submit_text(g.seat[1], g.id, 1, seq, "bid 1", NULL), 0);
    assert_non_null(brt_client_next(g.seat[1]));
    assert_false(brt_client_next(g.seat[1])->you_must_act);   /* sealed: chosen, the other seat still to bid */
    size_t rlen, reqlen;
    const uint8_t *req0 = brt_client_last_request(g.seat[1], &reqlen);
    uint8_t *req = malloc(reqlen);
    memcpy(req, req0, reqlen);
    uint64_t rid = brt_client_last_request_id(g.seat[1]);
    rlen = berthier__v1__reply__get_packed_size(brt_client_reply(g.seat[1]));
    uint8_t *first = malloc(rlen);
    berthier__v1__reply__pack(brt_client_reply(g.seat[1]), first);
    size_t alen = berthier__v1__accepted__get_packed_size(brt_client_reply(g.seat[1])->accepted);
    uint8_t *abytes = malloc(alen);
    berthier__v1__accepted__pack(brt_client_reply(g.seat[1])->accepted, abytes);

    /* live: the same bytes */
    assert_int_equal(brt_client_call_raw(g.seat[1], req, reqlen, rid), 0);
    size_t n2 = berthier__v1__reply__get_packed_size(brt_client_reply(g.seat[1]));
    uint8_t *again = malloc(n2);
    berthier__v1__reply__pack(brt_client_reply(g.seat[1]), again);
    assert_int_equal(n2, rlen);
    assert_memory_equal(again, first, rlen);
    free(again);

    /* the other seat bids: the round resolves */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq, "bid 2", NULL), 0);

    /* after kill -9 and a restart: the same acknowledgement, next as of now */
    s_kill_daemon(SIGKILL);
    assert_int_equal(s_start_daemon(), 0);
    brt_client_set_timeout(g.seat[1], 500, 20000);
    assert_int_equal(brt_client_call_raw(g.seat[1], req, reqlen, rid), 0);
    const Berthier__V1__Reply *r = brt_client_reply(g.seat[1]);
    assert_int_equal(r->body_case, BERTHIER__V1__REPLY__BODY_ACCEPTED);
    size_t alen2 = berthier__v1__accepted__get_packed_size(r->accepted);
    uint8_t *abytes2 = malloc(alen2);
    berthier__v1__accepted__pack(r->accepted, abytes2);
    assert_int_equal(alen2, alen);
    assert_memory_equal(abytes2, abytes, alen);
    assert_non_null(r->next);
    assert_true(r->next->seq > seq);   /* the decision as of the retry, not of the first reply */
    s_check_padded(&g, g.seat[1]);
    Berthier__V1__Decision *nx = s_copy_decision(r->next);
    Berthier__V1__LegalOrders *nl = r->next_legal ? s_copy_legal(r->next_legal) : NULL;
    g.texts = 0;
    s_check_next(&g, 1, nx, nl, r->next_view);
    berthier__v1__decision__free_unpacked(nx, NULL);
    if (nl) berthier__v1__legal_orders__free_unpacked(nl, NULL);
    /* a rejected input carries no next */
    assert_int_equal(brt_client_submit_text(g.seat[1], g.id, 1, seq, "bid 1", NULL), -1);
    assert_null(brt_client_next(g.seat[1]));
    assert_null(brt_client_reply(g.seat[1])->next);
    free(abytes);
    free(abytes2);
    free(first);
    free(req);
    s_free_game(&g);
}

/* Want where it means nothing or from a key that may not have it (P4.3): a spectator,
 * a seat of another game, a join before the start, Want.texts / limit alone, a view
 * without legal, limit 1, a rejected input, a retry with another Want under the same
 * request id, a decision after the end. Never a next_legal or next_view that `legal` /
 * `state` would not give the same key; every rejection names its rule. */
/* The last call was refused with a rule named. */
static void s_assert_rule(brt_client *c) {
    if (!brt_client_rule(c)[0]) fail_msg("a rejection without its rule: %s", brt_client_error(c));
}

static void test_want_hostile(void **state) {
    (void)state;
    brt_keypair spk;
    assert_int_equal(brt_keypair_generate(&spk), 0);
    s_game g;
    memset(&g, 0, sizeof g);
    const char *pubs[2], *specs[1] = {spk.public_z85};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(brt_keypair_generate(&g.kp[i]), 0);
        pubs[i] = g.kp[i].public_z85;
    }
    brt_client *admin = s_admin();
    brt_game_spec spec = {"duel", "standard", NULL, 0, pubs, 2, 0, 0, 0, specs, 1};
    assert_int_equal(brt_client_create(admin, &spec, g.id, NULL), 0);
    for (int i = 0; i < 2; i++) {
        g.seat[i] = s_client(&g.kp[i]);
        g.probe[i] = s_client(&g.kp[i]);
    }
    unsigned all = BRT_WANT_DECISION | BRT_WANT_LEGAL | BRT_WANT_TEXTS | BRT_WANT_VIEW;
    /* a join before the start: the decision (nobody acts yet), nothing more */
    brt_client_set_want(g.seat[0], all, 0);
    assert_int_equal(brt_client_join(g.seat[0], g.id, 0, NULL), 0);
    assert_non_null(brt_client_next(g.seat[0]));
    assert_false(brt_client_next(g.seat[0])->started);
    assert_false(brt_client_next(g.seat[0])->you_must_act);
    assert_null(brt_client_next_legal(g.seat[0]));
    assert_null(brt_client_next_view(g.seat[0]));
    /* pending before the start */
    const Berthier__V1__Decision *d = NULL;
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_null(brt_client_next_legal(g.seat[0]));
    assert_null(brt_client_next_view(g.seat[0]));
    assert_int_equal(brt_client_join(g.seat[1], g.id, 1, NULL), 0);

    /* a spectator's pending with every Want: the decision, no legal orders, no View */
    brt_client *spc = s_client(&spk);
    brt_client_set_want(spc, all, 0);
    assert_int_equal(brt_client_pending(spc, g.id, 0, &d), 0);
    assert_true(d->started);
    assert_null(brt_client_reply(spc)->next);
    assert_null(brt_client_reply(spc)->next_legal);
    assert_null(brt_client_reply(spc)->next_view);
    /* ... nor as a seat it does not hold: refused, with its rule */
    Berthier__V1__Want w = BERTHIER__V1__WANT__INIT;
    w.decision = w.legal = w.texts = w.view = 1;
    Berthier__V1__Submit sb = BERTHIER__V1__SUBMIT__INIT;
    sb.game_id = g.id;
    sb.based_on_seq = d->seq;
    sb.order_text = (char *)"bid 1";
    sb.want = &w;
    Berthier__V1__Request rs = BERTHIER__V1__REQUEST__INIT;
    rs.body_case = BERTHIER__V1__REQUEST__BODY_SUBMIT;
    rs.submit = &sb;
    assert_int_equal(brt_client_call(spc, &rs), -1);   /* refused by the daemon */
    assert_int_equal(brt_client_code(spc), BERTHIER__V1__CODE__CODE_UNAUTHORIZED);
    assert_non_null(brt_client_reply(spc));
    assert_null(brt_client_reply(spc)->next);
    assert_null(brt_client_reply(spc)->next_legal);
    assert_string_equal(brt_client_rule(spc), "P3");

    /* a seat of another game */
    s_game o;
    s_new_game(&o, "duel", "standard");
    brt_client_set_want(o.seat[0], all, 0);
    assert_int_equal(brt_client_pending(o.seat[0], g.id, 0, &d), -1);
    assert_null(brt_client_reply(o.seat[0])->next_legal);
    assert_string_equal(brt_client_rule(o.seat[0]), "P3");
    s_free_game(&o);

    /* Want.texts and limit alone: the old reply */
    assert_int_equal(brt_client_pending(g.probe[0], g.id, 0, &d), 0);
    uint64_t seq = d->seq;
    const Berthier__V1__LegalOrders *lo = NULL;
    assert_int_equal(brt_client_legal(g.probe[0], g.id, 0, 0, &lo), 0);
    size_t nlegal = lo->n_orders;
    assert_true(nlegal > 1);
    {
        /* (the library sends no Want for these: built by hand) */
        Berthier__V1__Want tw = BERTHIER__V1__WANT__INIT;
        tw.texts = 1;
        tw.limit = 1;
        Berthier__V1__GameRef gr = BERTHIER__V1__GAME_REF__INIT;
        gr.game_id = g.id;
        gr.want = &tw;
        Berthier__V1__Request rp = BERTHIER__V1__REQUEST__INIT;
        rp.body_case = BERTHIER__V1__REQUEST__BODY_PENDING;
        rp.pending = &gr;
        brt_client_set_want(g.seat[0], 0, 0);
        assert_int_equal(brt_client_call(g.seat[0], &rp), 0);
        const Berthier__V1__Reply *tr = brt_client_reply(g.seat[0]);
        assert_int_equal(tr->body_case, BERTHIER__V1__REPLY__BODY_DECISION);
        assert_null(tr->next);
        assert_null(tr->next_legal);
        assert_null(tr->next_view);
    }
    /* a View without legal orders */
    brt_client_set_want(g.seat[0], BRT_WANT_VIEW, 0);
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_non_null(brt_client_next_view(g.seat[0]));
    assert_null(brt_client_next_legal(g.seat[0]));
    /* limit 1: one order, cut */
    brt_client_set_want(g.seat[0], BRT_WANT_LEGAL, 1);
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_non_null(brt_client_next_legal(g.seat[0]));
    assert_int_equal(brt_client_next_legal(g.seat[0])->n_orders, 1);
    assert_int_equal(brt_client_next_legal(g.seat[0])->n_texts, 0);
    assert_true(brt_client_next_legal(g.seat[0])->truncated);
    /* limit past every order: all, not cut */
    brt_client_set_want(g.seat[0], BRT_WANT_LEGAL | BRT_WANT_TEXTS, 0xffffffffu);
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_int_equal(brt_client_next_legal(g.seat[0])->n_orders, nlegal);
    assert_int_equal(brt_client_next_legal(g.seat[0])->n_texts, nlegal);
    assert_false(brt_client_next_legal(g.seat[0])->truncated);
    s_check_padded(&g, g.seat[0]);

    /* a rejected input with a Want: no next, the rule named, the log untouched */
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq, "bid -7", NULL), -1);
    assert_null(brt_client_reply(g.seat[0])->next);
    assert_null(brt_client_reply(g.seat[0])->next_legal);
    s_assert_rule(g.seat[0]);
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq + 5, "bid 1", NULL), -1);
    assert_null(brt_client_reply(g.seat[0])->next);
    s_assert_rule(g.seat[0]);
    assert_int_equal(brt_client_pending(g.probe[0], g.id, 0, &d), 0);
    assert_int_equal(d->seq, seq);

    /* the same request id with another Want: refused, nothing applied twice */
    brt_client_set_want(g.seat[0], BRT_WANT_DECISION, 0);
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, seq, "bid 1", NULL), 0);
    size_t reqlen;
    const uint8_t *req0 = brt_client_last_request(g.seat[0], &reqlen);
    uint64_t rid = brt_client_last_request_id(g.seat[0]);
    Berthier__V1__Request *rq = berthier__v1__request__unpack(NULL, reqlen, req0);
    assert_non_null(rq);
    assert_int_equal(rq->body_case, BERTHIER__V1__REQUEST__BODY_SUBMIT);
    assert_non_null(rq->submit->want);
    rq->submit->want->legal = 1;
    rq->submit->want->view = 1;
    size_t n2 = berthier__v1__request__get_packed_size(rq);
    uint8_t *req2 = malloc(n2);
    assert_non_null(req2);
    berthier__v1__request__pack(rq, req2);
    berthier__v1__request__free_unpacked(rq, NULL);
    assert_int_equal(brt_client_call_raw(g.seat[0], req2, n2, rid), -1);
    assert_int_equal(brt_client_code(g.seat[0]), BERTHIER__V1__CODE__CODE_REQUEST_ID_REUSED);
    assert_null(brt_client_reply(g.seat[0])->next);
    assert_null(brt_client_reply(g.seat[0])->next_legal);
    s_assert_rule(g.seat[0]);
    free(req2);

    /* after the end: a resign with every Want gets the final decision, nothing to act on */
    brt_client_set_want(g.seat[1], all, 0);
    assert_int_equal(brt_client_resign(g.seat[1], g.id, 1), 0);
    assert_non_null(brt_client_next(g.seat[1]));
    assert_false(brt_client_next(g.seat[1])->you_must_act);
    assert_null(brt_client_next_legal(g.seat[1]));
    assert_null(brt_client_next_view(g.seat[1]));
    brt_client_set_want(g.seat[0], all, 0);
    assert_int_equal(brt_client_pending(g.seat[0], g.id, 0, &d), 0);
    assert_false(d->you_must_act);
    assert_null(brt_client_next_legal(g.seat[0]));
    assert_null(brt_client_next_view(g.seat[0]));
    assert_int_equal(brt_client_submit_text(g.seat[0], g.id, 0, d->seq, "bid 1", NULL), -1);
    assert_null(brt_client_reply(g.seat[0])->next);
    s_assert_rule(g.seat[0]);
    brt_client_destroy(&spc);
    brt_client_destroy(&admin);
    s_free_game(&g);
}

/* The least max-message (1024): every reply with Want stays within it, however long the
 * seat's View and legal orders (Waterloo 20: a View of kilobytes, dozens of orders): the
 * View is left out, the orders cut (truncated), the reply still padded. */
static void test_want_small_max_message(void **state) {
    (void)state;
    s_kill_daemon(SIGTERM);
    s_max_message = "1024";
    assert_int_equal(s_start_daemon(), 0);
    s_game g;
    s_new_game(&g, "n20", "waterloo20-standard");
    unsigned all = BRT_WANT_DECISION | BRT_WANT_LEGAL | BRT_WANT_TEXTS | BRT_WANT_VIEW;
    for (unsigned s = 0; s < 2; s++) {
        brt_client_set_want(g.seat[s], all, 0);
        assert_int_equal(brt_client_join(g.seat[s], g.id, s, NULL), 0);
        size_t n = berthier__v1__reply__get_packed_size(brt_client_reply(g.seat[s]));
        if (n > 1024) fail_msg("a joined reply of %zu bytes past max-message 1024", n);
    }
    unsigned cut = 0, acted = 0;
    for (int step = 0; step < 40; step++) {
        for (unsigned s = 0; s < 2; s++) {
            const Berthier__V1__Decision *d = NULL;
            assert_int_equal(brt_client_pending(g.seat[s], g.id, s, &d), 0);
            size_t n = berthier__v1__reply__get_packed_size(brt_client_reply(g.seat[s]));
            if (n > 1024) fail_msg("a pending reply of %zu bytes past max-message 1024", n);
            s_check_padded(&g, g.seat[s]);
            if (!d->you_must_act) continue;
            const Berthier__V1__LegalOrders *nl = brt_client_next_legal(g.seat[s]);
            assert_non_null(nl);
            assert_int_equal(nl->n_texts, nl->n_orders);
            if (nl->truncated) cut++;
            if (nl->n_orders == 0) continue;
            uint8_t order[4096];
            size_t len = nl->orders[0].len;
            assert_true(len <= sizeof order);
            memcpy(order, nl->orders[0].data, len);
            uint64_t seq = d->seq;
            int rc = brt_client_submit(g.seat[s], g.id, s, seq, order, len, NULL);
            if (rc != 0) fail_msg("seat %u: %s", s, brt_client_error(g.seat[s]));
            acted++;
            const Berthier__V1__Reply *r = brt_client_reply(g.seat[s]);
            n = berthier__v1__reply__get_packed_size(r);
            /* an Accepted reply is as long as its events; what Want adds must fit beside it */
            if (n > 1024 && (r->next_legal && r->next_legal->n_orders > 0))
                fail_msg("an accepted reply of %zu bytes past max-message 1024 with %zu legal orders", n,
                         r->next_legal->n_orders);
            if (n > 1024 && r->next_view) fail_msg("an accepted reply of %zu bytes with its View", n);
        }
    }
    fprintf(stderr, "max-message 1024: %u orders, %u legal lists cut\n", acted, cut);
    assert_true(acted > 5);
    assert_true(cut > 0);
    s_free_game(&g);
    s_kill_daemon(SIGTERM);
    s_max_message = NULL;
    assert_int_equal(s_start_daemon(), 0);
}

/* The last "served: N legal orders formatted" line of the daemon's log. */
static long long s_formatted(void) {
    char p[256], line[1024];
    snprintf(p, sizeof p, "%s/daemon.log", s_dir);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    long long n = -1;
    while (fgets(line, sizeof line, f)) {
        const char *s = strstr(line, "served: ");
        long long v;
        if (s && sscanf(s, "served: %lld legal orders formatted", &v) == 1) n = v;
    }
    fclose(f);
    return n;
}

/* No text on the hot path: each listed order of a decision is formatted at most once,
 * however often `legal` asks; next_legal without texts formats none. */
static void test_legal_texts_cached(void **state) {
    (void)state;
    s_game g;
    s_new_game(&g, "n20", "waterloo20-standard");
    for (unsigned s = 0; s < 2; s++) assert_int_equal(brt_client_join(g.seat[s], g.id, s, NULL), 0);
    unsigned who = 0;
    const Berthier__V1__Decision *d = NULL;
    for (who = 0; who < 2; who++) {
        assert_int_equal(brt_client_pending(g.seat[who], g.id, who, &d), 0);
        if (d->you_must_act) break;
    }
    assert_true(who < 2);
    /* a fresh run, so that the count is this test's alone */
    s_kill_daemon(SIGTERM);
    assert_int_equal(s_start_daemon(), 0);
    for (unsigned s = 0; s < 2; s++) brt_client_set_timeout(g.seat[s], 500, 20000);
    brt_client_set_want(g.seat[who], BRT_WANT_LEGAL, 0);
    assert_int_equal(brt_client_pending(g.seat[who], g.id, who, NULL), 0);
    assert_non_null(brt_client_next_legal(g.seat[who]));
    size_t n = brt_client_next_legal(g.seat[who])->n_orders;
    assert_true(n > 1);
    assert_int_equal(brt_client_next_legal(g.seat[who])->n_texts, 0);
    const Berthier__V1__LegalOrders *lo = NULL;
    char first[256];
    for (int k = 0; k < 3; k++) {
        assert_int_equal(brt_client_legal(g.seat[who], g.id, who, 0, &lo), 0);
        assert_int_equal(lo->n_orders, n);
        assert_int_equal(lo->n_texts, n);
        if (k == 0) snprintf(first, sizeof first, "%s", lo->texts[0]);
        else assert_string_equal(lo->texts[0], first);   /* texts exactly as before */
    }
    assert_int_equal(brt_client_legal(g.seat[who], g.id, who, 2, &lo), 0);
    assert_int_equal(lo->n_orders, 2);
    assert_true(lo->truncated);
    /* Want.limit, with texts (formatted already: the cache gives them) */
    brt_client_set_want(g.seat[who], BRT_WANT_LEGAL | BRT_WANT_TEXTS, 3);
    assert_int_equal(brt_client_pending(g.seat[who], g.id, who, NULL), 0);
    const Berthier__V1__LegalOrders *nl = brt_client_next_legal(g.seat[who]);
    assert_non_null(nl);
    assert_int_equal(nl->n_orders, 3);
    assert_int_equal(nl->n_texts, 3);
    assert_true(nl->truncated);
    assert_string_equal(nl->texts[0], first);
    s_kill_daemon(SIGTERM);
    long long f = s_formatted();
    fprintf(stderr, "%zu legal orders, 4 legal requests and 2 pending with Want.legal: %lld formatted\n", n, f);
    assert_int_equal(f, (long long)n);
    assert_int_equal(s_start_daemon(), 0);
    s_free_game(&g);
}

/* berthier-bot's loop, one seat old-style and the other new-style: requests per order. */
typedef struct {
    bot_params p;
    bot_outcome out;
    int rc;
} s_run;

static void *s_bot_thread(void *arg) {
    s_run *r = arg;
    r->rc = bot_play(&r->p, &r->out);
    return NULL;
}

static void s_requests_per_order(const char *ruleset, const char *scenario, const char *policy, double *old_out,
                                 double *now_out) {
    s_game g;
    s_new_game(&g, ruleset, scenario);
    s_run runs[2];
    pthread_t th[2];
    for (unsigned s = 0; s < 2; s++) {
        memset(&runs[s], 0, sizeof runs[s]);
        runs[s].p.client = g.seat[s];
        runs[s].p.game_id = g.id;
        runs[s].p.ruleset = ruleset;
        runs[s].p.scenario = scenario;
        runs[s].p.seat = s;
        runs[s].p.n_seats = 2;
        runs[s].p.policy = policy;
        runs[s].p.seed = 100 + s;
        runs[s].p.receipts = "-";
        runs[s].p.old_protocol = s == 0;
        assert_int_equal(pthread_create(&th[s], NULL, s_bot_thread, &runs[s]), 0);
    }
    for (unsigned s = 0; s < 2; s++) pthread_join(th[s], NULL);
    for (unsigned s = 0; s < 2; s++) {
        if (runs[s].rc != 0) fail_msg("seat %u: %s", s, runs[s].out.error);
        assert_true(runs[s].out.finished);
        assert_true(runs[s].out.orders > 0);
    }
    double old = (double)runs[0].out.requests / runs[0].out.orders;
    double now = (double)runs[1].out.requests / runs[1].out.orders;
    if (old_out) *old_out = old;
    if (now_out) *now_out = now;
    fprintf(stderr, "%s, %s: old-style %u requests for %u orders (%.2f each), new-style %u for %u (%.2f each)\n", ruleset, policy,
            runs[0].out.requests, runs[0].out.orders, old, runs[1].out.requests, runs[1].out.orders, now);
    assert_true(old >= 3.0);   /* pending, legal, submit at least */
    assert_true(now < old);
    s_free_game(&g);
}

static void test_bot_requests_duel(void **state) {
    (void)state;
    s_requests_per_order("duel", "standard", "random", NULL, NULL);
}

static void test_bot_requests_n20(void **state) {
    (void)state;
    s_requests_per_order("n20", "waterloo20-standard", "random", NULL, NULL);
}

/* The greedy policy reads the seat's View: old-style it asks `state` for each decision
 * (pending, legal, state, submit), new-style the View comes in the reply to its order. */
static void test_bot_requests_n20_greedy(void **state) {
    (void)state;
    double old = 0, now = 0;
    s_requests_per_order("n20", "waterloo20-standard", "greedy", &old, &now);
    assert_true(old >= 4.0);
    assert_true(now <= 1.6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_duel),         cmocka_unit_test(test_mixed_n20),
        cmocka_unit_test(test_mixed_wem_sealed),   cmocka_unit_test(test_admin_pending_no_legal),
        cmocka_unit_test(test_retry),              cmocka_unit_test(test_legal_texts_cached),
        cmocka_unit_test(test_want_hostile),       cmocka_unit_test(test_want_small_max_message),
        cmocka_unit_test(test_bot_requests_duel),  cmocka_unit_test(test_bot_requests_n20),
        cmocka_unit_test(test_view_n20),           cmocka_unit_test(test_view_wnlb),
        cmocka_unit_test(test_view_wem_sealed),    cmocka_unit_test(test_bot_requests_n20_greedy),
    };
    /* BERTHIER_TEST_FILTER=test_want_hostile: one test alone (a cmocka pattern) */
    if (getenv("BERTHIER_TEST_FILTER")) cmocka_set_test_filter(getenv("BERTHIER_TEST_FILTER"));
    return cmocka_run_group_tests(tests, s_group_setup, s_group_teardown);
}
