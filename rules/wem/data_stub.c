/* data_stub.c - empty scenarios until the data files and their parser (data.c) land */
#include <string.h>
#include "wem.h"
static wem_scenario s_sc[3];
static const char *const s_n[] = {"full", "short", "medium"};
const wem_scenario *wem_scenario_get(const char *name) {
    for (int i = 0; name && i < 3; i++)
        if (strcmp(name, s_n[i]) == 0) {
            wem_scenario *sc = &s_sc[i];
            strcpy(sc->name, s_n[i]);
            sc->last_turn = i == 0 ? 19 : i == 1 ? 7 : 14;
            sc->prussians = i != 1;
            sc->max_seats = i == 1 ? 2 : 3;
            sc->width = 20000, sc->height = 13600, sc->fold_x = 10000;
            return sc;
        }
    return NULL;
}
const char *wem_data_text(const char *scenario, size_t *len) {
    if (!wem_scenario_get(scenario)) return NULL;
    *len = strlen(scenario);
    return scenario;
}
const char *wem_data_name(size_t i) { return i < 3 ? s_n[i] : NULL; }
int wem_data_parse(const char *text, size_t len, wem_scenario *sc, char *msg, size_t cap) {
    (void)text, (void)len, (void)sc, (void)msg, (void)cap;
    return -1;
}
int32_t wem_param_get(const wem_scenario *sc, const char *name, int32_t dflt) {
    for (size_t i = 0; i < sc->n_params; i++)
        if (strcmp(sc->params[i].name, name) == 0) return sc->params[i].value;
    return dflt;
}
wem_poly wem_area_poly(const wem_scenario *sc, const wem_area_def *a) {
    wem_poly p = {a->n, &sc->verts[a->first]};
    return p;
}
wem_line wem_line_shape(const wem_scenario *sc, const wem_line_def *l) {
    wem_line x = {l->n, l->hw, &sc->verts[l->first]};
    return x;
}
