package codex

import (
	"errors"
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex/settings"
)

// EntryDraft is what a new entry starts from.
type EntryDraft struct {
	Type    Type
	Name    string
	Aliases []string
	// Exclude lists phrases that are no mentions of the entry.
	Exclude []string
}

// NewEntrySource is the text of a new entry: front matter the writer
// fills in, with the draft's name, aliases and exclusions, and the
// headings an entry of its type usually has. The "Create entry" quick
// fix writes it, so an entry made for an untracked name lists the forms
// of the name the suggestion counted, and leaves out the other names it
// kept apart.
func NewEntrySource(d EntryDraft) (string, error) {
	quotedName, err := entryScalar(d.Name)
	if err != nil {
		return "", fmt.Errorf("the name: %w", err)
	}
	aliases, err := entryScalars(d.Aliases)
	if err != nil {
		return "", fmt.Errorf("an alias: %w", err)
	}
	exclude, err := entryScalars(d.Exclude)
	if err != nil {
		return "", fmt.Errorf("an exclusion: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntype: %s\nname: %s\naliases: [%s]\n", d.Type, quotedName, strings.Join(aliases, ", "))
	if len(exclude) > 0 {
		fmt.Fprintf(&b, "exclude: [%s]\n", strings.Join(exclude, ", "))
	}
	fmt.Fprintf(&b, "summary: \nstatus: tentative\n---\n# %s\n\n", d.Name)
	switch d.Type {
	case TypeCharacter:
		b.WriteString("## Appearance\n\n## Personality\n\n## History\n")
	case TypeLocation:
		b.WriteString("## Description\n\n## History\n")
	default:
		b.WriteString("## Description\n")
	}
	return b.String(), nil
}

func entryScalars(list []string) ([]string, error) {
	out := make([]string, 0, len(list))
	for _, s := range list {
		q, err := entryScalar(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out = append(out, q)
	}
	return out, nil
}

// entryScalar is s as a YAML scalar that reads back as s, in a block or
// a flow list: a name is one line of text.
func entryScalar(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("empty")
	}
	return settings.ScalarYAML(s)
}
