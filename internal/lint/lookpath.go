package lint

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pathIndex finds a bare program name on PATH as exec.LookPath does, but
// reads each folder of PATH once instead of trying every folder for every
// name: validate of a tree with 1,000 MCP servers named 1,000 programs,
// 26% of its time in exec.LookPath's stats (docs/benchmarks.md). A name a
// folder lists is then checked as LookPath checks it: a regular file (or
// a link to one) with an execute bit. A folder that cannot be listed is
// tried name by name. Not for concurrent use.
type pathIndex struct {
	dirs    []string
	listing map[string]map[string]bool // nil: the folder could not be listed
}

func newPathIndex(path string) *pathIndex {
	return &pathIndex{dirs: filepath.SplitList(path), listing: map[string]map[string]bool{}}
}

func (p *pathIndex) lookPath(name string) (string, error) {
	if name == "" || strings.ContainsRune(name, '/') {
		return exec.LookPath(name)
	}
	for _, dir := range p.dirs {
		if dir == "" {
			// exec.LookPath reads an empty entry as the current folder and
			// then refuses the result (exec.ErrDot): so does this.
			continue
		}
		if names, listed := p.list(dir); listed && !names[name] {
			continue
		}
		full := filepath.Join(dir, name)
		if fi, err := os.Stat(full); err == nil && executable(fi) {
			return full, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// list returns the names in dir, and whether it could be listed.
func (p *pathIndex) list(dir string) (map[string]bool, bool) {
	names, seen := p.listing[dir]
	if !seen {
		if es, err := os.ReadDir(dir); err == nil {
			names = make(map[string]bool, len(es))
			for _, e := range es {
				names[e.Name()] = true
			}
		}
		p.listing[dir] = names
	}
	return names, names != nil
}

func executable(fi fs.FileInfo) bool {
	return !fi.IsDir() && fi.Mode()&0o111 != 0
}
