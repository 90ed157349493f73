#!/usr/bin/env python3
"""check_svg.py SRC: every committed picture (tests/golden/*.svg, docs/img/*.svg) parses as
XML with python3's xml.etree, has the board root the viewers rely on (docs/render.md:
<svg class="brt-board" data-ruleset=...> with integer width, height and viewBox), and each
counter group <g class="counter"> has id "u-ID" and data-unit="ID". Exits 1 on the first
picture that does not."""
import glob
import os
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def check(path):
    root = ET.parse(path).getroot()
    if root.tag != NS + "svg":
        return "root is not an SVG <svg>"
    if "brt-board" not in root.get("class", "").split() or not root.get("data-ruleset"):
        return "root lacks class brt-board or data-ruleset"
    for attr in ("width", "height"):
        if not root.get(attr, "").isdigit():
            return "root %s is not an integer" % attr
    if not all(p.lstrip("-").isdigit() for p in root.get("viewBox", "").split()):
        return "viewBox is not integers"
    counters = 0
    for g in root.iter(NS + "g"):
        if "counter" in g.get("class", "").split():
            counters += 1
            unit = g.get("data-unit")
            if not unit or g.get("id") != "u-" + unit:
                return "counter without id u-ID / data-unit ID: %r" % g.attrib
    return None


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BERTHIER_SRC", ".")
    files = sorted(glob.glob(os.path.join(src, "tests/golden/*.svg")) + glob.glob(os.path.join(src, "docs/img/*.svg")))
    if not files:
        print("no pictures found under %s" % src, file=sys.stderr)
        return 1
    for f in files:
        try:
            err = check(f)
        except ET.ParseError as e:
            err = "not well-formed XML: %s" % e
        if err:
            print("%s: %s" % (f, err), file=sys.stderr)
            return 1
    print("%d pictures checked" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
