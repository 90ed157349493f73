/*
 * legal.c - legal(): every order the seat may give now; every listed order is accepted by
 * apply(), and every order apply() accepts is reached through listed orders (test_n20_legal_reach).
 * Movement lists one path per reachable destination. Declarations list a representative set of
 * whole declarations and, to reach every one, the step form [9.2] (`declare one` each battle that
 * keeps the declaration completable, `declare done`); retreats list up to 24 whole paths and the
 * step form [9.7] (`retreat-step` every next hex of a valid path, `retreat-stop`); every
 * countercharge and every set of accompanying Leaders; Step F [9.5] (rulings R-9.5-cap,
 * docs/danube-rulings/legal.md).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"
#include "n20/v1/n20.pb-c.h"

typedef struct s_ctx {
    const n20_state *s;
    brt_buf *out;
    int count;
    int kind; /* for path callbacks */
    int seat;
} s_ctx;

static size_t s_varint(uint8_t *p, size_t v) {
    size_t n = 0;
    for (; v >= 0x80; v >>= 7) p[n++] = (uint8_t)(v | 0x80);
    p[n++] = (uint8_t)v;
    return n;
}

/* The member of Order's oneof that o sets, or NULL when o must be packed whole: an Order whose
 * fields all belong to the oneof (as now) and that sets one message member is encoded as that
 * member's key, its length and its bytes, which is what the Order packer writes, without
 * walking Order's descriptor twice for each of the thousands of orders a legal() lists. */
static const ProtobufCMessage *s_member(const N20__V1__Order *o, uint32_t *field) {
    const ProtobufCMessageDescriptor *d = &n20__v1__order__descriptor;
    if (o->base.n_unknown_fields) return NULL;
    for (unsigned i = 0; i < d->n_fields; i++)
        if (!(d->fields[i].flags & PROTOBUF_C_FIELD_FLAG_ONEOF)) return NULL;
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, (unsigned)o->kind_case);
    if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE) return NULL;
    *field = f->id;
    return *(const ProtobufCMessage *const *)((const char *)o + f->offset);
}

/* Appends the order to c->out as a list item: its u32 length, then its bytes packed in place
 * (no copy through a scratch buffer, nothing allocated once the list has grown to its size). */
static void s_emit(s_ctx *c, const N20__V1__Order *o) {
    uint32_t field = 0;
    const ProtobufCMessage *m = s_member(o, &field);
    size_t mlen = m ? protobuf_c_message_get_packed_size(m) : 0, hlen = 0;
    uint8_t head[24];
    if (m) {
        hlen = s_varint(head, (size_t)field << 3 | PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED);
        hlen += s_varint(head + hlen, mlen);
    }
    size_t len = m ? hlen + mlen : n20__v1__order__get_packed_size(o);
    if (len > UINT32_MAX || buf_reserve(c->out, 4 + len) != 0) return;
    buf_append_u32le(c->out, (uint32_t)len);
    uint8_t *p = c->out->data + c->out->len;
    if (m) {
        memcpy(p, head, hlen);
        protobuf_c_message_pack(m, p + hlen);
    } else {
        n20__v1__order__pack(o, p);
    }
    c->out->len += len;
    c->count++;
}

/* [10.0] [16.1.3] [16.4] [16.9.8] "place UNIT HEX" */
static void s_emit_place(s_ctx *c, int u, uint16_t hex) {
    N20__V1__Order o = N20__V1__ORDER__INIT;
    N20__V1__Place pl = N20__V1__PLACE__INIT;
    pl.unit = (char *)n20_uid(c->s, u);
    pl.hex = n20_xxyy(hex);
    o.kind_case = N20__V1__ORDER__KIND_PLACE;
    o.place = &pl;
    s_emit(c, &o);
}

static int s_is_end(const uint8_t *item, size_t len) {
    N20__V1__EndPhase e = N20__V1__END_PHASE__INIT;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    o.kind_case = N20__V1__ORDER__KIND_END;
    o.end = &e;
    uint8_t b[16];
    size_t n = n20__v1__order__get_packed_size(&o);
    if (n > sizeof b || n != len) return 0;
    n20__v1__order__pack(&o, b);
    return memcmp(b, item, n) == 0;
}

static void s_end(s_ctx *c) {
    N20__V1__EndPhase e = N20__V1__END_PHASE__INIT;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    o.kind_case = N20__V1__ORDER__KIND_END;
    o.end = &e;
    s_emit(c, &o);
}

/* An Order whose member is {string unit = 1; repeated uint32 path = 2 (packed)} (Move, Retreat,
 * Advance; Move and Advance with no `leaders`) written directly: the bytes protobuf-c writes (tests/unit/test_n20_index.c compares
 * them), for the thousands of paths a Movement Phase lists. -1: the message is not of that form
 * (its descriptor changed) or is empty somewhere; the caller packs it with protobuf-c. */
/* The Order bytes of such a path (at most S_PATH_BYTES) into dst: their length, or -1 */
#define S_PATH_BYTES 256
static int s_path_bytes(const ProtobufCMessageDescriptor *d, int kind, const char *id, const uint32_t *hx, int n,
                        uint8_t *dst) {
    if (d->n_fields < 2 || d->n_fields > 3 || d->fields[0].id != 1 || d->fields[0].type != PROTOBUF_C_TYPE_STRING ||
        d->fields[0].label != PROTOBUF_C_LABEL_NONE || d->fields[1].id != 2 ||
        d->fields[1].type != PROTOBUF_C_TYPE_UINT32 || d->fields[1].label != PROTOBUF_C_LABEL_REPEATED ||
        !(d->fields[1].flags & PROTOBUF_C_FIELD_FLAG_PACKED))
        return -1;
    /* Move and Advance also have {repeated string leaders = 3}, empty here: nothing on the wire */
    if (d->n_fields == 3 && (d->fields[2].id != 3 || d->fields[2].type != PROTOBUF_C_TYPE_STRING ||
                             d->fields[2].label != PROTOBUF_C_LABEL_REPEATED))
        return -1;
    size_t idlen = strlen(id);
    if (!idlen || idlen > 64 || n < 1 || n > N20_MAX_PATH) return -1;
    uint8_t hexes[N20_MAX_PATH * 5], v[16];
    size_t hl = 0;
    for (int i = 0; i < n; i++) hl += s_varint(hexes + hl, hx[i]);
    size_t ml = 1 + s_varint(v, idlen) + idlen + 1 + s_varint(v, hl) + hl; /* the member */
    size_t key = (size_t)kind << 3 | PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    uint8_t *q = dst;
    q += s_varint(q, key);
    q += s_varint(q, ml);
    *q++ = 1 << 3 | PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    q += s_varint(q, idlen);
    memcpy(q, id, idlen);
    q += idlen;
    *q++ = 2 << 3 | PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    q += s_varint(q, hl);
    memcpy(q, hexes, hl);
    q += hl;
    return (int)(q - dst);
}

/* one item of Order bytes appended to the list */
static void s_emit_bytes(s_ctx *c, const uint8_t *b, size_t pl) {
    /* written in place after the item's length (nothing allocated once the list has its size) */
    if (buf_reserve(c->out, 4 + pl) != 0) return;
    buf_append_u32le(c->out, (uint32_t)pl);
    memcpy(c->out->data + c->out->len, b, pl);
    c->out->len += pl;
    c->count++;
}

static int s_emit_path(s_ctx *c, const ProtobufCMessageDescriptor *d, const char *id, const uint32_t *hx,
                       int n) {
    uint8_t b[S_PATH_BYTES];
    int pl = s_path_bytes(d, c->kind, id, hx, n, b);
    if (pl < 0) return -1;
    s_emit_bytes(c, b, (size_t)pl);
    return 0;
}

static void s_path_cb(void *ctx, int u, const uint16_t *path, int n) {
    s_ctx *c = ctx;
    uint32_t hx[N20_MAX_PATH];
    for (int i = 0; i < n; i++) hx[i] = n20_xxyy(path[i]);
    const ProtobufCMessageDescriptor *pd = NULL;
    if (c->kind == N20__V1__ORDER__KIND_MOVE || c->kind == N20__V1__ORDER__KIND_DISENGAGE)
        pd = &n20__v1__move__descriptor;
    else if (c->kind == N20__V1__ORDER__KIND_RETREAT)
        pd = &n20__v1__retreat__descriptor;
    else if (c->kind == N20__V1__ORDER__KIND_ADVANCE)
        pd = &n20__v1__advance__descriptor;
    /* a Move or Retreat has no Leader variants below: written directly, done */
    int variants = c->kind == N20__V1__ORDER__KIND_DISENGAGE || c->kind == N20__V1__ORDER__KIND_ADVANCE;
    if (pd && !variants && s_emit_path(c, pd, n20_uid(c->s, u), hx, n) == 0) return;
    N20__V1__Move m = N20__V1__MOVE__INIT;
    N20__V1__Retreat r = N20__V1__RETREAT__INIT;
    N20__V1__Advance a = N20__V1__ADVANCE__INIT;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    char *id = (char *)n20_uid(c->s, u);
    switch (c->kind) {
    case N20__V1__ORDER__KIND_MOVE:
    case N20__V1__ORDER__KIND_DISENGAGE:
    case N20__V1__ORDER__KIND_PENETRATE:
        m.unit = id; m.n_path = (size_t)n; m.path = hx;
        o.kind_case = c->kind;
        if (c->kind == N20__V1__ORDER__KIND_MOVE) o.move = &m;
        else if (c->kind == N20__V1__ORDER__KIND_PENETRATE) o.penetrate = &m;
        else o.disengage = &m;
        break;
    case N20__V1__ORDER__KIND_RETREAT:
        r.unit = id; r.n_path = (size_t)n; r.path = hx;
        o.kind_case = c->kind; o.retreat = &r;
        break;
    case N20__V1__ORDER__KIND_ADVANCE:
        a.unit = id; a.n_path = (size_t)n; a.path = hx;
        o.kind_case = c->kind; o.advance = &a;
        break;
    default: return;
    }
    if (!pd || s_emit_path(c, pd, id, hx, n) != 0) s_emit(c, &o);
    /* [16.9.4] [16.9.5] the same, with every set of the friendly Leaders stacked with the unit
     * (all of them first, as before) */
    int ls[N20_MAX_SIDE];
    char *lids[N20_MAX_SIDE];
    int nl = variants ? n20_leaders_with(c->s, u, ls, N20_MAX_SIDE) : 0;
    if (nl > 6) nl = 6;
    for (unsigned full = (1u << nl) - 1, i = 0; nl > 0 && i < full; i++) {
        unsigned mask = i == 0 ? full : i;
        size_t k = 0;
        for (int j = 0; j < nl; j++)
            if (mask >> j & 1) lids[k++] = (char *)n20_uid(c->s, ls[j]);
        m.n_leaders = a.n_leaders = k;
        m.leaders = a.leaders = lids;
        s_emit(c, &o);
    }
}

static void s_declare(s_ctx *c, const n20_battle *b, int nb) {
    N20__V1__Battle bt[N20_MAX_BATTLES], *bp[N20_MAX_BATTLES];
    char *ids[N20_MAX_BATTLES][2][N20_MAX_SIDE];
    char hb[N20_MAX_BATTLES][2][N20_MAX_SIDE][N20_NAME]; /* [16.1] handles of hidden enemy units */
    for (int i = 0; i < nb; i++) {
        n20__v1__battle__init(&bt[i]);
        for (int k = 0; k < b[i].natt; k++) ids[i][0][k] = (char *)n20_uid_seat(c->s, b[i].att[k], c->seat, hb[i][0][k]);
        for (int k = 0; k < b[i].ndef; k++) ids[i][1][k] = (char *)n20_uid_seat(c->s, b[i].def[k], c->seat, hb[i][1][k]);
        bt[i].n_attackers = b[i].natt;
        bt[i].attackers = ids[i][0];
        bt[i].n_defenders = b[i].ndef;
        bt[i].defenders = ids[i][1];
        bp[i] = &bt[i];
    }
    N20__V1__Declare d = N20__V1__DECLARE__INIT;
    d.n_battles = (size_t)nb;
    d.battles = bp;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    o.kind_case = N20__V1__ORDER__KIND_DECLARE;
    o.declare = &d;
    if (n20_declare_check(c->s, b, nb, NULL) == 0) s_emit(c, &o);
}

/* ---- [9.2] the declaration one battle at a time ----------------------------------------
 * A search for a completion of the battles declared so far: the first obligation not yet met
 * (a unit in an EZOC that does not attack [9.1], an enemy the attack of a declared attacker
 * obliges [9.1.1] [9.2.1] that nobody attacks) joins a battle the search has made, or makes a
 * new battle with one unit adjacent to it; every complete bipartite battle splits into such stars,
 * so a completion exists iff the search finds one (n20_declare_check judges each leaf). */
typedef struct s_comp {
    const n20_state *s;
    n20_battle b[N20_MAX_BATTLES];
    int nb, fixed;
    uint8_t role[N20_MAX_UNITS]; /* 1 attacks, 2 is attacked */
    uint8_t can[N20_MAX_UNITS];  /* 1 may attack (phasing), 2 may be attacked (enemy) */
    uint8_t must[N20_MAX_UNITS]; /* [9.1] */
    uint64_t pair[N20_MAX_UNITS]; /* the units it may meet in a battle ([9.2.2], [16.3.2]) */
    uint64_t obl[N20_MAX_UNITS];  /* the enemies its attack obliges to be attacked */
    long budget;
} s_comp;

/* 1 may attack, 2 may be attacked, 0 neither: the unit checks of n20_declare_check (a unit on
 * the map, not a Leader; a Garrison by its own checks [9.4.4]); the reason into err */
static int s_can(const n20_state *s, int u, int attack, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    int phasing = u < sc->nunits && n20_side_of(s, u) == s->phasing;
    if (u < sc->nunits && n20_is_garrison(s, u) && phasing == attack) {
        if ((attack ? n20_garrison_attacker_check(s, u, err) : n20_garrison_defender_check(s, u, err)) < 0) return 0;
        return attack ? 1 : 2;
    }
    if (u >= sc->nunits || s->u[u].where != N20_U_MAP || phasing != attack || sc->units[u].type == N20_LEADER) {
        n20_reject(err, "9.0", attack ? "%s cannot attack: not a phasing unit on the map"
                                      : "%s cannot be attacked: not an enemy unit on the map",
                   u < sc->nunits ? N20_RUID(s, u) : "?");
        return 0;
    }
    return attack ? 1 : 2;
}

static void s_comp_init(s_comp *c, const n20_state *s) {
    memset(c, 0, sizeof *c);
    c->s = s;
    const n20_scenario *sc = s->sc;
    for (int u = 0; u < sc->nunits; u++) {
        c->can[u] = (uint8_t)(s_can(s, u, 1, NULL) | s_can(s, u, 0, NULL));
        c->must[u] = c->can[u] == 1 && n20_must_attack(s, u);
    }
    for (int a = 0; a < sc->nunits; a++) {
        if (c->can[a] != 1) continue;
        for (int e = 0; e < sc->nunits; e++) {
            if (c->can[e] != 2) continue;
            if (n20_adjacent_units(s, a, e) || n20_bombard_pair(s, a, e)) {
                c->pair[a] |= 1ull << e;
                c->pair[e] |= 1ull << a;
            }
            if (n20_declare_obliges(s, a, e)) c->obl[a] |= 1ull << e;
        }
    }
}

/* the first obligation not met, -1 none */
static int s_unmet(const s_comp *c) {
    int n = c->s->sc->nunits;
    for (int u = 0; u < n; u++)
        if (c->must[u] && c->role[u] != 1) return u;
    for (int a = 0; a < n; a++) {
        if (c->role[a] != 1 || !c->obl[a]) continue;
        for (int e = 0; e < n; e++)
            if ((c->obl[a] >> e & 1) && c->role[e] != 2) return e;
    }
    return -1;
}

static int s_complete(s_comp *c) {
    if (--c->budget < 0) return 0;
    int x = s_unmet(c);
    if (x < 0) return n20_declare_check(c->s, c->b, c->nb, NULL) == 0;
    int att = c->can[x] == 1, n = c->s->sc->nunits;
    uint8_t r = (uint8_t)(att ? 1 : 2);
    for (int i = c->fixed; i < c->nb; i++) { /* x joins a battle of the search */
        n20_battle *b = &c->b[i];
        const uint8_t *other = att ? b->def : b->att;
        int no = att ? b->ndef : b->natt, ns = att ? b->natt : b->ndef, ok = ns < N20_MAX_SIDE;
        for (int j = 0; ok && j < no; j++) ok = c->pair[x] >> other[j] & 1;
        if (!ok) continue;
        if (att) b->att[b->natt++] = (uint8_t)x; else b->def[b->ndef++] = (uint8_t)x;
        c->role[x] = r;
        if (s_complete(c)) return 1;
        c->role[x] = 0;
        if (att) b->natt--; else b->ndef--;
    }
    if (c->nb >= N20_MAX_BATTLES) return 0;
    for (int y = 0; y < n; y++) { /* or makes a new one with y */
        if (!(c->pair[x] >> y & 1) || c->role[y]) continue;
        n20_battle *b = &c->b[c->nb++];
        memset(b, 0, sizeof *b);
        b->natt = b->ndef = 1;
        b->att[0] = (uint8_t)(att ? x : y);
        b->def[0] = (uint8_t)(att ? y : x);
        c->role[x] = r;
        c->role[y] = (uint8_t)(3 - r);
        if (s_complete(c)) return 1;
        c->role[x] = c->role[y] = 0;
        c->nb--;
    }
    return 0;
}

static int s_completable(s_comp *c, const n20_battle *b, int nb) {
    memset(c->role, 0, sizeof c->role);
    for (int i = 0; i < nb; i++) {
        c->b[i] = b[i];
        for (int j = 0; j < b[i].natt; j++) c->role[b[i].att[j]] = 1;
        for (int j = 0; j < b[i].ndef; j++) c->role[b[i].def[j]] = 2;
    }
    c->nb = c->fixed = nb;
    c->budget = 20000; /* beyond it the declaration is taken as not completable */
    return s_complete(c);
}

int n20_stepping(const n20_state *s) {
    return (s->phase == N20_PH_DECLARE && s->nbattles > 0) || n20_retreat_stepped(s);
}

int n20_declare_completable(const n20_state *s, const n20_battle *b, int nb) {
    s_comp c; /* on the stack: a few KiB */
    s_comp_init(&c, s);
    return s_completable(&c, b, nb);
}

/* the checks of n20_declare_check on the battles declared so far and b, but the obligations */
static int s_one_ok(const n20_state *s, const n20_battle *b, brt_reject *err) {
    if (s->phase != N20_PH_DECLARE) return n20_reject(err, "9.2", "battles are declared at the start of the Combat Phase");
    if (s->nbattles >= N20_MAX_BATTLES) return n20_reject(err, "9.2", "too many battles");
    n20_battle all[N20_MAX_BATTLES];
    memcpy(all, s->b, sizeof(n20_battle) * s->nbattles);
    all[s->nbattles] = *b;
    uint8_t role[N20_MAX_UNITS];
    memset(role, 0, sizeof role);
    for (int i = 0; i <= s->nbattles; i++) {
        const n20_battle *x = &all[i];
        if (x->natt < 1 || x->ndef < 1 || x->natt > N20_MAX_SIDE || x->ndef > N20_MAX_SIDE)
            return n20_reject(err, "9.0", "a battle needs attackers and defenders");
        for (int j = 0; j < x->natt + x->ndef; j++) {
            int a = j < x->natt ? x->att[j] : x->def[j - x->natt], at = j < x->natt;
            if (!s_can(s, a, at, err)) return -1;
            if (role[a]) return n20_reject(err, "9.1.2", at ? "%s attacks more than once" : "%s is attacked more than once",
                                           N20_RUID(s, a));
            role[a] = (uint8_t)(at ? 1 : 2);
        }
    }
    for (int j = 0; j < b->natt; j++)
        for (int k = 0; k < b->ndef; k++)
            if (!n20_adjacent_units(s, b->att[j], b->def[k]) && !n20_bombard_pair(s, b->att[j], b->def[k]))
                return n20_reject(err, "9.2.2", "%s is not adjacent to %s: every attacker must be adjacent to every defender",
                                  N20_RUID(s, b->att[j]), N20_RUID(s, b->def[k]));
    return 0;
}

int n20_declare_one_check(const n20_state *s, const n20_battle *b, brt_reject *err) {
    if (s_one_ok(s, b, err) < 0) return -1;
    n20_battle all[N20_MAX_BATTLES];
    memcpy(all, s->b, sizeof(n20_battle) * s->nbattles);
    all[s->nbattles] = *b;
    if (!n20_declare_completable(s, all, s->nbattles + 1))
        return n20_reject(err, "9.1", "with this battle the declaration can no longer meet every obligation "
                          "(units in enemy ZOCs attack, enemies in the ZOC of an attacker are attacked, nobody twice)");
    return 0;
}

static void s_emit_one(s_ctx *c, const n20_battle *b) {
    char *ids[2][N20_MAX_SIDE];
    char hb[2][N20_MAX_SIDE][N20_NAME]; /* [16.1] handles of hidden enemy units */
    for (int k = 0; k < b->natt; k++) ids[0][k] = (char *)n20_uid_seat(c->s, b->att[k], c->seat, hb[0][k]);
    for (int k = 0; k < b->ndef; k++) ids[1][k] = (char *)n20_uid_seat(c->s, b->def[k], c->seat, hb[1][k]);
    N20__V1__Battle bt = N20__V1__BATTLE__INIT;
    bt.n_attackers = b->natt;
    bt.attackers = ids[0];
    bt.n_defenders = b->ndef;
    bt.defenders = ids[1];
    N20__V1__Order o = N20__V1__ORDER__INIT;
    o.kind_case = N20__V1__ORDER__KIND_DECLARE_ONE;
    o.declare_one = &bt;
    s_emit(c, &o);
}

/* every battle (attackers all adjacent to all defenders, units not yet declared) that leaves a
 * completable declaration, and "declare done" when the declaration is complete */
static void s_legal_declare_steps(s_ctx *c) {
    const n20_state *s = c->s;
    if (n20_declare_check(s, s->b, s->nbattles, NULL) == 0) {
        N20__V1__EndPhase e = N20__V1__END_PHASE__INIT;
        N20__V1__Order o = N20__V1__ORDER__INIT;
        o.kind_case = N20__V1__ORDER__KIND_DECLARE_DONE;
        o.declare_done = &e;
        s_emit(c, &o);
    }
    if (s->nbattles >= N20_MAX_BATTLES) return;
    s_comp comp, *cp = &comp;
    s_comp_init(cp, s);
    int n = s->sc->nunits;
    uint64_t used = 0;
    for (int i = 0; i < s->nbattles; i++) {
        for (int j = 0; j < s->b[i].natt; j++) used |= 1ull << s->b[i].att[j];
        for (int j = 0; j < s->b[i].ndef; j++) used |= 1ull << s->b[i].def[j];
    }
    int ord[N20_MAX_UNITS];
    n20_fog_order(s, ord);
    n20_battle all[N20_MAX_BATTLES];
    memcpy(all, s->b, sizeof(n20_battle) * s->nbattles);
    /* a battle is found from its first attacker a0 (in fog order): its defenders are enemies
     * a0 meets, its other attackers later units that meet every defender */
    for (int i0 = 0; i0 < n; i0++) {
        int a0 = ord[i0];
        if (cp->can[a0] != 1 || (used >> a0 & 1)) continue;
        int de[N20_MAX_SIDE], nde = 0;
        for (int j = 0; j < n && nde < N20_MAX_SIDE; j++) {
            int e = ord[j];
            if ((cp->pair[a0] >> e & 1) && !(used >> e & 1)) de[nde++] = e;
        }
        for (unsigned dm = 1; dm < (1u << nde); dm++) {
            uint64_t common = ~0ull;
            n20_battle b;
            memset(&b, 0, sizeof b);
            for (int j = 0; j < nde; j++)
                if (dm >> j & 1) {
                    b.def[b.ndef++] = (uint8_t)de[j];
                    common &= cp->pair[de[j]];
                }
            int at[N20_MAX_SIDE], nat = 0;
            for (int j = i0 + 1; j < n && nat < N20_MAX_SIDE - 1; j++) {
                int a = ord[j];
                if (cp->can[a] == 1 && !(used >> a & 1) && (common >> a & 1)) at[nat++] = a;
            }
            for (unsigned am = 0; am < (1u << nat); am++) {
                b.natt = 0;
                b.att[b.natt++] = (uint8_t)a0;
                for (int j = 0; j < nat; j++)
                    if (am >> j & 1) b.att[b.natt++] = (uint8_t)at[j];
                all[s->nbattles] = b;
                if (s_completable(cp, all, s->nbattles + 1)) s_emit_one(c, &b);
            }
        }
    }
}

static void s_legal_declare(s_ctx *c) {
    const n20_state *s = c->s;
    if (s->nbattles) { /* the declaration is being made one battle at a time */
        s_legal_declare_steps(c);
        return;
    }
    n20_battle b[N20_MAX_BATTLES];
    memset(b, 0, sizeof b);
    int nb = n20_declare_canonical(s, b, N20_MAX_BATTLES);
    s_declare(c, b, nb);
    /* variants: merge two battles when every attacker is adjacent to every defender */
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++) {
            if (b[i].natt + b[j].natt > N20_MAX_SIDE || b[i].ndef + b[j].ndef > N20_MAX_SIDE) continue;
            n20_battle m[N20_MAX_BATTLES];
            int nm = 0;
            for (int k = 0; k < nb; k++)
                if (k != i && k != j) m[nm++] = b[k];
            n20_battle x = b[i];
            for (int k = 0; k < b[j].natt; k++) x.att[x.natt++] = b[j].att[k];
            for (int k = 0; k < b[j].ndef; k++) x.def[x.ndef++] = b[j].def[k];
            m[nm++] = x;
            s_declare(c, m, nm);
        }
    /* variant: an extra voluntary attack by a unit not obliged to attack, on one adjacent enemy
     * (the first in hex order with fog-of-war [16.1]) */
    int ord[N20_MAX_UNITS];
    n20_fog_order(s, ord);
    for (int u = 0; u < s->sc->nunits && nb < N20_MAX_BATTLES; u++) {
        if (!n20_map_force(s, u) || n20_side_of(s, u) != s->phasing || n20_must_attack(s, u)) continue; /* [9.11] */
        if (s->sc->units[u].type == N20_LEADER) continue;
        for (int ie = 0; ie < s->sc->nunits; ie++) {
            int e = ord[ie];
            if (n20_side_of(s, e) == s->phasing || !n20_adjacent_units(s, u, e)) continue;
            if (s->sc->units[e].type == N20_LEADER) continue; /* [16.9.3] */
            int used = 0;
            for (int k = 0; k < nb; k++)
                for (int j = 0; j < b[k].ndef; j++)
                    if (b[k].def[j] == e) used = 1;
            if (used) continue;
            n20_battle m[N20_MAX_BATTLES];
            memcpy(m, b, sizeof(n20_battle) * (size_t)nb);
            memset(&m[nb], 0, sizeof m[nb]);
            m[nb].natt = 1;
            m[nb].att[0] = (uint8_t)u;
            m[nb].ndef = 1;
            m[nb].def[0] = (uint8_t)e;
            s_declare(c, m, nb + 1);
            break;
        }
    }
    /* [16.3.2] variant: a Bombardment by an Artillery unit not obliged to attack */
    for (int u = 0; u < s->sc->nunits && nb < N20_MAX_BATTLES; u++) {
        if (!n20_map_force(s, u) || n20_side_of(s, u) != s->phasing || n20_must_attack(s, u)) continue; /* [9.11] */
        for (int e = 0; e < s->sc->nunits; e++) {
            if (n20_side_of(s, e) == s->phasing || !n20_bombard_pair(s, u, e)) continue;
            int used = 0;
            for (int k = 0; k < nb; k++)
                for (int j = 0; j < b[k].ndef; j++)
                    if (b[k].def[j] == e) used = 1;
            if (used) continue;
            n20_battle m[N20_MAX_BATTLES];
            memcpy(m, b, sizeof(n20_battle) * (size_t)nb);
            memset(&m[nb], 0, sizeof m[nb]);
            m[nb].natt = 1;
            m[nb].att[0] = (uint8_t)u;
            m[nb].ndef = 1;
            m[nb].def[0] = (uint8_t)e;
            s_declare(c, m, nb + 1);
        }
    }
    s_legal_declare_steps(c); /* [9.2] the step form reaches every declaration */
}

/* [9.7] the step form: every next hex some valid retreat takes after the steps so far, and
 * retreat-stop where those steps are a whole retreat */
static void s_legal_retreat_steps(s_ctx *c, int u, const n20_index *ix) {
    const n20_state *s = c->s;
    int k = s->f.ret_done, np = s->f.npath[k];
    char hb[N20_NAME];
    char *id = (char *)n20_uid_seat(s, u, c->seat, hb);
    N20__V1__Order o = N20__V1__ORDER__INIT;
    uint16_t cur = np ? s->f.path[k][np - 1] : s->u[u].hex;
    for (int d = 0; d < 6; d++) {
        uint16_t to;
        if (n20_neighbor(s->sc, cur, d, &to) < 0 || n20_retreat_step_check_ix(s, u, to, NULL, ix) < 0) continue;
        uint32_t hx[1] = {n20_xxyy(to)};
        N20__V1__Retreat r = N20__V1__RETREAT__INIT;
        r.unit = id;
        r.n_path = 1;
        r.path = hx;
        o.kind_case = N20__V1__ORDER__KIND_RETREAT_STEP;
        o.retreat_step = &r;
        s_emit(c, &o);
    }
    if (n20_retreat_stop_check_ix(s, u, NULL, ix) == 0) {
        N20__V1__Contact st = N20__V1__CONTACT__INIT;
        st.unit = id;
        o.kind_case = N20__V1__ORDER__KIND_RETREAT_STOP;
        o.retreat_stop = &st;
        s_emit(c, &o);
    }
}

/* [8.1] [8.1.3] every Countercharge that unit u leads (u first: the attackers and defenders named
 * in n20_fog_order, so each set of units is listed once): u against any set of enemy units, or
 * u and any other Cavalry units against one enemy unit; each also with reserves [12.2.3] */
static void s_legal_countercharges(s_ctx *c, int u, const int *ord) {
    const n20_state *s = c->s;
    int n = s->sc->nunits, pu = -1;
    for (int i = 0; i < n; i++)
        if (ord[i] == u) pu = i;
    int de[N20_MAX_SIDE], nde = 0;
    for (int i = 0; i < n && nde < N20_MAX_SIDE; i++) {
        int a1[1] = {u}, d1[1] = {ord[i]};
        if (n20_countercharge_check(s, a1, 1, d1, 1, NULL) == 0) de[nde++] = ord[i];
    }
    N20__V1__Order o = N20__V1__ORDER__INIT;
    for (unsigned dm = 1; dm < (1u << nde); dm++) {
        int df[N20_MAX_SIDE], nd = 0;
        for (int j = 0; j < nde; j++)
            if (dm >> j & 1) df[nd++] = de[j];
        int others[N20_MAX_SIDE], no = 0; /* later Cavalry that may join against one enemy */
        for (int i = pu + 1; nd == 1 && i < n && no < N20_MAX_SIDE - 1; i++) {
            int a1[1] = {ord[i]};
            if (n20_countercharge_check(s, a1, 1, df, 1, NULL) == 0) others[no++] = ord[i];
        }
        for (unsigned am = 0; am < (1u << no); am++) {
            int at[N20_MAX_SIDE], na = 0;
            at[na++] = u;
            for (int j = 0; j < no; j++)
                if (am >> j & 1) at[na++] = others[j];
            if (n20_countercharge_check(s, at, na, df, nd, NULL) < 0) continue;
            char *aid[N20_MAX_SIDE], *did[N20_MAX_SIDE], hb[N20_MAX_SIDE][N20_NAME];
            for (int j = 0; j < na; j++) aid[j] = (char *)n20_uid(s, at[j]);
            for (int j = 0; j < nd; j++) did[j] = (char *)n20_uid_seat(s, df[j], c->seat, hb[j]);
            N20__V1__Countercharge cc = N20__V1__COUNTERCHARGE__INIT;
            cc.n_attackers = (size_t)na; cc.attackers = aid; cc.n_defenders = (size_t)nd; cc.defenders = did;
            o.kind_case = N20__V1__ORDER__KIND_COUNTERCHARGE;
            o.countercharge = &cc;
            for (int r = 0; r < 2; r++) {
                if (r && s->morale[1 - s->phasing] < 1) break;
                cc.reserve = r;
                cc.fight = 0;
                s_emit(c, &o);
                cc.fight = 1; /* [9.5] decided at Step F (R-9.5-cap) */
                s_emit(c, &o);
            }
        }
    }
}

/* ---- the Movement Phase paths, kept from one move decision to the next ------------------------
 * A unit on the map's candidate paths (n20_move_candidates) depend on the state but not on where
 * the other units of its side stand; only n20_move_end_check reads that. So between two
 * decisions of a Movement Phase whose states differ only in friendly units that moved (their
 * hex, and N20_UF_MOVED set), every other unit's candidates are the same: they are kept, and
 * only their end checks are made again, in the same order. Anything else that differs empties
 * the cache. Not in the scenarios whose steps ask the A-E, Wagram crossing or Garrison rules.
 * One cache a thread, keyed by the whole state: a state of another game only empties it. */
#define S_MC_HEXES (1u << 16)
typedef struct s_mcache {
    int valid;
    n20_state prev;                         /* the state the entries were made for */
    uint8_t have[N20_MAX_UNITS];            /* the unit's entry is kept */
    uint32_t off[N20_MAX_UNITS], n[N20_MAX_UNITS]; /* its candidates in `hex`: n of them from off */
    uint32_t used; /* of `hex`: each path its length n, the length b of its Order bytes, its n hexes,
                    * then the b bytes in (b + 1) / 2 entries */
    uint16_t hex[S_MC_HEXES];
} s_mcache;
static _Thread_local s_mcache *s_mc;
static pthread_key_t s_mc_key;
static pthread_once_t s_mc_once = PTHREAD_ONCE_INIT;
static void s_mc_free(void *p) { free(p); }
static void s_mc_key_init(void) { (void)pthread_key_create(&s_mc_key, s_mc_free); }

/* this thread's cache, freed when the thread ends; NULL when there is no memory for it */
static s_mcache *s_mc_get(void) {
    if (!s_mc) {
        pthread_once(&s_mc_once, s_mc_key_init);
        s_mc = calloc(1, sizeof *s_mc);
        if (s_mc && pthread_setspecific(s_mc_key, s_mc) != 0) {
            free(s_mc);
            s_mc = NULL;
        }
    }
    return s_mc;
}

typedef struct s_mrec {
    s_ctx *c;
    s_mcache *m;
    const n20_index *ix;
    int u, full;
} s_mrec;

static void s_mrec_cb(void *ctx, int u, const uint16_t *path, int n) {
    s_mrec *r = ctx;
    s_mcache *m = r->m;
    uint32_t hx[N20_MAX_PATH];
    uint8_t b[S_PATH_BYTES];
    for (int i = 0; i < n && i < N20_MAX_PATH; i++) hx[i] = n20_xxyy(path[i]);
    int pl = r->full ? -1 : s_path_bytes(&n20__v1__move__descriptor, r->c->kind, n20_uid(r->c->s, u), hx, n, b);
    uint32_t len = pl < 0 ? 0 : 2u + (uint32_t)n + ((uint32_t)pl + 1) / 2;
    if (pl >= 0 && m->used + len <= S_MC_HEXES) {
        uint16_t *e = m->hex + m->used;
        e[0] = (uint16_t)n;
        e[1] = (uint16_t)pl;
        memcpy(e + 2, path, (size_t)n * sizeof *path);
        memcpy(e + 2 + n, b, (size_t)pl);
        m->used += len;
        m->n[u]++;
    } else {
        r->full = 1;
    }
    if (n20_move_end_check(r->c->s, u, path, n, r->ix) == 0) s_path_cb(r->c, u, path, n);
}

/* 1 when the cache's state and s differ only in friendly units that moved (set in mu) */
static int s_mc_moves_only(const s_mcache *m, const n20_state *s, uint8_t *mu) {
    const n20_state *p = &m->prev;
    size_t a = offsetof(n20_state, u), b = a + sizeof p->u;
    if (memcmp(p, s, a) != 0 || memcmp((const char *)p + b, (const char *)s + b, sizeof *s - b) != 0) return 0;
    for (int i = 0; i < N20_MAX_UNITS; i++) {
        const n20_unit *x = &p->u[i], *y = &s->u[i];
        if (memcmp(x, y, sizeof *x) == 0) continue;
        if (i >= s->sc->nunits || x->where != N20_U_MAP || y->where != N20_U_MAP || x->routed != y->routed ||
            x->arrive != y->arrive || x->hidden != y->hidden || y->flags != (x->flags | N20_UF_MOVED) ||
            n20_side_of(s, i) != s->phasing)
            return 0;
        mu[i] = 1;
    }
    return 1;
}

static void s_legal_moves(s_ctx *c) {
    const n20_state *s = c->s;
    const n20_scenario *sc = s->sc;
    n20_index ix;
    n20_index_build(s, &ix);
    /* the steps of these ask more of the state than n20_move_candidates promises */
    int cacheable = !n20_ae(s) && !sc->dn.nincomplete && !(sc->dn.flor_a && sc->dn.flor_b) && !sc->dn.has_garrison;
    s_mcache *m = cacheable ? s_mc_get() : NULL;
    if (m) {
        uint8_t mu[N20_MAX_UNITS] = {0};
        if (!m->valid || !s_mc_moves_only(m, s, mu)) {
            memset(m->have, 0, sizeof m->have);
            m->used = 0;
        } else {
            for (int u = 0; u < N20_MAX_UNITS; u++)
                if (mu[u]) m->have[u] = 0;
            /* the entries kept, packed at the start of `hex` again, in the order they lie there */
            int ord[N20_MAX_UNITS], nk = 0;
            for (int u = 0; u < N20_MAX_UNITS; u++) {
                if (!m->have[u]) continue;
                int j = nk++;
                for (; j > 0 && m->off[ord[j - 1]] > m->off[u]; j--) ord[j] = ord[j - 1];
                ord[j] = u;
            }
            uint32_t used = 0;
            for (int i = 0; i < nk; i++) {
                int u = ord[i];
                uint32_t len = 0, o = m->off[u];
                for (uint32_t k = 0; k < m->n[u]; k++)
                    len += 2u + m->hex[o + len] + (m->hex[o + len + 1] + 1u) / 2;
                if (o != used) memmove(m->hex + used, m->hex + o, len * sizeof *m->hex);
                m->off[u] = used;
                used += len;
            }
            m->used = used;
        }
        memcpy(&m->prev, s, sizeof *s);
        m->valid = 1;
    }
    for (int u = 0; u < sc->nunits; u++) {
        if (n20_side_of(s, u) != s->phasing ||
            !(s->u[u].where == N20_U_MAP || n20_can_enter_now(s, u) || n20_dummy_may_enter(s, u, NULL) == 0))
            continue;
        if (!m || s->u[u].where != N20_U_MAP) {
            n20_move_destinations_ix(s, u, &ix, s_path_cb, c);
            continue;
        }
        if (m->have[u]) {
            uint32_t o = m->off[u];
            for (uint32_t k = 0; k < m->n[u]; k++) {
                const uint16_t *e = m->hex + o;
                int n = e[0];
                if (n20_move_end_check(s, u, e + 2, n, &ix) == 0) s_emit_bytes(c, (const uint8_t *)(e + 2 + n), e[1]);
                o += 2u + (uint32_t)n + (e[1] + 1u) / 2;
            }
            continue;
        }
        s_mrec r = {c, m, &ix, u, 0};
        m->off[u] = m->used;
        m->n[u] = 0;
        n20_move_candidates(s, u, &ix, s_mrec_cb, &r);
        /* kept only whole (a list that did not fit is searched again next time) */
        if (r.full) {
            m->used = m->off[u];
            m->n[u] = 0;
        } else {
            m->have[u] = 1;
        }
    }
}

int n20_legal(const n20_state *s, unsigned seat, brt_buf *out) {
    s_ctx c = {.s = s, .out = out, .count = 0, .seat = (int)seat};
    if (s->over || (int)seat != n20_pending_seat(s)) return 0;
    size_t start = out->len;
    int ord[N20_MAX_UNITS];
    n20_fog_order(s, ord);
    const n20_scenario *sc = s->sc;
    N20__V1__Order o = N20__V1__ORDER__INIT;
    switch (s->phase) {
    case N20_PH_MOVE:
        if (n20_end_move_check(s, NULL) == 0) s_end(&c);
        for (int u = 0; (s->opts & N20_OPT_BREAKDOWN) && u < sc->nunits; u++) /* [16.6.1] */
            for (int dm = 0; dm < 2; dm++) /* [16.1] also with a Dummy unit */
                if (n20_breakdown_check(s, u, dm, NULL) == 0) {
                    N20__V1__Breakdown bd = N20__V1__BREAKDOWN__INIT;
                    bd.unit = (char *)n20_uid(s, u);
                    bd.dummy = dm;
                    o.kind_case = N20__V1__ORDER__KIND_BREAKDOWN;
                    o.breakdown = &bd;
                    s_emit(&c, &o);
                }
        for (int k = 0; (s->opts & N20_OPT_BERTRAND) && k < sc->dn.nsites; k++) { /* A-E [17.3.2] */
            if (n20_ae_site_check(s, sc->dn.site[k].name, NULL) != k) continue;
            N20__V1__Site st = N20__V1__SITE__INIT;
            st.name = (char *)sc->dn.site[k].name;
            o.kind_case = N20__V1__ORDER__KIND_SITE;
            o.site = &st;
            s_emit(&c, &o);
        }
        for (int l = 0; (s->opts & N20_OPT_LEADERS) && l < sc->nunits; l++) { /* [17.1] enter combined */
            if (!(sc->units[l].flags & N20_FLAG_WING) || n20_wing_check(s, l, NULL) < 0) continue;
            N20__V1__Wing wg = N20__V1__WING__INIT;
            wg.leader = (char *)n20_uid(s, l);
            o.kind_case = N20__V1__ORDER__KIND_WING;
            o.wing = &wg;
            s_emit(&c, &o);
        }
        for (int u = 0; u < sc->nunits; u++) /* Wagram [3.0] Area B three Turns later */
            if (sc->units[u].alt_area && n20_wg_alt_check(s, u, NULL) == 0) {
                N20__V1__Contact al = N20__V1__CONTACT__INIT;
                al.unit = (char *)n20_uid(s, u);
                o.kind_case = N20__V1__ORDER__KIND_ALT_AREA;
                o.alt_area = &al;
                s_emit(&c, &o);
            }
        for (int a = 0; a < N20_ARMIES; a++)
            for (int k = -1; k < sc->ncards; k++) { /* -1: pay a Morale Point; k: a kept card [5.0] */
                unsigned card = k < 0 ? 0u : sc->cards[k].number;
                if (k >= 0 && !(s->kept[s->phasing] & (1u << k))) continue;
                if (n20_forced_march_check(s, a, card, NULL) != 0) continue;
                N20__V1__ForceMarch f = N20__V1__FORCE_MARCH__INIT;
                f.army = (char *)n20_army_name(a);
                f.card = card;
                o.kind_case = N20__V1__ORDER__KIND_FORCE_MARCH;
                o.force_march = &f;
                s_emit(&c, &o);
            }
        c.kind = N20__V1__ORDER__KIND_MOVE;
        s_legal_moves(&c);
        break;
    case N20_PH_GG_SETUP: /* [17.3] one order per side of the marker */
        for (int k = 0; k < 2 && s->gg_unit != 0xff; k++) {
            N20__V1__GoodGround g = N20__V1__GOOD_GROUND__INIT;
            g.unit = (char *)n20_uid(s, s->gg_unit);
            g.artillery_immune = k;
            o.kind_case = N20__V1__ORDER__KIND_GOOD_GROUND;
            o.good_ground = &g;
            s_emit(&c, &o);
        }
        break;
    case N20_PH_GOOD_GROUND:
        s_end(&c);
        for (int u = 0; u < sc->nunits; u++) {
            if (s->u[u].where != N20_U_MAP || n20_side_of(s, u) != N20_ALLIED) continue;
            if (sc->units[u].type == N20_LEADER) continue; /* R-16.9-good-ground */
            for (int k = 0; k < 2; k++) {
                N20__V1__GoodGround g = N20__V1__GOOD_GROUND__INIT;
                g.unit = (char *)n20_uid(s, u);
                g.artillery_immune = k;
                o.kind_case = N20__V1__ORDER__KIND_GOOD_GROUND;
                o.good_ground = &g;
                s_emit(&c, &o);
            }
        }
        break;
    case N20_PH_REACTION:
        s_end(&c);
        for (int u = 0; u < sc->nunits; u++) {
            if (!(s->u[u].flags & N20_UF_REACT_OK) || (s->u[u].flags & N20_UF_REACTED)) continue;
            s_legal_countercharges(&c, u, ord);
            c.kind = N20__V1__ORDER__KIND_DISENGAGE;
            n20_disengage_paths(s, u, s_path_cb, &c);
            c.kind = N20__V1__ORDER__KIND_PENETRATE; /* [16.2] */
            n20_penetrate_paths(s, u, s_path_cb, &c);
        }
        break;
    case N20_PH_CONTACT:
        s_end(&c);
        for (int u = 0; u < sc->nunits; u++)
            if (n20_contact_check(s, u, NULL) == 0) {
                N20__V1__Contact ct = N20__V1__CONTACT__INIT;
                ct.unit = (char *)n20_uid(s, u);
                o.kind_case = N20__V1__ORDER__KIND_CONTACT;
                o.contact = &ct;
                s_emit(&c, &o);
            }
        break;
    case N20_PH_DECLARE: s_legal_declare(&c); break;
    case N20_PH_BATTLES:
        for (int i = 0; i < s->nbattles; i++)
            for (int r = 0; r < 2; r++) {
                if (n20_resolve_check(s, i, r, NULL) < 0) continue;
                /* [9.5] uncapped, then every cap that can change the CRT column: from the
                 * leftmost column up to one short of the rightmost (R-9.5-cap) */
                for (int cap = sc->crt_lo - 1; cap < sc->crt_hi; cap++) {
                    N20__V1__Resolve rv = N20__V1__RESOLVE__INIT;
                    rv.battle = (uint32_t)i;
                    rv.reserve = r;
                    if (cap >= sc->crt_lo) {
                        rv.has_cap = 1;
                        rv.cap = cap;
                    }
                    o.kind_case = N20__V1__ORDER__KIND_RESOLVE;
                    o.resolve = &rv;
                    s_emit(&c, &o);
                }
                /* [9.0] the same battle, the reduction decided at Step F [9.5] (R-9.5-cap) */
                N20__V1__Resolve fv = N20__V1__RESOLVE__INIT;
                fv.battle = (uint32_t)i;
                fv.reserve = r;
                o.kind_case = N20__V1__ORDER__KIND_FIGHT;
                o.fight = &fv;
                s_emit(&c, &o);
            }
        break;
    case N20_PH_STEP_F: { /* [9.0] Step F [9.5]: "no reduction" first (the timeout default), then each
                           * lower column */
        int lo, hi;
        if (!n20_step_f_range(s, &lo, &hi)) break;
        for (int d = lo - 1; d < hi; d++) {
            N20__V1__StepF sf = N20__V1__STEP_F__INIT;
            if (d >= lo) {
                sf.reduce = 1;
                sf.differential = d;
            }
            o.kind_case = N20__V1__ORDER__KIND_STEP_F;
            o.step_f = &sf;
            s_emit(&c, &o);
        }
        break;
    }
    case N20_PH_DEF_RESERVE:
        for (int r = 0; r < 2; r++) {
            if (r && !n20_defender_may_reserve(s)) continue;
            N20__V1__Reserve rv = N20__V1__RESERVE__INIT;
            rv.commit = r;
            o.kind_case = N20__V1__ORDER__KIND_RESERVE;
            o.reserve = &rv;
            s_emit(&c, &o);
        }
        break;
    case N20_PH_EX_LOSSES: {
        const n20_battle *b = &s->b[s->f.battle];
        for (unsigned mask = 1; mask < (1u << b->natt); mask++) {
            int us[N20_MAX_SIDE], n = 0;
            char *ids[N20_MAX_SIDE];
            for (int k = 0; k < b->natt; k++)
                if (mask & (1u << k)) { us[n] = b->att[k]; ids[n] = (char *)n20_uid(s, b->att[k]); n++; }
            if (n20_losses_check(s, us, n, NULL) < 0) continue;
            N20__V1__Losses l = N20__V1__LOSSES__INIT;
            l.n_units = (size_t)n;
            l.units = ids;
            o.kind_case = N20__V1__ORDER__KIND_LOSSES;
            o.losses = &l;
            s_emit(&c, &o);
        }
        break;
    }
    case N20_PH_RETREAT: {
        int u = n20_retreat_current(s);
        c.kind = N20__V1__ORDER__KIND_RETREAT;
        n20_index ix; /* one index for every search of this decision (the state does not change) */
        if (u >= 0) n20_index_build(s, &ix);
        if (u >= 0 && !n20_retreat_stepped(s)) n20_retreat_paths_ix(s, u, s_path_cb, &c, 24, &ix);
        if (u >= 0) s_legal_retreat_steps(&c, u, &ix);
        break;
    }
    case N20_PH_ADVANCE:
        if (n20_advance_end_check(s, NULL) == 0) s_end(&c);
        c.kind = N20__V1__ORDER__KIND_ADVANCE;
        for (int u = 0; u < sc->nunits; u++) n20_advance_paths(s, u, s_path_cb, &c);
        break;
    case N20_PH_RALLY: {
        s_end(&c);
        int armies[N20_ARMIES], na = 0;
        for (int a = 0; a < N20_ARMIES; a++) {
            int side = a == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
            if (side == s->phasing && n20_has_broken(s, side, a)) armies[na++] = a;
        }
        for (unsigned mask = 0; mask < (1u << na); mask++) {
            int pick[N20_ARMIES], n = 0;
            char *names[N20_ARMIES];
            for (int k = 0; k < na; k++)
                if (mask & (1u << k)) { pick[n] = armies[k]; names[n] = (char *)n20_army_name(armies[k]); n++; }
            if (n20_rally_check(s, pick, n, NULL) < 0) continue;
            N20__V1__Rally r = N20__V1__RALLY__INIT;
            r.n_spend = (size_t)n;
            r.spend = names;
            o.kind_case = N20__V1__ORDER__KIND_RALLY;
            o.rally = &r;
            s_emit(&c, &o);
        }
        break;
    }
    case N20_PH_LEADER_RETREAT: { /* [16.9.3] one hex */
        int l = n20_leader_must_retreat(s);
        c.kind = N20__V1__ORDER__KIND_RETREAT;
        for (int d = 0; l >= 0 && d < 6; d++) {
            uint16_t to;
            if (n20_neighbor(sc, s->u[l].hex, d, &to) < 0) continue;
            if (n20_leader_retreat_check(s, l, &to, 1, NULL) == 0) s_path_cb(&c, l, &to, 1);
        }
        break;
    }
    case N20_PH_WING:
        s_end(&c);
        for (int l = 0; l < sc->nunits; l++) {
            if (n20_wing_check(s, l, NULL) < 0) continue;
            N20__V1__Wing wg = N20__V1__WING__INIT;
            wg.leader = (char *)n20_uid(s, l);
            o.kind_case = N20__V1__ORDER__KIND_WING;
            o.wing = &wg;
            s_emit(&c, &o);
        }
        break;
    case N20_PH_PLACE:
        s_end(&c);
        for (int u = 0; (s->opts & N20_OPT_UNIT_REDUCTION) && u < sc->nunits; u++) /* [16.5.1] */
            if (n20_reduce_check(s, u, NULL) == 0) {
                N20__V1__Reduce rd = N20__V1__REDUCE__INIT;
                rd.unit = (char *)n20_uid(s, u);
                o.kind_case = N20__V1__ORDER__KIND_REDUCE;
                o.reduce = &rd;
                s_emit(&c, &o);
            }
        for (int u = 0; u < sc->nunits; u++) {
            if (!(s->u[u].flags & N20_UF_RALLIED)) continue;
            int army = sc->units[u].army, nl;
            uint16_t lb[4];
            const uint16_t *ls = n20_ae_locs(s, army, &nl, lb); /* A-E [9.8.6] the site's LOC */
            for (int i = 0; i < nl; i++) {
                if (n20_place_check(s, u, ls[i], NULL) < 0) continue;
                s_emit_place(&c, u, ls[i]);
            }
            /* [16.4] Additional Rally Locations */
            for (uint16_t h = 0; (s->opts & N20_OPT_RALLY_LOCATIONS) && h < N20_HEXES; h++) {
                if (!sc->onmap[h] || n20_rally_hex_check(s, u, h, NULL) < 0) continue;
                s_emit_place(&c, u, h);
            }
            /* [16.9.8] with or next to the Leader named by a "Rallying on" event */
            int l = s->rally_on ? s->rally_on - 1 : -1;
            for (int k = -1; l >= 0 && s->u[l].where == N20_U_MAP && k < 6; k++) {
                uint16_t h = s->u[l].hex;
                if (k >= 0 && n20_neighbor(sc, s->u[l].hex, k, &h) < 0) continue;
                int loc = 0;
                for (int i = 0; i < nl; i++)
                    if (ls[i] == h) loc = 1;
                if (loc || n20_place_check(s, u, h, NULL) < 0) continue;
                if ((s->opts & N20_OPT_RALLY_LOCATIONS) && sc->onmap[h] && n20_rally_hex_check(s, u, h, NULL) == 0)
                    continue; /* listed above as a [16.4] Rally hex */
                s_emit_place(&c, u, h);
            }
        }
        break;
    case N20_PH_REBUILD: /* [17.1] SPECIAL RULE: every Cadre that may be eliminated, or end */
        s_end(&c);
        for (int u = 0; u < sc->nunits; u++)
            if (n20_rebuild_check(s, u, NULL) == 0) {
                N20__V1__Contact rb = N20__V1__CONTACT__INIT;
                rb.unit = (char *)n20_uid(s, u);
                o.kind_case = N20__V1__ORDER__KIND_REBUILD;
                o.rebuild = &rb;
                s_emit(&c, &o);
            }
        break;
    case N20_PH_SCHEDULE: /* [17.1.1] `end` schedules the rest on their [17.1] turns */
        s_end(&c);
        for (int u = 0; u < sc->nunits; u++)
            for (int t = sc->start_turn; t <= sc->last_turn; t++) {
                if (n20_schedule_check(s, u, t, NULL) < 0) continue;
                N20__V1__Schedule sd = N20__V1__SCHEDULE__INIT;
                sd.unit = (char *)n20_uid(s, u);
                sd.turn = (uint32_t)t;
                o.kind_case = N20__V1__ORDER__KIND_SCHEDULE;
                o.schedule = &sd;
                s_emit(&c, &o);
            }
        break;
    case N20_PH_ARRIVAL: /* [17.1.1] Forced March first, NAPOLEON's voluntary delay, `end` rolls */
        s_end(&c);
        for (int k = -1; k < sc->ncards; k++) {
            unsigned card = k < 0 ? 0u : sc->cards[k].number;
            if (k >= 0 && !(s->kept[N20_FRENCH] & (1u << k))) continue;
            if (n20_forced_march_check(s, N20_ARMY_FRENCH, card, NULL) != 0) continue;
            N20__V1__ForceMarch f = N20__V1__FORCE_MARCH__INIT;
            f.army = (char *)n20_army_name(N20_ARMY_FRENCH);
            f.card = card;
            o.kind_case = N20__V1__ORDER__KIND_FORCE_MARCH;
            o.force_march = &f;
            s_emit(&c, &o);
        }
        __attribute__((fallthrough)); /* the delays */
    case N20_PH_ARRIVAL_DELAY:
        for (int u = 0; u < sc->nunits; u++) {
            if (n20_delay_check(s, u, NULL) < 0) continue;
            N20__V1__Contact dl = N20__V1__CONTACT__INIT;
            dl.unit = (char *)n20_uid(s, u);
            o.kind_case = N20__V1__ORDER__KIND_DELAY;
            o.delay = &dl;
            s_emit(&c, &o);
        }
        break;
    case N20_PH_AE_SITE: /* A-E [3.0] every crossing site */
        for (int k = 0; k < sc->dn.nsites; k++) {
            N20__V1__Site st = N20__V1__SITE__INIT;
            st.name = (char *)sc->dn.site[k].name;
            o.kind_case = N20__V1__ORDER__KIND_SITE;
            o.site = &st;
            s_emit(&c, &o);
        }
        break;
    case N20_PH_DUMMIES: { /* [16.1.3] the first available Dummy of each army, every hex */
        s_end(&c);
        int armies_done = 0;
        for (int u = 0; u < sc->nunits; u++) {
            if (sc->units[u].type != N20_DUMMY || n20_side_of(s, u) != s->phasing || s->u[u].where != N20_U_OUT)
                continue;
            if (armies_done & (1 << sc->units[u].army)) continue;
            armies_done |= 1 << sc->units[u].army;
            for (uint16_t h = 0; h < N20_HEXES; h++) {
                if (!sc->onmap[h] || n20_dummy_place_check(s, u, h, NULL) < 0) continue;
                s_emit_place(&c, u, h);
            }
        }
        break;
    }
    case N20_PH_WG_DEPLOY: /* Wagram [3.0] every deployable unit in every free hex of its zone */
        for (int u = 0; u < sc->nunits; u++) {
            if (!n20_wg_deploy_unit(s, u) || s->u[u].where != N20_U_OUT) continue;
            for (uint16_t h = 0; h < N20_HEXES; h++) {
                if (!sc->onmap[h] || n20_wg_deploy_check(s, u, h, NULL) < 0) continue;
                N20__V1__Place pl = N20__V1__PLACE__INIT;
                pl.unit = (char *)n20_uid(s, u);
                pl.hex = n20_xxyy(h);
                o.kind_case = N20__V1__ORDER__KIND_DEPLOY;
                o.deploy = &pl;
                s_emit(&c, &o);
            }
        }
        break;
    default: break;
    }
    if (n20_fog(s) && (c.count > 0 || s->phase == N20_PH_MOVE)) {
        /* [16.1.1] the seat may reveal any of its hidden units on the map at any of its decisions; in a
         * Movement Phase whose stack cannot be undone (a Dummy stacked where no piece may move, as
         * after a [16.6.1] breakdown in an enemy ZOC) revealing the Dummy, which removes it, is the
         * way out (rulings R-16.6.1-dummy) */
        for (int u = 0; u < sc->nunits; u++) {
            if (n20_reveal_check(s, seat, u, NULL) < 0 || n20_stepping(s)) continue;
            N20__V1__Contact rv = N20__V1__CONTACT__INIT;
            rv.unit = (char *)n20_uid(s, u);
            o.kind_case = N20__V1__ORDER__KIND_REVEAL;
            o.reveal = &rv;
            s_emit(&c, &o);
        }
        /* [16.1] in byte order, so that no order follows hidden identities; an `end` stays first
         * (the timeout default) */
        size_t from = start, pos = start;
        const uint8_t *it;
        size_t len;
        if (buf_next_item(out, &pos, &it, &len) == 1 && s_is_end(it, len)) from = pos;
        n20_fog_sort_items(out, from);
    }
    return c.count;
}
