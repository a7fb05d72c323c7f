#!/bin/sh
# Runs go test for windows/amd64 under Wine: the test binaries are
# cross-compiled and started by wine-exec.sh, with the overlay of
# removeall-overlay.sh so that os.RemoveAll works in Wine 8.0.
#
#   editors/test/wine/go-test.sh -count=1 ./codex/... ./server/...
#
# Every argument goes to go test. The Wine prefix and the overlay live in
# $QUIRE_WINE_HOME (default: quire-wine in the user cache folder), made
# on the first run and reused.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
home=${QUIRE_WINE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-wine}
export QUIRE_WINEPREFIX="${QUIRE_WINEPREFIX:-$home/prefix}"
overlay=$("$here/removeall-overlay.sh" "$home/overlay")
# The server's stdio tests run quire.exe itself (no go tool runs under
# Wine to build it): built here, for them, with the same overlay.
mkdir -p "$home/bin"
GOOS=windows GOARCH=amd64 "${GO:-go}" build -overlay "$overlay" -o "$home/bin/quire.exe" "$here/../../../cmd/quire"
# As a Windows path (Wine maps Z: to /): a Unix one is not found there.
export QUIRE_TEST_BIN="Z:$home/bin/quire.exe"
GOOS=windows GOARCH=amd64 exec "${GO:-go}" test -overlay "$overlay" -exec "$here/wine-exec.sh" "$@"
