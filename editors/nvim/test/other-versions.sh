#!/bin/sh
# Runs the Neovim plugin's end-to-end tests (its steps and the typed
# continuity slips) on the Neovim of other Debian releases (trixie: 0.10,
# sid: the newest), unpacked into a temporary folder by
# editors/test/debian-unpack.sh and started with their own C library, so
# nothing on the machine changes. The archive comes from
# apt's own sources. Usage: other-versions.sh [SUITE...] (default: trixie sid).
set -eu
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- trixie sid

for suite in "$@"; do
	dir="$work/$suite"
	"$repo/editors/test/debian-unpack.sh" "$suite" "$dir" neovim
	mkdir -p "$dir/bin"
	lib="$dir/root/usr/lib/x86_64-linux-gnu"
	cat >"$dir/bin/nvim" <<WRAP
#!/bin/sh
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/lua/5.1" "$dir/root/usr/bin/nvim" --cmd 'set rtp+=$dir/root/usr/lib/nvim' "\$@"
WRAP
	chmod +x "$dir/bin/nvim"
	echo "== $suite: $(VIMRUNTIME="$dir/root/usr/share/nvim/runtime" "$dir/bin/nvim" --version | head -1)"
	cd "$repo"
	VIMRUNTIME="$dir/root/usr/share/nvim/runtime" PATH="$dir/bin:$PATH" QUIRE_REQUIRE_NVIM=1 \
		go test -count=1 -run '^TestNeovim(Plugin|Slips|Series)$' ./editors/nvim/
	cd "$work"
done
