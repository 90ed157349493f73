/*
 * notify.h - the systemd notification protocol (sd_notify): READY=1 once the
 * logs are recovered and the sockets bound, WATCHDOG=1 from the main loop,
 * STOPPING=1 on the way out. libsystemd is used when the build found it; the
 * fallback speaks the datagram protocol itself. Without $NOTIFY_SOCKET both
 * do nothing.
 */
#ifndef BERTHIERD_NOTIFY_H
#define BERTHIERD_NOTIFY_H

#include <stdint.h>

void notify_send(const char *state);
/* Watchdog interval in ms from $WATCHDOG_USEC (0 = none). */
int64_t notify_watchdog_ms(void);

#endif
