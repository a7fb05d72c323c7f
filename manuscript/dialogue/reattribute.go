package dialogue

import (
	"maps"
	"slices"
	"sort"

	"github.com/quire-ink/quire/codex"
)

// Analysis is one version of a chapter's dialogue, with what its
// attribution read, kept so that the next version attributes again only
// the conversations an edit reached (AnalyzeAfter). An Analysis is
// immutable once made.
type Analysis struct {
	utts []Utterance
	// found is the speech as the scan found it, before attribution.
	found *found
	text  string
	cast  *Cast
	opts  Options
	pov   string
	povs  []POVFrom
	// What attribution read (the paragraphs are found.paras): its characters'
	// mentions, whom each utterance addresses, its conversations and
	// the chapter's facts.
	ments     []charMention
	addressed [][]string
	convs     []conversation
	// windows[k] is the text conversation k's attribution reads.
	windows []codex.Range
	facts   chapterFacts
	// reused counts the conversations taken from the version before.
	reused int
	// vote is who the chapter's own lines show "I" to be (ownVote);
	// others the other chapters' votes, when attribution asked for
	// them (askedOthers).
	vote        Votes
	others      Votes
	askedOthers bool
}

// chapterFacts are what attribution learns of the whole chapter before
// it attributes any conversation: an edit that changes one of them may
// change any line, so every conversation is attributed again.
type chapterFacts struct {
	focal, narrator string
	narratorBeside  bool
	speaks          map[string]bool
	genders         map[string]Gender
}

func (f chapterFacts) equal(g chapterFacts) bool {
	return f.focal == g.focal && f.narrator == g.narrator && f.narratorBeside == g.narratorBeside && maps.Equal(f.speaks, g.speaks) && maps.Equal(f.genders, g.genders)
}

// Utterances are the chapter's speech, in reading order, each with its
// speaker. The caller must not change them: the next version's analysis
// may share them.
func (an *Analysis) Utterances() []Utterance { return an.utts }

// Vote is the chapter's own vote for the book's narrator: who its lines
// show "I" to be, nil when they show nobody (NarratorVotes).
func (an *Analysis) Vote() Votes { return an.vote }

// OtherVotes are the other chapters' votes the analysis read
// (Chapter.Narrators), and whether it read them: an analysis that did
// not holds whatever they become.
func (an *Analysis) OtherVotes() (Votes, bool) { return an.others, an.askedOthers }

// Cast is the cast the analysis was made with: AnalyzeAfter borrows
// from it only for the same one.
func (an *Analysis) Cast() *Cast { return an.cast }

// Reused says how many of the chapter's conversations were taken as
// they were from the version before, and how many it has.
func (an *Analysis) Reused() (reused, conversations int) { return an.reused, len(an.convs) }

// AnalyzeAfter is Analyze for a chapter whose version before was
// analyzed as prev (nil for none): a conversation the edit did not
// reach, in a chapter whose facts it did not change, is taken from prev
// instead of being attributed again, and the speech of the paragraphs
// it did not reach is taken from prev too (findAfter). The result is
// Analyze's, always.
func AnalyzeAfter(prev *Analysis, ch Chapter, cast *Cast, opts Options) *Analysis {
	body := clampRange(ch.Body, len(ch.Text))
	paras := paragraphs(ch.Text, body, ch.Skip)
	if prev != nil && (prev.cast != cast || !prev.opts.Equal(opts)) {
		prev = nil
	}
	var e edit
	var before *found
	if prev != nil {
		e, before = diff(prev.text, ch.Text), prev.found
	}
	fd := findAfter(before, e, ch.Text, paras, opts)
	an := &Analysis{utts: withoutLetters(ch.Text, fd.paras, fd.utts), found: fd, text: ch.Text, cast: cast, opts: opts, pov: ch.POV, povs: ch.POVs}
	attribute(prev, e, an, ch)
	return an
}

// edit is where two versions of a chapter differ: they share their
// first prefix and last suffix bytes, and the text after the edit moved
// by shift.
type edit struct {
	prefix, suffix, newLen, shift int
}

func diff(old, new string) edit {
	// Blocks first: comparing strings runs the machine's vector
	// instructions, a byte loop does not.
	const block = 64
	n := min(len(old), len(new))
	p := 0
	for p+block <= n && old[p:p+block] == new[p:p+block] {
		p += block
	}
	for p < n && old[p] == new[p] {
		p++
	}
	s := 0
	for s+block <= n-p && old[len(old)-s-block:len(old)-s] == new[len(new)-s-block:len(new)-s] {
		s += block
	}
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return edit{prefix: p, suffix: s, newLen: len(new), shift: len(new) - len(old)}
}

// unchanged says the new text's r is the old text's, and by what shift
// the old offsets become the new ones.
func (e edit) unchanged(r codex.Range) (int, bool) {
	switch {
	case r.End <= e.prefix:
		return 0, true
	case r.Start >= e.newLen-e.suffix:
		return e.shift, true
	}
	return 0, false
}

// oldOffset maps an offset of the old text to the new, where the edit
// left it.
func (e edit) oldOffset(off int) (int, bool) {
	switch {
	case off < e.prefix:
		return off, true
	case off >= e.newLen-e.shift-e.suffix:
		return off + e.shift, true
	}
	return 0, false
}

// Reading around a conversation: its window reaches back lookBack bytes
// before the paragraph before it (recent reads 4,000) and forward
// lookAhead past the paragraph after it (a tag's addressee, 40).
const (
	lookBack  = 4096
	lookAhead = 256
)

// window is the text attribution may read for conversation c, whole
// paragraphs: from lookBack before the paragraph before its first to
// the paragraph after its last and lookAhead past it (the text's end
// when no paragraph reaches so far). A speaker comment between two
// paragraphs is inside the window of both.
func (a *attributor) window(c conversation) codex.Range {
	first := max(a.para[c.from]-1, 0)
	from := max(a.paras[first].start-lookBack, 0)
	if k := a.paraOf(from); k < len(a.paras) {
		from = min(from, a.paras[k].start)
	}
	last := a.para[c.to-1]
	to := len(a.text)
	for q := last + 1; q < len(a.paras); q++ {
		if a.paras[q].end >= a.paras[last].end+lookAhead {
			to = a.paras[q].end
			break
		}
	}
	return codex.Range{Start: from, End: to}
}

// sameFacts says the chapter's facts and points of view are prev's.
func (a *attributor) sameFacts(prev *Analysis, e edit) bool {
	if !a.facts().equal(prev.facts) || a.ch.POV != prev.pov || len(a.ch.POVs) != len(prev.povs) {
		return false
	}
	for k, p := range prev.povs {
		at, ok := e.oldOffset(p.From)
		if !ok || at != a.ch.POVs[k].From || p.ID != a.ch.POVs[k].ID {
			return false
		}
	}
	return true
}

func (a *attributor) facts() chapterFacts {
	return chapterFacts{focal: a.focal, narrator: a.narrator, narratorBeside: a.narratorBeside, speaks: a.speaks, genders: a.genders}
}

// reuse takes conversation c's attribution from prev when everything
// the chain reads for it is as it was: its window's text, paragraphs,
// utterances and mentions, and the attribution of every conversation
// before it and the characters named before it as far as the chain
// looks back (farReach).
func (a *attributor) reuse(prev *Analysis, e edit, c conversation, w codex.Range) bool {
	shift, ok := e.unchanged(w)
	if !ok {
		return false
	}
	old := codex.Range{Start: w.Start - shift, End: w.End - shift}
	// The conversation in prev that starts where c does.
	start := a.utts[c.from].Marks[0].Start - shift
	k := sort.Search(len(prev.convs), func(k int) bool { return prev.utts[prev.convs[k].from].Marks[0].Start >= start })
	if k == len(prev.convs) || prev.utts[prev.convs[k].from].Marks[0].Start != start || prev.convs[k].to-prev.convs[k].from != c.to-c.from {
		return false
	}
	pc := prev.convs[k]
	if !sameParagraphs(a.paras, prev.found.paras, w, old, shift) ||
		!sameUtterances(a, prev, w, old, shift, c.from, pc.from) ||
		!sameMentions(a.ments, prev.ments, w, old, shift) {
		return false
	}
	for j := range c.to - c.from {
		u, o := &a.utts[c.from+j], prev.utts[pc.from+j]
		u.Speaker, u.Uncertain, u.Candidates, u.Rule, u.Clue, u.Tag = o.Speaker, o.Uncertain, o.Candidates, o.Rule, o.Clue, o.Tag
		if o.Tag.End > o.Tag.Start {
			u.Tag = codex.Range{Start: o.Tag.Start + shift, End: o.Tag.End + shift}
		}
		a.addressed[c.from+j] = prev.addressed[pc.from+j]
	}
	return true
}

// sameParagraphs compares the paragraphs that meet the window w of the
// new text and old of the old.
func sameParagraphs(now, was []paragraph, w, old codex.Range, shift int) bool {
	return slices.EqualFunc(overlapping(now, w), overlapping(was, old), func(p, q paragraph) bool { return sameParagraph(p, q, shift) })
}

func overlapping(ps []paragraph, w codex.Range) []paragraph {
	from := sort.Search(len(ps), func(k int) bool { return ps[k].end > w.Start })
	to := sort.Search(len(ps), func(k int) bool { return ps[k].start >= w.End })
	return ps[from:max(from, to)]
}

// sameUtterances compares the utterances the window holds, where they
// are, and the attribution of those before the conversation at from
// (was at in prev) as far back as the chain reads.
func sameUtterances(a *attributor, prev *Analysis, w, old codex.Range, shift, from, was int) bool {
	in := func(utts []Utterance, r codex.Range) []Utterance {
		i := sort.Search(len(utts), func(k int) bool { return utts[k].Marks[0].Start >= r.Start })
		j := sort.Search(len(utts), func(k int) bool { return utts[k].Marks[0].Start >= r.End })
		return utts[i:j]
	}
	if !slices.EqualFunc(in(a.utts, w), in(prev.utts, old), func(u, o Utterance) bool {
		return movedBy(u.Marks, o.Marks, shift) && movedBy(u.Spans, o.Spans, shift)
	}) {
		return false
	}
	// Attributed before: compare back to farReach and a conversation's
	// few turns more, and as many of them.
	back := farReach + 8
	if min(from, back) != min(was, back) {
		return false
	}
	for j := 1; j <= min(from, back); j++ {
		u, o := a.utts[from-j], prev.utts[was-j]
		if u.Speaker != o.Speaker || u.Uncertain != o.Uncertain || u.Rule != o.Rule ||
			!slices.Equal(u.Candidates, o.Candidates) || !slices.Equal(a.addressed[from-j], prev.addressed[was-j]) {
			return false
		}
	}
	return true
}

// sameMentions compares the characters' mentions inside the window,
// where they are, and the farReach before it, in order.
func sameMentions(now, was []charMention, w, old codex.Range, shift int) bool {
	span := func(ms []charMention, r codex.Range) (int, int) {
		return sort.Search(len(ms), func(k int) bool { return ms[k].r.Start >= r.Start }),
			sort.Search(len(ms), func(k int) bool { return ms[k].r.Start >= r.End })
	}
	i, j := span(now, w)
	oi, oj := span(was, old)
	if j-i != oj-oi || min(i, farReach) != min(oi, farReach) {
		return false
	}
	same := func(m, o charMention) bool { return m.inQuote == o.inQuote && slices.Equal(m.ids, o.ids) }
	for k := range j - i {
		m, o := now[i+k], was[oi+k]
		if m.r.Start != o.r.Start+shift || m.r.End != o.r.End+shift || !same(m, o) {
			return false
		}
	}
	for k := 1; k <= min(i, farReach); k++ {
		if !same(now[i-k], was[oi-k]) {
			return false
		}
	}
	return true
}
