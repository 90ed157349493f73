/*
 * hard_iofault.c - an LD_PRELOAD shim for test_hard_iofault.c: fails the Nth
 * write, fdatasync, fsync or rename that touches a matching path, with EIO or
 * ENOSPC, once or from then on. Every other call passes through untouched
 * (libzmq's own writes to its eventfds, the daemon's diagnostics).
 *
 * Environment (read at each call, so a test can arm it by creating a file):
 *   HARD_IOFAULT_OP      write | fdatasync | fsync | rename
 *   HARD_IOFAULT_N       fail the Nth matching call after arming (1 = the first)
 *   HARD_IOFAULT_ERRNO   EIO (default) | ENOSPC
 *   HARD_IOFAULT_MODE    once (default) | persist
 *   HARD_IOFAULT_MATCH   substring of the path (default "/games/")
 *   HARD_IOFAULT_ARM     a file: calls are counted only while it exists
 *                        (unset: from the start)
 *   HARD_IOFAULT_LOG     a file to which each injected failure appends a line
 *
 * Built by the test at run time: cc -shared -fPIC -o hard_iofault.so hard_iofault.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long s_count;
static int s_fired;

static int s_armed(const char *op) {
    const char *want = getenv("HARD_IOFAULT_OP");
    if (!want || strcmp(want, op) != 0) return 0;
    const char *arm = getenv("HARD_IOFAULT_ARM");
    struct stat st;
    if (arm && stat(arm, &st) != 0) return 0;
    return 1;
}

static int s_match(const char *path) {
    const char *m = getenv("HARD_IOFAULT_MATCH");
    return path && strstr(path, m && *m ? m : "/games/") != NULL;
}

static int s_fd_match(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    return s_match(path);
}

/* 1: fail this call (errno set). */
static int s_should_fail(const char *op, const char *path) {
    long n = 1;
    const char *ns = getenv("HARD_IOFAULT_N");
    if (ns) n = strtol(ns, NULL, 10);
    const char *mode = getenv("HARD_IOFAULT_MODE");
    int persist = mode && strcmp(mode, "persist") == 0;
    if (s_fired && !persist) return 0;
    if (!s_fired && ++s_count < n) return 0;
    s_fired = 1;
    const char *e = getenv("HARD_IOFAULT_ERRNO");
    int err = (e && strcmp(e, "ENOSPC") == 0) ? ENOSPC : EIO;
    const char *logp = getenv("HARD_IOFAULT_LOG");
    if (logp) {
        static ssize_t (*real_write)(int, const void *, size_t);
        if (!real_write) real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
        int fd = open(logp, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            char line[4200];
            int len = snprintf(line, sizeof line, "%s %s %s\n", op, path ? path : "?", err == EIO ? "EIO" : "ENOSPC");
            if (len > 0) real_write(fd, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
            close(fd);
        }
    }
    errno = err;
    return 1;
}

static const char *s_fd_path(int fd, char *buf, size_t n) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(link, buf, n - 1);
    if (k <= 0) return "?";
    buf[k] = 0;
    return buf;
}

ssize_t write(int fd, const void *buf, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (s_armed("write") && s_fd_match(fd)) {
        char p[4096];
        if (s_should_fail("write", s_fd_path(fd, p, sizeof p))) return -1;
    }
    return real(fd, buf, count);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (s_armed("fdatasync") && s_fd_match(fd)) {
        char p[4096];
        if (s_should_fail("fdatasync", s_fd_path(fd, p, sizeof p))) return -1;
    }
    return real(fd);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (s_armed("fsync") && s_fd_match(fd)) {
        char p[4096];
        if (s_should_fail("fsync", s_fd_path(fd, p, sizeof p))) return -1;
    }
    return real(fd);
}

int rename(const char *from, const char *to) {
    static int (*real)(const char *, const char *);
    if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    if (s_armed("rename") && (s_match(from) || s_match(to)) && s_should_fail("rename", to)) return -1;
    return real(from, to);
}
