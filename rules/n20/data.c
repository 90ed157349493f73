/*
 * data.c - the scenario data format (docs/n20-data.md) and its parser.
 *
 * One record per line: words separated by blanks, then "|" and the value's
 * provenance ("RULEBOOK <rule>" or "RECONSTRUCTED <reason>"). Every record
 * must carry one. The parser works on the embedded bytes, never on a file.
 */
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "n20.h"

#define MAXW 24

typedef struct s_line {
    char buf[512];
    char *w[MAXW];
    int n;
    char title[64]; /* quoted text, if any */
    const char *prov; /* the provenance text after "|" */
} s_line;

static int s_num(const char *w, int *out) {
    int sign = 1, v = 0, any = 0;
    if (*w == '-') { sign = -1; w++; } else if (*w == '+') w++;
    for (; *w; w++) {
        if (*w < '0' || *w > '9') return -1;
        v = v * 10 + (*w - '0');
        if (v > 100000) return -1;
        any = 1;
    }
    if (!any) return -1;
    *out = sign * v;
    return 0;
}

static int s_hexw(const n20_scenario *sc, const char *w, uint16_t *out) {
    int v;
    if (strlen(w) != 4 || s_num(w, &v) < 0) return -1;
    int row = v / 100, col = v % 100;
    if (row < 1 || col < 1 || row > sc->rows || col > sc->cols) return -1;
    *out = n20_hex((unsigned)v);
    return 0;
}

static int s_terrain(const char *w) {
    static const char *names[] = {"clear", "town", "fortified", "forest", "rough", "marsh", "redoubt"};
    for (int i = 0; i < N20_T_COUNT; i++)
        if (strcmp(w, names[i]) == 0) return i;
    return -1;
}

static int s_weather(const char *w) {
    static const char *names[] = {"clear", "cloudy", "showers", "downpour", "storm", "mud"};
    for (int i = 0; i < 6; i++)
        if (strcmp(w, names[i]) == 0) return i;
    return -1;
}

static int s_result(const char *w) {
    static const char *names[] = {"AB", "AR", "AW", "N", "DW", "DR", "DB", "EX"};
    for (int i = 0; i < 8; i++)
        if (strcmp(w, names[i]) == 0) return i;
    return -1;
}

static int s_effect(const char *w) {
    static const char *names[] = {"none",       "morale-self", "morale-enemy", "rally",
                                  "move-mod",   "good-ground", "frederick",    "reshuffle",
                                  "forced-march-free", "pontoon-damage"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(w, names[i]) == 0) return i;
    return -1;
}

static int s_side(const char *w) {
    if (strcmp(w, "french") == 0) return N20_FRENCH;
    if (strcmp(w, "allied") == 0) return N20_ALLIED;
    return -1;
}

/* split one line; returns 0 for a record, 1 for blank/comment, -1 on error */
static int s_split(const char *p, size_t len, s_line *L, int *prov_rulebook) {
    if (len >= sizeof L->buf) return -1;
    memcpy(L->buf, p, len);
    L->buf[len] = 0;
    L->n = 0;
    L->title[0] = 0;
    char *c = L->buf;
    while (*c == ' ' || *c == '\t') c++;
    if (*c == 0 || *c == '#') return 1;
    char *bar = strchr(c, '|');
    if (!bar) return -1;
    *bar = 0;
    char *prov = bar + 1;
    while (*prov == ' ') prov++;
    if (strncmp(prov, "RULEBOOK", 8) == 0) *prov_rulebook = 1;
    else if (strncmp(prov, "RECONSTRUCTED", 13) == 0) *prov_rulebook = 0;
    else return -1;
    L->prov = prov;
    /* a quoted title */
    char *q = strchr(c, '"');
    if (q) {
        char *e = strchr(q + 1, '"');
        if (!e || (size_t)(e - q - 1) >= sizeof L->title) return -1;
        memcpy(L->title, q + 1, (size_t)(e - q - 1));
        L->title[e - q - 1] = 0;
        memset(q, ' ', (size_t)(e - q + 1));
    }
    while (*c && L->n < MAXW) {
        while (*c == ' ' || *c == '\t') c++;
        if (!*c) break;
        L->w[L->n++] = c;
        while (*c && *c != ' ' && *c != '\t') c++;
        if (*c) *c++ = 0;
    }
    while (*c == ' ' || *c == '\t') c++;
    if (*c) return -1; /* more than MAXW words: refused, never cut short */
    return L->n ? 0 : -1;
}

/* the index of a provenance text in sc->prov (added if new), -1 if it is too long or the store is full */
static int s_prov_index(n20_scenario *sc, const char *prov) {
    size_t l = strlen(prov);
    while (l && (prov[l - 1] == ' ' || prov[l - 1] == '\t' || prov[l - 1] == '\r')) l--;
    if (l >= N20_PROV_TEXT) return -1;
    for (int i = 0; i < sc->nprov; i++)
        if (strncmp(sc->prov[i], prov, l) == 0 && sc->prov[i][l] == 0) return i;
    if (sc->nprov >= N20_MAX_PROV) return -1;
    memcpy(sc->prov[sc->nprov], prov, l);
    sc->prov[sc->nprov][l] = 0;
    return sc->nprov++;
}

const char *n20_hex_provenance(const n20_scenario *sc, uint16_t h, int *rulebook) {
    const char *p = h < N20_HEXES && sc->hex_prov[h] ? sc->prov[sc->hex_prov[h] - 1]
                                                      : "RECONSTRUCTED default terrain";
    if (rulebook) *rulebook = strncmp(p, "RULEBOOK", 8) == 0;
    return p;
}

static int s_side_set(n20_scenario *sc, uint16_t a, uint16_t b, int kind, int val) {
    int d = n20_dir(sc, a, b), e = n20_dir(sc, b, a);
    if (d < 0 || e < 0) return -1;
    uint8_t (*arr)[6] = kind == 0 ? sc->road : kind == 1 ? sc->river : sc->cross;
    arr[a][d] = (uint8_t)val;
    arr[b][e] = (uint8_t)val;
    return 0;
}

/* option names separated by commas -> bits; -1 if one is unknown */
static int s_optlist(const char *w, uint32_t *bits) {
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s", w);
    *bits = 0;
    for (char *p = tmp, *e; p && *p; p = e) {
        e = strchr(p, ',');
        if (e) *e++ = 0;
        uint32_t b = n20_option_bit(p);
        if (!b) return -1;
        *bits |= b;
    }
    return *bits ? 0 : -1;
}

/* ---- Danube 20 records (docs/n20-data.md "Danube 20"): sc->dn ---------------------------------- */

static int s_zone_bit(const char *w) {
    if (strcmp(w, "lobau") == 0) return N20_Z_LOBAU;     /* Wagram [6.10.2] [12.8] */
    if (strcmp(w, "heights") == 0) return N20_Z_HEIGHTS; /* Wagram [3.0] */
    return -1;
}

/* a die face 1..6 -> index 0..5 */
static int s_die(const char *w, int *out) {
    int v;
    if (s_num(w, &v) || v < 1 || v > 6) return -1;
    *out = v - 1;
    return 0;
}

/* one Danube 20 record: 0 parsed, -1 malformed, 1 not a Danube 20 record */
static int s_dn_record(n20_scenario *sc, s_line *L) {
    n20_dn_scenario *dn = &sc->dn;
    const char *k = L->w[0];
    int v, v2;
    uint16_t h, h2;
    if (strcmp(k, "map-turn") == 0 && L->n == 2) { /* the picture turned clockwise (render.c) */
        if (s_num(L->w[1], &v) || v < 0 || v > 270 || v % 90) return -1;
        dn->map_turn = (uint8_t)(v / 90);
    } else if (strcmp(k, "zone") == 0 && L->n >= 3) { /* zone NAME HEX... */
        int b = s_zone_bit(L->w[1]);
        if (b < 0) return -1;
        for (int i = 2; i < L->n; i++) {
            if (s_hexw(sc, L->w[i], &h)) return -1;
            dn->zone[h] |= (uint8_t)b;
        }
    } else if (strcmp(k, "site") == 0 && L->n == 7) {
        /* A-E [3.0] site NAME NORTH SOUTH|box AREA OBJECTIVE LOC; "box": the Fischamend Holding Box [6.11] */
        if (dn->nsites >= N20_DN_SITES || strlen(L->w[1]) >= sizeof dn->site[0].name || strlen(L->w[4]) != 1)
            return -1;
        n20_dn_site *t = &dn->site[dn->nsites];
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "%s", L->w[1]);
        if (s_hexw(sc, L->w[2], &t->north) || s_hexw(sc, L->w[5], &t->obj) || s_hexw(sc, L->w[6], &t->loc))
            return -1;
        if (strcmp(L->w[3], "box") == 0) {
            t->fischamend = 1;
            dn->fisch_hex = t->north;
            dn->fisch_area = L->w[4][0];
            dn->fisch_loc = t->loc;
        } else if (s_hexw(sc, L->w[3], &t->south) || n20_dir(sc, t->north, t->south) < 0) {
            return -1; /* the two banks of a crossing are adjacent */
        }
        t->area = L->w[4][0];
        dn->nsites++;
    } else if (strcmp(k, "pontoon-cross") == 0 && L->n == 3) { /* [6.10] */
        if (s_die(L->w[1], &v)) return -1;
        v2 = strcmp(L->w[2], "pass") == 0            ? N20_PC_PASS
             : strcmp(L->w[2], "pass-damaged") == 0 ? N20_PC_PASS_DAMAGED
             : strcmp(L->w[2], "fail-damaged") == 0 ? N20_PC_FAIL_DAMAGED : -1;
        if (v2 < 0) return -1;
        dn->pontoon_cross[v] = (uint8_t)v2;
    } else if (strcmp(k, "pontoon-repair") == 0 && L->n == 3) { /* [4.1] */
        if (s_die(L->w[1], &v)) return -1;
        if (strcmp(L->w[2], "repaired") == 0) dn->pontoon_repair[v] = 1;
        else if (strcmp(L->w[2], "damaged") == 0) dn->pontoon_repair[v] = 0;
        else return -1;
    } else if (strcmp(k, "pontoon-destroy") == 0 && L->n == 3) { /* [6.10.2] */
        if (s_die(L->w[1], &v)) return -1;
        if (strcmp(L->w[2], "destroyed") == 0) dn->pontoon_destroy[v] = 1;
        else if (strcmp(L->w[2], "damaged") == 0) dn->pontoon_destroy[v] = 0;
        else return -1;
    } else if (strcmp(k, "catastrophe") == 0 && L->n == 2) { /* A-E [9.10.1] */
        if (s_num(L->w[1], &v) || v < -10 || v > 0) return -1;
        dn->catastrophe = (int8_t)v;
    } else if (strcmp(k, "home") == 0 && L->n == 2) { /* A-E [14.1], Wagram [14.0] a yellow star */
        if (dn->nhome >= sizeof dn->home / sizeof dn->home[0] || s_hexw(sc, L->w[1], &h)) return -1;
        dn->home[dn->nhome++] = h;
    } else if (strcmp(k, "home-ground") == 0 && L->n == 3) { /* none-french-controlled|austrian-occupies N */
        if (strcmp(L->w[1], "none-french-controlled") == 0) dn->home_mode = 0;
        else if (strcmp(L->w[1], "austrian-occupies") == 0) dn->home_mode = 1;
        else return -1;
        if (s_num(L->w[2], &v) || v < 0 || v > 10) return -1;
        dn->home_bonus = (int8_t)v;
    } else if (strcmp(k, "incomplete-bridge") == 0 && L->n == 3) { /* Wagram [6.10.1] */
        if (dn->nincomplete >= sizeof dn->incomplete / sizeof dn->incomplete[0] || s_hexw(sc, L->w[1], &h) ||
            s_hexw(sc, L->w[2], &h2) || n20_dir(sc, h, h2) < 0)
            return -1;
        dn->incomplete[dn->nincomplete].a = h;
        dn->incomplete[dn->nincomplete++].b = h2;
    } else if (strcmp(k, "secure") == 0 && L->n == 2) { /* Wagram [6.10.1] */
        if (dn->nsecure >= sizeof dn->secure / sizeof dn->secure[0] || s_hexw(sc, L->w[1], &h)) return -1;
        dn->secure[dn->nsecure++] = h;
    } else if (strcmp(k, "crossings-secured") == 0 && L->n == 1) { /* Marchfeld [18.0] #3 */
        dn->secured0 = 1;
    } else if (strcmp(k, "confusion") == 0 && L->n == 3) { /* Wagram [6.10.2] die -> units */
        if (s_die(L->w[1], &v) || s_num(L->w[2], &v2) || v2 < 0 || v2 > 99) return -1;
        dn->cc[v] = (uint8_t)v2;
    } else if (strcmp(k, "turn1-move-only") == 0 && L->n == 1) { /* Wagram [4.1] */
        dn->turn1_move_only = 1;
    } else if (strcmp(k, "caution-turn") == 0 && L->n == 2) { /* Wagram [6.11] */
        if (s_num(L->w[1], &v) || v < 0 || v >= N20_MAX_TURNS) return -1;
        dn->caution_turn = (uint8_t)v;
    } else if (strcmp(k, "lull-turn") == 0 && L->n == 2) { /* Wagram [13.0] */
        if (s_num(L->w[1], &v) || v < 0 || v >= N20_MAX_TURNS) return -1;
        dn->lull_turn = (uint8_t)v;
    } else if (strcmp(k, "lobau-morale") == 0 && L->n == 2) { /* Wagram [12.8] */
        if (s_num(L->w[1], &v) || v < -10 || v > 0) return -1;
        dn->lobau_morale = (int8_t)v;
    } else if (strcmp(k, "floridsdorf") == 0 && L->n == 4) { /* Wagram [16.10] NORTH SOUTH LOC */
        if (s_hexw(sc, L->w[1], &dn->flor_a) || s_hexw(sc, L->w[2], &dn->flor_b) ||
            s_hexw(sc, L->w[3], &dn->flor_loc) || n20_dir(sc, dn->flor_a, dn->flor_b) < 0)
            return -1;
    } else if (strcmp(k, "end-after") == 0 && L->n == 4) { /* Marchfeld [18.0] #5 TURN SIDE combat */
        if (s_num(L->w[1], &v) || v < 1 || v >= N20_MAX_TURNS || (v2 = s_side(L->w[2])) < 0) return -1;
        if (strcmp(L->w[3], "combat") != 0) return -1;
        dn->end_turn = (uint8_t)v;
        dn->end_side = (uint8_t)v2;
        dn->end_phase = N20_PH_COMBAT_END;
    } else if (strcmp(k, "linz-table") == 0 && L->n == 3) { /* A-E [17.2] */
        if (s_die(L->w[1], &v)) return -1;
        v2 = strcmp(L->w[2], "removed") == 0     ? N20_LZ_REMOVED
             : strcmp(L->w[2], "delayed") == 0   ? N20_LZ_DELAYED
             : strcmp(L->w[2], "next-turn") == 0 ? N20_LZ_NEXT_TURN
             : strcmp(L->w[2], "arrives") == 0   ? N20_LZ_ARRIVES : -1;
        if (v2 < 0) return -1;
        dn->linz[v] = (uint8_t)v2;
    } else {
        return 1;
    }
    return 0;
}

/* the Danube 20 words after a unit's placement (before any if/unless): `alt AREA DELAY`,
 * `arrive-morale N`, `group N`, `linz`; strips them from L */
static int s_dn_unit_suffix(n20_unit_def *d, s_line *L) {
    int v;
    for (;;) {
        if (L->n >= 10 && strcmp(L->w[L->n - 1], "linz") == 0) { /* A-E [17.2] */
            d->linz = 1;
            L->n -= 1;
        } else if (L->n >= 12 && strcmp(L->w[L->n - 3], "alt") == 0) { /* Wagram [3.0] */
            if (strlen(L->w[L->n - 2]) != 1 || s_num(L->w[L->n - 1], &v) || v < 1 || v > 9) return -1;
            d->alt_area = L->w[L->n - 2][0];
            d->alt_delay = (uint8_t)v;
            L->n -= 3;
        } else if (L->n >= 11 && strcmp(L->w[L->n - 2], "arrive-morale") == 0) { /* Wagram [12.7] */
            if (s_num(L->w[L->n - 1], &v) || v < -5 || v > 5) return -1;
            d->arrive_morale = (int8_t)v;
            L->n -= 2;
        } else if (L->n >= 11 && strcmp(L->w[L->n - 2], "group") == 0) { /* Wagram [3.0] "together" */
            if (s_num(L->w[L->n - 1], &v) || v < 1 || v > 99) return -1;
            d->roll_group = (uint8_t)v;
            L->n -= 2;
        } else {
            return 0;
        }
    }
}

/* records of a scenario's own set-up, skipped when its file is read as a map-only base */
static int s_setup_record(const char *k) {
    static const char *keys[] = {"scenario", "first-player", "start-turn", "last-turn", "morale",
                                 "skip-first-event", "unit", "good-ground", "pool", "option", "option-required",
                                 "detached", "option-unsupported", "rally-on", "sambre-not-before",
                                 "option-morale", "card-pile", "historical-deck",
                                 "historical-reshuffle", "victory", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(k, keys[i]) == 0) return 1;
    return 0;
}

/* Danube 20: the records of a v3 scenario that belong to its battle, not to the shared map (one
 * map serves Aspern-Essling 20 and Wagram 20, docs/n20-data.md): skipped by `base ... map`.
 * (A file's own `card` records replace its base's deck: see "card" in s_record.) */
static int s_dn_setup_record(const char *k) {
    static const char *keys[] = {"objective", "site", "pontoon-cross", "pontoon-repair", "pontoon-destroy",
                                 "catastrophe", "home", "home-ground", "linz-table", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(k, keys[i]) == 0) return 1;
    return 0;
}

static int s_parse_into(const char *text, size_t len, n20_scenario *sc, int maponly, int depth,
                        char *msg, size_t msgmax);

static int s_record(n20_scenario *sc, s_line *L, int depth) {
    const char *k = L->w[0];
    int v, v2;
    uint16_t h, h2;
    if (strcmp(k, "base") == 0 && L->n == 3) {
        /* [17.0] a scenario built on another: "map" takes its map, tables, turn track and
         * cards; "all" also takes its set-up. Only before any other data. */
        size_t bl = 0;
        const char *bt = n20_data_text(L->w[1], &bl);
        int maponly = strcmp(L->w[2], "map") == 0;
        if (!bt || depth >= 3 || sc->rows || sc->nunits || (!maponly && strcmp(L->w[2], "all") != 0))
            return -1;
        if (s_parse_into(bt, bl, sc, maponly, depth + 1, NULL, 0) < 0) return -1;
        snprintf(sc->base, sizeof sc->base, "%s", L->w[1]);
    } else if (strcmp(k, "option") == 0 && L->n == 2) {
        uint32_t b;
        if (s_optlist(L->w[1], &b)) return -1;
        sc->opts_ok |= b;
    } else if (strcmp(k, "option-unsupported") == 0 && L->n == 2) { /* not played in this scenario yet */
        uint32_t b;
        if (s_optlist(L->w[1], &b)) return -1;
        sc->opts_unsupported |= b;
    } else if (strcmp(k, "option-required") == 0 && L->n == 2) { /* e.g. [17.1] must use [16.6] */
        uint32_t b;
        if (s_optlist(L->w[1], &b)) return -1;
        sc->opts_required |= b;
    } else if (strcmp(k, "option-morale") == 0 && L->n == 4) {
        uint32_t b;
        if (s_optlist(L->w[1], &b) || (v2 = s_side(L->w[2])) < 0 || s_num(L->w[3], &v) || v < -10 ||
            v > 10 || sc->noptm >= 4)
            return -1;
        sc->optm_bit[sc->noptm] = b;
        sc->optm_side[sc->noptm] = (int8_t)v2;
        sc->optm_delta[sc->noptm++] = (int8_t)v;
    } else if (strcmp(k, "card-pile") == 0 && L->n == 3) {
        int pile = strcmp(L->w[2], "draw") == 0 ? 0 : strcmp(L->w[2], "discard") == 0 ? 1
                   : strcmp(L->w[2], "out") == 0 ? 2 : strcmp(L->w[2], "top") == 0 ? 3 : -1;
        int found = 0;
        if (pile < 0 || s_num(L->w[1], &v)) return -1;
        for (int i = 0; i < sc->ncards; i++)
            if (sc->cards[i].number == v) { sc->cards[i].pile = (uint8_t)pile; found = 1; }
        if (!found) return -1;
    } else if (strcmp(k, "historical-deck") == 0 && L->n >= 2 && L->n - 1 <= N20_MAX_CARDS) {
        sc->nhist = 0;
        for (int i = 1; i < L->n; i++) {
            int c = -1;
            if (s_num(L->w[i], &v)) return -1;
            for (int j = 0; j < sc->ncards; j++)
                if (sc->cards[j].number == v) c = j;
            if (c < 0) return -1;
            for (int j = 0; j < sc->nhist; j++)
                if (sc->hist_order[j] == c) return -1; /* [17.3.1] a card is listed once */
            sc->hist_order[sc->nhist++] = (uint8_t)c;
        }
    } else if (strcmp(k, "historical-reshuffle") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || v < 1 || v >= N20_MAX_TURNS || (v2 = s_side(L->w[2])) < 0) return -1;
        sc->hist_reshuffle_turn = (uint8_t)v;
        sc->hist_reshuffle_side = (uint8_t)v2;
    } else if (strcmp(k, "victory") == 0 && L->n == 2) {
        if (strcmp(L->w[1], "standard") == 0) sc->victory = N20_VICTORY_STANDARD;
        else if (strcmp(L->w[1], "opening-battles") == 0) sc->victory = N20_VICTORY_OPENING;
        else return -1;
    } else if (strcmp(k, "edition") == 0 && L->n == 2) { /* the series rules played: v3 or v4 */
        if (strcmp(L->w[1], "v3") == 0) sc->edition = N20_ED_V3;
        else if (strcmp(L->w[1], "v4") == 0) sc->edition = N20_ED_V4;
        else return -1;
    } else if (strcmp(k, "scenario") == 0 && L->n == 2) {
        snprintf(sc->id, sizeof sc->id, "%s", L->w[1]);
    } else if (strcmp(k, "pool") == 0 && L->n == 4 && strcmp(L->w[2], "dummy") == 0) {
        /* [16.1.3] the army's Dummy units (fog-of-war only): "A Dummy moves like a Cavalry unit
         * (with a Movement Allowance of 3)"; ids <ARMY>-DUMMY-<n> */
        int a = n20_army_of(L->w[1]);
        if (a < 0 || s_num(L->w[3], &v) || v < 0 || v > 9) return -1;
        for (int i = 0; i < v; i++) {
            if (sc->nunits >= N20_MAX_UNITS) return -1;
            n20_unit_def *d = &sc->units[sc->nunits++];
            memset(d, 0, sizeof *d);
            snprintf(d->id, sizeof d->id, "%s-DUMMY-%d",
                     a == N20_ARMY_FRENCH ? "F" : a == N20_ARMY_ANGLO ? "A" : a == N20_ARMY_AUSTRIAN ? "AU" : "P", i + 1);
            d->side = a == N20_ARMY_FRENCH ? N20_FRENCH : N20_ALLIED;
            d->army = (uint8_t)a;
            d->type = N20_DUMMY;
            d->allowance = 3;
            d->place = N20_P_POOL;
        }
    } else if (strcmp(k, "seats") == 0 || strcmp(k, "side") == 0 || strcmp(k, "adjacency") == 0 ||
               strcmp(k, "pool") == 0) {
        /* documented facts; the code uses the fixed n20 conventions */
    } else if (strcmp(k, "weather-start") == 0 && L->n == 3) { /* [16.10] */
        if ((v = s_weather(L->w[1])) < 0 || v > N20_W_DOWNPOUR) return -1;
        sc->wx_start = (uint8_t)v;
        if (strcmp(L->w[2], "worsening") != 0 && strcmp(L->w[2], "improving") != 0) return -1;
        sc->wx_worse0 = strcmp(L->w[2], "worsening") == 0;
    } else if (strcmp(k, "weather-trend") == 0 && L->n == 8) {
        int side = strcmp(L->w[1], "worsening") == 0 ? 1 : strcmp(L->w[1], "improving") == 0 ? 0 : -1;
        if (side < 0) return -1;
        for (int i = 0; i < 6; i++) {
            if (s_num(L->w[2 + i], &v) || v < -4 || v > 4) return -1;
            sc->wx_trend[side][i] = (int8_t)v;
        }
    } else if (strcmp(k, "weather-card") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 1 || v > 99) return -1;
        sc->wx_card = (uint8_t)v;
    } else if (strcmp(k, "grid") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || s_num(L->w[2], &v2) || v < 1 || v > 31 || v2 < 1 || v2 > 31)
            return -1;
        sc->rows = (uint8_t)v;
        sc->cols = (uint8_t)v2;
        for (int r = 1; r <= v; r++)
            for (int c = 1; c <= v2; c++) sc->onmap[r * 32 + c] = 1;
    } else if (strcmp(k, "first-player") == 0 && L->n == 2) {
        if ((v = s_side(L->w[1])) < 0) return -1;
        sc->first_player = (uint8_t)v;
    } else if (strcmp(k, "start-turn") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 1 || v >= N20_MAX_TURNS) return -1;
        sc->start_turn = (uint8_t)v;
    } else if (strcmp(k, "last-turn") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 1 || v >= N20_MAX_TURNS) return -1;
        sc->last_turn = (uint8_t)v;
    } else if (strcmp(k, "morale") == 0 && L->n == 3) {
        if ((v2 = s_side(L->w[1])) < 0 || s_num(L->w[2], &v) || v < 0 || v > 10) return -1;
        sc->morale0[v2] = (int8_t)v;
    } else if (strcmp(k, "morale-max") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 1 || v > 100) return -1;
        sc->morale_max = (int8_t)v;
    } else if (strcmp(k, "skip-first-event") == 0 && L->n == 2) {
        if ((v = s_side(L->w[1])) < 0) return -1;
        sc->skip_first_event = (uint8_t)(1 + v);
    } else if (strcmp(k, "night-rest") == 0 && L->n == 3) {
        if ((v2 = s_side(L->w[1])) < 0 || s_num(L->w[2], &v) || v < 0 || v > 10) return -1;
        sc->rest[v2] = (int8_t)v;
    } else if (strcmp(k, "turn") == 0 && L->n == 7) {
        if (s_num(L->w[1], &v) || v < 1 || v >= N20_MAX_TURNS) return -1;
        n20_turn_def *t = &sc->turns[v];
        t->defined = 1;
        snprintf(t->label, sizeof t->label, "%s %s", L->w[2], L->w[3]);
        if (strcmp(L->w[4], "night") == 0) t->night = 1;
        else if (strcmp(L->w[4], "day") != 0) return -1;
        if ((v2 = s_weather(L->w[5])) < 0) return -1;
        t->weather = (uint8_t)v2;
        if (s_num(L->w[6], &v2) || v2 < 0 || v2 > 6) return -1;
        t->sudden = (uint8_t)v2;
    } else if (strcmp(k, "tec") == 0 && L->n == 3 && strcmp(L->w[1], "road-bonus") == 0) {
        if (s_num(L->w[2], &v)) return -1;
        sc->road_bonus = (int8_t)v;
    } else if (strcmp(k, "tec") == 0 && L->n == 4) {
        int t = s_terrain(L->w[1]);
        if (t < 0 || s_num(L->w[3], &v)) return -1;
        if (strcmp(L->w[2], "stop") == 0) sc->t_stop[t] = 1;
        else if (strcmp(L->w[2], "1") == 0) sc->t_stop[t] = 0;
        else return -1;
        sc->t_def[t] = (int8_t)v;
    } else if (strcmp(k, "tec-side") == 0 && L->n == 4) {
        if (s_num(L->w[2], &v) || s_num(L->w[3], &v2)) return -1;
        if (strcmp(L->w[1], "minor") == 0) { sc->minor_move = (int8_t)v; sc->minor_def = (int8_t)v2; }
        else if (strcmp(L->w[1], "major-bridge") == 0) sc->bridge_def = (int8_t)v2;
        else if (strcmp(L->w[1], "major-ford") == 0) sc->ford_def = (int8_t)v2;
        else if (strcmp(L->w[1], "minor-bridge") == 0) sc->minor_bridge_def = (int8_t)v2;
        else return -1;
    } else if (strcmp(k, "crt-columns") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || s_num(L->w[2], &v2) || v2 - v + 1 > 8 || v2 < v) return -1;
        sc->crt_lo = (int8_t)v;
        sc->crt_hi = (int8_t)v2;
    } else if (strcmp(k, "crt") == 0) {
        int cols = sc->crt_hi - sc->crt_lo + 1;
        if (L->n != 2 + cols || s_num(L->w[1], &v) || v < 1 || v > 6) return -1;
        for (int i = 0; i < cols; i++) {
            int r = s_result(L->w[2 + i]);
            if (r < 0) return -1;
            sc->crt[v - 1][i] = (uint8_t)r;
        }
    } else if (strcmp(k, "rally") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || v < 1 || v > 6) return -1;
        if (strcmp(L->w[2], "broken") == 0) sc->rally[v - 1] = 0;
        else if (strcmp(L->w[2], "cadre") == 0) sc->rally[v - 1] = 1;
        else if (strcmp(L->w[2], "rallied") == 0) sc->rally[v - 1] = 2;
        else return -1;
    } else if (strcmp(k, "rally-mod") == 0 && L->n == 3) {
        if (s_num(L->w[2], &v)) return -1;
        if (strcmp(L->w[1], "elite") == 0) sc->rally_elite = (int8_t)v;
        else if (strcmp(L->w[1], "morale") == 0) sc->rally_morale = (int8_t)v;
        else return -1;
    } else if (strcmp(k, "advance-table") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || v < 1 || v > 6) return -1;
        if (strcmp(L->w[2], "lost") == 0) sc->adv_lost[v - 1] = 1;
        else if (strcmp(L->w[2], "kept") == 0) sc->adv_lost[v - 1] = 0;
        else return -1;
    } else if (strcmp(k, "breaking-napoleon") == 0 && L->n == 3) {
        if (s_num(L->w[1], &v) || v < 1 || v > 6) return -1;
        if (strcmp(L->w[2], "escapes") == 0) sc->napoleon[v - 1] = N20_NAP_ESCAPES;
        else if (strcmp(L->w[2], "wounded") == 0) sc->napoleon[v - 1] = N20_NAP_WOUNDED;
        else if (strcmp(L->w[2], "killed") == 0) sc->napoleon[v - 1] = N20_NAP_KILLED;
        else return -1;
    } else if (strcmp(k, "arrival") == 0 && (L->n == 3 || L->n == 4)) {
        /* [17.1.1] French Arrival Table row: modified die -> all | delay-all | delay N (ascending) */
        if (s_num(L->w[1], &v) || v < -20 || v > 20 || sc->narr >= 12) return -1;
        if (sc->narr && v <= sc->arr_mod[sc->narr - 1]) return -1;
        int res;
        if (L->n == 3 && strcmp(L->w[2], "all") == 0) res = N20_ARR_ALL;
        else if (L->n == 3 && strcmp(L->w[2], "delay-all") == 0) res = N20_ARR_DELAY_ALL;
        else if (L->n == 4 && strcmp(L->w[2], "delay") == 0 && s_num(L->w[3], &v2) == 0 && v2 >= 1 && v2 <= 9) res = v2;
        else return -1;
        sc->arr_mod[sc->narr] = (int8_t)v;
        sc->arr_res[sc->narr++] = (uint8_t)res;
    } else if (strcmp(k, "sambre-not-before") == 0 && L->n == 3) { /* [17.1.1] D */
        int u = -1;
        for (int i = 0; i < sc->nunits; i++)
            if (strcmp(sc->units[i].id, L->w[1]) == 0) u = i;
        if (u < 0 || s_num(L->w[2], &v) || v < 1 || v >= N20_MAX_TURNS) return -1;
        sc->nb_unit = (uint8_t)u;
        sc->nb_turn = (uint8_t)v;
    } else if (strcmp(k, "rally-on") == 0 && L->n == 3) { /* [16.9.8] */
        int c = -1, u = -1;
        if (s_num(L->w[1], &v)) return -1;
        for (int i = 0; i < sc->ncards; i++)
            if (sc->cards[i].number == v) c = i;
        for (int i = 0; i < sc->nunits; i++)
            if (strcmp(sc->units[i].id, L->w[2]) == 0) u = i;
        if (c < 0 || u < 0 || sc->units[u].type != N20_LEADER) return -1;
        sc->cards[c].rally_on = (uint8_t)(u + 1);
    } else if (strcmp(k, "advance-mod") == 0 && L->n == 3) {
        if (s_num(L->w[2], &v)) return -1;
        sc->adv_heavy = (int8_t)v;
    } else if (strcmp(k, "morale-chart") == 0 && L->n == 4) {
        if (s_num(L->w[2], &v) || s_num(L->w[3], &v2)) return -1;
        const char *e = L->w[1];
        if (strcmp(e, "break") == 0) { sc->mc_break_owner = (int8_t)v; sc->mc_break_enemy = (int8_t)v2; }
        else if (strcmp(e, "rout-beyond-ma") == 0) sc->mc_rout_ma = (int8_t)v;
        else if (strcmp(e, "captured-hex") == 0) sc->mc_captured = (int8_t)v;
        else if (strcmp(e, "garde-recule") == 0) sc->mc_garde = (int8_t)v;
        else if (strcmp(e, "lull") == 0) sc->mc_lull = (int8_t)v;
        else return -1;
    } else if (strcmp(k, "rout-mod") == 0 && L->n == 3) {
        if (s_num(L->w[2], &v)) return -1;
        if (strcmp(L->w[1], "elite") == 0) sc->rout_elite = (int8_t)v;
        else if (strcmp(L->w[1], "fortified") == 0) sc->rout_fort = (int8_t)v;
        else return -1;
    } else if (strcmp(k, "hazard-break") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 0 || v > 6) return -1;
        sc->hazard_break = (uint8_t)v;
    } else if (strcmp(k, "variable-arrival") == 0 && L->n == 2) {
        if (s_num(L->w[1], &v) || v < 1 || v > 7) return -1;
        sc->variable_arrival = (uint8_t)v;
    } else if (strcmp(k, "loc") == 0 && L->n == 3) {
        int a = n20_army_of(L->w[1]);
        if (a < 0 || s_hexw(sc, L->w[2], &h) || sc->nloc[a] >= N20_MAX_LOC) return -1;
        sc->loc[a][sc->nloc[a]++] = h;
    } else if (strcmp(k, "objective") == 0 && L->n == 3) {
        if ((v = s_side(L->w[1])) < 0 || s_hexw(sc, L->w[2], &h) || sc->nobj[v] >= N20_MAX_OBJ)
            return -1;
        sc->obj[v][sc->nobj[v]++] = h;
    } else if (strcmp(k, "entry") == 0 && L->n == 3) {
        if (strlen(L->w[1]) != 1 || s_hexw(sc, L->w[2], &h) || sc->nentry >= N20_MAX_ENTRY) return -1;
        sc->entry_area[sc->nentry] = L->w[1][0];
        sc->entry_hex[sc->nentry++] = h;
    } else if (strcmp(k, "hex") == 0 && L->n == 3) {
        int t = s_terrain(L->w[2]);
        if (t < 0 || s_hexw(sc, L->w[1], &h) || (v = s_prov_index(sc, L->prov)) < 0) return -1;
        sc->terrain[h] = (uint8_t)t;
        sc->hex_prov[h] = (uint8_t)(1 + v);
    } else if (strcmp(k, "label") == 0 && L->n == 2 && L->title[0]) {
        /* a named place, for the pictures (docs/n20-data.md); no rule reads it */
        if (s_hexw(sc, L->w[1], &h) || strlen(L->title) >= sizeof sc->labels[0].name ||
            sc->nlabels >= N20_MAX_LABELS || (v = s_prov_index(sc, L->prov)) < 0)
            return -1;
        sc->labels[sc->nlabels].hex = h;
        sc->labels[sc->nlabels].prov = (uint8_t)v;
        memcpy(sc->labels[sc->nlabels].name, L->title, strlen(L->title) + 1); /* length checked above */
        sc->nlabels++;
    } else if (strcmp(k, "road") == 0 && L->n == 3) {
        if (s_hexw(sc, L->w[1], &h) || s_hexw(sc, L->w[2], &h2)) return -1;
        return s_side_set(sc, h, h2, 0, 1);
    } else if (strcmp(k, "river") == 0 && (L->n == 4 || L->n == 5)) {
        if (s_hexw(sc, L->w[1], &h) || s_hexw(sc, L->w[2], &h2)) return -1;
        int kind = strcmp(L->w[3], "minor") == 0 ? N20_RIV_MINOR
                   : strcmp(L->w[3], "major") == 0 ? N20_RIV_MAJOR : -1;
        if (kind < 0) return -1;
        if (s_side_set(sc, h, h2, 1, kind)) return -1;
        if (L->n == 5) {
            int x = strcmp(L->w[4], "bridge") == 0 ? N20_X_BRIDGE
                    : strcmp(L->w[4], "ford") == 0 ? N20_X_FORD : -1;
            if (x < 0) return -1;
            return s_side_set(sc, h, h2, 2, x);
        }
    } else if (strcmp(k, "unit") == 0 && L->n >= 9) {
        if (sc->nunits >= N20_MAX_UNITS) return -1;
        n20_unit_def *d = &sc->units[sc->nunits];
        memset(d, 0, sizeof *d);
        if (strlen(L->w[1]) >= N20_NAME) return -1;
        /* trailing option conditions: "if OPT[,OPT]" (all needed), "unless OPT[,OPT]" */
        while (L->n >= 11 && (strcmp(L->w[L->n - 2], "if") == 0 || strcmp(L->w[L->n - 2], "unless") == 0)) {
            uint32_t b;
            if (s_optlist(L->w[L->n - 1], &b)) return -1;
            if (strcmp(L->w[L->n - 2], "if") == 0) d->if_opts |= b;
            else d->unless_opts |= b;
            L->n -= 2;
        }
        if (s_dn_unit_suffix(d, L)) return -1; /* Danube 20 */
        /* ids are unique, except for two records no game can hold together (an option's
         * "if" against the other's "unless") */
        for (int i = 0; i < sc->nunits; i++)
            if (strcmp(sc->units[i].id, L->w[1]) == 0 && !(sc->units[i].if_opts & d->unless_opts) &&
                !(sc->units[i].unless_opts & d->if_opts))
                return -1;
        snprintf(d->id, sizeof d->id, "%s", L->w[1]);
        if ((v = s_side(L->w[2])) < 0) return -1;
        d->side = (uint8_t)v;
        if ((v = n20_army_of(L->w[3])) < 0) return -1;
        d->army = (uint8_t)v;
        const char *t = L->w[4];
        d->type = strcmp(t, "inf") == 0 ? N20_INF : strcmp(t, "cav") == 0 ? N20_CAV
                  : strcmp(t, "art") == 0 ? N20_ART : strcmp(t, "leader") == 0 ? N20_LEADER : 99;
        if (d->type == 99) return -1;
        if (s_num(L->w[5], &v) || v < 0 || v > 9) return -1;
        d->strength = (uint8_t)v;
        if (s_num(L->w[6], &v) || v < 0 || v > 9) return -1;
        d->allowance = (uint8_t)v;
        if (strstr(L->w[7], "elite")) d->flags |= N20_FLAG_ELITE;
        if (strstr(L->w[7], "guard")) d->flags |= N20_FLAG_GUARD;
        if (strstr(L->w[7], "cadre")) d->flags |= N20_FLAG_CADRE; /* [16.5] */
        if (strstr(L->w[7], "napoleon")) d->flags |= N20_FLAG_NAPOLEON;
        if (strstr(L->w[7], "wing")) d->flags |= N20_FLAG_WING;
        if (strstr(L->w[7], "span0-foot")) d->flags |= N20_FLAG_SPAN0_FOOT;
        if (strstr(L->w[7], "unreliable")) d->flags |= N20_FLAG_UNRELIABLE;
        if (strstr(L->w[7], "reluctant")) d->flags |= N20_FLAG_RELUCTANT;
        if (strstr(L->w[7], "light")) d->flags |= N20_FLAG_LIGHT;       /* green Movement Allowance */
        if (strstr(L->w[7], "garrison")) d->flags |= N20_FLAG_GARRISON, sc->dn.has_garrison = 1; /* [9.4.4] */
        if (strstr(L->w[7], "battery")) d->flags |= N20_FLAG_BATTERY;   /* Wagram [9.11] */
        if (strstr(L->w[7], "inactive")) d->flags |= N20_FLAG_INACTIVE; /* Wagram [6.11] */
        const char *p = L->w[8];
        if (strcmp(p, "hex") == 0 && L->n == 10) {
            d->place = N20_P_HEX;
            if (s_hexw(sc, L->w[9], &d->hex)) return -1;
        } else if (strcmp(p, "turn") == 0 && L->n == 11) {
            d->place = N20_P_TURN;
            if (s_num(L->w[9], &v) || v < 1 || v >= N20_MAX_TURNS || strlen(L->w[10]) != 1) return -1;
            d->turn = (uint8_t)v;
            d->area = L->w[10][0];
        } else if (strcmp(p, "variable") == 0 && L->n == 10) {
            d->place = N20_P_VARIABLE;
            d->area = L->w[9][0];
        } else if (strcmp(p, "roll") == 0 && (L->n == 12 || L->n == 13)) {
            /* rolls for arrival from Turn N at AREA, arriving on NEED or more [17.1.3] */
            d->place = N20_P_ROLL;
            if (s_num(L->w[9], &v) || v < 1 || v >= N20_MAX_TURNS || strlen(L->w[10]) != 1) return -1;
            d->turn = (uint8_t)v;
            d->area = L->w[10][0];
            if (s_num(L->w[11], &v) || v < 1 || v > 7) return -1;
            d->need = (uint8_t)v;
            if (L->n == 13) {
                if (strcmp(L->w[12], "fm") != 0) return -1;
                d->roll_fm = 1;
            }
        } else if ((strcmp(p, "leader-turn") == 0 || strcmp(p, "leader-alt") == 0) && L->n == 11) {
            /* [17.1] a Leader reinforcement (with [16.9] only); leader-alt: NAPOLEON (3-5), entering
             * only when the French player has a Wing Commander and NAPOLEON (2-5) enter combined */
            if (d->type != N20_LEADER) return -1;
            d->place = strcmp(p, "leader-turn") == 0 ? N20_P_LEADER_TURN : N20_P_LEADER_ALT;
            if (s_num(L->w[9], &v) || v < 1 || v >= N20_MAX_TURNS || strlen(L->w[10]) != 1) return -1;
            d->turn = (uint8_t)v;
            d->area = L->w[10][0];
        } else if (strcmp(p, "broken") == 0 && L->n == 9) {
            d->place = N20_P_BROKEN;
        } else if (strcmp(p, "pool") == 0 && L->n == 9) {
            d->place = N20_P_POOL;
        } else if (strcmp(p, "site") == 0 && L->n == 10) { /* A-E [3.0] the chosen crossing site */
            d->place = N20_P_SITE;
            if (strcmp(L->w[9], "north") == 0) d->area = 'N';
            else if (strcmp(L->w[9], "south") == 0) d->area = 'S';
            else if (strcmp(L->w[9], "second") == 0) d->area = '2'; /* A-E [17.3.1] the second site's north bank */
            else return -1;
        } else if (strcmp(p, "deploy") == 0 && L->n == 10) { /* Wagram [3.0] free deployment in a zone */
            d->place = N20_P_DEPLOY;
            if ((v = s_zone_bit(L->w[9])) < 0) return -1;
            d->area = (char)v; /* the N20_Z_* bit */
        } else if ((strcmp(p, "leader") == 0 || strcmp(p, "variant") == 0) && L->n == 10) {
            d->place = strcmp(p, "leader") == 0 ? N20_P_LEADER : N20_P_VARIANT;
            if (s_hexw(sc, L->w[9], &d->hex)) return -1;
        } else {
            return -1;
        }
        sc->nunits++;
    } else if (strcmp(k, "detached") == 0 && L->n == 3) {
        /* [17.1] SPECIAL RULE: "detached CADRE PARENT": a Cadre unit that is a detached element of
         * the large Infantry unit PARENT, which begins the game broken down (rulings R-17.1-special) */
        int c = -1, p = -1;
        for (int i = 0; i < sc->nunits; i++) {
            if (strcmp(sc->units[i].id, L->w[1]) == 0) c = i;
            if (strcmp(sc->units[i].id, L->w[2]) == 0) p = i;
        }
        if (c < 0 || p < 0 || c == p) return -1;
        n20_unit_def *cd = &sc->units[c];
        const n20_unit_def *pd = &sc->units[p];
        if (cd->type != N20_INF || pd->type != N20_INF || cd->army != pd->army || pd->strength < 2 ||
            (pd->flags & N20_FLAG_CADRE) || pd->place != N20_P_POOL || cd->parent)
            return -1;
        cd->flags |= N20_FLAG_CADRE; /* a Cadre unit [16.5.2] */
        cd->parent = (uint8_t)(p + 1);
    } else if (strcmp(k, "good-ground") == 0 && L->n == 3) {
        int found = -1;
        for (int i = 0; i < sc->nunits; i++)
            if (strcmp(sc->units[i].id, L->w[1]) == 0) found = i;
        if (found < 0) return -1;
        sc->gg_unit = (uint8_t)found;
        sc->gg_immune = strcmp(L->w[2], "immune") == 0;
        sc->gg_choice = strcmp(L->w[2], "choice") == 0; /* [17.3] either side, chosen at set-up */
    } else if (strcmp(k, "card") == 0 && L->n >= 5) {
        /* the first card of a file replaces the deck of its base (Wagram 20 on the A-E map) */
        if (sc->dn.cards_depth != 1 + depth) {
            sc->ncards = 0;
            sc->dn.cards_depth = (uint8_t)(1 + depth);
        }
        if (sc->ncards >= N20_MAX_CARDS) return -1;
        n20_card_def *c = &sc->cards[sc->ncards];
        memset(c, 0, sizeof *c);
        if (s_num(L->w[1], &v) || v < 1 || v > 99) return -1;
        c->number = (uint8_t)v;
        c->pile = strcmp(L->w[2], "draw") == 0 ? 0 : strcmp(L->w[2], "discard") == 0 ? 1
                  : strcmp(L->w[2], "out") == 0 ? 2 : 9;
        if (c->pile == 9) return -1;
        snprintf(c->title, sizeof c->title, "%s", L->title);
        int side = 0, i = 3;
        while (i < L->n && side < 2) {
            if (strcmp(L->w[i], ";") == 0) { side++; i++; continue; }
            if (strcmp(L->w[i], "keep") == 0) { /* [5.0] "Keep this card" */
                c->keep[side] = 1;
                if (++i >= L->n) return -1;
            }
            int e = s_effect(L->w[i]);
            if (e < 0) return -1;
            if (c->keep[side] && e != N20_E_FM_FREE) return -1; /* only a free Forced March keeps */
            c->effect[side] = (uint8_t)e;
            i++;
            if (e == N20_E_MORALE_SELF || e == N20_E_MORALE_ENEMY || e == N20_E_MOVE_MOD) {
                if (i >= L->n || s_num(L->w[i], &v)) return -1;
                c->amount[side] = (int8_t)v;
                i++;
            }
        }
        sc->ncards++;
    } else {
        return s_dn_record(sc, L) == 0 ? 0 : -1; /* Danube 20 */
    }
    return 0;
}

static int s_parse_into(const char *text, size_t len, n20_scenario *sc, int maponly, int depth,
                        char *msg, size_t msgmax) {
    size_t pos = 0;
    int lineno = 0;
    s_line L;
    while (pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n') e++;
        lineno++;
        int rb = 0;
        int rc = s_split(text + pos, e - pos, &L, &rb);
        if (rc == 0 && maponly && s_setup_record(L.w[0])) rc = 1;
        if (rc == 0 && maponly && sc->edition == N20_ED_V3 && s_dn_setup_record(L.w[0])) rc = 1;
        if (rc < 0 || (rc == 0 && s_record(sc, &L, depth) < 0)) {
            if (msg) snprintf(msg, msgmax, "scenario data line %d does not parse", lineno);
            return -1;
        }
        if (rc == 0) {
            if (rb) sc->n_rulebook++;
            else sc->n_reconstructed++;
        }
        pos = e + 1;
    }
    return 0;
}

int n20_data_parse(const char *text, size_t len, n20_scenario *sc, char *msg, size_t msgmax) {
    memset(sc, 0, sizeof *sc);
    sc->gg_unit = 0xff;
    sc->nb_unit = 0xff;
    sc->morale_max = 10;
    sc->hazard_break = 3;
    sc->edition = N20_ED_V4;
    if (s_parse_into(text, len, sc, 0, 0, msg, msgmax) < 0) return -1;
    for (int i = 0; i < sc->nunits; i++) {
        sc->armies_in |= (uint8_t)(1u << sc->units[i].army);
        if (sc->units[i].parent) sc->parents |= 1ull << (sc->units[i].parent - 1); /* [17.1] */
    }
    if (!sc->rows || !sc->start_turn || !sc->last_turn || !sc->nunits) {
        if (msg) snprintf(msg, msgmax, "scenario data lacks grid, turns or units");
        return -1;
    }
    return 0;
}

/* every embedded scenario, parsed once */
#define S_MAX_SCENARIOS 12
static n20_scenario s_builtin[S_MAX_SCENARIOS];
static int s_builtin_ok[S_MAX_SCENARIOS];
static once_flag s_once = ONCE_FLAG_INIT;

static void s_parse_builtin(void) {
    for (size_t i = 0; i < S_MAX_SCENARIOS && n20_data_name(i); i++) {
        size_t len = 0;
        const char *t = n20_data_text(n20_data_name(i), &len);
        s_builtin_ok[i] = t && n20_data_parse(t, len, &s_builtin[i], NULL, 0) == 0 &&
                          strcmp(s_builtin[i].id, n20_data_name(i)) == 0;
    }
}

const n20_scenario *n20_scenario_get(const char *scenario) {
    if (!scenario) return NULL;
    call_once(&s_once, s_parse_builtin);
    for (size_t i = 0; i < S_MAX_SCENARIOS && n20_data_name(i); i++)
        if (strcmp(scenario, n20_data_name(i)) == 0) return s_builtin_ok[i] ? &s_builtin[i] : NULL;
    return NULL;
}

uint32_t n20_option_bit(const char *name) {
    for (size_t k = 0; k < n20_noptions; k++)
        if (strcmp(name, n20_options[k].name) == 0) return n20_options[k].bit;
    return 0;
}
