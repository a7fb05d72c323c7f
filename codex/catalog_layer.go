package codex

import "maps"

// layer is a map read through to a base map that several catalogs
// share: a catalog made by With from another holds only what it changed
// (own) and what it deleted (gone), not a copy of every entry. A book
// read with its series merges thousands of series entries with a few of
// its own; each book of a workspace then pays for its few, not for a
// copy of the series' maps. The zero layer is empty.
type layer[K comparable, V any] struct {
	base map[K]V
	// read, when set, reads the base instead of base: another catalog's
	// map, read through (Catalog.copied). Such a layer has no each.
	read func(K) (V, bool)
	own  map[K]V
	gone map[K]struct{}
}

// inBase is k's value in the base.
func (l *layer[K, V]) inBase(k K) (V, bool) {
	if l.read != nil {
		return l.read(k)
	}
	v, ok := l.base[k]
	return v, ok
}

// layerOf is a layer over m, which must no longer change.
func layerOf[K comparable, V any](m map[K]V) layer[K, V] { return layer[K, V]{base: m} }

// get is k's value and whether k is there.
func (l *layer[K, V]) get(k K) (V, bool) {
	if v, ok := l.own[k]; ok {
		return v, true
	}
	if _, ok := l.gone[k]; ok {
		var zero V
		return zero, false
	}
	return l.inBase(k)
}

// at is k's value, the zero value when k is not there.
func (l *layer[K, V]) at(k K) V {
	v, _ := l.get(k)
	return v
}

// set makes k's value v, in this layer only.
func (l *layer[K, V]) set(k K, v V) {
	if l.own == nil {
		l.own = map[K]V{}
	}
	l.own[k] = v
}

// del removes k, in this layer only.
func (l *layer[K, V]) del(k K) {
	delete(l.own, k)
	if _, ok := l.inBase(k); ok {
		if l.gone == nil {
			l.gone = map[K]struct{}{}
		}
		l.gone[k] = struct{}{}
	}
}

// fork is a layer over the same base with this layer's changes, which
// the fork may change without touching this one.
func (l *layer[K, V]) fork() layer[K, V] {
	f := layer[K, V]{base: l.base, read: l.read}
	if len(l.own) > 0 {
		f.own = maps.Clone(l.own)
	}
	if len(l.gone) > 0 {
		f.gone = maps.Clone(l.gone)
	}
	return f
}

// changes is how many keys this layer changed over its base.
func (l *layer[K, V]) changes() int { return len(l.own) + len(l.gone) }

// each calls fn with every key and value; a layer that reads another
// catalog's map through has only its own.
func (l *layer[K, V]) each(fn func(K, V)) {
	for k, v := range l.own {
		fn(k, v)
	}
	for k, v := range l.base {
		if _, ok := l.own[k]; ok {
			continue
		}
		if _, ok := l.gone[k]; ok {
			continue
		}
		fn(k, v)
	}
}
