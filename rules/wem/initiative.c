/* initiative.c - [Entrance of the black (Prussian) army], [1. Initiative], [Substitute Generals]
 * (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(entrance, "deploy", "Executing the entrance")
WEM_PHASE_STUB(bid, "bid", "1. Initiative")
WEM_PHASE_STUB(substitute, "substitute", "Substitute Generals")
WEM_BEGIN_STUB(entrance)
WEM_BEGIN_STUB(initiative)
WEM_BEGIN_STUB(substitute)
