#!/usr/bin/env bash
# check_links.sh SRC: every relative link in the repository's markdown names a
# file or directory that exists, and every docs/NAME.md (or rules/..., clients/...
# path ending in .md) cited in the markdown, the C sources and the Python package
# exists too. Prints each broken one as FILE:LINE: TARGET and exits 1 if any.
# A docs/orders.md cited by berthierctl --help while the file was missing is what
# this is for. Links to the web (scheme:), to anchors of the same page (#...) and
# into build trees are not checked.
set -euo pipefail
SRC=${1:-${BERTHIER_SRC:-.}}
cd "$SRC"
bad=0
report() { echo "$1: $2" >&2; bad=1; }

s_files() {
  # $1: -name patterns; prints paths relative to SRC, build trees and VCS left out
  find . \( -path ./.git -o -path './build*' -o -path '*/__pycache__' -o -path ./var \) -prune -o \
    -type f \( "$@" \) -print | sed 's|^\./||' | sort
}

# 1. [text](target) in markdown, relative to the file
while IFS= read -r f; do
  dir=$(dirname "$f")
  # one "LINE<TAB>TARGET" per link; inline code spans are dropped first
  while IFS=$'\t' read -r line target; do
    [ -n "$target" ] || continue
    case "$target" in
      *://*|mailto:*|\#*) continue ;;
    esac
    path=${target%%#*}
    path=${path%% *}
    [ -n "$path" ] || continue
    if [ "${path#/}" != "$path" ]; then full=".$path"; else full="$dir/$path"; fi
    [ -e "$full" ] || report "$f:$line" "$target"
  done < <(sed 's/`[^`]*`//g' "$f" | grep -n -o '\](\([^)]*\))' | sed 's/^\([0-9]*\):](\(.*\))$/\1\t\2/')
done < <(s_files -name '*.md')

# 2. repository paths of markdown files cited in prose and code (docs/x.md, rules/n20/README.md)
while IFS= read -r f; do
  [ "$f" != tests/tools/check_links.sh ] || continue   # its own examples
  while IFS=: read -r line ref; do
    [ -e "$ref" ] || report "$f:$line" "$ref"
  done < <(grep -n -o -E '(^|[^A-Za-z0-9_./-])(docs|rules|clients|tests|bench|daemon|core|proto|replay|scripts|systemd)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md' "$f" |
           sed -E 's/^([0-9]+):[^A-Za-z0-9_./-]?/\1:/')
done < <(s_files -name '*.md' -o -name '*.c' -o -name '*.h' -o -name '*.py' -o -name '*.sh' -o -name '*.txt' -o -name '*.proto')

if [ "$bad" = 0 ]; then echo "check_links: every link resolves"; fi
exit "$bad"
