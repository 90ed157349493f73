#!/usr/bin/env bash
# check_man.sh SRC BINDIR: the man pages in man/ keep up with the programs.
#
# 1. Every long option (--[a-z-]+) that a program's --help prints is named in
#    its man page, man/PROG.1. For berthierctl that is the global --help and
#    every command's own help (berthierctl help COMMAND, each command the global
#    --help lists), so a new command's options are checked as soon as it lists
#    them. Options are compared as written: "\-\-key\-connections" in the page
#    source is --key-connections.
# 2. Every setting in the table of daemon/config.c (s_settings) is a setting of
#    man/berthierd.conf.5 (a ".B KEY" item) and a line "#KEY = ..." or
#    "KEY = ..." of the sample config systemd/berthierd.conf.
# 3. With groff installed, every page formats with no warning (groff -ww).
#
# An option found nowhere is never asked for: only what --help prints is
# checked. Exceptions, one "PROG --option" a line with why, go in EXCEPTIONS.
# Prints each miss as PROG: --option and exits 1 if there is any.
set -euo pipefail
SRC=${1:?usage: check_man.sh SRC BINDIR}
BIN=${2:?usage: check_man.sh SRC BINDIR}

# PROG --option: why the page need not name it. None today.
EXCEPTIONS='
'

bad=0
report() { echo "$1" >&2; bad=1; }

s_opts() { grep -o -- '--[a-z][a-z-]*' | sed 's/-*$//' | sort -u; }

# the long options a page's source names: \- is -, font changes and \& dropped
s_page_opts() {
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\&//g' "$1" | s_opts
}

s_help() {
  local prog=$1
  "$BIN/$prog" --help
  if [ "$prog" = berthierctl ]; then
    local cmds
    cmds=$("$BIN/$prog" --help | awk '/^Commands:/ { f = 1; next } f && /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }')
    [ -n "$cmds" ] || report "berthierctl: --help lists no commands"
    for c in $cmds; do "$BIN/$prog" help "$c"; done
  fi
}

checked=0
for prog in berthierd berthierctl berthier-bot berthier-match berthier-replay; do
  page="$SRC/man/$prog.1"
  [ -f "$page" ] || { report "$prog: no man page man/$prog.1"; continue; }
  [ -x "$BIN/$prog" ] || { report "$prog: not built in $BIN"; continue; }
  help_opts=$(s_help "$prog" | s_opts)
  [ -n "$help_opts" ] || report "$prog: --help prints no long option"
  page_opts=$(s_page_opts "$page")
  for o in $help_opts; do
    checked=$((checked + 1))
    grep -qx -- "$o" <<<"$page_opts" && continue
    grep -q "^$prog $o\( \|\$\)" <<<"$EXCEPTIONS" && continue
    report "$prog: $o is in --help but not in man/$prog.1"
  done
done

# the keys of s_settings[] in daemon/config.c: {"key", S_...
keys=$(awk '/s_settings\[\] = \{/ { f = 1; next } f && /^\};/ { f = 0 } f' "$SRC/daemon/config.c" |
  sed -n 's/^ *{"\([a-z][a-z-]*\)", *S_.*/\1/p')
[ -n "$keys" ] || report "daemon/config.c: no settings found in s_settings"
conf_items=$(sed -n -e 's/\\-/-/g' -e 's/^\.B  *\([a-z][a-z-]*\) *$/\1/p' "$SRC/man/berthierd.conf.5")
for k in $keys; do
  checked=$((checked + 1))
  grep -qx -- "$k" <<<"$conf_items" || report "berthierd.conf: $k is in daemon/config.c but not a setting of man/berthierd.conf.5"
  grep -Eq "^#? *$k *=" "$SRC/systemd/berthierd.conf" ||
    report "berthierd.conf: $k is in daemon/config.c but not in the sample systemd/berthierd.conf"
done

if command -v groff >/dev/null 2>&1; then
  for page in "$SRC"/man/*.[1-8]; do
    w=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
    [ -z "$w" ] || report "$(basename "$page"): groff warns: $w"
  done
fi

[ "$checked" -gt 0 ] || report "nothing was checked"
if [ "$bad" -eq 0 ]; then echo "man pages: $checked options and settings named"; fi
exit "$bad"
