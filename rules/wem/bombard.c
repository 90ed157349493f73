/* bombard.c - [2. Bombardment] (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(bombard, "bombard", "2. Bombardment")
WEM_PHASE_STUB(bomb_withdraw, "bombard-withdraw", "Bombardment effects table")
WEM_BEGIN_STUB(bombard)
