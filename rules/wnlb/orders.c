/*
 * orders.c - the wnlb order in its three forms: wnlb_order (the engine's), wnlb.v1.Order (the
 * wire and the log) and the text syntax of docs/orders-wnlb.md. Decoding checks the form only
 * (ids known, counts in range); the rules are checked by apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "wnlb.h"
#include "wnlb/v1/wnlb.pb-c.h"

static const char *const s_arm[] = {"french", "british", "prussian"};
static const char *const s_use[] = {"bp", "artillery", "command", "elite"};
static const char *const s_act[] = {"none", "artillery", "command", "elite", "charge", "enemy-charge", "rally", "health"};

/* ---- wnlb_order -> Order bytes ---- */

int wnlb_order_encode(const wnlb_state *s, const wnlb_order *o, brt_buf *out) {
    Wnlb__V1__Order m = WNLB__V1__ORDER__INIT;
    Wnlb__V1__Play p = WNLB__V1__PLAY__INIT;
    Wnlb__V1__Move mv = WNLB__V1__MOVE__INIT;
    Wnlb__V1__Attack at = WNLB__V1__ATTACK__INIT;
    Wnlb__V1__BattleCards bc = WNLB__V1__BATTLE_CARDS__INIT;
    Wnlb__V1__Loss lo = WNLB__V1__LOSS__INIT;
    Wnlb__V1__Advance ad = WNLB__V1__ADVANCE__INIT;
    Wnlb__V1__Retreat re = WNLB__V1__RETREAT__INIT;
    Wnlb__V1__Fire fi = WNLB__V1__FIRE__INIT;
    char *names[WNLB_MAX_ATTACKERS];
    uint32_t steps[WNLB_MAX_STEPS], cards[WNLB_MAX_CARDS], uses[WNLB_MAX_CARDS];
    char sq[8];
    int n = o->n_units < 0 ? 0 : o->n_units > WNLB_MAX_ATTACKERS ? WNLB_MAX_ATTACKERS : o->n_units;
    for (int i = 0; i < n; i++) names[i] = (char *)wnlb_unit_name(s, o->units[i]);
    int ns = o->n_steps < 0 ? 0 : o->n_steps > WNLB_MAX_STEPS ? WNLB_MAX_STEPS : o->n_steps;
    for (int i = 0; i < ns; i++) steps[i] = o->steps[i];
    int nc = o->n_cards < 0 ? 0 : o->n_cards > WNLB_MAX_CARDS ? WNLB_MAX_CARDS : o->n_cards;
    for (int i = 0; i < nc; i++) {
        cards[i] = (uint32_t)o->cards[i];
        uses[i] = (uint32_t)o->purposes[i];
    }
    wnlb_square_name(o->row, o->col, sq, sizeof sq);
    char *square = o->row >= 0 ? sq : (char *)"";
    switch (o->kind) {
    case WNLB_O_BIDDER: m.kind_case = WNLB__V1__ORDER__KIND_BIDDER; m.bidder = (uint32_t)o->army; break;
    case WNLB_O_BID: m.kind_case = WNLB__V1__ORDER__KIND_BID; m.bid = (uint32_t)o->card; break;
    case WNLB_O_DECK: m.kind_case = WNLB__V1__ORDER__KIND_DECK; m.deck = (uint32_t)o->army; break;
    case WNLB_O_PLAY:
        p.card = (uint32_t)o->card;
        p.purpose = (uint32_t)o->purpose;
        p.action = o->purpose == WNLB_PURPOSE_ACTION ? (uint32_t)o->action : 0;
        p.n_units = (size_t)n;
        p.units = names;
        p.target = (char *)wnlb_unit_name(s, o->target);
        p.n_path = (size_t)ns;
        p.path = steps;
        /* [11.6] Rally's second choice (R-wnlb-11.6-rally-mode) */
        p.rally_flip = o->purpose == WNLB_PURPOSE_ACTION && o->action == WNLB_ACT_RALLY && o->flag;
        m.kind_case = WNLB__V1__ORDER__KIND_PLAY;
        m.play = &p;
        break;
    case WNLB_O_MOVE:
        mv.unit = (char *)wnlb_unit_name(s, o->unit);
        mv.n_steps = (size_t)ns;
        mv.steps = steps;
        mv.entry = square;
        mv.facing = (uint32_t)o->facing;
        m.kind_case = WNLB__V1__ORDER__KIND_MOVE;
        m.move = &mv;
        break;
    case WNLB_O_DONE: m.kind_case = WNLB__V1__ORDER__KIND_DONE; m.done = 1; break;
    case WNLB_O_ATTACK:
        at.target = (char *)wnlb_unit_name(s, o->target);
        at.n_attackers = (size_t)n;
        at.attackers = names;
        m.kind_case = WNLB__V1__ORDER__KIND_ATTACK;
        m.attack = &at;
        break;
    case WNLB_O_NO_BATTLE: m.kind_case = WNLB__V1__ORDER__KIND_NO_BATTLE; m.no_battle = 1; break;
    case WNLB_O_BATTLE_CARDS:
        bc.n_cards = bc.n_uses = (size_t)nc;
        bc.cards = cards;
        bc.uses = uses;
        bc.fire_unit = (char *)wnlb_unit_name(s, o->unit);
        bc.fire_target = (char *)wnlb_unit_name(s, o->target);
        m.kind_case = WNLB__V1__ORDER__KIND_BATTLE_CARDS;
        m.battle_cards = &bc;
        break;
    case WNLB_O_LOSS:
        lo.choice = (uint32_t)o->flag + 1;
        lo.square = square;
        lo.facing = (uint32_t)o->facing;
        m.kind_case = WNLB__V1__ORDER__KIND_LOSS;
        m.loss = &lo;
        break;
    case WNLB_O_ADVANCE:
        ad.unit = (char *)wnlb_unit_name(s, o->unit);
        ad.facing = (uint32_t)o->facing;
        m.kind_case = WNLB__V1__ORDER__KIND_ADVANCE;
        m.advance = &ad;
        break;
    case WNLB_O_REDUCE: m.kind_case = WNLB__V1__ORDER__KIND_REDUCE; m.reduce = (char *)wnlb_unit_name(s, o->unit); break;
    case WNLB_O_CAV_RETREAT:
        re.square = o->flag ? (char *)"" : square;
        re.facing = (uint32_t)o->facing;
        m.kind_case = WNLB__V1__ORDER__KIND_CAV_RETREAT;
        m.cav_retreat = &re;
        break;
    case WNLB_O_FIRE:
        fi.card = o->flag ? 0 : (uint32_t)o->card;
        fi.unit = o->flag ? (char *)"" : (char *)wnlb_unit_name(s, o->unit);
        fi.target = o->flag ? (char *)"" : (char *)wnlb_unit_name(s, o->target);
        m.kind_case = WNLB__V1__ORDER__KIND_FIRE;
        m.fire = &fi;
        break;
    case WNLB_O_DISPLACE: m.kind_case = WNLB__V1__ORDER__KIND_DISPLACE; m.displace = square; break;
    case WNLB_O_PASS: m.kind_case = WNLB__V1__ORDER__KIND_PASS; m.pass = 1; break;
    case WNLB_O_END_ROUND: m.kind_case = WNLB__V1__ORDER__KIND_END_ROUND; m.end_round = 1; break;
    case WNLB_O_CHARGE: m.kind_case = WNLB__V1__ORDER__KIND_CHARGE; m.charge = (uint32_t)ns; break;
    default: return -1;
    }
    size_t len = wnlb__v1__order__get_packed_size(&m);
    uint8_t b[1024];
    if (len > sizeof b) return -1;
    wnlb__v1__order__pack(&m, b);
    return buf_append_item(out, b, len);
}

/* ---- Order bytes -> wnlb_order ---- */

/* a unit id of the order: -2 when the text names no unit of the game */
static int s_unit(const wnlb_state *s, const char *id, int *out) {
    if (!id || !id[0]) {
        *out = -1;
        return 0;
    }
    *out = wnlb_unit_find(s, id);
    return *out == -1 ? -1 : 0;
}

static int s_square(const wnlb_state *s, const char *t, int *row, int *col) {
    *row = *col = -1;
    if (!t || !t[0]) return 0;
    if (wnlb_square_parse(t, row, col) || !wnlb_on_board(s, *row, *col)) return -1;
    return 0;
}

int wnlb_order_decode(const wnlb_state *s, const uint8_t *data, size_t len, wnlb_order *o, brt_reject *err) {
    ProtobufCMessage *pm = NULL;
    int crc = canon_unpack(&wnlb__v1__order__descriptor, data, len, 4096, &pm);
    if (crc != CANON_OK) return brt_reject_set(err, BRT_REJECT_MALFORMED, "6.0", "the order: %s", canon_strerror(crc));
    Wnlb__V1__Order *m = (Wnlb__V1__Order *)pm;
    memset(o, 0, sizeof *o);
    o->unit = o->target = o->row = o->col = -1;
    const char *bad = NULL;
    switch (m->kind_case) {
    case WNLB__V1__ORDER__KIND_BIDDER:
        o->kind = WNLB_O_BIDDER;
        o->army = (int)(m->bidder > 9 ? 9 : m->bidder);
        break;
    case WNLB__V1__ORDER__KIND_BID: o->kind = WNLB_O_BID; o->card = (int)(m->bid > 255 ? 255 : m->bid); break;
    case WNLB__V1__ORDER__KIND_DECK: o->kind = WNLB_O_DECK; o->army = (int)(m->deck > 9 ? 9 : m->deck); break;
    case WNLB__V1__ORDER__KIND_PLAY: {
        const Wnlb__V1__Play *p = m->play;
        o->kind = WNLB_O_PLAY;
        o->card = (int)(p->card > 255 ? 255 : p->card);
        o->purpose = (int)(p->purpose > 9 ? 9 : p->purpose);
        o->action = (int)(p->action > 99 ? 99 : p->action);
        if (p->n_units > WNLB_MAX_ATTACKERS) bad = "too many units";
        for (size_t i = 0; !bad && i < p->n_units; i++) {
            if (s_unit(s, p->units[i], &o->units[i]) || o->units[i] < 0) bad = "an unknown unit";
            o->n_units = (int)i + 1;
        }
        if (!bad && s_unit(s, p->target, &o->target)) bad = "an unknown target";
        /* one encoding per order: a target only for a charge [11.4] [11.5] or a fire [11.1] */
        if (!bad && o->target != -1 &&
            (p->purpose != WNLB_PURPOSE_ACTION ||
             (p->action != WNLB_ACT_CHARGE && p->action != WNLB_ACT_ENEMY_CHARGE && p->action != WNLB_ACT_ARTILLERY)))
            bad = "a target goes with a charge or an Artillery Fire";
        if (p->n_path > 2) bad = "a charge path is 1 or 2 squares [11.4]";
        if (p->n_path && (p->purpose != WNLB_PURPOSE_ACTION || p->action != WNLB_ACT_CHARGE))
            bad = "a path goes with a Cavalry Charge [11.4]";
        /* one encoding per order: the flip belongs to a Rally played for its action [11.6] */
        if (p->rally_flip && (p->purpose != WNLB_PURPOSE_ACTION || p->action != WNLB_ACT_RALLY))
            bad = "rally_flip is a Rally's choice [11.6]";
        o->flag = p->rally_flip ? 1 : 0;
        for (size_t i = 0; !bad && i < p->n_path; i++) o->steps[i] = (uint8_t)(p->path[i] > 9 ? 9 : p->path[i]);
        o->n_steps = (int)p->n_path;
        break;
    }
    case WNLB__V1__ORDER__KIND_MOVE: {
        const Wnlb__V1__Move *mv = m->move;
        o->kind = WNLB_O_MOVE;
        if (s_unit(s, mv->unit, &o->unit) || o->unit == -1) bad = "an unknown unit";
        if (mv->n_steps > WNLB_MAX_STEPS) bad = "too many steps";
        for (size_t i = 0; !bad && i < mv->n_steps; i++) {
            if (mv->steps[i] > WNLB_STEP_FWD) bad = "a step is 0..3 (face or go N E S W) or 4 (ahead)";
            o->steps[i] = (uint8_t)mv->steps[i];
        }
        o->n_steps = bad ? 0 : (int)mv->n_steps;
        if (!bad && s_square(s, mv->entry, &o->row, &o->col)) bad = "an entry square off the board";
        if (mv->facing > 3) bad = "a facing is 0..3 (N E S W)";
        o->facing = (int)(mv->facing & 3);
        break;
    }
    case WNLB__V1__ORDER__KIND_DONE: o->kind = WNLB_O_DONE; if (m->done != 1) bad = "done is 1"; break;
    case WNLB__V1__ORDER__KIND_ATTACK: {
        const Wnlb__V1__Attack *a = m->attack;
        o->kind = WNLB_O_ATTACK;
        if (s_unit(s, a->target, &o->target) || o->target < 0 || o->target >= WNLB_CMD0) bad = "an unknown target";
        if (a->n_attackers > WNLB_MAX_ATTACKERS) bad = "at most four attackers [9.2]";
        for (size_t i = 0; !bad && i < a->n_attackers; i++) {
            if (s_unit(s, a->attackers[i], &o->units[i]) || o->units[i] < 0 || o->units[i] >= WNLB_CMD0)
                bad = "an unknown attacker";
            o->n_units = (int)i + 1;
        }
        break;
    }
    case WNLB__V1__ORDER__KIND_NO_BATTLE: o->kind = WNLB_O_NO_BATTLE; if (m->no_battle != 1) bad = "no_battle is 1"; break;
    case WNLB__V1__ORDER__KIND_BATTLE_CARDS: {
        const Wnlb__V1__BattleCards *b = m->battle_cards;
        o->kind = WNLB_O_BATTLE_CARDS;
        if (b->n_cards > WNLB_MAX_CARDS || b->n_uses != b->n_cards) bad = "one use per card";
        for (size_t i = 0; !bad && i < b->n_cards; i++) {
            o->cards[i] = (int)(b->cards[i] > 255 ? 255 : b->cards[i]);
            o->purposes[i] = (int)(b->uses[i] > 9 ? 9 : b->uses[i]);
        }
        o->n_cards = bad ? 0 : (int)b->n_cards;
        if (!bad && s_unit(s, b->fire_unit, &o->unit)) bad = "an unknown firing unit";
        if (!bad && (s_unit(s, b->fire_target, &o->target) || o->target >= WNLB_CMD0)) bad = "an unknown fire target";
        break;
    }
    case WNLB__V1__ORDER__KIND_LOSS: {
        const Wnlb__V1__Loss *l = m->loss;
        o->kind = WNLB_O_LOSS;
        if (l->choice < 1 || l->choice > 3) bad = "a loss is 1 reduce, 2 retreat or 3 a CDP";
        o->flag = (int)l->choice - 1;
        if (!bad && s_square(s, l->square, &o->row, &o->col)) bad = "a retreat square off the board";
        if (l->facing > 3) bad = "a facing is 0..3 (N E S W)";
        o->facing = (int)(l->facing & 3);
        break;
    }
    case WNLB__V1__ORDER__KIND_ADVANCE:
        o->kind = WNLB_O_ADVANCE;
        if (s_unit(s, m->advance->unit, &o->unit)) bad = "an unknown unit";
        if (m->advance->facing > 3) bad = "a facing is 0..3 (N E S W)";
        o->facing = (int)(m->advance->facing & 3);
        break;
    case WNLB__V1__ORDER__KIND_REDUCE:
        o->kind = WNLB_O_REDUCE;
        if (s_unit(s, m->reduce, &o->unit) || o->unit < 0) bad = "an unknown unit";
        break;
    case WNLB__V1__ORDER__KIND_CAV_RETREAT:
        o->kind = WNLB_O_CAV_RETREAT;
        if (s_square(s, m->cav_retreat->square, &o->row, &o->col)) bad = "a square off the board";
        o->flag = o->row < 0;
        if (m->cav_retreat->facing > 3) bad = "a facing is 0..3 (N E S W)";
        o->facing = (int)(m->cav_retreat->facing & 3);
        break;
    case WNLB__V1__ORDER__KIND_FIRE:
        o->kind = WNLB_O_FIRE;
        o->card = (int)(m->fire->card > 255 ? 255 : m->fire->card);
        o->flag = o->card == 0;
        if (s_unit(s, m->fire->unit, &o->unit)) bad = "an unknown unit";
        if (!bad && (s_unit(s, m->fire->target, &o->target) || o->target >= WNLB_CMD0)) bad = "an unknown fire target";
        if (!bad && o->flag && (o->unit != -1 || o->target != -1)) bad = "fire none names no unit";
        break;
    case WNLB__V1__ORDER__KIND_DISPLACE:
        o->kind = WNLB_O_DISPLACE;
        if (s_square(s, m->displace, &o->row, &o->col) || o->row < 0) bad = "a square off the board";
        break;
    case WNLB__V1__ORDER__KIND_PASS: o->kind = WNLB_O_PASS; if (m->pass != 1) bad = "pass is 1"; break;
    case WNLB__V1__ORDER__KIND_END_ROUND: o->kind = WNLB_O_END_ROUND; if (m->end_round != 1) bad = "end_round is 1"; break;
    case WNLB__V1__ORDER__KIND_CHARGE:
        o->kind = WNLB_O_CHARGE;
        if (m->charge < 1 || m->charge > 2) bad = "a charge goes 1 or 2 squares [11.4]";
        o->n_steps = (int)(m->charge > 2 ? 2 : m->charge);
        break;
    default: bad = "no order kind";
    }
    protobuf_c_message_free_unpacked(pm, NULL);
    if (bad) return brt_reject_set(err, BRT_REJECT_MALFORMED, "6.0", "the order: %s", bad);
    return 0;
}

/* ---- text (docs/orders-wnlb.md) ---- */

#define S_WORDS 48

static int s_army_word(const char *w) {
    for (int a = 0; a < WNLB_ARMIES; a++)
        if (!strcmp(w, s_arm[a])) return a;
    return -1;
}

static int s_facing_word(const char *w) {
    if (strlen(w) != 1) return -1;
    const char *p = strchr("NESW", w[0]);
    return p ? (int)(p - "NESW") : -1;
}

static int s_num(const char *w, int max) {
    char *end = NULL;
    long v = strtol(w, &end, 10);
    if (!w[0] || *end || v < 0 || v > max) return -1;
    return (int)v;
}

/* "FFSF": F one square ahead, N E S W face (a commander: go) that way [8.0] [8.1] */
static int s_steps(const char *w, wnlb_order *o) {
    size_t n = strlen(w);
    if (n > WNLB_MAX_STEPS) return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = strchr("NESWF", w[i]);
        if (!p || !w[i]) return -1;
        o->steps[i] = (uint8_t)(p - "NESWF");
    }
    o->n_steps = (int)n;
    return 0;
}

static int s_text_unit(const wnlb_state *s, const char *w, int *u) {
    *u = wnlb_unit_find(s, w);
    return *u == -1 ? -1 : 0;
}

static int s_text_square(const wnlb_state *s, const char *w, int *row, int *col) {
    return wnlb_square_parse(w, row, col) || !wnlb_on_board(s, *row, *col) ? -1 : 0;
}

static int s_parse(const wnlb_state *s, char **w, int n, wnlb_order *o, const char **why) {
    const char *k = w[0];
    *why = NULL;
    if (n == 1 && !strcmp(k, "pass")) o->kind = WNLB_O_PASS;
    else if (n == 1 && !strcmp(k, "end")) o->kind = WNLB_O_END_ROUND;
    else if (n == 1 && !strcmp(k, "done")) o->kind = WNLB_O_DONE;
    else if (n == 1 && !strcmp(k, "no-battle")) o->kind = WNLB_O_NO_BATTLE;
    else if (n == 2 && !strcmp(k, "bidder")) {
        o->kind = WNLB_O_BIDDER;
        if ((o->army = s_army_word(w[1])) < 1) *why = "bidder british|prussian";
    } else if (n == 2 && !strcmp(k, "deck")) {
        o->kind = WNLB_O_DECK;
        if ((o->army = s_army_word(w[1])) < 1) *why = "deck british|prussian";
    } else if (n == 2 && !strcmp(k, "bid")) {
        o->kind = WNLB_O_BID;
        o->card = !strcmp(w[1], "none") ? 0 : s_num(w[1], 255);
        if (o->card < 0) *why = "bid ID|none";
    } else if (n >= 3 && !strcmp(k, "play")) {
        o->kind = WNLB_O_PLAY;
        if ((o->card = s_num(w[1], 255)) < 1) *why = "play ID PURPOSE";
        else if (!strcmp(w[2], "move") && n == 3) o->purpose = WNLB_PURPOSE_MOVE;
        else {
            o->purpose = WNLB_PURPOSE_ACTION;
            o->action = -1;
            for (int a = 1; a < WNLB_ACT_COUNT; a++)
                if (!strcmp(w[2], s_act[a])) o->action = a;
            if (!strcmp(w[2], "rally-flip")) { /* [11.6] the second choice: flip one Reduced unit */
                o->action = WNLB_ACT_RALLY;
                o->flag = 1;
            }
            int i = 3;
            if (o->action < 0) *why = "play ID move|artillery|rally|rally-flip|health|charge|enemy-charge ...";
            else if (o->action == WNLB_ACT_CHARGE || o->action == WNLB_ACT_ENEMY_CHARGE) {
                /* play ID charge UNIT TARGET N / play ID enemy-charge UNIT TARGET */
                if (n < 5 || s_text_unit(s, w[3], &o->units[0]) || s_text_unit(s, w[4], &o->target))
                    *why = "play ID charge UNIT TARGET 1|2";
                o->n_units = 1;
                if (!*why && o->action == WNLB_ACT_CHARGE) {
                    int d = n == 6 ? s_num(w[5], 2) : -1;
                    if (d < 1) *why = "play ID charge UNIT TARGET 1|2";
                    o->n_steps = d < 0 ? 0 : d;
                } else if (n != 5)
                    *why = "play ID enemy-charge UNIT TARGET";
            } else if (o->action == WNLB_ACT_ARTILLERY) {
                /* play ID artillery UNIT [TARGET]: the target named when several are frontally adjacent */
                if (n < 4 || n > 5 || s_text_unit(s, w[3], &o->units[0]) || (n == 5 && s_text_unit(s, w[4], &o->target)))
                    *why = "play ID artillery UNIT [TARGET]";
                o->n_units = 1;
            } else {
                for (; i < n && !*why; i++) {
                    if (o->n_units >= WNLB_MAX_ATTACKERS || s_text_unit(s, w[i], &o->units[o->n_units]))
                        *why = "an unknown unit";
                    o->n_units++;
                }
            }
        }
    } else if (n >= 3 && !strcmp(k, "move")) {
        /* move UNIT STEPS */
        o->kind = WNLB_O_MOVE;
        if (n != 3 || s_text_unit(s, w[1], &o->unit) || s_steps(w[2], o)) *why = "move UNIT STEPS (F ahead, N E S W face)";
    } else if (n >= 4 && !strcmp(k, "enter")) {
        /* enter UNIT SQUARE FACING [STEPS] [5.0] */
        o->kind = WNLB_O_MOVE;
        if (n > 5 || s_text_unit(s, w[1], &o->unit) || s_text_square(s, w[2], &o->row, &o->col) ||
            (o->facing = s_facing_word(w[3])) < 0 || (n == 5 && s_steps(w[4], o)))
            *why = "enter UNIT SQUARE FACING [STEPS]";
    } else if (n >= 4 && !strcmp(k, "attack") && !strcmp(w[2], "with")) {
        o->kind = WNLB_O_ATTACK;
        if (s_text_unit(s, w[1], &o->target) || n - 3 > WNLB_MAX_ATTACKERS) *why = "attack TARGET with UNIT [UNIT ...]";
        for (int i = 3; i < n && !*why; i++)
            if (s_text_unit(s, w[i], &o->units[o->n_units++])) *why = "an unknown attacker";
    } else if (n >= 2 && !strcmp(k, "cards")) {
        /* cards none | cards ID:bp ID:command ID:elite ID:artillery [fire UNIT] */
        o->kind = WNLB_O_BATTLE_CARDS;
        for (int i = 1; i < n && !*why; i++) {
            if (i == 1 && n == 2 && !strcmp(w[1], "none")) break;
            if (!strcmp(w[i], "fire") && (i + 2 == n || i + 3 == n)) {
                if (s_text_unit(s, w[i + 1], &o->unit)) *why = "an unknown firing unit";
                else if (i + 3 == n && s_text_unit(s, w[i + 2], &o->target)) *why = "an unknown fire target";
                break;
            }
            char *c = strchr(w[i], ':');
            if (!c || o->n_cards >= WNLB_MAX_CARDS) {
                *why = "cards ID:USE ... (USE bp, command, elite, artillery) [fire UNIT]";
                break;
            }
            *c = 0;
            int id = s_num(w[i], 255), use = -1;
            for (int u = 0; u < 4; u++)
                if (!strcmp(c + 1, s_use[u])) use = u;
            if (id < 1 || use < 0) *why = "cards ID:USE ... (USE bp, command, elite, artillery) [fire UNIT]";
            o->cards[o->n_cards] = id;
            o->purposes[o->n_cards++] = use;
        }
    } else if (n >= 2 && !strcmp(k, "loss")) {
        /* loss reduce | loss cdp | loss retreat SQUARE FACING */
        o->kind = WNLB_O_LOSS;
        if (n == 2 && !strcmp(w[1], "reduce")) o->flag = 0;
        else if (n == 2 && !strcmp(w[1], "cdp")) o->flag = 2;
        else if (n == 4 && !strcmp(w[1], "retreat") && !s_text_square(s, w[2], &o->row, &o->col) &&
                 (o->facing = s_facing_word(w[3])) >= 0)
            o->flag = 1;
        else *why = "loss reduce | loss cdp | loss retreat SQUARE FACING";
    } else if (n >= 2 && !strcmp(k, "advance")) {
        o->kind = WNLB_O_ADVANCE;
        if (n == 2 && !strcmp(w[1], "none")) o->unit = -1;
        else if (n != 3 || s_text_unit(s, w[1], &o->unit) || (o->facing = s_facing_word(w[2])) < 0)
            *why = "advance UNIT FACING | advance none";
    } else if (n == 2 && !strcmp(k, "reduce")) {
        o->kind = WNLB_O_REDUCE;
        if (s_text_unit(s, w[1], &o->unit)) *why = "reduce UNIT";
    } else if (n >= 2 && !strcmp(k, "evade")) {
        /* evade SQUARE FACING | evade none [9.6] */
        o->kind = WNLB_O_CAV_RETREAT;
        if (n == 2 && !strcmp(w[1], "none")) o->flag = 1;
        else if (n != 3 || s_text_square(s, w[1], &o->row, &o->col) || (o->facing = s_facing_word(w[2])) < 0)
            *why = "evade SQUARE FACING | evade none";
    } else if (n >= 2 && !strcmp(k, "fire")) {
        /* fire ID UNIT | fire none [11.1] */
        o->kind = WNLB_O_FIRE;
        if (n == 2 && !strcmp(w[1], "none")) o->flag = 1;
        else if (n < 3 || n > 4 || (o->card = s_num(w[1], 255)) < 1 || s_text_unit(s, w[2], &o->unit) ||
                 (n == 4 && s_text_unit(s, w[3], &o->target)))
            *why = "fire ID UNIT [TARGET] | fire none";
    } else if (n == 2 && !strcmp(k, "displace")) {
        o->kind = WNLB_O_DISPLACE;
        if (s_text_square(s, w[1], &o->row, &o->col)) *why = "displace SQUARE";
    } else if (n == 2 && !strcmp(k, "charge")) {
        o->kind = WNLB_O_CHARGE;
        if ((o->n_steps = s_num(w[1], 2)) < 1) *why = "charge 1|2";
    } else
        *why = "unknown order (docs/orders-wnlb.md)";
    return *why ? -1 : 0;
}

int wnlb_order_parse(const wnlb_state *s, const char *text, brt_buf *out, brt_reject *err) {
    char buf[512], *w[S_WORDS];
    int n = 0;
    if (!text || strlen(text) >= sizeof buf)
        return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "no order text, or one too long");
    snprintf(buf, sizeof buf, "%s", text);
    for (char *t = strtok(buf, " \t\r\n"); t && n < S_WORDS; t = strtok(NULL, " \t\r\n")) w[n++] = t;
    if (!n) return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "no order text");
    wnlb_order o;
    memset(&o, 0, sizeof o);
    o.unit = o.target = o.row = o.col = -1;
    const char *why = NULL;
    if (s_parse(s, w, n, &o, &why))
        return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "\"%.60s\": %s", text, why);
    if (wnlb_order_encode(s, &o, out)) return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "6.0", "the order does not encode");
    return 0;
}

static void s_fmt_steps(brt_buf *out, const uint32_t *steps, size_t n) {
    for (size_t i = 0; i < n; i++) buf_printf(out, "%c", steps[i] <= 4 ? "NESWF"[steps[i]] : '?');
}

static const char *s_face(uint32_t f) { return f == 0 ? "N" : f == 1 ? "E" : f == 2 ? "S" : f == 3 ? "W" : "?"; }

int wnlb_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    Wnlb__V1__Order *m = wnlb__v1__order__unpack(NULL, len, order);
    if (!m) return -1;
    switch (m->kind_case) {
    case WNLB__V1__ORDER__KIND_BIDDER: buf_printf(out, "bidder %s", m->bidder < 3 ? s_arm[m->bidder] : "?"); break;
    case WNLB__V1__ORDER__KIND_BID:
        if (m->bid) buf_printf(out, "bid %u", m->bid);
        else buf_printf(out, "bid none");
        break;
    case WNLB__V1__ORDER__KIND_DECK: buf_printf(out, "deck %s", m->deck < 3 ? s_arm[m->deck] : "?"); break;
    case WNLB__V1__ORDER__KIND_PLAY: {
        const Wnlb__V1__Play *p = m->play;
        if (p->purpose == WNLB_PURPOSE_MOVE) {
            buf_printf(out, "play %u move", p->card);
            break;
        }
        buf_printf(out, "play %u %s", p->card,
                   p->action == WNLB_ACT_RALLY && p->rally_flip ? "rally-flip"
                   : p->action < WNLB_ACT_COUNT                 ? s_act[p->action]
                                                                : "?");
        for (size_t i = 0; i < p->n_units; i++) buf_printf(out, " %s", p->units[i]);
        if (p->target[0]) buf_printf(out, " %s", p->target);
        if (p->action == WNLB_ACT_CHARGE) buf_printf(out, " %zu", p->n_path);
        break;
    }
    case WNLB__V1__ORDER__KIND_MOVE:
        if (m->move->entry[0]) buf_printf(out, "enter %s %s %s", m->move->unit, m->move->entry, s_face(m->move->facing));
        else buf_printf(out, "move %s", m->move->unit);
        if (m->move->n_steps || !m->move->entry[0]) buf_printf(out, " ");
        s_fmt_steps(out, m->move->steps, m->move->n_steps);
        break;
    case WNLB__V1__ORDER__KIND_DONE: buf_printf(out, "done"); break;
    case WNLB__V1__ORDER__KIND_ATTACK:
        buf_printf(out, "attack %s with", m->attack->target);
        for (size_t i = 0; i < m->attack->n_attackers; i++) buf_printf(out, " %s", m->attack->attackers[i]);
        break;
    case WNLB__V1__ORDER__KIND_NO_BATTLE: buf_printf(out, "no-battle"); break;
    case WNLB__V1__ORDER__KIND_BATTLE_CARDS: {
        const Wnlb__V1__BattleCards *b = m->battle_cards;
        buf_printf(out, "cards");
        if (!b->n_cards) buf_printf(out, " none");
        for (size_t i = 0; i < b->n_cards; i++)
            buf_printf(out, " %u:%s", b->cards[i], i < b->n_uses && b->uses[i] < 4 ? s_use[b->uses[i]] : "?");
        if (b->fire_unit[0]) buf_printf(out, " fire %s", b->fire_unit);
        if (b->fire_unit[0] && b->fire_target[0]) buf_printf(out, " %s", b->fire_target);
        break;
    }
    case WNLB__V1__ORDER__KIND_LOSS:
        if (m->loss->choice == 2) buf_printf(out, "loss retreat %s %s", m->loss->square, s_face(m->loss->facing));
        else buf_printf(out, "loss %s", m->loss->choice == 3 ? "cdp" : "reduce");
        break;
    case WNLB__V1__ORDER__KIND_ADVANCE:
        if (m->advance->unit[0]) buf_printf(out, "advance %s %s", m->advance->unit, s_face(m->advance->facing));
        else buf_printf(out, "advance none");
        break;
    case WNLB__V1__ORDER__KIND_REDUCE: buf_printf(out, "reduce %s", m->reduce); break;
    case WNLB__V1__ORDER__KIND_CAV_RETREAT:
        if (m->cav_retreat->square[0]) buf_printf(out, "evade %s %s", m->cav_retreat->square, s_face(m->cav_retreat->facing));
        else buf_printf(out, "evade none");
        break;
    case WNLB__V1__ORDER__KIND_FIRE:
        if (m->fire->card) buf_printf(out, "fire %u %s%s%s", m->fire->card, m->fire->unit, m->fire->target[0] ? " " : "",
                                      m->fire->target);
        else buf_printf(out, "fire none");
        break;
    case WNLB__V1__ORDER__KIND_DISPLACE: buf_printf(out, "displace %s", m->displace); break;
    case WNLB__V1__ORDER__KIND_PASS: buf_printf(out, "pass"); break;
    case WNLB__V1__ORDER__KIND_END_ROUND: buf_printf(out, "end"); break;
    case WNLB__V1__ORDER__KIND_CHARGE: buf_printf(out, "charge %u", m->charge); break;
    default: buf_printf(out, "order");
    }
    wnlb__v1__order__free_unpacked(m, NULL);
    return 0;
}
