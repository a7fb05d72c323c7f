package export

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// Settings are what a build reads from quire.yaml: the top-level title
// and the build: section. The writer's name and contact block may sit in
// their own config.yaml instead, for every book; the book's section
// wins whole.
type Settings struct {
	// Title is the book's title: quire.yaml's title, else the folder's
	// name made readable.
	Title string
	// Author is the name on the manuscript and the EPUB (build: author).
	Author string
	// Surname is the running header's name (build: surname); the last
	// word of Author when unset.
	Surname string
	// Contact is the contact block, one line each (build: contact):
	// address, telephone, email.
	Contact []string
	// Language is the EPUB's language tag (build: language), "en" when
	// unset.
	Language string
	// Identifier is the EPUB's identifier (build: identifier, an ISBN's
	// urn:isbn:… for one); unset, one is made from the title and author
	// (BookID), the same for every build of the book.
	Identifier string
	// Paper is the DOCX's page: letter (US Letter, the default) or a4.
	Paper string

	// file and node locate the build: section for problems of a field
	// that is missing.
	file *settings.File
	node *yaml.Node
}

// buildKeys are the keys of build:, for the unknown-key check and the
// documentation test.
var buildKeys = []string{"author", "surname", "contact", "language", "identifier", "paper"}

// BuildKeys are the keys of quire.yaml's build: section.
func BuildKeys() []string { return append([]string(nil), buildKeys...) }

// ReadSettings reads the build settings of the book at root. Problems
// are located in the file they are in; a field they name is left unset.
func ReadSettings(l *settings.Loaded, root string) (Settings, []*settings.Problem) {
	s := Settings{Language: "en", Paper: "letter"}
	var problems []*settings.Problem
	if l != nil && l.Book != nil {
		if n := l.Book.Value("title"); n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
			s.Title = strings.Join(strings.Fields(n.Value), " ")
		}
	}
	if s.Title == "" {
		s.Title = readableName(filepath.Base(root))
	}
	if l == nil {
		return s, nil
	}
	file, sec := l.LayerOf("build")
	s.file, s.node = file, sec
	if sec == nil {
		return s, nil
	}
	if sec.Kind != yaml.MappingNode {
		return s, []*settings.Problem{file.At(sec, "build: must be a mapping of author, surname, contact, language, identifier and paper")}
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		scalar := func() (string, bool) {
			if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
				problems = append(problems, file.At(v, "build: %s must be a piece of text", k.Value))
				return "", false
			}
			return strings.TrimSpace(v.Value), true
		}
		switch k.Value {
		case "author":
			s.Author, _ = scalar()
		case "surname":
			s.Surname, _ = scalar()
		case "language":
			if lang, ok := scalar(); ok {
				s.Language = lang
			}
		case "identifier":
			s.Identifier, _ = scalar()
		case "paper":
			if p, ok := scalar(); ok {
				switch strings.ToLower(p) {
				case "letter", "a4":
					s.Paper = strings.ToLower(p)
				default:
					problems = append(problems, file.At(v, "build: paper is letter or a4, not %q", p))
				}
			}
		case "contact":
			switch v.Kind {
			case yaml.ScalarNode:
				for line := range strings.SplitSeq(strings.TrimSpace(v.Value), "\n") {
					if line = strings.TrimSpace(line); line != "" {
						s.Contact = append(s.Contact, line)
					}
				}
			case yaml.SequenceNode:
				lines, err := settings.Strings(v, "build: contact")
				if err != nil {
					problems = append(problems, file.At(v, "build: contact must be a list of lines or a block of text"))
				}
				s.Contact = lines
			default:
				problems = append(problems, file.At(v, "build: contact must be a list of lines or a block of text"))
			}
		default:
			problems = append(problems, file.At(k, "build: has no setting %q; it has %s", k.Value, strings.Join(buildKeys, ", ")))
		}
	}
	return s, problems
}

// Check is the problems that keep the preset from being drawn: the
// standard manuscript needs the writer's name and contact block.
func (s Settings) Check(p Preset) []*settings.Problem {
	if p != Manuscript {
		return nil
	}
	var out []*settings.Problem
	missing := func(key, why string) {
		msg := "build: " + key + " is not set; " + why
		switch {
		case s.node != nil:
			out = append(out, s.file.At(s.node, "%s", msg))
		default:
			out = append(out, &settings.Problem{File: settings.Name,
				Message: "no build: section; " + msg + " (add it to quire.yaml, or to your config.yaml for every book)"})
		}
	}
	if s.Author == "" {
		missing("author", "the manuscript's first page and running header carry the writer's name")
	}
	if len(s.Contact) == 0 {
		missing("contact", "the manuscript's first page carries how to reach the writer (address, telephone, email, one a line)")
	}
	return out
}

// HeaderName is the running header's name: Surname, else the last word
// of Author.
func (s Settings) HeaderName() string {
	if s.Surname != "" {
		return s.Surname
	}
	f := strings.Fields(s.Author)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// readableName is a folder's name as a title: "the-thirteenth-bell" →
// "The Thirteenth Bell".
func readableName(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}
