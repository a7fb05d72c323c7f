package codex

import "time"

// stateAhead is the state file of a cache folder being read in a
// goroutine of its own while the store opens its index (openCache), for
// wait to take or discard to let go of.
type stateAhead struct {
	dir  string
	done chan struct{}
	st   *savedState
	took time.Duration
	err  error
}

// readStateAhead starts reading the state in dir when now says the
// cache is to be used as it is (not wiped).
func readStateAhead(dir string, now bool) *stateAhead {
	a := &stateAhead{dir: dir}
	if !now {
		return a
	}
	a.done = make(chan struct{})
	go func() {
		defer close(a.done)
		start := time.Now()
		a.st, a.err = readState(dir)
		a.took = time.Since(start)
	}()
	return a
}

// wait returns the state as read, and how long reading it took; where
// nothing was read ahead, it reads it now.
func (a *stateAhead) wait() (*savedState, time.Duration, error) {
	if a.done == nil {
		start := time.Now()
		st, err := readState(a.dir)
		return st, time.Since(start), err
	}
	<-a.done
	return a.st, a.took, a.err
}

// discard waits for a read that will not be used (the index had to be
// made anew) and lets go of what it mapped.
func (a *stateAhead) discard() {
	if a.done == nil {
		return
	}
	<-a.done
	if a.st != nil {
		unmapState(a.st)
	}
	a.st, a.err = nil, nil
}
