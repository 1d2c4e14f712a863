package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// LockFile is an open lock file under a root: flock(2) on a file opened
// through the root, so the lock can neither be created nor taken through a
// link.
type LockFile struct {
	f *os.File
}

// OpenLock opens the lock file name; with create unset a missing file is
// fs.ErrNotExist, and nothing is created (read-only commands).
func (r *Root) OpenLock(name string, create bool) (Lock, error) {
	res, err := r.resolve(name, false)
	if err != nil {
		return nil, err
	}
	flag := os.O_RDONLY
	if create {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := r.root.OpenFile(res, flag|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, r.pathErr("open", name, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &NotRegularError{Path: r.Full(name), Mode: st.Mode()}
	}
	if err == nil && create {
		// The holder's PID is written into the lock: a hard link would
		// carry that write to another file, so a lock with more than one
		// name is refused.
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
			err = fmt.Errorf("%s has %d names (hard links); agyconf writes into its lock and never through a second name: remove it", r.Full(name), sys.Nlink)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &LockFile{f: f}, nil
}

// TryLock takes the lock without waiting: exclusive for a writer, shared
// for readers, who only wait for a writer to finish.
func (l *LockFile) TryLock(exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	raw, err := l.f.SyscallConn()
	if err != nil {
		return false, err
	}
	for {
		// Control, not Fd: Fd would switch the file to blocking mode.
		if cerr := raw.Control(func(fd uintptr) { err = syscall.Flock(int(fd), how|syscall.LOCK_NB) }); cerr != nil {
			return false, cerr
		}
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, &fs.PathError{Op: "flock", Path: l.f.Name(), Err: err}
	}
}

// Holder is what the holder wrote into the file (its PID), for messages.
func (l *LockFile) Holder() string {
	b := make([]byte, 64)
	n, err := l.f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	return strings.TrimSpace(string(b[:n]))
}

// SetHolder replaces the file's content, on the open file.
func (l *LockFile) SetHolder(s string) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err := l.f.WriteAt([]byte(s), 0)
	return err
}

// Close releases the lock and closes the file.
func (l *LockFile) Close() error { return l.f.Close() }
