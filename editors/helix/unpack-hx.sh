#!/bin/sh
# Unpacks the Helix of a Debian release (trixie: 25.01, sid: the newest)
# into DEST without installing anything, and writes DEST/bin/hx, which
# starts it with that release's own loader and C library and its own
# runtime folder (themes, grammars). An unpacked DEST is kept: a second
# run only prints the version.
#
# Usage: unpack-hx.sh SUITE DEST
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SUITE DEST" >&2; exit 2; }
suite=$1
mkdir -p "$2"
dest=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

if [ ! -x "$dest/bin/hx" ]; then
	rm -rf "$dest/root"
	"$here/../test/debian-unpack.sh" "$suite" "$dest" hx
	lib="$dest/root/usr/lib/x86_64-linux-gnu"
	mkdir -p "$dest/bin"
	# Written last, so an interrupted unpack is done again next time.
	cat >"$dest/bin/hx.tmp" <<WRAP
#!/bin/sh
HELIX_RUNTIME=\${HELIX_RUNTIME:-$dest/root/usr/lib/hx/runtime} exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$dest/root/usr/bin/hx" "\$@"
WRAP
	chmod +x "$dest/bin/hx.tmp"
	mv "$dest/bin/hx.tmp" "$dest/bin/hx"
fi
"$dest/bin/hx" --version
