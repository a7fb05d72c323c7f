package snapshot

import (
	"slices"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// A diff's cost must not follow what a writer did to a chapter. The
// shortest diff of two texts (Myers's, which diffmatchpatch computes)
// costs the texts' length times the number of tokens that differ: for
// an edit of a few words, nothing; for a chapter whose paragraphs were
// moved about, or a novel kept in one file and rewritten, the square of
// its length (Emma in one file, its paragraphs shuffled: seven minutes,
// each time the chapter was kept). So the shortest diff is asked only of
// spans short enough to pay for it, and a long span is first cut where
// the two texts surely agree: at the tokens each holds exactly once, in
// the longest run in which both hold them in the same order (a patience
// diff's anchors). Between anchors the same again, until the spans are
// short; a span with no anchor, or once the work allowed is spent, is
// shown as replaced whole: still a true diff, only coarser.

// shortestDiffTokens is the longest span (both sides' tokens together)
// whose shortest diff is computed: at most its square in work.
const shortestDiffTokens = 2048

// diffWork bounds the work of one diff, in tokens visited, for texts of
// n tokens together: a constant times n, and room for the shortest diff
// of a few short spans however short the texts.
func diffWork(n int) int { return 64*n + 4*shortestDiffTokens*shortestDiffTokens }

// boundedDiff is the diff of a and b, each rune one token, in work at
// most diffWork(len(a)+len(b)): the shortest where that is affordable.
func boundedDiff(a, b []rune) []diffmatchpatch.Diff {
	d := differ{work: diffWork(len(a) + len(b))}
	d.diff(a, b)
	return d.out
}

// differ builds one bounded diff.
type differ struct {
	out []diffmatchpatch.Diff
	// work is what is left of the work allowed.
	work int
}

// charge takes n from the work left; false when too little is left.
func (d *differ) charge(n int) bool {
	if n > d.work {
		return false
	}
	d.work -= n
	return true
}

// emit appends a run of op, merged with the run before when it is of
// the same op.
func (d *differ) emit(op diffmatchpatch.Operation, text []rune) {
	if len(text) == 0 {
		return
	}
	if n := len(d.out); n > 0 && d.out[n-1].Type == op {
		d.out[n-1].Text += string(text)
		return
	}
	d.out = append(d.out, diffmatchpatch.Diff{Type: op, Text: string(text)})
}

func (d *differ) diff(a, b []rune) {
	pre := commonPrefix(a, b)
	d.emit(diffmatchpatch.DiffEqual, a[:pre])
	a, b = a[pre:], b[pre:]
	suf := commonSuffix(a, b)
	end := a[len(a)-suf:]
	a, b = a[:len(a)-suf], b[:len(b)-suf]
	d.charge(pre + suf)
	switch n := len(a) + len(b); {
	case len(a) == 0 || len(b) == 0:
		d.replace(a, b)
	case n <= shortestDiffTokens && d.charge(n*n):
		dmp := diffmatchpatch.New()
		dmp.DiffTimeout = 0
		for _, x := range dmp.DiffMainRunes(a, b, false) {
			d.emit(x.Type, []rune(x.Text))
		}
	case d.charge(2 * n):
		anchors := uniqueInOrder(a, b)
		if len(anchors) == 0 {
			d.replace(a, b)
			break
		}
		ai, bi := 0, 0
		for _, p := range anchors {
			d.diff(a[ai:p.a], b[bi:p.b])
			d.emit(diffmatchpatch.DiffEqual, a[p.a:p.a+1])
			ai, bi = p.a+1, p.b+1
		}
		d.diff(a[ai:], b[bi:])
	default:
		d.replace(a, b)
	}
	d.emit(diffmatchpatch.DiffEqual, end)
}

// replace shows a as removed and b as added.
func (d *differ) replace(a, b []rune) {
	d.emit(diffmatchpatch.DiffDelete, a)
	d.emit(diffmatchpatch.DiffInsert, b)
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// anchor is a token both sides hold once: at a[a] and b[b].
type anchor struct{ a, b int }

// uniqueInOrder are the tokens a and b each hold exactly once, the
// longest run of them that both hold in the same order, in that order.
// O(n log n) in their length.
func uniqueInOrder(a, b []rune) []anchor {
	type seen struct{ na, nb, a, b int }
	at := make(map[rune]*seen, len(a))
	for i, r := range a {
		s := at[r]
		if s == nil {
			s = &seen{}
			at[r] = s
		}
		s.na++
		s.a = i
	}
	for i, r := range b {
		if s := at[r]; s != nil {
			s.nb++
			s.b = i
		}
	}
	var both []anchor
	for i, r := range a {
		if s := at[r]; s.na == 1 && s.nb == 1 {
			both = append(both, anchor{a: i, b: s.b})
		}
	}
	return longestIncreasing(both)
}

// longestIncreasing is the longest run of ps (in a's order) whose b
// positions increase: patience sorting, each pile's top the smallest b
// that ends a run of its length.
func longestIncreasing(ps []anchor) []anchor {
	if len(ps) == 0 {
		return nil
	}
	tops := []int{}              // index into ps of each pile's top
	back := make([]int, len(ps)) // the top of the pile before, when each was placed
	for i, p := range ps {
		k, _ := slices.BinarySearchFunc(tops, p.b, func(t int, b int) int { return ps[t].b - b })
		if k > 0 {
			back[i] = tops[k-1]
		} else {
			back[i] = -1
		}
		if k == len(tops) {
			tops = append(tops, i)
		} else {
			tops[k] = i
		}
	}
	out := make([]anchor, len(tops))
	for i, k := tops[len(tops)-1], len(tops)-1; k >= 0; i, k = back[i], k-1 {
		out[k] = ps[i]
	}
	return out
}
