package lint

import (
	"runtime"
	"slices"
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
	// tasks are work a checker asked help with (help), taken before any
	// file.
	tasks []*task
}

// task is a part of one file's check that another checker may run.
type task struct {
	run   func()
	taken bool
	done  chan struct{}
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
	if f.kind == kindMCP || f.kind == kindHooks || f.kind == kindPluginHooksSub {
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

// help queues f, a large document's rules, for the next checker looking
// for work, ahead of every file: with as many checkers as cores, all of
// them busy, a goroutine of its own would wait for the document's own
// check to end, and then run alone while the other cores idle. It returns
// what waits for f, running it on the caller's goroutine if no checker
// took it.
func (q *queue) help(f func()) (wait func()) {
	t := &task{run: f, done: make(chan struct{})}
	q.mu.Lock()
	q.tasks = append(q.tasks, t)
	q.cond.Broadcast()
	q.mu.Unlock()
	return func() {
		q.mu.Lock()
		mine := !t.taken
		if mine {
			t.taken = true
			q.tasks = slices.DeleteFunc(q.tasks, func(u *task) bool { return u == t })
		}
		q.mu.Unlock()
		if mine {
			f()
			return
		}
		<-t.done
	}
}

// take waits for a task or a job no checker has taken, and returns it;
// neither once there is none and will be none.
func (q *queue) take() (*task, *job) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if len(q.tasks) > 0 {
			t := q.tasks[0]
			q.tasks = q.tasks[1:]
			t.taken = true
			return t, nil
		}
		if q.err != nil {
			return nil, nil // the search failed: its error is the result
		}
		var i int
		switch {
		case len(q.large) > 0:
			i, q.large = q.large[0], q.large[1:]
		case len(q.small) > 0:
			i, q.small = q.small[0], q.small[1:]
		case q.done:
			return nil, nil
		default:
			q.cond.Wait()
			continue
		}
		if q.failed >= 0 && i > q.failed {
			continue
		}
		return nil, q.jobs[i]
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
		w.alongside = q.help
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t, j := q.take()
				switch {
				case t != nil:
					t.run()
					close(t.done)
				case j != nil:
					j.findings, j.budget, j.err = w.file(j.path, j.kind, j.listed)
					if j.err != nil {
						q.fail(j.index)
					}
				default:
					return
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
