package dialogue

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// A chapter's speech is read paragraph by paragraph: a paragraph is what
// Markdown makes one, except where the chapter sets a paragraph a line
// or a dash opens a turn on a line of its own.

// paragraph is a run of prose lines between blank lines, headings, scene
// breaks and code. Its pieces are the parts of it that may hold speech:
// the lines less any HTML comment or code span inside them.
type paragraph struct {
	start, end int
	// next is where the following paragraph would start if it is the
	// very next one (nothing but blank lines between): speech running
	// over paragraphs continues only into that one.
	next   int
	pieces []codex.Range
}

// paragraphs splits body into paragraphs. skip lists code (sorted or
// not); HTML comments are found here.
func paragraphs(text string, body codex.Range, skip []codex.Range) []paragraph {
	hidden := hiddenRanges(text, body, skip)
	// Every paragraph's pieces are one stretch of all, and vis is the
	// current line's: two buffers for the whole chapter, sized once (a
	// piece a line, a paragraph a blank line, give or take) rather than
	// grown by doubling on every edit's analysis.
	lines := strings.Count(text[body.Start:body.End], "\n") + 1
	out := make([]paragraph, 0, strings.Count(text[body.Start:body.End], "\n\n")+1)
	all := make([]codex.Range, 0, lines)
	var vis []codex.Range
	from, open := 0, false
	perLine := manuscript.LinePerParagraph(text, body)
	prevEnd := -1 // the end of the last prose line, while a paragraph is open
	end := func() {
		if open && len(all) > from {
			p := paragraph{start: all[from].Start, pieces: all[from:len(all):len(all)]}
			p.end = p.pieces[len(p.pieces)-1].End
			out = append(out, p)
		}
		open = false
	}
	h := 0
	for ls := body.Start; ls < body.End; {
		le := ls
		if i := strings.IndexByte(text[ls:body.End], '\n'); i >= 0 {
			le = ls + i
		} else {
			le = body.End
		}
		next := le + 1
		line := codex.Range{Start: ls, End: le}
		// The parts of the line not hidden.
		for h < len(hidden) && hidden[h].End <= ls {
			h++
		}
		vis = vis[:0]
		at := ls
		for k := h; k < len(hidden) && hidden[k].Start < le; k++ {
			if hidden[k].Start > at {
				vis = append(vis, codex.Range{Start: at, End: hidden[k].Start})
			}
			at = max(at, hidden[k].End)
		}
		if at < le {
			vis = append(vis, codex.Range{Start: at, End: le})
		}
		switch {
		case isBlank(text, vis):
			// A line wholly hidden (a comment or a code block's line) or
			// empty ends the paragraph; a comment inside prose does not.
			if len(vis) == 0 && lineHasText(text, line) && !wholeLineHidden(hidden, h, line) {
				break
			}
			end()
		case isHeadingOrBreak(text[line.Start:line.End]):
			end()
		default:
			if open && (perLine || opensTurn(text, prevEnd, vis)) {
				end()
			}
			if !open {
				open, from = true, len(all)
			}
			all = append(all, vis...)
			prevEnd = le
		}
		ls = next
	}
	end()
	// A paragraph whose next is the following one's start continues into
	// it; blank lines between are allowed, anything else is not.
	for i := range out {
		if i+1 < len(out) && onlyBlank(text, out[i].end, out[i+1].start) {
			out[i].next = out[i+1].start
		} else {
			out[i].next = -1
		}
	}
	return out
}

// opensTurn says a line of prose whose visible parts are vis opens a
// paragraph of its own though no blank line comes before it: it opens
// with a dialogue dash, and the line before (ending at prevEnd) ended a
// sentence. A turn of dash-set speech begins a paragraph ("— Ah !" on
// the line after the one it answers).
func opensTurn(text string, prevEnd int, vis []codex.Range) bool {
	if prevEnd < 0 || len(vis) == 0 {
		return false
	}
	at := firstVisible(text, vis[0])
	if at >= len(text) {
		return false
	}
	r, size := utf8.DecodeRuneInString(text[at:])
	if !isSpeechDash(r, text[at+size:]) {
		return false
	}
	end := trimSpaceEnd(text, 0, prevEnd)
	if end == 0 {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(text[:end])
	return strings.ContainsRune(".!?…»”\":", last)
}

func lineHasText(text string, r codex.Range) bool {
	for i := r.Start; i < r.End; i++ {
		if !isSpaceByte(text[i]) {
			return true
		}
	}
	return false
}

func wholeLineHidden(hidden []codex.Range, h int, line codex.Range) bool {
	for k := h; k < len(hidden) && hidden[k].Start < line.End; k++ {
		if hidden[k].Start <= line.Start && hidden[k].End >= line.End {
			return true
		}
	}
	return false
}

func isBlank(text string, vis []codex.Range) bool {
	for _, r := range vis {
		if lineHasText(text, r) {
			return false
		}
	}
	return true
}

func onlyBlank(text string, from, to int) bool {
	if from > to {
		return false
	}
	for i := from; i < to; i++ {
		if !isSpaceByte(text[i]) {
			return false
		}
	}
	return true
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isHeadingOrBreak says a line is a Markdown heading or a scene break
// (***, * * *, ---, ___, or a lone #): never speech.
func isHeadingOrBreak(line string) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i < len(line) && line[i] == '#' {
		j := i
		for j < len(line) && line[j] == '#' {
			j++
		}
		return j-i <= 6 && (j == len(line) || line[j] == ' ' || line[j] == '\t')
	}
	var mark byte
	n := 0
	for ; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case (c == '*' || c == '-' || c == '_') && (mark == 0 || mark == c):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// hiddenRanges are the parts of body that are never speech: the code in
// skip and every HTML comment, sorted and merged.
func hiddenRanges(text string, body codex.Range, skip []codex.Range) []codex.Range {
	var out []codex.Range
	for _, r := range skip {
		r = clampRange(r, len(text))
		if r.End > body.Start && r.Start < body.End {
			out = append(out, r)
		}
	}
	out = append(out, manuscript.HTMLComments(text, body)...)
	slices.SortFunc(out, func(a, b codex.Range) int { return a.Start - b.Start })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.Start <= merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}
