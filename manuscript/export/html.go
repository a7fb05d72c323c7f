package export

import (
	"bufio"
	"html"
	"io"
	"strings"
)

// htmlStyle is the single HTML file's stylesheet, and the EPUB's.
const htmlStyle = `body { font-family: Georgia, "Times New Roman", serif; line-height: 1.5; margin: 0 auto; max-width: 36em; padding: 1em; }
h1, h2 { text-align: center; font-weight: normal; }
h2 { margin-top: 3em; page-break-before: always; }
p { margin: 0; text-indent: 1.5em; }
p.first, p.scene-break, p.byline, blockquote p, li p { text-indent: 0; }
p.scene-break { text-align: center; margin: 1em 0; }
p.byline { text-align: center; font-style: italic; }
blockquote { margin: 1em 2em; }
ul, ol { margin: 1em 0; }
`

// writeHTML writes the book as one HTML page.
func writeHTML(w io.Writer, b *Book, o Options) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("<!DOCTYPE html>\n<html lang=\"" + html.EscapeString(b.Language) + "\">\n<head>\n<meta charset=\"utf-8\">\n")
	bw.WriteString("<title>" + html.EscapeString(b.Title) + "</title>\n<style>\n" + htmlStyle + "</style>\n</head>\n<body>\n")
	bw.WriteString("<h1>" + html.EscapeString(b.Title) + "</h1>\n")
	if b.Author != "" {
		bw.WriteString("<p class=\"byline\">by " + html.EscapeString(b.Author) + "</p>\n")
	}
	for _, ch := range b.Chapters {
		bw.WriteString("<section>\n<h2>" + html.EscapeString(ch.Title) + "</h2>\n")
		writeHTMLBlocks(bw, ch.Blocks, o.Preset, "<br>")
		bw.WriteString("</section>\n")
	}
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

// writeHTMLBlocks writes blocks as HTML (or XHTML, with br "<br/>"):
// quotes of a row are gathered in one blockquote, list items in lists
// nested as deep as the Markdown's.
func writeHTMLBlocks(bw *bufio.Writer, blocks []Block, p Preset, br string) {
	// lists are the lists open, outermost first; open says whether the
	// last one has an item open.
	type list struct {
		tag  string
		open bool
	}
	var lists []list
	quote := false
	closeItem := func() {
		if n := len(lists); n > 0 && lists[n-1].open {
			bw.WriteString("</li>\n")
			lists[n-1].open = false
		}
	}
	closeLists := func(depth int) {
		for len(lists) > depth {
			closeItem()
			bw.WriteString("</" + lists[len(lists)-1].tag + ">\n")
			lists = lists[:len(lists)-1]
		}
	}
	for _, bl := range blocks {
		if bl.Kind != Item {
			closeLists(0)
		}
		if quote && bl.Kind != Quote {
			bw.WriteString("</blockquote>\n")
			quote = false
		}
		switch bl.Kind {
		case SceneBreak:
			bw.WriteString("<p class=\"scene-break\">" + html.EscapeString(p.sceneMark()) + "</p>\n")
		case Quote:
			if !quote {
				bw.WriteString("<blockquote>\n")
				quote = true
			}
			bw.WriteString("<p>" + htmlRuns(bl.Runs, br) + "</p>\n")
		case Item:
			tag := "ul"
			if strings.HasSuffix(bl.Marker, ".") {
				tag = "ol"
			}
			closeLists(bl.Depth)
			if n := len(lists); n == bl.Depth && bl.Marker != "" && lists[n-1].tag != tag {
				closeLists(n - 1)
			}
			for len(lists) < bl.Depth {
				if n := len(lists); n > 0 && !lists[n-1].open {
					bw.WriteString("<li>")
					lists[n-1].open = true
				}
				bw.WriteString("<" + tag + ">\n")
				lists = append(lists, list{tag: tag})
			}
			last := &lists[len(lists)-1]
			if bl.Marker != "" || !last.open {
				closeItem()
				bw.WriteString("<li>")
				last.open = true
			}
			bw.WriteString("<p>" + htmlRuns(bl.Runs, br) + "</p>")
		default:
			class := ""
			if bl.First && p == Reader {
				class = " class=\"first\""
			}
			bw.WriteString("<p" + class + ">" + htmlRuns(bl.Runs, br) + "</p>\n")
		}
	}
	closeLists(0)
	if quote {
		bw.WriteString("</blockquote>\n")
	}
}

// htmlRuns writes runs as escaped text in em and strong.
func htmlRuns(runs []Run, br string) string {
	var sb strings.Builder
	for _, r := range runs {
		t := html.EscapeString(r.Text)
		if r.Emph {
			t = "<em>" + t + "</em>"
		}
		if r.Strong {
			t = "<strong>" + t + "</strong>"
		}
		sb.WriteString(t)
		if r.Break {
			sb.WriteString(br)
		}
	}
	return sb.String()
}
