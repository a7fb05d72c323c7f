package dialogue

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// fuzzEntries are the fuzz targets' cast: Emma, whose pronouns the
// codex gives, Mr. Knightley, whose title says his, and Harriet, whose
// the chapter must teach.
func fuzzEntries() []*codex.Entry {
	var entries []*codex.Entry
	for _, src := range []struct{ id, fm string }{
		{"codex/characters/emma.md", "name: Emma Woodhouse\naliases: [Emma]\npronouns: she/her"},
		{"codex/characters/knightley.md", "name: Mr. Knightley\naliases: [Knightley]"},
		{"codex/characters/harriet.md", "name: Harriet Smith\naliases: [Harriet]"},
	} {
		e, _ := codex.Parse(src.id, []byte("---\n"+src.fm+"\n---\n"), codex.TypeCharacter)
		entries = append(entries, e)
	}
	return entries
}

// FuzzAnalyze feeds the quote scanner and the attribution any text, in
// every convention: no panic, every span inside the text and inside its
// marks, utterances in text order, and every speaker and candidate a
// character of the cast.
func FuzzAnalyze(f *testing.F) {
	for _, seed := range []string{
		`"I cannot," said Emma, "agree with you."`,
		"‘I don’t know the Bennets’ house,’ said Kitty.\n\n‘It’s late.’",
		"« Bonjour », dit-il.\n\n»Tag«, sagte sie. „Wie geht’s?“",
		"—Hola —dijo Juan—. ¿Cómo estás?\n\n— Здравствуйте, — сказал он.",
		"\"Unclosed\n\n\"still open\n\n'em 'tis o'clock \"\" '' “ ” ‘ ’",
		"<!-- speaker: Emma --> \"Who?\" <!-- \"hidden\" ``` \"code\" ```",
		"---\ntitle: \"x\"\n---\n# \"Heading\"\n\n* * *\n\n\"Real,\" he said.",
		"\"A,\" said Emma.\n\n\"B,\" said Mr. Knightley.\n\n\"C.\"\n\n\"D, Emma.\"\n\n\"E.\"",
		"\"Who?\" he asked Mr. Knightley.\n\n\"Well, Emma; yes.\"\n\n\"Come,\" said Emma to her husband.\n\nEmma sat down, and Knightley began.\n\"Go.\"",
		"the \"soft eyes\"--and known as \"a scene,\" then \"To\" said Emma to",
		"\"My dear Friend,\n\n\"Come at once. Yours ever,\n\n\"CAROLINE.\"\n\nMY DEAR MADAM,\n\n\"Yours, &c.\"\n\"A. W.\"\n\n\"Dear me,\"",
		"— Quand ce serait le diable ! s’écria-t-il, ils reçoivent.\n— Vous, lui répondis-je. Il entend.\nJeanne répondit : « Entre. »",
	} {
		for q := range 6 {
			f.Add(seed, uint8(q))
		}
	}
	entries := fuzzEntries()
	cast := NewCast(entries)
	m := manuscript.NewMatcherOf(entries)
	conventions := []Quotes{QuotesAuto, QuotesDouble, QuotesSingle, QuotesGuillemets, QuotesGerman, QuotesDash}
	f.Fuzz(func(t *testing.T, text string, q uint8) {
		o := codex.OutlineOf([]byte(text))
		ch := Chapter{Text: text, Body: o.Body, Skip: o.Code, Mentions: m.ScanAll(text), POV: "codex/characters/emma.md"}
		utts := Analyze(ch, cast, Options{Quotes: conventions[int(q)%len(conventions)]})
		prev := -1
		for _, u := range utts {
			if len(u.Spans) == 0 || len(u.Spans) != len(u.Marks) {
				t.Fatalf("an utterance of %d spans and %d marks", len(u.Spans), len(u.Marks))
			}
			for k, sp := range u.Spans {
				mk := u.Marks[k]
				if sp.Start < 0 || sp.Start > sp.End || sp.End > len(text) || mk.Start > sp.Start || sp.End > mk.End || mk.End > len(text) {
					t.Fatalf("span %v, marks %v, text of %d bytes", sp, mk, len(text))
				}
				if sp.Start < prev {
					t.Fatalf("span %v before the one ending at %d", sp, prev)
				}
				prev = sp.End
			}
			for _, id := range append([]string{u.Speaker}, u.Candidates...) {
				if _, ok := cast.Character(id); id != "" && !ok {
					t.Fatalf("speaker %q is no character", id)
				}
			}
			if u.Uncertain == (u.Speaker != "") {
				t.Fatalf("speaker %q with uncertain %v", u.Speaker, u.Uncertain)
			}
		}
	})
}

// FuzzAnalyzeAfter edits any text anywhere: the analysis that takes the
// conversations an edit did not reach from the version before is the
// fresh one.
func FuzzAnalyzeAfter(f *testing.F) {
	long := strings.Repeat("The rain fell on the lanes. ", 200)
	for _, seed := range []string{
		"\"A,\" said Emma.\n\n\"B,\" said Mr. Knightley.\n\n\"C.\"\n\n" + long + "\n\n\"D, Emma.\"\n\n\"E,\" said she.",
		"\"Read it,\" said Jane.\n\n\"MY DEAR HARRIET,\"\n\n\"" + long + "Yours ever,\"\n\n\"LYDIA BENNET.\"\n\n\"Oh!\" cried Emma.",
		"\"Come,\" said Emma.\n\n" + long + "\n\n" + long + "\n\n\"Nonsense,\" said she.\n\n\"Yes,\" said Knightley.",
		"Harriet came in. She sat.\n\n\"Well,\" she said.\n\n" + long + "\n\nHarriet rose; she went.\n\n\"No,\" said she.",
		"<!-- speaker: Emma -->\n\"Who?\"\n\n" + long + "\n\n```\n\"code\"\n```\n\n\"Real,\" he said.",
	} {
		f.Add(seed, uint16(10), uint8(0), "\"")
		f.Add(seed, uint16(len(seed)/2), uint8(5), "Emma ")
		f.Add(seed, uint16(3), uint8(40), "\n\n")
	}
	entries := fuzzEntries()
	cast := NewCast(entries)
	m := manuscript.NewMatcherOf(entries)
	f.Fuzz(func(t *testing.T, text string, at uint16, cut uint8, insert string) {
		from := int(at) % (len(text) + 1)
		to := min(len(text), from+int(cut))
		edited := text[:from] + insert + text[to:]
		prev := AnalyzeAfter(nil, chapterOf(m, text), cast, Options{})
		got := AnalyzeAfter(prev, chapterOf(m, edited), cast, Options{})
		want := Analyze(chapterOf(m, edited), cast, Options{})
		if !reflect.DeepEqual(want, got.Utterances()) {
			t.Fatalf("after the edit the analysis is not the fresh one:\n%v\nagainst\n%v", got.Utterances(), want)
		}
	})
}
