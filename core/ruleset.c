/* ruleset.c - helpers every ruleset uses (see ruleset.h). */
#include "ruleset.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

size_t brt_ruleset_names(const brt_ruleset *rs, const char *scenario, char *out, size_t cap) {
    if (!out || cap == 0) return 0;
    out[0] = '\0';
    if (!rs) return 0;
    const char *const more = ", ...";
    size_t len = 0, n = 0;
    for (size_t i = 0;; i++) {
        const char *name = scenario ? (rs->scenario_option ? rs->scenario_option(scenario, i) : NULL)
                                    : (rs->scenario_name ? rs->scenario_name(i, NULL) : NULL);
        if (!name) break;
        size_t need = (n ? 2 : 0) + strlen(name);
        /* keep room for ", ..." unless this is the last name and it fits */
        const char *next = scenario ? rs->scenario_option(scenario, i + 1) : rs->scenario_name(i + 1, NULL);
        size_t room = cap - 1 - len;
        if (need > room || (next && need + strlen(more) > room)) {
            if (len + strlen(more) < cap) {
                memcpy(out + len, more + (n ? 0 : 2), strlen(more) - (n ? 0 : 2) + 1);
                len += strlen(more) - (n ? 0 : 2);
            }
            return len;
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s", n ? ", " : "", name);
        n++;
    }
    if (n == 0) len = (size_t)snprintf(out, cap, "%s", cap > 4 ? "none" : "");
    return len;
}
