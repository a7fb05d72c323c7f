package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestAddToList(t *testing.T) {
	tests := []struct {
		name, src, want string
		noEdit          bool
	}{
		{name: "no file", src: "", want: "spelling: [Sevrine]\n"},
		{name: "no key", src: "title: The Tideward\n", want: "title: The Tideward\nspelling: [Sevrine]\n"},
		{name: "no key, no final newline", src: "title: The Tideward", want: "title: The Tideward\nspelling: [Sevrine]\n"},
		{name: "flow list, comment kept", src: "spelling: [Marra, \"Jo: the elder\"]   # names\ntitle: T\n", want: "spelling: [Marra, \"Jo: the elder\", Sevrine]   # names\ntitle: T\n"},
		{name: "empty flow list", src: "spelling: []\n", want: "spelling: [Sevrine]\n"},
		{name: "block list", src: "spelling:\n  - Marra\n  - Jo\ntitle: T\n", want: "spelling:\n  - Marra\n  - Jo\n  - Sevrine\ntitle: T\n"},
		{name: "block list at the end, no newline", src: "spelling:\n- Marra", want: "spelling:\n- Marra\n- Sevrine"},
		{name: "key with no value", src: "spelling:\ntitle: T\n", want: "spelling: [Sevrine]\ntitle: T\n"},
		{name: "CRLF", src: "title: T\r\nspelling:\r\n  - Marra\r\n", want: "title: T\r\nspelling:\r\n  - Marra\r\n  - Sevrine\r\n"},
		{name: "already there", src: "spelling: [sevrine]\n", noEdit: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok, err := AddToList(tt.src, "spelling", "Sevrine")
			require.NoError(t, err)
			if tt.noEdit {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			got := tt.src[:e.Start] + e.Text + tt.src[e.End:]
			assert.Equal(t, tt.want, got)
			var v struct {
				Spelling []string `yaml:"spelling"`
			}
			require.NoError(t, yaml.Unmarshal([]byte(got), &v))
			assert.Contains(t, v.Spelling, "Sevrine")
		})
	}
	for _, bad := range []string{"spelling: Sevrine\n", "- a\n- b\n", "spelling: [a\n"} {
		_, _, err := AddToList(bad, "spelling", "Sevrine")
		assert.Error(t, err, bad)
	}
}

// Whatever the file holds, AddToList never panics, and an edit it makes
// of settings that read as YAML leaves settings that still do, with the
// item under the key.
func FuzzAddToList(f *testing.F) {
	for _, s := range []string{"", "spelling: [a, b]\n", "spelling:\n  - a\n", "title: x\nspelling:\n", "a: [\n", "spelling: [a, b] # c\n", "spelling: {a: b}\n"} {
		f.Add(s, "Sevrine")
	}
	f.Fuzz(func(t *testing.T, src, item string) {
		e, ok, err := AddToList(src, "spelling", item)
		var before map[string]any
		if err != nil || !ok || yaml.Unmarshal([]byte(src), &before) != nil {
			return
		}
		got := src[:e.Start] + e.Text + src[e.End:]
		var v map[string]any
		if err := yaml.Unmarshal([]byte(got), &v); err != nil {
			t.Fatalf("the edit of %q left no YAML: %q: %v", src, got, err)
		}
		list, _ := v["spelling"].([]any)
		found := false
		for _, x := range list {
			if s, ok := x.(string); ok && s == item {
				found = true
			}
		}
		if !found {
			t.Fatalf("the edit of %q left %q without %q under spelling: %v", src, got, item, v["spelling"])
		}
	})
}
