package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// The propose tools are review-only: package proposal computes exact
// edits and they keep them in a proposal.Store; nothing reaches a file until the writer
// applies a proposal through the editor, which is never a model tool.

// maxPreviewBytes bounds the Markdown echoed back to the model.
const maxPreviewBytes = 12000

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

// Propose are the review-only canon tools: propose_codex_update,
// propose_codex_create and the legacy propose_character_update. Each
// proposal is kept in store (a fresh one when store is nil); none is
// ever written to disk.
func Propose(src *Sources, store *proposal.Store) []provider.Tool {
	if store == nil {
		store = proposal.NewStore(0)
	}
	return []provider.Tool{proposeUpdateTool(src, store), proposeCreateTool(src, store), proposeCharacterUpdateTool(src, store)}
}

func updateProperties(withType bool) map[string]any {
	props := map[string]any{
		"name": map[string]any{
			"type": "string", "minLength": 1, "maxLength": proposal.MaxNameChars,
			"description": "The entry's name, title or alias, exactly as the writer uses it.",
		},
		"changeSummary": map[string]any{
			"type": "string", "minLength": 1, "maxLength": proposal.MaxChangeSummaryChars,
			"description": "One or two sentences for the writer: what changes and why.",
		},
		"targetSection": map[string]any{
			"type": "string", "maxLength": proposal.MaxSectionChars,
			"description": "The heading of the section to replace (e.g. \"Backstory\"), or a front matter field such as " +
				"\"summary\" or \"role\". A section that does not exist is proposed as a new section at the end.",
		},
		"proposedMarkdown": map[string]any{
			"type": "string", "minLength": 1,
			"description": fmt.Sprintf("The new Markdown of that section only (at most %d bytes); "+
				"the section heading may be included or left out. Locked front matter fields are never changed.", proposal.MaxMarkdownBytes),
		},
	}
	if withType {
		props["entryType"] = map[string]any{
			"type": "string", "enum": entryTypeEnum(), "description": "The type of the entry to change.",
		}
	}
	return props
}

func proposeUpdateTool(src *Sources, store *proposal.Store) provider.Tool {
	const name = "propose_codex_update"
	return provider.Tool{
		Name: name,
		Description: "Propose a change to one section of an existing canon entry, for the writer to review. " +
			"Nothing is applied or saved: the writer sees the exact edit in the editor and decides. " +
			"Read the entry first (get_<type>_context) and change only what was asked.",
		Parameters: objectSchema(updateProperties(true), "entryType", "name", "changeSummary", "proposedMarkdown"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			var args proposal.UpdateArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, nil, err
			}
			t, err := builtinType(args.EntryType, true)
			if err != nil {
				return nil, nil, err
			}
			return src.keep(store)(proposal.Update(src.store(), name, t, args))
		},
	}
}

func proposeCharacterUpdateTool(src *Sources, store *proposal.Store) provider.Tool {
	const name = "propose_character_update"
	return provider.Tool{
		Name: name,
		Description: "Propose a change to one section of an existing character entry (or of the character's soul), " +
			"for the writer to review. Nothing is applied or saved. Same as propose_codex_update with entryType character.",
		Parameters: objectSchema(updateProperties(false), "name", "changeSummary", "proposedMarkdown"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			var args struct {
				Name             string `json:"name"`
				ChangeSummary    string `json:"changeSummary"`
				TargetSection    string `json:"targetSection"`
				ProposedMarkdown string `json:"proposedMarkdown"`
			}
			if err := decodeArgs(raw, &args); err != nil {
				return nil, nil, err
			}
			return src.keep(store)(proposal.Update(src.store(), name, codex.TypeCharacter, proposal.UpdateArgs{
				Name: args.Name, ChangeSummary: args.ChangeSummary,
				TargetSection: args.TargetSection, ProposedMarkdown: args.ProposedMarkdown,
			}))
		},
	}
}

func proposeCreateTool(src *Sources, store *proposal.Store) provider.Tool {
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
		Parameters: objectSchema(map[string]any{
			"entryType": map[string]any{"type": "string", "enum": entryTypeEnum(), "description": "The type of the new entry."},
			"name": map[string]any{
				"type": "string", "minLength": 1, "maxLength": proposal.MaxNameChars, "description": "The new entry's name.",
			},
			"changeSummary": map[string]any{
				"type": "string", "minLength": 1, "maxLength": proposal.MaxChangeSummaryChars,
				"description": "One or two sentences for the writer: why this entry.",
			},
			"fields":       strObj("Standard fields, all strings: summary, aliases (comma-separated), tags (comma-separated), title."),
			"customFields": strObj("Other front matter fields, all strings (e.g. role, age)."),
			"markdownBody": map[string]any{
				"type":        "string",
				"description": fmt.Sprintf("The entry's Markdown after its title heading (at most %d bytes).", proposal.MaxMarkdownBytes),
			},
			"soulMarkdown": map[string]any{
				"type":        "string",
				"description": "Characters only, optional: the Markdown of the character's soul.md (inner life, fears, wants).",
			},
		}, "entryType", "name", "changeSummary"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			var args proposal.CreateArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, nil, err
			}
			// The sizes first, as they always were: a request over its
			// bounds is too large whatever else is wrong with it.
			for field, s := range map[string]string{"markdownBody": args.MarkdownBody, "soulMarkdown": args.SoulMarkdown} {
				if err := proposal.CheckMarkdownSize(field, s); err != nil {
					return nil, nil, src.scrubErr(proposalError(err))
				}
			}
			t, err := builtinType(args.EntryType, true)
			if err != nil {
				return nil, nil, err
			}
			return src.keep(store)(proposal.Create(src.store(), name, t, args))
		},
	}
}

func (src *Sources) scrubAll(ss []string) []string {
	for i, s := range ss {
		ss[i] = src.scrub(s)
	}
	return ss
}

// store is the codex proposals are made against; nil when none is open,
// which package proposal reports.
func (src *Sources) store() *codex.Store {
	if src == nil {
		return nil
	}
	return src.Store
}

// keep stores a proposal just made and tells the model what it holds;
// a request that made none is reported in the envelope's terms. Both go
// through scrub, like every tool's output.
func (src *Sources) keep(store *proposal.Store) func(proposal.Draft, error) (any, []string, error) {
	return func(d proposal.Draft, err error) (any, []string, error) {
		if err != nil {
			return nil, nil, src.scrubErr(proposalError(err))
		}
		prop := store.Add(d.Proposal)
		res := proposalResult{
			ProposalID: prop.ID, Status: proposalStatus, Kind: prop.Kind, EntryType: prop.EntryType,
			Name: prop.Name, Path: prop.Path, SoulPath: prop.SoulPath, Changes: d.Changes,
		}
		var c1, c2 bool
		res.Markdown, c1 = clipPreview(prop.Markdown)
		res.SoulMarkdown, c2 = clipPreview(prop.SoulMarkdown)
		res.MarkdownClipped = c1 || c2
		return res, src.scrubAll(slices.Clone(prop.Warnings)), nil
	}
}

// proposalCodes are the envelope codes of package proposal's refusals.
var proposalCodes = map[proposal.Kind]string{
	proposal.Invalid:   toolloop.CodeInvalidArguments,
	proposal.TooLarge:  toolloop.CodeArgumentsTooLarge,
	proposal.NotFound:  toolloop.CodeNotFound,
	proposal.Ambiguous: toolloop.CodeAmbiguous,
	proposal.Failed:    toolloop.CodeToolFailed,
}

// proposalError is a refusal of package proposal as a tool error.
func proposalError(err error) error {
	var pe *proposal.Error
	if !errors.As(err, &pe) {
		return err
	}
	code, ok := proposalCodes[pe.Kind]
	if !ok {
		code = toolloop.CodeToolFailed
	}
	return &toolloop.ToolError{Code: code, Message: pe.Message, Candidates: pe.Candidates}
}

func clipPreview(s string) (string, bool) {
	c := clip.Bytes(s, maxPreviewBytes)
	return c, len(c) < len(s)
}
