package codex

import (
	"context"
	"sync"
)

// RunBatches hands jobs to at most workers goroutines and returns the
// first error. Once one job fails or ctx ends, no further job starts; the
// ones already running finish before RunBatches returns. Both bleve
// indexes (the codex here, the passages in manuscript) feed their batches
// through it, so the pool and its stopping rule live in one place.
func RunBatches[J any](ctx context.Context, workers int, jobs []J, do func(J) error) error {
	work := make(chan J)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Go(func() {
			for j := range work {
				if err := do(j); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for _, j := range jobs {
		select {
		case work <- j:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	return err
}
