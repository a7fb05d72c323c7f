package proposal

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// How an update's front matter lands in an entry: as edits of single keys,
// so the lines it does not change stay as the writer wrote them, with
// locked and protected fields kept out rather than changed silently.

// proposeField sets a front matter field from the first paragraph of
// body: a field is a short value, and the rest is kept out.
func (ct *canonTarget) proposeField(p *plan, e *codex.Entry, f fileText, cur *frontMatter, key, body string) error {
	if isLocked(e, key) {
		return errorf(Invalid, "the field %q of %s is locked by the writer; a proposal may not change it", key, e.Name)
	}
	var paras []string
	for _, para := range strings.Split(body, "\n\n") {
		var words []string
		for _, line := range strings.Split(para, "\n") {
			if _, _, ok := headingLine(line); ok {
				continue
			}
			words = append(words, strings.Fields(line)...)
		}
		if len(words) > 0 {
			paras = append(paras, strings.Join(words, " "))
		}
	}
	if len(paras) == 0 {
		return errorf(Invalid, "proposedMarkdown has no value for the field %q", key)
	}
	if len(paras) > 1 {
		p.warnf("%q is a front matter field, a short value: only the first paragraph is proposed, the rest was kept out", key)
	}
	var n yaml.Node
	if err := n.Encode(paras[0]); err != nil {
		return err
	}
	k := cur.key(key)
	line, err := yamlPair(k.name, &n)
	if err != nil {
		return err
	}
	p.edit(f, k.span, withEOL(line, eolOf(f.text)), fmt.Sprintf("set the front matter field %q", k.name))
	p.markdown = append(p.markdown, strings.TrimRight(line, "\n"))
	return nil
}

func isLocked(e *codex.Entry, key string) bool {
	for _, l := range e.Locked {
		if strings.EqualFold(strings.TrimSpace(l), key) {
			return true
		}
	}
	return false
}

// protectedKeys are front matter keys no proposal changes: what the entry
// is, what it is called (renames go through the editor) and what the
// writer locked.
var protectedKeys = map[string]string{
	"type":   "the entry's type",
	"name":   "the entry's name (a rename goes through the editor)",
	"locked": "the writer's list of locked fields",
}

// proposeFrontMatter turns the front matter of a proposal into edits of
// single keys: unchanged keys are skipped, locked and protected keys kept
// out, missing keys kept as they are.
func (ct *canonTarget) proposeFrontMatter(p *plan, e *codex.Entry, f fileText, cur *frontMatter, pfm *yaml.Node, done string, keepRole bool) {
	if cur.present && !cur.closed {
		p.warnf("%s has an unclosed front matter block; the proposed front matter changes were kept out", f.path)
		return
	}
	var insert []string
	var changed []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(pfm.Content); i += 2 {
		kn, vn := pfm.Content[i], pfm.Content[i+1]
		key := strings.TrimSpace(kn.Value)
		lower := strings.ToLower(key)
		seen[lower] = true
		if lower == "" || strings.EqualFold(key, done) {
			continue
		}
		k := cur.key(key)
		if k != nil && sameYAML(k.value, vn) {
			continue
		}
		if why, ok := protectedKeys[lower]; ok {
			p.warnf("the proposal changes %s (%q); it was kept out", why, key)
			continue
		}
		if isLocked(e, key) {
			p.warnf("the field %q is locked by the writer; the proposed change to it was kept out", key)
			continue
		}
		if keepRole && lower == "role" {
			p.warnf("the proposal changes the character's role field, which was not asked for; it was kept out (propose it with targetSection %q)", "role")
			continue
		}
		line, err := yamlPair(key, vn)
		if err != nil {
			p.warnf("the proposed value of %q could not be written as YAML; it was kept out", key)
			continue
		}
		changed = append(changed, key)
		if k != nil {
			p.edit(f, k.span, withEOL(line, eolOf(f.text)), fmt.Sprintf("set the front matter field %q", key))
		} else {
			insert = append(insert, line)
		}
		p.markdown = append(p.markdown, strings.TrimRight(line, "\n"))
	}
	if len(insert) > 0 {
		text := strings.Join(insert, "")
		at := cur.closeStart
		if !cur.present {
			text = "---\n" + text + "---\n"
			at = cur.bodyStart
		}
		p.edit(f, codex.Range{Start: at, End: at}, withEOL(text, eolOf(f.text)), fmt.Sprintf("add front matter fields %s", quoteList(keysOfLines(insert))))
	}
	var kept []string
	for _, k := range cur.keys {
		if !seen[strings.ToLower(k.name)] {
			kept = append(kept, k.name)
		}
	}
	if len(kept) > 0 && len(changed) > 0 {
		p.warnf("front matter fields the proposal left out are kept unchanged: %s", quoteList(kept))
	}
}

func keysOfLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		k, _, _ := strings.Cut(l, ":")
		out = append(out, strings.Trim(k, `"' `))
	}
	return out
}

func sameYAML(a, b *yaml.Node) bool {
	var va, vb any
	if a.Decode(&va) != nil || b.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// yamlPair renders one top-level key and its value, with a final line
// break, quoting whatever YAML would misread.
func yamlPair(key string, value *yaml.Node) (string, error) {
	var k yaml.Node
	if err := k.Encode(key); err != nil {
		return "", err
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{&k, value}}
	return marshalYAML(m)
}

func marshalYAML(n *yaml.Node) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// frontMatter is the front matter of a file as the proposal tools edit it:
// each top-level key with the lines it spans.
type frontMatter struct {
	present, closed bool
	// bodyStart is where the front matter (or the body, without one)
	// begins: after a byte order mark.
	bodyStart int
	// closeStart is the start of the closing fence line.
	closeStart int
	keys       []fmKey
}

type fmKey struct {
	name  string
	span  codex.Range // the key's lines, with their line breaks
	value *yaml.Node
}

func (fm *frontMatter) key(name string) *fmKey {
	for i := range fm.keys {
		if strings.EqualFold(fm.keys[i].name, name) {
			return &fm.keys[i]
		}
	}
	return nil
}

// scalarKey finds a front matter key holding one value, for a
// targetSection that names a field.
func (fm *frontMatter) scalarKey(name string) (string, bool) {
	want := codex.Normalize(name)
	for _, k := range fm.keys {
		if codex.Normalize(k.name) == want && k.value.Kind == yaml.ScalarNode {
			if _, ok := protectedKeys[strings.ToLower(k.name)]; ok {
				return "", false
			}
			return k.name, true
		}
	}
	return "", false
}

func parseFrontMatter(text string) *frontMatter {
	fm := &frontMatter{}
	if strings.HasPrefix(text, "\xEF\xBB\xBF") {
		fm.bodyStart = 3
	}
	lines := lineStarts(text, fm.bodyStart)
	if len(lines) == 0 || !isFenceLine(text, lines, 0, "---") {
		return fm
	}
	fm.present = true
	close := -1
	for i := 1; i < len(lines); i++ {
		if isFenceLine(text, lines, i, "---") || isFenceLine(text, lines, i, "...") {
			close = i
			break
		}
	}
	if close < 0 {
		return fm
	}
	fm.closed = true
	fm.closeStart = lines[close]
	yamlText := text[lines[1]:lines[close]]
	var doc yaml.Node
	if yaml.Unmarshal([]byte(yamlText), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fm
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn := m.Content[i]
		first := kn.Line // 1-based within the YAML; line 1 is lines[1]
		end := close     // index into lines
		if i+2 < len(m.Content) {
			end = m.Content[i+2].Line
		}
		// Leave blank and comment lines before the next key alone.
		for end-1 > first && blankOrComment(text, lines, end-1) {
			end--
		}
		if first < 1 || first >= close || end <= first {
			continue
		}
		fm.keys = append(fm.keys, fmKey{
			name:  strings.TrimSpace(kn.Value),
			span:  codex.Range{Start: lines[first], End: lines[end]},
			value: m.Content[i+1],
		})
	}
	return fm
}

// lineStarts are the offsets where lines begin, from start on.
func lineStarts(text string, start int) []int {
	var out []int
	for pos := start; pos < len(text); {
		out = append(out, pos)
		i := strings.IndexByte(text[pos:], '\n')
		if i < 0 {
			break
		}
		pos += i + 1
	}
	if len(text) > start && strings.HasSuffix(text, "\n") {
		out = append(out, len(text))
	}
	return out
}

func lineText(text string, lines []int, i int) string {
	end := len(text)
	if i+1 < len(lines) {
		end = lines[i+1]
	}
	return strings.TrimRight(text[lines[i]:end], "\r\n")
}

func isFenceLine(text string, lines []int, i int, fence string) bool {
	return i < len(lines) && strings.TrimRight(lineText(text, lines, i), " \t") == fence
}

func blankOrComment(text string, lines []int, i int) bool {
	l := strings.TrimSpace(lineText(text, lines, i))
	return l == "" || strings.HasPrefix(l, "#")
}

// splitProposal separates a front matter block from proposed Markdown.
// The mapping is nil when there is none or it is not valid YAML.
func splitProposal(md string) (*yaml.Node, string, error) {
	trimmed := strings.TrimLeft(md, " \t\n")
	fm := parseFrontMatter(trimmed)
	if !fm.present || !fm.closed {
		return nil, md, nil
	}
	lines := lineStarts(trimmed, 0)
	yamlText := trimmed[lines[1]:fm.closeStart]
	rest := trimmed[fm.closeStart:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[i+1:]
	} else {
		rest = ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yamlText), &doc); err != nil {
		return nil, rest, err
	}
	if len(doc.Content) == 0 {
		return nil, rest, nil
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, rest, errors.New("it is not a mapping of keys to values")
	}
	return doc.Content[0], rest, nil
}
