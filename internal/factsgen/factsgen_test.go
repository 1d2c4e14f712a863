package factsgen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the files generated from internal/agy")

// TestGeneratedFresh: every file generated from the table is as the table
// says; -update rewrites them.
func TestGeneratedFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := Generate(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		full := filepath.Join(root, filepath.FromSlash(f.Path))
		if *update {
			if err := os.WriteFile(full, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(full)
		if err != nil || !bytes.Equal(have, f.Data) {
			t.Errorf("%s is stale: run go test ./internal/factsgen -update (%v)", f.Path, err)
		}
	}
}

// TestIdempotent: generating from generated files changes nothing, so the
// patched schemas keep every hand-written byte.
func TestIdempotent(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join("..", "..")
	files, err := Generate(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		full := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again, err := Generate(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range again {
		if !bytes.Equal(f.Data, files[i].Data) {
			t.Errorf("%s: a second generation differs", f.Path)
		}
	}
}
