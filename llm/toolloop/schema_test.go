package toolloop

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSchema resembles the real tool schemas: alternatives, enums, arrays
// of strings and of objects, a map of strings, and a closed object.
func testSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"ref":       map[string]any{"type": "string", "minLength": 1, "maxLength": 20},
			"refs":      map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": 3},
			"entryType": map[string]any{"type": "string", "enum": []string{"character", "location"}},
			"limit":     map[string]any{"type": "integer", "minimum": 1, "maximum": 50},
			"weight":    map[string]any{"type": "number"},
			"draft":     map[string]any{"type": "boolean"},
			"customFields": map[string]any{
				"type":                 "object",
				"additionalProperties": map[string]any{"type": "string"},
			},
			"fields": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"age": map[string]any{"type": "integer"},
				},
				"additionalProperties": false,
			},
			"scenes": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type":                 "object",
					"properties":           map[string]any{"title": map[string]any{"type": "string"}},
					"required":             []string{"title"},
					"additionalProperties": false,
				},
			},
			"note": map[string]any{"type": "string"},
		},
		"required":             []any{"entryType"},
		"additionalProperties": false,
		exactlyOneOfKey:        []string{"ref", "refs"},
	}
}

func TestValidateArgs(t *testing.T) {
	tests := []struct {
		name string
		args string
		want []string // substrings of the message; nil means valid
	}{
		{"minimal", `{"entryType":"character","ref":"3"}`, nil},
		{"refs instead of ref", `{"entryType":"location","refs":["1","2"]}`, nil},
		{"all fields", `{"entryType":"character","ref":"current","limit":5,"weight":0.5,"draft":true,
			"customFields":{"eyes":"grey"},"fields":{"age":31},"scenes":[{"title":"Dawn"}],"note":"x"}`, nil},
		{"null optional is absent", `{"entryType":"character","ref":"3","note":null,"refs":null}`, nil},
		{"empty alternative is absent", `{"entryType":"character","ref":"3","refs":[]}`, nil},

		{"not an object", `[1]`, []string{"arguments: expected an object, got an array"}},
		{"invalid json", `{"ref":`, []string{"not valid JSON"}},
		{"trailing data", `{"entryType":"character","ref":"3"} {}`, []string{"not valid JSON"}},
		{"required missing", `{"ref":"3"}`, []string{"entryType: is required"}},
		{"required null", `{"ref":"3","entryType":null}`, []string{"entryType: is required"}},
		{"unknown keys named", `{"entryType":"character","ref":"3","zeta":1,"alpha":2}`,
			[]string{`unknown fields "alpha", "zeta"`, "allowed: customFields"}},
		{"one unknown key", `{"entryType":"character","ref":"3","zeta":1}`, []string{`arguments: unknown field "zeta"`}},
		{"string wrong type", `{"entryType":"character","ref":3}`, []string{"ref: expected a string, got a number"}},
		{"array of strings wrong type", `{"entryType":"character","refs":7}`,
			[]string{"refs: expected an array of strings, got a number"}},
		{"array item wrong type", `{"entryType":"character","refs":["1",2]}`,
			[]string{"refs[1]: expected a string, got a number"}},
		{"max items", `{"entryType":"character","refs":["1","2","3","4"]}`, []string{"refs: must have at most 3 items, got 4"}},
		{"enum", `{"entryType":"dragon","ref":"3"}`, []string{`entryType: expected one of "character", "location", got "dragon"`}},
		{"min length", `{"entryType":"character","ref":"","refs":["1"]}`, []string{"ref: must not be empty"}},
		{"max length", `{"entryType":"character","ref":"aaaaaaaaaaaaaaaaaaaaaaaaa"}`, []string{"ref: must be at most 20 characters, got 25"}},
		{"max length counts runes", `{"entryType":"character","ref":"ééééééééééééééééééé"}`, nil},
		{"integer wrong type", `{"entryType":"character","ref":"3","limit":"5"}`, []string{"limit: expected an integer, got a string"}},
		{"integer not integral", `{"entryType":"character","ref":"3","limit":2.5}`, []string{"limit: expected an integer, got a number (2.5)"}},
		{"integer minimum", `{"entryType":"character","ref":"3","limit":0}`, []string{"limit: must be at least 1, got 0"}},
		{"integer maximum", `{"entryType":"character","ref":"3","limit":51}`, []string{"limit: must be at most 50, got 51"}},
		{"number wrong type", `{"entryType":"character","ref":"3","weight":true}`, []string{"weight: expected a number, got a boolean"}},
		{"boolean wrong type", `{"entryType":"character","ref":"3","draft":"yes"}`, []string{"draft: expected a boolean, got a string"}},
		{"object wrong type", `{"entryType":"character","ref":"3","fields":[]}`, []string{"fields: expected an object, got an array"}},
		{"map of strings value", `{"entryType":"character","ref":"3","customFields":{"eyes":1}}`,
			[]string{"customFields.eyes: expected a string, got a number"}},
		{"nested unknown key", `{"entryType":"character","ref":"3","fields":{"height":2}}`,
			[]string{`fields: unknown field "height" (allowed: age)`}},
		{"nested type", `{"entryType":"character","ref":"3","fields":{"age":"old"}}`,
			[]string{"fields.age: expected an integer, got a string"}},
		{"array of objects", `{"entryType":"character","ref":"3","scenes":[{"title":"a"},{"x":1}]}`,
			[]string{"scenes[1].title: is required", `scenes[1]: unknown field "x"`}},
		{"array of objects item type", `{"entryType":"character","ref":"3","scenes":["a"]}`,
			[]string{"scenes[0]: expected an object, got a string"}},
		{"exactly one: none", `{"entryType":"character"}`, []string{"exactly one of ref, refs is required, got none"}},
		{"exactly one: both", `{"entryType":"character","ref":"3","refs":["4"]}`,
			[]string{"exactly one of ref, refs is allowed, got ref and refs"}},
		{"exactly one: blank string", `{"entryType":"character","ref":"  "}`, []string{"got none"}},
		{"several issues in one message", `{"ref":1,"draft":1}`,
			[]string{"entryType: is required", "ref: expected a string", "draft: expected a boolean"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateArgs(testSchema(), json.RawMessage(tt.args))
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var te *ToolError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, CodeInvalidArguments, te.Code)
			for _, want := range tt.want {
				assert.Contains(t, te.Message, want)
			}
		})
	}
}

func TestValidateArgsBoundsMessage(t *testing.T) {
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
	}
	args := `{"tags":[1,2,3,4,5,6,7,8,9,10,11,12]}`
	err := validateArgs(schema, json.RawMessage(args))
	var te *ToolError
	require.ErrorAs(t, err, &te)
	assert.Contains(t, te.Message, "tags[7]")
	assert.NotContains(t, te.Message, "tags[8]")
	assert.Contains(t, te.Message, "and 4 more")
}

func TestValidateArgsClipsEchoedValues(t *testing.T) {
	long := `{"entryType":"` + "a very long value that the model invented and that goes on and on" + `","ref":"3"}`
	err := validateArgs(testSchema(), json.RawMessage(long))
	var te *ToolError
	require.ErrorAs(t, err, &te)
	assert.Contains(t, te.Message, "…")
	assert.NotContains(t, te.Message, "on and on")
}

func TestValidateArgsOpenSchema(t *testing.T) {
	// Without additionalProperties:false unknown keys pass, and a property
	// with no type accepts anything.
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"any": map[string]any{}},
	}
	require.NoError(t, validateArgs(schema, json.RawMessage(`{"any":[1,{"a":null}],"extra":true}`)))
}

func TestValidateArgsSchemaFromJSON(t *testing.T) {
	// Schemas decoded from JSON carry []any lists and float64 numbers.
	var schema map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"name":{"type":"string","maxLength":3}},
		"required":["name"],"additionalProperties":false}`), &schema))
	require.NoError(t, validateArgs(schema, json.RawMessage(`{"name":"Ann"}`)))
	err := validateArgs(schema, json.RawMessage(`{"name":"Annabel"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "name: must be at most 3 characters")
	err = validateArgs(schema, json.RawMessage(`{}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "name: is required")
}
