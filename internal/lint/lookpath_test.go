package lint

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestPathIndexAgreesWithLookPath: for names that are executables, plain
// files, folders, links to executables, dangling links, missing, and
// found only in a later folder, the index finds what exec.LookPath finds.
func TestPathIndexAgreesWithLookPath(t *testing.T) {
	base := t.TempDir()
	a, b, missing := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "missing")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(a, "tool"), 0o755)
	write(filepath.Join(a, "plain"), 0o644)
	write(filepath.Join(b, "plain"), 0o755) // the later folder's runs
	write(filepath.Join(b, "later"), 0o755)
	if err := os.Mkdir(filepath.Join(a, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(a, "tool"), filepath.Join(b, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(a, "dangling")); err != nil {
		t.Fatal(err)
	}
	// A program in the current folder, reached by an empty or relative
	// entry, is refused as exec.LookPath refuses it (ErrDot).
	t.Chdir(base)
	write(filepath.Join(base, "here"), 0o755)
	write(filepath.Join(base, "later"), 0o755) // also in b: the empty entry comes first
	names := []string{"tool", "plain", "later", "dir", "linked", "dangling", "absent", "here", filepath.Join(a, "tool"), "./tool", ""}
	for _, path := range []string{
		// A folder that is missing, and one that is a file: neither
		// lists anything.
		strings.Join([]string{a, missing, filepath.Join(a, "tool"), "", b}, string(os.PathListSeparator)),
		strings.Join([]string{"", a}, string(os.PathListSeparator)),
		strings.Join([]string{"", b}, string(os.PathListSeparator)),
		strings.Join([]string{"a", b}, string(os.PathListSeparator)),
		strings.Join([]string{".", b}, string(os.PathListSeparator)),
	} {
		t.Setenv("PATH", path)
		idx := newPathIndex(path)
		if path[0] == '.' {
			idx.prefetch() // listed ahead, as Paths lists it while searching
		}
		// Each name is asked from four goroutines at once, twice: the
		// second answer is the one remembered.
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 2 {
					for _, name := range names {
						want, werr := exec.LookPath(name)
						got, gerr := idx.lookPath(name)
						if (werr == nil) != (gerr == nil) || (werr == nil && got != want) || errors.Is(werr, exec.ErrDot) != errors.Is(gerr, exec.ErrDot) {
							t.Errorf("PATH=%s %q: index %q, %v; exec.LookPath %q, %v", path, name, got, gerr, want, werr)
						}
					}
				}
			}()
		}
		wg.Wait()
	}
}
