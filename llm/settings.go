package llm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Settings are the book-wide facts every persona's system prompt carries:
// what the book is called, what kind of book it is and who it is for.
// Each comes from the project's quire.yaml; an empty one is "not set".
type Settings struct {
	Title       string
	Genre       string
	AudienceAge string
	// AudienceLens is the sex/gender lens of the intended readership.
	AudienceLens string
}

// settingsFile is the part of quire.yaml the advisor reads. Other keys
// belong to other parts of quire and are ignored here.
type settingsFile struct {
	Title    string `yaml:"title"`
	Genre    string `yaml:"genre"`
	Audience struct {
		Age  string `yaml:"age"`
		Lens string `yaml:"lens"`
	} `yaml:"audience"`
}

// LoadSettings reads the advisor settings from root/quire.yaml:
//
//	title: The Salt Ledger
//	genre: literary fantasy
//	audience:
//	  age: adult
//	  lens: women's fiction
//
// No file means zero Settings. A file that is not YAML of that shape is an
// error naming quire.yaml.
func LoadSettings(root string) (Settings, error) {
	data, err := os.ReadFile(filepath.Join(root, "quire.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return Settings{}, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("read quire.yaml: %w", err)
	}
	var f settingsFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return Settings{}, fmt.Errorf("quire.yaml: %w", err)
	}
	return Settings{
		Title:        promptLine(f.Title),
		Genre:        promptLine(f.Genre),
		AudienceAge:  promptLine(f.Audience.Age),
		AudienceLens: promptLine(f.Audience.Lens),
	}, nil
}

// promptLine makes s safe to put on one line of a prompt: runs of whitespace
// and control characters become one space, and the ends are trimmed, so a
// value cannot open a section of its own.
func promptLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
