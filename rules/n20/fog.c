/*
 * fog.c - Fog of War [16.1] (optional rule `fog-of-war`): hidden (face-down)
 * units, what each seat may see of them, the reveal triggers of [16.1.1] and
 * the reconcealment of [16.1.2]. A hidden enemy unit is shown to a seat only
 * as "a unit" with the anonymous handle @XXYY (its hex): never its id, army,
 * type or strength. The owner and the log (BRT_VIEW_ALL) always see everything;
 * spectators (BRT_VIEW_PUBLIC) see no face-down unit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n20.h"

int n20_fog(const n20_state *s) { return (s->opts & N20_OPT_FOG) != 0; }

int n20_fog_hidden_from(const n20_state *s, int u, int seat) {
    /* a record of a unit not in this game ([17.4] "if"/"unless") hides nothing: its id may be that of
     * the record in the game (LOBAU) */
    if (seat == BRT_VIEW_ALL || !n20_unit_in_game(s, u)) return 0;
    /* BRT_VIEW_PUBLIC (spectators) sees what both seats see: a unit hidden from either is hidden */
    int other = seat == BRT_VIEW_PUBLIC || n20_side_of(s, u) != seat;
    /* [17.1.1] a unit on the French player's secret schedule, until it arrives */
    if ((s->u[u].flags & N20_UF_SCHEDULED) && other) return 1;
    if (!n20_fog(s) || !s->u[u].hidden) return 0;
    return other;
}

const char *n20_uid_seat(const n20_state *s, int u, int seat, char buf[N20_NAME]) {
    if (!n20_fog_hidden_from(s, u, seat)) return n20_uid(s, u);
    if (s->u[u].where == N20_U_MAP) snprintf(buf, N20_NAME, "@%04u", n20_xxyy(s->u[u].hex));
    else snprintf(buf, N20_NAME, "@0000");
    return buf;
}

int n20_fog_resolve(const n20_state *s, int seat, const char *name) {
    if (name && name[0] == '@') {
        unsigned v = 0;
        int k = 1;
        for (; name[k] >= '0' && name[k] <= '9' && k < 6; k++) v = v * 10 + (unsigned)(name[k] - '0');
        if (k != 5 || name[k] || v % 100 < 1 || v % 100 > 31 || v / 100 < 1 || v / 100 > 31) return -1;
        return n20_unit_at(s, n20_hex(v));
    }
    int u = n20_unit_find(s, name);
    if (u >= 0 && n20_fog_hidden_from(s, u, seat)) return -1; /* [16.1] not known to this seat */
    return u;
}

void n20_fog_reveal(n20_state *s, int u, n20_out *out, const char *why) {
    if (!n20_fog(s) || !s->u[u].hidden) return;
    const n20_unit_def *d = &s->sc->units[u];
    static const char *tn[] = {"infantry", "cavalry", "artillery", "leader"};
    s->u[u].hidden = 0;
    int us[1] = {u};
    uint16_t h = s->u[u].hex;
    int v[2] = {d->strength, d->allowance};
    if (d->type == N20_DUMMY) {
        /* [16.1.3] "The instant you reveal your Dummy unit, it is removed from the map (with no Morale
         * loss)": back to the pool, hidden, free to re-enter */
        n20_event(out, s, "revealed", us, 1, &h, s->u[u].where == N20_U_MAP, NULL, 0,
                  "[%s] " N20_U(0) " is a Dummy, revealed at %04u and removed [16.1.3]", why,
                  s->u[u].where == N20_U_MAP ? n20_xxyy(h) : 0);
        if (s->gg_unit == u) s->gg_unit = 0xff;
        s->u[u].where = N20_U_OUT;
        s->u[u].hex = 0;
        s->u[u].flags = 0;
        s->u[u].routed = 0;
        s->u[u].hidden = 1;
        return;
    }
    n20_event(out, s, "revealed", us, 1, &h, s->u[u].where == N20_U_MAP, v, 2,
              "[%s] " N20_U(0) " (%s %s %u-%u) is revealed at %04u", why, n20_army_name(d->army),
              d->type < 4 ? tn[d->type] : "?", d->strength, d->allowance,
              s->u[u].where == N20_U_MAP ? n20_xxyy(h) : 0);
}

/* [16.1.1] end of a non-Night Movement Phase: face-up Cavalry adjacent to a hex with
 * face-down enemy units reveals them (rulings.md R-16.1.1-scouting: both sides' cavalry). */
void n20_fog_scout(n20_state *s, n20_out *out) {
    if (!n20_fog(s) || n20_is_night(s)) return;
    const n20_scenario *sc = s->sc;
    uint8_t rev[N20_MAX_UNITS];
    memset(rev, 0, sizeof rev);
    for (int c = 0; c < sc->nunits; c++) {
        if (s->u[c].where != N20_U_MAP || s->u[c].hidden || sc->units[c].type != N20_CAV) continue;
        for (int e = 0; e < sc->nunits; e++)
            if (s->u[e].where == N20_U_MAP && s->u[e].hidden && n20_side_of(s, e) != n20_side_of(s, c) &&
                n20_dir(sc, s->u[c].hex, s->u[e].hex) >= 0)
                rev[e] = 1;
    }
    /* in hex order, so that the order of the events tells nothing */
    for (int row = 0; row < N20_HEXES; row++)
        for (int e = 0; e < sc->nunits; e++)
            if (rev[e] && s->u[e].hex == row) n20_fog_reveal(s, e, out, "16.1.1 cavalry scouting");
}

/* [16.1.2] end of the owner's Night Turn: every face-up unit on the map is turned face-down. */
void n20_fog_reconceal(n20_state *s, int side, n20_out *out) {
    if (!n20_fog(s)) return;
    int n = 0;
    for (int u = 0; u < s->sc->nunits; u++)
        if (n20_side_of(s, u) == side && s->u[u].where == N20_U_MAP && !s->u[u].hidden) {
            s->u[u].hidden = 1;
            n++;
        }
    int v[1] = {n};
    n20_event(out, s, "reconcealed", NULL, 0, NULL, 0, v, 1, "[16.1.2] the %s units are reconcealed (%d turned face-down)",
              n20_side_name(side), n);
}

void n20_fog_order(const n20_state *s, int *ord) {
    int n = 0, nu = s->sc->nunits;
    if (!n20_fog(s)) {
        for (int i = 0; i < nu; i++) ord[i] = i;
        return;
    }
    for (int h = 0; h < N20_HEXES; h++)
        for (int i = 0; i < nu; i++)
            if (s->u[i].where == N20_U_MAP && s->u[i].hex == h) ord[n++] = i;
    for (int i = 0; i < nu; i++)
        if (s->u[i].where != N20_U_MAP) ord[n++] = i;
}

typedef struct s_item {
    const uint8_t *p;
    size_t len;
} s_item;

static int s_item_cmp(const s_item *x, const s_item *y) {
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, m);
    if (c) return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* heapsort: in place, nothing allocated; items that compare equal are the same bytes, so the
 * sorted list is the one any sort gives */
static void s_sift(s_item *v, size_t i, size_t n) {
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && s_item_cmp(&v[c], &v[c + 1]) < 0) c++;
        if (s_item_cmp(&v[i], &v[c]) >= 0) return;
        s_item t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void s_items_sort(s_item *v, size_t n) {
    for (size_t i = n / 2; i-- > 0;) s_sift(v, i, n);
    for (size_t k = n; k-- > 1;) {
        s_item t = v[0];
        v[0] = v[k];
        v[k] = t;
        s_sift(v, 0, k);
    }
}

/* The scratch (a copy of the list and the item table) lives in out's spare capacity, past its
 * length: nothing is allocated once the buffer has grown to the size of the lists it holds. */
void n20_fog_sort_items(brt_buf *out, size_t start) {
    if (!out || out->len <= start) return;
    size_t n = 0, pos = start;
    const uint8_t *it;
    size_t len;
    while (buf_next_item(out, &pos, &it, &len) == 1) n++;
    if (n < 2) return;
    size_t L = out->len - start, al = _Alignof(s_item);
    size_t off = (L + al - 1) / al * al; /* the table after the copy, aligned from out->len */
    if (buf_reserve(out, off + n * sizeof(s_item) + al) != 0) return;
    uint8_t *copy = out->data + out->len;
    uintptr_t t0 = (uintptr_t)(copy + off);
    s_item *items = (s_item *)(void *)(t0 + (al - t0 % al) % al);
    memcpy(copy, out->data + start, L);
    brt_buf tmp = {.data = copy, .len = L, .cap = L};
    pos = 0;
    n = 0;
    while (buf_next_item(&tmp, &pos, &it, &len) == 1) items[n++] = (s_item){it, len};
    s_items_sort(items, n);
    out->len = start; /* rewritten in order from the copy, which lies past what is written */
    for (size_t i = 0; i < n; i++) buf_append_item(out, items[i].p, items[i].len);
}

int n20_reveal_check(const n20_state *s, unsigned seat, int u, brt_reject *err) {
    if (!n20_fog(s)) return n20_reject(err, "16.1", "units are hidden only with the fog-of-war option");
    if (u < 0 || u >= s->sc->nunits || n20_side_of(s, u) != (int)seat)
        return n20_reject(err, "16.1.1", "you reveal only your own units");
    if (s->u[u].where != N20_U_MAP || !s->u[u].hidden)
        return n20_reject(err, "16.1.1", "%s is not a hidden unit on the map", N20_RUID(s, u));
    return 0;
}

int n20_nunits_encoded(const n20_state *s) {
    int n = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_fog(s) || s->sc->units[i].type != N20_DUMMY) n++;
    return n;
}

/* ---- [16.1.3] Dummy units ------------------------------------------------------ */

/* a hex where a friendly Reinforcement entered the map in this Movement Phase, or where a friendly
 * unit Rallied this player turn was placed (rulings.md R-16.1.3-arrival) */
int n20_dummy_entry_hex(const n20_state *s, uint16_t h) {
    for (int i = 0; i < s->entered_hex_n; i++)
        if (s->entered_hex[i] == h && s->entered_cnt[i] > 0) return 1;
    int o = n20_unit_at(s, h);
    return o >= 0 && n20_side_of(s, o) == s->phasing && (s->u[o].flags & N20_UF_PLACED);
}

/* "You may add to the map one hidden friendly Dummy unit per turn, if available, with the arrival of
 * ... new Reinforcement units": it enters where one of them entered this phase */
int n20_dummy_may_enter(const n20_state *s, int u, brt_reject *err) {
    const n20_unit_def *d = &s->sc->units[u];
    if (!n20_fog(s) || d->type != N20_DUMMY || s->u[u].where != N20_U_OUT)
        return n20_reject(err, "6.0", "%s is not on the map", N20_RUID(s, u));
    for (int i = 0; i < s->sc->nunits; i++)
        if (n20_side_of(s, i) == d->side && (s->u[i].flags & N20_UF_DUMMY_IN))
            return n20_reject(err, "16.1.3", "one Dummy unit per turn arrives with the Reinforcements");
    int placed = 0;
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP && n20_side_of(s, i) == d->side && (s->u[i].flags & N20_UF_PLACED)) placed = 1;
    if (s->entered_hex_n == 0 && !placed)
        return n20_reject(err, "16.1.3", "a Dummy unit arrives only with newly arrived Reinforcements or Rallied units");
    return 0;
}

static int s_enemy_adjacent(const n20_state *s, int side, uint16_t h) {
    for (int i = 0; i < s->sc->nunits; i++)
        if (s->u[i].where == N20_U_MAP && n20_side_of(s, i) != side && n20_dir(s->sc, h, s->u[i].hex) >= 0)
            return 1;
    return 0;
}

/* "Place them in hexes containing a friendly unit that is not adjacent to an enemy unit and then
 * immediately relocate one of those two stacked units ... to an adjacent hex that is also not
 * adjacent to an enemy unit" (rulings.md R-16.1.3-placement: the Dummy is the one relocated) */
static int s_place_ok(const n20_state *s, int u, uint16_t hex, brt_reject *err);

int n20_dummy_place_check(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    if (s->phase != N20_PH_DUMMIES) return n20_reject(err, "16.1.3", "Dummy units are placed at reconcealment");
    return s_place_ok(s, u, hex, err);
}

static int s_place_ok(const n20_state *s, int u, uint16_t hex, brt_reject *err) {
    const n20_scenario *sc = s->sc;
    if (u < 0 || u >= sc->nunits || sc->units[u].type != N20_DUMMY || n20_side_of(s, u) != s->phasing)
        return n20_reject(err, "16.1.3", "only your own Dummy units are placed now");
    if (s->u[u].where != N20_U_OUT) return n20_reject(err, "16.1.3", "%s is already on the map", N20_RUID(s, u));
    if (hex >= N20_HEXES || !sc->onmap[hex]) return n20_reject(err, "16.1.3", "%04u is not a map hex", n20_xxyy(hex));
    if (n20_unit_at(s, hex) >= 0) return n20_reject(err, "6.9", "%04u is occupied", n20_xxyy(hex));
    if (s_enemy_adjacent(s, s->phasing, hex))
        return n20_reject(err, "16.1.3", "%04u is adjacent to an enemy unit", n20_xxyy(hex));
    for (int d = 0; d < 6; d++) {
        uint16_t f;
        if (n20_neighbor(sc, hex, d, &f) < 0) continue;
        int o = n20_unit_at(s, f);
        if (o >= 0 && n20_side_of(s, o) == s->phasing && !s_enemy_adjacent(s, s->phasing, f)) return 0;
    }
    return n20_reject(err, "16.1.3", "%04u is not next to a friendly unit that is not adjacent to an enemy unit",
                      n20_xxyy(hex));
}

void n20_dummy_place_apply(n20_state *s, int u, uint16_t hex, n20_out *out) {
    s->u[u].where = N20_U_MAP;
    s->u[u].hex = hex;
    s->u[u].hidden = 1;
    s->u[u].flags = N20_UF_MOVED;
    s->u[u].routed = 0;
    int us[1] = {u};
    n20_event(out, s, "placed", us, 1, &hex, 1, NULL, 0, "[16.1.3] " N20_U(0) " is placed at %04u",
              n20_xxyy(hex));
}

/* 1 if the side has a Dummy off the map and a hex to place it */
int n20_dummy_any_placement(const n20_state *s, int side) {
    if (!n20_fog(s)) return 0;
    for (int u = 0; u < s->sc->nunits; u++) {
        if (s->sc->units[u].type != N20_DUMMY || n20_side_of(s, u) != side || s->u[u].where != N20_U_OUT) continue;
        for (uint16_t h = 0; h < N20_HEXES; h++)
            if (s->sc->onmap[h] && s_place_ok(s, u, h, NULL) == 0) return 1;
        return 0; /* every Dummy of the side has the same places */
    }
    return 0;
}

static void s_remove_dummies(n20_state *s, uint8_t *units, uint8_t *n) {
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (s->u[units[i]].where == N20_U_MAP) units[k++] = units[i];
    *n = (uint8_t)k;
}

void n20_fog_prune_battles(n20_state *s, n20_out *out) {
    if (!n20_fog(s)) return;
    for (int i = 0; i < s->nbattles; i++) {
        n20_battle *b = &s->b[i];
        if (b->done) continue;
        s_remove_dummies(s, b->att, &b->natt);
        s_remove_dummies(s, b->def, &b->ndef);
        if (b->natt && b->ndef) continue;
        b->done = 1;
        int v[1] = {i};
        n20_event(out, s, "no-combat", NULL, 0, NULL, 0, v, 1,
                  "[16.1.3] battle %d: only Dummy units were revealed on one side; no combat, no advance", i + 1);
    }
}
