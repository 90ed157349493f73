/*
 * battle.c - [9.0]-[9.5] [9.7] battles, [10.0] chateaux in battle, [11.2] Command Benefit,
 * [11.3] Elite Bonus, [11.4] Cavalry Charge and [11.5] Enemy Cavalry must Charge.
 *
 * Flow: after a Movement or Action card, PH_DECLARE (`attack TARGET with UNITS` or `no-battle`);
 * PH_BATTLE_CARDS, sealed, the attacker's seat and the defending unit's seat; the reveal computes
 * the totals in the order of [9.3] and its worked example [9.7] (digest 2.5); then PH_LOSS (the
 * losing defender: reduce, retreat, or spend a CDP [10.0]), PH_ADVANCE (the winning attacker
 * enters the vacated square) or PH_ATT_REDUCE (the attacker's tied strongest units); then
 * wnlb_after_card (rounds.c), or, after a charge's battle, wnlb_card_done: the card's own battle.
 * Sides in s->battle: index 0 the attacker, 1 the defender. Rulings: docs/rulings.md,
 * "battle, chateaux and charges" (R-wnlb-9.x, R-wnlb-10.0, R-wnlb-11.x).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wnlb.h"

static const char *const s_use_name[] = {"bp", "artillery", "command", "elite"};

/* ---- geometry [8.1] [9.2] ---- */

/* the direction from (r0, c0) to the orthogonally adjacent (r1, c1), -1 when not adjacent */
static int s_dir(int r0, int c0, int r1, int c1) {
    if (r1 == r0 - 1 && c1 == c0) return WNLB_N;
    if (r1 == r0 && c1 == c0 + 1) return WNLB_E;
    if (r1 == r0 + 1 && c1 == c0) return WNLB_S;
    if (r1 == r0 && c1 == c0 - 1) return WNLB_W;
    return -1;
}

static int s_live(const wnlb_state *s, int u) {
    return u >= 0 && (size_t)u < s->sc->n_units && !s->units[u].eliminated && s->units[u].row >= 0 &&
           s->units[u].col >= 0;
}

static int s_side_of_unit(const wnlb_state *s, int u) { return wnlb_side_of_army(s->sc->units[u].army); }

static int s_terrain(const wnlb_state *s, int u) { return s->sc->terrain[s->units[u].row][s->units[u].col]; }

/* [10.0] an infantry unit inside a chateau: facing all sides, doubled, CDP */
static int s_inf_in_chateau(const wnlb_state *s, int u) {
    return s->sc->units[u].type == WNLB_INF && s_terrain(s, u) == WNLB_CHATEAU;
}

/* the side of a unit facing `facing` that direction d is: 0 front, 1 flank, 2 rear [8.1] */
static int s_rel(int facing, int d) { return d == facing ? 0 : d == (facing + 2) % 4 ? 2 : 1; }

/* [8.1] the square (ar, ac) relative to unit t: 0 front, 1 flank, 2 rear, -1 not adjacent; an
 * infantry unit inside a chateau faces frontally to all sides [10.0] */
int wnlb_rel_side(const wnlb_state *s, int t, int ar, int ac) {
    if (!s_live(s, t)) return -1;
    int d = s_dir(s->units[t].row, s->units[t].col, ar, ac);
    if (d < 0) return -1;
    if (s_inf_in_chateau(s, t)) return 0;
    return s_rel(s->units[t].facing, d);
}

/* [9.2] a is orthogonally adjacent to the enemy t and faces its square; not across a pond [8.3].
 * An infantry unit inside a chateau faces all sides: it may attack any adjacent square
 * (R-wnlb-10.0-chateau-facing). */
int wnlb_can_attack(const wnlb_state *s, int a, int t) {
    if (!s_live(s, a) || !s_live(s, t) || s_side_of_unit(s, a) == s_side_of_unit(s, t)) return 0;
    int d = s_dir(s->units[a].row, s->units[a].col, s->units[t].row, s->units[t].col);
    if (d < 0) return 0;
    if (s->sc->side[s->units[a].row][s->units[a].col][d] & WNLB_SIDE_POND) return 0;
    return s->units[a].facing == d || s_inf_in_chateau(s, a);
}

/* ---- Battle Points [9.3] [11.2] [11.3] [11.4] ---- */

static int32_t s_printed(const wnlb_state *s, int u) {
    const wnlb_unit_def *d = &s->sc->units[u];
    return s->units[u].reduced ? d->reduced : d->full;
}

/* [12.0] [11.2] the commander's square or one of the four around it, never diagonally */
static int s_commanded(const wnlb_state *s, int cmd, int u) {
    if (cmd < 0 || cmd > 1 || s->cmd_row[cmd] < 0 || !s_live(s, u)) return 0;
    int r = s->units[u].row, c = s->units[u].col;
    return (r == s->cmd_row[cmd] && c == s->cmd_col[cmd]) || s_dir(s->cmd_row[cmd], s->cmd_col[cmd], r, c) >= 0;
}

/* the commander of an army's Command Benefit cards: Napoleon, Wellington; none for the Prussians [11.2] */
static int s_commander_of(int army) { return army == WNLB_FR ? 0 : army == WNLB_BR ? 1 : -1; }

/* The totals of both sides before the BP cards, in the order of [9.3] and [9.7] (digest 2.5): per
 * unit, printed BP; defender terrain x2 (woods, village, chateau; hill when no attacker is on a
 * hill) "before any other bonus"; Elite Bonus x2 "before any other effect" [11.3]; Cavalry Charge
 * x3 heavy / x2 light, not into infantry's front [11.4]; attack position x2 flank / x3 rear "after
 * Elite or Cavalry Charge"; Command Benefit +N "after all other bonuses" [11.2]; -1 per attacker
 * across a ridge or stream side "after all bonuses, including Command Benefit". cmdv: the Command
 * Benefit per eligible unit of each side (0 none), of the commander cmdc. */
static void s_totals(const wnlb_state *s, const wnlb_battle *b, const int elite[2], const int cmdv[2],
                     const int cmdc[2], int32_t *att, int32_t *def, int32_t *per) {
    int32_t ta = 0, td = 0;
    int t = b->target;
    if (!s_live(s, t)) {
        if (att) *att = 0;
        if (def) *def = 0;
        return;
    }
    int hill_attacker = 0;
    for (int i = 0; i < b->n_att && i < WNLB_MAX_ATTACKERS; i++)
        if (s_live(s, b->att[i]) && s_terrain(s, b->att[i]) == WNLB_HILL) hill_attacker = 1;
    for (int i = 0; i < b->n_att && i < WNLB_MAX_ATTACKERS; i++) {
        int a = b->att[i];
        int32_t v = 0;
        if (s_live(s, a)) {
            const wnlb_unit_def *d = &s->sc->units[a];
            v = s_printed(s, a);
            if (elite && elite[0] && d->elite) v *= 2;                      /* [11.3] */
            int rel = wnlb_rel_side(s, t, s->units[a].row, s->units[a].col);
            if (b->charge && d->type == WNLB_CAV && !(s->sc->units[t].type == WNLB_INF && rel == 0))
                v *= d->heavy ? 3 : 2;                                      /* [11.4] */
            if (rel == 1) v *= 2;                                           /* [9.3] flank */
            else if (rel == 2) v *= 3;                                      /* [9.3] rear */
            if (cmdv && cmdv[0] && s_commanded(s, cmdc[0], a)) v += cmdv[0]; /* [11.2] */
            int dir = s_dir(s->units[a].row, s->units[a].col, s->units[t].row, s->units[t].col);
            if (dir >= 0 && (s->sc->side[s->units[a].row][s->units[a].col][dir] & (WNLB_SIDE_RIDGE | WNLB_SIDE_STREAM)))
                v -= 1;                                                     /* [9.3] ridge, stream */
            if (v < 0) v = 0;
        }
        if (per) per[i] = v;
        ta += v;
    }
    const wnlb_unit_def *dd = &s->sc->units[t];
    int32_t v = s_printed(s, t);
    int terr = s_terrain(s, t);
    /* [9.3] woods, village; [10.0] chateau: infantry doubled, cavalry "as if it were a village" */
    if (terr == WNLB_WOODS || terr == WNLB_VILLAGE || terr == WNLB_CHATEAU) v *= 2;
    else if (terr == WNLB_HILL && !hill_attacker) v *= 2; /* [9.3] R-wnlb-9.3-hill (A5) */
    if (elite && elite[1] && dd->elite) v *= 2;           /* [11.3] */
    if (cmdv && cmdv[1] && s_commanded(s, cmdc[1], t)) v += cmdv[1];
    td = v;
    if (att) *att = ta;
    if (def) *def = td;
}

void wnlb_battle_base(const wnlb_state *s, const wnlb_battle *b, const int elite[2], int32_t *att, int32_t *def,
                      int32_t *att_bp) {
    s_totals(s, b, elite, NULL, NULL, att, def, att_bp);
}

/* ---- Reduction, elimination, Disorder [9.5] ---- */

void wnlb_reduce(wnlb_state *s, int u, brt_events *ev) {
    if (!s_live(s, u)) return;
    wnlb_unit *x = &s->units[u];
    const wnlb_unit_def *d = &s->sc->units[u];
    int row = x->row, col = x->col;
    if (x->reduced || !d->reduced) {
        /* [9.5] eliminated; [13.3] the other side scores its full-strength BPs */
        for (int c = 0; c < 2; c++)
            if (s->cmd_row[c] == row && s->cmd_col[c] == col) s->battle.displace |= (uint8_t)(1u << c);
        x->eliminated = 1;
        x->disordered = 0;
        x->row = x->col = -1;
        s->elim_vp[1 - wnlb_side_of_army(d->army)] += d->full;
        wnlb_event(ev, BRT_SEATS_ALL, "eliminated", d->army, d->id, row, col, d->full, NULL, 0,
                   "[9.5] the unit is eliminated; its full-strength BPs score for the other side [13.3]");
        return;
    }
    x->reduced = 1;
    wnlb_event(ev, BRT_SEATS_ALL, "reduced", d->army, d->id, row, col, d->reduced, NULL, 0,
               "[9.5] the unit is flipped to its Reduced side");
}

/* [9.5] one more Disorder: a Disordered unit is Reduced instead (and no longer Disordered), but
 * never eliminated by it; chateau: whether [10.0] protects the unit */
static void s_disorder(wnlb_state *s, int u, int chateau_protects, brt_events *ev) {
    if (!s_live(s, u)) return;
    wnlb_unit *x = &s->units[u];
    const wnlb_unit_def *d = &s->sc->units[u];
    if (chateau_protects && s_terrain(s, u) == WNLB_CHATEAU) {
        wnlb_event(ev, BRT_SEATS_ALL, "no-effect", d->army, d->id, x->row, x->col, 0, NULL, 0,
                   "[10.0] Artillery Fire has no effect on a unit inside a chateau");
        return;
    }
    if (!x->disordered) {
        x->disordered = 1;
        wnlb_event(ev, BRT_SEATS_ALL, "disordered", d->army, d->id, x->row, x->col, 1, NULL, 0, "[9.5] Disordered");
        return;
    }
    if (x->reduced || !d->reduced) {
        wnlb_event(ev, BRT_SEATS_ALL, "no-effect", d->army, d->id, x->row, x->col, 0, NULL, 0,
                   "[9.5] Disorder never eliminates: nothing happens");
        return;
    }
    x->reduced = 1;
    x->disordered = 0;
    wnlb_event(ev, BRT_SEATS_ALL, "reduced", d->army, d->id, x->row, x->col, d->reduced, NULL, 0,
               "[9.5] a second Disorder: Reduced, no longer Disordered");
}

void wnlb_disorder(wnlb_state *s, int u, brt_events *ev) { s_disorder(s, u, 1, ev); }

/* ---- who decides ---- */

static int s_def_army(const wnlb_state *s) {
    return s_live(s, s->battle.target) ? s->sc->units[s->battle.target].army : 0;
}
static int s_att_seat(const wnlb_state *s) { return wnlb_seat_of_army(s, s->battle.att_army); }
static int s_def_seat(const wnlb_state *s) { return wnlb_seat_of_army(s, s_def_army(s)); }

/* [9.3] the attacker's battle cards count toward his 5 only in his own round (a forced charger
 * [11.5] plays in the other side's round: R-wnlb-11.5-forced-charge) */
static int s_counted(const wnlb_state *s) { return s->battle.att_army == s->round_army; }

static void s_battle_clear(wnlb_battle *b) {
    memset(b, 0, sizeof *b);
    b->target = -1;
    b->fire_unit = -1;
    b->fire_target = -1;
    b->vac_row = b->vac_col = -1;
}

/* ---- the end of a battle ---- */

static void s_end(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    wnlb_battle *b = &s->battle;
    int charge = b->charge, charger = b->n_att ? b->att[0] : -1;
    uint8_t displace = b->displace;
    int32_t total[2] = {b->total[0], b->total[1]};
    /* [11.4] "Regardless of the results of the Charge, the charging cavalry unit is always
     * Disordered after the Charge" */
    if (charge && s_live(s, charger)) s_disorder(s, charger, 0, ev);
    s_battle_clear(b);
    b->total[0] = total[0]; /* the last battle's totals stay readable (no battle: target -1) */
    b->total[1] = total[1];
    /* [9.0] [11.4] a charge still leaves the card's own attack; any other battle ends the card */
    if (charge) wnlb_card_done(s, dice, ev);
    else wnlb_after_card(s, dice, ev);
    /* [12.0] an eliminated unit's commander, and the lone commanders an advance or a retreat came
     * next to (queued by those orders: R-wnlb-12.0-displace-when) */
    s->displace_due |= displace;
    wnlb_commander_displace(s, -1, ev);
}

/* ---- [9.0] [9.2] the declaration ---- */

/* a of the round's army may attack t now: [9.2] adjacent and facing, [9.5] not Disordered,
 * [11.6] not Rallied this round */
static int s_attacker_ok(const wnlb_state *s, int a, int t, brt_reject *err) {
    if (a < 0 || (size_t)a >= s->sc->n_units || !s_live(s, a))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.2", "an attacker must be a unit on the board");
    const char *id = s->sc->units[a].id, *tid = s->sc->units[t].id;
    if (s->sc->units[a].army != s->round_army)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0",
                              "[9.0] %s is not of this round's army: British/Allied and Prussian units never "
                              "attack together, and only the round's own units attack", id);
    if (!wnlb_can_attack(s, a, t))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.2",
                              "[9.2] %s does not face %s from an adjacent square: a unit attacks only to its front "
                              "(never across a pond [8.3])", id, tid);
    if (s->units[a].disordered)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] %s is Disordered: it may not attack", id);
    if (s->units[a].rallied)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "[11.6] %s was Rallied this round: it may not attack", id);
    return 0;
}

static int s_target_ok(const wnlb_state *s, int t, brt_reject *err) {
    if (t < 0 || (size_t)t >= s->sc->n_units || !s_live(s, t))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0", "the target must be an enemy unit on the board");
    if (s_side_of_unit(s, t) == s->active_side)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0", "[9.0] %s is not an enemy unit", s->sc->units[t].id);
    return 0;
}

/* the battle's start: attackers and defender known, the sealed battle cards next [9.3] */
static void s_battle_begin(wnlb_state *s, int t, const int *att, int n, int army, int charge) {
    wnlb_battle *b = &s->battle;
    s_battle_clear(b);
    b->target = (int8_t)t;
    b->n_att = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        b->att[i] = (int8_t)att[i];
        s->units[att[i]].attacked = 1; /* [11.6] */
    }
    for (int i = n; i < WNLB_MAX_ATTACKERS; i++) b->att[i] = -1;
    b->att_army = (uint8_t)army;
    b->charge = (uint8_t)charge;
    s->phase = WNLB_PH_BATTLE_CARDS;
}

static int s_declare(wnlb_state *s, const wnlb_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    if (o->kind == WNLB_O_NO_BATTLE) {
        wnlb_event(ev, BRT_SEATS_ALL, "no-battle", s->round_army, NULL, -1, -1, 0, NULL, 0, "[9.0] no battle");
        wnlb_after_card(s, dice, ev);
        return 0;
    }
    if (o->kind != WNLB_O_ATTACK)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0", "declare one battle (attack TARGET with UNITS) or no-battle");
    if (s_target_ok(s, o->target, err)) return -1;
    if (o->n_units < 1 || o->n_units > WNLB_MAX_ATTACKERS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.2", "[9.2] one to four attacking units");
    for (int i = 0; i < o->n_units; i++) {
        if (s_attacker_ok(s, o->units[i], o->target, err)) return -1;
        for (int j = 0; j < i; j++)
            if (o->units[j] == o->units[i])
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.2", "[9.2] %s is named twice",
                                      s->sc->units[o->units[i]].id);
    }
    s_battle_begin(s, o->target, o->units, o->n_units, s->round_army, 0);
    char txt[160];
    snprintf(txt, sizeof txt, "[9.0] %d unit%s attack%s %s", o->n_units, o->n_units > 1 ? "s" : "",
             o->n_units > 1 ? "" : "s", s->sc->units[o->target].id);
    const wnlb_unit *t = &s->units[o->target];
    wnlb_event(ev, BRT_SEATS_ALL, "attack", s->round_army, s->sc->units[o->target].id, t->row, t->col, o->n_units, NULL,
               0, txt);
    return 0;
}

/* ---- [9.3] the sealed battle cards ---- */

/* 1 when the side (0 attacker, 1 defender) has an Elite unit in the battle [11.3] */
static int s_side_has_elite(const wnlb_state *s, int side) {
    const wnlb_battle *b = &s->battle;
    if (side) return s->sc->units[b->target].elite;
    for (int i = 0; i < b->n_att; i++)
        if (s_live(s, b->att[i]) && s->sc->units[b->att[i]].elite) return 1;
    return 0;
}

/* 1 when a Command Benefit card of army helps a unit of side in the battle [11.2] */
static int s_side_commanded(const wnlb_state *s, int side, int army) {
    const wnlb_battle *b = &s->battle;
    int cmd = s_commander_of(army);
    if (side) return s_commanded(s, cmd, b->target);
    for (int i = 0; i < b->n_att; i++)
        if (s_commanded(s, cmd, b->att[i])) return 1;
    return 0;
}

static int s_cards_check(const wnlb_state *s, int side, const wnlb_order *o, brt_reject *err) {
    const wnlb_battle *b = &s->battle;
    static const char *const army_name[] = {"French", "British/Allied", "Prussian"};
    int army = side ? s_def_army(s) : b->att_army;
    if (o->kind != WNLB_O_BATTLE_CARDS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3", "give your battle cards: cards ID:USE ... or cards none");
    if (o->n_cards < 0 || o->n_cards > WNLB_MAX_CARDS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3", "too many battle cards");
    if (!side && s_counted(s) && s->round_cards + o->n_cards > WNLB_ROUND_CARDS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3",
                              "[9.3] the attacker must stay within his 5 cards a player round: %u played, %d more given",
                              s->round_cards, o->n_cards);
    int n_cmd = 0, n_elite = 0, n_art = 0;
    for (int i = 0; i < o->n_cards; i++) {
        int id = o->cards[i], use = o->purposes[i];
        for (int j = 0; j < i; j++)
            if (o->cards[j] == id) return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3", "[9.3] card %d is given twice", id);
        int ci = wnlb_card_in_hand(s, army, id);
        if (ci < 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3",
                                  "[9.3] card %d is not in the %s hand (a side plays the cards of the army that fights)",
                                  id, army_name[army < WNLB_ARMIES ? army : 0]);
        const wnlb_card_def *cd = &s->sc->cards[ci];
        if (b->charge && use != WNLB_ACT_ELITE)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4",
                                  "[11.4] the only cards either side may play in a Cavalry Charge's battle are Elite Bonus cards");
        switch (use) {
        case WNLB_USE_BP: break;
        case WNLB_ACT_COMMAND:
            if (cd->action != WNLB_ACT_COMMAND)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.2", "[11.2] card %d has no Command Benefit", id);
            if (++n_cmd > 1)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.2",
                                      "[11.2] one Command Benefit card a side in a battle (R-wnlb-11.2-one-card)");
            if ((cd->cmd_attack != 0) != (side == 0))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.2",
                                      "[11.2] card %d's Command Benefit is for %s units: it gives nothing to the %s", id,
                                      cd->cmd_attack ? "attacking" : "defending", side ? "defender" : "attacker");
            if (!s_side_commanded(s, side, army))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.2",
                                      "[11.2] no unit of yours in this battle is in your Commander's square or the four "
                                      "around it: card %d gives nothing", id);
            break;
        case WNLB_ACT_ELITE:
            if (cd->action != WNLB_ACT_ELITE)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.3", "[11.3] card %d has no Elite Bonus", id);
            if (++n_elite > 1)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.3",
                                      "[11.3] one Elite Bonus card a side in a battle (R-wnlb-11.2-one-card)");
            if (!s_side_has_elite(s, side))
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.3",
                                      "[11.3] no Elite unit of yours is in this battle: card %d gives nothing", id);
            break;
        case WNLB_ACT_ARTILLERY:
            if (!side)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1",
                                      "[11.1] the attacker plays Artillery Fire as an Action of his round, before the "
                                      "battle; in the battle only the defender may (R-wnlb-11.1-battle-fire)");
            if (cd->action != WNLB_ACT_ARTILLERY)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "[11.1] card %d has no Artillery Fire", id);
            if (++n_art > 1)
                return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1",
                                      "[11.1] one Artillery Fire card in a battle: one firing unit (fire UNIT)");
            break;
        default:
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.3",
                                  "[9.3] a battle card is used for bp, command, elite or (the defender) artillery");
        }
    }
    if (!n_art) {
        if (o->unit >= 0 || o->target >= 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "[11.1] fire UNIT goes with an artillery card");
        return 0;
    }
    int f = o->unit;
    if (f < 0 || (size_t)f >= s->sc->n_units || !s_live(s, f) || s->sc->units[f].army != army ||
        s->sc->units[f].type != WNLB_INF)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1",
                              "[11.1] name the firing unit (fire UNIT): one of your infantry units on the board");
    if (s->units[f].disordered)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.1", "[11.1] [9.5] %s is Disordered: it may not fire",
                              s->sc->units[f].id);
    /* [11.1] [10.0] an attacker frontally adjacent to f (any side of a chateau's infantry), named
     * when there are several (R-wnlb-11.1-firer) */
    return wnlb_fire_aim(s, f, o->target, 1, err) < 0 ? -1 : 0;
}

/* the cards of a side as text, "12:bp 30:command" */
static void s_cards_text(const wnlb_state *s, int side, char *out, size_t cap) {
    const wnlb_battle *b = &s->battle;
    size_t len = 0;
    out[0] = 0;
    int k = snprintf(out, cap, "[9.3] %s cards:", side ? "defender" : "attacker");
    if (k > 0) len = (size_t)k < cap ? (size_t)k : cap - 1;
    for (int i = 0; i < b->n_cards[side] && len + 1 < cap; i++) {
        int use = b->purpose[side][i];
        k = snprintf(out + len, cap - len, " %u:%s", s->sc->cards[b->cards[side][i]].id, s_use_name[use < 4 ? use : 0]);
        if (k > 0) len += (size_t)k < cap - len ? (size_t)k : cap - len - 1;
    }
    if (!b->n_cards[side] && len + 6 < cap) snprintf(out + len, cap - len, " none");
}

/* the advance after a won battle [9.4]: the units that may enter the vacated square */
static int s_advancers(const wnlb_state *s, int *out) {
    const wnlb_battle *b = &s->battle;
    int n = 0, elite = 0;
    if (b->vac_row < 0 || wnlb_unit_at(s, b->vac_row, b->vac_col) >= 0) return 0;
    /* [9.4] "if he used an Elite unit that received an Elite Bonus, that unit must be the one" */
    if (b->elite[0])
        for (int i = 0; i < b->n_att; i++)
            if (s_live(s, b->att[i]) && s->sc->units[b->att[i]].elite) elite = 1;
    for (int i = 0; i < b->n_att; i++) {
        int a = b->att[i];
        if (!s_live(s, a) || (elite && !s->sc->units[a].elite)) continue;
        /* the advance is into the square attacked: the unit is adjacent to it */
        if (s_dir(s->units[a].row, s->units[a].col, b->vac_row, b->vac_col) < 0) continue;
        out[n++] = a;
    }
    return n;
}

/* after the defender's loss: the advance if the square was vacated, else the end */
static void s_after_loss(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    int adv[WNLB_MAX_ATTACKERS];
    if (s_advancers(s, adv) > 0) {
        s->phase = WNLB_PH_ADVANCE;
        /* [12.0] before the square is entered: an eliminated unit's commander, and a lone
         * commander the retreat came next to */
        s->displace_due |= s->battle.displace;
        s->battle.displace = 0;
        wnlb_commander_displace(s, -1, ev);
        return;
    }
    s_end(s, dice, ev);
}

/* the attacker's units with the most BPs on their counters [9.4] */
static int s_strongest(const wnlb_state *s, int *out) {
    const wnlb_battle *b = &s->battle;
    int32_t best = -1;
    int n = 0;
    for (int i = 0; i < b->n_att; i++)
        if (s_live(s, b->att[i]) && s_printed(s, b->att[i]) > best) best = s_printed(s, b->att[i]);
    for (int i = 0; i < b->n_att; i++)
        if (s_live(s, b->att[i]) && s_printed(s, b->att[i]) == best) out[n++] = b->att[i];
    return n;
}

/* both sides' cards are in: reveal, fire, totals, result [9.3] [9.4] */
static void s_resolve(wnlb_state *s, brt_dice *dice, brt_events *ev) {
    wnlb_battle *b = &s->battle;
    char txt[320];
    int cmdv[2] = {0, 0}, cmdc[2] = {-1, -1}, elite[2] = {0, 0};
    int32_t bp[2] = {0, 0};
    int fire = 0;
    for (int side = 0; side < 2; side++) {
        int ids[WNLB_MAX_CARDS];
        for (int i = 0; i < b->n_cards[side]; i++) {
            const wnlb_card_def *cd = &s->sc->cards[b->cards[side][i]];
            ids[i] = cd->id;
            switch (b->purpose[side][i]) {
            case WNLB_USE_BP: bp[side] += cd->bp; break;
            case WNLB_ACT_COMMAND:
                cmdv[side] = cd->value;
                cmdc[side] = s_commander_of(cd->army);
                break;
            case WNLB_ACT_ELITE: elite[side] = 1; break;
            case WNLB_ACT_ARTILLERY: fire = 1; break;
            default: break;
            }
            wnlb_card_use(s, b->cards[side][i]); /* [9.3] onto the unused portion */
        }
        s_cards_text(s, side, txt, sizeof txt);
        wnlb_event(ev, BRT_SEATS_ALL, "battle-cards", side ? s_def_army(s) : b->att_army, NULL, -1, -1, side, ids,
                   b->n_cards[side], txt);
    }
    if (s_counted(s)) s->round_cards = (uint8_t)(s->round_cards + b->n_cards[0]); /* [9.3] */
    b->elite[0] = (uint8_t)elite[0];
    b->elite[1] = (uint8_t)elite[1];
    /* [11.1] [9.7] the defender's Artillery Fire: the attacker it hits is Disordered and, unable to
     * attack [9.5], its BPs drop out of the battle */
    if (fire) {
        brt_reject tmp;
        int tg = wnlb_fire_aim(s, b->fire_unit, b->fire_target, 1, &tmp);
        if (tg >= 0) wnlb_disorder(s, tg, ev); /* checked when the cards were given */
        int n = 0;
        for (int i = 0; i < b->n_att; i++)
            if (b->att[i] != tg) b->att[n++] = b->att[i];
        for (int i = n; i < WNLB_MAX_ATTACKERS; i++) b->att[i] = -1;
        b->n_att = (uint8_t)n;
        if (!n) {
            wnlb_event(ev, BRT_SEATS_ALL, "battle", b->att_army, NULL, -1, -1, 0, NULL, 0,
                       "[11.1] no attacker is left to attack: the battle is over");
            s_end(s, dice, ev);
            return;
        }
    }
    int32_t ta = 0, td = 0;
    s_totals(s, b, elite, cmdv, cmdc, &ta, &td, NULL);
    b->total[0] = ta + bp[0];
    b->total[1] = td + bp[1];
    const wnlb_unit *t = &s->units[b->target];
    int att_wins = b->total[0] > b->total[1];
    snprintf(txt, sizeof txt, "[9.4] attacker %d against defender %d: the %s wins%s", b->total[0], b->total[1],
             att_wins ? "attacker" : "defender",
             (att_wins ? b->total[0] > 2 * b->total[1] : b->total[1] > 2 * b->total[0]) ? " with more than twice" : "");
    wnlb_event(ev, BRT_SEATS_ALL, "battle", b->att_army, s->sc->units[b->target].id, t->row, t->col, b->total[0], NULL,
               0, txt);
    if (att_wins) {
        b->more_than_double = b->total[0] > 2 * b->total[1];
        b->loss_reduce = b->loss_retreat = 1;
        b->vac_row = t->row;
        b->vac_col = t->col;
        /* [9.5] attacked solely from the rear and/or flank (the counter's facing) */
        int any = 1;
        for (int i = 0; i < b->n_att; i++) {
            int d = s_dir(t->row, t->col, s->units[b->att[i]].row, s->units[b->att[i]].col);
            if (d < 0 || s_rel(t->facing, d) == 0) any = 0;
        }
        b->retreat_dir_any = (uint8_t)any;
        if (elite[0])
            for (int i = 0; i < b->n_att && !b->elite_unit; i++)
                if (s->sc->units[b->att[i]].elite) b->elite_unit = (uint8_t)(b->att[i] + 1);
        s->phase = WNLB_PH_LOSS;
        return;
    }
    if (b->total[1] > 2 * b->total[0]) {
        int st[WNLB_MAX_ATTACKERS];
        int n = s_strongest(s, st);
        if (n > 1) {
            s->phase = WNLB_PH_ATT_REDUCE; /* [9.4] "if ties, the attacker decides" */
            return;
        }
        if (n == 1) wnlb_reduce(s, st[0], ev);
    }
    s_end(s, dice, ev);
}

static int s_cards_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                         brt_reject *err) {
    wnlb_battle *b = &s->battle;
    int side = -1;
    if ((int)seat == s_att_seat(s) && !b->submitted[0]) side = 0;
    else if ((int)seat == s_def_seat(s) && !b->submitted[1]) side = 1;
    if (side < 0) return brt_reject_set(err, BRT_REJECT_NOT_YOUR_DECISION, "9.3", "your battle cards are given");
    if (s_cards_check(s, side, o, err)) return -1;
    /* sealed [9.3]: kept in the battle, still in hand, nothing told until both are in */
    b->n_cards[side] = (uint8_t)o->n_cards;
    for (int i = 0; i < o->n_cards; i++) {
        b->cards[side][i] = (uint8_t)wnlb_card_index(s, o->cards[i]);
        b->purpose[side][i] = (uint8_t)o->purposes[i];
        if (o->purposes[i] == WNLB_ACT_ARTILLERY) {
            b->fire_unit = (int8_t)o->unit;
            b->fire_target = (int8_t)o->target;
        }
    }
    b->submitted[side] = 1;
    if (b->submitted[0] && b->submitted[1]) s_resolve(s, dice, ev);
    return 0;
}

/* ---- [9.4] [9.5] [10.0] the losing defender ---- */

/* [9.5] the squares the defender may retreat into: one square to its rear or flank (forward too
 * when attacked solely from rear/flank), vacant, not across a pond (R-wnlb-9.5-retreat-one-square) */
static int s_retreat_squares(const wnlb_state *s, int rows[4], int cols[4]) {
    const wnlb_battle *b = &s->battle;
    int t = b->target, n = 0;
    if (!s_live(s, t)) return 0;
    const wnlb_unit *u = &s->units[t];
    int enemy_cmd = wnlb_side_of_army(s->sc->units[t].army) == WNLB_SIDE_FRENCH ? 1 : 0;
    for (int d = 0; d < 4; d++) {
        if (s_rel(u->facing, d) == 0 && !b->retreat_dir_any) continue;
        if (s->sc->side[u->row][u->col][d] & WNLB_SIDE_POND) continue;
        int r = u->row, c = u->col;
        wnlb_step(d, &r, &c);
        if (!wnlb_on_board(s, r, c) || wnlb_unit_at(s, r, c) >= 0) continue;
        if (s->cmd_row[enemy_cmd] == r && s->cmd_col[enemy_cmd] == c) continue;
        rows[n] = r;
        cols[n] = c;
        n++;
    }
    return n;
}

static int s_cdp_ok(const wnlb_state *s) {
    int t = s->battle.target;
    if (!s_live(s, t) || s->sc->units[t].type != WNLB_INF) return 0; /* [10.0] cavalry: no CDP */
    int k = wnlb_chateau_at(s, s->units[t].row, s->units[t].col);
    return k >= 0 && s_terrain(s, t) == WNLB_CHATEAU && s->cdp[k] > 0;
}

/* what the loss order may be: [9.4] one of reduce or retreat, or both when more than twice as many */
static int s_loss_check(const wnlb_state *s, const wnlb_order *o, brt_reject *err) {
    const wnlb_battle *b = &s->battle;
    if (o->kind != WNLB_O_LOSS)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "the losing defender: loss reduce, loss retreat SQUARE FACING or loss cdp");
    int rows[4], cols[4], n = s_retreat_squares(s, rows, cols);
    int both = b->more_than_double;
    switch (o->flag) {
    case 0:
        /* [9.5] "No Square for Retreat: ... it is Reduced, instead" */
        if (both && !b->loss_reduce && n > 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4",
                                  "[9.4] the attacker had more than twice as many: the unit is Reduced and must Retreat too");
        return 0;
    case 1:
        if (!b->loss_retreat)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "[9.4] the unit has retreated already");
        for (int i = 0; i < n; i++)
            if (rows[i] == o->row && cols[i] == o->col) {
                if (o->facing < 0 || o->facing > 3)
                    return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5", "[9.5] a facing is N, E, S or W");
                return 0;
            }
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.5",
                              "[9.5] a unit retreats one square into a vacant square to its rear or flank (forward only "
                              "when attacked solely from rear or flank), never across a pond");
    case 2:
        if (!s_cdp_ok(s))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "10.0",
                                  "[10.0] only an infantry unit inside a chateau with CDP left may spend one");
        return 0;
    default: return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "loss reduce, retreat or cdp");
    }
}

static int s_loss_apply(wnlb_state *s, const wnlb_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    wnlb_battle *b = &s->battle;
    if (s_loss_check(s, o, err)) return -1;
    int t = b->target;
    const wnlb_unit_def *d = &s->sc->units[t];
    int both = b->more_than_double;
    if (o->flag == 0) {
        if (!both || b->loss_reduce) b->loss_reduce = 0;
        else b->loss_retreat = 0; /* [9.5] no square: Reduced instead of the Retreat */
        wnlb_reduce(s, t, ev);
    } else if (o->flag == 1) {
        wnlb_commander_follow(s, t, o->row, o->col); /* [12.0] */
        wnlb_place(s, t, o->row, o->col);
        s->units[t].facing = (uint8_t)o->facing;      /* [9.5] free facing */
        b->loss_retreat = 0;
        wnlb_commanders_queue(s, t); /* [12.0] a lone enemy commander it came next to (R-wnlb-12.0-displace-when) */
        wnlb_event(ev, BRT_SEATS_ALL, "retreat", d->army, d->id, o->row, o->col, o->facing, NULL, 0,
                   "[9.5] the unit retreats one square and faces freely");
    } else {
        int k = wnlb_chateau_at(s, s->units[t].row, s->units[t].col);
        s->cdp[k]--;
        if (b->loss_reduce) b->loss_reduce = 0;
        else b->loss_retreat = 0;
        wnlb_event(ev, BRT_SEATS_ALL, "cdp", d->army, d->id, s->units[t].row, s->units[t].col, s->cdp[k], NULL, 0,
                   "[10.0] a CDP absorbs the loss");
    }
    if (!both) b->loss_reduce = b->loss_retreat = 0;
    if (s->units[t].eliminated) b->loss_reduce = b->loss_retreat = 0;
    if (!b->loss_reduce && !b->loss_retreat) s_after_loss(s, dice, ev);
    return 0;
}

/* ---- [9.4] the advance and the attacker's reduction ---- */

static int s_advance_apply(wnlb_state *s, const wnlb_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    wnlb_battle *b = &s->battle;
    int adv[WNLB_MAX_ATTACKERS], n = s_advancers(s, adv), ok = 0;
    if (o->kind != WNLB_O_ADVANCE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "the winning attacker advances: advance UNIT FACING");
    for (int i = 0; i < n; i++) ok |= adv[i] == o->unit;
    if (o->unit == WNLB_CMD0 || o->unit == WNLB_CMD1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "[9.4] [12.0] a Commander never advances");
    if (!ok)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4",
                              b->elite[0] ? "[9.4] the attacking unit that received the Elite Bonus must advance"
                                          : "[9.4] one of the attacking units must advance into the vacated square");
    if (o->facing < 0 || o->facing > 3)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "[9.4] a facing is N, E, S or W");
    /* [9.4] not movement: no Moved marker; the facing free; a commander with it stays [12.0] */
    wnlb_place(s, o->unit, b->vac_row, b->vac_col);
    s->units[o->unit].facing = (uint8_t)o->facing;
    wnlb_commanders_queue(s, o->unit); /* [12.0] a lone enemy commander it came next to */
    const wnlb_unit_def *d = &s->sc->units[o->unit];
    wnlb_event(ev, BRT_SEATS_ALL, "advance", d->army, d->id, b->vac_row, b->vac_col, o->facing, NULL, 0,
               "[9.4] the attacker advances into the vacated square");
    s_end(s, dice, ev);
    return 0;
}

static int s_att_reduce_apply(wnlb_state *s, const wnlb_order *o, brt_dice *dice, brt_events *ev, brt_reject *err) {
    int st[WNLB_MAX_ATTACKERS], n = s_strongest(s, st), ok = 0;
    if (o->kind != WNLB_O_REDUCE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4", "name the attacking unit to reduce: reduce UNIT");
    for (int i = 0; i < n; i++) ok |= st[i] == o->unit;
    if (!ok)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.4",
                              "[9.4] the attacking unit reduced is one with the most BPs on its counter");
    wnlb_reduce(s, o->unit, ev);
    s_end(s, dice, ev);
    return 0;
}

/* ---- [11.4] [11.5] charges ---- */

/* [11.4] cavalry cav may charge tgt going n squares straight ahead (nothing changed) */
static int s_charge_check(const wnlb_state *s, int cav, int tgt, int n, brt_reject *err) {
    if (cav < 0 || (size_t)cav >= s->sc->n_units || !s_live(s, cav) || s->sc->units[cav].type != WNLB_CAV)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] the charger is one cavalry unit on the board");
    if (tgt < 0 || (size_t)tgt >= s->sc->n_units || !s_live(s, tgt) || s_side_of_unit(s, tgt) == s_side_of_unit(s, cav))
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] the target is an enemy unit on the board");
    const char *id = s->sc->units[cav].id, *tid = s->sc->units[tgt].id;
    if (s->units[cav].disordered)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] %s is Disordered: it may not charge", id);
    if (s->units[cav].rallied)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.6", "[11.6] %s was Rallied this round: it may not attack", id);
    if (n < 1 || n > 2)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] a charge goes one or two squares");
    int tt = s_terrain(s, tgt);
    if (tt == WNLB_WOODS || tt == WNLB_VILLAGE || tt == WNLB_CHATEAU)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4",
                              "[11.4] no Cavalry Charge against a target in woods, a village or a chateau");
    int r = s->units[cav].row, c = s->units[cav].col, f = s->units[cav].facing;
    int tr = s->units[tgt].row, tc = s->units[tgt].col;
    if (s_dir(r, c, tr, tc) >= 0)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] %s may not start adjacent to its target", id);
    for (int i = 0; i < n; i++) {
        uint8_t side = s->sc->side[r][c][f];
        if (side & (WNLB_SIDE_RIDGE | WNLB_SIDE_STREAM))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4",
                                  "[11.4] the charging unit may not move across a ridge or stream side");
        if (side & WNLB_SIDE_POND)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] no unit crosses a pond side");
        wnlb_step(f, &r, &c);
        if (!wnlb_on_board(s, r, c))
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] the charge leaves the board");
        if (wnlb_unit_at(s, r, c) >= 0)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.2", "[8.2] the charge's way is blocked: a square holds a unit");
        int enemy_cmd = s_side_of_unit(s, cav) == WNLB_SIDE_FRENCH ? 1 : 0;
        if (s->cmd_row[enemy_cmd] == r && s->cmd_col[enemy_cmd] == c)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "12.0", "[12.0] the charge's way is blocked by the enemy Commander");
    }
    if (s_dir(r, c, tr, tc) != f)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4",
                              "[11.4] %d square%s ahead %s is not adjacent to %s and facing it: it must attack it", n,
                              n > 1 ? "s" : "", id, tid);
    if (s->sc->side[r][c][f] & WNLB_SIDE_POND)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "8.3", "[8.3] no attack across a pond side");
    return 0;
}

/* the charger moves and its battle begins: Elite cards only [11.4] */
static void s_charge_go(wnlb_state *s, int cav, int tgt, int n, brt_events *ev) {
    int r = s->units[cav].row, c = s->units[cav].col;
    for (int i = 0; i < n; i++) wnlb_step(s->units[cav].facing, &r, &c);
    wnlb_place(s, cav, r, c);
    s->units[cav].moved = 1; /* [11.4] a Moved marker afterwards */
    const wnlb_unit_def *d = &s->sc->units[cav];
    char txt[128];
    snprintf(txt, sizeof txt, "[11.4] %s charges %s", d->id, s->sc->units[tgt].id);
    wnlb_event(ev, BRT_SEATS_ALL, "charge", d->army, d->id, r, c, n, NULL, 0, txt);
    int att[1] = {cav};
    s_battle_begin(s, tgt, att, 1, d->army, 1);
    /* [12.0] the charger moved: a lone enemy Commander next to it goes (not one who moved next to
     * an enemy that did not move: R-wnlb-12.0-displace-when) */
    wnlb_commanders_entered(s, cav, ev);
}

/* the distance (1 or 2) of a legal charge of cav on tgt, 0 none */
static int s_charge_any(const wnlb_state *s, int cav, int tgt) {
    for (int n = 1; n <= 2; n++) {
        brt_reject e;
        if (!s_charge_check(s, cav, tgt, n, &e)) return n;
    }
    return 0;
}

int wnlb_charge_start(wnlb_state *s, unsigned seat, const wnlb_order *o, int ci, brt_events *ev, brt_reject *err) {
    (void)seat;
    if (ci < 0 || (size_t)ci >= s->sc->n_cards)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "no such card");
    int action = s->sc->cards[ci].action;
    if (o->n_units != 1)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] a Cavalry Charge uses only one cavalry unit");
    int cav = o->units[0], tgt = o->target;
    if (action == WNLB_ACT_CHARGE) {
        if (cav < 0 || (size_t)cav >= s->sc->n_units || s->sc->units[cav].army != s->round_army)
            return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "[11.4] the charger is a cavalry unit of this round's army");
        if (s_charge_check(s, cav, tgt, o->n_steps, err)) return -1;
        s_charge_go(s, cav, tgt, o->n_steps, ev);
        return 0;
    }
    if (action != WNLB_ACT_ENEMY_CHARGE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.4", "card %u has no Cavalry Charge", s->sc->cards[ci].id);
    /* [11.5] an enemy cavalry unit in position to charge one of the active side's units */
    if (cav < 0 || (size_t)cav >= s->sc->n_units || s_side_of_unit(s, cav) == s->active_side)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.5", "[11.5] designate an enemy cavalry unit");
    if (tgt < 0 || (size_t)tgt >= s->sc->n_units || s_side_of_unit(s, tgt) != s->active_side)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.5", "[11.5] the target is one of your side's units");
    if (s_live(s, cav) && s->units[cav].disordered)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.5", "[11.5] a Disordered enemy cavalry unit may not be chosen");
    if (!s_charge_any(s, cav, tgt)) {
        brt_reject why;
        memset(&why, 0, sizeof why);
        (void)s_charge_check(s, cav, tgt, 2, &why);
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.5", "[11.5] %s is not in position to charge: %s",
                              s_live(s, cav) ? s->sc->units[cav].id : "the unit", why.message);
    }
    wnlb_battle *b = &s->battle;
    s_battle_clear(b);
    b->target = (int8_t)tgt;
    b->n_att = 1;
    b->att[0] = (int8_t)cav;
    for (int i = 1; i < WNLB_MAX_ATTACKERS; i++) b->att[i] = -1;
    b->att_army = s->sc->units[cav].army;
    b->charge = 1;
    s->phase = WNLB_PH_CHARGE;
    char txt[160];
    snprintf(txt, sizeof txt, "[11.5] %s must charge %s", s->sc->units[cav].id, s->sc->units[tgt].id);
    wnlb_event(ev, BRT_SEATS_ALL, "must-charge", b->att_army, s->sc->units[cav].id, s->units[cav].row,
               s->units[cav].col, 0, NULL, 0, txt);
    return 0;
}

int wnlb_charge_legal(const wnlb_state *s, unsigned seat, int ci, brt_buf *out) {
    (void)seat;
    if (ci < 0 || (size_t)ci >= s->sc->n_cards) return 0;
    int action = s->sc->cards[ci].action, count = 0;
    if (action != WNLB_ACT_CHARGE && action != WNLB_ACT_ENEMY_CHARGE) return 0;
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    o.kind = WNLB_O_PLAY;
    o.card = s->sc->cards[ci].id;
    o.purpose = WNLB_PURPOSE_ACTION;
    o.action = action;
    o.n_units = 1;
    for (size_t u = 0; u < s->sc->n_units; u++) {
        int cav = (int)u;
        if (!s_live(s, cav) || s->sc->units[cav].type != WNLB_CAV) continue;
        if (action == WNLB_ACT_CHARGE ? s->sc->units[cav].army != s->round_army
                                      : s_side_of_unit(s, cav) == s->active_side)
            continue;
        for (int n = 1; n <= 2; n++) {
            /* the only possible target: the square n + 1 ahead */
            int r = s->units[cav].row, c = s->units[cav].col;
            for (int i = 0; i <= n; i++) wnlb_step(s->units[cav].facing, &r, &c);
            int tgt = wnlb_unit_at(s, r, c);
            if (tgt < 0 || s_charge_check(s, cav, tgt, n, NULL)) continue;
            if (action == WNLB_ACT_ENEMY_CHARGE && s_side_of_unit(s, tgt) != s->active_side) continue;
            o.units[0] = cav;
            o.target = tgt;
            o.n_steps = action == WNLB_ACT_CHARGE ? n : 0;
            for (int i = 0; i < o.n_steps; i++) o.steps[i] = (uint8_t)(i + 1);
            if (wnlb_order_encode(s, &o, out)) return -1;
            count++;
        }
    }
    return count;
}

static int s_charge_apply(wnlb_state *s, const wnlb_order *o, brt_events *ev, brt_reject *err) {
    wnlb_battle *b = &s->battle;
    if (o->kind != WNLB_O_CHARGE)
        return brt_reject_set(err, BRT_REJECT_ILLEGAL, "11.5", "[11.5] your cavalry must charge: charge 1 or charge 2");
    int cav = b->att[0], tgt = b->target;
    if (s_charge_check(s, cav, tgt, o->n_steps, err)) return -1;
    s_charge_go(s, cav, tgt, o->n_steps, ev);
    return 0;
}

/* ---- the phase functions ---- */

int wnlb_battle_apply(wnlb_state *s, unsigned seat, const wnlb_order *o, brt_dice *dice, brt_events *ev,
                      brt_reject *err) {
    switch (s->phase) {
    case WNLB_PH_DECLARE: return s_declare(s, o, dice, ev, err);
    case WNLB_PH_BATTLE_CARDS: return s_cards_apply(s, seat, o, dice, ev, err);
    case WNLB_PH_LOSS: return s_loss_apply(s, o, dice, ev, err);
    case WNLB_PH_ADVANCE: return s_advance_apply(s, o, dice, ev, err);
    case WNLB_PH_ATT_REDUCE: return s_att_reduce_apply(s, o, dice, ev, err);
    case WNLB_PH_CHARGE: return s_charge_apply(s, o, ev, err);
    default: return brt_reject_set(err, BRT_REJECT_ILLEGAL, "9.0", "no battle decision now");
    }
}

/* a battle decision's kind, rule and prompt */
static void s_prompt(brt_pending *out, const char *kind, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void s_prompt(brt_pending *out, const char *kind, const char *rule, const char *fmt, ...) {
    snprintf(out->kind, sizeof out->kind, "%s", kind);
    snprintf(out->rule, sizeof out->rule, "%s", rule);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->prompt, sizeof out->prompt, fmt, ap);
    va_end(ap);
}

void wnlb_battle_pending(const wnlb_state *s, brt_pending *out) {
    const wnlb_battle *b = &s->battle;
    const char *tid = s_live(s, b->target) ? s->sc->units[b->target].id : "";
    switch (s->phase) {
    case WNLB_PH_DECLARE:
        out->seats = 1u << wnlb_round_seat(s);
        s_prompt(out, "declare-battle", "9.0", "declare one battle (attack TARGET with UNITS), or no-battle");
        break;
    case WNLB_PH_BATTLE_CARDS:
        out->sealed = 1;
        if (!b->submitted[0]) out->seats |= 1u << s_att_seat(s);
        if (!b->submitted[1]) out->seats |= 1u << s_def_seat(s);
        s_prompt(out, "battle-cards", b->charge ? "11.4" : "9.3",
                 "%s on %s: choose your battle cards in secret (cards ID:USE ... or cards none)",
                 b->charge ? "Cavalry Charge (Elite Bonus cards only)" : "battle", tid);
        break;
    case WNLB_PH_LOSS:
        out->seats = 1u << s_def_seat(s);
        s_prompt(out, "loss", "9.4", "%s lost %d to %d: %s", tid, b->total[1], b->total[0],
                 b->more_than_double ? "reduce and retreat (more than twice)" : "reduce or retreat");
        break;
    case WNLB_PH_ADVANCE:
        out->seats = 1u << s_att_seat(s);
        s_prompt(out, "advance", "9.4", "advance one attacking unit into the vacated square");
        break;
    case WNLB_PH_ATT_REDUCE:
        out->seats = 1u << s_att_seat(s);
        s_prompt(out, "att-reduce", "9.4",
                 "the defender had more than twice as many: reduce one of your strongest attackers");
        break;
    case WNLB_PH_CHARGE:
        out->seats = 1u << s_att_seat(s);
        s_prompt(out, "charge", "11.5", "your cavalry must charge %s: charge 1 or charge 2", tid);
        break;
    default: break;
    }
}

static wnlb_order s_o(int kind) {
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.unit = o.target = o.row = o.col = -1;
    return o;
}

static int s_emit(const wnlb_state *s, const wnlb_order *o, brt_buf *out, int *n) {
    if (wnlb_order_encode(s, o, out)) return -1;
    (*n)++;
    return 0;
}

static int s_declare_legal(const wnlb_state *s, brt_buf *out) {
    int n = 0;
    wnlb_order o = s_o(WNLB_O_NO_BATTLE);
    if (s_emit(s, &o, out, &n)) return -1;
    for (size_t t = 0; t < s->sc->n_units; t++) {
        if (s_target_ok(s, (int)t, NULL)) continue;
        int el[WNLB_MAX_ATTACKERS], k = 0;
        for (size_t a = 0; a < s->sc->n_units && k < WNLB_MAX_ATTACKERS; a++)
            if (!s_attacker_ok(s, (int)a, (int)t, NULL)) el[k++] = (int)a;
        if (!k) continue;
        o = s_o(WNLB_O_ATTACK);
        o.target = (int)t;
        o.n_units = k;
        for (int i = 0; i < k; i++) o.units[i] = el[i];
        if (s_emit(s, &o, out, &n)) return -1;
        for (int i = 0; k > 1 && i < k; i++) {
            o.n_units = 1;
            o.units[0] = el[i];
            if (s_emit(s, &o, out, &n)) return -1;
        }
    }
    return n;
}

static int s_cards_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    const wnlb_battle *b = &s->battle;
    int side = -1, n = 0;
    if ((int)seat == s_att_seat(s) && !b->submitted[0]) side = 0;
    else if ((int)seat == s_def_seat(s) && !b->submitted[1]) side = 1;
    if (side < 0) return 0;
    int army = side ? s_def_army(s) : b->att_army;
    wnlb_order o = s_o(WNLB_O_BATTLE_CARDS);
    if (s_emit(s, &o, out, &n)) return -1;
    wnlb_order all = s_o(WNLB_O_BATTLE_CARDS);
    for (size_t ci = 0; ci < s->sc->n_cards; ci++) {
        if (s->sc->cards[ci].army != army || s->card_loc[ci] != WNLB_LOC_HAND) continue;
        static const int uses[] = {WNLB_USE_BP, WNLB_ACT_COMMAND, WNLB_ACT_ELITE};
        o = s_o(WNLB_O_BATTLE_CARDS);
        o.n_cards = 1;
        o.cards[0] = s->sc->cards[ci].id;
        for (int u = 0; u < 3; u++) {
            o.purposes[0] = uses[u];
            if (!s_cards_check(s, side, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
        }
        if (side && s->sc->cards[ci].action == WNLB_ACT_ARTILLERY && !b->charge) {
            o.purposes[0] = WNLB_ACT_ARTILLERY;
            for (size_t f = 0; f < s->sc->n_units; f++) {
                o.unit = (int)f;
                o.target = -1;
                if (!s_cards_check(s, side, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
                for (int i = 0; i < b->n_att; i++) { /* a chateau's infantry names its target [10.0] */
                    o.target = b->att[i];
                    if (!s_cards_check(s, side, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
                }
            }
            o.unit = o.target = -1;
        }
        all.cards[all.n_cards] = s->sc->cards[ci].id;
        all.purposes[all.n_cards] = WNLB_USE_BP;
        all.n_cards++;
        if (s_cards_check(s, side, &all, NULL)) all.n_cards--;
    }
    if (all.n_cards > 1 && !s_cards_check(s, side, &all, NULL) && s_emit(s, &all, out, &n)) return -1;
    return n;
}

static int s_loss_legal(const wnlb_state *s, brt_buf *out) {
    int n = 0, rows[4], cols[4], k = s_retreat_squares(s, rows, cols);
    wnlb_order o = s_o(WNLB_O_LOSS);
    o.flag = 0;
    if (!s_loss_check(s, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
    o.flag = 2;
    if (!s_loss_check(s, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
    o.flag = 1;
    for (int i = 0; i < k; i++)
        for (int f = 0; f < 4; f++) {
            o.row = rows[i];
            o.col = cols[i];
            o.facing = f;
            if (!s_loss_check(s, &o, NULL) && s_emit(s, &o, out, &n)) return -1;
        }
    return n;
}

int wnlb_battle_legal(const wnlb_state *s, unsigned seat, brt_buf *out) {
    int n = 0;
    wnlb_order o;
    switch (s->phase) {
    case WNLB_PH_DECLARE: return s_declare_legal(s, out);
    case WNLB_PH_BATTLE_CARDS: return s_cards_legal(s, seat, out);
    case WNLB_PH_LOSS: return s_loss_legal(s, out);
    case WNLB_PH_ADVANCE: {
        int adv[WNLB_MAX_ATTACKERS], k = s_advancers(s, adv);
        o = s_o(WNLB_O_ADVANCE);
        for (int i = 0; i < k; i++)
            for (int f = 0; f < 4; f++) {
                o.unit = adv[i];
                o.facing = f;
                if (s_emit(s, &o, out, &n)) return -1;
            }
        return n;
    }
    case WNLB_PH_ATT_REDUCE: {
        int st[WNLB_MAX_ATTACKERS], k = s_strongest(s, st);
        o = s_o(WNLB_O_REDUCE);
        for (int i = 0; i < k; i++) {
            o.unit = st[i];
            if (s_emit(s, &o, out, &n)) return -1;
        }
        return n;
    }
    case WNLB_PH_CHARGE:
        o = s_o(WNLB_O_CHARGE);
        for (int d = 1; d <= 2; d++) {
            o.n_steps = d;
            if (!s_charge_check(s, s->battle.att[0], s->battle.target, d, NULL) && s_emit(s, &o, out, &n)) return -1;
        }
        return n;
    default: return 0;
    }
}

int wnlb_battle_default(const wnlb_state *s, unsigned seat, wnlb_order *o) {
    (void)seat;
    const wnlb_battle *b = &s->battle;
    brt_reject e;
    switch (s->phase) {
    case WNLB_PH_DECLARE: o->kind = WNLB_O_NO_BATTLE; return 0;
    case WNLB_PH_BATTLE_CARDS: o->kind = WNLB_O_BATTLE_CARDS; o->n_cards = 0; return 0;
    case WNLB_PH_LOSS: {
        o->kind = WNLB_O_LOSS;
        o->flag = 0;
        if (!s_loss_check(s, o, &e)) return 0;
        int rows[4], cols[4];
        if (s_retreat_squares(s, rows, cols) < 1) return -1;
        o->flag = 1;
        o->row = rows[0];
        o->col = cols[0];
        o->facing = s->units[b->target].facing;
        return 0;
    }
    case WNLB_PH_ADVANCE: {
        int adv[WNLB_MAX_ATTACKERS];
        if (s_advancers(s, adv) < 1) return -1;
        o->kind = WNLB_O_ADVANCE;
        o->unit = adv[0];
        o->facing = s->units[adv[0]].facing;
        return 0;
    }
    case WNLB_PH_ATT_REDUCE: {
        int st[WNLB_MAX_ATTACKERS];
        if (s_strongest(s, st) < 1) return -1;
        o->kind = WNLB_O_REDUCE;
        o->unit = st[0];
        return 0;
    }
    case WNLB_PH_CHARGE:
        o->kind = WNLB_O_CHARGE;
        o->n_steps = s_charge_any(s, b->att[0], b->target);
        return o->n_steps ? 0 : -1;
    default: return -1;
    }
}
