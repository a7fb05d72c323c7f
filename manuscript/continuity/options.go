package continuity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue"
)

// Stable diagnostic codes, one per check.
const (
	CodeTraitContradiction = "trait-contradiction"
	CodeAfterDeath         = "after-death"
	CodeTimelineOrder      = "timeline-order"
	CodeUnknownReference   = "unknown-reference"
	CodeStyleRule          = "style-rule"
	CodeNameSpelling       = "name-spelling"
	CodeParagraphBreaks    = "paragraph-breaks"
)

// Checks lists every check by code, in the order diagnostics report them.
var Checks = []string{CodeTraitContradiction, CodeAfterDeath, CodeTimelineOrder, CodeUnknownReference, CodeStyleRule, CodeNameSpelling, CodeParagraphBreaks}

// DefaultTraits are the custom fields that describe how an entity looks;
// quire.yaml may add more.
var DefaultTraits = []string{"eyes", "hair"}

// Level is how a check reports: off, or a severity.
type Level string

const (
	LevelOff     Level = "off"
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelInfo    Level = "info"
)

// defaultLevels: slips of canon are warnings (the prose may be right and
// the codex stale); a style rule is advice.
var defaultLevels = map[string]Level{
	CodeTraitContradiction: LevelWarning,
	CodeAfterDeath:         LevelWarning,
	CodeTimelineOrder:      LevelWarning,
	CodeUnknownReference:   LevelWarning,
	CodeStyleRule:          LevelInfo,
	CodeNameSpelling:       LevelWarning,
	CodeParagraphBreaks:    LevelWarning,
}

// Options are the book's settings for continuity, as quire.yaml gives
// them:
//
//	traits: [scar, voice]          # custom fields that count as traits, besides eyes and hair
//	checks: {after-death: off, style-rule: warning}
//	spelling: [Sevrine]            # words name-spelling never flags
//
// The zero value runs every check at its default level.
type Options struct {
	// Traits extends DefaultTraits.
	Traits []string `yaml:"traits,omitempty" json:"traits,omitempty"`
	// Checks re-levels checks by code; a check not named keeps its
	// default level.
	Checks map[string]Level `yaml:"checks,omitempty" json:"checks,omitempty"`
	// Spelling are words the writer said are no misspelling of a name.
	Spelling []string `yaml:"spelling,omitempty" json:"spelling,omitempty"`
	// Dialogue are the book's dialogue: settings (its quotation marks),
	// by which after-death finds who speaks; the zero value guesses the
	// convention chapter by chapter. They are quire.yaml's dialogue:
	// section, which dialogue.ReadSettings reads and checks.
	Dialogue dialogue.Options `yaml:"-" json:"-"`
	// Scenes are where the book's chapters split into scenes, whose
	// notes may give their own story time (quire.yaml's outline:
	// section, which manuscript.ReadOutlineSettings reads and checks).
	Scenes manuscript.SceneRules `yaml:"-" json:"-"`
}

// Validate explains, in a writer's words, each check name or level the
// options cannot use; the settings reader reports these as problems of
// quire.yaml. Unusable entries are ignored by the checks.
func (o Options) Validate() []string {
	var out []string
	keys := make([]string, 0, len(o.Checks))
	for k := range o.Checks {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := defaultLevels[k]; !ok {
			out = append(out, fmt.Sprintf("checks: %q is no check; the checks are %s", k, strings.Join(Checks, ", ")))
			continue
		}
		if _, ok := o.Checks[k].severity(); !ok && o.Checks[k] != LevelOff {
			out = append(out, fmt.Sprintf("checks: %s: %q is no level; use off, error, warning or info", k, o.Checks[k]))
		}
	}
	return out
}

// level is the level a check runs at.
func (o Options) level(code string) Level {
	if l, ok := o.Checks[code]; ok {
		l = Level(strings.ToLower(strings.TrimSpace(string(l))))
		if _, valid := l.severity(); valid || l == LevelOff {
			return l
		}
	}
	return defaultLevels[code]
}

// Enabled reports whether a check runs.
func (o Options) Enabled(code string) bool { return o.level(code) != LevelOff }

// Severity is the severity a check reports with.
func (o Options) Severity(code string) codex.Severity {
	s, _ := o.level(code).severity()
	return s
}

func (l Level) severity() (codex.Severity, bool) {
	switch Level(strings.ToLower(string(l))) {
	case LevelError:
		return codex.SeverityError, true
	case LevelWarning:
		return codex.SeverityWarning, true
	case LevelInfo:
		return codex.SeverityInfo, true
	}
	return codex.SeverityWarning, false
}

// traits is the set of trait fields, lower-cased.
func (o Options) traits() []string {
	out := slices.Clone(DefaultTraits)
	for _, t := range o.Traits {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
