package manuscript

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
)

// fuzzCatalog makes a catalog from arbitrary names: two entries, so
// ambiguity, aliases and exclusions all come into play.
func fuzzCatalog(name, alias, other, exclude string) *codex.Catalog {
	return codex.NewCatalog([]*codex.Entry{
		{ID: "a", Type: codex.TypeCharacter, Name: name, Aliases: []string{alias, other}, Exclude: []string{exclude}, Mentions: true},
		{ID: "b", Type: codex.TypeLocation, Name: other, Aliases: []string{name + " " + other}, Mentions: true},
		{ID: "c", Type: codex.TypeItem, Name: alias, Mentions: false},
	}, nil)
}

var fuzzSeeds = []struct{ text, name, alias, other, exclude string }{
	{"Mara Vell's boat met Mara at Hope Street.", "Mara Vell", "Mara", "Hope", "Hope Street"},
	{"O’Brien and o'brien and O'BRIEN", "O'Brien", "Aidan", "the Lantern", "x"},
	{"Séverine\nAubrac\n\nAubrac", "Séverine Aubrac", "Aubrac", "St. Agnes", "Aubrac"},
	{"Jean-Luc—Jean - Luc", "Jean-Luc", "—", "Luc", ""},
	{"Mara\xffVell \xe2\x80 Mara's’s", "Mara", "Vell", "Mara", "Mara's"},
	{"Thomas' Thomas's THOMAS", "Thomas", "Tom", "Thomas", "Thomas Tom"},
	{"# Corwin\n\n“Corwin,” said `Corwin`. Mr. Corwin's PORT Caddow", "Hope", "Will", "Port", "Caddow"},
	{"Вронский ждал Вронского. Анне Аркадьевне и Каренину, ВРОНСКОМУ", "Вронский", "Анна Аркадьевна", "Каренина", "графа Вронского"},
}

func FuzzScan(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.text, s.name, s.alias, s.other, s.exclude)
	}
	f.Fuzz(func(t *testing.T, text, name, alias, other, exclude string) {
		mentions := NewMatcher(fuzzCatalog(name, alias, other, exclude)).Scan(text)
		checkMentions(t, text, 0, len(text), mentions)
	})
}

// checkMentions asserts what every scan guarantees: mentions in order,
// apart, inside [from, to), starting and ending on whole runes.
func checkMentions(t *testing.T, text string, from, to int, mentions []Mention) {
	t.Helper()
	prevEnd := from
	for _, m := range mentions {
		r := m.Range
		if r.Start < prevEnd || r.End <= r.Start || r.End > to {
			t.Fatalf("range %v out of order or bounds (previous end %d, limit %d) in %q", r, prevEnd, to, text)
		}
		if c, size := utf8.DecodeRuneInString(text[r.Start:]); c == utf8.RuneError && size <= 1 {
			t.Fatalf("range %v does not start on a rune in %q", r, text)
		}
		if c, size := utf8.DecodeLastRuneInString(text[:r.End]); c == utf8.RuneError && size <= 1 {
			t.Fatalf("range %v does not end on a rune in %q", r, text)
		}
		if m.Entry == "" || slices.Contains(m.Others, m.Entry) || !slices.IsSorted(m.Others) {
			t.Fatalf("bad entries %q %q", m.Entry, m.Others)
		}
		if m.Declined && !m.Alias {
			t.Fatalf("a declined mention %v is not marked an alias", r)
		}
		if m.Entry == "c" || slices.Contains(m.Others, "c") {
			t.Fatalf("entry with mentions: false was matched")
		}
		prevEnd = r.End
	}
}

// FuzzMentionIndex scans arbitrary chapters, front matter and Markdown
// included, and checks the untracked names as well as the mentions.
func FuzzMentionIndex(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add("---\ntitle: x\n---\n"+s.text, s.name, s.alias)
	}
	f.Fuzz(func(t *testing.T, text, name, alias string) {
		u := NewUnit("manuscript/01-x.md", text, 0)
		cat := fuzzCatalog(name, alias, "Port Caddow", "")
		ix := BuildMentionIndex(NewMatcher(cat), []*Unit{u})
		checkMentions(t, u.Text, u.Body.Start, u.Body.End, ix.Mentions(u.Path))
		for _, n := range ix.Untracked(1) {
			r := n.First.Range
			if r.Start < u.Body.Start || r.End > u.Body.End || r.Start >= r.End || oneLine(u.Text[r.Start:r.End]) != n.Name || n.Count < 1 {
				t.Fatalf("bad untracked name %+v in %q", n, u.Text)
			}
			// The promise: an entry of the name, its aliases and its
			// exclusions finds what the suggestion counted.
			e := &codex.Entry{ID: "new", Type: codex.TypeCharacter, Name: n.Name, Aliases: n.Aliases, Exclude: n.Exclude, Mentions: true}
			got := 0
			for _, mn := range NewMatcherOf(append(cat.All(), e)).scan(u.Text[:u.Body.End], u.Body.Start, false) {
				if mn.Entry == e.ID || slices.Contains(mn.Others, e.ID) {
					got++
				}
			}
			if got != n.Count {
				t.Fatalf("untracked %+v promises %d mentions, its entry finds %d in %q", n, n.Count, got, u.Text)
			}
		}
	})
}

// FuzzWordKey checks the allocation-free word key against the codex's
// normalization, which names are looked up by everywhere else.
func FuzzWordKey(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tok := proseTokenizer{text: text}
		var x proseToken
		for tok.next(&x) {
			if x.kind != proseWord {
				continue
			}
			word := text[x.start:x.end]
			if got, want := string(appendWordKey(nil, word)), codex.Normalize(word); got != want {
				t.Fatalf("key of %q is %q, Normalize gives %q", word, got, want)
			}
		}
	})
}
