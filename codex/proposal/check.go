package proposal

import (
	"strings"
	"unicode/utf8"
)

// Bounds of a request for a proposal.
const (
	// MaxMarkdownBytes bounds each Markdown argument; larger is TooLarge.
	MaxMarkdownBytes = 20000
	// MaxChangeSummaryChars bounds changeSummary.
	MaxChangeSummaryChars = 1000
	// MaxSectionChars bounds targetSection.
	MaxSectionChars = 200
	// MaxNameChars bounds an entry's name.
	MaxNameChars = 200
	// maxFieldValueChars bounds one value of fields or customFields.
	maxFieldValueChars = 2000
	// maxCustomFields bounds how many custom fields a create may set.
	maxCustomFields = 50
	// maxSlugRunes bounds the file name a create proposes.
	maxSlugRunes = 60
	// maxPathSuffix bounds the -2, -3… tried for a free path.
	maxPathSuffix = 100
	// maxCandidates bounds the names a failed resolve suggests.
	maxCandidates = 5
)

// checkName validates a name argument.
func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errorf(Invalid, "name is empty")
	case utf8.RuneCountInString(name) > MaxNameChars:
		return "", errorf(Invalid, "name is longer than %d characters", MaxNameChars)
	case strings.ContainsAny(name, "\r\n\x00"):
		return "", errorf(Invalid, "name must be one line")
	}
	return name, nil
}

func checkSummary(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", errorf(Invalid, "changeSummary is empty; say in a sentence what changes and why")
	case utf8.RuneCountInString(s) > MaxChangeSummaryChars:
		return "", errorf(Invalid, "changeSummary is longer than %d characters", MaxChangeSummaryChars)
	}
	return s, nil
}

// CheckMarkdownSize refuses a Markdown argument over MaxMarkdownBytes
// (TooLarge), naming it by field.
func CheckMarkdownSize(field, s string) error {
	if len(s) > MaxMarkdownBytes {
		return errorf(TooLarge, "%s is %d bytes, more than the %d allowed; propose a smaller change",
			field, len(s), MaxMarkdownBytes)
	}
	return nil
}
