/*
 * greedy.h - the greedy players, one per ruleset (policy.c holds the table).
 */
#ifndef BERTHIER_GREEDY_H
#define BERTHIER_GREEDY_H

#include <stdint.h>

#include "bot.h"

/* Napoleonic 20 (greedy_n20.c): needs v->view. 0 = chose out->index, -1 = cannot. */
int greedy_n20_choose(uint64_t *rng, const bot_view *v, bot_choice *out);

/* Napoleon's Last Battle (greedy_wnlb.c): needs v->view. 0 = chose out->index, -1 = cannot. */
int greedy_wnlb_choose(uint64_t *rng, const bot_view *v, bot_choice *out);

/* Waterloo: Enemy Mistakes (greedy_wem.c): needs v->view. 0 = chose out->index, -1 = cannot. */
int greedy_wem_choose(uint64_t *rng, const bot_view *v, bot_choice *out);

#endif
