#!/bin/sh
# Unpacks packages of another Debian release into a folder without
# installing anything, for the editor tests that run an editor version
# this machine's release does not have (trixie's Neovim 0.10, Helix 25.01).
#
# Usage: debian-unpack.sh SUITE DEST PKG...
# Each PKG is unpacked into DEST/root together with its direct
# dependencies (the first of each alternative), libc6 and libgcc-s1, so
# the binary can be started with that release's own loader:
#   DEST/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path …
#
# The archive is the one this machine's apt is configured with (the first
# "deb" source that is not a security archive), or $DEBIAN_MIRROR when set,
# so no host name lives in the project.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 SUITE DEST PKG..." >&2; exit 2; }
suite=$1 dest=$2
shift 2

# mirror: the first non-security deb URI of apt's sources, deb822 or
# one-line format.
mirror() {
	if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN{IGNORECASE=1} /^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f"
	done | head -n 1 | grep . && return
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) print $i; break } }' |
		head -n 1 | grep . && return
	echo "no Debian archive found in apt's sources; set DEBIAN_MIRROR" >&2
	return 1
}

url=$(mirror)
url=${url%/}
mkdir -p "$dest/root"
packages="$dest/Packages-$suite"
if [ ! -s "$packages" ]; then
	curl -fsS "$url/dists/$suite/main/binary-amd64/Packages.gz" | gzip -d >"$packages.tmp"
	mv "$packages.tmp" "$packages"
fi

# field PKG FIELD: a field of a package's stanza.
field() {
	awk -v p="$1" -v f="$2:" '$0 == "Package: " p { on = 1; next } /^Package: / { on = 0 } on && $1 == f { sub(/^[^:]*: /, ""); print; exit }' "$packages"
}

all=""
for pkg in "$@"; do
	deps=$(field "$pkg" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:any//; s/ //g')
	all="$all $pkg $deps"
done
for pkg in $(echo $all libc6 libgcc-s1 | tr ' ' '\n' | awk 'NF && !seen[$0]++'); do
	file=$(field "$pkg" Filename)
	if [ -z "$file" ]; then
		# A virtual package or one of another architecture: the loader and
		# the C library are what matter, so only the named packages must exist.
		case " $* " in *" $pkg "*) echo "$suite: no package $pkg" >&2; exit 1 ;; esac
		continue
	fi
	curl -fsS -o "$dest/pkg.deb" "$url/$file"
	dpkg-deb -x "$dest/pkg.deb" "$dest/root"
done
rm -f "$dest/pkg.deb"
