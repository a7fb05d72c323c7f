package dialogue

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript"
)

// settingsKeys are the keys of quire.yaml's dialogue: section, for the
// unknown-key check and the documentation test.
var settingsKeys = []string{"quotes"}

// SettingsKeys are the keys of quire.yaml's dialogue: section.
func SettingsKeys() []string { return append([]string(nil), settingsKeys...) }

// conventions are the values of dialogue: quotes, in the order a
// problem lists them.
var conventions = []Quotes{QuotesAuto, QuotesDouble, QuotesSingle, QuotesGuillemets, QuotesGerman, QuotesDash}

// Conventions are the values quire.yaml's dialogue: quotes takes.
func Conventions() []Quotes { return append([]Quotes(nil), conventions...) }

// ReadSettings reads the dialogue: section of the book's quire.yaml, or
// of the writer's config.yaml when the book sets none (the book's
// section wins whole). Problems are located in the file they are in; a
// value that cannot be used leaves its setting at the default, auto.
func ReadSettings(l *settings.Loaded) (Options, []*settings.Problem) {
	opts := Options{Quotes: QuotesAuto}
	if l == nil || l.Book == nil || l.User == nil {
		return opts, nil
	}
	// The scenes' own points of view count; the outline: section's
	// problems are its reader's to tell.
	outline, _ := manuscript.ReadOutlineSettings(l)
	opts.Scenes = outline.Rules
	file, sec := l.LayerOf("dialogue")
	if sec == nil {
		return opts, nil
	}
	if sec.Kind != yaml.MappingNode {
		return opts, []*settings.Problem{file.At(sec, "dialogue: must be a mapping, such as dialogue: {quotes: single}; quotes is one of %s", conventionList())}
	}
	var problems []*settings.Problem
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "quotes":
			if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
				problems = append(problems, file.At(v, "dialogue: quotes must be one of %s", conventionList()))
				continue
			}
			q, ok := parseQuotes(v.Value)
			if !ok {
				problems = append(problems, file.At(v, "dialogue: quotes is one of %s (straight and curly marks alike), not %q", conventionList(), strings.TrimSpace(v.Value)))
				continue
			}
			opts.Quotes = q
		default:
			problems = append(problems, file.At(k, "dialogue: has no setting %q; it has %s", k.Value, strings.Join(settingsKeys, ", ")))
		}
	}
	return opts, problems
}

// parseQuotes reads a convention's name, in any case.
func parseQuotes(s string) (Quotes, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, q := range conventions {
		if string(q) == s {
			return q, true
		}
	}
	return "", false
}

// conventionList is "auto, double, single, guillemets, german or dash".
func conventionList() string {
	names := make([]string, len(conventions))
	for i, q := range conventions {
		names[i] = string(q)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
