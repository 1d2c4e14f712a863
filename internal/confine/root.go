package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Root is a folder opened once; every name given to its methods is
// relative to it, with forward slashes ("." for the folder itself).
type Root struct {
	dir  string   // absolute and clean, as given
	real string   // dir with its links resolved
	root *os.Root // the kernel-side confinement
	// strict refuses every link, at any depth of a name: agyconf's own
	// folders (state, lock, cache, backups) are never followed.
	strict bool
	noSync bool
	cache  *resolveCache
	dirs   *dirHandles
	// beneath opens the folder once more, as a file, for the fast paths
	// (beneath.go).
	beneath *beneath
	// walkOnly turns the fast paths off: for the tests that compare
	// them with the walk.
	walkOnly bool
}

// resolveCache remembers how folders resolved during one run: a render of
// hundreds of files would otherwise walk the same folders for every call.
// A link swapped in after a folder was cached changes nothing: the cached
// name is link-free, and the os.Root the call goes through refuses any link
// that leads out.
type resolveCache struct {
	mu   sync.Mutex
	dirs map[string]string
}

// Options tune a Root.
type Options struct {
	// NoSync skips fsync: for fuzzing and property tests, which are about
	// the bytes, not durability.
	NoSync bool
	// KeepFolders keeps the folders reads go through open (see
	// dirHandles), for a Root nothing writes through: a command that
	// only reads. A kept folder is the folder its name led to when it
	// was opened, so a read through it after someone renames the folder
	// away reads that folder where it went; a command that also writes
	// must see what its writes see, and does not keep them.
	KeepFolders bool
}

// Open opens dir, which must be an existing folder, as a Root.
func Open(dir string, o Options) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	root := &Root{dir: abs, real: real, root: r, noSync: o.NoSync, cache: &resolveCache{dirs: map[string]string{}}, beneath: &beneath{}}
	if o.KeepFolders {
		root.dirs = &dirHandles{open: map[string]*dirHandle{}}
	}
	return root, nil
}

// Close closes the root; the Root and its Strict views are unusable after.
func (r *Root) Close() error {
	r.dirs.closeAll()
	r.beneath.close()
	return r.root.Close()
}

// Dir is the absolute folder the root was opened at.
func (r *Root) Dir() string { return r.dir }

// Strict returns a view of the same root that refuses every symbolic link
// in a name, at any depth, the last segment included, with a *LinkError
// naming the link: for agyconf's own folders, which a cloned repository
// could otherwise point anywhere.
func (r *Root) Strict() FS {
	s := *r
	s.strict = true
	return &s
}

// Full is name as an absolute path, for messages.
func (r *Root) Full(name string) string {
	if name == "." || name == "" {
		return r.dir
	}
	return filepath.Join(r.dir, filepath.FromSlash(name))
}

// LinkReason says why a link stopped a call.
type LinkReason int

const (
	// LinkOutside: the link leads out of the root.
	LinkOutside LinkReason = iota
	// LinkDangling: the link leads to nothing, so a folder made through it
	// would appear wherever it points.
	LinkDangling
	// LinkLoop: too many links in a row.
	LinkLoop
	// LinkRefused: a link where none may be (Strict).
	LinkRefused
)

// LinkError is a call refused because of a symbolic link in its name.
type LinkError struct {
	Link   string // the link, relative to the root
	Target string // what the link says
	// Leads is the absolute path the link leads to, when it leads out.
	Leads  string
	Reason LinkReason
	root   string
}

func (e *LinkError) Error() string {
	switch e.Reason {
	case LinkOutside:
		return fmt.Sprintf("%s is a link to %s, which is outside %s", e.Link, e.Target, e.root)
	case LinkDangling:
		return fmt.Sprintf("%s is a link to %s, which does not exist", e.Link, e.Target)
	case LinkLoop:
		return fmt.Sprintf("%s: too many levels of symbolic links", e.Link)
	}
	return fmt.Sprintf("%s is a link (to %s); agyconf does not follow links in its own folders: replace it by a folder or file of its own, or remove it", e.Link, e.Target)
}

// maxHops bounds the links one name may go through, as the kernel does.
const maxHops = 40

// elem is one segment still to resolve, or the marker closing a link's
// target (end names the link).
type elem struct{ name, end string }

// resolve returns name with every symbolic link among its segments
// replaced by what it leads to, checked to stay inside the root: a
// link-free name the root's methods can use. With followLast unset the
// last segment is kept as it is (the call acts on a link itself). A
// segment that does not exist ends the walk: the rest cannot be links.
func (r *Root) resolve(name string, followLast bool) (string, error) {
	return r.resolveWith(name, followLast, true)
}

// resolveWith is resolve, with or without the cache of folders.
func (r *Root) resolveWith(name string, followLast, cached bool) (string, error) {
	if name == "" || name == "." {
		return ".", nil
	}
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fs.ErrInvalid}
	}
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	prefix := "."
	if dir != "" {
		var err error
		if prefix, err = r.resolveDir(dir, cached); err != nil {
			return "", err
		}
	}
	if !followLast {
		if r.strict {
			if err := r.refuseLink(path.Join(prefix, base)); err != nil {
				return "", err
			}
		}
		return path.Join(prefix, base), nil
	}
	return r.walk(prefix, []string{base})
}

// resolveDir resolves a folder, through the cache when the root is not
// strict (a strict call always looks again).
func (r *Root) resolveDir(dir string, cached bool) (string, error) {
	cached = cached && !r.strict
	if cached {
		r.cache.mu.Lock()
		res, ok := r.cache.dirs[dir]
		r.cache.mu.Unlock()
		if ok {
			return res, nil
		}
	}
	start, segs := ".", strings.Split(dir, "/")
	if parent, base := path.Split(dir); cached && parent != "" {
		// The parent through the cache, then one step: 400 skill folders
		// below one skills/ cost a walk of one segment each, not of all
		// of them (walk's result is link-free, where walk may start).
		p, err := r.resolveDir(strings.TrimSuffix(parent, "/"), true)
		if err != nil {
			return "", err
		}
		start, segs = p, []string{base}
	}
	res, err := r.walk(start, segs)
	if err == nil && cached {
		r.cache.mu.Lock()
		r.cache.dirs[dir] = res
		r.cache.mu.Unlock()
	}
	return res, err
}

// refuseLink fails if name is a symbolic link.
func (r *Root) refuseLink(name string) error {
	fi, err := r.root.Lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, _ := r.root.Readlink(name)
	return &LinkError{Link: name, Target: target, Reason: LinkRefused, root: r.dir}
}

// walk resolves segs below the link-free folder start.
func (r *Root) walk(start string, segs []string) (string, error) {
	var done []string
	if start != "." {
		done = strings.Split(start, "/")
	}
	// A stack, last segment first.
	todo := make([]elem, 0, len(segs))
	for i := len(segs) - 1; i >= 0; i-- {
		todo = append(todo, elem{name: segs[i]})
	}
	var links []string // links whose targets are being walked, outermost first
	hops := 0
	missing := false
	for len(todo) > 0 {
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if e.end != "" {
			links = links[:len(links)-1]
			continue
		}
		switch e.name {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				// Only a relative link's target can climb: above the root.
				link := links[len(links)-1]
				target, _ := r.root.Readlink(link)
				return "", &LinkError{Link: link, Target: target, Leads: filepath.Join(r.dir, filepath.FromSlash(path.Dir(link)), target), Reason: LinkOutside, root: r.dir}
			}
			done = done[:len(done)-1]
			continue
		}
		if missing {
			done = append(done, e.name)
			continue
		}
		cur := path.Join(append(done, e.name)...)
		fi, err := r.lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			if len(links) > 0 {
				// The innermost link is the one that leads nowhere.
				link := links[len(links)-1]
				target, _ := r.root.Readlink(link)
				return "", &LinkError{Link: link, Target: target, Reason: LinkDangling, root: r.dir}
			}
			missing = true
			done = append(done, e.name)
			continue
		}
		if err != nil {
			return "", r.pathErr("lstat", cur, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, e.name)
			continue
		}
		target, err := r.readlink(cur)
		if err != nil {
			return "", r.pathErr("readlink", cur, err)
		}
		if r.strict {
			return "", &LinkError{Link: cur, Target: target, Reason: LinkRefused, root: r.dir}
		}
		if hops++; hops > maxHops {
			return "", &LinkError{Link: cur, Target: target, Reason: LinkLoop, root: r.dir}
		}
		var next string
		if filepath.IsAbs(target) {
			rel, ok := r.inside(target)
			if !ok {
				return "", &LinkError{Link: cur, Target: target, Leads: filepath.Clean(target), Reason: LinkOutside, root: r.dir}
			}
			done, next = nil, rel
		} else {
			next = filepath.ToSlash(target)
		}
		links = append(links, cur)
		todo = append(todo, elem{end: cur})
		parts := strings.Split(next, "/")
		for i := len(parts) - 1; i >= 0; i-- {
			todo = append(todo, elem{name: parts[i]})
		}
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

// lstat and readlink act on the link-free name res through its folder's
// handle (see dirHandles).
func (r *Root) lstat(res string) (fi fs.FileInfo, err error) {
	r.in(res, func(d *os.Root, name string) error { fi, err = d.Lstat(name); return err })
	return fi, err
}

func (r *Root) readlink(res string) (target string, err error) {
	r.in(res, func(d *os.Root, name string) error { target, err = d.Readlink(name); return err })
	return target, err
}

// inside returns an absolute path relative to the root, if it is the root
// or below it (by the root's path as given, or with its links resolved).
func (r *Root) inside(p string) (string, bool) {
	p = filepath.Clean(p)
	for _, base := range []string{r.dir, r.real} {
		rel, err := filepath.Rel(base, p)
		if err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// pathErr wraps an error of the root with the absolute path, so that a
// message names the file a person can look at.
func (r *Root) pathErr(op, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: r.Full(name), Err: err}
}
