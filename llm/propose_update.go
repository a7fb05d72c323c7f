package llm

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// fileText is one file an update may edit.
type fileText struct {
	path string
	text string
}

// plan gathers the edits of an update.
type plan struct {
	edits []FileEdit
	// bases are the texts the edits apply to, by path, for the diff.
	bases    map[string]string
	changes  []string
	warnings []string
	markdown []string
}

func (p *plan) warnf(format string, args ...any) {
	p.warnings = append(p.warnings, fmt.Sprintf(format, args...))
}

func (p *plan) edit(f fileText, r codex.Range, newText, change string) {
	p.edits = append(p.edits, FileEdit{Path: f.path, Range: r, NewText: newText, BaseHash: HashText(f.text)})
	if p.bases == nil {
		p.bases = map[string]string{}
	}
	p.bases[f.path] = f.text
	line, _ := codex.LineColumn(f.text, r.Start)
	p.changes = append(p.changes, fmt.Sprintf("%s (%s, line %d)", change, f.path, line))
}

func (b *Book) proposeUpdate(store *Proposals, tool string, t codex.Type, args updateArgs) (any, []string, error) {
	if err := checkMarkdownSize("proposedMarkdown", args.ProposedMarkdown); err != nil {
		return nil, nil, err
	}
	name, err := checkName(args.Name)
	if err != nil {
		return nil, nil, err
	}
	summary, err := checkSummary(args.ChangeSummary)
	if err != nil {
		return nil, nil, err
	}
	target := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(args.TargetSection), "#"))
	if utf8.RuneCountInString(target) > maxSectionChars || strings.ContainsAny(target, "\r\n") {
		return nil, nil, Errorf(CodeInvalidArguments, "targetSection must be one heading of at most %d characters", maxSectionChars)
	}
	md := strings.ReplaceAll(args.ProposedMarkdown, "\r\n", "\n")
	if strings.TrimSpace(md) == "" {
		return nil, nil, Errorf(CodeInvalidArguments, "proposedMarkdown is empty")
	}
	if b == nil || b.Store == nil {
		return nil, nil, Errorf(CodeToolFailed, "no codex is open for this turn")
	}
	e, err := b.resolveExact(t, name)
	if err != nil {
		return nil, nil, err
	}

	var p plan
	entryFile := fileText{path: e.ID, text: e.Source}
	pfm, body, fmErr := splitProposal(md)
	if fmErr != nil {
		p.warnf("the front matter of proposedMarkdown is not valid YAML (%v); it was left out", fmErr)
	}
	body = strings.Trim(body, "\n")
	if strings.TrimSpace(body) == "" {
		body = ""
	}
	if target == "" {
		if lvl, heading, ok := headingLine(firstLine(body)); ok && lvl > 0 {
			target = heading
		} else if body != "" {
			return nil, nil, Errorf(CodeInvalidArguments, "targetSection is empty; name the section to change, or start proposedMarkdown with its heading")
		}
	}
	isRole := codex.Normalize(target) == "role"
	character := e.Type == codex.TypeCharacter

	cur := parseFrontMatter(e.Source)
	fieldKey := ""
	var sec codex.Section
	var secFile fileText
	found := false
	if target != "" {
		if s, ok := e.Section(target); ok {
			sec, secFile, found = s, entryFile, true
			if e.Soul != nil && hasSection(e.Soul.Sections, target) {
				p.warnf("both %s and %s have a section %q; this proposal changes the one in %s", e.ID, e.Soul.ID, target, e.ID)
			}
		} else if e.Soul != nil && hasSection(e.Soul.Sections, target) {
			for _, s := range e.Soul.Sections {
				if codex.Normalize(s.Heading) == codex.Normalize(target) {
					sec, secFile, found = s, fileText{path: e.Soul.ID, text: e.Soul.Source}, true
					break
				}
			}
		} else if k, ok := cur.scalarKey(target); ok {
			fieldKey = k
		}
	}

	done := ""
	switch {
	case fieldKey != "":
		if body != "" || mappingValue(pfm, fieldKey) == nil {
			if err := b.proposeField(&p, e, entryFile, cur, fieldKey, body); err != nil {
				return nil, nil, err
			}
			done = fieldKey
		}
	case found:
		if err := proposeSection(&p, e, secFile, sec, body, character && !isRole); err != nil {
			return nil, nil, err
		}
	case body != "":
		proposeNewSection(&p, e, entryFile, target, body, character && !isRole)
	}

	if pfm != nil {
		b.proposeFrontMatter(&p, e, entryFile, cur, pfm, done, character && !isRole && codex.Normalize(fieldKey) != "role")
	}
	if len(p.edits) == 0 {
		msg := "nothing is left to propose"
		if len(p.warnings) > 0 {
			msg += ": " + strings.Join(p.warnings, "; ")
		}
		return nil, nil, Errorf(CodeInvalidArguments, "%s", msg)
	}
	sort.SliceStable(p.edits, func(i, j int) bool {
		if p.edits[i].Path != p.edits[j].Path {
			return p.edits[i].Path < p.edits[j].Path
		}
		return p.edits[i].Range.Start < p.edits[j].Range.Start
	})

	// Check the result still reads as the same entry.
	if after, err := ApplyEdits(e.Source, editsOf(p.edits, e.ID)); err != nil {
		return nil, nil, fmt.Errorf("proposal edits do not apply: %w", err)
	} else if ne, _ := codex.Parse(e.ID, []byte(after), e.Type); ne == nil || ne.Name != e.Name {
		p.warnf("after this change the entry would no longer be named %q", e.Name)
	}

	main := e.ID
	if found {
		main = secFile.path
	}
	base := e.Source
	if main != e.ID && e.Soul != nil {
		base = e.Soul.Source
	}
	diff, err := ProposalDiff(p.edits, p.bases)
	if err != nil {
		return nil, nil, fmt.Errorf("proposal diff: %w", err)
	}
	prop := store.Add(Proposal{
		Diff:          diff,
		Tool:          tool,
		Kind:          ProposalUpdate,
		EntryType:     e.Type,
		Name:          e.Name,
		ChangeSummary: summary,
		Path:          main,
		BaseHash:      HashText(base),
		Edits:         p.edits,
		Markdown:      strings.Join(p.markdown, "\n"),
		Warnings:      p.warnings,
		Created:       time.Now(),
	})
	res := proposalResult{
		ProposalID: prop.ID, Status: proposalStatus, Kind: prop.Kind, EntryType: prop.EntryType,
		Name: prop.Name, Path: prop.Path, Changes: p.changes,
	}
	res.Markdown, res.MarkdownClipped = clipPreview(prop.Markdown)
	return res, slices.Clone(p.warnings), nil
}

func editsOf(edits []FileEdit, file string) []FileEdit {
	var out []FileEdit
	for _, e := range edits {
		if e.Path == file {
			out = append(out, e)
		}
	}
	return out
}

func clipPreview(s string) (string, bool) {
	if len(s) <= maxPreviewBytes {
		return s, false
	}
	cut := maxPreviewBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

func hasSection(secs []codex.Section, heading string) bool {
	want := codex.Normalize(heading)
	for _, s := range secs {
		if codex.Normalize(s.Heading) == want {
			return true
		}
	}
	return false
}

// eolOf is the line break a file uses.
func eolOf(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

func withEOL(s, eol string) string {
	if eol == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", eol)
}

// proposeSection replaces the content of sec in f with body.
func proposeSection(p *plan, e *codex.Entry, f fileText, sec codex.Section, body string, keepRole bool) error {
	if body == "" {
		return Errorf(CodeInvalidArguments, "proposedMarkdown has no text for section %q", sec.Heading)
	}
	lvl, heading, startsWithHeading := headingLine(firstLine(body))
	level := sec.Level
	if startsWithHeading {
		level = lvl
	}
	body = narrowBody(p, body, startsWithHeading, level, sec.Heading, keepRole)
	secs := e.Sections
	if f.path != e.ID && e.Soul != nil {
		secs = e.Soul.Sections
	}
	var lost []string
	for _, s := range secs {
		if s.Range.Start > sec.Range.Start && s.Range.Start < sec.Range.End && !bodyHasHeading(body, s.Heading) {
			lost = append(lost, s.Heading)
		}
	}
	if len(lost) > 0 {
		p.warnf("section %q holds the subsections %s, which this proposal replaces too: check nothing is lost",
			sec.Heading, quoteList(lost))
	}
	eol := eolOf(f.text)
	tail := "\n"
	if sec.Range.End < len(f.text) {
		tail = "\n\n"
	}
	if startsWithHeading {
		if codex.Normalize(heading) != codex.Normalize(sec.Heading) {
			p.warnf("the proposal renames section %q to %q", sec.Heading, heading)
		}
		p.edit(f, sec.Range, withEOL(body+tail, eol), fmt.Sprintf("replace section %q with its heading", sec.Heading))
		p.markdown = append(p.markdown, body)
		return nil
	}
	start := sec.HeadingRange.End
	if start < len(f.text) && f.text[start] == '\r' {
		start++
	}
	if start < len(f.text) && f.text[start] == '\n' {
		start++
	}
	if start > sec.Range.End {
		start = sec.Range.End
	}
	p.edit(f, codex.Range{Start: start, End: sec.Range.End}, withEOL("\n"+body+tail, eol),
		fmt.Sprintf("replace the text of section %q", sec.Heading))
	p.markdown = append(p.markdown, f.text[sec.HeadingRange.Start:sec.HeadingRange.End]+"\n\n"+body)
	return nil
}

// proposeNewSection appends body as a new section at the end of f.
func proposeNewSection(p *plan, e *codex.Entry, f fileText, target, body string, keepRole bool) {
	lvl, heading, startsWithHeading := headingLine(firstLine(body))
	level := 2
	if startsWithHeading {
		level = lvl
		if target == "" {
			target = heading
		}
	}
	body = narrowBody(p, body, startsWithHeading, level, target, keepRole)
	if !startsWithHeading {
		body = "## " + target + "\n\n" + body
	}
	var heads []string
	for _, s := range e.Sections {
		heads = append(heads, s.Heading)
	}
	if len(heads) > 0 {
		p.warnf("%s has no section %q; it is proposed as a new section at the end (its sections: %s)", f.path, target, quoteList(heads))
	} else {
		p.warnf("%s has no section %q; it is proposed as a new section at the end", f.path, target)
	}
	sep := ""
	switch {
	case f.text == "" || strings.HasSuffix(f.text, "\n\n") || strings.HasSuffix(f.text, "\r\n\r\n"):
	case strings.HasSuffix(f.text, "\n"):
		sep = "\n"
	default:
		sep = "\n\n"
	}
	p.edit(f, codex.Range{Start: len(f.text), End: len(f.text)}, withEOL(sep+body+"\n", eolOf(f.text)),
		fmt.Sprintf("add a new section %q at the end", target))
	p.markdown = append(p.markdown, body)
}

// narrowBody keeps a section proposal to its section: text past a
// heading at the section's level or higher is kept out, and so, when
// keepRole is set, is a Role subsection (a character's role changes only
// when that is what was asked).
func narrowBody(p *plan, body string, startsWithHeading bool, level int, target string, keepRole bool) string {
	lines := strings.SplitAfter(body, "\n")
	var out []string
	fence := ""
	skipping := 0 // level of a Role subsection being left out
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			if skipping == 0 {
				out = append(out, line)
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			if skipping == 0 {
				out = append(out, line)
			}
			continue
		}
		if lvl, h, ok := headingLine(strings.TrimRight(line, "\n")); ok && !(i == 0 && startsWithHeading) {
			if skipping > 0 && lvl <= skipping {
				skipping = 0
			}
			if lvl <= level {
				var rest []string
				for _, l := range lines[i:] {
					if lv, hh, ok := headingLine(strings.TrimRight(l, "\n")); ok && lv <= level {
						rest = append(rest, hh)
					}
				}
				p.warnf("the proposal goes on past section %q (%s); only %q is proposed, the rest was kept out: propose each section separately",
					target, quoteList(rest), target)
				break
			}
			if keepRole && codex.Normalize(h) == "role" {
				p.warnf("the proposal rewrites the character's %q subsection, which was not asked for; it was kept out (propose it with targetSection %q)", h, "Role")
				skipping = lvl
				continue
			}
		}
		if skipping == 0 {
			out = append(out, line)
		}
	}
	return strings.Trim(strings.Join(out, ""), "\n")
}

func bodyHasHeading(body, heading string) bool {
	want := codex.Normalize(heading)
	for _, line := range strings.Split(body, "\n") {
		if _, h, ok := headingLine(line); ok && codex.Normalize(h) == want {
			return true
		}
	}
	return false
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// headingLine reads an ATX heading line.
func headingLine(line string) (level int, text string, ok bool) {
	m := atxHeading.FindStringSubmatch(strings.TrimRight(line, "\r"))
	if m == nil {
		return 0, "", false
	}
	return len(m[1]), strings.TrimSpace(m[2]), true
}

// proposeField sets a front matter field from the first paragraph of
// body: a field is a short value, and the rest is kept out.
func (b *Book) proposeField(p *plan, e *codex.Entry, f fileText, cur *frontMatter, key, body string) error {
	if isLocked(e, key) {
		return Errorf(CodeInvalidArguments, "the field %q of %s is locked by the writer; a proposal may not change it", key, e.Name)
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
		return Errorf(CodeInvalidArguments, "proposedMarkdown has no value for the field %q", key)
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
func (b *Book) proposeFrontMatter(p *plan, e *codex.Entry, f fileText, cur *frontMatter, pfm *yaml.Node, done string, keepRole bool) {
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

// mappingValue is the value of key in a YAML mapping, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(strings.TrimSpace(m.Content[i].Value), key) {
			return m.Content[i+1]
		}
	}
	return nil
}
