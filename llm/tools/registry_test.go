package tools

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/toolloop"
)

func TestHidePrefixDeniesAFamilyOfTools(t *testing.T) {
	reg, err := toolloop.NewRegistry(Read(nil)...)
	require.NoError(t, err)
	reg = reg.Only(nil, nil)
	reg.HidePrefix("mcp__dict__")
	d := toolloop.NewDispatcher(reg, toolloop.Limits{})
	for name, code := range map[string]string{
		"mcp__dict__define":  toolloop.CodeToolDenied,
		"mcp__other__define": toolloop.CodeUnknownTool,
		"mcp__dictionary__x": toolloop.CodeUnknownTool,
	} {
		res := d.Call(context.Background(), name, "{}")
		require.False(t, res.Envelope.OK, name)
		assert.Equal(t, code, res.Envelope.Errors[0].Code, name)
	}
	assert.NotContains(t, reg.Names(), "mcp__dict__define")
}
