package server

import (
	"sort"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// speechCache keeps the last attribution of each chapter a feature asked
// about, so that one version's semantic tokens, inlay hints and hovers
// attribute it once. An entry holds while the chapter's text, the codex
// and the book's dialogue settings are the ones it was made from.
type speechCache struct {
	mu      sync.Mutex
	entries map[string]speechEntry
}

type speechEntry struct {
	cat   *codex.Catalog
	names *manuscript.Matcher
	opts  dialogue.Options
	// an is the chapter's analysis, its utterances each with its
	// speaker: the next version of the chapter, read with the same
	// cast, takes from it what its edit did not reach
	// (dialogue.AnalyzeAfter).
	an *dialogue.Analysis
	// ch is the chapter an was read from: its text, and as its mentions
	// every name its body uses, the uncertain ones marked
	// (Matcher.ScanAll): attribution reads the certain ones, the
	// semantic tokens colour them all. A speaker line is tried in it
	// (speakerActions).
	ch dialogue.Chapter
}

// maxSpeechEntries bounds the cache: a writer has a few chapters open,
// and one attribution costs about a millisecond.
const maxSpeechEntries = 64

// speechOf is the speech of the chapter rel with the text the editor
// shows: its utterances, each with its speaker. ok is false for a file
// that is no chapter of the book.
func (p *openBook) speechOf(snap *manuscript.Snapshot, cat *codex.Catalog, rel, text string) (*manuscript.Unit, speechEntry, bool) {
	u, ok := chapterUnit(snap, rel, text, 0)
	if !ok || u.Position == 0 {
		return nil, speechEntry{}, false
	}
	opts := p.configOf().dialogue
	names := p.matcher.Load()
	c := &p.speech
	c.mu.Lock()
	e, hit := c.entries[rel]
	c.mu.Unlock()
	book := dialogue.NewBook(snap, cat, opts).WithNames(names).WithNarrators(&p.narrators)
	same := hit && e.cat == cat && e.names == names && e.opts.Equal(opts)
	if same {
		book = book.WithCast(e.an.Cast())
	}
	// An analysis that read the other chapters' votes for the book's
	// narrator holds while they do.
	if same && e.ch.Text == text {
		if others, asked := e.an.OtherVotes(); !asked || others.Equal(book.OtherVotes(u)) {
			return u, e, true
		}
	}
	ch := book.Chapter(u)
	// The chapter's last version, read with the same codex, names and
	// settings, lends the conversations this edit did not reach.
	var prev *dialogue.Analysis
	if same {
		prev = e.an
	}
	// One scan of the names serves the attribution and the tokens.
	if names != nil && u.Body.End <= len(u.Text) {
		ch.Mentions = names.ScanAll(u.Text[u.Body.Start:u.Body.End])
		for i := range ch.Mentions {
			ch.Mentions[i].Range.Start += u.Body.Start
			ch.Mentions[i].Range.End += u.Body.Start
		}
	}
	an := dialogue.AnalyzeAfter(prev, ch, book.Cast(), opts)
	book.Remember(u, an)
	e = speechEntry{cat: cat, names: names, opts: opts, an: an, ch: ch}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]speechEntry{}
	}
	if len(c.entries) >= maxSpeechEntries {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[rel] = e
	return u, e, true
}

// speech is speechOf for the target's document: its unit and utterances.
func (t *target) speech() (*manuscript.Unit, []dialogue.Utterance, bool) {
	u, e, ok := t.speechEntry()
	return u, e.utts(), ok
}

// utts are the chapter's utterances, none for no entry.
func (e speechEntry) utts() []dialogue.Utterance {
	if e.an == nil {
		return nil
	}
	return e.an.Utterances()
}

func (t *target) speechEntry() (*manuscript.Unit, speechEntry, bool) {
	if t.series != nil {
		return nil, speechEntry{}, false
	}
	return t.proj.speechOf(t.snap, t.cat, t.rel, t.text)
}

// utteranceAt finds the utterance whose marks hold the offset off.
func utteranceAt(utts []dialogue.Utterance, off int) (*dialogue.Utterance, bool) {
	k, ok := utteranceIndex(utts, off)
	if !ok {
		return nil, false
	}
	return &utts[k], true
}

// utteranceIndex is utteranceAt's utterance's place in utts.
func utteranceIndex(utts []dialogue.Utterance, off int) (int, bool) {
	k := sort.Search(len(utts), func(k int) bool { return utts[k].Span().End > off })
	if k == len(utts) {
		return 0, false
	}
	for _, m := range utts[k].Marks {
		if m.Start <= off && off < m.End {
			return k, true
		}
	}
	return 0, false
}

// entryName is a function from entry ID to the name a writer reads.
func entryName(cat *codex.Catalog) func(string) string {
	return func(id string) string {
		if e, ok := cat.Get(id); ok {
			return codex.PrintableName(e.Name)
		}
		return id
	}
}
