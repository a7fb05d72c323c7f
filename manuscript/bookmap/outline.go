package bookmap

import (
	"cmp"
	"context"
	"html"
	"html/template"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/outline"
)

// The outline view: the book as acts, chapters and scenes, each a card
// with its synopsis, point of view, day, place, status and words, which
// the page sorts, filters and edits (docs/book-map.md).

const (
	// DefaultMaxScenes is how many scene cards the outline view draws. A
	// card is up to a kilobyte of page (its people lists are most of
	// it): a series of 800 chapters of five scenes each still draws
	// every one, and a book whose breaks run wild (a thousand "***" in a
	// chapter) stays a page a browser opens.
	DefaultMaxScenes = 4000
	// maxSynopsisShown is how much of a synopsis a card shows, in
	// characters: a synopsis is a paragraph, and a card that holds a
	// chapter's worth of text hides the cards after it. The edit form
	// gets the whole of it.
	maxSynopsisShown = 280
	// maxSynopsisEdit is the longest synopsis the edit form takes, the
	// most quire sets (manuscript.SetOutline).
	maxSynopsisEdit = 4 << 10
)

// buildOutline reads the book's outline for the map: every chapter, and
// who speaks in each scene, as `quire outline` lists them.
func (m *Map) buildOutline(cat *codex.Catalog, snap *manuscript.Snapshot, opts Options, speech map[*manuscript.Unit][]dialogue.Utterance) {
	// Build stops only when its context does, and this one never does.
	// Who speaks is the Spoken view's attribution, not made twice.
	o, err := outline.Build(context.Background(), snap, cat, outline.Options{
		Settings: opts.Outline, Dialogue: opts.Dialogue, Speakers: true,
		Speech: func(u *manuscript.Unit) []dialogue.Utterance { return speech[u] },
	})
	if err != nil {
		return
	}
	m.Outline = o
	m.names = map[string]string{}
	resolve := func(s string) {
		if _, ok := m.names[s]; !ok && s != "" {
			m.names[s] = nameOf(cat, s)
		}
	}
	for _, a := range o.Acts {
		for _, ch := range a.Chapters {
			resolve(ch.POV)
			resolve(ch.Location)
			for _, s := range ch.Scenes {
				resolve(s.POV)
				resolve(s.Location)
			}
		}
	}
}

// codexName is the codex name a pov: or location: value resolves to, or
// the value itself: "Teo" and "Teodora Quill" are one point of view.
func (m *Map) codexName(s string) string {
	if n, ok := m.names[s]; ok {
		return n
	}
	return s
}

// fileURI is the file:// URI of the chapter at path (relative to the
// book), as quire.setOutline takes it.
func (m *Map) fileURI(path string) string {
	abs := filepath.ToSlash(filepath.Join(m.root, filepath.FromSlash(path)))
	return "file://" + escapePath(fileURIPath(abs))
}

// outlineView is what the template reads of the outline view; the cards
// themselves are written directly (outlineCards).
type outlineView struct {
	Chapters, Scenes, Stale int
	// Summary is "5 chapters, 10 scenes, 4,188 words".
	Summary string
	// Cards are the acts, chapters and scenes; Drawn counts the scene
	// cards among them, at most MaxScenes.
	Cards template.HTML
	Drawn int
	// POVs and Statuses are the filters' choices (points of view by
	// codex name), NoPOV and NoStatus whether some scene has none.
	POVs, Statuses  []string
	NoPOV, NoStatus bool
	// EditStatuses are the book's statuses, which the edit form offers.
	EditStatuses []string
	// Root is the book's folder, for the command a browser shows.
	Root string
	// SynopsisMax is the longest synopsis the edit form takes.
	SynopsisMax int
}

func (m *Map) outlineView() *outlineView {
	o := m.Outline
	if o == nil {
		return nil
	}
	v := &outlineView{Chapters: o.Chapters, Scenes: o.Scenes, Stale: o.Stale,
		Summary:      count.Of(o.Chapters, "chapter") + ", " + count.Of(o.Scenes, "scene") + ", " + count.Of(o.Words, "word"),
		EditStatuses: o.Statuses, Root: m.root, SynopsisMax: maxSynopsisEdit}
	povs, statuses := map[string]bool{}, map[string]bool{}
	for _, a := range o.Acts {
		for _, ch := range a.Chapters {
			for _, s := range ch.Scenes {
				if p := m.codexName(s.POV); p == "" {
					v.NoPOV = true
				} else if !povs[p] {
					povs[p] = true
					v.POVs = append(v.POVs, p)
				}
				if s.Status == "" {
					v.NoStatus = true
				} else {
					statuses[s.Status] = true
				}
			}
		}
	}
	slices.SortFunc(v.POVs, func(a, b string) int {
		return cmp.Or(strings.Compare(strings.ToLower(a), strings.ToLower(b)), strings.Compare(a, b))
	})
	// The book's statuses in its order, then any it does not know (quire
	// check warns about those), by name.
	for _, s := range o.Statuses {
		if statuses[s] {
			v.Statuses = append(v.Statuses, s)
			delete(statuses, s)
		}
	}
	var unknown []string
	for s := range statuses {
		unknown = append(unknown, s)
	}
	slices.Sort(unknown)
	v.Statuses = append(v.Statuses, unknown...)
	cards, drawn := m.outlineCards()
	v.Cards, v.Drawn = template.HTML(cards), drawn
	return v
}

// statusRank places a status in the book's order; no status, or one the
// book does not know, comes after them all.
func statusRank(statuses []string, s string) int {
	for i, k := range statuses {
		if strings.EqualFold(k, s) {
			return i
		}
	}
	return len(statuses)
}

// outlineCards writes the acts (a heading each that has a title), each
// chapter's card and in it its scenes' cards, the
// book's first MaxScenes scenes drawn. Like heatmapRows it is written
// directly, every value escaped: an 800-chapter series has thousands of
// cards.
func (m *Map) outlineCards() (string, int) {
	o := m.Outline
	var b strings.Builder
	b.Grow(o.Chapters*600 + min(o.Scenes, m.maxScenes)*500)
	drawn, pos := 0, 0
	for _, a := range o.Acts {
		b.WriteString(`<div class="act">`)
		// The whole book in one run of chapters is an act with no title.
		if a.Title != "" {
			b.WriteString(`<h3 class="act-title">`)
			b.WriteString(html.EscapeString(a.Title))
			b.WriteString(`</h3>`)
		}
		b.WriteString("<ol class=\"chapters\">\n")
		for _, ch := range a.Chapters {
			key := strconv.Itoa(ch.Position)
			b.WriteString(`<li class="card chapter" id="outline-ch-`)
			b.WriteString(key)
			b.WriteString(`" data-key="`)
			b.WriteString(key)
			b.WriteString(`" data-scene="0" data-uri="`)
			b.WriteString(html.EscapeString(m.fileURI(ch.Path)))
			b.WriteString(`" data-path="`)
			b.WriteString(html.EscapeString(ch.Path))
			b.WriteString(`" data-status="`)
			b.WriteString(html.EscapeString(ch.Status))
			b.WriteString(`"`)
			writeFull(&b, ch.Synopsis)
			b.WriteString(`><h4><a href="`)
			b.WriteString(html.EscapeString(m.chapterLink(ch.Path, ch.Line, 1)))
			b.WriteString(`">`)
			// The key is the place in reading order; the writer reads
			// the chapter's number as quire shows it everywhere.
			b.WriteString(html.EscapeString(ch.Label))
			b.WriteString(`. `)
			b.WriteString(html.EscapeString(ch.Title))
			b.WriteString(`</a></h4>`)
			m.writeFacts(&b, ch.Card)
			writeSynopsis(&b, ch.Card)
			b.WriteString(`<button type="button" class="edit" aria-expanded="false">Edit</button>`)
			b.WriteString("<ol class=\"scenes\">\n")
			skipped := 0
			for _, s := range ch.Scenes {
				pos++
				if drawn >= m.maxScenes {
					skipped++
					continue
				}
				drawn++
				m.writeScene(&b, ch, s, pos, o.Statuses)
			}
			b.WriteString(`</ol>`)
			if skipped > 0 {
				b.WriteString(`<p class="note">`)
				b.WriteString(count.Of(skipped, "more scene"))
				b.WriteString(` not drawn here.</p>`)
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ol></div>\n")
	}
	return b.String(), drawn
}

// writeScene writes a scene's card: its data attributes are what the
// page sorts, filters and edits by.
func (m *Map) writeScene(b *strings.Builder, ch outline.Chapter, s outline.Scene, pos int, statuses []string) {
	key := strconv.Itoa(ch.Position) + "." + strconv.Itoa(s.Number)
	b.WriteString(`<li class="card scene" data-key="`)
	b.WriteString(key)
	b.WriteString(`" data-ch="`)
	b.WriteString(strconv.Itoa(ch.Position))
	b.WriteString(`" data-scene="`)
	b.WriteString(strconv.Itoa(s.Number))
	b.WriteString(`" data-pos="`)
	b.WriteString(strconv.Itoa(pos))
	b.WriteString(`" data-pov="`)
	b.WriteString(html.EscapeString(m.codexName(s.POV)))
	b.WriteString(`" data-status="`)
	b.WriteString(html.EscapeString(s.Status))
	b.WriteString(`" data-rank="`)
	b.WriteString(strconv.Itoa(statusRank(statuses, s.Status)))
	if s.HasDay {
		b.WriteString(`" data-day="`)
		b.WriteString(strconv.Itoa(s.Day))
	}
	b.WriteString(`" data-words="`)
	b.WriteString(strconv.Itoa(s.Words))
	b.WriteString(`"`)
	writeFull(b, s.Synopsis)
	b.WriteString(`><h5><a href="`)
	b.WriteString(html.EscapeString(m.chapterLink(ch.Path, s.Line, 1)))
	b.WriteString(`">`)
	b.WriteString(html.EscapeString(ch.Label) + "." + strconv.Itoa(s.Number))
	b.WriteString(` `)
	b.WriteString(html.EscapeString(s.Title))
	b.WriteString(`</a> <span class="in">in `)
	b.WriteString(html.EscapeString(ch.Title))
	b.WriteString(`</span></h5>`)
	m.writeFacts(b, s.Card)
	writeSynopsis(b, s.Card)
	writePeople(b, "Appear", s.Appear)
	writePeople(b, "Speak", s.Speak)
	b.WriteString(`<button type="button" class="edit" aria-expanded="false">Edit</button></li>`)
	b.WriteByte('\n')
}

// writeFacts writes a card's point of view, day, place, status and
// words, each named in text (the status also as a badge).
func (m *Map) writeFacts(b *strings.Builder, c outline.Card) {
	var parts []string
	if c.POV != "" {
		parts = append(parts, "POV "+html.EscapeString(m.codexName(c.POV)))
	}
	if c.HasDay {
		parts = append(parts, "day "+strconv.Itoa(c.Day))
	}
	if c.Flashback {
		parts = append(parts, "flashback")
	}
	if c.Location != "" {
		parts = append(parts, "at "+html.EscapeString(m.codexName(c.Location)))
	}
	parts = append(parts, count.Of(c.Words, "word"))
	b.WriteString(`<p class="facts">`)
	if c.Status != "" {
		b.WriteString(`<span class="status">`)
		b.WriteString(html.EscapeString(c.Status))
		b.WriteString(`</span> `)
	}
	b.WriteString(strings.Join(parts, " · "))
	b.WriteString(`</p>`)
}

// writeSynopsis writes a card's synopsis, its first maxSynopsisShown
// characters, and the stale mark when the text changed since it was
// written.
func writeSynopsis(b *strings.Builder, c outline.Card) {
	if c.Synopsis == "" {
		b.WriteString(`<p class="synopsis none">No synopsis yet.</p>`)
		return
	}
	b.WriteString(`<p class="synopsis">`)
	if c.Stale {
		b.WriteString(`<span class="stale" title="The text changed after this synopsis was written">stale</span> `)
	}
	b.WriteString(`<span class="text">`)
	b.WriteString(html.EscapeString(clip.Runes(c.Synopsis, maxSynopsisShown)))
	b.WriteString(`</span></p>`)
}

// writeFull gives a card whose synopsis it clips the whole of it, for
// the edit form. One longer than quire sets (written by hand in the
// note) is marked instead: the form would cut its end off.
func writeFull(b *strings.Builder, synopsis string) {
	switch {
	case len(synopsis) > maxSynopsisEdit:
		b.WriteString(` data-long=""`)
	case utf8.RuneCountInString(synopsis) > maxSynopsisShown:
		b.WriteString(` data-full="`)
		b.WriteString(html.EscapeString(synopsis))
		b.WriteString(`"`)
	}
}

// writePeople writes who appears or speaks in a scene.
func writePeople(b *strings.Builder, label string, names []string) {
	if len(names) == 0 {
		return
	}
	b.WriteString(`<p class="people"><span class="label">`)
	b.WriteString(label)
	b.WriteString(`:</span> `)
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(html.EscapeString(n))
	}
	b.WriteString(`</p>`)
}
