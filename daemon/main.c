/*
 * main.c - berthierd: the Berthier referee daemon.
 *
 * Start-up: settings (config.c), the data dir and its keys (keys.c), recovery
 * of every game log (games.c), then the sockets (server.c). READY=1 goes to
 * systemd only after all of that. SIGHUP reads the key lists again (admin.key,
 * admin.keys, revoked.keys; keys.h). SIGTERM and SIGINT finish the current round
 * (its records are synced and its replies sent) and exit 0. A failed sync
 * stops the daemon with exit status 1 before anything of the round is
 * acknowledged.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine.h"
#include "fault.h"
#include "keys.h"
#include "log.h"
#include "notify.h"
#include "server.h"

#ifndef BERTHIER_VERSION
#define BERTHIER_VERSION "0.0.0"
#endif

static volatile sig_atomic_t s_stop = 0;
static volatile sig_atomic_t s_reload = 0;

static void s_on_signal(int sig) {
    if (sig == SIGHUP) s_reload = 1;
    else s_stop = 1;
}

/* mkdir -p; the data dir is readable so that local clients reach the ipc
 * sockets and the public keys; games/ and the secret files are private. */
static int s_mkdirs(const char *path) {
    char tmp[CONFIG_PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* One daemon per data dir: a second one would recover the same logs and take
 * over the ipc endpoints. The lock lives as long as the process. */
static int s_lock_data_dir(const char *dir) {
    char path[CONFIG_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/berthierd.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        log_err("cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        log_err("another berthierd is running on %s (%s is locked)", dir, path);
        close(fd);
        return -1;
    }
    return fd;
}

/* Every live game holds its log open: allow as many files as the hard limit. */
static void s_raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int main(int argc, char **argv) {
    bd_config cfg;
    char err[1024] = "";
    if (config_from_args(&cfg, argc, argv, getenv("STATE_DIRECTORY"), err, sizeof err) != 0) {
        fprintf(stderr, "berthierd: %s\n", err);
        return 2;
    }
    if (cfg.help) {
        fputs(config_usage(), stdout);
        return 0;
    }
    if (cfg.version) {
        printf("berthierd %s\n", BERTHIER_VERSION);
        return 0;
    }
    umask(022);   /* secret files are created 0600 explicitly */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = s_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);   /* read the key lists again (server_run) */
    signal(SIGPIPE, SIG_IGN);

    if (sodium_init() < 0) {
        log_err("libsodium failed to initialise");
        return 1;
    }
    fault_install();   /* nothing outside the berthierd-faulty test build */
    if (s_mkdirs(cfg.data_dir) != 0) {
        log_err("cannot create the data dir %s: %s", cfg.data_dir, strerror(errno));
        return 1;
    }
    int lock_fd = s_lock_data_dir(cfg.data_dir);
    if (lock_fd < 0) return 1;
    s_raise_nofile();
    bd_keys *keys = sodium_malloc(sizeof *keys);
    if (!keys) {
        log_err("out of memory");
        return 1;
    }
    if (keys_load(keys, cfg.data_dir, err, sizeof err) != 0) {
        log_err("%s", err);
        keys_wipe(keys);
        sodium_free(keys);
        return 1;
    }
    bd_engine *engine = engine_new(&cfg, keys, err, sizeof err);
    if (!engine) {
        log_err("%s", err);
        keys_wipe(keys);
        sodium_free(keys);
        return 1;
    }
    if (engine_recover(engine, err, sizeof err) != 0) {
        log_err("refusing to start: %s", err);
        engine_destroy(&engine);
        keys_wipe(keys);
        sodium_free(keys);
        return 1;
    }
    bd_server *server = server_new(&cfg, keys, engine, err, sizeof err);
    if (!server) {
        log_err("%s", err);
        engine_destroy(&engine);
        keys_wipe(keys);
        sodium_free(keys);
        return 1;
    }
    log_info("berthierd %s ready: data %s, requests %s, events %s, server key %s", BERTHIER_VERSION,
             cfg.data_dir, cfg.listen, cfg.publish, keys->server_pk_z85);
    notify_send("READY=1");
    int rc = server_run(server, &s_stop, &s_reload);
    notify_send("STOPPING=1");
    server_destroy(&server);
    /* what the run cost in texts and re-executions (tests count them, docs/protocol.md P4.3) */
    log_info("served: %llu legal orders formatted as text, %llu inputs re-executed",
             (unsigned long long)engine_formatted(engine), (unsigned long long)engine_reexecuted(engine));
    engine_destroy(&engine);
    keys_wipe(keys);
    sodium_free(keys);
    if (rc != 0) {
        log_err("stopped after a failure");
        return 1;
    }
    log_info("stopped");
    return 0;
}
