/*
 * text.c - the text syntax of orders and events (docs/orders-wem.md).
 *
 * Numbers are the proto's own integers, so that every order prints back to the same text and
 * parses to the same bytes: positions in 1/20 mm (x east, y south: 600 is one unit of
 * measurement), headings and turns in tenths of a degree clockwise from north, distances in
 * 1/20 mm. A pose is written x,y or x,y,h with no spaces.
 *
 *   bid 3                      bid 3 2 (the red seat of 2 players: red, then black)
 *   place K12 8400,3000,2700 K13 8400,3600,2700 fastened K-B 8400,3000
 *   done
 *   bombard B23 R4 support B24 B9
 *   assign B-II 2
 *   general B-II 3200,5100 attach B12
 *   put B-II B12 B13 [out-of-sequence] [markers]
 *   keep B-II B12 B13          recover B-II B12
 *   redeploy B-II B12@8400,3000,2700 B13@8400,3600,2700
 *   advance B12 B13 guide B12 turn 15 dist 900
 *   fallback B12 B13 guide B12
 *   charge B12 B13 guide B12 turn -30 target R4
 *   unfasten B9 B23
 *   combat B12 R4
 *   answer 1                   answer 1 2 units B12 place B12 8400,3000,2700
 *
 * `query ...` lines are not orders: query.c answers them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wem.h"
#include "wem/v1/wem.pb-c.h"

#define S_MAXTOK 160

typedef struct s_toks {
    int n;
    char t[S_MAXTOK][48];
} s_toks;

static int s_split(const char *text, s_toks *k) {
    k->n = 0;
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        if (k->n >= S_MAXTOK) return -1;
        size_t i = 0;
        while (*p && !isspace((unsigned char)*p)) {
            if (i + 1 >= sizeof k->t[0]) return -1;
            k->t[k->n][i++] = *p++;
        }
        k->t[k->n][i] = 0;
        k->n++;
    }
    return 0;
}

static int s_int(const char *t, int32_t *out) {
    if (!t || !*t) return -1;
    char *end;
    long v = strtol(t, &end, 10);
    if (*end || v < -100000000L || v > 100000000L) return -1;
    *out = (int32_t)v;
    return 0;
}

/* x,y or x,y,h */
static int s_pose(const char *t, wem_pt *at, int32_t *h) {
    char buf[48];
    snprintf(buf, sizeof buf, "%s", t);
    char *a = buf, *b = strchr(a, ',');
    if (!b) return -1;
    *b++ = 0;
    char *c = strchr(b, ',');
    if (c) *c++ = 0;
    int32_t x, y, hh = 0;
    if (s_int(a, &x) || s_int(b, &y) || (c && s_int(c, &hh))) return -1;
    at->x = x, at->y = y;
    *h = hh;
    return 0;
}

static int s_is_kw(const char *t) {
    static const char *const kw[] = {"support", "attach", "guide", "turn", "dist", "target", "units", "place",
                                     "fastened", "out-of-sequence", "markers", NULL};
    for (int i = 0; kw[i]; i++)
        if (strcmp(t, kw[i]) == 0) return 1;
    return 0;
}

typedef struct s_ctx {
    const wem_state *s;
    brt_reject *err;
    const char *text;
} s_ctx;

static int s_bad(s_ctx *c, const char *why, const char *tok) {
    return brt_reject_set(c->err, BRT_REJECT_BAD_TEXT, "Order", "%s%s%s (docs/orders-wem.md): %.60s", why, tok ? ": " : "",
                          tok ? tok : "", c->text);
}

static int s_unit(s_ctx *c, const char *t, int16_t *out) {
    int p = wem_unit_find(c->s, t);
    if (p < 0) return s_bad(c, "no such unit", t);
    *out = (int16_t)p;
    return 0;
}

/* units until a keyword or the end; returns the next index */
static int s_unit_list(s_ctx *c, const s_toks *k, int i, wem_order *o) {
    while (i < k->n && !s_is_kw(k->t[i])) {
        if (o->n_units >= WEM_MAX_LIST) return s_bad(c, "too many units", NULL), -1;
        if (s_unit(c, k->t[i], &o->units[o->n_units])) return -1;
        o->n_units++;
        i++;
    }
    return i;
}

/* PIECE x,y[,h] [fastened] ... until a keyword other than fastened */
static int s_place_list(s_ctx *c, const s_toks *k, int i, wem_order *o) {
    while (i < k->n && !s_is_kw(k->t[i])) {
        if (o->n_places >= WEM_MAX_LIST) return s_bad(c, "too many placements", NULL), -1;
        wem_place *p = &o->places[o->n_places];
        memset(p, 0, sizeof *p);
        int id = wem_piece_find(c->s, k->t[i]);
        if (id < 0) return s_bad(c, "no such piece", k->t[i]), -1;
        p->piece = (int16_t)id;
        if (i + 1 >= k->n || s_pose(k->t[i + 1], &p->at, &p->h)) return s_bad(c, "a pose is x,y or x,y,h", k->t[i]), -1;
        i += 2;
        if (i < k->n && strcmp(k->t[i], "fastened") == 0) p->fastened = 1, i++;
        o->n_places++;
    }
    return i;
}

static int s_general(s_ctx *c, const char *t, int *out) {
    int g = wem_general_find(c->s, t);
    if (g < 0) return s_bad(c, "no such General", t);
    *out = g;
    return 0;
}

int wem_order_parse(const wem_state *s, const char *text, wem_order *o, brt_reject *err) {
    s_ctx c = {s, err, text ? text : ""};
    if (err) memset(err, 0, sizeof *err);
    s_toks *k = calloc(1, sizeof *k);
    wem_order_init(o, WEM_O_NONE);
    if (!k) return brt_reject_set(err, BRT_REJECT_BAD_TEXT, "Order", "out of memory");
    int rc = 0;
    if (s_split(c.text, k) || k->n == 0) {
        rc = s_bad(&c, "an empty or overlong order", NULL);
        goto out;
    }
    const char *w = k->t[0];
    int i = 1;
    if (!strcmp(w, "bid")) {
        o->kind = WEM_O_BID;
        for (; i < k->n; i++) {
            if (o->n_values >= WEM_ARMIES || s_int(k->t[i], &o->values[o->n_values]) || o->values[o->n_values] < 0) {
                rc = s_bad(&c, "bid N, or bid RED BLACK", NULL);
                goto out;
            }
            o->n_values++;
        }
        if (!o->n_values) rc = s_bad(&c, "bid N", NULL);
    } else if (!strcmp(w, "place")) {
        o->kind = WEM_O_PLACE;
        i = s_place_list(&c, k, 1, o);
        if (i < 0) rc = -1;
        else if (i < k->n || !o->n_places) rc = s_bad(&c, "place PIECE x,y,h [fastened] ...", NULL);
    } else if (!strcmp(w, "done")) {
        o->kind = WEM_O_DONE;
        if (k->n != 1) rc = s_bad(&c, "done takes nothing", NULL);
    } else if (!strcmp(w, "bombard")) {
        o->kind = WEM_O_BOMBARD;
        int16_t a = -1, b = -1;
        if (k->n < 3 || s_unit(&c, k->t[1], &a) || s_unit(&c, k->t[2], &b)) {
            rc = err->code ? -1 : s_bad(&c, "bombard GUN TARGET [support GUN...]", NULL);
            goto out;
        }
        o->unit = a, o->target = b;
        i = 3;
        if (i < k->n) {
            if (strcmp(k->t[i], "support")) {
                rc = s_bad(&c, "bombard GUN TARGET [support GUN...]", k->t[i]);
                goto out;
            }
            i = s_unit_list(&c, k, i + 1, o);
            if (i < 0) rc = -1;
            else if (i < k->n || !o->n_units) rc = s_bad(&c, "support GUN...", NULL);
        }
    } else if (!strcmp(w, "assign")) {
        o->kind = WEM_O_ASSIGN;
        int32_t v;
        if (k->n != 3 || s_general(&c, k->t[1], &o->general) || s_int(k->t[2], &v) || v < 0)
            rc = err->code ? -1 : s_bad(&c, "assign GENERAL N", NULL);
        else o->value = v;
    } else if (!strcmp(w, "general")) {
        o->kind = WEM_O_GENERAL;
        if (k->n < 3 || s_general(&c, k->t[1], &o->general) || s_pose(k->t[2], &o->at, &o->h)) {
            rc = err->code ? -1 : s_bad(&c, "general GENERAL x,y [attach UNIT]", NULL);
            goto out;
        }
        if (k->n == 5 && !strcmp(k->t[3], "attach")) {
            int16_t u;
            if (s_unit(&c, k->t[4], &u)) rc = -1;
            else o->target = u;
        } else if (k->n != 3) {
            rc = s_bad(&c, "general GENERAL x,y [attach UNIT]", NULL);
        }
    } else if (!strcmp(w, "put") || !strcmp(w, "keep") || !strcmp(w, "recover") || !strcmp(w, "redeploy")) {
        o->kind = WEM_O_COMMAND;
        o->value = !strcmp(w, "put") ? WEM_CMD_PUT : !strcmp(w, "keep") ? WEM_CMD_KEEP
                                                 : !strcmp(w, "recover") ? WEM_CMD_RECOVER : WEM_CMD_REDEPLOY;
        if (k->n < 3 || s_general(&c, k->t[1], &o->general)) {
            rc = err->code ? -1 : s_bad(&c, "put|keep|recover|redeploy GENERAL UNIT...", NULL);
            goto out;
        }
        for (i = 2; i < k->n && !s_is_kw(k->t[i]); i++) {
            if (o->n_units >= WEM_MAX_LIST) {
                rc = s_bad(&c, "too many units", NULL);
                goto out;
            }
            char id[48];
            snprintf(id, sizeof id, "%s", k->t[i]);
            char *at = strchr(id, '@');
            if (at) *at++ = 0;
            if ((o->value == WEM_CMD_REDEPLOY) != (at != NULL)) {
                rc = s_bad(&c, o->value == WEM_CMD_REDEPLOY ? "redeploy GENERAL UNIT@x,y,h ..." : "UNIT@pose only for redeploy",
                           k->t[i]);
                goto out;
            }
            if (s_unit(&c, id, &o->units[o->n_units])) {
                rc = -1;
                goto out;
            }
            if (at) {
                wem_place *p = &o->places[o->n_places];
                memset(p, 0, sizeof *p);
                p->piece = o->units[o->n_units];
                if (s_pose(at, &p->at, &p->h)) {
                    rc = s_bad(&c, "a pose is x,y,h", k->t[i]);
                    goto out;
                }
                o->n_places++;
            }
            o->n_units++;
        }
        for (; i < k->n; i++) {
            if (!strcmp(k->t[i], "out-of-sequence")) o->flag = 1;
            else if (!strcmp(k->t[i], "markers")) o->pay_markers = 1;
            else {
                rc = s_bad(&c, "after the units: out-of-sequence, markers", k->t[i]);
                goto out;
            }
        }
        if (!o->n_units) rc = s_bad(&c, "name the Units", NULL);
    } else if (!strcmp(w, "advance") || !strcmp(w, "fallback") || !strcmp(w, "charge")) {
        o->kind = WEM_O_MANEUVER;
        o->value = !strcmp(w, "advance") ? WEM_MV_ADVANCE : !strcmp(w, "fallback") ? WEM_MV_FALLBACK : WEM_MV_CHARGE;
        i = s_unit_list(&c, k, 1, o);
        if (i < 0) {
            rc = -1;
            goto out;
        }
        while (i < k->n) {
            const char *kw = k->t[i];
            if (i + 1 >= k->n) {
                rc = s_bad(&c, "a keyword without its value", kw);
                goto out;
            }
            int16_t u = -1;
            if (!strcmp(kw, "guide")) {
                if (s_unit(&c, k->t[i + 1], &u)) { rc = -1; goto out; }
                o->unit = u;
            } else if (!strcmp(kw, "target")) {
                if (s_unit(&c, k->t[i + 1], &u)) { rc = -1; goto out; }
                o->target = u;
            } else if (!strcmp(kw, "turn")) {
                if (s_int(k->t[i + 1], &o->turn)) { rc = s_bad(&c, "turn TENTHS", k->t[i + 1]); goto out; }
            } else if (!strcmp(kw, "dist")) {
                if (s_int(k->t[i + 1], &o->dist)) { rc = s_bad(&c, "dist UNITS", k->t[i + 1]); goto out; }
            } else {
                rc = s_bad(&c, "guide, turn, dist, target", kw);
                goto out;
            }
            i += 2;
        }
        if (!o->n_units) rc = s_bad(&c, "name the Units", NULL);
    } else if (!strcmp(w, "unfasten")) {
        o->kind = WEM_O_UNFASTEN;
        i = s_unit_list(&c, k, 1, o);
        if (i < 0) rc = -1;
        else if (i < k->n || !o->n_units) rc = s_bad(&c, "unfasten GUN...", NULL);
    } else if (!strcmp(w, "combat")) {
        o->kind = WEM_O_COMBAT;
        int16_t a = -1, b = -1;
        if (k->n != 3 || s_unit(&c, k->t[1], &a) || s_unit(&c, k->t[2], &b)) rc = err->code ? -1 : s_bad(&c, "combat UNIT ENEMY", NULL);
        else o->unit = a, o->target = b;
    } else if (!strcmp(w, "answer")) {
        o->kind = WEM_O_ANSWER;
        int32_t v;
        if (k->n < 2 || s_int(k->t[1], &v)) {
            rc = s_bad(&c, "answer N [N...] [units UNIT...] [place PIECE x,y,h ...]", NULL);
            goto out;
        }
        o->value = v;
        for (i = 2; i < k->n && !s_is_kw(k->t[i]); i++) {
            if (o->n_values >= WEM_MAX_LIST || s_int(k->t[i], &o->values[o->n_values])) {
                rc = s_bad(&c, "answer N [N...]", k->t[i]);
                goto out;
            }
            o->n_values++;
        }
        if (i < k->n && !strcmp(k->t[i], "units")) {
            i = s_unit_list(&c, k, i + 1, o);
            if (i < 0) { rc = -1; goto out; }
        }
        if (i < k->n && !strcmp(k->t[i], "place")) {
            i = s_place_list(&c, k, i + 1, o);
            if (i < 0) { rc = -1; goto out; }
        }
        if (i < k->n) rc = s_bad(&c, "answer N [N...] [units UNIT...] [place PIECE x,y,h ...]", k->t[i]);
    } else if (!strcmp(w, "query")) {
        rc = brt_reject_set(err, BRT_REJECT_BAD_TEXT, "Order", "a query is not an order: it is answered, not applied");
    } else {
        rc = s_bad(&c, "no such order", w);
    }
out:
    free(k);
    if (rc) wem_order_init(o, WEM_O_NONE);
    return rc;
}

/* ---- Order bytes -> text ---- */

static void s_fmt_pose(brt_buf *out, const Wem__V1__Pose *p, int with_h) {
    if (!p) {
        buf_printf(out, "0,0");
        return;
    }
    if (with_h || p->h) buf_printf(out, "%d,%d,%d", p->x, p->y, p->h);
    else buf_printf(out, "%d,%d", p->x, p->y);
}

static void s_fmt_places(brt_buf *out, Wem__V1__Placement **pl, size_t n) {
    for (size_t i = 0; i < n; i++) {
        buf_printf(out, " %s ", pl[i]->piece);
        s_fmt_pose(out, pl[i]->pose, 0);
        if (pl[i]->fastened) buf_printf(out, " fastened");
    }
}

static void s_fmt_ids(brt_buf *out, char **ids, size_t n) {
    for (size_t i = 0; i < n; i++) buf_printf(out, " %s", ids[i]);
}

int wem_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    Wem__V1__Order *m = wem__v1__order__unpack(NULL, len, order);
    if (!m) return -1;
    static const char *const cmd[] = {"?", "put", "keep", "recover", "redeploy"};
    static const char *const mv[] = {"?", "advance", "fallback", "charge"};
    int rc = 0;
    switch (m->kind_case) {
    case WEM__V1__ORDER__KIND_BID:
        buf_printf(out, "bid");
        for (size_t i = 0; i < m->bid->n_markers; i++) buf_printf(out, " %u", m->bid->markers[i]);
        break;
    case WEM__V1__ORDER__KIND_PLACE:
        buf_printf(out, "place");
        s_fmt_places(out, m->place->places, m->place->n_places);
        break;
    case WEM__V1__ORDER__KIND_DONE: buf_printf(out, "done"); break;
    case WEM__V1__ORDER__KIND_BOMBARD:
        buf_printf(out, "bombard %s %s", m->bombard->gun, m->bombard->target);
        if (m->bombard->n_support) {
            buf_printf(out, " support");
            s_fmt_ids(out, m->bombard->support, m->bombard->n_support);
        }
        break;
    case WEM__V1__ORDER__KIND_ASSIGN: buf_printf(out, "assign %s %u", m->assign->general, m->assign->markers); break;
    case WEM__V1__ORDER__KIND_GENERAL:
        buf_printf(out, "general %s ", m->general->general);
        s_fmt_pose(out, m->general->pose, 0);
        if (m->general->attach[0]) buf_printf(out, " attach %s", m->general->attach);
        break;
    case WEM__V1__ORDER__KIND_COMMAND: {
        Wem__V1__Command *c = m->command;
        buf_printf(out, "%s %s", cmd[c->kind <= 4 ? c->kind : 0], c->general);
        for (size_t i = 0; i < c->n_units; i++) {
            buf_printf(out, " %s", c->units[i]);
            for (size_t k = 0; k < c->n_places; k++)
                if (!strcmp(c->places[k]->piece, c->units[i])) {
                    buf_printf(out, "@");
                    s_fmt_pose(out, c->places[k]->pose, 1);
                    break;
                }
        }
        if (c->out_of_sequence) buf_printf(out, " out-of-sequence");
        if (c->markers_only) buf_printf(out, " markers");
        break;
    }
    case WEM__V1__ORDER__KIND_MANEUVER: {
        Wem__V1__Maneuver *v = m->maneuver;
        buf_printf(out, "%s", mv[v->kind <= 3 ? v->kind : 0]);
        s_fmt_ids(out, v->units, v->n_units);
        if (v->guide[0]) buf_printf(out, " guide %s", v->guide);
        if (v->turn) buf_printf(out, " turn %d", v->turn);
        if (v->distance) buf_printf(out, " dist %d", v->distance);
        if (v->target[0]) buf_printf(out, " target %s", v->target);
        break;
    }
    case WEM__V1__ORDER__KIND_UNFASTEN:
        buf_printf(out, "unfasten");
        s_fmt_ids(out, m->unfasten->units, m->unfasten->n_units);
        break;
    case WEM__V1__ORDER__KIND_COMBAT: buf_printf(out, "combat %s %s", m->combat->attacker, m->combat->defender); break;
    case WEM__V1__ORDER__KIND_ANSWER: {
        Wem__V1__Answer *a = m->answer;
        buf_printf(out, "answer %d", a->value);
        for (size_t i = 0; i < a->n_values; i++) buf_printf(out, " %d", a->values[i]);
        if (a->n_units) {
            buf_printf(out, " units");
            s_fmt_ids(out, a->units, a->n_units);
        }
        if (a->n_places) {
            buf_printf(out, " place");
            s_fmt_places(out, a->places, a->n_places);
        }
        break;
    }
    default: rc = -1; break;
    }
    wem__v1__order__free_unpacked(m, NULL);
    return rc;
}

int wem_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    Wem__V1__Event *e = wem__v1__event__unpack(NULL, len, event);
    if (!e) return -1;
    buf_printf(out, "%s", e->kind);
    if (e->piece[0]) buf_printf(out, " %s", e->piece);
    if (e->other[0]) buf_printf(out, " %s", e->other);
    if (e->n_dice) {
        buf_printf(out, " dice");
        for (size_t i = 0; i < e->n_dice; i++) buf_printf(out, "%s%u", i ? "," : " ", e->dice[i]);
    }
    if (e->pose) buf_printf(out, " at %d,%d,%d", e->pose->x, e->pose->y, e->pose->h);
    if (e->text[0]) buf_printf(out, ": %s", e->text);
    wem__v1__event__free_unpacked(e, NULL);
    return 0;
}
