package manuscript

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetOutline(t *testing.T) {
	const prose = "Ilse counts the ledgers."
	tests := []struct {
		name   string
		text   string
		scene  int
		fields []Field
		want   string
		err    string
	}{
		{name: "a new note after the break", text: "Alpha.\n\n* * *\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"status", "Draft"}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\nstatus: draft\n-->\n\n" + prose + "\n"},
		{name: "a synopsis keeps its hash", text: "Alpha.\n\n* * *\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"synopsis", "Ilse counts: every  ledger."}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: \"Ilse counts: every ledger.\"\nsynopsis-hash: " + ProseHash(prose) + "\n-->\n\n" + prose + "\n"},
		{name: "a key changed in place, the rest kept", text: "Alpha.\n\n* * *\n\n<!-- scene\npov: Ilse Dorn # her turn\nstatus: idea\nday: 4\n-->\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"status", "revised"}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\npov: Ilse Dorn # her turn\nstatus: revised\nday: 4\n-->\n\n" + prose + "\n"},
		{name: "a long synopsis replaced whole", text: "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: one\n  two three\nstatus: idea\n-->\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"synopsis", "New."}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\nsynopsis: New.\nstatus: idea\nsynopsis-hash: " + ProseHash(prose) + "\n-->\n\n" + prose + "\n"},
		{name: "a key removed", text: "Alpha.\n\n* * *\n\n<!-- scene\nstatus: idea\npov: Ilse\n-->\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"status", ""}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\npov: Ilse\n-->\n\n" + prose + "\n"},
		{name: "a flow note written out", text: "Alpha.\n\n* * *\n\n<!-- scene: {pov: Ilse, day: 4} -->\n\n" + prose + "\n", scene: 2,
			fields: []Field{{"status", "final"}},
			want:   "Alpha.\n\n* * *\n\n<!-- scene\npov: Ilse\nday: 4\nstatus: final\n-->\n\n" + prose + "\n"},
		{name: "a first scene after the title", text: "# One\n\n" + prose + "\n", scene: 1,
			fields: []Field{{"title", "The Count"}},
			want:   "# One\n\n<!-- scene\ntitle: The Count\n-->\n\n" + prose + "\n"},
		{name: "a first scene with no title", text: prose + "\n", scene: 1,
			fields: []Field{{"pov", "Ilse Dorn"}},
			want:   "<!-- scene\npov: Ilse Dorn\n-->\n\n" + prose + "\n"},
		{name: "the chapter's front matter", text: "---\ntitle: One\nday: 3\n---\n" + prose + "\n", scene: 0,
			fields: []Field{{"status", "draft"}, {"day", "4"}},
			want:   "---\ntitle: One\nday: 4\nstatus: draft\n---\n" + prose + "\n"},
		{name: "front matter added", text: prose + "\n", scene: 0,
			fields: []Field{{"synopsis", "Counting."}},
			want:   "---\nsynopsis: Counting.\nsynopsis-hash: " + ProseHash(prose) + "\n---\n" + prose + "\n"},
		{name: "a value that looks like YAML", text: prose + "\n", scene: 0,
			fields: []Field{{"title", "yes"}}, want: "---\ntitle: \"yes\"\n---\n" + prose + "\n"},
		{name: "no such scene", text: prose, scene: 3, fields: []Field{{"status", "draft"}}, err: "no scene 3"},
		{name: "an unknown status", text: prose, scene: 1, fields: []Field{{"status", "someday"}}, err: "not one of this book's statuses"},
		{name: "a key the outline does not set", text: prose, scene: 1, fields: []Field{{"target", "4000"}}, err: "cannot be set"},
		{name: "the end of a comment", text: prose, scene: 1, fields: []Field{{"synopsis", "a --> b"}}, err: "-->"},
		{name: "broken front matter", text: "---\n- a\n---\n" + prose, scene: 0, fields: []Field{{"status", "draft"}}, err: "does not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := NewUnit("manuscript/01-a.md", tt.text, 0)
			e, err := u.SetOutline(SceneRules{}, tt.scene, tt.fields...)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			got := e.Apply(tt.text)
			assert.Equal(t, tt.want, got)
			// The edit reads back as set, and a synopsis is current.
			after := NewUnit(u.Path, got, 1)
			assert.Empty(t, after.SceneProblems(SceneRules{}))
			if tt.scene > 0 {
				n := after.Scenes(SceneRules{})[tt.scene-1]
				assert.False(t, n.Note.Stale(after.SceneHash(n)))
			} else {
				assert.False(t, after.ChapterNote(SceneRules{}).Stale(after.ProseHash()))
			}
		})
	}
}
