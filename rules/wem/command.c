/* command.c - [3.1 Assign] and [3.2 Issue Orders] (not refereed yet: stubs) */
#include "stub.h"
WEM_PHASE_STUB(assign, "assign", "3.1 Assign")
WEM_PHASE_STUB(orders, "orders", "3.2 Issue Orders")
WEM_BEGIN_STUB(assign)
WEM_BEGIN_STUB(orders)
void wem_orders_end(wem_state *s, brt_events *ev) { (void)s, (void)ev; }
