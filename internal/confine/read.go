// Package confine is agyconf's one door to the filesystem.
//
// Everything under a render root goes through a Root: the folder is opened
// once with os.OpenRoot, and every read, write, rename, mkdir, removal and
// lock below it is an *os.Root call, so a symbolic link that leads out of
// the root fails in the kernel-assisted resolver, with no window between a
// check and the use. Absolute links that stay inside the root (a dotfile
// manager's ~/.gemini -> ~/dotfiles/gemini), which os.Root refuses, are
// read and re-entered through the Root.
//
// What a user names — config files, file() and secret_file() arguments,
// skill source folders, the trees validate and import read — may live
// anywhere (Home Manager puts them in /nix/store) and is read by path with
// ReadFile: bounded, and never blocking on a FIFO or a device.
//
// A test (allowlist_test.go) fails when code outside this package calls an
// os path function, renameio or flock.New, unless the call is on its
// commented allowlist.
package confine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// NotRegularError is a read refused because the file is not a regular
// file: a FIFO would block the reader forever, a device such as /dev/zero
// never ends, and a socket cannot be read as a file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; agyconf reads only regular files", e.Path, KindOf(e.Mode))
}

// KindOf names a file type for a message: "a named pipe (FIFO)".
func KindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// TooLargeError is a read refused because the file is larger than the
// bound its reader documents.
type TooLargeError struct {
	Path  string
	Size  int64 // -1: it grew past the limit while being read
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s grew past the limit of %d bytes while being read", e.Path, e.Limit)
	}
	return fmt.Sprintf("%s is %d bytes; the limit is %d bytes", e.Path, e.Size, e.Limit)
}

// ReadFile reads a file a user named, by path: a regular file of at most
// limit bytes. Links are followed (the user chose the path), a file that is
// not regular is refused before it is opened, and the open itself is
// non-blocking and checked again on the open file, so a FIFO or a device
// swapped in between is refused too, at once.
func ReadFile(path string, limit int64) ([]byte, error) {
	data, _, err := ReadFileInfo(path, limit)
	return data, err
}

// ReadListedFile is ReadFileInfo for a file that a listing of its folder,
// just read, gave as a regular file (fs.DirEntry.Type): that listing is
// the check before the open, and the open file is checked as ReadFile
// checks it. A walk of 400 skill folders made 400 stats fewer.
func ReadListedFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	data, fi, err := openAndRead(path, limit)
	if err != nil && !IsRefusal(err) {
		// A file gone or unreadable since the listing: the error
		// ReadFileInfo gives, which reports a size over limit first.
		return ReadFileInfo(path, limit)
	}
	return data, fi, err
}

// ReadFileInfo is ReadFile, also returning what the open file's fstat
// said (its mode, size and times).
func ReadFileInfo(path string, limit int64) ([]byte, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	if st.Size() > limit {
		return nil, nil, &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	return openAndRead(path, limit)
}

// openAndRead opens path without blocking and reads it with readOpen.
func openAndRead(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readOpen(f, path, limit)
}

// readOpen reads an open file after checking, on the file itself, that it
// is regular and within limit.
func readOpen(f *os.File, name string, limit int64) ([]byte, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: name, Mode: st.Mode()}
	}
	if st.Size() > limit {
		return nil, nil, &TooLargeError{Path: name, Size: st.Size(), Limit: limit}
	}
	// Size is a hint: /proc files say 0, and a file may grow while read.
	// Room for it and bytes.MinRead more reads a file of that size with
	// no copy, and sees that it grew.
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, nil, &TooLargeError{Path: name, Size: -1, Limit: limit}
	}
	return data, st, nil
}

// IsRefusal reports whether err is a read this package refused (not a
// regular file, too large, a link where none may be) rather than a
// failure of the filesystem.
func IsRefusal(err error) bool {
	var nr *NotRegularError
	var tl *TooLargeError
	var le *LinkError
	return errors.As(err, &nr) || errors.As(err, &tl) || errors.As(err, &le)
}

// NixStore is where Nix keeps its store: read-only, and where Home
// Manager's generations and the module's config live.
const NixStore = "/nix/store"

// InNixStore reports whether an absolute, clean path is the Nix store or
// in it.
func InNixStore(p string) bool {
	rel, err := filepath.Rel(NixStore, p)
	return err == nil && filepath.IsLocal(rel)
}

// Size is the size of the regular file at path, a file a user or a program
// they run writes (agy's log): not one under a render root.
func Size(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return st.Size(), nil
}

// ReadTail reads the regular file at path from the byte offset from to its
// end, at most its last limit bytes; from past the end (a file started
// anew) reads its last limit bytes. It refuses what ReadFile refuses, and
// opens without blocking. What grew while it read is left for the next
// read.
func ReadTail(path string, from, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	end := st.Size()
	if from > end || from < 0 {
		from = 0
	}
	from = max(from, end-limit)
	data := make([]byte, end-from)
	n, err := f.ReadAt(data, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return data[:n], nil
}
