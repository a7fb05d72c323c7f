package continuity

import (
	"cmp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

func TestOptionsFrom(t *testing.T) {
	tests := []struct {
		name, book, user string
		want             Options
		problems         []string
		// file is the file the problems name; quire.yaml when empty.
		file string
	}{
		{name: "nothing set"},
		{name: "book sets both", book: "traits: [scar]\nchecks: {after-death: off, style-rule: warning}\n",
			want: Options{Traits: []string{"scar"}, Checks: map[string]Level{CodeAfterDeath: LevelOff, CodeStyleRule: LevelWarning}}},
		{name: "user's when the book is silent", user: "traits: [voice]\n", want: Options{Traits: []string{"voice"}}},
		{name: "book wins over user", book: "traits: [scar]\n", user: "traits: [voice]\n", want: Options{Traits: []string{"scar"}}},
		{name: "not a list", book: "traits: {a: b}\n", problems: []string{"line 1: traits is a list of field names, such as [eyes, hair, scar]"}},
		{name: "unknown check and level", book: "checks:\n  after-dath: off\n  style-rule: loud\n",
			want:     Options{Checks: map[string]Level{"after-dath": LevelOff, CodeStyleRule: "loud"}},
			problems: []string{"line 2: checks: \"after-dath\" is no check; the checks are trait-contradiction, after-death, timeline-order, unknown-reference, style-rule, name-spelling, paragraph-breaks", "line 2: checks: style-rule: \"loud\" is no level; use off, error, warning or info"}},
		{name: "the user's problem is the user's file's", user: "rules: [a]\nchecks: {after-death: loud}\n",
			want:     Options{Checks: map[string]Level{CodeAfterDeath: "loud"}},
			problems: []string{"line 2: checks: after-death: \"loud\" is no level; use off, error, warning or info"}, file: "config.yaml"},
		{name: "the user's traits that are no list", user: "traits: scar\n",
			problems: []string{"line 1: traits is a list of field names, such as [eyes, hair, scar]"}, file: "config.yaml"},
		// dialogue: is read for after-death; its problems are the
		// dialogue reader's to tell (dialogue.ReadSettings).
		{name: "the book's quotation marks", book: "dialogue: {quotes: single}\n", want: Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesSingle}}},
		{name: "the user's quotation marks", user: "dialogue: {quotes: guillemets}\n", want: Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesGuillemets}}},
		{name: "quotation marks quire does not know", book: "dialogue: {quotes: backticks}\n", want: Options{Dialogue: dialogue.Options{Quotes: dialogue.QuotesAuto}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &settings.Loaded{Book: settings.Parse(settings.Name, []byte(tt.book)), User: settings.Parse("config.yaml", []byte(tt.user))}
			got, problems := OptionsFrom(l)
			assert.Equal(t, tt.want, got)
			var msgs []string
			for _, p := range problems {
				require.NotZero(t, p.Line)
				assert.Equal(t, cmp.Or(tt.file, settings.Name), p.File, "the file the problem names")
				msgs = append(msgs, p.Message)
			}
			assert.Equal(t, tt.problems, msgs)
		})
	}
}
