package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/confine"
)

// acquireLock takes, as a render does, the lock at path, which must be
// <root>/state/lock: the store "state" of the root two folders up.
func acquireLock(path string, wait time.Duration, notify func(string)) (func(), error) {
	return storeLock(filepath.Dir(filepath.Dir(path)), true, wait, notify)
}

func storeLock(root string, write bool, wait time.Duration, notify func(string)) (func(), error) {
	fsys, err := confine.Open(root, confine.Options{})
	if err != nil {
		return nil, err
	}
	release, err := NewStore(fsys, "state").Lock(write, wait, notify)
	return func() { release(); fsys.Close() }, err
}

// TestLock: a second taker waits, is told who holds the lock, and gets it
// once the holder lets go — or gives up with a message naming the file.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "lock")
	first, err := acquireLock(path, time.Second, func(string) { t.Error("the first taker waited") })
	if err != nil {
		t.Fatal(err)
	}
	var told string
	_, err = acquireLock(path, 100*time.Millisecond, func(h string) { told = h })
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("want a timeout naming %s, got %v", path, err)
	}
	if want := fmt.Sprintf("agyconf (pid %d)", os.Getpid()); told != want {
		t.Errorf("told %q, want %q", told, want)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		first()
	}()
	second, err := acquireLock(path, 5*time.Second, func(string) {})
	if err != nil {
		t.Fatalf("the lock was not handed over: %v", err)
	}
	second()
}

// TestReadLock: a reader (diff, status, --check) creates nothing when no
// render ever ran, shares the lock with other readers, and waits for a
// writer.
func TestReadLock(t *testing.T) {
	root := t.TempDir()
	release, err := storeLock(root, false, time.Second, func(string) { t.Error("waited for nobody") })
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Lstat(filepath.Join(root, "state")); !os.IsNotExist(err) {
		t.Fatalf("a reader created the store: %v", err)
	}
	w, err := storeLock(root, true, time.Second, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	waited := false
	if _, err := storeLock(root, false, 100*time.Millisecond, func(string) { waited = true }); err == nil || !waited {
		t.Fatalf("a reader did not wait for the writer: %v", err)
	}
	w()
	r1, err := storeLock(root, false, time.Second, func(string) { t.Error("readers waited for each other") })
	if err != nil {
		t.Fatal(err)
	}
	defer r1()
	r2, err := storeLock(root, false, time.Second, func(string) { t.Error("readers waited for each other") })
	if err != nil {
		t.Fatal(err)
	}
	r2()
}
