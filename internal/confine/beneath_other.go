//go:build !linux

package confine

import (
	"io/fs"
	"os"
)

// lstatBeneath needs Linux's openat2: elsewhere the walk answers.
func lstatBeneath(int, string) (fs.FileInfo, bool) { return nil, false }

// openBeneath needs Linux's openat2: elsewhere the walk opens.
func openBeneath(int, string, int) (*os.File, bool) { return nil, false }
