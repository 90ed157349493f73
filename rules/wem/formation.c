/* formation.c - [Formations] (not refereed yet: every unit its own Formation) */
#include <string.h>
#include "wem.h"
void wem_formations_find(const wem_state *s, wem_formations *f) {
    memset(f, 0, sizeof *f);
    f->n = 0;
    for (size_t i = 0; i < WEM_MAX_PIECES; i++) f->of[i] = -1;
    for (size_t i = 0; i < s->sc->n_units; i++) {
        if (s->units[i].status != WEM_ON) continue;
        f->width[f->n] = f->depth[f->n] = 1;
        f->of[i] = f->n++;
    }
}
int wem_formation_units(const wem_formations *f, int fmn, int16_t *out) {
    int n = 0;
    for (int i = 0; i < WEM_MAX_PIECES; i++)
        if (f->of[i] == fmn) out[n++] = (int16_t)i;
    return n;
}
