package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// tempPrefix names the temporary files of a batch, next to their targets
// (a rename is atomic only within one filesystem).
const tempPrefix = ".agyconf-tmp-"

// workers bounds the filesystem calls in flight. On these disks a mkdir or
// a file creation waits about 0.5–0.8 ms for the device, so issuing them
// concurrently is what keeps a render of hundreds of files near the time
// `cp -r` takes; concurrent fsyncs also share journal commits (200 files:
// 12 ms together, 45 ms one after another).
const workers = 16

// item is one file of a batch.
type item struct {
	target string // below the root, forward slashes
	data   []byte
	mode   fs.FileMode
	temp   string // set once written
	// For a shared file: its content when agyconf decided, and how to
	// merge agyconf's entries into whatever it holds now (nil when that
	// leaves nothing in it: the file goes).
	decidedOn []byte
	rebuild   func(current []byte) ([]byte, error)
	// remove: the shared file goes, if it still holds what was decided
	// on (otherwise it is rebuilt, and may be written after all).
	// removed says the commit removed it.
	remove, removed bool
	// basis is what data was built from: decidedOn, or what the file held
	// when it was last rebuilt.
	basis []byte
}

// batch writes many files atomically and durably: every file is written to
// a temporary name beside its target and synced, then all are renamed into
// place, then the touched folders are synced. A crash at any point leaves
// every target either old or new. There is no fsync per file in a loop
// (renameio's way) and no syncfs(2), which waits for every other writer on
// the disk too (2 s per render measured while a fuzzer wrote to it; a
// `home-manager switch` follows a Nix build). Every call goes through the
// root's FS: a folder swapped for a link out of the root after the
// decision fails there, in the kernel, whatever the timing.
type batch struct {
	fs      FS
	keep    map[string]bool
	items   []*item
	removes []string
	// contain words a refusal: the batch checks each target's folders once
	// more before it starts, so that a link swapped in after the decision
	// gets a message, not only the kernel's refusal.
	contain *container
}

// Settling a shared file before its rename: it is read again, and if agy
// wrote it since data was built, rebuilt and written again, at most
// maxSettle times (a writer faster than a rebuild and a write wins some
// rounds: agy toggling a server every millisecond and a half, with the
// machine busy, needed up to eight; a rename after the last round would
// undo its last write); a file that does not parse (caught half written
// by a program that writes in place) is read again after a pause, up to
// tornRetries times.
const (
	maxSettle   = 100
	tornRetries = 6
)

func (b *batch) write(target string, data []byte, mode fs.FileMode, decidedOn []byte, rebuild func([]byte) ([]byte, error)) *item {
	it := &item{target: target, data: data, mode: mode, decidedOn: decidedOn, rebuild: rebuild, basis: decidedOn}
	b.items = append(b.items, it)
	return it
}

// removeShared removes a shared file that holds nothing agyconf did not
// put there, if it is still as decided when its turn comes.
func (b *batch) removeShared(target string, decidedOn []byte, rebuild func([]byte) ([]byte, error)) *item {
	it := &item{target: target, remove: true, decidedOn: decidedOn, rebuild: rebuild, basis: decidedOn}
	b.items = append(b.items, it)
	return it
}

func (b *batch) remove(target string) { b.removes = append(b.removes, target) }

// commit makes the batch durable and visible.
func (b *batch) commit() (err error) {
	if len(b.items) == 0 && len(b.removes) == 0 {
		return nil
	}
	for _, it := range b.items {
		if err := b.recheck(it.target); err != nil {
			return err
		}
	}
	for _, r := range b.removes {
		if err := b.recheck(r); err != nil {
			return err
		}
	}
	defer ioProcs()()
	b.removeStaleTemps()
	created, err := b.mkdirs()
	if err != nil {
		return b.explain(err)
	}
	defer func() {
		if err != nil {
			b.abort()
		}
	}()
	if err := parallel(len(b.items), func(i int) error {
		return b.items[i].writeTemp(b.fs)
	}); err != nil {
		return b.explain(err)
	}
	for _, it := range b.items {
		// Read once more right before the rename: what agy wrote since
		// the temporary file was made is merged, and only the rename's own
		// moment is left for a write of agy's to be lost in.
		if err := it.settle(b.fs); err != nil {
			return b.explain(err)
		}
		if it.remove {
			if err := b.fs.Remove(it.target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return b.explain(fmt.Errorf("removing %s: %w", b.fs.Full(it.target), err))
			}
			it.removed = true
			b.removeEmptyParents(it.target)
			continue
		}
		if err := b.fs.Rename(it.temp, it.target); err != nil {
			return b.explain(err)
		}
		it.temp = ""
	}
	for _, r := range b.removes {
		if err := b.fs.Remove(r); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return b.explain(fmt.Errorf("removing %s: %w", b.fs.Full(r), err))
		}
		b.removeEmptyParents(r)
	}
	dirs := b.touchedDirs(created)
	if err := parallel(len(dirs), func(i int) error { return b.fs.SyncDir(dirs[i]) }); err != nil {
		return fmt.Errorf("syncing folders: %w", err)
	}
	return nil
}

// reread reads a shared file again for a rebuild and rebuilds on what it
// holds now; changed is false when it still holds basis. A file that does
// not parse is read again after a pause, a few times: agy may be halfway
// through writing it in place.
func (it *item) reread(fsys FS) (current, data []byte, changed bool, err error) {
	pause := time.Millisecond
	for try := 0; ; try++ {
		current, _, err = fsys.ReadFile(it.target, MaxLiveFileSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			current = nil
		case err != nil:
			// Not readable through the root (a link out of it, which the
			// decision read by its path): written as decided.
			return it.basis, it.data, false, nil
		}
		if bytes.Equal(current, it.basis) {
			return current, it.data, false, nil
		}
		if current == nil {
			// Deleted since: what agyconf merges goes into nothing, as
			// into a file that holds nothing.
			current = []byte("{}")
		}
		data, err = it.rebuild(current)
		if err == nil || try == tornRetries {
			return current, data, true, err
		}
		time.Sleep(pause)
		pause *= 2
	}
}

// writeTemp writes the item to a temporary file beside its target and
// syncs it.
func (it *item) writeTemp(fsys FS) error {
	if it.rebuild != nil {
		// agy writes its shared files itself (a login, a trusted folder):
		// read the file again as late as possible and merge into what it
		// holds now, so a write between the decision and this one is kept.
		current, data, changed, err := it.reread(fsys)
		if err != nil {
			return err
		}
		if changed {
			it.basis, it.data, it.remove = current, data, data == nil
		}
	}
	if it.remove {
		return nil
	}
	return it.makeTemp(fsys)
}

// makeTemp writes data to a new temporary file, in place of the one
// written before, if any.
func (it *item) makeTemp(fsys FS) error {
	if len(it.data) > MaxLiveFileSize {
		return fmt.Errorf("%s would be %d bytes; agyconf writes and reads files of at most %d bytes (16 MiB)", fsys.Full(it.target), len(it.data), MaxLiveFileSize)
	}
	temp, err := fsys.WriteTemp(path.Dir(it.target), tempPrefix, it.data, it.mode)
	if err != nil {
		return fmt.Errorf("writing %s: %w", fsys.Full(it.target), err)
	}
	if it.temp != "" {
		fsys.Remove(it.temp)
	}
	it.temp = temp
	return nil
}

// settle reads a shared file once more just before its rename or
// removal, and rebuilds and rewrites it as often as agy wrote it since,
// up to maxSettle times.
func (it *item) settle(fsys FS) error {
	if it.rebuild == nil {
		return nil
	}
	for n := 0; n < maxSettle; n++ {
		current, data, changed, err := it.reread(fsys)
		if err != nil {
			return err
		}
		if !changed {
			return nil
		}
		it.basis, it.data = current, data
		if data == nil {
			it.remove = true
			if it.temp != "" {
				fsys.Remove(it.temp)
				it.temp = ""
			}
			continue
		}
		it.remove = false
		if err := it.makeTemp(fsys); err != nil {
			return err
		}
	}
	return nil
}

// missingDirs are the folders the batch's writes need that do not exist.
func (b *batch) missingDirs() map[string]bool {
	missing := map[string]bool{}
	for _, it := range b.items {
		if it.remove {
			continue
		}
		for d := path.Dir(it.target); d != "." && !missing[d] && !b.exists(d); d = path.Dir(d) {
			missing[d] = true
		}
	}
	return missing
}

// mkdirs creates the missing folders of the batch's targets, parents before
// children, and returns the ones it created.
func (b *batch) mkdirs() ([]string, error) {
	missing := b.missingDirs()
	byDepth := map[int][]string{}
	var depths []int
	for d := range missing {
		n := strings.Count(d, "/")
		if byDepth[n] == nil {
			depths = append(depths, n)
		}
		byDepth[n] = append(byDepth[n], d)
	}
	sort.Ints(depths)
	var created []string
	for _, n := range depths {
		level := byDepth[n]
		sort.Strings(level)
		// One after another: folders made at once mostly share a parent,
		// whose lock concurrent mkdirs only spin on (measured: 2.4 s of CPU
		// for 200 folders on 16 goroutines, against a few ms in sequence).
		for _, d := range level {
			if err := b.fs.Mkdir(d, 0o755); err != nil {
				return nil, err
			}
		}
		created = append(created, level...)
	}
	return created, nil
}

// abort removes the temporary files of a batch that will not be committed.
func (b *batch) abort() {
	for _, it := range b.items {
		if it.temp != "" {
			b.fs.Remove(it.temp)
			it.temp = ""
		}
	}
}

// touchedDirs are the folders whose entries changed: the targets' and the
// removed files' folders, and the parents of folders the batch created.
func (b *batch) touchedDirs(created []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		// A prune may have removed the folder itself: its parent lost an
		// entry then, the first folder up that is still there.
		for d != "." && !b.exists(d) {
			d = path.Dir(d)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, it := range b.items {
		add(path.Dir(it.target))
	}
	for _, r := range b.removes {
		add(path.Dir(r))
	}
	for _, d := range created {
		add(path.Dir(d))
	}
	sort.Strings(out)
	return out
}

// removeEmptyParents removes the folders a prune left empty (a skill's
// folder, a plugin's tree), up to the root or a folder the layout keeps.
// A folder that is not empty stops the climb: it is someone's.
func (b *batch) removeEmptyParents(removed string) {
	for dir := path.Dir(removed); dir != "." && !b.keep[dir]; dir = path.Dir(dir) {
		if fi, err := b.fs.Lstat(dir); err != nil || !fi.IsDir() {
			return // a link (someone's, to a folder elsewhere) is never removed
		}
		if b.fs.Remove(dir) != nil {
			return // not empty, or not ours to remove
		}
	}
}

// recheck checks a target's folders against the root once more before the
// batch starts.
func (b *batch) recheck(target string) error {
	if r := b.contain.problemNow(target); r != "" {
		return &EscapeError{Path: b.fs.Full(target), Reason: r}
	}
	return nil
}

// explain turns a failure into the refusal it is, when a folder on the
// way became a link since the decision: the kernel refused it, or the
// walk did (a name the kernel could not take in one call, a link on the
// way among them, is walked afresh: confine's fast paths).
func (b *batch) explain(err error) error {
	for _, it := range b.items {
		if e := b.recheck(it.target); e != nil {
			return e
		}
	}
	return err
}

func (b *batch) exists(name string) bool {
	_, err := b.fs.Lstat(name)
	return err == nil
}

// ioProcs raises GOMAXPROCS to workers while a batch waits on the disk,
// and returns what puts it back. A goroutine in fsync keeps its P until
// the runtime's monitor takes it back, 20 µs to 10 ms later, so on two
// cores the sixteen workers were mostly two: a 1k render's files took 30
// to 95 ms to write and sync, and 23 to 32 ms with sixteen Ps; their
// folders 14 to 34 ms, and 10 to 13 (the fourth pass in docs/benchmarks.md's history).
// The workers wait; they do not compete for the cores. A GOMAXPROCS the
// environment sets is left as it is. Putting the old value back pins it
// (the runtime no longer follows a changing CPU quota), which a command
// of a second or two does not notice.
func ioProcs() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(0)
	if prev >= workers {
		return func() {}
	}
	runtime.GOMAXPROCS(workers)
	return func() { runtime.GOMAXPROCS(prev) }
}

// parallel runs f(0) … f(n-1) on up to workers goroutines and returns the
// first error by index.
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// removeStaleTemps removes the temporary files a render killed mid-batch
// left in the folders this batch writes to. The root's lock is held, so
// no other render is writing them now.
func (b *batch) removeStaleTemps() {
	seen := map[string]bool{}
	for _, it := range b.items {
		dir := path.Dir(it.target)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		entries, _ := b.fs.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), tempPrefix) {
				b.fs.Remove(path.Join(dir, e.Name()))
			}
		}
	}
}
