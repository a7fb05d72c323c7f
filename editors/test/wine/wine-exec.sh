#!/bin/sh
# go test -exec wrapper: runs a windows/amd64 test binary (or any .exe)
# under Debian's Wine 8.0.
#
#   GOOS=windows go test -exec "$PWD/editors/test/wine/wine-exec.sh" ./codex/...
#
# The Wine prefix is private to quire's tests ($QUIRE_WINEPREFIX, else
# quire-wine/prefix in the user cache folder), made once with wineboot, and
# holds a bcryptprimitives.dll built here from bcryptprimitives.c: Go
# binaries call its ProcessPrng, which Wine 8.0 does not have. The first
# run of several parallel ones makes the prefix while the others wait
# on a lock.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
wine=${QUIRE_WINE:-}
if [ -z "$wine" ]; then
	for w in /usr/lib/wine/wine64 "$(command -v wine64 || true)" "$(command -v wine || true)"; do
		if [ -n "$w" ] && [ -x "$w" ]; then wine=$w; break; fi
	done
fi
[ -n "$wine" ] || { echo "wine-exec.sh: no wine64 found; install Debian's wine64 (make windows does)" >&2; exit 2; }
prefix=${QUIRE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-wine/prefix}
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEARCH=win64
# Tests skip, saying why, the few cases Wine itself cannot do (a folder a
# watcher holds open is not deleted) and Windows can.
export QUIRE_UNDER_WINE=1
# No "Wine Mono/Gecko missing" dialogs: nothing here needs them.
export WINEDLLOVERRIDES="mscoree,mshtml=;${WINEDLLOVERRIDES:-}"

dll="$prefix/drive_c/windows/system32/bcryptprimitives.dll"
mkdir -p "$(dirname "$prefix")"
(
	flock 9
	if [ ! -f "$prefix/.quire-ready" ]; then
		"$wine" wineboot -i >/dev/null 2>&1
		touch "$prefix/.quire-ready"
	fi
	if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
		x86_64-w64-mingw32-gcc -shared -O2 -o "$dll.tmp" "$here/bcryptprimitives.c" -ladvapi32 -Wl,--kill-at
		mv "$dll.tmp" "$dll"
	fi
) 9>"$prefix.lock"

exec "$wine" "$@"
