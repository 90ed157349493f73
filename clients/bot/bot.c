/*
 * bot.c - the play loop of one seat (see bot.h).
 */
#include "bot.h"

#define S_CHAIN_LENGTH 16384 /* dice batches a seat can reveal for */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t s_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void s_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void bot_result_line_named(const Berthier__V1__Result *r, const char *const *names, size_t n_names,
                           char *out, size_t len) {
    if (!r || !r->ended) {
        snprintf(out, len, "not ended");
        return;
    }
    char who[160] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->n_winners && used < sizeof who - 40; i++) {
        uint32_t w = r->winners[i];
        if (names && w < n_names && names[w] && *names[w])
            used += (size_t)snprintf(who + used, sizeof who - used, "%s%u (%.24s)", i ? "+" : "", w,
                                     names[w]);
        else
            used += (size_t)snprintf(who + used, sizeof who - used, "%s%u", i ? "+" : "", w);
    }
    const char *level = r->level && *r->level ? r->level : "";
    const char *reason = r->reason && *r->reason ? r->reason : "";
    if (r->n_winners == 0 && strcmp(level, "draw") == 0) level = "";
    if (r->n_winners == 0)
        snprintf(out, len, "draw%s%s%s", *level ? " (" : "", level, *level ? ")" : "");
    else
        snprintf(out, len, "seat %s wins%s%s%s", who, *level ? " (" : "", level, *level ? ")" : "");
    if (*reason) {
        size_t n = strlen(out);
        if (n < len) snprintf(out + n, len - n, ": %s", reason);
    }
}

void bot_result_line(const Berthier__V1__Result *r, char *out, size_t len) {
    bot_result_line_named(r, NULL, 0, out, len);
}

typedef struct s_loop {
    const bot_params *p;
    uint64_t seq;     /* the decision the policy is working on */
    bot_outcome *out; /* its request count */
} s_loop;

static int s_stopped(const bot_params *p);

static int s_still_current(void *ctx) {
    s_loop *l = ctx;
    if (s_stopped(l->p)) return 0; /* stop: abandon the decision */
    const Berthier__V1__Decision *d = NULL;
    brt_client_set_want(l->p->client, 0, 0);
    l->out->requests++;
    if (brt_client_pending(l->p->client, l->p->game_id, l->p->seat, &d) != 0)
        return brt_client_code(l->p->client) == BRT_CLIENT_NO_REPLY; /* keep waiting */
    if (d->result && d->result->ended) return 0;
    return d->seq == l->seq && d->you_must_act;
}

static void s_fill_result(bot_outcome *out, const Berthier__V1__Result *r) {
    out->finished = 1;
    out->winners = 0;
    for (size_t i = 0; i < r->n_winners; i++)
        if (r->winners[i] < 32) out->winners |= 1u << r->winners[i];
    snprintf(out->level, sizeof out->level, "%s", r->level ? r->level : "");
    snprintf(out->reason, sizeof out->reason, "%s", r->reason ? r->reason : "");
}

static Berthier__V1__Decision *s_copy_decision(const Berthier__V1__Decision *d) {
    size_t n = berthier__v1__decision__get_packed_size(d);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return NULL;
    berthier__v1__decision__pack(d, buf);
    Berthier__V1__Decision *copy = berthier__v1__decision__unpack(NULL, n, buf);
    free(buf);
    return copy;
}

static Berthier__V1__LegalOrders *s_copy_legal(const Berthier__V1__LegalOrders *lo) {
    size_t n = berthier__v1__legal_orders__get_packed_size(lo);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return NULL;
    berthier__v1__legal_orders__pack(lo, buf);
    Berthier__V1__LegalOrders *copy = berthier__v1__legal_orders__unpack(NULL, n, buf);
    free(buf);
    return copy;
}

/* The seat's View a reply carried (Reply.next_view, P4.3), for the decision at seq. */
typedef struct s_held_view {
    uint8_t *data;
    size_t len;
    uint64_t seq;
    int have;
} s_held_view;

static void s_held_view_clear(s_held_view *v) {
    free(v->data);
    memset(v, 0, sizeof *v);
}

/* Copy the last reply's next_view into v (cleared when the reply has none). */
static void s_held_view_take(s_held_view *v, brt_client *c) {
    s_held_view_clear(v);
    const Berthier__V1__StateView *sv = brt_client_next_view(c);
    if (!sv) return;
    if (sv->view.len && !(v->data = malloc(sv->view.len))) return;
    if (sv->view.len) memcpy(v->data, sv->view.data, sv->view.len);
    v->len = sv->view.len;
    v->seq = sv->seq;
    v->have = 1;
}

/* The decision, legal orders and view the last reply carried (P4.3), copied: the
 * next call frees the reply. */
static void s_take_next(brt_client *c, Berthier__V1__Decision **d, Berthier__V1__LegalOrders **lo,
                        s_held_view *v) {
    const Berthier__V1__Decision *nd = brt_client_next(c);
    const Berthier__V1__LegalOrders *nl = brt_client_next_legal(c);
    *d = nd ? s_copy_decision(nd) : NULL;
    *lo = nd && nl && *d ? s_copy_legal(nl) : NULL;
    if (*d) s_held_view_take(v, c);
    else s_held_view_clear(v);
}

static int s_stopped(const bot_params *p) { return p->stop && atomic_load(p->stop); }

/* Keep the last call's receipt, if it gave one (bot_params.receipts). */
static void s_keep_receipt(const bot_params *p, brt_client *c, bot_outcome *out) {
    if (p->receipts && strcmp(p->receipts, "-") == 0) return;
    char path[4096];
    const char *where = p->receipts;
    if (!where) {
        if (brt_receipts_default_path(p->game_id, path, sizeof path) != 0) return;
        where = path;
    }
    if (brt_client_save_receipt(c, where) < 0 && !out->error[0])
        snprintf(out->error, sizeof out->error, "cannot append a receipt to %.400s", where);
}

/* The events a seat may see since the last fetch (bot_view.events). */
typedef struct s_events {
    Berthier__V1__Event **items;
    size_t n, cap;
    uint64_t since; /* the events request's seq reached so far */
} s_events;

#define S_MAX_EVENTS 20000 /* per decision; more are not shown */
#define S_MAX_EVENT_PAGES 256

static void s_events_clear(s_events *self) {
    for (size_t i = 0; i < self->n; i++) berthier__v1__event__free_unpacked(self->items[i], NULL);
    self->n = 0;
}

static void s_events_fetch(s_events *self, brt_client *c, const bot_params *p, unsigned *requests) {
    for (int page = 0; page < S_MAX_EVENT_PAGES; page++) {
        const Berthier__V1__EventList *el = NULL;
        (*requests)++;
        if (brt_client_events(c, p->game_id, p->seat, self->since, &el) != 0) return;
        for (size_t i = 0; i < el->n_events && self->n < S_MAX_EVENTS; i++) {
            if (self->n == self->cap) {
                size_t cap = self->cap ? self->cap * 2 : 32;
                Berthier__V1__Event **items = realloc(self->items, cap * sizeof *items);
                if (!items) return;
                self->items = items;
                self->cap = cap;
            }
            size_t n = berthier__v1__event__get_packed_size(el->events[i]);
            uint8_t *buf = malloc(n ? n : 1);
            if (!buf) return;
            berthier__v1__event__pack(el->events[i], buf);
            Berthier__V1__Event *copy = berthier__v1__event__unpack(NULL, n, buf);
            free(buf);
            if (copy) self->items[self->n++] = copy;
        }
        if (el->seq <= self->since) return; /* it stopped moving */
        self->since = el->seq;
    }
}

int bot_play(const bot_params *p, bot_outcome *out) {
    memset(out, 0, sizeof *out);
    const char *arg = NULL;
    const bot_policy *pol = bot_policy_find(p->policy, &arg);
    if (!pol) {
        snprintf(out->error, sizeof out->error, "unknown policy %s", p->policy);
        return -1;
    }
    if (p->ruleset && pol->unsupported) {
        const char *why = pol->unsupported(p->ruleset);
        if (why) {
            snprintf(out->error, sizeof out->error, "%s", why);
            return -1;
        }
    }
    brt_client *c = p->client;
    const char *label = p->label ? p->label : "bot";
    int max_illegal = p->max_illegal > 0 ? p->max_illegal : 3;
    int patience = p->patience_ms > 0 ? p->patience_ms : 300000;

    /* Join; a seat that joined before (a restart of this program) carries on. */
    uint8_t event_key[BRT_EVENT_KEY_BYTES];
    int have_key = 0;
    brt_chain *chain = NULL;
    int64_t last_reply = s_now_ms();
    /* What the policy needs of the legal orders: their texts, or the encoded orders only. */
    int newp = !p->old_protocol;
    /* A policy that reads the seat's View gets it in the same reply (Reply.next_view),
     * not from a `state` request of its own. */
    int want_view = pol->needs_view && pol->needs_view(p->ruleset);
    unsigned lflags = BRT_WANT_LEGAL | (pol->needs_texts && pol->needs_texts(p->ruleset) ? BRT_WANT_TEXTS : 0) |
                      (want_view ? BRT_WANT_VIEW : 0);
    /* The decision (and its legal orders) the reply to our last input carried: the
     * next round of the loop starts from them instead of asking (P4.3). */
    Berthier__V1__Decision *held_d = NULL;
    Berthier__V1__LegalOrders *held_l = NULL;
    s_held_view held_v = {NULL, 0, 0, 0};   /* the View that came with held_d */
    for (;;) {
        if (s_stopped(p)) {
            snprintf(out->error, sizeof out->error, "stopped");
            brt_chain_destroy(&chain);
            return -1;
        }
        if (p->contributory && !chain && !(chain = brt_chain_new(S_CHAIN_LENGTH))) {
            snprintf(out->error, sizeof out->error, "out of memory for the nonce chain");
            return -1;
        }
        brt_client_set_want(c, newp ? lflags : 0, 0);
        out->requests++;
        int jrc = chain ? brt_client_join_chain(c, p->game_id, p->seat, chain, NULL)
                        : brt_client_join(c, p->game_id, p->seat, NULL);
        if (jrc == 0) {
            s_keep_receipt(p, c, out);
            have_key = brt_client_event_key(c, event_key) == 0;
            if (newp) s_take_next(c, &held_d, &held_l, &held_v);
            break;
        }
        int code = brt_client_code(c);
        if (!chain && code != BRT_CLIENT_NO_REPLY && strstr(brt_client_message(c), "chain commitment")) {
            chain = brt_chain_new(S_CHAIN_LENGTH); /* a dice=contributory game */
            if (chain) continue;
        }
        if (code == BRT_CODE_ALREADY_JOINED || code == BRT_CODE_GAME_OVER) {
            out->requests++;
            if (brt_client_hello(c, p->game_id, (int)p->seat, NULL) == 0)
                have_key = brt_client_event_key(c, event_key) == 0;
            brt_chain_destroy(&chain); /* a chain committed by someone else: not ours */
            break;
        }
        if (code != BRT_CLIENT_NO_REPLY || s_now_ms() - last_reply > patience) {
            snprintf(out->error, sizeof out->error, "join: %s", brt_client_error(c));
            brt_chain_destroy(&chain);
            return -1;
        }
        out->retries++;
    }
    brt_sub *sub = have_key ? brt_client_subscribe(c, p->game_id, (int)p->seat, event_key) : NULL;
    if (held_d && !held_d->you_must_act) {
        /* The join's decision waits for others: the notice that ends the wait may have gone
         * out before the subscription above reached the daemon, so ask once now it has. */
        berthier__v1__decision__free_unpacked(held_d, NULL);
        if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
        held_d = NULL;
        held_l = NULL;
        s_held_view_clear(&held_v);
    }

    bot_view start = {p->game_id, p->ruleset, p->scenario, p->seat, p->n_seats, NULL, NULL,
                      NULL, 0, NULL, NULL, NULL, NULL, 0};
    void *ps = pol->create ? pol->create(p->seed, arg, &start) : NULL;
    if (pol->create && !ps) {
        snprintf(out->error, sizeof out->error, "policy %s failed to start", p->policy);
        if (held_d) berthier__v1__decision__free_unpacked(held_d, NULL);
        if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
        s_held_view_clear(&held_v);
        brt_sub_destroy(&sub);
        brt_chain_destroy(&chain);
        return -1;
    }

    int rc = -1, illegal_run = 0, idle_ms = 5, empty_run = 0;
    int sub_wait_ms = 20;   /* how long to wait for a notice (P4.3 loop) */
    uint64_t empty_seq = 0;
    last_reply = s_now_ms();
    s_loop loop = {p, 0, out};
    s_events evs = {NULL, 0, 0, 0};
    /* this round's decision and legal orders (ours: freed at the next round) */
    Berthier__V1__Decision *dcur = NULL;
    Berthier__V1__LegalOrders *lcur = NULL;
    s_held_view vcur = {NULL, 0, 0, 0};
    for (;;) {
        if (dcur) berthier__v1__decision__free_unpacked(dcur, NULL);
        if (lcur) berthier__v1__legal_orders__free_unpacked(lcur, NULL);
        s_held_view_clear(&vcur);
        dcur = held_d;
        lcur = held_l;
        vcur = held_v;
        held_d = NULL;
        held_l = NULL;
        memset(&held_v, 0, sizeof held_v);
        if (s_stopped(p)) {
            snprintf(out->error, sizeof out->error, "stopped");
            break;
        }
        if (!dcur) {
            /* P4.3: one pending that brings the legal orders too, when they are ours to use */
            const Berthier__V1__Decision *pd = NULL;
            brt_client_set_want(c, newp ? lflags : 0, 0);
            out->requests++;
            if (brt_client_pending(c, p->game_id, p->seat, &pd) != 0) {
                if (brt_client_code(c) == BRT_CLIENT_NO_REPLY && s_now_ms() - last_reply < patience) {
                    out->retries++;
                    continue;
                }
                snprintf(out->error, sizeof out->error, "pending: %s", brt_client_error(c));
                break;
            }
            last_reply = s_now_ms();
            dcur = s_copy_decision(pd);
            if (dcur && newp && brt_client_next_legal(c)) lcur = s_copy_legal(brt_client_next_legal(c));
            if (dcur && newp) s_held_view_take(&vcur, c);
            if (!dcur) {
                snprintf(out->error, sizeof out->error, "out of memory");
                break;
            }
        }
        const Berthier__V1__Decision *d = dcur;
        out->seq = d->seq;
        if (d->turn > out->turn) out->turn = d->turn; /* the last decision may say 0 */
        if (p->progress_seq) atomic_store(p->progress_seq, d->seq);
        if (p->progress_turn) atomic_store(p->progress_turn, out->turn);
        if (d->result && d->result->ended) {
            s_fill_result(out, d->result);
            rc = 0;
            break;
        }
        uint64_t batch;
        if (d->you_must_act && brt_decision_batch(d, &batch) == 0) {
            /* dice=contributory: reveal the next link of our nonce chain for this batch. */
            if (!chain) {
                snprintf(out->error, sizeof out->error,
                         "dice batch %llu needs seat %u's nonce chain, which another process "
                         "committed at join", (unsigned long long)batch, p->seat);
                break;
            }
            brt_client_set_want(c, newp ? lflags : 0, 0);
            out->requests++;
            int rrc = brt_client_reveal(c, p->game_id, p->seat, batch, chain);
            if (rrc == 0) s_keep_receipt(p, c, out);
            if (rrc == 0 && newp) s_take_next(c, &held_d, &held_l, &held_v);
            if (rrc != 0) {
                int code = brt_client_code(c);
                if (code == BRT_CLIENT_NO_REPLY) out->retries++;
                else if (code != BRT_CODE_STALE && code != BRT_CODE_NOT_YOUR_DECISION &&
                         code != BRT_CODE_GAME_OVER) {
                    snprintf(out->error, sizeof out->error, "reveal: %s", brt_client_error(c));
                    break;
                }
            }
            continue;
        }
        if (!d->you_must_act || !d->started) {
            /* Not our decision: wait for a notice on our stream, or poll. */
            Berthier__V1__Notice *n = NULL;
            if (sub) {
                /* until a first notice shows the subscription has reached the daemon (a
                 * notice sent before that is lost), look again soon */
                int got = brt_sub_recv(sub, newp ? sub_wait_ms : 500, &n) == 1;
                if (!got && sub_wait_ms < 500) sub_wait_ms = sub_wait_ms * 2 > 500 ? 500 : sub_wait_ms * 2;
                if (got) {
                    sub_wait_ms = 500;
                    /* P4.3: the notice carries our decision; while it is not ours to act
                     * on, go on waiting without asking (a timeout asks, to be safe). A
                     * notice of an input before the decision we hold (our own orders'
                     * notices come after their replies) changes nothing. */
                    const Berthier__V1__Decision *nd = n->decision;
                    if (newp && nd && nd->seq < d->seq)
                        held_d = s_copy_decision(d);
                    else if (newp && nd && !nd->you_must_act && !(nd->result && nd->result->ended))
                        held_d = s_copy_decision(nd);
                    berthier__v1__notice__free_unpacked(n, NULL);
                }
            } else {
                s_sleep_ms(idle_ms);
                if (idle_ms < 100) idle_ms *= 2;
            }
            continue;
        }
        idle_ms = 5;
        uint64_t seq = d->seq;
        char kind[64];
        snprintf(kind, sizeof kind, "%s", d->kind ? d->kind : "");
        Berthier__V1__Decision *dcopy = dcur;
        const Berthier__V1__LegalOrders *lo = lcur;
        if (!lo && (out->requests++, brt_client_legal(c, p->game_id, p->seat, 0, &lo) != 0)) {
            int code = brt_client_code(c);
            if (code == BRT_CLIENT_NO_REPLY || code == BRT_CODE_NOT_YOUR_DECISION ||
                code == BRT_CODE_STALE || code == BRT_CODE_GAME_OVER) {
                if (code == BRT_CLIENT_NO_REPLY) out->retries++;
                continue;
            }
            snprintf(out->error, sizeof out->error, "legal: %s", brt_client_error(c));
            break;
        }
        if (lo->n_orders == 0 && lo->n_texts == 0) {
            /* Nothing offered for a decision that is ours: ask again a few times (the
             * game may have moved meanwhile), then stop: the seat cannot play on. */
            empty_run = seq == empty_seq ? empty_run + 1 : 1;
            empty_seq = seq;
            if (empty_run >= 5) {
                snprintf(out->error, sizeof out->error,
                         "the daemon lists no legal order for the decision at seq %llu (%s)",
                         (unsigned long long)seq, kind);
                break;
            }
            s_sleep_ms(50);
            continue;
        }
        /* Keep our own copy of the legal list too (the policy may call the daemon). */
        if (!lcur) lcur = s_copy_legal(lo);
        Berthier__V1__LegalOrders *lcopy = lcur;
        if (!lcopy || !dcopy) {
            snprintf(out->error, sizeof out->error, "out of memory");
            break;
        }
        uint8_t *view = NULL;
        size_t view_len = 0;
        char *view_text = NULL;
        const Berthier__V1__StateView *sv = NULL;
        int want_events = pol->wants_events && ps && pol->wants_events(ps);
        if (want_view && !want_events && vcur.have && vcur.seq == seq) {
            /* P4.3: the View came with the decision (no text: a policy that wants events
             * reads the text, and asks `state` for it below) */
            view = vcur.data;
            view_len = vcur.len;
            vcur.data = NULL;
            vcur.have = 0;
        } else if ((want_view || want_events) && (out->requests++, 1) &&
                   brt_client_state(c, p->game_id, p->seat, want_events, &sv) == 0) {
            if (sv->view.len && (view = malloc(sv->view.len)) != NULL) {
                memcpy(view, sv->view.data, sv->view.len);
                view_len = sv->view.len;
            }
            if (want_events && sv->text) view_text = strdup(sv->text);
        }
        if (want_events) s_events_fetch(&evs, c, p, &out->requests);
        loop.seq = seq;
        bot_view v = {p->game_id, p->ruleset, p->scenario, p->seat, p->n_seats, dcopy, lcopy,
                      view, view_len, s_still_current, &loop, view_text,
                      want_events ? evs.items : NULL, want_events ? evs.n : 0};
        bot_choice ch;
        memset(&ch, 0, sizeof ch);
        ch.index = -1;
        int pr = pol->choose(ps, &v, &ch);
        int submit_rc = -1, code = BRT_CODE_OK;
        char shown[1100] = "";
        if (pr == BOT_CHOSE) {
            if (ch.index >= 0 && (size_t)ch.index < lcopy->n_orders &&
                lcopy->orders[ch.index].len > 0) {
                if ((size_t)ch.index < lcopy->n_texts)
                    snprintf(shown, sizeof shown, "%s", lcopy->texts[ch.index]);
                else
                    snprintf(shown, sizeof shown, "order %d of %zu", ch.index, lcopy->n_orders);
                brt_client_set_want(c, newp ? lflags : 0, 0);
                out->requests++;
                submit_rc = brt_client_submit(c, p->game_id, p->seat, seq,
                                              lcopy->orders[ch.index].data,
                                              lcopy->orders[ch.index].len, NULL);
            } else {
                const char *text = ch.text;
                if (ch.index >= 0 && (size_t)ch.index < lcopy->n_texts)
                    text = lcopy->texts[ch.index];
                snprintf(shown, sizeof shown, "%s", text);
                brt_client_set_want(c, newp ? lflags : 0, 0);
                out->requests++;
                submit_rc = brt_client_submit_text(c, p->game_id, p->seat, seq, text, NULL);
            }
            code = brt_client_code(c);
            /* P4.3: the reply to the order brings the next decision (and, when it is
             * ours again, its legal orders): the next round starts from them */
            if (submit_rc == 0 && newp) s_take_next(c, &held_d, &held_l, &held_v);
        }
        free(view);
        free(view_text);
        s_events_clear(&evs);
        if (pr == BOT_ABANDON) continue;
        if (pr == BOT_FAILED) {
            if (out->resigned) break;
            snprintf(out->error, sizeof out->error, "the policy failed; seat %u resigns", p->seat);
            brt_client_set_want(c, 0, 0);
            out->requests++;
            if (brt_client_resign(c, p->game_id, p->seat) == 0) s_keep_receipt(p, c, out);
            out->resigned = 1;
            continue; /* the next pending shows the result */
        }
        if (submit_rc == 0) {
            s_keep_receipt(p, c, out);
            out->orders++;
            illegal_run = 0;
            last_reply = s_now_ms();
            if (p->verbose) fprintf(stderr, "%s: seq %llu: %s\n", label, (unsigned long long)seq, shown);
            continue;
        }
        if (code == BRT_CLIENT_NO_REPLY) {
            out->retries++;
            if (s_now_ms() - last_reply < patience) continue;
            snprintf(out->error, sizeof out->error, "submit: %s", brt_client_error(c));
            break;
        }
        last_reply = s_now_ms();
        if (code == BRT_CODE_STALE || code == BRT_CODE_NOT_YOUR_DECISION ||
            code == BRT_CODE_GAME_OVER || code == BRT_CODE_BUSY)
            continue; /* the board moved: refetch */
        out->rejected++;
        if (pol->rejected) pol->rejected(ps, code, brt_client_error(c));
        if (p->verbose) fprintf(stderr, "%s: %s: %s\n", label, shown, brt_client_error(c));
        if (++illegal_run >= max_illegal && !out->resigned) {
            snprintf(out->error, sizeof out->error, "%d rejected orders in a row; seat %u resigns",
                     illegal_run, p->seat);
            brt_client_set_want(c, 0, 0);
            out->requests++;
            if (brt_client_resign(c, p->game_id, p->seat) == 0) s_keep_receipt(p, c, out);
            out->resigned = 1;
        }
    }
    if (pol->finished && ps) {
        char line[400];
        if (out->finished) {
            Berthier__V1__Result r = BERTHIER__V1__RESULT__INIT;
            uint32_t w[32];
            size_t nw = 0;
            for (unsigned i = 0; i < 32; i++)
                if (out->winners & (1u << i)) w[nw++] = i;
            r.ended = 1;
            r.n_winners = nw;
            r.winners = w;
            r.level = out->level;
            r.reason = out->reason;
            bot_result_line(&r, line, sizeof line);
        } else {
            snprintf(line, sizeof line, "stopped: %.380s", out->error);
        }
        pol->finished(ps, line);
    }
    if (pol->destroy && ps) pol->destroy(ps);
    if (dcur) berthier__v1__decision__free_unpacked(dcur, NULL);
    if (lcur) berthier__v1__legal_orders__free_unpacked(lcur, NULL);
    if (held_d) berthier__v1__decision__free_unpacked(held_d, NULL);
    if (held_l) berthier__v1__legal_orders__free_unpacked(held_l, NULL);
    s_held_view_clear(&vcur);
    s_held_view_clear(&held_v);
    s_events_clear(&evs);
    free(evs.items);
    brt_sub_destroy(&sub);
    brt_chain_destroy(&chain);
    return rc;
}
