package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// The propose tools are review-only: they compute exact edits and keep
// them in a Proposals store; nothing reaches a file until the writer
// applies a proposal through the editor, which is never a model tool.

const (
	// maxProposalMarkdownBytes bounds each Markdown argument of a propose
	// tool; larger is ARGUMENTS_TOO_LARGE.
	maxProposalMarkdownBytes = 20000
	// maxChangeSummaryChars bounds changeSummary.
	maxChangeSummaryChars = 1000
	// maxSectionChars bounds targetSection.
	maxSectionChars = 200
	// maxFieldValueChars bounds one value of fields or customFields.
	maxFieldValueChars = 2000
	// maxCustomFields bounds how many custom fields a create may set.
	maxCustomFields = 50
	// maxPreviewBytes bounds the Markdown echoed back to the model.
	maxPreviewBytes = 12000
	// maxSlugRunes bounds the file name a create proposes.
	maxSlugRunes = 60
	// maxPathSuffix bounds the -2, -3… tried for a free path.
	maxPathSuffix = 100
)

const proposalStatus = "proposed, not applied: the writer reviews it in the editor and decides; do not claim it was saved"

// proposalResult is what a propose tool returns to the model.
type proposalResult struct {
	ProposalID string     `json:"proposalId"`
	Status     string     `json:"status"`
	Kind       string     `json:"kind"`
	EntryType  codex.Type `json:"entryType"`
	Name       string     `json:"name"`
	Path       string     `json:"path"`
	SoulPath   string     `json:"soulPath,omitempty"`
	// Changes say in a line each what the edits do.
	Changes         []string `json:"changes"`
	Markdown        string   `json:"markdown"`
	SoulMarkdown    string   `json:"soulMarkdown,omitempty"`
	MarkdownClipped bool     `json:"markdownClipped,omitempty"`
}

// ProposeTools are the review-only canon tools: propose_codex_update,
// propose_codex_create and the legacy propose_character_update. Each
// proposal is kept in store (a fresh one when store is nil); none is
// ever written to disk.
func ProposeTools(b *Book, store *Proposals) []Tool {
	if store == nil {
		store = NewProposals(0)
	}
	return []Tool{proposeUpdateTool(b, store), proposeCreateTool(b, store), proposeCharacterUpdateTool(b, store)}
}

func updateProperties(withType bool) map[string]any {
	props := map[string]any{
		"name": map[string]any{
			"type": "string", "minLength": 1, "maxLength": maxNameChars,
			"description": "The entry's name, title or alias, exactly as the writer uses it.",
		},
		"changeSummary": map[string]any{
			"type": "string", "minLength": 1, "maxLength": maxChangeSummaryChars,
			"description": "One or two sentences for the writer: what changes and why.",
		},
		"targetSection": map[string]any{
			"type": "string", "maxLength": maxSectionChars,
			"description": "The heading of the section to replace (e.g. \"Backstory\"), or a front matter field such as " +
				"\"summary\" or \"role\". A section that does not exist is proposed as a new section at the end.",
		},
		"proposedMarkdown": map[string]any{
			"type": "string", "minLength": 1,
			"description": fmt.Sprintf("The new Markdown of that section only (at most %d bytes); "+
				"the section heading may be included or left out. Locked front matter fields are never changed.", maxProposalMarkdownBytes),
		},
	}
	if withType {
		props["entryType"] = map[string]any{
			"type": "string", "enum": entryTypeEnum(), "description": "The type of the entry to change.",
		}
	}
	return props
}

func proposeUpdateTool(b *Book, store *Proposals) Tool {
	const name = "propose_codex_update"
	return Tool{
		Name: name,
		Description: "Propose a change to one section of an existing canon entry, for the writer to review. " +
			"Nothing is applied or saved: the writer sees the exact edit in the editor and decides. " +
			"Read the entry first (get_<type>_context) and change only what was asked.",
		Parameters: bookObjectSchema(updateProperties(true), "entryType", "name", "changeSummary", "proposedMarkdown"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			var args updateArgs
			if err := decodeBookArgs(raw, &args); err != nil {
				return nil, nil, err
			}
			t, err := builtinType(args.EntryType, true)
			if err != nil {
				return nil, nil, err
			}
			data, warnings, err := b.proposeUpdate(store, name, t, args)
			return data, b.scrubAll(warnings), b.scrubErr(err)
		},
	}
}

func proposeCharacterUpdateTool(b *Book, store *Proposals) Tool {
	const name = "propose_character_update"
	return Tool{
		Name: name,
		Description: "Propose a change to one section of an existing character entry (or of the character's soul), " +
			"for the writer to review. Nothing is applied or saved. Same as propose_codex_update with entryType character.",
		Parameters: bookObjectSchema(updateProperties(false), "name", "changeSummary", "proposedMarkdown"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			var args struct {
				Name             string `json:"name"`
				ChangeSummary    string `json:"changeSummary"`
				TargetSection    string `json:"targetSection"`
				ProposedMarkdown string `json:"proposedMarkdown"`
			}
			if err := decodeBookArgs(raw, &args); err != nil {
				return nil, nil, err
			}
			data, warnings, err := b.proposeUpdate(store, name, codex.TypeCharacter, updateArgs{
				Name: args.Name, ChangeSummary: args.ChangeSummary,
				TargetSection: args.TargetSection, ProposedMarkdown: args.ProposedMarkdown,
			})
			return data, b.scrubAll(warnings), b.scrubErr(err)
		},
	}
}

func proposeCreateTool(b *Book, store *Proposals) Tool {
	const name = "propose_codex_create"
	strObj := func(desc string) map[string]any {
		return map[string]any{
			"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": desc,
		}
	}
	return Tool{
		Name: name,
		Description: "Propose a new canon entry, for the writer to review: a safe file path and the full Markdown " +
			"(front matter, heading, body; status tentative). Nothing is created or saved. " +
			"For a character, soulMarkdown proposes a soul.md beside it. An entry that already exists is changed with propose_codex_update instead.",
		Parameters: bookObjectSchema(map[string]any{
			"entryType": map[string]any{"type": "string", "enum": entryTypeEnum(), "description": "The type of the new entry."},
			"name": map[string]any{
				"type": "string", "minLength": 1, "maxLength": maxNameChars, "description": "The new entry's name.",
			},
			"changeSummary": map[string]any{
				"type": "string", "minLength": 1, "maxLength": maxChangeSummaryChars,
				"description": "One or two sentences for the writer: why this entry.",
			},
			"fields":       strObj("Standard fields, all strings: summary, aliases (comma-separated), tags (comma-separated), title."),
			"customFields": strObj("Other front matter fields, all strings (e.g. role, age)."),
			"markdownBody": map[string]any{
				"type":        "string",
				"description": fmt.Sprintf("The entry's Markdown after its title heading (at most %d bytes).", maxProposalMarkdownBytes),
			},
			"soulMarkdown": map[string]any{
				"type":        "string",
				"description": "Characters only, optional: the Markdown of the character's soul.md (inner life, fears, wants).",
			},
		}, "entryType", "name", "changeSummary"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := b.proposeCreate(store, name, raw)
			return data, b.scrubAll(warnings), b.scrubErr(err)
		},
	}
}

func (b *Book) scrubAll(ss []string) []string {
	for i, s := range ss {
		ss[i] = b.scrub(s)
	}
	return ss
}

type updateArgs struct {
	EntryType        string `json:"entryType"`
	Name             string `json:"name"`
	ChangeSummary    string `json:"changeSummary"`
	TargetSection    string `json:"targetSection"`
	ProposedMarkdown string `json:"proposedMarkdown"`
}

// checkName validates a name argument.
func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", Errorf(CodeInvalidArguments, "name is empty")
	case utf8.RuneCountInString(name) > maxNameChars:
		return "", Errorf(CodeInvalidArguments, "name is longer than %d characters", maxNameChars)
	case strings.ContainsAny(name, "\r\n\x00"):
		return "", Errorf(CodeInvalidArguments, "name must be one line")
	}
	return name, nil
}

func checkSummary(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", Errorf(CodeInvalidArguments, "changeSummary is empty; say in a sentence what changes and why")
	case utf8.RuneCountInString(s) > maxChangeSummaryChars:
		return "", Errorf(CodeInvalidArguments, "changeSummary is longer than %d characters", maxChangeSummaryChars)
	}
	return s, nil
}

func checkMarkdownSize(field, s string) error {
	if len(s) > maxProposalMarkdownBytes {
		return Errorf(CodeArgumentsTooLarge, "%s is %d bytes, more than the %d allowed; propose a smaller change",
			field, len(s), maxProposalMarkdownBytes)
	}
	return nil
}

// resolveExact finds the one entry of type t that name names exactly (by
// name, title, file name or alias): a proposal never guesses.
func (b *Book) resolveExact(t codex.Type, name string) (*codex.Entry, error) {
	cat := b.Store.Catalog()
	ms := cat.Lookup(name, t)
	var exact []codex.Match
	var near []string
	for _, m := range ms {
		switch m.Kind {
		case codex.MatchName, codex.MatchTitle, codex.MatchStem, codex.MatchAlias:
			exact = append(exact, m)
		default:
			if len(near) < maxNotFoundCandidates {
				near = append(near, m.Entry.Name)
			}
		}
	}
	if len(exact) == 0 {
		te := Errorf(CodeNotFound, "no %s entry is named %q", t, name)
		for _, m := range cat.Lookup(name, "") {
			if m.Entry.Type != t && (m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias || m.Kind == codex.MatchStem) {
				te.Message += fmt.Sprintf("; %s (%s) is a %s: use entryType %s", m.Entry.Name, m.Entry.ID, m.Entry.Type, m.Entry.Type)
				break
			}
		}
		if len(near) > 0 {
			te.Message += "; did you mean one of the candidates? Use its exact name"
		} else {
			te.Message += fmt.Sprintf("; use list_codex_entries to see every %s, or propose_codex_create for a new one", t)
		}
		te.Candidates = near
		return nil, te
	}
	best := exact[0]
	var tied []string
	for _, m := range exact[1:] {
		if m.Kind == best.Kind && m.Score == best.Score {
			tied = append(tied, fmt.Sprintf("%s (%s)", m.Entry.Name, m.Entry.ID))
		}
	}
	if len(tied) > 0 {
		te := Errorf(CodeAmbiguous, "%q names more than one %s entry equally (%s); use the full name of the one meant",
			name, t, strings.Join(append([]string{fmt.Sprintf("%s (%s)", best.Entry.Name, best.Entry.ID)}, tied...), ", "))
		te.Candidates = append([]string{best.Entry.Name}, namesOf(exact[1:], best)...)
		return nil, te
	}
	return best.Entry, nil
}

func namesOf(ms []codex.Match, best codex.Match) []string {
	var out []string
	for _, m := range ms {
		if m.Kind == best.Kind && m.Score == best.Score {
			out = append(out, m.Entry.Name)
		}
	}
	return out
}

// fileText is one file an update may edit.
type fileText struct {
	path string
	text string
}

// plan gathers the edits of an update.
type plan struct {
	edits    []FileEdit
	changes  []string
	warnings []string
	markdown []string
}

func (p *plan) warnf(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

func (p *plan) edit(f fileText, r codex.Range, newText, change string) {
	p.edits = append(p.edits, FileEdit{Path: f.path, Range: r, NewText: newText, BaseHash: HashText(f.text)})
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
		return nil, nil, Errorf(CodeInvalidArguments, "targetSection must be one heading of at most %d characters", maxSectionChars)
	}
	md := strings.ReplaceAll(args.ProposedMarkdown, "\r\n", "\n")
	if strings.TrimSpace(md) == "" {
		return nil, nil, Errorf(CodeInvalidArguments, "proposedMarkdown is empty")
	}
	if b == nil || b.Store == nil {
		return nil, nil, Errorf(CodeToolFailed, "no codex is open for this turn")
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
			return nil, nil, Errorf(CodeInvalidArguments, "targetSection is empty; name the section to change, or start proposedMarkdown with its heading")
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
		return nil, nil, Errorf(CodeInvalidArguments, "%s", msg)
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
	prop := store.Add(Proposal{
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

func hasSection(secs []codex.Section, heading string) bool {
	want := codex.Normalize(heading)
	for _, s := range secs {
		if codex.Normalize(s.Heading) == want {
			return true
		}
	}
	return false
}

// eolOf is the line break a file uses.
func eolOf(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

func withEOL(s, eol string) string {
	if eol == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", eol)
}

// proposeSection replaces the content of sec in f with body.
func proposeSection(p *plan, e *codex.Entry, f fileText, sec codex.Section, body string, keepRole bool) error {
	if body == "" {
		return Errorf(CodeInvalidArguments, "proposedMarkdown has no text for section %q", sec.Heading)
	}
	lvl, heading, startsWithHeading := headingLine(firstLine(body))
	level := sec.Level
	if startsWithHeading {
		level = lvl
	}
	body = narrowBody(p, body, startsWithHeading, level, sec.Heading, keepRole)
	secs := e.Sections
	if f.path != e.ID && e.Soul != nil {
		secs = e.Soul.Sections
	}
	var lost []string
	for _, s := range secs {
		if s.Range.Start > sec.Range.Start && s.Range.Start < sec.Range.End && !bodyHasHeading(body, s.Heading) {
			lost = append(lost, s.Heading)
		}
	}
	if len(lost) > 0 {
		p.warnf("section %q holds the subsections %s, which this proposal replaces too: check nothing is lost",
			sec.Heading, quoteList(lost))
	}
	eol := eolOf(f.text)
	tail := "\n"
	if sec.Range.End < len(f.text) {
		tail = "\n\n"
	}
	if startsWithHeading {
		if codex.Normalize(heading) != codex.Normalize(sec.Heading) {
			p.warnf("the proposal renames section %q to %q", sec.Heading, heading)
		}
		p.edit(f, sec.Range, withEOL(body+tail, eol), fmt.Sprintf("replace section %q with its heading", sec.Heading))
		p.markdown = append(p.markdown, body)
		return nil
	}
	start := sec.HeadingRange.End
	if start < len(f.text) && f.text[start] == '\r' {
		start++
	}
	if start < len(f.text) && f.text[start] == '\n' {
		start++
	}
	if start > sec.Range.End {
		start = sec.Range.End
	}
	p.edit(f, codex.Range{Start: start, End: sec.Range.End}, withEOL("\n"+body+tail, eol),
		fmt.Sprintf("replace the text of section %q", sec.Heading))
	p.markdown = append(p.markdown, f.text[sec.HeadingRange.Start:sec.HeadingRange.End]+"\n\n"+body)
	return nil
}

// proposeNewSection appends body as a new section at the end of f.
func proposeNewSection(p *plan, e *codex.Entry, f fileText, target, body string, keepRole bool) {
	lvl, heading, startsWithHeading := headingLine(firstLine(body))
	level := 2
	if startsWithHeading {
		level = lvl
		if target == "" {
			target = heading
		}
	}
	body = narrowBody(p, body, startsWithHeading, level, target, keepRole)
	if !startsWithHeading {
		body = "## " + target + "\n\n" + body
	}
	var heads []string
	for _, s := range e.Sections {
		heads = append(heads, s.Heading)
	}
	if len(heads) > 0 {
		p.warnf("%s has no section %q; it is proposed as a new section at the end (its sections: %s)", f.path, target, quoteList(heads))
	} else {
		p.warnf("%s has no section %q; it is proposed as a new section at the end", f.path, target)
	}
	sep := ""
	switch {
	case f.text == "" || strings.HasSuffix(f.text, "\n\n") || strings.HasSuffix(f.text, "\r\n\r\n"):
	case strings.HasSuffix(f.text, "\n"):
		sep = "\n"
	default:
		sep = "\n\n"
	}
	p.edit(f, codex.Range{Start: len(f.text), End: len(f.text)}, withEOL(sep+body+"\n", eolOf(f.text)),
		fmt.Sprintf("add a new section %q at the end", target))
	p.markdown = append(p.markdown, body)
}

// narrowBody keeps a section proposal to its section: text past a
// heading at the section's level or higher is kept out, and so, when
// keepRole is set, is a Role subsection (a character's role changes only
// when that is what was asked).
func narrowBody(p *plan, body string, startsWithHeading bool, level int, target string, keepRole bool) string {
	lines := strings.SplitAfter(body, "\n")
	var out []string
	fence := ""
	skipping := 0 // level of a Role subsection being left out
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			if skipping == 0 {
				out = append(out, line)
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			if skipping == 0 {
				out = append(out, line)
			}
			continue
		}
		if lvl, h, ok := headingLine(strings.TrimRight(line, "\n")); ok && !(i == 0 && startsWithHeading) {
			if skipping > 0 && lvl <= skipping {
				skipping = 0
			}
			if lvl <= level {
				var rest []string
				for _, l := range lines[i:] {
					if lv, hh, ok := headingLine(strings.TrimRight(l, "\n")); ok && lv <= level {
						rest = append(rest, hh)
					}
				}
				p.warnf("the proposal goes on past section %q (%s); only %q is proposed, the rest was kept out: propose each section separately",
					target, quoteList(rest), target)
				break
			}
			if keepRole && codex.Normalize(h) == "role" {
				p.warnf("the proposal rewrites the character's %q subsection, which was not asked for; it was kept out (propose it with targetSection %q)", h, "Role")
				skipping = lvl
				continue
			}
		}
		if skipping == 0 {
			out = append(out, line)
		}
	}
	return strings.Trim(strings.Join(out, ""), "\n")
}

func bodyHasHeading(body, heading string) bool {
	want := codex.Normalize(heading)
	for _, line := range strings.Split(body, "\n") {
		if _, h, ok := headingLine(line); ok && codex.Normalize(h) == want {
			return true
		}
	}
	return false
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// headingLine reads an ATX heading line.
func headingLine(line string) (level int, text string, ok bool) {
	m := atxHeading.FindStringSubmatch(strings.TrimRight(line, "\r"))
	if m == nil {
		return 0, "", false
	}
	return len(m[1]), strings.TrimSpace(m[2]), true
}

// proposeField sets a front matter field from the first paragraph of
// body: a field is a short value, and the rest is kept out.
func (b *Book) proposeField(p *plan, e *codex.Entry, f fileText, cur *frontMatter, key, body string) error {
	if isLocked(e, key) {
		return Errorf(CodeInvalidArguments, "the field %q of %s is locked by the writer; a proposal may not change it", key, e.Name)
	}
	var paras []string
	for _, para := range strings.Split(body, "\n\n") {
		var words []string
		for _, line := range strings.Split(para, "\n") {
			if _, _, ok := headingLine(line); ok {
				continue
			}
			words = append(words, strings.Fields(line)...)
		}
		if len(words) > 0 {
			paras = append(paras, strings.Join(words, " "))
		}
	}
	if len(paras) == 0 {
		return Errorf(CodeInvalidArguments, "proposedMarkdown has no value for the field %q", key)
	}
	if len(paras) > 1 {
		p.warnf("%q is a front matter field, a short value: only the first paragraph is proposed, the rest was kept out", key)
	}
	var n yaml.Node
	if err := n.Encode(paras[0]); err != nil {
		return err
	}
	k := cur.key(key)
	line, err := yamlPair(k.name, &n)
	if err != nil {
		return err
	}
	p.edit(f, k.span, withEOL(line, eolOf(f.text)), fmt.Sprintf("set the front matter field %q", k.name))
	p.markdown = append(p.markdown, strings.TrimRight(line, "\n"))
	return nil
}

func isLocked(e *codex.Entry, key string) bool {
	for _, l := range e.Locked {
		if strings.EqualFold(strings.TrimSpace(l), key) {
			return true
		}
	}
	return false
}

// protectedKeys are front matter keys no proposal changes: what the entry
// is, what it is called (renames go through the editor) and what the
// writer locked.
var protectedKeys = map[string]string{
	"type":   "the entry's type",
	"name":   "the entry's name (a rename goes through the editor)",
	"locked": "the writer's list of locked fields",
}

// proposeFrontMatter turns the front matter of a proposal into edits of
// single keys: unchanged keys are skipped, locked and protected keys kept
// out, missing keys kept as they are.
func (b *Book) proposeFrontMatter(p *plan, e *codex.Entry, f fileText, cur *frontMatter, pfm *yaml.Node, done string, keepRole bool) {
	if cur.present && !cur.closed {
		p.warnf("%s has an unclosed front matter block; the proposed front matter changes were kept out", f.path)
		return
	}
	var insert []string
	var changed []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(pfm.Content); i += 2 {
		kn, vn := pfm.Content[i], pfm.Content[i+1]
		key := strings.TrimSpace(kn.Value)
		lower := strings.ToLower(key)
		seen[lower] = true
		if lower == "" || strings.EqualFold(key, done) {
			continue
		}
		k := cur.key(key)
		if k != nil && sameYAML(k.value, vn) {
			continue
		}
		if why, ok := protectedKeys[lower]; ok {
			p.warnf("the proposal changes %s (%q); it was kept out", why, key)
			continue
		}
		if isLocked(e, key) {
			p.warnf("the field %q is locked by the writer; the proposed change to it was kept out", key)
			continue
		}
		if keepRole && lower == "role" {
			p.warnf("the proposal changes the character's role field, which was not asked for; it was kept out (propose it with targetSection %q)", "role")
			continue
		}
		line, err := yamlPair(key, vn)
		if err != nil {
			p.warnf("the proposed value of %q could not be written as YAML; it was kept out", key)
			continue
		}
		changed = append(changed, key)
		if k != nil {
			p.edit(f, k.span, withEOL(line, eolOf(f.text)), fmt.Sprintf("set the front matter field %q", key))
		} else {
			insert = append(insert, line)
		}
		p.markdown = append(p.markdown, strings.TrimRight(line, "\n"))
	}
	if len(insert) > 0 {
		text := strings.Join(insert, "")
		at := cur.closeStart
		if !cur.present {
			text = "---\n" + text + "---\n"
			at = cur.bodyStart
		}
		p.edit(f, codex.Range{Start: at, End: at}, withEOL(text, eolOf(f.text)), fmt.Sprintf("add front matter fields %s", quoteList(keysOfLines(insert))))
	}
	var kept []string
	for _, k := range cur.keys {
		if !seen[strings.ToLower(k.name)] {
			kept = append(kept, k.name)
		}
	}
	if len(kept) > 0 && len(changed) > 0 {
		p.warnf("front matter fields the proposal left out are kept unchanged: %s", quoteList(kept))
	}
}

func keysOfLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		k, _, _ := strings.Cut(l, ":")
		out = append(out, strings.Trim(k, `"' `))
	}
	return out
}

func sameYAML(a, b *yaml.Node) bool {
	var va, vb any
	if a.Decode(&va) != nil || b.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// yamlPair renders one top-level key and its value, with a final line
// break, quoting whatever YAML would misread.
func yamlPair(key string, value *yaml.Node) (string, error) {
	var k yaml.Node
	if err := k.Encode(key); err != nil {
		return "", err
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{&k, value}}
	return marshalYAML(m)
}

func marshalYAML(n *yaml.Node) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// frontMatter is the front matter of a file as the proposal tools edit it:
// each top-level key with the lines it spans.
type frontMatter struct {
	present, closed bool
	// bodyStart is where the front matter (or the body, without one)
	// begins: after a byte order mark.
	bodyStart int
	// closeStart is the start of the closing fence line.
	closeStart int
	keys       []fmKey
}

type fmKey struct {
	name  string
	span  codex.Range // the key's lines, with their line breaks
	value *yaml.Node
}

func (fm *frontMatter) key(name string) *fmKey {
	for i := range fm.keys {
		if strings.EqualFold(fm.keys[i].name, name) {
			return &fm.keys[i]
		}
	}
	return nil
}

// scalarKey finds a front matter key holding one value, for a
// targetSection that names a field.
func (fm *frontMatter) scalarKey(name string) (string, bool) {
	want := codex.Normalize(name)
	for _, k := range fm.keys {
		if codex.Normalize(k.name) == want && k.value.Kind == yaml.ScalarNode {
			if _, ok := protectedKeys[strings.ToLower(k.name)]; ok {
				return "", false
			}
			return k.name, true
		}
	}
	return "", false
}

func parseFrontMatter(text string) *frontMatter {
	fm := &frontMatter{}
	if strings.HasPrefix(text, "\xEF\xBB\xBF") {
		fm.bodyStart = 3
	}
	lines := lineStarts(text, fm.bodyStart)
	if len(lines) == 0 || !isFenceLine(text, lines, 0, "---") {
		return fm
	}
	fm.present = true
	close := -1
	for i := 1; i < len(lines); i++ {
		if isFenceLine(text, lines, i, "---") || isFenceLine(text, lines, i, "...") {
			close = i
			break
		}
	}
	if close < 0 {
		return fm
	}
	fm.closed = true
	fm.closeStart = lines[close]
	yamlText := text[lines[1]:lines[close]]
	var doc yaml.Node
	if yaml.Unmarshal([]byte(yamlText), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fm
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn := m.Content[i]
		first := kn.Line // 1-based within the YAML; line 1 is lines[1]
		end := close     // index into lines
		if i+2 < len(m.Content) {
			end = m.Content[i+2].Line
		}
		// Leave blank and comment lines before the next key alone.
		for end-1 > first && blankOrComment(text, lines, end-1) {
			end--
		}
		if first < 1 || first >= close || end <= first {
			continue
		}
		fm.keys = append(fm.keys, fmKey{
			name:  strings.TrimSpace(kn.Value),
			span:  codex.Range{Start: lines[first], End: lines[end]},
			value: m.Content[i+1],
		})
	}
	return fm
}

// lineStarts are the offsets where lines begin, from start on.
func lineStarts(text string, start int) []int {
	var out []int
	for pos := start; pos < len(text); {
		out = append(out, pos)
		i := strings.IndexByte(text[pos:], '\n')
		if i < 0 {
			break
		}
		pos += i + 1
	}
	if len(text) > start && strings.HasSuffix(text, "\n") {
		out = append(out, len(text))
	}
	return out
}

func lineText(text string, lines []int, i int) string {
	end := len(text)
	if i+1 < len(lines) {
		end = lines[i+1]
	}
	return strings.TrimRight(text[lines[i]:end], "\r\n")
}

func isFenceLine(text string, lines []int, i int, fence string) bool {
	return i < len(lines) && strings.TrimRight(lineText(text, lines, i), " \t") == fence
}

func blankOrComment(text string, lines []int, i int) bool {
	l := strings.TrimSpace(lineText(text, lines, i))
	return l == "" || strings.HasPrefix(l, "#")
}

// splitProposal separates a front matter block from proposed Markdown.
// The mapping is nil when there is none or it is not valid YAML.
func splitProposal(md string) (*yaml.Node, string, error) {
	trimmed := strings.TrimLeft(md, " \t\n")
	fm := parseFrontMatter(trimmed)
	if !fm.present || !fm.closed {
		return nil, md, nil
	}
	lines := lineStarts(trimmed, 0)
	yamlText := trimmed[lines[1]:fm.closeStart]
	rest := trimmed[fm.closeStart:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[i+1:]
	} else {
		rest = ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yamlText), &doc); err != nil {
		return nil, rest, err
	}
	if len(doc.Content) == 0 {
		return nil, rest, nil
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, rest, errors.New("it is not a mapping of keys to values")
	}
	return doc.Content[0], rest, nil
}

// mappingValue is the value of key in a YAML mapping, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(strings.TrimSpace(m.Content[i].Value), key) {
			return m.Content[i+1]
		}
	}
	return nil
}

// --- create ---

type createArgs struct {
	EntryType     string            `json:"entryType"`
	Name          string            `json:"name"`
	ChangeSummary string            `json:"changeSummary"`
	Fields        map[string]string `json:"fields"`
	CustomFields  map[string]string `json:"customFields"`
	MarkdownBody  string            `json:"markdownBody"`
	SoulMarkdown  string            `json:"soulMarkdown"`
}

// reservedKeys are the front matter keys quire reads itself; a custom
// field may not use them.
var reservedKeys = map[string]bool{
	"type": true, "name": true, "title": true, "summary": true, "description": true,
	"aliases": true, "alias": true, "tags": true, "tag": true, "status": true,
	"locked": true, "mentions": true, "exclude": true,
}

var customKeyPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

func (b *Book) proposeCreate(store *Proposals, tool string, raw json.RawMessage) (any, []string, error) {
	var args createArgs
	if err := decodeBookArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	for field, s := range map[string]string{"markdownBody": args.MarkdownBody, "soulMarkdown": args.SoulMarkdown} {
		if err := checkMarkdownSize(field, s); err != nil {
			return nil, nil, err
		}
	}
	t, err := builtinType(args.EntryType, true)
	if err != nil {
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
	if len(args.CustomFields) > maxCustomFields {
		return nil, nil, Errorf(CodeArgumentsTooLarge, "customFields has %d fields, more than the %d allowed", len(args.CustomFields), maxCustomFields)
	}
	for _, m := range []map[string]string{args.Fields, args.CustomFields} {
		for k, v := range m {
			if utf8.RuneCountInString(v) > maxFieldValueChars {
				return nil, nil, Errorf(CodeArgumentsTooLarge, "the value of %q is longer than %d characters", k, maxFieldValueChars)
			}
		}
	}
	if b == nil || b.Store == nil {
		return nil, nil, Errorf(CodeToolFailed, "no codex is open for this turn")
	}
	cat := b.Store.Catalog()
	var warnings []string
	warnf := func(format string, a ...any) { warnings = append(warnings, fmt.Sprintf(format, a...)) }

	for _, m := range cat.Lookup(name, t) {
		if m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias {
			te := Errorf(CodeAmbiguous, "a %s named %q already exists at %s (as %s %q); use propose_codex_update to change it",
				t, name, m.Entry.ID, m.Kind, name)
			te.Candidates = []string{m.Entry.Name}
			return nil, nil, te
		}
	}
	for _, m := range cat.Lookup(name, "") {
		if m.Entry.Type != t && (m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias) {
			warnf("%q is also the %s of the %s %s (%s): links and mentions of that name become ambiguous", name, m.Kind, m.Entry.Type, m.Entry.Name, m.Entry.ID)
			break
		}
	}

	// Standard fields.
	var title, entrySummary string
	var aliases, tags []string
	custom := map[string]string{}
	for _, k := range sortedKeys(args.Fields) {
		v := strings.TrimSpace(args.Fields[k])
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "summary", "description":
			entrySummary = v
		case "aliases", "alias":
			aliases = splitList(v)
		case "tags", "tag":
			tags = splitList(v)
		case "title":
			title = v
		case "status":
			if v != "" && !strings.EqualFold(v, string(codex.StatusTentative)) {
				warnf("a new entry is proposed as tentative; status %q was not used", v)
			}
		case "type", "name":
			if v != "" && !strings.EqualFold(v, name) && !strings.EqualFold(v, string(t)) {
				warnf("fields.%s %q was not used: the entry's %s comes from the tool's own argument", k, v, k)
			}
		case "locked", "mentions", "exclude":
			warnf("fields.%s was not used: it is the writer's to set", k)
		default:
			custom[k] = v
		}
	}
	for k, v := range args.CustomFields {
		custom[k] = strings.TrimSpace(v)
	}
	for _, a := range aliases {
		if e, ok := cat.Resolve(a); ok && e.Type == t {
			warnf("the alias %q already names %s (%s)", a, e.Name, e.ID)
		}
	}

	// Front matter, in a fixed order.
	fm := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, value any, flow bool) error {
		var k, v yaml.Node
		if err := k.Encode(key); err != nil {
			return err
		}
		if err := v.Encode(value); err != nil {
			return err
		}
		if flow {
			v.Style = yaml.FlowStyle
		}
		fm.Content = append(fm.Content, &k, &v)
		return nil
	}
	type kv struct {
		key  string
		val  any
		flow bool
		skip bool
	}
	pairs := []kv{
		{"type", string(t), false, false},
		{"name", name, false, false},
		{"title", title, false, title == ""},
		{"aliases", aliases, true, len(aliases) == 0},
		{"summary", entrySummary, false, entrySummary == ""},
		{"tags", tags, true, len(tags) == 0},
		{"status", string(codex.StatusTentative), false, false},
	}
	for _, k := range sortedKeys(custom) {
		v := custom[k]
		key := strings.TrimSpace(k)
		switch {
		case v == "":
			continue
		case reservedKeys[strings.ToLower(key)]:
			warnf("custom field %q was not used: %q is a standard field (set it in fields)", k, key)
			continue
		case !customKeyPattern.MatchString(key):
			warnf("custom field %q was not used: a field name is a word of letters, digits, - and _", k)
			continue
		}
		pairs = append(pairs, kv{key, v, false, false})
	}
	for _, p := range pairs {
		if !p.skip {
			if err := add(p.key, p.val, p.flow); err != nil {
				return nil, nil, fmt.Errorf("building front matter: %w", err)
			}
		}
	}
	yml, err := marshalYAML(fm)
	if err != nil {
		return nil, nil, fmt.Errorf("building front matter: %w", err)
	}
	body := strings.Trim(strings.ReplaceAll(args.MarkdownBody, "\r\n", "\n"), "\n")
	var doc strings.Builder
	doc.WriteString("---\n" + yml + "---\n\n")
	if lvl, _, ok := headingLine(firstLine(body)); !ok || lvl != 1 {
		doc.WriteString("# " + name + "\n")
		if strings.TrimSpace(body) != "" {
			doc.WriteString("\n")
		}
	}
	if strings.TrimSpace(body) != "" {
		doc.WriteString(body + "\n")
	}
	content := doc.String()

	soul := strings.Trim(strings.ReplaceAll(args.SoulMarkdown, "\r\n", "\n"), "\n")
	if strings.TrimSpace(soul) == "" {
		soul = ""
	}
	if soul != "" && t != codex.TypeCharacter {
		warnf("only characters have a soul; soulMarkdown was not used for a %s", t)
		soul = ""
	}

	rel, soulRel := b.freePath(cat, t, name, soul != "")
	ne, _ := codex.Parse(rel, []byte(content), t)
	if ne == nil || ne.Name != name || ne.Type != t {
		return nil, nil, fmt.Errorf("the proposed entry does not read back as %s %q", t, name)
	}

	edits := []FileEdit{{Path: rel, Create: true, NewText: content}}
	changes := []string{"create " + rel}
	if soul != "" {
		soul += "\n"
		edits = append(edits, FileEdit{Path: soulRel, Create: true, NewText: soul})
		changes = append(changes, "create "+soulRel)
	}
	prop := store.Add(Proposal{
		Tool:          tool,
		Kind:          ProposalCreate,
		EntryType:     t,
		Name:          name,
		ChangeSummary: summary,
		Path:          rel,
		SoulPath:      soulRel,
		Edits:         edits,
		Markdown:      content,
		SoulMarkdown:  soul,
		Warnings:      warnings,
		Created:       time.Now(),
	})
	res := proposalResult{
		ProposalID: prop.ID, Status: proposalStatus, Kind: prop.Kind, EntryType: t,
		Name: name, Path: rel, SoulPath: soulRel, Changes: changes,
	}
	var c1, c2 bool
	res.Markdown, c1 = clipPreview(content)
	res.SoulMarkdown, c2 = clipPreview(soul)
	res.MarkdownClipped = c1 || c2
	return res, slices.Clone(warnings), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// splitList reads a comma-separated list, dropping blanks and repeats.
func splitList(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" || seen[codex.Normalize(part)] {
			continue
		}
		seen[codex.Normalize(part)] = true
		out = append(out, part)
	}
	return out
}

// slugOf makes a file name from a name: ASCII letters and digits joined
// by single dashes.
func slugOf(name string, t codex.Type) string {
	var b strings.Builder
	dash := false
	for _, r := range codex.Normalize(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= maxSlugRunes {
				break
			}
			continue
		}
		dash = true
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "new-" + string(t)
	}
	return s
}

// typeFolder is where entries of type t live: the folder most existing
// entries of that type use, when it is named for the type, or
// codex/<plural>.
func typeFolder(cat *codex.Catalog, t codex.Type) string {
	counts := map[string]int{}
	for _, e := range cat.OfType(t) {
		dir := path.Dir(e.ID)
		if path.Base(e.ID) == "index.md" {
			dir = path.Dir(dir)
		}
		if ft, ok := codex.TypeFromFolder(path.Base(dir)); ok && ft == t && dir != "." && !strings.HasPrefix(dir, "..") {
			counts[dir]++
		}
	}
	best, n := "codex/"+t.Plural(), 0
	for dir, c := range counts {
		if c > n || (c == n && dir < best) {
			best, n = dir, c
		}
	}
	return best
}

// freePath proposes where a new entry goes, never over an existing file:
// <folder>/<slug>.md, or <folder>/<slug>/index.md and soul.md with a
// soul; -2, -3… when taken.
func (b *Book) freePath(cat *codex.Catalog, t codex.Type, name string, withSoul bool) (string, string) {
	dir := typeFolder(cat, t)
	slug := slugOf(name, t)
	for n := 1; ; n++ {
		s := slug
		if n > 1 {
			s = fmt.Sprintf("%s-%d", slug, n)
		}
		flat, folder := path.Join(dir, s+".md"), path.Join(dir, s)
		if n < maxPathSuffix && (b.taken(cat, flat) || b.taken(cat, folder)) {
			continue
		}
		if n >= maxPathSuffix {
			s = fmt.Sprintf("%s-%s", slug, strings.TrimPrefix(newProposalID(), "p-"))
			flat, folder = path.Join(dir, s+".md"), path.Join(dir, s)
		}
		if withSoul {
			return path.Join(folder, "index.md"), path.Join(folder, "soul.md")
		}
		return flat, ""
	}
}

// taken reports whether a project-relative path is in use: a known
// entry, or anything on disk. It only looks.
func (b *Book) taken(cat *codex.Catalog, rel string) bool {
	lower := strings.ToLower(rel)
	for _, e := range cat.All() {
		id := strings.ToLower(e.ID)
		if id == lower || strings.HasPrefix(id, lower+"/") {
			return true
		}
	}
	root := b.Store.Root()
	if root == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
