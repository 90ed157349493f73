/*
 * chateau.c - [10.0] the three chateaux: which chateau a square holds (its CDP counter in
 * s->cdp). The chateau's effects in battle (infantry doubled and facing all sides, cavalry as
 * in a village, CDP spent instead of a Reduction or a Retreat, no Artillery Fire effect) are
 * applied by battle.c where each rule acts.
 */
#include "wnlb.h"

/* the index of the chateau in (row, col) among the scenario's chateaux (s->cdp), -1 none */
int wnlb_chateau_at(const wnlb_state *s, int row, int col) {
    if (row < 0 || col < 0) return -1;
    for (size_t i = 0; i < s->sc->n_chateaux && i < WNLB_MAX_CHATEAUX; i++)
        if (s->sc->chateaux[i].row == row && s->sc->chateaux[i].col == col) return (int)i;
    return -1;
}
