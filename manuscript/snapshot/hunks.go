package snapshot

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Hunk is one place where a chapter now differs from a version of it,
// by whole paragraphs: the bytes Start to End of the text now are Old
// in the version (an empty range where the version has a paragraph the
// text now lacks).
type Hunk struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Old   string `json:"old"`
}

// Hunks are the places, by paragraph, where now differs from old, in
// order: restoring one hunk puts back that paragraph (or those
// paragraphs) as the version had it, and leaves the rest of the text as
// it is now.
func Hunks(now, old string) []Hunk {
	toks := tokenizer{ids: map[string]rune{}}
	a, b := toks.pieceRunes(Split(now)), toks.pieceRunes(Split(old))
	var out []Hunk
	off := 0
	var cur *Hunk
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, d := range boundedDiff(a, b) {
		var sb strings.Builder
		for _, r := range d.Text {
			sb.WriteString(toks.words[r-tokenBase])
		}
		text := sb.String()
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			off += len(text)
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				cur = &Hunk{Start: off, End: off}
			}
			off += len(text)
			cur.End = off
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				cur = &Hunk{Start: off, End: off}
			}
			cur.Old += text
		}
	}
	flush()
	return out
}

// pieceRunes names each piece with one rune, as runes does words.
func (t *tokenizer) pieceRunes(pieces []string) []rune {
	out := make([]rune, 0, len(pieces))
	for _, p := range pieces {
		id, ok := t.ids[p]
		if !ok {
			id = tokenBase + rune(len(t.words))
			t.ids[p] = id
			t.words = append(t.words, p)
		}
		out = append(out, id)
	}
	return out
}

// HunkAt is the hunk at or nearest the byte offset off of the text now;
// false when there is none (the texts are the same).
func HunkAt(hunks []Hunk, off int) (Hunk, bool) {
	best, dist := -1, 0
	for i, h := range hunks {
		d := 0
		switch {
		case off < h.Start:
			d = h.Start - off
		case off > h.End:
			d = off - h.End
		}
		if best < 0 || d < dist {
			best, dist = i, d
		}
	}
	if best < 0 {
		return Hunk{}, false
	}
	return hunks[best], true
}
