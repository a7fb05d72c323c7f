package codex

import (
	"fmt"
	"slices"
	"strings"
)

// AsOf is an entry as it stands at one point of the story: its fields
// with every progression that has been reached applied in order.
type AsOf struct {
	// Entry is a copy of the entry with the replaced fields; the base
	// entry is never modified.
	Entry *Entry
	// Status is the status as of that point, lower-cased as written:
	// confirmed, tentative, or a state of life such as dead.
	Status string
	// Notes are the lines of canon the applied progressions add, in
	// order.
	Notes []string
	// Applied are the progressions that hold, in the order written.
	Applied []Progression
}

// Dead reports whether the entry is dead (or deceased) as of that point.
func (a AsOf) Dead() bool {
	return a.Status == "dead" || a.Status == "deceased"
}

// Field is a custom field's value as of that point, as text; empty when
// the entry has no such field or it is not a single value.
func (a AsOf) Field(key string) string {
	v, ok := a.Entry.Custom.Get(key)
	if !ok {
		return ""
	}
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// Apply is e as of a point of the story: reached says which of the
// story's progressions hold there. Progressions apply in the order
// written, so a later one replaces what an earlier one set.
func (s Story) Apply(e *Entry, reached func(i int, p Progression) bool) AsOf {
	out := AsOf{Entry: e, Status: s.Status}
	if out.Status == "" {
		out.Status = string(e.Status)
	}
	var c *Entry
	for i, p := range s.Progressions {
		if !reached(i, p) {
			continue
		}
		if c == nil {
			cp := *e
			cp.Custom = slices.Clone(e.Custom)
			c = &cp
		}
		out.Applied = append(out.Applied, p)
		if p.Note != "" {
			out.Notes = append(out.Notes, p.Note)
		}
		for _, f := range p.Changes {
			applyChange(c, &out, f)
		}
	}
	if c != nil {
		out.Entry = c
	}
	return out
}

// applyChange replaces one field of c. Built-in fields take text as
// Parse does; anything else is a custom field, replaced where it exists
// (whatever its case) and added where it does not.
func applyChange(c *Entry, out *AsOf, f Field) {
	text, isText := f.Value.(string)
	text = strings.TrimSpace(text)
	switch strings.ToLower(f.Key) {
	case "status":
		if isText {
			out.Status = strings.ToLower(text)
			if s := Status(out.Status); s == StatusConfirmed || s == StatusTentative {
				c.Status = s
			}
		}
		return
	case "name":
		if isText && text != "" {
			c.Name = text
		}
		return
	case "title":
		if isText && text != "" {
			c.Title = text
		}
		return
	case "summary", "description":
		if isText {
			c.Summary = text
		}
		return
	case "aliases", "alias":
		c.Aliases = textList(f.Value)
		return
	case "tags", "tag":
		c.Tags = textList(f.Value)
		return
	}
	for i, old := range c.Custom {
		if strings.EqualFold(old.Key, f.Key) {
			c.Custom[i] = Field{Key: old.Key, Value: f.Value}
			return
		}
	}
	c.Custom = append(c.Custom, f)
}

// textList reads a list of text values, or one value as a list of one.
func textList(v any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			out = append(out, s)
		}
	case []any:
		for _, item := range v {
			if s, ok := item.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}
