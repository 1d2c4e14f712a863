// Package apply brings live files in line with a render plan: it decides,
// per document, whether to create, update, keep or prune it, refuses to
// touch what agyconf does not own, and records what it wrote.
package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/renameio/v2"
)

// StateVersion is bumped when the state file's shape changes.
const StateVersion = 1

// State is what agyconf wrote last under one root: per file, or per entry
// of a shared file ("<file>#<JSON pointer>"), the hash of its content with
// secrets replaced by a placeholder, never of a secret.
type State struct {
	Version int                   `json:"version"`
	Files   map[string]*FileState `json:"files"`
}

// FileState records one owned document.
type FileState struct {
	// SHA256 is the hash of the redacted content (desiredHash, unitHash).
	SHA256 string `json:"sha256"`
	// Block is set when agyconf owns only a managed block of the file.
	Block bool `json:"block,omitempty"`
	// Item is set for an item of a string list in a shared file; an item
	// is its own content, so it has no hash.
	Item bool `json:"item,omitempty"`
	// Secrets lists the JSON pointers of string values that held secrets;
	// they are replaced by a placeholder before hashing.
	Secrets []string `json:"secrets,omitempty"`
	// Pending is the hash of what a render is about to write, recorded
	// before it writes: if it dies between the files and the state, the
	// next render still knows the new content for its own.
	Pending string `json:"pending,omitempty"`
}

// matches reports whether h is the hash of content agyconf wrote or was
// writing.
func (f *FileState) matches(h string) bool {
	return h == f.SHA256 || (f.Pending != "" && h == f.Pending)
}

// LoadState reads a state file; a missing file is an empty state.
func LoadState(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &State{Version: StateVersion, Files: map[string]*FileState{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state: %w", err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("state file %s is not valid JSON: %w; move it aside to start over (agyconf will then treat every existing file as not its own)", path, err)
	}
	if s.Version != StateVersion {
		return nil, fmt.Errorf("state file %s has version %d; this agyconf reads version %d", path, s.Version, StateVersion)
	}
	if s.Files == nil {
		s.Files = map[string]*FileState{}
	}
	return &s, nil
}

// Save writes the state atomically, in the canonical JSON form.
func (s *State) Save(path string) error { return s.save(OS{}, path) }

func (s *State) save(fsys FS, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing state: %w", err)
	}
	for _, f := range s.Files {
		sort.Strings(f.Secrets)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil // a render that changed nothing leaves every file alone
	}
	if err := fsys.WriteState(path, data); err != nil {
		return fmt.Errorf("writing state: %w", err)
	}
	return nil
}

// writeAtomic replaces one file atomically and durably: renameio's
// temporary file, fsync and rename, right for a single file.
func writeAtomic(path string, data []byte) error {
	return renameio.WriteFile(path, data, 0o644)
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// LoadOthers reads the states of every other config instance whose state
// file lies beside self.
func LoadOthers(self string) (map[string]*State, error) {
	dir := filepath.Dir(self)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading states: %w", err)
	}
	out := map[string]*State{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) != ".json" || filepath.Join(dir, name) == self {
			continue
		}
		st, err := LoadState(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(name, ".json")] = st
	}
	return out, nil
}
