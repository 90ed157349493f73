/*
 * golden.c - golden files (golden.h).
 */
#include "golden.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int golden_check(const char *src, const char *rel, const char *data, size_t len, char *why, size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src, rel);
    const char *upd = getenv("BERTHIER_UPDATE_GOLDEN");
    if (upd && strcmp(upd, "1") == 0) {
        FILE *f = fopen(path, "wb");
        size_t put = f ? fwrite(data, 1, len, f) : 0;
        if (!f || fclose(f) != 0 || put != len) {
            snprintf(why, cap, "%s: cannot write it", path);
            return -1;
        }
        return 0;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, cap, "%s is missing (BERTHIER_UPDATE_GOLDEN=1 writes it)", path);
        return -1;
    }
    char *want = malloc(len + 2);
    if (!want) {
        fclose(f);
        snprintf(why, cap, "%s: out of memory", path);
        return -1;
    }
    size_t got = fread(want, 1, len + 1, f), k = 0;
    fclose(f);
    while (k < got && k < len && want[k] == data[k]) k++;
    free(want);
    if (k != len || got != len) {
        snprintf(why, cap,
                 "%s differs from the render at byte offset %zu (file %zu bytes, render %zu); "
                 "BERTHIER_UPDATE_GOLDEN=1 rewrites it",
                 path, k, got, len);
        return -1;
    }
    return 0;
}
