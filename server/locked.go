package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// codeLockedChange marks an edit, not yet saved, that changes a field the
// entry locks: typically a proposal applied in the editor that touches
// what the writer said must not change silently.
const codeLockedChange = "locked-field-changed"

// lockedChanges compares an entry as the editor holds it with the entry
// as saved, and reports every locked field whose value differs. Locks are
// the saved ones: an edit cannot unlock a field and change it unnoticed.
func lockedChanges(saved, edited *codex.Entry, text string) []codex.Problem {
	var out []codex.Problem
	fm := codex.OutlineOf([]byte(text)).FrontMatter
	for _, key := range saved.Locked {
		before, _ := json.Marshal(fieldValue(saved, key))
		after, _ := json.Marshal(fieldValue(edited, key))
		if string(before) == string(after) {
			continue
		}
		out = append(out, codex.Problem{
			Path:     edited.ID,
			Code:     codeLockedChange,
			Severity: codex.SeverityWarning,
			Message:  fmt.Sprintf("%q is locked: this change alters it (saved value %s); unlock it or undo the change", key, before),
			Range:    keyRange(text, fm, key),
		})
	}
	return out
}

// fieldValue is the value of a front matter key as the entry holds it.
func fieldValue(e *codex.Entry, key string) any {
	switch strings.ToLower(key) {
	case "name":
		return e.Name
	case "title":
		return e.Title
	case "aliases":
		return e.Aliases
	case "summary":
		return e.Summary
	case "tags":
		return e.Tags
	case "status":
		return e.Status
	case "type":
		return e.Type
	}
	v, _ := e.Custom.Get(key)
	return v
}

// keyRange finds the line of key in the front matter, or the front
// matter's first line when the key was removed.
func keyRange(text string, fm codex.Range, key string) codex.Range {
	block := text[fm.Start:fm.End]
	re := regexp.MustCompile(`(?mi)^` + regexp.QuoteMeta(key) + `\s*:`)
	if loc := re.FindStringIndex(block); loc != nil {
		end := strings.IndexByte(block[loc[0]:], '\n')
		if end < 0 {
			end = len(block) - loc[0]
		}
		return codex.Range{Start: fm.Start + loc[0], End: fm.Start + loc[0] + end}
	}
	first := strings.IndexByte(block, '\n')
	if first < 0 {
		first = len(block)
	}
	return codex.Range{Start: fm.Start, End: fm.Start + first}
}
