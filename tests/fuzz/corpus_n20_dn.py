#!/usr/bin/env python3
"""Writes the seed corpora of the Danube 20 rules fuzz targets (rules_n20_ae, rules_n20_wagram,
rules_n20_mf) from a fixed generator, so that they can be made again: the first 32 bytes are the
game's seed, then one byte per order (fuzz_rules.c). `long-legal` plays legal orders only, long
enough to go past the set-up decisions (the crossing site, the Austrian deployment) into battles,
retreats and advances; `mixed-raw` sends some raw orders too (bytes with the high bit set);
`random1`-`random4` are shorter games of legal orders; `zeros` always takes the first legal order.
Usage: tests/fuzz/corpus_n20_dn.py [tests/fuzz/corpus]"""
import os
import random
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
for k, name in enumerate(("rules_n20_ae", "rules_n20_wagram", "rules_n20_mf")):
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    rng = random.Random(20 + k)
    files = {
        "long-legal": bytes(rng.randrange(0, 128) for _ in range(4032)),
        "mixed-raw": bytes(rng.randrange(0, 256) if rng.randrange(10) == 0 else rng.randrange(0, 128)
                           for _ in range(1200)),
        "zeros": bytes(300),
    }
    for i, n in enumerate((400, 800, 1600, 2400)):
        files["random%d" % (i + 1)] = bytes(rng.randrange(0, 128) for _ in range(n))
    for f, b in files.items():
        with open(os.path.join(d, f), "wb") as out:
            out.write(b)
