package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// HashText is quire's one text hash: "sha256:" and the hex digest of
// text's UTF-8 with \r\n and lone \r made \n. Selections, code-action
// arguments and proposal base hashes all use it, so a text hashes the
// same wherever it is taken from, whatever line endings the editor or the
// disk gave it.
//
// Line endings are left out on purpose: an editor may hand a selection
// over with other line breaks than the file on disk has. What depends on
// exact bytes (a proposal's byte-range edits) must therefore not trust
// the hash alone; package proposal keeps the base text too and refuses an
// apply when only the line endings changed.
func HashText(text string) string {
	norm := strings.ReplaceAll(text, "\r\n", "\n")
	norm = strings.ReplaceAll(norm, "\r", "\n")
	sum := sha256.Sum256([]byte(norm))
	return "sha256:" + hex.EncodeToString(sum[:])
}
