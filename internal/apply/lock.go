package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Lock serializes renders into one root: two at once would each decide on
// the live files and the state alone, and could both write. The lock file
// names the holder's PID, so a waiting run can say whom it waits for.
type Lock struct {
	f *flock.Flock
}

// LockPath is the lock file beside a state file.
func LockPath(statePath string) string { return filepath.Join(filepath.Dir(statePath), "lock") }

// AcquireLock takes the lock at path, waiting up to wait for another
// holder; waiting calls notify once with a description of the holder.
func AcquireLock(path string, wait time.Duration, notify func(holder string)) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	f := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
	ok, err := f.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		holder := "another agyconf"
		if b, err := os.ReadFile(path); err == nil {
			if pid := strings.TrimSpace(string(b)); pid != "" {
				holder = "agyconf (pid " + pid + ")"
			}
		}
		notify(holder)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		ok, err = f.TryLockContext(ctx, 50*time.Millisecond)
		if errors.Is(err, context.DeadlineExceeded) || (err == nil && !ok) {
			return nil, fmt.Errorf("%s still holds %s after %s; if no agyconf is running, the lock is stale: delete the file", holder, path, wait)
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
	}
	// Best effort: the PID is for messages only, the flock is the lock.
	_ = os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	return &Lock{f: f}, nil
}

// Release frees the lock.
func (l *Lock) Release() error { return l.f.Unlock() }
