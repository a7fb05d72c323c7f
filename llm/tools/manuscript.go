package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
)

// maxRefChars bounds one reference in the schema; the manuscript package
// refuses longer ones too.
const maxRefChars = 500

type manuscriptContextArgs struct {
	Ref  *string  `json:"ref"`
	Refs []string `json:"refs"`
}

// ref is what the call asked for, as evidence names it: ref, or refs
// joined by ", ".
func (a manuscriptContextArgs) ref() string {
	if a.Ref != nil {
		return *a.Ref
	}
	return strings.Join(a.Refs, ", ")
}

func manuscriptContextTool(src *Sources) provider.Tool {
	ref := map[string]any{
		"type":      "string",
		"minLength": 1,
		"maxLength": maxRefChars,
		"description": `One unit to read: "current" (the writer's active document), "selection" (the text the writer selected for this turn), ` +
			`a chapter number ("3" or "chapter 3"), a chapter title (any case; a unique prefix is enough), ` +
			`or a project-relative path such as "manuscript/03-slack-water.md".`,
	}
	refs := map[string]any{
		"type":        "array",
		"minItems":    1,
		"maxItems":    manuscript.MaxRefs,
		"items":       map[string]any{"type": "string", "minLength": 1, "maxLength": maxRefChars},
		"description": fmt.Sprintf("Several units to read together, for a comparison; at most %d, each written as ref is.", manuscript.MaxRefs),
	}
	params := objectSchema(map[string]any{"ref": ref, "refs": refs})
	params["x-exactly-one-of"] = []string{"ref", "refs"}
	return provider.Tool{
		Name: "get_manuscript_context",
		Description: "Read the manuscript's prose: the writer's current document, their selection for this turn, " +
			"one chapter, or several chapters to compare. Give exactly one of ref or refs. " +
			`A reference is "current", "selection", a chapter number, a chapter title, or a project-relative path. ` +
			"Use only chapter numbers, titles and paths you have seen in this conversation or in a tool's candidates; never invent or guess a path, " +
			"and never use absolute paths, .. or URLs: they are refused. " +
			"Long text is cut to stay within limits, and the cut is marked; ask for fewer units to read more of each.",
		Parameters: params,
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.manuscriptContext(raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) manuscriptContext(raw json.RawMessage) (any, []string, error) {
	var args manuscriptContextArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	read := src.reading(Lookup{Tool: "get_manuscript_context", Ref: args.ref()})
	var refs []string
	switch {
	case args.Ref != nil && args.Refs != nil:
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "give either ref or refs, not both")
	case args.Ref != nil:
		if strings.TrimSpace(*args.Ref) == "" {
			return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, `ref is empty; use "current", "selection", a chapter number, a title or a project-relative path`)
		}
		refs = []string{*args.Ref}
	case args.Refs != nil:
		if len(args.Refs) == 0 {
			return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "refs is empty; name at least one unit")
		}
		if len(args.Refs) > manuscript.MaxRefs {
			return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "refs names %d units; at most %d at once", len(args.Refs), manuscript.MaxRefs)
		}
		for i, r := range args.Refs {
			if strings.TrimSpace(r) == "" {
				return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "refs[%d] is empty", i)
			}
		}
		refs = args.Refs
	default:
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, `give ref (one unit) or refs (several): "current", "selection", a chapter number, a title or a project-relative path`)
	}
	snap := src.Snapshot()
	if snap == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no manuscript is open for this turn")
	}
	res, err := snap.Context(refs, src.Place, src.Limits)
	if err != nil {
		return nil, nil, manuscriptError(err)
	}
	for _, u := range res.Units {
		read.add(u.Path, unitHash(src, u.Kind, u.Path, u.Hash, u.Text))
		if via := src.evidence.outlinedBy(u.Path); via != "" && read != nil && read.Via == "" {
			read.Via = via
		}
	}
	out := *res
	out.Failed = nil
	var warnings []string
	for _, f := range res.Failed {
		f.Error = src.scrub(f.Error)
		out.Failed = append(out.Failed, f)
		w := fmt.Sprintf("could not read %q: %s", f.Ref, f.Error)
		if strings.Contains(f.Error, manuscript.ErrPathRefused.Error()) {
			w += "; use a chapter number, a title or a project-relative path inside the project"
		}
		warnings = append(warnings, w)
	}
	if res.Truncated {
		warnings = append(warnings, "some text was cut to stay within limits (marked in the text); ask for fewer units at once to read more of each")
	}
	return &out, warnings, nil
}

// manuscriptError maps a failed context read to the envelope's codes:
// a refused path is OUT_OF_SCOPE, an ambiguous reference AMBIGUOUS, one
// that names nothing NOT_FOUND, with the units it may have meant.
func manuscriptError(err error) *toolloop.ToolError {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var refused, ambiguous, notFound bool
	var msgs, candidates []string
	seen := map[string]bool{}
	for _, e := range errs {
		msgs = append(msgs, e.Error())
		var re *manuscript.RefError
		switch {
		case errors.Is(e, manuscript.ErrPathRefused):
			refused = true
		case errors.As(e, &re):
			if re.Ambiguous {
				ambiguous = true
			} else {
				notFound = true
			}
			for _, c := range re.Candidates {
				s := fmt.Sprintf("%s %q (%s)", c.Ref, c.Title, c.Path)
				if !seen[s] {
					seen[s] = true
					candidates = append(candidates, s)
				}
			}
		case errors.Is(e, fs.ErrNotExist):
			notFound = true
		}
	}
	msg := strings.Join(msgs, "; ")
	var te *toolloop.ToolError
	switch {
	case refused:
		te = toolloop.Errorf(toolloop.CodeOutOfScope, "%s; only files inside the project can be read: use a chapter number, a title or a project-relative path", msg)
	case ambiguous:
		te = toolloop.Errorf(toolloop.CodeAmbiguous, "%s; ask again with one of the candidates' refs", msg)
	case notFound:
		te = toolloop.Errorf(toolloop.CodeNotFound, "%s", msg)
	default:
		te = toolloop.Errorf(toolloop.CodeToolFailed, "%s", msg)
	}
	te.Candidates = candidates
	return te
}
