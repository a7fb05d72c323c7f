package dialogue

import (
	"slices"

	"github.com/quire-ink/quire/codex"
)

// findAfter finds the speech of text, split into paras, taking from prev
// (the version before, e the edit between them; nil for none) the
// utterances of the paragraphs the edit did not reach: those before the
// first it may have changed, back to where the scan entered a paragraph
// with no speech carried in, and those after it, from the first
// paragraph past the edit that the scan enters clean in both versions,
// shifted. What it finds is what scanning every paragraph finds.
func findAfter(prev *found, e edit, text string, paras []paragraph, opts Options) *found {
	out := &found{paras: paras, entered: make([]scanMark, len(paras))}
	if len(paras) == 0 {
		return out
	}
	f := newFinder(text, paras, opts)
	out.conv, out.open, out.close = f.conv, f.open, f.close
	if prev != nil && (prev.conv != f.conv || prev.open != f.open || prev.close != f.close || len(prev.entered) == 0) {
		prev = nil
	}
	from, past := 0, 0
	if prev != nil {
		from, past = prev.reusable(e, paras)
		// The paragraphs before from are the old ones: so is their speech.
		out.utts = make([]Utterance, 0, len(prev.utts)+4)
		for _, u := range prev.utts[:prev.entered[from].out] {
			out.utts = append(out.utts, found0(u, 0))
		}
		copy(out.entered, prev.entered[:from])
		f.out = out.utts
	}
	for k := from; k < len(paras); k++ {
		if prev != nil && k >= past && f.cur == nil && !f.carry {
			if old, ok := prev.resync(e, paras, k); ok {
				// From here on the old scan, shifted: it entered this
				// paragraph clean, as this one does, and read nothing
				// the edit touched.
				moved := len(f.out) - prev.entered[old].out
				for j := k; j < len(paras); j++ {
					m := prev.entered[old+j-k]
					out.entered[j] = scanMark{clean: m.clean, out: m.out + moved}
				}
				for _, u := range prev.utts[prev.entered[old].out:] {
					f.out = append(f.out, found0(u, e.shift))
				}
				out.utts = f.out
				return out.done()
			}
			prev = nil // resync is tried once: past it, every paragraph is scanned
		}
		out.entered[k] = scanMark{clean: f.cur == nil && !f.carry, out: len(f.out)}
		out.scanned++
		f.paragraph(&paras[k])
	}
	f.flush()
	out.utts = f.out
	return out.done()
}

// done is f with no utterances as nil, as a scan of every paragraph
// leaves a chapter without speech.
func (f *found) done() *found {
	if len(f.utts) == 0 {
		f.utts = nil
	}
	return f
}

// Reading around a paragraph: the scan reads a few bytes past its ends
// (the word after a closing mark, 40 bytes for words a sentence names).
const scanMargin = 128

// reusable is the first paragraph to scan again after edit e, and the
// first past the edit's reach: the paragraphs before the first, back to
// one the old scan entered clean, are the old ones and read nothing the
// edit touched.
func (p *found) reusable(e edit, paras []paragraph) (from, past int) {
	// The first paragraph whose reading reaches the edit.
	reach := 0
	for reach < len(paras) && paras[reach].end+scanMargin <= e.prefix {
		reach++
	}
	from = min(reach, len(p.entered)-1)
	for from > 0 && !p.entered[from].clean {
		from--
	}
	for k := range from {
		if !sameParagraph(paras[k], p.paras[k], 0) {
			from = 0
			break
		}
	}
	past = reach
	for past < len(paras) && paras[past].start-scanMargin < e.newLen-e.suffix {
		past++
	}
	return from, past
}

// resync is the old paragraph that new paragraph k is, past edit e, when
// the scan may go on from the old one: every paragraph from there on the
// old one shifted, and the old scan entered it clean.
func (p *found) resync(e edit, paras []paragraph, k int) (int, bool) {
	old := p.paras
	o := k - (len(paras) - len(old))
	if o < 0 || o >= len(old) || !p.entered[o].clean {
		return 0, false
	}
	for j := k; j < len(paras); j++ {
		if !sameParagraph(paras[j], old[o+j-k], e.shift) {
			return 0, false
		}
	}
	return o, true
}

// sameParagraph says p is q moved by shift, as far as a scan reads it:
// where it and its pieces are, and whether the next paragraph follows
// right after it (speech carries over only into that one).
func sameParagraph(p, q paragraph, shift int) bool {
	return p.start == q.start+shift && p.end == q.end+shift && (p.next >= 0) == (q.next >= 0) &&
		movedBy(p.pieces, q.pieces, shift)
}

// movedBy says x is y with every offset moved by shift.
func movedBy(x, y []codex.Range, shift int) bool {
	return slices.EqualFunc(x, y, func(p, q codex.Range) bool { return p.Start == q.Start+shift && p.End == q.End+shift })
}

// found0 is u as the scan found it, moved by shift: its marks and words,
// none of what attribution gave it. Unmoved, it shares u's spans, which
// nothing changes once found.
func found0(u Utterance, shift int) Utterance {
	if shift == 0 {
		return Utterance{Spans: u.Spans, Marks: u.Marks, Rule: RuleNone, Words: u.Words}
	}
	mv := func(rs []codex.Range) []codex.Range {
		out := make([]codex.Range, len(rs))
		for i, r := range rs {
			out[i] = codex.Range{Start: r.Start + shift, End: r.End + shift}
		}
		return out
	}
	return Utterance{Spans: mv(u.Spans), Marks: mv(u.Marks), Rule: RuleNone, Words: u.Words}
}
