/*
 * policy.c - the built-in policies and the policy table.
 *
 *   random  uniform among the legal orders the daemon lists, from the bot's own
 *           splitmix64 generator seeded by --seed (reproducible choices).
 *   greedy  a heuristic player, one per ruleset it knows (n20, wnlb, wem, duel). Elsewhere
 *           it refuses to start with a plain message.
 *   exec:PROGRAM  an external program speaking the line protocol of
 *           docs/bots.md (external.c).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "bot.h"
#include "greedy.h"

/* ---- generator ------------------------------------------------------------- */

uint64_t bot_rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t bot_rng_below(uint64_t *state, uint64_t n) {
    if (n <= 1) return 0;
    uint64_t limit = UINT64_MAX - (UINT64_MAX % n) - 1; /* accept w <= limit: unbiased */
    for (;;) {
        uint64_t w = bot_rng_next(state);
        if (w <= limit) return w % n;
    }
}

void bot_best_init(bot_best *self) { memset(self, 0, sizeof *self); }

void bot_best_offer(bot_best *self, uint64_t *rng, int score, int index) {
    if (!self->found || score > self->score) {
        self->score = score;
        self->found = 1;
        self->ties = 1;
        self->index = index;
    } else if (score == self->score && bot_rng_below(rng, ++self->ties) == 0) {
        self->index = index;
    }
}

/* ---- random -------------------------------------------------------------------- */

typedef struct s_random {
    uint64_t rng;
    int presses; /* greedy duel: presses this round */
} s_random;

static void *s_random_create(uint64_t seed, const char *arg, const bot_view *start) {
    (void)arg;
    (void)start;
    s_random *self = calloc(1, sizeof *self);
    if (self) self->rng = seed;
    return self;
}

static size_t s_choice_count(const bot_view *v) {
    size_t n = v->legal->n_orders;
    if (v->legal->n_texts > n) n = v->legal->n_texts;
    return n;
}

static int s_random_choose(void *ps, const bot_view *v, bot_choice *out) {
    s_random *self = ps;
    size_t n = s_choice_count(v);
    if (n == 0) return BOT_ABANDON;
    out->index = (int)bot_rng_below(&self->rng, n);
    return BOT_CHOSE;
}

static void s_free(void *ps) { free(ps); }

/* ---- greedy -------------------------------------------------------------------- */

/* A greedy player is written per ruleset: a row of this table. */
typedef int (*s_greedy_fn)(s_random *self, const bot_view *v, bot_choice *out);

static int s_index_of(const bot_view *v, const char *text) {
    for (size_t i = 0; i < v->legal->n_texts; i++)
        if (strcmp(v->legal->texts[i], text) == 0) return (int)i;
    return -1;
}

/* duel (rules/duel/README.md): bid 2 when it can (a stake that usually wins the
 * roll [D3] without draining the reserve [D2]); as the roller, press twice in a
 * round and then bank [D4]. */
static int s_greedy_duel(s_random *self, const bot_view *v, bot_choice *out) {
    const char *kind = v->decision && v->decision->kind ? v->decision->kind : "";
    if (strcmp(kind, "bid") == 0) {
        self->presses = 0;
        for (int bid = 2; bid >= 0; bid--) {
            char text[16];
            snprintf(text, sizeof text, "bid %d", bid);
            int i = s_index_of(v, text);
            if (i >= 0) {
                out->index = i;
                return BOT_CHOSE;
            }
        }
    } else if (strcmp(kind, "bank-or-press") == 0) {
        int i = s_index_of(v, self->presses < 2 ? "press" : "bank");
        if (i >= 0) {
            if (self->presses < 2) self->presses++;
            else self->presses = 0;
            out->index = i;
            return BOT_CHOSE;
        }
    }
    return s_random_choose(self, v, out);
}

/* Napoleonic 20: greedy_n20.c, from the seat's view; random when the view is missing. */
static int s_greedy_n20(s_random *self, const bot_view *v, bot_choice *out) {
    if (greedy_n20_choose(&self->rng, v, out) == 0) return BOT_CHOSE;
    return s_random_choose(self, v, out);
}

#ifdef BERTHIER_BOT_WNLB
/* Napoleon's Last Battle: greedy_wnlb.c, from the seat's view (its own hand); random without it. */
static int s_greedy_wnlb(s_random *self, const bot_view *v, bot_choice *out) {
    if (greedy_wnlb_choose(&self->rng, v, out) == 0) return BOT_CHOSE;
    return s_random_choose(self, v, out);
}
#endif

#ifdef BERTHIER_BOT_WEM
/* Waterloo: Enemy Mistakes: greedy_wem.c, from the seat's view; random without it. */
static int s_greedy_wem(s_random *self, const bot_view *v, bot_choice *out) {
    if (greedy_wem_choose(&self->rng, v, out) == 0) return BOT_CHOSE;
    return s_random_choose(self, v, out);
}
#endif

static const struct {
    const char *ruleset;
    s_greedy_fn choose;
} s_greedy_table[] = {
    {"n20", s_greedy_n20},
#ifdef BERTHIER_BOT_WNLB
    {"wnlb", s_greedy_wnlb},
#endif
#ifdef BERTHIER_BOT_WEM
    {"wem", s_greedy_wem},
#endif
    {"duel", s_greedy_duel},
};

static s_greedy_fn s_greedy_for(const char *ruleset) {
    for (size_t i = 0; ruleset && i < sizeof s_greedy_table / sizeof s_greedy_table[0]; i++)
        if (strcmp(s_greedy_table[i].ruleset, ruleset) == 0) return s_greedy_table[i].choose;
    return NULL;
}

static const char *s_greedy_unsupported(const char *ruleset) {
    return s_greedy_for(ruleset) ? NULL : "greedy policy needs ruleset n20, wnlb or wem (or duel)";
}

static int s_greedy_choose(void *ps, const bot_view *v, bot_choice *out) {
    s_greedy_fn fn = s_greedy_for(v->ruleset);
    if (s_choice_count(v) == 0) return BOT_ABANDON;
    return fn ? fn(ps, v, out) : s_random_choose(ps, v, out);
}

/* ---- table ------------------------------------------------------------------------ */

extern const bot_policy bot_policy_exec; /* external.c */

static int s_greedy_needs_view(const char *ruleset) {
    return ruleset && (strcmp(ruleset, "n20") == 0 || strcmp(ruleset, "wnlb") == 0 || strcmp(ruleset, "wem") == 0);
}

/* duel's greedy player matches texts ("bid 2"); the others read the order bytes. */
static int s_greedy_needs_texts(const char *ruleset) { return ruleset && strcmp(ruleset, "duel") == 0; }

static const bot_policy s_random_policy = {
    .name = "random",
    .summary = "uniform among the legal orders (seeded by --seed)",
    .create = s_random_create,
    .choose = s_random_choose,
    .destroy = s_free,
};

static const bot_policy s_greedy_policy = {
    .name = "greedy",
    .summary = "a heuristic player per ruleset (n20, wnlb, wem, duel)",
    .unsupported = s_greedy_unsupported,
    .create = s_random_create,
    .choose = s_greedy_choose,
    .destroy = s_free,
    .needs_view = s_greedy_needs_view,
    .needs_texts = s_greedy_needs_texts,
};

static const bot_policy *const s_policies[] = {&s_random_policy, &s_greedy_policy, NULL};

const bot_policy *bot_policy_find(const char *spec, const char **arg) {
    if (arg) *arg = NULL;
    if (!spec) return NULL;
    if (strncmp(spec, "exec:", 5) == 0) {
        if (!spec[5]) return NULL;
        if (arg) *arg = spec + 5;
        return &bot_policy_exec;
    }
    for (size_t i = 0; s_policies[i]; i++)
        if (strcmp(s_policies[i]->name, spec) == 0) return s_policies[i];
    return NULL;
}

void bot_policy_list(char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; s_policies[i] && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "",
                                 s_policies[i]->name);
    if (used < len) snprintf(out + used, len - used, ", exec:PROGRAM");
}
