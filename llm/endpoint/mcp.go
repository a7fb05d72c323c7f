package endpoint

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/mcp"
)

// ParseMCPServers reads quire.yaml's mcp_servers mapping (node is its
// value):
//
//	mcp_servers:
//	  dict:
//	    command: dict-mcp          # stdio: a program on PATH or a path
//	    args: [--lang, en]
//	    env: {DICT_KEY: "${DICT_KEY}"}
//	    timeout: 20s
//	  research:
//	    url: http://localhost:8080/mcp   # streamable HTTP
//
// Errors name the line: quire.yaml: line N: ….
func ParseMCPServers(node *yaml.Node) (map[string]mcp.ServerConfig, error) {
	out := map[string]mcp.ServerConfig{}
	if node == nil || node.Kind == 0 || (node.Kind == yaml.ScalarNode && node.Tag == "!!null") {
		return out, nil
	}
	if node.Kind != yaml.MappingNode {
		return nil, settings.At(node, "mcp_servers must map server names to {command, args, env} or {url}")
	}
	if err := codex.CheckSettingsYAML(node); err != nil {
		return nil, fmt.Errorf("quire.yaml: mcp_servers: %w", err)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, val := node.Content[i], node.Content[i+1]
		name := key.Value
		if !mcp.ValidServerName(name) {
			return nil, settings.At(key, "MCP server name %q: use at most %d lower-case letters, digits and underscores (tool names cannot carry dashes)", name, mcp.MaxServerName)
		}
		if _, dup := out[name]; dup {
			return nil, settings.At(key, "MCP server %s is declared twice", name)
		}
		cfg, err := readMCPServer(name, val)
		if err != nil {
			return nil, err
		}
		out[name] = cfg
	}
	return out, nil
}

func readMCPServer(name string, n *yaml.Node) (mcp.ServerConfig, error) {
	cfg := mcp.ServerConfig{Name: name}
	if n.Kind != yaml.MappingNode {
		return cfg, settings.At(n, "MCP server %s: give command (with args, env) or url", name)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "command":
			s, err := mcpScalar(v, name, "command")
			if err != nil {
				return cfg, err
			}
			cfg.Command = s
		case "url":
			s, err := mcpScalar(v, name, "url")
			if err != nil {
				return cfg, err
			}
			u, perr := url.Parse(s)
			if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return cfg, settings.At(v, "MCP server %s: url %q is not an http or https URL", name, s)
			}
			cfg.URL = s
		case "args":
			args, err := settings.Strings(v, "MCP server "+name+": args")
			if err != nil {
				return cfg, err
			}
			cfg.Args = append(cfg.Args, args...)
		case "env":
			if v.Kind != yaml.MappingNode {
				return cfg, settings.At(v, "MCP server %s: env must map variable names to strings", name)
			}
			cfg.Env = map[string]string{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ek, ev := v.Content[j], v.Content[j+1]
				if !mcp.ValidEnvName(ek.Value) {
					return cfg, settings.At(ek, "MCP server %s: %q is not an environment variable name", name, ek.Value)
				}
				if ev.Kind != yaml.ScalarNode || (ev.Tag != "!!str" && ev.Tag != "") {
					return cfg, settings.At(ev, "MCP server %s: env %s must be a string (quote it)", name, ek.Value)
				}
				if err := mcp.CheckEnvRefs(ev.Value); err != nil {
					return cfg, settings.At(ev, "MCP server %s: env %s: %v", name, ek.Value, err)
				}
				cfg.Env[ek.Value] = ev.Value
			}
		case "timeout":
			d, err := time.ParseDuration(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || d <= 0 || d > mcp.MaxTimeout {
				return cfg, settings.At(v, "MCP server %s: timeout %q is not a duration such as 30s (at most %s)", name, v.Value, mcp.MaxTimeout)
			}
			cfg.Timeout = d
		default:
			return cfg, settings.At(k, "MCP server %s: unknown setting %q (command, args, env, url, timeout)", name, k.Value)
		}
	}
	switch {
	case cfg.Command == "" && cfg.URL == "":
		return cfg, settings.At(n, "MCP server %s: give a command (stdio) or a url (streamable HTTP)", name)
	case cfg.Command != "" && cfg.URL != "":
		return cfg, settings.At(n, "MCP server %s: give a command or a url, not both", name)
	case cfg.URL != "" && (len(cfg.Args) > 0 || len(cfg.Env) > 0):
		return cfg, settings.At(n, "MCP server %s: args and env are for a command, not a url", name)
	}
	return cfg, nil
}

func mcpScalar(v *yaml.Node, server, key string) (string, error) {
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		return "", settings.At(v, "MCP server %s: %s must be a non-empty string", server, key)
	}
	return strings.TrimSpace(v.Value), nil
}
