// Command floor writes a tree of files the way agyconf's batch does, and
// nothing more: the lower bound a render is measured against
// (scripts/bench.sh, docs/benchmarks.md).
//
//	go run ./scripts/floor SRC DST
//
// Every regular file under SRC is written to the same place under DST with
// agyconf's durability rules (internal/apply/batch.go): folders created
// first, each file written to a temporary name beside its target and
// fsynced, all renamed into place, then every folder that gained an entry
// fsynced; 16 goroutines for the creations and syncs, as the batch uses,
// each with a P of its own while they wait on the disk (GOMAXPROCS 16,
// unless the environment sets it), as the batch has: a goroutine in
// fsync keeps its P, and on two cores sixteen writers were otherwise
// mostly two.
// There is no decoding, rendering, checking, state or lock: what is left
// is the cost of the kernel and the disk. It reads SRC into memory before
// it starts, so that the timing (taken by the caller around the process)
// includes reading only as agyconf includes reading its config.
//
// It is independent of agyconf's own code on purpose: standard library
// only, so a change to agyconf's writer cannot move the floor with it.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
)

const workers = 16

type file struct {
	rel  string
	data []byte
	mode fs.FileMode
	temp string
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor SRC DST")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(src, dst string) error {
	var files []*file
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, &file{rel: rel, data: data, mode: info.Mode().Perm()})
		return nil
	})
	if err != nil {
		return err
	}

	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < workers {
		runtime.GOMAXPROCS(workers)
	}
	// Folders, parents first; each new folder's parent is synced at the end.
	touched := map[string]bool{}
	var dirs []string
	seen := map[string]bool{}
	for _, f := range files {
		for d := filepath.Dir(f.rel); d != "." && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
		touched[filepath.Join(dst, filepath.Dir(f.rel))] = true
	}
	sort.Slice(dirs, func(i, j int) bool {
		return depth(dirs[i]) < depth(dirs[j]) || depth(dirs[i]) == depth(dirs[j]) && dirs[i] < dirs[j]
	})
	for start := 0; start < len(dirs); {
		end := start
		for end < len(dirs) && depth(dirs[end]) == depth(dirs[start]) {
			end++
		}
		level := dirs[start:end]
		if err := parallel(len(level), func(i int) error {
			full := filepath.Join(dst, level[i])
			if err := os.Mkdir(full, 0o755); err != nil && !os.IsExist(err) {
				return err
			}
			return nil
		}); err != nil {
			return err
		}
		for _, d := range level {
			touched[filepath.Dir(filepath.Join(dst, d))] = true
		}
		start = end
	}

	if err := parallel(len(files), func(i int) error {
		f := files[i]
		t, err := os.CreateTemp(filepath.Join(dst, filepath.Dir(f.rel)), ".floor-tmp-")
		if err != nil {
			return err
		}
		f.temp = t.Name()
		_, err = t.Write(f.data)
		if err == nil {
			err = t.Chmod(f.mode)
		}
		if err == nil {
			err = t.Sync()
		}
		if cerr := t.Close(); err == nil {
			err = cerr
		}
		return err
	}); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Rename(f.temp, filepath.Join(dst, f.rel)); err != nil {
			return err
		}
	}
	list := make([]string, 0, len(touched))
	for d := range touched {
		list = append(list, d)
	}
	return parallel(len(list), func(i int) error {
		d, err := os.Open(list[i])
		if err != nil {
			return err
		}
		err = d.Sync()
		if cerr := d.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func depth(rel string) int {
	n := 0
	for d := rel; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		n++
	}
	return n
}

// parallel runs f(0) … f(n-1) on up to workers goroutines and returns the
// first error.
func parallel(n int, f func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}
