package apply

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/agyconf/agyconf/internal/model"
)

// Cache lets a render or a check that would find everything in sync say so
// without decoding the config: it records what the last render that ended
// in sync depended on (its inputs, agyconf's own build) and how every file
// it manages looked afterwards. Any difference sends the run the long way.
// It lives beside the state in cache/, is never committed (it holds
// machine-specific paths and times), and can be deleted at any time.
type Cache struct {
	Agyconf string            `json:"agyconf"`
	Config  string            `json:"config"` // absolute: another config is another run
	Root    string            `json:"root"`
	Inputs  []model.Input     `json:"inputs"`
	Outputs map[string]string `json:"outputs"`
}

// CachePath is the cache file of a state file.
func CachePath(statePath string) string {
	return filepath.Join(filepath.Dir(statePath), "cache", filepath.Base(statePath))
}

// fileStamp is a file's size, modification time, inode and mode: what
// changes when anyone writes it.
func fileStamp(path string) string {
	st, err := os.Lstat(path)
	if err != nil {
		return "missing"
	}
	ino := uint64(0)
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = uint64(sys.Ino)
	}
	return fmt.Sprintf("%d:%d:%d:%o", st.Size(), st.ModTime().UnixNano(), ino, st.Mode())
}

// InSync reports whether changes leave nothing to do: the condition for
// recording a cache.
func InSync(changes []Change) bool {
	for _, c := range changes {
		if c.Action == Conflict || c.Action == Keep {
			return false
		}
	}
	return true
}

// WriteCache records the cache after a render that ended in sync: the
// files changes name, and the state file, as they are now.
func WriteCache(opts Options, identity, config string, inputs []model.Input, changes []Change) error {
	c := Cache{Agyconf: identity, Config: config, Root: opts.Root, Inputs: inputs, Outputs: map[string]string{}}
	paths := []string{opts.StatePath}
	for _, ch := range changes {
		paths = append(paths, filepath.Join(opts.Root, filepath.FromSlash(ch.Path)))
	}
	sort.Strings(paths)
	for _, p := range paths {
		c.Outputs[p] = fileStamp(p)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	path := CachePath(opts.StatePath)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Not durable on purpose: a lost cache only costs one slow run.
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// CacheHit reports whether the cache at path says a run of config for
// root would find everything in sync: same agyconf, same config, same
// inputs (inputsUnchanged looks at them again), and every managed file
// exactly as it was left.
func CacheHit(path, root, identity, config string, inputsUnchanged func([]model.Input) bool) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var c Cache
	if json.Unmarshal(data, &c) != nil || c.Agyconf != identity || c.Config != config || c.Root != root || len(c.Outputs) == 0 {
		return false
	}
	for p, stamp := range c.Outputs {
		if fileStamp(p) != stamp {
			return false
		}
	}
	return inputsUnchanged(c.Inputs)
}
