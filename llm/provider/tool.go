package provider

import (
	"context"
	"encoding/json"
)

// Tool is one function the model may call. Tools are built per advisor
// turn, bound to the book and the writer's place in it; the loop only
// sees them through a Registry.
type Tool struct {
	// Name is snake_case, as the model calls it.
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments: an object with
	// properties, kept simple (string, integer, boolean, arrays of
	// strings, objects of strings) so every provider accepts it.
	Parameters map[string]any
	// Run does the work. A *ToolError keeps its code in the envelope;
	// any other error becomes TOOL_FAILED.
	Run func(ctx context.Context, args json.RawMessage) (data any, warnings []string, err error)
}
