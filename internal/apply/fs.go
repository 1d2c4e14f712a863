package apply

import (
	"io/fs"
	"os"
)

// FS is the filesystem a write batch goes through: the real one, or in
// tests one that fails at a chosen step, to prove that a batch cut short at
// any step leaves every target old or new and the next render converges.
type FS interface {
	Mkdir(path string, mode fs.FileMode) error
	// WriteTemp creates a new file named after pattern in dir, writes data,
	// sets mode, syncs and closes it, and returns its path.
	WriteTemp(dir, pattern string, data []byte, mode fs.FileMode) (string, error)
	Rename(from, to string) error
	Remove(path string) error
	// SyncDir makes a folder's entries durable.
	SyncDir(path string) error
	// WriteState writes the state file atomically.
	WriteState(path string, data []byte) error
}

// OS is the real filesystem.
type OS struct{}

func (OS) Mkdir(path string, mode fs.FileMode) error { return os.Mkdir(path, mode) }

func (OS) WriteTemp(dir, pattern string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		// CreateTemp makes 0600 files; agyconf's modes are fixed, not
		// subject to the umask.
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

func (OS) Rename(from, to string) error { return os.Rename(from, to) }

func (OS) Remove(path string) error { return os.Remove(path) }

func (OS) SyncDir(path string) error { return fsync(path) }

func (OS) WriteState(path string, data []byte) error { return writeAtomic(path, data) }
