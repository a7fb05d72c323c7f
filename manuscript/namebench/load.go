package namebench

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// Load reads a set litbank-import wrote.
func Load(path string) (Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return Set{}, fmt.Errorf("open the name benchmark's data: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return Set{}, fmt.Errorf("read %s: %w", path, err)
	}
	var s Set
	if err := json.NewDecoder(zr).Decode(&s); err != nil {
		return Set{}, fmt.Errorf("read %s: %w", path, err)
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
		forms := slices.Clone(e.Forms)
		slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
		var src strings.Builder
		src.WriteString("---\nname: ")
		src.WriteString(quote(forms[0]))
		if len(forms) > 1 {
			src.WriteString("\naliases:")
			for _, f := range forms[1:] {
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
