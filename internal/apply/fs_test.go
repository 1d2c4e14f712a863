package apply

import (
	"io/fs"
)

// hookFS is a root whose write-side calls first ask before(op, name),
// which may fail them: how the fault tests make a disk fill up, a mount
// turn read-only or a folder turn into a link at one chosen step. Its
// Strict view (the store's) is hooked too: a state write is the op
// "state". Reads are never hooked.
type hookFS struct {
	FS
	strict bool
	before func(op, name string) error
}

func (f *hookFS) Strict() FS { return &hookFS{FS: f.FS.Strict(), strict: true, before: f.before} }

func (f *hookFS) call(op, name string) error {
	if f.before == nil {
		return nil
	}
	return f.before(op, name)
}

func (f *hookFS) Mkdir(name string, perm fs.FileMode) error {
	if err := f.call("mkdir", name); err != nil {
		return err
	}
	return f.FS.Mkdir(name, perm)
}

func (f *hookFS) WriteTemp(dir, prefix string, data []byte, mode fs.FileMode) (string, error) {
	if err := f.call("temp", dir); err != nil {
		return "", err
	}
	return f.FS.WriteTemp(dir, prefix, data, mode)
}

func (f *hookFS) WriteFile(name string, data []byte, mode fs.FileMode) error {
	op := "writefile"
	if f.strict {
		op = "state"
	}
	if err := f.call(op, name); err != nil {
		return err
	}
	return f.FS.WriteFile(name, data, mode)
}

func (f *hookFS) Rename(from, to string) error {
	if err := f.call("rename", to); err != nil {
		return err
	}
	return f.FS.Rename(from, to)
}

func (f *hookFS) Remove(name string) error {
	if err := f.call("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

func (f *hookFS) SyncDir(name string) error {
	if err := f.call("syncdir", name); err != nil {
		return err
	}
	return f.FS.SyncDir(name)
}
