package book

import "sync"

// oneAtATime has the callbacks that the book's codex and its series'
// codex may call while they open side by side called one at a time, so
// that a caller's callbacks need not be safe for concurrent use (the
// command line writes its warnings to one stderr).
func (o Options) oneAtATime() Options {
	var mu sync.Mutex
	if f := o.OnFallback; f != nil {
		o.OnFallback = func(why string) {
			mu.Lock()
			defer mu.Unlock()
			f(why)
		}
	}
	if f := o.OnWatchFallback; f != nil {
		o.OnWatchFallback = func(why string) {
			mu.Lock()
			defer mu.Unlock()
			f(why)
		}
	}
	if f := o.OnLocked; f != nil {
		o.OnLocked = func() {
			mu.Lock()
			defer mu.Unlock()
			f()
		}
	}
	if f := o.OnSeriesFailed; f != nil {
		o.OnSeriesFailed = func(err error) {
			mu.Lock()
			defer mu.Unlock()
			f(err)
		}
	}
	if f := o.OnSeriesUntrusted; f != nil {
		o.OnSeriesUntrusted = func(root, series string, err error) {
			mu.Lock()
			defer mu.Unlock()
			f(root, series, err)
		}
	}
	return o
}
