package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
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
func ProposeTools(b *Book, store *Proposals) []provider.Tool {
	if store == nil {
		store = NewProposals(0)
	}
	return []provider.Tool{proposeUpdateTool(b, store), proposeCreateTool(b, store), proposeCharacterUpdateTool(b, store)}
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

func proposeUpdateTool(b *Book, store *Proposals) provider.Tool {
	const name = "propose_codex_update"
	return provider.Tool{
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

func proposeCharacterUpdateTool(b *Book, store *Proposals) provider.Tool {
	const name = "propose_character_update"
	return provider.Tool{
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

func proposeCreateTool(b *Book, store *Proposals) provider.Tool {
	const name = "propose_codex_create"
	strObj := func(desc string) map[string]any {
		return map[string]any{
			"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": desc,
		}
	}
	return provider.Tool{
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
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "name is empty")
	case utf8.RuneCountInString(name) > maxNameChars:
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "name is longer than %d characters", maxNameChars)
	case strings.ContainsAny(name, "\r\n\x00"):
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "name must be one line")
	}
	return name, nil
}

func checkSummary(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "changeSummary is empty; say in a sentence what changes and why")
	case utf8.RuneCountInString(s) > maxChangeSummaryChars:
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "changeSummary is longer than %d characters", maxChangeSummaryChars)
	}
	return s, nil
}

func checkMarkdownSize(field, s string) error {
	if len(s) > maxProposalMarkdownBytes {
		return toolloop.Errorf(toolloop.CodeArgumentsTooLarge, "%s is %d bytes, more than the %d allowed; propose a smaller change",
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
		te := toolloop.Errorf(toolloop.CodeNotFound, "no %s entry is named %q", t, name)
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
		te := toolloop.Errorf(toolloop.CodeAmbiguous, "%q names more than one %s entry equally (%s); use the full name of the one meant",
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
