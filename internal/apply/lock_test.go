package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLock: a second taker waits, is told who holds the lock, and gets it
// once the holder lets go — or gives up with a message naming the file.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "lock")
	first, err := AcquireLock(path, time.Second, func(string) { t.Error("the first taker waited") })
	if err != nil {
		t.Fatal(err)
	}
	var told string
	_, err = AcquireLock(path, 100*time.Millisecond, func(h string) { told = h })
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("want a timeout naming %s, got %v", path, err)
	}
	if want := fmt.Sprintf("agyconf (pid %d)", os.Getpid()); told != want {
		t.Errorf("told %q, want %q", told, want)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		first.Release()
	}()
	second, err := AcquireLock(path, 5*time.Second, func(string) {})
	if err != nil {
		t.Fatalf("the lock was not handed over: %v", err)
	}
	second.Release()
}
