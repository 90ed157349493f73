"""Print what a berthierd offers: each ruleset's scenarios, their seats and the
options each takes, and the core's options (hello, docs/protocol.md).

    /usr/bin/python3 -m berthier.rulesets --data-dir var/berthier [--key KEY]

Any key the daemon admits may ask (the data dir's admin key by default).
"""

import argparse
import sys

from .client import Client, DataDirError, Timeout


def format_rulesets(infos, core_options):
    """The lines `berthierctl rulesets` prints, from Client.rulesets()."""
    out = []
    for ri in infos:
        out.append("ruleset %s %s" % (ri.id, ri.version))
        for sc in ri.scenarios:
            seats = ("%d seats" % sc.max_seats if sc.min_seats == sc.max_seats
                     else "%d to %d seats" % (sc.min_seats, sc.max_seats))
            out.append("  scenario %s: %s (seat 0..): %s" % (sc.name, seats, ", ".join(sc.seat_names) or "none"))
            out.append("    options: %s" % (", ".join(sc.options) or "none"))
    out.append("core options (every ruleset): %s" % (", ".join(core_options) or "none"))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m berthier.rulesets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", help="the daemon's data dir (server.pub, sockets, admin.key)")
    ap.add_argument("--connect", "--endpoint", dest="endpoint",
                    help="request endpoint, ipc://PATH or tcp://HOST:PORT (default ipc://<data-dir>/berthier.sock)")
    ap.add_argument("--server-key", help="the daemon's Z85 public key (default <data-dir>/server.pub)")
    ap.add_argument("--key", "--key-file", dest="key", help="key file to connect with (default <data-dir>/admin.key)")
    ap.add_argument("--timeout", type=int, default=30000, metavar="MS",
                    help="give up after MS without a reply (default 30000), as berthierctl --timeout")
    a = ap.parse_args(argv)
    try:
        c = Client(endpoint=a.endpoint, data_dir=a.data_dir, key_file=a.key, server_key=a.server_key,
                   timeout=min(a.timeout, 2000) / 1000.0, retries=max(0, -(-a.timeout // 2000) - 1))
    except (DataDirError, ValueError) as e:
        print("berthier.rulesets: %s" % e, file=sys.stderr)
        return 4
    try:
        infos, core = c.rulesets()
        print("\n".join(format_rulesets(infos, core)))
        return 0
    except Timeout as e:
        print("berthier.rulesets: %s" % e, file=sys.stderr)
        return 3
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
