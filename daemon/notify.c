/* notify.c - sd_notify with or without libsystemd (see notify.h). */
#include "notify.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef BERTHIERD_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>

void notify_send(const char *state) { (void)sd_notify(0, state); }

#else
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

void notify_send(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (!path || !path[0] || (path[0] != '/' && path[0] != '@')) return;
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (n >= sizeof sa.sun_path) return;
    memcpy(sa.sun_path, path, n);
    if (sa.sun_path[0] == '@') sa.sun_path[0] = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    (void)sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa,
                 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
    close(fd);
}
#endif

int64_t notify_watchdog_ms(void) {
    const char *usec = getenv("WATCHDOG_USEC");
    if (!usec || !usec[0]) return 0;
    const char *pid = getenv("WATCHDOG_PID");
    if (pid && pid[0] && atol(pid) != (long)getpid()) return 0;
    long long v = atoll(usec);
    return v > 0 ? (int64_t)(v / 1000) : 0;
}
