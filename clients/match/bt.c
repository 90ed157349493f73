/*
 * bt.c - maximum-likelihood Bradley-Terry fit with a virtual-draw prior (bt.h).
 */
#include "bt.h"

#include <math.h>
#include <string.h>

#define S_SCALE (400.0 / 2.302585092994046) /* Elo points per natural-log unit */

static double s_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Solve A x = b (A symmetric positive definite, n x n) by Cholesky; A is overwritten. */
static int s_cholesky(unsigned n, double *a, double *x, const double *b) {
    for (unsigned j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (unsigned k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0)) return -1;
        d = sqrt(d);
        a[j * n + j] = d;
        for (unsigned i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (unsigned k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / d;
        }
    }
    double y[BT_MAX];
    for (unsigned i = 0; i < n; i++) {
        double s = b[i];
        for (unsigned k = 0; k < i; k++) s -= a[i * n + k] * y[k];
        y[i] = s / a[i * n + i];
    }
    for (unsigned i = n; i-- > 0;) {
        double s = y[i];
        for (unsigned k = i + 1; k < n; k++) s -= a[k * n + i] * x[k];
        x[i] = s / a[i * n + i];
    }
    return 0;
}

/* Gradient and minus the Hessian of the log likelihood at theta (natural units). */
static void s_derivs(unsigned n, const double *games, const double *points, double prior,
                     const double *theta, double *grad, double *info) {
    memset(info, 0, sizeof(double) * n * n);
    for (unsigned i = 0; i < n; i++) {
        double p0 = s_sigmoid(theta[i]);
        grad[i] = prior * (0.5 - p0);
        info[i * n + i] = prior * p0 * (1.0 - p0);
        for (unsigned j = 0; j < n; j++) {
            double g = games[i * n + j];
            if (j == i || g <= 0) continue;
            double p = s_sigmoid(theta[i] - theta[j]);
            grad[i] += points[i * n + j] - g * p;
            double w = g * p * (1.0 - p);
            info[i * n + i] += w;
            info[i * n + j] -= w;
        }
    }
}

int bt_fit(unsigned n, const double *games, const double *points, double prior, bt_rating *out) {
    if (n < 1 || n > BT_MAX || !(prior > 0)) return -1;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            double g = games[i * n + j], p = points[i * n + j];
            if (g < 0 || p < 0 || p > g || g != games[j * n + i]) return -1;
        }
    double theta[BT_MAX] = {0}, grad[BT_MAX], step[BT_MAX], info[BT_MAX * BT_MAX];
    int converged = 0;
    for (int it = 0; it < 200 && !converged; it++) {
        s_derivs(n, games, points, prior, theta, grad, info);
        if (s_cholesky(n, info, step, grad) != 0) return -1;
        double big = 0;
        for (unsigned i = 0; i < n; i++)
            if (fabs(step[i]) > big) big = fabs(step[i]);
        /* damped: never more than 2 natural units (~350 Elo) per step */
        double f = big > 2.0 ? 2.0 / big : 1.0;
        for (unsigned i = 0; i < n; i++) theta[i] += f * step[i];
        converged = big < 1e-10;
    }
    if (!converged) return -1;
    /* the covariance: the inverse of the information, column by column */
    s_derivs(n, games, points, prior, theta, grad, info);
    for (unsigned c = 0; c < n; c++) {
        double a[BT_MAX * BT_MAX], e[BT_MAX] = {0}, col[BT_MAX];
        memcpy(a, info, sizeof(double) * n * n);
        e[c] = 1.0;
        if (s_cholesky(n, a, col, e) != 0) return -1;
        out[c].elo = theta[c] * S_SCALE;
        out[c].se = sqrt(col[c]) * S_SCALE;
        out[c].lo = out[c].elo - 1.96 * out[c].se;
        out[c].hi = out[c].elo + 1.96 * out[c].se;
    }
    return 0;
}
