/* hello.c - the rulesets' scenarios and options for hello (see hello.h). */
#include "hello.h"

#include <stdlib.h>

#include "log.h"

static void *s_alloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) fatal("out of memory");
    return p;
}

static Berthier__V1__ScenarioInfo *s_scenario(const brt_ruleset *rs, const char *name, unsigned min_seats) {
    Berthier__V1__ScenarioInfo *sc = s_alloc(1, sizeof *sc);
    berthier__v1__scenario_info__init(sc);
    sc->name = (char *)name;
    const char *names[BRT_MAX_SEATS] = {0};
    int max = rs->scenario_seats(name, names, BRT_MAX_SEATS);
    if (max < 0) max = 0;
    if (max > BRT_MAX_SEATS) max = BRT_MAX_SEATS;
    sc->min_seats = min_seats;
    sc->max_seats = (uint32_t)max;
    sc->seat_names = s_alloc((size_t)max, sizeof(char *));
    for (int i = 0; i < max; i++) sc->seat_names[i] = (char *)(names[i] ? names[i] : "");
    sc->n_seat_names = (size_t)max;
    size_t nopt = 0;
    while (rs->scenario_option && rs->scenario_option(name, nopt)) nopt++;
    sc->options = s_alloc(nopt, sizeof(char *));
    for (size_t i = 0; i < nopt; i++) sc->options[i] = (char *)rs->scenario_option(name, i);
    sc->n_options = nopt;
    return sc;
}

void hello_info_fill(hello_info *self, const brt_ruleset *const *all) {
    size_t n = 0;
    while (all[n]) n++;
    self->rulesets = s_alloc(n, sizeof *self->rulesets);
    self->n = n;
    for (size_t i = 0; i < n; i++) {
        const brt_ruleset *rs = all[i];
        Berthier__V1__RulesetInfo *ri = s_alloc(1, sizeof *ri);
        berthier__v1__ruleset_info__init(ri);
        ri->id = (char *)rs->id;
        ri->version = (char *)rs->version;
        size_t nsc = 0;
        while (rs->scenario_name && rs->scenario_name(nsc, NULL)) nsc++;
        ri->scenarios = s_alloc(nsc, sizeof *ri->scenarios);
        for (size_t k = 0; k < nsc; k++) {
            unsigned min_seats = 2;
            const char *name = rs->scenario_name(k, &min_seats);
            ri->scenarios[k] = s_scenario(rs, name, min_seats);
        }
        ri->n_scenarios = nsc;
        self->rulesets[i] = ri;
    }
}

void hello_info_free(hello_info *self) {
    for (size_t i = 0; i < self->n; i++) {
        Berthier__V1__RulesetInfo *ri = self->rulesets[i];
        for (size_t k = 0; k < ri->n_scenarios; k++) {
            free(ri->scenarios[k]->seat_names);
            free(ri->scenarios[k]->options);
            free(ri->scenarios[k]);
        }
        free(ri->scenarios);
        free(ri);
    }
    free(self->rulesets);
    self->rulesets = NULL;
    self->n = 0;
}
