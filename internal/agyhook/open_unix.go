//go:build unix

package agyhook

import (
	"errors"
	"os"
	"syscall"
)

// openFile is os.OpenFile for the hook's own small files (state, lock,
// log, MemPalace's config), opened blocking and handed to os.NewFile,
// which keeps such a descriptor out of the runtime's poller: os.OpenFile
// switches every file to non-blocking, tries to register it (which fails
// for a regular file) and switches it back, four system calls per file
// that a hook run before every model call pays for nothing
// (docs/benchmarks.md, the agyhook rows).
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if errors.Is(err, syscall.EINTR) {
			continue // as os.OpenFile does
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
