package main

import (
	"runtime"
	"strings"
)

// shellQuote writes s so that a writer can paste it into their shell as
// one argument: unchanged when it needs no quoting, else in single
// quotes (POSIX shells) or double quotes (Windows' cmd and PowerShell).
// Commands quire suggests ("Next: quire index --project …") use it, so a
// path with a space or an accent still works when pasted.
func shellQuote(s string) string {
	return shellQuoteFor(runtime.GOOS, s)
}

func shellQuoteFor(goos, s string) string {
	if s != "" && strings.IndexFunc(s, unsafeInShell) < 0 {
		return s
	}
	if goos == "windows" {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unsafeInShell is whether r needs quoting: anything but ASCII letters,
// digits and the punctuation paths and names use harmlessly.
func unsafeInShell(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("_-./:@%+=,", r)
}
