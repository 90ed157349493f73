#!/bin/bash
# [issue 12] The install that packagers accept. `cmake --install` of the build tree (already
# built: nothing is rebuilt) into a temporary prefix must give:
# - every program (berthierd, berthier-replay, berthierctl, berthier-bot, berthier-match) and
#   not the test-only ones (berthierd-faulty, berthier-bench, berthier-selfplay);
# - the client library (static and shared), every public header including each ruleset's
#   generated protobuf-c header, the .proto files, the docs, a sample config file that the
#   installed daemon reads, and a man page for every program and the config file that groff
#   formats without a warning;
# - a pkg-config file naming the prefix installed to, against which an outside C program
#   (tests/e2e/install_consumer.c: client.h and the n20 View) builds and runs;
# - a systemd unit whose ExecStart is the installed berthierd and that passes
#   `systemd-analyze verify` (skipped, saying so, where systemd-analyze cannot run).
# Then the build tree's berthier-uninstalled.pc, and the pkg-config file and unit for the
# configured prefixes /usr, /usr/local and /opt/berthier (configure only, no build: the
# pkgconfig and systemd install components need none).
# On the old tree: berthierd and berthier-replay were not installed, nor the n20/duel headers
# and .proto files, the docs or man pages; with CMAKE_INSTALL_PREFIX=/usr the libdir came out
# /usr/lib/lib/x86_64-linux-gnu; the build tree's berthier.pc named an include dir that did
# not exist; the unit ran /usr/local/bin/berthierd whatever the prefix.
set -u
src=${BERTHIER_SRC:?BERTHIER_SRC must point at the source tree}
bin=${BERTHIER_BIN:?BERTHIER_BIN must point at the build tree bin/}
build=$(cd "$bin/.." && pwd)
work=$(mktemp -d /tmp/berthier-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
checks=0
ok() { checks=$((checks + 1)); }
cc=${CC:-cc}
# a sanitized build (make build-asan) installs a sanitized library: its users build the same way
ccflags="-Wall -Wextra -Werror"
grep -q '^BERTHIER_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && ccflags="$ccflags -fsanitize=address,undefined"

# ---- 1. install the build tree into a temporary prefix -------------------------------
p="$work/prefix"
cmake --install "$build" --prefix "$p" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
pc=$(find "$p" -name berthier.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || fail "no berthier.pc installed"
libdir=$(dirname "$(dirname "$pc")")

for prog in berthierd berthier-replay berthierctl berthier-bot berthier-match; do
  [ -x "$p/bin/$prog" ] || fail "$prog is not installed in $p/bin"
  "$p/bin/$prog" --help >/dev/null 2>&1 || fail "installed $prog --help fails"
  ok
done
for prog in berthierd-faulty berthier-bench berthier-selfplay; do
  [ ! -e "$p/bin/$prog" ] || fail "the test-only $prog is installed"
done
for f in include/berthier/client.h include/berthier/v1/berthier.pb-c.h include/n20/v1/n20.pb-c.h \
         include/duel/v1/duel.pb-c.h share/berthier/proto/berthier/v1/berthier.proto \
         share/berthier/proto/n20/v1/n20.proto share/berthier/proto/duel/v1/duel.proto \
         share/doc/berthier/examples/berthierd.conf; do
  [ -f "$p/$f" ] || fail "$f is not installed"
  ok
done
# every generated header of the build is installed (a new ruleset's too)
for h in $(cd "$build/proto-gen" && find . -name '*.pb-c.h'); do
  [ -f "$p/include/$h" ] || fail "generated header $h is not installed"
  ok
done
[ -f "$libdir/libberthier_client.a" ] || fail "the static library is not in $libdir"
[ -e "$libdir/libberthier_client.so" ] || fail "the shared library is not in $libdir"
for d in "$src"/docs/*.md; do
  [ -f "$p/share/doc/berthier/$(basename "$d")" ] || fail "docs/$(basename "$d") is not installed"
  ok
done

# ---- 2. man pages: one per program and the config file; groff has nothing to say -------
for page in man1/berthierd.1 man1/berthier-replay.1 man1/berthierctl.1 man1/berthier-bot.1 \
            man1/berthier-match.1 man5/berthierd.conf.5; do
  [ -f "$p/share/man/$page" ] || fail "man page $page is not installed"
  if command -v groff >/dev/null; then
    warn=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$p/share/man/$page" 2>&1)
    [ -z "$warn" ] || { printf '%s\n' "$warn"; fail "groff warns about $page"; }
  fi
  ok
done
command -v groff >/dev/null || echo "SKIP: groff is not installed (Debian groff-base): man pages not formatted"

# ---- 3. the sample config file is read by the installed daemon ------------------------
# Every commented-out setting is switched on; a bad flag after it makes the daemon stop once
# the file has been read, so the error must be the flag's, not a line of the file.
sed -E 's/^#([a-z-]+ = )/\1/' "$p/share/doc/berthier/examples/berthierd.conf" >"$work/all.conf"
# every setting the daemon lists in --help is in the sample
for key in $("$p/bin/berthierd" --help | sed -nE 's/^  --([a-z-]+) .*/\1/p' | grep -vx -e config -e help -e version); do
  grep -qE "^$key = " "$work/all.conf" || fail "the sample config file does not show the setting $key"
done
out=$("$p/bin/berthierd" --config "$work/all.conf" --hwm 0 2>&1); rc=$?
[ $rc -eq 2 ] || fail "berthierd with the sample config and a bad flag exits $rc, not 2: $out"
printf '%s\n' "$out" | grep -q 'hwm' || fail "the sample config file is refused: $out"
printf '%s\n' "$out" | grep -q 'line [0-9]' && fail "the sample config file is refused: $out"
ok

# ---- 4. pkg-config: the installed file names the prefix installed to -----------------
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(pkg-config --variable=prefix berthier)" = "$p" ] || fail "berthier.pc prefix is not $p: $(pkg-config --variable=prefix berthier)"
[ "$(pkg-config --variable=libdir berthier)" = "$libdir" ] || fail "berthier.pc libdir is not $libdir"
[ "$(pkg-config --variable=includedir berthier)" = "$p/include" ] || fail "berthier.pc includedir is not $p/include"
[ -f "$(pkg-config --variable=protodir berthier)/n20/v1/n20.proto" ] || fail "berthier.pc protodir has no n20.proto"
ok
cflags=$(pkg-config --cflags berthier) libs=$(pkg-config --libs berthier) || fail "pkg-config berthier"
$cc $ccflags -o "$work/consumer" "$src/tests/e2e/install_consumer.c" $cflags $libs \
  >"$work/cc.log" 2>&1 || { cat "$work/cc.log"; fail "the outside program does not build against the install"; }
out=$(LD_LIBRARY_PATH="$libdir" "$work/consumer") || fail "the outside program fails: $out"
[ "$out" = "view turn=7 phasing=french units=1 hash=ok code=ILLEGAL" ] || fail "the outside program printed: $out"
ldd "$work/consumer" | grep -q "$libdir/libberthier_client.so" 2>/dev/null \
  || (LD_LIBRARY_PATH="$libdir" ldd "$work/consumer" | grep -q "$libdir/libberthier_client.so") \
  || fail "the outside program does not use the installed shared library"
ok
echo "installed: $out"

# ---- 5. the build tree's berthier-uninstalled.pc -------------------------------------
export PKG_CONFIG_PATH="$build/lib/pkgconfig"
[ -f "$build/lib/pkgconfig/berthier-uninstalled.pc" ] || fail "no berthier-uninstalled.pc in the build tree"
cflags=$(pkg-config --cflags berthier) libs=$(pkg-config --libs berthier) || fail "pkg-config berthier (build tree)"
for inc in $(printf '%s\n' $cflags | sed -n 's/^-I//p'); do [ -d "$inc" ] || fail "build-tree include dir $inc does not exist"; done
$cc $ccflags -o "$work/consumer-b" "$src/tests/e2e/install_consumer.c" $cflags $libs \
  >"$work/cc-b.log" 2>&1 || { cat "$work/cc-b.log"; fail "the outside program does not build against the build tree"; }
LD_LIBRARY_PATH="$build/lib" "$work/consumer-b" >/dev/null || fail "the outside program fails against the build tree"
ok
unset PKG_CONFIG_PATH

# ---- 6. the installed unit -----------------------------------------------------------
unit="$p/lib/systemd/system/berthierd.service"
[ -f "$unit" ] || fail "the systemd unit is not installed"
grep -qx "ExecStart=$p/bin/berthierd" "$unit" || fail "ExecStart is not $p/bin/berthierd: $(grep ExecStart= "$unit")"
docs=$(sed -n 's/^Documentation=//p' "$unit")
for d in $docs; do
  case $d in
    file://*) [ -f "${d#file://}" ] || fail "Documentation=$d is not installed";;
    man:*) pg=${d#man:}; name=${pg%%(*}; sec=${pg#*(}; sec=${sec%)}
           [ -f "$p/share/man/man$sec/$name.$sec" ] || fail "Documentation=$d is not installed";;
  esac
done
ok
if ! command -v systemd-analyze >/dev/null; then
  echo "SKIP: systemd-analyze is not installed (Debian systemd): the unit is not verified"
else
  # can systemd-analyze verify run here at all? a trivial good unit must pass
  printf '[Service]\nType=oneshot\nExecStart=/bin/true\n' >"$work/probe.service"
  if ! systemd-analyze verify --man=no "$work/probe.service" >"$work/probe.log" 2>&1; then
    echo "SKIP: systemd-analyze verify cannot run here ($(head -1 "$work/probe.log")): the unit is not verified"
  else
    # with man(1) it also checks that the man pages of Documentation= are found
    man_opt=--man=yes man_note="man pages checked"
    if ! command -v man >/dev/null; then
      man_opt=--man=no man_note="man pages not checked: man-db is not installed"
    fi
    vout=$(MANPATH="$p/share/man" systemd-analyze verify $man_opt "$unit" 2>&1); rc=$?
    [ $rc -eq 0 ] && [ -z "$vout" ] || { printf '%s\n' "$vout"; fail "systemd-analyze verify of the installed unit (rc $rc)"; }
    ok
    echo "systemd-analyze verify: the installed unit passes ($man_note)"
  fi
fi

# ---- 7. the configured prefixes /usr, /usr/local and /opt/berthier ----------------------
# Configure only what the pkg-config file and the unit need, then install those two components
# into a DESTDIR.
for prefix in /usr /usr/local /opt/berthier; do
  b="$work/cfg${prefix//\//-}"
  cmake -S "$src" -B "$b" -DCMAKE_INSTALL_PREFIX="$prefix" "-DBERTHIER_SKIP_DIRS=daemon;replay;bench;tests;man" \
    >"$b.log" 2>&1 || { cat "$b.log"; fail "configure for $prefix"; }
  rel=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$b/CMakeCache.txt")
  case $rel in /*) want_lib=$rel;; *) want_lib=$prefix/$rel;; esac
  if [ "$prefix" = /usr ] && [ -f /etc/debian_version ]; then
    ma=$($cc -print-multiarch 2>/dev/null || true)
    [ -z "$ma" ] || [ "$want_lib" = "/usr/lib/$ma" ] || fail "GNUInstallDirs libdir for /usr is $want_lib, not /usr/lib/$ma"
  fi
  for comp in pkgconfig systemd; do
    DESTDIR="$work/dest" cmake --install "$b" --component $comp >>"$b.log" 2>&1 || { cat "$b.log"; fail "install $comp for $prefix"; }
  done
  f="$work/dest$want_lib/pkgconfig/berthier.pc"
  [ -f "$f" ] || fail "no berthier.pc at $want_lib/pkgconfig for $prefix"
  for v in prefix:$prefix libdir:$want_lib includedir:$prefix/include; do
    got=$(pkg-config --variable="${v%%:*}" "$f")
    [ "$got" = "${v#*:}" ] || fail "$prefix: berthier.pc ${v%%:*} is $got, not ${v#*:}"
  done
  grep -qx "ExecStart=$prefix/bin/berthierd" "$work/dest$prefix/lib/systemd/system/berthierd.service" \
    || fail "$prefix: the unit's ExecStart is not $prefix/bin/berthierd"
  echo "$prefix: libdir $want_lib, unit ExecStart=$prefix/bin/berthierd"
  ok
done
echo "PASS ($checks checks)"
