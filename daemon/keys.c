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

/* A list file: one Z85 public key per line, blank lines and '#' comments.
 * A missing file is an empty list. 0, or -1 with err naming the file and line. */
static int s_read_keylist(const char *dir, const char *name, uint8_t (**out)[32], size_t *count, char *err,
                          size_t errlen) {
    *out = NULL;
    *count = 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t (*list)[32] = NULL;
    size_t n = 0, cap = 0;
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s line %d: longer than %zu characters", path, lineno, sizeof line - 2);
            goto fail;
        }
        /* '#' is a Z85 character: a comment starts a line or follows a blank. */
        char *p = line + strspn(line, " \t");
        if (*p == '#') continue;
        size_t len = strcspn(p, " \t\r\n");
        if (len == 0) continue;
        char *rest = p + len + strspn(p + len, " \t\r\n");
        p[len] = 0;
        uint8_t pk[32];
        if (len != 40 || (*rest && *rest != '#') || !zmq_z85_decode(pk, p)) {
            snprintf(err, errlen, "%s line %d: not a Z85 public key", path, lineno);
            goto fail;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            uint8_t (*nl)[32] = realloc(list, ncap * sizeof *nl);
            if (!nl) {
                snprintf(err, errlen, "%s: out of memory", path);
                goto fail;
            }
            list = nl;
            cap = ncap;
        }
        memcpy(list[n++], pk, 32);
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s", path);
        goto fail;
    }
    fclose(f);
    *out = list;
    *count = n;
    return 0;
fail:
    fclose(f);
    free(list);
    return -1;
}

static int s_cmp_key(const void *a, const void *b) { return memcmp(a, b, 32); }

static int s_in(const uint8_t (*list)[32], size_t n, const uint8_t key[32]) {
    for (size_t i = 0; i < n; i++)
        if (sodium_memcmp(list[i], key, 32) == 0) return 1;
    return 0;
}

/* Read admin.keys and revoked.keys; with the main admin key `apk`, install
 * them in place of the lists in force. All or nothing. */
static int s_load_access(bd_keys *self, const char *dir, const uint8_t apk[32], char *err, size_t errlen) {
    uint8_t admins[KEYS_MAX_ADMINS][32];
    size_t n_admins = 0;
    memcpy(admins[n_admins++], apk, 32);
    uint8_t (*extra)[32] = NULL, (*revoked)[32] = NULL;
    size_t n_extra = 0, n_revoked = 0;
    if (s_read_keylist(dir, "admin.keys", &extra, &n_extra, err, errlen) != 0) return -1;
    for (size_t i = 0; i < n_extra; i++) {
        if (s_in((const uint8_t(*)[32])admins, n_admins, extra[i])) continue;
        if (n_admins >= KEYS_MAX_ADMINS) {
            free(extra);
            snprintf(err, errlen, "%s/admin.keys: more than %d admin keys", dir, KEYS_MAX_ADMINS);
            return -1;
        }
        memcpy(admins[n_admins++], extra[i], 32);
    }
    free(extra);
    if (s_read_keylist(dir, "revoked.keys", &revoked, &n_revoked, err, errlen) != 0) return -1;
    if (n_revoked) {
        qsort(revoked, n_revoked, sizeof *revoked, s_cmp_key);
        size_t k = 1;
        for (size_t i = 1; i < n_revoked; i++)
            if (memcmp(revoked[i], revoked[k - 1], 32) != 0) memcpy(revoked[k++], revoked[i], 32);
        n_revoked = k;
    }
    memcpy(self->admins, admins, sizeof admins);
    self->n_admins = n_admins;
    free(self->revoked);
    self->revoked = revoked;
    self->n_revoked = n_revoked;
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
    return s_load_access(self, dir, apk, err, errlen);
}

int keys_reload(bd_keys *self, const char *dir, char *err, size_t errlen) {
    char text[512];
    int rc = s_read_small(dir, "admin.key", text, sizeof text);
    if (rc != 0) {
        snprintf(err, errlen, "cannot read %s/admin.key: %s", dir, rc > 0 ? "no such file" : strerror(errno));
        return -1;
    }
    uint8_t apk[32], ask[32];
    rc = s_parse_curve(text, apk, ask);
    sodium_memzero(text, sizeof text);
    sodium_memzero(ask, sizeof ask);
    if (rc != 0) {
        snprintf(err, errlen, "%s/admin.key: expected lines 'public <z85>' and 'secret <z85>' of one keypair", dir);
        return -1;
    }
    return s_load_access(self, dir, apk, err, errlen);
}

int keys_is_revoked(const bd_keys *self, const uint8_t key[32]) {
    return self->n_revoked && bsearch(key, self->revoked, self->n_revoked, sizeof *self->revoked, s_cmp_key) != NULL;
}

int keys_is_admin(const bd_keys *self, const uint8_t key[32]) {
    if (keys_is_revoked(self, key)) return 0;
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

void keys_wipe(bd_keys *self) {
    free(self->revoked);
    sodium_memzero(self, sizeof *self);
}
