/* forced.c - [Withdraw] [Retreat] [Routed] [Fall Back] (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(withdraw, "withdraw", "Withdraw")
int32_t wem_withdraw(wem_state *s, int u, int32_t dist, int cause, brt_events *ev) {
    (void)s, (void)u, (void)dist, (void)cause, (void)ev;
    return 0;
}
void wem_shake(wem_state *s, int u, int cause, brt_events *ev) {
    (void)cause, (void)ev;
    if (s->units[u].yellow < 2) s->units[u].yellow++;
}
void wem_fall_back(wem_state *s, int u, int32_t dist, brt_events *ev) { (void)s, (void)u, (void)dist, (void)ev; }
