/* log.c - journald-style diagnostics on stderr (see log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void s_vlog(int prio, const char *fmt, va_list ap) {
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    /* One write per line so that lines from a dying process stay whole. */
    fprintf(stderr, "<%d>berthierd: %s\n", prio, line);
    fflush(stderr);
}

void log_info(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    s_vlog(6, fmt, ap);
    va_end(ap);
}

void log_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    s_vlog(4, fmt, ap);
    va_end(ap);
}

void log_err(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    s_vlog(3, fmt, ap);
    va_end(ap);
}

void fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    s_vlog(2, fmt, ap);
    va_end(ap);
    abort();
}
