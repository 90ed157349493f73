/* combat.c - [3.4 Combat] (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(combat, "combat", "3.4 Combat")
WEM_PHASE_STUB(melee_choice, "melee-choice", "Melee")
WEM_PHASE_STUB(losses, "losses", "Suffer Damages")
WEM_PHASE_STUB(general_escape, "general-escape", "Unattached Generals")
WEM_BEGIN_STUB(combat)
