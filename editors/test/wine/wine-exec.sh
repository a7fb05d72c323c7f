#!/bin/bash
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
set -euo pipefail
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

# A Wine start now and then dies at once, silently (WINEDEBUG=-all): one
# package of CI's Windows run exited 1 after 12 ms with no output, while
# the same tests passed before and after. Such a start, and only such,
# is made once more: a test binary that runs always prints (PASS, FAIL,
# ok), so a real failure is never hidden, and it takes longer than this.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for try in 1 2; do
	start=$(date +%s%N)
	status=0
	"$wine" "$@" 2>&1 | tee "$out" || status=$?
	took=$((($(date +%s%N) - start) / 1000000))
	if [ "$status" = 0 ] || [ -s "$out" ] || [ "$took" -ge 2000 ] || [ "$try" = 2 ]; then
		exit "$status"
	fi
	echo "wine-exec.sh: Wine exited $status after $took ms with no output; starting $(basename "$1") again" >&2
done
