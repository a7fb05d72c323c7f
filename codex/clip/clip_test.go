package clip

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		name string
		got  string
		want string
	}{
		{"Bytes keeps a short text", Bytes("Mara", 10), "Mara"},
		{"Bytes cuts at n", Bytes("Mara Vell", 4), "Mara"},
		{"Bytes never splits a character", Bytes("Séverine", 2), "S"},
		{"Bytes of nothing", Bytes("Mara", 0), ""},
		{"BytesMarked marks the cut", BytesMarked("Mara Vell", 4), "Mara…"},
		{"BytesMarked leaves a short text", BytesMarked("Mara", 4), "Mara"},
		{"BytesMarked on a character", BytesMarked("ééé", 3), "é…"},
		{"Runes counts characters", Runes("Séverine Aubrac", 9), "Séverine…"},
		{"Runes keeps a text that fits", Runes("Séverine", 8), "Séverine"},
		{"Runes trims the space before the mark", Runes("Mara Vell", 6), "Mara…"},
		{"Words cuts at a space", Words("the harbor at night, and the bell", 22), "the harbor at night…"},
		{"Words without a space cuts a character whole", Words("ééééé", 5), "éé…"},
		{"Words keeps a text that fits", Words("the harbor", 10), "the harbor"},
		{"Words at exactly n", Words("exactly ten", 11), "exactly ten"},
		{"Words drops the dangling comma", Words("one two, three", 9), "one two…"},
		{"Words with no space cuts at n", Words("abcdefghijklmnop", 8), "abcdefgh…"},
		{"Words with the space too early cuts at n", Words("a verylongwordindeed", 10), "a verylong…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
			assert.True(t, utf8.ValidString(tt.got))
		})
	}
}

func FuzzClip(f *testing.F) {
	f.Add("Séverine Aubrac, the harbormistress", 7)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if !utf8.ValidString(s) || n < 0 || n > 1<<16 {
			return
		}
		for _, got := range []string{Bytes(s, n), BytesMarked(s, n), Runes(s, n), Words(s, n)} {
			if !utf8.ValidString(got) {
				t.Fatalf("%q cut to %d split a character: %q", s, n, got)
			}
		}
		if b := Bytes(s, n); len(b) > n {
			t.Fatalf("Bytes(%q, %d) = %q, longer than %d", s, n, b, n)
		}
		if r := Runes(s, n); utf8.RuneCountInString(r) > n {
			t.Fatalf("Runes(%q, %d) = %q, more than %d characters", s, n, r, n)
		}
	})
}
