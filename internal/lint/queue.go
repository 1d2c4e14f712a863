package lint

import (
	"runtime"
	"sync"
)

// queue hands the files a search finds to the goroutines checking them,
// while the search goes on.
type queue struct {
	mu   sync.Mutex
	cond sync.Cond
	// jobs are the files found, in the search's order; job i is jobs[i].
	jobs []*job
	// large and small are the indexes of the jobs no checker has taken,
	// in order: the JSON documents, which can hold thousands of entries,
	// are taken first, so that one found last does not check alone at
	// the end.
	large, small []int
	// done says the search is over; err is its error.
	done bool
	err  error
	// failed is the index of the first job whose check failed, or -1.
	// A job after it is not checked: its result would not be used.
	failed int
}

// job is one file and what checking it gave.
type job struct {
	found
	index    int
	findings []Finding
	budget   *BudgetEntry
	err      error
}

func newQueue() *queue {
	q := &queue{failed: -1}
	q.cond.L = &q.mu
	return q
}

// add queues a file the search found.
func (q *queue) add(f found) {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := len(q.jobs)
	q.jobs = append(q.jobs, &job{found: f, index: i})
	if f.kind == kindMCP || f.kind == kindHooks {
		q.large = append(q.large, i)
	} else {
		q.small = append(q.small, i)
	}
	// Every waiter: a checker waiting for a file, and one waiting in
	// found for the search to end, wait on the same condition.
	q.cond.Broadcast()
}

// close ends the search, with its error.
func (q *queue) close(err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done, q.err = true, err
	q.cond.Broadcast()
}

// found waits for the search to end and returns every file it found.
func (q *queue) found() []found {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.done {
		q.cond.Wait()
	}
	out := make([]found, len(q.jobs))
	for i, j := range q.jobs {
		out[i] = j.found
	}
	return out
}

// take waits for a job no checker has taken, and returns it; nil once
// there is none and will be none.
func (q *queue) take() *job {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.err != nil {
			return nil // the search failed: its error is the result
		}
		var i int
		switch {
		case len(q.large) > 0:
			i, q.large = q.large[0], q.large[1:]
		case len(q.small) > 0:
			i, q.small = q.small[0], q.small[1:]
		case q.done:
			return nil
		default:
			q.cond.Wait()
			continue
		}
		if q.failed >= 0 && i > q.failed {
			continue
		}
		return q.jobs[i]
	}
}

// fail records that job i's check failed.
func (q *queue) fail(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.failed < 0 || i < q.failed {
		q.failed = i
	}
}

// run checks the queue's files on up to GOMAXPROCS goroutines, with a copy
// of c each, until the search is over and every file is checked, and
// returns the jobs in the search's order, or the search's error. A job
// after the first that failed may be left unchecked; every job before it
// is checked, so the first error in order is the one a single goroutine
// would have stopped at.
func (q *queue) run(c *checker) ([]*job, error) {
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		w := *c
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := q.take(); j != nil; j = q.take() {
				j.findings, j.budget, j.err = w.file(j.path, j.kind, j.listed)
				if j.err != nil {
					q.fail(j.index)
				}
			}
		}()
	}
	// A checker stops only once the search is over (take), so it is.
	wg.Wait()
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.jobs, q.err
}
