package trust

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// AsksOf reads what a book's settings file f asks beyond the book, as
// far as trust needs it: the values Wants names and hashes, so that
// opening a book can ask the store about its series folder without the
// advisor that owns the provider and MCP sections. Those owners read the
// same keys more strictly and report their problems; a section this
// reading cannot make out is an error here too, and trusts nothing.
func AsksOf(f *settings.File) (Asks, error) {
	var a Asks
	if f == nil {
		return a, nil
	}
	if f.Err != nil {
		return a, f.Err
	}
	if p := f.NotMapping(); p != nil {
		return a, p
	}
	if n := f.Value("provider"); n != nil {
		if n.Kind != yaml.MappingNode {
			return a, settings.At(n, "provider must be a mapping of settings")
		}
		var p struct {
			BaseURL   string `yaml:"base_url"`
			APIKeyEnv string `yaml:"api_key_env"`
		}
		if err := n.Decode(&p); err != nil {
			return a, settings.At(n, "provider: %v", err)
		}
		a.BaseURL, a.APIKeyEnv = p.BaseURL, p.APIKeyEnv
	}
	servers, err := serversOf(f.Value("mcp_servers"))
	if err != nil {
		return a, err
	}
	a.Servers = servers
	if a.Series, err = codex.SeriesFromNode(f.Value("series")); err != nil {
		return a, err
	}
	a.Output = BuildOutputOf(f)
	return a, nil
}

// BuildOutputOf is the build: output of a book's settings file f when
// it names a folder outside the book (OutputReaches); "" otherwise. A
// value of another shape is the build settings' problem, and asks
// nothing here.
func BuildOutputOf(f *settings.File) string {
	if f == nil || f.Err != nil {
		return ""
	}
	build := f.Value("build")
	if build == nil || build.Kind != yaml.MappingNode {
		return ""
	}
	n := settings.MappingValue(build, "output")
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return ""
	}
	if v := strings.TrimSpace(n.Value); OutputReaches(v) {
		return v
	}
	return ""
}

// serversOf reads mcp_servers as the values a Want of each server
// hashes: nil args when none are given, an env map (empty or not)
// whenever env is given, as the advisor's reading makes them.
func serversOf(n *yaml.Node) (map[string]Server, error) {
	if n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, settings.At(n, "mcp_servers must map server names to {command, args, env} or {url}")
	}
	out := map[string]Server{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, v := n.Content[i].Value, n.Content[i+1]
		if v.Kind != yaml.MappingNode {
			return nil, settings.At(v, "MCP server %s: give command (with args, env) or url", name)
		}
		var s Server
		for j := 0; j+1 < len(v.Content); j += 2 {
			k, fv := v.Content[j], v.Content[j+1]
			switch k.Value {
			case "command", "url":
				if fv.Kind != yaml.ScalarNode {
					return nil, settings.At(fv, "MCP server %s: %s must be a string", name, k.Value)
				}
				// Trimmed, as the advisor's reading trims them.
				if k.Value == "command" {
					s.Command = strings.TrimSpace(fv.Value)
				} else {
					s.URL = strings.TrimSpace(fv.Value)
				}
			case "args":
				args, err := settings.Strings(fv, "MCP server "+name+": args")
				if err != nil {
					return nil, err
				}
				s.Args = append(s.Args, args...)
			case "env":
				if fv.Kind != yaml.MappingNode {
					return nil, settings.At(fv, "MCP server %s: env must map variable names to strings", name)
				}
				s.Env = map[string]string{}
				for e := 0; e+1 < len(fv.Content); e += 2 {
					ek, ev := fv.Content[e], fv.Content[e+1]
					if ev.Kind != yaml.ScalarNode {
						return nil, settings.At(ev, "MCP server %s: env %s must be a string", name, ek.Value)
					}
					s.Env[ek.Value] = ev.Value
				}
			}
		}
		out[name] = s
	}
	return out, nil
}
