package codex

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets check invariants every parse must keep whatever the
// bytes: no panic, every range inside the file, every string valid UTF-8.
// Run one with: go test ./codex -run '^$' -fuzz '^FuzzParse$' -fuzztime 60s

// fuzzEntries are realistic files, so that mutation starts from the shapes
// writers produce rather than from noise.
var fuzzEntries = []string{
	"---\ntype: character\nname: Mara Vell\naliases: [Mara, the Harbor Witch]\nsummary: Smuggler who runs the harbor.\ntags: [protagonist]\nstatus: confirmed\nrole: Protagonist\nlocked: [role]\n---\n# Mara Vell\n\n## Appearance\n\nTall, salt-streaked. Sister of [[Ilse Dorn|Ilse]].\n\n## History\n\nSee [[Old Harbor#Docks]].\n",
	"---\nname: Ilse Dorn\naliases:\n  - Ilse\n  - \"the Quiet One\"\ntags: spy, exile\n---\nIlse keeps to [[Mara Vell]]'s shadow.\n\n```\n[[not a link]]\n```\n",
	"---\nname: Mara\nsummary: she said: \"hi\ntype: character\n---\n# Broken\n",
	"---\nname: Unclosed\ntype: location\n\n# Heading\nBody\n",
	"---\r\nname: Windows\r\ntype: item\r\n---\r\n# Lamp\r\n\r\nA lamp near [[Mara]].\r\n",
	"\xEF\xBB\xBF---\nname: Bommed\n---\nText\n",
	"---\n- a\n- b\n---\nlist front matter\n",
	"---\na: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n---\n",
	"---\nname: Dup\nname: Again\nmentions: false\nexclude: [Mar]\n---\n",
	"Title\n=====\n\nSub\n---\n\ntext `[[code]]` and \\[[escaped]] and [[ok]]\n",
	"---\nname: Tabs\n\tbad: indent\ntype: character\n---\n",
	"",
	"   \n\t\n",
	"---\nname: caf\xe9\n---\n\xff\xfe body\n",
	"# A\n## B\n### C\n## D\n# E\n",
	"---\ntype: charcter\nstatus: maybe\nlocked: [hair]\n---\n",
	"---\ntype: chapter\n---\nProse.\n",
	"---\nborn: 1999-04-01\nage: 34\nheight: 1.8\nmarried: true\nnone: ~\nnested: {a: [1, {b: c}]}\n---\n",
}

func FuzzParse(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add([]byte(src), "character")
		f.Add([]byte(src), "")
	}
	f.Add([]byte("---\nname: x\n---\n"), "spells")
	f.Fuzz(func(t *testing.T, src []byte, folder string) {
		for _, id := range []string{"codex/characters/mara-vell.md", "codex/characters/ilse-dorn/index.md"} {
			e, problems := Parse(id, src, ParseType(folder))
			checkProblems(t, src, problems)
			if e == nil {
				continue
			}
			if e.Source != string(src) {
				t.Fatalf("Source differs from the input")
			}
			if len(e.Problems) != len(problems) {
				t.Fatalf("entry carries %d problems, Parse returned %d", len(e.Problems), len(problems))
			}
			checkRange(t, "body", e.Body, len(src))
			checkRange(t, "name", e.NameRange, len(src))
			if len(e.AliasRanges) != len(e.Aliases) {
				t.Fatalf("%d alias ranges for %d aliases", len(e.AliasRanges), len(e.Aliases))
			}
			for _, r := range e.AliasRanges {
				checkRange(t, "alias", r, len(src))
			}
			checkSections(t, src, e.Sections)
			checkLinks(t, src, e.Links)
			for _, s := range append([]string{string(e.Type), e.Name, e.Title, e.Summary, e.Stem}, concat(e.Aliases, e.Tags, e.Locked, e.Exclude)...) {
				checkUTF8(t, s)
			}
			if e.Name == "" && e.Stem != "" && strings.ContainsFunc(e.Stem, func(r rune) bool { return r != '-' && r != '_' && r != '.' && r != ' ' }) {
				t.Fatalf("entry has no name though its stem %q has one", e.Stem)
			}
			// Custom values must survive the JSON the server and cache use.
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatalf("entry does not marshal: %v", err)
			}
			if !utf8.Valid(data) {
				t.Fatalf("marshalled entry is not UTF-8")
			}
		}
	})
}

// FuzzFrontMatterManyKeys repeats a few fuzzed front matter lines
// hundreds or thousands of times (repeated keys, long alias lists,
// broken lines): the entry must stay within its bounds, however many
// keys there are. Run with:
// go test ./codex -run '^$' -fuzz '^FuzzFrontMatterManyKeys$' -fuzztime 60s
func FuzzFrontMatterManyKeys(f *testing.F) {
	f.Add("x: y\n", uint16(8000), "body")
	f.Add("name: A\nname: B\n", uint16(300), "")
	f.Add("aliases:\n  - a\n", uint16(1200), "[[Nowhere]]\n")
	f.Add("  - alias\n", uint16(2000), "")
	f.Add("tags: a, b, c, d\n", uint16(500), "")
	f.Add("locked: [x]\nx: 1\n", uint16(700), "")
	f.Add("bad: [\n", uint16(900), "")
	f.Add("a: &a [x]\nb: *a\n", uint16(600), "")
	f.Add("aliases: [ab, cd, ef]\n", uint16(3000), "# H\n")
	f.Fuzz(func(t *testing.T, lines string, n uint16, body string) {
		if len(lines) > 200 || len(body) > 200 {
			return
		}
		src := []byte("---\ntype: character\naliases:\n" + strings.Repeat(lines, int(n%4000)) + "\n---\n" + body)
		e, problems := Parse("codex/characters/u.md", src, TypeCharacter)
		checkProblems(t, src, problems)
		checkCapped(t, problems)
		if e == nil {
			return
		}
		if len(e.Aliases) > MaxListItems || len(e.Tags) > MaxListItems || len(e.Locked) > MaxListItems || len(e.Exclude) > MaxListItems {
			t.Fatalf("lists over the limit: %d aliases, %d tags, %d locked, %d excluded", len(e.Aliases), len(e.Tags), len(e.Locked), len(e.Exclude))
		}
		for _, a := range e.Aliases {
			if len(a) > MaxAliasBytes {
				t.Fatalf("alias of %d bytes kept", len(a))
			}
		}
		c := NewCatalog([]*Entry{e}, nil)
		all := c.Problems()
		checkProblems(t, src, all)
		checkCapped(t, all)
	})
}

// checkCapped checks that no file lists more than MaxProblemsPerFile
// problems, and that a summary counts at least one more.
func checkCapped(t *testing.T, problems []Problem) {
	t.Helper()
	listed := map[string]int{}
	summaries := map[string]int{}
	for _, p := range problems {
		if p.Code == CodeTooManyProblems {
			summaries[p.Path]++
			if p.Unlisted < 1 || p.Message == "" {
				t.Fatalf("summary without a count or message: %+v", p)
			}
			continue
		}
		listed[p.Path]++
	}
	for path, n := range listed {
		if n > MaxProblemsPerFile || summaries[path] > 1 {
			t.Fatalf("%s lists %d problems and %d summaries", path, n, summaries[path])
		}
	}
}

func FuzzParseSoul(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s := ParseSoul("codex/characters/ilse-dorn/soul.md", src)
		checkProblems(t, src, s.Problems)
		if s.Source == "" {
			return
		}
		checkRange(t, "body", s.Body, len(src))
		checkSections(t, src, s.Sections)
		checkLinks(t, src, s.Links)
	})
}

func FuzzSplitFrontMatter(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add([]byte(src))
	}
	f.Add([]byte("---"))
	f.Add([]byte("---\n..."))
	f.Add([]byte("--- \t\nname: x\n---  \nbody"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fm := splitFrontMatter(src)
		if fm.Body.End != len(src) {
			t.Fatalf("body ends at %d, file at %d", fm.Body.End, len(src))
		}
		checkRange(t, "body", fm.Body, len(src))
		if !fm.Present {
			if fm.Closed || fm.YAML != (Range{}) || fm.Open != (Range{}) {
				t.Fatalf("absent front matter has parts: %+v", fm)
			}
			return
		}
		order := []int{fm.Open.Start, fm.Open.End, fm.YAML.Start, fm.YAML.End, fm.Body.Start, fm.Body.End}
		for i := 1; i < len(order); i++ {
			if order[i-1] > order[i] {
				t.Fatalf("ranges out of order: %+v", fm)
			}
		}
		if got := strings.TrimRight(string(src[fm.Open.Start:fm.Open.End]), " \t\r"); got != "---" {
			t.Fatalf("opening fence is %q", got)
		}
	})
}

func FuzzScanLinks(f *testing.F) {
	for _, src := range fuzzEntries {
		f.Add([]byte(src))
	}
	f.Add([]byte("[[[x]]] [[a|b|c]] [[ \u00a0pad\u00a0 ]] [[#Section]] [[a\n]] \\[[no]] [[]] [[ ]]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		whole := Range{0, len(src)}
		plain := scanLinks(src, whole, nil)
		checkLinks(t, src, plain)
		o := outlineOf(src, whole, true)
		for _, c := range o.Code {
			checkRange(t, "code", c, len(src))
		}
		inProse := scanLinks(src, whole, o.Code)
		checkLinks(t, src, inProse)
		if len(inProse) > len(plain) {
			t.Fatalf("skipping code found more links (%d) than scanning everything (%d)", len(inProse), len(plain))
		}
	})
}

func FuzzIgnore(f *testing.F) {
	for _, seed := range []struct{ patterns, path string }{
		{"build/\n*.tmp\n", "build/out.md"},
		{"/drafts\n!drafts/keep.md\n", "drafts/keep.md"},
		{"**/secret\n", "a/b/secret/x.md"},
		{"notes/**\n!notes/keep.md\n", "notes/keep.md"},
		{"a/**/b\n", "a/x/y/b"},
		{"\\#hash\n# comment\n\n", "#hash"},
		{"[a-\n", "a"},
		{"trailing\\ \n", "trailing "},
		{"", ".obsidian/workspace.json"},
		{"*.md\n!*.md\n", "codex/x.md"},
	} {
		f.Add(seed.patterns, seed.path, false)
		f.Add(seed.patterns, seed.path, true)
	}
	f.Fuzz(func(t *testing.T, patterns, rel string, isDir bool) {
		ig := ParseIgnore(patterns)
		got := ig.Ignored(rel, isDir)
		if again := ParseIgnore(patterns).Ignored(rel, isDir); again != got {
			t.Fatalf("Ignored(%q) is %v, then %v", rel, got, again)
		}
		// What a folder hides, it hides all the way down.
		if ig.Ignored(rel, true) && strings.Trim(rel, "/") != "" && strings.Trim(rel, "/") != "." {
			if !ig.Ignored(strings.TrimRight(rel, "/")+"/child.md", false) {
				t.Fatalf("folder %q is ignored but its child is not", rel)
			}
		}
	})
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"Mara Vell", "  Mara\t\tVell ", "Séverine", "Ølby", "straße", "Mara’s", "MARA`S",
		"İstanbul", "ǅemal", "ﬁnn", "Æthelred Œuvre", "\xff\xfeinvalid", "K\u212a", "\u00a0nbsp\u2003em",
		"a\u0301\u0301", "ΣΊΣΥΦΟΣ", "Þórr Łukasz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		checkUTF8(t, n)
		if again := Normalize(n); again != n {
			t.Fatalf("Normalize(%q) = %q but Normalize of that is %q", s, n, again)
		}
		if strings.HasPrefix(n, " ") || strings.HasSuffix(n, " ") || strings.Contains(n, "  ") {
			t.Fatalf("Normalize(%q) = %q keeps stray spaces", s, n)
		}
		if isPlainASCII(s) {
			if slow := normalizeUnicode(s); slow != n {
				t.Fatalf("ASCII %q: fast path %q, general path %q", s, n, slow)
			}
		}
		checkUTF8(t, Fold(s))
	})
}

func checkProblems(t *testing.T, src []byte, problems []Problem) {
	t.Helper()
	for _, p := range problems {
		checkRange(t, "problem "+p.Code, p.Range, len(src))
		checkUTF8(t, p.Message)
		if p.Code == "" || p.Severity < SeverityError || p.Severity > SeverityInfo {
			t.Fatalf("problem without code or severity: %+v", p)
		}
	}
}

func checkSections(t *testing.T, src []byte, sections []Section) {
	t.Helper()
	for _, s := range sections {
		checkRange(t, "section", s.Range, len(src))
		checkRange(t, "heading", s.HeadingRange, len(src))
		if s.HeadingRange.Start != s.Range.Start || s.HeadingRange.End > s.Range.End {
			t.Fatalf("heading %+v is not at the top of its section %+v", s.HeadingRange, s.Range)
		}
		if s.Level < 1 || s.Level > 6 {
			t.Fatalf("section level %d", s.Level)
		}
		checkUTF8(t, s.Heading)
	}
}

func checkLinks(t *testing.T, src []byte, links []Link) {
	t.Helper()
	prev := 0
	for _, l := range links {
		checkRange(t, "link", l.Range, len(src))
		checkRange(t, "link target", l.TargetRange, len(src))
		if l.Range.Start < prev {
			t.Fatalf("links overlap or are out of order at %d", l.Range.Start)
		}
		prev = l.Range.End
		if l.TargetRange.Start < l.Range.Start+2 || l.TargetRange.End > l.Range.End-2 {
			t.Fatalf("target %+v is not inside link %+v", l.TargetRange, l.Range)
		}
		text := string(src[l.Range.Start:l.Range.End])
		if !strings.HasPrefix(text, "[[") || !strings.HasSuffix(text, "]]") {
			t.Fatalf("link range covers %q", text)
		}
		if want := strings.ToValidUTF8(string(src[l.TargetRange.Start:l.TargetRange.End]), "\uFFFD"); l.Target != want {
			t.Fatalf("target %q but its range covers %q", l.Target, want)
		}
		checkUTF8(t, l.Target)
		checkUTF8(t, l.Label)
	}
}

func checkRange(t *testing.T, what string, r Range, n int) {
	t.Helper()
	if r.Start < 0 || r.Start > r.End || r.End > n {
		t.Fatalf("%s range %+v outside [0,%d]", what, r, n)
	}
}

func checkUTF8(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not valid UTF-8: %q", s)
	}
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
