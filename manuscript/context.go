package manuscript

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of what one get_manuscript_context call returns, in characters
// (Unicode code points, as a writer counts them).
const (
	// DefaultUnitChars matches the long-document limit of an inline
	// context fallback: enough for a long chapter.
	DefaultUnitChars = 24000
	// DefaultTotalChars bounds a comparison of several units.
	DefaultTotalChars = 60000
	// MaxRefs is the most units one call may ask for.
	MaxRefs = 8
	// minUnitChars is the least of a unit worth returning when the
	// call's budget is nearly spent.
	minUnitChars = 500
)

// Limits bound the text a context returns. Zero fields take the defaults.
type Limits struct {
	Unit  int
	Total int
}

func (l Limits) withDefaults() Limits {
	if l.Unit <= 0 {
		l.Unit = DefaultUnitChars
	}
	if l.Total <= 0 {
		l.Total = DefaultTotalChars
	}
	return l
}

// Kinds of context unit.
const (
	KindChapter   = "chapter"
	KindDocument  = "document"
	KindSelection = "selection"
)

// Context is the prose a get_manuscript_context call returns.
type Context struct {
	Units []ContextUnit `json:"units"`
	// Chars counts the characters of prose returned, markers excluded.
	Chars int `json:"chars"`
	// Truncated says some unit was cut or left out to stay in bounds.
	Truncated bool `json:"truncated"`
	// Failed lists the references that resolved to nothing, when others
	// did.
	Failed []FailedRef `json:"failed,omitempty"`
}

// ContextUnit is one unit of a Context.
type ContextUnit struct {
	Ref      string `json:"ref"`
	Kind     string `json:"kind"`
	Path     string `json:"path"`
	Title    string `json:"title"`
	Number   int    `json:"number,omitempty"`
	Position int    `json:"position,omitempty"`
	Words    int    `json:"words"`
	// Hash identifies a selection's text.
	Hash string `json:"hash,omitempty"`
	// Text is the prose, cut to the limits; a cut ends with a marker that
	// says how much is shown.
	Text string `json:"text"`
	// Chars is the true length of the unit's prose; Truncated says Text
	// holds less of it.
	Chars     int  `json:"chars"`
	Truncated bool `json:"truncated,omitempty"`
}

// FailedRef is a reference that could not be read.
type FailedRef struct {
	Ref        string      `json:"ref"`
	Error      string      `json:"error"`
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Context reads the units refs name, bounded by lim. The selection comes
// from place; "current" is the place's active document. It fails when no
// reference resolves; otherwise the failures are listed in the result.
func (s *Snapshot) Context(refs []string, place Place, lim Limits) (*Context, error) {
	lim = lim.withDefaults()
	if len(refs) == 0 {
		return nil, &RefError{Reason: "no reference given; use current, selection, a chapter number, a title or a path"}
	}
	if len(refs) > MaxRefs {
		return nil, &RefError{Ref: strings.Join(refs[:3], ", ") + ", …", Reason: fmt.Sprintf("%d references asked for; at most %d at once", len(refs), MaxRefs)}
	}
	out := &Context{Units: []ContextUnit{}}
	var errs []error
	seen := map[string]bool{}
	for _, ref := range refs {
		cu, err := s.contextUnit(ref, place)
		if err != nil {
			errs = append(errs, err)
			f := FailedRef{Ref: ref, Error: err.Error()}
			var re *RefError
			if errors.As(err, &re) {
				f.Candidates = re.Candidates
			}
			out.Failed = append(out.Failed, f)
			continue
		}
		key := cu.Kind + "\x00" + cu.Path
		if seen[key] {
			continue
		}
		seen[key] = true
		budget := min(lim.Unit, lim.Total-out.Chars)
		if remaining := lim.Total - out.Chars; remaining < lim.Unit && remaining < minUnitChars && remaining < cu.Chars {
			// A few characters of a unit mislead more than none: leave it
			// out and say so.
			budget = 0
		}
		var shown int
		cu.Text, shown, cu.Truncated = bound(cu.Text, cu.Chars, budget, lim.Total, cu.Path)
		out.Chars += shown
		out.Truncated = out.Truncated || cu.Truncated
		out.Units = append(out.Units, cu)
	}
	if len(out.Units) == 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func (s *Snapshot) contextUnit(ref string, place Place) (ContextUnit, error) {
	if strings.EqualFold(strings.TrimSpace(ref), RefSelection) {
		sel := place.Selection
		if sel == nil {
			return ContextUnit{}, &RefError{Ref: ref, Reason: "the writer has no text selected for this turn"}
		}
		return ContextUnit{
			Ref: ref, Kind: KindSelection, Path: sel.Path, Title: sel.Title,
			Words: sel.Words, Hash: sel.Hash, Text: sel.Text(), Chars: utf8.RuneCountInString(sel.Text()),
		}, nil
	}
	u, err := s.Resolve(ref, place)
	if err != nil {
		return ContextUnit{}, err
	}
	kind := KindChapter
	if _, ok := s.byPath[u.Path]; !ok {
		kind = KindDocument
	}
	body := u.BodyText()
	return ContextUnit{
		Ref: ref, Kind: kind, Path: u.Path, Title: u.Title, Number: u.Number, Position: u.Position,
		Words: u.Words, Text: body, Chars: utf8.RuneCountInString(body),
	}, nil
}

// bound cuts text of chars characters to at most limit (total is the
// limit of the whole call, for the message when nothing is left), preferring a
// paragraph or line break, then a space, near the limit; a cut ends with
// a marker that says how much is shown.
func bound(text string, chars, limit, total int, path string) (string, int, bool) {
	if chars <= limit {
		return text, chars, false
	}
	if limit <= 0 {
		return fmt.Sprintf("[quire: %s left out: the %d-character limit of this call is used up; ask for it on its own]", path, total), 0, true
	}
	cut := len(text)
	n := 0
	for i := range text {
		if n == limit {
			cut = i
			break
		}
		n++
	}
	head := text[:cut]
	floor := len(head) * 4 / 5
	if i := strings.LastIndex(head, "\n\n"); i > floor {
		head = head[:i]
	} else if i := strings.LastIndexByte(head, '\n'); i > floor {
		head = head[:i]
	} else if i := strings.LastIndexAny(head, " \t"); i > len(head)*9/10 {
		head = head[:i]
	}
	shown := utf8.RuneCountInString(head)
	return fmt.Sprintf("%s\n\n[quire: truncated; showing the first %d of %d characters of %s]", head, shown, chars, path), shown, true
}
