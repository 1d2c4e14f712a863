//go:build !unix

package agyhook

import "os"

// openFile is os.OpenFile (open_unix.go says why unix differs).
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
