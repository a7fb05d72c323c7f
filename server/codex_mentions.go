package server

import (
	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// codexMention is a mention of an entry inside a codex file.
type codexMention struct {
	path    string // project-relative file: an entry or a soul.md
	text    string
	mention manuscript.Mention
}

// codexMentions lists the mentions of each entry across the codex, found
// with one scan of every entry and soul. It is built on first use for a
// catalog and kept until the codex changes: references and rename reuse
// it, and a 10,000-entry codex takes a fraction of a second to scan.
type codexMentions struct {
	cat     *codex.Catalog
	matcher *manuscript.Matcher
	byEntry map[string][]codexMention
}

func scanCodex(cat *codex.Catalog, m *manuscript.Matcher) *codexMentions {
	cm := &codexMentions{cat: cat, matcher: m, byEntry: map[string][]codexMention{}}
	add := func(path, text string, body codex.Range) {
		for _, mn := range m.Scan(text[body.Start:body.End]) {
			mn.Range.Start += body.Start
			mn.Range.End += body.Start
			for _, id := range append([]string{mn.Entry}, mn.Others...) {
				cm.byEntry[id] = append(cm.byEntry[id], codexMention{path: path, text: text, mention: mn})
			}
		}
	}
	for _, e := range cat.All() {
		add(e.ID, e.Source, e.Body)
		if e.Soul != nil {
			add(e.Soul.ID, e.Soul.Source, e.Soul.Body)
		}
	}
	return cm
}

// codexMentionsFor returns the project's scan of its codex for cat and m,
// scanning again when either changed.
func (p *openBook) codexMentionsFor(cat *codex.Catalog, m *manuscript.Matcher) *codexMentions {
	p.codexMu.Lock()
	defer p.codexMu.Unlock()
	if p.codexScan == nil || p.codexScan.cat != cat || p.codexScan.matcher != m {
		p.codexScan = scanCodex(cat, m)
	}
	return p.codexScan
}
