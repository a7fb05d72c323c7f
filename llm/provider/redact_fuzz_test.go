package provider

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzStreamRedactor: whatever the text and wherever a stream splits it,
// the pieces passed on join into what redacting the whole text gives,
// and no run of keyRunLen of the key's characters is left in it.
func FuzzStreamRedactor(f *testing.F) {
	key := deepSeekShapedKey
	for _, seed := range []struct {
		text  string
		split uint8
	}{
		{"Your key is " + key[3:] + ".", 1}, {key + key, 5}, {key[:keyRunLen] + "é" + key[keyRunLen:], 2},
		{"Séverine’s eyes", 3}, {"", 1}, {strings.Repeat(key[5:9], 20), 7}, {"\xff\xfe" + key[2:20], 4},
	} {
		f.Add(seed.text, seed.split)
	}
	km := newKeyMatcher([]string{key, "hunter22"})
	f.Fuzz(func(t *testing.T, text string, split uint8) {
		want := km.redact(text)
		var got strings.Builder
		r := newStreamRedactor(km, func(s string) {
			if utf8.ValidString(text) && !utf8.ValidString(s) {
				t.Fatalf("piece %q splits a character", s)
			}
			got.WriteString(s)
		})
		step := int(split%16) + 1
		for i := 0; i < len(text); i += step {
			r.write(text[i:min(i+step, len(text))])
		}
		r.flush()
		if got.String() != want {
			t.Fatalf("streamed %q, whole %q", got.String(), want)
		}
		for i := 0; i+keyRunLen <= len(key); i++ {
			if strings.Contains(want, key[i:i+keyRunLen]) {
				t.Fatalf("%q left in %q", key[i:i+keyRunLen], want)
			}
		}
	})
}
