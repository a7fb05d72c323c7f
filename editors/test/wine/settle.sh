#!/bin/sh
# Waits for the Wine processes of quire's test prefix to end, so that a
# timed test does not share the wineserver with what ran before it. The
# staleness test, started right after the Windows suite, once answered
# initialize at 460-480 ms instead of 330-380 and missed its second in
# all three tries (local CI, 2026-12-02), where alone it took 730-820
# ms. Why is not established: on this machine the suite's Wine
# processes had already ended when it was checked, so this wait is a
# precaution, not a proven cure. A process still running after a minute
# is killed.
set -eu
home=${QUIRE_WINE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-wine}
export WINEPREFIX="${QUIRE_WINEPREFIX:-$home/prefix}"
[ -d "$WINEPREFIX" ] || exit 0
server=$(command -v wineserver || command -v wineserver64 || true)
[ -n "$server" ] || exit 0
if ! timeout 60 "$server" -w; then
	echo "settle.sh: Wine processes still running after 60 s; killing them" >&2
	"$server" -k || true
fi
