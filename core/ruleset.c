/* ruleset.c - helpers every ruleset uses (see ruleset.h). */
#include "ruleset.h"

#include <stdarg.h>
#include <stdio.h>

int brt_reject_set(brt_reject *r, int code, const char *rule, const char *fmt, ...) {
    if (!r) return -1;
    r->code = code;
    snprintf(r->rule, sizeof r->rule, "%s", rule ? rule : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    return -1;
}
