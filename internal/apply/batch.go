package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix names the temporary files of a batch, next to their targets
// (a rename is atomic only within one filesystem).
const tempPrefix = ".agyconf-tmp-"

// pending is one file written to a temporary name, waiting for its rename.
type pending struct {
	temp, target string
}

// batch writes many files atomically and durably without an fsync per file
// in a loop (renameio's way, about 0.2–0.5 ms each here): every temporary
// file is written first, their contents are synced together, the renames
// follow, and the touched folders are synced together. A crash at any
// point leaves every target either old or new.
type batch struct {
	root    string
	keep    map[string]bool
	pending []pending
	removes []string
}

func (b *batch) write(target string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(target), tempPrefix+"*")
	if err != nil {
		return err
	}
	b.pending = append(b.pending, pending{temp: f.Name(), target: target})
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	// CreateTemp makes 0600 files; agyconf's modes are fixed, not umasked.
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (b *batch) remove(target string) { b.removes = append(b.removes, target) }

// commit makes the batch durable and visible.
func (b *batch) commit() error {
	if len(b.pending) == 0 && len(b.removes) == 0 {
		return nil
	}
	if err := syncFiles(b.tempNames()); err != nil {
		return fmt.Errorf("syncing written files: %w", err)
	}
	for i, p := range b.pending {
		if err := os.Rename(p.temp, p.target); err != nil {
			b.pending = b.pending[i:]
			return err
		}
	}
	b.pending = nil
	for _, r := range b.removes {
		if err := os.Remove(r); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", r, err)
		}
		b.removeEmptyParents(r)
	}
	if err := syncDirs(b.touchedDirs()); err != nil {
		return fmt.Errorf("syncing folders: %w", err)
	}
	return nil
}

// abort removes the temporary files of a batch that will not be committed.
func (b *batch) abort() {
	for _, p := range b.pending {
		os.Remove(p.temp)
	}
	b.pending = nil
}

func (b *batch) tempNames() []string {
	out := make([]string, len(b.pending))
	for i, p := range b.pending {
		out[i] = p.temp
	}
	return out
}

func (b *batch) touchedDirs() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range append(b.targets(), b.removes...) {
		d := filepath.Dir(p)
		// A prune may have removed the folder itself: its parent lost an
		// entry then, the first folder up that is still there.
		for !exists(d) && d != b.root && d != filepath.Dir(d) {
			d = filepath.Dir(d)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func (b *batch) targets() []string {
	out := make([]string, len(b.pending))
	for i, p := range b.pending {
		out[i] = p.target
	}
	return out
}

// removeEmptyParents removes the folders a prune left empty (a skill's
// folder, a plugin's tree), up to the root or a folder the layout keeps.
// A folder that is not empty stops the climb: it is someone's.
func (b *batch) removeEmptyParents(removed string) {
	for dir := filepath.Dir(removed); ; dir = filepath.Dir(dir) {
		rel, err := filepath.Rel(b.root, dir)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") || b.keep[filepath.ToSlash(rel)] {
			return
		}
		if os.Remove(dir) != nil {
			return // not empty, or not ours to remove
		}
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
