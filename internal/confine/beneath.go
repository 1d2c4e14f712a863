package confine

import (
	"io/fs"
	"os"
	"sync"
)

// beneath is the root folder open as a file, for lookups the kernel
// confines to it in one call (lstatBeneath); shared by a Root's views.
type beneath struct {
	once sync.Once
	f    *os.File // nil: could not be opened
	fd   int
}

func (b *beneath) open(root *os.Root) (int, bool) {
	b.once.Do(func() {
		if f, err := root.Open("."); err == nil {
			b.f, b.fd = f, int(f.Fd())
		}
	})
	return b.fd, b.f != nil
}

func (b *beneath) close() {
	// Whoever closes the Root ends every use of it: no open runs now.
	if b.f != nil {
		b.f.Close()
	}
}

// lstatFast is Lstat by the kernel alone for a name with no link
// anywhere in it, itself included (ok), or nothing (not ok) for the walk
// to answer: an error of any kind, a link on the way or at the end (which
// a strict view refuses, with its own error), a kernel without the call.
func (r *Root) lstatFast(name string) (fs.FileInfo, bool) {
	if name == "." || !fs.ValidPath(name) {
		return nil, false
	}
	fd, ok := r.beneath.open(r.root)
	if !ok {
		return nil, false
	}
	fi, ok := lstatBeneath(fd, name)
	if !ok || fi.Mode()&fs.ModeSymlink != 0 {
		return nil, false
	}
	return fi, true
}
