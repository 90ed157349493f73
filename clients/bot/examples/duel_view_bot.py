#!/usr/bin/python3
"""An external duel bot that plays from the view (docs/bots.md, protocol 2).

It asks for protocol 2, so that every decision carries the seat's view (text
and JSON) and the events since its previous decision, and it chooses from
what it reads there:

- bid: a stake from its reserve, more when it is behind on points [D2];
- bank or press: it banks when the pot would win the game (its points plus the
  pot reach 20) or when the pot is already large; otherwise it presses [D4].

    berthier-bot ... --policy 'exec:clients/bot/examples/duel_view_bot.py'
    berthier-match ... --bots 'exec:clients/bot/examples/duel_view_bot.py,random'

With --report FILE it writes what it saw, one line per decision, for tests.
"""
import json
import sys

WIN = 20        # [D5]
BANK_AT = 8     # a pot it does not risk pressing


def read_block(lines, first):
    """One decision block of protocol 2, from its `decision` line to `go`."""
    block = {"head": first.split(), "view_text": [], "view": None, "events": [], "legal": []}
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("prompt "):
            block["prompt"] = line[7:]
        elif line.startswith("view "):
            block["view_text"] = [next(lines).rstrip("\n") for _ in range(int(line.split()[1]))]
        elif line.startswith("view-json "):
            block["view"] = json.loads(line[10:])
        elif line.startswith("events "):
            for _ in range(int(line.split()[1])):
                head = next(lines).rstrip("\n").split(" ", 3)        # event SEQ INDEX TEXT
                data = json.loads(next(lines).rstrip("\n")[len("event-json "):])
                block["events"].append({"seq": int(head[1]), "text": head[3] if len(head) > 3 else "",
                                        "data": data})
        elif line.startswith("legal "):
            block["legal"] = [next(lines).rstrip("\n") for _ in range(int(line.split()[1]))]
        elif line == "go":
            return block
    return None


def choose(block, seat):
    kind = block["head"][block["head"].index("kind") + 1]
    view = block["view"] or {}
    legal = block["legal"]
    scores = view.get("scores", [])
    mine = scores[seat] if seat < len(scores) else 0
    if kind == "bid":
        reserve = view.get("reserves", [0] * (seat + 1))[seat]
        behind = max(scores) - mine if scores else 0
        want = 3 if behind >= 5 else 2
        for bid in range(min(want, reserve), -1, -1):
            if "bid %d" % bid in legal:
                return "bid %d" % bid, "bid %d (reserve %d, behind %d)" % (bid, reserve, behind)
    if kind == "bank-or-press":
        pot = view.get("pot", 0)
        if mine + pot >= WIN or pot >= BANK_AT:
            return "bank", "bank (points %d, pot %d)" % (mine, pot)
        return "press", "press (points %d, pot %d)" % (mine, pot)
    return "@0", "first listed order"


def main(argv):
    report = open(argv[argv.index("--report") + 1], "w") if "--report" in argv else None
    lines = iter(sys.stdin.readline, "")
    if next(lines).rstrip("\n") != "berthier-bots 1":
        return 3
    next(lines)                                   # game <id> <ruleset> <scenario>
    seat = int(next(lines).split()[1])            # seat <seat> of <n>
    print("protocol 2", flush=True)
    for line in lines:                            # skip what was sent before the answer
        if line.rstrip("\n") == "protocol 2 ok":
            break
        if line.startswith("rejected "):          # a runner that speaks protocol 1 only
            return 4
    else:
        return 0
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("decision "):
            block = read_block(lines, line)
            if block is None:
                break
            answer, why = choose(block, seat)
            if report:
                report.write("decision %s view %s events %d json-events %d: %s\n" % (
                    block["head"][1], "json" if isinstance(block["view"], dict) else "none",
                    len(block["events"]), sum(1 for e in block["events"] if isinstance(e["data"], dict)), why))
                report.flush()
            print(answer, flush=True)
        elif line.startswith("rejected "):
            if report:
                report.write("%s\n" % line)
        elif line.startswith("end "):
            if report:
                report.write("%s\n" % line)
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
