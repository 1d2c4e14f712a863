package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/jsonmerge"
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
// <name>/agent.md (agentFolderVersion, State.Move). 4 → 5: what letting go
// needs — the layouts of earlier renders, the shared files agyconf made
// and what it last wrote there, the folders it made, what it wrote into a
// unit before, and the entries it removed (each empty in a migrated
// state). 5 → 6: the containers of the shared files (empty in a migrated
// state: the entries' own, as before).
const StateVersion = 6

// MaxEarlier bounds the hashes kept of what agyconf wrote into one unit
// before its latest (FileState.Earlier), and MaxGone the entries it
// removed that it remembers (State.Gone): agy writes back a copy it read
// before agyconf's last render or two, not one from months ago.
const (
	MaxEarlier = 4
	MaxGone    = 256
)

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
	// Layout lists, by kind, the layout overrides of this config's renders
	// that units it records were written under (since version 5): a path
	// an override put a file at stays a place agyconf may let go of after
	// the override is dropped or changed (State.places).
	Layout map[string][]string `json:"layout,omitempty"`
	// Shared records the shared files agyconf merges entries into, by
	// path (since version 5).
	Shared map[string]*SharedFile `json:"shared,omitempty"`
	// Folders are the folders agyconf created (mkdir) below the root, each
	// removed once a render or clean leaves it empty (since version 5).
	Folders []string `json:"folders,omitempty"`
	// Gone are entries of shared files agyconf removed (list items
	// included), with what it had written there, oldest first, at most
	// MaxGone (since version 5): one that comes back identical (agy
	// writing back a copy it read before the removal) is agyconf's, not
	// found.
	Gone []Gone `json:"gone,omitempty"`
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
	// Earlier are the hashes of what agyconf wrote into the unit before
	// SHA256, oldest first, at most MaxEarlier (since version 5): content
	// agyconf itself wrote is its own, whoever wrote it back.
	Earlier []string `json:"earlier,omitempty"`
	// Written: agyconf wrote what SHA256 hashes. Said only of a found
	// unit (or one of unknown origin), which holds what agyconf found
	// until a write over it is in place; every other origin is written.
	Written bool `json:"written,omitempty"`
	// SecretsBefore are the pointers of strings that held secrets in what
	// Pending and Earlier hash, where those were other than Secrets (a
	// secret moved, or secret_mode changed, between renders; since
	// version 5): each hash is matched with the places it was taken with.
	SecretsBefore []string `json:"secrets_before,omitempty"`
}

// ptrSets are the sets of secrets' places a unit's hashes may have been
// taken with, for a plan that puts secrets at plan: what the record says
// and what the plan says, each alone and together.
func (f *FileState) ptrSets(plan []string) [][]string {
	var sets [][]string
	add := func(ps ...[]string) {
		var set []string
		for _, p := range ps {
			for _, x := range p {
				if !slices.Contains(set, x) {
					set = append(set, x)
				}
			}
		}
		sort.Strings(set)
		if !slices.ContainsFunc(sets, func(s []string) bool { return slices.Equal(s, set) }) {
			sets = append(sets, set)
		}
	}
	var rec, before []string
	if f != nil {
		rec, before = f.Secrets, f.SecretsBefore
	}
	add(plan, rec)
	add(rec)
	add(plan)
	if len(before) > 0 {
		add(before)
		add(rec, before)
		add(plan, rec, before)
	}
	return sets
}

// unionSorted is the sorted union of pointer lists, without the ones in
// minus; nil when empty.
func unionSorted(minus []string, lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, x := range l {
			if !slices.Contains(out, x) && !slices.Contains(minus, x) {
				out = append(out, x)
			}
		}
	}
	sort.Strings(out)
	return out
}

// SharedFile is what the state records of a shared file as a whole.
type SharedFile struct {
	// Created: agyconf created the file (there was none when it first
	// merged into it); once it holds nothing but the empty objects and
	// lists agyconf's entries lived in, the file goes.
	Created bool `json:"created,omitempty"`
	// SHA256 is the hash of the bytes agyconf last wrote, and Pending the
	// hashes of what renders cut short were writing (and, until the first
	// write is in place, of the file as agyconf took it over): a file
	// whose bytes match is as agyconf left it, so the file it took over
	// can be given back byte for byte.
	SHA256  string   `json:"sha256,omitempty"`
	Pending []string `json:"pending,omitempty"`
	// Others: a render found the file other than agyconf last wrote it
	// (agy or the user wrote it since): what agyconf took over is never
	// given back whole, only entry by entry.
	Others bool `json:"others,omitempty"`
	// Containers are the JSON pointers of the objects and lists agyconf's
	// entries have lived in (since version 6, added to by each render):
	// letting go drops the empty ones the file did not have when taken
	// over, also after the entries that lived there were pruned by an
	// earlier render and their records are gone.
	Containers []string `json:"containers,omitempty"`
}

// addContainers records the objects and lists the entries keys live in.
func (f *SharedFile) addContainers(keys []string) {
	for _, key := range keys {
		for _, p := range containersOf(key) {
			if ptr := pointer(p); !slices.Contains(f.Containers, ptr) {
				f.Containers = append(f.Containers, ptr)
			}
		}
	}
	sort.Strings(f.Containers)
}

// containersOf is the paths of the objects and lists the entry key lives
// in, deepest first.
func containersOf(key string) [][]string {
	path, _, isItem := parseUnitKey(key)
	if !isItem && len(path) > 0 {
		path = path[:len(path)-1]
	}
	var out [][]string
	for ; len(path) > 0; path = path[:len(path)-1] {
		out = append(out, slices.Clone(path))
	}
	return out
}

// wrote reports whether data is what agyconf last wrote, or was writing.
func (f *SharedFile) wrote(data []byte) bool {
	if f == nil || (f.SHA256 == "" && len(f.Pending) == 0) {
		return false
	}
	h := sum(data)
	return h == f.SHA256 || slices.Contains(f.Pending, h)
}

// Gone is an entry agyconf removed from a shared file: its state key, the
// hashes of what agyconf had written there, and the pointers of the
// secrets they were taken with.
type Gone struct {
	Key           string   `json:"key"`
	Hashes        []string `json:"hashes"`
	Secrets       []string `json:"secrets,omitempty"`
	SecretsBefore []string `json:"secrets_before,omitempty"`
	// Origin and Original are as the unit's record had them: an entry
	// agyconf adopted and gave back, that comes back as agyconf wrote it,
	// is adopted again, with the same original to give back.
	Origin   Origin `json:"origin,omitempty"`
	Original string `json:"original,omitempty"`
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

// matches reports whether h is the hash of content agyconf wrote, was
// writing, or wrote before.
func (f *FileState) matches(h string) bool {
	return h == f.SHA256 || slices.Contains(f.Pending, h) || slices.Contains(f.Earlier, h)
}

// wrote reports whether agyconf wrote what the record's SHA256 hashes.
func (f *FileState) wrote() bool {
	return f.Written || (f.Origin != OriginFound && f.Origin != OriginUnknown)
}

// wroteBefore is the history a unit's record carries into its next one:
// what agyconf wrote there (the hash recorded, unless it is content that
// was found and never written over, and what renders cut short were
// writing), newest last, at most MaxEarlier, without now.
func (f *FileState) wroteBefore(now string) []string {
	if f == nil {
		return nil
	}
	hist := slices.Clone(f.Earlier)
	add := func(h string) {
		if h != "" && h != now && !slices.Contains(hist, h) {
			hist = append(hist, h)
		}
	}
	if f.wrote() {
		add(f.SHA256)
	}
	for _, p := range f.Pending {
		add(p)
	}
	hist = slices.DeleteFunc(hist, func(h string) bool { return h == now })
	if len(hist) > MaxEarlier {
		hist = hist[len(hist)-MaxEarlier:]
	}
	return hist
}

// gone finds the record of an entry agyconf removed.
func (s *State) gone(key string) *Gone {
	for i := len(s.Gone) - 1; i >= 0; i-- {
		if s.Gone[i].Key == key {
			return &s.Gone[i]
		}
	}
	return nil
}

// remember records that agyconf let go of the entry key, whose record
// was f, removing it or giving back what was there before: what it wrote
// there, for when it comes back.
func (s *State) remember(key string, f *FileState) {
	if f == nil || !strings.Contains(key, unitSep) {
		return
	}
	hashes := f.wroteBefore("")
	if f.Item {
		// An item is its own content, which its key spells: what agyconf
		// wrote there is the item (itemHash).
		_, item, _ := parseUnitKey(key)
		hashes = []string{itemHash(item)}
	}
	if len(hashes) == 0 {
		return
	}
	s.forgetGone(key)
	g := Gone{Key: key, Hashes: hashes, Secrets: slices.Clone(f.Secrets), SecretsBefore: unionSorted(f.Secrets, f.SecretsBefore)}
	if f.Origin != OriginCreated && f.Original != "" {
		g.Origin, g.Original = f.Origin, f.Original
	}
	s.Gone = append(s.Gone, g)
	if len(s.Gone) > MaxGone {
		s.Gone = slices.Clone(s.Gone[len(s.Gone)-MaxGone:])
	}
}

// itemHash is what the state records as written into a list item it
// removed (Gone.Hashes): the hash of the item's text.
func itemHash(item string) string { return sum([]byte(item)) }

// forgetGone drops the record of a removed entry (it is recorded again).
func (s *State) forgetGone(key string) {
	s.Gone = slices.DeleteFunc(s.Gone, func(g Gone) bool { return g.Key == key })
}

// asOwned is a removed entry as a record of one agyconf created (or, one
// it gave back, took over as it was then): what deciding it against the
// live file compares with.
func (g *Gone) asOwned() *FileState {
	if _, item, isItem := parseUnitKey(g.Key); isItem {
		if !slices.Contains(g.Hashes, itemHash(item)) {
			return nil // not what agyconf wrote there (an edited state)
		}
		return &FileState{Item: true, Origin: OriginCreated}
	}
	// Every hash is of what agyconf wrote.
	f := &FileState{SHA256: g.Hashes[len(g.Hashes)-1], Earlier: g.Hashes[:len(g.Hashes)-1], Secrets: g.Secrets, SecretsBefore: g.SecretsBefore, Origin: OriginCreated, Written: true}
	if g.Origin != "" && g.Original != "" {
		f.Origin, f.Original = g.Origin, g.Original
	}
	return f
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
		Version json.RawMessage `json:"version"`
	}
	_ = json.Unmarshal(data, &head)
	version := StateVersion
	if head.Version != nil {
		// A version that is not a small whole number (1e99999999, 2.5,
		// "5") is named as written: decoded into an int it read as 0.
		n, err := strconv.Atoi(string(head.Version))
		if err != nil {
			line, col := 1, 1
			if t, err := jsonmerge.Read(data, jsonmerge.Syntax{}); err == nil {
				line, col, _ = t.LocatePointer("/version", false)
			}
			return nil, fmt.Errorf("state file %s:%d:%d has version %s, which no agyconf wrote (a version is a whole number); %s", name, line, col, truncateVersion(head.Version), startOver(name))
		}
		version = n
	}
	return parseStateAs(validators, name, data, version)
}

// truncateVersion is a version's text as the message quotes it: at most
// 40 bytes of what the file holds.
func truncateVersion(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
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
	case version == 4:
		// Version 5 added members only.
		schemaName = schema.StateV4
	case version == 5:
		// Version 6 added a member only (SharedFile.Containers).
		schemaName = schema.StateV5
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
	if version < 5 {
		migrateV4(&s)
	}
	if version < StateVersion {
		// Every version from 2 on has the current shape but for what
		// migrateV2 adds; where artifacts lived is moved on disk under
		// the lock (NeedsMove, State.Move).
		s.Version, s.migratedFrom = StateVersion, version
	}
	return &s, nil
}

// migrateV4 reads a state from before version 5, which did not record
// the shared files agyconf wrote: each it has entries in is one it has
// written into (so a later write takes no second whole-file backup, which
// would shadow the first), what it wrote there unknown (so nothing is
// given back byte for byte until it writes the file again).
func migrateV4(s *State) {
	for k := range s.Files {
		if file, _, ok := strings.Cut(k, unitSep); ok {
			s.shared(file)
		}
	}
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
	migrateV4(s)
	return s, nil
}

// encode is the state's canonical form: sorted keys and lists, two-space
// indent, a trailing newline.
func (s *State) encode() ([]byte, error) {
	s.Version = StateVersion
	for _, f := range s.Files {
		sort.Strings(f.Secrets)
		sort.Strings(f.Pending)
		sort.Strings(f.SecretsBefore)
	}
	for _, f := range s.Shared {
		sort.Strings(f.Pending)
	}
	for _, ps := range s.Layout {
		sort.Strings(ps)
	}
	sort.Strings(s.Folders)
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
