//go:build !unix

package agyhook

import (
	"errors"
	"os"
)

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

// execve: without execve, exec-env cannot keep agy's PID and stdio, and a
// wrapper process would have to relay signals and exit codes; agy's MCP
// servers run on unix.
func execve(argv0 string, argv, env []string) error { return errors.ErrUnsupported }
