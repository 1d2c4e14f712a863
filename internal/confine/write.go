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
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, mode)
	if err != nil {
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
	}
	return err
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
