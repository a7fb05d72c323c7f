#!/bin/sh
# Writes a go build -overlay file, in the folder $1, under which
# os.RemoveAll works in Wine 8.0, and prints its path.
#
# The cause: os.RemoveAll deletes a folder's files through
# internal/syscall/windows.Deleteat, which first asks
# NtSetInformationFile for FileDispositionInformationEx (POSIX delete,
# Windows 10 1607 and later) and falls back to the older
# FileDispositionInformation only when the answer is
# STATUS_INVALID_INFO_CLASS, STATUS_INVALID_PARAMETER or
# STATUS_NOT_SUPPORTED. Wine 8.0 does not implement that class and
# answers STATUS_NOT_IMPLEMENTED, which Go turns into "unlinkat …:
# Invalid function", so every t.TempDir clean-up (and quire's own
# removal of a stale index) fails. Real Windows never answers that, so
# the overlay adds STATUS_NOT_IMPLEMENTED to the fallback's list in a
# copy of Go's own file and changes nothing else; the tests and quire
# run unchanged. It is only for the Wine harness.
set -eu
out=$1
mkdir -p "$out"
goroot=$(go env GOROOT)
src="$goroot/src/internal/syscall/windows/at_windows.go"
patched="$out/at_windows.go"
marker='case STATUS_INVALID_INFO_CLASS,'
grep -q "$marker" "$src" || {
	echo "removeall-overlay.sh: $src no longer has the fallback this patches; check os.RemoveAll under Wine again" >&2
	exit 1
}
# 0xC0000002 is STATUS_NOT_IMPLEMENTED, which the package does not name.
sed "s/$marker/case NTStatus(0xC0000002), STATUS_INVALID_INFO_CLASS,/" "$src" >"$patched"
printf '{"Replace": {"%s": "%s"}}\n' "$src" "$patched" >"$out/overlay.json"
echo "$out/overlay.json"
