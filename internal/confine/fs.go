package confine

import "io/fs"

// FS is a tree agyconf reads and writes by names relative to its top:
// the real render root (a *Root), or in tests one that fails at a chosen
// step or lives in memory, so that decisions and batches can be proven on
// any tree.
type FS interface {
	// Dir is the tree's absolute path; Full(name) is name below it, both
	// for messages.
	Dir() string
	Full(name string) string

	Lstat(name string) (fs.FileInfo, error)
	Stat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	// Resolve returns name with its links resolved, or a *LinkError.
	Resolve(name string) (string, error)
	// ReadFile reads a regular file of at most limit bytes.
	ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)

	Mkdir(name string, perm fs.FileMode) error
	MkdirAll(name string, perm fs.FileMode) error
	// WriteTemp creates a new file in dir named prefix plus random
	// letters, with data and mode, synced, and returns its name.
	WriteTemp(dir, prefix string, data []byte, mode fs.FileMode) (string, error)
	// WriteFile replaces name atomically and durably.
	WriteFile(name string, data []byte, mode fs.FileMode) error
	Rename(from, to string) error
	Remove(name string) error
	SyncDir(name string) error
	// OpenLock opens a lock file; with create unset a missing one is
	// fs.ErrNotExist.
	OpenLock(name string, create bool) (Lock, error)

	// Strict is the same tree refusing every link in a name.
	Strict() FS
}

// Lock is an open lock file.
type Lock interface {
	// TryLock takes the lock, exclusive or shared, without waiting.
	TryLock(exclusive bool) (bool, error)
	// Holder and SetHolder read and write who holds it, for messages.
	Holder() string
	SetHolder(string) error
	// Close releases the lock.
	Close() error
}

var _ FS = (*Root)(nil)
