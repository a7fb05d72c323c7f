package namebench

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Load reads a set litbank-import wrote.
func Load(path string) (Set, error) {
	var s Set
	if err := ReadGzipJSON(path, &s); err != nil {
		return Set{}, fmt.Errorf("the name benchmark's data: %w", err)
	}
	return s, nil
}

// codexTypes are the codex types LitBank's entity types become.
var codexTypes = map[string]codex.Type{
	"PER": codex.TypeCharacter, "GPE": codex.TypeLocation, "LOC": codex.TypeLocation,
	"FAC": codex.TypeLocation, "ORG": codex.TypeOrganization, "VEH": codex.TypeItem,
}

// Codex is the codex a writer who listed every name form of the novel's
// entities would have: one entry per entity, its longest form the name
// and the others aliases. keep, when set, says which entities are in it.
func (n Novel) Codex(keep func(Entity) bool) []*codex.Entry {
	var out []*codex.Entry
	for _, e := range n.Entities {
		if keep != nil && !keep(e) {
			continue
		}
		name, aliases := e.NameAndAliases()
		var src strings.Builder
		src.WriteString("---\nname: ")
		src.WriteString(quote(name))
		if len(aliases) > 0 {
			src.WriteString("\naliases:")
			for _, f := range aliases {
				src.WriteString("\n  - " + quote(f))
			}
		}
		src.WriteString("\n---\n")
		typ := codexTypes[e.Type]
		entry, _ := codex.Parse(string(typ)+"s/"+e.ID+".md", []byte(src.String()), typ)
		if entry != nil {
			entry.ID = e.ID
			out = append(out, entry)
		}
	}
	return out
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
