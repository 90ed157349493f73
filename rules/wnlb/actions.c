/*
 * actions.c - [11.0] the cards played for their Action in a player round: Artillery Fire [11.1],
 * Rally [11.6], Napoleon's Health [11.7] (Cavalry Charge [11.4] [11.5] goes to battle.c; Command
 * Benefit [11.2] and Elite Bonus [11.3] are battle cards only), and the other side's Artillery
 * Fire window during the active side's round (PH_FIRE, ruling R-wnlb-11.1-windows).
 */
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

static const char *const s_act_names[WNLB_ACT_COUNT] = {
    "no action", "Artillery Fire", "Command Benefit", "Elite Bonus", "Cavalry Charge",
    "Enemy Cavalry must Charge", "Rally", "Napoleon's Health"};

static int s_on_board(const wnlb_state *s, int u) {
    return u >= 0 && (size_t)u < s->sc->n_units && s->units[u].row >= 0 && !s->units[u].eliminated;
}

static int s_side_of_unit(const wnlb_state *s, int u) { return wnlb_side_of_army(s->sc->units[u].army); }

/* [11.1] "The enemy unit frontally adjacent to that firing unit": the square its front faces */
int wnlb_fire_target(const wnlb_state *s, int u) {
    if (!s_on_board(s, u)) return -1;
    int r = s->units[u].row, c = s->units[u].col;
    wnlb_step(s->units[u].facing, &r, &c);
    if (!wnlb_on_board(s, r, c)) return -1;
    int t = wnlb_unit_at(s, r, c);
    if (t < 0 || s_side_of_unit(s, t) == s_side_of_unit(s, u)) return -1;
    return t;
}

static int s_in_chateau(const wnlb_state *s, int u) {
    return s->sc->terrain[s->units[u].row][s->units[u].col] == WNLB_CHATEAU;
}

int wnlb_fire_targets(const wnlb_state *s, int u, int *targets) {
    if (!s_on_board(s, u)) return 0;
    /* [10.0] an infantry unit inside a chateau "is considered to be facing frontally to all sides" */
    int all = s->sc->units[u].type == WNLB_INF && s_in_chateau(s, u), n = 0;
    for (int dir = 0; dir < 4; dir++) {
        if (!all && dir != s->units[u].facing) continue;
        int r = s->units[u].row, c = s->units[u].col;
        wnlb_step(dir, &r, &c);
        int t = wnlb_on_board(s, r, c) ? wnlb_unit_at(s, r, c) : -1;
        if (t >= 0 && s_side_of_unit(s, t) != s_side_of_unit(s, u)) targets[n++] = t;
    }
    return n;
}

int wnlb_fire_aim(const wnlb_state *s, int u, int named, int only_att, brt_reject *err) {
    int all[4], hit[4], n = wnlb_fire_targets(s, u, all), k = 0, in_chateau = -1, listed = 0;
    for (int i = 0; i < n; i++) {
        int is_att = 0;
        for (int j = 0; j < s->battle.n_att; j++) is_att |= s->battle.att[j] == all[i];
        if (only_att && !is_att) continue;
        listed |= all[i] == named;
        if (s_in_chateau(s, all[i])) in_chateau = all[i];
        else hit[k++] = all[i];
    }
    const char *id = s->sc->units[u].id;
    if (named >= 0 && !listed)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "%s is not %s frontally adjacent to %s",
                              wnlb_unit_name(s, named), only_att ? "an attacker" : "an enemy unit", id);
    if ((named >= 0 && s_in_chateau(s, named)) || (named < 0 && !k && in_chateau >= 0))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "10.0",
                              "%s is inside a chateau: Artillery Fire has no effect on it (R-wnlb-11.1-chateau)",
                              s->sc->units[named >= 0 ? named : in_chateau].id);
    if (!k)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "no %s is frontally adjacent to %s",
                              only_att ? "attacker of this battle" : "enemy unit", id);
    if (named < 0 && k > 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1",
                              "several enemy units are frontally adjacent to %s (inside a chateau [10.0]): name the "
                              "one it fires at", id);
    if (named >= 0 && k == 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1",
                              "%s fires at the one enemy unit frontally adjacent to it: name no target", id);
    return named >= 0 ? named : hit[0];
}

/* every check on a firing unit of army [11.1] [9.5] [10.0] and its target (named: -1 none); -1
 * with the rule it breaks */
static int s_fire_check(const wnlb_state *s, int army, int u, int named, brt_reject *err) {
    if (u < 0 || (size_t)u >= s->sc->n_units || !s_on_board(s, u))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "the firing unit must be one of your units on the board");
    const wnlb_unit_def *d = &s->sc->units[u];
    if (d->army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "%s is not a unit of the card's army", d->id);
    if (d->type != WNLB_INF)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "%s is cavalry: only infantry fires artillery", d->id);
    if (s->units[u].disordered)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "%s is Disordered: it may not fire artillery", d->id);
    return wnlb_fire_aim(s, u, named, 0, err) < 0 ? -1 : 0;
}

/* the targets u of army may fire at now, in out (at most 4): several only inside a chateau; count */
static int s_fire_choices(const wnlb_state *s, int army, int u, int *out) {
    brt_reject tmp;
    memset(&tmp, 0, sizeof tmp);
    if (s_fire_check(s, army, u, -1, &tmp) == 0) {
        out[0] = -1; /* the one target, not named */
        return 1;
    }
    int all[4], n = wnlb_fire_targets(s, u, all), k = 0;
    for (int i = 0; i < n; i++)
        if (s_fire_check(s, army, u, all[i], &tmp) == 0) out[k++] = all[i];
    return k;
}

int wnlb_fire_unit_ok(const wnlb_state *s, int army, int u) {
    int t[4];
    return s_fire_choices(s, army, u, t) > 0;
}

/* card ci (already used): u fires, the enemy named (or the one it faces) is Disordered [11.1] [9.5] */
static void s_fire(wnlb_state *s, int ci, int u, int named, const char *why, brt_events *ev) {
    brt_reject tmp;
    int t = wnlb_fire_aim(s, u, named, 0, &tmp);
    int id = s->sc->cards[ci].id;
    char text[128];
    snprintf(text, sizeof text, "%s: %s fires at %s", why, s->sc->units[u].id, s->sc->units[t].id);
    wnlb_event(ev, BRT_SEATS_ALL, "fire", s->sc->units[u].army, s->sc->units[u].id, s->units[t].row, s->units[t].col,
               t, &id, 1, text);
    wnlb_disorder(s, t, ev);
}

/* ---- [11.6] Rally ---- */

static int s_enemy_adjacent(const wnlb_state *s, int u) {
    for (int dir = 0; dir < 4; dir++) {
        int r = s->units[u].row, c = s->units[u].col;
        wnlb_step(dir, &r, &c);
        int t = wnlb_on_board(s, r, c) ? wnlb_unit_at(s, r, c) : -1;
        if (t >= 0 && s_side_of_unit(s, t) != s_side_of_unit(s, u)) return 1;
    }
    return 0;
}

/* one unit the card of army may rally [11.6]; -1 with the rule */
static int s_rally_unit(const wnlb_state *s, int army, int u, brt_reject *err) {
    if (u < 0 || (size_t)u >= s->sc->n_units || !s_on_board(s, u))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "rally a unit of yours on the board");
    const wnlb_unit_def *d = &s->sc->units[u];
    if (d->army != army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "%s is not a unit of the card's army", d->id);
    if (s->units[u].moved || s->units[u].attacked)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6",
                              "%s has moved or attacked this player round: it may not be Rallied", d->id);
    return 0;
}

/* R-wnlb-11.6-rally-mode: the player chooses one of the two [11.6] bullets. `rally` (flag 0): the
 * Disorder of the one or two units named is removed, each of them Disordered; `rally-flip` (flag 1):
 * the one unit named, Reduced, is flipped to full strength (a Disordered one stays Disordered) */
static int s_rally_check(const wnlb_state *s, int army, const wnlb_order *o, brt_reject *err) {
    if (o->flag && o->n_units != 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "Rally flips one (1) Reduced unit: name one unit");
    if (o->n_units < 1 || o->n_units > 2)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "Rally names one or two units");
    for (int i = 0; i < o->n_units; i++)
        if (s_rally_unit(s, army, o->units[i], err)) return -1;
    if (!o->flag) {
        if (o->n_units == 2 && o->units[0] == o->units[1])
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "name two different units");
        for (int i = 0; i < o->n_units; i++)
            if (!s->units[o->units[i]].disordered)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6",
                                      "%s is not Disordered: Rally removes the Disorder markers of two units, or "
                                      "flips one Reduced unit (rally-flip)",
                                      s->sc->units[o->units[i]].id);
        return 0;
    }
    int u = o->units[0];
    if (!s->units[u].reduced)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "%s is not Reduced: it has nothing to flip", s->sc->units[u].id);
    if (s_enemy_adjacent(s, u))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6",
                              "%s is adjacent to an enemy unit (by a square side): it may not be flipped",
                              s->sc->units[u].id);
    return 0;
}

static void s_rally(wnlb_state *s, const wnlb_order *o, brt_events *ev) {
    for (int i = 0; i < o->n_units; i++) {
        wnlb_unit *x = &s->units[o->units[i]];
        int flip = o->flag != 0;
        if (flip) x->reduced = 0;
        else x->disordered = 0;
        x->rallied = 1; /* [11.6] the Rally marker: no move, no attack this round */
        wnlb_event(ev, BRT_SEATS_ALL, "rally", s->sc->units[o->units[i]].army, s->sc->units[o->units[i]].id, x->row,
                   x->col, flip, NULL, 0,
                   flip ? "[11.6] Rallied: flipped to its full strength side" : "[11.6] Rallied: no longer Disordered");
    }
}

/* ---- [11.7] Napoleon's Health ---- */

static void s_health(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    int hand[WNLB_MAX_CARDS], n = 0;
    for (size_t i = 0; i < s->sc->n_cards; i++)
        if (s->sc->cards[i].army == WNLB_FR && s->card_loc[i] == WNLB_LOC_HAND) hand[n++] = (int)i;
    for (int i = 1; i < n; i++) /* by card id: an index into the hand means nothing to the Allies */
        for (int j = i; j > 0 && s->sc->cards[hand[j]].id < s->sc->cards[hand[j - 1]].id; j--) {
            int x = hand[j];
            hand[j] = hand[j - 1];
            hand[j - 1] = x;
        }
    int f = wnlb_seat_of_army(s, WNLB_FR);
    int ids[2], k = 0;
    /* [11.7] "randomly draws two cards ... without seeing what they are": the rolls are the French
     * seat's only (indexes into its own hand) */
    for (; k < 2 && n > 0; k++) {
        uint32_t r = brt_dice_roll_seen(dice, (uint32_t)n, 1u << f, "11.7 Napoleon's Health: a card of the French hand");
        int pick = (int)((r - 1) % (uint32_t)n);
        ids[k] = s->sc->cards[hand[pick]].id;
        wnlb_card_use(s, hand[pick]);
        for (int j = pick; j + 1 < n; j++) hand[j] = hand[j + 1];
        n--;
    }
    wnlb_event(ev, 1u << f, "health", WNLB_FR, NULL, -1, -1, k, ids, k,
               "[11.7] Napoleon's Health: these cards of your hand go to the unused portion");
    char text[96];
    snprintf(text, sizeof text, "[11.7] Napoleon's Health: %d cards of the French hand go to the unused portion unseen", k);
    wnlb_event(ev, BRT_SEATS_ALL & ~(1u << f), "health", WNLB_FR, NULL, -1, -1, k, NULL, 0, text);
}

/* ---- a card played for its Action in the round [11.0] ---- */

static void s_played(const wnlb_state *s, int ci, brt_events *ev) {
    int id = s->sc->cards[ci].id;
    char text[96];
    snprintf(text, sizeof text, "[11.0] a card played for its Action: %s", s_act_names[s->sc->cards[ci].action]);
    wnlb_event(ev, BRT_SEATS_ALL, "played", s->round_army, NULL, -1, -1, WNLB_PURPOSE_ACTION, &id, 1, text);
}

int wnlb_action_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_dice *dice, brt_events *ev,
                      brt_reject *err) {
    const wnlb_card_def *c = &s->sc->cards[ci];
    if (c->action == WNLB_ACT_NONE || c->action >= WNLB_ACT_COUNT)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "card %d has no Action", c->id);
    if (o->action != c->action)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "6.0", "card %d's Action is %s", c->id, s_act_names[c->action]);
    switch (c->action) {
    case WNLB_ACT_COMMAND:
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.2",
                              "Command Benefit is played in a battle, with the battle cards");
    case WNLB_ACT_ELITE:
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.3",
                              "Elite Bonus is played in a battle, with the battle cards");
    case WNLB_ACT_CHARGE:
    case WNLB_ACT_ENEMY_CHARGE: return wnlb_charge_start(s, seat, o, ci, ev, err);
    case WNLB_ACT_ARTILLERY: {
        if (o->n_units != 1)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "Artillery Fire names one firing unit");
        if (s_fire_check(s, s->round_army, o->units[0], o->target, err)) return -1;
        s_played(s, ci, ev);
        /* the card is already used and counted (rounds.c) */
        s_fire(s, ci, o->units[0], o->target, "[11.1] Artillery Fire", ev);
        break;
    }
    case WNLB_ACT_RALLY:
        if (s_rally_check(s, s->round_army, o, err)) return -1;
        s_played(s, ci, ev);
        s_rally(s, o, ev);
        break;
    case WNLB_ACT_HEALTH:
        if (s->round_army != WNLB_BR) /* the card is the British/Allied deck's [11.7] */
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.7", "Napoleon's Health is a British/Allied action");
        s_played(s, ci, ev);
        s_health(s, dice, ev);
        break;
    default: return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.0", "an unknown Action");
    }
    wnlb_card_done(s, dice, ev); /* [9.0] one battle may follow an Action card */
    return 0;
}

/* the orders that play card ci for its Action now (one per distinct outcome) */
int wnlb_action_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out) {
    const wnlb_card_def *c = &s->sc->cards[ci];
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_PLAY;
    o.card = c->id;
    o.purpose = WNLB_PURPOSE_ACTION;
    o.action = c->action;
    int n = 0, army = s->round_army;
    brt_reject tmp;
    switch (c->action) {
    case WNLB_ACT_CHARGE:
    case WNLB_ACT_ENEMY_CHARGE: return wnlb_charge_legal(s, seat, ci, out);
    case WNLB_ACT_ARTILLERY:
        o.n_units = 1;
        for (size_t u = 0; u < s->sc->n_units; u++) {
            int t[4], k = s_fire_choices(s, army, (int)u, t);
            for (int i = 0; i < k; i++) {
                o.units[0] = (int)u;
                o.target = t[i];
                if (wnlb_order_encode(s, &o, out)) return -1;
                n++;
            }
        }
        return n;
    case WNLB_ACT_RALLY:
        for (size_t u = 0; u < s->sc->n_units; u++) {
            o.n_units = 1;
            o.units[0] = (int)u;
            for (o.flag = 0; o.flag < 2; o.flag++) { /* remove its Disorder, or flip it [11.6] */
                if (s_rally_check(s, army, &o, &tmp)) continue;
                if (wnlb_order_encode(s, &o, out)) return -1;
                n++;
            }
            o.flag = 0;
            o.n_units = 2;
            for (size_t v = u + 1; v < s->sc->n_units; v++) {
                o.units[1] = (int)v;
                if (s_rally_check(s, army, &o, &tmp)) continue;
                if (wnlb_order_encode(s, &o, out)) return -1;
                n++;
            }
        }
        return n;
    case WNLB_ACT_HEALTH:
        if (army != WNLB_BR) return 0;
        return wnlb_order_encode(s, &o, out) ? -1 : 1;
    default: return 0; /* [11.2] [11.3] battle cards only */
    }
}

/* ---- [11.1] the other side's Artillery Fire window (R-wnlb-11.1-windows) ---- */

static int s_fire_any(const wnlb_state *s, int army) {
    if (!wnlb_hand_count(s, army)) return 0;
    for (size_t u = 0; u < s->sc->n_units; u++)
        if (wnlb_fire_unit_ok(s, army, (int)u)) return 1;
    return 0;
}

/* The window opens for an army of the side not playing the round that holds any card (not only an
 * Artillery Fire card: the table would learn it holds one) and has a unit that may fire. */
void wnlb_fire_open(wnlb_state *s, int after) {
    int other = 1 - s->active_side;
    int armies[2], na = 0;
    if (other == WNLB_SIDE_FRENCH) armies[na++] = WNLB_FR;
    else {
        armies[na++] = WNLB_BR;
        if (s->sc->prussians) armies[na++] = WNLB_PR;
    }
    for (int i = 0; i < na; i++) {
        if (armies[i] <= after || !s_fire_any(s, armies[i])) continue;
        s->fire_army = (uint8_t)(armies[i] + 1);
        s->phase = WNLB_PH_FIRE;
        return;
    }
    s->fire_army = 0;
    s->phase = WNLB_PH_DECLARE;
}

int wnlb_fire_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                    brt_reject *err) {
    (void)seat, (void)dice;
    int army = s->fire_army - 1;
    if (o->kind != WNLB_O_FIRE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "fire an Artillery Fire card (fire ID UNIT), or fire none");
    if (o->flag || !o->card) {
        wnlb_fire_open(s, army); /* the next Allied army's window, or the battle declaration */
        return 0;
    }
    int ci = wnlb_card_in_hand(s, army, o->card);
    if (ci < 0) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "card %d is not in your hand", o->card);
    if (s->sc->cards[ci].action != WNLB_ACT_ARTILLERY)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "card %d is not an Artillery Fire card", o->card);
    if (s_fire_check(s, army, o->unit, o->target, err)) return -1;
    /* [6.0] [11.1] played in the opponent's round: used, but not counted against a round of 5 */
    wnlb_card_use(s, ci);
    s_fire(s, ci, o->unit, o->target, "[11.1] Artillery Fire in the opponent's round", ev);
    wnlb_fire_open(s, army - 1); /* the same army may fire again */
    return 0;
}

void wnlb_fire_pending(const wnlb_state *s, brt_pending *out) {
    int army = s->fire_army ? s->fire_army - 1 : WNLB_FR;
    out->seats = 1u << wnlb_seat_of_army(s, army);
    snprintf(out->kind, sizeof out->kind, "fire");
    snprintf(out->rule, sizeof out->rule, "11.1");
    snprintf(out->prompt, sizeof out->prompt, "Artillery Fire in the opponent's round (fire ID UNIT), or fire none");
}

int wnlb_fire_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    (void)seat;
    int army = s->fire_army - 1;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_FIRE;
    o.flag = 1;
    if (wnlb_order_encode(s, &o, out)) return -1;
    int n = 1;
    o.flag = 0;
    for (size_t ci = 0; ci < s->sc->n_cards; ci++) {
        const wnlb_card_def *c = &s->sc->cards[ci];
        if (c->army != army || s->card_loc[ci] != WNLB_LOC_HAND || c->action != WNLB_ACT_ARTILLERY) continue;
        o.card = c->id;
        for (size_t u = 0; u < s->sc->n_units; u++) {
            int t[4], k = s_fire_choices(s, army, (int)u, t);
            for (int i = 0; i < k; i++) {
                o.unit = (int)u;
                o.target = t[i];
                if (wnlb_order_encode(s, &o, out)) return -1;
                n++;
            }
        }
    }
    return n;
}

int wnlb_fire_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)s, (void)seat;
    o->kind = WNLB_O_FIRE;
    o->flag = 1;
    return 0;
}
