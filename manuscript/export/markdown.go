package export

import (
	"bufio"
	"io"
	"strings"
)

// writeMarkdown writes the book as one Markdown file: the title, the
// byline, each chapter a level-2 heading. The text is escaped so that
// it reads back as the same prose.
func writeMarkdown(w io.Writer, b *Book, o Options) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# " + mdEscape(b.Title) + "\n")
	if b.Author != "" {
		bw.WriteString("\n*by " + mdEscape(b.Author) + "*\n")
	}
	for _, ch := range b.Chapters {
		bw.WriteString("\n## " + mdEscape(ch.Title) + "\n")
		for _, bl := range ch.Blocks {
			bw.WriteString("\n")
			switch bl.Kind {
			case SceneBreak:
				// * * * reads back as a rule; the manuscript's # is escaped
				// so that it is not an empty heading.
				bw.WriteString(mdEscapeStart(o.Preset.sceneMark()) + "\n")
				continue
			case Quote:
				bw.WriteString(strings.Repeat("> ", bl.Depth))
			case Item:
				bw.WriteString(strings.Repeat("   ", bl.Depth-1))
				switch {
				case bl.Marker == "•":
					bw.WriteString("- ")
				case bl.Marker != "":
					bw.WriteString(bl.Marker + " ")
				default:
					bw.WriteString("   ")
				}
			}
			bw.WriteString(mdRuns(bl.Runs, bl.Kind, bl.Depth))
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}

// mdRuns writes runs as Markdown emphasis; a hard break continues the
// block's quote or list indentation on the next line.
func mdRuns(runs []Run, k Kind, depth int) string {
	var sb strings.Builder
	cont := "\n"
	switch k {
	case Quote:
		cont = "\n" + strings.Repeat("> ", depth)
	case Item:
		cont = "\n" + strings.Repeat("   ", depth)
	}
	for i, r := range runs {
		text := mdEscape(r.Text)
		if i == 0 {
			text = mdEscapeStart(text)
		}
		// Emphasis markers hug the words: spaces go outside them.
		lead := len(text) - len(strings.TrimLeft(text, " "))
		trail := len(text) - len(strings.TrimRight(text, " "))
		core := strings.TrimSpace(text)
		mark := ""
		switch {
		case core == "":
		case r.Emph && r.Strong:
			mark = "***"
		case r.Strong:
			mark = "**"
		case r.Emph:
			mark = "*"
		}
		sb.WriteString(text[:lead])
		sb.WriteString(mark + core + mark)
		sb.WriteString(text[len(text)-trail:])
		if r.Break && i < len(runs)-1 {
			sb.WriteString("\\" + cont)
		}
	}
	return sb.String()
}

// mdEscaper escapes the characters that make Markdown inline markup.
var mdEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `[`, `\[`, `]`, `\]`, `<`, `\<`, `&`, `\&`)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// mdEscapeStart escapes what would make a paragraph's first characters
// a heading, quote, list item or rule.
func mdEscapeStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '>', '-', '+', '=', '|', '~':
		return `\` + s
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}
