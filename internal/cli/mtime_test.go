package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSecondRenderWritesNothing: a render of an unchanged config touches
// no file — every modification time stays — and --check then exits 0.
func TestSecondRenderWritesNothing(t *testing.T) {
	cfg := writeBenchConfig(t, 50)
	root := t.TempDir()
	run := func(args ...string) int {
		return Main(append([]string{"agyconf", "render", "--config", cfg, "--root", root, "--instance", "m"}, args...), io.Discard, io.Discard)
	}
	if code := run(); code != 0 {
		t.Fatalf("first render exited %d", code)
	}
	before := mtimes(t, root)
	time.Sleep(20 * time.Millisecond) // past the filesystem's timestamp granularity
	if code := run(); code != 0 {
		t.Fatalf("second render exited %d", code)
	}
	after := mtimes(t, root)
	for p, m := range before {
		if !after[p].Equal(m) {
			t.Errorf("%s was rewritten: %v, then %v", p, m, after[p])
		}
	}
	if code := run("--check"); code != 0 {
		t.Fatalf("--check exited %d", code)
	}
}

// mtimes maps every regular file under root, but the lock, to its
// modification time.
func mtimes(t *testing.T, root string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "lock" {
			return err
		}
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		out[p] = info.ModTime()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("only %d files rendered", len(out))
	}
	return out
}
