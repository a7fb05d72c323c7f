package codex

import (
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// PathKey is the spelling of an absolute folder path under which quire
// keeps what belongs to that folder (its cache, its trust record): one
// spelling per folder, whatever spelling reached it. macOS's and
// Windows's file systems ignore case, so ~/Book and ~/book are one
// folder; macOS's also ignores Unicode normalization, so a name typed
// composed (NFC, "Séverine") and one the system returns decomposed (NFD)
// are one folder. Each is folded only where the file system holding path
// is seen to fold it (a second spelling stats to the same folder), so a
// case-sensitive disk on macOS, or Linux, keeps distinct folders
// distinct. A path that does not exist is returned as it is.
func PathKey(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return path
	}
	same := func(other string) bool {
		if other == path {
			return false
		}
		o, err := os.Stat(other)
		return err == nil && os.SameFile(info, o)
	}
	key := path
	if nfc := norm.NFC.String(path); nfc != path && same(nfc) {
		key = nfc
	} else if nfd := norm.NFD.String(path); nfd != path && same(nfd) {
		key = norm.NFC.String(path)
	}
	if same(swapCase(path)) {
		key = strings.ToLower(key)
	}
	return key
}

// swapCase turns every letter of s to the other case.
func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}
