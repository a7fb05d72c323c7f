package server

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
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
	text  string
	cat   *codex.Catalog
	names *manuscript.Matcher
	opts  dialogue.Options
	utts  []dialogue.Utterance
}

// maxSpeechEntries bounds the cache: a writer has a few chapters open,
// and one attribution costs about a millisecond.
const maxSpeechEntries = 64

// speechOf is the speech of the chapter rel with the text the editor
// shows: its utterances, each with its speaker. ok is false for a file
// that is no chapter of the book.
func (p *openBook) speechOf(snap *manuscript.Snapshot, cat *codex.Catalog, rel, text string) (*manuscript.Unit, []dialogue.Utterance, bool) {
	u, ok := chapterUnit(snap, rel, text, 0)
	if !ok || u.Position == 0 {
		return nil, nil, false
	}
	opts := p.configOf().dialogue
	names := p.matcher.Load()
	c := &p.speech
	c.mu.Lock()
	e, hit := c.entries[rel]
	c.mu.Unlock()
	if hit && e.text == text && e.cat == cat && e.names == names && e.opts == opts {
		return u, e.utts, true
	}
	utts := dialogue.NewBook(snap, cat, opts).WithNames(names).Analyze(u)
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
	c.entries[rel] = speechEntry{text: text, cat: cat, names: names, opts: opts, utts: utts}
	return u, utts, true
}

// speech is speechOf for the target's document.
func (t *target) speech() (*manuscript.Unit, []dialogue.Utterance, bool) {
	if t.series != nil {
		return nil, nil, false
	}
	return t.proj.speechOf(t.snap, t.cat, t.rel, t.text)
}

// utteranceAt finds the utterance whose marks hold the offset off.
func utteranceAt(utts []dialogue.Utterance, off int) (*dialogue.Utterance, bool) {
	k := sort.Search(len(utts), func(k int) bool { return utts[k].Span().End > off })
	if k == len(utts) {
		return nil, false
	}
	for _, m := range utts[k].Marks {
		if m.Start <= off && off < m.End {
			return &utts[k], true
		}
	}
	return nil, false
}

// speechCard is the hover of an utterance: who speaks it, how quire
// decided, and who it may be instead when unsure; written for the
// writer, with the line that settles it.
func speechCard(u *dialogue.Utterance, name func(id string) string, tag string) string {
	var b strings.Builder
	switch {
	case !u.Uncertain:
		fmt.Fprintf(&b, "**%s** speaks.", name(u.Speaker))
	case len(u.Candidates) > 0:
		fmt.Fprintf(&b, "*Uncertain:* **%s**, perhaps.", name(u.Candidates[0]))
		if len(u.Candidates) > 1 {
			others := make([]string, 0, len(u.Candidates)-1)
			for _, id := range u.Candidates[1:] {
				others = append(others, name(id))
			}
			fmt.Fprintf(&b, " Or %s.", joinOr(others))
		}
	default:
		b.WriteString("*Uncertain:* quire cannot tell who speaks this line.")
	}
	b.WriteString("\n\n")
	b.WriteString(ruleExplanation(u.Rule, tag))
	fmt.Fprintf(&b, "\n\n%s spoken.", plural(u.Words, "word"))
	if u.Rule != dialogue.RuleWriter {
		b.WriteString(" To say who speaks, add `<!-- speaker: Name -->` after the line.")
	}
	return b.String()
}

// ruleExplanation says how a rule decided, in a writer's words.
func ruleExplanation(r dialogue.Rule, tag string) string {
	quoted := ""
	if tag = strings.Join(strings.Fields(tag), " "); tag != "" {
		quoted = fmt.Sprintf(" (“%s”)", clip.Words(tag, 60))
	}
	switch r {
	case dialogue.RuleWriter:
		return "You said so, in the line after it."
	case dialogue.RuleExplicit:
		return "Decided by the speech tag" + quoted + "."
	case dialogue.RulePronoun:
		return "Decided by the pronoun in the tag" + quoted + ": the last character it fits."
	case dialogue.RuleNarration:
		return "Decided by the paragraph's narration" + quoted + ", which names this character."
	case dialogue.RuleVocative:
		return "Decided by the line before, which speaks to this character by name."
	case dialogue.RuleTurn:
		return "Decided by turn-taking: the conversation's speakers take turns."
	}
	return "No tag, name or turn of a conversation says who speaks."
}

func joinOr(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
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
