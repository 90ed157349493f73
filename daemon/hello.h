/*
 * hello.h - what hello lists about each ruleset built in: its scenarios, their
 * seats and the options each accepts (Hello.rulesets_info, docs/protocol.md P5).
 * Everything is asked of the ruleset through its table (core/ruleset.h).
 */
#ifndef BERTHIERD_HELLO_H
#define BERTHIERD_HELLO_H

#include <stddef.h>

#include "berthier/v1/berthier.pb-c.h"
#include "ruleset.h"

typedef struct hello_info {
    Berthier__V1__RulesetInfo **rulesets;
    size_t n;
} hello_info;

/* Fill self from the NULL-terminated list; out of memory is fatal. */
void hello_info_fill(hello_info *self, const brt_ruleset *const *all);
void hello_info_free(hello_info *self);

#endif
