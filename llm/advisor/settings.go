package advisor

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/llm/untrusted"
)

// Settings are the book-wide facts every persona's system prompt carries:
// what the book is called, what kind of book it is and who it is for.
// Each comes from the project's quire.yaml; an empty one is "not set".
type Settings struct {
	Title       string
	Genre       string
	AudienceAge string
	// AudienceLens is the sex/gender lens of the intended readership.
	AudienceLens string
	// Rules hold for every persona (quire.yaml's rules:).
	Rules []string
	// Personas change a persona's tool scope or add its own rules, by id
	// (quire.yaml's personas:).
	Personas map[string]PersonaSettings
	// Limits bound each tool call of the loop (quire.yaml's limits:).
	Limits toolloop.Limits
	// Rounds is the most tool rounds of a turn (limits.rounds); 0 leaves
	// it to the caller or the default.
	Rounds int
	// Groups are the writer's own tool groups (tool_groups:), which a
	// persona's tools.groups may name beside the built-in ones.
	Groups map[string][]string
}

// PersonaSettings are the writer's settings for one persona.
type PersonaSettings struct {
	// Tools replaces the persona's default scope when it says anything.
	Tools tools.Scope
	Rules []string
}

// Bounds on the rules, which go into every system prompt.
const (
	maxRules     = 32
	maxRuleBytes = 1000
)

// settingsFile is the part of quire.yaml the advisor reads. Other keys
// belong to other parts of quire and are ignored here.
type settingsFile struct {
	Title    string `yaml:"title"`
	Genre    string `yaml:"genre"`
	Audience struct {
		Age  string `yaml:"age"`
		Lens string `yaml:"lens"`
	} `yaml:"audience"`
}

// LoadSettings reads the advisor settings from root/quire.yaml, its
// personas: checked against the ids of the board (llm.PersonaIDs):
//
//	title: The Salt Ledger
//	genre: literary fantasy
//	audience:
//	  age: adult
//	  lens: women's fiction
//
// No file means zero Settings. A file that is not YAML of that shape is an
// error naming quire.yaml.
//
// The user's own config.yaml (settings.UserConfigPath) lies under it.
func LoadSettings(root string, personas []string) (Settings, error) {
	l, err := settings.Load(settings.Disk(root))
	if err != nil {
		return Settings{}, err
	}
	return SettingsOf(l, personas)
}

// SettingsOf are the advisor settings of loaded files: the book's over
// the user's (Settings.Under). A user file that does not read is an
// error naming it. personas are the ids personas: may name.
func SettingsOf(l *settings.Loaded, personas []string) (Settings, error) {
	if l.UserErr != nil {
		return Settings{}, l.UserErr
	}
	var user Settings
	if l.User.Text != nil {
		var err error
		if user, err = SettingsFrom(l.User, personas); err != nil {
			return Settings{}, userFileError(l.User.Name, err)
		}
	}
	book, err := SettingsFrom(l.Book, personas)
	if err != nil {
		return Settings{}, err
	}
	return user.Under(book), nil
}

// userFileError names the user's config file in an error the parser wrote
// about "quire.yaml".
func userFileError(path string, err error) error {
	return errors.New(strings.Replace(err.Error(), "quire.yaml", path, 1))
}

// ParseSettings reads the advisor settings from the text of a quire.yaml.
func ParseSettings(data []byte, personas []string) (Settings, error) {
	return SettingsFrom(settings.Parse(settings.Name, data), personas)
}

// SettingsFrom decodes the advisor's sections of one parsed settings
// file; personas are the ids its personas: may name (llm.PersonaIDs:
// the board is the turn's, above this package).
func SettingsFrom(file *settings.File, personas []string) (Settings, error) {
	if file.Err != nil {
		return Settings{}, file.Err
	}
	top := file.Top()
	if top == nil {
		return Settings{}, nil
	}
	var f settingsFile
	if err := top.Decode(&f); err != nil {
		return Settings{}, &settings.Problem{File: settings.Name, Line: top.Line, Column: top.Column, Message: err.Error()}
	}
	out := Settings{
		Title:        untrusted.OneLine(f.Title),
		Genre:        untrusted.OneLine(f.Genre),
		AudienceAge:  untrusted.OneLine(f.Audience.Age),
		AudienceLens: untrusted.OneLine(f.Audience.Lens),
	}
	if n := settings.MappingValueFold(top, "rules"); n != nil {
		rules, err := readRules(n)
		if err != nil {
			return Settings{}, err
		}
		out.Rules = rules
	}
	if n := settings.MappingValueFold(top, "tool_groups"); n != nil {
		groups, err := readToolGroups(n)
		if err != nil {
			return Settings{}, err
		}
		out.Groups = groups
	}
	if n := settings.MappingValueFold(top, "personas"); n != nil {
		ps, err := readPersonas(n, personas, mcpServerNames(top), out.Groups)
		if err != nil {
			return Settings{}, err
		}
		out.Personas = ps
	}
	if n := settings.MappingValueFold(top, "limits"); n != nil {
		if err := readLimits(n, &out); err != nil {
			return Settings{}, err
		}
		if p := settings.MappingValueFold(top, "provider"); p != nil && out.Rounds > 0 && settings.MappingValueFold(p, "rounds") != nil {
			return Settings{}, lineError(settings.MappingValueFold(p, "rounds"), "rounds is set in limits too; keep one")
		}
	}
	return out, nil
}

// lineError is a problem of quire.yaml at n, as data.
func lineError(n *yaml.Node, format string, args ...any) error {
	return settings.At(n, format, args...)
}

// readRules reads a list of rules, each one line of a prompt.
func readRules(n *yaml.Node) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, lineError(n, "rules must be a list of sentences")
	}
	if len(n.Content) > maxRules {
		return nil, lineError(n, "%d rules; at most %d", len(n.Content), maxRules)
	}
	var out []string
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, lineError(item, "a rule must be a sentence")
		}
		if len(item.Value) > maxRuleBytes {
			return nil, lineError(item, "a rule of %d bytes; at most %d", len(item.Value), maxRuleBytes)
		}
		if r := untrusted.OneLine(item.Value); r != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// readPersonas reads personas: {<id>: {tools: {groups, include, exclude,
// mcp}, rules: [...]}}, refusing unknown ids, keys, tools and groups.
func readPersonas(n *yaml.Node, ids, servers []string, groups map[string][]string) (map[string]PersonaSettings, error) {
	if n.Kind != yaml.MappingNode {
		return nil, lineError(n, "personas must map persona ids to their settings")
	}
	out := map[string]PersonaSettings{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if !slices.Contains(ids, strings.ToLower(strings.TrimSpace(key.Value))) {
			return nil, lineError(key, "no persona %q (personas: %s)", key.Value, strings.Join(ids, ", "))
		}
		if val.Kind != yaml.MappingNode {
			return nil, lineError(val, "persona %s: give tools and rules", key.Value)
		}
		var ps PersonaSettings
		for j := 0; j+1 < len(val.Content); j += 2 {
			k, v := val.Content[j], val.Content[j+1]
			switch k.Value {
			case "rules":
				rules, err := readRules(v)
				if err != nil {
					return nil, err
				}
				ps.Rules = rules
			case "tools":
				scope, err := readScope(v, servers, groups)
				if err != nil {
					return nil, err
				}
				ps.Tools = scope
			default:
				return nil, lineError(k, "unknown persona setting %q (tools, rules)", k.Value)
			}
		}
		out[strings.ToLower(strings.TrimSpace(key.Value))] = ps
	}
	return out, nil
}

var groupNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,47}$`)

// readToolGroups reads tool_groups: {<name>: [tool, ...]}; a name is new
// (not a built-in group) and every tool is one of quire's.
func readToolGroups(n *yaml.Node) (map[string][]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, lineError(n, "tool_groups must map group names to lists of tools")
	}
	out := map[string][]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch _, builtin := tools.Groups()[k.Value]; {
		case !groupNamePattern.MatchString(k.Value):
			return nil, lineError(k, "tool group name %q: use lower-case letters, digits and _", k.Value)
		case builtin:
			return nil, lineError(k, "%q is a built-in tool group; name yours differently", k.Value)
		}
		var names []string
		if err := v.Decode(&names); err != nil || len(names) == 0 {
			return nil, lineError(v, "tool group %s must be a list of tools", k.Value)
		}
		for _, t := range names {
			if !slices.Contains(tools.BuiltinNames(), t) {
				return nil, lineError(v, "tool group %s: unknown tool %q", k.Value, t)
			}
		}
		out[k.Value] = names
	}
	return out, nil
}

// mcpServerNames are the names quire.yaml's mcp_servers declares.
func mcpServerNames(top *yaml.Node) []string {
	var names []string
	if n := settings.MappingValueFold(top, "mcp_servers"); n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			names = append(names, n.Content[i].Value)
		}
	}
	return names
}

func readScope(n *yaml.Node, servers []string, custom map[string][]string) (tools.Scope, error) {
	var s tools.Scope
	if n.Kind != yaml.MappingNode {
		return s, lineError(n, "tools must say groups, include, exclude or mcp")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var dst *[]string
		switch k.Value {
		case "groups":
			dst = &s.Groups
		case "include":
			dst = &s.Include
		case "exclude":
			dst = &s.Exclude
		case "mcp":
			dst = &s.MCP
		default:
			return s, lineError(k, "unknown tools setting %q (groups, include, exclude, mcp)", k.Value)
		}
		if err := v.Decode(dst); err != nil {
			return s, lineError(v, "%s must be a list of names", k.Value)
		}
		one := tools.Scope{}
		switch k.Value {
		case "groups":
			for _, g := range *dst {
				if _, ok := custom[g]; !ok {
					one.Groups = append(one.Groups, g)
				}
			}
		case "include", "exclude":
			one.Include = *dst
		case "mcp":
			for _, name := range *dst {
				if !slices.Contains(servers, name) {
					return s, lineError(v, "unknown MCP server %q: name it under mcp_servers", name)
				}
			}
		}
		if problems := one.Check(tools.BuiltinNames()); len(problems) > 0 {
			return s, lineError(v, "%s", problems[0])
		}
	}
	return s, nil
}

// The most limits: accepts; beyond, a typo is likelier than a wish.
const (
	maxRoundsSetting    = 16
	maxBytesSetting     = 4 << 20
	maxToolCallsSetting = 64
)

// limitNames are the keys limits: accepts.
const limitNames = "rounds, argument_bytes, output_bytes, tool_calls, answer_bytes"

// readLimits reads limits: {rounds, argument_bytes, output_bytes,
// tool_calls (per reply), answer_bytes}.
func readLimits(n *yaml.Node, s *Settings) error {
	if n.Kind != yaml.MappingNode {
		return lineError(n, "limits must say %s", limitNames)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var dst *int
		most := maxBytesSetting
		switch k.Value {
		case "rounds":
			dst, most = &s.Rounds, maxRoundsSetting
		case "argument_bytes":
			dst = &s.Limits.MaxArgumentBytes
		case "output_bytes":
			dst = &s.Limits.MaxOutputBytes
		case "tool_calls":
			dst, most = &s.Limits.MaxCallsPerRound, maxToolCallsSetting
		case "answer_bytes":
			dst = &s.Limits.MaxAnswerBytes
		default:
			return lineError(k, "unknown limit %q (%s)", k.Value, limitNames)
		}
		if err := v.Decode(dst); err != nil || *dst < 1 || *dst > most {
			return lineError(v, "%s must be a whole number from 1 to %d", k.Value, most)
		}
	}
	return nil
}
