/* stub.h - a phase not refereed yet: it refuses every order and has no default. Each phase's
 * file replaces its stub with the rules. */
#ifndef BERTHIER_WEM_STUB_H
#define BERTHIER_WEM_STUB_H
#include <stdio.h>
#include "wem.h"
#define WEM_PHASE_STUB(x, kind_, rule_)                                                                      \
    int wem_##x##_apply(wem_state *s, unsigned seat, const wem_order *o, brt_dice *dice, brt_events *ev,      \
                        brt_reject *err) {                                                                   \
        (void)s, (void)seat, (void)o, (void)dice, (void)ev;                                                  \
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, rule_, "[%s] is not refereed yet", rule_);            \
    }                                                                                                        \
    void wem_##x##_pending(const wem_state *s, brt_pending *out) {                                           \
        out->seats = wem_army_mask(s, wem_cur_army(s));                                                      \
        snprintf(out->kind, sizeof out->kind, "%s", kind_);                                                  \
        snprintf(out->rule, sizeof out->rule, "%s", rule_);                                                  \
        snprintf(out->prompt, sizeof out->prompt, "%s", kind_);                                              \
    }                                                                                                        \
    int wem_##x##_legal(const wem_state *s, unsigned seat, brt_buf *out) {                                   \
        (void)s, (void)seat, (void)out;                                                                      \
        return 0;                                                                                            \
    }                                                                                                        \
    int wem_##x##_default(wem_state *s, unsigned seat, brt_dice *dice, brt_events *ev) {                     \
        (void)s, (void)seat, (void)dice, (void)ev;                                                           \
        return -1;                                                                                           \
    }
#define WEM_BEGIN_STUB(x)                                                                                    \
    int wem_##x##_begin(wem_state *s, brt_dice *dice, brt_events *ev) {                                      \
        (void)s, (void)dice, (void)ev;                                                                       \
        return 0;                                                                                            \
    }
#endif
