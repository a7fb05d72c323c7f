package snapshot

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
)

// Keys are the settings of snapshots: (the docs test checks each is on
// docs/quire-yaml.md).
var Keys = []string{"every_version_days", "daily_days"}

// maxDays bounds a setting: a hundred years.
const maxDays = 36500

// PolicyFrom reads `snapshots:` from a book's settings (the book's over
// the writer's config.yaml): every_version_days is how long every
// version is kept (7), daily_days how long one a day is (90); after
// that, one a week. A value that cannot be used is a problem, and the
// default stands.
func PolicyFrom(l *settings.Loaded) (Policy, []*settings.Problem) {
	p := DefaultPolicy
	var problems []*settings.Problem
	if l == nil {
		return p, nil
	}
	files := []*settings.File{l.Book}
	if l.User != nil && l.User.Err == nil {
		files = append(files, l.User)
	}
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if f == nil {
			continue
		}
		n := codex.FollowAlias(f.Value("snapshots"))
		if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
			continue
		}
		if n.Kind != yaml.MappingNode {
			problems = append(problems, f.At(n, "snapshots is a mapping of every_version_days and daily_days, such as {every_version_days: 14}"))
			continue
		}
		for j := 0; j+1 < len(n.Content); j += 2 {
			k, v := n.Content[j], codex.FollowAlias(n.Content[j+1])
			if !slices.Contains(Keys, k.Value) {
				problems = append(problems, f.At(k, "snapshots: unknown setting %q; quire reads every_version_days and daily_days", k.Value))
				continue
			}
			days, err := strconv.Atoi(strings.TrimSpace(v.Value))
			if v.Kind != yaml.ScalarNode || err != nil || days < 1 || days > maxDays {
				problems = append(problems, f.At(v, "snapshots: %s is a whole number of days from 1 to %d, such as %s: 14", k.Value, maxDays, k.Value))
				continue
			}
			d := time.Duration(days) * 24 * time.Hour
			if k.Value == "every_version_days" {
				p.All = d
			} else {
				p.Daily = d
			}
		}
	}
	if p.Daily < p.All {
		// One a day kept for less time than every version: every
		// version is kept that long, then one a week.
		p.Daily = p.All
	}
	return p, problems
}
