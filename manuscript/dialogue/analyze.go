package dialogue

import (
	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// Quotes is a book's convention for marking speech.
type Quotes string

const (
	// QuotesAuto finds the convention in each chapter (see detect.go).
	QuotesAuto Quotes = "auto"
	// QuotesDouble: "speech" and “speech”, with 'single' quotes nested.
	QuotesDouble Quotes = "double"
	// QuotesSingle: 'speech' and ‘speech’, with "double" quotes nested
	// (British typesetting).
	QuotesSingle Quotes = "single"
	// QuotesGuillemets: «speech» (French) and »speech« (German, Danish).
	QuotesGuillemets Quotes = "guillemets"
	// QuotesGerman: „speech“ with ‚speech‘ nested.
	QuotesGerman Quotes = "german"
	// QuotesDash: a paragraph that opens with a dash (— or ―) is speech,
	// up to a dash that opens a tag or the paragraph's end.
	QuotesDash Quotes = "dash"
)

// Options are a book's dialogue settings (quire.yaml's dialogue:).
type Options struct {
	// Quotes is the convention; "" is QuotesAuto.
	Quotes Quotes
	// Scenes split a chapter into scenes, whose notes may give each its
	// own pov: the "I" of that scene's tags (quire.yaml's outline:
	// section; ReadSettings reads it too).
	Scenes manuscript.SceneRules
}

// Equal says o and p attribute alike.
func (o Options) Equal(p Options) bool { return o.Quotes == p.Quotes && o.Scenes.Equal(p.Scenes) }

// Chapter is what attribution reads of one chapter.
type Chapter struct {
	// Text is the whole file; Body the prose after any front matter.
	Text string
	Body codex.Range
	// Skip covers text that is never speech: code spans and blocks.
	// HTML comments and front matter are skipped without being listed.
	Skip []codex.Range
	// Mentions are the codex names the prose uses, in order
	// (manuscript.Matcher.ScanAll); attribution reads the characters'.
	Mentions []manuscript.Mention
	// POV is the entry ID of the chapter's point-of-view character, who
	// speaks the lines a tag gives to "I"; empty when the chapter names
	// none.
	POV string
	// POVs are where a scene's own pov takes over from the chapter's,
	// in order (Book.Chapter reads them from the scene notes).
	POVs []POVFrom
	// Narrators gives the votes of the book's other chapters for who
	// "I" is where no pov says (Book.Chapter counts them;
	// NarratorVotes): with the chapter's own, they name the book's
	// narrator. Attribution asks only in a chapter that gives a line to
	// "I" and names no pov, so a book told in the third person never
	// counts them. Nil: no other chapter votes.
	Narrators func() Votes
}

// POVFrom is a scene's point of view, from its start on.
type POVFrom struct {
	From int
	// ID is the entry, "" where the scene names none quire knows.
	ID string
}

// povAt is the point of view at off: the last scene's that starts at or
// before it, else the chapter's.
func (ch Chapter) povAt(off int) string {
	pov := ch.POV
	for _, p := range ch.POVs {
		if p.From > off {
			break
		}
		pov = p.ID
	}
	return pov
}

// Analyze finds the chapter's utterances and attributes each one.
func Analyze(ch Chapter, cast *Cast, opts Options) []Utterance {
	return AnalyzeAfter(nil, ch, cast, opts).Utterances()
}
