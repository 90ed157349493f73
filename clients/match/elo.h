/*
 * elo.h - Elo rating difference from a score, with a 95% confidence interval.
 */
#ifndef BERTHIER_MATCH_ELO_H
#define BERTHIER_MATCH_ELO_H

typedef struct elo_est {
    double score;   /* (wins + draws / 2) / games */
    double elo;     /* 400 log10(score / (1 - score)) */
    double lo, hi;  /* 95% confidence interval of elo */
    int clamped;    /* score was 0 or 1: elo is a bound (score taken as 1/(2n) from the edge) */
} elo_est;

/* 0, or -1 when there are no games. */
int elo_estimate(unsigned wins, unsigned draws, unsigned losses, elo_est *out);

#endif
