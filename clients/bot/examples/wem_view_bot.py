#!/usr/bin/python3
"""An external Waterloo: Enemy Mistakes bot that reads the view (docs/bots.md, protocol 2).

At every decision it reads the seat's wem.v1.View from the view's JSON: its own units on the field
(blue is seat 0; red seat 1, and black too with two seats; black seat 2) and the enemy's, and the
nearest enemy to any of its units, in millimetres (positions are in 1/20 mm). It takes a listed
order that ends the phase ("done") when its nearest enemy is more than 12 units of measurement
(360 mm) away and the decision allows it, else the first listed order.

    berthier-bot ... --policy 'exec:clients/bot/examples/wem_view_bot.py'

With --report FILE it writes one line per decision, for tests.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from duel_view_bot import read_block  # noqa: E402  (the protocol 2 block reader)

ARMIES = {0: {0}, 1: {1, 2}, 2: {2}}


def nearest_mm(view, seat, n_seats):
    mine = ARMIES[seat] if not (seat == 1 and n_seats == 3) else {1}
    units = [u for u in view.get("units", []) if u.get("status", 0) == 0 and "pose" in u]
    own = [u for u in units if u.get("army", 0) in mine]
    foe = [u for u in units if (u.get("army", 0) == 0) != (0 in mine)]
    best = None
    for a in own:
        for b in foe:
            dx = a["pose"].get("x", 0) - b["pose"].get("x", 0)
            dy = a["pose"].get("y", 0) - b["pose"].get("y", 0)
            d = (dx * dx + dy * dy) ** 0.5 / 20
            best = d if best is None or d < best else best
    return len(own), len(foe), best


def main(argv):
    report = open(argv[argv.index("--report") + 1], "w") if "--report" in argv else None
    lines = iter(sys.stdin.readline, "")
    if next(lines).rstrip("\n") != "berthier-bots 1":
        return 3
    next(lines)
    seat_line = next(lines).split()
    seat = int(seat_line[1]) if len(seat_line) > 1 else 0
    n_seats = int(seat_line[3]) if len(seat_line) > 3 else 2
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
            view, legal = block["view"], block["legal"]
            answer, why = "@0", "first listed order"
            if isinstance(view, dict):
                own, foe, near = nearest_mm(view, seat, n_seats)
                why = "units %d enemies %d nearest %s mm" % (own, foe, "-" if near is None else "%.0f" % near)
                if near is not None and near > 360 and "done" in legal:
                    answer = "done"
            else:
                why = "no view"
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
    sys.exit(main(sys.argv))
