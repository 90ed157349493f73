/*
 * optional.c - Optional Rules [16.0] of Napoleonic 20 (Waterloo 20 edition),
 * each used only when its game option is chosen (s->opts, N20_OPT_*):
 * artillery support [16.3], cavalry penetration [16.2], fatigue [16.8],
 * variable weather [16.10], additional rally locations [16.4].
 * The hooks in the standard-rules files call the functions here.
 */
#include <string.h>

#include "n20.h"

/* ---- [16.3] Artillery Support ------------------------------------------------ */

static int s_declared_against(const n20_state *s, int u) {
    for (int i = 0; i < s->nbattles; i++)
        for (int j = 0; j < s->b[i].ndef; j++)
            if (s->b[i].def[j] == u) return 1;
    return 0;
}

/* [16.3.1] +1 for each friendly Artillery unit, not itself the target of a declared attack,
 * whose ZOC covers defending unit d's hex (rulings R-16.3.1-count) */
int n20_art_support(const n20_state *s, int d) {
    if (!(s->opts & N20_OPT_ART_SUPPORT) || s->u[d].where != N20_U_MAP) return 0;
    int side = n20_side_of(s, d), n = 0;
    for (int a = 0; a < s->sc->nunits; a++) {
        if (a == d || s->sc->units[a].type != N20_ART || n20_side_of(s, a) != side) continue;
        if (s_declared_against(s, a)) continue;
        if (n20_exerts_zoc(s, a, s->u[d].hex)) n++;
    }
    return n;
}

/* [16.3.2] Artillery unit a may attack enemy unit e by Bombardment: the two hexes touch
 * across a Major River (or other prohibited) hexside without bridge or ford */
int n20_bombard_pair(const n20_state *s, int a, int e) {
    if (!(s->opts & N20_OPT_ART_SUPPORT)) return 0;
    if (s->sc->units[a].type != N20_ART || s->u[a].where != N20_U_MAP || s->u[e].where != N20_U_MAP)
        return 0;
    int d = n20_dir(s->sc, s->u[a].hex, s->u[e].hex);
    return d >= 0 && n20_side_blocked(s->sc, n20_weather(s), s->u[a].hex, d);
}

/* attacker a of battle b bombards: it is across a prohibited hexside from a defender */
int n20_bombards(const n20_state *s, const n20_battle *b, int a) {
    if (!(s->opts & N20_OPT_ART_SUPPORT) || b->countercharge) return 0;
    int is_att = -1;
    for (int j = 0; j < b->natt; j++)
        if (b->att[j] == a) is_att = j;
    if (is_att < 0) return 0;
    /* once the die is rolled the defenders may be gone: use what was true at the roll */
    if (s->f.active && s->f.bomb_known && b == &s->b[s->f.battle]) return (s->f.bombard >> is_att) & 1;
    for (int j = 0; j < b->ndef; j++)
        if (n20_bombard_pair(s, a, b->def[j])) return 1;
    return 0;
}
