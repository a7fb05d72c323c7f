package codex

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Mara Vell", "mara vell"},
		{"mara vell", "mara vell"},
		{"  Mara \t\n Vell  ", "mara vell"},
		{"MARA\u00a0VELL", "mara vell"},
		{"Mara\u2003\u2003Vell", "mara vell"},
		{"Séverine", "severine"},
		{"SÉVERINE", "severine"},
		{"Se\u0301verine", "severine"},
		{"Ølby", "olby"},
		{"straße", "strasse"},
		{"Ysolde Márquez", "ysolde marquez"},
		{"Łukasz Þórr", "lukasz thorr"},
		{"Æthelred Œuvre", "aethelred oeuvre"},
		{"İstanbul", "istanbul"},
		{"ﬁnn", "finn"},
		{"Mara’s", "mara's"},
		{"Mara‘s", "mara's"},
		{"Maraʼs", "mara's"},
		{"Mara`s", "mara's"},
		{"MARA`S", "mara's"},
		{"Mara's", "mara's"},
		{"", ""},
		{"   ", ""},
		{"\xff\xfeMara", "\uFFFD" + "mara"},
		{"ΣΊΣΥΦΟΣ", "σισυφοσ"},
		{"R2-D2", "r2-d2"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, Normalize(tt.in))
		})
	}
}

// TestNormalizeASCIIAgrees compares the ASCII fast path with the general
// path on random ASCII strings weighted towards the characters where the
// two could differ: case, spaces of every kind, apostrophes.
func TestNormalizeASCIIAgrees(t *testing.T) {
	const alphabet = "aZmM '`\t\n\r\v\f-_.9\x00\x7f"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(128))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		s := string(b)
		if !assert.Equal(t, normalizeUnicode(s), normalizeASCII(s), "input %q", s) {
			return
		}
	}
}

func TestNormalizeIdempotent(t *testing.T) {
	for _, s := range []string{"Mara  Vell", "Séverine Ølby", "straße", "ǅemal", "K\u212a", "Mara’s", "\u00a0x\u00a0", "ﬃ"} {
		n := Normalize(s)
		assert.Equal(t, n, Normalize(n), "input %q", s)
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Séverine", "Severine"},
		{"Ølby and øl", "Olby and ol"},
		{"Straße", "Strasse"},
		{"Æsir", "Aesir"},
		{"Mara Vell", "Mara Vell"},
		{"MARA’S", "MARA’S"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Fold(tt.in), "input %q", tt.in)
	}
}

func TestStripPossessive(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"mara's", "mara", true},
		{"thomas'", "thomas", true},
		{"mara vell's", "mara vell", true},
		{"mara", "mara", false},
		{"'s", "'s", false},
		{"s'", "s'", false},
		{"x's", "x", true},
		{"its", "its", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := StripPossessive(tt.in)
		assert.Equal(t, tt.want, got, "input %q", tt.in)
		assert.Equal(t, tt.ok, ok, "input %q", tt.in)
	}

	// Possessives typed with a curly apostrophe strip once normalized.
	got, ok := StripPossessive(Normalize("Mara’s"))
	assert.True(t, ok)
	assert.Equal(t, "mara", got)
}

func TestLineColumn(t *testing.T) {
	src := "ab\ncé\n\nxyz"
	tests := []struct {
		off, line, col int
	}{
		{0, 1, 1},
		{1, 1, 2},
		{2, 1, 3},  // the line break itself
		{3, 2, 1},  // start of "cé"
		{4, 2, 2},  // "é" is one character
		{6, 2, 3},  // after "é", which takes two bytes
		{7, 3, 1},  // the empty line
		{8, 4, 1},  // "x"
		{11, 4, 4}, // end of file
		{99, 4, 4}, // past the end clamps
		{-5, 1, 1}, // before the start clamps
	}
	for _, tt := range tests {
		line, col := LineColumn(src, tt.off)
		assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{line, col}, "offset %d", tt.off)
	}

	line, col := LineColumn("", 3)
	assert.Equal(t, [2]int{1, 1}, [2]int{line, col})
	line, col = LineColumn("a\r\nb", 3)
	assert.Equal(t, [2]int{2, 1}, [2]int{line, col}, "CRLF counts as one line break")
	line, _ = LineColumn(strings.Repeat("\n", 1000), 1000)
	assert.Equal(t, 1001, line)
}
