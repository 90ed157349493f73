/*
 * wnlb_render.h - the picture of a wnlb state (render.c, docs/render.md).
 */
#ifndef BERTHIER_WNLB_RENDER_H
#define BERTHIER_WNLB_RENDER_H

#include "ruleset.h"
#include "wnlb.h"

/* One standalone SVG document of the state as `viewpoint` (a seat, BRT_VIEW_ALL or
 * BRT_VIEW_PUBLIC) may see it, appended to out: 0, or -1. A hand's cards appear only
 * where wnlb_may_see_hand allows; every hand's count is public [2.4] [6.0]. */
int wnlb_render(const wnlb_state *s, int viewpoint, const brt_render_ctx *ctx, brt_buf *out);

#endif
