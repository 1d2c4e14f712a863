package lint

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// pathIndex finds a bare program name on PATH as exec.LookPath does, but
// reads each folder of PATH once instead of trying every folder for every
// name: validate of a tree with 1,000 MCP servers named 1,000 programs,
// 26% of its time in exec.LookPath's stats (docs/benchmarks.md). The
// listing only rules folders out; a name a folder lists is then looked up
// by exec.LookPath itself, so what this finds is what exec.LookPath finds
// (a folder that cannot be listed is tried name by name; on darwin every
// name goes to exec.LookPath). Not for concurrent use.
type pathIndex struct {
	dirs    []string
	listing map[string]map[string]bool // nil: the folder could not be listed
}

func newPathIndex(path string) *pathIndex {
	return &pathIndex{dirs: filepath.SplitList(path), listing: map[string]map[string]bool{}}
}

func (p *pathIndex) lookPath(name string) (string, error) {
	if name == "" || strings.ContainsRune(name, '/') || runtime.GOOS == "darwin" {
		// darwin's volumes are often case-insensitive, where a listing
		// does not say what a lookup finds.
		return exec.LookPath(name)
	}
	for _, dir := range p.dirs {
		if names, listed := p.list(dir); listed && !names[name] {
			continue
		}
		full := filepath.Join(dir, name)
		if !filepath.IsAbs(dir) {
			// exec.LookPath stops at a program in a relative folder (an
			// empty entry is the current one) and refuses it (ErrDot).
			if fi, err := os.Stat(full); err == nil && executable(fi) {
				return "", &exec.Error{Name: name, Err: exec.ErrDot}
			}
			continue
		}
		// Whether this user may run it is exec.LookPath's own check
		// (access(2), which also knows noexec mounts).
		if got, err := exec.LookPath(full); err == nil {
			return got, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// list returns the names in dir, and whether it could be listed.
func (p *pathIndex) list(dir string) (map[string]bool, bool) {
	names, seen := p.listing[dir]
	if !seen {
		// Names only: os.ReadDir would sort them and make an entry of
		// each, for a /usr/bin of thousands. O_DIRECTORY and O_NONBLOCK:
		// a FIFO named in PATH fails at once instead of blocking.
		if f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0); err == nil {
			if es, err := f.Readdirnames(-1); err == nil {
				names = make(map[string]bool, len(es))
				for _, e := range es {
					names[e] = true
				}
			}
			f.Close()
		}
		p.listing[dir] = names
	}
	return names, names != nil
}

func executable(fi fs.FileInfo) bool {
	return !fi.IsDir() && fi.Mode()&0o111 != 0
}
