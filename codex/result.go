package codex

import (
	"github.com/quire-ink/quire/codex/clip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Excerpt bounds, in bytes of UTF-8 text.
const (
	LookupExcerptBytes = 1200
	SearchExcerptBytes = 320
	SoulExcerptBytes   = 600
)

// Result is an entry as the advisor tools and the CLI return it: enough
// to answer from, never the whole file.
type Result struct {
	// ProjectPath is the book's folder; empty (and left out) in what the
	// model reads, which names no path of the writer's computer.
	ProjectPath  string    `json:"projectPath,omitempty"`
	RelativePath string    `json:"relativePath"`
	Type         Type      `json:"type"`
	Name         string    `json:"name"`
	Title        string    `json:"title"`
	Aliases      []string  `json:"aliases,omitempty"`
	Summary      string    `json:"summary,omitempty"`
	Tags         []string  `json:"tags,omitempty"`
	Status       Status    `json:"status"`
	Excerpt      string    `json:"excerpt,omitempty"`
	SoulExcerpt  string    `json:"soulExcerpt,omitempty"`
	Match        MatchKind `json:"match,omitempty"`
	Score        float64   `json:"score,omitempty"`
	// Canon says where an entry of a book in a series comes from:
	// CanonSeries, or CanonBookOverSeries for a book entry that
	// overrides a series entry; empty for the book's own.
	Canon string `json:"canon,omitempty"`
	// SeriesPath is the series entry's file, absolute.
	SeriesPath string `json:"seriesPath,omitempty"`
	// SeriesFields are the fields of a book's override that the series
	// fills in.
	SeriesFields []string `json:"seriesFields,omitempty"`
}

// NewResult describes e with no excerpt, as a listing shows it.
func NewResult(root string, e *Entry) Result {
	return Result{
		ProjectPath:  root,
		RelativePath: e.ID,
		Type:         e.Type,
		Name:         e.Name,
		Title:        e.Title,
		Aliases:      e.Aliases,
		Summary:      e.Summary,
		Tags:         e.Tags,
		Status:       e.Status,
	}
}

// lookupResult describes e with the opening of its body and soul.
func lookupResult(root string, m Match) Result {
	r := NewResult(root, m.Entry)
	r.Match, r.Score = m.Kind, m.Score
	r.Excerpt = LeadExcerpt(withoutTitle(m.Entry.BodyText()), LookupExcerptBytes)
	if s := m.Entry.Soul; s != nil && s.Source != "" {
		r.SoulExcerpt = LeadExcerpt(withoutTitle(s.Source[s.Body.Start:s.Body.End]), SoulExcerptBytes)
	}
	return r
}

// LeadExcerpt is the start of text, at most limit bytes, cut at a
// paragraph, line or word boundary and marked with an ellipsis when cut.
func LeadExcerpt(text string, limit int) string {
	text = strings.TrimSpace(text)
	if len(text) <= limit {
		return text
	}
	head := clip.Bytes(text, limit)
	for _, sep := range []string{"\n\n", "\n", ". ", " "} {
		if i := strings.LastIndex(head, sep); i >= limit/2 {
			head = head[:i+len(sep)]
			break
		}
	}
	return dropTrailingHeading(strings.TrimSpace(head)) + " …"
}

// withoutTitle drops a leading "# Title" line: results carry the title.
func withoutTitle(body string) string {
	body = strings.TrimLeft(body, " \t\r\n")
	if strings.HasPrefix(body, "# ") {
		if _, rest, ok := strings.Cut(body, "\n"); ok {
			return rest
		}
		return ""
	}
	return body
}

// dropTrailingHeading removes headings left dangling at the end of a cut.
func dropTrailingHeading(s string) string {
	for {
		i := strings.LastIndexByte(s, '\n')
		if !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "#") || i < 0 {
			return s
		}
		s = strings.TrimSpace(s[:i])
	}
}

// windowExcerpt is up to limit bytes of text around the first place any
// of terms occurs (case-insensitively), or the lead when none does.
func windowExcerpt(text string, terms []string, limit int) string {
	text = strings.TrimSpace(text)
	if len(text) <= limit {
		return text
	}
	at := -1
	for _, t := range terms {
		if len(t) < 3 {
			continue
		}
		if i := indexFold(text, t); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return LeadExcerpt(text, limit)
	}
	start := max(0, at-limit/3)
	if start > 0 {
		if sp := strings.IndexAny(text[start:at], " \n"); sp >= 0 {
			start += sp + 1
		}
	}
	end := min(len(text), start+limit)
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}
	if end < len(text) {
		if sp := strings.LastIndexAny(text[at:end], " \n"); sp > 0 {
			end = at + sp
		}
	}
	return CutExcerpt(text, start, end)
}

// CutExcerpt is text[start:end] trimmed, with an ellipsis on each side
// where text goes on: the reader sees that the excerpt was cut. The
// codex's excerpts and manuscript's passage excerpts mark cuts alike.
func CutExcerpt(text string, start, end int) string {
	out := strings.TrimSpace(text[start:end])
	if start > 0 {
		out = "… " + out
	}
	if end < len(text) {
		out += " …"
	}
	return out
}

// indexFold is strings.Index ignoring case, with offsets into s itself
// (lower-casing can change byte lengths, so s is never rewritten).
func indexFold(s, sub string) int {
	if sub == "" {
		return 0
	}
	first, _ := utf8.DecodeRuneInString(sub)
	for i, r := range s {
		if !sameLetter(r, first) {
			continue
		}
		if hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}

// hasPrefixFold reports whether s begins with sub, ignoring case.
func hasPrefixFold(s, sub string) bool {
	i := 0
	for _, want := range sub {
		if i >= len(s) {
			return false
		}
		got, size := utf8.DecodeRuneInString(s[i:])
		if !sameLetter(got, want) {
			return false
		}
		i += size
	}
	return true
}

func sameLetter(a, b rune) bool {
	return a == b || unicode.ToLower(a) == unicode.ToLower(b)
}

// SummaryOpens reports whether summary is only the opening of text (an
// entry's body or its excerpt), as it is for an entry with no summary:
// key, whose summary is its first paragraph. Whoever shows both would
// say that paragraph twice. Links and emphasis are read as their words,
// and a summary cut with an ellipsis matches the words before the cut.
func SummaryOpens(summary, text string) bool {
	sum := proseWords(strings.TrimSuffix(summary, clip.Ellipsis))
	if len(sum) == 0 {
		return false
	}
	// Only the text's first words are compared: the excerpt may be long.
	head := text
	if n := len(summary)*2 + 256; len(head) > n {
		head = head[:n]
	}
	words := proseWords(head)
	if len(words) < len(sum) {
		return false
	}
	for i, w := range sum {
		if words[i] != w {
			// The last word of a cut summary may be cut itself.
			if i == len(sum)-1 && strings.HasPrefix(words[i], w) {
				return true
			}
			return false
		}
	}
	return true
}

// proseWords are s's words with its [[links]] read as their text and
// Markdown's emphasis marks left out.
func proseWords(s string) []string {
	return strings.Fields(strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`':
			return -1
		}
		return r
	}, linkText(s)))
}
