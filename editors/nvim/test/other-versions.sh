#!/bin/sh
# Runs the Neovim plugin's end-to-end test on the Neovim of other Debian
# releases (trixie: 0.10, sid: the newest), unpacked into a temporary
# folder and started with their own C library, so nothing on the machine
# changes. Usage: other-versions.sh [SUITE...] (default: trixie sid).
set -eu
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- trixie sid

# field PKG FIELD: a field of a package's stanza in ./Packages.
field() {
	awk -v p="$1" -v f="$2:" '$0 == "Package: " p { on = 1; next } /^Package: / { on = 0 } on && $1 == f { sub(/^[^:]*: /, ""); print; exit }' Packages
}

for suite in "$@"; do
	dir="$work/$suite"
	mkdir -p "$dir/root" "$dir/bin"
	cd "$dir"
	curl -fsS "$mirror/dists/$suite/main/binary-amd64/Packages.gz" | gzip -d >Packages
	# neovim's direct dependencies (first of each alternative), and the C
	# library the loader comes from.
	deps=$(field neovim Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/ //g')
	for pkg in neovim $deps libc6 libgcc-s1; do
		file=$(field "$pkg" Filename)
		[ -n "$file" ] || { echo "$suite: no package $pkg" >&2; exit 1; }
		curl -fsS -o pkg.deb "$mirror/$file"
		dpkg-deb -x pkg.deb root
	done
	lib="$dir/root/usr/lib/x86_64-linux-gnu"
	cat >bin/nvim <<WRAP
#!/bin/sh
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/lua/5.1" "$dir/root/usr/bin/nvim" --cmd 'set rtp+=$dir/root/usr/lib/nvim' "\$@"
WRAP
	chmod +x bin/nvim
	echo "== $suite: $(VIMRUNTIME="$dir/root/usr/share/nvim/runtime" bin/nvim --version | head -1)"
	cd "$repo"
	VIMRUNTIME="$dir/root/usr/share/nvim/runtime" PATH="$dir/bin:$PATH" QUIRE_REQUIRE_NVIM=1 \
		go test -count=1 -run TestNeovimPlugin ./editors/nvim/
done
