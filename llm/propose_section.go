package llm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/toolloop"
)

// How an update's Markdown lands in an entry's body: replacing the target
// section, or adding it at the end, with the proposal narrowed to that one
// section so it cannot silently rewrite the others.

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
		return toolloop.Errorf(toolloop.CodeInvalidArguments, "proposedMarkdown has no text for section %q", sec.Heading)
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
