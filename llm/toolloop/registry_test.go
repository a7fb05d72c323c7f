package toolloop

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider"
)

func noopRun(context.Context, json.RawMessage) (any, []string, error) { return "ok", nil, nil }

func objectSchema(props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props}
}

func namedTool(name string) provider.Tool {
	return provider.Tool{Name: name, Parameters: objectSchema(map[string]any{}), Run: noopRun}
}

func TestNewRegistryRejects(t *testing.T) {
	str := map[string]any{"type": "string"}
	tests := []struct {
		name  string
		tools []provider.Tool
		want  string
	}{
		{"duplicate", []provider.Tool{namedTool("a_tool"), namedTool("a_tool")}, "registered twice"},
		{"empty name", []provider.Tool{namedTool("")}, "name must match"},
		{"dotted name", []provider.Tool{namedTool("codex.get")}, "name must match"},
		{"upper case", []provider.Tool{namedTool("GetThing")}, "name must match"},
		{"dash", []provider.Tool{namedTool("get-thing")}, "name must match"},
		{"leading digit", []provider.Tool{namedTool("1tool")}, "name must match"},
		{"too long", []provider.Tool{namedTool("a" + strings.Repeat("b", 64))}, "name must match"},
		{"nil run", []provider.Tool{{Name: "t", Parameters: objectSchema(nil)}}, "Run is nil"},
		{"nil parameters", []provider.Tool{{Name: "t", Run: noopRun}}, "missing"},
		{"not object", []provider.Tool{{Name: "t", Run: noopRun, Parameters: str}}, `type must be "object"`},
		{"unsupported type", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: objectSchema(map[string]any{"x": map[string]any{"type": "date"}})}}, "unsupported type"},
		{"property not a schema", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: objectSchema(map[string]any{"x": "string"})}}, "schema must be an object"},
		{"bad items", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: objectSchema(map[string]any{"x": map[string]any{"type": "array", "items": "string"}})}}, "items must be"},
		{"bad nested type", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: objectSchema(map[string]any{"x": map[string]any{"type": "array", "items": map[string]any{"type": 3}}})}},
			"parameters.x[]: unsupported type"},
		{"bad additionalProperties", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: map[string]any{"type": "object", "additionalProperties": "no"}}}, "additionalProperties"},
		{"required unknown", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{}, "required": []string{"x"}}}},
			`required names "x"`},
		{"exactly one of unknown", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"a": str}, exactlyOneOfKey: []string{"a", "b"}}}},
			`names "b"`},
		{"exactly one of too short", []provider.Tool{{Name: "t", Run: noopRun,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"a": str}, exactlyOneOfKey: []string{"a"}}}},
			"at least two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := NewRegistry(tt.tools...)
			require.Error(t, err)
			assert.Nil(t, reg)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestNewRegistryAcceptsRealisticSchema(t *testing.T) {
	reg, err := NewRegistry(provider.Tool{Name: "get_manuscript_context", Run: noopRun, Parameters: testSchema()})
	require.NoError(t, err)
	assert.Equal(t, []string{"get_manuscript_context"}, reg.Names())
}

func TestRegistryOrderAndLookup(t *testing.T) {
	reg, err := NewRegistry(namedTool("zeta"), namedTool("alpha"), namedTool("mid_1"))
	require.NoError(t, err)
	assert.Equal(t, []string{"zeta", "alpha", "mid_1"}, reg.Names())

	tools := reg.Tools()
	require.Len(t, tools, 3)
	assert.Equal(t, "alpha", tools[1].Name)
	tools[0] = namedTool("changed")
	assert.Equal(t, "zeta", reg.Tools()[0].Name, "Tools returns a copy")

	got, ok := reg.Get("alpha")
	require.True(t, ok)
	assert.Equal(t, "alpha", got.Name)
	_, ok = reg.Get("missing")
	assert.False(t, ok)

	empty, err := NewRegistry()
	require.NoError(t, err)
	assert.Empty(t, empty.Names())
}

func TestRegistryOnly(t *testing.T) {
	reg, err := NewRegistry(namedTool("a"), namedTool("b"), namedTool("c"))
	require.NoError(t, err)
	tests := []struct {
		name        string
		allow, deny []string
		want        []string
		hidden      []string
	}{
		{"everything", nil, nil, []string{"a", "b", "c"}, nil},
		{"allow keeps registration order", []string{"c", "a"}, nil, []string{"a", "c"}, []string{"b"}},
		{"deny removes", nil, []string{"b"}, []string{"a", "c"}, []string{"b"}},
		{"deny wins over allow", []string{"a", "b"}, []string{"b"}, []string{"a"}, []string{"b", "c"}},
		{"unknown names ignored", []string{"a", "nope"}, []string{"ghost"}, []string{"a"}, []string{"b", "c"}},
		{"allow of only unknown names keeps nothing", []string{"nope"}, nil, []string{}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scoped := reg.Only(tt.allow, tt.deny)
			assert.Equal(t, tt.want, scoped.Names())
			for _, name := range tt.hidden {
				_, ok := scoped.Get(name)
				assert.False(t, ok, name)
				assert.True(t, scoped.isHidden(name), name)
			}
			assert.False(t, scoped.isHidden("nope"))
		})
	}
	t.Run("narrowing twice remembers both", func(t *testing.T) {
		twice := reg.Only(nil, []string{"a"}).Only(nil, []string{"b"})
		assert.Equal(t, []string{"c"}, twice.Names())
		assert.True(t, twice.isHidden("a"))
		assert.True(t, twice.isHidden("b"))
	})
	assert.Equal(t, []string{"a", "b", "c"}, reg.Names(), "Only leaves the original alone")
}

func TestNilRegistry(t *testing.T) {
	var reg *Registry
	assert.Nil(t, reg.Tools())
	assert.Nil(t, reg.Names())
	_, ok := reg.Get("a")
	assert.False(t, ok)
	assert.Empty(t, reg.Only(nil, nil).Names())
}
