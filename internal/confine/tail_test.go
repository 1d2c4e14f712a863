package confine

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadTail: from an offset to the end, at most the last limit bytes,
// the last limit bytes of a file that started anew (from past its end),
// and never blocking on a FIFO nor reading a folder.
func TestReadTail(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "log")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, limit int64
		want        string
	}{
		{0, 100, "0123456789"},
		{4, 100, "456789"},
		{4, 3, "789"},
		{10, 100, ""},
		{11, 4, "6789"}, // a file shorter than where it was: started anew
		{-1, 100, "0123456789"},
	} {
		got, err := ReadTail(p, c.from, c.limit)
		if err != nil || string(got) != c.want {
			t.Errorf("ReadTail(%d, %d) = %q, %v; want %q", c.from, c.limit, got, err, c.want)
		}
	}
	if n, err := Size(p); err != nil || n != 10 {
		t.Errorf("Size = %d, %v", n, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadTail(fifo, 0, 10); done <- err }()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Errorf("ReadTail(fifo) = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadTail blocked on a FIFO")
	}
	var nr *NotRegularError
	if _, err := Size(fifo); !errors.As(err, &nr) {
		t.Errorf("Size(fifo) = %v", err)
	}
	if _, err := ReadTail(dir, 0, 10); !errors.As(err, &nr) {
		t.Errorf("ReadTail(folder) = %v", err)
	}
	if _, err := ReadTail(filepath.Join(dir, "none"), 0, 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadTail(missing) = %v", err)
	}
}
