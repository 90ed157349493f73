/* keys.c - create and load the daemon's key files (see keys.h). */
#include "keys.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#define S_EVENTS_TAG "berthier-events-v1"

static int s_read_small(const char *dir, const char *name, char *out, size_t max) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 1 : -1;
    ssize_t n = read(fd, out, max - 1);
    close(fd);
    if (n < 0) return -1;
    out[n] = 0;
    return 0;
}

int keys_write_file(const char *dir, const char *name, const char *text, int mode) {
    char path[1024], tmp[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) return -1;
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len || fchmod(fd, (mode_t)mode) != 0 || fsync(fd) != 0) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return -1;
    int rc = fsync(dfd);
    close(dfd);
    return rc;
}

/* "public <z85>\nsecret <z85>\n" */
static int s_parse_curve(const char *text, uint8_t pk[32], uint8_t sk[32]) {
    char pub[64], sec[64];
    if (sscanf(text, "public %63s secret %63s", pub, sec) != 2) return -1;
    if (strlen(pub) != 40 || strlen(sec) != 40) return -1;
    if (!zmq_z85_decode(pk, pub) || !zmq_z85_decode(sk, sec)) return -1;
    uint8_t derived[32];
    if (crypto_scalarmult_base(derived, sk) != 0 || memcmp(derived, pk, 32) != 0) return -1;
    return 0;
}

static int s_curve_pair(const char *dir, const char *base, uint8_t pk[32], uint8_t sk[32],
                        char *err, size_t errlen) {
    char name[64], text[512];
    snprintf(name, sizeof name, "%s.key", base);
    int rc = s_read_small(dir, name, text, sizeof text);
    if (rc < 0) {
        snprintf(err, errlen, "cannot read %s/%s: %s", dir, name, strerror(errno));
        return -1;
    }
    if (rc == 0) {
        if (s_parse_curve(text, pk, sk) != 0) {
            snprintf(err, errlen, "%s/%s: expected lines 'public <z85>' and 'secret <z85>' of one keypair",
                     dir, name);
            return -1;
        }
    } else {
        char pz[41], sz[41];
        if (zmq_curve_keypair(pz, sz) != 0 || !zmq_z85_decode(pk, pz) || !zmq_z85_decode(sk, sz)) {
            snprintf(err, errlen, "cannot make a CURVE keypair (libzmq without CURVE?)");
            return -1;
        }
        snprintf(text, sizeof text, "public %s\nsecret %s\n", pz, sz);
        int w = keys_write_file(dir, name, text, 0600);
        sodium_memzero(text, sizeof text);
        sodium_memzero(sz, sizeof sz);
        if (w != 0) {
            snprintf(err, errlen, "cannot write %s/%s: %s", dir, name, strerror(errno));
            return -1;
        }
    }
    /* The .pub file always mirrors the keypair. */
    char pz[41], pubtext[64], cur[128];
    zmq_z85_encode(pz, pk, 32);
    snprintf(pubtext, sizeof pubtext, "%s\n", pz);
    snprintf(name, sizeof name, "%s.pub", base);
    if (s_read_small(dir, name, cur, sizeof cur) != 0 || strcmp(cur, pubtext) != 0) {
        if (keys_write_file(dir, name, pubtext, 0644) != 0) {
            snprintf(err, errlen, "cannot write %s/%s: %s", dir, name, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int s_sign_pair(bd_keys *self, const char *dir, char *err, size_t errlen) {
    char text[512];
    int rc = s_read_small(dir, "sign.key", text, sizeof text);
    if (rc < 0) {
        snprintf(err, errlen, "cannot read %s/sign.key: %s", dir, strerror(errno));
        return -1;
    }
    if (rc == 0) {
        size_t n = 0;
        const char *end = NULL;
        if (sodium_hex2bin(self->sign_sk, 64, text, strlen(text), " \r\n", &n, &end) != 0 ||
            n != 64) {
            snprintf(err, errlen, "%s/sign.key: expected 128 hex characters", dir);
            return -1;
        }
        crypto_sign_ed25519_sk_to_pk(self->sign_pk, self->sign_sk);
    } else {
        crypto_sign_keypair(self->sign_pk, self->sign_sk);
        char hex[129 + 1];
        sodium_bin2hex(hex, 129, self->sign_sk, 64);
        snprintf(text, sizeof text, "%s\n", hex);
        int w = keys_write_file(dir, "sign.key", text, 0600);
        sodium_memzero(text, sizeof text);
        sodium_memzero(hex, sizeof hex);
        if (w != 0) {
            snprintf(err, errlen, "cannot write %s/sign.key: %s", dir, strerror(errno));
            return -1;
        }
    }
    char hex[65], pubtext[80], cur[128];
    sodium_bin2hex(hex, sizeof hex, self->sign_pk, 32);
    snprintf(pubtext, sizeof pubtext, "%s\n", hex);
    if (s_read_small(dir, "sign.pub", cur, sizeof cur) != 0 || strcmp(cur, pubtext) != 0) {
        if (keys_write_file(dir, "sign.pub", pubtext, 0644) != 0) {
            snprintf(err, errlen, "cannot write %s/sign.pub: %s", dir, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int s_add_admin(bd_keys *self, const uint8_t pk[32]) {
    if (keys_is_admin(self, pk)) return 0;
    if (self->n_admins >= KEYS_MAX_ADMINS) return -1;
    memcpy(self->admins[self->n_admins++], pk, 32);
    return 0;
}

int keys_load(bd_keys *self, const char *dir, char *err, size_t errlen) {
    memset(self, 0, sizeof *self);
    if (sodium_init() < 0) {
        snprintf(err, errlen, "libsodium failed to initialise");
        return -1;
    }
    if (s_curve_pair(dir, "server", self->server_pk, self->server_sk, err, errlen) != 0) return -1;
    zmq_z85_encode(self->server_pk_z85, self->server_pk, 32);
    zmq_z85_encode(self->server_sk_z85, self->server_sk, 32);
    if (s_sign_pair(self, dir, err, errlen) != 0) return -1;
    uint8_t apk[32], ask[32];
    if (s_curve_pair(dir, "admin", apk, ask, err, errlen) != 0) return -1;
    sodium_memzero(ask, sizeof ask);
    s_add_admin(self, apk);
    /* Optional extra admin keys. */
    char path[1024];
    snprintf(path, sizeof path, "%s/admin.keys", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        char line[256];
        int lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            char *p = line;
            while (*p == ' ' || *p == '\t') p++;
            size_t n = strcspn(p, " \t\r\n#");
            if (n == 0) continue;
            p[n] = 0;
            uint8_t pk[32];
            if (n != 40 || !zmq_z85_decode(pk, p)) {
                fclose(f);
                snprintf(err, errlen, "%s line %d: not a Z85 public key", path, lineno);
                return -1;
            }
            if (s_add_admin(self, pk) != 0) {
                fclose(f);
                snprintf(err, errlen, "%s: more than %d admin keys", path, KEYS_MAX_ADMINS);
                return -1;
            }
        }
        fclose(f);
    }
    return 0;
}

int keys_is_admin(const bd_keys *self, const uint8_t key[32]) {
    for (size_t i = 0; i < self->n_admins; i++)
        if (sodium_memcmp(self->admins[i], key, 32) == 0) return 1;
    return 0;
}

void keys_event_key(const bd_keys *self, const char *game_id, unsigned seat, uint8_t out[32]) {
    crypto_generichash_state st;
    crypto_generichash_init(&st, self->sign_sk, 32, 32);
    crypto_generichash_update(&st, (const uint8_t *)S_EVENTS_TAG, strlen(S_EVENTS_TAG));
    crypto_generichash_update(&st, (const uint8_t *)game_id, strlen(game_id));
    uint8_t le[4] = {(uint8_t)seat, (uint8_t)(seat >> 8), (uint8_t)(seat >> 16),
                     (uint8_t)(seat >> 24)};
    crypto_generichash_update(&st, le, 4);
    crypto_generichash_final(&st, out, 32);
}

void keys_wipe(bd_keys *self) { sodium_memzero(self, sizeof *self); }
