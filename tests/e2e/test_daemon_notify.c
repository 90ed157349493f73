/*
 * test_daemon_notify.c - berthierd and systemd's notification protocol:
 * READY=1 only once the sockets are bound, WATCHDOG=1 from the main loop when
 * WATCHDOG_USEC is set, STOPPING=1 and exit status 0 on SIGTERM. The test
 * plays systemd's part with a datagram socket of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cmocka.h>

#include "test_daemon_common.h"

static int s_recv(int fd, char *buf, size_t max, int timeout_ms) {
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ssize_t n = recv(fd, buf, max - 1, 0);
    if (n < 0) return -1;
    buf[n] = 0;
    return (int)n;
}

static void test_notify(void **state) {
    (void)state;
    char dir[] = "/tmp/berthierd-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sockpath[200], data[200], bin[512];
    snprintf(sockpath, sizeof sockpath, "%s/notify.sock", dir);
    snprintf(data, sizeof data, "%s/data", dir);
    const char *bindir = getenv("BERTHIER_BIN");
    snprintf(bin, sizeof bin, "%s/berthierd", bindir ? bindir : "build/bin");
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    assert_true(strlen(sockpath) < sizeof sa.sun_path);
    memcpy(sa.sun_path, sockpath, strlen(sockpath) + 1);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char logp[300];
        snprintf(logp, sizeof logp, "%s/daemon.log", dir);
        int lfd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (lfd >= 0) dup2(lfd, 2);
        setenv("NOTIFY_SOCKET", sockpath, 1);
        setenv("WATCHDOG_USEC", "200000", 1);
        unsetenv("WATCHDOG_PID");
        execl(bin, bin, "--data-dir", data, (char *)NULL);
        _exit(127);
    }
    td_track(pid, 1);
    char msg[512];
    int ready = 0, watchdog = 0;
    for (int i = 0; i < 50 && !(ready && watchdog >= 2); i++) {
        if (s_recv(fd, msg, sizeof msg, 200) <= 0) continue;
        if (strstr(msg, "READY=1")) {
            /* By then the logs are recovered and both sockets are bound. */
            char p[300];
            struct stat st;
            snprintf(p, sizeof p, "%s/berthier.sock", data);
            assert_int_equal(stat(p, &st), 0);
            snprintf(p, sizeof p, "%s/events.sock", data);
            assert_int_equal(stat(p, &st), 0);
            assert_int_equal(watchdog, 0);
            ready = 1;
        }
        if (strstr(msg, "WATCHDOG=1")) {
            assert_true(ready);
            watchdog++;
        }
    }
    assert_true(ready);
    assert_true(watchdog >= 2);
    kill(pid, SIGTERM);
    int stopping = 0;
    for (int i = 0; i < 25 && !stopping; i++)
        if (s_recv(fd, msg, sizeof msg, 200) > 0 && strstr(msg, "STOPPING=1")) stopping = 1;
    assert_true(stopping);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    td_track(pid, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    close(fd);

    /* Without NOTIFY_SOCKET nothing is sent and nothing fails: covered by every other test. */
    td_rmrf(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_notify)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
