/*
 * n20_svg_t.h - checks shared by the n20 picture tests (test_n20_render.c,
 * test_n20_render_danube.c): a strict well-formedness check of the SVG and the
 * comparison with a committed golden file.
 */
#ifndef BERTHIER_N20_SVG_T_H
#define BERTHIER_N20_SVG_T_H

#include <stdlib.h>
#include <string.h>

#include "golden.h"

/* A strict check of well-formed XML: one root, every tag closed in order, attributes quoted,
 * only the five predefined entities and character references, no '<' or '&' in text. */
static inline void r_wellformed(const char *x) {
    char stack[64][32];
    int depth = 0, roots = 0;
    size_t i = 0, n = strlen(x);
    while (i < n) {
        if (x[i] == '&') {
            size_t e = i + 1;
            while (e < n && e - i < 10 && x[e] != ';') e++;
            assert_true(e < n && x[e] == ';');
            char ent[12];
            memcpy(ent, x + i + 1, e - i - 1);
            ent[e - i - 1] = 0;
            int ok = !strcmp(ent, "amp") || !strcmp(ent, "lt") || !strcmp(ent, "gt") || !strcmp(ent, "quot") ||
                     !strcmp(ent, "apos") || (ent[0] == '#' && ent[1]);
            if (!ok) fail_msg("bad entity &%s; at %zu", ent, i);
            i = e + 1;
            continue;
        }
        if (x[i] != '<') {
            i++;
            continue;
        }
        if (x[i + 1] == '/') { /* a closing tag */
            size_t e = i + 2, k = 0;
            char name[32];
            while (e < n && x[e] != '>' && k < 31) name[k++] = x[e++];
            name[k] = 0;
            assert_true(e < n && x[e] == '>');
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                fail_msg("closing </%s> at %zu does not match <%s>", name, i, depth ? stack[depth - 1] : "");
            depth--;
            i = e + 1;
            continue;
        }
        size_t e = i + 1, k = 0;
        char name[32];
        while (e < n && x[e] != ' ' && x[e] != '>' && x[e] != '/' && x[e] != '\n' && k < 31) name[k++] = x[e++];
        name[k] = 0;
        assert_true(k > 0 && k < 31);
        /* attributes: name="value" with no '<' or '"' inside the value */
        for (;;) {
            while (e < n && (x[e] == ' ' || x[e] == '\n')) e++;
            assert_true(e < n);
            if (x[e] == '>' || (x[e] == '/' && x[e + 1] == '>')) break;
            while (e < n && x[e] != '=' && x[e] != ' ' && x[e] != '>') e++;
            if (x[e] != '=' || x[e + 1] != '"') fail_msg("unquoted attribute in <%s> at %zu", name, e);
            e += 2;
            while (e < n && x[e] != '"') {
                if (x[e] == '<') fail_msg("'<' in an attribute of <%s> at %zu", name, e);
                e++;
            }
            assert_true(e < n);
            e++;
        }
        if (x[e] == '/') {
            e += 2;
            if (depth == 0) roots++;
        } else {
            assert_true(depth < 64);
            if (depth == 0) roots++;
            snprintf(stack[depth++], 32, "%s", name);
            e++;
        }
        i = e;
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
}

/* compare data with the committed file `rel` (under the source tree) byte for byte; with
 * BERTHIER_UPDATE_GOLDEN=1 write it instead (golden.h) */
static inline void r_golden(const char *rel, const char *data) {
    const char *src = getenv("BERTHIER_SRC");
    assert_non_null(src);
    char why[4608];
    if (golden_check(src, rel, data, strlen(data), why, sizeof why) != 0) fail_msg("%s", why);
}

#endif
