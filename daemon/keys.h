/*
 * keys.h - the daemon's key files in the data dir, created on first start:
 *   server.pub  one line: the CurveZMQ server public key (Z85, 40 chars)
 *   server.key  two lines: "public <z85>", "secret <z85>"         (0600)
 *   sign.pub    one line: Ed25519 public key, 64 hex chars
 *   sign.key    one line: Ed25519 secret key, 128 hex chars       (0600)
 *   admin.pub   one line: an admin client public key (Z85)
 *   admin.key   two lines like server.key: the admin client keypair (0600)
 *   admin.keys  optional: more trusted admin public keys, one Z85 per line
 *   revoked.keys optional: revoked client and admin public keys, same format
 *
 * The access lists (admin.key's public key, admin.keys, revoked.keys) are
 * read again by keys_reload (SIGHUP); the server and signing keys only at
 * start. A revoked key is refused everywhere: it is no admin, and the request
 * socket admits it neither at the handshake nor request by request.
 */
#ifndef BERTHIERD_KEYS_H
#define BERTHIERD_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define KEYS_MAX_ADMINS 64

typedef struct bd_keys {
    uint8_t server_pk[32], server_sk[32];
    char server_pk_z85[41], server_sk_z85[41];
    uint8_t sign_pk[32], sign_sk[64];
    uint8_t admins[KEYS_MAX_ADMINS][32];
    size_t n_admins;
    uint8_t (*revoked)[32];   /* sorted (memcmp order), malloc'd */
    size_t n_revoked;
} bd_keys;

/* Load the keys from data_dir, creating missing keypairs. 0, or -1 with err. */
int keys_load(bd_keys *self, const char *data_dir, char *err, size_t errlen);

/* Read the access lists again (admin.key, admin.keys, revoked.keys) without
 * creating anything. All or nothing: on any error (err says which file and
 * line) the keys in force stay as they were. 0 or -1. */
int keys_reload(bd_keys *self, const char *data_dir, char *err, size_t errlen);

/* An admin key that is not revoked. */
int keys_is_admin(const bd_keys *self, const uint8_t key[32]);
int keys_is_revoked(const bd_keys *self, const uint8_t key[32]);

/* Event key of a seat's PUB stream:
 * BLAKE2b-256(key = sign_sk[0..32), "berthier-events-v1" || game_id || seat (u32 le)). */
void keys_event_key(const bd_keys *self, const char *game_id, unsigned seat, uint8_t out[32]);

/* Write `len` bytes to path atomically (tmp file, fsync, rename, fsync dir) with `mode`. */
int keys_write_file(const char *dir, const char *name, const char *text, int mode);

/* Free the revocation list and zero everything. */
void keys_wipe(bd_keys *self);

#endif
