/*
 * state.c - where things are: units and commanders on the squares [8.2] [12.0], and the
 * places whose ownership follows the last side to enter them [13.2] [13.3].
 */
#include <string.h>

#include "wnlb.h"

int wnlb_unit_at(const wnlb_state *s, int row, int col) {
    if (row < 0 || col < 0) return -1;
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (s->units[i].row == row && s->units[i].col == col && !s->units[i].eliminated) return (int)i;
    return -1;
}

/* a unit id, or NAPOLEON / WELLINGTON for the commanders; -1 unknown */
int wnlb_unit_find(const wnlb_state *s, const char *id) {
    if (!id || !id[0]) return -1;
    if (!strcmp(id, "NAPOLEON")) return WNLB_CMD0;
    if (!strcmp(id, "WELLINGTON")) return WNLB_CMD1;
    for (size_t i = 0; i < s->sc->n_units; i++)
        if (!strcmp(s->sc->units[i].id, id)) return (int)i;
    return -1;
}

/* the text name of a unit index or commander code ("" for none) */
const char *wnlb_unit_name(const wnlb_state *s, int u) {
    if (u == WNLB_CMD0) return "NAPOLEON";
    if (u == WNLB_CMD1) return "WELLINGTON";
    if (u < 0 || (size_t)u >= s->sc->n_units) return "";
    return s->sc->units[u].id;
}

/* [13.2] [13.3] "to occupy a Square it is sufficient to be the last player who has entered it" */
static void s_claim(wnlb_state *s, int side, int row, int col) {
    for (size_t i = 0; i < s->sc->n_vp; i++)
        if (s->sc->vp[i].row == row && s->sc->vp[i].col == col) s->vp_owner[i] = (uint8_t)side;
}

/* a combat unit enters a square (move, retreat, advance, entry): its square and the VP owner */
void wnlb_place(wnlb_state *s, int u, int row, int col) {
    s->units[u].row = (int8_t)row;
    s->units[u].col = (int8_t)col;
    if (row >= 0) s_claim(s, wnlb_side_of_army(s->sc->units[u].army), row, col);
}
