/*
 * special.c - optional rule [16.7] Special Troop Units, as far as the
 * Waterloo 20 counters use them (docs/n20-data.md): [16.7.1] Elite Elan, and
 * the data flags `unreliable` [16.7.4] and `reluctant` [16.7.5]. Guard [12.3]
 * and Elite rout/rally modifiers [9.6.2.1] [10.0] are standard rules.
 */
#include "n20.h"

int n20_special_step_d(n20_state *s, const uint8_t *units, int n, int attacking, int reserve, brt_dice *dice,
                       n20_out *out) {
    int delta = 0;
    for (int i = 0; i < n && !s->over; i++) {
        int u = units[i];
        const n20_unit_def *d = &s->sc->units[u];
        int side = d->side;
        int us[1] = {u};
        if (attacking && (d->flags & N20_FLAG_ELITE) && n20_ed_has(s, N20_EDF_ELAN)) { /* v3: no Elan */
            /* [16.7.1] only when attacking; +1 for each criterion */
            uint32_t die = n20_roll(s, dice, us, 1, "16.7.1 elan"); /* [16.1] seen as the unit is */
            int m = (int)die;
            if (d->flags & N20_FLAG_GUARD) m++;
            if (s->u[u].flags & N20_UF_COMMITTED) m++;
            if (reserve) m++;
            if (s->morale[0] == 1 || s->morale[1] == 1) m++;
            int bonus = m >= 6;
            int v[3] = {(int)die, m, bonus};
            n20_event(out, s, "elan", us, 1, NULL, 0, v, 3, "[16.7.1] " N20_U(0) " Elan roll %u (modified %d): %s",
                      die, m, bonus ? "Elan! +1 Combat Strength" : "no effect");
            delta += bonus;
        }
        if (d->flags & N20_FLAG_UNRELIABLE) {
            /* [16.7.4] attacking or defending; -1 if the side's Morale is below the opponent's */
            uint32_t die = n20_roll(s, dice, us, 1, "16.7.4 unreliable");
            int m = (int)die - (s->morale[side] < s->morale[1 - side] ? 1 : 0);
            int wavers = m <= 1;
            int v[3] = {(int)die, m, wavers};
            n20_event(out, s, "unreliable", us, 1, NULL, 0, v, 3, "[16.7.4] " N20_U(0) " roll %u (modified %d): %s",
                      die, m, wavers ? "Wavers, -1 Combat Strength" : "Steady");
            delta -= wavers;
        }
    }
    return delta;
}

int n20_reluctant_lost(n20_state *s, int u, brt_dice *dice, n20_out *out) {
    if (!(s->opts & N20_OPT_SPECIAL_UNITS) || !(s->sc->units[u].flags & N20_FLAG_RELUCTANT) ||
        !n20_ed_has(s, N20_EDF_RELUCTANT)) /* v3: no Reluctant Troops */
        return 0;
    /* [16.7.5] a roll on the Controlled Advance Table, for this unit alone */
    int us[1] = {u};
    uint32_t die = n20_roll(s, dice, us, 1, "16.7.5 reluctant advance");
    int lost = s->sc->adv_lost[die - 1];
    int v[2] = {(int)die, lost};
    n20_event(out, s, "reluctant", us, 1, NULL, 0, v, 2, "[16.7.5] " N20_U(0) " Controlled Advance roll %u: %s",
              die, lost ? "Lost: it cannot advance" : "Kept");
    if (lost) s->u[u].flags |= N20_UF_EXHAUSTED; /* it may not try again in this battle */
    return lost;
}

/* ---- [16.7.2] Light Infantry, [16.7.3] Cossacks (v3 [16.7.1] [16.7.2]): flag `light` on an
 * Infantry or Cavalry unit, with option special-units. The same rules in both editions. */
static int s_light(const n20_state *s, int u, int type) {
    return (s->opts & N20_OPT_SPECIAL_UNITS) && (s->sc->units[u].flags & N20_FLAG_LIGHT) &&
           s->sc->units[u].type == type;
}

int n20_light_rugged(const n20_state *s, int u, int *cost) {
    /* [6.5] exception: Light Infantry spend one Movement Point, Cossacks two, and go on */
    if (s_light(s, u, N20_INF)) return 1;
    if (!s_light(s, u, N20_CAV)) return 0;
    *cost += 1;
    return 1;
}

/* [16.7.3] "If it enters a Rugged hex when it has only one Movement Point, it can enter and must
 * stop as usual": a Cossack's step into a Rugged hex (not by road) may overrun its allowance by one */
int n20_light_one_mp(const n20_state *s, int u, uint16_t to, int road) {
    return s_light(s, u, N20_CAV) && !road && s->sc->t_stop[s->sc->terrain[to]];
}

/* Light Infantry Disengage "exactly as per [8.2]" (so not from an enemy Cavalry ZOC) */
int n20_light_disengages(const n20_state *s, int u) { return s_light(s, u, N20_INF); }

/* [16.7.3] Cossacks may Disengage from the ZOCs of enemy Cavalry units (exception to [8.2.2]) */
int n20_light_unpinned(const n20_state *s, int u) { return s_light(s, u, N20_CAV); }

/* Light Infantry only Disengage (they are not Cavalry [8.1]); Cossacks never Countercharge
 * or Penetrate [16.7.3] */
int n20_light_no_charge(const n20_state *s, int u) { return s_light(s, u, N20_INF) || s_light(s, u, N20_CAV); }
