/* registry.c - the rulesets built into this engine. */
#include <string.h>

#include "ruleset.h"

extern const brt_ruleset brt_ruleset_duel;
extern const brt_ruleset brt_ruleset_n20;
extern const brt_ruleset brt_ruleset_wnlb;
extern const brt_ruleset brt_ruleset_wem;

static const brt_ruleset *const s_all[] = {
    &brt_ruleset_n20,
    &brt_ruleset_duel,
    &brt_ruleset_wnlb,
    &brt_ruleset_wem,
    NULL,
};

const brt_ruleset *const *brt_ruleset_all(void) { return s_all; }

const brt_ruleset *brt_ruleset_find(const char *id) {
    if (!id) return NULL;
    for (size_t i = 0; s_all[i]; i++)
        if (strcmp(s_all[i]->id, id) == 0) return s_all[i];
    return NULL;
}
