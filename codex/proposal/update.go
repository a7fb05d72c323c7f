package proposal

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// fileText is one file an update may edit.
type fileText struct {
	path string
	text string
}

// plan gathers the edits of an update.
type plan struct {
	edits []FileEdit
	// bases are the texts the edits apply to, by path, for the diff.
	bases    map[string]string
	changes  []string
	warnings []string
	markdown []string
}

func (p *plan) warnf(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

func (p *plan) edit(f fileText, r codex.Range, newText, change string) {
	p.edits = append(p.edits, FileEdit{Path: f.path, Range: r, NewText: newText, BaseHash: codex.HashText(f.text)})
	if p.bases == nil {
		p.bases = map[string]string{}
	}
	p.bases[f.path] = f.text
	line, _ := codex.LineColumn(f.text, r.Start)
	p.changes = append(p.changes, fmt.Sprintf("%s (%s, line %d)", change, f.path, line))
}

// UpdateArgs ask for a change to one section or field of an entry.
type UpdateArgs struct {
	EntryType        string `json:"entryType"`
	Name             string `json:"name"`
	ChangeSummary    string `json:"changeSummary"`
	TargetSection    string `json:"targetSection"`
	ProposedMarkdown string `json:"proposedMarkdown"`
}

// Draft is a proposal made and not yet kept, with a line for each of its
// edits saying what it does.
type Draft struct {
	Proposal Proposal
	Changes  []string
}

// Update proposes a change to one section (or front matter field) of the
// entry of type t that args.Name names exactly, as tool asked. The
// entry's text comes from store; nothing is written. A request that
// cannot make a proposal is an *Error.
func Update(store *codex.Store, tool string, t codex.Type, args UpdateArgs) (Draft, error) {
	return (&canonTarget{Store: store}).proposeUpdate(tool, t, args)
}

func (ct *canonTarget) proposeUpdate(tool string, t codex.Type, args UpdateArgs) (Draft, error) {
	if err := CheckMarkdownSize("proposedMarkdown", args.ProposedMarkdown); err != nil {
		return Draft{}, err
	}
	name, err := checkName(args.Name)
	if err != nil {
		return Draft{}, err
	}
	summary, err := checkSummary(args.ChangeSummary)
	if err != nil {
		return Draft{}, err
	}
	target := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(args.TargetSection), "#"))
	if utf8.RuneCountInString(target) > MaxSectionChars || strings.ContainsAny(target, "\r\n") {
		return Draft{}, errorf(Invalid, "targetSection must be one heading of at most %d characters", MaxSectionChars)
	}
	md := strings.ReplaceAll(args.ProposedMarkdown, "\r\n", "\n")
	if strings.TrimSpace(md) == "" {
		return Draft{}, errorf(Invalid, "proposedMarkdown is empty")
	}
	if ct == nil || ct.Store == nil {
		return Draft{}, errorf(Failed, "no codex is open for this turn")
	}
	e, err := ct.resolveExact(t, name)
	if err != nil {
		return Draft{}, err
	}

	var p plan
	entryFile := fileText{path: e.ID, text: e.Source}
	pfm, body, fmErr := splitProposal(md)
	if fmErr != nil {
		p.warnf("the front matter of proposedMarkdown is not valid YAML (%v); it was left out", fmErr)
	}
	body = strings.Trim(body, "\n")
	if strings.TrimSpace(body) == "" {
		body = ""
	}
	if target == "" {
		if lvl, heading, ok := headingLine(firstLine(body)); ok && lvl > 0 {
			target = heading
		} else if body != "" {
			return Draft{}, errorf(Invalid, "targetSection is empty; name the section to change, or start proposedMarkdown with its heading")
		}
	}
	isRole := codex.Normalize(target) == "role"
	character := e.Type == codex.TypeCharacter

	cur := parseFrontMatter(e.Source)
	fieldKey := ""
	var sec codex.Section
	var secFile fileText
	found := false
	if target != "" {
		if s, ok := e.Section(target); ok {
			sec, secFile, found = s, entryFile, true
			if e.Soul != nil && hasSection(e.Soul.Sections, target) {
				p.warnf("both %s and %s have a section %q; this proposal changes the one in %s", e.ID, e.Soul.ID, target, e.ID)
			}
		} else if e.Soul != nil && hasSection(e.Soul.Sections, target) {
			for _, s := range e.Soul.Sections {
				if codex.Normalize(s.Heading) == codex.Normalize(target) {
					sec, secFile, found = s, fileText{path: e.Soul.ID, text: e.Soul.Source}, true
					break
				}
			}
		} else if k, ok := cur.scalarKey(target); ok {
			fieldKey = k
		}
	}

	done := ""
	switch {
	case fieldKey != "":
		if body != "" || settings.MappingValueFold(pfm, fieldKey) == nil {
			if err := ct.proposeField(&p, e, entryFile, cur, fieldKey, body); err != nil {
				return Draft{}, err
			}
			done = fieldKey
		}
	case found:
		if err := proposeSection(&p, e, secFile, sec, body, character && !isRole); err != nil {
			return Draft{}, err
		}
	case body != "":
		proposeNewSection(&p, e, entryFile, target, body, character && !isRole)
	}

	if pfm != nil {
		ct.proposeFrontMatter(&p, e, entryFile, cur, pfm, done, character && !isRole && codex.Normalize(fieldKey) != "role")
	}
	if len(p.edits) == 0 {
		msg := "nothing is left to propose"
		if len(p.warnings) > 0 {
			msg += ": " + strings.Join(p.warnings, "; ")
		}
		return Draft{}, errorf(Invalid, "%s", msg)
	}
	sort.SliceStable(p.edits, func(i, j int) bool {
		if p.edits[i].Path != p.edits[j].Path {
			return p.edits[i].Path < p.edits[j].Path
		}
		return p.edits[i].Range.Start < p.edits[j].Range.Start
	})

	// Check the result still reads as the same entry.
	if after, err := ApplyEdits(e.Source, EditsOf(p.edits, e.ID)); err != nil {
		return Draft{}, fmt.Errorf("proposal edits do not apply: %w", err)
	} else if ne, _ := codex.Parse(e.ID, []byte(after), e.Type); ne == nil || ne.Name != e.Name {
		p.warnf("after this change the entry would no longer be named %q", e.Name)
	}

	main := e.ID
	if found {
		main = secFile.path
	}
	base := e.Source
	if main != e.ID && e.Soul != nil {
		base = e.Soul.Source
	}
	diff, err := Diff(p.edits, p.bases)
	if err != nil {
		return Draft{}, fmt.Errorf("proposal diff: %w", err)
	}
	prop := Proposal{
		Diff:          diff,
		Tool:          tool,
		Kind:          KindUpdate,
		EntryType:     e.Type,
		Name:          e.Name,
		ChangeSummary: summary,
		Path:          main,
		BaseHash:      codex.HashText(base),
		Edits:         p.edits,
		Bases:         p.bases,
		Markdown:      strings.Join(p.markdown, "\n"),
		Warnings:      p.warnings,
		Created:       time.Now(),
	}
	return Draft{Proposal: prop, Changes: p.changes}, nil
}

// EditsOf are the edits of one file.
func EditsOf(edits []FileEdit, file string) []FileEdit {
	var out []FileEdit
	for _, e := range edits {
		if e.Path == file {
			out = append(out, e)
		}
	}
	return out
}
