package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/manuscript/dialogue"

	"github.com/quire-ink/quire/server/wire"
)

// TestDocsDialogue: docs/dialogue.md names every convention, every rule
// of the attribution chain, every clue of a pronoun and every field of
// `quire dialogue --json`,
// and its JSON example is a record the command writes.
func TestDocsDialogue(t *testing.T) {
	const page = "docs/dialogue.md"
	text := docPage(t, page)

	var conventions []string
	for _, q := range dialogue.Conventions() {
		conventions = append(conventions, string(q))
	}
	missing(t, page, text, conventions, code)

	rules := typedConstants(goSource(t, "manuscript/dialogue"), "Rule")
	if len(rules) < 6 {
		t.Fatalf("only %d rules found in manuscript/dialogue: the test must learn where they are now", len(rules))
	}
	missing(t, page, text, rules, code)

	clues := typedConstants(goSource(t, "manuscript/dialogue"), "Clue")
	if len(clues) < 10 {
		t.Fatalf("only %d clues found in manuscript/dialogue: the test must learn where they are now", len(clues))
	}
	missing(t, page, text, clues, code)

	var fields []string
	for _, v := range []any{wire.DialogueRecord{}, wire.DialogueChapter{}, wire.DialogueSpan{}, wire.DialogueTag{}, wire.DialogueCharacter{}} {
		fields = append(fields, jsonTags(reflect.TypeOf(v))...)
	}
	missing(t, page, text, fields, code)

	_, example, ok := strings.Cut(text, "```json\n")
	require.True(t, ok, "docs/dialogue.md has lost its JSON example")
	example, _, _ = strings.Cut(example, "```")
	dec := json.NewDecoder(bytes.NewReader([]byte(example)))
	dec.DisallowUnknownFields()
	var out wire.Dialogue
	require.NoError(t, dec.Decode(&out), "the example is what quire dialogue --json writes")
	require.NotEmpty(t, out.Utterances)
	for _, r := range out.Utterances {
		assert.Contains(t, rules, string(r.Rule))
		assert.Equal(t, r.Speaker == nil, r.Uncertain, "a record has a speaker or is uncertain: %s", r.Text)
	}
}

// typedConstants are the string values of the constants of type typ.
func typedConstants(files []*ast.File, typ string) []string {
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			v, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != typ {
				return true
			}
			for _, e := range v.Values {
				if lit, ok := e.(*ast.BasicLit); ok {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out = append(out, s)
					}
				}
			}
			return true
		})
	}
	return out
}

// jsonTags are the json names of t's fields, an embedded struct's
// included.
func jsonTags(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonTags(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
