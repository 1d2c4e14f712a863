// Package memfs is a tree in memory that implements confine.FS, so that
// apply's decisions and batches can be run, and faults injected, on any
// tree a test builds, without a disk. Only tests use it. It holds regular
// files and folders; it has no symbolic links (those are the real root's
// business, tested on disk in tests/hostile).
package memfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agyconf/agyconf/internal/confine"
)

// FS is an in-memory tree. The zero value is not usable: call New.
type FS struct {
	mu    sync.Mutex
	nodes map[string]*node // by clean slash name; "." is the top
	dir   string
	seq   int
	locks map[string]*lockState
}

type node struct {
	dir     bool
	data    []byte
	mode    fs.FileMode
	modTime time.Time
	ino     uint64
}

type lockState struct {
	exclusive bool
	shared    int
	holder    string
}

// New is an empty tree whose messages call it dir.
func New(dir string) *FS {
	f := &FS{nodes: map[string]*node{}, dir: dir, locks: map[string]*lockState{}}
	f.nodes["."] = &node{dir: true, mode: fs.ModeDir | 0o755}
	return f
}

var _ confine.FS = (*FS)(nil)

func (f *FS) Dir() string { return f.dir }

func (f *FS) Full(name string) string {
	if name == "." || name == "" {
		return f.dir
	}
	return f.dir + "/" + name
}

func (f *FS) Strict() confine.FS { return f }

func (f *FS) err(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: f.Full(name), Err: err}
}

func clean(name string) (string, error) {
	if name == "" || name == "." {
		return ".", nil
	}
	if !fs.ValidPath(name) {
		return "", fs.ErrInvalid
	}
	return name, nil
}

// parent checks that name's folder exists and is a folder.
func (f *FS) parent(op, name string) error {
	p := path.Dir(name)
	n, ok := f.nodes[p]
	if !ok {
		return f.err(op, name, fs.ErrNotExist)
	}
	if !n.dir {
		return f.err(op, name, errors.New("not a directory"))
	}
	return nil
}

func (f *FS) tick() time.Time {
	f.seq++
	return time.Unix(0, int64(f.seq))
}

// info is a node's FileInfo.
type info struct {
	name string
	n    node
}

func (i info) Name() string       { return path.Base(i.name) }
func (i info) Size() int64        { return int64(len(i.n.data)) }
func (i info) Mode() fs.FileMode  { return i.n.mode }
func (i info) ModTime() time.Time { return i.n.modTime }
func (i info) IsDir() bool        { return i.n.dir }
func (i info) Sys() any           { return nil }

func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, err := clean(name)
	if err != nil {
		return nil, f.err("lstat", name, err)
	}
	n, ok := f.nodes[name]
	if !ok {
		return nil, f.err("lstat", name, fs.ErrNotExist)
	}
	return info{name, *n}, nil
}

func (f *FS) Stat(name string) (fs.FileInfo, error) { return f.Lstat(name) }

func (f *FS) Readlink(name string) (string, error) {
	return "", f.err("readlink", name, fs.ErrInvalid)
}

func (f *FS) Resolve(name string) (string, error) { return clean(name) }

func (f *FS) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.nodes[name]
	if !ok {
		return nil, nil, f.err("open", name, fs.ErrNotExist)
	}
	if n.dir {
		return nil, nil, &confine.NotRegularError{Path: f.Full(name), Mode: n.mode}
	}
	if int64(len(n.data)) > limit {
		return nil, nil, &confine.TooLargeError{Path: f.Full(name), Size: int64(len(n.data)), Limit: limit}
	}
	return append([]byte(nil), n.data...), info{name, *n}, nil
}

func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, err := clean(name)
	if err != nil {
		return nil, f.err("readdir", name, err)
	}
	n, ok := f.nodes[name]
	if !ok {
		return nil, f.err("open", name, fs.ErrNotExist)
	}
	if !n.dir {
		return nil, f.err("readdir", name, errors.New("not a directory"))
	}
	var out []fs.DirEntry
	for k, c := range f.nodes {
		if k != "." && path.Dir(k) == name {
			out = append(out, fs.FileInfoToDirEntry(info{k, *c}))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, err := clean(name)
	if err != nil {
		return f.err("mkdir", name, err)
	}
	if _, ok := f.nodes[name]; ok {
		return f.err("mkdir", name, fs.ErrExist)
	}
	if err := f.parent("mkdir", name); err != nil {
		return err
	}
	f.nodes[name] = &node{dir: true, mode: fs.ModeDir | perm, modTime: f.tick()}
	return nil
}

func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	name, err := clean(name)
	if err != nil || name == "." {
		return err
	}
	if fi, err := f.Lstat(name); err == nil {
		if !fi.IsDir() {
			return f.err("mkdir", name, errors.New("not a directory"))
		}
		return nil
	}
	if err := f.MkdirAll(path.Dir(name), perm); err != nil {
		return err
	}
	if err := f.Mkdir(name, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func (f *FS) WriteTemp(dir, prefix string, data []byte, mode fs.FileMode) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, err := clean(dir)
	if err != nil {
		return "", f.err("create", dir, err)
	}
	if n, ok := f.nodes[dir]; !ok || !n.dir {
		return "", f.err("create", dir, fs.ErrNotExist)
	}
	f.seq++
	name := path.Join(dir, fmt.Sprintf("%s%016x", prefix, f.seq))
	f.nodes[name] = &node{data: append([]byte(nil), data...), mode: mode, modTime: f.tick(), ino: uint64(f.seq)}
	return name, nil
}

// WriteFile puts a file in place at once (memory has no torn writes).
func (f *FS) WriteFile(name string, data []byte, mode fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, err := clean(name)
	if err != nil {
		return f.err("write", name, err)
	}
	if err := f.parent("write", name); err != nil {
		return err
	}
	if n, ok := f.nodes[name]; ok && n.dir {
		return f.err("write", name, errors.New("is a directory"))
	}
	f.seq++
	f.nodes[name] = &node{data: append([]byte(nil), data...), mode: mode, modTime: f.tick(), ino: uint64(f.seq)}
	return nil
}

func (f *FS) Rename(from, to string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.nodes[from]
	if !ok {
		return f.err("rename", from, fs.ErrNotExist)
	}
	if n.dir {
		return f.err("rename", from, errors.New("renaming folders is not supported"))
	}
	if err := f.parent("rename", to); err != nil {
		return err
	}
	if t, ok := f.nodes[to]; ok && t.dir {
		return f.err("rename", to, errors.New("is a directory"))
	}
	delete(f.nodes, from)
	f.nodes[to] = n
	return nil
}

func (f *FS) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.nodes[name]
	if !ok {
		return f.err("remove", name, fs.ErrNotExist)
	}
	if n.dir {
		for k := range f.nodes {
			if k != name && strings.HasPrefix(k, name+"/") {
				return f.err("remove", name, errors.New("directory not empty"))
			}
		}
	}
	delete(f.nodes, name)
	return nil
}

func (f *FS) SyncDir(name string) error {
	_, err := f.Lstat(name)
	return err
}

func (f *FS) OpenLock(name string, create bool) (confine.Lock, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.nodes[name]; !ok {
		if !create {
			return nil, f.err("open", name, fs.ErrNotExist)
		}
		if err := f.parent("open", name); err != nil {
			return nil, err
		}
		f.nodes[name] = &node{mode: 0o644, modTime: f.tick()}
	}
	if f.locks[name] == nil {
		f.locks[name] = &lockState{}
	}
	return &lock{fs: f, st: f.locks[name]}, nil
}

type lock struct {
	fs        *FS
	st        *lockState
	held      bool
	exclusive bool
}

func (l *lock) TryLock(exclusive bool) (bool, error) {
	l.fs.mu.Lock()
	defer l.fs.mu.Unlock()
	if l.st.exclusive || (exclusive && l.st.shared > 0) {
		return false, nil
	}
	if exclusive {
		l.st.exclusive = true
	} else {
		l.st.shared++
	}
	l.held, l.exclusive = true, exclusive
	return true, nil
}

func (l *lock) Holder() string { l.fs.mu.Lock(); defer l.fs.mu.Unlock(); return l.st.holder }

func (l *lock) SetHolder(s string) error {
	l.fs.mu.Lock()
	defer l.fs.mu.Unlock()
	l.st.holder = strings.TrimSpace(s)
	return nil
}

func (l *lock) Close() error {
	l.fs.mu.Lock()
	defer l.fs.mu.Unlock()
	if l.held {
		if l.exclusive {
			l.st.exclusive = false
		} else {
			l.st.shared--
		}
		l.held = false
	}
	return nil
}

// Put writes a file, making its folders, for a test's setup.
func (f *FS) Put(name string, data []byte, mode fs.FileMode) {
	if err := f.MkdirAll(path.Dir(name), 0o755); err != nil {
		panic(err)
	}
	if err := f.WriteFile(name, data, mode); err != nil {
		panic(err)
	}
}

// Get returns a file's content, and whether it exists as a file.
func (f *FS) Get(name string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.nodes[name]
	if !ok || n.dir {
		return nil, false
	}
	return append([]byte(nil), n.data...), true
}

// Files lists every file's name, sorted.
func (f *FS) Files() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k, n := range f.nodes {
		if !n.dir {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Dirs lists every folder's name but the top's, sorted.
func (f *FS) Dirs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k, n := range f.nodes {
		if n.dir && k != "." {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Clone is a deep copy of the tree, locks released.
func (f *FS) Clone() *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &FS{nodes: map[string]*node{}, dir: f.dir, seq: f.seq, locks: map[string]*lockState{}}
	for k, n := range f.nodes {
		cp := *n
		cp.data = append([]byte(nil), n.data...)
		c.nodes[k] = &cp
	}
	return c
}

// Delete removes a file, for a test's edits.
func (f *FS) Delete(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.nodes, name)
}
