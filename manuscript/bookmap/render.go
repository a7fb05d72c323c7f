package bookmap

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

var (
	//go:embed page.html.tmpl
	pageText string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string

	// page is parsed on first use: every quire process links this
	// package, and few write a map.
	page = sync.OnceValue(func() *template.Template {
		return template.Must(template.New("page").Funcs(template.FuncMap{
			"typeColour": typeColour,
			"typeLabel":  typeLabel,
			"typeClass":  typeClass,
			"plural":     typePlural,
			"povColour":  povColour,
			// Pipelines pass the value last: {{len .Entries | minus .Shown}}.
			"minus": func(sub, from int) int { return from - sub },
			"plus":  func(add, to float64) float64 { return to + add },
		}).Parse(pageText))
	})
)

// Write renders m as one HTML page: inline CSS, SVG and a small script
// for sorting and filtering; nothing is fetched. The same map writes the
// same bytes.
func (m *Map) Write(w io.Writer) error {
	rows, rest, shown := m.heatmapRows()
	v := view{
		Map: m, CSS: template.CSS(pageCSS), JS: template.JS(pageJS),
		Rows: template.HTML(rows), Rest: template.HTML(rest), Shown: shown,
		SpokenRows: template.HTML(m.spokenRows()), SpokenShown: len(m.topSpeakers()), Share: dialogue.Percent(m.BookShare()),
		Columns:     m.columns(),
		Timeline:    m.timelineView(),
		Graph:       m.graphView(),
		Progress:    m.progressView(),
		OutlineView: m.outlineView(),
	}
	for _, e := range m.Unmentioned {
		if len(v.UnmentionedNames) == maxUnmentionedNames {
			break
		}
		v.UnmentionedNames = append(v.UnmentionedNames, e.Name)
	}
	var buf bytes.Buffer
	if err := page().Execute(&buf, v); err != nil {
		return fmt.Errorf("render the book map: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// maxUnmentionedNames bounds the list of entries no chapter mentions.
const maxUnmentionedNames = 100

// view is what the page template reads.
type view struct {
	*Map
	CSS         template.CSS
	JS          template.JS
	Rows, Rest  template.HTML
	Shown       int
	SpokenRows  template.HTML
	SpokenShown int
	// Share is the book's share of dialogue, "31%".
	Share            string
	Columns          []column
	UnmentionedNames []string
	Timeline         timelineView
	Graph            graphView
	Progress         *progressView
	OutlineView      *outlineView
}

// column heads one chapter of the heatmap. Href is a template.URL:
// html/template lets only http, https and mailto links through as
// strings and writes #ZgotmplZ for a file:// or editor link, which
// chapterLink makes safe itself (safeTemplate).
type column struct {
	Label, Title string
	Href         template.URL
	// Share is the chapter's share of dialogue, "34%".
	Share string
}

func (m *Map) columns() []column {
	out := make([]column, len(m.Chapters))
	for i, ch := range m.Chapters {
		out[i] = column{Label: ch.Label(), Title: ch.Label() + ". " + ch.Title, Href: template.URL(m.chapterLink(ch.Path, 1, 1)),
			Share: dialogue.Percent(ch.DialogueShare)}
	}
	return out
}

// Timeline geometry, in SVG user units.
const (
	boxW, boxH = 168, 64
	colGap     = 14
	rowGap     = 8
	headH      = 28
	undatedPer = 6
)

type timelineView struct {
	Width, Height float64
	Days          []dayView
	Boxes         []boxView
	// UndatedY is where the lane of chapters without a day starts, 0
	// when there is none.
	UndatedY float64
	POVs     []povView
	// Empty says no chapter gives a day, point of view, place or
	// flashback: the view explains how to give them instead of drawing
	// a box per chapter that says nothing. Example names a character of
	// the codex for its example.
	Empty   bool
	Example string
}

type dayView struct {
	X     float64
	Label string
	Gap   bool
}

type boxView struct {
	X, Y      float64
	Colour    string
	Label     string
	Title     string
	POV       string
	Location  string
	Flashback bool
	After     string
	Href      template.URL // as column's
}

type povView struct{ Name, Colour string }

func (m *Map) timelineView() timelineView {
	t := m.Timeline
	v := timelineView{}
	if len(m.Chapters) > 0 && !slices.ContainsFunc(m.Chapters, placed) {
		v.Empty, v.Example = true, "Mara Vell"
		for _, e := range m.Entries {
			if e.Type == codex.TypeCharacter {
				v.Example = e.Name
				break
			}
		}
		return v
	}
	for i, p := range t.POVs {
		v.POVs = append(v.POVs, povView{Name: p, Colour: povColour(i)})
	}
	tallest := 0
	for i, d := range t.Days {
		x := float64(i * (boxW + colGap))
		v.Days = append(v.Days, dayView{X: x, Label: fmt.Sprintf("Day %d", d.Day), Gap: d.Gap})
		for j, ci := range d.Chapters {
			v.Boxes = append(v.Boxes, m.box(ci, x, float64(headH+j*(boxH+rowGap))))
		}
		tallest = max(tallest, len(d.Chapters))
	}
	width := max(len(t.Days), min(len(t.Undated), undatedPer)) * (boxW + colGap)
	y := float64(headH + tallest*(boxH+rowGap))
	if len(t.Undated) > 0 {
		if len(t.Days) > 0 {
			y += 24
		}
		v.UndatedY = y
		y += headH
		for k, ci := range t.Undated {
			x := float64((k % undatedPer) * (boxW + colGap))
			by := y + float64(k/undatedPer*(boxH+rowGap))
			v.Boxes = append(v.Boxes, m.box(ci, x, by))
		}
		y += float64((len(t.Undated)+undatedPer-1)/undatedPer*(boxH+rowGap)) - rowGap
	}
	v.Width, v.Height = float64(max(width, boxW)), y+4
	return v
}

// placed says the chapter's front matter gives the timeline something:
// a day (its own or one it follows), a point of view, a place or a
// flashback.
func placed(ch Chapter) bool {
	return ch.HasDay || ch.HasStoryDay || ch.POVName != "" || ch.LocationName != "" || ch.Flashback
}

func (m *Map) box(ci int, x, y float64) boxView {
	ch := m.Chapters[ci]
	b := boxView{X: x, Y: y, Colour: povColour(m.Timeline.POVIndex(ch.POVName)),
		Label: clip.Runes(ch.Label()+" · "+ch.Title, 22), Title: ch.Label() + ". " + ch.Title,
		POV: ch.POVName, Location: clip.Runes(ch.LocationName, 22), Flashback: ch.Flashback,
		Href: template.URL(m.chapterLink(ch.Path, 1, 1))}
	if ch.POVName == "" {
		b.Colour = "#FFFFFF"
	}
	if !ch.HasDay && ch.HasStoryDay {
		b.After = fmt.Sprintf("after day %d", ch.StoryDay)
	}
	return b
}

type graphView struct {
	Graph
	Size   float64
	Nodes  []nodeView
	Edges  []edgeView
	Types  []typeView
	Links  int
	Shared int
	// LinkList names each link, for reading without the picture.
	LinkList []string
}

type nodeView struct {
	Node
	R             float64
	Colour        string
	LX, LY, Angle float64
	Anchor        string
	Label         string
}

type edgeView struct {
	X1, Y1, X2, Y2 float64
	Link           bool
	Title          string
}

type typeView struct {
	Type   codex.Type
	Colour string
	Count  int
}

func (m *Map) graphView() graphView {
	g := m.Graph
	v := graphView{Graph: g, Size: g.Size()}
	counts := map[codex.Type]int{}
	var types []codex.Type
	for _, n := range g.Nodes {
		if counts[n.Type] == 0 {
			types = append(types, n.Type)
		}
		counts[n.Type]++
		deg := n.Angle * 180 / math.Pi
		nv := nodeView{Node: n, Colour: typeColour(n.Type), R: round1(5 + math.Min(9, math.Sqrt(float64(n.Total)))),
			Label: clip.Runes(n.Name, 26)}
		r := g.radius() + 16
		c := g.Size() / 2
		nv.LX, nv.LY = round1(c+r*math.Sin(n.Angle)), round1(c-r*math.Cos(n.Angle))
		if deg <= 180 {
			nv.Angle, nv.Anchor = round1(deg-90), "start"
		} else {
			nv.Angle, nv.Anchor = round1(deg+90), "end"
		}
		v.Nodes = append(v.Nodes, nv)
	}
	for _, t := range types {
		v.Types = append(v.Types, typeView{Type: t, Colour: typeColour(t), Count: counts[t]})
	}
	for _, e := range g.Edges {
		a, b := g.Nodes[e.From], g.Nodes[e.To]
		ev := edgeView{X1: a.X, Y1: a.Y, X2: b.X, Y2: b.Y, Link: e.Link}
		if e.Link {
			v.Links++
			ev.Title = fmt.Sprintf("%s and %s are linked", a.Name, b.Name)
			v.LinkList = append(v.LinkList, a.Name+" — "+b.Name)
		} else {
			v.Shared++
			ev.Title = fmt.Sprintf("%s and %s share %d chapters", a.Name, b.Name, e.Shared)
		}
		v.Edges = append(v.Edges, ev)
	}
	return v
}
