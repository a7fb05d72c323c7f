package toolloop

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/quire-ink/quire/llm/provider"
)

// toolNamePattern keeps names safe for every provider: several reject dots,
// dashes or upper case in function names, and some cap the length at 64.
var ToolNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Registry is an immutable, ordered set of tools. The same registry serves
// both sides of a turn: the tools sent to the model and the tools the
// dispatcher will run, so a tool hidden from a persona cannot be called by
// guessing its name.
type Registry struct {
	tools []provider.Tool
	index map[string]int
	// hidden are tools of a wider registry that Only removed; calling one
	// is TOOL_DENIED rather than UNKNOWN_TOOL, which tells the model the
	// tool exists but is not for this persona.
	hidden map[string]struct{}
	// hiddenPrefixes hide whole families of tools whose names are not
	// known here: the tools of an MCP server this persona may not use,
	// which quire never connected to learn.
	hiddenPrefixes []string
}

// NewRegistry checks and orders tools. It rejects duplicate or unsafe names,
// a missing Run and parameter schemas the validator cannot honour, so a
// mistake in a tool definition fails at start-up instead of mid-turn.
func NewRegistry(tools ...provider.Tool) (*Registry, error) {
	r := &Registry{
		tools:  make([]provider.Tool, 0, len(tools)),
		index:  make(map[string]int, len(tools)),
		hidden: map[string]struct{}{},
	}
	for _, t := range tools {
		if !ToolNamePattern.MatchString(t.Name) {
			return nil, fmt.Errorf("tool %q: name must match %s", t.Name, ToolNamePattern)
		}
		if _, dup := r.index[t.Name]; dup {
			return nil, fmt.Errorf("tool %q: registered twice", t.Name)
		}
		if t.Run == nil {
			return nil, fmt.Errorf("tool %q: Run is nil", t.Name)
		}
		if err := CheckParameters(t.Parameters); err != nil {
			return nil, fmt.Errorf("tool %q: parameters: %w", t.Name, err)
		}
		r.index[t.Name] = len(r.tools)
		r.tools = append(r.tools, t)
	}
	return r, nil
}

// Tools returns the tools in registration order. The slice is a copy; the
// Parameters maps are shared and must not be modified.
func (r *Registry) Tools() []provider.Tool {
	if r == nil {
		return nil
	}
	return slices.Clone(r.tools)
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (provider.Tool, bool) {
	if r == nil {
		return provider.Tool{}, false
	}
	i, ok := r.index[name]
	if !ok {
		return provider.Tool{}, false
	}
	return r.tools[i], true
}

// Names returns the tool names in registration order.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Name
	}
	return names
}

// Only returns the tools a persona may use: those in allow (all of them when
// allow is empty) minus those in deny. Names that match no tool are ignored,
// so a persona file naming a tool of a newer version still loads.
func (r *Registry) Only(allow, deny []string) *Registry {
	out := &Registry{index: map[string]int{}, hidden: map[string]struct{}{}}
	if r == nil {
		return out
	}
	for name := range r.hidden {
		out.hidden[name] = struct{}{}
	}
	out.hiddenPrefixes = slices.Clone(r.hiddenPrefixes)
	for _, t := range r.tools {
		keep := (len(allow) == 0 || slices.Contains(allow, t.Name)) && !slices.Contains(deny, t.Name)
		if !keep {
			out.hidden[t.Name] = struct{}{}
			continue
		}
		out.index[t.Name] = len(out.tools)
		out.tools = append(out.tools, t)
	}
	return out
}

// HidePrefix makes every tool whose name starts with prefix a hidden one:
// never sent, and refused with TOOL_DENIED when called anyway.
func (r *Registry) HidePrefix(prefix string) {
	r.hiddenPrefixes = append(r.hiddenPrefixes, prefix)
}

// isHidden reports whether name was removed from this registry by Only.
func (r *Registry) isHidden(name string) bool {
	if r == nil {
		return false
	}
	if slices.ContainsFunc(r.hiddenPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
		return true
	}
	_, ok := r.hidden[name]
	return ok
}

// supportedTypes are the schema types validateArgs understands.
var SupportedTypes = []string{"string", "integer", "number", "boolean", "array", "object"}

// checkParameters verifies that a tool's parameter schema is an object
// schema built from the subset validateArgs supports.
func CheckParameters(schema map[string]any) error {
	if schema == nil {
		return fmt.Errorf("missing; use an object schema, even with no properties")
	}
	if typ, _ := schema["type"].(string); typ != "object" {
		return fmt.Errorf(`type must be "object", got %v`, schema["type"])
	}
	if err := checkSchemaNode(schema, "parameters"); err != nil {
		return err
	}
	if group, ok := schema[exactlyOneOfKey]; ok {
		names := SchemaStrings(group)
		if len(names) < 2 {
			return fmt.Errorf("%s must list at least two properties", exactlyOneOfKey)
		}
		props, _ := schema["properties"].(map[string]any)
		for _, name := range names {
			if _, ok := props[name]; !ok {
				return fmt.Errorf("%s names %q, which is not a property", exactlyOneOfKey, name)
			}
		}
	}
	return nil
}

// checkSchemaNode walks one schema node and its children.
func checkSchemaNode(schema map[string]any, path string) error {
	typ, hasType := schema["type"]
	if hasType {
		s, ok := typ.(string)
		if !ok || !slices.Contains(SupportedTypes, s) {
			return fmt.Errorf("%s: unsupported type %v", path, typ)
		}
	}
	if raw, ok := schema["properties"]; ok {
		props, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: properties must be an object", path)
		}
		for _, name := range sortedArgKeys(props) {
			child, ok := props[name].(map[string]any)
			if !ok {
				return fmt.Errorf("%s.%s: schema must be an object", path, name)
			}
			if err := checkSchemaNode(child, path+"."+name); err != nil {
				return err
			}
		}
	}
	if raw, ok := schema["items"]; ok {
		items, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: items must be a schema object", path)
		}
		if err := checkSchemaNode(items, path+"[]"); err != nil {
			return err
		}
	}
	switch extra := schema["additionalProperties"].(type) {
	case nil, bool:
	case map[string]any:
		if err := checkSchemaNode(extra, path+".*"); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s: additionalProperties must be a boolean or a schema", path)
	}
	if req, ok := schema["required"]; ok {
		props, _ := schema["properties"].(map[string]any)
		for _, name := range SchemaStrings(req) {
			if _, ok := props[name]; !ok {
				return fmt.Errorf("%s: required names %q, which is not a property", path, name)
			}
		}
	}
	return nil
}
