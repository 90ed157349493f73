/* maneuver.c - [3.3 Maneuver] (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(maneuver, "maneuver", "3.3 Maneuver")
WEM_PHASE_STUB(charge_reply, "charge-reply", "Charge against Artillery")
WEM_PHASE_STUB(unfasten, "unfasten", "Unfastening Artillery Units")
WEM_BEGIN_STUB(maneuver)
WEM_BEGIN_STUB(unfasten)
void wem_split_contacts(wem_state *s, brt_events *ev) { (void)s, (void)ev; }
int wem_maneuver_exec(wem_state *s, const wem_order *o, int32_t allowance, unsigned flags, brt_dice *dice,
                      brt_events *ev, brt_reject *err) {
    (void)s, (void)o, (void)allowance, (void)flags, (void)dice, (void)ev;
    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "3.3 Maneuver", "[3.3 Maneuver] is not refereed yet");
}
