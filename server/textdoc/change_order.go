package textdoc

import (
	"cmp"
	"slices"

	"go.lsp.dev/protocol"
)

// Some editors send a burst of didChange notifications out of order:
// Helix 25.01 sends each keystroke's change from a task of its own, and
// typing "Teodra Quill" reached quire as versions 14, 20, 15, 21, 22, 16…
// Each change is relative to the text of the version before it, so
// applied as they come they garble the text (or fail, and the writer's
// keystrokes are lost), and every diagnostic after is of a text the
// writer never wrote. ChangeOrder applies changes in version order
// instead: a change whose version is ahead of the text waits when it does
// not apply yet, and one that arrives after a newer one is applied to
// the text of its own version, the newer changes again on top.

// maxHistory and maxHistoryBytes bound the versions kept to reorder
// against: a burst is a few keystrokes, and a large chapter's versions
// are not all kept.
const (
	maxHistory      = 32
	maxHistoryBytes = 8 << 20
)

// ChangeOrder is an open document's recent versions, oldest first (the
// last is the text as the editor has it), and the changes that arrived
// ahead of their turn.
type ChangeOrder struct {
	applied []versionStep
	pending []versionStep
}

// versionStep is a version of a document with the changes that made it
// from the version before.
type versionStep struct {
	doc     *Document
	version int32
	changes []protocol.TextDocumentContentChangeEvent
}

func NewChangeOrder(doc *Document) *ChangeOrder {
	return &ChangeOrder{applied: []versionStep{{doc: doc, version: doc.Version}}}
}

// Current is the document at its newest applied version.
func (o *ChangeOrder) Current() *Document { return o.applied[len(o.applied)-1].doc }

// Add takes the changes of version, in whatever order they came, and
// reports the current document. A change that does not apply to the
// text of the version just before it is an error, and nothing changes;
// one that does not apply to an older text waits for the versions
// between.
func (o *ChangeOrder) Add(uri protocol.DocumentURI, version int32, changes []protocol.TextDocumentContentChangeEvent) (*Document, error) {
	cur := o.Current()
	step := versionStep{version: version, changes: changes}
	switch {
	case version > cur.Version:
		lines, err := cur.Lines.Apply(changes)
		if err != nil {
			if version == cur.Version+1 {
				return cur, err
			}
			o.wait(step)
			return cur, nil
		}
		step.doc = &Document{URI: uri, Version: version, Text: lines.text, Lines: lines}
		o.applied = append(o.applied, step)
	default:
		// Late: after a newer version. Applied to the text of the
		// version before it, with the newer changes again on top.
		i := slices.IndexFunc(o.applied, func(s versionStep) bool { return s.version >= version })
		if i <= 0 || o.applied[i].version == version {
			// No order to restore: older than the versions kept, or a
			// version seen already (a client that does not count them).
			// Applied on top, as it comes.
			lines, err := cur.Lines.Apply(changes)
			if err != nil {
				return cur, err
			}
			step.doc = &Document{URI: uri, Version: version, Text: lines.text, Lines: lines}
			o.applied = append(o.applied, step)
			o.trim()
			return step.doc, nil
		}
		applied, pending := o.applied, slices.Clone(o.pending)
		later := slices.Clone(o.applied[i:])
		o.applied = slices.Clone(o.applied[:i])
		o.wait(step)
		for _, s := range later {
			o.wait(s)
		}
		o.applyWaiting(uri)
		if o.Current().Version < version {
			// It does not apply to its own version's text either: an
			// error, and the versions stand as they were.
			o.applied, o.pending = applied, pending
			_, err := o.applied[i-1].doc.Lines.Apply(changes)
			return cur, err
		}
	}
	o.applyWaiting(uri)
	o.trim()
	return o.Current(), nil
}

// wait keeps step until the versions before it are in; beyond the
// bound, the oldest waiting change is dropped.
func (o *ChangeOrder) wait(step versionStep) {
	step.doc = nil
	i, _ := slices.BinarySearchFunc(o.pending, step.version, func(s versionStep, v int32) int { return cmp.Compare(s.version, v) })
	o.pending = slices.Insert(o.pending, i, step)
	if len(o.pending) > maxHistory {
		o.pending = o.pending[1:]
	}
}

// applyWaiting applies the waiting changes, in version order, as long as
// they apply.
func (o *ChangeOrder) applyWaiting(uri protocol.DocumentURI) {
	for len(o.pending) > 0 {
		next, cur := o.pending[0], o.Current()
		if next.version <= cur.Version {
			o.pending = o.pending[1:]
			continue
		}
		lines, err := cur.Lines.Apply(next.changes)
		if err != nil {
			return
		}
		next.doc = &Document{URI: uri, Version: next.version, Text: lines.text, Lines: lines}
		o.applied = append(o.applied, next)
		o.pending = o.pending[1:]
	}
}

// trim drops the oldest versions beyond the bounds; the current one
// stays.
func (o *ChangeOrder) trim() {
	size := 0
	keep := len(o.applied)
	for i := len(o.applied) - 1; i >= 0; i-- {
		size += len(o.applied[i].doc.Text)
		if len(o.applied)-i > maxHistory || (size > maxHistoryBytes && i < len(o.applied)-1) {
			break
		}
		keep = len(o.applied) - i
	}
	o.applied = slices.Clone(o.applied[len(o.applied)-keep:])
}
