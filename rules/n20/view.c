/*
 * view.c - the n20.v1.View of the state (no hidden information in the
 * standard rules: both seats see everything) and its text rendering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"
#include "n20/v1/n20.pb-c.h"

static const char *s_status(int w) {
    static const char *n[] = {"pool", "map", "reinforcement", "broken", "eliminated", "variable",
                              "garrison" /* [9.4.4] */};
    return w >= 0 && w < 7 ? n[w] : "?";
}
static const char *s_type(int t) {
    static const char *n[] = {"infantry", "cavalry", "artillery", "leader", "dummy"};
    return t >= 0 && t < 5 ? n[t] : "?";
}

/* [16.1] the hidden enemy units on the map in hex order (never in unit order, which would
 * tell who they are); returns the count */
static int s_hidden_order(const n20_state *s, int seat, int *out) {
    int n = 0;
    if (seat == BRT_VIEW_ALL || !n20_fog(s)) return 0;
    for (int h = 0; h < N20_HEXES; h++)
        for (int i = 0; i < s->sc->nunits; i++)
            if (s->u[i].where == N20_U_MAP && s->u[i].hex == h && n20_fog_hidden_from(s, i, seat)) out[n++] = i;
    return n;
}

int n20_view(const n20_state *s, int seat, brt_buf *out) {
    const n20_scenario *sc = s->sc;
    char handles[N20_MAX_UNITS][N20_NAME], ggh[N20_NAME];
    int hid[N20_MAX_UNITS];
    N20__V1__View v = N20__V1__VIEW__INIT;
    N20__V1__UnitView uv[N20_MAX_UNITS], *up[N20_MAX_UNITS];
    uint32_t disc[N20_MAX_CARDS];
    char ea_buf[N20_MAX_UNITS][2];
    brt_pending p;
    n20_pending(s, &p);
    v.turn = s->turn;
    v.time = (char *)sc->turns[s->turn < N20_MAX_TURNS ? s->turn : 0].label;
    v.night = n20_is_night(s);
    v.weather = (char *)n20_weather_name(s->opts & N20_OPT_VAR_WEATHER ? n20_weather(s)
                                         : sc->turns[s->turn < N20_MAX_TURNS ? s->turn : 0].weather);
    v.phasing = (char *)n20_side_name(s->phasing);
    v.phase = p.kind;
    v.morale_french = s->morale[0];
    v.morale_allied = s->morale[1];
    size_t nu = 0;
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if ((d->type == N20_LEADER && !(s->opts & N20_OPT_LEADERS)) || d->place == N20_P_VARIANT || !n20_unit_in_game(s, i)) continue;
        if (n20_fog_hidden_from(s, i, seat)) continue; /* [16.1] listed below as "a unit" */
        if (d->type == N20_DUMMY && !n20_fog(s)) continue; /* [16.1.3] only with fog-of-war */
        n20__v1__unit_view__init(&uv[nu]);
        uv[nu].id = (char *)d->id;
        uv[nu].side = (char *)n20_side_name(d->side);
        uv[nu].army = (char *)n20_army_name(d->army);
        uv[nu].type = (char *)s_type(d->type);
        uv[nu].strength = d->strength;
        uv[nu].allowance = d->allowance;
        uv[nu].status = (char *)s_status(s->u[i].where);
        uv[nu].hex = s->u[i].where == N20_U_MAP || s->u[i].where == N20_U_GARRISON ? n20_xxyy(s->u[i].hex) : 0;
        uv[nu].routed = s->u[i].routed != 0;
        uv[nu].in_contact = (s->u[i].flags & N20_UF_CONTACT) != 0;
        uv[nu].moved = (s->u[i].flags & N20_UF_MOVED) != 0;
        uv[nu].arrival_turn = s->u[i].arrive;
        uv[nu].fatigue = (uint32_t)n20_fatigue(s, i);
        uv[nu].hidden = n20_fog(s) && s->u[i].hidden && s->u[i].where == N20_U_MAP;
        uv[nu].inactive = n20_wg_inactive(s, i) != 0; /* Wagram [6.11] */
        char *ea = (char *)&ea_buf[nu][0];
        ea[0] = d->alt_area && (s->u[i].where == N20_U_REINF || s->u[i].where == N20_U_VARIABLE) ? n20_wg_entry_area(s, i) : 0;
        ea[1] = 0;
        uv[nu].entry_area = ea;
        up[nu] = &uv[nu];
        nu++;
    }
    int nh = s_hidden_order(s, seat, hid);
    for (int k = 0; k < nh; k++) {
        int i = hid[k];
        n20__v1__unit_view__init(&uv[nu]);
        uv[nu].id = (char *)n20_uid_seat(s, i, seat, handles[k]);
        uv[nu].side = (char *)n20_side_name(sc->units[i].side);
        uv[nu].army = (char *)"";
        uv[nu].type = (char *)"hidden";
        uv[nu].status = (char *)s_status(N20_U_MAP);
        uv[nu].hex = n20_xxyy(s->u[i].hex);
        uv[nu].routed = s->u[i].routed != 0;
        uv[nu].in_contact = (s->u[i].flags & N20_UF_CONTACT) != 0;
        uv[nu].moved = (s->u[i].flags & N20_UF_MOVED) != 0;
        uv[nu].hidden = 1;
        up[nu] = &uv[nu];
        nu++;
    }
    v.n_units = nu;
    v.units = up;
    v.draw_pile = s->ndraw;
    for (int i = 0; i < s->ndiscard; i++) disc[i] = sc->cards[s->discard[i]].number;
    v.n_discard = s->ndiscard;
    v.discard = disc;
    v.good_ground_unit = s->gg_unit != 0xff ? (char *)n20_uid_seat(s, s->gg_unit, seat, ggh) : (char *)"";
    v.good_ground_immune = s->gg_immune;
    v.pending = p.prompt;
    v.crossings_secured = sc->dn.nincomplete && s->dn.secured; /* Wagram [6.10.1] */
    v.floridsdorf = (char *)n20_wg_pontoon_name(s);          /* Wagram [16.10] */
    uint32_t kept[2][N20_MAX_CARDS]; /* [5.0] kept cards lie face up: both seats see them */
    size_t nkept[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < sc->ncards; i++)
            if (s->kept[side] & (1u << i)) kept[side][nkept[side]++] = sc->cards[i].number;
    v.n_kept_french = nkept[0];
    v.kept_french = kept[0];
    v.n_kept_allied = nkept[1];
    v.kept_allied = kept[1];
    N20__V1__AeView ae = N20__V1__AE_VIEW__INIT;
    char aes[4][24];
    if (n20_ae(s)) { /* A-E [3.0] [6.10] [9.10]: public */
        n20_ae_view(s, aes, &ae.bridgehead, &ae.bridgehead_hex, &ae.pontoon_hex, &ae.objective,
                    &ae.bridgehead2, &ae.objective2);
        ae.site = aes[0];
        ae.pontoon = aes[1];
        ae.site2 = aes[2];
        ae.pontoon2 = aes[3];
        v.aspern_essling = &ae;
    }
    size_t len = n20__v1__view__get_packed_size(&v);
    uint8_t *b = malloc(len ? len : 1);
    if (!b) return -1;
    n20__v1__view__pack(&v, b);
    int rc = buf_append(out, b, len);
    free(b);
    return rc;
}

int n20_view_text(const n20_state *s, int seat, brt_buf *out) {
    const n20_scenario *sc = s->sc;
    int hid[N20_MAX_UNITS];
    brt_pending p;
    n20_pending(s, &p);
    buf_printf(out, "Turn %u (%s)%s, weather %s; %s player turn; decision: %s [%s] %s\n", s->turn,
               sc->turns[s->turn < N20_MAX_TURNS ? s->turn : 0].label, n20_is_night(s) ? " NIGHT" : "",
               n20_weather_name(s->opts & N20_OPT_VAR_WEATHER ? n20_weather(s)
                                : sc->turns[s->turn < N20_MAX_TURNS ? s->turn : 0].weather),
               n20_side_name(s->phasing), p.kind, p.rule, p.prompt);
    buf_printf(out, "Morale: French %d, Allied %d; draw pile %u cards\n", s->morale[0], s->morale[1], s->ndraw);
    n20_ae_view_text(s, out); /* A-E [3.0] [6.10] [9.10] */
    if (sc->dn.nincomplete) /* Wagram [6.10.1] */
        buf_printf(out, "Lobau bridges: %s\n", s->dn.secured ? "Crossings Secured" : "incomplete");
    if (*n20_wg_pontoon_name(s)) buf_printf(out, "Floridsdorf pontoon: %s\n", n20_wg_pontoon_name(s)); /* [16.10] */
    if (s->phase == N20_PH_WG_DEPLOY) { /* Wagram [3.0] the units still to deploy */
        buf_append_str(out, "To deploy on the Russbach Heights:");
        for (int i = 0; i < sc->nunits; i++)
            if (n20_wg_deploy_unit(s, i) && s->u[i].where == N20_U_OUT) buf_printf(out, " %s", sc->units[i].id);
        buf_append_str(out, "\n");
    }
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < sc->ncards; i++)
            if (s->kept[side] & (1u << i))
                buf_printf(out, "  %s keeps Event card #%u %s\n", n20_side_name(side), sc->cards[i].number,
                           sc->cards[i].title);
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        if ((d->type == N20_LEADER && !(s->opts & N20_OPT_LEADERS)) || d->place == N20_P_VARIANT || !n20_unit_in_game(s, i)) continue;
        if (n20_fog_hidden_from(s, i, seat)) continue;
        if (d->type == N20_DUMMY && !n20_fog(s)) continue;
        buf_printf(out, "  %-11s %-8s %-9s %u-%u %-13s", d->id, n20_army_name(d->army), s_type(d->type),
                   d->strength, d->allowance, s_status(s->u[i].where));
        if (s->u[i].where == N20_U_MAP) buf_printf(out, " %04u", n20_xxyy(s->u[i].hex));
        if (s->u[i].where == N20_U_REINF) buf_printf(out, " turn %u area %c", s->u[i].arrive, n20_wg_entry_area(s, i));
        if (n20_wg_inactive(s, i)) buf_append_str(out, " INACTIVE"); /* Wagram [6.11] */
        if (s->u[i].routed) buf_append_str(out, " ROUTED");
        if (s->u[i].flags & N20_UF_CONTACT) buf_append_str(out, " IN-CONTACT");
        if (n20_fatigue(s, i)) buf_printf(out, " %s", n20_fatigue_name(n20_fatigue(s, i)));
        if (s->gg_unit == i) buf_append_str(out, s->gg_immune ? " GOOD-GROUND(immune)" : " GOOD-GROUND(+1)");
        if (n20_fog(s) && s->u[i].hidden && s->u[i].where == N20_U_MAP) buf_append_str(out, " HIDDEN");
        buf_append_str(out, "\n");
    }
    int nh = s_hidden_order(s, seat, hid);
    for (int k = 0; k < nh; k++) { /* [16.1] a face-down enemy unit: its side and hex only */
        int i = hid[k];
        buf_printf(out, "  @%04u       %-8s a hidden unit map           %04u", n20_xxyy(s->u[i].hex),
                   n20_side_name(sc->units[i].side), n20_xxyy(s->u[i].hex));
        if (s->u[i].routed) buf_append_str(out, " ROUTED");
        if (s->u[i].flags & N20_UF_CONTACT) buf_append_str(out, " IN-CONTACT");
        if (s->gg_unit == i) buf_append_str(out, s->gg_immune ? " GOOD-GROUND(immune)" : " GOOD-GROUND(+1)");
        buf_append_str(out, "\n");
    }
    return 0;
}
