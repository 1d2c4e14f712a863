package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/render"
)

// Action is what apply does with one path.
type Action string

const (
	Create    Action = "create"    // absent, and agyconf wants it
	Recreate  Action = "recreate"  // agyconf's, deleted by someone
	Update    Action = "update"    // agyconf's, unchanged since written, now different
	Adopt     Action = "adopt"     // not recorded, but already what agyconf wants
	Unchanged Action = "unchanged" // agyconf's and already right
	Prune     Action = "prune"     // agyconf's, no longer wanted, unchanged since written
	Keep      Action = "keep"      // agyconf's, no longer wanted, but edited: left alone
	Conflict  Action = "conflict"  // exists and is not agyconf's, or was edited
	// Merge is the write of a shared file that carries its entries'
	// changes; the entries' own Changes say what changes.
	Merge Action = "merge"
)

// Change is the decision for one path.
type Change struct {
	Path string // relative to the root, forward slashes
	// Unit names the entry of a shared file the change is about
	// (mcpServers.github); empty for a whole file.
	Unit   string
	Action Action
	Reason string // for Conflict and Keep: why
	data   []byte // the whole file to write (Create/Recreate/Update) or nil
	mode   fs.FileMode
	remove bool // Prune of a whole file (a block prune rewrites data instead)
	state  *FileState
	// For showing the change: the document, the live content, and the
	// secret pointers recorded for it.
	doc     *render.Document
	live    []byte
	secrets []string
	// stateKey is where the state records the entry (Path when empty).
	stateKey string
	// backup is the content of a shared file agyconf takes over for the
	// first time, kept in the state folder before anything is merged.
	backup []byte
	// rebuild merges agyconf's entries into a shared file's content again,
	// for when the file changed between the decision and the write.
	rebuild func(current []byte) ([]byte, error)
}

func (c Change) key() string {
	if c.stateKey != "" {
		return c.stateKey
	}
	return c.Path
}

// Options locate one render.
type Options struct {
	// FS is the render root, opened once for the run (confine.Open); every
	// read and write below it goes through it.
	FS FS
	// Store is agyconf's own folder under the root, and Instance the name
	// of this config's state in it.
	Store    *Store
	Instance string
	// ExecBitOnly compares only the executable bit of modes, all git keeps:
	// a workspace's committed tree checked out under another umask is
	// still in sync.
	ExecBitOnly bool
	// Force overwrites what was edited since agyconf wrote it; Adopt
	// takes over what agyconf did not write (after a backup), Home
	// Manager's links included.
	Force, Adopt bool
	// Others are the states of the other config instances rendering into
	// the same root, by instance name: their files and entries are not
	// this instance's to take or to prune.
	Others map[string]*State
	// Secrets reads a secret file; only called for documents written.
	Secrets render.SecretReader
	// KeepDirs are folders, relative to Root with forward slashes, that
	// pruning never removes even when it empties them (the layout's own
	// folders and their parents). Other folders a prune empties go too.
	KeepDirs map[string]bool
	// ReadOutsideLinks reads the content of a target that is a link out of
	// the root (global scope: the user's own dotfiles elsewhere); without
	// it such a target is a conflict and is never read (a workspace, where
	// a cloned repository could link to any file of the machine, and diff
	// would print it). Either way a write replaces the link.
	ReadOutsideLinks bool
	// nixStore replaces /nix/store/ in tests, which cannot make one.
	nixStore string
}

// ConflictError lists every path apply refused to touch.
type ConflictError struct{ Changes []Change }

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d conflict(s); nothing was written:", len(e.Changes))
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "\n  %s: %s", c.Name(), c.Reason)
	}
	return b.String()
}

// Decide compares a plan with the live files and the state and returns one
// Change per path, sorted by path. It reads but never writes.
func Decide(plan *render.Plan, st *State, opts Options) ([]Change, error) {
	var out []Change
	wanted := map[string]bool{}
	ct := newContainer(opts.FS, opts.nixStore)
	if err := caseCollision(plan); err != nil {
		return nil, err
	}
	for _, d := range plan.Documents {
		wanted[d.Path] = true
		if c, escapes := ct.refuse(d.Path); escapes {
			out = append(out, c)
			continue
		}
		if d.Merge != nil {
			cs, err := decideShared(d, st, opts)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
			continue
		}
		c, err := decideDoc(d, st.Files[d.Path], opts)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	// Shared files the plan no longer has at all: their entries go.
	gone := map[string]bool{}
	for key := range st.Files {
		if file, _, ok := strings.Cut(key, unitSep); ok && !wanted[file] && !gone[file] {
			gone[file] = true
			if c, escapes := ct.refuse(file); escapes {
				out = append(out, c)
				continue
			}
			cs, err := decideShared(&render.Document{Path: file, Mode: render.ModeFile, JSON: map[string]any{}, Merge: &render.Merge{}}, st, opts)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	for p, fsState := range st.Files {
		if wanted[p] || strings.Contains(p, unitSep) {
			continue
		}
		if c, escapes := ct.refuse(p); escapes {
			out = append(out, c)
			continue
		}
		c, err := decideStale(p, fsState, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// live is a target as it is on disk.
type live struct {
	exists bool
	// link is the target of a symbolic link at the path: its content is
	// read through it, but a write replaces the link by a regular file
	// (a rename replaces the link itself), never writes through it.
	link string
	// outside is set for a link that leads out of the root and not into
	// the Nix store: agyconf does not read what it points to.
	outside bool
	data    []byte
	mode    fs.FileMode
}

// hmLink reports whether a link points into a Home Manager generation:
// replacing it would make the next `home-manager switch` abort, since HM
// refuses to clobber a file it did not link.
func (l live) hmLink() bool {
	return strings.HasPrefix(l.link, "/nix/store/") || strings.Contains(l.link, "home-manager-files")
}

const hmLinkReason = "is a link into a Home Manager generation; replacing it would make the next home-manager switch abort. Drop the Home Manager option that writes it, or pass --adopt to replace the link by agyconf's file"

// outsideLinkReason refuses a target that is a link out of the root: its
// content is not read (in a cloned workspace it could be any file of the
// machine, and diff would print it).
func outsideLinkReason(target string) string {
	return fmt.Sprintf("is a link to %s, outside the render root; agyconf neither reads nor writes through such a link: replace the link by the file it points to, or pass --adopt to replace it by agyconf's file (what it points to is left as it is)", target)
}

// readLive reads a target through the root. A link at the target is read
// through when it stays inside the root or points into the Nix store
// (Home Manager's links, world-readable by design); a link that leads
// elsewhere is reported, not read; a dangling one is absent. Anything that
// is not a regular file — a FIFO, a device — is refused without blocking.
func readLive(fsys FS, p string, readOutside bool) (live, error) {
	st, err := fsys.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return live{}, nil
	}
	if err != nil {
		return live{}, err
	}
	var l live
	if st.Mode()&fs.ModeSymlink != 0 {
		if l.link, err = fsys.Readlink(p); err != nil {
			return live{}, err
		}
	}
	data, fi, err := fsys.ReadFile(p, MaxLiveFileSize)
	var le *confine.LinkError
	switch {
	case err == nil:
		l.exists, l.data, l.mode = true, data, fi.Mode().Perm()
		return l, nil
	case errors.As(err, &le) && le.Reason == confine.LinkDangling, l.link != "" && errors.Is(err, fs.ErrNotExist):
		return l, nil // dangling: nothing to read, the link goes
	case errors.As(err, &le) && le.Reason == confine.LinkOutside && l.link != "" && (readOutside || l.hmLink()):
		// The store is read-only and world-readable, and a global root's
		// links are the user's own: read by path, bounded and without
		// blocking, to merge into or to back up.
		data, fi, err := confine.ReadFileInfo(fsys.Full(p), MaxLiveFileSize)
		if err != nil {
			return live{}, liveErr(fsys, p, err)
		}
		l.exists, l.data, l.mode = true, data, fi.Mode().Perm()
		return l, nil
	case errors.As(err, &le) && le.Reason == confine.LinkOutside && l.link != "":
		l.exists, l.outside = true, true
		return l, nil
	}
	return live{}, liveErr(fsys, p, err)
}

// liveErr words a live file that cannot be read.
func liveErr(fsys FS, p string, err error) error {
	var tl *confine.TooLargeError
	if errors.As(err, &tl) {
		return sizeError(fsys.Full(p), tl)
	}
	var nr *confine.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("%s exists and is %s, not a regular file; agyconf writes only regular files and never reads another kind: move it aside", fsys.Full(p), confine.KindOf(nr.Mode))
	}
	return err
}

func decideDoc(d *render.Document, owned *FileState, opts Options) (Change, error) {
	c := Change{Path: d.Path, mode: d.Mode, doc: d}
	l, err := readLive(opts.FS, d.Path, opts.ReadOutsideLinks)
	if err != nil {
		return c, err
	}
	c.live = l.data
	if owned != nil {
		c.secrets = owned.Secrets
	}
	if l.hmLink() && !opts.Adopt {
		c.Action, c.Reason = Conflict, hmLinkReason
		return c, nil
	}
	if l.outside && !opts.Adopt {
		c.Action, c.Reason = Conflict, outsideLinkReason(l.link)
		return c, nil
	}
	if other := opts.ownedElsewhere(d.Path); other != "" && owned == nil {
		c.Action, c.Reason = Conflict, otherInstance(other)
		return c, nil
	}
	wantHash, secrets, err := desiredHash(d)
	if err != nil {
		return c, err
	}
	c.state = &FileState{SHA256: wantHash, Block: d.Kind == render.ManagedBlock, Secrets: secrets}

	// What agyconf would write, secrets read: comparing it with the live
	// bytes in memory finds a rotated secret without ever hashing one.
	data, err := d.Bytes(opts.Secrets)
	if err != nil {
		return c, err
	}
	if d.Kind == render.ManagedBlock {
		data = spliceBlock(l.data, data)
	}

	// The live content of the part agyconf would own, hashed the way the
	// state records it: canonical, secrets redacted.
	var liveHash string
	var haveLive bool
	if l.outside {
		// --adopt: the link is replaced; it is all there is to back up.
		c.Action, c.backup, c.data = Adopt, []byte("symbolic link to "+l.link+"\n"), data
		return c, nil
	}
	if l.exists {
		liveHash, haveLive, err = liveHashOf(d, l.data, secrets, owned)
		if err != nil {
			return c, fmt.Errorf("%s: %w", d.Path, err)
		}
	}

	// A link is never up to date: it is replaced by a regular file.
	upToDate := haveLive && l.link == "" && bytes.Equal(l.data, data) && (opts.sameMode(l.mode, d.Mode) || d.Kind == render.ManagedBlock)
	switch {
	case !haveLive && owned != nil:
		c.Action = Recreate
	case !haveLive:
		c.Action = Create
	case upToDate && owned == nil:
		c.Action = Adopt // already right: only the state learns about it
		return c, nil
	case upToDate:
		c.Action = Unchanged
		return c, nil
	case liveHash == wantHash && owned == nil:
		c.Action = Adopt // the same content, formatted or moded otherwise
	case liveHash == wantHash:
		c.Action = Update // formatting, mode or a secret's value differs
	case owned == nil && opts.Adopt:
		c.Action, c.backup = Adopt, l.data
	case owned == nil:
		c.Action, c.Reason = Conflict, "exists and was not written by agyconf; move it aside, merge it into the config, or pass --adopt"
		return c, nil
	case !owned.matches(liveHash) && opts.Force:
		c.Action, c.backup = Update, l.data
	case !owned.matches(liveHash):
		c.Action, c.Reason = Conflict, "was edited since agyconf wrote it; move the edit into the config, delete the file to get agyconf's version back, or pass --force"
		return c, nil
	default:
		c.Action = Update
	}
	c.data = data
	return c, nil
}

func decideStale(p string, owned *FileState, opts Options) (Change, error) {
	c := Change{Path: p, secrets: owned.Secrets}
	l, err := readLive(opts.FS, p, opts.ReadOutsideLinks)
	if err != nil {
		return c, err
	}
	c.live = l.data
	if !l.exists || l.link != "" {
		c.Action = Prune // gone, or replaced by a link: only the state forgets it
		return c, nil
	}
	var h string
	if owned.Block {
		block, ok, err := extractBlock(l.data)
		if err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
		if !ok {
			c.Action = Prune
			return c, nil
		}
		h = sum(block)
		if owned.matches(h) {
			c.Action, c.data, c.mode = Prune, removeBlock(l.data), l.mode
			if len(c.data) == 0 {
				// The block was the whole file: the file goes with it.
				c.data, c.remove = nil, true
			}
			return c, nil
		}
	} else {
		h, err = hashLive(l.data, p, owned.Secrets)
		if err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
		if owned.matches(h) {
			c.Action, c.remove = Prune, true
			return c, nil
		}
	}
	c.Action, c.Reason = Keep, "is no longer in the config, but was edited since agyconf wrote it; left in place"
	return c, nil
}

// desiredHash hashes what agyconf will write, with secrets redacted.
func desiredHash(d *render.Document) (string, []string, error) {
	if d.JSON == nil {
		return sum(d.Text), nil, nil
	}
	canon, err := canonical(d.Redacted())
	if err != nil {
		return "", nil, err
	}
	return sum(canon), d.SecretPointers(), nil
}

// liveHashOf hashes the live content agyconf would own; ok is false when
// there is none (a managed block not present in the file).
func liveHashOf(d *render.Document, data []byte, secrets []string, owned *FileState) (string, bool, error) {
	if d.Kind == render.ManagedBlock {
		block, ok, err := extractBlock(data)
		if err != nil || !ok {
			return "", false, err
		}
		return sum(block), true, nil
	}
	if d.JSON == nil {
		return sum(data), true, nil
	}
	// Redact where the recorded state saw secrets and where the plan puts
	// them now, so a secret moving in or out is a change, not a conflict.
	ptrs := secrets
	if owned != nil {
		ptrs = append(append([]string(nil), secrets...), owned.Secrets...)
	}
	h, err := hashLive(data, d.Path, ptrs)
	return h, true, err
}

// hashLive hashes a live JSON file in canonical form with the string values
// at ptrs replaced by the placeholder. A file that is not valid JSON is
// reported with its position: agyconf never overwrites what it cannot read.
func hashLive(data []byte, p string, ptrs []string) (string, error) {
	if !strings.HasSuffix(p, ".json") {
		return sum(data), nil
	}
	if !json.Valid(data) {
		var v any
		return "", jsonPosError(data, json.Unmarshal(data, &v))
	}
	return redactedHash(data, ptrs)
}

// redactedHash hashes JSON in canonical form — keys sorted, compact,
// numbers as written — with the string values at ptrs ("" for the value
// itself) replaced by the placeholder: the one hash the state records, for
// whole files and for entries of shared files alike.
func redactedHash(raw []byte, ptrs []string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	for _, ptr := range ptrs {
		if _, isStr := v.(string); ptr == "" && isStr {
			v = render.Placeholder
			continue
		}
		setPointer(v, ptr, render.Placeholder)
	}
	canon, err := canonical(v)
	if err != nil {
		return "", err
	}
	return sum(canon), nil
}

func jsonPosError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range data[:min(int(se.Offset), len(data))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se)
	}
	return fmt.Errorf("not valid JSON: %w", err)
}

// canonical is compact JSON with sorted keys: key order and indentation do
// not change a hash.
func canonical(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// setPointer replaces the string value at an RFC 6901 pointer, if present.
func setPointer(v any, ptr, val string) {
	parts := strings.Split(ptr, "/")[1:]
	for i, raw := range parts {
		key := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		last := i == len(parts)-1
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[key]
			if !ok {
				return
			}
			if last {
				if _, isStr := e.(string); isStr {
					x[key] = val
				}
				return
			}
			v = e
		case []any:
			var n int
			if _, err := fmt.Sscanf(key, "%d", &n); err != nil || n < 0 || n >= len(x) {
				return
			}
			if last {
				if _, isStr := x[n].(string); isStr {
					x[n] = val
				}
				return
			}
			v = x[n]
		default:
			return
		}
	}
}

// Execute carries out changes: every write is atomic (a temporary file
// renamed over the target), and the state is saved last, so an interrupted
// run leaves each file old or new and the next run converges.
func Execute(changes []Change, st *State, opts Options) error {
	var conflicts []Change
	for _, c := range changes {
		if c.Action == Conflict {
			conflicts = append(conflicts, c)
		}
	}
	if len(conflicts) > 0 {
		return &ConflictError{Changes: conflicts}
	}
	if err := checkWriteSizes(changes); err != nil {
		return err
	}
	var secrets []string // values, only to keep them out of backups
	for _, c := range changes {
		if c.backup == nil {
			continue
		}
		if secrets == nil {
			secrets = secretValues(changes, opts.Secrets)
		}
		if err := opts.Store.Backup(c.Path, RedactValues(redactPointers(c.backup, c), secrets)); err != nil {
			return err
		}
	}
	b := &batch{fs: opts.FS, keep: opts.KeepDirs, contain: newContainer(opts.FS, opts.nixStore)}
	for _, c := range changes {
		switch {
		case c.remove:
			b.remove(c.Path)
		case c.data != nil:
			b.write(c.Path, c.data, c.mode, c.live, c.rebuild)
		}
	}
	if len(b.items) > 0 || len(b.removes) > 0 {
		// Record what is about to be written before writing it.
		for _, c := range changes {
			if c.state == nil || (c.data == nil && !c.remove) && c.Unit == "" {
				continue
			}
			if prev := st.Files[c.key()]; prev != nil {
				p := *prev
				p.Pending = c.state.SHA256
				st.Files[c.key()] = &p
			} else if c.state.SHA256 != "" {
				st.Files[c.key()] = &FileState{Pending: c.state.SHA256, Secrets: c.state.Secrets, Block: c.state.Block}
			}
		}
		if err := opts.Store.SaveState(opts.Instance, st); err != nil {
			return fmt.Errorf("%w; nothing was written", err)
		}
	}
	if err := b.commit(); err != nil {
		return err
	}
	for _, c := range changes {
		switch c.Action {
		case Prune:
			delete(st.Files, c.key())
		case Keep, Merge:
			// Keep: still recorded, a later render may prune it once
			// restored. Merge: the entries record themselves.
		default:
			if c.state != nil {
				st.Files[c.key()] = c.state
			}
		}
	}
	if err := opts.Store.SaveState(opts.Instance, st); err != nil {
		// The pending hashes saved before the batch make what was just
		// written agyconf's own to the next render.
		return fmt.Errorf("%w; the files are in place, and the next render records them", err)
	}
	return nil
}

// minRedacted is the shortest secret value redacted from backups by value:
// shorter ones would match too much of a file to keep it useful.
const minRedacted = 4

// secretValues reads the values of the secrets the changes write, so that
// a backup of a file that held them can leave them out.
func secretValues(changes []Change, read render.SecretReader) []string {
	var paths []string
	for _, c := range changes {
		if c.doc != nil {
			paths = append(paths, c.doc.SecretFiles()...)
		}
	}
	return SecretValues(paths, read)
}

// SecretValues reads the secret files at paths with read, skipping those
// it cannot read and values too short to redact, longest first so that a
// secret containing another is replaced whole: what RedactValues takes.
func SecretValues(paths []string, read render.SecretReader) []string {
	values := []string{}
	if read == nil {
		return values
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if v, err := read(p); err == nil && len(v) >= minRedacted {
			values = append(values, v)
		}
	}
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	return values
}

// redactPointers replaces the strings at the places agyconf puts secrets
// — where the plan puts them now and where the state says it put them —
// by "<secret>", in a JSON file being backed up. It catches values that are
// no longer any secret file's (rotated since); what does not parse is
// left to redactValues.
func redactPointers(data []byte, c Change) []byte {
	if c.doc == nil || c.doc.JSON == nil {
		return data
	}
	doc, err := jsonmerge.Parse(data)
	if err != nil {
		return data
	}
	placeholder := json.RawMessage(`"<secret>"`)
	redacted := false
	for _, ptr := range append(c.doc.SecretPointers(), c.secrets...) {
		path, _, _ := parseUnitKey(unitSep + ptr)
		raw, ok := doc.Get(path...)
		var str string
		if !ok || json.Unmarshal(raw, &str) != nil {
			continue // not there, or not a string: nothing agyconf wrote
		}
		if doc.Set(placeholder, path...) != nil {
			return data
		}
		redacted = true
	}
	if !redacted {
		return data // as it was, byte for byte
	}
	return doc.Bytes()
}

// RedactValues replaces each value, as written raw or JSON-escaped, by
// <secret>: in a backup, which is of a file as it was and may hold what
// agyconf wrote there before, secrets included; and in whatever diff
// shows, where a user's own entry may hold the same value as a secret.
func RedactValues(data []byte, values []string) []byte {
	for _, v := range values {
		data = bytes.ReplaceAll(data, []byte(v), []byte("<secret>"))
		for _, html := range []bool{false, true} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if enc.Encode(v) == nil {
				esc := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
				data = bytes.ReplaceAll(data, esc[1:len(esc)-1], []byte("<secret>"))
			}
		}
	}
	return data
}

// ownedElsewhere names the other instance that owns key, or "".
func (o Options) ownedElsewhere(key string) string {
	names := make([]string, 0, len(o.Others))
	for n := range o.Others {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := o.Others[n].Files[key]; ok {
			return n
		}
	}
	return ""
}

// otherInstance is the reason for a conflict with another config instance.
func otherInstance(name string) string {
	return fmt.Sprintf("belongs to the config instance %q rendering into the same root; one entry, one owner", name)
}

func (o Options) sameMode(live, want fs.FileMode) bool {
	if o.ExecBitOnly {
		return (live&0o111 != 0) == (want&0o111 != 0)
	}
	return live == want
}
