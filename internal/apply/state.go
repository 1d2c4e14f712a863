package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/schema"
)

// StateVersion is the shape of the state this agyconf writes. Every
// change to the state's shape, or to where artifacts live, bumps it, with
// a migration from each older version (migrate.go) and a test of it; an
// older agyconf meeting a newer state refuses it with a message.
//
// 1 → 2: origins, several pending hashes (migrateV1). 2 → 3: the list of
// what waits for a secret (migrateV2). 3 → 4: subagents live in folders,
// <name>/agent.md (agentFolderVersion, State.Move).
const StateVersion = 4

// MaxStateSize bounds a state file, and the other instances' states of
// one root together: about 150 bytes an owned entry, so a state of
// 100,000 entries is 15 MB.
const MaxStateSize = 64 << 20

// MaxInstances bounds how many other instances' states one run reads.
const MaxInstances = 256

// State is what one config instance owns under one root: per file, or per
// entry of a shared file ("<file>#<JSON pointer>"), the hash of its content
// with secrets replaced by a placeholder (never of a secret), and how
// agyconf came to own it.
type State struct {
	Version int `json:"version"`
	// Instance is the config instance; Config where its config was the
	// last time it rendered.
	Instance string                `json:"instance,omitempty"`
	Config   string                `json:"config,omitempty"`
	Files    map[string]*FileState `json:"files"`
	// Backups lists every backup of content agyconf overwrote without
	// having written it, oldest first.
	Backups []Backup `json:"backups,omitempty"`
	// Waiting lists, by unit key, what the last render left as it was
	// because an inline secret it needs could not be read yet (render
	// --defer-secrets), with those secret files: since state version 3.
	Waiting map[string][]string `json:"waiting,omitempty"`
	// migratedFrom is the version the state was read as, when older.
	migratedFrom int
	// read: the state was read from its file, not made new for an
	// instance that had none.
	read bool
	// byFile lists the keys of shared files' entries by file, built once
	// per decision (index): looking them up by scanning every key for
	// every file was quadratic in a state of many files.
	byFile map[string][]string
}

// index builds byFile.
func (s *State) index() {
	s.byFile = map[string][]string{}
	for k := range s.Files {
		if file, _, ok := strings.Cut(k, unitSep); ok {
			s.byFile[file] = append(s.byFile[file], k)
		}
	}
	for _, keys := range s.byFile {
		sort.Strings(keys)
	}
}

// keysByFile returns the keys of shared files' entries, by file.
func (s *State) keysByFile() map[string][]string {
	if s.byFile == nil {
		s.index()
	}
	return s.byFile
}

// FileState records one owned unit.
type FileState struct {
	// SHA256 is the hash of the redacted content (desiredHash, unitHash).
	SHA256 string `json:"sha256"`
	// Origin is how agyconf came to own it, which decides what releasing
	// it does.
	Origin Origin `json:"origin,omitempty"`
	// Original is the backup of the content agyconf last overwrote without
	// having written it: what is given back when agyconf lets go.
	Original string `json:"original,omitempty"`
	// Block is set when agyconf owns only a managed block of the file.
	Block bool `json:"block,omitempty"`
	// BlockSyntax is the comment syntax of the block's marker lines when
	// it is not markdown's (which states written before there was another
	// leave out): a prune must find the block with the markers it was
	// written with.
	BlockSyntax agy.BlockSyntax `json:"block_syntax,omitempty"`
	// Item is set for an item of a string list in a shared file; an item
	// is its own content, so it has no hash.
	Item bool `json:"item,omitempty"`
	// Secrets lists the JSON pointers of string values that held secrets;
	// they are replaced by a placeholder before hashing.
	Secrets []string `json:"secrets,omitempty"`
	// Pending are the hashes of what renders were about to write,
	// recorded before they wrote and kept until a render completes: if
	// renders die between the files and the state, any number in a row,
	// the next one still knows each content for its own.
	Pending []string `json:"pending,omitempty"`
}

// Backup is one backup in the store's backups/.
type Backup struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Entry  string `json:"entry,omitempty"`
	Reason string `json:"reason"`
	// Secrets are where agyconf took a secret out of the backup, and the
	// string it was, so that giving the backup back puts it back.
	Secrets []BackupSecret `json:"secrets,omitempty"`
}

// BackupSecret is one secret taken out of a backup: the string at Pointer
// (relative to the backup) was Parts, with the secret files read.
type BackupSecret struct {
	Pointer string    `json:"pointer"`
	Parts   model.Str `json:"parts"`
}

// matches reports whether h is the hash of content agyconf wrote or was
// writing.
func (f *FileState) matches(h string) bool {
	if h == f.SHA256 {
		return true
	}
	for _, p := range f.Pending {
		if h == p {
			return true
		}
	}
	return false
}

// addPending records h as about to be written, beside every hash still
// pending from renders cut short.
func (f *FileState) addPending(h string) {
	if h == "" || h == f.SHA256 {
		return
	}
	for _, p := range f.Pending {
		if p == h {
			return
		}
	}
	f.Pending = append(f.Pending, h)
}

// NewState is the state of an instance that has written nothing.
func NewState() *State { return &State{Version: StateVersion, Files: map[string]*FileState{}} }

// MigratedFrom is the version the state was read as when it was older
// than StateVersion, else 0.
func (s *State) MigratedFrom() int { return s.migratedFrom }

// ParseState reads a state file's content. It is checked against the
// state's schema first — the file may have been edited by hand, cut short,
// or (in a workspace) committed by someone else — so a bad one is an error
// naming the place, never a panic or a wrong decision; an older version is
// migrated. name is the file, for messages.
func ParseState(name string, data []byte) (*State, error) {
	return parseState(nil, name, data)
}

func parseState(validators map[string]*schema.Validator, name string, data []byte) (*State, error) {
	// What agyconf wrote names its version first: read it there, and the
	// schema check that follows says whether the text is JSON, as each
	// of the scans it saves did (a schema check passes only strict JSON
	// with no key twice). Anything else, and any failure, is read the
	// long way, whose errors are the ones reported.
	if v, ok := leadingVersion(data); ok {
		if s, err := parseStateAs(validators, name, data, v); err == nil {
			return s, nil
		}
	}
	return parseStateLong(validators, name, data)
}

// parseStateLong is parseState the long way: JSON first, then the version
// wherever it is, then the schema of that version.
func parseStateLong(validators map[string]*schema.Validator, name string, data []byte) (*State, error) {
	if !json.Valid(data) {
		var x any
		return nil, fmt.Errorf("state file %s %v (cut short, or edited by hand); %s", name, jsonPosError(data, json.Unmarshal(data, &x)), startOver(name))
	}
	var head struct {
		Version *int `json:"version"`
	}
	_ = json.Unmarshal(data, &head)
	version := StateVersion
	if head.Version != nil {
		version = *head.Version
	}
	return parseStateAs(validators, name, data, version)
}

// statePrefix is how every state agyconf writes begins (State.encode:
// Version is the struct's first field, two-space indent).
const statePrefix = "{\n  \"version\": "

// leadingVersion reads the version a state names as its first member, in
// the form agyconf writes it; ok is false for any other text.
func leadingVersion(data []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(statePrefix))
	if !ok {
		return 0, false
	}
	n, digits := 0, 0
	for digits < len(rest) && digits < 6 && rest[digits] >= '0' && rest[digits] <= '9' {
		n = n*10 + int(rest[digits]-'0')
		digits++
	}
	if digits == 0 || (digits > 1 && rest[0] == '0') || digits == len(rest) || rest[digits] != ',' {
		return 0, false
	}
	return n, true
}

// startOver is how a message about a state that cannot be read ends.
func startOver(name string) string {
	return fmt.Sprintf("move %s aside to start over (agyconf then treats every existing file as not its own, and asks before taking any over)", name)
}

// decodeAlongside is the size of state from which it is decoded while it
// is checked (parseStateAs); below it, a goroutine costs more than it
// saves.
const decodeAlongside = 64 << 10

// parseStateAs checks and reads a state that names version.
func parseStateAs(validators map[string]*schema.Validator, name string, data []byte, version int) (*State, error) {
	schemaName := schema.State
	switch {
	case version > StateVersion:
		return nil, fmt.Errorf("state file %s has version %d, written by a newer agyconf; this one reads versions up to %d: upgrade agyconf, or %s", name, version, StateVersion, startOver(name))
	case version == 1:
		schemaName = schema.StateV1
	case version == 2:
		schemaName = schema.StateV2
	case version == 3:
		// The shape of version 4; only where subagents live changed
		// (agentFolderVersion).
		schemaName = schema.StateV3
	case version < 1:
		return nil, fmt.Errorf("state file %s has version %d, which no agyconf wrote; %s", name, version, startOver(name))
	}
	v := validators[schemaName]
	if v == nil {
		var err error
		if v, err = schema.NewValidator(schemaName); err != nil {
			return nil, err
		}
		if validators != nil {
			validators[schemaName] = v
		}
	}
	// A large state is decoded while it is checked, on another core, and
	// the decoding is used only once the check passed: the check and the
	// decoding of 10,000 entries take 69 and 20 ms, and every command that
	// decides waits for them.
	var s State
	var uerr error
	var decoding sync.WaitGroup
	alongside := version != 1 && len(data) >= decodeAlongside
	if alongside {
		decoding.Go(func() { uerr = json.Unmarshal(data, &s) })
	}
	err := v.ValidateJSON(schemaName, data)
	decoding.Wait()
	if err != nil {
		var de *schema.DocumentError
		if errors.As(err, &de) && len(de.Findings) > 0 {
			f := de.Findings[0]
			return nil, fmt.Errorf("state file %s:%d:%d: %s; %s", name, f.Line, f.Column, f.Message, startOver(name))
		}
		return nil, fmt.Errorf("state file %s: %v; %s", name, err, startOver(name))
	}
	if version == 1 {
		return migrateV1(name, data)
	}
	if !alongside {
		uerr = json.Unmarshal(data, &s)
	}
	if uerr != nil {
		return nil, fmt.Errorf("state file %s: %v; %s", name, uerr, startOver(name))
	}
	if s.Files == nil {
		s.Files = map[string]*FileState{}
	}
	if version == 2 {
		migrateV2(&s)
	}
	if version < StateVersion {
		// Every version from 2 on has the current shape but for what
		// migrateV2 adds; where artifacts lived is moved on disk under
		// the lock (NeedsMove, State.Move).
		s.Version, s.migratedFrom = StateVersion, version
	}
	return &s, nil
}

// migrateV2 reads a state of version 2, which had no list of what waits
// for a secret: nothing did (a render refused an unreadable inline secret),
// so the shape of version 3 holds it as it is.
func migrateV2(s *State) {
	s.Version, s.migratedFrom, s.Waiting = StateVersion, 2, nil
}

// migrateV1 reads a state of version 1: one pending hash, no origins. A
// version 1 state cannot say whether agyconf created a unit or found it
// (it adopted identical content silently), so each is Unknown: never
// removed, only released. Its subagents are flat files, as in version 2:
// State.Move moves them (NeedsMove).
func migrateV1(name string, data []byte) (*State, error) {
	var v1 struct {
		Files map[string]struct {
			SHA256  string   `json:"sha256"`
			Block   bool     `json:"block"`
			Item    bool     `json:"item"`
			Secrets []string `json:"secrets"`
			Pending string   `json:"pending"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, fmt.Errorf("state file %s: %v", name, err)
	}
	s := NewState()
	s.migratedFrom = 1
	for k, f := range v1.Files {
		fs := &FileState{SHA256: f.SHA256, Origin: OriginUnknown, Block: f.Block, Item: f.Item, Secrets: f.Secrets}
		if f.Pending != "" {
			fs.Pending = []string{f.Pending}
		}
		s.Files[k] = fs
	}
	return s, nil
}

// encode is the state's canonical form: sorted keys and lists, two-space
// indent, a trailing newline.
func (s *State) encode() ([]byte, error) {
	s.Version = StateVersion
	for _, f := range s.Files {
		sort.Strings(f.Secrets)
		sort.Strings(f.Pending)
	}
	for _, w := range s.Waiting {
		sort.Strings(w)
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
