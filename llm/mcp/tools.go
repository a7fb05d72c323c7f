package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quire-ink/quire/codex/clip"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

// The tools an MCP server offers, listed once per session and adapted into
// quire's Tools: names namespaced and sanitized, descriptions clipped,
// schemas fixed so that providers accept them.

// listedTools are the tools listed already, if they are.
func (r *mcpRemote) listedTools() ([]provider.Tool, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tools), r.listed
}

// toolList lists the server's tools once.
func (r *mcpRemote) toolList(ctx context.Context) ([]provider.Tool, error) {
	if tools, ok := r.listedTools(); ok {
		return tools, nil
	}

	ctx, cancel := context.WithTimeout(ctx, r.cfg.timeout())
	defer cancel()
	c, err := r.session(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	if tools, ok := r.listedTools(); ok {
		return tools, nil
	}

	var remote []*mcp.Tool
	cursor := ""
	for range maxMCPListPages {
		res, err := c.session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, r.callError(ctx, c, "tools/list", err)
		}
		remote = append(remote, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	tools := r.adaptTools(remote)
	r.mu.Lock()
	r.tools, r.listed = tools, true
	r.mu.Unlock()
	r.pool.logger.Info("mcp server tools", "server", r.cfg.Name, "tools", len(tools))
	return slices.Clone(tools), nil
}

// adaptTools turns the server's tools into advisor tools, in the server's
// order, warning about each one renamed or skipped.
func (r *mcpRemote) adaptTools(remote []*mcp.Tool) []provider.Tool {
	logger := r.pool.logger.With("server", r.cfg.Name)
	prefix := ToolPrefix + r.cfg.Name + "__"
	used := map[string]bool{}
	// Names that are safe as sent are claimed first, so a collision
	// renames the tool whose name had to change.
	for _, mt := range remote {
		if mt != nil && sanitizeMCPToolName(mt.Name) == mt.Name && len(prefix+mt.Name) <= 64 {
			used[prefix+mt.Name] = true
		}
	}
	var out []provider.Tool
	for _, mt := range remote {
		if mt == nil {
			continue
		}
		claimed := sanitizeMCPToolName(mt.Name) == mt.Name && len(prefix+mt.Name) <= 64
		if len(out) == maxMCPToolsPerServer {
			logger.Warn("mcp server offers too many tools; the rest are left out", "kept", maxMCPToolsPerServer, "offered", len(remote))
			break
		}
		base := sanitizeMCPToolName(mt.Name)
		if base == "" {
			logger.Warn("mcp tool skipped: its name cannot be made safe", "tool", mt.Name)
			continue
		}
		name := clipASCII(prefix+base, 64)
		if used[name] && !claimed {
			renamed := ""
			for i := 2; i < 100 && renamed == ""; i++ {
				suffix := "_" + strconv.Itoa(i)
				if cand := clipASCII(prefix+base, 64-len(suffix)) + suffix; !used[cand] {
					renamed = cand
				}
			}
			if renamed == "" {
				logger.Warn("mcp tool skipped: its name collides with another", "tool", mt.Name)
				continue
			}
			logger.Warn("mcp tool renamed: its name collides with another", "tool", mt.Name, "as", renamed)
			name = renamed
		} else if base != mt.Name || len(prefix+base) > 64 {
			logger.Debug("mcp tool name made safe", "tool", mt.Name, "as", name)
		}
		schema, err := adaptMCPSchema(mt.InputSchema)
		if err != nil {
			logger.Warn("mcp tool skipped: its input schema cannot be used", "tool", mt.Name, "error", err)
			continue
		}
		used[name] = true
		desc := strings.TrimSpace(mt.Description)
		if desc == "" {
			desc = strings.TrimSpace(mt.Title)
		}
		desc = toolloop.ClipRunes(fmt.Sprintf("[MCP server %s] %s", r.cfg.Name, desc), maxMCPDescriptionRunes)
		out = append(out, provider.Tool{
			Name:        name,
			Description: strings.TrimSpace(desc),
			Parameters:  schema,
			Run:         r.runner(name, mt.Name),
		})
	}
	return out
}

// sanitizeMCPToolName makes a server's tool name fit NewRegistry's
// pattern: camelCase becomes snake_case, every other character outside
// [a-z0-9_] becomes an underscore (runs of them one), and the ends are
// trimmed. Empty means nothing usable was left.
func sanitizeMCPToolName(name string) string {
	var b strings.Builder
	var prev rune
	under := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			if (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9') {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			under = false
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
			under = false
		default:
			if !under {
				b.WriteByte('_')
				under = true
			}
		}
		prev = r
	}
	return strings.Trim(b.String(), "_")
}

// clipASCII cuts s (a tool name, ASCII) to n bytes, without a trailing
// underscore.
func clipASCII(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimRight(clip.Bytes(s, n), "_")
}

// adaptMCPSchema turns an MCP input schema into Parameters NewRegistry
// accepts: as sent when it can, else with the smallest changes (a missing
// top-level type becomes object, a type list such as ["string","null"]
// becomes its one non-null type or is dropped, required names that are no
// property are dropped). An error means the tool cannot be offered.
func adaptMCPSchema(raw any) (map[string]any, error) {
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil || schema == nil {
		return nil, errors.New("not a JSON object")
	}
	if toolloop.CheckParameters(schema) == nil {
		return schema, nil
	}
	if _, ok := schema["type"]; !ok {
		schema["type"] = "object"
	}
	fixSchemaNode(schema)
	if err := toolloop.CheckParameters(schema); err != nil {
		return nil, err
	}
	return schema, nil
}

func fixSchemaNode(node map[string]any) {
	switch typ := node["type"].(type) {
	case []any:
		var kept []string
		for _, t := range typ {
			if s, ok := t.(string); ok && s != "null" && slices.Contains(toolloop.SupportedTypes, s) {
				kept = append(kept, s)
			}
		}
		if len(kept) == 1 {
			node["type"] = kept[0]
		} else {
			delete(node, "type")
		}
	case string:
		if !slices.Contains(toolloop.SupportedTypes, typ) {
			delete(node, "type")
		}
	case nil:
	default:
		delete(node, "type")
	}
	props, _ := node["properties"].(map[string]any)
	for _, child := range props {
		if m, ok := child.(map[string]any); ok {
			fixSchemaNode(m)
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		fixSchemaNode(items)
	} else if _, ok := node["items"]; ok {
		delete(node, "items")
	}
	switch extra := node["additionalProperties"].(type) {
	case nil, bool:
	case map[string]any:
		fixSchemaNode(extra)
	default:
		delete(node, "additionalProperties")
	}
	if req, ok := node["required"]; ok {
		var kept []any
		for _, name := range toolloop.SchemaStrings(req) {
			if _, ok := props[name]; ok {
				kept = append(kept, name)
			}
		}
		if len(kept) == 0 {
			delete(node, "required")
		} else {
			node["required"] = kept
		}
	}
}
