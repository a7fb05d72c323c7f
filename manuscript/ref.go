package manuscript

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Special references, as the advisor's get_manuscript_context takes them.
const (
	RefCurrent   = "current"
	RefSelection = "selection"
)

// maxRefLength bounds a reference; no title or path is longer.
const maxRefLength = 512

// Place is where the writer is, as the editor told quire for one
// advisor turn.
type Place struct {
	// Current is the project-relative path of the active document.
	Current string
	// Selection is the text the writer selected, captured for this turn.
	Selection *Selection
}

// RefError explains a reference that resolved to nothing or to more than
// one unit, with the units it could have meant.
type RefError struct {
	Ref        string
	Ambiguous  bool
	Reason     string
	Candidates []Candidate
}

// Candidate is a unit a failed reference may have meant.
type Candidate struct {
	Ref   string `json:"ref"`
	Path  string `json:"path"`
	Title string `json:"title"`
}

func (e *RefError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "manuscript reference %q: %s", e.Ref, e.Reason)
	if len(e.Candidates) > 0 {
		if e.Ambiguous {
			b.WriteString("; it could be ")
		} else {
			b.WriteString("; closest: ")
		}
		for i, c := range e.Candidates {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %q (%s)", c.Ref, c.Title, c.Path)
		}
	}
	return b.String()
}

// chapterNumber reads references such as "3", "chapter 3", "Ch. 3", "#3".
var chapterNumber = regexp.MustCompile(`(?i)^(?:chapter|chap\.?|ch\.?|#)?\s*(\d{1,6})$`)

// Resolve finds the unit a reference names: "current" (the active
// document), a chapter number, a title (ignoring case and accents; a
// unique prefix will do) or a project-relative path. "selection" is not a
// unit; Context handles it.
func (s *Snapshot) Resolve(ref string, place Place) (*Unit, error) {
	r := strings.TrimSpace(ref)
	switch {
	case r == "":
		return nil, &RefError{Ref: ref, Reason: "is empty; use current, selection, a chapter number, a title or a path"}
	case len(r) > maxRefLength:
		// Cut on a character boundary: the error goes back as JSON.
		return nil, &RefError{Ref: strings.ToValidUTF8(r[:64], "") + "…", Reason: fmt.Sprintf("is longer than %d bytes", maxRefLength)}
	case strings.EqualFold(r, RefCurrent):
		if place.Current == "" {
			return nil, &RefError{Ref: ref, Reason: "no document is active"}
		}
		return s.Document(place.Current)
	case strings.EqualFold(r, RefSelection):
		return nil, &RefError{Ref: ref, Reason: "a selection is not a document; read it through the context"}
	}
	if m := chapterNumber.FindStringSubmatch(r); m != nil {
		n, _ := strconv.Atoi(m[1])
		u, err := s.byNumber(r, n)
		var re *RefError
		if strings.HasPrefix(r, "#") && errors.As(err, &re) && !re.Ambiguous {
			// "#3" is also how quire labels the third chapter when its
			// file name has no number (ChapterLabel): no file numbered 3,
			// then the third in reading order.
			return s.byPosition(r, n)
		}
		return u, err
	}
	if looksLikePath(r) {
		u, err := s.byPath1(r)
		if err == nil {
			return u, nil
		}
		// A title may look like a file name or a path ("Either/Or", "24/7");
		// try it as one before failing. After a refusal only a title that
		// names a chapter exactly will do: that reads nothing but a chapter,
		// which lies inside the project whatever the path rules say of ref.
		refused := errors.Is(err, ErrPathRefused)
		if t, terr := s.byTitle(r); terr == nil && (!refused || codex.Normalize(t.Title) == codex.Normalize(r)) {
			return t, nil
		}
		if refused {
			return nil, err
		}
		return nil, &RefError{Ref: r, Reason: "no such manuscript file", Candidates: s.candidates(s.closest(r))}
	}
	u, err := s.byTitle(r)
	var re *RefError
	if errors.As(err, &re) && !re.Ambiguous && fileName.MatchString(r) {
		// No title, and named like a file that is not Markdown
		// ("notes.txt", ".env"): refused as such a path is.
		if _, perr := checkRelPath(r); perr != nil {
			return nil, perr
		}
	}
	return u, err
}

// fileName matches a bare file name with an extension, such as a
// reference to a file in the project root would be.
var fileName = regexp.MustCompile(`^[^\s/\\]*\.[A-Za-z0-9]{1,10}$`)

// looksLikePath tells path references from titles: a path has a folder
// separator or a Markdown extension, or tries to escape.
func looksLikePath(r string) bool {
	return strings.ContainsAny(r, "/\\") || codex.IsMarkdown(r) || strings.HasPrefix(r, "~") ||
		strings.HasPrefix(r, "..") || percentEscape.MatchString(r) || driveLetter.MatchString(r)
}

func (s *Snapshot) byNumber(ref string, n int) (*Unit, error) {
	var hits []*Unit
	numbered := false
	for _, u := range s.units {
		numbered = numbered || u.Number > 0 || hasLeadingNumber(path.Base(u.Path))
		if u.Number == n && hasLeadingNumber(path.Base(u.Path)) {
			hits = append(hits, u)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return nil, &RefError{Ref: ref, Ambiguous: true, Reason: fmt.Sprintf("%d files are numbered %d", len(hits), n), Candidates: s.candidates(hits)}
	case !numbered && n >= 1 && n <= len(s.units):
		// No file name carries a number: the nth in reading order.
		return s.units[n-1], nil
	}
	reason := fmt.Sprintf("no chapter is numbered %d", n)
	if !numbered {
		reason = fmt.Sprintf("the manuscript has %d chapters", len(s.units))
	}
	return nil, &RefError{Ref: ref, Reason: reason, Candidates: s.candidates(s.nearNumber(n, numbered))}
}

// byPosition finds the nth chapter in reading order.
func (s *Snapshot) byPosition(ref string, n int) (*Unit, error) {
	for _, u := range s.units {
		if u.Position == n && n > 0 {
			return u, nil
		}
	}
	return nil, &RefError{Ref: ref, Reason: fmt.Sprintf("the manuscript has %d chapters", s.chapterCount()), Candidates: s.candidates(s.nearNumber(n, false))}
}

// chapterCount is how many units are chapters of the manuscript.
func (s *Snapshot) chapterCount() int {
	n := 0
	for _, u := range s.units {
		if u.Position > 0 {
			n++
		}
	}
	return n
}

// nearNumber lists up to three chapters whose number (or position) is
// closest to n.
func (s *Snapshot) nearNumber(n int, numbered bool) []*Unit {
	near := slices.Clone(s.units)
	key := func(u *Unit) int {
		if numbered {
			return u.Number
		}
		return u.Position
	}
	slices.SortStableFunc(near, func(a, b *Unit) int { return absInt(key(a)-n) - absInt(key(b)-n) })
	return near[:min(3, len(near))]
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s *Snapshot) byPath1(ref string) (*Unit, error) {
	clean, err := checkRelPath(ref)
	if err != nil {
		return nil, err
	}
	return s.Document(clean)
}

func (s *Snapshot) byTitle(ref string) (*Unit, error) {
	want := titleKey(ref)
	if want == "" {
		// Nothing left to compare (say, only combining marks): every title
		// would start with it.
		return nil, &RefError{Ref: ref, Reason: "names no title"}
	}
	var exact, prefix []*Unit
	for _, u := range s.units {
		title := titleKey(u.Title)
		stem := titleKey(stemOf(path.Base(u.Path)))
		switch {
		case title == want || stem == want || titleKey(titleFromName(path.Base(u.Path))) == want:
			exact = append(exact, u)
		case strings.HasPrefix(title, want) || strings.HasPrefix(titleWithoutArticle(title), want):
			prefix = append(prefix, u)
		}
	}
	for _, hits := range [][]*Unit{exact, prefix} {
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			return nil, &RefError{Ref: ref, Ambiguous: true, Reason: fmt.Sprintf("matches %d chapters", len(hits)), Candidates: s.candidates(hits)}
		}
	}
	return nil, &RefError{Ref: ref, Reason: "no chapter has that title", Candidates: s.candidates(s.closest(ref))}
}

// titleKey is a title as references compare it: normalized, with
// punctuation and runs of space between words made one space, so
// "salt debt" names "Salt-Debt" and "the storm" names "The Storm!".
func titleKey(t string) string {
	words := strings.FieldsFunc(codex.Normalize(t), func(r rune) bool {
		return !isWordRune(r) && r != '\''
	})
	return strings.Join(words, " ")
}

func titleWithoutArticle(t string) string {
	for _, a := range []string{"the ", "a ", "an "} {
		if strings.HasPrefix(t, a) {
			return t[len(a):]
		}
	}
	return t
}

// closest ranks the chapters by how near their title or file name is to
// ref, for an error that helps the caller try again.
func (s *Snapshot) closest(ref string) []*Unit {
	want := codex.Normalize(ref)
	type scored struct {
		u    *Unit
		dist float64
	}
	var all []scored
	for _, u := range s.units {
		best := 1.0
		for _, cand := range []string{codex.Normalize(u.Title), codex.Normalize(stemOf(path.Base(u.Path))), u.Path} {
			d := float64(levenshtein(want, cand)) / float64(max(len([]rune(want)), len([]rune(cand)), 1))
			if strings.Contains(cand, want) || strings.Contains(want, cand) {
				d /= 2
			}
			best = min(best, d)
		}
		if best < 0.6 {
			all = append(all, scored{u, best})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return a.u.Position - b.u.Position
	})
	var out []*Unit
	for i := 0; i < len(all) && i < 5; i++ {
		out = append(out, all[i].u)
	}
	return out
}

// maxCandidates bounds the chapters an error suggests.
const maxCandidates = 8

func (s *Snapshot) candidates(units []*Unit) []Candidate {
	units = units[:min(len(units), maxCandidates)]
	out := make([]Candidate, 0, len(units))
	for _, u := range units {
		out = append(out, Candidate{Ref: s.refFor(u), Path: u.Path, Title: u.Title})
	}
	return out
}

// refFor is the shortest reference that names u: its number, unless
// another chapter carries it too (parts often number their chapters
// afresh), when the number would only be ambiguous again; else its path.
func (s *Snapshot) refFor(u *Unit) string {
	if u.Number > 0 && !slices.ContainsFunc(s.units, func(o *Unit) bool { return o.Number == u.Number && o.Path != u.Path }) {
		return strconv.Itoa(u.Number)
	}
	return u.Path
}

// levenshtein is the edit distance between two short strings, in runes.
func levenshtein(a, b string) int {
	ar, br := []rune(a), []rune(b)
	if len(ar) > 256 {
		ar = ar[:256]
	}
	if len(br) > 256 {
		br = br[:256]
	}
	prev := make([]int, len(br)+1)
	cur := make([]int, len(br)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ar); i++ {
		cur[0] = i
		for j := 1; j <= len(br); j++ {
			cost := 1
			if ar[i-1] == br[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(br)]
}
