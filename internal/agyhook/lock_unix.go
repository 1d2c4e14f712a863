//go:build unix

package agyhook

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lockState takes the state dir's exclusive lock. flock is released by the
// kernel when the process dies, so a killed hook never leaves it held.
func lockState(dir string) (unlock func(), err error) {
	f, err := openFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
