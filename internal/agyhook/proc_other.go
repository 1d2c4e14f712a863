//go:build !unix

package agyhook

import (
	"errors"
	"os"
	"syscall"
)

// Antigravity's hooks run under sh -c, so agyhook targets unix; elsewhere
// it builds, starts children undetached and kills only the direct child.

func detachedAttr() *syscall.SysProcAttr { return nil }

func groupAttr() *syscall.SysProcAttr { return nil }

func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

func lockState(dir string) (unlock func(), err error) {
	return func() {}, errors.ErrUnsupported
}
