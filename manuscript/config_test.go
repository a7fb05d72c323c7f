package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlobsFromTextReadsTheSection(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    []string
		wantErr string
	}{
		{name: "no key", yaml: "title: X\n", want: nil},
		{name: "one glob", yaml: "manuscript: draft/*.md\n", want: []string{"draft/*.md"}},
		{name: "a list", yaml: "manuscript:\n  - a/*.md\n  - b/**/*.md\n", want: []string{"a/*.md", "b/**/*.md"}},
		{name: "a map is wrong", yaml: "manuscript: {x: 1}\n", wantErr: "line 1: manuscript must be a glob or a list"},
		{name: "a list of maps is wrong", yaml: "manuscript: [{x: 1}]\n", wantErr: "quire.yaml"},
		{name: "broken yaml", yaml: "manuscript: [\n", wantErr: "quire.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			globs, err := GlobsFromText([]byte(tt.yaml))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, globs)
		})
	}
}

func FuzzGlobsFromText(f *testing.F) {
	for _, seed := range []string{"manuscript: a/*.md\n", "manuscript: [a, b]\n", "a: &x [*x]\n", "manuscript: !!binary aGk=\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		_, _ = GlobsFromText([]byte(data))
	})
}
