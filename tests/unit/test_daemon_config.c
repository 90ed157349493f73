/* test_daemon_config.c - berthierd's settings: defaults, the config file, the
 * command line and their order of precedence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../daemon/config.c"

static int s_args(bd_config *c, const char *state_dir, char *err, size_t errlen, ...) {
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"berthierd";
    va_list ap;
    va_start(ap, errlen);
    const char *a;
    while ((a = va_arg(ap, const char *)) && argc < 31) argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return config_from_args(c, argc, argv, state_dir, err, errlen);
}

static void test_defaults(void **state) {
    (void)state;
    bd_config c;
    char err[256];
    assert_int_equal(s_args(&c, NULL, err, sizeof err, NULL), 0);
    assert_string_equal(c.data_dir, "./var/berthier");
    assert_string_equal(c.listen, "ipc://./var/berthier/berthier.sock");
    assert_string_equal(c.publish, "ipc://./var/berthier/events.sock");
    assert_int_equal(c.max_message, 1u << 20);
    /* the documented defaults of the bounds (docs/daemon.md, "Bounded resources") */
    assert_int_equal(c.rate, 50000);
    assert_int_equal(c.burst, 50000);
    assert_int_equal(c.reply_budget, 1u << 20);
    assert_int_equal(c.key_reply_budget, 8u << 20);
    assert_int_equal(c.key_connections, 32);
    assert_int_equal(c.reveal_deadline_ms, 300000);
    /* systemd's StateDirectory: the first of a ':'-separated list. */
    assert_int_equal(s_args(&c, "/var/lib/berthier:/var/lib/other", err, sizeof err, NULL), 0);
    assert_string_equal(c.data_dir, "/var/lib/berthier");
    assert_string_equal(c.listen, "ipc:///var/lib/berthier/berthier.sock");
}

static void test_flags(void **state) {
    (void)state;
    bd_config c;
    char err[256];
    assert_int_equal(s_args(&c, "/state", err, sizeof err, "--data-dir", "/d", "--listen=tcp://127.0.0.1:7480",
                            "--max-message", "64k", "--rate", "5", NULL),
                     0);
    assert_string_equal(c.data_dir, "/d");
    assert_string_equal(c.listen, "tcp://127.0.0.1:7480");
    assert_string_equal(c.publish, "ipc:///d/events.sock");
    assert_int_equal(c.max_message, 64 * 1024);
    assert_int_equal(c.rate, 5);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--help", NULL), 0);
    assert_true(c.help);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--version", NULL), 0);
    assert_true(c.version);
    assert_non_null(strstr(config_usage(), "--max-message"));
}

static void test_bad_flags(void **state) {
    (void)state;
    bd_config c;
    char err[256];
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--no-such", "1", NULL), -1);
    assert_non_null(strstr(err, "--no-such"));
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--max-message", "12", NULL), -1);
    assert_non_null(strstr(err, "max-message"));
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--max-message", "-5", NULL), -1);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--rate", "1x", NULL), -1);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--listen", NULL), -1);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "stray", NULL), -1);
    assert_int_equal(s_args(&c, NULL, err, sizeof err, "--config", "/nonexistent/berthierd.conf", NULL), -1);
    assert_non_null(strstr(err, "/nonexistent/berthierd.conf"));
}

static void test_file(void **state) {
    (void)state;
    bd_config c;
    char err[256];
    config_defaults(&c, NULL);
    assert_int_equal(config_parse_text(&c,
                                       "# berthierd settings\n"
                                       "\n"
                                       "data-dir = /srv/berthier   # trailing comment\n"
                                       "  max-message=2M\n"
                                       "batch = 64\r\n",
                                       err, sizeof err),
                     0);
    assert_string_equal(c.data_dir, "/srv/berthier");
    assert_int_equal(c.max_message, 2u << 20);
    assert_int_equal(c.batch, 64);
    assert_int_equal(config_parse_text(&c, "data-dir = /a\nbogus line\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
    assert_int_equal(config_parse_text(&c, "\n\nunknown-key = 1\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "line 3"));
    assert_non_null(strstr(err, "unknown-key"));
    assert_int_equal(config_parse_text(&c, "listen =\n", err, sizeof err), -1);
}

static void test_precedence(void **state) {
    (void)state;
    char path[] = "/tmp/berthierd-conf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "data-dir = /from-file\nrate = 9\nlisten = tcp://0.0.0.0:1\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    bd_config c;
    char err[256];
    /* The file applies first, the flags after it, wherever --config stands. */
    assert_int_equal(s_args(&c, "/state", err, sizeof err, "--rate", "3", "--config", path, NULL), 0);
    assert_string_equal(c.data_dir, "/from-file");
    assert_int_equal(c.rate, 3);
    assert_string_equal(c.listen, "tcp://0.0.0.0:1");
    assert_string_equal(c.publish, "ipc:///from-file/events.sock");
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults), cmocka_unit_test(test_flags), cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_file),     cmocka_unit_test(test_precedence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
