package confine

import (
	"os"
	"path"
	"strings"
	"sync"
)

// maxDirHandles bounds the folders a Root keeps open for reads: far below
// any file descriptor limit, and more than the folders one command reads
// in a row (a skill folder is read in a few calls, then the next).
const maxDirHandles = 64

// dirHandles keeps folders open for reads. os.Root checks a name one
// segment at a time, an openat and a close per folder on the way: reading
// skills/NAME/SKILL.md costs five of each, twice (the walk that resolves
// links, then the read). Through the folder's own handle it is one call:
// a 10,000-entry import made 180,000 openat calls for 4,000 files.
//
// A handle is opened through the root, with the link-free name the walk
// found, so it is a folder inside the root when it is opened; through it
// no name can climb out of that folder (it is an os.Root). Only a Root
// opened with KeepFolders keeps handles, and only reads go through them:
// a kept folder is the one its name led to when it was opened, so a read
// through it after the folder was renamed away reads it where it went.
// For a command that only reads that is a read a moment earlier; one that
// writes takes every name from the root, so that its reads see what its
// writes do.
type dirHandles struct {
	mu    sync.Mutex
	open  map[string]*dirHandle
	clock uint64
}

type dirHandle struct {
	root    *os.Root
	refs    int
	used    uint64
	evicted bool
}

// in runs f with the folder of the link-free name res open, and the last
// segment of res: through a kept handle, or, when the folder cannot be
// opened (it is missing, or not a folder), through the root with res
// itself, so that the error is the one the root gives.
func (r *Root) in(res string, f func(dir *os.Root, name string) error) error {
	dir, base := path.Split(res)
	if dir == "" || r.strict || r.dirs == nil {
		return f(r.root, res)
	}
	h := r.dirs.acquire(r.root, dir[:len(dir)-1])
	if h == nil {
		return f(r.root, res)
	}
	defer r.dirs.release(h)
	return f(h.root, base)
}

func (d *dirHandles) acquire(root *os.Root, dir string) *dirHandle {
	d.mu.Lock()
	d.clock++
	if h := d.open[dir]; h != nil {
		h.refs++
		h.used = d.clock
		d.mu.Unlock()
		return h
	}
	d.mu.Unlock()
	// Through the parent's handle when it has one: one openat, where
	// the root would open every folder on the way again.
	from, name := root, dir
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		parent := d.acquire(root, dir[:i])
		if parent == nil {
			// A folder whose parent cannot be opened cannot be either
			// (a fresh render asks about many such): the caller reads
			// through the root, which says why.
			return nil
		}
		defer d.release(parent)
		from, name = parent.root, dir[i+1:]
	}
	// os.Root.OpenRoot opens without O_DIRECTORY or O_NONBLOCK, so a FIFO
	// in a folder's place would block it: only what is a folder is
	// opened as a root. (A FIFO swapped in between the look and the open
	// still blocks; only someone writing the tree while agyconf reads it
	// can do that.)
	if fi, err := from.Lstat(name); err != nil || !fi.IsDir() {
		return nil
	}
	sub, err := from.OpenRoot(name)
	if err != nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if h := d.open[dir]; h != nil {
		// Opened by another goroutine meanwhile.
		sub.Close()
		h.refs++
		return h
	}
	h := &dirHandle{root: sub, refs: 1, used: d.clock}
	d.open[dir] = h
	if len(d.open) > maxDirHandles {
		d.evictOldest()
	}
	return h
}

// evictOldest drops the least recently used handle no call holds; it is
// closed now, or by the last call that still holds it.
func (d *dirHandles) evictOldest() {
	var oldest string
	var at uint64
	for name, h := range d.open {
		if h.refs == 0 && (oldest == "" || h.used < at) {
			oldest, at = name, h.used
		}
	}
	if oldest == "" {
		return
	}
	h := d.open[oldest]
	delete(d.open, oldest)
	h.evicted = true
	h.root.Close()
}

func (d *dirHandles) release(h *dirHandle) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h.refs--
	if h.evicted && h.refs == 0 {
		h.root.Close()
	}
}

// closeAll closes every kept handle; the Root is being closed.
func (d *dirHandles) closeAll() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for name, h := range d.open {
		delete(d.open, name)
		h.evicted = true
		if h.refs == 0 {
			h.root.Close()
		}
	}
}
