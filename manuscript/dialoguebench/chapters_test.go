package dialoguebench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitChapters(t *testing.T) {
	text := "THE BOOK\n\nBy Someone\n\n\nVOLUME I\n\n\nCHAPTER I\n\n\nIt began. Chapter two was found, and she\n" +
		"read it.\n\nCHAPTER II. The Second\n\nMore.\n\nPart of her meaning was plain.\n\nChapter 3: Third\n\nText.\n\n" +
		"BOOK II\n\nCHAPTER\n\n   4\n\nFour.\n\nIV.\n\nFive.\n\nCHAPTER VI he said\n"
	chs := SplitChapters(text)
	var heads []string
	for _, c := range chs {
		heads = append(heads, c.Heading)
	}
	assert.Equal(t, []string{"", "VOLUME I / CHAPTER I", "CHAPTER II. The Second", "Chapter 3: Third", "BOOK II / CHAPTER 4", "IV."}, heads)
	assert.Equal(t, 0, chs[0].Start)
	assert.Equal(t, len(text), chs[len(chs)-1].End)
	for i := 1; i < len(chs); i++ {
		assert.Equal(t, chs[i-1].End, chs[i].Start, "the chapters cover the text end to end")
	}
	assert.True(t, strings.HasPrefix(text[chs[1].Start:], "VOLUME I\n"))
	assert.True(t, strings.HasPrefix(text[chs[4].Start:], "BOOK II\n"))

	assert.Equal(t, []Chapter{{Start: 0, End: 9, Heading: "CHAPTER I"}}, SplitChapters("CHAPTER I"))
	assert.Equal(t, []Chapter{{Start: 0, End: 11}}, SplitChapters("no chapters"))
	assert.Equal(t, []Chapter{{Start: 0, End: 17, Heading: "Chapter 1"}}, SplitChapters("\n\nChapter 1\n\nText"), "white space before the first heading is no chapter")
}

// The development novels' chapters, counted by eye in each text: the
// text before the first heading (a title page) is a chapter of its own;
// a VOLUME or PART line opens the chapter after it.
func TestSplitChaptersOfTheDevelopmentNovels(t *testing.T) {
	dir := pdncDir(t)
	for novel, want := range map[string]struct {
		chapters    int
		first, last string
		frontMatter bool
	}{
		// Title page; VOLUME I-III with CHAPTER I-XVIII, I-XVIII, I-XIX.
		"Emma": {56, "VOLUME I / CHAPTER I", "CHAPTER XIX", true},
		// CHAPTER I.-LXI. as three volumes of I.-XXIII., I.-XIX., I.-XIX.
		"PrideAndPrejudice": {61, "CHAPTER I.", "CHAPTER XIX.", false},
		// Title page; Chapter 1-24.
		"Persuasion": {25, "Chapter 1", "Chapter 24", true},
		// PART ONE (Chapter I-VII), Part Two (VIII-XX); "Chapter two was
		// found, and she glanced at its opening sentences." is prose.
		"ARoomWithAView": {20, "PART ONE / Chapter I: The Bertolini", "Chapter XX: The End of the Middle Ages", false},
		// CHAPTER I.-XII., each with its title on the next line.
		"AlicesAdventuresInWonderland": {12, "CHAPTER I.", "CHAPTER XII.", false},
		// Title; CHAPTER I.-XXXVIII. with their titles.
		"AnneOfGreenGables": {39, "CHAPTER I. Mrs. Rachel Lynde is Surprised", "CHAPTER XXXVIII. The Bend in the road", true},
		// Title and author; CHAPTER I.-XXVIII.
		"TheInvisibleMan": {29, "CHAPTER I.", "CHAPTER XXVIII.", true},
		// Chapter I-XII.
		"TheSignOfTheFour": {12, "Chapter I", "Chapter XII", false},
	} {
		b, err := LoadPDNC(dir, novel)
		require.NoError(t, err)
		chs := SplitChapters(b.Text)
		require.Len(t, chs, want.chapters, novel)
		i := 0
		if want.frontMatter {
			assert.Equal(t, "", chs[0].Heading, novel)
			i = 1
		}
		assert.Equal(t, want.first, chs[i].Heading, novel)
		assert.Equal(t, want.last, chs[len(chs)-1].Heading, novel)
		for _, c := range chs[i:] {
			assert.NotEmpty(t, c.Heading, novel)
		}
	}
}
