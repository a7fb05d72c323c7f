#!/bin/sh
# The VS Code end-to-end test from a machine with only Go, Node 20 and npm:
# installs the Debian packages it needs when missing (chromium to drive,
# ripgrep for code-server's install, g++, make and libkrb5-dev for its
# native modules), then code-server and playwright-core (install.sh) and
# the extension's own npm packages, then runs the Go test, which fails
# rather than skips when something is still missing.
# `make vscode-e2e` calls it; QUIRE_ARTEFACTS keeps the screenshots and
# QUIRE_VSCODE_EXT builds the extension from another folder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

missing=""
for pkg in chromium ripgrep g++ make libkrb5-dev; do
	dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	echo "installing$missing for the VS Code end-to-end test"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

"$here/install.sh"

ext="$here/.."
# As in install.sh: a node_modules that links to another checkout's is
# used when that checkout has the same package-lock.json, and never
# installed into (npm ci would empty the folder it links to).
if [ -L "$ext/node_modules" ]; then
	linked=$(readlink -f "$ext/node_modules")
	if ! cmp -s "$ext/package-lock.json" "$linked/../package-lock.json"; then
		echo "test.sh: editors/vscode/node_modules links to $linked, which is not installed from this package-lock.json; npm ci here would empty it. Run npm ci in that checkout, or remove the link." >&2
		exit 1
	fi
elif [ ! -d "$ext/node_modules" ] || [ "$ext/package-lock.json" -nt "$ext/node_modules" ]; then
	(cd "$ext" && npm ci --no-audit --no-fund)
fi

cd "$here"
QUIRE_REQUIRE_VSCODE=1 "${GO:-go}" test -count=1 -v .
