#!/usr/bin/python3
"""An external Napoleonic 20 bot that plays from the view (docs/bots.md, protocol 2).

In a movement decision it reads every unit's side, status and hex from the
view's JSON and prefers the listed move that ends nearest to an enemy unit on
the map, as long as that brings the unit closer than it was; when no move
does, it ends the phase. Every other decision takes the first listed order.

    berthier-bot ... --policy 'exec:clients/bot/examples/n20_view_bot.py'

With --report FILE it writes one line per decision, for tests.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from duel_view_bot import read_block  # noqa: E402  (the protocol 2 block reader)


def cube(h):
    """View hexes are CCRR numbers (0504 = column 5, row 4); odd columns shifted down."""
    c, r = h // 100, h % 100
    z = r - (c - (c & 1)) // 2
    return c, -c - z, z


def distance(a, b):
    (ax, ay, az), (bx, by, bz) = cube(a), cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def choose(block):
    kind = block["head"][block["head"].index("kind") + 1]
    view, legal = block["view"], block["legal"]
    if kind != "move" or not isinstance(view, dict):
        return "@0", "first listed order"
    mine = view["phasing"]
    on_map = [u for u in view["units"] if u["status"] == "map" and not u.get("hidden")]
    enemies = [u["hex"] for u in on_map if u["side"] != mine]
    where = {u["id"]: u["hex"] for u in on_map if u["side"] == mine}
    if not enemies:
        return ("end" if "end" in legal else "@0"), "no enemy in sight"
    best = None
    for order in legal:
        words = order.split()
        if len(words) < 3 or words[0] != "move" or words[1] not in where:
            continue
        to = int(words[-1])
        gain = min(distance(where[words[1]], e) for e in enemies) - min(distance(to, e) for e in enemies)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, order)
    if best:
        return best[1], "closer by %d" % best[0]
    return ("end" if "end" in legal else "@0"), "no move brings a unit closer"


def main(argv):
    report = open(argv[argv.index("--report") + 1], "w") if "--report" in argv else None
    lines = iter(sys.stdin.readline, "")
    if next(lines).rstrip("\n") != "berthier-bots 1":
        return 3
    next(lines)
    next(lines)
    print("protocol 2", flush=True)
    for line in lines:
        if line.rstrip("\n") == "protocol 2 ok":
            break
        if line.startswith("rejected "):
            return 4
    else:
        return 0
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("decision "):
            block = read_block(lines, line)
            if block is None:
                break
            answer, why = choose(block)
            if report:
                report.write("decision %s %s: %s: %s\n" % (block["head"][1], block["head"][5], answer, why))
                report.flush()
            print(answer, flush=True)
        elif line.startswith("rejected ") and report:
            report.write("%s\n" % line)
        elif line.startswith("end "):
            if report:
                report.write("%s\n" % line)
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
