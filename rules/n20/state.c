/*
 * state.c - the n20 game state: creation, set-up [3.0], canonical encoding,
 * small lookups, event and rejection functions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"
#include "n20/v1/n20.pb-c.h"

n20_state *n20_state_new(const n20_scenario *sc) {
    n20_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->sc = sc;
    s->gg_unit = 0xff;
    s->dis_unit = 0xff;
    return s;
}

const char *n20_army_name(int a) {
    return a == N20_ARMY_FRENCH ? "french" : a == N20_ARMY_ANGLO ? "anglo" : a == N20_ARMY_PRUSSIAN ? "prussian"
                                                                                               : "austrian";
}
const char *n20_side_name(int side) { return side == N20_FRENCH ? "french" : "allied"; }
int n20_army_of(const char *name) {
    if (strcmp(name, "french") == 0) return N20_ARMY_FRENCH;
    if (strcmp(name, "anglo") == 0) return N20_ARMY_ANGLO;
    if (strcmp(name, "prussian") == 0) return N20_ARMY_PRUSSIAN;
    if (strcmp(name, "austrian") == 0) return N20_ARMY_AUSTRIAN;
    return -1;
}
const char *n20_weather_name(int w) {
    static const char *n[] = {"clear", "cloudy", "showers", "downpour", "storm", "mud", "showers+mud"};
    return w >= 0 && w < 7 ? n[w] : "?";
}

int n20_unit_find(const n20_state *s, const char *id) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (strcmp(s->sc->units[i].id, id) == 0 && n20_unit_in_game(s, i)) return i;
    return -1;
}

int n20_unit_in_game(const n20_state *s, int u) {
    const n20_unit_def *d = &s->sc->units[u];
    return (s->opts & d->if_opts) == d->if_opts && !(s->opts & d->unless_opts);
}

/* n20_index_build() answers the same from a table (n20_ix_unit_at): change both together */
int n20_unit_at(const n20_state *s, uint16_t hex) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP && s->u[i].hex == hex && s->sc->units[i].type != N20_LEADER)
            return i; /* [16.9.2] Leaders are stack free: see n20_enemy_at */
    return -1;
}

/* n20_side_of, n20_uid, n20_is_night and n20_weather: inline in n20.h */

int n20_reject(brt_reject *r, const char *rule, const char *fmt, ...) {
    if (!r) return -1;
    r->code = BRT_REJECT_ILLEGAL;
    snprintf(r->rule, sizeof r->rule, "%s", rule);
    char tmp[sizeof r->message - sizeof r->rule - 8];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    snprintf(r->message, sizeof r->message, "[%s] %s", rule, tmp);
    return -1;
}

void n20_sink_emit(void *sink, const uint8_t *data, size_t len) {
    n20_sink *k = sink;
    k->emit_to(k->ctx, BRT_SEATS_ALL, data, len);
}

static void s_event_send(n20_out *out, uint32_t seats, int redacted, N20__V1__Event *ev) {
    size_t len = n20__v1__event__get_packed_size(ev);
    uint8_t stackbuf[1024];
    uint8_t *p = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!p) return;
    n20__v1__event__pack(ev, p);
    if (out->emit == n20_sink_emit) {
        n20_sink *k = out->ctx;
        k->emit_to(k->ctx, seats, p, len);
    } else if (!redacted) out->emit(out->ctx, p, len); /* the full event */
    if (p != stackbuf) free(p);
}

const char *n20_u_list(char *buf, size_t cap, int from, int n) {
    size_t k = 0;
    if (!cap) return buf;
    for (int i = 0; i < n && from + i < N20_U_MAX && k + 5 <= cap; i++) {
        int x = from + i;
        if (i) {
            buf[k++] = ',';
            buf[k++] = ' ';
        }
        buf[k++] = N20_U_MARK;
        buf[k++] = (char)(x < 10 ? '0' + x : 'A' + x - 10);
    }
    buf[k] = 0;
    return buf;
}

/* The text of an event for one party from its template (n20.h: N20_U(i) names units[i]): the
 * ids for seat < 0 and for a unit the seat may see, "a unit" for one hidden from it. */
static void s_render(const n20_state *s, const char *tpl, const int *units, int nunits, int seat, char *out,
                     size_t cap) {
    size_t n = 0;
    for (const char *p = tpl; *p && n + 1 < cap; p++) {
        if (*p != N20_U_MARK) {
            out[n++] = *p;
            continue;
        }
        int i = p[1] >= '0' && p[1] <= '9' ? p[1] - '0' : p[1] >= 'A' && p[1] <= 'F' ? p[1] - 'A' + 10 : -1;
        if (i >= 0) p++;
        /* a placeholder out of the list (a bug of the call site) names nobody: "a unit" */
        const char *name = i < 0 || i >= nunits || n20_fog_hidden_from(s, units[i], seat) ? "a unit"
                                                                                         : n20_uid(s, units[i]);
        for (; *name && n + 1 < cap; name++) out[n++] = *name;
    }
    out[n] = 0;
}

void n20_event(n20_out *out, const n20_state *s, const char *kind, const int *units, int nunits,
               const uint16_t *hexes, int nhexes, const int *values, int nvalues,
               const char *fmt, ...) {
    if (!out || !out->emit) return;
    char tpl[512], text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tpl, sizeof tpl, fmt, ap);
    va_end(ap);
    n20_ed_cite(s, tpl, sizeof tpl); /* a v3 game cites its own rule numbers */
    char *ids[N20_MAX_SIDE * 2];
    uint32_t hx[N20_MAX_PATH + 2];
    int32_t vals[8];
    if (nunits > (int)(sizeof ids / sizeof ids[0])) nunits = (int)(sizeof ids / sizeof ids[0]);
    if (nhexes > (int)(sizeof hx / sizeof hx[0])) nhexes = (int)(sizeof hx / sizeof hx[0]);
    if (nvalues > 8) nvalues = 8;
    s_render(s, tpl, units, nunits, -1, text, sizeof text);
    N20__V1__Event ev = N20__V1__EVENT__INIT;
    ev.kind = (char *)kind;
    ev.text = text;
    ev.turn = s->turn;
    for (int i = 0; i < nunits; i++) ids[i] = (char *)n20_uid(s, units[i]);
    for (int i = 0; i < nhexes; i++) hx[i] = n20_xxyy(hexes[i]);
    for (int i = 0; i < nvalues; i++) vals[i] = values[i];
    ev.n_units = (size_t)nunits;
    ev.units = ids;
    ev.n_hexes = (size_t)nhexes;
    ev.hexes = hx;
    ev.n_values = (size_t)nvalues;
    ev.values = vals;
    if (!n20_redacts(s)) {
        s_event_send(out, BRT_SEATS_ALL, 0, &ev);
        return;
    }
    /* [16.1] [17.1.1] a seat from which a named unit is hidden gets its own rendering: "a unit"
     * (text) and the handle @XXYY (units), no values. Each seat gets exactly one copy. Which units
     * are named is the units list: nothing is searched for in the text. */
    char rtext[2][512], hbuf[2][N20_MAX_SIDE * 2][N20_NAME];
    char *rids[2][N20_MAX_SIDE * 2];
    int redact[2] = {0, 0};
    for (int seat = 0; seat < 2; seat++) {
        for (int i = 0; i < nunits; i++) {
            rids[seat][i] = (char *)n20_uid_seat(s, units[i], seat, hbuf[seat][i]);
            if (n20_fog_hidden_from(s, units[i], seat)) redact[seat] = 1;
        }
        if (redact[seat]) s_render(s, tpl, units, nunits, seat, rtext[seat], sizeof rtext[seat]);
    }
    uint32_t full = (redact[0] ? 0u : 1u) | (redact[1] ? 0u : 2u);
    s_event_send(out, full == 3u ? BRT_SEATS_ALL : full, 0, &ev); /* 0: the log only */
    if (full == 3u) return;
    /* The spectators (BRT_VIEW_PUBLIC) see a unit only where both seats do: their copy is the
     * redacted copy of the seat that sees no more than that, when there is one (units of one
     * side hidden), else a copy of their own (units of both sides hidden). */
    int pub_seat = -1;
    for (int seat = 0; seat < 2 && pub_seat < 0; seat++) {
        if (!redact[seat]) continue;
        int same = 1;
        for (int i = 0; i < nunits; i++)
            if (n20_fog_hidden_from(s, units[i], seat) != n20_fog_hidden_from(s, units[i], BRT_VIEW_PUBLIC)) same = 0;
        if (same) pub_seat = seat;
    }
    for (int seat = 0; seat < 2; seat++) {
        if (!redact[seat]) continue;
        N20__V1__Event r = ev;
        r.text = rtext[seat];
        r.units = rids[seat];
        r.n_values = 0;
        r.values = NULL;
        s_event_send(out, (1u << seat) | (seat == pub_seat ? BRT_SEATS_SPECTATORS : 0u), 1, &r);
    }
    if (pub_seat >= 0) return;
    char ptext[512], pbuf[N20_MAX_SIDE * 2][N20_NAME];
    char *pids[N20_MAX_SIDE * 2];
    for (int i = 0; i < nunits; i++) pids[i] = (char *)n20_uid_seat(s, units[i], BRT_VIEW_PUBLIC, pbuf[i]);
    s_render(s, tpl, units, nunits, BRT_VIEW_PUBLIC, ptext, sizeof ptext);
    N20__V1__Event r = ev;
    r.text = ptext;
    r.units = pids;
    r.n_values = 0;
    r.values = NULL;
    s_event_send(out, BRT_SEATS_SPECTATORS, 1, &r);
}

void n20_event_private(n20_out *out, const n20_state *s, int seat, const char *other, const char *kind,
                       const int *units, int nunits, const int *values, int nvalues, const char *fmt, ...) {
    if (!out || !out->emit) return;
    char tpl[512], text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tpl, sizeof tpl, fmt, ap);
    va_end(ap);
    n20_ed_cite(s, tpl, sizeof tpl); /* a v3 game cites its own rule numbers */
    char *ids[4];
    int32_t vals[4];
    if (nunits > 4) nunits = 4;
    if (nvalues > 4) nvalues = 4;
    s_render(s, tpl, units, nunits, -1, text, sizeof text); /* for the seat and the log: in full */
    N20__V1__Event ev = N20__V1__EVENT__INIT;
    ev.kind = (char *)kind;
    ev.text = text;
    ev.turn = s->turn;
    for (int i = 0; i < nunits; i++) ids[i] = (char *)n20_uid(s, units[i]);
    for (int i = 0; i < nvalues; i++) vals[i] = values[i];
    ev.n_units = (size_t)nunits;
    ev.units = ids;
    ev.n_values = (size_t)nvalues;
    ev.values = vals;
    s_event_send(out, 1u << seat, 0, &ev); /* the seat and the log; any other n20_out: the event */
    N20__V1__Event r = N20__V1__EVENT__INIT;
    r.kind = (char *)kind;
    r.text = (char *)other; /* the other seat and the spectators: a fixed text naming no unit */
    r.turn = s->turn;
    s_event_send(out, (1u << (1 - seat)) | BRT_SEATS_SPECTATORS, 1, &r);
}

/* [3.0] set-up with the game options (N20_OPT_*). N20_OPT_OLD_DAYS: card #13 Just Like the
 * Old Days is set up in the Discard Pile. */
int n20_setup(n20_state *s, brt_dice *dice, n20_out *out, uint32_t opts, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    (void)err;
    int old_days = (opts & N20_OPT_OLD_DAYS) != 0;
    s->opts = opts;
    s->turn = sc->start_turn;
    s->phasing = sc->first_player;
    s->phase = N20_PH_EVENTS;
    s->morale[0] = sc->morale0[0];
    s->morale[1] = sc->morale0[1];
    n20_weather_setup(s); /* [16.10] */
    for (int i = 0; i < sc->noptm; i++) /* [17.4.2] starting morale changed by an option */
        if ((opts & sc->optm_bit[i]) == sc->optm_bit[i]) s->morale[sc->optm_side[i]] += sc->optm_delta[i];
    for (int i = 0; i < sc->nunits; i++) {
        const n20_unit_def *d = &sc->units[i];
        n20_unit *u = &s->u[i];
        memset(u, 0, sizeof *u);
        u->hidden = (opts & N20_OPT_FOG) ? 1 : 0; /* [16.1] face-down at all times, set-up included */
        if (!n20_unit_in_game(s, i)) continue; /* [17.4] unit of an option not chosen */
        switch (d->place) {
        case N20_P_HEX: /* [9.4.4] a Garrison Force is not a unit on the map (garrison.c) */
            u->where = (d->flags & N20_FLAG_GARRISON) ? N20_U_GARRISON : N20_U_MAP;
            u->hex = d->hex;
            break;
        case N20_P_TURN: u->where = N20_U_REINF; u->arrive = d->turn; break;
        case N20_P_BROKEN: u->where = N20_U_BROKEN; break;
        case N20_P_ROLL: u->where = N20_U_VARIABLE; u->arrive = d->turn; break; /* [17.1.3] */
        case N20_P_LEADER: /* [3.0] the Leader units listed in the set-up, with [16.9] only */
            if (opts & N20_OPT_LEADERS) { u->where = N20_U_MAP; u->hex = d->hex; }
            break;
        case N20_P_LEADER_TURN: /* [17.1] a Leader reinforcement, with [16.9] only */
            if (opts & N20_OPT_LEADERS) { u->where = N20_U_REINF; u->arrive = d->turn; }
            break;
        default: u->where = N20_U_OUT; break; /* pool, variable (event), leaders, variants */
        }
        u->hidden = (opts & N20_OPT_FOG) ? 1 : 0; /* [16.1] face-down at all times, set-up included */
        if (u->where == N20_U_GARRISON) u->hidden = 0; /* [9.4.4] a flag printed on the map */
    }
    n20_berthier_setup(s); /* [17.1.2] */
    n20_sambre_setup(s);   /* [17.1.1] the French schedule their reinforcements first */
    n20_ae_setup(s);       /* A-E [3.0] the French choose their crossing site first */
    n20_wg_setup(s);       /* Wagram [3.0] [6.10.1]: the Austrian deployment first */
    if (sc->gg_unit != 0xff) {
        s->gg_unit = sc->gg_unit;
        s->gg_immune = sc->gg_immune;
        s->gg_hex = s->u[sc->gg_unit].hex;
        if (sc->gg_choice) s->phase = N20_PH_GG_SETUP; /* [17.3] the Allied player picks the side */
    }
    /* [3.0] Preparing the Cards; [17.1] a card set on top of the Draw Pile ("top");
     * [17.3.1] historical-events: the listed cards drawn in that order */
    uint32_t deck[N20_MAX_CARDS], top[N20_MAX_CARDS];
    size_t nd = 0, nt = 0;
    int hist = (opts & N20_OPT_HIST_EVENTS) && sc->nhist;
    for (int k = 0; hist && k < sc->nhist; k++) top[nt++] = sc->hist_order[k];
    for (int i = 0; i < sc->ncards; i++) {
        const n20_card_def *c = &sc->cards[i];
        int listed = 0;
        for (size_t k = 0; k < nt; k++) listed |= top[k] == (uint32_t)i;
        if (listed) continue;
        if (c->pile == 0) deck[nd++] = (uint32_t)i;
        else if (c->pile == 3 && nt < N20_MAX_CARDS) top[nt++] = (uint32_t)i;
        else if (c->pile == 1 || (c->pile == 2 && (old_days || (opts & N20_OPT_13TH_CARD)))) /* Danube [17.1] */
            s->discard[s->ndiscard++] = (uint8_t)i;
    }
    /* [3.0] the Draw Pile order is hidden: the shuffle's rolls are seen by nobody before the end
     * (with dice=contributory this is batch 0, revealed to no seat, its last revealer included) */
    if (nt + nd > N20_MAX_CARDS) /* the data parser keeps the deck within N20_MAX_CARDS */
        return n20_reject(err, "3.0", "the Draw Pile of %s has more than %d cards", sc->id, N20_MAX_CARDS);
    brt_dice_shuffle(dice, deck, nd, "3.0 event deck shuffle");
    for (size_t i = 0; i < nt; i++) s->draw[i] = (uint8_t)top[i];
    for (size_t i = 0; i < nd; i++) s->draw[nt + i] = (uint8_t)deck[i];
    s->ndraw = (uint8_t)(nt + nd);
    N20_EV(out, s, "setup", "[3.0] %s set up: Turn %u (%s), French morale %d, Allied morale %d",
           sc->id, s->turn, sc->turns[s->turn].label, s->morale[0], s->morale[1]);
    return 0;
}

/* Canonical encoding: every field written explicitly, in a fixed order. */
static int s_u8(brt_buf *b, unsigned v) {
    if (b->len < b->cap) { /* the byte buf_append would write, without its call */
        b->data[b->len++] = (uint8_t)v;
        return 0;
    }
    uint8_t c = (uint8_t)v;
    return buf_append(b, &c, 1);
}
static int s_u16(brt_buf *b, unsigned v) { return s_u8(b, v & 0xff) | s_u8(b, (v >> 8) & 0xff); }

/* Danube 20 (danube.h): only in games of the v3.0 edition, so no Waterloo 20 hash changes. */
static int s_dn_encode(const n20_state *s, brt_buf *b) {
    const n20_dn_state *d = &s->dn;
    int rc = 0;
    rc |= s_u8(b, s->fm[N20_ARMY_AUSTRIAN]);
    rc |= s_u8(b, d->site) | s_u8(b, d->site2) | s_u8(b, d->pontoon[0]) | s_u8(b, d->pontoon[1]) |
          s_u8(b, d->bridgehead[0]) | s_u8(b, d->bridgehead[1]) | s_u8(b, d->area_d);
    for (int i = 0; i < 4; i++) rc |= s_u16(b, (unsigned)((d->linz_in >> (16 * i)) & 0xffff)); /* A-E [17.2] */
    rc |= s_u8(b, d->secured) | s_u8(b, d->cc_left) | s_u8(b, d->lobau_hit) | s_u8(b, d->flor) |
          s_u8(b, d->flor_used) | s_u8(b, d->deployed);
    for (int i = 0; i < 4; i++) rc |= s_u16(b, (unsigned)(d->alt >> (16 * i)) & 0xffff); /* Wagram [3.0] */
    return rc;
}

int n20_encode(const n20_state *s, brt_buf *b) {
    int rc = 0;
    (void)buf_reserve(b, 1024); /* room for most states; s_u8 grows the buffer if need be */
    rc |= buf_append_str(b, "n20-state-v1");
    if (s->opts) rc |= s_u16(b, s->opts & 0xffff) | s_u16(b, s->opts >> 16); /* absent when 0 */
    rc |= s_u8(b, s->turn) | s_u8(b, s->phasing) | s_u8(b, s->phase) | s_u8(b, s->over);
    rc |= s_u8(b, (uint8_t)s->morale[0]) | s_u8(b, (uint8_t)s->morale[1]);
    rc |= s_u8(b, s->winner) | s_u8(b, s->level) | s_u8(b, s->reason);
    rc |= s_u8(b, s->first_turn_done) | s_u8(b, s->night_seen);
    rc |= s_u8(b, (unsigned)n20_nunits_encoded(s));
    for (int i = 0; i < s->sc->nunits; i++) {
        const n20_unit *u = &s->u[i];
        if (!(s->opts & N20_OPT_FOG) && s->sc->units[i].type == N20_DUMMY) continue; /* [16.1.3] */
        rc |= s_u16(b, u->hex) | s_u8(b, u->where) | s_u8(b, u->routed) | s_u16(b, u->flags) |
              s_u8(b, u->arrive);
        if (s->opts & N20_OPT_FOG) rc |= s_u8(b, u->hidden); /* [16.1] only with fog-of-war */
    }
    rc |= s_u8(b, s->ndraw);
    for (int i = 0; i < s->ndraw; i++) rc |= s_u8(b, s->draw[i]);
    rc |= s_u8(b, s->ndiscard);
    for (int i = 0; i < s->ndiscard; i++) rc |= s_u8(b, s->discard[i]);
    rc |= s_u16(b, s->kept[0]) | s_u16(b, s->kept[1]);
    for (int a = 0; a < N20_ARMY_AUSTRIAN; a++) rc |= s_u8(b, s->fm[a]); /* the Austrian one: s_dn_encode */
    rc |= s_u8(b, s->fm_free) | s_u8(b, (uint8_t)s->move_mod) | s_u8(b, s->rally_event) |
          s_u8(b, s->gg_event) | s_u8(b, s->battle_dice);
    rc |= s_u8(b, s->entered_hex_n);
    for (int i = 0; i < s->entered_hex_n; i++)
        rc |= s_u16(b, s->entered_hex[i]) | s_u8(b, s->entered_cnt[i]);
    rc |= s_u8(b, s->gg_unit) | s_u8(b, s->gg_immune) | s_u16(b, s->gg_hex);
    rc |= s_u8(b, s->dis_unit) | s_u16(b, s->dis_from) | s_u8(b, s->rally_done);
    if (s->opts & N20_OPT_LEADERS) /* [16.9] */
        rc |= s_u8(b, s->ldr_ctx) | s_u8(b, s->ldr_place) | s_u8(b, s->wing_done) | s_u8(b, s->rally_on);
    if (s->opts & N20_OPT_SAMBRE) rc |= s_u8(b, s->sambre_delay); /* [17.1.1] */
    rc |= s_u8(b, s->nbattles);
    for (int i = 0; i < s->nbattles; i++) {
        const n20_battle *bt = &s->b[i];
        rc |= s_u8(b, bt->natt) | s_u8(b, bt->ndef) | s_u8(b, bt->done) | s_u8(b, bt->countercharge);
        for (int j = 0; j < bt->natt; j++) rc |= s_u8(b, bt->att[j]);
        for (int j = 0; j < bt->ndef; j++) rc |= s_u8(b, bt->def[j]);
    }
    const n20_fight *f = &s->f;
    rc |= s_u8(b, f->active);
    if (f->active) {
        rc |= s_u8(b, f->battle) | s_u8(b, f->att_side) | s_u8(b, f->att_reserve) |
              s_u8(b, f->def_reserve) | s_u8(b, f->has_cap) | s_u8(b, (uint8_t)f->cap) |
              s_u8(b, f->result) | s_u8(b, f->die) | s_u8(b, (uint8_t)f->diff) | s_u8(b, f->ctx);
        rc |= s_u8(b, f->nret) | s_u8(b, f->ret_done);
        for (int i = 0; i < f->nret; i++) {
            rc |= s_u8(b, f->ret_unit[i]) | s_u8(b, f->ret_dist[i]) | s_u8(b, f->ret_rout[i]) |
                  s_u16(b, f->ret_from[i]) |
                  s_u8(b, f->npath[i]);
            for (int j = 0; j < f->npath[i]; j++) rc |= s_u16(b, f->path[i][j]);
        }
        rc |= s_u8(b, f->nvacated);
        for (int i = 0; i < f->nvacated; i++) rc |= s_u16(b, f->vacated[i]);
        rc |= s_u8(b, f->winner) | s_u8(b, f->adv_lost) | s_u8(b, f->adv_cav_done) |
              s_u8(b, f->adv_other_done) | s_u8(b, f->adv_rolled) | s_u8(b, f->garde_att) |
              s_u8(b, f->adv_entered);
        for (int i = 0; i < 2; i++) rc |= s_u8(b, (uint8_t)f->gain[i]) | s_u8(b, (uint8_t)f->loss[i]);
        if (s->opts & N20_OPT_ART_SUPPORT) rc |= s_u8(b, f->bomb_known) | s_u8(b, f->bombard); /* [16.3.2] */
        if (s->phase == N20_PH_STEP_F) /* [9.5] Steps B-E while Step F waits (a phase new to every edition) */
            rc |= s_u16(b, (uint16_t)f->sf_att) | s_u16(b, (uint16_t)f->sf_def) | s_u16(b, (uint16_t)f->sf_terr) |
                  s_u16(b, (uint16_t)f->sf_support) | s_u16(b, (uint16_t)f->sf_diff);
    }
    if (s->opts & N20_OPT_FATIGUE) /* [16.8] */
        for (int i = 0; i < s->sc->nunits; i++) rc |= s_u8(b, s->fatigue[i]);
    if (s->opts & N20_OPT_VAR_WEATHER) rc |= s_u8(b, s->wx) | s_u8(b, s->wx_worse) | s_u8(b, s->mud); /* [16.10] */
    for (int i = 0; i < s->sc->nunits; i++) /* [17.1] the parents of detached Cadres only */
        if (n20_is_parent(s->sc, i)) rc |= s_u8(b, s->cadre_lost[i]);
    if (s->sc->edition == N20_ED_V3) rc |= s_dn_encode(s, b);
    return rc ? -1 : 0;
}
