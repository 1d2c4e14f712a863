package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/schema"
)

// FS is the render root as apply reads and writes it: the real one
// (*confine.Root), or in tests one that fails at a chosen step.
type FS = confine.FS

// Store is agyconf's own folder under a render root: the state of each
// config instance (<instance>.json), the lock, the cache of the last
// render that ended in sync (cache/) and backups (backups/). In a
// workspace it arrives with git clone, so nothing in it is ever followed
// through a symbolic link: a link at or above any of its files is refused
// with an error naming the link, and nothing is read or written through
// it (the Store goes through the root's Strict view).
type Store struct {
	root FS     // the render root, for the managed files the cache stamps
	fs   FS     // its Strict view, for everything of the store's own
	dir  string // below the root, forward slashes

	mu         sync.Mutex
	validators map[string]*schema.Validator
}

// NewStore is the store at dir (below the root of fsys, forward slashes).
func NewStore(fsys FS, dir string) *Store { return &Store{root: fsys, fs: fsys.Strict(), dir: dir} }

// Dir is the store's folder below the root.
func (s *Store) Dir() string { return s.dir }

// statePath is the state file of an instance.
func (s *Store) statePath(instance string) string { return path.Join(s.dir, instance+".json") }

// StatePath is the state file of an instance, as an absolute path for
// messages.
func (s *Store) StatePath(instance string) string { return s.fs.Full(s.statePath(instance)) }

// Check refuses a store reached through a link, or holding one: no
// segment of its folder, and nothing directly in it, in cache/ or in
// backups/, may be a symbolic link (a cloned workspace could point any of
// them anywhere). It reads no content and creates nothing, so it runs
// before the lock is taken. instance, when set, is checked too even if it
// does not exist yet.
func (s *Store) Check(instance string) error {
	if _, err := s.fs.Resolve(s.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.linkErr(err)
	}
	names := []string{"lock", ".gitignore", "cache", "backups"}
	if instance != "" {
		names = append(names, instance+".json")
	}
	for _, name := range names {
		if _, err := s.fs.Resolve(path.Join(s.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return s.linkErr(err)
		}
	}
	for _, dir := range []string{s.dir, path.Join(s.dir, "cache"), path.Join(s.dir, "backups")} {
		entries, err := s.fs.ReadDir(dir)
		if err != nil {
			continue // missing, or not a folder: the calls that need it say so
		}
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink != 0 {
				target, _ := s.root.Readlink(path.Join(dir, e.Name()))
				return s.linkErr(&confine.LinkError{Link: path.Join(dir, e.Name()), Target: target, Reason: confine.LinkRefused})
			}
		}
	}
	return nil
}

// linkErr words a link refusal inside the store for the person who has to
// remove it.
func (s *Store) linkErr(err error) error {
	var le *confine.LinkError
	if errors.As(err, &le) {
		return fmt.Errorf("%s is a symbolic link (to %s) in agyconf's own folder %s; agyconf never reads or writes its state, lock, cache or backups through a link, which a cloned repository could point anywhere: remove the link (and, if it held agyconf's state, move that state back as a plain folder)", s.fs.Full(le.Link), le.Target, s.fs.Full(s.dir))
	}
	return err
}

// lockWaitPoll is how often a waiting run tries the lock again.
const lockWaitPoll = 50 * time.Millisecond

// Lock serializes runs on one root: a writer takes it exclusively, so two
// renders never both decide and write; readers (diff, status, --check)
// take it shared, to wait for a writer's batch to end, and only if it
// exists: they create nothing. A writer waits up to wait for another
// holder; notify is told who that is. The release function is never nil.
func (s *Store) Lock(write bool, wait time.Duration, notify func(holder string)) (func(), error) {
	name := path.Join(s.dir, "lock")
	if write {
		if err := s.fs.MkdirAll(s.dir, 0o755); err != nil {
			return func() {}, s.linkErr(fmt.Errorf("lock: %w", err))
		}
	}
	l, err := s.fs.OpenLock(name, write)
	if !write && errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil // no render has run here: nothing to wait for
	}
	if err != nil {
		return func() {}, s.linkErr(fmt.Errorf("lock: %w", err))
	}
	ok, err := l.TryLock(write)
	if err == nil && !ok {
		holder := "another agyconf"
		if pid := l.Holder(); pid != "" {
			holder = "agyconf (pid " + pid + ")"
		}
		notify(holder)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		for err == nil && !ok {
			select {
			case <-ctx.Done():
				l.Close()
				return func() {}, fmt.Errorf("%s still holds %s after %s; if no agyconf is running, the lock is stale: delete the file", holder, s.fs.Full(name), wait)
			case <-time.After(lockWaitPoll):
			}
			ok, err = l.TryLock(write)
		}
	}
	if err != nil {
		l.Close()
		return func() {}, fmt.Errorf("lock %s: %w", s.fs.Full(name), err)
	}
	if write {
		// Best effort: the PID is for messages only, the flock is the lock.
		_ = l.SetHolder(strconv.Itoa(os.Getpid()) + "\n")
	}
	return func() { l.Close() }, nil
}

// LoadState reads an instance's state; a missing file is an empty state.
func (s *Store) LoadState(instance string) (*State, error) {
	return s.loadState(s.statePath(instance))
}

func (s *Store) loadState(name string) (*State, error) {
	data, _, err := s.fs.ReadFile(name, MaxStateSize)
	if errors.Is(err, fs.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return nil, s.linkErr(fmt.Errorf("reading state: %w", err))
	}
	s.mu.Lock()
	if s.validators == nil {
		s.validators = map[string]*schema.Validator{}
	}
	st, err := parseState(s.validators, s.fs.Full(name), data)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if st.Files == nil {
		st.Files = map[string]*FileState{}
	}
	st.read = true
	return st, nil
}

// LoadOthers reads the states of every other config instance in the
// store, by instance name.
func (s *Store) LoadOthers(self string) (map[string]*State, error) {
	entries, err := s.fs.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.linkErr(fmt.Errorf("reading states: %w", err))
	}
	// A workspace's states arrive with git clone: how many there are,
	// and how much they hold together, is bounded like one state, before
	// any is read.
	var names []string
	var total int64
	for _, e := range entries {
		name := e.Name()
		instance, ok := strings.CutSuffix(name, ".json")
		if !ok || instance == self || e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if len(names) == MaxInstances {
			return nil, fmt.Errorf("%s holds more than %d states of config instances; agyconf reads at most %d per root: remove the ones no config renders any more", s.fs.Full(s.dir), MaxInstances, MaxInstances)
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			if total += info.Size(); total > MaxStateSize {
				return nil, fmt.Errorf("the states in %s hold more than %d MiB together; agyconf reads at most that per root: remove the ones no config renders any more", s.fs.Full(s.dir), MaxStateSize>>20)
			}
		}
		names = append(names, name)
	}
	out := map[string]*State{}
	for _, name := range names {
		st, err := s.loadState(path.Join(s.dir, name))
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(name, ".json")] = st
	}
	return out, nil
}

// SaveState writes an instance's state atomically and durably, in its
// canonical form; an unchanged state is not written at all, so a render
// that changes nothing leaves every file alone.
func (s *Store) SaveState(instance string, st *State) error {
	data, err := st.encode()
	if err != nil {
		return err
	}
	name := s.statePath(instance)
	if old, _, err := s.fs.ReadFile(name, MaxStateSize); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := s.fs.MkdirAll(s.dir, 0o755); err != nil {
		return s.linkErr(fmt.Errorf("writing state: %w", err))
	}
	if err := s.fs.WriteFile(name, data, 0o644); err != nil {
		return s.linkErr(fmt.Errorf("writing state: %w", err))
	}
	return nil
}

// RemoveState removes an instance's state file, once another instance has
// taken over everything it recorded.
func (s *Store) RemoveState(instance string) error {
	err := s.fs.Remove(s.statePath(instance))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return s.linkErr(err)
}

// HasState reports whether an instance has a state file.
func (s *Store) HasState(instance string) bool {
	_, err := s.fs.Lstat(s.statePath(instance))
	return err == nil
}

// Backup keeps content agyconf is about to overwrite without having
// written it, under backups/, named by a hash of the content: identical
// content is kept once, and nothing is ever replaced. Mode 0600 in a 0700
// folder: it may hold credentials. It returns the backup's id.
func (s *Store) Backup(data []byte) (string, error) {
	id := sum(data)[:32]
	name := path.Join(s.dir, "backups", id)
	if _, err := s.fs.Lstat(name); err == nil {
		return id, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", s.linkErr(fmt.Errorf("backing up: %w", err))
	}
	if err := s.fs.MkdirAll(path.Dir(name), 0o700); err != nil {
		return "", s.linkErr(fmt.Errorf("backing up: %w", err))
	}
	if err := s.fs.WriteFile(name, data, 0o600); err != nil {
		return "", s.linkErr(fmt.Errorf("backing up: %w", err))
	}
	return id, nil
}

// BackupPath is where a backup is, absolute, for messages.
func (s *Store) BackupPath(id string) string { return s.fs.Full(path.Join(s.dir, "backups", id)) }

// ReadBackup reads a backup back, to give it back.
func (s *Store) ReadBackup(id string) ([]byte, error) {
	if id == "" || strings.ContainsAny(id, "/.") {
		return nil, fmt.Errorf("no backup %q", id)
	}
	data, _, err := s.fs.ReadFile(path.Join(s.dir, "backups", id), MaxLiveFileSize)
	if err != nil {
		return nil, s.linkErr(err)
	}
	return data, nil
}

// EnsureFile writes a small file of the store (a workspace's .gitignore)
// when it is missing or says something else.
func (s *Store) EnsureFile(file string, data []byte) error {
	name := path.Join(s.dir, file)
	if old, _, err := s.fs.ReadFile(name, 1<<20); err == nil && bytes.Equal(old, data) {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.linkErr(err)
	}
	if err := s.fs.MkdirAll(s.dir, 0o755); err != nil {
		return s.linkErr(err)
	}
	return s.linkErr(s.fs.WriteFile(name, data, 0o644))
}
