package confine

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The fast paths: a name with no link in it, which is most names, is
// looked up, opened or changed by the kernel in one call from the root
// (openat2Beneath), where the walk lstats each segment and os.Root opens
// and closes each folder on the way (a fresh render of 1,000 entries made
// 13,500 openat and 11,800 close calls, an import of 4,000 files 36,000
// fstatat). A link anywhere in the name, the last segment included, a
// kernel without openat2, or any error the walk would word otherwise,
// and the call is walked as before: the fast paths answer what the walk
// answers (TestLstatFastAgrees, TestReadFastAgrees, TestWriteFastAgrees)
// wherever the folders on the way may be read and searched, which is
// every folder of the user's own. A folder that may be searched but not
// read (mode 0311) is the exception, by design: the kernel's call goes
// through it, as any open(2) does, where os.Root's walk, which opens
// every folder on the way, stops at it; and a folder that may be read but
// not searched (0644) is listed, its entries' Info failing, where the
// walk's listing fails. A write takes the folder it writes in open for
// reading, as the walk does, so that it can be synced: an unreadable one
// is written the walked way, that is, not at all, and a write never ends
// half done (TestFastPermissions, run as another user).

// beneath is the root folder open as a file, the folder every fast path
// starts from; shared by a Root's views.
type beneath struct {
	once sync.Once
	f    *os.File        // nil: could not be opened
	rc   syscall.RawConn // f's, through which every call uses its fd
}

func (b *beneath) open(root *os.Root) (syscall.RawConn, bool) {
	b.once.Do(func() {
		if !haveOpenat2 {
			return
		}
		f, err := root.Open(".")
		if err != nil {
			return
		}
		rc, err := f.SyscallConn()
		if err != nil {
			f.Close()
			return
		}
		b.f, b.rc = f, rc
	})
	return b.rc, b.f != nil
}

func (b *beneath) close() {
	if b.f != nil {
		b.f.Close()
	}
}

// openBeneath opens name below the root with flags (openat2Beneath). The
// root's descriptor is used through RawConn.Control, which holds it for
// the call: once the Root is closed every fast path fails, and the walk
// says the root is closed, where a bare number could by then name
// another folder.
func (r *Root) openBeneath(name string, flags int) (int, error) {
	if r.walkOnly {
		return -1, syscall.ENOSYS
	}
	if !fs.ValidPath(name) {
		return -1, syscall.EINVAL
	}
	rc, ok := r.beneath.open(r.root)
	if !ok {
		return -1, syscall.ENOSYS
	}
	fd, err := -1, error(syscall.ENOSYS)
	if cerr := rc.Control(func(root uintptr) { fd, err = openat2Beneath(int(root), name, flags) }); cerr != nil {
		return -1, syscall.ENOSYS
	}
	return fd, err
}

// missing turns a fast path's failure into the walk's answer when it is
// sure to be the same: a name with no link before its first missing
// segment (the kernel stops at the first link) is missing for the walk
// too, and the call fails with the same error. ok is false for anything
// else, for the walk to answer.
func (r *Root) missing(op, name string, err error) (error, bool) {
	if errors.Is(err, syscall.ENOENT) {
		return r.pathErr(op, name, syscall.ENOENT), true
	}
	return nil, false
}

// lstatFast is Lstat by the kernel alone for a name with no link
// anywhere in it, itself included, or for one missing with no link
// before it (ok); or nothing (not ok) for the walk to answer: another
// error, a link on the way or at the end (which a strict view refuses,
// with its own error), a kernel without the call.
func (r *Root) lstatFast(name string) (fs.FileInfo, error, bool) {
	if name == "." {
		return nil, nil, false
	}
	fi, err := r.lstatBeneath(name)
	if err != nil {
		err, ok := r.missing("lstat", name, err)
		return nil, err, ok
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, false
	}
	return fi, nil, true
}

// lstatBeneath describes name below the root, a last segment that is a
// link itself (O_PATH|O_NOFOLLOW): os's own FileInfo, the one Lstat
// returns, from an fstat of the O_PATH descriptor.
func (r *Root) lstatBeneath(name string) (fs.FileInfo, error) {
	fd, err := r.openBeneath(name, oPath|unix.O_NOFOLLOW)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path.Base(name))
	defer f.Close()
	return f.Stat()
}

// resolveFast is Resolve by the kernel alone (ok): a name with no link in
// it, the last segment included (O_PATH without O_NOFOLLOW: a link there
// fails), resolves to itself, and so does one missing with no link before
// its first missing segment (the walk keeps the rest as it is).
func (r *Root) resolveFast(name string) (string, bool) {
	if name == "." {
		return "", false
	}
	fd, err := r.openBeneath(name, oPath)
	if err == nil {
		unix.Close(fd)
		return name, true
	}
	return name, errors.Is(err, syscall.ENOENT)
}

// openFast opens name for reading by the kernel alone when no link is
// anywhere in it (f set); or fails as the walk would for a name missing
// with no link before it (err set); or does nothing (neither) for the
// walk to open. flags are read-only ones (O_RDONLY with O_NONBLOCK or
// O_DIRECTORY).
func (r *Root) openFast(op, name string, flags int) (*os.File, error, bool) {
	fd, err := r.openBeneath(name, flags|unix.O_NOFOLLOW)
	if err != nil {
		err, ok := r.missing(op, name, err)
		return nil, err, ok
	}
	return os.NewFile(uintptr(fd), path.Base(name)), nil, true
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
	if fi, err := e.root.lstatBeneath(e.name); err == nil {
		return fi, nil
	}
	// Gone since, or a folder on the way swapped for a link: the root
	// says so, in its own words.
	return e.root.Lstat(e.name)
}

func (e *entry) String() string { return fs.FormatDirEntry(e) }

// The fast paths that change the tree act in a folder opened by
// openat2Beneath on one name in it, as the walk's os.Root call does on
// the folder it walked to. The folder is opened for reading, as the walk
// opens it, so that what is written there can be synced there too. Only
// a root that follows links has them: a strict view refuses a link at the
// last segment, which a rename, mkdir or remove by name would replace,
// fail on or remove without saying so, and its calls are few (the
// store's own files). A failed call changed nothing and is walked again,
// so that its error is the walk's.

// folderFast opens the folder dir for changing things in it.
func (r *Root) folderFast(dir string) (int, bool) {
	if !fs.ValidPath(dir) {
		return -1, false
	}
	if r.strict {
		return -1, false
	}
	fd, err := r.openBeneath(dir, unix.O_RDONLY|unix.O_DIRECTORY)
	return fd, err == nil
}

// atFast runs act on name's folder, opened by folderFast, and name's last
// segment, and reports whether act did its work; false, too, for a name
// the fast paths do not take.
func (r *Root) atFast(name string, act func(dir int, base string) bool) bool {
	if name == "." || !fs.ValidPath(name) {
		return false
	}
	dir, ok := r.folderFast(path.Dir(name))
	if !ok {
		return false
	}
	defer unix.Close(dir)
	return act(dir, path.Base(name))
}

// removeFast removes the file, link or empty folder name (ok), or
// nothing (not ok), as os.Root's Remove does: unlink, else rmdir.
func (r *Root) removeFast(name string) bool {
	return r.atFast(name, func(dir int, base string) bool {
		return unix.Unlinkat(dir, base, 0) == nil || unix.Unlinkat(dir, base, unix.AT_REMOVEDIR) == nil
	})
}

// mkdirFast makes the folder name (ok), or nothing (not ok).
func (r *Root) mkdirFast(name string, perm fs.FileMode) bool {
	return r.atFast(name, func(dir int, base string) bool {
		return unix.Mkdirat(dir, base, uint32(perm.Perm())) == nil
	})
}

// renameFast renames from to to (ok), or nothing (not ok).
func (r *Root) renameFast(from, to string) bool {
	return r.atFast(from, func(fromDir int, fromBase string) bool {
		return r.atFast(to, func(toDir int, toBase string) bool {
			return unix.Renameat(fromDir, fromBase, toDir, toBase) == nil
		})
	})
}

// syncDirFast syncs the folder name (ok), or fails as fsync failed
// (err), or does nothing (not ok).
func (r *Root) syncDirFast(name string) (error, bool) {
	fd, err := r.openBeneath(name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), path.Base(name))
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return r.pathErr("fsync", name, err), true
	}
	return nil, true
}

// writeTempFast is WriteTemp in the folder dir when it has no link in it
// (ok), or nothing (not ok).
func (r *Root) writeTempFast(dir, prefix string, data []byte, mode fs.FileMode) (string, error, bool) {
	fd, ok := r.folderFast(dir)
	if !ok {
		return "", nil, false
	}
	defer unix.Close(fd)
	for try := 0; ; try++ {
		base := tempName(prefix)
		// 0600 until the content is complete: a secret is never readable
		// by others, not even while it is written.
		f, err := unix.Openat(fd, base, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) && try < 100 {
			continue
		}
		if err != nil {
			return "", nil, false
		}
		name := path.Join(path.Clean(dir), base)
		if err := r.fill(os.NewFile(uintptr(f), base), data, mode); err != nil {
			unix.Unlinkat(fd, base, 0)
			return "", r.pathErr("write", name, err), true
		}
		return name, nil, true
	}
}

// tempName is prefix followed by random letters.
func tempName(prefix string) string {
	var rnd [8]byte
	for i := range rnd {
		rnd[i] = byte(rand.Uint32())
	}
	return prefix + hex.EncodeToString(rnd[:])
}

// fill writes a new file's data, sets its mode and syncs it, then closes
// it.
func (r *Root) fill(f *os.File, data []byte, mode fs.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		// On the open file, never by name (Root.Chmod would follow a
		// link swapped in meanwhile); and fixed, not subject to the umask.
		err = f.Chmod(mode)
	}
	if err == nil && !r.noSync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
