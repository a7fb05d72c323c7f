package codex

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseEntry(t testing.TB, id, src string) *Entry {
	t.Helper()
	e, _ := Parse(id, []byte(src), "")
	require.NotNil(t, e)
	return e
}

func TestStoryOfProgressions(t *testing.T) {
	src := `---
type: character
name: Jory Vane
aliases: [Jory]
eyes: grey
progressions:
  - from: 12
    status: dead
    note: Drowned off the Gannet shoals.
  - from: "The Vault Beneath the Light"
    title: Senior Warden
    eyes: clouded
    aliases: [Jory, the Drowned Man]
---
# Jory Vane
`
	e := parseEntry(t, "codex/characters/jory.md", src)
	s := StoryOf(e)
	require.Empty(t, s.Problems)
	require.Len(t, s.Progressions, 2)
	p := s.Progressions[0]
	assert.Equal(t, "12", p.From)
	assert.Equal(t, "12", src[p.FromRange.Start:p.FromRange.End])
	assert.Equal(t, "Drowned off the Gannet shoals.", p.Note)
	assert.Equal(t, Fields{{Key: "status", Value: "dead"}}, p.Changes)
	q := s.Progressions[1]
	assert.Equal(t, "The Vault Beneath the Light", q.From)
	assert.Equal(t, `"The Vault Beneath the Light"`, src[q.FromRange.Start:q.FromRange.End])

	tests := []struct {
		name    string
		reached []bool
		status  string
		title   string
		eyes    string
		aliases []string
		notes   int
	}{
		{"before both", []bool{false, false}, "confirmed", "Jory Vane", "grey", []string{"Jory"}, 0},
		{"after the first", []bool{true, false}, "dead", "Jory Vane", "grey", []string{"Jory"}, 1},
		{"after both", []bool{true, true}, "dead", "Senior Warden", "clouded", []string{"Jory", "the Drowned Man"}, 1},
		{"second only", []bool{false, true}, "confirmed", "Senior Warden", "clouded", []string{"Jory", "the Drowned Man"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := s.Apply(e, func(i int, _ Progression) bool { return tc.reached[i] })
			assert.Equal(t, tc.status, a.Status)
			assert.Equal(t, tc.status == "dead", a.Dead())
			assert.Equal(t, tc.title, a.Entry.Title)
			assert.Equal(t, tc.eyes, a.Field("eyes"))
			assert.Equal(t, tc.aliases, a.Entry.Aliases)
			assert.Len(t, a.Notes, tc.notes)
		})
	}
	assert.Equal(t, "grey", AsOf{Entry: e}.Field("eyes"), "the base entry is never modified")
	assert.Equal(t, "Jory Vane", e.Title)
}

func TestStoryOfProblems(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		problems []string // what each problem points at
		progs    int
		rules    int
	}{
		{"no story keys", "---\ntype: character\nname: A\n---\n", nil, 0, 0},
		{"not a list", "---\ntype: character\nprogressions: dead\n---\n", []string{"dead"}, 0, 0},
		{"item not a mapping", "---\ntype: character\nprogressions:\n  - 12\n---\n", []string{"12"}, 0, 0},
		{"no from", "---\ntype: character\nprogressions:\n  - status: dead\n---\n", []string{"status: dead"}, 0, 0},
		{"from a list", "---\ntype: character\nprogressions:\n  - from: [1, 2]\n    status: dead\n---\n", []string{"[1, 2]", "from: [1, 2]"}, 0, 0},
		{"type cannot change", "---\ntype: character\nprogressions:\n  - from: 2\n    type: item\n---\n", []string{"type"}, 1, 0},
		{"rules outside style", "---\ntype: character\nrules:\n  - term: x\n---\n", []string{"rules"}, 0, 0},
		{"good rules", "---\ntype: style\nrules:\n  - {avoid: \"13th\", prefer: thirteenth, note: spell it}\n  - term: salt-debt\n---\n", nil, 0, 2},
		{"rule without avoid", "---\ntype: style\nrules:\n  - prefer: x\n---\n", []string{"prefer: x"}, 0, 0},
		{"rule unknown key", "---\ntype: style\nrules:\n  - {term: a, shun: b}\n---\n", []string{"shun"}, 0, 1},
		{"rule both", "---\ntype: style\nrules:\n  - {term: a, avoid: b}\n---\n", []string{"{term: a, avoid: b}"}, 0, 0},
		{"broken yaml is Parse's", "---\ntype: character\nprogressions: [\n---\n", nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := parseEntry(t, "codex/x.md", tc.src)
			s := StoryOf(e)
			var pointed []string
			for _, p := range s.Problems {
				assert.Equal(t, "codex/x.md", p.Path)
				pointed = append(pointed, tc.src[p.Range.Start:p.Range.End])
			}
			assert.Equal(t, tc.problems, pointed)
			assert.Len(t, s.Progressions, tc.progs)
			assert.Len(t, s.Rules, tc.rules)
		})
	}
}

func TestStoryOfRules(t *testing.T) {
	src := "---\ntype: style\nname: House style\nrules:\n  - {avoid: \"13th\", prefer: thirteenth, note: Spell out ordinals.}\n  - term: salt-debt\n---\n"
	s := StoryOf(parseEntry(t, "codex/style/house.md", src))
	require.Len(t, s.Rules, 2)
	assert.Equal(t, StyleRule{Avoid: "13th", Prefer: "thirteenth", Note: "Spell out ordinals.", Range: s.Rules[0].Range}, s.Rules[0])
	assert.Equal(t, `"13th"`, src[s.Rules[0].Range.Start:s.Rules[0].Range.End])
	assert.Equal(t, "salt-debt", s.Rules[1].Term)
	assert.Equal(t, "salt-debt", src[s.Rules[1].Range.Start:s.Rules[1].Range.End])
}

func TestStoryOfBaseStatus(t *testing.T) {
	e := parseEntry(t, "codex/characters/old.md", "---\ntype: character\nname: Old Wend\nstatus: dead\n---\n")
	s := StoryOf(e)
	assert.Equal(t, "dead", s.Status)
	assert.True(t, s.Apply(e, func(int, Progression) bool { return true }).Dead())
}

// The front matter's status is found whatever the case of its key, as
// the YAML reading that follows finds it.
func TestStoryOfStatusAnyCase(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"status: dead", "dead"},
		{"Status: Dead", "dead"},
		{"STATUS: 'gone'", "gone"},
		{"sTaTuS:   missing  ", "missing"},
		{"status: confirmed", ""},
		{"Status: Tentative", ""},
		{"statuses: dead", ""},
		{"stat: dead", ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := parseEntry(t, "codex/characters/old.md", "---\ntype: character\nname: Old Wend\n"+tc.line+"\n---\n")
			assert.Equal(t, tc.want, StoryOf(e).Status)
		})
	}
}

// FuzzStoryOf: any front matter reads without panicking, and every range
// a progression, rule or problem gives lies inside the file.
func FuzzStoryOf(f *testing.F) {
	for _, s := range []string{
		"---\ntype: character\nprogressions:\n  - from: 12\n    status: dead\n    note: x\n---\n",
		"---\ntype: style\nrules:\n  - {avoid: a, prefer: b}\n  - term: c\n---\n",
		"---\ntype: character\nprogressions: &a\n  - from: *a\n---\n",
		"---\ntype: style\nrules: [[x], {term: [y]}, ~]\nprogressions: {from: 1}\n---\n",
		"---\ntype: character\nstatus: dead\nprogressions:\n  - from: Août\n    eyes: vert pâle\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, _ := Parse("codex/f.md", []byte(src), TypeCharacter)
		if e == nil {
			return
		}
		s := StoryOf(e)
		n := len(e.Source)
		in := func(r Range) {
			if r.Start < 0 || r.End > n || r.Start > r.End {
				t.Fatalf("range %v outside %d bytes", r, n)
			}
		}
		for _, p := range s.Progressions {
			in(p.Range)
			in(p.FromRange)
		}
		for _, r := range s.Rules {
			in(r.Range)
		}
		for _, p := range s.Problems {
			in(p.Range)
		}
		_ = s.Apply(e, func(int, Progression) bool { return true })
	})
}
