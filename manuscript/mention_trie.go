package manuscript

// trieEdge is a child of a node with few.
type trieEdge struct {
	key   string
	child int32
}

// fewEdges is how many children a node keeps in a list before a map.
const fewEdges = 8

// hasChildren reports whether a form goes on past n.
func (n *trieNode) hasChildren() bool { return len(n.few) > 0 || len(n.many) > 0 }

// child is n's child by key.
func (n *trieNode) child(key []byte) (int32, bool) {
	if n.many != nil {
		c, ok := n.many[string(key)]
		return c, ok
	}
	for i := range n.few {
		if n.few[i].key == string(key) {
			return n.few[i].child, true
		}
	}
	return 0, false
}

// put adds the child c by key, which n does not have yet.
func (n *trieNode) put(key string, c int32) {
	switch {
	case n.many != nil:
		n.many[key] = c
	case len(n.few) < fewEdges:
		n.few = append(n.few, trieEdge{key, c})
	default:
		n.many = make(map[string]int32, 2*fewEdges)
		for _, e := range n.few {
			n.many[e.key] = e.child
		}
		n.many[key] = c
		n.few = nil
	}
}

// children calls yield with each child of n.
func (n *trieNode) children(yield func(key string, c int32)) {
	for k, c := range n.many {
		yield(k, c)
	}
	for _, e := range n.few {
		yield(e.key, e.child)
	}
}
