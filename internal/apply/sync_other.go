//go:build !linux

package apply

import "os"

// Without syncfs(2), each file and then each touched folder is synced on
// its own: slower, equally safe.
func syncFiles(_ string, files []string) error { return fsyncAll(files) }

func syncDirs(_ string, dirs []string) error { return fsyncAll(dirs) }

func fsyncAll(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
