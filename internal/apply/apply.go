package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// Action is what apply does with one path.
type Action string

const (
	Create    Action = "create"    // absent, and agyconf wants it
	Recreate  Action = "recreate"  // agyconf's, deleted by someone
	Update    Action = "update"    // agyconf's, unchanged since written, now different
	Adopt     Action = "adopt"     // not agyconf's and different: taken over with --adopt, after a backup
	Found     Action = "found"     // not recorded, but already what agyconf wants: recorded as found
	Unchanged Action = "unchanged" // agyconf's and already right
	Prune     Action = "prune"     // created by agyconf, no longer wanted, unchanged since written: removed
	Release   Action = "release"   // found by agyconf, no longer wanted: left in place, forgotten
	Restore   Action = "restore"   // taken over by agyconf, no longer wanted: what was there before is put back
	Keep      Action = "keep"      // agyconf's, no longer wanted, but edited: left alone
	Conflict  Action = "conflict"  // exists and is not agyconf's, or was edited
	// Pending: it needs an inline secret that cannot be read yet
	// (render --defer-secrets): left as it is, written once it can be.
	Pending Action = "pending"
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
	// Refused is, for a change --force or --adopt made, why a render
	// without them refuses it (Decision.Refused).
	Refused string
	data    []byte // the whole file to write (Create/Recreate/Update) or nil
	mode    fs.FileMode
	remove  bool // Prune of a whole file (a block prune rewrites data instead)
	state   *FileState
	// For showing the change: the document, the live content, and the
	// secret pointers recorded for it.
	doc     *render.Document
	live    []byte
	secrets []string
	// stateKey is where the state records the entry (Path when empty).
	stateKey string
	// backup is content agyconf did not write and is about to overwrite:
	// kept in the store's backups/ first, for the reason given.
	backup       []byte
	backupReason string
	// backupPtrs, for an entry's backup, are the pointers of its secrets
	// relative to the entry (the plan's and the state's); backupRefs the
	// strings the plan puts there, by pointer relative to the backup.
	backupPtrs []string
	backupRefs map[string]model.Str
	// wouldBe, for a conflict, is the file as the config wants it, to be
	// shown as a diff against what is there.
	wouldBe []byte
	// forget drops the unit from the state once the batch is in place.
	forget bool
	// waiting, for a pending change, are the secret files it waits for.
	waiting []string
	// writes: the decision writes the unit (a whole file's data, or an
	// entry's edit carried by its file's merge).
	writes bool
	// pruned: the change removes the unit agyconf created (remembered as
	// gone). createsFile: a shared file's write creates it. othersWrote:
	// someone else wrote the shared file since agyconf last did.
	pruned, createsFile, othersWrote bool
	// absent: there is no file at Path (a whole file's change).
	absent bool
	// origin is how agyconf came to own the unit, as recorded before.
	origin Origin

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
	// Pending are inline secrets that cannot be read yet, by path (render
	// --defer-secrets, status): what needs one is decided as a Pending
	// change, and they are never read.
	Pending map[string]string
	// Layout is the config's layout. A unit the state records at a path
	// it does not write (nor an earlier override the state records) is
	// released, never removed or rewritten: the state was edited, or a
	// cloned workspace's is hostile. Its folders, and their parents, are
	// never removed for being empty by a prune (the others a prune empties
	// go), unless agyconf created them and nothing of its own is left
	// below (State.Folders). Its overrides are recorded in the state. Nil
	// allows every path and keeps no folder.
	Layout *layout.Layout
	// placeFn is places, for the state being decided.
	placeFn func(path string) bool
	// ReadOutsideLinks reads the content of a target that is a link out of
	// the root (global scope: the user's own dotfiles elsewhere); without
	// it such a target is a conflict and is never read (a workspace, where
	// a cloned repository could link to any file of the machine, and diff
	// would print it). Either way a write replaces the link.
	ReadOutsideLinks bool
	// AfterHMLink is the home-files folder of the Home Manager generation
	// about to be linked, for the module's preflight (render --dry-run
	// before writeBoundary): the decision is the one the render will make
	// after Home Manager's linkGeneration, which removes the links of the
	// generation it replaces and links the new generation's files. A link
	// into a Home Manager generation is then gone, unless the new
	// generation links that path too, and a path the new generation links
	// is a link into it. "" decides on the files as they are.
	AfterHMLink string
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
	st.index()
	opts.placeFn = opts.places(st)
	var out []Change
	wanted := map[string]bool{}
	ct := newContainer(opts.FS, opts.nixStore)
	if err := caseCollision(plan); err != nil {
		return nil, err
	}
	refused := make([]*Change, len(plan.Documents))
	for i, d := range plan.Documents {
		if c, escapes := ct.refuse(d.Path); escapes {
			refused[i] = &c
		}
	}
	lives := readLives(opts, plan.Documents, refused)
	for i, d := range plan.Documents {
		wanted[d.Path] = true
		if refused[i] != nil {
			out = append(out, *refused[i])
			continue
		}
		if lives[i].err != nil {
			return nil, lives[i].err
		}
		if d.Merge != nil {
			// agyconf never writes a comment, a trailing comma or a byte
			// order mark, so merging into a file that has them asks no
			// more of agy than the file already did (validate judges
			// those against --agy-version).
			cs, err := decideShared(d, lives[i].l, jsonmerge.AgySyntax(d.Schema), st, opts)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
			continue
		}
		c, err := decideDoc(d, lives[i].l, st.Files[d.Path], opts)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	// Shared files the plan no longer has at all: their entries go.
	byFile := st.keysByFile()
	var gone []string
	for file := range byFile {
		if !wanted[file] {
			gone = append(gone, file)
		}
	}
	sort.Strings(gone)
	for _, file := range gone {
		if c, escapes := ct.refuse(file); escapes {
			out = append(out, c)
			continue
		}
		// Only agyconf's entries leave the file and every other byte
		// stays, so it is read with what agy reads in any of its files:
		// a file render merged into, comments and all, is one clean and
		// a later render can let go of.
		l, err := readLive(opts.FS, file, opts.ReadOutsideLinks)
		if err != nil {
			return nil, err
		}
		cs, err := decideShared(&render.Document{Path: file, Mode: render.ModeFile, JSON: map[string]any{}, Merge: &render.Merge{}}, l, jsonmerge.JSONC, st, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	// In order, so that of two stale files that cannot be read the same
	// one is reported every time.
	for _, p := range slices.Sorted(maps.Keys(st.Files)) {
		fsState := st.Files[p]
		if wanted[p] || strings.Contains(p, unitSep) {
			continue
		}
		if c, escapes := ct.refuse(p); escapes {
			out = append(out, c)
			continue
		}
		if !opts.writes(p) {
			out = append(out, notAPlace(p, p, fsState.Origin))
			continue
		}
		c, err := decideStale(p, fsState, st, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	for i := range out {
		// What the last render left out for a secret it could not read,
		// and that this one can: said, since it was a warning then.
		if waited := st.Waiting[out[i].key()]; waited != nil && out[i].Action != Pending && out[i].Action != Merge && out[i].Reason == "" {
			out[i].Reason = fmt.Sprintf("the last render left it as it was, waiting for the secret %s, which can be read now", strings.Join(waited, ", "))
		}
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
	// outside is set for a link that leads out of the root and is not
	// read (a workspace's, or one that is not the user's to read).
	outside bool
	// store is set for a link that leads into the Nix store.
	store bool
	// hmFiles is set for a link into a Home Manager generation's files
	// (…-home-manager-files/…), which linkGeneration removes or replaces.
	hmFiles bool
	data    []byte
	mode    fs.FileMode
}

// hmSwitch is what Home Manager's linkGeneration will have made of a
// target by the time the render runs (Options.AfterHMLink): linked, when
// the new generation links the path; gone, when it is a link into a
// generation and the new one does not link it.
type hmSwitch struct{ linked, gone bool }

func (o Options) hmSwitch(p string, l live) hmSwitch {
	if o.AfterHMLink == "" {
		return hmSwitch{}
	}
	// The generation in the store, outside the root: only whether it
	// links the path is asked, nothing of it is read.
	if _, err := os.Lstat(filepath.Join(o.AfterHMLink, filepath.FromSlash(p))); err == nil {
		return hmSwitch{linked: true}
	}
	return hmSwitch{gone: l.link != "" && l.hmFiles}
}

// hmLink reports whether a link points into a Home Manager generation:
// replacing it would make the next `home-manager switch` abort, since HM
// refuses to clobber a file it did not link. It is judged on where the
// link leads, cleaned, never on its text: "home-manager-files/../.." in a
// link's text leads anywhere.
func (l live) hmLink() bool { return l.store }

// hmLinkedReason refuses a path the Home Manager generation being
// activated links (Options.AfterHMLink): --adopt would break the next
// switch, so only dropping one writer resolves it.
const hmLinkedReason = "is linked by the Home Manager generation being activated: another Home Manager option writes it too, and replacing that link would make the next switch abort, so no flag takes it over. Keep one writer: drop that option, or this entry from agyconf's config"

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
	if t := st.Mode().Type(); t != 0 && t != fs.ModeSymlink {
		// Refused on what Lstat says, never opened: opening a FIFO, even
		// without blocking, wakes a writer waiting on it.
		return live{}, liveErr(fsys, p, &confine.NotRegularError{Path: fsys.Full(p), Mode: st.Mode()})
	}
	var l live
	if st.Mode()&fs.ModeSymlink != 0 {
		if l.link, err = fsys.Readlink(p); err != nil {
			return live{}, err
		}
		// A link inside the root to something that is not a file: the
		// same, on what Stat says. One that leads out or nowhere fails
		// Stat and is judged below, as ever.
		if tst, serr := fsys.Stat(p); serr == nil && tst.Mode().Type() != 0 {
			return live{}, liveErr(fsys, p, &confine.NotRegularError{Path: fsys.Full(p), Mode: tst.Mode()})
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
	case errors.As(err, &le) && le.Reason == confine.LinkOutside && l.link != "":
		// Judged on where the link leads, cleaned: its text could say
		// "home-manager-files/../.." and lead anywhere.
		leads := filepath.Clean(le.Leads)
		l.hmFiles = strings.Contains(leads, "-home-manager-files/")
		l.store = strings.HasPrefix(leads+"/", nixStore) || l.hmFiles
		if !readOutside {
			// A workspace arrived with git clone: what its links point to
			// is none of its business, and diff would print it.
			l.exists, l.outside = true, true
			return l, nil
		}
		// A global root's links are the user's own (dotfiles elsewhere,
		// Home Manager's store): read by path, bounded and without
		// blocking, to merge into or to back up.
		data, fi, err := confine.ReadFileInfo(fsys.Full(p), MaxLiveFileSize)
		if err != nil {
			return live{}, liveErr(fsys, p, err)
		}
		l.exists, l.data, l.mode = true, data, fi.Mode().Perm()
		return l, nil
	}
	return live{}, liveErr(fsys, p, err)
}

// liveRead is a live file read, or why it could not be.
type liveRead struct {
	l   live
	err error
}

// readLives reads the live file of every document not refused, on up to
// workers goroutines: a render of hundreds of files otherwise waited for
// each read in turn. Nothing is written while they are read, so reading
// them all first sees what reading each just before its decision did, and
// the error reported is the first in the plan's order, as before. What
// changed is that a document after one whose decision fails is read too:
// read only, and only a regular file is opened (readLive refuses anything
// else, at the path or behind a link, on what Lstat or Stat says), which
// is what a render without that failure does to it.
func readLives(opts Options, docs []*render.Document, refused []*Change) []liveRead {
	out := make([]liveRead, len(docs))
	_ = parallel(len(docs), func(i int) error {
		if refused[i] == nil {
			out[i].l, out[i].err = readLive(opts.FS, docs[i].Path, opts.ReadOutsideLinks)
		}
		return nil
	})
	return out
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

// decideDoc decides a whole file, whose live file is l.
func decideDoc(d *render.Document, l live, owned *FileState, opts Options) (Change, error) {
	c := Change{Path: d.Path, mode: d.Mode, doc: d}
	hm := opts.hmSwitch(d.Path, l)
	if hm.linked {
		// The new generation links it: a link into the store by then,
		// whatever is there now, and one that generation's next switch
		// expects to find. Replacing it would make that switch abort, so
		// no flag takes it over.
		c.apply(Decision{Action: Conflict, Reason: hmLinkedReason}, owned)
		return c, nil
	}
	c.live, c.absent = l.data, !l.exists
	if owned != nil {
		c.secrets = owned.Secrets
	}
	wantHash, secrets, err := desiredHash(d)
	if err != nil {
		return c, err
	}
	c.state = &FileState{SHA256: wantHash, Block: d.Kind == render.ManagedBlock, Secrets: secrets}
	if d.Kind == render.ManagedBlock && d.Block != agy.BlockHTMLComment {
		c.state.BlockSyntax = d.Block
	}

	// What agyconf would write, secrets read: comparing it with the live
	// bytes in memory finds a rotated secret without ever hashing one.
	waits := opts.waitingFor(d.SecretFiles())
	data, err := d.Bytes(opts.readOrPlaceholder())
	if err != nil {
		return c, err
	}
	if d.Kind == render.ManagedBlock {
		data = blockMarkers(d.Block).splice(l.data, data)
	}

	// The live content of the part agyconf would own, hashed the way the
	// state records it: canonical, secrets redacted.
	var liveHash string
	var haveLive bool
	if l.exists && !l.outside {
		liveHash, haveLive, err = liveHashOf(d, l.data, secrets, owned)
		if err != nil {
			return c, fmt.Errorf("%s: %w", d.Path, err)
		}
	}
	f := opts.facts(d.Path, owned)
	f.Desired = true
	f.Live = haveLive || l.outside
	f.HMLink, f.OutsideLink = l.hmLink() && l.link != "", l.outside && !l.hmLink()
	f.HMLinkGoes = f.HMLink && hm.gone
	// A link is never up to date: it is replaced by a regular file.
	f.UpToDate = haveLive && l.link == "" && bytes.Equal(l.data, data) && (opts.sameMode(l.mode, d.Mode) || d.Kind == render.ManagedBlock)
	// What is not agyconf's is the same content only when its values are
	// the config's, secrets read (see decideShared).
	f.SameContent = haveLive && liveHash == wantHash && (owned != nil || waits != nil || d.JSON == nil || sameJSON(l.data, data))
	f.Ours = owned != nil && haveLive && owned.matches(liveHash)
	if owned != nil && haveLive && !f.Ours && d.JSON != nil && d.Kind != render.ManagedBlock {
		// Recorded with other secrets' places (a render cut short, a
		// secret moved): each alone.
		for _, ptrs := range owned.ptrSets(secrets)[1:] {
			if h, err := hashLive(l.data, d.Path, ptrs); err == nil && owned.matches(h) {
				f.Ours = true
				break
			}
		}
	}
	dec := decideUnit(f, opts.flags())
	if waits != nil {
		if dec = pendingDecision(dec, f, waits); dec.Action == Pending {
			c.markPending(dec, waits)
			return c, nil
		}
	}
	c.apply(dec, owned)
	if dec.Action == Conflict && f.OutsideLink {
		c.Reason = outsideLinkReason(l.link)
	}
	if dec.Refused != "" && f.OutsideLink {
		c.Refused = outsideLinkReason(l.link)
	}
	if dec.Action == Conflict && !l.outside {
		c.wouldBe = data
	}
	if dec.Write {
		c.data = data
	}
	if dec.Action == Update && c.Reason == "" && haveLive && l.link == "" && bytes.Equal(l.data, data) {
		// Only the mode differs: say so, since the content shows no change.
		c.Reason = modeReason(l.mode, d.Mode)
	}
	if dec.Backup {
		c.backup = l.data
		if d.JSON != nil {
			c.backupRefs = render.SecretStrs(d.JSON)
		}
		if l.link != "" && l.data == nil {
			c.backup = []byte("symbolic link to " + l.link + "\n")
		}
		if d.Kind == render.ManagedBlock {
			// Only the block is agyconf's: the user's text around it stays.
			c.backup, _, _ = blockMarkers(d.Block).extract(l.data)
		}
	}
	return c, nil
}

// modeReason says why a file whose content is right is rewritten.
func modeReason(have, want fs.FileMode) string {
	if want == render.ModeSecret {
		return fmt.Sprintf("has mode %04o; it holds inline credentials, so agyconf keeps it 0600", have)
	}
	return fmt.Sprintf("has mode %04o; agyconf writes it %04o", have, want)
}

// facts are what the state and the other instances say about a unit.
func (o Options) facts(key string, owned *FileState) Facts {
	f := Facts{Owned: owned != nil}
	if owned != nil {
		f.Origin, f.HasOriginal = owned.Origin, owned.Original != ""
	} else if other := o.ownedElsewhere(key); other != "" {
		f.Elsewhere = other
		if os := o.Others[other].Files[key]; os != nil {
			f.Origin, f.HasOriginal = os.Origin, os.Original != ""
		}
	}
	return f
}

func (o Options) flags() Flags { return Flags{Force: o.Force, Adopt: o.Adopt} }

// writes reports whether the layout may write path.
func (o Options) writes(path string) bool { return o.placeFn == nil || o.placeFn(path) }

// notAPlace is the change for a unit the state records where the layout
// never writes: released, never removed or rewritten.
func notAPlace(path, key string, origin Origin) Change {
	return Change{Path: path, stateKey: key, Action: Release, forget: true, origin: origin,
		Reason: "is recorded in agyconf's state but is not a place this config writes (the state was edited, or the layout changed); left as it is and forgotten"}
}

// apply takes a decision into the change: its action, reason, the origin
// and backup to record, and what the state forgets.
func (c *Change) apply(d Decision, owned *FileState) {
	c.Action, c.Reason, c.forget, c.pruned, c.writes, c.Refused = d.Action, d.Reason, d.Forget, d.Remove, d.Write, d.Refused
	if owned != nil {
		c.origin = owned.Origin
	}
	if c.state != nil {
		origin := d.Origin
		if origin == "" && owned != nil {
			origin = owned.Origin
		}
		if origin == "" {
			origin = OriginCreated
		}
		c.state.Origin = origin
		if owned != nil {
			c.state.Original = owned.Original
		}
	}
	if d.Backup {
		switch d.Origin {
		case OriginAdopted:
			c.backupReason = "adopt"
		case OriginForced:
			c.backupReason = "force"
		default:
			c.backupReason = "found"
		}
	}
}

func decideStale(p string, owned *FileState, st *State, opts Options) (Change, error) {
	c := Change{Path: p, secrets: owned.Secrets}
	l, err := readLive(opts.FS, p, opts.ReadOutsideLinks)
	if err != nil {
		return c, err
	}
	if !l.exists || l.link != "" {
		// Gone, or replaced by a link (someone else's now): only the state
		// forgets it, and nothing of it is shown.
		c.Action, c.forget = Prune, true
		return c, nil
	}
	c.live = l.data
	var h string
	live := true
	m := blockMarkers(owned.BlockSyntax)
	if owned.Block {
		block, ok, err := m.extract(l.data)
		if err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
		live = ok
		h = sum(block)
	} else if h, err = hashLive(l.data, p, owned.Secrets); err != nil {
		return c, fmt.Errorf("%s: %w", p, err)
	}
	ours := owned.matches(h)
	if !ours && !owned.Block && strings.HasSuffix(p, ".json") {
		for _, ptrs := range owned.ptrSets(nil)[1:] {
			if h, err := hashLive(l.data, p, ptrs); err == nil && owned.matches(h) {
				ours = true
				break
			}
		}
	}
	f := Facts{Owned: true, Live: live, Ours: ours, Origin: owned.Origin, HasOriginal: owned.Original != ""}
	dec := decideUnit(f, Flags{})
	if dec.Action == Keep && f.HasOriginal && !owned.Block {
		// Already what was given back (a render cut short after it gave
		// it back and before the state said so): let go of.
		if orig, err := original(opts, st, p, "", owned.Original, l.data); err == nil && bytes.Equal(orig, l.data) {
			dec = Decision{Action: Release, Forget: true, Reason: reasonGivenBack}
		}
	}
	var orig []byte
	if dec.Restore {
		if orig, err = original(opts, st, p, "", owned.Original, l.data); err != nil {
			dec = Decision{Action: Release, Forget: true, Reason: reasonNoOriginal + fmt.Sprintf(" (%v)", err)}
		}
	}
	c.apply(dec, owned)
	switch {
	case dec.Remove && owned.Block:
		c.data, c.mode = m.remove(l.data), l.mode
		if len(c.data) == 0 {
			// The block was the whole file: the file goes with it.
			c.data, c.remove = nil, true
		}
	case dec.Remove:
		c.remove = true
	case dec.Restore && owned.Block:
		c.data, c.mode = m.splice(l.data, orig), l.mode
	case dec.Restore:
		c.data, c.mode = orig, l.mode
	}
	return c, nil
}

// desiredHash hashes what agyconf will write, with secrets redacted.
func desiredHash(d *render.Document) (string, []string, error) {
	if d.Kind == render.ManagedBlock {
		return sum(lf(d.Text)), nil, nil // as markers.extract reads it back
	}
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
		block, ok, err := blockMarkers(d.Block).extract(data)
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
	if len(ptrs) == 0 {
		// Nothing to redact: the form encoding/json would write, found
		// without decoding (most of deciding a file of many entries).
		if form, ok := jsonmerge.EncodingJSONForm(raw); ok {
			return sum(form), nil
		}
	}
	return decodedHash(raw, ptrs)
}

// decodedHash is redactedHash by its definition: raw decoded, the strings
// at ptrs replaced, encoded again.
func decodedHash(raw []byte, ptrs []string) (string, error) {
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
		// The offset is just past the byte encoding/json stopped at.
		p := jsonmerge.Position(data, int(se.Offset))
		return fmt.Errorf("not valid JSON at line %d, column %d: %v", p.Line, p.Column, se)
	}
	return fmt.Errorf("not valid JSON: %w", err)
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	ca, err := jsonmerge.Canonical(a)
	if err != nil {
		return false
	}
	cb, err := jsonmerge.Canonical(b)
	return err == nil && bytes.Equal(ca, cb)
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
// renamed over the target), what agyconf did not write is backed up before
// it is overwritten, and the state is saved last, so an interrupted run
// leaves each file old or new and the next run converges.
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
	for i := range changes {
		c := &changes[i]
		if c.backup == nil {
			continue
		}
		if secrets == nil {
			secrets = secretValues(changes, opts.Secrets)
		}
		// A secret comes out where it can be put back exactly, and the
		// backup records where.
		data, taken := takeSecrets(c.backup, c.backupRefs, opts.Secrets)
		if c.backupReason == "takeover" {
			// The whole file before agyconf first merged into it: the
			// user's bytes, given back byte for byte when agyconf lets go
			// of the file and nothing else changed it. A value of one of
			// agyconf's secrets elsewhere in it (written there before its
			// state was lost, or the user's own copy of the same token)
			// is taken out too; the file is then never given back whole.
			data = RedactValues(redactPointers(data, *c), secrets)
		}
		id, err := opts.Store.Backup(data)
		if err != nil {
			return err
		}
		st.addBackup(Backup{ID: id, Path: c.Path, Entry: c.Pointer(), Reason: c.backupReason, Secrets: taken})
		if c.state != nil && c.backupReason != "takeover" {
			c.state.Original = id
		}
	}
	// The records as decided on, before the pending ones replace them.
	recorded := maps.Clone(st.Files)
	b := &batch{fs: opts.FS, keep: opts.keepDirs(st), contain: newContainer(opts.FS, opts.nixStore)}
	written := map[int]*item{} // by change
	for i, c := range changes {
		switch {
		case c.remove && c.rebuild != nil:
			written[i] = b.removeShared(c.Path, c.live, c.rebuild)
		case c.remove:
			b.remove(c.Path)
		case c.data != nil:
			written[i] = b.write(c.Path, c.data, c.mode, c.live, c.rebuild)
		}
	}
	if len(b.items) > 0 || len(b.removes) > 0 {
		// Record what is about to be written before writing it, beside
		// whatever earlier renders cut short were about to write.
		for _, c := range changes {
			// Only what this batch writes: a unit found or unchanged is
			// recorded when the render completes.
			if c.state == nil || c.forget || !(c.writes || c.data != nil || c.remove) {
				continue
			}
			if prev := st.Files[c.key()]; prev != nil {
				p := *prev
				p.Pending = append([]string(nil), prev.Pending...)
				p.addPending(c.state.SHA256)
				p.SecretsBefore = unionSorted(p.Secrets, p.SecretsBefore, c.state.Secrets)
				if c.backup != nil && c.backupReason != "takeover" {
					// What it overwrites is backed up: the record says
					// so before the write, or a render cut short after
					// it would leave the user's content unreferenced.
					p.Origin, p.Original = c.state.Origin, c.state.Original
				}
				st.Files[c.key()] = &p
			} else if c.state.SHA256 != "" || c.state.Item {
				// A list item is its own content: recorded as it is, so a
				// render killed after writing one still knows it made it
				// (and a later one does not take it for the user's).
				st.Files[c.key()] = &FileState{Secrets: c.state.Secrets, Block: c.state.Block, Item: c.state.Item, Origin: c.state.Origin, Original: c.state.Original, Earlier: c.state.Earlier, SecretsBefore: c.state.SecretsBefore}
				st.Files[c.key()].addPending(c.state.SHA256)
			}
		}
		// The shared files' bytes about to be written, and the folders
		// about to be made: a render killed after making them still
		// knows them for agyconf's.
		for _, c := range changes {
			if c.Action != Merge || c.data == nil {
				continue
			}
			fresh := st.Shared[c.Path] == nil
			sh := st.shared(c.Path)
			sh.Created = sh.Created || c.createsFile
			add := func(h string) {
				if h != sh.SHA256 && !slices.Contains(sh.Pending, h) {
					sh.Pending = append(sh.Pending, h)
				}
			}
			add(sum(c.data))
			if fresh && c.live != nil {
				// Until the first write is in place, the file as agyconf
				// took it over is as agyconf knows it too.
				add(sum(c.live))
			}
		}
		st.addFolders(b.missingDirs(), opts)
		st.recordLayout(opts.Layout)
		if err := opts.Store.SaveState(opts.Instance, st); err != nil {
			return fmt.Errorf("%w; nothing was written", err)
		}
	}
	if err := b.commit(); err != nil {
		return err
	}
	// What waits for a secret, as of this render: a later one that can
	// read it writes it and drops it from the list.
	st.Waiting = nil
	for _, c := range changes {
		if c.Action == Pending {
			if st.Waiting == nil {
				st.Waiting = map[string][]string{}
			}
			st.Waiting[c.key()] = c.waiting
		}
	}
	for _, c := range changes {
		if c.othersWrote && st.Shared[c.Path] != nil {
			st.Shared[c.Path].Others = true
		}
	}
	for i, c := range changes {
		switch {
		case c.forget:
			if c.pruned || c.Action == Restore {
				st.remember(c.key(), st.Files[c.key()])
			}
			delete(st.Files, c.key())
		case c.Action == Merge:
			// The entries record themselves; the file, what agyconf wrote.
			if it := written[i]; it != nil {
				if it.removed {
					delete(st.Shared, c.Path)
				} else {
					sh := st.shared(c.Path)
					sh.SHA256, sh.Pending = sum(it.data), nil
				}
			}
		case c.Action == Keep, c.Action == Conflict, c.Action == Pending:
			// Keep: still recorded, a later render may prune it once
			// restored.
		case c.state != nil:
			// What agyconf wrote there before: the record as decided on
			// (its hash, unless that is content found and never written
			// over), and whatever it was writing since.
			prev := recorded[c.key()]
			var pending []string
			if p := st.Files[c.key()]; p != nil {
				pending = p.Pending
			}
			c.state.Earlier = mergeEarlier(c.state.Earlier, append(prev.wroteBefore(c.state.SHA256), pending...), c.state.SHA256)
			if o := c.state.Origin; o == OriginFound || o == OriginUnknown {
				c.state.Written = c.writes || (prev != nil && prev.Written && prev.SHA256 == c.state.SHA256)
			}
			if len(c.state.Earlier) > 0 && prev != nil {
				c.state.SecretsBefore = unionSorted(c.state.Secrets, c.state.SecretsBefore, prev.Secrets, prev.SecretsBefore)
			}
			st.Files[c.key()] = c.state
			st.forgetGone(c.key())
		}
	}
	st.index()
	for file, sh := range st.Shared {
		keys := st.keysByFile()[file]
		if len(keys) == 0 {
			delete(st.Shared, file) // agyconf no longer merges into it
			continue
		}
		sh.addContainers(keys)
	}
	st.recordLayout(opts.Layout)
	if err := st.removeFolders(opts); err != nil {
		return err
	}
	if !st.read && st.empty() {
		// An instance that had no state and owns nothing after this
		// run (clean, or a render of an empty config, into a root
		// agyconf never rendered) gets none: a state that claims the
		// unnamed instance would refuse the config that does render
		// here.
		return nil
	}
	if err := opts.Store.SaveState(opts.Instance, st); err != nil {
		// The pending hashes saved before the batch make what was just
		// written agyconf's own to the next render.
		return fmt.Errorf("%w; the files are in place, and the next render records them", err)
	}
	return nil
}

// mergeEarlier joins two histories of what agyconf wrote into a unit,
// oldest first, without now, at most MaxEarlier.
func mergeEarlier(a, b []string, now string) []string {
	var out []string
	for _, h := range append(slices.Clone(a), b...) {
		if h != now && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) > MaxEarlier {
		out = out[len(out)-MaxEarlier:]
	}
	return out
}

// empty: the state records nothing agyconf owns, backed up or waits for.
func (s *State) empty() bool {
	return len(s.Files) == 0 && len(s.Backups) == 0 && len(s.Waiting) == 0
}

// addBackup lists a backup, once per content, path, entry and reason.
func (s *State) addBackup(b Backup) {
	for _, old := range s.Backups {
		if old.ID == b.ID && old.Path == b.Path && old.Entry == b.Entry && old.Reason == b.Reason {
			return
		}
	}
	s.Backups = append(s.Backups, b)
}

// backupOf finds the record of a backup of path and entry.
func (s *State) backupOf(id, path, entry string) (Backup, bool) {
	for i := len(s.Backups) - 1; i >= 0; i-- {
		if b := s.Backups[i]; b.ID == id && b.Path == path && b.Entry == entry {
			return b, true
		}
	}
	return Backup{}, false
}

// takeSecrets takes out of a JSON backup each string that holds exactly
// what the plan's secret string at that place resolves to — a value of
// agyconf's secret files — replacing it by the placeholder, and records
// where and what, so that giving the backup back restores it. A string
// there that differs (the user's own value, or one agyconf wrote before
// its state was lost and the secret rotated) is kept as it was: a backup
// must give back what was there.
func takeSecrets(data []byte, refs map[string]model.Str, read render.SecretReader) ([]byte, []BackupSecret) {
	if len(refs) == 0 || read == nil {
		return data, nil
	}
	if s, ok := refs[""]; ok {
		// The backup is one secret string.
		var str string
		if json.Unmarshal(data, &str) == nil {
			if v, err := render.ResolveStr(s, read); err == nil && v == str {
				return []byte(`"` + render.Placeholder + `"`), []BackupSecret{{Pointer: "", Parts: s}}
			}
		}
		return data, nil
	}
	// A backup is of a file as it was, in whatever syntax agy read it.
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		return data, nil
	}
	ptrs := make([]string, 0, len(refs))
	for p := range refs {
		ptrs = append(ptrs, p)
	}
	sort.Strings(ptrs)
	var taken []BackupSecret
	for _, p := range ptrs {
		path, _, _ := parseUnitKey(unitSep + p)
		raw, ok := doc.Get(path...)
		var str string
		if !ok || json.Unmarshal(raw, &str) != nil {
			continue
		}
		v, err := render.ResolveStr(refs[p], read)
		if err != nil || v != str {
			continue
		}
		if doc.Set(json.RawMessage(`"`+render.Placeholder+`"`), path...) != nil {
			return data, nil
		}
		taken = append(taken, BackupSecret{Pointer: p, Parts: refs[p]})
	}
	if len(taken) == 0 {
		return data, nil
	}
	return doc.Bytes(), taken
}

// putSecrets puts back into a backup the secrets takeSecrets took out.
func putSecrets(data []byte, taken []BackupSecret, read render.SecretReader) ([]byte, error) {
	if len(taken) == 0 {
		return data, nil
	}
	if read == nil {
		return nil, fmt.Errorf("no way to read its secrets")
	}
	if len(taken) == 1 && taken[0].Pointer == "" {
		v, err := render.ResolveStr(taken[0].Parts, read)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	// A backup is of a file as it was, in whatever syntax agy read it.
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		return nil, err
	}
	for _, t := range taken {
		v, err := render.ResolveStr(t.Parts, read)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		path, _, _ := parseUnitKey(unitSep + t.Pointer)
		if err := doc.Set(raw, path...); err != nil {
			return nil, err
		}
	}
	return doc.Bytes(), nil
}

// original reads the backup a unit gives back, its secrets put back.
// live is the unit as it is now (nil for none): where it still holds a
// string at a place a secret was taken out, that string is what goes
// back — the backup never held the value the secret had then, and the
// secret's file may have rotated since, while the unit kept what the user
// had.
func original(opts Options, st *State, path, entry, id string, live []byte) ([]byte, error) {
	data, err := opts.Store.ReadBackup(id)
	if err != nil {
		return nil, err
	}
	if b, ok := st.backupOf(id, path, entry); ok {
		read := opts.Secrets
		if len(b.Secrets) > 0 && live != nil {
			if doc, err := jsonmerge.ParseWith(live, jsonmerge.JSONC); err == nil {
				keep := map[string]string{}
				for _, t := range b.Secrets {
					path, _, _ := parseUnitKey(unitSep + t.Pointer)
					var s string
					if raw, ok := doc.Get(path...); ok && json.Unmarshal(raw, &s) == nil {
						keep[t.Pointer] = s
					}
				}
				var taken []BackupSecret
				for _, t := range b.Secrets {
					if s, ok := keep[t.Pointer]; ok {
						// The string live holds, as a literal part.
						t = BackupSecret{Pointer: t.Pointer, Parts: model.Str{{Text: s}}}
					}
					taken = append(taken, t)
				}
				return putSecrets(data, taken, read)
			}
		}
		return putSecrets(data, b.Secrets, read)
	}
	return data, nil
}

// minRedacted is the shortest secret value redacted from backups by value:
// shorter ones would match too much of a file to keep it useful.
const minRedacted = 4

// secretValues reads the values of the secrets the changes write, so that
// a backup of a file that held them can leave them out.
func secretValues(changes []Change, read render.SecretReader) []string {
	var paths []string
	// Each entry of a shared file is a change holding the whole
	// document: walked once each, 4,000 new servers in an existing
	// mcp_config.json walked it 4,000 times.
	walked := map[*render.Document]bool{}
	for _, c := range changes {
		if c.doc != nil && !walked[c.doc] {
			walked[c.doc] = true
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

// redactPointers replaces, in a whole file being backed up, the strings
// where the state says agyconf put secrets (a file it merged into through
// a link, backed up when the link is replaced) by "<secret>": they are
// agyconf's own, whatever their value now (rotated since). Where the plan
// puts secrets now the state says nothing of may hold the user's own
// credential, which the backup keeps, to give back (takeSecrets took out
// what equals agyconf's secret there). What does not parse is left to
// RedactValues.
func redactPointers(data []byte, c Change) []byte {
	ptrs := c.secrets
	if len(ptrs) == 0 {
		return data
	}
	// A backup is of a file as it was, in whatever syntax agy read it.
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		return data
	}
	placeholder := json.RawMessage(`"<secret>"`)
	redacted := false
	for _, ptr := range ptrs {
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

func (o Options) sameMode(live, want fs.FileMode) bool {
	if o.ExecBitOnly {
		return (live&0o111 != 0) == (want&0o111 != 0)
	}
	return live == want
}
