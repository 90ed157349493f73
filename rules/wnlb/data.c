/*
 * data.c - the wnlb scenario data parser (format: docs/wnlb-data.md).
 * Each record is one line "keyword fields... | provenance"; '#' starts a comment line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnlb.h"

#define MAXW 16

static int s_army(const char *w) {
    if (!strcmp(w, "french")) return WNLB_FR;
    if (!strcmp(w, "british")) return WNLB_BR;
    if (!strcmp(w, "prussian")) return WNLB_PR;
    return -1;
}

static int s_action(const char *w) {
    static const char *const n[] = {"none", "artillery", "command", "elite", "charge", "enemy-charge", "rally", "health"};
    for (int i = 0; i < WNLB_ACT_COUNT; i++)
        if (!strcmp(w, n[i])) return i;
    return -1;
}

int wnlb_square_parse(const char *t, int *row, int *col) {
    if (!t || t[0] < 'A' || t[0] > 'Z' || t[1] != '-') return -1;
    char *end = NULL;
    long c = strtol(t + 2, &end, 10);
    if (end == t + 2 || *end || c < 1 || c > WNLB_MAX_COLS) return -1;
    *row = t[0] - 'A';
    *col = (int)c - 1;
    return *row < WNLB_MAX_ROWS ? 0 : -1;
}

void wnlb_square_name(int row, int col, char *out, size_t cap) {
    if (row < 0 || col < 0) snprintf(out, cap, "-");
    else snprintf(out, cap, "%c-%d", 'A' + (row % 26), (col + 1) % 100);
}

static int s_fail(char *msg, size_t cap, int line, const char *why) {
    snprintf(msg, cap, "line %d: %s", line, why);
    return -1;
}

int wnlb_data_parse(const char *text, size_t len, wnlb_scenario *sc, char *msg, size_t cap) {
    memset(sc, 0, sizeof *sc);
    sc->cmd_row[0] = sc->cmd_row[1] = sc->cmd_col[0] = sc->cmd_col[1] = -1;
    size_t p = 0;
    int line = 0;
    while (p < len) {
        char buf[512];
        size_t q = p;
        while (q < len && text[q] != '\n') q++;
        size_t n = q - p;
        line++;
        if (n >= sizeof buf) return s_fail(msg, cap, line, "line too long");
        memcpy(buf, text + p, n);
        buf[n] = 0;
        p = q + 1;
        if (buf[0] == '#' || buf[0] == 0) continue;
        char *bar = strchr(buf, '|');
        if (!bar || strlen(bar + 1) < 2) return s_fail(msg, cap, line, "a record without its provenance");
        *bar = 0;
        char *w[MAXW];
        int nw = 0;
        for (char *t = strtok(buf, " \t"); t && nw < MAXW; t = strtok(NULL, " \t")) w[nw++] = t;
        if (nw == 0) continue;
        int r = 0, c = 0;
        if (!strcmp(w[0], "scenario") && nw == 2) {
            snprintf(sc->name, sizeof sc->name, "%s", w[1]);
        } else if (!strcmp(w[0], "turns") && nw == 3) {
            sc->first_turn = (uint8_t)atoi(w[1]);
            sc->last_turn = (uint8_t)atoi(w[2]);
            if (sc->first_turn < 1 || sc->last_turn > 7 || sc->first_turn > sc->last_turn)
                return s_fail(msg, cap, line, "turns are 1 to 7");
        } else if (!strcmp(w[0], "seats") && nw == 2) {
            sc->max_seats = (uint8_t)atoi(w[1]);
        } else if (!strcmp(w[0], "prussians") && nw == 2) {
            sc->prussians = (uint8_t)atoi(w[1]);
        } else if (!strcmp(w[0], "grid") && nw == 3) {
            sc->rows = (uint8_t)atoi(w[1]);
            sc->cols = (uint8_t)atoi(w[2]);
            if (!sc->rows || sc->rows > WNLB_MAX_ROWS || !sc->cols || sc->cols > WNLB_MAX_COLS)
                return s_fail(msg, cap, line, "bad grid size");
        } else if (!strcmp(w[0], "row") && nw == 3) {
            r = w[1][0] - 'A';
            if (r < 0 || r >= sc->rows || strlen(w[2]) != sc->cols) return s_fail(msg, cap, line, "bad row");
            for (c = 0; c < sc->cols; c++) {
                const char *k = strchr(".WVCH", w[2][c]);
                if (!k || !*k) return s_fail(msg, cap, line, "bad terrain letter");
                sc->terrain[r][c] = (uint8_t)(k - ".WVCH");
            }
        } else if (!strcmp(w[0], "side") && nw >= 4) {
            if (wnlb_square_parse(w[1], &r, &c) || r >= sc->rows || c >= sc->cols)
                return s_fail(msg, cap, line, "bad square");
            const char *d = strchr("NESW", w[2][0]);
            if (!d || !*d || w[2][1]) return s_fail(msg, cap, line, "bad side");
            int dir = (int)(d - "NESW");
            uint8_t bits = 0;
            for (int i = 3; i < nw; i++) {
                if (!strcmp(w[i], "ridge")) bits |= WNLB_SIDE_RIDGE;
                else if (!strcmp(w[i], "stream")) bits |= WNLB_SIDE_STREAM;
                else if (!strcmp(w[i], "bridge")) bits |= WNLB_SIDE_BRIDGE;
                else if (!strcmp(w[i], "road")) bits |= WNLB_SIDE_ROAD;
                else if (!strcmp(w[i], "pond")) bits |= WNLB_SIDE_POND;
                else return s_fail(msg, cap, line, "bad side feature");
            }
            sc->side[r][c][dir] |= bits;
            int r2 = r, c2 = c;
            wnlb_step(dir, &r2, &c2);
            if (r2 >= 0 && c2 >= 0 && r2 < sc->rows && c2 < sc->cols) sc->side[r2][c2][(dir + 2) % 4] |= bits;
        } else if (!strcmp(w[0], "chateau") && nw == 4) {
            if (sc->n_chateaux >= WNLB_MAX_CHATEAUX || wnlb_square_parse(w[2], &r, &c))
                return s_fail(msg, cap, line, "bad chateau");
            wnlb_chateau_def *d = &sc->chateaux[sc->n_chateaux++];
            snprintf(d->name, sizeof d->name, "%s", w[1]);
            d->row = (int8_t)r;
            d->col = (int8_t)c;
            d->cdp = (uint8_t)atoi(w[3]);
        } else if (!strcmp(w[0], "vp") && nw == 7) {
            if (sc->n_vp >= WNLB_MAX_VP || wnlb_square_parse(w[2], &r, &c)) return s_fail(msg, cap, line, "bad vp");
            wnlb_vp_def *d = &sc->vp[sc->n_vp++];
            snprintf(d->name, sizeof d->name, "%s", w[1]);
            d->row = (int8_t)r;
            d->col = (int8_t)c;
            d->vp[0] = (uint8_t)atoi(w[3]);
            d->vp[1] = (uint8_t)atoi(w[4]);
            d->short_game = !strcmp(w[5], "short");
            d->full_game = !strcmp(w[6], "full");
        } else if (!strcmp(w[0], "commander") && nw == 3) {
            int a = s_army(w[1]);
            if (a < 0 || a > 1 || wnlb_square_parse(w[2], &r, &c)) return s_fail(msg, cap, line, "bad commander");
            sc->cmd_row[a] = (int8_t)r;
            sc->cmd_col[a] = (int8_t)c;
        } else if (!strcmp(w[0], "deal") && nw == 9) {
            int a = s_army(w[1]);
            if (a < 0) return s_fail(msg, cap, line, "bad army");
            for (int t = 1; t <= 7; t++) sc->deal[a][t] = (uint8_t)atoi(w[t + 1]);
        } else if (!strcmp(w[0], "unit") && nw == 12) {
            if (sc->n_units >= WNLB_MAX_UNITS) return s_fail(msg, cap, line, "too many units");
            wnlb_unit_def *d = &sc->units[sc->n_units];
            snprintf(d->id, sizeof d->id, "%s", w[1]);
            int a = s_army(w[2]);
            if (a < 0) return s_fail(msg, cap, line, "bad army");
            d->army = (uint8_t)a;
            d->type = !strcmp(w[3], "cav") ? WNLB_CAV : WNLB_INF;
            d->full = (uint8_t)atoi(w[4]);
            d->reduced = (uint8_t)atoi(w[5]);
            d->elite = strstr(w[6], "elite") != NULL;
            d->heavy = strstr(w[6], "heavy") != NULL;
            d->row = d->col = -1;
            if (strcmp(w[7], "-")) {
                if (wnlb_square_parse(w[7], &r, &c)) return s_fail(msg, cap, line, "bad square");
                d->row = (int8_t)r;
                d->col = (int8_t)c;
            }
            d->facing = (uint8_t)(atoi(w[8]) & 3);
            d->entry_turn = (uint8_t)atoi(w[9]);
            if (strcmp(w[10], "-")) {
                char tmp[64];
                snprintf(tmp, sizeof tmp, "%s", w[10]);
                char *save = NULL;
                for (char *t = strtok_r(tmp, "/", &save); t && d->n_entry < WNLB_MAX_ENTRY; t = strtok_r(NULL, "/", &save)) {
                    if (wnlb_square_parse(t, &r, &c)) return s_fail(msg, cap, line, "bad entry square");
                    d->entry_row[d->n_entry] = (int8_t)r;
                    d->entry_col[d->n_entry++] = (int8_t)c;
                }
                d->entry_group = d->entry_turn;
            }
            snprintf(d->name, sizeof d->name, "%s", w[11]);
            for (char *k = d->name; *k; k++)
                if (*k == '_') *k = ' ';
            sc->n_units++;
        } else if (!strcmp(w[0], "card") && nw == 8) {
            if (sc->n_cards >= WNLB_MAX_CARDS) return s_fail(msg, cap, line, "too many cards");
            wnlb_card_def *d = &sc->cards[sc->n_cards++];
            int a = s_army(w[2]), act = s_action(w[5]);
            if (a < 0 || act < 0) return s_fail(msg, cap, line, "bad card");
            d->id = (uint8_t)atoi(w[1]);
            d->army = (uint8_t)a;
            d->mp = (uint8_t)atoi(w[3]);
            d->bp = (uint8_t)atoi(w[4]);
            d->action = (uint8_t)act;
            d->value = (uint8_t)atoi(w[6]);
            d->cmd_attack = !strcmp(w[7], "attack");
        } else {
            return s_fail(msg, cap, line, "unknown record");
        }
    }
    if (!sc->name[0] || !sc->rows) return s_fail(msg, cap, line, "no scenario or grid record");
    return 0;
}

void wnlb_step(int dir, int *row, int *col) {
    if (dir == WNLB_N) (*row)--;
    else if (dir == WNLB_E) (*col)++;
    else if (dir == WNLB_S) (*row)++;
    else (*col)--;
}

const wnlb_scenario *wnlb_scenario_get(const char *name) {
    static wnlb_scenario s_sc[4];
    static int s_done[4];
    for (size_t i = 0; i < 4; i++) {
        const char *n = wnlb_data_name(i);
        if (!n) break;
        if (!name || strcmp(n, name)) continue;
        if (!s_done[i]) {
            size_t len = 0;
            const char *t = wnlb_data_text(n, &len);
            char msg[128];
            if (!t || wnlb_data_parse(t, len, &s_sc[i], msg, sizeof msg)) return NULL;
            s_done[i] = 1;
        }
        return &s_sc[i];
    }
    return NULL;
}
