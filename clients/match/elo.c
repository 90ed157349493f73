/*
 * elo.c - Elo difference against the field from a match score.
 *
 * score p = (W + D/2) / n; the standard error of the mean per-game score is
 * sqrt(sum((s_i - p)^2) / n) / sqrt(n); the 95% interval of p is p +- 1.96 se,
 * mapped through elo(p) = 400 log10(p / (1 - p)) (monotonic, so the bounds map
 * to bounds). A score of 0 or 1 has no finite Elo: it is moved 1/(2n) from the
 * edge and flagged.
 */
#include "elo.h"

#include <math.h>

static double s_elo(double p) { return 400.0 * log10(p / (1.0 - p)); }

int elo_estimate(unsigned wins, unsigned draws, unsigned losses, elo_est *out) {
    double n = (double)wins + draws + losses;
    if (n <= 0) return -1;
    double p = (wins + 0.5 * draws) / n;
    double var = (wins * (1.0 - p) * (1.0 - p) + draws * (0.5 - p) * (0.5 - p) +
                  losses * p * p) / n;
    double se = sqrt(var / n);
    double edge = 0.5 / n;
    if (edge > 0.25) edge = 0.25;
    out->score = p;
    out->clamped = p <= 0.0 || p >= 1.0;
    double pc = p < edge ? edge : p > 1.0 - edge ? 1.0 - edge : p;
    double lo = p - 1.96 * se, hi = p + 1.96 * se;
    if (lo < edge) lo = edge;
    if (hi > 1.0 - edge) hi = 1.0 - edge;
    if (lo > pc) lo = pc;
    if (hi < pc) hi = pc;
    out->elo = s_elo(pc);
    out->lo = s_elo(lo);
    out->hi = s_elo(hi);
    return 0;
}
