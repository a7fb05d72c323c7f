package export

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// Settings are what a build reads from quire.yaml: the top-level title
// and the build: section. The section may sit in the writer's own
// config.yaml too, for every book; the book's quire.yaml wins key by key
// (a key it leaves empty, as quire init writes them, is the writer's),
// and surname goes with author: a book that names its own author takes
// the surname from its own file or from that author's name.
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
	// Language is the book's language tag (build: language), "en" when
	// unset: the EPUB's and HTML's language, and the one Word proofs a
	// DOCX in.
	Language string
	// languageSet says build: language gave Language; unset, a build
	// takes the language its prose reads as (GuessLanguage).
	languageSet bool
	// Identifier is the EPUB's identifier (build: identifier, an ISBN's
	// urn:isbn:… for one); unset, one is made from the title and author
	// (BookID), the same for every build of the book.
	Identifier string
	// Paper is the DOCX's page: letter (US Letter, the default) or a4.
	Paper string
	// Dashes is how -- and --- become dashes (build: dashes); DashesEm
	// when unset.
	Dashes Dashes
	// Output is the folder a build writes to when the request names no
	// file (build: output); zero when unset (OutputFolder).
	Output Output
	// writerOutput is the writer's own build: output when the book's
	// replaces it: where the build goes if the book's is set aside.
	writerOutput Output

	// file and node locate the build: section that problems of a field
	// that is missing are told at: the book's, else the writer's.
	file *settings.File
	node *yaml.Node
}

// Output is build: output as a settings file gives it.
type Output struct {
	// Dir is the folder, absolute: ~ is the home folder, and a relative
	// path is the book's folder's (in quire.yaml) or the home folder's
	// (in config.yaml).
	Dir string
	// Written is the value as the file has it, for messages.
	Written string
	// Book says the book's quire.yaml sets it; else the writer's
	// config.yaml does, which is trusted.
	Book bool
}

// buildKeys are the keys of build:, for the unknown-key check and the
// documentation test.
var buildKeys = []string{"author", "surname", "contact", "language", "identifier", "paper", "dashes", "output"}

// BuildKeys are the keys of quire.yaml's build: section.
func BuildKeys() []string { return append([]string(nil), buildKeys...) }

// ReadSettings reads the build settings of the book at root. Problems
// are located in the file they are in; a field they name is left unset.
func ReadSettings(l *settings.Loaded, root string) (Settings, []*settings.Problem) {
	s := Settings{Language: "en", Paper: "letter", Dashes: DashesEm}
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
	// The writer's file first, so that the book's values replace its
	// values key by key.
	files := []*settings.File{}
	if l.User != nil && l.User.Err == nil {
		files = append(files, l.User)
	}
	if l.Book != nil {
		files = append(files, l.Book)
	}
	for _, f := range files {
		sec := f.Value("build")
		if sec == nil || sec.Kind == yaml.ScalarNode && sec.ShortTag() == "!!null" {
			continue
		}
		if sec.Kind != yaml.MappingNode {
			problems = append(problems, f.At(sec, "build: must be a mapping of %s", strings.Join(buildKeys, ", ")))
			continue
		}
		s.file, s.node = f, sec
		problems = append(problems, s.read(f, sec, f == l.Book, root)...)
	}
	return s, problems
}

// read reads one file's build: section over s.
func (s *Settings) read(file *settings.File, sec *yaml.Node, book bool, root string) []*settings.Problem {
	var problems []*settings.Problem
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		if !slices.Contains(buildKeys, k.Value) {
			problems = append(problems, file.At(k, "build: has no setting %q; it has %s", k.Value, strings.Join(buildKeys, ", ")))
			continue
		}
		// A key left empty is not set: the writer's config.yaml, or the
		// default, applies.
		if v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!null" || strings.TrimSpace(v.Value) == "") {
			continue
		}
		scalar := func() (string, bool) {
			if v.Kind != yaml.ScalarNode {
				problems = append(problems, file.At(v, "build: %s must be a piece of text", k.Value))
				return "", false
			}
			return strings.TrimSpace(v.Value), true
		}
		switch k.Value {
		case "author":
			if a, ok := scalar(); ok {
				// The surname goes with the name: another file's is
				// another author's.
				s.Author, s.Surname = a, ""
			}
		case "surname":
			s.Surname, _ = scalar()
		case "language":
			if lang, ok := scalar(); ok {
				s.Language, s.languageSet = lang, true
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
		case "dashes":
			if d, ok := scalar(); ok {
				dashes, err := ParseDashes(d)
				if err != nil {
					problems = append(problems, file.At(v, "build: dashes: %v", err))
				} else {
					s.Dashes = dashes
				}
			}
		case "output":
			if o, ok := scalar(); ok {
				dir, err := outputDir(o, book, root)
				if err != nil {
					problems = append(problems, file.At(v, "build: output: %v", err))
				} else {
					if book && !s.Output.Book {
						s.writerOutput = s.Output
					}
					s.Output = Output{Dir: dir, Written: o, Book: book}
				}
			}
		case "contact":
			switch v.Kind {
			case yaml.ScalarNode:
				s.Contact = nil
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
				if len(lines) > 0 {
					s.Contact = lines
				}
			default:
				problems = append(problems, file.At(v, "build: contact must be a list of lines or a block of text"))
			}
		}
	}
	return problems
}

// outputDir is the folder build: output names, absolute: ~ is the
// home folder; a relative path lies in the book (quire.yaml's) or in
// the home folder (config.yaml's).
func outputDir(written string, book bool, root string) (string, error) {
	p := written
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home folder for %s: %w", written, err)
		}
		p = filepath.Join(home, p[1:])
	}
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if book {
		// Without the book's folder (a check of quire.yaml alone) the
		// folder stays relative: nothing is wrong with it.
		return filepath.Join(root, p), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder for %s: %w", written, err)
	}
	return filepath.Join(home, p), nil
}

// The placeholders of a standard manuscript built without the writer's
// name or contact block: plain to see on page one, for the writer to
// fill in before it goes anywhere.
const (
	PlaceholderAuthor = "Your Name"
)

// PlaceholderContact is the contact block's placeholder, one line each.
func PlaceholderContact() []string {
	return []string{"Your street address", "Your town and postcode", "Your telephone", "Your email"}
}

// Missing fills in, for a standard manuscript, what the writer has not
// set with placeholders (PlaceholderAuthor, PlaceholderContact), and
// returns a warning naming each setting so filled. Other presets need
// neither.
func (s *Settings) Missing(p Preset) []*settings.Problem {
	if p != Manuscript {
		return nil
	}
	var out []*settings.Problem
	missing := func(key, shows string) {
		msg := fmt.Sprintf("build: %s is not set, so the manuscript shows %s in its place; set build: %s", key, shows, key)
		switch {
		case s.node != nil:
			out = append(out, s.file.At(s.node, "%s", msg))
		default:
			out = append(out, &settings.Problem{File: settings.Name,
				Message: msg + " in quire.yaml's build: section (or in your config.yaml, for every book)"})
		}
	}
	if s.Author == "" {
		s.Author, s.Surname = PlaceholderAuthor, ""
		missing("author", fmt.Sprintf("%q (on page one and in the running header)", PlaceholderAuthor))
	}
	if len(s.Contact) == 0 {
		s.Contact = PlaceholderContact()
		missing("contact", "placeholder lines under your name (address, telephone, email, one a line)")
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
