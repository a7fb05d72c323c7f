package bookmap

import (
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
)

// okabeIto is the Okabe–Ito palette: eight colours told apart with every
// common colour-vision deficiency. Every coloured mark also carries its
// name in text, so no view relies on colour alone.
var okabeIto = []string{"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}

// otherColour marks what has no colour of its own (a ninth point of view,
// a writer's own type).
const otherColour = "#999999"

// typeColour is the colour of a built-in type, in the palette's order.
func typeColour(t codex.Type) string {
	if i := slices.Index(codex.Types, t); i >= 0 && i < len(okabeIto) {
		return okabeIto[i]
	}
	return otherColour
}

// povColour is the colour of the i-th point of view.
func povColour(i int) string {
	if i >= 0 && i < len(okabeIto) {
		return okabeIto[i]
	}
	return otherColour
}

// typeClass names a type's CSS class: built-in types by name, the
// writer's own as "other".
func typeClass(t codex.Type) string {
	if t.Builtin() {
		return string(t)
	}
	return "other"
}

func typeLabel(t codex.Type) string {
	if t == "" {
		return "entry"
	}
	return string(t)
}

// typePlural names a type's entries: "Characters", "Style entries".
func typePlural(t codex.Type) string {
	switch t {
	case codex.TypeStyle:
		return "Style entries"
	case "":
		return "Entries"
	}
	p := t.Plural()
	return strings.ToUpper(p[:1]) + p[1:]
}
