package corpus

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Presets are the corpus sizes the benchmarks measure quire at, by name:
// a novel of a million words and a long series of four million in one
// workspace, each with 10,000 codex entries.
var presets = map[string]Options{
	"novel":  {Entries: 10000, Chapters: 200, ChapterWords: 5000, Seed: 1},
	"series": {Entries: 10000, Chapters: 800, ChapterWords: 5000, Seed: 1},
}

// Preset returns the options of a named corpus size.
func Preset(name string) (Options, error) {
	o, ok := presets[name]
	if !ok {
		return Options{}, fmt.Errorf("no corpus preset %q (there are %s)", name, strings.Join(PresetNames(), ", "))
	}
	return o, nil
}

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	return slices.Sorted(maps.Keys(presets))
}
