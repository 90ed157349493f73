/* fault.c - I/O fault injection for berthierd-faulty (see fault.h). */
#include "fault.h"

#ifdef BERTHIERD_FAULTS
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evlog.h"
#include "log.h"

static long s_write_at, s_sync_at, s_writes;
static atomic_long s_syncs; /* fdatasyncs run on several threads at once (engine_sync) */
static int s_tear, s_persistent, s_gate_after;
static evlog_io s_io;
static char s_gate[200];

/* gate=DIR: while DIR/hold exists, log fdatasync number n announces itself
 * (creates DIR/wait.n) and waits until DIR/go.n exists or DIR/hold is gone.
 * The test sees exactly where a round stands, without timing. */
static int s_exists(const char *path) { return access(path, F_OK) == 0; }

static void s_gate_wait(long n) {
    char hold[256], wait[256], go[256];
    snprintf(hold, sizeof hold, "%s/hold", s_gate);
    if (!s_exists(hold)) return;
    snprintf(wait, sizeof wait, "%s/wait.%ld", s_gate, n);
    snprintf(go, sizeof go, "%s/go.%ld", s_gate, n);
    int fd = open(wait, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
    struct timespec ts = {0, 1000000};
    while (s_exists(hold) && !s_exists(go)) nanosleep(&ts, NULL);
}

static int s_hit(long count, long at) { return at > 0 && (count == at || (s_persistent && count > at)); }

static ssize_t s_write(int fd, const void *buf, size_t len) {
    if (s_hit(++s_writes, s_write_at)) {
        if (s_tear && len > 1) (void)evlog_io_default.write(fd, buf, len / 2);
        log_warn("fault injection: log write %ld fails", s_writes);
        errno = ENOSPC;
        return -1;
    }
    return evlog_io_default.write(fd, buf, len);
}

static int s_fdatasync(int fd) {
    long n = atomic_fetch_add(&s_syncs, 1) + 1;
    if (s_gate[0] && !s_gate_after) s_gate_wait(n);
    int rc;
    if (s_hit(n, s_sync_at)) {
        log_warn("fault injection: log fdatasync %ld fails", n);
        errno = EIO;
        rc = -1;
    } else {
        rc = evlog_io_default.fdatasync(fd);
    }
    if (s_gate[0] && s_gate_after) {
        int saved = errno;
        s_gate_wait(n);
        errno = saved;
    }
    return rc;
}

void fault_install(void) {
    const char *spec = getenv("BERTHIERD_FAULT");
    if (!spec || !*spec) return;
    char buf[256];
    strncpy(buf, spec, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strncmp(t, "write=", 6) == 0) s_write_at = atol(t + 6);
        else if (strncmp(t, "fdatasync=", 10) == 0) s_sync_at = atol(t + 10);
        else if (strcmp(t, "tear") == 0) s_tear = 1;
        else if (strcmp(t, "persistent") == 0) s_persistent = 1;
        else if (strcmp(t, "gate-after") == 0) s_gate_after = 1;
        else if (strncmp(t, "gate=", 5) == 0) snprintf(s_gate, sizeof s_gate, "%s", t + 5);
    }
    s_io = evlog_io_default;
    s_io.write = s_write;
    s_io.fdatasync = s_fdatasync;
    evlog_io_set(&s_io);
    log_warn("fault injection armed: %s", spec);
}
#else
void fault_install(void) {}
#endif
