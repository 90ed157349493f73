/* query.c - measured answers to "can this reach / touch / fire on that" (not written yet) */
#include "wem.h"
int wem_query(const wem_state *s, int viewpoint, const char *text, brt_buf *out) {
    (void)s, (void)viewpoint;
    return buf_printf(out, "query: not answered yet: %.60s\n", text);
}
