/*
 * advance.c - Advance after Combat [9.8]-[9.8.6]: who may advance, the
 * Controlled Advance Table, cavalry pursuit along the Retreat Path,
 * exhaustion.
 */
#include <string.h>

#include "n20.h"

void n20_battle_finish(n20_state *s, brt_dice *dice, n20_out *out);

static int s_in_battle_winner(const n20_state *s, int u) {
    const n20_battle *b = &s->b[s->f.battle];
    const uint8_t *list = s->f.winner == s->f.att_side ? b->att : b->def;
    int n = s->f.winner == s->f.att_side ? b->natt : b->ndef;
    for (int i = 0; i < n; i++)
        if (list[i] == u) return 1;
    return 0;
}

static int s_eligible(const n20_state *s, int u) {
    if (s->f.winner > 1 || !s_in_battle_winner(s, u)) return 0;
    const n20_unit *x = &s->u[u];
    if (x->where != N20_U_MAP || x->routed || (x->flags & (N20_UF_CONTACT | N20_UF_EXHAUSTED)))
        return 0;
    if (n20_fatigue(s, u) >= N20_FAT_SPENT) return 0; /* [9.8.2] [16.8.2] */
    return s->sc->units[u].type != N20_ART; /* [9.8.2] */
}

static int s_vacant_target(const n20_state *s, uint16_t h) {
    for (int i = 0; i < s->f.nvacated; i++)
        if (s->f.vacated[i] == h && n20_unit_at(s, h) < 0 && !n20_enemy_at(s, h, s->f.winner)) return 1;
    return 0;
}

int n20_advance_any(const n20_state *s) {
    int any_hex = 0;
    for (int i = 0; i < s->f.nvacated; i++)
        if (n20_unit_at(s, s->f.vacated[i]) < 0) any_hex = 1;
    if (!any_hex) return 0;
    for (int u = 0; u < s->sc->nunits; u++)
        if (s_eligible(s, u)) {
            for (int i = 0; i < s->f.nvacated; i++) {
                int d = n20_dir(s->sc, s->u[u].hex, s->f.vacated[i]);
                if (d >= 0 && !n20_side_blocked(s->sc, n20_weather(s), s->u[u].hex, d) &&
                    n20_unit_at(s, s->f.vacated[i]) < 0)
                    return 1;
            }
        }
    return 0;
}

void n20_advance_begin(n20_state *s, brt_dice *dice, n20_out *out) {
    n20_fight *f = &s->f;
    if (s->over) return;
    if (f->winner > 1 || !n20_advance_any(s) || n20_garrison_rearguard(s)) { /* [9.4.4.2] */
        n20_battle_finish(s, dice, out);
        return;
    }
    /* [9.8.3] Controlled Advance Table when victorious cavalry took part */
    int cav = 0, heavy = 0;
    for (int u = 0; u < s->sc->nunits; u++)
        if (s_eligible(s, u) && s->sc->units[u].type == N20_CAV) {
            cav = 1;
            if (s->sc->units[u].strength >= 2) heavy = 1;
        }
    if (cav) {
        uint32_t die = brt_dice_roll(dice, 6, "9.8.3 controlled advance"); /* public: its event names no unit */
        int m = (int)die + (heavy ? s->sc->adv_heavy : 0);
        if (m < 1) m = 1;
        if (m > 6) m = 6;
        f->adv_lost = s->sc->adv_lost[m - 1];
        f->adv_rolled = 1;
        int v[2] = {(int)die, m};
        n20_event(out, s, "controlled-advance", NULL, 0, NULL, 0, v, 2,
                  "[9.8.3] Controlled Advance roll %u%s: control %s", die, heavy ? " (-1 heavy)" : "",
                  f->adv_lost ? "Lost: a Cavalry unit must advance" : "Kept");
    }
    s->phase = N20_PH_ADVANCE;
}

/* the retreat path that starts next to vacated hex h (for pursuit) */
static int s_pursuit_path(const n20_state *s, uint16_t h, const uint16_t **path) {
    for (int i = 0; i < s->f.nret; i++) {
        /* the Retreat Path of the unit that was in h */
        if (s->f.npath[i] > 0 && s->f.ret_from[i] == h) {
            *path = s->f.path[i];
            return s->f.npath[i];
        }
    }
    return 0;
}

/* v3 [9.9.3]: once control was Lost and the mandatory Cavalry advance made, one other unit may
 * still advance, into the defeated unit's hex only (docs/danube-rulings/edition.md R-dn-9.9.3-other) */
static int s_v3_check(const n20_state *s, int u, int n, brt_reject *err, const char *id) {
    if (!s->f.adv_lost || s->sc->units[u].type == N20_CAV) return 0;
    if (n > 1)
        return n20_reject(err, "9.8.3", "control of the advance was Lost: %s may advance only into the defeated "
                          "unit's hex", id);
    const n20_battle *b = &s->b[s->f.battle];
    const uint8_t *list = s->f.winner == s->f.att_side ? b->att : b->def;
    int nl = s->f.winner == s->f.att_side ? b->natt : b->ndef;
    for (int i = 0; i < nl; i++)
        if (list[i] != u && s->sc->units[list[i]].type != N20_CAV && (s->u[list[i]].flags & N20_UF_EXHAUSTED))
            return n20_reject(err, "9.8.3", "control of the advance was Lost: only one unit besides the Cavalry "
                              "advances, and %s already has", N20_RUID(s, list[i]));
    return 0;
}

int n20_advance_check(const n20_state *s, int u, const uint16_t *path, int n, brt_reject *err) {
    if (s->phase != N20_PH_ADVANCE) return n20_reject(err, "9.8.1", "no Advance after Combat now");
    if (u < 0 || u >= s->sc->nunits) return n20_reject(err, "9.8", "unknown unit");
    char idb[N20_NAME]; /* [16.1] as the deciding seat may know it (N20_RUID) */
    const char *id = err ? n20_uid_seat(s, u, n20_pending_seat(s), idb) : ""; /* only for messages */
    if (!s_in_battle_winner(s, u))
        return n20_reject(err, "9.8.2", "%s is not a victorious unit of this battle", id);
    if (n20_wg_caution_check(s, u, "Advance after Combat", err) < 0) return -1; /* Wagram [6.11] */
    if (s->sc->units[u].type == N20_ART)
        return n20_reject(err, "9.8.2", "%s is Artillery: it never advances after combat", id);
    if (s->u[u].routed) return n20_reject(err, "9.8.2", "%s is Routed and cannot advance", id);
    if (s->u[u].flags & N20_UF_CONTACT) return n20_reject(err, "8.2.4", "%s is In Contact and cannot advance", id);
    if (s->u[u].flags & N20_UF_EXHAUSTED) return n20_reject(err, "9.8.6", "%s has already advanced", id);
    if (n20_fatigue(s, u) >= N20_FAT_SPENT)
        return n20_reject(err, "16.8.2", "%s is Spent and cannot Advance after Combat", id);
    if (!s_eligible(s, u)) return n20_reject(err, "9.8.2", "%s cannot advance", id);
    if (n < 1) return n20_reject(err, "9.8", "an advance enters at least one hex");
    if (!s_vacant_target(s, path[0]))
        return n20_reject(err, "9.8.2", "%s may advance only into a vacated battle hex, not %04u", id,
                          n20_xxyy(path[0]));
    int d = n20_dir(s->sc, s->u[u].hex, path[0]);
    int wg = d < 0 ? 0 : n20_wg_retreat_side(s, u, s->u[u].hex, path[0]); /* Wagram [6.10.1] [16.10.1] */
    if (d < 0 || wg < 0 || (!wg && n20_side_blocked(s->sc, n20_weather(s), s->u[u].hex, d)))
        return n20_reject(err, "9.8.4", "%s cannot reach %04u (not adjacent or across a Major River)", id,
                          n20_xxyy(path[0]));
    if (s->f.adv_lost && !s->f.adv_cav_done && s->sc->units[u].type != N20_CAV)
        return n20_reject(err, "9.8.3", "control of the advance was Lost: a Cavalry unit advances first");
    int v4 = n20_ed_has(s, N20_EDF_ADVANCE_V4); /* v3 [9.9.2] [9.9.3]: s_v3_check */
    if (!v4 && s_v3_check(s, u, n, err, id) < 0) return -1;
    for (int i = 0; i < s->f.nvacated; i++)
        if (v4 && s->f.vacated[i] == path[0] && (s->f.adv_entered & (1u << i)) && n > 1 &&
            s->sc->units[u].type == N20_CAV)
            return n20_reject(err, "9.8.5", "only the first unit into %04u may pursue; %s advances into "
                              "that hex only", n20_xxyy(path[0]), id);
    if (n > 1) {
        if (v4 && s->sc->units[u].type != N20_CAV)
            return n20_reject(err, "9.8.2", "%s is not Cavalry: it advances a single hex", id);
        if (v4 && n > s->sc->units[u].allowance)
            return n20_reject(err, "9.8.5", "%s may pursue at most %u hexes", id, s->sc->units[u].allowance);
        const uint16_t *rp;
        int nr = s_pursuit_path(s, path[0], &rp);
        for (int i = 1; i < n; i++) {
            if (i - 1 >= nr || rp[i - 1] != path[i])
                return n20_reject(err, "9.8.5", "%s may pursue only along the Retreat Path", id);
            int o = n20_unit_at(s, path[i]);
            if (o >= 0 || n20_enemy_at(s, path[i], s->f.winner)) return n20_reject(err, "9.8.5", "%04u is occupied", n20_xxyy(path[i]));
            int dd = n20_dir(s->sc, path[i - 1], path[i]);
            if (dd < 0 || n20_side_blocked(s->sc, n20_weather(s), path[i - 1], dd))
                return n20_reject(err, "9.8.4", "%s cannot cross into %04u", id, n20_xxyy(path[i]));
        }
    }
    return 0;
}

void n20_advance_apply(n20_state *s, int u, const uint16_t *path, int n, n20_out *out) {
    uint16_t from = s->u[u].hex;
    if (s->gg_unit == u) s->gg_unit = 0xff;
    for (int i = 0; i < s->f.nvacated; i++)
        if (s->f.vacated[i] == path[0]) s->f.adv_entered |= (uint8_t)(1u << i);
    s->u[u].hex = path[n - 1];
    s->u[u].flags |= N20_UF_EXHAUSTED; /* [9.8.6] */
    if (s->sc->units[u].type == N20_CAV) s->f.adv_cav_done = 1;
    uint16_t hx[N20_MAX_PATH + 1];
    int nh = 0;
    hx[nh++] = from;
    for (int i = 0; i < n && nh < N20_MAX_PATH + 1; i++) hx[nh++] = path[i];
    int us[1] = {u};
    n20_event(out, s, "advanced", us, 1, hx, nh, NULL, 0, "[9.8] " N20_U(0) " advances to %04u",
              n20_xxyy(path[n - 1]));
    n20_garrison_entered(s, u, path, n, out); /* [9.4.4.3] [9.4.4.4] */
    n20_ae_advanced(s, u, path, n, out); /* A-E [9.10.1] Catastrophe */
    n20_wg_entered(s, u, path, n, out); /* Wagram [12.8] [16.10.2] */
}

int n20_advance_end_check(const n20_state *s, brt_reject *err) {
    if (s->phase != N20_PH_ADVANCE) return n20_reject(err, "9.8.1", "no Advance after Combat now");
    if (s->f.adv_lost && !s->f.adv_cav_done) {
        /* only if some cavalry can still advance */
        for (int u = 0; u < s->sc->nunits; u++)
            if (s_eligible(s, u) && s->sc->units[u].type == N20_CAV)
                for (int i = 0; i < s->f.nvacated; i++) {
                    uint16_t p[1] = {s->f.vacated[i]};
                    if (n20_advance_check(s, u, p, 1, NULL) == 0)
                        return n20_reject(err, "9.8.3", "control of the advance was Lost: %s must advance",
                                          N20_RUID(s, u));
                }
    }
    return 0;
}

int n20_advance_paths(const n20_state *s, int u, void (*fn)(void *ctx, int u, const uint16_t *path, int n),
                      void *ctx) {
    int count = 0;
    for (int i = 0; i < s->f.nvacated; i++) {
        uint16_t p[N20_MAX_PATH];
        p[0] = s->f.vacated[i];
        if (n20_advance_check(s, u, p, 1, NULL) < 0) continue;
        fn(ctx, u, p, 1);
        count++;
        const uint16_t *rp = NULL; /* set when nr > 0 */
        int nr = s_pursuit_path(s, p[0], &rp);
        for (int k = 0; k < nr && k + 2 <= N20_MAX_PATH; k++) {
            p[k + 1] = rp[k];
            if (n20_advance_check(s, u, p, k + 2, NULL) < 0) break;
            fn(ctx, u, p, k + 2);
            count++;
        }
    }
    return count;
}
