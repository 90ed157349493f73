/*
 * berthier-bot - play one seat of a game to its end.
 *
 *   berthier-bot [--data-dir DIR | --connect ENDPOINT --server-key KEY] --key SEAT.key
 *                --game ID --seat N [--policy random|greedy|exec:PROGRAM] [--seed S]
 *                [--ruleset R] [--verbose]
 *
 * Exit: 0 the game ended (the result is printed), 1 the bot stopped before the
 * end, 2 usage, 3 no reply from the daemon.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"

static void s_usage(FILE *f) {
    char pols[128];
    bot_policy_list(pols, sizeof pols);
    fprintf(f,
            "usage: berthier-bot [--data-dir DIR | --connect ENDPOINT --server-key KEY] --key FILE\n"
            "                    --game ID --seat N [--policy P] [--seed S] [--ruleset R] [--verbose]\n"
            "                    [--protocol new|old]\n"
            "\n"
            "Plays seat N of game ID until the game ends, then prints the result.\n"
            "  --policy P     %s (default random)\n"
            "  --seed S       seed of the bot's own generator (default: from the clock)\n"
            "  --ruleset R    the game's ruleset, for policies that need one (default: asked)\n"
            "  --events EP    the daemon's PUB endpoint (default beside an ipc endpoint)\n"
            "  --max-illegal N  rejected orders in a row before the bot resigns (default 3)\n"
            "  --verbose      print every order to stderr\n"
            "  --receipts FILE  append the daemon's receipts to FILE (default\n"
            "                 $BERTHIER_RECEIPTS_DIR/ID.receipts, directory ./receipts; - keeps none)\n"
            "  --protocol P   new (default): one round trip per order, the reply to an order bringing\n"
            "                 the next decision and its legal orders (docs/protocol.md P4.3); old:\n"
            "                 pending, legal and submit, one request each\n"
            "Exit: 0 the game ended; 1 stopped early; 2 usage; 3 no reply from the daemon.\n",
            pols);
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        {"data-dir", required_argument, NULL, 'D'}, {"connect", required_argument, NULL, 'c'},
        {"events", required_argument, NULL, 'e'},   {"server-key", required_argument, NULL, 's'},
        {"key", required_argument, NULL, 'k'},      {"game", required_argument, NULL, 'g'},
        {"seat", required_argument, NULL, 'n'},     {"policy", required_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 'S'},     {"ruleset", required_argument, NULL, 'r'},
        {"max-illegal", required_argument, NULL, 'm'}, {"verbose", no_argument, NULL, 'v'},
        {"receipts", required_argument, NULL, 'R'}, {"protocol", required_argument, NULL, 'Q'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    brt_connect_opts conn = {0};
    bot_params p;
    memset(&p, 0, sizeof p);
    p.policy = "random";
    p.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    int have_seat = 0, ch;
    while ((ch = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
        char *end = NULL;
        switch (ch) {
        case 'D': conn.data_dir = optarg; break;
        case 'c': conn.endpoint = optarg; break;
        case 'e': conn.events_endpoint = optarg; break;
        case 's': conn.server_key = optarg; break;
        case 'k': conn.key_file = optarg; break;
        case 'g': p.game_id = optarg; break;
        case 'n':
            p.seat = (unsigned)strtoul(optarg, &end, 10);
            if (!end || *end || p.seat > 7) {
                fprintf(stderr, "berthier-bot: bad --seat %s\n", optarg);
                return 2;
            }
            have_seat = 1;
            break;
        case 'p': p.policy = optarg; break;
        case 'S': p.seed = strtoull(optarg, NULL, 0); break;
        case 'r': p.ruleset = optarg; break;
        case 'm': p.max_illegal = atoi(optarg); break;
        case 'v': p.verbose = 1; break;
        case 'R': p.receipts = optarg; break;
        case 'Q':
            if (strcmp(optarg, "old") != 0 && strcmp(optarg, "new") != 0) {
                fprintf(stderr, "berthier-bot: --protocol: new or old\n");
                return 2;
            }
            p.old_protocol = strcmp(optarg, "old") == 0;
            break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (optind != argc || !p.game_id || !have_seat || !conn.key_file) {
        fprintf(stderr, "berthier-bot: --key, --game and --seat are required\n");
        s_usage(stderr);
        return 2;
    }
    const char *arg;
    if (!bot_policy_find(p.policy, &arg)) {
        fprintf(stderr, "berthier-bot: unknown policy %s\n", p.policy);
        return 2;
    }
    brt_client *c = brt_client_open(&conn);
    if (!c) {
        fprintf(stderr, "berthier-bot: %s\n", brt_client_last_error());
        return 3;
    }
    p.client = c;
    char label[64];
    snprintf(label, sizeof label, "seat %u", p.seat);
    p.label = label;
    /* The ruleset, for policies that need it: from the game list (seats see their games). */
    char ruleset[64] = "", scenario[64] = "";
    const Berthier__V1__GameList *gl = NULL;
    if (!p.ruleset && brt_client_games(c, &gl) == 0) {
        for (size_t i = 0; i < gl->n_games; i++)
            if (strcmp(gl->games[i]->game_id, p.game_id) == 0) {
                snprintf(ruleset, sizeof ruleset, "%s", gl->games[i]->ruleset);
                snprintf(scenario, sizeof scenario, "%s", gl->games[i]->scenario);
            }
        if (ruleset[0]) p.ruleset = ruleset;
        if (scenario[0]) p.scenario = scenario;
    }
    p.n_seats = 2;
    bot_outcome out;
    int rc = bot_play(&p, &out);
    if (rc == 0) {
        Berthier__V1__Result r = BERTHIER__V1__RESULT__INIT;
        uint32_t w[32];
        size_t nw = 0;
        for (unsigned i = 0; i < 32; i++)
            if (out.winners & (1u << i)) w[nw++] = i;
        r.ended = 1;
        r.winners = w;
        r.n_winners = nw;
        r.level = out.level;
        r.reason = out.reason;
        char line[512];
        bot_result_line(&r, line, sizeof line);
        printf("game %s seat %u: %s; turn %u, seq %" PRIu64 ", %u orders by this seat, %u requests\n",
               p.game_id, p.seat, line, out.turn, out.seq, out.orders, out.requests);
    } else {
        fprintf(stderr, "berthier-bot: %s\n", out.error);
    }
    brt_client_destroy(&c);
    if (rc == 0) return 0;
    return strncmp(out.error, "pending: no reply", 17) == 0 || strstr(out.error, "no reply") ? 3 : 1;
}
