package lint

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
)

// pathIndex finds a bare program name on PATH as exec.LookPath does, but
// reads each folder of PATH once instead of trying every folder for every
// name: validate of a tree with 1,000 MCP servers named 1,000 programs,
// 26% of its time in exec.LookPath's stats (docs/benchmarks.md). The
// listing only rules folders out; a name a folder lists is then looked up
// by exec.LookPath itself, so what this finds is what exec.LookPath finds
// (a folder that cannot be listed is tried name by name; on darwin every
// name goes to exec.LookPath). Each name is looked up once a run: a
// thousand servers started by npx ask once. Safe for concurrent use.
type pathIndex struct {
	dirs []string
	// listing holds the names in each of dirs, each folder listed once,
	// when a lookup first needs it or by prefetch: a name found in an
	// early folder never waits on a later one (a hung network mount).
	listing []*listing
	mu      sync.Mutex
	found   map[string]lookup
}

// listing is one folder's names; nil: the folder could not be listed.
type listing struct {
	once  sync.Once
	names map[string]bool
}

type lookup struct {
	path string
	err  error
}

func newPathIndex(path string) *pathIndex {
	p := &pathIndex{dirs: filepath.SplitList(path), found: map[string]lookup{}}
	byDir := map[string]*listing{}
	for _, dir := range p.dirs {
		// A folder PATH names twice is listed once.
		l := byDir[dir]
		if l == nil {
			l = &listing{}
			byDir[dir] = l
		}
		p.listing = append(p.listing, l)
	}
	return p
}

// prefetch lists PATH's folders now, in order, as lookups would: for a
// goroutine of its own while the files are found.
func (p *pathIndex) prefetch() {
	if runtime.GOOS == "darwin" {
		return
	}
	for i := range p.dirs {
		p.names(i)
	}
}

// names lists PATH's folder i once.
func (p *pathIndex) names(i int) map[string]bool {
	l := p.listing[i]
	l.once.Do(func() { l.names = listNames(p.dirs[i]) })
	return l.names
}

func (p *pathIndex) lookPath(name string) (string, error) {
	if name == "" || strings.ContainsRune(name, '/') || runtime.GOOS == "darwin" {
		// darwin's volumes are often case-insensitive, where a listing
		// does not say what a lookup finds.
		return exec.LookPath(name)
	}
	p.mu.Lock()
	l, ok := p.found[name]
	p.mu.Unlock()
	if !ok {
		l.path, l.err = p.search(name)
		p.mu.Lock()
		p.found[name] = l
		p.mu.Unlock()
	}
	return l.path, l.err
}

func (p *pathIndex) search(name string) (string, error) {
	for i, dir := range p.dirs {
		if names := p.names(i); names != nil && !names[name] {
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

// listNames returns the names in dir, none if it is an absolute folder
// that does not exist, nil if it cannot be listed (it may still be
// searched, as an execute-only folder can; and a relative entry, the
// empty one included, is the current folder's business: exec.LookPath
// refuses what it finds there). Names
// only: os.ReadDir would sort them and make an entry of each, for a
// /usr/bin of thousands. O_DIRECTORY and O_NONBLOCK: a FIFO named in PATH
// fails at once instead of blocking.
func listNames(dir string) map[string]bool {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if filepath.IsAbs(dir) && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
		// Nothing is found in a folder that is not there (a PATH often
		// names ~/go/bin or ~/.cargo/bin before they exist): a thousand
		// servers asked it a thousand times.
		return map[string]bool{}
	}
	if err != nil {
		return nil
	}
	defer f.Close()
	es, err := f.Readdirnames(-1)
	if err != nil {
		return nil
	}
	names := make(map[string]bool, len(es))
	for _, e := range es {
		names[e] = true
	}
	return names
}

func executable(fi fs.FileInfo) bool {
	return !fi.IsDir() && fi.Mode()&0o111 != 0
}
