//go:build unix

package agyhook

import (
	"os"
	"syscall"
)

// openNoBlock opens a secret file for reading. O_NONBLOCK keeps a FIFO
// swapped in after the Stat from blocking the open; it changes nothing
// for the regular file that is then checked for.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// execve replaces the process with argv0; it returns only on failure.
func execve(argv0 string, argv, env []string) error {
	return syscall.Exec(argv0, argv, env)
}
