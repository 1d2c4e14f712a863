package apply

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFiles makes written files durable with one syncfs(2) of the
// filesystem holding root, rather than an fsync per file.
func syncFiles(root string, _ []string) error { return syncfs(root) }

// syncDirs makes renames and removals durable the same way.
func syncDirs(root string, _ []string) error { return syncfs(root) }

func syncfs(root string) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
