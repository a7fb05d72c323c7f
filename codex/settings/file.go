package settings

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Name is the book's settings file, at the root of its folder.
const Name = "quire.yaml"

// File is one settings file, parsed once into a YAML tree so that every
// section keeps its lines and columns for the problems its owner finds.
type File struct {
	// Name names the file in messages: Name for the book's, the path of
	// the writer's config.yaml for theirs.
	Name string
	// Text is the file as read; nil when there is no file.
	Text []byte
	// Doc is the parsed document; nil when there is no file or it does
	// not parse. Owners read it only when Err is nil.
	Doc *yaml.Node
	// Err says why the file is no settings at all (not YAML, a key set
	// twice, a mapping of thousands of keys); nil when it reads. Its
	// sections are then not handed out.
	Err error
}

// Parse reads text as a settings file called name: one parse, then the
// linear-time guard (Check) before any owner decodes a section into Go
// values. The actions: section is left to its owner, which sets aside
// only the action at fault.
func Parse(name string, text []byte) *File {
	f := &File{Name: name, Text: text}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		f.Err = syntaxProblem(name, err)
		return f
	}
	// The tree stays beside a refusal: an owner that reads one key
	// through its own guard (actions) may still use it.
	f.Doc = &doc
	if p := Check(&doc, "actions"); p != nil {
		p.File = name
		f.Err = p
	}
	return f
}

// Top is the file's top-level node (a mapping, in a good file); nil when
// the file is empty, missing or does not read.
func (f *File) Top() *yaml.Node {
	if f == nil || f.Doc == nil || len(f.Doc.Content) == 0 {
		return nil
	}
	return f.Doc.Content[0]
}

// Value is the value of the top-level key, or nil when the file does not
// set it.
func (f *File) Value(key string) *yaml.Node {
	return MappingValue(f.Top(), key)
}

// NotMapping is the problem of a file whose top level is not a mapping
// of settings, or nil.
func (f *File) NotMapping() *Problem {
	top := f.Top()
	if top == nil || top.Kind == yaml.MappingNode {
		return nil
	}
	p := At(top, "the file must be a mapping of settings")
	p.File = f.Name
	return p
}

// Keys are the top-level keys the file sets, with their nodes, in order.
func (f *File) Keys() []*yaml.Node {
	top := f.Top()
	if top == nil || top.Kind != yaml.MappingNode {
		return nil
	}
	var out []*yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		out = append(out, top.Content[i])
	}
	return out
}

// MappingValue is the value of key in a YAML mapping, or nil. Keys
// match exactly, as the YAML library decodes them into settings.
func MappingValue(m *yaml.Node, key string) *yaml.Node {
	return mappingValue(m, func(k string) bool { return k == key })
}

// MappingValueFold is MappingValue for keys a writer types by hand (front
// matter, the advisor's sections): case and surrounding spaces do not
// count.
func MappingValueFold(m *yaml.Node, key string) *yaml.Node {
	return mappingValue(m, func(k string) bool { return strings.EqualFold(strings.TrimSpace(k), key) })
}

// mappingValue is the value of the first key of mapping m that match
// accepts, or nil.
func mappingValue(m *yaml.Node, match func(string) bool) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if match(m.Content[i].Value) {
			return m.Content[i+1]
		}
	}
	return nil
}

// maxMappingKeys bounds the keys of one mapping in a settings file; no
// quire.yaml needs more, and the YAML library's struct decoding compares
// each key of a mapping with every other.
const maxMappingKeys = 1000

// Check walks a settings file's tree before anything decodes it into Go
// values, and refuses a mapping that repeats a key or holds more than
// maxMappingKeys keys. The YAML library finds repeated keys by comparing
// every key with every other and keeps an error for each, so such a file
// would cost time and memory quadratic in its size; here a set makes it
// linear. The problem names the lines, as the library's would. The values
// of the top-level keys in own are left to their own parser (advisor
// actions set aside only the action at fault).
func Check(doc *yaml.Node, own ...string) *Problem {
	if doc == nil {
		return nil
	}
	var skip *yaml.Node
	if top := doc; len(own) > 0 {
		if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
			top = top.Content[0]
		}
		if top.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(top.Content); i += 2 {
				if slices.Contains(own, top.Content[i].Value) {
					skip = top.Content[i+1]
				}
			}
		}
	}
	stack := []*yaml.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == skip {
			continue
		}
		if n.Kind == yaml.MappingNode {
			seen := make(map[string]int, min(len(n.Content)/2, maxMappingKeys))
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					continue
				}
				if first, ok := seen[k.Value]; ok {
					return &Problem{Line: k.Line, Column: k.Column,
						Message: fmt.Sprintf("line %d: %s is set twice (first on line %d); keep one", k.Line, k.Value, first)}
				}
				seen[k.Value] = k.Line
			}
			if len(n.Content)/2 > maxMappingKeys {
				return &Problem{Line: n.Line, Column: n.Column,
					Message: fmt.Sprintf("line %d: this mapping has %d keys; quire reads at most %d", n.Line, len(n.Content)/2, maxMappingKeys)}
			}
		}
		// Aliases are not followed: their target is walked where it stands.
		if n.Kind != yaml.AliasNode {
			stack = append(stack, n.Content...)
		}
	}
	return nil
}
