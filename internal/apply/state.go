package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/agyconf/agyconf/schema"
)

// StateVersion is bumped when the state file's shape changes.
const StateVersion = 1

// MaxStateSize bounds a state file: about 150 bytes an owned entry, so a
// state of 100,000 entries is 15 MB.
const MaxStateSize = 64 << 20

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

// NewState is the state of an instance that has written nothing.
func NewState() *State { return &State{Version: StateVersion, Files: map[string]*FileState{}} }

// ParseState reads a state file's content. It is checked against the
// state's schema first — the file may have been edited by hand, cut short,
// or (in a workspace) committed by someone else — so a bad one is an error
// naming the place, never a panic or a wrong decision. name is the file,
// for messages.
func ParseState(name string, data []byte) (*State, error) {
	v, err := schema.NewValidator(schema.State)
	if err != nil {
		return nil, err
	}
	return parseState(v, name, data)
}

func parseState(v *schema.Validator, name string, data []byte) (*State, error) {
	startOver := fmt.Sprintf("move %s aside to start over (agyconf then treats every existing file as not its own, and asks before taking any over)", name)
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err == nil && head.Version != nil && *head.Version != StateVersion {
		if *head.Version > StateVersion {
			return nil, fmt.Errorf("state file %s has version %d, written by a newer agyconf; this one reads version %d: upgrade agyconf, or %s", name, *head.Version, StateVersion, startOver)
		}
		return nil, fmt.Errorf("state file %s has version %d; this agyconf reads version %d: %s", name, *head.Version, StateVersion, startOver)
	}
	if !json.Valid(data) {
		var x any
		return nil, fmt.Errorf("state file %s %v (cut short, or edited by hand); %s", name, jsonPosError(data, json.Unmarshal(data, &x)), startOver)
	}
	if err := v.ValidateJSON(schema.State, data); err != nil {
		var de *schema.DocumentError
		if errors.As(err, &de) && len(de.Findings) > 0 {
			f := de.Findings[0]
			return nil, fmt.Errorf("state file %s:%d:%d: %s; %s", name, f.Line, f.Column, f.Message, startOver)
		}
		return nil, fmt.Errorf("state file %s: %v; %s", name, err, startOver)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("state file %s: %v; %s", name, err, startOver)
	}
	return &s, nil
}

// encode is the state's canonical form: sorted keys and lists, two-space
// indent, a trailing newline.
func (s *State) encode() ([]byte, error) {
	for _, f := range s.Files {
		sort.Strings(f.Secrets)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
