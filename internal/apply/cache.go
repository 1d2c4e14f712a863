package apply

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/agyconf/agyconf/internal/model"
)

// Cache lets a render or a check that would find everything in sync say so
// without decoding the config: it records what the last render that ended
// in sync depended on (its inputs, agyconf's own build) and how every file
// it manages looked afterwards. Any difference sends the run the long way.
// It lives in the store's cache/, is never committed (it holds
// machine-specific paths and times), and can be deleted at any time.
type Cache struct {
	Agyconf string `json:"agyconf"`
	Config  string `json:"config"` // absolute: another config is another run
	Root    string `json:"root"`
	// Instance is the instance the config rendered as; the cache file is
	// named after the config, which a run reads before it knows.
	Instance string        `json:"instance"`
	Inputs   []model.Input `json:"inputs"`
	// Outputs are the stamps of the managed files and of the state, by
	// name below the root.
	Outputs map[string]string `json:"outputs"`
	// Warnings are what the render printed about the config, in the
	// form its caller chose: a run the cache answers prints them again,
	// as a run that decodes would.
	Warnings json.RawMessage `json:"warnings,omitempty"`
}

// maxCacheSize bounds a cache file; a bigger one is a miss.
const maxCacheSize = 64 << 20

// cachePath is the cache of a config (absolute), named after it: a
// render looks for it before decoding, when it cannot know the config's
// instance yet.
func (s *Store) cachePath(config string) string {
	return path.Join(s.dir, "cache", sum([]byte(config))[:32]+".json")
}

// fileStamp is a file's size, modification time, inode and mode: what
// changes when anyone writes it.
func fileStamp(fsys FS, name string) string {
	st, err := fsys.Lstat(name)
	if err != nil {
		return "missing"
	}
	ino := uint64(0)
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = uint64(sys.Ino)
	}
	return fmt.Sprintf("%d:%d:%d:%o", st.Size(), st.ModTime().UnixNano(), ino, st.Mode())
}

// stamp stamps a managed file through the root (its folders may be links
// inside it), and the state through the store.
func (s *Store) stamp(instance, name string) string {
	if name == s.statePath(instance) {
		return fileStamp(s.fs, name)
	}
	return fileStamp(s.root, name)
}

// InSync reports whether changes leave nothing to do: the condition for
// recording a cache.
func InSync(changes []Change) bool {
	for _, c := range changes {
		// A pending unit waits for a secret the next render may read.
		if c.Action == Conflict || c.Action == Keep || c.Action == Pending {
			return false
		}
	}
	return true
}

// WriteCache records the cache after a render that ended in sync: the
// files changes name, and the state file, as they are now, and the
// warnings the render printed. st is the state the render saved: a cache
// must stamp every file it records, or it proves nothing about the tree,
// and none is written (CacheHit trusts the state's stamp to say it is
// still this one).
func (s *Store) WriteCache(instance, identity, config string, inputs []model.Input, changes []Change, st *State, warnings json.RawMessage) error {
	c := Cache{Agyconf: identity, Config: config, Root: s.fs.Dir(), Instance: instance, Inputs: inputs, Outputs: map[string]string{}, Warnings: warnings}
	names := []string{s.statePath(instance)}
	seen := map[string]bool{}
	for _, ch := range changes {
		// A shared file has a change per entry: stat it once.
		if !seen[ch.Path] {
			seen[ch.Path] = true
			names = append(names, ch.Path)
		}
	}
	for key := range st.Files {
		if file, _, _ := strings.Cut(key, unitSep); !seen[file] {
			return nil
		}
	}
	sort.Strings(names)
	for _, n := range names {
		c.Outputs[n] = s.stamp(instance, n)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	name := s.cachePath(config)
	if err := s.fs.MkdirAll(path.Dir(name), 0o755); err != nil {
		return s.linkErr(err)
	}
	return s.linkErr(s.fs.WriteFile(name, append(data, '\n'), 0o644))
}

// CacheHit reports whether the config's cache says a run of it would find
// everything in sync: same agyconf, same config, same root, same inputs
// (inputsUnchanged looks at them again), the same instance when one is
// named (instance, "" for the config's own), the state among the stamps,
// and every stamped file exactly as it was left. Anything unreadable or
// incomplete is a miss. A hit returns the warnings WriteCache recorded.
//
// The state is not read: WriteCache writes a cache only if it stamps
// every file the state records, and the state's own stamp (size,
// modification time, inode, mode; every save is a new file renamed into
// place) says it is still the state WriteCache checked. Reading it back
// to check again cost a fifth of a cached check of 1,000 entries
// (the fourth pass in docs/benchmarks.md's history); a cache written by hand or carried
// by a clone would have to guess every file's inode and nanosecond
// modification time to be believed.
func (s *Store) CacheHit(identity, config, instance string, inputsUnchanged func([]model.Input) bool) (warnings json.RawMessage, hit bool) {
	data, _, err := s.fs.ReadFile(s.cachePath(config), maxCacheSize)
	if err != nil {
		return nil, false
	}
	var c Cache
	if json.Unmarshal(data, &c) != nil || c.Agyconf != identity || c.Config != config || c.Root != s.fs.Dir() || len(c.Outputs) == 0 || c.Instance == "" || (instance != "" && c.Instance != instance) {
		return nil, false
	}
	if _, ok := c.Outputs[s.statePath(c.Instance)]; !ok {
		return nil, false
	}
	for n, stamp := range c.Outputs {
		if !fs.ValidPath(n) || s.stamp(c.Instance, n) != stamp {
			return nil, false
		}
	}
	if !inputsUnchanged(c.Inputs) {
		return nil, false
	}
	return c.Warnings, true
}
