/* text.c - the text syntax of orders and events (docs/orders-wem.md) (not written yet: stubs) */
#include <stdio.h>
#include "wem.h"
#include "wem/v1/wem.pb-c.h"
int wem_order_parse(const wem_state *s, const char *text, wem_order *o, brt_reject *err) {
    (void)s;
    wem_order_init(o, WEM_O_NONE);
    return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "Order", "the text syntax is not written yet: %.40s", text);
}
int wem_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    Wem__V1__Order *m = wem__v1__order__unpack(NULL, len, order);
    if (!m) return -1;
    buf_printf(out, "order %d", (int)m->kind_case);
    wem__v1__order__free_unpacked(m, NULL);
    return 0;
}
int wem_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    Wem__V1__Event *e = wem__v1__event__unpack(NULL, len, event);
    if (!e) return -1;
    buf_printf(out, "%s", e->kind);
    if (e->piece[0]) buf_printf(out, " %s", e->piece);
    if (e->other[0]) buf_printf(out, " %s", e->other);
    if (e->text[0]) buf_printf(out, ": %s", e->text);
    wem__v1__event__free_unpacked(e, NULL);
    return 0;
}
