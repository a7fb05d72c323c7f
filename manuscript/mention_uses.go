package manuscript

import (
	"maps"
	"sync"
)

// How often the whole book mentions an entry is asked on every edit (the
// name-spelling check asks it of each entry a suspect word is near), and
// walking every chapter for it costs tens of microseconds at hundreds of
// chapters. An index answers from the counts the index it was made from
// had worked out, brought up to date by the chapters that changed
// between the two, and works out only what neither knew.

// entryUses are the whole book's mention counts of the entries asked
// about, for one index.
type entryUses struct {
	mu    sync.Mutex
	known map[string]int
	// carried are the counts the earlier index knew; removed and added
	// are its scans this index no longer holds and this index's scans it
	// did not hold.
	carried        map[string]int
	removed, added []*unitMentions
}

// carryUses starts ix's counts from prev's, when prev found names as ix
// does and most chapters are the same; otherwise ix counts afresh.
func (ix *MentionIndex) carryUses(prev *MentionIndex) {
	ix.uses = &entryUses{}
	if prev == nil || prev.uses == nil || !prev.findsAs(ix.matcher) {
		return
	}
	prev.uses.mu.Lock()
	carried := maps.Clone(prev.uses.known)
	prev.uses.mu.Unlock()
	if len(carried) == 0 {
		return
	}
	var removed, added []*unitMentions
	for path, old := range prev.units {
		if now, ok := ix.units[path]; !ok || !sameScan(old, now) {
			removed = append(removed, old)
		}
	}
	for path, now := range ix.units {
		if old, ok := prev.units[path]; !ok || !sameScan(old, now) {
			added = append(added, now)
		}
	}
	if max(len(removed), len(added)) > len(ix.units)/2 {
		return
	}
	ix.uses.carried, ix.uses.removed, ix.uses.added = carried, removed, added
}

// sameScan reports whether two scans count the same mentions: one scan,
// or one moved to the unit's new place in the book.
func sameScan(a, b *unitMentions) bool {
	if a == b {
		return true
	}
	if len(a.counts) != len(b.counts) || a.unit.Text != b.unit.Text {
		return false
	}
	return len(a.counts) == 0 || &a.counts[0] == &b.counts[0]
}

// Uses is how many mentions of an entry the indexed units hold.
func (ix *MentionIndex) Uses(entryID string) int {
	u := ix.uses
	if u == nil {
		return ix.countUses(entryID)
	}
	u.mu.Lock()
	n, ok := u.known[entryID]
	carried, wasCarried := u.carried[entryID]
	u.mu.Unlock()
	if ok {
		return n
	}
	if wasCarried {
		place := ix.placeOf(entryID)
		n = carried
		for _, um := range u.removed {
			n -= um.countOf(place, entryID)
		}
		for _, um := range u.added {
			n += um.countOf(place, entryID)
		}
	} else {
		n = ix.countUses(entryID)
	}
	u.mu.Lock()
	if u.known == nil {
		u.known = map[string]int{}
	}
	u.known[entryID] = n
	u.mu.Unlock()
	return n
}

// countUses walks every unit for an entry's count.
func (ix *MentionIndex) countUses(entryID string) int {
	n := 0
	ix.eachCount(entryID, func(_ *Unit, c EntryCount) { n += c.Count })
	return n
}

// countOf is the entry's count in um; place is its place in the
// matcher's IDs (placeOf).
func (um *unitMentions) countOf(place int32, entryID string) int {
	if i, ok := um.entry(place, entryID); ok {
		return um.counts[i].Count
	}
	return 0
}
