package proposal

import "github.com/quire-ink/quire/codex"

// Why an update no longer fits a file, in words for the writer.
const (
	StaleEdited      = "it was edited"
	StaleLineEndings = "its line endings changed"
	StaleNoBase      = "the text it was made from was not kept"
)

// Stale says why the edits of path no longer fit text, the file's text
// now, or "" when they do. The base hash catches any change to the words;
// because it leaves line endings out (see codex.HashText), a change of
// line endings alone is caught by comparing the kept base bytes: every
// byte range after the first changed line break would land in the wrong
// place. An update without its base text cannot be checked that far, so
// it is refused too.
func (p Proposal) Stale(path, text string) string {
	hash := codex.HashText(text)
	for _, e := range EditsOf(p.Edits, path) {
		base := e.BaseHash
		if base == "" && path == p.Path {
			base = p.BaseHash
		}
		if e.Create || base != hash {
			return StaleEdited
		}
	}
	base, ok := p.Bases[path]
	switch {
	case !ok:
		return StaleNoBase
	case base != text:
		return StaleLineEndings
	}
	return ""
}
