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

// openFast opens name for reading by the kernel alone when no link is
// anywhere in it (ok), or opens nothing (not ok) for the walk to open:
// an error of any kind, a link on the way or at the end, a kernel
// without the call. flags are read-only ones (O_RDONLY with O_NONBLOCK,
// O_DIRECTORY).
func (r *Root) openFast(name string, flags int) (*os.File, bool) {
	if !fs.ValidPath(name) {
		return nil, false
	}
	fd, ok := r.beneath.open(r.root)
	if !ok {
		return nil, false
	}
	return openBeneath(fd, name, flags)
}

// entry is a folder entry read by openFast's handle, which is closed by
// the time anyone asks for its Info: that is looked up below the root by
// the entry's full name, never by a path outside it (an os.File not
// opened in an os.Root would lstat its name as a path). Like the entries
// of an os.Root's folder, it describes the entry itself, a link
// included, in a strict view too: the folder it is in had no link on
// the way when it was read.
type entry struct {
	fs.DirEntry
	root *Root
	name string
}

func (e *entry) Info() (fs.FileInfo, error) {
	if fd, ok := e.root.beneath.open(e.root.root); ok {
		if fi, ok := lstatBeneath(fd, e.name); ok {
			return fi, nil
		}
	}
	// Gone since, or a folder on the way swapped for a link: the root
	// says so, in its own words.
	return e.root.Lstat(e.name)
}

func (e *entry) String() string { return fs.FormatDirEntry(e) }
