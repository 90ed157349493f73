/*
 * edition.c - the two editions of the Napoleonic 20 series rules: v4.0 (Waterloo 20, the
 * default) and v3.0 (Danube 20), chosen by the scenario record `edition v3|v4`.
 *
 * Two things live here, each in one place:
 *  - which series rules a game plays (n20_ed_has: one bit per difference of
 *    docs/n20-editions.md sections 1 and 5, a row per edition), asked by a small hook where
 *    the rule is played;
 *  - the citations (n20_ed_rule, n20_ed_cite): the code cites v4 numbers; a v3 game cites the
 *    Danube 20 number of the same rule (docs/n20-editions.md table 4), in its rejections
 *    (n20_ed_reject, from n20_apply) and in its event texts (n20_event). Rules that exist only
 *    in v4 keep their number (docs/danube-rulings/edition.md R-dn-cite-table, R-dn-cite-exclusive).
 */
#include <stdio.h>
#include <string.h>

#include "n20.h"

/* the series rules each edition plays (N20_EDF_*) */
static const struct {
    uint8_t edition;
    uint32_t has;
} s_rules[] = {
    {N20_ED_V4, N20_EDF_BRIDGE_ZOC | N20_EDF_CONTACT | N20_EDF_ROUTED_NO_CC | N20_EDF_FORT_ROUT_MOD |
                    N20_EDF_ADVANCE_V4 | N20_EDF_GUARD_EZOC | N20_EDF_LULL_ONE_SIDE | N20_EDF_ELAN |
                    N20_EDF_RELUCTANT | N20_EDF_VAR_WEATHER},
    {N20_ED_V3, 0u},
};

static int s_has(const n20_scenario *sc, uint32_t rule) {
    for (size_t i = 0; i < sizeof s_rules / sizeof s_rules[0]; i++)
        if (s_rules[i].edition == sc->edition) return (s_rules[i].has & rule) != 0;
    return 0;
}

int n20_ed_has(const n20_state *s, uint32_t rule) { return s_has(s->sc, rule); }

int n20_v3(const n20_state *s) { return s->sc->edition == N20_ED_V3; }

/* docs/n20-editions.md table 4: the v4 number -> the v3 number of the same rule */
static const struct {
    const char *v4, *v3;
} s_cite[] = {
    {"7.1", "7.0"}, /* a bridged/forded Major River hexside: v3 [7.0] 4th bullet */
    {"7.2", "7.1"},       {"7.3", "7.2"},       {"7.4", "7.3"},       {"7.5", "7.4"},
    {"7.6", "7.5"},       {"7.7", "7.6"},
    {"8.1.2", "8.2"},     {"8.1.3", "8.2.1"},   {"8.1.4", "8.2.2"},   {"8.1.5", "8.2.3"},
    {"8.2", "8.3"},       {"8.2.1", "8.3.1"},   {"8.2.2", "8.3.2"},   {"8.2.3", "8.3.3"},
    {"8.3", "8.4"},
    {"9.6.2", "9.6.3"},   {"9.6.2.1", "9.6.2"},
    {"9.7.1", "9.7"},     {"9.7.2", "9.8"},     {"9.7.2.1", "9.8.1"}, {"9.7.2.2", "9.8.1"},
    {"9.7.3", "9.8.2"},   {"9.7.4", "9.8.3"},   {"9.7.5", "9.8.4"},   {"9.7.6", "9.8.5"},
    {"9.7.7", "9.8.6"},
    {"9.8.1", "9.9"}, /* v4 Immediacy; v3 [9.8.1] is a Retreat rule: the Advance rules' [9.9] */
    {"9.8", "9.9"},       {"9.8.2", "9.9.2"},   {"9.8.3", "9.9.3"},   {"9.8.4", "9.9.4"},
    {"9.8.5", "9.9.1"},
    {"12.2", "12.0"}, /* v4 Spending Morale Points; v3 [12.2] is the Guard: [12.0] "Players expend" */
    {"12.2.1", "12.3"},   {"12.2.2", "12.4"},   {"12.2.3", "12.5"},
    {"12.3", "12.2"},     {"12.3.1", "12.2.1"}, {"12.2.4", "12.2.1"}, {"12.3.2", "12.2.2"},
    {"16.7.2", "16.7.1"}, {"16.7.3", "16.7.2"}, {"16.7.4", "16.7.3"},
    {"16.8.2", "16.8.3"}, {"16.8.3", "16.8.2"},
    {"16.9.3", "16.9"}, /* v4 Leaders and ZOCs; v3 [16.9.3] is Leader Reaction Movement */
    {"16.9.4", "16.9.3"}, {"16.9.5", "16.9.4"},
    /* never a key: v4 [9.8.6] Exhaustion (v3 silent), as the A-E exclusive rule [9.8.6] Retreat
     * Direction Priority is cited by that number in v3 games (R-dn-cite-exclusive) */
};

const char *n20_ed_rule(const n20_state *s, const char *rule) {
    if (!rule || !n20_v3(s)) return rule;
    for (size_t i = 0; i < sizeof s_cite / sizeof s_cite[0]; i++)
        if (strcmp(s_cite[i].v4, rule) == 0) return s_cite[i].v3;
    return rule;
}

/* a rule number: digits and dots, starting and ending with a digit */
static size_t s_number_len(const char *p) {
    size_t n = 0;
    while ((p[n] >= '0' && p[n] <= '9') || (p[n] == '.' && p[n + 1] >= '0' && p[n + 1] <= '9')) n++;
    return n;
}

void n20_ed_cite(const n20_state *s, char *text, size_t cap) {
    if (!n20_v3(s) || !text || cap == 0) return;
    char out[512];
    size_t o = 0;
    /* every "[" opening a rule number ("[9.7.4]", "[12.3.1 committing the Guard]"): one pass,
     * so that a replaced number is never replaced again */
    for (const char *p = text; *p && o + 1 < sizeof out;) {
        size_t n = p[0] == '[' ? s_number_len(p + 1) : 0;
        if (n == 0 || n >= 16 || (p[1 + n] != ']' && p[1 + n] != ' ')) {
            out[o++] = *p++;
            continue;
        }
        char num[16];
        memcpy(num, p + 1, n);
        num[n] = 0;
        const char *r = n20_ed_rule(s, num);
        out[o++] = '[';
        for (; *r && o + 1 < sizeof out; r++) out[o++] = *r;
        p += 1 + n;
    }
    out[o] = 0;
    snprintf(text, cap, "%s", out);
}

void n20_ed_reject(const n20_state *s, brt_reject *err) {
    if (!err || !n20_v3(s)) return;
    const char *r = n20_ed_rule(s, err->rule);
    if (r != err->rule) snprintf(err->rule, sizeof err->rule, "%s", r);
    n20_ed_cite(s, err->message, sizeof err->message);
}

int n20_ed_option_check(const n20_scenario *sc, uint32_t bit, brt_reject *err) {
    /* [16.10] is Variable Weather in v4; the v3 [16.10] is the Aspern-Essling Floridsdorf
     * pontoon (an exclusive rule), and v3 has no Variable Weather rule */
    if (bit == N20_OPT_VAR_WEATHER && !s_has(sc, N20_EDF_VAR_WEATHER)) {
        if (err) {
            n20_reject(err, "16.10", "option variable-weather is not a rule of the v3.0 series rules "
                       "(Danube 20 [16.10] is the Floridsdorf pontoon)");
            err->code = BRT_REJECT_BAD_OPTION;
        }
        return -1;
    }
    /* Waterloo 20 [17.1.2] "can work with any scenario" of Waterloo 20: the Danube 20 book has
     * no such variant */
    if (bit == N20_OPT_BERTHIER_BACK && sc->edition == N20_ED_V3) {
        if (err) {
            n20_reject(err, "17.1.2", "option berthier-is-back is a Waterloo 20 variant, not a rule of "
                       "the Danube 20 book");
            err->code = BRT_REJECT_BAD_OPTION;
        }
        return -1;
    }
    return 0;
}
