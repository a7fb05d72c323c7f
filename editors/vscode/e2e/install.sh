#!/bin/sh
# Installs code-server and playwright-core for the end-to-end test into
# node_modules here, offline apart from the npm registry.
#
# code-server's postinstall runs `npm install` in its bundled VS Code, whose
# @vscode/ripgrep downloads a ripgrep release from GitHub at install time.
# That download is skipped when its cache already holds the release's
# tarball, so the cache is seeded with a tarball of the machine's own `rg`
# (Debian's ripgrep). The cache lives under os.tmpdir(); a private TMPDIR
# keeps it out of /tmp and away from other installs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

stamp=node_modules/.quire-e2e-installed
if [ -f "$stamp" ] && [ "$stamp" -nt package-lock.json ] && [ -x node_modules/.bin/code-server ]; then
	echo "code-server and playwright-core already installed"
	exit 0
fi
# node_modules may be a link to another checkout's install (a git
# worktree sharing it): npm ci would empty the folder it links to, so a
# link is used as it is when that checkout has the same package-lock.json,
# and never installed into.
if [ -L node_modules ]; then
	linked=$(readlink -f node_modules)
	if [ -x node_modules/.bin/code-server ] && cmp -s package-lock.json "$linked/../package-lock.json"; then
		echo "code-server and playwright-core already installed (node_modules links to $linked)"
		exit 0
	fi
	echo "install.sh: node_modules links to $linked, which is not installed from this package-lock.json; npm ci here would empty it. Run install.sh in that checkout, or remove the link." >&2
	exit 1
fi

rg=$(command -v rg) || { echo "install.sh: ripgrep (rg) is needed: apt-get install ripgrep" >&2; exit 1; }

# Pinned by code-server 4.100.3's lib/vscode/npm-shrinkwrap.json
# (@vscode/ripgrep 1.15.11) and that package's lib/postinstall.js
# (release v13.0.0-10); the file name is download.js's
# ripgrep-<release>-<target>.tar.gz in vscode-ripgrep-cache-<package version>.
ripgrep_pkg=1.15.11
ripgrep_release=v13.0.0-10
case $(uname -m) in
x86_64) target=x86_64-unknown-linux-musl ;;
aarch64 | arm64) target=aarch64-unknown-linux-musl ;;
*) echo "install.sh: no ripgrep target known for $(uname -m)" >&2; exit 1 ;;
esac

tmp="$here/.cache/tmp"
cache="$tmp/vscode-ripgrep-cache-$ripgrep_pkg"
mkdir -p "$cache" "$tmp/rg"
cp "$rg" "$tmp/rg/rg"
tar -czf "$cache/ripgrep-$ripgrep_release-$target.tar.gz" -C "$tmp/rg" rg

# code-server's postinstall insists on unsafe-perm under root, and it runs
# a nested `npm install` of VS Code whose native modules (built with g++,
# make and libkrb5-dev) need their install scripts: npm 11 blocks
# dependencies' scripts unless allowed, and the nested install has no
# allowScripts of its own, so this one command allows them all (the
# environment reaches the nested npm). playwright-core downloads nothing.
TMPDIR="$tmp" \
	npm_config_yes=true \
	npm_config_unsafe_perm=true \
	npm_config_ignore_scripts=false \
	npm_config_dangerously_allow_all_scripts=true \
	PUPPETEER_SKIP_DOWNLOAD=1 \
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
	npm ci --no-audit --no-fund
touch "$stamp"
