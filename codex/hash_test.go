package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sha256Of is the expected hash, computed here independently of HashText.
func sha256Of(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// sentence is prose as a selection holds it.
const sentence = "Mara counted the lanterns twice and trusted neither count."

func TestHashText(t *testing.T) {
	lf := "The sea rose.\nMara ran.\n\nIlse stayed.\n"
	want := sha256Of(lf)
	// A literal, so that a change to the hash's definition cannot pass
	// unnoticed.
	assert.Equal(t, "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", HashText(""))
	assert.Equal(t, want, HashText(lf))
	assert.Equal(t, want, HashText(strings.ReplaceAll(lf, "\n", "\r\n")), "CRLF hashes as LF")
	assert.Equal(t, want, HashText(strings.ReplaceAll(lf, "\n", "\r")), "lone CR hashes as LF")
	assert.Equal(t, want, HashText("The sea rose.\r\nMara ran.\n\r\nIlse stayed.\r"), "mixed endings")
	assert.NotEqual(t, want, HashText(strings.TrimSuffix(lf, "\n")))
	assert.NotEqual(t, want, HashText(strings.ToUpper(lf)))
	assert.Equal(t, sha256Of("café 🌊 日本\n"), HashText("café 🌊 日本\r\n"), "UTF-8 bytes are hashed")
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, HashText(sentence))
}
