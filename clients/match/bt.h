/*
 * bt.h - Bradley-Terry ratings (Elo scale) by maximum likelihood, with a prior.
 *
 * P(i scores against j) = 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts as
 * half a win and half a loss. Each entrant also has `prior` virtual draws
 * against a reference rated 0, so that the fit stays finite when an entrant
 * won (or lost) everything, and ratings read relative to that reference.
 * The maximum is found by Newton's method on the (strictly concave) log
 * likelihood; the interval is +-1.96 standard errors from the observed
 * information (the inverse of minus the Hessian at the maximum).
 * Deterministic: the same inputs give the same doubles on the same machine.
 */
#ifndef BERTHIER_MATCH_BT_H
#define BERTHIER_MATCH_BT_H

#define BT_MAX 16

typedef struct bt_rating {
    double elo;     /* rating, the reference at 0 */
    double se;      /* standard error, Elo points */
    double lo, hi;  /* 95% interval: elo -+ 1.96 se */
} bt_rating;

/* n entrants (1..BT_MAX). games[i*n+j]: games between i and j (symmetric);
 * points[i*n+j]: what i scored against j (win 1, draw 0.5), so
 * points[i*n+j] + points[j*n+i] = games[i*n+j]. prior > 0.
 * 0, or -1 on bad input or no convergence. */
int bt_fit(unsigned n, const double *games, const double *points, double prior, bt_rating *out);

#endif
