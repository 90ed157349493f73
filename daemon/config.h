/*
 * config.h - berthierd's settings: built-in defaults, then the config file
 * (`key = value` lines, `#` comments), then the command line. The command
 * line and the file share one table of settings (config.c).
 */
#ifndef BERTHIERD_CONFIG_H
#define BERTHIERD_CONFIG_H

#include <stddef.h>

#define CONFIG_PATH_MAX 512

typedef struct bd_config {
    char data_dir[CONFIG_PATH_MAX];  /* data-dir: default $STATE_DIRECTORY or ./var/berthier */
    char listen[CONFIG_PATH_MAX];    /* listen: default ipc://<data-dir>/berthier.sock */
    char publish[CONFIG_PATH_MAX];   /* publish: default ipc://<data-dir>/events.sock */
    char config[CONFIG_PATH_MAX];    /* --config FILE ("" = none) */
    size_t max_message;              /* max-message: a larger request gets CODE_TOO_LARGE */
    int hwm;                         /* hwm: send and receive high-water marks (messages) */
    int heartbeat_ms;                /* heartbeat: ZMTP heartbeat interval; timeout is 3x */
    unsigned batch;                  /* batch: most requests taken in one commit round */
    unsigned rate;                   /* rate: requests per second per client key (0 = no limit) */
    unsigned burst;                  /* burst: bucket size of the rate limit */
    unsigned share;                  /* share: most frames of one key in a shared commit round */
    size_t dedupe;                   /* dedupe: remembered replies for retries */
    unsigned abuse_malformed;        /* abuse-malformed: malformed frames per window before a cut (0 = off) */
    unsigned abuse_busy;             /* abuse-busy: BUSY refusals per window before a cut (0 = off) */
    unsigned abuse_window;           /* abuse-window: the window, in seconds */
    unsigned ban_seconds;            /* ban-seconds: how long a cut key fails the handshake (0 = no ban) */
    size_t reply_budget;             /* reply-budget: unsent reply bytes per connection (0 = no bound) */
    size_t key_reply_budget;         /* key-reply-budget: unsent reply bytes per key (0 = no bound) */
    unsigned key_connections;        /* key-connections: live connections served per key (0 = no cap) */
    unsigned journal;                /* journal: 1 = one shared journal fdatasync per commit round
                                      * (daemon/journal.c), 0 = an fdatasync of every touched log */
    size_t journal_size;             /* journal-size: past it, the logs are fdatasynced and the journal cut */
    unsigned reveal_deadline_ms;     /* reveal-deadline: dice=contributory games without a clock: a seat
                                      * that has not revealed its nonce by then forfeits (0 = never) */
    int help;
    int version;
} bd_config;

/* Defaults (data_dir from $STATE_DIRECTORY when state_directory is not NULL). */
void config_defaults(bd_config *self, const char *state_directory);

/* Set one setting by its config-file key. 0, or -1 with err filled. */
int config_set(bd_config *self, const char *key, const char *value, char *err, size_t errlen);

/* Parse the text of a config file. 0, or -1 with err naming the line. */
int config_parse_text(bd_config *self, const char *text, char *err, size_t errlen);

/* Defaults, then --config FILE, then the other flags; fills the endpoints
 * that depend on the data dir. 0, or -1 with err filled. */
int config_from_args(bd_config *self, int argc, char **argv, const char *state_directory,
                     char *err, size_t errlen);

/* The --help text. */
const char *config_usage(void);

#endif
