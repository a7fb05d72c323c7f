package dialogue

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex/settings"
)

func TestReadSettings(t *testing.T) {
	tests := []struct {
		name, book, user string
		want             Quotes
		problems         []string
	}{
		{name: "none set is auto", want: QuotesAuto},
		{name: "an empty section is auto", book: "dialogue:\n", want: QuotesAuto},
		{name: "single", book: "dialogue:\n  quotes: single\n", want: QuotesSingle},
		{name: "any case, spaces around", book: "dialogue:\n  quotes: ' Guillemets '\n", want: QuotesGuillemets},
		{name: "every convention: double", book: "dialogue: {quotes: double}\n", want: QuotesDouble},
		{name: "every convention: german", book: "dialogue: {quotes: german}\n", want: QuotesGerman},
		{name: "every convention: dash", book: "dialogue: {quotes: dash}\n", want: QuotesDash},
		{name: "every convention: auto", book: "dialogue: {quotes: auto}\n", want: QuotesAuto},
		{
			name: "the writer's config.yaml sets it for every book",
			user: "dialogue:\n  quotes: single\n",
			want: QuotesSingle,
		},
		{
			name: "the book's section wins whole",
			book: "dialogue:\n  quotes: dash\n",
			user: "dialogue:\n  quotes: single\n",
			want: QuotesDash,
		},
		{
			name:     "a convention quire does not know",
			book:     "title: T\ndialogue:\n  quotes: curly\n",
			want:     QuotesAuto,
			problems: []string{`quire.yaml: line 3: dialogue: quotes is one of auto, double, single, guillemets, german or dash (straight and curly marks alike), not "curly"`},
		},
		{
			name:     "an unknown key, and quotes as a list",
			book:     "dialogue:\n  attribution: false\n  quotes: [single]\n",
			want:     QuotesAuto,
			problems: []string{`quire.yaml: line 2: dialogue: has no setting "attribution"; it has quotes`, "quire.yaml: line 3: dialogue: quotes must be one of auto, double, single, guillemets, german or dash"},
		},
		{
			name:     "quotes left empty",
			book:     "dialogue:\n  quotes:\n",
			want:     QuotesAuto,
			problems: []string{"quire.yaml: line 2: dialogue: quotes must be one of auto, double, single, guillemets, german or dash"},
		},
		{
			name:     "not a mapping",
			book:     "dialogue: single\n",
			want:     QuotesAuto,
			problems: []string{"quire.yaml: line 1: dialogue: must be a mapping, such as dialogue: {quotes: single}; quotes is one of auto, double, single, guillemets, german or dash"},
		},
		{
			name:     "a problem of the writer's file names that file",
			user:     "dialogue:\n  quotes: smart\n",
			want:     QuotesAuto,
			problems: []string{`/home/w/.config/quire/config.yaml: line 2: dialogue: quotes is one of auto, double, single, guillemets, german or dash (straight and curly marks alike), not "smart"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &settings.Loaded{Book: settings.Parse(settings.Name, []byte(tt.book)), User: &settings.File{}}
			if tt.user != "" {
				l.User = settings.Parse("/home/w/.config/quire/config.yaml", []byte(tt.user))
			}
			got, problems := ReadSettings(l)
			assert.Equal(t, Options{Quotes: tt.want}, got)
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.Error())
			}
			assert.Equal(t, tt.problems, msgs)
		})
	}
	got, problems := ReadSettings(nil)
	assert.Equal(t, Options{Quotes: QuotesAuto}, got, "no settings read is auto")
	assert.Empty(t, problems)
}

// Every convention the setting takes is one the finder knows, and the
// other way round.
func TestConventionsAreTheOptions(t *testing.T) {
	assert.Equal(t, []Quotes{QuotesAuto, QuotesDouble, QuotesSingle, QuotesGuillemets, QuotesGerman, QuotesDash}, Conventions())
	assert.Equal(t, []string{"quotes"}, SettingsKeys())
}
