/*
 * codec.c - the wem order in its wire form (proto wem.v1.Order, rules/wem/README.md) and the
 * events. Decoding checks the form only (pieces known, counts in range); apply checks the rules.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "wem.h"
#include "wem/v1/wem.pb-c.h"

void wem_order_init(wem_order *o, int kind) {
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->unit = o->target = o->general = -1;
}

const char *wem_piece_id(const wem_state *s, int piece) {
    if (piece >= 0 && (size_t)piece < s->sc->n_units) return s->sc->units[piece].id;
    if (piece >= WEM_GEN_BASE && (size_t)(piece - WEM_GEN_BASE) < s->sc->n_generals)
        return s->sc->generals[piece - WEM_GEN_BASE].id;
    return "";
}

int wem_piece_find(const wem_state *s, const char *id) {
    int u = wem_unit_find(s, id);
    if (u >= 0) return u;
    int g = wem_general_find(s, id);
    return g >= 0 ? WEM_GEN_BASE + g : -1;
}

/* ---- wem_order -> Order bytes ---- */

static void s_pose(Wem__V1__Pose *p, wem_pt at, int32_t h) {
    p->x = at.x;
    p->y = at.y;
    p->h = h;
}

int wem_order_encode(const wem_state *s, const wem_order *o, brt_buf *out) {
    Wem__V1__Order m = WEM__V1__ORDER__INIT;
    Wem__V1__Bid bid = WEM__V1__BID__INIT;
    Wem__V1__Places pl = WEM__V1__PLACES__INIT;
    Wem__V1__Bombard bo = WEM__V1__BOMBARD__INIT;
    Wem__V1__Assign as = WEM__V1__ASSIGN__INIT;
    Wem__V1__MoveGeneral mg = WEM__V1__MOVE_GENERAL__INIT;
    Wem__V1__Command cm = WEM__V1__COMMAND__INIT;
    Wem__V1__Maneuver mv = WEM__V1__MANEUVER__INIT;
    Wem__V1__Units un = WEM__V1__UNITS__INIT;
    Wem__V1__Combat co = WEM__V1__COMBAT__INIT;
    Wem__V1__Answer an = WEM__V1__ANSWER__INIT;
    Wem__V1__Pose pose = WEM__V1__POSE__INIT;
    Wem__V1__Pose poses[WEM_MAX_LIST];
    Wem__V1__Placement places[WEM_MAX_LIST];
    Wem__V1__Placement *pp[WEM_MAX_LIST];
    char *names[WEM_MAX_LIST];
    uint32_t bids[WEM_MAX_LIST];
    int32_t vals[WEM_MAX_LIST];
    int nu = o->n_units < 0 ? 0 : o->n_units > WEM_MAX_LIST ? WEM_MAX_LIST : o->n_units;
    int np = o->n_places < 0 ? 0 : o->n_places > WEM_MAX_LIST ? WEM_MAX_LIST : o->n_places;
    int nv = o->n_values < 0 ? 0 : o->n_values > WEM_MAX_LIST ? WEM_MAX_LIST : o->n_values;
    for (int i = 0; i < nu; i++) names[i] = (char *)wem_piece_id(s, o->units[i]);
    for (int i = 0; i < np; i++) {
        wem__v1__placement__init(&places[i]);
        wem__v1__pose__init(&poses[i]);
        s_pose(&poses[i], o->places[i].at, o->places[i].h);
        places[i].piece = (char *)wem_piece_id(s, o->places[i].piece);
        places[i].pose = &poses[i];
        places[i].fastened = o->places[i].fastened != 0;
        pp[i] = &places[i];
    }
    for (int i = 0; i < nv; i++) {
        vals[i] = o->values[i];
        bids[i] = o->values[i] < 0 ? 0 : (uint32_t)o->values[i];
    }
    const char *gen = o->general >= 0 ? wem_piece_id(s, WEM_GEN_BASE + o->general) : "";
    switch (o->kind) {
    case WEM_O_BID:
        bid.n_markers = (size_t)nv;
        bid.markers = bids;
        m.kind_case = WEM__V1__ORDER__KIND_BID;
        m.bid = &bid;
        break;
    case WEM_O_PLACE:
        pl.n_places = (size_t)np;
        pl.places = pp;
        m.kind_case = WEM__V1__ORDER__KIND_PLACE;
        m.place = &pl;
        break;
    case WEM_O_DONE: m.kind_case = WEM__V1__ORDER__KIND_DONE; m.done = 1; break;
    case WEM_O_BOMBARD:
        bo.gun = (char *)wem_piece_id(s, o->unit);
        bo.target = (char *)wem_piece_id(s, o->target);
        bo.n_support = (size_t)nu;
        bo.support = names;
        m.kind_case = WEM__V1__ORDER__KIND_BOMBARD;
        m.bombard = &bo;
        break;
    case WEM_O_ASSIGN:
        as.general = (char *)gen;
        as.markers = o->value < 0 ? 0 : (uint32_t)o->value;
        m.kind_case = WEM__V1__ORDER__KIND_ASSIGN;
        m.assign = &as;
        break;
    case WEM_O_GENERAL:
        mg.general = (char *)gen;
        s_pose(&pose, o->at, o->h);
        mg.pose = &pose;
        mg.attach = (char *)wem_piece_id(s, o->target);
        m.kind_case = WEM__V1__ORDER__KIND_GENERAL;
        m.general = &mg;
        break;
    case WEM_O_COMMAND:
        cm.kind = o->value < 0 ? 0 : (uint32_t)o->value;
        cm.general = (char *)gen;
        cm.n_units = (size_t)nu;
        cm.units = names;
        cm.n_places = (size_t)np;
        cm.places = pp;
        cm.out_of_sequence = o->flag != 0;
        cm.markers_only = o->pay_markers != 0;
        m.kind_case = WEM__V1__ORDER__KIND_COMMAND;
        m.command = &cm;
        break;
    case WEM_O_MANEUVER:
        mv.kind = o->value < 0 ? 0 : (uint32_t)o->value;
        mv.n_units = (size_t)nu;
        mv.units = names;
        mv.guide = (char *)wem_piece_id(s, o->unit);
        mv.turn = o->turn;
        mv.distance = o->dist;
        mv.target = (char *)wem_piece_id(s, o->target);
        m.kind_case = WEM__V1__ORDER__KIND_MANEUVER;
        m.maneuver = &mv;
        break;
    case WEM_O_UNFASTEN:
        un.n_units = (size_t)nu;
        un.units = names;
        m.kind_case = WEM__V1__ORDER__KIND_UNFASTEN;
        m.unfasten = &un;
        break;
    case WEM_O_COMBAT:
        co.attacker = (char *)wem_piece_id(s, o->unit);
        co.defender = (char *)wem_piece_id(s, o->target);
        m.kind_case = WEM__V1__ORDER__KIND_COMBAT;
        m.combat = &co;
        break;
    case WEM_O_ANSWER:
        an.value = o->value;
        an.n_values = (size_t)nv;
        an.values = vals;
        an.n_units = (size_t)nu;
        an.units = names;
        an.n_places = (size_t)np;
        an.places = pp;
        m.kind_case = WEM__V1__ORDER__KIND_ANSWER;
        m.answer = &an;
        break;
    default: return -1;
    }
    size_t n = wem__v1__order__get_packed_size(&m);
    if (buf_reserve(out, n)) return -1;
    wem__v1__order__pack(&m, out->data + out->len);
    out->len += n;
    return 0;
}

/* ---- Order bytes -> wem_order ---- */

/* a piece id: "" is -1; unknown is an error */
static int s_piece(const wem_state *s, const char *id, int *out) {
    *out = -1;
    if (!id || !id[0]) return 0;
    *out = wem_piece_find(s, id);
    return *out < 0 ? -1 : 0;
}

static int s_units(const wem_state *s, char **ids, size_t n, wem_order *o, const char **bad) {
    if (n > WEM_MAX_LIST) {
        *bad = "too many pieces in one order";
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int p;
        if (s_piece(s, ids[i], &p) || p < 0) {
            *bad = "an unknown piece";
            return -1;
        }
        o->units[i] = (int16_t)p;
    }
    o->n_units = (int)n;
    return 0;
}

static int s_places(const wem_state *s, Wem__V1__Placement **pl, size_t n, wem_order *o, const char **bad) {
    if (n > WEM_MAX_LIST) {
        *bad = "too many placements in one order";
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int p;
        if (s_piece(s, pl[i]->piece, &p) || p < 0) {
            *bad = "an unknown piece";
            return -1;
        }
        o->places[i].piece = (int16_t)p;
        if (pl[i]->pose) {
            o->places[i].at.x = pl[i]->pose->x;
            o->places[i].at.y = pl[i]->pose->y;
            o->places[i].h = pl[i]->pose->h;
        } else {
            *bad = "a placement without a pose";
            return -1;
        }
        o->places[i].fastened = pl[i]->fastened ? 1 : 0;
    }
    o->n_places = (int)n;
    return 0;
}

int wem_order_decode(const wem_state *s, const uint8_t *data, size_t len, wem_order *o, brt_reject *err) {
    ProtobufCMessage *pm = NULL;
    int crc = canon_unpack(&wem__v1__order__descriptor, data, len, 16384, &pm);
    if (crc != CANON_OK)
        return brt_reject_set(err, BRT_REJECT_MALFORMED, "Order", "the order: %s", canon_strerror(crc));
    Wem__V1__Order *m = (Wem__V1__Order *)pm;
    wem_order_init(o, WEM_O_NONE);
    const char *bad = NULL;
    int g;
    switch (m->kind_case) {
    case WEM__V1__ORDER__KIND_BID:
        o->kind = WEM_O_BID;
        if (m->bid->n_markers > WEM_ARMIES) bad = "one bid per army";
        for (size_t i = 0; !bad && i < m->bid->n_markers; i++)
            o->values[i] = m->bid->markers[i] > 99 ? 99 : (int32_t)m->bid->markers[i];
        o->n_values = bad ? 0 : (int)m->bid->n_markers;
        break;
    case WEM__V1__ORDER__KIND_PLACE:
        o->kind = WEM_O_PLACE;
        s_places(s, m->place->places, m->place->n_places, o, &bad);
        break;
    case WEM__V1__ORDER__KIND_DONE:
        o->kind = WEM_O_DONE;
        if (m->done != 1) bad = "done is 1";
        break;
    case WEM__V1__ORDER__KIND_BOMBARD:
        o->kind = WEM_O_BOMBARD;
        if (s_piece(s, m->bombard->gun, &o->unit) || o->unit < 0 || o->unit >= WEM_GEN_BASE) bad = "an unknown gun";
        else if (s_piece(s, m->bombard->target, &o->target) || o->target < 0) bad = "an unknown target";
        else s_units(s, m->bombard->support, m->bombard->n_support, o, &bad);
        break;
    case WEM__V1__ORDER__KIND_ASSIGN:
        o->kind = WEM_O_ASSIGN;
        g = wem_general_find(s, m->assign->general);
        if (g < 0) bad = "an unknown general";
        o->general = g;
        o->value = m->assign->markers > 99 ? 99 : (int)m->assign->markers;
        break;
    case WEM__V1__ORDER__KIND_GENERAL:
        o->kind = WEM_O_GENERAL;
        g = wem_general_find(s, m->general->general);
        if (g < 0) bad = "an unknown general";
        o->general = g;
        if (!m->general->pose) bad = "a general's move needs a pose";
        else {
            o->at.x = m->general->pose->x;
            o->at.y = m->general->pose->y;
            o->h = m->general->pose->h;
        }
        if (!bad && (s_piece(s, m->general->attach, &o->target) || o->target >= WEM_GEN_BASE))
            bad = "an unknown unit to attach to";
        break;
    case WEM__V1__ORDER__KIND_COMMAND:
        o->kind = WEM_O_COMMAND;
        o->value = m->command->kind > 9 ? 9 : (int)m->command->kind;
        g = wem_general_find(s, m->command->general);
        if (g < 0) bad = "an unknown general";
        o->general = g;
        o->flag = m->command->out_of_sequence ? 1 : 0;
        o->pay_markers = m->command->markers_only ? 1 : 0;
        if (!bad) s_units(s, m->command->units, m->command->n_units, o, &bad);
        if (!bad) s_places(s, m->command->places, m->command->n_places, o, &bad);
        break;
    case WEM__V1__ORDER__KIND_MANEUVER:
        o->kind = WEM_O_MANEUVER;
        o->value = m->maneuver->kind > 9 ? 9 : (int)m->maneuver->kind;
        o->turn = m->maneuver->turn;
        o->dist = m->maneuver->distance;
        if (s_units(s, m->maneuver->units, m->maneuver->n_units, o, &bad)) break;
        if (s_piece(s, m->maneuver->guide, &o->unit) || o->unit >= WEM_GEN_BASE) bad = "an unknown guide unit";
        else if (s_piece(s, m->maneuver->target, &o->target) || o->target >= WEM_GEN_BASE)
            bad = "an unknown target";
        break;
    case WEM__V1__ORDER__KIND_UNFASTEN:
        o->kind = WEM_O_UNFASTEN;
        s_units(s, m->unfasten->units, m->unfasten->n_units, o, &bad);
        break;
    case WEM__V1__ORDER__KIND_COMBAT:
        o->kind = WEM_O_COMBAT;
        if (s_piece(s, m->combat->attacker, &o->unit) || o->unit < 0 || o->unit >= WEM_GEN_BASE)
            bad = "an unknown attacker";
        else if (s_piece(s, m->combat->defender, &o->target) || o->target < 0) bad = "an unknown defender";
        break;
    case WEM__V1__ORDER__KIND_ANSWER:
        o->kind = WEM_O_ANSWER;
        o->value = m->answer->value;
        if (m->answer->n_values > WEM_MAX_LIST) bad = "too many values";
        for (size_t i = 0; !bad && i < m->answer->n_values; i++) o->values[i] = m->answer->values[i];
        o->n_values = bad ? 0 : (int)m->answer->n_values;
        if (!bad) s_units(s, m->answer->units, m->answer->n_units, o, &bad);
        if (!bad) s_places(s, m->answer->places, m->answer->n_places, o, &bad);
        break;
    default: bad = "no order kind"; break;
    }
    protobuf_c_message_free_unpacked(pm, NULL);
    if (bad) return brt_reject_set(err, BRT_REJECT_MALFORMED, "Order", "the order: %s", bad);
    return 0;
}

/* ---- events ---- */

void wem_event(const wem_state *s, brt_events *ev, uint32_t seats, const char *kind, int army, int piece, int other,
               int value, const int *dice, int n_dice, const wem_pt *at, int32_t h, const char *fmt, ...) {
    if (!ev) return;
    Wem__V1__Event e = WEM__V1__EVENT__INIT;
    Wem__V1__Pose pose = WEM__V1__POSE__INIT;
    uint32_t d[16];
    char text[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    e.kind = (char *)kind;
    e.army = army;
    e.piece = (char *)wem_piece_id(s, piece);
    e.other = (char *)wem_piece_id(s, other);
    e.value = value;
    e.turn = s->turn;
    int nd = n_dice < 0 ? 0 : n_dice > 16 ? 16 : n_dice;
    for (int i = 0; i < nd; i++) d[i] = (uint32_t)dice[i];
    e.n_dice = (size_t)nd;
    e.dice = d;
    if (at) {
        pose.x = at->x;
        pose.y = at->y;
        pose.h = h;
        e.pose = &pose;
    }
    e.text = text;
    size_t n = wem__v1__event__get_packed_size(&e);
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return;
    wem__v1__event__pack(&e, b);
    brt_events_emit(ev, seats, b, n);
    free(b);
}
