package bookmap

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Graph is the relationship web: the entries most mentioned, each drawn
// once on a circle grouped by type, with an edge for each [[link]]
// between two of them and a lighter one for each pair that shares many
// chapters.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
	// Candidates counts the entries that could be drawn (mentioned, or
	// linked to or from); Nodes holds at most MaxNodes of them.
	Candidates int `json:"candidates"`
	MaxNodes   int `json:"maxNodes"`
	// MinShared is the fewest chapters a pair shares for a co-appearance
	// edge; MaxShared the most such edges drawn (the pairs sharing most).
	MinShared int `json:"minShared"`
	MaxShared int `json:"maxShared"`
	// SharedPairs counts the pairs at or above MinShared before the cap.
	SharedPairs int `json:"sharedPairs"`
}

// Node is one entry on the circle; X and Y are its centre in a square
// of side Size.
type Node struct {
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Type  codex.Type `json:"type"`
	Total int        `json:"total"`
	X     float64    `json:"x"`
	Y     float64    `json:"y"`
	// Angle is where the node sits on the circle, in radians from the
	// top, for its label.
	Angle float64 `json:"-"`
}

// Edge joins two nodes (indexes into Nodes, From < To).
type Edge struct {
	From int `json:"from"`
	To   int `json:"to"`
	// Link says a [[link]] joins them (either way); else they share
	// Shared chapters.
	Link   bool `json:"link,omitempty"`
	Shared int  `json:"shared"`
}

// Size is the side of the graph's drawing square.
func (g Graph) Size() float64 {
	return 2 * (g.radius() + 170)
}

// radius grows with the nodes so labels keep about 14 px apart.
func (g Graph) radius() float64 {
	return math.Max(220, float64(len(g.Nodes))*14/(2*math.Pi))
}

// graphOf picks the nodes and edges of m's graph.
func graphOf(m *Map, cat *codex.Catalog, resolve *resolver, opts Options) Graph {
	g := Graph{Nodes: []Node{}, Edges: []Edge{}, MaxNodes: opts.MaxNodes, MinShared: opts.MinShared}
	g.MaxShared = 2 * opts.MaxNodes
	// Candidates: every mentioned entry, and every entry that links or
	// is linked, mentioned or not.
	type cand struct {
		e     Entry
		links int
	}
	byID := map[string]*cand{}
	var cands []*cand
	add := func(e Entry) *cand {
		if c, ok := byID[e.ID]; ok {
			return c
		}
		c := &cand{e: e}
		byID[e.ID] = c
		cands = append(cands, c)
		return c
	}
	for _, e := range m.Entries {
		add(e)
	}
	for _, e := range m.Unmentioned {
		if len(e.links) > 0 {
			add(e)
		}
	}
	for _, c := range slices.Clone(cands) {
		for _, id := range c.e.links {
			c.links++
			if t, ok := byID[id]; ok {
				t.links++
			} else {
				add(entryOf(cat, resolve, id)).links++
			}
		}
	}
	g.Candidates = len(cands)
	slices.SortStableFunc(cands, func(a, b *cand) int {
		return cmp.Or(cmp.Compare(b.e.Total, a.e.Total), cmp.Compare(b.links, a.links),
			strings.Compare(a.e.Name, b.e.Name), strings.Compare(a.e.ID, b.e.ID))
	})
	cands = cands[:min(len(cands), opts.MaxNodes)]
	slices.SortStableFunc(cands, func(a, b *cand) int {
		return cmp.Or(compareTypes(a.e.Type, b.e.Type), cmp.Compare(b.e.Total, a.e.Total),
			strings.Compare(a.e.Name, b.e.Name), strings.Compare(a.e.ID, b.e.ID))
	})
	index := map[string]int{}
	for i, c := range cands {
		index[c.e.ID] = i
		g.Nodes = append(g.Nodes, Node{ID: c.e.ID, Name: c.e.Name, Type: c.e.Type, Total: c.e.Total})
	}
	g.place()

	linked := map[[2]int]bool{}
	for i, c := range cands {
		for _, id := range c.e.links {
			j, ok := index[id]
			if !ok {
				continue
			}
			linked[[2]int{min(i, j), max(i, j)}] = true
		}
	}
	var shared []Edge
	for i := range cands {
		for j := i + 1; j < len(cands); j++ {
			n := sharedChapters(cands[i].e.Cells, cands[j].e.Cells)
			if linked[[2]int{i, j}] {
				g.Edges = append(g.Edges, Edge{From: i, To: j, Link: true, Shared: n})
				continue
			}
			if n >= opts.MinShared {
				shared = append(shared, Edge{From: i, To: j, Shared: n})
			}
		}
	}
	g.SharedPairs = len(shared)
	slices.SortStableFunc(shared, func(a, b Edge) int { return cmp.Compare(b.Shared, a.Shared) })
	shared = shared[:min(len(shared), g.MaxShared)]
	g.Edges = append(g.Edges, shared...)
	slices.SortFunc(g.Edges, func(a, b Edge) int {
		// Shared edges first, so links are drawn over them.
		return cmp.Or(boolRank(a.Link, b.Link), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	return g
}

func boolRank(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// sharedChapters counts the chapters two entries' cells have in common;
// cells are in chapter order.
func sharedChapters(a, b []Cell) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Chapter == b[j].Chapter:
			n++
			i++
			j++
		case a[i].Chapter < b[j].Chapter:
			i++
		default:
			j++
		}
	}
	return n
}

// place spreads the nodes evenly on a circle, clockwise from the top, in
// their order (grouped by type): the same book always draws the same.
func (g *Graph) place() {
	r := g.radius()
	c := g.Size() / 2
	n := float64(len(g.Nodes))
	for i := range g.Nodes {
		a := 2 * math.Pi * float64(i) / n
		g.Nodes[i].Angle = a
		g.Nodes[i].X = round1(c + r*math.Sin(a))
		g.Nodes[i].Y = round1(c - r*math.Cos(a))
	}
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }
