package llm

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/toolloop"
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
	p.edits = append(p.edits, FileEdit{Path: f.path, Range: r, NewText: newText, BaseHash: HashText(f.text)})
	if p.bases == nil {
		p.bases = map[string]string{}
	}
	p.bases[f.path] = f.text
	line, _ := codex.LineColumn(f.text, r.Start)
	p.changes = append(p.changes, fmt.Sprintf("%s (%s, line %d)", change, f.path, line))
}

func (b *Book) proposeUpdate(store *Proposals, tool string, t codex.Type, args updateArgs) (any, []string, error) {
	if err := checkMarkdownSize("proposedMarkdown", args.ProposedMarkdown); err != nil {
		return nil, nil, err
	}
	name, err := checkName(args.Name)
	if err != nil {
		return nil, nil, err
	}
	summary, err := checkSummary(args.ChangeSummary)
	if err != nil {
		return nil, nil, err
	}
	target := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(args.TargetSection), "#"))
	if utf8.RuneCountInString(target) > maxSectionChars || strings.ContainsAny(target, "\r\n") {
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "targetSection must be one heading of at most %d characters", maxSectionChars)
	}
	md := strings.ReplaceAll(args.ProposedMarkdown, "\r\n", "\n")
	if strings.TrimSpace(md) == "" {
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "proposedMarkdown is empty")
	}
	if b == nil || b.Store == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no codex is open for this turn")
	}
	e, err := b.resolveExact(t, name)
	if err != nil {
		return nil, nil, err
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
			return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "targetSection is empty; name the section to change, or start proposedMarkdown with its heading")
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
		if body != "" || mappingValue(pfm, fieldKey) == nil {
			if err := b.proposeField(&p, e, entryFile, cur, fieldKey, body); err != nil {
				return nil, nil, err
			}
			done = fieldKey
		}
	case found:
		if err := proposeSection(&p, e, secFile, sec, body, character && !isRole); err != nil {
			return nil, nil, err
		}
	case body != "":
		proposeNewSection(&p, e, entryFile, target, body, character && !isRole)
	}

	if pfm != nil {
		b.proposeFrontMatter(&p, e, entryFile, cur, pfm, done, character && !isRole && codex.Normalize(fieldKey) != "role")
	}
	if len(p.edits) == 0 {
		msg := "nothing is left to propose"
		if len(p.warnings) > 0 {
			msg += ": " + strings.Join(p.warnings, "; ")
		}
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "%s", msg)
	}
	sort.SliceStable(p.edits, func(i, j int) bool {
		if p.edits[i].Path != p.edits[j].Path {
			return p.edits[i].Path < p.edits[j].Path
		}
		return p.edits[i].Range.Start < p.edits[j].Range.Start
	})

	// Check the result still reads as the same entry.
	if after, err := ApplyEdits(e.Source, editsOf(p.edits, e.ID)); err != nil {
		return nil, nil, fmt.Errorf("proposal edits do not apply: %w", err)
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
	diff, err := ProposalDiff(p.edits, p.bases)
	if err != nil {
		return nil, nil, fmt.Errorf("proposal diff: %w", err)
	}
	prop := store.Add(Proposal{
		Diff:          diff,
		Tool:          tool,
		Kind:          ProposalUpdate,
		EntryType:     e.Type,
		Name:          e.Name,
		ChangeSummary: summary,
		Path:          main,
		BaseHash:      HashText(base),
		Edits:         p.edits,
		Markdown:      strings.Join(p.markdown, "\n"),
		Warnings:      p.warnings,
		Created:       time.Now(),
	})
	res := proposalResult{
		ProposalID: prop.ID, Status: proposalStatus, Kind: prop.Kind, EntryType: prop.EntryType,
		Name: prop.Name, Path: prop.Path, Changes: p.changes,
	}
	res.Markdown, res.MarkdownClipped = clipPreview(prop.Markdown)
	return res, slices.Clone(p.warnings), nil
}

func editsOf(edits []FileEdit, file string) []FileEdit {
	var out []FileEdit
	for _, e := range edits {
		if e.Path == file {
			out = append(out, e)
		}
	}
	return out
}

func clipPreview(s string) (string, bool) {
	if len(s) <= maxPreviewBytes {
		return s, false
	}
	cut := maxPreviewBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}
