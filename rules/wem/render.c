/* render.c - the picture of the battlefield (not drawn yet: a stub) */
#include "wem.h"
int wem_render(const wem_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out) {
    (void)s, (void)viewpoint, (void)ctx;
    return buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"brt-board\" data-ruleset=\"wem\"></svg>\n");
}
