package confine

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
)

// The by-path writers are for files a user names on the command line —
// the config fmt formats, the starter init writes, what import writes
// under --out — never for anything under a render root, which goes
// through a Root.

// ReplaceFile replaces the file at path atomically and durably: a new
// temporary file beside it (O_EXCL), synced, renamed over it, the folder
// synced. The mode is set on the open file.
func ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	var f *os.File
	var err error
	for try := 0; ; try++ {
		var rnd [8]byte
		for i := range rnd {
			rnd[i] = byte(rand.Uint32())
		}
		temp := filepath.Join(dir, ".agyconf-tmp-"+hex.EncodeToString(rnd[:]))
		f, err = os.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		break
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return syncDir(dir)
}

// CreateNew writes a new file at path, never replacing one (O_EXCL): a
// link or file already there is an error. Missing folders are made with
// dirMode.
func CreateNew(path string, data []byte, mode, dirMode fs.FileMode) error {
	undo, err := MkdirNew(filepath.Dir(path), dirMode)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, mode)
	if err != nil {
		undo()
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		// Fixed, not subject to the umask.
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		undo()
	}
	return err
}

// MkdirNew makes dir and its missing parents, by path (a folder the user
// named for a command's output), and returns undo, which removes the ones
// it made, deepest first, if they are still empty: a command that fails
// leaves no folder behind.
func MkdirNew(dir string, perm fs.FileMode) (undo func(), err error) {
	var made []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	undo = func() {
		for _, d := range made {
			os.Remove(d) // only an empty folder goes
		}
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		undo()
		return func() {}, err
	}
	return undo, nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
