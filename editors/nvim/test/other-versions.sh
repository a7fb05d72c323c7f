#!/bin/sh
# Runs the Neovim plugin's end-to-end tests (its steps, the typed
# continuity slips, the series, the conventions: commands without setup(),
# :checkhealth, the api_key command, :Quire models, and from 0.11
# vim.lsp.enable with lsp/quire.lua) on the Neovim of other Debian releases (trixie: 0.10,
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
	# sid's Neovim is 0.11 or newer, so there the vim.lsp.enable test
	# (lsp/quire.lua) must run, not skip. Said by the suite, not by asking
	# the Neovim: a check that read the same version as the test's skip
	# could never turn that skip into a failure.
	case $suite in
	sid) enable=1 ;;
	*) enable=0 ;;
	esac
	cd "$repo"
	# Every suite here is 0.10 or newer, so the dialogue test (semantic
	# tokens, inlay hints) must run, not skip.
	VIMRUNTIME="$dir/root/usr/share/nvim/runtime" PATH="$dir/bin:$PATH" QUIRE_REQUIRE_NVIM=1 \
		QUIRE_REQUIRE_NVIM_LSP_ENABLE="$enable" QUIRE_REQUIRE_NVIM_DIALOGUE=1 \
		go test -count=1 -run '^TestNeovim(Plugin|Slips|Series|WithoutSetup|Checkhealth|APIKeyCommand|Models|LspEnable|LspEnableSeries|WordCounts|Dialogue|Snapshots)$' ./editors/nvim/
	cd "$work"
done
