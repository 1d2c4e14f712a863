package confine

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// Lstat describes name without following a link at its last segment.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	// A name with no link in it needs no walk: the kernel looks it up
	// in one call (lstatFast), and anything else is walked.
	if fi, err, ok := r.lstatFast(name); ok {
		return fi, err
	}
	return r.lstatWalked(name)
}

// lstatWalked is Lstat by the walk alone.
func (r *Root) lstatWalked(name string) (fs.FileInfo, error) {
	res, err := r.resolve(name, false)
	if err != nil {
		return nil, err
	}
	fi, err := r.lstat(res)
	if err != nil {
		return nil, r.pathErr("lstat", name, err)
	}
	return fi, nil
}

// Stat describes what name leads to, through links that stay inside.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	res, err := r.resolve(name, true)
	if err != nil {
		return nil, err
	}
	fi, err := r.lstat(res)
	if err != nil {
		return nil, r.pathErr("stat", name, err)
	}
	return fi, nil
}

// Readlink returns the target of the link name.
func (r *Root) Readlink(name string) (string, error) {
	res, err := r.resolve(name, false)
	if err != nil {
		return "", err
	}
	t, err := r.readlink(res)
	if err != nil {
		return "", r.pathErr("readlink", name, err)
	}
	return t, nil
}

// Resolve returns name with its links resolved: the same file, by a name
// without links, or a *LinkError when a link leads out of the root,
// nowhere, or (Strict) exists at all. It always looks afresh.
func (r *Root) Resolve(name string) (string, error) {
	if resolved, ok := r.resolveFast(name); ok {
		return resolved, nil
	}
	return r.resolveWith(name, true, false)
}

// ReadFile reads the regular file name leads to, of at most limit bytes,
// without blocking: a FIFO, a device or a socket is refused at once.
func (r *Root) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	// A name with no link in it is opened by the kernel in one call
	// (openFast); anything else, an error included, is walked.
	if f, err, ok := r.openFast("open", name, syscall.O_RDONLY|syscall.O_NONBLOCK); ok {
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		return readOpen(f, r.Full(name), limit)
	}
	return r.readFileWalked(name, limit)
}

// readFileWalked is ReadFile by the walk alone.
func (r *Root) readFileWalked(name string, limit int64) ([]byte, fs.FileInfo, error) {
	res, err := r.resolve(name, true)
	if err != nil {
		return nil, nil, err
	}
	// Opened without a look first: O_NONBLOCK makes opening a FIFO return
	// at once, and a device node below a root can only have been made by
	// root (links to /dev lead out of the root and fail); the open file
	// is then checked to be regular.
	f, err := r.openRead(res, syscall.O_NONBLOCK)
	if err != nil {
		return nil, nil, r.pathErr("open", name, err)
	}
	defer f.Close()
	return readOpen(f, r.Full(name), limit)
}

// ReadDir lists the folder name leads to, sorted by name.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	// O_DIRECTORY: a FIFO swapped in for the folder fails at once
	// instead of blocking the open.
	if f, err, ok := r.openFast("open", name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK); ok {
		if err != nil {
			return nil, err
		}
		defer f.Close()
		entries, err := f.ReadDir(-1)
		if err != nil {
			return nil, r.pathErr("readdir", name, err)
		}
		for i, e := range entries {
			entries[i] = &entry{DirEntry: e, root: r, name: path.Join(name, e.Name())}
		}
		sortEntries(entries)
		return entries, nil
	}
	return r.readDirWalked(name)
}

// readDirWalked is ReadDir by the walk alone.
func (r *Root) readDirWalked(name string) ([]fs.DirEntry, error) {
	res, err := r.resolve(name, true)
	if err != nil {
		return nil, err
	}
	// O_DIRECTORY: a FIFO swapped in for the folder fails at once
	// instead of blocking the open.
	f, err := r.openRead(res, syscall.O_DIRECTORY|syscall.O_NONBLOCK)
	if err != nil {
		return nil, r.pathErr("open", name, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, r.pathErr("readdir", name, err)
	}
	sortEntries(entries)
	return entries, nil
}

// openRead opens the link-free name res read-only with flags, through its
// folder's handle.
func (r *Root) openRead(res string, flags int) (f *os.File, err error) {
	r.in(res, func(d *os.Root, name string) error { f, err = d.OpenFile(name, os.O_RDONLY|flags, 0); return err })
	return f, err
}

func sortEntries(es []fs.DirEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Name() < es[j-1].Name(); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// Mkdir makes the folder name; its parent must exist.
func (r *Root) Mkdir(name string, perm fs.FileMode) error {
	if perm&^fs.ModePerm == 0 && r.mkdirFast(name, perm) {
		return nil
	}
	res, err := r.resolve(name, false)
	if err != nil {
		return err
	}
	if err := r.root.Mkdir(res, perm); err != nil {
		return r.pathErr("mkdir", name, err)
	}
	return nil
}

// MkdirAll makes the folder name and its missing parents, one segment at
// a time through the root; an existing segment must be a folder (or, when
// not Strict, a link to one inside the root).
func (r *Root) MkdirAll(name string, perm fs.FileMode) error {
	if name == "." || name == "" {
		return nil
	}
	if fi, err := r.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return r.pathErr("mkdir", name, syscall.ENOTDIR)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if parent := path.Dir(name); parent != "." {
		if err := r.MkdirAll(parent, perm); err != nil {
			return err
		}
	}
	if err := r.Mkdir(name, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// WriteTemp creates a new file in the folder dir, named prefix followed by
// random letters, with data and mode, synced and closed, and returns its
// name. os.Root has no CreateTemp: the name is chosen here and created
// with O_EXCL, so an existing file or link is never opened.
func (r *Root) WriteTemp(dir, prefix string, data []byte, mode fs.FileMode) (string, error) {
	if name, err, ok := r.writeTempFast(dir, prefix, data, mode); ok {
		return name, err
	}
	resDir, err := r.resolve(dir, true)
	if err != nil {
		return "", err
	}
	for try := 0; ; try++ {
		name := path.Join(resDir, tempName(prefix))
		// 0600 until the content is complete: a secret is never readable
		// by others, not even while it is written.
		f, err := r.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return "", r.pathErr("create", name, err)
		}
		if err := r.fill(f, data, mode); err != nil {
			r.root.Remove(name)
			return "", r.pathErr("write", name, err)
		}
		return name, nil
	}
}

// WriteFile replaces name atomically and durably: a temporary file beside
// it, synced, renamed over it, and the folder synced. A link at name is
// replaced, never written through.
func (r *Root) WriteFile(name string, data []byte, mode fs.FileMode) error {
	temp, err := r.WriteTemp(path.Dir(name), ".agyconf-tmp-", data, mode)
	if err != nil {
		return err
	}
	if err := r.Rename(temp, name); err != nil {
		r.Remove(temp) // the way it was made, fast or walked
		return err
	}
	return r.SyncDir(path.Dir(name))
}

// Rename renames from to to; a link at to is replaced, not followed.
func (r *Root) Rename(from, to string) error {
	if r.renameFast(from, to) {
		return nil
	}
	resFrom, err := r.resolve(from, false)
	if err != nil {
		return err
	}
	resTo, err := r.resolve(to, false)
	if err != nil {
		return err
	}
	if err := r.root.Rename(resFrom, resTo); err != nil {
		return r.pathErr("rename", to, err)
	}
	return nil
}

// Remove removes a file, a link (never what it points to) or an empty
// folder.
func (r *Root) Remove(name string) error {
	if r.removeFast(name) {
		return nil
	}
	res, err := r.resolve(name, false)
	if err != nil {
		return err
	}
	if err := r.root.Remove(res); err != nil {
		return r.pathErr("remove", name, err)
	}
	return nil
}

// SyncDir makes a folder's entries durable.
func (r *Root) SyncDir(name string) error {
	if r.noSync {
		return nil
	}
	if err, ok := r.syncDirFast(name); ok {
		return err
	}
	res, err := r.resolve(name, true)
	if err != nil {
		return err
	}
	f, err := r.root.OpenFile(res, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return r.pathErr("open", name, err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return r.pathErr("fsync", name, err)
	}
	return nil
}

// CreateNew writes a new file name, never replacing anything there
// (O_EXCL: an existing file or link is an error), mode set on the open
// file.
func (r *Root) CreateNew(name string, data []byte, mode fs.FileMode) error {
	res, err := r.resolve(name, false)
	if err != nil {
		return err
	}
	f, err := r.root.OpenFile(res, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return r.pathErr("create", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.root.Remove(res)
		return r.pathErr("write", name, err)
	}
	return nil
}
