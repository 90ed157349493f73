/*
 * orders_text.c - the text syntax of n20 orders (docs/orders-n20.md) and of
 * events. Parsing produces the same Order bytes a client would send.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "n20.h"
#include "n20/v1/n20.pb-c.h"

#define MAXT 64

static int s_bad(brt_reject *err, const char *fmt, const char *w) {
    if (err) {
        err->code = BRT_REJECT_BAD_TEXT;
        snprintf(err->rule, sizeof err->rule, "orders");
        snprintf(err->message, sizeof err->message, fmt, w ? w : "");
    }
    return -1;
}

static int s_pack(const N20__V1__Order *o, brt_buf *out) {
    size_t len = n20__v1__order__get_packed_size(o);
    uint8_t *p = malloc(len ? len : 1);
    if (!p) return -1;
    n20__v1__order__pack(o, p);
    int rc = buf_append(out, p, len);
    free(p);
    return rc;
}

static int s_hexes(char **w, int n, uint32_t *out, brt_reject *err) {
    for (int i = 0; i < n; i++) {
        if (strlen(w[i]) != 4 || strspn(w[i], "0123456789") != 4) return s_bad(err, "'%s' is not a hex (XXYY)", w[i]);
        out[i] = (uint32_t)atoi(w[i]);
    }
    return 0;
}

/* split "A,B" into ids (in place) */
static int s_list(char *txt, char **ids, int max) {
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(txt, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) ids[n++] = t;
    return n;
}

int n20_order_parse(const n20_state *s, const char *text, brt_buf *out, brt_reject *err) {
    (void)s;
    char buf[1024];
    if (!text || strlen(text) >= sizeof buf) return s_bad(err, "order text too long%s", "");
    snprintf(buf, sizeof buf, "%s", text);
    /* battles: split on ';' later; tokenise words */
    char *w[MAXT];
    int n = 0;
    char work[1024];
    snprintf(work, sizeof work, "%s", buf);
    char *wsave = NULL;
    for (char *t = strtok_r(work, " \t\r\n", &wsave); t && n < MAXT; t = strtok_r(NULL, " \t\r\n", &wsave))
        w[n++] = t;
    if (n == 0) return s_bad(err, "empty order%s", "");
    N20__V1__Order o = N20__V1__ORDER__INIT;
    const char *k = w[0];
    uint32_t hx[N20_MAX_PATH + 1];
    if (strcmp(k, "end") == 0 && n == 1) {
        N20__V1__EndPhase e = N20__V1__END_PHASE__INIT;
        o.kind_case = N20__V1__ORDER__KIND_END; o.end = &e;
        return s_pack(&o, out);
    }
    /* ---- steps of the combinatorial decisions: [9.0] Step F [9.5] */
    if ((n == 2 && strcmp(k, "no") == 0 && strcmp(w[1], "reduction") == 0) ||
        (n == 4 && strcmp(k, "resolve") == 0 && strcmp(w[1], "at") == 0 && strcmp(w[2], "differential") == 0)) {
        N20__V1__StepF f = N20__V1__STEP_F__INIT;
        if (n == 4) {
            char *end = NULL;
            long v = strtol(w[3], &end, 10);
            if (!end || *end || end == w[3] || v < -99 || v > 99) return s_bad(err, "not a differential: '%s'", w[3]);
            f.reduce = 1;
            f.differential = (int32_t)v;
        }
        o.kind_case = N20__V1__ORDER__KIND_STEP_F; o.step_f = &f;
        return s_pack(&o, out);
    }
    if (strcmp(k, "retreat-step") == 0 && n == 3) { /* [9.7] one hex of the retreat */
        if (s_hexes(w + 2, 1, hx, err) < 0) return -1;
        N20__V1__Retreat r = N20__V1__RETREAT__INIT;
        r.unit = w[1]; r.n_path = 1; r.path = hx;
        o.kind_case = N20__V1__ORDER__KIND_RETREAT_STEP; o.retreat_step = &r;
        return s_pack(&o, out);
    }
    if (strcmp(k, "retreat-stop") == 0 && n == 2) { /* [9.7] the retreat ends where the steps took it */
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_RETREAT_STOP; o.retreat_stop = &c;
        return s_pack(&o, out);
    }
    if (strcmp(k, "fight") == 0 && (n == 2 || (n == 3 && strcmp(w[2], "reserve") == 0))) { /* [9.0] */
        N20__V1__Resolve r = N20__V1__RESOLVE__INIT;
        int b = atoi(w[1]);
        if (b < 1) return s_bad(err, "battles are numbered from 1: '%s'", w[1]);
        r.battle = (uint32_t)(b - 1);
        r.reserve = n == 3;
        o.kind_case = N20__V1__ORDER__KIND_FIGHT; o.fight = &r;
        return s_pack(&o, out);
    }
    if ((strcmp(k, "move") == 0 || strcmp(k, "disengage") == 0 || strcmp(k, "retreat") == 0 ||
         strcmp(k, "advance") == 0 || strcmp(k, "penetrate") == 0) && n >= 2) {
        /* [16.9.4] [16.9.5] "... with LEADER[,LEADER]" */
        char *lids[N20_MAX_SIDE];
        int nl = 0;
        if (n >= 4 && strcmp(w[n - 2], "with") == 0 && (k[0] == 'd' || k[0] == 'a')) {
            nl = s_list(w[n - 1], lids, N20_MAX_SIDE);
            n -= 2;
        }
        if (n - 2 > N20_MAX_PATH) return s_bad(err, "path too long%s", "");
        if (s_hexes(w + 2, n - 2, hx, err) < 0) return -1;
        N20__V1__Move m = N20__V1__MOVE__INIT;
        N20__V1__Retreat r = N20__V1__RETREAT__INIT;
        N20__V1__Advance a = N20__V1__ADVANCE__INIT;
        if (k[0] == 'm' || k[0] == 'd' || k[0] == 'p') {
            m.unit = w[1]; m.n_path = (size_t)(n - 2); m.path = hx;
            m.n_leaders = (size_t)nl; m.leaders = lids;
            if (k[0] == 'm') { o.kind_case = N20__V1__ORDER__KIND_MOVE; o.move = &m; }
            else if (k[0] == 'p') { o.kind_case = N20__V1__ORDER__KIND_PENETRATE; o.penetrate = &m; }
            else { o.kind_case = N20__V1__ORDER__KIND_DISENGAGE; o.disengage = &m; }
        } else if (k[0] == 'r') {
            r.unit = w[1]; r.n_path = (size_t)(n - 2); r.path = hx;
            o.kind_case = N20__V1__ORDER__KIND_RETREAT; o.retreat = &r;
        } else {
            a.unit = w[1]; a.n_path = (size_t)(n - 2); a.path = hx;
            a.n_leaders = (size_t)nl; a.leaders = lids;
            o.kind_case = N20__V1__ORDER__KIND_ADVANCE; o.advance = &a;
        }
        return s_pack(&o, out);
    }
    if (strcmp(k, "forcemarch") == 0 && (n == 2 || (n == 4 && strcmp(w[2], "card") == 0))) {
        N20__V1__ForceMarch f = N20__V1__FORCE_MARCH__INIT;
        f.army = w[1];
        if (n == 4) {
            char *end = NULL;
            unsigned long cn = strtoul(w[3], &end, 10);
            if (!end || *end || cn < 1 || cn > 99) return s_bad(err, "'%s' is not an Event card number (forcemarch ARMY card N)", w[3]);
            f.card = (uint32_t)cn;
        }
        o.kind_case = N20__V1__ORDER__KIND_FORCE_MARCH; o.force_march = &f;
        return s_pack(&o, out);
    }
    if (strcmp(k, "declare") == 0 && n == 2 && strcmp(w[1], "done") == 0) { /* [9.2] the step form's end */
        N20__V1__EndPhase e = N20__V1__END_PHASE__INIT;
        o.kind_case = N20__V1__ORDER__KIND_DECLARE_DONE; o.declare_done = &e;
        return s_pack(&o, out);
    }
    if (strcmp(k, "declare") == 0 || strcmp(k, "attack") == 0 || strcmp(k, "countercharge") == 0) {
        /* "declare A,B -> X,Y ; C -> Z"; "declare one A,B -> X,Y" (the step form [9.2]) */
        const char *rest = buf + (strstr(buf, k) - buf) + strlen(k);
        int one = k[0] == 'd' && n >= 2 && strcmp(w[1], "one") == 0;
        if (one) rest = strstr(rest, "one") + 3;
        char body[1024];
        snprintf(body, sizeof body, "%s", rest);
        int cc_reserve = 0, cc_fight = 0;
        if (k[0] == 'c' && n >= 2 && strcmp(w[n - 1], "fight") == 0) { /* [9.5] decided at Step F */
            char *r = strstr(body, "fight");
            char *last = r;
            while (r) { last = r; r = strstr(r + 1, "fight"); }
            if (last) *last = 0;
            cc_fight = 1;
            n--;
        }
        if (k[0] == 'c' && n >= 2 && strcmp(w[n - 1], "reserve") == 0) {
            char *r = strstr(body, "reserve");
            char *last = r;
            while (r) { last = r; r = strstr(r + 1, "reserve"); }
            if (last) *last = 0;
            cc_reserve = 1;
        }
        N20__V1__Battle bt[N20_MAX_BATTLES], *bp[N20_MAX_BATTLES];
        char *ids[N20_MAX_BATTLES][2][N20_MAX_SIDE];
        char parts[N20_MAX_BATTLES][256];
        int nb = 0;
        char *save = NULL;
        for (char *part = strtok_r(body, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
            char clean[256];
            int j = 0;
            for (char *p = part; *p && j < 255; p++)
                if (*p != ' ' && *p != '\t') clean[j++] = *p;
            clean[j] = 0;
            if (!j) continue;
            if (nb >= N20_MAX_BATTLES) return s_bad(err, "too many battles%s", "");
            snprintf(parts[nb], sizeof parts[nb], "%s", clean);
            char *arrow = strstr(parts[nb], "->");
            if (!arrow) return s_bad(err, "a battle is 'ATTACKERS -> DEFENDERS': '%.160s'", clean);
            *arrow = 0;
            n20__v1__battle__init(&bt[nb]);
            bt[nb].n_attackers = (size_t)s_list(parts[nb], ids[nb][0], N20_MAX_SIDE);
            bt[nb].attackers = ids[nb][0];
            bt[nb].n_defenders = (size_t)s_list(arrow + 2, ids[nb][1], N20_MAX_SIDE);
            bt[nb].defenders = ids[nb][1];
            bp[nb] = &bt[nb];
            nb++;
        }
        if (k[0] == 'c') {
            if (nb != 1) return s_bad(err, "a countercharge is one battle%s", "");
            N20__V1__Countercharge cc = N20__V1__COUNTERCHARGE__INIT;
            cc.n_attackers = bt[0].n_attackers; cc.attackers = bt[0].attackers;
            cc.n_defenders = bt[0].n_defenders; cc.defenders = bt[0].defenders;
            cc.reserve = cc_reserve;
            cc.fight = cc_fight;
            o.kind_case = N20__V1__ORDER__KIND_COUNTERCHARGE; o.countercharge = &cc;
            return s_pack(&o, out);
        }
        if (one) {
            if (nb != 1) return s_bad(err, "declare one names one battle%s", "");
            o.kind_case = N20__V1__ORDER__KIND_DECLARE_ONE; o.declare_one = &bt[0];
            return s_pack(&o, out);
        }
        N20__V1__Declare d = N20__V1__DECLARE__INIT;
        d.n_battles = (size_t)nb;
        d.battles = bp;
        o.kind_case = N20__V1__ORDER__KIND_DECLARE; o.declare = &d;
        return s_pack(&o, out);
    }
    if (strcmp(k, "resolve") == 0 && n >= 2) {
        N20__V1__Resolve r = N20__V1__RESOLVE__INIT;
        int b = atoi(w[1]);
        if (b < 1) return s_bad(err, "battles are numbered from 1: '%s'", w[1]);
        r.battle = (uint32_t)(b - 1);
        for (int i = 2; i < n; i++) {
            if (strcmp(w[i], "reserve") == 0) r.reserve = 1;
            else if (strcmp(w[i], "cap") == 0 && i + 1 < n) { r.has_cap = 1; r.cap = atoi(w[++i]); }
            else return s_bad(err, "unknown word '%s' (resolve N [reserve] [cap D])", w[i]);
        }
        o.kind_case = N20__V1__ORDER__KIND_RESOLVE; o.resolve = &r;
        return s_pack(&o, out);
    }
    if ((strcmp(k, "reserve") == 0 || strcmp(k, "no-reserve") == 0) && n == 1) {
        N20__V1__Reserve r = N20__V1__RESERVE__INIT;
        r.commit = k[0] == 'r';
        o.kind_case = N20__V1__ORDER__KIND_RESERVE; o.reserve = &r;
        return s_pack(&o, out);
    }
    if (strcmp(k, "losses") == 0 && n >= 2) {
        N20__V1__Losses l = N20__V1__LOSSES__INIT;
        l.n_units = (size_t)(n - 1); l.units = w + 1;
        o.kind_case = N20__V1__ORDER__KIND_LOSSES; o.losses = &l;
        return s_pack(&o, out);
    }
    if (strcmp(k, "rally") == 0) {
        N20__V1__Rally r = N20__V1__RALLY__INIT;
        r.n_spend = (size_t)(n - 1); r.spend = w + 1;
        o.kind_case = N20__V1__ORDER__KIND_RALLY; o.rally = &r;
        return s_pack(&o, out);
    }
    if (strcmp(k, "place") == 0 && n == 3) {
        if (s_hexes(w + 2, 1, hx, err) < 0) return -1;
        N20__V1__Place p = N20__V1__PLACE__INIT;
        p.unit = w[1]; p.hex = hx[0];
        o.kind_case = N20__V1__ORDER__KIND_PLACE; o.place = &p;
        return s_pack(&o, out);
    }
    if (strcmp(k, "goodground") == 0 && n == 3) {
        N20__V1__GoodGround g = N20__V1__GOOD_GROUND__INIT;
        g.unit = w[1];
        if (strcmp(w[2], "immune") == 0) g.artillery_immune = 1;
        else if (strcmp(w[2], "defense") != 0) return s_bad(err, "goodground UNIT immune|defense, not '%s'", w[2]);
        o.kind_case = N20__V1__ORDER__KIND_GOOD_GROUND; o.good_ground = &g;
        return s_pack(&o, out);
    }
    if (strcmp(k, "reduce") == 0 && n == 2) {
        N20__V1__Reduce r = N20__V1__REDUCE__INIT;
        r.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_REDUCE; o.reduce = &r;
        return s_pack(&o, out);
    }
    if (strcmp(k, "breakdown") == 0 && (n == 2 || (n == 3 && strcmp(w[2], "dummy") == 0))) {
        N20__V1__Breakdown b = N20__V1__BREAKDOWN__INIT;
        b.unit = w[1];
        b.dummy = n == 3; /* [16.6.1] with a Dummy unit [16.1] */
        o.kind_case = N20__V1__ORDER__KIND_BREAKDOWN; o.breakdown = &b;
        return s_pack(&o, out);
    }
    if (strcmp(k, "contact") == 0 && n == 2) {
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_CONTACT; o.contact = &c;
        return s_pack(&o, out);
    }
    if (strcmp(k, "wing") == 0 && n == 2) { /* [16.9] French Wing Commanders */
        N20__V1__Wing g = N20__V1__WING__INIT;
        g.leader = w[1];
        o.kind_case = N20__V1__ORDER__KIND_WING; o.wing = &g;
        return s_pack(&o, out);
    }
    if (strcmp(k, "rebuild") == 0 && n == 2) { /* [17.1] SPECIAL RULE */
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_REBUILD; o.rebuild = &c;
        return s_pack(&o, out);
    }
    if (strcmp(k, "schedule") == 0 && n == 3) { /* [17.1.1] */
        N20__V1__Schedule sc = N20__V1__SCHEDULE__INIT;
        sc.unit = w[1];
        char *e = NULL;
        unsigned long t = strtoul(w[2], &e, 10);
        if (!e || *e || w[2][0] < '0' || w[2][0] > '9' || t > 99) return s_bad(err, "schedule UNIT TURN: bad turn '%s'", w[2]);
        sc.turn = (uint32_t)t;
        o.kind_case = N20__V1__ORDER__KIND_SCHEDULE; o.schedule = &sc;
        return s_pack(&o, out);
    }
    if (strcmp(k, "delay") == 0 && n == 2) { /* [17.1.1] */
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_DELAY; o.delay = &c;
        return s_pack(&o, out);
    }
    if (strcmp(k, "site") == 0 && n == 2) { /* A-E [3.0] */
        N20__V1__Site st = N20__V1__SITE__INIT;
        st.name = w[1];
        o.kind_case = N20__V1__ORDER__KIND_SITE; o.site = &st;
        return s_pack(&o, out);
    }
    if (strcmp(k, "deploy") == 0 && n == 3) { /* Wagram [3.0] */
        N20__V1__Place pl = N20__V1__PLACE__INIT;
        pl.unit = w[1];
        char *e = NULL;
        unsigned long h = strtoul(w[2], &e, 10);
        if (!e || *e || w[2][0] < '0' || w[2][0] > '9' || h > 9999) return s_bad(err, "deploy UNIT HEX: bad hex '%s'", w[2]);
        pl.hex = (uint32_t)h;
        o.kind_case = N20__V1__ORDER__KIND_DEPLOY; o.deploy = &pl;
        return s_pack(&o, out);
    }
    if (strcmp(k, "alt-area") == 0 && n == 2) { /* Wagram [3.0] */
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_ALT_AREA; o.alt_area = &c;
        return s_pack(&o, out);
    }
    if (strcmp(k, "reveal") == 0 && n == 2) { /* [16.1.1] */
        N20__V1__Contact c = N20__V1__CONTACT__INIT;
        c.unit = w[1];
        o.kind_case = N20__V1__ORDER__KIND_REVEAL; o.reveal = &c;
        return s_pack(&o, out);
    }
    return s_bad(err, "unknown order '%s' (see docs/orders-n20.md)", k);
}

static void s_ids(brt_buf *out, char **ids, size_t n, const char *sep) {
    for (size_t i = 0; i < n; i++) buf_printf(out, "%s%s", i ? sep : "", ids[i]);
}
static void s_hx(brt_buf *out, const uint32_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) buf_printf(out, " %04u", p[i]);
}

int n20_order_format(const uint8_t *order, size_t len, brt_buf *out) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__order__descriptor, order, len, 1u << 16, &m) != CANON_OK) return -1;
    N20__V1__Order *o = (N20__V1__Order *)m;
    int rc = 0;
    switch (o->kind_case) {
    case N20__V1__ORDER__KIND_END: buf_append_str(out, "end"); break;
    case N20__V1__ORDER__KIND_MOVE: buf_printf(out, "move %s", o->move->unit); s_hx(out, o->move->path, o->move->n_path); break;
    case N20__V1__ORDER__KIND_DISENGAGE:
        buf_printf(out, "disengage %s", o->disengage->unit);
        s_hx(out, o->disengage->path, o->disengage->n_path);
        if (o->disengage->n_leaders) { buf_append_str(out, " with "); s_ids(out, o->disengage->leaders, o->disengage->n_leaders, ","); }
        break;
    case N20__V1__ORDER__KIND_PENETRATE: buf_printf(out, "penetrate %s", o->penetrate->unit); s_hx(out, o->penetrate->path, o->penetrate->n_path); break;
    case N20__V1__ORDER__KIND_RETREAT: buf_printf(out, "retreat %s", o->retreat->unit); s_hx(out, o->retreat->path, o->retreat->n_path); break;
    case N20__V1__ORDER__KIND_ADVANCE:
        buf_printf(out, "advance %s", o->advance->unit);
        s_hx(out, o->advance->path, o->advance->n_path);
        if (o->advance->n_leaders) { buf_append_str(out, " with "); s_ids(out, o->advance->leaders, o->advance->n_leaders, ","); }
        break;
    case N20__V1__ORDER__KIND_FORCE_MARCH:
        buf_printf(out, "forcemarch %s", o->force_march->army);
        if (o->force_march->card) buf_printf(out, " card %u", o->force_march->card);
        break;
    case N20__V1__ORDER__KIND_DECLARE:
        buf_append_str(out, "declare");
        for (size_t i = 0; i < o->declare->n_battles; i++) {
            N20__V1__Battle *b = o->declare->battles[i];
            buf_append_str(out, i ? " ; " : " ");
            s_ids(out, b->attackers, b->n_attackers, ",");
            buf_append_str(out, " -> ");
            s_ids(out, b->defenders, b->n_defenders, ",");
        }
        break;
    case N20__V1__ORDER__KIND_COUNTERCHARGE:
        buf_append_str(out, "countercharge ");
        s_ids(out, o->countercharge->attackers, o->countercharge->n_attackers, ",");
        buf_append_str(out, " -> ");
        s_ids(out, o->countercharge->defenders, o->countercharge->n_defenders, ",");
        if (o->countercharge->reserve) buf_append_str(out, " reserve");
        if (o->countercharge->fight) buf_append_str(out, " fight");
        break;
    case N20__V1__ORDER__KIND_RESOLVE:
        buf_printf(out, "resolve %u%s", o->resolve->battle + 1, o->resolve->reserve ? " reserve" : "");
        if (o->resolve->has_cap) buf_printf(out, " cap %d", o->resolve->cap);
        break;
    case N20__V1__ORDER__KIND_RESERVE: buf_append_str(out, o->reserve->commit ? "reserve" : "no-reserve"); break;
    case N20__V1__ORDER__KIND_LOSSES: buf_append_str(out, "losses "); s_ids(out, o->losses->units, o->losses->n_units, " "); break;
    case N20__V1__ORDER__KIND_RALLY: buf_append_str(out, "rally"); for (size_t i = 0; i < o->rally->n_spend; i++) buf_printf(out, " %s", o->rally->spend[i]); break;
    case N20__V1__ORDER__KIND_PLACE: buf_printf(out, "place %s %04u", o->place->unit, o->place->hex); break;
    case N20__V1__ORDER__KIND_GOOD_GROUND: buf_printf(out, "goodground %s %s", o->good_ground->unit, o->good_ground->artillery_immune ? "immune" : "defense"); break;
    case N20__V1__ORDER__KIND_CONTACT: buf_printf(out, "contact %s", o->contact->unit); break;
    case N20__V1__ORDER__KIND_REDUCE: buf_printf(out, "reduce %s", o->reduce->unit); break;
    case N20__V1__ORDER__KIND_BREAKDOWN:
        buf_printf(out, "breakdown %s%s", o->breakdown->unit, o->breakdown->dummy ? " dummy" : "");
        break;
    case N20__V1__ORDER__KIND_REBUILD: buf_printf(out, "rebuild %s", o->rebuild->unit); break;
    case N20__V1__ORDER__KIND_WING: buf_printf(out, "wing %s", o->wing->leader); break;
    case N20__V1__ORDER__KIND_REVEAL: buf_printf(out, "reveal %s", o->reveal->unit); break;
    case N20__V1__ORDER__KIND_SCHEDULE: buf_printf(out, "schedule %s %u", o->schedule->unit, o->schedule->turn); break;
    case N20__V1__ORDER__KIND_DELAY: buf_printf(out, "delay %s", o->delay->unit); break;
    /* ---- steps of the combinatorial decisions */
    case N20__V1__ORDER__KIND_DECLARE_ONE:
        buf_append_str(out, "declare one ");
        s_ids(out, o->declare_one->attackers, o->declare_one->n_attackers, ",");
        buf_append_str(out, " -> ");
        s_ids(out, o->declare_one->defenders, o->declare_one->n_defenders, ",");
        break;
    case N20__V1__ORDER__KIND_DECLARE_DONE: buf_append_str(out, "declare done"); break;
    case N20__V1__ORDER__KIND_RETREAT_STEP:
        buf_printf(out, "retreat-step %s", o->retreat_step->unit);
        for (size_t i = 0; i < o->retreat_step->n_path; i++) buf_printf(out, " %04u", o->retreat_step->path[i]);
        break;
    case N20__V1__ORDER__KIND_RETREAT_STOP: buf_printf(out, "retreat-stop %s", o->retreat_stop->unit); break;
    case N20__V1__ORDER__KIND_FIGHT:
        buf_printf(out, "fight %u%s", o->fight->battle + 1, o->fight->reserve ? " reserve" : "");
        break;
    case N20__V1__ORDER__KIND_STEP_F:
        if (o->step_f->reduce) buf_printf(out, "resolve at differential %+d", o->step_f->differential);
        else buf_append_str(out, "no reduction");
        break;
    case N20__V1__ORDER__KIND_SITE: buf_printf(out, "site %s", o->site->name); break; /* A-E [3.0] */
    case N20__V1__ORDER__KIND_DEPLOY: buf_printf(out, "deploy %s %04u", o->deploy->unit, o->deploy->hex); break; /* Wagram [3.0] */
    case N20__V1__ORDER__KIND_ALT_AREA: buf_printf(out, "alt-area %s", o->alt_area->unit); break;          /* Wagram [3.0] */
    default: rc = -1; break;
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return rc;
}

int n20_event_format(const uint8_t *event, size_t len, brt_buf *out) {
    ProtobufCMessage *m = NULL;
    if (canon_unpack(&n20__v1__event__descriptor, event, len, 1u << 16, &m) != CANON_OK) return -1;
    N20__V1__Event *e = (N20__V1__Event *)m;
    int rc = buf_printf(out, "T%u %s: %s", e->turn, e->kind, e->text);
    protobuf_c_message_free_unpacked(m, NULL);
    return rc;
}
